//! The backend conformance suite: every backend (each built-in one, and Debian's `cadical` and
//! `minisat` through `--solver-cmd`, installed by `.ci/run`) must give the same proved optima,
//! counts and uniqueness verdicts on samples of every puzzle's corpus, checked against the
//! corpus's own answers. Then what a broken external solver gets: exit 2 and a clear message,
//! never an answer; and a time limit that really stops the solver.

mod common;

#[cfg(feature = "outside-tools")]
use common::{data_dir, expected};
use common::{json_field, run};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The backends as command-line arguments, with a name for messages.
#[cfg(feature = "outside-tools")]
fn backends() -> Vec<(String, Vec<String>)> {
    let mut all: Vec<(String, Vec<String>)> = common::backends()
        .iter()
        .map(|b| {
            (
                b.name().to_string(),
                vec!["--solver".to_string(), b.name().to_string()],
            )
        })
        .collect();
    // The last: CaDiCaL's UNSAT answers each with a DRAT proof, checked by rate.
    for cmd in ["cadical", "minisat {cnf} {out}", "cadical {cnf} {proof}"] {
        let program = cmd.split(' ').next().unwrap();
        assert!(
            std::process::Command::new("sh")
                .args(["-c", &format!("command -v {program}")])
                .output()
                .unwrap()
                .status
                .success(),
            "{program} is not installed: run .ci/run (it installs Debian's cadical and minisat)"
        );
        all.push((
            format!("--solver-cmd {cmd}"),
            vec!["--solver-cmd".to_string(), cmd.to_string()],
        ));
    }
    all
}

#[cfg(feature = "outside-tools")]
fn solve(puzzle: &str, file: &Path, extra: &[&str], backend: &[String]) -> common::Run {
    let mut args: Vec<&str> = vec!["solve", puzzle, file.to_str().unwrap(), "--format", "json"];
    args.extend(extra);
    args.extend(backend.iter().map(String::as_str));
    run(&args, None)
}

#[cfg(feature = "outside-tools")]
#[test]
fn target_sudoku_optima_agree_on_every_backend() {
    // Case 01 has no completion (its expected answer is -1).
    let cases = ["noip2009-01", "noip2009-06", "sample-1"];
    for (name, backend) in backends() {
        for case in cases {
            let path = data_dir("target-sudoku").join(format!("{case}.in"));
            let r = solve("target-sudoku", &path, &[], &backend);
            let best = expected(&path).trim().to_string();
            let (code, status, score) = if best == "-1" {
                (1, "no_solution", "null")
            } else {
                (0, "optimal", best.as_str())
            };
            assert_eq!(r.code, code, "{case} on {name}: {}", r.stderr);
            assert_eq!(
                json_field(&r.stdout, "status"),
                format!("\"{status}\""),
                "{case} on {name}"
            );
            assert_eq!(json_field(&r.stdout, "score"), score, "{case} on {name}");
            // The backend that answered: a portfolio names the member that won its race.
            let said = json_field(&r.stdout, "backend");
            let expected: Vec<String> = if name.starts_with("--") {
                vec!["command".into()]
            } else if name == "portfolio" {
                puzzle_sat::backends::Backend::default()
                    .members()
                    .iter()
                    .map(|m| m.name().to_string())
                    .collect()
            } else {
                vec![name.clone()]
            };
            assert!(
                expected.iter().any(|e| said == format!("\"{e}\"")),
                "{case} on {name}: {said}"
            );
        }
        // An unsolvable grid (two 5s in the first row) is proved so on every backend.
        let clash = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(clash.path(), format!("55{}\n", "0".repeat(79))).unwrap();
        let r = solve("target-sudoku", clash.path(), &[], &backend);
        assert_eq!(
            (r.code, json_field(&r.stdout, "status").as_str()),
            (1, "\"no_solution\""),
            "{name}: {}",
            r.stderr
        );
    }
}

