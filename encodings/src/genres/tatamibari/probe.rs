//! Failed-candidate probing before encoding: a candidate goes when choosing it leads, by the
//! rules' propagation alone, to a contradiction. Large generated boards are mostly decided
//! this way, and a solver given the rest gets a formula a few times smaller, which on those
//! boards is what its time grows with (see docs/encodings/tatamibari.md).
//!
//! The propagation is the formula's unit propagation, done on the candidates themselves:
//! choosing a candidate removes every candidate that shares a cell with it, every other
//! candidate of its clue, and every candidate that would make four rectangles meet at one of
//! its two corners that can be such a point (it ends at NW of a point: those starting at SE
//! go; it starts at SE: those ending at NW go); a cell left with no candidate is a
//! contradiction, a cell left with one forces it. Everything this removes is in no solution,
//! so the solutions, their number and uniqueness are what they were.

use super::corners;
use super::{Board, Rect};

/// Candidate lists by cell and by point, flat (offsets into one vector), so that a board of a
/// million cells holds a few vectors, not millions of small ones.
struct Lists {
    start: Vec<u32>,
    /// Each list's length: removing the dead shortens it in place.
    len: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// `keys(i)` names the lists candidate `i` goes into.
    fn new<I: Iterator<Item = usize>>(lists: usize, n: usize, keys: impl Fn(usize) -> I) -> Lists {
        let mut start = vec![0u32; lists + 1];
        for i in 0..n {
            keys(i).for_each(|k| start[k + 1] += 1);
        }
        for k in 0..lists {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[lists] as usize];
        for i in 0..n {
            for k in keys(i) {
                items[fill[k] as usize] = i as u32;
                fill[k] += 1;
            }
        }
        let len = (0..lists).map(|k| start[k + 1] - start[k]).collect();
        Lists { start, len, items }
    }

    fn get(&self, k: usize) -> &[u32] {
        let from = self.start[k] as usize;
        &self.items[from..from + self.len[k] as usize]
    }

    /// Keeps only the items `keep` says, in order.
    fn retain(&mut self, k: usize, keep: impl Fn(u32) -> bool) {
        let from = self.start[k] as usize;
        let mut kept = 0;
        for at in from..from + self.len[k] as usize {
            let item = self.items[at];
            if keep(item) {
                self.items[from + kept] = item;
                kept += 1;
            }
        }
        self.len[k] = kept as u32;
    }
}

enum Event {
    Kill(u32),
    Choose(u32),
}

/// What never changes while probing: the candidates and who excludes whom.
struct Graph<'a> {
    cols: usize,
    cands: &'a [(Rect, usize)],
    cover: Lists,
    clue: Lists,
    /// Per point, the candidates whose bottom-right cell is its NW cell.
    ends: Lists,
    /// Per point, the candidates whose top-left cell is its SE cell.
    starts: Lists,
    /// Per candidate, the point whose NW cell it ends at and the one whose SE cell it starts at.
    corner: Vec<(Option<u32>, Option<u32>)>,
}

impl Graph<'_> {
    fn cells(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let cols = self.cols;
        self.cands[i].0.cells().map(move |(r, c)| r * cols + c)
    }
}

/// The assignment, undone event by event after each probe.
struct State {
    alive: Vec<bool>,
    chosen: Vec<bool>,
    /// Live candidates per cell.
    live: Vec<u32>,
    covered: Vec<bool>,
    /// Cells already on the list of those to look at again (see `settle`).
    touched: Vec<bool>,
    trail: Vec<Event>,
    /// Cells to look at: a cell with one live candidate forces it.
    queue: Vec<u32>,
    conflict: bool,
    /// List entries and cells looked at: the work, which a budget bounds.
    steps: u64,
    /// A probe gives up (finding nothing) past this many steps.
    stop_at: u64,
}

