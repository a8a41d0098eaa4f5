//! The fuzz harness: a seeded mutation fuzzer over every puzzle parser, every answer reader and
//! the DIMACS model reader (docs/fuzzing.md). Every input must be read or refused with a
//! position inside the text, never panic. What parses and is small is encoded, solved and drawn
//! in every format; every answer must pass the independent validator and read back as itself.
//! A model that satisfies a puzzle's CNF must decode to a valid answer. Inputs that once failed
//! are replayed first (tests/data/fuzz); a new failure is written out for that folder.
//!
//! Budget: `FUZZ_ITERS` inputs per target (default [`CI_ITERS`]) from `FUZZ_SEED` (default 1).
//! The random-board cross-checks against brute force (tests/tatamibari.rs, tests/kakkuro.rs,
//! tests/target_sudoku.rs) read the same two variables.

mod common;

use common::{data_dir, fuzz_budget, Budget};
use encodings::cnf::{ClauseSink, Cnf, Lit};
use encodings::genre::Genre;
use encodings::genres::heyawake::Heyawake;
use encodings::genres::hitori::Hitori;
use encodings::genres::kakkuro::Kakkuro;
use encodings::genres::kakuro::Kakuro;
use encodings::genres::lits::Lits;
use encodings::genres::masyu::Masyu;
use encodings::genres::nurikabe::Nurikabe;
use encodings::genres::shikaku::Shikaku;
use encodings::genres::slitherlink::Slitherlink;
use encodings::genres::sudoku::Sudoku;
use encodings::genres::target_sudoku::TargetSudoku;
use encodings::genres::tatamibari::generate::{Generated, Rng};
use encodings::genres::tatamibari::Tatamibari;
use encodings::puzzle::{Ended, Format, Goal, Puzzle, Settings, Task};
use encodings::solver::{NewSolver, SolveResult, Stop};
use puzzle_sat::backends::Backend;
use puzzle_sat::dimacs;
use puzzle_sat::runner::{self, Options, Progress};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// Inputs per target in `cargo test`: about 17 s for all targets in a debug build on two cores.
const CI_ITERS: usize = 5000;

/// A tiny search never takes this long; one that does is a finding, not a slow machine.
const SOLVE_LIMIT: Duration = Duration::from_secs(30);

/// Longest mutated input: keeps an iteration cheap.
const MAX_LEN: usize = 16 * 1024;

/// What a puzzle's instances may cost in one iteration.
trait Limits: Genre {
    /// Folder of this puzzle's files under tests/data, and its example in docs/examples.
    const DATA: &'static str;
    const EXAMPLE: &'static str;
    /// Small enough to encode in a few milliseconds.
    fn encode_ok(inst: &Self::Instance) -> bool;
    /// Small enough to solve in a few milliseconds.
    fn solve_ok(inst: &Self::Instance) -> bool;
}

impl Limits for Tatamibari {
    const DATA: &'static str = "tatamibari";
    const EXAMPLE: &'static str = "tatamibari.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 900
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 49
    }
}

impl Limits for Kakkuro {
    const DATA: &'static str = "kakkuro";
    const EXAMPLE: &'static str = "kakkuro.txt";
    fn encode_ok(inst: &Self::Instance) -> bool {
        inst.puzzle.rows * inst.puzzle.cols <= 144
    }
    fn solve_ok(inst: &Self::Instance) -> bool {
        let whites = inst
            .puzzle
            .cells
            .iter()
            .filter(|&&c| c == encodings::genres::kakkuro::Given::White)
            .count();
        inst.puzzle.rows * inst.puzzle.cols <= 12 && whites <= 6
    }
}

impl Limits for Shikaku {
    const DATA: &'static str = "shikaku";
    const EXAMPLE: &'static str = "shikaku.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 900
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 49
    }
}

impl Limits for Sudoku {
    const DATA: &'static str = "sudoku";
    const EXAMPLE: &'static str = "sudoku.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.n <= 16
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.n <= 6 || b.givens.iter().filter(|&&d| d != 0).count() >= 60
    }
}

impl Limits for Kakuro {
    const DATA: &'static str = "kakuro";
    const EXAMPLE: &'static str = "kakuro.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 900
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 64
    }
}

impl Limits for Hitori {
    const DATA: &'static str = "hitori";
    const EXAMPLE: &'static str = "hitori.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 400
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 64
    }
}

