//! The claim audit: every mode that makes a claim, run hundreds of times under random tiny time
//! limits (from nothing to a few times the run's own length) on both built-in backends, must
//! claim only what is true of its input and never end in an error. A deadline that falls while
//! the worker is reporting is where a runner loses an answer or believes a stale verdict, so
//! the limits are spread around each run's own timeline.
//!
//! The runs are in process (the driver's commands, as `main` calls them), so hundreds take
//! seconds; `CLAIMS_RUNS=N` sets how many per mode and backend (default 40).

mod common;

use common::data_dir;
use encodings::genre::Genre;
use encodings::genres::kakkuro::Kakkuro;
use encodings::genres::target_sudoku::TargetSudoku;
use encodings::genres::tatamibari::generate::Rng;
use encodings::genres::tatamibari::Tatamibari;
use puzzle_sat::backends::Backend;
use puzzle_sat::driver::{self, GenerateArgs, SolveArgs};
use puzzle_sat::output::{exit, Done};
use puzzle_sat::runner::{Cubes, Progress};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Each backend alone, the default portfolio racing them, and its lead backend in cubes
/// (`--cubes 4 --cubes-after 0`: the searches per cube, at once).
fn backends() -> Vec<Setup> {
    vec![
        Setup(Backend::Varisat, None),
        #[cfg(feature = "cadical")]
        Setup(Backend::Cadical, None),
        Setup(Backend::default(), None),
        Setup(
            Backend::default(),
            Some(Cubes {
                n: 4,
                threads: 2,
                after: Duration::ZERO,
            }),
        ),
    ]
}

/// A backend, and how it splits into cubes.
struct Setup(Backend, Option<Cubes>);

impl Setup {
    fn name(&self) -> String {
        match self.1 {
            None => self.0.name().to_string(),
            Some(c) => format!("{} in {} cubes", self.0.name(), c.n),
        }
    }
}

