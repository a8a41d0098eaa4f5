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
    let on = loop_degrees(sink, graph, edge);
    sink.add_clause(edge);
    let list = edges(graph);
    let index: std::collections::HashMap<(usize, usize), Lit> =
        list.iter().copied().zip(edge.iter().copied()).collect();
    connected_via(sink, graph, &on, |u, v| Some(index[&(u.min(v), u.max(v))]));
    on
}

/// Every vertex has 0 or 2 of the edges `edge` marks (one literal per edge of [`edges`]): the
/// local half of [`one_loop`], whose models are the sets of disjoint loops (a search that
/// leaves the single loop to [`loop_cuts`] states only this). Returns, for each vertex, a
/// literal true when some chosen edge meets it.
pub fn loop_degrees<S: ClauseSink>(sink: &mut S, graph: &Graph, edge: &[Lit]) -> Vec<Lit> {
    let list = edges(graph);
    assert_eq!(edge.len(), list.len(), "one literal per edge");
    let mut incident = vec![Vec::new(); graph.len()];
    for (&(u, v), &e) in list.iter().zip(edge) {
        incident[u].push(e);
        incident[v].push(e);
    }
    let mut on = Vec::with_capacity(graph.len());
    for (v, incident) in incident.iter().enumerate() {
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
    on
}

impl Graph {
    /// The graph with a vertex in the middle of every edge: `graph`'s vertices first, then one
    /// per edge of [`edges`] (vertex `n + k` for edge k), each joined to its two ends. A loop
    /// is one piece of it (its vertices and its edges' vertices), so the cuts of a loop are
    /// [`Cut`]s here and [`is_separator`] checks them.
    pub fn subdivided(&self) -> Graph {
        let n = self.len();
        let list = edges(self);
        let mut neighbours = vec![Vec::new(); n + list.len()];
        for (k, &(u, v)) in list.iter().enumerate() {
            neighbours[u].push(n + k);
            neighbours[v].push(n + k);
            neighbours[n + k] = vec![u, v];
        }
        Graph { neighbours }
    }
}

/// Cuts that chosen edges (of [`edges`]) forming several loops break, over
/// [`Graph::subdivided`] (their clauses take each vertex's "on the loop" literal, then the
/// edges'): two vertices on different loops are not both on the loop unless an edge leaving
/// the first one's loop is chosen (every loop against every other while they are few, else
/// each against the largest). Empty when the chosen edges form one piece or none.
pub fn loop_cuts(graph: &Graph, chosen: &[bool]) -> Vec<Cut> {
    let n = graph.len();
    let list = edges(graph);
    let mut active = vec![false; n + list.len()];
    for (k, &(u, v)) in list.iter().enumerate() {
        if chosen[k] {
            active[u] = true;
            active[v] = true;
            active[n + k] = true;
        }
    }
    let subdivided = graph.subdivided();
    let pieces = subdivided.pieces(&active);
    if pieces.len() < 2 {
        return Vec::new();
    }
    let mut inside = vec![false; n];
    let leaving: Vec<Vec<usize>> = pieces
        .iter()
        .map(|p| {
            let nodes: Vec<usize> = p.iter().copied().filter(|&v| v < n).collect();
            nodes.iter().for_each(|&v| inside[v] = true);
            let out = (0..list.len())
                .filter(|&k| inside[list[k].0] != inside[list[k].1])
                .map(|k| n + k)
                .collect();
            nodes.iter().for_each(|&v| inside[v] = false);
            out
        })
        .collect();
    pair_cuts(&subdivided, &pieces, &leaving)
}

/// A clause every assignment whose active vertices form one piece keeps: `a` and `b` are not
/// both active unless some vertex of `between` is, because `between` separates them (every
/// path from `a` to `b` passes through it). [`is_separator`] checks that without any formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    pub a: usize,
    /// `None`: every root (for "no piece without a root": `a` is not active unless some vertex
    /// of `between` is).
    pub b: Option<usize>,
    pub between: Vec<usize>,
}

impl Cut {
    /// The clause over per-vertex literals `active`.
    pub fn clause(&self, active: &[Lit]) -> Vec<Lit> {
        let mut clause = vec![!active[self.a]];
        clause.extend(self.b.map(|b| !active[b]));
        clause.extend(self.between.iter().map(|&v| active[v]));
        clause
    }
}

