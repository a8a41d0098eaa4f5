//! VeriPB certificates (`solve --certify` writes `problem.opb` and `proof.pbp` beside the DRAT
//! proof of a target sudoku optimum; `verify` runs `veripb`, crates.io 3.0.2, which `.ci/run`
//! installs): every P1074 optimum verified, and tampered ones refused.

mod common;

use common::{provers, run};
use encodings::capability::{PbClaims, PbOptimum, PbOwnOptimum};
use encodings::genres::target_sudoku::{Grid, TargetSudoku};
use encodings::puzzle::{Puzzle, Settings};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `veripb`'s exit status and output on the files.
fn veripb(opb: &Path, pbp: &Path) -> (bool, String) {
    let out = Command::new("veripb")
        .arg(opb)
        .arg(pbp)
        .output()
        .expect("veripb runs (cargo install --locked veripb --version 3.0.2)");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// `solve --certify` into `dir/name`; the score, or `None` when the grid has no completion.
fn certify(input: &Path, dir: &Path, name: &str) -> Option<(PathBuf, u32)> {
    let cert = dir.join(name);
    let solved = run(
        &[
            "solve",
            "target-sudoku",
            input.to_str().unwrap(),
            "--format",
            "json",
            "--certify",
            cert.to_str().unwrap(),
        ],
        None,
    );
    if solved.code == 1 {
        return None;
    }
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert!(
        solved.stderr.contains("with a VeriPB proof"),
        "{}",
        solved.stderr
    );
    Some((
        cert,
        common::json_field(&solved.stdout, "score").parse().unwrap(),
    ))
}

/// `veripb` on `opb` and `pbp` as given, but with the proof's `f` line naming the problem's own
/// number of constraints (an equality counts twice): so that a proof put to another problem is
/// judged on its steps, not refused for its count.
fn veripb_refit(opb: &str, pbp: &str, dir: &Path) -> (bool, String) {
    let count: usize = opb
        .lines()
        .filter(|l| !l.starts_with('*') && !l.starts_with("min:") && !l.trim().is_empty())
        .map(|l| if l.contains(" = ") { 2 } else { 1 })
        .sum();
    let refit: String = pbp
        .lines()
        .map(|l| {
            if l.starts_with("f ") {
                format!("f {count};\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let k = dir.read_dir().unwrap().count();
    let (o, p) = (
        dir.join(format!("refit-{k}.opb")),
        dir.join(format!("refit-{k}.pbp")),
    );
    std::fs::write(&o, opb).unwrap();
    std::fs::write(&p, refit).unwrap();
    veripb(&o, &p)
}

/// `verify`'s own use of veripb on a hand-made proof, which `verify` itself never runs (it
/// checks only the proof it rebuilds): the refusal, if any.
fn run_veripb(opb: &str, pbp: &str, dir: &Path, expected: &str) -> Result<(), String> {
    let k = dir.read_dir().unwrap().count();
    let (o, p) = (
        dir.join(format!("direct-{k}.opb")),
        dir.join(format!("direct-{k}.pbp")),
    );
    std::fs::write(&o, opb).unwrap();
    std::fs::write(&p, pbp).unwrap();
    puzzle_sat::drat::run_veripb(&o, &p, expected, puzzle_sat::drat::Limits::default())
}

/// What `verify` says of a proof.pbp that is not the one made from final.drat.
const NOT_REBUILT: &str = "NOT VERIFIED: proof.pbp is not the VeriPB proof made from final.drat";

/// The same, for a Kakkuro optimum, whose proof is made from files of its own.
const NOT_REBUILT_OWN: &str = "NOT VERIFIED: proof.pbp is not the VeriPB proof made from veripb.drat, the lemmas' proofs and veripb_blocked";

fn verify(cert: &Path) -> common::Run {
    run(&["verify", cert.to_str().unwrap()], None)
}

#[test]
fn every_p1074_optimum_verifies_with_veripb() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = common::inputs("target-sudoku");
    inputs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt"));
    let mut verified = 0;
    for (k, input) in inputs.iter().enumerate() {
        let want = if input.extension().is_some_and(|e| e == "in") {
            common::expected(input).trim().to_string()
        } else {
            "2852".to_string()
        };
        let Some((cert, score)) = certify(input, dir.path(), &format!("c{k}")) else {
            assert_eq!(want, "-1", "{}", input.display());
            continue;
        };
        assert_eq!(score.to_string(), want, "{}", input.display());
        let (ok, said) = veripb(&cert.join("problem.opb"), &cert.join("proof.pbp"));
        assert!(
            ok && said.contains(&format!("s VERIFIED BOUNDS -{score} <= obj <= -{score}")),
            "{}: {said}",
            input.display()
        );
        let v = verify(&cert);
        assert_eq!(
            v.stdout,
            format!(
                "VERIFIED: {}: target-sudoku optimum {score} (DRAT and VeriPB)\n",
                input.display()
            ),
            "{}",
            v.stderr
        );
        verified += 1;
    }
    assert!(verified >= 20, "{verified}");
}

/// Edits `file` of a copy of `cert` with `edit` and returns `verify`'s and `veripb`'s words.
fn tampered(
    cert: &Path,
    dir: &Path,
    file: &str,
    edit: impl Fn(&str) -> String,
) -> (common::Run, (bool, String)) {
    let copy = dir.join(format!("t-{}", dir.read_dir().unwrap().count()));
    std::fs::create_dir(&copy).unwrap();
    for f in std::fs::read_dir(cert).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, copy.join(f.file_name().unwrap())).unwrap();
    }
    let text = std::fs::read_to_string(copy.join(file)).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changes {file}");
    std::fs::write(copy.join(file), edited).unwrap();
    (
        verify(&copy),
        veripb(&copy.join("problem.opb"), &copy.join("proof.pbp")),
    )
}

/// A proof with its first `red` definition removed.
fn without_first_definition(t: &str) -> String {
    let at = t.find("\nred ").unwrap() + 1;
    let end = at + t[at..].find('\n').unwrap() + 1;
    format!("{}{}", &t[..at], &t[end..])
}

/// Grids whose 21 score cells are all given: no totalizer, the givens fix the bound.
#[test]
fn grids_with_every_score_cell_given_verify() {
    let dir = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let line = run(
        &[
            "solve",
            "target-sudoku",
            example.to_str().unwrap(),
            "--format",
            "line",
        ],
        None,
    )
    .stdout;
    let best: Vec<u8> = line.trim().bytes().collect();
    let score_cells = |i: usize| {
        let (r, c) = (i / 9, i % 9);
        let ring = r.abs_diff(4).max(c.abs_diff(4));
        ring == 2 || ring == 0 || (r % 8 == 0 && c % 8 == 0)
    };
    // The score cells only; everything; everything but one cell off the score cells.
    let keeps: [&dyn Fn(usize) -> bool; 3] = [&score_cells, &|_| true, &|i| i != 1];
    for (k, keep) in keeps.iter().enumerate() {
        let text: String = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| {
                        if keep(r * 9 + c) {
                            (best[r * 9 + c] as char).to_string()
                        } else {
                            "0".into()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        let file = dir.path().join(format!("g{k}.txt"));
        std::fs::write(&file, text).unwrap();
        let (cert, score) =
            certify(&file, dir.path(), &format!("c{k}")).expect("the grid has completions");
        let v = verify(&cert);
        assert_eq!(
            v.stdout,
            format!(
                "VERIFIED: {}: target-sudoku optimum {score} (DRAT and VeriPB)\n",
                file.display()
            ),
            "grid {k}: {}",
            v.stderr
        );
    }
}

#[test]
fn tampered_veripb_certificates_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let (cert, score) = certify(&example, dir.path(), "cert").unwrap();
    assert_eq!(score, 2852);
    let refused = |(v, (ok, said)): (common::Run, (bool, String)), why: &str| {
        assert_eq!(v.code, 1, "{why}: {}{}", v.stdout, v.stderr);
        assert!(
            v.stdout.starts_with("NOT VERIFIED: "),
            "{why}: {}",
            v.stdout
        );
        assert!(!ok, "{why}: veripb accepts it: {said}");
    };
    // The objective changed where the optimum counts: the centre's digit weighs one more.
    let best: Grid = {
        let line = run(
            &[
                "solve",
                "target-sudoku",
                example.to_str().unwrap(),
                "--format",
                "line",
            ],
            None,
        )
        .stdout;
        let d: Vec<u8> = line.trim().bytes().map(|b| b - b'0').collect();
        std::array::from_fn(|r| std::array::from_fn(|c| d[r * 9 + c]))
    };
    let centre = (4 * 81 + 4 * 9 + best[4][4] as usize) as u32;
    let weight = 10 * best[4][4] as u32;
    let (v, (ok, said)) = tampered(&cert, dir.path(), "problem.opb", |t| {
        t.replacen(
            &format!(" -{weight} x{centre} "),
            &format!(" -{} x{centre} ", weight + 1),
            1,
        )
    });
    assert!(
        v.stdout.contains("problem.opb is not the puzzle's problem"),
        "{}",
        v.stdout
    );
    assert!(!ok, "veripb accepts a changed objective: {said}");
    // A step removed: the first definition of a totalizer output, and the solver's last step.
    refused(
        tampered(&cert, dir.path(), "proof.pbp", without_first_definition),
        "a definition removed",
    );
    refused(
        tampered(&cert, dir.path(), "proof.pbp", |t| {
            t.replacen("rup >= 1;\n", "", 1)
        }),
        "the empty clause removed",
    );
    // A proof of nothing: veripb accepts an unchecked assumption and only warns after its verdict.
    let (v, (ok, said)) = tampered(&cert, dir.path(), "proof.pbp", |t| {
        let soli = t.find("\nsoli ").unwrap() + 1;
        let end = soli + t[soli..].find('\n').unwrap() + 1;
        format!(
            "{}a >= 1;\noutput NONE;\nconclusion BOUNDS -2852 -2852;\nend pseudo-Boolean proof;\n",
            &t[..end]
        )
    });
    assert!(
        ok && said.contains("unchecked assumptions"),
        "veripb's own verdict on it: {said}"
    );
    assert_eq!(v.code, 1, "{}", v.stdout);
    assert!(v.stdout.starts_with(NOT_REBUILT), "{}", v.stdout);
    // Were such a proof handed to veripb, its warning would refuse it.
    let (opb, pbp) = (
        std::fs::read_to_string(cert.join("problem.opb")).unwrap(),
        std::fs::read_to_string(cert.join("proof.pbp")).unwrap(),
    );
    let assumed = format!(
        "{}a >= 1;\n{}",
        &pbp[..pbp.find("\noutput").unwrap() + 1],
        &pbp[pbp.find("\noutput").unwrap() + 1..]
    );
    let why = run_veripb(
        &opb,
        &assumed,
        dir.path(),
        "s VERIFIED BOUNDS -2852 <= obj <= -2852",
    )
    .unwrap_err();
    assert!(
        why.contains("veripb warns") && why.contains("unchecked assumptions"),
        "{why}"
    );
    run_veripb(
        &opb,
        &pbp,
        dir.path(),
        "s VERIFIED BOUNDS -2852 <= obj <= -2852",
    )
    .expect("the proof as made");
    // False bounds: a better optimum claimed, a worse one.
    refused(
        tampered(&cert, dir.path(), "proof.pbp", |t| {
            t.replace("BOUNDS -2852 -2852", "BOUNDS -2853 -2853")
        }),
        "a better optimum",
    );
    refused(
        tampered(&cert, dir.path(), "proof.pbp", |t| {
            t.replace("BOUNDS -2852 -2852", "BOUNDS -2851 -2851")
        }),
        "a worse optimum",
    );
    // A proof of a claim one lower from the same DRAT proof: the bound it derives is not the
    // formula the solver refuted.
    let givens = TargetSudoku::parse(
        &std::fs::read_to_string(&example).unwrap(),
        &Settings::default(),
    )
    .unwrap();
    let drat = std::fs::read_to_string(cert.join("final.drat")).unwrap();
    let low = TargetSudoku::optimum_proof(&givens, &best, &2851, &drat).unwrap();
    let (o, p) = (dir.path().join("low.opb"), dir.path().join("low.pbp"));
    std::fs::write(&o, TargetSudoku::problem(&givens, &[])).unwrap();
    std::fs::write(&p, low).unwrap();
    let (ok, said) = veripb(&o, &p);
    assert!(!ok, "{said}");
    // A certificate without its VeriPB proof still verifies, and says DRAT only.
    std::fs::remove_file(cert.join("proof.pbp")).unwrap();
    assert_eq!(
        verify(&cert).stdout,
        format!(
            "VERIFIED: {}: target-sudoku optimum 2852\n",
            example.display()
        )
    );
}

/// `solve ARGS --certify DIR --veripb`: the certificate's folder, after checking that it says
/// it wrote a VeriPB proof.
fn with_veripb(args: &[&str], dir: &Path, solver: &str) -> PathBuf {
    let mut all = args.to_vec();
    all.extend([
        "--certify",
        dir.to_str().unwrap(),
        "--veripb",
        "--solver",
        solver,
        "-q",
    ]);
    let r = run(&all, None);
    assert!(r.code <= 1, "{all:?}: {}", r.stderr);
    assert!(
        r.stderr.contains("with a VeriPB proof"),
        "{all:?}: {}",
        r.stderr
    );
    dir.to_path_buf()
}

/// `--veripb`: no-solution, unique and count claims of every puzzle get final.cnf stated as an
/// OPB problem and the DRAT proof as a VeriPB one, which veripb and `verify` accept, on every
/// prover.
#[test]
fn claims_without_a_score_get_a_veripb_refutation_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let data = |puzzle: &str, file: &str| {
        common::data_dir(puzzle)
            .join(file)
            .to_str()
            .unwrap()
            .to_string()
    };
    let none = dir.path().join("none.txt");
    std::fs::write(&none, "@ #\n# #\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "tatamibari".into(),
                data("tatamibari", "codegolf-10x10.txt"),
                "--unique".into(),
            ],
            "tatamibari solution is unique",
        ),
        (
            vec![
                "tatamibari".into(),
                data("tatamibari", "codegolf-5x5.txt"),
                "--count".into(),
            ],
            "tatamibari has exactly",
        ),
        (
            vec![
                "tatamibari".into(),
                data("tatamibari", "gadgets/clause-000.txt"),
            ],
            "tatamibari has no solution",
        ),
        (
            vec![
                "sudoku".into(),
                data("sudoku", "janko-1-9x9.txt"),
                "--unique".into(),
            ],
            "sudoku solution is unique",
        ),
        (
            vec![
                "kakuro".into(),
                data("kakuro", "janko-1-10x12.txt"),
                "--count".into(),
            ],
            "kakuro has exactly 1 solution",
        ),
        (
            vec![
                "shikaku".into(),
                data("shikaku", "janko-001-10x10.txt"),
                "--unique".into(),
            ],
            "shikaku solution is unique",
        ),
        (
            vec!["kakkuro".into(), none.to_str().unwrap().into()],
            "kakkuro has no solution",
        ),
    ];
    for solver in provers() {
        for (k, (args, what)) in cases.iter().enumerate() {
            let mut all = vec!["solve"];
            all.extend(args.iter().map(String::as_str));
            let cert = with_veripb(&all, &dir.path().join(format!("{solver}-{k}")), solver);
            let (ok, said) = veripb(&cert.join("problem.opb"), &cert.join("proof.pbp"));
            assert!(
                ok && said.contains("s VERIFIED UNSATISFIABLE"),
                "{all:?}: {said}"
            );
            let v = verify(&cert);
            assert!(
                v.stdout
                    .starts_with(&format!("VERIFIED: {}: {what}", args[1]))
                    && v.stdout.ends_with(" (DRAT and VeriPB)\n"),
                "{all:?}: {}{}",
                v.stdout,
                v.stderr
            );
        }
    }
}

