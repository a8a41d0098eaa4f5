//! Nurikabe end to end: janko.at's puzzles and puzz.link URLs from other projects through the
//! binary, counts against a brute-force search of every shading on random small boards, the
//! validator's verdicts, hints, bad input.

mod common;

use common::{data_dir, pieces, run};
use std::fs;

#[test]
fn every_janko_nurikabe_has_its_one_solution() {
    let n = common::every_bundled_is_unique("nurikabe");
    assert!(n >= 70, "{n} puzzles");
}

/// Puzzle URLs other projects test with, with where they were read.
const URLS: [(&str, &str); 4] = [
    // A puzz.link parser's test (parse_puzzlink).
    ("parser", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"),
    // semiexp/cspuz_rs, its solver test.
    ("cspuz", "https://puzz.link/p?nurikabe/6/6/m8n8i9u"),
    // semiexp/cspuz's Python tests (twitter.com/semiexp/status/1222541993638678530).
    (
        "cspuz-py",
        "https://puzz.link/p?nurikabe/10/10/zj7n7j9n7t7i7n7zj",
    ),
    // swaroopg92/penpa-edit's puzz.link import tests, "Nurikabe 2".
    (
        "penpa-2",
        "https://puzz.link/p?nurikabe/10/10/1k4u1j7i3r6y1w-11m3n2",
    ),
];

#[test]
fn puzz_link_urls_are_solved_and_written_back_the_same() {
    for (from, url) in URLS {
        let r = run(&["solve", url, "--unique"], None);
        // cspuz_rs tests its solver's partial answer on a puzzle with several solutions.
        let (code, verdict) = match from {
            "cspuz" => (1, "not unique: two different solutions\n"),
            _ => (0, "unique\n"),
        };
        assert_eq!(r.code, code, "{from}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.ends_with(verdict), "{from}: {}", r.stdout);
        let r = run(&["solve", "nurikabe", url, "--format", "url"], None);
        assert_eq!(r.stdout.trim(), url, "{from}: {}", r.stderr);
    }
    // A board two wide whose first row reads as a size line that fits the rows after it: the
    // URL's board is still the URL's (four rows, no solution), as the file's is.
    let url = "https://puzz.link/p?nurikabe/2/4/321j1";
    let r = run(&["solve", url], None);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (1, "no solution\n"),
        "{}",
        r.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two.txt");
    fs::write(&file, "4 2\n3 2\n1 -\n- -\n- 1\n").unwrap();
    let r = run(
        &[
            "solve",
            "nurikabe",
            file.to_str().unwrap(),
            "--format",
            "url",
        ],
        None,
    );
    assert_eq!(r.stdout.trim(), url, "{}", r.stderr);
}

/// Every shading of the board kept by the rules, counted by trying them all.
fn brute_force(rows: usize, cols: usize, clues: &[Option<u32>]) -> usize {
    let n = rows * cols;
    (0..1u32 << n)
        .filter(|m| {
            let shaded: Vec<bool> = (0..n).map(|i| m >> i & 1 == 1).collect();
            if (0..n).any(|i| shaded[i] && clues[i].is_some()) {
                return false;
            }
            let block = (0..rows - 1).any(|r| {
                (0..cols - 1).any(|c| {
                    let i = r * cols + c;
                    shaded[i] && shaded[i + 1] && shaded[i + cols] && shaded[i + cols + 1]
                })
            });
            if block || pieces(rows, cols, &shaded).len() > 1 {
                return false;
            }
            let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
            pieces(rows, cols, &open).iter().all(|island| {
                let numbers: Vec<u32> = island.iter().filter_map(|&i| clues[i]).collect();
                // 0 stands for `?` here.
                numbers.len() == 1 && (numbers[0] == 0 || numbers[0] as usize == island.len())
            })
        })
        .count()
}

#[test]
fn counts_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed: u64 = 43;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for k in 0..300 {
        let (rows, cols) = (1 + next(4) as usize, 2 + next(3) as usize);
        let n = rows * cols;
        // A few numbers, mostly small, now and then a `?` (0 here).
        let clues: Vec<Option<u32>> = (0..n)
            .map(|_| match next(8) {
                0..=2 => Some(1 + next(4) as u32),
                3 if next(4) == 0 => Some(0),
                3 => Some(1 + next(n as u64) as u32),
                _ => None,
            })
            .collect();
        let want = brute_force(rows, cols, &clues);
        let text: String = clues
            .chunks(cols)
            .map(|row| {
                row.iter()
                    .map(|c| match c {
                        None => "-".to_string(),
                        Some(0) => "?".to_string(),
                        Some(v) => v.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        let file = dir.path().join(format!("b{k}.txt"));
        fs::write(&file, &text).unwrap();
        let r = run(
            &[
                "solve",
                "nurikabe",
                file.to_str().unwrap(),
                "--count=1000",
                "-q",
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(r.code, if want == 0 { 1 } else { 0 }, "{text}{}", r.stderr);
        assert_eq!(
            common::json_field(&r.stdout, "solutions"),
            want.to_string(),
            "{text}{}",
            r.stderr
        );
        match want {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
    }
    assert!(
        unique >= 10 && several >= 10 && none >= 10,
        "{unique} unique, {several} several, {none} none"
    );
}

#[test]
fn check_names_the_broken_rule_and_bad_input_exits_2() {
    common::check_verdicts(
        "nurikabe",
        "2 - -\n- - -\n- - 1\n",
        &[
            (
                "2 . #\n# # #\n. # 1\n",
                1,
                "an island of 1 cell from row 3 column 1 holds no number",
            ),
            (
                "2 . #\n# # #\n# # 1\n",
                1,
                "a 2×2 block of shaded cells with its top-left at row 2 column 1",
            ),
            (
                "2 . #\n# . #\n# # 1\n",
                1,
                "the shaded cells are not one piece",
            ),
            (
                "3 3\n- - x\nx x x\nx - -\n",
                1,
                "the island of the 1 at row 3 column 3 has 2 cells",
            ),
            (
                "2 . #\n# # x\n# ? 1\n",
                2,
                "expected # (shaded) or . (unshaded)",
            ),
            (
                "2 . #\n# # #\n",
                2,
                "the answer is 2 rows of 3; the puzzle is 3 rows of 3",
            ),
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("a.txt");
    // A valid answer, in janko.at's form and without spaces.
    let example = data_dir("nurikabe").join("janko-0020-6x6.txt");
    let sol = fs::read_to_string(example.with_extension("sol")).unwrap();
    let compact: String = sol
        .lines()
        .map(|l| {
            l.split(' ')
                .map(|w| if w == "#" { "x" } else { "-" })
                .collect::<String>()
                + "\n"
        })
        .collect();
    fs::write(&answer, compact).unwrap();
    let r = run(
        &[
            "check",
            "nurikabe",
            example.to_str().unwrap(),
            "--answer",
            answer.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, "valid\n"), "{}", r.stderr);
    // Bad puzzle files: the line and column of the first bad word.
    common::bad_files_name_their_place(
        "nurikabe",
        &[
            ("2 - -\n- x -\n", "2:3"),
            ("2 - -\n- 0 -\n", "2:3"),
            ("2 - -\n- -\n", "2:4"),
            ("3 3\n2 - -\n- - -\n", "1:1"),
        ],
    );
}

#[test]
fn hints_are_what_every_solution_shares() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("p.txt");
    // Two solutions (the 2's island goes left or right); the rows above are the same in both.
    fs::write(&puzzle, "3 - -\n- - -\n- 2 -\n").unwrap();
    let count = run(
        &[
            "solve",
            "nurikabe",
            puzzle.to_str().unwrap(),
            "--count",
            "-q",
            "--format",
            "json",
        ],
        None,
    );
    let solutions: usize = common::json_field(&count.stdout, "solutions")
        .parse()
        .unwrap();
    let r = run(
        &["solve", "nurikabe", puzzle.to_str().unwrap(), "--hints"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(solutions, 2, "{}", count.stdout);
    assert!(
        r.stdout.starts_with("3 . .\n# # #\n? 2 ?\n"),
        "{}",
        r.stdout
    );
}

/// A `?` number is not drawn as an undecided cell: `(?)` in a board with undecided cells
/// (`explain --steps`, `--hints`), `?` in a whole answer, as `check` reads it back.
#[test]
fn a_question_number_is_told_from_an_undecided_cell() {
    let board = b"3 3\n? - -\n- - -\n- - 2\n";
    let out = run(&["explain", "nurikabe", "-", "--steps", "1"], Some(board));
    let drawn = out
        .stdout
        .split("after 1 step:\n")
        .nth(1)
        .unwrap_or_default();
    assert!(drawn.starts_with("(?) ? ?\n"), "{}", out.stdout);
    let out = run(&["solve", "nurikabe", "-", "--hints"], Some(board));
    assert!(out.stdout.starts_with("(?) "), "{}", out.stdout);
    let out = run(&["solve", "nurikabe", "-"], Some(b"1 2\n? -\n"));
    // Either solution (`? #` or `? .`): the number as the puzzle writes it.
    assert!(out.stdout.starts_with("? "), "{}", out.stdout);
}
