//! Nurikabe's rules for `explain`: a fact per cell ("shaded" / "unshaded") and, for each
//! number, a fact per cell within its reach ("in the island of the 5 at (2,3)" / "not in …"),
//! so that the island rules share what they know about which cell belongs to which island as
//! facts a person reads, never through hidden variables. A cell's reach is the cells less
//! than the number's steps away (Manhattan distance), a `?`'s every cell, in both cases
//! without the other numbers' cells. A cell out of a number's reach has no fact for its island:
//! that it is not in it follows from "has N cells and is connected" alone (a connected island
//! of N cells holds no cell N steps or more from its number), and another number's cell is in
//! its own island only (each island holds one number).
//!
//! Known from the start, as a sudoku's givens: a number's cell is unshaded and in its own
//! island. The rules, each a set of clauses whose auxiliary variables are its own:
//! - `(r,c) is either shaded or in exactly one of the islands that reach it: the 3 at (1,1),
//!   the 5 at (2,3)` (each cell without a number; `…: none` where no island reaches it);
//! - `the island of the 5 at (2,3) has 5 cells and is connected` (it holds (2,3); every cell of
//!   it is joined to (2,3) through cells of it, within 4 steps, which with 5 cells is the same
//!   as connected); `the island of the ? at (2,3) is connected`;
//! - `(a) and (b), if both unshaded, are in the same island` (each two neighbours that some
//!   island reaches: islands do not touch);
//! - `the 2×2 from (r,c) to (r+1,c+1) is not all shaded`;
//! - `the shaded cells are connected`.

use super::{clues, Board, Nurikabe, Rules};
use crate::cnf::connect::{connected, rooted, within, Graph};
use crate::cnf::islands::Clue;
use crate::cnf::sum::exactly;
use crate::cnf::{ClauseSink, Lit};
use crate::explain::{Fact, Named};
use crate::genres::shade::named::{at, cells};
use crate::genres::shade::Encoding;

/// The cells of clue `k`'s reach, in order: less than its number's steps from it (every cell
/// for `?`), not another clue's cell.
pub fn reach(board: &Board, clues: &[Clue], k: usize) -> Vec<usize> {
    let cols = board.cols;
    let (r0, c0) = (clues[k].at / cols, clues[k].at % cols);
    (0..board.rows * cols)
        .filter(|&v| {
            let d = (v / cols).abs_diff(r0) + (v % cols).abs_diff(c0);
            clues[k].size.is_none_or(|n| d < n) && (v == clues[k].at || board.clues[v].is_none())
        })
        .collect()
}

/// "the 5 at (2,3)", "the ? at (2,3)".
fn clue_name(board: &Board, clue: &Clue) -> String {
    let number = clue.size.map_or("?".to_string(), |n| n.to_string());
    format!("the {number} at {}", at(clue.at, board.cols))
}

/// An island's cells are unshaded: `ms[j]` (cell `inside[j]` in it) excludes shading it.
fn unshaded(rules: &mut crate::explain::Rules, inside: &[usize], ms: &[Lit], shaded: &[Lit]) {
    for (&v, &m) in inside.iter().zip(ms) {
        rules.add_clause(&[!m, !shaded[v]]);
    }
}

/// At least as many literals as [`connected`] (or [`rooted`]) puts on `n` vertices
/// of at most four neighbours each: per neighbour the parent's two clauses and the rank
/// comparison (15 a bit, and its clause), the has-a-parent clause, the first-root chain.
pub(crate) fn forest_literals(n: u64) -> u64 {
    let bits = u64::from(u64::BITS - n.max(2).saturating_sub(1).leading_zeros());
    n.saturating_mul(60 * bits + 40)
}

/// At least as many literals as [`exactly`] puts on `n` literals, `k` of them true: a
/// totalizer capped at the smaller side plus one (checked against the encoder in the tests).
fn exactly_literals(n: u64, k: u64) -> u64 {
    let cap = k.min(n.saturating_sub(k)) + 1;
    let depth = u64::from(u64::BITS - n.max(2).leading_zeros());
    n.saturating_mul(cap.min(n) + 1)
        .saturating_mul(12)
        .saturating_add(n.saturating_mul(depth).saturating_mul(6))
}

