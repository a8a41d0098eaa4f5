//! LITS end to end: janko.at's puzzles and puzz.link URLs from other projects through the
//! binary, counts and hints against a brute-force search on random small boards, the
//! validator's verdicts, bad input.

mod common;

use common::{pieces, run};
use std::collections::BTreeSet;
use std::fs;

#[test]
fn every_janko_lits_has_its_one_solution() {
    let n = common::every_bundled_is_unique("lits");
    assert!(n >= 60, "{n} puzzles");
}

/// Puzzle URLs other projects test with, with where they were read and the verdict (cspuz_rs,
/// reading the same URLs with its own codec, finds the same: its backbone decides every cell of
/// the first two and 19 of the third's 36, as our hints do).
const URLS: [(&str, &str, bool); 3] = [
    // swaroopg92/penpa-edit's puzz.link import tests, "LITS 1" to "LITS 3".
    (
        "penpa-1",
        "https://puzz.link/p?lits/12/8/11084o2iif51gg8040vf3vu577erlpvfnvu",
        true,
    ),
    (
        "penpa-2",
        "https://puzz.link/p?lits/8/8/5ajmi9mhai2g514bdn32f340",
        true,
    ),
    (
        "penpa-3",
        "https://puzz.link/p?lits/6/6/lldoa4043q6c",
        false,
    ),
];

#[test]
fn puzz_link_urls_are_solved_and_written_back_the_same() {
    for (from, url, unique) in URLS {
        let r = run(&["solve", url, "--unique"], None);
        let (code, verdict) = if unique {
            (0, "unique\n")
        } else {
            (1, "not unique: two different solutions\n")
        };
        assert_eq!(r.code, code, "{from}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.ends_with(verdict), "{from}: {}", r.stdout);
        let r = run(&["solve", "lits", url, "--format", "url"], None);
        assert_eq!(r.stdout.trim(), url, "{from}: {}", r.stderr);
    }
    // A border inside a room (pzprjs keeps it as a wall there) is refused, not dropped.
    let r = run(&["solve", "https://puzz.link/p?lits/5/3/00n0"], None);
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "1:32: the border between row 3 column 3 and row 3 column 4 divides no rooms"
        ),
        "{}",
        r.stderr
    );
    let r = run(&["solve", URLS[2].1, "--hints"], None);
    assert!(
        r.stdout
            .ends_with("hints: 19 of 36 cells are the same in every solution\n"),
        "{}",
        r.stdout
    );
}

/// The letter of four cells (row, column), by comparing their normal form under the eight
/// turns and mirrors with the five tetrominoes; `None` for no tetromino or the square.
fn letter(cells: &[(i32, i32)]) -> Option<char> {
    let norm = |s: &[(i32, i32)]| -> BTreeSet<(i32, i32)> {
        let r0 = s.iter().map(|p| p.0).min().unwrap();
        let c0 = s.iter().map(|p| p.1).min().unwrap();
        s.iter().map(|&(r, c)| (r - r0, c - c0)).collect()
    };
    let mut forms = BTreeSet::new();
    let mut s: Vec<(i32, i32)> = cells.to_vec();
    for _ in 0..4 {
        s = s.iter().map(|&(r, c)| (c, -r)).collect();
        forms.insert(norm(&s));
        let mirrored: Vec<(i32, i32)> = s.iter().map(|&(r, c)| (r, -c)).collect();
        forms.insert(norm(&mirrored));
    }
    let shapes = [
        ('I', [(0, 0), (0, 1), (0, 2), (0, 3)]),
        ('L', [(0, 0), (1, 0), (2, 0), (2, 1)]),
        ('T', [(0, 0), (0, 1), (0, 2), (1, 1)]),
        ('S', [(0, 1), (0, 2), (1, 0), (1, 1)]),
    ];
    shapes
        .iter()
        .find(|(_, shape)| forms.contains(&norm(shape)))
        .map(|&(l, _)| l)
}

