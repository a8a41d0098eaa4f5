//! Masyu's pearls as named rules for `explain` (the loop's own rules are
//! [`crate::genres::loops::named`]'s): a rule per pearl, in the words a player uses, whose
//! clauses are [`super::pearl_clauses`] and, for a white pearl, that the loop does not take
//! both lines through it (with its degree rule the same; stated so that the rule alone says
//! "goes straight through it", no more, no less).

use super::{pearl_clauses, Board, Pearl, LINES};
use crate::cnf::ClauseSink;
use crate::explain::Rules;
use crate::genres::loops::Encoding;
use crate::genres::shade::named::at;

/// A rule per pearl, in reading order: "the white pearl at (r,c): the loop goes straight
/// through it, and the two edges one step beyond it on that line are not both on the loop";
/// "the black pearl at (r,c): the loop turns on it, and each of its two lines continues
/// straight for one more edge" (edges, not "through the next cell": that the next cell has no
/// third line is its own node rule, named where a step needs it). Its cells: the
/// pearl's and those one and two steps from it in a straight line, which its edges reach.
pub fn pearl_rules(board: &Board, rules: &mut Rules, enc: &Encoding) {
    for (v, pearl) in board.pearls.iter().enumerate() {
        let Some(pearl) = *pearl else { continue };
        let mut cells = vec![v];
        for d in LINES.iter().flatten() {
            let next = enc.net.step(v, *d);
            cells.extend(next);
            cells.extend(next.and_then(|u| enc.net.step(u, *d)));
        }
        cells.sort_unstable();
        let here = at(v, board.cols);
        rules.rule(
            match pearl {
                Pearl::White => format!(
                    "the white pearl at {here}: the loop goes straight through it, and the two \
                     edges one step beyond it on that line are not both on the loop"
                ),
                Pearl::Black => format!(
                    "the black pearl at {here}: the loop turns on it, and each of its two lines \
                     continues straight for one more edge"
                ),
            },
            cells,
        );
        pearl_clauses(rules, enc, v, pearl);
        if pearl == Pearl::White {
            // One line through it, not both: an edge of each line stands for its line, the
            // two edges of a line being equal.
            let one: Vec<_> = LINES
                .iter()
                .filter_map(|[a, _]| enc.toward(v, *a))
                .collect();
            if let [across, down] = one[..] {
                rules.add_clause(&[!across, !down]);
            }
        }
    }
}