impl Limits for Heyawake {
    const DATA: &'static str = "heyawake";
    const EXAMPLE: &'static str = "heyawake.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.room.len() <= 400
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.room.len() <= 64
    }
}

impl Limits for Lits {
    const DATA: &'static str = "lits";
    const EXAMPLE: &'static str = "lits.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.room.len() <= 400
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.room.len() <= 64
    }
}

impl Limits for Slitherlink {
    const DATA: &'static str = "slitherlink";
    const EXAMPLE: &'static str = "slitherlink.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 400
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 64
    }
}

impl Limits for Masyu {
    const DATA: &'static str = "masyu";
    const EXAMPLE: &'static str = "masyu.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 400
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 64
    }
}

impl Limits for Nurikabe {
    const DATA: &'static str = "nurikabe";
    const EXAMPLE: &'static str = "nurikabe.txt";
    fn encode_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 400
    }
    fn solve_ok(b: &Self::Instance) -> bool {
        b.rows * b.cols <= 36
    }
}

impl Limits for TargetSudoku {
    const DATA: &'static str = "target-sudoku";
    const EXAMPLE: &'static str = "target-sudoku.txt";
    fn encode_ok(_: &Self::Instance) -> bool {
        true
    }
    fn solve_ok(grid: &Self::Instance) -> bool {
        grid.iter().flatten().filter(|&&v| v != 0).count() >= 60
    }
}

/// A puzzle file's text: parse it, and when it is small encode, solve, draw and read back.
/// `printed` collects the drawings, seeds for the answer readers.
fn exercise_puzzle<P: Limits>(
    text: &str,
    settings: &Settings,
    printed: &mut Vec<String>,
) -> Result<Depth, String> {
    let inst = match P::parse(text, settings) {
        Ok(inst) => inst,
        Err(e) => return position_ok(text, e.line, e.col, &e.message).map(|()| Depth::Refused),
    };
    if !P::encode_ok(&inst) {
        return Ok(Depth::Read);
    }
    let mut cnf = Cnf::new();
    P::encode(&inst, &mut cnf);
    let _ = P::dimacs_comments(&inst, "fuzz");
    if !P::solve_ok(&inst) {
        return Ok(Depth::Encoded);
    }
    let goal = match P::TASK {
        Task::Maximize => Goal::Best,
        Task::Enumerate => Goal::Enumerate { max: 3 },
    };
    let opts = Options {
        backend: Backend::Varisat,
        time_limit: Some(SOLVE_LIMIT),
        progress: Progress::Never,
        cubes: None,
    };
    let out = runner::search::<P>(inst.clone(), goal, 3, &opts)
        .map_err(|e| format!("search failed: {e}"))?;
    if out.ended == Ended::Stopped {
        return Err(format!("search not done in {SOLVE_LIMIT:?}"));
    }
    for (answer, checked) in &out.answers {
        P::check(&inst, answer)
            .map_err(|v| format!("the validator rejects a found answer: {v}"))?;
        let _ = P::answer_json(&inst, answer, checked);
        let _ = P::describe_valid(&inst, answer, checked, false);
        let _ = P::svg(&inst, &[(answer, checked)], "");
        // Every drawing but the score alone and the picture reads back.
        for format in P::formats()
            .into_iter()
            .filter(|&f| f != Format::Judge && f != Format::Svg)
        {
            let drawn = P::render(&inst, answer, checked, format);
            let read = P::read_answer(&inst, &drawn)
                .map_err(|e| format!("{format} drawing does not read back: {e}\n{drawn}"))?
                .map_err(|v| format!("{format} drawing reads back broken: {v}\n{drawn}"))?;
            if read.complete {
                let again = P::check(&inst, &read.answer)
                    .map_err(|v| format!("{format} drawing reads back invalid: {v}\n{drawn}"))?;
                if P::score(&again) != P::score(checked) {
                    return Err(format!(
                        "{format} drawing reads back scoring {} not {}",
                        P::score(&again),
                        P::score(checked)
                    ));
                }
            }
            printed.push(drawn);
        }
    }
    Ok(if out.answers.is_empty() {
        Depth::Solved
    } else {
        Depth::Answered
    })
}

