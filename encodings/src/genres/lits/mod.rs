//! LITS (Nikoli): a board divided into rooms. Shade one tetromino in each room (four cells
//! joined side by side) so that all shaded cells form one piece, no 2×2 block is shaded, and
//! two tetrominoes of the same shape (L, I, T or S, turned or mirrored) never touch side by
//! side across a room border. janko.at's boards may leave cells outside every room (`@`):
//! those stay unshaded.
//!
//! The rules are words of the vocabulary: exactly one placement per room ([`exactly_one`]
//! over the room's tetromino placements), [`no_square`], [`connected`] for the shaded cells
//! (or, in the search, [`piece_cuts`]), and a clause per letter and pair of neighbours in
//! different rooms. The answer's forms are [`crate::genres::shade`]'s.

mod named;

use super::shade::{self, rooms, Broken, Encoding, Shade, Shaded};
use crate::cnf::amo::exactly_one;
use crate::cnf::connect::{connected, edges, piece_cuts, Graph};
use crate::cnf::local::no_square;
use crate::cnf::{ClauseSink, Lit};
use crate::format::error::ParseError;
use crate::format::grid;
use crate::format::url;
use crate::puzzle::Info;

/// LITS for the driver: solve, count, prove uniqueness, hints.
pub type Lits = Shaded<Rules>;

/// The room of a cell outside every room.
pub const OUTSIDE: usize = usize::MAX;

/// A board: each cell's room (rooms numbered from 0 in reading order of their first cells,
/// [`OUTSIDE`] for a cell in none), and its empty clue grid for the shared steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub room: Vec<usize>,
    pub blank: shade::Board,
}

impl Board {
    fn new(rows: usize, cols: usize, room: Vec<usize>) -> Board {
        let blank = shade::Board {
            rows,
            cols,
            clues: vec![None; rows * cols],
        };
        Board { room, blank }
    }

    /// The cells of each room, in reading order.
    pub fn rooms(&self) -> Vec<Vec<usize>> {
        let count = self
            .room
            .iter()
            .filter(|&&r| r != OUTSIDE)
            .max()
            .map_or(0, |&r| r + 1);
        let mut rooms = vec![Vec::new(); count];
        for (i, &r) in self.room.iter().enumerate() {
            if r != OUTSIDE {
                rooms[r].push(i);
            }
        }
        rooms
    }

    /// The board as puzzle text (a size line, then the rooms numbered from 1, `@` outside),
    /// which [`Rules::parse`] reads back.
    pub fn to_text(&self) -> String {
        let (rows, cols) = (self.blank.rows, self.blank.cols);
        format!("{rows} {cols}\n")
            + &grid::write(rows, cols, |i| match self.room[i] {
                OUTSIDE => "@".to_string(),
                r => (r + 1).to_string(),
            })
    }
}

/// The four shapes, as the validator and the placements name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    L,
    I,
    T,
    S,
}

const SHAPES: [Shape; 4] = [Shape::L, Shape::I, Shape::T, Shape::S];

/// The shape of four cells of a board `cols` wide, if they form a tetromino other than the
/// square: by the cells' neighbours within the piece, not by a table of placements.
pub fn shape(cells: &[usize], cols: usize) -> Option<Shape> {
    if cells.len() != 4 {
        return None;
    }
    let (r, c) = (|i: usize| i / cols, |i: usize| i % cols);
    let beside = |a: usize, b: usize| r(a).abs_diff(r(b)) + c(a).abs_diff(c(b)) == 1;
    let degree: Vec<usize> = cells
        .iter()
        .map(|&a| cells.iter().filter(|&&b| beside(a, b)).count())
        .collect();
    let edges = degree.iter().sum::<usize>() / 2;
    if edges < 3 || degree.contains(&0) {
        return None;
    }
    let graph = Graph {
        neighbours: (0..4)
            .map(|k| (0..4).filter(|&j| beside(cells[k], cells[j])).collect())
            .collect(),
    };
    if graph.pieces(&[true; 4]).len() != 1 {
        return None;
    }
    if degree.contains(&3) {
        return Some(Shape::T);
    }
    if edges == 4 {
        return None; // the square
    }
    let rows: Vec<usize> = cells.iter().map(|&i| r(i)).collect();
    let columns: Vec<usize> = cells.iter().map(|&i| c(i)).collect();
    let most = |v: &[usize]| v.iter().map(|x| v.iter().filter(|y| *y == x).count()).max();
    match (most(&rows), most(&columns)) {
        (Some(4), _) | (_, Some(4)) => Some(Shape::I),
        (Some(3), _) | (_, Some(3)) => Some(Shape::L),
        _ => Some(Shape::S),
    }
}

