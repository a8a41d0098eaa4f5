//! `explain kakuro` checked by code that shares nothing with the encoder (tests/explain.rs's
//! pattern): each step's rules are read back from their names ("(2,3) holds one digit", "the
//! cells from (2,3) to (2,5) sum to 17 with no digit twice") into constraints of this test's
//! own over "cell holds digit" booleans, and a search of its own confirms that the rules and
//! the facts a step lists force every deduction, that removing any one rule of a larger step
//! marked minimal lets its first deduction fail, and that the steps reach exactly what every
//! solution shares (random small boards), or the published solution (janko.at boards).

mod common;

use common::explained::{check_steps, explain_json, json_of, says_unique, Brute};
use common::run;
use encodings::rng::Rng;
use std::collections::HashMap;

/// A fact's variable: (cell, digit).
type Var = (usize, usize);

/// What a rule says, over the booleans "cell holds digit".
#[derive(Clone, Debug)]
enum Rule {
    /// Exactly one digit in the cell.
    One(usize),
    /// No digit in two of the cells; with a sum, the digits marked in them are as many as the
    /// cells and add up to it.
    Run(Vec<usize>, Option<usize>),
}

/// The digit sets of `len` distinct digits adding up to `sum` (bit d for d).
fn combos(len: usize, sum: usize) -> Vec<u16> {
    (0u16..512)
        .map(|m| m << 1)
        .filter(|m| {
            m.count_ones() as usize == len
                && (1..=9).filter(|d| m >> d & 1 == 1).sum::<usize>() == sum
        })
        .collect()
}

struct Board {
    rows: usize,
    cols: usize,
    white: Vec<bool>,
    /// A black cell's (down, across) sums.
    clue: Vec<(Option<usize>, Option<usize>)>,
}

impl Board {
    fn text(&self) -> String {
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for r in 0..self.rows {
            let words: Vec<String> = (0..self.cols)
                .map(|c| {
                    let i = r * self.cols + c;
                    match (self.white[i], self.clue[i]) {
                        (true, _) => "0".into(),
                        (false, (None, None)) => "-".into(),
                        (false, (d, a)) => format!(
                            "{},{}",
                            d.map_or(String::new(), |v| v.to_string()),
                            a.map_or(String::new(), |v| v.to_string())
                        ),
                    }
                })
                .collect();
            s += &(words.join(" ") + "\n");
        }
        s
    }

    /// janko.at's form, as the bundled files have it.
    fn read(text: &str) -> Board {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let head: Vec<usize> = lines
            .next()
            .unwrap()
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        let (rows, cols) = (head[0], head[1]);
        let mut white = Vec::new();
        let mut clue = Vec::new();
        for line in lines {
            for w in line.split_whitespace() {
                white.push(w == "0");
                clue.push(match w.split_once(',') {
                    Some((d, a)) => (d.parse().ok(), a.parse().ok()),
                    None => (None, None),
                });
            }
        }
        assert_eq!(white.len(), rows * cols);
        Board {
            rows,
            cols,
            white,
            clue,
        }
    }

    /// Every run of white cells with its clue, as this test reads the board.
    fn runs(&self) -> Vec<(Vec<usize>, Option<usize>, bool)> {
        let mut runs = Vec::new();
        for across in [true, false] {
            let (outer, inner) = if across {
                (self.rows, self.cols)
            } else {
                (self.cols, self.rows)
            };
            for o in 0..outer {
                let at = |k: usize| {
                    if across {
                        o * self.cols + k
                    } else {
                        k * self.cols + o
                    }
                };
                let mut k = 0;
                while k < inner {
                    if !self.white[at(k)] {
                        k += 1;
                        continue;
                    }
                    let sum = if k == 0 {
                        None
                    } else {
                        let (d, a) = self.clue[at(k - 1)];
                        if across {
                            a
                        } else {
                            d
                        }
                    }
                    .filter(|&s| s > 0);
                    let mut cells = Vec::new();
                    while k < inner && self.white[at(k)] {
                        cells.push(at(k));
                        k += 1;
                    }
                    runs.push((cells, sum, across));
                }
            }
        }
        runs
    }

    fn all_rules(&self) -> Vec<Rule> {
        let mut rules: Vec<Rule> = (0..self.white.len())
            .filter(|&i| self.white[i])
            .map(Rule::One)
            .collect();
        rules.extend(self.runs().into_iter().map(|(c, s, _)| Rule::Run(c, s)));
        rules
    }

