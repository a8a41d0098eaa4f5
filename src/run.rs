//! `run`: a regression run over files and folders. Each puzzle file is solved in a child
//! process of its own (`puzzle-sat run-file`), so that a crash, an error or a timeout is that
//! row's failure and never the end of the run; the children run in parallel, and their rows
//! are compared with the expected answers found beside the puzzles and printed as one table,
//! JSON lines, or a snapshot without times for version control.

use crate::backends::Backend;
use crate::collection::Item;
use crate::output::{exit, Done};
use crate::process;
use crate::registry::{self, PUZZLES};
use crate::runner::{Options, Progress};
use anyhow::{anyhow, bail, Result};
use encodings::puzzle;
use serde_json::{json, Map, Value};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// `run`'s arguments.
#[derive(Clone, Debug, Default)]
pub struct RunArgs {
    pub paths: Vec<PathBuf>,
    /// The kind of every puzzle file, instead of finding it out per file.
    pub puzzle: Option<String>,
    pub json: bool,
    /// Per puzzle.
    pub time_limit: Option<Duration>,
    /// The solver flags as given, passed on to every child.
    pub solver_flags: Vec<String>,
    pub backend: Backend,
    /// Puzzles solved at once (default: one per core).
    pub jobs: Option<usize>,
    /// `--threads`: for a portfolio, the threads each puzzle races on.
    pub threads: Option<usize>,
    /// `--shard K/N`: this run's share, written as a shard's lines for `--merge`.
    pub shard: Option<(usize, usize)>,
    /// `--merge`: the paths are shards' outputs, to be joined into one run's.
    pub merge: bool,
    /// Compare the summary with this file, or write it there when it does not exist.
    pub snapshot: Option<PathBuf>,
    /// Overwrite the snapshot instead of comparing.
    pub update_snapshot: bool,
    pub quiet: bool,
}

/// Extensions of files that may be puzzles of a kind told by their folder or by `--puzzle`.
const PLAIN: [&str; 2] = ["txt", "in"];

/// A puzzle file to run, with its kind when known.
struct Job {
    file: PathBuf,
    puzzle: Option<&'static str>,
    /// Why it cannot be run at all (not a regular file, a folder that cannot be read): its row
    /// says so, and no child is started.
    unfit: Option<String>,
    /// One puzzle of a collection file: the child gets it as a file of its own.
    item: Option<Item>,
}

impl Job {
    fn new(file: PathBuf, puzzle: Option<&'static str>) -> Job {
        Job {
            file,
            puzzle,
            unfit: None,
            item: None,
        }
    }

    /// How its row names it: the file, or the collection's item (`FILE:LINE`, `FILE#KEY`).
    fn name(&self) -> String {
        self.item
            .as_ref()
            .map_or_else(|| self.file.display().to_string(), |i| i.name.clone())
    }
}

/// What the walk found besides the jobs.
#[derive(Default)]
struct Found {
    jobs: Vec<Job>,
    /// Files that are not puzzle files.
    skipped: usize,
    /// Of those, entries that are not regular files (FIFOs, sockets, devices, broken links):
    /// never opened, said once in the summary.
    special: usize,
}

/// What a file says of its kind, read once: its header, its extension, its folder.
struct Signs {
    /// A header line, and the puzzle it names if that is one.
    header: Option<Option<&'static str>>,
    /// The puzzle its extension names (a puzzle's name, or one the puzzle claims).
    extension: Option<&'static str>,
    /// For `.txt` and `.in` files, the nearest enclosing folder named after a puzzle.
    folder: Option<&'static str>,
    /// For `.txt` and `.in` files, the puzzle the file is named after (`kakkuro.txt`).
    stem: Option<&'static str>,
    plain: bool,
}

