//! Cube-and-conquer over a puzzle's own search: the formula the search first solves is split
//! into cubes ([`crate::cnf::cubes`]), and the search runs once per cube, on its own thread,
//! with the cube's literals added as unit clauses, as a job on another machine would.
//!
//! The cubes cover every model of that formula, so every answer lies in some cube: the best
//! of the cubes' proved optima is the optimum, and the cubes' answers together are all the
//! answers. A cube whose search was stopped proves nothing, and then neither does the whole.
//!
//! Only the search's first solver is confined to the cube (checked to hold, at its first
//! call, the very formula that was split); a solver it makes later searches more than its
//! cube, which costs time but claims nothing false: what it finds is still an answer, and
//! what it refutes it refutes everywhere.

use crate::cnf::cubes::split;
use crate::cnf::{ClauseSink, Cnf, Lit, Model, SizeCounter};
use crate::genre::Genre;
use crate::puzzle::{Ended, Goal, Observer};
use crate::solver::{NewSolver, SolveResult, Solver, SolverError, SolverStats, Stop};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How the cubes went: each cube's literals and the time its search took (`None`: stopped,
/// or never started).
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub cubes: Vec<Vec<Lit>>,
    pub times: Vec<Option<Duration>>,
    /// Finding the formula and splitting it.
    pub split: Duration,
}

impl Report {
    /// The finished cubes' summed time (their cost on one core) and the longest (the wall
    /// time with a machine per cube).
    pub fn sum_and_longest(&self) -> (Duration, Duration) {
        let done = self.times.iter().flatten();
        (done.clone().sum(), done.max().copied().unwrap_or_default())
    }
}