    fn cell(&self, word: &str) -> usize {
        let (r, c) = word
            .trim_matches(|ch| ch == '(' || ch == ')')
            .split_once(',')
            .unwrap();
        (r.parse::<usize>().unwrap() - 1) * self.cols + c.parse::<usize>().unwrap() - 1
    }

    /// The cells from one to another along a row or a column, both included.
    fn line(&self, a: usize, b: usize) -> Vec<usize> {
        let (ra, ca, rb, cb) = (a / self.cols, a % self.cols, b / self.cols, b % self.cols);
        if ra == rb {
            (ca..=cb).map(|c| ra * self.cols + c).collect()
        } else {
            assert_eq!(ca, cb, "a run is straight");
            (ra..=rb).map(|r| r * self.cols + ca).collect()
        }
    }

    /// A rule read from its name.
    fn rule(&self, name: &str) -> Rule {
        let words: Vec<&str> = name.split(' ').collect();
        if let Some(cell) = name.strip_suffix(" holds one digit") {
            Rule::One(self.cell(cell))
        } else if words.get(1) == Some(&"alone") {
            // "(a) alone sums to S"
            assert_eq!(words[2..4], ["sums", "to"], "{name}");
            Rule::Run(vec![self.cell(words[0])], Some(words[4].parse().unwrap()))
        } else if name.starts_with("the cells from ") {
            let cells = self.line(self.cell(words[3]), self.cell(words[5]));
            match &words[6..] {
                ["sum", "to", s, "with", "no", "digit", "twice"] => {
                    Rule::Run(cells, Some(s.parse().unwrap()))
                }
                ["hold", "no", "digit", "twice"] => Rule::Run(cells, None),
                _ => panic!("a rule this test cannot read: {name}"),
            }
        } else {
            panic!("a rule this test cannot read: {name}")
        }
    }

    /// "(2,3) is 4" or "(2,3) is not 4".
    fn fact(&self, text: &str) -> (Var, bool) {
        let (cell, rest) = text.split_once(" is ").unwrap();
        let (holds, d) = match rest.strip_prefix("not ") {
            Some(d) => (false, d),
            None => (true, rest),
        };
        ((self.cell(cell), d.parse().unwrap()), holds)
    }
}

/// Whether some values of the booleans meet every rule and `fixed`: a search over the marks
/// of each cell the rules name (a set of digits each), a cell under "holds one digit" taking
/// one, a cell in no summed run only the digits fixed true (marking fewer never breaks "no
/// digit twice").
fn satisfiable(rules: &[Rule], fixed: &HashMap<Var, bool>) -> bool {
    let mut cells: Vec<usize> = rules
        .iter()
        .flat_map(|r| match r {
            Rule::One(i) => vec![*i],
            Rule::Run(c, _) => c.clone(),
        })
        .collect();
    cells.sort_unstable();
    cells.dedup();
    let options: Vec<Vec<u16>> = cells
        .iter()
        .map(|&i| {
            let yes: u16 = (1..=9)
                .filter(|&d| fixed.get(&(i, d)) == Some(&true))
                .map(|d| 1 << d)
                .sum();
            let no: u16 = (1..=9)
                .filter(|&d| fixed.get(&(i, d)) == Some(&false))
                .map(|d| 1 << d)
                .sum();
            let fits = |m: u16| m & yes == yes && m & no == 0;
            let one = rules.iter().any(|r| matches!(r, Rule::One(c) if *c == i));
            let summed = rules
                .iter()
                .filter_map(|r| match r {
                    Rule::Run(c, Some(s)) if c.contains(&i) => Some((c.len(), *s)),
                    _ => None,
                })
                .collect::<Vec<_>>();
            if one {
                (1..=9).map(|d| 1u16 << d).filter(|&m| fits(m)).collect()
            } else if summed.is_empty() {
                vec![yes]
            } else {
                let most = summed.iter().map(|s| s.0).min().unwrap();
                (0u16..512)
                    .map(|m| m << 1)
                    .filter(|&m| fits(m) && m.count_ones() as usize <= most)
                    .collect()
            }
        })
        .collect();
    // The cells with the fewest choices first (those the facts decide).
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by_key(|&k| options[k].len());
    let cells: Vec<usize> = order.iter().map(|&k| cells[k]).collect();
    let options: Vec<Vec<u16>> = order.iter().map(|&k| options[k].clone()).collect();
    // Each run: its cells' positions in `cells`, and its digit sets.
    let runs: Vec<(Vec<usize>, Option<Vec<u16>>)> = rules
        .iter()
        .filter_map(|r| match r {
            Rule::Run(c, s) => Some((
                c.iter()
                    .map(|i| cells.iter().position(|x| x == i).unwrap())
                    .collect(),
                s.map(|s| combos(c.len(), s)),
            )),
            Rule::One(_) => None,
        })
        .collect();
    let mut marks = vec![0u16; cells.len()];
    feasible(0, &options, &runs, &marks) && dfs(0, &options, &runs, &mut marks)
}

