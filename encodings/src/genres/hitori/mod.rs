//! Hitori (Nikoli): shade cells so that no number is left twice unshaded in a row or a column,
//! no two shaded cells are side by side, and the unshaded cells form one piece. A cell without
//! a number (or with `?`) takes part only in the last two rules.
//!
//! The rules are words of the vocabulary: [`at_most_one`] unshaded per number and line,
//! [`no_adjacent`] for the shaded cells, [`connected`] for the unshaded ones (or, in the
//! search, [`piece_cuts`]). The answer's forms are [`crate::genres::shade`]'s.

use super::shade::{Board, Broken, Encoding, Shade, Shaded};
use crate::cnf::amo::at_most_one;
use crate::cnf::connect::{connected, edges, piece_cuts, Graph};
use crate::cnf::local::{no_adjacent, no_lone_unshaded};
use crate::cnf::{ClauseSink, Lit};
use crate::format::error::ParseError;
use crate::format::url::{self, Number};
use crate::puzzle::Info;
use std::collections::BTreeMap;

/// Hitori for the driver: solve, count, prove uniqueness, hints.
pub type Hitori = Shaded<Rules>;

/// Each row's and column's cells, grouped by number: the groups of two or more.
fn repeats(board: &Board) -> Vec<Vec<usize>> {
    let (rows, cols) = (board.rows, board.cols);
    let lines = (0..rows)
        .map(|r| (0..cols).map(|c| r * cols + c).collect::<Vec<_>>())
        .chain((0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect()));
    let mut out = Vec::new();
    for line in lines {
        let mut by: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for i in line {
            if let Some(Number::Known(v)) = board.clues[i] {
                by.entry(v).or_default().push(i);
            }
        }
        out.extend(by.into_values().filter(|g| g.len() > 1));
    }
    out
}

/// The first broken rule, cells 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    Twice { first: usize, second: usize },
    Adjacent { first: usize, second: usize },
    Apart { cells: Vec<usize> },
}

impl Violation {
    /// The cells the rule names, for the picture.
    fn cells(&self) -> Vec<usize> {
        match self {
            Violation::Twice { first, second } | Violation::Adjacent { first, second } => {
                vec![*first, *second]
            }
            Violation::Apart { cells } => cells.clone(),
        }
    }

    fn describe(&self, board: &Board) -> String {
        let at = |i: usize| format!("row {} column {}", i / board.cols + 1, i % board.cols + 1);
        match self {
            Violation::Twice { first, second } => format!(
                "the {} at {} and at {} are both unshaded in one {}",
                board.clue(*first).unwrap_or_default(),
                at(*first),
                at(*second),
                if first / board.cols == second / board.cols {
                    "row"
                } else {
                    "column"
                }
            ),
            Violation::Adjacent { first, second } => format!(
                "the shaded cells at {} and {} are side by side",
                at(*first),
                at(*second)
            ),
            Violation::Apart { cells } => format!(
                "the unshaded cells are not one piece: {} from {} {} cut off from the rest",
                plural(cells.len(), "unshaded cell"),
                at(cells[0]),
                if cells.len() == 1 { "is" } else { "are" }
            ),
        }
    }
}

/// "1 cell", "2 cells".
fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The independent validator: by comparing numbers along every line and a breadth-first
/// search over the answer, with no formula.
pub fn check(board: &Board, shaded: &[bool]) -> Result<(), Violation> {
    let (rows, cols) = (board.rows, board.cols);
    let known = |i: usize| match board.clues[i] {
        Some(Number::Known(v)) if !shaded[i] => Some(v),
        _ => None,
    };
    for (a, b) in (0..rows * cols).flat_map(|a| {
        let (r, c) = (a / cols, a % cols);
        ((c + 1)..cols)
            .map(move |c2| r * cols + c2)
            .chain(((r + 1)..rows).map(move |r2| r2 * cols + c))
            .map(move |b| (a, b))
    }) {
        if known(a).is_some() && known(a) == known(b) {
            return Err(Violation::Twice {
                first: a,
                second: b,
            });
        }
    }
    let graph = Graph::grid(rows, cols);
    for (a, b) in edges(&graph) {
        if shaded[a] && shaded[b] {
            return Err(Violation::Adjacent {
                first: a.min(b),
                second: a.max(b),
            });
        }
    }
    let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
    let pieces = graph.pieces(&open);
    if pieces.len() > 1 {
        let smallest = pieces.iter().min_by_key(|p| p.len()).expect("two pieces");
        return Err(Violation::Apart {
            cells: smallest.clone(),
        });
    }
    Ok(())
}

