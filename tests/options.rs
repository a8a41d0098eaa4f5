//! Every puzzle's options: a format or flag that means nothing for a puzzle is refused with
//! exit 2 before anything is read or solved (the puzzle file named here does not exist, so an
//! error about the flag proves the flag was checked first), and the backend list.

mod common;

use common::run;

const MISSING: &str = "/nonexistent/puzzle.txt";

/// `args` (with the missing file) must fail with exit 2 naming `word`, not the file.
fn refused(args: &[&str], word: &str) {
    let r = run(args, None);
    assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(word),
        "{args:?}: expected {word:?} in {}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("cannot read"),
        "{args:?} read the file before refusing the flag: {}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "{args:?}");
}

#[test]
fn target_sudoku_refuses_what_it_does_not_have() {
    for f in ["box", "rects"] {
        refused(
            &["solve", "target-sudoku", MISSING, "--format", f],
            &format!("--format {f}"),
        );
        refused(
            &[
                "decode",
                "target-sudoku",
                MISSING,
                "--model",
                MISSING,
                "--format",
                f,
            ],
            &format!("--format {f}"),
        );
    }
    refused(
        &[
            "decode",
            "target-sudoku",
            MISSING,
            "--model",
            MISSING,
            "--format",
            "judge",
        ],
        "judge",
    );
    refused(&["solve", "target-sudoku", MISSING, "--count"], "--count");
    refused(&["solve", "target-sudoku", MISSING, "--unique"], "--unique");
    refused(
        &["solve", "target-sudoku", MISSING, "--lenient"],
        "--lenient",
    );
    refused(
        &["encode", "target-sudoku", MISSING, "--lenient"],
        "--lenient",
    );
    refused(
        &[
            "check",
            "target-sudoku",
            MISSING,
            "--answer",
            MISSING,
            "--lenient",
        ],
        "--lenient",
    );
    refused(
        &["generate", "target-sudoku", "--size", "9x9"],
        "possible values: sudoku, tatamibari",
    );
}

#[test]
fn tatamibari_refuses_what_it_does_not_have() {
    refused(
        &["solve", "tatamibari", MISSING, "--format", "judge"],
        "--format judge",
    );
    refused(
        &[
            "decode",
            "tatamibari",
            MISSING,
            "--model",
            MISSING,
            "--format",
            "judge",
        ],
        "judge",
    );
    refused(&["solve", "tatamibari", MISSING, "--lenient"], "--lenient");
    refused(
        &["encode", "tatamibari", MISSING, "--min-score", "5"],
        "--min-score",
    );
    refused(
        &[
            "decode",
            "tatamibari",
            MISSING,
            "--model",
            MISSING,
            "--min-score",
            "5",
        ],
        "--min-score",
    );
    refused(&["solve", "tatamibari", MISSING, "--count=0"], "--count");
    // Plain generation is instant: a time limit means something only with --unique or --grade.
    refused(
        &[
            "generate",
            "tatamibari",
            "--size",
            "5x5",
            "--time-limit",
            "3",
        ],
        "--unique",
    );
}

#[test]
fn kakkuro_refuses_what_it_does_not_have() {
    for f in ["judge", "box", "rects"] {
        refused(
            &["solve", "kakkuro", MISSING, "--format", f],
            &format!("--format {f}"),
        );
    }
    refused(&["solve", "kakkuro", MISSING, "--count=5"], "--count");
    refused(&["solve", "kakkuro", MISSING, "--unique"], "--unique");
    refused(
        &["generate", "kakkuro", "--size", "5x5"],
        "possible values: sudoku, tatamibari",
    );
}

