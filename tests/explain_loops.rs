//! `explain slitherlink` and `explain masyu` checked by code that shares nothing with the
//! encoder (tests/explain.rs's pattern): each step's rules are read back from their names into
//! constraints of this test's own over the edges (a clue counts its cell's sides, a node has
//! two lines or none, a pearl's rule as a player states it, the lines one piece by a walk), and
//! a backtracking search of its own over the edges confirms that the rules and the facts a
//! step lists force every deduction, that removing any one rule of a larger step marked
//! minimal lets its first deduction fail, and that the steps reach exactly what every solution
//! shares (every single loop of small random boards, found by the same search).

mod common;

use common::explained::{check_steps, explain_json, json_of, says_unique, Brute};
use common::run;
use encodings::rng::Rng;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Slitherlink,
    Masyu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Up,
    Down,
    Left,
    Right,
}

const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

#[derive(Clone, Debug, PartialEq, Eq)]
enum Rule {
    /// The number at cell i counts its sides on the loop.
    Clue(usize, usize),
    /// Node v has two lines or none.
    Node(usize),
    White(usize),
    Black(usize),
    /// Some line, and every line joined to every other through lines.
    OnePiece,
}

/// A board: its cells' clues (Slitherlink: a number, 5 for `?`; Masyu: 1 white, 2 black) and
/// the grid of nodes the loop runs on, with its edges.
struct Board {
    kind: Kind,
    rows: usize,
    cols: usize,
    clues: Vec<Option<usize>>,
    /// Nodes: `nr × nc` (Slitherlink's corners, Masyu's cells).
    nr: usize,
    nc: usize,
    /// Each edge's two nodes.
    edges: Vec<(usize, usize)>,
    /// `toward[v][d]`: the edge from node v in direction d.
    toward: Vec<[Option<usize>; 4]>,
}

impl Board {
    fn new(kind: Kind, rows: usize, cols: usize, clues: Vec<Option<usize>>) -> Board {
        let (nr, nc) = match kind {
            Kind::Slitherlink => (rows + 1, cols + 1),
            Kind::Masyu => (rows, cols),
        };
        let mut edges = Vec::new();
        let mut toward = vec![[None; 4]; nr * nc];
        for r in 0..nr {
            for c in 0..nc {
                let v = r * nc + c;
                if c + 1 < nc {
                    toward[v][3] = Some(edges.len());
                    toward[v + 1][2] = Some(edges.len());
                    edges.push((v, v + 1));
                }
                if r + 1 < nr {
                    toward[v][1] = Some(edges.len());
                    toward[v + nc][0] = Some(edges.len());
                    edges.push((v, v + nc));
                }
            }
        }
        Board {
            kind,
            rows,
            cols,
            clues,
            nr,
            nc,
            edges,
            toward,
        }
    }

    fn edge(&self, v: usize, d: Dir) -> Option<usize> {
        self.toward[v][DIRS.iter().position(|&x| x == d).unwrap()]
    }

    fn step(&self, v: usize, d: Dir) -> Option<usize> {
        self.edge(v, d).map(|k| {
            let (a, b) = self.edges[k];
            if a == v {
                b
            } else {
                a
            }
        })
    }

    /// The edge beyond the neighbour in direction d.
    fn beyond(&self, v: usize, d: Dir) -> Option<usize> {
        self.step(v, d).and_then(|u| self.edge(u, d))
    }

    fn text(&self) -> String {
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for r in 0..self.rows {
            let words: Vec<String> = (0..self.cols)
                .map(|c| match (self.kind, self.clues[r * self.cols + c]) {
                    (_, None) => "-".into(),
                    (Kind::Slitherlink, Some(5)) => "?".into(),
                    (Kind::Slitherlink, Some(k)) => k.to_string(),
                    (Kind::Masyu, Some(1)) => "w".into(),
                    (Kind::Masyu, Some(_)) => "b".into(),
                })
                .collect();
            s += &(words.join(" ") + "\n");
        }
        s
    }

