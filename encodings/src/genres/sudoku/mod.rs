//! Classic sudoku of any size N with rectangular boxes (4×4 with 2×2 boxes, 6×6 with 2×3, 8×8
//! with 2×4, 9×9, 12×12 with 3×4, 16×16, 25×25 …): fill every cell with 1..N so that each row,
//! column and box holds each once. Solve, count, prove uniqueness, hints.
//!
//! Read top to bottom: parse → encode → check → render → the puzzle for the driver. The
//! encoding is target sudoku's without the score: one-hot digits over the candidates the
//! givens leave, exactly one per cell and per house and digit.

mod generate;

use super::digits::{self, Digits};
use crate::capability;
use crate::cnf::amo::exactly_one_traced;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::explain::{Fact, Named, Rules};
use crate::format::error::ParseError;
use crate::format::svg::{self, Font, Stroke, Svg};
use crate::format::url::{self, Number};
use crate::puzzle::Info;
use crate::puzzle::{Format, Hints, Puzzle, ReadAnswer, Settings};
use crate::solver::{NewSolver, SolverError};
use serde_json::{json, Map, Value};
use std::fmt;

/// The largest side read: digits fit a byte, and a 36×36 formula stays small.
pub const MAX_SIDE: usize = 36;

/// A board: `givens[r * n + c]`, 0 for an empty cell; boxes `box_h` tall and `box_w` wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub n: usize,
    pub box_h: usize,
    pub box_w: usize,
    pub givens: Vec<u8>,
}

/// A filled (or, for hints, partly filled: 0 undecided) grid, row-major.
pub use super::digits::Grid;

/// The boxes of an N×N sudoku: the most nearly square `h × w = N` with `h ≤ w` and `h ≥ 2`
/// (`None` for 1–3 and primes, which have no boxes).
pub fn box_shape(n: usize) -> Option<(usize, usize)> {
    (2..=n)
        .take_while(|h| h * h <= n)
        .filter(|&h| n.is_multiple_of(h))
        .last()
        .map(|h| (h, n / h))
}

impl Board {
    /// The cells of house `k`: rows 0..N, then columns, then boxes.
    fn house(&self, k: usize) -> Vec<usize> {
        let n = self.n;
        match k / n {
            0 => (0..n).map(|c| (k % n) * n + c).collect(),
            1 => (0..n).map(|r| r * n + k % n).collect(),
            _ => {
                let b = k % n;
                let (top, left) = (
                    b / (n / self.box_w) * self.box_h,
                    b % (n / self.box_w) * self.box_w,
                );
                (0..n)
                    .map(|i| (top + i / self.box_w) * n + left + i % self.box_w)
                    .collect()
            }
        }
    }

    /// Every house: rows, columns, boxes.
    pub fn houses(&self) -> Vec<Vec<usize>> {
        (0..3 * self.n).map(|k| self.house(k)).collect()
    }

    /// The board as puzzle text, which [`Sudoku::parse`] reads back.
    pub fn to_text(&self) -> String {
        render_rows(self.n, &self.givens)
    }
}

/// The cells of a line meant to hold `count` of an N×N sudoku, with their columns: its words
/// (at most one past `count`, so a long line costs no more than a short one), or, up to 9×9, a
/// lone word of `count` characters read one digit per character.
fn cells_of(line: &str, n: usize, count: usize) -> Vec<(usize, &str)> {
    let words: Vec<(usize, &str)> = crate::format::error::words(line).take(count + 1).collect();
    match words[..] {
        [(col, word)] if n <= 9 && word.chars().count() == count => word
            .char_indices()
            .enumerate()
            .map(|(k, (b, ch))| (col + k, &word[b..b + ch.len_utf8()]))
            .collect(),
        _ => words,
    }
}

/// A cell's word: its digit 1..=n, or 0 for `.`, `0`, `-`; `None` for anything else.
fn cell(word: &str, n: usize) -> Option<u8> {
    match word {
        "." | "0" | "-" => Some(0),
        w if w.bytes().all(|b| b.is_ascii_digit()) => w
            .parse::<usize>()
            .ok()
            .filter(|d| (1..=n).contains(d))
            .map(|d| d as u8),
        _ => None,
    }
}

/// The variables: the one-hot digits over the candidates the givens leave, and each "exactly
/// one" over more than [`crate::cnf::amo::PAIRWISE_MAX`] literals: the literals and the
/// sequential counter's auxiliaries, which a VeriPB proof defines.
pub struct Encoding {
    pub digits: Digits,
    pub ladders: Vec<(Vec<Lit>, Vec<Lit>)>,
}