/// A target sudoku grid with no completion gets the puzzle's own problem (as for an optimum)
/// and a proof that it is infeasible, without asking: the rules' clauses and the score's
/// totalizer (which the solver is given too) are derived, not trusted. The P1074 grid with no
/// answer, and grids made so by one more given that breaks no rule on its face.
#[test]
fn target_sudoku_grids_without_completion_are_proved_infeasible() {
    let dir = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let text = std::fs::read_to_string(&example).unwrap();
    let mut grids = vec![common::data_dir("target-sudoku").join("noip2009-01.in")];
    let cells: Vec<Vec<u32>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    let clashes = |r: usize, c: usize, d: u32| {
        (0..9).any(|k| {
            cells[r][k] == d || cells[k][c] == d || cells[r / 3 * 3 + k / 3][c / 3 * 3 + k % 3] == d
        })
    };
    'found: for r in 0..9 {
        for c in 0..9 {
            for d in 1..=9 {
                if cells[r][c] != 0 || clashes(r, c, d) {
                    continue;
                }
                let mut g = cells.clone();
                g[r][c] = d;
                let file = dir.path().join(format!("g{}.txt", grids.len()));
                std::fs::write(
                    &file,
                    g.iter()
                        .map(|row| {
                            row.iter().map(u32::to_string).collect::<Vec<_>>().join(" ") + "\n"
                        })
                        .collect::<String>(),
                )
                .unwrap();
                if run(
                    &["solve", "target-sudoku", file.to_str().unwrap(), "-q"],
                    None,
                )
                .code
                    == 1
                {
                    grids.push(file);
                    if grids.len() == 4 {
                        break 'found;
                    }
                }
            }
        }
    }
    assert_eq!(grids.len(), 4, "grids with no completion made");
    for (k, grid) in grids.iter().enumerate() {
        let cert = dir.path().join(format!("c{k}"));
        let r = run(
            &[
                "solve",
                "target-sudoku",
                grid.to_str().unwrap(),
                "-q",
                "--certify",
                cert.to_str().unwrap(),
                "--veripb",
            ],
            None,
        );
        assert!(
            r.code == 1 && r.stderr.contains("with a VeriPB proof"),
            "{}: {}",
            grid.display(),
            r.stderr
        );
        let givens = TargetSudoku::parse(
            &std::fs::read_to_string(grid).unwrap(),
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(cert.join("problem.opb")).unwrap(),
            TargetSudoku::problem(&givens, &[]),
            "the puzzle's own problem"
        );
        let (ok, said) = veripb(&cert.join("problem.opb"), &cert.join("proof.pbp"));
        assert!(
            ok && said.contains("s VERIFIED BOUNDS INF <= obj <= INF"),
            "{}: {said}",
            grid.display()
        );
        assert_eq!(
            verify(&cert).stdout,
            format!(
                "VERIFIED: {}: target-sudoku has no solution (DRAT and VeriPB)\n",
                grid.display()
            )
        );
    }
    // No proof of theirs refutes the grid they were made from, which has completions. (One
    // infeasible grid's proof may well verify for another: once propagation alone refutes a
    // problem, every RUP step holds.)
    for k in 0..grids.len() {
        let cert = dir.path().join(format!("c{k}"));
        let feasible = TargetSudoku::parse(&text, &Settings::default()).unwrap();
        let (ok, said) = veripb_refit(
            &TargetSudoku::problem(&feasible, &[]),
            &std::fs::read_to_string(cert.join("proof.pbp")).unwrap(),
            dir.path(),
        );
        assert!(
            !ok && said.contains("reverse unit propagation"),
            "a feasible grid refuted by proof {k}: {said}"
        );
    }
}

