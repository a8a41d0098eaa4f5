//! Classic Kakuro (cross sums): fill every white cell with a digit 1–9 so that no run of white
//! cells repeats a digit and each clued run adds up to its clue. Solve, count, prove
//! uniqueness, hints.
//!
//! Read top to bottom: parse → runs → encode → check → render → the puzzle for the driver. The
//! encoding is one-hot digits, as target sudoku's, with each clued run's sum written as a
//! choice among its digit sets (4 cells adding up to 10 have {1,2,3,4} alone): every cell's
//! digit is in the chosen set and every digit of the set is somewhere in the run, so with the
//! digits distinct the run holds exactly the set, and adds up to the clue. (A totalizer over
//! the digits, as [`crate::cnf::sum`] builds for Kakkuro, says less: it knows the sum, not which
//! digits make it.)

mod named;

use super::digits::{self, Digits};
use crate::capability;
use crate::cnf::amo::exactly_one;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::{quoted, ParseError};
use crate::format::svg::{self, Font, Stroke, Svg};
use crate::format::url;
use crate::puzzle::Info;
use crate::puzzle::{Format, Hints, Puzzle, ReadAnswer, Settings};
use crate::solver::{NewSolver, SolverError};
use serde_json::{json, Map, Value};
use std::fmt;

/// The largest clue: 1 + 2 + … + 9.
pub const MAX_CLUE: u8 = 45;

/// The most rows and columns read: [`crate::format::grid::MAX_SIDE`].
pub use crate::format::grid::MAX_SIDE;

/// A cell of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    White,
    /// A black cell, with the sums of the runs below it and right of it. `None` and `Some(0)`
    /// both set no sum (pzprjs writes 0 for a side left blank; it is kept so URLs read back).
    Block {
        down: Option<u8>,
        across: Option<u8>,
    },
}

const BLACK: Cell = Cell::Block {
    down: None,
    across: None,
};

/// A board: `cells[r * cols + c]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Cell>,
}

/// An answer: a digit per white cell, 0 on black cells (and, in hints, where undecided).
pub use super::digits::Grid;

/// A maximal line of white cells, across or down, and the sum its clue sets (`None` when the
/// cell before it is the edge or gives no number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub cells: Vec<usize>,
    pub across: bool,
    pub sum: Option<u8>,
}

impl Board {
    /// Every run, across ones first, each in reading order. A clue over no white cell (the
    /// next cell black or the edge) belongs to no run and says nothing, as in pzprjs.
    pub fn runs(&self) -> Vec<Run> {
        let mut runs = Vec::new();
        for across in [true, false] {
            let (outer, inner) = if across {
                (self.rows, self.cols)
            } else {
                (self.cols, self.rows)
            };
            let at = |o: usize, k: usize| {
                if across {
                    o * self.cols + k
                } else {
                    k * self.cols + o
                }
            };
            for o in 0..outer {
                let mut k = 0;
                while k < inner {
                    if self.cells[at(o, k)] != Cell::White {
                        k += 1;
                        continue;
                    }
                    let sum = match k.checked_sub(1).map(|b| self.cells[at(o, b)]) {
                        Some(Cell::Block {
                            down,
                            across: right,
                        }) => if across { right } else { down }.filter(|&s| s > 0),
                        _ => None,
                    };
                    let start = k;
                    while k < inner && self.cells[at(o, k)] == Cell::White {
                        k += 1;
                    }
                    runs.push(Run {
                        cells: (start..k).map(|j| at(o, j)).collect(),
                        across,
                        sum,
                    });
                }
            }
        }
        runs
    }

    fn white(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells.len()).filter(|&i| self.cells[i] == Cell::White)
    }

    /// The board as puzzle text, which [`parse`] reads back.
    pub fn to_text(&self) -> String {
        let word = |cell: &Cell| match *cell {
            Cell::White => "0".to_string(),
            BLACK => "-".to_string(),
            Cell::Block { down, across } => format!(
                "{},{}",
                down.map_or(String::new(), |s| s.to_string()),
                across.map_or(String::new(), |s| s.to_string())
            ),
        };
        self.cells
            .chunks(self.cols)
            .map(|row| row.iter().map(word).collect::<Vec<_>>().join(" ") + "\n")
            .collect()
    }
}

