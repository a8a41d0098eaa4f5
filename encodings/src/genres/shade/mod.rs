//! What the shading genres share (Nurikabe, and Heyawake, Hitori and LITS after it): an answer
//! says of each cell whether it is shaded; one variable per cell; reading a model back,
//! blocking answers, the backbone of a shading (`--hints`), the answer's text form and reading
//! it back, and the picture.

pub mod rooms;

use crate::capability;
use crate::cnf::connect::Graph;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::{quoted, ParseError};
use crate::format::grid;
use crate::format::svg::{self, Font, Stroke, Svg};
use crate::format::url::{self, Number};
use crate::puzzle::{Format, Hints, Info, Puzzle, ReadAnswer, Settings};
use crate::solver::{NewSolver, Solver, SolverError};
use serde_json::{json, Map, Value};

/// An answer, row-major: `Some(true)` shaded, `Some(false)` not; `None` only in hints, for a
/// cell that differs between answers.
pub type Shading = Vec<Option<bool>>;

/// A board of numbered cells (Nurikabe's islands, Hitori's numbers): `clues[r * cols + c]`,
/// `None` for a cell without a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub clues: Vec<Option<Number>>,
}

impl Board {
    /// janko.at's form: an optional `ROWS COLUMNS` line, then one row per line, cells separated
    /// by spaces: a number from `least`, `?` (a number not given), or `-` / `.` for a cell
    /// without one.
    pub fn parse(text: &str, least: u32) -> Result<Board, ParseError> {
        Board::parse_with(text, least, true)
    }

    /// [`Board::parse`] of a grid without a size line (one part of a file that had it).
    pub fn parse_rows(text: &str, least: u32) -> Result<Board, ParseError> {
        Board::parse_with(text, least, false)
    }

    fn parse_with(text: &str, least: u32, sized: bool) -> Result<Board, ParseError> {
        let read = if sized { grid::read } else { grid::read_rows };
        let words = read(text, false, &|_, w: &str| match w {
            "-" | "." => Ok(None),
            "?" => Ok(Some(Number::Unknown)),
            w if w.bytes().all(|b| b.is_ascii_digit()) => match w.parse::<u32>() {
                Ok(v) if v >= least && v as usize <= url::MAX_CELLS => Ok(Some(Number::Known(v))),
                _ => Err(format!(
                    "{}: a number is at least {least} and at most the cells a board may have ({})",
                    quoted(w),
                    url::MAX_CELLS
                )),
            },
            w => Err(format!(
                "unexpected {}: expected a number, ? for a number not given, or - for none",
                quoted(w)
            )),
        })?;
        Ok(Board {
            rows: words.rows,
            cols: words.cols,
            clues: words.cells,
        })
    }

    /// The board as puzzle text, which [`Board::parse`] reads back.
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
}

/// The variables: `lits[i]` true when cell i is shaded.
pub struct Cells {
    pub lits: Vec<Lit>,
}

impl Cells {
    /// A variable `rRcC shaded` for each cell of a board `cols` wide.
    pub fn new<S: ClauseSink>(sink: &mut S, cells: usize, cols: usize) -> Cells {
        let lits = (0..cells)
            .map(|i| sink.new_named_var(&|| format!("r{}c{} shaded", i / cols + 1, i % cols + 1)))
            .collect();
        Cells { lits }
    }

    pub fn decode(&self, model: &Model) -> Shading {
        self.lits.iter().map(|&l| Some(model.value(l))).collect()
    }

    /// The literals that hold in `answer` (its undecided cells left out).
    fn holding(&self, answer: &Shading) -> Vec<Lit> {
        self.lits
            .iter()
            .zip(answer)
            .filter_map(|(&l, s)| s.map(|s| if s { l } else { !l }))
            .collect()
    }

