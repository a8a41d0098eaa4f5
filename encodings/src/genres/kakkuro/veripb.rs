//! Kakkuro's VeriPB certificate of an optimum (strict rules): the score's bound derived, not
//! trusted.
//!
//! The problem (`problem.opb`) is the rules' CNF (as `final.cnf` of a no-solution claim states
//! it), a variable `y_d` per count `d` of painted cells defined both ways by two inequalities
//! (`y_d ⇔ Σ painted ≥ d`), and the objective of [`super::objective`]: `Σ W(f)` over the red
//! dots' factor literals minus `W(max(D, 1))` as the steps `W(d) − W(d − 1)` on `y_d`, `W(x) =
//! round(2^m ln x)`, which orders answers exactly as their scores do. The proof:
//!
//! 1. logs the best answer and every answer of a higher objective value the certificate
//!    lists (`soli`, ascending): the last one's value `X` is the optimum claimed, and the
//!    checker adds "the value is at least `X + 1`" (`O`);
//! 2. derives each red dot's "at most one factor" by contradiction, and each lemma (a dot's
//!    largest factor) by contradiction from its own DRAT proof;
//! 3. derives the bound the solver is given: `O` plus each dot's at-most-one times its largest
//!    weight is "the deficits add up to at most `K`"; each coefficient is lowered to a
//!    multiple of `q = 2^(m − 7)` (adding literal axioms) and the whole divided by `q`, which
//!    gives "the rounded deficits add up to at most `⌊K/q⌋`" with small integer weights;
//! 4. defines a totalizer over those weights (and a counter of the painted cells, whose outputs
//!    imply the `y_d`), derives each of their clauses from the definitions, and the unit
//!    that refutes the totalizer's output past `⌊K/q⌋`;
//! 5. derives, per answer the rounded bound lets through, "some factor larger, or fewer
//!    painted cells" from `O` plus each dot's at-most-one times that answer's weight;
//! 6. replays the solver's DRAT refutation of exactly those clauses ([`formula`]) as RUP
//!    steps, and concludes `BOUNDS −X −X`.

use super::objective::{ln_scaled, scale_bits};
use super::{check, Answer, Cell, Encoding, Instance, Kakkuro};
use crate::capability;
use crate::certificate::veripb::{define_at_most, Proof};
use crate::certificate::{built, Claim, Form, NoEmpty};
use crate::cnf::objective::{opb_text, Objective};
use crate::cnf::sum::{encode_sum_traced, Bound, Node, Use};
use crate::cnf::{ClauseSink, Cnf, Limited, Lit};
use crate::genre::OwnDrats;
use num_bigint::{BigInt, Sign};
use serde_json::Value;
use std::fmt::Write;

/// The deficits are rounded to units of `2^-u` natural-log units, `u` at most this (under 1% of
/// the score per true literal)...
const UNIT_BITS: u32 = 7;

/// ... and no less than this (6%), the largest `u` at which the rounded bound is at most
/// [`MOST_UNITS`]: its totalizer's merges grow with the square of the bound, and each clause
/// costs the checker an addition of definitions (a review measured a bound of 371 units, on a
/// board whose optimum paints 10 cells, at 342,000 merge steps and 166 s of `veripb`). Coarser
/// units let more answers through, each solved afresh and listed.
const MIN_UNIT_BITS: u32 = 4;

/// The widest rounded bound a proof is made for.
const MOST_UNITS: u64 = 192;

/// The most literals the proof's own formula may add to the rules (the bound, the counter,
/// the listed answers' clauses): past it there is no proof.
const MOST_OWN_LITERALS: u64 = 1 << 23;

/// The problem's variables: the rules' (`1..=n`), then `y_1 … y_P`.
struct Problem {
    rules: Cnf,
    enc: Encoding,
    /// The rules' variables.
    n: u32,
    /// `W(x) = round(2^bits ln x)`.
    bits: u32,
}