/// The signs of a regular file; `read` false for anything else, which is never opened (a FIFO
/// would wait for a writer), so its name alone tells.
fn signs(file: &Path, read: bool) -> Signs {
    let header = read
        .then(|| first_line(file))
        .flatten()
        .and_then(|l| puzzle::header(&l).map(|name| registry::find(name).map(|e| e.name())));
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let extension = PUZZLES
        .iter()
        .find(|e| e.name() == ext || e.extensions().contains(&ext))
        .map(|e| e.name());
    let plain = PLAIN.contains(&ext);
    let folder = plain
        .then(|| {
            file.ancestors()
                .skip(1)
                .find_map(|dir| registry::find(dir.file_name()?.to_str()?))
                .map(|e| e.name())
        })
        .flatten();
    let stem = plain
        .then(|| registry::find(file.file_stem()?.to_str()?).map(|e| e.name()))
        .flatten();
    Signs {
        header,
        extension,
        folder,
        stem,
        plain,
    }
}

/// The kind of `file`: `--puzzle`, else its header line, else its extension, else its name,
/// else its folder. `None` when nothing tells (or the header names no puzzle).
fn kind(signs: &Signs, forced: Option<&'static str>) -> Option<&'static str> {
    match (forced, signs.header) {
        (Some(f), _) => Some(f),
        (None, Some(named)) => named,
        (None, None) => signs.extension.or(signs.stem).or(signs.folder),
    }
}

fn first_line(file: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    crate::input::open_regular(file)
        .ok()?
        .take(256)
        .read_to_end(&mut head)
        .ok()?;
    let text = String::from_utf8_lossy(&head);
    Some(text.lines().next()?.to_string())
}

/// Whether a file met while walking a folder is a puzzle file.
fn is_candidate(signs: &Signs, forced: bool) -> bool {
    signs.extension.is_some()
        || signs.header.is_some()
        || signs.stem.is_some()
        || (signs.plain && (forced || signs.folder.is_some()))
}

/// The puzzle files under `paths` (folders walked in name order) and how many other files
/// were skipped. A file named on the command line is always a puzzle file; one that is not a
/// regular file gets a row that says so.
fn collect(paths: &[PathBuf], forced: Option<&'static str>) -> Result<Found> {
    let mut found = Found::default();
    let mut seen = HashSet::new();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => walk(path, forced, &mut found, &mut seen)
                .map_err(|e| anyhow!("{}: cannot read the folder: {e}", path.display()))?,
            Ok(m) => {
                let regular = m.is_file();
                // A file of many puzzles (read once: taken as it reads then).
                if let Some(items) = regular.then(|| collection(path, forced)).flatten() {
                    let known = kind(&signs(path, true), forced);
                    for item in items {
                        let says = PUZZLES
                            .iter()
                            .find(|e| item.is(e.name(), e.url_kinds()) == Some(true))
                            .map(|e| e.name());
                        let mut job = Job::new(path.clone(), forced.or(says).or(known));
                        job.unfit = item.broken.clone();
                        job.item = Some(item);
                        found.jobs.push(job);
                    }
                    continue;
                }
                let mut job = Job::new(path.clone(), kind(&signs(path, regular), forced));
                if !regular {
                    job.unfit = Some(format!(
                        "{}, not a regular file",
                        crate::input::kind_of(m.file_type())
                    ));
                }
                found.jobs.push(job);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!("{}: no such file or folder", path.display())
            }
            Err(e) => bail!("{}: {e}", path.display()),
        }
    }
    Ok(found)
}

/// The puzzles of a collection file named on the command line (URLs or sudokus a line,
/// puzzlekit's JSON); `None` for a file of one puzzle, or one that cannot be read (its row says
/// why).
fn collection(path: &Path, forced: Option<&'static str>) -> Option<Vec<Item>> {
    let input = crate::input::read_regular(path).ok()?;
    let items = crate::collection::items(&input)?;
    // Of `--puzzle`'s, if any can be (one-line sudokus may be another puzzle's rows).
    match forced.and_then(registry::find) {
        Some(e)
            if items
                .iter()
                .all(|i| i.is(e.name(), e.url_kinds()) == Some(false)) =>
        {
            None
        }
        _ => Some(items),
    }
}

