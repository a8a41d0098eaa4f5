//! What the shading genres share (Nurikabe, and Heyawake, Hitori and LITS after it): an answer
//! says of each cell whether it is shaded; one variable per cell; reading a model back,
//! blocking answers, the backbone of a shading (`--hints`), the answer's text form and reading
//! it back, and the picture.

use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::{quoted, ParseError};
use crate::format::grid;
use crate::format::svg::{self, Font, Stroke, Svg};
use crate::solver::{Solver, SolverError};

/// An answer, row-major: `Some(true)` shaded, `Some(false)` not; `None` only in hints, for a
/// cell that differs between answers.
pub type Shading = Vec<Option<bool>>;

/// The variables: `lits[i]` true when cell i is shaded.
pub struct Cells {
    pub lits: Vec<Lit>,
}

impl Cells {
    /// A variable `rRcC shaded` for each cell of a board `cols` wide.
    pub fn new<S: ClauseSink>(sink: &mut S, cells: usize, cols: usize) -> Cells {
        let lits = (0..cells)
            .map(|i| sink.new_named_var(&|| format!("r{}c{} shaded", i / cols + 1, i % cols + 1)))
            .collect();
        Cells { lits }
    }

    pub fn decode(&self, model: &Model) -> Shading {
        self.lits.iter().map(|&l| Some(model.value(l))).collect()
    }

    /// The literals that hold in `answer` (its undecided cells left out).
    fn holding(&self, answer: &Shading) -> Vec<Lit> {
        self.lits
            .iter()
            .zip(answer)
            .filter_map(|(&l, s)| s.map(|s| if s { l } else { !l }))
            .collect()
    }

    /// One clause per answer: some cell differs from it. Exactly that answer is blocked.
    pub fn block<S: ClauseSink + ?Sized>(&self, sink: &mut S, answers: &[Shading]) {
        for answer in answers {
            let clause: Vec<Lit> = self.holding(answer).into_iter().map(|l| !l).collect();
            sink.add_clause(&clause);
        }
    }

    /// `found` with `None` wherever another answer differs (the
    /// [`crate::search::backbone_cut`] of the shading, on a solver holding the rules less
    /// those `cuts` adds), and how many cells are decided. `None` when the run was stopped.
    pub fn fixed<S: Solver + ?Sized>(
        &self,
        solver: &mut S,
        found: &Shading,
        cuts: impl FnMut(&Model) -> Vec<Vec<Lit>>,
    ) -> Result<Option<(Shading, usize)>, SolverError> {
        let Some(fixed) = crate::search::backbone_cut(solver, self.holding(found), cuts)? else {
            return Ok(None);
        };
        let fixed: std::collections::HashSet<Lit> = fixed.into_iter().collect();
        let partial: Shading = self
            .lits
            .iter()
            .zip(found)
            .map(|(&l, s)| s.filter(|&s| fixed.contains(&if s { l } else { !l })))
            .collect();
        let decided = partial.iter().filter(|s| s.is_some()).count();
        Ok(Some((partial, decided)))
    }
}

/// The text form: `#` shaded; an unshaded cell shows its clue (`clue(i)`) or `.`; `?`
/// undecided (hints).
pub fn render(
    rows: usize,
    cols: usize,
    answer: &Shading,
    clue: impl Fn(usize) -> Option<String>,
) -> String {
    grid::write(rows, cols, |i| match answer[i] {
        Some(true) => "#".into(),
        Some(false) => clue(i).unwrap_or_else(|| ".".into()),
        None => "?".into(),
    })
}

/// Reads an answer of a `rows × cols` board: `#`, `x` or `X` a shaded cell; `.`, `-` or `o`
/// an unshaded one, as may be the cell's own clue (`clue(i)`, as [`render`] writes it, so
/// `solve`'s text reads back); a size line and rows written without spaces (`#..#`) are
/// allowed, and verdict lines after the grid are passed over.
pub fn read(
    rows: usize,
    cols: usize,
    text: &str,
    clue: impl Fn(usize) -> Option<String>,
) -> Result<Shading, ParseError> {
    let (lines, _) = crate::genres::digits::answer_lines(text);
    // Cells past the puzzle's (a grid of another size, refused below) have no clue.
    let clue = |i: usize| (i < rows * cols).then(|| clue(i)).flatten();
    let words = grid::read(&lines.join("\n"), true, |i, w| match w {
        "#" | "x" | "X" => Ok(Some(true)),
        "." | "-" | "o" => Ok(Some(false)),
        w if clue(i).as_deref() == Some(w) => Ok(Some(false)),
        w => Err(format!(
            "unexpected {}: expected # (shaded) or . (unshaded){}",
            quoted(w),
            clue(i).map_or(String::new(), |c| format!(", or its clue {c}"))
        )),
    })?;
    if (words.rows, words.cols) != (rows, cols) {
        return Err(ParseError::new(
            1,
            1,
            format!(
                "the answer is {} rows of {}; the puzzle is {rows} rows of {cols}",
                words.rows, words.cols
            ),
        ));
    }
    Ok(words.cells)
}

