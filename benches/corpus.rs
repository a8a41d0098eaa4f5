//! The benchmark harness: `cargo bench --bench corpus [-- FILTER]`.
//!
//! For every bundled case it prints the in-process time (median of several runs), the SAT calls,
//! the CNF size and the answer; then it runs the official cases as separate processes of the
//! release binary, as a judge would, and prints their total wall and CPU time.

use encodings::target_sudoku::{self as ts, TargetSudoku};
use puzzle_sat::optimize::{maximize, Options, Progress, Status};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const REPEATS: usize = 5;
const PROCESS_ROUNDS: usize = 10;

fn main() {
    // `cargo bench` passes `--bench`; anything else is a name filter.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");

    if wanted("target-sudoku") {
        let official = cases(&root.join("target-sudoku"));
        let low = cases(&root.join("target-sudoku-low"));
        println!("target sudoku, in process (median of {REPEATS} runs)");
        println!("{:<24} {:>9} {:>6} {:>6} {:>8} {:>7}  {}", "case", "ms", "calls", "vars", "clauses", "score", "status");
        let mut total = Duration::ZERO;
        for case in official.iter().chain(&low) {
            total += sudoku_case(case);
        }
        println!("{:<24} {:>9.2}\n", "total", ms(total));
        processes(&official);
    }
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    v.sort();
    v
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn sudoku_case(case: &Path) -> Duration {
    let givens = ts::parse(&std::fs::read_to_string(case).unwrap()).unwrap();
    let opts = Options { time_limit: None, progress: Progress::Never };
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..REPEATS {
        let start = Instant::now();
        let out = maximize(TargetSudoku { givens }, &opts);
        times.push(start.elapsed());
        last = Some(out);
    }
    times.sort();
    let median = times[REPEATS / 2];
    let out = last.unwrap();
    let score = out.best.as_ref().map_or("-1".to_string(), |b| b.1.to_string());
    let status = match out.status {
        Status::Optimal => "optimal (proved)",
        Status::NoSolution => "no solution (proved)",
        _ => "unfinished",
    };
    let name = case.file_stem().unwrap().to_string_lossy();
    let s = out.stats;
    println!("{name:<24} {:>9.2} {:>6} {:>6} {:>8} {score:>7}  {status}", ms(median), s.sat_calls, s.vars, s.clauses);
    median
}

/// CPU time of waited-for children so far.
fn children_cpu() -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn processes(cases: &[PathBuf]) {
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let cpu0 = children_cpu();
    let wall0 = Instant::now();
    for _ in 0..PROCESS_ROUNDS {
        for case in cases {
            let out = Command::new(bin).args(["solve", "target-sudoku"]).arg(case).args(["--format", "judge"]).output().unwrap();
            assert!(out.status.success());
        }
    }
    let cpu = (children_cpu() - cpu0) / PROCESS_ROUNDS as u32;
    let wall = wall0.elapsed() / PROCESS_ROUNDS as u32;
    println!(
        "target sudoku, {} official cases as separate processes (mean of {PROCESS_ROUNDS} rounds): {:.1} ms CPU, {:.1} ms wall",
        cases.len(),
        ms(cpu),
        ms(wall)
    );
}
