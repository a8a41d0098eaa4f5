//! `explain`: the steps from a puzzle's givens to its solution, each with the rule instances
//! that force it ([`encodings::explain`]), as text or JSON; `--next` for the first step only.

use crate::backends::Backend;
use crate::driver::{parse, read_puzzle};
use crate::output::{exit, Done};
use anyhow::{bail, Result};
use encodings::explain::{self, grade_of, level_of, Explanation, Level, Named, Way};
use encodings::genre::Genre;
use encodings::puzzle::{Ended, Format, Goal, Settings};
use encodings::solver::Stop;
use encodings::solver::{NewSolver, SolverError};
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Default)]
pub struct ExplainArgs {
    pub file: PathBuf,
    pub format: Format,
    /// At most this many steps (`--next`: 1).
    pub steps: Option<usize>,
    pub time_limit: Option<Duration>,
    pub backend: Backend,
    /// `--certify DIR`: each step's implication with its proof.
    pub certify: Option<PathBuf>,
    /// `--svg DIR`: a picture of each step.
    pub svg: Option<PathBuf>,
}

/// `grade`: the puzzle (or each of a collection's) explained to the end, graded.
pub fn grade<P: Genre>(a: &ExplainArgs) -> Result<Done> {
    if !P::EXPLAINS {
        bail!("grade is not for {} puzzles yet", P::INFO.name);
    }
    if !matches!(a.format, Format::Text | Format::Json) {
        bail!("grade prints text or json, not {}", a.format);
    }
    let input = read_puzzle::<P>(&a.file)?;
    let items = crate::collection::for_puzzle(&input, P::INFO.name, P::URL_KINDS)
        .map_err(|e| anyhow::anyhow!(e))?;
    let Some(items) = items else {
        let (stdout, code) = grade_one::<P>(a, &input, None)?;
        return Ok(Done { stdout, code });
    };
    let mut code = exit::ANSWER;
    let mut out = std::io::stdout();
    for item in items {
        // An estimate the last puzzle's limit left behind ends first, outside this one's limit.
        crate::runner::settle();
        let graded = match &item.broken {
            Some(why) => Err(anyhow::anyhow!("{}: {why}", item.name)),
            None => crate::driver::item_input::<P>(&item)
                .and_then(|input| grade_one::<P>(a, &input, Some(&item.name))),
        };
        let (text, c) = graded.unwrap_or_else(|e| {
            eprintln!("puzzle-sat: error: {e:#}");
            // A line as every other item's: JSON lines stay JSON.
            let text = if a.format == Format::Json {
                line(
                    json!({"item": item.name, "puzzle": P::INFO.name, "status": "error",
                    "reason": format!("{e:#}")}),
                )
            } else {
                format!("{}: error\n", item.name)
            };
            (text, exit::ERROR)
        });
        use std::io::Write;
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        // The worst verdict, as `solve` over a collection: an error, a time limit, a puzzle
        // without one solution.
        let rank = |c: i32| match c {
            exit::ANSWER => 0,
            exit::NO_SOLUTION => 1,
            exit::TIME_LIMIT => 2,
            _ => 3,
        };
        if rank(c) > rank(code) {
            code = c;
        }
    }
    Ok(Done {
        stdout: String::new(),
        code,
    })
}

