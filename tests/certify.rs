//! Certificates: `--certify` writes them on every backend that proves, `verify` and the stock
//! DRAT checker `rate` accept them, and every kind of tampering is caught with its reason.

mod common;

#[cfg(feature = "outside-tools")]
use common::provers;
use common::{data_dir, run};
#[cfg(feature = "outside-tools")]
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

/// `solve ARGS --certify DIR`, then `verify DIR` and `rate` directly on the pair.
#[cfg(feature = "outside-tools")]
fn certified(args: &[&str], dir: &Path, solver: &str) -> Value {
    let mut all: Vec<&str> = args.to_vec();
    let d = dir.to_str().unwrap();
    all.extend(["--certify", d, "--solver", solver, "-q"]);
    let r = run(&all, None);
    assert!(r.code <= 1, "{all:?}: {}", r.stderr);
    assert!(
        r.stderr.contains("certificate of the claim"),
        "{all:?}: {}",
        r.stderr
    );
    let v = run(&["verify", d], None);
    assert_eq!(
        (v.code, v.stdout.starts_with("VERIFIED: ")),
        (0, true),
        "{all:?}: {}{}",
        v.stdout,
        v.stderr
    );
    let rate = std::process::Command::new("rate")
        .arg(dir.join("final.cnf"))
        .arg(dir.join("final.drat"))
        .output()
        .expect("rate is installed (cargo install --locked rate)");
    let said = String::from_utf8_lossy(&rate.stdout);
    assert!(
        rate.status.success() && said.lines().any(|l| l == "s VERIFIED"),
        "{all:?}: rate says {said}"
    );
    serde_json::from_str(&fs::read_to_string(dir.join("claim.json")).unwrap()).unwrap()
}

