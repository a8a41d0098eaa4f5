//! The puzzle-to-CNF compiler of puzzle-sat, free of any concrete SAT solver.
//!
//! - [`puzzle`]: the core trait every genre implements ([`puzzle::Puzzle`]) and the types the
//!   driver and the genres share; [`capability`]: the traits only some genres implement;
//!   [`genre`]: the view of both that the driver uses.
//! - [`genres`]: the one list of genres, and a folder per genre (plus `rects`, what the
//!   rectangle-division genres share).
//! - [`cnf`]: building CNF ([`cnf::ClauseSink`]) and the encodings made of it: at-most-one,
//!   sums, objectives, unit propagation.
//! - [`solver`]: what a search needs of a SAT solver ([`solver::Solver`]); [`search`]: the
//!   searches, written against it, and a solver that splits a formula into independent parts;
//!   [`team`]: what the members of a race share while they compute one backbone.
//! - [`certificate`]: what a claim states, its formula, and its VeriPB proofs.
//! - [`explain`]: step-by-step explanations over named rule instances; [`graded`]: generating
//!   a puzzle at a level of them.
//! - [`format`]: what is read and written: parse errors, puzz.link URLs, SVG, verdict words.

pub mod capability;
pub mod certificate;
pub mod cnf;
pub mod conquer;
pub mod explain;
pub mod explained;
pub mod format;
pub mod genre;
pub mod genres;
pub mod graded;
pub mod puzzle;
pub mod rng;
pub mod search;
pub mod solver;
pub mod team;