    fn name(&self) -> &'static str {
        match self.kind {
            Kind::Slitherlink => "slitherlink",
            Kind::Masyu => "masyu",
        }
    }

    /// "(r,c)" as a cell, 1-based.
    fn cell(&self, word: &str) -> usize {
        let (r, c) = word
            .trim_matches(|ch| ch == '(' || ch == ')' || ch == ',' || ch == ':')
            .split_once(',')
            .unwrap_or_else(|| panic!("not a cell: {word}"));
        let (r, c) = (
            r.parse::<usize>().unwrap() - 1,
            c.parse::<usize>().unwrap() - 1,
        );
        assert!(r < self.rows && c < self.cols, "{word} is off the board");
        r * self.cols + c
    }

    /// A Slitherlink cell's corner: top left is the node of its own row and column.
    fn corner(&self, cell: usize, down: bool, right: bool) -> usize {
        let (r, c) = (cell / self.cols, cell % self.cols);
        (r + usize::from(down)) * self.nc + c + usize::from(right)
    }

    /// A Slitherlink cell's four sides: top, bottom, left, right.
    fn sides(&self, cell: usize) -> [usize; 4] {
        let tl = self.corner(cell, false, false);
        let br = self.corner(cell, true, true);
        [
            self.edge(tl, Dir::Right).unwrap(),
            self.edge(br, Dir::Left).unwrap(),
            self.edge(tl, Dir::Down).unwrap(),
            self.edge(br, Dir::Up).unwrap(),
        ]
    }

    fn rule(&self, name: &str) -> Rule {
        let w: Vec<&str> = name.split(' ').collect();
        if name == "the lines form one connected piece" {
            return Rule::OnePiece;
        }
        if let Some(node) = name.strip_suffix(" has two lines or none") {
            return Rule::Node(match self.kind {
                Kind::Masyu => self.cell(node),
                Kind::Slitherlink => {
                    // "the top left corner of (r,c)"; the bottom and right only past the last
                    // row and column.
                    let nw: Vec<&str> = node.split(' ').collect();
                    assert_eq!((nw[0], nw[3], nw[4]), ("the", "corner", "of"), "{name}");
                    let cell = self.cell(nw[5]);
                    let down = nw[1] == "bottom";
                    let right = nw[2] == "right";
                    assert!(nw[1] == "top" || nw[1] == "bottom", "{name}");
                    assert!(nw[2] == "left" || nw[2] == "right", "{name}");
                    assert!(!down || cell / self.cols == self.rows - 1, "{name}");
                    assert!(!right || cell % self.cols == self.cols - 1, "{name}");
                    self.corner(cell, down, right)
                }
            });
        }
        match self.kind {
            Kind::Slitherlink => {
                // "the 3 at (r,c) has 3 sides on the loop", "… has no side on the loop"
                let k: usize = w[1].parse().unwrap();
                let cell = self.cell(w[3]);
                assert_eq!(self.clues[cell], Some(k), "{name}");
                let count = match k {
                    0 => "no side".to_string(),
                    1 => "1 side".to_string(),
                    k => format!("{k} sides"),
                };
                assert_eq!(
                    name,
                    format!("the {k} at {} has {count} on the loop", w[3]),
                    "a rule this test cannot read"
                );
                Rule::Clue(cell, k)
            }
            Kind::Masyu => {
                let cell = self.cell(w[4]);
                let white = format!(
                    "the white pearl at {} the loop goes straight through it, and the two edges \
                     one step beyond it on that line are not both on the loop",
                    w[4]
                );
                let black = format!(
                    "the black pearl at {} the loop turns on it, and each of its two lines \
                     continues straight for one more edge",
                    w[4]
                );
                if name == white {
                    assert_eq!(self.clues[cell], Some(1), "{name}");
                    Rule::White(cell)
                } else if name == black {
                    assert_eq!(self.clues[cell], Some(2), "{name}");
                    Rule::Black(cell)
                } else {
                    panic!("a rule this test cannot read: {name}")
                }
            }
        }
    }

    /// A fact: an edge, and whether it is on the loop.
    fn fact(&self, text: &str) -> (usize, bool) {
        let (what, holds) = if let Some(w) = text.strip_suffix(" is not on the loop") {
            (w, false)
        } else if let Some(w) = text.strip_suffix(" is on the loop") {
            (w, true)
        } else {
            panic!("a fact this test cannot read: {text}")
        };
        let w: Vec<&str> = what.split(' ').collect();
        let edge = match self.kind {
            Kind::Masyu => {
                // "the line between (r,c) and (r,c')": neighbours.
                assert_eq!((w[0], w[1], w[2], w[4]), ("the", "line", "between", "and"));
                let (a, b) = (self.cell(w[3]), self.cell(w[5]));
                let k = DIRS
                    .iter()
                    .find_map(|&d| (self.step(a, d) == Some(b)).then(|| self.edge(a, d)))
                    .flatten()
                    .unwrap_or_else(|| panic!("not neighbours: {text}"));
                assert!(a < b, "{text}");
                k
            }
            Kind::Slitherlink => {
                // "the top side of (r,c)"; bottom and right only on the last row and column.
                assert_eq!((w[0], w[2], w[3]), ("the", "side", "of"), "{text}");
                let cell = self.cell(w[4]);
                let [top, bottom, left, right] = self.sides(cell);
                match w[1] {
                    "top" => top,
                    "left" => left,
                    "bottom" => {
                        assert_eq!(cell / self.cols, self.rows - 1, "{text}");
                        bottom
                    }
                    "right" => {
                        assert_eq!(cell % self.cols, self.cols - 1, "{text}");
                        right
                    }
                    _ => panic!("{text}"),
                }
            }
        };
        (edge, holds)
    }

    fn all_rules(&self) -> Vec<Rule> {
        let mut rules = Vec::new();
        for (i, clue) in self.clues.iter().enumerate() {
            match (self.kind, clue) {
                (Kind::Slitherlink, Some(k)) if *k <= 4 => rules.push(Rule::Clue(i, *k)),
                (Kind::Masyu, Some(1)) => rules.push(Rule::White(i)),
                (Kind::Masyu, Some(2)) => rules.push(Rule::Black(i)),
                _ => {}
            }
        }
        rules.extend((0..self.nr * self.nc).map(Rule::Node));
        rules.push(Rule::OnePiece);
        rules
    }

    /// The edges a local rule reads.
    fn reads(&self, rule: &Rule) -> Vec<usize> {
        match *rule {
            Rule::Clue(i, _) => self.sides(i).to_vec(),
            Rule::Node(v) => DIRS.iter().filter_map(|&d| self.edge(v, d)).collect(),
            Rule::White(v) | Rule::Black(v) => DIRS
                .iter()
                .flat_map(|&d| [self.edge(v, d), self.beyond(v, d)])
                .flatten()
                .collect(),
            Rule::OnePiece => Vec::new(),
        }
    }

    /// Whether a local rule holds on `on` (every edge it reads decided).
    fn holds(&self, rule: &Rule, on: &dyn Fn(Option<usize>) -> bool) -> bool {
        match *rule {
            Rule::Clue(i, k) => self.sides(i).iter().filter(|&&e| on(Some(e))).count() == k,
            Rule::Node(v) => {
                let n = DIRS.iter().filter(|&&d| on(self.edge(v, d))).count();
                n == 0 || n == 2
            }
            Rule::White(v) => {
                // Straight through along one line, not the other, and not straight on
                // through both cells beside it.
                let line = |a: Dir, b: Dir| on(self.edge(v, a)) && on(self.edge(v, b));
                let none = |a: Dir, b: Dir| !on(self.edge(v, a)) && !on(self.edge(v, b));
                let turns = |a: Dir, b: Dir| !(on(self.beyond(v, a)) && on(self.beyond(v, b)));
                (line(Dir::Left, Dir::Right)
                    && none(Dir::Up, Dir::Down)
                    && turns(Dir::Left, Dir::Right))
                    || (line(Dir::Up, Dir::Down)
                        && none(Dir::Left, Dir::Right)
                        && turns(Dir::Up, Dir::Down))
            }
            Rule::Black(v) => {
                // One edge of each line, each going on straight.
                let one = |a: Dir, b: Dir| on(self.edge(v, a)) != on(self.edge(v, b));
                one(Dir::Left, Dir::Right)
                    && one(Dir::Up, Dir::Down)
                    && DIRS
                        .iter()
                        .all(|&d| !on(self.edge(v, d)) || on(self.beyond(v, d)))
            }
            Rule::OnePiece => true,
        }
    }

    /// Whether lines can be one piece: some edge `on` or free, and every `on` edge in one
    /// component of the graph of the edges `on` or `free` (the free ones of that component
    /// joining them).
    fn one_piece_possible(&self, on: &[bool], free: &[bool]) -> bool {
        let usable: Vec<usize> = (0..self.edges.len())
            .filter(|&k| on[k] || free[k])
            .collect();
        let Some(&first) = (0..self.edges.len())
            .find(|&k| on[k])
            .as_ref()
            .or(usable.first())
        else {
            return false;
        };
        // Walk the usable edges from the first one's node.
        let n = self.nr * self.nc;
        let mut seen = vec![false; n];
        let mut stack = vec![self.edges[first].0];
        seen[stack[0]] = true;
        while let Some(v) = stack.pop() {
            for &k in &usable {
                let (a, b) = self.edges[k];
                for (x, y) in [(a, b), (b, a)] {
                    if x == v && !seen[y] {
                        seen[y] = true;
                        stack.push(y);
                    }
                }
            }
        }
        (0..self.edges.len()).all(|k| !on[k] || seen[self.edges[k].0])
    }

    /// Every edge set (as on/off over all edges, free edges off) keeping `rules` with
    /// `fixed`, found by backtracking over the edges the local rules read; stops at `most`.
    fn models(&self, rules: &[Rule], fixed: &HashMap<usize, bool>, most: usize) -> usize {
        let piece = rules.contains(&Rule::OnePiece);
        let local: Vec<(&Rule, Vec<usize>)> = rules
            .iter()
            .filter(|r| **r != Rule::OnePiece)
            .map(|r| (r, self.reads(r)))
            .collect();
        let mut order: Vec<usize> = Vec::new();
        let mut placed = vec![false; self.edges.len()];
        for (_, read) in &local {
            for &k in read {
                if !placed[k] && !fixed.contains_key(&k) {
                    placed[k] = true;
                    order.push(k);
                }
            }
        }
        let free: Vec<bool> = (0..self.edges.len())
            .map(|k| !placed[k] && !fixed.contains_key(&k))
            .collect();
        // Each rule is checked once its last edge in `order` is set.
        let mut due: Vec<Vec<usize>> = vec![Vec::new(); order.len() + 1];
        for (j, (_, read)) in local.iter().enumerate() {
            let last = read
                .iter()
                .filter_map(|k| order.iter().position(|x| x == k))
                .map(|p| p + 1)
                .max()
                .unwrap_or(0);
            due[last].push(j);
        }
        let mut on = vec![false; self.edges.len()];
        for (&k, &b) in fixed {
            on[k] = b;
        }
        let mut count = 0;
        self.search(
            &order, &due, &local, &free, piece, 0, &mut on, &mut count, most,
        );
        count
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        order: &[usize],
        due: &[Vec<usize>],
        local: &[(&Rule, Vec<usize>)],
        free: &[bool],
        piece: bool,
        at: usize,
        on: &mut Vec<bool>,
        count: &mut usize,
        most: usize,
    ) {
        if *count >= most {
            return;
        }
        let read = |k: Option<usize>| k.is_some_and(|k| on[k]);
        if !due[at].iter().all(|&j| self.holds(local[j].0, &read)) {
            return;
        }
        if at == order.len() {
            if !piece || self.one_piece_possible(on, free) {
                *count += 1;
            }
            return;
        }
        for b in [false, true] {
            on[order[at]] = b;
            self.search(order, due, local, free, piece, at + 1, on, count, most);
        }
        on[order[at]] = false;
    }

    fn satisfiable(&self, rules: &[Rule], fixed: &HashMap<usize, bool>) -> bool {
        self.models(rules, fixed, 1) > 0
    }

    /// Every solution: all the rules, every edge read by some node's rule.
    fn solutions(&self) -> Vec<Vec<bool>> {
        let rules = self.all_rules();
        let mut found = Vec::new();
        let mut on = vec![false; self.edges.len()];
        self.collect(&rules, 0, &mut on, &mut found);
        found
    }

    fn collect(&self, rules: &[Rule], k: usize, on: &mut Vec<bool>, found: &mut Vec<Vec<bool>>) {
        let read = |e: Option<usize>| e.is_some_and(|e| e < k && on[e]);
        // A node's rule once all its edges are set.
        let decided = |r: &Rule| self.reads(r).iter().all(|&e| e < k);
        if !rules
            .iter()
            .filter(|r| **r != Rule::OnePiece && decided(r))
            .all(|r| self.holds(r, &read))
        {
            return;
        }
        if k == self.edges.len() {
            let none = vec![false; self.edges.len()];
            if self.one_piece_possible(on, &none) {
                found.push(on.clone());
            }
            return;
        }
        for b in [false, true] {
            on[k] = b;
            self.collect(rules, k + 1, on, found);
        }
        on[k] = false;
    }
}

