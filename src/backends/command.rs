//! The `--solver-cmd` backend: any SAT solver run as a command on a DIMACS file, answering in
//! the SAT competition's format on stdout or in MiniSat's result file.
//!
//! It is not incremental: every call writes the whole formula, with the call's assumptions as
//! unit clauses, and runs the command afresh. It gives no failed core (all the assumptions
//! stand for one). A model is checked against every clause and every assumption before it is
//! taken. An UNSAT answer is checked only when the command takes `{proof}`: its DRAT proof is
//! then checked with `rate` against the call's formula as written anew here (never the file the
//! command was given, which it could rewrite), and a rejected proof is an error. Without `{proof}` UNSAT is the solver's word, and every verdict resting on it says so
//! (see [`super::Trust`]).

use crate::dimacs::{self, SolverAnswer};
use crate::process;
use encodings::cnf::{ClauseSink, Cnf, Lit, Model};
use encodings::solver::{SolveResult, Solver, SolverError, SolverStats, Stop};
use std::ffi::OsString;
use std::fmt::Display;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;

/// Where the command string takes the formula's path (appended when it does not say).
const CNF: &str = "{cnf}";
/// Where it takes the result file's path; with it, the answer is read from that file.
const OUT: &str = "{out}";
/// Where it writes a DRAT proof of an UNSAT answer, which is then checked.
const PROOF: &str = "{proof}";
/// How much of the command's stderr is shown in an error.
const STDERR_SHOWN: usize = 2000;

pub struct Command {
    /// The command string as given, to name it in messages.
    cmd: String,
    /// Its words, `{cnf}` among them.
    words: Vec<String>,
    cnf: Cnf,
    stop: Stop,
    calls: u32,
    /// Whether it takes `{proof}`: every UNSAT answer is then checked.
    proofs: bool,
    /// The last call's assumptions (its failed core) and checked model.
    assumptions: Vec<Lit>,
    model: Option<Model>,
}

/// What a finished command left.
struct Run {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Command {
    /// `cmd` is split into words as a shell would (quotes and backslashes, no expansions). The
    /// formula's path replaces `{cnf}` or is appended as the last argument; `{out}` names a
    /// result file to read the answer from instead of stdout (`minisat {cnf} {out}`). Refuses
    /// an empty or badly quoted `cmd`; a program that cannot be run is only found when solving.
    pub fn new(cmd: &str, stop: Stop) -> Result<Command, String> {
        let mut words =
            shell_words::split(cmd).map_err(|e| format!("solver command `{cmd}`: {e}"))?;
        if words.is_empty() {
            return Err("the solver command is empty".into());
        }
        if !words.iter().any(|w| w.contains(CNF)) {
            words.push(CNF.into());
        }
        let proofs = words.iter().any(|w| w.contains(PROOF));
        Ok(Command {
            cmd: cmd.into(),
            words,
            cnf: Cnf::new(),
            stop,
            proofs,
            calls: 0,
            assumptions: Vec::new(),
            model: None,
        })
    }

    fn reads_result_file(&self) -> bool {
        self.words.iter().any(|w| w.contains(OUT))
    }

    /// The formula's variables, and any beyond them that the assumptions name.
    fn num_vars(&self) -> u32 {
        self.assumptions
            .iter()
            .map(|a| a.var())
            .fold(self.cnf.num_vars, u32::max)
    }

    /// The most output read: far more than a model of this many variables takes (12 bytes a
    /// literal at most) plus room for comments, so only a runaway command reaches it.
    fn output_limit(&self) -> u64 {
        (64 << 20) + 32 * u64::from(self.num_vars())
    }

    fn error(&self, what: impl Display, stderr: &[u8]) -> SolverError {
        let mut message = format!("solver command `{}` {what}", self.cmd);
        let text = String::from_utf8_lossy(&stderr[stderr.len().saturating_sub(STDERR_SHOWN)..]);
        let text = text.trim();
        if !text.is_empty() {
            let cut = if stderr.len() > STDERR_SHOWN {
                "…"
            } else {
                ""
            };
            message += &format!("; its stderr ends:\n{cut}{text}");
        }
        SolverError(message)
    }

    /// The formula plus the assumptions as unit clauses, lent to the writer for the moment.
    fn write_cnf(&mut self, path: &Path) -> io::Result<()> {
        let mut file = File::create(path)?;
        self.write_cnf_to(&mut file)
    }

