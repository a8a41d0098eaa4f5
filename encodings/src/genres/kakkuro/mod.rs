//! Kakkuro Optimization (Turkzeka 2010): a Kakuro variant where the solver chooses which sides
//! of each gray cell are open, may paint white cells gray, and maximises a product score.
//!
//! Read top to bottom: [`parse`] → [`encode`] / [`decode`] → [`check`] (the independent
//! validator and the exact score) → [`render`].

pub mod bound;
mod check;
mod encode;
mod nat;
pub mod objective;
mod parse;
mod render;
pub mod search;
mod svg;
pub mod veripb;

pub use check::{check, check_values, parse_answer, ReadAnswer, Scored, Violation};
pub use encode::{decode, encode, fewest_painted, fix_values, Encoding};
pub use nat::Nat;
pub use parse::parse;
pub use render::{contest_string, render};

use crate::capability;
use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::ParseError;
use crate::puzzle::Info;
use crate::puzzle::{self, Format, Settings};
use crate::solver::{NewSolver, SolverError};
use serde_json::{json, Map, Value};

/// The four sides of a cell, in the order of the file format's letters.
pub const SIDES: [char; 4] = ['N', 'E', 'S', 'W'];

/// Row and column steps towards each side.
pub const STEP: [(isize, isize); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// The side facing side `d` across a line (N↔S, E↔W).
pub fn opposite(d: usize) -> usize {
    (d + 2) % 4
}

/// The largest gray number.
pub const MAX_NUMBER: u32 = 44;

/// What the puzzle gives for a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Given {
    /// White: the solver writes a digit or paints it gray.
    White,
    /// Gray, with a red dot when it scores, and the sides given as thick edges (bordered).
    Gray { dot: bool, thick: [bool; 4] },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    /// `cells[r * cols + c]`.
    pub cells: Vec<Given>,
    /// Lenient mode (docs/rules.md): rule 7 becomes the seed's error count.
    pub lenient: bool,
}

impl Puzzle {
    /// The neighbour of cell `i` towards side `d`, if it is on the board.
    pub fn step(&self, i: usize, d: usize) -> Option<usize> {
        let (r, c) = (
            (i / self.cols) as isize + STEP[d].0,
            (i % self.cols) as isize + STEP[d].1,
        );
        (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols)
            .then(|| r as usize * self.cols + c as usize)
    }

    /// The red-dot cells, in row-major order.
    pub fn dots(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| matches!(self.cells[i], Given::Gray { dot: true, .. }))
            .collect()
    }

    /// The cells of every row and every column (the lines of rule 7).
    pub fn lines(&self) -> Vec<Vec<usize>> {
        let rows = (0..self.rows).map(|r| (0..self.cols).map(|c| r * self.cols + c).collect());
        let cols = (0..self.cols).map(|c| (0..self.rows).map(|r| r * self.cols + c).collect());
        rows.chain(cols).collect()
    }
}

/// A cell of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    White(u32),
    /// A gray cell's number and which sides are open.
    Gray {
        number: u32,
        open: [bool; 4],
    },
}

/// An answer: `cells[r * cols + c]`. A gray cell on a given white cell is a painted one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub cells: Vec<Cell>,
}

/// A red dot's factor: number × open sides, or number² when all four are open.
pub fn factor(number: u32, open_sides: u32) -> u64 {
    if open_sides == 4 {
        u64::from(number) * u64::from(number)
    } else {
        u64::from(number) * u64::from(open_sides)
    }
}

/// An exact score: `p / max(d, 1)`, times 1.1 when there are no errors (docs/rules.md, "Score").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// The product of the red dots' factors.
    pub p: Nat,
    /// `D`: errors plus painted cells.
    pub d: u64,
    /// `E`: errors (0 in strict mode).
    pub e: u64,
}

impl Score {
    /// The score as a fraction `numerator / denominator` (not reduced).
    fn fraction(&self) -> (Nat, u64) {
        let bonus = if self.e == 0 { 11 } else { 10 };
        (self.p.mul_small(bonus), 10 * self.d.max(1))
    }

    /// The score in lowest terms.
    pub fn reduced(&self) -> (Nat, u64) {
        let (n, q) = self.fraction();
        let g = gcd(q, n.rem_small(q));
        (n.div_small(g), q / g)
    }

