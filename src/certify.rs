//! Certificates on disk (`solve --certify DIR`, `check --certify DIR`) and their verification
//! (`verify DIR`): the driver's side, the files and the programs. What a claim states, its
//! formula and how its proofs are made are `encodings::certificate`'s; here they are written
//! into the folder (with the backends as the prover, and `rate` trimming), read back under
//! caps, and checked by the DRAT checker and `veripb` ([`crate::drat`]). See
//! docs/certificates.md.

use crate::backends::{Backend, Proved};
use crate::dimacs;
pub use crate::drat::DEFAULT_CHECKER;
use crate::drat::{descriptor_path, open_regular, run_checker, Checked, Limits, PROOF_CAP};
use anyhow::{anyhow, bail, Result};
use encodings::certificate::files::{
    comments, cube_file, lemma_comments, lemma_files, readme, readme_cubes, COVER,
};
use encodings::certificate::pb::{pseudo_boolean, DratSource};
use encodings::certificate::prove::{
    cover_formula, in_cube, own_refutation, prove_final, prove_in_cubes, Prover,
    MOST_VERIPB_BLOCKED, OWN_TRIES,
};
use encodings::certificate::{self, Claim, Form, Valid};
use encodings::cnf::{Cnf, Lit};
use encodings::genre::Genre;
use encodings::genre::Optimum;
use encodings::puzzle::{Flag, Puzzle, Settings, Task};
use encodings::solver::Stop;
use serde_json::{json, Value};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod explained;

/// FNV-1a, 64 bits: names the puzzle text in the claim (a change is caught; this is no
/// defence against forgery, which the proof check is).
pub(crate) fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// What the certificate records, besides the formula and the proof.
pub struct Certify<'a, P: Genre> {
    pub dir: &'a Path,
    /// The puzzle file's name and text, as read (header included).
    pub file: &'a str,
    pub text: &'a str,
    pub settings: Settings,
    pub inst: &'a P::Instance,
    /// An incomplete answer the instance was fixed to (`check` on a bare Kakkuro contest
    /// string), as its text.
    pub fixed: Option<&'a str>,
    pub claim: Claim,
    /// The claimed answers: the optimum, the unique solution, or every counted one.
    pub answers: &'a [(P::Answer, P::Checked)],
    pub backend: &'a Backend,
    /// Whether to write a VeriPB proof of a claim that is only a second check of `final.cnf`
    /// (no solution, unique, count); optima whose proof derives the score's encoding get one
    /// regardless.
    pub veripb: bool,
    /// Prove the claim in cubes: at most this many, on this many threads.
    pub cubes: Option<(usize, usize)>,
}

/// Refuses a `--certify` folder that holds anything (or is no folder): a certificate is the
/// folder's whole content, with no stale file beside it.
pub fn usable_dir(dir: &Path) -> Result<()> {
    empty_or_new(dir, "--certify")
}

/// Refuses a folder `flag` would write into unless it is empty or new.
pub fn empty_or_new(dir: &Path, flag: &str) -> Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => match entries.next() {
            None => Ok(()),
            Some(_) => bail!("{}: {flag} needs an empty or new folder", dir.display()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => bail!(
            "{}: {flag} needs an empty or new folder: {e}",
            dir.display()
        ),
    }
}

/// Creates `dir/name`, refusing one that exists (a symbolic link included): nothing is
/// written outside the folder.
pub(crate) fn create_new(dir: &Path, name: &str) -> Result<File> {
    let path = dir.join(name);
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| anyhow!("{}: cannot create: {e}", path.display()))
}

