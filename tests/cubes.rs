//! `solve --cubes`: the search run once per cube of its first formula must claim what one
//! search over everything claims. Each bundled example of every genre (and a board with 13
//! solutions) is solved in cubes at once (`--cubes-after 0`), counted up to a cap, and
//! compared with varisat's plain search: the same status, score, count and completeness.

mod common;

use common::{data_dir, run};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn examples() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples");
    let mut all: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    all.sort();
    all.push((
        "tatamibari".into(),
        data_dir("tatamibari").join("codegolf-7x7.txt"),
    ));
    all
}

fn solve(genre: &str, file: &Path, extra: &[&str]) -> (i32, Value) {
    let file = file.to_string_lossy();
    let scoring = matches!(genre, "kakkuro" | "target-sudoku");
    let mut args = vec!["solve", genre, &file, "--format", "json", "-q"];
    if !scoring {
        args.push("--count=30");
    }
    args.extend_from_slice(extra);
    let r = run(&args, None);
    let v: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {} {}", r.stdout, r.stderr));
    (r.code, v)
}

/// What a claim says, without which answer was drawn (a race or a cube may draw another).
fn claim(v: &Value) -> Value {
    serde_json::json!([v["status"], v["score"], v["solutions"], v["complete"]])
}

#[test]
fn cubes_claim_what_one_search_claims() {
    let mut cubed = 0;
    for (genre, file) in examples() {
        let (code, plain) = solve(&genre, &file, &["--solver", "varisat"]);
        for n in ["1", "3", "8"] {
            let (c, v) = solve(&genre, &file, &["--cubes", n, "--cubes-after", "0"]);
            assert_eq!(
                (c, claim(&v)),
                (code, claim(&plain)),
                "{genre} {} in {n} cubes: {v}",
                file.display()
            );
        }
        cubed += 1;
    }
    assert_eq!(cubed, 13, "every genre's example and the 13-solution board");
}