/// Walks `dir` unless it was walked already (`seen` holds the folders walked):
/// links that lead back up, or twice to one folder, are followed once, so the walk ends. Only
/// what `dir` itself holds fails it: a subfolder that cannot be read is a row of its own, and
/// an entry that is not a regular file is never opened.
fn walk(
    dir: &Path,
    forced: Option<&'static str>,
    found: &mut Found,
    seen: &mut HashSet<(u64, u64)>,
) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    // Known by device and inode, not by its real path: `canonicalize` reads every link on the
    // way, and cost the cube of the depth (a 3,000-deep folder: over a minute).
    let meta = std::fs::metadata(dir)?;
    if !seen.insert((meta.dev(), meta.ino())) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        // Through links, as the walk follows them; a broken link is no regular file.
        let meta = std::fs::metadata(&path);
        match &meta {
            // The system's own pseudo-files (/proc, /sys, reached by a link) are no puzzles, and
            // some wait for ever when read (/proc/kmsg): not walked.
            Ok(m) if m.is_dir() && pseudo(&path) => {
                found.skipped += 1;
                continue;
            }
            Ok(m) if m.is_dir() => {
                if let Err(e) = walk(&path, forced, found, seen) {
                    let mut job = Job::new(path, forced);
                    job.unfit = Some(format!("cannot read the folder: {e}"));
                    found.jobs.push(job);
                }
                continue;
            }
            Ok(m) if m.is_file() => {
                // An empty file has no header to read (and a pseudo-file says it is empty).
                let signs = signs(&path, m.len() > 0);
                if is_candidate(&signs, forced.is_some()) {
                    found.jobs.push(Job::new(path, kind(&signs, forced)));
                } else {
                    found.skipped += 1;
                }
                continue;
            }
            _ => {}
        }
        // Not a regular file, or not one we may look at: a puzzle by its name gets a row that
        // says what it is instead.
        let broken = meta
            .as_ref()
            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
            && path.symlink_metadata().is_ok();
        let (unfit, special) = match &meta {
            Ok(m) => (
                format!(
                    "{}, not a regular file",
                    crate::input::kind_of(m.file_type())
                ),
                true,
            ),
            Err(_) if broken => (
                "a broken symbolic link, not a regular file".to_string(),
                true,
            ),
            Err(e) => (format!("cannot read: {e}"), false),
        };
        let signs = signs(&path, false);
        if is_candidate(&signs, forced.is_some()) {
            let mut job = Job::new(path, kind(&signs, forced));
            job.unfit = Some(unfit);
            found.jobs.push(job);
        } else {
            found.skipped += 1;
            found.special += usize::from(special);
        }
    }
    Ok(())
}

/// Whether `dir` is on the system's proc or sys file system.
fn pseudo(dir: &Path) -> bool {
    let Ok(name) = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    // SAFETY: statfs writes only into `fs`, from a NUL-terminated path.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(name.as_ptr(), &mut fs) } != 0 {
        return false;
    }
    const PROC: i64 = 0x9fa0;
    const SYS: i64 = 0x6265_6572;
    const DEBUG: i64 = 0x6462_6720;
    const TRACE: i64 = 0x7472_6163;
    [PROC, SYS, DEBUG, TRACE].contains(&(fs.f_type as i64))
}

/// The cores this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How long a puzzle of `run`'s default runs on one backend before the others join its race.
pub const STAGGER: Duration = Duration::from_millis(500);

/// How `run` shares the cores: puzzles at once, the threads each one's portfolio races on (1
/// for any other backend), and how long its later members wait. With `-j` or `--threads`
/// jobs × threads stay within the cores (unless both are given, taken as they are). Without
/// either, one job per core, each a race whose later members join after [`STAGGER`]: most
/// puzzles are solved before that on one core, as fast as one backend per core, and a longer
/// one is raced (the threads then pass the cores while two such run at once).
pub fn share(
    backend: &Backend,
    jobs: Option<usize>,
    threads: Option<usize>,
) -> (usize, usize, Duration) {
    let cores = cores();
    let Backend::Portfolio(members) = backend else {
        return (jobs.unwrap_or(cores), 1, Duration::ZERO);
    };
    match (jobs, threads) {
        (None, None) => (cores, members.len().max(1), STAGGER),
        (Some(j), None) => (j, (cores / j).max(1), Duration::ZERO),
        (None, Some(t)) => ((cores / t.max(1)).max(1), t.max(1), Duration::ZERO),
        (Some(j), Some(t)) => (j, t.max(1), Duration::ZERO),
    }
}

