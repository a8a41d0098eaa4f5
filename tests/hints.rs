//! `solve --hints`: what every solution has in common (Tatamibari's rectangles), or every optimal
//! completion (target sudoku's digits), checked against all solutions enumerated one by one and
//! against one solver question per cell.

mod common;

use common::{data_dir, run};
use encodings::cnf::sum::Bound;
use encodings::cnf::ClauseSink;
use encodings::genres::target_sudoku as ts;
use encodings::genres::tatamibari::{self as tb, Rect, Tatamibari};
use encodings::puzzle::{Ended, Goal};
use encodings::solver::{NewSolver, SolveResult, Stop};
use puzzle_sat::backends::Backend;
use puzzle_sat::runner::{self, Options, Progress};
use serde_json::Value;
use std::collections::BTreeSet;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn rects(v: &Value) -> BTreeSet<Rect> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let n: Vec<usize> = r
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as usize)
                .collect();
            Rect {
                row: n[0],
                col: n[1],
                height: n[2],
                width: n[3],
            }
        })
        .collect()
}

#[test]
fn tatamibari_hints_are_the_rectangles_common_to_every_solution() {
    let opts = Options {
        backend: Backend::Varisat,
        time_limit: None,
        progress: Progress::Never,
        cubes: None,
    };
    for (name, solutions) in [("codegolf-5x5", 2), ("codegolf-7x7", 13)] {
        let path = data_dir("tatamibari").join(format!("{name}.txt"));
        let board = tb::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        // Every solution, each passed by the validator; their number is the corpus's.
        let all = runner::search::<Tatamibari>(
            board.clone(),
            Goal::Enumerate { max: 1000 },
            usize::MAX,
            &opts,
        )
        .unwrap();
        assert_eq!(
            (all.ended, all.answers.len()),
            (Ended::Proved, solutions),
            "{name}"
        );
        let mut common: BTreeSet<Rect> = all.answers[0].0.iter().copied().collect();
        for (sol, ()) in &all.answers {
            assert_eq!(tb::check_rects(&board, sol), Ok(()));
            let this: BTreeSet<Rect> = sol.iter().copied().collect();
            common = common.intersection(&this).copied().collect();
        }
        assert!(
            common.len() < all.answers[0].0.len(),
            "{name}: some rectangle differs between solutions"
        );
        for backend in common::backends() {
            let backend = backend.name();
            let r = run(
                &[
                    "solve",
                    "tatamibari",
                    path.to_str().unwrap(),
                    "--hints",
                    "--format",
                    "json",
                    "--solver",
                    backend,
                ],
                None,
            );
            assert_eq!(r.code, 0, "{name}: {}", r.stderr);
            let v = json(&r.stdout);
            assert_eq!(rects(&v["hints"]), common, "{name} on {backend}");
            assert_eq!(v["decided"], common.len());
        }
        // The text form draws exactly the common rectangles, `.` elsewhere.
        let r = run(
            &["solve", "tatamibari", path.to_str().unwrap(), "--hints"],
            None,
        );
        let covered: usize = common.iter().map(|r| r.height * r.width).sum();
        let drawn = r
            .stdout
            .lines()
            .take(board.rows)
            .flat_map(|l| l.chars())
            .filter(|&c| c != '.')
            .count();
        assert_eq!(drawn, covered, "{}", r.stdout);
        assert!(
            r.stdout.ends_with(&format!(
                "hints: {} of {} rectangles are the same in every solution\n",
                common.len(),
                all.answers[0].0.len()
            )),
            "{}",
            r.stdout
        );
    }
}

#[test]
fn a_unique_puzzle_is_hinted_whole() {
    for name in ["codegolf-10x10", "codegolf-3x3", "codegolf-4x4"] {
        let path = data_dir("tatamibari").join(format!("{name}.txt"));
        let p = path.to_str().unwrap();
        let unique = run(&["solve", "tatamibari", p, "--unique"], None);
        assert_eq!(unique.code, 0, "{name} is unique");
        let solved = json(&run(&["solve", "tatamibari", p, "--format", "json"], None).stdout);
        let hinted = json(
            &run(
                &["solve", "tatamibari", p, "--hints", "--format", "json"],
                None,
            )
            .stdout,
        );
        assert_eq!(
            rects(&hinted["hints"]),
            rects(&solved["rectangles"]),
            "{name}"
        );
    }
}