/// An answer file's text for `inst`: read it, and check what is read.
fn exercise_answer<P: Limits>(inst: &P::Instance, text: &str) -> Result<Depth, String> {
    let read = match P::read_answer(inst, text) {
        Err(e) => return position_ok(text, e.line, e.col, &e.message).map(|()| Depth::Refused),
        Ok(Err(_)) => {
            // `check --format svg` draws it with the broken rule marked.
            let _ = P::svg_broken(inst, text, "invalid");
            return Ok(Depth::Read);
        }
        Ok(Ok(read)) => read,
    };
    if read.complete {
        return Ok(match P::check(inst, &read.answer) {
            Ok(checked) => {
                let _ = P::describe_valid(inst, &read.answer, &checked, false);
                Depth::Answered
            }
            Err(_) => {
                let _ = P::svg_broken(inst, text, "invalid");
                Depth::Read
            }
        });
    } else if P::solve_ok(inst) {
        let opts = Options {
            backend: Backend::Varisat,
            time_limit: Some(SOLVE_LIMIT),
            progress: Progress::Never,
            cubes: None,
        };
        let completion =
            P::COMPLETION.ok_or("an incomplete answer of a puzzle that completes none")?;
        let out = runner::search::<P>((completion.fix)(inst, &read.answer), Goal::Best, 1, &opts)
            .map_err(|e| format!("completing failed: {e}"))?;
        if out.ended == Ended::Stopped {
            return Err(format!("completing not done in {SOLVE_LIMIT:?}"));
        }
        return Ok(if out.answers.is_empty() {
            Depth::Solved
        } else {
            Depth::Answered
        });
    }
    Ok(Depth::Read)
}

/// A solver's output for `cnf`: read it; a model that satisfies every clause is a valid answer.
fn exercise_model<P: Limits>(
    inst: &P::Instance,
    cnf: &Cnf,
    enc: &P::Encoding,
    text: &str,
) -> Result<Depth, String> {
    if let Err(e) = dimacs::read_model(text) {
        return position_ok(text, e.line, e.col, &e.message).map(|()| Depth::Refused);
    }
    let Ok(Some(model)) = dimacs::external_model(cnf, text, "model") else {
        return Ok(Depth::Read);
    };
    let answer = P::decode(inst, enc, &model);
    P::check(inst, &answer)
        .map(|_| Depth::Answered)
        .map_err(|v| format!("a model of the CNF decodes to a broken answer: {v}"))
}

/// An error's line and column must point into the text (or just past a line's end, or at the
/// line after the last), counting lines as `str::lines` does and columns in characters.
fn position_ok(text: &str, line: usize, col: usize, message: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    let width = |l: usize| lines.get(l - 1).map_or(0, |s| s.chars().count());
    if message.trim().is_empty()
        || line == 0
        || col == 0
        || line > lines.len() + 1
        || col > width(line) + 1
    {
        return Err(format!(
            "error position {line}:{col} outside the text ({} lines): {message}",
            lines.len()
        ));
    }
    Ok(())
}

/// How far an input got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Depth {
    /// Refused with a position.
    Refused,
    /// Read (a puzzle too large to encode, an answer that breaks a rule, a model that is not
    /// one of the CNF).
    Read,
    /// Encoded, too large to solve.
    Encoded,
    /// Solved: no answer exists.
    Solved,
    /// Solved with answers, each re-checked and read back; a valid answer or model.
    Answered,
}

/// Mutations of text: bytes, lines, splices, numbers, long lines, unicode.
struct Mutator {
    rng: Rng,
}

/// Tokens the readers care about, and some they should refuse politely.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "9",
    "10",
    "-1",
    "+",
    "-",
    "|",
    ".",
    "*",
    "#",
    "@",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    ":",
    ",",
    ";",
    "(",
    ")",
    "[",
    "]",
    "[NESW]",
    "[x]",
    "#[N]",
    "@[ES]",
    ":NESW",
    "(12):S",
    "SCORE:",
    "score ",
    "s SATISFIABLE",
    "s UNSATISFIABLE",
    "SAT\n",
    "v ",
    "c ",
    " 0",
    "│",
    "─",
    "┼",
    "┌",
    "┘",
    "é",
    "\u{feff}",
    "\u{0}",
    "😀",
    "٣",
    "２",
    "99999999999999999999",
    "2147483648",
    "-2147483648",
    "4294967296",
    "18446744073709551616",
];

