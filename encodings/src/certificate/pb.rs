//! The VeriPB certificate of a claim, made from its DRAT proofs: against the genre's own
//! pseudo-Boolean problem where it states one ([`crate::capability::PbClaims`]), else with the
//! claim's formula stated as OPB.

use crate::certificate::{files, files::FINAL, Claim};
use crate::cnf::{Cnf, Lit};
use crate::genre::{Genre, Optimum, OwnDrats};
use crate::puzzle::Task;
use serde_json::Value;

/// Where a VeriPB proof's DRAT proofs come from, read only when the proof needs them.
pub trait DratSource {
    /// `final.drat`, its derived units first.
    fn last(&self) -> Result<String, String>;
    /// The lemmas' DRAT proofs, in order.
    fn lemmas(&self) -> Result<Vec<String>, String>;
    /// The refutation of the formula of an optimum's own proof.
    fn own(&self) -> Result<String, String>;
}

/// A VeriPB certificate: the problem, the proof, and the one verdict line `veripb` must print.
pub struct PseudoBoolean {
    pub problem: String,
    pub proof: String,
    pub verdict: String,
    /// What the problem is, for `verify`'s refusal.
    pub what: &'static str,
    /// What the proof is made from, likewise.
    pub from: &'static str,
}

/// The VeriPB certificate of a claim, as `--certify` writes it and `verify` rebuilds it: a function
/// of the claim and of the DRAT proof `drat` gives (final.drat's text), so `verify` hands `veripb`
/// only proofs this code writes, never a hand-made one. Always: an optimum whose formula is the
/// plain one the proof derives, where the puzzle states its own problem
/// ([`crate::capability::PbOptimum`]). When `asked` (`--veripb`; `verify` always asks, to rebuild
/// what is there): every other claim, against the puzzle's own problem where it has one, else with
/// final.cnf (`cnf`) stated as OPB, a second check of it. `Ok(None)`: none, and nothing to say;
/// `Err`: none, and why.
#[allow(clippy::too_many_arguments)]
pub fn pseudo_boolean<P: Genre>(
    inst: &P::Instance,
    claim: Claim,
    best: Option<&P::Answer>,
    score: Option<&P::Score>,
    lemmas: &[Value],
    listed: &[P::Answer],
    units: &[Lit],
    cnf: &Cnf,
    asked: bool,
    own_listed: &[P::Answer],
    drats: &dyn DratSource,
) -> Result<Option<PseudoBoolean>, String> {
    let own = "the puzzle's problem";
    Ok(Some(match (claim, P::PB_OPTIMUM.as_ref(), score) {
        (Claim::Optimal, Some(Optimum::FromFinal { proof, objective }), Some(s)) => {
            if !lemmas.is_empty() || !units.is_empty() || !listed.is_empty() {
                return Err(format!(
                    "{} optima proved with lemmas, derived units or blocked answers have none yet",
                    P::INFO.name
                ));
            }
            let problem = P::PB_CLAIMS
                .as_ref()
                .ok_or("an optimum's proof without its problem")?
                .problem;
            let o = objective(s);
            let proof = proof(
                inst,
                best.ok_or("an optimum without its answer")?,
                s,
                &drats.last()?,
            )?;
            PseudoBoolean {
                problem: problem(inst, &[]),
                proof,
                verdict: format!("s VERIFIED BOUNDS {o} <= obj <= {o}"),
                what: own,
                from: FINAL,
            }
        }
        (Claim::Optimal, Some(Optimum::Own { proof, .. }), Some(_)) if asked => {
            let best = best.ok_or("an optimum without its answer")?;
            let (lemma_drats, own_drat) = (|| drats.lemmas(), || drats.own());
            let (problem, proof, verdict) = proof(
                inst,
                best,
                lemmas,
                own_listed,
                &OwnDrats {
                    lemmas: &lemma_drats,
                    own: &own_drat,
                },
            )?;
            PseudoBoolean {
                problem,
                proof,
                verdict,
                what: own,
                from: "veripb.drat, the lemmas' proofs and veripb_blocked",
            }
        }
        (Claim::Optimal, ..) if asked => {
            return Err(format!("{} optima have none yet", P::INFO.name))
        }
        (Claim::Optimal, ..) => return Ok(None),
        _ if !asked => return Ok(None),
        _ => match P::PB_CLAIMS.as_ref() {
            Some(c) => {
                // A scoring puzzle's problem has an objective: infeasible is `BOUNDS INF INF`.
                let verdict = match P::TASK {
                    Task::Maximize if !listed.is_empty() => {
                        return Err("a scoring puzzle's claim blocks no answers".into())
                    }
                    Task::Maximize => "s VERIFIED BOUNDS INF <= obj <= INF",
                    Task::Enumerate => "s VERIFIED UNSATISFIABLE",
                };
                PseudoBoolean {
                    problem: (c.problem)(inst, listed),
                    proof: (c.refutation)(inst, listed, &drats.last()?)?,
                    verdict: verdict.into(),
                    what: own,
                    from: FINAL,
                }
            }
            None => PseudoBoolean {
                problem: crate::cnf::objective::opb_text(cnf, None, &files::comments::<P>(claim)),
                proof: crate::certificate::veripb::refutation(cnf, &drats.last()?)?,
                verdict: "s VERIFIED UNSATISFIABLE".into(),
                what: "final.cnf as a problem",
                from: FINAL,
            },
        },
    }))
}