/// The order of the "exactly one" constraints: every cell, then each house and digit
/// (sudoku's); or, for i and j in turn, cell (i, j) then row i, column i and box i for digit
/// j + 1 (target sudoku's, kept so its formula stays the same).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Order {
    CellsFirst,
    Interleaved,
}

/// Exactly one digit per cell, and each digit exactly once per row, column and box, over the
/// digits the givens leave open (a given removes its digit from its houses' other cells).
pub fn encode<S: ClauseSink>(board: &Board, sink: &mut S, order: Order) -> Encoding {
    let n = board.n;
    let houses = board.houses();
    let open = digits::candidates(n, &board.givens, &houses);
    let digits = Digits::new(sink, &open, n, n);
    let mut ladders = Vec::new();
    let cell = |sink: &mut S, i: usize, ladders: &mut Vec<_>| {
        if let Some(aux) = digits.one(sink, i) {
            ladders.push((digits.cell(i).iter().flatten().copied().collect(), aux));
        }
    };
    let house = |sink: &mut S, k: usize, d: usize, ladders: &mut Vec<_>| {
        let lits = digits.of(&houses[k], d);
        if let Some(aux) = exactly_one_traced(sink, &lits) {
            ladders.push((lits, aux));
        }
    };
    match order {
        Order::CellsFirst => {
            (0..n * n).for_each(|i| cell(sink, i, &mut ladders));
            for k in 0..3 * n {
                (1..=n).for_each(|d| house(sink, k, d, &mut ladders));
            }
        }
        Order::Interleaved => {
            for i in 0..n {
                for j in 0..n {
                    cell(sink, i * n + j, &mut ladders);
                    for k in [i, n + i, 2 * n + i] {
                        house(sink, k, j + 1, &mut ladders);
                    }
                }
            }
        }
    }
    Encoding { digits, ladders }
}

/// The first broken rule, positions 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A cell without a digit 1..N, or the grid has the wrong number of cells.
    Empty {
        row: usize,
        col: usize,
    },
    Given {
        row: usize,
        col: usize,
        given: u8,
    },
    Repeat {
        house: String,
        digit: u8,
        cells: Vec<usize>,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Violation::Empty { row, col } => write!(f, "row {row} column {col}: no digit"),
            Violation::Given { row, col, given } => {
                write!(f, "row {row} column {col}: the given {given} is changed")
            }
            Violation::Repeat { house, digit, .. } => write!(f, "{house} holds {digit} twice"),
        }
    }
}

/// The independent validator: a full grid of 1..N, the givens kept, no house holding a digit
/// twice (with N cells each, every digit once).
pub fn check(board: &Board, grid: &Grid) -> Result<(), Violation> {
    let n = board.n;
    for i in 0..n * n {
        let (row, col) = (i / n + 1, i % n + 1);
        match grid.get(i) {
            Some(&d) if (1..=n).contains(&(d as usize)) => {}
            _ => return Err(Violation::Empty { row, col }),
        }
        if board.givens[i] != 0 && board.givens[i] != grid[i] {
            return Err(Violation::Given {
                row,
                col,
                given: board.givens[i],
            });
        }
    }
    for k in 0..3 * n {
        if let Some((d, with)) = digits::repeat(grid, &board.house(k), n) {
            let house = match k / n {
                0 => format!("row {}", k % n + 1),
                1 => format!("column {}", k % n + 1),
                _ => format!(
                    "box {} (rows {}–{}, columns {}–{})",
                    k % n + 1,
                    with[0] / n / board.box_h * board.box_h + 1,
                    with[0] / n / board.box_h * board.box_h + board.box_h,
                    with[0] % n / board.box_w * board.box_w + 1,
                    with[0] % n / board.box_w * board.box_w + board.box_w
                ),
            };
            return Err(Violation::Repeat {
                house,
                digit: d,
                cells: with,
            });
        }
    }
    Ok(())
}

/// One row per line, cells separated by spaces, `.` for 0.
fn render_rows(n: usize, cells: &[u8]) -> String {
    digits::render_rows(cells.len() / n, n, |i| digits::word(cells[i]))
}

