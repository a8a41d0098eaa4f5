//! Tatamibari end to end, through the real binary: the 186-puzzle corpus, the NP-hardness
//! gadgets, generated puzzles, snapshots, DIMACS round trip, bad input; and a brute-force
//! cross-check of the encoding (corner exclusion included) on small boards.

mod common;

use common::{data_dir, json_field, run};
use encodings::genres::tatamibari::generate::Rng;
use encodings::genres::tatamibari::{self as tb, Board, Cell, Rect, Shape, Solution, Tatamibari};
use encodings::puzzle::{Ended, Goal};
use puzzle_sat::runner::{self, Options, Progress};
use std::path::Path;

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `name → solutions` from INDEX.tsv (`>=2` is read as 2).
fn index() -> Vec<(String, u64)> {
    let text = std::fs::read_to_string(data_dir("tatamibari").join("INDEX.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[5].trim_start_matches(">=").parse().unwrap(),
            )
        })
        .collect()
}

fn rects_from_json(json: &str, key: &str) -> Solution {
    let nums: Vec<usize> = json_field(json, key)
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    nums.chunks(4)
        .map(|c| Rect {
            row: c[0],
            col: c[1],
            height: c[2],
            width: c[3],
        })
        .collect()
}

/// The independent validator on a list of rectangles.
fn validate(board: &Board, sol: &Solution) -> Result<(), tb::Violation> {
    tb::check_rects(board, sol)
}

fn board_of(path: &Path) -> Board {
    tb::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn all_186_puzzles_solve_validate_and_count_as_the_index_says() {
    let puzzles: Vec<(String, u64)> = index()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("gadgets/"))
        .collect();
    assert_eq!(puzzles.len(), 186);
    for (name, solutions) in &puzzles {
        let path = data_dir("tatamibari").join(format!("{name}.txt"));
        let r = run(
            &[
                "solve",
                "tatamibari",
                path_str(&path),
                "--count",
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(
            json_field(&r.stdout, "solutions"),
            solutions.to_string(),
            "{name}"
        );
        assert_eq!(json_field(&r.stdout, "complete"), "true", "{name}");
        let sol = rects_from_json(&r.stdout, "rectangles");
        assert_eq!(validate(&board_of(&path), &sol), Ok(()), "{name}");
        // The corpus's own solution passes the `check` command too.
        let answer = path.with_extension("sol");
        let r = run(
            &[
                "check",
                "tatamibari",
                path_str(&path),
                "--answer",
                path_str(&answer),
            ],
            None,
        );
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "valid\n"),
            "{name}: {}",
            r.stderr
        );
    }
}

#[test]
fn unique_puzzles_match_their_checked_solution() {
    // Where the solution is unique, ours must be the corpus's (compared as label groupings).
    for (name, solutions) in index() {
        if solutions != 1 || name.starts_with("gadgets/") || !name.starts_with("janko-0") {
            continue;
        }
        let path = data_dir("tatamibari").join(format!("{name}.txt"));
        let board = board_of(&path);
        let sol_text = std::fs::read_to_string(path.with_extension("sol")).unwrap();
        let theirs: Vec<char> = tb::parse_labels(&board, &sol_text).unwrap();
        let r = run(
            &["solve", "tatamibari", path_str(&path), "--format", "rects"],
            None,
        );
        assert_eq!(r.code, 0);
        for line in r.stdout.lines() {
            let v: Vec<usize> = line.split(' ').map(|t| t.parse().unwrap()).collect();
            let rect = Rect {
                row: v[0],
                col: v[1],
                height: v[2],
                width: v[3],
            };
            let label = theirs[rect.row * board.cols + rect.col];
            let same = (0..board.rows * board.cols)
                .filter(|&k| theirs[k] == label)
                .count();
            assert_eq!(same, rect.height * rect.width, "{name}: {line}");
            assert!(
                rect.cells()
                    .all(|(r, c)| theirs[r * board.cols + c] == label),
                "{name}: {line}"
            );
        }
    }
}

#[test]
fn the_24_gadgets() {
    let gadgets: Vec<(String, u64)> = index()
        .into_iter()
        .filter(|(n, _)| n.starts_with("gadgets/"))
        .collect();
    assert_eq!(gadgets.len(), 24);
    for (name, solutions) in gadgets {
        let path = data_dir("tatamibari").join(format!("{name}.txt"));
        let board = board_of(&path);
        let r = run(
            &[
                "solve",
                "tatamibari",
                path_str(&path),
                "--unique",
                "--format",
                "json",
            ],
            None,
        );
        match solutions {
            0 => {
                assert_eq!(r.code, 1, "{name}: {}", r.stdout);
                assert_eq!(json_field(&r.stdout, "status"), "\"no_solution\"");
            }
            1 => {
                assert_eq!(r.code, 0, "{name}");
                assert_eq!(json_field(&r.stdout, "unique"), "true", "{name}");
                assert_eq!(
                    validate(&board, &rects_from_json(&r.stdout, "rectangles")),
                    Ok(())
                );
            }
            _ => {
                assert_eq!(r.code, 1, "{name}: not unique exits 1");
                assert_eq!(json_field(&r.stdout, "unique"), "false", "{name}");
                let (a, b) = (
                    rects_from_json(&r.stdout, "rectangles"),
                    rects_from_json(&r.stdout, "second"),
                );
                assert_ne!(a, b);
                assert_eq!(validate(&board, &a), Ok(()), "{name}");
                assert_eq!(validate(&board, &b), Ok(()), "{name}");
            }
        }
    }
}

