//! `resched experiment <name>`: runs one of the campaigns that reproduce the papers'
//! evaluations (see [`crate::experiment`]), resumable, in parallel, with a progress bar.
use super::Exit;
use crate::experiment::{self, Options, CAMPAIGNS};
use crate::time::Time;
use crate::Result;
use std::path::PathBuf;

/// Arguments of `resched experiment`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The campaign (the list is the runner's registry, `experiment::CAMPAIGNS`).
    #[arg(help = experiment::campaigns_help())]
    pub name: String,
    /// Run the reduced version (a minute or less).
    #[arg(long)]
    pub quick: bool,
    /// Output directory (default out/<name>, or out/<name>-quick). Rerunning with the same
    /// directory resumes: finished cells are not recomputed.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Campaign seed (job sets and failure scenarios derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// SWF trace(s) for rigid-trace (.swf or .swf.gz; default: the two Mira windows of
    /// ../shared/traces).
    #[arg(long = "trace")]
    pub traces: Vec<PathBuf>,
    /// Override the number of job sets (rigid-trace: days per trace).
    #[arg(long)]
    pub sets: Option<usize>,
    /// Override the number of failure scenarios per set.
    #[arg(long)]
    pub scenarios: Option<usize>,
    /// rigid-trace: leave out days with fewer jobs (default 20).
    #[arg(long)]
    pub min_jobs: Option<usize>,
    /// rigid-trace: the largest expected failure count of one job, q_j/(1−q_j), that a
    /// (day, q̄) cell may have (default 1000). Above it the failure model makes the day a
    /// run of millions of failed attempts whose ratio measures nothing.
    #[arg(long, value_name = "N")]
    pub max_expected_failures: Option<f64>,
    /// rigid-trace: what to do with the cells above --max-expected-failures: `skip` them (listed
    /// before the run and in summary.md) or `refuse` to run.
    #[arg(long, value_name = "skip|refuse", default_value = "skip")]
    pub on_excess: String,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// moldable-table1, moldable-sweeps: BATCH-LIST's ε > 0 (default 3/10, the paper's value).
    #[arg(long)]
    pub eps: Option<Time>,
    /// moldable-table1, moldable-sweeps: round every time up to a multiple of 2^-BITS s
    /// (1..=40; 20 is < 1 µs per attempt) instead of the exact tables (see EXPERIMENTS.md).
    #[arg(long, value_name = "BITS")]
    pub time_grid: Option<u32>,
}

/// Runs the campaign and prints its Markdown summary and the files written.
pub fn run(a: Args) -> Result<Exit> {
    if a.name == "list" {
        for (n, d) in CAMPAIGNS {
            println!("{n:16} {d}");
        }
        return Ok(Exit::Ok);
    }
    let opts = Options {
        quick: a.quick,
        out: a.out,
        seed: a.seed,
        threads: a.threads,
        traces: a.traces,
        sets: a.sets,
        scenarios: a.scenarios,
        min_jobs: a.min_jobs,
        max_expected_failures: a.max_expected_failures,
        on_excess: a.on_excess.parse()?,
        progress: !a.no_progress,
        eps: a.eps,
        time_grid: a.time_grid,
    };
    let o = experiment::run(&a.name, &opts)?;
    println!("{}", o.markdown);
    println!(
        "{}: {} cells computed, {} resumed, {:.1} s; files:",
        o.dir.display(),
        o.stats.computed,
        o.stats.resumed,
        o.stats.seconds
    );
    for f in &o.files {
        println!("  {}", f.display());
    }
    Ok(Exit::Ok)
}
