//! Optimisation by iterative bound tightening: solve, decode, score exactly, demand a strictly
//! better score, repeat until UNSAT, which proves the last answer optimal. The solver runs in
//! a worker thread (see [`crate::worker`]) so that a time limit can stop the wait.

use crate::solver::Varisat;
use crate::worker::{drive, Report};
use encodings::problem::{Maximize, Tighten};
use std::fmt;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// When to print each improvement to stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    Never,
    /// Once the run has lasted a second: short runs stay quiet.
    Auto,
    Always,
}

impl Progress {
    /// Whether to print at `elapsed` into the run.
    pub fn now(self, elapsed: Duration) -> bool {
        self == Progress::Always || (self == Progress::Auto && elapsed.as_secs() >= 1)
    }
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

impl Status {
    /// The `status` value of `--format json`.
    pub fn json_name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::BestFound => "best_found",
            Status::NoSolution => "no_solution",
            Status::Unknown => "unknown",
        }
    }
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

pub enum Msg<A, S> {
    Encoded { vars: u32, clauses: u64 },
    Call(u32),
    Improved { answer: A, score: S },
}

pub fn maximize<P>(problem: P, opts: &Options) -> Outcome<P::Answer, P::Score>
where
    P: Maximize + Send + 'static,
{
    run(opts, move |tx| search(problem, tx))
}

