// In-browser times against the native CLI on the same inputs (docs/web.md's table):
//   node web/bench/bench.mjs [RUNS]       (after `bash web/build.sh` and `cargo build --release`)
// The page's time is the worker's, from the request to the answer (parse, encode, search, SVG);
// the CLI's is its JSON `seconds` (parse to answer, in process, no picture); "the binding,
// natively" is the page's work (the same request, pictures and JSON included) run natively by
// web/examples/time.rs, which tells WebAssembly's cost from the page's extra work. All are one
// thread's wall time: run it on an idle machine. Also the .wasm's size (gzip) and first paint.
import { spawn, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

const root = new URL("../../", import.meta.url).pathname;
const binary = process.env.PUZZLE_SAT_BIN || `${root}target/release/puzzle-sat`;
execFileSync("cargo", ["build", "--release", "-q", "-p", "puzzle-sat-web", "--example", "time"], { cwd: root, stdio: "inherit" });
const timer = `${root}target/release/examples/time`;
const runs = Number(process.argv[2] || 5);
const cases = [
  ["target sudoku, the example", "target-sudoku", "docs/examples/target-sudoku.txt", "solve"],
  ["Tatamibari, the example, unique", "tatamibari", "docs/examples/tatamibari.txt", "unique"],
  ["Kakkuro, the example", "kakkuro", "docs/examples/kakkuro.txt", "solve"],
  ["Tatamibari 100×100 (generated), unique", "tatamibari", "benches/data/tatamibari-100x100-unique.txt", "unique"],
  ["Kakkuro 10×10 (benches/data, dense d22 seed 1)", "kakkuro", "benches/data/kakkuro-dense/10x10-d22-seed1.txt", "solve"],
  ["Kakkuro 10×10 (benches/data, painting d0.2)", "kakkuro", "benches/data/hard/kakkuro-painting-10x10-d0.2-s1.txt", "solve"],
];

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)] };
};
const fmt = (ms) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);

const server = spawn(binary, ["serve", "--port", "0", "--dir", `${root}web/dist`], { stdio: ["ignore", "ignore", "pipe"] });
const base = await new Promise((resolve) => {
  let said = "";
  server.stderr.on("data", (d) => {
    said += d;
    const m = said.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) resolve(m[0]);
  });
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// First paint and the solver's load, each in a fresh page.
const paint = [], loaded = [];
for (let i = 0; i < runs; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(base);
  await page.waitForSelector("#solve:not([disabled])");
  paint.push(await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN));
  loaded.push(await page.evaluate(() => performance.now()));
  await ctx.close();
}

const page = await browser.newPage();
await page.goto(base);
await page.waitForSelector("#solve:not([disabled])");
const rows = [];
for (const [what, genre, file, mode] of cases) {
  const text = readFileSync(`${root}${file}`, "utf8");
  const inPage = [], native = [], binding = [];
  for (let i = 0; i < runs; i++) {
    await page.selectOption("#genre", genre);
    await page.fill("#puzzle", text);
    await page.click(`#${mode}`);
    await page.waitForSelector("#solve:not([disabled])", { timeout: 600000 });
    const ms = await page.evaluate(() => Number(document.querySelector("#progress").dataset.ms));
    const verdict = await page.textContent("#verdict");
    if (!/^(unique|optimal \(proved\))$/.test(verdict)) throw new Error(`${what}: the page said ${JSON.stringify(verdict)}`);
    inPage.push(ms);
    const args = ["solve", genre, `${root}${file}`, "--format", "json", ...(mode === "unique" ? ["--unique"] : [])];
    native.push(1000 * JSON.parse(execFileSync(binary, args, { encoding: "utf8" })).seconds);
    binding.push(Number(execFileSync(timer, [genre, `${root}${file}`, mode], { encoding: "utf8" })));
  }
  const p = stats(inPage), n = stats(native), b = stats(binding);
  rows.push(`| ${what} | ${fmt(p.min)} / ${fmt(p.median)} | ${fmt(n.min)} / ${fmt(n.median)} | ${(p.median / n.median).toFixed(2)}× | ${fmt(b.min)} / ${fmt(b.median)} | ${(p.median / b.median).toFixed(2)}× |`);
}
await browser.close();
server.kill();

const wasm = readFileSync(`${root}web/dist/puzzle_sat_web_bg.wasm`);
console.log(`runs: ${runs} each; min / median\n`);
console.log("| input | in the page (Chromium, wasm) | native CLI (varisat) | page ÷ CLI | the binding, natively | page ÷ binding |\n|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(`\n.wasm: ${(wasm.length / 1048576).toFixed(2)} MiB, ${(gzipSync(wasm, { level: 9 }).length / 1048576).toFixed(2)} MiB gzip`);
const p = stats(paint), l = stats(loaded);
console.log(`first contentful paint: ${fmt(p.min)} / ${fmt(p.median)}; solver loaded (buttons enabled): ${fmt(l.min)} / ${fmt(l.median)}`);
