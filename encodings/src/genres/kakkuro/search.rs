//! The search for the best Kakkuro answer, written against the [`Solver`] trait: first each
//! red dot's largest factor on its own (binary search over its possible values), then
//! log-scale deficit bounds below those maxima, every model re-scored exactly by the validator
//! and its factor combination blocked, until the solver refutes anything better.
//!
//! A bound below the best answer's own may go either way, and on the hardest boards one such
//! call does not end in minutes: it gets a conflict budget, and after giving up the search asks
//! for a bound halfway nearer the best answer's. Calls at the best answer's own bound run to the
//! end (their UNSAT proves the optimum).
//!
//! On a race's odd members, on boards of 16×16 and more, the bound is proved from below
//! instead ([`run_cores`]): the two ways are complementary (the cores prove the 16×16 painting
//! boards, which the bounds from above do not; on smaller boards the bounds from above are
//! faster), so a race of two covers both.

use super::{bound, encode, fix_values, Answer, Encoding, Instance, Kakkuro, Scored};
use crate::capability;
use crate::cnf::sum::{Bound, SumOutputs};
use crate::cnf::Lit;
use crate::puzzle::{Ended, Goal, Observer};
use crate::search;
use crate::search::cores::Cores;
use crate::solver::{NewSolver, SolveResult, Solver, SolverError};

/// Boards from this many cells (16×16) are proved from below on a race's odd members. Below
/// it both members bound from above (on different backends): there the bounds from above were
/// faster on every painting board of `benches/data/hard` but one (12×12 density 0.2: 15 s on
/// CaDiCaL from above, 146 s from below), and at 16×16 they prove nothing in 600 s where the
/// cores prove density 0.15 and 0.2 in one to two minutes (docs/encodings/kakkuro.md).
const CORES_FROM_CELLS: usize = 256;

/// The deficit bound first asked above the floor, in units of 1/SCALE: small, so the first
/// totalizers are small; doubled each time the solver refutes one.
const FIRST_BOUND: u64 = 64;

/// Conflicts a bound below the best answer's own may spend before the search asks for less
/// (doubled each time an answer is found after one gave up), per cell of the board: a conflict
/// costs more on a larger formula, so this is about 15–25 s on this machine whatever the size
/// (10×10: 80,000, where the longest call that ends at density 0.15 needs 50,000–80,000; 16×16:
/// 31,000). Tuned on `benches/data/hard`.
const BUDGET_CELLS: u64 = 8_000_000;

struct Search<'a> {
    inst: &'a Instance,
    solver: Box<dyn Solver>,
    enc: Encoding,
    best: Option<Scored>,
    /// Per red dot, the largest factor seen in any answer (a proved lower bound on its maximum).
    seen: Vec<u64>,
    out: &'a mut dyn Observer<Kakkuro>,
}

/// What a step of the search met: `Err(None)` when the run was stopped.
type Step<T> = Result<T, Option<SolverError>>;

/// A fresh solver holding the rules (and an instance's fixed values).
fn rules(inst: &Instance, solvers: &dyn NewSolver) -> (Box<dyn Solver>, Encoding) {
    let mut solver = solvers.new_solver();
    let enc = encode(&inst.puzzle, &mut solver);
    if let Some(values) = &inst.fixed {
        fix_values(&enc, &mut solver, values);
    }
    (solver, enc)
}

