//! The CNF of a Kakkuro board. Variables per cell: gray (constant for given grays), one-hot
//! digit (white cells), one-hot number (gray cells), open per side. Clause families, each
//! sized in docs/encodings/kakkuro.md:
//!
//! - **segment sums**: for each cell and direction, the one-hot sum of the white cells from
//!   it up to the next gray cell (0 on a gray cell, 45 meaning "45 or more"), by
//!   `digit(i) = k ∧ sum(next) = v → sum(i) = v + k`; an open side then says
//!   `sum(neighbour) = v → number = v` (rule 1). One vector per cell and direction serves every
//!   gray cell whose run passes there, instead of one partial-sum chain per run.
//! - **flow**: `flow_d(i)` says the nearest gray cell behind `i` (against direction `d`, all
//!   cells between white) is open towards `d`. A white cell needs some flow (rule 5); a gray
//!   cell with flow from `d` may not be open back (rule 4).
//! - rule 3 (some side open), rule 7 (at most one of each digit and each number per line;
//!   lenient mode instead forces a literal per gray cell with a repeated digit in an open run
//!   and leaves pairs of equal numbers to be counted by the bound), and the red dots' exact
//!   factor literals.
//! - strict mode, redundant: at most nine white cells per line (see [`at_most_nine_white`]).

use super::{factor, opposite, Answer, Cell, Given, Puzzle, MAX_NUMBER};
use crate::cnf::amo::{at_most_one, exactly_one};
use crate::cnf::sum::{encode_sum, Bound, Use};
use crate::cnf::{ClauseSink, Lit, Model};

/// Segment sums are one-hot over 0..=45; 45 stands for 45 or more.
const OVER: usize = 45;

pub struct Encoding {
    /// A literal fixed true (given grays' `gray`).
    pub truth: Lit,
    pub gray: Vec<Lit>,
    /// Per cell: digits 1..=9 (empty for given grays).
    pub digit: Vec<Vec<Lit>>,
    /// Per cell: `(number, literal)` for every number it could get (empty when it cannot be gray).
    pub number: Vec<Vec<(u32, Lit)>>,
    /// Per cell and side: the open literal, `None` where the side can never be open.
    pub open: Vec<[Option<Lit>; 4]>,
    /// The `gray` literals of given white cells.
    pub painted: Vec<Lit>,
    /// Lenient mode: per gray cell, a literal forced true when one of its open runs repeats a
    /// digit (one error each).
    pub repeats: Vec<Lit>,
    /// Lenient mode: per row and column, its gray numbers (each pair of equal ones is an
    /// error); counted by [`super::bound::divisor`] only as far as a bound needs.
    pub lines: Vec<LineNumbers>,
    /// Per red dot (row-major): `(factor, literal)`, the literal true exactly when the dot's
    /// factor is that value; sorted by factor, descending.
    pub factors: Vec<Vec<(u64, Lit)>>,
    /// Strict mode: no answer paints fewer cells (see [`fewest_painted`]); 0 in lenient mode.
    pub fewest_painted: u64,
    /// Lenient mode: blocks are per factor combination (see [`super::bound::block`]).
    pub lenient: bool,
}

/// A line's number literals, for lenient mode's pair errors.
pub struct LineNumbers {
    /// How many of its cells can be gray: at most `C(cells, 2)` pairs of equal numbers.
    pub cells: usize,
    /// Per number that two or more of its cells can hold, their literals for it.
    pub by_value: Vec<Vec<Lit>>,
}

/// The largest sum of a run of `len` white cells: distinct digits in strict mode.
fn max_run_sum(len: usize, lenient: bool) -> u32 {
    let sum = if lenient {
        9 * len as u32
    } else {
        (0..len.min(9) as u32).map(|k| 9 - k).sum()
    };
    sum.min(MAX_NUMBER)
}

