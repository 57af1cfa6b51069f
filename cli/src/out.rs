//! Writing the program's reports to standard output without a panic.
//!
//! `println!` panics when standard output cannot be written (a full device, a closed pipe
//! whose SIGPIPE is blocked), and a report that never reached its reader must not end in exit
//! 0. [`outln!`](crate::outln) and [`out!`](macro@crate::out) take the arguments of `println!` and
//! `print!` and evaluate to a [`resched::Result<()>`]: an I/O error becomes
//! [`resched::Error::Stdout`] (exit 2, "cannot write to standard output: …"), which the command
//! returns with `?`. A closed pipe (`EPIPE`) is the reader's choice, not a failure of the
//! program: [`crate::cli::main`] ends quietly with exit code 141 (128 + SIGPIPE, what a shell
//! reports for a program killed by SIGPIPE), neither 0 (the report was not delivered) nor a
//! message. Messages to standard error go through [`errln!`](crate::errln), which never
//! panics: when standard error itself is broken there is nowhere left to tell.
use std::io::Write;

/// Writes `args` to standard output; a line-buffered write reports its error at the line's
/// end, and text without a final newline is flushed at once so that its error is not lost at
/// exit.
pub fn write_stdout(args: std::fmt::Arguments<'_>, flush: bool) -> resched::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| if flush { out.flush() } else { Ok(()) })
        .map_err(resched::Error::Stdout)
}

/// Flushes standard output at the end of a command, so that a buffered tail's error is seen.
pub fn flush_stdout() -> resched::Result<()> {
    std::io::stdout().flush().map_err(resched::Error::Stdout)
}

/// Writes `args` to standard error, ignoring a failure (there is no other
/// channel to report it on).
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

/// `println!` that evaluates to `resched::Result<()>` instead of panicking (see the module).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write_stdout(::std::format_args!("\n"), false)
    };
    ($($arg:tt)*) => {
        $crate::out::write_stdout(
            ::std::format_args!("{}\n", ::std::format_args!($($arg)*)),
            false,
        )
    };
}

/// `print!` that evaluates to `resched::Result<()>` instead of panicking (see the module).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_stdout(::std::format_args!($($arg)*), true)
    };
}

/// `eprint!` that never panics: a broken standard error is ignored.
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::out::write_stderr(::std::format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics: a broken standard error is ignored.
#[macro_export]
macro_rules! errln {
    () => {
        $crate::out::write_stderr(::std::format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_stderr(::std::format_args!("{}\n", ::std::format_args!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_macros_take_println_arguments() {
        let x = 3;
        assert!(crate::outln!().is_ok());
        assert!(crate::outln!("a {x} {}", 4).is_ok());
        assert!(crate::out!("b {x:>3}\n").is_ok());
        crate::errln!("c {}", x);
        crate::err!("d {x}\n");
    }
}
