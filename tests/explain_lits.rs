//! `explain lits` checked by code that shares nothing with the encoder (tests/explain.rs's
//! pattern): each step's rules are read back from their names into constraints of this test's
//! own over the shading and each room's letters, and every shading of small random boards
//! confirms that the rules and the facts a step lists force every deduction, that removing any
//! one rule of a larger step marked minimal lets its first deduction fail, and that the steps
//! reach exactly what every solution shares.

mod common;

use common::explained::{check_steps, explain_json, json_of, says_unique, Brute};
use common::run;
use encodings::rng::Rng;
use std::collections::HashMap;

const OUTSIDE: usize = usize::MAX;
const LETTERS: [&str; 4] = ["an L", "an I", "a T", "an S"];

/// A fact: a cell shaded, or a room's letter (room, 0..4 for L, I, T, S).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Var {
    Cell(usize),
    Letter(usize, usize),
}

#[derive(Clone, Debug)]
enum Rule {
    /// The room's shaded cells are one tetromino (not the square), its letters saying which.
    Room(usize),
    /// Where a shaded cell of one room is next to a shaded cell of the other, no letter is
    /// both rooms'.
    Touch(usize, usize),
    /// The 2×2 block from this cell is not all shaded.
    Block(usize),
    Outside(usize),
    Connected,
}

struct Board {
    rows: usize,
    cols: usize,
    room: Vec<usize>,
}

/// The letter of four cells (0..4 for L, I, T, S), or `None`: by the eight turns and mirrors
/// of each shape.
fn letter(cells: &[(usize, usize)]) -> Option<usize> {
    let norm = |v: &[(i32, i32)]| {
        let r0 = v.iter().map(|p| p.0).min().unwrap();
        let c0 = v.iter().map(|p| p.1).min().unwrap();
        let mut w: Vec<(i32, i32)> = v.iter().map(|p| (p.0 - r0, p.1 - c0)).collect();
        w.sort_unstable();
        w
    };
    let shapes: [[(i32, i32); 4]; 4] = [
        [(0, 0), (1, 0), (2, 0), (2, 1)],
        [(0, 0), (1, 0), (2, 0), (3, 0)],
        [(0, 0), (0, 1), (0, 2), (1, 1)],
        [(0, 1), (0, 2), (1, 0), (1, 1)],
    ];
    let given: Vec<(i32, i32)> = cells.iter().map(|&(r, c)| (r as i32, c as i32)).collect();
    if given.len() != 4 {
        return None;
    }
    let given = norm(&given);
    for (x, shape) in shapes.iter().enumerate() {
        for t in 0..8 {
            let moved: Vec<(i32, i32)> = shape
                .iter()
                .map(|&(r, c)| {
                    let (r, c) = if t & 1 == 1 { (c, r) } else { (r, c) };
                    let r = if t & 2 == 2 { -r } else { r };
                    let c = if t & 4 == 4 { -c } else { c };
                    (r, c)
                })
                .collect();
            if norm(&moved) == given {
                return Some(x);
            }
        }
    }
    None
}

impl Board {
    fn text(&self) -> String {
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for r in 0..self.rows {
            let words: Vec<String> = (0..self.cols)
                .map(|c| match self.room[r * self.cols + c] {
                    OUTSIDE => "@".into(),
                    k => (k + 1).to_string(),
                })
                .collect();
            s += &(words.join(" ") + "\n");
        }
        s
    }

    fn rooms(&self) -> usize {
        self.room
            .iter()
            .filter(|&&k| k != OUTSIDE)
            .max()
            .map_or(0, |k| k + 1)
    }

    fn cell(&self, word: &str) -> usize {
        let (r, c) = word
            .trim_matches(|ch| ch == '(' || ch == ')' || ch == ',')
            .split_once(',')
            .unwrap();
        (r.parse::<usize>().unwrap() - 1) * self.cols + c.parse::<usize>().unwrap() - 1
    }

    /// The room a name gives by its first cell, which must be that room's first.
    fn room_at(&self, word: &str) -> usize {
        let i = self.cell(word);
        let k = self.room[i];
        assert!(
            (0..i).all(|j| self.room[j] != k),
            "{word} is not its room's first cell"
        );
        k
    }

    fn rule(&self, name: &str) -> Rule {
        let w: Vec<&str> = name.split(' ').collect();
        if name == "the shaded cells are connected" {
            Rule::Connected
        } else if name.ends_with(" is outside every room, so unshaded") {
            Rule::Outside(self.cell(w[0]))
        } else if name.starts_with("the 2×2 from ") && name.ends_with(" is not all shaded") {
            Rule::Block(self.cell(w[3]))
        } else if name.starts_with("the room of ") && name.ends_with(" shades one tetromino") {
            Rule::Room(self.room_at(w[3]))
        } else if name.starts_with("the rooms of ")
            && name.ends_with(" have different letters where their shaded cells touch")
        {
            Rule::Touch(self.room_at(w[3]), self.room_at(w[5]))
        } else {
            panic!("a rule this test cannot read: {name}")
        }
    }

