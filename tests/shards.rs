//! `run --shard K/N` and `run --merge`: shards joined give what one run gives, byte for byte
//! where a run is fixed (the snapshot, the JSON rows without times, sizes and the backend that
//! answered, the summary); a merge refuses anything that is not every shard of one run; a
//! Slurm array task takes its shard from its variables; GNU parallel drives shards (second tier).

mod common;

use common::{data_dir, run};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// What varies between two runs of the same puzzles: how long, how large the searched formula
/// grew (lazy cuts follow the models), and which backend of the race answered.
const VOLATILE: [&str; 4] = ["seconds", "variables", "clauses", "backend"];

fn fixed_rows(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|l| {
            let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(l) else {
                panic!("not a JSON object: {l}")
            };
            for k in VOLATILE {
                m.remove(k);
            }
            Value::Object(m).to_string()
        })
        .collect()
}

/// A small run of every kind of row: puzzles of three genres with answers beside them, a
/// scoring puzzle, a collection file of several puzzles (each a row), a file that fails its row,
/// and files that are skipped.
fn corpus(dir: &Path) -> Vec<PathBuf> {
    let copy = |from: &Path, to: &Path| {
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(from, to).unwrap();
    };
    for genre in ["heyawake", "sudoku", "target-sudoku"] {
        let mut files: Vec<PathBuf> = fs::read_dir(data_dir(genre))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files.iter().take(9) {
            copy(f, &dir.join(genre).join(f.file_name().unwrap()));
        }
    }
    let sudoku = fs::read_to_string(data_dir("sudoku").join("janko-1-9x9.txt")).unwrap();
    let line: String = sudoku
        .split_whitespace()
        .map(|w| if w == "-" || w == "0" { "." } else { w })
        .collect();
    // A collection is read as one when named (a walk takes files of one puzzle).
    let collection = dir.with_file_name("sudokus.txt");
    fs::write(&collection, format!("{line}\n{}\n{line}\n", ".".repeat(81))).unwrap();
    fs::write(dir.join("heyawake").join("broken.txt"), "3 3\n(x\n").unwrap();
    vec![dir.to_path_buf(), collection]
}

fn run_shards(paths: &[PathBuf], n: usize, out: &Path) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let mut args = vec!["run".to_string(), "-q".into()];
            args.extend(paths.iter().map(|p| p.display().to_string()));
            args.push(format!("--shard={k}/{n}"));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let r = run(&args, None);
            assert!(r.code == 0 || r.code == 1, "shard {k}/{n}: {}", r.stderr);
            let file = out.join(format!("shard-{k}.jsonl"));
            fs::write(&file, &r.stdout).unwrap();
            file
        })
        .collect()
}

fn strs(paths: &[PathBuf]) -> Vec<String> {
    paths.iter().map(|p| p.display().to_string()).collect()
}

