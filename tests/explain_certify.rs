//! `explain --certify`: each step's formula says what the step claims (its rules, the facts it
//! uses, its deductions denied) and has no model; `verify` and the stock DRAT checker `rate`
//! accept the proofs, and tampering with a step, a proof or the end is caught with its reason.

mod common;

use common::run;
use encodings::cnf::{Cnf, Lit};
use encodings::solver::{NewSolver, SolveResult, Stop};
use serde_json::Value;
use std::fs;
use std::path::Path;

fn root(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(p)
        .to_str()
        .unwrap()
        .to_string()
}

/// `explain ARGS --certify DIR` with `solver`: the certificate's claim.json.
fn certify(args: &[&str], dir: &Path, solver: &str) -> Value {
    let _ = fs::remove_dir_all(dir);
    let mut all: Vec<&str> = vec!["explain"];
    all.extend(args);
    all.extend(["--certify", dir.to_str().unwrap(), "--solver", solver]);
    let r = run(&all, None);
    assert!(r.code <= 1, "{all:?}: {}", r.stderr);
    serde_json::from_str(&fs::read_to_string(dir.join("claim.json")).unwrap()).unwrap()
}

/// A DIMACS file's clauses and the rule names in its comments.
fn read_dimacs(text: &str) -> (Cnf, Vec<String>) {
    let mut cnf = Cnf::new();
    let mut rules = Vec::new();
    for line in text.lines() {
        if let Some(rule) = line.strip_prefix("c rule: ") {
            rules.push(rule.to_string());
        } else if let Some(header) = line.strip_prefix("p cnf ") {
            cnf.num_vars = header.split(' ').next().unwrap().parse().unwrap();
        } else if !line.starts_with('c') {
            let lits: Vec<i32> = line.split(' ').map(|w| w.parse().unwrap()).collect();
            assert_eq!(lits.last(), Some(&0), "{line}");
            cnf.clauses.push(
                lits[..lits.len() - 1]
                    .iter()
                    .map(|&n| Lit::from_dimacs(n).unwrap())
                    .collect(),
            );
        }
    }
    (cnf, rules)
}

fn ints(v: &Value) -> Vec<i32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap() as i32)
        .collect()
}

/// Each step's formula, read back: the rules claim.json names, the facts it uses as units, the
/// clause denying its deductions, and no model (a solver of each backend, not the step search).
#[test]
fn each_step_formula_states_its_step_and_has_no_model() {
    let dir = std::env::temp_dir().join(format!("ps-explain-cert-{}", std::process::id()));
    for (genre, file) in [
        ("sudoku", "docs/examples/sudoku.txt"),
        ("hitori", "docs/examples/hitori.txt"),
        ("shikaku", "docs/examples/shikaku.txt"),
        ("tatamibari", "docs/examples/tatamibari.txt"),
        ("nurikabe", "docs/examples/nurikabe.txt"),
        ("slitherlink", "docs/examples/slitherlink.txt"),
        ("masyu", "docs/examples/masyu.txt"),
    ] {
        let claim = certify(&[genre, &root(file)], &dir, "varisat");
        assert_eq!(claim["claim"], "explanation");
        assert!(claim["solution"].is_string(), "{genre}: unique, so solved");
        let steps = claim["steps"].as_array().unwrap();
        let printed = run(&["explain", genre, &root(file), "--format", "json"], None);
        let printed: Value = serde_json::from_str(&printed.stdout).unwrap();
        assert!(!steps.is_empty());
        assert!(steps.len() <= printed["steps"].as_array().unwrap().len() * 2);
        for (k, step) in steps.iter().enumerate() {
            let text = fs::read_to_string(dir.join(format!("step-{}.cnf", k + 1))).unwrap();
            let (cnf, rules) = read_dimacs(&text);
            let named: Vec<String> = step["rules"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r[1].as_str().unwrap().to_string())
                .collect();
            assert_eq!(rules, named, "{genre} step {}", k + 1);
            let deduces = ints(&step["deduces"]);
            let denied: Vec<i32> = deduces.iter().map(|d| -d).collect();
            let last: Vec<i32> = cnf
                .clauses
                .last()
                .unwrap()
                .iter()
                .map(|l| l.dimacs())
                .collect();
            assert_eq!(last, denied, "{genre} step {}", k + 1);
            let units: Vec<i32> = cnf
                .clauses
                .iter()
                .filter(|c| c.len() == 1)
                .map(|c| c[0].dimacs())
                .collect();
            for u in ints(&step["uses"]) {
                assert!(units.contains(&u), "{genre} step {}: uses {u}", k + 1);
            }
            for backend in common::backends() {
                let mut solver = backend.solvers(Stop::new()).new_solver();
                for _ in 0..cnf.num_vars {
                    solver.new_var();
                }
                cnf.clauses.iter().for_each(|c| solver.add_clause(c));
                assert_eq!(
                    solver.solve().unwrap(),
                    SolveResult::Unsat,
                    "{genre} step {} on {}",
                    k + 1,
                    backend.name()
                );
            }
        }
        assert!(!dir.join(format!("step-{}.cnf", steps.len() + 1)).exists());
    }
    let _ = fs::remove_dir_all(&dir);
}

