//! Splitting one formula into cubes for cube-and-conquer: conjunctions of literals whose
//! cases together cover every model, so that the formula is unsatisfiable exactly when it is
//! unsatisfiable under each cube, and each cube can be refuted on its own core or machine.
//!
//! The cubes are the leaves of a binary tree: a leaf is split on the variable whose two values
//! each propagate the most (a lookahead, as march's cubes are chosen), which tends to leave two
//! halves of similar difficulty; the largest leaf (fewest variables assigned) is split first.
//! A half whose literals alone make unit propagation fail is dropped: the formula has no model
//! there. So every model of the formula satisfies some cube (a certificate still proves it,
//! see `cover` in the certificate module), and the result depends only on the formula.

use crate::cnf::{Cnf, Lit};

/// How many of the most frequent free variables each split looks ahead on: a few hundred
/// propagations per split, a second or two on a 16×16 Kakkuro claim.
const CANDIDATES: usize = 96;

/// Unit propagation with a trail, to assign, propagate and take back.
struct Propagator {
    clauses: Vec<Vec<Lit>>,
    /// Clauses watching each literal, visited when it becomes false.
    watches: Vec<Vec<usize>>,
    value: Vec<Option<bool>>,
    trail: Vec<Lit>,
    /// Where the trail's propagation has reached.
    head: usize,
    /// A conflict among the formula's own units: no model at all.
    dead: bool,
}

fn index(l: Lit) -> usize {
    2 * l.var() as usize + usize::from(!l.is_positive())
}

impl Propagator {
    fn new(cnf: &Cnf) -> Propagator {
        let n = cnf.num_vars as usize + 1;
        let mut p = Propagator {
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * n],
            value: vec![None; n],
            trail: Vec::new(),
            head: 0,
            dead: false,
        };
        let mut units = Vec::new();
        for clause in &cnf.clauses {
            match clause.len() {
                0 => p.dead = true,
                1 => units.push(clause[0]),
                _ => {
                    let ci = p.clauses.len();
                    p.watches[index(clause[0])].push(ci);
                    p.watches[index(clause[1])].push(ci);
                    p.clauses.push(clause.clone());
                }
            }
        }
        if !p.dead && !p.assume(&units) {
            p.dead = true;
        }
        p
    }

    fn val(&self, l: Lit) -> Option<bool> {
        self.value[l.var() as usize].map(|v| v == l.is_positive())
    }

    /// Sets `lits` true and propagates; false on a conflict (the assignment is then partial:
    /// take it back with [`Propagator::undo`]).
    fn assume(&mut self, lits: &[Lit]) -> bool {
        for &l in lits {
            match self.val(l) {
                Some(true) => {}
                Some(false) => return false,
                None => self.set(l),
            }
        }
        self.propagate()
    }

    fn set(&mut self, l: Lit) {
        self.value[l.var() as usize] = Some(l.is_positive());
        self.trail.push(l);
    }

    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let falsified = !self.trail[self.head];
            self.head += 1;
            let watching = std::mem::take(&mut self.watches[index(falsified)]);
            let mut keep = Vec::with_capacity(watching.len());
            let mut ok = true;
            for (k, &ci) in watching.iter().enumerate() {
                if !ok {
                    keep.extend_from_slice(&watching[k..]);
                    break;
                }
                let c = &mut self.clauses[ci];
                if c[0] == falsified {
                    c.swap(0, 1);
                }
                let other = c[0];
                let value = &self.value;
                let val = |l: Lit| value[l.var() as usize].map(|v| v == l.is_positive());
                if val(other) == Some(true) {
                    keep.push(ci);
                    continue;
                }
                if let Some(j) = (2..c.len()).find(|&j| val(c[j]) != Some(false)) {
                    c.swap(1, j);
                    let w = index(c[1]);
                    self.watches[w].push(ci);
                    continue;
                }
                keep.push(ci);
                match val(other) {
                    Some(false) => ok = false,
                    _ => self.set(other),
                }
            }
            self.watches[index(falsified)] = keep;
            if !ok {
                return false;
            }
        }
        true
    }

    /// Takes back every assignment after the first `len` of the trail.
    fn undo(&mut self, len: usize) {
        for l in self.trail.drain(len..) {
            self.value[l.var() as usize] = None;
        }
        self.head = len;
    }
}

