//! Reading a grid: P1074's nine lines of nine numbers, or 81 cells on one line, with `0` or
//! `.` for a blank and spaces optional. Every error names its line and column.

use super::Grid;
use crate::format::error::ParseError;

/// One cell as read, with its 1-based position.
struct Cell {
    value: u8,
    line: usize,
    col: usize,
}

pub fn parse(text: &str) -> Result<Grid, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows: Vec<Vec<Cell>> = Vec::new();
    let mut last_line = (1, 1); // where "too few" errors point: just past the last cell read
    for (i, line) in text.lines().enumerate() {
        let cells = cells_of_line(line, i + 1)?;
        if !cells.is_empty() {
            last_line = (i + 1, line.chars().count() + 1);
            rows.push(cells);
        }
    }
    let cells: Vec<Cell> =
        match rows.len() {
            0 => return Err(ParseError::new(
                1,
                1,
                "empty input: expected a 9×9 grid (9 lines of 9 cells, or 81 cells on one line)",
            )),
            1 => {
                let row = rows.pop().unwrap();
                if row.len() > 81 {
                    let extra = &row[81];
                    return Err(ParseError::new(
                        extra.line,
                        extra.col,
                        format!("too many cells: {} on one line, expected 81", row.len()),
                    ));
                }
                if row.len() < 81 {
                    return Err(ParseError::new(
                        last_line.0,
                        last_line.1,
                        format!(
                            "too few cells: {} on one line, expected 81 (or 9 lines of 9)",
                            row.len()
                        ),
                    ));
                }
                row
            }
            _ => {
                for row in &rows {
                    if row.len() > 9 {
                        let extra = &row[9];
                        return Err(ParseError::new(
                            extra.line,
                            extra.col,
                            format!("too many cells in this row: {}, expected 9", row.len()),
                        ));
                    }
                    if row.len() < 9 {
                        let line = row[0].line;
                        let end = row.last().unwrap().col + 1;
                        return Err(ParseError::new(
                            line,
                            end,
                            format!("too few cells in this row: {}, expected 9", row.len()),
                        ));
                    }
                }
                if rows.len() > 9 {
                    let extra = &rows[9][0];
                    return Err(ParseError::new(
                        extra.line,
                        extra.col,
                        format!("too many rows: {}, expected 9", rows.len()),
                    ));
                }
                if rows.len() < 9 {
                    return Err(ParseError::new(
                        last_line.0 + 1,
                        1,
                        format!("too few rows: {}, expected 9", rows.len()),
                    ));
                }
                rows.into_iter().flatten().collect()
            }
        };
    let mut grid = [[0u8; 9]; 9];
    for (k, cell) in cells.iter().enumerate() {
        grid[k / 9][k % 9] = cell.value;
    }
    Ok(grid)
}

/// The cells of one line. A run of digits is one number (`10` is an error) when the line has
/// spaces; a line without spaces is the compact form, one cell per character.
fn cells_of_line(line: &str, line_no: usize) -> Result<Vec<Cell>, ParseError> {
    let chars: Vec<char> = line.chars().collect();
    let compact = !chars.iter().any(|c| c.is_whitespace());
    let mut cells = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        let col = i + 1;
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        if ch == '.' {
            cells.push(Cell {
                value: 0,
                line: line_no,
                col,
            });
            i += 1;
            continue;
        }
        if !ch.is_ascii_digit() {
            let what = if ch == '-' {
                "a minus sign (values are 0-9)".to_string()
            } else {
                format!("unexpected character {ch:?}")
            };
            return Err(ParseError::new(
                line_no,
                col,
                format!("{what}: expected a digit 0-9 or '.'"),
            ));
        }
        if compact {
            cells.push(Cell {
                value: ch as u8 - b'0',
                line: line_no,
                col,
            });
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i - start > 1 {
            let number: String = chars[start..i].iter().collect();
            return Err(ParseError::new(
                line_no,
                col,
                format!("value {number} is outside 0-9"),
            ));
        }
        if i < chars.len() && !chars[i].is_whitespace() && chars[i] != '.' {
            let ch = chars[i];
            return Err(ParseError::new(
                line_no,
                i + 1,
                format!("unexpected character {ch:?}: expected a digit 0-9 or '.'"),
            ));
        }
        cells.push(Cell {
            value: ch as u8 - b'0',
            line: line_no,
            col,
        });
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    const P1074: &str = "7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n0 0 7 0 0 2 0 9 0\n2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n";

    #[test]
    fn the_three_forms_agree() {
        let a = parse(P1074).unwrap();
        let line: String = P1074.split_whitespace().collect();
        let dotted = line.replace('0', ".");
        assert_eq!(parse(&line).unwrap(), a);
        assert_eq!(parse(&dotted).unwrap(), a);
        let dotted_rows: String = dotted
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\r\n", std::str::from_utf8(r).unwrap()))
            .collect();
        assert_eq!(parse(&dotted_rows).unwrap(), a);
        let spaced: String = line.chars().map(|c| format!("{c} ")).collect();
        assert_eq!(parse(&spaced).unwrap(), a);
        assert_eq!(a[0][0], 7);
        assert_eq!(a[8][8], 2);
    }

    fn err(text: &str) -> (usize, usize, String) {
        let e = parse(text).unwrap_err();
        (e.line, e.col, e.message)
    }

    #[test]
    fn errors_point_at_the_place() {
        assert_eq!(err("").0, 1);
        assert_eq!(err("\n\n  \n").0, 1);
        let line: String = P1074.split_whitespace().collect();
        let (l, c, m) = err(&line[..80]);
        assert_eq!((l, c), (1, 81));
        assert!(m.contains("80"), "{m}");
        let (l, c, m) = err(&format!("{line}5"));
        assert_eq!((l, c), (1, 82));
        assert!(m.contains("82"), "{m}");
        let (l, c, m) = err(&P1074.replacen("0 0 5 0 2", "0 0 5 0 10", 1));
        assert_eq!((l, c), (4, 9));
        assert!(m.contains("10"), "{m}");
        let (l, c, m) = err(&P1074.replacen("6 4 8", "6 x 8", 1));
        assert_eq!((l, c), (5, 15));
        assert!(m.contains("'x'"), "{m}");
        let (l, c, _) = err(&P1074.replacen("0 1 2\n", "0 1\n", 1));
        assert_eq!((l, c), (9, 16));
        let (l, _, m) = err(&format!("{P1074}1 2 3 4 5 6 7 8 9\n"));
        assert_eq!(l, 10);
        assert!(m.contains("rows"), "{m}");
        let eight: String = P1074.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert_eq!(err(&eight).0, 9);
        assert_eq!(err(&P1074.replacen("7 0", "7 -1", 1)).1, 3);
        assert_eq!(err(&P1074.replacen("7 0", "7 0x", 1)).1, 4);
    }
}