/// Janko.at's form: one row per line, cells separated by spaces: `0` (or `.`) a white cell,
/// `-` (or `#`) a black one, `D,A` a black cell with the sum `D` of the run below it and `A` of
/// the run right of it, either left out (`16,` `,23`; `\` may stand for the comma). A first
/// line of two numbers, `ROWS COLUMNS` as janko.at writes it, is checked and passed over.
pub fn parse(text: &str) -> Result<Board, ParseError> {
    let words = crate::format::grid::read(text, false, |_, w| cell(w))?;
    Ok(Board {
        rows: words.rows,
        cols: words.cols,
        cells: words.cells,
    })
}

fn cell(word: &str) -> Result<Cell, String> {
    match word {
        "0" | "." => return Ok(Cell::White),
        "-" | "#" => return Ok(BLACK),
        _ => {}
    }
    let Some((down, across)) = word.split_once([',', '\\']) else {
        return Err(format!(
            "unexpected {}: expected 0 (white), - (black) or a clue D,A (sums below and right)",
            quoted(word)
        ));
    };
    let sum = |s: &str| -> Result<Option<u8>, String> {
        match s {
            "" => Ok(None),
            s if s.bytes().all(|b| b.is_ascii_digit()) && s.len() <= 3 => match s.parse::<u8>() {
                Ok(v) if v <= MAX_CLUE => Ok(Some(v)),
                _ => Err(format!("{s}: a clue is at most {MAX_CLUE} (1 + 2 + … + 9)")),
            },
            _ => Err(format!(
                "unexpected {}: a clue is D,A with numbers 0–{MAX_CLUE} or nothing on either side",
                quoted(word)
            )),
        }
    };
    Ok(Cell::Block {
        down: sum(down)?,
        across: sum(across)?,
    })
}

/// The digit sets a run of `len` cells adding up to `sum` can hold, as bit masks (bit d for d).
fn digit_sets(len: usize, sum: u8) -> Vec<u16> {
    (0u16..512)
        .map(|m| m << 1)
        .filter(|m| {
            m.count_ones() as usize == len && (1..=9).filter(|d| m >> d & 1 == 1).sum::<u8>() == sum
        })
        .collect()
}

/// The variables: `digits.lit(i, d)` true when cell i holds d; `None` on black cells and where
/// no digit set of the cell's runs has d.
pub struct Encoding {
    pub digits: Digits,
}

