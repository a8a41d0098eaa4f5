//! The command line: `solve`, `encode` and `decode`, per puzzle.

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
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// NOIP 2009 / Luogu P1074: maximise the ring-weighted score.
    TargetSudoku,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The drawn answer, its score and whether it is proved optimal.
    Text,
    /// One line, the maximum score or -1, as P1074's judge expects (target-sudoku only).
    Judge,
    /// One JSON object.
    Json,
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
}

#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    pub puzzle: Puzzle,
    /// The puzzle file the CNF was made from.
    pub file: PathBuf,
    /// The solver's output: `s`/`v` lines, or MiniSat's result file.
    #[arg(long, value_name = "FILE")]
    pub model: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
                Puzzle::TargetSudoku => crate::target_sudoku::solve(&input, a.format, &opts),
            }
        }
        Command::Encode(a) => {
            let input = read_input(&a.file)?;
            let dimacs = match a.puzzle {
                Puzzle::TargetSudoku => crate::target_sudoku::encode(&input, a.min_score.as_deref())?,
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
            let input = read_input(&a.file)?;
            let model = read_input(&a.model)?;
            if a.format == Format::Judge {
                bail!("--format judge is for solve only");
            }
            match a.puzzle {
                Puzzle::TargetSudoku => crate::target_sudoku::decode(&input, &model, a.format),
            }
        }
    }
}
