//! What the driver sees of a genre: its [`Puzzle`] core and every capability of
//! [`crate::capability`], answering "not for this genre" for those its row in
//! [`crate::genres`] does not name. Nobody implements [`Genre`] by hand: the row does, with
//! [`declare`].

use crate::cnf::{ClauseSink, Lit};
use crate::error::ParseError;
use crate::puzzle::{
    Completion, Ended, Flag, GenerateSpec, Goal, Hints, Info, Lemmas, Made, Observer, Puzzle, Task,
    VeriPb,
};
use crate::solver::{NewSolver, SolverError};
use serde_json::{Map, Value};
use std::fmt;

pub trait Genre: Puzzle {
    /// [`NoScore`] unless the genre has [`crate::capability::Scoring`].
    type Score: Ord + Clone + fmt::Display + Send + 'static;
    const TASK: Task = Task::Enumerate;
    const URL_KINDS: &'static [&'static str] = &[];
    /// Whether it has [`crate::capability::Backbone`] (`--hints`).
    const HINTS: bool = false;
    /// Whether it has [`crate::capability::Generate`].
    const GENERATES: bool = false;
    const PARTS: &'static str = "";
    const COMPLETION: Option<Completion<Self>> = None;
    const LEMMAS: Option<Lemmas<Self>> = None;
    const VERIPB: Option<VeriPb<Self>> = None;

    /// The flags it takes, besides those every genre takes.
    fn flags() -> Vec<Flag> {
        let mut flags = Vec::new();
        if Self::INFO.lenient {
            flags.push(Flag::Lenient);
        }
        if Self::TASK == Task::Maximize {
            flags.push(Flag::MinScore);
        }
        if Self::HINTS {
            flags.push(Flag::Hints);
        }
        flags
    }

    fn score(checked: &Self::Checked) -> Self::Score;

    fn score_value(_score: &Self::Score) -> Option<f64> {
        None
    }

    /// By default the rules are encoded into a counter, which stores nothing.
    fn estimate(inst: &Self::Instance, _limit: u64) -> u64 {
        let mut count = crate::cnf::SizeCounter::default();
        Self::encode(inst, &mut count);
        count.literals
    }

    /// By default the generic search its [`Task`] names, on one solver holding the rules.
    fn search(
        inst: &Self::Instance,
        goal: Goal,
        solvers: &dyn NewSolver,
        out: &mut dyn Observer<Self>,
    ) -> Result<Ended, SolverError> {
        crate::search::by_task::<Self>(inst, goal, solvers, out)
    }

    /// The bare puzzle by default.
    fn svg_broken(inst: &Self::Instance, _text: &str, caption: &str) -> String {
        Self::svg(inst, &[], caption)
    }

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

    fn instance_json(_inst: &Self::Instance) -> Map<String, Value> {
        Map::new()
    }

    fn dimacs_comments(_inst: &Self::Instance, name: &str) -> Vec<String> {
        plain_comments(&Self::INFO, name)
    }

    fn min_score<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
        _bound: &str,
    ) -> Result<Vec<String>, String> {
        Err(format!("{} has no score", Self::INFO.name))
    }

    fn objective<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
    ) -> Result<crate::objective::Objective, String> {
        Err(format!("{} has no score", Self::INFO.name))
    }

    fn plain_encode<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding {
        Self::encode(inst, sink)
    }

    fn derived_units(_inst: &Self::Instance, _enc: &Self::Encoding) -> Vec<Lit> {
        Vec::new()
    }

    fn better_than<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
        _score: &Self::Score,
        _lemmas: &[Value],
    ) -> Result<(), String> {
        Err(format!("{} has no score", Self::INFO.name))
    }

    fn reaches(_checked: &Self::Checked, _bound: &str) -> Option<bool> {
        None
    }

    fn hints(
        _inst: &Self::Instance,
        _found: &(Self::Answer, Self::Checked),
        _solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Self::Answer>>, SolverError> {
        Err(SolverError(format!(
            "--hints is not for {}",
            Self::INFO.name
        )))
    }

    fn from_url(link: &crate::url::Link) -> Result<String, ParseError> {
        Err(ParseError::new(
            1,
            1,
            format!(
                "{} puzzles have no puzz.link URL form (this one is {:?})",
                Self::INFO.name,
                link.kind
            ),
        ))
    }

    fn to_url(_inst: &Self::Instance) -> Result<String, String> {
        Err(format!(
            "{} puzzles have no puzz.link URL form",
            Self::INFO.name
        ))
    }

    fn generate(
        _spec: &GenerateSpec,
        _solvers: &dyn NewSolver,
        _note: &mut dyn FnMut(String),
    ) -> Result<Option<Made<Self::Answer>>, String> {
        Err(format!("{} has no generator", Self::INFO.name))
    }

    fn difficulty(_inst: &Self::Instance) -> Option<(usize, usize)> {
        None
    }
}

/// The DIMACS file's first comments: the genre and file, and what the variables mean.
pub fn plain_comments(info: &Info, name: &str) -> Vec<String> {
    let mut lines = vec![format!("puzzle-sat {} {name}", info.name)];
    if !info.variables.is_empty() {
        lines.push(format!("variables: {}", info.variables));
    }
    lines
}

