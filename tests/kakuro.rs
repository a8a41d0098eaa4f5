//! Classic Kakuro end to end: janko.at's puzzles and puzz.link URLs from other projects' tests
//! through the binary, a brute-force count on random small boards, the validator's verdicts,
//! bad input.

mod common;

use common::{data_dir, run};
use std::fs;

/// Puzzle URLs other projects test with (each unique), with where they were read.
const URLS: [(&str, &str); 8] = [
    // robx/pzprjs test/script/kakuro.js.
    ("pzprjs", "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3"),
    // semiexp/cspuz_rs puzzles/kakuro.rs, its solver test.
    ("cspuz", "https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG"),
    // T0nyX1ang/noqx's Kakuro example.
    ("noqx", "https://puzz.link/p?kakuro/15/15/m-dm.ffl-7l9-mQjmIBmbam-anWZs.jSpBjo.7goP4lJ9m..nAjo74lf-.lUUrF9l7-qHNq-clKTrO4l.-clgIoibn.JbmHglfgo.gOo7NpA-.s7Hnb-m-fm-7m-7m-hl-4l.-Dm-Em46BfgJjhSK79acVZD"),
    // swaroopg92/penpa-edit's puzz.link import tests, "Kakuro 1" to "Kakuro 5".
    ("penpa-1", "https://puzz.link/p?kakuro/10/16/70Z3lg7ma0.sE0ladnQapgOoJgo6aoSfoZ0.ofgmJ0mcCvVim0EmCOoD0bho77oIfoa0ogJp4Knhal0Zs.0am0gl..5IDccZ4HhiDBcgd"),
    ("penpa-2", "https://puzz.link/p?kakuro/11/11/.6Bn.HDm4go3Er6go70mFOqj0Can6apOclg4lfapabna0h0qAdm3ModAr0Oo.m.0an..geajgTga74CIac"),
    ("penpa-3", "https://puzz.link/p?kakuro/2/2/k...-5"),
    ("penpa-4", "https://puzz.link/p?kakuro/5/5/kC-e-c-z..-8lff-giO"),
    ("penpa-5", "https://puzz.link/p?kakuro/6/6/m-eoI5lD-t.l-co-bm8-e-i97ggc"),
];

#[test]
fn every_janko_kakuro_has_its_one_solution() {
    let dir = data_dir("kakuro");
    let mut n = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let r = run(
            &["solve", "kakuro", path.to_str().unwrap(), "--unique"],
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
    assert!(n >= 50, "{n} puzzles");
}

#[test]
fn puzz_link_urls_are_unique_and_written_back_the_same() {
    for (name, url) in URLS {
        let r = run(&["solve", url, "--unique", "-q", "--format", "json"], None);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(
            common::json_field(&r.stdout, "puzzle"),
            "\"kakuro\"",
            "{name}"
        );
        assert_eq!(common::json_field(&r.stdout, "unique"), "true", "{name}");
        let back = run(&["solve", "kakuro", url, "--format", "url", "-q"], None);
        assert_eq!(back.stdout.trim(), url, "{name}");
    }
    // pzprjs's own answer to its test puzzle (its file's last check, the one with no error).
    let r = run(&["solve", URLS[0].1, "-q"], None);
    assert_eq!(
        r.stdout,
        "- - - - - -\n- - 5 3 - -\n- 3 4 1 2 -\n- 1 2 - 1 2\n- - 1 9 3 8\n- - - 8 4 -\nsolved\n"
    );
}

/// A board for the brute force: `None` white, `Some((down, across))` black with its sums (0 none).
type Board = Vec<Vec<Option<(u32, u32)>>>;

/// A run: its cells, its sum (0 when none), whether it goes across.
type Run = (Vec<(usize, usize)>, u32, bool);

/// The runs of a board, read from the rules: a maximal line of white cells takes the sum of the
/// black cell before it.
fn runs(b: &Board) -> Vec<Run> {
    let (rows, cols) = (b.len(), b[0].len());
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if b[r][c].is_some() {
                continue;
            }
            if c == 0 || b[r][c - 1].is_some() {
                let cells: Vec<(usize, usize)> = (c..cols)
                    .take_while(|&k| b[r][k].is_none())
                    .map(|k| (r, k))
                    .collect();
                out.push((cells, if c == 0 { 0 } else { b[r][c - 1].unwrap().1 }, true));
            }
            if r == 0 || b[r - 1][c].is_some() {
                let cells: Vec<(usize, usize)> = (r..rows)
                    .take_while(|&k| b[k][c].is_none())
                    .map(|k| (k, c))
                    .collect();
                out.push((
                    cells,
                    if r == 0 { 0 } else { b[r - 1][c].unwrap().0 },
                    false,
                ));
            }
        }
    }
    out
}