    fn fact(&self, text: &str) -> (Var, bool) {
        if let Some(rest) = text.strip_prefix("the tetromino of the room of ") {
            let (cell, what) = rest.split_once(" is ").unwrap();
            let (holds, what) = match what.strip_prefix("not ") {
                Some(w) => (false, w),
                None => (true, what),
            };
            let x = LETTERS.iter().position(|l| *l == what).unwrap();
            (Var::Letter(self.room_at(cell), x), holds)
        } else {
            let (cell, what) = text.split_once(" is ").unwrap();
            (Var::Cell(self.cell(cell)), what == "shaded")
        }
    }

    fn all_rules(&self) -> Vec<Rule> {
        let mut rules: Vec<Rule> = (0..self.rooms()).map(Rule::Room).collect();
        for a in 0..self.room.len() {
            for b in [a + 1, a + self.cols] {
                if b >= self.room.len() || (b == a + 1 && b % self.cols == 0) {
                    continue;
                }
                let (j, k) = (self.room[a], self.room[b]);
                if j != k && j != OUTSIDE && k != OUTSIDE {
                    rules.push(Rule::Touch(j.min(k), j.max(k)));
                }
            }
        }
        for r in 0..self.rows - 1 {
            for c in 0..self.cols - 1 {
                rules.push(Rule::Block(r * self.cols + c));
            }
        }
        rules.extend(
            (0..self.room.len())
                .filter(|&i| self.room[i] == OUTSIDE)
                .map(Rule::Outside),
        );
        rules.push(Rule::Connected);
        rules
    }

    /// The letters, and whether `s` keeps `rules` with `fixed`: a room under its rule has the
    /// letter of its shading; another room's letter is as fixed, else false (no rule gains
    /// from a letter being true).
    fn keeps(&self, rules: &[Rule], fixed: &HashMap<Var, bool>, s: u32) -> bool {
        let n = self.room.len();
        let shaded = |i: usize| s >> i & 1 == 1;
        if fixed
            .iter()
            .any(|(v, &b)| matches!(v, Var::Cell(i) if shaded(*i) != b))
        {
            return false;
        }
        let rooms = self.rooms();
        let mut letters = vec![[false; 4]; rooms];
        for (v, &b) in fixed {
            if let Var::Letter(k, x) = *v {
                letters[k][x] = b;
            }
        }
        for rule in rules {
            let ok = match *rule {
                Rule::Room(k) => {
                    let cells: Vec<(usize, usize)> = (0..n)
                        .filter(|&i| self.room[i] == k && shaded(i))
                        .map(|i| (i / self.cols, i % self.cols))
                        .collect();
                    match letter(&cells) {
                        Some(x) => {
                            let own: [bool; 4] = std::array::from_fn(|y| y == x);
                            let fits = (0..4).all(|y| {
                                fixed.get(&Var::Letter(k, y)).is_none_or(|&b| b == own[y])
                            });
                            letters[k] = own;
                            fits
                        }
                        None => false,
                    }
                }
                _ => true,
            };
            if !ok {
                return false;
            }
        }
        rules.iter().all(|rule| match *rule {
            Rule::Room(_) => true,
            Rule::Touch(j, k) => (0..n).all(|a| {
                let near = [a + 1, a + self.cols];
                near.iter().all(|&b| {
                    if b >= n || (b == a + 1 && b % self.cols == 0) || !shaded(a) || !shaded(b) {
                        return true;
                    }
                    let pair = (self.room[a], self.room[b]);
                    if pair != (j, k) && pair != (k, j) {
                        return true;
                    }
                    (0..4).all(|x| !(letters[j][x] && letters[k][x]))
                })
            }),
            Rule::Block(i) => ![i, i + 1, i + self.cols, i + self.cols + 1]
                .iter()
                .all(|&j| shaded(j)),
            Rule::Outside(i) => !shaded(i),
            Rule::Connected => {
                let on: Vec<bool> = (0..n).map(&shaded).collect();
                common::pieces(self.rows, self.cols, &on).len() <= 1
            }
        })
    }

    fn satisfiable(&self, rules: &[Rule], fixed: &HashMap<Var, bool>) -> bool {
        (0..1u32 << self.room.len()).any(|s| self.keeps(rules, fixed, s))
    }

    /// Every solution's facts.
    fn solutions(&self) -> Vec<HashMap<Var, bool>> {
        let all = self.all_rules();
        let none = HashMap::new();
        (0..1u32 << self.room.len())
            .filter(|&s| self.keeps(&all, &none, s))
            .map(|s| {
                let mut facts: HashMap<Var, bool> = (0..self.room.len())
                    .map(|i| (Var::Cell(i), s >> i & 1 == 1))
                    .collect();
                for k in 0..self.rooms() {
                    let cells: Vec<(usize, usize)> = (0..self.room.len())
                        .filter(|&i| self.room[i] == k && s >> i & 1 == 1)
                        .map(|i| (i / self.cols, i % self.cols))
                        .collect();
                    let x = letter(&cells).unwrap();
                    for y in 0..4 {
                        facts.insert(Var::Letter(k, y), x == y);
                    }
                }
                facts
            })
            .collect()
    }
}

