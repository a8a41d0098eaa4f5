//! puzz.link / pzprjs URLs (`https://puzz.link/p?tatamibari/10/10/…`), the form puzzle people
//! share puzzles in: the URL's parts, and the cell code several puzzles' bodies use (one
//! character per clue, `g`–`z` for runs of 1–20 empty cells). Each puzzle maps its own clue
//! characters ([`crate::puzzle::Puzzle::from_url`]).

use crate::format::error::ParseError;

/// The most cells a URL's board may have (a 4000×4000 Tatamibari): the puzzle text is built
/// before any other check, so a URL claiming a huge board must be refused first.
pub const MAX_CELLS: usize = 1 << 24;

/// A URL split into its parts: `kind/[flags/]cols/rows/body`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link<'a> {
    /// The pzprjs puzzle name (`tatamibari`, `sudoku`).
    pub kind: &'a str,
    pub cols: usize,
    pub rows: usize,
    pub body: &'a str,
    /// Where `body` starts in the URL, in characters (for error columns).
    pub body_at: usize,
    /// The flags between the name and the size (pzprjs's `v:`, Slitherlink's `f`, …).
    pub flags: Vec<&'a str>,
}

/// Whether a command-line argument is meant as a URL rather than a file name: it has a scheme,
/// names puzz.link or pzv.jp, or is a bare `kind/cols/rows/…`.
pub fn is_url(arg: &str) -> bool {
    if arg.starts_with("http://")
        || arg.starts_with("https://")
        || arg.contains("puzz.link/")
        || arg.contains("pzv.jp/")
    {
        return true;
    }
    let parts: Vec<&str> = arg.splitn(4, '/').collect();
    parts.len() >= 3
        && !parts[0].is_empty()
        && parts[0]
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && parts[1..3]
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// `s` as a URL, as pasted: spaces around it and a trailing `/` are no part of it.
pub fn pasted(s: &str) -> Option<&str> {
    let url = s.trim().trim_end_matches('/');
    is_url(url).then_some(url)
}

/// Splits a URL (or its query alone) into its parts.
pub fn split(url: &str) -> Result<Link<'_>, ParseError> {
    let at = |byte: usize| url[..byte].chars().count() + 1;
    let query_at = url.find('?').map_or(0, |q| q + 1);
    let query = &url[query_at..];
    let mut parts = query.split('/');
    let kind = parts.next().unwrap_or("");
    if kind.is_empty() {
        return Err(ParseError::new(
            1,
            at(query_at),
            "expected a puzzle name after '?' (as in https://puzz.link/p?tatamibari/10/10/…)",
        ));
    }
    // Flags (`v:`, `c` …) may stand between the name and the size: the size is the first two
    // numbers.
    let mut offset = query_at + kind.len() + 1;
    let mut size = Vec::new();
    let mut flags = Vec::new();
    for part in parts.by_ref() {
        let start = offset;
        offset += part.len() + 1;
        if !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()) {
            let n: usize = part.parse().map_err(|_| {
                ParseError::new(1, at(start), format!("{part}: too large a board size"))
            })?;
            if n == 0 {
                return Err(ParseError::new(1, at(start), "a board size of 0"));
            }
            size.push(n);
            if size.len() == 2 {
                break;
            }
        } else if size.is_empty() {
            flags.push(part);
        } else {
            return Err(ParseError::new(
                1,
                at(start),
                format!("expected the number of rows after the columns, not {part:?}"),
            ));
        }
    }
    let [cols, rows] = size[..] else {
        return Err(ParseError::new(
            1,
            at(url.len()),
            format!("expected the board size: {kind}/COLUMNS/ROWS/…"),
        ));
    };
    if cols.saturating_mul(rows) > MAX_CELLS {
        return Err(ParseError::new(
            1,
            at(query_at),
            format!("a {cols}×{rows} board is larger than the {MAX_CELLS} cells puzzle-sat reads"),
        ));
    }
    let body_start = offset.min(url.len());
    Ok(Link {
        kind,
        cols,
        rows,
        body: &url[body_start..],
        body_at: at(body_start) - 1,
        flags,
    })
}

