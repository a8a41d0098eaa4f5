//! Certificates: `--certify` writes them on every backend that proves, `verify` and the stock
//! DRAT checker `rate` accept them, and every kind of tampering is caught with its reason.

mod common;

use common::{data_dir, run};
use serde_json::Value;
use std::fs;
use std::path::Path;

fn root(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p).to_str().unwrap().to_string()
}

/// The backends of this build that write proofs.
fn provers() -> Vec<&'static str> {
    let mut list = vec!["varisat"];
    if cfg!(feature = "cadical") {
        list.push("cadical");
    }
    list
}

/// `solve ARGS --certify DIR`, then `verify DIR` and `rate` directly on the pair.
fn certified(args: &[&str], dir: &Path, solver: &str) -> Value {
    let mut all: Vec<&str> = args.to_vec();
    let d = dir.to_str().unwrap();
    all.extend(["--certify", d, "--solver", solver, "-q"]);
    let r = run(&all, None);
    assert!(r.code <= 1, "{all:?}: {}", r.stderr);
    assert!(r.stderr.contains("certificate of the claim"), "{all:?}: {}", r.stderr);
    let v = run(&["verify", d], None);
    assert_eq!((v.code, v.stdout.starts_with("VERIFIED: ")), (0, true), "{all:?}: {}{}", v.stdout, v.stderr);
    let rate = std::process::Command::new("rate").arg(dir.join("final.cnf")).arg(dir.join("final.drat")).output().expect("rate is installed (cargo install --locked rate)");
    let said = String::from_utf8_lossy(&rate.stdout);
    assert!(rate.status.success() && said.lines().any(|l| l == "s VERIFIED"), "{all:?}: rate says {said}");
    serde_json::from_str(&fs::read_to_string(dir.join("claim.json")).unwrap()).unwrap()
}

#[test]
fn every_kind_of_claim_is_certified_and_verified_on_every_prover() {
    let sudoku = data_dir("target-sudoku");
    let tatamibari = data_dir("tatamibari");
    let kakkuro = data_dir("kakkuro");
    let empty = data_dir("target-sudoku-low").join("empty.in");
    let cases: Vec<(Vec<String>, &str, Option<&str>)> = vec![
        (vec!["solve".into(), "target-sudoku".into(), sudoku.join("sample-1.in").to_str().unwrap().into()], "optimal", Some("2829")),
        (vec!["solve".into(), "target-sudoku".into(), empty.to_str().unwrap().into()], "optimal", Some("2906")),
        (vec!["solve".into(), "target-sudoku".into(), sudoku.join("noip2009-01.in").to_str().unwrap().into()], "no_solution", None),
        (vec!["solve".into(), "tatamibari".into(), tatamibari.join("codegolf-10x10.txt").to_str().unwrap().into(), "--unique".into()], "unique", None),
        (vec!["solve".into(), "tatamibari".into(), tatamibari.join("codegolf-5x5.txt").to_str().unwrap().into(), "--count".into()], "count", None),
        (vec!["solve".into(), "tatamibari".into(), tatamibari.join("gadgets/clause-000.txt").to_str().unwrap().into()], "no_solution", None),
        (vec!["solve".into(), "kakkuro".into(), root("docs/examples/kakkuro.txt")], "optimal", Some("427680")),
        (vec!["solve".into(), "kakkuro".into(), kakkuro.join("bench-12x12-seed2.txt").to_str().unwrap().into()], "optimal", Some("188103928320")),
    ];
    for solver in provers() {
        for (args, claim, score) in &cases {
            let dir = tempfile::tempdir().unwrap();
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let c = certified(&args, dir.path(), solver);
            assert_eq!(c["claim"], *claim, "{args:?}");
            assert_eq!(c["score"].as_str(), *score, "{args:?}");
            assert_eq!(c["backend"], solver);
        }
    }
    // An unsolvable Kakkuro board: a red dot with no room for any run.
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("none.txt");
    fs::write(&board, "@ #\n# #\n").unwrap();
    let c = certified(&["solve", "kakkuro", board.to_str().unwrap()], &dir.path().join("cert"), "varisat");
    assert_eq!(c["claim"], "no_solution");
}

