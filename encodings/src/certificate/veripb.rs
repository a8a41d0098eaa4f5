//! VeriPB proofs (proof format 3.0): the pieces every puzzle's pseudo-Boolean certificate is
//! made of. A proof states the problem as an OPB file whose objective is the score itself, then
//! *derives* what the SAT solver was given beyond the rules: each totalizer output is
//! introduced by redundance with its meaning as a linear inequality (both directions), and
//! each of its clauses is derived from those meanings by cutting planes or unit propagation. The
//! solver's DRAT steps follow as RUP steps. So `veripb` checks the score's encoding too, where a
//! DRAT certificate trusts it.

use crate::cnf::sum::Node;
use crate::cnf::{Cnf, Lit};
use std::fmt::Write;

/// A proof being written: its text and the next constraint ID.
pub struct Proof<'a> {
    pub text: String,
    /// The ID the next constraint gets.
    next: u64,
    /// The name of a formula variable (`Lit::var`).
    name: &'a dyn Fn(u32) -> String,
}

/// A linear term: coefficient (above 0) and literal.
pub type Term = (u64, Lit);

impl<'a> Proof<'a> {
    /// A proof of a problem with `constraints` constraints (the OPB file's, `=` counting
    /// twice), naming variables with `name`.
    pub fn new(constraints: u64, name: &'a dyn Fn(u32) -> String) -> Proof<'a> {
        let mut p = Proof {
            text: String::from("pseudo-Boolean proof version 3.0\n"),
            next: constraints + 1,
            name,
        };
        let _ = writeln!(p.text, "f {constraints};");
        p
    }

    /// The same proof, naming variables with `name` from here on.
    pub fn with_names<'b>(self, name: &'b dyn Fn(u32) -> String) -> Proof<'b> {
        Proof {
            text: self.text,
            next: self.next,
            name,
        }
    }

    pub fn lit(&self, l: Lit) -> String {
        let n = (self.name)(l.var());
        if l.is_positive() {
            n
        } else {
            format!("~{n}")
        }
    }

    /// `Σ c·l >= degree`.
    pub fn constraint(&self, terms: &[Term], degree: i64) -> String {
        let mut s = String::new();
        for &(c, l) in terms {
            let _ = write!(s, "+{c} {} ", self.lit(l));
        }
        let _ = write!(s, ">= {degree}");
        s
    }

    pub fn clause(&self, lits: &[Lit]) -> String {
        self.constraint(&lits.iter().map(|&l| (1, l)).collect::<Vec<_>>(), 1)
    }

    /// A rule that adds one constraint; returns its ID.
    pub fn step(&mut self, rule: &str) -> u64 {
        let _ = writeln!(self.text, "{rule};");
        self.next += 1;
        self.next - 1
    }

    /// A rule that adds no constraint (`output`, `conclusion`, comments).
    pub fn line(&mut self, rule: &str) {
        let _ = writeln!(self.text, "{rule}");
    }

    /// The ID of the last constraint added.
    pub fn last(&self) -> u64 {
        self.next - 1
    }

    /// Ends a refutation: the solver's DRAT proof of a formula over variables `1..=num_vars`
    /// ([`Proof::drat`]), the empty clause by RUP if that stops short of it, and the conclusion
    /// `conclusion(ID of the empty clause)`. Returns the proof's text.
    pub fn refute(
        mut self,
        drat: &str,
        num_vars: u32,
        conclusion: impl Fn(u64) -> String,
    ) -> Result<String, String> {
        self.line("% the solver's proof");
        if !self.drat(drat, |v| (v >= 1 && v <= num_vars).then_some(v))? {
            self.rup_clause(&[]);
        }
        let empty = self.last();
        self.line("output NONE;");
        self.line(&format!("conclusion {};", conclusion(empty)));
        self.line("end pseudo-Boolean proof;");
        Ok(self.text)
    }

    /// Opens a proof by contradiction of `constraint` (`pbc`): its negation is added (the
    /// returned ID), and the steps up to [`Proof::qed`] must derive a contradiction.
    pub fn pbc(&mut self, constraint: &str) -> u64 {
        let _ = writeln!(self.text, "pbc {constraint} : subproof");
        self.next += 1;
        self.next - 1
    }

    /// Closes the proof by contradiction opened last: the constraint is derived (the returned
    /// ID); the subproof's constraints are gone.
    pub fn qed(&mut self) -> u64 {
        self.step("qed pbc")
    }

    /// Derives `clause` by RUP after adding up the constraints `ids` (one, or none, is used as
    /// it stands): see [`Proof::rup_with`].
    pub fn rup_summed(&mut self, ids: &[u64], clause: &[Lit]) -> u64 {
        match ids {
            [first, rest @ ..] if !rest.is_empty() => {
                let mut rule = format!("pol {first}");
                rest.iter().for_each(|id| {
                    let _ = write!(rule, " {id} +");
                });
                self.rup_with(&rule, clause)
            }
            _ => self.rup_clause(clause),
        }
    }

    /// Derives `clause` by RUP after the constraint `rule` adds, which is deleted once used:
    /// later steps would only propagate it again.
    pub fn rup_with(&mut self, rule: &str, clause: &[Lit]) -> u64 {
        let id = self.step(rule);
        let derived = self.rup_clause(clause);
        self.line(&format!("del id {id} ;"));
        derived
    }

    pub fn rup_clause(&mut self, lits: &[Lit]) -> u64 {
        let c = self.clause(lits);
        self.step(&format!("rup {c}"))
    }

    /// `soli`: the solution, which must satisfy every constraint, adds "the objective is
    /// better than this one's".
    pub fn soli(&mut self, lits: &[Lit]) -> u64 {
        let shown: Vec<String> = lits.iter().map(|&l| self.lit(l)).collect();
        self.step(&format!("soli {}", shown.join(" ")))
    }

    /// The solver's DRAT proof as RUP steps (deletions are left out: keeping a clause never
    /// makes a step fail). Stops at the first empty clause; returns whether there was one.
    pub fn drat(&mut self, drat: &str, var: impl Fn(u32) -> Option<u32>) -> Result<bool, String> {
        for (i, line) in drat.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('d') || line.starts_with('c') {
                continue;
            }
            let mut lits = Vec::new();
            for tok in line.split_whitespace() {
                let n: i32 = tok
                    .parse()
                    .map_err(|_| format!("DRAT line {}: {tok:?} is no literal", i + 1))?;
                if n == 0 {
                    break;
                }
                let v = var(n.unsigned_abs()).ok_or_else(|| {
                    format!(
                        "DRAT line {}: variable {} is not the formula's",
                        i + 1,
                        n.unsigned_abs()
                    )
                })?;
                let l = Lit::positive(v);
                lits.push(if n > 0 { l } else { !l });
            }
            self.rup_clause(&lits);
            if lits.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The refutation of `cnf` as an OPB decision problem ([`crate::cnf::objective::opb_text`] with no
/// objective: one constraint per clause, variable `xN` DIMACS's `N`): the DRAT proof's
/// additions as RUP steps, the empty clause (derived by RUP if the DRAT proof stops short of
/// writing it), `conclusion UNSAT`. veripb then checks the claim a DRAT checker checks, with
/// code of its own: a second check of the same formula, not a derivation of its encoding.
pub fn refutation(cnf: &Cnf, drat: &str) -> Result<String, String> {
    let name = |v: u32| format!("x{v}");
    Proof::new(cnf.clauses.len() as u64, &name)
        .refute(drat, cnf.num_vars, |empty| format!("UNSAT : {empty}"))
}

/// What [`define_sum`] derived for a sum's root: per output `(value, output, "output → S > u",
/// "S > u → output")` (`u` the value below, 0 for the first), and the constraint "S ≤ max" (its
/// terms' sum at most its largest value).
pub struct Defined {
    pub outputs: Vec<(u64, Lit, u64, u64)>,
    pub at_most_max: u64,
}

/// A leaf's at-most-one for [`define_sum`]: given the leaf's terms, the ID of a constraint
/// `Σ ~l ≥ k − 1` over exactly those literals.
pub type LeafAmo<'a> = dyn Fn(&[(Lit, u64)], &mut Proof) -> u64 + 'a;

/// A child's value where a merge in [`define_sum`] reads it: the value and, but for the value 0
/// (below every output), its output and the IDs of the output's definitions.
type ChildValue = (u64, Option<(Lit, u64, u64)>);

/// Introduces every output of a sum encoded with [`crate::cnf::sum::encode_sum_traced`] and
/// `Use::AtLeast` by its meaning, and derives each of the encoding's clauses from the
/// meanings: the outputs' chains, each leaf's "an output needs a term of its value", each
/// merge's "both children below their next values keep the sum below the next output". `amo`
/// gives, for a leaf's terms, the ID of a constraint `Σ ~l ≥ k − 1` over exactly those
/// literals (at most one of them true). Returns the root's definitions.
pub fn define_sum(p: &mut Proof, trace: &[Node], amo: &LeafAmo<'_>) -> Option<Defined> {
    // Per node: (value, output, def≥ ID, def≤ ID) and the "S ≤ max" constraint ID.
    let mut defs: Vec<Vec<(u64, Lit, u64, u64)>> = Vec::new();
    let mut maxes: Vec<u64> = Vec::new();
    for node in trace {
        let w_total: u64 = node.terms.iter().map(|t| t.1).sum();
        let sum_terms: Vec<Term> = node.terms.iter().map(|&(l, w)| (w, l)).collect();
        let neg_terms: Vec<Term> = node.terms.iter().map(|&(l, w)| (w, !l)).collect();
        let mut mine = Vec::new();
        // "S ≤ max": a leaf from its at-most-one, a merge as its children's sum.
        let max = node.outputs.last().map_or(0, |o| o.0);
        let at_most = match node.children {
            None if node.terms.len() == 1 => {
                // One term: w·l ≤ w is the literal axiom w·~l ≥ 0.
                let (l, w) = node.terms[0];
                p.step(&format!("pol {} {w} *", p.lit(!l)))
            }
            None => {
                let a = amo(&node.terms, p);
                // max · Σ ~l ≥ max (k − 1), plus (max − w) · l ≥ 0 per term.
                let mut rule = format!("pol {a} {max} *");
                for &(l, w) in &node.terms {
                    if w < max {
                        let _ = write!(rule, " {} {} * +", p.lit(l), max - w);
                    }
                }
                p.step(&rule)
            }
            Some((a, b)) => p.step(&format!("pol {} {} +", maxes[a], maxes[b])),
        };
        maxes.push(at_most);
        if node.terms.len() == 1 && node.children.is_none() {
            // The output is the term's literal: nothing to define. Its "definitions" are
            // identities, which the derivations below replace by literal axioms.
            let (l, w) = node.terms[0];
            defs.push(vec![(w, l, 0, 0)]);
            continue;
        }
        // Each output o_v means "S > the node's previous value" (0 before the first): the same
        // as S ≥ v wherever S takes only the node's values (at most one term per leaf), and
        // what a merge's clauses need of a child that is false, "S ≤ the value below".
        let mut prev = 0;
        for &(v, o) in &node.outputs {
            let t = prev + 1;
            prev = v;
            let mut ge = vec![(t, !o)];
            ge.extend(&sum_terms);
            let id_ge = p.step(&format!(
                "red {} : {} -> 0",
                p.constraint(&ge, t as i64),
                (p.name)(o.var())
            ));
            let k = w_total - t + 1;
            let mut le = vec![(k, o)];
            le.extend(&neg_terms);
            let id_le = p.step(&format!(
                "red {} : {} -> 1",
                p.constraint(&le, k as i64),
                (p.name)(o.var())
            ));
            mine.push((v, o, id_ge, id_le));
        }
        // Chains: o_{v'} → o_v.
        for w in mine.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            p.step(&format!("pol {} {} +", hi.2, lo.3));
            p.rup_clause(&[!hi.1, lo.1]);
        }
        match node.children {
            None => {
                for (j, &(v, o, _, _)) in mine.iter().enumerate() {
                    // Terms lighter than v cannot make o true alone (at most one term is).
                    for &(l, w) in &node.terms {
                        if w < v {
                            p.rup_clause(&[!o, !l]);
                        }
                    }
                    let mut clause = vec![!o];
                    clause.extend(mine.get(j + 1).map(|n| n.1));
                    clause.extend(node.terms.iter().filter(|t| t.1 == v).map(|t| t.0));
                    p.rup_clause(&clause);
                }
            }
            Some((a, b)) => {
                let with_zero = |d: &Vec<(u64, Lit, u64, u64)>| -> Vec<ChildValue> {
                    std::iter::once((0, None))
                        .chain(d.iter().map(|&(v, l, ge, le)| (v, Some((l, ge, le)))))
                        .collect()
                };
                let (a0, b0) = (with_zero(&defs[a]), with_zero(&defs[b]));
                let values: Vec<u64> = mine.iter().map(|m| m.0).collect();
                for (i, &(x, _)) in a0.iter().enumerate() {
                    for (j, &(y, _)) in b0.iter().enumerate() {
                        let s = x + y;
                        let Some(&(_, above, above_ge, _)) =
                            mine.get(values.partition_point(|&v| v <= s))
                        else {
                            continue;
                        };
                        // above → S ≥ next; each child below its next value (or at its max).
                        let mut rule = format!("pol {above_ge}");
                        let mut clause = vec![!above];
                        for (d0, idx, max_id, child) in
                            [(&a0, i, maxes[a], a), (&b0, j, maxes[b], b)]
                        {
                            match d0.get(idx + 1) {
                                Some(&(_, Some((l, _, le)))) => {
                                    clause.push(l);
                                    if trace[child].terms.len() == 1
                                        && trace[child].children.is_none()
                                    {
                                        // The child is one literal l of weight w: "S ≤ 0 unless l"
                                        // is w·l + w·~l ≥ w, nothing to add.
                                    } else {
                                        let _ = write!(rule, " {le} +");
                                    }
                                }
                                _ => {
                                    let _ = write!(rule, " {max_id} +");
                                }
                            }
                        }
                        p.step(&rule);
                        p.rup_clause(&clause);
                    }
                }
            }
        }
        defs.push(mine);
    }
    let root = defs.pop()?;
    Some(Defined {
        outputs: root,
        at_most_max: *maxes.last()?,
    })
}

/// An output of a sum introduced by [`define_at_most`]: `o ⇔ S ≥ value`, `S` the weighted sum
/// of its node's terms.
#[derive(Clone, Copy, Debug)]
pub struct Meaning {
    pub value: u64,
    pub output: Lit,
    /// The ID of "o → S ≥ value"; `None` for a leaf of one term, whose output is the term.
    pub implies: Option<u64>,
}

/// Introduces every output of a sum encoded with [`crate::cnf::sum::encode_sum_traced`] and
/// `Use::AtMost` (capped or not) by its meaning `o ⇔ S ≥ v`, both directions by redundance,
/// and derives each of the encoding's clauses: the chains (`o_{v'} → o_v`), each leaf's "a
/// term of weight w makes `S ≥ w`", each merge's "both children at least x and y make the
/// parent at least x + y". Every clause is one addition of meanings and a RUP step; none
/// needs "at most one term per leaf", which the upper-bound direction does without. Returns
/// each node's meanings, in the trace's order.
/// Every definition's ID is pushed to `defined`, for a proof to delete them once their clauses
/// are derived.
pub fn define_at_most(p: &mut Proof, trace: &[Node], defined: &mut Vec<u64>) -> Vec<Vec<Meaning>> {
    let mut all: Vec<Vec<Meaning>> = Vec::new();
    for node in trace {
        if node.children.is_none() && node.terms.len() == 1 {
            let (value, output) = node.outputs[0];
            all.push(vec![Meaning {
                value,
                output,
                implies: None,
            }]);
            continue;
        }
        let total: u64 = node.terms.iter().map(|t| t.1).sum();
        let mut mine = Vec::new();
        // Each output's "S ≥ v → o".
        let mut back = Vec::new();
        for &(v, o) in &node.outputs {
            let mut ge: Vec<Term> = node.terms.iter().map(|&(l, w)| (w, l)).collect();
            ge.push((v, !o));
            let id_ge = p.step(&format!(
                "red {} : {} -> 0",
                p.constraint(&ge, v as i64),
                (p.name)(o.var())
            ));
            let k = total - v + 1;
            let mut le: Vec<Term> = node.terms.iter().map(|&(l, w)| (w, !l)).collect();
            le.push((k, o));
            let id_le = p.step(&format!(
                "red {} : {} -> 1",
                p.constraint(&le, k as i64),
                (p.name)(o.var())
            ));
            mine.push(Meaning {
                value: v,
                output: o,
                implies: Some(id_ge),
            });
            back.push(id_le);
            defined.extend([id_ge, id_le]);
        }
        for j in 1..mine.len() {
            p.rup_summed(
                &[mine[j].implies.expect("defined"), back[j - 1]],
                &[!mine[j].output, mine[j - 1].output],
            );
        }
        let at = |v: u64| {
            mine.iter()
                .position(|m| m.value == v)
                .expect("an output per value")
        };
        match node.children {
            None => {
                let cap = node.outputs.last().map_or(0, |o| o.0);
                for &(l, w) in &node.terms {
                    p.rup_clause(&[!l, mine[at(w.min(cap))].output]);
                }
            }
            Some((a, b)) => {
                let cap = node.outputs.last().map_or(0, |o| o.0);
                let with_zero = |d: &Vec<Meaning>| -> Vec<Option<Meaning>> {
                    std::iter::once(None)
                        .chain(d.iter().map(|&m| Some(m)))
                        .collect()
                };
                let (a0, b0) = (with_zero(&all[a]), with_zero(&all[b]));
                for x in &a0 {
                    for y in &b0 {
                        let s = (x.map_or(0, |m| m.value) + y.map_or(0, |m| m.value)).min(cap);
                        if s == 0 {
                            continue;
                        }
                        let j = at(s);
                        let mut ids = vec![back[j]];
                        let mut clause = Vec::new();
                        for m in [x, y].into_iter().flatten() {
                            clause.push(!m.output);
                            ids.extend(m.implies);
                        }
                        clause.push(mine[j].output);
                        p.rup_summed(&ids, &clause);
                    }
                }
            }
        }
        all.push(mine);
    }
    all
}