    /// Whether the score passes 10^11 (the contest's bonus line).
    pub fn passes_bonus_line(&self) -> bool {
        let (n, q) = self.fraction();
        n > Nat::from(100_000_000_000u64).mul_small(q)
    }
}

impl From<Scored> for Score {
    fn from(scored: Scored) -> Score {
        scored.score
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> std::cmp::Ordering {
        let ((a, qa), (b, qb)) = (self.fraction(), other.fraction());
        a.mul_small(qb).cmp(&b.mul_small(qa))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Score {
    /// An integer when the score is one, else a fraction `a/b` in lowest terms.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let (n, q) = self.reduced();
        if q == 1 {
            write!(f, "{n}")
        } else {
            write!(f, "{n}/{q}")
        }
    }
}

/// A puzzle as the driver solves it: with `fixed`, only the choice of sides (and so the score)
/// is left to the solver, for checking a bare contest string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub puzzle: Puzzle,
    pub fixed: Option<Answer>,
}

/// Kakkuro Optimization for the driver: the best answer, proved optimal, scored exactly.
pub struct Kakkuro;

impl puzzle::Puzzle for Kakkuro {
    const INFO: Info = Info {
        name: "kakkuro",
        about: "Turkzeka 2010's Kakuro variant: find the best-scoring answer and prove it optimal",
        formats: &[Format::Line],
        machine: Format::Line,
        answer_fields: &[
            "score",
            "contest",
            "p",
            "d",
            "e",
            "painted",
            "factors",
            "bonus_line",
            "grid",
        ],
        lenient: true,
        ..Info::DEFAULT
    };

    type Instance = Instance;
    type Answer = Answer;
    type Checked = Scored;
    type Encoding = Encoding;

    fn parse(text: &str, settings: &Settings) -> Result<Instance, ParseError> {
        let mut puzzle = parse(text)?;
        puzzle.lenient = settings.lenient;
        Ok(Instance {
            puzzle,
            fixed: None,
        })
    }

    fn encode<S: ClauseSink>(inst: &Instance, sink: &mut S) -> Encoding {
        let enc = encode(&inst.puzzle, sink);
        if let Some(values) = &inst.fixed {
            fix_values(&enc, sink, values);
        }
        enc
    }

    fn decode(_: &Instance, enc: &Encoding, model: &Model) -> Answer {
        decode(enc, model)
    }

    fn check(inst: &Instance, answer: &Answer) -> Result<Scored, String> {
        check(&inst.puzzle, answer).map_err(|v| v.to_string())
    }

    fn read_answer(
        inst: &Instance,
        text: &str,
    ) -> Result<Result<puzzle::ReadAnswer<Self>, String>, ParseError> {
        let read = parse_answer(&inst.puzzle, text)?;
        if !read.sides {
            if let Err(v) = check_values(&inst.puzzle, &read.answer) {
                return Ok(Err(v.to_string()));
            }
        }
        Ok(Ok(puzzle::ReadAnswer {
            answer: read.answer,
            complete: read.sides,
            claimed: read.claimed,
        }))
    }

    fn render(inst: &Instance, answer: &Answer, scored: &Scored, format: Format) -> String {
        match format {
            Format::Line => {
                render::contest_string_with_sides(&inst.puzzle, answer, &scored.score) + "\n"
            }
            _ => describe(&inst.puzzle, answer, scored),
        }
    }

    fn svg(inst: &Instance, answers: &[(&Answer, &Scored)], caption: &str) -> String {
        svg::svg(&inst.puzzle, answers, caption)
    }

    fn answer_json(inst: &Instance, answer: &Answer, scored: &Scored) -> Map<String, Value> {
        let p = &inst.puzzle;
        let score = &scored.score;
        let cells: Vec<Value> = answer
            .cells
            .iter()
            .map(|c| match *c {
                Cell::White(k) => json!(k),
                Cell::Gray { number, open } => {
                    let sides: String = (0..4).filter(|&d| open[d]).map(|d| SIDES[d]).collect();
                    json!(format!("{number}:{sides}"))
                }
            })
            .collect();
        let rows: Vec<Value> = cells
            .chunks(p.cols)
            .map(|r| Value::Array(r.to_vec()))
            .collect();
        let Value::Object(m) = json!({
            "score": score.to_string(),
            "contest": contest_string(p, answer, score),
            "p": score.p.to_string(),
            "d": score.d,
            "e": score.e,
            "painted": scored.painted,
            "factors": scored.factors,
            "bonus_line": score.passes_bonus_line(),
            "grid": rows,
        }) else {
            unreachable!()
        };
        m
    }

