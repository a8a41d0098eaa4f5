//! What the driver sees of a genre: its [`Puzzle`] core and every capability of
//! [`crate::capability`], answering "not for this genre" for those its row in
//! [`crate::genres`] does not name. Nobody implements [`Genre`] by hand: the row does, with
//! [`crate::declare!`].

use crate::cnf::{ClauseSink, Lit};
use crate::format::error::ParseError;
use crate::puzzle::{
    Ended, Flag, Format, GenerateSpec, Goal, Hints, Info, Made, Observer, Puzzle, Task,
};
use crate::search::{encode_with, enumerate, maximize, Sink, Tighten};
use crate::solver::{NewSolver, SolverError};
use serde_json::{Map, Value};
use std::fmt;

pub trait Genre: Puzzle {
    /// [`NoScore`] unless the genre has [`crate::capability::Scoring`].
    type Score: Ord + Clone + fmt::Display + Send + 'static;
    const TASK: Task = Task::Enumerate;
    const URL_KINDS: &'static [&'static str] = &[];
    /// Whether it has [`crate::capability::Backbone`] (`--hints`).
    const HINTS: bool = false;
    /// Whether it has [`crate::capability::Generate`].
    const GENERATES: bool = false;
    /// Whether it has [`crate::capability::Explain`].
    const EXPLAINS: bool = false;
    const PARTS: &'static str = "";
    /// [`crate::capability::Generate::SIZE`].
    const GENERATE_SIZE: Option<(usize, usize)> = None;
    /// [`crate::capability::Generate::UNIQUE`].
    const GENERATES_UNIQUE: bool = false;
    const COMPLETION: Option<Completion<Self>> = None;
    const LEMMAS: Option<Lemmas<Self>> = None;
    const PB_CLAIMS: Option<OwnProblem<Self>> = None;
    const PB_OPTIMUM: Option<Optimum<Self>> = None;

    /// The formats `solve`, `decode` (and `generate`, as a puzzle file) print besides `json`,
    /// in [`Format::ALL`]'s order: text and svg for every genre, url for one with URLs, and
    /// the forms its [`Info::formats`] names.
    fn formats() -> Vec<Format> {
        Format::ALL
            .into_iter()
            .filter(|f| match f {
                Format::Text | Format::Svg => true,
                Format::Url => !Self::URL_KINDS.is_empty(),
                Format::Json => false,
                f => Self::INFO.formats.contains(f),
            })
            .collect()
    }

    /// The flags it takes, besides those every genre takes.
    fn flags() -> Vec<Flag> {
        let mut flags = Vec::new();
        if Self::INFO.lenient {
            flags.push(Flag::Lenient);
        }
        if Self::TASK == Task::Maximize {
            flags.push(Flag::MinScore);
        }
        if Self::HINTS {
            flags.push(Flag::Hints);
        }
        flags
    }

    fn score(checked: &Self::Checked) -> Self::Score;

    fn score_value(_score: &Self::Score) -> Option<f64> {
        None
    }

    /// By default the rules are encoded into a counter, which stores nothing.
    fn estimate(inst: &Self::Instance, _limit: u64) -> u64 {
        let mut count = crate::cnf::SizeCounter::default();
        Self::encode(inst, &mut count);
        count.literals
    }

    /// [`Self::estimate`] of the formula the searches build ([`Self::encode_search`]).
    fn estimate_search(inst: &Self::Instance, limit: u64) -> u64 {
        Self::estimate(inst, limit)
    }

    /// By default the generic search its [`Task`] names, on one solver holding the rules.
    fn search(
        inst: &Self::Instance,
        goal: Goal,
        solvers: &dyn NewSolver,
        out: &mut dyn Observer<Self>,
    ) -> Result<Ended, SolverError> {
        by_task::<Self>(inst, goal, solvers, out)
    }

    /// The formula the searches start from: the whole rules, unless the genre has
    /// [`crate::capability::Cuts`].
    fn encode_search<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding {
        Self::encode(inst, sink)
    }

    /// [`crate::capability::Cuts::cuts`]; none without it.
    fn cuts(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _answer: &Self::Answer,
    ) -> Vec<Vec<Lit>> {
        Vec::new()
    }

    /// [`crate::capability::Cuts::repair`]; none without it.
    fn repair(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _answer: &Self::Answer,
    ) -> Option<Self::Answer> {
        None
    }

    /// The bare puzzle by default.
    fn svg_broken(inst: &Self::Instance, _text: &str, caption: &str) -> String {
        Self::svg(inst, &[], caption)
    }

    fn describe_valid(
        _inst: &Self::Instance,
        _answer: &Self::Answer,
        checked: &Self::Checked,
        _completed: bool,
    ) -> String {
        match Self::score(checked).to_string() {
            score if score.is_empty() => "valid\n".to_string(),
            score => format!("valid, score {score}\n"),
        }
    }

    fn instance_json(_inst: &Self::Instance) -> Map<String, Value> {
        Map::new()
    }

    fn dimacs_comments(_inst: &Self::Instance, name: &str) -> Vec<String> {
        plain_comments(&Self::INFO, name)
    }

    fn min_score<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
        _bound: &str,
    ) -> Result<Vec<String>, String> {
        Err(format!("{} has no score", Self::INFO.name))
    }

    fn objective<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
    ) -> Result<crate::cnf::objective::Objective, String> {
        Err(format!("{} has no score", Self::INFO.name))
    }

    fn plain_encode<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding {
        Self::encode(inst, sink)
    }

    fn derived_units(_inst: &Self::Instance, _enc: &Self::Encoding) -> Vec<Lit> {
        Vec::new()
    }

    fn better_than<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
        _score: &Self::Score,
        _lemmas: &[Value],
    ) -> Result<(), String> {
        Err(format!("{} has no score", Self::INFO.name))
    }

    fn reaches(_checked: &Self::Checked, _bound: &str) -> Option<bool> {
        None
    }

    fn hints(
        _inst: &Self::Instance,
        _found: &(Self::Answer, Self::Checked),
        _solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Self::Answer>>, SolverError> {
        Err(SolverError(format!(
            "--hints is not for {}",
            Self::INFO.name
        )))
    }

    fn from_url(link: &crate::format::url::Link) -> Result<String, ParseError> {
        Err(ParseError::new(
            1,
            1,
            format!(
                "{} puzzles have no puzz.link URL form (this one is {:?})",
                Self::INFO.name,
                link.kind
            ),
        ))
    }

    fn to_url(_inst: &Self::Instance) -> Result<String, String> {
        Err(format!(
            "{} puzzles have no puzz.link URL form",
            Self::INFO.name
        ))
    }

    fn generate(
        _spec: &GenerateSpec,
        _solvers: &dyn NewSolver,
        _note: &mut dyn FnMut(String),
    ) -> Result<Option<Made<Self::Answer>>, String> {
        Err(format!("{} has no generator", Self::INFO.name))
    }

    fn series(
        _spec: &GenerateSpec,
        _solvers: &dyn NewSolver,
        _note: &mut dyn FnMut(String),
    ) -> Result<Option<crate::puzzle::Series<Self::Answer>>, String> {
        Err(format!("{} has no generator", Self::INFO.name))
    }

    fn difficulty(_inst: &Self::Instance) -> Option<(usize, usize)> {
        None
    }

    /// [`crate::capability::Explain::estimate_named`], or [`Self::estimate`] where the genre
    /// gives none.
    fn estimate_named(inst: &Self::Instance, limit: u64) -> u64 {
        Self::estimate(inst, limit)
    }

    /// [`crate::capability::Explain::named`]; `None` without it.
    fn named(_inst: &Self::Instance) -> Option<crate::explain::Named<Self::Encoding>> {
        None
    }

    fn draw_known(
        _inst: &Self::Instance,
        _named: &crate::explain::Named<Self::Encoding>,
        _known: &[Lit],
    ) -> String {
        String::new()
    }

    /// [`crate::capability::Explain::svg_step`]; empty without it.
    fn svg_step(
        _inst: &Self::Instance,
        _named: &crate::explain::Named<Self::Encoding>,
        _known: &[Lit],
        _rules: &[usize],
        _deduced: &[usize],
        _caption: &str,
    ) -> String {
        String::new()
    }
}

