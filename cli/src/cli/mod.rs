//! The command-line interface: one file per subcommand, all returning [`resched::Result`].
//!
//! Exit codes: 0 success, 1 a check that failed (an infeasible schedule), 2 bad input or usage,
//! 3 stopped early by a signal or a time limit, with partial results written (`steal`).
use clap::{Parser, Subcommand};
use resched::Error;

pub mod algorithms;
pub mod args;
pub mod batch;
pub mod demo;
pub mod diff;
pub mod experiment;
pub mod merge;
pub mod opt;
pub mod peer_moldable;
pub mod prove;
pub mod simulate;
pub mod steal;
pub mod verify;

/// Exact resilient scheduling of parallel jobs.
#[derive(Debug, Parser)]
#[command(name = "resched", version = crate::provenance::long_version(), about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a schedule made by any program against an instance and a failure scenario.
    Verify(verify::Args),
    /// Run one scheduling algorithm on an instance and a failure scenario (or GREEDY over the
    /// rigid paper simulator's files) and print the exact makespan, L(f) and ratio.
    Simulate(simulate::Args),
    /// Certify many requests (instance, scenario, algorithm) given as JSON Lines, in parallel.
    Batch(batch::Args),
    /// Run every rigid algorithm on small built-in examples and print a table.
    Demo(demo::Args),
    /// Reproduce a paper's evaluation (rigid-qbar, rigid-procs, rigid-trace, ...).
    Experiment(experiment::Args),
    /// The exact optimum T_OPT(f) of a small instance under a known failure scenario.
    Opt(opt::Args),
    /// Node stealing in a batch scheduler with node failures (Baseline, SFSJ, Hxyz).
    Steal(steal::Args),
    /// The theorem ledger: rebuild a statement's witness and measure it, or print the whole ledger.
    Prove(prove::Args),
    /// List every algorithm of the catalogue: names, aliases, paper and section, parameters.
    Algorithms(algorithms::Args),
    /// Differential testing: another implementation against the oracle on seeded random cases,
    /// the first mismatch shrunk and written as a golden case (or the rigid paper simulator's
    /// printed makespans against GREEDY).
    Diff(diff::Args),
    /// Join the output directories of the shards of one run (`--shard I/N`) into one result.
    Merge(merge::Args),
}

/// What a subcommand reports back to `main`.
pub enum Exit {
    Ok,
    /// The command ran but what it checked does not hold (exit code 1).
    CheckFailed,
    /// Stopped before its end (a signal, a time limit); what it wrote is marked partial
    /// (exit code 3).
    Stopped,
}

/// Parses the arguments, runs the command, prints errors; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return clap_exit(&e),
    };
    let command = command_name(&cli.command);
    // Before any pool exists, so that the environment cannot size one beyond the bound.
    if let Err(e) = args::check_thread_env() {
        crate::errln!("error: {e}");
        return 2;
    }
    let result = match cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Batch(a) => batch::run(a),
        Command::Demo(a) => demo::run(a),
        Command::Experiment(a) => experiment::run(a),
        Command::Opt(a) => opt::run(a),
        Command::Steal(a) => steal::run(a),
        Command::Prove(a) => prove::run(a),
        Command::Algorithms(a) => algorithms::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Merge(a) => merge::run(a),
    };
    // A report still buffered is delivered, or its loss is an error, before the exit code.
    let result = result.and_then(|exit| crate::out::flush_stdout().map(|()| exit));
    match result {
        Ok(Exit::Ok) => 0,
        Ok(Exit::CheckFailed) => 1,
        Ok(Exit::Stopped) => 3,
        Err(Error::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => CLOSED_PIPE,
        Err(e) => {
            crate::errln!("error: {}", to_flags(command, e));
            2
        }
    }
}

/// The exit code when the reader of standard output closed the pipe: 128 + SIGPIPE, what a
/// shell reports for a program the signal ended (see [`mod@crate::out`]).
pub const CLOSED_PIPE: i32 = 141;

/// The exit code of a command line clap refused or answered itself (`--help`, `--version`): 2
/// for a usage error, 0 for help printed, 2 when the help could not be written (a full
/// standard output), [`CLOSED_PIPE`] when its reader went away.
fn clap_exit(e: &clap::Error) -> i32 {
    let code = if e.use_stderr() { 2 } else { 0 };
    let printed = e.print().and_then(|()| {
        use std::io::Write;
        std::io::stdout().flush()
    });
    match printed {
        Ok(()) => code,
        Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => CLOSED_PIPE,
        // The usage error itself could not be shown: its code stands.
        Err(_) if e.use_stderr() => code,
        Err(io) => {
            crate::errln!("error: {}", Error::Stdout(io));
            2
        }
    }
}

/// The name a subcommand is invoked by.
fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Verify(_) => "verify",
        Command::Simulate(_) => "simulate",
        Command::Batch(_) => "batch",
        Command::Demo(_) => "demo",
        Command::Experiment(_) => "experiment",
        Command::Opt(_) => "opt",
        Command::Steal(_) => "steal",
        Command::Prove(_) => "prove",
        Command::Algorithms(_) => "algorithms",
        Command::Diff(_) => "diff",
        Command::Merge(_) => "merge",
    }
}

