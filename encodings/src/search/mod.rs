//! The two generic searches, written against the [`Solver`] trait: optimisation by iterative
//! bound tightening, and enumeration by blocking each answer found. Puzzles call them from
//! [`Puzzle::search`]; Kakkuro has a search of its own beside it.

pub mod cores;
pub mod parts;

use crate::cnf::{ClauseSink, Lit, Model};
use crate::puzzle::{Ended, Observer, Puzzle};
use crate::solver::{SolveResult, Solver, SolverError};

/// The result of asking for a better answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tighten {
    /// Clauses were added that exclude every answer not strictly better than the best.
    Added,
    /// No better score is possible at all (the bound is past the encoding's range): the best
    /// answer is optimal without another solver call.
    Exhausted,
}

/// Decodes the last model and re-checks it with the independent validator: a model the
/// validator rejects is an encoding bug (or a lying solver) and never reaches the user.
pub fn take<P: Puzzle, S: Solver + ?Sized>(
    inst: &P::Instance,
    enc: &P::Encoding,
    solver: &S,
) -> Result<(P::Answer, P::Checked), SolverError> {
    take_model::<P>(inst, enc, &solver.model(), solver.backend())
}

/// [`take`] for a model in hand, from the backend `who`.
pub fn take_model<P: Puzzle>(
    inst: &P::Instance,
    enc: &P::Encoding,
    model: &Model,
    who: &str,
) -> Result<(P::Answer, P::Checked), SolverError> {
    let answer = P::decode(inst, enc, model);
    match P::check(inst, &answer) {
        Ok(checked) => Ok((answer, checked)),
        Err(v) => Err(SolverError(format!(
            "internal error: the answer of {who} breaks a rule: {v}"
        ))),
    }
}

/// Solve, score exactly, demand a strictly better score with `require_better`, repeat until
/// UNSAT, which proves the last answer optimal.
///
/// `require_better(enc, solver, best, last)` adds clauses excluding `last` and every answer
/// scoring at most `best`. Sound over-approximations are allowed (they may let some not-better
/// answers through, which are re-scored and excluded on the next call) as long as no better
/// answer is ever cut.
pub fn maximize<P, S, Score>(
    inst: &P::Instance,
    solver: &mut S,
    out: &mut dyn Observer<P>,
    score_of: impl Fn(&P::Checked) -> Score,
    mut require_better: impl FnMut(
        &mut P::Encoding,
        &mut S,
        &Score,
        &P::Answer,
    ) -> Result<Tighten, SolverError>,
) -> Result<Ended, SolverError>
where
    P: Puzzle,
    S: Solver + ?Sized,
    Score: Ord + Clone,
{
    let mut enc = encode::<P, S>(inst, solver, out);
    let mut best: Option<Score> = None;
    loop {
        if let Some(ended) = call::<P, S>(solver, out, |_| Vec::new())? {
            return Ok(ended);
        }
        let (answer, checked) = take::<P, S>(inst, &enc, solver)?;
        let score = score_of(&checked);
        if best.as_ref().is_none_or(|b| score > *b) {
            best = Some(score.clone());
            out.found(&answer, &checked);
        }
        let bar = best.as_ref().expect("set above");
        if require_better(&mut enc, solver, bar, &answer)? == Tighten::Exhausted {
            return Ok(Ended::Proved);
        }
    }
}

/// An observer that adds the calls, variables and clauses of solvers used before (a first
/// attempt that gave up) to every count it passes on, so a run's totals stay whole.
pub struct After<'a, P: Puzzle> {
    pub out: &'a mut dyn Observer<P>,
    pub before: crate::solver::SolverStats,
}

impl<P: Puzzle> Observer<P> for After<'_, P> {
    fn found(&mut self, answer: &P::Answer, checked: &P::Checked) {
        self.out.found(answer, checked)
    }

    fn stats(&mut self, s: crate::solver::SolverStats) {
        let b = self.before;
        self.out.stats(crate::solver::SolverStats {
            calls: s.calls + b.calls,
            vars: s.vars + b.vars,
            clauses: s.clauses + b.clauses,
            ..s
        })
    }

    fn upper_bound(&mut self, bound: f64) {
        self.out.upper_bound(bound)
    }
}

