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
use std::collections::HashMap;
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

/// Side of the windows checked one by one before the whole board: most ambiguities are local,
/// and a window's check costs milliseconds where the whole 100×100 board's costs a second or two.
const WINDOW: usize = 20;

/// Rounds spent on one window before moving on (what is left shows up in the global check).
const WINDOW_ROUNDS: usize = 30;

/// A random solvable puzzle; with `unique`, clues are re-placed (and, when no placement works,
/// rectangles split or merged) until the solver finds no second solution.
pub fn generate((rows, cols): (usize, usize), seed: u64, unique: bool, time_limit: Option<Duration>) -> Result<Done> {
    let start = Instant::now();
    let mut rng = Rng::new(seed);
    let g = Generated::new(rows, cols, &mut rng);
    if !unique {
        return Ok(Done { stdout: g.board().to_text(), code: exit::ANSWER });
    }
    let mut u = Uniquer::new(g, rng);
    let out_of_time = |round: usize| {
        let late = time_limit.is_some_and(|t| start.elapsed() >= t);
        if late {
            eprintln!("puzzle-sat: time limit: no unique puzzle yet after {round} rounds; try another --seed or a smaller size");
        }
        late
    };
    let mut round = 0;
    let windows: Vec<Rect> = if rows * cols > WINDOW * WINDOW {
        (0..rows.div_ceil(WINDOW))
            .flat_map(|i| (0..cols.div_ceil(WINDOW)).map(move |j| (i * WINDOW, j * WINDOW)))
            .map(|(row, col)| Rect { row, col, height: WINDOW.min(rows - row), width: WINDOW.min(cols - col) })
            .collect()
    } else {
        Vec::new()
    };
    for window in windows.iter().map(Some).chain(std::iter::once(None)) {
        for window_round in 0.. {
            if window.is_some() && window_round == WINDOW_ROUNDS {
                break;
            }
            let others = second_solutions(&u.g, window);
            if others.is_empty() {
                break;
            }
            round += 1;
            if round >= MAX_ROUNDS {
                bail!("no unique puzzle after {MAX_ROUNDS} rounds; try another --seed");
            }
            if out_of_time(round) {
                return Ok(Done { stdout: String::new(), code: exit::TIME_LIMIT });
            }
            u.round(&others);
            if start.elapsed().as_secs() >= 1 && round % 10 == 0 {
                let t = start.elapsed().as_secs_f64();
                let (n, splits, merges, retiles) = (u.g.rects.len(), u.splits, u.merges, u.retiles);
                eprintln!("[{t:8.3}s] round {round}: {n} rectangles, {splits} splits, {merges} merges, {retiles} areas tiled anew");
            }
        }
    }
    Ok(Done { stdout: u.g.board().to_text(), code: exit::ANSWER })
}

/// Side of the areas whose changes of tiling are counted (see `Uniquer::reshape`).
const HEAT_AREA: usize = 8;

/// Changes of tiling in one area made by a split or merge before it gets tiled anew, in a
/// wider window each further time.
const SMALL_CHANGES: usize = 3;

/// The widest margin around a conflict tiled anew: wider areas bring more new ambiguities
/// than they remove.
const MAX_MARGIN: usize = 4;

/// The state of making a generated puzzle unique: the puzzle, the clue-placement solver, and
/// the regions of second solutions excluded so far (each with its activation literal).
struct Uniquer {
    g: Generated,
    rng: Rng,
    placer: Varisat<'static>,
    placement: Placement,
    excluded: Vec<(Vec<Rect>, Lit)>,
    splits: usize,
    merges: usize,
    retiles: usize,
    /// How often each area (of `HEAT_AREA`² cells) needed a change of the tiling.
    heat: HashMap<(usize, usize), usize>,
    /// Every rectangle split so far (merges do not make them again).
    split_rects: Vec<Rect>,
    postponed: usize,
}

impl Uniquer {
    fn new(g: Generated, rng: Rng) -> Uniquer {
        let mut placer = Varisat::new();
        let placement = Placement::new(&g, &mut placer);
        Uniquer { g, rng, placer, placement, excluded: Vec::new(), splits: 0, merges: 0, retiles: 0, heat: HashMap::new(), split_rects: Vec::new(), postponed: 0 }
    }

    /// Excludes `others` (second solutions) and re-places the clues; when no placement breaks
    /// them all, changes the tiling where they conflict and tries again.
    fn round(&mut self, others: &[Solution]) {
        for other in others {
            for region in self.placement.regions(&self.g, other) {
                let active = self.placement.exclude_region(&self.g, &mut self.placer, &region);
                self.excluded.push((region, active));
            }
        }
        loop {
            match least_moves(&self.g, &self.placement, &mut self.placer, &self.excluded) {
                Ok(clues) => {
                    self.g.clues = clues;
                    return;
                }
                Err(core) => self.reshape(&core),
            }
        }
    }