    /// Each literal's value among `known` (`None` where `known` has neither it nor its
    /// negation): what the steps so far decide, for explain's pictures.
    pub fn known(&self, known: &[Lit]) -> Vec<Option<bool>> {
        let set: std::collections::HashSet<Lit> = known.iter().copied().collect();
        self.lits
            .iter()
            .map(|l| {
                if set.contains(l) {
                    Some(true)
                } else if set.contains(&!*l) {
                    Some(false)
                } else {
                    None
                }
            })
            .collect()
    }

    /// One clause per answer: some cell differs from it. Exactly that answer is blocked.
    pub fn block<S: ClauseSink + ?Sized>(&self, sink: &mut S, answers: &[Shading]) {
        for answer in answers {
            let clause: Vec<Lit> = self.holding(answer).into_iter().map(|l| !l).collect();
            sink.add_clause(&clause);
        }
    }

    /// `found` with `None` wherever another answer differs (the
    /// [`crate::search::backbone_cut`] of the shading, on a solver holding the rules less
    /// those `cuts` adds), and how many cells are decided. `None` when the run was stopped.
    pub fn fixed<S: Solver + ?Sized>(
        &self,
        solver: &mut S,
        spare: crate::search::Spare<'_>,
        team: Option<&crate::team::Team>,
        found: &Shading,
        cuts: impl crate::search::Lazy,
    ) -> Result<Option<(Shading, usize)>, SolverError> {
        let Some(fixed) =
            crate::search::backbone_cut(solver, spare, team, self.holding(found), cuts)?
        else {
            return Ok(None);
        };
        let fixed: std::collections::HashSet<Lit> = fixed.into_iter().collect();
        let partial: Shading = self
            .lits
            .iter()
            .zip(found)
            .map(|(&l, s)| s.filter(|&s| fixed.contains(&if s { l } else { !l })))
            .collect();
        let decided = partial.iter().filter(|s| s.is_some()).count();
        Ok(Some((partial, decided)))
    }
}

/// A cheap upper bound on the literals of [`crate::cnf::connect::connected`] over `cells`
/// cells of a grid: a rank of about `bits` literals and four parent choices a cell, compared
/// in clauses of three (about 550 literals a cell on a 20×20 board).
pub fn forest_literals(cells: usize) -> u64 {
    let cells = cells as u64;
    // u64::BITS, not usize::BITS: the page is a 32-bit build, where the two differ.
    let bits = u64::from(u64::BITS - cells.max(2).leading_zeros());
    cells * 4 * (6 * bits) * 3
}

/// The text form: `#` shaded; an unshaded cell shows its clue (`clue(i)`) or `.`; `?`
/// undecided (hints, explain's steps), where a `?` clue is drawn `(?)` so as not to be taken
/// for one.
pub fn render(
    rows: usize,
    cols: usize,
    answer: &Shading,
    clue: impl Fn(usize) -> Option<String>,
) -> String {
    let partial = answer.iter().any(Option::is_none);
    grid::write(rows, cols, |i| match answer[i] {
        Some(true) => "#".into(),
        Some(false) => match clue(i) {
            Some(c) if partial && c == "?" => "(?)".into(),
            c => c.unwrap_or_else(|| ".".into()),
        },
        None => "?".into(),
    })
}

