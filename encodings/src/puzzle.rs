//! The contract between one puzzle and the generic driver: everything the driver's commands
//! (`solve`, `encode`, `decode`, `check`, `generate`) need, so that they are written once for
//! every puzzle. A new puzzle is a module implementing [`Puzzle`] plus one registry line.
//!
//! Solver-free like the rest of this crate: searches get their solvers from a [`NewSolver`].

use crate::cnf::{ClauseSink, Model};
use crate::error::ParseError;
use crate::solver::{NewSolver, SolverError, SolverStats};
use serde_json::{Map, Value};
use std::fmt;

/// What solving a puzzle means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Find the answer with the highest exact score and prove that no better one exists.
    Maximize,
    /// Find answers one by one: solve, count, prove uniqueness.
    Enumerate,
}

/// Output formats. `json` is written by the driver for every puzzle; the others by the puzzle
/// (`judge` only by puzzles that list it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// The drawn answer with its score and verdict.
    #[default]
    Text,
    /// One line: the best score, or -1 when there is no answer (Luogu P1074's judge).
    Judge,
    /// One JSON object.
    Json,
    /// Box-drawing lines around each region.
    Box,
    /// One line `row col height width` per rectangle, 0-based.
    Rects,
    /// The answer on one line, as `check` reads it back (sudoku's 81 digits, Kakkuro's contest
    /// string with sides).
    Line,
    /// The puzzle (not an answer) as a puzz.link URL.
    Url,
    /// A standalone SVG picture of the puzzle and its answer ([`Puzzle::svg`]).
    Svg,
}

impl Format {
    pub const ALL: [Format; 8] = [
        Format::Text,
        Format::Judge,
        Format::Json,
        Format::Box,
        Format::Rects,
        Format::Line,
        Format::Url,
        Format::Svg,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Judge => "judge",
            Format::Json => "json",
            Format::Box => "box",
            Format::Rects => "rects",
            Format::Line => "line",
            Format::Url => "url",
            Format::Svg => "svg",
        }
    }

    /// Formats that print the answer and nothing else: verdicts go to stderr, so that the
    /// output can be read back as it is.
    pub fn bare(self) -> bool {
        matches!(self, Format::Rects | Format::Line | Format::Svg)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Flags that mean something only for some puzzles; the driver refuses the others before any
/// work is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// `--lenient`: score rule breaks instead of forbidding them.
    Lenient,
    /// `--min-score S` for `encode` / `decode`.
    MinScore,
    /// `solve --hints`: see [`Puzzle::hints`].
    Hints,
}

/// What every answer (every optimal answer, for a scoring puzzle) has in common: `solve --hints`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hints<A> {
    /// The decided part as an answer with gaps (rectangles left out, digits 0), for drawings.
    pub partial: A,
    /// Listed under `hints` in JSON, in the form of the answer's own field (rectangles; a grid
    /// with 0 where undecided).
    pub json: Value,
    /// The decided part drawn as text, `.` where undecided.
    pub drawn: String,
    /// How many parts (rectangles, cells) are decided, of how many in an answer.
    pub decided: usize,
    pub of: usize,
    /// What the parts are: "rectangles", "cells".
    pub unit: &'static str,
}

/// Settings that change what a puzzle file means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub lenient: bool,
}

/// The score of a puzzle that has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct NoScore;

impl From<()> for NoScore {
    fn from(_: ()) -> NoScore {
        NoScore
    }
}

impl fmt::Display for NoScore {
    fn fmt(&self, _: &mut fmt::Formatter) -> fmt::Result {
        Ok(())
    }
}

/// What a search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The best answer, proved optimal ([`Task::Maximize`]).
    Best,
    /// Up to `max` different answers ([`Task::Enumerate`]).
    Enumerate { max: u64 },
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The solver refuted what is left: the last best answer is optimal, the count is exact,
    /// or there is no answer at all.
    Proved,
    /// [`Goal::Enumerate`] found its `max` answers.
    Limit,
    /// The run's stop flag was raised (time limit) before the search was over.
    Stopped,
}

