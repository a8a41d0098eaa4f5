//! Bounding the score in CNF, for the optimiser. The score is a product, so it is bounded on a
//! log scale: each red dot's *deficit* `ln f̂ − ln f` (its factor against the largest it can
//! get alone, `f̂`, proved by the driver), plus `ln max(D, 1)` for painted cells and errors,
//! plus `ln 1.1` when there are errors. A better answer has a smaller total deficit. Deficits
//! become integers in units of 1/[`SCALE`], each rounded *down*, so the CNF bound never cuts a
//! better answer; it may let a slightly worse one through, which the driver re-scores exactly
//! and excludes with [`block`]. The sum is a generalized totalizer ([`crate::sum`]) capped
//! just above the bound asked for, so its size follows the bound, not the whole range.

use super::Encoding;
use crate::cnf::{ClauseSink, Lit};
use crate::sum::{encode_sum, SumOutputs, Use};

/// Units per natural-log unit: at 100, a dot's rounding costs under 1% of the score.
pub const SCALE: f64 = 100.0;

/// Floating-point slack: every rounding leans the sound way by this much.
const SLACK: f64 = 1e-7;

/// The count `D` of painted cells and errors, in unary, for the bound and for blocking.
pub struct Divisor {
    /// `at_least[d]`: forced true when `D ≥ d` (index 0 unused).
    at_least: Vec<Lit>,
    /// Forced true when there is an error (lenient mode).
    any_error: Option<Lit>,
}

pub fn divisor<S: ClauseSink>(enc: &Encoding, sink: &mut S) -> Divisor {
    let groups: Vec<Vec<(Lit, u64)>> = enc.painted.iter().chain(&enc.errors).map(|&l| vec![(l, 1)]).collect();
    let outs = encode_sum(sink, &groups, None, Use::AtMost);
    let mut at_least = vec![enc.truth];
    at_least.extend(outs.outputs.iter().map(|&(_, l)| l));
    let any_error = (!enc.errors.is_empty()).then(|| {
        let any = sink.new_var();
        enc.errors.iter().for_each(|&e| sink.add_clause(&[!e, any]));
        any
    });
    Divisor { at_least, any_error }
}

fn units(x: f64) -> u64 {
    (SCALE * x - SLACK).floor().max(0.0) as u64
}

/// The total deficit in units is at most the returned sum's value; `maxima[r]` is `f̂` of dot
/// r (factors above it must already be excluded). Values from `cap` up are merged.
pub fn deficit_sum<S: ClauseSink>(enc: &Encoding, div: &Divisor, maxima: &[u64], cap: u64, sink: &mut S) -> SumOutputs {
    let mut groups: Vec<Vec<(Lit, u64)>> = Vec::new();
    for (lits, &top) in enc.factors.iter().zip(maxima) {
        groups.push(lits.iter().filter(|&&(f, _)| f <= top).map(|&(f, l)| (l, units((top as f64).ln() - (f as f64).ln()))).collect());
    }
    // ln D as increments: D ≥ d costs V(d) − V(d − 1), so D costs V(D) = ⌊SCALE·ln D⌋.
    for d in 2..div.at_least.len() {
        let step = units((d as f64).ln()) - units(((d - 1) as f64).ln());
        groups.push(vec![(div.at_least[d], step)]);
    }
    if let Some(any) = div.any_error {
        groups.push(vec![(any, units(1.1f64.ln()))]);
    }
    encode_sum(sink, &groups, Some(cap), Use::AtMost)
}

/// An answer's exact deficit on the log scale (not rounded): factors per dot, `D`, `E`.
pub fn deficit(maxima: &[u64], factors: &[u64], d: u64, e: u64) -> f64 {
    let dots: f64 = maxima.iter().zip(factors).map(|(&m, &f)| (m as f64).ln() - (f as f64).ln()).sum();
    dots + (d.max(1) as f64).ln() + if e > 0 { 1.1f64.ln() } else { 0.0 }
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

/// Excludes every answer with these exact factors that is not better than one with `d`
/// painted cells and errors and `e` errors: what is left must change a factor, have a smaller
/// `D` (when `D ≥ 2`: below that `max(D, 1)` is 1 anyway), or no error where there was one.
pub fn block<S: ClauseSink>(enc: &Encoding, div: &Divisor, sink: &mut S, factors: &[u64], d: u64, e: u64) {
    let mut clause: Vec<Lit> = enc
        .factors
        .iter()
        .zip(factors)
        .map(|(lits, f)| !lits.iter().find(|(g, _)| g == f).expect("the answer's factor is listed").1)
        .collect();
    if d >= 2 {
        clause.push(!div.at_least[d as usize]);
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
    clause.extend(enc.factors[dot].iter().filter(|&&(f, _)| f >= value).map(|&(_, l)| l));
    sink.add_clause(&clause);
    act
}

/// Excludes dot `dot`'s factors from `value` up (proved impossible).
pub fn factor_below<S: ClauseSink>(enc: &Encoding, sink: &mut S, dot: usize, value: u64) {
    enc.factors[dot].iter().filter(|&&(f, _)| f >= value).for_each(|&(_, l)| sink.add_clause(&[!l]));
}
