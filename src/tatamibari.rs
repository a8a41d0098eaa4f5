//! Tatamibari on the command line: solve, count, uniqueness, check, encode, decode, generate.

use crate::cli::{exit, Done, Format};
use crate::dimacs;
use crate::enumerate::{enumerate, Enumeration};
use crate::input::Input;
use crate::json;
use crate::optimize::Options;
use crate::solver::Varisat;
use anyhow::{anyhow, bail, Result};
use encodings::cnf::{ClauseSink, Cnf};
use encodings::cnf::Lit;
use encodings::tatamibari::generate::{Generated, Placement, Rng};
use encodings::tatamibari::{self as tb, Board, Rect, Solution, Tatamibari};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    First,
    Count(u64),
    Unique,
}

fn parse(input: &Input) -> Result<Board> {
    tb::parse(&input.text).map_err(|e| input.error(e))
}

pub fn solve(input: &Input, mode: Mode, format: Format, opts: &Options) -> Result<Done> {
    let board = parse(input)?;
    let (max, keep) = match mode {
        Mode::First => (1, 1),
        Mode::Count(max) => (max, 1),
        Mode::Unique => (2, 2),
    };
    let found = enumerate(Tatamibari { board: board.clone() }, max, keep, opts.time_limit);
    for sol in &found.shown {
        // The independent validator sees every solution before it is printed.
        tb::check_rects(&board, sol).map_err(|v| anyhow!("internal error: the solver's solution breaks a rule: {v}"))?;
    }
    if opts.progress.now(found.stats.elapsed) {
        eprintln!("[{:8.3}s] {} solutions found with {} SAT calls", found.stats.elapsed.as_secs_f64(), found.count, found.stats.sat_calls);
    }
    let code = if found.count > 0 {
        exit::ANSWER
    } else if found.timed_out {
        exit::TIME_LIMIT
    } else {
        exit::NO_SOLUTION
    };
    let stdout = match format {
        Format::Json => to_json(mode, &found),
        _ => to_text(&board, mode, format, &found),
    };
    Ok(Done { stdout, code })
}

/// The seed's label grid, or box lines beyond 61 rectangles or when asked.
fn draw(board: &Board, sol: &Solution, format: Format) -> String {
    match format {
        Format::Rects => tb::render_rects(sol),
        Format::Box => tb::render_box(board, sol),
        _ => tb::render_labels(board, sol).unwrap_or_else(|| tb::render_box(board, sol)),
    }
}

fn to_text(board: &Board, mode: Mode, format: Format, found: &Enumeration<Solution>) -> String {
    let first = found.shown.first();
    // `rects` prints rectangles and nothing else; verdicts go to stderr there.
    let say = |out: &mut String, line: String| {
        if format == Format::Rects {
            eprintln!("{line}");
        } else {
            out.push_str(&line);
            out.push('\n');
        }
    };
    let mut out = String::new();
    if found.count == 0 {
        let line = if found.timed_out { "no solution found (time limit)" } else { "no solution" };
        say(&mut out, line.to_string());
        return out;
    }
    match mode {
        Mode::First => out += &draw(board, first.unwrap(), format),
        Mode::Count(max) => {
            let n = found.count;
            let plural = if n == 1 { "solution" } else { "solutions" };
            let line = if found.complete {
                format!("{n} {plural}")
            } else if found.timed_out {
                format!("at least {n} {plural} (time limit)")
            } else {
                format!("at least {n} {plural} (stopped at {max})")
            };
            if format == Format::Rects {
                out += &draw(board, first.unwrap(), format);
            }
            say(&mut out, line);
        }
        Mode::Unique => {
            let line = match (found.count, found.complete) {
                (1, true) => "unique",
                (1, false) => "one solution found; uniqueness unknown (time limit)",
                _ => "not unique: two different solutions",
            };
            say(&mut out, line.to_string());
            for (k, sol) in found.shown.iter().enumerate() {
                if k > 0 {
                    out.push('\n');
                }
                out += &draw(board, sol, format);
            }
        }
    }
    out
}

fn rects_json(sol: &Solution) -> String {
    json::array(sol.iter().map(|r| json::array([r.row, r.col, r.height, r.width].map(|v| v.to_string()))))
}

