//! A first solution of a large board with sparse clues, found band by band from the top (from
//! the left on a board wider than tall, by solving its mirror image): each
//! band of rows is solved together with the rows below it (the window), and of its answer only
//! the rectangles that start in the band are kept. A solver's cost on these boards grows much
//! faster than their area (a sparse 100×100 whole costs several times its four 40-row windows),
//! so windows are cheaper than the whole. The kept rectangles are a guess: the next window may
//! find no answer under them (a dead end). Unless its rows have no cover even with nothing kept
//! (then the sweep gives up at once), the band before is solved again in a taller window, at
//! most [`RETRIES`] times; then the sweep gives up and the caller solves the whole board.
//!
//! It finds an answer or nothing; it never refutes one. The answer is checked by the validator
//! before it is returned, so a verdict resting on it says "solved", and a count or a uniqueness
//! proof still goes through the whole board's formula.

use super::encode::{corners, decode, emit, OWNERS_ABOVE};
use super::{check_rects, Board, Cell, Rect, Shape, Solution};
use crate::solver::{NewSolver, SolveResult, SolverError, SolverStats};
use std::collections::HashMap;

/// The window's shape: rows kept per window, and rows solved below them.
#[derive(Clone, Copy, Debug)]
pub struct Bands {
    pub band: usize,
    pub look: usize,
}

/// Measured on sparse boards (benches/data/hard): 20 + 20 rows was faster than 12 + 24 on
/// 100×100 with 6 cells per clue (11 s against 15 s) and met fewer dead ends than 8 + 20 or
/// 12 + 12; see docs/performance.md.
pub const BANDS: Bands = Bands { band: 20, look: 20 };

/// How many dead ends a sweep may back out of before it gives up.
const RETRIES: usize = 3;

/// Whether a sweep is worth trying: the board is at least two windows long (rows, or columns
/// for a wide board, which is swept from the left), of 3,000 cells or more, and its candidates
/// are many per cell. Boards `generate` makes are mostly decided by probing (under 2 candidates
/// per cell left) and split into small independent parts, which the whole-board solve already
/// takes apart; sparse boards keep 30–50 per cell in one part. Smaller boards (80×20, 100×10,
/// 200×6) were faster whole: 1.5–3× in the review of the sweep.
///
/// A board cell that no candidate covers has no solution at all, and the whole board's formula
/// says so at once (an empty clause), so it is not swept either.
pub fn worth_it(board: &Board, kept: &[(Rect, usize)], bands: Bands) -> bool {
    let cells = board.rows * board.cols;
    if board.rows.max(board.cols) < 2 * (bands.band + bands.look) || cells < 3000 {
        return false;
    }
    let mut covered = vec![false; cells];
    let mut area = 0;
    for (r, _) in kept {
        area += r.height * r.width;
        r.cells().for_each(|(y, x)| covered[y * board.cols + x] = true);
    }
    area >= 8 * cells && (0..cells).all(|k| covered[k] || board.cells[k] == Cell::Hole)
}

/// How a sweep ended.
pub enum Swept {
    Found(Solution),
    /// No answer under the bands kept, even after backing out: nothing is known of the board.
    DeadEnd,
    Stopped,
}

/// The sweep over the candidates `kept` (every candidate of some solution among them), down
/// the rows, or across the columns of a board wider than tall. `report` gets the window
/// solvers' counts, summed, after each window's formula and after each call.
pub fn sweep(board: &Board, kept: &[(Rect, usize)], bands: Bands, solvers: &dyn NewSolver, report: &mut dyn FnMut(SolverStats)) -> Result<Swept, SolverError> {
    let swept = if board.cols > board.rows {
        // The rules are the same on the mirror image in the main diagonal, `-` and `|` swapped.
        let (mirror, kept) = (transpose(board), kept.iter().map(|&(r, clue)| (flip(r), clue % board.cols * board.rows + clue / board.cols)).collect::<Vec<_>>());
        match windows(&mirror, &kept, bands, solvers, report)? {
            Swept::Found(sol) => {
                let mut sol: Solution = sol.into_iter().map(flip).collect();
                sol.sort();
                Swept::Found(sol)
            }
            other => other,
        }
    } else {
        windows(board, kept, bands, solvers, report)?
    };
    Ok(match swept {
        // The window answers fit together by construction; the validator says so before
        // anyone relies on it (a failure would be a bug here, and the whole board is solved).
        Swept::Found(found) if check_rects(board, &found).is_err() => Swept::DeadEnd,
        swept => swept,
    })
}

/// The board mirrored in its main diagonal.
fn transpose(board: &Board) -> Board {
    let cells = (0..board.cols * board.rows)
        .map(|k| match board.cell(k % board.rows, k / board.rows) {
            Cell::Clue(Shape::Wide) => Cell::Clue(Shape::Tall),
            Cell::Clue(Shape::Tall) => Cell::Clue(Shape::Wide),
            cell => cell,
        })
        .collect();
    Board { rows: board.cols, cols: board.rows, cells }
}

fn flip(r: Rect) -> Rect {
    Rect { row: r.col, col: r.row, height: r.width, width: r.height }
}

