//! Shikaku end to end: janko.at's puzzles and puzz.link URLs from other solvers' tests through
//! the binary, a brute-force count on random small boards, the validator's verdicts, bad input.

mod common;

use common::{data_dir, run};
use std::fs;

/// Puzzle URLs other projects test with (each unique), with where they were read.
const URLS: [(&str, &str); 6] = [
    // robx/pzprjs test/script/shikaku.js (also docs/examples/shikaku.txt).
    ("pzprjs", "https://puzz.link/p?shikaku/6/6/j3g56h6t6h23g5j"),
    // semiexp/cspuz_rs puzzles/shikaku.rs, its serializer test.
    ("cspuz", "https://puzz.link/p?shikaku/6/6/s66j4.g8n4h4g"),
    // swaroopg92/penpa-edit's puzz.link import tests, "Shikaku 1" to "Shikaku 3".
    ("penpa-1", "https://puzz.link/p?shikaku/10/10/x3gag.s9m.p.m8s-10g.gax"),
    ("penpa-2", "https://puzz.link/p?shikaku/24/14/-1ezh-1ep9h-18zzfp-10zt-2at8zzvct9zt-1epezz-2ah-15pazh-18"),
    ("penpa-3", "https://puzz.link/p?shikaku/8/8/2222y.j55j66j.y3333"),
    // T0nyX1ang/noqx's Shikaku example.
    ("noqx", "https://puzz.link/p?shikaku/24/14/h5x6i.j8g6lag4j.l9i8j6i4l3z9g6i4i4h56h6i4i6j8h4n3h6zn4j4r6j4g6j8i8hci6j8q6h2r8k5l8k8j.l9j4l.lataock36kck"),
];

#[test]
fn every_janko_puzzle_has_its_one_solution() {
    let dir = data_dir("shikaku");
    let mut n = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let r = run(
            &[
                "solve",
                "shikaku",
                path.to_str().unwrap(),
                "--unique",
                "--format",
                "rects",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}: {}", path.display(), r.stderr);
        assert!(
            r.stderr.contains("unique"),
            "{}: {}",
            path.display(),
            r.stderr
        );
        // The dataset's own solution, as converted (sorted rectangles, like `rects`).
        assert_eq!(
            r.stdout,
            fs::read_to_string(path.with_extension("sol")).unwrap(),
            "{}",
            path.display()
        );
        n += 1;
    }
    assert!(n >= 60, "{n} puzzles");
}

#[test]
fn puzz_link_urls_are_unique_and_written_back_the_same() {
    for (name, url) in URLS {
        let r = run(&["solve", url, "--unique", "-q"], None);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert!(r.stdout.ends_with("unique\n"), "{name}: {}", r.stdout);
        let back = run(&["solve", "shikaku", url, "--format", "url", "-q"], None);
        assert_eq!(back.stdout.trim(), url, "{name}");
    }
}

/// Every solution of a small board (`clues`: `None` no number, `Some(None)` a `?`), by trying
/// each rectangle at the first uncovered cell: no encoder, no solver.
fn brute_force(rows: usize, cols: usize, clues: &[Option<Option<u32>>]) -> usize {
    fn go(
        rows: usize,
        cols: usize,
        clues: &[Option<Option<u32>>],
        covered: &mut Vec<bool>,
    ) -> usize {
        let Some(first) = covered.iter().position(|&c| !c) else {
            return 1;
        };
        let (r0, c0) = (first / cols, first % cols);
        let mut total = 0;
        for h in 1..=rows - r0 {
            for w in 1..=cols - c0 {
                let cells: Vec<usize> = (r0..r0 + h)
                    .flat_map(|r| (c0..c0 + w).map(move |c| r * cols + c))
                    .collect();
                if cells.iter().any(|&i| covered[i]) {
                    continue;
                }
                let numbers: Vec<Option<u32>> = cells.iter().filter_map(|&i| clues[i]).collect();
                let ok = match numbers[..] {
                    [n] => n.is_none_or(|n| n as usize == h * w),
                    _ => false,
                };
                if ok {
                    cells.iter().for_each(|&i| covered[i] = true);
                    total += go(rows, cols, clues, covered);
                    cells.iter().for_each(|&i| covered[i] = false);
                }
            }
        }
        total
    }
    go(rows, cols, clues, &mut vec![false; rows * cols])
}

