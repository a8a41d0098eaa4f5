//! Core-guided lower bounds for a weighted sum of costs (OLL, as in RC2: A. Ignatiev,
//! A. Morgado, J. Marques-Silva, "RC2: an Efficient MaxSAT Solver", JSAT 2019).
//!
//! The searches elsewhere tighten from above: "is there an answer costing at most k?", a
//! totalizer over every cost and one hard call at the end. On Kakkuro's largest boards that
//! call does not end. Here the solver is asked for an answer paying *none* of the costs; each
//! refusal names a small set of costs of which one must be paid (an unsatisfiable core), which
//! raises the proved lower bound by the smallest weight in it, and the set is relaxed into
//! "at most one of these" (then two, ...). The bound rises in many short calls, each about a
//! few literals, and an answer found on the way costs exactly the bound once every cost is in.
//!
//! The caller owns the solver and the loop: it asks [`Cores::assumptions`], solves, and hands
//! a refusal's core to [`Cores::relax`] or reports an answer with [`Cores::satisfied`]. The
//! lower bound [`Cores::lower`] holds for every model of the solver's clauses, those the
//! caller adds between calls (blocking answers) included.

use crate::cnf::sum::{encode_sum, Bound, SumOutputs, Use};
use crate::cnf::{ClauseSink, Lit};
use std::collections::HashMap;

/// Cost terms are relaxed into sums of this many at most; a core past it is left whole
/// (a longer core only costs a larger totalizer, quadratic in its size).
const LARGEST_SUM: usize = 4096;

pub struct Cores {
    /// Each assumption (a literal true when its cost is not paid) and its remaining weight.
    weight: HashMap<Lit, u64>,
    /// Assumptions in the order they were made, for a stable call order.
    order: Vec<Lit>,
    /// An assumption that bounds a relaxed sum: `(sum, k)` for "at most k of its terms".
    bounds: HashMap<Lit, (usize, u64)>,
    sums: Vec<SumOutputs>,
    /// Only assumptions weighing at least this are asked for (stratification: heavy costs
    /// first, so the early cores are about what matters most).
    level: u64,
    lower: u64,
}

impl Cores {
    /// `costs`: literals true when a cost is paid, with its weight (0s are dropped).
    pub fn new(costs: &[(Lit, u64)]) -> Cores {
        let mut cores = Cores {
            weight: HashMap::new(),
            order: Vec::new(),
            bounds: HashMap::new(),
            sums: Vec::new(),
            level: 0,
            lower: 0,
        };
        for &(l, w) in costs.iter().filter(|&&(_, w)| w > 0) {
            cores.add(!l, w);
        }
        cores.level = cores.weight.values().copied().max().unwrap_or(0);
        cores
    }

    fn add(&mut self, a: Lit, w: u64) {
        let slot = self.weight.entry(a).or_insert(0);
        // A literal whose weight fell to 0 in this relaxation is still listed until its end.
        if *slot == 0 && !self.order.contains(&a) {
            self.order.push(a);
        }
        *slot += w;
    }

    /// What every model pays at least: the sum of the cores' weights.
    pub fn lower(&self) -> u64 {
        self.lower
    }

    /// What to assume on the next call: every cost not paid, among those weighing at least
    /// the current level.
    pub fn assumptions(&self) -> Vec<Lit> {
        self.order
            .iter()
            .copied()
            .filter(|a| self.weight.get(a).is_some_and(|&w| w >= self.level))
            .collect()
    }

    /// After an answer under [`Self::assumptions`]: lowers the level to take in lighter
    /// costs. `false` when every cost is in already (then the answer costs exactly
    /// [`Self::lower`], in the relaxed terms).
    pub fn satisfied(&mut self) -> bool {
        let below = self
            .weight
            .values()
            .copied()
            .filter(|&w| w > 0 && w < self.level)
            .max();
        match below {
            // Heavy costs first, lighter ones by halves: fewer levels than distinct weights.
            Some(w) => {
                self.level = (w / 2).max(1).min(w);
                true
            }
            None => false,
        }
    }

