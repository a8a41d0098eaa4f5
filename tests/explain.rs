//! `explain` checked by code that shares nothing with the encoder: each step's rules are read
//! back from their names ("row 2 holds each digit once") into exactly-one constraints over
//! "cell holds digit" booleans, its facts from their words, and a small search of its own
//! confirms that the rules and the facts it lists force every deduction, that removing any one
//! rule of a larger step lets its first deduction fail, and that the steps reach exactly what
//! every solution shares. The shading and rectangle genres the same way, over every shading
//! or division of small boards.

mod common;

use common::explained::{check_steps, explain_json, json_of, says_unique, Brute};
use common::run;
use encodings::rng::Rng;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

/// A sudoku of side `n` with boxes `h` tall and `w` wide.
#[derive(Clone, Copy)]
struct Shape {
    n: usize,
    h: usize,
    w: usize,
}

impl Shape {
    fn var(&self, cell: usize, d: usize) -> usize {
        cell * self.n + d - 1
    }

    fn house(&self, kind: &str, k: usize) -> Vec<usize> {
        let n = self.n;
        match kind {
            "row" => (0..n).map(|c| k * n + c).collect(),
            "column" => (0..n).map(|r| r * n + k).collect(),
            "box" => {
                let across = n / self.w;
                let (top, left) = (k / across * self.h, k % across * self.w);
                (0..n)
                    .map(|i| (top + i / self.w) * n + left + i % self.w)
                    .collect()
            }
            _ => panic!("no house {kind}"),
        }
    }

    /// The exactly-one groups a rule's name says.
    fn rule(&self, name: &str) -> Vec<Vec<usize>> {
        let words: Vec<&str> = name.split(' ').collect();
        if name.ends_with(" holds one digit") {
            let cell = self.cell(words[0]);
            vec![(1..=self.n).map(|d| self.var(cell, d)).collect()]
        } else if name.ends_with(" holds each digit once") {
            let k: usize = words[1].parse().unwrap();
            let cells = self.house(words[0], k - 1);
            (1..=self.n)
                .map(|d| cells.iter().map(|&c| self.var(c, d)).collect())
                .collect()
        } else {
            panic!("a rule this test cannot read: {name}")
        }
    }

    fn cell(&self, word: &str) -> usize {
        let (r, c) = word
            .trim_matches(|ch| ch == '(' || ch == ')')
            .split_once(',')
            .unwrap();
        (r.parse::<usize>().unwrap() - 1) * self.n + c.parse::<usize>().unwrap() - 1
    }

    /// "(2,3) is 4" or "(2,3) is not 4" as (variable, value).
    fn fact(&self, text: &str) -> (usize, bool) {
        let (cell, rest) = text.split_once(" is ").unwrap();
        let (holds, d) = match rest.strip_prefix("not ") {
            Some(d) => (false, d),
            None => (true, rest),
        };
        (self.var(self.cell(cell), d.parse().unwrap()), holds)
    }

    /// A given cell holds its digit and no other (the puzzle's own facts).
    fn givens(&self, grid: &[u8]) -> HashMap<usize, bool> {
        let mut fixed = HashMap::new();
        for (cell, &g) in grid.iter().enumerate().filter(|(_, &g)| g != 0) {
            for d in 1..=self.n {
                fixed.insert(self.var(cell, d), d == g as usize);
            }
        }
        fixed
    }

    fn all_rules(&self) -> Vec<Vec<usize>> {
        let mut groups = Vec::new();
        for cell in 0..self.n * self.n {
            groups.push((1..=self.n).map(|d| self.var(cell, d)).collect());
        }
        for kind in ["row", "column", "box"] {
            for k in 0..self.n {
                let cells = self.house(kind, k);
                for d in 1..=self.n {
                    groups.push(cells.iter().map(|&c| self.var(c, d)).collect());
                }
            }
        }
        groups
    }
}

/// Whether some values of the booleans meet every exactly-one group and `fixed`: a search
/// that propagates the groups and branches on the group with the fewest choices.
fn satisfiable(groups: &[Vec<usize>], fixed: &HashMap<usize, bool>) -> bool {
    satisfiable_with(groups, &[], fixed)
}

/// [`satisfiable`] with pairs of booleans that are not both true, too.
fn satisfiable_with(
    groups: &[Vec<usize>],
    pairs: &[(usize, usize)],
    fixed: &HashMap<usize, bool>,
) -> bool {
    let mut value: HashMap<usize, bool> = fixed.clone();
    search(groups, pairs, &mut value)
}

