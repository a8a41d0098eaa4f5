//! The loop genres' rules for `explain` ([`crate::explain`]). Facts: each edge on the loop or
//! not ("the top side of (2,3) is on the loop" in Slitherlink, whose edges are the cells'
//! sides; "the line between (2,3) and (2,4) is on the loop" in Masyu, whose edges join cells).
//! Rules, each a set of clauses whose auxiliary variables are its own:
//! - the genre's clues ([`Loop::clue_rules`]: Slitherlink's numbers, Masyu's pearls);
//! - each node "has two lines or none" (Slitherlink's corners, "the top left corner of
//!   (2,3)", the last row's and column's named from below and from the right; Masyu's cells);
//! - "the lines form one connected piece": there is a line, and every line is joined to every
//!   other through lines (each node's "a line meets it" and the spanning forest of
//!   [`connected_via`] are its own). With the nodes' rules, that is one loop.
//!
//! A rule's or a fact's places (what a step's picture marks) count the board's cells first,
//! `0..rows × cols`, then the edges, `rows × cols + k` for edge k, so that a picture marks the
//! edges a step decides and the corners' rules by their edges.

use super::{net_of, panel, render, Cells, Dir, Encoding, Lines, Loop, Looped, CELL, EDGE};
use crate::capability;
use crate::cnf::connect::connected_via;
use crate::cnf::{ClauseSink, Lit};
use crate::explain::{Fact, Named, Rules};
use crate::format::svg::{self, Stroke, Svg};
use crate::genres::shade::named::at;

/// Node `v` of the net: a Slitherlink corner named by the cell it is a corner of ("the top
/// left corner of (2,3)"; the bottom row's and right column's from the last cell), a Masyu
/// cell as "(2,3)".
fn node_name<G: Loop>(board: &G::Board, v: usize) -> String {
    let (rows, cols) = G::size(board);
    if !G::ON_CORNERS {
        return at(v, cols);
    }
    let (r, c) = (v / (cols + 1), v % (cols + 1));
    let vertical = if r < rows { "top" } else { "bottom" };
    let across = if c < cols { "left" } else { "right" };
    format!(
        "the {vertical} {across} corner of {}",
        at(r.min(rows - 1) * cols + c.min(cols - 1), cols)
    )
}

/// Edge k: a Slitherlink side named by the cell below it or right of it ("the top side of
/// (2,3)", "the left side of (2,3)"; the board's bottom and right sides by the cell above or
/// left of them), a Masyu edge by its two cells.
fn edge_name<G: Loop>(board: &G::Board, enc: &Encoding, k: usize) -> String {
    let (rows, cols) = G::size(board);
    let (u, v) = enc.net.edges[k];
    if !G::ON_CORNERS {
        return format!("the line between {} and {}", at(u, cols), at(v, cols));
    }
    let (r, c) = (u / enc.net.cols, u % enc.net.cols);
    let cell = |r: usize, c: usize| at(r * cols + c, cols);
    if enc.net.toward(u, Dir::Right) == Some(k) {
        if r < rows {
            format!("the top side of {}", cell(r, c))
        } else {
            format!("the bottom side of {}", cell(rows - 1, c))
        }
    } else if c < cols {
        format!("the left side of {}", cell(r, c))
    } else {
        format!("the right side of {}", cell(r, cols - 1))
    }
}

/// Each node's rule: no line ends there and no three meet (two or none of its edges).
fn degree_rules<G: Loop>(board: &G::Board, rules: &mut Rules, enc: &Encoding) {
    let (rows, cols) = G::size(board);
    for v in 0..enc.net.graph.len() {
        let edges: Vec<usize> = Dir::ALL
            .iter()
            .filter_map(|&d| enc.net.toward(v, d))
            .collect();
        // A Masyu node is a cell; a Slitherlink corner is shown by its edges.
        let places = if G::ON_CORNERS {
            edges.iter().map(|&k| rows * cols + k).collect()
        } else {
            vec![v]
        };
        rules.rule(
            format!("{} has two lines or none", node_name::<G>(board, v)),
            places,
        );
        let lits: Vec<Lit> = edges.iter().map(|&k| enc.lit(k)).collect();
        for (i, &e) in lits.iter().enumerate() {
            let mut another = vec![!e];
            another.extend(
                lits.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|p| *p.1),
            );
            rules.add_clause(&another);
            for (j, &f) in lits.iter().enumerate().skip(i + 1) {
                for &g in &lits[j + 1..] {
                    rules.add_clause(&[!e, !f, !g]);
                }
            }
        }
    }
}

/// "the lines form one connected piece": some line; each node's own "a line meets it"; those
/// nodes one piece through the lines.
fn one_piece(rules: &mut Rules, enc: &Encoding, cells: usize) {
    rules.rule("the lines form one connected piece", (0..cells).collect());
    let graph = &enc.net.graph;
    let met: Vec<Lit> = (0..graph.len()).map(|_| rules.new_var()).collect();
    let mut meeting = vec![Vec::new(); graph.len()];
    for (k, &(u, v)) in enc.net.edges.iter().enumerate() {
        let e = enc.lit(k);
        for w in [u, v] {
            rules.add_clause(&[!e, met[w]]);
            meeting[w].push(e);
        }
    }
    for (w, lines) in meeting.into_iter().enumerate() {
        let mut some = vec![!met[w]];
        some.extend(lines);
        rules.add_clause(&some);
    }
    rules.add_clause(&enc.lines.lits);
    let index: std::collections::HashMap<(usize, usize), Lit> = enc
        .net
        .edges
        .iter()
        .copied()
        .zip(enc.lines.lits.iter().copied())
        .collect();
    connected_via(rules, graph, &met, |u, v| {
        Some(index[&(u.min(v), u.max(v))])
    });
}

