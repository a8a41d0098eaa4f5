//! Shared by the integration tests: run the real binary, find the bundled data.
#![allow(dead_code)]

pub mod explained;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `puzzle-sat` with `args`, feeding `stdin` if given.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(bytes) = stdin {
        // A command may refuse its flags and exit before reading its input: a closed pipe.
        let _ = child.stdin.take().unwrap().write_all(bytes);
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

pub fn data_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The `.in` files of a data folder, sorted.
pub fn inputs(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    files.sort();
    files
}

/// The expected answer of a case: `.out`, or `.out.computed` where the source's was lost.
pub fn expected(input: &Path) -> String {
    let out = input.with_extension("out");
    let computed = input.with_extension("out.computed");
    std::fs::read_to_string(&out)
        .or_else(|_| std::fs::read_to_string(&computed))
        .expect("every case has an answer")
}

/// The JSON text of field `key` of a one-line JSON object (`"optimal"` with its quotes, `[1,2]`),
/// read with serde_json.
pub fn json_field(json: &str, key: &str) -> String {
    let v: serde_json::Value =
        serde_json::from_str(json).unwrap_or_else(|e| panic!("not JSON ({e}): {json}"));
    v.get(key)
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        .to_string()
}

/// Every backend built into this binary, for the tests that must hold on each.
/// The backends of this build that write proofs: varisat, and CaDiCaL where it is built in.
pub fn provers() -> Vec<&'static str> {
    let mut list = vec!["varisat"];
    if cfg!(feature = "cadical") {
        list.push("cadical");
    }
    list
}

pub fn backends() -> Vec<puzzle_sat::backends::Backend> {
    puzzle_sat::backends::BUILT_IN
        .iter()
        .map(|(name, _)| puzzle_sat::backends::Backend::by_name(name).unwrap())
        .collect()
}

/// Runs `puzzle-sat` with standard input from the file `stdin` and returns its peak resident
/// memory in MiB (from `wait4`), for the tests that bound what an input may cost. The child's
/// peak counts this process's memory at the spawn, so inputs come from files, not from memory.
pub fn run_measured(args: &[&str], stdin: Option<&Path>) -> (Run, u64) {
    use std::io::Read;
    // Reaped by wait4 below, which is what gives the peak memory.
    #[allow(clippy::zombie_processes)]
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args(args)
        .stdin(stdin.map_or(Stdio::null(), |p| {
            Stdio::from(std::fs::File::open(p).unwrap())
        }))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let mut errs = Vec::new();
    let _ = err.read_to_end(&mut errs);
    let stdout = reader.join().unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain data; the child is ours and not yet reaped.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert!(pid > 0, "wait4 failed");
    assert!(libc::WIFEXITED(status), "exited, not killed by a signal");
    let run = Run {
        code: libc::WEXITSTATUS(status),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(errs).unwrap(),
    };
    (run, usage.ru_maxrss as u64 / 1024)
}

/// The fuzz budget (docs/fuzzing.md): `FUZZ_ITERS` mutated inputs per fuzz target (else
/// `default_iters`), from `FUZZ_SEED` (else 1).
pub struct Budget {
    pub iters: usize,
    pub seed: u64,
}

pub fn fuzz_budget(default_iters: usize) -> Budget {
    Budget {
        iters: env_number("FUZZ_ITERS").unwrap_or(default_iters as u64) as usize,
        seed: env_number("FUZZ_SEED").unwrap_or(1),
    }
}

/// How many random boards a brute-force cross-check tries, and from which seed: its own
/// `boards` and `seed`, or `FUZZ_BOARDS` and its seed mixed with `FUZZ_SEED`.
pub fn random_boards(boards: usize, seed: u64) -> (usize, u64) {
    let mixed =
        env_number("FUZZ_SEED").map_or(seed, |s| seed ^ s.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    (
        env_number("FUZZ_BOARDS").map_or(boards, |n| n as usize),
        mixed,
    )
}

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={value:?} is not a whole number")),
    )
}

/// A model of `encode`'s CNF from varisat, as a solver's output file.
pub fn model_file(puzzle: &str, file: &str, dir: &Path) -> String {
    let cnf = run(&["encode", puzzle, file], None);
    assert_eq!(cnf.code, 0, "{}", cnf.stderr);
    let mut solver = varisat::Solver::new();
    solver.add_formula(&varisat::dimacs::DimacsParser::parse(cnf.stdout.as_bytes()).unwrap());
    assert!(solver.solve().unwrap());
    let lits: Vec<String> = solver
        .model()
        .unwrap()
        .iter()
        .map(|l| l.to_dimacs().to_string())
        .collect();
    let path = dir.join(format!("{puzzle}.model"));
    std::fs::write(&path, format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))).unwrap();
    path.to_str().unwrap().to_string()
}