/// Runs `P::search` once per cube of its first formula, `n` cubes on `threads` threads, and
/// reports to `out` what one search over everything would: for a best answer each one better
/// than all before, for an enumeration each new answer. `known` are answers found before
/// (by a search over everything): not reported again, and the best of them is the cubes'
/// first floor (see [`crate::puzzle::Observer::floor`]). Ends `Proved` when every cube's
/// search did, `Limit` when an enumeration found `max`, `Stopped` otherwise.
pub fn conquer<P: Genre>(
    inst: &P::Instance,
    goal: Goal,
    known: Vec<(P::Answer, P::Checked)>,
    solvers: &dyn NewSolver,
    threads: usize,
    n: usize,
    out: &mut dyn Observer<P>,
) -> Result<(Ended, Report), SolverError> {
    let began = Instant::now();
    let stop = solvers.stop();
    let first = match first_formula::<P>(inst, goal, solvers)? {
        First::Formula(f) => f,
        First::Stopped => return Ok((Ended::Stopped, Report::default())),
        // Nothing to split: the search as it is.
        First::NoCall => return Ok((P::search(inst, goal, solvers, out)?, Report::default())),
    };
    let mut counter = SizeCounter::default();
    P::plain_encode(inst, &mut counter);
    let cubes = split(&first, counter.vars, n.max(1));
    let size = (first.num_vars, first.clauses.len());
    drop(first);
    let mut report = Report {
        times: vec![None; cubes.len()],
        cubes,
        split: began.elapsed(),
    };
    if report.cubes.is_empty() {
        // Unit propagation refutes the first formula: no answer at all.
        return Ok((Ended::Proved, report));
    }
    let merged = Mutex::new(Merged::<P> {
        answers: known,
        full: false,
        error: None,
    });
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Event<P>>();
    let threads = threads.clamp(1, report.cubes.len());
    let cubes = &report.cubes;
    std::thread::scope(|scope| {
        for w in 0..threads {
            let tx = tx.clone();
            let (merged, next) = (&merged, &next);
            scope.spawn(move || loop {
                if stop.is_raised() {
                    return;
                }
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(cube) = cubes.get(k) else { return };
                let began = Instant::now();
                let confined = Confined {
                    inner: solvers,
                    units: cube.clone(),
                    size,
                    made: AtomicBool::new(false),
                };
                let mut seen = Seen {
                    goal,
                    merged,
                    w,
                    tx: &tx,
                    stop,
                };
                match P::search(inst, goal, &confined, &mut seen) {
                    Ok(Ended::Proved) => {
                        tx.send(Event::Cube(k, w, began.elapsed())).ok();
                    }
                    Ok(_) => return,
                    Err(e) => {
                        let mut m = merged.lock().expect("no worker panics");
                        if m.error.is_none() && !m.full && !stop.is_raised() {
                            m.error = Some(e);
                        }
                        stop.raise();
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Each worker's current cube, and in the last place the cubes done (a fresh solver each).
        let mut stats = vec![SolverStats::default(); threads + 1];
        for event in rx {
            match event {
                Event::Found(answer, checked) => out.found(&answer, &checked),
                Event::Stats(w, s) => {
                    stats[w] = s;
                    out.stats(sum(&stats));
                }
                Event::Cube(k, w, t) => {
                    report.times[k] = Some(t);
                    stats[threads] = sum(&[stats[threads], std::mem::take(&mut stats[w])]);
                }
            }
        }
    });
    let m = merged.into_inner().expect("no worker panics");
    if m.full {
        return Ok((Ended::Limit, report));
    }
    if let Some(e) = m.error {
        return Err(e);
    }
    let ended = match report.times.iter().all(Option::is_some) {
        true => Ended::Proved,
        false => Ended::Stopped,
    };
    Ok((ended, report))
}

enum First {
    Formula(Cnf),
    /// The run was stopped first.
    Stopped,
    /// The search ended without a SAT call.
    NoCall,
}

/// The formula the search's first solver holds at its first call: the search is run on a
/// recorder that stops it there.
fn first_formula<P: Genre>(
    inst: &P::Instance,
    goal: Goal,
    solvers: &dyn NewSolver,
) -> Result<First, SolverError> {
    let stop = solvers.stop();
    let probe = Probes {
        stop: Stop::new(),
        first: Arc::new(Mutex::new(None)),
        made: AtomicBool::new(false),
        in_process: solvers.in_process(),
    };
    struct Quiet;
    impl<P: Genre> Observer<P> for Quiet {
        fn found(&mut self, _: &P::Answer, _: &P::Checked) {}
        fn stats(&mut self, _: SolverStats) {}
    }
    P::search(inst, goal, &probe, &mut Quiet)?;
    if stop.is_raised() {
        return Ok(First::Stopped);
    }
    let first = probe.first.lock().expect("no probe panics").take();
    Ok(first.map_or(First::NoCall, First::Formula))
}

/// The answers the cubes found, merged.
struct Merged<P: Genre> {
    answers: Vec<(P::Answer, P::Checked)>,
    /// An enumeration reached its `max`.
    full: bool,
    error: Option<SolverError>,
}

enum Event<P: Genre> {
    Found(P::Answer, P::Checked),
    Stats(usize, SolverStats),
    /// Cube `k` done by worker `w`.
    Cube(usize, usize, Duration),
}

fn sum(stats: &[SolverStats]) -> SolverStats {
    let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        (a, b) => a.or(b),
    };
    stats
        .iter()
        .fold(SolverStats::default(), |t, s| SolverStats {
            calls: t.calls + s.calls,
            vars: t.vars.max(s.vars),
            clauses: t.clauses.max(s.clauses),
            conflicts: add(t.conflicts, s.conflicts),
            decisions: add(t.decisions, s.decisions),
        })
}

/// A cube's search's observer: passes on what beats (or is not among) the answers merged.
struct Seen<'a, P: Genre> {
    goal: Goal,
    merged: &'a Mutex<Merged<P>>,
    w: usize,
    tx: &'a mpsc::Sender<Event<P>>,
    stop: &'a Stop,
}

impl<P: Genre> Observer<P> for Seen<'_, P> {
    fn found(&mut self, answer: &P::Answer, checked: &P::Checked) {
        let mut m = self.merged.lock().expect("no worker panics");
        // An enumeration that is full takes no more (another cube may still be reporting).
        if m.full {
            return;
        }
        let new = match self.goal {
            Goal::Best => m
                .answers
                .last()
                .is_none_or(|(_, c)| P::score(checked) > P::score(c)),
            Goal::Enumerate { .. } => !m.answers.iter().any(|(a, _)| a == answer),
        };
        if !new {
            return;
        }
        // Sent under the lock, so improvements arrive in order.
        self.tx
            .send(Event::Found(answer.clone(), checked.clone()))
            .ok();
        m.answers.push((answer.clone(), checked.clone()));
        if let Goal::Enumerate { max } = self.goal {
            if m.answers.len() as u64 >= max {
                m.full = true;
                self.stop.raise();
            }
        }
    }

    fn stats(&mut self, stats: SolverStats) {
        self.tx.send(Event::Stats(self.w, stats)).ok();
    }

    fn floor(&self) -> Option<P::Checked> {
        let m = self.merged.lock().expect("no worker panics");
        match self.goal {
            Goal::Best => m.answers.last().map(|(_, c)| c.clone()),
            Goal::Enumerate { .. } => None,
        }
    }
}

/// Solvers for one cube: the first holds the cube's literals as units from its first call.
struct Confined<'a> {
    inner: &'a dyn NewSolver,
    units: Vec<Lit>,
    /// The split formula's variables and clauses, which the first solver must hold then.
    size: (u32, usize),
    made: AtomicBool,
}

impl NewSolver for Confined<'_> {
    fn new_solver(&self) -> Box<dyn Solver> {
        let inner = self.inner.new_solver();
        if self.made.swap(true, Ordering::SeqCst) {
            return inner;
        }
        Box::new(InCube {
            inner,
            units: Some(self.units.clone()),
            size: self.size,
            vars: 0,
            clauses: 0,
        })
    }

    fn in_process(&self) -> bool {
        self.inner.in_process()
    }

    fn stop(&self) -> &Stop {
        self.inner.stop()
    }
}