impl Mutator {
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.below(items.len())]
    }

    /// A random character boundary of `s`.
    fn boundary(&mut self, s: &str) -> usize {
        let mut at = self.rng.below(s.len() + 1);
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    /// Mutations stacked on one of `seeds`.
    fn mutate(&mut self, seeds: &[String]) -> String {
        let mut s = self.pick(seeds).clone();
        // One mutation half the time, two a quarter, up to five: most mutants stay near a seed.
        let times = 1 + (0..4).take_while(|_| self.rng.below(2) == 0).count();
        for _ in 0..times {
            s = self.once(s, seeds);
            if s.len() > MAX_LEN {
                let end = (0..=MAX_LEN)
                    .rev()
                    .find(|&k| s.is_char_boundary(k))
                    .unwrap();
                s.truncate(end);
            }
        }
        s
    }

    fn once(&mut self, s: String, seeds: &[String]) -> String {
        let mut lines: Vec<String> = s.split_inclusive('\n').map(String::from).collect();
        let chars: Vec<char> = s.chars().collect();
        match self.rng.below(14) {
            10..=12 if !chars.is_empty() => {
                // A character replaced by one of a seed's, or two swapped: the shape stays.
                let mut chars = chars;
                let k = self.rng.below(chars.len());
                if self.rng.below(3) == 0 {
                    let j = self.rng.below(chars.len());
                    chars.swap(k, j);
                } else {
                    let donor: Vec<char> = self.pick(seeds).chars().collect();
                    chars[k] = *self.pick(&donor);
                }
                chars.into_iter().collect()
            }
            0 => {
                // A byte changed, read back leniently (invalid UTF-8 becomes U+FFFD).
                let mut bytes = s.into_bytes();
                if !bytes.is_empty() {
                    let k = self.rng.below(bytes.len());
                    bytes[k] = if self.rng.below(2) == 0 {
                        bytes[k] ^ (1 << self.rng.below(8))
                    } else {
                        self.rng.below(256) as u8
                    };
                }
                String::from_utf8_lossy(&bytes).into_owned()
            }
            1 | 2 => {
                let at = self.boundary(&s);
                let token = *self.pick(TOKENS);
                format!("{}{token}{}", &s[..at], &s[at..])
            }
            3 => {
                let (a, b) = (self.boundary(&s), self.boundary(&s));
                let (a, b) = (a.min(b), a.max(b).min(a.min(b) + 64));
                let b = (b..=s.len()).find(|&k| s.is_char_boundary(k)).unwrap();
                format!("{}{}", &s[..a], &s[b..])
            }
            4 if !lines.is_empty() => {
                let k = self.rng.below(lines.len());
                match self.rng.below(3) {
                    0 => {
                        let line = lines[k].clone();
                        lines.insert(k, line);
                    }
                    1 => {
                        lines.remove(k);
                    }
                    _ => {
                        let j = self.rng.below(lines.len());
                        lines.swap(k, j);
                    }
                }
                lines.concat()
            }
            5 => {
                // Splice: this text's start, another seed's end.
                let other = self.pick(seeds).clone();
                let (a, b) = (self.boundary(&s), self.boundary(&other));
                format!("{}{}", &s[..a], &other[b..])
            }
            6 => {
                // A number replaced by an extreme one, or negated.
                let starts: Vec<usize> = s
                    .char_indices()
                    .filter(|&(i, c)| {
                        c.is_ascii_digit() && !s[..i].ends_with(|p: char| p.is_ascii_digit())
                    })
                    .map(|(i, _)| i)
                    .collect();
                if starts.is_empty() {
                    return s;
                }
                let a = *self.pick(&starts);
                let b = s[a..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(s.len(), |k| a + k);
                let by = *self.pick(&[
                    "0",
                    "-",
                    "99999999999999999999",
                    "4294967297",
                    "2147483647",
                    "65536",
                    "10",
                    "255",
                    "256",
                ]);
                if by == "-" {
                    format!("{}-{}", &s[..a], &s[a..])
                } else {
                    format!("{}{by}{}", &s[..a], &s[b..])
                }
            }
            7 if !lines.is_empty() => {
                // A long line: one line's content repeated.
                let k = self.rng.below(lines.len());
                let body = lines[k].trim_end_matches('\n').to_string();
                lines[k] = body.repeat(2 + self.rng.below(40)) + "\n";
                lines.concat()
            }
            8 => {
                let at = self.boundary(&s);
                s[..at].to_string()
            }
            _ => {
                // A random character anywhere in Unicode's planes.
                let at = self.boundary(&s);
                let c = char::from_u32(self.rng.below(0x30000) as u32).unwrap_or('\u{fffd}');
                format!("{}{c}{}", &s[..at], &s[at..])
            }
        }
    }
}

/// Runs `check` on every replayed input and then `budget.iters` mutated ones; a panic or a
/// broken property fails the test with the input, written out for tests/data/fuzz.
fn fuzz(
    target: &str,
    seeds: &[String],
    budget: &Budget,
    mut check: impl FnMut(&str) -> Result<Depth, String>,
) -> [usize; 5] {
    let start = Instant::now();
    let replay = replayed(target);
    for (name, text) in &replay {
        if let Err(why) = run_one(&mut check, text) {
            panic!("{target}: regression {name} fails again: {why}");
        }
    }
    let mut mutator = Mutator {
        rng: Rng::new(budget.seed ^ hash(target)),
    };
    let mut slowest = (Duration::ZERO, 0);
    let mut depths = [0; 5];
    for iter in 0..budget.iters {
        let input = mutator.mutate(seeds);
        let t = Instant::now();
        match run_one(&mut check, &input) {
            Ok(depth) => depths[depth as usize] += 1,
            Err(why) => {
                let file = Path::new(env!("CARGO_TARGET_TMPDIR"))
                    .join(format!("fuzz-{target}-seed{}-{iter}.txt", budget.seed));
                std::fs::write(&file, &input).unwrap();
                let shown: String = format!("{input:?}").chars().take(2000).collect();
                panic!(
                    "{target}, seed {}, input {iter}: {why}\ninput (also in {}): {shown}",
                    budget.seed,
                    file.display()
                );
            }
        }
        slowest = slowest.max((t.elapsed(), iter));
    }
    eprintln!(
        "fuzz {target}: {} replayed, {} inputs from seed {} in {:.1} s (refused/read/encoded/solved/answered {depths:?}; slowest: input {}, {:.3} s)",
        replay.len(),
        budget.iters,
        budget.seed,
        start.elapsed().as_secs_f64(),
        slowest.1,
        slowest.0.as_secs_f64()
    );
    depths
}

/// The mutants must reach every stage: some refused, some read, some all the way to an answer
/// (a fuzzer whose inputs all bounce off the first check tests nothing).
fn enough(depths: &[usize; 5], iters: usize) {
    let answered = depths[Depth::Answered as usize];
    let refused = depths[Depth::Refused as usize];
    assert!(
        iters < 1000
            || (answered * 100 >= iters && refused * 100 >= iters && refused + answered < iters),
        "{depths:?}"
    );
}

fn run_one(
    check: &mut impl FnMut(&str) -> Result<Depth, String>,
    input: &str,
) -> Result<Depth, String> {
    match catch_unwind(AssertUnwindSafe(|| check(input))) {
        Ok(r) => r,
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(format!("panicked: {}", what.unwrap_or_default()))
        }
    }
}

