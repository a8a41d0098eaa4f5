// The web page in a real browser: Debian's headless Chromium, driven by Playwright, loads the
// built page (web/dist) from `puzzle-sat serve` and uses it as a person would: paste, press,
// read the verdict and the drawn SVG. Run by tests/web.rs (`cargo test`), which builds the page
// first; PUZZLE_SAT_BIN names the binary that serves it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, mkdirSync, copyFileSync } from "node:fs";
import { chromium } from "playwright-core";

const root = new URL("../../", import.meta.url).pathname;
const binary = process.env.PUZZLE_SAT_BIN || `${root}target/release/puzzle-sat`;
const example = (name) => readFileSync(`${root}docs/examples/${name}.txt`, "utf8");
const TATAMIBARI_URL = "https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3g";

let server, base, browser;

before(async () => {
  server = spawn(binary, ["serve", "--port", "0", "--dir", `${root}web/dist`], { stdio: ["ignore", "ignore", "pipe"] });
  base = await new Promise((resolve, reject) => {
    let said = "";
    server.stderr.on("data", (d) => {
      said += d;
      const m = said.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) resolve(m[0]);
    });
    server.on("exit", (code) => reject(new Error(`serve exited ${code}: ${said}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

// A page with the solver loaded (its buttons enabled).
async function open(query = "") {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base + query);
  await page.waitForSelector("#solve:not([disabled])", { timeout: 30000 });
  page.errors = errors;
  return page;
}

// Presses `button` and waits until the run is over (the buttons are enabled again).
async function press(page, button) {
  await page.click(`#${button}`);
  await page.waitForSelector("#solve:not([disabled])", { timeout: 120000 });
}

const verdict = (page) => page.textContent("#verdict");
const error = (page) => page.evaluate(() => (document.querySelector("#error").hidden ? "" : document.querySelector("#error").textContent));
// The inline SVG's text elements (digits, captions) and its shapes.
const svgTexts = (page) => page.$$eval("#picture svg text", (ts) => ts.map((t) => t.textContent));
const svgCount = (page, selector) => page.$$eval(`#picture svg ${selector}`, (xs) => xs.length);

test("a Tatamibari URL: solved, drawn, and proved unique", async () => {
  const page = await open();
  await page.fill("#puzzle", TATAMIBARI_URL);
  await press(page, "solve");
  assert.equal(await error(page), "");
  assert.equal(await verdict(page), "solved");
  assert.ok((await svgCount(page, "rect")) > 5, "rectangles drawn");
  const answer = await page.textContent("#answer-text");
  assert.equal(answer.trim().split("\n").length, 5, answer);
  await press(page, "unique");
  assert.equal(await verdict(page), "unique");
  assert.equal(await page.textContent("#puzzle-url"), TATAMIBARI_URL);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("target sudoku: the optimum 2852, proved, its digits drawn", async () => {
  const page = await open();
  await page.selectOption("#genre", "target-sudoku");
  await page.fill("#puzzle", example("target-sudoku"));
  await press(page, "solve");
  assert.equal(await error(page), "");
  assert.equal(await verdict(page), "optimal (proved)");
  const answer = await page.textContent("#answer-text");
  assert.match(answer, /2852/);
  const digits = (await svgTexts(page)).filter((t) => /^[1-9]$/.test(t));
  assert.equal(digits.length, 81, "every cell's digit drawn");
  await page.close();
});

test("a share link keeps the genre: target sudoku from its header line", async () => {
  const page = await open();
  await page.fill("#puzzle", `puzzle-sat: target-sudoku\n${example("target-sudoku")}`);
  await press(page, "solve");
  assert.equal(await verdict(page), "optimal (proved)");
  const link = await page.getAttribute("#share", "href");
  assert.match(link, /[?&]genre=target-sudoku/);
  // Opened, it proves the same optimum (a sudoku URL alone would be a plain sudoku).
  const again = await browser.newPage();
  await again.goto(link);
  await again.waitForFunction(() => document.querySelector("#verdict").textContent !== "", null, { timeout: 30000 });
  assert.equal(await again.textContent("#verdict"), "optimal (proved)");
  assert.match(await again.textContent("#answer-text"), /2852/);
  await again.close();
  await page.close();
});

test("Kakkuro: the optimum proved, with its exact score", async () => {
  const page = await open();
  await page.selectOption("#genre", "kakkuro");
  await page.fill("#puzzle", example("kakkuro"));
  await press(page, "solve");
  assert.equal(await error(page), "");
  assert.equal(await verdict(page), "optimal (proved)");
  // The CLI's answer for the same file: the page must print the same score.
  const cli = await new Promise((resolve) => {
    const p = spawn(binary, ["solve", "kakkuro", `${root}docs/examples/kakkuro.txt`, "--format", "json"]);
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.on("exit", () => resolve(JSON.parse(out)));
  });
  const shown = await page.evaluate(() => document.querySelector("#answer-text").textContent);
  assert.ok(shown.includes(String(cli.score)), `page shows ${shown}, CLI scores ${cli.score}`);
  assert.ok((await svgTexts(page)).length > 10);
  await page.close();
});

test("not unique: both solutions side by side, and the count", async () => {
  const page = await open();
  await page.selectOption("#genre", "tatamibari");
  // A board with two tilings (found by the CLI's --count).
  await page.fill("#puzzle", "+.-.\n...-\n");
  await press(page, "unique");
  assert.equal(await verdict(page), "not unique: two different solutions");
  assert.equal((await page.textContent("#answer-text")).trim().split("\n").length, 5, "two answers of two rows, a blank between");
  await page.fill("#limit", "100");
  await press(page, "count");
  assert.match(await verdict(page), /^\d+ solutions?$/);
  await page.close();
});

test("hints: the decided part drawn, and the counts said", async () => {
  const page = await open();
  await page.selectOption("#genre", "sudoku");
  await page.fill("#puzzle", example("sudoku"));
  await press(page, "hints");
  assert.equal(await error(page), "");
  assert.match(await verdict(page), /^hints: 81 of 81 cells are the same in every solution$/);
  // The download is the hints, not one solution.
  assert.equal(await page.getAttribute("#download-answer", "download"), "hints.txt");
  await page.close();
});

test("next step: the rules and what they force, drawn, without the solution", async () => {
  const page = await open();
  await page.selectOption("#genre", "hitori");
  await page.fill("#puzzle", example("hitori"));
  await press(page, "next");
  assert.equal(await error(page), "");
  assert.match(await verdict(page), /^next step: .+ — so .+ \(the solution is unique\)$/);
  assert.equal(await page.getAttribute("#download-answer", "download"), "step.txt");
  // The board as the step leaves it: undecided cells still `?`.
  assert.match(await page.textContent("#answer-text"), /\?/);
  assert.equal(await page.locator("#picture svg g.deduced rect").count() > 0, true);
  // Genres without explanations (the scoring ones) have no Next step; the loop genres have.
  await page.selectOption("#genre", "target-sudoku");
  assert.equal(await page.isDisabled("#next"), true);
  await page.selectOption("#genre", "slitherlink");
  assert.equal(await page.isDisabled("#next"), false);
  await page.close();
});

test("a bad URL: a clear message naming the column, and the tab still works", async () => {
  const page = await open();
  await page.fill("#puzzle", "https://puzz.link/p?tatamibari/5/5/m3g11i2g31h13g3!");
  await press(page, "solve");
  const said = await error(page);
  assert.match(said, /^https:\/\/puzz\.link\/p\?tatamibari\/5\/5\/m3g11i2g31h13g3!:1:\d+: /, said);
  assert.equal(await verdict(page), "");
  await page.fill("#puzzle", "https://puzz.link/p?yajilin/5/5/abc");
  await press(page, "solve");
  assert.match(await error(page), /reads no "yajilin" puzzles/);
  await page.fill("#puzzle", TATAMIBARI_URL);
  await press(page, "solve");
  assert.equal(await verdict(page), "solved");
  assert.ok(await page.isVisible("#downloads"));
  // A failed run leaves nothing of the last one to download or look at.
  await page.fill("#puzzle", "https://puzz.link/p?tatamibari/5/0/g");
  await press(page, "solve");
  assert.notEqual(await error(page), "");
  assert.equal(await page.isVisible("#downloads"), false);
  assert.equal(await page.innerHTML("#picture"), "");
  await page.close();
});

test("a board whose picture is too large for the page: the verdict, and a note for a picture", async () => {
  const page = await open();
  await page.selectOption("#genre", "tatamibari");
  // One row of five million blanks: no clue, no solution; its picture would be 554 MB, past
  // what a JavaScript string holds (the answer was lost: "internal error: SyntaxError").
  await page.evaluate(() => { document.querySelector("#puzzle").value = ".".repeat(5 << 20); });
  await press(page, "solve");
  assert.equal(await error(page), "");
  assert.equal(await verdict(page), "no solution");
  assert.match((await svgTexts(page)).join(" "), /too large to show in the page/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a bad text: the line and column, and no answer", async () => {
  const page = await open();
  await page.selectOption("#genre", "kakkuro");
  await page.fill("#puzzle", "3 3\nxx\n");
  await press(page, "solve");
  assert.match(await error(page), /^puzzle:\d+:\d+: /);
  assert.equal(await page.innerHTML("#picture"), "");
  await page.close();
});

test("Stop during a long count: the page says what was found, and solves again", async () => {
  const page = await open();
  await page.selectOption("#genre", "sudoku");
  // An empty grid has billions of solutions: the count runs until stopped.
  await page.fill("#puzzle", ".........\n".repeat(9));
  await page.fill("#limit", "100000000");
  await page.click("#count");
  await page.waitForFunction(() => /\d+ found/.test(document.querySelector("#progress").textContent), null, { timeout: 30000 });
  await page.waitForTimeout(500);
  await page.click("#stop");
  assert.match(await verdict(page), /^at least \d+ solutions? \(stopped\)$/);
  assert.match(await page.textContent("#progress"), /stopped after/);
  await page.waitForSelector("#solve:not([disabled])", { timeout: 30000 });
  // The first solution, drawn by the fresh worker after the validator re-checked it.
  await page.waitForFunction(() => document.querySelectorAll("#picture svg text").length >= 81, null, { timeout: 30000 });
  assert.equal((await svgTexts(page)).filter((t) => /^[1-9]$/.test(t)).length, 81);
  await page.fill("#puzzle", TATAMIBARI_URL);
  await page.selectOption("#genre", "auto");
  await press(page, "solve");
  assert.equal(await verdict(page), "solved");
  await page.close();
});

test("Stop during a long optimisation: the best found, drawn, never called optimal", async () => {
  const page = await open();
  await page.selectOption("#genre", "kakkuro");
  // A board that must paint: about 10 s in the page (benches/data/hard).
  await page.fill("#puzzle", readFileSync(`${root}benches/data/hard/kakkuro-painting-10x10-d0.2-s1.txt`, "utf8"));
  await page.click("#solve");
  await page.waitForFunction(() => /\d+ found/.test(document.querySelector("#progress").textContent), null, { timeout: 60000 });
  await page.waitForTimeout(300);
  await page.click("#stop");
  assert.equal(await verdict(page), "best found (stopped: not proved optimal)");
  assert.match(await page.textContent("#answer-text"), /score \d+/);
  // The picture: the report's own, or drawn by the fresh worker from the answer's line.
  await page.waitForFunction(() => /score \d+/.test(Array.from(document.querySelectorAll("#picture svg text")).map((t) => t.textContent).join(" ")), null, { timeout: 30000 });
  assert.ok((await svgTexts(page)).some((t) => t.includes("stopped")), "the caption says stopped");
  await page.close();
});

test("Stop, then a new run at once, while the fresh worker loads: it keeps its Stop button", async () => {
  const page = await open();
  await page.selectOption("#genre", "kakkuro");
  await page.fill("#puzzle", readFileSync(`${root}benches/data/hard/kakkuro-painting-12x12-d0.2-s1.txt`, "utf8"));
  await page.click("#solve");
  await page.waitForTimeout(300);
  // In one task, before the fresh worker can load: Stop, the genre chosen again (which
  // enabled the buttons), Solve. When the worker then said "ready", the page enabled every
  // button and disabled Stop while this run went on: it could not be stopped.
  const solveEnabled = await page.evaluate(() => {
    document.querySelector("#stop").click();
    document.querySelector("#genre").dispatchEvent(new Event("change"));
    const enabled = !document.querySelector("#solve").disabled;
    document.querySelector("#solve").click();
    return enabled;
  });
  assert.equal(solveEnabled, false, "no run starts before the fresh worker has loaded");
  await page.waitForSelector("#solve:not([disabled])", { timeout: 30000 });
  await page.click("#solve");
  await page.waitForFunction(() => /\d+ conflicts/.test(document.querySelector("#progress").textContent), null, { timeout: 60000 });
  assert.equal(await page.isDisabled("#stop"), false, "Stop is live while the run goes on");
  assert.equal(await page.isDisabled("#solve"), true);
  await page.click("#stop");
  assert.match(await page.textContent("#progress"), /stopped after/);
  await page.waitForSelector("#solve:not([disabled])", { timeout: 30000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("before the solver has loaded: Example does nothing, no mode can start, no error", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // The WebAssembly held back, as a slow network would: the page is up, its solver not yet.
  await page.route("**/*.wasm", async (route) => {
    await new Promise((r) => setTimeout(r, 3000));
    await route.continue();
  });
  await page.goto(base);
  await page.click("#example");
  // Choosing a genre enabled the buttons, for a worker that could not yet run anything.
  await page.selectOption("#genre", "auto");
  assert.equal(await page.isDisabled("#solve"), true);
  await page.waitForSelector("#solve:not([disabled])", { timeout: 30000 });
  assert.deepEqual(errors, [], "Example threw before the genre list came");
  await page.click("#example");
  assert.notEqual(await page.inputValue("#puzzle"), "");
  await page.close();
});

test("?p= solves on load and proves uniqueness; a generated puzzle comes with its URL", async () => {
  const page = await open(`?p=${encodeURIComponent(TATAMIBARI_URL)}`);
  await page.waitForFunction(() => document.querySelector("#verdict").textContent !== "", null, { timeout: 30000 });
  assert.equal(await verdict(page), "unique");
  await page.click("#generate-panel summary");
  await page.fill("#rows", "8");
  await page.fill("#cols", "9");
  await page.fill("#seed", "3");
  await press(page, "generate");
  assert.equal(await error(page), "");
  assert.equal(await verdict(page), "tatamibari 8×9, seed 3, unique");
  const url = await page.textContent("#puzzle-url");
  assert.match(url, /^https:\/\/puzz\.link\/p\?tatamibari\/9\/8\//);
  // The CLI generates the same puzzle from the same seed.
  const cli = await new Promise((resolve) => {
    const p = spawn(binary, ["generate", "tatamibari", "--size", "8x9", "--seed", "3", "--unique", "--format", "url"]);
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.on("exit", () => resolve(out.trim()));
  });
  assert.equal(url, cli);
  await page.close();
});

test("check: a valid answer, a broken one, and the screenshot", async () => {
  const page = await open();
  await page.selectOption("#genre", "tatamibari");
  await page.fill("#puzzle", example("tatamibari"));
  await press(page, "solve");
  const answer = await page.textContent("#answer-text");
  await page.click("#check-panel summary");
  await page.fill("#answer", answer);
  await press(page, "check");
  assert.match(await verdict(page), /^valid/);
  const broken = answer.replace(/[A-Z]/, (c) => (c === "A" ? "B" : "A"));
  await page.fill("#answer", broken);
  await press(page, "check");
  assert.match(await verdict(page), /^invalid: /);
  // The picture for the README: the example solved and proved unique.
  await press(page, "unique");
  assert.equal(await verdict(page), "unique");
  mkdirSync(`${root}target/web`, { recursive: true });
  await page.screenshot({ path: `${root}target/web/screenshot.png`, fullPage: true });
  if (process.env.UPDATE_SCREENSHOT) copyFileSync(`${root}target/web/screenshot.png`, `${root}docs/web.png`);
  await page.close();
});
