//! The puzzle-sat driver, written once for every puzzle: the command line, the registry of
//! puzzles, the generic commands, the runner with its time limit, the solver backends, DIMACS
//! in and out, and `serve` for the web page. The puzzles themselves are compiled by the
//! `encodings` crate, which knows no solver.

pub mod backends;
pub mod certify;
pub mod cleanup;
pub mod cli;
pub mod collection;
pub mod cubes;
pub mod dimacs;
pub mod drat;
pub mod driver;
pub mod explain;
pub mod formula;
pub mod input;
pub mod output;
pub mod process;
pub mod registry;
pub mod row;
pub mod run;
pub mod runner;
pub mod serve;
pub mod shard;