#[cfg(feature = "outside-tools")]
#[test]
fn tatamibari_counts_and_uniqueness_agree_on_every_backend() {
    // (puzzle, solutions): unique, two, thirteen, and a gadget without any.
    let cases = [
        ("codegolf-10x10", 1),
        ("codegolf-5x5", 2),
        ("codegolf-7x7", 13),
        ("gadgets/clause-000", 0),
    ];
    for (name, backend) in backends() {
        for (case, count) in cases {
            let path = data_dir("tatamibari").join(format!("{case}.txt"));
            let r = solve("tatamibari", &path, &["--count"], &backend);
            assert_eq!(
                r.code,
                if count == 0 { 1 } else { 0 },
                "{case} on {name}: {}",
                r.stderr
            );
            assert_eq!(
                json_field(&r.stdout, "solutions"),
                count.to_string(),
                "{case} on {name}"
            );
            assert_eq!(
                json_field(&r.stdout, "complete"),
                "true",
                "{case} on {name}"
            );
            if count > 0 {
                let r = solve("tatamibari", &path, &["--unique"], &backend);
                assert_eq!(
                    json_field(&r.stdout, "unique"),
                    (count == 1).to_string(),
                    "{case} on {name}"
                );
            }
        }
    }
}

#[cfg(feature = "outside-tools")]
#[test]
fn kakkuro_optima_agree_on_every_backend() {
    let cases = [
        ("docs/examples/kakkuro.txt", "\"427680\""),
        ("tests/data/kakkuro/bench-7x7-seed3.txt", ""),
    ];
    let mut reference = Vec::new();
    for (name, backend) in backends() {
        // An external command runs once per SAT call (hundreds on the 7×7 board): the example
        // is enough for it.
        let cases = if name.starts_with("--solver-cmd") {
            &cases[..1]
        } else {
            &cases[..]
        };
        for (k, (case, score)) in cases.iter().enumerate() {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(case);
            let r = solve("kakkuro", &path, &[], &backend);
            assert_eq!(r.code, 0, "{case} on {name}: {}", r.stderr);
            assert_eq!(
                json_field(&r.stdout, "status"),
                "\"optimal\"",
                "{case} on {name}"
            );
            let got = json_field(&r.stdout, "score");
            if !score.is_empty() {
                assert_eq!(got, *score, "{case} on {name}");
            }
            // Every backend proves the same optimum as the first (varisat).
            if reference.len() <= k {
                reference.push(got);
            } else {
                assert_eq!(got, reference[k], "{case} on {name} against varisat");
            }
        }
    }
}