/// The run's rows, in file order.
fn run_jobs(a: &RunArgs, jobs: &[&Job]) -> Result<Vec<Map<String, Value>>> {
    // More workers than files, or than a few per core, only cost (each is a thread and a child).
    let cores = cores();
    let (workers, _, _) = share(&a.backend, a.jobs, a.threads);
    let threads = workers.min(4 * cores).min(jobs.len()).max(1);
    let exe = std::env::current_exe()
        .map_err(|e| anyhow!("cannot find the puzzle-sat binary to run: {e}"))?;
    let bar = Bar::new(jobs.len(), !a.quiet && std::io::stderr().is_terminal());
    // Each worker takes the next job in file order when it is free, so a slow puzzle never
    // holds a batch of others behind it, as a split of the list into parts would.
    let next = AtomicUsize::new(0);
    let rows = Mutex::new(Vec::with_capacity(jobs.len()));
    let work = || loop {
        // A signal ends the run: its cleanup then waits for no new child.
        if crate::cleanup::ending() {
            break;
        }
        let k = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(k) else { break };
        bar.started(&job.file);
        let row = child_row(&exe, a, job);
        bar.done();
        rows.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((k, row));
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            std::thread::Builder::new()
                .spawn_scoped(s, work)
                .map_err(|e| anyhow!("cannot start {threads} workers: {e}"))?;
        }
        work();
        Ok::<(), anyhow::Error>(())
    })?;
    bar.clear();
    let mut rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
    rows.sort_by_key(|(k, _)| *k);
    Ok(rows.into_iter().map(|(_, row)| row).collect())
}

/// The run's progress on a terminal's stderr, one line: a bar, files done of all, seconds
/// since the start, the latest file; redrawn at most ten times a second, cleared at the end.
struct Bar {
    total: usize,
    shown: bool,
    /// The terminal's width: a longer line would wrap, and `\r` redraw only its last row.
    columns: usize,
    start: Instant,
    /// Files done, the latest file started, and when the line was last drawn.
    state: Mutex<(usize, String, Option<Instant>)>,
}

impl Bar {
    fn new(total: usize, shown: bool) -> Bar {
        // SAFETY: TIOCGWINSZ fills the winsize given; on failure it is left zeroed.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        let columns = match unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) }
        {
            0 if size.ws_col > 0 => usize::from(size.ws_col),
            _ => 80,
        };
        Bar {
            total,
            shown,
            columns,
            start: Instant::now(),
            state: Mutex::new((0, String::new(), None)),
        }
    }

    fn started(&self, file: &Path) {
        self.update(|s| s.1 = file.display().to_string());
    }

    fn done(&self) {
        self.update(|s| s.0 += 1);
    }

