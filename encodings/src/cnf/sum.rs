//! Weighted sums over groups of mutually exclusive literals, as a generalized totalizer.
//!
//! Follows S. Joshi, R. Martins, V. Manquinho, "Generalized Totalizer Encoding for
//! Pseudo-Boolean Constraints", CP 2015: a balanced tree of nodes, each with one output
//! literal per sum its subtree can reach. Two additions: a leaf may be a whole one-hot group
//! (a sudoku cell's nine digit literals with their values), which keeps leaves linear; and
//! every node chains its outputs (`o_{v'} → o_v` for `v < v'`), which makes both directions
//! of the output semantics hold and lets a bound be raised by one unit clause, without
//! rebuilding anything.

use crate::cnf::{ClauseSink, Lit};

/// Which way the outputs are tied to the sum `S` (a node's output `o_v` for reachable `v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// `o_v → S ≥ v`: asserting an output demands a lower bound.
    AtLeast,
    /// `S ≥ v → o_v`: refuting an output demands an upper bound.
    AtMost,
    /// Both: the outputs equal the sum in unary.
    Both,
}

impl Use {
    fn at_least(self) -> bool {
        self != Use::AtMost
    }
    fn at_most(self) -> bool {
        self != Use::AtLeast
    }
}

/// How a bound is expressed over the outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Holds for every assignment: nothing to assert.
    Trivial,
    /// Holds for no assignment.
    Impossible,
    /// Holds exactly when this literal is true.
    Lit(Lit),
}

/// The root of an encoded sum: `(value, output)` for every reachable value > 0, ascending.
#[derive(Clone, Debug)]
pub struct SumOutputs {
    pub outputs: Vec<(u64, Lit)>,
    /// Values above the cap were merged into the cap (`o_cap` means `S ≥ cap`).
    pub cap: Option<u64>,
}

impl SumOutputs {
    /// The largest reachable value (clamped to the cap).
    pub fn max(&self) -> u64 {
        self.outputs.last().map_or(0, |&(v, _)| v)
    }

    /// `S ≥ k`. Needs outputs built with [`Use::AtLeast`] or [`Use::Both`].
    pub fn at_least(&self, k: u64) -> Bound {
        if k == 0 {
            return Bound::Trivial;
        }
        if let Some(cap) = self.cap {
            assert!(k <= cap, "bound {k} above the sum's cap {cap}");
        }
        match self.outputs.iter().find(|&&(v, _)| v >= k) {
            Some(&(_, o)) => Bound::Lit(o),
            None => Bound::Impossible,
        }
    }

    /// `S ≤ k`. Needs outputs built with [`Use::AtMost`] or [`Use::Both`].
    pub fn at_most(&self, k: u64) -> Bound {
        if let Some(cap) = self.cap {
            assert!(k < cap, "bound {k} not below the sum's cap {cap}");
        }
        match self.outputs.iter().find(|&&(v, _)| v > k) {
            Some(&(_, o)) => Bound::Lit(!o),
            None => Bound::Trivial,
        }
    }
}

/// Encodes `S = Σ weight of each true literal`, where each group holds literals of which at
/// most one is true (the caller guarantees that; typically a one-hot group). Weight-0 literals
/// contribute nothing and are ignored. With `cap`, values above it are merged into it.
pub fn encode_sum<S: ClauseSink>(
    sink: &mut S,
    groups: &[Vec<(Lit, u64)>],
    cap: Option<u64>,
    use_: Use,
) -> SumOutputs {
    let clamp = |v: u64| cap.map_or(v, |c| v.min(c));
    let leaves: Vec<Vec<(u64, Lit)>> = groups.iter().map(|g| leaf(sink, g, clamp, use_)).collect();
    let outputs = tree(sink, leaves, clamp, use_);
    SumOutputs { outputs, cap }
}

/// Exactly `k` of `lits` are true: a totalizer capped at `k + 1`, or, when more than half
/// are true, one over the negations capped at `n − k + 1` (a totalizer's size grows with its
/// cap: 994 of 1,024 cells would take half a million clauses, 30 of them a few thousand).
pub fn exactly<S: ClauseSink>(sink: &mut S, lits: &[Lit], k: usize) {
    if k <= lits.len() && 2 * k > lits.len() {
        let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
        return exactly_counted(sink, &negated, lits.len() - k);
    }
    exactly_counted(sink, lits, k)
}