    /// No placement breaks the regions of `core` together: split a rectangle inside them (one
    /// clue more), failing that one bordering them, failing that merge two there, and only
    /// failing all of those start from a new tiling. Regions the change does not touch keep
    /// their cells, clues and planted rectangles, so their exclusions still hold.
    fn reshape(&mut self, core: &[Lit]) {
        let (g, rng) = (&mut self.g, &mut self.rng);
        let culprits: Vec<Rect> =
            self.excluded.iter().filter(|(_, a)| core.contains(a)).flat_map(|(r, _)| r.iter().copied()).collect();
        let grown: Vec<Rect> = culprits
            .iter()
            .map(|r| {
                let (top, left) = (r.row.saturating_sub(1), r.col.saturating_sub(1));
                let bottom = (r.row + r.height).min(g.rows - 1);
                let right = (r.col + r.width).min(g.cols - 1);
                Rect { row: top, col: left, height: bottom - top + 1, width: right - left + 1 }
            })
            .collect();
        let top = culprits.iter().map(|r| r.row).min().unwrap_or(0);
        let left = culprits.iter().map(|r| r.col).min().unwrap_or(0);
        let bottom = culprits.iter().map(|r| r.row + r.height).max().unwrap_or(g.rows);
        let right = culprits.iter().map(|r| r.col + r.width).max().unwrap_or(g.cols);
        // Small changes can undo each other in a loop; the more often a place comes back, the
        // bigger the change there.
        let heat = self.heat.entry(((top + bottom) / 2 / HEAT_AREA, (left + right) / 2 / HEAT_AREA)).or_insert(0);
        *heat += 1;
        let small = *heat <= SMALL_CHANGES;
        let margin = heat.saturating_sub(SMALL_CHANGES).min(MAX_MARGIN);
        let split = || g.split_where_differing(&culprits, rng).or_else(|| g.split_where_differing(&grown, rng));
        let changed = if let Some(split) = small.then(split).flatten() {
            self.splits += 1;
            self.split_rects.push(split);
            Some(split)
        } else if let Some(merged) = small.then(|| g.merge_where_differing(&culprits, &self.split_rects, rng)).flatten() {
            self.merges += 1;
            Some(merged)
        } else {
            // Tile anew around them, in a wider area each time a try fails.
            let retiled = (margin..=margin + 4).find_map(|m: usize| {
                let (row, col) = (top.saturating_sub(m), left.saturating_sub(m));
                let window = Rect { row, col, height: (bottom + m).min(g.rows) - row, width: (right + m).min(g.cols) - col };
                g.retile_window(window, rng)
            });
            if retiled.is_some() {
                self.retiles += 1;
                self.split_rects.clear();
            }
            retiled
        };
        match changed {
            Some(changed) => self.excluded.retain(|(region, _)| !region.iter().any(|r| changed.cells().any(|(a, b)| r.contains(a, b)))),
            None => {
                // Leave this ambiguity for a later round (hotter, so tiled anew more widely).
                self.postponed += 1;
                self.excluded.retain(|(_, active)| !core.contains(active));
                return;
            }
        }
        self.placer = Varisat::new();
        self.placement = Placement::new(g, &mut self.placer);
        for (region, active) in self.excluded.iter_mut() {
            *active = self.placement.exclude_region(g, &mut self.placer, region);
        }
    }
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
///
/// With a window, only the planted rectangles whose top-left cell is in it make the puzzle
/// (everything else a hole); what it finds is completed with the planted rectangles outside.
/// That is a quick filter, not a proof: only the whole board's check (`None`) decides.
fn second_solutions(g: &Generated, window: Option<&Rect>) -> Vec<Solution> {
    /// Enough for a round; what is left shows up in the next one.
    const MAX_PER_ROUND: usize = 64;
    let inside: Vec<usize> =
        (0..g.rects.len()).filter(|&k| window.is_none_or(|w| w.contains(g.rects[k].row, g.rects[k].col))).collect();
    if inside.is_empty() {
        return Vec::new();
    }
    // The part of the board the puzzle covers, and the puzzle shifted there.
    let top = inside.iter().map(|&k| g.rects[k].row).min().unwrap_or(0);
    let left = inside.iter().map(|&k| g.rects[k].col).min().unwrap_or(0);
    let bottom = inside.iter().map(|&k| g.rects[k].row + g.rects[k].height).max().unwrap_or(0);
    let right = inside.iter().map(|&k| g.rects[k].col + g.rects[k].width).max().unwrap_or(0);
    let shift = |r: &Rect| Rect { row: r.row - top, col: r.col - left, ..*r };
    let unshift = |r: &Rect| Rect { row: r.row + top, col: r.col + left, ..*r };
    let mut board = Board { rows: bottom - top, cols: right - left, cells: vec![tb::Cell::Hole; (bottom - top) * (right - left)] };
    let planted: Solution = inside.iter().map(|&k| shift(&g.rects[k])).collect();
    for (&k, rect) in inside.iter().zip(&planted) {
        for (r, c) in rect.cells() {
            board.cells[r * board.cols + c] = tb::Cell::Blank;
        }
        let (r, c) = g.clues[k];
        board.cells[(r - top) * board.cols + (c - left)] = tb::Cell::Clue(tb::Shape::of(rect.height, rect.width));
    }
    let mut is_inside = vec![false; g.rects.len()];
    inside.iter().for_each(|&k| is_inside[k] = true);
    let mut solver = Varisat::new();
    let enc = tb::encode(&board, &mut solver);
    tb::block(&enc, &mut solver, &planted);
    let mut found = Vec::new();
    while found.len() < MAX_PER_ROUND && solver.solve() {
        let other = tb::decode(&enc, &solver.model());
        for &(rect, lit) in &enc.rects {
            if planted.binary_search(&rect).is_ok() && other.binary_search(&rect).is_err() {
                solver.add_clause(&[lit]);
            }
        }
        let mut whole: Solution = other.iter().map(unshift).collect();
        whole.extend((0..g.rects.len()).filter(|&k| !is_inside[k]).map(|k| g.rects[k]));
        whole.sort();
        found.push(whole);
    }
    found
}
