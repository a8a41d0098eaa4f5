//! The local shapes the shading genres forbid: no 2×2 block of shaded cells (Nurikabe's wall),
//! no two shaded cells side by side (Heyawake, Hitori).

use crate::cnf::connect::{edges, Graph};
use crate::cnf::{ClauseSink, Lit};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::testing::check_exhaustively;

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
        let graph = Graph::grid(rows, cols);
        check_exhaustively(
            9,
            |cnf, inputs| no_adjacent(cnf, &graph, inputs),
            |b| !(0..9).any(|i| b[i] && graph.neighbours[i].iter().any(|&j| b[j])),
        );
    }
}
