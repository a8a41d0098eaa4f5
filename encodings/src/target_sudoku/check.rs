//! The independent validator: checks a completed grid against the givens and the sudoku rules
//! directly, sharing no code with the encoder.

use super::Grid;
use std::fmt;

/// The first rule a grid breaks, with 1-based positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    NotADigit { row: usize, col: usize, value: u8 },
    GivenChanged { row: usize, col: usize, given: u8, found: u8 },
    Repeated { house: &'static str, index: usize, digit: u8 },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Violation::NotADigit { row, col, value } => write!(f, "row {row} column {col}: {value} is not a digit 1-9"),
            Violation::GivenChanged { row, col, given, found } => {
                write!(f, "row {row} column {col}: the given {given} was changed to {found}")
            }
            Violation::Repeated { house, index, digit } => write!(f, "{house} {index} holds {digit} twice"),
        }
    }
}

pub fn check(givens: &Grid, grid: &Grid) -> Result<(), Violation> {
    for r in 0..9 {
        for c in 0..9 {
            let v = grid[r][c];
            if !(1..=9).contains(&v) {
                return Err(Violation::NotADigit { row: r + 1, col: c + 1, value: v });
            }
            if givens[r][c] != 0 && givens[r][c] != v {
                return Err(Violation::GivenChanged { row: r + 1, col: c + 1, given: givens[r][c], found: v });
            }
        }
    }
    let houses: [(&'static str, fn(usize, usize) -> (usize, usize)); 3] = [
        ("row", |i, k| (i, k)),
        ("column", |i, k| (k, i)),
        ("box", |i, k| (i / 3 * 3 + k / 3, i % 3 * 3 + k % 3)),
    ];
    for (house, cell) in houses {
        for i in 0..9 {
            let mut seen = [false; 10];
            for k in 0..9 {
                let (r, c) = cell(i, k);
                let d = grid[r][c];
                if std::mem::replace(&mut seen[d as usize], true) {
                    return Err(Violation::Repeated { house, index: i + 1, digit: d });
                }
            }
        }
    }
    Ok(())
}
