//! The embedded CDCL solver CaDiCaL (C++, vendored and compiled by the `cadical` crate). Unlike
//! varisat it polls the run's [`Stop`] from inside a call, so a time limit ends a hard call.
//! The crate exposes no conflict or decision counts, so those stats stay `None`.

use encodings::cnf::{ClauseSink, Lit, Model};
use encodings::solver::{SolveResult, Solver, SolverError, SolverStats, Stop};

/// CaDiCaL's terminate callback: it asks this often during search and inprocessing.
struct StopCallback(Stop);

impl cadical::Callbacks for StopCallback {
    fn terminate(&mut self) -> bool {
        self.0.is_raised()
    }
}

pub struct Cadical {
    solver: cadical::Solver<StopCallback>,
    stop: Stop,
    stats: SolverStats,
    /// The last call's assumptions: CaDiCaL answers `failed` one literal at a time.
    assumptions: Vec<i32>,
}

impl Cadical {
    pub fn new(stop: Stop) -> Self {
        // "plain" turns off CaDiCaL's preprocessing, which our searches pay for again on every
        // one of their many incremental calls: measured 20% less CPU on Kakkuro proofs, 10% on
        // the Tatamibari generator, 5% on single 100×100 and 200×200 solves.
        let mut solver = cadical::Solver::with_config("plain").expect("a configuration CaDiCaL has");
        solver.set_callbacks(Some(StopCallback(stop.clone())));
        Cadical { solver, stop, stats: SolverStats::default(), assumptions: Vec::new() }
    }
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new(Stop::new())
    }
}

impl ClauseSink for Cadical {
    fn new_var(&mut self) -> Lit {
        self.stats.vars += 1;
        Lit::positive(self.stats.vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.stats.clauses += 1;
        self.solver.add_clause(lits.iter().map(|l| l.dimacs()));
    }
}

impl Solver for Cadical {
    fn backend(&self) -> &'static str {
        "cadical"
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        if self.stop.is_raised() {
            return Ok(SolveResult::Interrupted);
        }
        self.stats.calls += 1;
        self.assumptions.clear();
        self.assumptions.extend(assumptions.iter().map(|l| l.dimacs()));
        match self.solver.solve_with(self.assumptions.iter().copied()) {
            Some(true) => Ok(SolveResult::Sat),
            Some(false) => Ok(SolveResult::Unsat),
            // No limits are set, so the terminate callback is the only way to get no answer.
            None if self.stop.is_raised() => Ok(SolveResult::Interrupted),
            None => Err(SolverError("cadical: gave no answer without being stopped".into())),
        }
    }

    fn model(&self) -> Model {
        assert_eq!(self.solver.status(), Some(true), "model asked for after a call that was not satisfiable");
        // Variables CaDiCaL never saw in a clause read as false, which is what `Model` assumes.
        let lits = (1..=self.stats.vars).map(|v| {
            let lit = Lit::positive(v);
            if self.solver.value(lit.dimacs()) == Some(true) {
                lit
            } else {
                !lit
            }
        });
        Model::from_lits(self.stats.vars, lits)
    }

    fn failed_core(&self) -> Vec<Lit> {
        // Asking `failed` in any other state aborts the process inside CaDiCaL.
        if self.solver.status() != Some(false) {
            return Vec::new();
        }
        self.assumptions.iter().filter(|&&l| self.solver.failed(l)).filter_map(|&l| Lit::from_dimacs(l)).collect()
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }

