//! The command line: arguments for every command, the same for every puzzle; the puzzle named
//! picks a registry entry, which runs the generic driver on plain arguments (the driver knows
//! nothing of clap, and nothing imports this module back).

use crate::backends::{Backend, BUILT_IN};
use crate::driver;
use crate::output::{exit, Done};
use crate::registry::{self, PUZZLES};
use crate::runner::Progress;
use anyhow::{anyhow, bail, Result};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use encodings::explain::Level;
use encodings::puzzle::{Flag, Format};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "puzzle-sat",
    version,
    about = "Compiles logic puzzles to SAT, solves them, and proves optimal scores"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a puzzle; for scoring puzzles, find the best answer and prove it optimal.
    Solve(SolveCli),
    /// Write the puzzle as DIMACS CNF for an external SAT solver.
    Encode(EncodeCli),
    /// Read an external solver's model of `encode`'s CNF back into an answer.
    Decode(DecodeCli),
    /// Check an answer against the rules with the independent validator.
    Check(CheckCli),
    /// The steps from the givens to the solution, each with the rule instances that force it.
    Explain(ExplainCli),
    /// How hard a puzzle is: a number, then a level (easy, medium, hard, expert, extreme), from
    /// its explanation's steps; one line a puzzle for a collection.
    Grade(GradeCli),
    #[command(about = format!("Make a random puzzle ({})", registry::generators().join(", ")))]
    Generate(GenerateCli),
    /// Solve every puzzle file under the given files and folders, in parallel, and compare
    /// each with the expected answer beside it.
    Run(RunCli),
    /// One row of `run`, in a process of its own (used by `run`).
    #[command(hide = true)]
    RunFile(RunFileCli),
    /// Check a certificate written by --certify: the claim's answers, its formula, its proof
    /// (and its VeriPB problem and proof, where it has them, with veripb).
    Verify(VerifyCli),
    /// List the SAT solver backends built into this binary.
    Solvers,
    /// Serve the web page (solves in the browser; build it with `bash web/build.sh`) on
    /// 127.0.0.1.
    Serve(ServeCli),
}

#[derive(clap::Args, Debug)]
pub struct ServeCli {
    /// The port (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// The built page's folder (default: `web` beside the binary, else the source tree's
    /// `web/dist`).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Connections held at once; past it a new one takes the place of the one that has waited
    /// longest without sending its request, and is answered 503 only when every one is being
    /// answered.
    #[arg(long, value_name = "N", default_value_t = crate::serve::CONNECTIONS, value_parser = clap::value_parser!(u32).range(1..=100_000).map(|n| n as usize))]
    pub connections: usize,
}

#[derive(clap::Args, Debug)]
pub struct VerifyCli {
    /// The certificate's folder.
    pub dir: PathBuf,
    /// The DRAT checker: `{cnf}` and `{proof}` are replaced by the files (else both appended).
    #[arg(long, value_name = "CMD ARGS", default_value = crate::certify::DEFAULT_CHECKER)]
    pub checker: String,
    /// The address space each outside checker (the DRAT checker, veripb) may take, in bytes or
    /// with a unit (`512M`, `16G`); past it the proof is not verified.
    #[arg(long, value_name = "SIZE", default_value = "8G", value_parser = parse_bytes)]
    pub memory: u64,
    /// Seconds the checks may take in all (default: no limit); past it, not verified.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
}

/// A flag's help, naming the puzzles that take it.
fn for_flag(flag: Flag, what: &str) -> String {
    format!("{what} ({})", registry::with_flag(flag).join(", "))
}

fn puzzle_parser() -> impl TypedValueParser<Value = String> {
    PossibleValuesParser::new(
        PUZZLES
            .iter()
            .map(|p| PossibleValue::new(p.name()).help(p.about())),
    )
}

/// The puzzles `generate` makes, for its `--help` and its errors.
fn generator_parser() -> impl TypedValueParser<Value = String> {
    PossibleValuesParser::new(
        PUZZLES
            .iter()
            .filter(|p| p.generator.is_some())
            .map(|p| PossibleValue::new(p.name()).help(p.about())),
    )
}

fn format_parser() -> impl TypedValueParser<Value = Format> {
    formats_parser(&Format::ALL)
}

/// `decode` prints an answer read back: no judge line (it proves no maximum), no URL.
fn decode_format_parser() -> impl TypedValueParser<Value = Format> {
    formats_parser(
        &Format::ALL
            .into_iter()
            .filter(|f| !matches!(f, Format::Judge | Format::Url))
            .collect::<Vec<_>>(),
    )
}

