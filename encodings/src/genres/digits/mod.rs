//! What the digit-grid genres share (sudoku, target sudoku, Kakuro): cells holding digits
//! 1..=N, one-hot digit variables over the candidates each cell has left, the rule that a
//! house (a list of cells) holds no digit twice, reading a model back into a grid, blocking
//! grids, the backbone of a grid's digits (`--hints`), and the rows and line forms of a grid.

use crate::cnf::amo::{at_most_one, exactly_one_traced};
use crate::cnf::{ClauseSink, Lit, Model};
use crate::solver::{Solver, SolverError};

/// A grid of digits, row-major: 1..=N, 0 for none (a blank, a black cell, an undecided hint).
pub type Grid = Vec<u8>;

/// The digits each cell may hold (bit d for digit d, up to 63) once every given has removed
/// its digit from the other cells of its houses; a given cell keeps just its digit, or nothing
/// when another given clashes with it. Variables only for these are the usual sudoku
/// simplification: it halves or better a contest grid's formula and changes no answer.
pub fn candidates(n: usize, givens: &[u8], houses: &[Vec<usize>]) -> Vec<u64> {
    let all = ((1u64 << n) - 1) << 1;
    let mut open = vec![all; givens.len()];
    for house in houses {
        for &i in house.iter().filter(|&&i| givens[i] != 0) {
            for &j in house.iter().filter(|&&j| j != i) {
                open[j] &= !(1 << givens[i]);
            }
        }
    }
    for (o, &g) in open.iter_mut().zip(givens).filter(|(_, &g)| g != 0) {
        *o &= 1 << g;
    }
    open
}

/// The one-hot digit variables: [`Digits::cell`]`(i)[d - 1]` true when cell i holds d; `None`
/// where cell i cannot hold d (not among its candidates). One flat list, N per cell: a board of
/// a million cells keeps no allocation per cell.
pub struct Digits {
    n: usize,
    lits: Vec<Option<Lit>>,
}

impl Digits {
    /// A variable `rRcC=D` for each candidate of `open` (bit d for digit d, 1..=n) on a board
    /// `cols` wide, cell by cell, digit by digit.
    pub fn new<S: ClauseSink>(sink: &mut S, open: &[u64], n: usize, cols: usize) -> Digits {
        let mut lits = Vec::with_capacity(open.len() * n);
        for (i, &o) in open.iter().enumerate() {
            for d in 1..=n {
                lits.push((o >> d & 1 == 1).then(|| {
                    sink.new_named_var(&|| format!("r{}c{}={d}", i / cols + 1, i % cols + 1))
                }));
            }
        }
        Digits { n, lits }
    }

    /// Cell i's variables, digit 1 first.
    pub fn cell(&self, i: usize) -> &[Option<Lit>] {
        &self.lits[i * self.n..(i + 1) * self.n]
    }

    /// Every cell's variables, in order.
    pub fn cells(&self) -> impl Iterator<Item = &[Option<Lit>]> {
        self.lits.chunks(self.n.max(1))
    }

    /// Cell i's variable for digit d (`None` for 0 and digits it cannot hold).
    pub fn lit(&self, i: usize, d: u8) -> Option<Lit> {
        self.cell(i)
            .get((d as usize).wrapping_sub(1))
            .copied()
            .flatten()
    }

    /// The variables of digit d (1-based) in `cells`.
    pub fn of(&self, cells: &[usize], d: usize) -> Vec<Lit> {
        cells.iter().filter_map(|&i| self.cell(i)[d - 1]).collect()
    }

    /// Exactly one digit in cell i (an empty set gives the empty clause: a cell left no
    /// candidate is a clash); the sequential counter's auxiliaries where it uses one.
    pub fn one<S: ClauseSink>(&self, sink: &mut S, i: usize) -> Option<Vec<Lit>> {
        let lits: Vec<Lit> = self.cell(i).iter().flatten().copied().collect();
        exactly_one_traced(sink, &lits)
    }

