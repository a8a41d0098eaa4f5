//! Tatamibari (Nikoli): partition the board into rectangles, each holding exactly one clue of
//! its shape (`+` square, `-` wider than tall, `|` taller than wide, `?` any shape), with no
//! point where four rectangles meet.
//!
//! Read top to bottom: [`parse`] → [`encode`] / [`decode`] → [`check`] → [`render`], then
//! [`generate`] (random puzzles for puzzle makers).

pub mod check;
mod encode;
pub mod generate;
mod parse;
mod probe;
mod render;
mod size;
mod svg;
pub mod sweep;
mod thin;
mod unique;

pub use crate::genres::rects::{parse_labels, rects_json, Rect, Solution};
pub use check::{check, check_rects, Violation};
pub use encode::{block, decode, encode, encode_with, Encoding};
pub use parse::parse;
pub use render::{render_box, render_labels, render_rects, LABELS};

use crate::capability;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::ParseError;
use crate::genres::rects::{self, Area};
use crate::puzzle::Info;
use crate::puzzle::{
    Ended, Format, GenerateSpec, Goal, Hints, Made, Observer, Puzzle, ReadAnswer, Settings,
};
use crate::search;
use crate::solver::{NewSolver, SolverError};
use serde_json::{Map, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `+`: a square.
    Square,
    /// `-`: strictly wider than tall.
    Wide,
    /// `|`: strictly taller than wide.
    Tall,
    /// `?`: a clue whose shape is not given: its rectangle may have any shape.
    Any,
}

impl Shape {
    pub fn symbol(self) -> char {
        match self {
            Shape::Square => '+',
            Shape::Wide => '-',
            Shape::Tall => '|',
            Shape::Any => '?',
        }
    }

    /// Whether a `height × width` rectangle may hold a clue of this shape.
    pub fn admits(self, height: usize, width: usize) -> bool {
        self == Shape::Any || self == Shape::of(height, width)
    }

    /// The shape a clue of a `height × width` rectangle must have.
    pub fn of(height: usize, width: usize) -> Shape {
        match height.cmp(&width) {
            std::cmp::Ordering::Equal => Shape::Square,
            std::cmp::Ordering::Less => Shape::Wide,
            std::cmp::Ordering::Greater => Shape::Tall,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Blank,
    Clue(Shape),
    /// Not part of the board (the NP-hardness paper's gadgets).
    Hole,
}

/// A board: `cells[r * cols + c]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Cell>,
}

impl Area for Board {
    fn rows(&self) -> usize {
        self.rows
    }

    fn cols(&self) -> usize {
        self.cols
    }

    fn on(&self, i: usize) -> bool {
        self.cells[i] != Cell::Hole
    }
}

impl Board {
    pub fn cell(&self, r: usize, c: usize) -> Cell {
        self.cells[r * self.cols + c]
    }

    pub fn on_board(&self, r: usize, c: usize) -> bool {
        self.cell(r, c) != Cell::Hole
    }

    /// The board as puzzle text (`.` blanks, `#` holes), which [`parse`] reads back.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity((self.cols + 1) * self.rows);
        for r in 0..self.rows {
            for c in 0..self.cols {
                out.push(match self.cell(r, c) {
                    Cell::Blank => '.',
                    Cell::Hole => '#',
                    Cell::Clue(s) => s.symbol(),
                });
            }
            out.push('\n');
        }
        out
    }
}

