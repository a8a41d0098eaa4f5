//! Shikaku (Nikoli): divide the board into rectangles, each holding exactly one number, which is
//! its area (`?`: a number not given, any area).
//!
//! Read top to bottom: the board and its candidates, the rules an answer breaks, then
//! [`Shikaku`] itself (parse, encode, check, the answer's forms) and its capabilities. The
//! rectangle machinery (answer forms, decoding, blocking, pictures) is [`crate::genres::rects`]'s.

use crate::capability;
use crate::cnf::amo::exactly_one;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::{quoted, ParseError};
use crate::format::svg::{Font, Svg};
use crate::format::url::{self, Number};
use crate::genres::rects::{self, Area, Rect, Solution};
use crate::puzzle::Info;
use crate::puzzle::{Format, Hints, Puzzle, ReadAnswer, Settings};
use crate::solver::{NewSolver, SolverError};
use serde_json::{Map, Value};
use std::fmt;

/// A board: `clues[r * cols + c]`, `None` for a cell without a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Option<Number>>,
}

impl Area for Board {
    fn rows(&self) -> usize {
        self.rows
    }

    fn cols(&self) -> usize {
        self.cols
    }
}

/// The largest number a clue may have: no board `puzzle-sat` reads has more cells.
const MAX_CLUE: u32 = 1 << 24;

impl Board {
    /// The board as puzzle text, which [`Shikaku::parse`] reads back.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for row in self.clues.chunks(self.cols) {
            let words: Vec<String> = row.iter().map(|c| clue_text(*c)).collect();
            out += &words.join(" ");
            out.push('\n');
        }
        out
    }
}

fn clue_text(clue: Option<Number>) -> String {
    match clue {
        None => ".".into(),
        Some(Number::Unknown) => "?".into(),
        Some(Number::Known(v)) => v.to_string(),
    }
}

/// Every rectangle that holds the clue at `at` and no other, and has its area (any area for
/// `?`): the only rectangles an answer can have there. Rows of clue positions are looked up
/// in prefix sums, so each rectangle costs O(1) to test.
fn candidates(board: &Board, count: &ClueCount, at: usize) -> Vec<Rect> {
    let mut out = Vec::new();
    each_candidate(board, count, at, |rect| {
        out.push(rect);
        true
    });
    out
}

/// [`candidates`] one by one, until `f` says stop (false).
fn each_candidate(board: &Board, count: &ClueCount, at: usize, mut f: impl FnMut(Rect) -> bool) {
    let (rows, cols) = (board.rows, board.cols);
    let (cr, cc) = (at / cols, at % cols);
    // Each h×w rectangle over the clue holding it alone, to `f`: `None` once `f` says stop,
    // else whether there was one.
    let mut shape = |h: usize, w: usize| {
        let mut found = false;
        for top in cr.saturating_sub(h - 1)..=cr.min(rows - h) {
            for left in cc.saturating_sub(w - 1)..=cc.min(cols - w) {
                let rect = Rect {
                    row: top,
                    col: left,
                    height: h,
                    width: w,
                };
                if count.within(&rect) == 1 {
                    found = true;
                    if !f(rect) {
                        return None;
                    }
                }
            }
        }
        Some(found)
    };
    if let Some(Number::Known(n)) = board.clues[at] {
        let n = n as usize;
        for h in (1..=rows.min(n)).filter(|&h| n.is_multiple_of(h)) {
            if n / h <= cols && shape(h, n / h).is_none() {
                return;
            }
        }
        return;
    }
    // For `?`, shapes by height, then width. Every h×(w+1) rectangle over the clue holds an
    // h×w one over it, and so at least its clues: once no h×w holds the clue alone, no wider
    // one does, and once no h×1 does, no taller one. Without this a board of `?` tried every
    // shape at every clue (the sixth power of its side: 80×80 took 86 s), and with the shapes
    // listed before trying them, the fourth (400×400: past 100 s).
    for h in 1..=rows {
        for w in 1..=cols {
            match shape(h, w) {
                None => return,
                Some(true) => {}
                Some(false) if w == 1 => return,
                Some(false) => break,
            }
        }
    }
}