/// Every single loop on a board's nodes, found by [`Board::solutions`] of the board with no
/// clues, kept per size.
type Loops = HashMap<(usize, usize), (Board, Vec<Vec<bool>>)>;

/// A random single loop on the nodes of a `rows × cols` board.
fn random_loop<'a>(
    kind: Kind,
    rows: usize,
    cols: usize,
    cache: &'a mut Loops,
    rng: &mut Rng,
) -> (&'a Board, Vec<bool>) {
    let (empty, loops) = cache.entry((rows, cols)).or_insert_with(|| {
        let empty = Board::new(kind, rows, cols, vec![None; rows * cols]);
        let loops = empty.solutions();
        (empty, loops)
    });
    (empty, loops[rng.below(loops.len())].clone())
}

/// A Slitherlink board from a random loop: each cell's count shown with probability about a
/// half; now and then one number changed (often no solution) or a `?`.
fn random_slitherlink(rng: &mut Rng, cache: &mut Loops) -> Board {
    let (rows, cols) = [(2, 2), (2, 3), (3, 3), (3, 2)][rng.below(4)];
    let (empty, chosen) = random_loop(Kind::Slitherlink, rows, cols, cache, rng);
    let n = rows * cols;
    let mut clues: Vec<Option<usize>> = (0..n)
        .map(|i| (rng.below(2) == 0).then(|| empty.sides(i).iter().filter(|&&e| chosen[e]).count()))
        .collect();
    if rng.below(6) == 0 {
        clues[rng.below(n)] = Some(rng.below(4));
    }
    if rng.below(8) == 0 {
        clues[rng.below(n)] = Some(5);
    }
    Board::new(Kind::Slitherlink, rows, cols, clues)
}

