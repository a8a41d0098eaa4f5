//! Making a generated puzzle's solution unique, by counterexample-guided clue placement: find
//! second solutions with one solver, re-place clues with another ([`Placement`]) so that every
//! second solution found so far is broken, and change the tiling locally where no placement
//! can. Written against the [`Solver`] trait, so it runs on every backend.

use super::encode::encode_without_owners;
use super::generate::{bounds, Generated, Placement, PlacementFormula, Rng};
use super::{block, decode, Board, Cell, Rect, Shape, Solution};
use crate::cnf::{ClauseSink, Lit};
use crate::solver::{NewSolver, SolveResult, Solver, SolverError};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use web_time::Instant;

/// Rounds of "find a second solution, re-place the clues" before giving up.
const MAX_ROUNDS: usize = 5_000;

/// Side of the windows checked one by one before the whole board: most ambiguities are local,
/// and a window's check costs milliseconds where the whole 100×100 board's costs a second or two.
const WINDOW: usize = 20;

/// Rounds spent on one window before moving on (what is left shows up in the global check).
const WINDOW_ROUNDS: usize = 30;

/// Makes `g`'s puzzle unique: clues are re-placed (and, when no placement works, rectangles
/// split or merged) until the solver finds no second solution. `None` when the run's stop flag
/// was raised first.
pub fn make_unique(
    g: Generated,
    rng: Rng,
    solvers: &dyn NewSolver,
    note: &mut dyn FnMut(String),
) -> Result<Option<Generated>, String> {
    let start = Instant::now();
    let (rows, cols) = (g.rows, g.cols);
    let mut u = Uniquer::new(g, rng, solvers);
    let mut round = 0;
    // A grid of windows, then the same grid shifted by half a window, which holds the places
    // the first one cuts through.
    let grid = |shift: usize| {
        (0..rows.saturating_sub(shift).div_ceil(WINDOW))
            .flat_map(move |i| {
                (0..cols.saturating_sub(shift).div_ceil(WINDOW))
                    .map(move |j| (shift + i * WINDOW, shift + j * WINDOW))
            })
            .map(move |(row, col)| Rect {
                row,
                col,
                height: WINDOW.min(rows - row),
                width: WINDOW.min(cols - col),
            })
    };
    let windows: Vec<Rect> = if rows * cols > WINDOW * WINDOW {
        grid(0).chain(grid(WINDOW / 2)).collect()
    } else {
        Vec::new()
    };
    // Windows to check, the whole board (`None`) last. When the whole board's check finds
    // second solutions, the clues move only around them, so that is where new ones appear:
    // windows around each are checked before the whole board again (a window costs about a
    // millisecond, the whole 200×200 board a tenth of a second).
    let mut queue: VecDeque<Option<Rect>> = windows
        .into_iter()
        .map(Some)
        .chain(std::iter::once(None))
        .collect();
    while let Some(window) = queue.pop_front() {
        for window_round in 0.. {
            if window.is_some() && window_round == WINDOW_ROUNDS {
                break;
            }
            let Some(others) = second_solutions(&u.g, &u.placement, window.as_ref(), solvers)
                .map_err(|e| e.to_string())?
            else {
                note(format!("no unique puzzle yet after {round} rounds"));
                return Ok(None);
            };
            if others.is_empty() {
                break;
            }
            let regions: Vec<Vec<Rect>> = others
                .iter()
                .flat_map(|other| u.placement.regions(&u.g, other))
                .collect();
            // Where the whole board's check found them, before the clues move (see below).
            let mut around: Vec<Rect> = Vec::new();
            if window.is_none() && rows * cols > WINDOW * WINDOW {
                around = regions
                    .iter()
                    .filter_map(|region| around_region(region, rows, cols))
                    .collect();
                around.sort();
                around.dedup();
            }
            round += 1;
            if round >= MAX_ROUNDS {
                return Err(format!(
                    "no unique puzzle after {MAX_ROUNDS} rounds; try another --seed"
                ));
            }
            if solvers.stop().is_raised() || !u.round(regions).map_err(|e| e.to_string())? {
                note(format!("no unique puzzle yet after {round} rounds"));
                return Ok(None);
            }
            if start.elapsed().as_secs() >= 1 && round % 10 == 0 {
                let t = start.elapsed().as_secs_f64();
                let (n, splits, merges, retiles) = (u.g.rects.len(), u.splits, u.merges, u.retiles);
                note(format!("[{t:8.3}s] round {round}: {n} rectangles, {splits} splits, {merges} merges, {retiles} areas tiled anew"));
            }
            if !around.is_empty() {
                queue.extend(around.into_iter().map(Some).chain(std::iter::once(None)));
                break;
            }
        }
    }
    Ok(Some(u.g))
}