/// Splits `cnf` into at most `n` cubes over its first `vars` variables (the puzzle's own, not
/// the counters a bound adds), each a list of literals. Fewer when unit propagation refutes
/// halves, or no free variable is left to split on; none at all when it refutes the formula.
pub fn split(cnf: &Cnf, vars: u32, n: usize) -> Vec<Vec<Lit>> {
    let mut p = Propagator::new(cnf);
    if p.dead {
        return Vec::new();
    }
    // The variables most clauses mention first: the lookahead only tries the first free ones.
    let mut occurs = vec![0u32; cnf.num_vars as usize + 1];
    for c in &cnf.clauses {
        for l in c {
            occurs[l.var() as usize] += 1;
        }
    }
    let mut order: Vec<u32> = (1..=vars.min(cnf.num_vars)).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(occurs[v as usize]), v));
    let base = p.trail.len();
    // Each leaf with how many variables it assigns (fewer: more left to search).
    let mut leaves: Vec<(Vec<Lit>, usize)> = vec![(Vec::new(), base)];
    let mut done: Vec<Vec<Lit>> = Vec::new(); // leaves with nothing left to split on
    while !leaves.is_empty() && leaves.len() + done.len() < n {
        let at = (0..leaves.len())
            .min_by_key(|&i| (leaves[i].1, i))
            .expect("not empty");
        let (cube, _) = leaves.remove(at);
        p.undo(base);
        let ok = p.assume(&cube);
        debug_assert!(ok, "a kept leaf propagates without conflict");
        let here = p.trail.len();
        let mut best: Option<(u64, u32)> = None;
        let free: Vec<u32> = order
            .iter()
            .copied()
            .filter(|&v| p.value[v as usize].is_none())
            .take(CANDIDATES)
            .collect();
        for v in free {
            let mut gain = [0u64; 2];
            for (side, lit) in [Lit::positive(v), !Lit::positive(v)]
                .into_iter()
                .enumerate()
            {
                gain[side] = if p.assume(&[lit]) {
                    (p.trail.len() - here) as u64
                } else {
                    u64::MAX / 4 // a failed literal: that half is empty
                };
                p.undo(here);
            }
            let score = (gain[0].min(1 << 30) + 1) * (gain[1].min(1 << 30) + 1);
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, v));
            }
        }
        let Some((_, v)) = best else {
            done.push(cube);
            continue;
        };
        for lit in [Lit::positive(v), !Lit::positive(v)] {
            let mut child = cube.clone();
            child.push(lit);
            p.undo(base);
            if p.assume(&child) {
                leaves.push((child, p.trail.len()));
            }
        }
    }
    let mut cubes: Vec<Vec<Lit>> = leaves.into_iter().map(|(c, _)| c).chain(done).collect();
    cubes.sort();
    cubes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::ClauseSink;

    fn lit(n: i32) -> Lit {
        Lit::from_dimacs(n).unwrap()
    }

    /// Every total assignment of a small formula that satisfies it satisfies some cube.
    #[test]
    fn cubes_cover_every_model() {
        let mut rng = crate::rng::Rng::new(7);
        for round in 0..200 {
            let vars = 8 + round % 5;
            let mut cnf = Cnf::new();
            for _ in 0..vars {
                cnf.new_var();
            }
            for _ in 0..(vars * 3) {
                let len = 2 + rng.below(2);
                let c: Vec<Lit> = (0..len)
                    .map(|_| {
                        let v = 1 + rng.below(vars) as i32;
                        if rng.below(2) == 0 {
                            lit(v)
                        } else {
                            lit(-v)
                        }
                    })
                    .collect();
                cnf.add_clause(&c);
            }
            let n = 1 + rng.below(9);
            let cubes = split(&cnf, vars as u32, n);
            assert!(cubes.len() <= n);
            for bits in 0u32..(1 << vars) {
                let value = |l: Lit| ((bits >> (l.var() - 1)) & 1 == 1) == l.is_positive();
                if cnf.clauses.iter().all(|c| c.iter().any(|&l| value(l))) {
                    assert!(
                        cubes.iter().any(|c| c.iter().all(|&l| value(l))),
                        "round {round}: a model in no cube"
                    );
                }
            }
        }
    }

    #[test]
    fn a_formula_refuted_by_propagation_has_no_cubes() {
        let mut cnf = Cnf::new();
        let (a, b) = (cnf.new_var(), cnf.new_var());
        cnf.add_clause(&[a]);
        cnf.add_clause(&[!a, b]);
        cnf.add_clause(&[!b]);
        assert!(split(&cnf, 2, 4).is_empty());
        let mut free = Cnf::new();
        free.new_var();
        free.new_var();
        assert_eq!(split(&free, 2, 4).len(), 4);
        assert_eq!(split(&free, 2, 3).len(), 3);
        assert_eq!(
            split(&free, 2, 9).len(),
            4,
            "two free variables make four cubes"
        );
    }
}