#[cfg(feature = "outside-tools")]
#[test]
fn every_kind_of_claim_is_certified_and_verified_on_every_prover() {
    let sudoku = data_dir("target-sudoku");
    let tatamibari = data_dir("tatamibari");
    let kakkuro = data_dir("kakkuro");
    let empty = data_dir("target-sudoku-low").join("empty.in");
    let cases: Vec<(Vec<String>, &str, Option<&str>)> = vec![
        (
            vec![
                "solve".into(),
                "target-sudoku".into(),
                sudoku.join("sample-1.in").to_str().unwrap().into(),
            ],
            "optimal",
            Some("2829"),
        ),
        (
            vec![
                "solve".into(),
                "target-sudoku".into(),
                empty.to_str().unwrap().into(),
            ],
            "optimal",
            Some("2906"),
        ),
        (
            vec![
                "solve".into(),
                "target-sudoku".into(),
                sudoku.join("noip2009-01.in").to_str().unwrap().into(),
            ],
            "no_solution",
            None,
        ),
        (
            vec![
                "solve".into(),
                "tatamibari".into(),
                tatamibari
                    .join("codegolf-10x10.txt")
                    .to_str()
                    .unwrap()
                    .into(),
                "--unique".into(),
            ],
            "unique",
            None,
        ),
        (
            vec![
                "solve".into(),
                "tatamibari".into(),
                tatamibari.join("codegolf-5x5.txt").to_str().unwrap().into(),
                "--count".into(),
            ],
            "count",
            None,
        ),
        (
            vec![
                "solve".into(),
                "tatamibari".into(),
                tatamibari
                    .join("gadgets/clause-000.txt")
                    .to_str()
                    .unwrap()
                    .into(),
            ],
            "no_solution",
            None,
        ),
        (
            vec![
                "solve".into(),
                "kakkuro".into(),
                root("docs/examples/kakkuro.txt"),
            ],
            "optimal",
            Some("427680"),
        ),
        (
            vec![
                "solve".into(),
                "kakkuro".into(),
                kakkuro
                    .join("bench-12x12-seed2.txt")
                    .to_str()
                    .unwrap()
                    .into(),
            ],
            "optimal",
            Some("188103928320"),
        ),
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
    let c = certified(
        &["solve", "kakkuro", board.to_str().unwrap()],
        &dir.path().join("cert"),
        "varisat",
    );
    assert_eq!(c["claim"], "no_solution");
}

#[cfg(feature = "outside-tools")]
#[test]
fn a_bare_contest_string_check_is_certified() {
    let dir = tempfile::tempdir().unwrap();
    let example = root("docs/examples/kakkuro.txt");
    let answer = dir.path().join("answer.txt");
    fs::write(
        &answer,
        "103488:1,1,8,7,23,24,6,7,2,9,7,7,1,4,2,3,3,5,1,4,9,4,5,8,8\n",
    )
    .unwrap();
    let cert = dir.path().join("cert");
    let r = run(
        &[
            "check",
            "kakkuro",
            &example,
            "--answer",
            answer.to_str().unwrap(),
            "--certify",
            cert.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = run(&["verify", cert.to_str().unwrap()], None);
    assert_eq!(v.stdout, format!("VERIFIED: {example}: kakkuro optimum 103488 among the answers with the fixed answer's numbers\n"), "{}", v.stderr);
    // A complete answer needs no solver, and so no certificate.
    let line = run(&["solve", "kakkuro", &example, "--format", "line"], None);
    fs::write(&answer, &line.stdout).unwrap();
    let again = dir.path().join("cert-2");
    let r = run(
        &[
            "check",
            "kakkuro",
            &example,
            "--answer",
            answer.to_str().unwrap(),
            "--certify",
            again.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("its own certificate"), "{}", r.stderr);
    // The folder is checked before anything is solved.
    let r = run(
        &[
            "check",
            "kakkuro",
            &example,
            "--answer",
            answer.to_str().unwrap(),
            "--certify",
            cert.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("needs an empty or new folder"),
        "{}",
        r.stderr
    );
}

/// A fresh certificate in `dir`, for tampering.
#[cfg(feature = "outside-tools")]
fn fresh(args: &[&str], dir: &Path) {
    certified(args, dir, "varisat");
}

#[cfg(feature = "outside-tools")]
fn edit_claim(dir: &Path, change: impl FnOnce(&mut Value)) {
    let path = dir.join("claim.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut v);
    fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

#[cfg(feature = "outside-tools")]
fn rejected(dir: &Path, reason: &str) {
    let v = run(&["verify", dir.to_str().unwrap()], None);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(
        v.stdout.starts_with("NOT VERIFIED: ") && v.stdout.contains(reason),
        "expected {reason:?}: {}",
        v.stdout
    );
}

#[cfg(feature = "outside-tools")]
#[test]
fn tampering_is_caught_with_its_reason() {
    let sample = data_dir("target-sudoku").join("sample-1.in");
    let sudoku = ["solve", "target-sudoku", sample.to_str().unwrap()];
    // The claimed score raised by one.
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    edit_claim(d.path(), |v| v["score"] = "2830".into());
    rejected(
        d.path(),
        "the claimed score 2830 is not the answer's exact score 2829",
    );
    // The solution changed (two digits swapped: no longer valid).
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    edit_claim(d.path(), |v| {
        let s = v["answers"][0].as_str().unwrap().to_string();
        let mut b = s.into_bytes();
        b.swap(0, 1);
        v["answers"][0] = String::from_utf8(b).unwrap().into();
    });
    rejected(d.path(), "answer 1");
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
    rejected(
        d.path(),
        "blocked answer 1: recorded score 999999999, exact score",
    );
    let d = tempfile::tempdir().unwrap();
    fresh(&kakkuro, d.path());
    // The claimed best swapped for a worse valid answer (the contest's own 103488, with its
    // sides): the blocked best now beats the claim.
    edit_claim(d.path(), |v| {
        v["answers"][0] =
            " 1:E 1 8:S 7:S 23:S\n24:E 6 7 2 9\n7 7:NESW 1 4 2\n3:E 3 5:ES 1 4\n9:E 4 5 8:E 8\n"
                .into();
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
    edit_claim(d.path(), |v| {
        v["text"] = v["text"].as_str().unwrap().replacen('0', "1", 1).into()
    });
    rejected(d.path(), "does not match its hash");
}

#[test]
fn what_cannot_be_certified_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let five = data_dir("tatamibari").join("codegolf-5x5.txt");
    // Not unique: the two solutions are the proof; nothing to refute.
    // What was found is printed all the same (it used to be thrown away), with the one cause.
    let r = run(
        &[
            "solve",
            "tatamibari",
            five.to_str().unwrap(),
            "--unique",
            "--certify",
            d,
        ],
        None,
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no certificate: the puzzle is not unique: its two solutions are printed"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout
            .ends_with("\nnot unique: two different solutions\n")
            && r.stdout.lines().count() > 5,
        "{}",
        r.stdout
    );
    let example = root("docs/examples/tatamibari.txt");
    let r = run(&["solve", "tatamibari", &example, "--certify", d], None);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no certificate: a plain solve claims only its answer")
            && r.stderr.contains("add --unique or --count"),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.stdout,
        run(&["solve", "tatamibari", &example], None).stdout,
        "the solution is printed"
    );
    let r = run(
        &[
            "solve",
            "tatamibari",
            five.to_str().unwrap(),
            "--count=1",
            "--certify",
            d,
        ],
        None,
    );
    assert!(
        r.stderr
            .contains("no certificate: the count passed --count's limit"),
        "{}",
        r.stderr
    );
    // Stopped by the time limit before any answer: still the time limit's exit (it was 2).
    let lits = dir.path().join("room.txt");
    // 200×200 of one room: seconds to encode and solve (1.7 s for 120×120 here), so no
    // machine answers it within the limit and its grace.
    let row = vec!["1"; 200].join(" ") + "\n";
    std::fs::write(&lits, format!("200 200\n{}", row.repeat(200))).unwrap();
    let cert = dir.path().join("cert");
    let r = run(
        &[
            "solve",
            "lits",
            lits.to_str().unwrap(),
            "--time-limit",
            "0.1",
            "--certify",
            cert.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("no certificate: the time limit stopped"),
        "{}",
        r.stderr
    );
    // A best score found and not proved when the limit passed: the time limit too (it was 2),
    // unless this machine proves it within the limit.
    let kakkuro = data_dir("kakkuro").join("bench-12x12-seed1.txt");
    let cert = dir.path().join("best");
    let r = run(
        &[
            "solve",
            "kakkuro",
            kakkuro.to_str().unwrap(),
            "--time-limit",
            "1",
            "--certify",
            cert.to_str().unwrap(),
        ],
        None,
    );
    match r.code {
        3 => assert!(
            r.stderr.contains("no certificate: the time limit stopped"),
            "{}",
            r.stderr
        ),
        0 => assert!(cert.join("claim.json").exists()),
        c => panic!("exit {c}: {}", r.stderr),
    }
    let r = run(
        &[
            "solve",
            "target-sudoku",
            root("docs/examples/target-sudoku.txt").as_str(),
            "--certify",
            d,
            "--solver-cmd",
            "minisat",
        ],
        None,
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("--certify needs a backend that writes proofs"),
        "{}",
        r.stderr
    );
}

/// FNV-1a as `claim.json`'s hash: for hand-made and edited claims.
#[cfg(feature = "outside-tools")]
fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A DRAT proof of `cnf` by varisat (which must refute it), written to `path`.
#[cfg(feature = "outside-tools")]
fn varisat_proof(cnf: &encodings::cnf::Cnf, path: &Path) {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    solver.write_proof(fs::File::create(path).unwrap(), varisat::ProofFormat::Drat);
    for c in &cnf.clauses {
        let lits: Vec<varisat::Lit> = c
            .iter()
            .map(|l| varisat::Lit::from_dimacs(l.dimacs() as isize))
            .collect();
        solver.add_clause(&lits);
    }
    assert!(!solver.solve().unwrap(), "the formula is satisfiable");
    solver.close_proof().unwrap();
}

/// Kakkuro's blocking clause excludes a whole score class, so "the rules and the answer
/// blocked" being unsatisfiable says nothing about uniqueness: on a board without red dots
/// whose best answer paints a cell, it excludes every answer. A hand-made certificate of
/// `unique` (and of a count of 1) with a correct proof of that formula must not verify.
#[cfg(feature = "outside-tools")]
#[test]
fn a_claim_that_the_puzzles_blocking_cannot_state_is_refused() {
    use encodings::genres::kakkuro::Kakkuro;
    use encodings::puzzle::Puzzle;
    let d = tempfile::tempdir().unwrap();
    let text = "# . .\n. . .\n";
    let board = d.path().join("board.txt");
    fs::write(&board, text).unwrap();
    let line = run(
        &[
            "solve",
            "kakkuro",
            board.to_str().unwrap(),
            "--format",
            "line",
        ],
        None,
    );
    assert_eq!(line.code, 0, "{}", line.stderr);
    // Two different valid answers: the board is not unique.
    let inst = Kakkuro::parse(text, &Default::default()).unwrap();
    let best = Kakkuro::read_answer(&inst, &line.stdout)
        .unwrap()
        .unwrap()
        .answer;
    let other = Kakkuro::read_answer(&inst, "9:ES,6,3,9,(8):E,8")
        .unwrap()
        .unwrap()
        .answer;
    assert!(Kakkuro::check(&inst, &other).is_ok() && other != best);
    let mut cnf = encodings::cnf::Cnf::new();
    let enc = Kakkuro::encode(&inst, &mut cnf);
    Kakkuro::block(&inst, &enc, &mut cnf, std::slice::from_ref(&best));
    let cert = d.path().join("cert");
    fs::create_dir(&cert).unwrap();
    for kind in ["unique", "count"] {
        let what = if kind == "unique" {
            "the blocked unique solution"
        } else {
            "every counted solution blocked"
        };
        let comment =
            format!("puzzle-sat certificate: kakkuro {kind}: the rules and {what}; unsatisfiable");
        fs::write(
            cert.join("final.cnf"),
            puzzle_sat::dimacs::to_string(&cnf, &[comment]),
        )
        .unwrap();
        varisat_proof(&cnf, &cert.join("final.drat"));
        let claim = serde_json::json!({
            "puzzle": "kakkuro", "file": "board.txt", "hash": fnv(text), "text": text, "lenient": false, "fixed": null,
            "claim": kind, "score": null, "lemmas": [], "answers": [line.stdout], "blocked": [{ "answer": line.stdout, "score": null }],
        });
        fs::write(
            cert.join("claim.json"),
            serde_json::to_string_pretty(&claim).unwrap(),
        )
        .unwrap();
        rejected(
            &cert,
            "blocking clauses exclude more than the answers listed",
        );
    }
    // Nor is one written.
    let r = run(
        &[
            "solve",
            "kakkuro",
            board.to_str().unwrap(),
            "--unique",
            "--certify",
            d.path().join("none").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// The verdict names the rules and a fixed answer's restriction, and every listed answer must
/// agree with the fixed one.
#[cfg(feature = "outside-tools")]
#[test]
fn a_verdict_says_under_which_rules_and_restriction() {
    let example = root("docs/examples/kakkuro.txt");
    let d = tempfile::tempdir().unwrap();
    let c = certified(
        &["solve", "kakkuro", &example, "--lenient"],
        d.path(),
        "varisat",
    );
    assert_eq!(c["lenient"], true);
    let v = run(&["verify", d.path().to_str().unwrap()], None);
    assert_eq!(
        v.stdout,
        format!("VERIFIED: {example}: kakkuro optimum 769824 under the lenient rules\n"),
        "{}",
        v.stderr
    );
    // The fixed check's claimed answer swapped for the true optimum: valid, but not one with
    // the fixed numbers.
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.txt");
    fs::write(
        &answer,
        "103488:1,1,8,7,23,24,6,7,2,9,7,7,1,4,2,3,3,5,1,4,9,4,5,8,8\n",
    )
    .unwrap();
    let cert = dir.path().join("cert");
    let r = run(
        &[
            "check",
            "kakkuro",
            &example,
            "--answer",
            answer.to_str().unwrap(),
            "--certify",
            cert.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let best = run(&["solve", "kakkuro", &example, "--format", "line"], None).stdout;
    edit_claim(&cert, |v| {
        v["answers"][0] = best.clone().into();
        v["score"] = "427680".into();
    });
    rejected(&cert, "answer 1 does not agree with the fixed answer");
}

/// A board whose rules hold an empty clause (a cell no rectangle can cover) is certified in a
/// form the stock checker takes, on every prover.
#[cfg(feature = "outside-tools")]
#[test]
fn a_formula_with_an_empty_clause_is_certified() {
    for solver in provers() {
        let d = tempfile::tempdir().unwrap();
        let board = d.path().join("board.txt");
        fs::write(&board, "+.\n.+\n").unwrap();
        let c = certified(
            &["solve", "tatamibari", board.to_str().unwrap()],
            &d.path().join("cert"),
            solver,
        );
        assert_eq!(c["claim"], "no_solution");
        let cnf = fs::read_to_string(d.path().join("cert/final.cnf")).unwrap();
        assert!(
            !cnf.lines().any(|l| l.trim() == "0"),
            "an empty clause in\n{cnf}"
        );
    }
}

/// Every candidate rectangle of a Tatamibari board: holds exactly one clue, of its shape, and no
/// hole (brute force, as the rules say it).
#[cfg(feature = "outside-tools")]
fn candidates(text: &str) -> usize {
    let grid: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let (rows, cols) = (grid.len(), grid[0].len());
    let mut n = 0;
    for (r0, c0) in (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))) {
        for (h, w) in (1..=rows - r0).flat_map(|h| (1..=cols - c0).map(move |w| (h, w))) {
            let cells: Vec<char> = (r0..r0 + h)
                .flat_map(|r| (c0..c0 + w).map(move |c| (r, c)))
                .map(|(r, c)| grid[r][c])
                .collect();
            let clues: Vec<char> = cells
                .iter()
                .copied()
                .filter(|&ch| "+-|?".contains(ch))
                .collect();
            let shaped = match clues[..] {
                ['+'] => h == w,
                ['-'] => w > h,
                ['|'] => h > w,
                ['?'] => true,
                _ => false,
            };
            n += usize::from(shaped && !cells.contains(&'#'));
        }
    }
    n
}

/// A Tatamibari certificate states the plain formula, over every candidate rectangle, not what
/// pruning and probing left: its proof starts with their removals as units, which the checker
/// derives from the plain formula itself, with and without `-d`.
#[cfg(feature = "outside-tools")]
#[test]
fn a_tatamibari_certificate_trusts_no_pruning_or_probing() {
    let file = data_dir("tatamibari").join("codegolf-10x10.txt");
    let text = fs::read_to_string(&file).unwrap();
    for solver in provers() {
        let d = tempfile::tempdir().unwrap();
        certified(
            &["solve", "tatamibari", file.to_str().unwrap(), "--unique"],
            d.path(),
            solver,
        );
        let cnf = fs::read_to_string(d.path().join("final.cnf")).unwrap();
        let rects = cnf
            .lines()
            .filter(|l| l.starts_with("c ") && l.split_whitespace().nth(2) == Some("rect"))
            .count();
        assert_eq!(
            rects,
            candidates(&text),
            "{solver}: final.cnf is not over every candidate"
        );
        let proof = fs::read_to_string(d.path().join("final.drat")).unwrap();
        let units = proof
            .lines()
            .take_while(|l| l.split_whitespace().count() == 2 && l.starts_with('-'))
            .count();
        assert!(
            units > 0,
            "{solver}: the proof does not start with the removals"
        );
        let rate = std::process::Command::new("rate")
            .arg("-d")
            .arg(d.path().join("final.cnf"))
            .arg(d.path().join("final.drat"))
            .output()
            .unwrap();
        assert!(
            String::from_utf8_lossy(&rate.stdout)
                .lines()
                .any(|l| l == "s VERIFIED"),
            "{solver}: rate -d"
        );
    }
}

/// `verify` reads regular files only, each once: a link (even to the right bytes), a pipe, a
/// device and a file past its cap are refused, and the checker reads private copies.
#[cfg(feature = "outside-tools")]
#[test]
fn verify_refuses_files_that_are_not_what_they_seem() {
    let sample = data_dir("target-sudoku").join("sample-1.in");
    let sudoku = ["solve", "target-sudoku", sample.to_str().unwrap()];
    let d = tempfile::tempdir().unwrap();
    fresh(&sudoku, d.path());
    let keep = tempfile::tempdir().unwrap();
    for name in ["final.cnf", "final.drat", "claim.json"] {
        // The same bytes, behind a symbolic link.
        fs::rename(d.path().join(name), keep.path().join(name)).unwrap();
        std::os::unix::fs::symlink(keep.path().join(name), d.path().join(name)).unwrap();
        let v = run(&["verify", d.path().to_str().unwrap()], None);
        assert!(
            v.code >= 1 && (v.stdout + &v.stderr).contains("is not a regular file"),
            "{name} as a link"
        );
        fs::remove_file(d.path().join(name)).unwrap();
        // A named pipe nobody writes (read, it would wait forever).
        assert!(std::process::Command::new("mkfifo")
            .arg(d.path().join(name))
            .status()
            .unwrap()
            .success());
        let v = run(&["verify", d.path().to_str().unwrap()], None);
        assert!(
            v.code >= 1 && (v.stdout + &v.stderr).contains("is not a regular file"),
            "{name} as a pipe"
        );
        fs::remove_file(d.path().join(name)).unwrap();
        // A link to an endless device.
        std::os::unix::fs::symlink("/dev/zero", d.path().join(name)).unwrap();
        let v = run(&["verify", d.path().to_str().unwrap()], None);
        assert!(
            v.code >= 1 && (v.stdout + &v.stderr).contains("is not a regular file"),
            "{name} as /dev/zero"
        );
        fs::remove_file(d.path().join(name)).unwrap();
        fs::rename(keep.path().join(name), d.path().join(name)).unwrap();
    }
    let v = run(&["verify", d.path().to_str().unwrap()], None);
    assert_eq!(v.code, 0, "{}", v.stdout);
    // Past its cap (a sparse file: nothing is written or read).
    let f = fs::OpenOptions::new()
        .write(true)
        .open(d.path().join("claim.json"))
        .unwrap();
    f.set_len(puzzle_sat::certify::CLAIM_CAP + 1).unwrap();
    let v = run(&["verify", d.path().to_str().unwrap()], None);
    assert_eq!(v.code, 2);
    assert!(v.stderr.contains("is larger than"), "{}", v.stderr);
}

/// `--certify DIR` writes into an empty or new folder only, and never through a link.
#[test]
fn certify_writes_only_into_an_empty_folder() {
    let sample = data_dir("target-sudoku").join("sample-1.in");
    let d = tempfile::tempdir().unwrap();
    let outside = d.path().join("victim.txt");
    fs::write(&outside, "untouched").unwrap();
    let cert = d.path().join("cert");
    fs::create_dir(&cert).unwrap();
    std::os::unix::fs::symlink(&outside, cert.join("final.cnf")).unwrap();
    let r = run(
        &[
            "solve",
            "target-sudoku",
            sample.to_str().unwrap(),
            "--certify",
            cert.to_str().unwrap(),
            "-q",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("empty or new folder"), "{}", r.stderr);
    assert_eq!(fs::read_to_string(&outside).unwrap(), "untouched");
    let stale = d.path().join("stale");
    fs::create_dir(&stale).unwrap();
    fs::write(stale.join("lemma-1.cnf"), "stale").unwrap();
    let r = run(
        &[
            "solve",
            "target-sudoku",
            sample.to_str().unwrap(),
            "--certify",
            stale.to_str().unwrap(),
            "-q",
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// `claim.json` may say only what applies to its puzzle and claim.
#[cfg(feature = "outside-tools")]
#[test]
fn a_claim_saying_what_does_not_apply_is_refused() {
    let five = data_dir("tatamibari").join("codegolf-5x5.txt");
    let count = ["solve", "tatamibari", five.to_str().unwrap(), "--count"];
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|v| v["proved_by"] = "hand".into()),
            "unknown field \"proved_by\"",
        ),
        (
            Box::new(|v| v["lenient"] = true.into()),
            "tatamibari has no lenient rules",
        ),
        (
            Box::new(|v| v["score"] = "7".into()),
            "a 'count' claim has no score",
        ),
        (
            Box::new(|v| v["blocked"][0]["score"] = "7".into()),
            "blocked answer 1: a score that is no tatamibari score",
        ),
        (
            Box::new(|v| v["blocked"][0]["why"] = "x".into()),
            "blocked answer 1: neither an answer",
        ),
        (
            Box::new(|v| {
                let text = format!("puzzle-sat: kakkuro\n{}", v["text"].as_str().unwrap());
                v["hash"] = fnv(&text).into();
                v["text"] = text.into();
            }),
            "header names \"kakkuro\"",
        ),
    ];
    for (edit, reason) in cases {
        let d = tempfile::tempdir().unwrap();
        fresh(&count, d.path());
        edit_claim(d.path(), edit);
        rejected(d.path(), reason);
    }
}

/// `verify` under a memory limit, as a shell's `ulimit -v` sets it (KiB): a claim must be refused
/// within it, never read or built until the machine's memory runs out.
#[cfg(feature = "outside-tools")]
fn verify_within(dir: &Path, kib: u64) -> common::Run {
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib}; exec \"$0\" verify \"$1\""))
        .arg(bin)
        .arg(dir)
        .output()
        .unwrap();
    common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
    }
}

/// A claim whose formula would be huge (a 34×34 board with a `?` in the middle and one in a
/// corner: nearly every rectangle around either a candidate, every cell two clues' to own, a
/// formula about three times what the candidate lists take, which `solve` takes after pruning
/// but no certificate can state) and a claim.json of millions of tiny values are refused in
/// bounded memory; each ran `verify` out of memory before.
#[cfg(feature = "outside-tools")]
#[test]
fn a_claim_too_large_to_build_or_parse_is_refused_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("big");
    fs::create_dir(&cert).unwrap();
    let mut text = String::new();
    for r in 0..34 {
        text += &(0..34)
            .map(|c| {
                if (r, c) == (17, 17) || (r, c) == (0, 0) {
                    '?'
                } else {
                    '.'
                }
            })
            .collect::<String>();
        text.push('\n');
    }
    let claim = serde_json::json!({ "puzzle": "tatamibari", "file": "big.txt", "hash": fnv(&text), "text": text, "lenient": false, "claim": "no_solution", "answers": [], "blocked": [] });
    fs::write(cert.join("claim.json"), claim.to_string()).unwrap();
    fs::write(cert.join("final.cnf"), "p cnf 1 1\n1 0\n").unwrap();
    fs::write(cert.join("final.drat"), "").unwrap();
    let v = verify_within(&cert, 3_000_000);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(
        v.stdout
            .starts_with("NOT VERIFIED: the claim's formula is too large"),
        "{}{}",
        v.stdout,
        v.stderr
    );
    // 40 MB of `0,`: each a JSON value of tens of bytes once parsed.
    let mut huge = String::from("{\"puzzle\":\"tatamibari\",\"lemmas\":[");
    huge += &"0,".repeat(20_000_000);
    huge += "0]}";
    fs::write(cert.join("claim.json"), huge).unwrap();
    let v = verify_within(&cert, 1_000_000);
    assert_eq!(v.code, 2, "{}{}", v.stdout, v.stderr);
    assert!(v.stderr.contains("JSON values"), "{}", v.stderr);
}

/// The score a Kakkuro contest string carries is part of what claim.json says: a wrong one is
/// refused even where the claimed optimum itself is right.
#[cfg(feature = "outside-tools")]
#[test]
fn an_answer_claiming_a_wrong_score_of_its_own_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("k");
    fresh(
        &["solve", "kakkuro", &root("docs/examples/kakkuro.txt")],
        &cert,
    );
    edit_claim(&cert, |v| {
        let a = v["answers"][0].as_str().unwrap().to_string();
        let (_, rest) = a.split_once(':').unwrap();
        v["answers"][0] = Value::String(format!("999999:{rest}"));
    });
    rejected(&cert, "the answer claims the score 999999");
}

/// A board of holes has one solution, no rectangles: its count certificate reads back.
#[cfg(feature = "outside-tools")]
#[test]
fn a_board_of_holes_is_certified_with_its_empty_tiling() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("holes.txt");
    fs::write(&board, "##\n##\n").unwrap();
    let cert = dir.path().join("c");
    certified(
        &["solve", "tatamibari", board.to_str().unwrap(), "--count=5"],
        &cert,
        "varisat",
    );
    let v = run(&["verify", cert.to_str().unwrap()], None);
    assert_eq!(
        v.stdout,
        format!(
            "VERIFIED: {}: tatamibari has exactly 1 solution\n",
            board.display()
        )
    );
}

/// A missing checker is a missing tool (exit 2, and `rate`'s install line only for `rate`),
/// not a failed certificate; a missing proof names the file.
#[cfg(feature = "outside-tools")]
#[test]
fn a_missing_checker_or_proof_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("c");
    fresh(
        &[
            "solve",
            "tatamibari",
            &root("docs/examples/tatamibari.txt"),
            "--unique",
        ],
        &cert,
    );
    let r = run(
        &[
            "verify",
            cert.to_str().unwrap(),
            "--checker",
            "no-such-drat-checker {cnf} {proof}",
        ],
        None,
    );
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("the DRAT checker no-such-drat-checker is not installed")
            && !r.stderr.contains("cargo install"),
        "{}",
        r.stderr
    );
    fs::remove_file(cert.join("final.drat")).unwrap();
    let r = run(&["verify", cert.to_str().unwrap()], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("NOT VERIFIED: ") && r.stdout.contains("final.drat: No such file"),
        "{}",
        r.stdout
    );
}

/// The verdict names the puzzle by the file it was read from while that file holds it; a
/// claim.json that records another file's name (no part of the proof) gets no word about that
/// file, and a puzzle read from standard input is claim.json's.
#[cfg(feature = "outside-tools")]
#[test]
fn a_verdict_names_the_puzzle_it_verified() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("sudoku.txt");
    fs::copy(root("docs/examples/sudoku.txt"), &puzzle).unwrap();
    let cert = dir.path().join("cert");
    certified(
        &["solve", "sudoku", puzzle.to_str().unwrap(), "--unique"],
        &cert,
        "varisat",
    );
    let verify = || run(&["verify", cert.to_str().unwrap()], None).stdout;
    assert_eq!(
        verify(),
        format!(
            "VERIFIED: {}: sudoku solution is unique\n",
            puzzle.display()
        )
    );
    let other = root("tests/data/sudoku/janko-1-9x9.txt");
    edit_claim(&cert, |c| c["file"] = Value::from(other.as_str()));
    let claim = cert.join("claim.json");
    assert_eq!(verify(), format!("VERIFIED: the puzzle in {} (recorded as {other}, which does not hold it here): sudoku solution is unique\n", claim.display()));
    // The file changed since: it no longer holds the puzzle verified.
    edit_claim(&cert, |c| c["file"] = Value::from(puzzle.to_str().unwrap()));
    fs::write(&puzzle, fs::read_to_string(&other).unwrap()).unwrap();
    assert!(verify().starts_with(&format!(
        "VERIFIED: the puzzle in {} (recorded as {}, which does not hold",
        claim.display(),
        puzzle.display()
    )));
    // A recorded name that would end the line and forge one naming another file: quoted.
    let forged = "none.txt)\nVERIFIED: /home/alice/famous.txt: sudoku solution is unique\n(";
    edit_claim(&cert, |c| c["file"] = Value::from(forged));
    let said = verify();
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains(&format!(
            "(recorded as {forged:?}, which does not hold it here)"
        )),
        "{said}"
    );
    let piped = dir.path().join("piped");
    let r = run(
        &[
            "solve",
            "sudoku",
            "-",
            "--unique",
            "--certify",
            piped.to_str().unwrap(),
            "-q",
        ],
        Some(
            fs::read_to_string(root("docs/examples/sudoku.txt"))
                .unwrap()
                .as_bytes(),
        ),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = run(&["verify", piped.to_str().unwrap()], None);
    assert_eq!(
        v.stdout,
        format!(
            "VERIFIED: the puzzle in {} (read from standard input): sudoku solution is unique\n",
            piped.join("claim.json").display()
        )
    );
}

/// Every outside checker runs under a memory cap and, when asked, a time limit: past either the
/// certificate is not verified, with the reason, and the machine's memory is never at stake (a
/// 180 MB junk proof took `rate` to 1.6 GB before the cap).
#[cfg(feature = "outside-tools")]
#[test]
fn checkers_are_bounded_in_memory_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert");
    certified(
        &[
            "solve",
            "sudoku",
            &root("docs/examples/sudoku.txt"),
            "--unique",
        ],
        &cert,
        "varisat",
    );
    // A junk proof of 60,000 random lemmas over the formula's variables: rate keeps them all.
    let mut junk = String::new();
    let mut x: u64 = 1;
    for _ in 0..600_000 {
        for _ in 0..8 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let var = (x >> 33) % 700 + 1;
            junk += &format!("{}{var} ", if x >> 63 == 1 { "-" } else { "" });
        }
        junk += "0\n";
    }
    fs::write(cert.join("final.drat"), junk).unwrap();
    let c = cert.to_str().unwrap();
    let v = run(&["verify", c, "--memory", "32M"], None);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.starts_with("NOT VERIFIED: the DRAT checker ran out of memory under its cap of 32 MiB (--memory raises it): memory allocation of"), "{}", v.stdout);
    // Any --checker, whatever it is written in.
    let hungry = "python3 -c 'x = bytearray(1 << 30)'";
    let v = run(&["verify", c, "--memory", "64M", "--checker", hungry], None);
    assert!(v.stdout.starts_with("NOT VERIFIED: the DRAT checker ran out of memory under its cap of 64 MiB (--memory raises it): MemoryError"), "{}", v.stdout);
    let started = std::time::Instant::now();
    let v = run(
        &[
            "verify",
            c,
            "--time-limit",
            "0.5",
            "--checker",
            "sh -c 'sleep 30' sh",
        ],
        None,
    );
    assert_eq!(
        v.stdout,
        "NOT VERIFIED: the DRAT checker did not finish within the time limit\n"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    for bad in ["1", "12Q", "99999999999T", ""] {
        assert_eq!(
            run(&["verify", c, "--memory", bad], None).code,
            2,
            "--memory {bad}"
        );
    }
}