#[test]
fn the_seeds_five_puzzles_in_label_and_box_formats() {
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        for name in ["codegolf-3x3", "codegolf-4x4", "codegolf-5x5", "codegolf-7x7", "codegolf-10x10"] {
            let path = data_dir("tatamibari").join(format!("{name}.txt"));
            // Some have several tilings: one backend draws the same one in both formats.
            let labels = run(&["solve", "tatamibari", path_str(&path), "--solver", "varisat"], None);
            let boxed = run(&["solve", "tatamibari", path_str(&path), "--format", "box", "--solver", "varisat"], None);
            assert_eq!((labels.code, boxed.code), (0, 0));
            // The printed labels pass the validator, read back as an answer file would be.
            let board = board_of(&path);
            assert_eq!(tb::check(&board, &tb::parse_labels(&board, &labels.stdout).unwrap()), Ok(()), "{name}");
            insta::assert_snapshot!(format!("tatamibari-{name}"), format!("{}\n{}", labels.stdout, boxed.stdout));
        }
    });
}

#[test]
fn generated_puzzles_solve_and_unique_ones_are_unique() {
    for (size, seed, unique) in [
        ("8x8", 1, false),
        ("15x11", 2, true),
        ("20x20", 3, true),
        ("64x64", 4, false),
        ("40x40", 5, true),
        ("60x60", 1, true),
        ("1x7", 5, true),
    ] {
        let seed = seed.to_string();
        let mut args = vec!["generate", "tatamibari", "--size", size, "--seed", &seed];
        if unique {
            args.push("--unique");
        }
        let r = run(&args, None);
        assert_eq!(r.code, 0, "{size}: {}", r.stderr);
        let board = tb::parse(&r.stdout).unwrap();
        let (rows, cols) = size.split_once('x').unwrap();
        assert_eq!(
            (board.rows.to_string(), board.cols.to_string()),
            (rows.to_string(), cols.to_string())
        );
        let mode: &[&str] = if unique {
            &["--unique"]
        } else {
            &["--count=2"]
        };
        let s = run(
            &[
                &["solve", "tatamibari", "-"][..],
                mode,
                &["--format", "json"],
            ]
            .concat(),
            Some(r.stdout.as_bytes()),
        );
        assert_eq!(s.code, 0, "{size}: {}", s.stderr);
        assert_eq!(
            validate(&board, &rects_from_json(&s.stdout, "rectangles")),
            Ok(()),
            "{size}"
        );
        if unique {
            assert_eq!(
                json_field(&s.stdout, "unique"),
                "true",
                "{size} seed {seed}"
            );
        }
        assert_eq!(run(&args, None).stdout, r.stdout, "same seed, same puzzle");
    }
}

/// Cells per clue of a puzzle file.
fn cells_per_clue(board: &Board) -> f64 {
    let clues = board
        .cells
        .iter()
        .filter(|c| matches!(c, Cell::Clue(_)))
        .count();
    (board.rows * board.cols) as f64 / clues as f64
}

