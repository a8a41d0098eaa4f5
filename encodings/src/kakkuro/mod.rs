//! Kakkuro Optimization (Turkzeka 2010): a Kakuro variant where the solver chooses which sides
//! of each gray cell are open, may paint white cells gray, and maximises a product score.
//!
//! Read top to bottom: [`parse`] → [`encode`] / [`decode`] → [`check`] (the independent
//! validator and the exact score) → [`render`].

pub mod bound;
mod check;
mod encode;
mod nat;
mod parse;
mod render;

pub use check::{check, check_values, parse_answer, ReadAnswer, Scored, Violation};
pub use encode::{decode, encode, fix_values, Encoding};
pub use nat::Nat;
pub use parse::parse;
pub use render::{contest_string, render};

/// The four sides of a cell, in the order of the file format's letters.
pub const SIDES: [char; 4] = ['N', 'E', 'S', 'W'];

/// Row and column steps towards each side.
pub const STEP: [(isize, isize); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// The side facing side `d` across a line (N↔S, E↔W).
pub fn opposite(d: usize) -> usize {
    (d + 2) % 4
}

/// The largest gray number.
pub const MAX_NUMBER: u32 = 44;

/// What the puzzle gives for a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Given {
    /// White: the solver writes a digit or paints it gray.
    White,
    /// Gray, with a red dot when it scores, and the sides given as thick edges (bordered).
    Gray { dot: bool, thick: [bool; 4] },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    /// `cells[r * cols + c]`.
    pub cells: Vec<Given>,
    /// Lenient mode (spec section 4): rule 7 becomes the seed's error count.
    pub lenient: bool,
}

impl Puzzle {
    /// The neighbour of cell `i` towards side `d`, if it is on the board.
    pub fn step(&self, i: usize, d: usize) -> Option<usize> {
        let (r, c) = ((i / self.cols) as isize + STEP[d].0, (i % self.cols) as isize + STEP[d].1);
        (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols).then(|| r as usize * self.cols + c as usize)
    }

    /// The red-dot cells, in row-major order.
    pub fn dots(&self) -> Vec<usize> {
        (0..self.cells.len()).filter(|&i| matches!(self.cells[i], Given::Gray { dot: true, .. })).collect()
    }

    /// The cells of every row and every column (the lines of rule 7).
    pub fn lines(&self) -> Vec<Vec<usize>> {
        let rows = (0..self.rows).map(|r| (0..self.cols).map(|c| r * self.cols + c).collect());
        let cols = (0..self.cols).map(|c| (0..self.rows).map(|r| r * self.cols + c).collect());
        rows.chain(cols).collect()
    }
}

/// A cell of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    White(u32),
    /// A gray cell's number and which sides are open.
    Gray { number: u32, open: [bool; 4] },
}

/// An answer: `cells[r * cols + c]`. A gray cell on a given white cell is a painted one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub cells: Vec<Cell>,
}

/// A red dot's factor: number × open sides, or number² when all four are open.
pub fn factor(number: u32, open_sides: u32) -> u64 {
    if open_sides == 4 {
        u64::from(number) * u64::from(number)
    } else {
        u64::from(number) * u64::from(open_sides)
    }
}

/// An exact score: `p / max(d, 1)`, times 1.1 when there are no errors (spec section 3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The product of the red dots' factors.
    pub p: Nat,
    /// `D`: errors plus painted cells.
    pub d: u64,
    /// `E`: errors (0 in strict mode).
    pub e: u64,
}

impl Score {
    /// The score as a fraction `numerator / denominator` (not reduced).
    fn fraction(&self) -> (Nat, u64) {
        let bonus = if self.e == 0 { 11 } else { 10 };
        (self.p.mul_small(bonus), 10 * self.d.max(1))
    }

    /// The score in lowest terms.
    pub fn reduced(&self) -> (Nat, u64) {
        let (n, q) = self.fraction();
        let g = gcd(q, n.rem_small(q));
        (n.div_small(g), q / g)
    }

    /// Whether the score passes 10^11 (the contest's bonus line).
    pub fn passes_bonus_line(&self) -> bool {
        let (n, q) = self.fraction();
        n > Nat::from(100_000_000_000u64).mul_small(q)
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> std::cmp::Ordering {
        let ((a, qa), (b, qb)) = (self.fraction(), other.fraction());
        a.mul_small(qb).cmp(&b.mul_small(qa))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Score {
    /// An integer when the score is one, else a fraction `a/b` in lowest terms.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let (n, q) = self.reduced();
        if q == 1 {
            write!(f, "{n}")
        } else {
            write!(f, "{n}/{q}")
        }
    }
}
