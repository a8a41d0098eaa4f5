//! Running a DRAT checker on a proof, as `verify` and the external backend's checked UNSAT
//! both do, and opening the files handed to it: regular files only, never through a link,
//! read by the checker through the descriptor opened here.

use std::fs::File;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Instant;

/// The default DRAT checker: `rate` (`cargo install --locked rate`).
pub const DEFAULT_CHECKER: &str = "rate -d {cnf} {proof}";

/// The largest proof (`final.drat`, `lemma-N.drat`) `verify` hands its checker.
pub const PROOF_CAP: u64 = 4 << 30;

/// Opens a certificate's file for reading: a regular file only, reached without a symbolic
/// link ([`crate::input::open_checked`]: a file swapped for a pipe or a device meanwhile is
/// refused too, unopened).
pub fn open_regular(path: &Path) -> Result<File, String> {
    let name = path.display();
    match crate::input::open_checked(path, false) {
        Ok(Ok(file)) => Ok(file),
        Ok(Err(_)) => Err(format!("{name} is not a regular file")),
        Err(e) => Err(format!("{name}: {e}")),
    }
}

/// A path by which a child process reads `file` as this process opened it (`/proc/PID/fd/N`),
/// whatever happens meanwhile to the name it was opened by; `None` without `/proc`.
pub fn descriptor_path(file: &File) -> Option<PathBuf> {
    let fd = PathBuf::from(format!(
        "/proc/{}/fd/{}",
        std::process::id(),
        file.as_raw_fd()
    ));
    fd.exists().then_some(fd)
}

/// What an outside checker (a DRAT checker, `veripb`) may take: its address space, and time
/// until a deadline. Past either it is stopped, and what it was checking is not verified.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Bytes of address space (`RLIMIT_AS`) of each process: the checker, and each it starts.
    pub memory: u64,
    pub deadline: Option<Instant>,
}

/// The address space a checker may take unless told otherwise: 8 GiB, eight times what
/// `veripb` takes on a 36×36 sudoku's proof, and a third of this project's machines' memory.
/// (`rate` takes about nine bytes per byte of a proof of needless lemmas: 1.6 GB for 180 MB.)
pub const CHECKER_MEMORY: u64 = 8 << 30;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory: CHECKER_MEMORY,
            deadline: None,
        }
    }
}

impl Limits {
    /// The memory cap, set in the child before it runs the checker.
    fn apply(&self, process: &mut Command) {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            let limit = libc::rlimit {
                rlim_cur: self.memory,
                rlim_max: self.memory,
            };
            // SAFETY: setrlimit is async-signal-safe; the error is made from its errno.
            unsafe {
                process.pre_exec(move || {
                    if libc::setrlimit(libc::RLIMIT_AS, &limit) == -1 {
                        Err(std::io::Error::last_os_error())
                    } else {
                        Ok(())
                    }
                });
            }
        }
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The memory cap as people write it: `8 GiB`, `512 MiB`.
pub fn bytes(n: u64) -> String {
    match n {
        _ if n >= 1 << 30 && n.is_multiple_of(1 << 30) => format!("{} GiB", n >> 30),
        _ if n >= 1 << 20 && n.is_multiple_of(1 << 20) => format!("{} MiB", n >> 20),
        _ => format!("{n} bytes"),
    }
}

/// The line in which a checker says an allocation was refused (under its cap): Rust's, C++'s,
/// C's, Python's words for it.
fn refused_memory(said: &str) -> Option<&str> {
    let refused = [
        "memory allocation of",
        "out of memory",
        "bad_alloc",
        "memoryerror",
        "cannot allocate memory",
        "failed to allocate",
    ];
    said.lines()
        .map(str::trim)
        .find(|l| refused.iter().any(|m| l.to_lowercase().contains(m)))
}

/// A death by the signals a checker meeting its cap dies of: SIGSEGV or SIGBUS (a C checker
/// that does not test what `malloc` gives), SIGABRT (an allocation refused), SIGKILL (the
/// system out of memory). Other signals say nothing of memory.
fn signal_note(status: &ExitStatus, memory: u64) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    let sig = status
        .signal()
        .filter(|s| [libc::SIGSEGV, libc::SIGBUS, libc::SIGABRT, libc::SIGKILL].contains(s))?;
    Some(format!(
        "killed by signal {sig}; it may have met its memory cap of {}",
        bytes(memory)
    ))
}

/// What a DRAT checker made of a proof.
pub enum Checked {
    Accepted,
    /// Its exit status and verdict line (or the last line it printed).
    Rejected(String),
    /// `stop` said so first; the checker was killed.
    Stopped,
    /// It was still running at the deadline, and killed.
    OutOfTime,
    /// It failed, saying an allocation was refused (this line): its memory cap is too small.
    OutOfMemory(String),
}

