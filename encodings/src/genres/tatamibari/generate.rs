//! Random puzzles: a random tiling by rectangles with no point where four meet, and one clue
//! of the right shape in each rectangle, so the puzzle is solvable by construction. Making the
//! solution unique needs a solver: `unique.rs` alternates between finding a second solution and
//! re-placing clues with [`Placement`] so that every second solution found so far is broken.

use super::{Board, Cell, Rect, Shape, Solution};
use crate::cnf::amo::exactly_one;
use crate::cnf::sum::{encode_sum, Bound, Use};
use crate::cnf::{ClauseSink, Lit, Model};
use std::collections::HashMap;

pub use crate::rng::Rng;

/// The longest side a generated rectangle gets: 100×100 boards come out with about 1,900
/// rectangles, like real puzzles' densities.
pub const MAX_SIDE: usize = 3;

/// A generated puzzle with the solution it was built from.
pub struct Generated {
    pub rows: usize,
    pub cols: usize,
    /// The planted tiling, sorted.
    pub rects: Vec<Rect>,
    /// The clue's cell in each planted rectangle.
    pub clues: Vec<(usize, usize)>,
}

impl Generated {
    pub fn new(rows: usize, cols: usize, rng: &mut Rng) -> Generated {
        let rects = tiling(rows, cols, rng);
        let clues = rects
            .iter()
            .map(|r| (r.row + rng.below(r.height), r.col + rng.below(r.width)))
            .collect();
        Generated {
            rows,
            cols,
            rects,
            clues,
        }
    }

    pub fn board(&self) -> Board {
        let mut cells = vec![Cell::Blank; self.rows * self.cols];
        for (rect, &(r, c)) in self.rects.iter().zip(&self.clues) {
            cells[r * self.cols + c] = Cell::Clue(Shape::of(rect.height, rect.width));
        }
        Board {
            rows: self.rows,
            cols: self.cols,
            cells,
        }
    }

    pub fn solution(&self) -> Solution {
        self.rects.clone()
    }

    /// Cells per clue (one clue per rectangle), what makers call sparsity.
    pub fn cells_per_clue(&self) -> f64 {
        (self.rows * self.cols) as f64 / self.rects.len().max(1) as f64
    }

    /// Splits rectangle `k` in two at a random line, when that makes no point where four
    /// rectangles meet; the new piece's clue goes where `target` keeps a count other than one.
    pub fn split(&mut self, k: usize, target: Rect, rng: &mut Rng) {
        let rect = self.rects[k];
        // Every cut line, horizontal and vertical, in random order; the first that makes no
        // four-corner point wins.
        let mut cuts: Vec<(bool, usize)> = (1..rect.height)
            .map(|h| (true, h))
            .chain((1..rect.width).map(|w| (false, w)))
            .collect();
        for i in (1..cuts.len()).rev() {
            cuts.swap(i, rng.below(i + 1));
        }
        let pieces = |&(horizontal, at): &(bool, usize)| {
            if horizontal {
                (
                    Rect { height: at, ..rect },
                    Rect {
                        row: rect.row + at,
                        height: rect.height - at,
                        ..rect
                    },
                )
            } else {
                (
                    Rect { width: at, ..rect },
                    Rect {
                        col: rect.col + at,
                        width: rect.width - at,
                        ..rect
                    },
                )
            }
        };
        let mut rects = self.rects.clone();
        rects.push(rect);
        let Some((a, b)) = cuts.iter().map(pieces).find(|&(a, b)| {
            rects[k] = a;
            *rects.last_mut().unwrap() = b;
            !has_four_corners(self.rows, self.cols, &rects)
        }) else {
            return;
        };
        let (old, new) = if a.contains(self.clues[k].0, self.clues[k].1) {
            (a, b)
        } else {
            (b, a)
        };
        // Keep `target` from holding exactly one clue: add to one it has, stay out of an empty one.
        let inside = self.clues.iter().any(|&(r, c)| target.contains(r, c));
        let mut cells: Vec<(usize, usize)> = new
            .cells()
            .filter(|&(r, c)| target.contains(r, c) == inside)
            .collect();
        if cells.is_empty() {
            cells = new.cells().collect();
        }
        let clue = cells[rng.below(cells.len())];
        self.rects[k] = old;
        self.rects.push(new);
        self.clues.push(clue);
        let mut order: Vec<usize> = (0..self.rects.len()).collect();
        order.sort_by_key(|&i| self.rects[i]);
        self.rects = order.iter().map(|&i| self.rects[i]).collect();
        self.clues = order.iter().map(|&i| self.clues[i]).collect();
    }