    /// The deficit bound for the score (see docs/encodings/kakkuro.md: every answer scoring at
    /// least S is a model, and a model may score up to about 1% per red dot less, which
    /// `decode` reports exactly).
    fn block<S: ClauseSink>(inst: &Instance, enc: &Encoding, sink: &mut S, answers: &[Answer]) {
        // By score class: the answer's factors with its D or more (and an error, if it had
        // one) score no more than it, so one clause excludes them all. D is counted once, as
        // far as the largest D asks.
        let scored: Vec<Scored> = answers
            .iter()
            .map(|a| check::check(&inst.puzzle, a).expect("blocked answers are valid"))
            .collect();
        let most = scored.iter().map(|s| s.score.d).max().unwrap_or(0);
        let div = bound::divisor(enc, most + 1, sink);
        for s in &scored {
            bound::block(enc, &div, sink, &s.factors, s.score.d, s.score.e);
        }
    }
}

impl capability::Scoring for Kakkuro {
    type Score = Score;

    fn score_value(score: &Score) -> Option<f64> {
        let (n, q) = score.reduced();
        Some(n.to_f64() / q as f64)
    }

    fn describe_valid(
        inst: &Instance,
        answer: &Answer,
        scored: &Scored,
        completed: bool,
    ) -> String {
        let how = if completed {
            ", scored with the best choice of sides"
        } else {
            ""
        };
        format!(
            "valid ({} mode){how}\n{}",
            mode(&inst.puzzle),
            describe(&inst.puzzle, answer, scored)
        )
    }

    fn instance_json(inst: &Instance) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("mode".into(), json!(mode(&inst.puzzle)));
        m
    }

    fn dimacs_comments(inst: &Instance, name: &str) -> Vec<String> {
        vec![
            format!("puzzle-sat kakkuro {name} ({} mode)", mode(&inst.puzzle)),
            "variables rRcC painted / digit K / number N / open SIDE / sum SIDE V / flow SIDE / factor F: see docs/encodings/kakkuro.md".to_string(),
        ]
    }

    fn better_than<S: ClauseSink>(
        _: &Instance,
        enc: &Encoding,
        sink: &mut S,
        score: &Score,
        lemmas: &[Value],
    ) -> Result<(), String> {
        // "At least `score`", its deficits rounded in the answers' favour (see bound.rs), against
        // each dot's proved largest factor where a lemma gives one, else its largest listed
        // one: it keeps every better answer; the certificate blocks the others it lets through.
        let mut maxima = listed_maxima(enc);
        for l in lemmas {
            // Two lemmas for one dot: the smaller maximum, as the VeriPB proof takes it.
            let (dot, max) = dot_lemma(enc, l)?;
            maxima[dot] = maxima[dot].min(max);
        }
        assert_at_least(enc, &maxima, parse_score(&score.to_string())?, sink);
        Ok(())
    }

    fn reaches(scored: &Scored, bound: &str) -> Option<bool> {
        let (a, b) = exact_score(bound)?;
        let (n, q) = scored.score.reduced();
        Some(n.mul_small(b) >= Nat::from(a).mul_small(q))
    }

    fn objective<S: ClauseSink>(
        _: &Instance,
        enc: &Encoding,
        sink: &mut S,
    ) -> Result<crate::cnf::objective::Objective, String> {
        Ok(objective::objective(enc, sink))
    }

    fn min_score<S: ClauseSink>(
        _: &Instance,
        enc: &Encoding,
        sink: &mut S,
        text: &str,
    ) -> Result<Vec<String>, String> {
        let target = parse_score(text)?;
        assert_at_least(enc, &listed_maxima(enc), target, sink);
        Ok(vec![format!(
            "only answers scoring at least {text} (and some within rounding below it)"
        )])
    }
}

impl capability::Lemmas for Kakkuro {
    /// Each red dot's largest factor.
    fn lemmas(inst: &Instance, solvers: &dyn NewSolver) -> Result<Vec<Value>, SolverError> {
        search::dot_maxima(inst, solvers).map(|maxima| {
            maxima
                .into_iter()
                .map(|(dot, max)| json!({ "dot": dot, "max": max }))
                .collect()
        })
    }

