//! Running a puzzle's search (or generator) in a worker thread under an optional deadline.
//!
//! The worker owns the solvers and reports each answer as it is found; the calling thread keeps
//! every report, in order, so when the deadline passes it still has the best found. At the
//! deadline the run's stop flag is raised: every backend (varisat, CaDiCaL, external commands)
//! then returns from its call at once and the worker is waited for, so no solver keeps running;
//! a worker busy elsewhere (encoding a large board) past a short grace is abandoned (it ends
//! with the process). What a late report means is one rule, written at [`receive`].

use crate::backends::{Backend, Trust};
use encodings::conquer as cubes;
use encodings::explain::Level;
use encodings::genre::Genre;
use encodings::puzzle::{Ended, GenerateSpec, Goal, Hints, Made, Observer, Task};
use encodings::solver::{SolverError, SolverStats, Stop};
use encodings::team::Team;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When to print progress to stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Progress {
    Never,
    /// Once the run has lasted a second: short runs stay quiet.
    #[default]
    Auto,
    Always,
}

impl Progress {
    /// Whether to print at `elapsed` into the run.
    pub fn now(self, elapsed: Duration) -> bool {
        self == Progress::Always || (self == Progress::Auto && elapsed.as_secs() >= 1)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub backend: Backend,
    pub time_limit: Option<Duration>,
    pub progress: Progress,
    /// `solve --cubes`: after a first search, what it leaves is refuted in cubes.
    pub cubes: Option<Cubes>,
}

/// How to refute a claim in cubes: how many, on how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cubes {
    pub n: usize,
    pub threads: usize,
    /// How long the first search runs before its claim is split.
    pub after: Duration,
}

/// How long an interrupted worker gets to return before the run ends without it: a solver
/// call returns at once (loading a large formula into its parts too), but encoding or probing
/// a large board does not look at the flag.
const GRACE: Duration = Duration::from_millis(500);

/// How long a portfolio's later members wait before they join the race (milliseconds): 0 for
/// `solve`, which races at once; `run` sets it in its children when it runs one job per core,
/// so that a puzzle solved within it costs one core and only a longer one is raced.
static STAGGER_MS: AtomicU64 = AtomicU64::new(0);

/// Sets how long a portfolio's later members wait before joining (this process's searches).
pub fn stagger_later_members(wait: Duration) {
    STAGGER_MS.store(
        wait.as_millis().min(u128::from(u64::MAX)) as u64,
        Ordering::SeqCst,
    );
}

/// Worker threads alive in this process (searches, hints, generators): a race's losers and a
/// stopped run's workers must leave at once, which the tests watch here.
static WORKERS: AtomicUsize = AtomicUsize::new(0);

/// How many worker threads are alive.
pub fn workers() -> usize {
    WORKERS.load(Ordering::SeqCst)
}