    /// Splits a planted rectangle where `other` differs from the planted solution, trying the
    /// largest first; returns the rectangle split, `None` when none can be split without a
    /// four-corner point. `other` lists the second solution's rectangles (those that are not
    /// planted ones matter).
    pub fn split_where_differing(&mut self, other: &[Rect], rng: &mut Rng) -> Option<Rect> {
        let targets: Vec<Rect> = other
            .iter()
            .filter(|r| self.rects.binary_search(r).is_err())
            .copied()
            .collect();
        let mut differing: Vec<usize> = (0..self.rects.len())
            .filter(|&k| {
                targets
                    .iter()
                    .any(|t| t.cells().any(|(r, c)| self.rects[k].contains(r, c)))
            })
            .collect();
        differing.sort_by_key(|&k| std::cmp::Reverse(self.rects[k].height * self.rects[k].width));
        let planted: Vec<Rect> = differing.iter().map(|&k| self.rects[k]).collect();
        for rect in planted {
            let Ok(k) = self.rects.binary_search(&rect) else {
                continue;
            };
            let Some(&target) = targets
                .iter()
                .find(|t| t.cells().any(|(r, c)| rect.contains(r, c)))
            else {
                continue;
            };
            let before = self.rects.len();
            self.split(k, target, rng);
            if self.rects.len() > before {
                return Some(rect);
            }
        }
        None
    }
}

impl Generated {
    /// Merges a planted rectangle overlapping `other`'s new rectangles with a neighbour that
    /// shares a whole side with it, at random. Merging
    /// only removes an edge, so it never makes a point where four rectangles meet, and it always
    /// changes what the clues allow nearby. Unions listed in `avoid` (rectangles split before)
    /// are not made again, so split and merge do not undo each other forever. Returns the
    /// merged rectangle, or `None`.
    pub fn merge_where_differing(
        &mut self,
        other: &[Rect],
        avoid: &[Rect],
        rng: &mut Rng,
    ) -> Option<Rect> {
        let targets: Vec<Rect> = other
            .iter()
            .filter(|r| self.rects.binary_search(r).is_err())
            .copied()
            .collect();
        let overlaps = |p: &Rect| {
            targets
                .iter()
                .any(|t| t.cells().any(|(r, c)| p.contains(r, c)))
        };
        let mut pairs = Vec::new();
        for (i, a) in self.rects.iter().enumerate() {
            if !overlaps(a) {
                continue;
            }
            for (j, b) in self.rects.iter().enumerate() {
                let below = b.row == a.row + a.height && b.col == a.col && b.width == a.width;
                let right = b.col == a.col + a.width && b.row == a.row && b.height == a.height;
                if (below || right)
                    && !avoid.contains(&Rect {
                        row: a.row,
                        col: a.col,
                        height: b.row + b.height - a.row,
                        width: b.col + b.width - a.col,
                    })
                {
                    pairs.push((i, j));
                }
            }
        }
        if pairs.is_empty() {
            return None;
        }
        let (i, j) = pairs[rng.below(pairs.len())];
        let (a, b) = (self.rects[i], self.rects[j]);
        let merged = Rect {
            row: a.row,
            col: a.col,
            height: b.row + b.height - a.row,
            width: b.col + b.width - a.col,
        };
        self.rects[i] = merged;
        self.rects.remove(j);
        self.clues.remove(j);
        Some(merged)
    }
}

