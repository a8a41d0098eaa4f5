//! Each command written once, for every puzzle: check the flags against what the puzzle
//! supports (before any work), read the input, run the search, print the answer in the
//! format asked for. Everything puzzle-specific comes through the `Puzzle` trait.

use crate::backends::{Backend, Trust};
use crate::dimacs;
use crate::input::{read_input, Input};
use crate::output::{exit, Done, Status};
use crate::runner::{self, Options, Outcome, Progress};
use anyhow::{anyhow, bail, Result};
use encodings::certificate::Claim;
use encodings::explain::Level;
use encodings::format::verdict::{self, Ask};
use encodings::genre::Genre;
use encodings::puzzle::{self, Ended, Format, Goal, Puzzle, Settings, Task};
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `solve`: the puzzle file (`-` for standard input) and how to solve and print it.
#[derive(Clone, Debug, Default)]
pub struct SolveArgs {
    pub file: PathBuf,
    pub format: Format,
    pub time_limit: Option<Duration>,
    pub progress: Progress,
    /// Count solutions up to this many (puzzles without a score).
    pub count: Option<u64>,
    /// Say whether the solution is unique (puzzles without a score).
    pub unique: bool,
    pub lenient: bool,
    pub backend: Backend,
    /// Write a certificate of the claim into this folder.
    pub certify: Option<PathBuf>,
    /// With it, a VeriPB proof where the claim has one.
    pub veripb: bool,
    pub hints: bool,
    /// Refute what the first search leaves in cubes.
    pub cubes: Option<crate::runner::Cubes>,
}

/// `encode`: the puzzle file, where to write, and an optional score bound.
#[derive(Clone, Debug, Default)]
pub struct EncodeArgs {
    pub file: PathBuf,
    pub output: Option<PathBuf>,
    pub min_score: Option<String>,
    pub lenient: bool,
    pub format: FormulaFormat,
    /// Write this many cube formulas into `output`, a folder, instead of one formula.
    pub cubes: Option<usize>,
}

/// The file `encode` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FormulaFormat {
    /// DIMACS CNF, for SAT solvers.
    #[default]
    Cnf,
    /// OPB (pseudo-Boolean): the clauses as inequalities, the score as a `min:` objective.
    Opb,
    /// WCNF (MaxSAT, 2022 format): the clauses hard, the score as weighted soft unit clauses.
    Wcnf,
}

/// `decode`: the puzzle file, the external solver's output, and how the CNF was made.
#[derive(Clone, Debug, Default)]
pub struct DecodeArgs {
    pub file: PathBuf,
    pub model: PathBuf,
    /// Read every cube's result from this folder (`encode --cubes`) instead of one model.
    pub cubes: Option<PathBuf>,
    pub min_score: Option<String>,
    pub format: Format,
    pub lenient: bool,
}

/// `check`: the puzzle file and the answer file.
#[derive(Clone, Debug, Default)]
pub struct CheckArgs {
    pub file: PathBuf,
    pub answer: PathBuf,
    /// `text` or `json`.
    pub format: Format,
    /// Certify the completion of an incomplete answer into this folder.
    pub certify: Option<PathBuf>,
    /// With it, a VeriPB proof where the claim has one.
    pub veripb: bool,
    pub lenient: bool,
    /// For answers the solver completes.
    pub backend: Backend,
}

/// `generate`: size, seed, uniqueness.
#[derive(Clone, Debug, Default)]
pub struct GenerateArgs {
    pub rows: usize,
    pub cols: usize,
    pub seed: u64,
    pub unique: bool,
    /// `--grade`: a puzzle at this level, within `tries` tries.
    pub grade: Option<Level>,
    pub tries: usize,
    pub cells_per_clue: Option<f64>,
    pub time_limit: Option<Duration>,
    /// One JSON object instead of the puzzle file.
    pub json: bool,
    /// Print the puzzle as a puzz.link URL.
    pub url: bool,
    /// An SVG picture of the puzzle instead of the puzzle file.
    pub svg: bool,
    pub progress: Progress,
    pub backend: Backend,
}

fn allow_format<P: Genre>(format: Format) -> Result<()> {
    if format != Format::Json && !P::formats().contains(&format) {
        let mut known: Vec<&str> = P::formats().iter().map(|f| f.name()).collect();
        known.push("json");
        bail!(
            "--format {format} is not a format of {} (it prints {})",
            P::INFO.name,
            known.join(", ")
        );
    }
    Ok(())
}

/// The puzzle argument: a file, `-` for stdin, or a puzz.link URL (when no file has that name),
/// read as the puzzle file it stands for.
pub(crate) fn read_puzzle<P: Genre>(arg: &std::path::Path) -> Result<Input> {
    if let Some(url) = pasted_url(&arg.to_string_lossy()).filter(|_| !arg.exists()) {
        return from_url::<P>(url);
    }
    let input = read_input(arg)?;
    // A URL pasted into a file or standard input, alone on its line.
    if let Some(url) = url_alone(&input.text) {
        return from_url::<P>(url);
    }
    Ok(input)
}

/// The URL a file holds alone (spaces around it allowed), if it holds one: a text with
/// anything else in it (a second line, a JSON file naming puzz.link in a field) is none.
pub fn url_alone(text: &str) -> Option<&str> {
    pasted_url(text).filter(|u| !u.contains(char::is_whitespace) && !u.starts_with('{'))
}

pub use encodings::format::url::pasted as pasted_url;

fn from_url<P: Genre>(url: &str) -> Result<Input> {
    let text = encodings::genre::url_text::<P>(url).map_err(|e| anyhow!(e))?;
    Ok(Input {
        name: url.to_string(),
        text,
    })
}

/// Parses a puzzle file, skipping its header line (which must name this puzzle when present).
pub(crate) fn parse<P: Genre>(input: &Input, settings: &Settings) -> Result<P::Instance> {
    puzzle::parse_file::<P>(&input.text, settings).map_err(|e| input.error(e))
}

/// A JSON object as one line.
fn line(fields: Map<String, Value>) -> String {
    Value::Object(fields).to_string() + "\n"
}