/// The vertices beside `piece` and outside it.
fn border(graph: &Graph, piece: &[usize], inside: &mut [bool]) -> Vec<usize> {
    piece.iter().for_each(|&v| inside[v] = true);
    let mut out: Vec<usize> = piece
        .iter()
        .flat_map(|&v| graph.neighbours[v].iter().copied())
        .filter(|&u| !inside[u])
        .collect();
    piece.iter().for_each(|&v| inside[v] = false);
    out.sort_unstable();
    out.dedup();
    out
}

/// Cuts that an assignment whose active vertices form several pieces breaks: for two pieces,
/// their first vertices are not both active unless the first piece's border has an active
/// vertex (for every ordered pair of pieces, or with many pieces, for each against the
/// largest). Empty when the active vertices are one piece (or none).
pub fn piece_cuts(graph: &Graph, active: &[bool]) -> Vec<Cut> {
    let pieces = graph.pieces(active);
    if pieces.len() < 2 {
        return Vec::new();
    }
    let mut inside = vec![false; graph.len()];
    let borders: Vec<Vec<usize>> = pieces
        .iter()
        .map(|p| border(graph, p, &mut inside))
        .collect();
    pair_cuts(graph, &pieces, &borders)
}

/// For two pieces or more, with `borders[i]` separating piece i from the rest: a cut for every
/// ordered pair while they are few (on janko.at's boards three times fewer calls than one cut
/// a piece); past that each piece against the largest, so that a model of many pieces adds
/// clauses in proportion to the board, not to its pieces squared. Each cut is checked by
/// [`is_separator`] before it is handed out: a search's "no other answer" rests on its cuts,
/// so none is trusted on the strength of how it was built.
fn pair_cuts(graph: &Graph, pieces: &[Vec<usize>], borders: &[Vec<usize>]) -> Vec<Cut> {
    let largest = (0..pieces.len())
        .max_by_key(|&i| pieces[i].len())
        .expect("two pieces");
    let mut cuts = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        for (j, q) in pieces.iter().enumerate() {
            if j != i && (pieces.len() <= PAIRS_MAX || j == largest) {
                cuts.push(checked(
                    graph,
                    Cut {
                        a: p[0],
                        b: Some(q[0]),
                        between: borders[i].clone(),
                    },
                    &[],
                ));
            }
        }
    }
    cuts
}

/// `cut`, once [`is_separator`] has confirmed it. A cut that is not would exclude valid
/// answers and let a search claim "unique" or a count falsely: that is a bug in this module,
/// and stopping is the only honest outcome.
fn checked(graph: &Graph, cut: Cut, roots: &[bool]) -> Cut {
    assert!(
        is_separator(graph, &cut, roots),
        "internal error: a connectivity cut that separates nothing: {cut:?}"
    );
    cut
}

/// The most pieces [`piece_cuts`] cuts pair by pair.
const PAIRS_MAX: usize = 8;

/// Cuts that an assignment with a piece of active vertices holding no root breaks: its first
/// vertex is not active unless the piece's border has an active vertex. Empty when every
/// piece holds a root.
pub fn unrooted_cuts(graph: &Graph, active: &[bool], roots: &[bool]) -> Vec<Cut> {
    let mut inside = vec![false; graph.len()];
    let mut cuts = Vec::new();
    for p in graph.pieces(active) {
        if p.iter().any(|&v| roots[v]) {
            continue;
        }
        let cut = Cut {
            a: p[0],
            b: None,
            between: border(graph, &p, &mut inside),
        };
        cuts.push(checked(graph, cut, roots));
    }
    cuts
}

/// Whether `cut` holds in every assignment whose active vertices form one piece (`b` a
/// vertex) or whose every piece holds a root (`b` none): whether its `between` separates `a`
/// from `b` (from every root) in `graph`. By breadth-first search from `a` avoiding `between`;
/// shares nothing with the encoders.
pub fn is_separator(graph: &Graph, cut: &Cut, roots: &[bool]) -> bool {
    let n = graph.len();
    if cut.a >= n || cut.b.is_some_and(|b| b >= n) || cut.between.iter().any(|&v| v >= n) {
        return false;
    }
    let mut open = vec![true; n];
    cut.between.iter().for_each(|&v| open[v] = false);
    if !open[cut.a] || cut.b.is_some_and(|b| !open[b]) {
        return false;
    }
    // What `a` reaches around `between`: for a piece's border, the piece alone, so checking
    // every cut of a search costs about one pass over the board.
    let mut seen = vec![false; n];
    seen[cut.a] = true;
    let mut stack = vec![cut.a];
    while let Some(v) = stack.pop() {
        if cut.b == Some(v) || (cut.b.is_none() && roots.get(v) == Some(&true)) {
            return false;
        }
        for &u in &graph.neighbours[v] {
            if open[u] && !seen[u] {
                seen[u] = true;
                stack.push(u);
            }
        }
    }
    true
}

