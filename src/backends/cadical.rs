//! The embedded CDCL solver CaDiCaL (C++, vendored and compiled by the `cadical` crate), driven
//! through CaDiCaL's own C API (IPASIR plus options), which the crate links but only partly
//! wraps: we need `set_option`. Unlike varisat it polls the run's [`Stop`] from inside a call,
//! so a time limit ends a hard call. CaDiCaL's C API has no conflict or decision counters, so
//! those stats stay `None`.

use encodings::cnf::{ClauseSink, Lit, Model};
use encodings::solver::{SolveResult, Solver, SolverError, SolverStats, Stop};
use std::ffi::{c_char, c_int, c_void, CString};

// The crate builds and links the C++ sources; these are CaDiCaL's `ccadical.h`.
extern crate cadical as _;

#[repr(C)]
struct CCaDiCaL {
    _private: [u8; 0],
}

extern "C" {
    fn ccadical_init() -> *mut CCaDiCaL;
    fn ccadical_release(s: *mut CCaDiCaL);
    fn ccadical_add(s: *mut CCaDiCaL, lit: c_int);
    fn ccadical_assume(s: *mut CCaDiCaL, lit: c_int);
    fn ccadical_solve(s: *mut CCaDiCaL) -> c_int;
    fn ccadical_val(s: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_failed(s: *mut CCaDiCaL, lit: c_int) -> c_int;
    fn ccadical_set_terminate(
        s: *mut CCaDiCaL,
        state: *mut c_void,
        terminate: Option<extern "C" fn(*mut c_void) -> c_int>,
    );
    fn ccadical_set_option(s: *mut CCaDiCaL, name: *const c_char, val: c_int);
    fn ccadical_limit(s: *mut CCaDiCaL, name: *const c_char, limit: c_int);
    fn ccadical_configure(s: *mut CCaDiCaL, name: *const c_char) -> c_int;
    fn ccadical_vars(s: *mut CCaDiCaL) -> c_int;
    fn ccadical_trace_proof(s: *mut CCaDiCaL, file: *mut libc::FILE, name: *const c_char) -> c_int;
    fn ccadical_close_proof(s: *mut CCaDiCaL);
}

/// CaDiCaL's terminate callback: it asks this often during search and inprocessing.
extern "C" fn terminate(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the `Stop` boxed in the `Cadical` that registered this callback, and
    // CaDiCaL only calls it during that solver's calls.
    let stop = unsafe { &*(state as *const Stop) };
    c_int::from(stop.is_raised())
}

/// What the last call answered (CaDiCaL aborts the process when asked for a model or a failed
/// literal in the wrong state, so we keep track ourselves).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    None,
    Sat,
    Unsat,
}

pub struct Cadical {
    ptr: *mut CCaDiCaL,
    /// Boxed so the callback's pointer to it stays put.
    stop: Box<Stop>,
    stats: SolverStats,
    last: Last,
    /// The last call's assumptions: CaDiCaL answers `failed` one literal at a time.
    assumptions: Vec<c_int>,
    /// The file a DRAT proof goes to (null when none), closed with the solver.
    proof: *mut libc::FILE,
}

impl Cadical {
    pub fn new(stop: Stop) -> Self {
        let mut solver = Cadical::with_defaults(stop);
        solver.configure();
        solver
    }

    /// A solver in CaDiCaL's own default configuration.
    fn with_defaults(stop: Stop) -> Self {
        // SAFETY: a fresh solver; the stop box lives as long as the solver (released in drop).
        unsafe {
            let ptr = ccadical_init();
            assert!(!ptr.is_null(), "CaDiCaL could not be made");
            let mut stop = Box::new(stop);
            ccadical_set_terminate(ptr, &mut *stop as *mut Stop as *mut c_void, Some(terminate));
            Cadical {
                ptr,
                stop,
                stats: SolverStats::default(),
                last: Last::None,
                assumptions: Vec::new(),
                proof: std::ptr::null_mut(),
            }
        }
    }

