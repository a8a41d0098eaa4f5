//! Certificates of explanations: `explain --certify DIR` writes each step's implication (its
//! named rules and the facts it uses force its deductions) as a formula with no model and a
//! DRAT proof of that; `verify DIR` rebuilds every formula from the puzzle's own named rules,
//! checks every proof, and that the steps decide the solution. See docs/explain.md.

use super::{
    check_proof, create_new, hash, named as puzzle_named, proof_for_checker, puzzle_text,
    same_formula, trim, usable_dir,
};
use crate::backends::{Backend, Proved};
use crate::dimacs;
use crate::drat::Limits;
use anyhow::{anyhow, bail, Result};
use encodings::cnf::{Lit, Model};
use encodings::explain::{step_formula, Named, Step};
use encodings::genre::Genre;
use encodings::puzzle::Settings;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Step proofs larger than this are trimmed ([`trim`]).
const TRIM_ABOVE: u64 = 1 << 20;

/// `claim.json`'s `claim` for an explanation.
pub const CLAIM: &str = "explanation";

/// The fields an explanation's `claim.json` may have; any other is refused.
const FIELDS: [&str; 9] = [
    "puzzle", "file", "hash", "text", "claim", "steps", "solution", "backend", "seconds",
];

/// The fields of a step; any other would say something unchecked (a step's `way`).
const STEP_FIELDS: [&str; 3] = ["rules", "deduces", "uses"];

/// Step `k`'s formula and proof (numbered from 1, as printed).
pub fn step_files(k: usize) -> (String, String) {
    (
        format!("step-{}.cnf", k + 1),
        format!("step-{}.drat", k + 1),
    )
}

/// The comments heading step `k`'s formula: what it is, in words.
fn comments<E>(named: &Named<E>, k: usize, rules: &[usize], deduces: &[Lit]) -> Vec<String> {
    let mut lines = vec![format!("puzzle-sat explain: step {}", k + 1)];
    lines.extend(
        rules
            .iter()
            .map(|&r| format!("rule: {}", named.rules.name(r))),
    );
    lines.push(format!("so: {}", named.say_all(deduces)));
    lines.push(
        "the rules' clauses, the facts used as units, and that some deduction fails: no model"
            .into(),
    );
    lines
}

/// Step `k`'s formula as written into its file: [`step_formula`] in DIMACS, headed by what it
/// says in words.
pub fn step_text<E>(
    named: &Named<E>,
    k: usize,
    rules: &[usize],
    uses: &[Lit],
    deduces: &[Lit],
) -> String {
    let cnf = step_formula(named, rules, uses, deduces);
    dimacs::to_string(&cnf, &comments(named, k, rules, deduces))
}

/// Fails before any work where `dir` cannot take a certificate, or the backend writes no
/// proofs.
pub fn usable(dir: &Path, backend: &Backend) -> Result<()> {
    usable_dir(dir)?;
    if matches!(backend, Backend::Command(_)) {
        bail!("--certify needs an embedded solver, which writes proofs (not --solver-cmd)");
    }
    Ok(())
}

