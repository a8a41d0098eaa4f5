//! The contract between one puzzle and the generic driver: everything the driver's commands
//! (`solve`, `encode`, `decode`, `check`, `generate`) need, so that they are written once for
//! every puzzle. A new puzzle is a module implementing [`Puzzle`] plus one registry line.
//!
//! Solver-free like the rest of this crate: searches get their solvers from a [`NewSolver`].

use crate::cnf::{ClauseSink, Model};
use crate::format::error::ParseError;
use crate::solver::SolverStats;
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
    /// `solve --hints`: see [`crate::capability::Backbone`].
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
    /// The decided part drawn as text, `.` where undecided (`?` for a shading, whose `.` is a
    /// decided unshaded cell).
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
    /// For [`Goal::Best`]: an answer found elsewhere (another cube of the same puzzle), whose
    /// score the search need not beat: it may prove only that nothing in its part of the
    /// answers scores more than this. Searches that cannot use it ignore it.
    fn floor(&self) -> Option<P::Checked> {
        None
    }
}

/// An answer read back from a file for `check`.
pub struct ReadAnswer<P: Puzzle> {
    pub answer: P::Answer,
    /// False when the answer leaves parts to the solver (Kakkuro's bare contest string has no
    /// sides): `check` then solves [`crate::capability::Complete::fix`]'s instance for the best
    /// completion.
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
        if name != P::INFO.name {
            return Err(ParseError::new(
                1,
                1,
                format!(
                    "the header says this is a {name:?} puzzle, not {}",
                    P::INFO.name
                ),
            ));
        }
    }
    let (body, skipped) = without_header(text);
    P::parse(body, settings).map_err(|e| ParseError {
        line: e.line + skipped,
        ..e
    })
}

/// What every genre says: its name and formats, its four types, and the steps parse → encode →
/// decode → check → render (text, SVG, JSON), plus reading an answer back and blocking one.
/// Everything only some genres have (a score, URLs, hints, generation, completions, lemmas,
/// VeriPB problems, broken-rule marks, an own search) is a capability trait
/// ([`crate::capability`]) that the genre's row in [`crate::genres`] declares; the driver sees
/// both through [`crate::genre::Genre`].
pub trait Puzzle: Sized + 'static {
    /// Names and formats.
    const INFO: Info;

    /// A parsed puzzle file.
    type Instance: Clone + Send + Sync + 'static;
    /// Compared with `==` by `run` against an expected answer: decode and `read_answer` give
    /// one canonical form of each answer.
    type Answer: Clone + Send + PartialEq + 'static;
    /// What the independent validator learns of a valid answer: its exact score and parts.
    type Checked: Clone + Send + 'static;
    /// Whatever decode and the searches need to find again: variables, sum outputs. Sent
    /// between threads with the named rules (`explain` builds them in a worker).
    type Encoding: Send + 'static;

    fn parse(text: &str, settings: &Settings) -> Result<Self::Instance, ParseError>;

    /// The rules, as clauses whose models are exactly the valid answers.
    fn encode<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding;

    fn decode(inst: &Self::Instance, enc: &Self::Encoding, model: &Model) -> Self::Answer;

    /// The independent validator: the first broken rule, or what a valid answer scores.
    fn check(inst: &Self::Instance, answer: &Self::Answer) -> Result<Self::Checked, String>;

    /// Reads an answer for `check` (positions in errors are the answer file's); the inner
    /// error is a rule the answer breaks already as read (e.g. a region that is no rectangle).
    fn read_answer(
        inst: &Self::Instance,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError>;

    /// The answer drawn in `format` (one of [`Info::formats`], never json, judge or svg), with
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

    /// The answer's fields in JSON output.
    fn answer_json(
        inst: &Self::Instance,
        answer: &Self::Answer,
        checked: &Self::Checked,
    ) -> Map<String, Value>;

    /// Excludes each of `answers`, and no answer scoring more than the one it stands for:
    /// certificates block the answers a claim's formula must rule out (a solution for
    /// uniqueness, each counted one, or those a bound let through without beating the claimed
    /// score). A scoring puzzle may exclude a whole class at once (Kakkuro: every answer with
    /// the same factors and no smaller D); [`Info::blocks_exactly`] says when it does not.
    fn block<S: ClauseSink>(
        inst: &Self::Instance,
        enc: &Self::Encoding,
        sink: &mut S,
        answers: &[Self::Answer],
    );
}

/// A genre's names and formats.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// The name on the command line.
    pub name: &'static str,
    /// One line for `--help`.
    pub about: &'static str,
    /// The answer's own forms besides text and svg (judge, box, rects, line): see
    /// [`crate::genre::Genre::formats`] for all it prints.
    pub formats: &'static [Format],
    /// The format certificates keep answers in: one `check` reads back whole.
    pub machine: Format,
    /// The keys [`Puzzle::answer_json`] writes (`null` in JSON output when there is no
    /// answer); a test over the registry holds each genre's example answer to them.
    pub answer_fields: &'static [&'static str],
    /// What the variables mean, for the DIMACS file's comments.
    pub variables: &'static str,
    /// File extensions that mark this genre's files for `run`, besides its name.
    pub extensions: &'static [&'static str],
    /// Whether files may ask for `--lenient` ([`Flag::Lenient`]).
    pub lenient: bool,
    /// Whether [`Puzzle::block`] excludes exactly the listed answers and nothing else: only
    /// then can a certificate claim `unique` or a count (a class blocked at once would make "no
    /// answer is left" say nothing about how many there are).
    pub blocks_exactly: bool,
}

impl Info {
    /// The fields most genres leave alone, for `..Info::DEFAULT`.
    pub const DEFAULT: Info = Info {
        name: "",
        about: "",
        formats: &[],
        machine: Format::Text,
        answer_fields: &[],
        variables: "",
        extensions: &[],
        lenient: false,
        blocks_exactly: false,
    };
}

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

/// Puzzles made around one answer, each with one solution and fewer clues than the one before
/// (a sudoku's givens removed one at a time), for `generate --grade` to choose from: later
/// ones are harder as a rule.
pub struct Series<A> {
    pub texts: Vec<String>,
    pub answer: A,
}

/// The literals of `answer` under `enc`: what the clause blocking exactly it denies.
pub fn answer_lits<P: Puzzle>(
    inst: &P::Instance,
    enc: &P::Encoding,
    num_vars: u32,
    answer: &P::Answer,
) -> Vec<crate::cnf::Lit> {
    let mut block = crate::cnf::Cnf::new();
    block.num_vars = num_vars;
    P::block(inst, enc, &mut block, std::slice::from_ref(answer));
    block.clauses.iter().flatten().map(|&l| !l).collect()
}
