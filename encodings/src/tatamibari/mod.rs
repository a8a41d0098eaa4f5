//! Tatamibari (Nikoli): partition the board into rectangles, each holding exactly one clue of
//! its shape (`+` square, `-` wider than tall, `|` taller than wide), with no point where four
//! rectangles meet.
//!
//! Read top to bottom: [`parse`] → [`encode`] / [`decode`] → [`check`] → [`render`], then
//! [`generate`] (random puzzles for puzzle makers).

mod check;
mod encode;
pub mod generate;
mod parse;
mod render;

pub use check::{check, check_rects, parse_labels, Violation};
pub use encode::{block, decode, encode, Encoding};
pub use parse::parse;
pub use render::{render_box, render_labels, render_rects, LABELS};

use crate::cnf::{ClauseSink, Model};
use crate::problem::Enumerate;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `+`: a square.
    Square,
    /// `-`: strictly wider than tall.
    Wide,
    /// `|`: strictly taller than wide.
    Tall,
}

impl Shape {
    pub fn symbol(self) -> char {
        match self {
            Shape::Square => '+',
            Shape::Wide => '-',
            Shape::Tall => '|',
        }
    }

    /// The shape a clue of a `height × width` rectangle must have.
    pub fn of(height: usize, width: usize) -> Shape {
        match height.cmp(&width) {
            std::cmp::Ordering::Equal => Shape::Square,
            std::cmp::Ordering::Less => Shape::Wide,
            std::cmp::Ordering::Greater => Shape::Tall,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Blank,
    Clue(Shape),
    /// Not part of the board (the NP-hardness paper's gadgets).
    Hole,
}

/// A board: `cells[r * cols + c]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Cell>,
}

impl Board {
    pub fn cell(&self, r: usize, c: usize) -> Cell {
        self.cells[r * self.cols + c]
    }

    pub fn on_board(&self, r: usize, c: usize) -> bool {
        self.cell(r, c) != Cell::Hole
    }

    /// The board as puzzle text (`.` blanks, `#` holes), which [`parse`] reads back.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity((self.cols + 1) * self.rows);
        for r in 0..self.rows {
            for c in 0..self.cols {
                out.push(match self.cell(r, c) {
                    Cell::Blank => '.',
                    Cell::Hole => '#',
                    Cell::Clue(s) => s.symbol(),
                });
            }
            out.push('\n');
        }
        out
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

impl Rect {
    pub fn contains(&self, r: usize, c: usize) -> bool {
        (self.row..self.row + self.height).contains(&r) && (self.col..self.col + self.width).contains(&c)
    }

    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (self.row..self.row + self.height).flat_map(move |r| (self.col..self.col + self.width).map(move |c| (r, c)))
    }
}

/// A solution: its rectangles, sorted by top-left cell.
pub type Solution = Vec<Rect>;

/// Enumerating a board's solutions.
#[derive(Clone, Debug)]
pub struct Tatamibari {
    pub board: Board,
}

impl Enumerate for Tatamibari {
    type Answer = Solution;
    type Encoding = Encoding;

    fn encode<S: ClauseSink>(&self, sink: &mut S) -> Encoding {
        encode(&self.board, sink)
    }

    fn decode(&self, enc: &Encoding, model: &Model) -> Solution {
        decode(enc, model)
    }

    fn block<S: ClauseSink>(&self, enc: &Encoding, sink: &mut S, answer: &Solution) {
        block(enc, sink, answer)
    }
}
