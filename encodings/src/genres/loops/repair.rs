//! Makes one loop of a model's several, for `--hints`. The backbone search leaves "one loop"
//! to cuts, and on a board with few clues nearly every model the solver offers is a handful of
//! loops: each costs a call and drops nothing. Most of them are a few steps from an answer.
//! On a planar grid, edges with two or none at every node are the border of a set of faces
//! (the cells between four nodes); one loop is the border of a set that is connected, has no
//! hole and no two faces meeting only at a corner. So the repair joins the set's pieces along
//! shortest paths of faces, fills its holes, and fills a corner touch, and then asks the
//! genre's validator. Anything it returns the validator accepted: an answer, found sooner.

use super::Net;
use std::collections::VecDeque;

/// The faces of a net of `rows × cols` nodes: `(rows − 1) × (cols − 1)`.
struct Faces {
    rows: usize,
    cols: usize,
}

impl Faces {
    fn len(&self) -> usize {
        self.rows * self.cols
    }

    fn neighbours(&self, f: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = (f / self.cols, f % self.cols);
        let up = (r > 0).then(|| f - self.cols);
        let down = (r + 1 < self.rows).then(|| f + self.cols);
        let left = (c > 0).then(|| f - 1);
        let right = (c + 1 < self.cols).then(|| f + 1);
        [up, down, left, right].into_iter().flatten()
    }

    fn on_border(&self, f: usize) -> bool {
        let (r, c) = (f / self.cols, f % self.cols);
        r == 0 || c == 0 || r + 1 == self.rows || c + 1 == self.cols
    }

    /// The pieces (4-connected) of the faces `member` says.
    fn pieces(&self, member: &[bool], want: bool) -> Vec<Vec<usize>> {
        let mut seen = vec![false; self.len()];
        let mut pieces = Vec::new();
        for start in 0..self.len() {
            if member[start] != want || seen[start] {
                continue;
            }
            seen[start] = true;
            let mut piece = vec![start];
            let mut k = 0;
            while k < piece.len() {
                let f = piece[k];
                k += 1;
                for g in self.neighbours(f) {
                    if member[g] == want && !seen[g] {
                        seen[g] = true;
                        piece.push(g);
                    }
                }
            }
            pieces.push(piece);
        }
        pieces
    }
}

/// Edges `chosen` (two or none at every node) made one loop, or `None`; the caller validates.
pub fn one_loop(net: &Net, chosen: &[bool]) -> Option<Vec<bool>> {
    if net.rows < 2 || net.cols < 2 {
        return None;
    }
    let faces = Faces {
        rows: net.rows - 1,
        cols: net.cols - 1,
    };
    // Inside a face when an odd number of chosen vertical edges lie left of it in its row.
    let mut inside = vec![false; faces.len()];
    for r in 0..faces.rows {
        let mut odd = false;
        for c in 0..faces.cols {
            let k = net.down[r * net.cols + c]?;
            odd ^= chosen[k];
            inside[r * faces.cols + c] = odd;
        }
    }
    // Each round joins, fills or mends; a bounded number, as each adds faces.
    for _ in 0..faces.len() + 1 {
        let pieces = faces.pieces(&inside, true);
        if pieces.is_empty() {
            return None;
        }
        if pieces.len() > 1 {
            join(&faces, &mut inside, &pieces[0]);
            continue;
        }
        let holes: Vec<Vec<usize>> = faces
            .pieces(&inside, false)
            .into_iter()
            .filter(|p| !p.iter().any(|&f| faces.on_border(f)))
            .collect();
        if !holes.is_empty() {
            holes.iter().flatten().for_each(|&f| inside[f] = true);
            continue;
        }
        if !mend_corner(&faces, &mut inside) {
            return Some(border(net, &faces, &inside));
        }
    }
    None
}

