//! Sparser generated puzzles: neighbouring planted rectangles that share a whole side are
//! merged into one (one clue fewer) until the board has the cells per clue asked for. For a
//! unique puzzle a merge is kept only when no second solution appears around it, and then the
//! whole board is asked for second solutions and the merges they touch are undone, so the
//! claim rests on a whole-board refutation, never on the local checks.
//!
//! Merging only removes an edge, so it never makes a point where four rectangles meet.

use super::encode::encode_without_owners;
use super::generate::{grow, Generated, Rng};
use super::unique::sub_puzzle;
use super::{block, Rect};
use crate::cnf::ClauseSink;
use crate::solver::{NewSolver, SolveResult, SolverError};

/// Cells around a merged rectangle that its local uniqueness check looks at. The check misses
/// second solutions: on 100×100 boards the whole board's check undid about 13 % of the merges
/// kept with this margin; with a margin of 4 the result was 6 % less sparse, and with 2 the
/// whole board's checks took 20 s each (sparse ambiguous boards are hard), not 0.25 s.
const MARGIN: usize = 6;

/// Rectangles this far around the window are kept fixed in its check, so that the four-corner
/// rule on the window's border still holds what is inside (without them the check saw second
/// solutions that the board has not, and kept fewer merges).
const RING: usize = 3;

/// Clue cells tried in a merged rectangle before the merge is given up: on 100×100 boards two
/// ended 1 % sparser than one, for a quarter more time.
const TRIES: usize = 1;

/// The planted tiling while it is thinned: rectangles keep their numbers (a merged-away one
/// becomes `None`), and each cell knows its rectangle's number.
struct Tiling {
    rows: usize,
    cols: usize,
    rects: Vec<Option<Rect>>,
    clues: Vec<(usize, usize)>,
    owner: Vec<usize>,
    live: usize,
}

impl Tiling {
    fn new(g: Generated) -> Tiling {
        let mut owner = vec![0; g.rows * g.cols];
        for (k, rect) in g.rects.iter().enumerate() {
            rect.cells().for_each(|(r, c)| owner[r * g.cols + c] = k);
        }
        let live = g.rects.len();
        Tiling {
            rows: g.rows,
            cols: g.cols,
            rects: g.rects.into_iter().map(Some).collect(),
            clues: g.clues,
            owner,
            live,
        }
    }

    fn cells_per_clue(&self) -> f64 {
        (self.rows * self.cols) as f64 / self.live.max(1) as f64
    }

    fn to_generated(&self) -> Generated {
        let mut pairs: Vec<(Rect, (usize, usize))> = self
            .rects
            .iter()
            .zip(&self.clues)
            .filter_map(|(r, &c)| r.map(|r| (r, c)))
            .collect();
        pairs.sort();
        let (rects, clues) = pairs.into_iter().unzip();
        Generated {
            rows: self.rows,
            cols: self.cols,
            rects,
            clues,
        }
    }

    /// The board's cells per clue has reached `target`.
    fn sparse_enough(&self, target: f64) -> bool {
        (self.rows * self.cols) as f64 >= target * self.live as f64
    }

    /// The rectangles sharing a whole side with `k`, with the union.
    fn partners(&self, k: usize) -> Vec<(usize, Rect)> {
        let Some(a) = self.rects[k] else {
            return Vec::new();
        };
        let at = |r: usize, c: usize| {
            self.rects[self.owner[r * self.cols + c]].map(|b| (self.owner[r * self.cols + c], b))
        };
        let mut found = Vec::new();
        if a.row + a.height < self.rows {
            found.extend(
                at(a.row + a.height, a.col)
                    .filter(|(_, b)| {
                        b.col == a.col && b.width == a.width && b.row == a.row + a.height
                    })
                    .map(|(j, b)| {
                        (
                            j,
                            Rect {
                                height: a.height + b.height,
                                ..a
                            },
                        )
                    }),
            );
        }
        if a.col + a.width < self.cols {
            found.extend(
                at(a.row, a.col + a.width)
                    .filter(|(_, b)| {
                        b.row == a.row && b.height == a.height && b.col == a.col + a.width
                    })
                    .map(|(j, b)| {
                        (
                            j,
                            Rect {
                                width: a.width + b.width,
                                ..a
                            },
                        )
                    }),
            );
        }
        if a.row > 0 {
            found.extend(
                at(a.row - 1, a.col)
                    .filter(|(_, b)| {
                        b.col == a.col && b.width == a.width && b.row + b.height == a.row
                    })
                    .map(|(j, b)| {
                        (
                            j,
                            Rect {
                                height: a.height + b.height,
                                ..b
                            },
                        )
                    }),
            );
        }
        if a.col > 0 {
            found.extend(
                at(a.row, a.col - 1)
                    .filter(|(_, b)| {
                        b.row == a.row && b.height == a.height && b.col + b.width == a.col
                    })
                    .map(|(j, b)| {
                        (
                            j,
                            Rect {
                                width: a.width + b.width,
                                ..b
                            },
                        )
                    }),
            );
        }
        found
    }