    fn write_cnf_to(&mut self, out: &mut impl Write) -> io::Result<()> {
        let (vars, clauses) = (self.cnf.num_vars, self.cnf.clauses.len());
        self.cnf.num_vars = self.num_vars();
        self.cnf
            .clauses
            .extend(self.assumptions.iter().map(|&a| vec![a]));
        let comment = format!(
            "puzzle-sat: the last {} clauses are this call's assumptions",
            self.assumptions.len()
        );
        let written = dimacs::write(out, &self.cnf, &[comment]);
        self.cnf.clauses.truncate(clauses);
        self.cnf.num_vars = vars;
        written
    }

    /// Runs the command to its end, or kills it when the run is stopped (`None`).
    fn run(&self, cnf: &Path, out: &Path, proof: &Path) -> Result<Option<Run>, SolverError> {
        let mut words = self.words.iter().map(|w| substitute(w, cnf, out, proof));
        let mut process = std::process::Command::new(words.next().expect("a command has a word"));
        process.args(words);
        let limit = self.output_limit();
        match process::run(process, limit, || self.stop.is_raised()) {
            Ok(process::Ended::Exited {
                status,
                stdout,
                stderr,
            }) => Ok(Some(Run {
                status,
                stdout,
                stderr,
            })),
            Ok(process::Ended::Stopped) => Ok(None),
            Ok(process::Ended::Overflow { stderr }) => {
                Err(self.error(format!("printed more than {limit} bytes"), &stderr))
            }
            Err(e) => Err(self.error(format!("cannot be run: {e}"), b"")),
        }
    }

    /// The call's answer from what the command left, `out` being its result file.
    fn answer(&mut self, run: Run, out: &Path) -> Result<SolveResult, SolverError> {
        let Run {
            status,
            stdout,
            stderr,
        } = run;
        let code = match (status.code(), status.signal()) {
            (Some(code @ (0 | 10 | 20)), _) => code,
            (Some(code), _) => {
                return Err(self.error(format!("exited with status {code}"), &stderr))
            }
            (None, Some(signal)) => {
                return Err(self.error(format!("was killed by signal {signal}"), &stderr))
            }
            (None, None) => return Err(self.error(format!("ended oddly: {status}"), &stderr)),
        };
        let (text, source) = if self.reads_result_file() {
            // A regular file only: a pipe put there would block the read.
            let read = crate::drat::open_regular(out)
                .map_err(io::Error::other)
                .and_then(|f| {
                    let mut text = Vec::new();
                    f.take(self.output_limit() + 1)
                        .read_to_end(&mut text)
                        .map(|_| text)
                });
            match read {
                Ok(text) if text.len() as u64 > self.output_limit() => {
                    return Err(self.error(
                        format!("wrote more than {} bytes to {OUT}", self.output_limit()),
                        &stderr,
                    ))
                }
                Ok(text) => (text, OUT),
                Err(e) => {
                    return Err(
                        self.error(format!("left no readable result file {OUT}: {e}"), &stderr)
                    )
                }
            }
        } else {
            (stdout, "stdout")
        };
        let text = String::from_utf8_lossy(&text);
        let answer = dimacs::read_model(&text).map_err(|e| {
            // MiniSat prints a banner and its bare verdict, and the model only to a result file.
            let bare = text.lines().any(|l| matches!(l.trim(), "SATISFIABLE" | "UNSATISFIABLE" | "INDETERMINATE"));
            let hint = if bare && !self.reads_result_file() {
                let program = self.words.first().map_or("minisat", String::as_str);
                format!("; it prints a bare verdict, as MiniSat does, which writes its model only to a result file: try --solver-cmd \"{program} {CNF} {OUT}\"")
            } else {
                String::new()
            };
            self.error(format!("printed no answer that can be read ({source}:{e}){hint}"), &stderr)
        })?;
        match (answer, code) {
            (SolverAnswer::Unknown, _) => Err(self.error("gave no answer (UNKNOWN)", &stderr)),
            (SolverAnswer::Sat(_), 20) => {
                Err(self.error("exited with status 20 (UNSAT) but said SAT", &stderr))
            }
            (SolverAnswer::Unsat, 10) => {
                Err(self.error("exited with status 10 (SAT) but said UNSAT", &stderr))
            }
            (SolverAnswer::Unsat, _) => Ok(SolveResult::Unsat),
            (SolverAnswer::Sat(lits), _) => {
                let model = self.check(lits).map_err(|e| self.error(e, &stderr))?;
                self.model = Some(model);
                Ok(SolveResult::Sat)
            }
        }
    }

