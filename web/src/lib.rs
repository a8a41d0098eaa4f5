//! The web page's solver: one request (a puzzle as a puzz.link URL or as text, and a mode), one
//! JSON answer with the verdict words, the picture and the texts to download. It calls the same
//! `encodings` searches, validator and SVG writer as the CLI, with the same embedded varisat
//! (`varisat-backend`); only the plumbing of a command line (files, threads, deadlines) is left
//! out. The page's Stop ends its Web Worker, so every answer found is reported as it is found
//! ([`Report`]), with the verdict it would earn if the run ended there.
//!
//! Everything here is plain Rust, tested natively; `bind` (wasm32 only) hands it to JavaScript.

#[cfg(target_arch = "wasm32")]
mod bind;

use encodings::cnf::{dimacs_text, Cnf, Limited, MAX_LITERALS};
use encodings::explain;
use encodings::format::verdict::{self, Ask, Status, Trust};
use encodings::genre::Genre;
use encodings::puzzle::{
    self, Ended, Format, GenerateSpec, Goal, Observer, Puzzle, Settings, Task,
};
use encodings::solver::SolverStats;
use serde_json::{json, Map, Value};
use varisat_backend::VarisatSolvers;

/// What the page's Stop button ends a run with, in the verdicts it shows.
pub const STOPPED: &str = "stopped";

/// The caption of an improvement drawn while the search goes on (Stop redraws it with the
/// verdict it then earns).
const RUNNING: &str = "best found so far (still solving)";

/// How long a run goes before each improvement it reports comes with its picture: drawing
/// costs as much as a short run's search.
const DRAW_AFTER: std::time::Duration = std::time::Duration::from_millis(500);

/// The page's solver is embedded: its UNSAT answers are as trusted as the CLI's embedded backends'.
const TRUST: Trust = Trust::Embedded;

/// The most literals of a CNF the page writes as DIMACS (the CLI's `MAX_LITERALS` is 4×).
const DIMACS_LITERALS: u64 = MAX_LITERALS / 4;

/// The largest puzzle or answer text taken (as the CLI's `MAX_INPUT`).
const MAX_INPUT: usize = 64 << 20;

/// The largest picture sent to the page. A JavaScript string holds at most about 2^29
/// characters: a picture near that (a board of one row of five million cells draws 554 MB)
/// made the whole answer unreadable, verdict included. A solved 1000×1000 board draws 131 MB.
const MAX_PICTURE: usize = 256 << 20;

/// `svg` as the page's `svg` field, or in its place a picture that says it was too large.
fn picture(svg: String) -> Value {
    if svg.len() <= MAX_PICTURE {
        return json!(svg);
    }
    json!(encodings::format::svg::compose(
        &[],
        &format!(
            "the picture would be {} MB, too large to show in the page",
            svg.len() >> 20
        )
    ))
}

/// What the page asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One answer; for a scoring puzzle the best, proved optimal.
    Solve,
    /// Whether the solution is unique.
    Unique,
    /// The strongest claim the genre has: uniqueness, or for a scoring puzzle its proved
    /// optimum (what a shared `?p=` link asks for).
    Prove,
    /// Solutions counted up to a limit.
    Count(u64),
    /// What every solution (every optimal answer) has in common.
    Hints,
    /// The first step of the explanation, with the rules that force it.
    Next,
    /// An answer pasted as text, checked by the validator.
    Check,
    /// The CNF as DIMACS, as `encode` writes it.
    Dimacs,
    /// The puzzle itself: its picture, text and URL; nothing is solved.
    Show,
    /// Answers the page already has (a stopped run's, in the machine format) drawn under a
    /// caption, each re-checked by the validator first.
    Draw,
}

/// Where a run reports as it goes: the page shows each report at once, and keeps the last one
/// when Stop ends the worker.
pub type Report<'a> = &'a mut dyn FnMut(Value);

/// The page's genre list: names, what each is, the URLs it reads, its modes and its example.
pub fn catalogue() -> Value {
    let mut list = Vec::new();
    macro_rules! row {
        ($p:ty, ($list:expr)) => {
            $list.push(entry::<$p>())
        };
    }
    encodings::genres!(each row(list));
    Value::Array(list)
}

