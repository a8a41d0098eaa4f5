// The page: reads the puzzle and the mode, hands them to the solver's Web Worker, and shows
// what comes back (verdict words, the SVG picture, the texts to download). No solving here:
// the worker runs puzzle-sat's WebAssembly build. Stop ends the worker (a solver call cannot be
// interrupted from this thread without shared memory, which a static host may not allow) and
// starts a fresh one; what was found before is kept, with the verdict it earned.

const $ = (id) => document.getElementById(id);
const buttons = ["solve", "unique", "count", "hints", "next", "dimacs", "check", "generate"];

let worker = null;
let catalogue = [];
let running = null; // { id, request, started, timer, found, conflicts, ifStopped, answers, mode }
let drawing = null; // after Stop: { id, request } of the picture asked of the fresh worker
let nextId = 1;
let loaded = false; // whether the current worker has said "ready"
let answered = null; // the genre the last answer was for (what "auto" found)

function spawn() {
  loaded = false;
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => receive(event.data);
  worker.onerror = (event) => {
    finish();
    showError(`the solver stopped: ${event.message || "unknown error"}`);
    restart();
  };
}

// A fresh worker (after Stop, or a solver that failed); the progress line keeps what it said.
function restart() {
  if (worker) worker.terminate();
  setReady(false);
  spawn();
}

// The mode buttons are live only between runs and once the worker has loaded: a run started
// while a fresh worker loads (after Stop, the genre changed at once) would otherwise lose its
// Stop button when the worker says "ready".
function setReady(ready) {
  ready = ready && loaded && running === null;
  for (const b of buttons) $(b).disabled = !ready || !allowed(b);
  $("stop").disabled = running === null;
}

function genre() {
  const name = $("genre").value;
  return catalogue.find((g) => g.name === name) || null;
}

// Whether the chosen genre has this mode ("auto" lets the solver decide).
function allowed(mode) {
  const g = genre();
  if (mode === "dimacs" || mode === "generate") return true;
  if (!g) return mode !== "generate";
  return g.modes.includes(mode);
}

function receive(msg) {
  if (msg.kind === "ready") {
    loaded = true;
    const first = catalogue.length === 0;
    catalogue = msg.catalogue;
    if (first) {
      for (const g of catalogue) {
        const o = document.createElement("option");
        o.value = g.name;
        o.textContent = g.name;
        $("genre").append(o);
      }
    }
    if (first) $("progress").textContent = "ready";
    setReady(true);
    if (first) fromAddress();
    if (drawing) worker.postMessage(drawing);
    return;
  }
  if (msg.kind === "failed") {
    showError(msg.error);
    $("progress").textContent = "the solver did not load";
    return;
  }
  if (drawing && msg.id === drawing.id && msg.kind === "done") {
    drawing = null;
    if (msg.answer.ok && msg.answer.drawn > 0) $("picture").innerHTML = msg.answer.svg;
    return;
  }
  if (!running || msg.id !== running.id) return;
  if (msg.kind === "report") {
    const r = msg.report;
    if (r.kind === "found") {
      running.best = r.if_stopped.startsWith("best found");
      running.found = r.count;
      running.ifStopped = r.if_stopped;
      if (r.answer) {
        // An improvement replaces the best so far (drawn, once the run has lasted a while);
        // an enumeration's answers are kept, as text.
        if (r.svg) $("picture").innerHTML = r.svg;
        if (running.best) running.answers = [r.answer];
        else running.answers.push(r.answer);
      }
    } else if (r.kind === "stats") {
      running.conflicts = r.stats.conflicts;
      running.variables = r.stats.variables;
      running.clauses = r.stats.clauses;
    } else if (r.kind === "note") {
      running.note = r.note;
    }
    tick();
  } else if (msg.kind === "done") {
    const ms = msg.ms;
    finish();
    show(msg.answer, ms);
    if (!msg.answer.ok && msg.answer.error.startsWith("internal error")) restart();
  }
}

function seconds(ms) {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

function tick() {
  if (!running) return;
  const parts = [`${running.mode}: ${seconds(performance.now() - running.started)}`];
  if (running.variables) parts.push(`${running.variables.toLocaleString("en")} variables, ${running.clauses.toLocaleString("en")} clauses`);
  if (running.conflicts != null) parts.push(`${running.conflicts.toLocaleString("en")} conflicts`);
  if (running.found) parts.push(`${running.found} found`);
  if (running.note) parts.push(running.note);
  $("progress").textContent = parts.join(" · ");
}

function finish() {
  if (running) clearInterval(running.timer);
  running = null;
  setReady(true);
}

function clearOutput() {
  $("error").hidden = true;
  $("error").textContent = "";
  $("verdict").textContent = "";
  $("picture").innerHTML = "";
  $("answer-text").textContent = "";
  $("downloads").hidden = true;
  $("download-dimacs").hidden = true;
  $("share").hidden = true;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
}

function start(mode, extra = {}) {
  if (running) return;
  const request = { mode, puzzle: $("genre").value, text: $("puzzle").value, ...extra };
  clearOutput();
  delete $("progress").dataset.ms;
  drawing = null;
  const id = nextId++;
  running = { id, request, mode, started: performance.now(), found: 0, conflicts: null, answers: [] };
  running.timer = setInterval(tick, 100);
  setReady(false);
  $("stop").disabled = false;
  tick();
  worker.postMessage({ id, request });
}

function stop() {
  if (!running) return;
  const { ifStopped, answers, mode, started, request } = running;
  const ms = performance.now() - started;
  worker.terminate();
  finish();
  $("verdict").textContent = ifStopped || "stopped: nothing found";
  // A picture drawn while the search went on said so: it goes, and the fresh worker draws
  // what was found (re-checked by the validator) under the verdict it earned.
  $("picture").innerHTML = "";
  showAnswers(answers, null);
  $("progress").textContent = `${mode}: stopped after ${seconds(ms)}`;
  if (answers.length > 0) {
    drawing = { id: nextId++, request: { ...request, mode: "draw", answers: answers.map((a) => a.machine), caption: ifStopped } };
  }
  restart();
}

function download(link, text, type) {
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type }));
}

