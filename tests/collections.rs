//! Files of many puzzles through `solve` and `run`: URLs a line, one-line sudokus, puzzlekit's
//! JSON; each puzzle its own block or row, verdict and status, the command's exit status the
//! worst of theirs.

mod common;

use common::run;
use std::fs;

const MASYU_6: &str = "https://puzz.link/p?mashu/6/6/1063000i3000";
const MASYU_10: &str = "https://puzz.link/p?mashu/10/10/0600003i06b1300600000a30600i090330";
const SLITHER: &str = "https://puzz.link/p?slither/5/5/cbcbcddad";

/// Janko's sudoku 1 on one line, `.` for empty cells.
fn janko_sudoku() -> String {
    let text = fs::read_to_string(common::data_dir("sudoku").join("janko-1-9x9.txt")).unwrap();
    text.split_whitespace()
        .map(|w| if w == "-" || w == "0" { "." } else { w })
        .collect()
}

#[test]
fn solve_takes_each_puzzle_of_a_file_of_urls() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    fs::write(&file, format!("{MASYU_6}\n\n# the next one\n{MASYU_10}\n")).unwrap();
    let f = file.to_str().unwrap();
    // The URLs name their puzzle.
    let r = run(&["solve", f, "--unique"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let one = run(&["solve", MASYU_6, "--unique"], None).stdout;
    let two = run(&["solve", MASYU_10, "--unique"], None).stdout;
    assert_eq!(r.stdout, format!("# {f}:1\n{one}# {f}:4\n{two}"));
    let r = run(&["solve", "masyu", f, "--format", "json"], None);
    let rows: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["item"], format!("{f}:4"));
    assert_eq!(rows[1]["status"], "solved");
    // A puzzle of another kind is that puzzle's error; the others are solved, and the exit
    // status is the worst.
    fs::write(&file, format!("{MASYU_6}\n{SLITHER}\n")).unwrap();
    let r = run(&["solve", f], None);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("do not all say they are one puzzle (masyu, slitherlink)"),
        "{}",
        r.stderr
    );
    let r = run(&["solve", "masyu", f], None);
    assert_eq!(r.code, 2);
    assert!(r.stdout.starts_with(&format!("# {f}:1\n")), "{}", r.stdout);
    assert!(
        r.stdout.ends_with(&format!(
            "# {f}:2\nerror: {f}:2: a slither puzzle, not a masyu\n"
        )),
        "{}",
        r.stdout
    );
    // One certificate or picture proves or shows one puzzle.
    for extra in [["--certify", "c"], ["--format", "svg"]] {
        let r = run(&["solve", "masyu", f, extra[0], extra[1]], None);
        assert_eq!(r.code, 2, "{}", r.stdout);
        assert!(r.stderr.contains("2 puzzles"), "{}", r.stderr);
    }
}

#[test]
fn one_line_sudokus_each_get_their_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("top.txt");
    let good = janko_sudoku();
    assert_eq!(good.len(), 81);
    // Two 1s in the first row: no solution.
    let bad = format!("11{}", &good[2..]);
    fs::write(&file, format!("{good}\n{bad}\n{good}\n")).unwrap();
    let f = file.to_str().unwrap();
    let r = run(
        &["solve", "sudoku", f, "--unique", "--format", "json"],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let status: Vec<String> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["status"].to_string())
        .collect();
    assert_eq!(status, ["\"solved\"", "\"no_solution\"", "\"solved\""]);
    // And without the puzzle's name: they say they are sudokus.
    let r = run(&["solve", f], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout.matches("\nsolved\n").count(), 2, "{}", r.stdout);
}

