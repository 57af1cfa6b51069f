//! `resched batch`: many certify requests as JSON Lines (the oracle's
//! [`batch`] module does the work; this file reads the options, opens the
//! input and maps the summary to the exit code).
//!
//! Exit codes: 0 when every request succeeded, 1 when at least one line is an error line (all
//! other lines are still answered), 2 when the run itself fails (unreadable input, a bad option,
//! an output error).
use super::Exit;
use crate::batch::{self, Options};
use resched::error::{Error, Result};
use std::io::BufReader;
use std::path::PathBuf;

/// Arguments of `resched batch`.
#[derive(Debug, clap::Args)]
#[command(after_help = "One request per line, e.g.\n  \
{\"id\": 1, \"instance_file\": \"inst.json\", \"scenario\": {\"failures\": [0, 1]}, \"algo\": \"easy\"}\n\
Fields: instance | instance_file, scenario | scenario_file, algo, priority (default lpt), seed \
(default 0), eps (batch-list only), id (echoed), format_version (optional, 1). One output line \
per request, in input order; an error line {\"line\": N, \"id\": .., \"error\": \"..\"} for a bad \
one; every line ends with \"format_version\": 1 and \"resched\": {version, commit, dirty}, the \
build that answered.\n\
Exit code: 0 every line succeeded, 1 some line is an error line, 2 the run failed.")]
pub struct Args {
    /// Requests, one JSON object per line (default: standard input). Relative `instance_file`
    /// and `scenario_file` paths are resolved from the current directory.
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Worker threads, at least 1 (default: one per core). The output does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Add each request's whole schedule to its output line.
    #[arg(long)]
    pub schedules: bool,
}

/// Runs the command.
pub fn run(a: Args) -> Result<Exit> {
    let pool = super::args::thread_pool(a.threads)?;
    let opts = Options {
        schedules: a.schedules,
    };
    let out = std::io::BufWriter::new(std::io::stdout());
    let summary = match &a.input {
        Some(path) => {
            let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
            batch::run(BufReader::new(f), out, &opts, &pool)?
        }
        None => batch::run(std::io::stdin().lock(), out, &opts, &pool)?,
    };
    Ok(if summary.errors == 0 {
        Exit::Ok
    } else {
        Exit::CheckFailed
    })
}
