//! A small SVG writer for the puzzles' pictures (`--format svg`): shapes and text with their
//! text escaped, grid lines merged into runs, and panels composed side by side over a caption.
//! Standalone documents: no scripts, no external fonts (generic families only).

use std::fmt::Write as _;

/// Cells are at most this big, and shrink on big boards so a picture stays near
/// [`MAX_WIDTH`]; never below [`MIN_CELL`], so a 100×100 board is still readable.
pub const MAX_CELL: f64 = 40.0;
pub const MIN_CELL: f64 = 16.0;
pub const MAX_WIDTH: f64 = 2000.0;

/// Space around the picture and between panels.
const MARGIN: f64 = 12.0;
const GAP: f64 = 24.0;
/// The caption's font size and line height.
const CAPTION: f64 = 16.0;
const LINE: f64 = 22.0;

/// The cell size for a board of `rows × cols`, drawn `panels` times side by side.
pub fn cell_size(rows: usize, cols: usize, panels: usize) -> f64 {
    let across = (cols * panels.max(1)).max(rows).max(1) as f64;
    (MAX_WIDTH / across).floor().clamp(MIN_CELL, MAX_CELL)
}

/// About how wide `text` is at font size `size` in a sans-serif font (for layout only).
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// `text` made safe as XML character data or an attribute value. Characters XML 1.0 does not
/// allow (most control characters) become U+FFFD: captions may quote the user's input.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate, short and stable: at most two decimals, no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{:.2}", (x * 100.0).round() / 100.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// How a line (or an outline) is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    pub colour: &'static str,
    pub width: f64,
    /// A dash pattern, e.g. `"3 3"`.
    pub dash: Option<&'static str>,
}

impl Stroke {
    pub const fn solid(colour: &'static str, width: f64) -> Stroke {
        Stroke {
            colour,
            width,
            dash: None,
        }
    }

    fn attrs(&self) -> String {
        let dash = self.dash.map_or(String::new(), |d| {
            format!(r#" stroke-dasharray="{}""#, escape(d))
        });
        format!(
            r#" stroke="{}" stroke-width="{}"{dash}"#,
            escape(self.colour),
            num(self.width)
        )
    }
}

/// How text is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Font {
    pub size: f64,
    pub fill: &'static str,
    pub bold: bool,
    /// `start`, `middle` or `end`.
    pub anchor: &'static str,
}

impl Font {
    /// Centred on its point, e.g. a digit in a cell.
    pub const fn centred(size: f64) -> Font {
        Font {
            size,
            fill: "#000",
            bold: false,
            anchor: "middle",
        }
    }

    /// From its point rightwards, e.g. a caption line.
    pub const fn left(size: f64) -> Font {
        Font {
            size,
            fill: "#000",
            bold: false,
            anchor: "start",
        }
    }
}

/// A drawing of a known size, in its own coordinates from (0, 0).
#[derive(Clone, Debug, Default)]
pub struct Svg {
    pub width: f64,
    pub height: f64,
    body: String,
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    /// Starts a group; `class` names what it holds (`clue`, `given`, …), for tests and styling.
    pub fn open_group(&mut self, class: &str) {
        let _ = writeln!(self.body, r#"<g class="{}">"#, escape(class));
    }

    pub fn close_group(&mut self) {
        self.body.push_str("</g>\n");
    }

    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: Option<Stroke>) {
        let stroke = stroke.map_or(String::new(), |s| s.attrs());
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"{stroke}/>"#,
            num(x),
            num(y),
            num(w),
            num(h),
            escape(fill)
        );
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: Stroke) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{} stroke-linecap="square"/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            stroke.attrs()
        );
    }

    pub fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{}"/>"#,
            num(cx),
            num(cy),
            num(r),
            escape(fill)
        );
    }

    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str) {
        let points: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", num(x), num(y)))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" fill="{}"/>"#,
            points.join(" "),
            escape(fill)
        );
    }

    /// One line of text; with a centred font, (x, y) is its centre.
    pub fn text(&mut self, x: f64, y: f64, text: &str, font: Font) {
        let bold = if font.bold {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="{}" dominant-baseline="central"{bold}>{}</text>"#,
            num(x),
            num(y),
            num(font.size),
            escape(font.fill),
            escape(font.anchor),
            escape(text)
        );
    }

    /// The lines between the cells of a `rows × cols` grid of `cell`-sized cells at (x, y):
    /// `stroke(horizontal, r, c)` styles the edge above cell (r, c) (r up to `rows`) or left of
    /// it (c up to `cols`), `None` for no line. Equal neighbours merge into one line, and wider
    /// strokes are drawn last so they cover the thin ones where they cross.
    pub fn grid_lines(
        &mut self,
        x: f64,
        y: f64,
        rows: usize,
        cols: usize,
        cell: f64,
        stroke: impl Fn(bool, usize, usize) -> Option<Stroke>,
    ) {
        let mut lines: Vec<(Stroke, f64, f64, f64, f64)> = Vec::new();
        for horizontal in [true, false] {
            let (outer, inner) = if horizontal {
                (rows + 1, cols)
            } else {
                (cols + 1, rows)
            };
            for i in 0..outer {
                let mut run: Option<(Stroke, usize)> = None;
                for j in 0..=inner {
                    let here = if j < inner {
                        if horizontal {
                            stroke(true, i, j)
                        } else {
                            stroke(false, j, i)
                        }
                    } else {
                        None
                    };
                    if run.map(|(s, _)| Some(s)) != Some(here) {
                        if let Some((s, start)) = run {
                            let (a, b, k) = (start as f64 * cell, j as f64 * cell, i as f64 * cell);
                            lines.push(if horizontal {
                                (s, x + a, y + k, x + b, y + k)
                            } else {
                                (s, x + k, y + a, x + k, y + b)
                            });
                        }
                        run = here.map(|s| (s, j));
                    }
                }
            }
        }
        lines.sort_by(|a, b| a.0.width.total_cmp(&b.0.width));
        for (s, x1, y1, x2, y2) in lines {
            self.line(x1, y1, x2, y2, s);
        }
    }

    /// Draws `inner` here with its top-left corner at (x, y).
    pub fn place(&mut self, x: f64, y: f64, inner: &Svg) {
        let _ = writeln!(
            self.body,
            r#"<g transform="translate({},{})">"#,
            num(x),
            num(y)
        );
        self.body.push_str(&inner.body);
        self.body.push_str("</g>\n");
    }

    /// The standalone document.
    pub fn document(&self) -> String {
        let (w, h) = (num(self.width.ceil()), num(self.height.ceil()));
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>\n{}</svg>\n",
            self.body
        )
    }
}