// Cells `i`, sides `d` and digits `k` index several tables at once (`open[i][d]`, `sums[d][i]`,
// `digit[i][k]`, `count[k]`, `STEP[d]`), as in the loops clippy leaves alone.
#[allow(clippy::needless_range_loop)]
pub fn encode<S: ClauseSink>(p: &Puzzle, sink: &mut S) -> Encoding {
    let n = p.cells.len();
    let truth = sink.new_named_var(&|| "true".into());
    sink.add_clause(&[truth]);
    let name = |i: usize| format!("r{}c{}", i / p.cols + 1, i % p.cols + 1);
    let white_given = |i: usize| p.cells[i] == Given::White;
    // How far white-given cells reach from each cell towards each side.
    let reach = |i: usize, d: usize| {
        let mut len = 0;
        let mut at = p.step(i, d);
        while let Some(j) = at.filter(|&j| white_given(j)) {
            len += 1;
            at = p.step(j, d);
        }
        len
    };
    let mut gray = Vec::with_capacity(n);
    let mut digit = Vec::with_capacity(n);
    let mut painted = Vec::new();
    for i in 0..n {
        if white_given(i) {
            let g = sink.new_named_var(&|| format!("{} painted", name(i)));
            let ds: Vec<Lit> = (1..=9)
                .map(|k| sink.new_named_var(&|| format!("{} digit {k}", name(i))))
                .collect();
            exactly_one(sink, &[&[g], &ds[..]].concat());
            painted.push(g);
            gray.push(g);
            digit.push(ds);
        } else {
            gray.push(truth);
            digit.push(Vec::new());
        }
    }
    // Open sides and numbers.
    let mut open = vec![[None; 4]; n];
    let mut number = vec![Vec::new(); n];
    for i in 0..n {
        let thick = match p.cells[i] {
            Given::Gray { thick, .. } => thick,
            Given::White => [false; 4],
        };
        let mut top = 0;
        for d in 0..4 {
            let len = reach(i, d);
            if thick[d] || len == 0 {
                continue;
            }
            top = top.max(max_run_sum(len, p.lenient));
            let o = sink.new_named_var(&|| format!("{} open {}", name(i), super::SIDES[d]));
            sink.add_clause(&[!o, gray[i]]);
            open[i][d] = Some(o);
        }
        // Rule 3: some side open (a cell that can open none can never be gray).
        let mut some_open = vec![!gray[i]];
        some_open.extend(open[i].iter().flatten());
        sink.add_clause(&some_open);
        number[i] = (1..=top)
            .map(|v| (v, sink.new_named_var(&|| format!("{} number {v}", name(i)))))
            .collect();
        let mut one = vec![!gray[i]];
        one.extend(number[i].iter().map(|&(_, l)| l));
        exactly_one(sink, &one);
    }
    // Segment sums: sums[d][i][v] for white-given cells (None: a given gray, sum 0).
    let mut sums: [Vec<Option<Vec<Lit>>>; 4] = std::array::from_fn(|_| vec![None; n]);
    for d in 0..4 {
        // From the far end backwards, so the next cell's vector exists.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| {
            let (r, c) = ((i / p.cols) as isize, (i % p.cols) as isize);
            -(r * super::STEP[d].0 + c * super::STEP[d].1)
        });
        for i in order.into_iter().filter(|&i| white_given(i)) {
            let len = 1 + reach(i, d);
            let top = (9 * len).min(OVER);
            let s: Vec<Lit> = (0..=top)
                .map(|v| sink.new_named_var(&|| format!("{} sum {} {v}", name(i), super::SIDES[d])))
                .collect();
            sink.add_clause(&[!gray[i], s[0]]);
            let next: Vec<(usize, Lit)> = match p.step(i, d).and_then(|j| sums[d][j].as_ref()) {
                Some(v) => v.iter().copied().enumerate().collect(),
                None => vec![(0, truth)],
            };
            for (k, &dk) in digit[i].iter().enumerate() {
                for &(v, l) in &next {
                    sink.add_clause(&[!dk, !l, s[(v + k + 1).min(OVER)]]);
                }
            }
            at_most_one(sink, &s);
            sum_support(&digit[i], &next, &s, sink);
            if !p.lenient {
                run_length_bounds(p, &gray, i, d, &s, sink);
            }
            sums[d][i] = Some(s);
        }
    }
    // Rule 1: an open side's run adds up to the number.
    for i in 0..n {
        for d in 0..4 {
            let Some(o) = open[i][d] else { continue };
            let j = p.step(i, d).expect("open sides face a white-given cell");
            for (v, &l) in sums[d][j].as_ref().expect("white given").iter().enumerate() {
                match number[i].iter().find(|&&(u, _)| u as usize == v) {
                    Some(&(_, num)) => sink.add_clause(&[!o, !l, num]),
                    None => sink.add_clause(&[!o, !l]),
                }
            }
        }
    }
    // Flow, rules 4 and 5.
    let mut flow: [Vec<Option<Lit>>; 4] = std::array::from_fn(|_| vec![None; n]);
    for d in 0..4 {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| {
            let (r, c) = ((i / p.cols) as isize, (i % p.cols) as isize);
            r * super::STEP[d].0 + c * super::STEP[d].1
        });
        for i in order {
            let Some(q) = p.step(i, opposite(d)) else {
                continue;
            };
            let (from, carried) = (open[q][d], flow[d][q].filter(|_| white_given(q)));
            if from.is_none() && carried.is_none() {
                continue;
            }
            let f = sink.new_named_var(&|| format!("{} flow {}", name(i), super::SIDES[d]));
            if let Some(o) = from {
                sink.add_clause(&[!o, f]);
            }
            if let Some(c) = carried {
                sink.add_clause(&[gray[q], !c, f]);
            }
            let mut why = vec![!f];
            why.extend(from);
            let mut a = why.clone();
            a.extend(carried);
            sink.add_clause(&a);
            why.push(!gray[q]);
            sink.add_clause(&why);
            flow[d][i] = Some(f);
        }
    }
    for i in 0..n {
        for d in 0..4 {
            if let (Some(f), Some(o)) = (flow[d][i], open[i][opposite(d)]) {
                sink.add_clause(&[!f, !o]);
            }
        }
        if white_given(i) {
            let mut covered = vec![gray[i]];
            covered.extend((0..4).filter_map(|d| flow[d][i]));
            sink.add_clause(&covered);
        }
    }
    // Rule 7, or lenient mode's errors. Pairs of equal numbers are not given a literal each
    // (that is quadratic per line and number): the divisor counts them per line and number.
    let mut lines = Vec::new();
    for line in p.lines() {
        let mut by_value = Vec::new();
        for v in 1..=MAX_NUMBER {
            let lits: Vec<Lit> = line
                .iter()
                .filter_map(|&i| number[i].iter().find(|&&(u, _)| u == v).map(|&(_, l)| l))
                .collect();
            if p.lenient {
                if lits.len() >= 2 {
                    by_value.push(lits);
                }
            } else {
                at_most_one(sink, &lits);
            }
        }
        if p.lenient {
            lines.push(LineNumbers {
                cells: line.iter().filter(|&&i| !number[i].is_empty()).count(),
                by_value,
            });
        }
        if !p.lenient {
            for k in 0..9 {
                let lits: Vec<Lit> = line
                    .iter()
                    .filter(|&&i| white_given(i))
                    .map(|&i| digit[i][k])
                    .collect();
                at_most_one(sink, &lits);
            }
            at_most_nine_white(
                line.iter()
                    .filter(|&&i| white_given(i))
                    .map(|&i| !gray[i])
                    .collect(),
                sink,
            );
        }
    }
    let mut repeats = Vec::new();
    if p.lenient {
        for i in 0..n {
            let mut e = None;
            for d in 0..4 {
                let Some(o) = open[i][d] else { continue };
                // in_t: the first t cells of the run are white (forced, not defined: more
                // errors only lower the score).
                let mut cells = Vec::new();
                let mut at = p.step(i, d);
                while let Some(j) = at.filter(|&j| white_given(j)) {
                    cells.push(j);
                    at = p.step(j, d);
                }
                let mut inside: Vec<Lit> = Vec::new();
                for (t, &j) in cells.iter().enumerate() {
                    let l = sink.new_var();
                    match t {
                        0 => sink.add_clause(&[gray[j], l]),
                        _ => sink.add_clause(&[!inside[t - 1], gray[j], l]),
                    }
                    inside.push(l);
                }
                let err = *e.get_or_insert_with(|| sink.new_var());
                for t2 in 1..cells.len() {
                    for t1 in 0..t2 {
                        for k in 0..9 {
                            sink.add_clause(&[
                                !o,
                                !inside[t2],
                                !digit[cells[t1]][k],
                                !digit[cells[t2]][k],
                                err,
                            ]);
                        }
                    }
                }
            }
            repeats.extend(e);
        }
    }
    // Red dots: count of open sides (forced by each combination), then the exact factor.
    let mut factors = Vec::new();
    for i in p.dots() {
        let opens: Vec<Lit> = open[i].iter().flatten().copied().collect();
        let count: Vec<Lit> = (0..=opens.len()).map(|_| sink.new_var()).collect();
        for mask in 1u32..1 << opens.len() {
            let mut clause: Vec<Lit> = (0..opens.len())
                .map(|b| {
                    if mask >> b & 1 == 1 {
                        !opens[b]
                    } else {
                        opens[b]
                    }
                })
                .collect();
            clause.push(count[mask.count_ones() as usize]);
            sink.add_clause(&clause);
        }
        let mut values: Vec<u64> = number[i]
            .iter()
            .flat_map(|&(v, _)| (1..=opens.len() as u32).map(move |k| factor(v, k)))
            .collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        let lits: Vec<(u64, Lit)> = values
            .iter()
            .map(|&f| (f, sink.new_named_var(&|| format!("{} factor {f}", name(i)))))
            .collect();
        for &(v, num) in &number[i] {
            for k in 1..=opens.len() {
                let f = factor(v, k as u32);
                let fl = lits.iter().find(|&&(g, _)| g == f).expect("listed").1;
                sink.add_clause(&[!num, !count[k], fl]);
            }
        }
        at_most_one(sink, &lits.iter().map(|&(_, l)| l).collect::<Vec<_>>());
        factors.push(lits);
    }
    let fewest_painted = if p.lenient { 0 } else { fewest_painted(p) };
    Encoding {
        truth,
        gray,
        digit,
        number,
        open,
        painted,
        repeats,
        lines,
        factors,
        fewest_painted,
        lenient: p.lenient,
    }
}