/// The board's cells, row by row, from a body in a cell code: at each position either `g`–`z`,
/// which skip 1–20 empty cells, or a clue that `read` takes from the body's characters at that
/// position (`Ok((clue, characters taken))`; `Err` says what the code has). Cells the body does
/// not reach are empty.
pub fn decode_with<T: Clone>(
    link: &Link,
    empty: T,
    read: impl Fn(&[char]) -> Result<(T, usize), String>,
) -> Result<Vec<T>, ParseError> {
    let (cells, used, _) = decode_prefix(link, empty, 'g'..='z', read)?;
    match link.body.chars().nth(used) {
        Some(ch) => Err(ParseError::new(
            1,
            link.body_at + used + 1,
            format!("{ch:?} after the last of the {} cells", cells.len()),
        )),
        None => Ok(cells),
    }
}

/// [`decode_with`] for bodies that go on after the cells (kakuro's outer clues), with the
/// code's skip letters (`skips`, standing for 1, 2, … empty cells): the cells, how many of the
/// body's characters they took, and whether they reached the last cell (a body may stop
/// before it). A skip past the last cell ends the cells, as in pzprjs.
pub fn decode_prefix<T: Clone>(
    link: &Link,
    empty: T,
    skips: std::ops::RangeInclusive<char>,
    read: impl Fn(&[char]) -> Result<(T, usize), String>,
) -> Result<(Vec<T>, usize, bool), ParseError> {
    let n = link.cols * link.rows;
    let mut cells = vec![empty; n];
    let body: Vec<char> = link.body.chars().collect();
    let (mut c, mut i) = (0, 0);
    while i < body.len() && c < n {
        let ch = body[i];
        if skips.contains(&ch) {
            c += (ch as usize) - (*skips.start() as usize) + 1;
            i += 1;
        } else {
            let (clue, taken) =
                read(&body[i..]).map_err(|why| ParseError::new(1, link.body_at + i + 1, why))?;
            cells[c] = clue;
            c += 1;
            i += taken.max(1);
        }
    }
    Ok((cells, i.min(body.len()), c >= n))
}

/// [`decode_with`] for codes of one character per clue: `clue(ch)` is the cell it stands for
/// (`Err`: not a clue of this puzzle, whose message says why).
pub fn decode_cells<T: Clone>(
    link: &Link,
    empty: T,
    clue: impl Fn(char) -> Result<T, String>,
) -> Result<Vec<T>, ParseError> {
    decode_with(link, empty, |chars| clue(chars[0]).map(|t| (t, 1)))
}

/// A number clue of pzprjs's "number16" code: a value, or `?` (a clue whose number is not given).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Number {
    Known(u32),
    Unknown,
}

/// The largest number the number16 code writes: `$` and five hex digits past 77,776.
pub const MAX_NUMBER: u32 = 77_776 + 0xfffff;

/// Reads one number16 clue (pzprjs `readNumber16`): `0`–`f` for 0–15, `-` and two hex digits
/// for 16–255, `+` and three for 256–4095, `=` and three for 4096 more, `%` three for 8192
/// more, `*` four for 12,240 more, `$` five for 77,776 more, `.` for `?`.
pub fn read_number16(chars: &[char]) -> Result<(Number, usize), String> {
    let hex = |n: usize, plus: u32| -> Result<(Number, usize), String> {
        let digits: String = chars.iter().skip(1).take(n).collect();
        if digits.chars().count() < n
            || !digits
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        {
            return Err(format!("{:?} needs {n} hex digits after it", chars[0]));
        }
        Ok((
            Number::Known(u32::from_str_radix(&digits, 16).expect("hex digits") + plus),
            n + 1,
        ))
    };
    match chars[0] {
        c @ ('0'..='9' | 'a'..='f') => Ok((Number::Known(c.to_digit(16).expect("a hex digit")), 1)),
        '-' => hex(2, 0),
        '+' => hex(3, 0),
        '=' => hex(3, 4096),
        '%' => hex(3, 8192),
        '*' => hex(4, 12_240),
        '$' => hex(5, 77_776),
        '.' => Ok((Number::Unknown, 1)),
        c => Err(format!("{c:?} is no number (0–f, -xx, +xxx, =xxx, %xxx, *xxxx, $xxxxx, . for ?, g–z skip 1–20 cells)")),
    }
}

