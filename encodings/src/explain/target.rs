//! What an explanation aims at: the facts of an answer found by the genre's own search (all of
//! them when it is the only answer; otherwise what every solution shares), read off the answer
//! through the named rules, and the check that the steps end in that answer. The command line
//! and the web page share it.

use super::{propagate::Propagator, Explanation, Named};
use crate::cnf::{Cnf, Lit, Model};
use crate::genre::Genre;
use crate::solver::{NewSolver, SolveResult, Solver, SolverError};
use std::collections::HashSet;

/// The facts the steps must establish, given `answer` (which the validator accepted) and
/// whether the genre's search proved it the only one. `None` when the run's stop flag ended
/// the backbone search first; an error when the named rules disagree with the answer (a bug
/// in the genre).
pub fn target<P: Genre>(
    inst: &P::Instance,
    named: &Named<P::Encoding>,
    answer: &P::Answer,
    unique: bool,
    solvers: &dyn NewSolver,
) -> Result<Option<Vec<Lit>>, SolverError> {
    // The rules and the givens: the solver that reads the answer's facts, and the backbone's
    // spare.
    let holding = || -> Box<dyn Solver> {
        let mut solver = solvers.new_solver();
        for v in 1..=named.rules.num_vars {
            assert_eq!(
                solver.new_var(),
                Lit::positive(v),
                "a fresh solver numbers from 1"
            );
        }
        named.rules.all().for_each(|(_, c)| solver.add_clause(c));
        named.known.iter().for_each(|&k| solver.add_clause(&[k]));
        solver
    };
    let mut solver = holding();
    // The answer's literals: what the clause blocking exactly it denies.
    let mut block = Cnf::new();
    block.num_vars = named.rules.num_vars;
    P::block(
        inst,
        &named.encoding,
        &mut block,
        std::slice::from_ref(answer),
    );
    let fixed: Vec<Lit> = block.clauses.iter().flatten().map(|&l| !l).collect();
    // Propagation reads the facts off the answer's literals (the digits placed decide the
    // digits ruled out); a solver only where it leaves some open. The eager connectivity of
    // a large board takes a solver seconds even with every cell fixed.
    let everything: Vec<usize> = (0..named.rules.len()).collect();
    let mut reader = Propagator::new(&named.rules, &everything);
    let mut base = named.known.clone();
    base.extend(&fixed);
    let read = reader.set_base(&base);
    let values: Option<Vec<Lit>> = named
        .facts
        .iter()
        .map(|f| reader.value(f.lit).map(|v| if v { f.lit } else { !f.lit }))
        .collect();
    let model = match values.filter(|_| read) {
        Some(values) => Model::from_lits(named.rules.num_vars, values),
        None => match solver.solve_with(&fixed)? {
            SolveResult::Sat => solver.model(),
            SolveResult::Interrupted => return Ok(None),
            SolveResult::Unsat => {
                return Err(SolverError(format!(
                    "internal error: the named rules of {} refuse an answer the validator \
                     accepts",
                    P::INFO.name
                )))
            }
        },
    };
    if P::decode(inst, &named.encoding, &model) != *answer {
        return Err(SolverError(format!(
            "internal error: the named rules of {} read the answer back differently",
            P::INFO.name
        )));
    }
    let given: HashSet<u32> = named.known.iter().map(|l| l.var()).collect();
    let candidates: Vec<Lit> = named
        .facts
        .iter()
        .filter(|f| !given.contains(&f.lit.var()))
        .map(|f| if model.value(f.lit) { f.lit } else { !f.lit })
        .collect();
    // One answer, and the search proved there is no other: every fact is shared. Otherwise
    // what every solution shares is found on the named rules.
    if unique {
        return Ok(Some(candidates));
    }
    crate::search::backbone(&mut *solver, &holding, candidates)
}

/// Whether the facts the givens and the steps establish, read back as an answer, pass the
/// validator and are `answer`: checked before a unique solution's explanation is shown.
pub fn ends_in<P: Genre>(
    inst: &P::Instance,
    named: &Named<P::Encoding>,
    explanation: &Explanation,
    answer: &P::Answer,
) -> bool {
    let mut established: Vec<Lit> = named.known.clone();
    established.extend(
        explanation
            .steps
            .iter()
            .flat_map(|s| s.deduces.iter().copied()),
    );
    let end = P::decode(
        inst,
        &named.encoding,
        &Model::from_lits(named.rules.num_vars, established),
    );
    P::check(inst, &end).is_ok() && end == *answer
}