#[test]
fn tampered_veripb_refutations_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tatamibari = |file: &str| {
        common::data_dir("tatamibari")
            .join(file)
            .to_str()
            .unwrap()
            .to_string()
    };
    let cert = with_veripb(
        &[
            "solve",
            "tatamibari",
            &tatamibari("codegolf-10x10.txt"),
            "--unique",
        ],
        &dir.path().join("cert"),
        "varisat",
    );
    let other = with_veripb(
        &[
            "solve",
            "tatamibari",
            &tatamibari("codegolf-5x5.txt"),
            "--count",
        ],
        &dir.path().join("other"),
        "varisat",
    );
    let refused = |(v, (ok, said)): (common::Run, (bool, String)), why: &str| {
        assert_eq!(v.code, 1, "{why}: {}{}", v.stdout, v.stderr);
        assert!(
            v.stdout.starts_with("NOT VERIFIED: "),
            "{why}: {}",
            v.stdout
        );
        assert!(!ok, "{why}: veripb accepts it: {said}");
    };
    // The blocked solution dropped from the problem: the formula is satisfiable again.
    let (v, (ok, said)) = tampered(&cert, dir.path(), "problem.opb", |t| {
        let last = t.trim_end().rfind('\n').unwrap() + 1;
        t[..last].replacen(
            &format!(
                "#constraint= {}",
                t.lines().filter(|l| !l.starts_with('*')).count()
            ),
            &format!(
                "#constraint= {}",
                t.lines().filter(|l| !l.starts_with('*')).count() - 1
            ),
            1,
        )
    });
    assert!(
        v.stdout
            .contains("problem.opb is not final.cnf as a problem"),
        "{}",
        v.stdout
    );
    assert!(!ok, "veripb refutes a satisfiable problem: {said}");
    let (opb, pbp) = (
        std::fs::read_to_string(cert.join("problem.opb")).unwrap(),
        std::fs::read_to_string(cert.join("proof.pbp")).unwrap(),
    );
    let last = opb.trim_end().rfind('\n').unwrap() + 1;
    let (ok, said) = veripb_refit(&opb[..last], &pbp, dir.path());
    assert!(
        !ok && said.contains("reverse unit propagation"),
        "veripb refutes a satisfiable problem, its count set right: {said}"
    );
    // The solver's steps removed, the empty clause kept.
    refused(
        tampered(&cert, dir.path(), "proof.pbp", |t| {
            t.lines()
                .filter(|l| !l.starts_with("rup ") || *l == "rup >= 1;")
                .map(|l| format!("{l}\n"))
                .collect()
        }),
        "the steps removed",
    );
    // No conclusion, or an unchecked assumption in place of the proof.
    let (v, (ok, _)) = tampered(&cert, dir.path(), "proof.pbp", |t| {
        t.replace("conclusion UNSAT", "conclusion NONE")
            .lines()
            .filter(|l| !l.starts_with("conclusion NONE"))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
            .replace("end pseudo", "conclusion NONE;\nend pseudo")
    });
    assert!(
        ok && v.code == 1 && v.stdout.starts_with(NOT_REBUILT),
        "{}",
        v.stdout
    );
    let id = pbp
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("conclusion UNSAT : "))
        .unwrap()
        .trim_end_matches(';');
    let none = pbp.replace(&format!("conclusion UNSAT : {id};"), "conclusion NONE;");
    let (ok, said) = veripb_refit(&opb, &none, dir.path());
    assert!(
        ok && said.contains("s VERIFIED NO CONCLUSION"),
        "veripb's own verdict on it: {said}"
    );
    let why = run_veripb(&opb, &none, dir.path(), "s VERIFIED UNSATISFIABLE").unwrap_err();
    assert!(
        why.contains("s VERIFIED NO CONCLUSION; expected s VERIFIED UNSATISFIABLE"),
        "{why}"
    );
    let (v, (ok, said)) = tampered(&cert, dir.path(), "proof.pbp", |t| {
        format!(
            "{}a >= 1;\noutput NONE;\nconclusion UNSAT;\nend pseudo-Boolean proof;\n",
            &t[..t.find('\n').unwrap()
                + 1
                + t[t.find('\n').unwrap() + 1..].find('\n').unwrap()
                + 1]
        )
    });
    assert!(
        ok && said.contains("unchecked assumptions"),
        "veripb's own verdict on it: {said}"
    );
    assert!(
        v.code == 1 && v.stdout.starts_with(NOT_REBUILT),
        "{}",
        v.stdout
    );
    // Another claim's proof: refused, and veripb finds a step that fails on this problem.
    let theirs = std::fs::read_to_string(other.join("proof.pbp")).unwrap();
    refused(
        tampered(&cert, dir.path(), "proof.pbp", |_| theirs.clone()),
        "another claim's proof",
    );
    let (ok, said) = veripb_refit(&opb, &theirs, dir.path());
    assert!(!ok && said.contains("reverse unit propagation"), "{said}");
    // An optimum that has none: Kakkuro under the lenient rules.
    let kakkuro = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/kakkuro.txt");
    let best = dir.path().join("best");
    let r = run(
        &[
            "solve",
            "kakkuro",
            kakkuro.to_str().unwrap(),
            "--lenient",
            "-q",
            "--certify",
            best.to_str().unwrap(),
            "--veripb",
        ],
        None,
    );
    assert!(
        r.code == 0
            && r.stderr
                .contains("no VeriPB proof: kakkuro optima under the lenient rules have none yet"),
        "{}",
        r.stderr
    );
    assert!(!best.join("proof.pbp").exists());
    std::fs::copy(cert.join("proof.pbp"), best.join("proof.pbp")).unwrap();
    std::fs::copy(cert.join("problem.opb"), best.join("problem.opb")).unwrap();
    let v = verify(&best);
    assert!(
        v.code == 1
            && v.stdout
                .contains("proof.pbp: kakkuro optima under the lenient rules have none yet"),
        "{}",
        v.stdout
    );
    // Without --veripb there is none, and the verdict says DRAT only; without --certify the
    // flag is refused.
    let plain = dir.path().join("plain");
    let r = run(
        &[
            "solve",
            "tatamibari",
            &tatamibari("codegolf-10x10.txt"),
            "--unique",
            "-q",
            "--certify",
            plain.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!plain.join("proof.pbp").exists());
    assert_eq!(
        verify(&plain).stdout,
        format!(
            "VERIFIED: {}: tatamibari solution is unique\n",
            tatamibari("codegolf-10x10.txt")
        )
    );
    assert_eq!(
        run(
            &[
                "solve",
                "tatamibari",
                &tatamibari("codegolf-10x10.txt"),
                "--veripb"
            ],
            None
        )
        .code,
        2
    );
}