/// Strict mode: a lower bound on the painted cells of every answer. A line with `w > 9` given
/// white cells keeps at most nine of them white (rule 7: nine different digits), so it paints
/// at least `w − 9`; rows are disjoint, and so are columns, so the answer paints at least the
/// larger of the rows' and the columns' totals. The solver could only find this by adding up
/// the lines' counters, which resolution does badly (issue 22).
pub fn fewest_painted(p: &Puzzle) -> u64 {
    let lines = p.lines();
    let need = |line: &Vec<usize>| {
        line.iter()
            .filter(|&&i| p.cells[i] == Given::White)
            .count()
            .saturating_sub(9) as u64
    };
    let (rows, cols) = lines.split_at(p.rows);
    rows.iter()
        .map(need)
        .sum::<u64>()
        .max(cols.iter().map(need).sum())
}

/// Implied clauses: a segment sum `v ≥ 1` needs a digit `k` and a next sum `u` that add up
/// to it (`min(u + k, 45) = v`), and some value holds. The recurrence only forces forward;
/// these let a known sum (a gray cell's number) narrow the digits and sums behind it.
fn sum_support<S: ClauseSink>(digit: &[Lit], next: &[(usize, Lit)], s: &[Lit], sink: &mut S) {
    sink.add_clause(s);
    for (v, &sv) in s.iter().enumerate().skip(1) {
        let fits = |k: usize, u: usize| (u + k + 1).min(OVER) == v;
        let mut by_next = vec![!sv];
        by_next.extend(
            next.iter()
                .filter(|&&(u, _)| (0..9).any(|k| fits(k, u)))
                .map(|&(_, l)| l),
        );
        sink.add_clause(&by_next);
        let mut by_digit = vec![!sv];
        by_digit.extend(
            (0..9)
                .filter(|&k| next.iter().any(|&(u, _)| fits(k, u)))
                .map(|k| digit[k]),
        );
        sink.add_clause(&by_digit);
    }
}

