//! What is read and written besides answers: parse errors with their positions, puzz.link
//! URLs, the SVG writer the genres draw with, and the words of every verdict.

pub mod error;
pub mod grid;
pub mod svg;
pub mod url;
pub mod verdict;