/// One panel per answer, or the bare puzzle when there is none; with two, each marks the cells
/// where they differ (`differ` lists them by index).
pub fn panels<A>(
    answers: &[A],
    differ: impl Fn(&A, &A) -> Vec<bool>,
    draw: impl Fn(Option<&A>, &[bool]) -> Svg,
) -> Vec<Svg> {
    match answers {
        [] => vec![draw(None, &[])],
        [a] => vec![draw(Some(a), &[])],
        [a, b, ..] => {
            let marked = differ(a, b);
            vec![draw(Some(a), &marked), draw(Some(b), &marked)]
        }
    }
}

/// `panels` side by side, top-aligned, over `caption`'s lines: the whole document.
pub fn compose(panels: &[Svg], caption: &str) -> String {
    let across =
        panels.iter().map(|p| p.width).sum::<f64>() + GAP * panels.len().saturating_sub(1) as f64;
    let tall = panels.iter().map(|p| p.height).fold(0.0, f64::max);
    // Long verdicts (a broken rule's message) wrap at the pictures' width, or 360 px.
    let lines = wrap(
        caption,
        (across.max(360.0) / text_width("x", CAPTION)) as usize,
    );
    let wide = lines
        .iter()
        .map(|l| text_width(l, CAPTION))
        .fold(across, f64::max);
    let mut doc = Svg::new(
        wide + 2.0 * MARGIN,
        tall + 2.0 * MARGIN + LINE * lines.len() as f64,
    );
    let mut x = MARGIN;
    for p in panels {
        doc.place(x, MARGIN, p);
        x += p.width + GAP;
    }
    if !lines.is_empty() {
        doc.open_group("caption");
        for (k, l) in lines.iter().enumerate() {
            doc.text(
                MARGIN,
                MARGIN + tall + LINE * (k as f64 + 0.5),
                l,
                Font::left(CAPTION),
            );
        }
        doc.close_group();
    }
    doc.document()
}

/// `text`'s lines, each broken at spaces into lines of at most `max` characters where it can be.
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut current = String::new();
        for word in line.split(' ') {
            if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > max {
                out.push(std::mem::take(&mut current));
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push(current);
    }
    out
}

/// Marks `marked` cells (indices `r * cols + c`) of a grid at (x, y) with a red outline: where
/// two answers differ.
pub fn mark_cells(svg: &mut Svg, x: f64, y: f64, cols: usize, cell: f64, marked: &[bool]) {
    outline(svg, "differs", x, y, cols, cell, marked);
}

/// Marks the cells a broken rule names, as [`mark_cells`] does (`check --format svg` of an
/// answer that breaks a rule, as pzprjs's Check points at the error).
pub fn mark_broken(svg: &mut Svg, x: f64, y: f64, cols: usize, cell: f64, cells: &[usize]) {
    let mut marked = vec![false; cells.iter().max().map_or(0, |&m| m + 1)];
    cells.iter().for_each(|&i| marked[i] = true);
    outline(svg, "broken", x, y, cols, cell, &marked);
}