impl Generated {
    /// Tiles anew the planted rectangles that meet `window` (random clues in the new ones),
    /// trying a few random fillings for one that makes no four-corner point with the
    /// rectangles around; returns the area changed (a rectangle holding every new one), or
    /// `None` when no try worked (nothing changed then). Each try works on the cells around
    /// the rectangles taken out only, not on the whole board.
    pub fn retile_window(&mut self, window: Rect, rng: &mut Rng) -> Option<Rect> {
        const TRIES: usize = 200;
        let meets = |r: &Rect| overlap(r, &window);
        let gone: Vec<Rect> = self.rects.iter().filter(|r| meets(r)).copied().collect();
        let changed = bounds(&gone)?;
        // The cells a filling looks at: the ones taken out and a margin of one around them.
        let area = grow(changed, 1, self.rows, self.cols);
        let near: Vec<Rect> = self
            .rects
            .iter()
            .filter(|r| !meets(r) && overlap(r, &area))
            .copied()
            .collect();
        for _ in 0..TRIES {
            let mut local = Local::new(area, &near);
            let fresh = local.fill(self.rows, self.cols, rng);
            if local.has_four_corners(&fresh) {
                continue;
            }
            let mut rects: Vec<Rect> = self
                .rects
                .iter()
                .filter(|r| !meets(r))
                .chain(&fresh)
                .copied()
                .collect();
            rects.sort();
            let old: HashMap<Rect, (usize, usize)> = self
                .rects
                .iter()
                .copied()
                .zip(self.clues.iter().copied())
                .collect();
            self.clues = rects
                .iter()
                .map(|r| {
                    old.get(r).copied().unwrap_or_else(|| {
                        (r.row + rng.below(r.height), r.col + rng.below(r.width))
                    })
                })
                .collect();
            self.rects = rects;
            return Some(changed);
        }
        None
    }
}

/// The smallest rectangle holding all of `rects`.
pub fn bounds(rects: &[Rect]) -> Option<Rect> {
    let top = rects.iter().map(|r| r.row).min()?;
    let left = rects.iter().map(|r| r.col).min()?;
    let bottom = rects.iter().map(|r| r.row + r.height).max()?;
    let right = rects.iter().map(|r| r.col + r.width).max()?;
    Some(Rect {
        row: top,
        col: left,
        height: bottom - top,
        width: right - left,
    })
}

/// `r` with `margin` more cells on every side, within a `rows × cols` board.
pub(super) fn grow(r: Rect, margin: usize, rows: usize, cols: usize) -> Rect {
    let (row, col) = (r.row.saturating_sub(margin), r.col.saturating_sub(margin));
    Rect {
        row,
        col,
        height: (r.row + r.height + margin).min(rows) - row,
        width: (r.col + r.width + margin).min(cols) - col,
    }
}

fn overlap(a: &Rect, b: &Rect) -> bool {
    a.row < b.row + b.height
        && b.row < a.row + a.height
        && a.col < b.col + b.width
        && b.col < a.col + a.width
}

/// The cells of `area` during a local filling: which rectangle covers each (`near` ones first,
/// then the new ones), none for the cells still to fill.
struct Local {
    area: Rect,
    rects: Vec<Rect>,
    owner: Vec<Option<usize>>,
}

impl Local {
    fn new(area: Rect, near: &[Rect]) -> Local {
        let mut local = Local {
            area,
            rects: Vec::with_capacity(near.len() * 2),
            owner: vec![None; area.height * area.width],
        };
        near.iter().for_each(|&r| local.push(r));
        local
    }

    fn push(&mut self, rect: Rect) {
        let k = self.rects.len();
        self.rects.push(rect);
        for (r, c) in rect.cells().filter(|&(r, c)| self.area.contains(r, c)) {
            self.owner[(r - self.area.row) * self.area.width + c - self.area.col] = Some(k);
        }
    }

    /// The rectangle covering (r, c); cells outside the area count as covered by one that does
    /// not end or start there.
    fn at(&self, r: usize, c: usize) -> Result<Option<usize>, ()> {
        if self.area.contains(r, c) {
            Ok(self.owner[(r - self.area.row) * self.area.width + c - self.area.col])
        } else {
            Err(())
        }
    }