    /// Rectangles `k` and `j` become `merged` (kept as number `k`) with its clue at `clue`.
    fn merge(&mut self, k: usize, j: usize, merged: Rect, clue: (usize, usize)) {
        self.rects[k] = Some(merged);
        self.rects[j] = None;
        self.clues[k] = clue;
        merged
            .cells()
            .for_each(|(r, c)| self.owner[r * self.cols + c] = k);
        self.live -= 1;
    }

    /// Undoes [`Tiling::merge`].
    fn split(
        &mut self,
        k: usize,
        j: usize,
        (a, b): (Rect, Rect),
        clues: ((usize, usize), (usize, usize)),
    ) {
        self.rects[k] = Some(a);
        self.rects[j] = Some(b);
        self.clues[k] = clues.0;
        self.clues[j] = clues.1;
        a.cells()
            .for_each(|(r, c)| self.owner[r * self.cols + c] = k);
        b.cells()
            .for_each(|(r, c)| self.owner[r * self.cols + c] = j);
        self.live += 1;
    }

    /// Does the puzzle made of the rectangles near `window` have a solution other than the
    /// planted one that changes only rectangles starting inside `window`? The ones around
    /// them are kept as they are, so that the four-corner rule on the border still holds them.
    /// `None` when the run was stopped.
    fn ambiguous_in(
        &self,
        window: Rect,
        solvers: &dyn NewSolver,
    ) -> Result<Option<bool>, SolverError> {
        let around = grow(window, RING, self.rows, self.cols);
        let mut near: Vec<usize> = around
            .cells()
            .map(|(r, c)| self.owner[r * self.cols + c])
            .collect();
        near.sort_unstable();
        near.dedup();
        let (board, solution, (top, left)) = sub_puzzle(
            near.iter()
                .filter_map(|&k| self.rects[k].map(|r| (r, self.clues[k]))),
        );
        let mut solver = crate::search::parts::solver(solvers);
        let enc = encode_without_owners(&board, &mut solver);
        // One pass over the candidates (`solution` is sorted), not a search per fixed rectangle.
        let fixed = |r: &Rect| {
            !window.contains(r.row + top, r.col + left) && solution.binary_search(r).is_ok()
        };
        let units: Vec<_> = enc
            .rects
            .iter()
            .filter(|(r, _)| fixed(r))
            .map(|&(_, lit)| lit)
            .collect();
        if units.len()
            != solution
                .iter()
                .filter(|r| !window.contains(r.row + top, r.col + left))
                .count()
        {
            return Ok(Some(true)); // not expected: a planted rectangle is a candidate
        }
        units.iter().for_each(|&lit| solver.add_clause(&[lit]));
        block(&enc, &mut solver, &solution);
        Ok(match solver.solve()? {
            SolveResult::Interrupted => None,
            SolveResult::Sat => Some(true),
            SolveResult::Unsat => Some(false),
        })
    }
}

