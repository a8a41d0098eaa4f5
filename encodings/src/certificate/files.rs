//! What a certificate's files are named and say: the comments heading its formulas and its
//! README, the same for whoever writes it and whoever verifies it.

use crate::certificate::Claim;
use crate::genre::Genre;
use serde_json::Value;

/// The DRAT proof of `final.cnf`.
pub const FINAL: &str = "final.drat";

/// The DRAT proof that the cubes cover every case: `final.cnf` with each cube's negation
/// as a clause after it is unsatisfiable.
pub const COVER: &str = "cover.drat";

/// The DRAT proof of cube `k` (counted from 1 in its name): `final.cnf` with the cube's
/// literals as unit clauses after it is unsatisfiable.
pub fn cube_file(k: usize) -> String {
    format!("cube-{}.drat", k + 1)
}

/// The files of lemma `k` (counted from 1 in their names).
pub fn lemma_files(k: usize) -> (String, String) {
    (
        format!("lemma-{}.cnf", k + 1),
        format!("lemma-{}.drat", k + 1),
    )
}

pub fn lemma_comments<P: Genre>(lemma: &Value) -> Vec<String> {
    vec![format!("puzzle-sat certificate: {} lemma {lemma}: the rules and the lemma's negation; unsatisfiable", P::INFO.name)]
}

pub fn comments<P: Genre>(claim: Claim) -> Vec<String> {
    let what = match claim {
        Claim::Optimal => "the rules, 'strictly better than the claimed score', and the blocked answers of claim.json",
        Claim::NoSolution => "the rules",
        Claim::Unique => "the rules and the blocked unique solution",
        Claim::Count => "the rules and every counted solution blocked",
    };
    vec![format!(
        "puzzle-sat certificate: {} {claim}: {what}; unsatisfiable",
        P::INFO.name
    )]
}

pub fn readme<P: Genre>(claim: Claim, veripb: bool) -> String {
    let pb = if veripb {
        "The claim is also stated as a pseudo-Boolean problem (problem.opb) with a VeriPB proof\n\
         (proof.pbp), which verify checks too; by hand:\n\n    \
         cargo install --locked veripb --version 3.0.2 && veripb -c problem.opb proof.pbp\n\n"
    } else {
        ""
    };
    format!(
        "A puzzle-sat certificate of the claim '{claim}' for a {} puzzle.\n\n\
         claim.json  the puzzle's text, the claim, its answers, and the answers the formula blocks\n\
         final.cnf   the formula whose unsatisfiability is the claim (DIMACS)\n\
         final.drat  a DRAT proof that final.cnf is unsatisfiable\n\
         lemma-N.cnf, lemma-N.drat  (optimality claims of some puzzles) a fact final.cnf uses, as\n\
                     the rules with the fact's negation, and a DRAT proof that this is unsatisfiable\n\n\
         Check each proof with any DRAT checker, e.g.\n\n    \
         cargo install --locked rate && rate -d final.cnf final.drat   (prints s VERIFIED)\n    \
         drat-trim final.cnf final.drat\n\n\
         and that final.cnf is the claim's formula, with the answers re-checked, with\n\n    \
         puzzle-sat verify .\n\n\
         {pb}What a verified certificate proves, and what it still trusts: docs/certificates.md.\n",
        P::INFO.name
    )
}

pub fn readme_cubes<P: Genre>(claim: Claim, cubes: usize) -> String {
    format!(
        "A puzzle-sat certificate of the claim '{claim}' for a {} puzzle, proved in {cubes} cubes.\n\n\
         claim.json   the puzzle's text, the claim, its answers, the answers the formula blocks,\n\
         \x20            and the cubes: lists of DIMACS literals of final.cnf\n\
         final.cnf    the formula whose unsatisfiability is the claim (DIMACS)\n\
         cube-K.drat  a DRAT proof that final.cnf with cube K's literals added as unit clauses is\n\
         \x20            unsatisfiable\n\
         cover.drat   a DRAT proof that final.cnf with each cube's negation added as a clause is\n\
         \x20            unsatisfiable: every case lies in some cube (absent when a cube is empty)\n\
         lemma-N.cnf, lemma-N.drat  (optimality claims of some puzzles) a fact final.cnf uses, as\n\
         \x20            the rules with the fact's negation, and a DRAT proof that this is unsatisfiable\n\n\
         Together the cube proofs and the cover refute final.cnf. Check them all, with each\n\
         formula assembled from final.cnf and claim.json's cubes, and the answers re-checked, with\n\n    \
         puzzle-sat verify .\n\n\
         What a verified certificate proves, and what it still trusts: docs/certificates.md.\n",
        P::INFO.name
    )
}
