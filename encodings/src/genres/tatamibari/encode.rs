//! Tatamibari → CNF with rectangle-choice variables.
//!
//! - One variable per candidate rectangle: it contains exactly one clue, has that clue's shape,
//!   and avoids holes.
//! - Each board cell is covered by exactly one chosen rectangle, said through owners: at most
//!   one candidate per clue, and where several clues can reach a cell, one `owner` variable per
//!   such clue that its candidates over the cell imply, exactly one owner per cell. A cell lies
//!   in many candidates but is reachable by few clues, so this is far smaller than exactly-one
//!   over the cell's candidates, and propagates as well. A clue's cell is reached only by its
//!   own candidates, so every clue gets a rectangle without clauses of its own.
//! - Corner exclusion: four rectangles meet at the interior point below-right of cell (r, c)
//!   exactly when a chosen rectangle ends (bottom-right cell) at (r, c) and another starts
//!   (top-left cell) at (r + 1, c + 1); see docs/encodings/tatamibari.md. Two auxiliaries per
//!   point keep this linear: `A → lr`, `B → ul`, `¬lr ∨ ¬ul`.

use super::probe::probe;
use super::{corners, Board, Cell, Rect, Shape, Solution};
use crate::cnf::amo::{at_most_one, exactly_one, PAIRWISE_MAX};
use crate::cnf::{ClauseSink, Lit, Model, SizeCounter};
use std::collections::{BTreeMap, HashMap, HashSet};

pub struct Encoding {
    /// Every candidate rectangle left after [`prune`] with its variable, grouped by clue in
    /// row-major clue order.
    pub rects: Vec<(Rect, Lit)>,
}

/// For every cell, the columns just inside the nearest non-blank cells to its left and right
/// in its row: the free span a rectangle through that cell may use when the cell itself is the
/// only clue in it. Computed once per board so that each clue's candidates cost only their
/// number, not the board's width or height.
pub struct Spans {
    cols: usize,
    left: Vec<usize>,
    right: Vec<usize>,
}

impl Spans {
    pub fn new(board: &Board) -> Spans {
        let cols = board.cols;
        let (mut left, mut right) = (vec![0; board.cells.len()], vec![0; board.cells.len()]);
        for r in 0..board.rows {
            let row = &board.cells[r * cols..(r + 1) * cols];
            let mut first = 0;
            for c in 0..cols {
                left[r * cols + c] = first;
                if row[c] != Cell::Blank {
                    first = c + 1;
                }
            }
            let mut last = cols - 1;
            for c in (0..cols).rev() {
                right[r * cols + c] = last;
                if row[c] != Cell::Blank {
                    last = c.saturating_sub(1);
                }
            }
        }
        Spans { cols, left, right }
    }

    pub(super) fn at(&self, r: usize, c: usize) -> (usize, usize) {
        (self.left[r * self.cols + c], self.right[r * self.cols + c])
    }
}

/// All rectangles that hold the clue at (cr, cc) and no other clue, avoid holes, and have the
/// clue's shape, sorted. Top rows go up from the clue and bottom rows down, the free column
/// span only shrinking; the widths the shape allows are enumerated directly, and a square or
/// wide clue stops as soon as its span is too narrow for the height. So every (top, bottom)
/// pair visited yields a candidate, but one per top row: O(candidates) per clue.
pub fn candidates(board: &Board, spans: &Spans, cr: usize, cc: usize) -> Vec<Rect> {
    let Cell::Clue(shape) = board.cell(cr, cc) else {
        return Vec::new();
    };
    let free = |r: usize| r == cr || board.cell(r, cc) == Cell::Blank;
    // The widths allowed for `height` inside the span `lr`, or None.
    let widths = |height: usize, lr: (usize, usize)| {
        let span = lr.1 - lr.0 + 1;
        let (lo, hi) = match shape {
            Shape::Square => (height, height),
            Shape::Wide => (height + 1, span),
            Shape::Tall => (1, height - 1),
            Shape::Any => (1, span),
        };
        let hi = hi.min(span);
        (lo <= hi).then_some((lo, hi))
    };
    let mut out = Vec::new();
    let mut upper = spans.at(cr, cc);
    for top in (0..=cr).rev().take_while(|&r| free(r)) {
        let s = spans.at(top, cc);
        upper = (upper.0.max(s.0), upper.1.min(s.1));
        let mut lr = upper;
        for bottom in (cr..board.rows).take_while(|&r| free(r)) {
            let s = spans.at(bottom, cc);
            lr = (lr.0.max(s.0), lr.1.min(s.1));
            let height = bottom - top + 1;
            let Some((lo, hi)) = widths(height, lr) else {
                if shape == Shape::Tall {
                    continue; // height 1: the next bottom row allows width 1
                }
                break; // taller and narrower from here on
            };
            // Every left column in this range has a right column that fits.
            for left in lr.0.max((cc + 1).saturating_sub(hi))..=cc.min(lr.1 + 1 - lo) {
                for right in cc.max(left + lo - 1)..=lr.1.min(left + hi - 1) {
                    out.push(Rect {
                        row: top,
                        col: left,
                        height,
                        width: right - left + 1,
                    });
                }
            }
        }
        if shape != Shape::Tall && widths(cr - top + 1, upper).is_none() {
            break; // no bottom row works for this top, nor for any higher one
        }
    }
    out.sort();
    out
}

