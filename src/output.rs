//! What every command hands back: the text it printed, its exit status, and the one
//! vocabulary of status words shared by all commands and puzzles.

use crate::backends::Trust;

/// What a command printed and the exit status it chose.
pub struct Done {
    pub stdout: String,
    pub code: i32,
}

/// Exit statuses shared by all commands.
pub mod exit {
    /// An answer was printed.
    pub const ANSWER: i32 = 0;
    /// The puzzle has no solution (proved); for `check`, the answer breaks a rule.
    pub const NO_SOLUTION: i32 = 1;
    /// Bad usage or bad input, or a solver that failed.
    pub const ERROR: i32 = 2;
    /// The time limit passed with no answer at all.
    pub const TIME_LIMIT: i32 = 3;
}

/// The verdict of a run: the `status` of `--format json`, for every puzzle and command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The best answer, proved optimal: the solver refuted every better score.
    Optimal,
    /// An answer, not proved optimal (the time limit stopped the proof).
    BestFound,
    /// A valid answer of a puzzle without a score, or one read back by `decode`.
    Solved,
    /// The puzzle has no valid answer (proved).
    NoSolution,
    /// No answer scores `--min-score` or more (`decode` of a refuted bounded CNF): there
    /// may be answers below it.
    NoneAtMinScore,
    /// The time limit passed before any answer was found.
    Unknown,
}

impl Status {
    pub fn json_name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::BestFound => "best_found",
            Status::Solved => "solved",
            Status::NoSolution => "no_solution",
            Status::NoneAtMinScore => "none_at_min_score",
            Status::Unknown => "unknown",
        }
    }

    /// The verdict line of text output, for a search whose UNSAT answers are as trusted as
    /// `trust` says: a claim resting on them carries its note.
    pub fn verdict(self, trust: Trust) -> String {
        match self {
            Status::Optimal => format!("optimal ({})", trust.note().unwrap_or("proved")),
            Status::NoSolution => trust.claim("no solution"),
            _ => self.text().to_string(),
        }
    }

    /// The verdict line of text output, the claims resting on UNSAT as proved ones.
    pub fn text(self) -> &'static str {
        match self {
            Status::Optimal => "optimal (proved)",
            Status::BestFound => "best found (time limit: not proved optimal)",
            Status::Solved => "solved",
            Status::NoSolution => "no solution",
            Status::NoneAtMinScore => "no answer scores --min-score or more",
            Status::Unknown => "no answer found (time limit)",
        }
    }

    pub fn exit_code(self) -> i32 {
        match self {
            Status::Optimal | Status::BestFound | Status::Solved => exit::ANSWER,
            Status::NoSolution | Status::NoneAtMinScore => exit::NO_SOLUTION,
            Status::Unknown => exit::TIME_LIMIT,
        }
    }
}
