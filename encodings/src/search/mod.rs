//! The two generic searches, written against the [`Solver`] trait: optimisation by iterative
//! bound tightening, and enumeration by blocking each answer found. Puzzles call them from
//! [`Puzzle::search`]; Kakkuro has a search of its own beside it.

pub mod cores;
pub mod parts;

use crate::cnf::{ClauseSink, Lit, Model};
use crate::puzzle::{Ended, Observer, Puzzle};
use crate::solver::{SolveResult, Solver, SolverError};
use crate::team::{Seat, Team};

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
        if let Called::Ended(ended) = call::<P, S>(solver, out, |_| (Vec::new(), None))? {
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

/// How many answers [`enumerate`] finds before it stops repairing models that broke cuts.
const REPAIRS_UNTIL: usize = 64;

/// Finds up to `max` answers on a solver that holds `enc` (from [`encode`], or built by the
/// puzzle itself), excluding each one found with `block(enc, solver, answer)`. A model whose
/// answer has `cuts(enc, answer)` is no answer: they are added and the solver asked again
/// (for a formula that leaves rules to cuts, `capability::Cuts`; none for the others), unless
/// `repair(enc, answer)` makes an answer of it that the validator accepts and that was not
/// found before (blocking clauses bar the solver's models from those, not the repairs).
#[allow(clippy::too_many_arguments)]
pub fn enumerate<P, S>(
    inst: &P::Instance,
    solver: &mut S,
    enc: &P::Encoding,
    max: u64,
    out: &mut dyn Observer<P>,
    block: impl Fn(&P::Encoding, &mut S, &P::Answer),
    cuts: impl Fn(&P::Encoding, &P::Answer) -> Vec<Vec<Lit>>,
    repair: impl Fn(&P::Encoding, &P::Answer) -> Option<P::Answer>,
) -> Result<Ended, SolverError>
where
    P: Puzzle,
    S: Solver + ?Sized,
{
    // The answers found, while few: repairs are tried only then (solving, uniqueness), as
    // each is compared with every one.
    let mut found: Vec<P::Answer> = Vec::new();
    for _ in 0..max {
        let cut = |model: &Model| {
            let answer = P::decode(inst, enc, model);
            let cuts = cuts(enc, &answer);
            let repaired = (!cuts.is_empty() && found.len() < REPAIRS_UNTIL)
                .then(|| repair(enc, &answer))
                .flatten()
                .filter(|a| P::check(inst, a).is_ok() && !found.contains(a));
            (cuts, repaired)
        };
        let (answer, checked) = match call::<P, S>(solver, out, cut)? {
            Called::Ended(ended) => return Ok(ended),
            Called::Model => take::<P, S>(inst, enc, solver)?,
            Called::Repaired(answer) => {
                let checked = P::check(inst, &answer).map_err(|v| {
                    SolverError(format!(
                        "internal error: a repaired answer breaks a rule: {v}"
                    ))
                })?;
                (answer, checked)
            }
        };
        block(enc, solver, &answer);
        out.found(&answer, &checked);
        if found.len() < REPAIRS_UNTIL {
            found.push(answer);
        }
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
/// With a `team` (the members of a race computing the same backbone), what any member drops
/// or proves is shared, and the members take the literals to refute in different orders.
/// `None` when the run was stopped.
pub fn backbone<S: Solver + ?Sized>(
    solver: &mut S,
    spare: Spare<'_>,
    team: Option<&Team>,
    candidates: Vec<Lit>,
) -> Result<Option<Vec<Lit>>, SolverError> {
    backbone_cut(solver, spare, team, candidates, |_: &Model| Vec::new())
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
    cuts: &mut impl Lazy,
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
        let cut = cuts.cuts(&model);
        if cut.is_empty() {
            return Ok(Probe::Model(model));
        }
        cut.iter().for_each(|c| solver.add_clause(c));
        added.extend(cut);
        if let Some(answer) = cuts.answer(&model) {
            return Ok(Probe::Model(answer));
        }
    }
}

/// The rules a search leaves out of the formula and adds as cuts when a model breaks them.
pub trait Lazy {
    /// The cuts `model` breaks; none when it is an answer.
    fn cuts(&mut self, model: &Model) -> Vec<Vec<Lit>>;

    /// An answer made from `model`, which broke cuts, where one is at hand: the backbone
    /// reads it for the candidates only, so it must give them the values of a whole answer
    /// the genre's validator accepted. Without one, the cuts are added and the call repeated.
    fn answer(&mut self, _model: &Model) -> Option<Model> {
        None
    }
}

impl<F: FnMut(&Model) -> Vec<Vec<Lit>>> Lazy for F {
    fn cuts(&mut self, model: &Model) -> Vec<Vec<Lit>> {
        self(model)
    }
}

/// [`backbone`] on a solver holding a formula with rules left to cuts: `cuts(model)` are the
/// cuts a model breaks (`capability::Cuts`), added before it is believed; a model with any is no
/// answer and drops nothing.
pub fn backbone_cut<S: Solver + ?Sized>(
    solver: &mut S,
    spare: Spare<'_>,
    team: Option<&Team>,
    candidates: Vec<Lit>,
    cuts: impl Lazy,
) -> Result<Option<Vec<Lit>>, SolverError> {
    backbone_within(solver, spare, team, candidates, cuts, BACKBONE_BUDGET)
}

/// The believed literals and those proved, and the team's seat if any.
struct Believed<'a> {
    believed: Vec<Lit>,
    proved: Vec<Lit>,
    seat: Option<Seat<'a>>,
}

impl Believed<'_> {
    /// Keeps the believed literals `m` makes true, and tells the team of the others.
    fn model(&mut self, m: &Model) {
        let (kept, broken): (Vec<Lit>, Vec<Lit>) = self.believed.iter().partition(|&&l| m.value(l));
        self.believed = kept;
        if let Some(seat) = &self.seat {
            seat.dropped(&broken);
        }
    }

    /// `l`, refuted on its own: proved, and told to the team.
    fn refuted(&mut self, l: Lit) {
        self.believed.retain(|&b| b != l);
        self.proved.push(l);
        if let Some(seat) = &self.seat {
            seat.proved(&[l]);
        }
    }

    /// The next believed literal to refute on its own ([`Seat::take`]).
    fn take(&self, turn: usize, budget: u64) -> Option<Lit> {
        let seat = self.seat.as_ref()?;
        if turn % 2 == 1 {
            seat.take(self.believed.iter().rev().copied(), budget)
        } else {
            seat.take(self.believed.iter().copied(), budget)
        }
    }

    fn release(&self, l: Lit, ran_past: Option<u64>) {
        if let Some(seat) = &self.seat {
            seat.release(l, ran_past);
        }
    }

    /// Tells the team that every literal still believed is proved (the whole clause refuted).
    fn post_proved(&self) {
        if let Some(seat) = &self.seat {
            seat.proved(&self.believed);
        }
    }

    /// Takes what the other members posted: drops what their models broke, and returns what
    /// they refuted that was still believed (proved now; units for the solvers).
    fn catch_up(&mut self) -> Vec<Lit> {
        let Some(seat) = &mut self.seat else {
            return Vec::new();
        };
        let news = seat.news();
        if !news.dropped.is_empty() {
            let dropped: std::collections::HashSet<Lit> = news.dropped.into_iter().collect();
            self.believed.retain(|l| !dropped.contains(l));
        }
        let mut units = Vec::new();
        for l in news.proved {
            if let Some(k) = self.believed.iter().position(|&b| b == l) {
                self.believed.remove(k);
                self.proved.push(l);
                units.push(l);
            }
        }
        units
    }
}

