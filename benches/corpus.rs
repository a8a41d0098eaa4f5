//! The benchmark harness: `cargo bench --bench corpus [-- FILTER]`.
//!
//! For every bundled case it prints the in-process time (median of several runs), the SAT calls,
//! the CNF size and the answer; then it runs the official cases as separate processes of the
//! release binary, as a judge would, and prints their total wall and CPU time. Tatamibari:
//! the corpus and gadgets with a uniqueness check, generated boards, and `generate --unique`
//! (`-- tatamibari-generate` for that alone; `-- tatamibari-1000` runs a generated 1000×1000
//! board, about a minute, and nothing else). Shikaku: the Janko corpus with a uniqueness check,
//! and its largest boards four times over. Sudoku: the Janko corpus with a uniqueness check,
//! and empty grids up to 36×36. Kakkuro: every bundled board proved optimal.
//! `-- hard`: the boards of benches/data/hard (sparse-clue Tatamibari, Kakkuro that must
//! paint; made by benches/generators) as processes under a time limit, with each class's worst.

use encodings::cnf::SizeCounter;
use encodings::genre::Genre;
use encodings::genres::heyawake::{self as hw, Heyawake};
use encodings::genres::hitori::Hitori;
use encodings::genres::kakkuro::{self as kk, Kakkuro};
use encodings::genres::kakuro::{self as kr, Kakuro};
use encodings::genres::lits::Lits;
use encodings::genres::masyu::Masyu;
use encodings::genres::nurikabe::Nurikabe;
use encodings::genres::shikaku::Shikaku;
use encodings::genres::slitherlink::Slitherlink;
use encodings::genres::sudoku::Sudoku;
use encodings::genres::target_sudoku::{self as ts, TargetSudoku};
use encodings::genres::tatamibari::generate::{Generated, Rng};
use encodings::genres::tatamibari::{self as tb, Tatamibari};
use encodings::puzzle::{Ended, Goal, Observer, Puzzle};
use encodings::solver::{SolverStats, Stop};
use puzzle_sat::backends::{Backend, BUILT_IN};
use puzzle_sat::runner::{self, Options, Progress};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const REPEATS: usize = 5;
const PROCESS_ROUNDS: usize = 10;

fn main() {
    // `cargo bench` passes `--bench`; a backend's name picks backends, anything else is a
    // name filter.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.iter().any(|a| a == "cadical") && Backend::by_name("cadical").is_none() {
        eprintln!("corpus: the embedded CaDiCaL is not in this build (--no-default-features): cargo bench --bench corpus");
        std::process::exit(2);
    }
    let (names, filter): (Vec<String>, Vec<String>) = args
        .into_iter()
        .partition(|a| Backend::by_name(a).is_some());
    let backends: Vec<Backend> = if names.is_empty() {
        BUILT_IN
            .iter()
            .map(|(n, _)| Backend::by_name(n).unwrap())
            .collect()
    } else {
        names.iter().map(|n| Backend::by_name(n).unwrap()).collect()
    };
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let named = |name: &str| filter.iter().any(|f| f == name);
    for backend in &backends {
        corpus(backend, &root, &wanted, &named);
    }
}

fn quiet(backend: &Backend) -> Options {
    Options {
        backend: backend.clone(),
        time_limit: None,
        progress: Progress::Never,
        cubes: None,
    }
}

