//! Target sudoku (靶形数独, NOIP 2009 / Luogu P1074): a 9×9 sudoku whose completion maximises
//! `Σ weight(r, c) × digit(r, c)`, with ring weights 6 (outside) to 10 (centre).
//!
//! Read top to bottom: [`parse`] → [`encode`] / [`decode`] → [`check`] → [`render`].

mod check;
mod encode;
mod parse;
mod render;
#[cfg(test)]
mod testing;

pub use check::{check, Violation};
pub use encode::{decode, encode, Encoding, SCORE_BASE};
pub use parse::parse;
pub use render::{render, render_line};

use crate::cnf::{ClauseSink, Model};
use crate::problem::{Maximize, Tighten};
use crate::sum::Bound;

/// Rows of cells; 0 is a blank, 1–9 a digit.
pub type Grid = [[u8; 9]; 9];

/// The ring weight of a cell, 0-based: 6 on the outer ring up to 10 in the centre.
pub fn weight(r: usize, c: usize) -> u32 {
    10 - (r.abs_diff(4).max(c.abs_diff(4))) as u32
}

/// The score by its definition, over all 81 cells (the encoder uses a smaller identity; this
/// is the independent reference the optimiser and the tests trust).
pub fn score(grid: &Grid) -> u32 {
    (0..9).flat_map(|r| (0..9).map(move |c| (r, c))).map(|(r, c)| weight(r, c) * grid[r][c] as u32).sum()
}

/// The optimisation problem of one puzzle.
#[derive(Clone, Debug)]
pub struct TargetSudoku {
    pub givens: Grid,
}

impl Maximize for TargetSudoku {
    type Answer = Grid;
    type Score = u32;
    type Encoding = Encoding;

    fn encode<S: ClauseSink>(&self, sink: &mut S) -> Encoding {
        encode(&self.givens, sink)
    }

    fn decode(&self, enc: &Encoding, model: &Model) -> Grid {
        decode(enc, model)
    }

    fn score(&self, grid: &Grid) -> u32 {
        score(grid)
    }

    fn require_better<S: ClauseSink>(&self, enc: &mut Encoding, sink: &mut S, best: &u32, _: &Grid) -> Tighten {
        // A unit clause on the totalizer output: permanent, since bounds only rise, so
        // everything the solver learnt so far stays valid.
        match enc.min_score(best + 1) {
            Bound::Trivial => Tighten::Added,
            Bound::Impossible => Tighten::Exhausted,
            Bound::Lit(l) => {
                sink.add_clause(&[l]);
                Tighten::Added
            }
        }
    }
}