/// An answer: the grid as rows (as `solve` prints it, or any form [`Sudoku::parse`] reads), or on
/// one line; a verdict line under it is passed over.
fn read_grid(board: &Board, text: &str) -> Result<Grid, ParseError> {
    let n = board.n;
    let (lines, filled) = digits::answer_lines(text);
    if let [(i, line)] = filled[..] {
        // One line: N² words, or up to 9×9 the classic N²-character string.
        let cells = cells_of(line, n, n * n);
        if cells.len() != n * n {
            return Err(ParseError::new(
                i + 1,
                line.chars().count() + 1,
                format!(
                    "one line of an answer holds all {} cells of a {n}×{n} sudoku",
                    n * n
                ),
            ));
        }
        return cells
            .iter()
            .map(|&(col, w)| {
                cell(w, n).ok_or_else(|| {
                    ParseError::new(
                        i + 1,
                        col,
                        format!("unexpected {w:?}: expected a digit 1–{n}, or . for an empty cell"),
                    )
                })
            })
            .collect();
    }
    let read = Sudoku::parse(&lines.join("\n"), &Settings::default())?;
    if read.n != n {
        return Err(ParseError::new(
            1,
            1,
            format!("the answer is {}×{}, the puzzle {n}×{n}", read.n, read.n),
        ));
    }
    Ok(read.givens)
}

const CELL: f64 = svg::MAX_CELL;
pub const EDGE: f64 = 2.0;
const THIN: Stroke = Stroke::solid("#999", 1.0);
const THICK: Stroke = Stroke::solid("#000", 3.0);

/// The board, its givens bold and `grid`'s other digits in blue, the cells of `marked`
/// outlined; cell i filled with `shade(i)` where it has one, and `below` more room under it.
pub fn panel(
    board: &Board,
    grid: Option<&Grid>,
    marked: &[bool],
    cell: f64,
    shade: impl Fn(usize) -> Option<&'static str>,
    below: f64,
) -> Svg {
    let n = board.n;
    let side = n as f64 * cell;
    let mut s = Svg::new(side + 2.0 * EDGE, side + 2.0 * EDGE + below);
    let at = |k: usize| EDGE + k as f64 * cell;
    for i in 0..n * n {
        if let Some(fill) = shade(i) {
            s.rect(at(i % n), at(i / n), cell, cell, fill, None);
        }
    }
    s.grid_lines(EDGE, EDGE, n, n, cell, |horizontal, r, c| {
        Some(if horizontal {
            r % board.box_h == 0
        } else {
            c % board.box_w == 0
        })
        .map(|thick| if thick { THICK } else { THIN })
    });
    let digit = |s: &mut Svg, i: usize, d: u8, font: Font| {
        s.text(
            at(i % n) + cell / 2.0,
            at(i / n) + cell / 2.0,
            &d.to_string(),
            font,
        )
    };
    s.open_group("given");
    for i in (0..n * n).filter(|&i| board.givens[i] != 0) {
        digit(
            &mut s,
            i,
            board.givens[i],
            Font {
                bold: true,
                ..Font::centred(cell * 0.6)
            },
        );
    }
    s.close_group();
    if let Some(grid) = grid {
        s.open_group("digit");
        for i in
            (0..n * n).filter(|&i| board.givens[i] == 0 && grid.get(i).is_some_and(|&d| d != 0))
        {
            digit(
                &mut s,
                i,
                grid[i],
                Font {
                    fill: "#1f4e9c",
                    ..Font::centred(cell * 0.55)
                },
            );
        }
        s.close_group();
        svg::mark_cells(&mut s, EDGE, EDGE, n, cell, marked);
    }
    s
}

/// Whether puzz.link draws an N×N sudoku with the boxes it has here: square sides and 6.
fn url_side(n: usize) -> Result<(), String> {
    let root = (1..=n).take_while(|r| r * r <= n).last().unwrap_or(1);
    if (root * root == n && (4..=MAX_SIDE).contains(&n)) || n == 6 {
        Ok(())
    } else {
        Err(format!("a {n}×{n} sudoku has no puzz.link URL here: puzz.link draws sides 4, 6, 9, 16, 25, 36 with their boxes (other sides with square boxes of ⌊√N⌋ cells, a different puzzle)"))
    }
}

// VeriPB certificates: the rules as the puzzle states them, and proofs that derive the encoding.

/// The OPB variable of cell `i` holding digit `d` (1-based): `x(i·N + d)`, `x1` … `x(N³)`.
fn pb_var(n: usize, i: usize, d: usize) -> u32 {
    (i * n + d) as u32
}