/// [`Genre::search`]'s default: the generic search its [`Task`] names, on one solver holding
/// the whole formula (enumerating, the rules less those left to cuts, and the cuts it needs;
/// a scoring genre's search states every rule).
pub fn by_task<P: Genre>(
    inst: &P::Instance,
    goal: Goal,
    solvers: &dyn NewSolver,
    out: &mut dyn Observer<P>,
) -> Result<Ended, SolverError> {
    let mut solver = solvers.new_solver();
    if P::TASK == Task::Maximize {
        // `better_than` may let a not-better answer through, so the last one is blocked too;
        // a bound no answer can pass is an empty clause, which the next call refutes at once.
        return maximize::<P, _, _>(
            inst,
            &mut *solver,
            out,
            P::score,
            |enc, solver, best, last| {
                P::block(
                    inst,
                    enc,
                    &mut Sink(&mut *solver),
                    std::slice::from_ref(last),
                );
                P::better_than(inst, enc, &mut Sink(solver), best, &[])
                    .map(|()| Tighten::Added)
                    .map_err(SolverError)
            },
        );
    }
    let max = match goal {
        Goal::Enumerate { max } => max,
        Goal::Best => 1,
    };
    let enc = encode_with::<P, _>(&mut *solver, out, |sink| P::encode_search(inst, sink));
    enumerate::<P, _>(
        inst,
        &mut *solver,
        &enc,
        max,
        out,
        |enc, solver, answer| P::block(inst, enc, &mut Sink(solver), std::slice::from_ref(answer)),
        |enc, answer| P::cuts(inst, enc, answer),
        |enc, answer| P::repair(inst, enc, answer),
    )
}