    /// Checks the DRAT proof the command wrote of its UNSAT answer against this call's formula
    /// (assumptions included as unit clauses): `Unsat` when the checker accepts it. The checker
    /// reads the formula as written anew here, into a file without a name, never the one the
    /// command was given (which it could have rewritten), and the proof through the descriptor
    /// opened and checked here (a regular file, no link, no pipe).
    fn check_proof(&mut self, proof: &Path) -> Result<SolveResult, SolverError> {
        // A formula with the empty clause needs no proof (and rate need not be asked).
        if self.cnf.clauses.iter().any(Vec::is_empty) {
            return Ok(SolveResult::Unsat);
        }
        let checker = crate::drat::DEFAULT_CHECKER;
        let rejected =
            |why: &str| format!("answered UNSAT, but `{checker}` rejects its proof ({why})");
        let proof = crate::drat::open_regular(proof).map_err(|e| self.error(rejected(&e), b""))?;
        if proof
            .metadata()
            .map_or(true, |m| m.len() > crate::drat::PROOF_CAP)
        {
            return Err(self.error(rejected("a proof larger than the cap"), b""));
        }
        let mut formula = tempfile::tempfile()
            .map_err(|e| self.error(format!("has no temporary file: {e}"), b""))?;
        self.write_cnf_to(&mut formula).map_err(|e| {
            self.error(
                format!("cannot write the formula for the checker: {e}"),
                b"",
            )
        })?;
        // Without /proc, private copies (made only then).
        let private;
        let (cnf, proof_path) = match (
            crate::drat::descriptor_path(&formula),
            crate::drat::descriptor_path(&proof),
        ) {
            (Some(c), Some(p)) => (c, p),
            _ => {
                private = crate::cleanup::temp_dir("check")
                    .map_err(|e| self.error(format!("has no temporary directory: {e}"), b""))?;
                let (c, p) = (
                    private.path().join("formula.cnf"),
                    private.path().join("proof.drat"),
                );
                self.write_cnf(&c).map_err(|e| {
                    self.error(
                        format!("cannot write the formula for the checker: {e}"),
                        b"",
                    )
                })?;
                let mut from = proof
                    .try_clone()
                    .map_err(|e| self.error(format!("cannot copy the proof: {e}"), b""))?;
                File::create(&p)
                    .and_then(|mut to| io::copy(&mut from, &mut to))
                    .map_err(|e| self.error(format!("cannot copy the proof: {e}"), b""))?;
                (c, p)
            }
        };
        match crate::drat::run_checker(
            checker,
            &cnf,
            &proof_path,
            crate::drat::Limits::default(),
            || self.stop.is_raised(),
        ) {
            Ok(crate::drat::Checked::Accepted) => Ok(SolveResult::Unsat),
            Ok(crate::drat::Checked::Rejected(why)) => Err(self.error(rejected(&why), b"")),
            Ok(crate::drat::Checked::OutOfMemory(line)) => Err(self.error(
                rejected(&format!(
                    "it ran out of memory under its cap of {}: {line}",
                    crate::drat::bytes(crate::drat::CHECKER_MEMORY)
                )),
                b"",
            )),
            Ok(crate::drat::Checked::Stopped | crate::drat::Checked::OutOfTime) => {
                Ok(SolveResult::Interrupted)
            }
            Err(e) => Err(self.error(
                format!("takes {PROOF}, but {e} (install it: cargo install --locked rate)"),
                b"",
            )),
        }
    }

