//! What an interrupted puzzle-sat leaves behind: nothing. On SIGINT or SIGTERM the process
//! groups of the children it runs (external solvers, `run`'s workers) are ended and its
//! temporary folders removed, as a normal end would, before it exits with 128 + the signal.
//! (SIGKILL cannot be caught: children still die with it, by their death signal, but a
//! temporary folder stays.)

use std::path::{Path, PathBuf};
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
    let groups = GROUPS.lock().map(|g| g.clone()).unwrap_or_default();
    for &g in &groups {
        // SAFETY: plain system calls on process groups this process started and has not reaped.
        unsafe { libc::kill(-g, libc::SIGTERM) };
    }
    let asked = Instant::now();
    while asked.elapsed() < CHILDREN_GRACE && !groups.iter().all(|&g| crate::process::exited_unreaped(g as u32)) {
        std::thread::sleep(Duration::from_millis(10));
    }
    for &g in &groups {
        // SAFETY: as above.
        unsafe { libc::kill(-g, libc::SIGKILL) };
    }
    for folder in FOLDERS.lock().map(|f| f.clone()).unwrap_or_default() {
        let _ = std::fs::remove_dir_all(folder);
    }
    std::process::exit(128 + signal);
}

/// Whether a signal is being answered: the command's own end (its solver killed under it) then
/// waits for the cleanup's exit instead of exiting first with an error of its own.
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// A child's process group, ended on a signal while this lives.
pub struct Group(i32);

impl Group {
    pub fn new(pid: u32) -> Group {
        let g = pid as i32;
        if let Ok(mut groups) = GROUPS.lock() {
            groups.push(g);
        }
        Group(g)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if let Ok(mut groups) = GROUPS.lock() {
            groups.retain(|&g| g != self.0);
        }
    }
}

/// A temporary folder, removed on a signal while this lives (its owner removes it otherwise).
pub struct Folder(PathBuf);

impl Folder {
    pub fn new(path: &Path) -> Folder {
        if let Ok(mut folders) = FOLDERS.lock() {
            folders.push(path.to_path_buf());
        }
        Folder(path.to_path_buf())
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        if let Ok(mut folders) = FOLDERS.lock() {
            folders.retain(|f| *f != self.0);
        }
    }
}