/// Whether each run can still be completed, the first `k` cells assigned: no digit in two of
/// them, and for a sum some digit set holding the digits so far whose other digits each fit
/// in some cell not yet assigned.
fn feasible(
    k: usize,
    options: &[Vec<u16>],
    runs: &[(Vec<usize>, Option<Vec<u16>>)],
    marks: &[u16],
) -> bool {
    runs.iter().all(|(c, sets)| {
        let mut union = 0u16;
        let mut room = 0u16;
        for &j in c {
            if j < k {
                if union & marks[j] != 0 {
                    return false;
                }
                union |= marks[j];
            } else {
                room |= options[j].iter().fold(0, |a, &m| a | m);
            }
        }
        match sets {
            None => true,
            Some(sets) => sets
                .iter()
                .any(|&s| union & !s == 0 && (s & !union) & !room == 0),
        }
    })
}

fn dfs(
    k: usize,
    options: &[Vec<u16>],
    runs: &[(Vec<usize>, Option<Vec<u16>>)],
    marks: &mut Vec<u16>,
) -> bool {
    if k == options.len() {
        return true;
    }
    for &m in &options[k] {
        marks[k] = m;
        if feasible(k + 1, options, runs, marks) && dfs(k + 1, options, runs, marks) {
            return true;
        }
    }
    false
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
        satisfiable(rules, fixed)
    }
}

/// Runs `explain` on `board` and checks every step; `solution` (the published one) stands
/// for the backbone where given. Returns (steps by way, unique).
fn check(
    board: &Board,
    backend: &str,
    solution: Option<&[usize]>,
) -> (HashMap<String, usize>, bool) {
    let text = board.text();
    let out = explain_json("kakuro", &text, backend);
    let all = board.all_rules();
    let vars: Vec<Var> = (0..board.white.len())
        .filter(|&i| board.white[i])
        .flat_map(|i| (1..=9).map(move |d| (i, d)))
        .collect();
    let backbone: HashMap<Var, bool> = match solution {
        Some(sol) => vars.iter().map(|&(i, d)| ((i, d), sol[i] == d)).collect(),
        None => {
            if !satisfiable(&all, &HashMap::new()) {
                assert_eq!(out.code, 1, "{text}{}{}", out.stdout, out.stderr);
                return (HashMap::new(), false);
            }
            vars.iter()
                .filter_map(|&v| {
                    let t = satisfiable(&all, &HashMap::from([(v, true)]));
                    let f = satisfiable(&all, &HashMap::from([(v, false)]));
                    match (t, f) {
                        (true, false) => Some((v, true)),
                        (false, true) => Some((v, false)),
                        _ => None,
                    }
                })
                .collect()
        }
    };
    let unique = backbone.len() == vars.len();
    let json = json_of(&out, &text);
    says_unique(&out, &json, unique, &text);
    let (known, ways) = check_steps(board, &text, &json, HashMap::new(), &backbone);
    assert_eq!(
        known, backbone,
        "{text}the steps end in what every solution shares"
    );
    if unique {
        let grid: Vec<usize> = json["solution"]["grid"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.as_u64().unwrap() as usize)
            })
            .collect();
        for (i, &d) in grid.iter().enumerate().filter(|&(i, _)| board.white[i]) {
            assert!(backbone[&(i, d)], "{text}");
        }
    }
    (ways, unique)
}