    /// After a refusal: `core`, the failed assumptions (a subset of the last
    /// [`Self::assumptions`]; empty means the clauses alone are refuted, which the caller
    /// handles). Raises the lower bound and relaxes the core into a sum.
    pub fn relax<S: ClauseSink>(&mut self, core: &[Lit], sink: &mut S) {
        // Once each: a backend may name an assumption twice, and each is paid once.
        let mut core: Vec<Lit> = core
            .iter()
            .copied()
            .filter(|a| self.weight.get(a).is_some_and(|&w| w > 0))
            .collect();
        core.sort_by_key(|l| l.dimacs());
        core.dedup();
        let Some(least) = core.iter().map(|a| self.weight[a]).min() else {
            return;
        };
        self.lower += least;
        for a in &core {
            *self.weight.get_mut(a).expect("listed") -= least;
            // A bound on a sum that now must be exceeded: the next bound takes its place.
            if let Some(&(s, k)) = self.bounds.get(a) {
                if let Bound::Lit(next) = self.sums[s].at_most(k + 1) {
                    self.bounds.insert(next, (s, k + 1));
                    self.add(next, least);
                }
            }
        }
        if core.len() == 1 {
            // That cost is always paid.
            sink.add_clause(&[!core[0]]);
        } else if core.len() <= LARGEST_SUM {
            // At least one of them is paid; costs beyond one are counted by the sum's bounds.
            let groups: Vec<Vec<(Lit, u64)>> = core.iter().map(|&a| vec![(!a, 1)]).collect();
            let sum = encode_sum(sink, &groups, None, Use::AtMost);
            if let Bound::Lit(b) = sum.at_most(1) {
                self.sums.push(sum);
                self.bounds.insert(b, (self.sums.len() - 1, 1));
                self.add(b, least);
            }
        }
        self.order
            .retain(|a| self.weight.get(a).is_some_and(|&w| w > 0));
    }
}

#[cfg(test)]
mod tests {
    use super::Cores;
    use crate::cnf::testing::satisfiable;
    use crate::cnf::{ClauseSink, Cnf, Lit};
    use crate::rng::Rng;

    fn holds(m: &[bool], l: Lit) -> bool {
        m[l.var() as usize] == l.is_positive()
    }

    /// A model under `assumptions`, fixing one variable at a time (the test solver answers
    /// only yes or no).
    fn model(cnf: &Cnf, assumptions: &[Lit]) -> Option<Vec<bool>> {
        let mut fixed = assumptions.to_vec();
        if !satisfiable(cnf, &fixed) {
            return None;
        }
        for v in 1..=cnf.num_vars {
            let l = Lit::positive(v);
            fixed.push(if satisfiable(cnf, &[&fixed[..], &[l]].concat()) {
                l
            } else {
                !l
            });
        }
        let mut m = vec![false; cnf.num_vars as usize + 1];
        fixed
            .iter()
            .for_each(|&l| m[l.var() as usize] = l.is_positive());
        Some(m)
    }

    /// A minimal failed subset of `assumptions`, by deletion.
    fn core(cnf: &Cnf, assumptions: &[Lit]) -> Vec<Lit> {
        let mut core = assumptions.to_vec();
        let mut k = 0;
        while k < core.len() {
            let mut without = core.clone();
            without.remove(k);
            if satisfiable(cnf, &without) {
                k += 1;
            } else {
                core = without;
            }
        }
        core
    }

    /// The smallest weighted cost over every model of a small formula, by brute force.
    fn brute(cnf: &Cnf, costs: &[(Lit, u64)]) -> Option<u64> {
        let n = cnf.num_vars as usize;
        (0u64..1 << n)
            .map(|bits| {
                (0..=n)
                    .map(|v| v > 0 && (bits >> (v - 1)) & 1 == 1)
                    .collect::<Vec<_>>()
            })
            .filter(|m| cnf.clauses.iter().all(|c| c.iter().any(|&l| holds(m, l))))
            .map(|m| {
                costs
                    .iter()
                    .filter(|&&(l, _)| holds(&m, l))
                    .map(|&(_, w)| w)
                    .sum()
            })
            .min()
    }

