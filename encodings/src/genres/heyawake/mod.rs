//! Heyawake (Nikoli): a board divided into rooms, some with a number. Shade cells so that a
//! room with a number has that many shaded cells, no two shaded cells are side by side, the
//! unshaded cells form one piece, and no straight run of unshaded cells crosses two room
//! borders (it spans at most two rooms).
//!
//! The rules are words of the vocabulary: [`exactly`] per numbered room, [`no_adjacent`],
//! [`connected`] for the unshaded cells (or, in the search, [`piece_cuts`]), and one clause per
//! run between two borders. The answer's forms are [`crate::genres::shade`]'s.

use super::shade::{self, rooms, Broken, Encoding, Shade, Shaded};
use crate::cnf::connect::{connected, edges, piece_cuts, Graph};
use crate::cnf::local::{no_adjacent, no_lone_unshaded};
use crate::cnf::sum::exactly;
use crate::cnf::{ClauseSink, Lit};
use crate::format::error::{quoted, ParseError};
use crate::format::grid;
use crate::format::url::{self, Number};
use crate::puzzle::Info;

/// Heyawake for the driver: solve, count, prove uniqueness, hints.
pub type Heyawake = Shaded<Rules>;

/// A board: the numbers where they are written (each in a cell of its room) and each cell's
/// room, rooms numbered from 0 in reading order of their first cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub numbers: shade::Board,
    pub room: Vec<usize>,
}

impl Board {
    /// The cells of each room, in reading order.
    pub fn rooms(&self) -> Vec<Vec<usize>> {
        let count = self.room.iter().max().map_or(0, |&r| r + 1);
        let mut rooms = vec![Vec::new(); count];
        for (i, &r) in self.room.iter().enumerate() {
            rooms[r].push(i);
        }
        rooms
    }

    /// Each room's number and the cell it is written in.
    pub fn clues(&self) -> Vec<Option<(usize, Number)>> {
        self.rooms()
            .iter()
            .map(|cells| {
                cells
                    .iter()
                    .find_map(|&i| self.numbers.clues[i].map(|n| (i, n)))
            })
            .collect()
    }

    /// The board as puzzle text (a size line, the numbers, the rooms numbered from 1), which
    /// [`Heyawake::parse`] reads back.
    pub fn to_text(&self) -> String {
        let (rows, cols) = (self.numbers.rows, self.numbers.cols);
        self.numbers.to_text() + &grid::write(rows, cols, |i| (self.room[i] + 1).to_string())
    }

    /// The runs that would cross two borders: for each row and column, from the cell before
    /// one border to the cell after the next.
    fn spans(&self) -> Vec<Vec<usize>> {
        let (rows, cols) = (self.numbers.rows, self.numbers.cols);
        let lines = (0..rows)
            .map(|r| (0..cols).map(|c| r * cols + c).collect::<Vec<_>>())
            .chain((0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect()));
        let mut out = Vec::new();
        for line in lines {
            // k is a border when line[k - 1] and line[k] are in different rooms.
            let borders: Vec<usize> = (1..line.len())
                .filter(|&k| self.room[line[k - 1]] != self.room[line[k]])
                .collect();
            for pair in borders.windows(2) {
                out.push(line[pair[0] - 1..=pair[1]].to_vec());
            }
        }
        out
    }
}

/// The first broken rule, cells 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    Count {
        room: Vec<usize>,
        at: usize,
        number: u32,
        shaded: usize,
    },
    Adjacent {
        first: usize,
        second: usize,
    },
    Span {
        cells: Vec<usize>,
    },
    Apart {
        cells: Vec<usize>,
    },
}

impl Violation {
    /// The cells the rule names, for the picture.
    fn cells(&self) -> Vec<usize> {
        match self {
            Violation::Adjacent { first, second } => vec![*first, *second],
            Violation::Count { room: cells, .. }
            | Violation::Span { cells }
            | Violation::Apart { cells } => cells.clone(),
        }
    }