impl State {
    fn kill(&mut self, g: &Graph, j: usize) {
        self.alive[j] = false;
        self.trail.push(Event::Kill(j as u32));
        for x in g.cells(j) {
            self.steps += 1;
            self.live[x] -= 1;
            if !self.covered[x] {
                match self.live[x] {
                    0 => self.conflict = true,
                    1 => self.queue.push(x as u32),
                    _ => {}
                }
            }
        }
    }

    fn kill_all(&mut self, g: &Graph, list: &[u32], except: usize) {
        self.steps += list.len() as u64;
        for &j in list {
            if self.conflict || self.steps > self.stop_at {
                return;
            }
            if j as usize != except && self.alive[j as usize] {
                self.kill(g, j as usize);
            }
        }
    }

    fn choose(&mut self, g: &Graph, i: usize) {
        if self.chosen[i] {
            return;
        }
        if !self.alive[i] {
            self.conflict = true;
            return;
        }
        self.chosen[i] = true;
        self.trail.push(Event::Choose(i as u32));
        for x in g.cells(i) {
            self.covered[x] = true;
        }
        for x in g.cells(i) {
            self.kill_all(g, g.cover.get(x), i);
        }
        self.kill_all(g, g.clue.get(g.cands[i].1), i);
        let (end, start) = g.corner[i];
        if let Some(p) = end {
            self.kill_all(g, g.starts.get(p as usize), i);
        }
        if let Some(p) = start {
            self.kill_all(g, g.ends.get(p as usize), i);
        }
    }

    /// Forces the single candidate of every queued cell, until a fixpoint or a contradiction.
    fn propagate(&mut self, g: &Graph) {
        while let Some(x) = self.queue.pop() {
            if self.conflict || self.steps > self.stop_at {
                break;
            }
            let x = x as usize;
            if self.covered[x] || self.live[x] != 1 {
                continue;
            }
            self.steps += g.cover.get(x).len() as u64;
            let only = g
                .cover
                .get(x)
                .iter()
                .map(|&j| j as usize)
                .find(|&j| self.alive[j])
                .expect("a live count of one");
            self.choose(g, only);
        }
        self.queue.clear();
    }

    fn undo(&mut self, g: &Graph, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("above the mark") {
                Event::Kill(j) => {
                    self.alive[j as usize] = true;
                    g.cells(j as usize).for_each(|x| self.live[x] += 1);
                }
                Event::Choose(i) => {
                    self.chosen[i as usize] = false;
                    g.cells(i as usize).for_each(|x| self.covered[x] = false);
                }
            }
        }
        self.conflict = false;
    }

    /// Whether choosing `i` leads to a contradiction within [`PROBE_STEPS`]; leaves the state
    /// as it was. A probe that gives up found nothing: that is always sound.
    fn fails(&mut self, g: &Graph, i: usize) -> bool {
        let mark = self.trail.len();
        self.stop_at = self.steps + PROBE_STEPS;
        self.choose(g, i);
        self.propagate(g);
        let failed = self.conflict;
        self.undo(g, mark);
        self.stop_at = u64::MAX;
        failed
    }
}

/// Removes every candidate whose choice propagates to a contradiction, to a fixpoint (each
/// removal may make others fail). Returns the candidates kept, or all of them untouched when
/// the board has no solution at all (the formula then says so itself).
pub fn probe(board: &Board, cands: Vec<(Rect, usize)>) -> Vec<(Rect, usize)> {
    probe_in_order(board, cands).0
}

