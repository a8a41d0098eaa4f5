//! The size of what the encoder holds before its formula, estimated before any of it is built:
//! the candidate rectangles are counted, not listed, over the same free spans
//! `encode::candidates` walks, and counting stops once past the limit, so a board that could
//! never fit (a 1000×1000 board with one clue has hundreds of millions of candidates) is
//! refused at once. The formula itself is counted exactly once pruning and probing have
//! shrunk the candidates, and refused then if it is too large (`encode::encode_with`).

use super::encode::Spans;
use super::{Board, Cell, Shape, Tatamibari};
use crate::capability;

impl capability::Estimate for Tatamibari {
    /// About how many literals' room the candidate lists of `board` take before pruning, counted
    /// no further than just past `limit`: each candidate is listed once per cell it covers, plus
    /// its own record. (The formula, one to three literals per cell of each candidate that
    /// survives and about ten per candidate, is counted after probing: on generated boards a third
    /// to a fifth of them survive.)
    fn estimate(board: &Board, limit: u64) -> u64 {
        listed(board, limit, weight)
    }
}

/// How many literals `explain`'s named rules hold, at most ([`super::Tatamibari`]'s
/// `estimate_named`): every candidate, unpruned, in the exactly-ones of its clue and of each
/// cell it covers (up to 9 literals each), and in the corner rules of its four corners (up to
/// 2 literals each).
pub fn named(board: &Board, limit: u64) -> u64 {
    listed(board, limit, |h, w| 9 * (h * w + 1) as u64 + 8)
}

/// The candidates' `weight`s summed, no further than just past `limit`.
fn listed(board: &Board, limit: u64, weight: fn(usize, usize) -> u64) -> u64 {
    // Every cell is covered by some candidate, so the board's cells alone may say enough, and
    // then nothing the size of the board is built (9: `weight`'s 1×1, and each cell's
    // exactly-one in the named rules).
    let least =
        9u64.saturating_mul(board.cells.iter().filter(|&&c| c != Cell::Hole).count() as u64);
    if least > limit {
        return least;
    }
    let spans = Spans::new(board);
    let mut total = 0u64;
    for cr in 0..board.rows {
        for cc in 0..board.cols {
            let Cell::Clue(shape) = board.cell(cr, cc) else {
                continue;
            };
            total += clue_estimate(
                board,
                &spans,
                (cr, cc, shape),
                limit.saturating_sub(total),
                weight,
            );
            if total > limit {
                return total;
            }
        }
    }
    total
}

/// A candidate's room: see [`estimate`].
fn weight(h: usize, w: usize) -> u64 {
    (h * w + 8) as u64
}

fn clue_estimate(
    board: &Board,
    spans: &Spans,
    (cr, cc, shape): (usize, usize, Shape),
    limit: u64,
    weight: fn(usize, usize) -> u64,
) -> u64 {
    // The free span around column cc in row r, or None when (r, cc) itself is blocked.
    let span = |r: usize| (r == cr || board.cell(r, cc) == Cell::Blank).then(|| spans.at(r, cc));
    let up: Vec<(usize, usize)> = (0..=cr).rev().map_while(span).collect();
    let down: Vec<(usize, usize)> = (cr + 1..board.rows).map_while(span).collect();
    let mut total = 0u64;
    let mut above = (0, usize::MAX);
    for (i, s) in up.iter().enumerate() {
        above = (above.0.max(s.0), above.1.min(s.1));
        let top = cr - i;
        let mut lr = above;
        for bottom in cr..cr + 1 + down.len() {
            if bottom > cr {
                let s = down[bottom - cr - 1];
                lr = (lr.0.max(s.0), lr.1.min(s.1));
            }
            let h = bottom - top + 1;
            let most = lr.1 - lr.0 + 1;
            let widths = match shape {
                Shape::Square => h..h + 1,
                Shape::Wide => h + 1..most + 1,
                Shape::Tall => 1..h.min(most + 1),
                Shape::Any => 1..most + 1,
            };
            for w in widths.filter(|&w| w <= most) {
                let lefts =
                    (cc.min(lr.1 + 1 - w) + 1).saturating_sub(lr.0.max((cc + 1).saturating_sub(w)));
                total += lefts as u64 * weight(h, w);
            }
            if total > limit {
                return total;
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::super::{encode, parse};
    use super::*;
    use crate::capability::Estimate;

    #[test]
    fn counts_what_the_encoder_lists() {
        for text in [
            "+.\n..\n",
            "..-..\n.....\n|...+\n",
            "...#..\n.-....\n....|.\n..+...\n",
        ] {
            let board = parse(text).unwrap();
            let mut listed = 0u64;
            for cr in 0..board.rows {
                for cc in 0..board.cols {
                    for rect in encode::candidates(&board, &Spans::new(&board), cr, cc) {
                        listed += weight(rect.height, rect.width);
                    }
                }
            }
            assert_eq!(Tatamibari::estimate(&board, u64::MAX), listed, "{text}");
        }
    }

    /// `named`'s estimate is at least what the named rules hold, and not far above it.
    #[test]
    fn the_named_estimate_covers_the_named_rules() {
        use crate::capability::Explain;
        for text in [
            "+.\n..\n",
            "..-..\n.....\n|...+\n",
            "...#..\n.-....\n....|.\n..+...\n",
            "........\n........\n...?....\n........\n........\n",
        ] {
            let board = parse(text).unwrap();
            let built = Tatamibari::named(&board).rules.literals();
            let estimate = named(&board, u64::MAX);
            assert!(built <= estimate, "{text}: {built} > {estimate}");
            assert!(
                estimate <= 4 * built + 200,
                "{text}: {estimate} for {built}"
            );
        }
    }

    #[test]
    fn stops_soon_past_the_limit() {
        // One clue on 1000×1000: hundreds of millions of candidates, refused in a moment.
        let mut text = ".".repeat(1000) + "\n";
        text = text.repeat(1000);
        text.replace_range(500..501, "-");
        let board = parse(&text).unwrap();
        let started = std::time::Instant::now();
        assert!(Tatamibari::estimate(&board, 1 << 26) > 1 << 26);
        assert!(started.elapsed().as_secs() < 5);
    }
}