/// Reads an answer of a `rows × cols` board: `#`, `x` or `X` a shaded cell; `.`, `-` or `o`
/// an unshaded one, as may be the cell's own clue (`clue(i)`, as [`render`] writes it, so
/// `solve`'s text reads back); a size line and rows written without spaces (`#..#`) are
/// allowed, and verdict lines after the grid are passed over. A genre's own words for a
/// shaded cell (LITS's tetromino letters) are `shaded`.
pub fn read(
    rows: usize,
    cols: usize,
    text: &str,
    clue: impl Fn(usize) -> Option<String>,
    shaded: &[&str],
) -> Result<Shading, ParseError> {
    let (mut lines, filled) = crate::genres::digits::answer_lines(text);
    // The size is known: a first line `ROWS COLUMNS` is a size line exactly when the rows
    // after it are as many as it says (else it is a row, as `3 2` may be of a Hitori two wide).
    let size = format!("{rows} {cols}");
    if let Some(&(at, first)) = filled.first() {
        let words: Vec<&str> = first.split_whitespace().collect();
        if words.join(" ") == size && filled.len() == rows + 1 {
            lines[at] = "";
        }
    }
    // Cells past the puzzle's (a grid of another size, refused below) have no clue.
    let clue = |i: usize| (i < rows * cols).then(|| clue(i)).flatten();
    // A board one wide has no rows without spaces: its line `141` is one cell, the number 141.
    let words = grid::read_rows(&lines.join("\n"), cols > 1, |i, w| match w {
        "#" | "x" | "X" => Ok(Some(true)),
        "." | "-" | "o" => Ok(Some(false)),
        w if shaded.contains(&w) => Ok(Some(true)),
        w if clue(i).as_deref() == Some(w) => Ok(Some(false)),
        w => Err(format!(
            "unexpected {}: expected # (shaded) or . (unshaded){}",
            quoted(w),
            clue(i).map_or(String::new(), |c| format!(", or its clue {c}"))
        )),
    })?;
    if (words.rows, words.cols) != (rows, cols) {
        return Err(ParseError::new(
            1,
            1,
            format!(
                "the answer is {} rows of {}; the puzzle is {rows} rows of {cols}",
                words.rows, words.cols
            ),
        ));
    }
    Ok(words.cells)
}

pub const CELL: f64 = svg::MAX_CELL;
pub const EDGE: f64 = 2.0;
const THIN: Stroke = Stroke::solid("#999", 1.0);
const THICK: Stroke = Stroke::solid("#000", 3.0);

/// One board: shaded cells dark, undecided ones (hints) light grey, each clue written in its
/// cell (white on a shaded one), `marked` cells outlined, and with `rooms` (each cell's room)
/// the rooms' borders drawn thick.
pub fn panel(
    rows: usize,
    cols: usize,
    answer: Option<&Shading>,
    clue: &dyn Fn(usize) -> Option<String>,
    rooms: Option<&[usize]>,
    marked: &[bool],
    cell: f64,
) -> Svg {
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
    if let Some(answer) = answer {
        s.open_group("shade");
        for (i, a) in answer.iter().enumerate() {
            let fill = match a {
                Some(true) => "#333",
                Some(false) => continue,
                None => "#ddd",
            };
            let (x, y) = corner(i);
            s.rect(x, y, cell, cell, fill, None);
        }
        s.close_group();
    }
    s.grid_lines(EDGE, EDGE, rows, cols, cell, |horizontal, r, c| {
        let edge = (horizontal && (r == 0 || r == rows)) || (!horizontal && (c == 0 || c == cols));
        let wall = |a: usize, b: usize| rooms.is_some_and(|room| room[a] != room[b]);
        let border = !edge
            && if horizontal {
                wall((r - 1) * cols + c, r * cols + c)
            } else {
                wall(r * cols + c - 1, r * cols + c)
            };
        Some(if edge || border { THICK } else { THIN })
    });
    s.open_group("clue");
    for i in 0..rows * cols {
        let Some(text) = clue(i) else { continue };
        let (x, y) = corner(i);
        let shaded = answer.is_some_and(|a| a[i] == Some(true));
        let size = cell * if text.chars().count() > 2 { 0.4 } else { 0.6 };
        s.text(
            x + cell / 2.0,
            y + cell / 2.0,
            &text,
            Font {
                fill: if shaded { "#fff" } else { "#000" },
                ..Font::centred(size)
            },
        );
    }
    s.close_group();
    if answer.is_some() {
        svg::mark_cells(&mut s, EDGE, EDGE, cols, cell, marked);
    }
    s
}