/// `formats`, each with the puzzles that print it in `--help` (a puzzle refuses the others).
fn formats_parser(formats: &[Format]) -> impl TypedValueParser<Value = Format> {
    let values: Vec<PossibleValue> = formats
        .iter()
        .map(|&f| {
            let who: Vec<&str> = PUZZLES
                .iter()
                .filter(|p| f == Format::Json || p.formats().contains(&f))
                .map(|p| p.name())
                .collect();
            let who = if who.len() == PUZZLES.len() {
                "every puzzle".to_string()
            } else {
                who.join(", ")
            };
            PossibleValue::new(f.name()).help(who)
        })
        .collect();
    PossibleValuesParser::new(values).map(|s| {
        *Format::ALL
            .iter()
            .find(|f| f.name() == s)
            .expect("one of the possible values")
    })
}

/// Which solver runs the searches.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SolverArgs {
    /// The SAT solver backend (`puzzle-sat solvers` lists them); by default the embedded ones
    /// race (`portfolio`) and the first answer wins.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "portfolio",
        conflicts_with = "solver_cmd"
    )]
    pub solver: String,
    /// How many threads a portfolio races on, one backend each (default: the cores available;
    /// 1 runs its first backend alone). `run` shares the cores between its jobs and this.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// An external solver reading a DIMACS file, run once per SAT call: the file's path replaces
    /// `{cnf}` or is appended; `{out}` names a result file (MiniSat's convention).
    #[arg(long, value_name = "CMD ARGS")]
    pub solver_cmd: Option<String>,
}

impl SolverArgs {
    pub fn backend(&self) -> Result<Backend> {
        let backend = match &self.solver_cmd {
            Some(cmd) => Backend::Command(cmd.clone()),
            None => match Backend::by_name(&self.solver) {
                Some(Backend::Portfolio(_)) => {
                    Backend::portfolio(self.threads.map_or_else(crate::run::cores, usize::from))
                }
                Some(b) => b,
                None => {
                    let names: Vec<&str> = BUILT_IN.iter().map(|b| b.0).collect();
                    if self.solver == "cadical" {
                        bail!(
                            "--solver cadical: this build leaves out the embedded CaDiCaL \
                             (--no-default-features); build with the default features \
                             (`cargo build --release`, needs g++), or run Debian's with \
                             --solver-cmd cadical (built in: {})",
                            names.join(", ")
                        )
                    }
                    bail!(
                        "--solver {}: no such backend in this build (built in: {})",
                        self.solver,
                        names.join(", ")
                    )
                }
            },
        };
        backend
            .validate()
            .map_err(|e| anyhow::anyhow!("--solver-cmd: {e}"))?;
        if self.threads.is_some() && !matches!(backend, Backend::Portfolio(_)) {
            bail!(
                "--threads races the portfolio's backends, but {} runs one: drop --threads",
                match &self.solver_cmd {
                    Some(_) => "--solver-cmd".to_string(),
                    None => format!("--solver {}", self.solver),
                }
            );
        }
        Ok(backend)
    }
}

#[derive(clap::Args, Debug)]
pub struct SolveCli {
    #[arg(value_parser = puzzle_parser())]
    pub puzzle: String,
    /// The puzzle file; `-` reads standard input.
    pub file: PathBuf,
    #[arg(long, value_parser = format_parser(), default_value = "text")]
    pub format: Format,
    /// Stop after this many seconds and print the best answer found, marked as not proved.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Print each improved score to stderr (by default only once a run passes one second).
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,
    /// Print no progress to stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Count solutions, stopping at MAX (default 1000; puzzles without a score). Written
    /// `--count=MAX`, so the word after a bare `--count` is never taken for a number.
    #[arg(long, value_name = "MAX", num_args = 0..=1, require_equals = true, default_missing_value = "1000", conflicts_with = "unique")]
    pub count: Option<u64>,
    /// Say whether the solution is unique; if not, show two and exit 1 (puzzles without a score).
    #[arg(long)]
    pub unique: bool,
    /// Write a certificate of the proved claim (optimal, unique, a finished count, no solution)
    /// into DIR (new or empty): the claim, the formula whose unsatisfiability it is, a DRAT proof.
    #[arg(long, value_name = "DIR")]
    pub certify: Option<PathBuf>,
    /// With --certify: also write a VeriPB problem and proof (problem.opb, proof.pbp) for
    /// `veripb`: for a Kakkuro optimum (strict rules), the score's bound derived; for a
    /// no-solution, unique or count claim, the puzzle's own problem for sudoku and target
    /// sudoku, else final.cnf (a second check of it). Target sudoku optima get one without
    /// asking.
    #[arg(long, requires = "certify")]
    pub veripb: bool,
    #[arg(long, conflicts_with_all = ["count", "unique", "certify"], help = for_flag(Flag::Hints, "Show only what every solution (every optimal answer, for a scoring puzzle) has in common"))]
    pub hints: bool,
    #[arg(long, help = for_flag(Flag::Lenient, "Score repeats as errors (docs/rules.md, lenient mode) instead of forbidding them"))]
    pub lenient: bool,
    /// If the search has not ended after --cubes-after seconds, split the formula it first
    /// solves into at most N cubes and run it again once per cube, --threads at a time (default
    /// and at most: the cores), merging their claims; with --certify, a DRAT proof per cube of
    /// the claim's formula and one that the cubes cover every case (docs/cli.md, Cubes).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096), conflicts_with_all = ["hints", "veripb"])]
    pub cubes: Option<u32>,
    /// With --cubes: how long the first search runs before its claim is split (0: split at
    /// once).
    #[arg(long, value_name = "SECONDS", value_parser = parse_wait, requires = "cubes", default_value = "10")]
    pub cubes_after: Duration,
    #[command(flatten)]
    pub solver: SolverArgs,
}