/// The kept inputs of a target: tests/data/fuzz/TARGET/*, sorted.
fn replayed(target: &str) -> Vec<(String, String)> {
    let dir = data_dir("fuzz").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, String)> = entries
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned(),
            )
        })
        .collect();
    files.sort();
    files
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The puzzle files of `P`: its data folder's and its example.
fn puzzle_seeds<P: Limits>() -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(data_dir(P::DATA))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "in"))
        .collect();
    files.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/examples")
            .join(P::EXAMPLE),
    );
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// Small solvable seeds, so that mutants often get solved: generated Tatamibari boards, tiny
/// Kakkuro boards, a nearly full sudoku.
fn small_seeds<P: Limits>() -> Vec<String> {
    match P::INFO.name {
        "tatamibari" => (0..12)
            .map(|k| {
                Generated::new(2 + k % 5, 2 + k / 3 % 5, &mut Rng::new(k as u64))
                    .board()
                    .to_text()
            })
            .collect(),
        "shikaku" => [
            "2 .\n. 2\n",
            "? . .\n. . 3\n",
            "4 . .\n. . 2\n. 3 .\n",
            "1\n",
            ". 6 .\n. . .\n",
            "2 . ?\n. . .\n3 . .\n",
        ]
        .map(String::from)
        .to_vec(),
        "sudoku" => [
            ". 1 . .\n. . . 2\n3 . . .\n. . 3 .\n",
            "1..4\n....\n....\n....\n",
            "6 1 . . . .\n3 . 2 . . .\n. 4 . 3 . .\n. . 5 . 4 .\n. . . 6 . 5\n. . . . 1 2\n",
            "....\n....\n....\n....\n",
        ]
        .map(String::from)
        .to_vec(),
        "kakuro" => [
            "- 4, 3,\n,3 0 0\n,4 0 0\n",
            "3 3\n- 16, 6,\n,10 0 0\n,12 0 0\n",
            "0 0\n0 0\n",
            "- 3,\n,1 0\n",
            "- 17, 3,\n0,13 0 0\n,7 0 0\n",
        ]
        .map(String::from)
        .to_vec(),
        "hitori" => [
            "1 2 1\n2 3 4\n",
            "1 1 2\n2 3 1\n3 2 2\n",
            "3 3\n1 ? 1\n- 1 -\n1 1 1\n",
            "1 1\n",
            "0 0 0\n",
        ]
        .map(String::from)
        .to_vec(),
        "heyawake" => [
            "3 3\n1 - -\n- - -\n- - -\na b b\na b b\nc c c\n",
            "- - -\na b c\n",
            "2 - ?\n- 0 -\n1 1 2\n1 3 2\n",
            "1\na\n",
        ]
        .map(String::from)
        .to_vec(),
        "lits" => [
            "a a a b\na c b b\nc c c b\n",
            "1 1 1 1 @ 2 2 2 2\n",
            "2 4\n1 1 2 2\n1 1 2 2\n",
            "@\n",
        ]
        .map(String::from)
        .to_vec(),
        "slitherlink" => ["2 2\n3 -\n- -\n", "3 - 3\n- 0 -\n", "? 2\n4 ?\n", "0\n"]
            .map(String::from)
            .to_vec(),
        "masyu" => [
            "3 3\n- w -\n- - -\nb - -\n",
            "- w - -\n- - - -\n- - b -\n",
            "1 2 -\n- - 1\n",
            "b\n",
        ]
        .map(String::from)
        .to_vec(),
        "nurikabe" => [
            "3 - -\n- - -\n- 2 -\n",
            "2 - -\n- - -\n- - 1\n",
            "1 - 1\n",
            "? - -\n- - 2\n",
            "3 3\n- 2 -\n- - -\n4 - -\n",
            "-\n",
        ]
        .map(String::from)
        .to_vec(),
        "kakkuro" => [
            "# . .\n. . @\n",
            "@ . .\n. . #\n# . .\n",
            "#[N] . .\n. @[E] .\n",
            ". .\n. .\n",
            "; comment\n@ .\n. #\n",
        ]
        .map(String::from)
        .to_vec(),
        _ => vec![solved_sudoku_with_holes(&mut Rng::new(3), 8)],
    }
}