pub const CELL: f64 = svg::MAX_CELL;
pub const EDGE: f64 = 2.0;
const THIN: Stroke = Stroke::solid("#999", 1.0);
const THICK: Stroke = Stroke::solid("#000", 3.0);

/// One board: shaded cells dark, undecided ones (hints) light grey, each clue written in its
/// cell (white on a shaded one), `marked` cells outlined.
pub fn panel(
    rows: usize,
    cols: usize,
    answer: Option<&Shading>,
    clue: &dyn Fn(usize) -> Option<String>,
    marked: &[bool],
    cell: f64,
) -> Svg {
    let mut s = Svg::new(
        cols as f64 * cell + 2.0 * EDGE,
        rows as f64 * cell + 2.0 * EDGE,
    );
    let corner = |i: usize| {
        (
            EDGE + (i % cols) as f64 * cell,
            EDGE + (i / cols) as f64 * cell,
        )
    };
    if let Some(answer) = answer {
        s.open_group("shade");
        for (i, a) in answer.iter().enumerate() {
            let fill = match a {
                Some(true) => "#333",
                Some(false) => continue,
                None => "#ddd",
            };
            let (x, y) = corner(i);
            s.rect(x, y, cell, cell, fill, None);
        }
        s.close_group();
    }
    s.grid_lines(EDGE, EDGE, rows, cols, cell, |horizontal, r, c| {
        let edge = (horizontal && (r == 0 || r == rows)) || (!horizontal && (c == 0 || c == cols));
        Some(if edge { THICK } else { THIN })
    });
    s.open_group("clue");
    for i in 0..rows * cols {
        let Some(text) = clue(i) else { continue };
        let (x, y) = corner(i);
        let shaded = answer.is_some_and(|a| a[i] == Some(true));
        let size = cell * if text.chars().count() > 2 { 0.4 } else { 0.6 };
        s.text(
            x + cell / 2.0,
            y + cell / 2.0,
            &text,
            Font {
                fill: if shaded { "#fff" } else { "#000" },
                ..Font::centred(size)
            },
        );
    }
    s.close_group();
    if answer.is_some() {
        svg::mark_cells(&mut s, EDGE, EDGE, cols, cell, marked);
    }
    s
}

/// The whole picture: the bare puzzle, an answer, or two with their differences marked.
pub fn svg(
    rows: usize,
    cols: usize,
    answers: &[&Shading],
    clue: &dyn Fn(usize) -> Option<String>,
    caption: &str,
) -> String {
    let cell = svg::cell_size(rows, cols, answers.len().min(2)).min(CELL);
    let differ = |a: &&Shading, b: &&Shading| a.iter().zip(b.iter()).map(|(x, y)| x != y).collect();
    svg::compose(
        &svg::panels(answers, differ, |answer, marked| {
            panel(rows, cols, answer.copied(), clue, marked, cell)
        }),
        caption,
    )
}

/// `check --format svg` of a broken answer: as far as it reads, the cells `broken` names
/// outlined.
pub fn svg_broken(
    rows: usize,
    cols: usize,
    answer: Option<&Shading>,
    clue: &dyn Fn(usize) -> Option<String>,
    broken: &[usize],
    caption: &str,
) -> String {
    let cell = svg::cell_size(rows, cols, 1).min(CELL);
    let mut s = panel(rows, cols, answer, clue, &[], cell);
    svg::mark_broken(&mut s, EDGE, EDGE, cols, cell, broken);
    svg::compose(&[s], caption)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_back_as_written() {
        let answer = vec![
            Some(true),
            Some(false),
            Some(false),
            Some(true),
            Some(true),
            Some(false),
        ];
        let clue = |i: usize| (i == 1).then(|| "12".to_string());
        let text = render(2, 3, &answer, clue);
        assert_eq!(text, "# 12 .\n# # .\n");
        assert_eq!(read(2, 3, &text, clue).unwrap(), answer);
        assert_eq!(read(2, 3, "2 3\n#-.\nxX-\nunique\n", clue).unwrap(), answer);
        let e = read(2, 3, "# 3 .\n# # .\n", clue).unwrap_err();
        assert_eq!((e.line, e.col), (1, 3), "{e}");
        let e = read(2, 3, "2 3\n#-.\n#?-\n", clue).unwrap_err();
        assert_eq!((e.line, e.col), (3, 2), "{e}");
        assert!(read(3, 2, &text, clue).is_err());
        // A grid larger than the puzzle is refused, not read past the puzzle's clues.
        assert!(read(2, 3, "# . .\n# # #\n# 12 .\n# # 12\n", clue).is_err());
    }
}
