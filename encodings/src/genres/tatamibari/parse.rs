//! Reading a board: one row per line, `+ - |` clues (`?` a clue of any shape), `.` or `*` blanks, `#` holes. A space
//! inside a row is a hole too (the NP-hardness paper's files); in such files short rows are
//! padded with holes, elsewhere every row must have the same length.

use super::{Board, Cell, Shape};
use crate::format::error::ParseError;

pub fn parse(text: &str) -> Result<Board, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines = || text.lines().map(|l| l.trim_end_matches('\r'));
    // Read in passes over the text, keeping nothing per line: a board of millions of short
    // rows must cost its cells, not an allocation per row.
    let rows = lines()
        .enumerate()
        .filter(|(_, l)| !l.chars().all(|c| c == ' '))
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or(0);
    if rows == 0 {
        let what = if text.trim().is_empty() && !text.is_empty() {
            "only blank lines"
        } else {
            "empty input"
        };
        return Err(ParseError::new(
            1,
            1,
            format!("{what}: expected a board, one row per line"),
        ));
    }
    let cell = |ch: char| match ch {
        '+' => Some(Cell::Clue(Shape::Square)),
        '-' => Some(Cell::Clue(Shape::Wide)),
        '|' => Some(Cell::Clue(Shape::Tall)),
        '?' => Some(Cell::Clue(Shape::Any)),
        '.' | '*' => Some(Cell::Blank),
        '#' | ' ' => Some(Cell::Hole),
        _ => None,
    };
    let (mut cols, mut paper_style) = (0, false);
    for (i, line) in lines().take(rows).enumerate() {
        let mut n = 0;
        for (j, ch) in line.chars().enumerate() {
            if cell(ch).is_none() {
                return Err(ParseError::new(
                    i + 1,
                    j + 1,
                    format!("unexpected character {ch:?}: expected + - | ? for clues, . or * for blanks, # or space for holes"),
                ));
            }
            paper_style |= ch == ' ';
            n += 1;
        }
        cols = cols.max(n);
    }
    if !paper_style {
        if let Some((i, n)) = lines()
            .take(rows)
            .map(|l| l.chars().count())
            .enumerate()
            .find(|&(_, n)| n != cols)
        {
            let msg =
                format!("this row has {n} cells, the longest has {cols} (pad with # for holes)");
            return Err(ParseError::new(i + 1, n + 1, msg));
        }
    }
    // Row by row, short rows padded with holes.
    let mut cells = Vec::with_capacity(rows.saturating_mul(cols));
    for line in lines().take(rows) {
        let before = cells.len();
        cells.extend(line.chars().filter_map(cell));
        cells.extend(std::iter::repeat_n(
            Cell::Hole,
            cols - (cells.len() - before),
        ));
    }
    Ok(Board { rows, cols, cells })
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