/// A solver that adds a cube's units before its first call, once it holds the formula the
/// cube was split from (checked by its size: the same search on the same puzzle builds it
/// the same way).
struct InCube {
    inner: Box<dyn Solver>,
    units: Option<Vec<Lit>>,
    size: (u32, usize),
    vars: u32,
    clauses: usize,
}

impl InCube {
    fn confine(&mut self) -> Result<(), SolverError> {
        let Some(units) = self.units.take() else {
            return Ok(());
        };
        if (self.vars, self.clauses) != self.size {
            return Err(SolverError(format!(
                "internal error: --cubes: the search's formula ({} variables, {} clauses) is not the one split ({} and {})",
                self.vars, self.clauses, self.size.0, self.size.1
            )));
        }
        for u in units {
            self.inner.add_clause(&[u]);
        }
        Ok(())
    }
}

impl ClauseSink for InCube {
    fn new_var(&mut self) -> Lit {
        self.vars += 1;
        self.inner.new_var()
    }

    fn name_var(&mut self, var: Lit, name: &dyn Fn() -> String) {
        self.inner.name_var(var, name)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.inner.add_clause(lits)
    }

    fn reserve(&mut self, literals: u64) -> bool {
        self.inner.reserve(literals)
    }
}

impl Solver for InCube {
    fn backend(&self) -> &'static str {
        self.inner.backend()
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        self.confine()?;
        self.inner.solve_with(assumptions)
    }

    fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        conflicts: u64,
    ) -> Result<Option<SolveResult>, SolverError> {
        self.confine()?;
        self.inner.solve_limited(assumptions, conflicts)
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
}

/// Solvers that record the first one's formula up to its first call, then stop the search.
struct Probes {
    stop: Stop,
    first: Arc<Mutex<Option<Cnf>>>,
    made: AtomicBool,
    /// As the real solvers say: a search builds its formula differently for a solver in
    /// another process (no splitting into parts).
    in_process: bool,
}

impl NewSolver for Probes {
    fn new_solver(&self) -> Box<dyn Solver> {
        let first = !self.made.swap(true, Ordering::SeqCst);
        Box::new(Probe {
            cnf: Cnf::new(),
            slot: first.then(|| self.first.clone()),
            stop: self.stop.clone(),
        })
    }

    fn stop(&self) -> &Stop {
        &self.stop
    }

    fn in_process(&self) -> bool {
        self.in_process
    }
}

/// Records clauses; its first call hands them over and stops the search.
struct Probe {
    cnf: Cnf,
    slot: Option<Arc<Mutex<Option<Cnf>>>>,
    stop: Stop,
}

impl ClauseSink for Probe {
    fn new_var(&mut self) -> Lit {
        self.cnf.new_var()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.cnf.add_clause(lits)
    }

    fn reserve(&mut self, _literals: u64) -> bool {
        true
    }
}

impl Solver for Probe {
    fn backend(&self) -> &'static str {
        "probe"
    }

    fn solve_with(&mut self, _: &[Lit]) -> Result<SolveResult, SolverError> {
        if let Some(slot) = self.slot.take() {
            *slot.lock().expect("no probe panics") = Some(std::mem::take(&mut self.cnf));
        }
        self.stop.raise();
        Ok(SolveResult::Interrupted)
    }

    fn solve_limited(
        &mut self,
        assumptions: &[Lit],
        _: u64,
    ) -> Result<Option<SolveResult>, SolverError> {
        self.solve_with(assumptions).map(Some)
    }

    fn model(&self) -> Model {
        Model::from_lits(0, [])
    }

    fn failed_core(&self) -> Vec<Lit> {
        Vec::new()
    }

    fn stats(&self) -> SolverStats {
        SolverStats::default()
    }

    fn interruptible(&self) -> bool {
        true
    }
}