    /// The model `lits` describe, if it is one: of this formula's variables, each given once,
    /// satisfying every clause and every assumption.
    fn check(&self, lits: Vec<Lit>) -> Result<Model, String> {
        let n = self.num_vars();
        let mut seen = vec![None; n as usize + 1];
        for l in &lits {
            let v = l.var();
            if v > n {
                return Err(format!(
                    "gave a model with variable {v}, beyond the formula's {n}"
                ));
            }
            match seen[v as usize] {
                Some(positive) if positive != l.is_positive() => {
                    return Err(format!(
                        "gave a model with variable {v} both true and false"
                    ))
                }
                _ => seen[v as usize] = Some(l.is_positive()),
            }
        }
        let model = Model::from_lits(n, lits);
        if let Some((i, clause)) = self
            .cnf
            .clauses
            .iter()
            .enumerate()
            .find(|(_, c)| !c.iter().any(|&l| model.value(l)))
        {
            return Err(format!(
                "gave a model that violates clause {} {}",
                i + 1,
                show_clause(clause)
            ));
        }
        if let Some(a) = self.assumptions.iter().find(|&&a| !model.value(a)) {
            return Err(format!(
                "gave a model that violates the assumption {}",
                a.dimacs()
            ));
        }
        Ok(model)
    }
}

/// Whether the command string `cmd` takes `{proof}`, so that its UNSAT answers are checked.
pub fn checks_proofs(cmd: &str) -> bool {
    shell_words::split(cmd).is_ok_and(|words| words.iter().any(|w| w.contains(PROOF)))
}

/// `word` with the paths of the formula, the result file and the proof in place of `{cnf}`,
/// `{out}` and `{proof}`.
fn substitute(word: &str, cnf: &Path, out: &Path, proof: &Path) -> OsString {
    let mut result = OsString::new();
    let mut rest = word;
    while let Some((at, placeholder, path)) = [(CNF, cnf), (OUT, out), (PROOF, proof)]
        .into_iter()
        .filter_map(|(p, path)| Some((rest.find(p)?, p, path)))
        .min_by_key(|m| m.0)
    {
        result.push(&rest[..at]);
        result.push(path);
        rest = &rest[at + placeholder.len()..];
    }
    result.push(rest);
    result
}

fn show_clause(clause: &[Lit]) -> String {
    const SHOWN: usize = 20;
    let mut lits: Vec<String> = clause
        .iter()
        .take(SHOWN)
        .map(|l| l.dimacs().to_string())
        .collect();
    if clause.len() > SHOWN {
        lits.push(format!("… ({} literals)", clause.len()));
    }
    format!("[{}]", lits.join(" "))
}

impl ClauseSink for Command {
    fn new_var(&mut self) -> Lit {
        self.cnf.new_var()
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.cnf.add_clause(lits);
    }
}

impl Solver for Command {
    fn backend(&self) -> &'static str {
        "command"
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        if self.stop.is_raised() {
            return Ok(SolveResult::Interrupted);
        }
        self.calls += 1;
        self.model = None;
        self.assumptions = assumptions.to_vec();
        // Both files go with the directory, whatever happens.
        let dir = crate::cleanup::temp_dir("solver")
            .map_err(|e| self.error(format!("has no temporary directory to work in: {e}"), b""))?;
        let (cnf, out, proof) = (
            dir.path().join("formula.cnf"),
            dir.path().join("result"),
            dir.path().join("proof.drat"),
        );
        self.write_cnf(&cnf)
            .map_err(|e| self.error(format!("cannot be given its formula: {e}"), b""))?;
        let answer = match self.run(&cnf, &out, &proof)? {
            Some(run) => self.answer(run, &out)?,
            None => return Ok(SolveResult::Interrupted),
        };
        if answer == SolveResult::Unsat && self.proofs {
            return self.check_proof(&proof);
        }
        Ok(answer)
    }

    fn model(&self) -> Model {
        self.model
            .clone()
            .expect("model asked for after a call that was not satisfiable")
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.assumptions.clone()
    }

    fn stats(&self) -> SolverStats {
        SolverStats {
            calls: self.calls,
            vars: self.cnf.num_vars,
            clauses: self.cnf.clauses.len() as u64,
            conflicts: None,
            decisions: None,
        }
    }

    fn interruptible(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    use std::process::Stdio;
    use std::thread;
    use std::time::{Duration, Instant};
    use tempfile::TempDir;

    fn lit(n: i32) -> Lit {
        Lit::from_dimacs(n).unwrap()
    }

    /// The command, after making sure its program is installed: a missing solver must fail
    /// the test, not skip it. Only the tests of the feature `outside-tools` (the second tier)
    /// run outside programs.
    #[cfg(feature = "outside-tools")]
    fn installed(cmd: &str) -> &str {
        let name = cmd.split_whitespace().next().unwrap();
        let path = std::env::var_os("PATH").unwrap_or_default();
        assert!(
            std::env::split_paths(&path).any(|dir| dir.join(name).is_file()),
            "`{name}` is not installed: run .ci/run, or `apt-get install -y cadical minisat` \
             and `cargo install --locked rate`"
        );
        cmd
    }

    /// A fake solver: `body` as a shell script in a fresh directory (`$D` in the script), and
    /// the command that runs it. It runs through `sh`: executing a file just written can fail
    /// with "text file busy" while other test threads fork.
    fn fake(body: &str) -> (TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("solver.sh");
        fs::write(&script, format!("#!/bin/sh\nD=$(dirname \"$0\")\n{body}\n")).unwrap();
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        let cmd = format!("sh {}", shell_words::quote(script.to_str().unwrap()));
        (dir, cmd)
    }

    fn solver(cmd: &str, clauses: &[&[i32]]) -> Command {
        let mut s = Command::new(cmd, Stop::new()).unwrap();
        let vars = clauses
            .iter()
            .flat_map(|c| c.iter())
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0);
        for _ in 0..vars {
            s.new_var();
        }
        for c in clauses {
            s.add_clause(&c.iter().map(|&n| lit(n)).collect::<Vec<_>>());
        }
        s
    }