/// How many literals [`crate::capability::Explain::named`] builds, from the numbers alone
/// (no reach is listed): at least as many, and on janko.at's boards within a few times.
fn named_literals(board: &Board) -> u64 {
    let (rows, cols) = (board.rows as u64, board.cols as u64);
    let n = rows * cols;
    let mut total = forest_literals(n)
        .saturating_add(4 * rows.saturating_sub(1) * cols.saturating_sub(1))
        .saturating_add(n);
    for clue in clues(board) {
        // The cells less than N steps away: a diamond, cut by the board.
        let reach = clue.size.map_or(n, |s| {
            let s = s as u64;
            n.min(s.saturating_mul(s).saturating_mul(2))
        });
        // Its cells' rules (11 a cell and island at most: pairwise up to nine islands), its
        // neighbours' (16), its own.
        let mut island = reach.saturating_mul(11 + 16 + 2).saturating_add(1);
        island = island.saturating_add(match clue.size {
            Some(s) => {
                let steps = (s as u64).saturating_sub(1).min(reach);
                exactly_literals(reach, s as u64)
                    .saturating_add(reach.saturating_mul(steps.saturating_mul(8) + 2))
            }
            None => forest_literals(reach),
        });
        total = total.saturating_add(island);
    }
    total
}

impl crate::capability::Explain for Nurikabe {
    /// See [`named_literals`].
    fn estimate_named(board: &Board, _limit: u64) -> Option<u64> {
        Some(named_literals(board))
    }

    /// See the module's opening: a rule per cell without a number, per island, per two
    /// neighbours, per 2×2 and one for the wall.
    fn named(board: &Board) -> Named<Encoding> {
        let (rows, cols) = (board.rows, board.cols);
        let n = rows * cols;
        let mut rules = crate::explain::Rules::new();
        let enc = cells(&mut rules, rows, cols);
        let lits = enc.cells.lits.clone();
        let clues = clues(board);
        let names: Vec<String> = clues.iter().map(|c| clue_name(board, c)).collect();
        // member[k][v]: "v is in the island of clue k", where v is within its reach.
        let mut member: Vec<Vec<Option<Lit>>> = Vec::with_capacity(clues.len());
        let mut facts: Vec<Fact> = lits
            .iter()
            .enumerate()
            .map(|(i, &lit)| Fact {
                lit,
                subject: at(i, cols),
                is: "shaded".into(),
                otherwise: Some("unshaded".into()),
                cells: vec![i],
            })
            .collect();
        let mut known = Vec::new();
        for (k, clue) in clues.iter().enumerate() {
            let mut mine = vec![None; n];
            for v in reach(board, &clues, k) {
                let lit = rules.new_var();
                mine[v] = Some(lit);
                facts.push(Fact {
                    lit,
                    subject: at(v, cols),
                    is: format!("in the island of {}", names[k]),
                    otherwise: None,
                    cells: vec![v],
                });
            }
            known.push(!lits[clue.at]);
            known.push(mine[clue.at].expect("a clue reaches its own cell"));
            member.push(mine);
        }
        // Each cell without a number: shaded, or in exactly one island.
        for v in (0..n).filter(|&v| board.clues[v].is_none()) {
            let reaching: Vec<usize> = (0..clues.len())
                .filter(|&k| member[k][v].is_some())
                .collect();
            let list: Vec<&str> = reaching.iter().map(|&k| &names[k][..]).collect();
            let mut cells = vec![v];
            cells.extend(reaching.iter().map(|&k| clues[k].at));
            rules.rule(
                format!(
                    "{} is either shaded or in exactly one of the islands that reach it: {}",
                    at(v, cols),
                    if list.is_empty() {
                        "none".to_string()
                    } else {
                        list.join(", ")
                    }
                ),
                cells,
            );
            let ms: Vec<Lit> = reaching
                .iter()
                .map(|&k| member[k][v].expect("reaches"))
                .collect();
            let mut some = vec![lits[v]];
            some.extend(&ms);
            rules.add_clause(&some);
            for &m in &ms {
                rules.add_clause(&[!m, !lits[v]]);
            }
            crate::cnf::amo::at_most_one(&mut rules, &ms);
        }
        // Each island: its size and its connectivity.
        for (k, clue) in clues.iter().enumerate() {
            let inside: Vec<usize> = (0..n).filter(|&v| member[k][v].is_some()).collect();
            let ms: Vec<Lit> = inside
                .iter()
                .map(|&v| member[k][v].expect("inside"))
                .collect();
            match clue.size {
                Some(size) => {
                    rules.rule(
                        format!(
                            "the island of {} is {size} unshaded cell{}, connected",
                            names[k],
                            if size == 1 { "" } else { "s" }
                        ),
                        inside.clone(),
                    );
                    rules.add_clause(&[member[k][clue.at].expect("own cell")]);
                    unshaded(&mut rules, &inside, &ms, &lits);
                    exactly(&mut rules, &ms, size);
                    within(&mut rules, &enc.graph, &member[k], clue.at, size - 1);
                }
                None => {
                    rules.rule(
                        format!("the island of {} is unshaded cells, connected", names[k]),
                        inside.clone(),
                    );
                    rules.add_clause(&[member[k][clue.at].expect("own cell")]);
                    unshaded(&mut rules, &inside, &ms, &lits);
                    // The forest over the reach alone, rooted at the clue.
                    let index: Vec<Option<usize>> = {
                        let mut index = vec![None; n];
                        inside
                            .iter()
                            .enumerate()
                            .for_each(|(j, &v)| index[v] = Some(j));
                        index
                    };
                    let graph = Graph {
                        neighbours: inside
                            .iter()
                            .map(|&v| {
                                enc.graph.neighbours[v]
                                    .iter()
                                    .filter_map(|&u| index[u])
                                    .collect()
                            })
                            .collect(),
                    };
                    let roots: Vec<bool> = inside.iter().map(|&v| v == clue.at).collect();
                    rooted(&mut rules, &graph, &ms, &roots);
                }
            }
        }
        // Two neighbours both unshaded are in the same island.
        for (a, b) in crate::cnf::connect::edges(&enc.graph) {
            let touching: Vec<usize> = (0..clues.len())
                .filter(|&k| member[k][a].is_some() || member[k][b].is_some())
                .collect();
            if touching.is_empty() {
                continue;
            }
            rules.rule(
                format!(
                    "{} and {}, if both unshaded, are in the same island",
                    at(a, cols),
                    at(b, cols)
                ),
                vec![a, b],
            );
            for &k in &touching {
                for (x, y) in [(a, b), (b, a)] {
                    if let Some(mx) = member[k][x] {
                        let mut clause = vec![lits[a], lits[b], !mx];
                        clause.extend(member[k][y]);
                        rules.add_clause(&clause);
                    }
                }
            }
        }
        for r in 0..rows.saturating_sub(1) {
            for c in 0..cols.saturating_sub(1) {
                let i = r * cols + c;
                let block = vec![i, i + 1, i + cols, i + cols + 1];
                rules.rule(
                    format!(
                        "the 2×2 from {} to {} is not all shaded",
                        at(i, cols),
                        at(i + cols + 1, cols)
                    ),
                    block.clone(),
                );
                let some: Vec<Lit> = block.iter().map(|&j| !lits[j]).collect();
                rules.add_clause(&some);
            }
        }
        rules.rule("the shaded cells are connected", (0..n).collect());
        connected(&mut rules, &enc.graph, &lits);
        Named::new(rules, facts, known, enc).reusing_models()
    }