/// [`backbone_cut`] with the first calls' conflict budget given (tests give 0, so that the
/// spare solver is used at once).
pub fn backbone_within<S: Solver + ?Sized>(
    solver: &mut S,
    spare: Spare<'_>,
    team: Option<&Team>,
    candidates: Vec<Lit>,
    mut cuts: impl Lazy,
    budget: u64,
) -> Result<Option<Vec<Lit>>, SolverError> {
    let mut budget = budget;
    // Alone, a team of one: the same bookkeeping of what was tried within which budget.
    let own = Team::new();
    let seat = team
        .and_then(|t| t.join(&candidates))
        .or_else(|| own.join(&candidates));
    let turn = seat.as_ref().map_or(0, Seat::turn);
    // Refuted one by one on the spare solver: in the backbone, and units on both solvers.
    let mut b = Believed {
        believed: candidates,
        proved: Vec::new(),
        seat,
    };
    let mut added: Vec<Vec<Lit>> = Vec::new();
    // The spare, and how many of `added` it holds.
    let mut second: Option<(Box<dyn Solver>, usize)> = None;
    loop {
        for l in b.catch_up() {
            solver.add_clause(&[l]);
            if let Some((other, _)) = &mut second {
                other.add_clause(&[l]);
            }
        }
        if b.believed.is_empty() {
            break;
        }
        // Guarded, so the clause can be retired once answered.
        let act = solver.new_var();
        let mut clause: Vec<Lit> = b.believed.iter().map(|&l| !l).collect();
        clause.push(!act);
        solver.add_clause(&clause);
        let found = probe(solver, &[act], budget, &mut cuts, &mut added)?;
        // Retired only now: a clause added after the call would discard its model.
        solver.add_clause(&[!act]);
        match found {
            Probe::Model(m) => {
                b.model(&m);
                continue;
            }
            Probe::Refuted => {
                b.post_proved();
                break;
            }
            Probe::Stopped => return Ok(None),
            Probe::Unknown => {}
        }
        let (other, held) = second.get_or_insert_with(|| {
            let mut other = spare();
            b.proved.iter().for_each(|&l| other.add_clause(&[l]));
            (other, 0)
        });
        added[*held..].iter().for_each(|c| other.add_clause(c));
        *held = added.len();
        // Each believed literal on its own, but those another member is refuting or has tried
        // within this budget; even members from the first, odd ones from the last.
        loop {
            for u in b.catch_up() {
                solver.add_clause(&[u]);
                other.add_clause(&[u]);
            }
            let Some(l) = b.take(turn, budget) else { break };
            let mut more = Vec::new();
            let found = probe(&mut **other, &[!l], budget, &mut cuts, &mut more);
            b.release(l, matches!(found, Ok(Probe::Unknown)).then_some(budget));
            let found = found?;
            more.iter().for_each(|c| solver.add_clause(c));
            added.extend(more);
            *held = added.len();
            match found {
                Probe::Model(m) => b.model(&m),
                Probe::Refuted => {
                    other.add_clause(&[l]);
                    solver.add_clause(&[l]);
                    b.refuted(l);
                }
                Probe::Stopped => return Ok(None),
                Probe::Unknown => {}
            }
        }
        budget = budget.saturating_mul(2).max(1);
    }
    let mut proved = b.proved;
    proved.extend(b.believed);
    Ok(Some(proved))
}