/// Writes the certificate of `e`'s steps into `dir`: a proof of each step made afresh by
/// `backend`. A step the prover does not refute is an internal error, and no certificate.
pub fn write<P: Genre>(
    dir: &Path,
    input: &crate::input::Input,
    inst: &P::Instance,
    named: &Named<P::Encoding>,
    steps: &[Step],
    answer: &(P::Answer, P::Checked),
    backend: &Backend,
) -> Result<()> {
    let started = Instant::now();
    usable(dir, backend)?;
    let private = crate::cleanup::temp_dir("certify")
        .map_err(|e| anyhow!("cannot make a temporary folder: {e}"))?;
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow!("{}: cannot make the folder: {e}", dir.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        create_new(dir, name)?
            .write_all(bytes)
            .map_err(|e| anyhow!("{}: cannot write: {e}", dir.join(name).display()))
    };
    let mut listed = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        let (cnf_name, proof_name) = step_files(k);
        let cnf = step_formula(named, &step.rules, &step.uses, &step.deduces);
        let proof = private.path().join(&proof_name);
        match backend.prove(&cnf, &proof).map_err(|e| anyhow!(e))? {
            Proved::Refuted => {}
            Proved::Model(_) => bail!(
                "internal error: step {} of the explanation is not forced by its rules: no \
                 certificate",
                k + 1
            ),
        }
        let text = step_text(named, k, &step.rules, &step.uses, &step.deduces);
        write(&cnf_name, text.as_bytes())?;
        // A case split over a large board's connectivity can leave a proof of hundreds of MB
        // for a formula of one: kept to the lemmas its refutation uses, where `rate` is here.
        if std::fs::metadata(&proof).is_ok_and(|m| m.len() > TRIM_ABOVE) {
            trim(&cnf, &proof);
        }
        let mut from =
            std::fs::File::open(&proof).map_err(|e| anyhow!("{}: {e}", proof.display()))?;
        let mut to = create_new(dir, &proof_name)?;
        std::io::copy(&mut from, &mut to)
            .map_err(|e| anyhow!("{}: cannot write: {e}", dir.join(&proof_name).display()))?;
        std::fs::remove_file(&proof).ok();
        listed.push(json!({
            "rules": step.rules.iter().map(|&r| json!([r, named.rules.name(r)])).collect::<Vec<_>>(),
            "deduces": step.deduces.iter().map(|l| l.dimacs()).collect::<Vec<_>>(),
            "uses": step.uses.iter().map(|l| l.dimacs()).collect::<Vec<_>>(),
        }));
    }
    let decided = named.known.len() + steps.iter().map(|s| s.deduces.len()).sum::<usize>();
    let solution = (decided == named.facts.len())
        .then(|| P::render(inst, &answer.0, &answer.1, P::INFO.machine));
    let claim = json!({
        "puzzle": P::INFO.name,
        "file": input.name,
        "hash": hash(&input.text),
        "text": input.text,
        "claim": CLAIM,
        "steps": listed,
        "solution": solution,
        "backend": backend.name(),
        "seconds": started.elapsed().as_secs_f64(),
    });
    let mut text = serde_json::to_string_pretty(&claim)?;
    text.push('\n');
    write("claim.json", text.as_bytes())?;
    write("README.txt", readme::<P>(steps.len()).as_bytes())
}

fn readme<P: Genre>(steps: usize) -> String {
    format!(
        "An explanation of a {} puzzle in {steps} steps, each with its proof.\n\
         \n\
         step-K.cnf states step K's implication as a formula with no model: the clauses of the\n\
         rules it names (comments name them, and the facts), the facts it uses from the givens\n\
         and earlier steps as unit clauses, and one clause saying some deduction fails.\n\
         step-K.drat is a DRAT proof that it has no model. Check one by hand with\n\
         \n\
         \x20   rate -d step-K.cnf step-K.drat   (cargo install --locked rate)\n\
         \n\
         or all of them, the formulas rebuilt from the puzzle's rules, with\n\
         \n\
         \x20   puzzle-sat verify DIR\n",
        P::INFO.name
    )
}

/// A list of DIMACS literals in a step, each a variable of the rules.
fn literals(step: &Value, key: &str, vars: u32, k: usize) -> Result<Vec<Lit>, String> {
    let list = step
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("step {}: {key} is not a list", k + 1))?;
    list.iter()
        .map(|v| {
            v.as_i64()
                .filter(|&n| n != 0 && n.unsigned_abs() <= u64::from(vars))
                .and_then(|n| Lit::from_dimacs(n as i32))
                .ok_or_else(|| format!("step {}: {key}: {v} is no literal of the rules", k + 1))
        })
        .collect()
}

