//! The `resched` command-line program: see `resched --help`.
fn main() {
    reset_sigpipe();
    std::process::exit(resched_cli::cli::main());
}

/// Restores the default SIGPIPE action, so that `resched … | head` ends quietly when the reader
/// closes the pipe, as command-line tools do, instead of panicking in `println!` (Rust ignores
/// SIGPIPE by default and turns it into an I/O error).
#[cfg(unix)]
fn reset_sigpipe() {
    // SAFETY: called once at start-up before any thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn reset_sigpipe() {}
