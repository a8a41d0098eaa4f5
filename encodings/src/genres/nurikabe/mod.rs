//! Nurikabe (Nikoli): shade cells so that the shaded cells (the wall) form one piece with no
//! 2×2 block, and the unshaded cells form islands, each holding exactly one number, which is
//! its size (`?`: a number not given, any size). Numbered cells stay unshaded.
//!
//! The rules are three words of the vocabulary: [`islands`] for the unshaded cells,
//! [`connected`] for the wall, [`no_square`] for its blocks. The answer's forms are
//! [`crate::genres::shade`]'s.

use super::shade::{self, Cells, Shading};
use crate::capability;
use crate::cnf::connect::{connected, piece_cuts, unrooted_cuts, Graph};
use crate::cnf::islands::{islands, Clue, Rule};
use crate::cnf::local::no_square;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::ParseError;
use crate::format::grid;
use crate::format::url::{self, Number};
use crate::puzzle::{Format, Hints, Info, Puzzle, ReadAnswer, Settings};
use crate::solver::{NewSolver, SolverError};
use serde_json::{json, Map, Value};

/// A board: `clues[r * cols + c]`, `None` for a cell without a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Option<Number>>,
}

impl Board {
    /// The board as puzzle text in janko.at's form, which [`Nurikabe::parse`] reads back.
    pub fn to_text(&self) -> String {
        // With its size line: a board two wide whose first row is two numbers reads back the
        // same.
        format!("{} {}\n", self.rows, self.cols)
            + &grid::write(self.rows, self.cols, |i| {
                self.clue(i).unwrap_or_else(|| "-".into())
            })
    }

    /// Cell i's number as written, `?` for one not given.
    pub fn clue(&self, i: usize) -> Option<String> {
        self.clues[i].map(|n| match n {
            Number::Known(v) => v.to_string(),
            Number::Unknown => "?".into(),
        })
    }

    fn islands(&self) -> Vec<Clue> {
        (0..self.clues.len())
            .filter_map(|at| {
                Some(Clue {
                    at,
                    size: match self.clues[at]? {
                        Number::Known(v) => Some(v as usize),
                        Number::Unknown => None,
                    },
                })
            })
            .collect()
    }
}

/// The variables: a cell's "shaded", and each clue's island labels.
pub struct Encoding {
    pub cells: Cells,
    graph: Graph,
}

/// The rules: [`islands`] over the unshaded cells, the wall [`connected`], no 2×2 of it. With
/// [`Rule::Lazy`] the two connectivity rules are left to [`capability::Cuts::cuts`].
fn encode<S: ClauseSink>(board: &Board, sink: &mut S, rule: Rule) -> Encoding {
    let cells = Cells::new(sink, board.clues.len(), board.cols);
    let graph = Graph::grid(board.rows, board.cols);
    let open: Vec<Lit> = cells.lits.iter().map(|&l| !l).collect();
    islands(sink, &graph, &open, &board.islands(), rule);
    if rule == Rule::Eager {
        connected(sink, &graph, &cells.lits);
    }
    no_square(sink, board.rows, board.cols, &cells.lits);
    Encoding { cells, graph }
}

/// The first broken rule, positions 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    Undecided {
        row: usize,
        col: usize,
    },
    NumberShaded {
        row: usize,
        col: usize,
    },
    Block {
        row: usize,
        col: usize,
    },
    WallApart {
        cells: Vec<usize>,
    },
    NoNumber {
        cells: Vec<usize>,
    },
    TwoNumbers {
        cells: Vec<usize>,
        first: usize,
        second: usize,
    },
    WrongSize {
        cells: Vec<usize>,
        clue: usize,
        number: u32,
    },
}

impl Violation {
    /// The cells the rule names, for the picture.
    fn cells(&self, cols: usize) -> Vec<usize> {
        match self {
            Violation::Undecided { row, col } | Violation::NumberShaded { row, col } => {
                vec![(row - 1) * cols + col - 1]
            }
            Violation::Block { row, col } => {
                let i = (row - 1) * cols + col - 1;
                vec![i, i + 1, i + cols, i + cols + 1]
            }
            Violation::WallApart { cells }
            | Violation::NoNumber { cells }
            | Violation::TwoNumbers { cells, .. }
            | Violation::WrongSize { cells, .. } => cells.clone(),
        }
    }
}