/// Every placement of a tetromino (not the square) inside `room`: its cells and shape.
fn placements(room: &[usize], cols: usize) -> Vec<(Vec<usize>, Shape)> {
    // Looked up by halving, not hashed: a one-room 200×200 board asks 3 million times.
    let mut inside = room.to_vec();
    inside.sort_unstable();
    let inside = |b: usize| inside.binary_search(&b).is_ok();
    let mut out = Vec::new();
    // Grow every connected set of four cells from its smallest cell.
    for &start in room {
        // A set grown from `start` holds no smaller cell, so no other start grows it.
        let mut seen: Vec<[usize; 4]> = Vec::new();
        let mut stack = vec![([start; 4], 1)];
        while let Some((set, len)) = stack.pop() {
            if len == 4 {
                let mut key = set;
                key.sort_unstable();
                if !seen.contains(&key) {
                    seen.push(key);
                    if let Some(s) = shape(&key, cols) {
                        out.push((key.to_vec(), s));
                    }
                }
                continue;
            }
            for &a in &set[..len] {
                let (r, c) = (a / cols, a % cols);
                let near = [
                    (r > 0).then(|| a - cols),
                    (c > 0).then(|| a - 1),
                    (c + 1 < cols).then(|| a + 1),
                    Some(a + cols),
                ];
                for b in near.into_iter().flatten() {
                    if b > start && inside(b) && !set[..len].contains(&b) {
                        let mut next = set;
                        next[len] = b;
                        stack.push((next, len + 1));
                    }
                }
            }
        }
    }
    out
}

/// The first broken rule, cells 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    Outside(usize),
    NoTetromino {
        room: Vec<usize>,
        shaded: usize,
    },
    Block(usize),
    SameShape {
        first: usize,
        second: usize,
        shape: Shape,
    },
    Apart {
        cells: Vec<usize>,
    },
}

impl Violation {
    fn cells(&self, cols: usize) -> Vec<usize> {
        match self {
            Violation::Outside(i) => vec![*i],
            Violation::Block(i) => vec![*i, i + 1, i + cols, i + cols + 1],
            Violation::SameShape { first, second, .. } => vec![*first, *second],
            Violation::NoTetromino { room: cells, .. } | Violation::Apart { cells } => {
                cells.clone()
            }
        }
    }

    fn describe(&self, cols: usize) -> String {
        let at = |i: usize| format!("row {} column {}", i / cols + 1, i % cols + 1);
        match self {
            Violation::Outside(i) => format!("{}: a cell outside every room is shaded", at(*i)),
            Violation::NoTetromino { room, shaded } => format!(
                "the room from {} has {shaded} shaded cell{} that are no L, I, T or S",
                at(room[0]),
                if *shaded == 1 { "" } else { "s" }
            ),
            Violation::Block(i) => format!(
                "a 2×2 block of shaded cells with its top-left at {}",
                at(*i)
            ),
            Violation::SameShape {
                first,
                second,
                shape,
            } => format!(
                "two {shape:?} tetrominoes touch at {} and {}",
                at(*first),
                at(*second)
            ),
            Violation::Apart { cells } => format!(
                "the shaded cells are not one piece: {} shaded cell{} from {} {} cut off from \
                 the rest",
                cells.len(),
                if cells.len() == 1 { "" } else { "s" },
                at(cells[0]),
                if cells.len() == 1 { "is" } else { "are" }
            ),
        }
    }
}

