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
pub const MAX_SIDE: usize = 4;

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

    /// Changes the puzzle where `other` (another solution) differs from the planted one, keeping
    /// the planted solution valid: every planted rectangle that `other` does not use gets its
    /// clue moved to another of its cells, and now and then one is split in two (one more clue).
    pub fn perturb(&mut self, other: &Solution, rng: &mut Rng) {
        let differing: Vec<usize> = (0..self.rects.len()).filter(|&k| other.binary_search(&self.rects[k]).is_err()).collect();
        for &k in &differing {
            let rect = self.rects[k];
            if rect.height * rect.width > 1 {
                self.clues[k] = (rect.row + rng.below(rect.height), rect.col + rng.below(rect.width));
            }
        }
        if let Some(&k) = differing.get(rng.below(differing.len().max(1))) {
            if rng.below(3) == 0 {
                self.split(k, rng);
            }
        }
    }

    /// Splits rectangle `k` across its longer side, when that creates no four-corner point.
    fn split(&mut self, k: usize, rng: &mut Rng) {
        let rect = self.rects[k];
        let (a, b) = if rect.height >= rect.width {
            if rect.height < 2 {
                return;
            }
            let h = 1 + rng.below(rect.height - 1);
            (Rect { height: h, ..rect }, Rect { row: rect.row + h, height: rect.height - h, ..rect })
        } else {
            let w = 1 + rng.below(rect.width - 1);
            (Rect { width: w, ..rect }, Rect { col: rect.col + w, width: rect.width - w, ..rect })
        };
        let mut rects = self.rects.clone();
        rects[k] = a;
        rects.push(b);
        if has_four_corners(self.rows, self.cols, &rects) {
            return;
        }
        let pick = |r: Rect, rng: &mut Rng| (r.row + rng.below(r.height), r.col + rng.below(r.width));
        let mut clues = self.clues.clone();
        clues[k] = if a.contains(self.clues[k].0, self.clues[k].1) { self.clues[k] } else { pick(a, rng) };
        clues.push(if b.contains(self.clues[k].0, self.clues[k].1) { self.clues[k] } else { pick(b, rng) });
        let mut order: Vec<usize> = (0..rects.len()).collect();
        order.sort_by_key(|&i| rects[i]);
        self.rects = order.iter().map(|&i| rects[i]).collect();
        self.clues = order.iter().map(|&i| clues[i]).collect();
    }
}

/// Does a tiling of a full board have a point where four rectangles meet?
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
            let width = if choices.is_empty() { run } else { choices[rng.below(choices.len())] };
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
    fn perturbing_keeps_the_planted_solution_valid() {
        let mut rng = Rng::new(7);
        let mut g = Generated::new(20, 20, &mut rng);
        for _ in 0..30 {
            g.perturb(&Vec::new(), &mut rng);
            assert_eq!(check(&g.board(), &labels(&g)), Ok(()));
        }
    }

    #[test]
    fn same_seed_same_puzzle() {
        let a = Generated::new(12, 9, &mut Rng::new(42)).board();
        let b = Generated::new(12, 9, &mut Rng::new(42)).board();
        assert_eq!(a, b);
        assert_ne!(a, Generated::new(12, 9, &mut Rng::new(43)).board());
    }
}
