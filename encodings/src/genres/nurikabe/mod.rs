//! Nurikabe (Nikoli): shade cells so that the shaded cells (the wall) form one piece with no
//! 2×2 block, and the unshaded cells form islands, each holding exactly one number, which is
//! its size (`?`: a number not given, any size). Numbered cells stay unshaded.
//!
//! The rules are three words of the vocabulary: [`islands`] for the unshaded cells,
//! [`connected`] for the wall, [`no_square`] for its blocks. The answer's forms are
//! [`crate::genres::shade`]'s.

use super::shade::{Broken, Encoding, Shade, Shaded};
use crate::cnf::connect::{connected, piece_cuts, unrooted_cuts, Graph};
use crate::cnf::islands::{islands, Clue, Rule};
use crate::cnf::local::{no_lone, no_square};
use crate::cnf::sum::exactly;
use crate::cnf::{ClauseSink, Lit};
use crate::format::error::ParseError;
use crate::format::url::{self, Number};
use crate::puzzle::Info;

pub use super::shade::Board;

pub mod named;

/// The most `cells × (the wall or the islands' area, the smaller, + 1)` the wall's count may
/// take.
const WALL_COUNT_BUDGET: usize = 1 << 14;

/// Nurikabe for the driver: solve, count, prove uniqueness, hints.
pub type Nurikabe = Shaded<Rules>;

/// The numbers as [`islands`]' clues.
fn clues(board: &Board) -> Vec<Clue> {
    (0..board.clues.len())
        .filter_map(|at| {
            Some(Clue {
                at,
                size: match board.clues[at]? {
                    Number::Known(v) => Some(v as usize),
                    Number::Unknown => None,
                },
            })
        })
        .collect()
}

/// The first broken rule, positions 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
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
            Violation::NumberShaded { row, col } => {
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
pub fn check(board: &Board, shaded: &[bool]) -> Result<(), Violation> {
    let (rows, cols) = (board.rows, board.cols);
    let pos = |i: usize| (i / cols + 1, i % cols + 1);
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
    let walls = graph.pieces(shaded);
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

/// Nurikabe's own part of [`Nurikabe`].
pub struct Rules;

impl Shade for Rules {
    const INFO: Info = Info {
        name: "nurikabe",
        about: "Nikoli's Nurikabe: shade a connected wall with no 2×2 block, leaving islands of \
            the numbers' sizes",
        formats: &[],
        machine: crate::puzzle::Format::Text,
        answer_fields: &["shaded"],
        variables: "rRcC shaded: cell (R, C) is shaded (part of the wall)",
        blocks_exactly: true,
        ..Info::DEFAULT
    };
    const KINDS: &'static [&'static str] = &["nurikabe"];
    const FORESTS: u64 = 2;

    type Board = Board;

    /// janko.at's form ([`Board::parse`]), numbers from 1.
    fn parse(text: &str) -> Result<Board, ParseError> {
        Board::parse(text, 1)
    }

    fn numbers(board: &Board) -> &Board {
        board
    }

    /// [`islands`] over the unshaded cells, the wall [`connected`], no 2×2 of it; with `lazy`
    /// the two connectivity rules are left to the cuts.
    fn encode<S: ClauseSink>(board: &Board, sink: &mut S, enc: &Encoding, lazy: bool) {
        let lits = &enc.cells.lits;
        let open: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        let rule = if lazy { Rule::Lazy } else { Rule::Eager };
        let clues = clues(board);
        islands(sink, &enc.graph, &open, &clues, rule);
        // Implied: every unshaded cell is in one numbered island, so with every number given
        // the wall has the cells the islands leave. Stated, it lets propagation count areas
        // (janko.at's 1030, a 994 and a 20 on 32×32, is decided by it); its counter grows with
        // cells × the smaller side, and on large boards with walls of half the cells it costs
        // more than it prunes (measured on the janko.at set: docs/encodings/nurikabe.md).
        if let Some(sizes) = clues.iter().map(|c| c.size).sum::<Option<usize>>() {
            let cells = lits.len();
            match cells.checked_sub(sizes) {
                Some(wall) if cells * (wall.min(sizes) + 1) <= WALL_COUNT_BUDGET => {
                    exactly(sink, lits, wall)
                }
                Some(_) => {}
                None => sink.add_clause(&[]),
            }
            // Implied too: a wall of two cells or more is one piece, so no wall cell is alone.
            // It cuts off at once what would take a round of cuts a cell (on janko.at's 42
            // slowest, 1.7× faster in geometric mean).
            if cells >= sizes + 2 {
                no_lone(sink, &enc.graph, lits);
            }
        }
        if !lazy {
            connected(sink, &enc.graph, lits);
        }
        no_square(sink, board.rows, board.cols, lits);
    }

    /// Two pieces of wall, or an island without a number: [`piece_cuts`], [`unrooted_cuts`].
    fn cuts(board: &Board, enc: &Encoding, shaded: &[bool]) -> Vec<Vec<Lit>> {
        let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
        let roots: Vec<bool> = board.clues.iter().map(Option::is_some).collect();
        let lits = &enc.cells.lits;
        let unshaded: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        let mut out: Vec<Vec<Lit>> = piece_cuts(&enc.graph, shaded)
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

    fn check(board: &Board, shaded: &[bool]) -> Result<(), Broken> {
        check(board, shaded).map_err(|v| Broken {
            says: describe(&v, board.cols),
            cells: v.cells(board.cols),
        })
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genres::shade;
    use crate::puzzle::{Puzzle, Settings};

    fn parse(text: &str) -> Board {
        Nurikabe::parse(text, &Settings::default()).unwrap()
    }

    #[test]
    fn the_validator_names_each_rule() {
        let board = parse("2 - -\n- - -\n- - 1\n");
        let verdict = |t: &str| {
            let answer = shade::read(3, 3, t, |i| board.clue(i), &[]).unwrap();
            check(
                &board,
                &answer.iter().map(|s| *s == Some(true)).collect::<Vec<_>>(),
            )
        };
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
            check(&line, &[false; 3]),
            Err(TwoNumbers {
                cells: vec![0, 1, 2],
                first: 0,
                second: 2
            })
        );
        assert_eq!(check(&line, &[false, true, false]), Ok(()));
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