/// Refuses an instance whose formula would pass [`crate::cnf::MAX_LITERALS`], before building any
/// of it.
pub fn fits<P: Genre>(inst: &P::Instance) -> Result<(), crate::solver::SolverError> {
    too_large(P::estimate(inst, crate::cnf::MAX_LITERALS))
}

/// [`fits`] for the formula the searches build, which leaves out what cuts stand for.
pub fn fits_search<P: Genre>(inst: &P::Instance) -> Result<(), crate::solver::SolverError> {
    too_large(P::estimate_search(inst, crate::cnf::MAX_LITERALS))
}

/// The most literals `explain`'s named rules may hold: half a formula's. They are stored a
/// clause apart (about 22 bytes a literal against a solver's few) and held again by each
/// solver of the race, so at this bound `explain` takes about what `solve` does at
/// [`crate::cnf::MAX_LITERALS`]. The largest janko.at board (Nurikabe 1055, 40×57) is
/// estimated at 23 million.
pub const NAMED_LITERALS: u64 = crate::cnf::MAX_LITERALS / 2;

/// Refuses, before building any of them, an instance whose named rules would pass
/// [`NAMED_LITERALS`] (a `?` in Nurikabe has a fact per cell and a forest of its own), or
/// whose formula `solve` would refuse ([`fits`]).
pub fn fits_named<P: Genre>(inst: &P::Instance) -> Result<(), crate::solver::SolverError> {
    // The genres' named estimates are cheap; the formula's may count it all.
    if P::estimate_named(inst, NAMED_LITERALS) > NAMED_LITERALS {
        return Err(crate::solver::SolverError(format!(
            "the puzzle is too large to explain: its named rules would hold more than {} million literals, the most explain builds",
            NAMED_LITERALS / 1_000_000
        )));
    }
    fits::<P>(inst)
}

fn too_large(estimate: u64) -> Result<(), crate::solver::SolverError> {
    if estimate > crate::cnf::MAX_LITERALS {
        return Err(crate::solver::SolverError(format!(
            "the puzzle is too large: its formula would hold more than {} million literals, the most puzzle-sat builds",
            crate::cnf::MAX_LITERALS / 1_000_000
        )));
    }
    Ok(())
}

/// The puzzle file a puzz.link URL stands for, read as `P`'s (its kind must be one `P`
/// reads); errors name the URL and the column.
pub fn url_text<P: Genre>(url: &str) -> Result<String, String> {
    let link = crate::format::url::split(url).map_err(|e| format!("{url}:{e}"))?;
    if !P::URL_KINDS.contains(&link.kind) {
        if P::URL_KINDS.is_empty() {
            return Err(format!(
                "{url}:1:1: {} puzzles have no puzz.link URL form (this one is {:?})",
                P::INFO.name,
                link.kind
            ));
        }
        let reads: Vec<String> = P::URL_KINDS.iter().map(|k| format!("{k:?}")).collect();
        return Err(format!(
            "{url}:1:1: this URL holds a {:?} puzzle, not {} (which reads {} URLs)",
            link.kind,
            P::INFO.name,
            reads.join(", ")
        ));
    }
    P::from_url(&link).map_err(|e| format!("{url}:{e}"))
}

/// A capability: completing an answer that leaves parts to the solver (Kakkuro's bare contest
/// string leaves the sides), as `check` and certificates do.
pub struct Completion<P: Puzzle> {
    /// The instance restricted to completions of the incomplete answer.
    pub fix: fn(&P::Instance, &P::Answer) -> P::Instance,
    /// Whether an answer (of the fixed instance) is a completion of the incomplete one.
    pub completes: fn(&P::Answer, &P::Answer) -> bool,
    /// What `fix` keeps, as a verdict names the restriction: "optimum S among {this}".
    pub scope: &'static str,
    /// `check`'s verdict when no completion is valid.
    pub none: &'static str,
}