/// Adds the faces of a shortest path (through faces outside) from `piece` to another piece.
fn join(faces: &Faces, inside: &mut [bool], piece: &[usize]) {
    let mut from = vec![usize::MAX; faces.len()];
    let mut queue: VecDeque<usize> = piece.iter().copied().collect();
    piece.iter().for_each(|&f| from[f] = f);
    while let Some(f) = queue.pop_front() {
        for g in faces.neighbours(f) {
            if from[g] != usize::MAX {
                continue;
            }
            from[g] = f;
            if inside[g] {
                // Reached another piece: the faces walked through join it.
                let mut h = from[g];
                while !inside[h] {
                    inside[h] = true;
                    h = from[h];
                }
                return;
            }
            queue.push_back(g);
        }
    }
}

/// Fills one face where two inside faces meet only at a corner; whether it found one.
fn mend_corner(faces: &Faces, inside: &mut [bool]) -> bool {
    for r in 0..faces.rows.saturating_sub(1) {
        for c in 0..faces.cols.saturating_sub(1) {
            let f = r * faces.cols + c;
            let [a, b, d, e] = [f, f + 1, f + faces.cols, f + faces.cols + 1];
            if inside[a] && inside[e] && !inside[b] && !inside[d] {
                inside[b] = true;
                return true;
            }
            if inside[b] && inside[d] && !inside[a] && !inside[e] {
                inside[a] = true;
                return true;
            }
        }
    }
    false
}

/// The edges between a face inside and one outside (or off the grid).
fn border(net: &Net, faces: &Faces, inside: &[bool]) -> Vec<bool> {
    let at = |r: Option<usize>, c: Option<usize>| match (r, c) {
        (Some(r), Some(c)) if r < faces.rows && c < faces.cols => inside[r * faces.cols + c],
        _ => false,
    };
    net.edges
        .iter()
        .map(|&(u, v)| {
            let (r, c) = (u / net.cols, u % net.cols);
            if v == u + 1 {
                // Horizontal: the faces above and below it.
                at(r.checked_sub(1), Some(c)) != at(Some(r), Some(c))
            } else {
                at(Some(r), c.checked_sub(1)) != at(Some(r), Some(c))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(net: &Net, chosen: &mut [bool], r: usize, c: usize) {
        let v = r * net.cols + c;
        for k in [
            net.right[v],
            net.down[v],
            net.right[v + net.cols],
            net.down[v + 1],
        ] {
            chosen[k.unwrap()] = true;
        }
    }

    fn loops(net: &Net, chosen: &[bool]) -> usize {
        crate::cnf::connect::loop_cuts(&net.graph, chosen)
            .len()
            .min(1)
            + 1
    }

    #[test]
    fn two_squares_apart_become_one_loop() {
        let net = Net::new(5, 6);
        let mut chosen = vec![false; net.edges.len()];
        square(&net, &mut chosen, 0, 0);
        square(&net, &mut chosen, 3, 4);
        let fixed = one_loop(&net, &chosen).unwrap();
        assert_eq!(loops(&net, &fixed), 1);
        // Two or none at every node.
        for v in 0..net.graph.len() {
            let d = (0..net.edges.len())
                .filter(|&k| fixed[k] && (net.edges[k].0 == v || net.edges[k].1 == v))
                .count();
            assert!(d == 0 || d == 2, "node {v} has {d}");
        }
    }

    #[test]
    fn a_loop_inside_a_loop_is_filled() {
        let net = Net::new(6, 6);
        let mut chosen = vec![false; net.edges.len()];
        // The border of the 5×5 faces, and a square inside.
        for v in 0..net.graph.len() {
            let (r, c) = (v / 6, v % 6);
            if (r == 0 || r == 5) && c < 5 {
                chosen[net.right[v].unwrap()] = true;
            }
            if (c == 0 || c == 5) && r < 5 {
                chosen[net.down[v].unwrap()] = true;
            }
        }
        square(&net, &mut chosen, 2, 2);
        let fixed = one_loop(&net, &chosen).unwrap();
        assert_eq!(fixed.iter().filter(|&&x| x).count(), 20);
    }
}
