//! What the optimisation loop needs from a scoring puzzle: encode it, decode a model, score an
//! answer exactly, and demand a strictly better answer. The loop itself (solver, threads, time
//! limit) lives in the driver; this contract keeps the compiler free of any solver.

use crate::cnf::{ClauseSink, Model};
use std::fmt;

/// The result of asking for a better answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tighten {
    /// Clauses were added that exclude every answer not strictly better than the best.
    Added,
    /// No better score is possible at all (the bound is past the encoding's range): the best
    /// answer is optimal without another solver call.
    Exhausted,
}

/// A puzzle whose answers have an exactly comparable score to maximise.
pub trait Maximize {
    type Answer: Clone + Send + 'static;
    /// Compared exactly (integers or exact fractions, never floating point).
    type Score: Ord + Clone + fmt::Display + Send + 'static;
    /// Whatever decode and tighten need to find again: variables, sum outputs.
    type Encoding;

    /// The rules, as clauses whose models are exactly the valid answers.
    fn encode<S: ClauseSink>(&self, sink: &mut S) -> Self::Encoding;

    fn decode(&self, enc: &Self::Encoding, model: &Model) -> Self::Answer;

    /// The exact score, computed from the answer by the definition, not from the encoding.
    fn score(&self, answer: &Self::Answer) -> Self::Score;

    /// Adds clauses excluding `last` and every answer scoring at most `best`. Sound
    /// over-approximations are allowed (they may let some not-better answers through, which the
    /// loop re-scores and excludes on the next call) as long as no better answer is ever cut.
    fn require_better<S: ClauseSink>(
        &self,
        enc: &mut Self::Encoding,
        sink: &mut S,
        best: &Self::Score,
        last: &Self::Answer,
    ) -> Tighten;
}

/// A puzzle whose answers are enumerated (solve, count, prove uniqueness).
pub trait Enumerate {
    type Answer: Clone + Send + 'static;
    type Encoding;

    /// The rules, as clauses whose models are exactly the valid answers.
    fn encode<S: ClauseSink>(&self, sink: &mut S) -> Self::Encoding;

    fn decode(&self, enc: &Self::Encoding, model: &Model) -> Self::Answer;

    /// Adds clauses excluding exactly this answer.
    fn block<S: ClauseSink>(&self, enc: &Self::Encoding, sink: &mut S, answer: &Self::Answer);
}
