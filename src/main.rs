//! The `resched` command-line program: see `resched --help`.
fn main() {
    std::process::exit(resched::cli::main());
}
