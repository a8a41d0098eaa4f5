//! What an interrupted puzzle-sat leaves behind: nothing. On SIGINT, SIGTERM or SIGHUP (a
//! closed terminal) the process groups of the children it runs (external solvers, `run`'s
//! workers) are ended and its temporary folders removed, as a normal end would, before it exits
//! with 128 + the signal. SIGKILL cannot be caught: children still die with it, by their death
//! signal, and the temporary folder that stays is removed by the next puzzle-sat that makes one
//! (each folder is locked by the process that made it, so a folder nobody locks is left over).

use std::fs::File;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());
static ENDING: AtomicBool = AtomicBool::new(false);
static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// An answer is being written to standard output: the end waits for it (a while), so that what
/// was printed is whole.
static WRITING: AtomicBool = AtomicBool::new(false);

/// How long the end waits for an answer being written (a reader that stops reading a pipe
/// would hold it forever).
const WRITE_GRACE: Duration = Duration::from_secs(5);

/// How long children (`run`'s workers, which clean up after themselves) get after SIGTERM
/// before they are killed.
const CHILDREN_GRACE: Duration = Duration::from_secs(1);

/// Starts the thread that answers SIGINT, SIGTERM and SIGHUP. Called once, by `main`.
pub fn install() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            end(signal);
        }
    });
}

fn end(signal: i32) -> ! {
    ENDING.store(true, Ordering::SeqCst);
    // After the flag: a spawn under way finishes and is listed, none starts after.
    let groups = GROUPS
        .lock()
        .map(|g| g.clone())
        .unwrap_or_else(|e| e.into_inner().clone());
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
    for folder in FOLDERS
        .lock()
        .map(|f| f.clone())
        .unwrap_or_else(|e| e.into_inner().clone())
    {
        // The command's own thread may still write a file into it as it goes.
        for _ in 0..5 {
            if std::fs::remove_dir_all(&folder).is_ok() || !folder.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    let asked = Instant::now();
    while WRITING.load(Ordering::SeqCst) && asked.elapsed() < WRITE_GRACE {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::process::exit(128 + signal);
}

/// Writes `bytes` to `out` whole, unless a signal's end has begun (then nothing, and `false`):
/// the end waits for a write under way, and no write starts after it began.
pub fn write_whole(out: &mut impl std::io::Write, bytes: &[u8]) -> std::io::Result<bool> {
    // Flag first, then look: either the end sees the flag and waits, or this sees the end.
    WRITING.store(true, Ordering::SeqCst);
    if ending() {
        WRITING.store(false, Ordering::SeqCst);
        return Ok(false);
    }
    let written = out.write_all(bytes).and_then(|()| out.flush());
    WRITING.store(false, Ordering::SeqCst);
    written.map(|()| true)
}

/// Whether a signal is being answered: the command's own end (its solver killed under it) then
/// waits for the cleanup's exit instead of exiting first with an error of its own.
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// Nothing new is started once a signal's end has begun.
fn refuse_if_ending() -> std::io::Result<()> {
    match ending() {
        true => Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "puzzle-sat is ending on a signal",
        )),
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
/// once in `a_run_ended_while_starting_children_leaves_nothing_behind`). It is locked while it
/// lives: see [`sweep`].
pub struct TempFolder {
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
    /// The folder opened and `flock`ed; the lock goes with this process, however it ends.
    _lock: File,
}

impl TempFolder {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// What every temporary folder's name starts with; [`sweep`] looks at no other.
const PREFIX: &str = "puzzle-sat.";

/// A folder younger than this is never swept: it may be one made a moment ago and not locked yet.
const SWEEP_AGE: Duration = Duration::from_secs(60);

/// A new temporary folder named `puzzle-sat.{purpose}.…`, tracked: made and listed under the
/// lock the signal's end takes before it removes the listed ones, and not once it has begun (a
/// folder made during the end would stay). The first one a process makes sweeps away what
/// killed processes left.
pub fn temp_dir(purpose: &str) -> std::io::Result<TempFolder> {
    debug_assert!(
        PURPOSES.contains(&purpose),
        "{purpose}: not a purpose the sweep knows"
    );
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| {
        sweep(&std::env::temp_dir());
    });
    let mut folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
    refuse_if_ending()?;
    let dir = tempfile::Builder::new()
        .prefix(&format!("{PREFIX}{purpose}."))
        .rand_bytes(6)
        .tempdir()?;
    let lock = File::open(dir.path())?;
    // SAFETY: a plain system call on a descriptor we own.
    if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    folders.push(dir.path().to_path_buf());
    Ok(TempFolder {
        path: dir.path().to_path_buf(),
        dir: Some(dir),
        _lock: lock,
    })
}

/// What [`temp_dir`] asks of us.
const PURPOSES: [&str; 5] = ["run", "solver", "check", "certify", "verify"];

/// Whether `name` is one [`temp_dir`] makes: `puzzle-sat.{purpose}.` and tempfile's six random
/// letters and digits, nothing else. A prefix alone is not enough: a folder someone named
/// `puzzle-sat.backup` or a certificate written to `$TMPDIR/puzzle-sat.cert` is theirs.
fn made_here(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return false;
    };
    let Some((purpose, random)) = rest.split_once('.') else {
        return false;
    };
    PURPOSES.contains(&purpose)
        && random.len() == 6
        && random.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Removes the temporary folders in `tmp` that a killed puzzle-sat left: ours by name and owner,
/// a minute old, and locked by nobody (a live process holds its folder's lock, and the lock
/// goes with the process, SIGKILL or not). Returns how many it removed.
pub fn sweep(tmp: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return 0;
    };
    // SAFETY: getuid cannot fail.
    let me = unsafe { libc::getuid() };
    let mut removed = 0;
    for entry in entries.flatten() {
        if !made_here(&entry.file_name().to_string_lossy()) {
            continue;
        }
        let path = entry.path();
        // Not through a link, only a folder of ours that has had the time to be locked.
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age >= SWEEP_AGE);
        if !meta.is_dir() || meta.uid() != me || !old {
            continue;
        }
        let Ok(dir) = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_DIRECTORY)
            .open(&path)
        else {
            continue;
        };
        // SAFETY: as in `temp_dir`. Held until the folder is gone, so no other sweep races us.
        if unsafe { libc::flock(dir.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0
            && std::fs::remove_dir_all(&path).is_ok()
        {
            removed += 1;
        }
    }
    removed
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
        let r = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        r != 0 || info.si_pid() != 0
    }
}
