// The page's solver thread: loads the WebAssembly build of puzzle-sat once, then runs one
// request at a time. Each report (an answer found, the solver's counters) is posted while the
// run goes on, so the page stays live and keeps the last answer if Stop ends this worker.
import init, { catalogue, run } from "./puzzle_sat_web.js";

const ready = init().then(() => {
  postMessage({ kind: "ready", catalogue: JSON.parse(catalogue()) });
}).catch((e) => {
  postMessage({ kind: "failed", error: `the solver did not load: ${e}` });
});

onmessage = async (event) => {
  await ready;
  const { id, request } = event.data;
  const started = performance.now();
  let answer;
  try {
    answer = JSON.parse(run(JSON.stringify(request), (report) => {
      postMessage({ id, kind: "report", report: JSON.parse(report), ms: performance.now() - started });
    }));
  } catch (e) {
    // A panic in the solver: never shown as an answer.
    answer = { ok: false, error: `internal error: ${e}` };
  }
  postMessage({ id, kind: "done", answer, ms: performance.now() - started });
};