impl Problem {
    fn new(inst: &Instance) -> Result<Problem, String> {
        if inst.puzzle.lenient {
            return Err("kakkuro optima under the lenient rules have none yet".into());
        }
        let (rules, enc, _) =
            built::<Kakkuro>(inst, Claim::NoSolution, None, &[], &[], Form::Stated)?;
        let bits = scale_bits(&enc);
        Ok(Problem {
            n: rules.num_vars,
            rules,
            enc,
            bits,
        })
    }

    fn w(&self, x: u64) -> BigInt {
        ln_scaled(x.max(1), 1, self.bits)
    }

    /// `y_d`, `d` from 1.
    fn y(&self, d: u64) -> Lit {
        Lit::positive(self.n + d as u32)
    }

    fn painted(&self) -> u64 {
        self.enc.painted.len() as u64
    }

    /// The objective to maximise: `Σ W(f)` per factor literal, `−(W(d) − W(d − 1))` per `y_d`.
    fn objective(&self) -> Objective {
        let mut terms = Vec::new();
        for dot in &self.enc.factors {
            terms.extend(
                dot.iter()
                    .map(|&(f, l)| (l, self.w(f)))
                    .filter(|(_, x)| x.sign() != Sign::NoSign),
            );
        }
        for d in 2..=self.painted() {
            let step = self.w(d) - self.w(d - 1);
            if step.sign() != Sign::NoSign {
                terms.push((self.y(d), -step));
            }
        }
        let bits = self.bits;
        let notes = vec![
            format!("kakkuro (strict rules) as a pseudo-Boolean problem: the rules' clauses as in final.cnf, x{} .. x{} the painted-cell counts y_d <=> (painted cells >= d), each defined by two inequalities after the clauses", self.n + 1, self.n + self.painted() as u32),
            format!("the objective is minus round(2^{bits} ln f) per red dot's factor f, plus round(2^{bits} ln d) - round(2^{bits} ln (d - 1)) per y_d: minus round(2^{bits} ln(score / 1.1)) within (dots + 1) / 2, fine enough to order answers exactly as their scores (docs/certificates.md)"),
        ];
        Objective { terms, notes }
    }

    /// An answer's objective value (to maximise) and its factors and `D`.
    fn value(&self, inst: &Instance, a: &Answer) -> Result<(BigInt, Vec<u64>, u64), String> {
        let scored =
            check(&inst.puzzle, a).map_err(|v| format!("a listed answer breaks a rule: {v}"))?;
        let d = scored.score.d;
        let v = scored.factors.iter().map(|&f| self.w(f)).sum::<BigInt>() - self.w(d);
        Ok((v, scored.factors, d))
    }

    /// A full assignment of the problem's variables for an answer: the cells' values and sides
    /// as units, the rest of the rules' variables by unit propagation, any left false (the
    /// auxiliaries of "at most one" and of upper-bound counters, which false satisfies), and
    /// `y_d = [D ≥ d]`. Checked against every clause.
    fn model(&self, a: &Answer, d: u64) -> Result<Vec<Lit>, String> {
        let enc = &self.enc;
        let mut cnf = self.rules.clone();
        for (i, cell) in a.cells.iter().enumerate() {
            let mut units = Vec::new();
            match *cell {
                Cell::White(k) => {
                    units.push(!enc.gray[i]);
                    units.extend(
                        (k as usize)
                            .checked_sub(1)
                            .and_then(|k| enc.digit[i].get(k)),
                    );
                }
                Cell::Gray { number, open } => {
                    units.push(enc.gray[i]);
                    units.extend(enc.number[i].iter().filter(|t| t.0 == number).map(|t| t.1));
                    for (&side, is_open) in enc.open[i].iter().zip(open) {
                        if let Some(o) = side {
                            units.push(if is_open { o } else { !o });
                        }
                    }
                }
            }
            units.iter().for_each(|&u| cnf.clauses.push(vec![u]));
        }
        let values = crate::cnf::propagate::units(cnf)
            .ok_or("an answer's cells contradict the rules' clauses")?;
        let value = |v: u32| values[v as usize].unwrap_or(false);
        if let Some(c) = self
            .rules
            .clauses
            .iter()
            .find(|c| !c.iter().any(|&l| value(l.var()) == l.is_positive()))
        {
            return Err(format!(
                "no model of an answer by propagation: a clause of {} literals is left false",
                c.len()
            ));
        }
        let mut lits: Vec<Lit> = (1..=self.n)
            .map(|v| {
                if value(v) {
                    Lit::positive(v)
                } else {
                    !Lit::positive(v)
                }
            })
            .collect();
        lits.extend((1..=self.painted()).map(|e| if d >= e { self.y(e) } else { !self.y(e) }));
        Ok(lits)
    }
}

