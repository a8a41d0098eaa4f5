//! `--format svg` end to end, through the real binary: every bundled example's picture is
//! well-formed SVG holding what the puzzle shows (givens, clues, red dots, the score), it
//! renders in headless Chromium to a non-blank image of its stated size, and the seed
//! examples' pictures are kept as snapshots.

mod common;

use common::{data_dir, json_field, model_file, run};
use roxmltree::{Document, Node};
use std::path::{Path, PathBuf};
#[cfg(feature = "outside-tools")]
use std::process::{Command, Stdio};
#[cfg(feature = "outside-tools")]
use std::time::{Duration, Instant};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every bundled example: docs/examples and the seed examples in tests/data.
fn examples() -> Vec<(&'static str, PathBuf)> {
    let docs = root().join("docs/examples");
    let mut list = vec![
        ("target-sudoku", docs.join("target-sudoku.txt")),
        ("tatamibari", docs.join("tatamibari.txt")),
        ("kakkuro", docs.join("kakkuro.txt")),
        (
            "target-sudoku",
            data_dir("target-sudoku").join("sample-1.in"),
        ),
        (
            "target-sudoku",
            data_dir("target-sudoku").join("sample-2.in"),
        ),
        ("kakkuro", data_dir("kakkuro").join("example.txt")),
    ];
    for n in [3, 4, 5, 7, 10] {
        list.push((
            "tatamibari",
            data_dir("tatamibari").join(format!("codegolf-{n}x{n}.txt")),
        ));
    }
    list
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The document's root, checked: an `svg` element in the SVG namespace with a positive width and
/// height and the matching viewBox. Returns the size.
fn svg_size(doc: &Document) -> (f64, f64) {
    let svg = doc.root_element();
    assert_eq!(svg.tag_name().name(), "svg");
    assert_eq!(svg.tag_name().namespace(), Some(SVG_NS));
    let number = |name: &str| -> f64 {
        svg.attribute(name)
            .unwrap_or_else(|| panic!("no {name}"))
            .parse()
            .unwrap()
    };
    let (w, h) = (number("width"), number("height"));
    assert!(w > 0.0 && h > 0.0);
    assert_eq!(
        svg.attribute("viewBox"),
        Some(format!("0 0 {w} {h}").as_str())
    );
    assert!(
        doc.descendants().all(|n| n.tag_name().name() != "script"),
        "no scripts"
    );
    (w, h)
}

/// The groups of class `class`.
fn groups<'a>(doc: &'a Document, class: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
        .collect()
}

/// The texts inside the groups of class `class`.
fn texts(doc: &Document, class: &str) -> Vec<String> {
    groups(doc, class)
        .iter()
        .flat_map(|g| {
            g.descendants()
                .filter(|n| n.has_tag_name("text"))
                .map(|n| n.text().unwrap_or("").to_string())
        })
        .collect()
}

/// How many `tag` elements the groups of class `class` hold.
fn count(doc: &Document, class: &str, tag: &str) -> usize {
    groups(doc, class)
        .iter()
        .map(|g| g.descendants().filter(|n| n.has_tag_name(tag)).count())
        .sum()
}

/// The caption, its wrapped lines joined again.
fn caption(doc: &Document) -> String {
    texts(doc, "caption").join(" ")
}

/// One backend, pinned: where a puzzle has several (optimal) answers the picture is of the
/// answering backend's, which a race does not fix.
fn solve_svg(puzzle: &str, file: &Path, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "solve",
        puzzle,
        path_str(file),
        "--format",
        "svg",
        "--solver",
        "varisat",
    ];
    args.extend_from_slice(extra);
    run(&args, None)
}

