//! The SVG picture of a partition: each rectangle filled with a light colour (no two touching
//! rectangles alike) and outlined thick, the grid inside it dashed, off-board cells left blank;
//! the puzzle draws its clues on top ([`Clues`]).

use super::render::{colour, owners};
use super::{Area, Solution};
use crate::format::svg::{self, Stroke, Svg};

/// Light fills; the colouring of touching rectangles needs at most 6.
const FILLS: [&str; 7] = [
    "#fde2e4", "#d8f3dc", "#dfe7fd", "#fff1c1", "#e8dff5", "#cdeff0", "#fce1c8",
];
/// Room for half the frame's width.
const EDGE: f64 = 2.0;
const THIN: Stroke = Stroke::solid("#bbb", 1.0);
const DASHED: Stroke = Stroke {
    colour: "#aaa",
    width: 1.0,
    dash: Some("3 3"),
};
const THICK: Stroke = Stroke::solid("#000", 3.0);

/// Draws the clue of cell `i` (if it has one) centred at `(x, y)`, in a cell `size` wide.
pub type Clues<'a> = &'a dyn Fn(&mut Svg, usize, f64, f64, f64);

/// The puzzle with 0, 1 or 2 answers, side by side, the cells where two differ marked.
pub fn svg<A: Area + ?Sized>(
    area: &A,
    answers: &[&Solution],
    caption: &str,
    clues: Clues,
) -> String {
    let cell = svg::cell_size(area.rows(), area.cols(), answers.len().min(2));
    let differ = |a: &&Solution, b: &&Solution| {
        let (oa, ob) = (owners(area, a), owners(area, b));
        oa.iter()
            .zip(&ob)
            .map(|(x, y)| x.map(|k| a[k]) != y.map(|k| b[k]))
            .collect()
    };
    svg::compose(
        &svg::panels(answers, differ, |sol, marked| {
            panel(area, sol.copied(), marked, cell, clues)
        }),
        caption,
    )
}

/// An answer that breaks a rule: `sol`, the regions of it that are rectangles (none when it
/// could not be read), with the cells of `broken` (row-major indices) outlined.
pub fn broken<A: Area + ?Sized>(
    area: &A,
    sol: Option<&Solution>,
    broken: &[usize],
    caption: &str,
    clues: Clues,
) -> String {
    let cell = svg::cell_size(area.rows(), area.cols(), 1);
    let mut s = panel(area, sol, &[], cell, clues);
    svg::mark_broken(&mut s, EDGE, EDGE, area.cols(), cell, broken);
    svg::compose(&[s], caption)
}

/// An explanation step: the rectangles placed so far, the cells of the step's rules tinted and
/// those of its deductions outlined ([`svg::mark_step`]).
pub fn step<A: Area + ?Sized>(
    area: &A,
    placed: &Solution,
    rules: &[usize],
    deduced: &[usize],
    caption: &str,
    clues: Clues,
) -> String {
    let cell = svg::cell_size(area.rows(), area.cols(), 1);
    let mut s = panel(area, Some(placed), &[], cell, clues);
    svg::mark_step(&mut s, EDGE, EDGE, area.cols(), cell, rules, deduced);
    svg::compose(&[s], caption)
}

fn panel<A: Area + ?Sized>(
    area: &A,
    sol: Option<&Solution>,
    marked: &[bool],
    cell: f64,
    clues: Clues,
) -> Svg {
    let (rows, cols) = (area.rows(), area.cols());
    let mut s = Svg::new(
        cols as f64 * cell + 2.0 * EDGE,
        rows as f64 * cell + 2.0 * EDGE,
    );
    let at = |k: usize| EDGE + k as f64 * cell;
    let owner = sol.map(|sol| owners(area, sol));
    if let (Some(sol), Some(owner)) = (sol, &owner) {
        let colours = colour(area, sol.len(), owner);
        s.open_group("rectangles");
        for (rect, &k) in sol.iter().zip(&colours) {
            s.rect(
                at(rect.col),
                at(rect.row),
                rect.width as f64 * cell,
                rect.height as f64 * cell,
                FILLS[k % FILLS.len()],
                None,
            );
        }
        s.close_group();
    }
    let on = |r: usize, c: usize| r < rows && c < cols && area.on(r * cols + c);
    let own = |r: usize, c: usize| owner.as_ref().and_then(|o| o[r * cols + c]);
    s.grid_lines(EDGE, EDGE, rows, cols, cell, |horizontal, r, c| {
        // The cells on either side of the edge, if on the board.
        let (a, b) = if horizontal {
            (
                (r > 0 && on(r - 1, c)).then(|| (r - 1, c)),
                on(r, c).then_some((r, c)),
            )
        } else {
            (
                (c > 0 && on(r, c - 1)).then(|| (r, c - 1)),
                on(r, c).then_some((r, c)),
            )
        };
        match (a, b) {
            (None, None) => None,
            (Some(a), Some(b)) if owner.is_some() => Some(if own(a.0, a.1) == own(b.0, b.1) {
                DASHED
            } else {
                THICK
            }),
            (Some(_), Some(_)) => Some(THIN),
            _ => Some(THICK),
        }
    });
    s.open_group("clues");
    for r in 0..rows {
        for c in 0..cols {
            clues(
                &mut s,
                r * cols + c,
                at(c) + cell / 2.0,
                at(r) + cell / 2.0,
                cell,
            );
        }
    }
    s.close_group();
    svg::mark_cells(&mut s, EDGE, EDGE, cols, cell, marked);
    s
}