fn to_json(mode: Mode, found: &Enumeration<Solution>) -> String {
    let status = match (found.count, found.timed_out) {
        (0, true) => "unknown",
        (0, false) => "no_solution",
        _ => "solved",
    };
    let s = &found.stats;
    let mut fields = vec![
        ("puzzle", json::string("tatamibari")),
        ("status", json::string(status)),
        ("rectangles", found.shown.first().map_or("null".into(), rects_json)),
    ];
    match mode {
        Mode::First => {}
        Mode::Count(_) => {
            fields.push(("solutions", found.count.to_string()));
            fields.push(("complete", found.complete.to_string()));
        }
        Mode::Unique => {
            let unique = match (found.count, found.complete) {
                (2, _) => "false",
                (1, true) => "true",
                (0, true) => "false",
                _ => "null",
            };
            fields.push(("unique", unique.into()));
            fields.push(("second", found.shown.get(1).map_or("null".into(), rects_json)));
        }
    }
    fields.push(("sat_calls", s.sat_calls.to_string()));
    fields.push(("variables", s.vars.to_string()));
    fields.push(("clauses", s.clauses.to_string()));
    fields.push(("seconds", format!("{:.6}", s.elapsed.as_secs_f64())));
    json::object(&fields) + "\n"
}

/// Validates a label grid (the corpus's `.sol` format) with the independent validator.
pub fn check(input: &Input, answer: &Input) -> Result<Done> {
    let board = parse(input)?;
    let labels = tb::parse_labels(&board, &answer.text).map_err(|e| answer.error(e))?;
    Ok(match tb::check(&board, &labels) {
        Ok(()) => Done { stdout: "valid\n".into(), code: exit::ANSWER },
        Err(v) => Done { stdout: format!("invalid: {v}\n"), code: exit::NO_SOLUTION },
    })
}

pub fn encode(input: &Input) -> Result<String> {
    let board = parse(input)?;
    let mut cnf = Cnf::new();
    tb::encode(&board, &mut cnf);
    let comments = vec![
        format!("puzzle-sat tatamibari {}", input.name),
        "variables: rect R C H W: the rectangle with top-left cell (R, C) (0-based), H tall, W wide is chosen; ends-at R C / starts-at R C: a chosen rectangle has its bottom-right / top-left cell there".to_string(),
    ];
    Ok(dimacs::to_string(&cnf, &comments))
}

pub fn decode(input: &Input, model: &Input, format: Format) -> Result<Done> {
    let board = parse(input)?;
    let mut cnf = Cnf::new();
    let enc = tb::encode(&board, &mut cnf);
    let Some(m) = dimacs::external_model(&cnf, &model.text, &model.name)? else {
        return Ok(Done::refuted("tatamibari", format));
    };
    let sol = tb::decode(&enc, &m);
    tb::check_rects(&board, &sol).map_err(|v| anyhow!("{}: the decoded solution breaks a rule: {v}", model.name))?;
    let stdout = match format {
        Format::Json => {
            json::object(&[("puzzle", json::string("tatamibari")), ("status", json::string("solved")), ("rectangles", rects_json(&sol))]) + "\n"
        }
        _ => draw(&board, &sol, format),
    };
    Ok(Done { stdout, code: exit::ANSWER })
}

/// Rounds of "find a second solution, re-place the clues" before giving up.
const MAX_ROUNDS: usize = 5_000;