fn svg_of(
    rows: usize,
    cols: usize,
    answers: &[&Shading],
    clue: &dyn Fn(usize) -> Option<String>,
    rooms: Option<&[usize]>,
    caption: &str,
) -> String {
    let cell = svg::cell_size(rows, cols, answers.len().min(2)).min(CELL);
    let differ = |a: &&Shading, b: &&Shading| a.iter().zip(b.iter()).map(|(x, y)| x != y).collect();
    svg::compose(
        &svg::panels(answers, differ, |answer, marked| {
            panel(rows, cols, answer.copied(), clue, rooms, marked, cell)
        }),
        caption,
    )
}

/// A shading genre's own part: its rules, its validator, its file and URL forms. [`Shaded`]
/// makes it a puzzle, with every step the family shares (decoding, blocking, drawing, reading
/// answers, hints, the broken rule's picture, the size estimate) written once here.
pub trait Shade: Sized + Send + Sync + 'static {
    const INFO: Info;
    /// The pzprjs names of the URLs it reads.
    const KINDS: &'static [&'static str];
    /// The spanning forests its stated rules hold, for the cheap size bound.
    const FORESTS: u64;
    /// Its own words for a shaded cell in answers, besides `#`, `x` and `X`.
    const SHADED: &'static [&'static str] = &[];

    type Board: Clone + Send + Sync + 'static;

    fn parse(text: &str) -> Result<Self::Board, ParseError>;

    /// The numbers, as drawn in their cells, and the board's size.
    fn numbers(board: &Self::Board) -> &Board;

    /// Each cell's room, for boards divided into rooms (their borders are drawn thick).
    fn rooms(_board: &Self::Board) -> Option<&[usize]> {
        None
    }

    /// The rules over `enc`'s cells; with `lazy`, the connectivity rules [`Shade::cuts`] stands
    /// for are left out.
    fn encode<S: ClauseSink>(board: &Self::Board, sink: &mut S, enc: &Encoding, lazy: bool);

    /// Clauses `answer` breaks and every valid answer keeps; none when the left-out rules hold.
    fn cuts(board: &Self::Board, enc: &Encoding, answer: &[bool]) -> Vec<Vec<Lit>>;

    /// The independent validator, on a complete answer (`true` shaded): the first broken rule,
    /// worded, and the cells it names.
    fn check(board: &Self::Board, shaded: &[bool]) -> Result<(), Broken>;

    fn from_url(link: &url::Link) -> Result<String, ParseError>;

    fn to_url(board: &Self::Board) -> Result<String, String>;
}

/// A broken rule: what it says, and the cells it names for the picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    pub says: String,
    pub cells: Vec<usize>,
}

/// The variables (a cell's "shaded") and the board's grid graph.
pub struct Encoding {
    pub cells: Cells,
    pub graph: Graph,
}

/// A shading genre as a puzzle: see [`Shade`].
pub struct Shaded<G>(std::marker::PhantomData<G>);

fn encode_with<G: Shade, S: ClauseSink>(board: &G::Board, sink: &mut S, lazy: bool) -> Encoding {
    let b = G::numbers(board);
    let enc = Encoding {
        cells: Cells::new(sink, b.rows * b.cols, b.cols),
        graph: Graph::grid(b.rows, b.cols),
    };
    G::encode(board, sink, &enc, lazy);
    enc
}

/// The validator on any answer: an undecided cell first.
fn check_any<G: Shade>(board: &G::Board, answer: &Shading) -> Result<(), Broken> {
    let cols = G::numbers(board).cols;
    if let Some(i) = answer.iter().position(Option::is_none) {
        return Err(Broken {
            says: format!(
                "row {} column {}: neither shaded nor unshaded",
                i / cols + 1,
                i % cols + 1
            ),
            cells: vec![i],
        });
    }
    let shaded: Vec<bool> = answer.iter().map(|s| *s == Some(true)).collect();
    G::check(board, &shaded)
}

impl<G: Shade> Puzzle for Shaded<G> {
    const INFO: Info = G::INFO;

    type Instance = G::Board;
    type Answer = Shading;
    type Checked = ();
    type Encoding = Encoding;

    fn parse(text: &str, _: &Settings) -> Result<G::Board, ParseError> {
        G::parse(text)
    }

