//! Random sudokus with one solution: a random full grid, filled cell by cell in random order
//! with a random digit the solver says still leaves a solution, then its givens removed in
//! random order, each only when the solution stays unique.
//!
//! Only the solver's SAT and UNSAT answers steer the choices, never which model it returns,
//! so a seed makes the same puzzle on every backend (but see [`DIG_BUDGET`]).

use super::{box_shape, encode, Board, Encoding, Grid, Order, MAX_SIDE};
use crate::cnf::Lit;
use crate::puzzle::{GenerateSpec, Series};
use crate::rng::Rng;
use crate::search::Sink;
use crate::solver::{NewSolver, SolveResult};
use web_time::Instant;

/// The board `spec` asks for, or why it is none.
fn board(spec: &GenerateSpec) -> Result<Board, String> {
    let n = spec.rows;
    if spec.cells_per_clue.is_some() {
        return Err("--cells-per-clue means nothing for sudoku: it is only for tatamibari".into());
    }
    if spec.cols != n {
        return Err(format!(
            "a sudoku is square, not {}×{}",
            spec.rows, spec.cols
        ));
    }
    let shape = box_shape(n).filter(|_| n <= MAX_SIDE);
    let Some((box_h, box_w)) = shape else {
        return Err(format!(
            "no {n}×{n} sudoku: sides 4 to {MAX_SIDE} with boxes are made (4, 6, 8, 9, 10, 12, …)"
        ));
    };
    Ok(Board {
        n,
        box_h,
        box_w,
        givens: vec![0; n * n],
    })
}

/// Conflicts a removal's check may take. The checks of a sparse 25×25 run to seconds (its dig
/// took 16 minutes at 2,000 conflicts a check, 1.5 at 200), and a check that gives up keeps its
/// given: the puzzle stays unique, only perhaps not minimal. No check of the 9×9 and 16×16
/// boards measured reached it, so their puzzles are the same on every backend; where one
/// does, a backend's own count of conflicts decides.
const DIG_BUDGET: u64 = 200;

fn shuffled<T>(mut items: Vec<T>, rng: &mut Rng) -> Vec<T> {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
    items
}

/// A random full grid, its cells in random order each given a random digit its houses do not
/// hold yet. The solver confirms that the grid stays completable: a batch of cells at once,
/// doubling while batches pass (a call on an open 25×25 board takes a tenth of a second), and
/// where one fails, a cell at a time, each digit in random order until one passes. A digit the
/// last model shows completable needs no call, and confirmed digits become unit clauses, so
/// that a call assumes only the batch. `None` when the run's stop flag ended the work first.
fn fill(board: &Board, rng: &mut Rng, solvers: &dyn NewSolver) -> Result<Option<Grid>, String> {
    let n = board.n;
    let mut solver = solvers.new_solver();
    let enc = encode(board, &mut Sink(&mut *solver), Order::CellsFirst);
    let houses = board.houses();
    let mut house_of: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for (k, house) in houses.iter().enumerate() {
        for &i in house {
            house_of[i].push(k);
        }
    }
    let free = |grid: &Grid, i: usize| {
        let mut used = vec![false; n + 1];
        for &k in &house_of[i] {
            for &j in &houses[k] {
                used[usize::from(grid[j])] = true;
            }
        }
        (1..=n as u8)
            .filter(|&d| !used[usize::from(d)])
            .collect::<Vec<u8>>()
    };
    let order = shuffled((0..n * n).collect(), rng);
    let mut grid: Grid = vec![0; n * n];
    let mut model: Option<Grid> = None;
    let (mut at, mut batch) = (0, 1);
    while at < order.len() {
        let cells = &order[at..(at + batch).min(order.len())];
        if batch > 1 {
            let mut guess = grid.clone();
            let guessed = cells.iter().all(|&i| {
                let digits = free(&guess, i);
                let Some(&d) = digits.get(rng.below(digits.len().max(1))) else {
                    return false;
                };
                guess[i] = d;
                true
            });
            let result = if guessed {
                let assumptions: Vec<Lit> = cells.iter().map(|&i| lit(&enc, i, guess[i])).collect();
                solver.solve_with(&assumptions).map_err(|e| e.to_string())?
            } else {
                SolveResult::Unsat
            };
            match result {
                SolveResult::Interrupted => return Ok(None),
                SolveResult::Sat => {
                    model = Some(enc.digits.decode(&solver.model()));
                    for &i in cells {
                        solver.add_clause(&[lit(&enc, i, guess[i])]);
                    }
                    grid = guess;
                    at += cells.len();
                    batch *= 2;
                }
                SolveResult::Unsat => batch = 1,
            }
            continue;
        }
        let i = order[at];
        let mut chosen = None;
        for d in shuffled(free(&grid, i), rng) {
            if model.as_ref().is_some_and(|m| m[i] == d) {
                chosen = Some(d);
                break;
            }
            match solver
                .solve_with(&[lit(&enc, i, d)])
                .map_err(|e| e.to_string())?
            {
                SolveResult::Interrupted => return Ok(None),
                SolveResult::Unsat => {}
                SolveResult::Sat => {
                    model = Some(enc.digits.decode(&solver.model()));
                    chosen = Some(d);
                    break;
                }
            }
        }
        let d = chosen.ok_or("internal error: no digit completes the sudoku being filled")?;
        grid[i] = d;
        solver.add_clause(&[lit(&enc, i, d)]);
        at += 1;
        batch = 2;
    }
    Ok(Some(grid))
}