fn head<P: Genre>(inst: &P::Instance, status: Status) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("puzzle".into(), json!(P::INFO.name));
    m.insert("status".into(), json!(status.json_name()));
    m.extend(P::instance_json(inst));
    m
}

/// The answer's fields, or each of them `null` when there is no answer.
fn answer_fields<P: Genre>(
    inst: &P::Instance,
    answer: Option<&(P::Answer, P::Checked)>,
) -> Map<String, Value> {
    match answer {
        Some((a, c)) => P::answer_json(inst, a, c),
        None => P::INFO
            .answer_fields
            .iter()
            .map(|k| (k.to_string(), Value::Null))
            .collect(),
    }
}

/// The field saying how far the UNSAT answers behind the output's claims were checked.
fn trust_field(trust: Trust) -> (String, Value) {
    ("unsat_answers".into(), json!(trust.json_name()))
}

fn stats_fields<P: Genre>(out: &Outcome<P>, trust: Trust) -> Map<String, Value> {
    let s = &out.stats;
    let Value::Object(mut m) = json!({
        "backend": s.backend,
        "sat_calls": s.solver.calls,
        "variables": s.solver.vars,
        "clauses": s.solver.clauses,
        "encode_seconds": s.encode.as_secs_f64(),
        "solve_seconds": s.elapsed.saturating_sub(s.encode).as_secs_f64(),
        "seconds": s.elapsed.as_secs_f64(),
    }) else {
        unreachable!()
    };
    m.extend([trust_field(trust)]);
    m
}

pub fn solve<P: Genre>(a: &SolveArgs) -> Result<Done> {
    allow_format::<P>(a.format)?;
    if a.hints && !matches!(a.format, Format::Text | Format::Json | Format::Svg) {
        bail!("--hints prints text, json or svg, not {}", a.format);
    }
    if P::TASK == Task::Maximize && (a.count.is_some() || a.unique) {
        bail!("--count and --unique mean nothing for {}: it finds the best answer and proves it optimal", P::INFO.name);
    }
    if a.count == Some(0) {
        bail!("--count needs a limit of at least 1");
    }
    if a.certify.is_some() && matches!(a.backend, Backend::Command(_)) {
        bail!("--certify needs a backend that writes proofs: an embedded one (the default portfolio, --solver varisat or --solver cadical), not --solver-cmd");
    }
    if let Some(dir) = &a.certify {
        crate::certify::usable_dir(dir)?;
    }
    let input = read_puzzle::<P>(&a.file)?;
    // A collection of which no puzzle can be this one is refused, but one-line sudokus for
    // another puzzle (whose rows may be 81 wide) are read as one puzzle.
    if let Some(items) =
        crate::collection::for_puzzle(&input, P::INFO.name, P::URL_KINDS).map_err(|e| anyhow!(e))?
    {
        return solve_collection::<P>(a, &input.name, items);
    }
    solve_input::<P>(a, input)
}

/// `solve` of a file of many puzzles: each in turn, under a line `# NAME` (text) or with its
/// `item` (JSON lines); a puzzle that fails is said and the next one solved. The exit status is
/// the worst of theirs: an error, then a time limit, then no solution, then an answer.
fn solve_collection<P: Genre>(
    a: &SolveArgs,
    file: &str,
    items: Vec<crate::collection::Item>,
) -> Result<Done> {
    if a.certify.is_some() {
        bail!(
            "{file}: --certify proves one puzzle's claim, and this file holds {} puzzles",
            items.len()
        );
    }
    if a.format == Format::Svg {
        bail!(
            "{file}: one picture a puzzle: this file holds {} puzzles (solve them one at a time, \
             or use `run`)",
            items.len()
        );
    }
    let worst = |code: i32| match code {
        exit::ANSWER => 0,
        exit::NO_SOLUTION => 1,
        exit::TIME_LIMIT => 2,
        _ => 3,
    };
    let mut code = exit::ANSWER;
    // Each puzzle's block is written when it is done: a collection of a thousand puzzles shows
    // its progress, and a run stopped half way keeps the answers it has.
    for item in items {
        // An estimate the last puzzle's limit left behind ends first, outside this one's limit.
        runner::settle();
        let done = match item.is(P::INFO.name, P::URL_KINDS) {
            Some(false) => Err(anyhow!(
                "{}: a {} puzzle, not a {}",
                item.name,
                item.says.as_deref().unwrap_or("different"),
                P::INFO.name
            )),
            _ => match &item.broken {
                Some(why) => Err(anyhow!("{}: {why}", item.name)),
                None => item_input::<P>(&item).and_then(|input| solve_input::<P>(a, input)),
            },
        };
        if crate::cleanup::ending() {
            // Ended by a signal: this puzzle's search was stopped under it (its solver killed),
            // which is no verdict on the puzzle; the cleanup's exit follows.
            break;
        }
        let done = done.unwrap_or_else(|e| {
            eprintln!("puzzle-sat: error: {e:#}");
            let stdout = if a.format == Format::Json {
                line(Map::from_iter([
                    ("puzzle".to_string(), json!(P::INFO.name)),
                    ("status".to_string(), json!("error")),
                    ("reason".to_string(), json!(format!("{e:#}"))),
                ]))
            } else {
                format!("error: {e:#}\n")
            };
            Done {
                stdout,
                code: exit::ERROR,
            }
        });
        if worst(done.code) > worst(code) {
            code = done.code;
        }
        let block = match a.format {
            Format::Json => {
                let mut row = match serde_json::from_str::<Value>(&done.stdout) {
                    Ok(Value::Object(row)) => row,
                    _ => Map::new(),
                };
                row.insert("item".into(), json!(item.name));
                line(row)
            }
            _ => {
                let mut block = format!("# {}\n{}", item.name, done.stdout);
                if !done.stdout.ends_with('\n') {
                    block.push('\n');
                }
                block
            }
        };
        // An answer that could not be written (a full disk, a closed pipe) is not an answer.
        let written = crate::cleanup::write_whole(&mut std::io::stdout().lock(), block.as_bytes())
            .map_err(|e| anyhow!("cannot write the output: {e}"))?;
        if !written {
            break;
        }
    }
    Ok(Done {
        stdout: String::new(),
        code,
    })
}

