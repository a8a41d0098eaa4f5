//! Drawing a partition: a label grid, box-drawing lines, or a list of rectangles.

use super::{Area, Solution};

/// The seed's labels, in order of first appearance (row-major).
pub const LABELS: &str = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// One character per cell, spaces on holes. Up to 61 rectangles, one label each, in order of
/// first appearance, as the seed writes them; beyond, labels are reused, never by two
/// rectangles that touch along an edge, so each rectangle is still one region of its label
/// (which is how `check` reads it). The rectangles' contact graph is planar, hence 5-degenerate:
/// colouring in smallest-last order needs at most 6 labels.
pub fn render_labels<A: Area + ?Sized>(area: &A, sol: &Solution) -> String {
    let labels: Vec<char> = LABELS.chars().collect();
    // Sorted by top-left cell, which is each rectangle's first cell in row-major order.
    let owner = owners(area, sol);
    let label: Vec<usize> = if sol.len() <= labels.len() {
        (0..sol.len()).collect()
    } else {
        colour(area, sol.len(), &owner)
    };
    let mut out = String::new();
    for r in 0..area.rows() {
        for c in 0..area.cols() {
            out.push(owner[r * area.cols() + c].map_or(' ', |k| labels[label[k]]));
        }
        out.push('\n');
    }
    out
}

/// A colour per rectangle, neighbours (sharing an edge) coloured apart, from at most 6.
pub fn colour<A: Area + ?Sized>(area: &A, n: usize, owner: &[Option<usize>]) -> Vec<usize> {
    let cols = area.cols();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..owner.len() {
        let Some(a) = owner[i] else { continue };
        let right = (i % cols + 1 < cols).then(|| owner[i + 1]).flatten();
        let below = owner.get(i + cols).copied().flatten();
        for b in [right, below].into_iter().flatten() {
            if a != b {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
    }
    for list in &mut adj {
        list.sort_unstable();
        list.dedup();
    }
    // Smallest-last order: repeatedly take a vertex of least remaining degree (bucket queue).
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let top = degree.iter().copied().max().unwrap_or(0);
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); top + 1];
    for (v, &d) in degree.iter().enumerate() {
        buckets[d].push(v);
    }
    let mut removed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut low = 0;
    while order.len() < n {
        low = low.min(top);
        let Some(v) = buckets[low].pop() else {
            low += 1;
            continue;
        };
        if removed[v] || degree[v] != low {
            continue; // a stale entry: v moved to a lower bucket
        }
        removed[v] = true;
        order.push(v);
        for &u in &adj[v] {
            if !removed[u] {
                degree[u] -= 1;
                buckets[degree[u]].push(u);
                low = low.min(degree[u]);
            }
        }
    }
    let mut colour = vec![usize::MAX; n];
    for &v in order.iter().rev() {
        let used: Vec<usize> = adj[v].iter().map(|&u| colour[u]).collect();
        colour[v] = (0..)
            .find(|c| !used.contains(c))
            .expect("some colour is free");
    }
    colour
}

/// `row col height width` per rectangle, 0-based, one per line.
pub fn render_rects(sol: &Solution) -> String {
    sol.iter()
        .map(|r| format!("{} {} {} {}\n", r.row, r.col, r.height, r.width))
        .collect()
}

/// The board with every rectangle outlined in box-drawing lines and each cell's `mark` (a clue,
/// up to three characters; empty for none) in place.
pub fn render_box<A: Area + ?Sized>(
    area: &A,
    sol: &Solution,
    mark: impl Fn(usize) -> String,
) -> String {
    render_regions(area, &owners(area, sol), mark)
}

/// [`render_box`] of any regions: the cells of equal `owner` (`None` off the board) outlined
/// together.
pub fn render_regions<A: Area + ?Sized>(
    area: &A,
    owner: &[Option<usize>],
    mark: impl Fn(usize) -> String,
) -> String {
    let (rows, cols) = (area.rows(), area.cols());
    let own = |r: isize, c: isize| -> Option<usize> {
        if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
            None
        } else {
            owner[r as usize * cols + c as usize]
        }
    };
    // Edge above cell (r, c) / left of cell (r, c), for r ≤ rows, c ≤ cols.
    let h_edge = |r: isize, c: isize| (0..cols as isize).contains(&c) && own(r - 1, c) != own(r, c);
    let v_edge = |r: isize, c: isize| (0..rows as isize).contains(&r) && own(r, c - 1) != own(r, c);
    let junction = |r: isize, c: isize| {
        let (up, down, left, right) = (
            v_edge(r - 1, c),
            v_edge(r, c),
            h_edge(r, c - 1),
            h_edge(r, c),
        );
        match (up, down, left, right) {
            (false, false, false, false) => ' ',
            (true, true, false, false) => '│',
            (false, false, true, true) => '─',
            (false, true, false, true) => '┌',
            (false, true, true, false) => '┐',
            (true, false, false, true) => '└',
            (true, false, true, false) => '┘',
            (true, true, false, true) => '├',
            (true, true, true, false) => '┤',
            (false, true, true, true) => '┬',
            (true, false, true, true) => '┴',
            (true, true, true, true) => '┼',
            (true, false, false, false) => '╵',
            (false, true, false, false) => '╷',
            (false, false, true, false) => '╴',
            (false, false, false, true) => '╶',
        }
    };
    let mut out = String::new();
    for r in 0..=rows as isize {
        let mut line = String::new();
        for c in 0..=cols as isize {
            line.push(junction(r, c));
            if c < cols as isize {
                line.push_str(if h_edge(r, c) { "───" } else { "   " });
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if r == rows as isize {
            break;
        }
        let mut line = String::new();
        for c in 0..=cols as isize {
            line.push(if v_edge(r, c) { '│' } else { ' ' });
            if c < cols as isize {
                let m = mark(r as usize * cols + c as usize);
                // Three characters fit between walls; a longer mark is cut short (the drawing
                // is for reading; `rects` and the label grid are exact).
                let m = if m.chars().count() > 3 {
                    m.chars().take(2).collect::<String>() + "…"
                } else {
                    m
                };
                line.push_str(&format!("{m:^3}"));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The index of the rectangle covering each cell.
pub fn owners<A: Area + ?Sized>(area: &A, sol: &Solution) -> Vec<Option<usize>> {
    let mut owner = vec![None; area.rows() * area.cols()];
    for (k, rect) in sol.iter().enumerate() {
        for (r, c) in rect.cells() {
            owner[r * area.cols() + c] = Some(k);
        }
    }
    owner
}