/// A window of `WINDOW` cells or more around a region of a second solution.
fn around_region(region: &[Rect], rows: usize, cols: usize) -> Option<Rect> {
    let b = bounds(region)?;
    let (cr, cc) = (b.row + b.height / 2, b.col + b.width / 2);
    let (h, w) = (
        b.height.max(WINDOW).min(rows),
        b.width.max(WINDOW).min(cols),
    );
    let row = cr.saturating_sub(h / 2).min(rows - h);
    let col = cc.saturating_sub(w / 2).min(cols - w);
    Some(Rect {
        row,
        col,
        height: h,
        width: w,
    })
}

/// Side of the areas whose changes of tiling are counted (see `Uniquer::reshape`).
const HEAT_AREA: usize = 8;

/// Changes of tiling in one area made by a split or merge before it gets tiled anew, in a
/// wider window each further time.
const SMALL_CHANGES: usize = 3;

/// The widest margin around a conflict tiled anew: wider areas bring more new ambiguities
/// than they remove.
const MAX_MARGIN: usize = 4;

/// A region of a second solution that the clues must break (a second solution on its own, see
/// [`Placement`]), with the planted rectangles whose clues decide that.
struct Exclusion {
    region: Vec<Rect>,
    reads: Vec<Rect>,
}

/// The state of making a generated puzzle unique: the puzzle, and the regions of second
/// solutions excluded so far.
struct Uniquer<'a> {
    g: Generated,
    rng: Rng,
    solvers: &'a dyn NewSolver,
    placement: Placement,
    /// By number, in the order found; the clues as they are break all but those in `fresh`.
    excluded: BTreeMap<usize, Exclusion>,
    /// The exclusions that read each planted rectangle.
    readers: HashMap<Rect, Vec<usize>>,
    fresh: Vec<usize>,
    next: usize,
    splits: usize,
    merges: usize,
    retiles: usize,
    /// How often each area (of `HEAT_AREA`² cells) needed a change of the tiling.
    heat: HashMap<(usize, usize), usize>,
    /// Every rectangle split so far (merges do not make them again).
    split_rects: Vec<Rect>,
    postponed: usize,
}