fn entry<P: Genre>() -> Value {
    let maximize = P::TASK == Task::Maximize;
    let mut modes = vec!["solve"];
    if !maximize {
        modes.extend(["unique", "count"]);
    }
    if P::flags().contains(&puzzle::Flag::Hints) {
        modes.push("hints");
    }
    if P::EXPLAINS {
        modes.push("next");
    }
    modes.push("check");
    if P::GENERATES {
        modes.push("generate");
    }
    json!({
        "name": P::INFO.name,
        "about": P::INFO.about,
        "url_kinds": P::URL_KINDS,
        "maximize": maximize,
        "machine": P::INFO.machine.name(),
        "modes": modes,
        "example": example(P::INFO.name),
    })
}

/// The bundled example of each puzzle (docs/examples, as the CLI's README runs them).
fn example(name: &str) -> &'static str {
    match name {
        "sudoku" => include_str!("../../docs/examples/sudoku.txt"),
        "target-sudoku" => include_str!("../../docs/examples/target-sudoku.txt"),
        "tatamibari" => include_str!("../../docs/examples/tatamibari.txt"),
        "kakkuro" => include_str!("../../docs/examples/kakkuro.txt"),
        "shikaku" => include_str!("../../docs/examples/shikaku.txt"),
        "kakuro" => include_str!("../../docs/examples/kakuro.txt"),
        "nurikabe" => include_str!("../../docs/examples/nurikabe.txt"),
        "hitori" => include_str!("../../docs/examples/hitori.txt"),
        "heyawake" => include_str!("../../docs/examples/heyawake.txt"),
        "lits" => include_str!("../../docs/examples/lits.txt"),
        "slitherlink" => include_str!("../../docs/examples/slitherlink.txt"),
        "masyu" => include_str!("../../docs/examples/masyu.txt"),
        _ => "",
    }
}

/// Every field a request may have.
const FIELDS: &[&str] = &[
    "mode", "puzzle", "url", "text", "limit", "answer", "answers", "caption", "rows", "cols",
    "seed", "unique",
];

/// One request from the page, as JSON:
/// `{"puzzle": NAME or "auto", "url": …, "text": …, "mode": …, "limit": N, "answer": …}`, or
/// for a generator `{"mode": "generate", "puzzle": NAME, "rows", "cols", "seed", "unique"}`.
/// Always an object with `ok`; when false, `error` says why in the CLI's words (file:line:col).
pub fn run(request: &Value, report: Report) -> Value {
    match dispatch(request, report) {
        Ok(mut v) => {
            v["ok"] = json!(true);
            v
        }
        Err(e) => json!({ "ok": false, "error": e }),
    }
}