/// The largest number a URL holds: `-` and two base-36 digits, as pzprjs writes them.
const URL_MAX: u32 = 36 * 36 - 1;

/// Hitori's own part of [`Hitori`].
pub struct Rules;

impl Shade for Rules {
    const INFO: Info = Info {
        name: "hitori",
        about: "Nikoli's Hitori: shade cells so that no number repeats unshaded in a row or \
            column, no shaded cells touch, and the unshaded cells stay connected",
        formats: &[],
        machine: crate::puzzle::Format::Text,
        answer_fields: &["shaded"],
        variables: "rRcC shaded: cell (R, C) is shaded",
        blocks_exactly: true,
        ..Info::DEFAULT
    };
    const KINDS: &'static [&'static str] = &["hitori"];
    const FORESTS: u64 = 1;

    type Board = Board;

    /// janko.at's form ([`Board::parse`]), numbers from 1.
    fn parse(text: &str) -> Result<Board, ParseError> {
        Board::parse(text, 1)
    }

    fn numbers(board: &Board) -> &Board {
        board
    }

    /// At most one unshaded cell per number and line, no shaded neighbours, the unshaded
    /// cells [`connected`] (left to the cuts with `lazy`).
    fn encode<S: ClauseSink>(board: &Board, sink: &mut S, enc: &Encoding, lazy: bool) {
        let lits = &enc.cells.lits;
        for group in repeats(board) {
            let open: Vec<Lit> = group.iter().map(|&i| !lits[i]).collect();
            at_most_one(sink, &open);
        }
        no_adjacent(sink, &enc.graph, lits);
        if lazy {
            let b = Self::numbers(board);
            no_lone_unshaded(sink, b.rows, b.cols, lits);
        }
        if !lazy {
            let open: Vec<Lit> = lits.iter().map(|&l| !l).collect();
            connected(sink, &enc.graph, &open);
        }
    }

    /// Two pieces of unshaded cells: [`piece_cuts`].
    fn cuts(_: &Board, enc: &Encoding, shaded: &[bool]) -> Vec<Vec<Lit>> {
        let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
        let unshaded: Vec<Lit> = enc.cells.lits.iter().map(|&l| !l).collect();
        piece_cuts(&enc.graph, &open)
            .iter()
            .map(|c| c.clause(&unshaded))
            .collect()
    }

    fn check(board: &Board, shaded: &[bool]) -> Result<(), Broken> {
        check(board, shaded).map_err(|v| Broken {
            says: v.describe(board),
            cells: v.cells(),
        })
    }

    /// pzprjs's hitori code, a cell at a time: a base-36 digit (1–35), `-` and two (36–1295),
    /// `@` (or the older `%`) for `?`, `.` for a cell without a number.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        let (clues, used, _) = url::decode_prefix(link, None, 'b'..='a', |chars| {
            let digit = |k: usize| chars.get(k).and_then(|c| c.to_digit(36));
            match chars[0] {
                '.' => Ok((None, 1)),
                '@' | '%' => Ok((Some(Number::Unknown), 1)),
                '-' => match (digit(1), digit(2)) {
                    (Some(a), Some(b)) => Ok((Some(Number::Known(a * 36 + b)), 3)),
                    _ => Err("- is followed by two base-36 digits".to_string()),
                },
                '0' => Err("0: a number is at least 1".to_string()),
                c => match c.to_digit(36) {
                    Some(v) if c.is_ascii_lowercase() || c.is_ascii_digit() => {
                        Ok((Some(Number::Known(v)), 1))
                    }
                    _ => Err(format!("{c:?} is no hitori cell")),
                },
            }
        })?;
        if let Some(ch) = link.body.chars().nth(used) {
            return Err(ParseError::new(
                1,
                link.body_at + used + 1,
                format!("{ch:?} after the last of the {} cells", clues.len()),
            ));
        }
        Ok(Board {
            rows: link.rows,
            cols: link.cols,
            clues,
        }
        .to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        let mut body = String::new();
        for clue in &board.clues {
            match clue {
                None => body.push('.'),
                Some(Number::Unknown) => body.push('@'),
                Some(Number::Known(v)) if *v < 36 => {
                    body.push(char::from_digit(*v, 36).expect("a digit"))
                }
                Some(Number::Known(v)) if *v <= URL_MAX => {
                    let d = |x: u32| char::from_digit(x, 36).expect("a digit");
                    body += &format!("-{}{}", d(v / 36), d(v % 36));
                }
                Some(Number::Known(v)) => {
                    return Err(format!(
                        "the number {v} is past the largest a puzz.link URL can hold ({URL_MAX})"
                    ))
                }
            }
        }
        Ok(url::link("hitori", board.cols, board.rows, &body))
    }
}