/// `verify` of an explanation's certificate: the checks in order, the first that fails the
/// reason (docs/explain.md).
pub fn verify<P: Genre>(
    dir: &Path,
    claim: &Value,
    checker: &str,
    limits: Limits,
) -> Result<String, String> {
    let object = claim.as_object().ok_or("claim.json is not an object")?;
    if let Some(k) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("claim.json has an unknown field {k:?}"));
    }
    let text = puzzle_text::<P>(claim)?;
    let (body, _) = encodings::puzzle::without_header(text);
    let inst = P::parse(body, &Settings::default())
        .map_err(|e| format!("the puzzle text does not parse: {e}"))?;
    encodings::genre::fits_named::<P>(&inst).map_err(|e| e.to_string())?;
    let named = P::named(&inst).ok_or_else(|| format!("{} has no explanations", P::INFO.name))?;
    let steps = claim
        .get("steps")
        .and_then(Value::as_array)
        .ok_or("claim.json: steps is not a list")?;
    // Each step decides a fact: no explanation has more steps than facts.
    if steps.len() > named.facts.len() {
        return Err(format!(
            "{} steps, more than the puzzle's {} facts",
            steps.len(),
            named.facts.len()
        ));
    }
    let vars = named.rules.num_vars;
    let mut known: HashSet<Lit> = named.known.iter().copied().collect();
    let mut known_vars: HashSet<u32> = known.iter().map(|l| l.var()).collect();
    let private = crate::cleanup::temp_dir("verify")
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let private = private.path();
    for (k, step) in steps.iter().enumerate() {
        let at = |what: String| format!("step {}: {what}", k + 1);
        let fields = step.as_object().ok_or_else(|| at("not an object".into()))?;
        if let Some(f) = fields.keys().find(|f| !STEP_FIELDS.contains(&f.as_str())) {
            return Err(at(format!("an unknown field {f:?}")));
        }
        let listed = step
            .get("rules")
            .and_then(Value::as_array)
            .ok_or_else(|| at("rules is not a list".into()))?;
        let mut rules = Vec::new();
        for r in listed {
            let (index, name) = match r.as_array().map(Vec::as_slice) {
                Some([i, n]) => (i.as_u64(), n.as_str()),
                _ => (None, None),
            };
            let (Some(index), Some(name)) = (index, name) else {
                return Err(at(format!("{r} is not [index, name]")));
            };
            let index = usize::try_from(index)
                .ok()
                .filter(|&i| i < named.rules.len())
                .ok_or_else(|| at(format!("no rule {index}")))?;
            if named.rules.name(index) != name {
                return Err(at(format!(
                    "rule {index} is {:?}, not {name:?}",
                    named.rules.name(index)
                )));
            }
            if rules.contains(&index) {
                return Err(at(format!("rule {index} is named twice")));
            }
            rules.push(index);
        }
        let deduces = literals(step, "deduces", vars, k)?;
        let uses = literals(step, "uses", vars, k)?;
        if deduces.is_empty() {
            return Err(at("it deduces nothing".into()));
        }
        let mut new = HashSet::new();
        for &d in &deduces {
            if named.fact(d).is_none() {
                return Err(at(format!("it deduces variable {}, no fact", d.var())));
            }
            if known_vars.contains(&d.var()) || !new.insert(d.var()) {
                return Err(at(format!("{} was already decided", named.say(d))));
            }
        }
        if let Some(u) = uses.iter().find(|u| !known.contains(u)) {
            return Err(at(format!(
                "it uses {}, which is not established before it",
                named.say(*u)
            )));
        }
        let (cnf_name, proof_name) = step_files(k);
        let rebuilt = step_text(&named, k, &rules, &uses, &deduces);
        if !same_formula(dir, &cnf_name, &rebuilt, private)? {
            return Err(format!("{cnf_name} is not step {}'s formula", k + 1));
        }
        let (proof, _open) = proof_for_checker(&dir.join(&proof_name), private, &proof_name)?;
        check_proof(checker, &private.join(&cnf_name), &proof, limits).map_err(at)?;
        std::fs::remove_file(private.join(&cnf_name)).ok();
        known.extend(&deduces);
        known_vars.extend(deduces.iter().map(|d| d.var()));
    }
    let n = steps.len();
    let said = format!(
        "{} explained in {n} step{}, each proved",
        P::INFO.name,
        if n == 1 { "" } else { "s" }
    );
    let solution = claim.get("solution").unwrap_or(&Value::Null);
    let decided = named
        .facts
        .iter()
        .filter(|f| known_vars.contains(&f.lit.var()))
        .count();
    if decided < named.facts.len() {
        if !solution.is_null() {
            return Err(format!(
                "the steps decide {decided} of {} facts, not a solution",
                named.facts.len()
            ));
        }
        // Facts that follow from the rules and the givens, and no more: a puzzle with no
        // solution implies anything, so no solution, nor progress to one, is claimed.
        return Ok(format!(
            "{}: {said}; they establish {decided} of the {} facts from the rules and the givens \
             (not the whole solution; that one exists is not claimed)",
            puzzle_named::<P>(dir, claim, text),
            named.facts.len()
        ));
    }
    // Every fact decided from the rules and the givens: every solution has these facts, which
    // read back as one answer, which the validator must accept and the claim must name.
    let end = P::decode(
        &inst,
        &named.encoding,
        &Model::from_lits(vars, known.iter().copied().collect::<Vec<Lit>>()),
    );
    P::check(&inst, &end)
        .map_err(|e| format!("the steps end in an answer the validator refuses: {e}"))?;
    let recorded = solution
        .as_str()
        .ok_or("claim.json: the steps decide every fact, but solution is not the answer")?;
    let read = P::read_answer(&inst, recorded)
        .map_err(|e| format!("the solution: {e}"))?
        .map_err(|e| format!("the solution: {e}"))?;
    if read.answer != end {
        return Err("the steps end in another answer than the solution".into());
    }
    Ok(format!(
        "{}: {said}; they decide every fact, so the solution is unique",
        puzzle_named::<P>(dir, claim, text)
    ))
}
