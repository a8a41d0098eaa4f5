//! Certificates of a search's claims: the one formula whose unsatisfiability *is* the claim,
//! built the same way by whoever certifies and whoever verifies, and the search for the
//! answers a claim's bound lets through without beating it. Solver-free like the rest of the
//! crate; proofs are written by the driver's backends.

use crate::cnf::Cnf;
use crate::puzzle::Puzzle;
use crate::solver::{NewSolver, SolveResult, SolverError};
use serde_json::Value;
use std::fmt;

/// What a certificate proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// No answer scores more than the claimed score (and the claimed answer reaches it).
    Optimal,
    /// The puzzle has no valid answer.
    NoSolution,
    /// The one listed solution is the only one.
    Unique,
    /// The listed solutions are all there are.
    Count,
}

impl Claim {
    pub const ALL: [Claim; 4] = [Claim::Optimal, Claim::NoSolution, Claim::Unique, Claim::Count];

    pub fn name(self) -> &'static str {
        match self {
            Claim::Optimal => "optimal",
            Claim::NoSolution => "no_solution",
            Claim::Unique => "unique",
            Claim::Count => "count",
        }
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The claim's formula: the rules; for [`Claim::Optimal`] the lemmas (each proved on its own,
/// see [`lemma_formula`]) and "strictly better than `score`" ([`Puzzle::better_than`]); then the blocking clause of each of `blocked`, in order (the
/// solutions of a uniqueness or count claim, or what the bound let through). Its
/// unsatisfiability is the claim, given that the blocked answers are valid and, for an
/// optimum, score no more than `score`: which whoever verifies re-checks with the validator.
pub fn formula<P: Puzzle>(inst: &P::Instance, claim: Claim, score: Option<&P::Score>, lemmas: &[Value], blocked: &[P::Answer]) -> Result<Cnf, String> {
    let mut cnf = Cnf::new();
    let enc = P::encode(inst, &mut cnf);
    if claim == Claim::Optimal {
        let score = score.ok_or("an optimality claim needs its score")?;
        for l in lemmas {
            P::lemma(inst, &enc, &mut cnf, l, false)?;
        }
        P::better_than(inst, &enc, &mut cnf, score, lemmas)?;
    }
    if !blocked.is_empty() {
        P::block(inst, &enc, &mut cnf, blocked);
    }
    Ok(cnf)
}

/// The formula whose unsatisfiability proves `lemma`: the rules and the lemma's negation.
pub fn lemma_formula<P: Puzzle>(inst: &P::Instance, lemma: &Value) -> Result<Cnf, String> {
    let mut cnf = Cnf::new();
    let enc = P::encode(inst, &mut cnf);
    P::lemma(inst, &enc, &mut cnf, lemma, true)?;
    Ok(cnf)
}

/// An answer with what the validator made of it.
pub type Valid<P> = (<P as Puzzle>::Answer, <P as Puzzle>::Checked);

/// For an optimality claim: the answers that "better than `score`" lets through, none of them
/// better (else the claim was wrong: an error), found until the solver refutes the rest. At
/// most `limit` of them; past it, an error.
pub fn let_through<P: Puzzle>(inst: &P::Instance, score: &P::Score, lemmas: &[Value], solvers: &dyn NewSolver, limit: usize) -> Result<Vec<Valid<P>>, SolverError> {
    let mut solver = solvers.new_solver();
    let enc = P::encode(inst, &mut solver);
    for l in lemmas {
        P::lemma(inst, &enc, &mut solver, l, false).map_err(SolverError)?;
    }
    P::better_than(inst, &enc, &mut solver, score, lemmas).map_err(SolverError)?;
    let mut found = Vec::new();
    loop {
        match solver.solve()? {
            SolveResult::Unsat => return Ok(found),
            SolveResult::Interrupted => return Err(SolverError("stopped before the certificate was complete".into())),
            SolveResult::Sat => {}
        }
        let (answer, checked) = crate::search::take::<P, _>(inst, &enc, &solver)?;
        let got = P::score(&checked);
        if got > *score {
            return Err(SolverError(format!("internal error: the claim is wrong: an answer scores {got}, more than {score}")));
        }
        if found.len() == limit {
            return Err(SolverError(format!("the bound lets more than {limit} answers that are not better through: no certificate")));
        }
        P::block(inst, &enc, &mut solver, std::slice::from_ref(&answer));
        found.push((answer, checked));
    }
}