/// A fake solver: a shell script run as `sh SCRIPT {cnf}`.
fn fake(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn a_broken_external_solver_is_an_error_never_an_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let cases = [
        (fake(tmp.path(), "garbage.sh", "echo 'hello there'; exit 10"), "hello"),
        // Claims every variable false: breaks the rules' clauses.
        (fake(tmp.path(), "wrong.sh", "n=$(grep '^p cnf' \"$1\" | cut -d' ' -f3); echo 's SATISFIABLE'; printf 'v'; i=1; while [ $i -le $n ]; do printf ' -%d' $i; i=$((i+1)); done; echo ' 0'; exit 10"), "violates"),
        (fake(tmp.path(), "fails.sh", "echo 'out of licences' >&2; exit 1"), "out of licences"),
        (fake(tmp.path(), "unknown.sh", "echo 's UNKNOWN'; exit 0"), "UNKNOWN"),
        ("/nonexistent/solver".to_string(), "/nonexistent/solver"),
    ];
    for (cmd, word) in &cases {
        let r = run(
            &[
                "solve",
                "target-sudoku",
                puzzle.to_str().unwrap(),
                "--solver-cmd",
                cmd,
            ],
            None,
        );
        assert_eq!(r.code, 2, "{cmd}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.is_empty(), "{cmd}: printed {}", r.stdout);
        assert!(
            r.stderr.contains(word),
            "{cmd}: expected {word:?} in {}",
            r.stderr
        );
        assert!(
            r.stderr.contains(cmd.split(' ').next_back().unwrap()),
            "{cmd}: the message names the command: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
}

/// The liar: CaDiCaL answers the first call, every later one is "UNSAT" unlooked. Without
/// `{proof}` its wrong optimum (2842; the true one is 2852) must not pass for a proved one;
/// with `{proof}` the lie is an error. A truthful CaDiCaL with `{proof}` proves 2852.
#[cfg(feature = "outside-tools")]
#[test]
fn an_external_unsat_is_checked_with_a_proof_or_said_to_be_unchecked() {
    common::require("cadical");
    common::require("rate");
    let tmp = tempfile::tempdir().unwrap();
    let mark = tmp.path().join("called");
    let script = format!("if [ -e {m} ]; then echo 's UNSATISFIABLE'; exit 20; fi; touch {m}; exec cadical -q \"$@\"", m = mark.display());
    let liar = fake(tmp.path(), "liar.sh", &script);
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let puzzle = puzzle.to_str().unwrap();
    let solve = |cmd: &str, format: &str| {
        let _ = std::fs::remove_file(&mark);
        run(
            &[
                "solve",
                "target-sudoku",
                puzzle,
                "--solver-cmd",
                cmd,
                "--format",
                format,
            ],
            None,
        )
    };

    let r = solve(&liar, "text");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .ends_with("score 2842\noptimal (per the external solver; unchecked)\n"),
        "{}",
        r.stdout
    );
    let r = solve(&liar, "json");
    assert_eq!(
        (
            json_field(&r.stdout, "status").as_str(),
            json_field(&r.stdout, "unsat_answers").as_str()
        ),
        ("\"optimal\"", "\"unchecked\"")
    );
    let r = solve(&liar, "judge");
    assert_eq!((r.code, r.stdout.as_str()), (0, "2842\n"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("that 2842 is the maximum is per the external solver; unchecked"),
        "{}",
        r.stderr
    );

    let r = solve(&format!("{liar} {{cnf}} {{proof}}"), "text");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.is_empty()
            && r.stderr
                .contains("answered UNSAT, but `rate -d {cnf} {proof}` rejects its proof"),
        "{}",
        r.stderr
    );

    for format in ["text", "json"] {
        let r = solve("cadical {cnf} {proof}", format);
        assert_eq!(r.code, 0, "{}", r.stderr);
        if format == "text" {
            assert!(
                r.stdout.ends_with("score 2852\noptimal (proved)\n"),
                "{}",
                r.stdout
            );
        } else {
            assert_eq!(json_field(&r.stdout, "unsat_answers"), "\"drat_checked\"");
        }
    }
    let r = run(
        &["solve", "target-sudoku", puzzle, "--format", "json"],
        None,
    );
    assert_eq!(json_field(&r.stdout, "unsat_answers"), "\"embedded\"");
}

/// Each verdict that rests on UNSAT says so on an unchecked external solver: no solution,
/// unique, an exact count, hints, and `run`'s proved column.
#[cfg(feature = "outside-tools")]
#[test]
fn every_claim_resting_on_an_unchecked_unsat_says_so() {
    common::require("cadical");
    common::require("rate");
    const NOTE: &str = "(per the external solver; unchecked)";
    let tmp = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/tatamibari.txt");
    let example = example.to_str().unwrap();
    let none = tmp.path().join("none.txt");
    std::fs::write(&none, "+.\n").unwrap();
    for (args, code, first) in [
        (
            vec!["solve", "tatamibari", none.to_str().unwrap()],
            1,
            format!("no solution {NOTE}"),
        ),
        (
            vec!["solve", "tatamibari", example, "--unique"],
            0,
            format!("unique {NOTE}"),
        ),
        (
            vec!["solve", "tatamibari", example, "--count=5"],
            0,
            format!("1 solution {NOTE}"),
        ),
    ] {
        for (cmd, note) in [("cadical", true), ("cadical {cnf} {proof}", false)] {
            let mut all = args.clone();
            all.extend(["--solver-cmd", cmd]);
            let r = run(&all, None);
            assert_eq!(r.code, code, "{all:?}: {}", r.stderr);
            // The verdict line, under the answer.
            let line = r.stdout.lines().last().unwrap();
            assert_eq!(
                line,
                if note {
                    first.clone()
                } else {
                    first.replace(&format!(" {NOTE}"), "")
                },
                "{all:?}"
            );
        }
    }
    // Kakkuro's best choice of sides for a bare contest string, and that there is none.
    let kakkuro = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/kakkuro.txt");
    for (answer, code, said) in [
        (
            "427680:8,8,15,9,17,30,7,8,9,6,4,15,7,(2),2,4,9,9,8,1,15,6,9,8,8\n",
            0,
            "note: that no completion scores more is per the external solver; unchecked\n",
        ),
        (
            "1:1,8,15,9,17,30,7,8,9,6,4,15,7,(2),2,4,9,9,8,1,15,6,9,8,8\n",
            1,
            "(per the external solver; unchecked)\n",
        ),
    ] {
        let r = run(
            &[
                "check",
                "kakkuro",
                kakkuro.to_str().unwrap(),
                "--answer",
                "-",
                "--solver-cmd",
                "cadical",
            ],
            Some(answer.as_bytes()),
        );
        assert_eq!(r.code, code, "{}", r.stderr);
        assert!(r.stdout.ends_with(said), "{}", r.stdout);
    }
    let r = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "5x5",
            "--unique",
            "--format",
            "json",
            "--solver-cmd",
            "cadical",
        ],
        None,
    );
    assert_eq!(
        (
            r.code,
            json_field(&r.stdout, "unique").as_str(),
            json_field(&r.stdout, "unsat_answers").as_str()
        ),
        (0, "true", "\"unchecked\""),
        "{}",
        r.stderr
    );
    let r = run(
        &[
            "solve",
            "tatamibari",
            example,
            "--hints",
            "--solver-cmd",
            "cadical",
        ],
        None,
    );
    assert!(
        r.stdout
            .ends_with(&format!("are the same in every solution {NOTE}\n")),
        "{}",
        r.stdout
    );
    let r = run(
        &[
            "run",
            data_dir("target-sudoku")
                .join("noip2009-01.in")
                .to_str()
                .unwrap(),
            "--solver-cmd",
            "cadical",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .lines()
            .nth(1)
            .unwrap()
            .contains(" no_solution  -            unchecked "),
        "{}",
        r.stdout
    );
}

#[test]
fn a_time_limit_stops_an_external_solver() {
    // A solver that never answers: the run returns at the limit, and the solver is gone.
    let tmp = tempfile::tempdir().unwrap();
    let pid_file = tmp.path().join("pid");
    let cmd = fake(
        tmp.path(),
        "slow.sh",
        &format!("echo $$ > {}; sleep 60", pid_file.display()),
    );
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let start = Instant::now();
    let r = run(
        &[
            "solve",
            "target-sudoku",
            puzzle.to_str().unwrap(),
            "--solver-cmd",
            &cmd,
            "--time-limit",
            "1",
            "--format",
            "json",
        ],
        None,
    );
    let took = start.elapsed();
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert_eq!(json_field(&r.stdout, "status"), "\"unknown\"");
    assert!(
        took < Duration::from_secs(3),
        "returned {took:?} after a 1 s limit"
    );
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    assert!(
        !Path::new(&format!("/proc/{}", pid.trim())).exists(),
        "the solver process {pid} still runs"
    );
}

#[cfg(feature = "outside-tools")]
#[test]
fn the_judge_line_of_an_unproved_score_exits_3() {
    common::require("minisat");
    // The first call is solved by minisat, every later one never returns: an answer, no proof.
    let tmp = tempfile::tempdir().unwrap();
    let mark = tmp.path().join("called");
    let script = format!(
        "if [ -e {m} ]; then sleep 60; else touch {m}; exec minisat -verb=0 \"$1\" \"$2\"; fi",
        m = mark.display()
    );
    let cmd = fake(tmp.path(), "once.sh", &script) + " {cnf} {out}";
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let r = run(
        &[
            "solve",
            "target-sudoku",
            puzzle.to_str().unwrap(),
            "--solver-cmd",
            &cmd,
            "--time-limit",
            "1",
            "--format",
            "judge",
        ],
        None,
    );
    assert_eq!(
        r.code, 3,
        "an unproved score is not the judge's maximum: {}{}",
        r.stdout, r.stderr
    );
    assert!(r.stdout.trim().parse::<u32>().is_ok(), "{}", r.stdout);
    assert!(r.stderr.contains("not proved optimal"), "{}", r.stderr);
    // A silent proof still says, every second, that it is at work.
    std::fs::remove_file(&mark).unwrap();
    let r = run(
        &[
            "solve",
            "target-sudoku",
            puzzle.to_str().unwrap(),
            "--solver-cmd",
            &cmd,
            "--time-limit",
            "2.5",
            "--progress",
        ],
        None,
    );
    let beats = r
        .stderr
        .lines()
        .filter(|l| l.contains("1 SAT call done, best score so far"))
        .count();
    assert!(beats >= 1, "{}", r.stderr);
}

#[test]
fn a_time_limit_interrupts_every_built_in_backend_inside_a_call() {
    use encodings::genres::kakkuro::{self as kk, Instance, Kakkuro};
    use encodings::puzzle::{Ended, Goal};
    use puzzle_sat::runner::{self, Options, Progress};
    // A board no backend proves in seconds (bench-10x10-seed3 proves in 1.4 s here now), kept
    // out of tests/data, whose every board `run` solves: benches/data/hard's
    // kakkuro-painting-10x10-d0.15-s1 (kakkuro_painting.py 10 1 0.15 8), whose long rows force
    // painting.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("painting-10x10.txt");
    std::fs::write(&path, common::HARD_KAKKURO).unwrap();
    for backend in common::backends() {
        let name = backend.name().to_string();
        let puzzle = kk::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let opts = Options {
            backend,
            time_limit: Some(Duration::from_secs(1)),
            progress: Progress::Never,
            cubes: None,
        };
        let start = Instant::now();
        let out = runner::search::<Kakkuro>(
            Instance {
                puzzle,
                fixed: None,
            },
            Goal::Best,
            1,
            &opts,
        )
        .unwrap();
        let took = start.elapsed();
        assert_eq!(
            out.ended,
            Ended::Stopped,
            "{name} proved within a second: pick a harder board"
        );
        assert!(
            !out.abandoned,
            "the {name} call was interrupted and its thread returned"
        );
        assert!(
            took < Duration::from_millis(1800),
            "{name} returned {took:?} after a 1 s limit"
        );
        // And through the binary: best found (or nothing yet), promptly.
        let start = Instant::now();
        let r = run(
            &[
                "solve",
                "kakkuro",
                path.to_str().unwrap(),
                "--solver",
                &name,
                "--time-limit",
                "1",
                "--format",
                "json",
            ],
            None,
        );
        assert!(
            start.elapsed() < Duration::from_millis(2500),
            "{name}: {:?}",
            start.elapsed()
        );
        match r.code {
            0 => assert_eq!(json_field(&r.stdout, "status"), "\"best_found\""),
            3 => assert_eq!(json_field(&r.stdout, "status"), "\"unknown\""),
            c => panic!("{name}: exit {c}: {}", r.stderr),
        }
    }
}

/// `pigeons` pigeons into `holes` holes: satisfiable iff `pigeons <= holes`, and exponentially
/// hard for CDCL with one pigeon too many. The last pigeon needs a hole only where `guard` is
/// true.
fn pigeonhole(
    sink: &mut impl encodings::cnf::ClauseSink,
    pigeons: u32,
    holes: u32,
    guard: Option<encodings::cnf::Lit>,
) {
    let p: Vec<Vec<_>> = (0..pigeons)
        .map(|_| (0..holes).map(|_| sink.new_var()).collect())
        .collect();
    for (i, row) in p.iter().enumerate() {
        let mut clause = row.clone();
        if i + 1 == p.len() {
            clause.extend(guard.map(|g| !g));
        }
        sink.add_clause(&clause);
    }
    for (a, pa) in p.iter().enumerate() {
        for pb in &p[a + 1..] {
            for (&x, &y) in pa.iter().zip(pb) {
                sink.add_clause(&[!x, !y]);
            }
        }
    }
}

#[test]
fn a_conflict_limit_gives_up_and_the_solver_goes_on() {
    use encodings::solver::{NewSolver, SolveResult, Stop};
    for backend in common::backends() {
        let name = backend.name();
        let mut s = backend.solvers(Stop::new()).new_solver();
        // Nine pigeons, eight holes, and a guard `g` that frees the ninth pigeon when false.
        let g = s.new_var();
        pigeonhole(&mut s, 9, 8, Some(g));
        // Far too few conflicts to refute it: given up, not answered.
        assert_eq!(s.solve_limited(&[g], 50), Ok(None), "{name}");
        // The same solver still answers every question right, limited or not.
        assert_eq!(
            s.solve_limited(&[!g], 1_000_000),
            Ok(Some(SolveResult::Sat)),
            "{name}"
        );
        assert_eq!(s.solve_with(&[g]), Ok(SolveResult::Unsat), "{name}");
        assert_eq!(s.failed_core(), vec![g], "{name}");
        assert_eq!(
            s.solve_limited(&[], 10),
            Ok(Some(SolveResult::Sat)),
            "{name}"
        );
        // A raised stop is an interruption, not a spent limit.
        let stop = Stop::new();
        let mut s = backend.solvers(stop.clone()).new_solver();
        pigeonhole(&mut s, 9, 8, None);
        stop.raise();
        assert_eq!(
            s.solve_limited(&[], 1_000_000),
            Ok(Some(SolveResult::Interrupted)),
            "{name}"
        );
    }
}

/// A `{proof}` solver cannot forge a checked UNSAT by rewriting the formula file it was given
/// (into one with an empty-proof refutation): the checker reads the formula as puzzle-sat wrote
/// it, not the solver's file. Before, this printed `optimal (proved)` for 2842.
#[cfg(feature = "outside-tools")]
#[test]
fn a_proof_is_checked_against_our_formula_not_the_solvers_file() {
    common::require("cadical");
    common::require("rate");
    let tmp = tempfile::tempdir().unwrap();
    let mark = tmp.path().join("called");
    let script = format!(
        "if [ -e {m} ]; then printf 'p cnf 1 2\\n1 0\\n-1 0\\n' > \"$1\"; : > \"$2\"; echo 's UNSATISFIABLE'; exit 20; fi\ntouch {m}; exec cadical -q \"$1\"",
        m = mark.display()
    );
    let forger = fake(tmp.path(), "forger.sh", &script);
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let r = run(
        &[
            "solve",
            "target-sudoku",
            puzzle.to_str().unwrap(),
            "--solver-cmd",
            &format!("{forger} {{cnf}} {{proof}}"),
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.is_empty() && r.stderr.contains("rejects its proof"),
        "{}{}",
        r.stdout,
        r.stderr
    );
}

/// Whether process `pid` has ended (gone, or a zombie left for its new parent to reap), given
/// a moment for a kill to land.
fn gone(pid: &str) -> bool {
    for _ in 0..100 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat)
                if stat
                    .rsplit(')')
                    .next()
                    .is_some_and(|rest| rest.trim_start().starts_with('Z')) =>
            {
                return true
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    false
}

/// What a solver leaves behind goes with it: a process it started in the background is killed
/// when it answers, and a background process holding its output open does not hold up the run.
/// (A pipe put where its result file goes: `a_result_file_that_is_a_fifo_blocks_nothing`.)
#[cfg(feature = "outside-tools")]
#[test]
fn a_solver_leaves_nothing_running_and_nothing_that_blocks() {
    common::require("cadical");
    let tmp = tempfile::tempdir().unwrap();
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let puzzle = puzzle.to_str().unwrap();
    let pid_file = tmp.path().join("pid");
    let leaver = fake(
        tmp.path(),
        "leaver.sh",
        &format!(
            "sleep 60 >/dev/null 2>&1 </dev/null &\necho $! > {}\nexec cadical -q \"$1\"",
            pid_file.display()
        ),
    );
    let r = run(
        &["solve", "target-sudoku", puzzle, "--solver-cmd", &leaver],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    assert!(
        gone(pid.trim()),
        "the solver's background process {} still runs",
        pid.trim()
    );

    let holder = fake(
        tmp.path(),
        "holder.sh",
        "sleep 60 &\nexec cadical -q \"$1\"",
    );
    let started = Instant::now();
    let r = run(
        &[
            "solve",
            "target-sudoku",
            puzzle,
            "--solver-cmd",
            &holder,
            "--time-limit",
            "20",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .ends_with("score 2852\noptimal (per the external solver; unchecked)\n"),
        "{}",
        r.stdout
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "held up for {:?}",
        started.elapsed()
    );
}

/// A solver whose result file is a FIFO blocks nothing: refused at once as not a regular file.
#[test]
fn a_result_file_that_is_a_fifo_blocks_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let puzzle = puzzle.to_str().unwrap();
    let fifo = fake(tmp.path(), "fifo.sh", "mkfifo \"$2\"; exit 10");
    let started = Instant::now();
    let r = run(
        &[
            "solve",
            "target-sudoku",
            puzzle,
            "--solver-cmd",
            &format!("{fifo} {{cnf}} {{out}}"),
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("is not a regular file") && started.elapsed() < Duration::from_secs(5),
        "{}",
        r.stderr
    );
}

/// Claims on an unchecked solver say so in the pictures and JSON too.
#[cfg(feature = "outside-tools")]
#[test]
fn unchecked_in_every_form() {
    common::require("cadical");
    let r = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "5x5",
            "--seed",
            "3",
            "--unique",
            "--format",
            "svg",
            "--solver-cmd",
            "cadical",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("unique (per") && r.stdout.contains("unchecked)"),
        "the caption says what is unchecked"
    );
    let kakkuro = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/kakkuro.txt");
    let answer = "1:1,8,15,9,17,30,7,8,9,6,4,15,7,(2),2,4,9,9,8,1,15,6,9,8,8\n";
    let r = run(
        &[
            "check",
            "kakkuro",
            kakkuro.to_str().unwrap(),
            "--answer",
            "-",
            "--solver-cmd",
            "cadical",
            "--format",
            "json",
        ],
        Some(answer.as_bytes()),
    );
    assert_eq!(
        (r.code, json_field(&r.stdout, "unsat_answers").as_str()),
        (1, "\"unchecked\""),
        "{}",
        r.stdout
    );
}

/// A time limit past what the clock counts is no limit, not a panic.
#[test]
fn a_huge_time_limit_is_no_limit() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/tatamibari.txt");
    let r = run(
        &[
            "solve",
            "tatamibari",
            example.to_str().unwrap(),
            "--time-limit=1e19",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// `--solver-cmd minisat` without `{out}`: MiniSat prints only a banner and its bare verdict, so
/// the error says how to give it a result file (it said only that a literal was expected).
#[cfg(feature = "outside-tools")]
#[test]
fn minisat_without_a_result_file_is_told_how() {
    common::require("minisat");
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let r = run(
        &[
            "solve",
            "target-sudoku",
            puzzle.to_str().unwrap(),
            "--solver-cmd",
            "minisat",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("try --solver-cmd \"minisat {cnf} {out}\""),
        "{}",
        r.stderr
    );
}

/// puzzle-sat started with `args`, its temporary folder `tmp`, its output thrown away.
fn started_in(args: &[&str], tmp: &Path) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args(args)
        .env("TMPDIR", tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// In `tmp`: a folder to be `TMPDIR`, a solver that writes its pid to a file and sleeps, that
/// file, and a puzzle for it.
fn slow_solver(tmp: &Path) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    let scratch = tmp.join("tmp");
    std::fs::create_dir(&scratch).unwrap();
    let pid_file = tmp.join("pid");
    let slow = tmp.join("slow.sh");
    std::fs::write(
        &slow,
        format!(
            "#!/bin/sh\necho $$ > {}\nexec sleep 60\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&slow, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    (
        scratch,
        pid_file,
        slow,
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt"),
    )
}

/// SIGTERM, SIGINT or SIGHUP (a closed terminal) during `solve --solver-cmd` or `run` leaves
/// nothing behind: the solver (and `run`'s worker) ended, the temporary folder as it was. Both
/// used to stay: the formula file and the running solver; SIGHUP left the run's folder.
#[test]
fn an_interrupted_run_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let (scratch, pid_file, slow, puzzle) = slow_solver(tmp.path());
    for (args, signal) in [
        (vec!["solve", "target-sudoku"], libc::SIGTERM),
        (vec!["run"], libc::SIGINT),
        (vec!["run"], libc::SIGHUP),
    ] {
        let _ = std::fs::remove_file(&pid_file);
        let mut child = started_in(
            &[
                &args[..],
                &[
                    puzzle.to_str().unwrap(),
                    "--solver-cmd",
                    slow.to_str().unwrap(),
                    "-q",
                ],
            ]
            .concat(),
            &scratch,
        );
        let started = Instant::now();
        let solver = loop {
            match std::fs::read_to_string(&pid_file) {
                Ok(pid) if pid.ends_with('\n') => break pid.trim().to_string(),
                _ => assert!(
                    started.elapsed() < Duration::from_secs(20),
                    "{args:?}: the solver never started"
                ),
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(
            std::fs::read_dir(&scratch).unwrap().next().is_some(),
            "{args:?}: the formula is in the temporary folder"
        );
        // SAFETY: a plain system call on our own child.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + signal), "{args:?}");
        assert!(gone(&solver), "{args:?}: the solver {solver} still runs");
        let left: Vec<_> = std::fs::read_dir(&scratch)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

/// SIGTERM while a collection's puzzle is being solved by an outside solver: that puzzle's
/// search was stopped under it, which is no verdict, so nothing is printed for it or for the
/// puzzles after it (each was printed as an error before, the killed solver's and then "ending
/// on a signal" for every puzzle left, until the exit came).
#[test]
fn an_interrupted_collection_prints_no_verdict_for_what_it_did_not_finish() {
    let tmp = tempfile::tempdir().unwrap();
    let (scratch, pid_file, slow, _) = slow_solver(tmp.path());
    let file = tmp.path().join("urls.txt");
    std::fs::write(
        &file,
        "https://puzz.link/p?mashu/6/6/1063000i3000\n".repeat(20),
    )
    .unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args([
            "solve",
            "masyu",
            file.to_str().unwrap(),
            "--solver-cmd",
            slow.to_str().unwrap(),
            "-q",
        ])
        .env("TMPDIR", &scratch)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&pid_file).map_or(true, |p| !p.ends_with('\n')) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the solver never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: a plain system call on our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(128 + libc::SIGTERM));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}

/// A run killed outright (SIGKILL, which nothing can catch) leaves its folder; the next
/// puzzle-sat that makes one removes it, and only such folders: not one made a moment ago,
/// not one a live process holds, nothing not ours.
#[test]
fn folders_left_by_a_killed_run_are_removed_by_the_next() {
    let tmp = tempfile::tempdir().unwrap();
    let (scratch, pid_file, slow, puzzle) = slow_solver(tmp.path());
    let mut child = started_in(
        &[
            "run",
            puzzle.to_str().unwrap(),
            "--solver-cmd",
            slow.to_str().unwrap(),
            "-q",
        ],
        &scratch,
    );
    let started = Instant::now();
    while !std::fs::read_to_string(&pid_file).is_ok_and(|p| p.ends_with('\n')) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the solver never started"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left: Vec<PathBuf> = std::fs::read_dir(&scratch)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(left.len(), 1, "SIGKILL leaves the run's folder: {left:?}");
    // Aged past the minute in which a folder may not be locked yet, as are the others but one.
    let age = |p: &Path| {
        std::fs::File::open(p)
            .unwrap()
            .set_modified(std::time::SystemTime::now() - Duration::from_secs(120))
            .unwrap()
    };
    age(&left[0]);
    let (young, held, other) = (
        scratch.join("puzzle-sat.run.young1"),
        scratch.join("puzzle-sat.run.held01"),
        scratch.join("someone-else"),
    );
    // Folders of the user's that only start like ours: a backup, a certificate written there.
    let (backup, cert) = (
        scratch.join("puzzle-sat.backup"),
        scratch.join("puzzle-sat.cert.abc123"),
    );
    for d in [&young, &held, &other, &backup, &cert] {
        std::fs::create_dir(d).unwrap();
    }
    std::fs::write(backup.join("notes.txt"), "mine").unwrap();
    age(&backup);
    age(&cert);
    let lock = std::fs::File::open(&held).unwrap();
    // SAFETY: a plain system call on a descriptor we own.
    assert_eq!(
        unsafe { libc::flock(std::os::unix::io::AsRawFd::as_raw_fd(&lock), libc::LOCK_EX) },
        0
    );
    age(&held);
    age(&other);
    let mut next = started_in(&["run", puzzle.to_str().unwrap(), "-q"], &scratch);
    assert_eq!(next.wait().unwrap().code(), Some(0));
    let mut now: Vec<PathBuf> = std::fs::read_dir(&scratch)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    now.sort();
    assert_eq!(
        now,
        [backup, cert, held.clone(), young, other],
        "only the killed run's folder is removed"
    );
}

/// `run` over many quick files, ended while its workers keep starting children: no child
/// started during the end (it would miss the cleanup and leave its formula behind). Before
/// the spawn and the end took one lock, 7 of 10 such runs left a folder.
#[cfg(feature = "outside-tools")]
#[test]
fn a_run_ended_while_starting_children_leaves_nothing_behind() {
    common::require("cadical");
    let tmp = tempfile::tempdir().unwrap();
    let (scratch, files) = (tmp.path().join("tmp"), tmp.path().join("kakkuro"));
    std::fs::create_dir(&scratch).unwrap();
    std::fs::create_dir(&files).unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/kakkuro.txt");
    for k in 0..200 {
        std::fs::copy(&example, files.join(format!("k{k:03}.txt"))).unwrap();
    }
    for delay in [100, 250, 400] {
        let mut child = started_in(
            &[
                "run",
                files.to_str().unwrap(),
                "-j",
                "4",
                "--solver-cmd",
                "cadical",
                "-q",
            ],
            &scratch,
        );
        let started = Instant::now();
        while std::fs::read_dir(&scratch).unwrap().next().is_none() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "no formula was ever written"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(delay));
        // SAFETY: a plain system call on our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        assert_eq!(child.wait().unwrap().code(), Some(128 + libc::SIGTERM));
        let left: Vec<_> = std::fs::read_dir(&scratch)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let tree: Vec<String> = left
            .iter()
            .flat_map(|p| {
                std::fs::read_dir(p)
                    .map(|d| {
                        d.map(|e| e.unwrap().path().display().to_string())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
            })
            .collect();
        assert!(
            left.is_empty(),
            "ended after {delay} ms, left {left:?} holding {tree:?}"
        );
    }
}