/// Implied clauses (strict mode): L distinct digits add up to at least L(L+1)/2 and at most
/// the L largest, so a segment sum `v` fixes bounds on the segment's length: the cells up to
/// the shortest length are white, and some cell up to one past the longest is gray. Redundant, but they
/// let the solver see at once that a large number needs a long run.
fn run_length_bounds<S: ClauseSink>(
    p: &Puzzle,
    gray: &[Lit],
    i: usize,
    d: usize,
    s: &[Lit],
    sink: &mut S,
) {
    let ahead: Vec<usize> = std::iter::successors(p.step(i, d), |&j| p.step(j, d)).collect();
    for (v, &sv) in s.iter().enumerate().skip(1).take(44) {
        let v = v as u32;
        let shortest = (1..=9)
            .find(|&l| (0..l).map(|k| 9 - k).sum::<u32>() >= v)
            .unwrap_or(9) as usize;
        let longest = (1..=9)
            .take_while(|&l| l * (l + 1) / 2 <= v)
            .last()
            .unwrap_or(1) as usize;
        for t in 1..shortest {
            match ahead.get(t - 1) {
                Some(&j) => sink.add_clause(&[!sv, !gray[j]]),
                None => sink.add_clause(&[!sv]),
            }
        }
        if ahead.len() >= longest {
            let mut some_gray = vec![!sv];
            some_gray.extend(ahead[..longest].iter().map(|&j| gray[j]));
            sink.add_clause(&some_gray);
        }
    }
}