/// Writes one number16 clue as pzprjs's `writeNumber16` does (the inverse of [`read_number16`]).
pub fn write_number16(n: Number) -> String {
    let Number::Known(v) = n else {
        return ".".to_string();
    };
    match v {
        0..=15 => format!("{v:x}"),
        16..=255 => format!("-{v:02x}"),
        256..=4095 => format!("+{v:03x}"),
        4096..=8191 => format!("={:03x}", v - 4096),
        8192..=12_239 => format!("%{:03x}", v - 8192),
        12_240..=77_775 => format!("*{:04x}", v - 12_240),
        _ => format!("${:05x}", v.min(MAX_NUMBER) - 77_776),
    }
}

/// A body of number clues (`None` for an empty cell), read with [`read_number16`].
pub fn decode_numbers(link: &Link) -> Result<Vec<Option<Number>>, ParseError> {
    decode_with(link, None, |chars| {
        read_number16(chars).map(|(n, k)| (Some(n), k))
    })
}

/// The body for `cells` (`None` for an empty cell): the inverse of [`decode_numbers`].
pub fn encode_numbers(cells: impl IntoIterator<Item = Option<Number>>) -> String {
    encode_with(cells.into_iter().map(|c| c.map(write_number16)))
}

/// The body for `cells` in a code of one character per clue (`None` for an empty cell): the
/// inverse of [`decode_cells`], written as pzprjs writes it.
pub fn encode_cells(cells: impl IntoIterator<Item = Option<char>>) -> String {
    encode_with(cells.into_iter().map(|c| c.map(String::from)))
}

/// The body for `cells`, each clue already written in its code, empty cells as `g`–`z` runs.
pub fn encode_with(cells: impl IntoIterator<Item = Option<String>>) -> String {
    encode_with_skips(cells, 'g'..='z')
}

/// [`encode_with`] with the code's skip letters (`skips`, for 1, 2, … empty cells).
pub fn encode_with_skips(
    cells: impl IntoIterator<Item = Option<String>>,
    skips: std::ops::RangeInclusive<char>,
) -> String {
    let mut out = String::new();
    let mut run = 0u32;
    let longest = *skips.end() as u32 - *skips.start() as u32 + 1;
    let skip = |run: u32| char::from_u32(*skips.start() as u32 + run - 1).expect("a letter");
    for cell in cells {
        match cell {
            None => {
                run += 1;
                if run == longest {
                    out.push(skip(run));
                    run = 0;
                }
            }
            Some(code) => {
                if run > 0 {
                    out.push(skip(run));
                    run = 0;
                }
                out.push_str(&code);
            }
        }
    }
    if run > 0 {
        out.push(skip(run));
    }
    out
}

/// pzprjs's border code (its `decodeBorder` for boards of rooms): the `(cols − 1) × rows`
/// borders between cells side by side, row by row, then the `cols × (rows − 1)` between cells
/// one above the other, each group five to a base-32 character, the highest bit first. Returns
/// `right[r * (cols − 1) + c]` (a border between (r, c) and (r, c + 1)), `below[r * cols + c]`
/// (between (r, c) and (r + 1, c)) and how many characters they took. A body that stops early
/// leaves the rest without borders, as in pzprjs.
pub fn decode_borders(link: &Link) -> Result<(Vec<bool>, Vec<bool>, usize), ParseError> {
    let (rows, cols) = (link.rows, link.cols);
    let body: Vec<char> = link.body.chars().collect();
    let mut at = 0;
    let mut group = |n: usize| -> Result<Vec<bool>, ParseError> {
        let mut bits = vec![false; n];
        for k in 0..n.div_ceil(5) {
            let Some(&ch) = body.get(at) else { break };
            let v = ch
                .to_digit(32)
                .filter(|_| !ch.is_ascii_uppercase())
                .ok_or_else(|| {
                    ParseError::new(
                        1,
                        link.body_at + at + 1,
                        format!("{ch:?} is no border code (0–9, a–v)"),
                    )
                })?;
            at += 1;
            for b in 0..5 {
                if let Some(bit) = bits.get_mut(5 * k + b) {
                    *bit = v >> (4 - b) & 1 == 1;
                }
            }
        }
        Ok(bits)
    };
    let right = group(cols.saturating_sub(1) * rows)?;
    let below = group(cols * rows.saturating_sub(1))?;
    Ok((right, below, at))
}

