//! The embedded CDCL solver varisat behind `encodings::solver::Solver`: the CLI's default
//! backend and the web page's only one, so both run the same solver code. Built with the
//! workspace's patched varisat (`vendor/varisat`): it polls the run's [`Stop`] after every
//! conflict, so a time limit (or the page's Stop) ends a hard call, and it keeps to a conflict
//! limit. Pure Rust: it compiles to `wasm32-unknown-unknown`.

use encodings::cnf::{ClauseSink, Limited, Lit, Model, MAX_LITERALS};
use encodings::solver::{NewSolver, SolveResult, Solver, SolverError, SolverStats, Stop};
use varisat::ExtendFormula;

pub struct Varisat {
    solver: varisat::Solver<'static>,
    stop: Stop,
    stats: SolverStats,
    buf: Vec<varisat::Lit>,
}

impl Varisat {
    pub fn new(stop: Stop) -> Self {
        let mut solver = varisat::Solver::new();
        solver.set_interrupt(stop.flag());
        Varisat {
            solver,
            stop,
            stats: SolverStats::default(),
            buf: Vec::new(),
        }
    }
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat::new(Stop::new())
    }
}

impl ClauseSink for Varisat {
    fn new_var(&mut self) -> Lit {
        self.stats.vars += 1;
        Lit::positive(self.stats.vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.stats.clauses += 1;
        self.buf.clear();
        self.buf.extend(
            lits.iter()
                .map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)),
        );
        self.solver.add_clause(&self.buf);
    }
}

impl Solver for Varisat {
    fn backend(&self) -> &'static str {
        "varisat"
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        self.solve_within(assumptions, None)
            .map(|r| r.unwrap_or(SolveResult::Interrupted))
    }

    fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<SolveResult>, SolverError> {
        self.solve_within(assumptions, Some(conflicts))
    }

    fn model(&self) -> Model {
        let lits = self
            .solver
            .model()
            .expect("model asked for after a call that was not satisfiable");
        Model::from_lits(
            self.stats.vars,
            lits.into_iter()
                .filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32)),
        )
    }

    fn failed_core(&self) -> Vec<Lit> {
        let core = self.solver.failed_core().unwrap_or(&[]);
        core.iter()
            .filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32))
            .collect()
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }

    fn interruptible(&self) -> bool {
        true
    }
}

impl Varisat {
    /// One call; `None` when the conflict limit ended it.
    fn solve_within(
        &mut self,
        assumptions: &[Lit],
        conflicts: Option<u64>,
    ) -> Result<Option<SolveResult>, SolverError> {
        if self.stop.is_raised() {
            return Ok(Some(SolveResult::Interrupted));
        }
        self.stats.calls += 1;
        self.buf.clear();
        self.buf.extend(
            assumptions
                .iter()
                .map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)),
        );
        self.solver.assume(&self.buf);
        self.solver.set_conflict_limit(conflicts);
        let result = self.solver.solve();
        self.stats.conflicts = Some(self.solver.conflicts());
        match result {
            Ok(true) => Ok(Some(SolveResult::Sat)),
            Ok(false) => Ok(Some(SolveResult::Unsat)),
            Err(varisat::solver::SolverError::Interrupted) if self.stop.is_raised() => {
                Ok(Some(SolveResult::Interrupted))
            }
            Err(varisat::solver::SolverError::Interrupted) => Ok(None),
            Err(e) => Err(SolverError(format!("varisat: {e}"))),
        }
    }
}

/// Makes varisat solvers that share one [`Stop`], each refusing a formula past
/// [`MAX_LITERALS`] as the CLI's do: a [`NewSolver`] for callers that have no backend to choose
/// (the web page, where that bound keeps a tab's memory too).
#[derive(Clone, Default)]
pub struct VarisatSolvers {
    pub stop: Stop,
}

impl NewSolver for VarisatSolvers {
    fn new_solver(&self) -> Box<dyn Solver> {
        Box::new(Limited::new(Varisat::new(self.stop.clone()), MAX_LITERALS))
    }

    fn stop(&self) -> &Stop {
        &self.stop
    }
}
