//! The independent validator: reads a label grid (one character per cell, one label per
//! rectangle, as in the corpus's `.sol` files) and checks it against the rules directly, sharing
//! no code with the encoder. Positions in messages are 1-based.

use super::{Board, Cell};
use crate::error::ParseError;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// A board cell without a label.
    Unlabelled { row: usize, col: usize },
    /// The cells of this label do not fill their bounding box.
    NotARectangle { label: String, row: usize, col: usize },
    TwoClues { label: String, first: (usize, usize), second: (usize, usize) },
    NoClue { label: String, row: usize, col: usize },
    WrongShape { label: String, clue: char, height: usize, width: usize },
    /// Four rectangles meet at the point below-right of this cell.
    FourCorners { row: usize, col: usize },
    /// Two rectangles of a list cover this cell, or one reaches off the board or onto a hole.
    Overlap { row: usize, col: usize },
    /// A rectangle of a list covers no cell (height or width 0): an answer would have two
    /// forms that mean the same tiling.
    Empty { label: String },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Violation::Unlabelled { row, col } => write!(f, "row {row} column {col}: a board cell without a label"),
            Violation::NotARectangle { label, row, col } => {
                write!(f, "not a rectangle: label {label} (first at row {row} column {col}) does not fill its bounding box")
            }
            Violation::TwoClues { label, first, second } => write!(
                f,
                "two clues: rectangle {label} holds clues at row {} column {} and row {} column {}",
                first.0, first.1, second.0, second.1
            ),
            Violation::NoClue { label, row, col } => {
                write!(f, "no clue: rectangle {label} (top-left at row {row} column {col}) holds no clue")
            }
            Violation::WrongShape { label, clue, height, width } => {
                let need = match *clue {
                    '+' => "a square",
                    '-' => "wider than tall",
                    _ => "taller than wide",
                };
                write!(f, "wrong shape: rectangle {label} is {height} tall and {width} wide, but its clue {clue} needs {need}")
            }
            Violation::Overlap { row, col } => {
                write!(f, "row {row} column {col}: covered twice, or a rectangle leaves the board there")
            }
            Violation::Empty { label } => write!(f, "rectangle {label} covers no cell"),
            Violation::FourCorners { row, col } => write!(
                f,
                "four corners at row {row}/{} column {col}/{}: four rectangles meet at one point",
                row + 1,
                col + 1
            ),
        }
    }
}

/// Reads a label grid of the board's shape. Any character but space labels a board cell;
/// hole cells may hold anything (a space, `#`); short lines are padded with spaces.
pub fn parse_labels(board: &Board, text: &str) -> Result<Vec<char>, ParseError> {
    let mut lines: Vec<Vec<char>> = text.lines().map(|l| l.trim_end_matches('\r').chars().collect()).collect();
    // Past the board's rows only (a row of labels, or of holes, is never taken for either):
    // blank lines at the end, and one verdict line, `solve`'s under the grid.
    let blank = |l: &[char]| l.iter().all(|&c| c == ' ');
    while lines.len() > board.rows && lines.last().is_some_and(|l| blank(l)) {
        lines.pop();
    }
    if lines.len() > board.rows && crate::puzzle::is_verdict(&lines[lines.len() - 1].iter().collect::<String>()) {
        lines.pop();
        while lines.len() > board.rows && lines.last().is_some_and(|l| blank(l)) {
            lines.pop();
        }
    }
    if lines.len() != board.rows {
        let line = lines.len().min(board.rows) + 1;
        return Err(ParseError::new(line, 1, format!("the answer has {} rows, the board {}", lines.len(), board.rows)));
    }
    let mut labels = Vec::with_capacity(board.rows * board.cols);
    for (i, l) in lines.iter().enumerate() {
        if l.len() > board.cols {
            return Err(ParseError::new(i + 1, board.cols + 1, format!("this row has {} cells, the board {}", l.len(), board.cols)));
        }
        for c in 0..board.cols {
            labels.push(l.get(c).copied().unwrap_or(' '));
        }
    }
    Ok(labels)
}