/// Clauses that keep every active vertex within `steps` steps of `root` through active
/// vertices (`active[v]`: `None` for a vertex never active); `root` itself is taken as active.
/// `near_{v,t}` (for `t` from v's distance from the root on the graph to `steps`): v is active
/// and at most `t` steps away. Each needs `near_{v,t−1}` or a neighbour's `near_{u,t−1}` (a
/// neighbour of the root needs nothing), and an active vertex needs `near_{v,steps}`. Unit
/// propagation sees a vertex cut off as soon as its last path closes, which a forest's ranks
/// hide; the price is a variable per vertex and step.
///
/// Sound: by induction on `t`, `near_{v,t}` gives an active path of at most `t` steps to the
/// root. Complete: set `near_{v,t}` when v's distance through active vertices is at most `t`.
pub fn within<S: ClauseSink>(
    sink: &mut S,
    graph: &Graph,
    active: &[Option<Lit>],
    root: usize,
    steps: usize,
) {
    let n = graph.len();
    let unreached = usize::MAX;
    let mut depth = vec![unreached; n];
    depth[root] = 0;
    let mut queue = std::collections::VecDeque::from([root]);
    while let Some(v) = queue.pop_front() {
        for &u in &graph.neighbours[v] {
            if active[u].is_some() && depth[u] == unreached {
                depth[u] = depth[v] + 1;
                queue.push_back(u);
            }
        }
    }
    // No path of active vertices from the root is longer than there are vertices it can
    // reach: more steps add nothing but variables (a 2×2 Nurikabe's 16777216 asked for 16
    // million a cell).
    let reachable = depth.iter().filter(|&&d| d != unreached).count();
    let steps = steps.min(reachable.saturating_sub(1));
    // near[v][t − depth[v]].
    let mut near: Vec<Vec<Lit>> = vec![Vec::new(); n];
    for t in 1..=steps {
        for v in 0..n {
            let Some(a) = active[v] else { continue };
            if v == root || depth[v] > t {
                continue;
            }
            let here = sink.new_var();
            sink.add_clause(&[!here, a]);
            if depth[v] > 1 {
                let mut why = vec![!here];
                if t > depth[v] {
                    why.push(near[v][t - 1 - depth[v]]);
                }
                for &u in &graph.neighbours[v] {
                    if u != root && depth[u] < t {
                        why.push(near[u][t - 1 - depth[u]]);
                    }
                }
                sink.add_clause(&why);
            }
            near[v].push(here);
        }
    }
    for v in 0..n {
        if let Some(a) = active[v].filter(|_| v != root) {
            match near[v].last() {
                Some(&l) => sink.add_clause(&[!a, l]),
                None => sink.add_clause(&[!a]),
            }
        }
    }
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
    let root: Vec<Root> = root.into_iter().map(Root::When).collect();
    forest(sink, graph, active, &root, &via);
}

/// Whether a vertex may be a root of [`forest`]: never, always, or when a literal is true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Root {
    Never,
    Always,
    When(Lit),
}

/// Clauses whose models, restricted to `active`, are exactly the assignments in which every
/// piece of active vertices holds a vertex of `roots`: "no piece without a clue" (Nurikabe's
/// islands, whose clue cells are the roots). Roots need not be active; an inactive root roots
/// nothing. The same forest as [`connected`], with the roots given instead of chosen.
pub fn rooted<S: ClauseSink>(sink: &mut S, graph: &Graph, active: &[Lit], roots: &[bool]) {
    assert_eq!(active.len(), graph.len(), "one literal per vertex");
    assert_eq!(roots.len(), graph.len(), "one flag per vertex");
    let root: Vec<Root> = roots
        .iter()
        .map(|&r| if r { Root::Always } else { Root::Never })
        .collect();
    forest(sink, graph, active, &root, &|_, _| None);
}

