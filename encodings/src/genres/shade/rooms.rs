//! Boards divided into rooms (Heyawake, LITS): each cell's room, from a file's labels or a
//! URL's borders, and the borders back for a URL.

use crate::cnf::connect::Graph;

/// The rooms of a board whose cells are labelled: each piece of side-by-side cells with one
/// label is a room (a label written on two pieces names two rooms), numbered in reading order
/// of their first cells.
pub fn of_labels<T: PartialEq>(rows: usize, cols: usize, label: &[T]) -> Vec<usize> {
    pieces_where(&Graph::grid(rows, cols), |a, b| label[a] == label[b])
}

/// The rooms the borders of [`crate::format::url::decode_borders`] leave, numbered as
/// [`of_labels`] numbers them.
pub fn of_borders(rows: usize, cols: usize, right: &[bool], below: &[bool]) -> Vec<usize> {
    pieces_where(&Graph::grid(rows, cols), |a, b| {
        let (a, b) = (a.min(b), a.max(b));
        if b == a + 1 && a / cols == b / cols {
            !right[(a / cols) * (cols - 1) + a % cols]
        } else {
            !below[a]
        }
    })
}

/// A URL's border that divides no rooms (both its cells in one room, joined around it), as
/// `(a, b)` cells, with where its bit is among the borders' (the right group first): pzprjs
/// keeps it as a wall inside the room, which puzzle-sat's rooms have no place for.
pub fn stray_border(
    cols: usize,
    right: &[bool],
    below: &[bool],
    room: &[usize],
) -> Option<(usize, usize, usize)> {
    let across = right.iter().enumerate().filter(|(_, &b)| b).map(|(k, _)| {
        let a = (k / (cols - 1)) * cols + k % (cols - 1);
        (a, a + 1, k)
    });
    let down = below
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(k, _)| (k, k + cols, right.len() + k));
    across.chain(down).find(|&(a, b, _)| room[a] == room[b])
}

/// The borders between the rooms, as [`crate::format::url::encode_borders`] takes them.
pub fn borders(rows: usize, cols: usize, room: &[usize]) -> (Vec<bool>, Vec<bool>) {
    let right = (0..rows)
        .flat_map(|r| (0..cols - 1).map(move |c| r * cols + c))
        .map(|i| room[i] != room[i + 1])
        .collect();
    let below = (0..rows.saturating_sub(1) * cols)
        .map(|i| room[i] != room[i + cols])
        .collect();
    (right, below)
}

/// The pieces of `graph` when only neighbours `joined` are joined, numbered in reading order.
fn pieces_where(graph: &Graph, joined: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    let n = graph.len();
    let mut room = vec![usize::MAX; n];
    let mut count = 0;
    for s in 0..n {
        if room[s] != usize::MAX {
            continue;
        }
        room[s] = count;
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            for &u in &graph.neighbours[v] {
                if room[u] == usize::MAX && joined(v, u) {
                    room[u] = count;
                    stack.push(u);
                }
            }
        }
        count += 1;
    }
    room
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_borders_give_the_same_rooms() {
        // a a b / c a b: the a's are one room, b one, c one.
        let room = of_labels(2, 3, &['a', 'a', 'b', 'c', 'a', 'b']);
        assert_eq!(room, [0, 0, 1, 2, 0, 1]);
        let (right, below) = borders(2, 3, &room);
        assert_eq!(right, [false, true, true, true]);
        assert_eq!(below, [true, false, false]);
        assert_eq!(of_borders(2, 3, &right, &below), room);
        // One label on two pieces: two rooms.
        assert_eq!(of_labels(1, 3, &['a', 'b', 'a']), [0, 1, 2]);
    }
}
