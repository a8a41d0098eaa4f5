//! Masyu end to end: janko.at's puzzles and puzz.link URLs from other projects through the
//! binary, counts and hints against a brute force over every loop of small boards, the
//! validator's verdicts, bad input.

mod common;

use common::{loop_drawing, loops, run};
use std::fs;

#[test]
fn every_janko_masyu_has_its_one_solution() {
    let n = common::every_bundled_is_unique("masyu");
    assert!(n >= 80, "{n} puzzles");
}

#[test]
fn puzz_link_urls_are_solved_and_written_back() {
    // pzprjs's own test puzzle (test/script/mashu.js) and cspuz_rs's (its `masyu` name).
    for url in [
        "https://puzz.link/p?mashu/6/6/1063000i3000",
        "https://puzz.link/p?mashu/10/10/0600003i06b1300600000a30600i090330",
    ] {
        let r = run(&["solve", url, "--unique"], None);
        assert_eq!(r.code, 0, "{url}: {}", r.stderr);
        assert!(r.stdout.ends_with("\nunique\n"), "{}", r.stdout);
        let r = run(&["solve", "masyu", url, "--format", "url"], None);
        assert_eq!(r.stdout.trim(), url, "{}", r.stderr);
        let other = url.replace("mashu", "masyu");
        let r = run(&["solve", "masyu", &other, "--format", "url"], None);
        assert_eq!(r.stdout.trim(), url, "{}", r.stderr);
    }
    let r = run(
        &["solve", "https://puzz.link/p?mashu/6/6/1063000i3000"],
        None,
    );
    assert_eq!(
        r.stdout,
        ".-.-w-. .-.\n|     | | |\n. b-.-. w .\n| |     | |\n. . .-.-. .\n| | |     |\n\
         . .-. b-.-.\n|     |\n.-w-. . . .\n    | |\n. . .-. . .\nsolved\n"
    );
    // The `f` variant (the loop through every cell) is another puzzle.
    let r = run(&["solve", "https://puzz.link/p?masyu/f/4/4/0003i0"], None);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("every cell"), "{}", r.stderr);
}

/// Whether `l` keeps the pearl rules on a board `cols` wide: the test's own reading of them.
fn holds(cols: usize, pearls: &[char], l: &[(usize, usize)]) -> bool {
    let n = pearls.len();
    let on = |a: usize, b: usize| l.binary_search(&(a.min(b), a.max(b))).is_ok();
    // The cell one step from v (dr, dc), if on the board.
    let step = |v: usize, (dr, dc): (i64, i64)| {
        let (r, c) = ((v / cols) as i64 + dr, (v % cols) as i64 + dc);
        (r >= 0 && c >= 0 && c < cols as i64 && ((r as usize) * cols + (c as usize)) < n)
            .then(|| r as usize * cols + c as usize)
    };
    let go = |v: usize, d: (i64, i64)| step(v, d).filter(|&u| on(v, u));
    let straight = |v: usize| {
        (go(v, (0, -1)).is_some() && go(v, (0, 1)).is_some())
            || (go(v, (-1, 0)).is_some() && go(v, (1, 0)).is_some())
    };
    let dirs = [(0, -1), (0, 1), (-1, 0), (1, 0)];
    pearls.iter().enumerate().all(|(v, &p)| {
        let out: Vec<((i64, i64), usize)> = dirs
            .iter()
            .filter_map(|&d| go(v, d).map(|u| (d, u)))
            .collect();
        match p {
            'w' => straight(v) && out.iter().any(|&(_, u)| !straight(u)),
            'b' => !out.is_empty() && !straight(v) && out.iter().all(|&(d, u)| go(u, d).is_some()),
            _ => true,
        }
    })
}

/// A random board of up to 4×4 cells: pearls a random loop keeps, at some of its cells, one of
/// them sometimes of the other colour (so that some boards have no solution).
fn random_boards(count: usize, seed: u64) -> Vec<(usize, usize, Vec<char>)> {
    let mut seed = seed;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let mut boards = Vec::new();
    while boards.len() < count {
        let (rows, cols) = (2 + next(3) as usize, 3 + next(2) as usize);
        let all = loops(rows, cols);
        let chosen = &all[next(all.len() as u64) as usize];
        let mut pearls = vec!['-'; rows * cols];
        let keep = 4 + next(6);
        for v in 0..rows * cols {
            for p in ['w', 'b'] {
                let mut one = vec!['-'; rows * cols];
                one[v] = p;
                if holds(cols, &one, chosen) && next(10) < keep {
                    pearls[v] = p;
                }
            }
        }
        if next(4) == 0 {
            let v = next(pearls.len() as u64) as usize;
            pearls[v] = if pearls[v] == 'w' { 'b' } else { 'w' };
        }
        boards.push((rows, cols, pearls));
    }
    boards
}