/// Runs the DRAT checker (`{cnf}` and `{proof}` replaced, else both appended) as `verify` and
/// the `{proof}` backend both do, within `limits`: accepted when it exits 0 and says
/// `s VERIFIED` where it prints a verdict line. `Err` when it cannot be run at all.
pub fn run_checker(
    checker: &str,
    cnf: &Path,
    proof: &Path,
    limits: Limits,
    stop: impl Fn() -> bool,
) -> Result<Checked, String> {
    let mut words = shell_words::split(checker).map_err(|e| format!("--checker: {e}"))?;
    if words.is_empty() {
        return Err("--checker is empty".into());
    }
    let (c, p) = (
        cnf.to_string_lossy().into_owned(),
        proof.to_string_lossy().into_owned(),
    );
    if !words.iter().any(|w| w.contains("{cnf}")) {
        words.push(c.clone());
        words.push(p.clone());
    }
    let words: Vec<String> = words
        .iter()
        .map(|w| w.replace("{cnf}", &c).replace("{proof}", &p))
        .collect();
    let mut process = Command::new(&words[0]);
    process.args(&words[1..]);
    limits.apply(&mut process);
    let (status, stdout, stderr) =
        match crate::process::run(process, 1 << 20, || stop() || limits.past_deadline()) {
            Ok(crate::process::Ended::Exited {
                status,
                stdout,
                stderr,
            }) => (status, stdout, stderr),
            Ok(crate::process::Ended::Stopped) if limits.past_deadline() => {
                return Ok(Checked::OutOfTime)
            }
            Ok(crate::process::Ended::Stopped) => return Ok(Checked::Stopped),
            Ok(crate::process::Ended::Overflow { .. }) => {
                return Ok(Checked::Rejected(
                    "the checker printed more than 1 MiB".into(),
                ))
            }
            Err(e) => return Err(format!("the checker {} cannot be run: {e}", words[0])),
        };
    let stdout = String::from_utf8_lossy(&stdout);
    let verdict = stdout.lines().find(|l| l.starts_with("s ")).map(str::trim);
    if status.success() && verdict.is_none_or(|v| v == "s VERIFIED") {
        return Ok(Checked::Accepted);
    }
    let stderr = String::from_utf8_lossy(&stderr);
    let last = |text: &str| {
        text.lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(str::to_string)
    };
    let said = verdict
        .map(str::to_string)
        .or_else(|| last(&stderr))
        .or_else(|| last(&stdout))
        .unwrap_or_else(|| "no verdict".to_string());
    if verdict.is_none() {
        if let Some(line) = refused_memory(&stderr).or_else(|| refused_memory(&stdout)) {
            return Ok(Checked::OutOfMemory(line.to_string()));
        }
        if let Some(note) = signal_note(&status, limits.memory) {
            return Ok(Checked::Rejected(format!("{status}: {said}; {note}")));
        }
    }
    Ok(Checked::Rejected(format!("{status}: {said}")))
}

/// Runs `veripb -c OPB PROOF` as [`run_checker`] runs a DRAT checker, and accepts only its exit 0
/// with the verdict line `expected` (`s VERIFIED BOUNDS -2852 <= obj <= -2852`) and no warning:
/// veripb accepts a proof with unchecked assumptions (the `a` rule) and only warns after its
/// verdict. `-c` fails a deletion it cannot check instead of going on unchecked.
pub fn run_veripb(opb: &Path, proof: &Path, expected: &str, limits: Limits) -> Result<(), String> {
    let mut process = Command::new("veripb");
    process.arg("-c").arg(opb).arg(proof);
    // Bounded memory: veripb keeps every step it checks, about 80 bytes per byte of a DRAT
    // proof of many needless lemmas (which rate's backward check skips). Past the bound it
    // stops, and the proof is refused.
    limits.apply(&mut process);
    let (status, stdout, stderr) =
        match crate::process::run(process, 1 << 20, || limits.past_deadline()) {
            Ok(crate::process::Ended::Exited {
                status,
                stdout,
                stderr,
            }) => (status, stdout, stderr),
            Ok(crate::process::Ended::Stopped) => {
                return Err("veripb did not finish within the time limit".into())
            }
            Ok(crate::process::Ended::Overflow { .. }) => {
                return Err("veripb printed more than 1 MiB".into())
            }
            Err(e) => {
                return Err(format!(
                    "veripb cannot be run ({e}): cargo install --locked veripb --version 3.0.2"
                ))
            }
        };
    // Its messages name the proof by this process's descriptor: say `proof.pbp` instead.
    let name = proof.to_string_lossy().into_owned();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&stdout).replace(&name, "proof.pbp"),
        String::from_utf8_lossy(&stderr).replace(&name, "proof.pbp"),
    );
    let verdict = stdout.lines().find(|l| l.starts_with("s ")).map(str::trim);
    let warning = stdout
        .lines()
        .chain(stderr.lines())
        .map(str::trim)
        .find(|l| l.to_lowercase().contains("warning"));
    if let Some(w) = warning {
        return Err(format!("veripb warns: {w}"));
    }
    if status.success() && verdict == Some(expected) {
        return Ok(());
    }
    // Its reason: `Error: Verification error at FILE:LINE` and the line after `Caused by:`.
    let at = stderr
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("Error"));
    let cause = stderr
        .lines()
        .map(str::trim)
        .skip_while(|l| *l != "Caused by:")
        .nth(1);
    let mut why = match (at, cause) {
        (Some(at), Some(c)) => format!("{at}: {c}"),
        (Some(at), None) => at.to_string(),
        _ => verdict.unwrap_or("no verdict").to_string(),
    };
    if verdict.is_none() {
        if let Some(line) = refused_memory(&stderr).or_else(|| refused_memory(&stdout)) {
            return Err(format!(
                "veripb ran out of memory under its cap of {} (--memory raises it): {line}",
                bytes(limits.memory)
            ));
        }
        if let Some(note) = signal_note(&status, limits.memory) {
            why += &format!("; {note}");
        }
    }
    Err(format!(
        "veripb rejects the VeriPB proof ({status}: {why}; expected {expected})"
    ))
}
