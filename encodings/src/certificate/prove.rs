//! Proving a claim: its formula refuted by a prover that writes a DRAT proof, with the answers
//! its bound lets through found and listed, and the formula of an optimum's own VeriPB proof
//! refuted likewise. Written against [`Prover`], which the driver's backends implement.

use crate::certificate::{admit, built, let_through, refute, Claim, Form, Valid};
use crate::cnf::{Cnf, Lit, Model};
use crate::genre::{Genre, OwnFormula};
use crate::solver::{NewSolver, Recorded, Solver, Stop};
use serde_json::Value;
use std::path::Path;

/// What a prover says of a formula.
pub enum Proved {
    /// The formula is unsatisfiable, and the proof says why.
    Refuted,
    Model(Model),
}

/// A claim's formula refuted: the answers it blocks, the formula as stated, and the derived
/// units its proof starts with.
pub type Refuted<P> = (Vec<Valid<P>>, Cnf, Vec<Lit>);

/// A solver that writes DRAT proofs into files.
pub trait Prover {
    /// Solves `cnf` afresh, writing the proof of an unsatisfiable one into `proof`.
    fn prove(&self, cnf: &Cnf, proof: &Path) -> Result<Proved, String>;
    /// An incremental solver whose proof, written into `proof` as it goes, is the proof of the
    /// last formula it refutes; `None` for a prover that only proves afresh.
    fn proving_solver(&self, proof: &Path, stop: Stop) -> Result<Option<Box<dyn Solver>>, String>;
    /// Trims the DRAT proof `proof` of `cnf` to the lemmas its refutation uses, where a trimmer
    /// is at hand; leaves it whole otherwise.
    fn trim(&self, cnf: &Cnf, proof: &Path);
}

/// The most answers a bound may let through before certifying gives up.
pub const MOST_LET_THROUGH: usize = 100_000;

/// How many times varisat solves an optimality claim's formula afresh with proof output, each
/// time with the answers its bound let through so far blocked, before the rest are found
/// incrementally. Most boards let none or one through, and then this saves the incremental
/// search's last call (Kakkuro bench-10x10-seed3: 0.69× the CPU of finding them incrementally
/// first); with more, each try costs a fresh satisfiable call (1.3–1.5× on boards letting 4
/// and 17 through).
pub const AFRESH_TRIES: usize = 2;

/// The most answers an optimum's own formula may let through before its VeriPB proof is given
/// up (each costs a solve afresh). It starts with `final.cnf`'s blocked answers listed, when
/// there are no more than this many.
pub const OWN_TRIES: usize = 64;

/// The most answers an optimum's own VeriPB proof lists: what the writer can list.
pub const MOST_VERIPB_BLOCKED: usize = 2 * OWN_TRIES + 1;

/// Refutes the formula of an optimum's own VeriPB proof ([`Optimum::Own`]) with the proving
/// backend into `proof`, starting with `seed` listed and listing each answer it lets through,
/// which must score no more than the claim; returns the answers listed.
#[allow(clippy::too_many_arguments)]
pub fn own_refutation<P: Genre>(
    prover: &dyn Prover,
    inst: &P::Instance,
    answers: &[Valid<P>],
    formula: OwnFormula<P>,
    score: &P::Score,
    lemmas: &[Value],
    seed: Vec<Valid<P>>,
    proof: &Path,
) -> Result<Vec<Valid<P>>, String> {
    let best = &answers.first().ok_or("an optimum without an answer")?.0;
    let mut listed = seed;
    for _ in 0..=OWN_TRIES {
        let answers: Vec<P::Answer> = listed.iter().map(|(a, _)| a.clone()).collect();
        let (cnf, enc) = formula(inst, best, lemmas, &answers)?;
        match prover.prove(&cnf, proof)? {
            Proved::Refuted => {
                prover.trim(&cnf, proof);
                return Ok(listed);
            }
            Proved::Model(model) => {
                listed.push(admit::<P>(inst, &enc, &model, score).map_err(|e| e.0)?)
            }
        }
    }
    Err(format!(
        "its bound lets more than {OWN_TRIES} answers through"
    ))
}