/// A completed sudoku of the bundled data with `holes` cells blanked: brute force can try every
/// completion.
fn solved_sudoku_with_holes(rng: &mut Rng, holes: usize) -> String {
    let example =
        std::fs::read_to_string(data_dir("target-sudoku").join("noip2009-02.in")).unwrap();
    let givens = <TargetSudoku as Puzzle>::parse(&example, &Settings::default()).unwrap();
    let opts = Options {
        backend: Backend::Varisat,
        time_limit: None,
        progress: Progress::Never,
        cubes: None,
    };
    let mut grid = runner::search::<TargetSudoku>(givens, Goal::Best, 1, &opts)
        .unwrap()
        .answers
        .pop()
        .unwrap()
        .0;
    for _ in 0..holes {
        grid[rng.below(9)][rng.below(9)] = 0;
    }
    grid.iter()
        .map(|row| {
            row.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect()
}

fn fuzz_puzzle<P: Limits>() {
    let budget = fuzz_budget(CI_ITERS);
    let mut seeds = puzzle_seeds::<P>();
    // As many small seeds as files: half the mutants are small enough to solve.
    let small = small_seeds::<P>();
    seeds.extend(
        small
            .iter()
            .cycle()
            .take(seeds.len().max(small.len()))
            .cloned(),
    );
    let depths = fuzz(
        &format!("{}-parse", P::INFO.name),
        &seeds,
        &budget,
        |text| {
            let depth = exercise_puzzle::<P>(text, &Settings::default(), &mut Vec::new())?;
            if P::flags().contains(&encodings::puzzle::Flag::Lenient) {
                exercise_puzzle::<P>(text, &Settings { lenient: true }, &mut Vec::new())?;
            }
            Ok(depth)
        },
    );
    enough(&depths, budget.iters);
}

/// Answers for one small instance of `P`: what the binary prints for it in every format, the
/// drawings of the library, and the data folder's answer files.
fn fuzz_answers<P: Limits>(file: &Path, extra: &[String]) {
    let budget = fuzz_budget(CI_ITERS);
    let text = std::fs::read_to_string(file).unwrap();
    let inst = P::parse(&text, &Settings::default()).unwrap();
    let mut seeds: Vec<String> = extra.to_vec();
    for format in P::formats()
        .into_iter()
        .filter(|&f| f != Format::Judge && f != Format::Svg)
    {
        let r = common::run(
            &[
                "solve",
                P::INFO.name,
                file.to_str().unwrap(),
                "--format",
                format.name(),
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        seeds.push(r.stdout);
    }
    let mut printed = Vec::new();
    exercise_puzzle::<P>(&text, &Settings::default(), &mut printed).unwrap();
    seeds.extend(printed);
    let depths = fuzz(
        &format!("{}-answer", P::INFO.name),
        &seeds,
        &budget,
        |answer| exercise_answer::<P>(&inst, answer),
    );
    enough(&depths, budget.iters);
}

/// Solver outputs for a small instance of `P`: its model in the competition's, MiniSat's and
/// the bare form, and an UNSAT verdict.
fn fuzz_models<P: Limits>(text: &str) {
    let budget = fuzz_budget(CI_ITERS);
    let inst = P::parse(text, &Settings::default()).unwrap();
    let mut cnf = Cnf::new();
    let enc = P::encode(&inst, &mut cnf);
    let mut solver = Backend::Varisat.solvers(Stop::new()).new_solver();
    for _ in 0..cnf.num_vars {
        solver.new_var();
    }
    cnf.clauses.iter().for_each(|c| solver.add_clause(c));
    assert_eq!(solver.solve().unwrap(), SolveResult::Sat);
    let model = solver.model();
    let lits: Vec<String> = (1..=cnf.num_vars)
        .map(|v| {
            if model.value(Lit::positive(v)) {
                v.to_string()
            } else {
                format!("-{v}")
            }
        })
        .collect();
    let seeds = vec![
        format!("c a solver\ns SATISFIABLE\nv {}\nv 0\n", lits.join(" ")),
        format!("SAT\n{} 0\n", lits.join(" ")),
        format!("{} 0\n", lits.join(" ")),
        "s UNSATISFIABLE\n".to_string(),
    ];
    let depths = fuzz(&format!("{}-model", P::INFO.name), &seeds, &budget, |out| {
        exercise_model::<P>(&inst, &cnf, &enc, out)
    });
    enough(&depths, budget.iters);
}

#[test]
fn tatamibari_files() {
    fuzz_puzzle::<Tatamibari>();
}

#[test]
fn kakkuro_files() {
    fuzz_puzzle::<Kakkuro>();
}

#[test]
fn shikaku_files() {
    fuzz_puzzle::<Shikaku>();
}

#[test]
fn shikaku_answers() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/shikaku.txt");
    fuzz_answers::<Shikaku>(&example, &["0 0 5 1\n".to_string()]);
}

#[test]
fn sudoku_files() {
    fuzz_puzzle::<Sudoku>();
}

#[test]
fn sudoku_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("four.txt");
    std::fs::write(&file, ". 1 . .\n. . . 2\n3 . . .\n. . 3 .\n").unwrap();
    fuzz_answers::<Sudoku>(&file, &["2143342112344312\n".to_string()]);
}

#[test]
fn kakuro_files() {
    fuzz_puzzle::<Kakuro>();
}

#[test]
fn kakuro_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("small.txt");
    std::fs::write(&file, "- 4, 3,\n,3 0 0\n,4 0 0\n").unwrap();
    fuzz_answers::<Kakuro>(
        &file,
        &["- - -\n- 1 2\n- 3 1\n".to_string(), "1231\n".to_string()],
    );
}

#[test]
fn nurikabe_files() {
    fuzz_puzzle::<Nurikabe>();
}

#[test]
fn nurikabe_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("small.txt");
    std::fs::write(&file, "3 - -\n- - -\n- 2 -\n").unwrap();
    fuzz_answers::<Nurikabe>(
        &file,
        &[
            "3 . .\n# # #\n. 2 #\n".to_string(),
            "3 3\n---\nxxx\n--x\n".to_string(),
        ],
    );
}