impl<'a> Search<'a> {
    fn new(
        inst: &'a Instance,
        solver: Box<dyn Solver>,
        enc: Encoding,
        out: &'a mut dyn Observer<Kakkuro>,
    ) -> Search<'a> {
        let dots = enc.factors.len();
        Search {
            inst,
            solver,
            enc,
            best: None,
            seen: vec![0; dots],
            out,
        }
    }

    /// The answer to beat: this search's best, or one found elsewhere that scores more
    /// (another cube's): then only what beats that is asked for.
    fn to_beat(&self) -> Option<Scored> {
        match (&self.best, self.out.floor()) {
            (Some(own), Some(f)) if f.score > own.score => Some(f),
            (None, f) => f,
            (own, _) => own.clone(),
        }
    }

    /// Decodes and re-scores the model with the independent validator; reports an improvement.
    fn take(&mut self) -> Step<(Answer, Scored)> {
        let (answer, scored) =
            search::take::<Kakkuro, _>(self.inst, &self.enc, &*self.solver).map_err(Some)?;
        for (s, &f) in self.seen.iter_mut().zip(&scored.factors) {
            *s = (*s).max(f);
        }
        if self.best.as_ref().is_none_or(|b| scored.score > b.score) {
            self.best = Some(scored.clone());
            self.out.found(&answer, &scored);
        }
        Ok((answer, scored))
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Step<bool> {
        let result = self.solver.solve_with(assumptions).map_err(Some)?;
        self.out.stats(self.solver.stats());
        match result {
            SolveResult::Sat => Ok(true),
            SolveResult::Unsat => Ok(false),
            SolveResult::Interrupted => Err(None),
        }
    }

    /// [`Search::solve`] within `conflicts`: `None` when it gave up.
    fn solve_limited(&mut self, assumptions: &[Lit], conflicts: u64) -> Step<Option<bool>> {
        let result = self
            .solver
            .solve_limited(assumptions, conflicts)
            .map_err(Some)?;
        self.out.stats(self.solver.stats());
        match result {
            Some(SolveResult::Sat) => Ok(Some(true)),
            Some(SolveResult::Unsat) => Ok(Some(false)),
            Some(SolveResult::Interrupted) => Err(None),
            None => Ok(None),
        }
    }
}

impl capability::Searches for Kakkuro {
    /// Finds the best answer (for an instance with fixed values, the best choice of sides) and
    /// proves it optimal unless the run is stopped.
    fn search(
        inst: &Instance,
        _: Goal,
        solvers: &dyn NewSolver,
        out: &mut dyn Observer<Kakkuro>,
    ) -> Result<Ended, SolverError> {
        let large = inst.puzzle.rows * inst.puzzle.cols >= CORES_FROM_CELLS;
        ended(if large && solvers.member() % 2 == 1 {
            run_cores(inst, solvers, out)
        } else {
            run(inst, solvers, out)
        })
    }
}

fn ended(step: Step<()>) -> Result<Ended, SolverError> {
    match step {
        Ok(()) => Ok(Ended::Proved),
        Err(None) => Ok(Ended::Stopped),
        Err(Some(e)) => Err(e),
    }
}

/// The core-guided search ([`run_cores`]) on any board, whatever the member: for tests and
/// measurements.
pub fn from_below(
    inst: &Instance,
    solvers: &dyn NewSolver,
    out: &mut dyn Observer<Kakkuro>,
) -> Result<Ended, SolverError> {
    ended(run_cores(inst, solvers, out))
}

/// The core-guided search ([`crate::search::cores`]): the solver is asked for an answer with
/// no deficit at all, each refusal's core raises the proved lower bound, every answer met is
/// re-scored exactly and what it dominates blocked, until the lower bound reaches what a
/// strictly better answer than the best would have to pay (or every answer is blocked).
fn run_cores(
    inst: &Instance,
    solvers: &dyn NewSolver,
    out: &mut dyn Observer<Kakkuro>,
) -> Step<()> {
    let (mut solver, enc) = rules(inst, solvers);
    let div = bound::divisor(&enc, bound::most_divisor(&enc) + 1, &mut solver);
    // Deficits below each dot's largest listed factor: the cores find what it can reach.
    let tops: Vec<u64> = enc
        .factors
        .iter()
        .map(|v| v.first().map_or(1, |&(f, _)| f))
        .collect();
    let (costs, paid) = bound::deficit_costs(&enc, &tops, &div);
    let mut cores = Cores::new(&costs);
    out.stats(solver.stats());
    let top: f64 = tops.iter().map(|&m| (m as f64).ln()).sum::<f64>() + 1.1f64.ln();
    let report = |out: &mut dyn Observer<Kakkuro>, proved: f64| {
        out.upper_bound((top - proved).exp() * (1.0 + 1e-9))
    };
    report(out, (enc.fewest_painted.max(1) as f64).ln());
    let mut s = Search::new(inst, solver, enc, out);
    loop {
        if let Some(best) = s.to_beat() {
            // Nothing better: every answer pays more than a better one could.
            match bound::better_than(bound::deficit(
                &tops,
                &best.factors,
                best.score.d,
                best.score.e,
            )) {
                None => return Ok(()),
                Some(k) if paid + cores.lower() > k => return Ok(()),
                Some(_) => {}
            }
        }
        let assumptions = cores.assumptions();
        if s.solve(&assumptions)? {
            let (_, found) = s.take()?;
            bound::block(
                &s.enc,
                &div,
                &mut s.solver,
                &found.factors,
                found.score.d,
                found.score.e,
            );
            cores.satisfied();
        } else {
            let core = s.solver.failed_core();
            if core.is_empty() {
                return Ok(()); // every answer is blocked: the best is optimal (or there is none)
            }
            cores.relax(&core, &mut s.solver);
            // The cores bound the answers not blocked; the blocked ones score at most the best.
            let proved = bound::refuted((paid + cores.lower()).saturating_sub(1));
            let own = s.best.as_ref().map_or(f64::INFINITY, |b| {
                bound::deficit(&tops, &b.factors, b.score.d, b.score.e)
            });
            report(s.out, proved.min(own));
        }
    }
}