#[test]
fn unknown_backends_and_conflicting_solver_flags_are_refused() {
    for puzzle in ["target-sudoku", "tatamibari", "kakkuro"] {
        refused(&["solve", puzzle, MISSING, "--solver", "nosuch"], "nosuch");
        // --threads races a portfolio; with one backend it would be ignored, so it is refused.
        for one in [["--solver", "varisat"], ["--solver-cmd", "cadical"]] {
            let args = [&["solve", puzzle, MISSING][..], &one, &["--threads", "2"]].concat();
            refused(&args, "drop --threads");
        }
        refused(&["solve", puzzle, MISSING, "--threads", "0"], "--threads");
        refused(
            &[
                "solve",
                puzzle,
                MISSING,
                "--solver",
                "varisat",
                "--solver-cmd",
                "cadical",
            ],
            "--solver",
        );
    }
    refused(
        &["solve", "kakkuro", MISSING, "--solver-cmd", ""],
        "--solver-cmd",
    );
}

/// The embedded CaDiCaL is a default cargo feature: a build without it says how to get it.
#[cfg(not(feature = "cadical"))]
#[test]
fn cadical_in_a_build_without_it_says_how_to_get_it() {
    refused(
        &["solve", "target-sudoku", MISSING, "--solver", "cadical"],
        "default features",
    );
}

#[test]
fn refused_before_solving_a_hard_board() {
    // The hardest bundled board takes seconds to prove; the refusal is instant.
    let board = common::data_dir("kakkuro").join("bench-12x12-seed2.txt");
    let start = std::time::Instant::now();
    let r = run(
        &[
            "solve",
            "kakkuro",
            board.to_str().unwrap(),
            "--format",
            "judge",
        ],
        None,
    );
    assert_eq!(r.code, 2);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn the_backends_are_listed() {
    let r = run(&["solvers"], None);
    assert_eq!(r.code, 0);
    for backend in common::backends() {
        assert!(
            r.stdout.lines().any(|l| l.starts_with(backend.name())),
            "{}",
            r.stdout
        );
    }
    assert!(r.stdout.contains("--solver-cmd"), "{}", r.stdout);
}

#[test]
fn generate_offers_only_what_it_makes_and_prints_json() {
    let help = run(&["generate", "--help"], None);
    assert!(
        help.stdout.contains("tatamibari")
            && help.stdout.contains("sudoku")
            && !help.stdout.contains("kakkuro"),
        "{}",
        help.stdout
    );
    let r = run(&["generate", "kakkuro", "--size", "3x3"], None);
    assert_eq!(r.code, 2);
    let j = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "5x5",
            "--seed",
            "3",
            "--unique",
            "--format",
            "json",
            "-q",
        ],
        None,
    );
    assert_eq!((j.code, j.stderr.as_str()), (0, ""));
    assert_eq!(common::json_field(&j.stdout, "unique"), "true");
    let text: String = serde_json::from_str(&common::json_field(&j.stdout, "text")).unwrap();
    let plain = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "5x5",
            "--seed",
            "3",
            "--unique",
        ],
        None,
    );
    assert_eq!(text, plain.stdout, "the same puzzle as the text format");
    let u = run(
        &["solve", "tatamibari", "-", "--unique"],
        Some(text.as_bytes()),
    );
    assert_eq!(u.code, 0, "{}", u.stdout);
}

#[test]
fn every_error_has_one_style() {
    // clap's errors (an unknown flag, a bad value) and ours (a missing file) alike, uncoloured.
    for args in [
        &["solve", "tatamibari", "x", "--frobnicate"][..],
        &["solve", "sudoku", "x"],
        &["solve", "tatamibari", MISSING],
    ] {
        let r = run(args, None);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(
            r.stderr.starts_with("puzzle-sat: error: "),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains('\x1b'), "{args:?}: {}", r.stderr);
    }
}

/// `--help` says which puzzles print each format, and `decode` offers none it refuses (it
/// listed `judge` and `url` for every puzzle).
#[test]
fn help_lists_each_format_with_its_puzzles() {
    let help = run(&["solve", "--help"], None).stdout;
    assert!(
        help.contains("- judge: target-sudoku\n")
            && help.contains("- rects: tatamibari, shikaku\n")
            && help.contains("- svg:   every puzzle\n"),
        "{help}"
    );
    let help = run(&["decode", "--help"], None).stdout;
    assert!(
        !help.contains("- judge")
            && !help.contains("- url")
            && help.contains("- line:  sudoku, target-sudoku, kakkuro, kakuro\n"),
        "{help}"
    );
}
