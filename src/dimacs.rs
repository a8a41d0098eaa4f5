//! DIMACS CNF out (for external solvers, with the variable map in comments) and solver
//! models back in (the SAT competition's `s`/`v` lines, or MiniSat's result file).

use encodings::cnf::{Cnf, Lit};
use encodings::format::error::ParseError;
use num_bigint::BigInt;

pub use encodings::cnf::{dimacs_text as to_string, write_dimacs as write};

/// What an external solver said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolverAnswer {
    Sat(Vec<Lit>),
    Unsat,
    Unknown,
}

/// What a MaxSAT or pseudo-Boolean solver says beyond a SAT solver's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolverOutput {
    pub answer: SolverAnswer,
    /// `s OPTIMUM FOUND`: the solver says no model has a better objective value.
    pub optimum: bool,
    /// The last `o` line's value, with its line number.
    pub cost: Option<(usize, BigInt)>,
    /// A model given as a string of 0s and 1s: its line and length, which must be the
    /// formula's number of variables.
    pub bits: Option<(usize, u32)>,
}

impl SolverOutput {
    /// Whether this is the output of a solver that was given an objective (`o` lines, or
    /// `s OPTIMUM FOUND`): the formula is then `encode --format opb|wcnf`'s.
    pub fn has_objective(&self) -> bool {
        self.optimum || self.cost.is_some()
    }
}

/// Reads a solver's output: `s SATISFIABLE` with `v` lines (SAT competition), `SAT` followed
/// by a line of literals (MiniSat's result file), or bare literal lines. Comments (`c`) are
/// skipped; the literal list ends at 0.
pub fn read_model(text: &str) -> Result<SolverAnswer, ParseError> {
    read_output(text).map(|o| o.answer)
}

