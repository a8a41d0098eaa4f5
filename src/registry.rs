//! Every puzzle the binary knows: one line each. The driver is generic; this table is where a
//! puzzle type becomes a command-line name.

use crate::driver::{self, CheckArgs, DecodeArgs, EncodeArgs, GenerateArgs, SolveArgs};
use crate::output::Done;
use anyhow::Result;
use encodings::genre::Genre;
use std::marker::PhantomData;

/// One row per genre of [`encodings::genres!`], in its order.
macro_rules! rows {
    ($($genre:ty: $($cap:ident)*;)*) => {
        pub static PUZZLES: &[Row] = &[$(Row::of::<$genre>(),)*];
    };
}

encodings::genres!(rows);

pub fn find(name: &str) -> Option<&'static Row> {
    PUZZLES.iter().find(|p| p.name() == name)
}

/// One genre: the commands every genre has ([`Entry`], which the row derefs to), and
/// `generate` where its row in [`encodings::genres!`] names it.
#[derive(Clone, Copy)]
pub struct Row {
    pub puzzle: &'static dyn Entry,
    /// `generate` ([`encodings::capability::Generate`]).
    pub generator: Option<&'static dyn Generator>,
}

impl Row {
    pub const fn of<P: Genre>() -> Row {
        Row {
            puzzle: Of::<P>::ENTRY,
            generator: if P::GENERATES {
                Some(Of::<P>::GENERATOR)
            } else {
                None
            },
        }
    }
}

impl std::ops::Deref for Row {
    type Target = dyn Entry;

    fn deref(&self) -> &(dyn Entry + 'static) {
        self.puzzle
    }
}

/// `generate` for a genre whose row names it.
pub trait Generator: Sync {
    fn generate(&self, args: &GenerateArgs) -> Result<Done>;
    /// The board's rows and columns without `--size`; `None`: it must be given.
    fn size(&self) -> Option<(usize, usize)>;
    /// Whether every puzzle it makes is unique, `--unique` or not.
    fn unique(&self) -> bool;
}

/// The puzzles that take `flag`, for help and refusals.
pub fn with_flag(flag: encodings::puzzle::Flag) -> Vec<&'static str> {
    PUZZLES
        .iter()
        .filter(|e| e.flags().contains(&flag))
        .map(|e| e.name())
        .collect()
}

/// The puzzles `explain` explains.
pub fn explained() -> Vec<&'static str> {
    PUZZLES
        .iter()
        .filter(|e| e.explains())
        .map(|e| e.name())
        .collect()
}

/// The puzzles `generate --grade` makes: those it makes and `explain` explains.
pub fn graded_generators() -> Vec<&'static str> {
    PUZZLES
        .iter()
        .filter(|e| e.generator.is_some() && e.explains())
        .map(|e| e.name())
        .collect()
}

/// The puzzles `generate` makes.
pub fn generators() -> Vec<&'static str> {
    PUZZLES
        .iter()
        .filter(|e| e.generator.is_some())
        .map(|e| e.name())
        .collect()
}

/// A puzzle with its type erased: the commands, run by the generic driver.
pub trait Entry: Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    /// The formats it prints besides `json` (for `--help`).
    fn formats(&self) -> Vec<encodings::puzzle::Format>;
    /// File extensions that mark this puzzle's files for `run`, besides its name.
    fn extensions(&self) -> &'static [&'static str];
    fn flags(&self) -> Vec<encodings::puzzle::Flag>;
    /// The pzprjs names of the URLs it reads.
    fn url_kinds(&self) -> &'static [&'static str];
    /// One `run` row: solve `file` and compare it with its expected answer.
    fn run_file(
        &self,
        file: &std::path::Path,
        opts: &crate::runner::Options,
    ) -> serde_json::Map<String, serde_json::Value>;
    /// `verify`: a certificate's checks, with its parsed claim.
    fn verify(
        &self,
        dir: &std::path::Path,
        claim: &serde_json::Value,
        checker: &str,
        limits: crate::drat::Limits,
    ) -> Result<String, String>;
    fn verify_explanation(
        &self,
        dir: &std::path::Path,
        claim: &serde_json::Value,
        checker: &str,
        limits: crate::drat::Limits,
    ) -> Result<String, String>;
    fn solve(&self, args: &SolveArgs) -> Result<Done>;
    fn encode(&self, args: &EncodeArgs) -> Result<Done>;
    fn decode(&self, args: &DecodeArgs) -> Result<Done>;
    fn check(&self, args: &CheckArgs) -> Result<Done>;
    fn explain(&self, args: &crate::explain::ExplainArgs) -> Result<Done>;
    fn grade(&self, args: &crate::explain::ExplainArgs) -> Result<Done>;
    /// Whether it has `explain`.
    fn explains(&self) -> bool;
    /// What the type system does not hold a puzzle to: its example solves, its answer's JSON
    /// has the fields it declares, certificates' format is one it prints, its URL reads back.
    #[cfg(test)]
    fn self_check(&self) -> Result<(), String>;
}

pub struct Of<P>(PhantomData<fn() -> P>);

impl<P: Genre> Of<P> {
    const ENTRY: &'static dyn Entry = &Of::<P>(PhantomData);
}

impl<P: Genre> Of<P> {
    const GENERATOR: &'static dyn Generator = &Of::<P>(PhantomData);
}

