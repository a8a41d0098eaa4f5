//! `explain`: the steps from a puzzle's givens to its solution, each with the rule instances
//! that force it ([`encodings::explain`]), as text or JSON; `--next` for the first step only.

use crate::backends::Backend;
use crate::driver::{parse, read_puzzle};
use crate::output::{exit, Done};
use anyhow::{bail, Result};
use encodings::explain::{self, Explained, Way};
use encodings::genre::Genre;
use encodings::puzzle::{Format, Settings};
use encodings::solver::Stop;
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct ExplainArgs {
    pub file: PathBuf,
    pub format: Format,
    /// At most this many steps (`--next`: 1).
    pub steps: Option<usize>,
    pub time_limit: Option<Duration>,
    pub backend: Backend,
}

pub fn explain<P: Genre>(a: &ExplainArgs) -> Result<Done> {
    if !P::EXPLAINS {
        bail!(
            "explain is not for {} puzzles yet (it is for {})",
            P::INFO.name,
            crate::registry::explained().join(", ")
        );
    }
    if !matches!(a.format, Format::Text | Format::Json) {
        bail!("explain prints text or json, not {}", a.format);
    }
    let input = read_puzzle::<P>(&a.file)?;
    let inst = parse::<P>(&input, &Settings::default())?;
    let stop = Stop::new();
    if let Some(limit) = a.time_limit {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            stop.raise();
        });
    }
    let solvers = a.backend.solvers(stop.clone());
    let explained = match explain::puzzle::<P>(&inst, &solvers, a.steps) {
        Ok(e) => e,
        Err(_) if stop.is_raised() => {
            return Ok(Done {
                stdout: match a.format {
                    Format::Json => line(json!({"puzzle": P::INFO.name, "status": "time limit"})),
                    _ => "no explanation: the time limit passed before the solution was found\n"
                        .to_string(),
                },
                code: exit::TIME_LIMIT,
            })
        }
        Err(e) => return Err(e.into()),
    };
    let Some(e) = explained else {
        return Ok(Done {
            stdout: match a.format {
                Format::Json => line(json!({"puzzle": P::INFO.name, "status": "no solution"})),
                _ => "no solution: nothing to explain\n".to_string(),
            },
            code: exit::NO_SOLUTION,
        });
    };
    let timed_out = e.explanation.cut_short && stop.is_raised();
    let code = if timed_out {
        exit::TIME_LIMIT
    } else if e.unique || e.explanation.cut_short {
        exit::ANSWER
    } else {
        exit::NO_SOLUTION
    };
    let stdout = match a.format {
        Format::Json => json_of::<P>(&inst, &e, timed_out),
        _ => text_of::<P>(&inst, &e, timed_out),
    };
    Ok(Done { stdout, code })
}

fn line(v: Value) -> String {
    v.to_string() + "\n"
}

/// What the explanation amounts to, in one line.
fn summary<P: Genre>(e: &Explained<P>, timed_out: bool) -> String {
    let steps = &e.explanation.steps;
    let count = |w: Way| steps.iter().filter(|s| s.way == w).count();
    let ways = [Way::Single, Way::Chain, Way::Search]
        .into_iter()
        .filter(|&w| count(w) > 0)
        .map(|w| format!("{} {}", count(w), w.name()))
        .collect::<Vec<_>>()
        .join(", ");
    let n = steps.len();
    let plural = if n == 1 { "" } else { "s" };
    let head = if ways.is_empty() {
        format!("{n} step{plural}")
    } else {
        format!("{n} step{plural} ({ways})")
    };
    let end = if timed_out {
        "stopped by the time limit"
    } else if e.explanation.cut_short {
        "the first ones only"
    } else if e.unique {
        "the solution is unique"
    } else {
        "more than one solution: what is left is not forced"
    };
    format!("{}: {head}; {end}", P::INFO.name)
}

fn text_of<P: Genre>(inst: &P::Instance, e: &Explained<P>, timed_out: bool) -> String {
    let named = &e.named;
    let mut out = summary(e, timed_out) + "\n";
    for (k, step) in e.explanation.steps.iter().enumerate() {
        let rules: Vec<&str> = step.rules.iter().map(|&r| named.rules.name(r)).collect();
        let how = match step.way {
            Way::Single => String::new(),
            Way::Chain => " (together)".to_string(),
            Way::Search => " (by cases)".to_string(),
        };
        out += &format!("{:>3}. {}{how}\n", k + 1, rules.join("; "));
        out += &format!("     so {}\n", named.say_all(&step.deduces));
    }
    if e.explanation.cut_short || !e.unique {
        let mut known = named.known.clone();
        known.extend(
            e.explanation
                .steps
                .iter()
                .flat_map(|s| s.deduces.iter().copied()),
        );
        out += &format!(
            "after {} step{}:\n",
            e.explanation.steps.len(),
            if e.explanation.steps.len() == 1 {
                ""
            } else {
                "s"
            }
        );
        out += &P::draw_known(inst, named, &known);
    } else {
        out += "solution:\n";
        out += &P::render(inst, &e.answer.0, &e.answer.1, Format::Text);
    }
    out
}

fn json_of<P: Genre>(inst: &P::Instance, e: &Explained<P>, timed_out: bool) -> String {
    let named = &e.named;
    let steps: Vec<Value> = e
        .explanation
        .steps
        .iter()
        .map(|s| {
            json!({
                "deduces": s.deduces.iter().map(|&l| named.say(l)).collect::<Vec<_>>(),
                "rules": s.rules.iter().map(|&r| named.rules.name(r)).collect::<Vec<_>>(),
                "way": s.way.name(),
                "uses": s.uses.iter().map(|&l| named.say(l)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let status = if timed_out {
        "time limit"
    } else if e.explanation.cut_short {
        "partial"
    } else if e.unique {
        "explained"
    } else {
        "not unique"
    };
    let mut m = Map::new();
    m.insert("puzzle".into(), json!(P::INFO.name));
    m.insert("status".into(), json!(status));
    m.insert("unique".into(), json!(e.unique));
    m.insert("steps".into(), Value::Array(steps));
    // Facts neither given nor deduced: none once a unique solution is explained.
    let decided = named.known.len()
        + e.explanation
            .steps
            .iter()
            .map(|s| s.deduces.len())
            .sum::<usize>();
    m.insert("open".into(), json!(named.facts.len() - decided));
    // Only a unique solution is the explanation's end; otherwise it is one of several.
    m.insert(
        "solution".into(),
        if e.unique {
            Value::Object(P::answer_json(inst, &e.answer.0, &e.answer.1))
        } else {
            Value::Null
        },
    );
    line(Value::Object(m))
}