    fn error(s: &mut Command, assumptions: &[i32]) -> String {
        let assumptions: Vec<Lit> = assumptions.iter().map(|&n| lit(n)).collect();
        match s.solve_with(&assumptions) {
            Err(SolverError(message)) => message,
            Ok(answer) => panic!("expected an error, got {answer:?}"),
        }
    }

    /// Checked here independently of the backend's own check.
    #[cfg(feature = "outside-tools")]
    fn satisfies(model: &Model, clauses: &[Vec<Lit>]) -> bool {
        clauses.iter().all(|c| c.iter().any(|&l| model.value(l)))
    }

    /// Assumptions, their failed core and clauses added between calls, on a formula whose two
    /// models are `a ∧ c ∧ ¬b` and `¬a ∧ b ∧ ¬c`.
    #[cfg(feature = "outside-tools")]
    fn answers_under_assumptions_and_added_clauses(cmd: &str) {
        let mut s = Command::new(installed(cmd), Stop::new()).unwrap();
        let (a, b, c) = (s.new_var(), s.new_var(), s.new_var());
        let mut clauses = vec![vec![a, b], vec![!a, c], vec![!b, !c]];
        for cl in &clauses {
            s.add_clause(cl);
        }
        assert_eq!(s.solve().unwrap(), SolveResult::Sat);
        assert!(satisfies(&s.model(), &clauses));
        assert_eq!(s.solve_with(&[a]).unwrap(), SolveResult::Sat);
        let m = s.model();
        assert!(m.value(a) && !m.value(b) && m.value(c));
        assert_eq!(s.solve_with(&[!a]).unwrap(), SolveResult::Sat);
        let m = s.model();
        assert!(!m.value(a) && m.value(b) && !m.value(c));
        assert_eq!(s.solve_with(&[a, b]).unwrap(), SolveResult::Unsat);
        assert_eq!(s.failed_core(), vec![a, b]);

        clauses.push(vec![!c]);
        s.add_clause(&[!c]);
        assert_eq!(s.solve().unwrap(), SolveResult::Sat);
        let m = s.model();
        assert!(satisfies(&m, &clauses) && !m.value(a) && m.value(b));
        assert_eq!(s.solve_with(&[a]).unwrap(), SolveResult::Unsat);
        s.add_clause(&[!b]);
        assert_eq!(s.solve().unwrap(), SolveResult::Unsat);
        assert_eq!(s.failed_core(), vec![]);
        let stats = s.stats();
        assert_eq!((stats.calls, stats.vars, stats.clauses), (7, 3, 5));
        assert_eq!((stats.conflicts, stats.decisions), (None, None));
        assert_eq!(s.backend(), "command");
        assert!(s.interruptible());
    }

    /// A satisfiable random 3-SAT formula (planted model) whose model spans several `v` lines,
    /// the pigeonhole formula 6 → 5 (unsatisfiable), and the formulas without variables.
    #[cfg(feature = "outside-tools")]
    fn solves_real_formulas(cmd: &str) {
        let mut s = Command::new(installed(cmd), Stop::new()).unwrap();
        let vars: Vec<Lit> = (0..300).map(|_| s.new_var()).collect();
        let mut seed = 12345u64;
        let mut random = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let planted: Vec<bool> = (0..vars.len()).map(|_| random(2) == 1).collect();
        let mut clauses = Vec::new();
        for _ in 0..1200 {
            let mut clause: Vec<Lit> = (0..3)
                .map(|_| {
                    let v = random(vars.len());
                    if random(2) == 1 {
                        vars[v]
                    } else {
                        !vars[v]
                    }
                })
                .collect();
            if !clause
                .iter()
                .any(|l| planted[l.var() as usize - 1] == l.is_positive())
            {
                clause[0] = !clause[0];
            }
            s.add_clause(&clause);
            clauses.push(clause);
        }
        assert_eq!(s.solve().unwrap(), SolveResult::Sat);
        assert!(satisfies(&s.model(), &clauses));

        let (pigeons, holes) = (6, 5);
        let mut s = Command::new(cmd, Stop::new()).unwrap();
        let p: Vec<Vec<Lit>> = (0..pigeons)
            .map(|_| (0..holes).map(|_| s.new_var()).collect())
            .collect();
        for row in &p {
            s.add_clause(row);
        }
        for (i, first) in p.iter().enumerate() {
            for second in &p[i + 1..] {
                for (&a, &b) in first.iter().zip(second) {
                    s.add_clause(&[!a, !b]);
                }
            }
        }
        assert_eq!(s.solve().unwrap(), SolveResult::Unsat);

        let mut s = Command::new(cmd, Stop::new()).unwrap();
        assert_eq!(s.solve().unwrap(), SolveResult::Sat);
        s.add_clause(&[]);
        assert_eq!(s.solve().unwrap(), SolveResult::Unsat);
    }