    fn draw_known(board: &Board, named: &Named<Encoding>, known: &[Lit]) -> String {
        crate::genres::shade::named::draw::<Rules>(board, named, known)
    }

    fn svg_step(
        board: &Board,
        named: &Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        crate::genres::shade::named::svg_step::<Rules>(board, named, known, rules, deduced, caption)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::Explain;
    use crate::cnf::SizeCounter;
    use crate::puzzle::{Puzzle, Settings};
    use crate::rng::Rng;

    #[test]
    fn the_exactly_bound_covers_the_encoder() {
        for n in 1..=120 {
            let lits: Vec<Lit> = (1..=n as u32).map(Lit::positive).collect();
            for k in 0..=n {
                let mut count = SizeCounter {
                    vars: n as u32,
                    ..SizeCounter::default()
                };
                exactly(&mut count, &lits, k);
                let bound = exactly_literals(n as u64, k as u64);
                assert!(
                    count.literals <= bound,
                    "{n} choose {k}: {} > {bound}",
                    count.literals
                );
            }
        }
    }

    /// The estimate is at least what `named` builds, and not far above it, on random boards
    /// with numbers and `?`s (the janko.at boards are measured in docs/explain.md).
    #[test]
    fn the_estimate_covers_the_named_rules() {
        let mut rng = Rng::new(45);
        for _ in 0..60 {
            let (rows, cols) = (1 + rng.below(12), 1 + rng.below(12));
            let text: String = (0..rows)
                .map(|_| {
                    let row: Vec<String> = (0..cols)
                        .map(|_| match rng.below(12) {
                            0 => "?".to_string(),
                            1 | 2 => (1 + rng.below(9)).to_string(),
                            _ => "-".to_string(),
                        })
                        .collect();
                    row.join(" ") + "\n"
                })
                .collect();
            let board = Nurikabe::parse(&text, &Settings::default()).unwrap();
            let built = Nurikabe::named(&board).rules.literals();
            let estimate = named_literals(&board);
            assert!(built <= estimate, "{text}: {built} > {estimate}");
            assert!(
                estimate <= 8 * built.max(1000),
                "{text}: {estimate} for {built}"
            );
        }
    }
}
