//! The local shapes the shading genres forbid: no 2×2 block of shaded cells (Nurikabe's wall),
//! no two shaded cells side by side (Heyawake, Hitori); and a few literals' exact count
//! (Slitherlink's cells).

use crate::cnf::connect::{edges, Graph};
use crate::cnf::{ClauseSink, Lit};
use itertools::Itertools;

/// No 2×2 block of a `rows × cols` grid (row-major `lits`) has all four true: one clause each.
pub fn no_square<S: ClauseSink>(sink: &mut S, rows: usize, cols: usize, lits: &[Lit]) {
    assert_eq!(lits.len(), rows * cols, "one literal per cell");
    for r in 1..rows {
        for c in 1..cols {
            let i = r * cols + c;
            sink.add_clause(&[!lits[i], !lits[i - 1], !lits[i - cols], !lits[i - cols - 1]]);
        }
    }
}

/// No two neighbours of `graph` both true: one clause per edge.
pub fn no_adjacent<S: ClauseSink>(sink: &mut S, graph: &Graph, lits: &[Lit]) {
    for (u, v) in edges(graph) {
        sink.add_clause(&[!lits[u], !lits[v]]);
    }
}

/// "No unshaded cell alone": each unshaded cell of a `rows × cols` grid (row-major `lits`,
/// true for shaded) has an unshaded neighbour. Implied, on a grid at least 2×2, by
/// [`no_adjacent`] and the unshaded cells being one piece: a lone unshaded cell would be the
/// only one, and the other cells, all shaded, include two side by side (the other half of any
/// 2×2 block around it). A search that leaves connectivity to cuts states it to cut the
/// smallest pieces at once (on janko.at's Hitoris, three times fewer solver calls; the same
/// for pairs of cells cut no further).
pub fn no_lone_unshaded<S: ClauseSink>(sink: &mut S, rows: usize, cols: usize, lits: &[Lit]) {
    if rows < 2 || cols < 2 {
        return;
    }
    let unshaded: Vec<Lit> = lits.iter().map(|&l| !l).collect();
    no_lone(sink, &Graph::grid(rows, cols), &unshaded);
}

/// Every active vertex has an active neighbour: one clause a vertex. The caller knows it holds,
/// as it does whenever the active vertices are one piece of at least two (Nurikabe's wall, when
/// the numbers leave it two cells or more).
pub fn no_lone<S: ClauseSink>(sink: &mut S, graph: &Graph, active: &[Lit]) {
    for (v, near) in graph.neighbours.iter().enumerate() {
        let mut some = vec![!active[v]];
        some.extend(near.iter().map(|&u| active[u]));
        sink.add_clause(&some);
    }
}

/// Exactly `k` of a few `lits` (a Slitherlink cell's four sides) are true, with no auxiliary
/// variable: every `k + 1` of them hold a false one and every `n − k + 1` a true one (the
/// binomial encoding; unit propagation decides the rest as soon as `k` are true or `n − k`
/// false). Meant for a handful of literals: the clauses grow as the subsets do.
pub fn exactly_few<S: ClauseSink>(sink: &mut S, lits: &[Lit], k: usize) {
    let n = lits.len();
    if k > n {
        sink.add_clause(&[]);
        return;
    }
    for (size, sign) in [(k + 1, false), (n - k + 1, true)] {
        if size > n {
            continue;
        }
        for subset in lits.iter().copied().combinations(size) {
            let clause: Vec<Lit> = subset
                .into_iter()
                .map(|l| if sign { l } else { !l })
                .collect();
            sink.add_clause(&clause);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::testing::check_exhaustively;

    #[test]
    fn no_lone_against_its_definition() {
        for (rows, cols) in [(1, 4), (2, 3), (3, 3)] {
            let graph = Graph::grid(rows, cols);
            check_exhaustively(
                rows * cols,
                |cnf, inputs| no_lone(cnf, &graph, inputs),
                |b| (0..rows * cols).all(|v| !b[v] || graph.neighbours[v].iter().any(|&u| b[u])),
            );
            // What Nurikabe states it for: every set of at least two cells in one piece.
            for bits in 0u32..1 << (rows * cols) {
                let b: Vec<bool> = (0..rows * cols).map(|v| bits >> v & 1 == 1).collect();
                if b.iter().filter(|&&x| x).count() >= 2 && graph.pieces(&b).len() == 1 {
                    assert!((0..rows * cols)
                        .all(|v| !b[v] || graph.neighbours[v].iter().any(|&u| b[u])));
                }
            }
        }
    }

    #[test]
    fn shapes_against_their_definitions() {
        let (rows, cols) = (3, 3);
        check_exhaustively(
            9,
            |cnf, inputs| no_square(cnf, rows, cols, inputs),
            |b| {
                !(0..2).any(|r| {
                    (0..2).any(|c| {
                        b[r * 3 + c] && b[r * 3 + c + 1] && b[r * 3 + c + 3] && b[r * 3 + c + 4]
                    })
                })
            },
        );
        // Every shading of grids up to 3×4 that keeps no_adjacent and has its unshaded cells
        // in one piece keeps no_lone_unshaded (so adding it cuts no valid answer).
        for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (2, 5)] {
            let g = Graph::grid(r, c);
            for m in 0u32..1 << (r * c) {
                let shaded: Vec<bool> = (0..r * c).map(|i| m >> i & 1 == 1).collect();
                let open: Vec<bool> = shaded.iter().map(|s| !s).collect();
                let valid = edges(&g).iter().all(|&(u, v)| !(shaded[u] && shaded[v]))
                    && g.pieces(&open).len() <= 1;
                let lone =
                    (0..r * c).any(|v| open[v] && g.neighbours[v].iter().all(|&u| shaded[u]));
                assert!(!(valid && lone), "{r}×{c}: {m:b}");
            }
        }
        let graph = Graph::grid(rows, cols);
        check_exhaustively(
            9,
            |cnf, inputs| no_adjacent(cnf, &graph, inputs),
            |b| !(0..9).any(|i| b[i] && graph.neighbours[i].iter().any(|&j| b[j])),
        );
        for n in 0..=5 {
            for k in 0..=n + 1 {
                check_exhaustively(
                    n,
                    |cnf, inputs| exactly_few(cnf, inputs, k),
                    |b| b.iter().filter(|&&x| x).count() == k,
                );
            }
        }
    }
}
