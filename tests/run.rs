//! `run`: regression runs over the bundled corpora and over a folder of troublemakers.

mod common;

use common::{data_dir, run};
use serde_json::Value;
use std::fs;
use std::path::Path;

fn rows(stdout: &str) -> Vec<serde_json::Map<String, Value>> {
    stdout
        .lines()
        .map(|l| match serde_json::from_str(l) {
            Ok(Value::Object(m)) => m,
            _ => panic!("not a JSON object: {l}"),
        })
        .collect()
}

fn field<'a>(row: &'a serde_json::Map<String, Value>, key: &str) -> &'a str {
    row.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {key} in {row:?}"))
}

fn row_of<'a>(
    rows: &'a [serde_json::Map<String, Value>],
    file: &str,
) -> &'a serde_json::Map<String, Value> {
    rows.iter()
        .find(|r| field(r, "file").ends_with(file))
        .unwrap_or_else(|| panic!("no row for {file}"))
}

/// The puzzle files under `dir` by puzzle, and how many of them have an answer beside them.
fn data_files(dir: &Path) -> (std::collections::BTreeMap<String, usize>, usize) {
    let mut files = std::collections::BTreeMap::new();
    let mut answered = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("fuzz") {
                    stack.push(path);
                }
                continue;
            }
            let puzzle = match path.extension().and_then(|e| e.to_str()) {
                Some("in") => "target-sudoku".to_string(),
                Some("txt") => path
                    .strip_prefix(dir)
                    .unwrap()
                    .components()
                    .next()
                    .unwrap()
                    .as_os_str()
                    .to_string_lossy()
                    .into_owned(),
                _ => continue,
            };
            *files.entry(puzzle).or_insert(0) += 1;
            let stem = path.with_extension("");
            answered += ["sol", "out", "out.computed", "score"]
                .iter()
                .any(|ext| Path::new(&format!("{}.{ext}", stem.display())).is_file())
                as usize;
        }
    }
    (files, answered)
}

#[test]
fn every_bundled_corpus_passes_and_matches_its_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("corpus.snapshot");
    let r = run(
        &[
            "run",
            "tests/data",
            "--snapshot",
            snap.to_str().unwrap(),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let rows = rows(&r.stdout);
    // Every file with an expected answer passed; the others were answered and proved.
    for row in &rows {
        assert!(matches!(field(row, "verdict"), "pass" | "ok"), "{row:?}");
        assert_eq!(row["proved"], Value::Bool(true), "{row:?}");
        assert_eq!(
            field(row, "verdict") == "pass",
            !row["expected"].is_null(),
            "{row:?}"
        );
    }
    // Rows per puzzle and passes, against the files themselves: `.in` files are target
    // sudoku's, a `.txt` file belongs to the folder under tests/data it lies in, and a file
    // with an answer beside it (`.sol`, `.out`, `.out.computed`, `.score`) passes.
    let (files, answered) = data_files(Path::new("tests/data"));
    assert!(files.len() >= 3 && answered > 200, "{files:?}");
    for (puzzle, n) in &files {
        assert_eq!(
            rows.iter().filter(|r| field(r, "puzzle") == puzzle).count(),
            *n,
            "{puzzle}"
        );
    }
    assert_eq!(rows.len(), files.values().sum::<usize>());
    assert_eq!(
        rows.iter()
            .filter(|r| field(r, "verdict") == "pass")
            .count(),
        answered
    );
    // Spot checks against the judges' files, independent of the snapshot.
    assert_eq!(field(row_of(&rows, "noip2009-02.in"), "score"), "2859");
    assert_eq!(
        field(row_of(&rows, "noip2009-01.in"), "status"),
        "no_solution"
    );
    assert_eq!(
        row_of(&rows, "codegolf-5x5.txt")["unique"],
        Value::Bool(false)
    );
    let text = fs::read_to_string(&snap).unwrap();
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("run-tests-data", text);
    });
    // Compared again, the snapshot holds; edited, the run fails and shows the difference.
    let again = run(
        &[
            "run",
            "tests/data/target-sudoku",
            "--snapshot",
            snap.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(
        again.code, 1,
        "the snapshot has more rows than this run: {}",
        again.stderr
    );
    assert!(
        again.stderr.contains("- tests/data/kakkuro/example.txt"),
        "{}",
        again.stderr
    );
}

#[test]
fn a_snapshot_is_written_compared_and_updated() {
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("s.txt");
    let s = snap.to_str().unwrap();
    let corpus = "tests/data/target-sudoku-low";
    assert_eq!(run(&["run", corpus, "--snapshot", s], None).code, 0);
    let written = fs::read_to_string(&snap).unwrap();
    assert!(
        written.contains(
            "tests/data/target-sudoku-low/empty.in\ttarget-sudoku\toptimal\t2906\ttrue\tok"
        ),
        "{written}"
    );
    assert!(
        !written.contains("varisat"),
        "no backend, times or sizes in a snapshot: {written}"
    );
    assert_eq!(run(&["run", corpus, "--snapshot", s], None).code, 0);
    fs::write(&snap, written.replace("\t2906\t", "\t2905\t")).unwrap();
    let r = run(&["run", corpus, "--snapshot", s], None);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("- tests/data/target-sudoku-low/empty.in\ttarget-sudoku\toptimal\t2905"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("+ tests/data/target-sudoku-low/empty.in\ttarget-sudoku\toptimal\t2906"),
        "{}",
        r.stderr
    );
    assert_eq!(
        run(&["run", corpus, "--snapshot", s, "--update-snapshot"], None).code,
        0
    );
    assert_eq!(fs::read_to_string(&snap).unwrap(), written);
}

fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::copy(from, to).unwrap();
}

