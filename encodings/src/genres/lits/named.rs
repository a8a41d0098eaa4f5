//! LITS's rules for `explain` ([`crate::explain`]). Facts: each cell shaded or not ("(2,3) is
//! shaded"), and each room's letter ("the tetromino of the room of (1,3) is an L"), which the
//! room's rule ties to the shape it shades. Rules: a room by the cell it begins with, "the room
//! of (1,3) shades one tetromino" (exactly one of its placements, with variables of its own;
//! its shaded cells are that placement's; its letter is that placement's shape);
//! "the rooms of (1,3) and (2,5) have different letters where their shaded cells touch" (each
//! two rooms side by side); "the 2×2 from (r,c) is not all shaded" (each block of cells in
//! rooms); "(r,c) is outside every room, so unshaded"; "the shaded cells are connected" (its
//! auxiliaries its own).

use super::{edges, placements, Board, Lits, Rules as LitsRules, Shape, OUTSIDE, SHAPES};
use crate::capability;
use crate::cnf::amo::exactly_one;
use crate::cnf::{ClauseSink, Lit};
use crate::explain::{Fact, Named, Rules};
use crate::genres::shade::named::{at, cells, draw, svg_step};
use crate::genres::shade::Encoding;
use std::collections::BTreeMap;

/// "an L", "an I", "a T", "an S".
pub fn letter(s: Shape) -> &'static str {
    match s {
        Shape::L => "an L",
        Shape::I => "an I",
        Shape::T => "a T",
        Shape::S => "an S",
    }
}

impl capability::Explain for Lits {
    /// At most: per placement 24 literals (its letter and cells, its share of the room's
    /// exactly-one, its place in each cell's clause and its letter's), per cell of a room 1,
    /// per two neighbours in two rooms 16, per 2×2 4, and the connectivity's forest. A room of
    /// more than 64 cells is not walked: at most 18 placements begin at each of its cells.
    fn estimate_named(board: &Board, _limit: u64) -> Option<u64> {
        let (rows, cols) = (board.blank.rows, board.blank.cols);
        let n = (rows * cols) as u64;
        let mut total = crate::genres::nurikabe::named::forest_literals(n)
            .saturating_add(n)
            .saturating_add(4 * n);
        for room in board.rooms() {
            let placed = if room.len() <= 64 {
                placements(&room, cols).len()
            } else {
                18 * room.len()
            };
            total = total.saturating_add(24 * placed as u64 + room.len() as u64 + 4);
        }
        for i in 0..rows * cols {
            let (r, c) = (i / cols, i % cols);
            for j in [
                (c + 1 < cols).then_some(i + 1),
                (r + 1 < rows).then_some(i + cols),
            ]
            .into_iter()
            .flatten()
            {
                let (a, b) = (board.room[i], board.room[j]);
                if a != b && a != OUTSIDE && b != OUTSIDE {
                    total = total.saturating_add(16);
                }
            }
        }
        Some(total)
    }

