//! The SVG picture: the grid with its score rings shaded, givens bold, the solver's digits in
//! blue, 3×3 boxes in thick lines, and the score under the grid.

use super::{board, score, weight, Grid};
use crate::format::svg::{self, Font, Svg};
use crate::genres::sudoku::{self, EDGE};

/// A ring's shade by its weight, 6 (outside, lightest) to 10 (centre).
fn shade(weight: u32) -> &'static str {
    ["#fffaf0", "#fff0c8", "#ffe39a", "#ffd36b", "#ffc23d"][(weight.clamp(6, 10) - 6) as usize]
}

const CELL: f64 = svg::MAX_CELL;

pub fn svg(givens: &Grid, answers: &[&Grid], caption: &str) -> String {
    let differ = |a: &&Grid, b: &&Grid| {
        (0..81)
            .map(|i| a[i / 9][i % 9] != b[i / 9][i % 9])
            .collect()
    };
    let scored = |grid: Option<&Grid>| grid.is_some_and(|g| g.iter().flatten().all(|&d| d != 0));
    svg::compose(
        &svg::panels(answers, differ, |grid, marked| {
            panel(givens, grid.copied(), marked, scored(grid.copied()))
        }),
        caption,
    )
}

/// A grid that breaks a rule, with the cells of `broken` (row-major indices) outlined and no
/// score.
pub fn broken(givens: &Grid, grid: &Grid, broken: &[usize], caption: &str) -> String {
    let mut s = panel(givens, Some(grid), &[], false);
    svg::mark_broken(&mut s, EDGE, EDGE, 9, CELL, broken);
    svg::compose(&[s], caption)
}

/// `scored`: a score line under the grid (not under a grid with gaps, `--hints`, or a broken one).
fn panel(givens: &Grid, grid: Option<&Grid>, marked: &[bool], scored: bool) -> Svg {
    let flat = grid.map(|g| g.concat());
    let shaded = |i: usize| Some(shade(weight(i / 9, i % 9)));
    let below = if scored { 30.0 } else { 0.0 };
    let mut s = sudoku::panel(&board(givens), flat.as_ref(), marked, CELL, shaded, below);
    if let Some(grid) = grid.filter(|_| scored) {
        s.open_group("score");
        s.text(
            EDGE,
            9.0 * CELL + 2.0 * EDGE + 15.0,
            &format!("score {}", score(grid)),
            Font {
                bold: true,
                ..Font::left(16.0)
            },
        );
        s.close_group();
    }
    s
}