/// Merges random neighbouring rectangles of `g` until it has `target` cells per clue (or no two
/// rectangles share a whole side). The planted tiling stays a solution; nothing else is kept.
pub fn thin(g: Generated, target: f64, rng: &mut Rng) -> Generated {
    let mut t = Tiling::new(g);
    while !t.sparse_enough(target) {
        let before = t.live;
        let merge = &mut |t: &mut Tiling, k: usize, j: usize, merged: Rect, rng: &mut Rng| {
            t.merge(k, j, merged, random_cell(merged, rng));
            Ok(Some(()))
        };
        pass(&mut t, target, rng, merge).expect("plain merges ask no solver");
        if t.live == before {
            break;
        }
    }
    t.to_generated()
}

/// What [`pass`] hands two rectangles to: `(tiling, k, j, merged, rng)`, `merged` the rectangle
/// covering `k` and `j`, which it merges or not; `None` when the run was stopped.
type MergeFn<'a> =
    dyn FnMut(&mut Tiling, usize, usize, Rect, &mut Rng) -> Result<Option<()>, SolverError> + 'a;

/// One pass over the live rectangles in random order, until `target`: each with a random
/// partner sharing a whole side goes to `merge`, which merges them or not. `None` when `merge`
/// says the run was stopped.
fn pass(
    t: &mut Tiling,
    target: f64,
    rng: &mut Rng,
    merge: &mut MergeFn<'_>,
) -> Result<Option<()>, SolverError> {
    let mut order: Vec<usize> = (0..t.rects.len())
        .filter(|&k| t.rects[k].is_some())
        .collect();
    shuffle(&mut order, rng);
    for k in order {
        if t.sparse_enough(target) {
            break;
        }
        let Some(&(j, merged)) = pick(&t.partners(k), rng) else {
            continue;
        };
        if merge(t, k, j, merged, rng)?.is_none() {
            return Ok(None);
        }
    }
    Ok(Some(()))
}

/// One merge kept by [`thin_unique`], to undo it when the whole board shows it let a second
/// solution in.
struct Merge {
    k: usize,
    j: usize,
    rects: (Rect, Rect),
    clues: ((usize, usize), (usize, usize)),
    merged: Rect,
}

/// Like [`thin`] for a unique puzzle: a merge is kept when the rectangles around it show no
/// second solution (trying [`TRIES`] clue cells), passing over the board until `target` is
/// reached or a pass keeps few merges. Then the whole board is asked for second solutions,
/// and for each region of one the latest merge touching it is undone, until it has none; then
/// merging again, up to [`ROUNDS`] times while short of the target. The result is unique,
/// proved by the whole board's last refutation (true beside it), or not yet when a second
/// solution touched no merge (false: not expected, as the puzzle was unique before the
/// merges). `None` when the run was stopped.
pub fn thin_unique(
    g: Generated,
    target: f64,
    rng: &mut Rng,
    solvers: &dyn NewSolver,
    note: &mut dyn FnMut(String),
) -> Result<Option<(Generated, bool)>, SolverError> {
    let start = web_time::Instant::now();
    let mut t = Tiling::new(g);
    let mut log: Vec<Merge> = Vec::new();
    for round in 1.. {
        // Aimed a little past the target, since the undoing takes some back.
        let ran_out = merge_passes(
            &mut t,
            &mut log,
            target * OVERSHOOT,
            rng,
            solvers,
            &mut |t: &Tiling| {
                note(format!(
                    "[{:8.3}s] merged down to {:.2} cells per clue",
                    start.elapsed().as_secs_f64(),
                    t.cells_per_clue()
                ))
            },
        )?;
        let Some(ran_out) = ran_out else {
            return Ok(None);
        };
        let Some((g, unique)) = undo_second_solutions(
            &mut t,
            &mut log,
            solvers,
            &mut |others: usize, undone: usize, t: &Tiling| {
                note(format!("[{:8.3}s] {others} second solutions on the whole board: {undone} merges undone, {:.2} cells per clue", start.elapsed().as_secs_f64(), t.cells_per_clue()))
            },
        )?
        else {
            return Ok(None);
        };
        // The undoing leaves the board short of the target; merge again, a few times.
        if !unique || ran_out || t.sparse_enough(target) || round == ROUNDS {
            return Ok(Some((g, unique)));
        }
    }
    unreachable!("the rounds end at ROUNDS")
}

