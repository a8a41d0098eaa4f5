//! Drawing an answer: the contest string, and a grid that shows every gray cell's open sides
//! (arrows pointing into their runs) and bordered sides (thick lines), with red dots as `@`
//! and painted cells in parentheses.

use super::{Answer, Cell, Given, Puzzle, Score};

/// `SCORE:v1,v2,…` row by row, painted cells in parentheses.
pub fn contest_string(p: &Puzzle, a: &Answer, score: &Score) -> String {
    contest(p, a, score, false)
}

/// The contest string with every gray cell's open sides after a colon (`-` for none):
/// `SCORE:7:E,7,8:S,…`. Complete, so `check` reads it back without solving.
pub fn contest_string_with_sides(p: &Puzzle, a: &Answer, score: &Score) -> String {
    contest(p, a, score, true)
}

fn contest(p: &Puzzle, a: &Answer, score: &Score, with_sides: bool) -> String {
    let values: Vec<String> = a
        .cells
        .iter()
        .zip(&p.cells)
        .map(|(cell, given)| match *cell {
            Cell::White(k) => k.to_string(),
            Cell::Gray { number, open } => {
                let value = if *given == Given::White {
                    format!("({number})")
                } else {
                    number.to_string()
                };
                if !with_sides {
                    return value;
                }
                let sides: String = (0..4)
                    .filter(|&d| open[d])
                    .map(|d| super::SIDES[d])
                    .collect();
                format!("{value}:{}", if sides.is_empty() { "-" } else { &sides })
            }
        })
        .collect();
    format!("{score}:{}", values.join(","))
}

const WIDTH: usize = 5;

pub fn render(p: &Puzzle, a: &Answer) -> String {
    let open = |i: usize, d: usize| matches!(a.cells[i], Cell::Gray { open, .. } if open[d]);
    let gray = |i: usize| matches!(a.cells[i], Cell::Gray { .. });
    let mut out = String::new();
    // The horizontal edge above row r (r == rows: the bottom frame).
    let edge_row = |r: usize| -> String {
        let mut s = String::from("·");
        for c in 0..p.cols {
            let above = (r > 0).then(|| (r - 1) * p.cols + c);
            let below = (r < p.rows).then(|| r * p.cols + c);
            let seg = if above.is_some_and(|i| open(i, 2)) {
                "──v──".to_string()
            } else if below.is_some_and(|i| open(i, 0)) {
                "──^──".to_string()
            } else if above.is_some_and(gray) || below.is_some_and(gray) {
                "━".repeat(WIDTH)
            } else if above.is_none() || below.is_none() {
                "─".repeat(WIDTH)
            } else {
                " ".repeat(WIDTH)
            };
            s.push_str(&seg);
            s.push('·');
        }
        s.push('\n');
        s
    };
    for r in 0..p.rows {
        out.push_str(&edge_row(r));
        for c in 0..=p.cols {
            let left = (c > 0).then(|| r * p.cols + c - 1);
            let right = (c < p.cols).then(|| r * p.cols + c);
            out.push(if left.is_some_and(|i| open(i, 1)) {
                '>'
            } else if right.is_some_and(|i| open(i, 3)) {
                '<'
            } else if left.is_some_and(gray) || right.is_some_and(gray) {
                '┃'
            } else if left.is_none() || right.is_none() {
                '│'
            } else {
                ' '
            });
            if let Some(i) = right {
                let text = match (a.cells[i], p.cells[i]) {
                    (Cell::White(k), _) => k.to_string(),
                    (Cell::Gray { number, .. }, Given::White) => format!("({number})"),
                    (Cell::Gray { number, .. }, Given::Gray { dot: true, .. }) => {
                        format!("@{number}")
                    }
                    (Cell::Gray { number, .. }, Given::Gray { dot: false, .. }) => {
                        format!("#{number}")
                    }
                };
                out.push_str(&format!("{text:^WIDTH$}"));
            }
        }
        out.push('\n');
    }
    out.push_str(&edge_row(p.rows));
    out
}