    fn free(&self, r: usize, c: usize) -> bool {
        self.at(r, c) == Ok(None)
    }

    fn ends_at(&self, r: usize, c: usize) -> bool {
        matches!(self.at(r, c), Ok(Some(k)) if { let q = self.rects[k]; q.row + q.height - 1 == r && q.col + q.width - 1 == c })
    }

    fn starts_at(&self, r: usize, c: usize) -> bool {
        matches!(self.at(r, c), Ok(Some(k)) if (self.rects[k].row, self.rects[k].col) == (r, c))
    }

    /// Fills the free cells of the area with random rectangles (every free cell of the board is
    /// in it, and the rectangles it looks at around them are in it too); returns the new ones.
    ///
    /// Rectangles are placed at the first free cell in row-major order, so that cell is the
    /// new rectangle's top-left. Four rectangles meet at the point above-left of a top-left cell
    /// exactly when the rectangle covering the diagonal neighbour ends there; that is decided
    /// when the rectangle to the left is given its width, so widths that would force it are
    /// avoided (the widest possible one is always safe: it runs into a covered cell or the
    /// border). Heights avoid ending diagonally before a given rectangle's top-left. On a full
    /// board that makes no four-corner point; around given rectangles it still can, which the
    /// caller checks.
    fn fill(&mut self, rows: usize, cols: usize, rng: &mut Rng) -> Vec<Rect> {
        let first = self.rects.len();
        let area = self.area;
        for r in area.row..area.row + area.height {
            for c in area.col..area.col + area.width {
                if !self.free(r, c) {
                    continue;
                }
                let run = (c..cols).take_while(|&x| self.free(r, x)).count();
                // Width w ends at column c + w − 1; unsafe if the next cell is free and the
                // rectangle above-right's diagonal neighbour ends right there.
                let safe = |w: usize| {
                    let e = c + w - 1;
                    w == run || r == 0 || !self.ends_at(r - 1, e)
                };
                let choices: Vec<usize> = (1..=run.min(MAX_SIDE)).filter(|&w| safe(w)).collect();
                let width = if choices.is_empty() {
                    (MAX_SIDE + 1..=run).find(|&w| safe(w)).unwrap_or(run) // the shortest safe one
                } else {
                    choices[rng.below(choices.len())]
                };
                // Rows below are free on a full board; around given rectangles they may not
                // be, and ending diagonally before one of those would make a four-corner point.
                let free_rows = (r..rows)
                    .take_while(|&rr| (c..c + width).all(|cc| self.free(rr, cc)))
                    .count();
                // A free cell diagonally after the end whose left neighbour is given will
                // start a rectangle too (nothing to its left can be widened into it).
                let will_start = |r: usize, c: usize| self.free(r, c) && !self.free(r, c - 1);
                let heights: Vec<usize> = (1..=MAX_SIDE.min(free_rows))
                    .filter(|&h| !self.starts_at(r + h, c + width) && !will_start(r + h, c + width))
                    .collect();
                let height = if heights.is_empty() {
                    1 + rng.below(MAX_SIDE.min(free_rows))
                } else {
                    heights[rng.below(heights.len())]
                };
                self.push(Rect {
                    row: r,
                    col: c,
                    height,
                    width,
                });
            }
        }
        self.rects.split_off(first)
    }

    /// Do four rectangles meet at a corner of one of `fresh` (the only points where a new
    /// four-corner point can be: the others' rectangles are all old)? At an inner point, under
    /// exact cover, exactly when its four cells' rectangles differ side by side.
    fn has_four_corners(&self, fresh: &[Rect]) -> bool {
        // `fresh` was just split off `rects`, so their numbers follow the near ones: the
        // owners in the area still name them.
        fresh.iter().any(|f| {
            [
                (f.row, f.col),
                (f.row, f.col + f.width),
                (f.row + f.height, f.col),
                (f.row + f.height, f.col + f.width),
            ]
            .into_iter()
            .any(|(pr, pc)| {
                if pr == 0 || pc == 0 {
                    return false;
                }
                let cells = [
                    self.at(pr - 1, pc - 1),
                    self.at(pr - 1, pc),
                    self.at(pr, pc - 1),
                    self.at(pr, pc),
                ];
                let [Ok(Some(a)), Ok(Some(b)), Ok(Some(c)), Ok(Some(d))] = cells else {
                    return false;
                };
                a != b && a != c && b != d && c != d
            })
        })
    }
}