/// Where a library parameter of a [`FLAGS`] row is written under its flag.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Said {
    /// As the parameter an error is on.
    Named,
    /// Also where a message mentions it in backticks (`` see `max_job_nodes` ``).
    InText,
}
use Said::{InText, Named};

/// A library parameter, the flag that sets it, and where it is written so.
type Row = (&'static str, &'static str, Said);

/// ε and the two ε of BATCH-LIST-PUBLISHED derived from it (`--eps`).
const EPS: [Row; 3] = [
    ("eps", "--eps", InText),
    ("eps1", "--eps", Named),
    ("eps2", "--eps", Named),
];

/// Per subcommand, the library parameters whose flag differs from their name
/// ([`resched::Error::Param`]): `max_job_nodes` is `--max-job-nodes` to `steal`. A parameter
/// not listed keeps its name (`threads`), as the command's own checks name it.
const FLAGS: &[(&str, &[Row])] = &[
    ("simulate", &EPS),
    ("verify", &EPS),
    ("algorithms", &[("priority", "--priority", Named), EPS[0]]),
    (
        "diff",
        &[
            EPS[0],
            EPS[1],
            EPS[2],
            ("template", "cmd", Named),
            ("kind", "jobs-kind", InText),
            ("protocol", "--protocol", InText),
            ("scenarios", "--scenarios", InText),
        ],
    ),
    (
        "experiment",
        &[
            // Named only: a message quoting a manifest field `eps` keeps it.
            ("eps", "--eps", Named),
            EPS[1],
            EPS[2],
            ("traces", "--trace", Named),
            ("min_jobs", "--min-jobs", InText),
            ("max_expected_failures", "--max-expected-failures", InText),
            ("on_excess", "--on-excess", InText),
            ("time_grid", "--time-grid", Named),
            ("out", "--out", InText),
            ("shard", "--shard", Named),
        ],
    ),
    (
        "steal",
        &[
            ("nodes", "--nodes", InText),
            ("procs_per_node", "--procs-per-node", InText),
            ("max_job_nodes", "--max-job-nodes", InText),
            ("downtime", "--downtime", Named),
            ("checkpoint", "--checkpoint", InText),
            ("recovery", "--recovery", InText),
            ("mtbf_ind", "--mtbf", InText),
            ("platform_mtbf", "--mtbf", Named),
            ("max_events", "--max-events", InText),
            ("measure", "--measure", InText),
            ("variants", "--variant", Named),
            ("window", "--window", Named),
            ("spec", "--workload", Named),
            ("synthetic.nodes", "--workload", Named),
            ("synthetic.lambda", "--workload", Named),
            ("synthetic.seed", "--workload", Named),
            ("synthetic.jobs", "--workload", Named),
        ],
    ),
    (
        "merge",
        &[
            ("dirs", "DIR", Named),
            ("out", "--out", Named),
            ("shard", "--shard", InText),
            ("Builds::AllowMixed", "--allow-mixed-builds", InText),
        ],
    ),
    (
        "prove",
        &[
            // The ledger's witnesses read their arguments from `--param k=v`.
            ("params", "--param", Named),
            ("procs", "--param", Named),
            ("k", "--param", Named),
            ("s", "--param", Named),
            ("eps", "--param", Named),
            ("id", "<id>", Named),
            ("shard", "--shard", Named),
            ("dirs", "DIR", Named),
            ("out", "--out", Named),
        ],
    ),
];

/// The rows of `command` in [`FLAGS`].
fn flags_of(command: &str) -> &'static [Row] {
    FLAGS
        .iter()
        .find(|(c, _)| *c == command)
        .map_or(&[], |(_, rows)| rows)
}

/// The flag of `command` that sets library parameter `param`, if it has another name.
pub fn flag(command: &str, param: &str) -> Option<&'static str> {
    flags_of(command)
        .iter()
        .find(|(p, _, _)| *p == param)
        .map(|(_, f, _)| *f)
}

/// `text` with every parameter of `command` a message mentions in backticks (`` `max_events` ``)
/// written as its flag (`--max-events`).
pub fn flags_in(command: &str, text: &str) -> String {
    flags_of(command)
        .iter()
        .filter(|(_, _, said)| *said == InText)
        .fold(text.to_string(), |t, (p, f, _)| {
            t.replace(&format!("`{p}`"), f)
        })
}

/// The one place a library error meets the command line: an [`Error::Param`] becomes an
/// [`Error::Option`] on the flag `command` takes for that parameter (its own name when the
/// flag has the same one), and the parameters messages mention are written as flags. What
/// the library says of `eps` a `simulate` user reads of `--eps`.
pub fn to_flags(command: &str, e: Error) -> Error {
    let text = |m: String| flags_in(command, &m);
    match e {
        Error::Param { name, msg } => Error::Option {
            option: flag(command, &name).map_or(name, str::to_string),
            msg: text(msg),
        },
        Error::Invalid { file, field, msg } => Error::Invalid {
            file,
            field,
            msg: text(msg),
        },
        Error::Line { file, line, msg } => Error::Line {
            file,
            line,
            msg: text(msg),
        },
        Error::Limit(m) => Error::Limit(text(m)),
        Error::Solver(m) => Error::Solver(text(m)),
        e => e,
    }
}
