//! Hitori end to end: janko.at's puzzles and puzz.link URLs from other projects through the
//! binary, counts against a brute-force search of every shading on random small boards, the
//! validator's verdicts, hints, bad input.

mod common;

use common::{pieces, run};
use std::fs;

#[test]
fn every_janko_hitori_has_its_one_solution() {
    let n = common::every_bundled_is_unique("hitori");
    assert!(n >= 20, "{n} puzzles");
}

/// Puzzle URLs other projects test with, with where they were read, and whether the puzzle is
/// unique.
const URLS: [(&str, &str, bool); 5] = [
    // pzprjs's example.
    ("pzprjs", "https://puzz.link/p?hitori/4/4/1114142333214213", true),
    // semiexp/cspuz_rs, its serializer test (cells without numbers).
    (
        "cspuz",
        "https://puzz.link/p?hitori/6/5/111.45.2..453.3.1..2....3.3.1.",
        true,
    ),
    // swaroopg92/penpa-edit's puzz.link import tests: "Hitori 3", and "Hitori 1", whose
    // numbers (to 789) are past what pzprjs writes but not what it reads.
    (
        "penpa-3",
        "https://puzz.link/p?hitori/8/8/8416325715684121262378436475273858613542475783762346528431821615",
        true,
    ),
    (
        "penpa-1",
        "https://puzz.link/p?hitori/5/5/1-6i5-1v-2h1n-196-lx-3f45-iu91n-co-269cy5-1v-2h",
        true,
    ),
    // penpa-edit's "Hitori 2": `?` cells, empty ones, and a trailing slash; an import test, not
    // a puzzle: it has more than one solution.
    (
        "penpa-2",
        "https://puzz.link/p?hitori/8/8/.%.632..1.6..1.12.23..%3.%7..7..5.6.35%..7.7..7.2.%6.2.%.1..1.1./",
        false,
    ),
];

#[test]
fn puzz_link_urls_are_solved_and_written_back_the_same() {
    for (from, url, unique) in URLS {
        let r = run(&["solve", url, "--unique"], None);
        let (code, verdict) = if unique {
            (0, "unique\n")
        } else {
            (1, "not unique: two different solutions\n")
        };
        assert_eq!(r.code, code, "{from}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.ends_with(verdict), "{from}: {}", r.stdout);
        let r = run(&["solve", "hitori", url, "--format", "url"], None);
        // pzprjs writes `?` as `@` (penpa-edit's `%` is its older form) and ends with the
        // last cell.
        let want = url.trim_end_matches('/').replace('%', "@");
        assert_eq!(r.stdout.trim(), want, "{from}: {}", r.stderr);
    }
}

/// Every shading of the board kept by the rules, found by trying them all (0 stands for a cell
/// without a number).
fn brute_force(rows: usize, cols: usize, numbers: &[u32]) -> Vec<Vec<bool>> {
    let n = rows * cols;
    (0..1u32 << n)
        .map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|shaded| {
            let apart = |a: usize, b: usize| !(shaded[a] && shaded[b]);
            let side = (0..n).all(|i| {
                (i % cols + 1 == cols || apart(i, i + 1)) && (i + cols >= n || apart(i, i + cols))
            });
            let twice = (0..n).any(|a| {
                (0..n).any(|b| {
                    a < b
                        && (a / cols == b / cols || a % cols == b % cols)
                        && numbers[a] != 0
                        && numbers[a] == numbers[b]
                        && !shaded[a]
                        && !shaded[b]
                })
            });
            let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
            side && !twice && pieces(rows, cols, &open).len() <= 1
        })
        .collect()
}