/// Exactly one digit per white cell; in each run at most one cell per digit; and for a clued
/// run exactly one of its digit sets chosen, every digit of the chosen set in some cell and
/// every cell's digit in the chosen set (one set: the first clauses only).
pub fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
    let n = board.cells.len();
    let runs = board.runs();
    let sets: Vec<Option<Vec<u16>>> = runs
        .iter()
        .map(|r| r.sum.map(|s| digit_sets(r.cells.len(), s)))
        .collect();
    let mut open = vec![0u64; n];
    for i in board.white() {
        open[i] = 0b11_1111_1110;
    }
    for (run, sets) in runs.iter().zip(&sets) {
        if let Some(sets) = sets {
            let union = sets.iter().fold(0, |a, &m| a | u64::from(m));
            run.cells.iter().for_each(|&i| open[i] &= union);
        }
    }
    let cols = board.cols;
    let digits = Digits::new(sink, &open, 9, cols);
    for i in board.white() {
        digits.one(sink, i);
    }
    let lit = |i: usize, d: usize| digits.cell(i)[d - 1];
    for (run, sets) in runs.iter().zip(&sets) {
        digits.all_different(sink, &run.cells);
        let somewhere = |d: usize| digits.of(&run.cells, d);
        // Said outright, as resolution cannot refute a pigeonhole fast: ten cells have no
        // distinct digits, and nine hold every digit.
        if run.cells.len() > 9 {
            sink.add_clause(&[]);
        }
        if run.cells.len() == 9 && sets.is_none() {
            (1..=9).for_each(|d| sink.add_clause(&somewhere(d)));
        }
        let Some(sets) = sets else { continue };
        match sets[..] {
            [] => sink.add_clause(&[]),
            [set] => (1..=9)
                .filter(|d| set >> d & 1 == 1)
                .for_each(|d| sink.add_clause(&somewhere(d))),
            _ => {
                let head = run.cells[0] - if run.across { 1 } else { cols };
                let name = |m: u16| {
                    format!(
                        "r{}c{} {}={{{}}}",
                        head / cols + 1,
                        head % cols + 1,
                        if run.across { "across" } else { "down" },
                        (1..=9)
                            .filter(|d| m >> d & 1 == 1)
                            .map(|d| d.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    )
                };
                let chosen: Vec<Lit> = sets
                    .iter()
                    .map(|&m| sink.new_named_var(&|| name(m)))
                    .collect();
                exactly_one(sink, &chosen);
                for (&m, &s) in sets.iter().zip(&chosen) {
                    for d in (1..=9).filter(|d| m >> d & 1 == 1) {
                        sink.add_clause(&[&[!s], &somewhere(d)[..]].concat());
                    }
                }
                for &i in &run.cells {
                    for d in (1..=9).filter(|&d| lit(i, d).is_some()) {
                        let with: Vec<Lit> = sets
                            .iter()
                            .zip(&chosen)
                            .filter(|(&m, _)| m >> d & 1 == 1)
                            .map(|(_, &s)| s)
                            .collect();
                        sink.add_clause(&[&[!lit(i, d).expect("filtered")], &with[..]].concat());
                    }
                }
            }
        }
    }
    Encoding { digits }
}

/// The first broken rule, positions 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A white cell without a digit 1–9.
    Empty { row: usize, col: usize },
    /// A black cell given a digit.
    Black { row: usize, col: usize },
    Repeat {
        run: String,
        digit: u8,
        cells: Vec<usize>,
    },
    Sum {
        run: String,
        sum: u32,
        clue: u8,
        cells: Vec<usize>,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Violation::Empty { row, col } => write!(f, "row {row} column {col}: no digit"),
            Violation::Black { row, col } => {
                write!(f, "row {row} column {col}: a black cell holds a digit")
            }
            Violation::Repeat { run, digit, .. } => write!(f, "{run} holds {digit} twice"),
            Violation::Sum { run, sum, clue, .. } => {
                write!(f, "{run} adds up to {sum}, its clue is {clue}")
            }
        }
    }
}

fn describe(board: &Board, run: &Run) -> String {
    let i = run.cells[0];
    format!(
        "the {} run from row {} column {}",
        if run.across { "across" } else { "down" },
        i / board.cols + 1,
        i % board.cols + 1
    )
}

/// The independent validator, from the rules alone: a digit 1–9 in every white cell and none
/// in black ones, no digit twice in a run, each clued run adding up to its clue.
pub fn check(board: &Board, grid: &Grid) -> Result<(), Violation> {
    for (i, cell) in board.cells.iter().enumerate() {
        let (row, col) = (i / board.cols + 1, i % board.cols + 1);
        match (cell, grid.get(i)) {
            (Cell::White, Some(1..=9)) | (Cell::Block { .. }, Some(0)) => {}
            (Cell::White, _) => return Err(Violation::Empty { row, col }),
            (Cell::Block { .. }, _) => return Err(Violation::Black { row, col }),
        }
    }
    for run in board.runs() {
        if let Some((digit, cells)) = digits::repeat(grid, &run.cells, 9) {
            return Err(Violation::Repeat {
                run: describe(board, &run),
                digit,
                cells,
            });
        }
        let sum: u32 = run.cells.iter().map(|&i| u32::from(grid[i])).sum();
        if let Some(clue) = run.sum.filter(|&c| u32::from(c) != sum) {
            return Err(Violation::Sum {
                run: describe(board, &run),
                sum,
                clue,
                cells: run.cells.clone(),
            });
        }
    }
    Ok(())
}