/// A random board: a black first row and column, the rest white but for a few black cells,
/// filled at random with no digit twice in a run; each run's clue its sum, now and then left
/// out or one off (no solution, or another).
fn random_board(rng: &mut Rng) -> Board {
    let rows = 3 + rng.below(2);
    let cols = 3 + rng.below(2);
    let n = rows * cols;
    let white: Vec<bool> = (0..n)
        .map(|i| i / cols > 0 && i % cols > 0 && rng.below(100) < 80)
        .collect();
    let mut board = Board {
        rows,
        cols,
        white,
        clue: vec![(None, None); n],
    };
    let runs = board.runs();
    let mut digits = vec![0usize; n];
    for i in (0..n).filter(|&i| board.white[i]) {
        let taken: Vec<usize> = runs
            .iter()
            .filter(|(c, _, _)| c.contains(&i))
            .flat_map(|(c, _, _)| c.iter().map(|&j| digits[j]))
            .collect();
        let free: Vec<usize> = (1..=9).filter(|d| !taken.contains(d)).collect();
        digits[i] = free[rng.below(free.len())];
    }
    for (cells, _, across) in &runs {
        let head = if *across {
            (cells[0] - 1, true)
        } else {
            (cells[0] - cols, false)
        };
        let sum: usize = cells.iter().map(|&i| digits[i]).sum();
        let sum = match rng.below(20) {
            0 | 1 => None,
            2 => Some(sum + 1),
            _ => Some(sum),
        };
        let clue = &mut board.clue[head.0];
        if head.1 {
            clue.1 = sum;
        } else {
            clue.0 = sum;
        }
    }
    board
}

#[test]
fn every_kakuro_step_is_forced_by_what_its_rules_say() {
    let (boards, seed) = common::random_boards(60, 4545);
    let mut rng = Rng::new(seed);
    let mut unique = 0;
    let mut ways: HashMap<String, usize> = HashMap::new();
    for k in 0..boards {
        let board = random_board(&mut rng);
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, u) = check(&board, backend, None);
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
        unique += usize::from(u);
    }
    assert!(
        unique > boards / 10 && unique < boards,
        "{unique} of {boards} unique"
    );
    assert!(ways.get("single") > Some(&boards), "{ways:?}");
    assert!(ways.get("chain") > Some(&0), "{ways:?}");
}

#[test]
fn bundled_kakuros_are_explained_to_their_solutions() {
    let mut ways: HashMap<String, usize> = HashMap::new();
    let dir = common::data_dir("kakuro");
    let files = [
        "../../../docs/examples/kakuro",
        "janko-92-6x6",
        "janko-57-10x10",
        "janko-162-12x12",
        "janko-301-14x14",
    ];
    for (k, name) in files.iter().enumerate() {
        let path = dir.join(format!("{name}.txt"));
        let board = Board::read(&std::fs::read_to_string(&path).unwrap());
        let sol_path = if name.starts_with("..") {
            dir.join("janko-91-6x6.sol")
        } else {
            dir.join(format!("{name}.sol"))
        };
        let solution: Vec<usize> = std::fs::read_to_string(sol_path)
            .unwrap()
            .split_whitespace()
            .map(|w| w.parse().unwrap_or(0))
            .collect();
        assert_eq!(solution.len(), board.white.len());
        let backend = common::backends()[k % common::backends().len()].name();
        let (w, u) = check(&board, backend, Some(&solution));
        assert!(u, "{name}");
        w.into_iter()
            .for_each(|(way, n)| *ways.entry(way).or_default() += n);
    }
    assert!(ways.get("chain") > Some(&0), "{ways:?}");
    assert!(ways.get("search") > Some(&0), "{ways:?}");
}

#[test]
fn kakuro_is_graded_and_drawn() {
    let out = run(&["grade", "kakuro", "docs/examples/kakuro.txt"], None);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("0 easy ("), "{}", out.stdout);
    let out = run(
        &[
            "explain",
            "kakuro",
            "docs/examples/kakuro.txt",
            "--steps",
            "14",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The board as 14 steps leave it: digits placed, the rest `.`.
    assert!(
        out.stdout.contains("- - - - - -\n- . . - . ."),
        "{}",
        out.stdout
    );
    let dir = std::env::temp_dir().join(format!("explain-kakuro-svg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(
        &[
            "explain",
            "kakuro",
            "docs/examples/kakuro.txt",
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