/// Where a search reports as it goes.
pub trait Observer<P: Puzzle> {
    /// A valid answer, already re-checked by the independent validator; for [`Goal::Best`],
    /// each one better than all before.
    fn found(&mut self, answer: &P::Answer, checked: &P::Checked);
    /// The solver's counters, after encoding and after each call.
    fn stats(&mut self, stats: SolverStats);
    /// For [`Goal::Best`]: no answer scores more than `bound` (proved; a float, as a search on
    /// a log scale proves it), each call lower than the last. Searches that prove no such bound
    /// before the end never call it.
    fn upper_bound(&mut self, _bound: f64) {}
}

/// An answer read back from a file for `check`.
pub struct ReadAnswer<P: Puzzle> {
    pub answer: P::Answer,
    /// False when the answer leaves parts to the solver (Kakkuro's bare contest string has no
    /// sides): `check` then solves [`Puzzle::fix`]'s instance for the best completion.
    pub complete: bool,
    /// A score the answer file claims, compared with the exact one.
    pub claimed: Option<String>,
}

/// Whether `line` is a whole verdict line as `solve` and `decode` print them under an answer
/// (`solved`, `unique`, `not unique: two different solutions`, `13 solutions`, …, with or
/// without the external solver's note), so that an answer reader can tell such a line after
/// the answer from the answer. The driver's tests hold every verdict it prints to it.
pub fn is_verdict(line: &str) -> bool {
    const EXACT: &[&str] = &[
        "solved",
        "unique",
        "no solution",
        "not unique: two different solutions",
        "no solution found (time limit)",
        "one solution found; uniqueness unknown (time limit)",
        "optimal (proved)",
        "best found (time limit: not proved optimal)",
        "no answer found (time limit)",
        "no answer scores --min-score or more",
        "valid answer (optimality not checked)",
    ];
    let line = line.trim_end();
    if line == "optimal (per the external solver; unchecked)" {
        return true;
    }
    let line = line
        .strip_suffix(" (per the external solver; unchecked)")
        .unwrap_or(line);
    if EXACT.contains(&line) {
        return true;
    }
    // `N solution(s)`, `at least N solution(s) (time limit)`, `more than N solution(s) (stopped at M)`.
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let solutions = |s: &str| -> Option<String> {
        let (n, rest) = s.split_once(' ')?;
        let rest = rest
            .strip_prefix("solutions")
            .or_else(|| rest.strip_prefix("solution"))?;
        number(n).then(|| rest.to_string())
    };
    if solutions(line).is_some_and(|rest| rest.is_empty()) {
        return true;
    }
    if let Some(rest) = line.strip_prefix("at least ").and_then(solutions) {
        return rest == " (time limit)";
    }
    if let Some(rest) = line.strip_prefix("more than ").and_then(solutions) {
        return rest
            .strip_prefix(" (stopped at ")
            .and_then(|r| r.strip_suffix(')'))
            .is_some_and(number);
    }
    false
}

/// The optional first line of a puzzle file naming its kind, `puzzle-sat: NAME`: `run` sorts
/// files by it, and every command skips it (checking that it names the puzzle asked for).
pub const HEADER: &str = "puzzle-sat:";

/// The puzzle named by `text`'s header line, if it has one.
pub fn header(text: &str) -> Option<&str> {
    // After a byte-order mark, as every parser reads the first line (an editor's UTF-8 BOM).
    let first = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .next()?;
    Some(first.strip_prefix(HEADER)?.trim())
}

/// `text` after its header line, and how many lines that skipped (0 or 1), to add to the
/// line numbers of parse errors.
pub fn without_header(text: &str) -> (&str, usize) {
    match header(text) {
        Some(_) => (text.find('\n').map_or("", |i| &text[i + 1..]), 1),
        None => (text, 0),
    }
}

/// A puzzle file read as `P`: a header line, when present, must name `P`, and error lines
/// count from the file's first line (the header's too).
pub fn parse_file<P: Puzzle>(text: &str, settings: &Settings) -> Result<P::Instance, ParseError> {
    if let Some(name) = header(text) {
        if name != P::NAME {
            return Err(ParseError::new(
                1,
                1,
                format!("the header says this is a {name:?} puzzle, not {}", P::NAME),
            ));
        }
    }
    let (body, skipped) = without_header(text);
    P::parse(body, settings).map_err(|e| ParseError {
        line: e.line + skipped,
        ..e
    })
}