/// The rules as OPB constraints: "exactly one" per cell, then per house and digit, as
/// equalities (equality `e`, 0-based, is loaded as the constraints `2e + 1` and `2e + 2`), then
/// a unit per given. Target sudoku states its rules with these too.
pub fn opb_rules(board: &Board, out: &mut String) {
    use std::fmt::Write;
    let n = board.n;
    let one = |out: &mut String, vars: &mut dyn Iterator<Item = u32>| {
        for v in vars {
            let _ = write!(out, "+1 x{v} ");
        }
        out.push_str("= 1 ;\n");
    };
    for i in 0..n * n {
        one(out, &mut (1..=n).map(|d| pb_var(n, i, d)));
    }
    for cells in board.houses() {
        for d in 1..=n {
            one(out, &mut cells.iter().map(|&i| pb_var(n, i, d)));
        }
    }
    for (i, &g) in board.givens.iter().enumerate().filter(|(_, &g)| g != 0) {
        let _ = writeln!(out, "+1 x{} >= 1 ;", pb_var(n, i, g as usize));
    }
}

/// CNF variable → OPB variable: the digits' by their cell ([`pb_var`]), the rest (counters,
/// totalizers) numbered past N³ in order.
pub fn opb_vars(digits: &Digits, n: usize, num_vars: u32) -> Vec<u32> {
    let mut opb_var = vec![0u32; num_vars as usize + 1];
    for (i, cell) in digits.cells().enumerate() {
        for (d, l) in cell.iter().enumerate() {
            if let Some(l) = l {
                opb_var[l.var() as usize] = pb_var(n, i, d + 1);
            }
        }
    }
    let mut next = (n * n * n) as u32;
    for v in opb_var.iter_mut().skip(1).filter(|v| **v == 0) {
        next += 1;
        *v = next;
    }
    opb_var
}

/// What the givens rule out (the candidates no variable was made for), as RUP units.
pub fn eliminations(p: &mut crate::certificate::veripb::Proof, digits: &Digits, n: usize) {
    p.line("% what the givens rule out, by propagation");
    for (i, cell) in digits.cells().enumerate() {
        for (d, l) in cell.iter().enumerate() {
            if l.is_none() {
                p.rup_clause(&[!Lit::positive(pb_var(n, i, d + 1))]);
            }
        }
    }
}

/// The variables a DRAT proof's lines name (unreadable words are left to the proof's reader).
fn drat_variables(drat: &str) -> std::collections::HashSet<u32> {
    drat.lines()
        .filter(|l| !l.starts_with('c'))
        .flat_map(|l| l.split_whitespace())
        .filter_map(|w| w.parse::<i64>().ok())
        .map(|n| n.unsigned_abs() as u32)
        .collect()
}

/// Classic sudoku for the driver.
pub struct Sudoku;

impl Puzzle for Sudoku {
    const INFO: Info = Info {
        name: "sudoku",
        about:
            "classic sudoku, any size with rectangular boxes: solve, count, prove uniqueness, hints",
        formats: &[Format::Line],
        machine: Format::Line,
        answer_fields: &["grid"],
        variables: "rRcC=D: cell (R, C) holds digit D",
        blocks_exactly: true,
        ..Info::DEFAULT
    };

    type Instance = Board;
    type Answer = Grid;
    type Checked = ();
    type Encoding = Encoding;