    /// A solver that writes a text DRAT proof of everything it learns to `proof`, clauses added
    /// between calls included; the proof is complete once the solver is dropped.
    pub fn proving(stop: Stop, proof: &std::path::Path) -> Result<Self, String> {
        Cadical::new(stop).traced(proof)
    }

    /// This solver, still without clauses, tracing its proof into `proof`.
    fn traced(mut self, proof: &std::path::Path) -> Result<Self, String> {
        let (file, name) = open_proof(proof)?;
        let binary = CString::new("binary").expect("no NUL");
        // SAFETY: a live solver still in its configuration state (no clause yet); the file
        // stays open until the solver is dropped.
        let traced = unsafe {
            ccadical_set_option(self.ptr, binary.as_ptr(), 0);
            self.proof = file;
            ccadical_trace_proof(self.ptr, file, name.as_ptr())
        };
        if traced == 0 {
            return Err("CaDiCaL would not write a proof".into());
        }
        Ok(self)
    }

    /// "plain" turns off CaDiCaL's preprocessing, and `lucky`, `rephase` and `walk` its
    /// phase-guessing passes: our searches make many incremental calls and would pay for them
    /// on every one. Measured (CPU, against the default configuration): about 20% less on
    /// Kakkuro proofs, 30% less on `generate --unique` 100×100, 13% and 37% less on single
    /// 100×100 and 200×200 Tatamibari solves. `phase` 0 starts every variable false, as
    /// varisat does: on a large sparse board most cells are empty, and CaDiCaL's default
    /// (true) did not find a loop in an empty 200×200 Masyu in 340 s where this takes 0.35 s;
    /// paired on 26 boards of eight genres, wall 0.92× in geometric mean (0.38× to 1.34×).
    fn configure(&mut self) {
        let plain = CString::new("plain").expect("no NUL");
        // SAFETY: a live solver still in its configuration state, and C strings.
        unsafe {
            ccadical_configure(self.ptr, plain.as_ptr());
            for option in ["lucky", "rephase", "walk", "phase"] {
                let name = CString::new(option).expect("no NUL");
                ccadical_set_option(self.ptr, name.as_ptr(), 0);
            }
        }
    }
}

impl Drop for Cadical {
    fn drop(&mut self) {
        // SAFETY: released once; the stop box outlives it (fields drop after this); the proof
        // is finished before the solver goes and its file closed after.
        unsafe {
            if !self.proof.is_null() {
                ccadical_close_proof(self.ptr);
            }
            ccadical_release(self.ptr);
            if !self.proof.is_null() {
                libc::fclose(self.proof);
            }
        }
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
        self.last = Last::None;
        // SAFETY: a live solver; literals are non-zero, the final 0 ends the clause.
        unsafe {
            for l in lits {
                ccadical_add(self.ptr, l.dimacs());
            }
            ccadical_add(self.ptr, 0);
        }
    }
}

impl Solver for Cadical {
    fn backend(&self) -> &'static str {
        "cadical"
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
        assert!(
            self.last == Last::Sat,
            "model asked for after a call that was not satisfiable"
        );
        // SAFETY: a live solver in its satisfied state; only variables it knows are asked.
        let known = unsafe { ccadical_vars(self.ptr) }.max(0) as u32;
        // Variables CaDiCaL never saw in a clause read as false, which is what `Model` assumes.
        let lits = (1..=self.stats.vars.min(known)).map(|v| {
            let lit = Lit::positive(v);
            if unsafe { ccadical_val(self.ptr, lit.dimacs()) } > 0 {
                lit
            } else {
                !lit
            }
        });
        Model::from_lits(self.stats.vars, lits)
    }

    fn failed_core(&self) -> Vec<Lit> {
        // Asking `failed` in any other state aborts the process inside CaDiCaL.
        if self.last != Last::Unsat {
            return Vec::new();
        }
        // SAFETY: a live solver in its unsatisfied state, asked about this call's assumptions.
        self.assumptions
            .iter()
            .filter(|&&l| unsafe { ccadical_failed(self.ptr, l) } != 0)
            .filter_map(|&l| Lit::from_dimacs(l))
            .collect()
    }

    fn stats(&self) -> SolverStats {
        self.stats
    }

    fn interruptible(&self) -> bool {
        true
    }
}