/// The puzzle file a puzz.link URL stands for, read as `P`'s (its kind must be one `P`
/// reads); errors name the URL and the column.
pub fn url_text<P: Puzzle>(url: &str) -> Result<String, String> {
    let link = crate::url::split(url).map_err(|e| format!("{url}:{e}"))?;
    if !P::URL_KINDS.contains(&link.kind) {
        if P::URL_KINDS.is_empty() {
            return Err(format!(
                "{url}:1:1: {} puzzles have no puzz.link URL form (this one is {:?})",
                P::NAME,
                link.kind
            ));
        }
        let reads: Vec<String> = P::URL_KINDS.iter().map(|k| format!("{k:?}")).collect();
        return Err(format!(
            "{url}:1:1: this URL holds a {:?} puzzle, not {} (which reads {} URLs)",
            link.kind,
            P::NAME,
            reads.join(", ")
        ));
    }
    P::from_url(&link).map_err(|e| format!("{url}:{e}"))
}

/// What a puzzle module implements. Required: names and formats, the five types, and the
/// steps parse → encode → decode → check → render / svg / JSON, plus reading an answer back
/// and blocking one; everything else has a default that an enumerate-only puzzle keeps
/// (no flags, no score, the generic searches, `valid` as `check`'s report). What only some
/// puzzles have (`--hints`, `--min-score`, completions, lemmas, URLs) defaults to "not for this
/// puzzle", and the command line refuses it by name before any work; `generate` is a trait of
/// its own ([`Generate`]), which the registry row declares.
pub trait Puzzle: Sized + 'static {
    /// The name on the command line.
    const NAME: &'static str;
    /// One line for `--help`.
    const ABOUT: &'static str;
    const TASK: Task = Task::Enumerate;
    /// The formats `solve`, `decode` (and `generate`, as a puzzle file) print besides `json`.
    const FORMATS: &'static [Format];
    const FLAGS: &'static [Flag] = &[];
    /// The keys [`Self::answer_json`] writes (`null` in JSON output when there is no answer);
    /// a test over the registry holds each puzzle's example answer to them.
    const ANSWER_FIELDS: &'static [&'static str];
    /// The pzprjs names of the URLs this puzzle reads ([`Self::from_url`]); a URL given without
    /// a puzzle's name goes to the first puzzle in the registry that lists its kind.
    const URL_KINDS: &'static [&'static str] = &[];
    /// What the variables mean, for the DIMACS file's comments (the default
    /// [`Self::dimacs_comments`]).
    const VARIABLES: &'static str = "";
    /// The format certificates keep answers in: one `check` reads back whole.
    const MACHINE: Format;
    /// File extensions that mark this puzzle's files for `run`, besides the puzzle's name.
    const EXTENSIONS: &'static [&'static str] = &[];

    /// A parsed puzzle file.
    type Instance: Clone + Send + Sync + 'static;
    /// Compared with `==` by `run` against an expected answer: decode and `read_answer` give
    /// one canonical form of each answer.
    type Answer: Clone + Send + PartialEq + 'static;
    /// What the independent validator learns of a valid answer: its exact score and parts.
    type Checked: Clone + Send + 'static;
    /// Compared exactly (integers or exact fractions, never floating point); [`NoScore`] when the
    /// puzzle has no score. Made from a checked answer by [`Self::score`].
    type Score: Ord + Clone + fmt::Display + Send + 'static + From<Self::Checked>;
    /// Whatever decode and the searches need to find again: variables, sum outputs.
    type Encoding;

    fn parse(text: &str, settings: &Settings) -> Result<Self::Instance, ParseError>;

    /// About how many literals the formula of `inst` holds, counted no further than just past
    /// `limit` and without building anything: the driver refuses an instance past
    /// [`crate::cnf::MAX_LITERALS`] before encoding it. (The [`crate::cnf::Limited`] sink
    /// stays the backstop for what an estimate misses.) By default the rules are encoded into
    /// a counter, which stores nothing: a puzzle whose files can ask for huge formulas says
    /// more cheaply how large they get.
    fn estimate(inst: &Self::Instance, _limit: u64) -> u64 {
        let mut count = crate::cnf::SizeCounter::default();
        Self::encode(inst, &mut count);
        count.literals
    }

    /// The rules, as clauses whose models are exactly the valid answers.
    fn encode<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding;

    fn decode(inst: &Self::Instance, enc: &Self::Encoding, model: &Model) -> Self::Answer;

    /// The independent validator: the first broken rule, or what a valid answer scores.
    fn check(inst: &Self::Instance, answer: &Self::Answer) -> Result<Self::Checked, String>;

    fn score(checked: &Self::Checked) -> Self::Score {
        Self::Score::from(checked.clone())
    }

    /// A score's approximate value, only for showing how far a proved upper bound is above the
    /// best found (never for comparing scores); `None` for puzzles whose searches prove no
    /// upper bounds.
    fn score_value(_score: &Self::Score) -> Option<f64> {
        None
    }

    /// Solves `inst` with solvers from `solvers`, reporting every answer to `out`. By default
    /// the generic searches on one solver holding [`Self::encode`]'s formula: for
    /// [`Task::Enumerate`], answers one by one, each excluded by [`Self::block`]; for
    /// [`Task::Maximize`], bound tightening with [`Self::better_than`] after each answer.
    fn search(
        inst: &Self::Instance,
        goal: Goal,
        solvers: &dyn NewSolver,
        out: &mut dyn Observer<Self>,
    ) -> Result<Ended, SolverError> {
        crate::search::by_task::<Self>(inst, goal, solvers, out)
    }

    /// Reads an answer for `check` (positions in errors are the answer file's); the inner
    /// error is a rule the answer breaks already as read (e.g. a region that is no rectangle).
    fn read_answer(
        inst: &Self::Instance,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError>;

    /// The answer drawn in `format` (one of [`Self::FORMATS`], never json, judge or svg), with
    /// its score where it has one.
    fn render(
        inst: &Self::Instance,
        answer: &Self::Answer,
        checked: &Self::Checked,
        format: Format,
    ) -> String;

    /// A standalone SVG picture of the puzzle with its clues: with no answer the bare puzzle,
    /// with one the answer and its score, with two both side by side, the cells where they
    /// differ marked; `caption` (the verdict) is written under it.
    fn svg(
        inst: &Self::Instance,
        answers: &[(&Self::Answer, &Self::Checked)],
        caption: &str,
    ) -> String;

    /// `check --format svg` of an answer (`text`, as `check` read it) that breaks a rule: the
    /// answer as far as it can be drawn, with the cells the first broken rule names outlined,
    /// and no score; the bare puzzle by default.
    fn svg_broken(inst: &Self::Instance, _text: &str, caption: &str) -> String {
        Self::svg(inst, &[], caption)
    }

    /// `check`'s report on a valid answer; `completed` when the solver chose its open parts.
    /// By default `valid`, with the score when the puzzle has one.
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

    /// The answer's fields in JSON output.
    fn answer_json(
        inst: &Self::Instance,
        answer: &Self::Answer,
        checked: &Self::Checked,
    ) -> Map<String, Value>;

    /// Fields about the instance in JSON output (e.g. Kakkuro's mode).
    fn instance_json(_inst: &Self::Instance) -> Map<String, Value> {
        Map::new()
    }

    /// `c` lines heading the DIMACS file: the puzzle and file, and what the variables mean
    /// ([`Self::VARIABLES`]).
    fn dimacs_comments(_inst: &Self::Instance, name: &str) -> Vec<String> {
        let mut lines = vec![format!("puzzle-sat {} {name}", Self::NAME)];
        if !Self::VARIABLES.is_empty() {
            lines.push(format!("variables: {}", Self::VARIABLES));
        }
        lines
    }

    /// Adds "the score is at least `bound`" (for `encode --min-score`) and returns comment
    /// lines saying so; only for puzzles listing [`Flag::MinScore`].
    fn min_score<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
        _bound: &str,
    ) -> Result<Vec<String>, String> {
        Err(format!("{} has no score", Self::NAME))
    }

    /// The score as a linear objective over [`Self::encode`]'s literals, for OPB and WCNF files
    /// (`encode --format opb|wcnf`), adding to `sink` whatever it counts with (after the rules,
    /// so that the rules' variables keep their numbers). Its notes say how its value maps back
    /// to the score. Only for puzzles with [`Task::Maximize`].
    fn objective<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
    ) -> Result<crate::objective::Objective, String> {
        Err(format!("{} has no score", Self::NAME))
    }

    /// Excludes each of `answers`, and no answer scoring more than the one it stands for:
    /// certificates block the answers a claim's formula must rule out (a solution for
    /// uniqueness, each counted one, or those a bound let through without beating the claimed
    /// score). A scoring puzzle may exclude a whole class at once (Kakkuro: every answer with
    /// the same factors and no smaller D).
    fn block<S: ClauseSink>(
        inst: &Self::Instance,
        enc: &Self::Encoding,
        sink: &mut S,
        answers: &[Self::Answer],
    );

    /// Whether [`Self::block`] excludes exactly the listed answers and nothing else: only then
    /// can a certificate claim `unique` or a count (a class blocked at once would make "no
    /// answer is left" say nothing about how many there are). Off unless a puzzle states it.
    const BLOCKS_EXACTLY: bool = false;

    /// The rules as a certificate states them. By default [`Self::encode`]'s; a puzzle whose
    /// encoder first drops what it found impossible (Tatamibari's pruning and probing) states
    /// the plain rules here, so that a certificate trusts none of that, and gives what it found
    /// as [`Self::derived_units`].
    fn plain_encode<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding {
        Self::encode(inst, sink)
    }

    /// Unit clauses over [`Self::plain_encode`]'s variables, each following from the plain
    /// rules and the units before it by unit propagation alone (a RUP lemma): a certificate
    /// hands them to its proving solver and writes them as its proof's first lines.
    fn derived_units(_inst: &Self::Instance, _enc: &Self::Encoding) -> Vec<crate::cnf::Lit> {
        Vec::new()
    }

    /// Clauses that keep every answer scoring strictly more than `score`, for a certificate of
    /// optimality: they may keep some that do not (the certificate then blocks those one by
    /// one, each listed with its exact score) but must never cut one that does. Only for
    /// puzzles with [`Task::Maximize`].
    fn better_than<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
        _score: &Self::Score,
        _lemmas: &[Value],
    ) -> Result<(), String> {
        Err(format!("{} has no score", Self::NAME))
    }

    /// Answers that leave parts to the solver ([`ReadAnswer::complete`] false): how `check`
    /// completes them. Only puzzles whose answers may be incomplete have it.
    const COMPLETION: Option<Completion<Self>> = None;

    /// Facts an optimality certificate proves first. Only scoring puzzles that need them have it.
    const LEMMAS: Option<Lemmas<Self>> = None;

    /// VeriPB certificates of optimality claims, beside the DRAT one. Only puzzles that have
    /// them.
    const VERIPB: Option<VeriPb<Self>> = None;

    /// Whether a valid answer's score reaches `bound` (as given to `--min-score`), compared
    /// exactly; `None` when `bound` is no score. `decode` says so when a CNF's approximate bound
    /// let a lower answer through.
    fn reaches(_checked: &Self::Checked, _bound: &str) -> Option<bool> {
        None
    }

    /// With [`Flag::Hints`]: what every answer has in common (for a scoring puzzle, every
    /// answer with `found`'s score, which must be proved optimal), `found` being one of them.
    /// `None` when the run's stop flag ended the work first.
    fn hints(
        _inst: &Self::Instance,
        _found: &(Self::Answer, Self::Checked),
        _solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Self::Answer>>, SolverError> {
        Err(SolverError(format!("--hints is not for {}", Self::NAME)))
    }

    /// The puzzle file for a puzz.link URL already split ([`crate::url::split`]), whose kind
    /// the driver has found in [`Self::URL_KINDS`]; `Err` (the column in the URL) for a body
    /// that holds no such puzzle.
    fn from_url(link: &crate::url::Link) -> Result<String, ParseError> {
        Err(ParseError::new(
            1,
            1,
            format!(
                "{} puzzles have no puzz.link URL form (this one is {:?})",
                Self::NAME,
                link.kind
            ),
        ))
    }

    /// The puzz.link URL of a puzzle, or why it has none.
    fn to_url(_inst: &Self::Instance) -> Result<String, String> {
        Err(format!("{} puzzles have no puzz.link URL form", Self::NAME))
    }
}

