//! Certificates of a search's claims: the one formula whose unsatisfiability *is* the claim,
//! built the same way by whoever certifies and whoever verifies, and the search for the
//! answers a claim's bound lets through without beating it (here); how the proofs are made
//! ([`prove`], against a [`prove::Prover`] the driver's backends implement); the VeriPB
//! certificate made from them ([`pb`], [`veripb`]); and what the files are named and say
//! ([`files`]). Reading and writing the files and running the checkers is the driver's.

pub mod files;
pub mod pb;
pub mod prove;
pub mod veripb;

use crate::cnf::{ClauseSink, Cnf, Limited, Lit, Model, MAX_LITERALS};
use crate::genre::Genre;
use crate::puzzle::Puzzle;
use crate::search::Sink;
use crate::solver::{SolveResult, Solver, SolverError};
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
    pub const ALL: [Claim; 4] = [
        Claim::Optimal,
        Claim::NoSolution,
        Claim::Unique,
        Claim::Count,
    ];

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

/// Which of a claim's two formulas: the one a certificate states (`final.cnf`), or the one its
/// proving solver is given, the same with [`Puzzle::derived_units`] after the rules. Each
/// unit follows from the rules by unit propagation, so a proof of the second, after the
/// units written as its first lines, is a proof of the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Stated,
    Proving,
}

/// Refuses a claim that the puzzle's blocking cannot state: `unique` and `count` need
/// [`Info::blocks_exactly`].
pub fn supports<P: Genre>(claim: Claim) -> Result<(), String> {
    if matches!(claim, Claim::Unique | Claim::Count) && !P::INFO.blocks_exactly {
        return Err(format!("{}'s blocking clauses exclude more than the answers listed, so no certificate can claim '{claim}'", P::INFO.name));
    }
    Ok(())
}

/// The claim's formula: the rules ([`Puzzle::plain_encode`]); for [`Claim::Optimal`] the lemmas
/// (each proved on its own, see [`lemma_formula`]) and "strictly better than `score`"
/// ([`Puzzle::better_than`]); then the blocking clauses of each of `blocked`, one answer at a
/// time, in order (the solutions of a uniqueness or count claim, or what the bound let
/// through). Its unsatisfiability is the claim, given that the blocked answers are valid and,
/// for an optimum, score no more than `score`: which whoever verifies re-checks with the
/// validator. An empty clause is written as two opposite units (see [`NoEmpty`]).
pub fn formula<P: Genre>(
    inst: &P::Instance,
    claim: Claim,
    score: Option<&P::Score>,
    lemmas: &[Value],
    blocked: &[P::Answer],
) -> Result<Cnf, String> {
    Ok(built::<P>(inst, claim, score, lemmas, blocked, Form::Stated)?.0)
}

/// [`formula`] in either form, with its encoding (to read a model of it) and the derived units
/// it holds (none in [`Form::Stated`]).
pub fn built<P: Genre>(
    inst: &P::Instance,
    claim: Claim,
    score: Option<&P::Score>,
    lemmas: &[Value],
    blocked: &[P::Answer],
    form: Form,
) -> Result<(Cnf, P::Encoding, Vec<Lit>), String> {
    let mut cnf = NoEmpty(Cnf::new());
    let (enc, units) = rules::<P, _>(inst, claim, score, lemmas, form, &mut cnf)?;
    for answer in blocked {
        P::block(inst, &enc, &mut cnf, std::slice::from_ref(answer));
    }
    Ok((cnf.0, enc, units))
}

/// The formula before any answer is blocked. [`formula`] and [`refute`] both start with it,
/// so a solver that [`refute`] fills holds exactly [`built`]'s clauses.
fn rules<P: Genre, S: ClauseSink>(
    inst: &P::Instance,
    claim: Claim,
    score: Option<&P::Score>,
    lemmas: &[Value],
    form: Form,
    sink: &mut S,
) -> Result<(P::Encoding, Vec<Lit>), String> {
    supports::<P>(claim)?;
    // Bounded as `solve` is: a claim's text alone must not make either side build without end.
    let mut sink = Limited::new(Sink(sink), MAX_LITERALS);
    let (enc, units) = plain::<P, _>(inst, form, &mut sink);
    if claim == Claim::Optimal {
        let score = score.ok_or("an optimality claim needs its score")?;
        for l in lemmas {
            lemma_clauses::<P>()?(inst, &enc, &mut sink, l, false)?;
        }
        P::better_than(inst, &enc, &mut sink, score, lemmas)?;
    }
    match sink.over() {
        Some(e) => Err(format!("the claim's formula is too large: {e}")),
        None => Ok((enc, units)),
    }
}

/// How `P` states a lemma, or why a claim that holds lemmas is refused for it.
fn lemma_clauses<P: Genre>() -> Result<crate::genre::LemmaClauses<P>, String> {
    P::LEMMAS
        .map(|l| l.clauses)
        .ok_or_else(|| format!("{} has no lemmas", P::INFO.name))
}

/// The plain rules, and in [`Form::Proving`] the derived units after them.
fn plain<P: Genre, S: ClauseSink>(
    inst: &P::Instance,
    form: Form,
    sink: &mut S,
) -> (P::Encoding, Vec<Lit>) {
    let enc = P::plain_encode(inst, sink);
    let units = match form {
        Form::Stated => Vec::new(),
        Form::Proving => P::derived_units(inst, &enc),
    };
    units.iter().for_each(|&u| sink.add_clause(&[u]));
    (enc, units)
}