fn progress(quiet: bool, always: bool) -> Progress {
    if quiet {
        Progress::Never
    } else if always {
        Progress::Always
    } else {
        Progress::Auto
    }
}

#[derive(clap::Args, Debug)]
pub struct EncodeCli {
    #[arg(value_parser = puzzle_parser())]
    pub puzzle: String,
    /// The puzzle file; `-` reads standard input.
    pub file: PathBuf,
    /// Write the CNF here instead of standard output.
    #[arg(short, long, value_name = "OUT.cnf")]
    pub output: Option<PathBuf>,
    /// Keep only answers scoring at least S (scoring puzzles).
    #[arg(long, value_name = "S")]
    pub min_score: Option<String>,
    #[arg(long, help = for_flag(Flag::Lenient, "Score repeats as errors (docs/rules.md, lenient mode) instead of forbidding them"))]
    pub lenient: bool,
    /// The file to write: cnf (SAT), or opb (pseudo-Boolean) and wcnf (MaxSAT), which state a
    /// scoring puzzle's score as an objective (docs/formats.md).
    #[arg(long, value_enum, default_value = "cnf")]
    pub format: driver::FormulaFormat,
    /// Write the formula as at most N cube jobs into the folder -o names (new or empty):
    /// cube-K.cnf, cover.cnf and cubes.txt; `decode --cubes DIR` joins their results.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096), requires = "output")]
    pub cubes: Option<u32>,
}

#[derive(clap::Args, Debug)]
pub struct DecodeCli {
    #[arg(value_parser = puzzle_parser())]
    pub puzzle: String,
    /// The puzzle file the CNF was made from.
    pub file: PathBuf,
    /// The solver's output: `s`/`v` lines, or MiniSat's result file; a MaxSAT or PB solver's
    /// (`o` lines, `s OPTIMUM FOUND`) is read as a model of `encode --format opb|wcnf`'s file.
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "cubes",
        conflicts_with = "cubes"
    )]
    pub model: Option<PathBuf>,
    /// The folder of `encode --cubes`: every cube-K.out read (a missing one is refused), the
    /// first model decoded; all refuted is "no solution", proved when every cube-K.drat and
    /// cover.drat pass the DRAT checker (rate).
    #[arg(long, value_name = "DIR")]
    pub cubes: Option<PathBuf>,
    /// The --min-score the CNF was encoded with (a bound may add variables).
    #[arg(long, value_name = "S")]
    pub min_score: Option<String>,
    #[arg(long, value_parser = decode_format_parser(), default_value = "text")]
    pub format: Format,
    #[arg(long, help = for_flag(Flag::Lenient, "Score repeats as errors (docs/rules.md, lenient mode) instead of forbidding them"))]
    pub lenient: bool,
}

#[derive(clap::Args, Debug)]
pub struct CheckCli {
    #[arg(value_parser = puzzle_parser())]
    pub puzzle: String,
    /// The puzzle file.
    pub file: PathBuf,
    /// The answer, in any form `solve` prints: a completed grid (sudoku, target-sudoku), a label
    /// grid, box drawing or `rects` lines (tatamibari, shikaku), rows with sides or a contest
    /// string `SCORE:v1,…` (kakkuro).
    #[arg(long, value_name = "FILE")]
    pub answer: PathBuf,
    /// `text`, `json`: one object with `valid` and the answer's fields (or `reason`), or `svg`:
    /// a picture of the answer.
    #[arg(long, value_parser = ["text", "json", "svg"], default_value = "text")]
    pub format: String,
    /// When the solver completes the answer (a bare Kakkuro contest string): write a
    /// certificate that its completion is the best into DIR (new or empty).
    #[arg(long, value_name = "DIR")]
    pub certify: Option<PathBuf>,
    /// With --certify: also write a VeriPB problem and proof where the claim has one (the best
    /// sides under the strict rules, or no completion is valid).
    #[arg(long, requires = "certify")]
    pub veripb: bool,
    #[arg(long, help = for_flag(Flag::Lenient, "Score repeats as errors (docs/rules.md, lenient mode) instead of forbidding them"))]
    pub lenient: bool,
    /// For answers the solver completes (a bare Kakkuro contest string).
    #[command(flatten)]
    pub solver: SolverArgs,
}

