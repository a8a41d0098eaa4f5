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
    let names: Vec<&str> = c.as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["sudoku", "target-sudoku", "tatamibari", "kakkuro", "shikaku", "kakuro"]);
    for e in c.as_array().unwrap() {
        assert!(!e["example"].as_str().unwrap().is_empty(), "{e}");
    }
}