/// Reads a solver's output as [`read_model`] does, and also a MaxSAT or PB solver's:
/// `s OPTIMUM FOUND`, `o` lines (the last one counts), `v` lines of `x`-named literals
/// (`x3 -x4`, `~x4`: the PB competition's) or one string of `0`s and `1`s (the MaxSAT
/// Evaluation's since 2020: variable `i`'s value is the `i`-th digit).
pub fn read_output(text: &str) -> Result<SolverOutput, ParseError> {
    let mut status: Option<(usize, String)> = None;
    let mut cost: Option<(usize, BigInt)> = None;
    let mut lits = Vec::new();
    let mut first_lit_line = 0;
    let mut ended = false;
    let mut bits = 0u32;
    // A lone run of digits 0/1 on a `v` line is an assignment string only from a solver that
    // had an objective; from any other it is one literal.
    let objective = text.lines().any(|l| {
        let t = l.trim();
        t.strip_prefix("s ").map(str::trim) == Some("OPTIMUM FOUND")
            || t.strip_prefix('o')
                .is_some_and(|r| r.starts_with(char::is_whitespace))
    });
    // Each variable one value: two models one after the other (PB `v` lines end in no 0) are
    // no answer.
    let mut seen: std::collections::HashMap<u32, (usize, bool)> = std::collections::HashMap::new();
    let mut once = |l: Lit, line: usize, col: usize| -> Result<(), ParseError> {
        match seen.insert(l.var(), (line, l.is_positive())) {
            Some((first, value)) if value != l.is_positive() => Err(ParseError::new(
                line,
                col,
                format!(
                    "variable {} both true and false (also on line {first})",
                    l.var()
                ),
            )),
            _ => Ok(()),
        }
    };
    let mut bit_string = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('c') {
            continue;
        }
        let said = if let Some(rest) = trimmed.strip_prefix("s ") {
            Some(rest.trim())
        } else if matches!(
            trimmed,
            "SAT" | "UNSAT" | "INDET" | "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN"
        ) {
            Some(trimmed)
        } else {
            None
        };
        if let Some(said) = said {
            // Two verdicts (two runs' outputs concatenated?) are not one answer.
            if let Some((first, _)) = &status {
                return Err(ParseError::new(
                    i + 1,
                    1,
                    format!("a second solver status (the first is on line {first})"),
                ));
            }
            status = Some((i + 1, said.to_string()));
            continue;
        }
        if let Some(rest) = trimmed
            .strip_prefix('o')
            .filter(|r| r.starts_with(char::is_whitespace))
        {
            let col = line[..line.len() - rest.trim_start().len()].chars().count() + 1;
            let value = rest.trim();
            // Parsing a big integer costs the square of its length: no objective has 1000 digits.
            let number = value.len() <= 1000
                && value
                    .trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit());
            let value: BigInt = number
                .then(|| value.parse().ok())
                .flatten()
                .ok_or_else(|| {
                    ParseError::new(
                        i + 1,
                        col,
                        format!("expected an objective value, found {}", shown(value)),
                    )
                })?;
            cost = Some((i + 1, value));
            continue;
        }
        let body = if let Some(rest) = trimmed.strip_prefix('v') {
            rest
        } else {
            trimmed
        };
        let offset = line.len() - body.len();
        let string = body.trim();
        if objective
            && trimmed.starts_with('v')
            && string.len() >= 2
            && !string.contains(char::is_whitespace)
            && string.bytes().all(|b| b == b'0' || b == b'1')
        {
            let col = line[..line.len() - body.trim_start().len()].chars().count() + 1;
            if ended {
                return Err(ParseError::new(
                    i + 1,
                    col,
                    "an assignment string after the terminating 0",
                ));
            }
            if first_lit_line == 0 {
                first_lit_line = i + 1;
            }
            for b in string.bytes() {
                bits += 1;
                let var = Lit::positive(bits);
                let l = if b == b'1' { var } else { !var };
                once(l, i + 1, col)?;
                lits.push(l);
            }
            bit_string = Some((bit_string.map_or(i + 1, |(first, _)| first), bits));
            continue;
        }
        // Columns are counted as the tokens go (counting from the line's start each time
        // would cost the square of the line's length).
        let (mut pos, mut col) = (0, line[..offset].chars().count() + 1);
        for tok in body.split_whitespace() {
            let at = body[pos..].find(tok).unwrap() + pos;
            col += body[pos..at].chars().count();
            pos = at + tok.len();
            let n = literal(tok).ok_or_else(|| {
                ParseError::new(
                    i + 1,
                    col,
                    format!("expected a literal, found {}", shown(tok)),
                )
            })?;
            if ended {
                return Err(ParseError::new(
                    i + 1,
                    col,
                    "literal after the terminating 0",
                ));
            }
            if first_lit_line == 0 {
                first_lit_line = i + 1;
            }
            match Lit::from_dimacs(n) {
                Some(l) => {
                    once(l, i + 1, col)?;
                    lits.push(l);
                }
                None => ended = true,
            }
            col += tok.chars().count();
        }
    }
    let status = status.map(|(_, s)| s);
    // A refutation or a shrug that comes with a model contradicts itself: believe neither.
    if matches!(
        status.as_deref(),
        Some("UNSATISFIABLE" | "UNSAT" | "UNKNOWN" | "INDET")
    ) && first_lit_line > 0
    {
        let s = status.as_deref().unwrap_or_default();
        return Err(ParseError::new(
            first_lit_line,
            1,
            format!("the solver said {s} but gives literals here"),
        ));
    }
    if let (Some(s @ ("UNSATISFIABLE" | "UNSAT" | "UNKNOWN" | "INDET")), Some((at, _))) =
        (status.as_deref(), &cost)
    {
        return Err(ParseError::new(
            *at,
            1,
            format!("the solver said {s} but gives an objective value here"),
        ));
    }
    let optimum = status.as_deref() == Some("OPTIMUM FOUND");
    let answer = match status.as_deref() {
        Some("UNSATISFIABLE" | "UNSAT") => SolverAnswer::Unsat,
        Some("UNKNOWN" | "INDET") => SolverAnswer::Unknown,
        Some("SATISFIABLE" | "SAT" | "OPTIMUM FOUND") | None if !lits.is_empty() => {
            SolverAnswer::Sat(lits)
        }
        // A formula without variables has the empty model: `v 0`, or MiniSat's ` 0`.
        Some("SATISFIABLE" | "SAT" | "OPTIMUM FOUND") if ended => SolverAnswer::Sat(lits),
        Some(s @ ("SATISFIABLE" | "SAT" | "OPTIMUM FOUND")) => {
            return Err(ParseError::new(
                1,
                1,
                format!("solver said {s} but gave no model"),
            ))
        }
        None => return Err(ParseError::new(1, 1, "no solver status and no model")),
        Some(other) => {
            return Err(ParseError::new(
                1,
                1,
                format!("unknown solver status {other:?}"),
            ))
        }
    };
    Ok(SolverOutput {
        answer,
        optimum,
        cost,
        bits: bit_string,
    })
}

/// A token as an error message quotes it: at most 40 characters.
fn shown(tok: &str) -> String {
    match tok.char_indices().nth(40) {
        Some((at, _)) => format!("{:?}…", &tok[..at]),
        None => format!("{tok:?}"),
    }
}

