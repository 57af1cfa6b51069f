//! The command-line interface: one file per subcommand, all returning [`crate::Result`].
//!
//! Exit codes: 0 success, 1 a check that failed (an infeasible schedule), 2 bad input or usage,
//! 3 stopped early by a signal or a time limit, with partial results written (`steal`).
use clap::{Parser, Subcommand};

pub mod algorithms;
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
#[command(name = "resched", version, about, long_about = None)]
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
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
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
    match result {
        Ok(Exit::Ok) => 0,
        Ok(Exit::CheckFailed) => 1,
        Ok(Exit::Stopped) => 3,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