/// Every shading the rules keep: each room's tetromino chosen among every set of four of its
/// cells that [`letter`] names, then the other rules checked.
fn brute_force(rows: usize, cols: usize, room: &[usize]) -> Vec<Vec<bool>> {
    let n = rows * cols;
    let count = room.iter().max().map_or(0, |&r| r + 1);
    let mut choices: Vec<Vec<(Vec<usize>, char)>> = Vec::new();
    for k in 0..count {
        let cells: Vec<usize> = (0..n).filter(|&i| room[i] == k).collect();
        let mut options = Vec::new();
        let m = cells.len();
        for a in 0..m {
            for b in a + 1..m {
                for c in b + 1..m {
                    for d in c + 1..m {
                        let four = [cells[a], cells[b], cells[c], cells[d]];
                        let at: Vec<(i32, i32)> = four
                            .iter()
                            .map(|&i| ((i / cols) as i32, (i % cols) as i32))
                            .collect();
                        let joined = pieces(
                            rows,
                            cols,
                            &(0..n).map(|i| four.contains(&i)).collect::<Vec<_>>(),
                        )
                        .len()
                            == 1;
                        if let Some(l) = letter(&at).filter(|_| joined) {
                            options.push((four.to_vec(), l));
                        }
                    }
                }
            }
        }
        choices.push(options);
    }
    let mut out = Vec::new();
    let mut pick = vec![0; count];
    if choices.iter().any(|c| c.is_empty()) {
        return out;
    }
    loop {
        let mut shaded = vec![false; n];
        let mut shape = vec![' '; n];
        for k in 0..count {
            let (cells, l) = &choices[k][pick[k]];
            for &i in cells {
                shaded[i] = true;
                shape[i] = *l;
            }
        }
        let block = (0..rows.saturating_sub(1)).any(|r| {
            (0..cols.saturating_sub(1)).any(|c| {
                let i = r * cols + c;
                shaded[i] && shaded[i + 1] && shaded[i + cols] && shaded[i + cols + 1]
            })
        });
        let alike = (0..n).any(|i| {
            let right = i % cols + 1 < cols
                && room[i] != room[i + 1]
                && shaded[i]
                && shaded[i + 1]
                && shape[i] == shape[i + 1];
            let down = i + cols < n
                && room[i] != room[i + cols]
                && shaded[i]
                && shaded[i + cols]
                && shape[i] == shape[i + cols];
            right || down
        });
        if !block && !alike && pieces(rows, cols, &shaded).len() <= 1 {
            out.push(shaded);
        }
        // The next choice, as an odometer.
        let mut k = 0;
        loop {
            if k == count {
                return out;
            }
            pick[k] += 1;
            if pick[k] < choices[k].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
    }
}

/// Random boards up to 4×5 cut into rooms grown from random seeds; the file labels them.
fn random_boards(count: usize, seed: u64) -> Vec<(usize, usize, Vec<usize>, String)> {
    let mut seed = seed;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let mut boards = Vec::new();
    while boards.len() < count {
        let (rows, cols) = (2 + next(3) as usize, 3 + next(3) as usize);
        let n = rows * cols;
        let rooms = 1 + n / (4 + next(3) as usize);
        let mut label = vec![usize::MAX; n];
        for k in 0..rooms {
            label[next(n as u64) as usize] = k;
        }
        // Grow: an unlabelled cell beside a labelled one takes its label, at random.
        while label.contains(&usize::MAX) {
            let i = next(n as u64) as usize;
            if label[i] != usize::MAX {
                continue;
            }
            let near: Vec<usize> = [
                (i >= cols).then(|| i - cols),
                (!i.is_multiple_of(cols)).then(|| i - 1),
                (i % cols + 1 < cols).then(|| i + 1),
                (i + cols < n).then(|| i + cols),
            ]
            .into_iter()
            .flatten()
            .filter(|&j| label[j] != usize::MAX)
            .collect();
            if !near.is_empty() {
                label[i] = label[near[next(near.len() as u64) as usize]];
            }
        }
        // Rooms are the pieces of one label, numbered in reading order; a board with a room
        // too small for a tetromino is drawn again (it has no solution, which a few of the
        // boards kept show anyway).
        let mut room = vec![usize::MAX; n];
        let mut k = 0;
        for s in 0..n {
            if room[s] == usize::MAX {
                let same: Vec<bool> = label.iter().map(|&l| l == label[s]).collect();
                for i in pieces(rows, cols, &same)
                    .into_iter()
                    .find(|p| p.contains(&s))
                    .unwrap()
                {
                    room[i] = k;
                }
                k += 1;
            }
        }
        if (0..k).any(|r| room.iter().filter(|&&x| x == r).count() < 4) {
            continue;
        }
        let text = format!("{rows} {cols}\n")
            + &(0..rows)
                .map(|r| {
                    (0..cols)
                        .map(|c| char::from(b'a' + (label[r * cols + c] % 26) as u8).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                        + "\n"
                })
                .collect::<String>();
        boards.push((rows, cols, room, text));
    }
    boards
}

#[test]
fn counts_agree_with_brute_force_on_random_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("b.txt");
    let (mut unique, mut several, mut none) = (0, 0, 0);
    for (rows, cols, room, text) in random_boards(300, 48) {
        let want = brute_force(rows, cols, &room).len();
        assert_eq!(common::count("lits", &file, &text), want, "{text}");
        match want {
            0 => none += 1,
            1 => unique += 1,
            _ => several += 1,
        }
    }
    // Random rooms rarely make a unique LITS (3 of these 300 do); the janko.at puzzles are
    // where uniqueness is tested.
    assert!(
        unique >= 1 && several >= 50 && none >= 50,
        "{unique} unique, {several} several, {none} none"
    );
}

#[test]
fn hints_are_what_every_solution_shares() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let mut tried = 0;
    for (rows, cols, room, text) in random_boards(300, 49) {
        let all = brute_force(rows, cols, &room);
        if all.len() < 2 {
            continue;
        }
        fs::write(&file, &text).unwrap();
        let r = run(&["solve", "lits", file.to_str().unwrap(), "--hints"], None);
        assert_eq!(r.code, 0, "{text}{}", r.stderr);
        let want: String = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(
                        |c| match all.iter().map(|s| s[r * cols + c]).collect::<BTreeSet<_>>() {
                            s if s.len() == 2 => "?",
                            s if s.contains(&true) => "#",
                            _ => ".",
                        },
                    )
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        assert!(
            r.stdout.starts_with(&want),
            "{text}{}want\n{want}",
            r.stdout
        );
        tried += 1;
    }
    assert!(tried >= 30, "{tried} boards with several solutions");
}