/// `wanted`: a section a filter names part of; `named`: one named exactly.
fn corpus(
    backend: &Backend,
    root: &Path,
    wanted: &dyn Fn(&str) -> bool,
    named: &dyn Fn(&str) -> bool,
) {
    if wanted("target-sudoku") {
        let official = cases(&root.join("target-sudoku"));
        let low = cases(&root.join("target-sudoku-low"));
        println!("target sudoku, in process (median of {REPEATS} runs)");
        println!(
            "{:<8} {:<24} {:>9} {:>6} {:>6} {:>8} {:>7}  status",
            "backend", "case", "ms", "calls", "vars", "clauses", "score"
        );
        let mut total = Duration::ZERO;
        for case in official.iter().chain(&low) {
            total += sudoku_case(backend, case);
        }
        println!("{:<8} {:<24} {:>9.2}\n", backend.name(), "total", ms(total));
        processes(backend, &official);
    }
    if wanted("tatamibari") && !named("tatamibari-1000") {
        tatamibari(backend, &root.join("tatamibari"));
    }
    // A minute or so: only when asked for by name.
    if named("tatamibari-1000") {
        println!("tatamibari, a generated 1000x1000 board (first solution)");
        generated(backend, &[1000]);
    }
    if wanted("tatamibari-generate") {
        generate_unique(backend);
    }
    if wanted("sudoku") && !named("target-sudoku") {
        sudoku(backend, &root.join("sudoku"));
    }
    if wanted("shikaku") {
        shikaku(backend, &root.join("shikaku"));
    }
    if wanted("kakuro") && !named("kakkuro") {
        kakuro(backend, &root.join("kakuro"));
    }
    if wanted("nurikabe") {
        shading::<Nurikabe>(backend, &root.join("nurikabe"), |b| (b.rows, b.cols));
    }
    if wanted("hitori") {
        shading::<Hitori>(backend, &root.join("hitori"), |b| (b.rows, b.cols));
    }
    if wanted("lits") {
        let shape = |b: &encodings::genres::lits::Board| (b.blank.rows, b.blank.cols);
        shading::<Lits>(backend, &root.join("lits"), shape);
    }
    if wanted("heyawake") {
        let shape = |b: &hw::Board| (b.numbers.rows, b.numbers.cols);
        shading::<Heyawake>(backend, &root.join("heyawake"), shape);
    }
    if wanted("slitherlink") {
        shading::<Slitherlink>(backend, &root.join("slitherlink"), |b| (b.rows, b.cols));
    }
    if wanted("masyu") {
        shading::<Masyu>(backend, &root.join("masyu"), |b| (b.rows, b.cols));
    }
    // The whole janko.at sets, where ../shared/data/puzzlekit is (not in a fresh clone): only
    // when asked for by name, a minute or so.
    if named("janko-sets") {
        let sets = root.join("../../../shared/data/puzzlekit");
        janko_set::<Nurikabe>(backend, &sets.join("Nurikabe_dataset.json"), |b| {
            (b.rows, b.cols)
        });
        janko_set::<Hitori>(backend, &sets.join("Hitori_dataset.json"), |b| {
            (b.rows, b.cols)
        });
        let shape = |b: &hw::Board| (b.numbers.rows, b.numbers.cols);
        janko_set::<Heyawake>(backend, &sets.join("Heyawake_dataset.json"), shape);
        let shape = |b: &encodings::genres::lits::Board| (b.blank.rows, b.blank.cols);
        janko_set::<Lits>(backend, &sets.join("LITS_dataset.json"), shape);
        let shape = |b: &encodings::genres::slitherlink::Board| (b.rows, b.cols);
        janko_set::<Slitherlink>(backend, &sets.join("Slitherlink_dataset.json"), shape);
        janko_set::<Masyu>(backend, &sets.join("Masyu_dataset.json"), |b| {
            (b.rows, b.cols)
        });
    }
    if wanted("kakkuro") {
        kakkuro(backend, &root.join("kakkuro"));
    }
    if wanted("dense") {
        kakkuro_dense(backend);
    }
    if wanted("certify") {
        certify(backend, root);
    }
    if wanted("explain") {
        explain(backend, root);
    }
    // Minutes: only when asked for by name.
    if named("hard") {
        hard(backend);
    }
    if named("graded") {
        graded(backend);
    }
}