/// `--cubes N --certify`: a proof per cube and one that the cubes cover every case, all
/// checked by `verify`; a lost, forged, missing or altered cube is refused.
#[cfg(feature = "outside-tools")]
#[test]
fn certificates_in_cubes_are_verified_and_tampering_caught() {
    let kakkuro = root("docs/examples/kakkuro.txt");
    let sample = data_dir("target-sudoku").join("sample-1.in");
    let thirteen = data_dir("tatamibari").join("codegolf-7x7.txt");
    let cases: [(&[&str], &str); 3] = [
        (
            &["solve", "kakkuro", &kakkuro],
            "kakkuro optimum 427680 (in ",
        ),
        (
            &["solve", "target-sudoku", sample.to_str().unwrap()],
            "target-sudoku optimum 2829 (in ",
        ),
        (
            &["solve", "tatamibari", thirteen.to_str().unwrap(), "--count"],
            "tatamibari has exactly 13 solutions (in ",
        ),
    ];
    for solver in provers() {
        for (args, says) in cases {
            let d = tempfile::tempdir().unwrap();
            let dir = d.path().to_str().unwrap();
            let mut all = args.to_vec();
            all.extend([
                "--cubes",
                "6",
                "--cubes-after",
                "0",
                "--certify",
                dir,
                "--solver",
                solver,
                "-q",
            ]);
            let r = run(&all, None);
            assert!(
                r.code <= 1 && r.stderr.contains(" cubes ("),
                "{all:?}: {}",
                r.stderr
            );
            let v = run(&["verify", dir], None);
            assert_eq!(v.code, 0, "{all:?}: {}{}", v.stdout, v.stderr);
            assert!(v.stdout.contains(says), "{all:?}: {}", v.stdout);
            assert!(
                !d.path().join("final.drat").exists(),
                "no whole proof beside the cubes"
            );
        }
    }
    // Tampering, on the Kakkuro example's cubes.
    let fresh = || {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().to_str().unwrap().to_string();
        let r = run(
            &[
                "solve",
                "kakkuro",
                &kakkuro,
                "--cubes",
                "6",
                "--cubes-after",
                "0",
                "--certify",
                &dir,
                "-q",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let claim: Value =
            serde_json::from_str(&fs::read_to_string(d.path().join("claim.json")).unwrap())
                .unwrap();
        let n = claim["cubes"].as_array().unwrap().len();
        assert!(n >= 3, "the example splits into several cubes: {n}");
        (d, n)
    };
    // The last cube lost, its proof with it: the rest do not cover every case.
    let (d, n) = fresh();
    edit_claim(d.path(), |v| {
        v["cubes"].as_array_mut().unwrap().pop();
    });
    fs::remove_file(d.path().join(format!("cube-{n}.drat"))).unwrap();
    rejected(d.path(), "the cover: the DRAT checker rejects the proof");
    // A cube's proof forged (cut in half).
    let (d, _) = fresh();
    let proof = fs::read(d.path().join("cube-2.drat")).unwrap();
    fs::write(d.path().join("cube-2.drat"), &proof[..proof.len() / 2]).unwrap();
    rejected(d.path(), "cube 2: ");
    // A cube's proof missing.
    let (d, _) = fresh();
    fs::remove_file(d.path().join("cube-1.drat")).unwrap();
    rejected(d.path(), "cube-1.drat");
    // A cube narrowed by a literal of its own choosing: its proof no longer fits, or the
    // cover fails.
    let (d, _) = fresh();
    edit_claim(d.path(), |v| {
        let first = &mut v["cubes"][0];
        let l = first[0].as_i64().unwrap();
        first[0] = (-l).into();
    });
    rejected(d.path(), "the DRAT checker rejects the proof");
    // Literals that are not final.cnf's, or a variable twice.
    let (d, _) = fresh();
    edit_claim(d.path(), |v| v["cubes"][0][0] = 99_999_999.into());
    rejected(d.path(), "is no literal of final.cnf");
    let (d, _) = fresh();
    edit_claim(d.path(), |v| {
        let l = v["cubes"][1][0].clone();
        v["cubes"][1].as_array_mut().unwrap().push(l);
    });
    rejected(d.path(), "twice");
}