#[test]
fn check_names_the_broken_rule_and_bad_input_exits_2() {
    // Rooms: an L (a), a J (b), a T (c), each with no room to spare.
    common::check_verdicts(
        "lits",
        "a a a b\na c b b\nc c c b\n",
        &[
            (
                "# # # .\n. . . .\n. . . .\n",
                1,
                "the room from row 1 column 1 has 3 shaded cells that are no L, I, T or S",
            ),
            (
                "# # # #\n# # # #\n# # # #\n",
                1,
                "a 2×2 block of shaded cells with its top-left at row 1 column 1",
            ),
            ("L L L L\nL T L L\nT T T L\n", 1, "a 2×2 block"),
        ],
    );
    common::check_verdicts(
        "lits",
        "1 1 1 1 2 2 2 2\n",
        &[
            (
                "# # # # # # # #\n",
                1,
                "two I tetrominoes touch at row 1 column 4 and row 1 column 5",
            ),
            ("I I I I I I I I\n", 1, "two I tetrominoes touch"),
        ],
    );
    common::check_verdicts(
        "lits",
        "1 1 1 1 @ 2 2 2 2\n",
        &[
            (
                "# # # # . # # # #\n",
                1,
                "the shaded cells are not one piece",
            ),
            (
                "# # # # # # # # #\n",
                1,
                "row 1 column 5: a cell outside every room is shaded",
            ),
        ],
    );
    // janko.at's answers name each shaded cell's letter.
    common::check_verdicts("lits", "1 1 1 1\n", &[("I I I I\n", 0, "valid")]);
    let example = common::data_dir("lits").join("janko-0001-6x7.txt");
    let sol = fs::read_to_string(example.with_extension("sol")).unwrap();
    common::check_verdicts(
        "lits",
        &fs::read_to_string(&example).unwrap(),
        &[(&sol, 0, "valid")],
    );
    common::bad_files_name_their_place(
        "lits",
        &[
            ("a a a\na a\n", "2:4"),
            ("3 3\na a a\na a a\n", "1:1"),
            ("", "1:1"),
        ],
    );
}