/// Writes the certificate of a proved claim into `c.dir`: `claim.json`, `final.cnf`,
/// `final.drat`, `README.txt`. Returns a line saying what was written.
pub fn write<P: Genre>(c: &Certify<P>) -> Result<String> {
    let started = Instant::now();
    certificate::supports::<P>(c.claim).map_err(|e| anyhow!("no certificate: {e}"))?;
    usable_dir(c.dir)?;
    crate::runner::fits::<P>(c.inst).map_err(|e| anyhow!("no certificate: {e}"))?;
    let score = match c.claim {
        Claim::Optimal => Some(P::score(
            &c.answers
                .first()
                .ok_or_else(|| anyhow!("an optimum without an answer"))?
                .1,
        )),
        _ => None,
    };
    let solvers = c.backend.solvers(Stop::new());
    let lemmas = match c.claim {
        Claim::Optimal => match P::LEMMAS {
            Some(lemmas) => (lemmas.find)(c.inst, &solvers)?,
            None => Vec::new(),
        },
        _ => Vec::new(),
    };
    // Proofs are made in a private folder, then copied in after their units.
    let private = crate::cleanup::temp_dir("certify")
        .map_err(|e| anyhow!("cannot make a temporary folder: {e}"))?;
    let proof_of = |name: &str| private.path().join(name);
    std::fs::create_dir_all(c.dir)
        .map_err(|e| anyhow!("{}: cannot make the folder: {e}", c.dir.display()))?;
    let write = |name: &str, text: &str| {
        create_new(c.dir, name)?
            .write_all(text.as_bytes())
            .map_err(|e| anyhow!("{}: cannot write: {e}", c.dir.join(name).display()))
    };
    let write_proof = |name: &str, units: &[Lit]| -> Result<()> {
        let mut out = std::io::BufWriter::new(create_new(c.dir, name)?);
        let mut proof =
            File::open(proof_of(name)).map_err(|e| anyhow!("{}: {e}", proof_of(name).display()))?;
        units
            .iter()
            .try_for_each(|u| writeln!(out, "{} 0", u.dimacs()))?;
        std::io::copy(&mut proof, &mut out)?;
        out.flush()
            .map_err(|e| anyhow!("{}: cannot write: {e}", c.dir.join(name).display()))
    };
    let proving = Instant::now();
    for (k, lemma) in lemmas.iter().enumerate() {
        let (cnf_name, proof_name) = lemma_files(k);
        let (proving_cnf, units) = certificate::lemma_formula::<P>(c.inst, lemma, Form::Proving)
            .map_err(|e| anyhow!(e))?;
        if !matches!(
            c.backend
                .prove(&proving_cnf, &proof_of(&proof_name))
                .map_err(|e| anyhow!(e))?,
            Proved::Refuted
        ) {
            bail!("internal error: the lemma {lemma} does not hold: no certificate");
        }
        let (lemma_cnf, _) =
            certificate::lemma_formula::<P>(c.inst, lemma, Form::Stated).map_err(|e| anyhow!(e))?;
        write(
            &cnf_name,
            &dimacs::to_string(&lemma_cnf, &lemma_comments::<P>(lemma)),
        )?;
        write_proof(&proof_name, &units)?;
    }
    let prover = Proving(c.backend);
    if let Some((n, threads)) = c.cubes {
        if c.veripb {
            bail!(
                "no certificate: --veripb takes no cubes (its proof is made from one DRAT proof)"
            );
        }
        let cubed = prove_in_cubes::<P>(
            &prover,
            c.inst,
            c.claim,
            c.answers,
            score.as_ref(),
            &lemmas,
            n,
            threads,
            &|k| proof_of(&cube_file(k)),
            &proof_of(COVER),
        )
        .map_err(|e| anyhow!(e))?;
        write(
            "final.cnf",
            &dimacs::to_string(&cubed.stated, &comments::<P>(c.claim)),
        )?;
        for k in 0..cubed.cubes.len() {
            write_proof(&cube_file(k), &cubed.units)?;
        }
        if !cubed.cubes.iter().any(Vec::is_empty) {
            write_proof(COVER, &cubed.units)?;
        }
        let cubes: Vec<Vec<i32>> = cubed
            .cubes
            .iter()
            .map(|c| c.iter().map(|l| l.dimacs()).collect())
            .collect();
        let blocked = cubed.blocked;
        let prove_seconds = proving.elapsed().as_secs_f64();
        let mut claim = claim_json(
            c,
            score.as_ref(),
            &lemmas,
            &blocked,
            &cubed.stated,
            prove_seconds,
            started,
        );
        claim["cubes"] = json!(cubes);
        write(
            "claim.json",
            &(serde_json::to_string_pretty(&claim)? + "\n"),
        )?;
        write("README.txt", &readme_cubes::<P>(c.claim, cubes.len()))?;
        return Ok(format!("certificate of the claim '{}' written to {} in {} cubes ({} blocked answer{}, proved in {prove_seconds:.2} s)", c.claim, c.dir.display(), cubes.len(), blocked.len(), if blocked.len() == 1 { "" } else { "s" }));
    }
    let (blocked, cnf, units) = prove_final::<P>(
        &prover,
        c.inst,
        c.claim,
        c.answers,
        score.as_ref(),
        &lemmas,
        &solvers,
        &proof_of("final.drat"),
    )
    .map_err(|e| anyhow!(e))?;
    write(
        "final.cnf",
        &dimacs::to_string(&cnf, &comments::<P>(c.claim)),
    )?;
    write_proof("final.drat", &units)?;
    // The VeriPB certificate beside it, made from the same DRAT proof (see [`pseudo_boolean`]).
    // A failure to make it is said, not fatal: the certificate then claims less.
    let listed: Vec<P::Answer> = blocked.iter().map(|(a, _)| a.clone()).collect();
    let mut veripb = false;
    let mut no_veripb = None;
    // An optimum whose VeriPB proof refutes a formula of its own: that refutation first.
    let mut own_listed: Option<Vec<Valid<P>>> = None;
    if let (Claim::Optimal, Some(Optimum::Own { formula, .. }), Some(s), true) =
        (c.claim, P::PB_OPTIMUM.as_ref(), score.as_ref(), c.veripb)
    {
        let seed = if blocked.len() <= OWN_TRIES {
            blocked.clone()
        } else {
            Vec::new()
        };
        match own_refutation::<P>(
            &prover,
            c.inst,
            c.answers,
            *formula,
            s,
            &lemmas,
            seed,
            &proof_of("veripb.drat"),
        ) {
            Ok(l) => own_listed = Some(l),
            Err(why) => no_veripb = Some(why),
        }
    }
    // As `verify` reads them: final.drat with its derived units first, the lemmas' as written.
    let units_text: String = units
        .iter()
        .map(|u| format!("{} 0\n", u.dimacs()))
        .collect();
    let drats = Drats::new(
        proof_of("final.drat"),
        units_text,
        c.dir,
        lemmas.len(),
        proof_of("veripb.drat"),
    );
    let own_answers: Vec<P::Answer> = own_listed
        .iter()
        .flatten()
        .map(|(a, _)| a.clone())
        .collect();
    let made = match no_veripb.take() {
        Some(why) => Err(why),
        None => pseudo_boolean::<P>(
            c.inst,
            c.claim,
            c.answers.first().map(|a| &a.0),
            score.as_ref(),
            &lemmas,
            &listed,
            &units,
            &cnf,
            c.veripb,
            &own_answers,
            &drats,
        ),
    };
    match made {
        Ok(Some(pb)) => {
            write("problem.opb", &pb.problem)?;
            write("proof.pbp", &pb.proof)?;
            if own_listed.is_some() {
                write_proof("veripb.drat", &[])?;
            }
            veripb = true;
        }
        Ok(None) => {}
        Err(why) => no_veripb = Some(why),
    }
    let prove_seconds = proving.elapsed().as_secs_f64();
    let text_of = |(a, k): &(P::Answer, P::Checked)| P::render(c.inst, a, k, P::INFO.machine);
    let mut claim = claim_json(
        c,
        score.as_ref(),
        &lemmas,
        &blocked,
        &cnf,
        prove_seconds,
        started,
    );
    // The answers an optimum's own VeriPB proof lists, where it has one.
    if let Some(l) = own_listed.as_ref().filter(|_| veripb) {
        claim["veripb_blocked"] = l
            .iter()
            .map(|b| json!({ "answer": text_of(b), "score": P::score(&b.1).to_string() }))
            .collect();
    }
    write(
        "claim.json",
        &(serde_json::to_string_pretty(&claim)? + "\n"),
    )?;
    write("README.txt", &readme::<P>(c.claim, veripb))?;
    let with = match (veripb, no_veripb) {
        (true, _) => ", with a VeriPB proof".to_string(),
        (false, Some(why)) => format!("; no VeriPB proof: {why}"),
        _ => String::new(),
    };
    Ok(format!("certificate of the claim '{}' written to {} ({} blocked answer{}, proved in {prove_seconds:.2} s{with})", c.claim, c.dir.display(), blocked.len(), if blocked.len() == 1 { "" } else { "s" }))
}