/// Checks a list of rectangles (the solver's output form) by labelling the board with them,
/// one label (its index) per rectangle, and checking the labelling: any number of rectangles.
pub fn check_rects(board: &Board, rects: &[super::Rect]) -> Result<(), Violation> {
    let labels = rect_labels(board, rects)?;
    check_labelled(board, &labels, |k| format!("#{} of the list", k + 1))
}

/// The labelling a list of rectangles makes (each labelled by its index); a rectangle that
/// covers no cell, leaves the board or overlaps another is a violation.
pub fn rect_labels(board: &Board, rects: &[super::Rect]) -> Result<Vec<Option<usize>>, Violation> {
    let mut labels: Vec<Option<usize>> = vec![None; board.rows * board.cols];
    for (k, rect) in rects.iter().enumerate() {
        if rect.height == 0 || rect.width == 0 {
            return Err(Violation::Empty { label: format!("#{} of the list", k + 1) });
        }
        for (r, c) in rect.cells() {
            let off = r >= board.rows || c >= board.cols || board.cells[r * board.cols + c] == Cell::Hole;
            if off || labels[r * board.cols + c].is_some() {
                return Err(Violation::Overlap { row: r.saturating_add(1), col: c.saturating_add(1) });
            }
            labels[r * board.cols + c] = Some(k);
        }
    }
    Ok(labels)
}

/// Checks a label grid (`labels[r * cols + c]`, a space for no label) of `board`.
pub fn check(board: &Board, labels: &[char]) -> Result<(), Violation> {
    let labels: Vec<Option<char>> = labels.iter().map(|&l| (l != ' ').then_some(l)).collect();
    check_labelled(board, &labels, |l| format!("{l:?}"))
}

/// Checks a labelling by numbered labels (`None`: unlabelled), e.g. the regions of a box
/// drawing or of a label grid; `name` shows a label in messages.
pub fn check_labels(board: &Board, labels: &[Option<usize>], name: &dyn Fn(usize) -> String) -> Result<(), Violation> {
    check_labelled(board, labels, name)
}

/// Reads `solve --format box` back: the regions the lines enclose, numbered (holes have
/// none). A cell's row is line 2r+1 and its three characters start at column 4c+1; a wall
/// left of it is at column 4c, above it on line 2r.
pub fn parse_box(board: &Board, text: &str) -> Result<Vec<Option<usize>>, ParseError> {
    let all: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let heading = all.iter().take_while(|l| !l.iter().any(|c| "┌├└│─".contains(*c))).count();
    // Rows of holes above the board are drawn as blank lines, skipped with any heading: the
    // first line with a wall is the top of the first row with a board cell.
    let top = (0..board.rows).find(|&r| (0..board.cols).any(|c| board.on_board(r, c))).unwrap_or(board.rows);
    let drawn = all.len() - heading;
    let needed = 2 * (board.rows - top) + 1;
    if drawn < needed {
        let msg = format!("the drawing has {drawn} lines from its first wall, a board of {} rows needs {needed}", board.rows);
        return Err(ParseError::new(all.len().max(1), 1, msg));
    }
    let lines: Vec<Vec<char>> = std::iter::repeat_n(Vec::new(), 2 * top).chain(all.into_iter().skip(heading)).collect();
    let at = |line: usize, col: usize| lines[line].get(col).copied().unwrap_or(' ');
    let wall_left = |r: usize, c: usize| at(2 * r + 1, 4 * c) != ' ';
    let wall_above = |r: usize, c: usize| at(2 * r, 4 * c + 2) != ' ';
    let cols = board.cols;
    // Neighbours join unless a wall stands between them (j is right of or below i).
    let joined = |i: usize, j: usize| {
        let (r, c) = (j / cols, j % cols);
        if j == i + 1 {
            !wall_left(r, c)
        } else {
            !wall_above(r, c)
        }
    };
    Ok(regions(board, |i| board.cells[i] == Cell::Hole, joined))
}

