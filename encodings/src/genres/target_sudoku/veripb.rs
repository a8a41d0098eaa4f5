//! Target sudoku's VeriPB certificate of an optimum. The problem is an OPB file written from the
//! givens alone: one variable per cell and digit (all 729), "exactly one" per cell and per house
//! and digit as equalities, a unit per given, and the score itself as the objective (`min: −weight
//! × digit`). The proof logs the optimum (`soli`, which adds "score ≥ S + 1"), derives the givens'
//! eliminations, turns "score ≥ S + 1" into "Σ (digit − 1) over the 21 score cells ≥ S + 1 − 2766"
//! by adding house equalities (the identity of docs/encodings/target-sudoku.md, checked here by the
//! checker), defines the totalizer's outputs and derives its clauses
//! ([`crate::certificate::veripb::define_sum`]), derives the bound's unit, and replays the solver's
//! DRAT proof of the CNF `solve --certify` writes as RUP steps.

use super::encode::{score_cells, Encoding};
use super::{board, weight, Grid, TargetSudoku};
use crate::capability;
use crate::certificate::veripb::Proof;
use crate::certificate::{Claim, Form};
use crate::cnf::Lit;
use crate::genres::sudoku;
use std::fmt::Write;

/// The OPB variable of cell (r, c) holding digit d (0-based r, c; d 1–9): `x1` … `x729`.
fn var(r: usize, c: usize, d: usize) -> u32 {
    (r * 81 + c * 9 + d) as u32
}

/// Every house (rows, columns, boxes) as its nine cells.
fn houses() -> Vec<Vec<(usize, usize)>> {
    let rows = (0..9).map(|r| (0..9).map(|c| (r, c)).collect());
    let cols = (0..9).map(|c| (0..9).map(|r| (r, c)).collect());
    let boxes = (0..9).map(|b| {
        (0..9)
            .map(|k| (b / 3 * 3 + k / 3, b % 3 * 3 + k % 3))
            .collect()
    });
    rows.chain(cols).chain(boxes).collect()
}

/// How many times each house's digit sum enters the score identity: the score minus
/// `Σ digit` over the 21 score cells is `Σ_house a × (its digit sum, 45)`: rows 6, rows 1–7 one
/// more, columns 0 and 8 one less, the centre box 2 (docs/encodings/target-sudoku.md).
fn house_factor(h: usize) -> i64 {
    match h {
        0 | 8 => 6,
        1..=7 => 7,
        9 | 17 => -1,
        22 => 2,
        _ => 0,
    }
}

/// The totalizer over the open score cells: its outputs defined, its clauses derived
/// ([`crate::certificate::veripb::define_sum`]); the root's definitions.
fn totalizer(
    q: &mut Proof,
    enc: &Encoding,
    opb_var: &[u32],
) -> Option<crate::certificate::veripb::Defined> {
    q.line("% the totalizer over the open score cells: outputs defined, clauses derived");
    let amo = |terms: &[(Lit, u64)], q: &mut Proof| -> u64 {
        // The cell's "at most one" (its equality's `≤` half), weakened to the terms' literals.
        let (r, c, _) = cell_of(enc, terms[0].0).expect("a leaf's literal is a digit");
        let keep: Vec<u32> = terms.iter().map(|t| opb_var[t.0.var() as usize]).collect();
        let mut rule = format!("pol {}", 2 * (r * 9 + c) as u64 + 2);
        for d in 1..=9 {
            if !keep.contains(&var(r, c, d)) {
                let _ = write!(rule, " x{} w", var(r, c, d));
            }
        }
        q.step(&rule)
    };
    crate::certificate::veripb::define_sum(q, &enc.score_nodes, &amo)
}

/// How many constraints the checker loads from [`opb`]: each equality twice, and the givens.
fn constraints(givens: &Grid) -> u64 {
    2 * 324 + givens.iter().flatten().filter(|&&g| g != 0).count() as u64
}

/// An OPB variable's name: `xN` for the 729 of [`opb`], `tN` for those a proof introduces.
fn name(v: u32) -> String {
    if v <= 729 {
        format!("x{v}")
    } else {
        format!("t{v}")
    }
}