/// One row per line, cells separated by spaces: `-` for black, the digit (`.` for 0) for white.
fn render_rows(board: &Board, grid: &Grid) -> String {
    digits::render_rows(board.rows, board.cols, |i| match board.cells[i] {
        Cell::Block { .. } => "-".to_string(),
        Cell::White => digits::word(grid[i]),
    })
}

/// The white cells' digits in reading order, on one line.
fn render_line(board: &Board, grid: &Grid) -> String {
    digits::render_line(board.white().map(|i| grid[i]), true)
}

/// An answer: rows as `solve` prints them (`-` or any black cell's word where the puzzle is
/// black, a digit or `.` where white; janko.at's `ROWS COLUMNS` line before them allowed), or
/// the white cells' digits on one line; a verdict line under it is passed over.
fn read_grid(board: &Board, text: &str) -> Result<Grid, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (lines, mut filled) = digits::answer_lines(text);
    let digit = |ch: char| match ch {
        '1'..='9' => Some(ch as u8 - b'0'),
        '.' | '0' => Some(0),
        _ => None,
    };
    let mut grid = vec![0; board.cells.len()];
    // A board without white cells has an empty line for its digits.
    if filled.is_empty() && board.white().next().is_none() {
        return Ok(grid);
    }
    if let [(i, line)] = filled[..] {
        let words: Vec<(usize, &str)> = crate::format::error::words(line).take(2).collect();
        if let [(col, word)] = words[..] {
            if board.cells.len() > 1 {
                let whites = board.white().count();
                if word.chars().count() != whites {
                    return Err(ParseError::new(i + 1, col, format!("one line of an answer holds the {whites} white cells' digits, this one {}", word.chars().count())));
                }
                for (k, (cell, ch)) in board.white().zip(word.chars()).enumerate() {
                    grid[cell] = digit(ch).ok_or_else(|| {
                        ParseError::new(
                            i + 1,
                            col + k,
                            format!(
                                "unexpected {ch:?}: expected a digit 1–9, or . for an empty cell"
                            ),
                        )
                    })?;
                }
                return Ok(grid);
            }
        }
    }
    if filled.len() == board.rows + 1 {
        let head: Vec<&str> = crate::format::error::words(filled[0].1)
            .map(|(_, w)| w)
            .take(3)
            .collect();
        if head == [board.rows.to_string(), board.cols.to_string()] {
            filled.remove(0);
        }
    }
    if filled.len() != board.rows {
        let at = filled
            .get(board.rows)
            .map_or(lines.len() + 1, |&(k, _)| k + 1);
        return Err(ParseError::new(
            at,
            1,
            format!(
                "the answer has {} rows, the puzzle {}",
                filled.len(),
                board.rows
            ),
        ));
    }
    for (r, &(k, line)) in filled.iter().enumerate() {
        let words: Vec<(usize, &str)> = crate::format::error::words(line)
            .take(board.cols + 1)
            .collect();
        if words.len() != board.cols {
            let has = if words.len() > board.cols {
                format!("more than {}", board.cols)
            } else {
                words.len().to_string()
            };
            return Err(ParseError::new(
                k + 1,
                line.chars().count() + 1,
                format!(
                    "this row has {has} cells; the puzzle is {} wide",
                    board.cols
                ),
            ));
        }
        for (c, (col, word)) in words.into_iter().enumerate() {
            let i = r * board.cols + c;
            grid[i] = match board.cells[i] {
                Cell::White => word
                    .chars()
                    .next()
                    .filter(|_| word.chars().count() == 1)
                    .and_then(digit)
                    .ok_or_else(|| {
                        ParseError::new(
                            k + 1,
                            col,
                            format!(
                                "unexpected {}: expected a digit 1–9, or . for an empty cell",
                                quoted(word)
                            ),
                        )
                    })?,
                Cell::Block { .. } if cell(word).is_ok_and(|c| c != Cell::White) => 0,
                Cell::Block { .. } => {
                    return Err(ParseError::new(
                        k + 1,
                        col,
                        format!(
                            "unexpected {}: the puzzle has a black cell here (write -)",
                            quoted(word)
                        ),
                    ))
                }
            };
        }
    }
    Ok(grid)
}