fn dispatch(request: &Value, report: Report) -> Result<Value, String> {
    let request = request
        .as_object()
        .ok_or("the request must be a JSON object")?;
    // A misspelled field is an error, not a default silently used in its place.
    if let Some(k) = request.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!(
            "unknown request field {k:?} (the fields are {})",
            FIELDS.join(", ")
        ));
    }
    // Each field has one type: anything else is an error, not a silent default.
    let field = |k: &str| -> Result<Option<&str>, String> {
        match request.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(v) => Err(format!("{k} must be a string, not {v}")),
        }
    };
    let mode_name = field("mode")?.unwrap_or("solve");
    let mut name = field("puzzle")?.unwrap_or("auto").to_string();
    if mode_name == "generate" {
        return generate(&name, request, report);
    }
    let mode = match mode_name {
        "solve" => Mode::Solve,
        "unique" => Mode::Unique,
        "prove" => Mode::Prove,
        "count" => match number(request, "limit", 1000)? {
            0 => return Err("count needs a limit of at least 1".into()),
            max => Mode::Count(max),
        },
        "hints" => Mode::Hints,
        "next" => Mode::Next,
        "check" => Mode::Check,
        "dimacs" => Mode::Dimacs,
        "show" => Mode::Show,
        "draw" => Mode::Draw,
        other => return Err(format!("unknown mode {other:?}")),
    };
    // The puzzle: a URL field, or text that is a URL alone, or a puzzle file's text.
    let text = field("text")?.unwrap_or("");
    let url = field("url")?
        .filter(|u| !u.trim().is_empty())
        .or_else(|| pasted_url(text))
        .map(|u| u.trim().trim_end_matches('/'));
    if text.len() > MAX_INPUT || url.is_some_and(|u| u.len() > MAX_INPUT) {
        return Err(format!("the puzzle is over {} MiB", MAX_INPUT >> 20));
    }
    let source = match url {
        Some(u) => Source::Url(u),
        None if text.trim().is_empty() => {
            return Err("no puzzle: paste a puzz.link URL or a puzzle's text".into())
        }
        None => Source::Text(text),
    };
    if name == "auto" {
        name = match source {
            Source::Url(u) => genre_of_url(u)?,
            Source::Text(t) => match puzzle::header(t) {
                Some(n) => n.to_string(),
                None => return Err(
                    "choose the puzzle's genre (its text has no `puzzle-sat: NAME` header line)"
                        .into(),
                ),
            },
        };
    }
    let answer = field("answer")?.unwrap_or("");
    let drawn: Vec<&str> = match request.get("answers") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) if a.len() <= 2 => a
            .iter()
            .map(|x| x.as_str().ok_or("answers must be strings"))
            .collect::<Result<_, _>>()?,
        Some(Value::Array(_)) => return Err("draw takes at most two answers".into()),
        Some(v) => return Err(format!("answers must be a list, not {v}")),
    };
    let caption = field("caption")?.unwrap_or("");
    if answer.len() + drawn.iter().map(|a| a.len()).sum::<usize>() + caption.len() > MAX_INPUT {
        return Err(format!("the answer is over {} MiB", MAX_INPUT >> 20));
    }
    macro_rules! visit {
        ($p:ty, ($name:expr)) => {
            if $name == <$p>::INFO.name {
                if mode == Mode::Draw {
                    return draw::<$p>(source, &drawn, caption);
                }
                return solve::<$p>(source, mode, answer, report);
            }
        };
    }
    encodings::genres!(each visit(name));
    Err(format!("unknown puzzle {name:?}"))
}

/// A non-negative whole number field, or `default` when absent: a JSON number, or its digits
/// as a string (the page sends the boxes' text, so a seed past 2^53 is not rounded).
fn number(request: &Map<String, Value>, key: &str, default: u64) -> Result<u64, String> {
    let bad = |v: &dyn std::fmt::Display| {
        format!(
            "{key} must be a whole number from 0 to {}, not {v}",
            u64::MAX
        )
    };
    match request.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().map_err(|_| bad(&format!("{s:?}")))
        }
        Some(Value::String(s)) => Err(bad(&format!("{s:?}"))),
        Some(v) => v.as_u64().ok_or_else(|| bad(v)),
    }
}

/// `s` as a puzz.link URL, pasted alone on its line.
fn pasted_url(s: &str) -> Option<&str> {
    encodings::format::url::pasted(s).filter(|u| !u.contains('\n'))
}

/// The first puzzle (in the genre list's order) that reads this URL's kind: a `sudoku` URL is
/// a plain sudoku unless the page asks for target sudoku.
pub fn genre_of_url(url: &str) -> Result<String, String> {
    let link = encodings::format::url::split(url).map_err(|e| format!("{url}:{e}"))?;
    let mut found = None;
    macro_rules! reads {
        ($p:ty, ($found:expr, $kind:expr)) => {
            if $found.is_none() && <$p>::URL_KINDS.contains(&$kind) {
                $found = Some(<$p>::INFO.name);
            }
        };
    }
    encodings::genres!(each reads(found, link.kind));
    found.map(str::to_string).ok_or(format!(
        "{url}:1:1: puzzle-sat reads no {:?} puzzles",
        link.kind
    ))
}

