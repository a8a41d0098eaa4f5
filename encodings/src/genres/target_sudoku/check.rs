//! The independent validator: checks a completed grid against the givens and the sudoku rules
//! directly, sharing no code with the encoder.

use super::Grid;
use std::fmt;

/// The first rule a grid breaks, with 1-based positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    NotADigit {
        row: usize,
        col: usize,
        value: u8,
    },
    GivenChanged {
        row: usize,
        col: usize,
        given: u8,
        found: u8,
    },
    Repeated {
        house: &'static str,
        index: usize,
        digit: u8,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Violation::NotADigit { row, col, value } => {
                write!(f, "row {row} column {col}: {value} is not a digit 1-9")
            }
            Violation::GivenChanged {
                row,
                col,
                given,
                found,
            } => {
                write!(
                    f,
                    "row {row} column {col}: the given {given} was changed to {found}"
                )
            }
            Violation::Repeated {
                house,
                index,
                digit,
            } => write!(f, "{house} {index} holds {digit} twice"),
        }
    }
}

impl Violation {
    /// The cells (row-major indices from 0) it names in `grid`: the one cell, or the house's
    /// cells holding the repeated digit.
    pub fn cells(&self, grid: &Grid) -> Vec<usize> {
        match *self {
            Violation::NotADigit { row, col, .. } | Violation::GivenChanged { row, col, .. } => {
                vec![(row - 1) * 9 + col - 1]
            }
            Violation::Repeated {
                house,
                index,
                digit,
            } => {
                let i = index - 1;
                let in_house = |r: usize, c: usize| match house {
                    "row" => r == i,
                    "column" => c == i,
                    _ => r / 3 * 3 + c / 3 == i,
                };
                (0..81)
                    .filter(|&k| in_house(k / 9, k % 9) && grid[k / 9][k % 9] == digit)
                    .collect()
            }
        }
    }
}

/// Where a kind of house has its cells: `(i, k)` to the `k`-th cell of house `i` as (row,
/// column).
type HouseCell = fn(usize, usize) -> (usize, usize);

pub fn check(givens: &Grid, grid: &Grid) -> Result<(), Violation> {
    for r in 0..9 {
        for c in 0..9 {
            let v = grid[r][c];
            if !(1..=9).contains(&v) {
                return Err(Violation::NotADigit {
                    row: r + 1,
                    col: c + 1,
                    value: v,
                });
            }
            if givens[r][c] != 0 && givens[r][c] != v {
                return Err(Violation::GivenChanged {
                    row: r + 1,
                    col: c + 1,
                    given: givens[r][c],
                    found: v,
                });
            }
        }
    }
    let houses: [(&'static str, HouseCell); 3] = [
        ("row", |i, k| (i, k)),
        ("column", |i, k| (k, i)),
        ("box", |i, k| (i / 3 * 3 + k / 3, i % 3 * 3 + k % 3)),
    ];
    for (house, cell) in houses {
        for i in 0..9 {
            let mut seen = [false; 10];
            for k in 0..9 {
                let (r, c) = cell(i, k);
                let d = grid[r][c];
                if std::mem::replace(&mut seen[d as usize], true) {
                    return Err(Violation::Repeated {
                        house,
                        index: i + 1,
                        digit: d,
                    });
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::shuffled_grids;
    use super::*;

    #[test]
    fn accepts_valid_grids_and_names_each_broken_rule() {
        let grid = shuffled_grids(1).pop().unwrap();
        let mut givens = [[0u8; 9]; 9];
        givens[2][5] = grid[2][5];
        assert_eq!(check(&givens, &grid), Ok(()));

        // Swapping two cells of a row keeps the row valid but breaks a column.
        let mut swapped = grid;
        swapped[0].swap(0, 4);
        assert!(matches!(
            check(&[[0; 9]; 9], &swapped),
            Err(Violation::Repeated {
                house: "column",
                ..
            })
        ));

        // Swapping two rows of different bands keeps rows and columns but breaks a box.
        let mut rows = grid;
        rows.swap(0, 3);
        assert!(matches!(
            check(&[[0; 9]; 9], &rows),
            Err(Violation::Repeated { house: "box", .. })
        ));

        let mut changed = givens;
        changed[2][5] = grid[2][5] % 9 + 1;
        assert_eq!(
            check(&changed, &grid),
            Err(Violation::GivenChanged {
                row: 3,
                col: 6,
                given: changed[2][5],
                found: grid[2][5]
            })
        );

        let mut blank = grid;
        blank[8][8] = 0;
        assert_eq!(
            check(&[[0; 9]; 9], &blank),
            Err(Violation::NotADigit {
                row: 9,
                col: 9,
                value: 0
            })
        );

        let mut dup = grid;
        dup[4][4] = dup[4][5];
        assert!(matches!(
            check(&[[0; 9]; 9], &dup),
            Err(Violation::Repeated {
                house: "row",
                index: 5,
                ..
            })
        ));
    }
}
