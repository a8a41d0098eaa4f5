//! The embedded CDCL solver varisat (the default backend: pure Rust, needs nothing but cargo).
//! It cannot be interrupted inside a call, so a raised [`Stop`] is only seen between calls.

use encodings::cnf::{ClauseSink, Cnf, Lit, Model};
use encodings::solver::{SolveResult, Solver, SolverError, SolverStats, Stop};
use varisat::ExtendFormula;

pub struct Varisat {
    solver: varisat::Solver<'static>,
    stop: Stop,
    stats: SolverStats,
    buf: Vec<varisat::Lit>,
}

impl Varisat {
    pub fn new(stop: Stop) -> Self {
        Varisat { solver: varisat::Solver::new(), stop, stats: SolverStats::default(), buf: Vec::new() }
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
        self.buf.extend(lits.iter().map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)));
        self.solver.add_clause(&self.buf);
    }
}

impl Solver for Varisat {
    fn backend(&self) -> &'static str {
        "varisat"
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        if self.stop.is_raised() {
            return Ok(SolveResult::Interrupted);
        }
        self.stats.calls += 1;
        self.buf.clear();
        self.buf.extend(assumptions.iter().map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)));
        self.solver.assume(&self.buf);
        match self.solver.solve() {
            Ok(true) => Ok(SolveResult::Sat),
            Ok(false) => Ok(SolveResult::Unsat),
            Err(e) => Err(SolverError(format!("varisat: {e}"))),
        }
    }

    fn model(&self) -> Model {
        let lits = self.solver.model().expect("model asked for after a call that was not satisfiable");
        Model::from_lits(self.stats.vars, lits.into_iter().filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32)))
    }

    fn failed_core(&self) -> Vec<Lit> {
        let core = self.solver.failed_core().unwrap_or(&[]);
        core.iter().filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32)).collect()
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }

    fn interruptible(&self) -> bool {
        false
    }
}

/// Solves `cnf` afresh, writing a DRAT proof to `proof` (varisat takes proof output only before
/// any clause, and no clause or assumption after the first call): refuted with the proof
/// complete, or a model.
pub fn prove(cnf: &Cnf, proof: &std::path::Path) -> Result<super::Proved, String> {
    let file = std::fs::File::create(proof).map_err(|e| format!("{}: cannot write: {e}", proof.display()))?;
    let mut solver = varisat::Solver::new();
    solver.write_proof(std::io::BufWriter::new(file), varisat::ProofFormat::Drat);
    let mut buf = Vec::new();
    for clause in &cnf.clauses {
        buf.clear();
        buf.extend(clause.iter().map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)));
        solver.add_clause(&buf);
    }
    let refuted = !solver.solve().map_err(|e| format!("varisat: {e}"))?;
    solver.close_proof().map_err(|e| format!("varisat: {e}"))?;
    if refuted {
        return Ok(super::Proved::Refuted);
    }
    let lits = solver.model().expect("a model after a satisfiable call");
    Ok(super::Proved::Model(Model::from_lits(cnf.num_vars, lits.into_iter().filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32)))))
}