/// `explain`, each case one process, three runs (CPU with children, min and median): the
/// bundled examples, the two hard sudokus of tests/explain.rs, the next step of the largest
/// Hitori and Heyawake of tests/data, the largest Shikaku of tests/data and its slowest
/// Tatamibari whole.
fn explain(backend: &Backend, root: &Path) {
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let hard = [
        (
            "inkala",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        ),
        (
            "escargot",
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        ),
    ];
    let mut cases: Vec<(String, &str, PathBuf, bool)> =
        ["sudoku", "hitori", "heyawake", "shikaku", "tatamibari"]
            .iter()
            .map(|g| {
                (
                    format!("{g} example"),
                    *g,
                    here.join(format!("docs/examples/{g}.txt")),
                    false,
                )
            })
            .collect();
    for (name, line) in hard {
        let file = dir.path().join(format!("{name}.txt"));
        std::fs::write(&file, format!("{line}\n")).unwrap();
        cases.push((format!("sudoku {name}"), "sudoku", file, false));
    }
    cases.push((
        "hitori 25x25 --next".into(),
        "hitori",
        root.join("hitori/janko-hard-25x25.txt"),
        true,
    ));
    cases.push((
        "heyawake 21x27 --next".into(),
        "heyawake",
        root.join("heyawake/janko-0705-21x27.txt"),
        true,
    ));
    cases.push((
        "shikaku 20x36".into(),
        "shikaku",
        root.join("shikaku/janko-039-20x36.txt"),
        false,
    ));
    cases.push((
        "tatamibari 12x12".into(),
        "tatamibari",
        root.join("tatamibari/janko-117-12x12.txt"),
        false,
    ));
    println!("explain (one process each, 3 runs, CPU with children: min / median)");
    println!(
        "{:<8} {:<28} {:>9} {:>9}  summary",
        "backend", "case", "min s", "median s"
    );
    for (name, genre, file, next) in cases {
        let mut args = vec![
            "explain",
            genre,
            file.to_str().unwrap(),
            "--solver",
            backend.name(),
        ];
        if next {
            args.push("--next");
        }
        let mut times = Vec::new();
        let mut summary = String::new();
        for _ in 0..3 {
            let cpu0 = children_cpu();
            let out = Command::new(bin).args(&args).output().unwrap();
            times.push(children_cpu() - cpu0);
            summary = String::from_utf8_lossy(&out.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
        }
        times.sort();
        println!(
            "{:<8} {:<28} {:>9.3} {:>9.3}  {summary}",
            backend.name(),
            name,
            times[0].as_secs_f64(),
            times[1].as_secs_f64()
        );
    }
}

/// `grade` over the 1000 HoDoKu-rated sudokus of benches/data/sudoku-graded, one process (its
/// rank correlation with HoDoKu: benches/peers/hodoku_grade.py compare, docs/explain.md).
fn graded(backend: &Backend) {
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/sudoku-graded/puzzles.txt");
    let cpu0 = children_cpu();
    let out = Command::new(bin)
        .args([
            "grade",
            "sudoku",
            file.to_str().unwrap(),
            "--solver",
            backend.name(),
        ])
        .output()
        .unwrap();
    let cpu = children_cpu() - cpu0;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut levels: std::collections::BTreeMap<&str, usize> = Default::default();
    for line in text.lines() {
        if let Some(level) = line.split(": ").nth(1).and_then(|g| g.split(' ').nth(1)) {
            *levels.entry(level).or_default() += 1;
        }
    }
    println!(
        "grade, 1000 rated sudokus, one process: {:.1} s CPU; levels {levels:?}",
        cpu.as_secs_f64()
    );
}

/// The boards of benches/data/hard (benches/generators/make.sh: sparse-clue Tatamibari,
/// Kakkuro that must paint), each solved as the command a user types, one process, under a
/// time limit (`HARD_LIMIT` seconds, 60 by default), plain and, for Tatamibari, `--unique`;
/// then each class's worst case (a class: the file name without its seed).
fn hard(backend: &Backend) {
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let limit: u64 = std::env::var("HARD_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/hard");
    println!("hard boards, one process each, --time-limit {limit} (CPU with children, and wall: a portfolio's CPU is about twice its wall)");
    println!(
        "{:<9} {:<40} {:<8} {:>9} {:>9}  verdict",
        "backend", "case", "mode", "cpu s", "wall s"
    );
    let mut worst: std::collections::BTreeMap<String, (f64, f64, usize, usize)> =
        std::collections::BTreeMap::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    for case in files {
        let name = case.file_stem().unwrap().to_string_lossy().to_string();
        let puzzle = ["kakkuro", "kakuro", "tatamibari"]
            .into_iter()
            .find(|p| name.starts_with(&format!("{p}-")))
            .expect("a puzzle's name first");
        let modes: &[&str] = if puzzle == "kakkuro" {
            &["plain"]
        } else {
            &["plain", "--unique"]
        };
        for &mode in modes {
            let mut cmd = Command::new(bin);
            cmd.args(["solve", puzzle]).arg(&case).args([
                "--time-limit",
                &limit.to_string(),
                "-q",
                "--solver",
                backend.name(),
            ]);
            if mode != "plain" {
                cmd.arg(mode);
            }
            let cpu0 = children_cpu();
            let started = Instant::now();
            let out = cmd.output().unwrap();
            let wall = started.elapsed().as_secs_f64();
            let cpu = (children_cpu() - cpu0).as_secs_f64();
            let text = String::from_utf8_lossy(&out.stdout);
            let verdict = text.lines().last().unwrap_or("").to_string();
            // Done: a proved verdict (a time-limited Kakkuro run ends with its bound line).
            const PROVED: [&str; 5] = [
                "optimal (proved)",
                "solved",
                "unique",
                "not unique: two different solutions",
                "no solution",
            ];
            let done = text.lines().any(|l| PROVED.contains(&l));
            println!(
                "{:<9} {:<40} {:<8} {:>9.2} {:>9.2}  {}",
                backend.name(),
                name,
                mode,
                cpu,
                wall,
                verdict
            );
            let class = format!(
                "{} {mode}",
                name.rsplit_once("-s").map_or(name.as_str(), |(c, _)| c)
            );
            let w = worst.entry(class).or_insert((0.0, 0.0, 0, 0));
            *w = (
                w.0.max(cpu),
                w.1.max(wall),
                w.2 + usize::from(done),
                w.3 + 1,
            );
        }
    }
    println!(
        "\n{:<9} {:<49} {:>9} {:>9} {:>6}",
        "backend", "class", "worst cpu", "worst wall", "done"
    );
    for (class, (cpu, wall, done, all)) in worst {
        println!(
            "{:<9} {:<49} {:>9.2} {:>9.2} {:>3}/{}",
            backend.name(),
            class,
            cpu,
            wall,
            done,
            all
        );
    }
    println!();
}

/// Certificates of the largest claims: the plain solve, `solve --certify` and `verify` (with
/// `rate`), each one process, CPU time with children; the formula's and the proof's sizes.
fn certify(backend: &Backend, root: &Path) {
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases: [(&str, PathBuf, &[&str]); 3] = [
        (
            "target-sudoku",
            root.join("target-sudoku-low/empty.in"),
            &[],
        ),
        ("kakkuro", root.join("kakkuro/bench-10x10-seed3.txt"), &[]),
        (
            "tatamibari",
            here.join("benches/data/tatamibari-100x100-unique.txt"),
            &["--unique"],
        ),
    ];
    println!("certificates (one process each, CPU with children)");
    println!(
        "{:<8} {:<32} {:>9} {:>9} {:>9} {:>6} {:>9} {:>9}",
        "backend", "case", "plain ms", "cert ms", "verify ms", "ratio", "cnf MB", "proof MB"
    );
    for (puzzle, file, extra) in cases {
        let dir = tempfile::tempdir().unwrap();
        let cert = dir.path().join("cert");
        let timed = |args: &[&str]| {
            let cpu0 = children_cpu();
            let out = Command::new(bin).args(args).output().unwrap();
            (children_cpu() - cpu0, out)
        };
        let f = file.to_str().unwrap();
        let mut plain_args = vec!["solve", puzzle, f, "-q", "--solver", backend.name()];
        plain_args.extend(extra);
        let (plain, _) = timed(&plain_args);
        let mut cert_args = plain_args.clone();
        cert_args.extend(["--certify", cert.to_str().unwrap()]);
        let (certified, _) = timed(&cert_args);
        let (verified, out) = timed(&["verify", cert.to_str().unwrap()]);
        let verdict = String::from_utf8_lossy(&out.stdout);
        // All formulas and all proofs: final.* and any lemma-N.*.
        let mb = |ext: &str| -> f64 {
            std::fs::read_dir(&cert)
                .unwrap()
                .filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == ext))
                .map(|e| e.metadata().unwrap().len() as f64 / 1e6)
                .sum()
        };
        let name = file.file_name().unwrap().to_string_lossy();
        println!(
            "{:<8} {:<32} {:>9.0} {:>9.0} {:>9.0} {:>6.1} {:>9.1} {:>9.1}  {}",
            backend.name(),
            name,
            ms(plain),
            ms(certified),
            ms(verified),
            (certified + verified).as_secs_f64() / plain.as_secs_f64().max(1e-6),
            mb("cnf"),
            mb("drat"),
            verdict.trim()
        );
    }
    println!();
}

