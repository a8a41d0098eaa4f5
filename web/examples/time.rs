//! The page's work, natively: one request through the same binding, timed in process, for the
//! benchmark (web/bench/bench.mjs) to tell WebAssembly's cost from the page's extra work
//! (pictures, JSON). `cargo run --release -p puzzle-sat-web --example time -- PUZZLE FILE MODE`
//! prints the milliseconds.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, puzzle, file, mode] = &args[..] else {
        eprintln!("usage: time PUZZLE FILE MODE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let request = serde_json::json!({ "puzzle": puzzle, "text": text, "mode": mode });
    let started = std::time::Instant::now();
    let answer = puzzle_sat_web::run(&request, &mut |r| drop(r.to_string())).to_string();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    assert!(
        answer.contains("\"ok\":true"),
        "{}",
        &answer[..answer.len().min(500)]
    );
    println!("{ms:.3}");
}