/// The interior points at a rectangle's corners that four rectangles could meet at, as the
/// index of the cell above-left of each: the one whose NW cell is its bottom-right cell, and
/// the one whose SE cell is its top-left cell. A point counts when its four cells are on the
/// board.
pub fn corners(board: &Board, rect: &Rect) -> (Option<usize>, Option<usize>) {
    let interior = |r: usize, c: usize| {
        r + 1 < board.rows
            && c + 1 < board.cols
            && [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
                .iter()
                .all(|&(a, b)| board.on_board(a, b))
    };
    let (br, bc) = (rect.row + rect.height - 1, rect.col + rect.width - 1);
    let end = interior(br, bc).then_some(br * board.cols + bc);
    let start = (rect.row > 0 && rect.col > 0 && interior(rect.row - 1, rect.col - 1))
        .then(|| (rect.row - 1) * board.cols + rect.col - 1);
    (end, start)
}

/// Every candidate rectangle that pruning and probing leave, with its clue's cell index: each
/// rectangle of every solution is among them.
pub fn kept_candidates(board: &Board) -> Vec<(Rect, usize)> {
    encode::kept(board, true)
}

/// Tatamibari for the driver: solve, count, prove uniqueness, generate.
pub struct Tatamibari;

impl Puzzle for Tatamibari {
    const INFO: Info = Info {
        name: "tatamibari",
        about: "Nikoli's rectangle puzzle: solve, count solutions, prove uniqueness, generate",
        formats: &[Format::Box, Format::Rects],
        machine: Format::Rects,
        answer_fields: &["rectangles"],
        variables: "rect R C H W: the rectangle with top-left cell (R, C) (0-based), H tall, W \
            wide is chosen; owner R C R' C': cell (R, C) belongs to the clue at (R', C'); ends-at \
            R C / starts-at R C: a chosen rectangle has its bottom-right / top-left cell there",
        blocks_exactly: true,
        ..Info::DEFAULT
    };

    type Instance = Board;
    type Answer = Solution;
    type Checked = ();
    type Encoding = Encoding;

    fn parse(text: &str, _: &Settings) -> Result<Board, ParseError> {
        parse(text)
    }

    fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
        encode(board, sink)
    }

    fn decode(_: &Board, enc: &Encoding, model: &Model) -> Solution {
        decode(enc, model)
    }

    fn check(board: &Board, sol: &Solution) -> Result<(), String> {
        check_rects(board, sol).map_err(|v| v.to_string())
    }

    /// Any of `solve`'s forms: the label grid (the corpus's `.sol` form), the box drawing, or
    /// `rects` lines; checked as labels first (a label whose cells are no rectangle has no
    /// rectangle to stand for).
    fn read_answer(
        board: &Board,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        let read = rects::read_answer(board, text, |labels, name| {
            check::check_labels(board, labels, name).map_err(|v| v.to_string())
        })?;
        Ok(read.map(|answer| ReadAnswer {
            answer,
            complete: true,
            claimed: None,
        }))
    }

    fn block<S: ClauseSink>(_: &Board, enc: &Encoding, sink: &mut S, sols: &[Solution]) {
        sols.iter().for_each(|sol| encode::block(enc, sink, sol));
    }

    fn render(board: &Board, sol: &Solution, _: &(), format: Format) -> String {
        match format {
            Format::Rects => render_rects(sol),
            Format::Box => render_box(board, sol),
            _ => render_labels(board, sol),
        }
    }

    fn svg(board: &Board, answers: &[(&Solution, &())], caption: &str) -> String {
        svg::svg(
            board,
            &answers.iter().map(|a| a.0).collect::<Vec<_>>(),
            caption,
        )
    }

    fn answer_json(_: &Board, sol: &Solution, _: &()) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("rectangles".into(), rects_json(sol));
        m
    }
}

impl capability::Urls for Tatamibari {
    const KINDS: &'static [&'static str] = &["tatamibari"];

    /// pzprjs's code: `1` is `|`, `2` is `-`, `3` is `+`, `.` is `?`.
    fn from_url(link: &crate::format::url::Link) -> Result<String, ParseError> {
        let cells = crate::format::url::decode_cells(link, '.', |ch| match ch {
            '1' => Ok('|'),
            '2' => Ok('-'),
            '3' => Ok('+'),
            '.' => Ok('?'),
            _ => Err(format!(
                "{ch:?} is no tatamibari clue (1 |, 2 -, 3 +, . ?, g–z skip 1–20 cells)"
            )),
        })?;
        Ok(cells
            .chunks(link.cols)
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect())
    }

    fn to_url(board: &Board) -> Result<String, String> {
        let mut cells = Vec::with_capacity(board.cells.len());
        for cell in &board.cells {
            cells.push(match cell {
                Cell::Blank => None,
                Cell::Clue(Shape::Tall) => Some('1'),
                Cell::Clue(Shape::Wide) => Some('2'),
                Cell::Clue(Shape::Square) => Some('3'),
                Cell::Clue(Shape::Any) => Some('.'),
                Cell::Hole => return Err("a board with holes has no puzz.link URL".into()),
            });
        }
        Ok(crate::format::url::link(
            "tatamibari",
            board.cols,
            board.rows,
            &crate::format::url::encode_cells(cells),
        ))
    }
}

