//! Drawing a solution ([`crate::genres::rects`]'s forms): the label grid, box-drawing lines with the
//! clues in place, or a list of rectangles.

use super::{Board, Cell, Solution};
pub use crate::genres::rects::{render_labels, render_rects, LABELS};

/// The board with every rectangle outlined in box-drawing lines and the clues in place.
pub fn render_box(board: &Board, sol: &Solution) -> String {
    crate::genres::rects::render_box(board, sol, |i| match board.cells[i] {
        Cell::Clue(s) => s.symbol().to_string(),
        _ => String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Rect};
    use super::*;

    #[test]
    fn labels_and_boxes() {
        let board = parse("|-.\n.+|\n.-.\n").unwrap();
        let r = |row, col, height, width| Rect {
            row,
            col,
            height,
            width,
        };
        let sol = vec![
            r(0, 0, 2, 1),
            r(0, 1, 1, 2),
            r(1, 1, 1, 1),
            r(1, 2, 2, 1),
            r(2, 0, 1, 2),
        ];
        assert_eq!(render_labels(&board, &sol), "122\n134\n554\n");
        assert_eq!(render_rects(&sol[..2].to_vec()), "0 0 2 1\n0 1 1 2\n");
        let drawn = render_box(&board, &sol);
        let expected = "\
┌───┬───────┐
│ | │ -     │
│   ├───┬───┤
│   │ + │ | │
├───┴───┤   │
│     - │   │
└───────┴───┘
";
        assert_eq!(drawn, expected);
    }

    #[test]
    fn beyond_61_rectangles_labels_are_reused_but_never_by_neighbours() {
        use super::super::generate::{Generated, Rng};
        use super::super::Puzzle as _;
        for seed in 0..20 {
            let g = Generated::new(30, 40, &mut Rng::new(seed));
            let (board, sol) = (g.board(), g.solution());
            assert!(sol.len() > 61);
            let text = render_labels(&board, &sol);
            let used: std::collections::HashSet<char> =
                text.chars().filter(|c| !c.is_whitespace()).collect();
            assert!(used.len() <= 6, "seed {seed}: {} labels", used.len());
            // Read back as regions of equal labels, the same rectangles.
            let read = super::super::Tatamibari::read_answer(&board, &text)
                .unwrap()
                .unwrap();
            assert_eq!(read.answer, sol, "seed {seed}");
        }
    }
}
