//! Bounding the score in CNF, for the optimiser and `encode --min-score`. The score is a
//! product, so it is bounded on a log scale: each red dot's *deficit* `ln f̂ − ln f` (its factor
//! against the largest it can get alone, `f̂`), plus `ln max(D, 1)` for painted cells and
//! errors, plus `ln 1.1` when there are errors. A better answer has a smaller total deficit.
//! Deficits become integers in units of 1/[`SCALE`], each rounded *down*, so the CNF bound
//! never cuts a better answer; it may let a slightly worse one through, which the search
//! re-scores exactly and excludes with [`block`].
//!
//! Everything is counted only as far as the bound needs: the sum of deficits is a generalized
//! totalizer ([`crate::cnf::sum`]) capped just above the bound, `D` a totalizer capped where
//! `ln D` alone passes that cap, and lenient mode's pairs of equal numbers are counted per line
//! and number, capped the same way. Each dot's table (its factor literals' deficit units) is
//! computed once and shared by every sum the search builds; each sum's leaves merge the
//! deficits from its cap up into one output, so that a bound refutes them all at once.

use super::Encoding;
use crate::cnf::sum::{encode_sum, encode_sum_of, Bound, SumOutputs, Use};
use crate::cnf::{ClauseSink, Lit, SizeCounter};

/// Units per natural-log unit: at 100, a dot's rounding costs under 1% of the score.
pub const SCALE: f64 = 100.0;

/// Floating-point slack: every rounding leans the sound way by this much.
const SLACK: f64 = 1e-7;

fn units(x: f64) -> u64 {
    (SCALE * x - SLACK).floor().max(0.0) as u64
}

/// `ln max(d, 1)` in units, rounded down.
fn ln_units(d: u64) -> u64 {
    units((d.max(1) as f64).ln())
}

/// The deficit units of an error (the lost bonus).
fn bonus_units() -> u64 {
    units(1.1f64.ln())
}

/// The deficit units every answer has from painting alone: `ln` of the fewest painted cells.
pub fn floor_units(enc: &Encoding) -> u64 {
    ln_units(enc.fewest_painted)
}

