//! The web page, built and used in a real browser: `web/build.sh` compiles the solver to
//! WebAssembly (installing the wasm32 target and wasm-bindgen-cli when missing), then
//! web/tests/page.test.mjs drives Debian's headless Chromium through Playwright against the
//! page as `puzzle-sat serve` serves it. Needs Node.js and Chromium (`.ci/run` installs them);
//! Playwright comes from npm (`npm ci --prefix web`, run here when missing).

use std::path::Path;
use std::process::Command;

#[cfg(feature = "outside-tools")]
fn run(what: &str, cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("{what}: cannot start: {e} (.ci/run installs what the page's tests need)")
    });
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The browser tests' own report, shown in the test's output.
    println!("{what}:\n{said}");
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{said}",
        out.status
    );
}

#[cfg(feature = "outside-tools")]
#[test]
fn the_page_solves_in_headless_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    run(
        "web/build.sh",
        Command::new("bash").arg(root.join("web/build.sh")),
    );
    if !root.join("web/node_modules/playwright-core").is_dir() {
        run(
            "npm ci",
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                .arg(root.join("web")),
        );
    }
    run(
        "node --test web/tests",
        Command::new("node")
            .arg("--test")
            .arg("--test-concurrency=1")
            .arg(root.join("web/tests/page.test.mjs"))
            .env("PUZZLE_SAT_BIN", env!("CARGO_BIN_EXE_puzzle-sat"))
            .current_dir(root),
    );
}

/// The CLI's stdout for `args`.
fn cli(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args(args)
        .output()
        .expect("the binary runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn last_line(s: &str) -> &str {
    s.trim_end().lines().last().unwrap_or("")
}

/// The page's solver (the same crate as the .wasm, run natively) says what the CLI says about
/// the same puzzles: the verdict words, the answer in the machine format, counts and hints.
#[test]
fn the_page_says_what_the_cli_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let catalogue = puzzle_sat_web::catalogue();
    let cadical = cli(&["solvers"]).lines().any(|l| l.starts_with("cadical "));
    let mut checked = 0;
    for genre in catalogue.as_array().unwrap() {
        let name = genre["name"].as_str().unwrap();
        let machine = genre["machine"].as_str().unwrap();
        let modes: Vec<&str> = genre["modes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let mut files = vec![root.join(format!("docs/examples/{name}.txt"))];
        let mut data: Vec<_> = std::fs::read_dir(root.join("tests/data").join(name))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                matches!(p.extension().and_then(|e| e.to_str()), Some("txt" | "in"))
                    && std::fs::metadata(p).unwrap().len() < 2000
            })
            .collect();
        data.sort();
        files.extend(data.into_iter().take(3));
        // Boards with many solutions and with none, for the counts and the refutations.
        let extra = root.join("target/web/boards");
        std::fs::create_dir_all(&extra).unwrap();
        for (genre, board, text) in [
            ("sudoku", "empty-4x4", "....\n....\n....\n....\n"),
            ("tatamibari", "two-tilings", "+.-.\n...-\n"),
            ("tatamibari", "none", "++\n..\n"),
        ] {
            if genre == name {
                let file = extra.join(format!("{board}.txt"));
                std::fs::write(&file, text).unwrap();
                files.push(file);
            }
        }
        for file in files {
            let path = file.to_str().unwrap();
            let text = std::fs::read_to_string(&file).unwrap();
            let ask = |mode: &str, extra: &[(&str, serde_json::Value)]| {
                let mut req = serde_json::json!({ "puzzle": name, "text": text, "mode": mode });
                for (k, v) in extra {
                    req[*k] = v.clone();
                }
                let v = puzzle_sat_web::run(&req, &mut |_| {});
                assert_eq!(v["ok"], true, "{path} {mode}: {v}");
                v
            };
            let maximize = genre["maximize"].as_bool().unwrap();
            let proof_flag: &[&str] = if maximize { &[] } else { &["--unique"] };
            let page = ask("prove", &[]);
            let said = cli(&[&["solve", name, path], proof_flag].concat());
            assert_eq!(
                page["verdict"].as_str().unwrap(),
                last_line(&said),
                "{path}: prove"
            );
            // Where the native build has CaDiCaL, the page's varisat gives its verdicts too.
            if cadical {
                let said =
                    cli(&[&["solve", name, path, "--solver", "cadical"], proof_flag].concat());
                assert_eq!(
                    page["verdict"].as_str().unwrap(),
                    last_line(&said),
                    "{path}: prove, against CaDiCaL"
                );
            }
            let answers = page["answers"].as_array().unwrap();
            if let Some(first) = answers.first() {
                // The page's backend: of several (optimal) answers, the same one.
                let drawn = cli(&[
                    &[
                        "solve", name, path, "--format", machine, "--solver", "varisat",
                    ],
                    proof_flag,
                ]
                .concat());
                let ours = first["machine"].as_str().unwrap();
                assert!(
                    drawn.starts_with(ours),
                    "{path}: the page's answer\n{ours}\nthe CLI's\n{drawn}"
                );
            }
            if modes.contains(&"count") {
                let page = ask("count", &[("limit", serde_json::json!(5))]);
                assert_eq!(
                    page["verdict"].as_str().unwrap(),
                    last_line(&cli(&["solve", name, path, "--count=5"])),
                    "{path}: count"
                );
            }
            if modes.contains(&"hints") {
                let page = ask("hints", &[]);
                assert_eq!(
                    page["verdict"].as_str().unwrap(),
                    last_line(&cli(&["solve", name, path, "--hints"])),
                    "{path}: hints"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 21, "{checked} files");
}