/// What cannot be certified is refused before any work, and nothing is written.
#[test]
fn what_cannot_be_certified_says_why() {
    let dir = std::env::temp_dir().join(format!("ps-explain-refuse-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("other"), "x").unwrap();
    let sudoku = root("docs/examples/sudoku.txt");
    let r = run(
        &[
            "explain",
            "sudoku",
            &sudoku,
            "--certify",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("empty or new folder"), "{}", r.stderr);
    fs::remove_dir_all(&dir).unwrap();
    let r = run(
        &[
            "explain",
            "sudoku",
            &sudoku,
            "--certify",
            dir.to_str().unwrap(),
            "--solver-cmd",
            "true",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("writes proofs"), "{}", r.stderr);
    assert!(!dir.exists());
    // No solution: nothing to explain, no certificate.
    let clash = dir.with_extension("txt");
    fs::write(
        &clash,
        "1 1 . .\n. . . .\n. . . .\n. . . .\n".replace(' ', ""),
    )
    .unwrap();
    let r = run(
        &[
            "explain",
            "sudoku",
            clash.to_str().unwrap(),
            "--certify",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("no certificate"), "{}", r.stderr);
    assert!(!dir.join("claim.json").exists());
    let _ = fs::remove_dir_all(&dir);
    let _ = fs::remove_file(&clash);
}

#[cfg(feature = "outside-tools")]
mod checked {
    use super::*;
    use encodings::capability::Explain;
    use encodings::genres::hitori::Hitori;
    use encodings::puzzle::{Puzzle, Settings};
    use puzzle_sat::certify::explained::step_text;

    fn verify(dir: &Path) -> common::Run {
        run(&["verify", dir.to_str().unwrap()], None)
    }

    fn rejected(dir: &Path, reason: &str) {
        let v = verify(dir);
        assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
        assert!(
            v.stdout.starts_with("NOT VERIFIED: ") && v.stdout.contains(reason),
            "expected {reason:?}: {}",
            v.stdout
        );
    }

    fn edit(dir: &Path, change: impl FnOnce(&mut Value)) {
        let path = dir.join("claim.json");
        let mut v: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        change(&mut v);
        fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    }

    /// Every genre that explains, on every prover: `verify` says the steps decide the unique
    /// solution, and `rate` accepts each step's pair on its own.
    #[test]
    fn explanations_are_certified_and_verified_on_every_prover() {
        common::require("rate");
        let dir = std::env::temp_dir().join(format!("ps-explain-ok-{}", std::process::id()));
        let inkala = std::env::temp_dir().join(format!("ps-inkala-{}.txt", std::process::id()));
        fs::write(
            &inkala,
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n",
        )
        .unwrap();
        let cases = [
            ("sudoku", root("docs/examples/sudoku.txt")),
            ("sudoku", inkala.to_str().unwrap().to_string()),
            ("hitori", root("docs/examples/hitori.txt")),
            ("heyawake", root("docs/examples/heyawake.txt")),
            ("shikaku", root("docs/examples/shikaku.txt")),
            ("tatamibari", root("docs/examples/tatamibari.txt")),
            ("nurikabe", root("docs/examples/nurikabe.txt")),
            ("kakuro", root("docs/examples/kakuro.txt")),
            ("lits", root("docs/examples/lits.txt")),
            ("slitherlink", root("docs/examples/slitherlink.txt")),
            ("masyu", root("docs/examples/masyu.txt")),
        ];
        for prover in common::provers() {
            for (genre, file) in &cases {
                let claim = certify(&[genre, file], &dir, prover);
                let v = verify(&dir);
                assert_eq!(v.code, 0, "{genre} {file} {prover}: {}", v.stdout);
                assert!(
                    v.stdout.starts_with("VERIFIED: ")
                        && v.stdout.contains(&format!("{genre} explained in"))
                        && v.stdout.contains("so the solution is unique"),
                    "{}",
                    v.stdout
                );
                let steps = claim["steps"].as_array().unwrap().len();
                // rate alone, on a few steps (each a process).
                for k in [1, steps / 2, steps] {
                    let out = std::process::Command::new("rate")
                        .arg(dir.join(format!("step-{k}.cnf")))
                        .arg(dir.join(format!("step-{k}.drat")))
                        .output()
                        .unwrap();
                    let said = String::from_utf8_lossy(&out.stdout);
                    assert!(
                        out.status.success() && said.lines().any(|l| l == "s VERIFIED"),
                        "{genre} {prover} step {k}: {said}"
                    );
                }
            }
        }
        let _ = fs::remove_dir_all(&dir);
        let _ = fs::remove_file(&inkala);
    }

    /// The first steps only: each proved, and the verdict says they do not decide everything.
    #[test]
    fn the_first_steps_are_verified_as_far_as_they_go() {
        common::require("rate");
        let dir = std::env::temp_dir().join(format!("ps-explain-part-{}", std::process::id()));
        let claim = certify(
            &["sudoku", &root("docs/examples/sudoku.txt"), "--steps", "3"],
            &dir,
            "varisat",
        );
        assert_eq!(claim["steps"].as_array().unwrap().len(), 3);
        assert!(claim["solution"].is_null());
        let v = verify(&dir);
        assert_eq!(v.code, 0, "{}", v.stdout);
        assert!(
            v.stdout.contains("3 steps, each proved")
                && v.stdout.contains("not the whole solution"),
            "{}",
            v.stdout
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// Each way of tampering is caught, with its reason.
    #[test]
    fn tampering_is_caught_with_its_reason() {
        common::require("rate");
        let dir = std::env::temp_dir().join(format!("ps-explain-bad-{}", std::process::id()));
        let hitori = root("docs/examples/hitori.txt");
        let fresh = || certify(&["hitori", &hitori], &dir, "varisat");
        let claim = fresh();
        let steps = claim["steps"].as_array().unwrap().clone();
        let several = steps
            .iter()
            .position(|s| s["rules"].as_array().unwrap().len() > 1)
            .expect("a step of several rules");
        // A rule dropped from a step: its formula is no longer the one written.
        edit(&dir, |v| {
            v["steps"][several]["rules"].as_array_mut().unwrap().pop();
        });
        rejected(
            &dir,
            &format!(
                "step-{}.cnf is not step {}'s formula",
                several + 1,
                several + 1
            ),
        );
        // A rule renamed.
        fresh();
        edit(&dir, |v| {
            v["steps"][0]["rules"][0][1] = "every cell is shaded".into()
        });
        rejected(&dir, "step 1: rule");
        // A deduction negated: the formula written is not its formula.
        fresh();
        edit(&dir, |v| {
            let d = v["steps"][0]["deduces"][0].as_i64().unwrap();
            v["steps"][0]["deduces"][0] = (-d).into();
        });
        rejected(&dir, "step-1.cnf is not step 1's formula");
        // A step that uses a fact established only later.
        fresh();
        let later = (1..steps.len())
            .find(|&k| {
                let before: Vec<i32> = steps[..k]
                    .iter()
                    .flat_map(|s| ints(&s["deduces"]))
                    .collect();
                ints(&steps[k]["uses"]).iter().any(|u| before.contains(u))
            })
            .expect("a step using an earlier one");
        edit(&dir, |v| {
            let s = v["steps"].as_array_mut().unwrap();
            s.swap(0, later);
        });
        rejected(&dir, "which is not established before it");
        // Another step's proof.
        fresh();
        fs::copy(dir.join("step-2.drat"), dir.join("step-1.drat")).unwrap();
        rejected(&dir, "step 1: the DRAT checker rejects the proof");
        // A false deduction added to step 1, its formula written as verify rebuilds it: only
        // the proof check stands in the way, and no proof refutes a formula with a model.
        fresh();
        let inst =
            Hitori::parse(&fs::read_to_string(&hitori).unwrap(), &Settings::default()).unwrap();
        let named = Hitori::named(&inst);
        let lits = |s: &Value, key: &str| -> Vec<Lit> {
            ints(&s[key])
                .into_iter()
                .map(|n| Lit::from_dimacs(n).unwrap())
                .collect()
        };
        let rules: Vec<usize> = steps[0]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[0].as_u64().unwrap() as usize)
            .collect();
        let false_fact = !lits(&steps[1], "deduces")[0];
        let mut deduces = lits(&steps[0], "deduces");
        deduces.push(false_fact);
        let forged = step_text(&named, 0, &rules, &lits(&steps[0], "uses"), &deduces);
        fs::write(dir.join("step-1.cnf"), forged).unwrap();
        edit(&dir, |v| {
            v["steps"][0]["deduces"]
                .as_array_mut()
                .unwrap()
                .push(false_fact.dimacs().into())
        });
        rejected(&dir, "step 1: the DRAT checker rejects the proof");
        // The last step dropped, the solution kept.
        fresh();
        edit(&dir, |v| {
            v["steps"].as_array_mut().unwrap().pop();
        });
        rejected(&dir, "not a solution");
        // The solution changed: one shaded cell moved is another answer.
        fresh();
        edit(&dir, |v| {
            let s = v["solution"].as_str().unwrap();
            let flipped: String = match s.find('#') {
                Some(i) => format!("{}.{}", &s[..i], &s[i + 1..]),
                None => panic!("a shaded cell in {s}"),
            };
            v["solution"] = flipped.into();
        });
        rejected(&dir, "the solution");
        // An unknown field says something unchecked, in the claim or in a step.
        fresh();
        edit(&dir, |v| v["minimal"] = true.into());
        rejected(&dir, "unknown field \"minimal\"");
        fresh();
        edit(&dir, |v| v["steps"][2]["way"] = "single".into());
        rejected(&dir, "step 3: an unknown field \"way\"");
        let _ = fs::remove_dir_all(&dir);
    }
}