    fn encode<S: ClauseSink>(board: &G::Board, sink: &mut S) -> Encoding {
        encode_with::<G, S>(board, sink, false)
    }

    fn decode(_: &G::Board, enc: &Encoding, model: &Model) -> Shading {
        enc.cells.decode(model)
    }

    fn check(board: &G::Board, answer: &Shading) -> Result<(), String> {
        check_any::<G>(board, answer).map_err(|b| b.says)
    }

    fn read_answer(
        board: &G::Board,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        let b = G::numbers(board);
        Ok(Ok(ReadAnswer {
            answer: read(b.rows, b.cols, text, |i| b.clue(i), G::SHADED)?,
            complete: true,
            claimed: None,
        }))
    }

    fn block<S: ClauseSink>(_: &G::Board, enc: &Encoding, sink: &mut S, answers: &[Shading]) {
        enc.cells.block(sink, answers);
    }

    fn render(board: &G::Board, answer: &Shading, _: &(), _: Format) -> String {
        let b = G::numbers(board);
        render(b.rows, b.cols, answer, |i| b.clue(i))
    }

    fn svg(board: &G::Board, answers: &[(&Shading, &())], caption: &str) -> String {
        let answers: Vec<&Shading> = answers.iter().map(|a| a.0).collect();
        let b = G::numbers(board);
        let clue = |i: usize| b.clue(i);
        svg_of(b.rows, b.cols, &answers, &clue, G::rooms(board), caption)
    }

    fn answer_json(board: &G::Board, answer: &Shading, _: &()) -> Map<String, Value> {
        let rows: Vec<String> = answer
            .chunks(G::numbers(board).cols)
            .map(|row| {
                row.iter()
                    .map(|s| if *s == Some(true) { '#' } else { '.' })
                    .collect()
            })
            .collect();
        Map::from_iter([("shaded".to_string(), json!(rows))])
    }
}

impl<G: Shade> capability::Urls for Shaded<G> {
    const KINDS: &'static [&'static str] = G::KINDS;

    /// The genre's code, on boards no larger than a file may be (a URL of a few characters
    /// may ask for millions of cells).
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        grid::fits_url(link)?;
        G::from_url(link)
    }

    fn to_url(board: &G::Board) -> Result<String, String> {
        G::to_url(board)
    }
}

impl<G: Shade> capability::Cuts for Shaded<G> {
    fn encode_lazy<S: ClauseSink>(board: &G::Board, sink: &mut S) -> Encoding {
        encode_with::<G, S>(board, sink, true)
    }

    fn cuts(board: &G::Board, enc: &Encoding, answer: &Shading) -> Vec<Vec<Lit>> {
        let shaded: Vec<bool> = answer.iter().map(|s| *s == Some(true)).collect();
        G::cuts(board, enc, &shaded)
    }
}