/// Reads `solve --format rects` back (`row col height width` a line, 0-based); `None` when
/// the text is not in that form.
pub fn parse_rects(text: &str) -> Result<Option<Vec<super::Rect>>, ParseError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    let four = |l: &str| l.split_whitespace().count() == 4 && l.split_whitespace().all(|t| t.bytes().all(|b| b.is_ascii_digit()));
    if lines.is_empty() || !lines.iter().all(|(_, l)| four(l)) {
        return Ok(None);
    }
    let mut rects = Vec::new();
    for (i, l) in lines {
        // Each number with the column it starts at.
        let mut v = Vec::with_capacity(4);
        let mut end = 0;
        for t in l.split_whitespace() {
            let start = end + l[end..].find(t).unwrap_or(0);
            end = start + t.len();
            let column = l[..start].chars().count() + 1;
            let n: usize = t.parse().map_err(|_| ParseError::new(i + 1, column, format!("{t:?} is too large")))?;
            v.push((n, column));
        }
        let [(row, _), (col, _), (height, hc), (width, wc)] = v[..] else { unreachable!("four numbers, checked above") };
        for (size, column, what) in [(height, hc, "height"), (width, wc, "width")] {
            if size == 0 {
                return Err(ParseError::new(i + 1, column, format!("a rectangle of {what} 0")));
            }
        }
        if row.checked_add(height).is_none() || col.checked_add(width).is_none() {
            return Err(ParseError::new(i + 1, 1, format!("the rectangle {} reaches past any board", l.trim())));
        }
        rects.push(super::Rect { row, col, height, width });
    }
    rects.sort();
    Ok(Some(rects))
}

/// Checks a labelling by any kind of label (`None`: unlabelled); `name` shows a label in messages.
fn check_labelled<L: Copy + Eq + Hash>(board: &Board, labels: &[Option<L>], name: impl Fn(L) -> String) -> Result<(), Violation> {
    located(board, labels, name).map_err(|(v, _)| v)
}

/// [`check_labels`] with the cells (row-major indices) the broken rule names: the one cell,
/// the label's whole region, or the four around a point; `check --format svg` outlines them.
pub fn locate_labels(board: &Board, labels: &[Option<usize>]) -> Result<(), (Violation, Vec<usize>)> {
    located(board, labels, |k| format!("#{k}"))
}

