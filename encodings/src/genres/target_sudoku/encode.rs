//! Target sudoku → CNF: one-hot digits, exactly-one per cell, row-digit, column-digit and
//! box-digit (the "extended" encoding: the redundant halves help propagation) over the digits
//! the givens leave open, and the score as a generalized totalizer over the open score cells.

use super::Grid;
use crate::cnf::sum::{encode_sum_traced, Bound, Node, SumOutputs, Use};
use crate::cnf::{ClauseSink, Lit, Model};
use crate::genres::sudoku;

/// The score of every valid grid is `2745 + corners + ring around the centre box + centre`
/// (each row, column and box sums to 45, so the weighted sum of the other 60 cells is fixed;
/// see docs/encodings/target-sudoku.md). Those 21 digits are each at least 1, so the encoded
/// sum is `Σ (digit − 1)` over them and the score is `SCORE_BASE` plus that sum: a totalizer
/// over 21 cells with values 0–8 instead of 81 cells with weights 6–10.
pub const SCORE_BASE: u32 = 2745 + 21;

/// The 21 cells whose digits decide the score, 0-based.
pub fn score_cells() -> impl Iterator<Item = (usize, usize)> {
    let corners = [(0, 0), (0, 8), (8, 0), (8, 8)];
    let ring = (2..=6usize)
        .flat_map(|r| (2..=6usize).map(move |c| (r, c)))
        .filter(|&(r, c)| r.abs_diff(4).max(c.abs_diff(4)) == 2);
    corners.into_iter().chain(ring).chain([(4, 4)])
}

pub struct Encoding {
    /// Sudoku's rules over the 9×9 board of the givens: `rules.digits.lit(9r + c, d)` is true
    /// when cell (r, c) holds d; `None` where the givens already rule d out there.
    pub rules: sudoku::Encoding,
    /// `SCORE_BASE` plus `(digit − 1)` of the given score cells: the part of the score the
    /// givens fix, left out of the totalizer.
    pub fixed_score: u32,
    /// Outputs of `Σ (digit − 1)` over the open score cells; `o_v → score ≥ fixed_score + v`.
    pub score: SumOutputs,
    /// The totalizer's nodes, for VeriPB certificates that derive its clauses.
    pub score_nodes: Vec<Node>,
}

impl Encoding {
    /// What to assert so that only completions scoring at least `s` remain.
    pub fn min_score(&self, s: u32) -> Bound {
        if s <= self.fixed_score {
            Bound::Trivial
        } else {
            self.score.at_least((s - self.fixed_score) as u64)
        }
    }

    /// Cell (r, c)'s variable for digit `d + 1`.
    pub fn digit(&self, r: usize, c: usize, d: usize) -> Option<Lit> {
        self.rules.digits.cell(r * 9 + c)[d]
    }
}

/// The givens as a 9×9 sudoku.
pub fn board(givens: &Grid) -> sudoku::Board {
    sudoku::Board {
        n: 9,
        box_h: 3,
        box_w: 3,
        givens: givens.concat(),
    }
}

/// Sudoku's rules (the "extended" encoding over the candidates the givens leave, in this
/// genre's order), then the score's totalizer.
pub fn encode<S: ClauseSink>(givens: &Grid, sink: &mut S) -> Encoding {
    let rules = sudoku::encode(&board(givens), sink, sudoku::Order::Interleaved);
    let mut fixed_score = SCORE_BASE;
    let mut groups: Vec<Vec<(Lit, u64)>> = Vec::new();
    for (r, c) in score_cells() {
        if givens[r][c] != 0 {
            fixed_score += givens[r][c] as u32 - 1;
        } else {
            groups.push(
                (0..9)
                    .filter_map(|d| Some((rules.digits.cell(r * 9 + c)[d]?, d as u64)))
                    .collect(),
            );
        }
    }
    let mut score_nodes = Vec::new();
    let score = encode_sum_traced(sink, &groups, None, Use::AtLeast, &mut score_nodes);
    for &(v, o) in &score.outputs {
        sink.name_var(o, &|| format!("score>={}", fixed_score as u64 + v));
    }
    Encoding {
        rules,
        fixed_score,
        score,
        score_nodes,
    }
}

/// Reads the grid off a model (exactly-one makes the digit unique).
pub fn decode(enc: &Encoding, model: &Model) -> Grid {
    let cells = enc.rules.digits.decode(model);
    std::array::from_fn(|r| std::array::from_fn(|c| cells[r * 9 + c]))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_dimacs_legend_names_the_score_base() {
        use crate::puzzle::Puzzle;
        assert!(super::super::TargetSudoku::INFO
            .variables
            .contains(&format!("score = {SCORE_BASE} +")));
    }

    use super::super::{check, score, testing::shuffled_grids};
    use super::*;

    #[test]
    fn the_identity_matches_the_definition_on_valid_grids() {
        for grid in shuffled_grids(500) {
            assert_eq!(check(&[[0; 9]; 9], &grid), Ok(()));
            let identity: u32 = SCORE_BASE
                + score_cells()
                    .map(|(r, c)| grid[r][c] as u32 - 1)
                    .sum::<u32>();
            assert_eq!(identity, score(&grid), "{grid:?}");
        }
    }

    fn candidates(givens: &Grid) -> Vec<u64> {
        let b = board(givens);
        crate::genres::digits::candidates(9, &b.givens, &b.houses())
    }

    #[test]
    fn candidates_never_exclude_a_completion_and_catch_clashes() {
        for (k, grid) in shuffled_grids(200).into_iter().enumerate() {
            let mut givens = grid;
            for (i, cell) in givens.iter_mut().flatten().enumerate() {
                if (i * 7 + k * 13) % 5 < 3 {
                    *cell = 0; // keep about two fifths
                }
            }
            let cand = candidates(&givens);
            for r in 0..9 {
                for c in 0..9 {
                    assert_ne!(
                        cand[r * 9 + c] & (1 << grid[r][c]),
                        0,
                        "grid {k} cell ({r}, {c})"
                    );
                }
            }
        }
        let mut clash = [[0u8; 9]; 9];
        clash[0][0] = 5;
        clash[0][7] = 5;
        let cand = candidates(&clash);
        assert_eq!((cand[0], cand[7]), (0, 0));
        assert_eq!(cand[10] & (1 << 5), 0);
        assert_eq!(cand[10].count_ones(), 8);
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