/// A collection's puzzle as the file it stands for (a URL read as its puzzle's text), named as
/// the collection names it.
pub(crate) fn item_input<P: Genre>(item: &crate::collection::Item) -> Result<Input> {
    let text = match pasted_url(&item.text) {
        Some(url) => {
            encodings::genre::url_text::<P>(url).map_err(|e| anyhow!("{}: {e}", item.name))?
        }
        None => item.text.clone(),
    };
    Ok(Input {
        name: item.name.clone(),
        text,
    })
}

/// `solve` of one puzzle, read.
fn solve_input<P: Genre>(a: &SolveArgs, input: Input) -> Result<Done> {
    let settings = Settings { lenient: a.lenient };
    let inst = parse::<P>(&input, &settings)?;
    if a.format == Format::Url {
        // The puzzle itself, converted: nothing is solved.
        let url = P::to_url(&inst).map_err(|e| anyhow!("{}: {e}", input.name))?;
        return Ok(Done {
            stdout: url + "\n",
            code: exit::ANSWER,
        });
    }
    // Refused here with the file's name, as `encode` refuses it (the search would say only
    // "the puzzle is too large").
    // The searches build their own formula; a certificate states the whole rules too.
    // The estimate counts against the time limit; one it outlasts leaves the search none.
    let start = Instant::now();
    let whole = a.certify.is_some();
    let estimated = inst.clone();
    let fits = runner::within(a.time_limit, move || match whole {
        true => runner::fits::<P>(&estimated),
        false => runner::fits_search::<P>(&estimated),
    });
    if let Some(fits) = fits {
        fits.map_err(|e| anyhow!("{}: {e}", input.name))?;
    }
    let opts = Options {
        backend: a.backend.clone(),
        time_limit: a.time_limit.map(|t| t.saturating_sub(start.elapsed())),
        progress: a.progress,
        cubes: a.cubes,
    };
    // The search's errors name the file too: a Tatamibari board whose candidates left after
    // probing are still too many is refused only once they are counted.
    let named = |e: anyhow::Error| anyhow!("{}: {e:#}", input.name);
    if a.hints {
        return hints::<P>(inst, a.format, &opts).map_err(named);
    }
    let (done, claim, answered) = match P::TASK {
        Task::Maximize => solve_best::<P>(inst.clone(), a.format, &opts),
        Task::Enumerate => solve_all::<P>(inst.clone(), a, &opts),
    }
    .map_err(named)?;
    if let Some(dir) = &a.certify {
        let (claim, answers) = match claim {
            Ok(proved) => proved,
            // What was found is still printed; the one reason there is no certificate is said.
            Err(no) => {
                eprintln!("puzzle-sat: error: no certificate: {}", no.why);
                return Ok(Done {
                    stdout: done.stdout,
                    code: match no.time_limit {
                        true => exit::TIME_LIMIT,
                        false => exit::ERROR,
                    },
                });
            }
        };
        let c = crate::certify::Certify::<P> {
            dir,
            file: &input.name,
            text: &input.text,
            settings,
            inst: &inst,
            fixed: None,
            claim,
            answers: &answers,
            // The certificate comes from the backend whose search answered.
            backend: &Backend::by_name(answered).unwrap_or_else(|| a.backend.clone()),
            veripb: a.veripb,
            cubes: a.cubes.map(|c| (c.n, c.threads)),
        };
        eprintln!("puzzle-sat: {}", crate::certify::write(&c)?);
    }
    Ok(done)
}

/// `solve --hints`: one answer (the proved optimum, for a scoring puzzle), then what every
/// answer has in common, drawn or listed under `hints`.
fn hints<P: Genre>(inst: P::Instance, format: Format, opts: &Options) -> Result<Done> {
    let start = std::time::Instant::now();
    let goal = match P::TASK {
        Task::Maximize => Goal::Best,
        Task::Enumerate => Goal::Enumerate { max: 1 },
    };
    let out = runner::search::<P>(inst.clone(), goal, 1, opts)?;
    let found = match (out.answers.last(), out.ended) {
        (None, Ended::Proved) => None,
        (Some(found), Ended::Proved) => Some(found.clone()),
        // An enumeration stopped at its one answer has found what hints start from.
        (Some(found), Ended::Limit) => Some(found.clone()),
        _ => return Ok(time_limit()),
    };
    let trust = opts.backend.trust();
    let Some(found) = found else {
        let stdout = match format {
            Format::Json => {
                let mut m = head::<P>(&inst, Status::NoSolution);
                m.extend([trust_field(trust)]);
                line(m)
            }
            // The bare puzzle, captioned: a picture was asked for.
            Format::Svg => P::svg(&inst, &[], &Status::NoSolution.verdict(trust)),
            _ => Status::NoSolution.verdict(trust) + "\n",
        };
        return Ok(Done {
            stdout,
            code: exit::NO_SOLUTION,
        });
    };
    let Some(h) = runner::hints::<P>(inst.clone(), found.clone(), opts, start)? else {
        return Ok(time_limit());
    };
    let score = (P::TASK == Task::Maximize).then(|| P::score(&found.1).to_string());
    let what = verdict::hints(h.decided, h.of, h.unit, score.as_deref(), trust);
    let stdout = match format {
        Format::Json => {
            let status = if P::TASK == Task::Maximize {
                Status::Optimal
            } else {
                Status::Solved
            };
            let mut m = head::<P>(&inst, status);
            m.insert("hints".into(), h.json);
            m.insert("decided".into(), json!(h.decided));
            m.insert("of".into(), json!(h.of));
            m.extend([trust_field(trust)]);
            line(m)
        }
        Format::Svg => {
            eprintln!("hints: {what}");
            P::svg(&inst, &[(&h.partial, &found.1)], &format!("hints: {what}"))
        }
        _ => format!("{}hints: {what}\n", h.drawn),
    };
    Ok(Done {
        stdout,
        code: exit::ANSWER,
    })
}

/// Hints need their search finished: a time limit leaves nothing to show.
fn time_limit() -> Done {
    eprintln!("puzzle-sat: time limit passed before the hints were complete");
    Done {
        stdout: String::new(),
        code: exit::TIME_LIMIT,
    }
}