fn located<L: Copy + Eq + Hash>(board: &Board, labels: &[Option<L>], name: impl Fn(L) -> String) -> Result<(), (Violation, Vec<usize>)> {
    let region = |label: L| (0..labels.len()).filter(|&i| labels[i] == Some(label) && board.cells[i] != Cell::Hole).collect::<Vec<_>>();
    let (rows, cols) = (board.rows, board.cols);
    assert_eq!(labels.len(), rows * cols, "a label per cell of the board");
    // Bounding box and cell count of every label, in row-major order of first appearance.
    struct Group {
        top: usize,
        left: usize,
        bottom: usize,
        right: usize,
        count: usize,
        first: (usize, usize),
        clues: Vec<(usize, usize, char)>,
    }
    let mut order = Vec::new();
    let mut groups: HashMap<L, Group> = HashMap::new();
    for r in 0..rows {
        for c in 0..cols {
            let cell = board.cells[r * cols + c];
            if cell == Cell::Hole {
                continue;
            }
            let Some(label) = labels[r * cols + c] else {
                return Err((Violation::Unlabelled { row: r + 1, col: c + 1 }, vec![r * cols + c]));
            };
            let g = groups.entry(label).or_insert_with(|| {
                order.push(label);
                Group { top: r, left: c, bottom: r, right: c, count: 0, first: (r, c), clues: Vec::new() }
            });
            g.top = g.top.min(r);
            g.left = g.left.min(c);
            g.bottom = g.bottom.max(r);
            g.right = g.right.max(c);
            g.count += 1;
            if let Cell::Clue(s) = cell {
                g.clues.push((r, c, s.symbol()));
            }
        }
    }
    for label in &order {
        let g = &groups[label];
        let (height, width) = (g.bottom - g.top + 1, g.right - g.left + 1);
        if g.count != height * width {
            return Err((Violation::NotARectangle { label: name(*label), row: g.first.0 + 1, col: g.first.1 + 1 }, region(*label)));
        }
        match g.clues[..] {
            [] => return Err((Violation::NoClue { label: name(*label), row: g.top + 1, col: g.left + 1 }, region(*label))),
            [(_, _, clue)] => {
                let ok = match clue {
                    '+' => height == width,
                    '-' => width > height,
                    '|' => height > width,
                    _ => true, // '?'
                };
                if !ok {
                    return Err((Violation::WrongShape { label: name(*label), clue, height, width }, region(*label)));
                }
            }
            [(r1, c1, _), (r2, c2, _), ..] => {
                let v = Violation::TwoClues { label: name(*label), first: (r1 + 1, c1 + 1), second: (r2 + 1, c2 + 1) };
                return Err((v, region(*label)));
            }
        }
    }
    // Exact cover holds (each label is one filled rectangle), so four rectangles meet at a
    // point exactly when its 2×2 window of cells holds four different labels.
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let window = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
            if window.iter().any(|&(a, b)| board.cells[a * cols + b] == Cell::Hole) {
                continue;
            }
            let l: Vec<Option<L>> = window.iter().map(|&(a, b)| labels[a * cols + b]).collect();
            if l[0] != l[1] && l[0] != l[2] && l[0] != l[3] && l[1] != l[2] && l[1] != l[3] && l[2] != l[3] {
                return Err((Violation::FourCorners { row: r + 1, col: c + 1 }, window.iter().map(|&(a, b)| a * cols + b).collect()));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn verdict(puzzle: &str, answer: &str) -> Result<(), Violation> {
        let board = parse(puzzle).unwrap();
        check(&board, &parse_labels(&board, answer).unwrap())
    }

    #[test]
    fn the_seeds_first_answer_is_valid_and_each_break_is_named() {
        let p = "|-*\n*+|\n*-*\n";
        assert_eq!(verdict(p, "122\n134\n554\n"), Ok(()));
        assert!(matches!(verdict(p, "122\n132\n554\n"), Err(Violation::NotARectangle { label: ref l, .. }) if l == "'2'"));
        assert!(matches!(verdict(p, "122\n133\n554\n"), Err(Violation::TwoClues { label: ref l, .. }) if l == "'3'"));
        assert!(matches!(verdict(p, "111\n234\n554\n"), Err(Violation::TwoClues { label: ref l, .. }) if l == "'1'"));
        assert!(matches!(verdict("+.\n", "12\n"), Err(Violation::NoClue { label: ref l, row: 1, col: 2 }) if l == "'2'"));
        assert!(matches!(verdict("-.\n..\n", "11\n11\n"), Err(Violation::WrongShape { clue: '-', .. })));
        assert!(matches!(verdict("|.\n..\n", "11\n11\n"), Err(Violation::WrongShape { clue: '|', .. })));
        assert_eq!(verdict("++\n++\n", "12\n34\n"), Err(Violation::FourCorners { row: 1, col: 1 }));
        assert_eq!(verdict("++\n-.\n", "12\n33\n"), Ok(()), "three rectangles may meet");
        assert_eq!(verdict(p, "122\n1 4\n554\n"), Err(Violation::Unlabelled { row: 2, col: 2 }));
    }

    #[test]
    fn holes_are_not_labelled_and_end_the_corner_rule() {
        // The 2×2 window at the top-left includes a hole, so no four-corner point there.
        assert_eq!(verdict("#+\n+.\n", " 1\n22\n"), Err(Violation::WrongShape { label: "'2'".into(), clue: '+', height: 1, width: 2 }));
        assert_eq!(verdict("#+\n-.\n", " 1\n22\n"), Ok(()));
        assert_eq!(verdict("#+\n-.\n", "#1\n22\n"), Ok(()), "anything may stand on a hole");
    }

    /// Numbers near usize::MAX are read without overflow: refused where they leave every
    /// board, and a rectangle built from them by hand is no panic either.
    #[test]
    fn huge_rectangles_are_refused_not_wrapped() {
        use super::super::Rect;
        let e = parse_rects("0 0 1 1\n1 0 18446744073709551615 1\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 1), "{e:?}");
        assert!(e.message.contains("reaches past any board"), "{e:?}");
        let e = parse_rects("0  0 0 1\n").unwrap_err();
        assert_eq!((e.line, e.col, e.message.as_str()), (1, 6, "a rectangle of height 0"));
        let e = parse_rects("0 0 1 99999999999999999999\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 7), "{e:?}");
        let board = parse("+.\n..\n").unwrap();
        let huge = Rect { row: 1, col: usize::MAX, height: usize::MAX, width: 2 };
        assert!(huge.contains(usize::MAX - 1, usize::MAX) && !huge.contains(0, usize::MAX) && !huge.contains(1, 0));
        let m = usize::MAX;
        assert_eq!(huge.cells().take(3).collect::<Vec<_>>(), [(1, m), (2, m), (3, m)], "columns up to usize::MAX");
        assert_eq!(check_rects(&board, &[huge]), Err(Violation::Overlap { row: 2, col: usize::MAX }));
    }

    #[test]
    fn rectangle_lists_are_checked_too() {
        use super::super::Rect;
        let board = parse("|-.\n.+|\n.-.\n").unwrap();
        let r = |row, col, height, width| Rect { row, col, height, width };
        let good = [r(0, 0, 2, 1), r(0, 1, 1, 2), r(1, 1, 1, 1), r(1, 2, 2, 1), r(2, 0, 1, 2)];
        assert_eq!(check_rects(&board, &good), Ok(()));
        let mut twice = good.to_vec();
        twice.push(r(1, 1, 1, 1));
        assert_eq!(check_rects(&board, &twice), Err(Violation::Overlap { row: 2, col: 2 }));
        assert_eq!(check_rects(&board, &good[..4]), Err(Violation::Unlabelled { row: 3, col: 1 }));
        assert_eq!(check_rects(&board, &[r(0, 0, 4, 1)]), Err(Violation::Overlap { row: 4, col: 1 }));
        // An empty rectangle beside a valid tiling is refused, not ignored.
        let with_empty = [&good[..], &[r(0, 0, 0, 0)]].concat();
        assert!(matches!(check_rects(&board, &with_empty), Err(Violation::Empty { .. })));
    }

    #[test]
    fn label_grids_of_the_wrong_shape_are_parse_errors() {
        let board = parse("+.\n..\n").unwrap();
        assert_eq!(parse_labels(&board, "11\n").unwrap_err().line, 2);
        assert_eq!(parse_labels(&board, "111\n111\n").unwrap_err().col, 3);
    }
}

/// Numbers the connected regions of the board's cells: neighbours `i` and `j` (`j` right of or
/// below `i`) share a region when `joined(i, j)`; `skipped` cells have none.
pub fn regions(board: &Board, skipped: impl Fn(usize) -> bool, joined: impl Fn(usize, usize) -> bool) -> Vec<Option<usize>> {
    let (rows, cols) = (board.rows, board.cols);
    let mut region: Vec<Option<usize>> = vec![None; rows * cols];
    let mut next = 0;
    for start in 0..rows * cols {
        if region[start].is_some() || skipped(start) {
            continue;
        }
        region[start] = Some(next);
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            let (r, c) = (i / cols, i % cols);
            let mut near = Vec::with_capacity(4);
            if c > 0 && joined(i - 1, i) {
                near.push(i - 1);
            }
            if c + 1 < cols && joined(i, i + 1) {
                near.push(i + 1);
            }
            if r > 0 && joined(i - cols, i) {
                near.push(i - cols);
            }
            if r + 1 < rows && joined(i, i + cols) {
                near.push(i + cols);
            }
            for j in near {
                if region[j].is_none() && !skipped(j) {
                    region[j] = Some(next);
                    stack.push(j);
                }
            }
        }
        next += 1;
    }
    region
}