impl<G: Shade> capability::Backbone for Shaded<G> {
    /// The cells shaded alike in every answer, `found` being one: on the searches' formula,
    /// with the cuts.
    fn hints(
        board: &G::Board,
        found: &(Shading, ()),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Shading>>, SolverError> {
        let build = || {
            let mut solver = solvers.new_solver();
            let enc = encode_with::<G, _>(board, &mut crate::search::Sink(&mut *solver), true);
            (solver, enc)
        };
        let (mut solver, enc) = build();
        let cuts = |model: &Model| {
            let shaded: Vec<bool> = enc.cells.lits.iter().map(|&l| model.value(l)).collect();
            G::cuts(board, &enc, &shaded)
        };
        let Some((partial, decided)) =
            enc.cells
                .fixed(&mut *solver, &|| build().0, solvers.team(), &found.0, cuts)?
        else {
            return Ok(None);
        };
        let b = G::numbers(board);
        let json: Vec<Vec<Value>> = partial
            .chunks(b.cols)
            .map(|row| row.iter().map(|s| json!(s)).collect())
            .collect();
        Ok(Some(Hints {
            json: json!(json),
            drawn: render(b.rows, b.cols, &partial, |i| b.clue(i)),
            decided,
            of: b.clues.len(),
            unit: "cells",
            partial,
        }))
    }
}

impl<G: Shade> capability::Marks for Shaded<G> {
    /// The answer as far as it reads, the cells of the first broken rule outlined.
    fn svg_broken(board: &G::Board, text: &str, caption: &str) -> String {
        let b = G::numbers(board);
        let clue = |i: usize| b.clue(i);
        let answer = read(b.rows, b.cols, text, clue, G::SHADED).ok();
        let cells = answer
            .as_ref()
            .and_then(|a| check_any::<G>(board, a).err())
            .map_or(Vec::new(), |broken| broken.cells);
        let cell = svg::cell_size(b.rows, b.cols, 1).min(CELL);
        let mut s = panel(
            b.rows,
            b.cols,
            answer.as_ref(),
            &clue,
            G::rooms(board),
            &[],
            cell,
        );
        svg::mark_broken(&mut s, EDGE, EDGE, b.cols, cell, &cells);
        svg::compose(&[s], caption)
    }
}

impl<G: Shade> capability::Estimate for Shaded<G> {
    /// The forests' cheap bound ([`forest_literals`]), then, once that allows it, the formula
    /// counted exactly by encoding it into a counter.
    fn estimate(board: &G::Board, limit: u64) -> u64 {
        let forests = G::FORESTS * forest_literals(G::numbers(board).clues.len());
        if forests > limit {
            return forests;
        }
        let mut count = crate::cnf::SizeCounter::default();
        <Self as Puzzle>::encode(board, &mut count);
        count.literals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a drawing with undecided cells (`?`), a `?` number is `(?)`; a whole answer keeps
    /// it as the puzzle writes it, as `check` reads it back.
    #[test]
    fn a_question_number_is_not_drawn_as_an_undecided_cell() {
        let clue = |i: usize| (i == 0).then(|| "?".to_string());
        let partial = vec![Some(false), None, Some(true)];
        assert_eq!(render(1, 3, &partial, clue), "(?) ? #\n");
        let whole = vec![Some(false), Some(false), Some(true)];
        let text = render(1, 3, &whole, clue);
        assert_eq!(text, "? . #\n");
        assert_eq!(read(1, 3, &text, clue, &[]).unwrap(), whole);
    }

    #[test]
    fn answers_read_back_as_written() {
        let answer = vec![
            Some(true),
            Some(false),
            Some(false),
            Some(true),
            Some(true),
            Some(false),
        ];
        let clue = |i: usize| (i == 1).then(|| "12".to_string());
        let text = render(2, 3, &answer, clue);
        assert_eq!(text, "# 12 .\n# # .\n");
        assert_eq!(read(2, 3, &text, clue, &[]).unwrap(), answer);
        assert_eq!(
            read(2, 3, "2 3\n#-.\nxX-\nunique\n", clue, &[]).unwrap(),
            answer
        );
        let e = read(2, 3, "# 3 .\n# # .\n", clue, &[]).unwrap_err();
        assert_eq!((e.line, e.col), (1, 3), "{e}");
        let e = read(2, 3, "2 3\n#-.\n#?-\n", clue, &[]).unwrap_err();
        assert_eq!((e.line, e.col), (3, 2), "{e}");
        assert!(read(3, 2, &text, clue, &[]).is_err());
        // A board two wide whose first row is its size: a row when the rows are as many.
        let numbers = |i: usize| Some(["4", "2", "2", "4", "3", "1", "3", "1"][i].to_string());
        let rows = read(4, 2, "4 2\n2 #\n3 1\n# 1\n", numbers, &[]).unwrap();
        assert_eq!(rows[..2], [Some(false), Some(false)]);
        let sized = read(4, 2, "4 2\n. .\n. #\n. .\n# .\n", numbers, &[]).unwrap();
        assert_eq!(sized[..2], [Some(false), Some(false)]);
        // A board one wide: a number of several digits is one cell.
        let tall = |i: usize| (i == 1).then(|| "141".to_string());
        assert_eq!(
            read(2, 1, "#\n141\n", tall, &[]).unwrap(),
            [Some(true), Some(false)]
        );
        // A grid larger than the puzzle is refused, not read past the puzzle's clues.
        assert!(read(2, 3, "# . .\n# # #\n# 12 .\n# # 12\n", clue, &[]).is_err());
    }
}

/// What the shading genres' explanations share ([`crate::explain`]): the cells' variables, a
/// fact each ("(2,3) is shaded"), and the board as the steps leave it.
pub mod named {
    use super::{panel, render, Cells, Encoding, Shade, Shading, CELL, EDGE};
    use crate::cnf::connect::Graph;
    use crate::cnf::{ClauseSink, Lit};
    use crate::explain::{Fact, Named, Rules};
    use crate::format::svg;

