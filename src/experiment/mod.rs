//! Campaigns that reproduce the papers' evaluations (`resched experiment <name>`):
//!
//! | name | reproduces |
//! |------|------------|
//! | `rigid-qbar` | rigid paper, Figures 4(a) and 5: q̄ from 0 to 0.9, P = 10000 |
//! | `rigid-procs` | rigid paper, Figures 4(b) and 6: P from 5000 to 20000, q̄ = 0.3 |
//! | `rigid-trace` | rigid paper, Table 1 (Section 5.4): any SWF trace split into days |
//! | `moldable-table1` | moldable paper, Table 1 (Section 5.4) |
//! | `moldable-sweeps` | moldable paper, Figure 5 (Section 5.3): P, n and λ |
//! | `steal-sweep` | node-stealing paper, Figures 9–11 (Section 6.2): MTBF × downtime |
//! | `steal-synthetic` | node-stealing paper, Tables 6–7 and Figure 13 (Section 6.3): synthetic workload |
//!
//! Full sizes are the papers'; on a 2-core machine the rigid sweeps (49 algorithm × priority
//! pairs × 1000 scenarios × 30 sets per point) take hours: `--sets` and `--scenarios` reduce
//! them, and EXPERIMENTS.md records the sizes we ran.
//!
//! Every campaign is a list of cells run by [`runner`] (parallel, resumable, atomic outputs) and
//! writes into its output directory: `manifest.json` (parameters, seed, program version),
//! `cells/` (one JSON file per finished cell), `cells.csv` and `summary.csv`, `results.json`
//! (manifest, summary and every cell), `summary.md` (our numbers beside the paper's), and its
//! figures as SVG and PNG.
//!
//! `--quick` runs a reduced grid (fewer sets, scenarios and points) meant for CI; the reduced
//! sizes are stated in each campaign's doc comment and in its manifest.
use crate::error::{Error, Result};
use crate::oracle::catalogue;
use crate::time::Time;
use std::path::PathBuf;

pub mod eval;
pub mod merge;
pub mod moldable_sweeps;
pub mod moldable_table1;
pub mod moldable_table1_figure;
pub mod rigid_procs;
pub mod rigid_qbar;
pub mod rigid_sweep;
pub mod rigid_trace;
pub mod runner;
pub mod shard;
pub mod steal_sweep;
pub mod steal_synthetic;

/// The campaigns, with a one-line description.
pub const CAMPAIGNS: [(&str, &str); 7] = [
    (
        "rigid-qbar",
        "rigid paper Figures 4(a)-5: normalized makespan vs q̄ (P = 10000)",
    ),
    (
        "rigid-procs",
        "rigid paper Figures 4(b)-6: normalized makespan vs P (q̄ = 0.3)",
    ),
    (
        "rigid-trace",
        "rigid paper Table 1: SWF trace days, LPT, q̄ = 0, 0.05, 0.1",
    ),
    (
        "moldable-table1",
        "moldable paper Table 1: six models × LPA, BATCH, MINTIME, MINAREA",
    ),
    (
        "moldable-sweeps",
        "moldable paper Figure 5: mix model, P, n and λ sweeps",
    ),
    (
        "steal-sweep",
        "node-stealing paper Figures 9-11: SFSJ / Baseline over MTBF × downtime (Mira, or --trace)",
    ),
    (
        "steal-synthetic",
        "node-stealing paper Tables 6-7, Figure 13: synthetic workload, seeds 1-10",
    ),
];

/// Refuses an option the campaign would ignore (a flag that does not apply is an error, not a
/// silent no-op).
fn options_apply(name: &str, opts: &Options) -> Result<()> {
    let trace_campaign = matches!(name, "rigid-trace" | "steal-sweep");
    let moldable = matches!(name, "moldable-table1" | "moldable-sweeps");
    let given = [
        ("--trace", !opts.traces.is_empty(), trace_campaign),
        ("--min-jobs", opts.min_jobs.is_some(), name == "rigid-trace"),
        (
            "--max-expected-failures",
            opts.max_expected_failures.is_some(),
            name == "rigid-trace",
        ),
        (
            "--on-excess",
            opts.on_excess != rigid_trace::Excess::Skip,
            name == "rigid-trace",
        ),
        ("--eps", opts.eps.is_some(), moldable),
        ("--time-grid", opts.time_grid.is_some(), moldable),
    ];
    match given.iter().find(|(_, set, applies)| *set && !applies) {
        Some((flag, _, _)) => Err(Error::option(
            flag,
            format!("does not apply to the campaign `{name}`"),
        )),
        None => Ok(()),
    }
}

