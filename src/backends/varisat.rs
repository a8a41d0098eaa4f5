//! The embedded varisat backend (the default: pure Rust, needs nothing but cargo), which lives
//! in the `varisat-backend` crate so that the web page runs the same one; here only its DRAT
//! proofs for certificates, which write files.

use encodings::cnf::{Cnf, Lit, Model};
use varisat::ExtendFormula;
pub use varisat_backend::Varisat;

/// Solves `cnf` afresh, writing a DRAT proof to `proof` (varisat takes proof output only before
/// any clause, and no clause or assumption after the first call): refuted with the proof
/// complete, or a model.
pub fn prove(cnf: &Cnf, proof: &std::path::Path) -> Result<super::Proved, String> {
    let file = std::fs::File::create(proof)
        .map_err(|e| format!("{}: cannot write: {e}", proof.display()))?;
    let mut solver = varisat::Solver::new();
    solver.write_proof(std::io::BufWriter::new(file), varisat::ProofFormat::Drat);
    let mut buf = Vec::new();
    for clause in &cnf.clauses {
        buf.clear();
        buf.extend(
            clause
                .iter()
                .map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize)),
        );
        solver.add_clause(&buf);
    }
    let refuted = !solver.solve().map_err(|e| format!("varisat: {e}"))?;
    solver.close_proof().map_err(|e| format!("varisat: {e}"))?;
    if refuted {
        return Ok(super::Proved::Refuted);
    }
    let lits = solver.model().expect("a model after a satisfiable call");
    Ok(super::Proved::Model(Model::from_lits(
        cnf.num_vars,
        lits.into_iter()
            .filter_map(|l| Lit::from_dimacs(l.to_dimacs() as i32)),
    )))
}
