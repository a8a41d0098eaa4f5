//! The independent validator and exact scorer: checks an answer against the rules of
//! docs/rules.md straight from their wording (runs are walked cell by cell), sharing nothing
//! with the encoder, and computes the exact score. Also reads answers in the contest's two
//! notations (rows with sides, contest strings) and the contest string with sides.

use super::{factor, opposite, Answer, Cell, Given, Nat, Puzzle, Score, MAX_NUMBER, SIDES};
use crate::format::error::{quoted, ParseError};
use std::fmt;

/// A valid answer's score and its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scored {
    pub score: Score,
    /// Each red dot's factor, in row-major order.
    pub factors: Vec<u64>,
    pub painted: u64,
}

/// The first broken rule (numbered as in docs/rules.md) and the cell (0-based) where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub rule: u8,
    pub row: usize,
    pub col: usize,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "rule {} broken at row {}, column {}: {}",
            self.rule,
            self.row + 1,
            self.col + 1,
            self.message
        )
    }
}

/// The white cells of the run of gray cell `i` towards side `d`.
fn run(p: &Puzzle, a: &Answer, i: usize, d: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = p.step(i, d);
    while let Some(j) = at {
        if !matches!(a.cells[j], Cell::White(_)) {
            break;
        }
        out.push(j);
        at = p.step(j, d);
    }
    out
}

fn digit(a: &Answer, i: usize) -> u32 {
    match a.cells[i] {
        Cell::White(k) => k,
        Cell::Gray { .. } => unreachable!("runs hold white cells"),
    }
}

fn at(p: &Puzzle, i: usize, rule: u8, message: String) -> Violation {
    Violation {
        rule,
        row: i / p.cols,
        col: i % p.cols,
        message,
    }
}

/// The rules that do not depend on the sides: values in range, given grays gray, and rule 7
/// (strict mode). Returns the number of repeated gray numbers (lenient mode's pair errors).
pub fn check_values(p: &Puzzle, a: &Answer) -> Result<u64, Violation> {
    check_ranges(p, a)?;
    repeats(p, a)
}