    #[cfg(feature = "outside-tools")]
    #[test]
    fn cadical_answers_under_assumptions_and_added_clauses() {
        answers_under_assumptions_and_added_clauses("cadical");
    }

    #[cfg(feature = "outside-tools")]
    #[test]
    fn cadical_solves_real_formulas() {
        solves_real_formulas("cadical");
    }

    #[cfg(feature = "outside-tools")]
    #[test]
    fn minisat_result_file_answers_under_assumptions_and_added_clauses() {
        answers_under_assumptions_and_added_clauses("minisat {cnf} {out}");
    }

    #[cfg(feature = "outside-tools")]
    #[test]
    fn minisat_result_file_solves_real_formulas() {
        solves_real_formulas("minisat {cnf} {out}");
    }

    #[cfg(feature = "outside-tools")]
    #[test]
    fn cadical_with_checked_proofs_answers_under_assumptions_and_added_clauses() {
        answers_under_assumptions_and_added_clauses("cadical {cnf} {proof}");
    }

    #[cfg(feature = "outside-tools")]
    #[test]
    fn cadical_with_checked_proofs_solves_real_formulas() {
        solves_real_formulas("cadical {cnf} {proof}");
    }

    /// With `{proof}`, an UNSAT without a proof that checks is an error; without it, the same
    /// lie is taken, and the backend says its UNSAT is unchecked. The proofs go to `rate`.
    #[cfg(feature = "outside-tools")]
    #[test]
    fn an_unsat_whose_proof_does_not_check_is_an_error() {
        installed("rate");
        for (body, why) in [
            ("echo 's UNSATISFIABLE'\nexit 20", "No such file"),
            (
                ": > \"$2\"\necho 's UNSATISFIABLE'\nexit 20",
                "s NOT VERIFIED",
            ),
            (
                "printf '0\\n' > \"$2\"\necho 's UNSATISFIABLE'\nexit 20",
                "s NOT VERIFIED",
            ),
        ] {
            let (_dir, cmd) = fake(body);
            let with = format!("{cmd} {{cnf}} {{proof}}");
            let e = error(&mut solver(&with, &[&[1, 2]]), &[lit(-1).dimacs()]);
            assert!(
                e.contains("answered UNSAT, but `rate -d {cnf} {proof}` rejects its proof")
                    && e.contains(why),
                "{body}: {e}"
            );
            assert_eq!(
                crate::backends::Backend::Command(with).trust(),
                crate::backends::Trust::Checked
            );
            let without = format!("{cmd} {{cnf}} /dev/null");
            assert_eq!(
                solver(&without, &[&[1, 2]]).solve().unwrap(),
                SolveResult::Unsat,
                "unchecked, the lie is taken"
            );
            assert_eq!(
                crate::backends::Backend::Command(without).trust(),
                crate::backends::Trust::Unchecked
            );
        }
        // A formula holding the empty clause is refuted without a proof.
        let (_dir, cmd) = fake("echo 's UNSATISFIABLE'\nexit 20");
        let mut s = solver(&format!("{cmd} {{cnf}} {{proof}}"), &[&[1]]);
        s.add_clause(&[]);
        assert_eq!(s.solve().unwrap(), SolveResult::Unsat);
    }

    #[test]
    fn bad_command_strings_are_refused() {
        assert!(Command::new("", Stop::new())
            .err()
            .unwrap()
            .contains("empty"));
        assert!(Command::new("  ", Stop::new())
            .err()
            .unwrap()
            .contains("empty"));
        let e = Command::new("cadical 'unclosed", Stop::new())
            .err()
            .unwrap();
        assert!(e.contains("cadical 'unclosed"), "{e}");
    }