/// Every active vertex is a root (as `root` allows) or has an active parent, through an open
/// edge, of strictly smaller rank: following parents ends, and only at a root.
fn forest<S: ClauseSink>(
    sink: &mut S,
    graph: &Graph,
    active: &[Lit],
    root: &[Root],
    via: &dyn Fn(usize, usize) -> Option<Lit>,
) {
    let n = graph.len();
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
        let mut has_parent = vec![!active[v]];
        match root[v] {
            Root::Always => continue,
            Root::When(r) => has_parent.push(r),
            Root::Never => {}
        }
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
    fn rooted_pieces() {
        // Roots in a corner, in the middle, two of them, none.
        let graph = Graph::grid(2, 3);
        for roots in [vec![0], vec![4], vec![0, 5], vec![]] {
            let flags: Vec<bool> = (0..6).map(|v| roots.contains(&v)).collect();
            check_exhaustively(
                6,
                |cnf, inputs| rooted(cnf, &graph, inputs, &flags),
                |bits| {
                    graph
                        .pieces(bits)
                        .iter()
                        .all(|p| p.iter().any(|&v| flags[v]))
                },
            );
        }
    }

    /// Whether a cut's clause holds under `bits` (vertex v active when `bits[v]`).
    fn keeps(cut: &Cut, bits: &[bool]) -> bool {
        !bits[cut.a] || cut.b.is_some_and(|b| !bits[b]) || cut.between.iter().any(|&v| bits[v])
    }

    #[test]
    fn cuts_are_broken_by_their_assignment_and_kept_by_every_valid_one() {
        // On every assignment of a 3×3 and a 2×4 grid: the cuts found are separators, the
        // assignment breaks each, and every assignment keeping the rule keeps each; an
        // assignment keeping the rule gets none.
        for (rows, cols, root) in [(3, 3, vec![4]), (2, 4, vec![0, 7])] {
            let graph = Graph::grid(rows, cols);
            let n = rows * cols;
            let roots: Vec<bool> = (0..n).map(|v| root.contains(&v)).collect();
            let all: Vec<Vec<bool>> = (0..1u32 << n)
                .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect())
                .collect();
            let one = |b: &[bool]| graph.pieces(b).len() <= 1;
            let rooted = |b: &[bool]| graph.pieces(b).iter().all(|p| p.iter().any(|&v| roots[v]));
            let mut found = 0;
            for bits in &all {
                let pieces = piece_cuts(&graph, bits);
                assert_eq!(pieces.is_empty(), one(bits), "{bits:?}");
                let unrooted = unrooted_cuts(&graph, bits, &roots);
                assert_eq!(unrooted.is_empty(), rooted(bits), "{bits:?}");
                for (cut, rule) in pieces
                    .iter()
                    .map(|c| (c, &one as &dyn Fn(&[bool]) -> bool))
                    .chain(
                        unrooted
                            .iter()
                            .map(|c| (c, &rooted as &dyn Fn(&[bool]) -> bool)),
                    )
                {
                    assert!(!keeps(cut, bits), "{cut:?} on {bits:?}");
                    assert!(is_separator(&graph, cut, &roots), "{cut:?}");
                    assert!(
                        all.iter().filter(|b| rule(b)).all(|b| keeps(cut, b)),
                        "{cut:?}"
                    );
                    found += 1;
                }
            }
            assert!(found > 100, "{found}");
        }
        // A clause that separates nothing is refused.
        let graph = Graph::grid(3, 3);
        let roots = [false; 9];
        assert!(!is_separator(
            &graph,
            &Cut {
                a: 0,
                b: Some(8),
                between: vec![4]
            },
            &roots
        ));
        assert!(is_separator(
            &graph,
            &Cut {
                a: 0,
                b: Some(8),
                between: vec![2, 4, 6]
            },
            &roots
        ));
        assert!(!is_separator(
            &graph,
            &Cut {
                a: 0,
                b: Some(9),
                between: vec![]
            },
            &roots
        ));
        assert!(!is_separator(
            &graph,
            &Cut {
                a: 0,
                b: Some(4),
                between: vec![4]
            },
            &roots
        ));
        // "No piece without a root": the corner walled off from the root at 8, and not.
        let mut rooted = [false; 9];
        rooted[8] = true;
        let corner = |between: Vec<usize>| Cut {
            a: 0,
            b: None,
            between,
        };
        assert!(is_separator(&graph, &corner(vec![1, 3]), &rooted));
        assert!(!is_separator(&graph, &corner(vec![1]), &rooted));
        rooted[0] = true;
        assert!(!is_separator(&graph, &corner(vec![1, 3]), &rooted));
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