/// The cell and digit (1-based) of a digit literal of the encoding.
fn cell_of(enc: &Encoding, l: Lit) -> Option<(usize, usize, usize)> {
    for r in 0..9 {
        for c in 0..9 {
            for d in 0..9 {
                if enc.digit(r, c, d) == Some(l) {
                    return Some((r, c, d + 1));
                }
            }
        }
    }
    None
}

impl capability::PbClaims for TargetSudoku {
    /// The OPB constraints in order: cells' "exactly one" (81), then each house and digit (243),
    /// each an equality the checker loads as two constraints (`≥`, then `≤`), then the givens.
    /// Constraint IDs: equality `e` (0-based) is `2e + 1` (≥) and `2e + 2` (≤).
    fn problem(givens: &Grid, _: &[Grid]) -> String {
        let mut out = String::new();
        let given = givens.iter().flatten().filter(|&&g| g != 0).count();
        let _ = writeln!(out, "* #variable= 729 #constraint= {}", 324 + given);
        out.push_str("* target sudoku (NOIP 2009 / Luogu P1074) as a pseudo-Boolean problem: x(81r + 9c + d) is cell (r, c), 0-based, holding digit d\n");
        out.push_str("* the objective is minus the score: the ring weight (6 at the edge to 10 in the centre) times the digit\n");
        out.push_str("min:");
        for r in 0..9 {
            for c in 0..9 {
                for d in 1..=9 {
                    let _ = write!(out, " -{} x{}", weight(r, c) as usize * d, var(r, c, d));
                }
            }
        }
        out.push_str(" ;\n");
        sudoku::opb_rules(&board(givens), &mut out);
        out
    }

    /// The proof that `givens` have no completion, from `drat`, a DRAT proof that the certificate's
    /// `final.cnf` for this claim (the rules) is unsatisfiable: the eliminations, the solver's
    /// steps as RUP steps over the OPB's variables, and `conclusion BOUNDS INF INF` (the problem
    /// is infeasible). The rules' clauses are not stated: each is implied by the equalities by
    /// propagation, which is all a RUP step of the solver's needs of them.
    fn refutation(givens: &Grid, _: &[Grid], drat: &str) -> Result<String, String> {
        let (cnf, enc, _) = crate::certificate::built::<super::TargetSudoku>(
            givens,
            Claim::NoSolution,
            None,
            &[],
            &[],
            Form::Stated,
        )?;
        let opb_var = sudoku::opb_vars(&enc.rules.digits, 9, cnf.num_vars);
        let cnf_name = |v: u32| name(opb_var[v as usize]);
        let mut p = Proof::new(constraints(givens), &name);
        sudoku::eliminations(&mut p, &enc.rules.digits, 9);
        let mut q = p.with_names(&cnf_name);
        // The solver was given the score's totalizer too (part of the plain encoding).
        totalizer(&mut q, &enc, &opb_var);
        q.refute(drat, cnf.num_vars, |empty| {
            format!("BOUNDS INF : {empty} INF")
        })
    }
}