/// A random solvable puzzle; with `unique`, clues are re-placed (and, when no placement works,
/// rectangles split) until the solver finds no second solution.
pub fn generate((rows, cols): (usize, usize), seed: u64, unique: bool, time_limit: Option<Duration>) -> Result<Done> {
    let start = Instant::now();
    let mut rng = Rng::new(seed);
    let mut g = Generated::new(rows, cols, &mut rng);
    if unique {
        let mut placer = Varisat::new();
        let mut placement = Placement::new(&g, &mut placer);
        // Regions of second solutions excluded so far, each with its activation literal.
        let mut excluded: Vec<(Vec<Rect>, Lit)> = Vec::new();
        let (mut splits, mut retiles) = (0, 0);
        for round in 1.. {
            let others = second_solutions(&g);
            if others.is_empty() {
                break;
            }
            if round >= MAX_ROUNDS {
                bail!("no unique puzzle after {MAX_ROUNDS} rounds; try another --seed");
            }
            if time_limit.is_some_and(|t| start.elapsed() >= t) {
                eprintln!("puzzle-sat: time limit: no unique puzzle yet after {round} rounds; try another --seed or a smaller size");
                return Ok(Done { stdout: String::new(), code: exit::TIME_LIMIT });
            }
            for other in &others {
                for region in placement.regions(&g, other) {
                    let active = placement.exclude_region(&g, &mut placer, &region);
                    excluded.push((region, active));
                }
            }
            loop {
                match least_moves(&g, &placement, &mut placer, &excluded) {
                    Ok(clues) => {
                        g.clues = clues;
                        break;
                    }
                    Err(core) => {
                        // No placement breaks these regions together: split a rectangle inside
                        // them (one clue more). Regions the split does not touch keep their
                        // cells, clues and planted rectangles, so their exclusions still hold.
                        let culprits: Vec<Rect> =
                            excluded.iter().filter(|(_, a)| core.contains(a)).flat_map(|(r, _)| r.iter().copied()).collect();
                        placer = Varisat::new();
                        // Failing inside them, a rectangle bordering them; failing that, a new tiling.
                        let grown: Vec<Rect> = culprits
                            .iter()
                            .map(|r| {
                                let (top, left) = (r.row.saturating_sub(1), r.col.saturating_sub(1));
                                let bottom = (r.row + r.height).min(rows - 1);
                                let right = (r.col + r.width).min(cols - 1);
                                Rect { row: top, col: left, height: bottom - top + 1, width: right - left + 1 }
                            })
                            .collect();
                        let split = g.split_where_differing(&culprits, &mut rng).or_else(|| g.split_where_differing(&grown, &mut rng));
                        if let Some(split) = split {
                            splits += 1;
                            excluded.retain(|(region, _)| !region.iter().any(|r| split.cells().any(|(a, b)| r.contains(a, b))));
                        } else {
                            retiles += 1;
                            g = Generated::new(rows, cols, &mut rng);
                            excluded.clear();
                        }
                        placement = Placement::new(&g, &mut placer);
                        for (region, active) in excluded.iter_mut() {
                            *active = placement.exclude_region(&g, &mut placer, region);
                        }
                    }
                }
            }
            if start.elapsed().as_secs() >= 1 && round % 10 == 0 {
                let t = start.elapsed().as_secs_f64();
                eprintln!("[{t:8.3}s] round {round}: {} rectangles, {splits} splits, {retiles} new tilings", g.rects.len());
            }
        }
    }
    Ok(Done { stdout: g.board().to_text(), code: exit::ANSWER })
}

/// A placement meeting every exclusion that moves few clues: assume every clue stays, and free
/// only those in the solver's failed core until it is satisfiable. When no placement meets the
/// exclusions, the activation literals of a conflicting set of them.
fn least_moves(g: &Generated, placement: &Placement, placer: &mut Varisat, excluded: &[(Vec<Rect>, Lit)]) -> Result<Vec<(usize, usize)>, Vec<Lit>> {
    let active: Vec<Lit> = excluded.iter().map(|(_, a)| *a).collect();
    let mut stay: Vec<Lit> = (0..g.rects.len()).map(|k| placement.at(g, k, g.clues[k])).collect();
    loop {
        let assumptions = [&active[..], &stay[..]].concat();
        if placer.solve_with(&assumptions) {
            return Ok(placement.read(g, &placer.model()));
        }
        let core = placer.failed_core();
        let moving: Vec<Lit> = core.iter().copied().filter(|l| stay.contains(l)).collect();
        if moving.is_empty() {
            return Err(core);
        }
        stay.retain(|l| !moving.contains(l));
    }
}

/// Second solutions of `g`'s puzzle, differing from the planted one in disjoint places: after
/// each, the planted rectangles it disturbed are pinned and the solver asked again
/// (incrementally), so one round sees every ambiguous place of the board, not just one.
fn second_solutions(g: &Generated) -> Vec<Solution> {
    /// Enough for a round; what is left shows up in the next one.
    const MAX_PER_ROUND: usize = 64;
    let board = g.board();
    let mut solver = Varisat::new();
    let enc = tb::encode(&board, &mut solver);
    let planted = g.solution();
    tb::block(&enc, &mut solver, &planted);
    let mut found = Vec::new();
    while found.len() < MAX_PER_ROUND && solver.solve() {
        let other = tb::decode(&enc, &solver.model());
        for &(rect, lit) in &enc.rects {
            if planted.binary_search(&rect).is_ok() && other.binary_search(&rect).is_err() {
                solver.add_clause(&[lit]);
            }
        }
        found.push(other);
    }
    found
}
