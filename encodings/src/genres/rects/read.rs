//! Reading a partition back in any of `solve`'s forms, and the validator's pass over a
//! labelling: each label one filled rectangle, every board cell labelled.

use super::{Area, Rect, Solution};
use crate::format::error::ParseError;
use std::collections::HashMap;
use std::hash::Hash;

/// How an answer's text divides the board: the regions of a label grid (with its labels, to
/// name them) or of a box drawing, or a `rects` list.
pub enum Regions {
    Labels(Vec<Option<usize>>, Option<Vec<char>>),
    Rects(Solution),
}

/// Any of `solve`'s forms, read as `check` reads them.
pub fn read_regions<A: Area + ?Sized>(area: &A, text: &str) -> Result<Regions, ParseError> {
    // A byte-order mark is no part of the answer, as it is none of the puzzle.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // No rectangles at all (how `rects` writes the tiling of a board of holes).
    if text.trim().is_empty() {
        return Ok(Regions::Rects(Vec::new()));
    }
    if text.contains(['│', '─']) {
        return Ok(Regions::Labels(parse_box(area, text)?, None));
    }
    if let Some(rects) = parse_rects(text)? {
        return Ok(Regions::Rects(rects));
    }
    // A label may be reused by rectangles that do not touch: each region is one. Anything
    // may stand on a hole, and joins nothing.
    let chars = parse_labels(area, text)?;
    let labels = regions(
        area,
        |i| chars[i] == ' ' || !area.on(i),
        |i, j| chars[i] == chars[j],
    );
    Ok(Regions::Labels(labels, Some(chars)))
}

/// The regions of a labelling that fill their bounding box, as rectangles (holes belong to none).
pub fn rectangles<A: Area + ?Sized>(area: &A, labels: &[Option<usize>]) -> Solution {
    // Per label: bounding box and cell count.
    let mut boxes: std::collections::HashMap<usize, (usize, usize, usize, usize, usize)> =
        std::collections::HashMap::new();
    for (i, l) in labels.iter().enumerate() {
        let Some(l) = *l else { continue };
        if !area.on(i) {
            continue;
        }
        let (r, c) = (i / area.cols(), i % area.cols());
        let b = boxes.entry(l).or_insert((r, c, r, c, 0));
        *b = (b.0.min(r), b.1.min(c), b.2.max(r), b.3.max(c), b.4 + 1);
    }
    let mut sol: Solution = boxes
        .into_values()
        .filter(|&(top, left, bottom, right, count)| {
            count == (bottom - top + 1) * (right - left + 1)
        })
        .map(|(top, left, bottom, right, _)| Rect {
            row: top,
            col: left,
            height: bottom - top + 1,
            width: right - left + 1,
        })
        .collect();
    sol.sort();
    sol
}

/// Reads a label grid of the board's shape. Any character but space labels a board cell;
/// hole cells may hold anything (a space, `#`); short lines are padded with spaces.
pub fn parse_labels<A: Area + ?Sized>(area: &A, text: &str) -> Result<Vec<char>, ParseError> {
    // Walked over, not collected: an answer of millions of short lines must not cost an
    // allocation per line (a 64 MiB file of them took 1.8 GB).
    let lines = || text.lines().map(|l| l.trim_end_matches('\r'));
    let mut len = lines().count();
    // Past the board's rows only (a row of labels, or of holes, is never taken for either):
    // blank lines at the end, and one verdict line, `solve`'s under the grid.
    let blank = |l: &&str| l.chars().all(|c| c == ' ');
    let mut last = lines().rev().peekable();
    while len > area.rows() && last.next_if(blank).is_some() {
        len -= 1;
    }
    if len > area.rows() && last.next_if(|l| crate::puzzle::is_verdict(l)).is_some() {
        len -= 1;
        while len > area.rows() && last.next_if(blank).is_some() {
            len -= 1;
        }
    }
    if len != area.rows() {
        let line = len.min(area.rows()) + 1;
        return Err(ParseError::new(
            line,
            1,
            format!("the answer has {} rows, the board {}", len, area.rows()),
        ));
    }
    let mut labels = Vec::with_capacity(area.rows() * area.cols());
    for (i, l) in lines().take(len).enumerate() {
        let n = l.chars().count();
        if n > area.cols() {
            return Err(ParseError::new(
                i + 1,
                area.cols() + 1,
                format!("this row has {} cells, the board {}", n, area.cols()),
            ));
        }
        labels.extend(l.chars());
        labels.extend(std::iter::repeat_n(' ', area.cols() - n));
    }
    Ok(labels)
}