const CELL: f64 = svg::MAX_CELL;
const EDGE: f64 = 2.0;
const THIN: Stroke = Stroke::solid("#999", 1.0);
const THICK: Stroke = Stroke::solid("#000", 3.0);

fn panel(board: &Board, grid: Option<&Grid>, marked: &[bool], cell: f64) -> Svg {
    let (rows, cols) = (board.rows, board.cols);
    let mut s = Svg::new(
        cols as f64 * cell + 2.0 * EDGE,
        rows as f64 * cell + 2.0 * EDGE,
    );
    let corner = |i: usize| {
        (
            EDGE + (i % cols) as f64 * cell,
            EDGE + (i / cols) as f64 * cell,
        )
    };
    s.open_group("clue");
    for (i, c) in board.cells.iter().enumerate() {
        let Cell::Block { down, across } = *c else {
            continue;
        };
        let (x, y) = corner(i);
        s.rect(x, y, cell, cell, "#c0c0c0", None);
        let shown = |v: Option<u8>| v.filter(|&v| v > 0);
        if shown(down).is_some() || shown(across).is_some() {
            s.line(x, y, x + cell, y + cell, Stroke::solid("#000", 1.0));
        }
        let font = Font::centred(cell * 0.3);
        if let Some(d) = shown(down) {
            s.text(x + cell * 0.3, y + cell * 0.72, &d.to_string(), font);
        }
        if let Some(a) = shown(across) {
            s.text(x + cell * 0.7, y + cell * 0.3, &a.to_string(), font);
        }
    }
    s.close_group();
    s.grid_lines(EDGE, EDGE, rows, cols, cell, |horizontal, r, c| {
        Some(
            if (horizontal && (r == 0 || r == rows)) || (!horizontal && (c == 0 || c == cols)) {
                THICK
            } else {
                THIN
            },
        )
    });
    if let Some(grid) = grid {
        s.open_group("digit");
        for i in board
            .white()
            .filter(|&i| grid.get(i).is_some_and(|&d| d != 0))
        {
            let (x, y) = corner(i);
            s.text(
                x + cell / 2.0,
                y + cell / 2.0,
                &grid[i].to_string(),
                Font {
                    fill: "#1f4e9c",
                    ..Font::centred(cell * 0.55)
                },
            );
        }
        s.close_group();
        svg::mark_cells(&mut s, EDGE, EDGE, cols, cell, marked);
    }
    s
}

/// pzprjs's clue code: 0–9, a–j for 10–19, A–Z for 20–45, `-` for none.
fn clue_char(v: Option<u8>) -> char {
    match v {
        None => '-',
        Some(v @ 0..=19) => char::from_digit(u32::from(v), 36).expect("below 36"),
        Some(v) => char::from_digit(u32::from(v) - 10, 36)
            .expect("below 36")
            .to_ascii_uppercase(),
    }
}

fn read_clue(ch: char) -> Result<Option<u8>, String> {
    match ch {
        '-' | '.' => Ok(None),
        '0'..='9' | 'a'..='j' => Ok(Some(ch.to_digit(36).expect("base 36") as u8)),
        'A'..='Z' => Ok(Some(ch.to_digit(36).expect("base 36") as u8 + 10)),
        _ => Err(format!(
            "{ch:?} is no kakuro clue (0–9, a–j for 10–19, A–Z for 20–45, - for none)"
        )),
    }
}

/// Classic Kakuro for the driver.
pub struct Kakuro;

