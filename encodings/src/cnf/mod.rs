//! Literals; the clause-sink trait every encoder writes into, with two sinks (an in-memory
//! formula for DIMACS and tests, a size counter) and a wrapper that caps a sink's literals;
//! and the model type decoders read.

pub mod amo;
pub mod connect;
pub mod cubes;
pub mod islands;
pub mod local;
pub mod objective;
pub mod propagate;
pub mod sum;
#[cfg(test)]
pub(crate) mod testing;

use std::io::{self, Write};
use std::ops::Not;

/// A literal in DIMACS numbering: `+v` or `-v` for variable `v ≥ 1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Lit(i32);

impl Lit {
    /// The positive literal of variable `var` (1-based).
    pub fn positive(var: u32) -> Lit {
        assert!(var >= 1 && var <= i32::MAX as u32, "variable out of range");
        Lit(var as i32)
    }

    /// Parses a DIMACS literal; `None` for 0.
    pub fn from_dimacs(n: i32) -> Option<Lit> {
        (n != 0).then_some(Lit(n))
    }

    pub fn dimacs(self) -> i32 {
        self.0
    }

    /// The variable, 1-based.
    pub fn var(self) -> u32 {
        self.0.unsigned_abs()
    }

    pub fn is_positive(self) -> bool {
        self.0 > 0
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(-self.0)
    }
}

/// Where encoders put their work. Variables are numbered 1, 2, … in the order asked for.
pub trait ClauseSink {
    /// A fresh variable, as its positive literal.
    fn new_var(&mut self) -> Lit;

    /// Attaches a human-readable meaning to a variable (DIMACS comments). Only sinks that keep
    /// names evaluate `name`, so callers may build strings freely.
    fn name_var(&mut self, _var: Lit, _name: &dyn Fn() -> String) {}

    fn add_clause(&mut self, lits: &[Lit]);

    /// Announces that about `literals` more literals are coming, so that a sink with a limit
    /// can refuse them before any is built: false means refused, and the caller adds nothing.
    fn reserve(&mut self, _literals: u64) -> bool {
        true
    }

    /// A fresh variable with a name.
    fn new_named_var(&mut self, name: &dyn Fn() -> String) -> Lit {
        let v = self.new_var();
        self.name_var(v, name);
        v
    }
}

/// The most literals (summed over all clauses) puzzle-sat builds into one formula: 2^26, about
/// 3 GiB inside varisat (a formula of 126 M literals took it 5.4 GiB); a 300×300 Tatamibari
/// needs 9 M. A formula past it is refused instead of taking the machine's memory.
pub const MAX_LITERALS: u64 = 1 << 26;

/// A sink that passes clauses on until they hold `limit` literals in all, then drops the rest
/// and remembers that it did: the formula is then incomplete, and its owner must refuse it
/// (see [`Limited::over`]). Variables still come from the inner sink, so numbering is kept.
pub struct Limited<S> {
    pub inner: S,
    literals: u64,
    limit: u64,
    /// The literals when it was first solved: what the search added after is its own (cuts,
    /// blocked answers), not the puzzle's.
    solved_at: Option<u64>,
}

impl<S> Limited<S> {
    pub fn new(inner: S, limit: u64) -> Limited<S> {
        Limited {
            inner,
            literals: 0,
            limit,
            solved_at: None,
        }
    }

    /// The error when clauses were dropped.
    pub fn over(&self) -> Option<String> {
        let million = self.limit / 1_000_000;
        (self.literals > self.limit).then(|| match self.solved_at {
            Some(at) if at <= self.limit => format!(
                "the clauses the search added (connectivity cuts, blocked answers) took the \
                 formula past {million} million literals, the most puzzle-sat builds: the search \
                 stopped there (the puzzle's own formula held {:.1} million)",
                at as f64 / 1e6
            ),
            _ => format!(
                "the formula passes {million} million literals, the most puzzle-sat builds: the \
                 puzzle is too large"
            ),
        })
    }

    /// Notes that the formula is being solved: clauses after this are the search's.
    pub fn solving(&mut self) {
        self.solved_at.get_or_insert(self.literals);
    }
}

impl<S: ClauseSink> ClauseSink for Limited<S> {
    fn new_var(&mut self) -> Lit {
        self.inner.new_var()
    }

    fn name_var(&mut self, var: Lit, name: &dyn Fn() -> String) {
        self.inner.name_var(var, name)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        // Past the limit the count stays above it, whatever comes after.
        self.literals = self.literals.saturating_add(lits.len().max(1) as u64);
        if self.literals <= self.limit {
            self.inner.add_clause(lits);
        }
    }

    fn reserve(&mut self, literals: u64) -> bool {
        if self.literals.saturating_add(literals) > self.limit {
            self.literals = self.literals.saturating_add(literals);
            return false;
        }
        self.inner.reserve(literals)
    }
}

