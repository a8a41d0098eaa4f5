//! The SVG picture: the grid with its score rings shaded, givens bold, the solver's digits in
//! blue, 3×3 boxes in thick lines, and the score under the grid.

use super::{score, weight, Grid};
use crate::format::svg::{self, Font, Stroke, Svg};

/// A ring's shade by its weight, 6 (outside, lightest) to 10 (centre).
fn shade(weight: u32) -> &'static str {
    ["#fffaf0", "#fff0c8", "#ffe39a", "#ffd36b", "#ffc23d"][(weight.clamp(6, 10) - 6) as usize]
}

const CELL: f64 = svg::MAX_CELL;
/// Room for half the frame's width.
const EDGE: f64 = 2.0;
const THIN: Stroke = Stroke::solid("#999", 1.0);
const THICK: Stroke = Stroke::solid("#000", 3.0);

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
    let side = 9.0 * CELL;
    let mut s = Svg::new(
        side + 2.0 * EDGE,
        side + 2.0 * EDGE + if scored { 30.0 } else { 0.0 },
    );
    let at = |k: usize| EDGE + k as f64 * CELL;
    for r in 0..9 {
        for c in 0..9 {
            s.rect(at(c), at(r), CELL, CELL, shade(weight(r, c)), None);
        }
    }
    s.grid_lines(EDGE, EDGE, 9, 9, CELL, |horizontal, r, c| {
        Some(if (if horizontal { r } else { c }) % 3 == 0 {
            THICK
        } else {
            THIN
        })
    });
    let digit = |s: &mut Svg, r: usize, c: usize, d: u8, font: Font| {
        s.text(at(c) + CELL / 2.0, at(r) + CELL / 2.0, &d.to_string(), font)
    };
    s.open_group("given");
    for (r, c) in cells().filter(|&(r, c)| givens[r][c] != 0) {
        digit(
            &mut s,
            r,
            c,
            givens[r][c],
            Font {
                bold: true,
                ..Font::centred(CELL * 0.6)
            },
        );
    }
    s.close_group();
    if let Some(grid) = grid {
        s.open_group("digit");
        for (r, c) in cells().filter(|&(r, c)| givens[r][c] == 0 && grid[r][c] != 0) {
            digit(
                &mut s,
                r,
                c,
                grid[r][c],
                Font {
                    fill: "#1f4e9c",
                    ..Font::centred(CELL * 0.55)
                },
            );
        }
        s.close_group();
        svg::mark_cells(&mut s, EDGE, EDGE, 9, CELL, marked);
        if scored {
            s.open_group("score");
            s.text(
                EDGE,
                side + 2.0 * EDGE + 15.0,
                &format!("score {}", score(grid)),
                Font {
                    bold: true,
                    ..Font::left(16.0)
                },
            );
            s.close_group();
        }
    }
    s
}

fn cells() -> impl Iterator<Item = (usize, usize)> {
    (0..9).flat_map(|r| (0..9).map(move |c| (r, c)))
}