/// A proved claim and its answers, for `--certify`.
/// A proved claim and its answers, or why nothing certifiable was proved.
type Proved<P> =
    std::result::Result<(Claim, Vec<(<P as Puzzle>::Answer, <P as Puzzle>::Checked)>), NoClaim>;

/// Why nothing certifiable was proved, and whether that was the time limit (exit 3, as the run
/// without `--certify` would say; any other reason is an error).
struct NoClaim {
    why: &'static str,
    time_limit: bool,
}

impl NoClaim {
    fn because(why: &'static str) -> NoClaim {
        NoClaim {
            why,
            time_limit: false,
        }
    }

    fn time_limit(why: &'static str) -> NoClaim {
        NoClaim {
            why,
            time_limit: true,
        }
    }
}

fn solve_best<P: Genre>(
    inst: P::Instance,
    format: Format,
    opts: &Options,
) -> Result<(Done, Proved<P>, &'static str)> {
    let out = runner::search::<P>(inst.clone(), Goal::Best, 1, opts)?;
    let best = out.best();
    let status = match (out.ended, best.is_some()) {
        (Ended::Stopped, true) => Status::BestFound,
        (Ended::Stopped, false) => Status::Unknown,
        (_, true) => Status::Optimal,
        (_, false) => Status::NoSolution,
    };
    let proved = match status {
        Status::Optimal => Ok((Claim::Optimal, best.into_iter().cloned().collect())),
        Status::NoSolution => Ok((Claim::NoSolution, Vec::new())),
        Status::BestFound => Err(NoClaim::time_limit(
            "the time limit stopped the proof; the best answer found is printed",
        )),
        _ => Err(NoClaim::time_limit(
            "the time limit stopped the search before any answer was found",
        )),
    };
    let mut code = status.exit_code();
    let trust = opts.backend.trust();
    // How far from the optimum a stopped run may be (searches that prove upper bounds).
    let gap = best
        .filter(|_| status == Status::BestFound)
        .and_then(|(_, c)| runner::gap::<P>(&P::score(c), out.upper_bound));
    let verdict = match &gap {
        Some(g) => format!("{}\n{}", status.verdict(trust), g.text(trust)),
        None => status.verdict(trust),
    };
    // The judge's line has no room for a note: it goes to stderr.
    let judge_note = |said: &str| {
        if let (Some(note), Status::Optimal | Status::NoSolution) = (trust.note(), status) {
            eprintln!("puzzle-sat: {said} is {note}");
        }
    };
    let stdout = match format {
        Format::Judge => match (status, best) {
            (Status::NoSolution, _) => {
                code = exit::ANSWER;
                judge_note("that there is no solution (-1)");
                "-1\n".to_string()
            }
            (_, None) => {
                eprintln!("puzzle-sat: time limit passed before any answer was found");
                String::new()
            }
            (_, Some((_, checked))) => {
                let score = P::score(checked);
                if status == Status::BestFound {
                    // The judge's line claims the maximum: an unproved one must not pass for it.
                    eprintln!("puzzle-sat: time limit passed: {score} is the best found, not proved optimal");
                    if let Some(g) = &gap {
                        eprintln!("puzzle-sat: {}", g.text(trust));
                    }
                    code = exit::TIME_LIMIT;
                }
                judge_note(&format!("that {score} is the maximum"));
                format!("{score}\n")
            }
        },
        Format::Json => {
            let mut m = head::<P>(&inst, status);
            m.extend(answer_fields::<P>(&inst, best));
            if let Some(g) = &gap {
                m.insert("upper_bound".into(), json!(format!("{:.0}", g.bound)));
                m.insert("gap_percent".into(), json!(g.percent));
            }
            m.extend(stats_fields(&out, trust));
            line(m)
        }
        // The picture alone, its verdict on stderr and as its caption.
        Format::Svg => {
            eprintln!("{verdict}");
            P::svg(
                &inst,
                &best.map(|(a, c)| (a, c)).into_iter().collect::<Vec<_>>(),
                &status.verdict(trust),
            )
        }
        // The answer alone, its verdict on stderr.
        _ if format.bare() => {
            eprintln!("{verdict}");
            best.map_or(String::new(), |(answer, checked)| {
                P::render(&inst, answer, checked, format)
            })
        }
        _ => match best {
            Some((answer, checked)) => {
                format!("{}{verdict}\n", P::render(&inst, answer, checked, format))
            }
            None => format!("{verdict}\n"),
        },
    };
    Ok((Done { stdout, code }, proved, out.stats.backend))
}