/// A formula kept in memory: the DIMACS writer's input and the tests' subject.
#[derive(Default, Debug, Clone)]
pub struct Cnf {
    pub num_vars: u32,
    pub clauses: Vec<Vec<Lit>>,
    /// `(variable, meaning)` in the order the names were given.
    pub names: Vec<(u32, String)>,
}

impl Cnf {
    pub fn new() -> Cnf {
        Cnf::default()
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Lit {
        self.num_vars += 1;
        Lit::positive(self.num_vars)
    }

    fn name_var(&mut self, var: Lit, name: &dyn Fn() -> String) {
        self.names.push((var.var(), name()));
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses.push(lits.to_vec());
    }
}

/// Counts what an encoding would produce without storing it.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeCounter {
    pub vars: u32,
    pub clauses: u64,
    pub literals: u64,
}

impl ClauseSink for SizeCounter {
    fn new_var(&mut self) -> Lit {
        self.vars += 1;
        Lit::positive(self.vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.literals += lits.len() as u64;
    }
}

/// A total assignment, as a solver reports it.
#[derive(Debug, Clone)]
pub struct Model {
    /// `values[v]` is variable `v`'s value; index 0 is unused.
    values: Vec<bool>,
}

impl Model {
    /// From the literals a solver reports true or false; unmentioned variables are false.
    pub fn from_lits(num_vars: u32, lits: impl IntoIterator<Item = Lit>) -> Model {
        let mut values = vec![false; num_vars as usize + 1];
        for l in lits {
            let v = l.var() as usize;
            if v >= values.len() {
                values.resize(v + 1, false);
            }
            values[v] = l.is_positive();
        }
        Model { values }
    }

    /// How many variables it gives values to.
    pub fn num_vars(&self) -> u32 {
        (self.values.len() - 1) as u32
    }

    pub fn value(&self, lit: Lit) -> bool {
        let v = self
            .values
            .get(lit.var() as usize)
            .copied()
            .unwrap_or(false);
        v == lit.is_positive()
    }
}

/// Writes `cnf` with `comments` (one `c` line each) and a `c VAR MEANING` line per named
/// variable before the header.
pub fn write_dimacs(out: &mut impl Write, cnf: &Cnf, comments: &[String]) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for c in comments {
        writeln!(out, "c {c}")?;
    }
    for (var, name) in &cnf.names {
        writeln!(out, "c {var} {name}")?;
    }
    writeln!(out, "p cnf {} {}", cnf.num_vars, cnf.clauses.len())?;
    for clause in &cnf.clauses {
        for l in clause {
            write!(out, "{} ", l.dimacs())?;
        }
        out.write_all(b"0\n")?;
    }
    out.flush()
}

/// The DIMACS text of `cnf` (see [`write_dimacs`]).
pub fn dimacs_text(cnf: &Cnf, comments: &[String]) -> String {
    let mut out = Vec::new();
    write_dimacs(&mut out, cnf, comments).expect("writing to memory");
    String::from_utf8(out).expect("DIMACS is ASCII")
}

/// Passes clauses on, but an empty clause as the two units `t` and `¬t` on a fresh variable:
/// the same refutation, in a form stock DRAT checkers take (`rate` panics on an empty clause).
/// Writer and verifier both build through it, so the numbering agrees.
pub struct NoEmpty<S>(pub S);

impl<S: ClauseSink> ClauseSink for NoEmpty<S> {
    fn new_var(&mut self) -> Lit {
        self.0.new_var()
    }

    fn name_var(&mut self, var: Lit, name: &dyn Fn() -> String) {
        self.0.name_var(var, name)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        if lits.is_empty() {
            let t = self
                .0
                .new_named_var(&|| "false: an empty clause, as this and its negation".to_string());
            self.0.add_clause(&[t]);
            self.0.add_clause(&[!t]);
        } else {
            self.0.add_clause(lits)
        }
    }

    fn reserve(&mut self, literals: u64) -> bool {
        self.0.reserve(literals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the cap, the message says whose clauses passed it: the puzzle's own, or the
    /// search's after the first solve.
    #[test]
    fn a_capped_formula_says_who_filled_it() {
        let mut own = Limited::new(Cnf::new(), 4);
        let a = own.new_var();
        own.add_clause(&[a, a, a]);
        assert_eq!(own.over(), None);
        own.add_clause(&[a, a]);
        assert!(own.over().unwrap().ends_with("the puzzle is too large"));
        let mut searched = Limited::new(Cnf::new(), 4);
        let a = searched.new_var();
        searched.add_clause(&[a, a, a]);
        searched.solving();
        searched.add_clause(&[a, a]);
        let said = searched.over().unwrap();
        assert!(said.contains("the clauses the search added"), "{said}");
        assert_eq!(
            searched.inner.clauses.len(),
            1,
            "the clause past the cap is dropped"
        );
    }
}