impl crate::capability::Explain for Hitori {
    /// A rule per group of equal numbers in a line ("at most one unshaded"), per two
    /// neighbours ("not both shaded"), and "the unshaded cells are connected".
    fn named(board: &Board) -> crate::explain::Named<Encoding> {
        use super::shade::named::{at, cells, finish, not_both_shaded, unshaded_connected};
        let (rows, cols) = (board.rows, board.cols);
        let mut rules = crate::explain::Rules::new();
        let enc = cells(&mut rules, rows, cols);
        let lits = enc.cells.lits.clone();
        for group in repeats(board) {
            let line = if group[0] / cols == group[1] / cols {
                format!("row {}", group[0] / cols + 1)
            } else {
                format!("column {}", group[0] % cols + 1)
            };
            let number = board.clue(group[0]).unwrap_or_default();
            let where_: Vec<String> = group.iter().map(|&i| at(i, cols)).collect();
            rules.rule(
                format!(
                    "{line} keeps at most one of its {number}s unshaded ({})",
                    where_.join(", ")
                ),
                group.clone(),
            );
            let open: Vec<Lit> = group.iter().map(|&i| !lits[i]).collect();
            at_most_one(&mut rules, &open);
        }
        not_both_shaded(&mut rules, &enc, cols);
        unshaded_connected(&mut rules, &enc);
        finish(rules, enc, cols, Vec::new())
    }

    fn draw_known(board: &Board, named: &crate::explain::Named<Encoding>, known: &[Lit]) -> String {
        super::shade::named::draw::<Rules>(board, named, known)
    }

    fn svg_step(
        board: &Board,
        named: &crate::explain::Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        super::shade::named::svg_step::<Rules>(board, named, known, rules, deduced, caption)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::genres::shade;
    use crate::puzzle::{Puzzle, Settings};

    fn parse(text: &str) -> Board {
        Hitori::parse(text, &Settings::default()).unwrap()
    }

    #[test]
    fn the_validator_names_each_rule() {
        let board = parse("1 1 2\n2 3 1\n3 2 2\n");
        let verdict = |t: &str| {
            let answer = shade::read(3, 3, t, |i| board.clue(i), &[]).unwrap();
            check(
                &board,
                &answer.iter().map(|s| *s == Some(true)).collect::<Vec<_>>(),
            )
        };
        use Violation::*;
        assert_eq!(
            verdict("1 1 2\n2 3 1\n3 # 2"),
            Err(Twice {
                first: 0,
                second: 1
            })
        );
        assert_eq!(
            verdict("# 1 2\n2 3 1\n3 # #"),
            Err(Adjacent {
                first: 7,
                second: 8
            })
        );
        assert_eq!(
            verdict("1 # 2\n# 3 1\n3 2 #"),
            Err(Apart { cells: vec![0] })
        );
        assert_eq!(verdict("# 1 2\n2 3 1\n3 2 #"), Ok(()));
        assert_eq!(
            Twice {
                first: 0,
                second: 6
            }
            .describe(&board),
            "the 1 at row 1 column 1 and at row 3 column 1 are both unshaded in one column"
        );
    }

    #[test]
    fn urls_read_back_as_written() {
        let board = parse("1 ? -\n35 36 1295\n");
        let link = <Hitori as crate::capability::Urls>::to_url(&board).unwrap();
        assert_eq!(link, "https://puzz.link/p?hitori/3/2/1@.z-10-zz");
        assert!(<Hitori as crate::capability::Urls>::to_url(&parse("1296")).is_err());
        let split = url::split(&link).unwrap();
        let text = <Hitori as crate::capability::Urls>::from_url(&split).unwrap();
        assert_eq!(parse(&text), board);
    }
}
