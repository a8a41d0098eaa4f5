//! The command line: `solve`, `encode`, `decode`, `check` and `generate`, per puzzle.

use crate::input::read_input;
use crate::optimize::{Options, Progress};
use anyhow::{bail, Result};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(name = "puzzle-sat", version, about = "Compiles logic puzzles to SAT, solves them, and proves optimal scores")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a puzzle; for scoring puzzles, find the best answer and prove it optimal.
    Solve(SolveArgs),
    /// Write the puzzle as DIMACS CNF for an external SAT solver.
    Encode(EncodeArgs),
    /// Read an external solver's model of `encode`'s CNF back into an answer.
    Decode(DecodeArgs),
    /// Check an answer against the rules with the independent validator.
    Check(CheckArgs),
    /// Make a random puzzle (tatamibari).
    Generate(GenerateArgs),
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// NOIP 2009 / Luogu P1074: maximise the ring-weighted score.
    TargetSudoku,
    /// Nikoli's rectangle puzzle: solve, count solutions, prove uniqueness.
    Tatamibari,
    /// Turkzeka 2010's Kakuro variant: find the best-scoring answer and prove it optimal.
    Kakkuro,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The drawn answer, its score and whether it is proved optimal.
    Text,
    /// One line, the maximum score or -1, as P1074's judge expects (target-sudoku only).
    Judge,
    /// One JSON object.
    Json,
    /// The solution drawn with box-drawing lines (tatamibari only).
    Box,
    /// One line `row col height width` per rectangle, 0-based (tatamibari only).
    Rects,
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    pub puzzle: Puzzle,
    /// The puzzle file; `-` reads standard input.
    pub file: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Text)]
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
    /// Count solutions, stopping at MAX (tatamibari).
    #[arg(long, value_name = "MAX", num_args = 0..=1, default_missing_value = "1000", conflicts_with = "unique")]
    pub count: Option<u64>,
    /// Say whether the solution is unique; if not, show two (tatamibari).
    #[arg(long)]
    pub unique: bool,
    /// Kakkuro: score repeats as errors (spec section 4) instead of forbidding them.
    #[arg(long)]
    pub lenient: bool,
}

#[derive(clap::Args, Debug)]
pub struct EncodeArgs {
    pub puzzle: Puzzle,
    /// The puzzle file; `-` reads standard input.
    pub file: PathBuf,
    /// Write the CNF here instead of standard output.
    #[arg(short, long, value_name = "OUT.cnf")]
    pub output: Option<PathBuf>,
    /// Keep only answers scoring at least S.
    #[arg(long, value_name = "S")]
    pub min_score: Option<String>,
    /// Kakkuro: score repeats as errors (spec section 4) instead of forbidding them.
    #[arg(long)]
    pub lenient: bool,
}

#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    pub puzzle: Puzzle,
    /// The puzzle file the CNF was made from.
    pub file: PathBuf,
    /// The solver's output: `s`/`v` lines, or MiniSat's result file.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    /// Kakkuro: the --min-score the CNF was encoded with (its bound adds variables).
    #[arg(long, value_name = "S")]
    pub min_score: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Kakkuro: score repeats as errors (spec section 4) instead of forbidding them.
    #[arg(long)]
    pub lenient: bool,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    pub puzzle: Puzzle,
    /// The puzzle file.
    pub file: PathBuf,
    /// The answer: a completed grid (target-sudoku), a label grid (tatamibari), rows with
    /// sides or a contest string `SCORE:v1,…` (kakkuro).
    #[arg(long, value_name = "FILE")]
    pub answer: PathBuf,
    /// Kakkuro: score repeats as errors (spec section 4) instead of forbidding them.
    #[arg(long)]
    pub lenient: bool,
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    pub puzzle: Puzzle,
    /// Board size, rows x columns.
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Seed of the random choices: the same seed gives the same puzzle.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Reshape until the solution is unique (checked with the solver).
    #[arg(long)]
    pub unique: bool,
    /// With --unique: give up after this many seconds (exit 3).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s.split_once(['x', 'X', '×']).ok_or_else(|| format!("{s:?} is not a size like 10x12"))?;
    let num = |t: &str| t.trim().parse::<usize>().ok().filter(|&n| (1..=2000).contains(&n));
    match (num(r), num(c)) {
        (Some(r), Some(c)) => Ok((r, c)),
        _ => Err(format!("{s:?}: rows and columns must be whole numbers from 1 to 2000")),
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err(format!("the time limit must be a positive number of seconds, not {s}"));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| e.to_string())
}

/// What a command printed and the exit status it chose.
pub struct Done {
    pub stdout: String,
    pub code: i32,
}

impl Done {
    /// `decode`'s answer when the external solver refuted the CNF.
    pub fn refuted(puzzle: &str, format: Format) -> Done {
        let stdout = match format {
            Format::Json => {
                crate::json::object(&[("puzzle", crate::json::string(puzzle)), ("status", crate::json::string("no_solution"))]) + "\n"
            }
            _ => "no solution (the solver refuted the CNF)\n".to_string(),
        };
        Done { stdout, code: exit::NO_SOLUTION }
    }
}

