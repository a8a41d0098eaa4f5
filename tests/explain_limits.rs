//! `explain`, `explain --next`, `--certify` and `grade` refuse a board whose named rules would
//! be too large before building any of them (exit 2, the file named), under a memory limit that
//! building them would pass; the largest bundled boards of the same genres are not refused.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// `rows` lines of `cols` cells, `cell(r, c)` each, joined by `sep`, after an optional size line.
fn board(
    rows: usize,
    cols: usize,
    sized: bool,
    sep: &str,
    cell: impl Fn(usize, usize) -> &'static str,
) -> String {
    let mut text = if sized {
        format!("{rows} {cols}\n")
    } else {
        String::new()
    };
    for r in 0..rows {
        let row: Vec<&str> = (0..cols).map(|c| cell(r, c)).collect();
        text += &(row.join(sep) + "\n");
    }
    text
}

/// Runs the binary under a 1.5 GB address-space limit (building the rules of any board here
/// takes more) and returns its exit code, stderr and how long it took.
fn limited(args: &[&str]) -> (i32, String, Duration) {
    let started = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1500000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args(args)
        .output()
        .expect("sh starts");
    let code = out.status.code().expect("exited, not killed by a signal");
    (
        code,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

/// Each way of explaining `file` is refused at once, naming it, with `said`.
fn refused(puzzle: &str, file: &Path, said: &str) {
    let path = file.to_str().unwrap();
    let certify = file.with_extension("cert");
    let runs: Vec<Vec<&str>> = vec![
        vec!["explain", puzzle, path],
        vec!["explain", puzzle, path, "--next", "--format", "json"],
        vec![
            "explain",
            puzzle,
            path,
            "--certify",
            certify.to_str().unwrap(),
        ],
        vec!["grade", puzzle, path],
    ];
    for args in runs {
        let (code, stderr, took) = limited(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("error: {path}: {said}")),
            "{args:?}: {stderr}"
        );
        assert!(took < Duration::from_secs(10), "{args:?} took {took:?}");
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const NAMED: &str =
    "the puzzle is too large to explain: its named rules would hold more than 33 million literals";

#[test]
fn hostile_boards_are_refused_before_their_rules_are_built() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    // 81 `?`s on 45×45: a fact per `?` and cell, and a forest per `?` (about 100 million
    // literals; 3.9 GB before this check).
    let nurikabe = board(45, 45, true, " ", |r, c| {
        if r % 5 == 0 && c % 5 == 0 {
            "?"
        } else {
            "-"
        }
    });
    refused("nurikabe", &write(dir, "n.txt", &nurikabe), NAMED);
    // One room of 215×215: its placements and the board's forest (62 million; 5.5 GB).
    let lits = board(215, 215, true, " ", |_, _| "1");
    refused("lits", &write(dir, "l.txt", &lits), NAMED);
    // One `?` on 30×30: every rectangle round it, unpruned, with the cells' and corners'
    // rules (97 million; 5 GB), while the pruned formula `solve` builds fits.
    let tatamibari = board(30, 30, false, "", |r, c| {
        if (r, c) == (15, 15) {
            "?"
        } else {
            "."
        }
    });
    refused("tatamibari", &write(dir, "t30.txt", &tatamibari), NAMED);
    // On 60×60 the candidates alone pass `solve`'s limit too.
    let tatamibari = board(60, 60, false, "", |r, c| {
        if (r, c) == (30, 30) {
            "?"
        } else {
            "."
        }
    });
    refused("tatamibari", &write(dir, "t60.txt", &tatamibari), NAMED);
    let shikaku = board(60, 60, false, " ", |r, c| {
        if (r, c) == (30, 30) {
            "?"
        } else {
            "."
        }
    });
    refused("shikaku", &write(dir, "s60.txt", &shikaku), NAMED);
}

/// The largest bundled boards of these genres are explained as before: not refused (a first
/// step, or the time limit).
#[test]
fn the_largest_bundled_boards_are_not_refused() {
    for (puzzle, file) in [
        ("nurikabe", "nurikabe/janko-1047-25x32.txt"),
        ("lits", "lits/janko-0360-40x57.txt"),
        ("shikaku", "shikaku/janko-126-50x40.txt"),
        ("tatamibari", "tatamibari/janko-109-14x14.txt"),
    ] {
        let path = common::data_dir(file);
        let r = common::run(
            &[
                "explain",
                puzzle,
                path.to_str().unwrap(),
                "--next",
                "--time-limit",
                "2",
            ],
            None,
        );
        assert!(
            r.code == 0 || r.code == 3,
            "{file}: {} {}",
            r.code,
            r.stderr
        );
    }
}

/// A large board the rules' budget accepts is explained within its time limit: one room of
/// 80×80 (many solutions), whose named rules take seconds to build, load into a solver and
/// read the answer off, none of which looked at the time limit (nor did the search's limit
/// count the rules' build): a 4 s limit ended after 25 s. Now the usual time-limit verdict
/// within about a second of it.
#[test]
fn a_large_accepted_board_keeps_its_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let lits = write(dir.path(), "l80.txt", &board(80, 80, true, " ", |_, _| "1"));
    let started = Instant::now();
    let r = common::run(
        &[
            "explain",
            "lits",
            lits.to_str().unwrap(),
            "--time-limit",
            "4",
        ],
        None,
    );
    let took = started.elapsed();
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("time limit"), "{}", r.stdout);
    assert!(took < Duration::from_secs(15), "took {took:?}");
}