impl Cadical {
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
        self.assumptions.clear();
        self.assumptions
            .extend(assumptions.iter().map(|l| l.dimacs()));
        // SAFETY: a live solver; assumptions and limits hold for this call only (IPASIR).
        let result = unsafe {
            if let Some(n) = conflicts {
                let name = CString::new("conflicts").expect("no NUL");
                ccadical_limit(self.ptr, name.as_ptr(), n.min(c_int::MAX as u64) as c_int);
            }
            for &a in &self.assumptions {
                ccadical_assume(self.ptr, a);
            }
            ccadical_solve(self.ptr)
        };
        self.last = match result {
            10 => Last::Sat,
            20 => Last::Unsat,
            _ => Last::None,
        };
        match result {
            10 => Ok(Some(SolveResult::Sat)),
            20 => Ok(Some(SolveResult::Unsat)),
            _ if self.stop.is_raised() => Ok(Some(SolveResult::Interrupted)),
            // Without a limit the terminate callback is the only way to get no answer.
            _ if conflicts.is_some() => Ok(None),
            r => Err(SolverError(format!(
                "cadical: answered {r} without being stopped"
            ))),
        }
    }
}

/// Solves `cnf` afresh with CaDiCaL's default configuration (one call from scratch, where its
/// preprocessing pays), writing a text DRAT proof to `proof`: refuted with the proof complete,
/// or a model.
pub fn prove(cnf: &encodings::cnf::Cnf, proof: &std::path::Path) -> Result<super::Proved, String> {
    let mut solver = Cadical::with_defaults(Stop::new()).traced(proof)?;
    for _ in 0..cnf.num_vars {
        solver.new_var();
    }
    for clause in &cnf.clauses {
        solver.add_clause(clause);
    }
    match solver.solve().map_err(|e| e.0)? {
        SolveResult::Unsat => Ok(super::Proved::Refuted),
        SolveResult::Sat => Ok(super::Proved::Model(solver.model())),
        SolveResult::Interrupted => Err("CaDiCaL gave no answer".into()),
    }
}

/// Opens `proof` for writing, as C wants it.
fn open_proof(proof: &std::path::Path) -> Result<(*mut libc::FILE, CString), String> {
    let name = CString::new(proof.as_os_str().as_encoded_bytes())
        .map_err(|_| "a proof path without NUL".to_string())?;
    let mode = CString::new("w").expect("no NUL");
    // SAFETY: C strings that outlive the call.
    let file = unsafe { libc::fopen(name.as_ptr(), mode.as_ptr()) };
    if file.is_null() {
        return Err(format!(
            "{}: cannot write: {}",
            proof.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok((file, name))
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
        let p: Vec<Vec<Lit>> = (0..pigeons)
            .map(|_| (0..holes).map(|_| sink.new_var()).collect())
            .collect();
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
        assert_eq!(
            (st.calls, st.vars, st.clauses),
            (1, cnf.num_vars, cnf.clauses.len() as u64)
        );
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
        assert!(
            core.iter().all(|l| assumptions.contains(l)),
            "core {core:?} not within the assumptions"
        );
        assert!(
            !core.contains(&x[3]) && !core.contains(&x[4]),
            "core {core:?} has unrelated assumptions"
        );
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
        assert!(
            late < Duration::from_secs(1),
            "returned {late:?} after the stop was raised"
        );
    }

    #[test]
    fn a_stop_raised_before_the_call_interrupts_it_at_once() {
        let stop = Stop::new();
        let mut s = Cadical::new(stop.clone());
        pigeonhole(&mut s, 11, 10);
        stop.raise();
        let start = Instant::now();
        assert_eq!(s.solve(), Ok(SolveResult::Interrupted));
        // Pigeonhole 11 into 10 takes CaDiCaL minutes; a second leaves room for a loaded machine.
        assert!(start.elapsed() < Duration::from_secs(1));
        assert_eq!(s.stats().calls, 0);
    }
}
