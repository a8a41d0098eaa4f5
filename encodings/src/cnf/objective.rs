//! A puzzle's score as a linear objective over its formula's literals, and the two files that
//! hand a formula with an objective to MaxSAT and pseudo-Boolean solvers: OPB (the PB
//! competition's format: a `min:` line, each clause a linear inequality) and WCNF (the MaxSAT
//! Evaluation's 2022 format: `h` hard clauses, weighted soft unit clauses).
//!
//! Both files number variables as the DIMACS file does (`xN` in OPB is DIMACS variable `N`), so
//! a solver's model of either decodes exactly as one of the CNF does.

use crate::cnf::{Cnf, Lit, Model};
use num_bigint::BigInt;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Maximise `Σ weight × [literal]`: every answer's best model has the value the puzzle's
/// [`Objective::notes`] say.
#[derive(Clone, Debug, Default)]
pub struct Objective {
    /// No zero weights; a variable may appear in several terms.
    pub terms: Vec<(Lit, BigInt)>,
    /// What the value means, and how it maps back to the exact score (comment lines).
    pub notes: Vec<String>,
}

impl Objective {
    /// The objective's value in `model`.
    pub fn value(&self, model: &Model) -> BigInt {
        self.terms
            .iter()
            .filter(|(l, _)| model.value(*l))
            .map(|(_, w)| w)
            .sum()
    }

    /// The OPB objective to minimise, per variable, and the constant `c` with
    /// `value = c − Σ coefficient × x` (negated literals turn into the constant).
    pub fn opb(&self) -> (BTreeMap<u32, BigInt>, BigInt) {
        let mut coefs: BTreeMap<u32, BigInt> = BTreeMap::new();
        let mut constant = BigInt::from(0);
        for (l, w) in &self.terms {
            let c = coefs.entry(l.var()).or_default();
            if l.is_positive() {
                *c -= w;
            } else {
                // w × (1 − x)
                *c += w;
                constant += w;
            }
        }
        coefs.retain(|_, c| *c != BigInt::from(0));
        (coefs, constant)
    }

    /// What a model costs in the WCNF (the weights of the soft clauses it falsifies): each
    /// term is a soft unit clause, on its literal with weight `w` when `w > 0`, else on its
    /// negation with weight `−w`. `cost = top − value`, `top` the sum of the positive weights.
    pub fn top(&self) -> BigInt {
        self.terms
            .iter()
            .map(|(_, w)| w)
            .filter(|w| w.sign() == num_bigint::Sign::Plus)
            .sum()
    }
}

/// One line of comment text: a file name or a note cannot end the comment early.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// A clause as an OPB inequality without negated literals (`~x` is not read by every
/// solver): `Σ x(pos) − Σ x(neg) ≥ 1 − #neg`. The empty clause is `0 ≥ 1` on variable 1.
fn clause_opb(out: &mut String, clause: &[Lit]) {
    if clause.is_empty() {
        out.push_str("0 x1 >= 1 ;\n");
        return;
    }
    let mut negative = 0i64;
    for l in clause {
        if l.is_positive() {
            let _ = write!(out, "+1 x{} ", l.var());
        } else {
            negative += 1;
            let _ = write!(out, "-1 x{} ", l.var());
        }
    }
    let _ = writeln!(out, ">= {} ;", 1 - negative);
}

fn signed(w: &BigInt) -> String {
    if w.sign() == num_bigint::Sign::Minus {
        w.to_string()
    } else {
        format!("+{w}")
    }
}

/// The OPB file: `comments`, the variables' names, the objective if there is one (with
/// `value = c − min` said in a comment) and `cnf`'s clauses.
pub fn opb_text(cnf: &Cnf, objective: Option<&Objective>, comments: &[String]) -> String {
    let mut out = String::new();
    // The empty clause is written on variable 1: a formula with none still needs it.
    let vars = cnf
        .num_vars
        .max(u32::from(cnf.clauses.iter().any(|c| c.is_empty())));
    let _ = writeln!(
        out,
        "* #variable= {} #constraint= {}",
        vars,
        cnf.clauses.len()
    );
    for c in comments
        .iter()
        .chain(objective.iter().flat_map(|o| &o.notes))
    {
        let _ = writeln!(out, "* {}", one_line(c));
    }
    let objective = objective.map(|o| o.opb());
    if let Some((_, constant)) = &objective {
        let _ = writeln!(
            out,
            "* the objective's value is {constant} minus the min: line's"
        );
    }
    for (var, name) in &cnf.names {
        let _ = writeln!(out, "* x{var} {}", one_line(name));
    }
    if let Some((coefs, _)) = &objective {
        out.push_str("min:");
        for (var, c) in coefs {
            let _ = write!(out, " {} x{var}", signed(c));
        }
        // The grammar wants a term: every answer scores the same.
        if coefs.is_empty() {
            out.push_str(" +0 x1");
        }
        out.push_str(" ;\n");
    }
    for clause in &cnf.clauses {
        clause_opb(&mut out, clause);
    }
    out
}