/// Exit statuses shared by all commands.
pub mod exit {
    /// An answer was printed.
    pub const ANSWER: i32 = 0;
    /// The puzzle has no solution (proved).
    pub const NO_SOLUTION: i32 = 1;
    /// Bad usage or bad input.
    pub const ERROR: i32 = 2;
    /// The time limit passed with no answer at all.
    pub const TIME_LIMIT: i32 = 3;
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { exit::ERROR } else { exit::ANSWER };
        }
    };
    match run(cli) {
        Ok(done) => {
            // A closed stdout (e.g. `| head`) is not worth a panic.
            let _ = std::io::stdout().lock().write_all(done.stdout.as_bytes());
            done.code
        }
        Err(e) => {
            eprintln!("puzzle-sat: error: {e:#}");
            exit::ERROR
        }
    }
}

pub fn run(cli: Cli) -> Result<Done> {
    match cli.command {
        Command::Solve(a) => {
            let input = read_input(&a.file)?;
            let progress = if a.quiet {
                Progress::Never
            } else if a.progress {
                Progress::Always
            } else {
                Progress::Auto
            };
            let opts = Options { time_limit: a.time_limit, progress };
            match a.puzzle {
                Puzzle::TargetSudoku => {
                    if matches!(a.format, Format::Box | Format::Rects) {
                        bail!("--format {} is for tatamibari", if a.format == Format::Box { "box" } else { "rects" });
                    }
                    if a.count.is_some() || a.unique {
                        bail!("--count and --unique are for tatamibari; target-sudoku finds the best completion");
                    }
                    crate::target_sudoku::solve(&input, a.format, &opts)
                }
                Puzzle::Tatamibari => {
                    if a.format == Format::Judge {
                        bail!("--format judge is for target-sudoku");
                    }
                    let mode = match (a.count, a.unique) {
                        (Some(0), _) => bail!("--count needs a limit of at least 1"),
                        (Some(max), _) => crate::tatamibari::Mode::Count(max),
                        (None, true) => crate::tatamibari::Mode::Unique,
                        (None, false) => crate::tatamibari::Mode::First,
                    };
                    crate::tatamibari::solve(&input, mode, a.format, &opts)
                }
                Puzzle::Kakkuro => {
                    if a.count.is_some() || a.unique {
                        bail!("--count and --unique are for tatamibari; kakkuro finds the best answer");
                    }
                    crate::kakkuro::solve(&input, a.lenient, a.format, &opts)
                }
            }
        }
        Command::Encode(a) => {
            let input = read_input(&a.file)?;
            let dimacs = match a.puzzle {
                Puzzle::TargetSudoku => crate::target_sudoku::encode(&input, a.min_score.as_deref())?,
                Puzzle::Tatamibari => {
                    if a.min_score.is_some() {
                        bail!("--min-score is for scoring puzzles; tatamibari has no score");
                    }
                    crate::tatamibari::encode(&input)?
                }
                Puzzle::Kakkuro => crate::kakkuro::encode(&input, a.lenient, a.min_score.as_deref())?,
            };
            match a.output {
                Some(path) => {
                    std::fs::write(&path, dimacs).map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
                    Ok(Done { stdout: String::new(), code: exit::ANSWER })
                }
                None => Ok(Done { stdout: dimacs, code: exit::ANSWER }),
            }
        }
        Command::Decode(a) => {
            if a.min_score.is_some() && a.puzzle != Puzzle::Kakkuro {
                bail!("decode --min-score is for kakkuro (the other puzzles' bounds add no variables)");
            }
            let input = read_input(&a.file)?;
            let model = read_input(&a.model)?;
            match a.puzzle {
                Puzzle::TargetSudoku => {
                    if !matches!(a.format, Format::Text | Format::Json) {
                        bail!("decode target-sudoku prints text or json");
                    }
                    crate::target_sudoku::decode(&input, &model, a.format)
                }
                Puzzle::Tatamibari => {
                    if a.format == Format::Judge {
                        bail!("--format judge is for target-sudoku");
                    }
                    crate::tatamibari::decode(&input, &model, a.format)
                }
                Puzzle::Kakkuro => crate::kakkuro::decode(&input, &model, a.lenient, a.min_score.as_deref(), a.format),
            }
        }
        Command::Check(a) => {
            let input = read_input(&a.file)?;
            let answer = read_input(&a.answer)?;
            match a.puzzle {
                Puzzle::TargetSudoku => crate::target_sudoku::check(&input, &answer),
                Puzzle::Tatamibari => crate::tatamibari::check(&input, &answer),
                Puzzle::Kakkuro => crate::kakkuro::check(&input, &answer, a.lenient),
            }
        }
        Command::Generate(a) => match a.puzzle {
            Puzzle::Tatamibari => crate::tatamibari::generate(a.size, a.seed, a.unique, a.time_limit),
            Puzzle::TargetSudoku | Puzzle::Kakkuro => bail!("generate makes tatamibari puzzles only"),
        },
    }
}
