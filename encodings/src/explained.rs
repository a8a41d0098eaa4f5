//! What an explanation aims at: the facts of an answer found by the genre's own search (all of
//! them when it is the only answer; otherwise what every solution shares), read off the answer
//! through the named rules, and the check that the steps end in that answer. The command line
//! and the web page share it.

use crate::cnf::{Lit, Model};
use crate::explain::{Explanation, Named};
use crate::genre::Genre;
use crate::solver::{NewSolver, SolverError};

/// The facts the steps must establish, given `answer` (which the validator accepted) and
/// whether the genre's search proved it the only one. `None` when the run's stop flag was
/// raised first (loading the rules into a solver, or the backbone search); an error when the named rules disagree with the answer (a bug
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
    let holding = || crate::explain::holding(named, solvers);
    let mut solver = holding();
    // Loading a large board's rules takes seconds, and reading the answer off them more.
    if solvers.stop().is_raised() {
        return Ok(None);
    }
    let fixed =
        crate::puzzle::answer_lits::<P>(inst, &named.encoding, named.rules.num_vars, answer);
    let Some(model) = crate::explain::answer_model(named, &fixed, &mut *solver)? else {
        return Err(SolverError(format!(
            "internal error: the named rules of {} refuse an answer the validator accepts",
            P::INFO.name
        )));
    };
    if P::decode(inst, &named.encoding, &model) != *answer {
        return Err(SolverError(format!(
            "internal error: the named rules of {} read the answer back differently",
            P::INFO.name
        )));
    }
    let candidates = crate::explain::open_facts(named, &model);
    // One answer, and the search proved there is no other: every fact is shared. Otherwise
    // what every solution shares is found on the named rules.
    if unique {
        return Ok(Some(candidates));
    }
    crate::search::backbone(&mut *solver, &holding, None, candidates)
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
