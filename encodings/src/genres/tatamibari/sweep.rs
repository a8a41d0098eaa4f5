//! A first solution of a large board with sparse clues, found block by block: the board is cut
//! into bands of rows and each band into blocks of columns; each block is solved together with
//! the rows below it and the columns right of it (its window), in reading order, and of its
//! answer only the rectangles that start in the block are kept. A solver's cost on these boards
//! grows much faster than their area (a sparse 100×100 whole costs several times its windows),
//! so windows are cheaper than the whole, and a window's cost does not grow with the board's
//! width. The kept rectangles are a guess: a later window may find no answer under them (a dead
//! end). Then a neighbouring block solved before is taken back and solved again together with
//! this one, in one window, up to [`JOINED`] blocks; past that the sweep gives up, tries again
//! with whole bands of rows as blocks, and after that the caller solves the whole board.
//!
//! It finds an answer or nothing; it never refutes one. The answer is checked by the validator
//! before it is returned, so a verdict resting on it says "solved", and a count or a uniqueness
//! proof still goes through the whole board's formula.

use super::corners;
use super::encode::{decode, emit, OWNERS_ABOVE};
use super::{check_rects, Board, Cell, Rect, Shape, Solution};
use crate::solver::{NewSolver, SolveResult, SolverError, SolverStats};
use std::collections::HashMap;

/// One side of a window: the rows (or columns) kept per block, and those solved past them.
#[derive(Clone, Copy, Debug)]
pub struct Bands {
    pub band: usize,
    pub look: usize,
}

/// How a board is cut: bands of rows, and in each band blocks of columns. A block's window
/// holds the `look` rows below it and columns right of it, and in the rows below it also
/// `margin` columns to its left, where the rectangles kept from the block to the left and from
/// this one meet rows not solved yet.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub rows: Bands,
    pub cols: Bands,
    pub margin: usize,
}

impl Grid {
    /// Whole bands of rows as blocks.
    pub fn rows(rows: Bands) -> Grid {
        Grid {
            rows,
            cols: Bands {
                band: usize::MAX,
                look: 0,
            },
            margin: 0,
        }
    }
}

/// Measured on sparse boards (benches/data/hard and more from its generator; see
/// docs/performance.md).
pub const GRID: Grid = Grid {
    rows: Bands { band: 20, look: 20 },
    cols: Bands { band: 30, look: 10 },
    margin: 10,
};

/// How many blocks one window may take in at dead ends before the sweep gives up. With 4, a
/// sparse 300×300 board (6 cells per clue) met a dead end that a fifth block solved, and the
/// whole sweep gave up; with 8 it took 70 s, and the boards of 100 and 150 rows the same time.
const JOINED: usize = 8;

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
        r.cells()
            .for_each(|(y, x)| covered[y * board.cols + x] = true);
    }
    area >= 8 * cells && (0..cells).all(|k| covered[k] || board.cells[k] == Cell::Hole)
}

/// How a sweep ended.
pub enum Swept {
    Found(Solution),
    /// No answer under the blocks kept, even after taking some back: nothing is known of the
    /// board.
    DeadEnd,
    /// A window has no answer even with nothing kept: the board has no solution.
    NoCover,
    Stopped,
}