/// How [`call`] ended.
enum Called<A> {
    /// The search ended.
    Ended(Ended),
    /// The solver's model is an answer.
    Model,
    /// A model broke cuts, and was repaired into this answer (the validator's).
    Repaired(A),
}

/// Calls without assumptions, each reported, until a model has no cuts (each added, when it
/// has some, before the next call), or was repaired into an answer: `cuts(model)` gives both.
fn call<P: Puzzle, S: Solver + ?Sized>(
    solver: &mut S,
    out: &mut dyn Observer<P>,
    mut cuts: impl FnMut(&Model) -> (Vec<Vec<Lit>>, Option<P::Answer>),
) -> Result<Called<P::Answer>, SolverError> {
    loop {
        let result = solver.solve()?;
        out.stats(solver.stats());
        match result {
            SolveResult::Interrupted => return Ok(Called::Ended(Ended::Stopped)),
            // The last call refuted what is left: no (better, further) answer exists.
            SolveResult::Unsat => return Ok(Called::Ended(Ended::Proved)),
            SolveResult::Sat => {}
        }
        let (cuts, repaired) = cuts(&solver.model());
        if cuts.is_empty() {
            return Ok(Called::Model);
        }
        cuts.iter().for_each(|c| solver.add_clause(c));
        if let Some(answer) = repaired {
            return Ok(Called::Repaired(answer));
        }
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