/// The independent validator, on a complete answer: each room's shaded cells classified by
/// [`shape`], then blocks, touching shapes and one piece by breadth-first search.
pub fn check(board: &Board, shaded: &[bool]) -> Result<(), Violation> {
    let (rows, cols) = (board.blank.rows, board.blank.cols);
    if let Some(i) = (0..shaded.len()).find(|&i| shaded[i] && board.room[i] == OUTSIDE) {
        return Err(Violation::Outside(i));
    }
    let mut shape_of = vec![None; shaded.len()];
    for room in board.rooms() {
        let on: Vec<usize> = room.iter().copied().filter(|&i| shaded[i]).collect();
        match shape(&on, cols) {
            Some(s) => on.iter().for_each(|&i| shape_of[i] = Some(s)),
            None => {
                return Err(Violation::NoTetromino {
                    shaded: on.len(),
                    room,
                })
            }
        }
    }
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let i = r * cols + c;
            if [i, i + 1, i + cols, i + cols + 1]
                .iter()
                .all(|&j| shaded[j])
            {
                return Err(Violation::Block(i));
            }
        }
    }
    let graph = Graph::grid(rows, cols);
    for (a, b) in edges(&graph) {
        if board.room[a] != board.room[b] && shape_of[a].is_some() && shape_of[a] == shape_of[b] {
            return Err(Violation::SameShape {
                first: a.min(b),
                second: a.max(b),
                shape: shape_of[a].expect("shaded"),
            });
        }
    }
    let pieces = graph.pieces(shaded);
    if pieces.len() > 1 {
        let smallest = pieces.iter().min_by_key(|p| p.len()).expect("two pieces");
        return Err(Violation::Apart {
            cells: smallest.clone(),
        });
    }
    Ok(())
}

/// LITS's own part of [`Lits`].
pub struct Rules;