    #[test]
    fn the_formula_path_is_appended_or_put_in_place_and_removed_afterwards() {
        let (dir, cmd) =
            fake("printf '%s\\n' \"$@\" > \"$D/args\"\necho 's UNSATISFIABLE'\nexit 20");
        let args = || fs::read_to_string(dir.path().join("args")).unwrap();

        let mut s = solver(&format!("{cmd} 'two words'"), &[&[1]]);
        assert_eq!(s.solve().unwrap(), SolveResult::Unsat);
        let args = args();
        let args: Vec<&str> = args.lines().collect();
        assert_eq!(args.len(), 2, "{args:?}");
        assert_eq!(args[0], "two words");
        assert!(args[1].ends_with("formula.cnf"), "{args:?}");
        assert!(!Path::new(args[1]).exists() && !Path::new(args[1]).parent().unwrap().exists());

        let mut s = solver(&format!("{cmd} --in={{cnf}} last"), &[&[1]]);
        assert_eq!(s.solve().unwrap(), SolveResult::Unsat);
        let args = fs::read_to_string(dir.path().join("args")).unwrap();
        let args: Vec<&str> = args.lines().collect();
        assert_eq!(args.len(), 2, "{args:?}");
        assert!(
            args[0].starts_with("--in=/") && args[0].ends_with("formula.cnf"),
            "{args:?}"
        );
        assert_eq!(args[1], "last");
    }

    #[test]
    fn the_formula_carries_the_assumptions_as_unit_clauses() {
        let (dir, cmd) = fake("cp \"$1\" \"$D/seen.cnf\"\necho 's UNSATISFIABLE'");
        let mut s = solver(&cmd, &[&[1, 2]]);
        assert_eq!(
            s.solve_with(&[lit(-1), lit(3)]).unwrap(),
            SolveResult::Unsat
        );
        let seen = fs::read_to_string(dir.path().join("seen.cnf")).unwrap();
        assert!(seen.ends_with("p cnf 3 3\n1 2 0\n-1 0\n3 0\n"), "{seen}");
        assert_eq!(s.failed_core(), vec![lit(-1), lit(3)]);
    }

    #[test]
    fn a_result_file_is_read_when_out_is_given() {
        let (_dir, cmd) =
            fake("printf 'SAT\\n-1 2 0\\n' > \"$2\"\necho 'this is not read'\nexit 10");
        let mut s = solver(&format!("{cmd} {{cnf}} {{out}}"), &[&[1, 2]]);
        assert_eq!(s.solve().unwrap(), SolveResult::Sat);
        assert!(s.model().value(lit(2)) && !s.model().value(lit(1)));

        let (_dir, cmd) = fake("exit 10");
        let e = error(&mut solver(&format!("{cmd} {{cnf}} {{out}}"), &[&[1]]), &[]);
        assert!(e.contains("no readable result file"), "{e}");
    }

    #[test]
    fn garbage_is_an_error() {
        let (_dir, cmd) = fake("echo 'hello world'\nexit 10");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(e.contains(&cmd) && e.contains("\"hello\""), "{e}");
    }

    #[test]
    fn a_model_violating_a_clause_is_an_error_naming_it() {
        let (_dir, cmd) = fake("printf 's SATISFIABLE\\nv 1 2 0\\n'\nexit 10");
        let e = error(&mut solver(&cmd, &[&[1, 2], &[-1, -2]]), &[]);
        assert!(
            e.contains(&cmd) && e.contains("violates clause 2 [-1 -2]"),
            "{e}"
        );
    }

    #[test]
    fn a_model_violating_an_assumption_is_an_error() {
        let (_dir, cmd) = fake("printf 's SATISFIABLE\\nv 1 -2 0\\n'\nexit 10");
        let e = error(&mut solver(&cmd, &[&[1, 2]]), &[-1]);
        assert!(e.contains("violates the assumption -1"), "{e}");
    }

    #[test]
    fn a_model_beyond_the_formula_or_contradicting_itself_is_an_error() {
        let (_dir, cmd) = fake("printf 's SATISFIABLE\\nv 1 -1 0\\n'");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(e.contains("variable 1 both true and false"), "{e}");
        let (_dir, cmd) = fake("printf 's SATISFIABLE\\nv 1 7 0\\n'");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(e.contains("variable 7, beyond the formula's 1"), "{e}");
    }

    #[test]
    fn a_failing_command_is_an_error_with_its_stderr() {
        let (_dir, cmd) = fake("echo 'out of cheese' >&2\nexit 1");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(
            e.contains(&cmd) && e.contains("exited with status 1") && e.contains("out of cheese"),
            "{e}"
        );

        let (_dir, cmd) = fake("kill -9 $$");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(e.contains("killed by signal 9"), "{e}");

        let e = error(&mut solver("/nonexistent/puzzle-sat-solver", &[&[1]]), &[]);
        assert!(
            e.contains("/nonexistent/puzzle-sat-solver") && e.contains("cannot be run"),
            "{e}"
        );
    }