    fn lemma_clauses(
        _: &Instance,
        enc: &Encoding,
        sink: &mut dyn ClauseSink,
        lemma: &Value,
        negated: bool,
    ) -> Result<(), String> {
        let (dot, max) = dot_lemma(enc, lemma)?;
        let above: Vec<Lit> = enc
            .factors
            .get(dot)
            .ok_or("a lemma's dot is out of range")?
            .iter()
            .filter(|&&(f, _)| f > max)
            .map(|&(_, l)| l)
            .collect();
        if negated {
            sink.add_clause(&above);
        } else {
            above.iter().for_each(|&l| sink.add_clause(&[!l]));
        }
        Ok(())
    }
}

impl capability::Complete for Kakkuro {
    const SCOPE: &'static str = "the answers with the fixed answer's numbers";
    const NONE: &'static str =
        "no choice of open sides makes these values valid (rules 1, 3, 4 or 5)";

    /// A bare contest string fixes every value; the solver chooses the sides.
    fn fix(inst: &Instance, answer: &Answer) -> Instance {
        Instance {
            puzzle: inst.puzzle.clone(),
            fixed: Some(answer.clone()),
        }
    }

    /// The values (white digits, gray numbers) agree; the sides are the solver's, as
    /// [`fix_values`] leaves them.
    fn completes(fixed: &Answer, answer: &Answer) -> bool {
        fixed.cells.len() == answer.cells.len()
            && fixed
                .cells
                .iter()
                .zip(&answer.cells)
                .all(|(f, a)| match (*f, *a) {
                    (Cell::White(x), Cell::White(y)) => x == y,
                    (Cell::Gray { number: x, .. }, Cell::Gray { number: y, .. }) => x == y,
                    _ => false,
                })
    }
}

impl capability::Marks for Kakkuro {
    /// The answer read as `check` reads it, with the cell its first broken rule names.
    fn svg_broken(inst: &Instance, text: &str, caption: &str) -> String {
        let p = &inst.puzzle;
        let Ok(read) = parse_answer(p, text) else {
            return svg::svg(p, &[], caption);
        };
        let broken = if read.sides {
            check(p, &read.answer).err()
        } else {
            check_values(p, &read.answer).err()
        };
        let cells: Vec<usize> = broken.iter().map(|v| v.row * p.cols + v.col).collect();
        svg::broken(p, &read.answer, read.sides, &cells, caption)
    }
}

impl capability::Estimate for Kakkuro {
    fn estimate(inst: &Instance, _: u64) -> u64 {
        // The bundled boards take 1,900–4,700 literals per cell (sums, digits and rule 7 grow
        // with the lines' lengths, which rule 7 caps at 9 white cells).
        (inst.puzzle.rows * inst.puzzle.cols) as u64 * 10_000
    }
}

fn mode(p: &Puzzle) -> &'static str {
    if p.lenient {
        "lenient"
    } else {
        "strict"
    }
}

/// The drawn grid, the contest string, and the score with its parts.
fn describe(p: &Puzzle, answer: &Answer, sc: &Scored) -> String {
    let score = &sc.score;
    let factors: Vec<String> = p
        .dots()
        .iter()
        .zip(&sc.factors)
        .map(|(&i, &fac)| match answer.cells[i] {
            Cell::Gray { number, open } => {
                let k = open.iter().filter(|&&o| o).count();
                let how = if k == 4 {
                    format!("{number}²")
                } else {
                    format!("{number}×{k}")
                };
                format!("r{}c{} {how} = {fac}", i / p.cols + 1, i % p.cols + 1)
            }
            Cell::White(_) => unreachable!("red dots are gray"),
        })
        .collect();
    let mut out = render(p, answer);
    out += &format!("{}\n", contest_string(p, answer, score));
    out += &format!(
        "score {score}{}: P = {}, D = {} ({} painted, {} error{}), E = {}{} ({} mode)\n",
        decimal(score),
        score.p,
        score.d,
        sc.painted,
        score.e,
        if score.e == 1 { "" } else { "s" },
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
    format!(
        " (≈ {whole}{})",
        format!("{frac:.3}").trim_start_matches('0')
    )
}

/// A score as the tool prints them: an integer, a fraction `a/b`, or a decimal. A float is
/// enough here: the bound it feeds is approximate by design (see [`bound`]).
fn parse_score(s: &str) -> Result<f64, String> {
    let bad =
        || format!("--min-score: {s:?} is not a score (an integer, a fraction a/b, or a decimal)");
    let v = match s.split_once('/') {
        Some((a, b)) => {
            let (a, b): (f64, f64) = (
                a.trim().parse().map_err(|_| bad())?,
                b.trim().parse().map_err(|_| bad())?,
            );
            a / b
        }
        None => s.trim().parse().map_err(|_| bad())?,
    };
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("--min-score must be a positive score, not {s}"));
    }
    Ok(v)
}