/// How many fillings keep every rule (up to [`CAP`]), by trying each digit in each white cell in
/// turn and checking the runs it closes: no encoder, no solver.
fn brute_force(b: &Board) -> usize {
    let whites: Vec<(usize, usize)> = (0..b.len())
        .flat_map(|r| (0..b[0].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| b[r][c].is_none())
        .collect();
    let runs = runs(b);
    let mut grid = vec![vec![0u32; b[0].len()]; b.len()];
    fn go(k: usize, whites: &[(usize, usize)], runs: &[Run], grid: &mut Vec<Vec<u32>>) -> usize {
        let ok = runs.iter().all(|(cells, sum, _)| {
            let digits: Vec<u32> = cells
                .iter()
                .map(|&(r, c)| grid[r][c])
                .filter(|&d| d != 0)
                .collect();
            let distinct = (1..=9).all(|d| digits.iter().filter(|&&x| x == d).count() <= 1);
            let total: u32 = digits.iter().sum();
            distinct
                && (*sum == 0 || (total <= *sum && (digits.len() < cells.len() || total == *sum)))
        });
        if !ok {
            return 0;
        }
        let Some(&(r, c)) = whites.get(k) else {
            return 1;
        };
        let mut n = 0;
        for d in 1..=9 {
            grid[r][c] = d;
            n += go(k + 1, whites, runs, grid);
            if n > CAP {
                break;
            }
        }
        grid[r][c] = 0;
        n
    }
    go(0, &whites, &runs, &mut grid)
}

/// Counts are compared up to this many.
const CAP: usize = 2000;

fn text(b: &Board) -> String {
    let word = |c: &Option<(u32, u32)>| match c {
        None => "0".to_string(),
        Some((0, 0)) => "-".to_string(),
        Some((d, a)) => format!(
            "{},{}",
            if *d == 0 {
                String::new()
            } else {
                d.to_string()
            },
            if *a == 0 {
                String::new()
            } else {
                a.to_string()
            }
        ),
    };
    b.iter()
        .map(|row| row.iter().map(word).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

#[test]
fn counts_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed: u64 = 17;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for k in 0..150 {
        // A border row and column (left out now and then, so edge runs go unclued), white
        // cells inside at random, at most 7 of them.
        let (rows, cols) = (2 + next(3) as usize, 2 + next(4) as usize);
        let border = k % 5 != 0;
        let mut b: Board = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        if (border && (r == 0 || c == 0)) || next(3) == 0 {
                            Some((0, 0))
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect();
        let whites: Vec<(usize, usize)> = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .filter(|&(r, c)| b[r][c].is_none())
            .collect();
        for &(r, c) in whites.iter().skip(7) {
            b[r][c] = Some((0, 0));
        }
        // Sums from a random filling (distinct digits or not), sometimes bent or left out.
        let fill: Vec<Vec<u32>> = (0..rows)
            .map(|_| (0..cols).map(|_| 1 + next(9) as u32).collect())
            .collect();
        for (cells, _, across) in runs(&b) {
            let (r0, c0) = cells[0];
            let head = if across {
                (r0, c0.wrapping_sub(1))
            } else {
                (r0.wrapping_sub(1), c0)
            };
            let Some(Some(clue)) = b.get(head.0).and_then(|row| row.get(head.1)).copied() else {
                continue;
            };
            let mut sum: u32 = cells.iter().map(|&(r, c)| fill[r][c]).sum();
            match next(6) {
                0 => sum = 0,
                1 => sum = (sum + next(3) as u32).saturating_sub(1).max(1),
                _ => {}
            }
            let clue = if across { (clue.0, sum) } else { (sum, clue.1) };
            b[head.0][head.1] = Some(clue);
        }
        let want = brute_force(&b).min(CAP + 1);
        let t = text(&b);
        let file = dir.path().join(format!("b{k}.txt"));
        fs::write(&file, &t).unwrap();
        let r = run(
            &[
                "solve",
                "kakuro",
                file.to_str().unwrap(),
                "--count=2000",
                "-q",
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(
            common::json_field(&r.stdout, "solutions"),
            want.to_string(),
            "{t}{}",
            r.stderr
        );
        assert_eq!(r.code, if want == 0 { 1 } else { 0 }, "{t}");
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
    fs::write(&puzzle, "- 4, 3,\n,3 0 0\n,4 0 0\n").unwrap();
    let answer = dir.path().join("a.txt");
    for (grid, code, says) in [
        ("- - -\n- 1 2\n- 3 1\n", 0, "valid"),
        ("1231\n", 0, "valid"),
        ("3 3\n- 4, 3,\n- 1 2\n- 3 1\n", 0, "valid"),
        (
            "- - -\n- 2 1\n- 2 2\n",
            1,
            "the across run from row 3 column 2 holds 2 twice",
        ),
        (
            "- - -\n- 2 1\n- 3 1\n",
            1,
            "the down run from row 2 column 2 adds up to 5, its clue is 4",
        ),
        ("- - -\n- 1 2\n- 3 .\n", 1, "row 3 column 3: no digit"),
    ] {
        fs::write(&answer, grid).unwrap();
        let r = run(
            &[
                "check",
                "kakuro",
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
    for (grid, line, col) in [
        ("- - -\n- 1 2\n- 3 x\n", 3, 5),
        ("- 1 -\n- 1 2\n- 3 1\n", 1, 3),
        ("123\n", 1, 1),
        ("- - -\n- 1 2\n", 3, 1),
    ] {
        fs::write(&answer, grid).unwrap();
        let r = run(
            &[
                "check",
                "kakuro",
                puzzle.to_str().unwrap(),
                "--answer",
                answer.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(r.code, 2, "{grid:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("a.txt:{line}:{col}:")),
            "{grid:?}: {}",
            r.stderr
        );
    }
    for (text, line, col) in [
        ("- 4, 3,\n,3 0 x\n,4 0 0\n", 2, 6),
        ("- 46, 3,\n,3 0 0\n,4 0 0\n", 1, 3),
        ("- 4, 3,\n,3 0\n,4 0 0\n", 2, 5),
        ("3 4\n- 4, 3,\n,3 0 0\n,4 0 0\n", 2, 8),
        ("4 3\n- 4, 3,\n,3 0 0\n,4 0 0\n", 1, 1),
        ("- 4,a 3,\n", 1, 3),
    ] {
        fs::write(&puzzle, text).unwrap();
        let r = run(&["solve", "kakuro", puzzle.to_str().unwrap()], None);
        assert_eq!(r.code, 2, "{text:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("p.txt:{line}:{col}:")),
            "{text:?}: {}",
            r.stderr
        );
    }
    for (url, says) in [
        (
            "https://puzz.link/p?kakuro/2/2/k..!5",
            ":1:35: '!' is no kakuro clue",
        ),
        (
            "https://puzz.link/p?kakuro/2/2/k...-5-",
            "after the last clue",
        ),
        (
            "https://puzz.link/p?kakuro/2/2/k.5",
            "the URL ends after it",
        ),
        // Cut short, in the cells or in the border's sums: refused, not read as another
        // puzzle (found in review).
        (
            "https://puzz.link/p?kakuro/5/5/48la0.na0",
            "the URL ends before the last of the 5×5 cells",
        ),
        (
            "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.",
            "the URL ends before the border's sums",
        ),
        ("https://puzz.link/p?kakuro/1/1/é", "'é' is no kakuro clue"),
    ] {
        let r = run(&["solve", "kakuro", url], None);
        assert_eq!(r.code, 2, "{url}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{url}: {}", r.stderr);
    }
    // A size line's row length, a blank line after it, long words cut in messages (review).
    for (text, says) in [
        (
            "1 2\n0 0 0 0\n",
            "p.txt:2:5: this row has more than 2 cells; the size line says 2",
        ),
        ("3 3\n\n- 4, 3,\n,3 0 0\n,4 0 0\n", ""),
        (
            &format!("- {}\n", "x".repeat(5000)),
            "\"xxxxxxxxxxxxxxxxxxxx\"…: expected",
        ),
    ] {
        fs::write(&puzzle, text).unwrap();
        let r = run(&["solve", "kakuro", puzzle.to_str().unwrap(), "-q"], None);
        assert_eq!(r.code, if says.is_empty() { 0 } else { 2 }, "{}", r.stderr);
        assert!(
            r.stderr.contains(says) && r.stderr.len() < 300,
            "{}",
            r.stderr
        );
    }
    // Ten unclued cells in a run have no solution; a 9×9 of unclued runs has (both were
    // seconds of pigeonhole search before the clauses that say so; found in review).
    for (text, code) in [
        ("0 0 0 0 0 0 0 0 0 0\n".to_string(), 1),
        ("0 0 0 0 0 0 0 0 0\n".repeat(9), 0),
    ] {
        fs::write(&puzzle, &text).unwrap();
        let r = run(&["solve", "kakuro", puzzle.to_str().unwrap(), "-q"], None);
        assert_eq!(r.code, code, "{}", r.stderr);
    }
    // A run of ten cells, or a sum no set of distinct digits makes, has no solution: exit 1.
    for text in [
        "- - - - - - - - - - -\n- 0 0 0 0 0 0 0 0 0 0\n",
        "- - -\n,1 0 0\n",
        "- - -\n,18 0 0\n",
    ] {
        fs::write(&puzzle, text).unwrap();
        let r = run(&["solve", "kakuro", puzzle.to_str().unwrap()], None);
        assert_eq!(r.code, 1, "{text:?}: {}", r.stderr);
        assert!(r.stdout.contains("no solution"), "{text:?}: {}", r.stdout);
    }
}
