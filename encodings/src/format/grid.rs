//! Boards written as words, one row of cells per line, as janko.at and most collections write
//! them: cells separated by spaces, an optional first line `ROWS COLUMNS`, blank lines around
//! the grid passed over. The genres that keep a board this way (Nurikabe and the shading and
//! loop genres after it) read it here, each turning a word into its own cell.

use crate::format::error::{quoted, words, ParseError};
use crate::format::url::MAX_CELLS;

/// The most rows and columns read: a hostile file's first row costs no more than a line.
pub const MAX_SIDE: usize = 1000;

/// A board read from words: `cells[r * cols + c]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words<T> {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<T>,
}

/// Whether a line is two numbers, as janko.at's size line `ROWS COLUMNS`.
fn size_line(line: &str) -> Option<[(usize, &str); 2]> {
    let mut w = words(line);
    let (a, b) = (w.next()?, w.next()?);
    (w.next().is_none()
        && [a.1, b.1]
            .iter()
            .all(|s| s.bytes().all(|c| c.is_ascii_digit())))
    .then_some([a, b])
}

/// The board in `text`: each word of each line becomes a cell by `cell(index, word)` (`Err`: why
/// the word is no cell, reported at the word). With `compact`, a line that is a single word of more than
/// one character is read one character a cell (`##..#`), as answers are often written.
///
/// A first line of two numbers is janko.at's size line when the grid after it has that many
/// rows of that many cells, or when the line after it is no row of two cells (so the line
/// cannot be a row of the grid); it is then checked against the grid. Alone, it is a row.
pub fn read<T>(
    text: &str,
    compact: bool,
    cell: impl Fn(usize, &str) -> Result<T, String>,
) -> Result<Words<T>, ParseError> {
    read_with(text, compact, true, cell)
}

/// [`read`] of a grid that has no size line (one part of a file that had it, such as
/// Heyawake's rooms under its numbers): a first line of two numbers is a row.
pub fn read_rows<T>(
    text: &str,
    compact: bool,
    cell: impl Fn(usize, &str) -> Result<T, String>,
) -> Result<Words<T>, ParseError> {
    read_with(text, compact, false, cell)
}

fn read_with<T>(
    text: &str,
    compact: bool,
    sized: bool,
    cell: impl Fn(usize, &str) -> Result<T, String>,
) -> Result<Words<T>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let blank = |l: &str| l.trim_matches([' ', '\t']).is_empty();
    let Some(mut first) = lines.iter().position(|l| !blank(l)) else {
        return Err(ParseError::new(
            1,
            1,
            "empty input: expected a grid, one row per line, cells separated by spaces",
        ));
    };
    let last = lines.iter().rposition(|l| !blank(l)).expect("a line");
    let mut size = None;
    if let Some([(_, r), (c_at, c)]) = size_line(lines[first]).filter(|_| sized) {
        let after = lines[first + 1..=last]
            .iter()
            .position(|l| !blank(l))
            .map(|k| first + 1 + k);
        let rows_after = after.map_or(0, |a| last + 1 - a);
        let width = after.map_or(0, |a| words(lines[a]).count());
        let fits =
            r.parse::<usize>().ok() == Some(rows_after) && c.parse::<usize>().ok() == Some(width);
        if let Some(after) = after.filter(|_| fits || width != 2) {
            let number = |w: &str, at: usize| {
                w.parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_SIDE).contains(n))
                    .ok_or_else(|| {
                        ParseError::new(
                            first + 1,
                            at,
                            format!(
                                "{}: a board size is a number from 1 to {MAX_SIDE}",
                                quoted(w)
                            ),
                        )
                    })
            };
            size = Some((number(r, 1)?, number(c, c_at)?, first + 1));
            first = after;
        }
    }
    let rows = last + 1 - first;
    if rows > MAX_SIDE {
        return Err(ParseError::new(
            first + MAX_SIDE + 1,
            1,
            format!("more than {MAX_SIDE} rows: puzzle-sat reads boards up to {MAX_SIDE} a side"),
        ));
    }
    let mut cols = 0;
    let mut cells = Vec::new();
    for (k, line) in lines[first..=last].iter().enumerate() {
        let at = first + k + 1;
        let mut row: Vec<(usize, &str)> = words(line).take(MAX_SIDE + 1).collect();
        if compact && row.len() == 1 && row[0].1.chars().nth(1).is_some() {
            let (start, word) = row[0];
            row = word
                .char_indices()
                .take(MAX_SIDE + 1)
                .enumerate()
                .map(|(n, (b, ch))| (start + n, &word[b..b + ch.len_utf8()]))
                .collect();
        }
        if row.is_empty() {
            return Err(ParseError::new(at, 1, "a blank line inside the grid"));
        }
        if row.len() > MAX_SIDE {
            return Err(ParseError::new(
                at,
                row[MAX_SIDE].0,
                format!(
                    "more than {MAX_SIDE} cells: puzzle-sat reads boards up to {MAX_SIDE} a side"
                ),
            ));
        }
        if k == 0 {
            cols = row.len();
        }
        let want = size.map_or(cols, |s| s.1);
        if row.len() != want {
            let has = if row.len() > want {
                format!("more than {want}")
            } else {
                row.len().to_string()
            };
            let whose = if size.is_some() {
                "the size line says"
            } else {
                "the first row has"
            };
            return Err(ParseError::new(
                at,
                row.get(want).map_or(line.chars().count() + 1, |w| w.0),
                format!("this row has {has} cells; {whose} {want}"),
            ));
        }
        for (col, word) in row {
            let i = cells.len();
            cells.push(cell(i, word).map_err(|why| ParseError::new(at, col, why))?);
        }
    }
    if let Some((r, c, line)) = size {
        if r != rows {
            return Err(ParseError::new(
                line,
                1,
                format!("the size line says {r} rows of {c}, the grid has {rows}"),
            ));
        }
    }
    if rows * cols > MAX_CELLS {
        return Err(ParseError::new(
            1,
            1,
            format!("a {rows}×{cols} board is larger than the {MAX_CELLS} cells puzzle-sat reads"),
        ));
    }
    Ok(Words { rows, cols, cells })
}