    /// The lower bound never passes the true minimum, and once every cost is in, an answer
    /// costs exactly the bound: on random formulas against brute force. Cores come minimal,
    /// as the whole list of assumptions (a backend without cores), or minimal with extras; the
    /// costs include weight 0, a literal twice, a literal and its negation, and heavy weights.
    #[test]
    fn cores_find_the_minimum_cost() {
        // Rounds whose cores were relaxed into sums, and whose sums' bounds were raised.
        let (mut summed, mut raised) = (0, 0);
        for mode in 0..3 {
            let mut rng = Rng::new(7 + mode);
            for round in 0..1000 {
                let mut cnf = Cnf::new();
                let n = 3 + rng.below(6);
                let vars: Vec<Lit> = (0..n).map(|_| cnf.new_var()).collect();
                let pick = |rng: &mut Rng| {
                    let v = vars[rng.below(n)];
                    if rng.below(2) == 0 {
                        v
                    } else {
                        !v
                    }
                };
                for _ in 0..rng.below(2 * n) {
                    let clause: Vec<Lit> = (0..1 + rng.below(3)).map(|_| pick(&mut rng)).collect();
                    cnf.add_clause(&clause);
                }
                let mut costs: Vec<(Lit, u64)> = Vec::new();
                for _ in 0..1 + rng.below(2 * n) {
                    let l = pick(&mut rng);
                    // Light and equal weights often: then cores grow into sums.
                    let w = match rng.below(6) {
                        0 => 0,
                        1 => 1 << 40,
                        2 | 3 => 1 + rng.below(2) as u64,
                        _ => 1 + rng.below(20) as u64,
                    };
                    costs.push((l, w));
                    if rng.below(5) == 0 {
                        costs.push((if rng.below(2) == 0 { l } else { !l }, 1));
                    }
                }
                // Clauses over the costs themselves: some must be paid, often several.
                for _ in 0..rng.below(2 * costs.len()) {
                    let clause: Vec<Lit> = (0..2 + rng.below(2))
                        .map(|_| costs[rng.below(costs.len())].0)
                        .collect();
                    cnf.add_clause(&clause);
                }
                let want = brute(&cnf, &costs);
                let total: u64 = costs.iter().map(|&(_, w)| w).sum();
                let mut cores = Cores::new(&costs);
                let got = loop {
                    let a = cores.assumptions();
                    let mut once = a.clone();
                    once.sort_by_key(|l| l.dimacs());
                    once.dedup();
                    assert_eq!(once.len(), a.len(), "an assumption twice, round {round}");
                    assert!(cores.weight.values().all(|&w| w <= total), "round {round}");
                    match model(&cnf, &a) {
                        Some(m) => {
                            let paid: u64 = costs
                                .iter()
                                .filter(|&&(l, _)| holds(&m, l))
                                .map(|&(_, w)| w)
                                .sum();
                            assert!(cores.lower() <= paid, "round {round}");
                            if !cores.satisfied() {
                                assert_eq!(paid, cores.lower(), "round {round}");
                                break Some(paid);
                            }
                        }
                        None => {
                            let mut failed = core(&cnf, &a);
                            if failed.is_empty() {
                                break None;
                            }
                            match mode {
                                1 => failed = [&a[..], &a[..1]].concat(),
                                2 => failed.extend(a.iter().filter(|_| rng.below(2) == 0)),
                                _ => {}
                            }
                            summed += usize::from(failed.len() > 1);
                            raised +=
                                usize::from(failed.iter().any(|a| cores.bounds.contains_key(a)));
                            cores.relax(&failed, &mut cnf);
                            let w = want.expect("a refusal under assumptions has a model without");
                            assert!(cores.lower() <= w, "round {round}");
                        }
                    }
                };
                assert_eq!(got, want, "mode {mode} round {round}");
            }
        }
        assert!(summed > 300 && raised > 60, "{summed} {raised}");
    }
}
