//! `resched merge DIR… --out DIR`: joins the output directories of the N shards of one run
//! (`--shard I/N` on `experiment`, `prove --exhaustive` or `prove --search`) into the result one
//! process would have written; see [`crate::experiment::merge`] for the checks.
//!
//! A campaign is rerun in the merged directory from the shards' cells (nothing is computed;
//! tables and figures are drawn from the merged data); a proof run's parts are folded in shard
//! order ([`crate::proofs::sharded`]).
use super::Exit;
use crate::error::{Error, Result};
use crate::experiment::merge::{assemble_cells, check_shards};
use crate::experiment::runner::Mode;
use clap::Parser;
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
}

/// Runs `resched merge`.
pub fn run(a: Args) -> Result<Exit> {
    let shards = check_shards(&a.dirs)?;
    let rec = &shards[0].record;
    match rec.command.as_str() {
        "experiment" => {
            assemble_cells(&shards, &a.out)?;
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
            super::experiment::report(&o);
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
