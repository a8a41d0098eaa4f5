//! Kakkuro Optimization on the command line: the optimisation loop (per-dot maxima, then
//! deficit bounds with exact re-scoring), solve, check, encode, decode.

use crate::cli::{exit, Done, Format};
use crate::dimacs;
use crate::input::Input;
use crate::json;
use crate::optimize::{run, Msg, Options, Outcome, Status};
use crate::solver::Varisat;
use crate::worker::Report;
use anyhow::{anyhow, bail, Result};
use encodings::cnf::{Cnf, SizeCounter};
use encodings::kakkuro::bound;
use encodings::kakkuro::{self as kk, Answer, Encoding, Puzzle, Score, Scored};
use encodings::sum::Bound;
use std::sync::mpsc::Sender;

/// An answer with its exact score and parts.
#[derive(Clone, Debug)]
pub struct Found {
    pub answer: Answer,
    pub scored: Scored,
}

/// The deficit bound first asked for, in units of 1/SCALE: small, so the first totalizers
/// are small; doubled each time the solver refutes it.
const FIRST_BOUND: u64 = 64;

pub fn parse(input: &Input, lenient: bool) -> Result<Puzzle> {
    let mut p = kk::parse(&input.text).map_err(|e| input.error(e))?;
    p.lenient = lenient;
    Ok(p)
}

/// Finds the best answer (with `fixed`, the best choice of sides for those values) and proves
/// it optimal unless the time limit passes.
pub fn optimize(p: Puzzle, fixed: Option<Answer>, opts: &Options) -> Outcome<Found, Score> {
    run(opts, move |tx| search(&p, fixed.as_ref(), tx))
}

struct Search<'a> {
    p: &'a Puzzle,
    solver: Varisat<'static>,
    enc: Encoding,
    best: Option<Found>,
    /// Per red dot, the largest factor seen in any answer (a proved lower bound on its maximum).
    seen: Vec<u64>,
}

impl Search<'_> {
    /// Decodes and re-scores the model with the independent validator; reports an improvement.
    fn take(&mut self, tx: &Sender<Report<Msg<Found, Score>>>) -> Option<Found> {
        let answer = kk::decode(&self.enc, &self.solver.model());
        let scored = kk::check(self.p, &answer).unwrap_or_else(|v| panic!("internal error: the solver's answer breaks a rule: {v}"));
        for (s, &f) in self.seen.iter_mut().zip(&scored.factors) {
            *s = (*s).max(f);
        }
        let found = Found { answer, scored };
        if self.best.as_ref().is_none_or(|b| found.scored.score > b.scored.score) {
            self.best = Some(found.clone());
            if tx.send(Report::Msg(Msg::Improved { answer: found.clone(), score: found.scored.score.clone() })).is_err() {
                return None;
            }
        }
        Some(found)
    }

    fn solve(&mut self, assumptions: &[encodings::cnf::Lit], tx: &Sender<Report<Msg<Found, Score>>>) -> Option<bool> {
        let sat = self.solver.solve_with(assumptions);
        tx.send(Report::Msg(Msg::Call(self.solver.calls()))).ok()?;
        Some(sat)
    }
}

fn search(p: &Puzzle, fixed: Option<&Answer>, tx: &Sender<Report<Msg<Found, Score>>>) {
    if run_search(p, fixed, tx).is_some() {
        let _ = tx.send(Report::Done);
    }
}