/// `--cells-per-clue`: plain puzzles reach it and stay solvable; unique ones are unique by a
/// count that does not use the encoder (brute force) on boards small enough for it, and by
/// `solve --unique` with the validator on larger ones, and are sparser than without it.
#[test]
fn sparser_puzzles_reach_their_target_and_unique_ones_stay_unique() {
    for (size, seed, target) in [("40x40", 1, "6"), ("30x50", 2, "8"), ("1x9", 3, "3")] {
        let r = run(
            &[
                "generate",
                "tatamibari",
                "--size",
                size,
                "--seed",
                &seed.to_string(),
                "--cells-per-clue",
                target,
            ],
            None,
        );
        assert_eq!(r.code, 0, "{size}: {}", r.stderr);
        let board = tb::parse(&r.stdout).unwrap();
        // Merging stops when no two rectangles share a whole side (at about 6.5 cells per clue
        // on large boards), and says so.
        let reached = cells_per_clue(&board) >= target.parse::<f64>().unwrap();
        assert_eq!(
            !reached,
            r.stderr.contains(&format!(
                "not {target}: no two rectangles left share a whole side"
            )),
            "{size}: {}",
            r.stderr
        );
        assert!(
            reached || cells_per_clue(&board) > 6.0,
            "{size}: {}",
            cells_per_clue(&board)
        );
        let s = run(
            &["solve", "tatamibari", "-", "--format", "json"],
            Some(r.stdout.as_bytes()),
        );
        assert_eq!(s.code, 0, "{size}: {}", s.stderr);
        assert_eq!(
            validate(&board, &rects_from_json(&s.stdout, "rectangles")),
            Ok(()),
            "{size}"
        );
    }
    let mut sparser = 0;
    for seed in 0..24 {
        let size = ["4x4", "3x5", "3x6", "2x8"][seed % 4];
        let r = run(
            &[
                "generate",
                "tatamibari",
                "--size",
                size,
                "--seed",
                &seed.to_string(),
                "--unique",
                "--cells-per-clue",
                "5",
                "-q",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{size} seed {seed}: {}", r.stderr);
        let board = tb::parse(&r.stdout).unwrap();
        assert_eq!(
            brute_force_count(&board),
            1,
            "{size} seed {seed}:\n{}",
            r.stdout
        );
        let plain = run(
            &[
                "generate",
                "tatamibari",
                "--size",
                size,
                "--seed",
                &seed.to_string(),
                "--unique",
                "-q",
            ],
            None,
        );
        sparser += usize::from(
            cells_per_clue(&board) > cells_per_clue(&tb::parse(&plain.stdout).unwrap()),
        );
    }
    assert!(
        sparser >= 12,
        "only {sparser} of 24 small puzzles came out sparser"
    );
    for (size, seed) in [("30x30", 1), ("40x25", 2)] {
        let args = [
            "generate",
            "tatamibari",
            "--size",
            size,
            "--seed",
            &seed.to_string(),
            "--unique",
            "--cells-per-clue",
            "5",
            "-q",
        ];
        let r = run(&args, None);
        assert_eq!(r.code, 0, "{size}: {}", r.stderr);
        let board = tb::parse(&r.stdout).unwrap();
        assert!(
            cells_per_clue(&board) > 3.8,
            "{size}: {}",
            cells_per_clue(&board)
        );
        let s = run(
            &["solve", "tatamibari", "-", "--unique", "--format", "json"],
            Some(r.stdout.as_bytes()),
        );
        assert_eq!(
            json_field(&s.stdout, "unique"),
            "true",
            "{size}: {}",
            s.stderr
        );
        assert_eq!(
            validate(&board, &rects_from_json(&s.stdout, "rectangles")),
            Ok(()),
            "{size}"
        );
        assert_eq!(run(&args, None).stdout, r.stdout, "same seed, same puzzle");
    }
}

/// `generate`'s difficulty: the rectangles unit propagation alone decides. Whatever propagation
/// decides holds in every solution, so it is at most what `--hints` finds; one per clue.
#[test]
fn generated_difficulty_is_at_most_the_hints() {
    for (size, seed, unique) in [
        ("15x11", "2", true),
        ("30x30", "1", false),
        ("10x10", "1", true),
    ] {
        let mut args = vec![
            "generate",
            "tatamibari",
            "--size",
            size,
            "--seed",
            seed,
            "--format",
            "json",
        ];
        if unique {
            args.push("--unique");
        }
        let r = run(&args, None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let text = v["text"].as_str().unwrap();
        let clues = text.chars().filter(|c| "+-|?".contains(*c)).count() as u64;
        assert_eq!(v["parts"].as_u64(), Some(clues));
        let propagated = v["propagated"].as_u64().unwrap();
        let h = run(
            &["solve", "tatamibari", "-", "--hints", "--format", "json"],
            Some(text.as_bytes()),
        );
        let decided = json_field(&h.stdout, "decided").parse::<u64>().unwrap();
        assert!(
            propagated <= decided,
            "{size}: {propagated} propagated, {decided} in every solution"
        );
        if unique {
            assert_eq!(decided, clues);
        }
    }
    // A tiny unique puzzle that propagation solves whole says so on stderr.
    let r = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "10x10",
            "--seed",
            "1",
            "--unique",
            "--progress",
        ],
        None,
    );
    assert!(
        r.stderr
            .contains("unit propagation alone decides 32 of the 32 rectangles"),
        "{}",
        r.stderr
    );
}

#[test]
fn dimacs_round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = data_dir("tatamibari").join("codegolf-10x10.txt");
    let r = run(&["encode", "tatamibari", path_str(&path)], None);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("c ") && l.ends_with(" rect 0 0 1 5")),
        "named rectangle variables"
    );
    let mut solver = varisat::Solver::new();
    solver.add_dimacs_cnf(r.stdout.as_bytes()).unwrap();
    assert!(solver.solve().unwrap());
    let model: Vec<String> = solver
        .model()
        .unwrap()
        .iter()
        .map(|l| l.to_dimacs().to_string())
        .collect();
    let model_path = dir.join("model");
    std::fs::write(&model_path, format!("SAT\n{} 0\n", model.join(" "))).unwrap();
    let d = run(
        &[
            "decode",
            "tatamibari",
            path_str(&path),
            "--model",
            path_str(&model_path),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert_eq!(
        validate(&board_of(&path), &rects_from_json(&d.stdout, "rectangles")),
        Ok(())
    );
}

#[test]
fn check_names_the_broken_rule() {
    let path = data_dir("tatamibari").join("codegolf-3x3.txt");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (answer, expect) in [
        ("122\n134\n554\n", "valid"),
        ("122\n132\n554\n", "not a rectangle"),
        ("122\n133\n554\n", "two clues"),
    ] {
        let a = dir.join("answer");
        std::fs::write(&a, answer).unwrap();
        let r = run(
            &[
                "check",
                "tatamibari",
                path_str(&path),
                "--answer",
                path_str(&a),
            ],
            None,
        );
        assert!(r.stdout.contains(expect), "{answer}: {}", r.stdout);
        assert_eq!(r.code, if expect == "valid" { 0 } else { 1 });
    }
    let a = dir.join("short");
    std::fs::write(&a, "122\n").unwrap();
    let r = run(
        &[
            "check",
            "tatamibari",
            path_str(&path),
            "--answer",
            path_str(&a),
        ],
        None,
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("short:2:1:"), "{}", r.stderr);
}

#[test]
fn a_byte_order_mark_is_passed_over_before_a_header_and_in_an_answer() {
    // Editors on Windows write one: the board after it was read, but not a header line, nor
    // an answer file, whose first row then had one cell too many.
    let board = "\u{feff}puzzle-sat: tatamibari\n+.-.\n...-\n";
    let r = run(&["solve", "tatamibari", "-"], Some(board.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let path = data_dir("tatamibari").join("codegolf-3x3.txt");
    let tmp = tempfile::tempdir().unwrap();
    let rects = run(
        &["solve", "tatamibari", path_str(&path), "--format", "rects"],
        None,
    )
    .stdout;
    for answer in [
        "\u{feff}122\n134\n554\n".to_string(),
        format!("\u{feff}{rects}"),
    ] {
        let a = tmp.path().join("answer");
        std::fs::write(&a, &answer).unwrap();
        let r = run(
            &[
                "check",
                "tatamibari",
                path_str(&path),
                "--answer",
                path_str(&a),
            ],
            None,
        );
        assert_eq!(r.code, 0, "{answer:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.starts_with("valid"), "{}", r.stdout);
    }
}

#[test]
fn a_board_too_large_to_solve_is_refused_naming_its_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("huge.txt");
    std::fs::write(&path, format!("+{}\n", ".".repeat(2999)).repeat(3000)).unwrap();
    for command in ["solve", "encode"] {
        let r = run(&[command, "tatamibari", path_str(&path)], None);
        assert_eq!(r.code, 2, "{command}: {}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("{}: the puzzle is too large", path_str(&path))),
            "{command}: {}",
            r.stderr
        );
    }
    let r = run(&["solve", "tatamibari", "tatamibari/4000/4000/"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("tatamibari/4000/4000: the puzzle is too large"),
        "{}",
        r.stderr
    );
}

#[test]
fn an_answer_of_millions_of_lines_is_refused_in_little_memory() {
    // 16 M lines of one label: each line was copied (a Vec per line, twice): 0.9 GB to say
    // the answer has too many rows.
    let path = data_dir("tatamibari").join("codegolf-3x3.txt");
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("answer");
    std::fs::write(&a, "A\n".repeat(16 << 20)).unwrap();
    let (r, mib) = common::run_measured(
        &[
            "check",
            "tatamibari",
            path_str(&path),
            "--answer",
            path_str(&a),
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("answer:4:1: the answer has 16777216 rows, the board 3"),
        "{}",
        r.stderr
    );
    assert!(mib < 200, "{mib} MiB to refuse a 32 MiB answer");
}

#[test]
fn bad_input_exits_2_and_unsolvable_exits_1() {
    for (text, place) in [
        ("..+\n.x.\n", "<stdin>:2:2:"),
        ("", "<stdin>:1:1:"),
        ("\n\n\n", "<stdin>:1:1:"),
        ("..\n...\n", "<stdin>:1:3:"),
    ] {
        let r = run(&["solve", "tatamibari", "-"], Some(text.as_bytes()));
        assert_eq!(r.code, 2, "{text:?}");
        assert!(r.stderr.contains(place), "{text:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"));
    }
    for text in ["...\n...\n", "-\n", "+|\n"] {
        let r = run(&["solve", "tatamibari", "-"], Some(text.as_bytes()));
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (1, "no solution\n"),
            "{text:?}"
        );
    }
    let r = run(
        &["solve", "tatamibari", "-", "--format", "judge"],
        Some(b"+\n"),
    );
    assert_eq!(r.code, 2);
    let r = run(&["generate", "tatamibari", "--size", "0x5"], None);
    assert_eq!(r.code, 2);
    let r = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "60x60",
            "--seed",
            "1",
            "--unique",
            "--time-limit",
            "0.001",
        ],
        None,
    );
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{}", r.stderr);
    assert!(r.stderr.contains("time limit"));
}

/// All tilings of a small board by rectangles, enumerated without the encoder, each judged by
/// the independent validator: their number must equal the solver's count. This is the test of
/// the corner-exclusion argument in docs/encodings/tatamibari.md.
fn brute_force_count(board: &Board) -> u64 {
    fn go(board: &Board, owner: &mut Vec<Option<usize>>, rects: &mut Vec<Rect>, count: &mut u64) {
        let Some(k) =
            (0..owner.len()).find(|&k| owner[k].is_none() && board.cells[k] != Cell::Hole)
        else {
            if validate(board, rects).is_ok() {
                *count += 1;
            }
            return;
        };
        let (r, c) = (k / board.cols, k % board.cols);
        for height in 1..=board.rows - r {
            for width in 1..=board.cols - c {
                let rect = Rect {
                    row: r,
                    col: c,
                    height,
                    width,
                };
                if rect.cells().any(|(a, b)| {
                    owner[a * board.cols + b].is_some() || board.cell(a, b) == Cell::Hole
                }) {
                    continue;
                }
                rect.cells()
                    .for_each(|(a, b)| owner[a * board.cols + b] = Some(rects.len()));
                rects.push(rect);
                go(board, owner, rects, count);
                rects.pop();
                rect.cells()
                    .for_each(|(a, b)| owner[a * board.cols + b] = None);
            }
        }
    }
    let mut count = 0;
    go(
        board,
        &mut vec![None; board.rows * board.cols],
        &mut Vec::new(),
        &mut count,
    );
    count
}

#[test]
fn solver_counts_equal_brute_force_counts_on_small_random_boards() {
    for backend in common::backends() {
        counts_equal_brute_force_with(
            &Options {
                backend,
                time_limit: None,
                progress: Progress::Never,
                cubes: None,
            },
            false,
        );
    }
}

#[test]
fn with_unknown_clues_too() {
    for backend in common::backends() {
        counts_equal_brute_force_with(
            &Options {
                backend,
                time_limit: None,
                progress: Progress::Never,
                cubes: None,
            },
            true,
        );
    }
}

/// `unknown`: a quarter of the clues are `?` (any shape), and boards are at most 3×4, since
/// `?` clues multiply the tilings to enumerate.
fn counts_equal_brute_force_with(opts: &Options, unknown: bool) {
    let (boards, seed) = common::random_boards(300, if unknown { 2027 } else { 2026 });
    let mut rng = Rng::new(seed);
    let mut nonzero = 0;
    let mut with_unknown = 0;
    for round in 0..boards {
        let (rows, cols) = (1 + rng.below(if unknown { 3 } else { 4 }), 1 + rng.below(4));
        let cells: Vec<Cell> = (0..rows * cols)
            .map(|_| match rng.below(10) {
                0 if unknown && rng.below(4) == 0 => Cell::Clue(Shape::Any),
                0 => Cell::Clue(Shape::Square),
                1 => Cell::Clue(Shape::Wide),
                2 => Cell::Clue(Shape::Tall),
                3 if round % 3 == 0 => Cell::Hole,
                4 if unknown => Cell::Clue(Shape::Any),
                _ => Cell::Blank,
            })
            .collect();
        with_unknown += cells.contains(&Cell::Clue(Shape::Any)) as usize;
        let board = Board { rows, cols, cells };
        let expected = brute_force_count(&board);
        let found = runner::search::<Tatamibari>(
            board.clone(),
            Goal::Enumerate { max: 10_000 },
            usize::MAX,
            opts,
        )
        .unwrap();
        assert_eq!(found.ended, Ended::Proved);
        assert_eq!(
            found.count,
            expected,
            "board\n{} on {}",
            board.to_text(),
            opts.backend.name()
        );
        for (sol, ()) in &found.answers {
            assert_eq!(validate(&board, sol), Ok(()));
        }
        nonzero += (expected > 0) as usize;
    }
    assert!(
        nonzero * 10 >= boards,
        "the random boards exercise solvable cases too ({nonzero})"
    );
    assert!(
        !unknown || with_unknown * 3 >= boards,
        "a third of the boards have a ? clue ({with_unknown})"
    );
}

#[test]
fn a_bare_count_never_takes_the_file_name_for_a_number() {
    let path = data_dir("tatamibari").join("codegolf-7x7.txt");
    let r = run(&["solve", "tatamibari", "--count", path_str(&path)], None);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "13 solutions\n"),
        "{}",
        r.stderr
    );
    let r = run(&["solve", "tatamibari", path_str(&path), "--count=5"], None);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "more than 5 solutions (stopped at 6)\n"),
        "{}",
        r.stderr
    );
}

