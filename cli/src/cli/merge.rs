//! `resched merge DIR… --out DIR`: joins the output directories of the N shards of one run
//! (`--shard I/N` on `experiment`, `prove --exhaustive` or `prove --search`) into the result one
//! process would have written; see [`crate::experiment::merge`] for the checks.
//!
//! A campaign is rerun in the merged directory from the shards' cells (nothing is computed;
//! tables and figures are drawn from the merged data); a proof run's parts are folded in shard
//! order ([`resched_proofs::sharded`]).
//!
//! Shards made by another build than this one (another version or commit, a dirty tree, an
//! unknown build, or a record from before builds were recorded) are refused unless
//! `--allow-mixed-builds` is given; then each such shard is named on stderr.
use super::Exit;
use crate::experiment::merge::{assemble_cells, check_shards, other_builds, Builds};
use crate::experiment::runner::Mode;
use clap::Parser;
use resched::error::{Error, Result};
use std::path::PathBuf;

/// Arguments of `resched merge`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shards' output directories (each holds a shard.json), in any order.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The merged result directory (created; refused when it holds another run's results).
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads of a campaign's assembly (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Merge shards made by other builds of resched too. By default every shard must have been
    /// made by this very build, from a clean commit (same version and commit, no uncommitted
    /// changes); a shard of another version or commit, of a dirty tree, or written before
    /// shards recorded their build is refused. With this flag they are merged, each named on
    /// stderr, and the merged cells keep the build that computed each.
    #[arg(long)]
    pub allow_mixed_builds: bool,
}

/// Runs `resched merge`.
pub fn run(a: Args) -> Result<Exit> {
    super::args::check_threads(a.threads)?;
    let builds = if a.allow_mixed_builds {
        Builds::AllowMixed
    } else {
        Builds::Same
    };
    let shards = check_shards(&a.dirs, builds)?;
    for (_, why) in other_builds(&shards, crate::provenance::this_build()) {
        crate::errln!("warning: --allow-mixed-builds: {why}");
    }
    let rec = &shards[0].record;
    match rec.command.as_str() {
        "experiment" => {
            for w in assemble_cells(&shards, &a.out, builds)? {
                crate::errln!("warning: --allow-mixed-builds: {w}");
            }
            let mut argv: Vec<String> = vec!["resched".into(), "experiment".into()];
            argv.extend(rec.args.iter().cloned());
            argv.extend([
                "--out".into(),
                a.out.display().to_string(),
                "--no-progress".into(),
            ]);
            if let Some(t) = a.threads {
                argv.extend(["--threads".into(), t.to_string()]);
            }
            let cli = super::Cli::try_parse_from(&argv).map_err(|e| recorded_args(&argv, &e))?;
            let super::Command::Experiment(args) = cli.command else {
                return Err(Error::Limit(
                    "merge: the recorded command is not a campaign".into(),
                ));
            };
            let name = args.name.clone();
            let o = crate::experiment::run(&name, &args.options(Mode::Assemble)?)?;
            super::experiment::report(&o)?;
            Ok(Exit::Ok)
        }
        "prove-exhaustive" | "prove-search" => super::prove::merge(&shards, &a.out),
        other => Err(Error::invalid(
            &shards[0].dir.join("shard.json").display().to_string(),
            "command",
            format!("`{other}`: expected experiment, prove-exhaustive or prove-search"),
        )),
    }
}

/// The error of recorded arguments this version cannot parse (a shard.json edited by hand).
fn recorded_args(argv: &[String], e: &clap::Error) -> Error {
    Error::invalid(
        "shard.json",
        "args",
        format!("`{}` does not parse: {}", argv[1..].join(" "), e.kind()),
    )
}