/// `rows` rows, one per line, of cells separated by spaces, cell i's word by `word`.
pub fn write(rows: usize, cols: usize, word: impl Fn(usize) -> String) -> String {
    let mut out = String::new();
    for r in 0..rows {
        let line: Vec<String> = (0..cols).map(|c| word(r * cols + c)).collect();
        out += &line.join(" ");
        out.push('\n');
    }
    out
}

/// Refuses a URL's board past [`MAX_SIDE`] a side before any of it is built (a URL of a few
/// characters may ask for millions of cells).
pub fn fits_url(link: &crate::format::url::Link) -> Result<(), ParseError> {
    if link.rows.max(link.cols) > MAX_SIDE {
        return Err(ParseError::new(
            1,
            link.body_at,
            format!(
                "a {}×{} board: puzzle-sat reads boards up to {MAX_SIDE} a side",
                link.cols, link.rows
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(text: &str) -> Result<Words<u32>, ParseError> {
        read(text, false, |_, w| {
            w.parse::<u32>().map_err(|e| e.to_string())
        })
    }

    #[test]
    fn the_size_line_is_read_when_it_fits() {
        let plain = digits("1 2 3\n4 5 6\n").unwrap();
        assert_eq!((plain.rows, plain.cols), (2, 3));
        assert_eq!(digits("\n2 3\n\n1 2 3\n4 5 6\n\n").unwrap(), plain);
        // A board two wide whose first row is two numbers: a row, not a size line.
        let two = digits("5 3\n4 5\n6 7\n").unwrap();
        assert_eq!((two.rows, two.cols), (3, 2));
        let two = digits("3 3\n4 5\n6 7\n8 9\n").unwrap();
        assert_eq!((two.rows, two.cols), (4, 2));
        // ... unless the rows after it are as many as it says.
        let sized = digits("2 2\n4 5\n6 7\n").unwrap();
        assert_eq!((sized.rows, sized.cols), (2, 2));
        // A size line that the grid does not fit names the line.
        let e = digits("3 3\n1 2 3\n4 5 6\n").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1), "{e}");
        let e = digits("2 4\n1 2 3\n4 5 6\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 6), "{e}");
        assert!(e.message.contains("size line says 4"), "{e}");
        // Alone, it is a row.
        assert_eq!(digits("2 3\n").unwrap().cells, [2, 3]);
        // Where the grid has no size line, it is always a row.
        let rows = read_rows("1 3\n4 5 6\n", false, |_, w| Ok::<_, String>(w.len())).unwrap_err();
        assert_eq!((rows.line, rows.col), (2, 5), "{rows}");
    }

    #[test]
    fn errors_name_their_place() {
        let e = digits("1 2 3\n4 x 6\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        let e = digits("1 2 3\n4 5\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 4));
        let e = digits("1 2 3\n\n4 5 6\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
        assert!(digits("  \n\n").is_err());
        let wide = "1 ".repeat(MAX_SIDE + 5);
        let e = digits(&wide).unwrap_err();
        assert_eq!((e.line, e.col), (1, 2 * MAX_SIDE + 1), "{e}");
    }

    #[test]
    fn compact_rows_are_one_character_a_cell() {
        let w = read("##.\n.#é\n", true, |_, w| Ok::<_, String>(w.to_string())).unwrap();
        assert_eq!(w.cells, ["#", "#", ".", ".", "#", "é"]);
        let e = read("##.\n.#\n", true, |_, w| Ok::<_, String>(w.to_string())).unwrap_err();
        assert_eq!((e.line, e.col), (2, 3));
        assert_eq!(write(2, 3, |i| i.to_string()), "0 1 2\n3 4 5\n");
    }
}
