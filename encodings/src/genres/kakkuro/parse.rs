//! Reading a puzzle (docs/formats.md): one row per line of whitespace-separated tokens, `.`
//! white, `#` gray, `@` gray with a red dot, optional thick edges in brackets (`#[NW]`); lines
//! starting with `;` are comments and blank lines are ignored.

use super::{Given, Puzzle, SIDES};
use crate::format::error::{quoted, ParseError};

pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut cells = Vec::new();
    let (mut rows, mut cols) = (0, 0);
    let mut first_row_line = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        // A line break other than \n or \r\n (an old Mac's lone \r, a Unicode line separator)
        // is whitespace to `tokens`: the rows on either side would silently become one row, or
        // vanish into a comment.
        let breaks = |c: char| {
            matches!(
                c,
                '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
            )
        };
        if let Some((col, ch)) = line
            .trim_end_matches('\r')
            .chars()
            .enumerate()
            .find(|&(_, c)| breaks(c))
        {
            return Err(ParseError::new(
                line_no,
                col + 1,
                format!("{ch:?} inside a line: rows end with \\n or \\r\\n"),
            ));
        }
        if line.trim().is_empty() || line.trim_start().starts_with(';') {
            continue;
        }
        let mut row = Vec::new();
        for (col, token) in tokens(line) {
            row.push(cell(token).map_err(|m| ParseError::new(line_no, col, m))?);
        }
        if rows == 0 {
            (cols, first_row_line) = (row.len(), line_no);
        } else if row.len() != cols {
            let col = tokens(line)
                .nth(cols.min(row.len()))
                .map_or(line.chars().count() + 1, |(c, _)| c);
            return Err(ParseError::new(
                line_no,
                col,
                format!(
                    "row has {} cells, but the first row (line {first_row_line}) has {cols}",
                    row.len()
                ),
            ));
        }
        cells.extend(row);
        rows += 1;
    }
    if rows == 0 {
        return Err(ParseError::new(
            1,
            1,
            "empty grid: expected rows of . # @ tokens",
        ));
    }
    Ok(Puzzle {
        rows,
        cols,
        cells,
        lenient: false,
    })
}

/// The tokens of a line with their 1-based character columns.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (col, (byte, ch)) in line.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((col, byte)),
            (true, Some((c, b))) => {
                out.push((c + 1, &line[b..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((c, b)) = start {
        out.push((c + 1, &line[b..]));
    }
    out.into_iter()
}

fn cell(token: &str) -> Result<Given, String> {
    let (head, sides) = match token.find('[') {
        Some(at) => {
            let Some(inner) = token[at + 1..].strip_suffix(']') else {
                return Err(format!(
                    "{}: thick edges go in brackets at the end, like #[NW]",
                    quoted(token)
                ));
            };
            (&token[..at], Some(inner))
        }
        None => (token, None),
    };
    let dot = match head {
        "." if sides.is_some() => return Err(format!("{}: only gray cells (# or @) have thick edges", quoted(token))),
        "." => return Ok(Given::White),
        "#" => false,
        "@" => true,
        ".@" | "@." => return Err(format!("{}: a red dot must be on a gray cell (@), not a white one", quoted(token))),
        _ => return Err(format!("unknown token {}: expected . (white), # (gray), @ (gray with red dot), optionally with thick edges like #[NE]", quoted(token))),
    };
    let mut thick = [false; 4];
    for ch in sides.unwrap_or("").chars() {
        let Some(d) = SIDES.iter().position(|&s| s == ch.to_ascii_uppercase()) else {
            return Err(format!(
                "{}: {ch:?} is not a side; sides are N, E, S, W",
                quoted(token)
            ));
        };
        thick[d] = true;
    }
    if thick.iter().all(|&t| t) {
        return Err(format!(
            "{}: a gray cell with all four sides thick can never be open (rule 3)",
            quoted(token)
        ));
    }
    Ok(Given::Gray { dot, thick })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_example_and_edges() {
        let p = parse("; comment\n\n# . @[ES]\n. #[n] .\n").unwrap();
        assert_eq!((p.rows, p.cols), (2, 3));
        assert_eq!(
            p.cells[2],
            Given::Gray {
                dot: true,
                thick: [false, true, true, false]
            }
        );
        assert_eq!(
            p.cells[4],
            Given::Gray {
                dot: false,
                thick: [true, false, false, false]
            }
        );
        assert_eq!(p.cells[1], Given::White);
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = |t: &str| parse(t).unwrap_err();
        assert_eq!((err("# . x\n").line, err("# . x\n").col), (1, 5));
        let e = err("# . .\n. .\n");
        assert_eq!((e.line, e.col), (2, 4));
        assert!(e.message.contains("first row (line 1) has 3"));
        assert_eq!(err("").line, 1);
        assert!(err("; only a comment\n\n").message.contains("empty grid"));
        assert!(err(". #[NX]\n").message.contains("not a side"));
        assert_eq!(err(". #[NX]\n").col, 3);
        assert!(err("#[NESW]\n").message.contains("all four"));
        assert!(err(".@\n").message.contains("red dot"));
        assert!(err(".[N]\n").message.contains("only gray"));
        assert!(err("#[N\n").message.contains("brackets"));
    }

    #[test]
    fn a_line_break_inside_a_line_is_an_error_not_one_row() {
        // Old Mac line endings: read as one row of six cells (a different puzzle, solved).
        let e = parse("# . #\r. . .\r").unwrap_err();
        assert_eq!((e.line, e.col), (1, 6), "{e}");
        assert!(e.message.contains("'\\r' inside a line"), "{e}");
        let e = parse("; a comment\u{2028}# . #\n. . .\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 12), "{e}");
        // \r\n, and a last line's lone \r, end rows as before.
        assert_eq!(parse("# . #\r\n. . .\r").unwrap().rows, 2);
    }

    #[test]
    fn a_long_token_is_quoted_short() {
        // A hostile file's one long word must not become a message of megabytes.
        for token in [
            "x".repeat(100_000),
            format!("#[{}", "n".repeat(100_000)),
            format!("#[N{}]", "x".repeat(100_000)),
        ] {
            let e = parse(&token).unwrap_err();
            assert_eq!((e.line, e.col), (1, 1));
            assert!(
                e.message.len() < 200,
                "{} bytes: {}…",
                e.message.len(),
                &e.message[..100]
            );
        }
    }
}