/// A Masyu board from a random loop: pearls where the loop allows them (black where it turns
/// and goes straight on both ways, white where it goes straight and turns beside), each kept
/// with probability about two thirds; now and then a pearl where the loop does not allow it.
fn random_masyu(rng: &mut Rng, cache: &mut Loops) -> Board {
    let (rows, cols) = [(3, 3), (3, 4), (4, 4), (4, 3), (4, 5)][rng.below(5)];
    let (empty, chosen) = random_loop(Kind::Masyu, rows, cols, cache, rng);
    let read = |e: Option<usize>| e.is_some_and(|e| chosen[e]);
    let n = rows * cols;
    let mut clues: Vec<Option<usize>> = (0..n)
        .map(|v| {
            let fits = |pearl: usize| {
                let rule = if pearl == 1 {
                    Rule::White(v)
                } else {
                    Rule::Black(v)
                };
                empty.holds(&rule, &read)
            };
            let can: Vec<usize> = [1, 2].into_iter().filter(|&p| fits(p)).collect();
            (!can.is_empty() && rng.below(3) != 0).then(|| can[rng.below(can.len())])
        })
        .collect();
    if rng.below(6) == 0 {
        clues[rng.below(n)] = Some(1 + rng.below(2));
    }
    Board::new(Kind::Masyu, rows, cols, clues)
}