#[test]
fn counts_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed: u64 = 3;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let (mut solvable, mut several) = (0, 0);
    for k in 0..200 {
        let (rows, cols) = (1 + next(5) as usize, 1 + next(5) as usize);
        let clues: Vec<Option<Option<u32>>> = if k % 3 == 0 {
            // A few numbers, small enough to fit, and some `?`: mostly no solution.
            (0..rows * cols)
                .map(|_| match next(10) {
                    0..=5 => None,
                    6 => Some(None),
                    _ => Some(Some(1 + next(6) as u32)),
                })
                .collect()
        } else {
            // One number in each rectangle of a random guillotine tiling (a `?` now and
            // then): always solvable, often in several ways.
            let mut clues = vec![None; rows * cols];
            let mut open = vec![(0, 0, rows, cols)];
            while let Some((r, c, h, w)) = open.pop() {
                let split = next(3);
                if split == 1 && h > 1 {
                    let cut = 1 + next(h as u64 - 1) as usize;
                    open.extend([(r, c, cut, w), (r + cut, c, h - cut, w)]);
                } else if split == 2 && w > 1 {
                    let cut = 1 + next(w as u64 - 1) as usize;
                    open.extend([(r, c, h, cut), (r, c + cut, h, w - cut)]);
                } else {
                    let at = (r + next(h as u64) as usize) * cols + c + next(w as u64) as usize;
                    clues[at] = Some(if next(3) == 0 {
                        None
                    } else {
                        Some((h * w) as u32)
                    });
                }
            }
            clues
        };
        let word = |c: &Option<Option<u32>>| match c {
            None => ".".to_string(),
            Some(None) => "?".to_string(),
            Some(Some(n)) => n.to_string(),
        };
        let text: String = clues
            .chunks(cols)
            .map(|row| row.iter().map(word).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        let want = brute_force(rows, cols, &clues);
        let file = dir.path().join(format!("b{k}.txt"));
        fs::write(&file, &text).unwrap();
        let r = run(
            &[
                "solve",
                "shikaku",
                file.to_str().unwrap(),
                "--count=100",
                "-q",
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(
            common::json_field(&r.stdout, "solutions"),
            want.to_string(),
            "{text}{}",
            r.stderr
        );
        assert_eq!(r.code, if want == 0 { 1 } else { 0 }, "{text}");
        solvable += (want > 0) as usize;
        several += (want > 1) as usize;
    }
    assert!(
        solvable > 120 && several >= 15,
        "{solvable} solvable, {several} with several solutions"
    );
}

#[test]
fn check_names_the_broken_rule_and_bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.txt");
    fs::write(&puzzle, "2 . .\n. . 4\n").unwrap();
    let answer = dir.path().join("a.txt");
    for (labels, code, says) in [
        ("122\n122\n", 0, "valid"),
        (
            "111\n222\n",
            1,
            "wrong area: rectangle '1' has 3 cells, but its number is 2",
        ),
        ("111\n111\n", 1, "two numbers: rectangle '1'"),
        ("123\n123\n", 1, "no number: rectangle '2'"),
        ("122\n112\n", 1, "not a rectangle: label '1'"),
        ("122\n1 2\n", 1, "row 2 column 2: a cell without a label"),
    ] {
        fs::write(&answer, labels).unwrap();
        let r = run(
            &[
                "check",
                "shikaku",
                puzzle.to_str().unwrap(),
                "--answer",
                answer.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(r.code, code, "{labels}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(says) || r.stderr.contains(says),
            "{labels}: {}{}",
            r.stdout,
            r.stderr
        );
    }
    for (text, line, col) in [
        ("2 x\n", 1, 3),
        // The column of the first cell past the width.
        ("2 .\n. . .\n", 2, 5),
        ("0\n", 1, 1),
        ("99999999999\n", 1, 1),
    ] {
        fs::write(&puzzle, text).unwrap();
        let r = run(&["solve", "shikaku", puzzle.to_str().unwrap()], None);
        assert_eq!(r.code, 2, "{text:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("p.txt:{line}:{col}:")),
            "{text:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"));
    }
    // A board with no solution is an answer: exit 1.
    fs::write(&puzzle, "3 .\n. .\n").unwrap();
    let r = run(&["solve", "shikaku", puzzle.to_str().unwrap()], None);
    assert_eq!(
        (r.code, r.stdout.trim()),
        (1, "no solution"),
        "{}",
        r.stderr
    );
}

/// Found in review: a box drawing of a one-column board read back as separate cells (the cell
/// below taken for the one to the right), a clue of four digits drawn over a wall, and a
/// number past what a URL holds written as a smaller one.
#[test]
fn every_form_solve_prints_reads_back_and_urls_refuse_what_they_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let wide: String = "1000 ".to_string() + &vec!["."; 999].join(" ") + "\n";
    for (puzzle, text) in [
        ("shikaku", "2\n.\n"),
        ("tatamibari", "|\n.\n"),
        ("shikaku", "3\n.\n.\n"),
        ("shikaku", wide.as_str()),
    ] {
        let file = dir.path().join("p.txt");
        fs::write(&file, text).unwrap();
        for format in ["text", "box", "rects"] {
            let solved = run(
                &[
                    "solve",
                    puzzle,
                    file.to_str().unwrap(),
                    "--format",
                    format,
                    "-q",
                ],
                None,
            );
            assert_eq!(solved.code, 0, "{puzzle} {format}: {}", solved.stderr);
            let r = run(
                &["check", puzzle, file.to_str().unwrap(), "--answer", "-"],
                Some(solved.stdout.as_bytes()),
            );
            assert_eq!(
                r.code, 0,
                "{puzzle} {format} {text:?}: {}{}\n{}",
                r.stdout, r.stderr, solved.stdout
            );
        }
    }
    let file = dir.path().join("big.txt");
    fs::write(&file, "2000000\n").unwrap();
    let r = run(
        &[
            "solve",
            "shikaku",
            file.to_str().unwrap(),
            "--format",
            "url",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("past the largest a puzz.link URL can hold"),
        "{}",
        r.stderr
    );
    // A `?` in the corner of a 100×100 board: refused before anything is built.
    let mut rows = vec![vec!["."; 100]; 100];
    rows[0][0] = "?";
    fs::write(
        &file,
        rows.iter().map(|r| r.join(" ") + "\n").collect::<String>(),
    )
    .unwrap();
    let r = run(&["solve", "shikaku", file.to_str().unwrap(), "-q"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
    // Words are split at spaces and tabs only: a vertical tab is no separator.
    fs::write(&file, "2 .\x0b. 2\n").unwrap();
    assert_eq!(
        run(&["solve", "shikaku", file.to_str().unwrap()], None).code,
        2
    );
}