/// Each open cell asked on its own: can an optimal completion put another digit there? The
/// hinted cells are exactly those where it cannot.
#[test]
fn sudoku_hints_are_the_digits_no_optimal_completion_changes() {
    for file in [
        data_dir("target-sudoku").join("sample-1.in"),
        data_dir("target-sudoku-low").join("empty.in"),
    ] {
        let givens = ts::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let r = run(
            &[
                "solve",
                "target-sudoku",
                file.to_str().unwrap(),
                "--hints",
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v = json(&r.stdout);
        let best = json(
            &run(
                &[
                    "solve",
                    "target-sudoku",
                    file.to_str().unwrap(),
                    "--format",
                    "json",
                ],
                None,
            )
            .stdout,
        );
        let (score, grid) = (best["score"].as_u64().unwrap() as u32, &best["grid"]);
        let solvers = Backend::Varisat.solvers(Stop::new());
        let mut decided = 0;
        for row in 0..9 {
            for col in 0..9 {
                let hint = v["hints"][row][col].as_u64().unwrap();
                let digit = grid[row][col].as_u64().unwrap() as usize;
                decided += (hint != 0) as usize;
                if givens[row][col] != 0 {
                    assert_eq!(hint, givens[row][col] as u64);
                    continue;
                }
                let mut s = solvers.new_solver();
                let enc = ts::encode(&givens, &mut s);
                match enc.min_score(score) {
                    Bound::Lit(l) => s.add_clause(&[l]),
                    Bound::Trivial => {}
                    Bound::Impossible => panic!("the optimum is reachable"),
                }
                if let Some(l) = enc.digit(row, col, digit - 1) {
                    s.add_clause(&[!l]);
                }
                let other = s.solve().unwrap() == SolveResult::Sat;
                assert_eq!(hint != 0, !other, "{} cell ({row}, {col})", file.display());
                if hint != 0 {
                    assert_eq!(hint as usize, digit);
                }
            }
        }
        assert_eq!(v["decided"], decided);
        assert!(decided < 81 && decided > 0);
    }
}

#[test]
fn hints_say_why_not() {
    let five = data_dir("tatamibari").join("codegolf-5x5.txt");
    let five = five.to_str().unwrap();
    for (args, code, says) in [
        (
            vec!["solve", "kakkuro", "docs/examples/kakkuro.txt", "--hints"],
            2,
            "--hints means nothing for kakkuro",
        ),
        (
            vec!["solve", "tatamibari", five, "--hints", "--unique"],
            2,
            "cannot be used with",
        ),
        (
            vec!["solve", "tatamibari", five, "--hints", "--format", "rects"],
            2,
            "--hints prints text, json or svg",
        ),
    ] {
        let r = run(&args, None);
        assert_eq!(r.code, code, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    let r = run(&["solve", "tatamibari", "-", "--hints"], Some(b"+|\n"));
    assert_eq!((r.code, r.stdout.as_str()), (1, "no solution\n"));
}

/// `--hints --format svg` draws the decided part only: the hinted rectangles filled, the
/// hinted digits written, no score under a grid with gaps; the verdict is the caption.
#[test]
fn hints_are_drawn() {
    let count = |svg: &str, class: &str, tag: &str| {
        let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
        let groups: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
            .collect();
        groups
            .iter()
            .map(|g| g.descendants().filter(|n| n.has_tag_name(tag)).count())
            .sum::<usize>()
    };
    let seven = data_dir("tatamibari").join("codegolf-7x7.txt");
    let sudoku = data_dir("target-sudoku").join("sample-1.in");
    for (puzzle, file, fills) in [
        ("tatamibari", &seven, ("rectangles", "rect")),
        ("target-sudoku", &sudoku, ("digit", "text")),
    ] {
        let file = file.to_str().unwrap();
        let v = json(
            &run(
                &["solve", puzzle, file, "--hints", "--format", "json"],
                None,
            )
            .stdout,
        );
        let r = run(&["solve", puzzle, file, "--hints", "--format", "svg"], None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let decided = v["decided"].as_u64().unwrap() as usize;
        let givens = count(&r.stdout, "given", "text");
        assert_eq!(
            count(&r.stdout, fills.0, fills.1) + givens,
            decided,
            "{puzzle}"
        );
        assert_eq!(
            count(&r.stdout, "score", "text"),
            0,
            "{puzzle}: no score for a part"
        );
        assert!(
            r.stdout.contains("hints: ") && r.stderr.starts_with("hints: "),
            "{puzzle}: {}",
            r.stderr
        );
        if puzzle == "target-sudoku" {
            // No blank line where the score would be: the caption starts a score line higher.
            let caption_y = |svg: &str| {
                let doc = roxmltree::Document::parse(svg).unwrap();
                let caption = doc
                    .descendants()
                    .find(|n| n.attribute("class") == Some("caption"))
                    .unwrap();
                caption
                    .descendants()
                    .find(|n| n.has_tag_name("text"))
                    .unwrap()
                    .attribute("y")
                    .unwrap()
                    .parse::<f64>()
                    .unwrap()
            };
            let solved = run(&["solve", puzzle, file, "--format", "svg"], None).stdout;
            assert_eq!(caption_y(&solved) - caption_y(&r.stdout), 30.0, "{puzzle}");
        }
    }
}

/// The backbone search against brute force on random small formulas, with a rule left to cuts,
/// on each embedded backend: budgets 0 (the spare solver refutes literal by literal at once) and
/// the default.
#[test]
fn backbone_agrees_with_brute_force_with_and_without_the_spare_solver() {
    use encodings::cnf::Lit;
    use encodings::search::{backbone_cut, backbone_within};
    let mut seed: u64 = 45;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let names: &[&str] = if cfg!(feature = "cadical") {
        &["varisat", "cadical"]
    } else {
        &["varisat"]
    };
    let mut tried = 0;
    let spares = std::cell::Cell::new(0);
    for k in 0..200 {
        let n = 6 + next(7) as usize;
        let clauses: Vec<Vec<(usize, bool)>> = (0..(n + next(n as u64) as usize))
            .map(|_| {
                (0..2 + next(2))
                    .map(|_| (next(n as u64) as usize, next(2) == 0))
                    .collect()
            })
            .collect();
        // The rule left to cuts: variables 0 and 1 not both true.
        let holds = |a: &[bool]| {
            !(a[0] && a[1]) && clauses.iter().all(|c| c.iter().any(|&(v, s)| a[v] == s))
        };
        let models: Vec<Vec<bool>> = (0..1u32 << n)
            .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect::<Vec<bool>>())
            .filter(|a| holds(a))
            .collect();
        let Some(first) = models.first() else {
            continue;
        };
        tried += 1;
        let want: BTreeSet<(usize, bool)> = (0..n)
            .filter(|&v| models.iter().all(|m| m[v] == first[v]))
            .map(|v| (v, first[v]))
            .collect();
        for name in names {
            let solvers = Backend::by_name(name).unwrap().solvers(Stop::new());
            let build = || {
                let mut s = solvers.new_solver();
                let vars: Vec<Lit> = (0..n).map(|_| s.new_var()).collect();
                for c in &clauses {
                    let lits: Vec<Lit> = c
                        .iter()
                        .map(|&(v, b)| if b { vars[v] } else { !vars[v] })
                        .collect();
                    s.add_clause(&lits);
                }
                (s, vars)
            };
            for budget in [Some(0), None] {
                let (mut s, vars) = build();
                let cand: Vec<Lit> = (0..n)
                    .map(|v| if first[v] { vars[v] } else { !vars[v] })
                    .collect();
                let cuts = |m: &encodings::cnf::Model| {
                    if m.value(vars[0]) && m.value(vars[1]) {
                        vec![vec![!vars[0], !vars[1]]]
                    } else {
                        Vec::new()
                    }
                };
                let spare = || {
                    spares.set(spares.get() + 1);
                    build().0
                };
                let got = match budget {
                    Some(b) => backbone_within(&mut *s, &spare, None, cand, cuts, b),
                    None => backbone_cut(&mut *s, &spare, None, cand, cuts),
                }
                .unwrap()
                .unwrap();
                let got: BTreeSet<(usize, bool)> = got
                    .iter()
                    .map(|&l| {
                        let v = vars.iter().position(|&x| x == l || x == !l).unwrap();
                        (v, l == vars[v])
                    })
                    .collect();
                assert_eq!(
                    got, want,
                    "formula {k} ({name}, budget {budget:?}): {clauses:?}"
                );
            }
        }
    }
    assert!(tried >= 100, "{tried} satisfiable formulas");
    assert!(
        spares.get() >= 20,
        "the spare solver made {} times",
        spares.get()
    );
}

/// Two members of a race computing one backbone on a [`Team`], in two threads (budget 0, so
/// each refutes literal by literal at once, from opposite ends): both end with the backbone
/// brute force finds, whatever the other posted and whenever.
#[test]
fn a_team_of_two_agrees_with_brute_force() {
    use encodings::cnf::Lit;
    use encodings::search::backbone_within;
    use encodings::team::Team;
    let mut seed: u64 = 4545;
    let mut next = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let names: [&str; 2] = if cfg!(feature = "cadical") {
        ["varisat", "cadical"]
    } else {
        ["varisat", "varisat"]
    };
    let (mut tried, mut shared) = (0, 0);
    for k in 0..150 {
        let n = 8 + next(7) as usize;
        let clauses: Vec<Vec<(usize, bool)>> = (0..(n + next(n as u64) as usize))
            .map(|_| {
                (0..2 + next(2))
                    .map(|_| (next(n as u64) as usize, next(2) == 0))
                    .collect()
            })
            .collect();
        let holds = |a: &[bool]| clauses.iter().all(|c| c.iter().any(|&(v, s)| a[v] == s));
        let models: Vec<Vec<bool>> = (0..1u32 << n)
            .map(|m| (0..n).map(|v| m >> v & 1 == 1).collect::<Vec<bool>>())
            .filter(|a| holds(a))
            .collect();
        let Some(first) = models.first() else {
            continue;
        };
        tried += 1;
        let want: BTreeSet<(usize, bool)> = (0..n)
            .filter(|&v| models.iter().all(|m| m[v] == first[v]))
            .map(|v| (v, first[v]))
            .collect();
        let team = Team::new();
        let got: Vec<BTreeSet<(usize, bool)>> = std::thread::scope(|scope| {
            let runs: Vec<_> = names
                .iter()
                .map(|name| {
                    let (team, clauses, first) = (&team, &clauses, first);
                    scope.spawn(move || {
                        let solvers = Backend::by_name(name).unwrap().solvers(Stop::new());
                        let build = || {
                            let mut s = solvers.new_solver();
                            let vars: Vec<Lit> = (0..n).map(|_| s.new_var()).collect();
                            for c in clauses {
                                let lits: Vec<Lit> = c
                                    .iter()
                                    .map(|&(v, b)| if b { vars[v] } else { !vars[v] })
                                    .collect();
                                s.add_clause(&lits);
                            }
                            (s, vars)
                        };
                        let (mut s, vars) = build();
                        let cand: Vec<Lit> = (0..n)
                            .map(|v| if first[v] { vars[v] } else { !vars[v] })
                            .collect();
                        let spare = || build().0;
                        let fixed = backbone_within(
                            &mut *s,
                            &spare,
                            Some(team),
                            cand,
                            |_: &encodings::cnf::Model| Vec::new(),
                            0,
                        )
                        .unwrap()
                        .unwrap();
                        fixed
                            .iter()
                            .map(|&l| {
                                let v = vars.iter().position(|&x| x == l || x == !l).unwrap();
                                (v, l == vars[v])
                            })
                            .collect::<BTreeSet<_>>()
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        for (name, got) in names.iter().zip(&got) {
            assert_eq!(got, &want, "formula {k} ({name}): {clauses:?}");
        }
        let (dropped, proved) = team.posted();
        shared += usize::from(dropped + proved > 0);
    }
    assert!(tried >= 80, "{tried} satisfiable formulas");
    assert!(shared >= 40, "the members posted on {shared} teams");
}
