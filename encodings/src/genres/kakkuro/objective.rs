//! Kakkuro's product score as a linear objective (`encode --format opb|wcnf`), exact in order:
//! every pair of answers with different exact scores gets values in the same order, so an
//! optimum of the objective is an answer of the exact optimum score.
//!
//! The score `P × 1.1^[E=0] / max(D, 1)` is a product, so the objective is its logarithm with
//! each term rounded to an integer at scale `2^m`: `Σ_dots W(f) + W(1.1)·[E=0] − W(max(D, 1))`,
//! `W(x) = round(2^m ln x)`. Each term is off by at most ½, so two answers' values are off by
//! at most `t = dots + 2` against `2^m (ln s_a − ln s_b)`. Two different scores differ by a
//! factor `X/Y` of integers with `X > Y`, `Y ≤ P̂ · 110 · D̂` (`P̂` the product of the dots'
//! largest listed factors, `D̂` the largest `D`), so by at least `ln(1 + 1/Y) ≥ 1/(Y + 1)`:
//! `2^m ≥ (t + 1)(Y + 1)` keeps them apart. The logarithms are computed in exact big-integer
//! arithmetic ([`ln_scaled`]), not in floating point.

use super::bound::{divisor, most_divisor};
use super::Encoding;
use crate::cnf::objective::Objective;
use crate::cnf::{ClauseSink, Lit};
use num_bigint::BigInt;

/// `round(2^bits × ln(num / den))`, within ½ + 2^-30 of the true value (`num, den ≥ 1`).
pub fn ln_scaled(num: u64, den: u64, bits: u32) -> BigInt {
    assert!(num >= 1 && den >= 1);
    // Fixed point with guard bits: every series term costs at most one unit of the last place.
    let guard = 40;
    let f = bits + guard;
    // x = num/den = 2^k · y with 1 ≤ y < 2, and ln y = 2 atanh((y − 1)/(y + 1)).
    let (mut n, mut d) = (BigInt::from(num), BigInt::from(den));
    let mut k: i64 = 0;
    while n >= &d * 2 {
        d *= 2;
        k += 1;
    }
    while n < d {
        n *= 2;
        k -= 1;
    }
    let total = BigInt::from(k) * atanh_scaled(&BigInt::from(1), &BigInt::from(3), f) * 2
        + atanh_scaled(&(&n - &d), &(&n + &d), f) * 2;
    // Round to nearest: add half, then floor (the shift floors, negatives included).
    (total + (BigInt::from(1) << (guard - 1))) >> guard
}

/// `floor`-ish `2^f × atanh(p/q)` for `0 ≤ p/q ≤ 1/3`: `Σ (p/q)^(2j+1) / (2j + 1)`.
fn atanh_scaled(p: &BigInt, q: &BigInt, f: u32) -> BigInt {
    let mut power = (p.clone() << f) / q;
    let (p2, q2) = (p * p, q * q);
    let mut sum = BigInt::from(0);
    let mut j = 0u64;
    while power != BigInt::from(0) {
        sum += &power / (2 * j + 1);
        power = power * &p2 / &q2;
        j += 1;
    }
    sum
}

/// The scale's exponent `m` for an encoding: `2^m ≥ (t + 1)(Y + 1)` (see the module's note).
pub fn scale_bits(enc: &Encoding) -> u32 {
    let p_hat: BigInt = enc
        .factors
        .iter()
        .map(|v| BigInt::from(v.first().map_or(1, |&(f, _)| f)))
        .product();
    let y = p_hat * 110 * most_divisor(enc).max(1);
    let t = enc.factors.len() as u64 + 2;
    let need: BigInt = (y + 1) * (t + 1);
    need.bits() as u32
}

/// Adds `D` counted exactly (each `D ≥ d` forced true when it holds) and returns the objective.
pub fn objective<S: ClauseSink>(enc: &Encoding, sink: &mut S) -> Objective {
    let bits = scale_bits(enc);
    let w = |num: u64, den: u64| ln_scaled(num, den, bits);
    let mut terms: Vec<(Lit, BigInt)> = Vec::new();
    for dot in &enc.factors {
        terms.extend(
            dot.iter()
                .map(|&(f, l)| (l, w(f, 1)))
                .filter(|(_, x)| *x != BigInt::from(0)),
        );
    }
    let most = most_divisor(enc);
    let div = divisor(enc, most + 1, sink);
    for d in 2..=most {
        if let Some(l) = div.at_least(d).filter(|&l| l != !enc.truth) {
            terms.push((l, -(w(d, 1) - w(d - 1, 1))));
        }
    }
    let bonus = div.any_error().map(|a| (!a, w(11, 10)));
    let mut notes = vec![
        format!("objective: round(2^{bits} ln f) per red dot's factor f, minus round(2^{bits} ln max(D, 1)) for D painted cells and errors (one literal per D >= d, each weighing the step), plus round(2^{bits} ln 1.1) when there is no error"),
        format!("value / 2^{bits} is ln(score) within {} / 2^{bits}; 2^{bits} is fine enough that answers with different exact scores get values in the same order, so an optimal model's answer scores the exact optimum (docs/formats.md)", (enc.factors.len() + 2) as f64 / 2.0),
    ];
    match bonus {
        Some(t) => terms.push(t),
        None if enc.lenient => notes.push("no answer can have an error here: the 1.1 bonus is the same for all and left out (score = 1.1 e^(value/2^m) approximately)".into()),
        None => notes.push("strict rules: no answer has errors, so the 1.1 bonus is the same for all and left out (score = 1.1 e^(value/2^m) approximately)".into()),
    }
    Objective { terms, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logarithms_agree_with_floating_point_where_it_is_exact_enough() {
        for (n, d) in [
            (1, 1),
            (2, 1),
            (3, 1),
            (11, 10),
            (10, 11),
            (1936, 1),
            (176, 1),
            (45, 44),
            (1, 1000),
            (999_983, 7),
        ] {
            let got = ln_scaled(n, d, 30);
            let want = ((n as f64 / d as f64).ln() * 2f64.powi(30)).round();
            assert!(
                (got.to_string().parse::<f64>().unwrap() - want).abs() <= 1.0,
                "ln({n}/{d}): {got} vs {want}"
            );
        }
        assert_eq!(ln_scaled(1, 1, 100), BigInt::from(0));
    }

    #[test]
    fn logarithms_add_up_at_high_precision() {
        // ln 6 = ln 2 + ln 3 and ln(11/10) = ln 11 − ln 10, each within rounding of one unit
        // per term at 200 bits, far past floating point.
        let b = 200;
        let diff = ln_scaled(6, 1, b) - ln_scaled(2, 1, b) - ln_scaled(3, 1, b);
        assert!(diff.magnitude().bits() <= 1, "{diff}");
        let diff = ln_scaled(11, 10, b) - ln_scaled(11, 1, b) + ln_scaled(10, 1, b);
        assert!(diff.magnitude().bits() <= 1, "{diff}");
        // 2^200 ln 2 starts 0.693147180559945309417232121458 × 2^200.
        let ln2 = ln_scaled(2, 1, b).to_string();
        let scaled = (BigInt::from(693_147_180_559_945_309_417_232_121_458u128) << b)
            / BigInt::from(10u128.pow(30));
        assert_eq!(ln2[..28], scaled.to_string()[..28]);
    }
}