    fn update(&self, change: impl FnOnce(&mut (usize, String, Option<Instant>))) {
        if !self.shown {
            return;
        }
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut s);
        let now = Instant::now();
        if s.2.is_some_and(|t| now - t < Duration::from_millis(100)) && s.0 < self.total {
            return;
        }
        s.2 = Some(now);
        const WIDTH: usize = 30;
        let filled = WIDTH * s.0 / self.total.max(1);
        let head = format!(
            "[{}{}] {}/{} {}s ",
            "#".repeat(filled),
            " ".repeat(WIDTH - filled),
            s.0,
            self.total,
            self.start.elapsed().as_secs()
        );
        // What fits of the file name, its end, which says most about it.
        let room = self.columns.saturating_sub(head.chars().count() + 1);
        let chars: Vec<char> = s.1.chars().collect();
        let file: String = chars[chars.len().saturating_sub(room)..].iter().collect();
        eprint!("\r\x1b[K{head}{file}");
    }

    fn clear(&self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

/// Runs one job in a child process and takes its row; a child that fails to give one is
/// turned into an error row here.
fn child_row(exe: &Path, a: &RunArgs, job: &Job) -> Map<String, Value> {
    let mut row = Map::new();
    row.insert("file".into(), json!(job.name()));
    row.insert("puzzle".into(), json!(job.puzzle));
    let error = |mut row: Map<String, Value>, status: &str, why: String| {
        row.insert("status".into(), json!(status));
        row.insert(
            "verdict".into(),
            json!(if status == "timeout" {
                "timeout"
            } else {
                "error"
            }),
        );
        row.insert("reason".into(), json!(why));
        row
    };
    if let Some(why) = &job.unfit {
        return error(row, "error", why.clone());
    }
    let Some(puzzle) = job.puzzle else {
        return error(row, "error", "cannot tell which puzzle this is: use --puzzle, a first line `puzzle-sat: NAME`, or the extension .NAME".into());
    };
    // The child's temporary files go into a folder of ours, removed after it even when a
    // signal kills it before it can clean up (one that lands between its fork and its exec
    // is taken by our handler, and the child runs on until the kill).
    let tmp = match crate::cleanup::temp_dir("run") {
        Ok(made) => made,
        Err(e) => return error(row, "error", format!("cannot make a temporary folder: {e}")),
    };
    // A collection's puzzle is a file of its own, its expected answer beside it.
    let file = match &job.item {
        Some(item) => {
            let file = tmp.path().join("puzzle.txt");
            let written = std::fs::write(&file, &item.text).and_then(|()| match &item.expected {
                Some(sol) => std::fs::write(tmp.path().join("puzzle.sol"), sol),
                None => Ok(()),
            });
            if let Err(e) = written {
                return error(
                    row,
                    "error",
                    format!("cannot write the puzzle for its child: {e}"),
                );
            }
            file
        }
        None => job.file.clone(),
    };
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("run-file")
        .arg(puzzle)
        .arg(&file)
        .args(&a.solver_flags)
        .env("TMPDIR", tmp.path());
    if let Backend::Portfolio(_) = a.backend {
        let (_, threads, stagger) = share(&a.backend, a.jobs, a.threads);
        cmd.arg(format!("--threads={threads}"));
        if !stagger.is_zero() {
            cmd.arg(format!("--stagger={}", stagger.as_secs_f64()));
        }
    }
    if let Some(t) = a.time_limit {
        cmd.arg(format!("--time-limit={}", t.as_secs_f64()));
    }
    // The child keeps its own time limit; this one catches a child that cannot (a long
    // encoding, a hung solver).
    let started = Instant::now();
    let hard = a
        .time_limit
        .map(|t| t.saturating_add(Duration::from_secs(30)));
    let ended = process::run(cmd, 1 << 20, || hard.is_some_and(|h| started.elapsed() > h));
    match ended {
        Ok(process::Ended::Exited {
            status,
            stdout,
            stderr,
        }) => match serde_json::from_slice::<Value>(&stdout) {
            Ok(Value::Object(mut child)) if status.success() => {
                if let Some(item) = &job.item {
                    child.insert("file".into(), json!(item.name));
                    // Its messages name the collection's puzzle and solution, not the child's
                    // copies.
                    let sol = tmp.path().join("puzzle.sol").display().to_string();
                    let given = format!("{} (its solution)", item.name);
                    for key in ["reason", "expected"] {
                        if let Some(Value::String(text)) = child.get_mut(key) {
                            *text = text
                                .replace(&sol, &given)
                                .replace(&file.display().to_string(), &item.name)
                                .replace("puzzle.sol", "the collection's solution");
                        }
                    }
                }
                child
            }
            _ => {
                let tail = String::from_utf8_lossy(&stderr);
                let last = tail
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("")
                    .trim()
                    .to_string();
                let how = match (
                    status.code(),
                    std::os::unix::process::ExitStatusExt::signal(&status),
                ) {
                    (Some(code), _) => format!("exit status {code}"),
                    (_, Some(sig)) => format!("killed by signal {sig}"),
                    _ => status.to_string(),
                };
                error(row, "error", format!("crashed ({how}): {last}"))
            }
        },
        Ok(process::Ended::Stopped) => error(
            row,
            "timeout",
            format!(
                "killed after {:.0} s without an answer",
                started.elapsed().as_secs_f64()
            ),
        ),
        Ok(process::Ended::Overflow { .. }) => {
            error(row, "error", "printed more than a row".into())
        }
        Err(e) => error(row, "error", format!("cannot run {}: {e}", exe.display())),
    }
}

fn text(row: &Map<String, Value>, key: &str) -> String {
    match row.get(key) {
        None | Some(Value::Null) => "-".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// What the row found, in one word: the score, or the number of solutions.
fn found(row: &Map<String, Value>) -> String {
    match (row.get("solutions"), row.get("unique")) {
        (Some(_), Some(Value::Bool(true))) => "unique".into(),
        (Some(_), Some(Value::Bool(false))) => "several".into(),
        (Some(n), _) if n == &json!(0) => "none".into(),
        (Some(n), _) => format!("{n} found"),
        _ => text(row, "score"),
    }
}

fn failed(row: &Map<String, Value>) -> bool {
    !matches!(
        row.get("verdict").and_then(Value::as_str),
        Some("pass" | "ok")
    )
}

fn table(rows: &[Map<String, Value>]) -> String {
    let head = [
        "file",
        "puzzle",
        "status",
        "score/count",
        "proved",
        "seconds",
        "variables",
        "clauses",
        "backend",
        "result",
    ];
    let mut lines: Vec<Vec<String>> = vec![head.iter().map(|h| h.to_string()).collect()];
    for r in rows {
        let seconds = r
            .get("seconds")
            .and_then(Value::as_f64)
            .map_or("-".into(), |s| format!("{s:.2}"));
        let proved = proved(r);
        lines.push(vec![
            text(r, "file"),
            text(r, "puzzle"),
            text(r, "status"),
            found(r),
            proved.into(),
            seconds,
            text(r, "variables"),
            text(r, "clauses"),
            text(r, "backend"),
            text(r, "verdict"),
        ]);
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|k| {
            lines
                .iter()
                .map(|l| l[k].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
    }
    for r in rows.iter().filter(|r| failed(r)) {
        let _ = writeln!(
            out,
            "{}: {}: {}",
            text(r, "verdict").to_uppercase(),
            text(r, "file"),
            text(r, "reason")
        );
    }
    out
}

/// The `proved` column: yes, no, or (on an external solver's word) unchecked.
fn proved(row: &Map<String, Value>) -> &'static str {
    match (
        row.get("proved"),
        row.get("unsat_answers").and_then(Value::as_str),
    ) {
        (Some(Value::Bool(true)), Some("unchecked")) => "unchecked",
        (Some(Value::Bool(true)), _) => "yes",
        (Some(Value::Bool(false)), _) => "no",
        _ => "-",
    }
}

/// The stable part of the rows: no times, sizes or backend, so that it changes only when an
/// answer does.
pub fn snapshot(rows: &[Map<String, Value>]) -> String {
    let mut out = String::from(
        "# puzzle-sat run snapshot: file, puzzle, status, score or solutions, proved, result\n",
    );
    for r in rows {
        let proved = match proved(r) {
            "yes" => "true",
            "no" => "false",
            other => other,
        };
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}",
            text(r, "file"),
            text(r, "puzzle"),
            text(r, "status"),
            found(r),
            proved,
            text(r, "verdict")
        );
    }
    out
}

fn summary(rows: &[Map<String, Value>], skipped: usize, special: usize) -> String {
    let count = |v: &str| {
        rows.iter()
            .filter(|r| r.get("verdict").and_then(Value::as_str) == Some(v))
            .count()
    };
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}: {} passed, {} failed, {}, {} timed out, {} without an expected answer; {} skipped{}\n",
        plural(rows.len(), "puzzle", "puzzles"),
        count("pass"),
        count("fail"),
        plural(count("error"), "error", "errors"),
        count("timeout"),
        count("ok"),
        plural(skipped, "other file", "other files"),
        match special {
            0 => String::new(),
            1 => " (1 of them not a regular file, left unopened)".into(),
            n => format!(" ({n} of them not regular files, left unopened)"),
        },
    )
}