    #[test]
    fn unknown_or_a_status_against_the_exit_code_is_an_error() {
        let (_dir, cmd) = fake("echo 's UNKNOWN'");
        assert!(error(&mut solver(&cmd, &[&[1]]), &[]).contains("UNKNOWN"));
        let (_dir, cmd) = fake("echo 's UNSATISFIABLE'\nexit 10");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(e.contains("status 10 (SAT) but said UNSAT"), "{e}");
        let (_dir, cmd) = fake("printf 's SATISFIABLE\\nv 1 0\\n'\nexit 20");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(e.contains("status 20 (UNSAT) but said SAT"), "{e}");
    }

    #[test]
    fn a_chatty_stderr_does_not_block_and_runaway_output_is_refused() {
        let (_dir, cmd) =
            fake("yes 'c chatter' | head -n 300000 >&2\necho 's UNSATISFIABLE'\nexit 20");
        assert_eq!(solver(&cmd, &[&[1]]).solve().unwrap(), SolveResult::Unsat);

        let (_dir, cmd) = fake("yes 1");
        let e = error(&mut solver(&cmd, &[&[1]]), &[]);
        assert!(e.contains("printed more than"), "{e}");
    }

    /// Whether process `pid` still runs (a zombie does not).
    fn running(pid: &str) -> bool {
        match fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => !stat
                .rsplit_once(')')
                .unwrap()
                .1
                .trim_start()
                .starts_with('Z'),
            Err(_) => false,
        }
    }

    #[test]
    fn a_stop_kills_the_command_and_what_it_started() {
        let (dir, cmd) = fake("echo $$ > \"$D/pid\"\nsleep 30 &\necho $! > \"$D/sleep\"\nwait");
        let stop = Stop::new();
        let mut s = Command::new(&cmd, stop.clone()).unwrap();
        s.new_var();
        // Raised once the command has started what it starts (a loaded machine may take a
        // while to get there); then the call must return long before the 30 s sleep ends.
        let started_file = dir.path().join("sleep");
        let raiser = thread::spawn(move || {
            let waiting = Instant::now();
            while !started_file.exists() && waiting.elapsed() < Duration::from_secs(20) {
                thread::sleep(Duration::from_millis(20));
            }
            thread::sleep(Duration::from_millis(100));
            stop.raise();
            Instant::now()
        });
        assert_eq!(s.solve().unwrap(), SolveResult::Interrupted);
        let returned = Instant::now();
        let raised = raiser.join().unwrap();
        assert!(
            returned.duration_since(raised) < Duration::from_secs(5),
            "{:?} after the stop",
            returned.duration_since(raised)
        );
        for name in ["pid", "sleep"] {
            let pid = fs::read_to_string(dir.path().join(name)).unwrap();
            let pid = pid.trim();
            // SIGKILL is delivered asynchronously: give the group a moment to die.
            let killed = Instant::now();
            while running(pid) && killed.elapsed() < Duration::from_secs(3) {
                thread::sleep(Duration::from_millis(10));
            }
            assert!(!running(pid), "{name} {pid} still runs");
        }
        // Stopped runs start no more commands.
        assert_eq!(s.solve().unwrap(), SolveResult::Interrupted);
        assert_eq!(s.stats().calls, 1);
    }

    /// Killed outright (as by Ctrl-C), puzzle-sat takes its running command along, though the
    /// command has a process group of its own. This test runs itself as that puzzle-sat.
    #[test]
    fn the_command_dies_with_puzzle_sat() {
        const CHILD: &str = "PUZZLE_SAT_TEST_RUN_TO_BE_KILLED";
        if let Ok(cmd) = std::env::var(CHILD) {
            let _ = Command::new(&cmd, Stop::new()).unwrap().solve();
            return;
        }
        let (dir, cmd) = fake("echo $$ > \"$D/pid\"\nexec sleep 30");
        let mut me = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "backends::command::tests::the_command_dies_with_puzzle_sat",
                "--nocapture",
            ])
            .env(CHILD, &cmd)
            // Its temporary folder, which a SIGKILL leaves behind, goes with this test's.
            .env("TMPDIR", dir.path())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let pid = loop {
            let pid = fs::read_to_string(dir.path().join("pid")).unwrap_or_default();
            if pid.ends_with('\n') {
                break pid.trim().to_string();
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the command never started"
            );
            thread::sleep(Duration::from_millis(10));
        };
        me.kill().unwrap();
        me.wait().unwrap();
        let killed = Instant::now();
        while running(&pid) {
            assert!(
                killed.elapsed() < Duration::from_secs(2),
                "the command {pid} outlived puzzle-sat"
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}