    /// No digit twice in `house`: at most one of its cells per digit.
    pub fn all_different<S: ClauseSink>(&self, sink: &mut S, house: &[usize]) {
        for d in 1..=self.n {
            at_most_one(sink, &self.of(house, d));
        }
    }

    /// The grid a model holds (exactly-one makes each digit unique), 0 where a cell has none.
    pub fn decode(&self, model: &Model) -> Grid {
        self.cells()
            .map(|cell| {
                cell.iter()
                    .position(|l| l.is_some_and(|l| model.value(l)))
                    .map_or(0, |d| d as u8 + 1)
            })
            .collect()
    }

    /// One clause per grid, its digits negated, which blocks exactly it when every cell holds
    /// exactly one digit.
    pub fn block<S: ClauseSink + ?Sized>(&self, sink: &mut S, grids: &[Grid]) {
        for grid in grids {
            let clause: Vec<Lit> = grid
                .iter()
                .enumerate()
                .filter_map(|(i, &d)| self.lit(i, d).map(|l| !l))
                .collect();
            sink.add_clause(&clause);
        }
    }

    /// `found` with 0 wherever another model of the solver's clauses has another digit (the
    /// [`crate::search::backbone`] of its digits), and how many cells are decided. `None` when
    /// the run was stopped.
    pub fn fixed<S: Solver + ?Sized>(
        &self,
        solver: &mut S,
        spare: crate::search::Spare<'_>,
        team: Option<&crate::team::Team>,
        found: &[u8],
    ) -> Result<Option<(Grid, usize)>, SolverError> {
        let chosen: Vec<Lit> = found
            .iter()
            .enumerate()
            .filter_map(|(i, &d)| self.lit(i, d))
            .collect();
        let Some(fixed) = crate::search::backbone(solver, spare, team, chosen)? else {
            return Ok(None);
        };
        let fixed: std::collections::HashSet<Lit> = fixed.into_iter().collect();
        let partial: Grid = found
            .iter()
            .enumerate()
            .map(|(i, &d)| match self.lit(i, d) {
                Some(l) if fixed.contains(&l) => d,
                _ => 0,
            })
            .collect();
        let decided = partial.iter().filter(|&&d| d != 0).count();
        Ok(Some((partial, decided)))
    }
}

/// The first digit 1..=n that `house` holds twice in `grid`, with the cells holding it.
pub fn repeat(grid: &[u8], house: &[usize], n: usize) -> Option<(u8, Vec<usize>)> {
    (1..=n as u8).find_map(|d| {
        let with: Vec<usize> = house.iter().copied().filter(|&i| grid[i] == d).collect();
        (with.len() > 1).then_some((d, with))
    })
}

/// An answer's lines, verdict and blank lines after the grid passed over, and the lines that
/// are not blank with their index (lines keep their numbers for error positions).
pub fn answer_lines(text: &str) -> (Vec<&str>, Vec<(usize, &str)>) {
    let mut lines: Vec<&str> = text.lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.trim().is_empty() || crate::puzzle::is_verdict(l))
    {
        lines.pop();
    }
    let filled = lines
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    (lines, filled)
}

/// A cell's word in the rows form: its digit, `.` for 0.
pub fn word(d: u8) -> String {
    if d == 0 {
        ".".to_string()
    } else {
        d.to_string()
    }
}

/// `rows` rows, one per line, of `cols` cells separated by spaces, cell i's word by `word`.
pub fn render_rows(rows: usize, cols: usize, word: impl Fn(usize) -> String) -> String {
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| word(r * cols + c))
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

/// Digits on one line: together when each is one character (`.` for 0), else separated by
/// spaces.
pub fn render_line(digits: impl Iterator<Item = u8>, together: bool) -> String {
    let words: Vec<String> = digits.map(word).collect();
    (if together {
        words.concat()
    } else {
        words.join(" ")
    }) + "\n"
}