/// Finds up to `max` answers on a solver that holds `enc` (from [`encode`], or built by the
/// puzzle itself), excluding each one found with `block(enc, solver, answer)`. A model whose
/// answer has `cuts(enc, answer)` is no answer: they are added and the solver asked again
/// (for a formula that leaves rules to cuts, `capability::Cuts`; none for the others).
pub fn enumerate<P, S>(
    inst: &P::Instance,
    solver: &mut S,
    enc: &P::Encoding,
    max: u64,
    out: &mut dyn Observer<P>,
    block: impl Fn(&P::Encoding, &mut S, &P::Answer),
    cuts: impl Fn(&P::Encoding, &P::Answer) -> Vec<Vec<Lit>>,
) -> Result<Ended, SolverError>
where
    P: Puzzle,
    S: Solver + ?Sized,
{
    for _ in 0..max {
        let cut = |model: &Model| cuts(enc, &P::decode(inst, enc, model));
        if let Some(ended) = call::<P, S>(solver, out, cut)? {
            return Ok(ended);
        }
        let (answer, checked) = take::<P, S>(inst, enc, solver)?;
        block(enc, solver, &answer);
        out.found(&answer, &checked);
    }
    Ok(Ended::Limit)
}

/// A second solver holding the same rules as the first, made only if a backbone call runs long.
pub type Spare<'a> = &'a dyn Fn() -> Box<dyn Solver>;

/// Conflicts a backbone call gets before the spare solver is tried; doubled after each try.
const BACKBONE_BUDGET: u64 = 2_000;

/// Which of `candidates` (true in some model already found) hold in every model of the
/// solver's clauses: the backbone restricted to them, cspuz's "irrefutable facts". Ask for a
/// model that breaks one of those still believed and drop whatever it breaks, until the
/// solver refutes that. Each satisfiable call drops at least one. A call that runs past its
/// conflict budget is set aside and each believed literal is refuted on its own on `spare()`,
/// a solver that has not been through the earlier calls: an incremental solver's refutation
/// of the whole clause can take minutes where a fresh one's takes a few hundred conflicts.
/// `None` when the run was stopped.
pub fn backbone<S: Solver + ?Sized>(
    solver: &mut S,
    spare: Spare<'_>,
    candidates: Vec<Lit>,
) -> Result<Option<Vec<Lit>>, SolverError> {
    backbone_cut(solver, spare, candidates, |_| Vec::new())
}

/// What one bounded call of the backbone search found.
enum Probe {
    /// A model without cuts.
    Model(Model),
    Refuted,
    Unknown,
    Stopped,
}

/// Solves under `assumptions` within `budget` conflicts, adding the cuts of each model that
/// has some (recorded in `added`, for the other solver) and asking again.
fn probe<S: Solver + ?Sized>(
    solver: &mut S,
    assumptions: &[Lit],
    budget: u64,
    cuts: &mut impl FnMut(&Model) -> Vec<Vec<Lit>>,
    added: &mut Vec<Vec<Lit>>,
) -> Result<Probe, SolverError> {
    loop {
        match solver.solve_limited(assumptions, budget)? {
            None => return Ok(Probe::Unknown),
            Some(SolveResult::Interrupted) => return Ok(Probe::Stopped),
            Some(SolveResult::Unsat) => return Ok(Probe::Refuted),
            Some(SolveResult::Sat) => {}
        }
        let model = solver.model();
        let cut = cuts(&model);
        if cut.is_empty() {
            return Ok(Probe::Model(model));
        }
        cut.iter().for_each(|c| solver.add_clause(c));
        added.extend(cut);
    }
}

/// [`backbone`] on a solver holding a formula with rules left to cuts: `cuts(model)` are the
/// cuts a model breaks (`capability::Cuts`), added before it is believed; a model with any is no
/// answer and drops nothing.
pub fn backbone_cut<S: Solver + ?Sized>(
    solver: &mut S,
    spare: Spare<'_>,
    candidates: Vec<Lit>,
    cuts: impl FnMut(&Model) -> Vec<Vec<Lit>>,
) -> Result<Option<Vec<Lit>>, SolverError> {
    backbone_within(solver, spare, candidates, cuts, BACKBONE_BUDGET)
}

