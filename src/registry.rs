//! Every puzzle the binary knows: one line each. The driver is generic; this table is where a
//! puzzle type becomes a command-line name.

use crate::driver::{self, CheckArgs, DecodeArgs, EncodeArgs, GenerateArgs, SolveArgs};
use crate::output::Done;
use anyhow::Result;
use encodings::kakkuro::Kakkuro;
use encodings::puzzle::Puzzle;
use encodings::target_sudoku::TargetSudoku;
use encodings::tatamibari::Tatamibari;
use std::marker::PhantomData;

pub static PUZZLES: &[&dyn Entry] = &[&Of::<TargetSudoku>(PhantomData), &Of::<Tatamibari>(PhantomData), &Of::<Kakkuro>(PhantomData)];

pub fn find(name: &str) -> Option<&'static dyn Entry> {
    PUZZLES.iter().copied().find(|p| p.name() == name)
}

/// A puzzle with its type erased: the commands, run by the generic driver.
pub trait Entry: Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    /// Whether `generate` makes puzzles of this kind.
    fn generates(&self) -> bool;
    /// The formats it prints besides `json` (for `--help`).
    fn formats(&self) -> &'static [encodings::puzzle::Format];
    /// File extensions that mark this puzzle's files for `run`, besides its name.
    fn extensions(&self) -> &'static [&'static str];
    /// One `run` row: solve `file` and compare it with its expected answer.
    fn run_file(&self, file: &std::path::Path, opts: &crate::runner::Options) -> serde_json::Map<String, serde_json::Value>;
    /// `verify`: a certificate's checks, with its parsed claim.
    fn verify(&self, dir: &std::path::Path, claim: &serde_json::Value, checker: &str) -> Result<String, String>;
    fn solve(&self, args: &SolveArgs) -> Result<Done>;
    fn encode(&self, args: &EncodeArgs) -> Result<Done>;
    fn decode(&self, args: &DecodeArgs) -> Result<Done>;
    fn check(&self, args: &CheckArgs) -> Result<Done>;
    fn generate(&self, args: &GenerateArgs) -> Result<Done>;
}

pub struct Of<P>(PhantomData<fn() -> P>);

impl<P: Puzzle> Entry for Of<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }

    fn about(&self) -> &'static str {
        P::ABOUT
    }

    fn generates(&self) -> bool {
        P::GENERATES
    }

    fn formats(&self) -> &'static [encodings::puzzle::Format] {
        P::FORMATS
    }

    fn extensions(&self) -> &'static [&'static str] {
        P::EXTENSIONS
    }

    fn run_file(&self, file: &std::path::Path, opts: &crate::runner::Options) -> serde_json::Map<String, serde_json::Value> {
        crate::run::file_row::<P>(file, opts)
    }

    fn verify(&self, dir: &std::path::Path, claim: &serde_json::Value, checker: &str) -> Result<String, String> {
        crate::certify::verify_claim::<P>(dir, claim, checker)
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

    fn generate(&self, args: &GenerateArgs) -> Result<Done> {
        driver::generate::<P>(args)
    }
}