#[derive(clap::Args, Debug)]
pub struct ExplainCli {
    #[arg(value_parser = puzzle_parser())]
    pub puzzle: String,
    /// The puzzle file or URL; `-` reads standard input.
    pub file: PathBuf,
    /// `text` (numbered steps, then the solution) or `json` (one object: `steps`, each with
    /// `deduces`, `rules`, `way` and `uses`, and `solution`).
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
    /// Only the first N steps, then the board as they leave it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..).map(|n| n as usize), conflicts_with = "next")]
    pub steps: Option<usize>,
    /// Only the next step (the first from the puzzle as given): a hint that says why.
    #[arg(long)]
    pub next: bool,
    /// Stop after this many seconds and print the steps found so far.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Write into DIR (new or empty) each step's implication as a formula with a DRAT proof
    /// that it has no model; `verify DIR` checks them all.
    #[arg(long, value_name = "DIR")]
    pub certify: Option<PathBuf>,
    /// Write into DIR (new or empty) a picture of each step, `step-K.svg`: the board as the
    /// step leaves it, its rules' cells tinted, its deductions' cells outlined.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub solver: SolverArgs,
}

#[derive(clap::Args, Debug)]
pub struct GradeCli {
    #[arg(value_parser = puzzle_parser())]
    pub puzzle: String,
    /// The puzzle file, a collection of puzzles (one-line sudokus, URLs a line), or a URL; `-`
    /// reads standard input.
    pub file: PathBuf,
    /// `text` (`NUMBER LEVEL (steps…)`) or `json` (one object a puzzle: `grade`, `level`,
    /// `steps`, `ways`).
    #[arg(long, value_parser = ["text", "json"], default_value = "text")]
    pub format: String,
    /// Seconds each puzzle may take; past it, no grade.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    #[command(flatten)]
    pub solver: SolverArgs,
}

#[derive(clap::Args, Debug)]
pub struct GenerateCli {
    #[arg(value_parser = generator_parser())]
    pub puzzle: String,
    /// Board size, rows x columns, or one number for a square board (without it: 9x9 for
    /// sudoku; tatamibari needs it).
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    pub size: Option<(usize, usize)>,
    /// Seed of the random choices: the same seed gives the same puzzle. Without it a seed is
    /// picked at random and printed (stderr; the `seed` field in JSON).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Reshape until the solution is unique (checked with the solver); every sudoku is made
    /// unique, with it or without.
    #[arg(long)]
    pub unique: bool,
    /// Sparser clues: merge neighbouring rectangles until the puzzle has about C cells per
    /// clue (about 3.5 without it; with --unique only merges that keep it unique, so it may
    /// stop short, and says so).
    #[arg(long, value_name = "C", value_parser = parse_cells_per_clue)]
    pub cells_per_clue: Option<f64>,
    /// A puzzle at this level of `grade` (for the puzzles `explain` explains): the first of
    /// the tries that reaches it, or the nearest found (said on stderr).
    #[arg(long, value_name = "LEVEL", value_parser = ["easy", "medium", "hard", "expert", "extreme"])]
    pub grade: Option<String>,
    /// With --grade: how many puzzles to make and grade at most (default 100).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), requires = "grade")]
    pub tries: Option<u32>,
    /// Give up after this many seconds (exit 3; with --grade, the nearest puzzle found so
    /// far). Plain Tatamibari generation is instant and takes none.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// `text` (the puzzle file), `json` (one object with the puzzle file's text), `url` (a
    /// puzz.link URL) or `svg` (a picture of the puzzle).
    #[arg(long, value_parser = ["text", "json", "url", "svg"], default_value = "text")]
    pub format: String,
    /// Print each round of --unique's reshaping to stderr (by default only once it passes a second).
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,
    /// Print no progress to stderr.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub solver: SolverArgs,
}

#[derive(clap::Args, Debug)]
pub struct RunCli {
    /// Puzzle files and folders (walked recursively).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Take every puzzle file for this puzzle (otherwise: its header line `puzzle-sat: NAME`,
    /// its extension, or the folder it is in).
    #[arg(long, value_parser = puzzle_parser())]
    pub puzzle: Option<String>,
    /// `table` (default) or `json`: one object per puzzle, one per line.
    #[arg(long, value_parser = ["table", "json"], default_value = "table")]
    pub format: String,
    /// Per puzzle: stop its search after this many seconds (a timeout fails the row).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Puzzles solved at once (default: one per core).
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Compare the stable summary (no times) with FILE, or write FILE when it does not exist.
    #[arg(long, value_name = "FILE")]
    pub snapshot: Option<PathBuf>,
    /// With --snapshot: rewrite FILE instead of comparing.
    #[arg(long, requires = "snapshot")]
    pub update_snapshot: bool,
    /// Run only shard K of N (every N-th puzzle from the K-th) and print its rows for
    /// `--merge`, one JSON object a line. Inside a Slurm array task `run` takes its shard
    /// from the task's variables by itself.
    #[arg(long, value_name = "K/N", value_parser = crate::shard::parse, conflicts_with_all = ["snapshot", "merge"])]
    pub shard: Option<(usize, usize)>,
    /// The PATHs are the outputs of `run --shard` (every shard of one run): print what one run
    /// over everything prints (table or JSON, summary, --snapshot compared).
    #[arg(long)]
    pub merge: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub solver: SolverArgs,
}

