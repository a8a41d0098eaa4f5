//! Valid grids for tests: a fixed solution shuffled by the moves that keep a sudoku valid.

use super::Grid;

/// `n` valid grids, deterministic (a small LCG drives the shuffles).
pub fn shuffled_grids(n: usize) -> Vec<Grid> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |m: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % m
    };
    let mut grids = Vec::new();
    for _ in 0..n {
        let mut g: Grid =
            std::array::from_fn(|r| std::array::from_fn(|c| ((r * 3 + r / 3 + c) % 9 + 1) as u8));
        for _ in 0..20 {
            let band = next(3) * 3;
            match next(5) {
                0 => g.swap(band + next(3), band + next(3)),
                1 => {
                    let (a, b) = (next(3) * 3, band);
                    for k in 0..3 {
                        g.swap(a + k, b + k);
                    }
                }
                2 => {
                    let (a, b) = (band + next(3), band + next(3));
                    g.iter_mut().for_each(|row| row.swap(a, b));
                }
                3 => {
                    let mut t = g;
                    for r in 0..9 {
                        for c in 0..9 {
                            t[r][c] = g[c][r];
                        }
                    }
                    g = t;
                }
                _ => {
                    let (a, b) = (next(9) as u8 + 1, next(9) as u8 + 1);
                    g.iter_mut().flatten().for_each(|d| {
                        *d = if *d == a {
                            b
                        } else if *d == b {
                            a
                        } else {
                            *d
                        };
                    });
                }
            }
        }
        grids.push(g);
    }
    grids
}