/// The body for borders as [`decode_borders`] reads them.
pub fn encode_borders(right: &[bool], below: &[bool]) -> String {
    let group = |bits: &[bool]| -> String {
        bits.chunks(5)
            .map(|five| {
                let v = (0..5).fold(0, |v, b| v << 1 | u32::from(five.get(b) == Some(&true)));
                char::from_digit(v, 32).expect("five bits")
            })
            .collect()
    };
    group(right) + &group(below)
}

/// pzprjs's code for numbers 0–4 (its `decode4Cell`, Slitherlink's): `0`–`4` a number, `5`–`9`
/// a number and one empty cell after it, `a`–`e` a number and two, `g`–`z` 1–20 empty cells,
/// `.` a number not given.
pub fn decode_4cell(link: &Link) -> Result<Vec<Option<Number>>, ParseError> {
    let n = link.cols * link.rows;
    let mut cells = vec![None; n];
    let mut c = 0;
    for (i, ch) in link.body.chars().enumerate() {
        if c >= n {
            return Err(ParseError::new(
                1,
                link.body_at + i + 1,
                format!("{ch:?} after the last of the {n} cells"),
            ));
        }
        let digit = ch.to_digit(36).filter(|_| !ch.is_ascii_uppercase());
        match (ch, digit) {
            ('.', _) => cells[c] = Some(Number::Unknown),
            ('0'..='9' | 'a'..='e', Some(d)) => {
                cells[c] = Some(Number::Known(d % 5));
                c += (d / 5) as usize;
            }
            ('g'..='z', Some(d)) => c += d as usize - 16,
            _ => {
                return Err(ParseError::new(
                    1,
                    link.body_at + i + 1,
                    format!("{ch:?} is no clue code (0–9, a–e, g–z or .)"),
                ))
            }
        }
        c += 1;
    }
    Ok(cells)
}

/// The body [`decode_4cell`] reads, as pzprjs's `encode4Cell` writes it.
pub fn encode_4cell(cells: &[Option<Number>]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    let mut c = 0;
    while c < cells.len() {
        let code = match cells[c] {
            Some(Number::Known(v)) => {
                let v = v.min(4);
                // The empty cells after it, up to two, go into its character (past the board's
                // end counts as empty, as in pzprjs).
                let filled = |k: usize| c + k < cells.len() && cells[c + k].is_some();
                let after = if filled(1) {
                    0
                } else if filled(2) {
                    1
                } else {
                    2
                };
                c += after;
                char::from_digit(v + 5 * after as u32, 16).map(String::from)
            }
            Some(Number::Unknown) => Some(".".to_string()),
            None => {
                empty += 1;
                None
            }
        };
        match code {
            Some(code) => {
                if empty > 0 {
                    out.push(char::from_digit(empty + 15, 36).expect("1–20"));
                    empty = 0;
                }
                out.push_str(&code);
            }
            None if empty == 20 => {
                out.push('z');
                empty = 0;
            }
            None => {}
        }
        c += 1;
    }
    if empty > 0 {
        out.push(char::from_digit(empty + 15, 36).expect("1–20"));
    }
    out
}