/// `claim.json`'s fields common to every certificate: the puzzle, the claim, its answers and the
/// answers `final.cnf` blocks, and what proving it took.
fn claim_json<P: Genre>(
    c: &Certify<P>,
    score: Option<&P::Score>,
    lemmas: &[Value],
    blocked: &[Valid<P>],
    cnf: &Cnf,
    prove_seconds: f64,
    started: Instant,
) -> Value {
    let text_of = |(a, k): &(P::Answer, P::Checked)| P::render(c.inst, a, k, P::INFO.machine);
    json!({
        "puzzle": P::INFO.name,
        "file": c.file,
        "hash": hash(c.text),
        "text": c.text,
        "lenient": c.settings.lenient,
        "fixed": c.fixed,
        "claim": c.claim.name(),
        "score": score.map(|s| s.to_string()),
        "lemmas": lemmas,
        "answers": c.answers.iter().map(text_of).collect::<Vec<_>>(),
        "blocked": blocked.iter().map(|b| json!({ "answer": text_of(b), "score": (P::TASK == Task::Maximize).then(|| P::score(&b.1).to_string()) })).collect::<Vec<_>>(),
        "backend": c.backend.name(),
        "variables": cnf.num_vars,
        "clauses": cnf.clauses.len(),
        "prove_seconds": prove_seconds,
        "seconds": started.elapsed().as_secs_f64(),
    })
}

/// Trims the DRAT proof `proof` of `cnf` to the lemmas its refutation uses, where `rate` is
/// installed (`rate -d -l`, which checks it too): `veripb` checks every step it is given, forward,
/// where `rate` checks backwards from the empty clause and skips the rest (bench-10x10-seed3:
/// 55,732 lemmas to 14,603, `veripb` 14 s to 5 s). Its deletions are dropped. Left whole
/// otherwise, or if `rate` refuses it (the VeriPB proof then fails as it would have).
pub(crate) fn trim(cnf: &Cnf, proof: &Path) {
    let Some(dir) = proof.parent() else { return };
    let (formula, trimmed) = (dir.join("own.cnf"), dir.join("own-trimmed.drat"));
    if std::fs::write(&formula, dimacs::to_string(cnf, &[])).is_err() {
        return;
    }
    let checker = format!(
        "rate -d -l {} {{cnf}} {{proof}}",
        shell_words::quote(&trimmed.to_string_lossy())
    );
    if let Ok(Checked::Accepted) =
        run_checker(&checker, &formula, proof, Limits::default(), || false)
    {
        // Without its deletions, which the VeriPB proof drops anyway: the lemmas alone.
        if let Ok(text) = std::fs::read_to_string(&trimmed) {
            let lemmas: String = text
                .lines()
                .filter(|l| !l.starts_with('d'))
                .map(|l| format!("{l}\n"))
                .collect();
            let _ = std::fs::write(proof, lemmas);
        }
        let _ = std::fs::remove_file(&trimmed);
    }
    let _ = std::fs::remove_file(&formula);
}

/// The backend as a prover, trimming with `rate` where it is installed.
struct Proving<'a>(&'a Backend);

impl Prover for Proving<'_> {
    fn prove(&self, cnf: &Cnf, proof: &Path) -> Result<Proved, String> {
        self.0.prove(cnf, proof)
    }

    fn proving_solver(
        &self,
        proof: &Path,
        stop: Stop,
    ) -> Result<Option<Box<dyn encodings::solver::Solver>>, String> {
        self.0.proving_solver(proof, stop)
    }

    fn trim(&self, cnf: &Cnf, proof: &Path) {
        trim(cnf, proof)
    }
}