#[derive(clap::Args, Debug)]
pub struct RunFileCli {
    #[arg(value_parser = puzzle_parser())]
    pub puzzle: String,
    pub file: PathBuf,
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// How long a portfolio's later members wait before joining the race (`run::share`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub stagger: Option<Duration>,
    #[command(flatten)]
    pub solver: SolverArgs,
}

impl SolverArgs {
    /// The flags as given but `--threads`, to pass on to a child process.
    pub fn flags(&self) -> Vec<String> {
        // `run` passes each child the threads it gave it (`run::share`).
        match &self.solver_cmd {
            Some(cmd) => vec!["--solver-cmd".into(), cmd.clone()],
            None => vec!["--solver".into(), self.solver.clone()],
        }
    }
}

/// `RxC`, or one number for a square board (`9`: 9×9).
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = match s.split_once(['x', 'X', '×']) {
        Some(rc) => rc,
        None if s.trim().parse::<usize>().is_ok() => (s, s),
        None => return Err(format!("{s:?} is not a size like 10x12 (or 9 for 9x9)")),
    };
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| (1..=2000).contains(&n))
    };
    match (num(r), num(c)) {
        (Some(r), Some(c)) => Ok((r, c)),
        _ => Err(format!(
            "{s:?}: rows and columns must be whole numbers from 1 to 2000"
        )),
    }
}

