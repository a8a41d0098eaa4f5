//! Enumerating solutions by blocking each one found: first solution, counting up to a limit,
//! and uniqueness (counting up to two). Runs in a worker thread under the time limit.

use crate::optimize::Stats;
use crate::solver::Varisat;
use crate::worker::{drive, Report};
use encodings::problem::Enumerate;
use std::time::{Duration, Instant};

pub struct Enumeration<A> {
    /// The first `keep` solutions found.
    pub shown: Vec<A>,
    /// Solutions found.
    pub count: u64,
    /// The count is exact: the solver refuted any further solution.
    pub complete: bool,
    /// The time limit stopped the search.
    pub timed_out: bool,
    pub stats: Stats,
}

enum Msg<A> {
    Encoded { vars: u32, clauses: u64 },
    Found { answer: A, calls: u32 },
    /// The solver refuted any further solution.
    Exhausted { calls: u32 },
}

/// Finds up to `max` solutions, keeping the first `keep` of them.
pub fn enumerate<P>(problem: P, max: u64, keep: usize, time_limit: Option<Duration>) -> Enumeration<P::Answer>
where
    P: Enumerate + Send + 'static,
{
    let start = Instant::now();
    let mut out = Enumeration { shown: Vec::new(), count: 0, complete: false, timed_out: false, stats: Stats::default() };
    let work = move |tx: &std::sync::mpsc::Sender<Report<Msg<P::Answer>>>| {
        // A closed channel means the caller gave up (time limit): just stop.
        let send = |m| tx.send(Report::Msg(m)).is_ok();
        let mut solver = Varisat::new();
        let enc = problem.encode(&mut solver);
        if !send(Msg::Encoded { vars: solver.vars(), clauses: solver.clauses() }) {
            return;
        }
        for _ in 0..max {
            if !solver.solve() {
                let _ = send(Msg::Exhausted { calls: solver.calls() });
                break;
            }
            let answer = problem.decode(&enc, &solver.model());
            problem.block(&enc, &mut solver, &answer);
            if !send(Msg::Found { answer, calls: solver.calls() }) {
                return;
            }
        }
        let _ = tx.send(Report::Done);
    };
    let finished = drive(time_limit.map(|t| start + t), work, |msg| match msg {
        Msg::Encoded { vars, clauses } => (out.stats.vars, out.stats.clauses) = (vars, clauses),
        Msg::Found { answer, calls } => {
            out.count += 1;
            out.stats.sat_calls = calls;
            if out.shown.len() < keep {
                out.shown.push(answer);
            }
        }
        Msg::Exhausted { calls } => {
            out.complete = true;
            out.stats.sat_calls = calls;
        }
    });
    out.timed_out = !finished;
    out.stats.elapsed = start.elapsed();
    out
}