fn solve_all<P: Genre>(
    inst: P::Instance,
    a: &SolveArgs,
    opts: &Options,
) -> Result<(Done, Proved<P>, &'static str)> {
    let (max, keep) = match (a.count, a.unique) {
        // One more than the limit: a puzzle with exactly MAX solutions is then counted whole.
        // A certified count lists every solution.
        (Some(max), _) => (
            max.saturating_add(1),
            if a.certify.is_some() {
                usize::try_from(max).unwrap_or(usize::MAX)
            } else {
                1
            },
        ),
        (None, true) => (2, 2),
        (None, false) => (1, 1),
    };
    let out = runner::search::<P>(inst.clone(), Goal::Enumerate { max }, keep, opts)?;
    let trust = opts.backend.trust();
    let complete = out.ended == Ended::Proved;
    let timed_out = out.ended == Ended::Stopped;
    let status = match (out.count, timed_out) {
        (0, true) => Status::Unknown,
        (0, false) => Status::NoSolution,
        _ => Status::Solved,
    };
    let stdout = if a.format == Format::Json {
        let mut m = head::<P>(&inst, status);
        m.extend(answer_fields::<P>(&inst, out.answers.first()));
        if a.count.is_some() {
            m.insert("solutions".into(), json!(out.count));
            m.insert("complete".into(), json!(complete));
        } else if a.unique {
            let unique = match (out.count, complete) {
                (2, _) | (0, true) => json!(false),
                (1, true) => json!(true),
                _ => Value::Null,
            };
            m.insert("unique".into(), unique);
            m.insert(
                "second".into(),
                out.answers.get(1).map_or(Value::Null, |s| {
                    Value::Object(answer_fields::<P>(&inst, Some(s)))
                }),
            );
        }
        m.extend(stats_fields(&out, trust));
        line(m)
    } else if a.format == Format::Svg {
        // The picture alone (both solutions when not unique); the verdict on stderr and as its caption.
        let caption = verdict(a, out.count, complete, timed_out, trust);
        eprintln!("{caption}");
        let shown: Vec<_> = out
            .answers
            .iter()
            .take(if a.unique { 2 } else { 1 })
            .map(|(x, c)| (x, c))
            .collect();
        P::svg(&inst, &shown, &caption)
    } else {
        enumeration_text::<P>(&inst, a, &out, complete, timed_out, trust)
    };
    // A puzzle maker's `if puzzle-sat solve … --unique; then`: two solutions is a "no".
    let code = if a.unique && out.count >= 2 {
        exit::NO_SOLUTION
    } else {
        status.exit_code()
    };
    let proved = match (out.count, complete) {
        (0, true) => Ok((Claim::NoSolution, Vec::new())),
        (1, true) if a.unique => Ok((Claim::Unique, out.answers.clone())),
        (_, true) if a.count.is_some() => Ok((Claim::Count, out.answers.clone())),
        _ if timed_out => Err(NoClaim::time_limit("the time limit stopped the search before it was complete")),
        _ if a.unique => Err(NoClaim::because("the puzzle is not unique: its two solutions are printed, and are their own proof")),
        _ if a.count.is_some() => Err(NoClaim::because("the count passed --count's limit: raise it to count every solution")),
        _ => Err(NoClaim::because("a plain solve claims only its answer, which the validator checks: add --unique or --count to certify a claim")),
    };
    Ok((Done { stdout, code }, proved, out.stats.backend))
}

fn enumeration_text<P: Genre>(
    inst: &P::Instance,
    a: &SolveArgs,
    out: &Outcome<P>,
    complete: bool,
    timed_out: bool,
    trust: Trust,
) -> String {
    let format = a.format;
    let draw = |k: usize| P::render(inst, &out.answers[k].0, &out.answers[k].1, format);
    // The drawings, then the verdict line as under every puzzle's answer; `rects` and `line`
    // print answers and nothing else, their verdict going to stderr.
    let mut text = String::new();
    if out.count > 0 {
        if a.count.is_some() {
            if format.bare() {
                text += &draw(0);
            }
        } else if a.unique {
            for k in 0..out.answers.len() {
                if k > 0 {
                    text.push('\n');
                }
                text += &draw(k);
            }
        } else {
            text += &draw(0);
        }
    }
    let line = verdict(a, out.count, complete, timed_out, trust);
    if format.bare() {
        eprintln!("{line}");
    } else {
        text += &line;
        text.push('\n');
    }
    text
}

/// What `--count` or `--unique` found ([`verdict::enumeration`], the deadline as what stops).
fn verdict(a: &SolveArgs, count: u64, complete: bool, timed_out: bool, trust: Trust) -> String {
    let ask = match (a.count, a.unique) {
        (Some(max), _) => Ask::Count(max),
        (None, true) => Ask::Unique,
        (None, false) => Ask::One,
    };
    verdict::enumeration(
        ask,
        count,
        complete,
        timed_out.then_some(verdict::TIME_LIMIT),
        trust,
    )
}

pub fn encode<P: Genre>(a: &EncodeArgs) -> Result<Done> {
    let input = read_puzzle::<P>(&a.file)?;
    let inst = parse::<P>(&input, &Settings { lenient: a.lenient })?;
    if let Some(n) = a.cubes {
        let dir = a
            .output
            .as_ref()
            .ok_or_else(|| anyhow!("--cubes writes a folder: name it with -o DIR"))?;
        if a.format != FormulaFormat::Cnf {
            bail!("--cubes writes CNF files: drop --format");
        }
        return crate::cubes::write::<P>(&inst, &input.name, a.min_score.as_deref(), n, dir);
    }
    let (cnf, _, comments, objective) = crate::formula::cnf::<P>(
        &inst,
        &input.name,
        a.min_score.as_deref(),
        a.format != FormulaFormat::Cnf,
    )?;
    // A puzzle without a score is a decision problem: no objective.
    let dimacs = match a.format {
        FormulaFormat::Cnf => dimacs::to_string(&cnf, &comments),
        FormulaFormat::Opb => {
            encodings::cnf::objective::opb_text(&cnf, objective.as_ref(), &comments)
        }
        FormulaFormat::Wcnf => {
            if objective.as_ref().is_some_and(|o| o.top().bits() > 63) {
                eprintln!("puzzle-sat: note: the WCNF's weights add up past 2^63, the MaxSAT Evaluation's limit: solvers with 64-bit weights cannot read it (an OPB file has no such limit; docs/formats.md)");
            }
            encodings::cnf::objective::wcnf_text(&cnf, objective.as_ref(), &comments)
        }
    };
    match &a.output {
        Some(path) => {
            std::fs::write(path, dimacs)
                .map_err(|e| anyhow!("{}: cannot write: {e}", path.display()))?;
            Ok(Done {
                stdout: String::new(),
                code: exit::ANSWER,
            })
        }
        None => Ok(Done {
            stdout: dimacs,
            code: exit::ANSWER,
        }),
    }
}