/// Reads `solve --format box` back: the regions the lines enclose, numbered (holes have
/// none). A cell's row is line 2r+1 and its three characters start at column 4c+1; a wall
/// left of it is at column 4c, above it on line 2r.
pub fn parse_box<A: Area + ?Sized>(area: &A, text: &str) -> Result<Vec<Option<usize>>, ParseError> {
    let all: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let heading = all
        .iter()
        .take_while(|l| !l.iter().any(|c| "┌├└│─".contains(*c)))
        .count();
    // Rows of holes above the board are drawn as blank lines, skipped with any heading: the
    // first line with a wall is the top of the first row with a board cell.
    let top = (0..area.rows())
        .find(|&r| (0..area.cols()).any(|c| area.on(r * area.cols() + c)))
        .unwrap_or(area.rows());
    let drawn = all.len() - heading;
    let needed = 2 * (area.rows() - top) + 1;
    if drawn < needed {
        let msg = format!(
            "the drawing has {drawn} lines from its first wall, a board of {} rows needs {needed}",
            area.rows()
        );
        return Err(ParseError::new(all.len().max(1), 1, msg));
    }
    let lines: Vec<Vec<char>> = std::iter::repeat_n(Vec::new(), 2 * top)
        .chain(all.into_iter().skip(heading))
        .collect();
    let at = |line: usize, col: usize| lines[line].get(col).copied().unwrap_or(' ');
    let wall_left = |r: usize, c: usize| at(2 * r + 1, 4 * c) != ' ';
    let wall_above = |r: usize, c: usize| at(2 * r, 4 * c + 2) != ' ';
    let cols = area.cols();
    // Neighbours join unless a wall stands between them (j is right of or below i).
    let joined = |i: usize, j: usize| {
        let (r, c) = (j / cols, j % cols);
        // Right of i, unless the board is one column wide, where i + 1 is below.
        if j == i + 1 && cols > 1 {
            !wall_left(r, c)
        } else {
            !wall_above(r, c)
        }
    };
    Ok(regions(area, |i| !area.on(i), joined))
}

/// Reads `solve --format rects` back (`row col height width` a line, 0-based); `None` when
/// the text is not in that form.
pub fn parse_rects(text: &str) -> Result<Option<Vec<Rect>>, ParseError> {
    // Walked over, not collected: a label grid of millions of lines is told from a list
    // without a copy of its lines.
    let lines = || {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
    };
    let four = |l: &str| {
        l.split_whitespace().count() == 4
            && l.split_whitespace()
                .all(|t| t.bytes().all(|b| b.is_ascii_digit()))
    };
    if lines().next().is_none() || !lines().all(|(_, l)| four(l)) {
        return Ok(None);
    }
    let mut rects = Vec::new();
    for (i, l) in lines() {
        // Each number with the column it starts at.
        let mut v = Vec::with_capacity(4);
        let mut end = 0;
        for t in l.split_whitespace() {
            let start = end + l[end..].find(t).unwrap_or(0);
            end = start + t.len();
            let column = l[..start].chars().count() + 1;
            let n: usize = t
                .parse()
                .map_err(|_| ParseError::new(i + 1, column, format!("{t:?} is too large")))?;
            v.push((n, column));
        }
        let [(row, _), (col, _), (height, hc), (width, wc)] = v[..] else {
            unreachable!("four numbers, checked above")
        };
        for (size, column, what) in [(height, hc, "height"), (width, wc, "width")] {
            if size == 0 {
                return Err(ParseError::new(
                    i + 1,
                    column,
                    format!("a rectangle of {what} 0"),
                ));
            }
        }
        if row.checked_add(height).is_none() || col.checked_add(width).is_none() {
            return Err(ParseError::new(
                i + 1,
                1,
                format!("the rectangle {} reaches past any board", l.trim()),
            ));
        }
        rects.push(Rect {
            row,
            col,
            height,
            width,
        });
    }
    rects.sort();
    Ok(Some(rects))
}