/// Every clue's candidates with the clue's cell index, clue by clue in row-major order.
pub fn all_candidates(board: &Board) -> Vec<(Rect, usize)> {
    let spans = Spans::new(board);
    let mut all = Vec::new();
    for r in 0..board.rows {
        for c in 0..board.cols {
            all.extend(
                candidates(board, &spans, r, c)
                    .into_iter()
                    .map(|rect| (rect, r * board.cols + c)),
            );
        }
    }
    all
}

/// Removes candidates that are in no solution because choosing one leaves some cell that
/// nothing can cover any more (every live candidate of that cell overlaps it or belongs to the
/// same clue), for cells with at most four live candidates, to a fixpoint. The four-corner rule
/// is not used, so this only ever removes what the full encoding would refute by propagation;
/// the point is size: varisat re-simplifies its whole clause database for every unit it learns,
/// so a formula that starts small stays fast on large boards.
///
/// Cost (it was cubic in the height of tall boards): a kill updates live counts on its cells;
/// a cell's cover list is compacted when looked at; each set of live candidates is looked at
/// once (candidates only die, so a set seen before kills nothing new). A candidate that must
/// die overlaps a member of the set, or shares its clue with them all, so the search goes
/// through the cells of at most two members and, when the set is one clue's, that clue's list,
/// which then shrinks to the set. A cell with a single candidate, the common case, thus costs
/// that candidate's cells once, and such candidates do not overlap: linear in the total area.
///
/// Returns the candidates kept and the number of steps taken (list entries looked at and cell
/// counts updated), which the tests bound.
pub fn prune(board: &Board, cands: Vec<(Rect, usize)>) -> (Vec<(Rect, usize)>, usize) {
    let (kept, steps, _) = prune_in_order(board, cands);
    (kept, steps)
}