fn exactly_counted<S: ClauseSink>(sink: &mut S, lits: &[Lit], k: usize) {
    let groups: Vec<Vec<(Lit, u64)>> = lits.iter().map(|&l| vec![(l, 1)]).collect();
    let sum = encode_sum(sink, &groups, Some(k as u64 + 1), Use::Both);
    for (bound, holds) in [
        (sum.at_least(k as u64), true),
        (sum.at_least(k as u64 + 1), false),
    ] {
        match bound {
            Bound::Lit(l) => sink.add_clause(&[if holds { l } else { !l }]),
            Bound::Impossible if holds => sink.add_clause(&[]),
            Bound::Trivial if !holds => sink.add_clause(&[]),
            _ => {}
        }
    }
}

/// One node of a sum encoded by [`encode_sum_traced`], for proofs that derive its clauses from
/// definitions of its outputs (`crate::certificate::veripb`).
#[derive(Clone, Debug)]
pub struct Node {
    /// The `(literal, weight)` terms of the leaves under it (weights above 0).
    pub terms: Vec<(Lit, u64)>,
    /// Its outputs, ascending: for a leaf of one term, that term's literal.
    pub outputs: Vec<(u64, Lit)>,
    /// A merge's two children (indices in the trace); `None` for a leaf.
    pub children: Option<(usize, usize)>,
}

/// [`encode_sum`], the same clauses and variables, recording every node in `trace` (children
/// before parents; the root last). A node's terms keep their weights; with `cap`, its outputs
/// are clamped to it as [`encode_sum`] clamps them.
pub fn encode_sum_traced<S: ClauseSink>(
    sink: &mut S,
    groups: &[Vec<(Lit, u64)>],
    cap: Option<u64>,
    use_: Use,
    trace: &mut Vec<Node>,
) -> SumOutputs {
    let clamp = move |v: u64| cap.map_or(v, |c| v.min(c));
    let mut nodes = Vec::new();
    for g in groups {
        let outputs = leaf(sink, g, clamp, use_);
        if !outputs.is_empty() {
            trace.push(Node {
                terms: g.iter().copied().filter(|t| t.1 > 0).collect(),
                outputs: outputs.clone(),
                children: None,
            });
            nodes.push((outputs, trace.len() - 1));
        }
    }
    type Built = Option<(Vec<(u64, Lit)>, usize)>;
    fn build<S: ClauseSink>(
        sink: &mut S,
        mut nodes: Vec<(Vec<(u64, Lit)>, usize)>,
        clamp: impl Fn(u64) -> u64 + Copy,
        use_: Use,
        trace: &mut Vec<Node>,
    ) -> Built {
        match nodes.len() {
            0 => None,
            1 => nodes.pop(),
            n => {
                let right = nodes.split_off(n / 2);
                let (a, ai) = build(sink, nodes, clamp, use_, trace)?;
                let (b, bi) = build(sink, right, clamp, use_, trace)?;
                let outputs = merge(sink, &a, &b, clamp, use_);
                let terms = trace[ai]
                    .terms
                    .iter()
                    .chain(&trace[bi].terms)
                    .copied()
                    .collect();
                trace.push(Node {
                    terms,
                    outputs: outputs.clone(),
                    children: Some((ai, bi)),
                });
                Some((outputs, trace.len() - 1))
            }
        }
    }
    let outputs = build(sink, nodes, clamp, use_, trace).map_or(Vec::new(), |(o, _)| o);
    SumOutputs { outputs, cap }
}

/// Encodes the sum of sums already encoded with the same [`Use`]: each node is the outputs of
/// one (`SumOutputs::outputs`, or a single `(weight, literal)`). Parts built once can so be
/// combined again under different caps without rebuilding them. With `cap`, each node's
/// outputs from the cap up become one output for the cap (a part's sum only takes the values
/// listed, so `S ≥ cap` is `S ≥` the first listed value at or above it).
pub fn encode_sum_of<S: ClauseSink>(
    sink: &mut S,
    nodes: &[Vec<(u64, Lit)>],
    cap: Option<u64>,
    use_: Use,
) -> SumOutputs {
    let clamp = |v: u64| cap.map_or(v, |c| v.min(c));
    let nodes: Vec<Vec<(u64, Lit)>> = nodes
        .iter()
        .map(|n| {
            let below = n
                .iter()
                .copied()
                .filter(|&(v, _)| v > 0 && cap.is_none_or(|c| v < c));
            let at_cap = cap.and_then(|c| n.iter().find(|&&(v, _)| v >= c).map(|&(_, l)| (c, l)));
            below.chain(at_cap).collect()
        })
        .collect();
    let outputs = tree(sink, nodes, clamp, use_);
    SumOutputs { outputs, cap }
}