/// A snapshot's insta header (`---` lines around `key: value` lines), if it has one, and the
/// rest.
fn insta_header(text: &str) -> (&str, &str) {
    if let Some(rest) = text.strip_prefix("---\n") {
        if let Some(end) = rest.find("\n---\n") {
            let at = 4 + end + 5;
            return (&text[..at], &text[at..]);
        }
    }
    ("", text)
}

/// Compares (or writes) the snapshot: the differences, if any.
fn check_snapshot(path: &Path, now: &str, update: bool) -> Result<Option<String>> {
    let stored = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        // A FIFO there would make the run wait at its end: regular files only.
        _ => Some(
            crate::input::read_regular(path)
                .map_err(|e| anyhow!("cannot read the snapshot: {e:#}"))?
                .text,
        ),
    };
    // An insta snapshot (the tests keep theirs so) starts with a `---` header: compared
    // without it, and kept when the snapshot is rewritten.
    let (header, old) = stored.as_deref().map_or(("", ""), insta_header);
    if update || stored.is_none() {
        write_regular(path, format!("{header}{now}").as_bytes())
            .map_err(|e| anyhow!("{}: cannot write the snapshot: {e}", path.display()))?;
        eprintln!("puzzle-sat: wrote the snapshot {}", path.display());
        return Ok(None);
    }
    if old == now {
        return Ok(None);
    }
    let old_lines: std::collections::HashSet<&str> = old.lines().collect();
    let new_lines: std::collections::HashSet<&str> = now.lines().collect();
    let mut diff = format!(
        "the snapshot {} differs (--update-snapshot rewrites it):\n",
        path.display()
    );
    for l in old.lines().filter(|l| !new_lines.contains(l)) {
        diff += &format!("- {l}\n");
    }
    for l in now.lines().filter(|l| !old_lines.contains(l)) {
        diff += &format!("+ {l}\n");
    }
    Ok(Some(diff))
}