/// Values in range and given grays gray.
fn check_ranges(p: &Puzzle, a: &Answer) -> Result<(), Violation> {
    for (i, (&given, &cell)) in p.cells.iter().zip(&a.cells).enumerate() {
        match (given, cell) {
            (_, Cell::White(k)) if !(1..=9).contains(&k) => {
                return Err(at(
                    p,
                    i,
                    1,
                    format!("white cell holds {k}, not a digit 1-9"),
                ))
            }
            (_, Cell::Gray { number, .. }) if !(1..=MAX_NUMBER).contains(&number) => {
                return Err(at(
                    p,
                    i,
                    1,
                    format!("gray cell holds {number}, not a number 1-{MAX_NUMBER}"),
                ))
            }
            (Given::Gray { .. }, Cell::White(_)) => {
                return Err(at(p, i, 2, "a given gray cell is white".into()))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Rule 7 in strict mode; in lenient mode the number of pairs of equal gray numbers in a line.
fn repeats(p: &Puzzle, a: &Answer) -> Result<u64, Violation> {
    let mut errors = 0;
    for line in p.lines() {
        for (x, &i) in line.iter().enumerate() {
            for &j in &line[x + 1..] {
                let what = match (a.cells[i], a.cells[j]) {
                    (Cell::White(u), Cell::White(v)) if u == v && !p.lenient => "digit",
                    (Cell::Gray { number: u, .. }, Cell::Gray { number: v, .. }) if u == v => {
                        "number"
                    }
                    _ => continue,
                };
                if !p.lenient {
                    let (r, c) = (j / p.cols + 1, j % p.cols + 1);
                    return Err(at(
                        p,
                        i,
                        7,
                        format!(
                            "the same {what} as the cell at row {r}, column {c}, in the same line"
                        ),
                    ));
                }
                errors += 1;
            }
        }
    }
    Ok(errors)
}

pub fn check(p: &Puzzle, a: &Answer) -> Result<Scored, Violation> {
    let at = |i: usize, rule: u8, message: String| at(p, i, rule, message);
    let side = |d: usize| SIDES[d];
    check_ranges(p, a)?;
    for (i, (&given, &cell)) in p.cells.iter().zip(&a.cells).enumerate() {
        if let (Given::Gray { thick, .. }, Cell::Gray { open, .. }) = (given, cell) {
            if let Some(d) = (0..4).find(|&d| thick[d] && open[d]) {
                return Err(at(
                    i,
                    2,
                    format!("side {} is a given thick edge but is open", side(d)),
                ));
            }
        }
    }
    let grays: Vec<(usize, u32, [bool; 4])> = a
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match *c {
            Cell::Gray { number, open } => Some((i, number, open)),
            Cell::White(_) => None,
        })
        .collect();
    for &(i, _, open) in &grays {
        if !open.contains(&true) {
            return Err(at(i, 3, "gray cell closed on all four sides".into()));
        }
    }
    for &(i, number, open) in &grays {
        for d in (0..4).filter(|&d| open[d]) {
            let cells = run(p, a, i, d);
            let sum: u32 = cells.iter().map(|&j| digit(a, j)).sum();
            if cells.is_empty() {
                return Err(at(
                    i,
                    1,
                    format!("side {} is open but faces no white cell", side(d)),
                ));
            }
            if sum != number {
                return Err(at(
                    i,
                    1,
                    format!(
                        "side {} is open and its run adds up to {sum}, not {number}",
                        side(d)
                    ),
                ));
            }
        }
    }
    for &(i, _, open) in &grays {
        for d in (0..4).filter(|&d| open[d]) {
            let end = run(p, a, i, d)
                .last()
                .map_or(p.step(i, d), |&j| p.step(j, d));
            if let Some(h) = end {
                if let Cell::Gray { open: other, .. } = a.cells[h] {
                    if other[opposite(d)] {
                        let (r, c) = (h / p.cols + 1, h % p.cols + 1);
                        return Err(at(i, 4, format!("side {} is open towards the gray cell at row {r}, column {c}, which is open back", side(d))));
                    }
                }
            }
        }
    }
    let mut summed = vec![false; a.cells.len()];
    for &(i, _, open) in &grays {
        for d in (0..4).filter(|&d| open[d]) {
            run(p, a, i, d).into_iter().for_each(|j| summed[j] = true);
        }
    }
    if let Some(i) =
        (0..a.cells.len()).find(|&i| matches!(a.cells[i], Cell::White(_)) && !summed[i])
    {
        return Err(at(i, 5, "white cell is in no open side's run".into()));
    }
    let mut errors = repeats(p, a)?;
    if p.lenient {
        for &(i, _, open) in &grays {
            let repeats = (0..4).filter(|&d| open[d]).any(|d| {
                let mut seen = [false; 10];
                run(p, a, i, d)
                    .iter()
                    .any(|&j| std::mem::replace(&mut seen[digit(a, j) as usize], true))
            });
            errors += u64::from(repeats);
        }
    }
    let factors: Vec<u64> = p
        .dots()
        .iter()
        .map(|&i| match a.cells[i] {
            Cell::Gray { number, open } => {
                factor(number, open.iter().filter(|&&o| o).count() as u32)
            }
            Cell::White(_) => unreachable!("given gray cells were checked to be gray"),
        })
        .collect();
    let painted = grays
        .iter()
        .filter(|&&(i, _, _)| p.cells[i] == Given::White)
        .count() as u64;
    let product = factors.iter().fold(Nat::from(1), |n, &f| n.mul_small(f));
    Ok(Scored {
        score: Score {
            p: product,
            d: errors + painted,
            e: errors,
        },
        factors,
        painted,
    })
}

/// What an answer file holds: the answer, whether it gave sides (a bare contest string does
/// not), and the score it claims (the contest string's `SCORE:` part), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadAnswer {
    pub answer: Answer,
    pub sides: bool,
    pub claimed: Option<String>,
}

/// Reads an answer: rows of tokens (`7` white, `20:ES` gray with its open sides, `(12):S`
/// painted), or a bare contest string `SCORE:v1,v2,…` (painted cells in parentheses; which
/// cells are gray then follows from the puzzle and the parentheses, sides left closed).
pub fn parse_answer(p: &Puzzle, text: &str) -> Result<ReadAnswer, ParseError> {
    // A byte-order mark is no part of the answer, as it is none of the puzzle (parse.rs).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Walked over in passes, not collected, and no more cells kept than the puzzle has: an
    // answer of millions of lines must cost its text, not a copy of each line (1.8 GB for a
    // 64 MiB file).
    let lines = || {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with(';'))
    };
    let Some((first, _)) = lines().next() else {
        return Err(ParseError::new(1, 1, "empty answer"));
    };
    // A contest string: the lines with commas that start with a value (or its `SCORE:`), not
    // the score line and red-dot line of `solve`'s text, whose drawing is passed over then.
    let is_contest = |l: &str| {
        l.contains(',')
            && l.trim_start()
                .starts_with(|c: char| c.is_ascii_digit() || c == '(')
    };
    if lines().any(|(_, l)| is_contest(l)) {
        return contest(p, lines().filter(|&(_, l)| is_contest(l)));
    }
    let mut cells = Vec::new();
    let mut rows = 0;
    for (n, line) in lines() {
        rows += 1;
        // Rows past the puzzle's are read (their errors come first) but not kept.
        if rows > p.rows {
            cells.truncate(p.rows * p.cols);
        }
        let before = cells.len();
        // The byte where the last token ended and its character column: counted on from there,
        // not from the line's start, so that a long line costs its length, not its square.
        let (mut col, mut column) = (0, 1);
        for token in line.split_whitespace() {
            let start = line[col..].find(token).map_or(col, |k| col + k);
            column += line[col..start].chars().count();
            col = start + token.len();
            cells.push(answer_cell(token).map_err(|m| ParseError::new(n, column, m))?);
            column += token.chars().count();
        }
        if cells.len() - before != p.cols {
            return Err(ParseError::new(
                n,
                1,
                format!(
                    "answer row has {} cells, the puzzle has {} columns",
                    cells.len() - before,
                    p.cols
                ),
            ));
        }
    }
    if rows != p.rows {
        return Err(ParseError::new(
            first,
            1,
            format!("answer has {rows} rows, the puzzle has {}", p.rows),
        ));
    }
    Ok(ReadAnswer {
        answer: Answer { cells },
        sides: true,
        claimed: None,
    })
}

fn number(s: &str) -> Result<u32, String> {
    s.parse().map_err(|_| {
        let what = if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            "is too large"
        } else {
            "is not a number"
        };
        format!("{} {what}", quoted(s))
    })
}

