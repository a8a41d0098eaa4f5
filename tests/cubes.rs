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
