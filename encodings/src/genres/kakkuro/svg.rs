//! The SVG picture: gray cells with their numbers, red dots, bordered sides thick, an arrow on
//! each open side pointing into its run, painted cells lighter gray with their number in
//! parentheses, the digits, and the score with its parts under the grid.

use super::{Answer, Cell, Given, Puzzle, Scored, STEP};
use crate::format::svg::{self, Font, Stroke, Svg};

const GRAY: &str = "#a8a8a8";
const PAINTED: &str = "#d4d4d4";
/// Room for half the thick lines' width.
const EDGE: f64 = 3.0;
const THIN: Stroke = Stroke::solid("#999", 1.0);
const FRAME: Stroke = Stroke::solid("#000", 1.5);
const THICK: Stroke = Stroke::solid("#000", 4.0);
const SCORE: f64 = 16.0;
const PARTS: f64 = 13.0;

pub fn svg(p: &Puzzle, answers: &[(&Answer, &Scored)], caption: &str) -> String {
    let cell = svg::cell_size(p.rows, p.cols, answers.len().min(2));
    let differ = |a: &(&Answer, &Scored), b: &(&Answer, &Scored)| {
        a.0.cells
            .iter()
            .zip(&b.0.cells)
            .map(|(x, y)| x != y)
            .collect()
    };
    let panel = |answer: Option<&(&Answer, &Scored)>, marked: &[bool]| {
        panel(
            p,
            answer.map(|&(a, s)| Drawn {
                answer: a,
                scored: Some(s),
                sides: true,
            }),
            marked,
            cell,
        )
    };
    svg::compose(&svg::panels(answers, differ, panel), caption)
}

/// An answer that breaks a rule (`sides`: whether it gives its open sides), with the cells of
/// `broken` (row-major indices) outlined and no score.
pub fn broken(p: &Puzzle, answer: &Answer, sides: bool, broken: &[usize], caption: &str) -> String {
    let cell = svg::cell_size(p.rows, p.cols, 1);
    let mut s = panel(
        p,
        Some(Drawn {
            answer,
            scored: None,
            sides,
        }),
        &[],
        cell,
    );
    svg::mark_broken(&mut s, EDGE, EDGE, p.cols, cell, broken);
    svg::compose(&[s], caption)
}

#[derive(Clone, Copy)]
struct Drawn<'a> {
    answer: &'a Answer,
    scored: Option<&'a Scored>,
    /// Without its sides, an answer's gray cells are drawn bordered as the puzzle gives them.
    sides: bool,
}

