//! What every command hands back: the text it printed, its exit status, and the one
//! vocabulary of status words shared by all commands and puzzles.

pub use encodings::format::verdict::{exit, Status};

/// What a command printed and the exit status it chose.
pub struct Done {
    pub stdout: String,
    pub code: i32,
}