fn tree<S: ClauseSink>(
    sink: &mut S,
    mut nodes: Vec<Vec<(u64, Lit)>>,
    clamp: impl Fn(u64) -> u64 + Copy,
    use_: Use,
) -> Vec<(u64, Lit)> {
    nodes.retain(|n| !n.is_empty());
    match nodes.len() {
        0 => Vec::new(),
        1 => nodes.pop().unwrap(),
        n => {
            let right = nodes.split_off(n / 2);
            let a = tree(sink, nodes, clamp, use_);
            let b = tree(sink, right, clamp, use_);
            merge(sink, &a, &b, clamp, use_)
        }
    }
}

/// New output variables for `values` (ascending), chained downwards.
fn chained_outputs<S: ClauseSink>(sink: &mut S, values: &[u64]) -> Vec<(u64, Lit)> {
    let outs: Vec<(u64, Lit)> = values.iter().map(|&v| (v, sink.new_var())).collect();
    for w in outs.windows(2) {
        sink.add_clause(&[!w[1].1, w[0].1]);
    }
    outs
}

fn leaf<S: ClauseSink>(
    sink: &mut S,
    group: &[(Lit, u64)],
    clamp: impl Fn(u64) -> u64,
    use_: Use,
) -> Vec<(u64, Lit)> {
    let terms: Vec<(Lit, u64)> = group
        .iter()
        .filter(|t| t.1 > 0)
        .map(|&(l, w)| (l, clamp(w)))
        .collect();
    if let [(l, w)] = terms[..] {
        return vec![(w, l)];
    }
    let mut values: Vec<u64> = terms.iter().map(|t| t.1).collect();
    values.sort_unstable();
    values.dedup();
    let outs = chained_outputs(sink, &values);
    let out = |v: u64| outs[values.binary_search(&v).unwrap()].1;
    if use_.at_most() {
        for &(l, w) in &terms {
            sink.add_clause(&[!l, out(w)]);
        }
    }
    if use_.at_least() {
        // o_v → o_next ∨ (a literal of weight v): by the chain, o_v needs some weight ≥ v.
        for (j, &(v, o)) in outs.iter().enumerate() {
            let mut clause = vec![!o];
            clause.extend(outs.get(j + 1).map(|n| n.1));
            clause.extend(terms.iter().filter(|t| t.1 == v).map(|t| t.0));
            sink.add_clause(&clause);
        }
    }
    outs
}