/// Writes to `proof` a DRAT proof that the claim's formula, with its derived units (see
/// [`Form`]), is unsatisfiable; returns the answers that formula blocks, the formula as stated,
/// and the units, which the certificate's proof must start with. A backend that writes proofs
/// incrementally (CaDiCaL) refutes the formula as the search would, blocking answer after
/// answer, and its proof is the certificate's; otherwise (varisat) the formula is solved
/// afresh with proof output, re-solved with each answer found blocked.
#[allow(clippy::too_many_arguments)]
pub fn prove_final<P: Genre>(
    prover: &dyn Prover,
    inst: &P::Instance,
    claim: Claim,
    answers: &[Valid<P>],
    score: Option<&P::Score>,
    lemmas: &[Value],
    solvers: &dyn NewSolver,
    proof: &Path,
) -> Result<Refuted<P>, String> {
    let answers_of = |list: &[Valid<P>]| list.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>();
    let built =
        |list: &[Valid<P>], form| built::<P>(inst, claim, score, lemmas, &answers_of(list), form);
    if let Some(solver) = prover.proving_solver(proof, Stop::new())? {
        let mut solver = Recorded::new(solver);
        let (blocked, units) = refute::<P>(
            inst,
            claim,
            score,
            lemmas,
            answers,
            &mut solver,
            MOST_LET_THROUGH,
        )
        .map_err(|e| e.to_string())?;
        let Recorded { inner, cnf: given } = solver;
        drop(inner); // finishes the proof
        let (cnf, _, _) = built(&blocked, Form::Proving)?;
        if (given.num_vars, &given.clauses) != (cnf.num_vars, &cnf.clauses) {
            return Err("internal error: the proof is about another formula than final.cnf".into());
        }
        let stated = built(&blocked, Form::Stated)?.0;
        return Ok((blocked, stated, units));
    }
    let mut blocked = match claim {
        Claim::Optimal | Claim::NoSolution => Vec::new(),
        Claim::Unique | Claim::Count => answers.to_vec(),
    };
    if let (Claim::Optimal, Some(score)) = (claim, score) {
        for _ in 0..AFRESH_TRIES {
            let (cnf, enc, units) = built(&blocked, Form::Proving)?;
            match prover.prove(&cnf, proof)? {
                Proved::Refuted => {
                    let stated = built(&blocked, Form::Stated)?.0;
                    return Ok((blocked, stated, units));
                }
                Proved::Model(model) => {
                    blocked.push(admit::<P>(inst, &enc, &model, score).map_err(|e| e.to_string())?)
                }
            }
        }
        blocked = let_through::<P>(
            inst,
            score,
            lemmas,
            &mut solvers.new_solver(),
            blocked,
            MOST_LET_THROUGH,
        )
        .map_err(|e| e.to_string())?;
    }
    let (cnf, _, units) = built(&blocked, Form::Proving)?;
    match prover.prove(&cnf, proof)? {
        Proved::Refuted => {
            let stated = built(&blocked, Form::Stated)?.0;
            Ok((blocked, stated, units))
        }
        Proved::Model(_) => {
            Err("internal error: the claim's formula is satisfiable: no certificate".into())
        }
    }
}

/// A claim proved in cubes: what [`prove_final`] returns, and the cubes.
pub struct Cubed<P: Genre> {
    pub blocked: Vec<Valid<P>>,
    pub stated: Cnf,
    pub units: Vec<Lit>,
    pub cubes: Vec<Vec<Lit>>,
}

/// How often a cube may let an answer through (each makes every cube proved again).
pub const CUBE_TRIES: usize = 64;