#[test]
fn unique_answers_yes_or_no_in_the_exit_status() {
    for (name, code) in [("codegolf-10x10", 0), ("codegolf-5x5", 1)] {
        let path = data_dir("tatamibari").join(format!("{name}.txt"));
        let r = run(&["solve", "tatamibari", path_str(&path), "--unique"], None);
        assert_eq!(r.code, code, "{name}: {}", r.stdout);
        assert!(
            r.stdout.ends_with(if code == 0 {
                "\nunique\n"
            } else {
                "\nnot unique: two different solutions\n"
            }),
            "{}",
            r.stdout
        );
    }
}

/// Rectangle numbers that overflow (they once wrapped to a rectangle of no cells, and panicked
/// in debug builds) or that leave the board: a clear error or a broken rule, never a panic.
#[test]
fn huge_rectangle_numbers_are_an_error_not_a_wrap() {
    let tmp = tempfile::tempdir().unwrap();
    let board = tmp.path().join("board.txt");
    std::fs::write(&board, "+.\n..\n").unwrap();
    let check = |answer: &str| {
        let path = tmp.path().join("answer.txt");
        std::fs::write(&path, answer).unwrap();
        let r = run(
            &[
                "check",
                "tatamibari",
                path_str(&board),
                "--answer",
                path_str(&path),
            ],
            None,
        );
        assert!(!r.stderr.contains("panicked"), "{answer:?}: {}", r.stderr);
        r
    };
    for (answer, at, what) in [
        (
            "1 0 18446744073709551615 1\n",
            ":1:1:",
            "reaches past any board",
        ),
        (
            "0 0 2 2\n18446744073709551615 3 1 1\n",
            ":2:1:",
            "reaches past any board",
        ),
        ("0 0 2 18446744073709551616\n", ":1:7:", "too large"),
        ("0 0 0 2\n", ":1:5:", "height 0"),
    ] {
        let r = check(answer);
        assert_eq!(r.code, 2, "{answer:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains(&format!("answer.txt{at}")) && r.stderr.contains(what),
            "{answer:?}: {}",
            r.stderr
        );
    }
    let r = check("0 0 2 2\n18446744073709551614 0 1 1\n");
    assert_eq!((r.code, r.stdout.as_str()), (1, "invalid: row 18446744073709551615 column 1: covered twice, or a rectangle leaves the board there\n"));
}