/// Sudoku's claims are proved against the puzzle's own problem (`sudoku::opb`: equalities,
/// givens, "not this solution" per listed grid), without asking: the encoding, its sequential
/// counters included (16×16), is derived, not trusted. A unique 9×9 and 16×16, a count of
/// hundreds of solutions, and grids with no solution that a clash-free given makes; the blocked
/// solutions and a counter's definition are needed.
#[test]
fn sudoku_claims_are_proved_against_the_puzzles_own_problem() {
    use encodings::genres::sudoku::Sudoku;
    let dir = tempfile::tempdir().unwrap();
    let janko = |f: &str| common::data_dir("sudoku").join(f);
    let text = std::fs::read_to_string(janko("janko-1-9x9.txt")).unwrap();
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    let write = |name: &str, rows: &[Vec<String>]| {
        let file = dir.path().join(name);
        std::fs::write(
            &file,
            rows.iter().map(|r| r.join(" ") + "\n").collect::<String>(),
        )
        .unwrap();
        file
    };
    // 183 solutions: seven givens taken away.
    let mut loose = rows.clone();
    let mut taken = 0;
    for (k, cell) in loose.iter_mut().flatten().enumerate() {
        if cell != "." && k % 3 == 0 && taken < 7 {
            *cell = ".".into();
            taken += 1;
        }
    }
    let mut cases: Vec<(PathBuf, &str, &str)> = vec![
        (
            janko("janko-1-9x9.txt"),
            "--unique",
            "sudoku solution is unique (DRAT and VeriPB)\n",
        ),
        (
            janko("janko-301-16x16.txt"),
            "--unique",
            "sudoku solution is unique (DRAT and VeriPB)\n",
        ),
        (write("loose.txt", &loose), "--count", ""),
    ];
    // 16×16, no solution by pigeonhole: digits 1–4 are kept out of row 1 but for its first
    // three cells (by boxes 2–4 and column 4), whose 16 candidates each make sequential
    // counters. Propagation alone does not refute it.
    let mut pigeon = vec![vec![".".to_string(); 16]; 16];
    for d in 1..=4 {
        for b in 1..=3 {
            pigeon[1 + (d + b) % 3][4 * b + d - 1] = d.to_string();
        }
        pigeon[3 + d][3] = d.to_string();
    }
    cases.push((
        write("pigeon16.txt", &pigeon),
        "",
        "sudoku has no solution (DRAT and VeriPB)\n",
    ));
    // No solution: one more given that clashes with nothing on its face.
    'found: for r in 0..9 {
        for c in 0..9 {
            for d in 1..=9 {
                let clash = (0..9).any(|k| {
                    rows[r][k] == d.to_string()
                        || rows[k][c] == d.to_string()
                        || rows[r / 3 * 3 + k / 3][c / 3 * 3 + k % 3] == d.to_string()
                });
                if rows[r][c] != "." || clash {
                    continue;
                }
                let mut g = rows.clone();
                g[r][c] = d.to_string();
                let file = write(&format!("none-{r}{c}{d}.txt"), &g);
                if run(&["solve", "sudoku", file.to_str().unwrap(), "-q"], None).code == 1 {
                    cases.push((file, "", "sudoku has no solution (DRAT and VeriPB)\n"));
                    if cases.len() == 6 {
                        break 'found;
                    }
                }
            }
        }
    }
    assert_eq!(cases.len(), 6, "grids with no solution made");
    for solver in provers() {
        for (k, (file, flag, want)) in cases.iter().enumerate() {
            let cert = dir.path().join(format!("{solver}-{k}"));
            let mut args = vec![
                "solve",
                "sudoku",
                file.to_str().unwrap(),
                "-q",
                "--solver",
                solver,
                "--certify",
                cert.to_str().unwrap(),
                "--veripb",
            ];
            args.extend((!flag.is_empty()).then_some(*flag));
            let r = run(&args, None);
            assert!(
                r.code <= 1 && r.stderr.contains("with a VeriPB proof"),
                "{args:?}: {}",
                r.stderr
            );
            let claim: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(cert.join("claim.json")).unwrap())
                    .unwrap();
            let board = Sudoku::parse(
                &std::fs::read_to_string(file).unwrap(),
                &Settings::default(),
            )
            .unwrap();
            let listed: Vec<Vec<u8>> = claim["answers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| {
                    Sudoku::read_answer(&board, a.as_str().unwrap())
                        .unwrap()
                        .unwrap()
                        .answer
                })
                .collect();
            assert_eq!(
                std::fs::read_to_string(cert.join("problem.opb")).unwrap(),
                Sudoku::problem(&board, &listed),
                "{args:?}: the puzzle's own problem"
            );
            let (ok, said) = veripb(&cert.join("problem.opb"), &cert.join("proof.pbp"));
            assert!(
                ok && said.contains("s VERIFIED UNSATISFIABLE"),
                "{args:?}: {said}"
            );
            let v = verify(&cert);
            if want.is_empty() {
                assert!(listed.len() > 100, "{}", listed.len());
                assert_eq!(
                    v.stdout,
                    format!(
                        "VERIFIED: {}: sudoku has exactly {} solutions (DRAT and VeriPB)\n",
                        file.display(),
                        listed.len()
                    )
                );
            } else {
                assert_eq!(
                    v.stdout,
                    format!("VERIFIED: {}: {want}", file.display()),
                    "{args:?}: {}",
                    v.stderr
                );
            }
        }
    }
    // A solution dropped from the problem: refused byte for byte, and veripb refuses it too.
    let cert = dir.path().join("varisat-2");
    let (v, (ok, said)) = tampered(&cert, dir.path(), "problem.opb", |t| {
        let at = t.rfind("* not this solution\n").unwrap();
        let count = t.lines().filter(|l| !l.starts_with('*')).count();
        t[..at].replacen(
            &format!("#constraint= {count}"),
            &format!("#constraint= {}", count - 1),
            1,
        )
    });
    assert!(
        v.code == 1 && v.stdout.contains("problem.opb is not the puzzle's problem"),
        "{}",
        v.stdout
    );
    assert!(!ok, "a problem with a solution left refuted: {said}");
    let (opb, pbp) = (
        std::fs::read_to_string(cert.join("problem.opb")).unwrap(),
        std::fs::read_to_string(cert.join("proof.pbp")).unwrap(),
    );
    let (ok, said) = veripb_refit(
        &opb[..opb.rfind("* not this solution\n").unwrap()],
        &pbp,
        dir.path(),
    );
    assert!(
        !ok && said.contains("reverse unit propagation"),
        "a problem with a solution left refuted, its count set right: {said}"
    );
    // The pigeonhole grid's problem is not refuted by propagation alone.
    let cert = dir.path().join("varisat-3");
    let opb = std::fs::read_to_string(cert.join("problem.opb")).unwrap();
    let f = std::fs::read_to_string(cert.join("proof.pbp"))
        .unwrap()
        .lines()
        .find(|l| l.starts_with("f "))
        .unwrap()
        .to_string();
    let (ok, said) = veripb_refit(&opb, &format!("pseudo-Boolean proof version 3.0\n{f}\nrup >= 1;\noutput NONE;\nconclusion UNSAT;\nend pseudo-Boolean proof;\n"), dir.path());
    assert!(!ok && said.contains("reverse unit propagation"), "{said}");
    // Its sequential counters' definitions and clauses, each replaced by a constraint that
    // says nothing (the numbering stays): the solver's steps that name them fail.
    let (v, (ok, said)) = tampered(&cert, dir.path(), "proof.pbp", |t| {
        let (at, end) = (
            t.find("% the sequential counters").unwrap(),
            t.find("% the solver's proof").unwrap(),
        );
        let counters: String = t[at..end].lines().skip(1).map(|_| "rup >= 0;\n").collect();
        assert!(counters.len() > 100, "the proof defines counters");
        format!("{}{counters}{}", &t[..at], &t[end..])
    });
    assert!(
        v.code == 1 && v.stdout.starts_with(NOT_REBUILT),
        "{}",
        v.stdout
    );
    let line: usize = said
        .split("proof.pbp:")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let solver_starts = std::fs::read_to_string(cert.join("proof.pbp"))
        .unwrap()
        .lines()
        .position(|l| l.starts_with("% the solver's proof"))
        .unwrap()
        + 1;
    assert!(
        !ok && said.contains("reverse unit propagation") && line >= solver_starts,
        "a solver step fails (line {line}, the solver's from {solver_starts}): {said}"
    );
    // Without --veripb a sudoku certificate has none, and says DRAT only.
    let plain = dir.path().join("plain");
    assert_eq!(
        run(
            &[
                "solve",
                "sudoku",
                cases[3].0.to_str().unwrap(),
                "-q",
                "--certify",
                plain.to_str().unwrap()
            ],
            None
        )
        .code,
        1
    );
    assert!(!plain.join("proof.pbp").exists());
    assert_eq!(
        verify(&plain).stdout,
        format!(
            "VERIFIED: {}: sudoku has no solution\n",
            cases[3].0.display()
        )
    );
}

