//! What the searches (optimise, enumerate, generate) need from a SAT solver, and nothing about
//! any particular one: the driver's backends (varisat, CaDiCaL, an external command) implement
//! [`Solver`]; the searches are written against it, so every search runs on every backend.
//!
//! One trait for all of them, every method required: each backend solves under assumptions and
//! gives a model; one without failed cores returns all the assumptions as the core, and one
//! that cannot stop inside a call says so through [`Solver::interruptible`].

use crate::cnf::{ClauseSink, Cnf, Limited, Lit, Model};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The answer of one solver call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveResult {
    Sat,
    Unsat,
    /// The run's [`Stop`] was raised: the call gave up without an answer.
    Interrupted,
}

/// A solver that failed: crashed, timed out on its own, printed garbage or a wrong model. Never
/// read as an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverError(pub String);

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SolverError {}

/// A flag shared by everything one run does: raised when the time limit passes, it makes the
/// running solver call return [`SolveResult::Interrupted`] (where the backend can be
/// interrupted) and the searches stop between calls.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    pub fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for a backend that polls it from inside its own loop.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

/// What a backend reports about its work so far (`None` where it does not count it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    pub calls: u32,
    pub vars: u32,
    pub clauses: u64,
    pub conflicts: Option<u64>,
    pub decisions: Option<u64>,
}

/// An incremental SAT solver: clauses go in through [`ClauseSink`] (so encoders write straight
/// into it), then it is asked under assumptions, as often as the search likes.
pub trait Solver: ClauseSink {
    /// The backend's name, as `--solver` takes it.
    fn backend(&self) -> &'static str;

    /// Solves the clauses added so far with `assumptions` true for this call only.
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError>;

    /// The model of the last call, which must have answered [`SolveResult::Sat`].
    fn model(&self) -> Model;

    /// After a call that answered [`SolveResult::Unsat`]: a subset of its assumptions that is
    /// already contradictory (empty when the clauses alone are). A backend without cores
    /// returns all the assumptions, which is always correct, only less helpful.
    fn failed_core(&self) -> Vec<Lit>;

    fn stats(&self) -> SolverStats;

    /// Whether raising the run's [`Stop`] ends a call that is running (otherwise the search
    /// only stops between calls).
    fn interruptible(&self) -> bool;

    /// Solves without assumptions.
    fn solve(&mut self) -> Result<SolveResult, SolverError> {
        self.solve_with(&[])
    }

    /// Like [`Solver::solve_with`], but gives up after about `conflicts` conflicts: `None`
    /// (a raised [`Stop`] still answers [`SolveResult::Interrupted`]). For searches that would
    /// rather try something else than wait on one hard call. A backend without such a limit
    /// (an external command) solves to the end.
    fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<SolveResult>, SolverError> {
        let _ = conflicts;
        self.solve_with(assumptions).map(Some)
    }
}

/// Makes the solvers of one run (the Tatamibari generator uses many), all sharing its [`Stop`].
pub trait NewSolver: Send + Sync {
    fn new_solver(&self) -> Box<dyn Solver>;
    /// Whether its solvers live in this process, so that many small ones cost little (an
    /// external command costs a process per call).
    fn in_process(&self) -> bool {
        true
    }
    /// The run's stop flag.
    fn stop(&self) -> &Stop;
    /// Which member of a race this run is (0 when it runs alone): a search with more than one
    /// way to prove its claim takes another way on odd members, so that a race of two covers
    /// both (Kakkuro: bounds from above on even members, cores from below on odd ones).
    fn member(&self) -> usize {
        0
    }
    /// The race's board for sharing a backbone's progress ([`crate::team`]), when the
    /// members compute one.
    fn team(&self) -> Option<&crate::team::Team> {
        None
    }
}

impl<T: Solver + ?Sized> ClauseSink for Box<T> {
    fn new_var(&mut self) -> Lit {
        (**self).new_var()
    }

    fn name_var(&mut self, var: Lit, name: &dyn Fn() -> String) {
        (**self).name_var(var, name)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        (**self).add_clause(lits)
    }

    fn reserve(&mut self, literals: u64) -> bool {
        (**self).reserve(literals)
    }
}

impl<T: Solver + ?Sized> Solver for Box<T> {
    fn backend(&self) -> &'static str {
        (**self).backend()
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        (**self).solve_with(assumptions)
    }

    fn model(&self) -> Model {
        (**self).model()
    }

    fn failed_core(&self) -> Vec<Lit> {
        (**self).failed_core()
    }

    fn stats(&self) -> SolverStats {
        (**self).stats()
    }

    fn interruptible(&self) -> bool {
        (**self).interruptible()
    }

    fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<SolveResult>, SolverError> {
        (**self).solve_limited(assumptions, conflicts)
    }
}

/// The [`Solver`] methods a wrapper hands straight to the solver in its `inner` field.
macro_rules! forward_to_inner {
    () => {
        fn backend(&self) -> &'static str {
            self.inner.backend()
        }

        fn model(&self) -> Model {
            self.inner.model()
        }

        fn failed_core(&self) -> Vec<Lit> {
            self.inner.failed_core()
        }

        fn stats(&self) -> SolverStats {
            self.inner.stats()
        }

        fn interruptible(&self) -> bool {
            self.inner.interruptible()
        }
    };
}

/// A solver that refuses to solve a formula the [`Limited`] sink had to cut short.
impl<S: Solver> Solver for Limited<S> {
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        self.solving();
        match self.over() {
            Some(e) => Err(SolverError(e)),
            None => self.inner.solve_with(assumptions),
        }
    }

    fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<SolveResult>, SolverError> {
        self.solving();
        match self.over() {
            Some(e) => Err(SolverError(e)),
            None => self.inner.solve_limited(assumptions, conflicts),
        }
    }

    forward_to_inner!();
}

/// A solver that keeps a copy of every variable and clause it is given: to confirm that what a
/// proving solver refuted is the formula written beside its proof.
pub struct Recorded<S> {
    pub inner: S,
    pub cnf: Cnf,
}

impl<S> Recorded<S> {
    pub fn new(inner: S) -> Recorded<S> {
        Recorded {
            inner,
            cnf: Cnf::new(),
        }
    }
}

impl<S: ClauseSink> ClauseSink for Recorded<S> {
    fn new_var(&mut self) -> Lit {
        self.cnf.new_var();
        self.inner.new_var()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.cnf.add_clause(lits);
        self.inner.add_clause(lits)
    }

    fn reserve(&mut self, literals: u64) -> bool {
        self.inner.reserve(literals)
    }
}

impl<S: Solver> Solver for Recorded<S> {
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        self.inner.solve_with(assumptions)
    }

    fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<SolveResult>, SolverError> {
        self.inner.solve_limited(assumptions, conflicts)
    }

    forward_to_inner!();
}
