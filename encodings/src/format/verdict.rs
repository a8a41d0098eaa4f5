//! The words of a verdict, shared by the command line and the web page: the statuses of a run,
//! how far the UNSAT answers behind them are trusted, and the lines they print. One vocabulary,
//! so that the page never says more than the CLI would about the same run.

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

/// What the CLI calls a run ended early: its deadline.
pub const TIME_LIMIT: &str = "time limit";

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
        self.verdict_by(trust, TIME_LIMIT)
    }

    /// [`Status::verdict`] for a run that `stop` ended early (the page's Stop button says
    /// `stopped`, where the CLI's deadline says `time limit`).
    pub fn verdict_by(self, trust: Trust, stop: &str) -> String {
        match self {
            Status::Optimal => format!("optimal ({})", trust.note().unwrap_or("proved")),
            Status::NoSolution => trust.claim("no solution"),
            Status::BestFound => format!("best found ({stop}: not proved optimal)"),
            Status::Unknown => format!("no answer found ({stop})"),
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

/// How far the UNSAT answers behind a verdict are checked. Every claim that rests on UNSAT
/// ("optimal", "unique", "no solution", an exact count, a proved bound, hints) is worded by
/// the backend's `Trust`: this is the one rule, not a case per command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    /// An embedded solver's: part of puzzle-sat, trusted as its encoders are.
    Embedded,
    /// An external command's, each with a DRAT proof that `rate` accepted (`{proof}`).
    Checked,
    /// An external solver's word, unchecked (`--solver-cmd` without `{proof}`, a solver
    /// output file given to `decode`).
    Unchecked,
}

impl Trust {
    /// The `unsat_answers` field of JSON output.
    pub fn json_name(self) -> &'static str {
        match self {
            Trust::Embedded => "embedded",
            Trust::Checked => "drat_checked",
            Trust::Unchecked => "unchecked",
        }
    }

    /// What a claim resting on UNSAT must add; `None` when it is proved.
    pub fn note(self) -> Option<&'static str> {
        (self == Trust::Unchecked).then_some("per the external solver; unchecked")
    }

    /// `claim`, with the note when it has one.
    pub fn claim(self, claim: &str) -> String {
        match self.note() {
            Some(note) => format!("{claim} ({note})"),
            None => claim.to_string(),
        }
    }
}

/// What `--hints` found: `decided` of the `of` parts (`unit`) are the same in every solution,
/// or with `score` every optimal answer (of that score). Worded as `trust` allows.
pub fn hints(decided: usize, of: usize, unit: &str, score: Option<&str>, trust: Trust) -> String {
    let what = match score {
        Some(score) => {
            format!("{decided} of {of} {unit} are the same in every optimal answer (score {score})")
        }
        None => format!("{decided} of {of} {unit} are the same in every solution"),
    };
    trust.claim(&what)
}

/// `check`'s line when an answer claims a score other than its exact one.
pub fn wrong_claim(claimed: &str, score: &str) -> String {
    // A hostile answer's claim may be megabytes long: its start, and how long it is.
    let claimed = match claimed.char_indices().nth(40) {
        Some((cut, _)) => format!(
            "{}… ({} characters)",
            &claimed[..cut],
            claimed.chars().count()
        ),
        None => claimed.to_string(),
    };
    format!("wrong claim: the answer claims {claimed}, the exact score is {score}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_claim_is_shown_short() {
        assert_eq!(
            super::wrong_claim("999", "103488"),
            "wrong claim: the answer claims 999, the exact score is 103488"
        );
        let long = super::wrong_claim(&"9".repeat(1_000_000), "103488");
        assert_eq!(long, format!("wrong claim: the answer claims {}… (1000000 characters), the exact score is 103488", "9".repeat(40)));
    }
}

/// What an enumeration was asked for: `--count N`, `--unique`, or a plain solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    One,
    Unique,
    Count(u64),
}

/// What `--count` or `--unique` found, that nothing was, or a plain solve's `solved`, after
/// `count` answers, the search `complete` or ended early by `stopped` ([`TIME_LIMIT`]). A claim
/// that rests on UNSAT is worded as `trust` allows.
pub fn enumeration(
    ask: Ask,
    count: u64,
    complete: bool,
    stopped: Option<&str>,
    trust: Trust,
) -> String {
    if count == 0 {
        return match stopped {
            Some(stop) => format!("no solution found ({stop})"),
            None => Status::NoSolution.verdict(trust),
        };
    }
    match ask {
        Ask::Count(max) => {
            let plural = if count == 1 { "solution" } else { "solutions" };
            if complete {
                trust.claim(&format!("{count} {plural}"))
            } else if let Some(stop) = stopped {
                format!("at least {count} {plural} ({stop})")
            } else {
                format!(
                    "more than {max} solution{} (stopped at {count})",
                    if max == 1 { "" } else { "s" }
                )
            }
        }
        Ask::Unique => match (count, complete, stopped) {
            (1, true, _) => trust.claim("unique"),
            (1, false, stop) => format!(
                "one solution found; uniqueness unknown ({})",
                stop.unwrap_or(TIME_LIMIT)
            ),
            _ => "not unique: two different solutions".to_string(),
        },
        Ask::One => Status::Solved.text().to_string(),
    }
}
