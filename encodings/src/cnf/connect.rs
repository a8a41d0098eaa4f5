//! "The active vertices of a graph form one connected piece" (or there are none), the global
//! rule of Nurikabe's wall, Heyawake's and Hitori's white cells, LITS's shaded cells; and "the
//! chosen edges form one closed loop" (Slitherlink, Masyu), which is degrees plus the same
//! rule through the chosen edges. Stated eagerly, as clauses, so that a certificate's formula
//! holds the whole rule and a DRAT proof of it trusts nothing else.
//!
//! A spanning tree rooted at the first active vertex: every other active vertex picks an active
//! neighbour as its parent, of strictly smaller rank (a number in binary), so that following
//! parents always ends, and can only end at the root. The encoding page is
//! docs/encodings/connect.md.

use crate::cnf::{ClauseSink, Lit};

/// An undirected graph on vertices `0..n`, as each vertex's neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    pub neighbours: Vec<Vec<usize>>,
}

impl Graph {
    /// The cells of a `rows × cols` grid, row-major, each joined to the cells beside it
    /// (4-connected).
    pub fn grid(rows: usize, cols: usize) -> Graph {
        let mut neighbours = vec![Vec::new(); rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                if r > 0 {
                    neighbours[i].push(i - cols);
                }
                if c > 0 {
                    neighbours[i].push(i - 1);
                }
                if c + 1 < cols {
                    neighbours[i].push(i + 1);
                }
                if r + 1 < rows {
                    neighbours[i].push(i + cols);
                }
            }
        }
        Graph { neighbours }
    }

    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }

    /// The pieces (connected components) of the vertices `active` marks, each in increasing
    /// order, by their smallest vertex.
    pub fn pieces(&self, active: &[bool]) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.len()];
        let mut pieces = Vec::new();
        for start in 0..self.len() {
            if !active[start] || seen[start] {
                continue;
            }
            seen[start] = true;
            let mut piece = vec![start];
            let mut next = 0;
            while next < piece.len() {
                let v = piece[next];
                next += 1;
                for &u in &self.neighbours[v] {
                    if active[u] && !seen[u] {
                        seen[u] = true;
                        piece.push(u);
                    }
                }
            }
            piece.sort_unstable();
            pieces.push(piece);
        }
        pieces
    }
}

/// The edges of `graph`, each once, as `(u, v)` with `u < v`, in order: the order of the
/// edge literals [`one_loop`] takes.
pub fn edges(graph: &Graph) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for (u, around) in graph.neighbours.iter().enumerate() {
        for &v in around.iter().filter(|&&v| v > u) {
            edges.push((u, v));
        }
    }
    edges
}

/// Whether the edges `chosen` marks (in [`edges`]' order) form one closed loop, by counting
/// degrees and searching along them: the independent reference for [`one_loop`], and a
/// validator's test.
pub fn is_one_loop(graph: &Graph, chosen: &[bool]) -> bool {
    let mut around = vec![Vec::new(); graph.len()];
    for (&(u, v), _) in edges(graph).iter().zip(chosen).filter(|(_, &c)| c) {
        around[u].push(v);
        around[v].push(u);
    }
    let on: Vec<bool> = around.iter().map(|a| !a.is_empty()).collect();
    around.iter().all(|a| a.is_empty() || a.len() == 2)
        && Graph { neighbours: around }.pieces(&on).len() == 1
}

