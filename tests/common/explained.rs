//! Shared by the explain tests (tests/explain*.rs): `explain --format json` run on a board of
//! the test's own, and each step it prints read back and checked against the test's brute
//! force.

use super::{run, Run};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `explain PUZZLE FILE --format json --solver BACKEND` on `text`, written to a file of
/// its own (tests run in parallel threads), removed after.
pub fn explain_json(puzzle: &str, text: &str, backend: &str) -> Run {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("explain-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!(
        "{puzzle}-{}.txt",
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::write(&file, text).unwrap();
    let out = run(
        &[
            "explain",
            puzzle,
            file.to_str().unwrap(),
            "--format",
            "json",
            "--solver",
            backend,
        ],
        None,
    );
    let _ = std::fs::remove_file(&file);
    out
}

/// The JSON `explain` printed for the board `text`.
pub fn json_of(out: &Run, text: &str) -> Value {
    serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {text}{}{}", out.stdout, out.stderr))
}

/// `explain` says the board `text` is unique (exit 0) exactly when the brute force does (else
/// exit 1).
pub fn says_unique(out: &Run, json: &Value, unique: bool, text: &str) {
    assert_eq!(json["unique"], Value::Bool(unique), "{text}{}", out.stdout);
    assert_eq!(out.code, if unique { 0 } else { 1 }, "{text}{}", out.stderr);
}

/// What the steps' check asks of a test's own brute force: a rule and a fact read back from
/// what `explain` calls them, and whether some answer keeps some rules with some facts.
pub trait Brute {
    type Var: Copy + Eq + Hash + Debug;
    type Rule: Clone;
    fn rule(&self, name: &str) -> Self::Rule;
    fn fact(&self, said: &str) -> (Self::Var, bool);
    fn satisfiable(&self, rules: &[Self::Rule], fixed: &HashMap<Self::Var, bool>) -> bool;
}

/// Checks each step of `json` (the board `text`), from the facts `known` at the start: a step
/// deduces something; each fact it uses is known; each fact it deduces is in `backbone` (what
/// every solution shares), not known yet, and forced by its rules and the facts it uses alone;
/// a step that says it is minimal (of several rules) needs each of them, with every fact known
/// before it. Returns the facts known after the steps, and the steps counted by way.
pub fn check_steps<B: Brute>(
    brute: &B,
    text: &str,
    json: &Value,
    mut known: HashMap<B::Var, bool>,
    backbone: &HashMap<B::Var, bool>,
) -> (HashMap<B::Var, bool>, HashMap<String, usize>) {
    let mut ways: HashMap<String, usize> = HashMap::new();
    for (k, step) in json["steps"].as_array().unwrap().iter().enumerate() {
        *ways
            .entry(step["way"].as_str().unwrap().to_string())
            .or_default() += 1;
        let context = || format!("{text}step {}: {step}", k + 1);
        let rules: Vec<B::Rule> = step["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| brute.rule(r.as_str().unwrap()))
            .collect();
        let mut uses = HashMap::new();
        for f in step["uses"].as_array().unwrap() {
            let (v, holds) = brute.fact(f.as_str().unwrap());
            assert_eq!(
                known.get(&v),
                Some(&holds),
                "unknown fact used: {}",
                context()
            );
            uses.insert(v, holds);
        }
        let deduces: Vec<(B::Var, bool)> = step["deduces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| brute.fact(f.as_str().unwrap()))
            .collect();
        assert!(!deduces.is_empty(), "{}", context());
        for &(v, holds) in &deduces {
            assert_eq!(
                backbone.get(&v),
                Some(&holds),
                "not in every solution: {}",
                context()
            );
            assert!(!known.contains_key(&v), "deduced twice: {}", context());
            let mut opposite = uses.clone();
            opposite.insert(v, !holds);
            assert!(
                !brute.satisfiable(&rules, &opposite),
                "not forced: {}",
                context()
            );
        }
        // A step says whether its minimality was proved; where it was, check it.
        if rules.len() > 1 && step["minimal"] == Value::Bool(true) {
            let (v, holds) = deduces[0];
            for skip in 0..rules.len() {
                let fewer: Vec<B::Rule> = rules
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != skip)
                    .map(|(_, r)| r.clone())
                    .collect();
                let mut opposite = known.clone();
                opposite.insert(v, !holds);
                assert!(
                    brute.satisfiable(&fewer, &opposite),
                    "rule {skip} is not needed: {}",
                    context()
                );
            }
        }
        known.extend(deduces);
    }
    (known, ways)
}