    /// "(2,3)", 1-based.
    pub fn at(i: usize, cols: usize) -> String {
        format!("({},{})", i / cols + 1, i % cols + 1)
    }

    /// The cells' variables, made before any rule.
    pub fn cells(rules: &mut Rules, rows: usize, cols: usize) -> Encoding {
        Encoding {
            cells: Cells::new(rules, rows * cols, cols),
            graph: Graph::grid(rows, cols),
        }
    }

    /// "(a) and (b) are not both shaded", a rule per two neighbours.
    pub fn not_both_shaded(rules: &mut Rules, enc: &Encoding, cols: usize) {
        let lits = &enc.cells.lits;
        for (a, b) in crate::cnf::connect::edges(&enc.graph) {
            rules.rule(
                format!("{} and {} are not both shaded", at(a, cols), at(b, cols)),
                vec![a, b],
            );
            rules.add_clause(&[!lits[a], !lits[b]]);
        }
    }

    /// "the unshaded cells are connected", one rule over the board.
    pub fn unshaded_connected(rules: &mut Rules, enc: &Encoding) {
        rules.rule(
            "the unshaded cells are connected",
            (0..enc.cells.lits.len()).collect(),
        );
        let open: Vec<Lit> = enc.cells.lits.iter().map(|&l| !l).collect();
        crate::cnf::connect::connected(rules, &enc.graph, &open);
    }

    /// The rules with a fact per cell.
    pub fn finish(rules: Rules, enc: Encoding, cols: usize, known: Vec<Lit>) -> Named<Encoding> {
        let facts = enc
            .cells
            .lits
            .iter()
            .enumerate()
            .map(|(i, &lit)| Fact {
                lit,
                subject: at(i, cols),
                is: "shaded".into(),
                otherwise: Some("unshaded".into()),
                cells: vec![i],
            })
            .collect();
        Named::new(rules, facts, known, enc)
    }

    /// The shading `known` decides (`None` where it decides nothing yet).
    fn known_shading(named: &Named<Encoding>, known: &[Lit]) -> Shading {
        named.encoding.cells.known(known)
    }

    /// The board with the cells `known` decides (`?` elsewhere).
    pub fn draw<G: Shade>(board: &G::Board, named: &Named<Encoding>, known: &[Lit]) -> String {
        let b = G::numbers(board);
        render(b.rows, b.cols, &known_shading(named, known), |i| b.clue(i))
    }

    /// A step's picture: [`draw`]'s board, the step marked ([`svg::mark_step`]).
    pub fn svg_step<G: Shade>(
        board: &G::Board,
        named: &Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        let b = G::numbers(board);
        let clue = |i: usize| b.clue(i);
        let cell = svg::cell_size(b.rows, b.cols, 1).min(CELL);
        let shading = known_shading(named, known);
        let mut s = panel(
            b.rows,
            b.cols,
            Some(&shading),
            &clue,
            G::rooms(board),
            &[],
            cell,
        );
        svg::mark_step(&mut s, EDGE, EDGE, b.cols, cell, rules, deduced);
        svg::compose(&[s], caption)
    }
}