/// The sweep over the candidates `kept` (every candidate of some solution among them) in
/// blocks, then, at a dead end, in whole bands of rows; on a board wider than tall, on its
/// mirror image. `report` gets the window solvers' counts, summed, after each window's formula
/// and after each call.
pub fn sweep(
    board: &Board,
    kept: &[(Rect, usize)],
    grid: Grid,
    solvers: &dyn NewSolver,
    report: &mut dyn FnMut(SolverStats),
) -> Result<Swept, SolverError> {
    let wide = board.cols > board.rows;
    // The rules are the same on the mirror image in the main diagonal, `-` and `|` swapped.
    let mirrored;
    let (board, kept) = if wide {
        mirrored = (
            transpose(board),
            kept.iter()
                .map(|&(r, clue)| (flip(r), clue % board.cols * board.rows + clue / board.cols))
                .collect::<Vec<_>>(),
        );
        (&mirrored.0, &mirrored.1[..])
    } else {
        (board, kept)
    };
    let mut swept = blocks(board, kept, grid, solvers, report)?;
    if matches!(swept, Swept::DeadEnd) && grid.cols.band.saturating_add(grid.cols.look) < board.cols
    {
        swept = blocks(board, kept, Grid::rows(grid.rows), solvers, report)?;
    }
    Ok(match swept {
        // The window answers fit together by construction; the validator says so before
        // anyone relies on it (a failure would be a bug here, and the whole board is solved).
        Swept::Found(found) if check_rects(board, &found).is_err() => Swept::DeadEnd,
        Swept::Found(found) if wide => {
            let mut sol: Solution = found.into_iter().map(flip).collect();
            sol.sort();
            Swept::Found(sol)
        }
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
    Board {
        rows: board.cols,
        cols: board.rows,
        cells,
    }
}

fn flip(r: Rect) -> Rect {
    Rect {
        row: r.col,
        col: r.row,
        height: r.width,
        width: r.height,
    }
}

/// [`sweep`] in whole bands of rows, without the final check (for the tests: its answers must
/// pass it by themselves).
pub fn windows(
    board: &Board,
    kept: &[(Rect, usize)],
    bands: Bands,
    solvers: &dyn NewSolver,
    report: &mut dyn FnMut(SolverStats),
) -> Result<Swept, SolverError> {
    blocks(board, kept, Grid::rows(bands), solvers, report)
}

/// Where each block starts along a side `len` long: every `band`, the last block reaching to
/// the end (its window is then the rest of the side).
fn starts(len: usize, bands: Bands) -> Vec<usize> {
    let mut at: Vec<usize> = vec![0];
    while at[at.len() - 1]
        .saturating_add(bands.band.max(1))
        .saturating_add(bands.look)
        < len
    {
        at.push(at[at.len() - 1] + bands.band.max(1));
    }
    at
}

/// The sweep in the blocks of `grid`, in reading order, without the final check. At a dead end
/// the neighbours solved before are taken back one at a time, and solved again in one window
/// with the block, up to [`JOINED`] blocks: the first of the window's blocks' neighbours above,
/// left, above-right and above-left (in that order) not in the window yet. (Taking every
/// block's neighbour above first was slower on two boards of twelve, 2–5×, and no faster on
/// the rest.)
pub fn blocks(
    board: &Board,
    kept: &[(Rect, usize)],
    grid: Grid,
    solvers: &dyn NewSolver,
    report: &mut dyn FnMut(SolverStats),
) -> Result<Swept, SolverError> {
    let (rows, cols) = (board.rows, board.cols);
    let mut stats = SolverStats::default();
    let clue_of: HashMap<Rect, usize> = kept.iter().copied().collect();
    let (tops, lefts) = (starts(rows, grid.rows), starts(cols, grid.cols));
    // A block's cells to keep (rows, columns), and its window's bottom and right.
    let block = |(a, b): (usize, usize)| {
        let keep = (
            tops[a]..tops.get(a + 1).copied().unwrap_or(rows),
            lefts[b]..lefts.get(b + 1).copied().unwrap_or(cols),
        );
        let below = if a + 1 == tops.len() {
            rows
        } else {
            tops[a] + grid.rows.band + grid.rows.look
        };
        let right = if b + 1 == lefts.len() {
            cols
        } else {
            lefts[b] + grid.cols.band + grid.cols.look
        };
        (keep, below, right)
    };
    let in_window = |at: (usize, usize), y: usize, x: usize| {
        let ((keep_rows, keep_cols), below, right) = block(at);
        (keep_rows.start..below).contains(&y)
            && x < right
            && (x >= keep_cols.start || y >= keep_rows.end && x + grid.margin >= keep_cols.start)
    };
    // Candidates' places in `kept` by top row, so that each window looks only at those starting
    // in its rows (and takes them in `kept`'s order, as the whole board's formula does).
    let mut by_row: Vec<usize> = (0..kept.len()).collect();
    by_row.sort_by_key(|&i| kept[i].0.row);
    let block_of = |y: usize, x: usize| {
        (
            tops.partition_point(|&t| t <= y) - 1,
            lefts.partition_point(|&l| l <= x) - 1,
        )
    };
    // The rectangles kept, each with the block it starts in.
    let mut found: Vec<(Rect, (usize, usize))> = Vec::new();
    for at in (0..tops.len()).flat_map(|a| (0..lefts.len()).map(move |b| (a, b))) {
        // The blocks this window solves: `at`, and the neighbours taken back at dead ends.
        let mut joint = vec![at];
        // Cells of blocks solved before that rectangles taken back covered: covered again now.
        let mut freed = vec![false; rows * cols];
        // The columns the freed cells span.
        let (mut freed_from, mut freed_to) = (cols, 0);
        loop {
            found.retain(|(r, b)| {
                let back = joint.contains(b);
                if back {
                    for (y, x) in r.cells().filter(|&(y, x)| block_of(y, x) <= at) {
                        freed[y * cols + x] = true;
                        (freed_from, freed_to) = (freed_from.min(x), freed_to.max(x + 1));
                    }
                }
                !back
            });
            // What the rectangles kept decide: their cells, their clues, and the points at
            // their corners, where no rectangle may start below-right of one that ends there,
            // nor end above-left of one that starts there.
            let mut taken = vec![false; rows * cols];
            let mut placed = vec![false; rows * cols];
            let (mut ends, mut begins) = (vec![false; rows * cols], vec![false; rows * cols]);
            for (rect, _) in &found {
                rect.cells().for_each(|(y, x)| taken[y * cols + x] = true);
                placed[clue_of[rect]] = true;
                let (end, start) = corners(board, rect);
                end.into_iter().for_each(|p| ends[p] = true);
                start.into_iter().for_each(|p| begins[p] = true);
            }
            let window = |k: usize| joint.iter().any(|&b| in_window(b, k / cols, k % cols));
            let must = |k: usize| !taken[k] && (window(k) || freed[k]);
            // Every block before `at` is kept or in the window, and every cell of a kept block
            // is covered: so a rectangle that covers one of the window's free cells starts in
            // the window's rows and not on a kept cell.
            let top = joint
                .iter()
                .map(|&b| block(b).0 .0.start)
                .min()
                .unwrap_or(0);
            let below = joint.iter().map(|&b| block(b).1).max().unwrap_or(rows);
            let from = by_row.partition_point(|&i| kept[i].0.row < top);
            let to = by_row.partition_point(|&i| kept[i].0.row < below);
            // The columns the window's free cells can be in: a cheap first cut, so that a
            // window's cost does not grow with the board's width.
            let left = joint
                .iter()
                .map(|&b| block(b).0 .1.start.saturating_sub(grid.margin))
                .min()
                .unwrap_or(0)
                .min(freed_from);
            let right = joint
                .iter()
                .map(|&b| block(b).2)
                .max()
                .unwrap_or(cols)
                .max(freed_to);
            let mut starting: Vec<usize> = by_row[from..to]
                .iter()
                .copied()
                .filter(|&i| kept[i].0.col < right && kept[i].0.col + kept[i].0.width > left)
                .collect();
            starting.sort_unstable();
            let here: Vec<(Rect, usize)> = starting
                .into_iter()
                .map(|i| kept[i])
                .filter(|(_, clue)| !placed[*clue])
                .filter(|(r, _)| {
                    r.cells().all(|(y, x)| !taken[y * cols + x])
                        && r.cells().any(|(y, x)| must(y * cols + x))
                })
                .filter(|(r, _)| {
                    let (end, start) = corners(board, r);
                    start.is_none_or(|p| !ends[p]) && end.is_none_or(|p| !begins[p])
                })
                .collect();
            let (result, model) = solve(board, &here, &must, solvers, &mut stats, report)?;
            match result {
                SolveResult::Sat => {
                    // Those that start in the blocks solved so far: every cell there is
                    // covered, and only by rectangles that start there.
                    found.extend(
                        model
                            .iter()
                            .map(|&r| (r, block_of(r.row, r.col)))
                            .filter(|&(_, b)| b <= at),
                    );
                    break;
                }
                SolveResult::Interrupted => return Ok(Swept::Stopped),
                SolveResult::Unsat => {
                    let back = joint
                        .iter()
                        .flat_map(|&(a, b)| {
                            [
                                (a.wrapping_sub(1), b),
                                (a, b.wrapping_sub(1)),
                                (a.wrapping_sub(1), b + 1),
                                (a.wrapping_sub(1), b.wrapping_sub(1)),
                            ]
                        })
                        .find(|&(a, b)| {
                            a < tops.len()
                                && b < lefts.len()
                                && (a, b) < at
                                && !joint.contains(&(a, b))
                        });
                    match back {
                        Some(b) if joint.len() < JOINED => joint.push(b),
                        // Giving up: if the window has no cover even with nothing kept, the
                        // board has no solution (the whole board's formula will say so).
                        _ if region(board, kept, &window, solvers, &mut stats, report)?
                            == SolveResult::Unsat =>
                        {
                            return Ok(Swept::NoCover)
                        }
                        _ => return Ok(Swept::DeadEnd),
                    }
                }
            }
        }
    }
    let mut found: Solution = found.into_iter().map(|(r, _)| r).collect();
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
    region(
        board,
        kept,
        &|k| rows.contains(&(k / board.cols)),
        solvers,
        stats,
        report,
    )
}

/// [`relaxation`] for the cells `must` names.
fn region(
    board: &Board,
    kept: &[(Rect, usize)],
    must: &dyn Fn(usize) -> bool,
    solvers: &dyn NewSolver,
    stats: &mut SolverStats,
    report: &mut dyn FnMut(SolverStats),
) -> Result<SolveResult, SolverError> {
    let meets: Vec<(Rect, usize)> = kept
        .iter()
        .filter(|(r, _)| r.cells().any(|(y, x)| must(y * board.cols + x)))
        .copied()
        .collect();
    Ok(solve(board, &meets, must, solvers, stats, report)?.0)
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
    let mut solver = crate::search::parts::solver(solvers);
    let enc = emit(
        board,
        cands,
        &mut crate::search::Sink(&mut *solver),
        OWNERS_ABOVE,
        must,
    );
    let s = solver.stats();
    stats.vars += s.vars;
    stats.clauses += s.clauses;
    report(*stats);
    let result = solver.solve()?;
    stats.calls += 1;
    report(*stats);
    let model = if result == SolveResult::Sat {
        decode(&enc, &solver.model())
    } else {
        Vec::new()
    };
    Ok((result, model))
}