/// How far past the target the merging aims (the undoing took back 1–3 % of the clues on
/// 100×100 boards asked for 4).
const OVERSHOOT: f64 = 1.02;

/// Rounds of merging and undoing: the undoing takes back about one merge in seven, and each
/// round after the first merges only that many again.
const ROUNDS: usize = 3;

/// Passes over the board in random order, keeping merges the local check accepts, until
/// `target` or a pass that merges under 3 % of the rectangles (then true: the merges ran out).
/// `None` when the run was stopped.
fn merge_passes(
    t: &mut Tiling,
    log: &mut Vec<Merge>,
    target: f64,
    rng: &mut Rng,
    solvers: &dyn NewSolver,
    note: &mut dyn FnMut(&Tiling),
) -> Result<Option<bool>, SolverError> {
    while !t.sparse_enough(target) {
        let before = t.live;
        let merge = &mut |t: &mut Tiling, k: usize, j: usize, merged: Rect, rng: &mut Rng| {
            let (rects, clues) = (
                (t.rects[k].expect("live"), t.rects[j].expect("live")),
                (t.clues[k], t.clues[j]),
            );
            let window = grow(merged, MARGIN, t.rows, t.cols);
            for _ in 0..TRIES {
                t.merge(k, j, merged, random_cell(merged, rng));
                match t.ambiguous_in(window, solvers)? {
                    None => return Ok(None),
                    Some(false) => {
                        log.push(Merge {
                            k,
                            j,
                            rects,
                            clues,
                            merged,
                        });
                        break;
                    }
                    Some(true) => t.split(k, j, rects, clues),
                }
            }
            Ok(Some(()))
        };
        if pass(t, target, rng, merge)?.is_none() {
            return Ok(None);
        }
        note(t);
        if (before - t.live) * 100 < 3 * before {
            return Ok(Some(true));
        }
    }
    Ok(Some(false))
}

/// Asks the whole board for second solutions and undoes merges until it has none: the puzzle
/// with true beside it, unique by that refutation; with false when a second solution touched
/// no merge (not expected: the puzzle was unique before them). `None` when stopped.
fn undo_second_solutions(
    t: &mut Tiling,
    log: &mut Vec<Merge>,
    solvers: &dyn NewSolver,
    note: &mut dyn FnMut(usize, usize, &Tiling),
) -> Result<Option<(Generated, bool)>, SolverError> {
    loop {
        let g = t.to_generated();
        let placement = super::generate::Placement::new(&g);
        let Some(others) = super::unique::second_solutions(&g, &placement, None, solvers)? else {
            return Ok(None);
        };
        if others.is_empty() {
            return Ok(Some((g, true)));
        }
        // Each region of a second solution is one on its own: undo the latest merge that
        // touches it (or a merge next to it, which may have removed a four-corner point on its
        // border). A later merge holding that one's rectangle would touch it too, so the
        // latest can always be undone alone.
        let mut undo: Vec<usize> = Vec::new();
        for other in &others {
            for region in placement.regions(&g, other) {
                let mut near = vec![false; t.rows * t.cols];
                for rect in &region {
                    grow(*rect, 1, t.rows, t.cols)
                        .cells()
                        .for_each(|(r, c)| near[r * t.cols + c] = true);
                }
                if let Some(i) = log
                    .iter()
                    .rposition(|m| m.merged.cells().any(|(r, c)| near[r * t.cols + c]))
                {
                    undo.push(i);
                }
            }
        }
        undo.sort_unstable();
        undo.dedup();
        for &i in undo.iter().rev() {
            let m = log.remove(i);
            t.split(m.k, m.j, m.rects, m.clues);
        }
        note(others.len(), undo.len(), t);
        if undo.is_empty() {
            return Ok(Some((g, false)));
        }
    }
}

fn pick<'a, T>(items: &'a [T], rng: &mut Rng) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[rng.below(items.len())])
}

fn random_cell(rect: Rect, rng: &mut Rng) -> (usize, usize) {
    (
        rect.row + rng.below(rect.height),
        rect.col + rng.below(rect.width),
    )
}

fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}