fn problem_text(p: &Problem) -> String {
    let big = p.painted();
    let mut cnf = p.rules.clone();
    cnf.num_vars = p.n + big as u32;
    for d in 1..=big {
        cnf.names.push((p.n + d as u32, format!("D >= {d}")));
    }
    let text = opb_text(&cnf, Some(&p.objective()), &[]);
    let (first, rest) = text.split_once('\n').expect("a header line");
    debug_assert!(first.starts_with("* #variable="));
    let mut out = format!(
        "* #variable= {} #constraint= {}\n{rest}",
        cnf.num_vars,
        constraints(p)
    );
    // The painted-cell literals are fresh variables, positive: Σ painted is Σ x.
    assert!(
        p.enc.painted.iter().all(|l| l.is_positive()),
        "painted literals are positive"
    );
    let painted: Vec<String> = p
        .enc
        .painted
        .iter()
        .map(|l| format!("x{}", l.var()))
        .collect();
    for d in 1..=big {
        // Σ painted − d·y_d ≥ 0 (y_d → D ≥ d); −Σ painted + (P − d + 1)·y_d ≥ −(d − 1) (D ≥ d → y_d).
        let y = p.n + d as u32;
        let _ = writeln!(
            out,
            "{} -{d} x{y} >= 0 ;",
            painted
                .iter()
                .map(|x| format!("+1 {x}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let _ = writeln!(
            out,
            "{} +{} x{y} >= -{} ;",
            painted
                .iter()
                .map(|x| format!("-1 {x}"))
                .collect::<Vec<_>>()
                .join(" "),
            big - d + 1,
            d - 1
        );
    }
    out
}

fn constraints(p: &Problem) -> u64 {
    p.rules.clauses.len() as u64 + 2 * p.painted()
}

/// The constraint IDs of `y_d`'s definitions: (`y_d → D ≥ d`, `D ≥ d → y_d`).
fn y_defs(p: &Problem, d: u64) -> (u64, u64) {
    let base = p.rules.clauses.len() as u64 + 2 * (d - 1);
    (base + 1, base + 2)
}

/// Each red dot's largest factor: its lemma's where one is given, else its largest listed.
fn maxima(p: &Problem, lemmas: &[Value]) -> Result<Vec<u64>, String> {
    let mut most: Vec<u64> = p
        .enc
        .factors
        .iter()
        .map(|v| v.first().map_or(1, |t| t.0))
        .collect();
    for l in lemmas {
        let (dot, max) = super::dot_lemma(&p.enc, l)?;
        most[dot] = most[dot].min(max);
    }
    Ok(most)
}

/// What the formula and the proof share: the answers logged and their values, the bound.
struct Plan {
    problem: Problem,
    most: Vec<u64>,
    /// The answers logged, ascending in value: the best first, then each listed answer of a
    /// higher value than the one before.
    logged: Vec<(Answer, u64)>,
    /// The optimum's value `X`.
    x: BigInt,
    /// Per listed answer: its factors and `D`.
    classes: Vec<(Vec<u64>, u64)>,
    q: BigInt,
    /// `⌊K/q⌋`, `K = Σ W(f̂) − X − 1`; `None` when `K < 0` (no answer can be better).
    limit: Option<u64>,
    /// Per dot, `(factor literal, rounded deficit)` for its factors up to its maximum.
    dots: Vec<Vec<(Lit, u64)>>,
    /// Per `d` from 2, `y_d`'s rounded step.
    steps: Vec<(Lit, u64)>,
    /// How far the painted cells are counted: the `y_d` the bound uses.
    count_to: u64,
}

fn plan(
    inst: &Instance,
    best: &Answer,
    lemmas: &[Value],
    listed: &[Answer],
) -> Result<Plan, String> {
    let problem = Problem::new(inst)?;
    let p = &problem;
    let most = maxima(p, lemmas)?;
    let (best_value, _, best_d) = p.value(inst, best)?;
    let mut logged = vec![(best.clone(), best_d)];
    let mut x = best_value;
    let mut valued = Vec::new();
    let mut classes = Vec::new();
    for a in listed {
        let (v, factors, d) = p.value(inst, a)?;
        classes.push((factors, d));
        valued.push((v, a, d));
    }
    // Logged in ascending value, each above the one before.
    valued.sort_by(|a, b| a.0.cmp(&b.0));
    for (v, a, d) in valued {
        if v > x {
            x = v;
            logged.push((a.clone(), d));
        }
    }
    let k: BigInt = most.iter().map(|&m| p.w(m)).sum::<BigInt>() - &x - 1;
    let mut unit = UNIT_BITS;
    let q = loop {
        let q = BigInt::from(1) << p.bits.saturating_sub(unit);
        if unit == MIN_UNIT_BITS || &k / &q <= BigInt::from(MOST_UNITS) {
            break q;
        }
        unit -= 1;
    };
    let limit = if k.sign() == Sign::Minus {
        None
    } else {
        Some(u64::try_from(&k / &q).map_err(|_| "the bound is too large")?)
    };
    if let Some(l) = limit.filter(|&l| l > MOST_UNITS) {
        return Err(format!("the score's bound is too wide: {l} units of 1/{} after rounding, more than {MOST_UNITS}", 1u64 << unit));
    }
    let small = |v: BigInt| -> Result<u64, String> {
        u64::try_from(v / &q).map_err(|_| "a deficit is too large".to_string())
    };
    let mut dots = Vec::new();
    for (lits, &top) in p.enc.factors.iter().zip(&most) {
        let mut group = Vec::new();
        for &(f, l) in lits.iter().filter(|t| t.0 <= top) {
            group.push((l, small(p.w(top) - p.w(f))?));
        }
        dots.push(group);
    }
    let mut steps = Vec::new();
    let mut count_to = 0;
    if let Some(limit) = limit {
        // The y_d the bound needs: up to the first whose steps alone pass the limit.
        let mut total = 0;
        for d in 2..=p.painted() {
            let u = small(p.w(d) - p.w(d - 1))?;
            // The steps shrink with d: past the first that rounds to nothing, all do.
            if u == 0 {
                break;
            }
            steps.push((p.y(d), u));
            total += u;
            count_to = d;
            if total > limit {
                break;
            }
        }
    }
    Ok(Plan {
        problem,
        most,
        logged,
        x,
        classes,
        q,
        limit,
        dots,
        steps,
        count_to,
    })
}

/// What [`build`] adds after the rules, for the proof to derive.
struct Built {
    cnf: Cnf,
    counter: Vec<Node>,
    bound: Vec<Node>,
    /// The bound's unit: the totalizer's output past the limit, refuted.
    unit: Option<Lit>,
}

/// The formula the proof's DRAT refutes, built from the plan: the rules, the lemmas' units,
/// the `y_d`, the painted cells' counter (its outputs imply the `y_d`), the rounded bound, and
/// one clause per listed answer.
fn build(plan: &Plan) -> Result<Built, String> {
    let p = &plan.problem;
    // The rules are in already: the limit counts what is added.
    let mut cnf = Limited::new(NoEmpty(p.rules.clone()), MOST_OWN_LITERALS);
    for (lits, &top) in p.enc.factors.iter().zip(&plan.most) {
        lits.iter()
            .filter(|t| t.0 > top)
            .for_each(|&(_, l)| cnf.add_clause(&[!l]));
    }
    for d in 1..=p.painted() {
        let y = cnf.new_var();
        assert_eq!(y, p.y(d), "the y_d follow the rules' variables");
        cnf.name_var(y, &|| format!("D >= {d}"));
    }
    let (mut counter, mut bound, mut unit) = (Vec::new(), Vec::new(), None);
    match plan.limit {
        None => cnf.add_clause(&[]),
        Some(limit) => {
            if plan.count_to >= 2 {
                let singles: Vec<Vec<(Lit, u64)>> =
                    p.enc.painted.iter().map(|&l| vec![(l, 1)]).collect();
                let outs = encode_sum_traced(
                    &mut cnf,
                    &singles,
                    Some(plan.count_to),
                    Use::AtMost,
                    &mut counter,
                );
                for &(d, o) in &outs.outputs {
                    if o != p.y(d) {
                        cnf.add_clause(&[!o, p.y(d)]);
                    }
                }
            }
            let mut groups: Vec<Vec<(Lit, u64)>> = plan.dots.clone();
            groups.extend(plan.steps.iter().map(|&t| vec![t]));
            let sum =
                encode_sum_traced(&mut cnf, &groups, Some(limit + 1), Use::AtMost, &mut bound);
            match sum.at_most(limit) {
                Bound::Lit(l) => {
                    cnf.add_clause(&[l]);
                    unit = Some(!l);
                }
                Bound::Trivial | Bound::Impossible => {}
            }
        }
    }
    for clause in class_clauses(plan) {
        cnf.add_clause(&clause);
    }
    if cnf.over().is_some() {
        return Err(format!(
            "its own formula would add more than {MOST_OWN_LITERALS} literals to the rules"
        ));
    }
    Ok(Built {
        cnf: cnf.inner.0,
        counter,
        bound,
        unit,
    })
}

/// Per listed answer: "some red dot's factor larger, or fewer than its `D` painted cells".
fn class_clauses(plan: &Plan) -> Vec<Vec<Lit>> {
    let p = &plan.problem;
    plan.classes
        .iter()
        .map(|(factors, d)| {
            let mut clause: Vec<Lit> = p
                .enc
                .factors
                .iter()
                .zip(factors)
                .flat_map(|(lits, &f)| lits.iter().filter(move |t| t.0 > f).map(|t| t.1))
                .collect();
            if *d >= 2 {
                clause.push(!p.y(*d));
            }
            clause
        })
        .collect()
}

impl capability::PbOwnOptimum for Kakkuro {
    /// The formula whose refutation the proof replays, with the encoding to read its models:
    /// answers it lets through go into `listed` and it is built again.
    fn own_formula(
        inst: &Instance,
        best: &Answer,
        lemmas: &[Value],
        listed: &[Answer],
    ) -> Result<(Cnf, Encoding), String> {
        let plan = plan(inst, best, lemmas, listed)?;
        let cnf = build(&plan)?.cnf;
        Ok((cnf, plan.problem.enc))
    }

    /// The proof that `best` is optimal, from the answers [`formula`] let through (`listed`), the
    /// lemmas' DRAT proofs and a DRAT proof that `formula` with `listed` is unsatisfiable. Returns
    /// the problem, the proof and the verdict line `veripb` must print.
    fn own_proof(
        inst: &Instance,
        best: &Answer,
        lemmas: &[Value],
        listed: &[Answer],
        drats: &OwnDrats,
    ) -> Result<(String, String, String), String> {
        let plan = plan(inst, best, lemmas, listed)?;
        let lemma_drats = (drats.lemmas)()?;
        let drat = (drats.own)()?;
        let built = build(&plan)?;
        let p = &plan.problem;
        let top = p.n + p.painted() as u32;
        let name = move |v: u32| {
            if v <= top {
                format!("x{v}")
            } else {
                format!("t{v}")
            }
        };
        let mut pf = Proof::new(constraints(p), &name);
        let x = &plan.x;
        let best_score = check(&inst.puzzle, best).map_err(|v| v.to_string())?.score;
        if let Some((a, _)) = plan.logged.last() {
            if check(&inst.puzzle, a).map_err(|v| v.to_string())?.score != best_score {
                return Err("internal error: the answer of the highest objective value does not score the optimum".into());
            }
        }

        // The large constraints only the derivations use, deleted before the solver's steps, which
        // would otherwise propagate them at every step.
        let mut spent: Vec<u64> = Vec::new();
        pf.line(
            "% the optimum, and each listed answer of a higher objective value, logged in turn",
        );
        let mut better = 0;
        for (a, d) in &plan.logged {
            better = pf.soli(&p.model(a, *d)?);
        }

        pf.line("% each red dot has at most one factor, by contradiction");
        let mut amo: Vec<Option<String>> = Vec::new();
        for lits in &p.enc.factors {
            amo.push(match lits.len() {
                0 => None,
                1 => Some(pf.lit(!lits[0].1)),
                n => {
                    let terms: Vec<(u64, Lit)> = lits.iter().map(|t| (1, !t.1)).collect();
                    pf.pbc(&pf.constraint(&terms, n as i64 - 1));
                    lits.iter().for_each(|t| {
                        pf.rup_clause(&[!t.1]);
                    });
                    pf.rup_clause(&[]);
                    let id = pf.qed();
                    spent.push(id);
                    Some(id.to_string())
                }
            });
        }

        pf.line("% the lemmas, each by contradiction from its own DRAT proof");
        if lemma_drats.len() != lemmas.len() {
            return Err("a DRAT proof per lemma is needed".into());
        }
        let mut unit_ids: Vec<(Lit, u64)> = Vec::new();
        for (l, drat) in lemmas.iter().zip(&lemma_drats) {
            let (dot, max) = super::dot_lemma(&p.enc, l)?;
            let above: Vec<Lit> = p.enc.factors[dot]
                .iter()
                .filter(|t| t.0 > max)
                .map(|t| t.1)
                .collect();
            let terms: Vec<(u64, Lit)> = above.iter().map(|&l| (1, !l)).collect();
            pf.pbc(&pf.constraint(&terms, above.len() as i64));
            if !pf.drat(drat, |v| (v >= 1 && v <= p.n).then_some(v))? {
                pf.rup_clause(&[]);
            }
            spent.push(pf.qed());
            for &l in &above {
                unit_ids.push((l, pf.rup_clause(&[!l])));
            }
        }
        let lemma_unit = |f_lit: Lit| {
            unit_ids
                .iter()
                .find(|u| u.0 == f_lit)
                .map(|u| u.1)
                .expect("a unit per factor above a lemma")
        };

        pf.line("% more painted cells make y_d for every smaller d");
        for d in 2..=p.painted() {
            let (ge, _) = y_defs(p, d);
            let (_, le) = y_defs(p, d - 1);
            pf.rup_summed(&[ge, le], &[!p.y(d), p.y(d - 1)]);
        }

        // O + Σ weight_r × (dot r's at most one), each weight a BigInt.
        let weighted = |weights: &[BigInt]| -> String {
            let mut rule = format!("pol {better}");
            for (a, w) in amo.iter().zip(weights) {
                if let Some(a) = a.as_ref().filter(|_| w.sign() == Sign::Plus) {
                    let _ = write!(rule, " {a} {w} * +");
                }
            }
            rule
        };

        // O plus each dot's at-most-one times its largest weight, the factors above a lemma gone
        // by their units: "the deficits add up to at most K".
        let tops: Vec<BigInt> = plan.most.iter().map(|&m| p.w(m)).collect();
        let deficits = || -> String {
            let mut rule = weighted(&tops);
            for ((lits, &top), w_top) in p.enc.factors.iter().zip(&plan.most).zip(&tops) {
                for &(f, l) in lits.iter().filter(|t| t.0 > top) {
                    let c = p.w(f) - w_top;
                    if c.sign() == Sign::Plus {
                        let _ = write!(rule, " {} {c} * +", lemma_unit(l));
                    }
                }
            }
            rule
        };

        if let Some(limit) = plan.limit {
            pf.line(
                "% the painted cells' counter and the rounded bound: outputs defined, clauses derived",
            );
            let counted = define_at_most(&mut pf, &built.counter, &mut spent);
            if let Some(root) = counted.last() {
                for m in root {
                    if m.output == p.y(m.value) {
                        continue;
                    }
                    let (_, le) = y_defs(p, m.value);
                    let ids: Vec<u64> = m.implies.into_iter().chain([le]).collect();
                    pf.rup_summed(&ids, &[!m.output, p.y(m.value)]);
                }
            }
            pf.line("% the deficits add up to at most K: O plus each dot's at most one times its largest weight");
            let mut rule = deficits();
            // Each remaining coefficient lowered to a multiple of q, then divided by it.
            let q = &plan.q;
            for ((lits, &top), w_top) in p.enc.factors.iter().zip(&plan.most).zip(&tops) {
                for &(f, l) in lits.iter().filter(|t| t.0 <= top) {
                    let r = (w_top - p.w(f)) % q;
                    if r.sign() == Sign::Plus {
                        let _ = write!(rule, " {} {r} * +", pf.lit(l));
                    }
                }
            }
            for d in 2..=p.painted() {
                let r = (p.w(d) - p.w(d - 1)) % q;
                if r.sign() == Sign::Plus {
                    let _ = write!(rule, " {} {r} * +", pf.lit(p.y(d)));
                }
            }
            let _ = write!(rule, " {q} d");
            let bound = pf.step(&rule);
            spent.push(bound);
            let summed = define_at_most(&mut pf, &built.bound, &mut spent);
            if let Some(unit) = built.unit {
                let root = summed.last().expect("a bound with a unit has a root");
                let m = root
                    .iter()
                    .find(|m| m.output == unit)
                    .expect("the unit is the root's");
                debug_assert!(m.value > limit);
                let ids: Vec<u64> = [bound].into_iter().chain(m.implies).collect();
                pf.rup_summed(&ids, &[!unit]);
            }
        } else {
            pf.line(
                "% no answer can be better: O plus each dot's at most one times its largest weight",
            );
            let rule = deficits();
            pf.step(&rule);
        }

        pf.line(
            "% the answers the rounded bound lets through, each with every answer it dominates",
        );
        for ((factors, _), clause) in plan.classes.iter().zip(class_clauses(&plan)) {
            let weights: Vec<BigInt> = factors.iter().map(|&f| p.w(f)).collect();
            pf.rup_with(&weighted(&weights), &clause);
        }
        if !spent.is_empty() {
            pf.line("% what the solver's steps do not need");
            pf.line(&format!(
                "del id {} ;",
                spent
                    .iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        let o = format!("{}", -x);
        let proof = pf.refute(
            if plan.limit.is_some() { &drat } else { "" },
            built.cnf.num_vars,
            |empty| format!("BOUNDS {o} : {empty} {o}"),
        )?;
        Ok((
            problem_text(p),
            proof,
            format!("s VERIFIED BOUNDS {o} <= obj <= {o}"),
        ))
    }
}