pub fn decode<P: Genre>(a: &DecodeArgs) -> Result<Done> {
    allow_format::<P>(a.format)?;
    if a.format == Format::Judge {
        bail!("--format judge is for solve (decode proves nothing about the best score)");
    }
    if a.format == Format::Url {
        bail!("--format url prints a puzzle, not an answer: use it with solve or generate");
    }
    let input = read_puzzle::<P>(&a.file)?;
    if let Some(dir) = &a.cubes {
        let inst = parse::<P>(&input, &Settings { lenient: a.lenient })?;
        return match crate::cubes::join::<P>(&inst, &input.name, a.min_score.as_deref(), dir)? {
            // A cube's model is a model of the whole formula: decoded as one.
            crate::cubes::Joined::Model(model) => decode::<P>(&DecodeArgs {
                model,
                cubes: None,
                ..a.clone()
            }),
            crate::cubes::Joined::Refuted(proved) => refuted::<P>(
                &inst,
                a,
                if proved {
                    Trust::Checked
                } else {
                    Trust::Unchecked
                },
            ),
        };
    }
    let model = read_input(&a.model)?;
    let inst = parse::<P>(&input, &Settings { lenient: a.lenient })?;
    let output = dimacs::read_output(&model.text).map_err(|e| anyhow!("{}:{e}", model.name))?;
    // A solver with an objective (`o` lines, OPTIMUM FOUND) was given `encode --format opb|wcnf`'s
    // formula, which for a scoring puzzle holds the variables the objective counts with.
    let scored = output.has_objective() && P::TASK == Task::Maximize;
    let (cnf, enc, _, objective) =
        crate::formula::cnf::<P>(&inst, &input.name, a.min_score.as_deref(), scored)?;
    // A 0/1 string gives every variable: one of another length is another formula's.
    if let Some((at, n)) = output.bits {
        if n != cnf.num_vars {
            bail!("{}:{at}: the assignment string gives {n} variables, the formula has {}: was it made from another puzzle file or with other flags?", model.name, cnf.num_vars);
        }
    }
    let Some(m) = dimacs::model_of(&cnf, output.answer.clone(), &model.name)? else {
        // The solver's word, and with a bound only that nothing reaches it.
        return refuted::<P>(&inst, a, Trust::Unchecked);
    };
    let answer = P::decode(&inst, &enc, &m);
    let checked = P::check(&inst, &answer)
        .map_err(|v| anyhow!("{}: the decoded answer breaks a rule: {v}", model.name))?;
    // A CNF's bound may be approximate (Kakkuro's rounds in the answer's favour).
    if let Some(bound) = a.min_score.as_deref() {
        if P::reaches(&checked, bound) == Some(false) {
            eprintln!("puzzle-sat: note: this answer scores {}, below --min-score {bound}: the CNF's bound is approximate, and lets answers within its rounding through", P::score(&checked));
        }
    }
    // The solver's `o` is its own model's value, in the OPB's terms or the WCNF's: anything
    // else means another formula, or a solver not to be believed about its optimum either.
    if let (Some(obj), Some((at, said))) = (&objective, &output.cost) {
        let value = obj.value(&m);
        let (opb, wcnf) = (obj.opb().1 - &value, obj.top() - &value);
        if *said != opb && *said != wcnf {
            bail!("{}:{at}: the solver says its model's objective is {said}, but it is {opb} in the OPB file's terms and {wcnf} in the WCNF file's: was it made from another puzzle file or with other flags?", model.name);
        }
    }
    // Its optimum is the exact one (each puzzle's objective orders answers as their exact
    // scores do: docs/formats.md), but only its word.
    let (status, verdict) = match P::TASK {
        Task::Maximize if scored && output.optimum => {
            (Status::Optimal, Status::Optimal.verdict(Trust::Unchecked))
        }
        Task::Maximize => (
            Status::Solved,
            "valid answer (optimality not checked)".to_string(),
        ),
        Task::Enumerate => (Status::Solved, Status::Solved.text().to_string()),
    };
    let stdout = match a.format {
        Format::Json => {
            let mut m = head::<P>(&inst, status);
            if status == Status::Optimal {
                m.extend([trust_field(Trust::Unchecked)]);
            }
            m.extend(P::answer_json(&inst, &answer, &checked));
            line(m)
        }
        Format::Svg => {
            eprintln!("{verdict}");
            P::svg(&inst, &[(&answer, &checked)], &verdict)
        }
        format => {
            let drawn = P::render(&inst, &answer, &checked, format);
            if format.bare() {
                eprintln!("{verdict}");
                drawn
            } else {
                format!("{drawn}{verdict}\n")
            }
        }
    };
    Ok(Done {
        stdout,
        code: exit::ANSWER,
    })
}

/// `decode`'s verdict on a refuted formula (one solver's, or every cube's): no solution, or with
/// a bound none that reaches it; `Trust::Checked` when every proof passed the DRAT checker.
fn refuted<P: Genre>(inst: &P::Instance, a: &DecodeArgs, trust: Trust) -> Result<Done> {
    let (status, said) = match a.min_score.as_deref() {
        Some(s) => (
            Status::NoneAtMinScore,
            trust.claim(&format!("no answer scores {s} or more")),
        ),
        None => (Status::NoSolution, Status::NoSolution.verdict(trust)),
    };
    let stdout = match a.format {
        Format::Json => {
            let mut m = head::<P>(inst, status);
            if let Some(s) = &a.min_score {
                m.insert("min_score".into(), json!(s));
            }
            m.extend([trust_field(trust)]);
            line(m)
        }
        Format::Svg => {
            eprintln!("{said}");
            P::svg(inst, &[], &said)
        }
        _ => format!("{said}\n"),
    };
    Ok(Done {
        stdout,
        code: status.exit_code(),
    })
}

