//! SAT solver backends behind the `encodings::solver::Solver` trait, and the choice among
//! them that `--solver` / `--solver-cmd` make.

#[cfg(feature = "cadical")]
pub mod cadical;
pub mod command;
pub mod varisat;

use encodings::cnf::{ClauseSink, Limited, Lit, Model, MAX_LITERALS};
use encodings::puzzle::Task;
use encodings::solver::{NewSolver, SolveResult, Solver, SolverError, SolverStats, Stop};
use encodings::team::Team;
use std::sync::Arc;

const NO_PROOFS: &str = "--solver-cmd writes no proofs: certify with an embedded backend (the default portfolio, --solver varisat or --solver cadical)";

pub use encodings::certificate::prove::Proved;

pub use encodings::format::verdict::Trust;

/// A backend as chosen on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The embedded backends racing on the cores (the default): each runs the whole search,
    /// the first definite answer wins and the others are stopped (`runner`). The first member
    /// is the one that runs alone on one thread.
    Portfolio(Vec<Backend>),
    /// varisat, embedded (pure Rust).
    Varisat,
    /// CaDiCaL, embedded (vendored C++): interruptible, and much faster on large boards.
    #[cfg(feature = "cadical")]
    Cadical,
    /// Any external solver reading DIMACS, run once per call.
    Command(String),
}

/// The built-in backends `--solver` takes: name and one line about each.
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "portfolio",
        "the embedded backends below racing, one per thread (--threads); the default",
    ),
    #[cfg(feature = "cadical")]
    (
        "cadical",
        "embedded CaDiCaL 1.9.5 (C++, the `cadical` cargo feature, on by default)",
    ),
    ("varisat", "embedded CDCL solver in pure Rust"),
];

impl Default for Backend {
    fn default() -> Backend {
        Backend::portfolio(usize::MAX)
    }
}

impl Backend {
    /// The default: every embedded backend, at most `threads` of them, CaDiCaL first where it
    /// is built (it alone runs on one thread: faster than varisat on most hard boards).
    pub fn portfolio(threads: usize) -> Backend {
        let mut members = vec![
            #[cfg(feature = "cadical")]
            Backend::Cadical,
            Backend::Varisat,
        ];
        members.truncate(threads.max(1));
        Backend::Portfolio(members)
    }

    /// The portfolio a search of `task` races, as many members as this one: an optimisation
    /// makes many short incremental calls (one per bound), where each CaDiCaL call pays a fixed
    /// cost that varisat's does not (Kakkuro: varisat 1.3–2.8× faster, docs/performance.md),
    /// so varisat goes first there: alone on one thread, and first in `run`'s stagger. Any other
    /// backend is itself.
    pub fn for_task(&self, task: Task) -> Backend {
        match self {
            Backend::Portfolio(members) if task == Task::Maximize => {
                let mut first = vec![Backend::Varisat];
                first.extend(
                    Backend::portfolio(usize::MAX)
                        .members()
                        .iter()
                        .filter(|b| **b != Backend::Varisat)
                        .cloned(),
                );
                first.truncate(members.len().max(1));
                Backend::Portfolio(first)
            }
            one => one.clone(),
        }
    }

    /// A built-in backend by its `--solver` name.
    pub fn by_name(name: &str) -> Option<Backend> {
        match name {
            "portfolio" => Some(Backend::default()),
            "varisat" => Some(Backend::Varisat),
            #[cfg(feature = "cadical")]
            "cadical" => Some(Backend::Cadical),
            _ => None,
        }
    }

    /// The backends that race: the members of a portfolio, or this one alone.
    pub fn members(&self) -> &[Backend] {
        match self {
            Backend::Portfolio(members) => members,
            one => std::slice::from_ref(one),
        }
    }

    /// The backend that works where one must (a generator, a certificate's lemmas): a
    /// portfolio's first member.
    pub fn lead(&self) -> &Backend {
        self.members().first().unwrap_or(&Backend::Varisat)
    }