    /// One row per line: N cells, either separated by spaces (a number, or `.`, `0`, `-` for an
    /// empty cell), or, up to 9×9, written together (`53..7....`). N is the number of rows; it
    /// must have boxes ([`box_shape`]). Blank lines before and after the grid are passed over,
    /// and so is janko.at's size line `N N` before N rows.
    fn parse(text: &str, _: &Settings) -> Result<Board, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let Some(first) = lines.iter().position(|l| !l.trim().is_empty()) else {
            return Err(ParseError::new(
                1,
                1,
                "empty input: expected a grid, one row per line",
            ));
        };
        let last = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .expect("a line that is not blank");
        // janko.at's size line, `N N`, when N rows follow it (a row of two cells has no boxes).
        let words: Vec<&str> = lines[first].split_whitespace().collect();
        let sized = matches!(words[..], [a, b] if a == b && a.parse() == Ok(last - first));
        let first = if sized {
            first
                + 1
                + lines[first + 1..]
                    .iter()
                    .position(|l| !l.trim().is_empty())
                    .expect("rows after it")
        } else {
            first
        };
        // The one-line form sudoku collections use: the cells in reading order, one character
        // each (`.` or `0` empty), 81 of them for a 9×9.
        if first == last {
            let line = lines[first];
            let start = line.len() - line.trim_start().len();
            let word = line.trim();
            let len = word.chars().count();
            if let Some(s) = (4..=9).find(|&s| s * s == len && box_shape(s).is_some()) {
                let chars: Vec<char> = word.chars().collect();
                let rows: String = chars
                    .chunks(s)
                    .map(|row| row.iter().collect::<String>() + "\n")
                    .collect();
                let column = line[..start].chars().count() + 1;
                return Sudoku::parse(&rows, &Settings::default()).map_err(|e| {
                    ParseError::new(first + 1, column + (e.line - 1) * s + e.col - 1, e.message)
                });
            }
        }
        let n = last + 1 - first;
        if n > MAX_SIDE {
            return Err(ParseError::new(
                first + MAX_SIDE + 1,
                1,
                format!("{n} rows: puzzle-sat reads sudokus up to {MAX_SIDE}×{MAX_SIDE}"),
            ));
        }
        let Some((box_h, box_w)) = box_shape(n) else {
            return Err(ParseError::new(
                last + 1,
                1,
                format!(
                    "{n} rows: a {n}×{n} sudoku has no boxes (sides 4, 6, 8, 9, 10, 12, … are read)"
                ),
            ));
        };
        let mut givens = Vec::with_capacity(n * n);
        for (k, line) in lines[first..=last].iter().enumerate() {
            let at = first + k + 1;
            let cells = cells_of(line, n, n);
            if cells.len() != n {
                let has = if cells.len() > n {
                    format!("more than {n}")
                } else {
                    cells.len().to_string()
                };
                return Err(ParseError::new(
                    at,
                    line.chars().count() + 1,
                    format!("this row has {has} cells; a {n}×{n} sudoku has {n}"),
                ));
            }
            for (col, word) in cells {
                givens.push(cell(word, n).ok_or_else(|| {
                    ParseError::new(
                        at,
                        col,
                        format!(
                            "unexpected {word:?}: expected a digit 1–{n}, or . for an empty cell"
                        ),
                    )
                })?);
            }
        }
        Ok(Board {
            n,
            box_h,
            box_w,
            givens,
        })
    }

    fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
        encode(board, sink, Order::CellsFirst)
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
        let grid = read_grid(board, text)?;
        Ok(Ok(ReadAnswer {
            answer: grid,
            complete: true,
            claimed: None,
        }))
    }

    fn block<S: ClauseSink>(_: &Board, enc: &Encoding, sink: &mut S, grids: &[Grid]) {
        enc.digits.block(sink, grids);
    }

    fn render(board: &Board, grid: &Grid, _: &(), format: Format) -> String {
        match format {
            // Up to 9×9 the classic 81-character form.
            Format::Line => digits::render_line(grid.iter().copied(), board.n <= 9),
            _ => render_rows(board.n, grid),
        }
    }

    fn svg(board: &Board, answers: &[(&Grid, &())], caption: &str) -> String {
        let grids: Vec<&Grid> = answers.iter().map(|a| a.0).collect();
        let cell = svg::cell_size(board.n, board.n, grids.len().min(2)).min(CELL);
        let differ = |a: &&Grid, b: &&Grid| a.iter().zip(b.iter()).map(|(x, y)| x != y).collect();
        svg::compose(
            &svg::panels(&grids, differ, |grid, marked| {
                panel(board, grid.copied(), marked, cell, |_| None, 0.0)
            }),
            caption,
        )
    }

    fn answer_json(board: &Board, grid: &Grid, _: &()) -> Map<String, Value> {
        Map::from_iter([(
            "grid".to_string(),
            json!(grid.chunks(board.n).collect::<Vec<_>>()),
        )])
    }
}

impl capability::Urls for Sudoku {
    const KINDS: &'static [&'static str] = &["sudoku"];

    /// pzprjs's number code. puzz.link draws square boxes of ⌊√N⌋ cells a side (and 2×3 at
    /// 6×6), which are a sudoku's boxes only where N is a square or 6: other sides are refused.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        let n = link.cols;
        if link.cols != link.rows {
            return Err(ParseError::new(
                1,
                link.body_at,
                format!("a sudoku is square, this one {}×{}", link.cols, link.rows),
            ));
        }
        url_side(n).map_err(|why| ParseError::new(1, link.body_at, why))?;
        let givens = url::decode_with(link, 0u8, |chars| match url::read_number16(chars)? {
            (Number::Known(d), k) if (1..=n as u32).contains(&d) => Ok((d as u8, k)),
            (Number::Known(d), _) => Err(format!("{d} is no digit of a {n}×{n} sudoku")),
            (Number::Unknown, _) => Err("a `.` (a number not given) is no sudoku given".into()),
        })?;
        let (box_h, box_w) = box_shape(n).expect("url_side checked it");
        Ok(Board {
            n,
            box_h,
            box_w,
            givens,
        }
        .to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        url_side(board.n)?;
        let cells = board
            .givens
            .iter()
            .map(|&d| (d != 0).then_some(Number::Known(u32::from(d))));
        Ok(url::link(
            "sudoku",
            board.n,
            board.n,
            &url::encode_numbers(cells),
        ))
    }
}