/// The smallest `d` whose `ln d` alone reaches `cap` units: `D` never needs counting further.
fn divisor_cap(cap: u64) -> u64 {
    let (mut lo, mut hi) = (2u64, 1 << 62);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if ln_units(mid) >= cap {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

fn pairs(c: u64) -> u64 {
    c * c.saturating_sub(1) / 2
}

/// The count `D` of painted cells and errors, in unary up to a cap, for the bound and for
/// blocking.
pub struct Divisor {
    /// `at_least[d]` for d = 0..=cap: forced true when `min(D, cap) ≥ d`.
    at_least: Vec<Lit>,
    cap: u64,
    /// Whether the cap is above every value `D` can take, so that `D` is counted exactly.
    exact: bool,
    /// Forced true when there is an error (lenient mode).
    any_error: Option<Lit>,
    truth: Lit,
}

impl Divisor {
    /// A literal forced true when `D ≥ d`, or `None` when `d` is past the cap.
    pub fn at_least(&self, d: u64) -> Option<Lit> {
        match self.at_least.get(d as usize) {
            Some(&l) => Some(l),
            None => self.exact.then_some(!self.truth),
        }
    }

    /// A literal forced true when there is an error (lenient mode, where one can occur).
    pub fn any_error(&self) -> Option<Lit> {
        self.any_error
    }
}

/// The largest `D` the divisor's count can reach: painted cells, cells with a repeated digit,
/// and per line at most `C(cells, 2)` pairs of equal numbers.
pub fn most_divisor(enc: &Encoding) -> u64 {
    let lines: u64 = enc
        .lines
        .iter()
        .map(|l| pairs(l.cells as u64).min(l.by_value.iter().map(|v| pairs(v.len() as u64)).sum()))
        .sum();
    (enc.painted.len() + enc.repeats.len()) as u64 + lines
}

/// Counts `D` up to `cap` (at least 2; past [`most_divisor`] it is exact). Lenient mode's pairs
/// of equal numbers: per line and number, the cells holding it are counted up to the first
/// count whose pairs reach the line's cap, and that count's outputs are read as pairs
/// (`c ≥ j` is `C(c, 2) ≥ C(j, 2)`); per line the pairs are summed up to `min(cap, C(cells, 2))`.
pub fn divisor<S: ClauseSink>(enc: &Encoding, cap: u64, sink: &mut S) -> Divisor {
    let most = most_divisor(enc);
    let cap = cap.clamp(2, most.max(1) + 1);
    let mut nodes: Vec<Vec<(u64, Lit)>> = enc
        .painted
        .iter()
        .chain(&enc.repeats)
        .map(|&l| vec![(1, l)])
        .collect();
    let mut any = enc.repeats.clone();
    for line in &enc.lines {
        let line_cap = cap.min(pairs(line.cells as u64));
        let mut values = Vec::new();
        for lits in &line.by_value {
            let count_cap = (2..)
                .find(|&c| pairs(c) >= line_cap)
                .unwrap_or(2)
                .min(lits.len() as u64);
            let singles: Vec<Vec<(Lit, u64)>> = lits.iter().map(|&l| vec![(l, 1)]).collect();
            let count = encode_sum(sink, &singles, Some(count_cap), Use::AtMost);
            any.extend(
                count
                    .outputs
                    .iter()
                    .filter(|&&(c, _)| c == 2)
                    .map(|&(_, l)| l),
            );
            values.push(
                count
                    .outputs
                    .iter()
                    .filter(|&&(c, _)| c >= 2)
                    .map(|&(c, l)| (pairs(c), l))
                    .collect(),
            );
        }
        nodes.push(encode_sum_of(sink, &values, Some(line_cap), Use::AtMost).outputs);
    }
    let outs = encode_sum_of(sink, &nodes, Some(cap), Use::AtMost);
    let at_least: Vec<Lit> = (0..=cap)
        .map(|d| match d {
            0 => enc.truth,
            _ => outs
                .outputs
                .iter()
                .find(|&&(v, _)| v >= d)
                .map_or(!enc.truth, |&(_, l)| l),
        })
        .collect();
    // Strict mode: D is at least the painted cells every answer needs, a lemma the solver
    // would otherwise derive only by adding up the lines' counters (see `fewest_painted`).
    if enc.fewest_painted >= 2 {
        sink.add_clause(&[at_least[enc.fewest_painted.min(cap) as usize]]);
    }
    let any_error = (!any.is_empty()).then(|| {
        let a = sink.new_var();
        any.iter().for_each(|&e| sink.add_clause(&[!e, a]));
        a
    });
    Divisor {
        at_least,
        cap,
        exact: cap > most,
        any_error,
        truth: enc.truth,
    }
}

/// Each red dot's table: `(literal, deficit units)` per factor up to its maximum `f̂`.
fn dot_units(enc: &Encoding, maxima: &[u64]) -> Vec<Vec<(Lit, u64)>> {
    enc.factors
        .iter()
        .zip(maxima)
        .map(|(lits, &top)| {
            lits.iter()
                .filter(|&&(f, _)| f <= top)
                .map(|&(f, l)| (l, units((top as f64).ln() - (f as f64).ln())))
                .collect()
        })
        .collect()
}

/// The score's deficit for the search: the red dots' tables, computed once, and the capped
/// sums built on them.
pub struct Deficits {
    /// Per red dot: `(factor literal, deficit units)`.
    dots: Vec<Vec<(Lit, u64)>>,
}

impl Deficits {
    /// `maxima[r]` is `f̂` of dot r (factors above it must already be excluded).
    pub fn new(enc: &Encoding, maxima: &[u64]) -> Deficits {
        Deficits {
            dots: dot_units(enc, maxima),
        }
    }

    /// The total deficit in units is at most the returned sum's value; values from `cap` up
    /// are merged. `div` must count `D` at least to [`Deficits::divisor_for`]`(cap)`.
    pub fn sum<S: ClauseSink>(&self, div: &Divisor, cap: u64, sink: &mut S) -> SumOutputs {
        assert!(
            div.exact || ln_units(div.cap) >= cap,
            "the divisor is capped below the sum's cap"
        );
        let mut nodes = self.dots.clone();
        // ln D as increments: D ≥ d costs V(d) − V(d − 1), so D costs V(D) = ⌊SCALE·ln D⌋ (up
        // to the divisor's cap, where V alone reaches the sum's cap).
        for d in 2..=div.cap {
            let step = ln_units(d) - ln_units(d - 1);
            if step > 0 && div.at_least[d as usize] != !div.truth {
                nodes.push(vec![(div.at_least[d as usize], step)]);
            }
        }
        if let Some(any) = div.any_error {
            nodes.push(vec![(any, bonus_units())]);
        }
        encode_sum(sink, &nodes, Some(cap), Use::AtMost)
    }

    /// How far `D` must be counted for a sum capped at `cap`.
    pub fn divisor_for(cap: u64) -> u64 {
        divisor_cap(cap)
    }
}

/// The deficit as costs for a core-guided search ([`crate::search::cores`]): each dot's factor
/// literals with their units below `maxima`, `D ≥ d` with its increment for each `d` past the
/// fewest painted cells, and an error with the lost bonus; and the units every answer pays
/// (the increments up to the fewest painted cells, which the divisor asserts). `div` must
/// count `D` exactly. An answer pays exactly its rounded deficit: the literals true in it.
pub fn deficit_costs(enc: &Encoding, maxima: &[u64], div: &Divisor) -> (Vec<(Lit, u64)>, u64) {
    assert!(div.exact, "the divisor counts D exactly");
    let mut costs: Vec<(Lit, u64)> = dot_units(enc, maxima).concat();
    let fewest = enc.fewest_painted.max(1);
    for d in fewest + 1..div.cap {
        costs.push((div.at_least[d as usize], ln_units(d) - ln_units(d - 1)));
    }
    if let Some(any) = div.any_error {
        costs.push((any, bonus_units()));
    }
    (costs, ln_units(fewest))
}

/// Asserts that the total deficit is at most `k` units (`encode --min-score`), with `maxima`
/// the dots' `f̂`. Whichever way is smaller: the deficit sum capped at `k + 1`, or the
/// *surplus* `T − deficit` (T the largest total) at least `T − k`, capped there: a weak bound
/// (k near T) then costs little. A bound every answer meets costs nothing.
pub fn assert_deficit_at_most<S: ClauseSink>(enc: &Encoding, maxima: &[u64], k: u64, sink: &mut S) {
    let most_d = most_divisor(enc);
    let can_err = !enc.repeats.is_empty() || enc.lines.iter().any(|l| !l.by_value.is_empty());
    let dots = dot_units(enc, maxima);
    let largest: u64 = dots
        .iter()
        .map(|g| g.iter().map(|t| t.1).max().unwrap_or(0))
        .sum::<u64>()
        + ln_units(most_d)
        + if can_err { bonus_units() } else { 0 };
    if k >= largest {
        return;
    }
    let mut sizes = [SizeCounter::default(), SizeCounter::default()];
    deficit_at_most(enc, maxima, k, &mut sizes[0]);
    surplus_at_least(enc, &dots, most_d, largest - k, &mut sizes[1]);
    if sizes[0].clauses <= sizes[1].clauses {
        deficit_at_most(enc, maxima, k, sink);
    } else {
        surplus_at_least(enc, &dots, most_d, largest - k, sink);
    }
}

fn assert_bound<S: ClauseSink>(bound: Bound, sink: &mut S) {
    match bound {
        Bound::Trivial => {}
        Bound::Impossible => sink.add_clause(&[]),
        Bound::Lit(l) => sink.add_clause(&[l]),
    }
}

fn deficit_at_most<S: ClauseSink>(enc: &Encoding, maxima: &[u64], k: u64, sink: &mut S) {
    let div = divisor(enc, divisor_cap(k + 1), sink);
    let sum = Deficits::new(enc, maxima).sum(&div, k + 1, sink);
    assert_bound(sum.at_most(k), sink);
}

/// Surplus `largest − deficit` ≥ `need`: each dot's literal carries its table's largest
/// deficit minus its own, `D < d` carries the increment `V(d) − V(d − 1)` for d up to the
/// largest `D` (so `D` is counted exactly), and no error carries the bonus. A literal is only
/// true when what it claims holds, so the surplus claimed is at most the true one.
fn surplus_at_least<S: ClauseSink>(
    enc: &Encoding,
    dots: &[Vec<(Lit, u64)>],
    most_d: u64,
    need: u64,
    sink: &mut S,
) {
    let div = divisor(enc, most_d + 1, sink);
    let mut groups: Vec<Vec<(Lit, u64)>> = dots
        .iter()
        .map(|g| {
            let top = g.iter().map(|t| t.1).max().unwrap_or(0);
            g.iter().map(|&(l, u)| (l, top - u)).collect()
        })
        .collect();
    for d in 2..=most_d {
        groups.push(vec![(
            !div.at_least[d as usize],
            ln_units(d) - ln_units(d - 1),
        )]);
    }
    if let Some(any) = div.any_error {
        groups.push(vec![(!any, bonus_units())]);
    }
    assert_bound(
        encode_sum(sink, &groups, Some(need), Use::AtLeast).at_least(need),
        sink,
    );
}

/// An answer's exact deficit on the log scale (not rounded): factors per dot, `D`, `E`.
pub fn deficit(maxima: &[u64], factors: &[u64], d: u64, e: u64) -> f64 {
    let dots: f64 = maxima
        .iter()
        .zip(factors)
        .map(|(&m, &f)| (m as f64).ln() - (f as f64).ln())
        .sum();
    dots + (d.max(1) as f64).ln() + if e > 0 { 1.1f64.ln() } else { 0.0 }
}

/// The exact deficit every answer has once "at most `k` rounded units" is refuted: each
/// term is rounded down, so a rounded total above `k` means an exact one of at least
/// `(k + 1) / SCALE`, less the slack.
pub fn refuted(k: u64) -> f64 {
    ((k + 1) as f64 - SLACK * 1e3) / SCALE
}

/// The largest total of rounded deficit units a strictly better answer than one of exact
/// deficit `best` can have, or `None` when nothing can be better (no deficit below zero).
pub fn better_than(best: f64) -> Option<u64> {
    let limit = (SCALE * best + SLACK).ceil() - 1.0;
    (limit >= 0.0).then_some(limit as u64)
}

/// The largest total of rounded deficit units an answer scoring at least `score` can have
/// (its deficit is at most `Σ ln f̂ + ln 1.1 − ln score`), or `None` when no answer can score
/// that much.
pub fn at_least_score(maxima: &[u64], score: f64) -> Option<u64> {
    let top: f64 = maxima.iter().map(|&m| (m as f64).ln()).sum::<f64>() + 1.1f64.ln();
    let allowed = top - score.ln();
    (allowed >= -SLACK).then(|| (SCALE * allowed.max(0.0) + SLACK).floor() as u64)
}

/// Excludes every answer that an answer with these factors, `d` painted cells and errors and
/// `e` errors dominates: what is left must raise some factor, have a smaller `D` (when `D ≥ 2`:
/// below that `max(D, 1)` is 1 anyway), or no error where there was one. The score only grows
/// with each factor and falls with `D`, so nothing excluded scores more than that answer. In
/// lenient mode "raise some factor" is "change some factor", as before issue 22: the dominated
/// form made two of 15 lenient boards 1.7× and 5× slower (strict boards: up to 2× faster).
/// `div` must count `D` past `d` (see [`Divisor::at_least`]).
pub fn block<S: ClauseSink>(
    enc: &Encoding,
    div: &Divisor,
    sink: &mut S,
    factors: &[u64],
    d: u64,
    e: u64,
) {
    let mut clause: Vec<Lit> = enc
        .factors
        .iter()
        .zip(factors)
        .flat_map(|(lits, f)| {
            assert!(
                lits.iter().any(|(g, _)| g == f),
                "the answer's factor is listed"
            );
            // Strict: one of the larger factors. Lenient: not this factor.
            lits.iter().filter_map(move |&(g, l)| {
                if enc.lenient {
                    (g == *f).then_some(!l)
                } else {
                    (g > *f).then_some(l)
                }
            })
        })
        .collect();
    if d >= 2 {
        clause.push(!div.at_least(d).expect("the divisor counts this far"));
    }
    if e > 0 {
        clause.extend(div.any_error.map(|l| !l));
    }
    if clause.is_empty() {
        clause.push(!enc.truth);
    }
    sink.add_clause(&clause);
}

/// Demands that dot `dot`'s factor be at least `value`, guarded by a fresh literal to assume.
pub fn factor_at_least<S: ClauseSink>(enc: &Encoding, sink: &mut S, dot: usize, value: u64) -> Lit {
    let act = sink.new_var();
    let mut clause = vec![!act];
    clause.extend(
        enc.factors[dot]
            .iter()
            .filter(|&&(f, _)| f >= value)
            .map(|&(_, l)| l),
    );
    sink.add_clause(&clause);
    act
}

/// Excludes dot `dot`'s factors from `value` up (proved impossible).
pub fn factor_below<S: ClauseSink>(enc: &Encoding, sink: &mut S, dot: usize, value: u64) {
    enc.factors[dot]
        .iter()
        .filter(|&&(f, _)| f >= value)
        .for_each(|&(_, l)| sink.add_clause(&[!l]));
}