/// Every bundled Kakkuro board, proved optimal in process (one run each: the larger ones take
/// seconds).
fn kakkuro(backend: &Backend, dir: &Path) {
    println!("kakkuro, proved optimum (strict mode), one run each");
    println!(
        "{:<8} {:<24} {:>9} {:>6} {:>7} {:>8}  {:<10} score",
        "backend", "board", "ms", "calls", "vars", "clauses", "status"
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut total = Duration::ZERO;
    for path in files {
        let p = kk::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut size = SizeCounter::default();
        kk::encode(&p, &mut size);
        let (vars, clauses) = (size.vars, size.clauses);
        let start = Instant::now();
        let out = runner::search::<Kakkuro>(
            kk::Instance {
                puzzle: p,
                fixed: None,
            },
            Goal::Best,
            1,
            &quiet(backend),
        )
        .unwrap();
        let took = start.elapsed();
        total += took;
        let score = out
            .best()
            .map_or("-".to_string(), |(_, s)| s.score.to_string());
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let status = if out.ended == Ended::Proved {
            "Optimal"
        } else {
            "unfinished"
        };
        println!(
            "{:<8} {name:<24} {:>9.1} {:>6} {vars:>7} {clauses:>8}  {status:<10} {score}",
            backend.name(),
            ms(took),
            out.stats.solver.calls
        );
    }
    println!("{:<8} {:<24} {:>9.1}\n", backend.name(), "total", ms(total));
}

/// The dense Kakkuro boards (`benches/data/kakkuro-dense`: long white runs, where the search's
/// frontier is), each under a time limit: proved or not, the best score, the time, when the
/// best was found (the rest is proof), and for an unfinished run the gap from the best score
/// up to the best upper bound the search proved.
fn kakkuro_dense(backend: &Backend) {
    const LIMIT: Duration = Duration::from_secs(60);
    println!(
        "kakkuro, dense boards, proved optimum under a {} s limit, one run each",
        LIMIT.as_secs()
    );
    println!(
        "{:<8} {:<24} {:>9} {:>9} {:>6}  {:<10} {:>7}  score",
        "backend", "board", "ms", "found ms", "calls", "status", "gap"
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/kakkuro-dense");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let (mut total, mut proved) = (Duration::ZERO, 0);
    let mut cut = Vec::new();
    for path in &files {
        let p = kk::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let start = Instant::now();
        let out = dense_run(
            backend,
            kk::Instance {
                puzzle: p,
                fixed: None,
            },
            LIMIT,
        );
        let took = start.elapsed();
        total += took;
        proved += usize::from(out.ended == Some(Ended::Proved));
        let score = out
            .best
            .as_ref()
            .map_or("-".to_string(), |s| s.score.to_string());
        let (status, gap) = match (out.ended, &out.best, out.bound) {
            (Some(Ended::Proved), _, _) => ("Optimal", String::new()),
            (_, Some(best), Some(bound)) => (
                "unfinished",
                format!(
                    "{:.1}%",
                    runner::gap::<Kakkuro>(&best.score, Some(bound))
                        .unwrap()
                        .percent
                ),
            ),
            _ => ("unfinished", "-".to_string()),
        };
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        println!(
            "{:<8} {name:<24} {:>9.1} {:>9.1} {:>6}  {status:<10} {gap:>7}  {score}",
            backend.name(),
            ms(took),
            ms(out.found_at),
            out.calls
        );
        cut.push((name, out));
    }
    println!(
        "{:<8} {:<24} {:>9.1}  {proved} of {} proved\n",
        backend.name(),
        "total",
        ms(total),
        files.len()
    );
    // The same runs cut short, from their timelines: how far below the proved optimum the best
    // answer of a shorter limit was, and how far above it the upper bound proved by then.
    println!("kakkuro, dense boards: what a shorter limit would have given (best below the optimum / proved bound above the best)");
    println!(
        "{:<8} {:<24} {}",
        "backend",
        "board",
        CUTS.iter()
            .map(|c| format!("{:>20}", format!("at {} s", c.as_secs())))
            .collect::<String>()
    );
    for (name, run) in &cut {
        let optimum = run
            .best
            .as_ref()
            .and_then(|b| Kakkuro::score_value(&b.score));
        let at = |limit: Duration| -> String {
            if run.ended == Some(Ended::Proved) && run.took <= limit {
                return "proved".into();
            }
            let best = run
                .found
                .iter()
                .rev()
                .find(|(t, _)| *t <= limit)
                .map(|(_, s)| s);
            let bound = run
                .bounds
                .iter()
                .rev()
                .find(|(t, _)| *t <= limit)
                .map(|&(_, b)| b);
            match (best, optimum) {
                (Some(best), Some(opt)) if run.ended == Some(Ended::Proved) => {
                    let gap = runner::gap::<Kakkuro>(&best.score, bound)
                        .map_or("-".into(), |g| format!("{:.1}%", g.percent));
                    // Equal scores compare exactly; the shortfall is only for reading.
                    if Some(&best.score) == run.best.as_ref().map(|b| &b.score) {
                        format!("optimum / +{gap}")
                    } else {
                        let below =
                            100.0 * (1.0 - Kakkuro::score_value(&best.score).unwrap() / opt);
                        format!("-{below:.1}% / +{gap}")
                    }
                }
                _ => "-".into(),
            }
        };
        println!(
            "{:<8} {name:<24} {}",
            backend.name(),
            CUTS.iter()
                .map(|&c| format!("{:>20}", at(c)))
                .collect::<String>()
        );
    }
    println!();
}

/// The shorter limits the dense runs are read at.
const CUTS: [Duration; 3] = [
    Duration::from_secs(1),
    Duration::from_secs(3),
    Duration::from_secs(10),
];

/// What one dense run reported before it ended or its time was up.
#[derive(Default)]
struct DenseRun {
    best: Option<kk::Scored>,
    /// When the best was found, from the start.
    found_at: Duration,
    /// Every improvement and every proved upper bound, with its time.
    found: Vec<(Duration, kk::Scored)>,
    bounds: Vec<(Duration, f64)>,
    /// When it ended.
    took: Duration,
    bound: Option<f64>,
    calls: u32,
    ended: Option<Ended>,
}

enum DenseMsg {
    Found(kk::Scored),
    Bound(f64),
    Calls(u32),
    Done(Ended),
}

struct DenseObserver(mpsc::Sender<DenseMsg>);

impl Observer<Kakkuro> for DenseObserver {
    fn found(&mut self, _: &kk::Answer, checked: &kk::Scored) {
        let _ = self.0.send(DenseMsg::Found(checked.clone()));
    }

    fn stats(&mut self, stats: SolverStats) {
        let _ = self.0.send(DenseMsg::Calls(stats.calls));
    }

    fn upper_bound(&mut self, bound: f64) {
        let _ = self.0.send(DenseMsg::Bound(bound));
    }
}

/// The Kakkuro search in a worker thread under a deadline, as the driver runs it (the worker
/// gets a short grace after the stop), keeping the proved upper bounds the driver does not show.
fn dense_run(backend: &Backend, inst: kk::Instance, limit: Duration) -> DenseRun {
    let stop = Stop::new();
    let solvers = backend.solvers(stop.clone());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut obs = DenseObserver(tx);
        let ended = Kakkuro::search(&inst, Goal::Best, &solvers, &mut obs).unwrap();
        let _ = obs.0.send(DenseMsg::Done(ended));
    });
    // After the deadline, an interrupted worker gets a grace period to return, as in the driver.
    let (deadline, grace) = (
        Instant::now() + limit,
        Instant::now() + limit + Duration::from_millis(500),
    );
    let mut run = DenseRun::default();
    let start = Instant::now();
    loop {
        let late = Instant::now() >= deadline;
        if late && !stop.is_raised() {
            stop.raise();
        }
        let wait = if late { grace } else { deadline }.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            // What comes after the deadline does not count.
            Ok(DenseMsg::Done(_)) if late => return run,
            Ok(_) if late => {}
            Ok(DenseMsg::Found(s)) => {
                run.found_at = start.elapsed();
                run.found.push((run.found_at, s.clone()));
                run.best = Some(s);
            }
            Ok(DenseMsg::Bound(b)) => {
                run.bound = Some(b);
                run.bounds.push((start.elapsed(), b));
            }
            Ok(DenseMsg::Calls(c)) => run.calls = c,
            Ok(DenseMsg::Done(e)) => {
                run.ended = Some(e);
                run.took = start.elapsed();
                return run;
            }
            Err(mpsc::RecvTimeoutError::Timeout) if !late => {}
            Err(_) => return run,
        }
    }
}