/// Marks an explanation step on a grid at (x, y): the cells of its rules tinted blue, the
/// cells it deduces outlined green.
pub fn mark_step(
    svg: &mut Svg,
    x: f64,
    y: f64,
    cols: usize,
    cell: f64,
    rules: &[usize],
    deduced: &[usize],
) {
    if !rules.is_empty() {
        svg.open_group("rules");
        for &i in rules {
            let (r, c) = ((i / cols) as f64, (i % cols) as f64);
            svg.rect(
                x + c * cell,
                y + r * cell,
                cell,
                cell,
                "rgba(40,110,220,0.22)",
                None,
            );
        }
        svg.close_group();
    }
    let mut marked = vec![false; deduced.iter().max().map_or(0, |&m| m + 1)];
    deduced.iter().for_each(|&i| marked[i] = true);
    outline_in(svg, "deduced", "#080", x, y, cols, cell, &marked);
}

fn outline(svg: &mut Svg, class: &str, x: f64, y: f64, cols: usize, cell: f64, marked: &[bool]) {
    outline_in(svg, class, "#d00", x, y, cols, cell, marked);
}

#[allow(clippy::too_many_arguments)]
fn outline_in(
    svg: &mut Svg,
    class: &str,
    colour: &'static str,
    x: f64,
    y: f64,
    cols: usize,
    cell: f64,
    marked: &[bool],
) {
    if !marked.contains(&true) {
        return;
    }
    svg.open_group(class);
    let w = (cell / 10.0).max(2.0);
    for (i, _) in marked.iter().enumerate().filter(|(_, &m)| m) {
        let (r, c) = ((i / cols) as f64, (i % cols) as f64);
        svg.rect(
            x + c * cell + w / 2.0,
            y + r * cell + w / 2.0,
            cell - w,
            cell - w,
            "none",
            Some(Stroke::solid(colour, w)),
        );
    }
    svg.close_group();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_quotes_and_control_characters() {
        assert_eq!(
            escape(r#"a<b>&"c"'d'"#),
            "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;"
        );
        assert_eq!(escape("plain text, 12 × 3 = 36"), "plain text, 12 × 3 = 36");
        assert_eq!(escape("bell\u{7} nul\u{0}"), "bell\u{fffd} nul\u{fffd}");
        assert_eq!(
            escape("&amp;"),
            "&amp;amp;",
            "escaped once more, not taken for an entity"
        );
        let mut s = Svg::new(10.0, 10.0);
        s.text(1.0, 2.0, "</text><script>", Font::centred(5.0));
        let doc = s.document();
        assert!(doc.contains("&lt;/text&gt;&lt;script&gt;"), "{doc}");
        assert!(!doc.contains("<script"), "{doc}");
    }

    #[test]
    fn long_captions_wrap_at_spaces() {
        assert_eq!(wrap("no solution", 40), ["no solution"]);
        assert_eq!(wrap("aaa bbb ccc\n\nd", 7), ["aaa bbb", "ccc", "d"]);
        assert_eq!(wrap("unbreakable-word x", 5), ["unbreakable-word", "x"]);
    }

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
    }

    #[test]
    fn cells_shrink_on_big_boards_within_bounds() {
        assert_eq!(cell_size(9, 9, 1), MAX_CELL);
        assert_eq!(cell_size(100, 100, 1), 20.0);
        assert_eq!(cell_size(300, 300, 1), MIN_CELL);
        assert!(cell_size(40, 40, 2) * 80.0 <= MAX_WIDTH);
    }

    #[test]
    fn grid_lines_merge_runs_and_draw_thick_last() {
        let thin = Stroke::solid("#999", 1.0);
        let thick = Stroke::solid("#000", 3.0);
        let mut s = Svg::new(0.0, 0.0);
        // A 2×2 grid: the frame thick, the inside thin.
        s.grid_lines(0.0, 0.0, 2, 2, 10.0, |h, r, c| {
            Some(if (h && (r == 0 || r == 2)) || (!h && (c == 0 || c == 2)) {
                thick
            } else {
                thin
            })
        });
        let lines: Vec<&str> = s.body.lines().collect();
        assert_eq!(lines.len(), 6, "{}", s.body);
        assert!(lines[..2].iter().all(|l| l.contains(r#"stroke-width="1""#)));
        assert!(lines[2..].iter().all(|l| l.contains(r#"stroke-width="3""#)));
        assert!(
            s.body.contains(r#"<line x1="0" y1="10" x2="20" y2="10""#),
            "{}",
            s.body
        );
    }
}