/// The edges `known` decides (`None` where it decides nothing yet).
fn known_lines(named: &Named<Encoding>, known: &[Lit]) -> Lines {
    named.encoding.lines.known(known)
}

const RULE_EDGE: Stroke = Stroke::solid("rgba(40,110,220,0.35)", 10.0);
const DEDUCED_EDGE: Stroke = Stroke::solid("rgba(0,136,0,0.55)", 8.0);
const DEDUCED_OFF: Stroke = Stroke::solid("#080", 2.0);

/// Edge k's ends in the picture.
fn ends<G: Loop>(enc: &Encoding, k: usize, cell: f64) -> ((f64, f64), (f64, f64)) {
    let offset = if G::ON_CORNERS { 0.0 } else { cell / 2.0 };
    let point = |v: usize| {
        (
            EDGE + offset + (v % enc.net.cols) as f64 * cell,
            EDGE + offset + (v / enc.net.cols) as f64 * cell,
        )
    };
    let (u, v) = enc.net.edges[k];
    (point(u), point(v))
}

/// The rules' edges tinted as their cells are; the deduced edges in green, those off the loop
/// crossed.
fn mark_edges<G: Loop>(
    s: &mut Svg,
    enc: &Encoding,
    lines: &Lines,
    rules: &[usize],
    deduced: &[usize],
    cell: f64,
) {
    if !rules.is_empty() {
        s.open_group("rules");
        for &k in rules {
            let ((x1, y1), (x2, y2)) = ends::<G>(enc, k, cell);
            s.line(x1, y1, x2, y2, RULE_EDGE);
        }
        s.close_group();
    }
    if !deduced.is_empty() {
        s.open_group("deduced");
        for &k in deduced {
            let ((x1, y1), (x2, y2)) = ends::<G>(enc, k, cell);
            if lines[k] == Some(false) {
                let (x, y, d) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0, cell / 8.0);
                s.line(x - d, y - d, x + d, y + d, DEDUCED_OFF);
                s.line(x - d, y + d, x + d, y - d, DEDUCED_OFF);
            } else {
                s.line(x1, y1, x2, y2, DEDUCED_EDGE);
            }
        }
        s.close_group();
    }
}

impl<G: Loop> capability::Explain for Looped<G> {
    /// See the module's opening: the clues' rules, a rule per node, and the one piece.
    fn named(board: &G::Board) -> Named<Encoding> {
        let (rows, cols) = G::size(board);
        let net = net_of::<G>(board);
        let mut rules = Rules::new();
        // The edges' variables, made before any rule: the facts.
        let lits = net.edges.iter().map(|_| rules.new_var()).collect();
        let enc = Encoding {
            net,
            lines: Cells { lits },
            // "On the loop" per node belongs to the one-piece rule alone; nothing reads it here.
            on: Vec::new(),
        };
        G::clue_rules(board, &mut rules, &enc);
        degree_rules::<G>(board, &mut rules, &enc);
        one_piece(&mut rules, &enc, rows * cols);
        let facts = (0..enc.net.edges.len())
            .map(|k| Fact {
                lit: enc.lit(k),
                subject: edge_name::<G>(board, &enc, k),
                is: "on the loop".into(),
                otherwise: None,
                cells: vec![rows * cols + k],
            })
            .collect();
        Named::new(rules, facts, Vec::new(), enc)
    }

    fn draw_known(board: &G::Board, named: &Named<Encoding>, known: &[Lit]) -> String {
        render::<G>(board, &known_lines(named, known))
    }

    /// The board as `known` leaves it (undecided edges grey), the rules' cells and edges
    /// tinted, the deduced edges green.
    fn svg_step(
        board: &G::Board,
        named: &Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        let (rows, cols) = G::size(board);
        let n = rows * cols;
        let cell = svg::cell_size(rows, cols, 1).min(CELL);
        let lines = known_lines(named, known);
        let mut s = panel::<G>(board, Some(&lines), &[], cell);
        let split = |places: &[usize]| -> (Vec<usize>, Vec<usize>) {
            let (cells, edges): (Vec<usize>, Vec<usize>) = places.iter().partition(|&&p| p < n);
            (cells, edges.into_iter().map(|p| p - n).collect())
        };
        let ((rule_cells, rule_edges), (deduced_cells, deduced_edges)) =
            (split(rules), split(deduced));
        svg::mark_step(&mut s, EDGE, EDGE, cols, cell, &rule_cells, &deduced_cells);
        mark_edges::<G>(
            &mut s,
            &named.encoding,
            &lines,
            &rule_edges,
            &deduced_edges,
            cell,
        );
        svg::compose(&[s], caption)
    }
}