/// [`prune`], also returning the candidates removed, in the order removed: each is refuted by
/// unit propagation on the plain formula once those before it are (see [`removals`]).
fn prune_in_order(
    board: &Board,
    cands: Vec<(Rect, usize)>,
) -> (Vec<(Rect, usize)>, usize, Vec<Rect>) {
    const FEW: usize = 4;
    let cols = board.cols;
    let n = cands.len();
    let mut cover: Vec<Vec<usize>> = vec![Vec::new(); board.rows * cols];
    let mut by_clue: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, &(rect, clue)) in cands.iter().enumerate() {
        rect.cells().for_each(|(r, c)| cover[r * cols + c].push(i));
        by_clue.entry(clue).or_default().push(i);
    }
    let mut live: Vec<usize> = cover.iter().map(Vec::len).collect();
    // How many candidates share a cell with each, counted with repeats: the cost of its scan.
    let overlaps: Vec<usize> = cands
        .iter()
        .map(|(rect, _)| rect.cells().map(|(r, c)| live[r * cols + c]).sum())
        .collect();
    let mut alive = vec![true; n];
    let mut queue: Vec<usize> = (0..board.rows * cols)
        .filter(|&y| (1..=FEW).contains(&live[y]))
        .collect();
    let mut queued: Vec<bool> = live.iter().map(|l| (1..=FEW).contains(l)).collect();
    let mut seen_sets: HashSet<Vec<usize>> = HashSet::new();
    // seen[i] == round: i is in this round's list already.
    let mut seen = vec![0usize; n];
    let mut round = 0;
    let mut near = Vec::new();
    let mut steps = 0;
    let mut killed = Vec::new();
    while let Some(y) = queue.pop() {
        queued[y] = false;
        if live[y] == 0 {
            continue;
        }
        steps += cover[y].len();
        cover[y].retain(|&i| alive[i]);
        let set = cover[y].clone();
        if !seen_sets.insert(set.clone()) {
            continue;
        }
        round += 1;
        near.clear();
        let mut add = |list: &mut Vec<usize>, near: &mut Vec<usize>| {
            steps += list.len();
            list.retain(|&i| alive[i]);
            for &i in list.iter() {
                if std::mem::replace(&mut seen[i], round) != round {
                    near.push(i);
                }
            }
        };
        // The cheapest member, and the cheapest of another clue: a victim of another clue than
        // the first overlaps the first, one of the first's clue overlaps the second.
        let first = *set
            .iter()
            .min_by_key(|&&i| overlaps[i])
            .expect("a live count above zero");
        let second = set
            .iter()
            .copied()
            .filter(|&i| cands[i].1 != cands[first].1)
            .min_by_key(|&i| overlaps[i]);
        match second {
            Some(second) => {
                for (r, c) in cands[second].0.cells() {
                    add(&mut cover[r * cols + c], &mut near);
                }
            }
            None => add(
                by_clue
                    .get_mut(&cands[first].1)
                    .expect("every candidate's clue has a list"),
                &mut near,
            ),
        }
        for (r, c) in cands[first].0.cells() {
            add(&mut cover[r * cols + c], &mut near);
        }
        for &i in &near {
            if set.contains(&i) || !set.iter().all(|&c| conflict(&cands[i], &cands[c])) {
                continue;
            }
            alive[i] = false;
            killed.push(cands[i].0);
            for (r, c) in cands[i].0.cells() {
                steps += 1;
                let k = r * cols + c;
                live[k] -= 1;
                if live[k] <= FEW && !std::mem::replace(&mut queued[k], true) {
                    queue.push(k);
                }
            }
        }
    }
    (
        cands
            .into_iter()
            .zip(alive)
            .filter(|(_, a)| *a)
            .map(|(c, _)| c)
            .collect(),
        steps,
        killed,
    )
}

/// Two candidates exclude each other: the same clue, or a shared cell.
fn conflict(a: &(Rect, usize), b: &(Rect, usize)) -> bool {
    let (p, q) = (a.0, b.0);
    a.1 == b.1
        || (p.row < q.row + q.height
            && q.row < p.row + p.height
            && p.col < q.col + q.width
            && q.col < p.col + p.width)
}

pub fn encode<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
    encode_with(board, sink, true)
}

/// [`encode`] without owner variables: exactly-one over each cell's candidates everywhere. The
/// same solutions, another search. For `generate --unique`'s second-solution checks: its clue
/// re-placement was tuned on the second solutions this formula's search returns first, and
/// with owners it took more rounds (100×100, seeds 10–29: 1.6× the CPU in all, one seed 10×).
/// This formula is the one before owners, so a seed makes the same puzzle as before them.
pub fn encode_without_owners<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
    emit_counted(board, &kept(board, true), sink, usize::MAX)
}

/// `probing`: also drop the candidates [`probe`] refutes. Off only to grade how much plain
/// unit propagation decides.
///
/// The formula is counted before it is built, and a sink that refuses that many literals (see
/// [`ClauseSink::reserve`]) gets none of it: what probing leaves is known only now, and may
/// still be too large.
pub fn encode_with<S: ClauseSink>(board: &Board, sink: &mut S, probing: bool) -> Encoding {
    encode_kept(board, &kept(board, probing), sink)
}

/// [`encode`] over candidates [`kept`] returned already.
pub(super) fn encode_kept<S: ClauseSink>(
    board: &Board,
    kept: &[(Rect, usize)],
    sink: &mut S,
) -> Encoding {
    emit_counted(board, kept, sink, OWNERS_ABOVE)
}

/// The candidates left after [`prune`] and, with `probing`, [`probe`].
pub(super) fn kept(board: &Board, probing: bool) -> Vec<(Rect, usize)> {
    let kept = prune(board, all_candidates(board)).0;
    if probing {
        probe(board, kept)
    } else {
        kept
    }
}

/// The rules over every candidate, before [`prune`] and [`probe`]: the formula a certificate
/// states, so that it trusts neither (their removals come as [`removals`]).
pub fn encode_plain<S: ClauseSink>(board: &Board, sink: &mut S) -> Encoding {
    emit_counted(board, &all_candidates(board), sink, OWNERS_ABOVE)
}

