//! The web page, built and used in a real browser: `web/build.sh` compiles the solver to
//! WebAssembly (installing the wasm32 target and wasm-bindgen-cli when missing), then
//! web/tests/page.test.mjs drives Debian's headless Chromium through Playwright against the
//! page as `puzzle-sat serve` serves it. Needs Node.js and Chromium (`.ci/run` installs them);
//! Playwright comes from npm (`npm ci --prefix web`, run here when missing).

use std::path::Path;
use std::process::Command;

fn run(what: &str, cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e} (.ci/run installs what the page's tests need)"));
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // The browser tests' own report, shown in the test's output.
    println!("{what}:\n{said}");
    assert!(out.status.success(), "{what} failed ({}):\n{said}", out.status);
}

#[test]
fn the_page_solves_in_headless_chromium() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    run("web/build.sh", Command::new("bash").arg(root.join("web/build.sh")));
    if !root.join("web/node_modules/playwright-core").is_dir() {
        run("npm ci", Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--prefix"]).arg(root.join("web")));
    }
    run(
        "node --test web/tests",
        Command::new("node").arg("--test").arg("--test-concurrency=1").arg(root.join("web/tests/page.test.mjs")).env("PUZZLE_SAT_BIN", env!("CARGO_BIN_EXE_puzzle-sat")).current_dir(root),
    );
}