/// `impl Genre` for each row of [`crate::genres`]: the capabilities named forwarded, the
/// rest left to the defaults. A scoring genre names `Scoring` first.
#[macro_export]
#[doc(hidden)]
macro_rules! declare {
    ($($genre:ty: $($cap:ident)*;)*) => {
        $( $crate::declare!(@genre $genre: $($cap)*); )*
    };
    (@genre $genre:ty: Scoring $($cap:ident)*) => {
        impl $crate::genre::Genre for $genre {
            type Score = <$genre as $crate::capability::Scoring>::Score;
            $crate::declare!(@items Scoring $($cap)*);
        }
    };
    (@genre $genre:ty: $($cap:ident)*) => {
        impl $crate::genre::Genre for $genre {
            type Score = $crate::puzzle::NoScore;
            fn score(_: &Self::Checked) -> $crate::puzzle::NoScore {
                $crate::puzzle::NoScore
            }
            $crate::declare!(@items $($cap)*);
        }
    };
    (@items $($cap:ident)*) => {
        $( $crate::declare!(@item $cap); )*
    };
    (@item Scoring) => {
        const TASK: $crate::puzzle::Task = $crate::puzzle::Task::Maximize;
        const LEMMAS: Option<$crate::puzzle::Lemmas<Self>> =
            <Self as $crate::capability::Scoring>::LEMMAS;
        fn score(checked: &Self::Checked) -> Self::Score {
            <Self as $crate::capability::Scoring>::score(checked)
        }
        fn score_value(score: &Self::Score) -> Option<f64> {
            <Self as $crate::capability::Scoring>::score_value(score)
        }
        fn describe_valid(
            inst: &Self::Instance,
            answer: &Self::Answer,
            checked: &Self::Checked,
            completed: bool,
        ) -> String {
            <Self as $crate::capability::Scoring>::describe_valid(inst, answer, checked, completed)
        }
        fn instance_json(inst: &Self::Instance) -> serde_json::Map<String, serde_json::Value> {
            <Self as $crate::capability::Scoring>::instance_json(inst)
        }
        fn dimacs_comments(inst: &Self::Instance, name: &str) -> Vec<String> {
            <Self as $crate::capability::Scoring>::dimacs_comments(inst, name)
        }
        fn min_score<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            sink: &mut S,
            bound: &str,
        ) -> Result<Vec<String>, String> {
            <Self as $crate::capability::Scoring>::min_score(inst, enc, sink, bound)
        }
        fn objective<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            sink: &mut S,
        ) -> Result<$crate::objective::Objective, String> {
            <Self as $crate::capability::Scoring>::objective(inst, enc, sink)
        }
        fn better_than<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            sink: &mut S,
            score: &Self::Score,
            lemmas: &[serde_json::Value],
        ) -> Result<(), String> {
            <Self as $crate::capability::Scoring>::better_than(inst, enc, sink, score, lemmas)
        }
        fn reaches(checked: &Self::Checked, bound: &str) -> Option<bool> {
            <Self as $crate::capability::Scoring>::reaches(checked, bound)
        }
    };
    (@item Urls) => {
        const URL_KINDS: &'static [&'static str] = <Self as $crate::capability::Urls>::KINDS;
        fn from_url(link: &$crate::url::Link) -> Result<String, $crate::error::ParseError> {
            <Self as $crate::capability::Urls>::from_url(link)
        }
        fn to_url(inst: &Self::Instance) -> Result<String, String> {
            <Self as $crate::capability::Urls>::to_url(inst)
        }
    };
    (@item Backbone) => {
        const HINTS: bool = true;
        fn hints(
            inst: &Self::Instance,
            found: &(Self::Answer, Self::Checked),
            solvers: &dyn $crate::solver::NewSolver,
        ) -> Result<Option<$crate::puzzle::Hints<Self::Answer>>, $crate::solver::SolverError> {
            <Self as $crate::capability::Backbone>::hints(inst, found, solvers)
        }
    };
    (@item Complete) => {
        const COMPLETION: Option<$crate::puzzle::Completion<Self>> =
            Some(<Self as $crate::capability::Complete>::COMPLETION);
    };
    (@item PbProofs) => {
        const VERIPB: Option<$crate::puzzle::VeriPb<Self>> =
            Some(<Self as $crate::capability::PbProofs>::VERIPB);
    };
    (@item Searches) => {
        fn search(
            inst: &Self::Instance,
            goal: $crate::puzzle::Goal,
            solvers: &dyn $crate::solver::NewSolver,
            out: &mut dyn $crate::puzzle::Observer<Self>,
        ) -> Result<$crate::puzzle::Ended, $crate::solver::SolverError> {
            <Self as $crate::capability::Searches>::search(inst, goal, solvers, out)
        }
    };
    (@item Prunes) => {
        fn plain_encode<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            sink: &mut S,
        ) -> Self::Encoding {
            <Self as $crate::capability::Prunes>::plain_encode(inst, sink)
        }
        fn derived_units(inst: &Self::Instance, enc: &Self::Encoding) -> Vec<$crate::cnf::Lit> {
            <Self as $crate::capability::Prunes>::derived_units(inst, enc)
        }
    };
    (@item Marks) => {
        fn svg_broken(inst: &Self::Instance, text: &str, caption: &str) -> String {
            <Self as $crate::capability::Marks>::svg_broken(inst, text, caption)
        }
    };
    (@item Estimate) => {
        fn estimate(inst: &Self::Instance, limit: u64) -> u64 {
            <Self as $crate::capability::Estimate>::estimate(inst, limit)
        }
    };
    (@item Generate) => {
        const GENERATES: bool = true;
        const PARTS: &'static str = <Self as $crate::capability::Generate>::PARTS;
        fn generate(
            spec: &$crate::puzzle::GenerateSpec,
            solvers: &dyn $crate::solver::NewSolver,
            note: &mut dyn FnMut(String),
        ) -> Result<Option<$crate::puzzle::Made<Self::Answer>>, String> {
            <Self as $crate::capability::Generate>::generate(spec, solvers, note)
        }
        fn difficulty(inst: &Self::Instance) -> Option<(usize, usize)> {
            <Self as $crate::capability::Generate>::difficulty(inst)
        }
    };
}