#[derive(Clone, Copy)]
enum Source<'a> {
    Url(&'a str),
    Text(&'a str),
}

/// The puzzle read as `P`, and the name its errors go under (the URL, or `puzzle` for text).
fn read<P: Genre>(source: Source) -> Result<(P::Instance, String), String> {
    let settings = Settings::default();
    match source {
        Source::Url(url) => {
            let text = encodings::genre::url_text::<P>(url)?;
            let inst =
                puzzle::parse_file::<P>(&text, &settings).map_err(|e| format!("{url}:{e}"))?;
            Ok((inst, url.to_string()))
        }
        Source::Text(text) => Ok((
            puzzle::parse_file::<P>(text, &settings).map_err(|e| format!("puzzle:{e}"))?,
            "puzzle".into(),
        )),
    }
}

/// What every answer to the page says about the puzzle itself.
fn head<P: Genre>(inst: &P::Instance, mode: &str) -> Value {
    json!({
        "puzzle": P::INFO.name,
        "mode": mode,
        "machine": P::INFO.machine.name(),
        "url": P::to_url(inst).ok(),
    })
}

/// An answer as the page shows and downloads it: drawn as text, in the machine format
/// (`line`/`rects`) and its score.
fn answer_json<P: Genre>(inst: &P::Instance, a: &P::Answer, c: &P::Checked) -> Value {
    json!({
        "text": P::render(inst, a, c, Format::Text),
        "machine": P::render(inst, a, c, P::INFO.machine),
        "score": (P::TASK == Task::Maximize).then(|| P::score(c).to_string()),
    })
}

fn stats_json(s: &SolverStats) -> Value {
    json!({ "calls": s.calls, "variables": s.vars, "clauses": s.clauses, "conflicts": s.conflicts })
}

/// Reports each answer as the search finds it, with the verdict the run would end with if
/// stopped there (and a picture, see `found`), and keeps the answers the final verdict needs.
struct Reporter<'a, P: Genre> {
    started: web_time::Instant,
    /// Reports say nothing of the answers, only this if stopped: completing a pasted answer
    /// for `check`, or finding the solution behind a next step (a hint must not give it away).
    quiet: Option<&'static str>,
    inst: &'a P::Instance,
    goal: Goal,
    ask: Ask,
    keep: usize,
    answers: Vec<(P::Answer, P::Checked)>,
    count: u64,
    stats: SolverStats,
    report: Report<'a>,
}

impl<P: Genre> Observer<P> for Reporter<'_, P> {
    fn found(&mut self, answer: &P::Answer, checked: &P::Checked) {
        self.count += 1;
        let best = self.goal == Goal::Best;
        if best {
            self.answers.clear();
        }
        if self.answers.len() < self.keep {
            self.answers.push((answer.clone(), checked.clone()));
        }
        if let Some(if_stopped) = self.quiet {
            (self.report)(
                json!({ "kind": "found", "count": self.count, "if_stopped": if_stopped }),
            );
            return;
        }
        let if_stopped = if best {
            Status::BestFound.verdict_by(TRUST, STOPPED)
        } else {
            verdict::enumeration(self.ask, self.count, false, Some(STOPPED), TRUST)
        };
        let mut r = json!({ "kind": "found", "count": self.count, "if_stopped": if_stopped });
        // An improvement is drawn once the run has lasted DRAW_AFTER (they are few, and the
        // page shows the score climb); a short run's only picture is its last. An
        // enumeration's kept answers (the two of `unique`, else the first) go as text only:
        // its run ends in a picture of them anyway, which on a large board costs as much as
        // the search; after Stop the page has them drawn by `draw`.
        if best && self.started.elapsed() >= DRAW_AFTER {
            let shown: Vec<_> = self.answers.iter().map(|(a, c)| (a, c)).collect();
            r["svg"] = picture(P::svg(self.inst, &shown, RUNNING));
        }
        if best || self.count <= self.keep as u64 {
            r["answer"] = answer_json::<P>(self.inst, answer, checked);
        }
        (self.report)(r);
    }

    fn stats(&mut self, stats: SolverStats) {
        self.stats = stats;
        (self.report)(json!({ "kind": "stats", "stats": stats_json(&stats) }));
    }
}