fn runs() -> usize {
    std::env::var("CLAIMS_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40)
}

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn json(done: &Done) -> Value {
    serde_json::from_str(&done.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", done.stdout))
}

/// Runs `one(limit)` once without a limit (the reference, timed), then `runs()` times under
/// limits drawn from (0, 3 × the reference's time]; `audit(reference, limited, limit)` checks
/// each limited run. An error from any run fails the test.
fn hammer<F, A>(what: &str, seed: u64, one: F, audit: A)
where
    F: Fn(Option<Duration>) -> anyhow::Result<Done>,
    A: Fn(&Done, &Done, Duration),
{
    let started = Instant::now();
    let reference = one(None).unwrap_or_else(|e| panic!("{what}: {e:#}"));
    let own = started.elapsed().max(Duration::from_micros(50));
    let mut rng = Rng::new(seed);
    for _ in 0..runs() {
        let nanos = own.as_nanos() as usize * 3;
        let limit = Duration::from_nanos(1 + rng.below(nanos) as u64);
        let done = one(Some(limit)).unwrap_or_else(|e| panic!("{what} under {limit:?}: {e:#}"));
        audit(&reference, &done, limit);
    }
}

fn solve_args(file: PathBuf, setup: &Setup, limit: Option<Duration>) -> SolveArgs {
    SolveArgs {
        file,
        format: encodings::puzzle::Format::Json,
        time_limit: limit,
        progress: Progress::Never,
        backend: setup.0.clone(),
        cubes: setup.1,
        ..SolveArgs::default()
    }
}

/// A score as written in JSON (an exact string, or a number).
fn score(v: &Value) -> Option<String> {
    match &v["score"] {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// An optimisation: "optimal" only with the known optimum, never "no_solution"; a best found
/// is an answer (re-checked by the driver) and exits 0.
fn audit_optimum<P: Genre>(file: &str, optimum: &str, seed: u64) {
    for backend in backends() {
        let what = format!("solve {} {file} on {}", P::INFO.name, backend.name());
        hammer(
            &what,
            seed,
            |limit| driver::solve::<P>(&solve_args(root(file), &backend, limit)),
            |reference, done, limit| {
                let (r, v) = (json(reference), json(done));
                assert_eq!(
                    (r["status"].as_str(), score(&r).as_deref()),
                    (Some("optimal"), Some(optimum)),
                    "{what}: the reference"
                );
                match v["status"].as_str() {
                    Some("optimal") => assert_eq!(
                        score(&v).as_deref(),
                        Some(optimum),
                        "{what} under {limit:?} claims another optimum"
                    ),
                    Some("best_found") => assert!(
                        score(&v).is_some() && done.code == exit::ANSWER,
                        "{what} under {limit:?}: {v}"
                    ),
                    Some("unknown") => {
                        assert_eq!(done.code, exit::TIME_LIMIT, "{what} under {limit:?}")
                    }
                    s => panic!("{what} under {limit:?} claims {s:?}: {v}"),
                }
            },
        );
    }
}

#[test]
fn target_sudoku_optimum_is_claimed_only_when_proved() {
    audit_optimum::<TargetSudoku>("docs/examples/target-sudoku.txt", "2852", 1);
}

#[test]
fn kakkuro_optimum_is_claimed_only_when_proved() {
    audit_optimum::<Kakkuro>("docs/examples/kakkuro.txt", "427680", 2);
}

/// `--unique`, `--count`, a plain solve and `--hints` on boards whose answers are known: the
/// bundled example (unique), codegolf-7x7 (13 solutions) and a board with none.
#[test]
fn tatamibari_claims_are_true_under_any_deadline() {
    let example = root("docs/examples/tatamibari.txt");
    let thirteen = data_dir("tatamibari").join("codegolf-7x7.txt");
    let dir = tempfile::tempdir().unwrap();
    let none = dir.path().join("none.txt");
    std::fs::write(&none, "+.\n.+\n").unwrap();
    let solution = |v: &Value| v["rectangles"].clone();
    for backend in backends() {
        let b = backend.name();
        // Unique: the one solution, "unique" only when proved, never "not unique".
        let unique = |limit| {
            driver::solve::<Tatamibari>(&SolveArgs {
                unique: true,
                ..solve_args(example.clone(), &backend, limit)
            })
        };
        hammer(
            &format!("--unique on {b}"),
            3,
            unique,
            |reference, done, limit| {
                let (r, v) = (json(reference), json(done));
                assert_eq!(r["unique"], Value::Bool(true), "the example is unique");
                match v["status"].as_str() {
                    Some("solved") => {
                        assert_eq!(
                            solution(&v),
                            solution(&r),
                            "--unique on {b} under {limit:?}: another solution"
                        );
                        assert_ne!(
                            v["unique"],
                            Value::Bool(false),
                            "--unique on {b} under {limit:?} claims two solutions: {v}"
                        );
                        assert_eq!(done.code, exit::ANSWER);
                    }
                    Some("unknown") => assert_eq!(
                        (done.code, &v["unique"]),
                        (exit::TIME_LIMIT, &Value::Null),
                        "--unique on {b} under {limit:?}"
                    ),
                    s => panic!("--unique on {b} under {limit:?} claims {s:?}: {v}"),
                }
            },
        );
        // Counts: exact only when complete, never more than there are.
        for max in [1000, 13, 5] {
            let count = |limit| {
                driver::solve::<Tatamibari>(&SolveArgs {
                    count: Some(max),
                    ..solve_args(thirteen.clone(), &backend, limit)
                })
            };
            hammer(
                &format!("--count={max} on {b}"),
                4 + max,
                count,
                |reference, done, limit| {
                    let (r, v) = (json(reference), json(done));
                    let (n, complete) = (
                        v["solutions"].as_u64().unwrap(),
                        v["complete"].as_bool().unwrap(),
                    );
                    // One more call than the limit settles a count of exactly the limit.
                    let whole = if max >= 13 {
                        (13, true)
                    } else {
                        (max + 1, false)
                    };
                    assert_eq!(
                        (r["solutions"].as_u64(), r["complete"].as_bool()),
                        (Some(whole.0), Some(whole.1)),
                        "--count={max}: the reference"
                    );
                    assert!(
                        n <= whole.0,
                        "--count={max} on {b} under {limit:?} finds {n} solutions of 13"
                    );
                    if complete {
                        assert_eq!(
                            n, 13,
                            "--count={max} on {b} under {limit:?} claims {n} solutions in all"
                        );
                    }
                },
            );
        }
        // No solution: never a solution, "no_solution" or nothing.
        let nothing =
            |limit| driver::solve::<Tatamibari>(&solve_args(none.clone(), &backend, limit));
        hammer(
            &format!("no solution on {b}"),
            5,
            nothing,
            |reference, done, limit| {
                assert_eq!(json(reference)["status"], "no_solution");
                let v = json(done);
                assert!(
                    matches!(v["status"].as_str(), Some("no_solution" | "unknown")),
                    "on {b} under {limit:?}: {v}"
                );
            },
        );
    }
    audit_hints::<Tatamibari>("docs/examples/tatamibari.txt", 6);
}

/// `--hints`: all or nothing, and the same as without a limit.
fn audit_hints<P: Genre>(file: &str, seed: u64) {
    // --hints takes no cubes.
    for backend in backends().into_iter().filter(|s| s.1.is_none()) {
        let what = format!("{} --hints on {}", P::INFO.name, backend.name());
        let hints = |limit| {
            driver::solve::<P>(&SolveArgs {
                hints: true,
                ..solve_args(root(file), &backend, limit)
            })
        };
        hammer(&what, seed, hints, |reference, done, limit| {
            if done.code == exit::TIME_LIMIT {
                assert_eq!(done.stdout, "", "{what} under {limit:?}");
            } else {
                assert_eq!(
                    json(done)["hints"],
                    json(reference)["hints"],
                    "{what} under {limit:?}"
                );
            }
        });
    }
}

#[test]
fn target_sudoku_hints_are_all_or_nothing() {
    audit_hints::<TargetSudoku>("docs/examples/target-sudoku.txt", 7);
}

/// `generate --unique`: the same puzzle as without a limit (the seed decides it), or none.
#[test]
fn generated_unique_puzzles_are_the_seeds_or_none() {
    for Setup(backend, _) in backends().into_iter().filter(|s| s.1.is_none()) {
        let b = backend.name();
        let generate = |limit| {
            driver::generate::<Tatamibari>(
                &GenerateArgs {
                    rows: 8,
                    cols: 8,
                    seed: 3,
                    unique: true,
                    time_limit: limit,
                    json: true,
                    progress: Progress::Never,
                    backend: backend.clone(),
                    ..GenerateArgs::default()
                },
                puzzle_sat::explain::regrade::<Tatamibari>,
            )
        };
        hammer(
            &format!("generate --unique on {b}"),
            8,
            generate,
            |reference, done, limit| {
                let (r, v) = (json(reference), json(done));
                assert_eq!(r["unique"], Value::Bool(true));
                match done.code {
                    0 => assert_eq!(
                        (&v["text"], &v["unique"]),
                        (&r["text"], &Value::Bool(true)),
                        "generate on {b} under {limit:?}"
                    ),
                    c => assert_eq!(
                        (c, &v["text"], &v["unique"]),
                        (exit::TIME_LIMIT, &Value::Null, &Value::Null),
                        "generate on {b} under {limit:?}"
                    ),
                }
            },
        );
    }
}

/// `generate` prints a puzzle only once the answer it was made around passes the validator on
/// the printed text.
#[test]
fn a_generated_puzzle_needs_its_own_answer_valid() {
    use encodings::genres::tatamibari::generate::Generated;
    let g = Generated::new(6, 6, &mut Rng::new(1));
    let text = g.board().to_text();
    assert!(driver::generated::<Tatamibari>(&text, &g.solution()).is_ok());
    let mut wrong = g.solution();
    wrong.pop();
    let e = driver::generated::<Tatamibari>(&text, &wrong)
        .unwrap_err()
        .to_string();
    assert!(e.contains("own answer breaks a rule"), "{e}");
}