/// Choosing where each planted rectangle's clue goes so that no known second solution stays
/// valid (counterexample-guided: each second solution the checker finds becomes clauses of a
/// [`PlacementFormula`]).
///
/// A rectangle R of a second solution is *broken* when it holds no clue, two clues, or a clue of
/// the wrong shape; a second solution is excluded by "one of its new rectangles is broken",
/// taken region by region (each connected region where it differs from the planted solution is
/// a second solution on its own, up to four-corner points on its border, so excluding them one
/// by one converges much faster). This holds what is fixed while the tiling is: which planted
/// rectangle covers each cell.
pub struct Placement {
    /// The planted rectangle covering each cell.
    planted_at: Vec<usize>,
}

impl Placement {
    pub fn new(g: &Generated) -> Placement {
        let mut p = Placement {
            planted_at: Vec::new(),
        };
        p.retile(g);
        p
    }

    /// Follows a change of `g`'s tiling.
    pub fn retile(&mut self, g: &Generated) {
        self.planted_at = vec![usize::MAX; g.rows * g.cols];
        for (k, rect) in g.rects.iter().enumerate() {
            rect.cells()
                .for_each(|(r, c)| self.planted_at[r * g.cols + c] = k);
        }
    }

    /// The planted rectangle covering cell (r, c), by its index in `g.rects`.
    pub fn owner(&self, g: &Generated, r: usize, c: usize) -> usize {
        self.planted_at[r * g.cols + c]
    }

    /// Is `target` broken with the clues where `g` has them now?
    pub fn is_broken(&self, g: &Generated, target: &Rect) -> bool {
        let inside: Vec<usize> = self
            .reads(g, target)
            .into_iter()
            .filter(|&k| target.contains(g.clues[k].0, g.clues[k].1))
            .collect();
        match inside[..] {
            [k] => {
                Shape::of(g.rects[k].height, g.rects[k].width)
                    != Shape::of(target.height, target.width)
            }
            _ => true,
        }
    }

    /// Do the clues where `g` has them now break `region`?
    pub fn excludes(&self, g: &Generated, region: &[Rect]) -> bool {
        region.iter().any(|t| self.is_broken(g, t))
    }

    /// The planted rectangles whose clues decide whether `target` is broken.
    pub fn reads(&self, g: &Generated, target: &Rect) -> Vec<usize> {
        let mut ks: Vec<usize> = target
            .cells()
            .map(|(r, c)| self.planted_at[r * g.cols + c])
            .collect();
        ks.sort_unstable();
        ks.dedup();
        ks
    }

    /// The regions of a second solution, given as its `new_rects` (where it differs from the
    /// planted solution): those grouped by the planted rectangles they overlap, and regions that touch merged (alone, either
    /// could make a four-corner point on their common border). Each is then a second solution
    /// on its own, with the planted solution everywhere else.
    pub fn regions(&self, g: &Generated, new_rects: &[Rect]) -> Vec<Vec<Rect>> {
        let (cols, planted_at) = (g.cols, &self.planted_at);
        let mut parent: Vec<usize> = (0..new_rects.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let mut seen = vec![usize::MAX; g.rects.len()];
        for (i, rect) in new_rects.iter().enumerate() {
            for (r, c) in rect.cells() {
                let k = planted_at[r * cols + c];
                if seen[k] == usize::MAX {
                    seen[k] = i;
                } else {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, seen[k]));
                    parent[a] = b;
                }
            }
        }
        let touch = |a: &Rect, b: &Rect| {
            a.row <= b.row + b.height
                && b.row <= a.row + a.height
                && a.col <= b.col + b.width
                && b.col <= a.col + a.width
        };
        for i in 0..new_rects.len() {
            for j in i + 1..new_rects.len() {
                if touch(&new_rects[i], &new_rects[j]) {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    parent[a] = b;
                }
            }
        }
        let mut by_root: Vec<Vec<Rect>> = vec![Vec::new(); new_rects.len()];
        for (i, &rect) in new_rects.iter().enumerate() {
            let r = root(&mut parent, i);
            by_root[r].push(rect);
        }
        by_root.into_iter().filter(|v| !v.is_empty()).collect()
    }
}