/// `None` when the caller went away (time limit).
fn run_search(p: &Puzzle, fixed: Option<&Answer>, tx: &Sender<Report<Msg<Found, Score>>>) -> Option<()> {
    let mut solver = Varisat::new();
    let enc = kk::encode(p, &mut solver);
    if let Some(values) = fixed {
        kk::fix_values(&enc, &mut solver, values);
    }
    let div = bound::divisor(&enc, &mut solver);
    tx.send(Report::Msg(Msg::Encoded { vars: solver.vars(), clauses: solver.clauses() })).ok()?;
    let dots = enc.factors.len();
    let mut s = Search { p, solver, enc, best: None, seen: vec![0; dots] };
    if !s.solve(&[], tx)? {
        return Some(());
    }
    s.take(tx)?;
    // Each dot's largest factor on its own, by binary search over its possible values; every
    // refuted value and all above it are excluded for good.
    let mut maxima = Vec::with_capacity(dots);
    for r in 0..dots {
        let values: Vec<u64> = s.enc.factors[r].iter().map(|&(f, _)| f).collect(); // descending
        let index = |f: u64| values.iter().position(|&v| v == f).expect("listed");
        let (mut lo, mut hi) = (0, index(s.seen[r]));
        while lo < hi {
            let mid = (lo + hi) / 2;
            let act = bound::factor_at_least(&s.enc, &mut s.solver, r, values[mid]);
            if s.solve(&[act], tx)? {
                s.take(tx)?;
                hi = index(s.seen[r]);
            } else {
                bound::factor_below(&s.enc, &mut s.solver, r, values[mid]);
                lo = mid + 1;
            }
        }
        if hi > 0 {
            bound::factor_below(&s.enc, &mut s.solver, r, values[hi - 1]);
        }
        maxima.push(values[hi]);
    }
    // Deficit bounds: ask for the best's bound, or a smaller one first while that is cheaper.
    let mut limit = FIRST_BOUND;
    let mut sum = None;
    loop {
        let best = &s.best.as_ref().expect("an answer was found").scored;
        let Some(better) = bound::better_than(bound::deficit(&maxima, &best.factors, best.score.d, best.score.e)) else {
            return Some(()); // nothing can beat a zero deficit
        };
        let k = better.min(limit);
        let cap = limit.max(k) + 1;
        if sum.as_ref().is_none_or(|o: &encodings::sum::SumOutputs| o.cap.is_some_and(|c| c < cap)) {
            sum = Some(bound::deficit_sum(&s.enc, &div, &maxima, cap, &mut s.solver));
        }
        let assumptions = match sum.as_ref().expect("built above").at_most(k) {
            Bound::Trivial => vec![],
            Bound::Lit(l) => vec![l],
            Bound::Impossible => {
                if k == better {
                    return Some(());
                }
                limit *= 2;
                continue;
            }
        };
        if s.solve(&assumptions, tx)? {
            // Whether or not it improved, the best is now at least as good as this answer, so
            // its factor combination is done with (the bound alone may let it through again).
            let found = s.take(tx)?;
            let (f, d, e) = (&found.scored.factors, found.scored.score.d, found.scored.score.e);
            bound::block(&s.enc, &div, &mut s.solver, f, d, e);
        } else if k == better {
            return Some(()); // proved: nothing better than the best exists
        } else {
            limit *= 2;
        }
    }
}

pub fn solve(input: &Input, lenient: bool, format: Format, opts: &Options) -> Result<Done> {
    let p = parse(input, lenient)?;
    let outcome = optimize(p.clone(), None, opts);
    let code = match outcome.status {
        Status::Unknown => exit::TIME_LIMIT,
        Status::NoSolution => exit::NO_SOLUTION,
        _ => exit::ANSWER,
    };
    let best = outcome.best.as_ref().map(|(f, _)| f);
    let stdout = match format {
        Format::Json => {
            let s = &outcome.stats;
            let mut fields = vec![
                ("puzzle", json::string("kakkuro")),
                ("status", json::string(outcome.status.json_name())),
                ("mode", json::string(mode(&p))),
            ];
            fields.extend(best.map(|f| answer_json(&p, f)).unwrap_or_default());
            fields.extend([
                ("sat_calls", s.sat_calls.to_string()),
                ("variables", s.vars.to_string()),
                ("clauses", s.clauses.to_string()),
                ("seconds", format!("{:.6}", s.elapsed.as_secs_f64())),
            ]);
            json::object(&fields) + "\n"
        }
        Format::Text => match best {
            Some(f) => format!("{}{}\n", describe(&p, f), status_text(outcome.status)),
            None => format!("{}\n", status_text(outcome.status)),
        },
        _ => bail!("solve kakkuro prints text or json"),
    };
    Ok(Done { stdout, code })
}

fn mode(p: &Puzzle) -> &'static str {
    if p.lenient {
        "lenient"
    } else {
        "strict"
    }
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::Optimal => "optimal (proved)",
        Status::BestFound => "best found (time limit: not proved optimal)",
        Status::NoSolution => "no valid answer",
        Status::Unknown => "no answer found (time limit)",
    }
}