impl capability::PbOptimum for TargetSudoku {
    /// The proof that no completion of `givens` scores more than `score`, which `best` scores,
    /// from `drat`, a DRAT proof that the certificate's `final.cnf` for this claim
    /// ([`crate::certificate::built`]) is unsatisfiable.
    fn optimum_proof(
        givens: &Grid,
        best: &Grid,
        score: &u32,
        drat: &str,
    ) -> Result<String, String> {
        let score = *score;
        let (cnf, enc, _) = crate::certificate::built::<super::TargetSudoku>(
            givens,
            Claim::Optimal,
            Some(&score),
            &[],
            &[],
            Form::Stated,
        )?;
        let opb_var = sudoku::opb_vars(&enc.rules.digits, 9, cnf.num_vars);
        // Literals below are the CNF's; the proof names them as the OPB does.
        let cnf_name = |v: u32| name(opb_var[v as usize]);
        let opb_lit = |r: usize, c: usize, d: usize| Lit::positive(var(r, c, d));
        let eq = |e: usize| (2 * e as u64 + 1, 2 * e as u64 + 2);
        let cell_eq = |r: usize, c: usize| eq(r * 9 + c);
        let house_eq = |h: usize, d: usize| eq(81 + h * 9 + d - 1);

        // Steps over OPB variables first (the objective, eliminations, the identity).
        let mut p = Proof::new(constraints(givens), &name);
        let solution: Vec<Lit> = (0..729)
            .map(|i| {
                let (r, c, d) = (i / 81, i / 9 % 9, i % 9 + 1);
                let l = opb_lit(r, c, d);
                if best[r][c] as usize == d {
                    l
                } else {
                    !l
                }
            })
            .collect();
        p.line("% the claimed optimum; soli adds \"the score is at least one more\"");
        let better = p.soli(&solution);
        sudoku::eliminations(&mut p, &enc.rules.digits, 9);
        p.line(
            "% score = 2766 + sum of (digit - 1) over the 21 score cells, from the houses' sums of 45",
        );
        let mut rule = format!("pol {better}");
        for (h, _) in houses().iter().enumerate() {
            let a = house_factor(h);
            for d in 1..=9 {
                let (ge, le) = house_eq(h, d);
                if a > 0 {
                    let _ = write!(rule, " {le} {} * +", a as usize * d);
                } else if a < 0 {
                    let _ = write!(rule, " {ge} {} * +", (-a) as usize * d);
                }
            }
        }
        for (r, c) in score_cells() {
            let _ = write!(rule, " {} +", cell_eq(r, c).1);
        }
        let target = p.step(&rule);

        // From here on, literals are the CNF's, named as the OPB's.
        let mut q = p.with_names(&cnf_name);
        let root = totalizer(&mut q, &enc, &opb_var);
        let need = (score + 1).saturating_sub(enc.fixed_score) as u64;
        match root {
            _ if need == 0 => {
                return Err(
                    "the claim's bound holds for every completion: nothing to refute".into(),
                )
            }
            Some(root) if root.outputs.last().map(|o| o.0) >= Some(need) => {
                // The first output at or above the bound means "S > the value below", which is
                // below the bound: the target gives it.
                let &(_, o, _, le) = root.outputs.iter().find(|o| o.0 >= need).unwrap();
                q.line("% the bound's unit");
                q.step(&format!("pol {target} {le} +"));
                q.rup_clause(&[o]);
                q.line("% the solver's proof");
                let found = q.drat(drat, |v| (v <= cnf.num_vars).then_some(v))?;
                if !found {
                    return Err("the DRAT proof derives no empty clause".into());
                }
            }
            root => {
                // No completion reaches the bound: "S ≤ max" against the target.
                q.line("% no completion reaches the bound");
                // With no open score cell the givens fix the target's every term.
                if let Some(r) = root {
                    q.step(&format!("pol {target} {} +", r.at_most_max));
                }
                q.rup_clause(&[]);
            }
        }
        q.line("output NONE;");
        let s = -(score as i64);
        q.line(&format!("conclusion BOUNDS {s} {s};"));
        q.line("end pseudo-Boolean proof;");
        Ok(q.text)
    }

    fn objective_value(score: &u32) -> String {
        format!("-{score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_factors_give_every_cell_its_weight() {
        let hs = houses();
        let score: Vec<(usize, usize)> = score_cells().collect();
        for r in 0..9 {
            for c in 0..9 {
                let from_houses: i64 = hs
                    .iter()
                    .enumerate()
                    .filter(|(_, h)| h.contains(&(r, c)))
                    .map(|(i, _)| house_factor(i))
                    .sum();
                let t = i64::from(score.contains(&(r, c)));
                assert_eq!(from_houses + t, weight(r, c) as i64, "cell ({r}, {c})");
            }
        }
        // 45 per house and factor: the constant 2745.
        assert_eq!((0..27).map(house_factor).sum::<i64>() * 45, 2745);
    }
}