impl<'a> Uniquer<'a> {
    fn new(g: Generated, rng: Rng, solvers: &'a dyn NewSolver) -> Uniquer<'a> {
        let placement = Placement::new(&g);
        Uniquer {
            g,
            rng,
            solvers,
            placement,
            excluded: BTreeMap::new(),
            readers: HashMap::new(),
            fresh: Vec::new(),
            next: 0,
            splits: 0,
            merges: 0,
            retiles: 0,
            heat: HashMap::new(),
            split_rects: Vec::new(),
            postponed: 0,
        }
    }

    /// Excludes `regions` (of second solutions, see [`Placement::regions`]) and re-places the
    /// clues; when no placement breaks them all, changes the tiling where they conflict and
    /// tries again. False when the run was stopped.
    fn round(&mut self, regions: Vec<Vec<Rect>>) -> Result<bool, SolverError> {
        for region in regions {
            let mut reads: Vec<Rect> = region
                .iter()
                .flat_map(|t| self.placement.reads(&self.g, t))
                .map(|k| self.g.rects[k])
                .collect();
            reads.sort_unstable();
            reads.dedup();
            for r in &reads {
                self.readers.entry(*r).or_default().push(self.next);
            }
            self.excluded.insert(self.next, Exclusion { region, reads });
            self.fresh.push(self.next);
            self.next += 1;
        }
        loop {
            let placed = least_moves(
                &self.g,
                &self.placement,
                &self.excluded,
                &self.readers,
                &self.fresh,
                self.solvers,
            )?;
            let Some(placed) = placed else {
                return Ok(false);
            };
            self.g.clues = placed.clues;
            let (g, placement, excluded) = (&self.g, &self.placement, &self.excluded);
            self.fresh
                .retain(|i| !placement.excludes(g, &excluded[i].region));
            match placed.conflict {
                None => return Ok(true),
                Some(core) => self.reshape(&core),
            }
        }
    }

    /// No placement breaks the exclusions `core` (numbers in `excluded`) together: split a
    /// rectangle inside them (one clue more), failing that one bordering them, failing that
    /// merge two there, and only failing all of those start from a new tiling. Regions the
    /// change does not touch keep their cells, clues and planted rectangles, so their
    /// exclusions still hold.
    fn reshape(&mut self, core: &[usize]) {
        let (g, rng) = (&mut self.g, &mut self.rng);
        let culprits: Vec<Rect> = core
            .iter()
            .flat_map(|i| self.excluded[i].region.iter().copied())
            .collect();
        let grown: Vec<Rect> = culprits
            .iter()
            .map(|r| {
                let (top, left) = (r.row.saturating_sub(1), r.col.saturating_sub(1));
                let bottom = (r.row + r.height).min(g.rows - 1);
                let right = (r.col + r.width).min(g.cols - 1);
                Rect {
                    row: top,
                    col: left,
                    height: bottom - top + 1,
                    width: right - left + 1,
                }
            })
            .collect();
        let top = culprits.iter().map(|r| r.row).min().unwrap_or(0);
        let left = culprits.iter().map(|r| r.col).min().unwrap_or(0);
        let bottom = culprits
            .iter()
            .map(|r| r.row + r.height)
            .max()
            .unwrap_or(g.rows);
        let right = culprits
            .iter()
            .map(|r| r.col + r.width)
            .max()
            .unwrap_or(g.cols);
        // Small changes can undo each other in a loop; the more often a place comes back, the
        // bigger the change there.
        let heat = self
            .heat
            .entry((
                (top + bottom) / 2 / HEAT_AREA,
                (left + right) / 2 / HEAT_AREA,
            ))
            .or_insert(0);
        *heat += 1;
        let small = *heat <= SMALL_CHANGES;
        let margin = heat.saturating_sub(SMALL_CHANGES).min(MAX_MARGIN);
        let split = || {
            g.split_where_differing(&culprits, rng)
                .or_else(|| g.split_where_differing(&grown, rng))
        };
        let changed = if let Some(split) = small.then(split).flatten() {
            self.splits += 1;
            self.split_rects.push(split);
            Some(split)
        } else if let Some(merged) = small
            .then(|| g.merge_where_differing(&culprits, &self.split_rects, rng))
            .flatten()
        {
            self.merges += 1;
            Some(merged)
        } else {
            // Tile anew around them, in a wider area each time a try fails.
            let retiled = (margin..=margin + 4).find_map(|m: usize| {
                let (row, col) = (top.saturating_sub(m), left.saturating_sub(m));
                let window = Rect {
                    row,
                    col,
                    height: (bottom + m).min(g.rows) - row,
                    width: (right + m).min(g.cols) - col,
                };
                g.retile_window(window, rng)
            });
            if retiled.is_some() {
                self.retiles += 1;
                self.split_rects.clear();
            }
            retiled
        };
        let dropped: Vec<usize> = match changed {
            Some(changed) => self
                .excluded
                .iter()
                .filter(|(_, e)| {
                    let touched = e
                        .region
                        .iter()
                        .any(|r| changed.cells().any(|(a, b)| r.contains(a, b)));
                    touched || e.reads.iter().any(|r| g.rects.binary_search(r).is_err())
                })
                .map(|(&i, _)| i)
                .collect(),
            None => {
                // Leave this ambiguity for a later round (hotter, so tiled anew more widely).
                self.postponed += 1;
                core.to_vec()
            }
        };
        for i in &dropped {
            let e = self.excluded.remove(i).expect("listed");
            for r in &e.reads {
                let readers = self.readers.get_mut(r).expect("indexed");
                readers.retain(|j| j != i);
                if readers.is_empty() {
                    self.readers.remove(r);
                }
            }
        }
        self.fresh.retain(|i| self.excluded.contains_key(i));
        if changed.is_some() {
            self.placement.retile(g);
        }
    }
}

/// What [`least_moves`] found: the clues with every group it could place re-placed, and the
/// numbers of a conflicting set of exclusions in a group it could not.
struct Placed {
    clues: Vec<(usize, usize)>,
    conflict: Option<Vec<usize>>,
}

/// A placement meeting the exclusions that moves few clues. The clues as they are meet every
/// exclusion but the fresh ones, so only exclusions linked to a fresh one through rectangles
/// they read can be affected by moving clues. Each group of linked exclusions is placed on its
/// own (by a solver of its own: groups far apart share nothing), with every clue it reads
/// assumed to stay; only the clues in the failed core are freed, until it is satisfiable.
/// Every other clue keeps its cell. `None` when stopped.
fn least_moves(
    g: &Generated,
    placement: &Placement,
    excluded: &BTreeMap<usize, Exclusion>,
    readers: &HashMap<Rect, Vec<usize>>,
    fresh: &[usize],
    solvers: &dyn NewSolver,
) -> Result<Option<Placed>, SolverError> {
    let mut clues = g.clues.clone();
    let mut seen: HashSet<usize> = HashSet::new();
    for &start in fresh {
        if !seen.insert(start) {
            continue;
        }
        let mut group = vec![start];
        let mut next = 0;
        while next < group.len() {
            let i = group[next];
            next += 1;
            for r in &excluded[&i].reads {
                for &j in &readers[r] {
                    if seen.insert(j) {
                        group.push(j);
                    }
                }
            }
        }
        match place_group(g, placement, excluded, &group, solvers)? {
            None => return Ok(None),
            Some(Ok(moved)) => moved.into_iter().for_each(|(k, cell)| clues[k] = cell),
            Some(Err(core)) => {
                return Ok(Some(Placed {
                    clues,
                    conflict: Some(core),
                }))
            }
        }
    }
    Ok(Some(Placed {
        clues,
        conflict: None,
    }))
}

/// One group of [`least_moves`]: the new cell of each clue it reads, or the exclusions of a
/// failed core.
#[allow(clippy::type_complexity)]
fn place_group(
    g: &Generated,
    placement: &Placement,
    excluded: &BTreeMap<usize, Exclusion>,
    group: &[usize],
    solvers: &dyn NewSolver,
) -> Result<Option<Result<Vec<(usize, (usize, usize))>, Vec<usize>>>, SolverError> {
    let mut read: Vec<usize> = group
        .iter()
        .flat_map(|i| excluded[i].reads.iter())
        .map(|r| g.rects.binary_search(r).expect("planted"))
        .collect();
    read.sort_unstable();
    read.dedup();
    let mut solver = solvers.new_solver();
    let mut formula = PlacementFormula::new(placement);
    let active: Vec<Lit> = group
        .iter()
        .map(|i| formula.exclude_region(g, &mut solver, &excluded[i].region))
        .collect();
    let mut stay: Vec<Lit> = read
        .iter()
        .map(|&k| formula.at(g, k, g.clues[k]).expect("read by an exclusion"))
        .collect();
    loop {
        let assumptions = [&active[..], &stay[..]].concat();
        match solver.solve_with(&assumptions)? {
            SolveResult::Interrupted => return Ok(None),
            SolveResult::Sat => {
                let model = solver.model();
                return Ok(Some(Ok(read
                    .iter()
                    .map(|&k| (k, formula.clue(g, k, &model)))
                    .collect())));
            }
            SolveResult::Unsat => {}
        }
        let core: HashSet<Lit> = solver.failed_core().into_iter().collect();
        let before = stay.len();
        stay.retain(|l| !core.contains(l));
        if stay.len() == before {
            return Ok(Some(Err(group
                .iter()
                .zip(&active)
                .filter(|(_, a)| core.contains(a))
                .map(|(&i, _)| i)
                .collect())));
        }
    }
}

/// Second solutions of `g`'s puzzle, differing from the planted one in disjoint places: after
/// each, the planted rectangles it disturbed are pinned and the solver asked again
/// (incrementally), so one round sees every ambiguous place of the board, not just one.
///
/// With a window, only the planted rectangles whose top-left cell is in it make the puzzle
/// (everything else a hole), the planted rectangles outside standing as they are. That is a
/// quick filter, not a proof: only the whole board's check (`None`) decides. Each second
/// solution comes as the rectangles where it differs from the planted one.
/// `None` when the run was stopped.
pub(super) fn second_solutions(
    g: &Generated,
    placement: &Placement,
    window: Option<&Rect>,
    solvers: &dyn NewSolver,
) -> Result<Option<Vec<Vec<Rect>>>, SolverError> {
    /// Enough for a round; what is left shows up in the next one.
    const MAX_PER_ROUND: usize = 64;
    let inside: Vec<usize> = match window {
        None => (0..g.rects.len()).collect(),
        Some(w) => {
            let mut ks: Vec<usize> = w
                .cells()
                .map(|(r, c)| placement.owner(g, r, c))
                .filter(|&k| w.contains(g.rects[k].row, g.rects[k].col))
                .collect();
            ks.sort_unstable();
            ks.dedup();
            ks
        }
    };
    if inside.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let (board, planted, (top, left)) =
        sub_puzzle(inside.iter().map(|&k| (g.rects[k], g.clues[k])));
    let unshift = |r: &Rect| Rect {
        row: r.row + top,
        col: r.col + left,
        ..*r
    };
    // The planted solution's blocking clause spans the board's independent regions; with
    // parts, each region is asked on its own for a second solution (see crate::search::parts).
    let mut solver = crate::search::parts::solver(solvers);
    let enc = encode_without_owners(&board, &mut solver);
    block(&enc, &mut solver, &planted);
    let mut found = Vec::new();
    while found.len() < MAX_PER_ROUND {
        match solver.solve()? {
            SolveResult::Interrupted => return Ok(None),
            SolveResult::Unsat => break,
            SolveResult::Sat => {}
        }
        let other = decode(&enc, &solver.model());
        for &(rect, lit) in &enc.rects {
            if planted.binary_search(&rect).is_ok() && other.binary_search(&rect).is_err() {
                solver.add_clause(&[lit]);
            }
        }
        found.push(
            other
                .iter()
                .filter(|r| planted.binary_search(r).is_err())
                .map(unshift)
                .collect(),
        );
    }
    Ok(Some(found))
}

/// The puzzle made of some planted rectangles (with their clues) alone, shifted to the top-left
/// corner, every other cell a hole; with its planted solution and the shift.
pub(super) fn sub_puzzle(
    planted: impl Iterator<Item = (Rect, (usize, usize))> + Clone,
) -> (Board, Solution, (usize, usize)) {
    let top = planted.clone().map(|(r, _)| r.row).min().unwrap_or(0);
    let left = planted.clone().map(|(r, _)| r.col).min().unwrap_or(0);
    let bottom = planted
        .clone()
        .map(|(r, _)| r.row + r.height)
        .max()
        .unwrap_or(0);
    let right = planted
        .clone()
        .map(|(r, _)| r.col + r.width)
        .max()
        .unwrap_or(0);
    let mut board = Board {
        rows: bottom - top,
        cols: right - left,
        cells: vec![Cell::Hole; (bottom - top) * (right - left)],
    };
    let mut solution: Solution = Vec::new();
    for (rect, (r, c)) in planted {
        let rect = Rect {
            row: rect.row - top,
            col: rect.col - left,
            ..rect
        };
        for (r, c) in rect.cells() {
            board.cells[r * board.cols + c] = Cell::Blank;
        }
        board.cells[(r - top) * board.cols + (c - left)] =
            Cell::Clue(Shape::of(rect.height, rect.width));
        solution.push(rect);
    }
    solution.sort();
    (board, solution, (top, left))
}