/// A number of bytes, with an optional unit `K`, `M`, `G`, `T` (powers of 1024; `iB` or `B`
/// after it allowed), at least 16 MiB: less than any checker starts in.
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((at, 'K' | 'k')) => (&t[..at], 10),
        Some((at, 'M' | 'm')) => (&t[..at], 20),
        Some((at, 'G' | 'g')) => (&t[..at], 30),
        Some((at, 'T' | 't')) => (&t[..at], 40),
        _ => (t, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a size like 8G or 512M"))?;
    let bytes = n
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{s:?} is too large"))?;
    if bytes < 16 << 20 {
        return Err(format!(
            "{s:?} is less than 16M, less than any checker needs"
        ));
    }
    Ok(bytes)
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err(format!(
            "the time limit must be a positive number of seconds, not {s}"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
}

/// Seconds, zero allowed.
fn parse_wait(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(format!("{s} is not a number of seconds from 0 up"));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
}

fn parse_cells_per_clue(s: &str) -> Result<f64, String> {
    let c: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of cells per clue"))?;
    if !(1.0..=10_000.0).contains(&c) {
        return Err(format!(
            "cells per clue must be between 1 and 10000, not {s}"
        ));
    }
    Ok(c)
}

pub fn main() -> i32 {
    // `solve URL` (and check, encode, decode): the puzzle's name is read from the URL.
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let takes_puzzle = args.get(1).is_some_and(|c| {
        ["solve", "check", "encode", "decode"]
            .iter()
            .any(|n| c == n)
    });
    if takes_puzzle {
        let url = args
            .get(2)
            .and_then(|a| a.to_str())
            .filter(|a| registry::find(a).is_none() && !std::path::Path::new(a).exists());
        // Anything that starts as a web address is one, however little follows.
        let url: Option<String> = url
            .and_then(|a| {
                driver::pasted_url(a).or_else(|| {
                    Some(a.trim()).filter(|t| t.starts_with("http://") || t.starts_with("https://"))
                })
            })
            .map(str::to_string);
        // A URL alone in a file, or on standard input (which is read here, once: the URL then
        // stands in for `-`), names its puzzle too.
        let arg = args.get(2).and_then(|a| a.to_str()).map(str::to_string);
        let stored = match (&url, arg) {
            (None, Some(arg)) if registry::find(&arg).is_none() => match stored_url(&arg) {
                Some(Some(u)) if arg == "-" => {
                    args[2] = (&u).into();
                    Some(u)
                }
                Some(None) if arg == "-" => {
                    eprintln!(
                        "puzzle-sat: error: <stdin>: no puzz.link URL alone on standard input, \
                         so no puzzle named: name it (`puzzle-sat solve PUZZLE -`)"
                    );
                    return exit::ERROR;
                }
                found => found.flatten(),
            },
            _ => None,
        };
        // A collection whose puzzles all say what they are (URLs of one kind, puzzlekit's
        // JSON) names its puzzle too.
        let collected = match (&url, &stored) {
            (None, None) => args
                .get(2)
                .and_then(|a| a.to_str())
                .filter(|a| registry::find(a).is_none())
                .and_then(collection_puzzle),
            _ => None,
        };
        match collected {
            Some(Ok(name)) => args.insert(2, name.into()),
            Some(Err(e)) => {
                eprintln!("puzzle-sat: error: {e}");
                return exit::ERROR;
            }
            None => {}
        }
        match url.or(stored).as_deref().map(puzzle_of_url) {
            Some(Ok(name)) => args.insert(2, name.into()),
            // The URL's own message, not clap's about a puzzle name.
            Some(Err(e)) => {
                eprintln!("puzzle-sat: error: {e}");
                return exit::ERROR;
            }
            None => {}
        }
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // One style for every error: ours, plain, `puzzle-sat: error: …`.
            eprint!("puzzle-sat: {}", e.render());
            return exit::ERROR;
        }
        Err(e) => {
            let _ = e.print();
            return exit::ANSWER;
        }
    };
    match run(cli) {
        // Ended by a signal meanwhile: what the command made of its children killed under it
        // (a checker "rejecting" by SIGTERM) is no answer; the exit is the signal's.
        _ if crate::cleanup::ending() => exit::ERROR,
        Ok(done) => {
            // An answer that could not be written (a full disk, a closed pipe) is not an answer.
            match crate::cleanup::write_whole(&mut std::io::stdout().lock(), done.stdout.as_bytes())
            {
                Ok(true) => done.code,
                // A signal's end began: its exit follows.
                Ok(false) => exit::ERROR,
                Err(e) => {
                    eprintln!("puzzle-sat: error: cannot write the output: {e}");
                    exit::ERROR
                }
            }
        }
        Err(e) => {
            eprintln!("puzzle-sat: error: {e:#}");
            exit::ERROR
        }
    }
}

/// The URL alone in a regular file or on standard input (`-`); `None` for anything else (a
/// named pipe is left unread: the command reads it once, later).
fn stored_url(arg: &str) -> Option<Option<String>> {
    let path = std::path::Path::new(arg);
    if arg != "-" && !path.is_file() {
        return None;
    }
    let input = crate::input::read_input(path).ok()?;
    Some(driver::url_alone(&input.text).map(str::to_string))
}

/// For a collection file, the one puzzle its puzzles all say they are, or why there is none
/// (`None` for a file that is no collection).
fn collection_puzzle(arg: &str) -> Option<Result<&'static str, String>> {
    let path = std::path::Path::new(arg);
    if !path.is_file() {
        return None;
    }
    let items = crate::collection::items(&crate::input::read_input(path).ok()?)?;
    let of = |i: &crate::collection::Item| {
        PUZZLES
            .iter()
            .find(|e| i.is(e.name(), e.url_kinds()) == Some(true))
            .map(|e| e.name())
    };
    let named: Vec<Option<&'static str>> = items.iter().map(of).collect();
    // What the items say of themselves where no puzzle reads them ("akari"), for the message.
    let mut unread: Vec<String> = items
        .iter()
        .zip(&named)
        .filter(|(_, n)| n.is_none())
        .map(|(i, _)| i.says.clone().unwrap_or_else(|| "unknown".to_string()))
        .collect();
    let mut kinds = named;
    kinds.sort_unstable();
    kinds.dedup();
    unread.sort_unstable();
    unread.dedup();
    Some(match (&kinds[..], &unread[..]) {
        ([Some(one)], _) => Ok(one),
        ([None], [what]) if what != "unknown" => {
            let names: Vec<&str> = PUZZLES.iter().map(|e| e.name()).collect();
            Err(format!(
                "{arg}: its {} puzzles say they are {what}, which puzzle-sat does not read (it \
                 reads {})",
                items.len(),
                names.join(", ")
            ))
        }
        _ => Err(format!(
            "{arg}: its {} puzzles do not all say they are one puzzle ({}): name the puzzle \
             (`puzzle-sat solve PUZZLE {arg}`), or use `puzzle-sat run {arg}`",
            items.len(),
            kinds
                .iter()
                .flatten()
                .map(|k| k.to_string())
                .chain(unread.iter().cloned())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    })
}

/// The puzzle a URL holds, by its kind (the first in the registry that reads it), for a
/// command given a URL without the puzzle's name.
fn puzzle_of_url(url: &str) -> Result<&'static str, String> {
    if url.contains("://") && !url.contains('?') {
        return Err(format!("{url}: not a puzz.link URL, which holds its puzzle after '?' (as in https://puzz.link/p?tatamibari/10/10/…)"));
    }
    let kind = encodings::format::url::split(url)
        .map_err(|e| format!("{url}:{e}"))?
        .kind;
    match PUZZLES.iter().find(|e| e.url_kinds().contains(&kind)) {
        Some(e) => Ok(e.name()),
        None => {
            let mut known: Vec<&str> = PUZZLES
                .iter()
                .flat_map(|e| e.url_kinds().iter().copied())
                .collect();
            known.sort_unstable();
            known.dedup();
            Err(format!(
                "{url}: no puzzle of puzzle-sat reads puzz.link's {kind:?} (it reads {})",
                known.join(", ")
            ))
        }
    }
}

/// The registry row of a puzzle clap admitted, with the flags given refused unless the row
/// lists them: before anything is read or solved, naming the puzzles that take the flag.
fn entry(name: &str, given: &[(bool, Flag, &str)]) -> Result<&'static registry::Row> {
    let row = registry::find(name).expect("clap admits registered names only");
    for &(on, flag, option) in given {
        if on && !row.flags().contains(&flag) {
            let what = match flag {
                Flag::Lenient => "puzzles whose rule breaks can be scored",
                Flag::MinScore => "scoring puzzles",
                Flag::Hints => "puzzles with hints",
            };
            bail!(
                "{option} means nothing for {name}: it is only for {what} ({})",
                registry::with_flag(flag).join(", ")
            );
        }
    }
    Ok(row)
}