impl Puzzle for Kakuro {
    const INFO: Info = Info {
        name: "kakuro",
        about: "classic Kakuro (cross sums): solve, count, prove uniqueness, hints",
        formats: &[Format::Line],
        machine: Format::Line,
        answer_fields: &["grid"],
        variables: "rRcC=D: white cell (R, C) holds digit D; rRcC across={…} / down={…}: the run \
            after black cell (R, C) holds these digits",
        blocks_exactly: true,
        ..Info::DEFAULT
    };

    type Instance = Board;
    type Answer = Grid;
    type Checked = ();
    type Encoding = Encoding;

    fn parse(text: &str, _: &Settings) -> Result<Board, ParseError> {
        parse(text)
    }

    fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
        encode(board, sink)
    }

    fn decode(_: &Board, enc: &Encoding, model: &Model) -> Grid {
        enc.digits.decode(model)
    }

    fn check(board: &Board, grid: &Grid) -> Result<(), String> {
        check(board, grid).map_err(|v| v.to_string())
    }

    fn read_answer(
        board: &Board,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        Ok(Ok(ReadAnswer {
            answer: read_grid(board, text)?,
            complete: true,
            claimed: None,
        }))
    }

    fn block<S: ClauseSink>(_: &Board, enc: &Encoding, sink: &mut S, grids: &[Grid]) {
        enc.digits.block(sink, grids);
    }

    fn render(board: &Board, grid: &Grid, _: &(), format: Format) -> String {
        match format {
            Format::Line => render_line(board, grid),
            _ => render_rows(board, grid),
        }
    }

    fn svg(board: &Board, answers: &[(&Grid, &())], caption: &str) -> String {
        let grids: Vec<&Grid> = answers.iter().map(|a| a.0).collect();
        let cell = svg::cell_size(board.rows, board.cols, grids.len().min(2)).min(CELL);
        let differ = |a: &&Grid, b: &&Grid| a.iter().zip(b.iter()).map(|(x, y)| x != y).collect();
        svg::compose(
            &svg::panels(&grids, differ, |grid, marked| {
                panel(board, grid.copied(), marked, cell)
            }),
            caption,
        )
    }

    fn answer_json(board: &Board, grid: &Grid, _: &()) -> Map<String, Value> {
        Map::from_iter([(
            "grid".to_string(),
            json!(grid.chunks(board.cols).collect::<Vec<_>>()),
        )])
    }
}