pub fn decode(enc: &Encoding, model: &Model) -> Answer {
    let cells = (0..enc.gray.len())
        .map(|i| {
            if model.value(enc.gray[i]) {
                let number = enc.number[i]
                    .iter()
                    .find(|&&(_, l)| model.value(l))
                    .map_or(0, |&(v, _)| v);
                Cell::Gray {
                    number,
                    open: enc.open[i].map(|o| o.is_some_and(|l| model.value(l))),
                }
            } else {
                Cell::White(
                    enc.digit[i]
                        .iter()
                        .position(|&l| model.value(l))
                        .map_or(0, |k| k as u32 + 1),
                )
            }
        })
        .collect();
    Answer { cells }
}

/// Redundant: at most nine of a line's cells are white, since rule 7 gives them nine
/// different digits. Rule 7's clauses imply it, but only through the pigeonhole principle,
/// which resolution proves in exponentially many steps: on a line of ten or more cells the
/// solver would never learn that it must paint (issue 22: Kakkuro boards with long lines). A
/// totalizer over the white cells, capped at ten, its ten-output refuted.
fn at_most_nine_white<S: ClauseSink>(white: Vec<Lit>, sink: &mut S) {
    if white.len() <= 9 {
        return;
    }
    let singles: Vec<Vec<(Lit, u64)>> = white.into_iter().map(|l| vec![(l, 1)]).collect();
    if let Bound::Lit(l) = encode_sum(sink, &singles, Some(10), Use::AtMost).at_most(9) {
        sink.add_clause(&[l]);
    }
}

/// Fixes every cell's value (and which cells are gray) to `answer`'s, leaving the sides free:
/// checking a bare contest string is then finding the best sides.
pub fn fix_values<S: ClauseSink>(enc: &Encoding, sink: &mut S, answer: &Answer) {
    for (i, cell) in answer.cells.iter().enumerate() {
        match *cell {
            Cell::White(k) => {
                sink.add_clause(&[!enc.gray[i]]);
                match enc.digit[i].get((k as usize).wrapping_sub(1)) {
                    Some(&l) => sink.add_clause(&[l]),
                    None => sink.add_clause(&[!enc.truth]),
                }
            }
            Cell::Gray { number, .. } => {
                sink.add_clause(&[enc.gray[i]]);
                match enc.number[i].iter().find(|&&(v, _)| v == number) {
                    Some(&(_, l)) => sink.add_clause(&[l]),
                    None => sink.add_clause(&[!enc.truth]),
                }
            }
        }
    }
}
