//! The connectivity encoding (`encodings::cnf::connect`) against breadth-first search, on
//! graphs too large for the unit tests' DPLL: every subset of a grid's cells is satisfiable
//! exactly when it is one piece (or empty), and the models, told apart by their active
//! vertices only, are exactly the connected subsets.

use encodings::cnf::connect::{connected, edges, one_loop, Graph};
use encodings::cnf::{ClauseSink, Lit};
use encodings::search::Sink;
use encodings::solver::{NewSolver, SolveResult, Stop};
use puzzle_sat::backends::Backend;

fn solver_with(graph: &Graph) -> (Box<dyn encodings::solver::Solver>, Vec<Lit>) {
    let solvers = Backend::by_name("varisat").unwrap().solvers(Stop::new());
    let mut solver = solvers.new_solver();
    let active: Vec<Lit> = {
        let mut sink = Sink(&mut *solver);
        let active = (0..graph.len()).map(|_| sink.new_var()).collect::<Vec<_>>();
        connected(&mut sink, graph, &active);
        active
    };
    (solver, active)
}

#[test]
fn every_subset_of_small_grids() {
    for (rows, cols) in [(3, 3), (3, 4), (4, 4), (2, 7)] {
        let graph = Graph::grid(rows, cols);
        let (mut solver, active) = solver_with(&graph);
        let n = graph.len();
        for mask in 0u32..1 << n {
            let bits: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
            let assumptions: Vec<Lit> = active
                .iter()
                .zip(&bits)
                .map(|(&l, &b)| if b { l } else { !l })
                .collect();
            let sat = solver.solve_with(&assumptions).unwrap() == SolveResult::Sat;
            assert_eq!(
                sat,
                graph.pieces(&bits).len() <= 1,
                "{rows}×{cols}, active {bits:?}"
            );
        }
    }
}

#[test]
fn models_are_the_connected_subsets() {
    for (rows, cols) in [(4, 4), (3, 6)] {
        let graph = Graph::grid(rows, cols);
        let n = graph.len();
        let expected = (0u32..1 << n)
            .filter(|mask| {
                let bits: Vec<bool> = (0..n).map(|i| mask >> i & 1 == 1).collect();
                graph.pieces(&bits).len() <= 1
            })
            .count();
        let (mut solver, active) = solver_with(&graph);
        let mut found = 0;
        while solver.solve_with(&[]).unwrap() == SolveResult::Sat {
            let model = solver.model();
            let bits: Vec<bool> = active.iter().map(|&l| model.value(l)).collect();
            assert!(graph.pieces(&bits).len() <= 1, "{bits:?} is no one piece");
            found += 1;
            let block: Vec<Lit> = active
                .iter()
                .zip(&bits)
                .map(|(&l, &b)| if b { !l } else { l })
                .collect();
            solver.add_clause(&block);
        }
        assert_eq!(found, expected, "{rows}×{cols}");
    }
}

/// One closed loop, by counting degrees and searching the chosen edges: the reference.
fn is_one_loop(graph: &Graph, list: &[(usize, usize)], chosen: &[bool]) -> bool {
    let mut around = vec![Vec::new(); graph.len()];
    for (&(u, v), _) in list.iter().zip(chosen).filter(|(_, &c)| c) {
        around[u].push(v);
        around[v].push(u);
    }
    let on: Vec<bool> = around.iter().map(|a| !a.is_empty()).collect();
    around.iter().all(|a| a.is_empty() || a.len() == 2)
        && Graph { neighbours: around }.pieces(&on).len() == 1
}

fn loop_solver(graph: &Graph) -> (Box<dyn encodings::solver::Solver>, Vec<Lit>, Vec<Lit>) {
    let solvers = Backend::by_name("varisat").unwrap().solvers(Stop::new());
    let mut solver = solvers.new_solver();
    let mut sink = Sink(&mut *solver);
    let edge: Vec<Lit> = edges(graph).iter().map(|_| sink.new_var()).collect();
    let on = one_loop(&mut sink, graph, &edge);
    (solver, edge, on)
}

#[test]
fn every_edge_set_of_small_lattices() {
    // Lattice points, joined to the points beside them: Slitherlink's loops.
    for (rows, cols) in [(3, 3), (3, 4), (2, 6)] {
        let graph = Graph::grid(rows, cols);
        let list = edges(&graph);
        let (mut solver, edge, on) = loop_solver(&graph);
        for mask in 0u32..1 << list.len() {
            let bits: Vec<bool> = (0..list.len()).map(|i| mask >> i & 1 == 1).collect();
            let assumptions: Vec<Lit> = edge
                .iter()
                .zip(&bits)
                .map(|(&l, &b)| if b { l } else { !l })
                .collect();
            let sat = solver.solve_with(&assumptions).unwrap() == SolveResult::Sat;
            assert_eq!(
                sat,
                is_one_loop(&graph, &list, &bits),
                "{rows}×{cols}, edges {bits:?}"
            );
            if sat {
                // The vertices it reports on the loop are the ones with edges.
                let model = solver.model();
                for (v, &l) in on.iter().enumerate() {
                    let touched = list
                        .iter()
                        .zip(&bits)
                        .any(|(&(a, b), &c)| c && (a == v || b == v));
                    assert_eq!(model.value(l), touched);
                }
            }
        }
    }
}

#[test]
fn loop_models_are_the_loops() {
    let graph = Graph::grid(3, 5);
    let list = edges(&graph);
    let expected = (0u32..1 << list.len())
        .filter(|mask| {
            let bits: Vec<bool> = (0..list.len()).map(|i| mask >> i & 1 == 1).collect();
            is_one_loop(&graph, &list, &bits)
        })
        .count();
    let (mut solver, edge, _) = loop_solver(&graph);
    let mut found = 0;
    while solver.solve_with(&[]).unwrap() == SolveResult::Sat {
        let model = solver.model();
        let bits: Vec<bool> = edge.iter().map(|&l| model.value(l)).collect();
        assert!(is_one_loop(&graph, &list, &bits), "{bits:?} is no loop");
        found += 1;
        let block: Vec<Lit> = edge
            .iter()
            .zip(&bits)
            .map(|(&l, &b)| if b { !l } else { l })
            .collect();
        solver.add_clause(&block);
    }
    assert!(expected > 0);
    assert_eq!(found, expected);
}