/// Counts a thread in one of the counters above (or [`LEFTOVERS`]) from before it starts until
/// it ends, however it ends.
struct Worker(&'static AtomicUsize);

impl Worker {
    fn start() -> Worker {
        Worker::counted(&WORKERS)
    }

    fn counted(counter: &'static AtomicUsize) -> Worker {
        counter.fetch_add(1, Ordering::SeqCst);
        Worker(counter)
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What a run measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub backend: &'static str,
    pub solver: SolverStats,
    /// From the start to the first report of the formula's size.
    pub encode: Duration,
    pub elapsed: Duration,
}

/// A search's result as the caller saw it.
pub struct Outcome<P: Genre> {
    /// For [`Goal::Best`] the best answer found (at most one); for enumeration the first
    /// `keep` answers.
    pub answers: Vec<(P::Answer, P::Checked)>,
    /// Answers found (for `Goal::Best`, improvements).
    pub count: u64,
    /// How the search ended; `Stopped` also when the deadline passed.
    pub ended: Ended,
    /// The worker was still running when the run ended (a deadline passed while it was busy
    /// outside a solver call past the grace); it ends with the process.
    pub abandoned: bool,
    /// For [`Goal::Best`]: the lowest upper bound on every answer's score the search proved
    /// (see [`Observer::upper_bound`]); what is left between it and the best when a limit stops.
    pub upper_bound: Option<f64>,
    pub stats: Stats,
    /// With `--cubes`, how the cubes went (`None`: the first search ended the run).
    pub cubes: Option<cubes::Report>,
}

impl<P: Genre> Outcome<P> {
    /// The best answer, for [`Goal::Best`].
    pub fn best(&self) -> Option<&(P::Answer, P::Checked)> {
        self.answers.last()
    }
}

enum Msg<P: Genre> {
    Found(P::Answer, P::Checked),
    Stats(SolverStats),
    UpperBound(f64),
    Note(String),
    Done(Result<Ended, SolverError>),
    Generated(Result<Option<Made<P::Answer>>, String>),
    Hinted(Result<Option<Hints<P::Answer>>, SolverError>),
    Cubes(Option<cubes::Report>),
    /// A second passed without news (only when progress is printed).
    Tick,
}

/// How often a silent search reports that it is still at work.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// A member's reports, marked with its place in the race.
struct Reporter<P: Genre>(Sender<(usize, Msg<P>)>, usize);

impl<P: Genre> Observer<P> for Reporter<P> {
    fn found(&mut self, answer: &P::Answer, checked: &P::Checked) {
        // A closed channel means the caller gave up (time limit, or another member won); the
        // stop flag ends the search.
        let _ = self
            .0
            .send((self.1, Msg::Found(answer.clone(), checked.clone())));
    }

    fn stats(&mut self, stats: SolverStats) {
        let _ = self.0.send((self.1, Msg::Stats(stats)));
    }

    fn upper_bound(&mut self, bound: f64) {
        let _ = self.0.send((self.1, Msg::UpperBound(bound)));
    }
}

/// What one member of the race has reported so far.
struct Track<P: Genre> {
    answers: Vec<(P::Answer, P::Checked)>,
    count: u64,
    upper_bound: Option<f64>,
    solver: SolverStats,
    encode: Option<Duration>,
    /// Its last message: how its search ended.
    done: Option<Result<Ended, SolverError>>,
}

/// Runs `P::search` on `inst` under the options' backend and time limit: a portfolio's
/// members race, each running the whole search in its own thread, and the first to finish
/// (proved, or its enumeration limit reached) answers alone; the others are stopped at once.
pub fn search<P: Genre>(
    inst: P::Instance,
    goal: Goal,
    keep: usize,
    opts: &Options,
) -> Result<Outcome<P>, SolverError> {
    let start = Instant::now();
    let fits = fits_within::<P>(&inst, opts.time_limit)?;
    if let (Some(split), true) = (opts.cubes, fits) {
        return search_in_cubes::<P>(inst, goal, keep, opts, split);
    }
    if !fits {
        return Ok(Outcome {
            answers: Vec::new(),
            count: 0,
            ended: Ended::Stopped,
            abandoned: true,
            upper_bound: None,
            stats: Stats {
                backend: opts.backend.for_task(P::TASK).members()[0].name(),
                elapsed: start.elapsed(),
                ..Stats::default()
            },
            cubes: None,
        });
    }
    let raced = opts.backend.for_task(P::TASK);
    let members = raced.members();
    let (tx, rx) = mpsc::channel::<(usize, Msg<P>)>();
    let stops: Vec<Stop> = members.iter().map(|_| Stop::new()).collect();
    let stagger = Duration::from_millis(STAGGER_MS.load(Ordering::SeqCst));
    for (k, member) in members.iter().enumerate() {
        let solvers = member.solvers(stops[k].clone()).in_race(k);
        let (inst, tx, stop) = (inst.clone(), tx.clone(), stops[k].clone());
        let worker = Worker::start();
        std::thread::spawn(move || {
            let _worker = worker;
            // A later member waits its turn, unless the race is over first.
            let joins = Instant::now() + stagger;
            while k > 0 && Instant::now() < joins {
                if stop.is_raised() {
                    let _ = tx.send((k, Msg::Done(Ok(Ended::Stopped))));
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let mut reporter = Reporter(tx, k);
            let result = P::search(&inst, goal, &solvers, &mut reporter);
            let _ = reporter.0.send((k, Msg::Done(result)));
        });
    }
    drop(tx);
    let mut tracks: Vec<Track<P>> = members
        .iter()
        .map(|_| Track {
            answers: Vec::new(),
            count: 0,
            upper_bound: None,
            solver: SolverStats::default(),
            encode: None,
            done: None,
        })
        .collect();
    let mut winner = None;
    let mut last_said = Duration::ZERO;
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    // Who said it, on a race's progress lines.
    let who = |k: usize| match members.len() {
        1 => String::new(),
        _ => format!(" ({})", members[k].name()),
    };
    receive(&rx, start, opts, &stops, |k, msg| {
        match msg {
            Msg::Tick => {
                // Long proofs and counts make no news for seconds: say they are still going.
                let elapsed = start.elapsed();
                if opts.progress.now(elapsed) && elapsed >= last_said + HEARTBEAT {
                    last_said = elapsed;
                    let lead = leader::<P>(&tracks, |_| true);
                    let t = &tracks[lead];
                    let calls: u32 = tracks.iter().map(|t| t.solver.calls).sum();
                    let so_far = match (P::TASK, t.answers.last()) {
                        (Task::Maximize, Some((_, c))) => {
                            let bound =
                                tracks.iter().filter_map(|t| t.upper_bound).reduce(f64::min);
                            match gap::<P>(&P::score(c), bound) {
                                Some(g) => format!(
                                    "best score so far {}, {}",
                                    P::score(c),
                                    g.text(opts.backend.trust())
                                ),
                                None => format!("best score so far {}", P::score(c)),
                            }
                        }
                        (Task::Maximize, None) => "no answer yet".to_string(),
                        (Task::Enumerate, _) => format!(
                            "{} solution{} so far",
                            t.count,
                            if t.count == 1 { "" } else { "s" }
                        ),
                    };
                    // Calls are counted as they end: before the first one has, say what is running.
                    let encoded = tracks.iter().any(|t| t.encode.is_some());
                    let done = match (encoded, calls) {
                        (false, _) => "encoding".to_string(),
                        (true, 0) => "the first SAT call is running".to_string(),
                        _ => format!("{calls} SAT call{} done", plural(calls)),
                    };
                    eprintln!("[{:8.3}s] {done}, {so_far}", elapsed.as_secs_f64());
                }
            }
            Msg::Stats(s) => {
                let t = &mut tracks[k];
                t.encode.get_or_insert_with(|| start.elapsed());
                t.solver = s;
            }
            Msg::Found(answer, checked) => {
                let t = &mut tracks[k];
                t.count += 1;
                if goal == Goal::Best {
                    let elapsed = start.elapsed();
                    if opts.progress.now(elapsed) {
                        last_said = elapsed;
                        let calls = t.solver.calls;
                        eprintln!(
                            "[{:8.3}s] score {} after {calls} SAT call{}{}",
                            elapsed.as_secs_f64(),
                            P::score(&checked),
                            plural(calls),
                            who(k)
                        );
                    }
                    t.answers.clear();
                }
                if t.answers.len() < keep {
                    t.answers.push((answer, checked));
                }
            }
            Msg::UpperBound(b) => {
                let t = &mut tracks[k];
                t.upper_bound = Some(t.upper_bound.map_or(b, |u| u.min(b)));
            }
            Msg::Done(r) => {
                if matches!(r, Ok(Ended::Proved | Ended::Limit)) && winner.is_none() {
                    winner = Some(k);
                }
                tracks[k].done = Some(r);
            }
            Msg::Note(_) | Msg::Generated(_) | Msg::Hinted(_) | Msg::Cubes(_) => {}
        }
        winner.is_some() || tracks.iter().all(|t| t.done.is_some())
    })?;
    // The answer: the winner's alone; without one (a deadline, errors), the member that got
    // furthest, with the lowest upper bound any member proved (each is a bound on every answer).
    let failed = |t: &Track<P>| matches!(t.done, Some(Err(_)));
    let pick = match winner {
        Some(w) => w,
        None if tracks.iter().all(failed) => 0,
        None => leader::<P>(&tracks, |t| !failed(t)),
    };
    let bound = match winner {
        Some(w) => tracks[w].upper_bound,
        None => tracks.iter().filter_map(|t| t.upper_bound).reduce(f64::min),
    };
    // A member that failed while another answered: said, not hidden behind the answer.
    for (k, t) in tracks.iter().enumerate() {
        if let (Some(Err(e)), true) = (&t.done, k != pick && members.len() > 1) {
            eprintln!("puzzle-sat: warning: {}: {e}", members[k].name());
        }
    }
    let calls_all: u32 = tracks.iter().map(|t| t.solver.calls).sum();
    let t = tracks.swap_remove(pick);
    let abandoned = t.done.is_none();
    let ended = match t.done {
        Some(Ok(e)) => e,
        // Every member failed: the first member's error.
        Some(Err(e)) => return Err(e),
        None => Ended::Stopped,
    };
    let out = Outcome::<P> {
        answers: t.answers,
        count: t.count,
        ended,
        abandoned,
        upper_bound: bound,
        stats: Stats {
            backend: members[pick].name(),
            solver: t.solver,
            encode: t.encode.unwrap_or_default(),
            elapsed: start.elapsed(),
        },
        cubes: None,
    };
    if opts.progress.now(out.stats.elapsed) {
        let calls = out.stats.solver.calls;
        let trust = opts.backend.trust();
        let what = match (P::TASK, out.ended, out.count) {
            (Task::Maximize, Ended::Proved, 0) => trust
                .note()
                .map_or("proved unsolvable".into(), |n| format!("unsolvable ({n})")),
            (Task::Maximize, Ended::Proved, _) => trust
                .note()
                .map_or("proved optimal".into(), |n| format!("optimal ({n})")),
            (Task::Maximize, _, 0) => "time limit: no answer found".to_string(),
            (Task::Maximize, _, _) => match out
                .answers
                .last()
                .and_then(|(_, c)| gap::<P>(&P::score(c), out.upper_bound))
            {
                Some(g) => format!("time limit: best found, not proved; {}", g.text(trust)),
                None => "time limit: best found, not proved".to_string(),
            },
            (Task::Enumerate, _, n) => format!("{n} solutions found"),
        };
        let race = match (members.len(), winner) {
            (1, _) => String::new(),
            (_, Some(_)) => format!(
                "; {} answered first, {calls_all} call{} in all",
                members[pick].name(),
                plural(calls_all)
            ),
            (_, None) => format!("; {calls_all} call{} in all", plural(calls_all)),
        };
        eprintln!(
            "[{:8.3}s] {what} after {calls} SAT call{}{race}",
            out.stats.elapsed.as_secs_f64(),
            if calls == 1 { "" } else { "s" }
        );
    }
    Ok(out)
}

/// [`fits_search`] under the time limit: `Ok(false)` when the limit passed first (see
/// [`within`]).
fn fits_within<P: Genre>(inst: &P::Instance, limit: Option<Duration>) -> Result<bool, SolverError> {
    let inst = inst.clone();
    match within(limit, move || fits_search::<P>(&inst)) {
        Some(fits) => fits.map(|()| true),
        None => Ok(false),
    }
}

/// `work`'s result, or `None` when `limit` passes first. For the size estimates, which count
/// the whole formula without looking at a clock (seconds on a one-room 200×200 LITS board): the
/// work runs in a thread of its own ([`leftover`]), left to end with the process once the limit
/// has passed (a collection's next puzzle waits for it: [`settle`]).
pub fn within<R: Send + 'static>(
    limit: Option<Duration>,
    work: impl FnOnce() -> R + Send + 'static,
) -> Option<R> {
    let Some(limit) = limit else {
        return Some(work());
    };
    if limit.is_zero() {
        return None;
    }
    let (tx, rx) = mpsc::channel();
    let worker = leftover(move || {
        let _ = tx.send(work());
    });
    match rx.recv_timeout(limit) {
        Ok(r) => Some(r),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the work sends before it ends"),
        },
    }
}

/// A thread a run may leave behind when its limit passes (an estimate, `explain`'s work),
/// counted until it ends, however it ends, for [`settle`].
pub fn leftover(work: impl FnOnce() + Send + 'static) -> std::thread::JoinHandle<()> {
    let alive = Worker::counted(&LEFTOVERS);
    std::thread::spawn(move || {
        let _alive = alive;
        work();
    })
}

/// Waits until every thread a finished run left behind has ended: [`leftover`]s, and search
/// workers given up on while they encoded a large board. A collection calls it between
/// puzzles, before the next one's clock starts, so that each puzzle has its whole limit to
/// itself (not shared with the last one's leftovers) and the collection holds one puzzle's
/// memory at a time. What it waits for ends on its own: estimates and encodings look at no
/// clock but end, and every solver call returns once stopped.
pub fn settle() {
    while LEFTOVERS.load(Ordering::SeqCst) > 0 || workers() > 0 {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// [`leftover`] threads alive.
static LEFTOVERS: AtomicUsize = AtomicUsize::new(0);

/// `solve --cubes`: the search as [`search`] runs it for up to `split.after`; if that does
/// not end it, the search runs again once per cube, on the lead backend (see
/// [`cubes::conquer`]), and what the first one found counts with theirs. The same deadline
/// covers both.
pub fn search_in_cubes<P: Genre>(
    inst: P::Instance,
    goal: Goal,
    keep: usize,
    opts: &Options,
    split: Cubes,
) -> Result<Outcome<P>, SolverError> {
    let start = Instant::now();
    let first = Options {
        time_limit: Some(opts.time_limit.map_or(split.after, |t| t.min(split.after))),
        cubes: None,
        ..opts.clone()
    };
    // Every answer found is kept: the cubes count them with theirs, or beat the best.
    let all = match goal {
        Goal::Best => 1,
        Goal::Enumerate { max } => usize::try_from(max).unwrap_or(usize::MAX),
    };
    // No time for a first search: the cubes at once.
    let mut out = match split.after.is_zero() {
        true => Outcome {
            answers: Vec::new(),
            count: 0,
            ended: Ended::Stopped,
            abandoned: false,
            upper_bound: None,
            stats: Stats::default(),
            cubes: None,
        },
        false => search::<P>(inst.clone(), goal, all, &first)?,
    };
    let timed_out = opts.time_limit.is_some_and(|t| start.elapsed() >= t);
    // A first search still busy past its grace (encoding a large board) is left to end with the
    // process: the cubes go on without it.
    if out.ended != Ended::Stopped || timed_out {
        out.answers
            .truncate(keep.max(usize::from(goal == Goal::Best)));
        return Ok(out);
    }
    if opts.progress.now(start.elapsed()) {
        eprintln!(
            "[{:8.3}s] the first search ends here: what it leaves goes into {} cubes on {} thread{}",
            start.elapsed().as_secs_f64(),
            split.n,
            split.threads,
            if split.threads == 1 { "" } else { "s" }
        );
    }
    out.abandoned = false;
    let lead = opts.backend.lead().clone();
    let stop = Stop::new();
    let (tx, rx) = mpsc::channel::<(usize, Msg<P>)>();
    let worker = Worker::start();
    let known = out.answers.clone();
    let done = {
        let (inst, stop, lead) = (inst.clone(), stop.clone(), lead.clone());
        std::thread::spawn(move || {
            let _worker = worker;
            let solvers = lead.solvers(stop);
            let mut reporter = Reporter(tx, 0);
            let (result, report) = match cubes::conquer::<P>(
                &inst,
                goal,
                known,
                &solvers,
                split.threads,
                split.n,
                &mut reporter,
            ) {
                Ok((e, r)) => (Ok(e), Some(r)),
                Err(e) => (Err(e), None),
            };
            let _ = reporter.0.send((0, Msg::Cubes(report)));
            let _ = reporter.0.send((0, Msg::Done(result)));
        })
    };
    let mut ended = None;
    let mut report = None;
    let mut solver = SolverStats::default();
    let mut last_said = Duration::ZERO;
    receive(&rx, start, opts, std::slice::from_ref(&stop), |_, msg| {
        match msg {
            Msg::Found(answer, checked) => {
                // The cubes start over: what the first search found already is no news.
                let news = match goal {
                    Goal::Best => out
                        .answers
                        .last()
                        .is_none_or(|(_, c)| P::score(&checked) > P::score(c)),
                    Goal::Enumerate { .. } => !out.answers.iter().any(|(a, _)| *a == answer),
                };
                if !news {
                    return false;
                }
                out.count += 1;
                let elapsed = start.elapsed();
                if goal == Goal::Best {
                    if opts.progress.now(elapsed) {
                        last_said = elapsed;
                        eprintln!(
                            "[{:8.3}s] score {} in a cube",
                            elapsed.as_secs_f64(),
                            P::score(&checked)
                        );
                    }
                    out.answers.clear();
                }
                out.answers.push((answer, checked));
            }
            Msg::Stats(s) => solver = s,
            Msg::Tick => {
                let elapsed = start.elapsed();
                if opts.progress.now(elapsed) && elapsed >= last_said + HEARTBEAT * 5 {
                    last_said = elapsed;
                    eprintln!(
                        "[{:8.3}s] cubes at work, {} SAT calls done",
                        elapsed.as_secs_f64(),
                        solver.calls
                    );
                }
            }
            Msg::Cubes(r) => report = r,
            Msg::Done(r) => ended = Some(r),
            _ => {}
        }
        ended.is_some()
    })?;
    // The cube threads end at once when stopped; the split itself may take a moment more.
    if ended.is_some() {
        let _ = done.join();
    }
    out.ended = match ended {
        Some(r) => r?,
        None => {
            out.abandoned = true;
            Ended::Stopped
        }
    };
    out.answers
        .truncate(keep.max(usize::from(goal == Goal::Best)));
    out.stats.backend = lead.name();
    out.stats.solver = solver;
    out.stats.elapsed = start.elapsed();
    if let (Some(r), true) = (&report, opts.progress.now(out.stats.elapsed)) {
        let (sum, longest) = r.sum_and_longest();
        let settled = r.times.iter().flatten().count();
        eprintln!(
            "[{:8.3}s] {settled} of {} cubes settled (split in {:.2} s): {:.2} s in all, the longest {:.2} s",
            out.stats.elapsed.as_secs_f64(),
            r.cubes.len(),
            r.split.as_secs_f64(),
            sum.as_secs_f64(),
            longest.as_secs_f64()
        );
    }
    out.cubes = report;
    Ok(out)
}

/// The member that got furthest among those `among` admits (at least one): the best score
/// found (a scoring puzzle) or the most answers; on a tie the first, so that a deadline picks
/// the same way every time.
fn leader<P: Genre>(tracks: &[Track<P>], among: impl Fn(&Track<P>) -> bool) -> usize {
    let mut lead = tracks.iter().position(&among).unwrap_or(0);
    for (k, t) in tracks.iter().enumerate().skip(lead + 1) {
        if !among(t) {
            continue;
        }
        let better = match P::TASK {
            Task::Maximize => match (t.answers.last(), tracks[lead].answers.last()) {
                (Some((_, a)), Some((_, b))) => P::score(a) > P::score(b),
                (a, b) => a.is_some() && b.is_none(),
            },
            Task::Enumerate => t.count > tracks[lead].count,
        };
        if better {
            lead = k;
        }
    }
    lead
}

/// What is left between the best score and the best proved upper bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gap {
    /// No answer scores more than this (rounded up to an integer, so still a bound).
    pub bound: f64,
    /// How far the bound is above the best, in percent (rounded up to a tenth).
    pub percent: f64,
}

impl Gap {
    /// The bound rests on UNSAT answers: worded as `trust` allows.
    pub fn text(&self, trust: Trust) -> String {
        match trust.note() {
            None => format!(
                "proved upper bound {:.0} ({:.1}% above the best found)",
                self.bound, self.percent
            ),
            Some(note) => format!(
                "upper bound {:.0} ({note}; {:.1}% above the best found)",
                self.bound, self.percent
            ),
        }
    }
}

/// The gap from `best` up to `bound`, for a puzzle whose scores have a numeric value.
pub fn gap<P: Genre>(best: &P::Score, bound: Option<f64>) -> Option<Gap> {
    let (bound, best) = (bound?.ceil(), P::score_value(best)?);
    let percent = if best > 0.0 {
        (1000.0 * (bound / best - 1.0)).ceil().max(0.0) / 10.0
    } else {
        f64::INFINITY
    };
    Some(Gap { bound, percent })
}

pub use encodings::genre::{fits, fits_search};

/// The backend that generates for `backend`: a portfolio's varisat (see [`generate`]).
pub fn generating(backend: &Backend) -> Backend {
    match backend {
        Backend::Portfolio(_) => Backend::Varisat,
        one => one.clone(),
    }
}

/// Runs `P::generate` (with `graded`, a level and the tries allowed,
/// [`encodings::graded::generate`]) under the options' backend and time limit: the puzzle text
/// and the answer it was made around, or `None` when the deadline passed first. A generator's
/// choices follow its solver's models, so a portfolio does not race here: varisat generates,
/// which every build has, and a seed makes the same puzzle in every build.
pub fn generate<P: Genre>(
    spec: GenerateSpec,
    graded: Option<(Level, usize)>,
    opts: &Options,
) -> Result<Option<Made<P::Answer>>, String> {
    let start = Instant::now();
    let stop = Stop::new();
    let solvers = generating(&opts.backend).solvers(stop.clone());
    let (tx, rx) = mpsc::channel::<(usize, Msg<P>)>();
    let worker = Worker::start();
    std::thread::spawn(move || {
        let _worker = worker;
        let note_tx = tx.clone();
        let mut note = |s: String| {
            let _ = note_tx.send((0, Msg::Note(s)));
        };
        let result = match graded {
            None => P::generate(&spec, &solvers, &mut note),
            Some((level, tries)) => {
                encodings::graded::generate::<P>(&spec, level, tries, &solvers, &mut note)
            }
        };
        let _ = tx.send((0, Msg::Generated(result)));
    });
    let mut made = None;
    receive(&rx, start, opts, &[stop], |_, msg| match msg {
        Msg::Note(s) => {
            if opts.progress.now(start.elapsed()) {
                eprintln!("{s}");
            }
            false
        }
        Msg::Generated(r) => {
            made = Some(r);
            true
        }
        _ => false,
    })
    .map_err(|e| e.to_string())?;
    made.unwrap_or(Ok(None))
}

/// Runs `P::hints` on `found` (an answer of `inst`) under the options' backend and what is
/// left of the time limit counted from `start`: `None` when it passed first. A portfolio's
/// members race as a team: what every answer shares is the same whoever finds it, and each
/// member's drops and refutations are the others' too.
pub fn hints<P: Genre>(
    inst: P::Instance,
    found: (P::Answer, P::Checked),
    opts: &Options,
    start: Instant,
) -> Result<Option<Hints<P::Answer>>, SolverError> {
    let members = opts.backend.members();
    let stops: Vec<Stop> = members.iter().map(|_| Stop::new()).collect();
    let (tx, rx) = mpsc::channel::<(usize, Msg<P>)>();
    // The members share what they drop and prove: each refutes what the others have not yet.
    let team = Arc::new(Team::new());
    for (k, member) in members.iter().enumerate() {
        let solvers = member.solvers(stops[k].clone()).on_team(team.clone());
        let (inst, found, tx) = (inst.clone(), found.clone(), tx.clone());
        let worker = Worker::start();
        std::thread::spawn(move || {
            let _worker = worker;
            let _ = tx.send((k, Msg::Hinted(P::hints(&inst, &found, &solvers))));
        });
    }
    drop(tx);
    type Hinted<A> = Result<Option<Hints<A>>, SolverError>;
    let mut results: Vec<Option<Hinted<P::Answer>>> = members.iter().map(|_| None).collect();
    let mut winner = None;
    receive(&rx, start, opts, &stops, |k, msg| {
        if let Msg::Hinted(r) = msg {
            if matches!(r, Ok(Some(_))) {
                winner = Some(k);
            }
            results[k] = Some(r);
        }
        winner.is_some() || results.iter().all(Option::is_some)
    })?;
    if let Some(w) = winner {
        return results[w].take().expect("the winner's result");
    }
    // No member finished: the deadline, or errors (the first member's is reported).
    match results.into_iter().flatten().find(Result::is_err) {
        Some(e) => e,
        None => Ok(None),
    }
}

/// Passes the workers' messages to `on` with the sender's place in the race, in the order
/// each sent them and none ever dropped, until `on` says the run is over (then the other
/// workers are stopped) or the run gives up waiting for them.
///
/// The one rule for a deadline: it raises every worker's stop flag, and their last messages are
/// still taken if they come. Every backend ends a running call when the flag is raised, so the
/// workers get [`GRACE`] to send them; after that, what they have already sent is taken. A
/// search that finished is reported in full even when it finished after the deadline: its
/// verdict rests on the solver's answers, and an interrupted call never answers UNSAT. A search
/// that saw the flag reports itself stopped; one given up on is reported as stopped with every
/// answer it had sent.
fn receive<P: Genre>(
    rx: &Receiver<(usize, Msg<P>)>,
    start: Instant,
    opts: &Options,
    stops: &[Stop],
    mut on: impl FnMut(usize, Msg<P>) -> bool,
) -> Result<(), SolverError> {
    // A limit past what the clock can count is no limit.
    let mut deadline = opts.time_limit.and_then(|t| start.checked_add(t));
    let mut stopped = false;
    let ticking = opts.progress != Progress::Never;
    let stop_all = || stops.iter().for_each(Stop::raise);
    loop {
        // Wake for the heartbeat too; a tick before the deadline is not the deadline.
        let tick = (ticking && !stopped)
            .then(|| Instant::now() + HEARTBEAT)
            .filter(|t| deadline.is_none_or(|d| *t < d));
        let wake = tick.or(deadline);
        let received = match wake {
            Some(w) => rx.recv_timeout(w.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok((k, m)) => {
                if on(k, m) {
                    // The losers of a race return at once from their calls and end unheard.
                    stop_all();
                    return Ok(());
                }
            }
            Err(RecvTimeoutError::Disconnected) => return Err(died()),
            Err(RecvTimeoutError::Timeout) if tick.is_some() => {
                on(0, Msg::Tick);
            }
            Err(RecvTimeoutError::Timeout) => {
                stop_all();
                if stopped {
                    return drain(rx, &mut on);
                }
                // The workers' solvers return at once: wait for their last words.
                stopped = true;
                deadline = Some(Instant::now() + GRACE);
            }
        }
    }
}

/// What the workers have sent already, when the run gives up waiting for them.
fn drain<P: Genre>(
    rx: &Receiver<(usize, Msg<P>)>,
    on: &mut impl FnMut(usize, Msg<P>) -> bool,
) -> Result<(), SolverError> {
    loop {
        match rx.try_recv() {
            Ok((k, m)) => {
                if on(k, m) {
                    return Ok(());
                }
            }
            Err(mpsc::TryRecvError::Empty) => return Ok(()),
            Err(mpsc::TryRecvError::Disconnected) => return Err(died()),
        }
    }
}

/// The worker's silence must never be taken for a finished search: "finished" is what proofs
/// are made of.
fn died() -> SolverError {
    SolverError("internal error: the solver thread stopped without finishing".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use encodings::capability;
    use encodings::cnf::amo::at_most_one;
    use encodings::cnf::sum::{encode_sum, Bound, SumOutputs, Use};
    use encodings::cnf::{ClauseSink, Lit, Model};
    use encodings::format::error::ParseError;
    use encodings::puzzle::{Format, Info, Puzzle, ReadAnswer, Settings};
    use encodings::search::{self, Tighten};
    use encodings::solver::NewSolver;
    use serde_json::{Map, Value};

    /// Maximise the number of true variables among `n`, where some pairs exclude each other;
    /// `stall` makes every call after the first wait, to test the time limit.
    #[derive(Clone)]
    struct Toy {
        n: usize,
        exclusive: Vec<(usize, usize)>,
        stall: Option<Duration>,
        /// The rules demand x and ¬x: no answer at all.
        clash: bool,
    }

    struct ToyPuzzle;

    encodings::declare! {
        ToyPuzzle: Scoring Estimate Searches;
    }

    impl Puzzle for ToyPuzzle {
        const INFO: Info = Info {
            name: "toy",
            about: "a test",
            ..Info::DEFAULT
        };
        type Instance = Toy;
        type Answer = Vec<bool>;
        type Checked = usize;
        type Encoding = (Vec<Lit>, SumOutputs);

        fn parse(_: &str, _: &Settings) -> Result<Toy, ParseError> {
            unreachable!()
        }

        fn block<S: ClauseSink>(
            _: &Toy,
            enc: &Self::Encoding,
            sink: &mut S,
            answers: &[Vec<bool>],
        ) {
            for a in answers {
                let clause: Vec<Lit> = enc
                    .0
                    .iter()
                    .zip(a)
                    .map(|(&l, &v)| if v { !l } else { l })
                    .collect();
                sink.add_clause(&clause);
            }
        }

        fn encode<S: ClauseSink>(t: &Toy, sink: &mut S) -> Self::Encoding {
            let x: Vec<Lit> = (0..t.n).map(|_| sink.new_var()).collect();
            for &(a, b) in &t.exclusive {
                at_most_one(sink, &[x[a], x[b]]);
            }
            if t.clash {
                sink.add_clause(&[x[0]]);
                sink.add_clause(&[!x[0]]);
            }
            let groups: Vec<Vec<(Lit, u64)>> = x.iter().map(|&l| vec![(l, 1)]).collect();
            let sum = encode_sum(sink, &groups, None, Use::AtLeast);
            (x, sum)
        }

        fn decode(_: &Toy, enc: &Self::Encoding, model: &Model) -> Vec<bool> {
            enc.0.iter().map(|&l| model.value(l)).collect()
        }

        fn check(t: &Toy, a: &Vec<bool>) -> Result<usize, String> {
            match t.exclusive.iter().find(|&&(i, j)| a[i] && a[j]) {
                Some(&(i, j)) => Err(format!("{i} and {j} both chosen")),
                None => Ok(a.iter().filter(|&&b| b).count()),
            }
        }

        fn read_answer(_: &Toy, _: &str) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
            unreachable!()
        }

        fn render(_: &Toy, _: &Vec<bool>, _: &usize, _: Format) -> String {
            String::new()
        }

        fn svg(_: &Toy, _: &[(&Vec<bool>, &usize)], _: &str) -> String {
            String::new()
        }

        fn answer_json(_: &Toy, _: &Vec<bool>, _: &usize) -> Map<String, Value> {
            Map::new()
        }
    }

    impl capability::Scoring for ToyPuzzle {
        type Score = usize;

        fn score(&s: &usize) -> usize {
            s
        }

        fn score_value(&s: &usize) -> Option<f64> {
            Some(s as f64)
        }

        fn better_than<S: ClauseSink>(
            _: &Toy,
            enc: &Self::Encoding,
            sink: &mut S,
            &score: &usize,
            _: &[Value],
        ) -> Result<(), String> {
            match enc.1.at_least(score as u64 + 1) {
                Bound::Trivial => {}
                Bound::Impossible => sink.add_clause(&[]),
                Bound::Lit(l) => sink.add_clause(&[l]),
            }
            Ok(())
        }

        fn describe_valid(_: &Toy, _: &Vec<bool>, _: &usize, _: bool) -> String {
            String::new()
        }

        fn dimacs_comments(_: &Toy, _: &str) -> Vec<String> {
            Vec::new()
        }
    }

    impl capability::Estimate for ToyPuzzle {
        fn estimate(t: &Toy, _: u64) -> u64 {
            t.n as u64 * 10
        }
    }

    impl capability::Searches for ToyPuzzle {
        fn search(
            t: &Toy,
            _: Goal,
            solvers: &dyn NewSolver,
            out: &mut dyn Observer<Self>,
        ) -> Result<Ended, SolverError> {
            // No answer chooses more than all n: a proved bound, as a log-scale search reports them.
            out.upper_bound(t.n as f64);
            let mut solver = solvers.new_solver();
            search::maximize::<Self, _, _>(
                t,
                &mut solver,
                out,
                |&s| s,
                |enc, sink, best, _| {
                    if let Some(d) = t.stall {
                        std::thread::sleep(d);
                    }
                    Ok(match enc.1.at_least(*best as u64 + 1) {
                        Bound::Trivial => Tighten::Added,
                        Bound::Impossible => Tighten::Exhausted,
                        Bound::Lit(l) => {
                            sink.add_clause(&[l]);
                            Tighten::Added
                        }
                    })
                },
            )
        }
    }

    fn quiet() -> Options {
        Options {
            backend: Backend::Varisat,
            time_limit: None,
            progress: Progress::Never,
            cubes: None,
        }
    }

    #[test]
    fn proves_the_optimum_with_a_final_unsat_call() {
        // A 5-cycle of exclusions: at most 2 of 5.
        let toy = Toy {
            n: 5,
            exclusive: vec![(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)],
            stall: None,
            clash: false,
        };
        let out = search::<ToyPuzzle>(toy, Goal::Best, 1, &quiet()).unwrap();
        assert_eq!(out.ended, Ended::Proved);
        let (chosen, score) = out.best().unwrap();
        assert_eq!(*score, 2);
        assert!((0..5).all(|i| !(chosen[i] && chosen[(i + 1) % 5])));
        assert!(
            out.stats.solver.calls >= 2,
            "the last call refutes a better score"
        );
    }

    #[test]
    fn stops_without_a_call_when_no_better_score_exists() {
        let toy = Toy {
            n: 3,
            exclusive: vec![],
            stall: None,
            clash: false,
        };
        let out = search::<ToyPuzzle>(toy, Goal::Best, 1, &quiet()).unwrap();
        assert_eq!(
            (out.ended, out.best().map(|b| b.1)),
            (Ended::Proved, Some(3))
        );
        assert_eq!(
            u64::from(out.stats.solver.calls),
            out.count,
            "every call found a better answer: no refuting call"
        );
    }

    #[test]
    fn reports_no_solution() {
        let toy = Toy {
            n: 2,
            exclusive: vec![],
            stall: None,
            clash: true,
        };
        let out = search::<ToyPuzzle>(toy, Goal::Best, 1, &quiet()).unwrap();
        assert_eq!(out.ended, Ended::Proved);
        assert!(out.best().is_none());
    }

    #[test]
    fn the_time_limit_returns_the_best_found_unproved() {
        let toy = Toy {
            n: 6,
            exclusive: vec![(0, 1)],
            stall: Some(Duration::from_secs(30)),
            clash: false,
        };
        let opts = Options {
            time_limit: Some(Duration::from_millis(300)),
            ..quiet()
        };
        let started = Instant::now();
        let out = search::<ToyPuzzle>(toy, Goal::Best, 1, &opts).unwrap();
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "returned at the deadline, not after the stall"
        );
        assert_eq!(out.ended, Ended::Stopped);
        let best = out.best().unwrap().1;
        assert_eq!(out.upper_bound, Some(6.0));
        let g = gap::<ToyPuzzle>(&best, out.upper_bound).unwrap();
        assert_eq!(g.bound, 6.0);
        assert_eq!(
            g.percent,
            (1000.0 * (6.0 / best as f64 - 1.0)).ceil() / 10.0
        );
    }

    #[test]
    fn the_gap_rounds_up_so_it_stays_a_bound() {
        let g = gap::<ToyPuzzle>(&100, Some(120.2)).unwrap();
        assert_eq!((g.bound, g.percent), (121.0, 21.0));
        let g = gap::<ToyPuzzle>(&3, Some(4.0)).unwrap();
        assert_eq!((g.bound, g.percent), (4.0, 33.4));
        assert_eq!(gap::<ToyPuzzle>(&3, Some(3.0)).unwrap().percent, 0.0);
        assert_eq!(gap::<ToyPuzzle>(&3, None), None);
        assert!(
            g.text(Trust::Embedded)
                .contains("proved upper bound 4 (33.4% above the best found)"),
            "{}",
            g.text(Trust::Embedded)
        );
        assert_eq!(
            g.text(Trust::Unchecked),
            "upper bound 4 (per the external solver; unchecked; 33.4% above the best found)"
        );
    }
}