    fn interruptible(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encodings::cnf::Cnf;
    use std::thread;
    use std::time::{Duration, Instant};

    /// `pigeons` pigeons into `holes` holes: satisfiable iff `pigeons <= holes`, and
    /// exponentially hard for CDCL when there is one pigeon too many.
    fn pigeonhole(sink: &mut impl ClauseSink, pigeons: u32, holes: u32) {
        let p: Vec<Vec<Lit>> = (0..pigeons).map(|_| (0..holes).map(|_| sink.new_var()).collect()).collect();
        for row in &p {
            sink.add_clause(row);
        }
        // No two pigeons share a hole.
        for (a, pa) in p.iter().enumerate() {
            for pb in &p[a + 1..] {
                for (&x, &y) in pa.iter().zip(pb) {
                    sink.add_clause(&[!x, !y]);
                }
            }
        }
    }

    fn load(cnf: &Cnf) -> Cadical {
        let mut s = Cadical::default();
        for _ in 0..cnf.num_vars {
            s.new_var();
        }
        for c in &cnf.clauses {
            s.add_clause(c);
        }
        s
    }

    #[test]
    fn satisfiable_formula_gives_a_model_of_every_clause() {
        let mut cnf = Cnf::new();
        pigeonhole(&mut cnf, 8, 8);
        // An extra variable in no clause must still be in the model.
        cnf.new_var();
        let mut s = load(&cnf);
        assert_eq!(s.solve(), Ok(SolveResult::Sat));
        let m = s.model();
        for c in &cnf.clauses {
            assert!(c.iter().any(|&l| m.value(l)), "clause {c:?} falsified");
        }
        assert!(!m.value(Lit::positive(cnf.num_vars)));
        let st = s.stats();
        assert_eq!((st.calls, st.vars, st.clauses), (1, cnf.num_vars, cnf.clauses.len() as u64));
        assert_eq!((st.conflicts, st.decisions), (None, None));
        assert_eq!(s.backend(), "cadical");
        assert!(s.interruptible());
    }

    #[test]
    fn unsatisfiable_formula_is_unsat() {
        let mut s = Cadical::default();
        pigeonhole(&mut s, 5, 4);
        assert_eq!(s.solve(), Ok(SolveResult::Unsat));
        // The clauses alone are contradictory: the core is empty.
        assert_eq!(s.failed_core(), vec![]);
    }

    #[test]
    fn clauses_added_after_a_solve_count_in_the_next() {
        let mut s = Cadical::default();
        let (a, b) = (s.new_var(), s.new_var());
        s.add_clause(&[a, b]);
        assert_eq!(s.solve(), Ok(SolveResult::Sat));
        s.add_clause(&[!a]);
        assert_eq!(s.solve(), Ok(SolveResult::Sat));
        let m = s.model();
        assert!(!m.value(a) && m.value(b));
        s.add_clause(&[!b]);
        assert_eq!(s.solve(), Ok(SolveResult::Unsat));
        assert_eq!(s.stats().calls, 3);
    }

    #[test]
    fn assumptions_hold_for_one_call_and_the_core_is_a_contradictory_subset() {
        let mut s = Cadical::default();
        let x: Vec<Lit> = (0..5).map(|_| s.new_var()).collect();
        // x0 → x1 → x2; x3 and x4 are free, and only tied to each other.
        s.add_clause(&[!x[0], x[1]]);
        s.add_clause(&[!x[1], x[2]]);
        s.add_clause(&[x[3], x[4]]);
        let assumptions = [x[3], x[0], x[4], !x[2]];
        assert_eq!(s.solve_with(&assumptions), Ok(SolveResult::Unsat));
        let core = s.failed_core();
        assert!(core.iter().all(|l| assumptions.contains(l)), "core {core:?} not within the assumptions");
        assert!(!core.contains(&x[3]) && !core.contains(&x[4]), "core {core:?} has unrelated assumptions");
        assert_eq!(s.solve_with(&core), Ok(SolveResult::Unsat));
        // The assumptions are gone: the clauses alone are satisfiable.
        assert_eq!(s.solve(), Ok(SolveResult::Sat));
        assert_eq!(s.failed_core(), vec![]);
        assert_eq!(s.solve_with(&[x[0]]), Ok(SolveResult::Sat));
        assert!(s.model().value(x[2]));
    }

    #[test]
    fn raising_the_stop_interrupts_a_running_call() {
        let stop = Stop::new();
        let in_thread = stop.clone();
        let solving = thread::spawn(move || {
            let mut s = Cadical::new(in_thread);
            pigeonhole(&mut s, 11, 10);
            let result = s.solve();
            (result, Instant::now(), s.stats().calls)
        });
        thread::sleep(Duration::from_millis(200));
        let raised = Instant::now();
        stop.raise();
        let (result, returned, calls) = solving.join().unwrap();
        assert_eq!(result, Ok(SolveResult::Interrupted));
        assert_eq!(calls, 1);
        let late = returned.saturating_duration_since(raised);
        assert!(late < Duration::from_secs(1), "returned {late:?} after the stop was raised");
    }

    #[test]
    fn a_stop_raised_before_the_call_interrupts_it_at_once() {
        let stop = Stop::new();
        let mut s = Cadical::new(stop.clone());
        pigeonhole(&mut s, 11, 10);
        stop.raise();
        let start = Instant::now();
        assert_eq!(s.solve(), Ok(SolveResult::Interrupted));
        assert!(start.elapsed() < Duration::from_millis(50));
        assert_eq!(s.stats().calls, 0);
    }
}
