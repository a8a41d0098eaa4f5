//! puzz.link URLs: read as puzzles wherever a puzzle file goes, printed by `--format url`, and
//! checked against pzprjs's own test puzzle and its answer.

mod common;

use common::{data_dir, run};

/// pzprjs's Tatamibari test puzzle (test/script/tatamibari.js) and its correct answer there,
/// written out from its border data as a label grid.
const PZPRJS_URL: &str = "https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3g";
const PZPRJS_BOARD: &str = ".....\n..+.|\n|...-\n.+|..\n|+.+.\n";
const PZPRJS_ANSWER: &str = "11223\n11223\n11455\n67488\n69488\n";

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn the_pzprjs_test_puzzle_reads_and_writes_as_pzprjs_does() {
    for url in [
        PZPRJS_URL,
        "http://pzv.jp/p.html?tatamibari/5/5/m3g11i2g31h13g3g",
        "tatamibari/5/5/m3g11i2g31h13g3g",
    ] {
        let r = run(&["solve", "tatamibari", url, "--unique"], None);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, format!("{PZPRJS_ANSWER}unique\n").as_str()),
            "{url}: {}",
            r.stderr
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "pzprjs.txt", PZPRJS_BOARD);
    let r = run(&["solve", "tatamibari", &file, "--format", "url"], None);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, format!("{PZPRJS_URL}\n").as_str()),
        "{}",
        r.stderr
    );
}

#[test]
fn corpus_puzzles_give_the_same_answer_from_their_url() {
    for (puzzle, file, args) in [
        (
            "tatamibari",
            data_dir("tatamibari").join("codegolf-10x10.txt"),
            &["--format", "rects"][..],
        ),
        (
            "tatamibari",
            data_dir("tatamibari").join("codegolf-7x7.txt"),
            &["--count"][..],
        ),
        (
            "target-sudoku",
            data_dir("target-sudoku").join("sample-1.in"),
            &["--format", "line"][..],
        ),
        (
            "target-sudoku",
            data_dir("target-sudoku").join("noip2009-01.in"),
            &["--format", "judge"][..],
        ),
    ] {
        let file = file.to_str().unwrap();
        let url = run(&["solve", puzzle, file, "--format", "url"], None);
        assert_eq!(url.code, 0, "{file}: {}", url.stderr);
        assert!(
            url.stdout.starts_with("https://puzz.link/p?"),
            "{}",
            url.stdout
        );
        let url = url.stdout.trim();
        let mut from_file = vec!["solve", puzzle, file];
        from_file.extend(args);
        let mut from_url = vec!["solve", puzzle, url];
        from_url.extend(args);
        let (a, b) = (run(&from_file, None), run(&from_url, None));
        assert_eq!((a.code, &a.stdout), (b.code, &b.stdout), "{file} and {url}");
        assert!(!a.stdout.is_empty());
    }
}

#[test]
fn a_generated_puzzle_round_trips_through_its_url() {
    let text = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "12x9",
            "--seed",
            "4",
            "--unique",
        ],
        None,
    );
    let url = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "12x9",
            "--seed",
            "4",
            "--unique",
            "--format",
            "url",
        ],
        None,
    );
    assert_eq!(
        (text.code, url.code),
        (0, 0),
        "{}{}",
        text.stderr,
        url.stderr
    );
    assert!(
        url.stdout
            .starts_with("https://puzz.link/p?tatamibari/9/12/"),
        "{}",
        url.stdout
    );
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "made.txt", &text.stdout);
    let (a, b) = (
        run(&["solve", "tatamibari", &file, "--unique"], None),
        run(
            &["solve", "tatamibari", url.stdout.trim(), "--unique"],
            None,
        ),
    );
    assert_eq!((b.code, &b.stdout), (0, &a.stdout));
    assert!(b.stdout.ends_with("\nunique\n"));
    // And back: the URL's puzzle prints the same URL.
    let again = run(
        &["solve", "tatamibari", url.stdout.trim(), "--format", "url"],
        None,
    );
    assert_eq!(again.stdout, url.stdout);
}

