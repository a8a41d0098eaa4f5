//! The connectivity encodings (`encodings::cnf::connect`) against breadth-first search, on
//! graphs too large for the unit tests' DPLL: every subset of a grid's cells (every edge set of
//! a lattice) is satisfiable exactly when it is one piece or empty (one loop), and the models,
//! told apart by their answer literals, are exactly those sets.

use encodings::cnf::connect::{
    connected, edges, is_one_loop, is_separator, loop_cuts, loop_degrees, one_loop, Graph,
};
use encodings::cnf::{ClauseSink, Lit};
use encodings::search::Sink;
use encodings::solver::{NewSolver, SolveResult, Solver, Stop};
use puzzle_sat::backends::Backend;

fn solver() -> Box<dyn Solver> {
    Backend::by_name("varisat")
        .unwrap()
        .solvers(Stop::new())
        .new_solver()
}

/// Each literal, negated where `bits` says false.
fn signed(lits: &[Lit], bits: &[bool]) -> Vec<Lit> {
    lits.iter()
        .zip(bits)
        .map(|(&l, &b)| if b { l } else { !l })
        .collect()
}

/// The bits of `mask`, `n` of them.
fn bits(mask: u32, n: usize) -> Vec<bool> {
    (0..n).map(|i| mask >> i & 1 == 1).collect()
}

/// Every assignment of `lits` is satisfiable exactly when `holds` says so; `sat` looks at the
/// model of each satisfiable one.
fn every_assignment(
    solver: &mut dyn Solver,
    lits: &[Lit],
    holds: impl Fn(&[bool]) -> bool,
    mut sat: impl FnMut(&[bool], &encodings::cnf::Model),
) {
    for mask in 0u32..1 << lits.len() {
        let bits = bits(mask, lits.len());
        let found = solver.solve_with(&signed(lits, &bits)).unwrap() == SolveResult::Sat;
        assert_eq!(found, holds(&bits), "{bits:?}");
        if found {
            sat(&bits, &solver.model());
        }
    }
}

/// How many models the solver has, told apart by `lits`, each one checked by `holds`.
fn count_models(solver: &mut dyn Solver, lits: &[Lit], holds: impl Fn(&[bool]) -> bool) -> usize {
    let mut found = 0;
    while solver.solve_with(&[]).unwrap() == SolveResult::Sat {
        let model = solver.model();
        let bits: Vec<bool> = lits.iter().map(|&l| model.value(l)).collect();
        assert!(holds(&bits), "{bits:?} breaks the rule");
        found += 1;
        let block: Vec<Lit> = signed(lits, &bits).into_iter().map(|l| !l).collect();
        solver.add_clause(&block);
    }
    found
}

/// A solver holding `connected` over fresh literals, one per vertex.
fn piece_solver(graph: &Graph) -> (Box<dyn Solver>, Vec<Lit>) {
    let mut solver = solver();
    let mut sink = Sink(&mut *solver);
    let active: Vec<Lit> = (0..graph.len()).map(|_| sink.new_var()).collect();
    connected(&mut sink, graph, &active);
    (solver, active)
}

/// A solver holding `one_loop` over fresh literals, one per edge, and its `on` literals.
fn loop_solver(graph: &Graph) -> (Box<dyn Solver>, Vec<Lit>, Vec<Lit>) {
    let mut solver = solver();
    let mut sink = Sink(&mut *solver);
    let edge: Vec<Lit> = edges(graph).iter().map(|_| sink.new_var()).collect();
    let on = one_loop(&mut sink, graph, &edge);
    (solver, edge, on)
}

#[test]
fn every_subset_of_small_grids() {
    for (rows, cols) in [(3, 3), (3, 4), (4, 4), (2, 7)] {
        let graph = Graph::grid(rows, cols);
        let (mut solver, active) = piece_solver(&graph);
        let one_piece = |bits: &[bool]| graph.pieces(bits).len() <= 1;
        every_assignment(&mut *solver, &active, one_piece, |_, _| {});
    }
}