/// The largest DRAT proof a VeriPB proof is made from (and checked from, by `verify`): it is read
/// whole, and its translation is about three times as large.
const VERIPB_FROM_CAP: u64 = 32 << 20;

/// Where a VeriPB proof's DRAT proofs come from, read only when the proof needs them, each
/// capped at what is left of [`VERIPB_FROM_CAP`] for them together (they are read whole, and a
/// VeriPB proof is about three times as large as what it is made from).
struct Drats {
    /// final.drat, and the derived units to put before it.
    last: PathBuf,
    units: String,
    /// The lemmas' DRAT proofs, in order.
    lemmas: Vec<PathBuf>,
    /// veripb.drat: the refutation of the formula of an optimum's own proof.
    own: PathBuf,
    /// What is left of the cap.
    left: std::cell::Cell<u64>,
}

impl DratSource for Drats {
    fn last(&self) -> Result<String, String> {
        self.read(&self.last, &self.units)
    }

    fn lemmas(&self) -> Result<Vec<String>, String> {
        self.lemmas.iter().map(|l| self.read(l, "")).collect()
    }

    fn own(&self) -> Result<String, String> {
        self.read(&self.own, "")
    }
}

impl Drats {
    /// `lemmas` lemma proofs in `dir`, named as the certificate names them.
    fn new(last: PathBuf, units: String, dir: &Path, lemmas: usize, own: PathBuf) -> Drats {
        let lemmas = (0..lemmas).map(|k| dir.join(lemma_files(k).1)).collect();
        Drats {
            last,
            units,
            lemmas,
            own,
            left: std::cell::Cell::new(VERIPB_FROM_CAP),
        }
    }

    /// A DRAT proof's text with `prefix` before it (derived units), taken from what is left.
    fn read(&self, path: &Path, prefix: &str) -> Result<String, String> {
        let left = self.left.get();
        let cap = left.saturating_sub(prefix.len() as u64);
        within(path, cap).map_err(|_| format!("no VeriPB proof is made from {}: the DRAT proofs one is made from are capped at {VERIPB_FROM_CAP} bytes together", path.display()))?;
        let bytes =
            read_capped(path, cap).map_err(|e| format!("no VeriPB proof is made from {e}"))?;
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{} is not text", path.display()))?;
        self.left
            .set(left - prefix.len() as u64 - text.len() as u64);
        Ok(prefix.to_string() + &text)
    }
}

/// The most `verify` reads of `claim.json`.
pub const CLAIM_CAP: u64 = 256 << 20;

/// The most JSON values `verify` parses in `claim.json`: a value in memory takes tens of bytes
/// where its text may take two (`0,`), so the byte cap alone does not bound memory. A claim
/// holds a few per answer (answers are strings): 100,000 let-through answers take 400,000.
pub const CLAIM_VALUES: usize = 4_000_000;

/// About how many values a JSON text holds (its separators and openings outside strings, each
/// of which starts at most one value), counted without parsing it.
fn json_values(bytes: &[u8]) -> usize {
    let (mut n, mut in_string, mut escaped) = (1, false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b'[' | b'{' | b':' => n += 1,
                _ => {}
            }
        }
    }
    n
}

/// The first `n` bytes of a certificate's file, or all if it is shorter.
fn read_at_most(path: &Path, n: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    open_regular(path)?
        .take(n)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(bytes)
}

/// Refuses a file that says it is larger than `cap` bytes, before reading it.
fn within(path: &Path, cap: u64) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.len() > cap => Err(format!("{} is larger than {cap} bytes", path.display())),
        _ => Ok(()),
    }
}

/// A certificate's file whole, refused past `cap` bytes before more is read.
fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    within(path, cap)?;
    let bytes = read_at_most(path, cap + 1)?;
    if bytes.len() as u64 > cap {
        return Err(format!("{} is larger than {cap} bytes", path.display()));
    }
    Ok(bytes)
}

/// A proof as the checker is to read it: the regular file opened here, which the checker reads
/// through this process's descriptor (`/proc/PID/fd/N`), so it reads what was opened whatever
/// the folder holds by then, with nothing copied; where there is no `/proc`, a private copy in
/// `private`. Keep the file open until the checker is done.
pub(crate) fn proof_for_checker(
    path: &Path,
    private: &Path,
    name: &str,
) -> Result<(PathBuf, Option<File>), String> {
    let file = open_regular(path)?;
    let size = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if size > PROOF_CAP {
        return Err(format!(
            "{} is larger than {PROOF_CAP} bytes",
            path.display()
        ));
    }
    if let Some(fd) = descriptor_path(&file) {
        return Ok((fd, Some(file)));
    }
    copy_capped(path, &private.join(name), PROOF_CAP)?;
    Ok((private.join(name), None))
}

/// Copies a certificate's file to `to` (a new file), refused past `cap` bytes.
fn copy_capped(path: &Path, to: &Path, cap: u64) -> Result<(), String> {
    within(path, cap)?;
    let mut from = open_regular(path)?.take(cap + 1);
    let mut out = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(to)
        .map_err(|e| format!("{}: {e}", to.display()))?;
    let copied =
        std::io::copy(&mut from, &mut out).map_err(|e| format!("{}: {e}", path.display()))?;
    if copied > cap {
        return Err(format!("{} is larger than {cap} bytes", path.display()));
    }
    Ok(())
}

