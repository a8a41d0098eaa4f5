//! Target sudoku on the command line: solve (text, judge, JSON), encode to DIMACS, decode an
//! external solver's model.

use crate::cli::{exit, Done, Format};
use crate::dimacs;
use crate::input::Input;
use crate::json;
use crate::optimize::{maximize, Options, Status};
use anyhow::{anyhow, Result};
use encodings::cnf::Cnf;
use encodings::sum::Bound;
use encodings::target_sudoku::{self as ts, Grid, TargetSudoku};

pub fn solve(input: &Input, format: Format, opts: &Options) -> Result<Done> {
    let givens = ts::parse(&input.text).map_err(|e| input.error(e))?;
    let outcome = maximize(TargetSudoku { givens }, opts);
    if let Some((grid, _)) = &outcome.best {
        // The independent validator sees every answer before it is printed.
        ts::check(&givens, grid).map_err(|v| anyhow!("internal error: the solver's grid breaks a rule: {v}"))?;
    }
    let best = outcome.best.as_ref();
    let code = match (outcome.status, format) {
        (Status::Unknown, _) => exit::TIME_LIMIT,
        (Status::NoSolution, Format::Judge) => exit::ANSWER,
        (Status::NoSolution, _) => exit::NO_SOLUTION,
        _ => exit::ANSWER,
    };
    let stdout = match format {
        Format::Judge => match (outcome.status, best) {
            (Status::NoSolution, _) => "-1\n".to_string(),
            (Status::Unknown, _) => {
                eprintln!("puzzle-sat: time limit passed before any completion was found");
                String::new()
            }
            (status, Some((_, score))) => {
                if status == Status::BestFound {
                    eprintln!("puzzle-sat: time limit passed: {score} is the best found, not proved optimal");
                }
                format!("{score}\n")
            }
            (_, None) => unreachable!("an optimal or best-found status carries an answer"),
        },
        Format::Text | Format::Box | Format::Rects => match best {
            Some((grid, score)) => format!("{}score {score}\n{}\n", ts::render(grid), status_text(outcome.status)),
            None => format!("{}\n", status_text(outcome.status)),
        },
        Format::Json => {
            let s = &outcome.stats;
            json::object(&[
                ("puzzle", json::string("target-sudoku")),
                ("status", json::string(outcome.status.json_name())),
                ("score", best.map_or("null".into(), |b| b.1.to_string())),
                ("grid", best.map_or("null".into(), |b| grid_json(&b.0))),
                ("sat_calls", s.sat_calls.to_string()),
                ("variables", s.vars.to_string()),
                ("clauses", s.clauses.to_string()),
                ("seconds", format!("{:.6}", s.elapsed.as_secs_f64())),
            ]) + "\n"
        }
    };
    Ok(Done { stdout, code })
}

fn status_text(status: Status) -> &'static str {
    match status {
        Status::Optimal => "optimal (proved)",
        Status::BestFound => "best found (time limit)",
        Status::NoSolution => "no solution",
        Status::Unknown => "no answer found (time limit)",
    }
}

fn grid_json(grid: &Grid) -> String {
    json::array(grid.iter().map(|row| json::array(row.iter().map(|d| d.to_string()))))
}

/// DIMACS whose models are exactly the completions scoring at least `min_score`.
pub fn encode(input: &Input, min_score: Option<&str>) -> Result<String> {
    let givens = ts::parse(&input.text).map_err(|e| input.error(e))?;
    let mut cnf = Cnf::new();
    let enc = ts::encode(&givens, &mut cnf);
    let mut comments = vec![
        format!("puzzle-sat target-sudoku {}", input.name),
        format!("variables rRcC=D: cell (R, C) holds digit D; score>=N: the score is at least N (score = {} + sum of (digit - 1) over the corners, the ring around the centre box and the centre)", ts::SCORE_BASE),
    ];
    if let Some(s) = min_score {
        let s: u32 = s.parse().map_err(|_| anyhow!("--min-score: {s:?} is not a non-negative integer score"))?;
        comments.push(format!("only completions scoring at least {s}"));
        match enc.min_score(s) {
            Bound::Trivial => {}
            Bound::Impossible => cnf.clauses.push(Vec::new()),
            Bound::Lit(l) => cnf.clauses.push(vec![l]),
        }
    }
    Ok(dimacs::to_string(&cnf, &comments))
}

/// Reads a model of `encode`'s CNF (the encoder numbers variables the same way every time).
pub fn decode(input: &Input, model: &Input, format: Format) -> Result<Done> {
    let givens = ts::parse(&input.text).map_err(|e| input.error(e))?;
    let mut cnf = Cnf::new();
    let enc = ts::encode(&givens, &mut cnf);
    let Some(m) = dimacs::external_model(&cnf, &model.text, &model.name)? else {
        return Ok(Done::refuted("target-sudoku", format));
    };
    let grid = ts::decode(&enc, &m);
    ts::check(&givens, &grid).map_err(|v| anyhow!("{}: the decoded grid breaks a rule: {v}", model.name))?;
    let score = ts::score(&grid);
    let stdout = match format {
        Format::Json => json::object(&[
            ("puzzle", json::string("target-sudoku")),
            ("status", json::string("solution")),
            ("score", score.to_string()),
            ("grid", grid_json(&grid)),
        ]) + "\n",
        _ => format!("{}score {score}\nvalid completion (optimality not checked)\n", ts::render(&grid)),
    };
    Ok(Done { stdout, code: exit::ANSWER })
}

/// Validates a completed grid with the independent validator and prints its score.
pub fn check(input: &Input, answer: &Input) -> Result<Done> {
    let givens = ts::parse(&input.text).map_err(|e| input.error(e))?;
    let grid = ts::parse(&answer.text).map_err(|e| answer.error(e))?;
    Ok(match ts::check(&givens, &grid) {
        Ok(()) => Done { stdout: format!("valid, score {}\n", ts::score(&grid)), code: exit::ANSWER },
        Err(v) => Done { stdout: format!("invalid: {v}\n"), code: exit::NO_SOLUTION },
    })
}