/// [`probe`], also returning the candidates removed in the order removed (none when it
/// returns them all).
pub fn probe_in_order(board: &Board, cands: Vec<(Rect, usize)>) -> (Vec<(Rect, usize)>, Vec<Rect>) {
    let (rows, cols) = (board.rows, board.cols);
    let n = cands.len();
    if n == 0 {
        return (cands, Vec::new());
    }
    let cover = Lists::new(rows * cols, n, |i| {
        cands[i].0.cells().map(move |(r, c)| r * cols + c)
    });
    let clue = Lists::new(rows * cols, n, |i| std::iter::once(cands[i].1));
    let corner: Vec<(Option<u32>, Option<u32>)> = cands
        .iter()
        .map(|(rect, _)| {
            let (end, start) = corners(board, rect);
            (end.map(|p| p as u32), start.map(|p| p as u32))
        })
        .collect();
    let ends = Lists::new(rows * cols, n, |i| {
        corner[i].0.map(|p| p as usize).into_iter()
    });
    let starts = Lists::new(rows * cols, n, |i| {
        corner[i].1.map(|p| p as usize).into_iter()
    });
    let mut g = Graph {
        cols,
        cands: &cands,
        cover,
        clue,
        ends,
        starts,
        corner,
    };
    let live: Vec<u32> = (0..rows * cols)
        .map(|x| g.cover.get(x).len() as u32)
        .collect();
    let mut s = State {
        alive: vec![true; n],
        chosen: vec![false; n],
        live,
        covered: vec![false; rows * cols],
        touched: vec![false; rows * cols],
        trail: Vec::new(),
        queue: Vec::new(),
        conflict: false,
        steps: 0,
        stop_at: u64::MAX,
    };
    // Level 0: what the cells force, before any probe.
    s.queue = (0..rows * cols)
        .filter(|&x| s.live[x] == 1)
        .map(|x| x as u32)
        .collect();
    let mut dirty = vec![true; n];
    let all: Vec<usize> = (0..rows * cols).collect();
    let mut gone = Vec::new();
    if !settle(&mut g, &mut s, &mut dirty, all, &mut gone) {
        return (cands, Vec::new());
    }
    // A probe looks again only at candidates near something that changed since it last
    // looked (they share a cell with a candidate removed or chosen), and all probing stops
    // past a budget of steps: what is left undecided, the solver decides.
    let budget = BUDGET * g.cover.items.len() as u64 + 1_000_000;
    loop {
        let mut changed = false;
        for i in 0..n {
            if s.steps > budget {
                break;
            }
            if !std::mem::replace(&mut dirty[i], false)
                || !s.alive[i]
                || s.chosen[i]
                || !s.fails(&g, i)
            {
                continue;
            }
            changed = true;
            s.kill(&g, i);
            if !settle(&mut g, &mut s, &mut dirty, Vec::new(), &mut gone) {
                return (cands, Vec::new());
            }
        }
        if !changed || s.steps > budget {
            break;
        }
    }
    let alive = s.alive;
    let gone = gone.into_iter().map(|j| cands[j as usize].0).collect();
    (
        cands
            .into_iter()
            .zip(alive)
            .filter(|(_, a)| *a)
            .map(|(c, _)| c)
            .collect(),
        gone,
    )
}

/// Probing stops after this many steps per entry of the cells' candidate lists: on generated
/// boards it reaches its fixpoint within about 80.
const BUDGET: u64 = 128;

/// One probe gives up after this many steps. On generated boards a probe takes a few hundred;
/// a candidate that shares its cells with thousands of others would cost millions.
const PROBE_STEPS: u64 = 4096;