fn merge<S: ClauseSink>(
    sink: &mut S,
    a: &[(u64, Lit)],
    b: &[(u64, Lit)],
    clamp: impl Fn(u64) -> u64,
    use_: Use,
) -> Vec<(u64, Lit)> {
    // Each child with the implicit value 0 (always reached) in front.
    let with_zero = |n: &[(u64, Lit)]| -> Vec<(u64, Option<Lit>)> {
        std::iter::once((0, None))
            .chain(n.iter().map(|&(v, l)| (v, Some(l))))
            .collect()
    };
    let (a0, b0) = (with_zero(a), with_zero(b));
    let mut values: Vec<u64> = a0
        .iter()
        .flat_map(|x| b0.iter().map(move |y| x.0 + y.0))
        .map(&clamp)
        .filter(|&v| v > 0)
        .collect();
    values.sort_unstable();
    values.dedup();
    let outs = chained_outputs(sink, &values);
    let mut clause = Vec::with_capacity(3);
    for (i, &(x, ax)) in a0.iter().enumerate() {
        for (j, &(y, by)) in b0.iter().enumerate() {
            let s = clamp(x + y);
            if use_.at_most() && s > 0 {
                // A ≥ x ∧ B ≥ y → S ≥ x + y.
                clause.clear();
                clause.extend(ax.map(|l| !l));
                clause.extend(by.map(|l| !l));
                clause.push(outs[values.binary_search(&s).unwrap()].1);
                sink.add_clause(&clause);
            }
            if use_.at_least() {
                // A < next(x) ∧ B < next(y) → S ≤ x + y, so the next output above is false.
                let Some(&(_, above)) = outs.get(values.partition_point(|&v| v <= s)) else {
                    continue;
                };
                clause.clear();
                clause.extend(a0.get(i + 1).and_then(|n| n.1));
                clause.extend(b0.get(j + 1).and_then(|n| n.1));
                clause.push(!above);
                sink.add_clause(&clause);
            }
        }
    }
    outs
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_traced_sum_is_the_same_formula() {
        use crate::cnf::Cnf;
        let digits: &[u64] = &[1, 2, 3, 4, 5, 6, 7, 8];
        let cases: [&[&[u64]]; 3] = [
            &[&[1, 2, 3], &[5, 7, 8], &[2], &[0, 4]],
            &[&[3], &[1, 1]],
            &[digits; 5],
        ];
        for weights in cases {
            for (cap, use_) in [
                (None, Use::AtLeast),
                (Some(5), Use::AtMost),
                (Some(9), Use::Both),
            ] {
                let (mut a, mut b) = (Cnf::new(), Cnf::new());
                let ga: Vec<Vec<(Lit, u64)>> = weights
                    .iter()
                    .map(|g| g.iter().map(|&w| (a.new_var(), w)).collect())
                    .collect();
                let gb: Vec<Vec<(Lit, u64)>> = weights
                    .iter()
                    .map(|g| g.iter().map(|&w| (b.new_var(), w)).collect())
                    .collect();
                let plain = encode_sum(&mut a, &ga, cap, use_);
                let mut trace = Vec::new();
                let traced = encode_sum_traced(&mut b, &gb, cap, use_, &mut trace);
                assert_eq!((a.num_vars, &a.clauses), (b.num_vars, &b.clauses));
                assert_eq!(plain.outputs, traced.outputs);
                assert_eq!(trace.last().map(|n| &n.outputs), Some(&traced.outputs));
            }
        }
    }

    use super::*;
    use crate::cnf::testing::{for_each_assignment, satisfiable};
    use crate::cnf::Cnf;

    /// Every reachable sum and every bound around it, for every exclusive input assignment.
    fn check(weights: &[&[u64]], cap: Option<u64>, use_: Use) {
        let mut cnf = Cnf::new();
        let groups: Vec<Vec<(Lit, u64)>> = weights
            .iter()
            .map(|g| g.iter().map(|&w| (cnf.new_var(), w)).collect())
            .collect();
        let inputs: Vec<Lit> = groups.iter().flatten().map(|t| t.0).collect();
        let out = encode_sum(&mut cnf, &groups, cap, use_);
        let total: u64 = weights
            .iter()
            .map(|g| g.iter().max().copied().unwrap_or(0))
            .sum();
        let top = cap.map_or(total, |c| c.min(total));
        assert_eq!(out.max(), top);
        for_each_assignment(&inputs, |bits, lits| {
            let mut k = 0;
            let mut sum = 0;
            for g in &groups {
                let on: Vec<u64> = g
                    .iter()
                    .map(|t| t.1)
                    .filter(|_| {
                        k += 1;
                        bits[k - 1]
                    })
                    .collect();
                if on.len() > 1 {
                    return; // not exclusive: outside the encoding's contract
                }
                sum += on.iter().sum::<u64>();
            }
            let bounds_to_try = cap.map_or(total + 1, |c| c.min(total + 1));
            for b in 0..=bounds_to_try {
                let holds = |bound: Bound, truth: bool| {
                    let sat = match bound {
                        Bound::Trivial => satisfiable(&cnf, lits),
                        Bound::Impossible => false,
                        Bound::Lit(l) => satisfiable(&cnf, &[lits, &[l]].concat()),
                    };
                    assert_eq!(
                        sat, truth,
                        "weights {weights:?} cap {cap:?} {use_:?} bits {bits:?} bound {b}"
                    );
                };
                if use_.at_least() && cap.is_none_or(|c| b <= c) {
                    holds(out.at_least(b), sum >= b);
                }
                if use_.at_most() && cap.is_none_or(|c| b < c) {
                    holds(out.at_most(b), sum <= b);
                }
            }
        });
    }

    const CASES: &[&[&[u64]]] = &[
        &[],
        &[&[3]],
        &[&[1], &[1], &[1], &[1], &[1]],
        &[&[1], &[2], &[4], &[3]],
        &[&[0, 1, 2, 3]],
        &[&[1, 2, 3], &[2, 2], &[5]],
        &[&[0, 1, 2], &[0, 1, 2], &[0, 1, 2]],
        &[&[7, 1], &[3], &[2, 9], &[4]],
    ];

    #[test]
    fn at_least_is_exact() {
        for w in CASES {
            check(w, None, Use::AtLeast);
        }
    }

    #[test]
    fn at_most_is_exact() {
        for w in CASES {
            check(w, None, Use::AtMost);
        }
    }

    #[test]
    fn both_is_exact() {
        for w in CASES {
            check(w, None, Use::Both);
        }
    }

    /// Parts encoded uncapped, then combined under a cap: the same contract as one sum.
    #[test]
    fn sums_of_parts_are_exact_below_the_cap() {
        for use_ in [Use::AtMost, Use::AtLeast, Use::Both] {
            for cap in [None, Some(2), Some(4)] {
                let mut cnf = Cnf::new();
                let groups: Vec<Vec<(Lit, u64)>> = [&[1u64, 3][..], &[2], &[1, 2, 5]]
                    .iter()
                    .map(|g| g.iter().map(|&w| (cnf.new_var(), w)).collect())
                    .collect();
                let inputs: Vec<Lit> = groups.iter().flatten().map(|t| t.0).collect();
                let left = encode_sum(&mut cnf, &groups[..2], None, use_);
                let right = encode_sum(&mut cnf, &groups[2..], None, use_);
                let single = vec![(4, groups[0][0].0)]; // the first literal once more, weight 4
                let out =
                    encode_sum_of(&mut cnf, &[left.outputs, right.outputs, single], cap, use_);
                for_each_assignment(&inputs, |bits, lits| {
                    let mut sum = 0;
                    for (g, group) in groups.iter().enumerate() {
                        let first = groups[..g].iter().map(Vec::len).sum::<usize>();
                        let on: Vec<u64> = (0..group.len())
                            .filter(|&t| bits[first + t])
                            .map(|t| group[t].1)
                            .collect();
                        if on.len() > 1 {
                            return;
                        }
                        sum += on.iter().sum::<u64>();
                    }
                    sum += if bits[0] { 4 } else { 0 };
                    for b in 0..=cap.unwrap_or(14) {
                        let sat = |bound: Bound| match bound {
                            Bound::Trivial => satisfiable(&cnf, lits),
                            Bound::Impossible => false,
                            Bound::Lit(l) => satisfiable(&cnf, &[lits, &[l]].concat()),
                        };
                        if use_.at_least() {
                            assert_eq!(
                                sat(out.at_least(b)),
                                sum >= b,
                                "{use_:?} cap {cap:?} bits {bits:?} at least {b}"
                            );
                        }
                        if use_.at_most() && cap.is_none_or(|c| b < c) {
                            assert_eq!(
                                sat(out.at_most(b)),
                                sum <= b,
                                "{use_:?} cap {cap:?} bits {bits:?} at most {b}"
                            );
                        }
                    }
                });
            }
        }
    }

    #[test]
    fn capped_sums_are_exact_below_the_cap() {
        for w in CASES {
            for cap in [1, 3, 5] {
                check(w, Some(cap), Use::Both);
                check(w, Some(cap), Use::AtLeast);
            }
        }
    }
}

#[cfg(test)]
mod exactly_tests {
    use super::exactly;
    use crate::cnf::testing::check_exhaustively;

    /// Every k from 0 to past n, on both sides of n / 2 (the negated
    /// count), against counting the true inputs.
    #[test]
    fn exactly_k_of_n() {
        for n in 0..=7 {
            for k in 0..=n + 1 {
                check_exhaustively(
                    n,
                    |cnf, inputs| exactly(cnf, inputs, k),
                    |bits| bits.iter().filter(|&&b| b).count() == k,
                );
            }
        }
    }
}