impl Brute for Board {
    type Var = usize;
    type Rule = Rule;
    fn rule(&self, name: &str) -> Rule {
        Board::rule(self, name)
    }
    fn fact(&self, said: &str) -> (usize, bool) {
        Board::fact(self, said)
    }
    fn satisfiable(&self, rules: &[Rule], fixed: &HashMap<usize, bool>) -> bool {
        Board::satisfiable(self, rules, fixed)
    }
}

/// Runs `explain` on `board` and checks each step; the solutions are `solutions` (every one,
/// or the one published). Returns the ways counted and whether the board was unique.
fn check(board: &Board, solutions: &[Vec<bool>], backend: &str) -> (HashMap<String, usize>, bool) {
    let text = board.text();
    let out = explain_json(board.name(), &text, backend);
    if solutions.is_empty() {
        assert_eq!(out.code, 1, "{text}{}{}", out.stdout, out.stderr);
        return (HashMap::new(), false);
    }
    let backbone: HashMap<usize, bool> = (0..board.edges.len())
        .filter(|&k| solutions.iter().all(|s| s[k] == solutions[0][k]))
        .map(|k| (k, solutions[0][k]))
        .collect();
    let unique = solutions.len() == 1;
    let json = json_of(&out, &text);
    says_unique(&out, &json, unique, &text);
    assert_eq!(json["solution"].is_null(), !unique, "{text}{}", out.stdout);
    let (known, ways) = check_steps(board, &text, &json, HashMap::new(), &backbone);
    assert_eq!(
        known, backbone,
        "{text}the steps end in what every solution shares"
    );
    (ways, unique)
}