#[test]
fn every_example_is_svg_with_its_givens_clues_and_score() {
    for (puzzle, file) in examples() {
        let name = file.display().to_string();
        let r = solve_svg(puzzle, &file, &[]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert!(
            r.stdout.starts_with("<?xml"),
            "{name}: only the picture on stdout"
        );
        let doc = Document::parse(&r.stdout).unwrap_or_else(|e| panic!("{name}: not XML: {e}"));
        svg_size(&doc);
        let text = std::fs::read_to_string(&file).unwrap();
        let verdict = r.stderr.lines().last().unwrap_or("").to_string();
        assert_eq!(
            caption(&doc),
            verdict,
            "{name}: the verdict on stderr is the caption"
        );
        match puzzle {
            "target-sudoku" => {
                let givens = encodings::genres::target_sudoku::parse(&text).unwrap();
                let given: Vec<String> = givens
                    .iter()
                    .flatten()
                    .filter(|&&d| d != 0)
                    .map(|d| d.to_string())
                    .collect();
                assert_eq!(texts(&doc, "given"), given, "{name}: a bold text per given");
                assert_eq!(texts(&doc, "digit").len() + given.len(), 81, "{name}");
                let judge = run(
                    &["solve", puzzle, path_str(&file), "--format", "judge"],
                    None,
                );
                assert_eq!(
                    texts(&doc, "score"),
                    [format!("score {}", judge.stdout.trim())],
                    "{name}"
                );
                assert_eq!(verdict, "optimal (proved)");
            }
            "tatamibari" => {
                let board = encodings::genres::tatamibari::parse(&text).unwrap();
                let clues = board
                    .cells
                    .iter()
                    .filter(|c| matches!(c, encodings::genres::tatamibari::Cell::Clue(_)))
                    .count();
                assert_eq!(groups(&doc, "clue").len(), clues, "{name}: a mark per clue");
                let rects = run(
                    &["solve", puzzle, path_str(&file), "--format", "rects"],
                    None,
                );
                assert_eq!(
                    count(&doc, "rectangles", "rect"),
                    rects.stdout.lines().count(),
                    "{name}: a fill per rectangle"
                );
                assert_eq!(verdict, "solved");
            }
            _ => {
                let p = encodings::genres::kakkuro::parse(&text).unwrap();
                assert_eq!(
                    count(&doc, "dot", "circle"),
                    p.dots().len(),
                    "{name}: a red circle per red dot"
                );
                let cells = texts(&doc, "digit").len()
                    + texts(&doc, "number").len()
                    + texts(&doc, "painted").len();
                assert_eq!(cells, p.rows * p.cols, "{name}: a number in every cell");
                assert!(
                    count(&doc, "open", "polygon") >= texts(&doc, "number").len(),
                    "{name}: an arrow per open side, one at least per gray cell"
                );
                let json = run(
                    &["solve", puzzle, path_str(&file), "--format", "json"],
                    None,
                );
                let score = json_field(&json.stdout, "score");
                assert_eq!(
                    texts(&doc, "score")[0],
                    format!("score {}", score.trim_matches('"')),
                    "{name}"
                );
                assert_eq!(verdict, "optimal (proved)");
            }
        }
    }
}

#[test]
fn two_solutions_side_by_side_with_their_differences_marked() {
    let file = data_dir("tatamibari").join("codegolf-5x5.txt");
    let r = solve_svg("tatamibari", &file, &["--unique"]);
    assert_eq!(r.code, 1, "not unique: {}", r.stderr);
    let doc = Document::parse(&r.stdout).unwrap();
    let (w, _) = svg_size(&doc);
    assert_eq!(caption(&doc), "not unique: two different solutions");
    assert_eq!(groups(&doc, "rectangles").len(), 2, "two drawings");
    assert_eq!(groups(&doc, "clue").len(), 2 * 7);
    // Both mark the same cells: those whose rectangle differs.
    let marks = groups(&doc, "differs");
    assert_eq!(marks.len(), 2);
    let n = |g: &Node| g.children().filter(|c| c.has_tag_name("rect")).count();
    assert_eq!(n(&marks[0]), n(&marks[1]));
    assert!(n(&marks[0]) > 0 && n(&marks[0]) < 25);
    let single = Document::parse(&solve_svg("tatamibari", &file, &[]).stdout)
        .unwrap()
        .root_element()
        .attribute("width")
        .unwrap()
        .parse::<f64>()
        .unwrap();
    assert!(w > 1.8 * single, "side by side: {w} vs {single}");
    // A unique puzzle shows its one solution.
    let r = solve_svg(
        "tatamibari",
        &data_dir("tatamibari").join("codegolf-4x4.txt"),
        &["--unique"],
    );
    assert_eq!(r.code, 0);
    let doc = Document::parse(&r.stdout).unwrap();
    assert_eq!(
        (
            groups(&doc, "rectangles").len(),
            groups(&doc, "differs").len(),
            caption(&doc)
        ),
        (1, 0, "unique".to_string())
    );
}

#[test]
fn no_solution_is_the_bare_puzzle_captioned() {
    let r = run(
        &["solve", "tatamibari", "-", "--format", "svg"],
        Some(b"...\n.#.\n"),
    );
    assert_eq!(r.code, 1);
    let doc = Document::parse(&r.stdout).unwrap();
    svg_size(&doc);
    assert_eq!(caption(&doc), "no solution");
    assert!(groups(&doc, "rectangles").is_empty());
    assert_eq!(r.stderr.trim(), "no solution");
    let r = run(
        &["solve", "target-sudoku", "-", "--format", "svg"],
        Some(b"55.......\n".repeat(9).as_slice()),
    );
    assert_eq!(r.code, 1);
    let doc = Document::parse(&r.stdout).unwrap();
    assert_eq!(
        (
            caption(&doc),
            texts(&doc, "given").len(),
            texts(&doc, "score").len()
        ),
        ("no solution".to_string(), 18, 0)
    );
}

#[test]
fn check_draws_a_valid_answer_and_captions_an_invalid_one() {
    let dir = data_dir("tatamibari");
    let (file, sol) = (dir.join("codegolf-5x5.txt"), dir.join("codegolf-5x5.sol"));
    let r = run(
        &[
            "check",
            "tatamibari",
            path_str(&file),
            "--answer",
            path_str(&sol),
            "--format",
            "svg",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = Document::parse(&r.stdout).unwrap();
    assert_eq!(
        (caption(&doc), count(&doc, "rectangles", "rect")),
        ("valid".to_string(), 7)
    );
    let r = run(
        &[
            "check",
            "tatamibari",
            path_str(&file),
            "--answer",
            "-",
            "--format",
            "svg",
        ],
        Some("11111\n".repeat(5).as_bytes()),
    );
    assert_eq!(r.code, 1);
    let doc = Document::parse(&r.stdout).unwrap();
    assert!(
        caption(&doc).starts_with("invalid: two clues"),
        "{}",
        caption(&doc)
    );
    // One label everywhere: one rectangle, drawn, all of it outlined as the rule's region.
    assert_eq!(
        (
            count(&doc, "rectangles", "rect"),
            count(&doc, "broken", "rect")
        ),
        (1, 25)
    );
    // Kakkuro's bare contest string: the solver's sides are drawn, the score written.
    let example = data_dir("kakkuro").join("example.txt");
    let contest = "427680:7,7,8,9,20,30,8,6,9,7,6,15,2,(4),4,6,9,9,8,1,15,6,9,8,8\n";
    let r = run(
        &[
            "check",
            "kakkuro",
            path_str(&example),
            "--answer",
            "-",
            "--format",
            "svg",
        ],
        Some(contest.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = Document::parse(&r.stdout).unwrap();
    assert_eq!(texts(&doc, "score")[0], "score 427680");
    assert!(
        caption(&doc).starts_with("valid (strict mode), scored with the best choice of sides"),
        "{}",
        caption(&doc)
    );
}

/// The (x, y) of each outline of the broken rule.
fn broken_at(doc: &Document) -> Vec<(f64, f64)> {
    let at = |n: &Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    groups(doc, "broken")
        .iter()
        .flat_map(|g| {
            g.children()
                .filter(|c| c.has_tag_name("rect"))
                .map(|c| (at(&c, "x"), at(&c, "y")))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn check_draws_a_broken_answer_with_the_rule_it_breaks_marked() {
    let check = |puzzle: &str, file: &Path, answer: &str| {
        let r = run(
            &[
                "check",
                puzzle,
                path_str(file),
                "--answer",
                "-",
                "--format",
                "svg",
            ],
            Some(answer.as_bytes()),
        );
        assert_eq!(r.code, 1, "{puzzle}: {}", r.stderr);
        let doc = Document::parse(&r.stdout).unwrap().input_text().to_string();
        (doc, r.stderr)
    };
    let docs = root().join("docs/examples");

    // Target sudoku: two 8s in column 1 after swapping two digits of the first row.
    let file = docs.join("target-sudoku.txt");
    let solved = run(
        &[
            "solve",
            "target-sudoku",
            path_str(&file),
            "--solver",
            "varisat",
        ],
        None,
    )
    .stdout;
    assert!(solved.starts_with("6 8 1 |"), "{solved}");
    let (text, stderr) = check(
        "target-sudoku",
        &file,
        &solved.replacen("6 8 1", "8 6 1", 1),
    );
    let doc = Document::parse(&text).unwrap();
    assert_eq!(caption(&doc), "invalid: column 1 holds 8 twice");
    assert_eq!(stderr.trim(), caption(&doc));
    let marks = broken_at(&doc);
    assert_eq!(marks.len(), 2, "the two 8s");
    assert_eq!(marks[0].0, marks[1].0, "in one column");
    assert!(
        texts(&doc, "digit").contains(&"6".to_string()),
        "the answer is drawn"
    );
    assert!(
        texts(&doc, "score").is_empty(),
        "no score for a broken answer"
    );

    // Tatamibari: the last row's `+` rectangle made 1 tall and 2 wide.
    let file = docs.join("tatamibari.txt");
    let solved = run(
        &[
            "solve",
            "tatamibari",
            path_str(&file),
            "--solver",
            "varisat",
        ],
        None,
    )
    .stdout;
    assert!(solved.ends_with("QQRRSSSTPP\nsolved\n"), "{solved}");
    let (text, _) = check(
        "tatamibari",
        &file,
        &solved.replace("QQRRSSSTPP", "QQRRSSTTPP"),
    );
    let doc = Document::parse(&text).unwrap();
    assert!(
        caption(&doc).starts_with("invalid: wrong shape: rectangle 'T' is 1 tall and 2 wide"),
        "{}",
        caption(&doc)
    );
    let marks = broken_at(&doc);
    assert_eq!(marks.len(), 2, "the two cells of T");
    assert_eq!(marks[0].1, marks[1].1, "in one row");
    assert_eq!(
        count(&doc, "rectangles", "rect"),
        solved
            .trim_end_matches("solved\n")
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<std::collections::HashSet<_>>()
            .len(),
        "every region drawn"
    );
    // A region that is no rectangle is outlined, not drawn.
    let (text, _) = check(
        "tatamibari",
        &file,
        &solved.replace("QQRRSSSTPP", "QQRRSSSPPP"),
    );
    let doc = Document::parse(&text).unwrap();
    assert!(
        caption(&doc).starts_with("invalid: not a rectangle: label 'P'"),
        "{}",
        caption(&doc)
    );
    assert_eq!(broken_at(&doc).len(), 5, "P's cells");

    // Kakkuro: a digit changed under an open side: the gray cell whose sum breaks is marked.
    let file = docs.join("kakkuro.txt");
    let line = run(
        &[
            "solve",
            "kakkuro",
            path_str(&file),
            "--format",
            "line",
            "--solver",
            "varisat",
        ],
        None,
    )
    .stdout;
    assert!(line.contains(",4:N,9,9:ESW,"), "{line}");
    let (text, _) = check(
        "kakkuro",
        &file,
        &line.replace(",4:N,9,9:ESW,", ",4:N,5,9:ESW,"),
    );
    let doc = Document::parse(&text).unwrap();
    assert!(
        caption(&doc).starts_with("invalid: rule 1 broken at row 3, column 2"),
        "{}",
        caption(&doc)
    );
    assert_eq!(broken_at(&doc).len(), 1);
    assert!(
        texts(&doc, "digit").contains(&"5".to_string()),
        "the answer is drawn"
    );
    assert!(texts(&doc, "score").is_empty());
    // Values without sides, one out of range: drawn and marked, the gray cells bordered as given.
    let (text, _) = check(
        "kakkuro",
        &file,
        "427680:8,8,15,9,17,30,7,8,9,12,4,15,7,(2),2,4,9,9,8,1,15,6,9,8,8\n",
    );
    let doc = Document::parse(&text).unwrap();
    assert!(
        caption(&doc).starts_with("invalid: rule 1 broken at row 2, column 5: white cell holds 12"),
        "{}",
        caption(&doc)
    );
    assert_eq!(
        (broken_at(&doc).len(), count(&doc, "open", "polygon")),
        (1, 0),
        "no sides drawn"
    );
    assert!(texts(&doc, "digit").contains(&"12".to_string()));
    // Values with no valid choice of sides: nothing to mark, the bare puzzle.
    let (text, _) = check(
        "kakkuro",
        &file,
        "427680:8,8,15,9,17,30,7,8,9,6,4,15,7,(2),2,4,9,9,8,1,15,6,9,8,7\n",
    );
    let doc = Document::parse(&text).unwrap();
    assert!(
        caption(&doc).starts_with("invalid: no choice of open sides"),
        "{}",
        caption(&doc)
    );
    assert!(broken_at(&doc).is_empty() && texts(&doc, "digit").is_empty());
}

#[test]
fn generate_draws_the_puzzle_without_its_answer() {
    let text = run(
        &["generate", "tatamibari", "--size", "6x8", "--seed", "3"],
        None,
    );
    let r = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "6x8",
            "--seed",
            "3",
            "--format",
            "svg",
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = Document::parse(&r.stdout).unwrap();
    svg_size(&doc);
    let clues = text.stdout.chars().filter(|c| "+-|".contains(*c)).count();
    assert_eq!(groups(&doc, "clue").len(), clues);
    assert!(groups(&doc, "rectangles").is_empty());
    assert_eq!(caption(&doc), "tatamibari 6×8, seed 3");
    // A big board stays bounded, and its cells readable.
    let r = run(
        &[
            "generate",
            "tatamibari",
            "--size",
            "100x100",
            "--format",
            "svg",
        ],
        None,
    );
    let (w, h) = svg_size(&Document::parse(&r.stdout).unwrap());
    assert!(
        (1600.0..=2100.0).contains(&w) && (1600.0..=2100.0).contains(&h),
        "{w}×{h}"
    );
}

#[test]
fn decode_draws_the_model_or_captions_its_refutation() {
    let dir = tempfile::tempdir().unwrap();
    for (puzzle, file, verdict) in [
        (
            "tatamibari",
            data_dir("tatamibari").join("codegolf-4x4.txt"),
            "solved",
        ),
        (
            "target-sudoku",
            data_dir("target-sudoku").join("sample-1.in"),
            "valid answer (optimality not checked)",
        ),
    ] {
        let model = model_file(puzzle, path_str(&file), dir.path());
        let r = run(
            &[
                "decode",
                puzzle,
                path_str(&file),
                "--model",
                &model,
                "--format",
                "svg",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(caption(&Document::parse(&r.stdout).unwrap()), verdict);
        let unsat = dir.path().join("unsat");
        std::fs::write(&unsat, "s UNSATISFIABLE\n").unwrap();
        let r = run(
            &[
                "decode",
                puzzle,
                path_str(&file),
                "--model",
                path_str(&unsat),
                "--format",
                "svg",
            ],
            None,
        );
        assert_eq!(r.code, 1);
        assert_eq!(
            caption(&Document::parse(&r.stdout).unwrap()),
            "no solution (per the external solver; unchecked)"
        );
    }
}

/// `svg` rendered by headless Chromium at its own size: the screenshot's width, height and
/// RGB pixels.
#[cfg(feature = "outside-tools")]
fn screenshot(svg: &str, dir: &Path, name: &str) -> (u32, u32, Vec<[u8; 3]>) {
    let (w, h) = svg_size(&Document::parse(svg).unwrap());
    let (file, png) = (
        dir.join(format!("{name}.svg")),
        dir.join(format!("{name}.png")),
    );
    std::fs::write(&file, svg).unwrap();
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--no-first-run",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.join(format!("{name}-profile")).display()
        ))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={w},{h}"))
        .arg(format!("file://{}", file.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium is installed (.ci/run installs Debian's chromium)");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name}: chromium took over two minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png).unwrap_or_else(|e| panic!("{name}: no screenshot: {e}")),
    ));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let samples = info.color_type.samples();
    let pixels = buf[..info.line_size * info.height as usize]
        .chunks(info.line_size)
        .flat_map(|row| row[..info.width as usize * samples].chunks(samples))
        .map(|p| {
            if samples >= 3 {
                [p[0], p[1], p[2]]
            } else {
                [p[0]; 3]
            }
        })
        .collect();
    (info.width, info.height, pixels)
}

#[cfg(feature = "outside-tools")]
#[test]
fn chromium_renders_each_picture_at_its_size_and_not_blank() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "target-sudoku",
            data_dir("target-sudoku").join("sample-1.in"),
            &[][..],
        ),
        (
            "tatamibari",
            data_dir("tatamibari").join("codegolf-5x5.txt"),
            &["--unique"][..],
        ),
        ("kakkuro", data_dir("kakkuro").join("example.txt"), &[][..]),
        // README's picture.
        (
            "tatamibari",
            root().join("docs/examples/tatamibari.txt"),
            &["--unique"][..],
        ),
    ];
    for (puzzle, file, extra) in cases {
        let svg = solve_svg(puzzle, &file, extra).stdout;
        let (w, h) = svg_size(&Document::parse(&svg).unwrap());
        let (pw, ph, pixels) = screenshot(&svg, dir.path(), puzzle);
        assert_eq!(
            (pw, ph),
            (w as u32, h as u32),
            "{puzzle}: the screenshot has the picture's size"
        );
        let colours: std::collections::HashSet<[u8; 3]> = pixels.iter().copied().collect();
        assert!(colours.len() > 1, "{puzzle}: a blank screenshot");
        let share = |f: &dyn Fn(&[u8; 3]) -> bool| {
            pixels.iter().filter(|p| f(p)).count() as f64 / pixels.len() as f64
        };
        let dark = share(&|p| p.iter().all(|&v| v < 80));
        let white = share(&|p| p.iter().all(|&v| v == 255));
        eprintln!(
            "{puzzle}: {pw}×{ph}, {} colours, {:.1}% dark, {:.1}% white",
            colours.len(),
            dark * 100.0,
            white * 100.0
        );
        // Lines, clues and digits in black; the fills light; the margins white.
        assert!(
            dark > 0.03,
            "{puzzle}: only {:.1}% dark pixels",
            dark * 100.0
        );
        assert!(
            (0.05..0.95).contains(&white),
            "{puzzle}: {:.1}% white pixels",
            white * 100.0
        );
    }
}

#[test]
fn snapshots_of_the_seed_examples() {
    let cases = [
        (
            "svg-target-sudoku-sample-1",
            "target-sudoku",
            data_dir("target-sudoku").join("sample-1.in"),
            &[][..],
        ),
        (
            "svg-tatamibari-codegolf-4x4",
            "tatamibari",
            data_dir("tatamibari").join("codegolf-4x4.txt"),
            &[][..],
        ),
        (
            "svg-tatamibari-codegolf-5x5-unique",
            "tatamibari",
            data_dir("tatamibari").join("codegolf-5x5.txt"),
            &["--unique"][..],
        ),
        (
            "svg-kakkuro-example",
            "kakkuro",
            data_dir("kakkuro").join("example.txt"),
            &[][..],
        ),
    ];
    for (name, puzzle, file, extra) in cases {
        let r = solve_svg(puzzle, &file, extra);
        insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(name, r.stdout);
        });
    }
}

/// README's picture is what `solve` draws today for the bundled example (it is also rendered
/// above): regenerate it with the command in the message when a drawing changes.
#[test]
fn the_readme_picture_is_current() {
    let svg = solve_svg(
        "tatamibari",
        &root().join("docs/examples/tatamibari.txt"),
        &["--unique"],
    )
    .stdout;
    let committed = std::fs::read_to_string(root().join("docs/examples/tatamibari.svg")).unwrap();
    assert!(svg == committed, "run: puzzle-sat solve tatamibari docs/examples/tatamibari.txt --unique --format svg > docs/examples/tatamibari.svg");
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains("](docs/examples/tatamibari.svg)"),
        "README shows the picture"
    );
}
