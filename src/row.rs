//! One row of `run`: a puzzle file solved and compared with the expected answer beside it.
//! Written once for every puzzle, and computed in the child process (`run-file`); `run.rs`
//! finds the files, starts the children and gathers their rows.

use crate::input::{read_regular, Input};
use crate::output::Status;
use crate::runner::{self, Options, Progress};
use anyhow::Result;
use encodings::genre::Genre;
use encodings::puzzle::{Ended, Goal, Settings, Task};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Extensions of the files that hold expected answers, in the order they are looked for.
/// `.sol` is an answer in any form `check` reads; the others hold a score as `solve` prints it,
/// or `-1` / `no solution` for a puzzle without an answer (`.out` is P1074's judge file).
pub const EXPECTED: [&str; 4] = ["sol", "out", "out.computed", "score"];

/// The file holding the expected answer of `file`, if there is one: whatever is there by that
/// name (a FIFO or a broken link is an error of the row, not an expected answer quietly missed).
pub fn expected_file(file: &Path) -> Option<PathBuf> {
    let stem = file.with_extension("");
    EXPECTED
        .iter()
        .map(|ext| PathBuf::from(format!("{}.{ext}", stem.display())))
        .find(|p| p.symlink_metadata().is_ok_and(|m| !m.is_dir()) && p != file)
}

/// One puzzle file's row, computed in the child (`run-file`): solve, then compare with the
/// expected answer. Never fails: an error is a row.
pub fn file_row<P: Genre>(file: &Path, opts: &Options) -> Map<String, Value> {
    let mut row = Map::new();
    row.insert("file".into(), json!(file.display().to_string()));
    row.insert("puzzle".into(), json!(P::INFO.name));
    if let Err(e) = solve_row::<P>(file, opts, &mut row) {
        row.insert("status".into(), json!("error"));
        row.insert("verdict".into(), json!("error"));
        row.insert("reason".into(), json!(format!("{e:#}")));
    }
    row
}

fn solve_row<P: Genre>(file: &Path, opts: &Options, row: &mut Map<String, Value>) -> Result<()> {
    let mut input = read_regular(file)?;
    // A URL alone in the file stands for its puzzle, as for `solve`.
    if let Some(url) = crate::driver::url_alone(&input.text) {
        input.text = encodings::genre::url_text::<P>(url)
            .map_err(|e| anyhow::anyhow!("{}: {e}", input.name))?;
    }
    // Read before the search: an expected answer that cannot be read is the row's error.
    let expected = expected_file(file);
    let expected_input = expected.as_deref().map(read_regular).transpose()?;
    let inst = crate::driver::parse::<P>(&input, &Settings::default())?;
    let (goal, keep) = match P::TASK {
        Task::Maximize => (Goal::Best, 1),
        // Two answers say whether the solution is unique.
        Task::Enumerate => (Goal::Enumerate { max: 2 }, 2),
    };
    let out = runner::search::<P>(inst.clone(), goal, keep, opts)?;
    let found = out
        .answers
        .last()
        .filter(|_| P::TASK == Task::Maximize)
        .or(out.answers.first());
    let stopped = out.ended == Ended::Stopped;
    let status = match (found.is_some(), stopped, P::TASK) {
        (true, true, Task::Maximize) => Status::BestFound,
        (true, false, Task::Maximize) => Status::Optimal,
        (true, _, Task::Enumerate) => Status::Solved,
        (false, true, _) => Status::Unknown,
        (false, false, _) => Status::NoSolution,
    };
    row.insert("status".into(), json!(status.json_name()));
    row.insert(
        "score".into(),
        match (P::TASK, found) {
            (Task::Maximize, Some((_, c))) => json!(P::score(c).to_string()),
            _ => Value::Null,
        },
    );
    if let Some(g) = found
        .filter(|_| status == Status::BestFound)
        .and_then(|(_, c)| runner::gap::<P>(&P::score(c), out.upper_bound))
    {
        row.insert("upper_bound".into(), json!(format!("{:.0}", g.bound)));
        row.insert("gap_percent".into(), json!(g.percent));
    }
    if P::TASK == Task::Enumerate {
        row.insert("solutions".into(), json!(out.count));
        let unique = match (out.count, stopped) {
            (1, false) => json!(true),
            (2, _) => json!(false),
            _ => Value::Null,
        };
        row.insert("unique".into(), unique);
    }
    // What the row claims was refuted: no better score, no other solution, no solution at all;
    // proved as far as the backend's UNSAT answers are trusted.
    row.insert("proved".into(), json!(!stopped));
    row.insert(
        "unsat_answers".into(),
        json!(opts.backend.trust().json_name()),
    );
    let s = &out.stats;
    row.insert("seconds".into(), json!(s.elapsed.as_secs_f64()));
    row.insert("variables".into(), json!(s.solver.vars));
    row.insert("clauses".into(), json!(s.solver.clauses));
    row.insert("backend".into(), json!(s.backend));

    row.insert(
        "expected".into(),
        json!(expected.as_ref().map(|p| p.display().to_string())),
    );
    let verdict = if stopped {
        Err("time limit: the search did not finish".to_string())
    } else {
        match &expected_input {
            None => Ok(None),
            Some(input) => compare::<P>(&inst, input, &out.answers, out.count, opts).map(Some),
        }
    };
    let (verdict, reason) = match verdict {
        Ok(None) => ("ok", None),
        Ok(Some(why)) => ("pass", Some(why)),
        Err(why) if stopped => ("timeout", Some(why)),
        Err(why) => ("fail", Some(why)),
    };
    row.insert("verdict".into(), json!(verdict));
    row.insert("reason".into(), json!(reason));
    Ok(())
}