/// The cubes really run (the first search is given no time), and say how they went.
#[test]
fn cubes_report_their_times() {
    let file = data_dir("tatamibari").join("codegolf-7x7.txt");
    let r = run(
        &[
            "solve",
            "tatamibari",
            &file.to_string_lossy(),
            "--count",
            "--cubes",
            "4",
            "--cubes-after",
            "0",
            "--progress",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("13 solutions"), "{}", r.stdout);
    assert!(
        r.stderr.contains("4 of 4 cubes settled"),
        "no cube report: {}",
        r.stderr
    );
}

/// `encode --cubes` and `decode --cubes`: jobs for any solver, and their join. Solver outputs
/// written by hand here (tier 1): all refuted is the solvers' word; a missing result, or a
/// folder made with other flags, is refused.
#[test]
fn cube_jobs_are_joined_and_a_missing_or_foreign_result_refused() {
    let kakkuro = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/kakkuro.txt");
    let k = kakkuro.to_str().unwrap();
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("jobs");
    let jobs = dir.to_str().unwrap();
    let r = run(
        &[
            "encode",
            "kakkuro",
            k,
            "--min-score",
            "440000",
            "--cubes",
            "6",
            "-o",
            jobs,
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let listed = std::fs::read_to_string(dir.join("cubes.txt")).unwrap();
    let n = listed.lines().filter(|l| !l.starts_with('c')).count();
    assert!(n >= 2, "{listed}");
    for k in 1..=n {
        assert!(dir.join(format!("cube-{k}.cnf")).exists());
        std::fs::write(dir.join(format!("cube-{k}.out")), "s UNSATISFIABLE\n").unwrap();
    }
    assert!(dir.join("cover.cnf").exists());
    let joined = run(
        &[
            "decode",
            "kakkuro",
            k,
            "--min-score",
            "440000",
            "--cubes",
            jobs,
        ],
        None,
    );
    assert_eq!(
        (joined.code, joined.stdout.as_str()),
        (
            1,
            "no answer scores 440000 or more (per the external solver; unchecked)\n"
        ),
        "{}",
        joined.stderr
    );
    // Another bound: another formula, refused.
    let other = run(
        &[
            "decode",
            "kakkuro",
            k,
            "--min-score",
            "430000",
            "--cubes",
            jobs,
        ],
        None,
    );
    assert_eq!(other.code, 2, "{}", other.stdout);
    assert!(
        other.stderr.contains("not the cubes of"),
        "{}",
        other.stderr
    );
    // A lost result.
    std::fs::remove_file(dir.join("cube-2.out")).unwrap();
    let lost = run(
        &[
            "decode",
            "kakkuro",
            k,
            "--min-score",
            "440000",
            "--cubes",
            jobs,
        ],
        None,
    );
    assert_eq!(lost.code, 2);
    assert!(
        lost.stderr.contains("cube 2 has no result"),
        "{}",
        lost.stderr
    );
    // Into a folder that holds something, or a file: refused before any work.
    let again = run(&["encode", "kakkuro", k, "--cubes", "2", "-o", jobs], None);
    assert_eq!(again.code, 2);
    assert!(
        again
            .stderr
            .contains("encode --cubes needs an empty or new folder"),
        "{}",
        again.stderr
    );
    // VeriPB proofs are made from one DRAT proof: no cubes.
    let dir = d.path().join("cert");
    let veripb = run(
        &[
            "solve",
            "kakkuro",
            k,
            "--cubes",
            "2",
            "--certify",
            dir.to_str().unwrap(),
            "--veripb",
        ],
        None,
    );
    assert_eq!(veripb.code, 2, "{}", veripb.stderr);
    assert!(!dir.exists(), "refused before anything is written");
}

/// The same jobs run by Debian's CaDiCaL with DRAT proofs: the join checks every proof with
/// `rate` and says "proved"; a model in any cube is decoded and checked as an answer; a
/// forged proof is refused.
#[cfg(feature = "outside-tools")]
#[test]
fn cube_jobs_run_by_cadical_are_proved_or_answered() {
    common::require("cadical");
    // An outside solver gets the whole formula where an embedded one gets independent parts:
    // the cubes split what the outside solver is given.
    let board = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/data/hard/tatamibari-sparse-100x100-c6-s1.txt");
    let r = run(
        &[
            "solve",
            "tatamibari",
            board.to_str().unwrap(),
            "--cubes",
            "4",
            "--cubes-after",
            "0",
            "--solver-cmd",
            "cadical -q",
            "-q",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let kakkuro = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/kakkuro.txt");
    let k = kakkuro.to_str().unwrap();
    let solve_all = |dir: &Path| {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "cnf") {
                let out = std::process::Command::new("cadical")
                    .args(["-q", "--binary=false"])
                    .arg(&p)
                    .arg(p.with_extension("drat"))
                    .output()
                    .unwrap();
                std::fs::write(p.with_extension("out"), out.stdout).unwrap();
            }
        }
    };
    let d = tempfile::tempdir().unwrap();
    for (bound, proved) in [("440000", true), ("400000", false)] {
        let dir = d.path().join(bound);
        let jobs = dir.to_str().unwrap();
        let args = ["kakkuro", k, "--min-score", bound];
        let r = run(
            &[&["encode"][..], &args, &["--cubes", "5", "-o", jobs]].concat(),
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        solve_all(&dir);
        let joined = run(&[&["decode"][..], &args, &["--cubes", jobs]].concat(), None);
        if proved {
            assert_eq!(
                (joined.code, joined.stdout.as_str()),
                (1, "no answer scores 440000 or more\n"),
                "{}",
                joined.stderr
            );
            let proof = std::fs::read(dir.join("cube-1.drat")).unwrap();
            std::fs::write(dir.join("cube-1.drat"), &proof[..proof.len() / 2]).unwrap();
            let forged = run(&[&["decode"][..], &args, &["--cubes", jobs]].concat(), None);
            assert_eq!(forged.code, 2, "{}", forged.stdout);
            assert!(forged.stderr.contains("cube-1.drat"), "{}", forged.stderr);
        } else {
            assert_eq!(joined.code, 0, "{}", joined.stderr);
            assert!(joined.stdout.contains("valid answer"), "{}", joined.stdout);
        }
    }
}
