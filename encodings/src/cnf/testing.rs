//! Test support: a tiny DPLL solver (no dependency on a real one) and an exhaustive checker
//! that an encoding is satisfiable exactly when its constraint holds.

use crate::cnf::{Cnf, Lit};

/// Is `cnf` satisfiable with every literal of `assumptions` true?
pub fn satisfiable(cnf: &Cnf, assumptions: &[Lit]) -> bool {
    let mut value: Vec<Option<bool>> = vec![None; cnf.num_vars as usize + 1];
    for &a in assumptions {
        match value[a.var() as usize] {
            Some(v) if v != a.is_positive() => return false,
            _ => value[a.var() as usize] = Some(a.is_positive()),
        }
    }
    dpll(&cnf.clauses, &mut value)
}

fn lit_value(value: &[Option<bool>], l: Lit) -> Option<bool> {
    value[l.var() as usize].map(|v| v == l.is_positive())
}

fn dpll(clauses: &[Vec<Lit>], value: &mut Vec<Option<bool>>) -> bool {
    let saved = value.clone();
    // Unit propagation to a fixpoint.
    loop {
        let mut changed = false;
        for c in clauses {
            let mut unassigned = None;
            let mut open = 0;
            let mut satisfied = false;
            for &l in c {
                match lit_value(value, l) {
                    Some(true) => {
                        satisfied = true;
                        break;
                    }
                    Some(false) => {}
                    None => {
                        open += 1;
                        unassigned = Some(l);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (open, unassigned) {
                (0, _) => {
                    *value = saved;
                    return false;
                }
                (1, Some(l)) => {
                    value[l.var() as usize] = Some(l.is_positive());
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
    let branch = clauses.iter().find_map(|c| {
        if c.iter().any(|&l| lit_value(value, l) == Some(true)) {
            None
        } else {
            c.iter().copied().find(|&l| lit_value(value, l).is_none())
        }
    });
    let Some(l) = branch else { return true };
    for polarity in [true, false] {
        value[l.var() as usize] = Some(polarity);
        if dpll(clauses, value) {
            return true;
        }
    }
    *value = saved;
    false
}

/// Builds the encoding over `n` fresh inputs, then for all `2^n` input assignments asserts
/// that the formula is satisfiable exactly when `holds` says the constraint is met.
pub fn check_exhaustively(
    n: usize,
    encode: impl Fn(&mut Cnf, &[Lit]),
    holds: impl Fn(&[bool]) -> bool,
) {
    use crate::cnf::ClauseSink;
    let mut cnf = Cnf::new();
    let inputs: Vec<Lit> = (0..n).map(|_| cnf.new_var()).collect();
    encode(&mut cnf, &inputs);
    for_each_assignment(&inputs, |bits, assumptions| {
        assert_eq!(
            satisfiable(&cnf, assumptions),
            holds(bits),
            "n = {n}, inputs {bits:?}"
        );
    });
}

/// Calls `f` with every assignment of `inputs`, as bools and as literals.
pub fn for_each_assignment(inputs: &[Lit], mut f: impl FnMut(&[bool], &[Lit])) {
    let n = inputs.len();
    for mask in 0u64..(1u64 << n) {
        let bits: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
        let lits: Vec<Lit> = inputs
            .iter()
            .zip(&bits)
            .map(|(&l, &b)| if b { l } else { !l })
            .collect();
        f(&bits, &lits);
    }
}

#[test]
// Hole `h` is the second index of `x[a][h]`, pigeons `a` and `b` the first: not a walk over `x`.
#[allow(clippy::needless_range_loop)]
fn dpll_agrees_with_brute_force_on_small_formulas() {
    // Pigeonhole 3 into 2 is unsatisfiable; dropping one pigeon makes it satisfiable.
    use crate::cnf::ClauseSink;
    for pigeons in [2usize, 3] {
        let mut cnf = Cnf::new();
        let x: Vec<Vec<Lit>> = (0..pigeons)
            .map(|_| (0..2).map(|_| cnf.new_var()).collect())
            .collect();
        for p in &x {
            cnf.add_clause(p);
        }
        for h in 0..2 {
            for a in 0..pigeons {
                for b in a + 1..pigeons {
                    cnf.add_clause(&[!x[a][h], !x[b][h]]);
                }
            }
        }
        assert_eq!(satisfiable(&cnf, &[]), pigeons == 2);
    }
}