fn solve<P: Genre>(
    source: Source,
    mode: Mode,
    answer: &str,
    report: Report,
) -> Result<Value, String> {
    let (inst, name) = read::<P>(source)?;
    match mode {
        Mode::Show => {
            let mut v = head::<P>(&inst, "show");
            v["svg"] = picture(P::svg(&inst, &[], P::INFO.name));
            v["verdict"] = json!("");
            return Ok(v);
        }
        Mode::Check => return check::<P>(&inst, &name, answer, report),
        Mode::Draw => return Err("draw takes the answers to draw".into()),
        Mode::Dimacs => {
            // A tab holds the text twice (WebAssembly's, then JavaScript's): a quarter of the
            // CLI's bound, about 100 MB of DIMACS.
            if P::estimate(&inst, DIMACS_LITERALS) > DIMACS_LITERALS {
                return Err(format!("{name}: the CNF would hold more than {} million literals, too large to write in the page: use `puzzle-sat encode`", DIMACS_LITERALS / 1_000_000));
            }
            let mut cnf = Limited::new(Cnf::new(), DIMACS_LITERALS);
            P::encode(&inst, &mut cnf);
            if let Some(e) = cnf.over() {
                return Err(format!("{name}: {e}"));
            }
            let mut v = head::<P>(&inst, "dimacs");
            v["dimacs"] = json!(dimacs_text(&cnf.inner, &P::dimacs_comments(&inst, &name)));
            return Ok(v);
        }
        Mode::Hints if !P::flags().contains(&puzzle::Flag::Hints) => return Err(format!("hints are not available for {}", P::INFO.name)),
        Mode::Next if !P::EXPLAINS => return Err(format!("no explanations for {} yet", P::INFO.name)),
        Mode::Unique | Mode::Count(_) if P::TASK == Task::Maximize => {
            return Err(format!("{} finds the best answer and proves it optimal: uniqueness and counts mean nothing for it", P::INFO.name))
        }
        _ => {}
    }
    encodings::genre::fits::<P>(&inst).map_err(|e| format!("{name}: {e}"))?;
    if matches!(mode, Mode::Next) {
        encodings::genre::fits_named::<P>(&inst).map_err(|e| format!("{name}: {e}"))?;
    }
    let mode = match (mode, P::TASK) {
        (Mode::Prove, Task::Maximize) => Mode::Solve,
        (Mode::Prove, Task::Enumerate) => Mode::Unique,
        (mode, _) => mode,
    };
    let (goal, ask, keep) = match (mode, P::TASK) {
        (_, Task::Maximize) => (Goal::Best, Ask::One, 1),
        (Mode::Unique | Mode::Next, _) => (Goal::Enumerate { max: 2 }, Ask::Unique, 2),
        // One more than the limit: exactly `max` solutions are then counted whole.
        (Mode::Count(max), _) => (
            Goal::Enumerate {
                max: max.saturating_add(1),
            },
            Ask::Count(max),
            1,
        ),
        _ => (Goal::Enumerate { max: 1 }, Ask::One, 1),
    };
    let solvers = VarisatSolvers::default();
    let mut out = Reporter::<P> {
        started: web_time::Instant::now(),
        quiet: (mode == Mode::Next).then_some("stopped: no step found yet"),
        inst: &inst,
        goal,
        ask,
        keep,
        answers: Vec::new(),
        count: 0,
        stats: SolverStats::default(),
        report,
    };
    let ended = P::search(&inst, goal, &solvers, &mut out).map_err(|e| e.to_string())?;
    let complete = ended == Ended::Proved;
    let mut v = head::<P>(&inst, mode_name(mode));
    v["stats"] = stats_json(&out.stats);
    v["count"] = json!(out.count);
    if mode == Mode::Hints {
        return hints::<P>(v, &inst, out.answers.pop(), &solvers);
    }
    if mode == Mode::Next {
        return next::<P>(v, &inst, &out.answers, complete, &solvers);
    }
    let (status, said) = match P::TASK {
        Task::Maximize if out.answers.is_empty() => {
            (Status::NoSolution, Status::NoSolution.verdict(TRUST))
        }
        Task::Maximize => (Status::Optimal, Status::Optimal.verdict(TRUST)),
        Task::Enumerate => {
            let status = if out.count == 0 {
                Status::NoSolution
            } else {
                Status::Solved
            };
            (
                status,
                verdict::enumeration(ask, out.count, complete, None, TRUST),
            )
        }
    };
    // Uniqueness proved, refuted, or a count: as the CLI's JSON says it.
    match mode {
        Mode::Unique => {
            v["unique"] = match (out.count, complete) {
                (2, _) | (0, true) => json!(false),
                (1, true) => json!(true),
                _ => Value::Null,
            }
        }
        Mode::Count(_) => v["complete"] = json!(complete),
        _ => {}
    }
    let shown: Vec<_> = out.answers.iter().map(|(a, c)| (a, c)).collect();
    v["status"] = json!(status.json_name());
    v["verdict"] = json!(said);
    v["svg"] = picture(P::svg(&inst, &shown, &said));
    v["answers"] = Value::Array(
        out.answers
            .iter()
            .map(|(a, c)| answer_json::<P>(&inst, a, c))
            .collect(),
    );
    Ok(v)
}