/// Clauses whose models, restricted to `edge` (one literal per edge of [`edges`]), are exactly
/// the sets of edges that form one closed loop: every vertex has 0 or 2 of them, and the
/// vertices with 2 are one piece through them. At least one edge is chosen. Returns, for each
/// vertex, a literal true when the loop passes through it.
pub fn one_loop<S: ClauseSink>(sink: &mut S, graph: &Graph, edge: &[Lit]) -> Vec<Lit> {
    let list = edges(graph);
    assert_eq!(edge.len(), list.len(), "one literal per edge");
    let index: std::collections::HashMap<(usize, usize), Lit> =
        list.iter().copied().zip(edge.iter().copied()).collect();
    let lit = |u: usize, v: usize| index[&(u.min(v), u.max(v))];
    sink.add_clause(edge);
    let mut on = Vec::with_capacity(graph.len());
    for (v, around) in graph.neighbours.iter().enumerate() {
        let incident: Vec<Lit> = around.iter().map(|&u| lit(u, v)).collect();
        let here = sink.new_named_var(&|| format!("loop through {v}"));
        // `here` ↔ some incident edge; none of them alone; no three of them.
        let mut some = vec![!here];
        for (i, &e) in incident.iter().enumerate() {
            sink.add_clause(&[!e, here]);
            some.push(e);
            let mut another = vec![!e];
            another.extend(
                incident
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &f)| f),
            );
            sink.add_clause(&another);
            for (j, &f) in incident.iter().enumerate().skip(i + 1) {
                for &g in &incident[j + 1..] {
                    sink.add_clause(&[!e, !f, !g]);
                }
            }
        }
        sink.add_clause(&some);
        on.push(here);
    }
    connected_via(sink, graph, &on, |u, v| Some(lit(u, v)));
    on
}

/// How many bits a rank takes: ranks run from 0 to `n − 1` (a path's depth).
fn rank_bits(n: usize) -> usize {
    (usize::BITS - (n.max(2) - 1).leading_zeros()) as usize
}

/// Clauses whose models, restricted to `active` (one literal per vertex of `graph`), are
/// exactly the assignments whose true vertices form at most one piece. Every auxiliary variable
/// is fresh; see the module's opening for how.
pub fn connected<S: ClauseSink>(sink: &mut S, graph: &Graph, active: &[Lit]) {
    connected_via(sink, graph, active, |_, _| None);
}

/// [`connected`] through the edges `via` says are open only: `via(u, v)` (for neighbours `u`,
/// `v`, either order) is a literal that must be true for the piece to pass between them, or
/// `None` where it always may.
pub fn connected_via<S: ClauseSink>(
    sink: &mut S,
    graph: &Graph,
    active: &[Lit],
    via: impl Fn(usize, usize) -> Option<Lit>,
) {
    let n = graph.len();
    assert_eq!(active.len(), n, "one literal per vertex");
    if n <= 1 {
        return;
    }
    // `before[v]`: some vertex before v is active; the root is the first active vertex.
    let mut root = Vec::with_capacity(n);
    let mut before: Option<Lit> = None;
    for (v, &a) in active.iter().enumerate() {
        match before {
            None => root.push(a),
            Some(b) => {
                let r = sink.new_named_var(&|| format!("root {v}"));
                sink.add_clause(&[!r, a]);
                sink.add_clause(&[!r, !b]);
                sink.add_clause(&[!a, b, r]);
                root.push(r);
            }
        }
        if v + 1 < n {
            let now = match before {
                None => a,
                Some(b) => {
                    let f = sink.new_var();
                    sink.add_clause(&[!b, f]);
                    sink.add_clause(&[!a, f]);
                    sink.add_clause(&[!f, b, a]);
                    f
                }
            };
            before = Some(now);
        }
    }
    let bits = rank_bits(n);
    let rank: Vec<Vec<Lit>> = (0..n)
        .map(|v| {
            (0..bits)
                .map(|k| sink.new_named_var(&|| format!("rank {v} bit {k}")))
                .collect()
        })
        .collect();
    for v in 0..n {
        // An active vertex is the root or has a parent.
        let mut has_parent = vec![!active[v], root[v]];
        for &u in &graph.neighbours[v] {
            let p = sink.new_named_var(&|| format!("parent of {v} is {u}"));
            sink.add_clause(&[!p, active[u]]);
            sink.add_clause(&[!p, active[v]]);
            if let Some(e) = via(u, v) {
                sink.add_clause(&[!p, e]);
            }
            smaller(sink, p, &rank[u], &rank[v]);
            has_parent.push(p);
        }
        sink.add_clause(&has_parent);
    }
}

