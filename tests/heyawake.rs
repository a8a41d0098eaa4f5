//! Heyawake end to end: janko.at's puzzles and puzz.link URLs from other projects through the
//! binary, counts and hints against a brute-force search of every shading on random small
//! boards, the validator's verdicts, bad input.

mod common;

use common::{pieces, run};
use std::collections::BTreeSet;
use std::fs;

#[test]
fn every_janko_heyawake_has_its_one_solution() {
    let n = common::every_bundled_is_unique("heyawake");
    assert!(n >= 50, "{n} puzzles");
}

/// Puzzle URLs other projects test with, with where they were read and the verdict (cspuz_rs
/// reading the same URLs with its own codec found the same counts).
const URLS: [(&str, &str, &str); 4] = [
    // pzprjs's example.
    (
        "pzprjs",
        "https://puzz.link/p?heyawake/6/6/lll155007rs12222j",
        "unique\n",
    ),
    // A puzzle site's list of graded Heyawakes (difficulty 1).
    (
        "graded-1",
        "https://puzz.link/p?heyawake/6/6/22eeee0f006032g112",
        "unique\n",
    ),
    (
        "graded-2",
        "https://puzz.link/p?heyawake/6/6/giijjjvg7s0011g3g2g2g",
        "unique\n",
    ),
    // swaroopg92/penpa-edit's puzz.link import tests, "Heyawake 1": an import test, not a
    // puzzle.
    (
        "penpa-1",
        "https://puzz.link/p?heyawake/10/10/274ssohvv000000000focossvvvvvv00000012h34001101h10g-11",
        "no solution\n",
    ),
];

#[test]
fn puzz_link_urls_are_solved_and_written_back_the_same() {
    for (from, url, verdict) in URLS {
        let r = run(&["solve", url, "--unique"], None);
        let code = if verdict == "unique\n" { 0 } else { 1 };
        assert_eq!(r.code, code, "{from}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.ends_with(verdict), "{from}: {}", r.stdout);
        let r = run(&["solve", "heyawake", url, "--format", "url"], None);
        assert_eq!(r.stdout.trim(), url, "{from}: {}", r.stderr);
    }
}

/// Every shading of the board kept by the rules, found by trying them all. `room[i]` is cell
/// i's room; `numbers[k]` room k's number.
fn brute_force(
    rows: usize,
    cols: usize,
    room: &[usize],
    numbers: &[Option<usize>],
) -> Vec<Vec<bool>> {
    let n = rows * cols;
    (0..1u32 << n)
        .map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|shaded| {
            let counts = numbers.iter().enumerate().all(|(k, want)| {
                want.is_none_or(|w| (0..n).filter(|&i| room[i] == k && shaded[i]).count() == w)
            });
            let side = (0..n).all(|i| {
                let apart = |j: usize| !(shaded[i] && shaded[j]);
                (i % cols + 1 == cols || apart(i + 1)) && (i + cols >= n || apart(i + cols))
            });
            // Every straight run of unshaded cells: the borders it crosses.
            let lines: Vec<Vec<usize>> = (0..rows)
                .map(|r| (0..cols).map(|c| r * cols + c).collect())
                .chain((0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect()))
                .collect();
            let runs_ok = lines.iter().all(|line| {
                line.split(|&i| shaded[i])
                    .all(|run| run.windows(2).filter(|w| room[w[0]] != room[w[1]]).count() <= 1)
            });
            let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
            counts && side && runs_ok && pieces(rows, cols, &open).len() <= 1
        })
        .collect()
}

/// A random board up to 4×4: labels from a few letters (each piece of a letter a room), and
/// some rooms' numbers written in their first cell.
struct Random {
    rows: usize,
    cols: usize,
    room: Vec<usize>,
    numbers: Vec<Option<usize>>,
    text: String,
}

fn random_boards(count: usize, seed: u64) -> Vec<Random> {
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
            let n = rows * cols;
            // Labels by rectangles of a few cells, so that rooms are not all single cells.
            let labels: Vec<char> = (0..n)
                .map(|i| {
                    let (r, c) = (i / cols, i % cols);
                    let k = (r / (1 + (next(2) as usize))) * 3 + c / (1 + next(3) as usize);
                    char::from(b'a' + (k % 6) as u8)
                })
                .collect();
            // The rooms: pieces of one label, numbered by first cell, as the tests count them.
            let mut room = vec![usize::MAX; n];
            let mut rooms = 0;
            for s in 0..n {
                if room[s] != usize::MAX {
                    continue;
                }
                let same: Vec<bool> = labels.iter().map(|&l| l == labels[s]).collect();
                let piece = pieces(rows, cols, &same)
                    .into_iter()
                    .find(|p| p.contains(&s))
                    .unwrap();
                for i in piece {
                    room[i] = rooms;
                }
                rooms += 1;
            }
            let numbers: Vec<Option<usize>> = (0..rooms)
                .map(|k| {
                    let size = room.iter().filter(|&&x| x == k).count();
                    (next(2) == 0).then(|| next(size as u64 / 2 + 2) as usize)
                })
                .collect();
            let mut cells = vec!["-".to_string(); n];
            for (k, v) in numbers.iter().enumerate() {
                if let Some(v) = v {
                    cells[room.iter().position(|&x| x == k).unwrap()] = v.to_string();
                }
            }
            let grid = |word: &dyn Fn(usize) -> String| -> String {
                (0..rows)
                    .map(|r| {
                        (0..cols)
                            .map(|c| word(r * cols + c))
                            .collect::<Vec<_>>()
                            .join(" ")
                            + "\n"
                    })
                    .collect()
            };
            let text = format!("{rows} {cols}\n")
                + &grid(&|i| cells[i].clone())
                + &grid(&|i| labels[i].to_string());
            Random {
                rows,
                cols,
                room,
                numbers,
                text,
            }
        })
        .collect()
}

