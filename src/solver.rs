//! The embedded CDCL solver (varisat) as a clause sink, so encoders write straight into it.

use encodings::cnf::{ClauseSink, Lit, Model};
use varisat::ExtendFormula;

pub struct Varisat<'a> {
    solver: varisat::Solver<'a>,
    vars: u32,
    clauses: u64,
    calls: u32,
    buf: Vec<varisat::Lit>,
}

impl Default for Varisat<'_> {
    fn default() -> Self {
        Varisat { solver: varisat::Solver::new(), vars: 0, clauses: 0, calls: 0, buf: Vec::new() }
    }
}

impl Varisat<'_> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Solves what was added so far; `true` when satisfiable.
    pub fn solve(&mut self) -> bool {
        self.solve_with(&[])
    }

    /// Solves with `assumptions` true for this call only.
    pub fn solve_with(&mut self, assumptions: &[Lit]) -> bool {
        self.calls += 1;
        self.buf.clear();
        self.buf.extend(assumptions.iter().map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)));
        self.solver.assume(&self.buf);
        // Errors come only from proof output or interrupts, neither of which is used.
        self.solver.solve().expect("varisat failed without proof output or interrupts")
    }

    /// After an unsatisfiable `solve_with`: a subset of its assumptions that is already
    /// contradictory (empty when the formula alone is).
    pub fn failed_core(&self) -> Vec<Lit> {
        let core = self.solver.failed_core().unwrap_or(&[]);
        core.iter().filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32)).collect()
    }

    /// The model of the last satisfiable call.
    pub fn model(&self) -> Model {
        let lits = self.solver.model().expect("model asked for after an unsatisfiable call");
        Model::from_lits(self.vars, lits.into_iter().filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32)))
    }

    pub fn vars(&self) -> u32 {
        self.vars
    }

    pub fn clauses(&self) -> u64 {
        self.clauses
    }

    pub fn calls(&self) -> u32 {
        self.calls
    }
}

impl ClauseSink for Varisat<'_> {
    fn new_var(&mut self) -> Lit {
        self.vars += 1;
        Lit::positive(self.vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.buf.clear();
        self.buf.extend(lits.iter().map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)));
        self.solver.add_clause(&self.buf);
    }
}
