//! Classic sudoku end to end: janko.at's 16×16 and 9×9 puzzles, puzz.link URLs from other
//! projects' tests (4×4, 6×6, 9×9), a brute-force count on random 4×4 and 6×6 boards, the
//! validator's verdicts, bad input.

mod common;

use common::{data_dir, run};
use std::fs;

/// Puzzle URLs other projects test with (each unique).
const URLS: [(&str, &str); 8] = [
    // robx/pzprjs test/script/sudoku.js.
    ("pzprjs", "https://puzz.link/p?sudoku/4/4/g1k23k3g"),
    // swaroopg92/penpa-edit's puzz.link import tests, "Sudoku 4x4 1" to "Sudoku 9x9 3".
    ("penpa-4x4-1", "https://puzz.link/p?sudoku/4/4/g2j1h1j3g"),
    ("penpa-4x4-2", "https://puzz.link/p?sudoku/4/4/i1g2j4g3i"),
    ("penpa-6x6-1", "https://puzz.link/p?sudoku/6/6/61j3g2j4g3j5g4j6g5j12"),
    ("penpa-6x6-2", "https://puzz.link/p?sudoku/6/6/g3h2g5j6h1l4h6j3g5g6h"),
    ("penpa-9x9-1", "https://puzz.link/p?sudoku/9/9/123456789789123456456789123231564897897231564564897231312645978978312645645978312"),
    ("penpa-9x9-2", "https://puzz.link/p?sudoku/9/9/15i96l17i7g65i42k1g5368h2i7g2p3h5g48g2g9k3h7i6"),
    ("penpa-9x9-3", "https://puzz.link/p?sudoku/9/9/91h8h343m5i1g3k1i3h5i9i8h7i5k7g5i6m787h4h26"),
];

#[test]
fn every_janko_sudoku_has_its_one_solution() {
    let dir = data_dir("sudoku");
    let mut n = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let r = run(
            &["solve", "sudoku", path.to_str().unwrap(), "--unique"],
            None,
        );
        assert_eq!(r.code, 0, "{}: {}", path.display(), r.stderr);
        assert_eq!(
            r.stdout,
            fs::read_to_string(path.with_extension("sol")).unwrap() + "unique\n",
            "{}",
            path.display()
        );
        n += 1;
    }
    assert!(n >= 7, "{n} puzzles");
}