/// `generate tatamibari --unique` as a puzzle maker runs it (the release binary), per size and
/// seed, plain and sparser.
fn generate_unique(backend: &Backend) {
    println!("tatamibari, generate --unique (release binary, one process each)");
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let mut total = Duration::ZERO;
    // The plain sizes, then sparser puzzles (--cells-per-clue 5) at two of them.
    let cases = [40, 60, 100, 200]
        .map(|n| (n, None))
        .into_iter()
        .chain([(40, Some("5")), (100, Some("5"))]);
    for (n, sparser) in cases {
        for seed in 1..=3 {
            let start = Instant::now();
            let size = format!("{n}x{n}");
            let seed_arg = seed.to_string();
            let mut args = vec![
                "generate",
                "tatamibari",
                "--size",
                &size,
                "--seed",
                &seed_arg,
                "--unique",
                "--solver",
                backend.name(),
            ];
            if let Some(c) = sparser {
                args.extend(["--cells-per-clue", c]);
            }
            let out = Command::new(bin).args(&args).output().unwrap();
            let took = start.elapsed();
            total += took;
            let clues = String::from_utf8_lossy(&out.stdout)
                .chars()
                .filter(|c| "+-|".contains(*c))
                .count();
            let per = (n * n) as f64 / clues.max(1) as f64;
            let label = sparser.map_or(String::new(), |c| format!(" (asked {c} cells per clue)"));
            println!("{:<8} {size:>8} seed {seed}: {:>9.1} ms, {clues} clues, {per:.2} cells per clue, exit {}{label}", backend.name(), ms(took), out.status.code().unwrap_or(-1));
        }
    }
    println!(
        "{:<8} {:<24} {:>9.1} ms\n",
        backend.name(),
        "total",
        ms(total)
    );
}