/// Clues per rectangle in O(1): 2D prefix sums of the clue cells.
struct ClueCount {
    cols: usize,
    sums: Vec<u32>,
}

impl ClueCount {
    fn new(board: &Board) -> ClueCount {
        let (rows, cols) = (board.rows, board.cols);
        let mut sums = vec![0u32; (rows + 1) * (cols + 1)];
        for r in 0..rows {
            for c in 0..cols {
                let here = board.clues[r * cols + c].is_some() as u32;
                sums[(r + 1) * (cols + 1) + c + 1] =
                    here + sums[r * (cols + 1) + c + 1] + sums[(r + 1) * (cols + 1) + c]
                        - sums[r * (cols + 1) + c];
            }
        }
        ClueCount { cols, sums }
    }

    fn within(&self, r: &Rect) -> u32 {
        let w = self.cols + 1;
        let (top, left, bottom, right) = (r.row, r.col, r.row + r.height, r.col + r.width);
        self.sums[bottom * w + right] + self.sums[top * w + left]
            - self.sums[top * w + right]
            - self.sums[bottom * w + left]
    }
}

/// The variables: one per candidate rectangle.
pub struct Encoding {
    pub rects: Vec<(Rect, Lit)>,
}

/// The first broken rule, positions 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    Unlabelled {
        row: usize,
        col: usize,
    },
    NotARectangle {
        label: String,
        row: usize,
        col: usize,
    },
    NoNumber {
        label: String,
        row: usize,
        col: usize,
    },
    TwoNumbers {
        label: String,
        first: (usize, usize),
        second: (usize, usize),
    },
    WrongArea {
        label: String,
        number: u32,
        area: usize,
    },
    Overlap {
        row: usize,
        col: usize,
    },
    Empty {
        label: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Violation::Unlabelled { row, col } => write!(f, "row {row} column {col}: a cell without a label"),
            Violation::NotARectangle { label, row, col } => write!(f, "not a rectangle: label {label} (first at row {row} column {col}) does not fill its bounding box"),
            Violation::NoNumber { label, row, col } => write!(f, "no number: rectangle {label} (top-left at row {row} column {col}) holds no number"),
            Violation::TwoNumbers { label, first, second } => write!(f, "two numbers: rectangle {label} holds numbers at row {} column {} and row {} column {}", first.0, first.1, second.0, second.1),
            Violation::WrongArea { label, number, area } => write!(f, "wrong area: rectangle {label} has {area} cells, but its number is {number}"),
            Violation::Overlap { row, col } => write!(f, "row {row} column {col}: covered twice, or a rectangle leaves the board there"),
            Violation::Empty { label } => write!(f, "rectangle {label} covers no cell"),
        }
    }
}

/// The independent validator on a labelling (`None`: unlabelled), with the cells of the first
/// broken rule: each label one filled rectangle holding exactly one number, equal to its area.
pub fn check_labels(
    board: &Board,
    labels: &[Option<usize>],
    name: &dyn Fn(usize) -> String,
) -> Result<(), (Violation, Vec<usize>)> {
    let cols = board.cols;
    let groups = rects::groups(board, labels).map_err(|u| {
        (
            Violation::Unlabelled {
                row: u.row + 1,
                col: u.col + 1,
            },
            vec![u.row * cols + u.col],
        )
    })?;
    for g in &groups {
        let label = || name(g.label);
        if !g.is_rectangle() {
            return Err((
                Violation::NotARectangle {
                    label: label(),
                    row: g.first.0 + 1,
                    col: g.first.1 + 1,
                },
                g.cells.clone(),
            ));
        }
        let numbers: Vec<usize> = g
            .cells
            .iter()
            .copied()
            .filter(|&i| board.clues[i].is_some())
            .collect();
        match numbers[..] {
            [] => {
                return Err((
                    Violation::NoNumber {
                        label: label(),
                        row: g.top + 1,
                        col: g.left + 1,
                    },
                    g.cells.clone(),
                ))
            }
            [i] => {
                if let Some(Number::Known(n)) = board.clues[i] {
                    if n as usize != g.count {
                        return Err((
                            Violation::WrongArea {
                                label: label(),
                                number: n,
                                area: g.count,
                            },
                            g.cells.clone(),
                        ));
                    }
                }
            }
            [a, b, ..] => {
                return Err((
                    Violation::TwoNumbers {
                        label: label(),
                        first: (a / cols + 1, a % cols + 1),
                        second: (b / cols + 1, b % cols + 1),
                    },
                    g.cells.clone(),
                ))
            }
        }
    }
    Ok(())
}