impl capability::Generate for Sudoku {
    const PARTS: &'static str = "cells";
    const SIZE: Option<(usize, usize)> = Some((9, 9));
    const UNIQUE: bool = true;

    /// A random full grid with every given removed that can go with the solution staying
    /// unique: a minimal puzzle ([`generate::dig`]).
    fn generate(
        spec: &crate::puzzle::GenerateSpec,
        solvers: &dyn NewSolver,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<crate::puzzle::Made<Grid>>, String> {
        let Some((board, grid, _)) = generate::dig(spec, solvers, note)? else {
            return Ok(None);
        };
        Ok(Some(crate::puzzle::Made {
            text: board.to_text(),
            answer: grid,
            remark: None,
        }))
    }

    fn series(
        spec: &crate::puzzle::GenerateSpec,
        solvers: &dyn NewSolver,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<crate::puzzle::Series<Grid>>, String> {
        generate::series(spec, solvers, note)
    }
}

impl capability::Explain for Sudoku {
    /// Every cell's digit as facts; a rule per open cell ("holds one digit") and per house
    /// ("holds each digit once"), over all digits (not the candidates the givens leave, so
    /// that what a given rules out is a step); a given's digit known from the start, and its
    /// cell's other digits ruled out.
    fn named(board: &Board) -> Named<Encoding> {
        let n = board.n;
        let mut rules = Rules::new();
        // Every digit of every cell, givens too, so that a house's clauses name each of its
        // cells and a step lists the givens it reads.
        let open = vec![((1u64 << n) - 1) << 1; n * n];
        let digits = Digits::new(&mut rules, &open, n, n);
        let at = |i: usize| format!("({},{})", i / n + 1, i % n + 1);
        let mut ladders = Vec::new();
        for i in (0..n * n).filter(|&i| board.givens[i] == 0) {
            rules.rule(format!("{} holds one digit", at(i)), vec![i]);
            if let Some(aux) = digits.one(&mut rules, i) {
                ladders.push((digits.cell(i).iter().flatten().copied().collect(), aux));
            }
        }
        for (k, house) in board.houses().into_iter().enumerate() {
            let what = ["row", "column", "box"][k / n];
            rules.rule(
                format!("{what} {} holds each digit once", k % n + 1),
                house.clone(),
            );
            for d in 1..=n {
                let lits = digits.of(&house, d);
                if let Some(aux) = exactly_one_traced(&mut rules, &lits) {
                    ladders.push((lits, aux));
                }
            }
        }
        let mut facts = Vec::new();
        let mut known = Vec::new();
        for i in 0..n * n {
            for d in 1..=n as u8 {
                if let Some(lit) = digits.lit(i, d) {
                    facts.push(Fact {
                        lit,
                        subject: at(i),
                        is: d.to_string(),
                        otherwise: None,
                        cells: vec![i],
                    });
                    // A given's digit, and so none other in its cell, is known from the start.
                    match board.givens[i] {
                        0 => {}
                        g if g == d => known.push(lit),
                        _ => known.push(!lit),
                    }
                }
            }
        }
        Named::new(rules, facts, known, Encoding { digits, ladders })
    }

    fn draw_known(board: &Board, named: &Named<Encoding>, known: &[Lit]) -> String {
        render_rows(board.n, &known_grid(board, named, known))
    }

    fn svg_step(
        board: &Board,
        named: &Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        let grid = known_grid(board, named, known);
        let cell = svg::cell_size(board.n, board.n, 1).min(CELL);
        let mut s = panel(board, Some(&grid), &[], cell, |_| None, 0.0);
        svg::mark_step(&mut s, EDGE, EDGE, board.n, cell, rules, deduced);
        svg::compose(&[s], caption)
    }
}

/// The digits `known` places (0 where none is known yet).
fn known_grid(board: &Board, named: &Named<Encoding>, known: &[Lit]) -> Grid {
    let set: std::collections::HashSet<Lit> = known.iter().copied().collect();
    (0..board.n * board.n)
        .map(|i| {
            (1..=board.n as u8)
                .find(|&d| {
                    named
                        .encoding
                        .digits
                        .lit(i, d)
                        .is_some_and(|l| set.contains(&l))
                })
                .unwrap_or(0)
        })
        .collect()
}

impl capability::Backbone for Sudoku {
    /// The digits the same in every solution, found from `found`'s by [`crate::search::backbone`].
    fn hints(
        board: &Board,
        found: &(Grid, ()),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Grid>>, SolverError> {
        let build = || {
            let mut solver = solvers.new_solver();
            let sink = &mut crate::search::Sink(&mut *solver);
            let enc = encode(board, sink, Order::CellsFirst);
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
            json: json!(partial.chunks(board.n).collect::<Vec<_>>()),
            drawn: render_rows(board.n, &partial),
            decided,
            of: partial.len(),
            unit: "cells",
            partial,
        }))
    }
}

impl capability::PbClaims for Sudoku {
    /// The problem as an OPB file, from the board alone: one variable per cell and digit, "exactly
    /// one" per cell and per house and digit as equalities, a unit per given, and per blocked grid
    /// "some cell holds another digit". No objective. Equality `e` (0-based) is loaded as the
    /// constraints `2e + 1` (`≥`) and `2e + 2` (`≤`).
    fn problem(board: &Board, blocked: &[Grid]) -> String {
        use std::fmt::Write;
        let n = board.n;
        let given = board.givens.iter().filter(|&&g| g != 0).count();
        let mut out = format!(
            "* #variable= {} #constraint= {}\n",
            n * n * n,
            n * n * 4 + given + blocked.len()
        );
        let _ = writeln!(out, "* sudoku {n}x{n}, boxes {}x{}, as a pseudo-Boolean problem: x(N i + d) is cell i (row-major, 0-based) holding digit d", board.box_h, board.box_w);
        opb_rules(board, &mut out);
        for grid in blocked {
            out.push_str("* not this solution\n");
            for (i, &d) in grid.iter().enumerate() {
                let _ = write!(out, "-1 x{} ", pb_var(n, i, d as usize));
            }
            let _ = writeln!(out, ">= {} ;", 1 - (n * n) as i64);
        }
        out
    }