#[test]
fn a_bare_contest_string_check_is_certified() {
    let dir = tempfile::tempdir().unwrap();
    let example = root("docs/examples/kakkuro.txt");
    let answer = dir.path().join("answer.txt");
    fs::write(&answer, "103488:1,1,8,7,23,24,6,7,2,9,7,7,1,4,2,3,3,5,1,4,9,4,5,8,8\n").unwrap();
    let cert = dir.path().join("cert");
    let r = run(&["check", "kakkuro", &example, "--answer", answer.to_str().unwrap(), "--certify", cert.to_str().unwrap()], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = run(&["verify", cert.to_str().unwrap()], None);
    assert_eq!(v.stdout, "VERIFIED: kakkuro optimum 103488 among the answers with the fixed answer's numbers\n", "{}", v.stderr);
    // A complete answer needs no solver, and so no certificate.
    let line = run(&["solve", "kakkuro", &example, "--format", "line"], None);
    fs::write(&answer, &line.stdout).unwrap();
    let r = run(&["check", "kakkuro", &example, "--answer", answer.to_str().unwrap(), "--certify", cert.to_str().unwrap()], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("its own certificate"), "{}", r.stderr);
}

/// A fresh certificate in `dir`, for tampering.
fn fresh(args: &[&str], dir: &Path) {
    certified(args, dir, "varisat");
}

fn edit_claim(dir: &Path, change: impl FnOnce(&mut Value)) {
    let path = dir.join("claim.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut v);
    fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

fn rejected(dir: &Path, reason: &str) {
    let v = run(&["verify", dir.to_str().unwrap()], None);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.starts_with("NOT VERIFIED: ") && v.stdout.contains(reason), "expected {reason:?}: {}", v.stdout);
}

#[test]
fn tampering_is_caught_with_its_reason() {
    let sample = data_dir("target-sudoku").join("sample-1.in");
    let sudoku = ["solve", "target-sudoku", sample.to_str().unwrap()];
    // The claimed score raised by one.
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    edit_claim(d.path(), |v| v["score"] = "2830".into());
    rejected(d.path(), "the claimed score 2830 is not the answer's exact score 2829");
    // The solution changed (two digits swapped: no longer valid).
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    edit_claim(d.path(), |v| {
        let s = v["answers"][0].as_str().unwrap().to_string();
        let mut b = s.into_bytes();
        b.swap(0, 1);
        v["answers"][0] = String::from_utf8(b).unwrap().into();
    });
    rejected(d.path(), "answers 1");
    // A clause removed from final.cnf.
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    let cnf = fs::read_to_string(d.path().join("final.cnf")).unwrap();
    let mut lines: Vec<&str> = cnf.lines().collect();
    let last = lines.len() - 1;
    lines.remove(last);
    fs::write(d.path().join("final.cnf"), lines.join("\n") + "\n").unwrap();
    rejected(d.path(), "final.cnf is not the claim's formula");
    // A proof truncated.
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    let proof = fs::read(d.path().join("final.drat")).unwrap();
    fs::write(d.path().join("final.drat"), &proof[..proof.len() / 2]).unwrap();
    rejected(d.path(), "the DRAT checker rejects the proof");
    // A Kakkuro certificate whose blocked answer's score is edited upward, past the claim; and
    // one whose recorded score is edited without its answer.
    let example = root("docs/examples/kakkuro.txt");
    let kakkuro = ["solve", "kakkuro", example.as_str()];
    let d = tempfile::tempdir().unwrap();
    fresh(&kakkuro, d.path());
    edit_claim(d.path(), |v| v["blocked"][0]["score"] = "999999999".into());
    rejected(d.path(), "blocked 1: recorded score 999999999, exact score");
    let d = tempfile::tempdir().unwrap();
    fresh(&kakkuro, d.path());
    // The claimed best swapped for a worse valid answer (the contest's own 103488, with its
    // sides): the blocked best now beats the claim.
    edit_claim(d.path(), |v| {
        v["answers"][0] = " 1:E 1 8:S 7:S 23:S\n24:E 6 7 2 9\n7 7:NESW 1 4 2\n3:E 3 5:ES 1 4\n9:E 4 5 8:E 8\n".into();
        v["score"] = "103488".into();
    });
    rejected(d.path(), "more than the claimed");
    // A lemma weakened (a red dot's largest factor lowered), or dropped.
    let d = tempfile::tempdir().unwrap();
    fresh(&kakkuro, d.path());
    edit_claim(d.path(), |v| {
        let max = v["lemmas"][0]["max"].as_u64().unwrap();
        v["lemmas"][0]["max"] = (max - 1).into();
    });
    rejected(d.path(), "lemma-1.cnf is not lemma 1's formula");
    let d = tempfile::tempdir().unwrap();
    fresh(&kakkuro, d.path());
    edit_claim(d.path(), |v| v["lemmas"] = Value::Array(vec![]));
    rejected(d.path(), "final.cnf is not the claim's formula");
    // The puzzle text edited.
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    edit_claim(d.path(), |v| v["text"] = v["text"].as_str().unwrap().replacen('0', "1", 1).into());
    rejected(d.path(), "does not match its hash");
}

#[test]
fn what_cannot_be_certified_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let five = data_dir("tatamibari").join("codegolf-5x5.txt");
    // Not unique: the two solutions are the proof; nothing to refute.
    let r = run(&["solve", "tatamibari", five.to_str().unwrap(), "--unique", "--certify", d], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no certificate"), "{}", r.stderr);
    let r = run(&["solve", "target-sudoku", root("docs/examples/target-sudoku.txt").as_str(), "--certify", d, "--solver-cmd", "minisat"], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--certify needs a backend that writes proofs"), "{}", r.stderr);
}