#[test]
fn puzz_link_urls_are_classic_sudokus_unique_and_written_back_the_same() {
    for (name, url) in URLS {
        // Without a puzzle's name, a sudoku URL is a classic sudoku.
        let r = run(&["solve", url, "--unique", "-q", "--format", "json"], None);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(
            common::json_field(&r.stdout, "puzzle"),
            "\"sudoku\"",
            "{name}"
        );
        assert_eq!(common::json_field(&r.stdout, "unique"), "true", "{name}");
        let back = run(&["solve", "sudoku", url, "--format", "url", "-q"], None);
        assert_eq!(back.stdout.trim(), url, "{name}");
    }
    // Target sudoku still reads a 9×9 one when named.
    let r = run(&["solve", "target-sudoku", URLS[6].1, "-q"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("optimal (proved)"), "{}", r.stdout);
}

/// How many completions a board has (`givens` row-major, 0 empty), by trying each digit in
/// each empty cell in turn: no encoder, no solver.
fn brute_force(n: usize, (bh, bw): (usize, usize), grid: &mut Vec<usize>) -> usize {
    let Some(i) = grid.iter().position(|&d| d == 0) else {
        return 1;
    };
    let (r, c) = (i / n, i % n);
    let mut total = 0;
    for d in 1..=n {
        let clash = (0..n).any(|k| {
            grid[r * n + k] == d
                || grid[k * n + c] == d
                || grid[(r / bh * bh + k / bw) * n + c / bw * bw + k % bw] == d
        });
        if !clash {
            grid[i] = d;
            total += brute_force(n, (bh, bw), grid);
            grid[i] = 0;
        }
    }
    total
}

#[test]
fn counts_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed: u64 = 9;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for k in 0..120 {
        let (n, shape) = if k % 2 == 0 { (4, (2, 2)) } else { (6, (2, 3)) };
        let mut grid = vec![0usize; n * n];
        if k % 4 == 0 {
            // Random givens, often clashing: 4×4 with 3–7, 6×6 with 8–15.
            for _ in 0..if n == 4 { 3 + next(5) } else { 8 + next(8) } {
                grid[next((n * n) as u64) as usize] = 1 + next(n as u64) as usize;
            }
        } else {
            // Cells of a full grid (the pattern grid, digits relabelled): 4×4 with 3–10, 6×6
            // with 8–25, so from many completions down to one.
            let mut label: Vec<usize> = (1..=n).collect();
            for i in (1..n).rev() {
                label.swap(i, next(i as u64 + 1) as usize);
            }
            for _ in 0..if n == 4 { 3 + next(8) } else { 8 + next(18) } {
                let i = next((n * n) as u64) as usize;
                let (r, c) = (i / n, i % n);
                grid[i] = label[(shape.1 * (r % shape.0) + r / shape.0 + c) % n];
            }
        }
        let text: String = grid
            .chunks(n)
            .map(|row| {
                row.iter()
                    .map(|&d| {
                        if d == 0 {
                            ".".to_string()
                        } else {
                            d.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        // Givens that clash have no completion; brute force fills around them as they are.
        let clash = (0..n * n).any(|i| {
            let d = grid[i];
            d != 0 && {
                grid[i] = 0;
                let (r, c) = (i / n, i % n);
                let hit = (0..n).any(|k| {
                    grid[r * n + k] == d
                        || grid[k * n + c] == d
                        || grid[(r / shape.0 * shape.0 + k / shape.1) * n
                            + c / shape.1 * shape.1
                            + k % shape.1]
                            == d
                });
                grid[i] = d;
                hit
            }
        });
        let want = if clash {
            0
        } else {
            brute_force(n, shape, &mut grid.clone())
        };
        let file = dir.path().join(format!("b{k}.txt"));
        fs::write(&file, &text).unwrap();
        let r = run(
            &[
                "solve",
                "sudoku",
                file.to_str().unwrap(),
                "--count=10000",
                "-q",
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(
            common::json_field(&r.stdout, "solutions"),
            want.min(10_001).to_string(),
            "{text}{}",
            r.stderr
        );
        assert_eq!(r.code, if want == 0 { 1 } else { 0 }, "{text}");
        match want {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
    }
    assert!(
        unique >= 10 && several >= 30 && none >= 10,
        "{unique} unique, {several} several, {none} none"
    );
}

#[test]
fn check_names_the_broken_rule_and_bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.txt");
    fs::write(&puzzle, "1 . . .\n. . . 2\n. . . .\n. . . .\n").unwrap();
    let answer = dir.path().join("a.txt");
    for (grid, code, says) in [
        ("1234\n3412\n2143\n4321\n", 0, "valid"),
        ("1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1\n", 0, "valid"),
        ("2134\n3412\n1243\n4321\n", 1, "the given 1 is changed"),
        ("1234\n3412\n2143\n4312\n", 1, "holds 1 twice"),
        ("1234\n3412\n2143\n432.\n", 1, "row 4 column 4: no digit"),
    ] {
        fs::write(&answer, grid).unwrap();
        let r = run(
            &[
                "check",
                "sudoku",
                puzzle.to_str().unwrap(),
                "--answer",
                answer.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(r.code, code, "{grid}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(says) || r.stderr.contains(says),
            "{grid}: {}{}",
            r.stdout,
            r.stderr
        );
    }
    for (text, line, col) in [
        ("1..5\n....\n....\n....\n", 1, 4),
        ("1 . . x\n....\n....\n....\n", 1, 7),
        ("....\n...\n....\n....\n", 2, 4),
        (".....\n.....\n.....\n.....\n.....\n", 5, 1),
    ] {
        fs::write(&puzzle, text).unwrap();
        let r = run(&["solve", "sudoku", puzzle.to_str().unwrap()], None);
        assert_eq!(r.code, 2, "{text:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("p.txt:{line}:{col}:")),
            "{text:?}: {}",
            r.stderr
        );
    }
    for (url, says) in [
        ("https://puzz.link/p?sudoku/4/5/g", "square"),
        ("https://puzz.link/p?sudoku/5/5/g", "no puzz.link URL"),
        // puzz.link draws an 8×8 with 2×2 boxes: another puzzle (found in review).
        ("https://puzz.link/p?sudoku/8/8/g", "no puzz.link URL"),
        // The column of the offending code, not of the body (found in review).
        (
            "https://puzz.link/p?sudoku/4/4/g9",
            ":1:33: 9 is no digit of a 4×4 sudoku",
        ),
        ("https://puzz.link/p?sudoku/4/4/.", "no sudoku given"),
    ] {
        let r = run(&["solve", "sudoku", url], None);
        assert_eq!(r.code, 2, "{url}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{url}: {}", r.stderr);
    }
    // An 8×8 file solves, but has no URL; a blank line before the grid is passed over.
    fs::write(
        &puzzle,
        "\n1 . . . . . . .\n".to_string() + &". . . . . . . .\n".repeat(7),
    )
    .unwrap();
    let r = run(&["solve", "sudoku", puzzle.to_str().unwrap(), "-q"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        &[
            "solve",
            "sudoku",
            puzzle.to_str().unwrap(),
            "--format",
            "url",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    // An answer on one line is read as strictly as a puzzle: `+1` is no digit, and the
    // column is the word's.
    fs::write(&puzzle, "1 . . .\n. . . 2\n. . . .\n. . . .\n").unwrap();
    fs::write(&answer, "+1 2 3 4 3 4 1 2 2 1 4 3 4 3 2 1\n").unwrap();
    let r = run(
        &[
            "check",
            "sudoku",
            puzzle.to_str().unwrap(),
            "--answer",
            answer.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("a.txt:1:1: unexpected \"+1\""),
        "{}",
        r.stderr
    );
}

#[test]
fn the_one_line_form_is_the_same_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::data_dir("sudoku").join("janko-1-9x9.txt");
    let rows = std::fs::read_to_string(&path).unwrap();
    // The cells in reading order, as sudoku collections write them: `0` empty.
    let line: String = rows
        .split_whitespace()
        .collect::<String>()
        .replace('.', "0");
    assert_eq!(line.len(), 81, "{line}");
    let file = dir.path().join("line.txt");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let a = run(
        &["solve", "sudoku", path.to_str().unwrap(), "--unique"],
        None,
    );
    let b = run(
        &["solve", "sudoku", file.to_str().unwrap(), "--unique"],
        None,
    );
    assert_eq!((b.code, &b.stdout), (0, &a.stdout), "{}", b.stderr);
}