#[test]
fn models_are_the_connected_subsets() {
    for (rows, cols) in [(4, 4), (3, 6)] {
        let graph = Graph::grid(rows, cols);
        let n = graph.len();
        let one_piece = |bits: &[bool]| graph.pieces(bits).len() <= 1;
        let expected = (0u32..1 << n).filter(|&m| one_piece(&bits(m, n))).count();
        let (mut solver, active) = piece_solver(&graph);
        assert_eq!(
            count_models(&mut *solver, &active, one_piece),
            expected,
            "{rows}×{cols}"
        );
    }
}

#[test]
fn every_edge_set_of_small_lattices() {
    // Lattice points, joined to the points beside them: Slitherlink's loops.
    for (rows, cols) in [(3, 3), (3, 4), (2, 6)] {
        let graph = Graph::grid(rows, cols);
        let list = edges(&graph);
        let (mut solver, edge, on) = loop_solver(&graph);
        let is_loop = |bits: &[bool]| is_one_loop(&graph, bits);
        every_assignment(&mut *solver, &edge, is_loop, |bits, model| {
            // The vertices it reports on the loop are the ones with edges.
            for (v, &l) in on.iter().enumerate() {
                let touched = list
                    .iter()
                    .zip(bits)
                    .any(|(&(a, b), &c)| c && (a == v || b == v));
                assert_eq!(model.value(l), touched, "{rows}×{cols}, vertex {v}");
            }
        });
    }
}

#[test]
fn loop_models_are_the_loops() {
    let graph = Graph::grid(3, 5);
    let n = edges(&graph).len();
    let is_loop = |bits: &[bool]| is_one_loop(&graph, bits);
    let expected = (0u32..1 << n).filter(|&m| is_loop(&bits(m, n))).count();
    assert!(expected > 0);
    let (mut solver, edge, _) = loop_solver(&graph);
    assert_eq!(count_models(&mut *solver, &edge, is_loop), expected);
}

/// The searches' form of one loop: degrees, at least one edge, and [`loop_cuts`] added while
/// a model has several loops. Every cut separates in the subdivided graph and every loop keeps
/// it; what is left at the end is exactly the loops.
#[test]
fn loop_cuts_leave_exactly_the_loops() {
    let mut cut_count = 0;
    for (rows, cols) in [(3, 3), (3, 4), (2, 6)] {
        let graph = Graph::grid(rows, cols);
        let list = edges(&graph);
        let n = list.len();
        let loops: Vec<Vec<bool>> = (0u32..1 << n)
            .map(|m| bits(m, n))
            .filter(|b| is_one_loop(&graph, b))
            .collect();
        let sub = graph.subdivided();
        let mut solver = solver();
        let mut sink = Sink(&mut *solver);
        let edge: Vec<Lit> = list.iter().map(|_| sink.new_var()).collect();
        let on = loop_degrees(&mut sink, &graph, &edge);
        sink.add_clause(&edge);
        let active: Vec<Lit> = on.iter().chain(&edge).copied().collect();
        // A loop's value of each subdivided vertex: its nodes, then its edges.
        let value = |l: &[bool], v: usize| {
            if v < graph.len() {
                list.iter()
                    .zip(l)
                    .any(|(&(a, b), &c)| c && (a == v || b == v))
            } else {
                l[v - graph.len()]
            }
        };
        let mut found = 0;
        while solver.solve_with(&[]).unwrap() == SolveResult::Sat {
            let model = solver.model();
            let chosen: Vec<bool> = edge.iter().map(|&l| model.value(l)).collect();
            let cuts = loop_cuts(&graph, &chosen);
            if cuts.is_empty() {
                assert!(is_one_loop(&graph, &chosen), "{chosen:?}");
                found += 1;
                let block: Vec<Lit> = signed(&edge, &chosen).into_iter().map(|l| !l).collect();
                solver.add_clause(&block);
                continue;
            }
            for cut in cuts {
                assert!(is_separator(&sub, &cut, &[]), "{cut:?}");
                for l in &loops {
                    let kept = !value(l, cut.a)
                        || cut.b.is_some_and(|b| !value(l, b))
                        || cut.between.iter().any(|&v| value(l, v));
                    assert!(kept, "{cut:?} cuts off a loop");
                }
                solver.add_clause(&cut.clause(&active));
                cut_count += 1;
            }
        }
        assert_eq!(found, loops.len(), "{rows}×{cols}");
    }
    // Two loops fit apart on the larger lattices.
    assert!(cut_count > 0);
}