#[test]
fn unknown_clues_come_from_dots() {
    // `.` is a clue of any shape: a 1×3 board with one `?` is one rectangle of any shape.
    let r = run(
        &["solve", "tatamibari", "tatamibari/3/1/.h", "--count"],
        None,
    );
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "1 solution\n"),
        "{}",
        r.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "any.txt", "?..\n..?\n");
    let r = run(&["solve", "tatamibari", &file, "--format", "url"], None);
    assert_eq!(r.stdout, "https://puzz.link/p?tatamibari/3/2/.j.\n");
}

#[test]
fn bad_urls_exit_2_naming_the_column() {
    let dir = tempfile::tempdir().unwrap();
    let holes = write(dir.path(), "holes.txt", "+#\n..\n");
    for (args, says) in [
        (
            vec![
                "solve",
                "tatamibari",
                "https://puzz.link/p?tatamibari/5/5/m3A",
            ],
            "https://puzz.link/p?tatamibari/5/5/m3A:1:38: 'A' is no tatamibari clue",
        ),
        (
            vec!["solve", "tatamibari", "https://puzz.link/p?tatamibari/5"],
            "board size",
        ),
        (
            vec![
                "solve",
                "tatamibari",
                "https://puzz.link/p?tatamibari/2/2/33333",
            ],
            "after the last of the 4 cells",
        ),
        (
            vec!["solve", "tatamibari", "https://puzz.link/p?nurikabe/5/5/g"],
            "holds a \"nurikabe\" puzzle, not tatamibari",
        ),
        (
            vec![
                "solve",
                "tatamibari",
                "https://puzz.link/p?tatamibari/99999/99999/",
            ],
            "larger than",
        ),
        (
            vec![
                "solve",
                "target-sudoku",
                "https://puzz.link/p?sudoku/4/4/g1k23k3g",
            ],
            "target sudoku is 9×9; this sudoku is 4×4",
        ),
        (
            vec![
                "solve",
                "target-sudoku",
                "https://puzz.link/p?sudoku/9/9/g.g",
            ],
            "unknown",
        ),
        (
            vec!["solve", "kakkuro", "https://puzz.link/p?kakuro/5/5/g"],
            "no puzz.link URL form",
        ),
        (
            vec!["solve", "tatamibari", &holes, "--format", "url"],
            "holes",
        ),
        (
            vec![
                "decode",
                "tatamibari",
                PZPRJS_URL,
                "--model",
                "-",
                "--format",
                "url",
            ],
            "invalid value 'url' for '--format",
        ),
    ] {
        let r = run(&args, Some(b""));
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"));
    }
    // A file whose name looks like a URL is still a file.
    let sub = dir.path().join("tatamibari/5/5");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(sub.join("m3g"), "+\n").unwrap();
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .current_dir(dir.path())
        .args(["solve", "tatamibari", "tatamibari/5/5/m3g"])
        .output()
        .unwrap();
    assert_eq!(
        (r.status.code(), String::from_utf8_lossy(&r.stdout).as_ref()),
        (Some(0), "1\nsolved\n")
    );
}

/// A malformed URL given without the puzzle's name gets the URL's own message, as with it (it
/// got clap's "invalid value for '<PUZZLE>'" and the list of puzzles).
#[test]
fn a_bad_url_without_a_puzzle_name_says_what_is_wrong_with_it() {
    for (url, says) in [
        ("https://puzz.link/p?tatamibari/0/3", "https://puzz.link/p?tatamibari/0/3:1:32: a board size of 0"),
        ("https://puzz.link/p?tatamibari/5", "https://puzz.link/p?tatamibari/5:1:33: expected the board size: tatamibari/COLUMNS/ROWS/…"),
        ("https://puzz.link/p?", "https://puzz.link/p?:1:21: expected a puzzle name after '?'"),
        ("https://example.com/foo", "https://example.com/foo: not a puzz.link URL, which holds its puzzle after '?'"),
        ("http://", "http://: not a puzz.link URL"),
        ("https://puzz.link/p?yajilin/5/5/g", "https://puzz.link/p?yajilin/5/5/g: no puzzle of puzzle-sat reads puzz.link's \"yajilin\" (it reads heyawake, hitori, kakuro, lits, mashu, masyu, nurikabe, pearl, shikaku, sikaku, slither, slitherlink, sudoku, tatamibari)"),
    ] {
        for command in ["solve", "check", "encode", "decode"] {
            let r = run(&[command, url], None);
            assert_eq!(r.code, 2, "{command} {url}: {}{}", r.stdout, r.stderr);
            assert!(r.stderr.starts_with(&format!("puzzle-sat: error: {says}")), "{command} {url}: {}", r.stderr);
            assert!(!r.stderr.contains("<PUZZLE>"), "{command} {url}: {}", r.stderr);
        }
    }
}