/// Runs an optimising search `work` in a worker thread under the options' time limit, printing
/// its progress; `work` reports with [`Msg`] and ends with `Report::Done` only when its last
/// answer is proved optimal (or none exists).
pub fn run<A, S>(opts: &Options, work: impl FnOnce(&Sender<Report<Msg<A, S>>>) + Send + 'static) -> Outcome<A, S>
where
    A: Send + 'static,
    S: fmt::Display + Send + 'static,
{
    let start = Instant::now();
    let mut best = None;
    let mut stats = Stats::default();
    let finished = drive(opts.time_limit.map(|t| start + t), work, |msg| match msg {
        Msg::Encoded { vars, clauses } => (stats.vars, stats.clauses) = (vars, clauses),
        Msg::Call(n) => stats.sat_calls = n,
        Msg::Improved { answer, score } => {
            let elapsed = start.elapsed();
            if opts.progress.now(elapsed) {
                eprintln!("[{:8.3}s] score {score} after {} SAT calls", elapsed.as_secs_f64(), stats.sat_calls);
            }
            best = Some((answer, score));
        }
    });
    let status = match (finished, best.is_some()) {
        (true, true) => Status::Optimal,
        (true, false) => Status::NoSolution,
        (false, true) => Status::BestFound,
        (false, false) => Status::Unknown,
    };
    stats.elapsed = start.elapsed();
    if opts.progress.now(stats.elapsed) {
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

/// The worker: owns the solver and reports the encoding size, each call, each improvement.
fn search<P: Maximize>(problem: P, tx: &Sender<Report<Msg<P::Answer, P::Score>>>) {
    // A closed channel means the caller gave up (time limit): just stop.
    let send = |m| tx.send(Report::Msg(m)).is_ok();
    let mut solver = Varisat::new();
    let mut enc = problem.encode(&mut solver);
    if !send(Msg::Encoded { vars: solver.vars(), clauses: solver.clauses() }) {
        return;
    }
    let mut best: Option<P::Score> = None;
    loop {
        let sat = solver.solve();
        if !send(Msg::Call(solver.calls())) {
            return;
        }
        if !sat {
            break;
        }
        let answer = problem.decode(&enc, &solver.model());
        let score = problem.score(&answer);
        if best.as_ref().is_none_or(|b| score > *b) {
            best = Some(score.clone());
            if !send(Msg::Improved { answer: answer.clone(), score }) {
                return;
            }
        }
        let bar = best.as_ref().expect("set above");
        if problem.require_better(&mut enc, &mut solver, bar, &answer) == Tighten::Exhausted {
            break;
        }
    }
    let _ = tx.send(Report::Done);
}

#[cfg(test)]
mod tests {
    use super::*;
    use encodings::amo::at_most_one;
    use encodings::cnf::{ClauseSink, Lit, Model};
    use encodings::sum::{encode_sum, Bound, SumOutputs, Use};

    /// Maximise the number of true variables among `n`, where some pairs exclude each other;
    /// `stall` makes every call after the first wait, to test the time limit.
    #[derive(Clone)]
    struct Toy {
        n: usize,
        exclusive: Vec<(usize, usize)>,
        stall: Option<Duration>,
    }

    impl Maximize for Toy {
        type Answer = Vec<bool>;
        type Score = usize;
        type Encoding = (Vec<Lit>, SumOutputs);

        fn encode<S: ClauseSink>(&self, sink: &mut S) -> Self::Encoding {
            let x: Vec<Lit> = (0..self.n).map(|_| sink.new_var()).collect();
            for &(a, b) in &self.exclusive {
                at_most_one(sink, &[x[a], x[b]]);
            }
            let groups: Vec<Vec<(Lit, u64)>> = x.iter().map(|&l| vec![(l, 1)]).collect();
            let sum = encode_sum(sink, &groups, None, Use::AtLeast);
            (x, sum)
        }

        fn decode(&self, enc: &Self::Encoding, model: &Model) -> Vec<bool> {
            enc.0.iter().map(|&l| model.value(l)).collect()
        }

        fn score(&self, a: &Vec<bool>) -> usize {
            a.iter().filter(|&&b| b).count()
        }

        fn require_better<S: ClauseSink>(&self, enc: &mut Self::Encoding, sink: &mut S, best: &usize, _: &Vec<bool>) -> Tighten {
            if let Some(d) = self.stall {
                std::thread::sleep(d);
            }
            match enc.1.at_least(*best as u64 + 1) {
                Bound::Trivial => Tighten::Added,
                Bound::Impossible => Tighten::Exhausted,
                Bound::Lit(l) => {
                    sink.add_clause(&[l]);
                    Tighten::Added
                }
            }
        }
    }

    const QUIET: Options = Options { time_limit: None, progress: Progress::Never };

    #[test]
    fn proves_the_optimum_with_a_final_unsat_call() {
        // A 5-cycle of exclusions: at most 2 of 5.
        let toy = Toy { n: 5, exclusive: vec![(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], stall: None };
        let out = maximize(toy, &QUIET);
        assert_eq!(out.status, Status::Optimal);
        assert_eq!(out.best.as_ref().unwrap().1, 2);
        let chosen = &out.best.unwrap().0;
        assert!((0..5).all(|i| !(chosen[i] && chosen[(i + 1) % 5])));
        assert!(out.stats.sat_calls >= 2, "the last call refutes a better score");
    }

    #[test]
    fn stops_without_a_call_when_no_better_score_exists() {
        let toy = Toy { n: 3, exclusive: vec![], stall: None };
        let out = maximize(toy, &QUIET);
        assert_eq!((out.status, out.best.map(|b| b.1)), (Status::Optimal, Some(3)));
    }

    #[test]
    fn reports_no_solution() {
        // The rules demand x and ¬x: there is no answer to score.
        struct Clash;
        impl Maximize for Clash {
            type Answer = ();
            type Score = u8;
            type Encoding = ();
            fn encode<S: ClauseSink>(&self, sink: &mut S) {
                let x = sink.new_var();
                sink.add_clause(&[x]);
                sink.add_clause(&[!x]);
            }
            fn decode(&self, _: &(), _: &Model) {}
            fn score(&self, _: &()) -> u8 {
                0
            }
            fn require_better<S: ClauseSink>(&self, _: &mut (), _: &mut S, _: &u8, _: &()) -> Tighten {
                Tighten::Exhausted
            }
        }
        let out = maximize(Clash, &QUIET);
        assert_eq!(out.status, Status::NoSolution);
        assert!(out.best.is_none());
    }

    #[test]
    fn the_time_limit_returns_the_best_found_unproved() {
        let toy = Toy { n: 6, exclusive: vec![(0, 1)], stall: Some(Duration::from_secs(30)) };
        let opts = Options { time_limit: Some(Duration::from_millis(300)), progress: Progress::Never };
        let started = Instant::now();
        let out = maximize(toy, &opts);
        assert!(started.elapsed() < Duration::from_secs(5), "returned at the deadline, not after the stall");
        assert_eq!(out.status, Status::BestFound);
        assert!(out.best.is_some());
    }
}