/// Compares a stored formula with the rebuilt one, reading at most one byte past its length,
/// and writes the rebuilt one to `private`, where the checker reads it: the checker gets
/// exactly the bytes compared, whatever the stored file does afterwards.
fn same_formula(dir: &Path, name: &str, rebuilt: &str, private: &Path) -> Result<bool, String> {
    let stored = read_at_most(&dir.join(name), rebuilt.len() as u64 + 1)?;
    std::fs::write(private.join(name), rebuilt)
        .map_err(|e| format!("{}: {e}", private.join(name).display()))?;
    Ok(stored == rebuilt.as_bytes())
}

/// `verify DIR`'s first step: the claim, read with caps, once the checker is known to be
/// there; the caller picks the puzzle it names and runs [`verify_claim`] for it.
pub fn read_claim(dir: &Path, checker: &str) -> Result<Value> {
    // A checker that is not there is a missing tool (exit 2), not a certificate that failed.
    checker_installed(checker)?;
    let path = dir.join("claim.json");
    let bytes = read_capped(&path, CLAIM_CAP).map_err(|e| anyhow!("cannot read: {e}"))?;
    if json_values(&bytes) > CLAIM_VALUES {
        bail!(
            "{}: more than {CLAIM_VALUES} JSON values, more than any certificate writes",
            path.display()
        );
    }
    serde_json::from_slice(&bytes).map_err(|e| anyhow!("{}: not JSON: {e}", path.display()))
}

/// The fields `claim.json` may have; any other is refused (it would say something unchecked).
const FIELDS: [&str; 18] = [
    "puzzle",
    "file",
    "hash",
    "text",
    "lenient",
    "fixed",
    "claim",
    "score",
    "lemmas",
    "answers",
    "blocked",
    "veripb_blocked",
    "cubes",
    "backend",
    "variables",
    "clauses",
    "prove_seconds",
    "seconds",
];

/// The puzzle text of `claim.json`, once it matches its hash and names no other puzzle.
fn puzzle_text<P: Genre>(claim: &Value) -> Result<&str, String> {
    let field = |k: &str| claim.get(k).ok_or_else(|| format!("claim.json has no {k}"));
    let text = field("text")?
        .as_str()
        .ok_or("claim.json: text is not a string")?;
    if field("hash")?.as_str() != Some(&hash(text)) {
        return Err("the puzzle text does not match its hash".into());
    }
    if let Some(named) = encodings::puzzle::header(text).filter(|&h| h != P::INFO.name) {
        return Err(format!(
            "the puzzle text's header names {named:?}, not {}",
            P::INFO.name
        ));
    }
    Ok(text)
}