#[test]
fn every_row_fails_on_its_own_and_the_others_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Malformed: a Tatamibari with a stray letter.
    fs::create_dir_all(d.join("tatamibari")).unwrap();
    fs::write(d.join("tatamibari/broken.txt"), "+.\n.x\n").unwrap();
    // Unsolvable, and its judge file says so: a pass.
    let mut grid = fs::read_to_string(data_dir("target-sudoku").join("noip2009-02.in")).unwrap();
    grid.replace_range(0..1, "9");
    grid.replace_range(2..3, "9");
    fs::write(d.join("clash.in"), &grid).unwrap();
    fs::write(d.join("clash.out"), "-1\n").unwrap();
    // A wrong expected score.
    copy(
        &data_dir("target-sudoku").join("noip2009-02.in"),
        &d.join("wrong.in"),
    );
    fs::write(d.join("wrong.out"), "2858\n").unwrap();
    // A right one, by header line and a score file.
    let sample = fs::read_to_string(data_dir("target-sudoku").join("sample-1.in")).unwrap();
    fs::write(
        d.join("right.puzzle"),
        format!("puzzle-sat: target-sudoku\n{sample}"),
    )
    .unwrap();
    fs::write(d.join("right.score"), "2829\n").unwrap();
    // Too slow for the time limit: no backend proves it within 15 s, against half a second
    // (bench-10x10-seed3, 2 s of proof here, was within reach of a faster machine).
    fs::write(d.join("slow.kakkuro"), common::HARD_KAKKURO).unwrap();
    // A Tatamibari whose .sol is another tiling.
    fs::write(d.join("tatamibari/other.txt"), "+.\n..\n").unwrap();
    fs::write(d.join("tatamibari/other.sol"), "01\n01\n").unwrap();
    // Not puzzles.
    fs::write(d.join("notes.md"), "# notes\n").unwrap();

    let r = run(
        &[
            "run",
            d.to_str().unwrap(),
            "--time-limit",
            "0.5",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let rows = rows(&r.stdout);
    assert_eq!(rows.len(), 6, "{}", r.stdout);
    let verdict = |f: &str| field(row_of(&rows, f), "verdict").to_string();
    assert_eq!(verdict("broken.txt"), "error");
    assert!(
        field(row_of(&rows, "broken.txt"), "reason").contains("broken.txt:2:2:"),
        "{:?}",
        row_of(&rows, "broken.txt")
    );
    assert_eq!(verdict("clash.in"), "pass");
    assert_eq!(field(row_of(&rows, "clash.in"), "status"), "no_solution");
    assert_eq!(verdict("wrong.in"), "fail");
    assert!(field(row_of(&rows, "wrong.in"), "reason")
        .contains("score 2859, but wrong.out expects 2858"));
    assert_eq!(verdict("right.puzzle"), "pass");
    assert_eq!(verdict("slow.kakkuro"), "timeout");
    assert_ne!(field(row_of(&rows, "slow.kakkuro"), "status"), "optimal");
    assert_eq!(verdict("other.txt"), "fail");
    assert!(
        field(row_of(&rows, "other.txt"), "reason").contains("other.sol breaks a rule"),
        "{:?}",
        row_of(&rows, "other.txt")
    );
    assert!(r.stderr.contains("6 puzzles: 2 passed, 2 failed, 1 error, 1 timed out, 0 without an expected answer; 5 other files skipped"), "{}", r.stderr);

    // The table names every failure with its reason.
    let t = run(
        &[
            "run",
            d.to_str().unwrap(),
            "--time-limit",
            "0.5",
            "-q",
            "-j",
            "1",
        ],
        None,
    );
    assert_eq!(t.code, 1);
    assert!(
        t.stdout.lines().next().unwrap().starts_with("file "),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.contains("FAIL: ")
            && t.stdout.contains("ERROR: ")
            && t.stdout.contains("TIMEOUT: "),
        "{}",
        t.stdout
    );
}

#[test]
fn kinds_come_from_the_flag_the_header_the_extension_or_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("a.txt"), "+.\n..\n").unwrap();
    // No way to tell: named on the command line, it is an error row; in a folder, skipped.
    let r = run(
        &["run", d.join("a.txt").to_str().unwrap(), "--format", "json"],
        None,
    );
    assert_eq!(r.code, 1);
    assert!(
        field(&rows(&r.stdout)[0], "reason").contains("cannot tell which puzzle"),
        "{}",
        r.stdout
    );
    // Finding no puzzle at all is a failed run, not an empty success.
    let r = run(&["run", d.to_str().unwrap(), "--format", "json"], None);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{}", r.stderr);
    assert!(
        r.stderr.contains("no puzzle files found") && r.stderr.contains("1 other file skipped"),
        "{}",
        r.stderr
    );
    // --puzzle says.
    let r = run(
        &[
            "run",
            d.to_str().unwrap(),
            "--puzzle",
            "tatamibari",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(rows(&r.stdout)[0]["unique"], Value::Bool(true));
    // The file's name says.
    fs::rename(d.join("a.txt"), d.join("tatamibari.txt")).unwrap();
    let r = run(&["run", d.to_str().unwrap(), "--format", "json"], None);
    assert_eq!(field(&rows(&r.stdout)[0], "puzzle"), "tatamibari");
    // The extension says.
    fs::rename(d.join("tatamibari.txt"), d.join("a.tatamibari")).unwrap();
    let r = run(&["run", d.to_str().unwrap(), "--format", "json"], None);
    assert_eq!(field(&rows(&r.stdout)[0], "puzzle"), "tatamibari");
}

#[test]
fn every_command_reads_a_header_line_and_refuses_a_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("p.txt");
    fs::write(&f, "puzzle-sat: tatamibari\n+.\n.x\n").unwrap();
    let r = run(&["solve", "tatamibari", f.to_str().unwrap()], None);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("p.txt:3:2:"),
        "positions stay the file's: {}",
        r.stderr
    );
    fs::write(&f, "puzzle-sat: tatamibari\n+.\n..\n").unwrap();
    assert_eq!(
        run(&["solve", "tatamibari", f.to_str().unwrap()], None).code,
        0
    );
    let r = run(&["solve", "kakkuro", f.to_str().unwrap()], None);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("p.txt:1:1: the header says this is a \"tatamibari\" puzzle, not kakkuro"),
        "{}",
        r.stderr
    );
}