/// `draw`: answers drawn as they would have been, had the run not been stopped: only those the
/// validator accepts (a picture never shows an answer that breaks a rule).
fn draw<P: Genre>(source: Source, answers: &[&str], caption: &str) -> Result<Value, String> {
    let (inst, _) = read::<P>(source)?;
    let mut kept = Vec::new();
    for text in answers {
        let Ok(Ok(read)) = P::read_answer(&inst, text) else {
            continue;
        };
        if let (true, Ok(checked)) = (read.complete, P::check(&inst, &read.answer)) {
            kept.push((read.answer, checked));
        }
    }
    let shown: Vec<_> = kept.iter().map(|(a, c)| (a, c)).collect();
    let mut v = head::<P>(&inst, "draw");
    v["drawn"] = json!(kept.len());
    v["svg"] = picture(P::svg(&inst, &shown, caption));
    Ok(v)
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Solve => "solve",
        Mode::Unique => "unique",
        Mode::Prove => "prove",
        Mode::Count(_) => "count",
        Mode::Hints => "hints",
        Mode::Next => "next",
        Mode::Check => "check",
        Mode::Dimacs => "dimacs",
        Mode::Show => "show",
        Mode::Draw => "draw",
    }
}

/// What every solution (every optimal answer) has in common, after the search found `found`.
fn hints<P: Genre>(
    mut v: Value,
    inst: &P::Instance,
    found: Option<(P::Answer, P::Checked)>,
    solvers: &VarisatSolvers,
) -> Result<Value, String> {
    let Some(found) = found else {
        let said = Status::NoSolution.verdict(TRUST);
        v["status"] = json!(Status::NoSolution.json_name());
        v["svg"] = picture(P::svg(inst, &[], &said));
        v["verdict"] = json!(said);
        return Ok(v);
    };
    let h = P::hints(inst, &found, solvers)
        .map_err(|e| e.to_string())?
        .ok_or("the hints were stopped")?;
    let score = (P::TASK == Task::Maximize).then(|| P::score(&found.1).to_string());
    let what = verdict::hints(h.decided, h.of, h.unit, score.as_deref(), TRUST);
    let status = if P::TASK == Task::Maximize {
        Status::Optimal
    } else {
        Status::Solved
    };
    v["status"] = json!(status.json_name());
    v["verdict"] = json!(format!("hints: {what}"));
    v["svg"] = picture(P::svg(
        inst,
        &[(&h.partial, &found.1)],
        &format!("hints: {what}"),
    ));
    v["hints"] = json!({ "decided": h.decided, "of": h.of, "unit": h.unit, "drawn": h.drawn });
    v["answers"] = json!([answer_json::<P>(inst, &found.0, &found.1)]);
    Ok(v)
}

