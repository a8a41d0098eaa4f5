//! At-most-one and exactly-one: pairwise for small sets, Sinz's sequential counter above.
//!
//! Sequential counter: C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality
//! Constraints", CP 2005 (the k = 1 case: n − 1 auxiliaries, 3n − 4 clauses).

use crate::cnf::{ClauseSink, Lit};

/// Largest set encoded pairwise. At 9 (a sudoku house) pairwise costs 36 clauses and no
/// auxiliaries against 23 clauses and 8 auxiliaries, and propagates at least as well.
pub const PAIRWISE_MAX: usize = 9;

pub fn at_most_one<S: ClauseSink>(sink: &mut S, lits: &[Lit]) {
    if lits.len() <= PAIRWISE_MAX {
        at_most_one_pairwise(sink, lits)
    } else {
        at_most_one_sequential(sink, lits)
    }
}

pub fn exactly_one<S: ClauseSink>(sink: &mut S, lits: &[Lit]) {
    exactly_one_traced(sink, lits);
}

/// [`exactly_one`], returning the sequential counter's auxiliaries `s_1 … s_{n−1}` where it
/// uses one (`s_i` true when one of the first `i` literals is): a VeriPB proof defines them.
pub fn exactly_one_traced<S: ClauseSink>(sink: &mut S, lits: &[Lit]) -> Option<Vec<Lit>> {
    sink.add_clause(lits);
    if lits.len() <= PAIRWISE_MAX {
        at_most_one_pairwise(sink, lits);
        None
    } else {
        Some(sequential(sink, lits))
    }
}

/// `n(n−1)/2` binary clauses.
pub fn at_most_one_pairwise<S: ClauseSink>(sink: &mut S, lits: &[Lit]) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[!a, !b]);
        }
    }
}

/// `s_i` means "one of `x_1..x_i` is true"; a true `x_i` forbids `s_{i-1}`.
pub fn at_most_one_sequential<S: ClauseSink>(sink: &mut S, lits: &[Lit]) {
    sequential(sink, lits);
}

/// [`at_most_one_sequential`], returning `s` (`s[i]`: one of `lits[..=i]`).
fn sequential<S: ClauseSink>(sink: &mut S, lits: &[Lit]) -> Vec<Lit> {
    let n = lits.len();
    if n <= 1 {
        return Vec::new();
    }
    let s: Vec<Lit> = (0..n - 1).map(|_| sink.new_var()).collect();
    sequential_clauses(lits, &s)
        .iter()
        .for_each(|c| sink.add_clause(c));
    s
}

/// The sequential counter's clauses over `lits` and its auxiliaries `s` (`n − 1` of them).
pub fn sequential_clauses(lits: &[Lit], s: &[Lit]) -> Vec<Vec<Lit>> {
    let n = lits.len();
    let mut clauses = vec![vec![!lits[0], s[0]]];
    for i in 1..n - 1 {
        clauses.push(vec![!lits[i], s[i]]);
        clauses.push(vec![!s[i - 1], s[i]]);
        clauses.push(vec![!lits[i], !s[i - 1]]);
    }
    clauses.push(vec![!lits[n - 1], !s[n - 2]]);
    clauses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::testing::check_exhaustively;
    use crate::cnf::{Cnf, SizeCounter};

    fn count_true(bits: &[bool]) -> usize {
        bits.iter().filter(|&&b| b).count()
    }

    #[test]
    fn pairwise_is_exact() {
        for n in 0..=7 {
            check_exhaustively(
                n,
                |cnf: &mut Cnf, x: &[Lit]| at_most_one_pairwise(cnf, x),
                |b| count_true(b) <= 1,
            );
        }
    }

    #[test]
    fn sequential_is_exact() {
        for n in 0..=10 {
            check_exhaustively(
                n,
                |cnf: &mut Cnf, x: &[Lit]| at_most_one_sequential(cnf, x),
                |b| count_true(b) <= 1,
            );
        }
    }

    #[test]
    fn exactly_one_is_exact_on_both_sides_of_the_threshold() {
        for n in 1..=PAIRWISE_MAX + 3 {
            check_exhaustively(
                n,
                |cnf: &mut Cnf, x: &[Lit]| exactly_one(cnf, x),
                |b| count_true(b) == 1,
            );
        }
    }

    #[test]
    fn sizes() {
        let mut c = SizeCounter::default();
        let x: Vec<Lit> = (0..20).map(|_| c.new_var()).collect();
        let before = c;
        at_most_one(&mut c, &x);
        assert_eq!((c.vars - before.vars, c.clauses), (19, 3 * 20 - 4));
        let mut c = SizeCounter::default();
        let x: Vec<Lit> = (0..9).map(|_| c.new_var()).collect();
        at_most_one(&mut c, &x);
        assert_eq!((c.vars, c.clauses), (9, 36));
    }
}
