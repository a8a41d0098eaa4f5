//! The `puzzle-sat` command: everything lives in the library; this only sets the exit status.

fn main() {
    std::process::exit(puzzle_sat::cli::main());
}
