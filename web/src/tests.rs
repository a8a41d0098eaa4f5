//! The page's answers against the CLI's words and the validator, natively.

use super::*;

fn ask(request: Value) -> (Value, Vec<Value>) {
    let mut reports = Vec::new();
    let v = run(&request, &mut |r| reports.push(r));
    (v, reports)
}

#[test]
fn catalogue_lists_every_puzzle_with_its_example() {
    let c = catalogue();
    let names: Vec<&str> = c
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "sudoku",
            "target-sudoku",
            "tatamibari",
            "kakkuro",
            "shikaku",
            "kakuro",
            "nurikabe",
            "hitori",
            "heyawake",
            "lits",
            "slitherlink",
            "masyu"
        ]
    );
    for e in c.as_array().unwrap() {
        assert!(!e["example"].as_str().unwrap().is_empty(), "{e}");
    }
}

fn example_of(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../docs/examples/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn prove_means_unique_or_optimal_and_counts_are_refused_for_scores() {
    let (v, _) =
        ask(json!({ "puzzle": "tatamibari", "text": example_of("tatamibari"), "mode": "prove" }));
    assert_eq!(v["verdict"], "unique", "{v}");
    assert_eq!(v["unique"], true);
    let (v, reports) = ask(
        json!({ "puzzle": "target-sudoku", "text": example_of("target-sudoku"), "mode": "prove" }),
    );
    assert_eq!(v["verdict"], "optimal (proved)", "{v}");
    // Each improvement was reported with its answer and the words it would earn if stopped
    // (a run this short draws none of them).
    let found: Vec<&Value> = reports.iter().filter(|r| r["kind"] == "found").collect();
    assert!(!found.is_empty());
    for r in &found {
        assert_eq!(r["if_stopped"], "best found (stopped: not proved optimal)");
        assert!(r["answer"]["machine"].as_str().unwrap().len() >= 81, "{r}");
        assert!(r.get("svg").is_none());
    }
    for mode in ["unique", "count"] {
        let (v, _) =
            ask(json!({ "puzzle": "kakkuro", "text": example_of("kakkuro"), "mode": mode }));
        assert_eq!(v["ok"], false, "{mode}: {v}");
    }
}

#[test]
fn bad_requests_are_messages_not_panics() {
    let cases = [
        json!({ "mode": "solve", "text": "" }),
        json!({ "mode": "solve", "text": "1 2 3" }),
        json!({ "mode": "fly", "puzzle": "sudoku", "text": "x" }),
        json!({ "mode": "solve", "puzzle": "nonesuch", "text": "x" }),
        json!({ "mode": "count", "puzzle": "sudoku", "text": example_of("sudoku"), "limit": -1 }),
        json!({ "mode": "solve", "url": "https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3!" }),
        json!({ "mode": "solve", "url": "https://puzz.link/p?yajilin/5/5/abc" }),
        json!({ "mode": "solve", "puzzle": "kakkuro", "url": "https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3g" }),
        json!({ "mode": "hints", "puzzle": "kakkuro", "text": example_of("kakkuro") }),
        json!({ "mode": "check", "puzzle": "tatamibari", "text": example_of("tatamibari"), "answer": "" }),
        json!({ "mode": "generate", "puzzle": "kakkuro" }),
        json!({ "mode": "generate", "puzzle": "sudoku", "rows": 9, "cols": 7 }),
        json!({ "mode": "generate", "puzzle": "tatamibari", "rows": 1, "cols": 5 }),
        json!({ "mode": "generate", "puzzle": "tatamibari", "rows": 5, "cols": 100000 }),
        json!({ "mode": "generate", "puzzle": "tatamibari", "rows": 5, "cols": 5, "seed": 1.5 }),
        json!({ "mode": "solve", "puzzle": "tatamibari", "text": "puzzle-sat: shikaku\n+\n" }),
        // Each field has one type; no silent defaults.
        json!({ "mode": 5, "puzzle": "sudoku", "text": example_of("sudoku") }),
        json!({ "mode": "solve", "puzzle": "sudoku", "text": 5 }),
        json!({ "mode": "count", "puzzle": "sudoku", "text": example_of("sudoku"), "limit": 0 }),
        json!({ "mode": "count", "puzzle": "sudoku", "text": example_of("sudoku"), "limit": "0" }),
        json!({ "mode": "count", "puzzle": "sudoku", "text": example_of("sudoku"), "limit": "1e3" }),
        json!({ "mode": "draw", "puzzle": "sudoku", "text": example_of("sudoku"), "answers": "x" }),
        json!({ "mode": "draw", "puzzle": "sudoku", "text": example_of("sudoku"), "answers": [1] }),
        json!({ "mode": "generate", "puzzle": "tatamibari", "rows": 5, "cols": 5, "unique": "yes" }),
        json!({ "mode": "generate", "puzzle": "tatamibari", "rows": 5, "cols": 5, "seed": "" }),
        json!({ "mode": "generate", "puzzle": "tatamibari", "rows": 5, "cols": 5, "seed": "18446744073709551616" }),
        json!({ "mode": "generate", "puzzle": "tatamibari", "rows": 5, "cols": 5, "seed": "-1" }),
        json!([1, 2]),
        json!({ "mode": "count", "puzzle": "sudoku", "text": example_of("sudoku"), "limits": 0 }),
        json!({ "mode": "draw", "puzzle": "sudoku", "text": example_of("sudoku"), "answers": ["a", "b", 5] }),
    ];
    for c in cases {
        let (v, _) = ask(c.clone());
        assert_eq!(v["ok"], false, "{c} → {v}");
        assert!(!v["error"].as_str().unwrap().is_empty());
    }
    let (v, _) = ask(json!({ "mode": "solve", "puzzle": "kakkuro", "text": "3 3\nxx\n" }));
    assert!(v["error"].as_str().unwrap().starts_with("puzzle:"), "{v}");
    let (v, _) = ask(
        json!({ "mode": "solve", "url": "https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3!" }),
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3!:1:"),
        "{v}"
    );
}

#[test]
fn a_sudoku_url_is_a_plain_sudoku_unless_target_sudoku_is_chosen() {
    let (v, _) = ask(json!({ "puzzle": "sudoku", "text": example_of("sudoku"), "mode": "show" }));
    let url = v["url"].as_str().unwrap().to_string();
    let (v, _) = ask(json!({ "url": url, "mode": "prove" }));
    assert_eq!(
        (v["puzzle"].as_str(), v["verdict"].as_str()),
        (Some("sudoku"), Some("unique")),
        "{v}"
    );
    let (v, _) = ask(json!({ "puzzle": "target-sudoku", "url": url, "mode": "prove" }));
    assert_eq!(
        (v["puzzle"].as_str(), v["verdict"].as_str()),
        (Some("target-sudoku"), Some("optimal (proved)")),
        "{v}"
    );
}

/// After Stop the page has answers in the machine format (`answers[].machine`, as
/// `--format line|rects` prints them): every genre reads that back whole, so `draw` shows them.
#[test]
fn draw_reads_every_genre_s_printed_answer() {
    for g in catalogue().as_array().unwrap() {
        let (name, text) = (g["name"].as_str().unwrap(), g["example"].as_str().unwrap());
        let (v, _) = ask(json!({ "puzzle": name, "text": text, "mode": "solve" }));
        let printed = v["answers"][0]["machine"].as_str().unwrap().to_string();
        let (d, _) = ask(
            json!({ "puzzle": name, "text": text, "mode": "draw", "answers": [printed], "caption": "best found (stopped: not proved optimal)" }),
        );
        assert_eq!(d["drawn"], 1, "{name}: {d}");
        assert!(
            d["svg"].as_str().unwrap().contains("stopped"),
            "{name}: the caption"
        );
    }
}

#[test]
fn draw_shows_only_answers_the_validator_accepts() {
    let text = example_of("tatamibari");
    let (v, _) = ask(json!({ "puzzle": "tatamibari", "text": text, "mode": "solve" }));
    let machine = v["answers"][0]["machine"].as_str().unwrap().to_string();
    let (d, _) = ask(
        json!({ "puzzle": "tatamibari", "text": text, "mode": "draw", "answers": [machine], "caption": "x" }),
    );
    assert_eq!(d["drawn"], 1, "{d}");
    // One rectangle's label changed: no longer a valid tiling, so not drawn.
    let broken: String = machine.replacen(|c: char| c.is_ascii_alphanumeric(), "Z", 1);
    let (d, _) = ask(
        json!({ "puzzle": "tatamibari", "text": text, "mode": "draw", "answers": [broken], "caption": "x" }),
    );
    assert_eq!(d["drawn"], 0, "{d}");
}

#[test]
fn generate_makes_what_the_cli_makes_and_checks_it() {
    let (v, _) = ask(
        json!({ "puzzle": "tatamibari", "mode": "generate", "rows": 6, "cols": 7, "seed": 5, "unique": true }),
    );
    assert_eq!(v["verdict"], "tatamibari 6×7, seed 5, unique", "{v}");
    let url = v["url"].as_str().unwrap().to_string();
    assert!(
        url.starts_with("https://puzz.link/p?tatamibari/7/6/"),
        "{url}"
    );
    let (again, _) = ask(json!({ "url": url, "mode": "prove" }));
    assert_eq!(again["verdict"], "unique");
    assert_eq!(again["answers"][0]["machine"], v["answers"][0]["machine"]);
}

/// A sudoku is 9×9 without rows and columns, and unique unasked.
#[test]
fn a_generated_sudoku_is_nine_by_nine_and_unique() {
    let (v, _) = ask(json!({ "puzzle": "sudoku", "mode": "generate", "seed": 4, "unique": false }));
    assert_eq!(v["verdict"], "sudoku 9×9, seed 4, unique", "{v}");
    let (again, _) = ask(json!({ "puzzle": "sudoku", "text": v["text"], "mode": "prove" }));
    assert_eq!(again["verdict"], "unique", "{again}");
}

/// The page sends the boxes' text: a seed past 2^53 is the seed typed, not a rounded one.
#[test]
fn numbers_as_text_are_read_exactly() {
    for seed in ["9007199254740993", "18446744073709551615"] {
        let (v, _) = ask(
            json!({ "puzzle": "tatamibari", "mode": "generate", "rows": "5", "cols": "6", "seed": seed, "unique": false }),
        );
        assert_eq!(v["verdict"], format!("tatamibari 5×6, seed {seed}"), "{v}");
    }
    let (v, _) = ask(
        json!({ "puzzle": "sudoku", "mode": "count", "text": "....\n....\n....\n....\n", "limit": "7" }),
    );
    assert_eq!(v["verdict"], "more than 7 solutions (stopped at 8)", "{v}");
}

/// A stopped completion says nothing about the pasted answer: its reports carry no answer.
#[test]
fn a_check_s_completion_reports_no_verdict_on_the_answer() {
    let text = example_of("kakkuro");
    let (v, _) = ask(json!({ "puzzle": "kakkuro", "text": text, "mode": "solve" }));
    // The bare contest string (no sides): check completes it with the solver.
    let line = v["answers"][0]["machine"].as_str().unwrap().trim();
    let (score, cells) = line.split_once(':').unwrap();
    let bare = format!(
        "{score}:{}",
        cells
            .split(',')
            .map(|c| c.split(':').next().unwrap())
            .collect::<Vec<_>>()
            .join(",")
    );
    let (c, reports) =
        ask(json!({ "puzzle": "kakkuro", "text": text, "mode": "check", "answer": bare }));
    assert_eq!(c["completed"], true, "{c}");
    let found: Vec<&Value> = reports.iter().filter(|r| r["kind"] == "found").collect();
    assert!(!found.is_empty());
    for r in found {
        assert_eq!(r["if_stopped"], "stopped: the answer was not checked");
        assert!(r.get("answer").is_none() && r.get("svg").is_none(), "{r}");
    }
}

#[test]
fn check_reads_what_solve_prints_and_refuses_a_wrong_claim() {
    let text = example_of("kakkuro");
    let (v, _) = ask(json!({ "puzzle": "kakkuro", "text": text, "mode": "solve" }));
    let drawn = v["answers"][0]["text"].as_str().unwrap().to_string();
    let (c, _) =
        ask(json!({ "puzzle": "kakkuro", "text": text, "mode": "check", "answer": drawn }));
    assert_eq!(
        (c["valid"].as_bool(), c["status"].as_str()),
        (Some(true), Some("valid")),
        "{c}"
    );
    let score = v["answers"][0]["score"].as_str().unwrap().to_string();
    let lying = drawn.replace(&score, &format!("{score}1"));
    assert_ne!(lying, drawn);
    let (c, _) =
        ask(json!({ "puzzle": "kakkuro", "text": text, "mode": "check", "answer": lying }));
    assert_eq!(
        (c["valid"].as_bool(), c["status"].as_str()),
        (Some(false), Some("wrong_claim")),
        "{c}"
    );
}

#[test]
fn a_picture_too_large_for_the_page_goes_as_a_note() {
    // A JavaScript string holds about 2^29 characters: a larger answer could not be read at
    // all, so the picture is left out (and says so) rather than the verdict with it.
    assert_eq!(picture("<svg/>".to_string()), json!("<svg/>"));
    let note = picture("x".repeat(MAX_PICTURE + 1));
    let note = note.as_str().unwrap();
    assert!(note.starts_with("<?xml") && note.len() < 10_000, "{note}");
    assert!(
        note.contains("the picture would be 256 MB,") && note.contains("large to show in the page"),
        "{note}"
    );
}

/// The Next step button: the first step's rules and deductions, drawn, and every deduction
/// true of the solution; the answer itself is never reported (a hint must not give it away).
#[test]
fn next_step_says_why_without_giving_the_solution_away() {
    let (v, reports) =
        ask(json!({ "mode": "next", "puzzle": "sudoku", "text": example_of("sudoku") }));
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["unique"], true);
    assert!(v.get("answers").is_none() && reports.iter().all(|r| r.get("answer").is_none()));
    let step = &v["step"];
    assert!(!step["rules"].as_array().unwrap().is_empty(), "{v}");
    assert!(v["verdict"].as_str().unwrap().starts_with("next step: "));
    assert!(v["svg"].as_str().unwrap().contains("class=\"deduced\""));
    // Every deduction against the solution, read from the page's own solve.
    let (solved, _) =
        ask(json!({ "mode": "solve", "puzzle": "sudoku", "text": example_of("sudoku") }));
    let grid: Vec<Vec<char>> = solved["answers"][0]["text"]
        .as_str()
        .unwrap()
        .lines()
        .map(|l| l.chars().filter(char::is_ascii_digit).collect())
        .filter(|r: &Vec<char>| !r.is_empty())
        .collect();
    for d in step["deduces"].as_array().unwrap() {
        // "(r,c) is d" or "(r,c) is not d"
        let d = d.as_str().unwrap();
        let (cell, rest) = d.split_once(") is ").unwrap();
        let (r, c) = cell.trim_start_matches('(').split_once(',').unwrap();
        let digit = grid[r.parse::<usize>().unwrap() - 1][c.parse::<usize>().unwrap() - 1];
        match rest.strip_prefix("not ") {
            Some(not) => assert_ne!(not.chars().next().unwrap(), digit, "{d}"),
            None => assert_eq!(rest.chars().next().unwrap(), digit, "{d}"),
        }
    }
    // A scoring genre has no explanations (every genre of one answer has).
    let (none, _) = ask(
        json!({ "mode": "next", "puzzle": "target-sudoku", "text": example_of("target-sudoku") }),
    );
    assert_eq!(none["ok"], false);
    assert!(none["error"]
        .as_str()
        .unwrap()
        .contains("no explanations for target-sudoku"));
    let list = catalogue();
    let modes = |name: &str| -> Vec<Value> {
        list.as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap()["modes"]
            .as_array()
            .unwrap()
            .clone()
    };
    assert!(modes("hitori").contains(&json!("next")));
    assert!(!modes("target-sudoku").contains(&json!("next")));
    assert!(!modes("kakkuro").contains(&json!("next")));
    for name in ["kakuro", "nurikabe", "lits", "slitherlink", "masyu"] {
        assert!(modes(name).contains(&json!("next")), "{name}");
    }
}