/// Propagates at level 0 from a change on the cells `touched`, for good: forced candidates,
/// and clues that alone can cover a cell. Drops the dead from the lists on the way and marks
/// the candidates near each change for probing again. False on a contradiction: the board has
/// no solution. Every removal at this level, in order, goes to `gone` (a failed probe's
/// candidate is killed just before, so it is first in the trail taken here).
fn settle(
    g: &mut Graph,
    s: &mut State,
    dirty: &mut [bool],
    mut touched: Vec<usize>,
    gone: &mut Vec<u32>,
) -> bool {
    loop {
        s.propagate(g);
        if s.conflict {
            return false;
        }
        for e in std::mem::take(&mut s.trail) {
            if let Event::Kill(j) = e {
                gone.push(j);
            }
            let (Event::Kill(j) | Event::Choose(j)) = e;
            touched.extend(g.cells(j as usize));
        }
        // Each cell once, however many of its candidates went.
        touched.retain(|&x| !std::mem::replace(&mut s.touched[x], true));
        if touched.is_empty() {
            return true;
        }
        touched.iter().for_each(|&x| s.touched[x] = false);
        for x in std::mem::take(&mut touched) {
            s.steps += g.cover.len[x] as u64;
            g.cover.retain(x, |k| s.alive[k as usize]);
            let list = g.cover.get(x);
            s.steps += list.len() as u64;
            list.iter().for_each(|&k| dirty[k as usize] = true);
            // Every candidate left on this uncovered cell is one clue's: that clue's
            // rectangle holds the cell, so its candidates elsewhere go.
            let Some(&first) = list.first() else { continue };
            let clue = g.cands[first as usize].1;
            if s.covered[x] || !list.iter().all(|&k| g.cands[k as usize].1 == clue) {
                continue;
            }
            let (r, c) = (x / g.cols, x % g.cols);
            g.clue.retain(clue, |k| s.alive[k as usize]);
            let others: Vec<u32> = g
                .clue
                .get(clue)
                .iter()
                .copied()
                .filter(|&k| !g.cands[k as usize].0.contains(r, c))
                .collect();
            s.steps += g.clue.get(clue).len() as u64;
            for k in others {
                s.kill(g, k as usize);
            }
            if s.conflict {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::encode::{all_candidates, encode_with, prune};
    use super::super::generate::Rng;
    use super::super::parse;
    use super::*;
    use crate::cnf::testing::satisfiable;
    use crate::cnf::Cnf;

    fn pruned(board: &Board) -> Vec<(Rect, usize)> {
        prune(board, all_candidates(board)).0
    }

    /// Every candidate probing removes is in no model of the formula built without probing
    /// (itself checked against brute-force tilings in tests/tatamibari.rs).
    #[test]
    fn probing_removes_only_candidates_of_no_solution() {
        let mut rng = Rng::new(11);
        let mut removed = 0;
        for _ in 0..400 {
            let (rows, cols) = (2 + rng.below(5), 2 + rng.below(5));
            let text: String = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| {
                            if rng.below(4) == 0 {
                                ['+', '-', '|', '?', '#', '-', '|'][rng.below(7)]
                            } else {
                                '.'
                            }
                        })
                        .collect::<String>()
                        + "\n"
                })
                .collect();
            let board = parse(&text).unwrap();
            let before = pruned(&board);
            let after = probe(&board, before.clone());
            let mut cnf = Cnf::new();
            let enc = encode_with(&board, &mut cnf, false);
            for (rect, _) in before.iter().filter(|c| !after.contains(c)) {
                removed += 1;
                let lit = enc
                    .rects
                    .iter()
                    .find(|(r, _)| r == rect)
                    .expect("the same candidates")
                    .1;
                assert!(
                    !satisfiable(&cnf, &[lit]),
                    "{rect:?} is in a solution of\n{text}"
                );
            }
        }
        assert!(
            removed > 100,
            "probing removed only {removed} candidates: the test shows little"
        );
    }

    /// Rows of `|` across a tall blank board: each column's cells can belong to only one clue,
    /// so only the whole column is left, found without a probe's cost per candidate.
    #[test]
    fn a_cell_only_one_clue_reaches_fixes_that_clue_around_it() {
        let mut rows = vec![".".repeat(10); 256];
        rows[128] = "|".repeat(10);
        let board = parse(&(rows.join("\n") + "\n")).unwrap();
        let kept = probe(&board, pruned(&board));
        let columns: Vec<(Rect, usize)> = (0..10)
            .map(|c| {
                (
                    Rect {
                        row: 0,
                        col: c,
                        height: 256,
                        width: 1,
                    },
                    128 * 10 + c,
                )
            })
            .collect();
        assert_eq!(kept, columns);
    }
}