pub fn check<P: Genre>(a: &CheckArgs) -> Result<Done> {
    if !matches!(a.format, Format::Text | Format::Json | Format::Svg) {
        bail!("check prints text, json or svg, not {}", a.format);
    }
    // Before the completion is solved, which may take long.
    if let Some(dir) = &a.certify {
        crate::certify::usable_dir(dir)?;
    }
    let input = read_puzzle::<P>(&a.file)?;
    let inst = parse::<P>(&input, &Settings { lenient: a.lenient })?;
    let answer_file = read_input(&a.answer)?;
    let json = a.format == Format::Json;
    // `solved`: the verdict rests on the solver's refutation (no completion is valid).
    let invalid = |why: &str, solved: bool| {
        let stdout = if json {
            let mut m = Map::new();
            m.insert("puzzle".into(), json!(P::INFO.name));
            m.insert("valid".into(), json!(false));
            m.insert("reason".into(), json!(why));
            if solved {
                m.extend([trust_field(a.backend.trust())]);
            }
            line(m)
        } else if a.format == Format::Svg {
            // A broken answer with the cells of the rule it breaks outlined; the bare puzzle
            // where no completion exists (the answer itself broke no rule).
            let verdict = format!("invalid: {why}");
            eprintln!("{verdict}");
            if solved {
                P::svg(&inst, &[], &verdict)
            } else {
                P::svg_broken(&inst, &answer_file.text, &verdict)
            }
        } else {
            format!("invalid: {why}\n")
        };
        Ok(Done {
            stdout,
            code: exit::NO_SOLUTION,
        })
    };
    let read = match P::read_answer(&inst, &answer_file.text).map_err(|e| answer_file.error(e))? {
        Ok(read) => read,
        Err(v) => return invalid(&v, false),
    };
    let (answer, checked, completed) = if read.complete {
        match P::check(&inst, &read.answer) {
            Ok(checked) => (read.answer, checked, false),
            Err(v) => return invalid(&v, false),
        }
    } else {
        // The solver completes the answer as well as it can (e.g. Kakkuro's best sides).
        let opts = Options {
            backend: a.backend.clone(),
            time_limit: None,
            progress: Progress::Never,
            cubes: None,
        };
        let Some(completion) = P::COMPLETION else {
            bail!(
                "internal error: {} read an incomplete answer but completes none",
                P::INFO.name
            )
        };
        let fixed = (completion.fix)(&inst, &read.answer);
        let out = runner::search::<P>(fixed.clone(), Goal::Best, 1, &opts)?;
        let answered = Backend::by_name(out.stats.backend).unwrap_or_else(|| a.backend.clone());
        let best = out.answers.into_iter().last();
        if let Some(dir) = &a.certify {
            let (claim, answers) = match &best {
                Some(b) => (Claim::Optimal, vec![b.clone()]),
                None => (Claim::NoSolution, Vec::new()),
            };
            let settings = Settings { lenient: a.lenient };
            let c = crate::certify::Certify::<P> {
                dir,
                file: &input.name,
                text: &input.text,
                settings,
                inst: &fixed,
                fixed: Some(&answer_file.text),
                claim,
                answers: &answers,
                backend: &answered,
                veripb: a.veripb,
                cubes: None,
            };
            eprintln!("puzzle-sat: {}", crate::certify::write(&c)?);
        }
        match best {
            Some((answer, checked)) => (answer, checked, true),
            None => return invalid(&a.backend.trust().claim(completion.none), true),
        }
    };
    if a.certify.is_some() && !completed {
        bail!("--certify: this answer is complete, so its check is its own certificate (nothing was solved)");
    }
    let score = P::score(&checked).to_string();
    let differs = read.claimed.filter(|c| *c != score);
    // A completion is the best one only as far as the solver's UNSAT answers are trusted.
    let note = a
        .backend
        .trust()
        .note()
        .filter(|_| completed)
        .map(|n| format!("note: that no completion scores more is {n}"));
    let stdout = if json {
        let mut m = Map::new();
        m.insert("puzzle".into(), json!(P::INFO.name));
        m.insert("valid".into(), json!(true));
        m.extend(P::instance_json(&inst));
        m.extend(P::answer_json(&inst, &answer, &checked));
        m.insert("completed".into(), json!(completed));
        m.insert("claimed".into(), json!(differs));
        m.insert("claim_holds".into(), json!(differs.is_none()));
        if completed {
            m.extend([trust_field(a.backend.trust())]);
        }
        line(m)
    } else if a.format == Format::Svg {
        let mut verdict = P::describe_valid(&inst, &answer, &checked, completed)
            .lines()
            .next()
            .unwrap_or("valid")
            .to_string();
        if let Some(claimed) = &differs {
            verdict += &format!("\n{}", verdict::wrong_claim(claimed, &score));
        }
        if let Some(note) = &note {
            verdict += &format!("\n{note}");
        }
        eprintln!("{verdict}");
        P::svg(&inst, &[(&answer, &checked)], &verdict)
    } else {
        let mut text = P::describe_valid(&inst, &answer, &checked, completed);
        if let Some(claimed) = &differs {
            text += &format!("{}\n", verdict::wrong_claim(claimed, &score));
        }
        if let Some(note) = &note {
            text += &format!("{note}\n");
        }
        text
    };
    // A claim that does not hold is a failed check, however valid the answer is.
    let code = if differs.is_some() {
        exit::NO_SOLUTION
    } else {
        exit::ANSWER
    };
    Ok(Done { stdout, code })
}

/// A generated puzzle file read back as the user will read it, with the answer it was made
/// around re-checked on it by the independent validator: "unique" means "no answer but this
/// one", so this one must be an answer.
pub fn generated<P: Genre>(text: &str, answer: &P::Answer) -> Result<P::Instance> {
    let inst = parse::<P>(
        &Input {
            name: "the generated puzzle".into(),
            text: text.to_string(),
        },
        &Settings::default(),
    )?;
    if let Err(v) = P::check(&inst, answer) {
        bail!("internal error: the generated puzzle's own answer breaks a rule: {v}");
    }
    Ok(inst)
}

/// How `generate --grade` grades the puzzle it prints again, by `explain`'s path (a module
/// after this one) rather than trusting the generator: the puzzle file in, its grade and level
/// out.
pub type Regrade = fn(&str, &Backend) -> Result<(usize, Level)>;