/// The checks of `verify`, in order; the first that fails is the reason.
pub fn verify_claim<P: Genre>(
    dir: &Path,
    claim: &Value,
    checker: &str,
    limits: Limits,
) -> Result<String, String> {
    let object = claim.as_object().ok_or("claim.json is not an object")?;
    if let Some(k) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("claim.json has an unknown field {k:?}"));
    }
    let field = |k: &str| claim.get(k).ok_or_else(|| format!("claim.json has no {k}"));
    let text = puzzle_text::<P>(claim)?;
    let kind = field("claim")?.as_str().unwrap_or("");
    let kind = Claim::ALL
        .into_iter()
        .find(|c| c.name() == kind)
        .ok_or_else(|| format!("unknown claim {kind:?}"))?;
    certificate::supports::<P>(kind)?;
    let lenient = field("lenient")?
        .as_bool()
        .ok_or("claim.json: lenient is not true or false")?;
    if lenient && !P::flags().contains(&Flag::Lenient) {
        return Err(format!("claim.json: {} has no lenient rules", P::INFO.name));
    }
    if kind != Claim::Optimal && !claim.get("score").is_none_or(Value::is_null) {
        return Err(format!("claim.json: a '{kind}' claim has no score"));
    }
    let settings = Settings { lenient };
    let (body, _) = encodings::puzzle::without_header(text);
    let mut inst =
        P::parse(body, &settings).map_err(|e| format!("the puzzle text does not parse: {e}"))?;
    let fixed = match claim.get("fixed").unwrap_or(&Value::Null) {
        Value::Null => None,
        Value::String(fixed) => {
            let read = P::read_answer(&inst, fixed)
                .map_err(|e| format!("the fixed answer: {e}"))?
                .map_err(|v| format!("the fixed answer: {v}"))?;
            if read.complete {
                return Err("the fixed answer is complete: it leaves nothing open".into());
            }
            let completion = P::COMPLETION.ok_or_else(|| {
                format!(
                    "{} answers are always complete: a fixed answer means nothing",
                    P::INFO.name
                )
            })?;
            inst = (completion.fix)(&inst, &read.answer);
            Some(read.answer)
        }
        _ => return Err("claim.json: fixed is not a string".into()),
    };
    // Before anything the size of the formula is built (what `solve` refuses, so is this).
    crate::runner::fits::<P>(&inst).map_err(|e| e.to_string())?;
    // Each listed answer, validated, with the score recorded beside it.
    type Listed<P> = (
        <P as Puzzle>::Answer,
        <P as Puzzle>::Checked,
        Option<String>,
    );
    let read_all = |key: &str| -> Result<Vec<Listed<P>>, String> {
        let list = match (key, claim.get(key)) {
            ("veripb_blocked", None) => return Ok(Vec::new()),
            _ => field(key)?
                .as_array()
                .ok_or(format!("claim.json: {key} is not a list"))?,
        };
        let mut out = Vec::new();
        for (k, item) in list.iter().enumerate() {
            let at = || {
                format!(
                    "{} {}",
                    match key {
                        "answers" => "answer",
                        "blocked" => "blocked answer",
                        _ => "VeriPB blocked answer",
                    },
                    k + 1
                )
            };
            let (text, recorded) = match (key, item) {
                (_, Value::String(s)) => (s.as_str(), None),
                ("blocked" | "veripb_blocked", Value::Object(m))
                    if m.keys().all(|k| k == "answer" || k == "score") =>
                {
                    let recorded = match m.get("score").unwrap_or(&Value::Null) {
                        Value::Null => None,
                        Value::String(s) if P::TASK == Task::Maximize => Some(s.clone()),
                        _ => {
                            return Err(format!(
                                "{}: a score that is no {} score",
                                at(),
                                P::INFO.name
                            ))
                        }
                    };
                    (
                        m.get("answer")
                            .and_then(Value::as_str)
                            .ok_or_else(|| format!("{}: no answer", at()))?,
                        recorded,
                    )
                }
                _ => {
                    return Err(format!(
                        "{}: neither an answer nor an answer with its score",
                        at()
                    ))
                }
            };
            let read = P::read_answer(&inst, text)
                .map_err(|e| format!("{}: {e}", at()))?
                .map_err(|v| format!("{}: {v}", at()))?;
            if !read.complete {
                return Err(format!("{}: incomplete", at()));
            }
            if fixed
                .as_ref()
                .zip(P::COMPLETION)
                .is_some_and(|(f, c)| !(c.completes)(f, &read.answer))
            {
                return Err(format!("{} does not agree with the fixed answer", at()));
            }
            let checked = P::check(&inst, &read.answer)
                .map_err(|v| format!("{} breaks a rule: {v}", at()))?;
            // A score written into the answer itself (Kakkuro's contest string) is part of what
            // the file says: it must be the exact one too.
            if let Some(own) = read
                .claimed
                .as_ref()
                .filter(|&c| *c != P::score(&checked).to_string())
            {
                return Err(format!(
                    "{}: the answer claims the score {own}, its exact score is {}",
                    at(),
                    P::score(&checked)
                ));
            }
            if let Some(r) = &recorded {
                let exact = P::score(&checked).to_string();
                if *r != exact {
                    return Err(format!("{}: recorded score {r}, exact score {exact}", at()));
                }
            }
            out.push((read.answer, checked, recorded));
        }
        Ok(out)
    };
    let answers = read_all("answers")?;
    let blocked = read_all("blocked")?;
    if claim
        .get("veripb_blocked")
        .and_then(Value::as_array)
        .is_some_and(|l| l.len() > MOST_VERIPB_BLOCKED)
    {
        return Err(format!("claim.json: more than {MOST_VERIPB_BLOCKED} VeriPB blocked answers, more than any certificate lists"));
    }
    let own_blocked = read_all("veripb_blocked")?;
    let score = match kind {
        Claim::Optimal => {
            let [(_, best, _)] = &answers[..] else {
                return Err("an optimality claim lists one answer".into());
            };
            let claimed = field("score")?
                .as_str()
                .ok_or("claim.json: score is not a string")?;
            let exact = P::score(best);
            if exact.to_string() != claimed {
                return Err(format!(
                    "the claimed score {claimed} is not the answer's exact score {exact}"
                ));
            }
            // A blocked answer better than the claim would make the formula cut it: refuse.
            if let Some((_, b, _)) = blocked
                .iter()
                .chain(&own_blocked)
                .find(|(_, b, _)| P::score(b) > exact)
            {
                return Err(format!(
                    "a blocked answer scores {}, more than the claimed {exact}",
                    P::score(b)
                ));
            }
            Some(exact)
        }
        Claim::NoSolution | Claim::Unique | Claim::Count => {
            let expected: Vec<&P::Answer> = answers.iter().map(|a| &a.0).collect();
            let got: Vec<&P::Answer> = blocked.iter().map(|a| &a.0).collect();
            if expected != got {
                return Err("the blocked answers are not the claimed ones".into());
            }
            match kind {
                Claim::NoSolution if !answers.is_empty() => {
                    return Err("a no-solution claim lists answers".into())
                }
                Claim::Unique if answers.len() != 1 => {
                    return Err("a uniqueness claim lists one solution".into())
                }
                _ => {}
            }
            if (1..answers.len()).any(|i| answers[..i].iter().any(|a| a.0 == answers[i].0)) {
                return Err("an answer is listed twice".into());
            }
            None
        }
    };
    let lemmas: Vec<Value> = match claim.get("lemmas").unwrap_or(&Value::Null) {
        Value::Null => Vec::new(),
        Value::Array(list) => list.clone(),
        _ => return Err("claim.json: lemmas is not a list".into()),
    };
    if kind != Claim::Optimal && !lemmas.is_empty() {
        return Err("only an optimality claim has lemmas".into());
    }
    // The checker reads only private copies: the formulas as rebuilt, the proofs as copied.
    let private = crate::cleanup::temp_dir("verify")
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let private = private.path();
    for (k, lemma) in lemmas.iter().enumerate() {
        let (cnf_name, proof_name) = lemma_files(k);
        let rebuilt = dimacs::to_string(
            &certificate::lemma_formula::<P>(&inst, lemma, Form::Stated)?.0,
            &lemma_comments::<P>(lemma),
        );
        if !same_formula(dir, &cnf_name, &rebuilt, private)? {
            return Err(format!("{cnf_name} is not lemma {}'s formula", k + 1));
        }
        let (proof, _open) = proof_for_checker(&dir.join(&proof_name), private, &proof_name)?;
        check_proof(checker, &private.join(&cnf_name), &proof, limits)
            .map_err(|e| format!("lemma {}: {e}", k + 1))?;
    }
    let list: Vec<P::Answer> = blocked.into_iter().map(|(a, _, _)| a).collect();
    let cnf = certificate::formula::<P>(&inst, kind, score.as_ref(), &lemmas, &list)?;
    let rebuilt = dimacs::to_string(&cnf, &comments::<P>(kind));
    if !same_formula(dir, "final.cnf", &rebuilt, private)? {
        return Err("final.cnf is not the claim's formula".into());
    }
    if let Some(cubes) = claim.get("cubes") {
        let cubes = read_cubes(cubes, cnf.num_vars)?;
        if std::fs::symlink_metadata(dir.join("proof.pbp")).is_ok() {
            return Err(
                "a certificate in cubes has no VeriPB proof, but there is proof.pbp".into(),
            );
        }
        for (k, cube) in cubes.iter().enumerate() {
            let name = cube_file(k);
            let formula = format!("cube-{}.cnf", k + 1);
            let text = dimacs::to_string(&in_cube(&cnf, cube), &[]);
            std::fs::write(private.join(&formula), text)
                .map_err(|e| format!("{}: {e}", private.join(&formula).display()))?;
            let (proof, _open) = proof_for_checker(&dir.join(&name), private, &name)?;
            check_proof(checker, &private.join(&formula), &proof, limits)
                .map_err(|e| format!("cube {}: {e}", k + 1))?;
            std::fs::remove_file(private.join(&formula)).ok();
        }
        // An empty cube is the whole formula: its proof covers every case by itself.
        if !cubes.iter().any(Vec::is_empty) {
            let text = dimacs::to_string(&cover_formula(&cnf, &cubes), &[]);
            std::fs::write(private.join("cover.cnf"), text)
                .map_err(|e| format!("{}: {e}", private.join("cover.cnf").display()))?;
            let (proof, _open) = proof_for_checker(&dir.join(COVER), private, COVER)?;
            check_proof(checker, &private.join("cover.cnf"), &proof, limits)
                .map_err(|e| format!("the cover: {e}"))?;
        }
        let what = proved::<P>(
            kind,
            score.as_ref(),
            answers.len(),
            fixed.is_some(),
            lenient,
        );
        return Ok(format!(
            "{}: {what} (in {} cube{})",
            named::<P>(dir, claim, text),
            cubes.len(),
            if cubes.len() == 1 { "" } else { "s" }
        ));
    }
    let (proof, _open) = proof_for_checker(&dir.join("final.drat"), private, "final.drat")?;
    check_proof(checker, &private.join("final.cnf"), &proof, limits)?;
    // A VeriPB proof, where there is one: rebuilt from final.drat as `--certify` makes it (see
    // [`pseudo_boolean`]), required byte for byte with its problem, and checked by veripb.
    let pbp = std::fs::symlink_metadata(dir.join("proof.pbp")).is_ok();
    if claim.get("veripb_blocked").is_some() {
        let own =
            kind == Claim::Optimal && matches!(P::PB_OPTIMUM.as_ref(), Some(Optimum::Own { .. }));
        if !own {
            return Err(format!(
                "claim.json: a '{kind}' claim of {} lists no VeriPB blocked answers",
                P::INFO.name
            ));
        }
        if !pbp {
            return Err(
                "claim.json lists VeriPB blocked answers, but there is no proof.pbp".into(),
            );
        }
    }
    let veripb = match pbp {
        false => false,
        true => {
            let best = answers.first().map(|a| &a.0);
            let drats = Drats::new(
                dir.join("final.drat"),
                String::new(),
                dir,
                lemmas.len(),
                dir.join("veripb.drat"),
            );
            let own_list: Vec<P::Answer> = own_blocked.iter().map(|(a, _, _)| a.clone()).collect();
            let pb = pseudo_boolean::<P>(
                &inst,
                kind,
                best,
                score.as_ref(),
                &lemmas,
                &list,
                &[],
                &cnf,
                true,
                &own_list,
                &drats,
            )
            .map_err(|e| format!("proof.pbp: {e}"))?
            .ok_or("proof.pbp: this claim has no VeriPB proof")?;
            if !same_formula(dir, "problem.opb", &pb.problem, private)? {
                return Err(format!("problem.opb is not {}", pb.what));
            }
            if !same_formula(dir, "proof.pbp", &pb.proof, private)? {
                return Err(format!(
                    "proof.pbp is not the VeriPB proof made from {}",
                    pb.from
                ));
            }
            crate::drat::run_veripb(
                &private.join("problem.opb"),
                &private.join("proof.pbp"),
                &pb.verdict,
                limits,
            )?;
            true
        }
    };
    let mut what = proved::<P>(
        kind,
        score.as_ref(),
        answers.len(),
        fixed.is_some(),
        lenient,
    );
    if veripb {
        what += " (DRAT and VeriPB)";
    }
    Ok(format!("{}: {what}", named::<P>(dir, claim, text)))
}