impl capability::Urls for Kakuro {
    const KINDS: &'static [&'static str] = &["kakuro"];

    /// pzprjs's kakuro code. Its board is the cells inside a border row and column that hold
    /// only clues: black cells as `.` or two clue characters (down, then across), white cells
    /// skipped with `k`–`z` (1–16), then the border's clues for each column and each row whose
    /// first cell is white. The text has the border as its first row and column.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        let (rows, cols) = (link.rows, link.cols);
        if rows >= MAX_SIDE || cols >= MAX_SIDE {
            return Err(ParseError::new(1, link.body_at, format!("a {cols}×{rows} board: puzzle-sat reads boards up to {MAX_SIDE} a side, border included")));
        }
        let (inner, used, whole) =
            url::decode_prefix(link, Cell::White, 'k'..='z', |chars| match chars {
                ['.', ..] => Ok((BLACK, 1)),
                [d, a, ..] => Ok((
                    Cell::Block {
                        down: read_clue(*d)?,
                        across: read_clue(*a)?,
                    },
                    2,
                )),
                [d] => read_clue(*d).and(Err(format!(
                    "{d:?} starts a black cell's two clue characters; the URL ends after it"
                ))),
                [] => unreachable!("called at a character"),
            })?;
        // pzprjs writes every cell, the last white ones as a skip: a body that stops short was
        // cut (pzprjs would then read the border's sums from its start).
        if !whole {
            return Err(ParseError::new(
                1,
                link.body_at + used + 1,
                format!("the URL ends before the last of the {cols}×{rows} cells: cut short?"),
            ));
        }
        let mut board = Board {
            rows: rows + 1,
            cols: cols + 1,
            cells: vec![BLACK; (rows + 1) * (cols + 1)],
        };
        for (i, &c) in inner.iter().enumerate() {
            board.cells[(i / cols + 1) * (cols + 1) + i % cols + 1] = c;
        }
        let rest: Vec<char> = link.body.chars().skip(used).collect();
        let mut k = 0;
        let heads = (0..cols)
            .filter(|&c| inner[c] == Cell::White)
            .map(|c| c + 1)
            .chain(
                (0..rows)
                    .filter(|&r| inner[r * cols] == Cell::White)
                    .map(|r| (r + 1) * (cols + 1)),
            );
        for head in heads {
            // pzprjs writes one for each (`-` for none): a body without it was cut.
            let Some(&ch) = rest.get(k) else {
                return Err(ParseError::new(1, link.body_at + used + k + 1, "the URL ends before the border's sums (one for each column and row whose first cell is white): cut short?"));
            };
            let v = read_clue(ch)
                .map_err(|why| ParseError::new(1, link.body_at + used + k + 1, why))?;
            board.cells[head] = if head < cols + 1 {
                Cell::Block {
                    down: v,
                    across: None,
                }
            } else {
                Cell::Block {
                    down: None,
                    across: v,
                }
            };
            k += 1;
        }
        if let Some(ch) = rest.get(k) {
            return Err(ParseError::new(
                1,
                link.body_at + used + k + 1,
                format!("{ch:?} after the last clue"),
            ));
        }
        Ok(board.to_text())
    }

    /// The inverse of [`Self::from_url`]. A board whose first row and column are all black has
    /// them as the border; any other gets a border of black cells without clues added.
    fn to_url(board: &Board) -> Result<String, String> {
        let bordered = (0..board.cols).all(|c| board.cells[c] != Cell::White)
            && (0..board.rows).all(|r| board.cells[r * board.cols] != Cell::White);
        let skip = usize::from(bordered);
        let (rows, cols) = (board.rows - skip, board.cols - skip);
        if rows == 0 || cols == 0 {
            return Err("a board of only its border has no puzz.link URL".into());
        }
        if rows >= MAX_SIDE || cols >= MAX_SIDE {
            return Err(format!("a board of {} a side with its border added is past the {MAX_SIDE} puzzle-sat reads", rows.max(cols) + 1));
        }
        let at = |r: usize, c: usize| board.cells[(r + skip) * board.cols + c + skip];
        let inner = (0..rows * cols).map(|i| match at(i / cols, i % cols) {
            Cell::White => None,
            BLACK => Some(".".to_string()),
            Cell::Block { down, across } => {
                Some(format!("{}{}", clue_char(down), clue_char(across)))
            }
        });
        let mut body = url::encode_with_skips(inner, 'k'..='z');
        let border = |i: usize, down: bool| match board.cells[i] {
            Cell::Block { down: d, across: a } if bordered => clue_char(if down { d } else { a }),
            _ => '-',
        };
        body.extend(
            (0..cols)
                .filter(|&c| at(0, c) == Cell::White)
                .map(|c| border(c + skip, true)),
        );
        body.extend(
            (0..rows)
                .filter(|&r| at(r, 0) == Cell::White)
                .map(|r| border((r + skip) * board.cols, false)),
        );
        Ok(url::link("kakuro", cols, rows, &body))
    }
}

