//! Kakkuro Optimization end to end: the seed's answers through the checker, rule-breaking
//! variants, the example's proved optimum (snapshot), a brute-force cross-check of the proved
//! optimum on tiny boards, no-answer and bad-input exits, DIMACS round trip.

mod common;

use common::{json_field, run};
use encodings::genre::Genre as _;
use encodings::genres::kakkuro::{
    self as kk, Answer, Cell, Given, Instance, Kakkuro, Puzzle, Score,
};
use encodings::genres::tatamibari::generate::Rng;
#[cfg(feature = "outside-tools")]
use encodings::puzzle::Puzzle as _;
use encodings::puzzle::{Ended, Goal};
use encodings::solver::{SolveResult, Solver};
use puzzle_sat::runner::{self, Options, Outcome, Progress};

const EXAMPLE: &str = "docs/examples/kakkuro.txt";

const ANSWER_86240: &str = " 1:E    1      8:S    9:S    5:S
20:E    6      7      2      5
 7      7:NESW 1      6     (12):S
 3:E    3      5:ES   1      4
 9:E    4      5      8:E    8
";

const ANSWER_103488: &str = " 1:E    1      8:S    7:S   23:S
24:E    6      7      2      9
 7      7:NESW 1      4      2
 3:E    3      5:ES   1      4
 9:E    4      5      8:E    8
";

/// The proved optimum in process, on the given backend.
fn optimize(p: Puzzle, opts: &Options) -> Outcome<Kakkuro> {
    runner::search::<Kakkuro>(
        Instance {
            puzzle: p,
            fixed: None,
        },
        Goal::Best,
        1,
        opts,
    )
    .unwrap()
}

fn example() -> Puzzle {
    kk::parse(&std::fs::read_to_string(EXAMPLE).unwrap()).unwrap()
}

/// A file of its own, removed when the returned path is dropped.
fn temp(name: &str, text: &str) -> tempfile::TempPath {
    let mut f = tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempfile()
        .unwrap();
    std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
    f.into_temp_path()
}

fn check_answer(puzzle: &str, answer: &str) -> common::Run {
    let path = temp("answer.txt", answer);
    run(
        &[
            "check",
            "kakkuro",
            puzzle,
            "--answer",
            path.to_str().unwrap(),
        ],
        None,
    )
}

#[test]
fn the_seeds_answers_check_with_their_exact_scores() {
    for (answer, score) in [(ANSWER_86240, "86240"), (ANSWER_103488, "103488")] {
        let r = check_answer(EXAMPLE, answer);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert!(r.stdout.starts_with("valid (strict mode)"), "{}", r.stdout);
        assert!(
            r.stdout.contains(&format!("score {score}:")),
            "{}",
            r.stdout
        );
        assert!(
            r.stdout.contains(&format!("{score}:")),
            "contest string\n{}",
            r.stdout
        );
    }
    // In process too: the parts.
    let p = example();
    let read = kk::parse_answer(&p, ANSWER_86240).unwrap();
    let s = kk::check(&p, &read.answer).unwrap();
    assert_eq!(
        (s.score.p.to_string(), s.score.d, s.score.e, s.painted),
        ("78400".to_string(), 1, 0, 1)
    );
    assert_eq!(s.factors, vec![20, 49, 10, 8]);
}

#[test]
fn the_seeds_contest_strings_check_with_the_best_sides() {
    for (string, score) in [
        (
            "86240:1,1,8,9,5,20,6,7,2,5,7,7,1,6,(12),3,3,5,1,4,9,4,5,8,8",
            "86240",
        ),
        (
            "103488:1,1,8,7,23,24,6,7,2,9,7,7,1,4,2,3,3,5,1,4,9,4,5,8,8",
            "103488",
        ),
    ] {
        let r = check_answer(EXAMPLE, string);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(&format!("score {score}:")),
            "{}",
            r.stdout
        );
        assert!(!r.stdout.contains("claims"), "{}", r.stdout);
    }
    // A wrong claimed score fails the check (it was a note, exit 0); values no sides can make
    // valid are rejected.
    let r = check_answer(
        EXAMPLE,
        "99999:1,1,8,7,23,24,6,7,2,9,7,7,1,4,2,3,3,5,1,4,9,4,5,8,8",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("wrong claim: the answer claims 99999, the exact score is 103488"),
        "{}",
        r.stdout
    );
    let r = check_answer(
        EXAMPLE,
        "1,1,8,7,23,24,6,7,2,9,7,7,1,4,2,3,3,5,1,4,9,4,5,8,9",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.starts_with("invalid"), "{}", r.stdout);
}

#[test]
fn broken_answers_name_the_rule_and_the_cell() {
    let line = temp("line.txt", "# . #\n");
    let square = temp("square.txt", "# .\n. .\n");
    let thick = temp("thick.txt", "#[E] .\n");
    let run3 = temp("run3.txt", "# . .\n");
    let cases = [
        // A wrong sum: 24 → 25 at row 2, column 1.
        (
            EXAMPLE,
            ANSWER_103488.replacen("24:E", "25:E", 1),
            "rule 1 broken at row 2, column 1",
        ),
        // An open side facing a gray cell (an empty run).
        (
            EXAMPLE,
            ANSWER_103488.replacen(" 1:E", " 1:ES", 1),
            "rule 1 broken at row 1, column 1",
        ),
        // A gray cell closed on all four sides.
        (
            EXAMPLE,
            ANSWER_103488.replacen("5:ES", "5:", 1),
            "rule 3 broken at row 4, column 3",
        ),
        // Two grays open towards each other (each run adds up).
        (
            line.to_str().unwrap(),
            "4:E 4 4:W\n".to_string(),
            "rule 4 broken at row 1, column 1",
        ),
        // A white cell in no open side's run.
        (
            square.to_str().unwrap(),
            "5:ES 5\n5 7\n".to_string(),
            "rule 5 broken at row 2, column 2",
        ),
        // A repeated digit in a row.
        (
            run3.to_str().unwrap(),
            "4:E 2 2\n".to_string(),
            "rule 7 broken at row 1, column 2",
        ),
        // A given gray written white.
        (
            EXAMPLE,
            ANSWER_103488.replacen(" 1:E    1", " 2      1", 1),
            "rule 2 broken at row 1, column 1",
        ),
        // A given thick edge opened.
        (
            thick.to_str().unwrap(),
            "3:E 3\n".to_string(),
            "rule 2 broken at row 1, column 1",
        ),
    ];
    for (puzzle, answer, rule) in &cases {
        let r = check_answer(puzzle, answer);
        assert_eq!(r.code, 1, "{answer}\n{}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains(rule),
            "expected {rule:?} for\n{answer}\ngot {}",
            r.stdout
        );
    }
}