#[test]
fn any_number_of_rectangles_is_checked() {
    // 40,000 squares in one row: past the 20,000 distinct labels the checker once had.
    let line = format!("{}\n", "+".repeat(40_000));
    let r = run(
        &["solve", "tatamibari", "-", "--format", "json"],
        Some(line.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"));
    let board = tb::parse(&line).unwrap();
    let sol = rects_from_json(&r.stdout, "rectangles");
    assert_eq!(sol.len(), 40_000);
    assert_eq!(validate(&board, &sol), Ok(()));
    // And a list with two rectangles on one cell is caught however long it is.
    let mut twice = sol.clone();
    twice.push(sol[39_999]);
    assert!(validate(&board, &twice).is_err());
}

#[test]
fn a_board_whose_formula_cannot_fit_is_refused_at_once() {
    // One clue on a 1000×1000 board: hundreds of millions of candidate rectangles.
    let mut text = format!("{}\n", ".".repeat(1000)).repeat(1000);
    text.replace_range(500..501, "-");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one-clue.txt");
    std::fs::write(&file, text).unwrap();
    for cmd in ["solve", "encode"] {
        let (r, mib) = common::run_measured(&[cmd, "tatamibari", file.to_str().unwrap()], None);
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert!(
            r.stderr.contains("too large") && r.stderr.contains("million literals"),
            "{}",
            r.stderr
        );
        assert!(mib < 200, "{cmd} took {mib} MiB to refuse");
    }
}

#[test]
fn a_row_of_tall_clues_across_a_tall_board_is_solved_by_probing() {
    // 21 M variables and 5.4 GiB in varisat once, then refused as too large: every cell of a
    // column can belong only to that column's clue, so probing leaves the whole columns alone.
    let mut rows = vec![".".repeat(10); 256];
    rows[128] = "|".repeat(10);
    let dir = tempfile::tempdir().unwrap();
    let tall = dir.path().join("tall.txt");
    std::fs::write(&tall, rows.join("\n") + "\n").unwrap();
    let (r, mib) = common::run_measured(
        &[
            "solve",
            "tatamibari",
            tall.to_str().unwrap(),
            "--format",
            "rects",
            "--unique",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let columns: String = (0..10).map(|c| format!("0 {c} 256 1\n")).collect();
    assert!(r.stdout.starts_with(&columns), "{}", r.stdout);
    assert!(mib < 1024, "took {mib} MiB");
}

/// Without `--seed`, `generate` picks a seed and prints it (stderr, and `seed` in JSON); that
/// seed makes the same puzzle again. (Every run used seed 0 before.)
#[test]
fn generate_picks_a_seed_and_says_which() {
    let r = run(&["generate", "tatamibari", "--size", "6x6"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let seed = r
        .stderr
        .split("seed ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .expect("the seed is printed")
        .to_string();
    let again = run(
        &["generate", "tatamibari", "--size", "6x6", "--seed", &seed],
        None,
    );
    assert_eq!(again.stdout, r.stdout, "seed {seed}");
    let seeds: std::collections::HashSet<String> = (0..4)
        .map(|_| {
            json_field(
                &run(
                    &[
                        "generate",
                        "tatamibari",
                        "--size",
                        "6x6",
                        "--format",
                        "json",
                        "-q",
                    ],
                    None,
                )
                .stdout,
                "seed",
            )
        })
        .collect();
    assert!(seeds.len() > 1, "four runs, one seed: {seeds:?}");
}

/// A board from a random tiling (sides up to 3, placed row-major where free), one clue of the
/// rectangle's shape in a random cell of each: solvable when the tiling meets no four-corner
/// point, often otherwise too, sometimes not.
fn tiled_board(rows: usize, cols: usize, rng: &mut Rng) -> Board {
    let mut taken = vec![false; rows * cols];
    let mut cells = vec![Cell::Blank; rows * cols];
    for k in 0..rows * cols {
        if taken[k] {
            continue;
        }
        let (r, c) = (k / cols, k % cols);
        let (mut height, mut width) = (
            (1 + rng.below(3)).min(rows - r),
            (1 + rng.below(3)).min(cols - c),
        );
        while width > 1 && (0..width).any(|d| taken[r * cols + c + d]) {
            width -= 1;
        }
        while height > 1 && (0..width).any(|d| taken[(r + height - 1) * cols + c + d]) {
            height -= 1;
        }
        let rect = Rect {
            row: r,
            col: c,
            height,
            width,
        };
        rect.cells().for_each(|(a, b)| taken[a * cols + b] = true);
        let (a, b) = (r + rng.below(height), c + rng.below(width));
        cells[a * cols + b] = Cell::Clue(Shape::of(height, width));
    }
    Board { rows, cols, cells }
}

/// The sweep (a first answer window by window, for large sparse boards) on small random boards
/// with tiny windows, in bands of rows and in blocks of columns: every answer it puts together
/// passes the independent validator by itself (the sweep's own final check is left out here), a
/// window it finds no cover for is on a board brute force finds no solution of, and with one window as tall as the
/// board it finds an answer exactly when brute force does; so does the sweep itself, which
/// goes across the columns of a wide board (half of these boards). A band of rows' relaxation
/// (what the sweep asks at a dead end) has an answer on every solvable board.
#[test]
fn sweep_windows_fit_together_and_one_window_finds_every_solvable_board() {
    use encodings::genres::tatamibari::sweep::{
        blocks, relaxation, sweep, windows, Bands, Grid, Swept,
    };
    use encodings::solver::SolveResult;
    let (boards, seed) = common::random_boards(150, 2031);
    for backend in common::backends() {
        let solvers = backend.solvers(encodings::solver::Stop::new());
        let mut rng = Rng::new(seed);
        let (mut assembled, mut dead_ends, mut solvable, mut refuted) = (0, 0, 0, 0);
        let (mut in_blocks, mut block_dead_ends, mut no_cover) = (0, 0, 0);
        for _ in 0..boards {
            let (mut rows, mut cols) = (3 + rng.below(4), 1 + rng.below(3));
            if rng.below(2) == 0 {
                (rows, cols) = (cols, rows);
            }
            let board = tiled_board(rows, cols, &mut rng);
            let kept = tb::kept_candidates(&board);
            let expected = brute_force_count(&board);
            solvable += (expected > 0) as usize;
            let mut stats = Default::default();
            let report = &mut |_| {};
            for bands in [
                Bands { band: 1, look: 1 },
                Bands { band: 1, look: 0 },
                Bands { band: 2, look: 1 },
            ] {
                match windows(&board, &kept, bands, &solvers, report).unwrap() {
                    Swept::Found(sol) => {
                        assert_eq!(
                            validate(&board, &sol),
                            Ok(()),
                            "{bands:?} on\n{}",
                            board.to_text()
                        );
                        assembled += 1;
                    }
                    Swept::DeadEnd => dead_ends += 1,
                    Swept::NoCover => {
                        assert_eq!(
                            expected,
                            0,
                            "{bands:?} found no cover on\n{}",
                            board.to_text()
                        );
                        no_cover += 1;
                    }
                    Swept::Stopped => panic!("no stop was raised"),
                }
            }
            // Blocks of columns too, with windows reaching past them or not.
            for (band, look, margin) in [(1, 0, 0), (1, 1, 1), (2, 1, 0), (1, 2, 1)] {
                let grid = Grid {
                    rows: Bands { band, look },
                    cols: Bands {
                        band: 1 + margin,
                        look,
                    },
                    margin,
                };
                match blocks(&board, &kept, grid, &solvers, report).unwrap() {
                    Swept::Found(sol) => {
                        assert_eq!(
                            validate(&board, &sol),
                            Ok(()),
                            "{grid:?} on\n{}",
                            board.to_text()
                        );
                        in_blocks += 1;
                    }
                    Swept::DeadEnd => block_dead_ends += 1,
                    Swept::NoCover => {
                        assert_eq!(
                            expected,
                            0,
                            "{grid:?} found no cover on\n{}",
                            board.to_text()
                        );
                        no_cover += 1;
                    }
                    Swept::Stopped => panic!("no stop was raised"),
                }
            }
            let whole = windows(
                &board,
                &kept,
                Bands {
                    band: rows,
                    look: 0,
                },
                &solvers,
                report,
            )
            .unwrap();
            assert_eq!(
                matches!(whole, Swept::Found(_)),
                expected > 0,
                "one window on\n{}",
                board.to_text()
            );
            let along = sweep(
                &board,
                &kept,
                Grid::rows(Bands {
                    band: rows.max(cols),
                    look: 0,
                }),
                &solvers,
                report,
            )
            .unwrap();
            assert_eq!(
                matches!(along, Swept::Found(_)),
                expected > 0,
                "one window, swept along, on\n{}",
                board.to_text()
            );
            // Any band of rows, with nothing kept, is a relaxation: a solvable board satisfies it.
            let top = rng.below(rows);
            let band = top..top + 1 + rng.below(rows - top);
            let relaxed =
                relaxation(&board, &kept, band.clone(), &solvers, &mut stats, report).unwrap();
            assert!(
                expected == 0 || relaxed == SolveResult::Sat,
                "rows {band:?} of\n{}",
                board.to_text()
            );
            refuted += (relaxed == SolveResult::Unsat) as usize;
        }
        // The boards exercise both outcomes.
        assert!(assembled * 2 >= boards && in_blocks * 2 >= boards && no_cover > 0 && refuted > 0, "{assembled} answers in bands, {in_blocks} in blocks, {no_cover} without cover, {solvable} solvable, {refuted} relaxations refuted");
        eprintln!(
            "{}: dead ends {dead_ends} in bands, {block_dead_ends} in blocks",
            backend.name()
        );
    }
}

/// A board from a random tiling with no four-corner point (as benches/generators'
/// tatamibari_sparse.py makes them: placed row-major, a width taken only where the row above
/// has no border at its right edge), sides up to 4, one clue in a random cell of each
/// rectangle: always solvable.
fn corner_free_board(rows: usize, cols: usize, rng: &mut Rng) -> Board {
    let mut owner: Vec<Option<usize>> = vec![None; rows * cols];
    let mut cells = vec![Cell::Blank; rows * cols];
    for k in 0..rows * cols {
        if owner[k].is_some() {
            continue;
        }
        let (r, c) = (k / cols, k % cols);
        let run = (c..cols)
            .take_while(|&x| owner[r * cols + x].is_none())
            .count();
        let fine = |w: usize| {
            let e = c + w;
            e == cols
                || owner[r * cols + e].is_some()
                || r == 0
                || owner[(r - 1) * cols + e - 1] == owner[(r - 1) * cols + e]
        };
        let wanted = 1 + rng.below(4);
        let width = (1..=run)
            .filter(|&w| fine(w))
            .min_by_key(|&w| w.abs_diff(wanted))
            .unwrap_or(1);
        let height = (1 + rng.below(4)).min(rows - r);
        let rect = Rect {
            row: r,
            col: c,
            height,
            width,
        };
        rect.cells()
            .for_each(|(a, b)| owner[a * cols + b] = Some(k));
        let (a, b) = (r + rng.below(height), c + rng.below(width));
        cells[a * cols + b] = Cell::Clue(Shape::of(height, width));
    }
    Board { rows, cols, cells }
}

/// The sweep in blocks on boards large enough for many blocks, each a few cells wide, so that
/// dead ends and blocks taken back are common: every answer it puts together passes the
/// independent validator by itself, and it finds one in at least a third of the sweeps (all the
/// boards are solvable; with no columns or rows to look past, many sweeps give up).
#[test]
fn sweep_blocks_taken_back_still_fit_together() {
    use encodings::genres::tatamibari::sweep::{blocks, Bands, Grid, Swept};
    let (boards, seed) = common::random_boards(40, 2032);
    let solvers = common::backends()[0].solvers(encodings::solver::Stop::new());
    let mut rng = Rng::new(seed);
    let (mut tried, mut found) = (0, 0);
    for _ in 0..boards {
        let board = corner_free_board(8 + rng.below(5), 8 + rng.below(5), &mut rng);
        let kept = tb::kept_candidates(&board);
        for (band, look, margin) in [(1, 0, 0), (1, 1, 1), (2, 1, 1), (2, 0, 2)] {
            let grid = Grid {
                rows: Bands { band, look },
                cols: Bands { band, look },
                margin,
            };
            tried += 1;
            if let Swept::Found(sol) = blocks(&board, &kept, grid, &solvers, &mut |_| {}).unwrap() {
                assert_eq!(
                    validate(&board, &sol),
                    Ok(()),
                    "{grid:?} on\n{}",
                    board.to_text()
                );
                found += 1;
            }
        }
    }
    assert!(found * 3 >= tried, "{found} answers of {tried} sweeps");
}

/// The sweep's gate: a large board of `?` clues three cells apart is swept; the same board with
/// one corner cell cut off by holes (nothing can cover it: no solution, an empty clause for the
/// whole board) is not, nor is it under 3,000 cells.
#[test]
fn the_sweep_is_tried_on_large_sparse_boards_that_every_cell_can_be_covered_in() {
    use encodings::genres::tatamibari::sweep::{worth_it, GRID};
    let board_of = |rows: usize, cols: usize, cut: bool| {
        let text: String = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        if cut && ((r, c) == (0, 1) || (r, c) == (1, 0)) {
                            '#'
                        } else if r % 3 == 1 && c % 3 == 1 {
                            '?'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
                    + "\n"
            })
            .collect();
        tb::parse(&text).unwrap()
    };
    let open = board_of(80, 40, false);
    assert!(worth_it(&open, &tb::kept_candidates(&open), GRID.rows));
    let cut = board_of(80, 40, true);
    assert!(!worth_it(&cut, &tb::kept_candidates(&cut), GRID.rows));
    let small = board_of(80, 30, false);
    assert!(!worth_it(&small, &tb::kept_candidates(&small), GRID.rows));
    let wide = board_of(40, 80, false);
    assert!(worth_it(&wide, &tb::kept_candidates(&wide), GRID.rows));
}