/// The largest boards a URL may name are refused in little memory, whatever their shape: a
/// column of 16,777,216 cells took 988 MB (an allocation per row) before it was refused.
#[test]
fn a_huge_thin_board_is_refused_in_little_memory() {
    for url in [
        "tatamibari/1/16777216/",
        "tatamibari/16777216/1/",
        "tatamibari/4096/4096/",
    ] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 400000; exec \"$0\" solve tatamibari \"$1\"")
            .arg(env!("CARGO_BIN_EXE_puzzle-sat"))
            .arg(url)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{url}: {stderr}");
        assert!(stderr.contains("too large"), "{url}: {stderr}");
    }
}

/// A URL as pasted: without the puzzle's name (read from the URL), with spaces around it and a
/// trailing `/`, or on standard input. Each was an error.
#[test]
fn a_pasted_url_is_read_as_it_is_pasted() {
    let want = run(&["solve", "tatamibari", PZPRJS_URL], None);
    assert_eq!(want.code, 0, "{}", want.stderr);
    for args in [
        vec!["solve", PZPRJS_URL],
        vec![
            "solve",
            "tatamibari",
            " https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3g/ ",
        ],
    ] {
        let r = run(&args, None);
        assert_eq!(
            (r.code, &r.stdout),
            (0, &want.stdout),
            "{args:?}: {}",
            r.stderr
        );
    }
    let r = run(
        &["solve", "tatamibari", "-"],
        Some(format!("  {PZPRJS_URL}/\n").as_bytes()),
    );
    assert_eq!((r.code, &r.stdout), (0, &want.stdout), "{}", r.stderr);
    // A sudoku URL is a classic sudoku (issue 23: it was read as a target sudoku), and a target
    // sudoku when that is named.
    let r = run(&["solve", "sudoku/4/4/g1k23k3g", "-q"], None);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "2 1 4 3\n4 3 1 2\n3 4 2 1\n1 2 3 4\nsolved\n"),
        "{}",
        r.stderr
    );
    let r = run(
        &["solve", "target-sudoku", "sudoku/9/9/", "--format", "judge"],
        None,
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, "2906\n"), "{}", r.stderr);
}

#[test]
fn a_url_in_a_file_or_on_standard_input_names_its_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let url = "https://puzz.link/p?hitori/4/4/1114142333214213";
    let file = write(dir.path(), "url.txt", &format!("{url}\n"));
    let by_name = run(&["solve", "hitori", url, "--unique"], None);
    assert_eq!(by_name.code, 0, "{}", by_name.stderr);
    for r in [
        run(&["solve", &file, "--unique"], None),
        run(&["solve", "-", "--unique"], Some(url.as_bytes())),
        run(&["solve", "hitori", "-", "--unique"], Some(url.as_bytes())),
    ] {
        assert_eq!((r.code, &r.stdout), (0, &by_name.stdout), "{}", r.stderr);
    }
    // Standard input without a URL names no puzzle: said so, exit 2.
    let r = run(&["solve", "-"], Some(b"1 2\n2 1\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no puzz.link URL"), "{}", r.stderr);
    // A file that is a puzzle, not a URL, still needs the puzzle's name.
    let puzzle = write(dir.path(), "p.txt", "1 1\n2 1\n");
    assert_eq!(run(&["solve", &puzzle], None).code, 2);
}