fn run(inst: &Instance, solvers: &dyn NewSolver, out: &mut dyn Observer<Kakkuro>) -> Step<()> {
    let (mut solver, enc) = rules(inst, solvers);
    // D is counted from the start, exactly when that is cheap (strict mode: a totalizer over
    // the painted cells); lenient mode counts errors only as far as the bounds ask.
    let mut div = (!inst.puzzle.lenient).then(|| bound::divisor(&enc, u64::MAX, &mut solver));
    out.stats(solver.stats());
    let dots = enc.factors.len();
    let mut s = Search::new(inst, solver, enc, out);
    if !s.solve(&[])? {
        return Ok(());
    }
    s.take()?;
    // Each dot's largest factor on its own, by binary search over its possible values; every
    // refuted value and all above it are excluded for good.
    let mut maxima = Vec::with_capacity(dots);
    for r in 0..dots {
        let values: Vec<u64> = s.enc.factors[r].iter().map(|&(f, _)| f).collect(); // descending
        let index = |f: u64| values.iter().position(|&v| v == f).expect("listed");
        let (mut lo, mut hi) = (0, index(s.seen[r]));
        while lo < hi {
            let mid = (lo + hi) / 2;
            let act = bound::factor_at_least(&s.enc, &mut s.solver, r, values[mid]);
            if s.solve(&[act])? {
                s.take()?;
                hi = index(s.seen[r]);
            } else {
                bound::factor_below(&s.enc, &mut s.solver, r, values[mid]);
                lo = mid + 1;
            }
        }
        if hi > 0 {
            bound::factor_below(&s.enc, &mut s.solver, r, values[hi - 1]);
        }
        maxima.push(values[hi]);
    }
    // Deficit bounds: ask for the best's bound, or a smaller one first while that is cheaper.
    // The dots' tables are built once; D is counted only as far as the largest cap asks.
    let deficits = bound::Deficits::new(&s.enc, &maxima);
    // Every answer's deficit is at least `proved` (natural-log units): its score at most
    // Π f̂ × 1.1 / e^proved, a bound reported as it rises (the gap when a time limit stops).
    let top: f64 = maxima.iter().map(|&m| (m as f64).ln()).sum::<f64>() + 1.1f64.ln();
    let report = |out: &mut dyn Observer<Kakkuro>, proved: f64| {
        out.upper_bound((top - proved).exp() * (1.0 + 1e-9))
    };
    // Strict mode paints at least `fewest_painted` cells (a lemma of the divisor): bounds start
    // above its ln, and grow by a doubling step from there.
    let floor = bound::floor_units(&s.enc);
    report(s.out, (s.enc.fewest_painted.max(1) as f64).ln());
    let mut step = FIRST_BOUND;
    let mut limit = floor + step;
    let mut budget =
        (BUDGET_CELLS / (inst.puzzle.rows * inst.puzzle.cols).max(1) as u64).max(20_000);
    // After a call gave up: the bound asked instead, halfway nearer the best's.
    let mut retreat: Option<u64> = None;
    let mut sum: Option<SumOutputs> = None;
    loop {
        let best = s.to_beat().expect("an answer was found");
        let Some(better) = bound::better_than(bound::deficit(
            &maxima,
            &best.factors,
            best.score.d,
            best.score.e,
        )) else {
            return Ok(()); // nothing can beat a zero deficit
        };
        let k = better.min(retreat.unwrap_or(limit));
        let cap = limit.max(k) + 1;
        if sum.as_ref().is_none_or(|o| o.cap.is_some_and(|c| c < cap)) {
            let need = bound::Deficits::divisor_for(cap);
            if div.as_ref().is_none_or(|d| d.at_least(need).is_none()) {
                div = Some(bound::divisor(&s.enc, need, &mut s.solver));
            }
            sum = Some(deficits.sum(div.as_ref().expect("built above"), cap, &mut s.solver));
        }
        let assumptions = match sum.as_ref().expect("built above").at_most(k) {
            Bound::Trivial => vec![],
            Bound::Lit(l) => vec![l],
            Bound::Impossible if k == better => return Ok(()),
            Bound::Impossible => {
                report(s.out, bound::refuted(k));
                step *= 2;
                limit = floor + step;
                retreat = None;
                continue;
            }
        };
        let answer = if k < better {
            s.solve_limited(&assumptions, budget)?
        } else {
            Some(s.solve(&assumptions)?)
        };
        match answer {
            Some(true) => {
                // Whether or not it improved, the best is now at least as good as this answer,
                // so its factor combination is done with (the bound alone may let it through
                // again).
                let (_, found) = s.take()?;
                // The bound keeps D below the divisor's cap (ln D alone would pass it); a wider
                // count is only a safeguard.
                if div
                    .as_ref()
                    .is_some_and(|d| d.at_least(found.score.d).is_none())
                {
                    div = Some(bound::divisor(&s.enc, found.score.d + 1, &mut s.solver));
                }
                let div = div.as_ref().expect("built with the sum");
                bound::block(
                    &s.enc,
                    div,
                    &mut s.solver,
                    &found.factors,
                    found.score.d,
                    found.score.e,
                );
                // Back to the bound that gave up, with more to spend on it.
                if retreat.take().is_some() {
                    budget *= 2;
                }
            }
            Some(false) if k == better => return Ok(()), // proved: nothing better than the best exists
            Some(false) => {
                report(s.out, bound::refuted(k));
                step *= 2;
                limit = floor + step;
                retreat = None;
            }
            None => retreat = Some(k + (better - k).div_ceil(2)),
        }
    }
}