/// `when` → `x < y`, both most significant bit last: some bit k where x has 0 and y has 1, the
/// bits above k equal. `same[k]`: the bits above k are equal (one direction suffices, since
/// only `when` needs it).
fn smaller<S: ClauseSink>(sink: &mut S, when: Lit, x: &[Lit], y: &[Lit]) {
    let bits = x.len();
    let mut some = vec![!when];
    let mut above: Option<Lit> = None;
    for k in (0..bits).rev() {
        // `here`: the first difference, from the top, is at bit k, where x has 0 and y 1.
        let here = sink.new_var();
        sink.add_clause(&[!here, !x[k]]);
        sink.add_clause(&[!here, y[k]]);
        if let Some(a) = above {
            sink.add_clause(&[!here, a]);
        }
        some.push(here);
        if k > 0 {
            // `same`: bits k and above equal.
            let same = sink.new_var();
            sink.add_clause(&[!same, !x[k], y[k]]);
            sink.add_clause(&[!same, x[k], !y[k]]);
            if let Some(a) = above {
                sink.add_clause(&[!same, a]);
            }
            above = Some(same);
        }
    }
    sink.add_clause(&some);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::testing::check_exhaustively;

    /// At most one piece, by breadth-first search: the independent reference.
    fn one_piece(graph: &Graph, active: &[bool]) -> bool {
        graph.pieces(active).len() <= 1
    }

    fn check(graph: &Graph) {
        check_exhaustively(
            graph.len(),
            |cnf, inputs| connected(cnf, graph, inputs),
            |bits| one_piece(graph, bits),
        );
    }

    // The test solver is a plain DPLL, and refuting a disconnected set means refuting every
    // choice of ranks: small graphs here, larger ones against a real solver in
    // tests/connect.rs.
    #[test]
    fn small_grids() {
        for (rows, cols) in [(1, 1), (1, 2), (1, 5), (2, 2), (2, 3)] {
            check(&Graph::grid(rows, cols));
        }
    }

    #[test]
    fn other_graphs() {
        // A cycle, a star, and two triangles with nothing between them (never one piece when
        // both have an active vertex).
        let cycle = Graph {
            neighbours: (0..6).map(|v| vec![(v + 5) % 6, (v + 1) % 6]).collect(),
        };
        let star = Graph {
            neighbours: (0..6)
                .map(|v| if v == 0 { (1..6).collect() } else { vec![0] })
                .collect(),
        };
        let apart = Graph {
            neighbours: vec![
                vec![1, 2],
                vec![0, 2],
                vec![0, 1],
                vec![4, 5],
                vec![3, 5],
                vec![3, 4],
            ],
        };
        for g in [cycle, star, apart] {
            check(&g);
        }
    }

    #[test]
    fn small_loops() {
        for (rows, cols) in [(2, 2), (2, 3), (1, 4)] {
            let graph = Graph::grid(rows, cols);
            check_exhaustively(
                edges(&graph).len(),
                |cnf, inputs| {
                    one_loop(cnf, &graph, inputs);
                },
                |bits| is_one_loop(&graph, bits),
            );
        }
    }

    #[test]
    fn sizes_are_the_pages() {
        // docs/encodings/connect.md: n − 1 roots and n − 2 prefixes (3 clauses each), n·B rank
        // bits, per arc a parent and 2B − 1 comparator variables and 6B − 2 clauses, and a
        // clause per vertex. A 20×20 grid: n = 400, A = 1,520, B = 9.
        let graph = Graph::grid(20, 20);
        let mut count = crate::cnf::SizeCounter::default();
        let active: Vec<Lit> = (0..400).map(|_| count.new_var()).collect();
        connected(&mut count, &graph, &active);
        let (n, a, b) = (400u64, 1520u64, 9u64);
        assert_eq!(count.vars as u64, n + (n - 1) + (n - 2) + n * b + a * 2 * b);
        assert_eq!(
            count.clauses,
            3 * (n - 1) + 3 * (n - 2) + a * (6 * b - 2) + n
        );
    }

    #[test]
    fn pieces_are_found_in_order() {
        let g = Graph::grid(3, 3);
        let active = [true, false, true, true, false, true, false, false, true];
        assert_eq!(g.pieces(&active), vec![vec![0, 3], vec![2, 5, 8]]);
        assert!(g.pieces(&[false; 9]).is_empty());
        assert_eq!(rank_bits(2), 1);
        assert_eq!(rank_bits(12), 4);
        assert_eq!(rank_bits(16), 4);
        assert_eq!(rank_bits(17), 5);
    }
}