/// The claim's formula split into at most `n` cubes over the puzzle's own variables
/// ([`crate::cnf::cubes::split`]), each refuted afresh by `prover`, `threads` at a time, into
/// `proof_of(k)`; then [`cover_formula`] refuted into `cover`: together they refute the
/// formula. An optimum's bound may let a not-better answer through in a cube: it is listed
/// with the blocked answers, and the cubes are split and proved again.
#[allow(clippy::too_many_arguments)]
pub fn prove_in_cubes<P: Genre>(
    prover: &(dyn Prover + Sync),
    inst: &P::Instance,
    claim: Claim,
    answers: &[Valid<P>],
    score: Option<&P::Score>,
    lemmas: &[Value],
    n: usize,
    threads: usize,
    proof_of: &(dyn Fn(usize) -> std::path::PathBuf + Sync),
    cover: &Path,
) -> Result<Cubed<P>, String> {
    let answers_of = |list: &[Valid<P>]| list.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>();
    let built =
        |list: &[Valid<P>], form| built::<P>(inst, claim, score, lemmas, &answers_of(list), form);
    let mut blocked = match claim {
        Claim::Optimal | Claim::NoSolution => Vec::new(),
        Claim::Unique | Claim::Count => answers.to_vec(),
    };
    let mut counter = crate::cnf::SizeCounter::default();
    P::plain_encode(inst, &mut counter);
    'again: for _ in 0..=CUBE_TRIES {
        let (cnf, enc, units) = built(&blocked, Form::Proving)?;
        let cubes = crate::cnf::cubes::split(&cnf, counter.vars, n.max(1));
        let next = std::sync::atomic::AtomicUsize::new(0);
        let found = std::sync::Mutex::new(None::<Result<Model, String>>);
        std::thread::scope(|scope| {
            for _ in 0..threads.clamp(1, cubes.len().max(1)) {
                scope.spawn(|| loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if k >= cubes.len() || found.lock().expect("no prover panics").is_some() {
                        return;
                    }
                    let outcome = prover.prove(&in_cube(&cnf, &cubes[k]), &proof_of(k));
                    let mut f = found.lock().expect("no prover panics");
                    match outcome {
                        Ok(Proved::Refuted) => {}
                        Ok(Proved::Model(m)) => *f = f.take().or(Some(Ok(m))),
                        Err(e) => *f = Some(Err(e)),
                    }
                });
            }
        });
        match found.into_inner().expect("no prover panics") {
            None => {}
            Some(Err(e)) => return Err(e),
            Some(Ok(model)) if claim == Claim::Optimal => {
                let score = score.ok_or("an optimality claim needs its score")?;
                blocked.push(admit::<P>(inst, &enc, &model, score).map_err(|e| e.0)?);
                continue 'again;
            }
            Some(Ok(_)) => {
                return Err(format!(
                    "internal error: the claim '{claim}' is wrong: a cube holds another answer"
                ))
            }
        }
        // An empty cube covers every case by itself (its proof refutes the whole formula).
        if !cubes.iter().any(Vec::is_empty) {
            match prover.prove(&cover_formula(&cnf, &cubes), cover)? {
                Proved::Refuted => {}
                Proved::Model(_) => {
                    return Err("internal error: the cubes do not cover every case".into())
                }
            }
        }
        let stated = built(&blocked, Form::Stated)?.0;
        return Ok(Cubed {
            blocked,
            stated,
            units,
            cubes,
        });
    }
    Err(format!(
        "the cubes let more than {CUBE_TRIES} answers that are not better through"
    ))
}

/// `cnf` with a cube's literals as unit clauses after it: the formula a cube's proof refutes.
pub fn in_cube(cnf: &Cnf, cube: &[Lit]) -> Cnf {
    let mut with = cnf.clone();
    with.clauses.extend(cube.iter().map(|&l| vec![l]));
    with
}

/// `cnf` with each cube's negation as a clause after it: unsatisfiable exactly when every model
/// of `cnf` lies in some cube.
pub fn cover_formula(cnf: &Cnf, cubes: &[Vec<Lit>]) -> Cnf {
    let mut with = cnf.clone();
    with.clauses
        .extend(cubes.iter().map(|c| c.iter().map(|&l| !l).collect()));
    with
}