    fn describe(&self, cols: usize) -> String {
        let at = |i: usize| format!("row {} column {}", i / cols + 1, i % cols + 1);
        match self {
            Violation::Count {
                at: i,
                number,
                shaded,
                ..
            } => format!(
                "the room of the {number} at {} has {}",
                at(*i),
                plural(*shaded, "shaded cell")
            ),
            Violation::Adjacent { first, second } => format!(
                "the shaded cells at {} and {} are side by side",
                at(*first),
                at(*second)
            ),
            Violation::Span { cells } => format!(
                "the unshaded cells from {} to {} cross two room borders",
                at(cells[0]),
                at(cells[cells.len() - 1])
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

/// The independent validator: by counting, walking every row and column, and a breadth-first
/// search over the answer, with no formula.
pub fn check(board: &Board, shaded: &[bool]) -> Result<(), Violation> {
    let (rows, cols) = (board.numbers.rows, board.numbers.cols);
    for (room, clue) in board.rooms().into_iter().zip(board.clues()) {
        if let Some((at, Number::Known(number))) = clue {
            let count = room.iter().filter(|&&i| shaded[i]).count();
            if count != number as usize {
                return Err(Violation::Count {
                    room,
                    at,
                    number,
                    shaded: count,
                });
            }
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
    // Each maximal run of unshaded cells along a row or column, by walking it.
    let lines = (0..rows)
        .map(|r| (0..cols).map(|c| r * cols + c).collect::<Vec<_>>())
        .chain((0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect()));
    for line in lines {
        for run in line.split(|&i| shaded[i]) {
            let mut rooms: Vec<usize> = run.iter().map(|&i| board.room[i]).collect();
            rooms.dedup();
            if rooms.len() > 2 {
                return Err(Violation::Span {
                    cells: run.to_vec(),
                });
            }
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

/// Reads the file: the numbers as [`shade::Board::parse`] reads them (with its size line),
/// then the rooms as a grid of the same size, one label a cell (any word: janko.at numbers
/// them), blank lines between the two passed over.
fn parse(text: &str) -> Result<Board, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let filled: Vec<usize> = (0..lines.len())
        .filter(|&k| {
            !lines[k]
                .trim_matches([' ', '\t', '\r', '\u{feff}'])
                .is_empty()
        })
        .collect();
    let Some(&head) = filled.first() else {
        return Err(ParseError::new(
            1,
            1,
            "empty input: expected the numbers' grid, then the rooms' grid of the same size",
        ));
    };
    // With a size line `R C`, its R rows of numbers follow; without, the grids split the
    // lines in half.
    let words: Vec<&str> = lines[head].split_whitespace().collect();
    let sized = match words[..] {
        [r, c]
            if filled.len() > 1 && [r, c].iter().all(|w| w.bytes().all(|b| b.is_ascii_digit())) =>
        {
            r.parse::<usize>()
                .ok()
                .filter(|&r| filled.len() == 2 * r + 1)
        }
        _ => None,
    };
    let half = match sized {
        Some(r) => r + 1,
        None if filled.len().is_multiple_of(2) => filled.len() / 2,
        None => {
            return Err(ParseError::new(
                filled[filled.len() - 1] + 1,
                1,
                format!(
                    "{} rows: expected the numbers' grid, then the rooms' grid of as many rows \
                     (a size line `ROWS COLUMNS` first may say where the numbers end)",
                    filled.len()
                ),
            ))
        }
    };
    // Each grid read from the text with the other's lines blanked, so that errors name the
    // file's own lines.
    let split = filled[half];
    let part = |keep: std::ops::Range<usize>| -> String {
        (0..lines.len())
            .map(|k| if keep.contains(&k) { lines[k] } else { "" })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let numbers = match sized {
        Some(_) => shade::Board::parse(&part(0..split), 0)?,
        None => shade::Board::parse_rows(&part(0..split), 0)?,
    };
    let labels = grid::read_rows(&part(split..lines.len()), false, |_, w| Ok(w.to_string()))?;
    if (labels.rows, labels.cols) != (numbers.rows, numbers.cols) {
        return Err(ParseError::new(
            split + 1,
            1,
            format!(
                "the rooms' grid is {} rows of {}; the numbers' is {} rows of {}",
                labels.rows, labels.cols, numbers.rows, numbers.cols
            ),
        ));
    }
    let room = rooms::of_labels(numbers.rows, numbers.cols, &labels.cells);
    let board = Board { numbers, room };
    // Two numbers in one room: the second is named.
    let mut seen = vec![None; board.room.len()];
    for i in 0..board.room.len() {
        if let Some(n) = board.numbers.clue(i) {
            if let Some(first) = seen[board.room[i]].replace(i) {
                let cols = board.numbers.cols;
                let line = filled[i / cols + usize::from(sized.is_some())];
                let column = crate::format::error::words(lines[line])
                    .nth(i % cols)
                    .map_or(1, |(at, _)| at);
                return Err(ParseError::new(
                    line + 1,
                    column,
                    format!(
                        "{}: a second number in the room of the one at row {} column {}",
                        quoted(&n),
                        first / cols + 1,
                        first % cols + 1
                    ),
                ));
            }
        }
    }
    Ok(board)
}

/// Heyawake's own part of [`Heyawake`].
pub struct Rules;

impl Shade for Rules {
    const INFO: Info = Info {
        name: "heyawake",
        about: "Nikoli's Heyawake: shade each numbered room's count of cells, none side by side, \
            the rest connected, no unshaded run across two room borders",
        formats: &[],
        machine: crate::puzzle::Format::Text,
        answer_fields: &["shaded"],
        variables: "rRcC shaded: cell (R, C) is shaded",
        blocks_exactly: true,
        ..Info::DEFAULT
    };
    const KINDS: &'static [&'static str] = &["heyawake"];
    const FORESTS: u64 = 1;

    type Board = Board;

    /// The numbers' grid (janko.at's form, with an optional size line), then the rooms' grid.
    fn parse(text: &str) -> Result<Board, ParseError> {
        parse(text)
    }

    fn numbers(board: &Board) -> &shade::Board {
        &board.numbers
    }

    fn rooms(board: &Board) -> Option<&[usize]> {
        Some(&board.room)
    }

    /// [`exactly`] each room's number shaded, no shaded neighbours, one clause per run between
    /// two borders, the unshaded cells [`connected`] (left to the cuts with `lazy`).
    fn encode<S: ClauseSink>(board: &Board, sink: &mut S, enc: &Encoding, lazy: bool) {
        let lits = &enc.cells.lits;
        for (room, clue) in board.rooms().iter().zip(board.clues()) {
            if let Some((_, Number::Known(k))) = clue {
                let inside: Vec<Lit> = room.iter().map(|&i| lits[i]).collect();
                exactly(sink, &inside, k as usize);
            }
        }
        no_adjacent(sink, &enc.graph, lits);
        if lazy {
            let b = Self::numbers(board);
            no_lone_unshaded(sink, b.rows, b.cols, lits);
        }
        for span in board.spans() {
            let some: Vec<Lit> = span.iter().map(|&i| lits[i]).collect();
            sink.add_clause(&some);
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
            says: v.describe(board.numbers.cols),
            cells: v.cells(),
        })
    }

    /// pzprjs's heyawake code: the borders ([`url::decode_borders`]), then each room's number
    /// in the number code, rooms in reading order of their first cells, `g`–`z` skipping rooms
    /// without one. The number is written in the room's first cell.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        let (rows, cols) = (link.rows, link.cols);
        let (right, below, used) = url::decode_borders(link)?;
        let room = rooms::of_borders(rows, cols, &right, &below);
        if let Some((a, b, bit)) = rooms::stray_border(link.cols, &right, &below, &room) {
            let at = |i: usize| format!("row {} column {}", i / link.cols + 1, i % link.cols + 1);
            return Err(ParseError::new(
                1,
                link.body_at + bit / 5 + 1,
                format!(
                    "the border between {} and {} divides no rooms (its cells are joined around \
                     it): puzzle-sat reads borders that divide rooms only",
                    at(a),
                    at(b)
                ),
            ));
        }
        let count = room.iter().max().map_or(0, |&r| r + 1);
        let rest = url::Link {
            cols: count,
            rows: 1,
            body: &link.body[link
                .body
                .char_indices()
                .nth(used)
                .map_or(link.body.len(), |(b, _)| b)..],
            body_at: link.body_at + used,
            ..link.clone()
        };
        let numbers = url::decode_numbers(&rest)?;
        let mut clues = vec![None; rows * cols];
        for (r, n) in numbers.into_iter().enumerate() {
            if let Some(first) = room.iter().position(|&x| x == r) {
                clues[first] = n;
            }
        }
        let numbers = shade::Board { rows, cols, clues };
        Ok(Board { numbers, room }.to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        let (rows, cols) = (board.numbers.rows, board.numbers.cols);
        let (right, below) = rooms::borders(rows, cols, &board.room);
        let numbers = board.clues().into_iter().map(|c| c.map(|(_, n)| n));
        if let Some(v) = board.clues().iter().flatten().find_map(|&(_, n)| match n {
            Number::Known(v) if v > url::MAX_NUMBER => Some(v),
            _ => None,
        }) {
            return Err(format!(
                "the number {v} is past the largest a puzz.link URL can hold ({})",
                url::MAX_NUMBER
            ));
        }
        let body = url::encode_borders(&right, &below) + &url::encode_numbers(numbers);
        Ok(url::link("heyawake", cols, rows, &body))
    }
}

impl crate::capability::Explain for Heyawake {
    /// A rule per numbered room ("has N shaded cells"), per two neighbours ("not both
    /// shaded"), per run of cells that would cross two borders ("not all unshaded"), and "the
    /// unshaded cells are connected".
    fn named(board: &Board) -> crate::explain::Named<Encoding> {
        use super::shade::named::{at, cells, finish, not_both_shaded, unshaded_connected};
        let (rows, cols) = (board.numbers.rows, board.numbers.cols);
        let mut rules = crate::explain::Rules::new();
        let enc = cells(&mut rules, rows, cols);
        let lits = enc.cells.lits.clone();
        for (room, clue) in board.rooms().iter().zip(board.clues()) {
            if let Some((i, Number::Known(k))) = clue {
                rules.rule(
                    format!(
                        "the room of the {k} at {} has {k} shaded cell{}",
                        at(i, cols),
                        if k == 1 { "" } else { "s" }
                    ),
                    room.clone(),
                );
                let inside: Vec<Lit> = room.iter().map(|&i| lits[i]).collect();
                exactly(&mut rules, &inside, k as usize);
            }
        }
        not_both_shaded(&mut rules, &enc, cols);
        for span in board.spans() {
            rules.rule(
                format!(
                    "the cells from {} to {} are not all unshaded (they cross two borders)",
                    at(span[0], cols),
                    at(span[span.len() - 1], cols)
                ),
                span.clone(),
            );
            let some: Vec<Lit> = span.iter().map(|&i| lits[i]).collect();
            rules.add_clause(&some);
        }
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

    use crate::puzzle::{Puzzle, Settings};

    fn parse(text: &str) -> Board {
        Heyawake::parse(text, &Settings::default()).unwrap()
    }

    /// Rooms: a column of two on the left (the 1), a 2×2 on the right, the bottom row's three.
    const BOARD: &str = "3 3\n1 - -\n- - -\n- - -\na b b\na b b\nc c c\n";

    #[test]
    fn rooms_and_their_numbers() {
        let board = parse(BOARD);
        assert_eq!(board.room, [0, 1, 1, 0, 1, 1, 2, 2, 2]);
        assert_eq!(board.clues()[0], Some((0, Number::Known(1))));
        // Without the size line, the grids split the lines in half; a label on two pieces
        // names two rooms.
        let two = parse("1 - -\n- - -\na b a\na b a\n");
        assert_eq!(two.room, [0, 1, 2, 0, 1, 2]);
        assert_eq!(parse(&board.to_text()), board);
        let e = Heyawake::parse("1 - -\n- - 2\na a a\na a a\n", &Settings::default()).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let e = Heyawake::parse("1 - -\n- - -\na a\na a\n", &Settings::default()).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
    }

    #[test]
    fn the_validator_names_each_rule() {
        let board = parse(BOARD);
        let verdict = |t: &str| {
            let answer = shade::read(3, 3, t, |i| board.numbers.clue(i), &[]).unwrap();
            check(
                &board,
                &answer.iter().map(|s| *s == Some(true)).collect::<Vec<_>>(),
            )
        };
        use Violation::*;
        assert!(matches!(
            verdict(". . .\n. . .\n. . .\n"),
            Err(Count { shaded: 0, .. })
        ));
        assert_eq!(
            verdict("# . .\n# . .\n. . .\n"),
            Err(Count {
                room: vec![0, 3],
                at: 0,
                number: 1,
                shaded: 2
            })
        );
        assert_eq!(
            verdict("# # .\n. . .\n. . .\n"),
            Err(Adjacent {
                first: 0,
                second: 1
            })
        );
        // Down the middle column: rooms b, b, c; along the bottom row: one room. The left
        // column: a, a, c. No run crosses two borders: the row 2 run a|b b crosses one.
        assert_eq!(verdict("# . .\n. . .\n. . .\n"), Ok(()));
        let long = parse("3 3\n- - -\n- - -\n- - -\na b c\na b c\na b c\n");
        assert_eq!(
            check(&long, &[false; 9]),
            Err(Span {
                cells: vec![0, 1, 2]
            })
        );
        assert_eq!(
            Span {
                cells: vec![0, 1, 2]
            }
            .describe(3),
            "the unshaded cells from row 1 column 1 to row 1 column 3 cross two room borders"
        );
    }

    #[test]
    fn urls_read_back_as_written() {
        let board = parse(BOARD);
        let link = <Heyawake as crate::capability::Urls>::to_url(&board).unwrap();
        let split = url::split(&link).unwrap();
        let text = <Heyawake as crate::capability::Urls>::from_url(&split).unwrap();
        assert_eq!(parse(&text), board);
    }
}