#[test]
fn counts_and_hints_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for (rows, cols, pearls) in random_boards(300, 44) {
        let mut t = format!("{rows} {cols}\n");
        for row in pearls.chunks(cols) {
            t += &(row
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n");
        }
        let all: Vec<_> = loops(rows, cols)
            .into_iter()
            .filter(|l| holds(cols, &pearls, l))
            .collect();
        assert_eq!(common::count("masyu", &file, &t), all.len(), "{t}");
        match all.len() {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
        if all.is_empty() {
            continue;
        }
        let node = |v: usize| if pearls[v] == '-' { '.' } else { pearls[v] };
        let want = loop_drawing(rows, cols, &all, node, |_, _| ' ');
        let flag = if all.len() == 1 {
            "--unique"
        } else {
            "--hints"
        };
        let r = run(&["solve", "masyu", file.to_str().unwrap(), flag], None);
        assert!(r.stdout.starts_with(&want), "{t}{}want\n{want}", r.stdout);
    }
    assert!(
        unique >= 30 && several >= 30 && none >= 20,
        "{unique} unique, {several} several, {none} none"
    );
}

#[test]
fn check_names_the_broken_rule_and_bad_input_exits_2() {
    let puzzle = "3 3\nw - -\n- b -\n- - -\n";
    common::check_verdicts(
        "masyu",
        puzzle,
        &[
            // The drawing shows the pearls.
            (
                ".-.-.\n|   |\n. b .\n|   |\n.-.-.\n",
                2,
                "1:1: unexpected \".\": the drawing has \"w\"",
            ),
            (
                "w-.-.\n|   |\n. b .\n|   |\n.-.-.\n",
                1,
                "the loop turns on the white pearl at row 1 column 1",
            ),
            (
                "w-.-.\n| | |\n. b .\n|   |\n.-.-.\n",
                1,
                "the line branches at row 1 column 2",
            ),
            (".-.\n| |\n.-.\n", 2, "drawn in 5"),
            (
                "w . .\n|\n. b-.\n| | |\n.-. .\n",
                1,
                "the line ends at row 1 column 1",
            ),
            (
                "x x x\nx x x\nx x x\n",
                2,
                "3 lines; a loop on this board is drawn in 5",
            ),
            // puzzlekit's form: each cell's directions.
            (
                "se sw -\nns ns -\nne nw -\n",
                1,
                "the loop turns on the white pearl",
            ),
            (
                "3 3\nse ew sw\nns - ns\nne ew nw\n",
                1,
                "turns on the white pearl at row 1 column 1",
            ),
            (
                "se sw -\nns - -\nne nw -\n",
                2,
                "disagree about the line between them",
            ),
            (
                "\u{feff}3 3\nse ew sw\nns - ns\nne ew nw\n",
                1,
                "turns on the white pearl",
            ),
        ],
    );
    common::check_verdicts(
        "masyu",
        "3 4\n- w - -\n- - - -\n- - b -\n",
        &[
            (
                ". w . .\n\n.-. . .\n| |\n.-. b .\n",
                1,
                "misses the white pearl",
            ),
            (
                ".-w-.-.\n|     |\n. . .-.\n| | |\n.-. b .\n",
                1,
                "the line ends at",
            ),
        ],
    );
    common::check_verdicts(
        "masyu",
        "2 4\n- - - -\n- - - -\n",
        &[(
            ".-. .-.\n| | | |\n.-. .-.\n",
            1,
            "the line is more than one loop",
        )],
    );
    let example = common::data_dir("masyu").join("janko-0002-6x6.txt");
    let sol = fs::read_to_string(example.with_extension("sol")).unwrap();
    common::check_verdicts(
        "masyu",
        &fs::read_to_string(&example).unwrap(),
        &[(&sol, 0, "valid")],
    );
    common::bad_files_name_their_place(
        "masyu",
        &[
            ("w - -\n- x -\n", "2:3"),
            ("3 3\nw - -\n", "1:1"),
            ("w b\nw\n", "2:2"),
            ("", "1:1"),
        ],
    );
}

/// A board past the size whose whole rules (`encode`, certificates: the spanning tree over
/// every node) would pass the literal cap is still solved: the search's own formula (degrees
/// and pearls) is what its size check counts.
#[test]
fn boards_past_the_stated_formulas_cap_are_searched() {
    let n = 200;
    let mut text = format!("{n} {n}\n");
    for r in 0..n {
        let row: Vec<&str> = (0..n)
            .map(|c| if (r, c) == (100, 100) { "b" } else { "-" })
            .collect();
        text += &(row.join(" ") + "\n");
    }
    let r = run(&["solve", "masyu", "-", "--quiet"], Some(text.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.ends_with("\nsolved\n"), "{}", r.stderr);
    let r = run(&["encode", "masyu", "-"], Some(text.as_bytes()));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("c");
    let r = run(
        &[
            "solve",
            "masyu",
            "-",
            "--unique",
            "--certify",
            cert.to_str().unwrap(),
        ],
        Some(text.as_bytes()),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
}