pub fn generate<P: Genre>(a: &GenerateArgs, regrade: Regrade) -> Result<Done> {
    let opts = Options {
        backend: a.backend.clone(),
        time_limit: a.time_limit,
        progress: a.progress,
        cubes: None,
    };
    // A graded puzzle is explained to its one solution, so it is unique.
    let unique = a.unique || a.grade.is_some() || P::GENERATES_UNIQUE;
    let spec = puzzle::GenerateSpec {
        rows: a.rows,
        cols: a.cols,
        seed: a.seed,
        unique,
        cells_per_clue: a.cells_per_clue,
    };
    let made = runner::generate::<P>(spec, a.grade.map(|level| (level, a.tries)), &opts)
        .map_err(|e| anyhow!(e))?;
    // Not progress: what was asked and not met, so said under --quiet too (and in JSON).
    let remark = made.as_ref().and_then(|m| m.remark.clone());
    if let (Some(remark), false) = (&remark, a.json) {
        eprintln!("puzzle-sat: {remark}");
    }
    let made = made.map(|m| (m.text, m.answer));
    let trust = a.backend.trust();
    if let (Some(note), true, true) = (trust.note(), unique, made.is_some()) {
        eprintln!("puzzle-sat: that the puzzle is unique is {note}");
    }
    let inst = match &made {
        Some((text, answer)) => Some(generated::<P>(text, answer)?),
        None => None,
    };
    // The level printed is graded again here: the generator's word that it met the level (no
    // remark) must agree.
    let graded = match (a.grade, &made) {
        (Some(asked), Some((text, _))) => {
            // On the backend that graded it: a search step's core, and so the grade, may
            // differ between backends.
            let (number, level) = regrade(text, &runner::generating(&a.backend))?;
            if remark.is_none() != (level == asked) {
                bail!("internal error: generate --grade {asked} made a puzzle that grades {level} ({number}), and said otherwise");
            }
            if !(a.json || a.progress == Progress::Never && level == asked) {
                eprintln!("puzzle-sat: level {level} (grade {number})");
            }
            Some((number, level))
        }
        _ => None,
    };
    let made = made.map(|(text, _)| text);
    // A level asked and not met: the nearest puzzle is printed, and the exit says it is not
    // what was asked, as `solve --unique` does for a puzzle that is not unique.
    let code = match (a.grade, graded) {
        (Some(asked), Some((_, level))) if level != asked => exit::NO_SOLUTION,
        _ => exit::ANSWER,
    };
    // How much of the answer the rules decide by propagation alone: the rest needs reasoning.
    // It builds the whole formula, so only where asked for (a unique puzzle, whose search built
    // it already, or JSON) and where it fits: plain generation stays instant at any size.
    let measure = (unique || a.json)
        && inst
            .as_ref()
            .is_some_and(|i| runner::fits_search::<P>(i).is_ok());
    let difficulty = if measure {
        inst.as_ref().and_then(P::difficulty)
    } else {
        None
    };
    if let (Some((decided, of)), false) = (difficulty, a.json || a.progress == Progress::Never) {
        eprintln!(
            "puzzle-sat: unit propagation alone decides {decided} of the {of} {}",
            P::PARTS
        );
    }
    let json = |text: Option<&str>| {
        let mut m = Map::new();
        m.insert("puzzle".into(), json!(P::INFO.name));
        m.insert("rows".into(), json!(a.rows));
        m.insert("cols".into(), json!(a.cols));
        m.insert("seed".into(), json!(a.seed));
        // Proved by the solver when asked for; unknown otherwise.
        m.insert(
            "unique".into(),
            if unique && text.is_some() {
                json!(true)
            } else {
                Value::Null
            },
        );
        m.extend([trust_field(trust)]);
        m.insert("text".into(), json!(text));
        m.insert("propagated".into(), json!(difficulty.map(|d| d.0)));
        m.insert("parts".into(), json!(difficulty.map(|d| d.1)));
        m.insert("remark".into(), json!(remark));
        m.insert("grade".into(), json!(graded.map(|g| g.0)));
        m.insert("level".into(), json!(graded.map(|g| g.1.name())));
        line(m)
    };
    match made {
        Some(_) if a.url => {
            let inst = inst.as_ref().expect("parsed above");
            Ok(Done {
                stdout: P::to_url(inst).map_err(|e| anyhow!(e))? + "\n",
                code,
            })
        }
        Some(_) if a.svg => {
            let inst = inst.as_ref().expect("parsed above");
            let unique = if unique {
                format!(", {}", a.backend.trust().claim("unique"))
            } else {
                String::new()
            };
            let level = graded
                .map(|(_, level)| format!(", {level}"))
                .unwrap_or_default();
            let caption = format!(
                "{} {}×{}, seed {}{unique}{level}",
                P::INFO.name,
                a.rows,
                a.cols,
                a.seed
            );
            Ok(Done {
                stdout: P::svg(inst, &[], &caption),
                code,
            })
        }
        Some(text) => Ok(Done {
            stdout: if a.json { json(Some(&text)) } else { text },
            code,
        }),
        None => {
            if a.grade.is_some() {
                eprintln!(
                    "puzzle-sat: time limit: no puzzle graded yet; try a longer --time-limit"
                );
            } else {
                eprintln!("puzzle-sat: time limit: no unique puzzle yet; try another --seed or a smaller size");
            }
            Ok(Done {
                stdout: if a.json { json(None) } else { String::new() },
                code: exit::TIME_LIMIT,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::Trust;

    /// Every verdict line `solve` prints under an answer reads as one to the answer readers
    /// ([`puzzle::is_verdict`]), and a line of labels does not.
    #[test]
    fn every_verdict_line_reads_as_a_verdict() {
        let mut lines: Vec<String> = Vec::new();
        for trust in [Trust::Embedded, Trust::Checked, Trust::Unchecked] {
            for status in [
                Status::Optimal,
                Status::BestFound,
                Status::Solved,
                Status::NoSolution,
                Status::NoneAtMinScore,
                Status::Unknown,
            ] {
                lines.push(status.verdict(trust));
                lines.push(status.text().to_string());
            }
            for (count, unique) in [
                (None, false),
                (None, true),
                (Some(1), false),
                (Some(5), false),
            ] {
                let a = SolveArgs {
                    count,
                    unique,
                    ..SolveArgs::default()
                };
                for found in [0, 1, 2, 13] {
                    for (complete, timed_out) in [(true, false), (false, true), (false, false)] {
                        lines.push(verdict(&a, found, complete, timed_out, trust));
                    }
                }
            }
        }
        lines.push("valid answer (optimality not checked)".into());
        for line in &lines {
            assert!(puzzle::is_verdict(line), "{line:?}");
        }
        for row in [
            "1111122334",
            "QQRRSSSTPP",
            "12 3",
            "solve",
            "uniq",
            "solvedXYZ",
            "12 solutionsfoo",
            "optimal",
            "unique!",
            "at least 3 solutions",
            "more than 5 solutions (stopped at x)",
        ] {
            assert!(!puzzle::is_verdict(row), "{row:?}");
        }
    }
}
