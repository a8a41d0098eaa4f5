//! Drawing a grid: nine rows with box separators, or the 81-character line form.

use super::Grid;

/// Rows of digits (`.` for blanks) with `|` and `-` between boxes.
pub fn render(grid: &Grid) -> String {
    let mut out = String::new();
    for (r, row) in grid.iter().enumerate() {
        if r == 3 || r == 6 {
            out.push_str("------+-------+------\n");
        }
        for (c, &d) in row.iter().enumerate() {
            if c == 3 || c == 6 {
                out.push_str(" |");
            }
            if c > 0 {
                out.push(' ');
            }
            out.push(if d == 0 { '.' } else { (b'0' + d) as char });
        }
        out.push('\n');
    }
    out
}

/// The 81 cells on one line, `.` for blanks: the form [`super::parse`] also reads.
pub fn render_line(grid: &Grid) -> String {
    grid.iter()
        .flatten()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect()
}
