//! Drawing a solution: the seed's label grid, box-drawing lines, or a list of rectangles.

use super::{Board, Cell, Solution};

/// The seed's labels, in order of first appearance (row-major).
pub const LABELS: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// One character per cell, one label per rectangle, spaces on holes; `None` when there are
/// more rectangles than labels.
pub fn render_labels(board: &Board, sol: &Solution) -> Option<String> {
    let labels: Vec<char> = LABELS.chars().collect();
    if sol.len() > labels.len() {
        return None;
    }
    // Sorted by top-left cell, which is each rectangle's first cell in row-major order.
    let owner = owners(board, sol);
    let mut out = String::new();
    for r in 0..board.rows {
        for c in 0..board.cols {
            out.push(owner[r * board.cols + c].map_or(' ', |k| labels[k]));
        }
        out.push('\n');
    }
    Some(out)
}

/// `row col height width` per rectangle, 0-based, one per line.
pub fn render_rects(sol: &Solution) -> String {
    sol.iter().map(|r| format!("{} {} {} {}\n", r.row, r.col, r.height, r.width)).collect()
}

/// The board with every rectangle outlined in box-drawing lines and the clues in place.
pub fn render_box(board: &Board, sol: &Solution) -> String {
    let (rows, cols) = (board.rows, board.cols);
    let owner = owners(board, sol);
    let own = |r: isize, c: isize| -> Option<usize> {
        if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
            None
        } else {
            owner[r as usize * cols + c as usize]
        }
    };
    // Edge above cell (r, c) / left of cell (r, c), for r ≤ rows, c ≤ cols.
    let h_edge = |r: isize, c: isize| (0..cols as isize).contains(&c) && own(r - 1, c) != own(r, c);
    let v_edge = |r: isize, c: isize| (0..rows as isize).contains(&r) && own(r, c - 1) != own(r, c);
    let junction = |r: isize, c: isize| {
        let (up, down, left, right) = (v_edge(r - 1, c), v_edge(r, c), h_edge(r, c - 1), h_edge(r, c));
        match (up, down, left, right) {
            (false, false, false, false) => ' ',
            (true, true, false, false) => '│',
            (false, false, true, true) => '─',
            (false, true, false, true) => '┌',
            (false, true, true, false) => '┐',
            (true, false, false, true) => '└',
            (true, false, true, false) => '┘',
            (true, true, false, true) => '├',
            (true, true, true, false) => '┤',
            (false, true, true, true) => '┬',
            (true, false, true, true) => '┴',
            (true, true, true, true) => '┼',
            (true, false, false, false) => '╵',
            (false, true, false, false) => '╷',
            (false, false, true, false) => '╴',
            (false, false, false, true) => '╶',
        }
    };
    let mut out = String::new();
    for r in 0..=rows as isize {
        let mut line = String::new();
        for c in 0..=cols as isize {
            line.push(junction(r, c));
            if c < cols as isize {
                line.push_str(if h_edge(r, c) { "───" } else { "   " });
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if r == rows as isize {
            break;
        }
        let mut line = String::new();
        for c in 0..=cols as isize {
            line.push(if v_edge(r, c) { '│' } else { ' ' });
            if c < cols as isize {
                let ch = match board.cell(r as usize, c as usize) {
                    Cell::Clue(s) => s.symbol(),
                    _ => ' ',
                };
                line.push(' ');
                line.push(ch);
                line.push(' ');
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The index of the rectangle covering each cell.
fn owners(board: &Board, sol: &Solution) -> Vec<Option<usize>> {
    let mut owner = vec![None; board.rows * board.cols];
    for (k, rect) in sol.iter().enumerate() {
        for (r, c) in rect.cells() {
            owner[r * board.cols + c] = Some(k);
        }
    }
    owner
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Rect};
    use super::*;

    #[test]
    fn labels_and_boxes() {
        let board = parse("|-.\n.+|\n.-.\n").unwrap();
        let r = |row, col, height, width| Rect { row, col, height, width };
        let sol = vec![r(0, 0, 2, 1), r(0, 1, 1, 2), r(1, 1, 1, 1), r(1, 2, 2, 1), r(2, 0, 1, 2)];
        assert_eq!(render_labels(&board, &sol).unwrap(), "122\n134\n554\n");
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
}