/// Writes `bytes` to `path` only if it is (or becomes) a regular file: a FIFO put there after
/// the snapshot was read would make a plain write wait in `open` for a reader, for good.
fn write_regular(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: a FIFO without a reader fails the open (ENXIO) instead of waiting for one.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{}, not a regular file", crate::input::kind_of(kind)),
        ));
    }
    file.write_all(bytes)
}

pub fn run(a: &RunArgs) -> Result<Done> {
    if a.paths.is_empty() {
        bail!("run needs at least one file or folder");
    }
    if a.merge {
        return merge(a);
    }
    let forced = match &a.puzzle {
        Some(name) => Some(
            registry::find(name)
                .ok_or_else(|| anyhow!("no puzzle called {name}"))?
                .name(),
        ),
        None => None,
    };
    let Found {
        jobs,
        skipped,
        special,
    } = collect(&a.paths, forced)?;
    if jobs.is_empty() {
        bail!(
            "no puzzle files found ({skipped} other file{} skipped): a puzzle file has a puzzle-sat: header, a puzzle's extension or name, or sits in a folder named after its puzzle; --puzzle NAME takes every .txt and .in file",
            if skipped == 1 { "" } else { "s" }
        );
    }
    let share = match a.shard {
        Some(shard) => Some(shard),
        None => crate::shard::from_slurm()?,
    };
    let Some(shard) = share else {
        let rows = run_jobs(a, &jobs.iter().collect::<Vec<_>>())?;
        return report(a, rows, skipped, special);
    };
    let names: Vec<String> = jobs.iter().map(Job::name).collect();
    let mine: Vec<&Job> = crate::shard::share(jobs.len(), shard)
        .map(|k| &jobs[k])
        .collect();
    let rows = run_jobs(a, &mine)?;
    let bad = rows.iter().any(failed);
    // What changes a row, which every shard of one run must share (not -j or --threads).
    let mut settings: Vec<String> = a.puzzle.iter().map(|p| format!("--puzzle={p}")).collect();
    settings.extend(
        a.time_limit
            .map(|t| format!("--time-limit={}", t.as_secs_f64())),
    );
    settings.extend(a.solver_flags.iter().cloned());
    let stdout = crate::shard::write(
        shard,
        &names,
        rows,
        crate::shard::Summary { skipped, special },
        &shell_words::join(&settings),
    );
    Ok(Done {
        stdout,
        code: if bad { exit::NO_SOLUTION } else { exit::ANSWER },
    })
}