/// A score as an exact fraction `a / b`: an integer, `a/b`, or a decimal (`12.25`).
fn exact_score(s: &str) -> Option<(u64, u64)> {
    let s = s.trim();
    if let Some((a, b)) = s.split_once('/') {
        let b: u64 = b.trim().parse().ok()?;
        return (b > 0).then_some((a.trim().parse().ok()?, b));
    }
    match s.split_once('.') {
        Some((whole, frac)) if frac.len() <= 9 && frac.chars().all(|c| c.is_ascii_digit()) => {
            let den = 10u64.pow(frac.len() as u32);
            let whole: u64 = if whole.is_empty() {
                0
            } else {
                whole.parse().ok()?
            };
            let frac: u64 = if frac.is_empty() {
                0
            } else {
                frac.parse().ok()?
            };
            Some((whole.checked_mul(den)?.checked_add(frac)?, den))
        }
        Some(_) => None,
        None => Some((s.parse().ok()?, 1)),
    }
}

/// A lemma "red dot `dot`'s factor is at most `max`" from its JSON.
/// A lemma that says nothing (a maximum at or above the dot's largest listed factor) is
/// refused: nothing would prove it, and a VeriPB proof's bound would grow with it.
fn dot_lemma(enc: &Encoding, l: &Value) -> Result<(usize, u64), String> {
    let (dot, max) = match (l["dot"].as_u64(), l["max"].as_u64()) {
        (Some(dot), Some(max)) => (dot as usize, max),
        _ => return Err(format!("not a lemma of a red dot's largest factor: {l}")),
    };
    let listed = enc
        .factors
        .get(dot)
        .ok_or("a lemma's dot is out of range")?
        .first()
        .map_or(0, |t| t.0);
    if max >= listed {
        return Err(format!("a lemma that says nothing: red dot {dot}'s largest listed factor is {listed}, not above {max}"));
    }
    Ok((dot, max))
}

/// Each red dot's largest listed factor: a sound maximum without a solver.
fn listed_maxima(enc: &Encoding) -> Vec<u64> {
    enc.factors
        .iter()
        .map(|v| v.first().map_or(1, |&(f, _)| f))
        .collect()
}

/// "The score is at least `target`" against `maxima`, rounded in the answers' favour.
fn assert_at_least<S: ClauseSink>(enc: &Encoding, maxima: &[u64], target: f64, sink: &mut S) {
    match bound::at_least_score(maxima, target) {
        None => sink.add_clause(&[]),
        Some(k) => bound::assert_deficit_at_most(enc, maxima, k, sink),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genre::Genre as _;

    #[test]
    fn bounds_compare_exactly() {
        assert_eq!(exact_score("12"), Some((12, 1)));
        assert_eq!(exact_score(" 7/2 "), Some((7, 2)));
        assert_eq!(exact_score("3.25"), Some((325, 100)));
        assert_eq!(exact_score("3/0"), None);
        assert_eq!(exact_score("x"), None);
        // 2 × 1.1 / 1 = 11/5 = 2.2: reaches 2.2 and 11/5, not 2.21 or 221/100.
        let scored = Scored {
            score: Score {
                p: Nat::from(2),
                d: 0,
                e: 0,
            },
            factors: vec![2],
            painted: 0,
        };
        assert_eq!(Kakkuro::reaches(&scored, "2.2"), Some(true));
        assert_eq!(Kakkuro::reaches(&scored, "11/5"), Some(true));
        assert_eq!(Kakkuro::reaches(&scored, "2.21"), Some(false));
        assert_eq!(Kakkuro::reaches(&scored, "221/100"), Some(false));
        assert_eq!(Kakkuro::reaches(&scored, "lots"), None);
    }
}