/// The numbers drawn in their cells, `?` for a number not given.
fn clue(board: &Board, s: &mut Svg, i: usize, x: f64, y: f64, cell: f64) {
    let Some(n) = board.clues[i] else { return };
    let text = clue_text(Some(n));
    let size = cell * if text.len() > 2 { 0.45 } else { 0.6 };
    s.text(
        x,
        y,
        &text,
        Font {
            bold: true,
            ..Font::centred(size)
        },
    );
}

/// Shikaku for the driver: solve, count, prove uniqueness, hints.
pub struct Shikaku;

impl Puzzle for Shikaku {
    const INFO: Info = Info {
        name: "shikaku",
        about: "Nikoli's Shikaku: divide the board into rectangles, one number each, its area",
        formats: &[Format::Box, Format::Rects],
        machine: Format::Rects,
        answer_fields: &["rectangles"],
        variables: "rect R C H W: the rectangle with top-left cell (R, C) (0-based), H tall, W \
            wide is chosen",
        blocks_exactly: true,
        ..Info::DEFAULT
    };

    type Instance = Board;
    type Answer = Solution;
    type Checked = ();
    type Encoding = Encoding;

    /// One row per line, cells separated by spaces: a number, `?` (a number not given), or `.` /
    /// `-` for a cell without one; janko.at's size line `ROWS COLUMNS` may head it
    /// ([`crate::format::grid::read`]).
    fn parse(text: &str, _: &Settings) -> Result<Board, ParseError> {
        let words = crate::format::grid::read(text, false, |_, word| match word {
            "." | "-" => Ok(None),
            "?" => Ok(Some(Number::Unknown)),
            _ if word.bytes().all(|b| b.is_ascii_digit()) => match word.parse::<u32>() {
                Ok(v) if (1..=MAX_CLUE).contains(&v) => Ok(Some(Number::Known(v))),
                _ => Err(format!(
                    "{}: a number must be between 1 and {MAX_CLUE}",
                    quoted(word)
                )),
            },
            _ => Err(format!(
                "unexpected {}: expected a number, ? for a number not given, or . for none",
                quoted(word)
            )),
        })?;
        Ok(Board {
            rows: words.rows,
            cols: words.cols,
            clues: words.cells,
        })
    }