/// The drawn grid, the contest string, and the score with its parts.
fn describe(p: &Puzzle, f: &Found) -> String {
    let sc = &f.scored;
    let score = &sc.score;
    let factors: Vec<String> = p
        .dots()
        .iter()
        .zip(&sc.factors)
        .map(|(&i, &fac)| match f.answer.cells[i] {
            kk::Cell::Gray { number, open } => {
                let k = open.iter().filter(|&&o| o).count();
                let how = if k == 4 { format!("{number}²") } else { format!("{number}×{k}") };
                format!("r{}c{} {how} = {fac}", i / p.cols + 1, i % p.cols + 1)
            }
            kk::Cell::White(_) => unreachable!("red dots are gray"),
        })
        .collect();
    let mut out = kk::render(p, &f.answer);
    out += &format!("{}\n", kk::contest_string(p, &f.answer, score));
    out += &format!(
        "score {score}{}: P = {}, D = {} ({} painted, {} errors), E = {}{} ({} mode)\n",
        decimal(score),
        score.p,
        score.d,
        sc.painted,
        score.e,
        score.e,
        if score.e == 0 { ", × 1.1" } else { "" },
        mode(p)
    );
    if !factors.is_empty() {
        out += &format!("red dots: {}\n", factors.join(", "));
    }
    if score.passes_bonus_line() {
        out += "the score passes 10^11: the contest's bonus line\n";
    }
    out
}

/// ` (≈ 12.345)` for a fraction, nothing for an integer.
fn decimal(score: &Score) -> String {
    let (n, q) = score.reduced();
    if q == 1 {
        return String::new();
    }
    let whole = n.div_small(q);
    let frac = n.rem_small(q) as f64 / q as f64;
    format!(" (≈ {whole}{})", format!("{frac:.3}").trim_start_matches('0'))
}

fn answer_json(p: &Puzzle, f: &Found) -> Vec<(&'static str, String)> {
    let score = &f.scored.score;
    let cells = f.answer.cells.iter().map(|c| match *c {
        kk::Cell::White(k) => k.to_string(),
        kk::Cell::Gray { number, open } => {
            let sides: String = (0..4).filter(|&d| open[d]).map(|d| kk::SIDES[d]).collect();
            json::string(&format!("{number}:{sides}"))
        }
    });
    let rows: Vec<String> = cells.collect::<Vec<_>>().chunks(p.cols).map(|r| json::array(r.iter().cloned())).collect();
    vec![
        ("score", json::string(&score.to_string())),
        ("contest", json::string(&kk::contest_string(p, &f.answer, score))),
        ("p", json::string(&score.p.to_string())),
        ("d", score.d.to_string()),
        ("e", score.e.to_string()),
        ("painted", f.scored.painted.to_string()),
        ("factors", json::array(f.scored.factors.iter().map(|x| x.to_string()))),
        ("bonus_line", score.passes_bonus_line().to_string()),
        ("grid", json::array(rows)),
    ]
}

/// Checks an answer with sides as it is; for a bare contest string, finds the best sides.
pub fn check(input: &Input, answer: &Input, lenient: bool) -> Result<Done> {
    let p = parse(input, lenient)?;
    let read = kk::parse_answer(&p, &answer.text).map_err(|e| answer.error(e))?;
    let claimed = |score: &Score| match &read.claimed {
        Some(c) if *c != score.to_string() => format!("note: the contest string claims {c}, the exact score is {score}\n"),
        _ => String::new(),
    };
    if read.sides {
        return Ok(match kk::check(&p, &read.answer) {
            Ok(sc) => {
                let f = Found { answer: read.answer.clone(), scored: sc };
                Done { stdout: format!("valid ({} mode)\n{}", mode(&p), describe(&p, &f)), code: exit::ANSWER }
            }
            Err(v) => Done { stdout: format!("invalid: {v}\n"), code: exit::NO_SOLUTION },
        });
    }
    if let Err(v) = kk::check_values(&p, &read.answer) {
        return Ok(Done { stdout: format!("invalid: {v}\n"), code: exit::NO_SOLUTION });
    }
    let opts = Options { time_limit: None, progress: crate::optimize::Progress::Never };
    let outcome = optimize(p.clone(), Some(read.answer.clone()), &opts);
    Ok(match outcome.best {
        Some((f, score)) => Done {
            stdout: format!("valid ({} mode), scored with the best choice of sides\n{}{}", mode(&p), describe(&p, &f), claimed(&score)),
            code: exit::ANSWER,
        },
        None => Done { stdout: "invalid: no choice of open sides makes these values valid (rules 1, 3, 4 or 5)\n".into(), code: exit::NO_SOLUTION },
    })
}