fn at(i: usize, cols: usize) -> String {
    format!("row {} column {}", i / cols + 1, i % cols + 1)
}

/// "1 cell", "2 cells".
fn cells_word(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// What a violation says needs the board's width for positions: [`check`] words it.
fn describe(v: &Violation, cols: usize) -> String {
    match v {
        Violation::Undecided { row, col } => {
            format!("row {row} column {col}: neither shaded nor unshaded")
        }
        Violation::NumberShaded { row, col } => {
            format!("row {row} column {col}: a numbered cell is shaded")
        }
        Violation::Block { row, col } => {
            format!("a 2×2 block of shaded cells with its top-left at row {row} column {col}")
        }
        Violation::WallApart { cells } => format!(
            "the shaded cells are not one piece: {} from {} {} cut off from the rest",
            cells_word(cells.len(), "shaded cell"),
            at(cells[0], cols),
            if cells.len() == 1 { "is" } else { "are" }
        ),
        Violation::NoNumber { cells } => format!(
            "an island of {} from {} holds no number",
            cells_word(cells.len(), "cell"),
            at(cells[0], cols)
        ),
        Violation::TwoNumbers { first, second, .. } => format!(
            "one island holds the numbers at {} and {}",
            at(*first, cols),
            at(*second, cols)
        ),
        Violation::WrongSize {
            cells,
            clue,
            number,
        } => format!(
            "the island of the {number} at {} has {}",
            at(*clue, cols),
            cells_word(cells.len(), "cell")
        ),
    }
}

/// The independent validator: by breadth-first search over the answer, with no formula.
pub fn check(board: &Board, answer: &Shading) -> Result<(), Violation> {
    let (rows, cols) = (board.rows, board.cols);
    let pos = |i: usize| (i / cols + 1, i % cols + 1);
    if let Some(i) = answer.iter().position(Option::is_none) {
        let (row, col) = pos(i);
        return Err(Violation::Undecided { row, col });
    }
    let shaded: Vec<bool> = answer.iter().map(|s| *s == Some(true)).collect();
    if let Some(i) = (0..rows * cols).find(|&i| shaded[i] && board.clues[i].is_some()) {
        let (row, col) = pos(i);
        return Err(Violation::NumberShaded { row, col });
    }
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let i = r * cols + c;
            if [i, i + 1, i + cols, i + cols + 1]
                .iter()
                .all(|&j| shaded[j])
            {
                return Err(Violation::Block {
                    row: r + 1,
                    col: c + 1,
                });
            }
        }
    }
    let graph = Graph::grid(rows, cols);
    let walls = graph.pieces(&shaded);
    if walls.len() > 1 {
        let smallest = walls.iter().min_by_key(|p| p.len()).expect("two pieces");
        return Err(Violation::WallApart {
            cells: smallest.clone(),
        });
    }
    let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
    for island in graph.pieces(&open) {
        let numbers: Vec<usize> = island
            .iter()
            .copied()
            .filter(|&i| board.clues[i].is_some())
            .collect();
        match numbers[..] {
            [] => return Err(Violation::NoNumber { cells: island }),
            [i] => {
                if let Some(Number::Known(n)) = board.clues[i] {
                    if n as usize != island.len() {
                        return Err(Violation::WrongSize {
                            cells: island,
                            clue: i,
                            number: n,
                        });
                    }
                }
            }
            [first, second, ..] => {
                return Err(Violation::TwoNumbers {
                    cells: island,
                    first,
                    second,
                })
            }
        }
    }
    Ok(())
}

/// Nurikabe for the driver: solve, count, prove uniqueness, hints.
pub struct Nurikabe;

impl Puzzle for Nurikabe {
    const INFO: Info = Info {
        name: "nurikabe",
        about: "Nikoli's Nurikabe: shade a connected wall with no 2×2 block, leaving islands of \
            the numbers' sizes",
        formats: &[],
        machine: Format::Text,
        answer_fields: &["shaded"],
        variables: "rRcC shaded: cell (R, C) is shaded (part of the wall)",
        blocks_exactly: true,
        ..Info::DEFAULT
    };

    type Instance = Board;
    type Answer = Shading;
    type Checked = ();
    type Encoding = Encoding;

