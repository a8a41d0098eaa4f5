//! The `puzzle-sat` command: everything lives in the library; this only sets the exit status.

fn main() {
    puzzle_sat::cleanup::install();
    let code = puzzle_sat::cli::main();
    while puzzle_sat::cleanup::ending() {
        std::thread::park();
    }
    std::process::exit(code);
}