fn answer_cell(token: &str) -> Result<Cell, String> {
    let Some((value, sides)) = token.split_once(':') else {
        return Ok(Cell::White(number(token)?));
    };
    let value = value
        .strip_prefix('(')
        .and_then(|v| v.strip_suffix(')'))
        .unwrap_or(value);
    let mut open = [false; 4];
    for ch in sides.chars().filter(|&c| c != '-') {
        let d = SIDES
            .iter()
            .position(|&s| s == ch.to_ascii_uppercase())
            .ok_or(format!("{ch:?} is not a side; sides are N, E, S, W"))?;
        open[d] = true;
    }
    Ok(Cell::Gray {
        number: number(value)?,
        open,
    })
}

fn contest<'a>(
    p: &Puzzle,
    lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<ReadAnswer, ParseError> {
    // Values with their positions, across lines (a long string may be wrapped): one more than
    // the puzzle's cells kept, the rest counted, with the last one's position.
    let mut values = Vec::new();
    let (mut count, mut last) = (0, None);
    let mut claimed = None;
    for (n, line) in lines {
        last = last.or(Some((n, 1)));
        let mut rest_start = 0;
        if claimed.is_none() && values.is_empty() {
            // `SCORE:` before the first value, not a first gray cell's sides (`7:E,…`).
            let first = line.split(',').next().unwrap_or("");
            if let Some(k) = first.find(':') {
                if first[k + 1..]
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit() || c == '(')
                {
                    claimed = Some(line[..k].trim().to_string());
                    rest_start = k + 1;
                }
            }
        }
        // The characters before each part, counted on part by part (linear in a long line).
        let mut before = line[..rest_start].chars().count();
        for part in line[rest_start..].split(',') {
            let lead = &part[..part.len() - part.trim_start().len()];
            let column = before + lead.chars().count() + 1;
            before += part.chars().count() + 1;
            if part.trim().is_empty() {
                continue;
            }
            count += 1;
            last = Some((n, column));
            if values.len() <= p.rows * p.cols {
                values.push((n, column, part.trim()));
            }
        }
    }
    if count != p.rows * p.cols {
        let (n, col) = last.unwrap_or((1, 1));
        return Err(ParseError::new(
            n,
            col,
            format!(
                "contest string has {count} values, the puzzle has {} cells",
                p.rows * p.cols
            ),
        ));
    }
    // Sides after a colon make the answer complete; they are given for every gray cell or none.
    let with_sides = values.iter().filter(|(_, _, v)| v.contains(':')).count();
    let mut cells = Vec::new();
    for (i, &(n, col, v)) in values.iter().enumerate() {
        let (v, sides) = match v.split_once(':') {
            Some((v, sides)) => (v, Some(sides)),
            None => (v, None),
        };
        let (painted, v) = match v.strip_prefix('(').and_then(|v| v.strip_suffix(')')) {
            Some(inner) => (true, inner),
            None => (false, v),
        };
        let value = number(v).map_err(|m| ParseError::new(n, col, m))?;
        let gray = painted || matches!(p.cells[i], Given::Gray { .. });
        if with_sides > 0 && gray != sides.is_some() {
            let why = if gray {
                "this gray cell has no sides (write :- for none), though others have"
            } else {
                "a white cell has no sides"
            };
            return Err(ParseError::new(n, col, why));
        }
        let mut open = [false; 4];
        for ch in sides.unwrap_or("").chars().filter(|&c| c != '-') {
            let d = SIDES
                .iter()
                .position(|&s| s == ch.to_ascii_uppercase())
                .ok_or_else(|| {
                    ParseError::new(
                        n,
                        col,
                        format!("{ch:?} is not a side; sides are N, E, S, W"),
                    )
                })?;
            open[d] = true;
        }
        cells.push(if gray {
            Cell::Gray {
                number: value,
                open,
            }
        } else {
            Cell::White(value)
        });
    }
    Ok(ReadAnswer {
        answer: Answer { cells },
        sides: with_sides > 0,
        claimed,
    })
}
