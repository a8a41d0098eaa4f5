//! Slitherlink end to end: janko.at's puzzles and puzz.link URLs from other projects through
//! the binary, counts and hints against a brute force over every loop of small boards, the
//! validator's verdicts, bad input.

mod common;

use common::{loop_drawing, loops, run};
use std::fs;

#[test]
fn every_janko_slitherlink_has_its_one_solution() {
    let n = common::every_bundled_is_unique("slitherlink");
    assert!(n >= 40, "{n} puzzles");
}

#[test]
fn puzz_link_urls_are_solved_and_written_back() {
    // pzprjs's own test puzzle (test/script/slither.js), written back as it reads.
    let url = "https://puzz.link/p?slither/5/5/cbcbcddad";
    let r = run(&["solve", url, "--unique"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "+-+-+-+-+-+\n|2     1  |\n+ +-+-+ + +\n| |2  |  1|\n+ + +-+ + +\n| | |2    |\n\
         + + + +-+ +\n|3| | |3| |\n+-+ +-+ + +\n   0    |3|\n+ + + + +-+\nunique\n"
    );
    let r = run(&["solve", "slitherlink", url, "--format", "url"], None);
    assert_eq!(r.stdout.trim(), url, "{}", r.stderr);
    // cspuz_rs's test puzzle: its last 1 is written `1`; pzprjs's encoder (and ours) folds
    // the empty cells past the board's end into it (`b`), which reads back the same.
    let theirs = "https://puzz.link/p?slither/4/4/dgdh2c71";
    let ours = "https://puzz.link/p?slither/4/4/dgdh2c7b";
    let a = run(&["solve", theirs, "--unique"], None);
    let b = run(&["solve", ours, "--unique"], None);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert!(a.stdout.ends_with("unique\n"), "{}", a.stdout);
    assert_eq!(a.stdout, b.stdout);
    let r = run(&["solve", "slitherlink", theirs, "--format", "url"], None);
    assert_eq!(r.stdout.trim(), ours, "{}", r.stderr);
    // The `f` variant (every corner on the loop) is another puzzle.
    let r = run(&["solve", "https://puzz.link/p?slither/f/3/3/gdk"], None);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("every corner"), "{}", r.stderr);
}

/// A random board of up to 3×4 cells: the counts of a random loop's sides in some of its
/// cells, one of them sometimes changed (so that some boards have no solution).
fn random_boards(count: usize, seed: u64) -> Vec<(usize, usize, Vec<Option<usize>>)> {
    let mut seed = seed;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let mut boards = Vec::new();
    while boards.len() < count {
        let (rows, cols) = (1 + next(3) as usize, 2 + next(3) as usize);
        let all = loops(rows + 1, cols + 1);
        let chosen = &all[next(all.len() as u64) as usize];
        let keep = 3 + next(6);
        let mut clues: Vec<Option<usize>> = (0..rows * cols)
            .map(|i| {
                (next(10) < keep)
                    .then(|| sides(cols, i).iter().filter(|e| chosen.contains(e)).count())
            })
            .collect();
        if next(4) == 0 {
            let i = next(clues.len() as u64) as usize;
            clues[i] = Some(clues[i].map_or(0, |k| (k + 1) % 4));
        }
        boards.push((rows, cols, clues));
    }
    boards
}

/// Cell i's four sides, as edges between corners of a board `cols` cells wide.
fn sides(cols: usize, i: usize) -> [(usize, usize); 4] {
    let w = cols + 1;
    let tl = (i / cols) * w + i % cols;
    [
        (tl, tl + 1),
        (tl + w, tl + w + 1),
        (tl, tl + w),
        (tl + 1, tl + w + 1),
    ]
}

fn text(rows: usize, cols: usize, clues: &[Option<usize>]) -> String {
    let mut t = format!("{rows} {cols}\n");
    for r in 0..rows {
        let row: Vec<String> = (0..cols)
            .map(|c| clues[r * cols + c].map_or("-".into(), |k| k.to_string()))
            .collect();
        t += &(row.join(" ") + "\n");
    }
    t
}

/// Every loop on the board's corners whose numbers hold.
fn brute_force(rows: usize, cols: usize, clues: &[Option<usize>]) -> Vec<Vec<(usize, usize)>> {
    loops(rows + 1, cols + 1)
        .into_iter()
        .filter(|l| {
            clues.iter().enumerate().all(|(i, k)| {
                k.is_none_or(|k| sides(cols, i).iter().filter(|e| l.contains(e)).count() == k)
            })
        })
        .collect()
}