/// `generate`: random puzzles of this kind. A capability only some puzzles have, which the
/// puzzle's registry row declares (`Row::of::<P>().generates::<P>()`).
pub trait Generate: Puzzle {
    /// What [`Self::difficulty`] counts ("rectangles").
    const PARTS: &'static str;

    /// A random puzzle file as `spec` asks (unique when asked, checked with solvers from
    /// `solvers`) with the answer it was made around, which the driver re-checks with the
    /// validator before printing the puzzle (a uniqueness check only rules out *other*
    /// answers); `None` when the run's stop flag ended the work first.
    fn generate(
        spec: &GenerateSpec,
        solvers: &dyn NewSolver,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<Made<Self::Answer>>, String>;

    /// How easy a puzzle is: how many parts of the answer unit propagation on the rules
    /// decides with no search, of how many; `None` where the puzzle has no such measure, or
    /// propagation alone finds the rules contradictory.
    fn difficulty(_inst: &Self::Instance) -> Option<(usize, usize)> {
        None
    }
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
/// [`Puzzle::better_than`] can be stated against them (Kakkuro: each red dot's largest factor,
/// which shrinks its bound many times over). Described in JSON for the claim.
pub struct Lemmas<P: Puzzle> {
    /// The lemmas of an instance, proved with solvers from the source given.
    pub find: FindLemmas<P>,
    /// A lemma's clauses, or with `negated` the clauses saying it fails, whose refutation
    /// together with the rules proves it.
    pub clauses: LemmaClauses<P>,
}

/// A capability: pseudo-Boolean (VeriPB) certificates against the puzzle's own problem, stated
/// from the instance as the rules read, in which the CNF encoding (and a score's) is derived
/// by the proof instead of trusted (`crate::veripb`).
pub struct VeriPb<P: Puzzle> {
    /// The puzzle's own problem for claims without a score; `None`: those claims state
    /// `final.cnf` as their problem (a second check of it).
    pub claims: Option<OwnProblem<P>>,
    /// How an optimum is proved; `None` where optima have no proof.
    pub optimum: Option<Optimum<P>>,
}

/// The puzzle's own problem, and proofs that it has no answer but those a claim lists.
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

/// How a VeriPB proof of an optimum is made.
pub enum Optimum<P: Puzzle> {
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
    &<P as Puzzle>::Score,
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

/// What `generate` is asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GenerateSpec {
    pub rows: usize,
    pub cols: usize,
    pub seed: u64,
    pub unique: bool,
    /// Sparser clues: about this many cells per clue (a target the plain generator's puzzle
    /// already meets changes nothing).
    pub cells_per_clue: Option<f64>,
}

/// A generated puzzle: its file, the answer it was made around, and a line for the user about
/// what was asked and not met (stderr, or JSON's `remark`).
pub struct Made<A> {
    pub text: String,
    pub answer: A,
    pub remark: Option<String>,
}

/// Refuses an instance whose formula would pass [`crate::cnf::MAX_LITERALS`], before building any of it.
pub fn fits<P: Puzzle>(inst: &P::Instance) -> Result<(), crate::solver::SolverError> {
    let estimate = P::estimate(inst, crate::cnf::MAX_LITERALS);
    if estimate > crate::cnf::MAX_LITERALS {
        return Err(crate::solver::SolverError(format!(
            "the puzzle is too large: its formula would hold more than {} million literals, the most puzzle-sat builds",
            crate::cnf::MAX_LITERALS / 1_000_000
        )));
    }
    Ok(())
}
