//! The puzzle-sat driver: the command line, the embedded varisat solver, the optimisation loop
//! with its time limit, DIMACS in and out. The puzzles themselves are compiled by the
//! `encodings` crate, which knows no solver.

pub mod backends;
pub mod cli;
pub mod dimacs;
pub mod enumerate;
pub mod input;
pub mod json;
pub mod kakkuro;
pub mod optimize;
pub mod solver;
pub mod target_sudoku;
pub mod tatamibari;
pub mod worker;