#[test]
fn hitori_files() {
    fuzz_puzzle::<Hitori>();
}

#[test]
fn hitori_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("small.txt");
    std::fs::write(&file, "1 1 2\n2 3 1\n3 2 2\n").unwrap();
    fuzz_answers::<Hitori>(
        &file,
        &[
            "# 1 2\n2 3 1\n3 2 #\n".to_string(),
            "3 3\nx--\n---\n--x\n".to_string(),
        ],
    );
}

#[test]
fn heyawake_files() {
    fuzz_puzzle::<Heyawake>();
}

#[test]
fn heyawake_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("small.txt");
    std::fs::write(&file, "3 3\n1 - -\n- - -\n- - -\na b b\na b b\nc c c\n").unwrap();
    fuzz_answers::<Heyawake>(
        &file,
        &[
            "# . .\n. . .\n. . .\n".to_string(),
            "3 3\nx--\n-x-\n---\n".to_string(),
        ],
    );
}

#[test]
fn lits_files() {
    fuzz_puzzle::<Lits>();
}

#[test]
fn lits_answers() {
    let file = data_dir("lits").join("janko-0001-6x7.txt");
    let sol = std::fs::read_to_string(file.with_extension("sol")).unwrap();
    let letters = sol.replace('#', "L").replace('.', "-");
    fuzz_answers::<Lits>(&file, &[sol, letters]);
}