fn random_boards(kind: Kind, count: usize, seed: u64) {
    let (boards, seed) = common::random_boards(count, seed);
    let mut rng = Rng::new(seed);
    let mut cache = HashMap::new();
    let (mut unique, mut none) = (0, 0);
    let mut ways: HashMap<String, usize> = HashMap::new();
    for k in 0..boards {
        let board = match kind {
            Kind::Slitherlink => random_slitherlink(&mut rng, &mut cache),
            Kind::Masyu => random_masyu(&mut rng, &mut cache),
        };
        let solutions = board.solutions();
        none += usize::from(solutions.is_empty());
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, u) = check(&board, &solutions, backend);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
        unique += usize::from(u);
    }
    eprintln!("{kind:?}: {boards} boards, {unique} unique, {none} without a solution: {ways:?}");
    assert!(
        unique > 0 && unique + none < boards,
        "{kind:?}: {unique} of {boards} unique, {none} without a solution"
    );
    assert!(ways.get("single") > Some(&boards), "{kind:?}: {ways:?}");
    // Steps of several rules: chains, and case splits over the one piece.
    assert!(
        ways.contains_key("chain") || ways.contains_key("search"),
        "{kind:?}: {ways:?}"
    );
}

#[test]
fn every_slitherlink_step_is_forced_by_what_its_rules_say() {
    random_boards(Kind::Slitherlink, 120, 4545);
}

#[test]
fn every_masyu_step_is_forced_by_what_its_rules_say() {
    random_boards(Kind::Masyu, 120, 4546);
}

/// The drawn answer (`solve`'s form, as the `.sol` files hold it): `-` and `|` between nodes.
fn drawn(board: &Board, text: &str) -> Vec<bool> {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let at = |y: usize, x: usize| lines.get(y).and_then(|l| l.get(x)).copied();
    let mut on = vec![false; board.edges.len()];
    for v in 0..board.nr * board.nc {
        let (r, c) = (v / board.nc, v % board.nc);
        if let Some(k) = board.edge(v, Dir::Right) {
            on[k] = at(2 * r, 2 * c + 1) == Some('-');
        }
        if let Some(k) = board.edge(v, Dir::Down) {
            on[k] = at(2 * r + 1, 2 * c) == Some('|');
        }
    }
    on
}