    /// janko.at's form: an optional `ROWS COLUMNS` line, then one row per line, cells separated
    /// by spaces: a number, `?` (a number not given), or `-` / `.` for a cell without one.
    fn parse(text: &str, _: &Settings) -> Result<Board, ParseError> {
        let words = grid::read(text, false, |_, w| match w {
            "-" | "." => Ok(None),
            "?" => Ok(Some(Number::Unknown)),
            w if w.bytes().all(|b| b.is_ascii_digit()) => match w.parse::<u32>() {
                Ok(v) if v >= 1 && v as usize <= url::MAX_CELLS => Ok(Some(Number::Known(v))),
                _ => Err(format!(
                    "{w}: a number is at least 1 and at most the cells a board may have ({})",
                    url::MAX_CELLS
                )),
            },
            w => Err(format!(
                "unexpected {}: expected a number, ? for a number not given, or - for none",
                crate::format::error::quoted(w)
            )),
        })?;
        Ok(Board {
            rows: words.rows,
            cols: words.cols,
            clues: words.cells,
        })
    }

    fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
        encode(board, sink, Rule::Eager)
    }

    fn decode(_: &Board, enc: &Encoding, model: &Model) -> Shading {
        enc.cells.decode(model)
    }

    fn check(board: &Board, answer: &Shading) -> Result<(), String> {
        check(board, answer).map_err(|v| describe(&v, board.cols))
    }

    fn read_answer(
        board: &Board,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        Ok(Ok(ReadAnswer {
            answer: shade::read(board.rows, board.cols, text, |i| board.clue(i))?,
            complete: true,
            claimed: None,
        }))
    }

    fn block<S: ClauseSink>(_: &Board, enc: &Encoding, sink: &mut S, answers: &[Shading]) {
        enc.cells.block(sink, answers);
    }

    fn render(board: &Board, answer: &Shading, _: &(), _: Format) -> String {
        shade::render(board.rows, board.cols, answer, |i| board.clue(i))
    }

    fn svg(board: &Board, answers: &[(&Shading, &())], caption: &str) -> String {
        let answers: Vec<&Shading> = answers.iter().map(|a| a.0).collect();
        shade::svg(
            board.rows,
            board.cols,
            &answers,
            &|i| board.clue(i),
            caption,
        )
    }

    fn answer_json(board: &Board, answer: &Shading, _: &()) -> Map<String, Value> {
        let rows: Vec<String> = answer
            .chunks(board.cols)
            .map(|row| {
                row.iter()
                    .map(|s| if *s == Some(true) { '#' } else { '.' })
                    .collect()
            })
            .collect();
        Map::from_iter([("shaded".to_string(), json!(rows))])
    }
}

impl capability::Urls for Nurikabe {
    const KINDS: &'static [&'static str] = &["nurikabe"];

    /// pzprjs's nurikabe code: number16 clues, `.` for `?`, `g`–`z` for runs of empty cells.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        let clues = url::decode_with(link, None, |chars| match url::read_number16(chars)? {
            (Number::Known(0), _) => Err("0: a number is at least 1".to_string()),
            (n, k) => Ok((Some(n), k)),
        })?;
        Ok(Board {
            rows: link.rows,
            cols: link.cols,
            clues,
        }
        .to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        if let Some(Number::Known(v)) = board
            .clues
            .iter()
            .flatten()
            .find(|n| matches!(n, Number::Known(v) if *v > url::MAX_NUMBER))
        {
            return Err(format!(
                "the number {v} is past the largest a puzz.link URL can hold ({})",
                url::MAX_NUMBER
            ));
        }
        Ok(url::link(
            "nurikabe",
            board.cols,
            board.rows,
            &url::encode_numbers(board.clues.iter().copied()),
        ))
    }
}

impl capability::Cuts for Nurikabe {
    fn encode_lazy<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
        encode(board, sink, Rule::Lazy)
    }

    /// Two pieces of wall, or an island without a number: [`piece_cuts`], [`unrooted_cuts`].
    fn cuts(board: &Board, enc: &Encoding, answer: &Shading) -> Vec<Vec<Lit>> {
        let shaded: Vec<bool> = answer.iter().map(|s| *s == Some(true)).collect();
        let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
        let roots: Vec<bool> = board.clues.iter().map(Option::is_some).collect();
        let lits = &enc.cells.lits;
        let unshaded: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        let mut out: Vec<Vec<Lit>> = piece_cuts(&enc.graph, &shaded)
            .iter()
            .map(|c| c.clause(lits))
            .collect();
        out.extend(
            unrooted_cuts(&enc.graph, &open, &roots)
                .iter()
                .map(|c| c.clause(&unshaded)),
        );
        out
    }
}