    /// Each cell is covered by exactly one chosen candidate. That is the whole rule set: every
    /// candidate holds exactly one clue and has its area, and a clue's cell is covered only by its
    /// own candidates, so exactly one rectangle is chosen per clue.
    fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
        let count = ClueCount::new(board);
        let all: Vec<Rect> = (0..board.clues.len())
            .filter(|&i| board.clues[i].is_some())
            .flat_map(|at| candidates(board, &count, at))
            .collect();
        // A cell no candidate covers leaves no solution: the empty clause says it, without a
        // cover list per cell (a board of millions of cells and no numbers stays cheap).
        let mut covered = vec![false; board.rows * board.cols];
        for rect in &all {
            rect.cells()
                .for_each(|(r, c)| covered[r * board.cols + c] = true);
        }
        if covered.contains(&false) {
            sink.add_clause(&[]);
            return Encoding { rects: Vec::new() };
        }
        drop(covered);
        let mut rects = Vec::new();
        let mut cover: Vec<Vec<Lit>> = vec![Vec::new(); board.rows * board.cols];
        for rect in all {
            let lit = sink.new_var();
            sink.name_var(lit, &|| {
                format!(
                    "rect {} {} {} {}",
                    rect.row, rect.col, rect.height, rect.width
                )
            });
            for (r, c) in rect.cells() {
                cover[r * board.cols + c].push(lit);
            }
            rects.push((rect, lit));
        }
        for lits in &cover {
            exactly_one(sink, lits);
        }
        Encoding { rects }
    }

    fn decode(_: &Board, enc: &Encoding, model: &Model) -> Solution {
        rects::decode(&enc.rects, model)
    }

    /// The validator on a list of rectangles (the solver's form).
    fn check(board: &Board, sol: &Solution) -> Result<(), String> {
        let list = |k: usize| format!("#{} of the list", k + 1);
        let labels = rects::rect_labels(board, sol).map_err(|u| {
            match u {
                rects::Unplaced::Empty(k) => Violation::Empty { label: list(k) },
                rects::Unplaced::Overlap { row, col } => Violation::Overlap { row, col },
            }
            .to_string()
        })?;
        check_labels(board, &labels, &list).map_err(|(v, _)| v.to_string())
    }

    fn read_answer(
        board: &Board,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        let read = rects::read_answer(board, text, |labels, name| {
            check_labels(board, labels, name).map_err(|(v, _)| v.to_string())
        })?;
        Ok(read.map(|answer| ReadAnswer {
            answer,
            complete: true,
            claimed: None,
        }))
    }

    fn block<S: ClauseSink>(_: &Board, enc: &Encoding, sink: &mut S, sols: &[Solution]) {
        sols.iter()
            .for_each(|sol| rects::block(&enc.rects, sink, sol));
    }

    fn render(board: &Board, sol: &Solution, _: &(), format: Format) -> String {
        match format {
            Format::Rects => rects::render_rects(sol),
            Format::Box => rects::render_box(board, sol, |i| {
                board.clues[i].map_or(String::new(), |n| clue_text(Some(n)))
            }),
            _ => rects::render_labels(board, sol),
        }
    }

    fn svg(board: &Board, answers: &[(&Solution, &())], caption: &str) -> String {
        rects::svg::svg(
            board,
            &answers.iter().map(|a| a.0).collect::<Vec<_>>(),
            caption,
            &|s, i, x, y, cell| clue(board, s, i, x, y, cell),
        )
    }

    fn answer_json(_: &Board, sol: &Solution, _: &()) -> Map<String, Value> {
        Map::from_iter([("rectangles".to_string(), rects::rects_json(sol))])
    }
}

impl capability::Urls for Shikaku {
    /// pzprjs reads `sikaku` as another name of it.
    const KINDS: &'static [&'static str] = &["shikaku", "sikaku"];

    /// pzprjs's number code ([`url::read_number16`]; `.` is `?`).
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        let cells = url::decode_with(link, None, |chars| match url::read_number16(chars)? {
            (Number::Known(v), _) if v == 0 || v > MAX_CLUE => {
                Err(format!("{v}: a number must be between 1 and {MAX_CLUE}"))
            }
            (n, k) => Ok((Some(n), k)),
        })?;
        Ok(Board {
            rows: link.rows,
            cols: link.cols,
            clues: cells,
        }
        .to_text())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        if let Some(Some(Number::Known(v))) = board
            .clues
            .iter()
            .find(|c| matches!(c, Some(Number::Known(v)) if *v > url::MAX_NUMBER))
        {
            return Err(format!(
                "the number {v} is past the largest a puzz.link URL can hold ({})",
                url::MAX_NUMBER
            ));
        }
        Ok(url::link(
            "shikaku",
            board.cols,
            board.rows,
            &url::encode_numbers(board.clues.iter().copied()),
        ))
    }
}