#[test]
fn counts_and_hints_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for (rows, cols, clues) in random_boards(300, 43) {
        let t = text(rows, cols, &clues);
        let all = brute_force(rows, cols, &clues);
        assert_eq!(common::count("slitherlink", &file, &t), all.len(), "{t}");
        match all.len() {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
        if all.is_empty() {
            continue;
        }
        let face = |r: usize, c: usize| {
            clues[r * cols + c].map_or(' ', |k| char::from_digit(k as u32, 10).unwrap())
        };
        let want = loop_drawing(rows + 1, cols + 1, &all, |_| '+', face);
        let flag = if all.len() == 1 {
            "--unique"
        } else {
            "--hints"
        };
        let r = run(
            &["solve", "slitherlink", file.to_str().unwrap(), flag],
            None,
        );
        assert!(r.stdout.starts_with(&want), "{t}{}want\n{want}", r.stdout);
    }
    assert!(
        unique >= 30 && several >= 30 && none >= 20,
        "{unique} unique, {several} several, {none} none"
    );
}

#[test]
fn check_names_the_broken_rule_and_bad_input_exits_2() {
    let puzzle = "2 2\n3 -\n- -\n";
    common::check_verdicts(
        "slitherlink",
        puzzle,
        &[
            (
                "+-+-+\n|3  |\n+ + +\n|   |\n+-+-+\n",
                1,
                "the 3 at row 1 column 1 has 2",
            ),
            ("+-+-+\n|3  |\n+-+ +\n  | |\n+ +-+\n", 0, "valid"),
            ("+-+\n|3|\n+-+\n", 2, "a loop on this board is drawn in 5"),
            (
                "+-+-+\n|3|\n+-+-+\n|   |\n+-+-+\n",
                1,
                "the line branches at",
            ),
            // A blank line is a row of the drawing with nothing on it.
            (
                "+-+ +\n|3|\n+-+ +\n\n+ + +\n",
                1,
                "the 3 at row 1 column 1 has 4",
            ),
            ("+-+ +\n|3|\n+-+ +\n    |\n+ + +\n", 1, "the line ends at"),
            ("+ + +\n 3\n+ + +\n\n+ + +\n", 1, "there is no loop"),
            ("+-+-+\n|3  |\n+-+ +\n  | |\n+ +-+\nunique\n", 0, "valid"),
            ("\u{feff}+-+-+\n|3  |\n+-+ +\n  | |\n+ +-+\n", 0, "valid"),
            // Lines drawn below the board are no verdict.
            (
                "+-+-+\n|3  |\n+-+ +\n  | |\n+ +-+\n| |\n",
                2,
                "6:1: a loop on this board is drawn in 5 lines",
            ),
            // puzzlekit's form: the cells inside the loop.
            ("2 2\nx x\n- x\n", 0, "valid"),
            ("x -\n- -\n", 1, "has 4 of its sides"),
            ("x -\n- x\n", 1, "the line branches"),
        ],
    );
    common::check_verdicts(
        "slitherlink",
        "2 3\n- - -\n- - -\n",
        &[(
            "+-+ +-+\n| | | |\n+-+ +-+\n\n+ + + +\n",
            1,
            "the line is more than one loop",
        )],
    );
    let example = common::data_dir("slitherlink").join("janko-0001-4x4.txt");
    let sol = fs::read_to_string(example.with_extension("sol")).unwrap();
    common::check_verdicts(
        "slitherlink",
        &fs::read_to_string(&example).unwrap(),
        &[(&sol, 0, "valid")],
    );
    // A picture asked for is a picture, with no solution too.
    let dir = tempfile::tempdir().unwrap();
    let none = dir.path().join("none.txt");
    fs::write(&none, "2 2\n4 4\n4 4\n").unwrap();
    let r = run(
        &[
            "solve",
            "slitherlink",
            none.to_str().unwrap(),
            "--hints",
            "--format",
            "svg",
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("<?xml") && r.stdout.contains(">no solution<"),
        "{}",
        r.stdout
    );
    common::bad_files_name_their_place(
        "slitherlink",
        &[
            ("3 -\n- 5\n", "2:3"),
            ("3 3\n3 - -\n", "1:1"),
            ("1 2 3\n1 2\n", "2:4"),
            ("", "1:1"),
        ],
    );
}