/// A folder whose links lead back up, or twice to one folder, is walked once: the run ends
/// with each puzzle once (it used to walk forever, growing).
#[test]
fn links_that_loop_are_followed_once() {
    let dir = tempfile::tempdir().unwrap();
    let inner = dir.path().join("a");
    fs::create_dir(&inner).unwrap();
    copy(
        Path::new("docs/examples/tatamibari.txt"),
        &inner.join("tatamibari.txt"),
    );
    std::os::unix::fs::symlink("..", inner.join("up")).unwrap();
    std::os::unix::fs::symlink(dir.path(), inner.join("self")).unwrap();
    let r = run(
        &[
            "run",
            dir.path().to_str().unwrap(),
            "--format",
            "json",
            "-q",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(rows(&r.stdout).len(), 1, "{}", r.stdout);
}

/// The bundled examples are found by their names; a run that finds no puzzle says so and fails;
/// `-j` far past the work costs nothing (it used to start every worker asked for).
#[test]
fn examples_are_found_and_finding_none_is_an_error() {
    let r = run(&["run", "docs/examples", "--format", "json", "-q"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let kinds: Vec<String> = rows(&r.stdout)
        .iter()
        .map(|row| field(row, "puzzle").to_string())
        .collect();
    // One example per puzzle, named after it (the registry's test holds every puzzle to one).
    let mut names: Vec<String> = fs::read_dir("docs/examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    assert_eq!(kinds, names);
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("notes.md"), "no puzzle here\n").unwrap();
    let r = run(&["run", dir.path().to_str().unwrap()], None);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains("no puzzle files found (1 other file skipped)"),
        "{}",
        r.stderr
    );
    let started = std::time::Instant::now();
    let r = run(
        &["run", "docs/examples/tatamibari.txt", "-j", "65535", "-q"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

/// An insta snapshot (a `---` header, as the tests keep `snapshots/run-tests-data.snap`) is
/// compared without its header and rewritten with it: it always "differed" on the header, and
/// `--update-snapshot` stripped it.
#[test]
fn an_insta_snapshot_keeps_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let snap = dir.path().join("examples.snap");
    let header = "---\nsource: tests/run.rs\nexpression: text\n---\n";
    fs::write(&snap, format!("{header}stale\n")).unwrap();
    let s = snap.to_str().unwrap();
    let r = run(&["run", "docs/examples", "--snapshot", s, "-q"], None);
    assert_eq!(r.code, 1, "a stale body differs: {}", r.stderr);
    let r = run(
        &[
            "run",
            "docs/examples",
            "--snapshot",
            s,
            "--update-snapshot",
            "-q",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let written = fs::read_to_string(&snap).unwrap();
    assert!(
        written.starts_with(header)
            && written.contains("docs/examples/kakkuro.txt\tkakkuro\toptimal\t427680"),
        "{written}"
    );
    let r = run(&["run", "docs/examples", "--snapshot", s, "-q"], None);
    assert_eq!(
        r.code, 0,
        "the same body with its header is the same snapshot: {}",
        r.stderr
    );
}

/// `puzzle-sat ARGS`, killed if it is still running after `limit`: (exit code, stdout, stderr),
/// the code `None` when it had to be killed.
fn run_within(args: &[&str], limit: std::time::Duration) -> (Option<i32>, String, String) {
    run_as(
        std::process::Command::new(env!("CARGO_BIN_EXE_puzzle-sat")).args(args),
        limit,
    )
}

fn run_as(
    cmd: &mut std::process::Command,
    limit: std::time::Duration,
) -> (Option<i32>, String, String) {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let (out, err) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (
        code,
        fs::read_to_string(out).unwrap(),
        fs::read_to_string(err).unwrap(),
    )
}

fn mkfifo(path: &Path) {
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a plain system call on a path we own.
    assert_eq!(
        unsafe { libc::mkfifo(name.as_ptr(), 0o644) },
        0,
        "mkfifo {}",
        path.display()
    );
}

/// FIFOs wherever `run` looks: among the files it walks (whatever their names), in place of an
/// expected answer, named on the command line, and as the snapshot. None is opened for reading
/// (which waits for a writer that never comes): the run ends at once, and each FIFO named as a
/// puzzle or an answer is its row's error. (The run used to wait for ever in `open`, whatever
/// its time limit.)
#[test]
fn fifos_never_make_a_run_wait() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("sudoku");
    fs::create_dir(&folder).unwrap();
    copy(Path::new("docs/examples/sudoku.txt"), &folder.join("a.txt"));
    copy(Path::new("docs/examples/sudoku.txt"), &folder.join("b.txt"));
    mkfifo(&folder.join("notes.md"));
    mkfifo(&folder.join("a.sol"));
    mkfifo(&folder.join("c.txt"));
    std::os::unix::fs::symlink(dir.path().join("nowhere"), folder.join("d.txt")).unwrap();
    // The system's pseudo-files are not walked (some wait for ever when read: /proc/kmsg).
    std::os::unix::fs::symlink("/proc", folder.join("proc")).unwrap();
    let limit = std::time::Duration::from_secs(30);
    let (code, stdout, stderr) = run_within(
        &[
            "run",
            dir.path().to_str().unwrap(),
            "--time-limit",
            "2",
            "--format",
            "json",
        ],
        limit,
    );
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let rows = rows(&stdout);
    assert_eq!(rows.len(), 4, "{stdout}");
    assert_eq!(
        field(row_of(&rows, "d.txt"), "reason"),
        "a broken symbolic link, not a regular file"
    );
    assert_eq!(
        field(row_of(&rows, "a.txt"), "reason"),
        format!(
            "{}: cannot read: a FIFO, not a regular file",
            folder.join("a.sol").display()
        )
    );
    assert_eq!(field(row_of(&rows, "b.txt"), "verdict"), "ok");
    assert_eq!(
        field(row_of(&rows, "c.txt"), "reason"),
        "a FIFO, not a regular file"
    );
    assert!(
        stderr.contains("; 3 other files skipped (2 of them not regular files, left unopened)"),
        "{stderr}"
    );
    let fifo = folder.join("c.txt");
    let (code, stdout, _) = run_within(
        &[
            "run",
            fifo.to_str().unwrap(),
            "--puzzle",
            "sudoku",
            "--format",
            "json",
        ],
        limit,
    );
    assert_eq!(
        (code, field(&self::rows(&stdout)[0], "reason")),
        (Some(1), "a FIFO, not a regular file")
    );
    let snapshot = dir.path().join("snap");
    mkfifo(&snapshot);
    let b = folder.join("b.txt");
    let (code, _, stderr) = run_within(
        &[
            "run",
            b.to_str().unwrap(),
            "--snapshot",
            snapshot.to_str().unwrap(),
        ],
        limit,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read the snapshot: ")
            && stderr.contains("a FIFO, not a regular file"),
        "{stderr}"
    );
}

/// "Left unopened" is so: a FIFO in place of an expected answer is never opened, not even
/// without waiting (which lets go a writer blocked in its `open`, as opening a device may do
/// something of its own). Before, the child opened it with O_NONBLOCK and only then refused it.
#[test]
fn a_fifo_as_an_expected_answer_is_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("sudoku");
    fs::create_dir(&folder).unwrap();
    copy(Path::new("docs/examples/sudoku.txt"), &folder.join("a.txt"));
    let fifo = folder.join("a.sol");
    mkfifo(&fifo);
    let writer = std::thread::spawn({
        let fifo = fifo.clone();
        // Blocks in `open` until someone opens the FIFO for reading.
        move || drop(fs::OpenOptions::new().write(true).open(fifo))
    });
    let (code, stdout, stderr) = run_within(
        &["run", dir.path().to_str().unwrap(), "--format", "json"],
        std::time::Duration::from_secs(30),
    );
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("(1 of them not a regular file, left unopened)"),
        "{stderr}"
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(!writer.is_finished(), "the run opened the FIFO a.sol");
    drop(fs::File::open(&fifo));
    writer.join().unwrap();
}

/// A subfolder that cannot be read is its own row's error, as an unreadable file is; the rest
/// of the run goes on (it used to end the whole run with exit 2). Run as an unprivileged user,
/// for whom a folder's permissions count.
#[test]
fn an_unreadable_folder_fails_its_row_only() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().join("sudoku");
    let locked = top.join("locked");
    fs::create_dir_all(&locked).unwrap();
    copy(Path::new("docs/examples/sudoku.txt"), &top.join("a.txt"));
    copy(Path::new("docs/examples/sudoku.txt"), &locked.join("b.txt"));
    let exe = dir.path().join("puzzle-sat");
    fs::copy(env!("CARGO_BIN_EXE_puzzle-sat"), &exe).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for d in [dir.path(), &top] {
        fs::set_permissions(d, fs::Permissions::from_mode(0o755)).unwrap();
    }
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    // SAFETY: getuid cannot fail.
    let root = unsafe { libc::getuid() } == 0;
    let mut cmd = std::process::Command::new(&exe);
    if root {
        // As `setpriv --reuid=65534 --regid=65534 --clear-groups` (util-linux), without another
        // program: the child becomes nobody before it runs the binary. Raw system calls, which
        // change only the calling thread, the one thread of the forked child.
        use std::os::unix::process::CommandExt;
        let nobody: libc::c_long = 65534;
        // SAFETY: system calls only, between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let ok = |r: libc::c_long| {
                    if r == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::last_os_error())
                    }
                };
                ok(libc::syscall(
                    libc::SYS_setgroups,
                    0 as libc::c_long,
                    std::ptr::null::<libc::gid_t>(),
                ))?;
                ok(libc::syscall(libc::SYS_setresgid, nobody, nobody, nobody))?;
                ok(libc::syscall(libc::SYS_setresuid, nobody, nobody, nobody))
            });
        }
    }
    cmd.args(["run", top.to_str().unwrap(), "--format", "json"])
        .env("TMPDIR", "/tmp");
    let (code, stdout, stderr) = run_as(&mut cmd, std::time::Duration::from_secs(30));
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let rows = rows(&stdout);
    assert_eq!(field(row_of(&rows, "a.txt"), "verdict"), "ok");
    assert!(
        field(row_of(&rows, "locked"), "reason")
            .starts_with("cannot read the folder: Permission denied"),
        "{stdout}"
    );
}

/// A deep folder is walked in time that grows with its size: each folder is known by device
/// and inode (its real path, read link by link, cost the cube of the depth: a 3,000-deep
/// folder took over a minute).
#[test]
fn a_deep_folder_is_walked_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let mut deep = dir.path().to_path_buf();
    for _ in 0..1500 {
        deep.push("a");
    }
    fs::create_dir_all(&deep).unwrap();
    fs::write(deep.join("z.tatamibari"), "+\n").unwrap();
    let (code, stdout, stderr) = run_within(
        &[
            "run",
            dir.path().to_str().unwrap(),
            "--format",
            "json",
            "-q",
        ],
        std::time::Duration::from_secs(20),
    );
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(rows(&stdout).len(), 1);
}