/// The WCNF file (2022 format): `comments`, the variables' names, `h` lines for `cnf`'s
/// clauses, and one weighted soft unit clause per objective term.
pub fn wcnf_text(cnf: &Cnf, objective: Option<&Objective>, comments: &[String]) -> String {
    let mut out = String::new();
    for c in comments
        .iter()
        .chain(objective.iter().flat_map(|o| &o.notes))
    {
        let _ = writeln!(out, "c {}", one_line(c));
    }
    if let Some(o) = objective {
        let _ = writeln!(out, "c the objective's value is {} minus the cost", o.top());
    }
    for (var, name) in &cnf.names {
        let _ = writeln!(out, "c {var} {}", one_line(name));
    }
    for clause in &cnf.clauses {
        out.push('h');
        for l in clause {
            let _ = write!(out, " {}", l.dimacs());
        }
        out.push_str(" 0\n");
    }
    // Every answer scores the same: a soft clause always met, for solvers that need one.
    if objective.is_some_and(|o| o.terms.is_empty()) && cnf.num_vars > 0 {
        out.push_str("1 1 -1 0\n");
    }
    for (l, w) in objective.iter().flat_map(|o| &o.terms) {
        if w.sign() == num_bigint::Sign::Minus {
            let _ = writeln!(out, "{} {} 0", -w, (!*l).dimacs());
        } else {
            let _ = writeln!(out, "{w} {} 0", l.dimacs());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::ClauseSink;

    fn lit(n: i32) -> Lit {
        Lit::from_dimacs(n).unwrap()
    }

    #[test]
    fn the_files_state_the_same_objective() {
        let mut cnf = Cnf::new();
        let a = cnf.new_named_var(&|| "a".into());
        let b = cnf.new_var();
        cnf.add_clause(&[a, !b]);
        let obj = Objective {
            terms: vec![(a, 3.into()), (!b, 2.into()), (b, BigInt::from(-5))],
            notes: vec!["score = value".into()],
        };
        let opb = opb_text(&cnf, Some(&obj), &["made by\na test".into()]);
        assert_eq!(opb, "* #variable= 2 #constraint= 1\n* made by a test\n* score = value\n* the objective's value is 2 minus the min: line's\n* x1 a\nmin: -3 x1 +7 x2 ;\n+1 x1 -1 x2 >= 0 ;\n");
        let wcnf = wcnf_text(&cnf, Some(&obj), &[]);
        assert_eq!(wcnf, "c score = value\nc the objective's value is 5 minus the cost\nc 1 a\nh 1 -2 0\n3 1 0\n2 -2 0\n5 -2 0\n");
        // Every model: value = c − min = top − cost.
        for (va, vb) in [(false, false), (true, false), (true, true), (false, true)] {
            let m = Model::from_lits(2, [if va { a } else { !a }, if vb { b } else { !b }]);
            let value = obj.value(&m);
            let min: BigInt = [(1, -3), (2, 7)]
                .iter()
                .filter(|(v, _)| m.value(lit(*v)))
                .map(|&(_, c)| BigInt::from(c))
                .sum();
            assert_eq!(value, BigInt::from(2) - min);
            let cost: BigInt = [(lit(1), 3), (lit(-2), 2), (lit(-2), 5)]
                .iter()
                .filter(|(l, _)| !m.value(*l))
                .map(|&(_, w)| BigInt::from(w))
                .sum();
            assert_eq!(value, obj.top() - cost);
        }
    }

    #[test]
    fn an_empty_clause_is_an_unsatisfiable_inequality() {
        let mut cnf = Cnf::new();
        cnf.add_clause(&[]);
        let opb = opb_text(&cnf, None, &[]);
        assert_eq!(opb, "* #variable= 1 #constraint= 1\n0 x1 >= 1 ;\n");
    }
}