// The answers as text, and the download of their machine form (`line` or `rects`).
function showAnswers(answers, format) {
  if (!answers || answers.length === 0) return;
  $("answer-text").textContent = answers.map((a) => a.text).join("\n");
  const machine = answers.map((a) => a.machine).join("\n");
  const g = genre();
  format = format || (g && g.machine) || "answer";
  $("download-answer").download = `answer.${format}.txt`;
  $("download-answer").textContent = `answer (${format})`;
  $("download-answer").hidden = false;
  download($("download-answer"), machine, "text/plain");
  $("downloads").hidden = false;
}

function show(answer, ms) {
  if (answer.puzzle) answered = answer.puzzle;
  if (!answer.ok) {
    $("progress").textContent = `failed after ${seconds(ms)}`;
    showError(answer.error);
    return;
  }
  $("progress").textContent = `${answer.mode}: done in ${seconds(ms)}`;
  // The run's time in the worker, exactly (the benchmark reads it).
  $("progress").dataset.ms = ms;
  $("verdict").textContent = answer.verdict || "";
  if (answer.svg) {
    $("picture").innerHTML = answer.svg;
    download($("download-svg"), answer.svg, "image/svg+xml");
    $("downloads").hidden = false;
  }
  $("download-answer").hidden = true;
  if (answer.step !== undefined) {
    // A hint, not the solution: the board as the step leaves it, and why.
    const step = answer.step ? `${answer.step.drawn}${answer.verdict}\n` : `${answer.verdict}\n`;
    $("answer-text").textContent = step;
    $("download-answer").download = "step.txt";
    $("download-answer").textContent = "step (text)";
    $("download-answer").hidden = false;
    download($("download-answer"), step, "text/plain");
  } else if (answer.hints) {
    // What every solution shares, not one of them: the download is the hints, as the CLI's
    // `--hints` prints them.
    const hints = `${answer.hints.drawn}${answer.verdict}\n`;
    $("answer-text").textContent = hints;
    $("download-answer").download = "hints.txt";
    $("download-answer").textContent = "hints (text)";
    $("download-answer").hidden = false;
    download($("download-answer"), hints, "text/plain");
  } else {
    showAnswers(answer.answers, answer.machine);
  }
  if (answer.dimacs != null) {
    download($("download-dimacs"), answer.dimacs, "text/plain");
    $("download-dimacs").hidden = false;
    $("downloads").hidden = false;
    const lines = answer.dimacs.split("\n");
    $("answer-text").textContent = lines.slice(0, 30).join("\n") + (lines.length > 31 ? "\n…" : "");
  }
  if (answer.mode === "generate" && answer.text) {
    // The new puzzle becomes the one on the page.
    $("puzzle").value = answer.url || answer.text;
  }
  if (answer.url) {
    const link = new URL(location.href);
    link.search = "";
    link.searchParams.set("p", answer.url);
    // The genre the run had: a sudoku URL alone opens as a plain sudoku.
    link.searchParams.set("genre", answer.puzzle);
    $("share").href = link.href;
    $("share").hidden = false;
    $("puzzle-url").textContent = answer.url;
    $("downloads").hidden = false;
  }
}

// `?p=URL` (and `&genre=NAME`): solve on load with the genre's strongest claim.
function fromAddress() {
  const params = new URLSearchParams(location.search);
  const g = params.get("genre");
  if (g && catalogue.some((c) => c.name === g)) $("genre").value = g;
  setReady(true);
  const p = params.get("p");
  if (p) {
    $("puzzle").value = p;
    start("prove");
  }
}

function loadExample() {
  const g = genre() || makers()[0] || catalogue[0];
  // The examples come with the genre list, from the worker: none before it has loaded.
  if (!g) return;
  $("puzzle").value = g.example;
  if ($("genre").value === "auto") $("genre").value = g.name;
  setReady(running === null);
}

for (const mode of ["solve", "unique", "hints", "next", "dimacs"]) $(mode).onclick = () => start(mode);
// Numbers go as the boxes' text: the solver reads them exactly (a seed past 2^53 included).
$("count").onclick = () => start("count", { limit: $("limit").value.trim() });
$("check").onclick = () => start("check", { answer: $("answer").value });
// The genres with a generator, in the list's order.
function makers() {
  return catalogue.filter((c) => c.modes.includes("generate"));
}
$("generate").onclick = () => {
  // The chosen genre if it has a generator; under "auto", the genre of the puzzle last
  // answered; else the first that has one.
  const chosen = $("genre").value === "auto" ? answered : $("genre").value;
  const g = makers().find((c) => c.name === chosen) || makers()[0];
  if (!g) return;
  $("genre").value = g.name;
  start("generate", {
    puzzle: g.name,
    rows: $("rows").value.trim(),
    cols: $("cols").value.trim(),
    seed: $("seed").value.trim(),
    unique: $("gen-unique").checked,
  });
};
$("stop").onclick = stop;
$("example").onclick = loadExample;
$("genre").onchange = () => setReady(running === null);
spawn();
