//! Unbounded natural numbers, just enough for exact scores: a product of many red-dot factors
//! (each up to 44² = 1936) outgrows every machine integer.

use std::cmp::Ordering;
use std::fmt;

/// Little-endian base-2^32 digits, no trailing zeros.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nat(Vec<u32>);

impl From<u64> for Nat {
    fn from(v: u64) -> Nat {
        let mut n = Nat(vec![v as u32, (v >> 32) as u32]);
        n.trim();
        n
    }
}

impl Nat {
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    pub fn mul_small(&self, m: u64) -> Nat {
        let (lo, hi) = (m & 0xffff_ffff, m >> 32);
        let part = |k: u64| {
            let mut out = Vec::with_capacity(self.0.len() + 1);
            let mut carry = 0u64;
            for &d in &self.0 {
                let x = u64::from(d) * k + carry;
                out.push(x as u32);
                carry = x >> 32;
            }
            out.push(carry as u32);
            out
        };
        let mut sum = part(lo);
        sum.push(0);
        if hi > 0 {
            let mut carry = 0u64;
            for (i, d) in part(hi).into_iter().enumerate() {
                let x = u64::from(sum[i + 1]) + u64::from(d) + carry;
                sum[i + 1] = x as u32;
                carry = x >> 32;
            }
        }
        let mut n = Nat(sum);
        n.trim();
        n
    }

    /// `self / d` (rounded down) for `d ≥ 1`.
    pub fn div_small(&self, d: u64) -> Nat {
        let mut out = vec![0u32; self.0.len()];
        let mut rem = 0u128;
        for i in (0..self.0.len()).rev() {
            let x = (rem << 32) | u128::from(self.0[i]);
            out[i] = (x / u128::from(d)) as u32;
            rem = x % u128::from(d);
        }
        let mut n = Nat(out);
        n.trim();
        n
    }

    /// `self mod d` for `d ≥ 1`.
    pub fn rem_small(&self, d: u64) -> u64 {
        let mut rem = 0u128;
        for &x in self.0.iter().rev() {
            rem = ((rem << 32) | u128::from(x)) % u128::from(d);
        }
        rem as u64
    }

    /// The nearest float, for display only.
    pub fn to_f64(&self) -> f64 {
        self.0
            .iter()
            .rev()
            .fold(0.0, |acc, &d| acc * 4_294_967_296.0 + f64::from(d))
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
}

impl Ord for Nat {
    fn cmp(&self, other: &Nat) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

impl PartialOrd for Nat {
    fn partial_cmp(&self, other: &Nat) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Nat {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_zero() {
            return write!(f, "0");
        }
        let mut chunks = Vec::new();
        let mut n = self.clone();
        while !n.is_zero() {
            chunks.push(n.rem_small(1_000_000_000));
            n = n.div_small(1_000_000_000);
        }
        write!(f, "{}", chunks.pop().unwrap())?;
        chunks.iter().rev().try_for_each(|c| write!(f, "{c:09}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_u128() {
        let mut n = Nat::from(1);
        let mut m = 1u128;
        for k in [1936u64, 7, 44 * 3, 1, 999_999_937, 12] {
            n = n.mul_small(k);
            m *= u128::from(k);
            assert_eq!(n.to_string(), m.to_string());
            assert_eq!(n.rem_small(1_000_003), (m % 1_000_003) as u64);
            assert_eq!(n.div_small(97).to_string(), (m / 97).to_string());
        }
        assert!(Nat::from(5) < Nat::from(1 << 40));
        assert_eq!(Nat::from(0).to_string(), "0");
        assert_eq!(
            Nat::from(3).mul_small(u64::MAX).to_string(),
            (3 * u128::from(u64::MAX)).to_string()
        );
    }
}