/// The clauses of clue placements under a set of exclusions, over one solver: `y[R][x]` says
/// the clue of planted rectangle R is on its x-th cell (exactly one per rectangle), made only
/// for the rectangles an exclusion reads, so the formula is the size of the ambiguities it
/// excludes, not of the board.
pub struct PlacementFormula<'a> {
    placement: &'a Placement,
    y: HashMap<Rect, Vec<Lit>>,
    broken: HashMap<Rect, Lit>,
}

impl<'a> PlacementFormula<'a> {
    pub fn new(placement: &'a Placement) -> PlacementFormula<'a> {
        PlacementFormula {
            placement,
            y: HashMap::new(),
            broken: HashMap::new(),
        }
    }

    /// The clue literals of rectangle k, made on first use.
    fn lits<S: ClauseSink>(&mut self, g: &Generated, k: usize, sink: &mut S) -> &[Lit] {
        let rect = g.rects[k];
        self.y.entry(rect).or_insert_with(|| {
            let lits: Vec<Lit> = rect.cells().map(|_| sink.new_var()).collect();
            exactly_one(sink, &lits);
            lits
        })
    }

    /// The literal saying the clue of rectangle k is on cell (r, c), if k has literals (it has
    /// once an exclusion reads it).
    pub fn at(&self, g: &Generated, k: usize, (r, c): (usize, usize)) -> Option<Lit> {
        let rect = g.rects[k];
        self.y
            .get(&rect)
            .map(|y| y[(r - rect.row) * rect.width + (c - rect.col)])
    }

    /// Where the model puts the clue of rectangle k, which has literals.
    pub fn clue(&self, g: &Generated, k: usize, model: &Model) -> (usize, usize) {
        g.rects[k]
            .cells()
            .zip(&self.y[&g.rects[k]])
            .find(|(_, &l)| model.value(l))
            .expect("exactly one")
            .0
    }

    /// Adds "one rectangle of `region` is broken", guarded by a fresh literal that is returned:
    /// assume it to enforce the exclusion (a failed core then names the regions in conflict).
    pub fn exclude_region<S: ClauseSink>(
        &mut self,
        g: &Generated,
        sink: &mut S,
        region: &[Rect],
    ) -> Lit {
        let active = sink.new_var();
        let mut clause = vec![!active];
        clause.extend(region.iter().map(|&rect| self.broken(g, sink, rect)));
        sink.add_clause(&clause);
        active
    }

    /// A literal that implies `target` is broken (no clue, two clues, or a wrong-shaped one).
    fn broken<S: ClauseSink>(&mut self, g: &Generated, sink: &mut S, target: Rect) -> Lit {
        if let Some(&l) = self.broken.get(&target) {
            return l;
        }
        let ks = self.placement.reads(g, &target);
        let shape = Shape::of(target.height, target.width);
        let broken = sink.new_var();
        let none = sink.new_var();
        let mut clause = vec![!broken, none];
        let mut holds = Vec::new(); // z_k → the clue of k is in target
        for &k in &ks {
            let all = self.lits(g, k, sink);
            let lits: Vec<Lit> = g.rects[k]
                .cells()
                .zip(all)
                .filter(|&((r, c), _)| target.contains(r, c))
                .map(|(_, &l)| l)
                .collect();
            for &l in &lits {
                sink.add_clause(&[!none, !l]);
            }
            if Shape::of(g.rects[k].height, g.rects[k].width) != shape {
                clause.extend(&lits);
            }
            let z = sink.new_var();
            let mut c = vec![!z];
            c.extend(&lits);
            sink.add_clause(&c);
            holds.push(vec![(z, 1)]);
        }
        // Two clues: only where two rectangles reach into the target (no unit clause
        // otherwise: each new unit makes varisat sweep all its binary clauses).
        if let Bound::Lit(two) = encode_sum(sink, &holds, Some(2), Use::AtLeast).at_least(2) {
            clause.push(two);
        }
        sink.add_clause(&clause);
        self.broken.insert(target, broken);
        broken
    }
}

/// Does a tiling of a full board have a point where four rectangles meet? Under exact cover,
/// exactly when some rectangle's top-left cell has a diagonal neighbour that ends a rectangle.
fn has_four_corners(rows: usize, cols: usize, rects: &[Rect]) -> bool {
    let mut ends = vec![false; rows * cols];
    for r in rects {
        ends[(r.row + r.height - 1) * cols + r.col + r.width - 1] = true;
    }
    rects
        .iter()
        .any(|r| r.row > 0 && r.col > 0 && ends[(r.row - 1) * cols + r.col - 1])
}

/// A random tiling of a full `rows × cols` board with no point where four rectangles meet
/// (see [`Local::fill`]).
fn tiling(rows: usize, cols: usize, rng: &mut Rng) -> Vec<Rect> {
    let mut rects = Local::new(
        Rect {
            row: 0,
            col: 0,
            height: rows,
            width: cols,
        },
        &[],
    )
    .fill(rows, cols, rng);
    rects.sort();
    rects
}

#[cfg(test)]
mod tests {
    use super::super::{check_rects, render_rects};
    use super::*;

