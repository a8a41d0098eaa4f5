//! `encode --cubes N -o DIR` and `decode --cubes DIR`: one formula as cube jobs for any engine
//! and any number of machines, and the join of their results.
//!
//! The folder holds `cube-K.cnf` (the formula `encode` writes, with cube K's literals as unit
//! clauses after it), `cover.cnf` (the formula with each cube's negation as a clause: it is
//! unsatisfiable, which a proof of it shows) and `cubes.txt` (the cubes, one a line). A solver
//! writes `cube-K.out` per cube (its `s`/`v` lines or MiniSat's result file) and, to prove an
//! unsatisfiable one, `cube-K.drat`; `cover.drat` likewise. The join rebuilds the formula and
//! the cubes from the puzzle file and refuses a folder made from another; a cube with no result
//! is refused, a model anywhere is an answer, and all cubes refuted is "no solution": proved
//! when every cube's proof and the cover's pass the DRAT checker, the solvers' word otherwise.

use crate::certify::{check_proof, proof_for_checker};
use crate::dimacs;
use crate::drat::{Limits, DEFAULT_CHECKER};
use crate::input::read_input;
use anyhow::{anyhow, bail, Result};
use encodings::certificate::prove::{cover_formula, in_cube};
use encodings::cnf::cubes::split;
use encodings::cnf::{Cnf, Lit, SizeCounter};
use encodings::genre::Genre;
use std::path::{Path, PathBuf};

/// The most literals `encode --cubes` writes over all its files (about 2.5 GB of DIMACS).
const WRITTEN_CAP: u64 = 1 << 28;

/// How `cubes.txt` starts: the number of cubes asked for (the split stops there, so the join
/// needs it to split again).
const ASKED: &str = "c cubes asked: ";

/// The formula `encode` writes for these flags, and its cubes.
fn cubes_of<P: Genre>(
    inst: &P::Instance,
    name: &str,
    min_score: Option<&str>,
    n: usize,
) -> Result<(Cnf, Vec<String>, Vec<Vec<Lit>>)> {
    let (cnf, _, comments, _) = crate::formula::cnf::<P>(inst, name, min_score, false)?;
    let mut counter = SizeCounter::default();
    P::plain_encode(inst, &mut counter);
    let cubes = split(&cnf, counter.vars, n.max(1));
    Ok((cnf, comments, cubes))
}

fn cubes_text(cubes: &[Vec<Lit>]) -> String {
    cubes
        .iter()
        .map(|c| {
            let lits: Vec<String> = c.iter().map(|l| l.dimacs().to_string()).collect();
            format!("{} 0\n", lits.join(" ")).trim_start().to_string()
        })
        .collect()
}

/// `cubes.txt`: how many cubes were asked for, the formula's size and fingerprint (cubes alike
/// may split different formulas), then the cubes.
fn listing(cnf: &Cnf, n: usize, cubes: &[Vec<Lit>]) -> String {
    format!(
        "{ASKED}{n}\nc formula: {} variables, {} clauses, FNV-1a {}\n{}",
        cnf.num_vars,
        cnf.clauses.len(),
        crate::certify::hash(&dimacs::to_string(cnf, &[])),
        cubes_text(cubes)
    )
}