    pub fn name(&self) -> &'static str {
        match self {
            Backend::Portfolio(_) => "portfolio",
            Backend::Varisat => "varisat",
            #[cfg(feature = "cadical")]
            Backend::Cadical => "cadical",
            Backend::Command(_) => "command",
        }
    }

    /// How far its UNSAT answers are checked.
    pub fn trust(&self) -> Trust {
        match self {
            Backend::Command(cmd) if command::checks_proofs(cmd) => Trust::Checked,
            Backend::Command(_) => Trust::Unchecked,
            _ => Trust::Embedded,
        }
    }

    /// Checks what can be checked before any work (an external command's syntax).
    pub fn validate(&self) -> Result<(), String> {
        match self {
            Backend::Command(cmd) => command::Command::new(cmd, Stop::new()).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// Solves `cnf` afresh writing a DRAT proof to `proof`: refuted, or a model.
    pub fn prove(
        &self,
        cnf: &encodings::cnf::Cnf,
        proof: &std::path::Path,
    ) -> Result<Proved, String> {
        match self {
            Backend::Portfolio(_) => self.lead().prove(cnf, proof),
            Backend::Varisat => varisat::prove(cnf, proof),
            #[cfg(feature = "cadical")]
            Backend::Cadical => cadical::prove(cnf, proof),
            Backend::Command(_) => Err(NO_PROOFS.into()),
        }
    }

    /// An incremental solver that writes a DRAT proof to `proof` of all it learns, clauses
    /// added between calls included, complete once it is dropped; `None` for a backend that
    /// can only [`prove`](Backend::prove) a formula afresh (varisat writes DRAT only for a
    /// formula given whole before its first call).
    #[cfg_attr(
        not(feature = "cadical"),
        allow(unused_variables, clippy::only_used_in_recursion)
    )]
    pub fn proving_solver(
        &self,
        proof: &std::path::Path,
        stop: Stop,
    ) -> Result<Option<Box<dyn Solver>>, String> {
        match self {
            Backend::Portfolio(_) => self.lead().proving_solver(proof, stop),
            Backend::Varisat => Ok(None),
            #[cfg(feature = "cadical")]
            Backend::Cadical => Ok(Some(Box::new(Limited::new(
                cadical::Cadical::proving(stop, proof)?,
                MAX_LITERALS,
            )))),
            Backend::Command(_) => Err(NO_PROOFS.into()),
        }
    }

    /// Makes the solvers of one run, all sharing `stop` (a portfolio's: its first member's;
    /// the race is run by `runner`, one member per thread).
    pub fn solvers(&self, stop: Stop) -> Solvers {
        Solvers {
            backend: self.lead().clone(),
            stop,
            max_literals: MAX_LITERALS,
            member: 0,
            team: None,
        }
    }
}

/// [`NewSolver`] for one run of one backend.
pub struct Solvers {
    backend: Backend,
    stop: Stop,
    /// Each solver refuses a formula past this many literals (bounded memory).
    max_literals: u64,
    /// Its place in a race ([`NewSolver::member`]).
    member: usize,
    /// The race's board where its members compute one backbone ([`NewSolver::team`]).
    team: Option<Arc<Team>>,
}

impl NewSolver for Solvers {
    fn new_solver(&self) -> Box<dyn Solver> {
        Box::new(Limited::new(self.unlimited(), self.max_literals))
    }

    fn in_process(&self) -> bool {
        !matches!(self.backend, Backend::Command(_))
    }

    fn stop(&self) -> &Stop {
        &self.stop
    }

    fn member(&self) -> usize {
        self.member
    }

    fn team(&self) -> Option<&Team> {
        self.team.as_deref()
    }
}

impl Solvers {
    /// The solvers of member `k` of a race.
    pub fn in_race(self, k: usize) -> Solvers {
        Solvers { member: k, ..self }
    }

    /// The solvers of a member that shares its backbone's progress on `team`.
    pub fn on_team(self, team: Arc<Team>) -> Solvers {
        Solvers {
            team: Some(team),
            ..self
        }
    }

    fn unlimited(&self) -> Box<dyn Solver> {
        match &self.backend {
            Backend::Portfolio(_) => unreachable!("a portfolio's solvers are its first member's"),
            Backend::Varisat => Box::new(varisat::Varisat::new(self.stop.clone())),
            #[cfg(feature = "cadical")]
            Backend::Cadical => Box::new(cadical::Cadical::new(self.stop.clone())),
            // The driver validates the command first; a library caller that did not gets the
            // error at the first call instead of a panic here.
            Backend::Command(cmd) => match command::Command::new(cmd, self.stop.clone()) {
                Ok(command) => Box::new(command),
                Err(e) => Box::new(Unusable { error: e, vars: 0 }),
            },
        }
    }
}