/// For a certificate: each red dot's largest factor over all answers, where it is below the
/// dot's largest listed factor (`(dot, max)`: then "the factor is above `max`" is refuted,
/// a lemma the certificate proves on its own). By binary search over the listed values, as
/// the search does, on one solver with assumptions.
pub fn dot_maxima(
    inst: &Instance,
    solvers: &dyn NewSolver,
) -> Result<Vec<(usize, u64)>, SolverError> {
    let mut solver = solvers.new_solver();
    let enc = encode(&inst.puzzle, &mut solver);
    if let Some(values) = &inst.fixed {
        fix_values(&enc, &mut solver, values);
    }
    let mut lemmas = Vec::new();
    for r in 0..enc.factors.len() {
        let values: Vec<u64> = enc.factors[r].iter().map(|&(f, _)| f).collect(); // descending
                                                                                 // The first index whose value some answer reaches (monotone: reaching a value reaches
                                                                                 // every smaller one); none at all when there is no answer.
        let (mut lo, mut hi) = (0, values.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            let act = bound::factor_at_least(&enc, &mut solver, r, values[mid]);
            match solver.solve_with(&[act])? {
                SolveResult::Sat => hi = mid,
                SolveResult::Unsat => lo = mid + 1,
                SolveResult::Interrupted => {
                    return Err(SolverError(
                        "stopped before the certificate was complete".into(),
                    ))
                }
            }
        }
        if lo > 0 && lo < values.len() {
            lemmas.push((r, values[lo]));
        }
    }
    Ok(lemmas)
}
