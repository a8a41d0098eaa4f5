//! Target sudoku → CNF: one-hot digits, exactly-one per cell, row-digit, column-digit and
//! box-digit (the "extended" encoding: the redundant halves help propagation), givens as unit
//! clauses, and the score as a generalized totalizer over 21 cells.

use super::Grid;
use crate::amo::exactly_one;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::sum::{encode_sum, Bound, SumOutputs, Use};

/// The score of every valid grid is `2745 + corners + ring around the centre box + centre`
/// (each row, column and box sums to 45, so the weighted sum of the other 60 cells is fixed;
/// see docs/encodings/target-sudoku.md). Those 21 digits are each at least 1, so the encoded
/// sum is `Σ (digit − 1)` over them and the score is `SCORE_BASE` plus that sum: a totalizer
/// over 21 cells with values 0–8 instead of 81 cells with weights 6–10.
pub const SCORE_BASE: u32 = 2745 + 21;

/// The 21 cells whose digits decide the score, 0-based.
pub fn score_cells() -> impl Iterator<Item = (usize, usize)> {
    let corners = [(0, 0), (0, 8), (8, 0), (8, 8)];
    let ring = (2..=6usize).flat_map(|r| (2..=6usize).map(move |c| (r, c))).filter(|&(r, c)| r.abs_diff(4).max(c.abs_diff(4)) == 2);
    corners.into_iter().chain(ring).chain([(4, 4)])
}

pub struct Encoding {
    /// `digit[r][c][d - 1]` is true when cell (r, c) holds d.
    pub digit: [[[Lit; 9]; 9]; 9],
    /// Outputs of `Σ (digit − 1)` over the 21 score cells; `o_v → score ≥ SCORE_BASE + v`.
    pub score: SumOutputs,
}

impl Encoding {
    /// What to assert so that only completions scoring at least `s` remain.
    pub fn min_score(&self, s: u32) -> Bound {
        if s <= SCORE_BASE {
            Bound::Trivial
        } else {
            self.score.at_least((s - SCORE_BASE) as u64)
        }
    }
}

pub fn encode<S: ClauseSink>(givens: &Grid, sink: &mut S) -> Encoding {
    let mut digit = [[[Lit::positive(1); 9]; 9]; 9];
    for (r, row) in digit.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            for (d, lit) in cell.iter_mut().enumerate() {
                *lit = sink.new_named_var(&|| format!("r{}c{}={}", r + 1, c + 1, d + 1));
            }
        }
    }
    for i in 0..9 {
        for j in 0..9 {
            exactly_one(sink, &digit[i][j]); // cell (i, j) holds one digit
            let row: Vec<Lit> = (0..9).map(|c| digit[i][c][j]).collect();
            exactly_one(sink, &row); // row i holds digit j + 1 once
            let col: Vec<Lit> = (0..9).map(|r| digit[r][i][j]).collect();
            exactly_one(sink, &col); // column i holds it once
            let (br, bc) = (i / 3 * 3, i % 3 * 3);
            let bx: Vec<Lit> = (0..9).map(|k| digit[br + k / 3][bc + k % 3][j]).collect();
            exactly_one(sink, &bx); // box i holds it once
        }
    }
    for (r, row) in givens.iter().enumerate() {
        for (c, &g) in row.iter().enumerate() {
            if g != 0 {
                sink.add_clause(&[digit[r][c][g as usize - 1]]);
            }
        }
    }
    let groups: Vec<Vec<(Lit, u64)>> =
        score_cells().map(|(r, c)| (0..9).map(|d| (digit[r][c][d], d as u64)).collect()).collect();
    let score = encode_sum(sink, &groups, None, Use::AtLeast);
    for &(v, o) in &score.outputs {
        sink.name_var(o, &|| format!("score>={}", SCORE_BASE as u64 + v));
    }
    Encoding { digit, score }
}

/// Reads the grid off a model (exactly-one makes the digit unique).
pub fn decode(enc: &Encoding, model: &Model) -> Grid {
    let mut grid = [[0u8; 9]; 9];
    for r in 0..9 {
        for c in 0..9 {
            grid[r][c] = (1..=9u8).find(|&d| model.value(enc.digit[r][c][d as usize - 1])).unwrap_or(0);
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::super::{check, score, testing::shuffled_grids};
    use super::*;

    #[test]
    fn the_identity_matches_the_definition_on_valid_grids() {
        for grid in shuffled_grids(500) {
            assert_eq!(check(&[[0; 9]; 9], &grid), Ok(()));
            let identity: u32 = SCORE_BASE + score_cells().map(|(r, c)| grid[r][c] as u32 - 1).sum::<u32>();
            assert_eq!(identity, score(&grid), "{grid:?}");
        }
    }

    #[test]
    fn the_score_cells_are_the_corners_the_ring_and_the_centre() {
        let cells: Vec<(usize, usize)> = score_cells().collect();
        assert_eq!(cells.len(), 21);
        let mut sorted = cells.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 21);
        assert!(cells.iter().all(|&(r, c)| {
            let ring = r.abs_diff(4).max(c.abs_diff(4));
            ring == 2 || ring == 0 || (r % 8 == 0 && c % 8 == 0)
        }));
    }
}