fn read_board(kind: Kind, path: &str) -> Board {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let size: Vec<usize> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let clues = lines
        .flat_map(|l| l.split_whitespace().collect::<Vec<_>>())
        .map(|w| match (kind, w) {
            (_, "-" | ".") => None,
            (Kind::Slitherlink, "?") => Some(5),
            (Kind::Slitherlink, w) => Some(w.parse().unwrap()),
            (Kind::Masyu, "w" | "1") => Some(1),
            (Kind::Masyu, _) => Some(2),
        })
        .collect();
    Board::new(kind, size[0], size[1], clues)
}

/// janko.at's boards up to 10×10 (and the bundled examples, Slitherlink's from janko.at too),
/// against the solutions published: each step forced and minimal where it says so, ending in
/// that solution (which the test's own rules accept), so the steps show it the only one.
#[test]
fn janko_boards_are_explained_to_their_published_solutions() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = [
        (Kind::Slitherlink, "tests/data/slitherlink/janko-0001-4x4"),
        (Kind::Slitherlink, "tests/data/slitherlink/janko-0011-5x5"),
        (Kind::Slitherlink, "tests/data/slitherlink/janko-0021-6x6"),
        (Kind::Slitherlink, "tests/data/slitherlink/janko-0041-8x8"),
        (Kind::Slitherlink, "tests/data/slitherlink/janko-0061-10x10"),
        (Kind::Masyu, "tests/data/masyu/janko-0071-5x5"),
        (Kind::Masyu, "tests/data/masyu/janko-0002-6x6"),
        (Kind::Masyu, "tests/data/masyu/janko-0076-7x7"),
        (Kind::Masyu, "tests/data/masyu/janko-0011-10x10"),
    ];
    let mut ways: HashMap<String, usize> = HashMap::new();
    for (k, (kind, stem)) in cases.into_iter().enumerate() {
        let board = read_board(kind, &format!("{root}/{stem}.txt"));
        let solution = drawn(
            &board,
            &std::fs::read_to_string(format!("{root}/{stem}.sol")).unwrap(),
        );
        let fixed: HashMap<usize, bool> = solution.iter().copied().enumerate().collect();
        assert!(
            board.satisfiable(&board.all_rules(), &fixed),
            "{stem}: the solution breaks a rule"
        );
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, unique) = check(&board, &[solution], backend);
        assert!(unique, "{stem}");
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
    }
    assert!(
        ways.contains_key("search") && ways.contains_key("chain"),
        "{ways:?}"
    );
}

/// The command's other forms: the text, `--steps` leaving `?` edges, `grade`, and a picture
/// per step with the deduced edges marked.
#[test]
fn loops_are_explained_graded_and_drawn() {
    for genre in ["slitherlink", "masyu"] {
        let example = format!("docs/examples/{genre}.txt");
        let out = run(&["explain", genre, &example], None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            out.stdout.contains("the solution is unique"),
            "{}",
            out.stdout
        );
        let out = run(&["grade", genre, &example], None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            ["easy", "medium", "hard", "expert", "extreme"]
                .iter()
                .any(|l| out.stdout.contains(l)),
            "{}",
            out.stdout
        );
        let out = run(&["explain", genre, &example, "--next"], None);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.contains('?'), "{}", out.stdout);
        let dir = std::env::temp_dir().join(format!("explain-{genre}-svg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = run(
            &[
                "explain",
                genre,
                &example,
                "--steps",
                "3",
                "--svg",
                dir.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        for k in 1..=3 {
            let svg = std::fs::read_to_string(dir.join(format!("step-{k}.svg"))).unwrap();
            assert!(svg.contains("class=\"deduced\""), "{svg}");
            assert!(svg.contains("class=\"rules\""), "{svg}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
