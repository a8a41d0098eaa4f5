//! What the rectangle genres' explanations share ([`crate::explain`]): a fact per candidate
//! rectangle ("the rectangle of the 6 at (2,5) is the 2×3 from (1,4) to (2,6)"), a rule per
//! clue that it gets one of its candidates, a rule per other cell that one chosen rectangle
//! covers it, and the board as the steps leave it.

use super::{Area, Rect};
use crate::cnf::amo::exactly_one;
use crate::cnf::{ClauseSink, Lit};
use crate::explain::{Fact, Rules};
use std::collections::{HashMap, HashSet};

/// "(2,3)", 1-based.
pub fn at(i: usize, cols: usize) -> String {
    format!("({},{})", i / cols + 1, i % cols + 1)
}

/// "the 2×3 from (1,1) to (2,3)"; a single cell "the 1×1 at (2,2)".
pub fn words(rect: &Rect) -> String {
    let corner = |r: usize, c: usize| format!("({},{})", r + 1, c + 1);
    let (h, w) = (rect.height, rect.width);
    let first = corner(rect.row, rect.col);
    if h == 1 && w == 1 {
        format!("the 1×1 at {first}")
    } else {
        let last = corner(rect.row + h - 1, rect.col + w - 1);
        format!("the {h}×{w} from {first} to {last}")
    }
}

/// The rules over every candidate `(rectangle, its clue's cell)`: a variable each, made before
/// any rule so that the genre's `decode` reads them; then a rule per clue of `clues`
/// (row-major), "`clue(i)` gets one `what(i)`", exactly one of its candidates;
/// then "(r,c) is covered once" for every cell on the board but the clues' (only a clue's own
/// candidates cover its cell, so its rule says that already).
pub fn clues_and_cover<A: Area + ?Sized>(
    area: &A,
    clues: &[usize],
    candidates: &[(Rect, usize)],
    clue: &dyn Fn(usize) -> String,
    what: &dyn Fn(usize) -> String,
) -> (Rules, Vec<(Rect, Lit)>) {
    let cols = area.cols();
    let mut rules = Rules::new();
    let rects: Vec<(Rect, Lit)> = candidates
        .iter()
        .map(|&(rect, _)| (rect, rules.new_var()))
        .collect();
    let mut cover: Vec<Vec<Lit>> = vec![Vec::new(); area.rows() * cols];
    let mut own: HashMap<usize, Vec<Lit>> = HashMap::new();
    for (&(rect, k), &(_, lit)) in candidates.iter().zip(&rects) {
        own.entry(k).or_default().push(lit);
        for (r, c) in rect.cells() {
            cover[r * cols + c].push(lit);
        }
    }
    let is_clue: HashSet<usize> = clues.iter().copied().collect();
    for &k in clues {
        rules.rule(
            format!("{} at {} gets one {}", clue(k), at(k, cols), what(k)),
            vec![k],
        );
        // None: the empty clause, which the name still says.
        exactly_one(&mut rules, own.get(&k).map_or(&[][..], |l| &l[..]));
    }
    for (i, lits) in cover.iter().enumerate() {
        if !area.on(i) || is_clue.contains(&i) {
            continue;
        }
        rules.rule(format!("{} is covered once", at(i, cols)), vec![i]);
        exactly_one(&mut rules, lits);
    }
    (rules, rects)
}

/// A fact per candidate: "the `region` of `clue(k)` at (r,c) is the 2×3 from … to …".
pub fn facts(
    candidates: &[(Rect, usize)],
    rects: &[(Rect, Lit)],
    cols: usize,
    region: &str,
    clue: &dyn Fn(usize) -> String,
) -> Vec<Fact> {
    candidates
        .iter()
        .zip(rects)
        .map(|(&(rect, k), &(_, lit))| Fact {
            lit,
            subject: format!("the {region} of {} at {}", clue(k), at(k, cols)),
            is: words(&rect),
            otherwise: None,
            cells: rect.cells().map(|(r, c)| r * cols + c).collect(),
        })
        .collect()
}

/// The rectangles `known` places, sorted.
pub fn placed(rects: &[(Rect, Lit)], known: &[Lit]) -> Vec<Rect> {
    let set: HashSet<Lit> = known.iter().copied().collect();
    let mut placed: Vec<Rect> = rects
        .iter()
        .filter(|(_, l)| set.contains(l))
        .map(|&(r, _)| r)
        .collect();
    placed.sort();
    placed
}

/// The board in box-drawing lines with the rectangles `known` places outlined, each cell's
/// `mark` (its clue) in place, and the cells no placed rectangle covers yet outlined as one
/// region, `.` in those without a mark.
pub fn draw<A: Area + ?Sized>(
    area: &A,
    rects: &[(Rect, Lit)],
    known: &[Lit],
    mark: impl Fn(usize) -> String,
) -> String {
    let placed = placed(rects, known);
    let open = placed.len();
    let owner: Vec<Option<usize>> = super::owners(area, &placed)
        .into_iter()
        .enumerate()
        .map(|(i, o)| o.or(area.on(i).then_some(open)))
        .collect();
    super::render_regions(area, &owner, |i| match mark(i) {
        m if !m.is_empty() => m,
        _ if owner[i] == Some(open) => ".".into(),
        _ => String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_are_named_by_their_size_and_corners() {
        let r = |row, col, height, width| Rect {
            row,
            col,
            height,
            width,
        };
        assert_eq!(words(&r(0, 0, 2, 3)), "the 2×3 from (1,1) to (2,3)");
        assert_eq!(words(&r(1, 1, 1, 1)), "the 1×1 at (2,2)");
        assert_eq!(words(&r(4, 2, 3, 1)), "the 3×1 from (5,3) to (7,3)");
    }
}
