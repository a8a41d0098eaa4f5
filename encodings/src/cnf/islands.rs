//! "Each piece of open cells holds exactly one clue and has the clue's size": Nurikabe's
//! islands (and any genre whose numbered regions grow around their number). Stated eagerly,
//! over the graph of [`crate::cnf::connect`], so that a certificate's formula holds the rule.
//!
//! Each clue labels the open vertices of its piece. A label spreads to every open neighbour,
//! so a piece has one label throughout; two clues are never in one piece, since each keeps its
//! own label; the labels of a clue are counted to its size; and a piece with no clue at all is
//! ruled out by [`crate::cnf::connect::rooted`], rooted at the clues. A vertex is given a label
//! only where the clue can reach it: within its size of steps, never through another clue or
//! a vertex beside one. The encoding page is docs/encodings/connect.md.

use crate::cnf::amo::at_most_one;
use crate::cnf::connect::{rooted, within, Graph};
use crate::cnf::sum::exactly;
use crate::cnf::{ClauseSink, Lit};
use std::collections::VecDeque;

/// A clue: its vertex, and the size of its piece where the number is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clue {
    pub at: usize,
    pub size: Option<usize>,
}

/// The labels: for each clue, the vertices it may reach with the literal "in its piece".
pub struct Islands {
    pub labels: Vec<Vec<(usize, Lit)>>,
    /// Every piece is tied to its clue by distances: "some clue in every piece" holds without
    /// cuts.
    pub all_near: bool,
}

/// The most `vertices × size` a clue's distances may take; past it a clue's piece is tied to
/// it by the forest (or cuts) alone.
pub const DISTANCE_BUDGET: usize = 1 << 16;

/// Whether [`islands`] states "no piece without a clue" itself, or leaves it to cuts
/// ([`crate::cnf::connect::unrooted_cuts`]) that a search adds when a model breaks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Eager,
    Lazy,
}

/// The vertices clue `k` may reach: breadth-first from it, up to `size − 1` steps, through
/// vertices that are neither another clue nor beside one (an open vertex beside another clue
/// is in that clue's piece). Empty when the clue itself is beside another.
fn reach(graph: &Graph, clues: &[Clue], owner: &[Option<usize>], k: usize) -> Vec<usize> {
    let allowed = |v: usize| {
        owner[v].is_none_or(|o| o == k)
            && graph.neighbours[v]
                .iter()
                .all(|&u| owner[u].is_none_or(|o| o == k))
    };
    let start = clues[k].at;
    if !allowed(start) {
        return Vec::new();
    }
    let limit = clues[k].size.map_or(usize::MAX, |s| s.saturating_sub(1));
    let mut depth = vec![usize::MAX; graph.len()];
    depth[start] = 0;
    let mut queue = VecDeque::from([start]);
    let mut out = vec![start];
    while let Some(v) = queue.pop_front() {
        if depth[v] == limit {
            continue;
        }
        for &u in &graph.neighbours[v] {
            if depth[u] == usize::MAX && allowed(u) {
                depth[u] = depth[v] + 1;
                out.push(u);
                queue.push_back(u);
            }
        }
    }
    out.sort_unstable();
    out
}

