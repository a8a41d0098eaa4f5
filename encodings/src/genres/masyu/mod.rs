//! Masyu (Nikoli): draw one closed loop through the centres of cells, passing through every
//! pearl. At a white pearl the loop goes straight and turns in the cell before or after it
//! (or both); at a black pearl it turns and goes straight through the cells before and after.
//!
//! The loop is [`crate::genres::loops`]'s; each pearl adds a few clauses over the edges next to
//! it and one step beyond.

pub mod named;

use super::loops::{Broken, Dir, Encoding, Loop, Looped, Net};
use crate::cnf::{ClauseSink, Lit};
use crate::format::error::{quoted, ParseError};
use crate::format::grid;
use crate::format::url;
use crate::puzzle::Info;

/// Masyu for the driver: solve, count, prove uniqueness, hints.
pub type Masyu = Looped<Rules>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pearl {
    White,
    Black,
}

/// A board: `pearls[r * cols + c]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub pearls: Vec<Option<Pearl>>,
}

impl Board {
    /// janko.at's form: an optional `ROWS COLUMNS` line, then a row per line of `w` or `1` (a
    /// white pearl), `b` or `2` (a black one, as janko.at and pzprjs number them) or `-` / `.`
    /// (none); spaces between them may be left out.
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        let words = grid::read(text, true, |_, w: &str| match w {
            "-" | "." => Ok(None),
            "w" | "W" | "1" => Ok(Some(Pearl::White)),
            "b" | "B" | "2" => Ok(Some(Pearl::Black)),
            w => Err(format!(
                "unexpected {}: expected w or 1 (a white pearl), b or 2 (a black one) or - (none)",
                quoted(w)
            )),
        })?;
        Ok(Board {
            rows: words.rows,
            cols: words.cols,
            pearls: words.cells,
        })
    }

    pub fn to_text(&self) -> String {
        format!("{} {}\n", self.rows, self.cols)
            + &grid::write(self.rows, self.cols, |i| {
                Rules::clue(self, i).map_or("-".into(), String::from)
            })
    }
}

/// The two ways along a line: left and right, up and down.
const LINES: [[Dir; 2]; 2] = [[Dir::Left, Dir::Right], [Dir::Up, Dir::Down]];

/// One pearl's clauses over `enc`'s edges. White: the edges out of it on one line both taken
/// or both not, one line taken, and not straight on through both neighbours. Black: at most
/// one edge of each line, at least one, and each taken edge goes on straight through the next
/// cell. An edge off the board is never taken.
pub fn pearl_clauses<S: ClauseSink>(sink: &mut S, enc: &Encoding, v: usize, pearl: Pearl) {
    let beyond = |v: usize, d: Dir| enc.net.step(v, d).and_then(|u| enc.toward(u, d));
    match pearl {
        Pearl::White => {
            let mut some = Vec::new();
            for [a, b] in LINES {
                match (enc.toward(v, a), enc.toward(v, b)) {
                    (Some(x), Some(y)) => {
                        sink.add_clause(&[!x, y]);
                        sink.add_clause(&[!y, x]);
                        some.push(x);
                        if let (Some(xx), Some(yy)) = (beyond(v, a), beyond(v, b)) {
                            sink.add_clause(&[!x, !xx, !yy]);
                        }
                    }
                    (x, y) => x.into_iter().chain(y).for_each(|l| sink.add_clause(&[!l])),
                }
            }
            sink.add_clause(&some);
        }
        Pearl::Black => {
            for [a, b] in LINES {
                let ends: Vec<Lit> = [a, b].iter().filter_map(|&d| enc.toward(v, d)).collect();
                sink.add_clause(&ends);
                if let [x, y] = ends[..] {
                    sink.add_clause(&[!x, !y]);
                }
                for d in [a, b] {
                    if let Some(x) = enc.toward(v, d) {
                        match beyond(v, d) {
                            Some(xx) => sink.add_clause(&[!x, xx]),
                            None => sink.add_clause(&[!x]),
                        }
                    }
                }
            }
        }
    }
}

/// Masyu's own part of [`Masyu`].
pub struct Rules;