/// What was proved, no more: the restriction to a fixed answer, and the rules used.
fn proved<P: Genre>(
    kind: Claim,
    score: Option<&P::Score>,
    answers: usize,
    fixed: bool,
    lenient: bool,
) -> String {
    let mut what = match (kind, score) {
        (Claim::Optimal, Some(s)) => format!("{} optimum {s}", P::INFO.name),
        (Claim::Count, _) => format!(
            "{} has exactly {answers} solution{}",
            P::INFO.name,
            if answers == 1 { "" } else { "s" }
        ),
        (Claim::Unique, _) => format!("{} solution is unique", P::INFO.name),
        _ => format!("{} has no solution", P::INFO.name),
    };
    if fixed {
        what += &format!(
            " among {}",
            P::COMPLETION.map_or("the completions of the fixed answer", |c| c.scope)
        );
    }
    if lenient {
        what += " under the lenient rules";
    }
    what
}

/// The most cubes a certificate holds (as `solve --cubes` takes).
pub const MOST_CUBES: usize = 4096;

/// claim.json's cubes: lists of DIMACS literals of a formula of `vars` variables, no variable
/// twice in a cube.
fn read_cubes(value: &Value, vars: u32) -> Result<Vec<Vec<Lit>>, String> {
    let list = value.as_array().ok_or("claim.json: cubes is not a list")?;
    if list.len() > MOST_CUBES {
        return Err(format!(
            "claim.json: more than {MOST_CUBES} cubes, more than any certificate holds"
        ));
    }
    let mut cubes = Vec::with_capacity(list.len());
    for (k, cube) in list.iter().enumerate() {
        let at = || format!("claim.json: cube {}", k + 1);
        let lits = cube
            .as_array()
            .ok_or_else(|| format!("{}: not a list", at()))?;
        let mut seen = std::collections::HashSet::new();
        let mut lits_of = Vec::with_capacity(lits.len());
        for l in lits {
            let n = l
                .as_i64()
                .filter(|&n| n != 0 && n.unsigned_abs() <= u64::from(vars))
                .ok_or_else(|| format!("{}: {l} is no literal of final.cnf", at()))?;
            if !seen.insert(n.unsigned_abs()) {
                return Err(format!("{}: variable {} twice", at(), n.unsigned_abs()));
            }
            lits_of.push(Lit::from_dimacs(n as i32).expect("checked above"));
        }
        cubes.push(lits_of);
    }
    Ok(cubes)
}