/// How a puzzle finds its lemmas ([`Lemmas::find`]).
pub type FindLemmas<P> =
    fn(&<P as Puzzle>::Instance, &dyn NewSolver) -> Result<Vec<Value>, SolverError>;

/// How a puzzle states a lemma ([`Lemmas::clauses`]).
pub type LemmaClauses<P> = fn(
    &<P as Puzzle>::Instance,
    &<P as Puzzle>::Encoding,
    &mut dyn ClauseSink,
    &Value,
    bool,
) -> Result<(), String>;

/// A capability: facts an optimality certificate proves first, each on its own, so that
/// [`crate::capability::Scoring::better_than`] can be stated against them (Kakkuro: each red dot's
/// largest factor, which shrinks its bound many times over). Described in JSON for the claim.
pub struct Lemmas<P: Puzzle> {
    /// The lemmas of an instance, proved with solvers from the source given.
    pub find: FindLemmas<P>,
    /// A lemma's clauses, or with `negated` the clauses saying it fails, whose refutation
    /// together with the rules proves it.
    pub clauses: LemmaClauses<P>,
}

/// The puzzle's own problem, and proofs that it has no answer but those a claim lists
/// ([`crate::capability::PbClaims`]).
pub struct OwnProblem<P: Puzzle> {
    /// The problem as an OPB file, from the instance and the answers a claim blocks (a unique
    /// or counted solution): the rules, "none of these answers", and for a scoring puzzle minus
    /// the score as the `min:` objective.
    pub problem: fn(&P::Instance, &[P::Answer]) -> String,
    /// The proof that the problem with these answers blocked is infeasible (no-solution claims,
    /// and unique and count claims), from a DRAT proof that the certificate's `final.cnf` for
    /// the claim is unsatisfiable, its derived units first. Its conclusion is `BOUNDS INF INF`
    /// for a scoring puzzle (the problem has an objective), `UNSAT` otherwise.
    pub refutation: Refutation<P>,
}

/// How an [`OwnProblem`] is refuted ([`OwnProblem::refutation`]).
pub type Refutation<P> =
    fn(&<P as Puzzle>::Instance, &[<P as Puzzle>::Answer], &str) -> Result<String, String>;

/// How a VeriPB proof of an optimum is made ([`crate::capability::PbOptimum`],
/// [`crate::capability::PbOwnOptimum`]).
pub enum Optimum<P: Genre> {
    /// From the DRAT proof of `final.cnf` (with no lemmas, units or blocked answers), against
    /// [`OwnProblem::problem`]: `proof(instance, answer, score, drat)`, and the objective value
    /// a score has in the problem.
    FromFinal {
        proof: FinalProof<P>,
        objective: fn(&P::Score) -> String,
    },
    /// From the DRAT refutation of a formula of the proof's own: `formula(instance, best,
    /// lemmas, listed)` with the encoding to read its models (an answer it lets through, which
    /// must score no more than `best`, is listed and the formula built again), and
    /// `proof(instance, best, lemmas, listed, DRAT proofs)`, which gives the
    /// problem, the proof and the verdict line `veripb` must print.
    Own {
        formula: OwnFormula<P>,
        proof: OwnProof<P>,
    },
}

/// How [`Optimum::FromFinal`] makes its proof.
pub type FinalProof<P> = fn(
    &<P as Puzzle>::Instance,
    &<P as Puzzle>::Answer,
    &<P as Genre>::Score,
    &str,
) -> Result<String, String>;

pub type OwnFormula<P> = fn(
    &<P as Puzzle>::Instance,
    &<P as Puzzle>::Answer,
    &[Value],
    &[<P as Puzzle>::Answer],
) -> Result<(crate::cnf::Cnf, <P as Puzzle>::Encoding), String>;
/// The DRAT proofs an [`OwnProof`] is made from, read only if the proof can be made at all:
/// the lemmas' (in order), and its own formula's refutation.
pub struct OwnDrats<'a> {
    pub lemmas: &'a dyn Fn() -> Result<Vec<String>, String>,
    pub own: &'a dyn Fn() -> Result<String, String>,
}

pub type OwnProof<P> = fn(
    &<P as Puzzle>::Instance,
    &<P as Puzzle>::Answer,
    &[Value],
    &[<P as Puzzle>::Answer],
    &OwnDrats,
) -> Result<(String, String, String), String>;

/// The DIMACS file's first comments: the genre and file, and what the variables mean.
pub fn plain_comments(info: &Info, name: &str) -> Vec<String> {
    let mut lines = vec![format!("puzzle-sat {} {name}", info.name)];
    if !info.variables.is_empty() {
        lines.push(format!("variables: {}", info.variables));
    }
    lines
}