/// Writes the cube jobs into `dir` (new or empty).
pub fn write<P: Genre>(
    inst: &P::Instance,
    name: &str,
    min_score: Option<&str>,
    n: usize,
    dir: &Path,
) -> Result<crate::output::Done> {
    let empty = std::fs::read_dir(dir).map_or_else(
        |e| e.kind() == std::io::ErrorKind::NotFound,
        |mut d| d.next().is_none(),
    );
    if !empty || std::fs::symlink_metadata(dir).is_ok_and(|m| !m.is_dir()) {
        bail!(
            "{}: encode --cubes needs an empty or new folder",
            dir.display()
        );
    }
    let (cnf, comments, cubes) = cubes_of::<P>(inst, name, min_score, n)?;
    // Each cube is a copy of the formula: bounded, as one formula is.
    let literals: u64 = cnf.clauses.iter().map(|c| c.len() as u64 + 1).sum();
    let total = literals.saturating_mul(cubes.len() as u64 + 1);
    if total > WRITTEN_CAP {
        bail!(
            "{name}: {} cube files of {literals} literals each would write {total} literals, past the {WRITTEN_CAP} encode --cubes writes: ask for fewer cubes",
            cubes.len() + 1
        );
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow!("{}: cannot make the folder: {e}", dir.display()))?;
    let put = |file: &str, text: String| {
        std::fs::write(dir.join(file), text)
            .map_err(|e| anyhow!("{}: cannot write: {e}", dir.join(file).display()))
    };
    let count = cubes.len();
    for (k, cube) in cubes.iter().enumerate() {
        let mut c = comments.clone();
        c.push(format!(
            "cube {} of {count}: the formula with {} as units",
            k + 1,
            cubes_text(std::slice::from_ref(cube)).trim_end()
        ));
        put(
            &format!("cube-{}.cnf", k + 1),
            dimacs::to_string(&in_cube(&cnf, cube), &c),
        )?;
    }
    // An empty cube is the whole formula: it covers every case by itself.
    if !cubes.iter().any(Vec::is_empty) {
        let mut c = comments;
        c.push(
            "the cover: the formula with each cube's negation as a clause; unsatisfiable".into(),
        );
        put(
            "cover.cnf",
            dimacs::to_string(&cover_formula(&cnf, &cubes), &c),
        )?;
    }
    put("cubes.txt", listing(&cnf, n, &cubes))?;
    match count {
        0 => eprintln!(
            "puzzle-sat: unit propagation alone refutes the formula: no cube; cover.cnf in {} is the formula itself (prove it into cover.drat), then decode --cubes {}",
            dir.display(),
            dir.display()
        ),
        _ => eprintln!(
            "puzzle-sat: {count} cube{} written to {}: solve each cube-K.cnf into cube-K.out (and cube-K.drat to prove it), cover.cnf into cover.drat, then decode --cubes {}",
            if count == 1 { "" } else { "s" },
            dir.display(),
            dir.display()
        ),
    }
    Ok(crate::output::Done {
        stdout: String::new(),
        code: crate::output::exit::ANSWER,
    })
}

/// What the cubes' results say.
pub enum Joined {
    /// A cube's solver found a model: its output file.
    Model(PathBuf),
    /// Every cube was refuted; `true` when every proof (and the cover's) was checked.
    Refuted(bool),
}

/// Reads the results in `dir` back (see the module's notes).
pub fn join<P: Genre>(
    inst: &P::Instance,
    name: &str,
    min_score: Option<&str>,
    dir: &Path,
) -> Result<Joined> {
    let listed = read_input(&dir.join("cubes.txt"))?;
    let n = listed
        .text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix(ASKED))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| (1..=crate::certify::MOST_CUBES).contains(&n))
        .ok_or_else(|| {
            anyhow!(
                "{}:1: not a cube list of encode --cubes (its first line is {ASKED:?} and N)",
                listed.name
            )
        })?;
    let (cnf, _, cubes) = cubes_of::<P>(inst, name, min_score, n)?;
    if listing(&cnf, n, &cubes) != listed.text {
        bail!(
            "{}: not the cubes of {name} with these flags: was the folder made from another puzzle file, or with other flags?",
            dir.join("cubes.txt").display()
        );
    }
    let mut proofs = true;
    for k in 1..=cubes.len() {
        let out = dir.join(format!("cube-{k}.out"));
        let read = read_input(&out).map_err(|e| anyhow!("cube {k} has no result: {e:#}"))?;
        let output = dimacs::read_output(&read.text).map_err(|e| anyhow!("{}:{e}", read.name))?;
        if dimacs::model_of(&cnf, output.answer, &read.name)?.is_some() {
            return Ok(Joined::Model(out));
        }
        proofs &= dir.join(format!("cube-{k}.drat")).exists();
    }
    let cover = !cubes.iter().any(Vec::is_empty);
    proofs &= !cover || dir.join("cover.drat").exists();
    if !proofs {
        return Ok(Joined::Refuted(false));
    }
    // Every proof there: each is checked against the formula rebuilt here.
    let private = crate::cleanup::temp_dir("cubes")
        .map_err(|e| anyhow!("cannot make a temporary folder: {e}"))?;
    let check = |formula: &Cnf, proof: &str| -> Result<()> {
        let path = private.path().join("formula.cnf");
        std::fs::write(&path, dimacs::to_string(formula, &[]))
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        // A regular file under the proof cap, read through what was opened (as verify reads).
        let (opened, _open) =
            proof_for_checker(&dir.join(proof), private.path(), proof).map_err(|e| anyhow!(e))?;
        check_proof(DEFAULT_CHECKER, &path, &opened, Limits::default())
            .map_err(|e| anyhow!("{}: {e}", dir.join(proof).display()))
    };
    for (k, cube) in cubes.iter().enumerate() {
        check(&in_cube(&cnf, cube), &format!("cube-{}.drat", k + 1))?;
    }
    if cover {
        check(&cover_formula(&cnf, &cubes), "cover.drat")?;
    }
    Ok(Joined::Refuted(true))
}