/// A puzz.link URL.
pub fn link(kind: &str, cols: usize, rows: usize, body: &str) -> String {
    format!("https://puzz.link/p?{kind}/{cols}/{rows}/{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_every_form() {
        for url in [
            "https://puzz.link/p?tatamibari/5/4/m3g",
            "http://pzv.jp/p.html?tatamibari/5/4/m3g",
            "puzz.link/p?tatamibari/5/4/m3g",
            "tatamibari/5/4/m3g",
            "https://puzz.link/p?tatamibari/v:/5/4/m3g",
        ] {
            assert!(is_url(url), "{url}");
            let l = split(url).unwrap();
            assert_eq!(
                (l.kind, l.cols, l.rows, l.body),
                ("tatamibari", 5, 4, "m3g"),
                "{url}"
            );
            assert_eq!(url.chars().skip(l.body_at).collect::<String>(), "m3g");
        }
        assert!(!is_url("tests/data/tatamibari/codegolf-5x5.txt"));
        assert!(!is_url("puzzle.txt"));
        assert!(split("https://puzz.link/p?tatamibari/5")
            .unwrap_err()
            .message
            .contains("board size"));
        assert!(split("https://puzz.link/p?tatamibari/0/5/")
            .unwrap_err()
            .message
            .contains("size of 0"));
        assert!(split("https://puzz.link/p?tatamibari/100000/100000/")
            .unwrap_err()
            .message
            .contains("larger"));
        assert!(split("https://puzz.link/p?/5/5").is_err());
    }

    /// Values at each of the code's boundaries, against pzprjs's own strings.
    #[test]
    fn numbers_read_and_write_as_pzprjs_does() {
        for (v, code) in [
            (0, "0"),
            (15, "f"),
            (16, "-10"),
            (255, "-ff"),
            (256, "+100"),
            (4095, "+fff"),
            (4096, "=000"),
            (8191, "=fff"),
            (8192, "%000"),
            (12_239, "%fcf"),
            (12_240, "*0000"),
            (77_775, "*ffff"),
            (77_776, "$00000"),
            (MAX_NUMBER, "$fffff"),
        ] {
            assert_eq!(write_number16(Number::Known(v)), code, "{v}");
            let chars: Vec<char> = code.chars().collect();
            assert_eq!(
                read_number16(&chars),
                Ok((Number::Known(v), chars.len())),
                "{code}"
            );
        }
        assert_eq!(read_number16(&['.']), Ok((Number::Unknown, 1)));
        for bad in ["-1", "+1g", "=", "-FF", "#"] {
            assert!(
                read_number16(&bad.chars().collect::<Vec<_>>()).is_err(),
                "{bad}"
            );
        }
        // A 4×4 body with a two-digit number and a `?`, read and written back.
        let link = split("https://puzz.link/p?shikaku/4/4/2g-10h.k3").unwrap();
        let cells = decode_numbers(&link).unwrap();
        assert_eq!(
            &cells[..6],
            &[
                Some(Number::Known(2)),
                None,
                Some(Number::Known(16)),
                None,
                None,
                Some(Number::Unknown)
            ]
        );
        assert_eq!(cells[11], Some(Number::Known(3)));
        assert_eq!(encode_numbers(cells), "2g-10h.k3j");
        let bad = split("x/4/4/2g-1").unwrap();
        assert_eq!(decode_numbers(&bad).unwrap_err().col, 9);
    }

    #[test]
    fn cells_round_trip_and_errors_name_the_column() {
        let link = split("x/5/5/m3g11i2g31h13g3g").unwrap();
        let cells = decode_cells(&link, None, |ch| {
            if "123".contains(ch) {
                Ok(Some(ch))
            } else {
                Err("no".into())
            }
        })
        .unwrap();
        assert_eq!(encode_cells(cells.iter().copied()), "m3g11i2g31h13g3g");
        // 45 empty cells: two full runs of 20 and one of 5.
        let mut cells = vec![None; 45];
        cells.push(Some('1'));
        assert_eq!(encode_cells(cells), "zzk1");
        let bad = split("x/2/2/g7").unwrap();
        let e = decode_cells(&bad, 0, |ch| {
            ch.to_digit(10)
                .filter(|&d| d < 4)
                .ok_or(format!("{ch:?} is no clue"))
        })
        .unwrap_err();
        assert_eq!((e.line, e.col), (1, 8));
        let long = split("x/2/1/111").unwrap();
        assert!(decode_cells(&long, 0, |_| Ok(1))
            .unwrap_err()
            .message
            .contains("after the last"));
    }
}