impl capability::Backbone for Shikaku {
    fn hints(
        board: &Board,
        found: &(Solution, ()),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Solution>>, SolverError> {
        let build = || {
            let mut solver = solvers.new_solver();
            let enc = Self::encode(board, &mut crate::search::Sink(&mut *solver));
            (solver, enc)
        };
        let (mut solver, enc) = build();
        rects::hints(
            board,
            &enc.rects,
            &mut *solver,
            &|| build().0,
            solvers.team(),
            &found.0,
        )
    }
}

impl capability::Marks for Shikaku {
    fn svg_broken(board: &Board, text: &str, caption: &str) -> String {
        let locate = |labels: &[Option<usize>]| {
            check_labels(board, labels, &|k| k.to_string())
                .err()
                .map_or(Vec::new(), |(_, cells)| cells)
        };
        rects::svg_broken(
            board,
            text,
            caption,
            &|s, i, x, y, cell| clue(board, s, i, x, y, cell),
            locate,
        )
    }
}

impl capability::Estimate for Shikaku {
    /// The candidates are counted without storing them (a `?` on a large board has many):
    /// each costs up to 9 literals per cell it covers in the cells' exactly-ones (pairwise up to
    /// 9 candidates: 8 binary clauses and the at-least-one; a sequential counter: 7).
    fn estimate(board: &Board, limit: u64) -> u64 {
        let count = ClueCount::new(board);
        let mut literals = 3 * (board.rows * board.cols) as u64;
        for at in (0..board.clues.len()).filter(|&i| board.clues[i].is_some()) {
            each_candidate(board, &count, at, |rect| {
                literals = literals.saturating_add(9 * (rect.height * rect.width) as u64);
                literals <= limit
            });
            if literals > limit {
                break;
            }
        }
        literals
    }
}

impl capability::Explain for Shikaku {
    /// As [`capability::Estimate::estimate`], each candidate also in its number's rule: up to 9
    /// literals in each exactly-one it is in.
    fn estimate_named(board: &Board, limit: u64) -> Option<u64> {
        let count = ClueCount::new(board);
        let mut literals = (board.rows * board.cols) as u64;
        for at in (0..board.clues.len()).filter(|&i| board.clues[i].is_some()) {
            each_candidate(board, &count, at, |rect| {
                literals = literals.saturating_add(9 * (rect.height * rect.width + 1) as u64);
                literals <= limit
            });
            if literals > limit {
                break;
            }
        }
        Some(literals)
    }

    /// A fact per candidate rectangle; a rule per number ("gets one rectangle of N cells",
    /// exactly one of its candidates) and per other cell ("is covered once"). The candidates
    /// are the rectangles that may hold a number at all (that one alone, and its area): the
    /// same as `encode`'s, which prunes nothing else.
    fn named(board: &Board) -> crate::explain::Named<Encoding> {
        let count = ClueCount::new(board);
        let clues: Vec<usize> = (0..board.clues.len())
            .filter(|&i| board.clues[i].is_some())
            .collect();
        let candidates: Vec<(Rect, usize)> = clues
            .iter()
            .flat_map(|&at| {
                candidates(board, &count, at)
                    .into_iter()
                    .map(move |r| (r, at))
            })
            .collect();
        let clue = |i: usize| format!("the {}", clue_text(board.clues[i]));
        let what = |i: usize| match board.clues[i] {
            Some(Number::Known(1)) => "rectangle of 1 cell".to_string(),
            Some(Number::Known(n)) => format!("rectangle of {n} cells"),
            _ => "rectangle".to_string(),
        };
        let (rules, rects) =
            rects::named::clues_and_cover(board, &clues, &candidates, &clue, &what);
        let facts = rects::named::facts(&candidates, &rects, board.cols, "rectangle", &clue);
        crate::explain::Named::new(rules, facts, Vec::new(), Encoding { rects })
    }

    fn draw_known(board: &Board, named: &crate::explain::Named<Encoding>, known: &[Lit]) -> String {
        rects::named::draw(board, &named.encoding.rects, known, |i| {
            board.clues[i].map_or(String::new(), |n| clue_text(Some(n)))
        })
    }

