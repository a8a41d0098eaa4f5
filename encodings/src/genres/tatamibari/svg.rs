//! The SVG picture ([`crate::genres::rects::svg`]) with Tatamibari's clues: `+`, `-` and `|` drawn as
//! strokes, `?` as text.

use super::{Board, Cell, Solution};
use crate::format::svg::{Font, Stroke, Svg};
use crate::genres::rects;

pub fn svg(board: &Board, answers: &[&Solution], caption: &str) -> String {
    rects::svg::svg(board, answers, caption, &|s, i, x, y, cell| {
        clue(board, s, i, x, y, cell)
    })
}

pub(super) fn clue(board: &Board, s: &mut Svg, i: usize, x: f64, y: f64, cell: f64) {
    let Cell::Clue(shape) = board.cells[i] else {
        return;
    };
    let (arm, width) = (cell * 0.28, (cell * 0.08).max(1.5));
    let pen = Stroke::solid("#000", width);
    s.open_group("clue");
    match shape.symbol() {
        '+' => {
            s.line(x - arm, y, x + arm, y, pen);
            s.line(x, y - arm, x, y + arm, pen);
        }
        '-' => s.line(x - arm, y, x + arm, y, pen),
        '|' => s.line(x, y - arm, x, y + arm, pen),
        other => s.text(
            x,
            y,
            &other.to_string(),
            Font {
                bold: true,
                ..Font::centred(cell * 0.6)
            },
        ),
    }
    s.close_group();
}
