//! Input errors with a position, so every message can name line and column.

use std::fmt;

/// A problem in a puzzle file. `line` and `col` are 1-based; column counts characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl ParseError {
    pub fn new(line: usize, col: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A word as messages quote it, at most 20 characters: a hostile file's one long word must not
/// become a message of megabytes.
pub fn quoted(word: &str) -> String {
    match word.char_indices().nth(20) {
        Some((cut, _)) => format!("{:?}…", &word[..cut]),
        None => format!("{word:?}"),
    }
}

/// The words of a line split at ASCII spaces and tabs, each with its column (1-based, in
/// characters), counted as the line is walked: linear in the line.
pub fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut col = 0;
    let mut rest = line;
    std::iter::from_fn(move || {
        let skip = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        col += skip;
        rest = &rest[skip..];
        if rest.is_empty() {
            return None;
        }
        let len = rest.find([' ', '\t']).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(len);
        let at = col + 1;
        col += word.chars().count();
        rest = tail;
        Some((at, word))
    })
}