    /// The proof that [`opb`]`(board, blocked)` is infeasible, from `drat`, a DRAT proof that the
    /// certificate's `final.cnf` for the claim (the rules and the blocked grids) is
    /// unsatisfiable: what the givens rule out by propagation; each sequential counter's
    /// auxiliaries defined by redundance (`s_i` is "one of the first i literals") and its clauses
    /// derived by propagation; the solver's steps as RUP steps; `conclusion UNSAT`. The pairwise
    /// and "at least one" clauses are never stated: the equalities imply each by propagation, which
    /// is all a RUP step needs of them; so is each blocking clause, by the blocked grid's
    /// constraint and the givens.
    fn refutation(board: &Board, blocked: &[Grid], drat: &str) -> Result<String, String> {
        use crate::certificate::veripb::Proof;
        use crate::certificate::{Claim, Form};
        let n = board.n;
        let claim = if blocked.is_empty() {
            Claim::NoSolution
        } else {
            Claim::Count
        };
        let (cnf, enc, _) =
            crate::certificate::built::<Sudoku>(board, claim, None, &[], blocked, Form::Stated)?;
        // CNF variable → OPB variable: digits by their cell, auxiliaries past N³.
        let top = (n * n * n) as u32;
        let opb_var = opb_vars(&enc.digits, n, cnf.num_vars);
        let name = |v: u32| {
            if v <= top {
                format!("x{v}")
            } else {
                format!("t{v}")
            }
        };
        let cnf_name = |v: u32| name(opb_var[v as usize]);
        let given = board.givens.iter().filter(|&&g| g != 0).count();
        let mut p = Proof::new((n * n * 8 + given + blocked.len()) as u64, &name);
        eliminations(&mut p, &enc.digits, n);
        let mut q = p.with_names(&cnf_name);
        // Only the counters whose variables the solver's proof names: the equalities propagate at
        // least what any counter's clauses do, so a step that names none needs none.
        let named = drat_variables(drat);
        q.line(
            "% the sequential counters the solver's proof names: s_i is s_(i-1) or the i-th literal",
        );
        for (lits, aux) in enc
            .ladders
            .iter()
            .filter(|(_, aux)| aux.iter().any(|s| named.contains(&s.var())))
        {
            for (i, &s) in aux.iter().enumerate() {
                let before = |t: &mut Vec<(u64, Lit)>, sign: bool| {
                    if i > 0 {
                        t.push((1, if sign { aux[i - 1] } else { !aux[i - 1] }));
                    }
                    t.push((1, if sign { lits[i] } else { !lits[i] }));
                };
                let mut to = vec![(1, !s)];
                before(&mut to, true);
                q.step(&format!(
                    "red {} : {} -> 0",
                    q.constraint(&to, 1),
                    cnf_name(s.var())
                ));
                let k = if i > 0 { 2 } else { 1 };
                let mut from = vec![(k, s)];
                before(&mut from, false);
                q.step(&format!(
                    "red {} : {} -> 1",
                    q.constraint(&from, k as i64),
                    cnf_name(s.var())
                ));
            }
            crate::cnf::amo::sequential_clauses(lits, aux)
                .iter()
                .for_each(|c| {
                    q.rup_clause(c);
                });
        }
        q.refute(drat, cnf.num_vars, |empty| format!("UNSAT : {empty}"))
    }
}

impl capability::Marks for Sudoku {
    fn svg_broken(board: &Board, text: &str, caption: &str) -> String {
        let cell = svg::cell_size(board.n, board.n, 1).min(CELL);
        let Ok(grid) = read_grid(board, text) else {
            return svg::compose(&[panel(board, None, &[], cell, |_| None, 0.0)], caption);
        };
        let cells = match check(board, &grid) {
            Err(Violation::Repeat { cells, .. }) => cells,
            Err(Violation::Given { row, col, .. } | Violation::Empty { row, col }) => {
                vec![(row - 1) * board.n + col - 1]
            }
            Ok(()) => Vec::new(),
        };
        let mut s = panel(board, Some(&grid), &[], cell, |_| None, 0.0);
        svg::mark_broken(&mut s, EDGE, EDGE, board.n, cell, &cells);
        svg::compose(&[s], caption)
    }
}

impl capability::Estimate for Sudoku {
    fn estimate(board: &Board, _: u64) -> u64 {
        // Each cell, house and digit: an exactly-one over at most N literals (pairwise up to 9).
        let n = board.n as u64;
        4 * n * n * if n <= 9 { n * n } else { 3 * n }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Board, ParseError> {
        Sudoku::parse(text, &Settings::default())
    }

    #[test]
    fn boxes_and_houses() {
        assert_eq!(
            [4, 6, 8, 9, 12, 16, 25].map(box_shape),
            [
                Some((2, 2)),
                Some((2, 3)),
                Some((2, 4)),
                Some((3, 3)),
                Some((3, 4)),
                Some((4, 4)),
                Some((5, 5))
            ]
        );
        assert_eq!([1, 2, 3, 5, 7].map(box_shape), [None; 5]);
        let b = parse(".1..\n...2\n3...\n..3.\n").unwrap();
        assert_eq!((b.n, b.box_h, b.box_w), (4, 2, 2));
        assert_eq!(b.house(0), [0, 1, 2, 3]);
        assert_eq!(b.house(4 + 1), [1, 5, 9, 13]);
        assert_eq!(b.house(8 + 3), [10, 11, 14, 15]);
        let six = parse(&"......\n".repeat(6)).unwrap();
        assert_eq!(
            six.house(12 + 1),
            [3, 4, 5, 9, 10, 11],
            "the second box of a 6×6 is 2 tall, 3 wide"
        );
    }

    #[test]
    fn reads_the_one_line_form() {
        let mut cells = ['.'; 81];
        (cells[0], cells[9]) = ('1', '2');
        let line: String = cells.iter().collect();
        let board = parse(&line).unwrap();
        assert_eq!((board.n, board.givens[0], board.givens[9]), (9, 1, 2));
        let rows: String = line
            .as_bytes()
            .chunks(9)
            .map(|r| String::from_utf8_lossy(r).to_string() + "\n")
            .collect();
        assert_eq!(parse(&rows).unwrap(), board);
        assert_eq!(parse(&line.replace('.', "0")).unwrap(), board);
        // A bad character is named in the line it is on.
        let e = parse(&format!("  {}x", &line[..80])).unwrap_err();
        assert_eq!((e.line, e.col), (1, 83), "{e}");
        // 16 characters: a 4×4.
        assert_eq!(parse("1...............").unwrap().n, 4);
    }

    #[test]
    fn reads_both_forms_and_names_bad_cells() {
        let a = parse("1 . . 4\n. . . .\n. . . .\n. . . .\n").unwrap();
        let b = parse("1..4\n....\n....\n....\n").unwrap();
        assert_eq!(a, b);
        assert_eq!(parse(&a.to_text()).unwrap(), a);
        // janko.at's size line.
        assert_eq!(parse(&format!("4 4\n{}", a.to_text())).unwrap(), a);
        let e = parse("1..5\n....\n....\n....\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 4));
        let e = parse("1..\n....\n....\n....\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(parse(".....\n".repeat(5).as_str())
            .unwrap_err()
            .message
            .contains("no boxes"));
    }
}
