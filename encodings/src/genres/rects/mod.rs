//! Rectangle partitions of a grid, the answers of Tatamibari and Shikaku: the rectangles,
//! their variables' models and blocking clauses, the answer forms (`rects` lines, label grids,
//! box drawings) read and written, the validator's pass over a labelling, and the picture.
//! Keyed on the grid's size and which cells are on the board ([`Area`]); each puzzle adds its
//! own clue rules.

pub mod named;
mod read;
mod render;
pub mod svg;

pub use read::{
    groups, parse_box, parse_labels, parse_rects, read_regions, rect_labels, rectangles, regions,
    Group, Regions, Unlabelled, Unplaced,
};
pub use render::{colour, owners, render_box, render_labels, render_rects, render_regions, LABELS};

use crate::cnf::{ClauseSink, Lit, Model};

/// The grid a partition covers: its size and the cells on the board (all, but for
/// Tatamibari's holes).
pub trait Area {
    fn rows(&self) -> usize;
    fn cols(&self) -> usize;
    /// Whether cell `i` (row-major) is on the board.
    fn on(&self, _i: usize) -> bool {
        true
    }
}

/// A rectangle by its top-left cell (0-based) and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rect {
    pub row: usize,
    pub col: usize,
    pub height: usize,
    pub width: usize,
}

// Without additions that can overflow: a rectangle read from an answer may reach past
// usize::MAX (its reader refuses that, but nothing here relies on it).
impl Rect {
    pub fn contains(&self, r: usize, c: usize) -> bool {
        r.checked_sub(self.row).is_some_and(|d| d < self.height)
            && c.checked_sub(self.col).is_some_and(|d| d < self.width)
    }

    /// Row by row; cells past `usize::MAX` are left out.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let along = |start: usize, len: usize| (0..len).map_while(move |d| start.checked_add(d));
        along(self.row, self.height)
            .flat_map(move |r| along(self.col, self.width).map(move |c| (r, c)))
    }
}

/// A solution: its rectangles, sorted by top-left cell.
pub type Solution = Vec<Rect>;

/// The rectangles whose variables are true in `model`, sorted.
pub fn decode(rects: &[(Rect, Lit)], model: &Model) -> Solution {
    let mut sol: Solution = rects
        .iter()
        .filter(|(_, l)| model.value(*l))
        .map(|&(r, _)| r)
        .collect();
    sol.sort();
    sol
}

/// Excludes one solution (`sol` sorted). Under exact cover the chosen rectangles determine the
/// solution, so one clause over their variables suffices.
pub fn block<S: ClauseSink>(rects: &[(Rect, Lit)], sink: &mut S, sol: &Solution) {
    let clause: Vec<Lit> = rects
        .iter()
        .filter(|(r, _)| sol.binary_search(r).is_ok())
        .map(|&(_, l)| !l)
        .collect();
    sink.add_clause(&clause);
}

/// `[[row, col, height, width], …]`.
pub fn rects_json(sol: &Solution) -> serde_json::Value {
    serde_json::json!(sol
        .iter()
        .map(|r| [r.row, r.col, r.height, r.width])
        .collect::<Vec<_>>())
}

/// An answer in any of `solve`'s forms (a label grid, a box drawing, `rects` lines) as
/// rectangles, with its labelling checked by `check(labels, name)` first (a label whose cells
/// are no rectangle has no rectangle to stand for): the rectangles, or the rule it breaks.
/// `name` shows a region in messages: by its label, or a box drawing's region by its number.
pub fn read_answer<A: Area + ?Sized>(
    area: &A,
    text: &str,
    check: impl Fn(&[Option<usize>], &dyn Fn(usize) -> String) -> Result<(), String>,
) -> Result<Result<Solution, String>, crate::format::error::ParseError> {
    let (labels, chars) = match read_regions(area, text)? {
        Regions::Rects(rects) => return Ok(Ok(rects)),
        Regions::Labels(labels, chars) => (labels, chars),
    };
    let name = |k: usize| match &chars {
        Some(chars) => labels
            .iter()
            .position(|&l| l == Some(k))
            .map_or(format!("#{k}"), |i| format!("{:?}", chars[i])),
        None => format!("#{k}"),
    };
    if let Err(v) = check(&labels, &name) {
        return Ok(Err(v));
    }
    // Every region is a rectangle now.
    Ok(Ok(rectangles(area, &labels)))
}

/// `check --format svg` of an answer that breaks a rule: its regions that are rectangles, with
/// the cells `locate(labels)` names for the first broken rule outlined (or the cell a `rects`
/// list covers twice); the bare puzzle when it cannot be read.
pub fn svg_broken<A: Area + ?Sized>(
    area: &A,
    text: &str,
    caption: &str,
    clues: svg::Clues,
    locate: impl Fn(&[Option<usize>]) -> Vec<usize>,
) -> String {
    let labels = match read_regions(area, text) {
        Ok(Regions::Labels(labels, _)) => labels,
        Ok(Regions::Rects(rects)) => match rect_labels(area, &rects) {
            Ok(labels) => labels,
            Err(Unplaced::Overlap { row, col }) if row <= area.rows() && col <= area.cols() => {
                return svg::broken(
                    area,
                    None,
                    &[(row - 1) * area.cols() + col - 1],
                    caption,
                    clues,
                )
            }
            Err(_) => return svg::svg(area, &[], caption, clues),
        },
        Err(_) => return svg::svg(area, &[], caption, clues),
    };
    svg::broken(
        area,
        Some(&rectangles(area, &labels)),
        &locate(&labels),
        caption,
        clues,
    )
}

/// `solve --hints`: the rectangles chosen in every solution, found from `found`'s by
/// [`crate::search::backbone`] on a solver that holds the rules over `rects`' variables;
/// `None` when the run was stopped.
pub fn hints<A: Area + ?Sized>(
    area: &A,
    rects: &[(Rect, Lit)],
    solver: &mut dyn crate::solver::Solver,
    spare: crate::search::Spare<'_>,
    team: Option<&crate::team::Team>,
    found: &Solution,
) -> Result<Option<crate::puzzle::Hints<Solution>>, crate::solver::SolverError> {
    let chosen: Vec<Lit> = rects
        .iter()
        .filter(|(r, _)| found.binary_search(r).is_ok())
        .map(|&(_, l)| l)
        .collect();
    let Some(fixed) = crate::search::backbone(solver, spare, team, chosen)? else {
        return Ok(None);
    };
    let fixed: std::collections::HashSet<Lit> = fixed.into_iter().collect();
    let mut decided: Solution = rects
        .iter()
        .filter(|(_, l)| fixed.contains(l))
        .map(|&(r, _)| r)
        .collect();
    decided.sort();
    // Undecided cells as `.`; off-board cells stay blank.
    let cols = area.cols();
    let drawn: String = render_labels(area, &decided)
        .lines()
        .enumerate()
        .map(|(r, line)| {
            line.chars()
                .enumerate()
                .map(|(c, ch)| {
                    if ch == ' ' && area.on(r * cols + c) {
                        '.'
                    } else {
                        ch
                    }
                })
                .collect::<String>()
                + "\n"
        })
        .collect();
    Ok(Some(crate::puzzle::Hints {
        json: rects_json(&decided),
        drawn,
        decided: decided.len(),
        of: found.len(),
        unit: "rectangles",
        partial: decided,
    }))
}
