//! `resched experiment <name>`: runs one of the campaigns that reproduce the papers'
//! evaluations (see [`crate::experiment`]), resumable, in parallel, with a progress bar.
use super::Exit;
use crate::experiment::{self, Knob, Options, CAMPAIGNS};
use clap::{value_parser, Arg, ArgAction, ArgMatches, Command};
use resched::time::Time;
use resched::{Error, Result};
use std::path::PathBuf;

/// Arguments of `resched experiment <campaign>`. The command line has one subcommand per entry of
/// the catalogue [`CAMPAIGNS`], built from it ([`clap::Args::augment_args`]): the options every
/// campaign takes, and the [`Knob`]s of that entry only, so that clap refuses an option the
/// campaign would ignore and `resched experiment <campaign> --help` lists exactly its own.
#[derive(Debug, Clone)]
pub struct Args {
    /// The campaign (`list`: print the catalogue).
    pub name: String,
    /// Run the reduced version (a minute or less).
    pub quick: bool,
    /// Output directory (default `out/<name>`, or `out/<name>-quick`).
    pub out: Option<PathBuf>,
    /// Campaign seed (job sets and failure scenarios derive from it).
    pub seed: u64,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// SWF trace(s) ([`Knob::Traces`]).
    pub traces: Vec<PathBuf>,
    /// Override the number of job sets.
    pub sets: Option<usize>,
    /// Override the number of failure scenarios per set.
    pub scenarios: Option<usize>,
    /// [`Knob::MinJobs`].
    pub min_jobs: Option<usize>,
    /// [`Knob::MaxExpectedFailures`].
    pub max_expected_failures: Option<f64>,
    /// [`Knob::OnExcess`] (`skip` when the campaign does not take it).
    pub on_excess: String,
    /// No progress bar.
    pub no_progress: bool,
    /// [`Knob::Eps`].
    pub eps: Option<Time>,
    /// [`Knob::TimeGrid`].
    pub time_grid: Option<u32>,
    /// [`Knob::Compression`].
    pub compression: Option<resched::stealing::Compression>,
    /// Compute only shard I of N.
    pub shard: Option<String>,
}

/// The options every campaign takes.
fn common_args() -> Vec<Arg> {
    vec![
        Arg::new("quick")
            .long("quick")
            .action(ArgAction::SetTrue)
            .help("Run the reduced version (a minute or less)"),
        Arg::new("out")
            .long("out")
            .value_name("OUT")
            .value_parser(value_parser!(PathBuf))
            .help(
                "Output directory (default out/<name>, or out/<name>-quick). Rerunning with the \
                 same directory resumes: finished cells are not recomputed",
            ),
        Arg::new("seed")
            .long("seed")
            .value_name("SEED")
            .value_parser(value_parser!(u64))
            .default_value("1")
            .help("Campaign seed (job sets and failure scenarios derive from it)"),
        Arg::new("threads")
            .long("threads")
            .value_name("THREADS")
            .value_parser(value_parser!(usize))
            .help("Worker threads (default: all cores)"),
        Arg::new("sets").long("sets")
            .value_name("SETS").value_parser(value_parser!(usize)).help(
            "Override the number of job sets (rigid-trace: days per trace; steal-sweep: failure \
             seeds per point; steal-synthetic: seeds, each drawing a workload and its failures)",
        ),
        Arg::new("scenarios")
            .long("scenarios")
            .value_name("SCENARIOS")
            .value_parser(value_parser!(usize))
            .help("Override the number of failure scenarios per set"),
        Arg::new("no_progress")
            .long("no-progress")
            .action(ArgAction::SetTrue)
            .help("No progress bar"),
        Arg::new("shard")
            .long("shard")
            .value_name("I/N")
            .help(
                "Compute only shard I of N (0 ≤ I < N) of the campaign's cells, e.g. one task of \
                 a Slurm job array; `resched merge` joins the N output directories (see \
                 docs/guide/slurm.md)",
            ),
    ]
}