    #[test]
    fn planted_solutions_pass_the_independent_checker() {
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            let (rows, cols) = (1 + rng.below(30), 1 + rng.below(30));
            let g = Generated::new(rows, cols, &mut rng);
            assert_eq!(
                check_rects(&g.board(), &g.rects),
                Ok(()),
                "seed {seed}\n{}",
                render_rects(&g.rects)
            );
        }
    }

    #[test]
    fn placement_breaks_every_excluded_rectangle() {
        use crate::cnf::testing::satisfiable;
        use crate::cnf::Cnf;
        let mut tried = 0;
        for seed in 0..300 {
            let mut rng = Rng::new(seed);
            let g = Generated::new(5, 5, &mut rng);
            // A would-be rectangle of a second solution: a planted one widened by a column.
            let k = rng.below(g.rects.len());
            let p = g.rects[k];
            if p.col + p.width >= g.cols {
                continue;
            }
            let target = Rect {
                width: p.width + 1,
                ..p
            };
            let mut cnf = Cnf::new();
            let placement = Placement::new(&g);
            let mut pl = PlacementFormula::new(&placement);
            let active = pl.exclude_region(&g, &mut cnf, &[target]);
            tried += 1;
            // Clues where the planted generator put them, except k's, tried on every cell.
            for cell in p.cells() {
                let mut clues = g.clues.clone();
                clues[k] = cell;
                let mut assume: Vec<Lit> = clues
                    .iter()
                    .enumerate()
                    .filter_map(|(q, &c)| pl.at(&g, q, c))
                    .collect();
                assume.push(active);
                let in_target: Vec<usize> = (0..g.rects.len())
                    .filter(|&q| target.contains(clues[q].0, clues[q].1))
                    .collect();
                let fine = in_target.len() == 1
                    && Shape::of(g.rects[in_target[0]].height, g.rects[in_target[0]].width)
                        == Shape::of(target.height, target.width);
                assert_eq!(
                    satisfiable(&cnf, &assume),
                    !fine,
                    "seed {seed}, clue of {k} at {cell:?}"
                );
            }
        }
        assert!(tried > 50);
    }