/// How the verdict names the puzzle: by the file or URL it was read from, where that still holds
/// the text verified; else as claim.json's, with the recorded name, which is no part of the proof
/// (a claim.json that names another file must not make `verify` speak of that file).
fn named<P: Genre>(dir: &Path, claim: &Value, text: &str) -> String {
    let own = format!("the puzzle in {}", dir.join("claim.json").display());
    let Some(recorded) = claim.get("file").and_then(Value::as_str) else {
        return own;
    };
    let holds = |t: &str| {
        t == text
            || encodings::format::url::pasted(t)
                .filter(|u| !u.contains('\n'))
                .is_some_and(|u| encodings::genre::url_text::<P>(u).is_ok_and(|t| t == text))
    };
    // Shown quoted where it holds a line break or another control character: a name of
    // claim.json's own must not end the VERIFIED line and begin one that names another file.
    let shown = if recorded.chars().any(char::is_control) {
        format!("{recorded:?}")
    } else {
        recorded.to_string()
    };
    if holds(recorded)
        || crate::input::read_regular(Path::new(recorded)).is_ok_and(|i| holds(&i.text))
    {
        return shown;
    }
    match recorded {
        "<stdin>" => format!("{own} (read from standard input)"),
        _ => format!("{own} (recorded as {shown}, which does not hold it here)"),
    }
}

/// Refuses a `--checker` whose program cannot be found: named with a path, it must be a file;
/// otherwise on `PATH`.
fn checker_installed(checker: &str) -> Result<()> {
    let words = shell_words::split(checker).map_err(|e| anyhow!("--checker: {e}"))?;
    let program = words.first().ok_or_else(|| anyhow!("--checker is empty"))?;
    let found = if program.contains('/') {
        Path::new(program).is_file()
    } else {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
    };
    if found {
        return Ok(());
    }
    let install = if program == "rate" {
        " (install it: cargo install --locked rate)"
    } else {
        ""
    };
    bail!("the DRAT checker {program} is not installed{install}")
}

/// [`run_checker`] for `verify`, which is never stopped: the reason a proof fails.
pub(crate) fn check_proof(
    checker: &str,
    cnf: &Path,
    proof: &Path,
    limits: Limits,
) -> Result<(), String> {
    match run_checker(checker, cnf, proof, limits, || false)? {
        Checked::Accepted => Ok(()),
        Checked::Rejected(why) => Err(format!("the DRAT checker rejects the proof ({why})")),
        Checked::Stopped => Err("the DRAT checker was stopped".into()),
        Checked::OutOfTime => Err("the DRAT checker did not finish within the time limit".into()),
        Checked::OutOfMemory(line) => Err(format!(
            "the DRAT checker ran out of memory under its cap of {} (--memory raises it): {line}",
            crate::drat::bytes(limits.memory)
        )),
    }
}