/// Clauses whose models, restricted to `open` (one literal per vertex), are exactly the
/// assignments in which every piece of open vertices holds exactly one clue vertex and, where
/// the clue gives a size, has that many vertices. Clue vertices are open. With [`Rule::Lazy`],
/// pieces without a clue are let through.
pub fn islands<S: ClauseSink>(
    sink: &mut S,
    graph: &Graph,
    open: &[Lit],
    clues: &[Clue],
    rule: Rule,
) -> Islands {
    let n = graph.len();
    assert_eq!(open.len(), n, "one literal per vertex");
    let mut owner = vec![None; n];
    for (k, c) in clues.iter().enumerate() {
        assert!(owner[c.at].is_none(), "one clue per vertex");
        owner[c.at] = Some(k);
    }
    let mut around: Vec<Vec<Lit>> = vec![Vec::new(); n];
    let mut labels = Vec::with_capacity(clues.len());
    for (k, clue) in clues.iter().enumerate() {
        sink.add_clause(&[open[clue.at]]);
        let cells = reach(graph, clues, &owner, k);
        if !cells.contains(&clue.at) {
            sink.add_clause(&[]);
        }
        let mine: Vec<(usize, Lit)> = cells
            .iter()
            .map(|&v| {
                let l = sink.new_named_var(&|| format!("{v} in the piece of {}", clue.at));
                sink.add_clause(&[!l, open[v]]);
                around[v].push(l);
                (v, l)
            })
            .collect();
        labels.push(mine);
    }
    // Whether every clue's piece is tied to it by distances: then every open vertex is within
    // reach of its clue, and "some clue in every piece" needs no forest or cuts.
    let mut all_near = true;
    for (k, mine) in labels.iter().enumerate() {
        let index: std::collections::HashMap<usize, Lit> = mine.iter().copied().collect();
        if let Some(&l) = index.get(&clues[k].at) {
            sink.add_clause(&[l]);
        }
        // A label spreads to every open neighbour.
        for &(v, l) in mine {
            for &u in &graph.neighbours[v] {
                match index.get(&u) {
                    Some(&m) => sink.add_clause(&[!l, !open[u], m]),
                    None => sink.add_clause(&[!l, !open[u]]),
                }
            }
        }
        // A `?` has no distances: its piece needs the forest (or cuts) to hold its clue.
        all_near &= clues[k].size.is_some();
        if let Some(size) = clues[k].size {
            if mine.len() * size <= DISTANCE_BUDGET {
                let active: Vec<Option<Lit>> = (0..n).map(|v| index.get(&v).copied()).collect();
                within(sink, graph, &active, clues[k].at, size - 1);
            } else {
                all_near = false;
            }
            if mine.len() < size {
                sink.add_clause(&[]);
                continue;
            }
            let mine: Vec<Lit> = mine.iter().map(|&(_, l)| l).collect();
            exactly(sink, &mine, size);
        }
    }
    // Every open vertex is in some clue's piece, and in one only.
    for v in 0..n {
        let mut some = vec![!open[v]];
        some.extend(&around[v]);
        sink.add_clause(&some);
        at_most_one(sink, &around[v]);
    }
    let roots: Vec<bool> = owner.iter().map(Option::is_some).collect();
    if rule == Rule::Eager && !all_near {
        rooted(sink, graph, open, &roots);
    }
    Islands { labels, all_near }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::testing::check_exhaustively;

    /// The rule by breadth-first search: the independent reference.
    pub fn holds(graph: &Graph, clues: &[Clue], open: &[bool]) -> bool {
        clues.iter().all(|c| open[c.at])
            && graph.pieces(open).iter().all(|piece| {
                let inside: Vec<&Clue> = clues.iter().filter(|c| piece.contains(&c.at)).collect();
                inside.len() == 1 && inside[0].size.is_none_or(|s| s == piece.len())
            })
    }

    #[test]
    fn islands_that_meet_far_from_their_clues_are_one_piece() {
        // Two 10s on a 2×10 board: the two halves, all open, would be one piece with both
        // numbers. Each half's cells are within reach of both clues, so only the spreading of
        // labels refutes it.
        let graph = Graph::grid(2, 10);
        let clues = [
            Clue {
                at: 0,
                size: Some(10),
            },
            Clue {
                at: 9,
                size: Some(10),
            },
        ];
        let mut cnf = crate::cnf::Cnf::new();
        let open: Vec<Lit> = (0..20).map(|_| cnf.new_var()).collect();
        islands(&mut cnf, &graph, &open, &clues, Rule::Eager);
        assert!(!crate::cnf::testing::satisfiable(&cnf, &open));
        let mut some_shaded = open.clone();
        some_shaded[4] = !open[4];
        some_shaded[15] = !open[15];
        assert!(
            !crate::cnf::testing::satisfiable(&cnf, &some_shaded),
            "two pieces of 9"
        );
    }

    #[test]
    fn small_boards() {
        let clue = |at, size| Clue { at, size };
        let cases: Vec<(usize, usize, Vec<Clue>)> = vec![
            (2, 3, vec![clue(0, Some(2)), clue(5, Some(1))]),
            (2, 3, vec![clue(1, Some(3))]),
            (2, 3, vec![clue(0, None), clue(2, Some(2))]),
            (3, 3, vec![clue(0, Some(1)), clue(8, Some(3))]),
            // Clues side by side, and a size too big for the board: no model.
            (2, 2, vec![clue(0, Some(1)), clue(1, Some(1))]),
            (1, 3, vec![clue(0, Some(4))]),
            (2, 3, vec![]),
            // A `?` alone: a piece beside it without a clue is no island.
            (1, 5, vec![clue(4, None)]),
            (2, 3, vec![clue(5, None), clue(0, Some(1))]),
        ];
        for (rows, cols, clues) in cases {
            let graph = Graph::grid(rows, cols);
            check_exhaustively(
                rows * cols,
                |cnf, inputs| {
                    islands(cnf, &graph, inputs, &clues, Rule::Eager);
                },
                |bits| holds(&graph, &clues, bits),
            );
        }
    }
}