/// Fails the test, saying what installs it, unless `program` is on `PATH`: for the tests of the
/// second tier (the feature `outside-tools`), where a missing program fails the test, never
/// skips it. The first tier (no feature) cannot call it: it never looks for outside programs.
#[cfg(feature = "outside-tools")]
pub fn require(program: &str) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    assert!(
        std::env::split_paths(&path).any(|dir| dir.join(program).is_file()),
        "`{program}` is not on PATH: this test (tier 2, --features outside-tools) runs it; \
         .ci/run installs it (README names where each outside program comes from)"
    );
}

/// Runs an outside MaxSAT or PB solver (`clasp`, `rc2`, `exact`) on `file` and returns its
/// standard output. `.ci/run` installs them; a missing one fails the test (tier 2 only).
#[cfg(feature = "outside-tools")]
pub fn outside(solver: &str, file: &Path) -> String {
    let (program, args): (&str, Vec<String>) = match solver {
        "clasp" => ("clasp", vec![]),
        // MSE 2018 configuration b on CaDiCaL: the default configuration took minutes on
        // Kakkuro's weights (docs/formats.md).
        "rc2" => (
            "rc2.py",
            vec!["-c".into(), "b".into(), "-s".into(), "cd19".into()],
        ),
        "exact" => (
            "python3",
            vec![Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/solvers/exact_opb.py")
                .display()
                .to_string()],
        ),
        _ => unreachable!(),
    };
    let out = Command::new(program)
        .args(&args)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("{program} does not run ({e}): .ci/run installs it (clasp from Debian, python-sat and exact from PyPI)"));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\ns ") || text.starts_with("s "),
        "{program} gave no status: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Every `NAME.txt` of `tests/data/GENRE` solved with `--unique`: the answer is `NAME.sol`
/// followed by `unique`. Returns how many were solved.
pub fn every_bundled_is_unique(genre: &str) -> usize {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir(genre))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut n = 0;
    for path in files {
        let r = run(&["solve", genre, path.to_str().unwrap(), "--unique"], None);
        assert_eq!(r.code, 0, "{}: {}", path.display(), r.stderr);
        let want = std::fs::read_to_string(path.with_extension("sol")).unwrap() + "unique\n";
        assert_eq!(r.stdout, want, "{}", path.display());
        n += 1;
    }
    n
}