/// One puzzle: up to two solutions (the uniqueness check), in process.
/// One enumerate-only puzzle to `max` answers (2: a uniqueness check), in process: time,
/// calls, formula size, verdict.
fn enumerate_case<P: Genre>(
    backend: &Backend,
    name: &str,
    inst: P::Instance,
    (rows, cols): (usize, usize),
    max: u64,
) -> Duration {
    let mut size = SizeCounter::default();
    P::encode(&inst, &mut size);
    let start = Instant::now();
    let found = runner::search::<P>(inst, Goal::Enumerate { max }, 0, &quiet(backend)).unwrap();
    let t = start.elapsed();
    let verdict = match (found.count, found.ended == Ended::Proved) {
        (0, _) => "no solution",
        (1, true) => "unique",
        (1, false) => "solved",
        _ => "2+ solutions",
    };
    println!(
        "{:<8} {name:<28} {:>3}x{:<3} {:>9.2} {:>6} {:>8} {:>8}  {verdict}",
        backend.name(),
        rows,
        cols,
        ms(t),
        found.stats.solver.calls,
        size.vars,
        size.clauses
    );
    t
}

fn tatamibari_case(backend: &Backend, name: &str, board: tb::Board) -> Duration {
    let shape = (board.rows, board.cols);
    enumerate_case::<Tatamibari>(backend, name, board, shape, 2)
}

