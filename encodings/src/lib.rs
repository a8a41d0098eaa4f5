//! The puzzle-to-CNF compiler of puzzle-sat: a CNF builder, reusable cardinality and sum
//! encodings, and one module per puzzle (parse → encode → decode → check → render).
//!
//! Nothing here knows about a SAT solver: encoders write clauses into a [`cnf::ClauseSink`],
//! and the same code feeds the embedded solver, the DIMACS writer and a size counter.

pub mod amo;
pub mod cnf;
pub mod error;
pub mod puzzle;
pub mod search;
pub mod solver;
pub mod sum;
pub mod target_sudoku;
pub mod kakkuro;
pub mod tatamibari;

#[cfg(test)]
mod testing;