impl capability::Backbone for Kakuro {
    /// The digits the same in every solution, found from `found`'s by [`crate::search::backbone`].
    fn hints(
        board: &Board,
        found: &(Grid, ()),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Grid>>, SolverError> {
        let build = || {
            let mut solver = solvers.new_solver();
            let enc = encode(board, &mut crate::search::Sink(&mut *solver));
            (solver, enc)
        };
        let (mut solver, enc) = build();
        let Some((partial, decided)) =
            enc.digits
                .fixed(&mut *solver, &|| build().0, solvers.team(), &found.0)?
        else {
            return Ok(None);
        };
        Ok(Some(Hints {
            json: json!(partial.chunks(board.cols).collect::<Vec<_>>()),
            drawn: render_rows(board, &partial),
            decided,
            of: board.white().count(),
            unit: "cells",
            partial,
        }))
    }
}

impl capability::Marks for Kakuro {
    fn svg_broken(board: &Board, text: &str, caption: &str) -> String {
        let cell = svg::cell_size(board.rows, board.cols, 1).min(CELL);
        let Ok(grid) = read_grid(board, text) else {
            return svg::compose(&[panel(board, None, &[], cell)], caption);
        };
        let cells = match check(board, &grid) {
            Err(Violation::Repeat { cells, .. } | Violation::Sum { cells, .. }) => cells,
            Err(Violation::Empty { row, col } | Violation::Black { row, col }) => {
                vec![(row - 1) * board.cols + col - 1]
            }
            Ok(()) => Vec::new(),
        };
        let mut s = panel(board, Some(&grid), &[], cell);
        svg::mark_broken(&mut s, EDGE, EDGE, board.cols, cell, &cells);
        svg::compose(&[s], caption)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "- 4, 3,\n,3 0 0\n,4 0 0\n";

    #[test]
    fn runs_take_their_clues_from_the_cell_before() {
        let b = parse(SMALL).unwrap();
        let runs = b.runs();
        assert_eq!(runs.len(), 4);
        assert_eq!(
            runs[0],
            Run {
                cells: vec![4, 5],
                across: true,
                sum: Some(3)
            }
        );
        assert_eq!(
            runs[3],
            Run {
                cells: vec![5, 8],
                across: false,
                sum: Some(3)
            }
        );
        assert_eq!(parse(&b.to_text()).unwrap(), b);
        // An edge run has no clue; a 0 sets none.
        let b = parse("0 0\n0,0 0\n").unwrap();
        assert!(b.runs().iter().all(|r| r.sum.is_none()));
    }

    #[test]
    fn digit_sets_are_the_combinations() {
        assert_eq!(digit_sets(2, 3), [0b110]);
        assert_eq!(digit_sets(4, 10), [0b11110]);
        assert_eq!(digit_sets(9, 45).len(), 1);
        assert_eq!(digit_sets(2, 10).len(), 4, "1+9 2+8 3+7 4+6");
        assert!(digit_sets(2, 2).is_empty());
        assert_eq!(
            (1..=9)
                .map(|l| (1..=45).map(|s| digit_sets(l, s).len()).sum::<usize>())
                .sum::<usize>(),
            511,
            "every nonempty set once"
        );
    }

    #[test]
    fn reads_the_header_and_names_bad_cells() {
        assert_eq!(
            parse(&format!("3 3\n{SMALL}")).unwrap(),
            parse(SMALL).unwrap()
        );
        let e = parse("3 4\n- 4, 3,\n,3 0 0\n,4 0 0\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 8));
        let e = parse("4 3\n- 4, 3,\n,3 0 0\n,4 0 0\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse("- 4, 3,\n,3 0 x\n,4 0 0\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 6));
        let e = parse("- 46, 3,\n,3 0 0\n,4 0 0\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 3));
        assert!(e.message.contains("at most 45"), "{}", e.message);
        let e = parse("- 4,\n,3 0 0\n").unwrap_err();
        assert_eq!(e.line, 2);
        // Blank lines after the size line are passed over; inside the grid they are an error.
        assert_eq!(
            parse(&format!("3 3\n\n{SMALL}")).unwrap(),
            parse(SMALL).unwrap()
        );
        let e = parse("- 4, 3,\n,3 0 0\n\n,4 0 0\n").unwrap_err();
        assert_eq!((e.line, e.col), (3, 1));
        assert!(e.message.contains("blank line"), "{}", e.message);
    }

    #[test]
    fn clue_characters_are_pzprjs() {
        for v in 0..=45 {
            assert_eq!(read_clue(clue_char(Some(v))), Ok(Some(v)));
        }
        assert_eq!(
            [
                clue_char(Some(10)),
                clue_char(Some(19)),
                clue_char(Some(20)),
                clue_char(Some(45))
            ],
            ['a', 'j', 'A', 'Z']
        );
    }
}