#[test]
fn run_gives_each_puzzle_of_a_puzzlekit_file_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Masyu_dataset.json");
    let data = common::data_dir("masyu");
    let entry = |name: &str, flip: bool| {
        let problem = fs::read_to_string(data.join(format!("{name}.txt"))).unwrap();
        // puzzlekit's solutions give each cell's directions; the bundled `.sol` is the
        // drawing, which `check` reads as well.
        let mut solution = fs::read_to_string(data.join(format!("{name}.sol"))).unwrap();
        if flip {
            // Off the loop at its first corner: no longer the answer.
            solution.replace_range(0..1, ".");
            solution = solution.replacen(".-", ". ", 1);
        }
        serde_json::json!({"problem": problem, "solution": solution, "source": "janko.at"})
    };
    let json = serde_json::json!({
        "name": "Masyu",
        "count": 3,
        "data": {
            "02_6x6": entry("janko-0002-6x6", false),
            "11_10x10": entry("janko-0011-10x10", false),
            "15_10x18": entry("janko-0015-10x18", true),
        }
    });
    fs::write(&file, json.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let r = run(&["run", f, "--format", "json", "-q"], None);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let rows: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["file"].as_str().unwrap().to_string(),
                r["verdict"].to_string(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (format!("{f}#02_6x6"), "\"pass\"".to_string()),
            (format!("{f}#11_10x10"), "\"pass\"".to_string()),
            (format!("{f}#15_10x18"), "\"fail\"".to_string()),
        ]
    );
    assert!(rows.iter().all(|r| r["puzzle"] == "masyu"));
    // A file of URLs too, each its row (no expected answer).
    let urls = dir.path().join("urls.txt");
    fs::write(&urls, format!("{MASYU_6}\n{SLITHER}\n")).unwrap();
    let r = run(&["run", urls.to_str().unwrap()], None);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("urls.txt:2  slitherlink  solved"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("2 puzzles:"), "{}", r.stdout);
}

/// A grid written without spaces, 16 wide, is one puzzle, not sixteen one-line anythings; a
/// puzzlekit JSON that names puzz.link in a field is no URL; a broken entry is its own error.
#[test]
fn single_puzzles_stay_single() {
    let dir = tempfile::tempdir().unwrap();
    let sixteen =
        fs::read_to_string(common::data_dir("masyu").join("janko-0080-16x16.txt")).unwrap();
    let rows: String = sixteen
        .lines()
        .skip(1)
        .map(|l| {
            l.split_whitespace()
                .map(|w| if w == "-" { "." } else { w })
                .collect::<String>()
                + "\n"
        })
        .collect();
    let file = dir.path().join("m16.txt");
    fs::write(&file, &rows).unwrap();
    let f = file.to_str().unwrap();
    let r = run(&["solve", "masyu", f, "--unique"], None);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.ends_with("\nunique\n"), "{}", r.stdout);
    let r = run(&["run", "--puzzle", "masyu", f], None);
    assert!(
        r.stdout.contains("1 puzzles:") || r.stdout.contains("1 puzzle:"),
        "{}",
        r.stdout
    );
    let json = dir.path().join("m.json");
    let problem =
        "6 6\n- - - - - -\n- - - - - w\n- b - w b -\n- b w - b -\nw - - - - -\n- - - - - -";
    let text = serde_json::json!({"name": "Masyu", "data": {
        "a": {"problem": problem, "source": "https://puzz.link/p?mashu/6/6/x"},
        "b": {"problem": 7},
    }})
    .to_string();
    fs::write(&json, text).unwrap();
    let r = run(&["solve", json.to_str().unwrap()], None);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("#a\n") && r.stdout.contains("\nsolved\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("#b: its \"problem\" is no text"),
        "{}",
        r.stdout
    );
}

/// Each puzzle is printed when it is done, not when the whole file is: the first block is read
/// while the second puzzle (janko.at's Nurikabe 29, which no solver here proves in seconds) is
/// still being searched.
#[test]
fn each_puzzle_is_printed_when_it_is_done() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urls.txt");
    let hard = "https://puzz.link/p?nurikabe/10/10/q-25p-24zzzw";
    let easy = "https://puzz.link/p?nurikabe/10/10/j2g2i2m2j2m2j2n2g2j2r2g2j2l22j2r2g";
    fs::write(&file, format!("{easy}\n{hard}\n")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args([
            "solve",
            file.to_str().unwrap(),
            "--unique",
            "--time-limit",
            "120",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(
        lines.next().unwrap().unwrap(),
        format!("# {}:1", file.display())
    );
    let first: Vec<String> = lines
        .by_ref()
        .map(|l| l.unwrap())
        .take_while(|l| l != "unique")
        .collect();
    assert_eq!(first.len(), 10, "{first:?}");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the second is still searched"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A puzzlekit file of a genre puzzle-sat does not read is named as that genre, not as a mix.
#[test]
fn a_file_of_a_genre_not_read_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Akari_dataset.json");
    fs::write(
        &file,
        r#"{"name": "Akari", "data": {"1_2x2": {"problem": "2 2\n- 1\n- -"}, "2_2x2": {"problem": "2 2\n- -\n- -"}}}"#,
    )
    .unwrap();
    let r = run(&["solve", file.to_str().unwrap()], None);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "its 2 puzzles say they are akari, which puzzle-sat does not read (it reads sudoku,"
        ),
        "{}",
        r.stderr
    );
}