/// One puzzle's grade line: the number, then the level (`name: ` first in a collection).
fn grade_one<P: Genre>(
    a: &ExplainArgs,
    input: &crate::input::Input,
    name: Option<&str>,
) -> Result<(String, i32)> {
    // The time limit counts from here: the rules' estimate takes a while on a large board.
    let run = until(a);
    let inst = parse::<P>(input, &Settings::default())?;
    let fitted = fits::<P>(&inst, input, &run)?;
    let prefix = name.map(|n| format!("{n}: ")).unwrap_or_default();
    let json = a.format == Format::Json;
    let said = |status: &str, code: i32| {
        let text = if json {
            let mut m = Map::new();
            if let Some(n) = name {
                m.insert("item".into(), json!(n));
            }
            m.insert("puzzle".into(), json!(P::INFO.name));
            m.insert("status".into(), json!(status));
            line(Value::Object(m))
        } else {
            format!("{prefix}no grade: {status}\n")
        };
        Ok((text, code))
    };
    if !fitted {
        return said("time limit", exit::TIME_LIMIT);
    }
    let e = match puzzle_until::<P>(&inst, a, &run, true) {
        Ok(Some(e)) => e,
        Ok(None) => return said("no solution", exit::NO_SOLUTION),
        Err(_) if run.stop.is_raised() => return said("time limit", exit::TIME_LIMIT),
        Err(e) => return Err(e.into()),
    };
    if e.explanation.cut_short {
        return said("time limit", exit::TIME_LIMIT);
    }
    if !e.unique {
        return said("not unique", exit::NO_SOLUTION);
    }
    let steps = &e.explanation.steps;
    let count = |w: Way| steps.iter().filter(|s| s.way == w).count();
    let (number, level) = (grade_of(steps), level_of(steps));
    let text = if json {
        let mut m = Map::new();
        if let Some(n) = name {
            m.insert("item".into(), json!(n));
        }
        m.insert("puzzle".into(), json!(P::INFO.name));
        m.insert("status".into(), json!("graded"));
        m.insert("grade".into(), json!(number));
        m.insert("level".into(), json!(level.name()));
        m.insert("steps".into(), json!(steps.len()));
        m.insert(
            "ways".into(),
            json!({"single": count(Way::Single), "chain": count(Way::Chain), "search": count(Way::Search)}),
        );
        line(Value::Object(m))
    } else {
        format!(
            "{prefix}{number} {level} ({} steps: {} single, {} chain, {} search)\n",
            steps.len(),
            count(Way::Single),
            count(Way::Chain),
            count(Way::Search)
        )
    };
    Ok((text, exit::ANSWER))
}

/// The grade and level of a generated puzzle, found as `grade` finds them (its own search for
/// the answer and whether it is the only one, then the steps), for `generate --grade` to check
/// what it prints. No time limit: the generator graded the same puzzle within its own.
pub fn regrade<P: Genre>(text: &str, backend: &Backend) -> Result<(usize, Level)> {
    let input = crate::input::Input {
        name: "the generated puzzle".into(),
        text: text.to_string(),
    };
    let inst = parse::<P>(&input, &Settings::default())?;
    encodings::genre::fits_named::<P>(&inst).map_err(|e| anyhow::anyhow!("{}: {e}", input.name))?;
    let solvers = backend.solvers(Stop::new());
    let Some(e) = puzzle::<P>(&inst, backend, None, &solvers, None, true)? else {
        bail!("internal error: the generated puzzle has no solution");
    };
    if !e.unique || e.explanation.cut_short {
        bail!("internal error: the generated puzzle is not explained to one solution");
    }
    let steps = &e.explanation.steps;
    Ok((grade_of(steps), level_of(steps)))
}

/// The puzzle `explain` explains: the file's own, or a collection's only one. A file of many
/// is refused, and so is a collection of another kind ([`crate::collection::for_puzzle`]).
fn one_puzzle<P: Genre>(input: crate::input::Input) -> Result<crate::input::Input> {
    let items = crate::collection::for_puzzle(&input, P::INFO.name, P::URL_KINDS)
        .map_err(|e| anyhow::anyhow!(e))?;
    let Some(items) = items else {
        return Ok(input);
    };
    let [item] = items.as_slice() else {
        bail!(
            "{}: explain takes one puzzle, and this file holds {} (grade takes them all)",
            input.name,
            items.len()
        );
    };
    if let Some(why) = &item.broken {
        bail!("{}: {why}", item.name);
    }
    crate::driver::item_input::<P>(item)
}

/// Refuses, naming the file, a puzzle whose formula `solve` would refuse or whose named rules
/// would pass their budget: they are built whole before any solver (a rectangle genre's `?`
/// on a large board has millions of candidates, a Nurikabe `?` a forest of its own). Under
/// the run's time limit, since the estimate counts the whole formula: `Ok(false)`, with the
/// stop raised, when the limit passes first.
fn fits<P: Genre>(inst: &P::Instance, input: &crate::input::Input, run: &Until) -> Result<bool> {
    let estimated = inst.clone();
    let left = run
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()));
    match crate::runner::within(left, move || encodings::genre::fits_named::<P>(&estimated)) {
        Some(fits) => fits
            .map(|()| true)
            .map_err(|e| anyhow::anyhow!("{}: {e}", input.name)),
        None => {
            run.stop.raise();
            Ok(false)
        }
    }
}

/// A run's stop flag, raised when its time limit passes, and when that is.
struct Until {
    stop: Stop,
    deadline: Option<Instant>,
}

/// The run's [`Until`]: its time limit counts from here.
fn until(a: &ExplainArgs) -> Until {
    let stop = Stop::new();
    if let Some(limit) = a.time_limit {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            stop.raise();
        });
    }
    Until {
        stop,
        deadline: a.time_limit.map(|limit| Instant::now() + limit),
    }
}