#[test]
fn four_shards_merged_are_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let paths = corpus(&data);
    let out = tmp.path().join("out");
    fs::create_dir_all(&out).unwrap();
    let shards = run_shards(&paths, 4, &out);
    let whole = |extra: &[&str]| {
        let mut args = vec!["run", "-q"];
        let p = strs(&paths);
        args.extend(p.iter().map(String::as_str));
        args.extend_from_slice(extra);
        run(&args, None)
    };
    let merged = |extra: &[&str]| {
        let mut args = vec!["run", "--merge", "-q"];
        let s = strs(&shards);
        args.extend(s.iter().map(String::as_str));
        args.extend_from_slice(extra);
        run(&args, None)
    };
    // The snapshots, byte for byte.
    let (one_snap, merged_snap) = (out.join("one.snap"), out.join("merged.snap"));
    let one = whole(&["--snapshot", one_snap.to_str().unwrap()]);
    let joined = merged(&["--snapshot", merged_snap.to_str().unwrap()]);
    assert_eq!(one.code, 1, "the broken file fails its row: {}", one.stdout);
    assert_eq!(joined.code, one.code, "{}", joined.stderr);
    let snap = fs::read_to_string(&one_snap).unwrap();
    assert_eq!(snap, fs::read_to_string(&merged_snap).unwrap());
    assert!(
        snap.lines().count() > 12 && snap.contains("sudokus.txt:3\t"),
        "the run shows little: {snap}"
    );
    // And compared with it: the merge of the same shards passes the run's snapshot.
    let again = merged(&["--snapshot", one_snap.to_str().unwrap()]);
    assert_eq!(again.code, 1, "only the broken row fails: {}", again.stderr);
    assert!(!again.stderr.contains("snapshot"), "{}", again.stderr);
    // The JSON rows, but for what no two runs share.
    let (one, joined) = (whole(&["--format", "json"]), merged(&["--format", "json"]));
    assert_eq!(fixed_rows(&one.stdout), fixed_rows(&joined.stdout));
    // The table's summary and its failure lines.
    let (one, joined) = (whole(&[]), merged(&[]));
    let tail = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("ERROR:") || l.contains(" passed, "))
            .map(String::from)
            .collect()
    };
    assert_eq!(tail(&one.stdout), tail(&joined.stdout));
    assert!(tail(&one.stdout).len() == 2, "{}", one.stdout);
    // One shard of one is the whole run too.
    let single = run_shards(&paths, 1, &mkdir(tmp.path().join("one-shard")));
    let r = run(
        &[
            "run",
            "--merge",
            "-q",
            single[0].to_str().unwrap(),
            "--snapshot",
            one_snap.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
}

fn mkdir(dir: PathBuf) -> PathBuf {
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_merge_refuses_anything_but_every_shard_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let paths = vec![data_dir("heyawake")];
    let shards = run_shards(&paths, 3, tmp.path());
    let s = strs(&shards);
    let merge = |files: &[&str]| {
        let mut args = vec!["run", "--merge", "-q"];
        args.extend_from_slice(files);
        run(&args, None)
    };
    assert_eq!(merge(&[&s[0], &s[1], &s[2]]).code, 0);
    // Several whole shards in one file, in any order, as GNU parallel gathers them.
    let all = tmp.path().join("all.jsonl");
    let text = |k: usize| fs::read_to_string(&shards[k]).unwrap();
    fs::write(&all, text(2) + &text(0) + &text(1)).unwrap();
    let one_file = merge(&[all.to_str().unwrap()]);
    assert_eq!(one_file.code, 0, "{}", one_file.stderr);
    assert_eq!(
        one_file.stdout.lines().count(),
        merge(&[&s[0], &s[1], &s[2]]).stdout.lines().count()
    );
    // ... but not one cut inside another.
    let t1 = text(1);
    let half: Vec<&str> = t1.lines().take(2).collect();
    fs::write(&all, half.join("\n") + "\n" + &text(0) + &text(2)).unwrap();
    let r = merge(&[all.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("begins before shard 2/3 has ended"),
        "{}",
        r.stderr
    );
    let refused = |files: &[&str], says: &str| {
        let r = merge(files);
        assert_eq!(r.code, 2, "{files:?}: {}", r.stdout);
        assert!(r.stderr.contains(says), "{files:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    };
    refused(&[&s[0], &s[2]], "shard 2/3 of the run is missing");
    refused(&[&s[0], &s[1], &s[1], &s[2]], "are both shard 2/3");
    // Cut short: a shard that did not finish.
    let text = fs::read_to_string(&shards[1]).unwrap();
    let cut = tmp.path().join("cut.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    fs::write(&cut, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    refused(&[&s[0], cut.to_str().unwrap(), &s[2]], "did not finish");
    // A row dropped, the count left: and a row dropped with the count mended.
    let dropped = tmp.path().join("dropped.jsonl");
    fs::write(&dropped, lines[1..].join("\n") + "\n").unwrap();
    refused(&[&s[0], dropped.to_str().unwrap(), &s[2]], "rows, but");
    let rows = lines.len() - 1;
    let mended = lines[1..].join("\n").replace(
        &format!("\"rows\":{rows}"),
        &format!("\"rows\":{}", rows - 1),
    );
    fs::write(&dropped, mended + "\n").unwrap();
    refused(
        &[&s[0], dropped.to_str().unwrap(), &s[2]],
        "where its share is 18",
    );
    // A row moved to another place.
    let moved = tmp.path().join("moved.jsonl");
    let forged = text.replacen("\"place\":1}", "\"place\":0}", 1);
    assert_ne!(forged, text);
    fs::write(&moved, forged).unwrap();
    refused(&[&s[0], moved.to_str().unwrap(), &s[2]], "shard 2/3");
    // Two rows' places swapped, or a row renamed: the rows no longer name the run's puzzles
    // in its order.
    let rows: Vec<Value> = lines[..lines.len() - 1]
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut swapped = rows.clone();
    let (p0, p1) = (swapped[0]["place"].clone(), swapped[1]["place"].clone());
    swapped[0]["place"] = p1;
    swapped[1]["place"] = p0;
    let mut renamed = rows.clone();
    renamed[0]["file"] = Value::from("evil.txt");
    for forged in [swapped, renamed] {
        let text: String = forged
            .iter()
            .map(|r| r.to_string() + "\n")
            .chain([lines[lines.len() - 1].to_string() + "\n"])
            .collect();
        fs::write(&moved, text).unwrap();
        refused(
            &[&s[0], moved.to_str().unwrap(), &s[2]],
            "do not name the puzzles of the run",
        );
    }
    // A count of puzzles past any file's rows is refused, not counted out.
    let huge = tmp.path().join("huge.jsonl");
    for puzzles in ["1000000000000000", "18446744073709551615"] {
        fs::write(
            &huge,
            format!("{{\"shard\":\"1/1\",\"end\":true,\"puzzles\":{puzzles},\"rows\":0,\"skipped\":0,\"special\":0,\"fingerprint\":\"x\",\"settings\":\"\"}}\n"),
        )
        .unwrap();
        refused(&[huge.to_str().unwrap()], "where its share is");
    }
    fs::write(&huge, "").unwrap();
    refused(&[huge.to_str().unwrap()], "empty");
    // Shards run with another time limit are another run.
    let limited = {
        let r = run(
            &[
                "run",
                "-q",
                &data_dir("heyawake").display().to_string(),
                "--shard=2/3",
                "--time-limit=30",
            ],
            None,
        );
        let file = tmp.path().join("limited.jsonl");
        fs::write(&file, r.stdout).unwrap();
        file
    };
    refused(&[&s[0], limited.to_str().unwrap(), &s[2]], "other settings");
    // A shard of another run (other files), and of the same files split another way.
    let other = run_shards(&[data_dir("lits")], 3, &mkdir(tmp.path().join("other")));
    refused(
        &[&s[0], other[1].to_str().unwrap(), &s[2]],
        "shards of different runs",
    );
    let halves = run_shards(&paths, 2, &mkdir(tmp.path().join("halves")));
    refused(
        &[&s[0], halves[1].to_str().unwrap(), &s[2]],
        "different runs",
    );
    // Not a shard's output at all, with its place named.
    let junk = tmp.path().join("junk.jsonl");
    fs::write(&junk, "{\"shard\":\"1/3\",\"place\":0}\nnot json\n").unwrap();
    refused(&[junk.to_str().unwrap()], "junk.jsonl:2: not a line");
    fs::write(&junk, "{\"place\":0}\n").unwrap();
    refused(&[junk.to_str().unwrap()], "junk.jsonl:1: no \"shard\"");
    refused(&[tmp.path().to_str().unwrap()], "cannot read");
}

#[test]
fn a_slurm_array_task_takes_its_shard_by_itself() {
    let paths = [data_dir("lits")];
    let p = strs(&paths);
    let tmp = tempfile::tempdir().unwrap();
    let shards = run_shards(&paths, 3, tmp.path());
    // Tasks 10, 12, 14 of `--array=10-14:2`: task 12 is the second of three.
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let task = |id: &str| {
        std::process::Command::new(bin)
            .args(["run", "-q", &p[0]])
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("SLURM_ARRAY_TASK_MIN", "10")
            .env("SLURM_ARRAY_TASK_MAX", "14")
            .env("SLURM_ARRAY_TASK_STEP", "2")
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .output()
            .unwrap()
    };
    let out = task("12");
    assert_eq!(out.status.code(), Some(0));
    let files = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                format!("{} {}", v["shard"], v["file"])
            })
            .collect()
    };
    let mine = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        files(&mine),
        files(&fs::read_to_string(&shards[1]).unwrap())
    );
    // --shard wins over the variables; a task the variables do not place is an error.
    let bad = task("13");
    assert_eq!(bad.status.code(), Some(2));
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(said.contains("Slurm array task 13"), "{said}");
}

/// GNU parallel (Debian's `parallel`) runs the shards, as on one machine or over `--sshlogin`.
#[cfg(feature = "outside-tools")]
#[test]
fn gnu_parallel_runs_the_shards() {
    common::require("parallel");
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let paths = corpus(&data);
    let bin = env!("CARGO_BIN_EXE_puzzle-sat");
    let out = mkdir(tmp.path().join("out"));
    let status = std::process::Command::new("parallel")
        .args(["--will-cite", "--halt", "never", "-j", "2"])
        .arg(format!(
            "{bin} run -q --threads 1 {} {} --shard {{}}/4 > {}/shard-{{}}.jsonl",
            paths[0].display(),
            paths[1].display(),
            out.display()
        ))
        .args([":::", "1", "2", "3", "4"])
        .status()
        .unwrap();
    // Each shard's exit status is its rows' (the broken file fails its row in one of them).
    assert!(status.code().is_some_and(|c| c <= 1), "{status}");
    let shards: Vec<String> = (1..=4)
        .map(|k| out.join(format!("shard-{k}.jsonl")).display().to_string())
        .collect();
    let snap = out.join("one.snap");
    let mut args = vec!["run", "-q"];
    let p = strs(&paths);
    args.extend(p.iter().map(String::as_str));
    args.extend(["--snapshot", snap.to_str().unwrap()]);
    assert_eq!(run(&args, None).code, 1);
    let mut args = vec!["run", "--merge", "-q"];
    args.extend(shards.iter().map(String::as_str));
    let merged = out.join("merged.snap");
    args.extend(["--snapshot", merged.to_str().unwrap()]);
    assert_eq!(run(&args, None).code, 1);
    assert_eq!(
        fs::read_to_string(&snap).unwrap(),
        fs::read_to_string(&merged).unwrap()
    );
}