#[test]
fn the_example_is_solved_to_a_proved_optimum() {
    // The example has several optimal answers: which one is printed is the answering
    // backend's, so the snapshot pins one (docs/solvers.md, what a race fixes).
    let r = run(&["solve", "kakkuro", EXAMPLE, "--solver", "varisat"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("optimal (proved)"), "{}", r.stdout);
    // The printed contest string checks as valid with the printed score.
    let contest = r.stdout.lines().find(|l| l.contains(',')).unwrap();
    let c = check_answer(EXAMPLE, contest);
    assert_eq!(c.code, 0, "{}", c.stdout);
    let score = contest.split(':').next().unwrap();
    assert!(
        c.stdout.contains(&format!("score {score}:")),
        "{}",
        c.stdout
    );
    // It beats both seed answers.
    assert!(score.parse::<u64>().unwrap() > 103488);
    insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("kakkuro-example", r.stdout);
    });
    let j = run(&["solve", "kakkuro", EXAMPLE, "--format", "json"], None);
    assert_eq!(json_field(&j.stdout, "status"), "\"optimal\"");
    assert_eq!(json_field(&j.stdout, "score"), format!("\"{score}\""));
}

#[test]
fn unsolvable_boards_exit_1_and_bad_input_exits_2() {
    // A lone gray in a 1×1 board can open nowhere; two adjacent grays in 1×2 likewise.
    for board in ["#\n", "# #\n", "@[E] .\n"] {
        let path = temp("unsolvable.txt", board);
        let r = run(&["solve", "kakkuro", path.to_str().unwrap()], None);
        assert_eq!(r.code, 1, "{board}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("no solution"), "{}", r.stdout);
    }
    for (board, at) in [
        ("# . x\n", ":1:5:"),
        ("# . .\n. .\n", ":2:4:"),
        ("", ":1:1:"),
        ("; nothing\n\n", ":1:1:"),
        ("# .@\n", ":1:3:"),
        (". #[NQ]\n", ":1:3:"),
        ("#[NESW] .\n", ":1:1:"),
    ] {
        let path = temp("bad.txt", board);
        let r = run(&["solve", "kakkuro", path.to_str().unwrap()], None);
        assert_eq!(r.code, 2, "{board:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(at),
            "{board:?}: expected {at} in {}",
            r.stderr
        );
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
    let r = check_answer(EXAMPLE, "1 2 3\n");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(":1:1:"), "{}", r.stderr);
}

#[test]
fn hostile_answers_and_boards_are_read_in_linear_time_with_short_messages() {
    // A million values on one line: each value's column was counted from the line's start
    // (minutes); now a moment, and the same message.
    let start = std::time::Instant::now();
    let long = format!("1:{}", "1,".repeat(1_000_000));
    let e = kk::parse_answer(&example(), &long).unwrap_err();
    assert_eq!((e.line, e.col), (1, 2_000_001), "{e}");
    assert!(e.message.contains("1000000 values"), "{e}");
    let e = kk::parse_answer(&example(), &"7 ".repeat(1_000_000)).unwrap_err();
    assert!(e.message.contains("1000000 cells"), "{e}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    // The columns counted on are the columns counted from the line's start (characters, not
    // bytes; Unicode spaces too).
    let e = kk::parse_answer(&example(), &format!("5é:{}\u{3000}x", "1,".repeat(24))).unwrap_err();
    assert_eq!((e.line, e.col), (1, 53), "{e}");
    let e = kk::parse_answer(&example(), "7\u{3000}7 é 1 1\n").unwrap_err();
    assert_eq!((e.line, e.col), (1, 5), "{e}");
    // One long word, in a board or an answer, is quoted short.
    let board = temp("board.txt", &format!("# {}\n", "x".repeat(100_000)));
    for (board, answer) in [
        (board.to_str().unwrap(), "1".to_string()),
        (EXAMPLE, format!("{} 1\n", "x".repeat(100_000))),
    ] {
        let r = check_answer(board, &answer);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.len() < 300,
            "{} bytes: {}…",
            r.stderr.len(),
            &r.stderr[..200]
        );
    }
    // A byte-order mark before an answer, as before a board, and before a header line.
    let r = check_answer(EXAMPLE, &format!("\u{feff}{ANSWER_86240}"));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let board = std::fs::read_to_string(EXAMPLE).unwrap();
    let r = run(
        &["solve", "kakkuro", "-"],
        Some(format!("\u{feff}puzzle-sat: kakkuro\n{board}").as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn an_answer_of_millions_of_lines_is_refused_in_little_memory() {
    // Each line was copied (twice), each value kept with its position, each row's cells kept:
    // 0.9 GB and more for a 32 MiB answer, to say it has too many values or rows.
    let tmp = tempfile::tempdir().unwrap();
    for (text, said) in [
        (
            "1,\n".repeat(11 << 20),
            ":11534336:1: contest string has 11534336 values",
        ),
        (
            "7 7 7 7 7\n".repeat(3 << 20),
            ":1:1: answer has 3145728 rows",
        ),
    ] {
        let a = tmp.path().join("answer");
        std::fs::write(&a, text).unwrap();
        let (r, mib) = common::run_measured(
            &["check", "kakkuro", EXAMPLE, "--answer", a.to_str().unwrap()],
            None,
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains(said), "{}", r.stderr);
        assert!(mib < 200, "{mib} MiB to refuse a 32 MiB answer");
    }
}

#[test]
fn dimacs_round_trip_through_varisat() {
    // The CNF with --min-score at the optimum is satisfiable; far above it, refuted.
    let best = run(&["solve", "kakkuro", EXAMPLE, "--format", "json"], None);
    let score = json_field(&best.stdout, "score")
        .trim_matches('"')
        .to_string();
    // Just above the optimum the bound may or may not let it through (it is approximate); if
    // it does, decode must say that the answer is below the bound.
    let above = (score.parse::<u64>().unwrap() + 1).to_string();
    for (min, sat) in [
        (score.clone(), Some(true)),
        ((score.parse::<u64>().unwrap() * 2).to_string(), Some(false)),
        (above.clone(), None),
    ] {
        let r = run(&["encode", "kakkuro", EXAMPLE, "--min-score", &min], None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let mut solver = varisat::Solver::new();
        let cnf = varisat::dimacs::DimacsParser::parse(r.stdout.as_bytes()).unwrap();
        solver.add_formula(&cnf);
        let found = solver.solve().unwrap();
        assert!(sat.is_none_or(|s| s == found), "--min-score {min}");
        if found {
            let model: Vec<String> = solver
                .model()
                .unwrap()
                .iter()
                .map(|l| l.to_dimacs().to_string())
                .collect();
            let path = temp(
                "model.txt",
                &format!("s SATISFIABLE\nv {} 0\n", model.join(" ")),
            );
            let d = run(
                &[
                    "decode",
                    "kakkuro",
                    EXAMPLE,
                    "--model",
                    path.to_str().unwrap(),
                    "--min-score",
                    &min,
                ],
                None,
            );
            assert_eq!(d.code, 0, "{}", d.stderr);
            assert!(d.stdout.contains("valid answer"), "{}", d.stdout);
            assert_eq!(
                d.stderr.contains(&format!("below --min-score {min}")),
                min == above,
                "{}",
                d.stderr
            );
        }
    }
}

/// Every answer of a tiny board, found without the encoder: choose the painted cells and each
/// gray cell's open sides, keep the layouts that meet rules 3, 4 and 5, then try every digit
/// filling (distinct per line), take each gray's number from its runs, and let the validator
/// judge and score what comes out. Returns the best score (`None`: no valid answer) and some
/// valid answers (every 97th, at most 30) for the completeness check, [`cnf_accepts`].
fn brute_force_with_samples(p: &Puzzle) -> (Option<Score>, Vec<Answer>) {
    let mut found = Found {
        best: None,
        samples: Vec::new(),
        seen: 0,
    };
    brute(p, &mut found);
    (found.best, found.samples)
}

struct Found {
    best: Option<Score>,
    samples: Vec<Answer>,
    seen: u64,
}

fn brute(p: &Puzzle, best: &mut Found) {
    let n = p.cells.len();
    let whites: Vec<usize> = (0..n).filter(|&i| p.cells[i] == Given::White).collect();
    for mask in 0u32..1 << whites.len() {
        let mut gray: Vec<bool> = p.cells.iter().map(|&c| c != Given::White).collect();
        for (b, &i) in whites.iter().enumerate() {
            gray[i] |= mask >> b & 1 == 1;
        }
        let grays: Vec<usize> = (0..n).filter(|&i| gray[i]).collect();
        // Side choices per gray cell: nonempty sets of sides that face a white cell and are
        // not thick.
        let choices: Vec<Vec<[bool; 4]>> = grays
            .iter()
            .map(|&i| {
                let thick = match p.cells[i] {
                    Given::Gray { thick, .. } => thick,
                    Given::White => [false; 4],
                };
                (1u32..16)
                    .map(|m| std::array::from_fn(|d| m >> d & 1 == 1))
                    .filter(|o: &[bool; 4]| {
                        (0..4)
                            .all(|d| !o[d] || (!thick[d] && p.step(i, d).is_some_and(|j| !gray[j])))
                    })
                    .collect()
            })
            .collect();
        if choices.iter().any(Vec::is_empty) {
            continue;
        }
        let mut pick = vec![0usize; grays.len()];
        loop {
            let mut open = vec![[false; 4]; n];
            for (g, &i) in grays.iter().enumerate() {
                open[i] = choices[g][pick[g]];
            }
            if let Some(runs) = layout(p, &gray, &open) {
                fill(p, &gray, &open, &runs, best);
            }
            // Next combination.
            let mut g = 0;
            while g < grays.len() {
                pick[g] += 1;
                if pick[g] < choices[g].len() {
                    break;
                }
                pick[g] = 0;
                g += 1;
            }
            if g == grays.len() {
                break;
            }
        }
    }
}

/// The runs of each gray cell's open sides, if rules 4 and 5 hold for this layout.
fn layout(p: &Puzzle, gray: &[bool], open: &[[bool; 4]]) -> Option<Vec<Vec<Vec<usize>>>> {
    let n = gray.len();
    let mut runs = vec![Vec::new(); n];
    let mut covered = vec![false; n];
    for i in (0..n).filter(|&i| gray[i]) {
        for d in (0..4).filter(|&d| open[i][d]) {
            let mut cells = Vec::new();
            let mut at = p.step(i, d);
            while let Some(j) = at {
                if gray[j] {
                    if open[j][(d + 2) % 4] {
                        return None;
                    }
                    break;
                }
                cells.push(j);
                covered[j] = true;
                at = p.step(j, d);
            }
            runs[i].push(cells);
        }
    }
    (0..n).all(|i| gray[i] || covered[i]).then_some(runs)
}

fn fill(p: &Puzzle, gray: &[bool], open: &[[bool; 4]], runs: &[Vec<Vec<usize>>], best: &mut Found) {
    let n = gray.len();
    let whites: Vec<usize> = (0..n).filter(|&i| !gray[i]).collect();
    // After filling whites[..=k], the gray cells whose runs are all filled: their runs must
    // agree (pruning only; the validator has the last word).
    let order: Vec<usize> = (0..n)
        .map(|i| whites.iter().position(|&w| w == i).unwrap_or(0))
        .collect();
    let mut ready = vec![Vec::new(); whites.len().max(1)];
    for g in (0..n).filter(|&i| gray[i]) {
        let last = runs[g]
            .iter()
            .flatten()
            .map(|&j| order[j])
            .max()
            .unwrap_or(0);
        ready[last].push(g);
    }
    let sum =
        |digits: &[u32], g: usize, r: usize| -> u32 { runs[g][r].iter().map(|&j| digits[j]).sum() };
    struct Ctx<'a> {
        p: &'a Puzzle,
        gray: &'a [bool],
        open: &'a [[bool; 4]],
        whites: &'a [usize],
        ready: &'a [Vec<usize>],
    }
    fn go(
        k: usize,
        c: &Ctx,
        digits: &mut Vec<u32>,
        sum: &dyn Fn(&[u32], usize, usize) -> u32,
        runs: &[Vec<Vec<usize>>],
        best: &mut Found,
    ) {
        if k > 0 {
            for &g in &c.ready[k - 1] {
                let first = sum(digits, g, 0);
                if !(1..=44).contains(&first)
                    || (1..runs[g].len()).any(|r| sum(digits, g, r) != first)
                {
                    return;
                }
            }
        }
        if k == c.whites.len() {
            let cells = (0..c.gray.len())
                .map(|i| {
                    if c.gray[i] {
                        Cell::Gray {
                            number: sum(digits, i, 0),
                            open: c.open[i],
                        }
                    } else {
                        Cell::White(digits[i])
                    }
                })
                .collect();
            let answer = Answer { cells };
            if let Ok(s) = kk::check(c.p, &answer) {
                if best.seen.is_multiple_of(97) && best.samples.len() < 30 {
                    best.samples.push(answer);
                }
                best.seen += 1;
                if best.best.as_ref().is_none_or(|b| s.score > *b) {
                    best.best = Some(s.score);
                }
            }
            return;
        }
        let i = c.whites[k];
        let (r, col) = (i / c.p.cols, i % c.p.cols);
        for dgt in 1..=9 {
            let clash = c.whites[..k]
                .iter()
                .any(|&j| digits[j] == dgt && (j / c.p.cols == r || j % c.p.cols == col));
            if clash && !c.p.lenient {
                continue;
            }
            digits[i] = dgt;
            go(k + 1, c, digits, sum, runs, best);
        }
        digits[i] = 0;
    }
    let mut digits = vec![0u32; n];
    let ctx = Ctx {
        p,
        gray,
        open,
        whites: &whites,
        ready: &ready,
    };
    if whites.is_empty() {
        // No white cell: every gray would face an empty run, which layout() already refused.
        return;
    }
    go(0, &ctx, &mut digits, &sum, runs, best);
}

/// Whether the CNF has a model with exactly this answer's values and sides: a valid answer it
/// refuses would be a valid answer the encoding cuts.
fn cnf_accepts(p: &Puzzle, answer: &Answer) -> bool {
    use encodings::cnf::ClauseSink;
    let mut solver = puzzle_sat::backends::varisat::Varisat::default();
    let enc = kk::encode(p, &mut solver);
    kk::fix_values(&enc, &mut solver, answer);
    for (i, cell) in answer.cells.iter().enumerate() {
        if let Cell::Gray { open, .. } = cell {
            for (&side, &is_open) in enc.open[i].iter().zip(open) {
                match (side, is_open) {
                    (Some(l), true) => solver.add_clause(&[l]),
                    (Some(l), false) => solver.add_clause(&[!l]),
                    (None, true) => return false,
                    (None, false) => {}
                }
            }
        }
    }
    solver.solve().unwrap() == SolveResult::Sat
}

fn random_board(rng: &mut Rng, rows: usize, cols: usize, thick: bool) -> Puzzle {
    let cells = (0..rows * cols)
        .map(|_| {
            if rng.below(100) < 45 {
                let t: [bool; 4] = std::array::from_fn(|_| thick && rng.below(100) < 20);
                let t = if t.iter().all(|&x| x) { [false; 4] } else { t };
                Given::Gray {
                    dot: rng.below(100) < 50,
                    thick: t,
                }
            } else {
                Given::White
            }
        })
        .collect();
    Puzzle {
        rows,
        cols,
        cells,
        lenient: false,
    }
}

#[test]
fn proved_optima_match_brute_force_on_tiny_boards() {
    for backend in common::backends() {
        proved_optima_match_brute_force_with(&Options {
            backend,
            time_limit: None,
            progress: Progress::Never,
            cubes: None,
        });
    }
}

fn proved_optima_match_brute_force_with(opts: &Options) {
    // FUZZ_BOARDS spreads over the sizes as the default 230 boards are.
    let (total, seed) = common::random_boards(230, 2010);
    let mut rng = Rng::new(seed);
    let (mut solved, mut unsolvable, mut boards) = (0, 0, 0);
    // (rows, cols, boards, most white cells): more white cells make the brute force slow.
    for &(rows, cols, count, most) in &[(2, 2, 80, 4), (2, 3, 80, 6), (3, 3, 40, 6), (3, 4, 30, 5)]
    {
        let count = (count * total).div_ceil(230);
        let mut made = 0;
        while made < count {
            let p = random_board(&mut rng, rows, cols, made % 2 == 1);
            let whites = p.cells.iter().filter(|&&c| c == Given::White).count();
            if whites > most {
                continue;
            }
            made += 1;
            boards += 1;
            let (expected, samples) = brute_force_with_samples(&p);
            for answer in &samples {
                assert!(
                    cnf_accepts(&p, answer),
                    "the CNF refuses a valid answer {answer:?} of {p:?}"
                );
            }
            let outcome = optimize(p.clone(), opts);
            assert_eq!(outcome.ended, Ended::Proved, "{}", opts.backend.name());
            match (&expected, outcome.best()) {
                (None, None) => unsolvable += 1,
                (Some(e), Some((_, got))) => {
                    assert_eq!(
                        got.score.to_string(),
                        e.to_string(),
                        "board {p:?} on {}",
                        opts.backend.name()
                    );
                    // The upper bounds the search proved on its way hold for the brute force's optimum.
                    let value = Kakkuro::score_value(e).unwrap();
                    let bound = outcome.upper_bound.expect("a solvable board gets a bound");
                    assert!(
                        bound >= value,
                        "bound {bound} below the optimum {e} of {p:?}"
                    );
                    solved += 1;
                }
                _ => panic!(
                    "brute force {expected:?}, solver {:?} on {p:?}",
                    outcome.best().map(|b| b.1.score.to_string())
                ),
            }
        }
    }
    assert!(
        solved >= boards / 4 && (boards < 100 || unsolvable >= 1),
        "{solved} solved, {unsolvable} unsolvable of {boards}"
    );
}

#[test]
fn lenient_optima_match_brute_force_on_tiny_boards() {
    for backend in common::backends() {
        lenient_optima_match_brute_force_with(&Options {
            backend,
            time_limit: None,
            progress: Progress::Never,
            cubes: None,
        });
    }
}

fn lenient_optima_match_brute_force_with(opts: &Options) {
    let (boards, seed) = common::random_boards(90, 4);
    let mut rng = Rng::new(seed);
    let mut solved = 0;
    for made in 0..boards {
        let (rows, cols) = [(2, 2), (2, 3), (3, 3)][made % 3];
        let mut p = random_board(&mut rng, rows, cols, made % 3 == 0);
        if p.cells.iter().filter(|&&c| c == Given::White).count() > 4 {
            continue;
        }
        p.lenient = true;
        let (expected, samples) = brute_force_with_samples(&p);
        for answer in &samples {
            assert!(
                cnf_accepts(&p, answer),
                "the CNF refuses a valid answer {answer:?} of {p:?}"
            );
        }
        let outcome = optimize(p.clone(), opts);
        assert_eq!(outcome.ended, Ended::Proved);
        assert_eq!(
            expected.map(|s| s.to_string()),
            outcome.best().map(|b| b.1.score.to_string()),
            "board {p:?} on {}",
            opts.backend.name()
        );
        solved += 1;
    }
    assert!(solved * 3 > boards, "{solved} of {boards}");
}

#[test]
fn benchmark_boards_are_proved_and_their_answers_check() {
    for name in ["bench-9x9-seed3", "bench-12x12-seed2"] {
        let path = common::data_dir("kakkuro").join(format!("{name}.txt"));
        let path = path.to_str().unwrap();
        let r = run(&["solve", "kakkuro", path, "--format", "json"], None);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(json_field(&r.stdout, "status"), "\"optimal\"", "{name}");
        // A JSON string with commas inside: json_field stops at commas, so cut it out whole.
        let start = r.stdout.find("\"contest\":\"").unwrap() + "\"contest\":\"".len();
        let contest = r.stdout[start..].split('"').next().unwrap().to_string();
        let score = json_field(&r.stdout, "score").trim_matches('"').to_string();
        assert!(contest.starts_with(&format!("{score}:")), "{contest}");
        let c = check_answer(path, &contest);
        assert_eq!(c.code, 0, "{name}: {}{}", c.stdout, c.stderr);
        assert!(
            c.stdout.contains(&format!("score {score}")),
            "{name}: {}",
            c.stdout
        );
        assert!(!c.stdout.contains("claims"), "{}", c.stdout);
    }
}

#[test]
fn a_time_limit_gives_best_found_or_exit_3() {
    let path = common::data_dir("kakkuro").join("bench-10x10-seed3.txt");
    let r = run(
        &[
            "solve",
            "kakkuro",
            path.to_str().unwrap(),
            "--time-limit",
            "0.05",
        ],
        None,
    );
    match r.code {
        0 => assert!(r.stdout.contains("best found"), "{}", r.stdout),
        3 => assert!(r.stdout.contains("no answer found"), "{}", r.stdout),
        c => panic!("exit {c}: {}", r.stderr),
    }
}

#[test]
fn lenient_mode_counts_errors_and_weighs_them_exactly() {
    let board = temp("lenient.txt", "@ . .\n");
    let board = board.to_str().unwrap();
    // A repeated digit in an open run: invalid in strict mode, one error in lenient mode
    // (D = 1, no × 1.1).
    let strict = check_answer(board, "4:E 2 2\n");
    assert_eq!(strict.code, 1);
    assert!(
        strict.stdout.contains("rule 7 broken at row 1, column 2"),
        "{}",
        strict.stdout
    );
    let path = temp("lenient-answer.txt", "4:E 2 2\n");
    let r = run(
        &[
            "check",
            "kakkuro",
            board,
            "--answer",
            path.to_str().unwrap(),
            "--lenient",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("valid (lenient mode)"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("score 4: P = 4, D = 1 (0 painted, 1 error), E = 1 (lenient mode)"),
        "{}",
        r.stdout
    );
    // Best: 9 + 8 = 17 with the bonus (18.7) beats 9 + 9 = 18 with an error, in both modes.
    for extra in [&[][..], &["--lenient"][..]] {
        let mut args = vec!["solve", "kakkuro", board, "--format", "json"];
        args.extend(extra);
        let r = run(&args, None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(json_field(&r.stdout, "score"), "\"187/10\"", "{extra:?}");
        assert_eq!(json_field(&r.stdout, "status"), "\"optimal\"");
    }
    // The seed's zero-error answers score the same in lenient mode.
    let path = temp("seed.txt", ANSWER_103488);
    let r = run(
        &[
            "check",
            "kakkuro",
            EXAMPLE,
            "--answer",
            path.to_str().unwrap(),
            "--lenient",
        ],
        None,
    );
    assert!(r.stdout.contains("score 103488:"), "{}", r.stdout);
}

/// `p cnf V C` of `encode kakkuro` on a board: (variables, clauses).
fn cnf_size(board: &str, extra: &[&str]) -> (u64, u64) {
    let path = temp("size.txt", board);
    let mut args = vec!["encode", "kakkuro", path.to_str().unwrap()];
    args.extend(extra);
    let r = run(&args, None);
    assert_eq!(r.code, 0, "{extra:?}: {}", r.stderr);
    let header = r.stdout.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let n: Vec<u64> = header
        .split_whitespace()
        .skip(2)
        .map(|x| x.parse().unwrap())
        .collect();
    (n[0], n[1])
}

/// 12×3, a red dot on every row (fuzzing: `--min-score` gave 9 M clauses).
const TWELVE_DOTS: &str =
    "@ . .\n. @ .\n. . @\n@ . .\n. @ .\n. . @\n@ . .\n. @ .\n. . @\n@ . .\n. @ .\n. . @\n";
/// 6×7, 4 red dots (fuzzing: `--min-score 1/2` gave 0.5 M clauses against 54 k without it).
const SIX_BY_SEVEN: &str =
    "# . . . . . .\n. . . . . . .\n# @ . . # . .\n. . . . . . .\n. @ @ . . . .\n@ . . . . . #\n";
/// 5×6, 3 red dots (fuzzing: `--lenient --min-score 1` gave 2.3 M clauses).
const FIVE_BY_SIX: &str = "# . . # . .\n. . # @ . .\n. # . . @ .\n. # # . . .\n# . # @ . .\n";

#[test]
fn weak_score_bounds_cost_little() {
    // Sizes before the bound was made compact, in the comments: see docs/encodings/kakkuro.md.
    let (_, rules) = cnf_size(TWELVE_DOTS, &[]);
    for min in ["1", "1/2"] {
        let (_, bounded) = cnf_size(TWELVE_DOTS, &["--min-score", min]);
        assert!(
            bounded < 3 * rules,
            "12×3 --min-score {min}: {bounded} clauses, rules {rules} (was 9,041,808)"
        );
    }
    let (_, rules) = cnf_size(SIX_BY_SEVEN, &[]);
    let (_, bounded) = cnf_size(SIX_BY_SEVEN, &["--min-score", "1/2"]);
    assert!(
        bounded < 2 * rules,
        "6×7 --min-score 1/2: {bounded} clauses, rules {rules} (was 502,509)"
    );
    // A bound no answer can miss (P ≥ 1 and D ≤ 20 on this board) adds nothing.
    let (_, rules) = cnf_size(FIVE_BY_SIX, &[]);
    assert_eq!(cnf_size(FIVE_BY_SIX, &["--min-score", "1/20"]).1, rules);
}

#[test]
fn lenient_errors_are_counted_compactly() {
    let (_, strict) = cnf_size(FIVE_BY_SIX, &[]);
    let (_, lenient) = cnf_size(FIVE_BY_SIX, &["--lenient"]);
    assert!(
        lenient < strict * 5 / 4,
        "lenient {lenient} clauses, strict {strict}"
    );
    let (_, strict) = cnf_size(FIVE_BY_SIX, &["--min-score", "1"]);
    let (_, lenient) = cnf_size(FIVE_BY_SIX, &["--min-score", "1", "--lenient"]);
    assert!(
        lenient < 10 * strict && lenient < 300_000,
        "lenient {lenient} clauses, strict {strict} (was 2,259,837)"
    );
}

#[test]
fn min_score_cnfs_keep_exactly_the_answers_at_or_above_the_bound() {
    // The lenient seed-style board: its proved optimum (18.7, no error) passes --min-score at
    // the optimum, and 18 (9 + 9 with an error) is refused above it; a weak bound keeps all.
    let board = "@ . .\n";
    for (min, sat) in [
        ("187/10", true),
        ("19", false),
        ("1/100", true),
        ("4", true),
    ] {
        for lenient in [false, true] {
            let mut args = vec!["--min-score", min];
            if lenient {
                args.push("--lenient");
            }
            let path = temp("bounded.txt", board);
            let mut all = vec!["encode", "kakkuro", path.to_str().unwrap()];
            all.extend(&args);
            let r = run(&all, None);
            assert_eq!(r.code, 0, "{}", r.stderr);
            let mut solver = varisat::Solver::new();
            solver.add_formula(&varisat::dimacs::DimacsParser::parse(r.stdout.as_bytes()).unwrap());
            assert_eq!(
                solver.solve().unwrap(),
                sat,
                "--min-score {min} lenient {lenient}"
            );
        }
    }
}

/// The `line` examples in README and docs/formats.md are the start of what `solve` prints for
/// the bundled example (they showed another optimum).
#[test]
fn the_documented_line_example_is_what_solve_prints() {
    // One of several optimal answers: the docs show varisat's.
    let r = run(
        &[
            "solve", "kakkuro", EXAMPLE, "--format", "line", "--solver", "varisat",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for doc in ["README.md", "docs/formats.md"] {
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc))
                .unwrap();
        let shown = text
            .split('`')
            .find(|s| s.starts_with("427680:") && s.contains('…'))
            .unwrap_or_else(|| panic!("{doc} shows no line example"));
        let prefix = shown.split('…').next().unwrap();
        assert!(
            r.stdout.starts_with(prefix),
            "{doc} shows {shown}, solve prints {}",
            r.stdout
        );
    }
}

/// Lines longer than nine cells: the encoding's redundant "at most nine white cells per line"
/// must cut no valid answer, and no valid answer may paint fewer cells than the search's lemma
/// `fewest_painted` says (it raises every deficit bound). Random answers on one-row and
/// one-column boards of 11 to 13 cells (a given gray cell first, the rest white), judged by the
/// independent validator; every valid one, most with exactly nine white cells, is accepted by
/// the CNF and paints at least the lemma's count (the nine-white ones exactly that many).
#[test]
fn the_cnf_accepts_valid_answers_on_lines_longer_than_nine() {
    let mut rng = Rng::new(9);
    let (mut valid, mut nine, mut columns) = (0, 0, 0);
    for trial in 0..20_000 {
        let n = 11 + trial % 3;
        // Every other board is a column: the same answer turned, E and W becoming S and N.
        let column = trial % 2 == 1;
        let mut cells = vec![Given::White; n];
        cells[0] = Given::Gray {
            dot: trial % 3 == 0,
            thick: [false; 4],
        };
        let p = if column {
            Puzzle {
                rows: n,
                cols: 1,
                cells,
                lenient: false,
            }
        } else {
            Puzzle {
                rows: 1,
                cols: n,
                cells,
                lenient: false,
            }
        };
        // Paint n − 10 or one more of the n − 1 white cells: nine or eight left white.
        let mut gray = vec![false; n];
        gray[0] = true;
        let mut left = n - 10 + rng.below(2);
        while left > 0 {
            let c = 1 + rng.below(n - 1);
            if !gray[c] {
                gray[c] = true;
                left -= 1;
            }
        }
        let mut digits: Vec<u32> = (1..=9).collect();
        for i in (1..9).rev() {
            digits.swap(i, rng.below(i + 1));
        }
        let mut next = digits.into_iter();
        let mut answer: Vec<Cell> = (0..n)
            .map(|c| {
                if gray[c] {
                    Cell::Gray {
                        number: 0,
                        open: [false; 4],
                    }
                } else {
                    Cell::White(next.next().unwrap())
                }
            })
            .collect();
        for c in 0..n {
            if !gray[c] {
                continue;
            }
            let run_sum = |dir: isize| {
                let mut s = 0;
                let mut x = c as isize + dir;
                while x >= 0 && (x as usize) < n && !gray[x as usize] {
                    if let Cell::White(d) = answer[x as usize] {
                        s += d;
                    }
                    x += dir;
                }
                s
            };
            let (east, west) = (run_sum(1), run_sum(-1));
            // Open towards one side with a run (E is d = 1, W is d = 3), its sum the number.
            let (d, number) = match (east > 0, west > 0) {
                (true, true) => {
                    if rng.below(2) == 0 {
                        (1, east)
                    } else {
                        (3, west)
                    }
                }
                (true, false) => (1, east),
                (false, true) => (3, west),
                (false, false) => (1, 0),
            };
            let mut open = [false; 4];
            open[if column { (d + 1) % 4 } else { d }] = true; // E → S, W → N
            answer[c] = Cell::Gray { number, open };
        }
        let answer = Answer { cells: answer };
        if kk::check(&p, &answer).is_err() {
            continue;
        }
        valid += 1;
        columns += usize::from(column);
        let painted = gray[1..].iter().filter(|&&g| g).count() as u64;
        nine += usize::from(gray.iter().filter(|&&g| !g).count() == 9);
        assert!(
            cnf_accepts(&p, &answer),
            "the CNF refuses the valid answer {answer:?} of {p:?}"
        );
        assert!(
            painted >= kk::fewest_painted(&p),
            "{answer:?} paints {painted}, fewer than the lemma's {}",
            kk::fewest_painted(&p)
        );
        if gray.iter().filter(|&&g| !g).count() == 9 {
            assert_eq!(
                painted,
                kk::fewest_painted(&p),
                "nine white cells of {n}: the lemma is not tight"
            );
        }
    }
    assert!(valid >= 100 && nine >= 50 && columns >= 50, "{valid} valid answers ({columns} in columns), {nine} with nine white cells: the test shows little");
}

/// A backend whose limited calls give up on every other call without solving, and stop the
/// others after at most `cap` conflicts (varisat then goes on from there in the next call), as
/// a hard board's would: the search must prove the same optimum anyway.
struct GivesUp {
    inner: Box<dyn Solver>,
    calls: u32,
    cap: u64,
}

impl encodings::cnf::ClauseSink for GivesUp {
    fn new_var(&mut self) -> encodings::cnf::Lit {
        self.inner.new_var()
    }

    fn add_clause(&mut self, lits: &[encodings::cnf::Lit]) {
        self.inner.add_clause(lits)
    }
}

impl Solver for GivesUp {
    fn backend(&self) -> &'static str {
        "gives-up"
    }

    fn solve_with(
        &mut self,
        assumptions: &[encodings::cnf::Lit],
    ) -> Result<SolveResult, encodings::solver::SolverError> {
        self.inner.solve_with(assumptions)
    }

    fn solve_limited(
        &mut self,
        assumptions: &[encodings::cnf::Lit],
        conflicts: u64,
    ) -> Result<Option<SolveResult>, encodings::solver::SolverError> {
        self.calls += 1;
        if self.calls % 2 == 1 {
            return Ok(None);
        }
        self.inner
            .solve_limited(assumptions, conflicts.min(self.cap))
    }

    fn model(&self) -> encodings::cnf::Model {
        self.inner.model()
    }

    fn failed_core(&self) -> Vec<encodings::cnf::Lit> {
        self.inner.failed_core()
    }

    fn stats(&self) -> encodings::solver::SolverStats {
        self.inner.stats()
    }

    fn interruptible(&self) -> bool {
        self.inner.interruptible()
    }
}

struct GivingUp(puzzle_sat::backends::Solvers, u64);

impl encodings::solver::NewSolver for GivingUp {
    fn new_solver(&self) -> Box<dyn Solver> {
        Box::new(GivesUp {
            inner: self.0.new_solver(),
            calls: 0,
            cap: self.1,
        })
    }

    fn stop(&self) -> &encodings::solver::Stop {
        self.0.stop()
    }
}

#[derive(Default)]
struct Best {
    best: Option<kk::Scored>,
    bound: Option<f64>,
}

impl encodings::puzzle::Observer<Kakkuro> for Best {
    fn found(&mut self, _: &Answer, checked: &kk::Scored) {
        self.best = Some(checked.clone());
    }

    fn stats(&mut self, _: encodings::solver::SolverStats) {}

    fn upper_bound(&mut self, bound: f64) {
        self.bound = Some(bound);
    }
}

#[test]
fn proved_optima_do_not_depend_on_which_limited_calls_give_up() {
    let varisat = || puzzle_sat::backends::Backend::Varisat.solvers(encodings::solver::Stop::new());
    // Tiny boards against brute force, the limited calls cut short after a few conflicts.
    let solvers = GivingUp(varisat(), 10);
    let mut rng = Rng::new(22);
    let mut boards = 0;
    while boards < 40 {
        let p = random_board(&mut rng, 3, 3, boards % 2 == 1);
        if p.cells.iter().filter(|&&c| c == Given::White).count() > 6 {
            continue;
        }
        boards += 1;
        let (expected, _) = brute_force_with_samples(&p);
        let mut seen = Best::default();
        let ended = Kakkuro::search(
            &Instance {
                puzzle: p.clone(),
                fixed: None,
            },
            Goal::Best,
            &solvers,
            &mut seen,
        )
        .unwrap();
        assert_eq!(ended, Ended::Proved);
        assert_eq!(
            seen.best.map(|b| b.score.to_string()),
            expected.map(|e| e.to_string()),
            "{p:?}"
        );
    }
    // A board whose search makes many limited calls, against the ordinary search's optimum.
    let solvers = GivingUp(varisat(), u64::MAX);
    for name in ["bench-7x7-seed3", "bench-9x9-seed3"] {
        let text = std::fs::read_to_string(common::data_dir("kakkuro").join(format!("{name}.txt")))
            .unwrap();
        let p = kk::parse(&text).unwrap();
        let plain = optimize(
            p.clone(),
            &Options {
                backend: puzzle_sat::backends::Backend::Varisat,
                time_limit: None,
                progress: Progress::Never,
                cubes: None,
            },
        );
        let mut seen = Best::default();
        let ended = Kakkuro::search(
            &Instance {
                puzzle: p,
                fixed: None,
            },
            Goal::Best,
            &solvers,
            &mut seen,
        )
        .unwrap();
        assert_eq!(
            (ended, plain.ended),
            (Ended::Proved, Ended::Proved),
            "{name}"
        );
        let want = plain.best().map(|b| b.1.score.to_string());
        assert_eq!(seen.best.map(|b| b.score.to_string()), want, "{name}");
        let value = Kakkuro::score_value(&plain.best().unwrap().1.score).unwrap();
        assert!(
            seen.bound.is_none_or(|b| b >= value),
            "{name}: bound {:?} below the optimum {value}",
            seen.bound
        );
    }
}

/// The core-guided search (a race's odd member on large boards, `search::cores`) proves the brute force's
/// optimum on tiny boards, strict and lenient, with every upper bound it reports above that
/// optimum; and the plain search's optimum on bundled boards, on each embedded backend.
#[test]
fn core_guided_optima_match_brute_force_and_the_plain_search() {
    let search = |p: &Puzzle, solvers: &dyn encodings::solver::NewSolver| {
        let mut seen = Best::default();
        let ended = kk::search::from_below(
            &Instance {
                puzzle: p.clone(),
                fixed: None,
            },
            solvers,
            &mut seen,
        )
        .unwrap();
        assert_eq!(ended, Ended::Proved, "{p:?}");
        seen
    };
    for backend in common::backends() {
        if let puzzle_sat::backends::Backend::Portfolio(_) = backend {
            continue;
        }
        let cores = backend.solvers(encodings::solver::Stop::new());
        let mut rng = Rng::new(45);
        let (mut boards, mut solved) = (0, 0);
        while boards < 120 {
            let (rows, cols) = [(2, 3), (3, 3), (3, 4)][boards % 3];
            let mut p = random_board(&mut rng, rows, cols, boards % 2 == 1);
            if p.cells.iter().filter(|&&c| c == Given::White).count() > 5 {
                continue;
            }
            p.lenient = boards % 4 == 3;
            boards += 1;
            let (expected, _) = brute_force_with_samples(&p);
            let seen = search(&p, &cores);
            assert_eq!(
                seen.best.as_ref().map(|b| b.score.to_string()),
                expected.as_ref().map(|e| e.to_string()),
                "{p:?} on {}",
                backend.name()
            );
            if let Some(e) = &expected {
                let value = Kakkuro::score_value(e).unwrap();
                let bound = seen.bound.expect("a solvable board gets a bound");
                assert!(
                    bound >= value,
                    "bound {bound} below the optimum {e} of {p:?}"
                );
                solved += 1;
            }
        }
        assert!(solved >= boards / 4, "{solved} of {boards}");
        for name in ["bench-7x7-seed3", "bench-10x10-seed1", "bench-12x12-seed2"] {
            let file = common::data_dir("kakkuro").join(format!("{name}.txt"));
            let p = kk::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
            let mut plain = Best::default();
            Kakkuro::search(
                &Instance {
                    puzzle: p.clone(),
                    fixed: None,
                },
                Goal::Best,
                &cores,
                &mut plain,
            )
            .unwrap();
            let seen = search(&p, &cores);
            assert_eq!(
                seen.best.map(|b| b.score.to_string()),
                plain.best.map(|b| b.score.to_string()),
                "{name} on {}",
                backend.name()
            );
        }
    }
}

/// `encode --format opb|wcnf`'s objective, solved by solvers this project did not write (Exact
/// on the OPB, RC2 on the WCNF), gives the exact optimum: the brute force's on strict tiny
/// boards, the proved search's under the lenient rules (errors, the bonus), where the brute
/// force fills no repeats. The objective's rounded logarithms must order every pair of answers
/// as their exact scores do, or some board here would come out below its optimum.
#[cfg(feature = "outside-tools")]
#[test]
fn outside_solvers_on_the_objective_find_the_exact_optima_of_tiny_boards() {
    use encodings::cnf::objective::{opb_text, wcnf_text};
    use encodings::cnf::Cnf;
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(2026);
    let (mut boards, mut solvable) = (0, 0);
    // Until 12 boards with answers (a third or more have none), 60 at most.
    while solvable < 12 && boards < 60 {
        let (rows, cols) = [(2, 3), (3, 3), (3, 2)][boards % 3];
        let mut p = random_board(&mut rng, rows, cols, boards % 2 == 1);
        if p.cells.iter().filter(|&&c| c == Given::White).count() > 5 {
            continue;
        }
        p.lenient = boards % 4 == 3;
        boards += 1;
        let expected = match p.lenient {
            false => brute_force_with_samples(&p).0.map(|s| s.to_string()),
            true => optimize(
                p.clone(),
                &Options {
                    backend: common::backends()[0].clone(),
                    time_limit: None,
                    progress: Progress::Never,
                    cubes: None,
                },
            )
            .best()
            .map(|b| b.1.score.to_string()),
        };
        solvable += usize::from(expected.is_some());
        let inst = Instance {
            puzzle: p.clone(),
            fixed: None,
        };
        let mut cnf = Cnf::new();
        let enc = Kakkuro::encode(&inst, &mut cnf);
        let objective = Kakkuro::objective(&inst, &enc, &mut cnf).unwrap();
        for (solver, text) in [
            ("exact", opb_text(&cnf, Some(&objective), &[])),
            ("rc2", wcnf_text(&cnf, Some(&objective), &[])),
        ] {
            let file = dir.path().join(format!(
                "board-{boards}.{}",
                if solver == "rc2" { "wcnf" } else { "opb" }
            ));
            std::fs::write(&file, text).unwrap();
            let output = puzzle_sat::dimacs::read_output(&common::outside(solver, &file)).unwrap();
            let got = puzzle_sat::dimacs::model_of(&cnf, output.answer.clone(), "output")
                .unwrap()
                .map(|m| {
                    let answer = Kakkuro::decode(&inst, &enc, &m);
                    let scored =
                        kk::check(&p, &answer).expect("the outside solver's answer is valid");
                    assert!(
                        output.optimum,
                        "{solver} found an answer but no optimum on {p:?}"
                    );
                    // Its `o` line is the objective's value of its own model.
                    let value = objective.value(&m);
                    let said = output.cost.clone().expect("an o line").1;
                    assert!(
                        said == objective.opb().1 - &value || said == objective.top() - &value,
                        "{solver}: o {said}, value {value}"
                    );
                    scored.score.to_string()
                });
            assert_eq!(got, expected, "{solver} on {p:?}");
        }
    }
    assert!(
        solvable >= 12,
        "only {solvable} of {boards} boards have answers"
    );
}
