//! `resched experiment <name>`: runs one of the campaigns that reproduce the papers'
//! evaluations (see [`crate::experiment`]), resumable, in parallel, with a progress bar.
use super::Exit;
use crate::experiment::{self, Options, CAMPAIGNS};
use resched::time::Time;
use resched::Result;
use std::path::PathBuf;

/// Arguments of `resched experiment`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The campaign (the list is the typed catalogue `experiment::CAMPAIGNS`).
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
    /// rigid-trace, steal-sweep: SWF trace(s) (.swf or .swf.gz), required; the paper's are the
    /// two Mira windows of March 2018 (docs/guide/traces.md says where to get them).
    #[arg(long = "trace")]
    pub traces: Vec<PathBuf>,
    /// Override the number of job sets (rigid-trace: days per trace; steal-sweep: failure
    /// seeds per point; steal-synthetic: seeds, each drawing a workload and its failures).
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
    /// (1..=40; 20 is < 1 µs per attempt) instead of the exact tables (see
    /// docs/results/moldable-table1.md).
    #[arg(long, value_name = "BITS")]
    pub time_grid: Option<u32>,
    /// Compute only shard I of N (0 ≤ I < N) of the campaign's cells, e.g. one task of a Slurm
    /// job array; `resched merge` joins the N output directories (see docs/guide/slurm.md).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
}

impl Args {
    /// The arguments that determine the campaign's results, as a command line (what a shard
    /// records and the merge reruns): all but --out, --threads, --no-progress and --shard.
    pub fn result_args(&self) -> Vec<String> {
        let mut v = vec![self.name.clone()];
        let mut opt = |flag: &str, value: Option<String>| {
            if let Some(x) = value {
                v.push(flag.to_string());
                v.push(x);
            }
        };
        opt("--seed", Some(self.seed.to_string()));
        for t in &self.traces {
            opt("--trace", Some(t.display().to_string()));
        }
        opt("--sets", self.sets.map(|x| x.to_string()));
        opt("--scenarios", self.scenarios.map(|x| x.to_string()));
        opt("--min-jobs", self.min_jobs.map(|x| x.to_string()));
        opt(
            "--max-expected-failures",
            self.max_expected_failures.map(|x| x.to_string()),
        );
        opt("--on-excess", Some(self.on_excess.clone()));
        opt("--eps", self.eps.as_ref().map(|x| x.to_string()));
        opt("--time-grid", self.time_grid.map(|x| x.to_string()));
        if self.quick {
            v.push("--quick".into());
        }
        v
    }

    /// The campaign options these arguments ask for, run in `mode`.
    pub fn options(self, mode: experiment::runner::Mode) -> Result<Options> {
        Ok(Options {
            quick: self.quick,
            out: self.out,
            seed: self.seed,
            threads: self.threads,
            traces: self.traces,
            sets: self.sets,
            scenarios: self.scenarios,
            min_jobs: self.min_jobs,
            max_expected_failures: self.max_expected_failures,
            on_excess: self.on_excess.parse()?,
            progress: !self.no_progress,
            eps: self.eps,
            time_grid: self.time_grid,
            mode,
        })
    }
}

/// Runs the campaign and prints its Markdown summary and the files written.
pub fn run(a: Args) -> Result<Exit> {
    if a.name == "list" {
        for c in &CAMPAIGNS {
            println!("{:16} {}", c.name, c.describe());
        }
        return Ok(Exit::Ok);
    }
    let mut a = a;
    let mode = match &a.shard {
        Some(text) => {
            let shard: experiment::shard::Shard = text.parse()?;
            // Shards never share a directory: the default gets the shard's name.
            if a.out.is_none() {
                let base = Options {
                    quick: a.quick,
                    ..Options::default()
                }
                .out_dir(&a.name);
                a.out = Some(base.join(format!("shard-{}-of-{}", shard.index, shard.count)));
            }
            experiment::runner::Mode::Shard {
                shard,
                command: "experiment".into(),
                args: a.result_args(),
            }
        }
        None => experiment::runner::Mode::Whole,
    };
    let name = a.name.clone();
    let sharded = a.shard.is_some();
    let opts = a.options(mode)?;
    // An output directory that cannot be written is found before the campaign runs (like
    // steal's --csv/--plots), not after hours of cells; a bad campaign name goes first.
    if experiment::find(&name).is_ok() {
        crate::cli::steal::outputs::check_dir(&opts.out_dir(&name), "--out")?;
    }
    let mut outcome = experiment::run(&name, &opts)?;
    if sharded {
        outcome
            .markdown
            .push_str("; join the shards with `resched merge DIR… --out DIR`");
    }
    report(&outcome);
    Ok(Exit::Ok)
}

/// Prints a campaign's Markdown summary and the files written.
pub fn report(o: &experiment::Outcome) {
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
}