impl Shade for Rules {
    const INFO: Info = Info {
        name: "lits",
        about: "Nikoli's LITS: shade one tetromino per room, all joined, no 2×2 block, no two \
            alike touching across a border",
        formats: &[],
        machine: crate::puzzle::Format::Text,
        answer_fields: &["shaded"],
        variables: "rRcC shaded: cell (R, C) is shaded",
        blocks_exactly: true,
        ..Info::DEFAULT
    };
    const KINDS: &'static [&'static str] = &["lits"];
    const FORESTS: u64 = 1;
    const SHADED: &'static [&'static str] = &["L", "I", "T", "S"];

    type Board = Board;

    /// janko.at's form: an optional size line, then one label a cell (any word; janko.at
    /// numbers the rooms), `@` for a cell outside every room; each piece of side-by-side cells
    /// with one label is a room.
    fn parse(text: &str) -> Result<Board, ParseError> {
        let labels = grid::read(text, false, |_, w| Ok(w.to_string()))?;
        let (rows, cols) = (labels.rows, labels.cols);
        let room = rooms::of_labels(rows, cols, &labels.cells);
        // Renumbered without the cells outside, in reading order.
        let mut number = std::collections::HashMap::new();
        let room = room
            .iter()
            .zip(&labels.cells)
            .map(|(&r, label)| match label.as_str() {
                "@" => OUTSIDE,
                _ => {
                    let next = number.len();
                    *number.entry(r).or_insert(next)
                }
            })
            .collect();
        Ok(Board::new(rows, cols, room))
    }

    fn numbers(board: &Board) -> &shade::Board {
        &board.blank
    }

    fn rooms(board: &Board) -> Option<&[usize]> {
        Some(&board.room)
    }

    /// One placement per room ([`exactly_one`]); a cell shaded exactly when a chosen placement
    /// covers it; per shape, no two neighbours in different rooms covered by placements of
    /// that shape; [`no_square`]; the shaded cells [`connected`] (left to the cuts with
    /// `lazy`).
    fn encode<S: ClauseSink>(board: &Board, sink: &mut S, enc: &Encoding, lazy: bool) {
        let lits = &enc.cells.lits;
        let (rows, cols) = (board.blank.rows, board.blank.cols);
        let n = rows * cols;
        let mut covers: Vec<Vec<Lit>> = vec![Vec::new(); n];
        // has[i][k]: cell i is covered by a placement of shape k.
        let mut has: Vec<[Option<Lit>; 4]> = vec![[None; 4]; n];
        for room in board.rooms() {
            let mut chosen = Vec::new();
            for (cells, s) in placements(&room, cols) {
                let p = sink.new_var();
                chosen.push(p);
                let k = SHAPES.iter().position(|&x| x == s).expect("a shape");
                for &i in &cells {
                    sink.add_clause(&[!p, lits[i]]);
                    covers[i].push(p);
                    let h = *has[i][k].get_or_insert_with(|| sink.new_var());
                    sink.add_clause(&[!p, h]);
                }
            }
            exactly_one(sink, &chosen);
        }
        for i in 0..n {
            let mut some = vec![!lits[i]];
            some.extend(&covers[i]);
            sink.add_clause(&some);
        }
        for (a, b) in edges(&enc.graph) {
            if board.room[a] != board.room[b] {
                for (x, y) in has[a].iter().zip(&has[b]) {
                    if let (Some(x), Some(y)) = (x, y) {
                        sink.add_clause(&[!*x, !*y]);
                    }
                }
            }
        }
        no_square(sink, rows, cols, lits);
        if !lazy {
            connected(sink, &enc.graph, lits);
        }
    }

    /// Two pieces of shaded cells: [`piece_cuts`].
    fn cuts(_: &Board, enc: &Encoding, shaded: &[bool]) -> Vec<Vec<Lit>> {
        piece_cuts(&enc.graph, shaded)
            .iter()
            .map(|c| c.clause(&enc.cells.lits))
            .collect()
    }

    fn check(board: &Board, shaded: &[bool]) -> Result<(), Broken> {
        check(board, shaded).map_err(|v| Broken {
            says: v.describe(board.blank.cols),
            cells: v.cells(board.blank.cols),
        })
    }

    /// pzprjs's lits code: the rooms' borders ([`url::decode_borders`]) and nothing else.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        let (right, below, used) = url::decode_borders(link)?;
        if let Some(ch) = link.body.chars().nth(used) {
            return Err(ParseError::new(
                1,
                link.body_at + used + 1,
                format!("{ch:?} after the borders"),
            ));
        }
        let room = rooms::of_borders(link.rows, link.cols, &right, &below);
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
        Ok(Board::new(link.rows, link.cols, room).to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        if board.room.contains(&OUTSIDE) {
            return Err("a board with cells outside every room (@) has no puzz.link URL".into());
        }
        let (rows, cols) = (board.blank.rows, board.blank.cols);
        let (right, below) = rooms::borders(rows, cols, &board.room);
        Ok(url::link(
            "lits",
            cols,
            rows,
            &url::encode_borders(&right, &below),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Puzzle, Settings};

    fn parse(text: &str) -> Board {
        Lits::parse(text, &Settings::default()).unwrap()
    }

    #[test]
    fn shapes_are_named_by_their_cells() {
        // On a board 4 wide.
        assert_eq!(shape(&[0, 1, 2, 3], 4), Some(Shape::I));
        assert_eq!(shape(&[0, 4, 8, 12], 4), Some(Shape::I));
        assert_eq!(shape(&[0, 4, 8, 9], 4), Some(Shape::L));
        assert_eq!(shape(&[1, 5, 9, 8], 4), Some(Shape::L));
        assert_eq!(shape(&[0, 1, 2, 5], 4), Some(Shape::T));
        assert_eq!(shape(&[1, 2, 4, 5], 4), Some(Shape::S));
        assert_eq!(shape(&[0, 4, 5, 9], 4), Some(Shape::S));
        assert_eq!(shape(&[0, 1, 4, 5], 4), None);
        assert_eq!(shape(&[0, 1, 2, 7], 4), None);
        assert_eq!(shape(&[0, 1, 2], 4), None);
        // 3 and 4 are not side by side on a board 4 wide (4 starts the next row).
        assert_eq!(shape(&[2, 3, 4, 5], 4), None);
    }

    #[test]
    fn every_placement_of_a_free_board_is_found() {
        // On a 4×4 room, against every set of four cells that `shape` names.
        let room: Vec<usize> = (0..16).collect();
        let mut want = 0;
        for a in 0..16 {
            for b in a + 1..16 {
                for c in b + 1..16 {
                    for d in c + 1..16 {
                        want += usize::from(shape(&[a, b, c, d], 4).is_some());
                    }
                }
            }
        }
        assert_eq!(placements(&room, 4).len(), want);
    }

    #[test]
    fn every_placement_of_a_random_room_is_found_once() {
        // Rooms of random cells of a 5×6 board, against every set of four of their cells.
        let mut rng = crate::rng::Rng::new(4);
        for _ in 0..300 {
            let cols = 6;
            let room: Vec<usize> = (0..30).filter(|_| rng.below(3) > 0).collect();
            let mut want = Vec::new();
            for (x, &a) in room.iter().enumerate() {
                for (y, &b) in room.iter().enumerate().skip(x + 1) {
                    for (z, &c) in room.iter().enumerate().skip(y + 1) {
                        for &d in &room[z + 1..] {
                            if let Some(s) = shape(&[a, b, c, d], cols) {
                                want.push((vec![a, b, c, d], s));
                            }
                        }
                    }
                }
            }
            let mut got = placements(&room, cols);
            let key = |p: &(Vec<usize>, Shape)| (p.0.clone(), p.1 as usize);
            got.sort_by_key(key);
            want.sort_by_key(key);
            assert_eq!(got, want, "{room:?}");
        }
    }

    #[test]
    fn the_validator_names_each_rule() {
        // Rooms: an L (1), a J (2), a T (3).
        let board = parse("1 1 1 2\n1 3 2 2\n3 3 3 2\n");
        let verdict = |t: &str| {
            let answer = shade::read(3, 4, t, |_| None, &[]).unwrap();
            check(
                &board,
                &answer.iter().map(|s| *s == Some(true)).collect::<Vec<_>>(),
            )
        };
        use Violation::*;
        assert_eq!(
            verdict("# # # .\n. . . .\n. . . .\n"),
            Err(NoTetromino {
                room: vec![0, 1, 2, 4],
                shaded: 3
            })
        );
        assert_eq!(verdict("# # # #\n# # # #\n# # # #\n"), Err(Block(0)));
        let line = parse("1 1 1 1 2 2 2 2\n");
        assert_eq!(
            check(&line, &[true; 8]),
            Err(SameShape {
                first: 3,
                second: 4,
                shape: Shape::I
            })
        );
        let apart = parse("1 1 1 1 @ 2 2 2 2\n");
        let mut shaded = [true; 9];
        shaded[4] = false;
        assert_eq!(
            check(&apart, &shaded),
            Err(Apart {
                cells: vec![0, 1, 2, 3]
            })
        );
        shaded[4] = true;
        assert_eq!(check(&apart, &shaded), Err(Outside(4)));
        let outside = parse("@ 1 1 1 1\n");
        assert_eq!(check(&outside, &[false, true, true, true, true]), Ok(()));
    }

    #[test]
    fn urls_read_back_as_written() {
        let board = parse("1 1 1 2\n1 3 2 2\n3 3 3 2\n");
        let link = <Lits as crate::capability::Urls>::to_url(&board).unwrap();
        let split = url::split(&link).unwrap();
        let text = <Lits as crate::capability::Urls>::from_url(&split).unwrap();
        assert_eq!(parse(&text), board);
    }
}
