//! Tatamibari → CNF with rectangle-choice variables.
//!
//! - One variable per candidate rectangle: it contains exactly one clue, has that clue's shape,
//!   and avoids holes.
//! - Each board cell is covered by exactly one chosen rectangle (pairwise at-most-one for a
//!   few candidates, a sequential counter for many). A clue's cell is covered only by its own
//!   candidates, so every clue gets exactly one rectangle without clauses of its own.
//! - Corner exclusion: four rectangles meet at the interior point below-right of cell (r, c)
//!   exactly when a chosen rectangle ends (bottom-right cell) at (r, c) and another starts
//!   (top-left cell) at (r + 1, c + 1); see docs/encodings/tatamibari.md. Two auxiliaries per
//!   point keep this linear: `A → lr`, `B → ul`, `¬lr ∨ ¬ul`.

use super::{Board, Cell, Rect, Shape, Solution};
use crate::amo::exactly_one;
use crate::cnf::{ClauseSink, Lit, Model};

pub struct Encoding {
    /// Every candidate rectangle left after [`prune`] with its variable, grouped by clue in
    /// row-major clue order.
    pub rects: Vec<(Rect, Lit)>,
}

/// All rectangles that hold the clue at (cr, cc) and no other clue, avoid holes, and have the
/// clue's shape. For each top row and growing bottom row, the free column span around the clue
/// only shrinks, so this costs O(rows² + rectangles) per clue.
pub fn candidates(board: &Board, cr: usize, cc: usize) -> Vec<Rect> {
    let Cell::Clue(shape) = board.cell(cr, cc) else { return Vec::new() };
    let blocked = |r: usize, c: usize| (r, c) != (cr, cc) && board.cell(r, c) != Cell::Blank;
    // Per row: the free span around column cc, or None when (r, cc) itself is blocked.
    let span = |r: usize| -> Option<(usize, usize)> {
        if blocked(r, cc) {
            return None;
        }
        let left = (0..cc).rev().find(|&c| blocked(r, c)).map_or(0, |c| c + 1);
        let right = (cc + 1..board.cols).find(|&c| blocked(r, c)).map_or(board.cols - 1, |c| c - 1);
        Some((left, right))
    };
    let spans: Vec<Option<(usize, usize)>> = (0..board.rows).map(span).collect();
    let mut out = Vec::new();
    for top in (0..=cr).rev() {
        let Some(mut lr) = spans[top] else { break };
        for r in top + 1..=cr {
            let s = spans[r].expect("rows between top and the clue are free at the clue's column");
            lr = (lr.0.max(s.0), lr.1.min(s.1));
        }
        for bottom in cr..board.rows {
            if bottom > cr {
                let Some(s) = spans[bottom] else { break };
                lr = (lr.0.max(s.0), lr.1.min(s.1));
            }
            let height = bottom - top + 1;
            for left in lr.0..=cc {
                for right in cc..=lr.1 {
                    let width = right - left + 1;
                    if Shape::of(height, width) == shape {
                        out.push(Rect { row: top, col: left, height, width });
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// Removes candidates that are in no solution because choosing one leaves some cell that
/// nothing can cover any more (every candidate of that cell overlaps it or belongs to the same
/// clue), and fixes cells with a single candidate, to a fixpoint. The four-corner rule is not
/// used, so this only ever removes what the full encoding would refute by propagation; the
/// point is size: varisat re-simplifies its whole clause database for every unit it learns,
/// so a formula that starts small stays fast on large boards.
pub fn prune(board: &Board, cands: Vec<(Rect, usize)>) -> Vec<(Rect, usize)> {
    let cols = board.cols;
    let n = cands.len();
    let mut alive = vec![true; n];
    let mut cover: Vec<Vec<usize>> = vec![Vec::new(); board.rows * cols];
    let mut by_clue: Vec<Vec<usize>> = Vec::new();
    for (i, &(rect, clue)) in cands.iter().enumerate() {
        rect.cells().for_each(|(r, c)| cover[r * cols + c].push(i));
        if by_clue.len() <= clue {
            by_clue.resize(clue + 1, Vec::new());
        }
        by_clue[clue].push(i);
    }
    let conflict = |a: usize, b: usize| {
        let (p, q) = (cands[a].0, cands[b].0);
        cands[a].1 == cands[b].1
            || (p.row < q.row + q.height && q.row < p.row + p.height && p.col < q.col + q.width && q.col < p.col + p.width)
    };
    let mut queue: Vec<usize> = (0..board.rows * cols).collect();
    let mut queued = vec![true; board.rows * cols];
    let kill = |i: usize, alive: &mut Vec<bool>, queue: &mut Vec<usize>, queued: &mut Vec<bool>| {
        if std::mem::replace(&mut alive[i], false) {
            for (r, c) in cands[i].0.cells() {
                if !std::mem::replace(&mut queued[r * cols + c], true) {
                    queue.push(r * cols + c);
                }
            }
        }
    };
    const FEW: usize = 4;
    while let Some(y) = queue.pop() {
        queued[y] = false;
        cover[y].retain(|&i| alive[i]);
        let live = cover[y].clone();
        if live.is_empty() || live.len() > FEW {
            continue;
        }
        // Everything conflicting with the first candidate, found through its cells and clue.
        let first = live[0];
        let mut near: Vec<usize> = cands[first].0.cells().flat_map(|(r, c)| cover[r * cols + c].iter().copied()).collect();
        near.extend(&by_clue[cands[first].1]);
        near.sort_unstable();
        near.dedup();
        for i in near {
            if !alive[i] || live.contains(&i) {
                continue;
            }
            if live.iter().all(|&c| conflict(i, c)) {
                kill(i, &mut alive, &mut queue, &mut queued);
            }
        }
    }
    cands.into_iter().zip(alive).filter(|(_, a)| *a).map(|(c, _)| c).collect()
}

pub fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
    let (rows, cols) = (board.rows, board.cols);
    let mut all = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            all.extend(candidates(board, r, c).into_iter().map(|rect| (rect, r * cols + c)));
        }
    }
    let mut rects = Vec::new();
    for (rect, _) in prune(board, all) {
        let name = || format!("rect {} {} {} {}", rect.row, rect.col, rect.height, rect.width);
        rects.push((rect, sink.new_named_var(&name)));
    }
    let mut cover: Vec<Vec<Lit>> = vec![Vec::new(); rows * cols];
    for &(rect, lit) in &rects {
        for (r, c) in rect.cells() {
            cover[r * cols + c].push(lit);
        }
    }
    for (k, lits) in cover.iter().enumerate() {
        if board.cells[k] != Cell::Hole {
            exactly_one(sink, lits); // the empty clause when nothing can cover the cell
        }
    }
    // Interior points: index (r, c) is the point below-right of cell (r, c).
    let interior = |r: usize, c: usize| {
        r + 1 < rows && c + 1 < cols && [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)].iter().all(|&(a, b)| board.on_board(a, b))
    };
    let mut ends: Vec<Vec<Lit>> = vec![Vec::new(); rows * cols];
    let mut starts: Vec<Vec<Lit>> = vec![Vec::new(); rows * cols];
    for &(rect, lit) in &rects {
        let (br, bc) = (rect.row + rect.height - 1, rect.col + rect.width - 1);
        if interior(br, bc) {
            ends[br * cols + bc].push(lit);
        }
        if rect.row > 0 && rect.col > 0 && interior(rect.row - 1, rect.col - 1) {
            starts[(rect.row - 1) * cols + rect.col - 1].push(lit);
        }
    }
    for k in 0..rows * cols {
        if ends[k].is_empty() || starts[k].is_empty() {
            continue; // one side can never happen: nothing to exclude
        }
        let (r, c) = (k / cols, k % cols);
        let lr = sink.new_named_var(&|| format!("ends-at {r} {c}"));
        let ul = sink.new_named_var(&|| format!("starts-at {} {}", r + 1, c + 1));
        for &a in &ends[k] {
            sink.add_clause(&[!a, lr]);
        }
        for &b in &starts[k] {
            sink.add_clause(&[!b, ul]);
        }
        sink.add_clause(&[!lr, !ul]);
    }
    Encoding { rects }
}

pub fn decode(enc: &Encoding, model: &Model) -> Solution {
    let mut sol: Solution = enc.rects.iter().filter(|(_, l)| model.value(*l)).map(|&(r, _)| r).collect();
    sol.sort();
    sol
}

/// Excludes one solution. Under exact cover the chosen rectangles determine the solution, so
/// one clause over them suffices.
pub fn block<S: ClauseSink>(enc: &Encoding, sink: &mut S, sol: &Solution) {
    let clause: Vec<Lit> = enc.rects.iter().filter(|(r, _)| sol.binary_search(r).is_ok()).map(|&(_, l)| !l).collect();
    sink.add_clause(&clause);
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn candidates_hold_one_clue_of_the_right_shape_and_no_hole() {
        let board = parse("..-.\n.#..\n+...\n").unwrap();
        let wide = candidates(&board, 0, 2);
        assert!(!wide.is_empty());
        for r in &wide {
            assert!(r.width > r.height);
            assert!(r.contains(0, 2));
            assert!(!r.contains(2, 0) && !r.contains(1, 1));
        }
        assert!(wide.contains(&Rect { row: 0, col: 0, height: 1, width: 4 }));
        // (0..2, 2..4) is 2×2: square, not wide.
        assert!(!wide.contains(&Rect { row: 0, col: 2, height: 2, width: 2 }));
        assert!(!wide.contains(&Rect { row: 0, col: 2, height: 2, width: 3 }), "leaves the board");
        assert!(!wide.contains(&Rect { row: 0, col: 1, height: 2, width: 3 }), "covers the hole");
        let squares = candidates(&board, 2, 0);
        assert_eq!(squares, vec![Rect { row: 2, col: 0, height: 1, width: 1 }]);
        assert!(candidates(&board, 1, 0).is_empty(), "a blank cell has no candidates");
    }

    #[test]
    fn candidate_enumeration_matches_brute_force() {
        let board = parse("..-...|\n.+..#..\n|...-..\n...+...\n-.....|\n").unwrap();
        for cr in 0..board.rows {
            for cc in 0..board.cols {
                let Cell::Clue(shape) = board.cell(cr, cc) else { continue };
                let mut brute = Vec::new();
                for row in 0..board.rows {
                    for col in 0..board.cols {
                        for height in 1..=board.rows - row {
                            for width in 1..=board.cols - col {
                                let rect = Rect { row, col, height, width };
                                let clues = rect.cells().filter(|&(r, c)| matches!(board.cell(r, c), Cell::Clue(_))).count();
                                let holes = rect.cells().any(|(r, c)| board.cell(r, c) == Cell::Hole);
                                if rect.contains(cr, cc) && clues == 1 && !holes && Shape::of(height, width) == shape {
                                    brute.push(rect);
                                }
                            }
                        }
                    }
                }
                brute.sort();
                assert_eq!(candidates(&board, cr, cc), brute, "clue at ({cr}, {cc})");
            }
        }
    }
}