fn lit(enc: &Encoding, i: usize, d: u8) -> Lit {
    enc.digits
        .lit(i, d)
        .expect("an empty board leaves every digit open")
}

/// The grid made from `spec.seed` and the cells in the order their givens were removed: the
/// puzzle after k removals is the grid without the first k. `None` when the run's stop flag
/// ended the work first.
pub fn dig(
    spec: &GenerateSpec,
    solvers: &dyn NewSolver,
    note: &mut dyn FnMut(String),
) -> Result<Option<(Board, Grid, Vec<usize>)>, String> {
    let start = Instant::now();
    let mut board = board(spec)?;
    let n = board.n;
    let mut rng = Rng::new(spec.seed);
    let Some(grid) = fill(&board, &mut rng, solvers)? else {
        return Ok(None);
    };
    if start.elapsed().as_secs() >= 1 {
        note(format!(
            "[{:8.3}s] a full {n}×{n} grid",
            start.elapsed().as_secs_f64()
        ));
    }
    let mut solver = solvers.new_solver();
    let enc = encode(&board, &mut Sink(&mut *solver), Order::CellsFirst);
    let lit = |i: usize, d: u8| lit(&enc, i, d);
    // The digging. The puzzle before a removal has one solution, the grid; any other solution
    // after removing cell i's given differs from the grid at i (agreeing there, it solves the
    // puzzle before), so the solution stays unique exactly when the givens left and "cell i
    // holds another digit" are unsatisfiable.
    board.givens = grid.clone();
    let mut removed = Vec::new();
    let mut last_note = start.elapsed().as_secs();
    for i in shuffled((0..n * n).collect(), &mut rng) {
        let d = board.givens[i];
        board.givens[i] = 0;
        let mut assumptions: Vec<Lit> = (0..n * n)
            .filter(|&j| board.givens[j] != 0)
            .map(|j| lit(j, board.givens[j]))
            .collect();
        assumptions.push(!lit(i, d));
        match solver
            .solve_limited(&assumptions, DIG_BUDGET)
            .map_err(|e| e.to_string())?
        {
            Some(SolveResult::Interrupted) => return Ok(None),
            Some(SolveResult::Unsat) => removed.push(i),
            // Another solution, or no answer within the budget: keeping the given keeps the
            // solution unique either way.
            Some(SolveResult::Sat) | None => board.givens[i] = d,
        }
        if start.elapsed().as_secs() > last_note {
            last_note = start.elapsed().as_secs();
            note(format!(
                "[{:8.3}s] {} givens removed",
                start.elapsed().as_secs_f64(),
                removed.len()
            ));
        }
    }
    Ok(Some((board, grid, removed)))
}

/// The puzzles after each removal, from the first to the last.
pub fn series(
    spec: &GenerateSpec,
    solvers: &dyn NewSolver,
    note: &mut dyn FnMut(String),
) -> Result<Option<Series<Grid>>, String> {
    let Some((mut board, grid, removed)) = dig(spec, solvers, note)? else {
        return Ok(None);
    };
    board.givens = grid.clone();
    let texts = removed
        .iter()
        .map(|&i| {
            board.givens[i] = 0;
            board.to_text()
        })
        .collect();
    Ok(Some(Series {
        texts,
        answer: grid,
    }))
}
