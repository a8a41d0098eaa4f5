//! The independent validator: reads a label grid (one character per cell, one label per
//! rectangle, as in the corpus's `.sol` files) and checks it against the rules directly, sharing
//! no code with the encoder. Positions in messages are 1-based.

use super::{Board, Cell};
use crate::genres::rects::Unplaced;
use std::fmt;
use std::hash::Hash;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// A board cell without a label.
    Unlabelled { row: usize, col: usize },
    /// The cells of this label do not fill their bounding box.
    NotARectangle {
        label: String,
        row: usize,
        col: usize,
    },
    TwoClues {
        label: String,
        first: (usize, usize),
        second: (usize, usize),
    },
    NoClue {
        label: String,
        row: usize,
        col: usize,
    },
    WrongShape {
        label: String,
        clue: char,
        height: usize,
        width: usize,
    },
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
            Violation::Unlabelled { row, col } => {
                write!(f, "row {row} column {col}: a board cell without a label")
            }
            Violation::NotARectangle { label, row, col } => {
                write!(f, "not a rectangle: label {label} (first at row {row} column {col}) does not fill its bounding box")
            }
            Violation::TwoClues {
                label,
                first,
                second,
            } => write!(
                f,
                "two clues: rectangle {label} holds clues at row {} column {} and row {} column {}",
                first.0, first.1, second.0, second.1
            ),
            Violation::NoClue { label, row, col } => {
                write!(
                    f,
                    "no clue: rectangle {label} (top-left at row {row} column {col}) holds no clue"
                )
            }
            Violation::WrongShape {
                label,
                clue,
                height,
                width,
            } => {
                let need = match *clue {
                    '+' => "a square",
                    '-' => "wider than tall",
                    _ => "taller than wide",
                };
                write!(f, "wrong shape: rectangle {label} is {height} tall and {width} wide, but its clue {clue} needs {need}")
            }
            Violation::Overlap { row, col } => {
                write!(
                    f,
                    "row {row} column {col}: covered twice, or a rectangle leaves the board there"
                )
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

/// Checks a list of rectangles (the solver's output form) by labelling the board with them,
/// one label (its index) per rectangle, and checking the labelling: any number of rectangles.
pub fn check_rects(board: &Board, rects: &[super::Rect]) -> Result<(), Violation> {
    let labels = rect_labels(board, rects)?;
    check_labelled(board, &labels, |k| format!("#{} of the list", k + 1))
}

/// The labelling a list of rectangles makes (each labelled by its index); a rectangle that
/// covers no cell, leaves the board or overlaps another is a violation.
pub fn rect_labels(board: &Board, rects: &[super::Rect]) -> Result<Vec<Option<usize>>, Violation> {
    crate::genres::rects::rect_labels(board, rects).map_err(|u| match u {
        Unplaced::Empty(k) => Violation::Empty {
            label: format!("#{} of the list", k + 1),
        },
        Unplaced::Overlap { row, col } => Violation::Overlap { row, col },
    })
}

/// Checks a label grid (`labels[r * cols + c]`, a space for no label) of `board`.
pub fn check(board: &Board, labels: &[char]) -> Result<(), Violation> {
    let labels: Vec<Option<char>> = labels.iter().map(|&l| (l != ' ').then_some(l)).collect();
    check_labelled(board, &labels, |l| format!("{l:?}"))
}

/// Checks a labelling by numbered labels (`None`: unlabelled), e.g. the regions of a box
/// drawing or of a label grid; `name` shows a label in messages.
pub fn check_labels(
    board: &Board,
    labels: &[Option<usize>],
    name: &dyn Fn(usize) -> String,
) -> Result<(), Violation> {
    check_labelled(board, labels, name)
}

/// Checks a labelling by any kind of label (`None`: unlabelled); `name` shows a label in messages.
fn check_labelled<L: Copy + Eq + Hash>(
    board: &Board,
    labels: &[Option<L>],
    name: impl Fn(L) -> String,
) -> Result<(), Violation> {
    located(board, labels, name).map_err(|(v, _)| v)
}

/// [`check_labels`] with the cells (row-major indices) the broken rule names: the one cell,
/// the label's whole region, or the four around a point; `check --format svg` outlines them.
pub fn locate_labels(
    board: &Board,
    labels: &[Option<usize>],
) -> Result<(), (Violation, Vec<usize>)> {
    located(board, labels, |k| format!("#{k}"))
}

fn located<L: Copy + Eq + Hash>(
    board: &Board,
    labels: &[Option<L>],
    name: impl Fn(L) -> String,
) -> Result<(), (Violation, Vec<usize>)> {
    let (rows, cols) = (board.rows, board.cols);
    let groups = crate::genres::rects::groups(board, labels).map_err(|u| {
        (
            Violation::Unlabelled {
                row: u.row + 1,
                col: u.col + 1,
            },
            vec![u.row * cols + u.col],
        )
    })?;
    for g in &groups {
        let (height, width) = (g.height(), g.width());
        if !g.is_rectangle() {
            return Err((
                Violation::NotARectangle {
                    label: name(g.label),
                    row: g.first.0 + 1,
                    col: g.first.1 + 1,
                },
                g.cells.clone(),
            ));
        }
        let clues: Vec<(usize, char)> = g
            .cells
            .iter()
            .filter_map(|&i| match board.cells[i] {
                Cell::Clue(s) => Some((i, s.symbol())),
                _ => None,
            })
            .collect();
        match clues[..] {
            [] => {
                return Err((
                    Violation::NoClue {
                        label: name(g.label),
                        row: g.top + 1,
                        col: g.left + 1,
                    },
                    g.cells.clone(),
                ))
            }
            [(_, clue)] => {
                let ok = match clue {
                    '+' => height == width,
                    '-' => width > height,
                    '|' => height > width,
                    _ => true, // '?'
                };
                if !ok {
                    return Err((
                        Violation::WrongShape {
                            label: name(g.label),
                            clue,
                            height,
                            width,
                        },
                        g.cells.clone(),
                    ));
                }
            }
            [(a, _), (b, _), ..] => {
                let v = Violation::TwoClues {
                    label: name(g.label),
                    first: (a / cols + 1, a % cols + 1),
                    second: (b / cols + 1, b % cols + 1),
                };
                return Err((v, g.cells.clone()));
            }
        }
    }
    // Exact cover holds (each label is one filled rectangle), so four rectangles meet at a
    // point exactly when its 2×2 window of cells holds four different labels.
    for r in 0..rows.saturating_sub(1) {
        for c in 0..cols.saturating_sub(1) {
            let window = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
            if window
                .iter()
                .any(|&(a, b)| board.cells[a * cols + b] == Cell::Hole)
            {
                continue;
            }
            let l: Vec<Option<L>> = window.iter().map(|&(a, b)| labels[a * cols + b]).collect();
            if l[0] != l[1]
                && l[0] != l[2]
                && l[0] != l[3]
                && l[1] != l[2]
                && l[1] != l[3]
                && l[2] != l[3]
            {
                return Err((
                    Violation::FourCorners {
                        row: r + 1,
                        col: c + 1,
                    },
                    window.iter().map(|&(a, b)| a * cols + b).collect(),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;
    use crate::genres::rects::{parse_labels, parse_rects};

    fn verdict(puzzle: &str, answer: &str) -> Result<(), Violation> {
        let board = parse(puzzle).unwrap();
        check(&board, &parse_labels(&board, answer).unwrap())
    }

    #[test]
    fn the_seeds_first_answer_is_valid_and_each_break_is_named() {
        let p = "|-*\n*+|\n*-*\n";
        assert_eq!(verdict(p, "122\n134\n554\n"), Ok(()));
        assert!(
            matches!(verdict(p, "122\n132\n554\n"), Err(Violation::NotARectangle { label: ref l, .. }) if l == "'2'")
        );
        assert!(
            matches!(verdict(p, "122\n133\n554\n"), Err(Violation::TwoClues { label: ref l, .. }) if l == "'3'")
        );
        assert!(
            matches!(verdict(p, "111\n234\n554\n"), Err(Violation::TwoClues { label: ref l, .. }) if l == "'1'")
        );
        assert!(
            matches!(verdict("+.\n", "12\n"), Err(Violation::NoClue { label: ref l, row: 1, col: 2 }) if l == "'2'")
        );
        assert!(matches!(
            verdict("-.\n..\n", "11\n11\n"),
            Err(Violation::WrongShape { clue: '-', .. })
        ));
        assert!(matches!(
            verdict("|.\n..\n", "11\n11\n"),
            Err(Violation::WrongShape { clue: '|', .. })
        ));
        assert_eq!(
            verdict("++\n++\n", "12\n34\n"),
            Err(Violation::FourCorners { row: 1, col: 1 })
        );
        assert_eq!(
            verdict("++\n-.\n", "12\n33\n"),
            Ok(()),
            "three rectangles may meet"
        );
        assert_eq!(
            verdict(p, "122\n1 4\n554\n"),
            Err(Violation::Unlabelled { row: 2, col: 2 })
        );
    }

    #[test]
    fn holes_are_not_labelled_and_end_the_corner_rule() {
        // The 2×2 window at the top-left includes a hole, so no four-corner point there.
        assert_eq!(
            verdict("#+\n+.\n", " 1\n22\n"),
            Err(Violation::WrongShape {
                label: "'2'".into(),
                clue: '+',
                height: 1,
                width: 2
            })
        );
        assert_eq!(verdict("#+\n-.\n", " 1\n22\n"), Ok(()));
        assert_eq!(
            verdict("#+\n-.\n", "#1\n22\n"),
            Ok(()),
            "anything may stand on a hole"
        );
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
        assert_eq!(
            (e.line, e.col, e.message.as_str()),
            (1, 6, "a rectangle of height 0")
        );
        let e = parse_rects("0 0 1 99999999999999999999\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 7), "{e:?}");
        let board = parse("+.\n..\n").unwrap();
        let huge = Rect {
            row: 1,
            col: usize::MAX,
            height: usize::MAX,
            width: 2,
        };
        assert!(
            huge.contains(usize::MAX - 1, usize::MAX)
                && !huge.contains(0, usize::MAX)
                && !huge.contains(1, 0)
        );
        let m = usize::MAX;
        assert_eq!(
            huge.cells().take(3).collect::<Vec<_>>(),
            [(1, m), (2, m), (3, m)],
            "columns up to usize::MAX"
        );
        assert_eq!(
            check_rects(&board, &[huge]),
            Err(Violation::Overlap {
                row: 2,
                col: usize::MAX
            })
        );
    }

    #[test]
    fn rectangle_lists_are_checked_too() {
        use super::super::Rect;
        let board = parse("|-.\n.+|\n.-.\n").unwrap();
        let r = |row, col, height, width| Rect {
            row,
            col,
            height,
            width,
        };
        let good = [
            r(0, 0, 2, 1),
            r(0, 1, 1, 2),
            r(1, 1, 1, 1),
            r(1, 2, 2, 1),
            r(2, 0, 1, 2),
        ];
        assert_eq!(check_rects(&board, &good), Ok(()));
        let mut twice = good.to_vec();
        twice.push(r(1, 1, 1, 1));
        assert_eq!(
            check_rects(&board, &twice),
            Err(Violation::Overlap { row: 2, col: 2 })
        );
        assert_eq!(
            check_rects(&board, &good[..4]),
            Err(Violation::Unlabelled { row: 3, col: 1 })
        );
        assert_eq!(
            check_rects(&board, &[r(0, 0, 4, 1)]),
            Err(Violation::Overlap { row: 4, col: 1 })
        );
        // An empty rectangle beside a valid tiling is refused, not ignored.
        let with_empty = [&good[..], &[r(0, 0, 0, 0)]].concat();
        assert!(matches!(
            check_rects(&board, &with_empty),
            Err(Violation::Empty { .. })
        ));
    }

    #[test]
    fn label_grids_of_the_wrong_shape_are_parse_errors() {
        let board = parse("+.\n..\n").unwrap();
        assert_eq!(parse_labels(&board, "11\n").unwrap_err().line, 2);
        assert_eq!(parse_labels(&board, "111\n111\n").unwrap_err().col, 3);
    }
}