/// A limit that passes while the search's own clock runs out, before the run's timer raises
/// the stop flag, is a time limit too (exit 3), never an error (exit 2): one run in ten of
/// these said "error: time limit" with exit 2 before.
#[test]
fn a_tiny_time_limit_is_always_a_time_limit() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (genre, file) in [
        ("masyu", "docs/examples/masyu.txt"),
        ("sudoku", "docs/examples/sudoku.txt"),
    ] {
        for _ in 0..20 {
            let out = Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
                .args(["explain", genre])
                .arg(here.join(file))
                .args(["--time-limit", "0.001"])
                .output()
                .unwrap();
            let code = out.status.code();
            assert!(
                code == Some(3) || code == Some(0),
                "{genre}: exit {code:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// The size estimate, which counts a formula whole without looking at a clock, keeps the time
/// limit too: a one-room LITS board's estimate walks every placement (seconds on 200×200), and
/// `solve`, `explain` and `grade` ran it before their limits began (`solve --time-limit 0.1` on 200×200 ended after 4.6 s, `explain` on 155×155,
/// near the largest its budget takes, after 2.1 s; helper-40). Now the usual verdict at once.
#[test]
fn the_size_estimate_keeps_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let big = write(
        dir.path(),
        "l200.txt",
        &board(200, 200, true, " ", |_, _| "1"),
    );
    let named = write(
        dir.path(),
        "l155.txt",
        &board(155, 155, true, " ", |_, _| "1"),
    );
    for (command, file) in [("solve", &big), ("explain", &named), ("grade", &named)] {
        let started = Instant::now();
        let r = common::run(
            &[
                command,
                "lits",
                file.to_str().unwrap(),
                "--time-limit",
                "0.1",
            ],
            None,
        );
        let took = started.elapsed();
        assert_eq!(r.code, 3, "{command}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("time limit"), "{command}: {}", r.stdout);
        assert!(
            took < Duration::from_millis(1200),
            "{command} took {took:?}"
        );
    }
}

/// A collection's puzzles each keep their own time limit: an estimate that a large board's
/// limit left running takes none of the next puzzle's (the next two boards after two one-room
/// LITS 200×200 said "time limit" when they waited for it within their own limits; `grade`'s
/// loop waits as `solve`'s does). `grade` has no grace past its limit, so its small boards are
/// ones it grades in a tenth of the limit even under load (janko-0002 takes 0.3–0.8 s).
#[test]
fn a_collection_s_puzzles_keep_their_own_time_limits() {
    let dir = tempfile::tempdir().unwrap();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let solved = ["janko-0001", "janko-0002", "janko-0003", "janko-0004"];
    let graded = ["janko-0001", "janko-0171"];
    for (command, side, limit, names) in [
        ("solve", 200, "0.3", &solved[..]),
        ("grade", 155, "2", &graded[..]),
    ] {
        let big = board(side, side, true, " ", |_, _| "1");
        let mut data = serde_json::Map::new();
        for k in 0..2 {
            data.insert(format!("big{k}"), serde_json::json!({ "problem": big }));
        }
        for &name in names {
            let file = std::fs::read_dir(here.join("tests/data/lits"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| {
                    let f = p.file_name().unwrap().to_str().unwrap();
                    f.starts_with(name) && f.ends_with(".txt")
                })
                .unwrap();
            let text = std::fs::read_to_string(file).unwrap();
            data.insert(name.to_string(), serde_json::json!({ "problem": text }));
        }
        let collection = serde_json::json!({ "name": "LITS", "data": data }).to_string();
        let file = write(dir.path(), &format!("{command}.json"), &collection);
        let r = common::run(
            &[
                command,
                "lits",
                file.to_str().unwrap(),
                "--time-limit",
                limit,
            ],
            None,
        );
        assert_eq!(r.code, 3, "{command}: {}{}", r.stdout, r.stderr);
        // Each small board's line or block ends in its own verdict, not the time limit.
        let small: Vec<&str> = r.stdout.split("janko-0").skip(1).collect();
        assert_eq!(small.len(), names.len(), "{command}: {}", r.stdout);
        for s in small {
            assert!(!s.contains("time limit"), "{command}: {}", r.stdout);
        }
    }
}

/// A collection waits between puzzles for what the last one's limit left running (its size
/// estimate, an encoding given up on), so that estimate must be quick on every board: a `?`
/// Shikaku clue's shapes were listed whole before trying them (the fourth power of the side),
/// and a collection of a 300×300 board of `?` and the example waited 20 s at a 0.1 s limit.
#[test]
fn a_collection_of_question_marks_keeps_its_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(here.join("docs/examples/shikaku.txt")).unwrap();
    let collection = serde_json::json!({ "name": "Shikaku", "data": {
        "q": { "problem": board(300, 300, false, " ", |_, _| "?") },
        "example": { "problem": example },
    }})
    .to_string();
    let file = write(dir.path(), "shikaku.json", &collection);
    let started = Instant::now();
    let r = common::run(
        &[
            "solve",
            "shikaku",
            file.to_str().unwrap(),
            "--time-limit",
            "0.1",
        ],
        None,
    );
    let took = started.elapsed();
    // The board of `?` itself is easy once encoded: alone on this machine it is solved within
    // the limit's grace, under the test suite's load it meets the limit. Either verdict is
    // right; what must hold is that the example after it is answered, and soon.
    assert!(r.code == 0 || r.code == 3, "{}{}", r.stdout, r.stderr);
    let (q, example) = r.stdout.split_once("#example\n").expect(&r.stdout);
    let q_verdict = q.lines().rfind(|l| !l.starts_with('#'));
    let expected = if r.code == 0 { "solved" } else { "time limit" };
    assert!(
        q_verdict.is_some_and(|l| l.contains(expected)),
        "{}",
        r.stdout
    );
    assert!(example.ends_with("solved\n"), "{}", r.stdout);
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// `explain` takes one puzzle: a file of puzz.link URLs is refused, not read as one board
/// (two LITS URLs were read as a board whose labels were the URLs: "no solution").
#[test]
fn explain_refuses_a_collection() {
    let dir = tempfile::tempdir().unwrap();
    let url = "https://puzz.link/p?lits/8/8/5ajmi9mhai2g514bdn32f340\n";
    let file = write(dir.path(), "urls.txt", &url.repeat(2));
    let r = common::run(&["explain", "lits", file.to_str().unwrap()], None);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("explain takes one puzzle, and this file holds 2"),
        "{}",
        r.stderr
    );
    let one = write(dir.path(), "url.txt", url);
    let r = common::run(&["explain", "lits", one.to_str().unwrap()], None);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // A collection's only puzzle is explained; one of another kind is refused, not read as
    // this kind's board.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let board = std::fs::read_to_string(here.join("tests/data/lits/janko-0001-6x7.txt")).unwrap();
    for (name, code) in [("lits", 0), ("masyu", 2)] {
        let json = serde_json::json!({ "name": name, "data": { "a": { "problem": board } } });
        let file = write(dir.path(), "one.json", &json.to_string());
        let r = common::run(&["explain", "lits", file.to_str().unwrap()], None);
        assert_eq!(r.code, code, "{name}: {}{}", r.stdout, r.stderr);
    }
}