/// A board of numbers as a puzzle file, with its size line (without it, a board two wide whose
/// first row is "R-1 2" would read as a size line and R-1 rows).
fn text(cols: usize, numbers: &[u32]) -> String {
    format!("{} {cols}\n", numbers.len() / cols)
        + &numbers
            .chunks(cols)
            .map(|row| {
                row.iter()
                    .map(|&v| if v == 0 { "-".into() } else { v.to_string() })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect::<String>()
}

/// Random boards up to 4×4: few distinct numbers, so that they repeat; now and then a cell
/// without one.
fn random_boards(count: usize, seed: u64) -> Vec<(usize, usize, Vec<u32>)> {
    let mut seed = seed;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    (0..count)
        .map(|_| {
            let (rows, cols) = (1 + next(4) as usize, 2 + next(3) as usize);
            let top = 1 + next(4);
            let numbers = (0..rows * cols)
                .map(|_| {
                    if next(10) == 0 {
                        0
                    } else {
                        1 + next(top) as u32
                    }
                })
                .collect();
            (rows, cols, numbers)
        })
        .collect()
}

#[test]
fn counts_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for (rows, cols, numbers) in random_boards(300, 44) {
        let want = brute_force(rows, cols, &numbers).len();
        let text = text(cols, &numbers);
        assert_eq!(common::count("hitori", &file, &text), want, "{text}");
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
        "hitori",
        "1 1 2\n2 3 1\n3 2 2\n",
        &[
            (
                "1 1 2\n2 3 1\n3 # 2\n",
                1,
                "the 1 at row 1 column 1 and at row 1 column 2 are both unshaded in one row",
            ),
            (
                "# 1 2\n2 3 1\n3 # #\n",
                1,
                "the shaded cells at row 3 column 2 and row 3 column 3 are side by side",
            ),
            (
                "1 # 2\n# 3 1\n3 2 #\n",
                1,
                "the unshaded cells are not one piece: 1 unshaded cell from row 1 column 1 is \
                 cut off",
            ),
            ("x - -\n- - -\n- - x\n", 0, "valid"),
            (
                "# 1 2\n2 3 1\n3 2 4\n",
                2,
                "expected # (shaded) or . (unshaded), or its clue 2",
            ),
            (
                "# 1 2\n2 3 1\n",
                2,
                "the answer is 2 rows of 3; the puzzle is 3 rows of 3",
            ),
        ],
    );
    // A board two wide whose first row reads as its size: `solve`'s answer checks as written.
    let dir = tempfile::tempdir().unwrap();
    let (file, answer) = (dir.path().join("p.txt"), dir.path().join("a.txt"));
    fs::write(&file, "4 2\n3 2\n2 2\n4 3\n1 3\n").unwrap();
    let r = run(
        &["solve", "hitori", file.to_str().unwrap(), "--unique"],
        None,
    );
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "3 2\n2 #\n4 3\n1 #\nunique\n"),
        "{}",
        r.stderr
    );
    fs::write(&answer, &r.stdout).unwrap();
    let r = run(
        &[
            "check",
            "hitori",
            file.to_str().unwrap(),
            "--answer",
            answer.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, "valid\n"), "{}", r.stderr);
    common::bad_files_name_their_place(
        "hitori",
        &[
            ("1 2 3\n2 x 3\n", "2:3"),
            ("1 2 3\n2 3\n", "2:4"),
            ("3 3\n1 2 3\n2 3 1\n", "1:1"),
            ("1 2\n2 99999999999\n", "2:3"),
            ("1 2\n2 0\n", "2:3"),
        ],
    );
}

#[test]
fn hints_are_what_every_solution_shares() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let mut tried = 0;
    for (rows, cols, numbers) in random_boards(300, 45) {
        let all = brute_force(rows, cols, &numbers);
        if all.len() < 2 {
            continue;
        }
        let text = text(cols, &numbers);
        fs::write(&file, &text).unwrap();
        let r = run(
            &["solve", "hitori", file.to_str().unwrap(), "--hints"],
            None,
        );
        assert_eq!(r.code, 0, "{text}{}", r.stderr);
        // The cells every solution shades alike, drawn as `--hints` draws them.
        let want: String = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        let i = r * cols + c;
                        match all
                            .iter()
                            .map(|s| s[i])
                            .collect::<std::collections::BTreeSet<_>>()
                        {
                            s if s.len() == 2 => "?".to_string(),
                            s if s.contains(&true) => "#".to_string(),
                            _ if numbers[i] == 0 => ".".to_string(),
                            _ => numbers[i].to_string(),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        assert!(
            r.stdout.starts_with(&want),
            "{text}{}want\n{want}",
            r.stdout
        );
        tried += 1;
    }
    assert!(tried >= 50, "{tried} boards with several solutions");
}