impl capability::Backbone for Tatamibari {
    /// The rectangles chosen in every solution, found from `found`'s by [`search::backbone`].
    fn hints(
        board: &Board,
        found: &(Solution, ()),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Solution>>, SolverError> {
        let build = || {
            let mut solver = solvers.new_solver();
            let enc = encode(board, &mut solver);
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

impl capability::Searches for Tatamibari {
    fn search(
        board: &Board,
        goal: Goal,
        solvers: &dyn NewSolver,
        out: &mut dyn Observer<Self>,
    ) -> Result<Ended, SolverError> {
        let max = match goal {
            Goal::Enumerate { max } => max,
            Goal::Best => 1,
        };
        // Probing's candidates, computed once for the sweep and the whole board's formula.
        let kept = kept_candidates(board);
        // A plain solve of a large board with sparse clues: a first answer window by window,
        // if one is found. A count or a uniqueness proof goes through the whole board anyway,
        // and finds its first answer there as fast.
        let mut swept = crate::solver::SolverStats::default();
        if max == 1 && sweep::worth_it(board, &kept, sweep::GRID.rows) {
            let report = &mut |s| {
                swept = s;
                out.stats(s)
            };
            match sweep::sweep(board, &kept, sweep::GRID, solvers, report)? {
                sweep::Swept::Found(sol) => {
                    out.found(&sol, &());
                    return Ok(Ended::Limit);
                }
                sweep::Swept::Stopped => return Ok(Ended::Stopped),
                sweep::Swept::DeadEnd | sweep::Swept::NoCover => {}
            }
        }
        // Probing leaves a large board in many independent regions: solved apart, they
        // cost about their sum.
        let out = &mut search::After { out, before: swept };
        let mut solver = crate::search::parts::solver(solvers);
        let enc = encode::encode_kept(board, &kept, &mut search::Sink(&mut *solver));
        out.stats(solver.stats());
        search::enumerate::<Self, _>(
            board,
            &mut solver,
            &enc,
            max,
            out,
            block,
            |_, _| Vec::new(),
            |_, _| None,
        )
    }
}

impl capability::Prunes for Tatamibari {
    fn plain_encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
        encode::encode_plain(board, sink)
    }

    /// Pruning's and probing's removals, in their order, as units "not this candidate".
    fn derived_units(board: &Board, enc: &Encoding) -> Vec<Lit> {
        let lit: std::collections::HashMap<Rect, Lit> = enc.rects.iter().copied().collect();
        encode::removals(board)
            .iter()
            .filter_map(|r| lit.get(r))
            .map(|&l| !l)
            .collect()
    }
}

impl capability::Marks for Tatamibari {
    /// The answer read as `check` reads it: its regions that are rectangles, with the cells
    /// its first broken rule names (the cell, the whole region, or the four around a point).
    fn svg_broken(board: &Board, text: &str, caption: &str) -> String {
        let locate = |labels: &[Option<usize>]| {
            check::locate_labels(board, labels)
                .err()
                .map_or(Vec::new(), |(_, cells)| cells)
        };
        rects::svg_broken(
            board,
            text,
            caption,
            &|s, i, x, y, cell| svg::clue(board, s, i, x, y, cell),
            locate,
        )
    }
}

impl capability::Generate for Tatamibari {
    const PARTS: &'static str = "rectangles";

    fn generate(
        spec: &GenerateSpec,
        solvers: &dyn NewSolver,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<Made<Solution>>, String> {
        let mut rng = generate::Rng::new(spec.seed);
        let g = generate::Generated::new(spec.rows, spec.cols, &mut rng);
        let g = match (spec.unique, spec.cells_per_clue) {
            (false, None) => g,
            (false, Some(target)) => thin::thin(g, target, &mut rng),
            (true, None) => match unique::make_unique(g, rng, solvers, note)? {
                Some(g) => g,
                None => return Ok(None),
            },
            // Unique first, then merges that keep it so (see thin.rs).
            (true, Some(target)) => {
                let mut more = generate::Rng::new(rng.next_u64());
                let Some(g) = unique::make_unique(g, rng, solvers, note)? else {
                    return Ok(None);
                };
                match thin::thin_unique(g, target, &mut more, solvers, note)
                    .map_err(|e| e.to_string())?
                {
                    None => return Ok(None),
                    Some((g, true)) => g,
                    Some((g, false)) => match unique::make_unique(g, more, solvers, note)? {
                        Some(g) => g,
                        None => return Ok(None),
                    },
                }
            }
        };
        let remark = spec
            .cells_per_clue
            .filter(|&target| g.cells_per_clue() < target - 0.005)
            .map(|target| {
                let why = if spec.unique {
                    "as far as merging got with the puzzle staying unique"
                } else {
                    "no two rectangles left share a whole side"
                };
                format!(
                    "{:.2} cells per clue, not {target}: {why}",
                    g.cells_per_clue()
                )
            });
        Ok(Some(Made {
            text: g.board().to_text(),
            answer: g.solution(),
            remark,
        }))
    }

    /// Rectangles that unit propagation on the rules alone chooses, of one per clue.
    fn difficulty(board: &Board) -> Option<(usize, usize)> {
        let mut cnf = crate::cnf::Cnf::new();
        let enc = encode_with(board, &mut cnf, false);
        let value = crate::cnf::propagate::units(cnf)?;
        let chosen = enc
            .rects
            .iter()
            .filter(|(_, l)| value[l.var() as usize] == Some(true))
            .count();
        let clues = board
            .cells
            .iter()
            .filter(|c| matches!(c, Cell::Clue(_)))
            .count();
        Some((chosen, clues))
    }
}

impl capability::Explain for Tatamibari {
    fn estimate_named(board: &Board, limit: u64) -> Option<u64> {
        Some(size::named(board, limit))
    }

    /// A fact per candidate rectangle; a rule per clue ("gets one square region", exactly one
    /// of its candidates), per other cell ("is covered once"), and per point inside the board
    /// ("no two regions touch only at it", two diagonal corners: in a division into
    /// rectangles, the same as four meeting there). Over every candidate, as `encode_plain`:
    /// what pruning and probing remove is for the steps to show.
    fn named(board: &Board) -> crate::explain::Named<Encoding> {
        let cols = board.cols;
        let clues: Vec<usize> = (0..board.cells.len())
            .filter(|&i| matches!(board.cells[i], Cell::Clue(_)))
            .collect();
        let candidates = encode::all_candidates(board);
        let shape = |i: usize| match board.cells[i] {
            Cell::Clue(s) => s,
            _ => Shape::Any,
        };
        let clue = |i: usize| format!("the {}", shape(i).symbol());
        let what = |i: usize| {
            match shape(i) {
                Shape::Square => "square region",
                Shape::Wide => "region wider than tall",
                Shape::Tall => "region taller than wide",
                Shape::Any => "region",
            }
            .to_string()
        };
        let (mut rules, rects) =
            rects::named::clues_and_cover(board, &clues, &candidates, &clue, &what);
        // The candidates with a corner at each point, by the cell of theirs beside it: the
        // point below-right of cell (r, c) has index r * cols + c.
        let n = board.cells.len();
        let (mut nw, mut se, mut ne, mut sw) = (
            vec![Vec::new(); n],
            vec![Vec::new(); n],
            vec![Vec::new(); n],
            vec![Vec::new(); n],
        );
        for &(rect, lit) in &rects {
            let (bottom, right) = (rect.row + rect.height - 1, rect.col + rect.width - 1);
            nw[bottom * cols + right].push(lit);
            if rect.row > 0 && rect.col > 0 {
                se[(rect.row - 1) * cols + rect.col - 1].push(lit);
            }
            if rect.col > 0 {
                ne[bottom * cols + rect.col - 1].push(lit);
            }
            if rect.row > 0 {
                sw[(rect.row - 1) * cols + right].push(lit);
            }
        }
        for r in 0..board.rows.saturating_sub(1) {
            for c in 0..cols.saturating_sub(1) {
                let p = r * cols + c;
                let four = [p, p + 1, p + cols, p + cols + 1];
                if !four.iter().all(|&i| board.cells[i] != Cell::Hole) {
                    continue;
                }
                let diagonals = [(&nw[p], &se[p]), (&ne[p], &sw[p])];
                if diagonals.iter().all(|(a, b)| a.is_empty() || b.is_empty()) {
                    continue;
                }
                rules.rule(
                    format!(
                        "no two regions touch only at the point below-right of {}",
                        rects::named::at(p, cols)
                    ),
                    four.to_vec(),
                );
                for (a, b) in diagonals {
                    not_both(&mut rules, a, b);
                }
            }
        }
        let facts = rects::named::facts(&candidates, &rects, cols, "region", &clue);
        crate::explain::Named::new(rules, facts, Vec::new(), Encoding { rects })
    }

    fn draw_known(board: &Board, named: &crate::explain::Named<Encoding>, known: &[Lit]) -> String {
        rects::named::draw(board, &named.encoding.rects, known, |i| {
            match board.cells[i] {
                Cell::Clue(s) => s.symbol().to_string(),
                _ => String::new(),
            }
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
            &|s, i, x, y, cell| svg::clue(board, s, i, x, y, cell),
        )
    }
}

/// No literal of `a` true together with one of `b`: through one auxiliary unless a side has
/// a single literal.
fn not_both(rules: &mut crate::explain::Rules, a: &[Lit], b: &[Lit]) {
    if a.is_empty() || b.is_empty() {
        return;
    }
    if a.len() == 1 || b.len() == 1 {
        for &x in a {
            for &y in b {
                rules.add_clause(&[!x, !y]);
            }
        }
        return;
    }
    let some_a = rules.new_var();
    for &x in a {
        rules.add_clause(&[!x, some_a]);
    }
    for &y in b {
        rules.add_clause(&[!y, !some_a]);
    }
}

#[cfg(test)]
mod tests {
    use super::Tatamibari;
    use crate::format::url::split;
    use crate::genre::Genre;

    /// Random URLs never panic; each is refused with a column inside it, or read as a puzzle
    /// file that parses and writes back as the same cells.
    #[test]
    fn random_urls_are_read_or_refused_never_panic() {
        let mut rng = crate::genres::tatamibari::generate::Rng::new(11);
        let alphabet: Vec<char> = "0123456789abcdefghijklmnopqrstuvwxyz.-+=%/?:ABCZé"
            .chars()
            .collect();
        let (mut read, mut refused) = (0, 0);
        for _ in 0..20_000 {
            // Mostly the code's own characters, some of anything.
            let valid: Vec<char> = "123.ghkz".chars().collect();
            let body: String = (0..rng.below(30))
                .map(|_| {
                    if rng.below(40) == 0 {
                        alphabet[rng.below(alphabet.len())]
                    } else {
                        valid[rng.below(valid.len())]
                    }
                })
                .collect();
            let size = match rng.below(4) {
                0 => String::new(),
                1 => format!("{}/", rng.below(6)),
                _ => format!("{}/{}/", rng.below(7), rng.below(7)),
            };
            let url = format!("https://puzz.link/p?tatamibari/{size}{body}");
            let result = split(&url).and_then(|link| Tatamibari::from_url(&link));
            match result {
                Ok(text) => {
                    let board =
                        crate::genres::tatamibari::parse(&text).expect("a URL's board parses");
                    let again = Tatamibari::to_url(&board).unwrap();
                    let back = Tatamibari::from_url(&split(&again).unwrap()).unwrap();
                    assert_eq!(back, text, "{url} → {again}");
                    read += 1;
                }
                Err(e) => {
                    assert!(
                        e.line == 1 && e.col >= 1 && e.col <= url.chars().count() + 1,
                        "{url}: {e}"
                    );
                    refused += 1;
                }
            }
        }
        assert!(
            read > 1000 && refused > 1000,
            "{read} read, {refused} refused"
        );
    }
}