/// The option of a [`Knob`].
fn knob_arg(k: Knob) -> Arg {
    match k {
        Knob::Traces => Arg::new("traces")
            .long("trace")
            .value_name("TRACES")
            .action(ArgAction::Append)
            .value_parser(value_parser!(PathBuf))
            .required(true)
            .help(
                "SWF trace(s) (.swf or .swf.gz); the paper's are the two Mira windows of March \
                 2018 (docs/guide/traces.md says where to get them)",
            ),
        Knob::MinJobs => Arg::new("min_jobs")
            .long("min-jobs")
            .value_name("MIN_JOBS")
            .value_parser(value_parser!(usize))
            .help("Leave out days with fewer jobs (default 20)"),
        Knob::MaxExpectedFailures => Arg::new("max_expected_failures")
            .long("max-expected-failures")
            .value_name("N")
            .value_parser(value_parser!(f64))
            .help(
                "The largest expected failure count of one job, q_j/(1−q_j), that a (day, q̄) \
                 cell may have (default 1000). Above it the failure model makes the day a run of \
                 millions of failed attempts whose ratio measures nothing",
            ),
        Knob::OnExcess => Arg::new("on_excess")
            .long("on-excess")
            .value_name("skip|refuse")
            .default_value("skip")
            .help(
                "What to do with the cells above --max-expected-failures: `skip` them (listed \
                 before the run and in summary.md) or `refuse` to run",
            ),
        Knob::Eps => Arg::new("eps")
            .long("eps")
            .value_name("EPS")
            .value_parser(value_parser!(Time))
            .help("BATCH-LIST's ε > 0 (default 3/10, the paper's value)"),
        Knob::TimeGrid => Arg::new("time_grid")
            .long("time-grid")
            .value_name("BITS")
            .value_parser(value_parser!(u32))
            .help(
                "Round every time up to a multiple of 2^-BITS s (1..=40; 20 is < 1 µs per \
                 attempt) instead of the exact tables (see docs/results/moldable-table1.md)",
            ),
        Knob::Compression => Arg::new("compression")
            .long("compression")
            .value_name("RULE")
            .value_parser(value_parser!(resched::stealing::Compression))
            .help(
                "When the plan's reservations are compressed: `completions` (default, \
                 Batsched's conservative_bf: new jobs are inserted first-fit) or \
                 `completions-and-arrivals` (resched's first reading); see \
                 docs/reference/readings.md",
            ),
    }
}