#[test]
fn slitherlink_files() {
    fuzz_puzzle::<Slitherlink>();
}

#[test]
fn slitherlink_answers() {
    let file = data_dir("slitherlink").join("janko-0001-4x4.txt");
    let sol = std::fs::read_to_string(file.with_extension("sol")).unwrap();
    fuzz_answers::<Slitherlink>(
        &file,
        &[sol, "4 4\nx x - -\nx - - -\n- - - -\n- - - -\n".into()],
    );
}

#[test]
fn masyu_files() {
    fuzz_puzzle::<Masyu>();
}

#[test]
fn masyu_answers() {
    let file = data_dir("masyu").join("janko-0002-6x6.txt");
    let sol = std::fs::read_to_string(file.with_extension("sol")).unwrap();
    let dirs = "se sw - - - -\nne nw - - - -\n- - - - - -\n- - - - - -\n- - - - - -\n- - - - - -\n";
    fuzz_answers::<Masyu>(&file, &[sol, dirs.into()]);
}

#[test]
fn target_sudoku_files() {
    fuzz_puzzle::<TargetSudoku>();
}

#[test]
fn tatamibari_answers() {
    let dir = data_dir("tatamibari");
    let sol = std::fs::read_to_string(dir.join("codegolf-5x5.sol")).unwrap();
    fuzz_answers::<Tatamibari>(&dir.join("codegolf-5x5.txt"), &[sol]);
}

#[test]
fn kakkuro_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("tiny.txt");
    std::fs::write(&file, "# . . #\n. . @ .\n").unwrap();
    fuzz_answers::<Kakkuro>(&file, &["1:E 1 8:S 9:S\n20:E 6 7 2\n".to_string()]);
}

#[test]
fn target_sudoku_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("holes.txt");
    std::fs::write(&file, solved_sudoku_with_holes(&mut Rng::new(5), 10)).unwrap();
    fuzz_answers::<TargetSudoku>(&file, &[]);
}

#[test]
fn models() {
    fuzz_models::<Tatamibari>(
        &std::fs::read_to_string(data_dir("tatamibari").join("codegolf-5x5.txt")).unwrap(),
    );
    fuzz_models::<Kakkuro>("# . . #\n. . @ .\n");
    fuzz_models::<TargetSudoku>(&solved_sudoku_with_holes(&mut Rng::new(7), 12));
    fuzz_models::<Sudoku>(". 1 . .\n. . . 2\n3 . . .\n. . 3 .\n");
    fuzz_models::<Kakuro>("- 4, 3,\n,3 0 0\n,4 0 0\n");
    fuzz_models::<Nurikabe>("3 - -\n- - -\n- 2 -\n");
    fuzz_models::<Hitori>("1 1 2\n2 3 1\n3 2 2\n");
    fuzz_models::<Lits>("1 1 1 1\n");
    fuzz_models::<Slitherlink>("2 2\n3 -\n- -\n");
    fuzz_models::<Masyu>("3 3\n- w -\n- - -\nb - -\n");
    fuzz_models::<Heyawake>("3 3\n1 - -\n- - -\n- - -\na b b\na b b\nc c c\n");
    fuzz_models::<Shikaku>(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/shikaku.txt"),
        )
        .unwrap(),
    );
}
