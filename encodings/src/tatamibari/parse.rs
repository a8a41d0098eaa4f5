//! Reading a board: one row per line, `+ - |` clues (`?` a clue of any shape), `.` or `*` blanks, `#` holes. A space
//! inside a row is a hole too (the NP-hardness paper's files); in such files short rows are
//! padded with holes, elsewhere every row must have the same length.

use super::{Board, Cell, Shape};
use crate::error::ParseError;

pub fn parse(text: &str) -> Result<Board, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<Vec<char>> = text.lines().map(|l| l.trim_end_matches('\r').chars().collect()).collect();
    while lines.last().is_some_and(|l| l.iter().all(|&c| c == ' ')) {
        lines.pop();
    }
    if lines.is_empty() {
        let what = if text.trim().is_empty() && !text.is_empty() { "only blank lines" } else { "empty input" };
        return Err(ParseError::new(1, 1, format!("{what}: expected a board, one row per line")));
    }
    let mut cells = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        for (j, &ch) in line.iter().enumerate() {
            cells.push(match ch {
                '+' => Cell::Clue(Shape::Square),
                '-' => Cell::Clue(Shape::Wide),
                '|' => Cell::Clue(Shape::Tall),
                '?' => Cell::Clue(Shape::Any),
                '.' | '*' => Cell::Blank,
                '#' | ' ' => Cell::Hole,
                _ => {
                    return Err(ParseError::new(
                        i + 1,
                        j + 1,
                        format!("unexpected character {ch:?}: expected + - | ? for clues, . or * for blanks, # or space for holes"),
                    ))
                }
            });
        }
    }
    let cols = lines.iter().map(Vec::len).max().unwrap();
    let paper_style = lines.iter().any(|l| l.contains(&' '));
    if !paper_style {
        if let Some((i, l)) = lines.iter().enumerate().find(|(_, l)| l.len() != cols) {
            let msg = format!("this row has {} cells, the longest has {cols} (pad with # for holes)", l.len());
            return Err(ParseError::new(i + 1, l.len() + 1, msg));
        }
    }
    // Rebuild row by row, padding short rows with holes.
    let mut board = Vec::with_capacity(lines.len() * cols);
    let mut k = 0;
    for l in &lines {
        board.extend_from_slice(&cells[k..k + l.len()]);
        board.extend(std::iter::repeat_n(Cell::Hole, cols - l.len()));
        k += l.len();
    }
    Ok(Board { rows: lines.len(), cols, cells: board })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_clues_blanks_and_holes() {
        let b = parse("|-*\n*+|\n*-.\n").unwrap();
        assert_eq!((b.rows, b.cols), (3, 3));
        assert_eq!(b.cell(0, 0), Cell::Clue(Shape::Tall));
        assert_eq!(b.cell(0, 1), Cell::Clue(Shape::Wide));
        assert_eq!(b.cell(1, 1), Cell::Clue(Shape::Square));
        assert_eq!(b.cell(2, 2), Cell::Blank);
        let g = parse(".  .\n|..|\n.+\n").unwrap();
        assert_eq!((g.rows, g.cols), (3, 4));
        assert_eq!(g.cell(0, 1), Cell::Hole);
        assert_eq!(g.cell(2, 3), Cell::Hole, "short rows are padded with holes");
        assert_eq!(parse(&g.to_text()).unwrap(), g);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("..+\n.x.\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        assert!(e.message.contains("'x'"));
        assert_eq!(parse("").unwrap_err().line, 1);
        assert!(parse("\n\n  \n").unwrap_err().message.contains("blank"));
        let e = parse("...\n..\n...\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert!(parse("..\t\n").is_err());
    }
}