/// `run --merge`: the shards' rows, joined into what one run over everything prints.
fn merge(a: &RunArgs) -> Result<Done> {
    let (rows, summary) = crate::shard::read(&a.paths)?;
    report(a, rows, summary.skipped, summary.special)
}

/// The rows of a whole run printed as asked (table or JSON lines, the summary, the snapshot
/// compared): by `run` itself and by `run --merge` alike.
fn report(
    a: &RunArgs,
    rows: Vec<Map<String, Value>>,
    skipped: usize,
    special: usize,
) -> Result<Done> {
    let mut stdout = if a.json {
        rows.iter()
            .map(|r| Value::Object(r.clone()).to_string() + "\n")
            .collect()
    } else {
        table(&rows)
    };
    if !a.json {
        stdout += &summary(&rows, skipped, special);
    } else if !a.quiet {
        eprint!("{}", summary(&rows, skipped, special));
    }
    let mut bad = rows.iter().any(failed);
    if let Some(path) = &a.snapshot {
        if let Some(diff) = check_snapshot(path, &snapshot(&rows), a.update_snapshot)? {
            eprint!("{diff}");
            bad = true;
        }
    }
    Ok(Done {
        stdout,
        code: if bad { exit::NO_SOLUTION } else { exit::ANSWER },
    })
}

/// `run-file`: the child's side, one row as a JSON line.
pub fn run_file(
    puzzle: &str,
    file: &Path,
    backend: Backend,
    time_limit: Option<Duration>,
    stagger: Option<Duration>,
) -> Result<Done> {
    let entry = registry::find(puzzle).ok_or_else(|| anyhow!("no puzzle called {puzzle}"))?;
    if let Some(wait) = stagger {
        crate::runner::stagger_later_members(wait);
    }
    let opts = Options {
        backend,
        time_limit,
        progress: Progress::Never,
        cubes: None,
    };
    let row = entry.run_file(file, &opts);
    Ok(Done {
        stdout: Value::Object(row).to_string() + "\n",
        code: exit::ANSWER,
    })
}

#[cfg(test)]
mod tests {
    use super::{cores, share};
    use crate::backends::Backend;

    /// Jobs times threads stay within the cores unless both are given; a portfolio races on
    /// as many cores as it has members by default.
    #[test]
    fn run_shares_the_cores_between_jobs_and_a_portfolio() {
        let c = cores();
        let two = Backend::Portfolio(vec![Backend::Varisat, Backend::Varisat]);
        let none = std::time::Duration::ZERO;
        assert_eq!(share(&Backend::Varisat, None, None), (c, 1, none));
        assert_eq!(share(&Backend::Varisat, Some(3), Some(4)), (3, 1, none));
        // The default: a job per core, each raced after the stagger.
        assert_eq!(share(&two, None, None), (c, 2, super::STAGGER));
        for j in 1..=2 * c {
            let (jobs, threads, stagger) = share(&two, Some(j), None);
            assert_eq!((jobs, stagger), (j, none));
            assert!(
                threads >= 1 && (j * threads <= c || threads == 1),
                "{j} {threads}"
            );
        }
        for t in 1..=2 * c {
            let (jobs, threads, stagger) = share(&two, None, Some(t));
            assert_eq!((threads, stagger), (t, none));
            assert!(jobs >= 1 && (jobs * t <= c || jobs == 1), "{jobs} {t}");
        }
        assert_eq!(share(&two, Some(5), Some(7)), (5, 7, none));
    }

    /// A FIFO put where the snapshot is to be written is an error at once, not a wait in `open`
    /// for a reader (one `run --snapshot` in seven hung so while a FIFO came and went there).
    #[test]
    fn a_snapshot_is_never_written_into_a_fifo() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("snap");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a plain system call on a path we own.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        assert!(super::write_regular(&fifo, b"x").is_err());
        let file = dir.path().join("file");
        super::write_regular(&file, b"x").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"x");
    }
}