/// [`emit`], counted first: a sink that refuses that many literals gets none of it.
fn emit_counted<S: ClauseSink>(
    board: &Board,
    kept: &[(Rect, usize)],
    sink: &mut S,
    owners_above: usize,
) -> Encoding {
    let mut size = SizeCounter::default();
    emit(board, kept, &mut size, owners_above, &|_| true);
    if !sink.reserve(size.literals) {
        return Encoding { rects: Vec::new() };
    }
    emit(board, kept, sink, owners_above, &|_| true)
}

/// Cells with more candidates than this are covered through owners (see [`emit`]).
pub(super) const OWNERS_ABOVE: usize = PAIRWISE_MAX;

/// The candidates [`encode`] leaves out, in the order [`prune`] and then [`probe`] removed
/// them. Each one's choice, with those before it gone, meets a conflict by the plain
/// formula's unit propagation: the cell-cover and corner clauses do what both of them do.
pub fn removals(board: &Board) -> Vec<Rect> {
    let (kept, _, mut gone) = prune_in_order(board, all_candidates(board));
    gone.extend(super::probe::probe_in_order(board, kept).1);
    gone
}

/// The formula over the candidates `kept`; cells with more than `owners_above` candidates are
/// covered through owners. Only the cells `must` names must be covered; the others at most once.
pub(super) fn emit<S: ClauseSink>(
    board: &Board,
    kept: &[(Rect, usize)],
    sink: &mut S,
    owners_above: usize,
    must: &dyn Fn(usize) -> bool,
) -> Encoding {
    let (rows, cols) = (board.rows, board.cols);
    let mut rects = Vec::with_capacity(kept.len());
    for &(rect, _) in kept {
        let name = || {
            format!(
                "rect {} {} {} {}",
                rect.row, rect.col, rect.height, rect.width
            )
        };
        rects.push((rect, sink.new_named_var(&name)));
    }
    // Per cell, the clues that may own it, each with its candidates over the cell: a clue's
    // candidates all hold its cell, and a board cell is reached by a few clues (3.5 on average
    // on sparse 100×100 boards) but by many candidates (86 there).
    let mut owners: Vec<Vec<(usize, Vec<Lit>)>> = vec![Vec::new(); rows * cols];
    let mut by_clue: BTreeMap<usize, Vec<Lit>> = BTreeMap::new();
    for (&(rect, clue), &(_, lit)) in kept.iter().zip(&rects) {
        by_clue.entry(clue).or_default().push(lit);
        for (r, c) in rect.cells() {
            let here = &mut owners[r * cols + c];
            match here.iter_mut().find(|(k, _)| *k == clue) {
                Some((_, lits)) => lits.push(lit),
                None => here.push((clue, vec![lit])),
            }
        }
    }
    // A cell with few candidates gets exactly-one over them, pairwise and without auxiliaries,
    // as before owners existed: owners everywhere made generated dense boards 1.12× slower;
    // they pay where candidates pile up.
    let few = |here: &[(usize, Vec<Lit>)]| {
        here.iter().map(|(_, lits)| lits.len()).sum::<usize>() <= owners_above
    };
    for (&clue, lits) in &by_clue {
        // A clue whose cell is few-candidate has its at-most-one there already (every one of
        // its candidates holds its cell).
        if !few(&owners[clue]) {
            at_most_one(sink, lits);
        }
    }
    for (k, here) in owners.iter().enumerate() {
        if board.cells[k] == Cell::Hole {
            continue;
        }
        let must = must(k);
        if few(here) {
            cover(
                sink,
                &here
                    .iter()
                    .flat_map(|(_, lits)| lits.iter().copied())
                    .collect::<Vec<Lit>>(),
                must,
            );
            continue;
        }
        if here.len() == 1 {
            if !must {
                continue;
            }
            // One clue can own it: one of its candidates covers it, and the clue's at-most-one
            // does the rest.
            sink.add_clause(&here[0].1);
            continue;
        }
        let (r, c) = (k / cols, k % cols);
        let mut owned = Vec::with_capacity(here.len());
        for (clue, lits) in here {
            let o =
                sink.new_named_var(&|| format!("owner {r} {c} {} {}", clue / cols, clue % cols));
            for &l in lits {
                sink.add_clause(&[!l, o]);
            }
            let mut back = Vec::with_capacity(lits.len() + 1);
            back.push(!o);
            back.extend_from_slice(lits);
            sink.add_clause(&back);
            owned.push(o);
        }
        cover(sink, &owned, must);
    }
    // Interior points: index (r, c) is the point below-right of cell (r, c).
    let mut ends: Vec<Vec<Lit>> = vec![Vec::new(); rows * cols];
    let mut starts: Vec<Vec<Lit>> = vec![Vec::new(); rows * cols];
    for &(rect, lit) in &rects {
        let (end, start) = corners(board, &rect);
        end.into_iter().for_each(|p| ends[p].push(lit));
        start.into_iter().for_each(|p| starts[p].push(lit));
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

/// Exactly one of `lits` where the cell must be covered, else at most one.
fn cover<S: ClauseSink>(sink: &mut S, lits: &[Lit], must: bool) {
    if must {
        exactly_one(sink, lits);
    } else {
        at_most_one(sink, lits);
    }
}

pub fn decode(enc: &Encoding, model: &Model) -> Solution {
    crate::genres::rects::decode(&enc.rects, model)
}

/// Excludes one solution.
pub fn block<S: ClauseSink>(enc: &Encoding, sink: &mut S, sol: &Solution) {
    crate::genres::rects::block(&enc.rects, sink, sol)
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn candidates_hold_one_clue_of_the_right_shape_and_no_hole() {
        let board = parse("..-.\n.#..\n+...\n").unwrap();
        let wide = candidates(&board, &Spans::new(&board), 0, 2);
        assert!(!wide.is_empty());
        for r in &wide {
            assert!(r.width > r.height);
            assert!(r.contains(0, 2));
            assert!(!r.contains(2, 0) && !r.contains(1, 1));
        }
        assert!(wide.contains(&Rect {
            row: 0,
            col: 0,
            height: 1,
            width: 4
        }));
        // (0..2, 2..4) is 2×2: square, not wide.
        assert!(!wide.contains(&Rect {
            row: 0,
            col: 2,
            height: 2,
            width: 2
        }));
        assert!(
            !wide.contains(&Rect {
                row: 0,
                col: 2,
                height: 2,
                width: 3
            }),
            "leaves the board"
        );
        assert!(
            !wide.contains(&Rect {
                row: 0,
                col: 1,
                height: 2,
                width: 3
            }),
            "covers the hole"
        );
        let squares = candidates(&board, &Spans::new(&board), 2, 0);
        assert_eq!(
            squares,
            vec![Rect {
                row: 2,
                col: 0,
                height: 1,
                width: 1
            }]
        );
        assert!(
            candidates(&board, &Spans::new(&board), 1, 0).is_empty(),
            "a blank cell has no candidates"
        );
    }

    fn brute_candidates(board: &Board, cr: usize, cc: usize, shape: Shape) -> Vec<Rect> {
        let mut brute = Vec::new();
        for row in 0..board.rows {
            for col in 0..board.cols {
                for height in 1..=board.rows - row {
                    for width in 1..=board.cols - col {
                        let rect = Rect {
                            row,
                            col,
                            height,
                            width,
                        };
                        let clues = rect
                            .cells()
                            .filter(|&(r, c)| matches!(board.cell(r, c), Cell::Clue(_)))
                            .count();
                        let holes = rect.cells().any(|(r, c)| board.cell(r, c) == Cell::Hole);
                        if rect.contains(cr, cc)
                            && clues == 1
                            && !holes
                            && shape.admits(height, width)
                        {
                            brute.push(rect);
                        }
                    }
                }
            }
        }
        brute
    }

    #[test]
    fn candidate_enumeration_matches_brute_force() {
        let mut boards = vec![parse("..-...|\n.+..#..\n|...-..\n...+...\n-.....|\n").unwrap()];
        // Random boards, tall and wide, sparse and dense, with holes.
        let mut rng = super::super::generate::Rng::new(7);
        for _ in 0..300 {
            let (rows, cols) = (1 + rng.below(9), 1 + rng.below(9));
            let density = 1 + rng.below(4);
            let text: String = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| {
                            if rng.below(8) < density {
                                ['+', '-', '|', '?', '#'][rng.below(5)]
                            } else {
                                '.'
                            }
                        })
                        .collect::<String>()
                        + "\n"
                })
                .collect();
            boards.push(parse(&text).unwrap());
        }
        for board in &boards {
            let spans = Spans::new(board);
            for cr in 0..board.rows {
                for cc in 0..board.cols {
                    let Cell::Clue(shape) = board.cell(cr, cc) else {
                        continue;
                    };
                    let brute = brute_candidates(board, cr, cc, shape);
                    assert_eq!(
                        candidates(board, &spans, cr, cc),
                        brute,
                        "clue at ({cr}, {cc}) of\n{}",
                        board.to_text()
                    );
                }
            }
        }
    }

    /// Each removal of pruning and probing, in [`removals`]' order, is a RUP lemma of the plain
    /// formula: choosing the candidate, with the removals before it as units, propagates to a
    /// conflict. Certificates rest on this (their proofs start with these units).
    #[test]
    fn every_removal_follows_from_the_plain_formula_by_propagation() {
        use crate::cnf::Cnf;
        let mut rng = super::super::generate::Rng::new(23);
        let mut boards: Vec<String> = vec!["+.\n.+\n".into()];
        for _ in 0..300 {
            let (rows, cols) = (2 + rng.below(6), 2 + rng.below(6));
            boards.push(
                (0..rows)
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
                    .collect(),
            );
        }
        boards.push(
            super::super::generate::Generated::new(
                12,
                12,
                &mut super::super::generate::Rng::new(3),
            )
            .board()
            .to_text(),
        );
        let mut checked = 0;
        for text in &boards {
            let board = parse(text).unwrap();
            let mut cnf = Cnf::new();
            let enc = encode_plain(&board, &mut cnf);
            let lit: HashMap<Rect, Lit> = enc.rects.iter().copied().collect();
            for rect in removals(&board) {
                let l = lit[&rect];
                let mut probe = cnf.clone();
                probe.add_clause(&[l]);
                assert_eq!(
                    crate::cnf::propagate::units(probe),
                    None,
                    "{rect:?} is no RUP lemma of\n{text}"
                );
                cnf.add_clause(&[!l]);
                checked += 1;
            }
        }
        assert!(
            checked > 500,
            "only {checked} removals: the test shows little"
        );
    }

    /// A formula past a limited sink's room is refused whole: not one clause goes in.
    #[test]
    fn a_formula_past_the_limit_is_refused_before_any_clause() {
        use crate::cnf::{Cnf, Limited};
        let board = super::super::generate::Generated::new(
            12,
            12,
            &mut super::super::generate::Rng::new(3),
        )
        .board();
        let mut counted = SizeCounter::default();
        encode(&board, &mut counted);
        let mut tight = Limited::new(Cnf::new(), counted.literals - 1);
        assert!(encode(&board, &mut tight).rects.is_empty());
        assert!(tight.over().is_some() && tight.inner.clauses.is_empty());
        let mut enough = Limited::new(Cnf::new(), counted.literals);
        assert!(!encode(&board, &mut enough).rects.is_empty());
        assert!(enough.over().is_none());
        assert_eq!(
            enough
                .inner
                .clauses
                .iter()
                .map(|c| c.len() as u64)
                .sum::<u64>(),
            counted.literals
        );
    }

    /// A tall board whose clues all sit in the top row: every column must be one rectangle,
    /// found by pruning from the bottom row's single candidates. Pruning used to rescan each
    /// forced rectangle from every cell it covers (cubic in the height: 6 s at 511×10); it now
    /// takes a few steps per cell of the candidates.
    #[test]
    fn pruning_tall_boards_is_linear_in_the_candidates_area() {
        for rows in [64, 511] {
            let text = "|".repeat(10) + "\n" + &(".".repeat(10) + "\n").repeat(rows - 1);
            let board = parse(&text).unwrap();
            let spans = Spans::new(&board);
            let cands: Vec<(Rect, usize)> = (0..10)
                .flat_map(|c| {
                    candidates(&board, &spans, 0, c)
                        .into_iter()
                        .map(move |r| (r, c))
                })
                .collect();
            let area: usize = cands.iter().map(|(r, _)| r.height * r.width).sum();
            let (kept, steps) = prune(&board, cands);
            let columns: Vec<(Rect, usize)> = (0..10)
                .map(|c| {
                    (
                        Rect {
                            row: 0,
                            col: c,
                            height: rows,
                            width: 1,
                        },
                        c,
                    )
                })
                .collect();
            assert_eq!(kept, columns);
            assert!(
                steps <= 4 * area,
                "{rows} rows: {steps} steps for candidates of total area {area}"
            );
        }
    }
}
