//! Slitherlink (Nikoli): draw one closed loop along the cells' sides, through their corners,
//! so that a cell with a number has that many of its four sides on the loop.
//!
//! The loop is [`crate::genres::loops`]'s; a number is [`exactly_few`] of its cell's sides.

use super::loops::{Broken, Dir, Encoding, Loop, Looped, Net};
use crate::cnf::local::exactly_few;
use crate::cnf::{ClauseSink, Lit};
use crate::format::error::{quoted, ParseError};
use crate::format::grid;
use crate::format::url::{self, Number};
use crate::puzzle::Info;

/// Slitherlink for the driver: solve, count, prove uniqueness, hints.
pub type Slitherlink = Looped<Rules>;

/// A board: `clues[r * cols + c]`, a number from 0 to 4, `?` for one not given, `None` for none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Option<Number>>,
}

impl Board {
    /// janko.at's form: an optional `ROWS COLUMNS` line, then a row per line of numbers 0–4,
    /// `?`, or `-` / `.` for a cell without one (spaces between them may be left out).
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        let words = grid::read(text, true, |_, w: &str| match w {
            "-" | "." => Ok(None),
            "?" => Ok(Some(Number::Unknown)),
            "0" | "1" | "2" | "3" | "4" => Ok(Some(Number::Known(w.parse().expect("a digit")))),
            w => Err(format!(
                "unexpected {}: expected a number from 0 to 4, ? for one not given, or - for none",
                quoted(w)
            )),
        })?;
        Ok(Board {
            rows: words.rows,
            cols: words.cols,
            clues: words.cells,
        })
    }

    pub fn to_text(&self) -> String {
        format!("{} {}\n", self.rows, self.cols)
            + &grid::write(self.rows, self.cols, |i| {
                Rules::clue(self, i).map_or("-".into(), String::from)
            })
    }
}

/// Cell (r, c)'s four sides as edges of the corners' net: top, bottom, left, right.
fn sides(net: &Net, r: usize, c: usize) -> [usize; 4] {
    let corner = |r: usize, c: usize| r * net.cols + c;
    let side = |v: usize, d: Dir| net.toward(v, d).expect("a cell has four sides");
    [
        side(corner(r, c), Dir::Right),
        side(corner(r + 1, c), Dir::Right),
        side(corner(r, c), Dir::Down),
        side(corner(r, c + 1), Dir::Down),
    ]
}

/// Slitherlink's own part of [`Slitherlink`].
pub struct Rules;

impl Loop for Rules {
    const INFO: Info = Info {
        name: "slitherlink",
        about: "Nikoli's Slitherlink: draw one loop along the cells' sides so that each number \
            counts the sides of its cell on the loop",
        formats: &[],
        machine: crate::puzzle::Format::Text,
        answer_fields: &["loop"],
        variables: "line rRcC-rRcC: the loop runs between two corners (row and column of \
            corners, from 1)",
        blocks_exactly: true,
        ..Info::DEFAULT
    };
    const KINDS: &'static [&'static str] = &["slither", "slitherlink"];
    const ON_CORNERS: bool = true;

    type Board = Board;

    fn parse(text: &str) -> Result<Board, ParseError> {
        Board::parse(text)
    }

    fn size(board: &Board) -> (usize, usize) {
        (board.rows, board.cols)
    }

    fn clue(board: &Board, i: usize) -> Option<char> {
        board.clues[i].map(|n| match n {
            Number::Known(v) => char::from_digit(v, 10).expect("0–4"),
            Number::Unknown => '?',
        })
    }

    /// Each number is exactly that many of its cell's sides.
    fn encode<S: ClauseSink>(board: &Board, sink: &mut S, enc: &Encoding) {
        for (i, clue) in board.clues.iter().enumerate() {
            let Some(Number::Known(k)) = clue else {
                continue;
            };
            let around: Vec<Lit> = sides(&enc.net, i / board.cols, i % board.cols)
                .iter()
                .map(|&k| enc.lit(k))
                .collect();
            exactly_few(sink, &around, *k as usize);
        }
    }

    /// A rule per number, in reading order: "the 3 at (r,c) has 3 sides on the loop" ("the 0
    /// at (r,c) has no side on the loop"), [`exactly_few`] of its sides, no auxiliary variable.
    /// A `?` says nothing and has none.
    fn clue_rules(board: &Board, rules: &mut crate::explain::Rules, enc: &Encoding) {
        for (i, clue) in board.clues.iter().enumerate() {
            let Some(Number::Known(k)) = clue else {
                continue;
            };
            let around = sides(&enc.net, i / board.cols, i % board.cols);
            let said = match k {
                0 => "no side".to_string(),
                1 => "1 side".to_string(),
                k => format!("{k} sides"),
            };
            rules.rule(
                format!(
                    "the {k} at {} has {said} on the loop",
                    crate::genres::shade::named::at(i, board.cols)
                ),
                vec![i],
            );
            let lits: Vec<Lit> = around.iter().map(|&e| enc.lit(e)).collect();
            exactly_few(rules, &lits, *k as usize);
        }
    }

    /// By counting each number's sides on the loop.
    fn check(board: &Board, net: &Net, chosen: &[bool]) -> Result<(), Broken> {
        for (i, clue) in board.clues.iter().enumerate() {
            let Some(Number::Known(k)) = clue else {
                continue;
            };
            let (r, c) = (i / board.cols, i % board.cols);
            let on = sides(net, r, c).iter().filter(|&&k| chosen[k]).count();
            if on != *k as usize {
                return Err(Broken {
                    says: format!(
                        "the {k} at row {} column {} has {on} of its sides on the loop",
                        r + 1,
                        c + 1
                    ),
                    cells: vec![i],
                    edges: Vec::new(),
                });
            }
        }
        Ok(())
    }

    /// pzprjs's `slither` code ([`url::decode_4cell`]); its `f` variant (every corner on the
    /// loop) is another puzzle and refused.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        if link.flags.contains(&"f") {
            return Err(ParseError::new(
                1,
                link.body_at,
                "the f flag asks for a loop through every corner, a variant puzzle-sat does not \
                 solve",
            ));
        }
        let clues = url::decode_4cell(link)?;
        Ok(Board {
            rows: link.rows,
            cols: link.cols,
            clues,
        }
        .to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        Ok(url::link(
            "slither",
            board.cols,
            board.rows,
            &url::encode_4cell(&board.clues),
        ))
    }
}