impl clap::Args for Args {
    fn augment_args(cmd: Command) -> Command {
        let campaigns = CAMPAIGNS.iter().map(|c| {
            Command::new(c.name)
                .about(c.describe())
                .long_about(format!("{}\n\n--quick: {}.", c.describe(), c.quick))
                .args(common_args())
                .args(c.knobs.iter().map(|&k| knob_arg(k)))
        });
        cmd.subcommand_required(true)
            .subcommand_value_name("CAMPAIGN")
            .subcommands(campaigns)
            .subcommand(Command::new("list").about("Print the campaigns, one per line"))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for Args {
    fn from_arg_matches(m: &ArgMatches) -> std::result::Result<Args, clap::Error> {
        let Some((name, m)) = m.subcommand() else {
            return Err(clap::Error::new(clap::error::ErrorKind::MissingSubcommand));
        };
        // A knob the campaign does not take is not defined on its subcommand: absent.
        fn one<T: Clone + Send + Sync + 'static>(m: &ArgMatches, id: &str) -> Option<T> {
            m.try_get_one::<T>(id).ok().flatten().cloned()
        }
        let flag = |id: &str| m.try_get_one::<bool>(id).ok().flatten() == Some(&true);
        let traces = m.try_get_many::<PathBuf>("traces").ok().flatten();
        Ok(Args {
            name: name.to_string(),
            quick: flag("quick"),
            out: one(m, "out"),
            // default: `list` takes no seed; every campaign's default is 1
            seed: one(m, "seed").unwrap_or(1),
            threads: one(m, "threads"),
            // default: a campaign without traces reads none
            traces: traces.map(|v| v.cloned().collect()).unwrap_or_default(),
            sets: one(m, "sets"),
            scenarios: one(m, "scenarios"),
            min_jobs: one(m, "min_jobs"),
            max_expected_failures: one(m, "max_expected_failures"),
            // default: campaigns without the knob never skip or refuse cells
            on_excess: one(m, "on_excess").unwrap_or_else(|| "skip".to_string()),
            no_progress: flag("no_progress"),
            eps: one(m, "eps"),
            time_grid: one(m, "time_grid"),
            compression: one(m, "compression"),
            shard: one(m, "shard"),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> std::result::Result<(), clap::Error> {
        *self = Args::from_arg_matches(m)?;
        Ok(())
    }
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
        let takes = |k: Knob| experiment::find(&self.name).is_ok_and(|c| c.knobs.contains(&k));
        if takes(Knob::OnExcess) {
            opt("--on-excess", Some(self.on_excess.clone()));
        }
        opt("--eps", self.eps.as_ref().map(|x| x.to_string()));
        opt("--time-grid", self.time_grid.map(|x| x.to_string()));
        opt("--compression", self.compression.map(|x| x.to_string()));
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
            threads: super::args::check_threads(self.threads)?,
            traces: self.traces,
            sets: self.sets,
            scenarios: self.scenarios,
            min_jobs: self.min_jobs,
            max_expected_failures: self.max_expected_failures,
            on_excess: self.on_excess.parse()?,
            progress: !self.no_progress,
            eps: self.eps,
            time_grid: self.time_grid,
            compression: self.compression,
            mode,
        })
    }
}

/// Runs the campaign and prints its Markdown summary and the files written.
pub fn run(a: Args) -> Result<Exit> {
    if a.name == "list" {
        for c in &CAMPAIGNS {
            crate::outln!("{:16} {}", c.name, c.describe())?;
        }
        return Ok(Exit::Ok);
    }
    // The node-stealing campaigns draw one failure sequence per seed (`--sets`): a scenario
    // count would be silently ignored.
    if a.scenarios.is_some() && matches!(a.name.as_str(), "steal-synthetic" | "steal-sweep") {
        return Err(Error::option(
            "--scenarios",
            format!(
                "{} does not read it: each seed (--sets) draws one failure sequence",
                a.name
            ),
        ));
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
    report(&outcome)?;
    Ok(Exit::Ok)
}

/// Prints a campaign's Markdown summary and the files written.
pub fn report(o: &experiment::Outcome) -> Result<()> {
    crate::outln!("{}", o.markdown)?;
    crate::outln!(
        "{}: {} cells computed, {} resumed, {:.1} s; files:",
        o.dir.display(),
        o.stats.computed,
        o.stats.resumed,
        o.stats.seconds
    )?;
    for f in &o.files {
        crate::outln!("  {}", f.display())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    /// The command line of every campaign is its catalogue entry: one subcommand per campaign,
    /// taking its knobs and no other; an option of another campaign is a usage error.
    #[test]
    fn every_campaign_is_a_subcommand_with_its_own_options() {
        let cli = crate::cli::Cli::command();
        let exp = cli
            .find_subcommand("experiment")
            .expect("experiment subcommand");
        for c in &CAMPAIGNS {
            let sub = exp.find_subcommand(c.name).expect(c.name);
            for k in Knob::ALL {
                let id = knob_arg(k).get_id().clone();
                let has = sub.get_arguments().any(|a| *a.get_id() == id);
                assert_eq!(has, c.knobs.contains(&k), "{} {k:?}", c.name);
            }
        }
        assert_eq!(exp.get_subcommands().count(), CAMPAIGNS.len() + 1);
        let e = crate::cli::Cli::try_parse_from([
            "resched",
            "experiment",
            "rigid-qbar",
            "--eps",
            "1/2",
        ])
        .expect_err("rigid-qbar takes no ε");
        assert!(e.to_string().contains("--eps"), "{e}");
        let ok = crate::cli::Cli::try_parse_from([
            "resched",
            "experiment",
            "rigid-trace",
            "--quick",
            "--trace",
            "a.swf",
            "--trace",
            "b.swf",
        ])
        .expect("rigid-trace takes traces");
        let crate::cli::Command::Experiment(a) = ok.command else {
            panic!("not experiment")
        };
        assert_eq!(a.traces, [PathBuf::from("a.swf"), PathBuf::from("b.swf")]);
        assert_eq!((a.name.as_str(), a.quick, a.seed), ("rigid-trace", true, 1));
        assert!(a.result_args().contains(&"--on-excess".to_string()));
    }
}