/// `check GENRE` of each answer against the puzzle `puzzle`: the exit status and a phrase
/// of its output or message.
pub fn check_verdicts(genre: &str, puzzle: &str, answers: &[(&str, i32, &str)]) {
    let dir = tempfile::tempdir().unwrap();
    let (file, answer) = (dir.path().join("p.txt"), dir.path().join("a.txt"));
    std::fs::write(&file, puzzle).unwrap();
    for (grid, code, says) in answers {
        std::fs::write(&answer, grid).unwrap();
        let r = run(
            &[
                "check",
                genre,
                file.to_str().unwrap(),
                "--answer",
                answer.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(r.code, *code, "{grid}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(says) || r.stderr.contains(says),
            "{grid}: {}{}",
            r.stdout,
            r.stderr
        );
    }
}

/// `solve GENRE` of each bad puzzle file exits 2, naming `LINE:COL` in the file, without a
/// panic.
pub fn bad_files_name_their_place(genre: &str, files: &[(&str, &str)]) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    for (text, at) in files {
        std::fs::write(&file, text).unwrap();
        let r = run(&["solve", genre, file.to_str().unwrap()], None);
        assert_eq!(r.code, 2, "{text}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("p.txt:{at}:")),
            "{text}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{text}: {}", r.stderr);
    }
}

/// The pieces of `active` cells of a `rows × cols` grid (4-connected), by flood fill: the
/// tests' own, independent of the encoder's.
pub fn pieces(rows: usize, cols: usize, active: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; rows * cols];
    let mut out = Vec::new();
    for s in 0..rows * cols {
        if !active[s] || seen[s] {
            continue;
        }
        seen[s] = true;
        let (mut stack, mut piece) = (vec![s], Vec::new());
        while let Some(v) = stack.pop() {
            piece.push(v);
            let (r, c) = (v / cols, v % cols);
            let mut near = Vec::new();
            if r > 0 {
                near.push(v - cols);
            }
            if r + 1 < rows {
                near.push(v + cols);
            }
            if c > 0 {
                near.push(v - 1);
            }
            if c + 1 < cols {
                near.push(v + 1);
            }
            for u in near {
                if active[u] && !seen[u] {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        out.push(piece);
    }
    out
}

/// `solve GENRE --count=1000` of a board file: the count it proves (exit 1 exactly when it is
/// 0).
pub fn count(genre: &str, file: &Path, text: &str) -> usize {
    std::fs::write(file, text).unwrap();
    let r = run(
        &[
            "solve",
            genre,
            file.to_str().unwrap(),
            "--count=1000",
            "-q",
            "--format",
            "json",
        ],
        None,
    );
    let n: usize = json_field(&r.stdout, "solutions")
        .parse()
        .unwrap_or_else(|_| panic!("{text}{}{}", r.stdout, r.stderr));
    assert_eq!(r.code, if n == 0 { 1 } else { 0 }, "{text}{}", r.stderr);
    n
}

/// Every closed loop on a `rows × cols` grid of nodes (row-major), each as its edges `(u, v)`
/// with `u < v`, sorted: by walking every simple path from each loop's smallest node through
/// larger ones, each loop once (its second node below its last). The tests' own, for loop
/// genres' brute forces.
pub fn loops(rows: usize, cols: usize) -> Vec<Vec<(usize, usize)>> {
    let n = rows * cols;
    let near = |v: usize| {
        let (r, c) = (v / cols, v % cols);
        let mut out = Vec::new();
        if r > 0 {
            out.push(v - cols);
        }
        if r + 1 < rows {
            out.push(v + cols);
        }
        if c > 0 {
            out.push(v - 1);
        }
        if c + 1 < cols {
            out.push(v + 1);
        }
        out
    };
    fn walk(
        path: &mut Vec<usize>,
        used: &mut [bool],
        near: &dyn Fn(usize) -> Vec<usize>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        let (start, last) = (path[0], *path.last().unwrap());
        for u in near(last) {
            if u == start && path.len() >= 4 && path[1] < last {
                let mut edges: Vec<(usize, usize)> = path
                    .windows(2)
                    .map(|w| (w[0].min(w[1]), w[0].max(w[1])))
                    .collect();
                edges.push((start.min(last), start.max(last)));
                edges.sort_unstable();
                out.push(edges);
            } else if u > start && !used[u] {
                used[u] = true;
                path.push(u);
                walk(path, used, near, out);
                path.pop();
                used[u] = false;
            }
        }
    }
    let mut out = Vec::new();
    for s in 0..n {
        let mut used = vec![false; n];
        used[s] = true;
        walk(&mut vec![s], &mut used, &near, &mut out);
    }
    out
}

/// The loop drawing `solve` prints for a loop genre, of what every loop of `all` shares (`?`
/// where they differ): `node(v)` and `face(r, c)` are the drawing's characters between the
/// edges, on a `rows × cols` grid of nodes. With one loop, that loop's drawing.
pub fn loop_drawing(
    rows: usize,
    cols: usize,
    all: &[Vec<(usize, usize)>],
    node: impl Fn(usize) -> char,
    face: impl Fn(usize, usize) -> char,
) -> String {
    let edge = |u: usize, v: usize, on: char| {
        let on_it = all
            .iter()
            .filter(|l| l.binary_search(&(u, v)).is_ok())
            .count();
        match on_it {
            0 => ' ',
            k if k == all.len() => on,
            _ => '?',
        }
    };
    let mut out = String::new();
    for y in 0..2 * rows - 1 {
        let mut line = String::new();
        for x in 0..2 * cols - 1 {
            let v = (y / 2) * cols + x / 2;
            line.push(match (y % 2, x % 2) {
                (0, 0) => node(v),
                (0, _) => edge(v, v + 1, '-'),
                (_, 0) => edge(v, v + cols, '|'),
                _ => face(y / 2, x / 2),
            });
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// benches/data/hard/kakkuro-painting-10x10-d0.15-s1.txt (kakkuro_painting.py 10 1 0.15 8), whose
/// long rows force painting: no backend proves it within seconds (the portfolio in about 15 s,
/// 2026-12-05), so a time limit of a second always stops its search inside a call.
pub const HARD_KAKKURO: &str = "\
@ . . . . . . . . .
. . # . . . . . . .
. . . @ @ @ . . # .
. @ . . . . . . . .
# . . . # . . . . .
@ @ # . . . . . . .
. . . . . . . . # .
. . . . . . . . . @
. # . . . . . . . .
. . . . . . # . . .
";