/// `solve kakkuro BOARD --certify DIR --veripb` on `solver`: the folder and the score.
fn kakkuro_certified(args: &[&str], dir: &Path, solver: &str) -> (PathBuf, String) {
    let mut all = args.to_vec();
    all.extend([
        "--format",
        "json",
        "--certify",
        dir.to_str().unwrap(),
        "--veripb",
        "--solver",
        solver,
    ]);
    let r = run(&all, None);
    assert_eq!(r.code, 0, "{all:?}: {}", r.stderr);
    assert!(
        r.stderr.contains("with a VeriPB proof"),
        "{all:?}: {}",
        r.stderr
    );
    (
        dir.to_path_buf(),
        common::json_field(&r.stdout, "score")
            .trim_matches('"')
            .to_string(),
    )
}

/// The objective value veripb must conclude, read from the proof's last lines.
fn kakkuro_bound(pbp: &str) -> String {
    let line = pbp
        .lines()
        .rev()
        .find(|l| l.starts_with("conclusion BOUNDS "))
        .expect("a conclusion");
    line.split_whitespace().nth(2).unwrap().to_string()
}

/// Every bundled Kakkuro board's optimum (and the example's on every prover, and a bare
/// contest string's best sides): `veripb` proves the objective's optimum, and `verify` accepts
/// the certificate with DRAT and VeriPB. The score's bound, the lemmas and the dots' "at most
/// one factor" are derived in the proof; the rules' clauses are its problem.
#[test]
fn every_bundled_kakkuro_optimum_verifies_with_veripb() {
    let dir = tempfile::tempdir().unwrap();
    let mut boards: Vec<PathBuf> = std::fs::read_dir(common::data_dir("kakkuro"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    boards.sort();
    assert!(boards.len() >= 8, "{boards:?}");
    let mut runs: Vec<(PathBuf, &str)> = boards.iter().map(|b| (b.clone(), "varisat")).collect();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/kakkuro.txt");
    runs.extend(provers().into_iter().skip(1).map(|p| (example.clone(), p)));
    for (k, (board, solver)) in runs.iter().enumerate() {
        let (cert, score) = kakkuro_certified(
            &["solve", "kakkuro", board.to_str().unwrap()],
            &dir.path().join(format!("c{k}")),
            solver,
        );
        let pbp = std::fs::read_to_string(cert.join("proof.pbp")).unwrap();
        let bound = kakkuro_bound(&pbp);
        if k == 0 {
            let (ok, said) = veripb(&cert.join("problem.opb"), &cert.join("proof.pbp"));
            assert!(
                ok && said.contains(&format!("s VERIFIED BOUNDS {bound} <= obj <= {bound}")),
                "{}: {said}",
                board.display()
            );
        }
        let v = verify(&cert);
        assert_eq!(
            v.stdout,
            format!(
                "VERIFIED: {}: kakkuro optimum {score} (DRAT and VeriPB)\n",
                board.display()
            ),
            "{} ({solver}): {}",
            board.display(),
            v.stderr
        );
    }
    // A bare contest string: the best sides for its numbers.
    let answer = dir.path().join("answer.txt");
    std::fs::write(
        &answer,
        "103488:1,1,8,7,23,24,6,7,2,9,7,7,1,4,2,3,3,5,1,4,9,4,5,8,8\n",
    )
    .unwrap();
    let cert = dir.path().join("fixed");
    let r = run(
        &[
            "check",
            "kakkuro",
            example.to_str().unwrap(),
            "--answer",
            answer.to_str().unwrap(),
            "--certify",
            cert.to_str().unwrap(),
            "--veripb",
        ],
        None,
    );
    assert!(
        r.code == 0 && r.stderr.contains("with a VeriPB proof"),
        "{}",
        r.stderr
    );
    assert_eq!(verify(&cert).stdout, format!("VERIFIED: {}: kakkuro optimum 103488 among the answers with the fixed answer's numbers (DRAT and VeriPB)\n", example.display()));
}

/// Tampered Kakkuro VeriPB certificates: the objective changed where the optimum counts, a
/// definition removed, a false optimum concluded, the proof made from another DRAT proof, the
/// let-through answers changed. `verify` refuses each (it rebuilds the problem and the proof),
/// and so does `veripb` on the edited files.
#[test]
fn tampered_kakkuro_veripb_certificates_are_refused() {
    use encodings::genres::kakkuro::{self, Kakkuro};
    let dir = tempfile::tempdir().unwrap();
    let board = common::data_dir("kakkuro").join("example.txt");
    let (cert, _) = kakkuro_certified(
        &["solve", "kakkuro", board.to_str().unwrap()],
        &dir.path().join("cert"),
        "varisat",
    );
    let refused = |(v, (ok, said)): (common::Run, (bool, String)), why: &str| {
        assert_eq!(v.code, 1, "{why}: {}{}", v.stdout, v.stderr);
        assert!(
            v.stdout.starts_with("NOT VERIFIED: "),
            "{why}: {}",
            v.stdout
        );
        assert!(!ok, "{why}: veripb accepts it: {said}");
    };
    let (opb, pbp) = (
        std::fs::read_to_string(cert.join("problem.opb")).unwrap(),
        std::fs::read_to_string(cert.join("proof.pbp")).unwrap(),
    );
    // The objective's weight of a literal the optimum sets, one more.
    let soli: Vec<&str> = pbp
        .lines()
        .find(|l| l.starts_with("soli "))
        .unwrap()
        .trim_end_matches(';')
        .split_whitespace()
        .skip(1)
        .collect();
    let min = opb.lines().find(|l| l.starts_with("min:")).unwrap();
    let terms: Vec<&str> = min
        .trim_start_matches("min:")
        .trim_end_matches(';')
        .split_whitespace()
        .collect();
    let (coef, var) = terms
        .chunks(2)
        .map(|t| (t[0], t[1]))
        .find(|(_, v)| soli.contains(v))
        .expect("the optimum sets a weighted literal");
    let more = (coef.parse::<i128>().unwrap() + 1).to_string();
    let (v, (ok, said)) = tampered(&cert, dir.path(), "problem.opb", |t| {
        t.replacen(&format!(" {coef} {var} "), &format!(" {more} {var} "), 1)
    });
    assert!(
        v.stdout.contains("problem.opb is not the puzzle's problem"),
        "{}",
        v.stdout
    );
    assert!(!ok, "veripb accepts a changed objective: {said}");
    // A definition removed; the bound's division removed.
    refused(
        tampered(&cert, dir.path(), "proof.pbp", without_first_definition),
        "a definition removed",
    );
    refused(
        tampered(&cert, dir.path(), "proof.pbp", |t| {
            let at = t.find(" d;\n").expect("the division");
            let start = t[..at].rfind(" +").unwrap();
            format!("{}{}", &t[..start + 2], &t[at + 2..])
        }),
        "the division removed",
    );
    // False optima: one better, one worse.
    let bound = kakkuro_bound(&pbp);
    let n: i128 = bound.parse().unwrap();
    for other in [n - 1, n + 1] {
        refused(
            tampered(&cert, dir.path(), "proof.pbp", |t| {
                t.replace(&format!("BOUNDS {bound} "), &format!("BOUNDS {other} "))
                    .replace(&format!(" {bound};"), &format!(" {other};"))
            }),
            "a false optimum",
        );
    }
    // The proof made from final.drat instead of its own formula's refutation: verify rebuilds
    // it from veripb.drat and refuses; veripb refuses the proof made from the wrong one.
    let final_drat = std::fs::read(cert.join("final.drat")).unwrap();
    let (v, _) = tampered(&cert, dir.path(), "veripb.drat", |_| {
        String::from_utf8(final_drat.clone()).unwrap()
    });
    assert!(
        v.code == 1 && v.stdout.starts_with(NOT_REBUILT_OWN),
        "{}",
        v.stdout
    );
    let claim: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cert.join("claim.json")).unwrap()).unwrap();
    let inst = kakkuro::Instance {
        puzzle: Kakkuro::parse(claim["text"].as_str().unwrap(), &Settings::default())
            .unwrap()
            .puzzle,
        fixed: None,
    };
    let read = |v: &serde_json::Value| {
        kakkuro::parse_answer(&inst.puzzle, v.as_str().unwrap())
            .unwrap()
            .answer
    };
    let best = read(&claim["answers"][0]);
    let lemmas: Vec<serde_json::Value> = claim["lemmas"].as_array().unwrap().clone();
    let lemma_drats: Vec<String> = (1..=lemmas.len())
        .map(|k| std::fs::read_to_string(cert.join(format!("lemma-{k}.drat"))).unwrap())
        .collect();
    let listed: Vec<kakkuro::Answer> = claim["veripb_blocked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| read(&b["answer"]))
        .collect();
    let own = std::fs::read_to_string(cert.join("veripb.drat")).unwrap();
    let proof_from = |listed: &[kakkuro::Answer], drat: &str| {
        let drat = drat.to_string();
        let lemmas_read = || Ok(lemma_drats.clone());
        let own_read = || Ok(drat.clone());
        Kakkuro::own_proof(
            &inst,
            &best,
            &lemmas,
            listed,
            &encodings::genre::OwnDrats {
                lemmas: &lemmas_read,
                own: &own_read,
            },
        )
        .unwrap()
    };
    let (o, p, verdict) = proof_from(&listed, &own);
    assert_eq!(
        (&o, &p),
        (&opb, &pbp),
        "the library rebuilds the certificate's files"
    );
    run_veripb(&o, &p, dir.path(), &verdict).expect("the proof as made");
    let (_, wrong, _) = proof_from(&listed, &String::from_utf8(final_drat).unwrap());
    assert!(
        run_veripb(&o, &wrong, dir.path(), &verdict).is_err(),
        "a proof made from another formula's refutation"
    );
    // Each answer the bound let through dropped: verify refuses. Where the formula without it
    // has a model (the answer is needed), veripb refuses the proof made without it too.
    assert!(
        !listed.is_empty(),
        "this board's bound lets answers through"
    );
    let mut needed = 0;
    for k in 0..listed.len() {
        let (v, _) = tampered(&cert, dir.path(), "claim.json", |t| {
            let mut c: serde_json::Value = serde_json::from_str(t).unwrap();
            c["veripb_blocked"].as_array_mut().unwrap().remove(k);
            serde_json::to_string_pretty(&c).unwrap()
        });
        assert!(
            v.code == 1 && v.stdout.starts_with(NOT_REBUILT_OWN),
            "{}",
            v.stdout
        );
        let mut fewer = listed.clone();
        fewer.remove(k);
        let (cnf, _) = Kakkuro::own_formula(&inst, &best, &lemmas, &fewer).unwrap();
        if let puzzle_sat::backends::Proved::Model(_) = puzzle_sat::backends::Backend::Varisat
            .prove(&cnf, &dir.path().join("scratch.drat"))
            .unwrap()
        {
            needed += 1;
            let (_, without, _) = proof_from(&fewer, &own);
            assert!(
                run_veripb(&o, &without, dir.path(), &verdict).is_err(),
                "let-through answer {k} dropped"
            );
        }
    }
    assert!(
        needed > 0,
        "no let-through answer is needed: the test shows nothing"
    );
    // A lemma that says nothing (its maximum at the dot's largest listed factor or above),
    // which nothing proves and which would widen the bound: refused.
    let (v, _) = tampered(&cert, dir.path(), "claim.json", |t| {
        let mut c: serde_json::Value = serde_json::from_str(t).unwrap();
        c["lemmas"][0]["max"] = serde_json::json!(1_000_000_000_000_000u64);
        serde_json::to_string_pretty(&c).unwrap()
    });
    assert!(
        v.code == 1 && v.stdout.contains("a lemma that says nothing"),
        "{}",
        v.stdout
    );
    // A listed answer with a claim that says nothing to prove: refused.
    let (v, _) = tampered(&cert, dir.path(), "claim.json", |t| {
        t.replacen("\"veripb_blocked\"", "\"veripb_blocked_\"", 1)
    });
    assert!(
        v.code == 1 && v.stdout.contains("unknown field"),
        "{}",
        v.stdout
    );
}