    fn svg_step(
        board: &Board,
        named: &crate::explain::Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        let placed = rects::named::placed(&named.encoding.rects, known);
        rects::svg::step(
            board,
            &placed,
            rules,
            deduced,
            caption,
            &|s, i, x, y, cell| clue(board, s, i, x, y, cell),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Board, ParseError> {
        Shikaku::parse(text, &Settings::default())
    }

    /// The candidates are exactly the rectangles over a clue that hold no other clue and have
    /// its area (any, for `?`), by trying every rectangle of random boards with many `?`.
    #[test]
    fn candidates_are_every_rectangle_holding_the_clue_alone() {
        let mut rng = crate::rng::Rng::new(12345);
        let mut next = |m: usize| rng.below(m);
        for _ in 0..300 {
            let (rows, cols) = (1 + next(6), 1 + next(6));
            let clues: Vec<Option<Number>> = (0..rows * cols)
                .map(|_| match next(10) {
                    0..=1 => Some(Number::Unknown),
                    2 => Some(Number::Known(1 + next(8) as u32)),
                    _ => None,
                })
                .collect();
            let board = Board { rows, cols, clues };
            let count = ClueCount::new(&board);
            for at in (0..rows * cols).filter(|&k| board.clues[k].is_some()) {
                let (cr, cc) = (at / cols, at % cols);
                let mut want = Vec::new();
                for (top, left) in (0..rows).flat_map(|t| (0..cols).map(move |l| (t, l))) {
                    for (h, w) in
                        (1..=rows - top).flat_map(|h| (1..=cols - left).map(move |w| (h, w)))
                    {
                        let over = (top..top + h).contains(&cr) && (left..left + w).contains(&cc);
                        let others = (top..top + h)
                            .flat_map(|r| (left..left + w).map(move |c| r * cols + c))
                            .filter(|&k| k != at && board.clues[k].is_some())
                            .count();
                        let area = match board.clues[at] {
                            Some(Number::Known(n)) => h * w == n as usize,
                            _ => true,
                        };
                        if over && others == 0 && area {
                            want.push((top, left, h, w));
                        }
                    }
                }
                let mut got: Vec<_> = candidates(&board, &count, at)
                    .iter()
                    .map(|r| (r.row, r.col, r.height, r.width))
                    .collect();
                want.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, want, "{rows}x{cols} {:?} at {at}", board.clues);
            }
        }
    }

    /// The named rules' estimate is at least what they hold, and not far above it.
    #[test]
    fn the_named_estimate_covers_the_named_rules() {
        use capability::Explain;
        for text in [
            ". . . . 3 .\n5 6 . . 6 .\n. . . . . .\n. . . . . .\n. 6 . . 2 3\n. 5 . . . .\n",
            ". . . .\n. ? . .\n. . . 4\n",
            ". . . . . . . .\n. . . . . . . .\n. . . ? . . . .\n. . . . . . . .\n",
        ] {
            let board = parse(text).unwrap();
            let built = Shikaku::named(&board).rules.literals();
            let estimate = Shikaku::estimate_named(&board, u64::MAX).unwrap();
            assert!(built <= estimate, "{text}: {built} > {estimate}");
            assert!(
                estimate <= 4 * built + 200,
                "{text}: {estimate} for {built}"
            );
        }
    }

    #[test]
    fn reads_numbers_and_names_bad_cells() {
        let b = parse("2 . ?\n- 12 .\n").unwrap();
        assert_eq!((b.rows, b.cols), (2, 3));
        assert_eq!(
            b.clues[..3],
            [Some(Number::Known(2)), None, Some(Number::Unknown)]
        );
        assert_eq!(b.clues[4], Some(Number::Known(12)));
        assert_eq!(parse(&b.to_text()).unwrap(), b);
        let e = parse("2 . .\n. x .\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        let e = parse("2 . .\n. .\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(parse("0 .\n").unwrap_err().col, 1);
        assert!(parse("\n\n").is_err());
    }

    #[test]
    fn candidates_hold_one_number_and_have_its_area() {
        let b = parse("4 . .\n. . 2\n. . .\n").unwrap();
        let count = ClueCount::new(&b);
        for at in [0, 5] {
            let n = match b.clues[at] {
                Some(Number::Known(n)) => n as usize,
                _ => unreachable!(),
            };
            let cands = candidates(&b, &count, at);
            assert!(!cands.is_empty());
            for r in &cands {
                assert_eq!(r.height * r.width, n, "{r:?}");
                assert!(r.contains(at / 3, at % 3));
                assert_eq!(
                    r.cells()
                        .filter(|&(y, x)| b.clues[y * 3 + x].is_some())
                        .count(),
                    1,
                    "{r:?}"
                );
            }
        }
        // 4 at the corner: 2×2, and 1×4 / 4×1 do not fit a 3×3 board.
        assert_eq!(
            candidates(&b, &count, 0),
            [Rect {
                row: 0,
                col: 0,
                height: 2,
                width: 2
            }]
        );
    }
}
