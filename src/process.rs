//! Running a child process that may have to be stopped: its own process group (a stop kills
//! whatever it started too), death with puzzle-sat, pipes read in threads with a cap on
//! stdout and the tail of stderr kept. Used by the external-solver backend and by `run`,
//! which solves each puzzle in a child so that a crash is one row's failure.

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// How much of a child's stderr is kept while it runs.
pub const STDERR_KEPT: usize = 64 * 1024;
/// How often a running child is checked for having ended or being stopped.
const POLL: Duration = Duration::from_millis(10);
/// How long a child's pipes may stay open after it ended and its group was killed.
const LEFT_OPEN: Duration = Duration::from_secs(2);

/// How a child ended.
pub enum Ended {
    Exited {
        status: ExitStatus,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    /// `stop` said so; the child was killed.
    Stopped,
    /// It printed more than the limit on stdout and was killed.
    Overflow { stderr: Vec<u8> },
}

/// Runs `process` (stdin closed, stdout and stderr piped) until it ends, `stop()` turns true,
/// or it prints more than `limit` bytes on stdout. When it ends, what is left of its process
/// group is killed. Only a child that cannot be started or waited for, or that leaves a process
/// outside its group holding its output open, is an error.
pub fn run(mut process: Command, limit: u64, stop: impl Fn() -> bool) -> io::Result<Ended> {
    process
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A group of its own, so a stop kills whatever a wrapper script started too; it then
    // misses the terminal's Ctrl-C, hence the death signal.
    process.process_group(0);
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id();
        // SAFETY: between fork and exec only async-signal-safe work: prctl, getppid, and
        // errors made from a number (no allocation; std reports any error as its errno).
        unsafe {
            process.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(io::Error::last_os_error());
                }
                // The parent may have died before the signal was asked for.
                if libc::getppid() as u32 != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    // Ended with puzzle-sat on SIGINT or SIGTERM; the group is dropped (at return) only once reaped.
    let (mut child, _group) = crate::cleanup::spawn(&mut process)?;

    // Read in threads, so a child that fills one pipe while we wait on it cannot hang.
    let overflow = Arc::new(AtomicBool::new(false));
    let stdout = child.stdout.take().expect("stdout is piped");
    let stdout = thread::spawn({
        let overflow = overflow.clone();
        move || read_capped(stdout, limit, &overflow)
    });
    let stderr = child.stderr.take().expect("stderr is piped");
    let stderr = thread::spawn(move || read_tail(stderr));

    // Short first pauses, so quick children are not slowed to the poll's pace.
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if ended(&child) {
            // Whatever it left behind in its group goes with it (processes that would hold its
            // pipes open, or touch its files after it answered); it is reaped only after, so
            // the group's number cannot meanwhile be another's.
            kill(&mut child);
            match child.wait() {
                Ok(status) => break status,
                Err(e) => return Err(e),
            }
        }
        if stop() {
            // Its output is not wanted: the readers end when its pipes close.
            kill(&mut child);
            return Ok(Ended::Stopped);
        }
        if overflow.load(Ordering::Relaxed) {
            kill(&mut child);
            return Ok(Ended::Overflow {
                stderr: stderr.join().expect("stderr reader"),
            });
        }
        thread::sleep(pause);
        pause = (pause * 2).min(POLL);
    };
    // A process that left the group (a new session) may still hold the pipes: wait for the
    // readers only so long, and as long as the run is not stopped.
    let waited = std::time::Instant::now();
    while !(stdout.is_finished() && stderr.is_finished()) {
        if stop() || waited.elapsed() > LEFT_OPEN {
            return Err(io::Error::other(
                "it ended, but a process it started still holds its output open",
            ));
        }
        thread::sleep(POLL);
    }
    let stdout = stdout.join().expect("stdout reader");
    let stderr = stderr.join().expect("stderr reader");
    if overflow.load(Ordering::Relaxed) {
        return Ok(Ended::Overflow { stderr });
    }
    Ok(Ended::Exited {
        status,
        stdout,
        stderr,
    })
}

/// Up to `limit` bytes; past that, raises `overflow` and stops reading (the child then
/// meets a closed pipe, and is killed).
fn read_capped(pipe: impl Read, limit: u64, overflow: &AtomicBool) -> Vec<u8> {
    let mut text = Vec::new();
    let _ = pipe.take(limit + 1).read_to_end(&mut text);
    if text.len() as u64 > limit {
        overflow.store(true, Ordering::Relaxed);
    }
    text
}

/// The last [`STDERR_KEPT`] bytes, however much is written.
fn read_tail(mut pipe: impl Read) -> Vec<u8> {
    let mut tail = Vec::new();
    let mut chunk = [0; 8192];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return tail,
            Ok(n) => tail.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return tail,
        }
        if tail.len() > 2 * STDERR_KEPT {
            tail.drain(..tail.len() - STDERR_KEPT);
        }
    }
}

/// Whether the child has ended, without reaping it: see [`exited_unreaped`].
fn ended(child: &Child) -> bool {
    crate::cleanup::exited_unreaped(child.id())
}

/// Kills the child's process group, and reaps the child.
fn kill(child: &mut Child) {
    // SAFETY: a plain system call. The group cannot be another's: its leader is not reaped yet.
    unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
    let _ = child.wait();
}