/// The formula whose unsatisfiability proves `lemma`: the rules and the lemma's negation (with
/// the derived units it holds, in [`Form::Proving`]).
pub fn lemma_formula<P: Genre>(
    inst: &P::Instance,
    lemma: &Value,
    form: Form,
) -> Result<(Cnf, Vec<Lit>), String> {
    let mut cnf = Limited::new(NoEmpty(Cnf::new()), MAX_LITERALS);
    let (enc, units) = plain::<P, _>(inst, form, &mut cnf);
    lemma_clauses::<P>()?(inst, &enc, &mut cnf, lemma, true)?;
    match cnf.over() {
        Some(e) => Err(format!("the lemma's formula is too large: {e}")),
        None => Ok((cnf.inner.0, units)),
    }
}

pub use crate::cnf::NoEmpty;

/// An answer with what the validator made of it.
pub type Valid<P> = (<P as Puzzle>::Answer, <P as Puzzle>::Checked);

/// Builds the claim's formula into `solver` as [`formula`] does and has the solver refute it,
/// asking it between the blocked answers as the search did, so each call starts where the last
/// left off: on a solver that writes a proof of every clause it learns (CaDiCaL), the proof
/// of the last call is the certificate's, at about the search's cost. Returns the blocked
/// answers: for [`Claim::Optimal`] those the bound lets through (see [`let_through`]), for
/// [`Claim::Unique`] and [`Claim::Count`] the claim's `answers`.
/// The formula is [`built`]'s in [`Form::Proving`]; its derived units are returned with the
/// answers, for the proof's first lines.
pub fn refute<P: Genre>(
    inst: &P::Instance,
    claim: Claim,
    score: Option<&P::Score>,
    lemmas: &[Value],
    answers: &[Valid<P>],
    solver: &mut dyn Solver,
    limit: usize,
) -> Result<(Vec<Valid<P>>, Vec<Lit>), SolverError> {
    let (enc, units) = rules::<P, _>(
        inst,
        claim,
        score,
        lemmas,
        Form::Proving,
        &mut NoEmpty(Sink(&mut *solver)),
    )
    .map_err(SolverError)?;
    let blocked = match claim {
        Claim::Optimal => {
            let score =
                score.ok_or_else(|| SolverError("an optimality claim needs its score".into()))?;
            return Ok((
                let_more_through::<P>(inst, &enc, score, solver, Vec::new(), limit)?,
                units,
            ));
        }
        Claim::NoSolution => Vec::new(),
        Claim::Unique | Claim::Count => answers.to_vec(),
    };
    for (answer, _) in &blocked {
        match solver.solve()? {
            SolveResult::Sat => {}
            SolveResult::Unsat => {
                return Err(SolverError(
                    "internal error: the claim's answers are not all solutions".into(),
                ))
            }
            SolveResult::Interrupted => return Err(stopped()),
        }
        P::block(
            inst,
            &enc,
            &mut NoEmpty(Sink(&mut *solver)),
            std::slice::from_ref(answer),
        );
    }
    match solver.solve()? {
        SolveResult::Unsat => Ok((blocked, units)),
        SolveResult::Sat => Err(SolverError(format!(
            "internal error: the claim '{claim}' is wrong: the solver finds another answer"
        ))),
        SolveResult::Interrupted => Err(stopped()),
    }
}

fn stopped() -> SolverError {
    SolverError("stopped before the certificate was complete".into())
}

/// For an optimality claim: the answers that "better than `score`" lets through, none of them
/// better (else the claim was wrong: an error), found until `solver` refutes the rest, after
/// blocking `found` (answers already known to get through). At most `limit` of them; past it,
/// an error.
pub fn let_through<P: Genre>(
    inst: &P::Instance,
    score: &P::Score,
    lemmas: &[Value],
    solver: &mut dyn Solver,
    found: Vec<Valid<P>>,
    limit: usize,
) -> Result<Vec<Valid<P>>, SolverError> {
    let (enc, _) = rules::<P, _>(
        inst,
        Claim::Optimal,
        Some(score),
        lemmas,
        Form::Proving,
        &mut NoEmpty(Sink(&mut *solver)),
    )
    .map_err(SolverError)?;
    for (answer, _) in &found {
        P::block(
            inst,
            &enc,
            &mut NoEmpty(Sink(&mut *solver)),
            std::slice::from_ref(answer),
        );
    }
    let_more_through::<P>(inst, &enc, score, solver, found, limit)
}

fn let_more_through<P: Genre>(
    inst: &P::Instance,
    enc: &P::Encoding,
    score: &P::Score,
    solver: &mut dyn Solver,
    mut found: Vec<Valid<P>>,
    limit: usize,
) -> Result<Vec<Valid<P>>, SolverError> {
    loop {
        match solver.solve()? {
            SolveResult::Unsat => return Ok(found),
            SolveResult::Interrupted => return Err(stopped()),
            SolveResult::Sat => {}
        }
        let valid = admit::<P>(inst, enc, &solver.model(), score)?;
        if found.len() == limit {
            return Err(SolverError(format!("the bound lets more than {limit} answers that are not better through: no certificate")));
        }
        P::block(
            inst,
            enc,
            &mut NoEmpty(Sink(&mut *solver)),
            std::slice::from_ref(&valid.0),
        );
        found.push(valid);
    }
}

/// A model of the optimality formula: its answer, re-checked by the validator, which must
/// score no more than the claim.
pub fn admit<P: Genre>(
    inst: &P::Instance,
    enc: &P::Encoding,
    model: &Model,
    score: &P::Score,
) -> Result<Valid<P>, SolverError> {
    let (answer, checked) =
        crate::search::take_model::<P>(inst, enc, model, "the certificate's prover")?;
    let got = P::score(&checked);
    if got > *score {
        return Err(SolverError(format!(
            "internal error: the claim is wrong: an answer scores {got}, more than {score}"
        )));
    }
    Ok((answer, checked))
}