fn panel(p: &Puzzle, drawn: Option<Drawn>, marked: &[bool], cell: f64) -> Svg {
    let (rows, cols) = (p.rows, p.cols);
    let answer = drawn.map(|d| (d.answer, d.sides));
    let lines = drawn.and_then(|d| d.scored).map(|scored| {
        let s = &scored.score;
        [
            format!("score {s}"),
            format!(
                "P = {}, D = {} ({} painted), E = {}",
                s.p, s.d, scored.painted, s.e
            ),
        ]
    });
    let grid_w = cols as f64 * cell + 2.0 * EDGE;
    let text_w = lines.as_ref().map_or(0.0, |l| {
        svg::text_width(&l[0], SCORE).max(svg::text_width(&l[1], PARTS))
    });
    let mut s = Svg::new(
        grid_w.max(text_w),
        rows as f64 * cell + 2.0 * EDGE + if lines.is_some() { 44.0 } else { 0.0 },
    );
    let at = |k: usize| EDGE + k as f64 * cell;
    let gray = |i: usize| match answer {
        Some((a, _)) => matches!(a.cells[i], Cell::Gray { .. }),
        None => p.cells[i] != Given::White,
    };
    let open = |i: usize, d: usize| {
        answer.is_some_and(|(a, sides)| {
            sides && matches!(a.cells[i], Cell::Gray { open, .. } if open[d])
        })
    };
    // Bordered: every side of a gray cell that is not open; without an answer or its sides,
    // the given ones.
    let thick = |i: usize, d: usize| match (answer, p.cells[i]) {
        (Some((_, true)), _) => gray(i) && !open(i, d),
        (_, Given::Gray { thick, .. }) => thick[d],
        (_, Given::White) => false,
    };
    for i in (0..rows * cols).filter(|&i| gray(i)) {
        let fill = if p.cells[i] == Given::White {
            PAINTED
        } else {
            GRAY
        };
        s.rect(at(i % cols), at(i / cols), cell, cell, fill, None);
    }
    s.grid_lines(EDGE, EDGE, rows, cols, cell, |horizontal, r, c| {
        // The cells on either side and the sides of theirs that face the edge.
        let (a, b) = if horizontal {
            (
                (r > 0).then(|| ((r - 1) * cols + c, 2)),
                (r < rows).then(|| (r * cols + c, 0)),
            )
        } else {
            (
                (c > 0).then(|| (r * cols + c - 1, 1)),
                (c < cols).then(|| (r * cols + c, 3)),
            )
        };
        let bordered = [a, b].into_iter().flatten().any(|(i, d)| thick(i, d));
        Some(if bordered {
            THICK
        } else if a.is_none() || b.is_none() {
            FRAME
        } else {
            THIN
        })
    });
    if let Some((a, _)) = answer {
        // An arrow on each open side, from the gray cell into its run.
        s.open_group("open");
        let size = cell * 0.2;
        for i in 0..rows * cols {
            for d in (0..4).filter(|&d| open(i, d)) {
                let (dy, dx) = (STEP[d].0 as f64, STEP[d].1 as f64);
                let (mx, my) = (
                    at(i % cols) + cell / 2.0 * (1.0 + dx),
                    at(i / cols) + cell / 2.0 * (1.0 + dy),
                );
                let tip = (mx + dx * size * 0.7, my + dy * size * 0.7);
                let back = (mx - dx * size * 0.5, my - dy * size * 0.5);
                s.polygon(
                    &[
                        tip,
                        (back.0 - dy * size * 0.6, back.1 + dx * size * 0.6),
                        (back.0 + dy * size * 0.6, back.1 - dx * size * 0.6),
                    ],
                    "#000",
                );
            }
        }
        s.close_group();
        let mut texts: [Vec<(usize, String)>; 3] = Default::default();
        for (i, c) in a.cells.iter().enumerate() {
            match (*c, p.cells[i]) {
                (Cell::White(k), _) => texts[0].push((i, k.to_string())),
                (Cell::Gray { number, .. }, Given::White) => {
                    texts[2].push((i, format!("({number})")))
                }
                (Cell::Gray { number, .. }, _) => texts[1].push((i, number.to_string())),
            }
        }
        for ((class, font), list) in [
            ("digit", Font::centred(cell * 0.55)),
            (
                "number",
                Font {
                    bold: true,
                    ..Font::centred(cell * 0.42)
                },
            ),
            (
                "painted",
                Font {
                    bold: true,
                    ..Font::centred(cell * 0.38)
                },
            ),
        ]
        .into_iter()
        .zip(&texts)
        {
            s.open_group(class);
            for (i, t) in list {
                s.text(
                    at(i % cols) + cell / 2.0,
                    at(i / cols) + cell / 2.0,
                    t,
                    font,
                );
            }
            s.close_group();
        }
    }
    s.open_group("dot");
    for i in p.dots() {
        s.circle(
            at(i % cols) + cell * 0.14,
            at(i / cols) + cell * 0.14,
            cell * 0.085,
            "#e00",
        );
    }
    s.close_group();
    svg::mark_cells(&mut s, EDGE, EDGE, cols, cell, marked);
    if let Some([score, parts]) = lines {
        let y = rows as f64 * cell + 2.0 * EDGE;
        s.open_group("score");
        s.text(
            EDGE,
            y + 14.0,
            &score,
            Font {
                bold: true,
                ..Font::left(SCORE)
            },
        );
        s.text(EDGE, y + 34.0, &parts, Font::left(PARTS));
        s.close_group();
    }
    s
}