    fn named(board: &Board) -> Named<Encoding> {
        let (rows, cols) = (board.blank.rows, board.blank.cols);
        let mut rules = Rules::new();
        let enc = cells(&mut rules, rows, cols);
        let lits = enc.cells.lits.clone();
        let rooms = board.rooms();
        // Each room's letters, made before any rule: facts.
        let letters: Vec<[Lit; 4]> = rooms
            .iter()
            .map(|_| std::array::from_fn(|_| rules.new_var()))
            .collect();
        let name = |k: usize| format!("the room of {}", at(rooms[k][0], cols));
        for (k, room) in rooms.iter().enumerate() {
            rules.rule(format!("{} shades one tetromino", name(k)), room.clone());
            let mut covers: BTreeMap<usize, Vec<Lit>> = BTreeMap::new();
            let mut of_shape: [Vec<Lit>; 4] = Default::default();
            let mut chosen = Vec::new();
            for (cells, s) in placements(room, cols) {
                let p = rules.new_var();
                chosen.push(p);
                let x = SHAPES.iter().position(|&y| y == s).expect("a shape");
                rules.add_clause(&[!p, letters[k][x]]);
                of_shape[x].push(p);
                for &i in &cells {
                    rules.add_clause(&[!p, lits[i]]);
                    covers.entry(i).or_default().push(p);
                }
            }
            exactly_one(&mut rules, &chosen);
            for &i in room {
                let mut some = vec![!lits[i]];
                some.extend(covers.get(&i).into_iter().flatten());
                rules.add_clause(&some);
            }
            for x in 0..4 {
                let mut some = vec![!letters[k][x]];
                some.extend(&of_shape[x]);
                rules.add_clause(&some);
            }
        }
        // Each two rooms side by side, with the neighbouring cells between them.
        let mut borders: BTreeMap<(usize, usize), Vec<(usize, usize)>> = BTreeMap::new();
        for (a, b) in edges(&enc.graph) {
            let (ra, rb) = (board.room[a], board.room[b]);
            if ra != rb && ra != OUTSIDE && rb != OUTSIDE {
                let (a, b, ra, rb) = if ra < rb {
                    (a, b, ra, rb)
                } else {
                    (b, a, rb, ra)
                };
                borders.entry((ra, rb)).or_default().push((a, b));
            }
        }
        for (&(j, k), pairs) in &borders {
            let mut touching: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
            touching.sort_unstable();
            touching.dedup();
            rules.rule(
                format!(
                    "{} and {} have different letters where their shaded cells touch",
                    name(j).replacen("the room", "the rooms", 1),
                    at(rooms[k][0], cols)
                ),
                touching,
            );
            for &(a, b) in pairs {
                for (&x, &y) in letters[j].iter().zip(&letters[k]) {
                    rules.add_clause(&[!lits[a], !lits[b], !x, !y]);
                }
            }
        }
        for r in 0..rows.saturating_sub(1) {
            for c in 0..cols.saturating_sub(1) {
                let i = r * cols + c;
                let block = [i, i + 1, i + cols, i + cols + 1];
                if block.iter().any(|&j| board.room[j] == OUTSIDE) {
                    continue;
                }
                rules.rule(
                    format!("the 2×2 from {} is not all shaded", at(i, cols)),
                    block.to_vec(),
                );
                let some: Vec<Lit> = block.iter().map(|&j| !lits[j]).collect();
                rules.add_clause(&some);
            }
        }
        for i in (0..rows * cols).filter(|&i| board.room[i] == OUTSIDE) {
            rules.rule(
                format!("{} is outside every room, so unshaded", at(i, cols)),
                vec![i],
            );
            rules.add_clause(&[!lits[i]]);
        }
        rules.rule("the shaded cells are connected", (0..rows * cols).collect());
        crate::cnf::connect::connected(&mut rules, &enc.graph, &lits);
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
        for (k, room) in rooms.iter().enumerate() {
            for (x, &s) in SHAPES.iter().enumerate() {
                facts.push(Fact {
                    lit: letters[k][x],
                    subject: format!("the tetromino of {}", name(k)),
                    is: letter(s).into(),
                    otherwise: None,
                    cells: room.clone(),
                });
            }
        }
        Named::new(rules, facts, Vec::new(), enc)
    }

    fn draw_known(board: &Board, named: &Named<Encoding>, known: &[Lit]) -> String {
        draw::<LitsRules>(board, named, known)
    }

    fn svg_step(
        board: &Board,
        named: &Named<Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String {
        svg_step::<LitsRules>(board, named, known, rules, deduced, caption)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::Explain;
    use crate::puzzle::{Puzzle, Settings};

    /// At least what `named` builds, on rooms walked and on one room too large to walk.
    #[test]
    fn the_estimate_covers_the_named_rules() {
        let one = |n: usize| format!("{n} {n}\n") + &(vec!["a"; n].join(" ") + "\n").repeat(n);
        for text in [
            "1 1 2 2\n1 1 2 2\n3 3 @ 4\n3 3 4 4\n".to_string(),
            "1 1 1 2 2\n1 3 3 2 2\n3 3 4 4 4\n5 5 5 5 4\n".to_string(),
            one(4),
            one(12),
        ] {
            let board = Lits::parse(&text, &Settings::default()).unwrap();
            let built = Lits::named(&board).rules.literals();
            let estimate = Lits::estimate_named(&board, u64::MAX).unwrap();
            assert!(built <= estimate, "{text}: {built} > {estimate}");
            assert!(
                estimate <= 4 * built + 200,
                "{text}: {estimate} for {built}"
            );
        }
    }
}