/// Rooms of four or five cells grown at random, a piece that cannot reach four joined to a
/// room beside it; now and then a cell left outside every room.
fn random_board(rng: &mut Rng) -> Board {
    let (rows, cols) = (4, 3 + rng.below(2));
    let n = rows * cols;
    let mut room = vec![OUTSIDE; n];
    let outside = (rng.below(4) == 0).then(|| rng.below(n));
    let near = |i: usize| -> Vec<usize> {
        let (r, c) = (i / cols, i % cols);
        [
            (r > 0).then(|| i - cols),
            (r + 1 < rows).then(|| i + cols),
            (c > 0).then(|| i - 1),
            (c + 1 < cols).then(|| i + 1),
        ]
        .into_iter()
        .flatten()
        .collect()
    };
    let mut k = 0;
    for start in 0..n {
        if room[start] != OUTSIDE || Some(start) == outside {
            continue;
        }
        let target = 4 + rng.below(2);
        let mut piece = vec![start];
        room[start] = k;
        while piece.len() < target {
            let free: Vec<usize> = piece
                .iter()
                .flat_map(|&i| near(i))
                .filter(|&j| room[j] == OUTSIDE && Some(j) != outside)
                .collect();
            if free.is_empty() {
                break;
            }
            let j = free[rng.below(free.len())];
            room[j] = k;
            piece.push(j);
        }
        if piece.len() < 4 {
            let other = piece
                .iter()
                .flat_map(|&i| near(i))
                .map(|j| room[j])
                .find(|&x| x != OUTSIDE && x != k);
            if let Some(other) = other {
                piece.iter().for_each(|&i| room[i] = other);
                continue;
            }
        }
        k += 1;
    }
    // Renumbered in reading order, as rooms are read (a label's piece is one room).
    let mut order = HashMap::new();
    let room = room
        .into_iter()
        .map(|k| match k {
            OUTSIDE => OUTSIDE,
            k => {
                let next = order.len();
                *order.entry(k).or_insert(next)
            }
        })
        .collect();
    Board { rows, cols, room }
}

impl Brute for Board {
    type Var = Var;
    type Rule = Rule;
    fn rule(&self, name: &str) -> Rule {
        Board::rule(self, name)
    }
    fn fact(&self, said: &str) -> (Var, bool) {
        Board::fact(self, said)
    }
    fn satisfiable(&self, rules: &[Rule], fixed: &HashMap<Var, bool>) -> bool {
        Board::satisfiable(self, rules, fixed)
    }
}

fn check(board: &Board, backend: &str) -> (HashMap<String, usize>, bool) {
    let text = board.text();
    let out = explain_json("lits", &text, backend);
    let solutions = board.solutions();
    if solutions.is_empty() {
        assert_eq!(out.code, 1, "{text}{}{}", out.stdout, out.stderr);
        return (HashMap::new(), false);
    }
    let backbone: HashMap<Var, bool> = solutions[0]
        .iter()
        .filter(|(v, b)| solutions.iter().all(|s| s[v] == **b))
        .map(|(v, b)| (*v, *b))
        .collect();
    let unique = solutions.len() == 1;
    let json = json_of(&out, &text);
    says_unique(&out, &json, unique, &text);
    let (known, ways) = check_steps(board, &text, &json, HashMap::new(), &backbone);
    assert_eq!(
        known, backbone,
        "{text}the steps end in what every solution shares"
    );
    (ways, unique)
}

#[test]
fn every_lits_step_is_forced_by_what_its_rules_say() {
    let (boards, seed) = common::random_boards(150, 4546);
    let mut rng = Rng::new(seed);
    let mut unique = 0;
    let mut ways: HashMap<String, usize> = HashMap::new();
    for k in 0..boards {
        let board = random_board(&mut rng);
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, u) = check(&board, backend);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
        unique += usize::from(u);
    }
    assert!(unique > 0 && unique < boards, "{unique} of {boards} unique");
    assert!(ways.get("single") > Some(&boards), "{ways:?}");
    assert!(ways.get("chain") > Some(&0), "{ways:?}");
}

#[test]
fn lits_is_explained_graded_and_drawn() {
    let out = run(&["explain", "lits", "docs/examples/lits.txt"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("the solution is unique"),
        "{}",
        out.stdout
    );
    let out = run(&["grade", "lits", "docs/examples/lits.txt"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        ["easy", "medium", "hard", "expert", "extreme"]
            .iter()
            .any(|l| out.stdout.contains(l)),
        "{}",
        out.stdout
    );
    let out = run(
        &["explain", "lits", "docs/examples/lits.txt", "--steps", "2"],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains('?'), "{}", out.stdout);
    let dir = std::env::temp_dir().join(format!("explain-lits-svg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(
        &[
            "explain",
            "lits",
            "docs/examples/lits.txt",
            "--steps",
            "3",
            "--svg",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let svg = std::fs::read_to_string(dir.join("step-3.svg")).unwrap();
    assert!(svg.contains("class=\"deduced\""), "{svg}");
    let _ = std::fs::remove_dir_all(&dir);
}