/// Options shared by every campaign (the command line's).
#[derive(Debug, Clone)]
pub struct Options {
    /// Run the reduced version.
    pub quick: bool,
    /// Output directory; default `out/<campaign>` (or `out/<campaign>-quick`).
    pub out: Option<PathBuf>,
    /// Campaign seed: every job set and scenario derives from it.
    pub seed: u64,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// SWF traces for `rigid-trace` (default: the two Mira windows of `../shared/traces`).
    pub traces: Vec<PathBuf>,
    /// Override the number of job sets.
    pub sets: Option<usize>,
    /// Override the number of scenarios per set.
    pub scenarios: Option<usize>,
    /// `rigid-trace`: days with fewer jobs are left out (default 20).
    pub min_jobs: Option<usize>,
    /// `rigid-trace`: the largest expected failure count of one job a (day, q̄) cell may have
    /// (default [`rigid_trace::MAX_EXPECTED_FAILURES`]); see [`rigid_trace::Excess`].
    pub max_expected_failures: Option<f64>,
    /// `rigid-trace`: what to do with cells above that count.
    pub on_excess: rigid_trace::Excess,
    /// Show a progress bar (when stderr is a terminal).
    pub progress: bool,
    /// Moldable campaigns: BATCH-LIST's ε (default 3/10, the paper's Section 5.1 value).
    pub eps: Option<Time>,
    /// Moldable campaigns: round every time up to a multiple of 2^−bits s
    /// ([`crate::model::SpeedupModel::Rounded`]); `None` (the default): the exact tables.
    pub time_grid: Option<u32>,
    /// Every cell, one shard's (`--shard I/N`), or the merge's assembly ([`runner::Mode`]).
    pub mode: runner::Mode,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            quick: false,
            out: None,
            seed: 1,
            threads: None,
            traces: Vec::new(),
            sets: None,
            scenarios: None,
            min_jobs: None,
            max_expected_failures: None,
            on_excess: rigid_trace::Excess::Skip,
            progress: true,
            eps: None,
            time_grid: None,
            mode: runner::Mode::Whole,
        }
    }
}

impl Options {
    /// The output directory of campaign `name`.
    pub fn out_dir(&self, name: &str) -> PathBuf {
        // default: out/<name> (documented default of --out)
        self.out.clone().unwrap_or_else(|| {
            PathBuf::from("out").join(if self.quick {
                format!("{name}-quick")
            } else {
                name.to_string()
            })
        })
    }

    /// The runner configuration for campaign `name`.
    pub fn run_config(&self, name: &str) -> runner::RunConfig {
        runner::RunConfig {
            out: self.out_dir(name),
            threads: self.threads,
            progress: self.progress,
            mode: self.mode.clone(),
        }
    }

    /// `--sets`/`--scenarios` override, validated (≥ 1).
    fn count(v: Option<usize>, default: usize, option: &str) -> Result<usize> {
        match v {
            Some(0) => Err(Error::option(option, "must be at least 1")),
            Some(n) => Ok(n),
            None => Ok(default),
        }
    }

    /// BATCH-LIST's ε: the override (validated > 0), else 3/10.
    pub fn eps(&self) -> Result<Time> {
        match &self.eps {
            Some(e) => {
                crate::schedulers::moldable::check_eps(e)?;
                Ok(e.clone())
            }
            None => Ok(crate::schedulers::moldable::default_eps()),
        }
    }

    /// The grid of the moldable sets' times (`None`: exact), validated.
    pub fn grid_bits(&self) -> Result<Option<u32>> {
        match self.time_grid {
            Some(b) if b == 0 || b > crate::model::speedup::MAX_GRID_BITS => Err(Error::option(
                "--time-grid",
                format!(
                    "{b} bits: expected 1 to {}",
                    crate::model::speedup::MAX_GRID_BITS
                ),
            )),
            g => Ok(g),
        }
    }

    /// Number of job sets: the override, else `full` or `quick`.
    pub fn sets_or(&self, full: usize, quick: usize) -> Result<usize> {
        Options::count(self.sets, if self.quick { quick } else { full }, "sets")
    }

    /// Number of scenarios per set: the override, else `full` or `quick`.
    pub fn scenarios_or(&self, full: usize, quick: usize) -> Result<usize> {
        Options::count(
            self.scenarios,
            if self.quick { quick } else { full },
            "scenarios",
        )
    }
}

/// What a campaign produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The output directory.
    pub dir: PathBuf,
    /// The files written (besides `manifest.json` and `cells/`).
    pub files: Vec<PathBuf>,
    /// Cells computed and resumed, and the wall time.
    pub stats: runner::RunStats,
    /// The Markdown summary (also in `summary.md`).
    pub markdown: String,
}