fn search(
    groups: &[Vec<usize>],
    pairs: &[(usize, usize)],
    value: &mut HashMap<usize, bool>,
) -> bool {
    loop {
        let mut changed = false;
        for &(a, b) in pairs {
            match (value.get(&a), value.get(&b)) {
                (Some(true), Some(true)) => return false,
                (Some(true), None) => {
                    value.insert(b, false);
                    changed = true;
                }
                (None, Some(true)) => {
                    value.insert(a, false);
                    changed = true;
                }
                _ => {}
            }
        }
        for g in groups {
            let trues = g.iter().filter(|v| value.get(v) == Some(&true)).count();
            let open: Vec<usize> = g
                .iter()
                .copied()
                .filter(|v| !value.contains_key(v))
                .collect();
            match (trues, open.len()) {
                (t, _) if t > 1 => return false,
                (1, 0) => {}
                (1, _) => {
                    open.iter().for_each(|&v| {
                        value.insert(v, false);
                    });
                    changed = true;
                }
                (0, 0) => return false,
                (0, 1) => {
                    value.insert(open[0], true);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
    let branch = groups
        .iter()
        .filter(|g| g.iter().all(|v| value.get(v) != Some(&true)))
        .min_by_key(|g| g.iter().filter(|v| !value.contains_key(v)).count());
    // Every group has its one: the booleans left open can all be false, which no pair
    // minds.
    let Some(g) = branch else {
        return true;
    };
    let open: Vec<usize> = g
        .iter()
        .copied()
        .filter(|v| !value.contains_key(v))
        .collect();
    open.into_iter().any(|v| {
        let mut next = value.clone();
        next.insert(v, true);
        search(groups, pairs, &mut next)
    })
}

fn random_grid(shape: Shape, rng: &mut Rng) -> Vec<u8> {
    let n = shape.n;
    let mut digits: Vec<usize> = (1..=n).collect();
    for i in (1..n).rev() {
        digits.swap(i, rng.below(i + 1));
    }
    // Rows shuffled within bands, columns within stacks.
    let mut rows: Vec<usize> = (0..n).collect();
    let mut cols: Vec<usize> = (0..n).collect();
    for band in rows.chunks_mut(shape.h) {
        for i in (1..band.len()).rev() {
            band.swap(i, rng.below(i + 1));
        }
    }
    for stack in cols.chunks_mut(shape.w) {
        for i in (1..stack.len()).rev() {
            stack.swap(i, rng.below(i + 1));
        }
    }
    let base = |r: usize, c: usize| (r * shape.w + r / shape.h + c) % n;
    (0..n * n)
        .map(|i| digits[base(rows[i / n], cols[i % n])] as u8)
        .collect()
}

fn text(shape: Shape, grid: &[u8]) -> String {
    grid.chunks(shape.n)
        .map(|row| {
            row.iter()
                .map(|&d| if d == 0 { ".".into() } else { d.to_string() })
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

/// What every solution shares, by this test's own search.
fn backbone(
    shape: Shape,
    givens: &HashMap<usize, bool>,
    all: &[Vec<usize>],
) -> HashMap<usize, bool> {
    (0..shape.n * shape.n * shape.n)
        .filter(|v| !givens.contains_key(v))
        .filter_map(|v| {
            let mut with = givens.clone();
            with.insert(v, true);
            let can_true = satisfiable(all, &with);
            with.insert(v, false);
            let can_false = satisfiable(all, &with);
            match (can_true, can_false) {
                (true, false) => Some((v, true)),
                (false, true) => Some((v, false)),
                _ => None,
            }
        })
        .collect()
}

/// For a large board, the facts of the solution printed, once this test has checked that it
/// is a solution: the steps, each checked to be forced, then prove it the only one.
fn solution_facts(shape: Shape, grid: &[u8], json: &Value) -> HashMap<usize, bool> {
    let solution: Vec<u8> = json["solution"]["grid"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_u64().unwrap() as u8)
        })
        .collect();
    let facts = shape.givens(&solution);
    assert!(shape
        .all_rules()
        .iter()
        .all(|g| g.iter().filter(|v| facts[v]).count() == 1));
    assert!(grid.iter().zip(&solution).all(|(&g, &s)| g == 0 || g == s));
    let givens = shape.givens(grid);
    facts
        .into_iter()
        .filter(|(v, _)| !givens.contains_key(v))
        .collect()
}

/// Runs `explain` on `grid` and checks everything it claims; returns (steps by way, unique).
impl Brute for Shape {
    type Var = usize;
    type Rule = Vec<Vec<usize>>;
    fn rule(&self, name: &str) -> Vec<Vec<usize>> {
        Shape::rule(self, name)
    }
    fn fact(&self, said: &str) -> (usize, bool) {
        Shape::fact(self, said)
    }
    /// The rules' groups together.
    fn satisfiable(&self, rules: &[Vec<Vec<usize>>], fixed: &HashMap<usize, bool>) -> bool {
        satisfiable(&rules.concat(), fixed)
    }
}

fn check_explanation(shape: Shape, grid: &[u8], backend: &str) -> (HashMap<String, usize>, bool) {
    let text = text(shape, grid);
    let out = explain_json("sudoku", &text, backend);
    let givens = shape.givens(grid);
    let all = shape.all_rules();
    if !satisfiable(&all, &givens) {
        assert_eq!(out.code, 1, "{text}\n{}", out.stdout);
        return (HashMap::new(), false);
    }
    let json = json_of(&out, &text);
    let vars = shape.n * shape.n * shape.n;
    let backbone = if shape.n > 6 {
        solution_facts(shape, grid, &json)
    } else {
        backbone(shape, &givens, &all)
    };
    let unique = backbone.len() == vars - givens.len();
    says_unique(&out, &json, unique, &text);
    let (known, ways) = check_steps(&shape, &text, &json, givens.clone(), &backbone);
    // The steps reach what every solution shares, and nothing else.
    let reached: HashMap<usize, bool> = known
        .into_iter()
        .filter(|(v, _)| !givens.contains_key(v))
        .collect();
    assert_eq!(reached, backbone, "{text}");
    assert_eq!(json["open"], vars - givens.len() - backbone.len());
    if unique {
        let solution = &json["solution"]["grid"];
        for (cell, row) in solution
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .enumerate()
        {
            let d = row.as_u64().unwrap() as usize;
            assert_eq!(
                backbone
                    .get(&shape.var(cell, d))
                    .or(givens.get(&shape.var(cell, d))),
                Some(&true)
            );
        }
    }
    (ways, unique)
}

#[test]
fn every_step_is_forced_by_its_rules_and_minimal_on_small_sudokus() {
    let (boards, seed) = common::random_boards(60, 45);
    let mut rng = Rng::new(seed);
    let mut unique = 0;
    let mut ways: HashMap<String, usize> = HashMap::new();
    for k in 0..boards {
        let shape = if k % 3 == 2 {
            Shape { n: 6, h: 2, w: 3 }
        } else {
            Shape { n: 4, h: 2, w: 2 }
        };
        let full = random_grid(shape, &mut rng);
        let keep = 25 + rng.below(50);
        let mut grid: Vec<u8> = full
            .iter()
            .map(|&d| if rng.below(100) < keep { d } else { 0 })
            .collect();
        // Now and then a clash: no solution.
        if k % 17 == 5 {
            grid[0] = full[1];
            grid[1] = full[1];
        }
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, u) = check_explanation(shape, &grid, backend);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
        unique += usize::from(u);
    }
    // The boards cover both kinds of puzzle, and steps of more than one rule.
    assert!(
        unique > boards / 10 && unique < boards,
        "{unique} of {boards} unique"
    );
    assert!(ways.get("single") > Some(&boards), "{ways:?}");
    assert!(ways.get("chain") > Some(&0), "{ways:?}");
}

/// Arto Inkala's 2012 puzzle and "AI Escargot": hard enough for steps of every way.
const HARD: [&str; 2] = [
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
];

#[test]
fn every_step_of_two_hard_sudokus_is_forced_and_minimal() {
    let shape = Shape { n: 9, h: 3, w: 3 };
    let mut ways: HashMap<String, usize> = HashMap::new();
    for (k, line) in HARD.iter().enumerate() {
        let grid: Vec<u8> = line
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, unique) = check_explanation(shape, &grid, backend);
        assert!(unique);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
    }
    assert!(ways.get("search") > Some(&0), "{ways:?}");
}

/// A shading genre's board for the brute-force check: numbers, and rooms for Heyawake.
struct Shading {
    rows: usize,
    cols: usize,
    numbers: Vec<Option<u32>>,
    room: Option<Vec<usize>>,
}

/// The cell of "(r,c)".
fn cell_at(word: &str, cols: usize) -> usize {
    let (r, c) = word
        .trim_matches(|ch: char| !ch.is_ascii_digit() && ch != ',')
        .split_once(',')
        .unwrap();
    (r.parse::<usize>().unwrap() - 1) * cols + c.parse::<usize>().unwrap() - 1
}

/// Every "(r,c)" in a text, in order.
fn cells_in(text: &str, cols: usize) -> Vec<usize> {
    text.split('(')
        .skip(1)
        .filter_map(|part| {
            let inner = part.split(')').next()?;
            inner
                .contains(',')
                .then(|| cell_at(inner, cols))
                .filter(|_| inner.chars().all(|c| c.is_ascii_digit() || c == ','))
        })
        .collect()
}

impl Shading {
    fn connected_unshaded(&self, shaded: u32) -> bool {
        let open: Vec<bool> = (0..self.rows * self.cols)
            .map(|i| shaded >> i & 1 == 0)
            .collect();
        common::pieces(self.rows, self.cols, &open).len() <= 1
    }

    /// What a rule's name says, as a test on a shading (bit i: cell i shaded).
    fn rule(&self, name: &str) -> Box<dyn Fn(u32) -> bool + '_> {
        let cols = self.cols;
        if name == "the unshaded cells are connected" {
            return Box::new(move |s| self.connected_unshaded(s));
        }
        if name.ends_with(" are not both shaded") {
            let c = cells_in(name, cols);
            return Box::new(move |s| !(s >> c[0] & 1 == 1 && s >> c[1] & 1 == 1));
        }
        if name.contains(" keeps at most one of its ") {
            let c = cells_in(name, cols);
            return Box::new(move |s| c.iter().filter(|&&i| s >> i & 1 == 0).count() <= 1);
        }
        if let Some(rest) = name.strip_prefix("the room of the ") {
            let k: u32 = rest.split(' ').next().unwrap().parse().unwrap();
            let at = cells_in(name, cols)[0];
            let room = self.room.as_ref().unwrap();
            let cells: Vec<usize> = (0..room.len()).filter(|&i| room[i] == room[at]).collect();
            return Box::new(move |s| {
                cells.iter().filter(|&&i| s >> i & 1 == 1).count() as u32 == k
            });
        }
        if name.starts_with("the cells from ") && name.ends_with("(they cross two borders)") {
            let ends = cells_in(name, cols);
            let (a, b) = (ends[0], ends[1]);
            let step = if a / cols == b / cols { 1 } else { cols };
            let cells: Vec<usize> = (a..=b).step_by(step).collect();
            return Box::new(move |s| cells.iter().any(|&i| s >> i & 1 == 1));
        }
        panic!("a rule this test cannot read: {name}")
    }

    /// Every rule of the genre, written from its statement (not from the encoder's list).
    fn all_rules(&self) -> Vec<Box<dyn Fn(u32) -> bool + '_>> {
        let (rows, cols) = (self.rows, self.cols);
        let at = |i: usize| format!("({},{})", i / cols + 1, i % cols + 1);
        let mut names = vec!["the unshaded cells are connected".to_string()];
        for i in 0..rows * cols {
            if i % cols + 1 < cols {
                names.push(format!("{} and {} are not both shaded", at(i), at(i + 1)));
            }
            if i + cols < rows * cols {
                names.push(format!(
                    "{} and {} are not both shaded",
                    at(i),
                    at(i + cols)
                ));
            }
        }
        let lines: Vec<Vec<usize>> = (0..rows)
            .map(|r| (0..cols).map(|c| r * cols + c).collect())
            .chain((0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect()))
            .collect();
        match &self.room {
            None => {
                for line in &lines {
                    for v in 1..=9 {
                        let same: Vec<String> = line
                            .iter()
                            .filter(|&&i| self.numbers[i] == Some(v))
                            .map(|&i| at(i))
                            .collect();
                        if same.len() > 1 {
                            names.push(format!(
                                "x keeps at most one of its {v}s ({})",
                                same.join(", ")
                            ));
                        }
                    }
                }
            }
            Some(room) => {
                for i in 0..rows * cols {
                    if let Some(k) = self.numbers[i] {
                        names.push(format!("the room of the {k} at {} has", at(i)));
                    }
                }
                // A straight run of unshaded cells crosses at most one border.
                for line in &lines {
                    for a in 0..line.len() {
                        for b in a + 1..line.len() {
                            let borders = (a..b)
                                .filter(|&k| room[line[k]] != room[line[k + 1]])
                                .count();
                            if borders == 2 {
                                names.push(format!(
                                    "the cells from {} to {} (they cross two borders)",
                                    at(line[a]),
                                    at(line[b])
                                ));
                            }
                        }
                    }
                }
            }
        }
        names.iter().map(|n| self.rule(n)).collect()
    }
}

fn shading_text(board: &Shading) -> String {
    let (rows, cols) = (board.rows, board.cols);
    let mut text = format!("{rows} {cols}\n");
    for r in 0..rows {
        let row: Vec<String> = (0..cols)
            .map(|c| board.numbers[r * cols + c].map_or("-".into(), |v| v.to_string()))
            .collect();
        text += &(row.join(" ") + "\n");
    }
    if let Some(room) = &board.room {
        for r in 0..rows {
            let row: Vec<String> = (0..cols)
                .map(|c| ((b'a' + room[r * cols + c] as u8) as char).to_string())
                .collect();
            text += &(row.join(" ") + "\n");
        }
    }
    text
}

/// Runs `explain` on a shading board and checks each step by enumerating every shading.
fn check_shading(genre: &str, board: &Shading, backend: &str) -> (HashMap<String, usize>, bool) {
    let n = board.rows * board.cols;
    let text = shading_text(board);
    let out = explain_json(genre, &text, backend);
    let all = board.all_rules();
    let solutions: Vec<u32> = (0..1u32 << n)
        .filter(|&s| all.iter().all(|r| r(s)))
        .collect();
    if solutions.is_empty() {
        assert_eq!(out.code, 1, "{text}{}{}", out.stdout, out.stderr);
        return (HashMap::new(), false);
    }
    let json = json_of(&out, &text);
    let backbone: HashMap<usize, bool> = (0..n)
        .filter_map(|i| {
            let first = solutions[0] >> i & 1 == 1;
            solutions
                .iter()
                .all(|s| (s >> i & 1 == 1) == first)
                .then_some((i, first))
        })
        .collect();
    let unique = solutions.len() == 1;
    assert_eq!(json["unique"], Value::Bool(unique), "{text}");
    let fact = |f: &Value| {
        let f = f.as_str().unwrap();
        let (cell, word) = f.split_once(" is ").unwrap();
        (cell_at(cell, board.cols), word == "shaded")
    };
    let mut known: HashMap<usize, bool> = HashMap::new();
    let mut ways: HashMap<String, usize> = HashMap::new();
    for (k, step) in json["steps"].as_array().unwrap().iter().enumerate() {
        *ways
            .entry(step["way"].as_str().unwrap().to_string())
            .or_default() += 1;
        let rules: Vec<Box<dyn Fn(u32) -> bool + '_>> = step["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| board.rule(r.as_str().unwrap()))
            .collect();
        let uses: Vec<(usize, bool)> = step["uses"].as_array().unwrap().iter().map(fact).collect();
        for &(i, v) in &uses {
            assert_eq!(
                known.get(&i),
                Some(&v),
                "{text}step {}: uses an unknown fact",
                k + 1
            );
        }
        let deduces: Vec<(usize, bool)> = step["deduces"]
            .as_array()
            .unwrap()
            .iter()
            .map(fact)
            .collect();
        // Every shading the rules and the facts used allow has the deductions.
        for s in 0..1u32 << n {
            if uses.iter().all(|&(i, v)| (s >> i & 1 == 1) == v) && rules.iter().all(|r| r(s)) {
                for &(i, v) in &deduces {
                    assert_eq!(
                        s >> i & 1 == 1,
                        v,
                        "{text}step {}: {step} not forced",
                        k + 1
                    );
                }
            }
        }
        for &(i, v) in &deduces {
            assert_eq!(
                backbone.get(&i),
                Some(&v),
                "{text}step {}: not in every solution",
                k + 1
            );
            assert!(known.insert(i, v).is_none(), "{text}deduced twice");
        }
    }
    assert_eq!(
        known, backbone,
        "{text}the steps end in what every solution shares"
    );
    (ways, unique)
}

#[test]
fn every_shading_step_is_forced_by_what_its_rules_say() {
    let (boards, seed) = common::random_boards(80, 46);
    let mut rng = Rng::new(seed);
    let mut unique = 0;
    let mut ways: HashMap<String, usize> = HashMap::new();
    for k in 0..boards {
        let (rows, cols) = [(3, 3), (3, 4), (4, 4), (2, 5), (4, 3)][k % 5];
        let n = rows * cols;
        let heyawake = k % 2 == 1;
        let board = if heyawake {
            // Rooms grown by merging neighbours at random.
            let mut room: Vec<usize> = (0..n).collect();
            for _ in 0..n {
                let i = rng.below(n);
                let j = if rng.below(2) == 0 && i % cols + 1 < cols {
                    i + 1
                } else {
                    (i + cols).min(n - 1)
                };
                let (a, b) = (room[i], room[j]);
                room.iter_mut().filter(|r| **r == b).for_each(|r| *r = a);
            }
            let mut ids: Vec<usize> = room.clone();
            ids.sort_unstable();
            ids.dedup();
            let room: Vec<usize> = room
                .iter()
                .map(|r| ids.iter().position(|x| x == r).unwrap())
                .collect();
            let mut numbers = vec![None; n];
            for id in 0..ids.len() {
                if rng.below(3) > 0 {
                    let first = room.iter().position(|&r| r == id).unwrap();
                    numbers[first] = Some(rng.below(3) as u32);
                }
            }
            Shading {
                rows,
                cols,
                numbers,
                room: Some(room),
            }
        } else {
            let numbers = (0..n)
                .map(|_| Some(1 + rng.below(cols.max(rows)) as u32))
                .collect();
            Shading {
                rows,
                cols,
                numbers,
                room: None,
            }
        };
        let backend = common::backends()[k % common::backends().len()].name();
        let genre = if heyawake { "heyawake" } else { "hitori" };
        let (w, u) = check_shading(genre, &board, backend);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
        unique += usize::from(u);
    }
    assert!(unique > 0, "{unique} unique");
    assert!(
        ways.get("single") > Some(&0) && ways.get("chain") > Some(&0),
        "{ways:?}"
    );
}

#[test]
fn grade_orders_puzzles_by_the_rules_their_steps_combine() {
    let dir = std::env::temp_dir().join(format!("grade-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Three one-line sudokus: one of single steps only, and the two hard ones.
    let example = std::fs::read_to_string("docs/examples/sudoku.txt").unwrap();
    let easy: String = example.split_whitespace().collect();
    assert_eq!(easy.len(), 81);
    let file = dir.join("three.txt");
    std::fs::write(&file, format!("{easy}\n{}\n{}\n", HARD[0], HARD[1])).unwrap();
    let out = run(
        &[
            "grade",
            "sudoku",
            file.to_str().unwrap(),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let graded: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(graded.len(), 3);
    let number = |v: &Value| v["grade"].as_u64().unwrap();
    // The grade is the sum over steps of their rules beyond one.
    for v in &graded {
        let ways = &v["ways"];
        let steps = ways["single"].as_u64().unwrap()
            + ways["chain"].as_u64().unwrap()
            + ways["search"].as_u64().unwrap();
        assert_eq!(v["steps"].as_u64().unwrap(), steps, "{v}");
        assert_eq!(
            number(v) == 0,
            ways["single"].as_u64().unwrap() == steps,
            "{v}"
        );
    }
    assert_eq!(graded[0]["level"], "easy");
    assert!(
        number(&graded[1]) > 60 && number(&graded[2]) > 60,
        "{graded:?}"
    );
    // A case split makes a puzzle at least expert; these two have one.
    for v in &graded[1..] {
        assert!(v["ways"]["search"].as_u64().unwrap() > 0);
        assert_eq!(v["level"], "extreme", "{v}");
    }
    // A broken item in a collection is a JSON line too, with the reason.
    let made = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "4x4",
            "--seed",
            "1",
            "--unique",
            "--format",
            "url",
        ],
        None,
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let broken = dir.join("broken.txt");
    let url = made.stdout.trim();
    std::fs::write(
        &broken,
        format!("{url}\nhttps://puzz.link/p?tatamibari/3/3/zz\n"),
    )
    .unwrap();
    let out = run(
        &[
            "grade",
            "tatamibari",
            broken.to_str().unwrap(),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    let lines: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert_eq!(lines[0]["status"], "graded");
    assert_eq!(lines[1]["status"], "error", "{}", lines[1]);
    assert!(lines[1]["reason"].as_str().is_some_and(|r| !r.is_empty()));
    // Text: the number first, then the level; a puzzle with two solutions has no grade.
    let two = dir.join("two.txt");
    std::fs::write(&two, ".".repeat(81) + "\n").unwrap();
    let out = run(&["grade", "sudoku", two.to_str().unwrap()], None);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("no grade: not unique"),
        "{}",
        out.stdout
    );
    let one = dir.join("one.txt");
    std::fs::write(&one, easy.clone() + "\n").unwrap();
    let out = run(&["grade", "sudoku", one.to_str().unwrap()], None);
    assert!(out.stdout.starts_with("0 easy ("), "{}", out.stdout);
    // Every genre that asks for one answer explains; a scoring genre does not.
    let out = run(&["grade", "target-sudoku", one.to_str().unwrap()], None);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("grade is not for target-sudoku puzzles yet"),
        "{}",
        out.stderr
    );
}

/// `--svg DIR`: a picture per step, in which the deduced cells are outlined (one rectangle
/// each, in the `deduced` group) and the rules' cells tinted; the caption names the rules.
#[test]
fn each_step_has_a_picture_marking_its_cells() {
    let dir = std::env::temp_dir().join(format!("ps-explain-svg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/examples/hitori.txt");
    let out = run(
        &["explain", "hitori", file, "--format", "json", "--svg"],
        None,
    );
    assert_eq!(out.code, 2, "--svg takes a folder: {}", out.stderr);
    let out = run(
        &[
            "explain",
            "hitori",
            file,
            "--format",
            "json",
            "--svg",
            dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), steps.len());
    for (k, step) in steps.iter().enumerate() {
        let svg = std::fs::read_to_string(dir.join(format!("step-{}.svg", k + 1))).unwrap();
        let group = |class: &str| -> usize {
            let Some(start) = svg.find(&format!("<g class=\"{class}\"")) else {
                return 0;
            };
            let body = &svg[start..];
            body[..body.find("</g>").unwrap()].matches("<rect").count()
        };
        // Hitori's facts are cells: one outline per deduction.
        assert_eq!(
            group("deduced"),
            step["deduces"].as_array().unwrap().len(),
            "step {}",
            k + 1
        );
        assert!(group("rules") >= 1, "step {}", k + 1);
        let first = step["rules"][0].as_str().unwrap();
        let words = first.split(' ').next().unwrap();
        assert!(svg.contains(words), "step {}: {first}", k + 1);
    }
    // A folder that is not empty is refused before any work.
    let again = run(
        &["explain", "hitori", file, "--svg", dir.to_str().unwrap()],
        None,
    );
    assert_eq!(again.code, 2);
    assert!(
        again.stderr.contains("empty or new folder"),
        "{}",
        again.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rectangle genre's board for the brute-force check: each cell `.` (blank), `#` (a hole,
/// Tatamibari's) or its clue (Shikaku: a number or `?`; Tatamibari: `+`, `-`, `|` or `?`).
struct Division {
    tatamibari: bool,
    rows: usize,
    cols: usize,
    cells: Vec<String>,
}

/// A rectangle: top row, left column (0-based), height, width.
type Area4 = (usize, usize, usize, usize);

/// What a rule says over the candidates: exactly-one groups, and pairs not both chosen.
type Constraint = (Vec<Vec<usize>>, Vec<(usize, usize)>);

fn inside(rect: Area4, cell: usize, cols: usize) -> bool {
    let (r, c) = (cell / cols, cell % cols);
    (rect.0..rect.0 + rect.2).contains(&r) && (rect.1..rect.1 + rect.3).contains(&c)
}

fn area_cells(rect: Area4, cols: usize) -> Vec<usize> {
    (rect.0..rect.0 + rect.2)
        .flat_map(|r| (rect.1..rect.1 + rect.3).map(move |c| r * cols + c))
        .collect()
}

impl Division {
    fn genre(&self) -> &'static str {
        if self.tatamibari {
            "tatamibari"
        } else {
            "shikaku"
        }
    }

    fn is_clue(&self, i: usize) -> bool {
        !matches!(self.cells[i].as_str(), "." | "#")
    }

    /// Whether a clue may be in a region `h` tall and `w` wide, as the genre's rules say.
    fn admits(clue: &str, h: usize, w: usize) -> bool {
        match clue {
            "?" => true,
            "+" => h == w,
            "-" => w > h,
            "|" => h > w,
            n => n.parse::<usize>().unwrap() == h * w,
        }
    }

    /// Every rectangle that holds exactly one clue and no hole and fits that clue, with the
    /// clue's cell: the rectangles a solution can have, of which the facts speak.
    fn candidates(&self) -> Vec<(Area4, usize)> {
        let (rows, cols) = (self.rows, self.cols);
        let mut out = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                for h in 1..=rows - row {
                    for w in 1..=cols - col {
                        let cells = area_cells((row, col, h, w), cols);
                        let clues: Vec<usize> =
                            cells.iter().copied().filter(|&i| self.is_clue(i)).collect();
                        if clues.len() == 1
                            && cells.iter().all(|&i| self.cells[i] != "#")
                            && Self::admits(&self.cells[clues[0]], h, w)
                        {
                            out.push(((row, col, h, w), clues[0]));
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the chosen candidates divide the board: each cell on it in exactly one, and
    /// (Tatamibari) no four meeting at a point whose four cells are on the board.
    fn divides(&self, cands: &[(Area4, usize)], chosen: &[usize]) -> bool {
        let (rows, cols) = (self.rows, self.cols);
        let mut owner: Vec<Option<usize>> = vec![None; rows * cols];
        for &k in chosen {
            for i in area_cells(cands[k].0, cols) {
                if owner[i].replace(k).is_some() {
                    return false;
                }
            }
        }
        if (0..rows * cols).any(|i| (self.cells[i] != "#") != owner[i].is_some()) {
            return false;
        }
        !self.tatamibari
            || (0..rows.saturating_sub(1)).all(|r| {
                (0..cols - 1).all(|c| {
                    let four = [
                        owner[r * cols + c],
                        owner[r * cols + c + 1],
                        owner[(r + 1) * cols + c],
                        owner[(r + 1) * cols + c + 1],
                    ];
                    four.contains(&None) || (0..4).any(|a| (a + 1..4).any(|b| four[a] == four[b]))
                })
            })
    }

    /// Every division, by brute force: the first cell not yet covered is some candidate's
    /// top-left cell.
    fn divisions(&self, cands: &[(Area4, usize)]) -> Vec<Vec<usize>> {
        fn go(
            d: &Division,
            cands: &[(Area4, usize)],
            covered: &mut Vec<bool>,
            chosen: &mut Vec<usize>,
            out: &mut Vec<Vec<usize>>,
        ) {
            let Some(first) = (0..covered.len()).find(|&i| !covered[i]) else {
                if d.divides(cands, chosen) {
                    out.push(chosen.clone());
                }
                return;
            };
            for (k, &(rect, _)) in cands.iter().enumerate() {
                let cells = area_cells(rect, d.cols);
                if cells[0] != first || cells.iter().any(|&i| covered[i]) {
                    continue;
                }
                cells.iter().for_each(|&i| covered[i] = true);
                chosen.push(k);
                go(d, cands, covered, chosen, out);
                chosen.pop();
                cells.iter().for_each(|&i| covered[i] = false);
            }
        }
        let mut covered: Vec<bool> = self.cells.iter().map(|c| c == "#").collect();
        let mut out = Vec::new();
        go(self, cands, &mut covered, &mut Vec::new(), &mut out);
        out
    }

    /// What a rule's name says over the candidates.
    fn rule(&self, name: &str, cands: &[(Area4, usize)]) -> Constraint {
        let cols = self.cols;
        let cell = cells_in(name, cols)[0];
        let holding = |keep: &dyn Fn(Area4) -> bool| -> Vec<usize> {
            (0..cands.len())
                .filter(|&k| inside(cands[k].0, cell, cols) && keep(cands[k].0))
                .collect()
        };
        if name.ends_with(" is covered once") {
            return (vec![holding(&|_| true)], Vec::new());
        }
        if let Some(rest) = name.strip_prefix("the ") {
            if let Some((clue, what)) = rest.split_once(" gets one ") {
                let (symbol, _) = clue.split_once(" at ").unwrap();
                assert_eq!(symbol, self.cells[cell], "{name}: another clue");
                // The region's size or shape as the name says it, which must be the clue's.
                let fits: Box<dyn Fn(Area4) -> bool> = match what {
                    "rectangle" | "region" => Box::new(|_| true),
                    "square region" => Box::new(|r| r.2 == r.3),
                    "region wider than tall" => Box::new(|r| r.3 > r.2),
                    "region taller than wide" => Box::new(|r| r.2 > r.3),
                    _ => {
                        let n: usize = what
                            .strip_prefix("rectangle of ")
                            .and_then(|w| w.split(' ').next())
                            .and_then(|n| n.parse().ok())
                            .unwrap_or_else(|| panic!("a rule this test cannot read: {name}"));
                        assert_eq!(symbol, n.to_string(), "{name}");
                        Box::new(move |r| r.2 * r.3 == n)
                    }
                };
                let group = holding(&*fits);
                assert!(
                    group
                        .iter()
                        .all(|&k| Self::admits(symbol, cands[k].0 .2, cands[k].0 .3)),
                    "{name} says another shape than its clue's"
                );
                return (vec![group], Vec::new());
            }
        }
        if name.starts_with("no two regions touch only at the point below-right of ") {
            // Two rectangles whose closed areas meet in exactly that point.
            let (pr, pc) = (cell / cols + 1, cell % cols + 1);
            let only_at = |a: Area4, b: Area4| {
                let meet = |lo_a: usize, len_a: usize, lo_b: usize, len_b: usize, p: usize| {
                    lo_a.max(lo_b) == p && (lo_a + len_a).min(lo_b + len_b) == p
                };
                meet(a.0, a.2, b.0, b.2, pr) && meet(a.1, a.3, b.1, b.3, pc)
            };
            let mut pairs = Vec::new();
            for a in 0..cands.len() {
                for b in a + 1..cands.len() {
                    if only_at(cands[a].0, cands[b].0) {
                        pairs.push((a, b));
                    }
                }
            }
            return (Vec::new(), pairs);
        }
        panic!("a rule this test cannot read: {name}")
    }

    /// "the rectangle of the 6 at (2,5) is [not] the 2×3 from (1,4) to (2,6)" (or "the 1×1 at
    /// (2,5)") as (candidate, holds).
    fn fact(&self, text: &str, cands: &[(Area4, usize)]) -> (usize, bool) {
        let cols = self.cols;
        let (subject, value) = text.split_once(" is ").unwrap();
        let (holds, value) = match value.strip_prefix("not ") {
            Some(v) => (false, v),
            None => (true, value),
        };
        let clue = cells_in(subject, cols)[0];
        let corners = cells_in(value, cols);
        let (first, last) = (corners[0], *corners.last().unwrap());
        let size = value.split(' ').nth(1).unwrap();
        let (h, w) = size.split_once('×').unwrap();
        let rect = (
            first / cols,
            first % cols,
            last / cols - first / cols + 1,
            last % cols - first % cols + 1,
        );
        assert_eq!(
            (h.parse::<usize>().unwrap(), w.parse::<usize>().unwrap()),
            (rect.2, rect.3),
            "{text}"
        );
        let k = cands
            .iter()
            .position(|&(r, _)| r == rect)
            .unwrap_or_else(|| panic!("no such candidate: {text}"));
        assert_eq!(cands[k].1, clue, "{text}: another clue's");
        (k, holds)
    }

    fn text(&self) -> String {
        self.cells
            .chunks(self.cols)
            .map(|row| {
                if self.tatamibari {
                    row.concat() + "\n"
                } else {
                    row.join(" ") + "\n"
                }
            })
            .collect()
    }

    fn read(tatamibari: bool, text: &str) -> Division {
        let lines: Vec<Vec<String>> = text
            .lines()
            .map(|l| {
                if tatamibari {
                    l.chars().map(|c| c.to_string()).collect()
                } else {
                    l.split_whitespace()
                        .map(|w| if w == "-" { ".".into() } else { w.into() })
                        .collect()
                }
            })
            .collect();
        Division {
            tatamibari,
            rows: lines.len(),
            cols: lines[0].len(),
            cells: lines.concat(),
        }
    }

    /// A random division into rectangles at most 3 by 3, a clue in each (now and then `?`,
    /// or in Tatamibari a single cell left a hole), and now and then one clue changed.
    fn random(tatamibari: bool, rows: usize, cols: usize, rng: &mut Rng) -> Division {
        let mut covered = vec![false; rows * cols];
        let mut cells = vec![".".to_string(); rows * cols];
        for i in 0..rows * cols {
            if covered[i] {
                continue;
            }
            let (r, c) = (i / cols, i % cols);
            let free = (c..cols).take_while(|&x| !covered[r * cols + x]).count();
            let w = 1 + rng.below(free.min(3));
            let h = 1 + rng.below((rows - r).min(3));
            let rect = (r, c, h, w);
            let mine = area_cells(rect, cols);
            // Rows below may be taken already by a region from the left: stop above them.
            let h = (0..h)
                .take_while(|&dr| mine.iter().all(|&k| k / cols != r + dr || !covered[k]))
                .count();
            let mine = area_cells((r, c, h, w), cols);
            mine.iter().for_each(|&k| covered[k] = true);
            let at = mine[rng.below(mine.len())];
            cells[at] = if tatamibari && h * w == 1 && rng.below(8) == 0 {
                "#".into()
            } else if rng.below(6) == 0 {
                "?".into()
            } else if tatamibari {
                match h.cmp(&w) {
                    std::cmp::Ordering::Equal => "+",
                    std::cmp::Ordering::Less => "-",
                    std::cmp::Ordering::Greater => "|",
                }
                .into()
            } else {
                (h * w).to_string()
            };
        }
        if rng.below(10) == 0 {
            let clues: Vec<usize> = (0..rows * cols)
                .filter(|&i| !matches!(cells[i].as_str(), "." | "#"))
                .collect();
            let at = clues[rng.below(clues.len())];
            cells[at] = if tatamibari {
                ["+", "-", "|"][rng.below(3)].into()
            } else {
                (1 + rng.below(6)).to_string()
            };
        }
        Division {
            tatamibari,
            rows,
            cols,
            cells,
        }
    }
}

/// Runs `explain` on a rectangle board and checks each step against what its rules' names say
/// and against every division (brute force; or with `brute` false, the one printed, which
/// the steps then show to be the only one).
/// The steps by way, and the number of solutions: none, one or several (2).
/// A board of rectangles with its candidates, for the steps' check.
struct Rects<'a> {
    board: &'a Division,
    cands: &'a [(Area4, usize)],
}

impl Brute for Rects<'_> {
    type Var = usize;
    type Rule = Constraint;
    fn rule(&self, name: &str) -> Constraint {
        self.board.rule(name, self.cands)
    }
    fn fact(&self, said: &str) -> (usize, bool) {
        self.board.fact(said, self.cands)
    }
    /// The rules' groups and pairs together.
    fn satisfiable(&self, rules: &[Constraint], fixed: &HashMap<usize, bool>) -> bool {
        let groups: Vec<Vec<usize>> = rules.iter().flat_map(|r| r.0.clone()).collect();
        let pairs: Vec<(usize, usize)> = rules.iter().flat_map(|r| r.1.clone()).collect();
        satisfiable_with(&groups, &pairs, fixed)
    }
}

fn check_division(board: &Division, backend: &str, brute: bool) -> (HashMap<String, usize>, usize) {
    let text = board.text();
    let out = explain_json(board.genre(), &text, backend);
    let cands = board.candidates();
    let divisions = if brute {
        board.divisions(&cands)
    } else {
        Vec::new()
    };
    if brute && divisions.is_empty() {
        assert_eq!(out.code, 1, "{text}{}{}", out.stdout, out.stderr);
        return (HashMap::new(), 0);
    }
    let json = json_of(&out, &text);
    let printed: Option<Vec<usize>> = json["solution"]["rectangles"].as_array().map(|list| {
        list.iter()
            .map(|r| {
                let v: Vec<usize> = (0..4).map(|k| r[k].as_u64().unwrap() as usize).collect();
                cands
                    .iter()
                    .position(|&(c, _)| c == (v[0], v[1], v[2], v[3]))
                    .unwrap_or_else(|| panic!("{text}no candidate: {r}"))
            })
            .collect()
    });
    let divisions = if brute {
        divisions
    } else {
        let printed = printed.clone().expect("a unique solution, printed");
        assert!(board.divides(&cands, &printed), "{text}not a division");
        vec![printed]
    };
    let backbone: HashMap<usize, bool> = (0..cands.len())
        .filter_map(|k| {
            let first = divisions[0].contains(&k);
            divisions
                .iter()
                .all(|d| d.contains(&k) == first)
                .then_some((k, first))
        })
        .collect();
    let unique = divisions.len() == 1;
    says_unique(&out, &json, unique, &text);
    let rects = Rects {
        board,
        cands: &cands,
    };
    let (known, ways) = check_steps(&rects, &text, &json, HashMap::new(), &backbone);
    assert_eq!(
        known, backbone,
        "{text}the steps end in what every solution shares"
    );
    assert_eq!(json["open"], cands.len() - backbone.len(), "{text}");
    if unique {
        let mut printed = printed.expect("printed");
        printed.sort_unstable();
        let mut only = divisions[0].clone();
        only.sort_unstable();
        assert_eq!(printed, only, "{text}");
    }
    (ways, divisions.len().min(2))
}

#[test]
fn every_rectangle_step_is_forced_by_what_its_rules_say() {
    let (boards, seed) = common::random_boards(80, 47);
    let mut rng = Rng::new(seed);
    let mut solutions = [0; 3];
    let mut ways: HashMap<String, usize> = HashMap::new();
    for k in 0..boards {
        let (rows, cols) = [
            (3, 3),
            (3, 4),
            (4, 4),
            (2, 5),
            (4, 3),
            (4, 5),
            (5, 4),
            (5, 5),
        ][k % 8];
        let board = Division::random(k % 2 == 1, rows, cols, &mut rng);
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, n) = check_division(&board, backend, true);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
        solutions[n] += 1;
    }
    // Boards of no solution, of one and of several.
    assert!(solutions.iter().all(|&n| n > 0), "{solutions:?}");
    assert!(
        ways.get("single") > Some(&0) && ways.get("chain") > Some(&0),
        "{ways:?}"
    );
}

/// The bundled examples and some janko.at boards, each step checked against its rules' names;
/// that every step is forced and the last leaves every candidate decided shows the solution
/// printed is the only one.
#[test]
fn the_bundled_rectangle_puzzles_are_explained_step_by_step() {
    let mut files: Vec<(bool, PathBuf)> = vec![
        (false, PathBuf::from("docs/examples/shikaku.txt")),
        (true, PathBuf::from("docs/examples/tatamibari.txt")),
    ];
    for name in ["janko-001-10x10", "janko-066-12x14"] {
        files.push((
            false,
            common::data_dir("shikaku").join(format!("{name}.txt")),
        ));
    }
    for name in ["janko-001", "janko-002", "codegolf-10x10"] {
        let found = std::fs::read_dir(common::data_dir("tatamibari"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.extension().is_some_and(|e| e == "txt")
                    && p.file_stem().unwrap().to_str().unwrap().starts_with(name)
            })
            .unwrap();
        files.push((true, found));
    }
    let mut ways: HashMap<String, usize> = HashMap::new();
    for (k, (tatamibari, path)) in files.iter().enumerate() {
        let board = Division::read(*tatamibari, &std::fs::read_to_string(path).unwrap());
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, n) = check_division(&board, backend, false);
        assert_eq!(n, 1, "{}", path.display());
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
    }
    assert!(ways.get("chain") > Some(&0), "{ways:?}");
}

/// A Nurikabe board for the brute-force check: each cell's clue (`Some(None)` for `?`).
struct Islands {
    rows: usize,
    cols: usize,
    clues: Vec<Option<Option<usize>>>,
    /// [`Islands::clue_list`] and each clue's [`Islands::reach`], kept.
    list: Vec<(usize, Option<usize>)>,
    reaches: Vec<Vec<usize>>,
    within: Vec<Vec<bool>>,
}

/// What a Nurikabe rule's name says, over a shading and "cell v is in the island of clue k"
/// booleans ([`Islands::var`]).
#[derive(Clone, Debug)]
enum IslandRule {
    /// Shaded (in no island), or in exactly one of these islands.
    Cell(usize, Vec<usize>),
    /// The island of clue k holds its clue, is unshaded, connected and (where given) this
    /// many cells.
    Island(usize),
    /// Both unshaded: in the same islands.
    Edge(usize, usize),
    /// Not all four shaded.
    Block(usize),
    /// The shaded cells are one piece (or none).
    Wall,
}

impl Islands {
    fn new(rows: usize, cols: usize, clues: Vec<Option<Option<usize>>>) -> Islands {
        let mut board = Islands {
            rows,
            cols,
            clues,
            list: Vec::new(),
            reaches: Vec::new(),
            within: Vec::new(),
        };
        board.list = (0..rows * cols)
            .filter_map(|i| board.clues[i].map(|s| (i, s)))
            .collect();
        board.reaches = (0..board.list.len()).map(|k| board.find_reach(k)).collect();
        board.within = board
            .reaches
            .iter()
            .map(|r| (0..rows * cols).map(|v| r.contains(&v)).collect())
            .collect();
        board
    }

    fn n(&self) -> usize {
        self.rows * self.cols
    }

    /// The clues, in reading order: (cell, size).
    fn clue_list(&self) -> &[(usize, Option<usize>)] {
        &self.list
    }

    fn reach(&self, k: usize) -> Vec<usize> {
        self.reaches[k].clone()
    }

    /// The cells whose membership of clue k's island is a fact, as docs/explain.md states it:
    /// less than the number's steps from it (any for `?`), not another clue's cell.
    fn find_reach(&self, k: usize) -> Vec<usize> {
        let (at, size) = self.list[k];
        let cols = self.cols;
        (0..self.n())
            .filter(|&v| {
                let d = (v / cols).abs_diff(at / cols) + (v % cols).abs_diff(at % cols);
                size.is_none_or(|s| d < s) && (v == at || self.clues[v].is_none())
            })
            .collect()
    }

    /// Variables: the cells' shading first, then each clue's reach in order.
    fn vars(&self) -> (usize, HashMap<(usize, usize), usize>) {
        let mut index = HashMap::new();
        let mut next = self.n();
        for k in 0..self.clue_list().len() {
            for v in self.reach(k) {
                index.insert((k, v), next);
                next += 1;
            }
        }
        (next, index)
    }

    fn neighbours(&self, v: usize) -> Vec<usize> {
        let (r, c) = (v / self.cols, v % self.cols);
        let mut out = Vec::new();
        if r > 0 {
            out.push(v - self.cols);
        }
        if r + 1 < self.rows {
            out.push(v + self.cols);
        }
        if c > 0 {
            out.push(v - 1);
        }
        if c + 1 < self.cols {
            out.push(v + 1);
        }
        out
    }

    /// Whether every cell of `must` is joined to `from` (or, without one, to the first of
    /// `must`) through cells `may` allows.
    fn joined(&self, must: &[usize], from: Option<usize>, may: &dyn Fn(usize) -> bool) -> bool {
        let Some(start) = from.or(must.first().copied()) else {
            return true;
        };
        let mut seen = vec![false; self.n()];
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            for u in self.neighbours(v) {
                if !seen[u] && may(u) {
                    seen[u] = true;
                    stack.push(u);
                }
            }
        }
        must.iter().all(|&v| seen[v])
    }

    /// The clue of "the 5 at (2,3)" / "the ? at (2,3)": the index of the clue at that cell.
    fn clue_at(&self, cell: usize) -> usize {
        self.clue_list()
            .iter()
            .position(|&(at, _)| at == cell)
            .unwrap_or_else(|| panic!("no clue at {cell}"))
    }

    fn rule(&self, name: &str) -> IslandRule {
        let cols = self.cols;
        let cells = cells_in(name, cols);
        if name == "the shaded cells are connected" {
            IslandRule::Wall
        } else if name
            .contains(" is either shaded or in exactly one of the islands that reach it: ")
        {
            let v = cells[0];
            let listed: Vec<usize> = cells[1..].iter().map(|&c| self.clue_at(c)).collect();
            // The islands listed are those whose reach holds the cell.
            let reaching: Vec<usize> = (0..self.clue_list().len())
                .filter(|&k| self.within[k][v])
                .collect();
            assert_eq!(listed, reaching, "{name}");
            assert_eq!(name.ends_with(": none"), listed.is_empty(), "{name}");
            IslandRule::Cell(v, listed)
        } else if let Some(rest) = name.strip_prefix("the island of the ") {
            let k = self.clue_at(cells[0]);
            let (_, size) = self.clue_list()[k];
            let said = rest.split(' ').next().unwrap();
            assert_eq!(said, size.map_or("?".into(), |s| s.to_string()), "{name}");
            let tail = match size {
                Some(1) => " is 1 unshaded cell, connected".to_string(),
                Some(s) => format!(" is {s} unshaded cells, connected"),
                None => " is unshaded cells, connected".to_string(),
            };
            assert!(name.ends_with(&tail), "{name}");
            IslandRule::Island(k)
        } else if name.ends_with(", if both unshaded, are in the same island") {
            assert!(self.neighbours(cells[0]).contains(&cells[1]), "{name}");
            IslandRule::Edge(cells[0], cells[1])
        } else if name.starts_with("the 2×2 from ") && name.ends_with(" is not all shaded") {
            assert_eq!(cells[1], cells[0] + cols + 1, "{name}");
            IslandRule::Block(cells[0])
        } else {
            panic!("a rule this test cannot read: {name}")
        }
    }

    /// "(4,5) is shaded", "… unshaded", "… is in the island of the 5 at (2,3)", "… is not in
    /// …", as (variable, value).
    fn fact(&self, text: &str, index: &HashMap<(usize, usize), usize>) -> (usize, bool) {
        let cells = cells_in(text, self.cols);
        match text.split_once(" is ").unwrap().1 {
            "shaded" => (cells[0], true),
            "unshaded" => (cells[0], false),
            rest => {
                let holds = !rest.starts_with("not ");
                let k = self.clue_at(cells[1]);
                let var = *index
                    .get(&(k, cells[0]))
                    .unwrap_or_else(|| panic!("no such fact: {text}"));
                (var, holds)
            }
        }
    }

    /// Whether `rule` is already broken by the values decided so far (`None`: open); exact
    /// once every value it reads is decided.
    fn broken(
        &self,
        rule: &IslandRule,
        value: &[Option<bool>],
        index: &HashMap<(usize, usize), usize>,
    ) -> bool {
        let m = |k: usize, v: usize| index.get(&(k, v)).map_or(Some(false), |&x| value[x]);
        match *rule {
            IslandRule::Cell(v, ref islands) => {
                let trues = islands.iter().filter(|&&k| m(k, v) == Some(true)).count();
                let open = islands.iter().filter(|&&k| m(k, v).is_none()).count();
                match value[v] {
                    Some(true) => trues > 0,
                    Some(false) => trues > 1 || trues + open == 0,
                    None => trues > 1,
                }
            }
            IslandRule::Island(k) => {
                let (at, size) = self.clue_list()[k];
                let reach = &self.reaches[k];
                let within = &self.within[k];
                let trues: Vec<usize> = reach
                    .iter()
                    .copied()
                    .filter(|&v| m(k, v) == Some(true))
                    .collect();
                let open = reach.iter().filter(|&&v| m(k, v).is_none()).count();
                m(k, at) == Some(false)
                    || trues.iter().any(|&v| value[v] == Some(true))
                    || size.is_some_and(|s| trues.len() > s || trues.len() + open < s)
                    || !self.joined(&trues, Some(at), &|u| within[u] && m(k, u) != Some(false))
            }
            IslandRule::Edge(a, b) => {
                value[a] == Some(false)
                    && value[b] == Some(false)
                    && (0..self.clue_list().len()).any(|k| match (m(k, a), m(k, b)) {
                        (Some(x), Some(y)) => x != y,
                        _ => false,
                    })
            }
            IslandRule::Block(i) => [i, i + 1, i + self.cols, i + self.cols + 1]
                .iter()
                .all(|&j| value[j] == Some(true)),
            IslandRule::Wall => {
                let shaded: Vec<usize> =
                    (0..self.n()).filter(|&i| value[i] == Some(true)).collect();
                !self.joined(&shaded, None, &|u| value[u] != Some(false))
            }
        }
    }

    /// Whether some values of every variable meet `rules` and `fixed`: a search over the
    /// variables the rules and the facts read, the shading first.
    fn satisfiable(&self, rules: &[IslandRule], fixed: &HashMap<usize, bool>) -> bool {
        let (count, index) = self.vars();
        let mut read = vec![false; count];
        fixed.keys().for_each(|&x| read[x] = true);
        for rule in rules {
            let cells: Vec<usize> = match *rule {
                IslandRule::Cell(v, _) => vec![v],
                IslandRule::Island(k) => self.reach(k),
                IslandRule::Edge(a, b) => vec![a, b],
                IslandRule::Block(i) => vec![i, i + 1, i + self.cols, i + self.cols + 1],
                IslandRule::Wall => (0..self.n()).collect(),
            };
            for &v in &cells {
                if !matches!(rule, IslandRule::Island(_)) {
                    read[v] = true;
                }
                for k in 0..self.clue_list().len() {
                    let mine = match *rule {
                        IslandRule::Island(j) => j == k,
                        IslandRule::Cell(..) | IslandRule::Edge(..) => true,
                        _ => false,
                    };
                    if let Some(&x) = index.get(&(k, v)).filter(|_| mine) {
                        read[x] = true;
                    }
                }
                if matches!(rule, IslandRule::Island(_)) {
                    read[v] = true;
                }
            }
        }
        let order: Vec<usize> = (0..count)
            .filter(|&x| read[x] && !fixed.contains_key(&x))
            .collect();
        let mut value: Vec<Option<bool>> = vec![None; count];
        for (&x, &v) in fixed {
            value[x] = Some(v);
        }
        self.extend(rules, &index, &order, &mut value)
    }

    fn extend(
        &self,
        rules: &[IslandRule],
        index: &HashMap<(usize, usize), usize>,
        order: &[usize],
        value: &mut [Option<bool>],
    ) -> bool {
        if rules.iter().any(|r| self.broken(r, value, index)) {
            return false;
        }
        let Some((&x, rest)) = order.split_first() else {
            return true;
        };
        for v in [false, true] {
            value[x] = Some(v);
            if self.extend(rules, index, rest, value) {
                value[x] = None;
                return true;
            }
        }
        value[x] = None;
        false
    }

    /// The solutions by brute force over every shading, with the puzzle's rules as they are
    /// stated (islands by breadth-first search), and their membership read off.
    fn solutions(&self) -> Vec<Vec<bool>> {
        let n = self.n();
        let (count, index) = self.vars();
        let clues = self.clue_list();
        let mut out = Vec::new();
        for s in 0..1u32 << n {
            let shaded = |i: usize| s >> i & 1 == 1;
            if clues.iter().any(|&(at, _)| shaded(at)) {
                continue;
            }
            if (0..n).any(|i| {
                i / self.cols + 1 < self.rows
                    && i % self.cols + 1 < self.cols
                    && [i, i + 1, i + self.cols, i + self.cols + 1]
                        .iter()
                        .all(|&j| shaded(j))
            }) {
                continue;
            }
            let wall: Vec<usize> = (0..n).filter(|&i| shaded(i)).collect();
            if !self.joined(&wall, None, &|u| shaded(u)) {
                continue;
            }
            // Each island: its cells by search from each unshaded cell.
            let mut value = vec![false; count];
            (0..n).for_each(|i| value[i] = shaded(i));
            let mut good = true;
            let mut seen = vec![false; n];
            for start in (0..n).filter(|&i| !shaded(i)) {
                if seen[start] {
                    continue;
                }
                let mut piece = vec![start];
                seen[start] = true;
                let mut k = 0;
                while k < piece.len() {
                    for u in self.neighbours(piece[k]) {
                        if !shaded(u) && !seen[u] {
                            seen[u] = true;
                            piece.push(u);
                        }
                    }
                    k += 1;
                }
                let inside: Vec<usize> = (0..clues.len())
                    .filter(|&k| piece.contains(&clues[k].0))
                    .collect();
                match inside[..] {
                    [k] if clues[k].1.is_none_or(|size| size == piece.len()) => {
                        for &v in &piece {
                            // A cell of an island is in its clue's reach (a theorem the
                            // facts rest on).
                            value[*index.get(&(k, v)).expect("within reach")] = true;
                        }
                    }
                    _ => good = false,
                }
            }
            if good {
                out.push(value);
            }
        }
        out
    }

    fn text(&self) -> String {
        let mut text = format!("{} {}\n", self.rows, self.cols);
        for r in 0..self.rows {
            let row: Vec<String> = (0..self.cols)
                .map(|c| match self.clues[r * self.cols + c] {
                    None => "-".to_string(),
                    Some(None) => "?".to_string(),
                    Some(Some(s)) => s.to_string(),
                })
                .collect();
            text += &(row.join(" ") + "\n");
        }
        text
    }

    fn read(text: &str) -> Islands {
        let mut lines = text.lines();
        let size: Vec<usize> = lines
            .next()
            .unwrap()
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        let clues = lines
            .flat_map(|l| l.split_whitespace())
            .map(|w| match w {
                "-" | "." => None,
                "?" => Some(None),
                n => Some(Some(n.parse().unwrap())),
            })
            .collect();
        Islands::new(size[0], size[1], clues)
    }
}

/// Runs `explain` on a Nurikabe board and checks each step against its rules' names: by
/// brute force over every shading (`solution` `None`), or against the solution given.
/// A Nurikabe board with its variables' index, for the steps' check.
struct IslandFacts<'a> {
    board: &'a Islands,
    index: &'a HashMap<(usize, usize), usize>,
}

impl Brute for IslandFacts<'_> {
    type Var = usize;
    type Rule = IslandRule;
    fn rule(&self, name: &str) -> IslandRule {
        self.board.rule(name)
    }
    fn fact(&self, said: &str) -> (usize, bool) {
        self.board.fact(said, self.index)
    }
    fn satisfiable(&self, rules: &[IslandRule], fixed: &HashMap<usize, bool>) -> bool {
        self.board.satisfiable(rules, fixed)
    }
}

fn check_islands(
    board: &Islands,
    backend: &str,
    solution: Option<&[bool]>,
) -> (HashMap<String, usize>, usize) {
    let text = board.text();
    let out = explain_json("nurikabe", &text, backend);
    let (count, index) = board.vars();
    let solutions: Vec<Vec<bool>> = match solution {
        None => board.solutions(),
        Some(shaded) => {
            // The solution's membership, read off as the brute force does.
            let one = Islands::new(board.rows, board.cols, board.clues.clone());
            let mut value = vec![false; count];
            value[..shaded.len()].copy_from_slice(shaded);
            let clues = one.clue_list();
            for (k, &(at, _)) in clues.iter().enumerate() {
                let mut seen = vec![false; board.n()];
                seen[at] = true;
                let mut piece = vec![at];
                let mut j = 0;
                while j < piece.len() {
                    for u in one.neighbours(piece[j]) {
                        if !shaded[u] && !seen[u] {
                            seen[u] = true;
                            piece.push(u);
                        }
                    }
                    j += 1;
                }
                for v in piece {
                    value[*index.get(&(k, v)).expect("within reach")] = true;
                }
            }
            vec![value]
        }
    };
    if solutions.is_empty() {
        assert_eq!(out.code, 1, "{text}{}{}", out.stdout, out.stderr);
        return (HashMap::new(), 0);
    }
    let json = json_of(&out, &text);
    let backbone: HashMap<usize, bool> = (0..count)
        .filter(|&x| solutions.iter().all(|s| s[x] == solutions[0][x]))
        .map(|x| (x, solutions[0][x]))
        .collect();
    let unique = solutions.len() == 1;
    says_unique(&out, &json, unique, &text);
    // Known from the start: a number's cell is unshaded and in its own island.
    let mut given: HashMap<usize, bool> = HashMap::new();
    for (k, &(at, _)) in board.clue_list().iter().enumerate() {
        given.insert(at, false);
        given.insert(index[&(k, at)], true);
    }
    let facts = IslandFacts {
        board,
        index: &index,
    };
    let (known, ways) = check_steps(&facts, &text, &json, given, &backbone);
    assert_eq!(
        known, backbone,
        "{text}the steps end in what every solution shares"
    );
    if unique {
        let printed: Vec<bool> = json["solution"]["shaded"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| {
                row.as_str()
                    .unwrap()
                    .chars()
                    .map(|c| c == '#')
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(printed[..], solutions[0][..board.n()], "{text}");
    }
    (ways, solutions.len().min(2))
}

#[test]
fn every_nurikabe_step_is_forced_by_what_its_rules_say() {
    let (boards, seed) = common::random_boards(60, 48);
    let mut rng = Rng::new(seed);
    let mut solutions = [0; 3];
    let mut ways: HashMap<String, usize> = HashMap::new();
    for k in 0..boards {
        let (rows, cols) = [(3, 3), (3, 4), (4, 4), (2, 5), (4, 3), (4, 5)][k % 6];
        let n = rows * cols;
        let mut clues = vec![None; n];
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(n);
            clues[at] = Some(if rng.below(10) == 0 {
                None
            } else {
                Some(1 + rng.below(4))
            });
        }
        let board = Islands::new(rows, cols, clues);
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, s) = check_islands(&board, backend, None);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
        solutions[s] += 1;
    }
    // Boards of no solution, of one and of several.
    assert!(solutions.iter().all(|&n| n > 0), "{solutions:?}");
    assert!(
        ways.get("single") > Some(&0) && ways.get("chain") > Some(&0),
        "{ways:?}"
    );
}

/// janko.at's boards, each step checked against its rules' names and the solution janko.at
/// prints: the steps decide every fact, so it is the only one.
fn check_janko_islands(names: &[&str]) -> HashMap<String, usize> {
    let mut ways: HashMap<String, usize> = HashMap::new();
    for (k, name) in names.iter().enumerate() {
        let dir = common::data_dir("nurikabe");
        let text = std::fs::read_to_string(dir.join(format!("{name}.txt"))).unwrap();
        let board = Islands::read(&text);
        let solution: Vec<bool> = std::fs::read_to_string(dir.join(format!("{name}.sol")))
            .unwrap()
            .split_whitespace()
            .map(|w| w == "#")
            .collect();
        assert_eq!(solution.len(), board.n(), "{name}");
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, s) = check_islands(&board, backend, Some(&solution));
        assert_eq!(s, 1, "{name}");
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
    }
    ways
}

#[test]
fn janko_nurikabe_boards_are_explained_step_by_step() {
    let ways = check_janko_islands(&["janko-0101-3x3", "janko-0102-4x4", "janko-0103-5x5"]);
    assert!(ways.get("chain") > Some(&0), "{ways:?}");
}

/// The same on a 6×6, whose steps over the wall take this test's search about a minute
/// (`cargo test --release --test explain -- --ignored`).
#[test]
#[ignore]
fn a_janko_nurikabe_6x6_is_explained_step_by_step() {
    check_janko_islands(&["janko-0020-6x6"]);
}

/// A number far larger than its board (review): the island rule's distances stop at the cells
/// it can reach, so explain answers "no solution" at once instead of building a variable per
/// cell and step up to the number (it aborted at 3.9 GB).
#[test]
fn a_nurikabe_number_past_its_board_has_no_solution_at_once() {
    let dir = std::env::temp_dir().join(format!("explain-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.txt");
    std::fs::write(&file, "2 2\n16777216 -\n- -\n").unwrap();
    for command in ["explain", "grade"] {
        let out = run(&[command, "nurikabe", file.to_str().unwrap()], None);
        assert_eq!(out.code, 1, "{command}: {}{}", out.stdout, out.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A hint (`--next`) on a puzzle with several solutions says so in words and exits 1, as
/// `explain` and `grade` do; a hint's JSON carries no solution, unique or not, while the whole
/// explanation's does.
#[test]
fn a_hint_says_not_unique_and_gives_no_answer_away() {
    let several = b"1...\n....\n....\n....\n";
    let out = run(&["explain", "sudoku", "-", "--next"], Some(several));
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("not unique"), "{}", out.stdout);
    let out = run(
        &["explain", "sudoku", "-", "--next", "--format", "json"],
        Some(several),
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (v["unique"].clone(), v["solution"].clone()),
        (Value::Bool(false), Value::Null)
    );
    let example = "docs/examples/sudoku.txt";
    let out = run(
        &["explain", "sudoku", example, "--next", "--format", "json"],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["status"], "partial");
    assert_eq!(v["solution"], Value::Null, "a hint gives the answer away");
    let out = run(&["explain", "sudoku", example, "--format", "json"], None);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v["solution"].is_object(), "{}", out.stdout);
}