/// How long a stopped explanation gets to hand back what it has (its steps so far) before the
/// run ends without it.
const GRACE: Duration = Duration::from_millis(500);

/// [`puzzle`] in a thread of its own, so that the run keeps its time limit through the work
/// that does not look at the stop flag: building a large board's named rules, loading them into
/// a solver, reading the answer's facts off them (seconds each on a one-room 150×150 LITS
/// board). Once the flag is raised the thread gets [`GRACE`] to return (a cut-short
/// explanation, with its steps); then it is left to end with the process, and the run is
/// stopped.
fn puzzle_until<P: Genre>(
    inst: &P::Instance,
    a: &ExplainArgs,
    run: &Until,
    unique_only: bool,
) -> Result<Option<Explained<P>>, SolverError> {
    let (tx, rx) = mpsc::channel();
    let (inst, backend, stop) = (inst.clone(), a.backend.clone(), run.stop.clone());
    let (deadline, max_steps) = (run.deadline, a.steps);
    let worker = crate::runner::leftover(move || {
        let solvers = backend.solvers(stop);
        let explained = puzzle::<P>(&inst, &backend, deadline, &solvers, max_steps, unique_only);
        // Not received once the run has ended without it: dropped here, not in the run's time.
        let _ = tx.send(explained);
    });
    let mut given_up: Option<Instant> = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(explained) => return explained,
            Err(RecvTimeoutError::Disconnected) => match worker.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("the worker sends before it ends"),
            },
            Err(RecvTimeoutError::Timeout) if run.stop.is_raised() => {
                let end = *given_up.get_or_insert_with(|| Instant::now() + GRACE);
                if Instant::now() >= end {
                    return Err(SolverError(
                        encodings::format::verdict::TIME_LIMIT.to_string(),
                    ));
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

pub fn explain<P: Genre>(a: &ExplainArgs) -> Result<Done> {
    if !P::EXPLAINS {
        bail!("explain is not for {} puzzles yet", P::INFO.name);
    }
    if !matches!(a.format, Format::Text | Format::Json) {
        bail!("explain prints text or json, not {}", a.format);
    }
    if let Some(dir) = &a.certify {
        crate::certify::explained::usable(dir, &a.backend)?;
    }
    if let Some(dir) = &a.svg {
        crate::certify::empty_or_new(dir, "--svg")?;
        if a.certify.as_ref().is_some_and(|c| c == dir) {
            bail!("--svg and --certify need folders of their own");
        }
    }
    let input = one_puzzle::<P>(read_puzzle::<P>(&a.file)?)?;
    let run = until(a);
    let inst = parse::<P>(&input, &Settings::default())?;
    let stop = &run.stop;
    let explained = match fits::<P>(&inst, &input, &run)? {
        true => puzzle_until::<P>(&inst, a, &run, false),
        false => Err(SolverError(
            encodings::format::verdict::TIME_LIMIT.to_string(),
        )),
    };
    let explained = match explained {
        Ok(e) => e,
        Err(_) if stop.is_raised() => {
            return Ok(Done {
                stdout: match a.format {
                    Format::Json => line(json!({"puzzle": P::INFO.name, "status": "time limit"})),
                    _ => "no explanation: the time limit passed before the solution was found\n"
                        .to_string(),
                },
                code: exit::TIME_LIMIT,
            })
        }
        Err(e) => return Err(e.into()),
    };
    let Some(e) = explained else {
        if a.certify.is_some() {
            eprintln!("puzzle-sat: no certificate: no solution to explain (solve --certify proves that there is none)");
        }
        return Ok(Done {
            stdout: match a.format {
                Format::Json => line(json!({"puzzle": P::INFO.name, "status": "no solution"})),
                _ => "no solution: nothing to explain\n".to_string(),
            },
            code: exit::NO_SOLUTION,
        });
    };
    let timed_out = e.explanation.cut_short && stop.is_raised();
    // Not unique is exit 1 with `--steps` and `--next` too, as for `explain` and `grade`.
    let code = if timed_out {
        exit::TIME_LIMIT
    } else if e.unique {
        exit::ANSWER
    } else {
        exit::NO_SOLUTION
    };
    if let Some(dir) = &a.certify {
        crate::certify::explained::write::<P>(
            dir,
            &input,
            &inst,
            &e.named,
            &e.explanation.steps,
            &e.answer,
            &a.backend,
        )?;
    }
    if let Some(dir) = &a.svg {
        pictures::<P>(dir, &inst, &e)?;
    }
    let stdout = match a.format {
        Format::Json => json_of::<P>(&inst, &e, timed_out),
        _ => text_of::<P>(&inst, &e, timed_out),
    };
    Ok(Done { stdout, code })
}

/// `--svg DIR`: `step-K.svg` for each step, the board as it leaves it, its rules' cells tinted
/// and its deductions' cells outlined.
fn pictures<P: Genre>(dir: &std::path::Path, inst: &P::Instance, e: &Explained<P>) -> Result<()> {
    use std::io::Write;
    let named = &e.named;
    std::fs::create_dir_all(dir)
        .map_err(|err| anyhow::anyhow!("{}: cannot make the folder: {err}", dir.display()))?;
    let mut known = named.known.clone();
    for (k, step) in e.explanation.steps.iter().enumerate() {
        known.extend(&step.deduces);
        let (rules, deduced) = step.cells(named);
        let names: Vec<&str> = step.rules.iter().map(|&r| named.rules.name(r)).collect();
        let caption = format!(
            "{}. {}\nso {}",
            k + 1,
            names.join("; "),
            named.say_all(&step.deduces)
        );
        let svg = P::svg_step(inst, named, &known, &rules, &deduced, &caption);
        let name = format!("step-{}.svg", k + 1);
        crate::certify::create_new(dir, &name)?
            .write_all(svg.as_bytes())
            .map_err(|err| anyhow::anyhow!("{}: cannot write: {err}", dir.join(&name).display()))?;
    }
    Ok(())
}

fn line(v: Value) -> String {
    v.to_string() + "\n"
}

/// What the explanation amounts to, in one line.
fn summary<P: Genre>(e: &Explained<P>, timed_out: bool) -> String {
    let steps = &e.explanation.steps;
    let count = |w: Way| steps.iter().filter(|s| s.way == w).count();
    let ways = [Way::Single, Way::Chain, Way::Search]
        .into_iter()
        .filter(|&w| count(w) > 0)
        .map(|w| format!("{} {}", count(w), w.name()))
        .collect::<Vec<_>>()
        .join(", ");
    let n = steps.len();
    let plural = if n == 1 { "" } else { "s" };
    let head = if ways.is_empty() {
        format!("{n} step{plural}")
    } else {
        format!("{n} step{plural} ({ways})")
    };
    let end = if timed_out {
        "stopped by the time limit"
    } else if e.explanation.cut_short && !e.unique {
        "the first ones only; not unique: the puzzle has more than one solution"
    } else if e.explanation.cut_short {
        "the first ones only"
    } else if e.unique {
        "the solution is unique"
    } else {
        "more than one solution: what is left is not forced"
    };
    format!("{}: {head}; {end}", P::INFO.name)
}

fn text_of<P: Genre>(inst: &P::Instance, e: &Explained<P>, timed_out: bool) -> String {
    let named = &e.named;
    let mut out = summary(e, timed_out) + "\n";
    for (k, step) in e.explanation.steps.iter().enumerate() {
        let rules: Vec<&str> = step.rules.iter().map(|&r| named.rules.name(r)).collect();
        let how = match step.way {
            Way::Single => String::new(),
            Way::Chain => " (together)".to_string(),
            Way::Search => " (by cases)".to_string(),
        };
        out += &format!("{:>3}. {}{how}\n", k + 1, rules.join("; "));
        out += &format!("     so {}\n", named.say_all(&step.deduces));
    }
    if e.explanation.cut_short || !e.unique {
        let mut known = named.known.clone();
        known.extend(
            e.explanation
                .steps
                .iter()
                .flat_map(|s| s.deduces.iter().copied()),
        );
        out += &format!(
            "after {} step{}:\n",
            e.explanation.steps.len(),
            if e.explanation.steps.len() == 1 {
                ""
            } else {
                "s"
            }
        );
        out += &P::draw_known(inst, named, &known);
    } else {
        out += "solution:\n";
        out += &P::render(inst, &e.answer.0, &e.answer.1, Format::Text);
    }
    out
}

fn json_of<P: Genre>(inst: &P::Instance, e: &Explained<P>, timed_out: bool) -> String {
    let named = &e.named;
    let steps: Vec<Value> = e
        .explanation
        .steps
        .iter()
        .map(|s| {
            json!({
                "deduces": s.deduces.iter().map(|&l| named.say(l)).collect::<Vec<_>>(),
                "rules": s.rules.iter().map(|&r| named.rules.name(r)).collect::<Vec<_>>(),
                "way": s.way.name(),
                "minimal": s.minimal,
                "uses": s.uses.iter().map(|&l| named.say(l)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let status = if timed_out {
        "time limit"
    } else if e.explanation.cut_short {
        "partial"
    } else if e.unique {
        "explained"
    } else {
        "not unique"
    };
    let mut m = Map::new();
    m.insert("puzzle".into(), json!(P::INFO.name));
    m.insert("status".into(), json!(status));
    m.insert("unique".into(), json!(e.unique));
    m.insert("steps".into(), Value::Array(steps));
    // Facts neither given nor deduced: none once a unique solution is explained.
    let decided = named.known.len()
        + e.explanation
            .steps
            .iter()
            .map(|s| s.deduces.len())
            .sum::<usize>();
    m.insert("open".into(), json!(named.facts.len() - decided));
    // Only a unique solution is the explanation's end; otherwise it is one of several. A
    // hint (`--next`, `--steps`) does not give the answer away.
    m.insert(
        "solution".into(),
        if e.unique && !e.explanation.cut_short {
            Value::Object(P::answer_json(inst, &e.answer.0, &e.answer.1))
        } else {
            Value::Null
        },
    );
    line(Value::Object(m))
}

/// A puzzle explained: its answer (found from the named rules, checked by the validator), the
/// steps, and whether the answer is the only one.
pub struct Explained<P: Genre> {
    pub named: Named<P::Encoding>,
    pub answer: (P::Answer, P::Checked),
    /// The facts decide one answer: every fact is in every solution.
    pub unique: bool,
    pub explanation: Explanation,
}

/// Finds the answer by the genre's own search (which may leave connectivity to cuts, and is
/// much faster than the named rules' formula on large boards) and whether it is the only one,
/// reads its facts from the named rules, finds what every solution shares (all the facts when
/// the answer is unique) and explains it. `None` when the puzzle has no solution; a run
/// stopped (`solvers`' flag, raised at `deadline`) is an error naming the stop.
pub fn puzzle<P: Genre>(
    inst: &P::Instance,
    backend: &Backend,
    deadline: Option<Instant>,
    solvers: &dyn NewSolver,
    max_steps: Option<usize>,
    unique_only: bool,
) -> Result<Option<Explained<P>>, SolverError> {
    let named = P::named(inst)
        .ok_or_else(|| SolverError(format!("explain is not for {} puzzles", P::INFO.name)))?;
    // Raised here too: the search's own clock can pass the limit a moment before the run's
    // timer raises the flag, and the callers say "time limit" (exit 3) by the flag.
    let stopped = || {
        solvers.stop().raise();
        SolverError(encodings::format::verdict::TIME_LIMIT.to_string())
    };
    // The search has what is left of the time limit (the rules took some), not all of it.
    let time_limit = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    if solvers.stop().is_raised() || time_limit == Some(Duration::ZERO) {
        return Err(stopped());
    }
    let opts = crate::runner::Options {
        backend: backend.clone(),
        time_limit,
        progress: crate::runner::Progress::Never,
        cubes: None,
    };
    let outcome = crate::runner::search::<P>(inst.clone(), Goal::Enumerate { max: 2 }, 2, &opts)?;
    let found = outcome.answers.len();
    match (found, outcome.ended) {
        (0, Ended::Proved) => return Ok(None),
        (0, _) | (1, Ended::Stopped) => return Err(stopped()),
        _ => {}
    }
    let (answer, checked) = outcome.answers[0].clone();
    let unique = found == 1;
    if unique_only && !unique {
        // A grade is for one solution only: no steps to what several share.
        return Ok(Some(Explained {
            named,
            answer: (answer, checked),
            unique,
            explanation: explain::Explanation {
                steps: Vec::new(),
                open: Vec::new(),
                cut_short: false,
            },
        }));
    }
    let Some(target) = encodings::explained::target::<P>(inst, &named, &answer, unique, solvers)?
    else {
        return Err(stopped());
    };
    let explanation = explain::explain(&named, &target, solvers, max_steps)?;
    // The steps end in the solution: the facts they established, read back as an answer,
    // pass the validator and are the answer found.
    if unique
        && !explanation.cut_short
        && !encodings::explained::ends_in::<P>(inst, &named, &explanation, &answer)
    {
        return Err(SolverError(format!(
            "internal error: the steps of {} do not end in the solution",
            P::INFO.name
        )));
    }
    Ok(Some(Explained {
        named,
        answer: (answer, checked),
        unique,
        explanation,
    }))
}
