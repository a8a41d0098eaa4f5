//! The SVG picture: the clues drawn as the puzzle shows them, each rectangle filled with a
//! light colour (no two touching rectangles alike) and outlined thick, the grid inside it
//! dashed; holes left blank.

use super::render::{colour, owners};
use super::{Board, Cell, Solution};
use crate::svg::{self, Font, Stroke, Svg};

/// Light fills; the colouring of touching rectangles needs at most 6.
const FILLS: [&str; 7] = ["#fde2e4", "#d8f3dc", "#dfe7fd", "#fff1c1", "#e8dff5", "#cdeff0", "#fce1c8"];
/// Room for half the frame's width.
const EDGE: f64 = 2.0;
const THIN: Stroke = Stroke::solid("#bbb", 1.0);
const DASHED: Stroke = Stroke { colour: "#aaa", width: 1.0, dash: Some("3 3") };
const THICK: Stroke = Stroke::solid("#000", 3.0);

pub fn svg(board: &Board, answers: &[&Solution], caption: &str) -> String {
    let cell = svg::cell_size(board.rows, board.cols, answers.len().min(2));
    let differ = |a: &&Solution, b: &&Solution| {
        let (oa, ob) = (owners(board, a), owners(board, b));
        oa.iter().zip(&ob).map(|(x, y)| x.map(|k| a[k]) != y.map(|k| b[k])).collect()
    };
    svg::compose(&svg::panels(answers, differ, |sol, marked| panel(board, sol.copied(), marked, cell)), caption)
}

/// An answer that breaks a rule: `sol`, the regions of it that are rectangles (none when it
/// could not be read), with the cells of `broken` (row-major indices) outlined.
pub fn broken(board: &Board, sol: Option<&Solution>, broken: &[usize], caption: &str) -> String {
    let cell = svg::cell_size(board.rows, board.cols, 1);
    let mut s = panel(board, sol, &[], cell);
    svg::mark_broken(&mut s, EDGE, EDGE, board.cols, cell, broken);
    svg::compose(&[s], caption)
}

fn panel(board: &Board, sol: Option<&Solution>, marked: &[bool], cell: f64) -> Svg {
    let (rows, cols) = (board.rows, board.cols);
    let mut s = Svg::new(cols as f64 * cell + 2.0 * EDGE, rows as f64 * cell + 2.0 * EDGE);
    let at = |k: usize| EDGE + k as f64 * cell;
    let owner = sol.map(|sol| owners(board, sol));
    if let (Some(sol), Some(owner)) = (sol, &owner) {
        let colours = colour(board, sol.len(), owner);
        s.open_group("rectangles");
        for (rect, &k) in sol.iter().zip(&colours) {
            s.rect(at(rect.col), at(rect.row), rect.width as f64 * cell, rect.height as f64 * cell, FILLS[k % FILLS.len()], None);
        }
        s.close_group();
    }
    let on = |r: usize, c: usize| r < rows && c < cols && board.on_board(r, c);
    let own = |r: usize, c: usize| owner.as_ref().and_then(|o| o[r * cols + c]);
    s.grid_lines(EDGE, EDGE, rows, cols, cell, |horizontal, r, c| {
        // The cells on either side of the edge, if on the board.
        let (a, b) = if horizontal { ((r > 0 && on(r - 1, c)).then(|| (r - 1, c)), on(r, c).then_some((r, c))) } else { ((c > 0 && on(r, c - 1)).then(|| (r, c - 1)), on(r, c).then_some((r, c))) };
        match (a, b) {
            (None, None) => None,
            (Some(a), Some(b)) if owner.is_some() => Some(if own(a.0, a.1) == own(b.0, b.1) { DASHED } else { THICK }),
            (Some(_), Some(_)) => Some(THIN),
            _ => Some(THICK),
        }
    });
    let (arm, width) = (cell * 0.28, (cell * 0.08).max(1.5));
    let pen = Stroke::solid("#000", width);
    s.open_group("clues");
    for r in 0..rows {
        for c in 0..cols {
            let Cell::Clue(shape) = board.cell(r, c) else { continue };
            let (x, y) = (at(c) + cell / 2.0, at(r) + cell / 2.0);
            s.open_group("clue");
            match shape.symbol() {
                '+' => {
                    s.line(x - arm, y, x + arm, y, pen);
                    s.line(x, y - arm, x, y + arm, pen);
                }
                '-' => s.line(x - arm, y, x + arm, y, pen),
                '|' => s.line(x, y - arm, x, y + arm, pen),
                other => s.text(x, y, &other.to_string(), Font { bold: true, ..Font::centred(cell * 0.6) }),
            }
            s.close_group();
        }
    }
    s.close_group();
    svg::mark_cells(&mut s, EDGE, EDGE, cols, cell, marked);
    s
}