/// [`sweep`] down the rows, without the final check (for the tests: its answers must pass it
/// by themselves).
pub fn windows(board: &Board, kept: &[(Rect, usize)], bands: Bands, solvers: &dyn NewSolver, report: &mut dyn FnMut(SolverStats)) -> Result<Swept, SolverError> {
    let (rows, cols) = (board.rows, board.cols);
    let mut stats = SolverStats::default();
    let clue_of: HashMap<Rect, usize> = kept.iter().copied().collect();
    // Candidates' places in `kept` by top row, so that each window looks only at those starting
    // in it (and takes them in `kept`'s order, as the whole board's formula does).
    let mut by_row: Vec<usize> = (0..kept.len()).collect();
    by_row.sort_by_key(|&i| kept[i].0.row);
    let mut found: Solution = Vec::new();
    // Each kept band's first row and how many rectangles were kept before it, to back out.
    let mut kept_bands: Vec<(usize, usize)> = Vec::new();
    let (mut top, mut taller, mut retries) = (0, 0, 0);
    loop {
        // What the rectangles kept so far decide: their cells, their clues, and the points at
        // their bottom-right corners, where no rectangle may start below-right.
        let mut taken = vec![false; rows * cols];
        let mut placed = vec![false; rows * cols];
        let mut ends = vec![false; rows * cols];
        for rect in &found {
            rect.cells().for_each(|(y, x)| taken[y * cols + x] = true);
            placed[clue_of[rect]] = true;
            if let (Some(p), _) = corners(board, rect) {
                ends[p] = true;
            }
        }
        let below = (top + bands.band + bands.look + taller).min(rows);
        // A rectangle starting above `top` is kept already or in no answer under the kept ones,
        // so these are all that can cover the window's free cells.
        let from = by_row.partition_point(|&i| kept[i].0.row < top);
        let to = by_row.partition_point(|&i| kept[i].0.row < below);
        let mut starting: Vec<usize> = by_row[from..to].to_vec();
        starting.sort_unstable();
        let here: Vec<(Rect, usize)> = starting
            .into_iter()
            .map(|i| kept[i])
            .filter(|(_, clue)| !placed[*clue])
            .filter(|(r, _)| r.cells().all(|(y, x)| !taken[y * cols + x]))
            .filter(|(r, _)| corners(board, r).1.is_none_or(|p| !ends[p]))
            .collect();
        let must = |k: usize| (top..below).contains(&(k / cols)) && !taken[k];
        let (result, model) = solve(board, &here, &must, solvers, &mut stats, report)?;
        match result {
            SolveResult::Sat => {}
            SolveResult::Interrupted => return Ok(Swept::Stopped),
            SolveResult::Unsat => {
                // If the window's rows have no cover even without the rectangles kept, the
                // board has no solution: give up, and let the whole board's formula refute it.
                if top > 0 && relaxation(board, kept, top..below, solvers, &mut stats, report)? == SolveResult::Unsat {
                    return Ok(Swept::DeadEnd);
                }
                // Back out of the band before and solve it again in a taller window.
                let Some((before, count)) = kept_bands.pop().filter(|_| retries < RETRIES) else { return Ok(Swept::DeadEnd) };
                retries += 1;
                found.truncate(count);
                top = before;
                taller += bands.look;
                continue;
            }
        }
        let last = below == rows;
        kept_bands.push((top, found.len()));
        let keep = if last { rows } else { top + bands.band };
        found.extend(model.into_iter().filter(|r| r.row < keep));
        if last {
            break;
        }
        top = keep;
        taller = taller.saturating_sub(bands.band);
    }
    found.sort();
    Ok(Swept::Found(found))
}

/// The window's rows `rows` covered by every candidate that meets them, wherever it starts, with
/// nothing kept: what every solution of the board satisfies there. No answer to it, no solution.
pub fn relaxation(
    board: &Board,
    kept: &[(Rect, usize)],
    rows: std::ops::Range<usize>,
    solvers: &dyn NewSolver,
    stats: &mut SolverStats,
    report: &mut dyn FnMut(SolverStats),
) -> Result<SolveResult, SolverError> {
    let meets: Vec<(Rect, usize)> = kept.iter().filter(|(r, _)| r.row < rows.end && r.row + r.height > rows.start).copied().collect();
    let must = |k: usize| rows.contains(&(k / board.cols));
    Ok(solve(board, &meets, &must, solvers, stats, report)?.0)
}

/// One window's formula over `cands`, solved by a solver of its own: the result and, when
/// satisfiable, the rectangles chosen.
fn solve(
    board: &Board,
    cands: &[(Rect, usize)],
    must: &dyn Fn(usize) -> bool,
    solvers: &dyn NewSolver,
    stats: &mut SolverStats,
    report: &mut dyn FnMut(SolverStats),
) -> Result<(SolveResult, Solution), SolverError> {
    let mut solver = crate::parts::solver(solvers);
    let enc = emit(board, cands, &mut crate::search::Sink(&mut *solver), OWNERS_ABOVE, must);
    let s = solver.stats();
    stats.vars += s.vars;
    stats.clauses += s.clauses;
    report(*stats);
    let result = solver.solve()?;
    stats.calls += 1;
    report(*stats);
    let model = if result == SolveResult::Sat { decode(&enc, &solver.model()) } else { Vec::new() };
    Ok((result, model))
}