/// A backend that could not be made: every call is its error.
struct Unusable {
    error: String,
    vars: u32,
}

impl ClauseSink for Unusable {
    fn new_var(&mut self) -> Lit {
        self.vars += 1;
        Lit::positive(self.vars)
    }

    fn add_clause(&mut self, _: &[Lit]) {}
}

impl Solver for Unusable {
    fn backend(&self) -> &'static str {
        "command"
    }

    fn solve_with(&mut self, _: &[Lit]) -> Result<SolveResult, SolverError> {
        Err(SolverError(self.error.clone()))
    }

    fn model(&self) -> Model {
        unreachable!("no call of this backend ever succeeds")
    }

    fn failed_core(&self) -> Vec<Lit> {
        Vec::new()
    }

    fn stats(&self) -> SolverStats {
        SolverStats {
            vars: self.vars,
            ..SolverStats::default()
        }
    }

    fn interruptible(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An optimisation's race starts with varisat, as many members as asked; anything else
    /// races as it was given, and a pinned backend stays itself.
    #[test]
    fn an_optimisation_races_varisat_first() {
        for threads in 1..=3 {
            let p = Backend::portfolio(threads);
            let best = p.for_task(Task::Maximize);
            assert_eq!(best.members().len(), p.members().len());
            assert_eq!(best.lead(), &Backend::Varisat);
            let mut a = best.members().to_vec();
            let mut b = Backend::portfolio(usize::MAX).members().to_vec();
            a.sort_by_key(|m| m.name());
            b.sort_by_key(|m| m.name());
            b.truncate(a.len().max(1));
            assert!(a.iter().all(|m| b.contains(m) || threads == 1), "{a:?}");
            assert_eq!(p.for_task(Task::Enumerate), p);
        }
        assert_eq!(Backend::Varisat.for_task(Task::Maximize), Backend::Varisat);
    }

    #[test]
    fn a_formula_past_the_literal_limit_is_refused_not_solved() {
        let solvers = Solvers {
            backend: Backend::Varisat,
            stop: Stop::new(),
            max_literals: 10,
            member: 0,
            team: None,
        };
        let mut s = solvers.new_solver();
        let x: Vec<Lit> = (0..4).map(|_| s.new_var()).collect();
        s.add_clause(&x);
        s.add_clause(&x);
        assert_eq!(s.solve().unwrap(), SolveResult::Sat, "8 literals fit");
        s.add_clause(&[!x[0], !x[1], !x[2]]);
        // Added after the first solve: the search's clauses, said so.
        let e = s.solve().unwrap_err();
        assert!(e.0.contains("the clauses the search added"), "{}", e.0);
        let mut s = solvers.new_solver();
        let x: Vec<Lit> = (0..6).map(|_| s.new_var()).collect();
        s.add_clause(&x);
        s.add_clause(&x);
        let e = s.solve().unwrap_err();
        assert!(e.0.contains("the puzzle is too large"), "{}", e.0);
    }

    #[test]
    fn an_unvalidated_bad_command_is_an_error_not_a_panic() {
        let solvers = Backend::Command("  ".into()).solvers(Stop::new());
        let mut solver = solvers.new_solver();
        let x = solver.new_var();
        solver.add_clause(&[x]);
        let e = solver.solve().unwrap_err();
        assert!(e.0.contains("empty"), "{e}");
        assert!(Backend::Command("  ".into()).validate().is_err());
        assert!(Backend::Command("cadical --quiet".into())
            .validate()
            .is_ok());
    }

    /// Solving apart gives what one solver gives: the same verdicts, models that satisfy every
    /// clause, cores that are contradictory, also after clauses that merge parts.
    #[test]
    fn a_formula_solved_in_parts_answers_as_one_solver() {
        use encodings::search::parts::Parts;
        let mut seed = 5u64;
        let mut below = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut sat, mut unsat, mut split) = (0, 0, 0);
        let backends = [Some(Backend::Varisat), {
            #[cfg(feature = "cadical")]
            let cadical = Some(Backend::Cadical);
            #[cfg(not(feature = "cadical"))]
            let cadical = None;
            cadical
        }];
        let backends: Vec<Backend> = backends.into_iter().flatten().collect();
        // 80 rounds in all, however many backends are built in.
        let rounds = 80 / backends.len();
        for backend in backends {
            let solvers = backend.solvers(Stop::new());
            for round in 0..rounds {
                // Pieces of random 3-SAT on 8 variables each, near the threshold.
                let pieces = 2 + below(12) as u32;
                let mut clauses: Vec<Vec<Lit>> = Vec::new();
                for p in 0..pieces {
                    for _ in 0..18 + below(10) {
                        clauses.push(
                            (0..3)
                                .map(|_| {
                                    let v = Lit::positive(1 + p * 8 + below(8) as u32);
                                    if below(2) == 0 {
                                        v
                                    } else {
                                        !v
                                    }
                                })
                                .collect(),
                        );
                    }
                }
                let vars = pieces * 8;
                let mut parts = Parts::with_part_literals(&solvers, 1 + below(200) as usize);
                let mut one = solvers.new_solver();
                for _ in 0..vars {
                    parts.new_var();
                    one.new_var();
                }
                let holds = |model: &encodings::cnf::Model, clauses: &[Vec<Lit>]| {
                    clauses.iter().all(|c| c.iter().any(|&l| model.value(l)))
                };
                for step in 0..4 {
                    for c in &clauses {
                        if step == 0 {
                            parts.add_clause(c);
                            one.add_clause(c);
                        }
                    }
                    let assumptions: Vec<Lit> = (0..below(4))
                        .map(|_| {
                            let v = Lit::positive(1 + below(vars as u64) as u32);
                            if below(2) == 0 {
                                v
                            } else {
                                !v
                            }
                        })
                        .collect();
                    let (a, b) = (
                        parts.solve_with(&assumptions).unwrap(),
                        one.solve_with(&assumptions).unwrap(),
                    );
                    assert_eq!(a, b, "{} round {round} step {step}", backend.name());
                    if step == 0 && parts.count() > 1 {
                        split += 1;
                    }
                    if a == SolveResult::Sat {
                        sat += 1;
                        let model = parts.model();
                        assert!(holds(&model, &clauses), "round {round} step {step}");
                        assert!(assumptions.iter().all(|&l| model.value(l)));
                        // Block this model over a few variables of different pieces: merges them.
                        let block: Vec<Lit> = (0..3)
                            .map(|_| {
                                let v = Lit::positive(1 + below(vars as u64) as u32);
                                if model.value(v) {
                                    !v
                                } else {
                                    v
                                }
                            })
                            .collect();
                        parts.add_clause(&block);
                        one.add_clause(&block);
                        clauses.push(block);
                    } else {
                        unsat += 1;
                        let core = parts.failed_core();
                        assert!(core.iter().all(|l| assumptions.contains(l)));
                        assert_eq!(
                            one.solve_with(&core).unwrap(),
                            SolveResult::Unsat,
                            "the core alone is contradictory"
                        );
                    }
                }
            }
        }
        assert!(
            sat > 40 && unsat > 40 && split > 40,
            "{sat} SAT, {unsat} UNSAT, {split} split: the test shows little"
        );
    }

    /// A time limit that passes while the first call gives a large formula's clauses to its
    /// parts ends that call: the loading does not go on to the end.
    #[test]
    fn a_stop_cuts_the_loading_of_parts_short() {
        use encodings::search::parts::Parts;
        for (raised, part_literals) in [(false, 1 << 18), (true, 1 << 18), (true, 64)] {
            let stop = Stop::new();
            let solvers = Backend::Varisat.solvers(stop.clone());
            let mut parts = Parts::with_part_literals(&solvers, part_literals);
            // 40,000 independent implications x_i -> y_i: satisfiable, many parts when small.
            let lits: Vec<Lit> = (0..80_000).map(|_| parts.new_var()).collect();
            for pair in lits.chunks(2) {
                parts.add_clause(&[!pair[0], pair[1]]);
            }
            if raised {
                stop.raise();
                assert_eq!(parts.solve().unwrap(), SolveResult::Interrupted);
                assert!(
                    parts.placed_clauses() < 40_000,
                    "{} clauses loaded after the stop",
                    parts.placed_clauses()
                );
                // Still only interrupted, clauses added or not.
                parts.add_clause(&[lits[0]]);
                assert_eq!(parts.solve().unwrap(), SolveResult::Interrupted);
            } else {
                assert_eq!(parts.solve().unwrap(), SolveResult::Sat);
                assert_eq!(parts.placed_clauses(), 40_000);
            }
        }
    }
}
