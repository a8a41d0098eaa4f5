//! SAT solver backends behind the `encodings::solver::Solver` trait.

pub mod varisat;
