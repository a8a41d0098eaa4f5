//! Optimisation by iterative bound tightening: solve, decode, score exactly, demand a strictly
//! better score, repeat until UNSAT, which proves the last answer optimal.
//!
//! varisat cannot be interrupted, so the solver lives in a worker thread that reports each
//! improved answer; the calling thread waits until the worker finishes or the deadline passes,
//! and then returns what it has (the worker is abandoned; the process exits soon after).

use crate::solver::Varisat;
use encodings::problem::{Maximize, Tighten};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// When to print each improvement to stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    Never,
    /// Once the run has lasted a second: short runs stay quiet.
    Auto,
    Always,
}

#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub time_limit: Option<Duration>,
    pub progress: Progress,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The best answer is proved optimal: the solver refuted every better score.
    Optimal,
    /// The time limit passed; the best answer is not proved optimal.
    BestFound,
    /// The puzzle has no valid answer (proved).
    NoSolution,
    /// The time limit passed before any answer was found.
    Unknown,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub sat_calls: u32,
    pub vars: u32,
    pub clauses: u64,
    pub elapsed: Duration,
}

pub struct Outcome<A, S> {
    pub best: Option<(A, S)>,
    pub status: Status,
    pub stats: Stats,
}

enum Msg<A, S> {
    Encoded { vars: u32, clauses: u64 },
    Improved { answer: A, score: S, calls: u32 },
    /// The search ended: the last improvement (if any) is optimal.
    Finished,
}

pub fn maximize<P>(problem: P, opts: &Options) -> Outcome<P::Answer, P::Score>
where
    P: Maximize + Send + 'static,
{
    let start = Instant::now();
    let calls = Arc::new(AtomicU32::new(0));
    let (tx, rx) = mpsc::channel();
    let worker_calls = Arc::clone(&calls);
    std::thread::spawn(move || search(problem, tx, &worker_calls));

    let deadline = opts.time_limit.map(|t| start + t);
    let mut best = None;
    let mut stats = Stats::default();
    let status = loop {
        let msg = match deadline {
            Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    break if best.is_some() { Status::BestFound } else { Status::Unknown };
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the solver thread stopped without an answer"),
            },
            None => rx.recv().expect("the solver thread stopped without an answer"),
        };
        match msg {
            Msg::Encoded { vars, clauses } => (stats.vars, stats.clauses) = (vars, clauses),
            Msg::Improved { answer, score, calls } => {
                let elapsed = start.elapsed();
                if opts.progress == Progress::Always || (opts.progress == Progress::Auto && elapsed.as_secs() >= 1) {
                    eprintln!("[{:8.3}s] score {score} after {calls} SAT calls", elapsed.as_secs_f64());
                }
                best = Some((answer, score));
            }
            Msg::Finished => break if best.is_some() { Status::Optimal } else { Status::NoSolution },
        }
    };
    stats.sat_calls = calls.load(Ordering::Relaxed);
    stats.elapsed = start.elapsed();
    if opts.progress == Progress::Always || (opts.progress == Progress::Auto && stats.elapsed.as_secs() >= 1) {
        let what = match status {
            Status::Optimal => "proved optimal",
            Status::BestFound => "time limit: best found, not proved",
            Status::NoSolution => "proved unsolvable",
            Status::Unknown => "time limit: no answer found",
        };
        eprintln!("[{:8.3}s] {what} after {} SAT calls", stats.elapsed.as_secs_f64(), stats.sat_calls);
    }
    Outcome { best, status, stats }
}

/// The worker: owns the solver, reports encoding size, each improvement, and the end.
fn search<P: Maximize>(problem: P, tx: mpsc::Sender<Msg<P::Answer, P::Score>>, calls: &AtomicU32) {
    let mut solver = Varisat::new();
    let mut enc = problem.encode(&mut solver);
    // A closed channel means the caller gave up (time limit): just stop.
    if tx.send(Msg::Encoded { vars: solver.vars(), clauses: solver.clauses() }).is_err() {
        return;
    }
    let mut best: Option<P::Score> = None;
    loop {
        let sat = solver.solve();
        calls.store(solver.calls(), Ordering::Relaxed);
        if !sat {
            break;
        }
        let answer = problem.decode(&enc, &solver.model());
        let score = problem.score(&answer);
        if best.as_ref().map_or(true, |b| score > *b) {
            best = Some(score.clone());
            if tx.send(Msg::Improved { answer: answer.clone(), score, calls: solver.calls() }).is_err() {
                return;
            }
        }
        let bar = best.as_ref().expect("set above");
        if problem.require_better(&mut enc, &mut solver, bar, &answer) == Tighten::Exhausted {
            break;
        }
    }
    let _ = tx.send(Msg::Finished);
}
