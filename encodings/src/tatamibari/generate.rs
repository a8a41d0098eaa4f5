//! Random puzzles: a random tiling by rectangles with no point where four meet, and one clue
//! of the right shape in each rectangle, so the puzzle is solvable by construction. Making the
//! solution unique needs a solver; the driver loops over [`Generated::perturb`] for that.

use super::{Board, Cell, Rect, Shape, Solution};

/// A small deterministic generator (SplitMix64): seeds give the same puzzle on every machine
/// and every version of the dependencies.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

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
        let clues = rects.iter().map(|r| (r.row + rng.below(r.height), r.col + rng.below(r.width))).collect();
        Generated { rows, cols, rects, clues }
    }

    pub fn board(&self) -> Board {
        let mut cells = vec![Cell::Blank; self.rows * self.cols];
        for (rect, &(r, c)) in self.rects.iter().zip(&self.clues) {
            cells[r * self.cols + c] = Cell::Clue(Shape::of(rect.height, rect.width));
        }
        Board { rows: self.rows, cols: self.cols, cells }
    }

    pub fn solution(&self) -> Solution {
        self.rects.clone()
    }

    /// Changes the puzzle so that `other` (a second solution) is no longer one, keeping the
    /// planted solution valid. In each region where the two differ, one rectangle `R` of
    /// `other` is broken by moving one clue within its planted rectangle: the clue `R` holds is
    /// moved out of `R`, or, when its planted rectangle lies inside `R`, a neighbour's clue is
    /// moved into `R` so that it holds two. Every move is certain to exclude `other`; one move
    /// per region keeps the rest of the puzzle as it was.
    pub fn perturb(&mut self, other: &Solution, rng: &mut Rng) {
        let cols = self.cols;
        let mut planted_at = vec![usize::MAX; self.rows * cols];
        for (k, rect) in self.rects.iter().enumerate() {
            rect.cells().for_each(|(r, c)| planted_at[r * cols + c] = k);
        }
        let new_rects: Vec<&Rect> = other.iter().filter(|r| self.rects.binary_search(r).is_err()).collect();
        // Regions: new rectangles linked through the planted rectangles they overlap.
        let mut region: Vec<usize> = (0..new_rects.len()).collect();
        fn find(region: &mut [usize], i: usize) -> usize {
            let mut i = i;
            while region[i] != i {
                region[i] = region[region[i]];
                i = region[i];
            }
            i
        }
        let mut first_by_planted = vec![usize::MAX; self.rects.len()];
        for (i, rect) in new_rects.iter().enumerate() {
            for (r, c) in rect.cells() {
                let k = planted_at[r * cols + c];
                if first_by_planted[k] == usize::MAX {
                    first_by_planted[k] = i;
                } else {
                    let (a, b) = (find(&mut region, i), find(&mut region, first_by_planted[k]));
                    region[a] = b;
                }
            }
        }
        let mut by_region: Vec<Vec<usize>> = vec![Vec::new(); new_rects.len()];
        for i in 0..new_rects.len() {
            let root = find(&mut region, i);
            by_region[root].push(i);
        }
        let pick = |rng: &mut Rng, cells: &[(usize, usize)]| cells[rng.below(cells.len())];
        let mut splits = Vec::new();
        for members in by_region.into_iter().filter(|m| !m.is_empty()) {
            let target = *new_rects[members[rng.below(members.len())]];
            let Some(k) = (0..self.rects.len()).find(|&k| target.contains(self.clues[k].0, self.clues[k].1)) else {
                continue; // cannot happen for a real solution: every rectangle holds a clue
            };
            // Half the time, also split the largest planted rectangle there (one clue more):
            // big rectangles with one clue are where second solutions keep coming from.
            if rng.below(2) == 0 {
                let mut overlapping: Vec<usize> = target.cells().map(|(r, c)| planted_at[r * cols + c]).collect();
                overlapping.sort_unstable();
                overlapping.dedup();
                let area = |q: usize| self.rects[q].height * self.rects[q].width;
                let largest = overlapping.iter().map(|&q| area(q)).max().unwrap_or(0);
                overlapping.retain(|&q| area(q) == largest);
                splits.push((overlapping[rng.below(overlapping.len())], target));
            }
            let outside: Vec<(usize, usize)> = self.rects[k].cells().filter(|&(r, c)| !target.contains(r, c)).collect();
            if !outside.is_empty() {
                self.clues[k] = pick(rng, &outside);
                continue;
            }
            // The clue's planted rectangle lies inside `target`: pull in a neighbour's clue.
            let mut neighbours: Vec<usize> = target.cells().map(|(r, c)| planted_at[r * cols + c]).filter(|&q| q != k).collect();
            neighbours.sort_unstable();
            neighbours.dedup();
            if neighbours.is_empty() {
                continue;
            }
            let q = neighbours[rng.below(neighbours.len())];
            let inside: Vec<(usize, usize)> = self.rects[q].cells().filter(|&(r, c)| target.contains(r, c)).collect();
            self.clues[q] = pick(rng, &inside);
        }
        // Splits append rectangles, so they come last, by planted index.
        for (k, target) in splits {
            self.split(k, target, rng);
        }
        let mut order: Vec<usize> = (0..self.rects.len()).collect();
        order.sort_by_key(|&i| self.rects[i]);
        self.rects = order.iter().map(|&i| self.rects[i]).collect();
        self.clues = order.iter().map(|&i| self.clues[i]).collect();
    }

    /// Splits rectangle `k` in two at a random line, when that makes no point where four
    /// rectangles meet; the new piece's clue goes where `target` keeps a count other than one.
    fn split(&mut self, k: usize, target: Rect, rng: &mut Rng) {
        let rect = self.rects[k];
        // Every cut line, horizontal and vertical, in random order; the first that makes no
        // four-corner point wins.
        let mut cuts: Vec<(bool, usize)> =
            (1..rect.height).map(|h| (true, h)).chain((1..rect.width).map(|w| (false, w))).collect();
        for i in (1..cuts.len()).rev() {
            cuts.swap(i, rng.below(i + 1));
        }
        let pieces = |&(horizontal, at): &(bool, usize)| {
            if horizontal {
                (Rect { height: at, ..rect }, Rect { row: rect.row + at, height: rect.height - at, ..rect })
            } else {
                (Rect { width: at, ..rect }, Rect { col: rect.col + at, width: rect.width - at, ..rect })
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
        let (old, new) = if a.contains(self.clues[k].0, self.clues[k].1) { (a, b) } else { (b, a) };
        // Keep `target` from holding exactly one clue: add to one it has, stay out of an empty one.
        let inside = self.clues.iter().any(|&(r, c)| target.contains(r, c));
        let mut cells: Vec<(usize, usize)> = new.cells().filter(|&(r, c)| target.contains(r, c) == inside).collect();
        if cells.is_empty() {
            cells = new.cells().collect();
        }
        let clue = cells[rng.below(cells.len())];
        self.rects[k] = old;
        self.rects.push(new);
        self.clues.push(clue);
    }
}

/// Does a tiling of a full board have a point where four rectangles meet? Under exact cover,
/// exactly when some rectangle's top-left cell has a diagonal neighbour that ends a rectangle.
fn has_four_corners(rows: usize, cols: usize, rects: &[Rect]) -> bool {
    let mut ends = vec![false; rows * cols];
    for r in rects {
        ends[(r.row + r.height - 1) * cols + r.col + r.width - 1] = true;
    }
    rects.iter().any(|r| r.row > 0 && r.col > 0 && ends[(r.row - 1) * cols + r.col - 1])
}

/// A random tiling of a full `rows × cols` board with no point where four rectangles meet.
///
/// Rectangles are placed at the first uncovered cell in row-major order, so that cell is the
/// new rectangle's top-left. Four rectangles meet at the point above-left of a top-left cell
/// exactly when the rectangle covering the diagonal neighbour ends there; that is decided when
/// the rectangle to the left is given its width, so widths that would force it are avoided
/// (the widest possible one is always safe: it runs into a covered cell or the border).
fn tiling(rows: usize, cols: usize, rng: &mut Rng) -> Vec<Rect> {
    let mut owner: Vec<Option<usize>> = vec![None; rows * cols];
    let mut rects: Vec<Rect> = Vec::new();
    let ends_at = |rects: &[Rect], owner: &[Option<usize>], r: usize, c: usize| {
        owner[r * cols + c].is_some_and(|k| {
            let q = rects[k];
            q.row + q.height - 1 == r && q.col + q.width - 1 == c
        })
    };
    for r in 0..rows {
        for c in 0..cols {
            if owner[r * cols + c].is_some() {
                continue;
            }
            let run = (c..cols).take_while(|&x| owner[r * cols + x].is_none()).count();
            // Width w ends at column c + w − 1; unsafe if the next cell is free and the
            // rectangle above-right's diagonal neighbour ends right there.
            let safe = |w: usize| {
                let e = c + w - 1;
                w == run || r == 0 || !ends_at(&rects, &owner, r - 1, e)
            };
            let choices: Vec<usize> = (1..=run.min(MAX_SIDE)).filter(|&w| safe(w)).collect();
            let width = if choices.is_empty() {
                (MAX_SIDE + 1..=run).find(|&w| safe(w)).unwrap_or(run) // the shortest safe one
            } else {
                choices[rng.below(choices.len())]
            };
            let height = 1 + rng.below(MAX_SIDE.min(rows - r));
            let k = rects.len();
            rects.push(Rect { row: r, col: c, height, width });
            for rr in r..r + height {
                for cc in c..c + width {
                    owner[rr * cols + cc] = Some(k);
                }
            }
        }
    }
    rects.sort();
    rects
}

#[cfg(test)]
mod tests {
    use super::super::{check, render_rects};
    use super::*;

    /// Labels from a planted tiling, for the independent checker (beyond the 61 seed labels).
    fn labels(g: &Generated) -> Vec<char> {
        let mut out = vec![' '; g.rows * g.cols];
        for (k, rect) in g.rects.iter().enumerate() {
            for (r, c) in rect.cells() {
                out[r * g.cols + c] = char::from_u32(0x4e00 + k as u32).unwrap();
            }
        }
        out
    }

    #[test]
    fn planted_solutions_pass_the_independent_checker() {
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            let (rows, cols) = (1 + rng.below(30), 1 + rng.below(30));
            let g = Generated::new(rows, cols, &mut rng);
            assert_eq!(check(&g.board(), &labels(&g)), Ok(()), "seed {seed}\n{}", render_rects(&g.rects));
        }
    }

    #[test]
    fn perturbing_breaks_the_other_rectangle_and_keeps_the_planted_solution() {
        let mut tried = 0;
        for seed in 0..200 {
            let mut rng = Rng::new(seed);
            let mut g = Generated::new(12, 12, &mut rng);
            // A rectangle of a would-be second solution: a planted one widened by a column.
            let k = rng.below(g.rects.len());
            let p = g.rects[k];
            if p.col + p.width >= g.cols {
                continue;
            }
            let target = Rect { width: p.width + 1, ..p };
            let clues_in = |g: &Generated| g.clues.iter().filter(|&&(r, c)| target.contains(r, c)).count();
            if clues_in(&g) != 1 {
                continue;
            }
            tried += 1;
            g.perturb(&vec![target], &mut rng);
            assert_ne!(clues_in(&g), 1, "seed {seed}");
            assert_eq!(check(&g.board(), &labels(&g)), Ok(()), "seed {seed}");
        }
        assert!(tried > 20);
    }

    #[test]
    fn same_seed_same_puzzle() {
        let a = Generated::new(12, 9, &mut Rng::new(42)).board();
        let b = Generated::new(12, 9, &mut Rng::new(42)).board();
        assert_eq!(a, b);
        assert_ne!(a, Generated::new(12, 9, &mut Rng::new(43)).board());
    }
}
