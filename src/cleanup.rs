//! What an interrupted puzzle-sat leaves behind: nothing. On SIGINT or SIGTERM the process
//! groups of the children it runs (external solvers, `run`'s workers) are ended and its
//! temporary folders removed, as a normal end would, before it exits with 128 + the signal.
//! (SIGKILL cannot be caught: children still die with it, by their death signal, but a
//! temporary folder stays.)

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
static ENDING: AtomicBool = AtomicBool::new(false);
static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How long children (`run`'s workers, which clean up after themselves) get after SIGTERM
/// before they are killed.
const CHILDREN_GRACE: Duration = Duration::from_secs(1);

/// Starts the thread that answers SIGINT and SIGTERM. Called once, by `main`.
pub fn install() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else { return };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            end(signal);
        }
    });
}

fn end(signal: i32) -> ! {
    ENDING.store(true, Ordering::SeqCst);
    // After the flag: a spawn under way finishes and is listed, none starts after.
    let groups = GROUPS.lock().map(|g| g.clone()).unwrap_or_else(|e| e.into_inner().clone());
    for &g in &groups {
        // SAFETY: plain system calls on process groups this process started and has not reaped.
        unsafe { libc::kill(-g, libc::SIGTERM) };
    }
    let asked = Instant::now();
    while asked.elapsed() < CHILDREN_GRACE && !groups.iter().all(|&g| exited_unreaped(g as u32)) {
        std::thread::sleep(Duration::from_millis(10));
    }
    for &g in &groups {
        // SAFETY: as above.
        unsafe { libc::kill(-g, libc::SIGKILL) };
    }
    for folder in FOLDERS.lock().map(|f| f.clone()).unwrap_or_else(|e| e.into_inner().clone()) {
        // The command's own thread may still write a file into it as it goes.
        for _ in 0..5 {
            if std::fs::remove_dir_all(&folder).is_ok() || !folder.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    std::process::exit(128 + signal);
}

/// Whether a signal is being answered: the command's own end (its solver killed under it) then
/// waits for the cleanup's exit instead of exiting first with an error of its own.
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// Nothing new is started once a signal's end has begun.
fn refuse_if_ending() -> std::io::Result<()> {
    match ending() {
        true => Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "puzzle-sat is ending on a signal")),
        false => Ok(()),
    }
}

/// A child's process group, ended on a signal while this lives.
pub struct Group(i32);

/// Starts `command` (a process group of its own) and tracks its group. The two happen under
/// the lock the signal's end takes before it lists the groups, and not once it has begun: a
/// child started during the end would be left out, killed only by its death signal, and leave
/// its temporary files behind.
pub fn spawn(command: &mut std::process::Command) -> std::io::Result<(std::process::Child, Group)> {
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    refuse_if_ending()?;
    let child = command.spawn()?;
    let g = child.id() as i32;
    groups.push(g);
    Ok((child, Group(g)))
}

impl Drop for Group {
    fn drop(&mut self) {
        if let Ok(mut groups) = GROUPS.lock() {
            groups.retain(|&g| g != self.0);
        }
    }
}

/// A temporary folder, removed on a signal while it is listed, and otherwise when dropped:
/// removed first, unlisted after, so that a signal between the two still finds it listed (the
/// other order, a `TempDir` and a listing dropped one after the other, left a folder behind
/// once in `a_run_ended_while_starting_children_leaves_nothing_behind`).
pub struct TempFolder {
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

impl TempFolder {
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
}

/// A new temporary folder named `prefix…`, tracked: made and listed under the lock the
/// signal's end takes before it removes the listed ones, and not once it has begun (a folder
/// made during the end would stay).
pub fn temp_dir(prefix: &str) -> std::io::Result<TempFolder> {
    let mut folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
    refuse_if_ending()?;
    let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
    folders.push(dir.path().to_path_buf());
    Ok(TempFolder { path: dir.path().to_path_buf(), dir: Some(dir) })
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        drop(self.dir.take());
        if let Ok(mut folders) = FOLDERS.lock() {
            folders.retain(|f| *f != self.path);
        }
    }
}

/// Whether our child `pid` has ended, without reaping it (`WNOWAIT`): its process group stays
/// its own until it is reaped. A failed wait (one reaped already) counts as ended.
pub fn exited_unreaped(pid: u32) -> bool {
    // SAFETY: a plain system call on our own child, writing only into `info`.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT);
        r != 0 || info.si_pid() != 0
    }
}