/// Compares a finished search with the expected answer `input`: why it passes, or why not.
fn compare<P: Genre>(
    inst: &P::Instance,
    input: &Input,
    answers: &[(P::Answer, P::Checked)],
    count: u64,
    opts: &Options,
) -> Result<String, String> {
    let path = Path::new(&input.name);
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let best = match P::TASK {
        Task::Maximize => answers.last(),
        Task::Enumerate => answers.first(),
    };
    if name.ends_with(".sol") {
        let read = match P::read_answer(inst, &input.text) {
            Ok(Ok(read)) => read,
            Ok(Err(v)) => return Err(format!("{name} breaks a rule: {v}")),
            Err(e) => return Err(format!("{}", input.error(e))),
        };
        let (sol, sol_checked) = if read.complete {
            let checked =
                P::check(inst, &read.answer).map_err(|v| format!("{name} breaks a rule: {v}"))?;
            (read.answer, checked)
        } else {
            let quiet = Options {
                progress: Progress::Never,
                ..opts.clone()
            };
            let completion = P::COMPLETION.ok_or_else(|| {
                format!(
                    "internal error: {} read an incomplete answer but completes none",
                    P::INFO.name
                )
            })?;
            let out =
                runner::search::<P>((completion.fix)(inst, &read.answer), Goal::Best, 1, &quiet)
                    .map_err(|e| e.to_string())?;
            out.answers
                .into_iter()
                .last()
                .ok_or_else(|| format!("{name}: {}", completion.none))?
        };
        let Some((found, found_checked)) = best else {
            return Err(format!("no solution found, but {name} is a valid answer"));
        };
        return match P::TASK {
            Task::Maximize => {
                let (want, got) = (P::score(&sol_checked), P::score(found_checked));
                if want == got {
                    Ok(format!("score {got} equals {name}'s"))
                } else {
                    Err(format!("score {got}, but {name} scores {want}"))
                }
            }
            Task::Enumerate if count >= 2 => Ok(format!(
                "several solutions; the one found is valid ({name} is one of them)"
            )),
            Task::Enumerate if *found == sol => Ok(format!("the unique solution equals {name}")),
            Task::Enumerate => Err(format!("the unique solution found differs from {name}")),
        };
    }
    let want = input.text.lines().next().unwrap_or("").trim();
    let none = want == "-1" || want == "no solution";
    match (best, P::TASK) {
        (None, _) if none => Ok(format!("no solution, as {name} says")),
        (None, _) => Err(format!("no solution, but {name} expects {want}")),
        (Some(_), _) if none => Err(format!(
            "an answer was found, but {name} says there is none"
        )),
        (Some((_, c)), Task::Maximize) => {
            let got = P::score(c).to_string();
            if got == want {
                Ok(format!("score {got} as {name} says"))
            } else {
                Err(format!("score {got}, but {name} expects {want}"))
            }
        }
        (Some(_), Task::Enumerate) => Err(format!(
            "{name} holds a score, but {} puzzles have none",
            P::INFO.name
        )),
    }
}