#[test]
fn counts_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for b in random_boards(300, 46) {
        let want = brute_force(b.rows, b.cols, &b.room, &b.numbers).len();
        assert_eq!(
            common::count("heyawake", &file, &b.text),
            want,
            "{}",
            b.text
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
fn hints_are_what_every_solution_shares() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let mut tried = 0;
    for b in random_boards(300, 47) {
        let all = brute_force(b.rows, b.cols, &b.room, &b.numbers);
        if all.len() < 2 {
            continue;
        }
        fs::write(&file, &b.text).unwrap();
        let r = run(
            &["solve", "heyawake", file.to_str().unwrap(), "--hints"],
            None,
        );
        assert_eq!(r.code, 0, "{}{}", b.text, r.stderr);
        // The cells every solution shades alike: `?` where they differ; a number stays.
        let shown: Vec<String> = b
            .text
            .lines()
            .skip(1)
            .take(b.rows)
            .flat_map(|l| l.split(' ').map(String::from).collect::<Vec<_>>())
            .collect();
        let want: String = (0..b.rows)
            .map(|r| {
                (0..b.cols)
                    .map(|c| {
                        let i = r * b.cols + c;
                        match all.iter().map(|s| s[i]).collect::<BTreeSet<_>>() {
                            s if s.len() == 2 => "?".to_string(),
                            s if s.contains(&true) => "#".to_string(),
                            _ if shown[i] == "-" => ".".to_string(),
                            _ => shown[i].clone(),
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        assert!(
            r.stdout.starts_with(&want),
            "{}{}want\n{want}",
            b.text,
            r.stdout
        );
        tried += 1;
    }
    assert!(tried >= 50, "{tried} boards with several solutions");
}

#[test]
fn files_read_as_their_grids_say() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    // A byte-order mark before the size line, and blank lines between the grids, change
    // nothing; without a size line, a first row of two numbers is a row (the grids split the
    // lines in half).
    let plain = "2 2\n1 -\n- -\na a\nb b\n";
    for text in [
        plain,
        "\u{feff}2 2\n1 -\n- -\na a\nb b\n",
        "1 -\n- -\n\n\na a\nb b\n",
    ] {
        fs::write(&file, text).unwrap();
        let r = run(
            &["solve", "heyawake", file.to_str().unwrap(), "--count"],
            None,
        );
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "2 solutions\n"),
            "{text:?}: {}",
            r.stderr
        );
    }
    fs::write(&file, "1 2\n- -\na b\na b\n").unwrap();
    let r = run(&["solve", "heyawake", file.to_str().unwrap()], None);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (1, "no solution\n"),
        "{}",
        r.stderr
    );
    // A URL's board is no larger than a file's, however short the URL.
    let r = run(&["solve", "https://puzz.link/p?heyawake/4096/4096/"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("up to 1000 a side"), "{}", r.stderr);
}

#[test]
fn check_names_the_broken_rule_and_bad_input_exits_2() {
    // Rooms: a column of two on the left (the 1), a 2×2 on the right, the bottom row.
    common::check_verdicts(
        "heyawake",
        "3 3\n1 - -\n- - -\n- - -\na b b\na b b\nc c c\n",
        &[
            (
                "# . .\n# . .\n. . .\n",
                1,
                "the room of the 1 at row 1 column 1 has 2 shaded cells",
            ),
            (
                "# # .\n. . .\n. . .\n",
                1,
                "the shaded cells at row 1 column 1 and row 1 column 2 are side by side",
            ),
            (
                "1 . .\n# . #\n. # .\n",
                1,
                "the unshaded cells are not one piece",
            ),
            ("# . .\n. . .\n. . .\n", 0, "valid"),
            ("x - -\n- - -\n- - -\n", 0, "valid"),
        ],
    );
    common::check_verdicts(
        "heyawake",
        "- - -\na b c\n",
        &[(
            ". . .\n",
            1,
            "the unshaded cells from row 1 column 1 to row 1 column 3 cross two room borders",
        )],
    );
    common::bad_files_name_their_place(
        "heyawake",
        &[
            ("1 - -\n- x -\na a a\na a a\n", "2:3"),
            ("1 - -\n- - 2\na a a\na a a\n", "2:5"),
            ("1000001 1\n-\na\n", "3:1"),
            ("1 - -\n- - -\na a\na a\n", "3:1"),
            ("1 - -\n- - -\na a a\n", "3:1"),
        ],
    );
}