impl Loop for Rules {
    const INFO: Info = Info {
        name: "masyu",
        about: "Nikoli's Masyu: draw one loop through the cells' centres and every pearl, \
            straight through white pearls (turning next to them) and turning on black ones \
            (straight next to them)",
        formats: &[],
        machine: crate::puzzle::Format::Text,
        answer_fields: &["loop"],
        variables: "line rRcC-rRcC: the loop runs between two cells",
        blocks_exactly: true,
        ..Info::DEFAULT
    };
    const KINDS: &'static [&'static str] = &["mashu", "masyu", "pearl"];
    const ON_CORNERS: bool = false;

    type Board = Board;

    fn parse(text: &str) -> Result<Board, ParseError> {
        Board::parse(text)
    }

    fn size(board: &Board) -> (usize, usize) {
        (board.rows, board.cols)
    }

    fn clue(board: &Board, i: usize) -> Option<char> {
        board.pearls[i].map(|p| match p {
            Pearl::White => 'w',
            Pearl::Black => 'b',
        })
    }

    /// Each pearl's clauses ([`pearl_clauses`]).
    fn encode<S: ClauseSink>(board: &Board, sink: &mut S, enc: &Encoding) {
        for (v, pearl) in board.pearls.iter().enumerate() {
            if let Some(pearl) = pearl {
                pearl_clauses(sink, enc, v, *pearl);
            }
        }
    }

    fn clue_rules(board: &Board, rules: &mut crate::explain::Rules, enc: &Encoding) {
        named::pearl_rules(board, rules, enc);
    }

    /// By looking at each pearl's and its neighbours' edges.
    fn check(board: &Board, net: &Net, chosen: &[bool]) -> Result<(), Broken> {
        let taken = |v: usize, d: Dir| net.toward(v, d).is_some_and(|k| chosen[k]);
        let straight = |v: usize| LINES.iter().any(|&[a, b]| taken(v, a) && taken(v, b));
        for (v, pearl) in board.pearls.iter().enumerate() {
            let Some(pearl) = pearl else { continue };
            let at = format!("row {} column {}", v / board.cols + 1, v % board.cols + 1);
            let out: Vec<Dir> = Dir::ALL.into_iter().filter(|&d| taken(v, d)).collect();
            let broken = |says: String| Broken {
                says,
                cells: vec![v],
                edges: Vec::new(),
            };
            let colour = if *pearl == Pearl::White {
                "white"
            } else {
                "black"
            };
            if out.is_empty() {
                return Err(broken(format!(
                    "the loop misses the {colour} pearl at {at}"
                )));
            }
            let on = |d: Dir| net.step(v, d).expect("the loop leaves by an edge");
            match pearl {
                Pearl::White if !straight(v) => {
                    return Err(broken(format!("the loop turns on the white pearl at {at}")));
                }
                Pearl::White if out.iter().all(|&d| straight(on(d))) => {
                    return Err(broken(format!(
                        "the loop goes straight through both cells beside the white pearl at {at}"
                    )));
                }
                Pearl::Black if straight(v) => {
                    return Err(broken(format!(
                        "the loop goes straight through the black pearl at {at}"
                    )));
                }
                Pearl::Black => {
                    if out.iter().any(|&d| !taken(on(d), d)) {
                        return Err(broken(format!(
                            "the loop turns in a cell beside the black pearl at {at}"
                        )));
                    }
                }
                Pearl::White => {}
            }
        }
        Ok(())
    }

    /// pzprjs's `mashu` code: three cells a character in base 27 (0 none, 1 white, 2 black);
    /// its `f` variant (the loop through every cell) is another puzzle and refused.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        if link.flags.contains(&"f") {
            return Err(ParseError::new(
                1,
                link.body_at,
                "the f flag asks for a loop through every cell, a variant puzzle-sat does not \
                 solve",
            ));
        }
        let n = link.rows * link.cols;
        let mut pearls = vec![None; n];
        for (i, ch) in link.body.chars().enumerate() {
            if 3 * i >= n {
                return Err(ParseError::new(
                    1,
                    link.body_at + i + 1,
                    format!("{ch:?} after the last of the {n} cells"),
                ));
            }
            let code = ch
                .to_digit(27)
                .filter(|_| !ch.is_ascii_uppercase())
                .ok_or_else(|| {
                    ParseError::new(
                        1,
                        link.body_at + i + 1,
                        format!("{ch:?} is no pearl code (0–9, a–q)"),
                    )
                })?;
            for (k, place) in [9, 3, 1].into_iter().enumerate() {
                let c = 3 * i + k;
                match (code / place % 3, c < n) {
                    (1, true) => pearls[c] = Some(Pearl::White),
                    (2, true) => pearls[c] = Some(Pearl::Black),
                    _ => {}
                }
            }
        }
        Ok(Board {
            rows: link.rows,
            cols: link.cols,
            pearls,
        }
        .to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        let body: String = board
            .pearls
            .chunks(3)
            .map(|three| {
                let code = (0..3).fold(0, |code, k| {
                    code * 3
                        + match three.get(k).copied().flatten() {
                            None => 0,
                            Some(Pearl::White) => 1,
                            Some(Pearl::Black) => 2,
                        }
                });
                char::from_digit(code, 27).expect("below 27")
            })
            .collect();
        Ok(url::link("mashu", board.cols, board.rows, &body))
    }
}