/// The explanation's first step from the givens (`explain --next`): its rules, what they force,
/// and its picture. Uniqueness is the search's (two answers looked for).
fn next<P: Genre>(
    mut v: Value,
    inst: &P::Instance,
    answers: &[(P::Answer, P::Checked)],
    complete: bool,
    solvers: &VarisatSolvers,
) -> Result<Value, String> {
    let Some(found) = answers.first() else {
        let said = Status::NoSolution.verdict(TRUST);
        v["status"] = json!(Status::NoSolution.json_name());
        v["svg"] = picture(P::svg(inst, &[], &said));
        v["verdict"] = json!(said);
        return Ok(v);
    };
    if answers.len() == 1 && !complete {
        return Err("the search was stopped before it proved the solution unique".into());
    }
    let unique = answers.len() == 1;
    let named = P::named(inst).ok_or("no explanations for this puzzle")?;
    let target = encodings::explained::target::<P>(inst, &named, &found.0, unique, solvers)
        .map_err(|e| e.to_string())?
        .ok_or("the explanation was stopped")?;
    let e = explain::explain(&named, &target, solvers, Some(1)).map_err(|e| e.to_string())?;
    let unique_said = if unique {
        "the solution is unique"
    } else {
        "more than one solution: only what every solution shares is deduced"
    };
    v["status"] = json!(Status::Solved.json_name());
    v["unique"] = json!(unique);
    let Some(step) = e.steps.first() else {
        let said = format!("next step: none, nothing is left to deduce ({unique_said})");
        v["svg"] = picture(P::svg(inst, &[], &said));
        v["verdict"] = json!(said);
        v["step"] = Value::Null;
        return Ok(v);
    };
    let mut known = named.known.clone();
    known.extend(&step.deduces);
    let rules: Vec<&str> = step.rules.iter().map(|&r| named.rules.name(r)).collect();
    let said = format!(
        "next step: {} — so {} ({unique_said})",
        rules.join("; "),
        named.say_all(&step.deduces)
    );
    let (rule_cells, deduced) = step.cells(&named);
    v["svg"] = picture(P::svg_step(
        inst,
        &named,
        &known,
        &rule_cells,
        &deduced,
        &said,
    ));
    v["verdict"] = json!(said);
    v["step"] = json!({
        "rules": rules,
        "deduces": step.deduces.iter().map(|&l| named.say(l)).collect::<Vec<_>>(),
        "uses": step.uses.iter().map(|&l| named.say(l)).collect::<Vec<_>>(),
        "way": step.way.name(),
        "minimal": step.minimal,
        "drawn": P::draw_known(inst, &named, &known),
    });
    Ok(v)
}

/// `check`: the validator's verdict on a pasted answer; an answer that leaves parts to the
/// solver (Kakkuro's bare contest string) is completed as the CLI completes it.
fn check<P: Genre>(
    inst: &P::Instance,
    name: &str,
    text: &str,
    report: Report,
) -> Result<Value, String> {
    let mut v = head::<P>(inst, "check");
    let invalid = |mut v: Value, why: &str, svg: String| {
        v["valid"] = json!(false);
        v["status"] = json!("invalid");
        v["verdict"] = json!(format!("invalid: {why}"));
        v["svg"] = picture(svg);
        Ok(v)
    };
    if text.trim().is_empty() {
        return Err("no answer to check: paste one".into());
    }
    let read = match P::read_answer(inst, text).map_err(|e| format!("answer:{e}"))? {
        Ok(read) => read,
        Err(why) => {
            return invalid(
                v,
                &why,
                P::svg_broken(inst, text, &format!("invalid: {why}")),
            )
        }
    };
    let (answer, checked, completed) = if read.complete {
        match P::check(inst, &read.answer) {
            Ok(checked) => (read.answer, checked, false),
            Err(why) => {
                return invalid(
                    v,
                    &why,
                    P::svg_broken(inst, text, &format!("invalid: {why}")),
                )
            }
        }
    } else {
        let completion = P::COMPLETION.ok_or(format!(
            "internal error: {} read an incomplete answer but completes none",
            P::INFO.name
        ))?;
        let fixed = (completion.fix)(inst, &read.answer);
        encodings::genre::fits::<P>(&fixed).map_err(|e| format!("{name}: {e}"))?;
        let mut out = Reporter::<P> {
            started: web_time::Instant::now(),
            quiet: Some("stopped: the answer was not checked"),
            inst: &fixed,
            goal: Goal::Best,
            ask: Ask::One,
            keep: 1,
            answers: Vec::new(),
            count: 0,
            stats: SolverStats::default(),
            report,
        };
        P::search(&fixed, Goal::Best, &VarisatSolvers::default(), &mut out)
            .map_err(|e| e.to_string())?;
        match out.answers.pop() {
            Some((a, c)) => (a, c, true),
            None => {
                let why = TRUST.claim(completion.none);
                let svg = P::svg(inst, &[], &format!("invalid: {why}"));
                return invalid(v, &why, svg);
            }
        }
    };
    let score = P::score(&checked).to_string();
    let differs = read.claimed.filter(|c| *c != score);
    let mut said = P::describe_valid(inst, &answer, &checked, completed);
    if let Some(claimed) = &differs {
        said += &format!("{}\n", verdict::wrong_claim(claimed, &score));
    }
    let said = said.trim_end().to_string();
    v["valid"] = json!(differs.is_none());
    v["status"] = json!(if differs.is_none() {
        "valid"
    } else {
        "wrong_claim"
    });
    v["completed"] = json!(completed);
    v["svg"] = picture(P::svg(
        inst,
        &[(&answer, &checked)],
        said.lines().next().unwrap_or("valid"),
    ));
    v["verdict"] = json!(said);
    v["answers"] = json!([answer_json::<P>(inst, &answer, &checked)]);
    Ok(v)
}