/// DIMACS of the rules; with a minimum score, also the deficit bound for it (see
/// docs/encodings/kakkuro.md: every answer scoring at least S is a model, and a model may score
/// up to about 1% per red dot less, which `decode` reports exactly).
pub fn encode(input: &Input, lenient: bool, min_score: Option<&str>) -> Result<String> {
    let p = parse(input, lenient)?;
    let (cnf, _, comments) = cnf(&p, &input.name, min_score)?;
    Ok(dimacs::to_string(&cnf, &comments))
}

/// The CNF `encode` writes, with its encoding and comments (decode rebuilds the same one).
fn cnf(p: &Puzzle, name: &str, min_score: Option<&str>) -> Result<(Cnf, Encoding, Vec<String>)> {
    let mut cnf = Cnf::new();
    let enc = kk::encode(p, &mut cnf);
    let mut comments = vec![
        format!("puzzle-sat kakkuro {name} ({} mode)", mode(p)),
        "variables rRcC painted / digit K / number N / open SIDE / sum SIDE V / flow SIDE / factor F: see docs/encodings/kakkuro.md".to_string(),
    ];
    if let Some(s) = min_score {
        let target = parse_score(s)?;
        let div = bound::divisor(&enc, &mut cnf);
        // Without a solver the maxima are each dot's largest listed factor (a sound bound).
        let maxima: Vec<u64> = enc.factors.iter().map(|v| v.first().map_or(1, |&(f, _)| f)).collect();
        comments.push(format!("only answers scoring at least {s} (and some within rounding below it)"));
        match bound::at_least_score(&maxima, target) {
            None => cnf.clauses.push(Vec::new()),
            Some(k) => match bound::deficit_sum(&enc, &div, &maxima, k + 1, &mut cnf).at_most(k) {
                Bound::Trivial => {}
                Bound::Impossible => cnf.clauses.push(Vec::new()),
                Bound::Lit(l) => cnf.clauses.push(vec![l]),
            },
        }
    }
    Ok((cnf, enc, comments))
}

/// A score as the tool prints them: an integer, a fraction `a/b`, or a decimal.
fn parse_score(s: &str) -> Result<f64> {
    let bad = || anyhow!("--min-score: {s:?} is not a score (an integer, a fraction a/b, or a decimal)");
    let v = match s.split_once('/') {
        Some((a, b)) => {
            let (a, b): (f64, f64) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
            a / b
        }
        None => s.trim().parse().map_err(|_| bad())?,
    };
    if !(v.is_finite() && v > 0.0) {
        bail!("--min-score must be a positive score, not {s}");
    }
    Ok(v)
}

/// Reads a model of `encode`'s CNF (made with the same `--min-score`, if any).
pub fn decode(input: &Input, model: &Input, lenient: bool, min_score: Option<&str>, format: Format) -> Result<Done> {
    let p = parse(input, lenient)?;
    let (cnf, enc, _) = cnf(&p, &input.name, min_score)?;
    let Some(m) = dimacs::external_model(&cnf, &model.text, &model.name)? else {
        return Ok(Done::refuted("kakkuro", format));
    };
    let answer = kk::decode(&enc, &m);
    let scored = kk::check(&p, &answer).map_err(|v| anyhow!("{}: the decoded answer breaks a rule: {v}", model.name))?;
    let f = Found { answer, scored };
    let stdout = match format {
        Format::Json => {
            let mut fields = vec![("puzzle", json::string("kakkuro")), ("status", json::string("solution")), ("mode", json::string(mode(&p)))];
            fields.extend(answer_json(&p, &f));
            json::object(&fields) + "\n"
        }
        _ => format!("{}valid answer (optimality not checked)\n", describe(&p, &f)),
    };
    Ok(Done { stdout, code: exit::ANSWER })
}

/// The CNF size of a board (for the benchmark and docs).
pub fn size(p: &Puzzle) -> (u32, u64) {
    let mut counter = SizeCounter::default();
    kk::encode(p, &mut counter);
    (counter.vars, counter.clauses)
}