/// A literal as solvers print them: DIMACS (`-3`, `0` ending the list) or `x`-named (`x3`,
/// `-x3`, `~x3`); `None` for anything else.
fn literal(tok: &str) -> Option<i32> {
    let named = |s: &str| {
        s.strip_prefix('x')
            .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<i32>().ok())
            .filter(|&v| v > 0)
    };
    if let Some(v) = tok
        .strip_prefix('-')
        .or_else(|| tok.strip_prefix('~'))
        .and_then(named)
    {
        return Some(-v);
    }
    named(tok).or_else(|| tok.parse().ok())
}

/// An external solver's model of `cnf`, checked against every clause; `None` when the solver
/// said UNSAT. `name` names the model file in messages.
pub fn external_model(
    cnf: &Cnf,
    text: &str,
    name: &str,
) -> anyhow::Result<Option<encodings::cnf::Model>> {
    model_of(
        cnf,
        read_model(text).map_err(|e| anyhow::anyhow!("{name}:{e}"))?,
        name,
    )
}

/// The model a solver's answer gives `cnf`, checked against every clause; `None` for UNSAT.
pub fn model_of(
    cnf: &Cnf,
    answer: SolverAnswer,
    name: &str,
) -> anyhow::Result<Option<encodings::cnf::Model>> {
    use anyhow::bail;
    let lits = match answer {
        SolverAnswer::Sat(lits) => lits,
        SolverAnswer::Unsat => return Ok(None),
        SolverAnswer::Unknown => bail!("{name}: the solver gave no answer (UNKNOWN)"),
    };
    if let Some(l) = lits.iter().find(|l| l.var() > cnf.num_vars) {
        bail!(
            "{name}: literal {} is beyond the CNF's {} variables: decode needs the puzzle file and the flags (--min-score, --lenient) the CNF was encoded with (and, for an OPB or WCNF file's model, the solver's `o` or `s OPTIMUM FOUND` lines)",
            l.dimacs(),
            cnf.num_vars
        );
    }
    let model = encodings::cnf::Model::from_lits(cnf.num_vars, lits);
    if let Some(c) = cnf
        .clauses
        .iter()
        .find(|c| !c.iter().any(|&l| model.value(l)))
    {
        let shown: Vec<String> = c.iter().map(|l| l.dimacs().to_string()).collect();
        bail!("{name}: the model violates the clause [{}]: was the CNF encoded from another puzzle file or with other flags (--min-score, --lenient)?", shown.join(" "));
    }
    Ok(Some(model))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(ns: &[i32]) -> Vec<Lit> {
        ns.iter().map(|&n| Lit::from_dimacs(n).unwrap()).collect()
    }

    #[test]
    fn reads_the_common_output_forms() {
        let competition = "c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(
            read_model(competition).unwrap(),
            SolverAnswer::Sat(lits(&[1, -2, 3]))
        );
        assert_eq!(
            read_model("SAT\n-1 2 0\n").unwrap(),
            SolverAnswer::Sat(lits(&[-1, 2]))
        );
        assert_eq!(
            read_model("s UNSATISFIABLE\n").unwrap(),
            SolverAnswer::Unsat
        );
        assert_eq!(read_model("UNSAT\n").unwrap(), SolverAnswer::Unsat);
        assert_eq!(read_model("s UNKNOWN\n").unwrap(), SolverAnswer::Unknown);
        assert_eq!(
            read_model("s SATISFIABLE\nv 0\n").unwrap(),
            SolverAnswer::Sat(vec![])
        );
        assert_eq!(read_model("SAT\n 0\n").unwrap(), SolverAnswer::Sat(vec![]));
        assert!(read_model("s SATISFIABLE\n").is_err());
        let e = read_model("s SATISFIABLE\nv 1 x 0\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 5));
        assert!(read_model("").is_err());
    }

    #[test]
    fn refuses_contradicting_verdicts() {
        let e = read_model("s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n").unwrap_err();
        assert_eq!((e.line, e.col), (3, 1));
        assert!(
            e.message
                .contains("second solver status (the first is on line 1)"),
            "{}",
            e.message
        );
        let e = read_model("c x\ns UNSATISFIABLE\nv 1 -2 0\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message.contains("said UNSATISFIABLE but gives literals"),
            "{}",
            e.message
        );
        assert!(read_model("UNSAT\n1 0\n").is_err());
    }

    #[test]
    fn writes_header_names_and_clauses() {
        use encodings::cnf::ClauseSink;
        let mut cnf = Cnf::new();
        let a = cnf.new_named_var(&|| "a".into());
        let b = cnf.new_var();
        cnf.add_clause(&[a, !b]);
        cnf.add_clause(&[]);
        let mut out = Vec::new();
        write(&mut out, &cnf, &["made by a test".into()]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "c made by a test\nc 1 a\np cnf 2 2\n1 -2 0\n0\n"
        );
    }
}
