//! Rectangle partitions of a grid, the answers of Tatamibari and Shikaku: the rectangles,
//! their variables' models and blocking clauses, the answer forms (`rects` lines, label grids,
//! box drawings) read and written, the validator's pass over a labelling, and the picture.
//! Keyed on the grid's size and which cells are on the board ([`Area`]); each puzzle adds its
//! own clue rules.

mod read;
mod render;
pub mod svg;

pub use read::{groups, parse_box, parse_labels, parse_rects, read_regions, rect_labels, rectangles, regions, Group, Regions, Unlabelled, Unplaced};
pub use render::{colour, owners, render_box, render_labels, render_rects, LABELS};

use crate::cnf::{ClauseSink, Lit, Model};

/// The grid a partition covers: its size and the cells on the board (all, but for
/// Tatamibari's holes).
pub trait Area {
    fn rows(&self) -> usize;
    fn cols(&self) -> usize;
    /// Whether cell `i` (row-major) is on the board.
    fn on(&self, _i: usize) -> bool {
        true
    }
}

/// A rectangle by its top-left cell (0-based) and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rect {
    pub row: usize,
    pub col: usize,
    pub height: usize,
    pub width: usize,
}

// Without additions that can overflow: a rectangle read from an answer may reach past
// usize::MAX (its reader refuses that, but nothing here relies on it).
impl Rect {
    pub fn contains(&self, r: usize, c: usize) -> bool {
        r.checked_sub(self.row).is_some_and(|d| d < self.height) && c.checked_sub(self.col).is_some_and(|d| d < self.width)
    }

    /// Row by row; cells past `usize::MAX` are left out.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let along = |start: usize, len: usize| (0..len).map_while(move |d| start.checked_add(d));
        along(self.row, self.height).flat_map(move |r| along(self.col, self.width).map(move |c| (r, c)))
    }
}

/// A solution: its rectangles, sorted by top-left cell.
pub type Solution = Vec<Rect>;

/// The rectangles whose variables are true in `model`, sorted.
pub fn decode(rects: &[(Rect, Lit)], model: &Model) -> Solution {
    let mut sol: Solution = rects.iter().filter(|(_, l)| model.value(*l)).map(|&(r, _)| r).collect();
    sol.sort();
    sol
}

/// Excludes one solution (`sol` sorted). Under exact cover the chosen rectangles determine the
/// solution, so one clause over their variables suffices.
pub fn block<S: ClauseSink>(rects: &[(Rect, Lit)], sink: &mut S, sol: &Solution) {
    let clause: Vec<Lit> = rects.iter().filter(|(r, _)| sol.binary_search(r).is_ok()).map(|&(_, l)| !l).collect();
    sink.add_clause(&clause);
}

/// `[[row, col, height, width], …]`.
pub fn rects_json(sol: &Solution) -> serde_json::Value {
    serde_json::json!(sol.iter().map(|r| [r.row, r.col, r.height, r.width]).collect::<Vec<_>>())
}