/// [`backbone_cut`] with the first calls' conflict budget given (tests give 0, so that the
/// spare solver is used at once).
pub fn backbone_within<S: Solver + ?Sized>(
    solver: &mut S,
    spare: Spare<'_>,
    candidates: Vec<Lit>,
    mut cuts: impl FnMut(&Model) -> Vec<Vec<Lit>>,
    budget: u64,
) -> Result<Option<Vec<Lit>>, SolverError> {
    let mut budget = budget;
    let mut believed = candidates;
    // Refuted one by one on the spare solver: in the backbone, and units on both solvers.
    let mut proved: Vec<Lit> = Vec::new();
    let mut added: Vec<Vec<Lit>> = Vec::new();
    // The spare, and how many of `added` it holds.
    let mut second: Option<(Box<dyn Solver>, usize)> = None;
    while !believed.is_empty() {
        // Guarded, so the clause can be retired once answered.
        let act = solver.new_var();
        let mut clause: Vec<Lit> = believed.iter().map(|&l| !l).collect();
        clause.push(!act);
        solver.add_clause(&clause);
        let found = probe(solver, &[act], budget, &mut cuts, &mut added)?;
        // Retired only now: a clause added after the call would discard its model.
        solver.add_clause(&[!act]);
        match found {
            Probe::Model(m) => {
                believed.retain(|&l| m.value(l));
                continue;
            }
            Probe::Refuted => break,
            Probe::Stopped => return Ok(None),
            Probe::Unknown => {}
        }
        let (other, held) = second.get_or_insert_with(|| (spare(), 0));
        added[*held..].iter().for_each(|c| other.add_clause(c));
        *held = added.len();
        for l in believed.clone() {
            if !believed.contains(&l) {
                continue;
            }
            let mut more = Vec::new();
            let found = probe(&mut **other, &[!l], budget, &mut cuts, &mut more)?;
            more.iter().for_each(|c| solver.add_clause(c));
            added.extend(more);
            *held = added.len();
            match found {
                Probe::Model(m) => believed.retain(|&l| m.value(l)),
                Probe::Refuted => {
                    other.add_clause(&[l]);
                    solver.add_clause(&[l]);
                    proved.push(l);
                    believed.retain(|&b| b != l);
                }
                Probe::Stopped => return Ok(None),
                Probe::Unknown => {}
            }
        }
        budget = budget.saturating_mul(2).max(1);
    }
    proved.extend(believed);
    Ok(Some(proved))
}

/// Calls without assumptions, each reported, until a model has no `cuts` (each added, when it
/// has some, before the next call); how the search ends unless it found one.
fn call<P: Puzzle, S: Solver + ?Sized>(
    solver: &mut S,
    out: &mut dyn Observer<P>,
    cuts: impl Fn(&Model) -> Vec<Vec<Lit>>,
) -> Result<Option<Ended>, SolverError> {
    loop {
        let result = solver.solve()?;
        out.stats(solver.stats());
        match result {
            SolveResult::Interrupted => return Ok(Some(Ended::Stopped)),
            // The last call refuted what is left: no (better, further) answer exists.
            SolveResult::Unsat => return Ok(Some(Ended::Proved)),
            SolveResult::Sat => {}
        }
        let cuts = cuts(&solver.model());
        if cuts.is_empty() {
            return Ok(None);
        }
        cuts.iter().for_each(|c| solver.add_clause(c));
    }
}

/// Encodes the rules into the solver and reports the formula's size.
pub fn encode<P: Puzzle, S: Solver + ?Sized>(
    inst: &P::Instance,
    solver: &mut S,
    out: &mut dyn Observer<P>,
) -> P::Encoding {
    encode_with(solver, out, |sink| P::encode(inst, sink))
}

/// [`encode`] with an encoder of the caller's (a genre's formula with rules left to cuts).
pub fn encode_with<P: Puzzle, S: Solver + ?Sized>(
    solver: &mut S,
    out: &mut dyn Observer<P>,
    encoder: impl FnOnce(&mut Sink<'_, S>) -> P::Encoding,
) -> P::Encoding {
    let enc = encoder(&mut Sink(solver));
    out.stats(solver.stats());
    enc
}

/// A `?Sized` solver as a sized clause sink, for the encoders' `S: ClauseSink` parameters.
pub struct Sink<'a, S: ?Sized>(pub &'a mut S);

impl<S: ClauseSink + ?Sized> ClauseSink for Sink<'_, S> {
    fn new_var(&mut self) -> crate::cnf::Lit {
        self.0.new_var()
    }

    fn name_var(&mut self, var: crate::cnf::Lit, name: &dyn Fn() -> String) {
        self.0.name_var(var, name)
    }

    fn add_clause(&mut self, lits: &[crate::cnf::Lit]) {
        self.0.add_clause(lits)
    }

    fn reserve(&mut self, literals: u64) -> bool {
        self.0.reserve(literals)
    }
}