/// Runs campaign `name`.
pub fn run(name: &str, opts: &Options) -> Result<Outcome> {
    options_apply(name, opts)?;
    match dispatch(name) {
        Some(f) => f(opts),
        None => Err(Error::option(
            "name",
            format!(
                "unknown campaign `{name}`; valid: {}",
                CAMPAIGNS.iter().map(|c| c.0).collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

/// The function that runs campaign `name` (a test checks that every entry of [`CAMPAIGNS`]
/// has one).
fn dispatch(name: &str) -> Option<fn(&Options) -> Result<Outcome>> {
    Some(match name {
        "rigid-qbar" => rigid_qbar::run,
        "rigid-procs" => rigid_procs::run,
        "rigid-trace" => rigid_trace::run,
        "moldable-table1" => moldable_table1::run,
        "moldable-sweeps" => moldable_sweeps::run,
        "steal-sweep" => steal_sweep::run,
        "steal-synthetic" => steal_synthetic::run,
        _ => return None,
    })
}

/// How a moldable campaign's times were made, for its summary: "exact" or the grid.
pub fn times_label(grid_bits: Option<u32>) -> String {
    match grid_bits {
        Some(b) => format!("rounded up to 2^-{b} s"),
        None => "exact".to_string(),
    }
}

/// The paper labels of catalogue names (the columns of a campaign's tables), in order; an
/// unknown name is an error.
pub fn labels(names: &[&str]) -> Result<Vec<&'static str>> {
    names.iter().map(|n| catalogue::label(n)).collect()
}

/// File stems (no extension) for figures named after inputs: every character other than ASCII
/// letters, digits, `-` and `_` becomes `_` (a dot would be taken for an extension, a slash
/// for a directory), and a stem equal to an earlier one (ignoring case, for case-insensitive
/// file systems) gets `-2`, `-3`, … so that no figure overwrites another.
pub fn file_stems(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for n in names {
        let base: String = n
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let taken = |s: &str| out.iter().any(|o| o.eq_ignore_ascii_case(s));
        let mut stem = base.clone();
        let mut k = 2;
        while taken(&stem) {
            stem = format!("{base}-{k}");
            k += 1;
        }
        out.push(stem);
    }
    out
}

/// The campaign list for `experiment --help`, one line per entry of [`CAMPAIGNS`].
pub fn campaigns_help() -> String {
    let mut s = String::from("The campaign (`list` prints them):");
    for (n, d) in CAMPAIGNS {
        s.push_str(&format!("\n  {n:16} {d}"));
    }
    s
}

/// A "claim | paper | ours | holds" table: a campaign's check of the paper's statements.
pub fn claims_table(rows: &[Vec<String>]) -> String {
    runner::markdown_table(
        &[
            "claim".into(),
            "paper".into(),
            "ours".into(),
            "holds".into(),
        ],
        rows,
    )
}

/// The program version written into every output.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// Formats a ratio for tables.
pub fn fmt3(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.3}")
    } else {
        "–".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every campaign table is a list of catalogue names whose labels are the paper's columns.
    #[test]
    fn campaign_tables_name_catalogue_algorithms() {
        assert_eq!(
            labels(&rigid_trace::algorithms()).unwrap(),
            [
                "R-List-0",
                "R-List-1",
                "R-List-Q",
                "R-ShelfFill-B",
                "R-ShelfFill-NB",
                "R-List-1-kept",
                "R-List-Q-kept"
            ]
        );
        let moldable = ["LPA", "BATCH", "BATCH-U", "MINTIME", "MINAREA"];
        let table1 = ["LPA", "BATCH", "BATCH-U", "BATCH-PUB", "MINTIME", "MINAREA"];
        assert_eq!(labels(&moldable_table1::ALGOS).unwrap(), table1);
        assert_eq!(labels(&moldable_sweeps::ALGOS).unwrap(), moldable);
        let e = labels(&["greedy", "fifo"]).unwrap_err().to_string();
        assert!(e.contains("unknown algorithm `fifo`"), "{e}");
    }

    /// Names that differ only in dots, case or characters a file name cannot hold never share
    /// a figure file.
    #[test]
    fn file_stems_never_collide() {
        let names: Vec<String> = [
            "days-Mira.2018-03-01",
            "days-Mira.2018-03-11",
            "days-Mira_2018-03-01",
            "days-a/b",
            "days-A_b",
            "days-x",
        ]
        .map(String::from)
        .to_vec();
        let stems = file_stems(&names);
        assert_eq!(
            stems,
            [
                "days-Mira_2018-03-01",
                "days-Mira_2018-03-11",
                "days-Mira_2018-03-01-2",
                "days-a_b",
                "days-A_b-2",
                "days-x"
            ]
        );
    }

    /// Every campaign of the registry is listed by `--help` and dispatched by [`run`]: an
    /// unknown name is refused, a listed one is not.
    #[test]
    fn help_lists_every_campaign_and_run_knows_each() {
        let help = campaigns_help();
        for (n, _) in CAMPAIGNS {
            assert!(help.contains(n), "{n} missing from --help");
            assert!(dispatch(n).is_some(), "{n} has no runner");
        }
        assert!(help.contains("steal-sweep"));
        assert!(dispatch("no-such").is_none());
        let e = run("no-such", &Options::default()).unwrap_err().to_string();
        assert!(CAMPAIGNS.iter().all(|(n, _)| e.contains(n)), "{e}");
    }
}