    #[test]
    fn same_seed_same_puzzle() {
        let a = Generated::new(12, 9, &mut Rng::new(42)).board();
        let b = Generated::new(12, 9, &mut Rng::new(42)).board();
        assert_eq!(a, b);
        assert_ne!(a, Generated::new(12, 9, &mut Rng::new(43)).board());
    }

    #[test]
    fn tiling_anew_keeps_the_rest_and_makes_no_four_corner_point() {
        let (mut done, mut tried) = (0, 0);
        for seed in 0..200 {
            let mut rng = Rng::new(seed);
            let mut g = Generated::new(20, 20, &mut rng);
            let window = Rect {
                row: rng.below(16),
                col: rng.below(16),
                height: 1 + rng.below(4),
                width: 1 + rng.below(4),
            };
            let before = g.rects.clone();
            tried += 1;
            let Some(area) = g.retile_window(window, &mut rng) else {
                assert_eq!(g.rects, before, "seed {seed}: a failed try changes nothing");
                continue;
            };
            done += 1;
            assert_eq!(
                check_rects(&g.board(), &g.rects),
                Ok(()),
                "seed {seed}\n{}",
                render_rects(&g.rects)
            );
            for r in &before {
                let outside = r.cells().all(|(a, b)| !area.contains(a, b));
                assert!(
                    !outside || g.rects.contains(r),
                    "seed {seed}: {r:?} outside {area:?} was changed"
                );
            }
        }
        assert!(
            done * 10 >= tried * 9,
            "only {done} of {tried} windows tiled anew"
        );
    }

    #[test]
    fn the_local_four_corner_check_agrees_with_the_whole_board_one() {
        let (mut bad, mut good) = (0, 0);
        for seed in 0..300 {
            let mut rng = Rng::new(seed);
            let g = Generated::new(15, 15, &mut rng);
            let window = Rect {
                row: rng.below(12),
                col: rng.below(12),
                height: 1 + rng.below(4),
                width: 1 + rng.below(4),
            };
            let gone: Vec<Rect> = g
                .rects
                .iter()
                .filter(|r| overlap(r, &window))
                .copied()
                .collect();
            let area = grow(bounds(&gone).unwrap(), 1, 15, 15);
            let kept: Vec<Rect> = g
                .rects
                .iter()
                .filter(|r| !overlap(r, &window))
                .copied()
                .collect();
            let near: Vec<Rect> = kept.iter().filter(|r| overlap(r, &area)).copied().collect();
            let mut local = Local::new(area, &near);
            let fresh = local.fill(15, 15, &mut rng);
            let mut all: Vec<Rect> = kept.iter().chain(&fresh).copied().collect();
            all.sort();
            let cells: usize = all.iter().map(|r| r.height * r.width).sum();
            assert_eq!(
                cells, 225,
                "seed {seed}: the filling covers the cells taken out exactly"
            );
            let whole = has_four_corners(15, 15, &all);
            assert_eq!(
                local.has_four_corners(&fresh),
                whole,
                "seed {seed}\n{}",
                render_rects(&all)
            );
            if whole {
                bad += 1
            } else {
                good += 1
            }
        }
        assert!(
            bad > 10 && good > 10,
            "{bad} with a four-corner point, {good} without"
        );
    }

    #[test]
    fn merging_keeps_a_valid_tiling() {
        let mut merged = 0;
        for seed in 0..200 {
            let mut rng = Rng::new(seed);
            let mut g = Generated::new(12, 12, &mut rng);
            let n = g.rects.len();
            let all = [Rect {
                row: 0,
                col: 0,
                height: 12,
                width: 12,
            }]; // overlaps every planted one, is none (sides ≤ 3)
            if g.merge_where_differing(&all, &[], &mut rng).is_some() {
                merged += 1;
                assert_eq!(g.rects.len(), n - 1);
                assert_eq!(
                    check_rects(&g.board(), &g.rects),
                    Ok(()),
                    "seed {seed}\n{}",
                    render_rects(&g.rects)
                );
            }
        }
        assert!(merged > 100);
    }
}