/// Numbers the connected regions of the board's cells: neighbours `i` and `j` (`j` right of or
/// below `i`) share a region when `joined(i, j)`; `skipped` cells have none.
pub fn regions<A: Area + ?Sized>(
    area: &A,
    skipped: impl Fn(usize) -> bool,
    joined: impl Fn(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let (rows, cols) = (area.rows(), area.cols());
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

/// A list's rectangle that cannot be placed: it covers no cell (the `k`th of the list, from 0),
/// or leaves the board or covers a cell twice (1-based row and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unplaced {
    Empty(usize),
    Overlap { row: usize, col: usize },
}

/// The labelling a list of rectangles makes (each labelled by its index).
pub fn rect_labels<A: Area + ?Sized>(
    area: &A,
    rects: &[Rect],
) -> Result<Vec<Option<usize>>, Unplaced> {
    let (rows, cols) = (area.rows(), area.cols());
    let mut labels: Vec<Option<usize>> = vec![None; rows * cols];
    for (k, rect) in rects.iter().enumerate() {
        if rect.height == 0 || rect.width == 0 {
            return Err(Unplaced::Empty(k));
        }
        for (r, c) in rect.cells() {
            let off = r >= rows || c >= cols || !area.on(r * cols + c);
            if off || labels[r * cols + c].is_some() {
                return Err(Unplaced::Overlap {
                    row: r.saturating_add(1),
                    col: c.saturating_add(1),
                });
            }
            labels[r * cols + c] = Some(k);
        }
    }
    Ok(labels)
}

/// One label of a labelling: its bounding box, its cell count and first cell (row-major), and
/// the cells it holds, as the validator sees them.
pub struct Group<L> {
    pub label: L,
    pub top: usize,
    pub left: usize,
    pub bottom: usize,
    pub right: usize,
    pub count: usize,
    pub first: (usize, usize),
    /// Its cells (row-major indices), in order.
    pub cells: Vec<usize>,
}

impl<L> Group<L> {
    pub fn height(&self) -> usize {
        self.bottom - self.top + 1
    }

    pub fn width(&self) -> usize {
        self.right - self.left + 1
    }

    /// Whether its cells fill its bounding box.
    pub fn is_rectangle(&self) -> bool {
        self.count == self.height() * self.width()
    }
}

/// A board cell without a label (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unlabelled {
    pub row: usize,
    pub col: usize,
}

/// The labels of a labelling (`labels[r * cols + c]`, `None`: unlabelled) in row-major order
/// of first appearance, off-board cells left out; the first unlabelled board cell if any.
pub fn groups<A: Area + ?Sized, L: Copy + Eq + Hash>(
    area: &A,
    labels: &[Option<L>],
) -> Result<Vec<Group<L>>, Unlabelled> {
    let (rows, cols) = (area.rows(), area.cols());
    assert_eq!(labels.len(), rows * cols, "a label per cell of the board");
    let mut order: Vec<Group<L>> = Vec::new();
    let mut index: HashMap<L, usize> = HashMap::new();
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            if !area.on(i) {
                continue;
            }
            let Some(label) = labels[i] else {
                return Err(Unlabelled { row: r, col: c });
            };
            let k = *index.entry(label).or_insert_with(|| {
                order.push(Group {
                    label,
                    top: r,
                    left: c,
                    bottom: r,
                    right: c,
                    count: 0,
                    first: (r, c),
                    cells: Vec::new(),
                });
                order.len() - 1
            });
            let g = &mut order[k];
            g.top = g.top.min(r);
            g.left = g.left.min(c);
            g.bottom = g.bottom.max(r);
            g.right = g.right.max(c);
            g.count += 1;
            g.cells.push(i);
        }
    }
    Ok(order)
}
