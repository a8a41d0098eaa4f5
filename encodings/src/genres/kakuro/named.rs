//! Kakuro's rules for `explain` ([`crate::explain`]): a fact per white cell and digit ("(2,4)
//! is 7"), a rule per white cell ("(2,4) holds one digit") and per run ("the cells from (2,4)
//! to (2,6) sum to 17 with no digit twice"; a run without a clue "… hold no digit twice", a
//! clued run of one cell "(2,4) alone sums to 7"). A run's sum is a choice among its digit
//! sets (17 in three cells is {1,7,9}, {2,6,9}, …), made with auxiliaries of its own rule.

use super::{digit_sets, panel, render_rows, Board, Cell, Encoding, Grid, Kakuro, Run, CELL, EDGE};
use crate::capability;
use crate::cnf::amo::{at_most_one, exactly_one};
use crate::cnf::{ClauseSink, Lit};
use crate::explain::{Fact, Named, Rules};
use crate::format::svg;
use crate::genres::digits::Digits;

/// "(2,4)", 1-based.
fn at(i: usize, cols: usize) -> String {
    format!("({},{})", i / cols + 1, i % cols + 1)
}

/// A run's rule name.
pub fn run_name(run: &Run, cols: usize) -> String {
    let (first, last) = (run.cells[0], run.cells[run.cells.len() - 1]);
    match run.sum {
        Some(s) if run.cells.len() == 1 => format!("{} alone sums to {s}", at(first, cols)),
        Some(s) => format!(
            "the cells from {} to {} sum to {s} with no digit twice",
            at(first, cols),
            at(last, cols)
        ),
        None => format!(
            "the cells from {} to {} hold no digit twice",
            at(first, cols),
            at(last, cols)
        ),
    }
}

/// A run's clauses over the digit variables `x[k][d - 1]` of its cells: no digit in two of
/// them; for a clue, the digits marked in the run are one of its digit sets. The set is chosen
/// by variables of this rule alone (one set needs none): exactly one chosen; each digit of the
/// chosen set in some cell; a cell's digit in the chosen set. Two kinds of clauses these imply
/// are added for propagation: a set is not chosen once a cell holds a digit outside it, and a
/// digit is somewhere once every set without it is out.
fn run_clauses(rules: &mut Rules, x: &[Vec<Lit>], sum: Option<u8>) {
    let of = |d: usize| -> Vec<Lit> { x.iter().map(|cell| cell[d - 1]).collect() };
    for d in 1..=9 {
        at_most_one(rules, &of(d));
    }
    let Some(sum) = sum else { return };
    let sets = digit_sets(x.len(), sum);
    let has = |m: u16, d: usize| m >> d & 1 == 1;
    match sets[..] {
        [] => rules.add_clause(&[]),
        [m] => {
            for d in 1..=9 {
                if has(m, d) {
                    rules.add_clause(&of(d));
                } else {
                    of(d).iter().for_each(|&l| rules.add_clause(&[!l]));
                }
            }
        }
        _ => {
            let chosen: Vec<Lit> = sets.iter().map(|_| rules.new_var()).collect();
            exactly_one(rules, &chosen);
            for (&m, &s) in sets.iter().zip(&chosen) {
                for d in (1..=9).filter(|&d| has(m, d)) {
                    rules.add_clause(&[&[!s], &of(d)[..]].concat());
                }
            }
            for d in 1..=9 {
                let with: Vec<Lit> = sets
                    .iter()
                    .zip(&chosen)
                    .filter(|(&m, _)| has(m, d))
                    .map(|(_, &s)| s)
                    .collect();
                let without: Vec<Lit> = sets
                    .iter()
                    .zip(&chosen)
                    .filter(|(&m, _)| !has(m, d))
                    .map(|(_, &s)| s)
                    .collect();
                for &l in &of(d) {
                    rules.add_clause(&[&[!l], &with[..]].concat());
                    for &s in &without {
                        rules.add_clause(&[!s, !l]);
                    }
                }
                if !with.is_empty() {
                    rules.add_clause(&[&without[..], &of(d)[..]].concat());
                }
            }
        }
    }
}

impl capability::Explain for Kakuro {
    /// Every white cell's digits as facts (no givens: nothing is known at the start); a rule
    /// per white cell, then per run (across ones first), a run of one cell without a clue
    /// having none (it says nothing).
    fn named(board: &Board) -> Named<Encoding> {
        let cols = board.cols;
        let mut rules = Rules::new();
        let open: Vec<u64> = board
            .cells
            .iter()
            .map(|c| if *c == Cell::White { 0b11_1111_1110 } else { 0 })
            .collect();
        let digits = Digits::new(&mut rules, &open, 9, cols);
        let white: Vec<usize> = board.white().collect();
        for &i in &white {
            rules.rule(format!("{} holds one digit", at(i, cols)), vec![i]);
            digits.one(&mut rules, i);
        }
        for run in board.runs() {
            if run.sum.is_none() && run.cells.len() == 1 {
                continue;
            }
            rules.rule(run_name(&run, cols), run.cells.clone());
            let x: Vec<Vec<Lit>> = run
                .cells
                .iter()
                .map(|&i| digits.cell(i).iter().map(|l| l.expect("white")).collect())
                .collect();
            run_clauses(&mut rules, &x, run.sum);
        }
        let mut facts = Vec::new();
        for &i in &white {
            for d in 1..=9u8 {
                facts.push(Fact {
                    lit: digits.lit(i, d).expect("white"),
                    subject: at(i, cols),
                    is: d.to_string(),
                    otherwise: None,
                    cells: vec![i],
                });
            }
        }
        Named::new(rules, facts, Vec::new(), Encoding { digits })
    }

    fn draw_known(board: &Board, named: &Named<Encoding>, known: &[Lit]) -> String {
        render_rows(board, &known_grid(board, named, known))
    }

    fn svg_step(
        board: &Board,
        named: &Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        let grid = known_grid(board, named, known);
        let cell = svg::cell_size(board.rows, board.cols, 1).min(CELL);
        let mut s = panel(board, Some(&grid), &[], cell);
        svg::mark_step(&mut s, EDGE, EDGE, board.cols, cell, rules, deduced);
        svg::compose(&[s], caption)
    }
}

/// The digits `known` places (0 where none is known yet, and on black cells).
fn known_grid(board: &Board, named: &Named<Encoding>, known: &[Lit]) -> Grid {
    let set: std::collections::HashSet<Lit> = known.iter().copied().collect();
    (0..board.cells.len())
        .map(|i| {
            (1..=9u8)
                .find(|&d| {
                    named
                        .encoding
                        .digits
                        .lit(i, d)
                        .is_some_and(|l| set.contains(&l))
                })
                .unwrap_or(0)
        })
        .collect()
}