impl capability::Backbone for Nurikabe {
    /// The cells shaded alike in every solution.
    fn hints(
        board: &Board,
        found: &(Shading, ()),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Shading>>, SolverError> {
        let mut solver = solvers.new_solver();
        let enc = encode(board, &mut crate::search::Sink(&mut *solver), Rule::Lazy);
        let cuts = |model: &Model| {
            <Nurikabe as capability::Cuts>::cuts(board, &enc, &enc.cells.decode(model))
        };
        let Some((partial, decided)) = enc.cells.fixed(&mut *solver, &found.0, cuts)? else {
            return Ok(None);
        };
        let json: Vec<Vec<Value>> = partial
            .chunks(board.cols)
            .map(|row| row.iter().map(|s| json!(s)).collect())
            .collect();
        Ok(Some(Hints {
            json: json!(json),
            drawn: shade::render(board.rows, board.cols, &partial, |i| board.clue(i)),
            decided,
            of: board.clues.len(),
            unit: "cells",
            partial,
        }))
    }
}

impl capability::Marks for Nurikabe {
    fn svg_broken(board: &Board, text: &str, caption: &str) -> String {
        let clue = |i: usize| board.clue(i);
        let answer = shade::read(board.rows, board.cols, text, clue).ok();
        let broken = match &answer {
            Some(a) => check(board, a)
                .err()
                .map_or(Vec::new(), |v| v.cells(board.cols)),
            None => Vec::new(),
        };
        shade::svg_broken(
            board.rows,
            board.cols,
            answer.as_ref(),
            &clue,
            &broken,
            caption,
        )
    }
}

impl capability::Estimate for Nurikabe {
    /// Two forests of ranks (the wall's and the islands'), about 1,100 literals a cell on a
    /// 20×20 board and growing with the rank's bits, and each clue's labels; counted exactly by
    /// encoding into a counter once the cheap bound allows it.
    fn estimate(board: &Board, limit: u64) -> u64 {
        let cells = board.clues.len() as u64;
        // u64::BITS, not usize::BITS: the page is a 32-bit build, where the two differ.
        let bits = u64::from(u64::BITS - cells.max(2).leading_zeros());
        let forests = cells * 2 * 4 * (6 * bits) * 3;
        if forests > limit {
            return forests;
        }
        let mut count = crate::cnf::SizeCounter::default();
        Nurikabe::encode(board, &mut count);
        count.literals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Board {
        Nurikabe::parse(text, &Settings::default()).unwrap()
    }

    #[test]
    fn the_validator_names_each_rule() {
        let board = parse("2 - -\n- - -\n- - 1\n");
        let verdict = |t: &str| check(&board, &shade::read(3, 3, t, |i| board.clue(i)).unwrap());
        use Violation::*;
        assert_eq!(
            verdict("# . #\n# # #\n# . 1"),
            Err(NumberShaded { row: 1, col: 1 })
        );
        assert_eq!(
            verdict("2 . #\n# # #\n# # 1"),
            Err(Block { row: 2, col: 1 })
        );
        assert_eq!(
            verdict("2 . #\n# . #\n# # 1"),
            Err(WallApart { cells: vec![2, 5] })
        );
        assert_eq!(
            verdict("2 . #\n# # #\n. # 1"),
            Err(NoNumber { cells: vec![6] })
        );
        assert_eq!(
            verdict("2 . #\n# # #\n# . 1"),
            Err(WrongSize {
                cells: vec![7, 8],
                clue: 8,
                number: 1
            })
        );
        let line = parse("1 - 1\n");
        assert_eq!(
            check(&line, &vec![Some(false); 3]),
            Err(TwoNumbers {
                cells: vec![0, 1, 2],
                first: 0,
                second: 2
            })
        );
        assert_eq!(
            check(&line, &vec![Some(false), Some(true), Some(false)]),
            Ok(())
        );
        assert_eq!(
            describe(
                &WrongSize {
                    cells: vec![7, 8],
                    clue: 8,
                    number: 1
                },
                3
            ),
            "the island of the 1 at row 3 column 3 has 2 cells"
        );
    }
}
