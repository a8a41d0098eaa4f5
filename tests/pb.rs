//! `encode --format opb|wcnf` and `decode` of MaxSAT and PB solvers' output, through solvers
//! this project did not write: clasp (Debian, OPB), RC2 (PyPI python-sat, WCNF) and Exact (PyPI
//! exact, OPB through tests/solvers/exact_opb.py). `.ci/run` installs them; a missing one fails
//! the test, it is not skipped. Their optima must be this program's proved ones.

mod common;

use common::{outside, run};
use std::path::Path;

/// Encodes `input` in `format`, solves it with `solver`, decodes the solver's output, and
/// returns decode's run (JSON).
fn round_trip(puzzle: &str, input: &Path, format: &str, solver: &str, dir: &Path) -> common::Run {
    let formula = dir.join(format!(
        "{}.{format}",
        input.file_name().unwrap().to_string_lossy()
    ));
    let e = run(
        &[
            "encode",
            puzzle,
            input.to_str().unwrap(),
            "--format",
            format,
            "-o",
            formula.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(e.code, 0, "{}", e.stderr);
    let output = dir.join(format!(
        "{}.{solver}.out",
        input.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&output, outside(solver, &formula)).unwrap();
    run(
        &[
            "decode",
            puzzle,
            input.to_str().unwrap(),
            "--model",
            output.to_str().unwrap(),
            "--format",
            "json",
        ],
        None,
    )
}

#[test]
fn p1074_optima_through_clasp_rc2_and_exact() {
    let dir = tempfile::tempdir().unwrap();
    let cases = common::inputs("target-sudoku");
    assert_eq!(cases.len(), 22);
    for input in &cases {
        let want = common::expected(input).trim().to_string();
        // RC2 and Exact take seconds to minutes on the cases with 26 givens or fewer, clasp at
        // most one (docs/formats.md): they get the cases with 30.
        let name = input.file_name().unwrap().to_string_lossy();
        let easy = name.starts_with("sample") || name.as_ref() <= "noip2009-08.in";
        for (format, solver) in [("opb", "clasp"), ("wcnf", "rc2"), ("opb", "exact")] {
            if solver != "clasp" && !easy {
                continue;
            }
            let d = round_trip("target-sudoku", input, format, solver, dir.path());
            let case = format!("{} through {solver}", input.display());
            if want == "-1" {
                assert_eq!(d.code, 1, "{case}: {}{}", d.stdout, d.stderr);
                assert_eq!(
                    common::json_field(&d.stdout, "status"),
                    "\"no_solution\"",
                    "{case}"
                );
            } else {
                assert_eq!(d.code, 0, "{case}: {}", d.stderr);
                assert_eq!(
                    common::json_field(&d.stdout, "status"),
                    "\"optimal\"",
                    "{case}"
                );
                assert_eq!(
                    common::json_field(&d.stdout, "unsat_answers"),
                    "\"unchecked\"",
                    "{case}"
                );
                assert_eq!(common::json_field(&d.stdout, "score"), want, "{case}");
            }
        }
    }
}

#[test]
fn kakkuro_optima_through_rc2_and_exact() {
    let dir = tempfile::tempdir().unwrap();
    // Larger boards need weights past 2^63, which RC2 cannot read, and take Exact a minute
    // (docs/formats.md); tests/kakkuro.rs adds tiny boards against brute force.
    for name in ["example.txt"] {
        let input = common::data_dir("kakkuro").join(name);
        let ours = run(
            &[
                "solve",
                "kakkuro",
                input.to_str().unwrap(),
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(common::json_field(&ours.stdout, "status"), "\"optimal\"");
        for (format, solver) in [("wcnf", "rc2"), ("opb", "exact")] {
            let d = round_trip("kakkuro", &input, format, solver, dir.path());
            assert_eq!(d.code, 0, "{name} through {solver}: {}", d.stderr);
            assert_eq!(
                common::json_field(&d.stdout, "status"),
                "\"optimal\"",
                "{name} through {solver}"
            );
            assert_eq!(
                common::json_field(&d.stdout, "score"),
                common::json_field(&ours.stdout, "score"),
                "{name} through {solver}"
            );
        }
    }
}

/// A solver's output in the forms MaxSAT and PB solvers print, written by hand from a model of
/// the example's formula, and what decode must make of each.
#[test]
fn decode_reads_each_output_form_and_holds_the_solver_to_its_o_line() {
    let dir = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt");
    let example = example.to_str().unwrap();
    let opb = dir.path().join("ts.opb");
    assert_eq!(
        run(
            &[
                "encode",
                "target-sudoku",
                example,
                "--format",
                "opb",
                "-o",
                opb.to_str().unwrap()
            ],
            None
        )
        .code,
        0
    );
    let clasp = outside("clasp", &opb);
    // The model as DIMACS literals, from clasp's `v x1 -x2 …`.
    let lits: Vec<i64> = clasp
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .flat_map(|l| l.split_whitespace())
        .map(|t| {
            if let Some(v) = t.strip_prefix("-x") {
                -v.parse::<i64>().unwrap()
            } else {
                t[1..].parse().unwrap()
            }
        })
        .collect();
    let bits: String = lits
        .iter()
        .map(|&l| if l > 0 { '1' } else { '0' })
        .collect();
    let ints: Vec<String> = lits.iter().map(|l| l.to_string()).collect();
    let value = 2852;
    let top: i64 = {
        // The WCNF's cost is the sum of the weights minus the score.
        let wcnf = run(
            &["encode", "target-sudoku", example, "--format", "wcnf"],
            None,
        )
        .stdout;
        wcnf.lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('h'))
            .map(|l| l.split_whitespace().next().unwrap().parse::<i64>().unwrap())
            .sum()
    };
    let decode = |text: &str| {
        let f = dir.path().join("out");
        std::fs::write(&f, text).unwrap();
        run(
            &[
                "decode",
                "target-sudoku",
                example,
                "--model",
                f.to_str().unwrap(),
            ],
            None,
        )
    };
    let forms = [
        format!("o {}\ns OPTIMUM FOUND\nv {}\n", top - value, bits),
        format!(
            "s OPTIMUM FOUND\no {}\nv {} 0\n",
            top - value,
            ints.join(" ")
        ),
        format!(
            "o -{value}\ns OPTIMUM FOUND\nv {}\n",
            lits.iter()
                .map(|&l| if l > 0 {
                    format!("x{l}")
                } else {
                    format!("~x{}", -l)
                })
                .collect::<Vec<_>>()
                .join(" ")
        ),
    ];
    for text in &forms {
        let d = decode(text);
        assert_eq!(d.code, 0, "{text}: {}", d.stderr);
        assert!(
            d.stdout
                .ends_with("score 2852\noptimal (per the external solver; unchecked)\n"),
            "{}",
            d.stdout
        );
    }
    // A better model than the optimum claimed.
    let d = decode(&format!(
        "o {}\ns OPTIMUM FOUND\nv {bits}\n",
        top - value - 1
    ));
    assert_eq!(d.code, 2, "{}", d.stdout);
    assert!(
        d.stderr
            .contains(":1: the solver says its model's objective is"),
        "{}",
        d.stderr
    );
    // Without OPTIMUM FOUND (a solver stopped early): a valid answer, no more.
    let d = decode(&format!("o {}\ns SATISFIABLE\nv {bits}\n", top - value));
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert!(
        d.stdout
            .ends_with("valid answer (optimality not checked)\n"),
        "{}",
        d.stdout
    );
    // A string of the wrong length, a model breaking a clause, a bad `o` line.
    let d = decode(&format!("o 1\ns OPTIMUM FOUND\nv {}0\n", bits));
    assert_eq!(d.code, 2);
    assert!(
        d.stderr
            .contains(":3: the assignment string gives 600 variables, the formula has 599"),
        "{}",
        d.stderr
    );
    let flipped: String = bits
        .chars()
        .map(|c| if c == '1' { '0' } else { '1' })
        .collect();
    let d = decode(&format!("o 1\ns OPTIMUM FOUND\nv {flipped}\n"));
    assert_eq!(d.code, 2);
    assert!(d.stderr.contains("violates the clause"), "{}", d.stderr);
    let d = decode(&format!("o twelve\ns OPTIMUM FOUND\nv {bits}\n"));
    assert_eq!(d.code, 2);
    assert!(
        d.stderr.contains(":1:3: expected an objective value"),
        "{}",
        d.stderr
    );
    // Two models one after the other (PB `v` lines end in no 0), a string short of the
    // formula's variables, an objective value beside a refutation, a number too long to read.
    let clasp_v: String = clasp
        .lines()
        .filter(|l| l.starts_with("v "))
        .map(|l| format!("{l}\n"))
        .collect();
    let other: String = clasp_v
        .replace(" x", " +x")
        .replace(" -x", " x")
        .replace(" +x", " -x");
    let d = decode(&format!("o -{value}\ns OPTIMUM FOUND\n{clasp_v}{other}"));
    assert_eq!(d.code, 2);
    assert!(d.stderr.contains("both true and false"), "{}", d.stderr);
    let d = decode(&format!("o 1\ns OPTIMUM FOUND\nv {}\n", &bits[..560]));
    assert_eq!(d.code, 2);
    assert!(
        d.stderr
            .contains(":3: the assignment string gives 560 variables, the formula has 599"),
        "{}",
        d.stderr
    );
    let d = decode(&format!(
        "s OPTIMUM FOUND\no -{value}\nv 1 -2 0\nv {bits}\n"
    ));
    assert_eq!(d.code, 2);
    assert!(
        d.stderr
            .contains(":4:3: an assignment string after the terminating 0"),
        "{}",
        d.stderr
    );
    let d = decode("o -2854\ns UNSATISFIABLE\n");
    assert_eq!(d.code, 2);
    assert!(
        d.stderr
            .contains(":1:1: the solver said UNSATISFIABLE but gives an objective value here"),
        "{}",
        d.stderr
    );
    let started = std::time::Instant::now();
    let d = decode(&format!(
        "o 1{}\ns OPTIMUM FOUND\nv {bits}\n",
        "7".repeat(4_000_000)
    ));
    assert_eq!(d.code, 2);
    assert!(
        d.stderr
            .contains("expected an objective value, found \"1777"),
        "{}",
        &d.stderr[..d.stderr.len().min(300)]
    );
    assert!(d.stderr.len() < 400, "the message quotes the whole number");
    assert!(
        started.elapsed().as_secs() < 20,
        "a long o line takes {:?}",
        started.elapsed()
    );
    // An optimisation solver's refutation.
    let d = decode("s UNSATISFIABLE\n");
    assert_eq!(d.code, 1);
    assert_eq!(
        d.stdout,
        "no solution (per the external solver; unchecked)\n"
    );
}

/// A Kakkuro board whose objective has no terms (one gray cell beside one white one, nothing to
/// count): the files still follow the grammars (a term in `min:`, a soft clause), and the
/// solvers' verdicts are `solve`'s.
#[test]
fn an_objective_without_terms_still_makes_valid_files() {
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("k.txt");
    std::fs::write(&board, "# .\n").unwrap();
    let opb = run(
        &[
            "encode",
            "kakkuro",
            board.to_str().unwrap(),
            "--format",
            "opb",
        ],
        None,
    );
    assert_eq!(opb.code, 0, "{}", opb.stderr);
    assert!(opb.stdout.contains("\nmin: +0 x1 ;\n"), "{}", opb.stdout);
    let wcnf = run(
        &[
            "encode",
            "kakkuro",
            board.to_str().unwrap(),
            "--format",
            "wcnf",
        ],
        None,
    );
    assert!(wcnf.stdout.ends_with("1 1 -1 0\n"), "{}", wcnf.stdout);
    let ours = run(
        &[
            "solve",
            "kakkuro",
            board.to_str().unwrap(),
            "--format",
            "json",
        ],
        None,
    );
    for (format, solver) in [("wcnf", "rc2"), ("opb", "exact"), ("opb", "clasp")] {
        let d = round_trip("kakkuro", &board, format, solver, dir.path());
        assert_eq!(d.code, ours.code, "{solver}: {}{}", d.stdout, d.stderr);
        assert_eq!(
            common::json_field(&d.stdout, "status"),
            common::json_field(&ours.stdout, "status"),
            "{solver}"
        );
    }
}

#[test]
fn puzzles_without_a_score_write_decision_problems() {
    let dir = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/tatamibari.txt");
    for format in ["opb", "wcnf"] {
        let f = dir.path().join(format!("t.{format}"));
        let e = run(
            &[
                "encode",
                "tatamibari",
                example.to_str().unwrap(),
                "--format",
                format,
                "-o",
                f.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(e.code, 0, "{}", e.stderr);
        let text = std::fs::read_to_string(&f).unwrap();
        match format {
            "opb" => assert!(!text.contains("min:"), "an OPB without an objective"),
            _ => assert!(
                text.lines()
                    .all(|l| l.starts_with('c') || l.starts_with("h ")),
                "a WCNF with hard clauses only"
            ),
        }
    }
    let f = dir.path().join("t.opb");
    let out = dir.path().join("t.out");
    std::fs::write(&out, outside("clasp", &f)).unwrap();
    let d = run(
        &[
            "decode",
            "tatamibari",
            example.to_str().unwrap(),
            "--model",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert!(d.stdout.ends_with("solved\n"), "{}", d.stdout);
}