impl<P: Genre> Generator for Of<P> {
    fn generate(&self, args: &GenerateArgs) -> Result<Done> {
        driver::generate::<P>(args, crate::explain::regrade::<P>)
    }

    fn size(&self) -> Option<(usize, usize)> {
        P::GENERATE_SIZE
    }

    fn unique(&self) -> bool {
        P::GENERATES_UNIQUE
    }
}

impl<P: Genre> Entry for Of<P> {
    fn name(&self) -> &'static str {
        P::INFO.name
    }

    fn about(&self) -> &'static str {
        P::INFO.about
    }

    fn formats(&self) -> Vec<encodings::puzzle::Format> {
        P::formats()
    }

    fn extensions(&self) -> &'static [&'static str] {
        P::INFO.extensions
    }

    fn flags(&self) -> Vec<encodings::puzzle::Flag> {
        P::flags()
    }

    fn url_kinds(&self) -> &'static [&'static str] {
        P::URL_KINDS
    }

    fn run_file(
        &self,
        file: &std::path::Path,
        opts: &crate::runner::Options,
    ) -> serde_json::Map<String, serde_json::Value> {
        crate::row::file_row::<P>(file, opts)
    }

    fn verify(
        &self,
        dir: &std::path::Path,
        claim: &serde_json::Value,
        checker: &str,
        limits: crate::drat::Limits,
    ) -> Result<String, String> {
        crate::certify::verify_claim::<P>(dir, claim, checker, limits)
    }

    fn verify_explanation(
        &self,
        dir: &std::path::Path,
        claim: &serde_json::Value,
        checker: &str,
        limits: crate::drat::Limits,
    ) -> Result<String, String> {
        crate::certify::explained::verify::<P>(dir, claim, checker, limits)
    }

    fn solve(&self, args: &SolveArgs) -> Result<Done> {
        driver::solve::<P>(args)
    }

    fn encode(&self, args: &EncodeArgs) -> Result<Done> {
        driver::encode::<P>(args)
    }

    fn decode(&self, args: &DecodeArgs) -> Result<Done> {
        driver::decode::<P>(args)
    }

    fn check(&self, args: &CheckArgs) -> Result<Done> {
        driver::check::<P>(args)
    }

    fn explain(&self, args: &crate::explain::ExplainArgs) -> Result<Done> {
        crate::explain::explain::<P>(args)
    }

    fn explains(&self) -> bool {
        P::EXPLAINS
    }

    fn grade(&self, args: &crate::explain::ExplainArgs) -> Result<Done> {
        crate::explain::grade::<P>(args)
    }

    #[cfg(test)]
    fn self_check(&self) -> Result<(), String> {
        use encodings::puzzle::{self, Format, Goal, Settings};
        // Text and SVG come with every genre and URL with `Urls`: listed here, they would be
        // dropped or doubled without a word.
        if let Some(f) = P::INFO
            .formats
            .iter()
            .find(|f| matches!(f, Format::Text | Format::Svg | Format::Url | Format::Json))
        {
            return Err(format!(
                "Info::formats lists {f}, which it does not choose (only its own forms)"
            ));
        }
        if !P::formats().contains(&P::INFO.machine) {
            return Err(format!(
                "certificates keep answers as {}, which it does not print",
                P::INFO.machine
            ));
        }
        let file = format!("docs/examples/{}.txt", P::INFO.name);
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        let inst = P::parse(puzzle::without_header(&text).0, &Settings::default())
            .map_err(|e| format!("{file}: {e}"))?;
        let opts = crate::runner::Options {
            progress: crate::runner::Progress::Never,
            ..Default::default()
        };
        let outcome = crate::runner::search::<P>(inst.clone(), Goal::Best, 1, &opts)
            .map_err(|e| e.to_string())?;
        let (answer, checked) = outcome
            .answers
            .first()
            .ok_or(format!("{file}: no answer"))?;
        let fields: Vec<String> = P::answer_json(&inst, answer, checked)
            .keys()
            .cloned()
            .collect();
        if fields != P::INFO.answer_fields {
            return Err(format!(
                "answer_json writes {fields:?}, ANSWER_FIELDS says {:?}",
                P::INFO.answer_fields
            ));
        }
        if let Ok(url) = P::to_url(&inst) {
            let link = encodings::format::url::split(&url).map_err(|e| format!("{url}: {e}"))?;
            if !P::URL_KINDS.contains(&link.kind) {
                return Err(format!(
                    "{url}: its kind is not in URL_KINDS {:?}",
                    P::URL_KINDS
                ));
            }
            let again = P::from_url(&link)
                .and_then(|t| P::parse(&t, &Settings::default()))
                .map_err(|e| format!("{url}: {e}"))?;
            if P::to_url(&again).as_ref() != Ok(&url) {
                return Err(format!("{url} does not read back as itself"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_keeps_the_promises_the_types_do_not() {
        for e in PUZZLES {
            e.self_check()
                .unwrap_or_else(|why| panic!("{}: {why}", e.name()));
        }
        let names: Vec<&str> = PUZZLES.iter().map(|e| e.name()).collect();
        assert!(
            names
                .iter()
                .all(|n| names.iter().filter(|m| m == &n).count() == 1),
            "{names:?}"
        );
    }
}
