//! The puzzle-to-CNF compiler of puzzle-sat: a CNF builder, reusable cardinality and sum
//! encodings, and one module per puzzle (parse → encode → decode → check → render).
//!
//! Nothing here knows a concrete SAT solver: encoders write clauses into a [`cnf::ClauseSink`],
//! and the same code feeds every solver backend, the DIMACS writer and a size counter. Each
//! puzzle implements [`puzzle::Puzzle`], the contract with the generic driver; the searches
//! ([`search`], and each puzzle's own) are written against the [`solver::Solver`] trait.

pub mod amo;
pub mod capability;
pub mod certify;
pub mod cnf;
pub mod error;
pub mod genre;
pub mod genres;
pub mod kakkuro;
pub mod kakuro;
pub mod objective;
pub mod parts;
pub mod propagate;
pub mod puzzle;
pub mod rects;
pub mod search;
pub mod shikaku;
pub mod solver;
pub mod sudoku;
pub mod sum;
pub mod svg;
pub mod target_sudoku;
pub mod tatamibari;
pub mod url;
pub mod verdict;
pub mod veripb;

#[cfg(test)]
mod testing;