fn generate(name: &str, request: &Map<String, Value>, report: Report) -> Result<Value, String> {
    let mut makers = Vec::new();
    macro_rules! maker {
        ($p:ty, ($name:expr)) => {
            if <$p>::GENERATES {
                if $name == <$p>::INFO.name {
                    return made::<$p>(request, report);
                }
                makers.push(<$p>::INFO.name);
            }
        };
    }
    encodings::genres!(each maker(name));
    Err(format!(
        "puzzle-sat generates no {name:?} puzzles (it generates {})",
        makers.join(", ")
    ))
}

/// The largest side the page generates: a 100×100 unique Tatamibari takes seconds natively.
pub const MAX_GENERATED_SIDE: u64 = 300;

fn made<P: Genre>(request: &Map<String, Value>, report: Report) -> Result<Value, String> {
    let side = |k: &str, default: usize| -> Result<usize, String> {
        let n = number(request, k, default as u64)?;
        if !(2..=MAX_GENERATED_SIDE).contains(&n) {
            return Err(format!(
                "{k} must be from 2 to {MAX_GENERATED_SIDE}, not {n}"
            ));
        }
        Ok(n as usize)
    };
    let (rows, cols) = P::GENERATE_SIZE.unwrap_or((10, 10));
    let (rows, cols) = (side("rows", rows)?, side("cols", cols)?);
    let seed = number(request, "seed", 1)?;
    let unique = match request.get("unique") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(format!("unique must be true or false, not {v}")),
    } || P::GENERATES_UNIQUE;
    let spec = GenerateSpec {
        rows,
        cols,
        seed,
        unique,
        cells_per_clue: None,
    };
    let mut note = |s: String| report(json!({ "kind": "note", "note": s }));
    let made = P::generate(&spec, &VarisatSolvers::default(), &mut note)?
        .ok_or("the generator was stopped")?;
    // Read back as the user will read it, and its own answer re-checked by the validator.
    let inst = puzzle::parse_file::<P>(&made.text, &Settings::default())
        .map_err(|e| format!("internal error: the generated puzzle does not read back: {e}"))?;
    let checked = P::check(&inst, &made.answer).map_err(|v| {
        format!("internal error: the generated puzzle's own answer breaks a rule: {v}")
    })?;
    let said = format!(
        "{} {rows}×{cols}, seed {seed}{}",
        P::INFO.name,
        if unique {
            format!(", {}", TRUST.claim("unique"))
        } else {
            String::new()
        }
    );
    let mut v = head::<P>(&inst, "generate");
    v["verdict"] = json!(said);
    v["status"] = json!("generated");
    v["unique"] = if unique { json!(true) } else { Value::Null };
    v["text"] = json!(made.text);
    v["remark"] = json!(made.remark);
    v["svg"] = picture(P::svg(&inst, &[], &said));
    v["answers"] = json!([answer_json::<P>(&inst, &made.answer, &checked)]);
    Ok(v)
}

#[cfg(test)]
mod tests;