pub fn run(cli: Cli) -> Result<Done> {
    match cli.command {
        Command::Solve(a) => entry(
            &a.puzzle,
            &[
                (a.lenient, Flag::Lenient, "--lenient"),
                (a.hints, Flag::Hints, "--hints"),
            ],
        )?
        .solve(&driver::SolveArgs {
            file: a.file.clone(),
            format: a.format,
            time_limit: a.time_limit,
            progress: progress(a.quiet, a.progress),
            count: a.count,
            unique: a.unique,
            lenient: a.lenient,
            // With cubes, --threads is how many threads refute them.
            backend: match a.cubes {
                Some(_) => SolverArgs {
                    threads: None,
                    ..a.solver.clone()
                }
                .backend()?,
                None => a.solver.backend()?,
            },
            certify: a.certify.clone(),
            veripb: a.veripb,
            hints: a.hints,
            cubes: a.cubes.map(|n| crate::runner::Cubes {
                n: n as usize,
                after: a.cubes_after,
                // One solver per thread, each as large as the formula: no more than the cores.
                threads: a
                    .solver
                    .threads
                    .map_or_else(crate::run::cores, usize::from)
                    .min(crate::run::cores()),
            }),
        }),
        Command::Encode(a) => entry(
            &a.puzzle,
            &[
                (a.lenient, Flag::Lenient, "--lenient"),
                (a.min_score.is_some(), Flag::MinScore, "--min-score"),
            ],
        )?
        .encode(&driver::EncodeArgs {
            file: a.file,
            output: a.output,
            min_score: a.min_score,
            lenient: a.lenient,
            format: a.format,
            cubes: a.cubes.map(|n| n as usize),
        }),
        Command::Decode(a) => entry(
            &a.puzzle,
            &[
                (a.lenient, Flag::Lenient, "--lenient"),
                (a.min_score.is_some(), Flag::MinScore, "--min-score"),
            ],
        )?
        .decode(&driver::DecodeArgs {
            file: a.file,
            model: a.model.unwrap_or_default(),
            cubes: a.cubes,
            min_score: a.min_score,
            format: a.format,
            lenient: a.lenient,
        }),
        Command::Check(a) => entry(&a.puzzle, &[(a.lenient, Flag::Lenient, "--lenient")])?.check(
            &driver::CheckArgs {
                file: a.file.clone(),
                answer: a.answer.clone(),
                format: match a.format.as_str() {
                    "json" => Format::Json,
                    "svg" => Format::Svg,
                    _ => Format::Text,
                },
                certify: a.certify.clone(),
                veripb: a.veripb,
                lenient: a.lenient,
                backend: a.solver.backend()?,
            },
        ),
        Command::Grade(a) => {
            let row = entry(&a.puzzle, &[])?;
            if !row.explains() {
                bail!(
                    "grade is not for {} puzzles yet (it is for {})",
                    a.puzzle,
                    registry::explained().join(", ")
                );
            }
            row.grade(&crate::explain::ExplainArgs {
                file: a.file.clone(),
                format: match a.format.as_str() {
                    "json" => Format::Json,
                    _ => Format::Text,
                },
                steps: None,
                time_limit: a.time_limit,
                backend: a.solver.backend()?,
                certify: None,
                svg: None,
            })
        }
        Command::Explain(a) => {
            let row = entry(&a.puzzle, &[])?;
            if !row.explains() {
                bail!(
                    "explain is not for {} puzzles yet (it is for {})",
                    a.puzzle,
                    registry::explained().join(", ")
                );
            }
            row.explain(&crate::explain::ExplainArgs {
                file: a.file.clone(),
                format: match a.format.as_str() {
                    "json" => Format::Json,
                    _ => Format::Text,
                },
                steps: if a.next { Some(1) } else { a.steps },
                time_limit: a.time_limit,
                backend: a.solver.backend()?,
                certify: a.certify.clone(),
                svg: a.svg.clone(),
            })
        }
        Command::Generate(a) => {
            let row = entry(&a.puzzle, &[])?;
            let generator = row.generator.expect("clap admits generating puzzles only");
            if a.grade.is_some() && !row.explains() {
                bail!(
                    "generate --grade is not for {} puzzles yet (it is for {}, which explain explains)",
                    a.puzzle,
                    registry::graded_generators().join(", ")
                );
            }
            // Plain generation that checks nothing with a solver is instant.
            if a.time_limit.is_some() && !(a.unique || a.grade.is_some() || generator.unique()) {
                bail!(
                    "--time-limit means something for {} only with --unique or --grade",
                    a.puzzle
                );
            }
            let Some((rows, cols)) = a.size.or(generator.size()) else {
                bail!("generate {} needs --size RxC", a.puzzle);
            };
            generator.generate(&driver::GenerateArgs {
                rows,
                cols,
                seed: a.seed.unwrap_or_else(|| {
                    let seed = random_seed();
                    if !a.quiet {
                        eprintln!(
                            "puzzle-sat: seed {seed} (the same --seed makes the same puzzle again)"
                        );
                    }
                    seed
                }),
                unique: a.unique,
                grade: a.grade.as_deref().and_then(Level::by_name),
                tries: a.tries.map_or(DEFAULT_TRIES, |t| t as usize),
                cells_per_clue: a.cells_per_clue,
                time_limit: a.time_limit,
                json: a.format == "json",
                url: a.format == "url",
                svg: a.format == "svg",
                progress: progress(a.quiet, a.progress),
                backend: a.solver.backend()?,
            })
        }
        Command::Run(a) => crate::run::run(&crate::run::RunArgs {
            backend: a.solver.backend()?,
            solver_flags: a.solver.flags(),
            paths: a.paths,
            puzzle: a.puzzle,
            json: a.format == "json",
            time_limit: a.time_limit,
            jobs: a.jobs.map(usize::from),
            threads: a.solver.threads.map(usize::from),
            shard: a.shard,
            merge: a.merge,
            snapshot: a.snapshot,
            update_snapshot: a.update_snapshot,
            quiet: a.quiet,
        }),
        Command::RunFile(a) => crate::run::run_file(
            &a.puzzle,
            &a.file,
            a.solver.backend()?,
            a.time_limit,
            a.stagger,
        ),
        Command::Verify(a) => {
            let claim = crate::certify::read_claim(&a.dir, &a.checker)?;
            // A missing checker is a missing tool, not a failed certificate (as for `rate`).
            if std::fs::symlink_metadata(a.dir.join("proof.pbp")).is_ok()
                && std::process::Command::new("veripb")
                    .arg("--version")
                    .output()
                    .is_err()
            {
                bail!("the VeriPB checker veripb is not installed (install it: cargo install --locked veripb --version 3.0.2)");
            }
            let path = a.dir.join("claim.json");
            let name = claim["puzzle"]
                .as_str()
                .ok_or_else(|| anyhow!("{}: no puzzle named", path.display()))?;
            let row = registry::find(name)
                .ok_or_else(|| anyhow!("{}: no puzzle called {name}", path.display()))?;
            let limits = crate::drat::Limits {
                memory: a.memory,
                deadline: a
                    .time_limit
                    .and_then(|t| std::time::Instant::now().checked_add(t)),
            };
            let verified = if claim["claim"] == crate::certify::explained::CLAIM {
                row.verify_explanation(&a.dir, &claim, &a.checker, limits)
            } else {
                row.verify(&a.dir, &claim, &a.checker, limits)
            };
            Ok(match verified {
                Ok(what) => Done {
                    stdout: format!("VERIFIED: {what}\n"),
                    code: exit::ANSWER,
                },
                Err(why) => Done {
                    stdout: format!("NOT VERIFIED: {why}\n"),
                    code: exit::NO_SOLUTION,
                },
            })
        }
        Command::Serve(a) => {
            crate::serve::serve(a.port, a.dir.as_deref(), a.connections)?;
            Ok(Done {
                stdout: String::new(),
                code: exit::ANSWER,
            })
        }
        Command::Solvers => {
            let mut out = String::new();
            for (name, about) in BUILT_IN {
                out += &format!("{name:<10} {about}\n");
            }
            if Backend::by_name("cadical").is_none() {
                out += "(the embedded CaDiCaL is not in this build, made with --no-default-features: `cargo build --release` has it)\n";
            }
            out += "--solver-cmd \"CMD ARGS\"  any external solver reading DIMACS (SAT-competition output or MiniSat's result file)\n";
            Ok(Done {
                stdout: out,
                code: exit::ANSWER,
            })
        }
    }
}

/// `generate --grade`'s tries without `--tries`.
const DEFAULT_TRIES: usize = 100;

/// A seed for `generate` when none is given: from the operating system's randomness (as std's
/// hash maps seed themselves), kept to nine digits so that it is easy to type back.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
        % 1_000_000_000
}