fn tatamibari(backend: &Backend, dir: &Path) {
    println!("tatamibari, uniqueness check (stop at 2 solutions), in one process");
    println!(
        "{:<8} {:<28} {:>7} {:>9} {:>6} {:>8} {:>8}  verdict",
        "backend", "puzzle", "size", "ms", "calls", "vars", "clauses"
    );
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    let board = |p: &Path| tb::parse(&std::fs::read_to_string(p).unwrap()).unwrap();
    let mut total = Duration::ZERO;
    for p in &names {
        total += tatamibari_case(backend, &p.file_stem().unwrap().to_string_lossy(), board(p));
    }
    println!(
        "{:<8} {:<28} {:>7} {:>9.2}   ({} puzzles)\n",
        backend.name(),
        "total",
        "",
        ms(total),
        names.len()
    );
    let mut gadgets: Vec<PathBuf> = std::fs::read_dir(dir.join("gadgets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    gadgets.sort();
    let mut total = Duration::ZERO;
    for p in &gadgets {
        total += tatamibari_case(
            backend,
            &format!("gadgets/{}", p.file_stem().unwrap().to_string_lossy()),
            board(p),
        );
    }
    println!(
        "{:<8} {:<28} {:>7} {:>9.2}   ({} gadgets)\n",
        backend.name(),
        "total",
        "",
        ms(total),
        gadgets.len()
    );
    println!("tatamibari, generated boards (first solution)");
    generated(backend, &[60, 100, 200, 300, 500]);
}

/// Classic sudoku: each bundled Janko puzzle with a uniqueness check, then empty grids of
/// 16×16 to 36×36 (the largest formula of each size) to a first solution, in process.
fn sudoku(backend: &Backend, dir: &Path) {
    println!("sudoku, uniqueness check (stop at 2 solutions), then empty grids (first solution), in one process");
    println!(
        "{:<8} {:<28} {:>7} {:>9} {:>6} {:>8} {:>8}  verdict",
        "backend", "puzzle", "size", "ms", "calls", "vars", "clauses"
    );
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    let case = |name: &str, text: &str, max: u64| -> Duration {
        let board = Sudoku::parse(text, &Default::default()).unwrap();
        let shape = (board.n, board.n);
        enumerate_case::<Sudoku>(backend, name, board, shape, max)
    };
    let mut total = Duration::ZERO;
    for p in &names {
        total += case(
            &p.file_stem().unwrap().to_string_lossy(),
            &std::fs::read_to_string(p).unwrap(),
            2,
        );
    }
    println!(
        "{:<8} {:<28} {:>7} {:>9.2}   ({} puzzles)",
        backend.name(),
        "total",
        "",
        ms(total),
        names.len()
    );
    for n in [16, 25, 36] {
        case(
            &format!("empty {n}x{n}"),
            &(vec!["."; n].join(" ") + "\n").repeat(n),
            1,
        );
    }
    println!();
}

/// Shikaku: each bundled Janko puzzle with a uniqueness check (stop at 2 solutions), then the
/// largest ones four times over (two copies across, two down), in process.
fn shikaku(backend: &Backend, dir: &Path) {
    println!("shikaku, uniqueness check (stop at 2 solutions), in one process");
    println!(
        "{:<8} {:<28} {:>7} {:>9} {:>6} {:>8} {:>8}  verdict",
        "backend", "puzzle", "size", "ms", "calls", "vars", "clauses"
    );
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    let case = |name: &str, text: &str| -> Duration {
        let board = Shikaku::parse(text, &Default::default()).unwrap();
        let shape = (board.rows, board.cols);
        enumerate_case::<Shikaku>(backend, name, board, shape, 2)
    };
    let mut total = Duration::ZERO;
    for p in &names {
        total += case(
            &p.file_stem().unwrap().to_string_lossy(),
            &std::fs::read_to_string(p).unwrap(),
        );
    }
    println!(
        "{:<8} {:<28} {:>7} {:>9.2}   ({} puzzles)\n",
        backend.name(),
        "total",
        "",
        ms(total),
        names.len()
    );
    println!("shikaku, the largest puzzles four times over");
    for p in names.iter().filter(|p| {
        ["31x45", "50x40"]
            .iter()
            .any(|s| p.to_string_lossy().contains(s))
    }) {
        let text = std::fs::read_to_string(p).unwrap();
        let twice: String = text.lines().map(|l| format!("{l} {l}\n")).collect();
        case(
            &format!("{} x4", p.file_stem().unwrap().to_string_lossy()),
            &(twice.clone() + &twice),
        );
    }
    println!();
}

/// A shading genre (Nurikabe, Hitori, Heyawake): each bundled Janko puzzle with a uniqueness
/// check (stop at 2 solutions), in process. (Copies side by side would be no puzzle: their
/// walls or their unshaded cells must join.)
fn shading<P: Genre>(backend: &Backend, dir: &Path, size: impl Fn(&P::Instance) -> (usize, usize)) {
    println!(
        "{}, uniqueness check (stop at 2 solutions), in one process",
        P::INFO.name
    );
    println!(
        "{:<8} {:<28} {:>7} {:>9} {:>6} {:>8} {:>8}  verdict",
        "backend", "puzzle", "size", "ms", "calls", "vars", "clauses"
    );
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    let mut total = Duration::ZERO;
    for p in &names {
        let text = std::fs::read_to_string(p).unwrap();
        let board = P::parse(&text, &Default::default()).unwrap();
        let shape = size(&board);
        let name = p.file_stem().unwrap().to_string_lossy();
        total += enumerate_case::<P>(backend, &name, board, shape, 2);
    }
    println!(
        "{:<8} {:<28} {:>7} {:>9.2}   ({} puzzles)\n",
        backend.name(),
        "total",
        "",
        ms(total),
        names.len()
    );
}

/// How long a puzzle of a whole set may take.
const SET_LIMIT: Duration = Duration::from_secs(20);

/// A whole puzzlekit set (janko.at's puzzles of one genre, as `run` reads it): each puzzle
/// with a uniqueness check ([`SET_LIMIT`] each), in process; the slowest ten and the totals by verdict. Items that
/// do not parse (puzzlekit lists its flawed ones) are counted and left out.
fn janko_set<P: Genre>(
    backend: &Backend,
    file: &Path,
    size: impl Fn(&P::Instance) -> (usize, usize),
) {
    let Ok(input) = puzzle_sat::input::read_regular(file) else {
        println!("{}: not here, skipped\n", file.display());
        return;
    };
    let items = puzzle_sat::collection::items(&input).unwrap_or_default();
    println!(
        "{}, janko.at's whole set ({} items), uniqueness check, in one process",
        P::INFO.name,
        items.len()
    );
    let (mut total, mut times, mut unparsed) = (Duration::ZERO, Vec::new(), 0);
    let mut verdicts = std::collections::BTreeMap::new();
    for item in &items {
        let Ok(inst) = P::parse(&item.text, &Default::default()) else {
            unparsed += 1;
            continue;
        };
        let shape = size(&inst);
        let start = Instant::now();
        let limited = Options {
            time_limit: Some(SET_LIMIT),
            ..quiet(backend)
        };
        let found = runner::search::<P>(inst, Goal::Enumerate { max: 2 }, 0, &limited).unwrap();
        let t = start.elapsed();
        let verdict = match (found.count, found.ended) {
            (_, Ended::Stopped) => "time limit",
            (0, _) => "no solution",
            (1, Ended::Proved) => "unique",
            (1, _) => "solved",
            _ => "2+ solutions",
        };
        *verdicts.entry(verdict).or_insert(0) += 1;
        total += t;
        times.push((
            t,
            item.name.rsplit('#').next().unwrap_or("").to_string(),
            shape,
        ));
    }
    times.sort_by_key(|t| std::cmp::Reverse(t.0));
    for (t, name, (rows, cols)) in times.iter().take(10) {
        println!(
            "{:<8} {name:<28} {rows:>3}x{cols:<3} {:>9.2}",
            backend.name(),
            ms(*t)
        );
    }
    let median = times.get(times.len() / 2).map_or(Duration::ZERO, |t| t.0);
    println!(
        "{:<8} {:<28} {:>7} {:>9.2}   ({} puzzles, median {:.2} ms; {verdicts:?}; {unparsed} not read)\n",
        backend.name(),
        "total",
        "",
        ms(total),
        times.len(),
        ms(median)
    );
}

/// Classic Kakuro: each bundled Janko puzzle with a uniqueness check (stop at 2 solutions),
/// then the largest ones four times over (two copies across, two down: their borders keep the
/// copies apart), in process.
fn kakuro(backend: &Backend, dir: &Path) {
    println!("kakuro, uniqueness check (stop at 2 solutions), in one process");
    println!(
        "{:<8} {:<28} {:>7} {:>9} {:>6} {:>8} {:>8}  verdict",
        "backend", "puzzle", "size", "ms", "calls", "vars", "clauses"
    );
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    let case = |name: &str, text: &str| -> Duration {
        let board = kr::parse(text).unwrap();
        let shape = (board.rows, board.cols);
        enumerate_case::<Kakuro>(backend, name, board, shape, 2)
    };
    let mut total = Duration::ZERO;
    for p in &names {
        total += case(
            &p.file_stem().unwrap().to_string_lossy(),
            &std::fs::read_to_string(p).unwrap(),
        );
    }
    println!(
        "{:<8} {:<28} {:>7} {:>9.2}   ({} puzzles)\n",
        backend.name(),
        "total",
        "",
        ms(total),
        names.len()
    );
    println!("kakuro, the largest puzzles four times over");
    for p in names.iter().filter(|p| {
        ["31x46", "29x39"]
            .iter()
            .any(|s| p.to_string_lossy().contains(s))
    }) {
        let text = kr::parse(&std::fs::read_to_string(p).unwrap())
            .unwrap()
            .to_text();
        let twice: String = text.lines().map(|l| format!("{l} {l}\n")).collect();
        case(
            &format!("{} x4", p.file_stem().unwrap().to_string_lossy()),
            &(twice.clone() + &twice),
        );
    }
    println!();
}

/// Generated boards of these sides, seed 1: the first solution, in process.
fn generated(backend: &Backend, sides: &[usize]) {
    for &n in sides {
        let g = Generated::new(n, n, &mut Rng::new(1));
        let board = g.board();
        let mut size = SizeCounter::default();
        tb::encode(&board, &mut size);
        let start = Instant::now();
        let found =
            runner::search::<Tatamibari>(board, Goal::Enumerate { max: 1 }, 0, &quiet(backend))
                .unwrap();
        println!(
            "{:<8} generated {n}x{n} seed 1: {} rectangles, {:.1} ms, {} vars, {} clauses, {} solution(s), peak RSS so far {} MiB",
            backend.name(),
            g.rects.len(),
            ms(start.elapsed()),
            size.vars,
            size.clauses,
            found.count,
            peak_rss_mib()
        );
    }
}

fn peak_rss_mib() -> i64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss / 1024
}

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    v.sort();
    v
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn sudoku_case(backend: &Backend, case: &Path) -> Duration {
    let givens = ts::parse(&std::fs::read_to_string(case).unwrap()).unwrap();
    let opts = quiet(backend);
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..REPEATS {
        let start = Instant::now();
        let out = runner::search::<TargetSudoku>(givens, Goal::Best, 1, &opts).unwrap();
        times.push(start.elapsed());
        last = Some(out);
    }
    times.sort();
    let median = times[REPEATS / 2];
    let out = last.unwrap();
    let score = out.best().map_or("-1".to_string(), |b| b.1.to_string());
    let status = match (out.ended, out.best().is_some()) {
        (Ended::Proved, true) => "optimal (proved)",
        (Ended::Proved, false) => "no solution (proved)",
        _ => "unfinished",
    };
    let name = case.file_stem().unwrap().to_string_lossy();
    let s = out.stats.solver;
    println!(
        "{:<8} {name:<24} {:>9.2} {:>6} {:>6} {:>8} {score:>7}  {status}",
        backend.name(),
        ms(median),
        s.calls,
        s.vars,
        s.clauses
    );
    median
}

/// CPU time of waited-for children so far.
fn children_cpu() -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn processes(backend: &Backend, cases: &[PathBuf]) {
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let cpu0 = children_cpu();
    let wall0 = Instant::now();
    for _ in 0..PROCESS_ROUNDS {
        for case in cases {
            let out = Command::new(bin)
                .args(["solve", "target-sudoku"])
                .arg(case)
                .args(["--format", "judge", "--solver", backend.name()])
                .output()
                .unwrap();
            assert!(out.status.success());
        }
    }
    let cpu = (children_cpu() - cpu0) / PROCESS_ROUNDS as u32;
    let wall = wall0.elapsed() / PROCESS_ROUNDS as u32;
    println!(
        "{:<8} target sudoku, {} official cases as separate processes (mean of {PROCESS_ROUNDS} rounds): {:.1} ms CPU, {:.1} ms wall",
        backend.name(),
        cases.len(),
        ms(cpu),
        ms(wall)
    );
}
