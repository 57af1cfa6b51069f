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
//! them, and docs/results/ records the sizes we ran.
//!
//! Every campaign is a list of cells run by [`runner`] (parallel, resumable, atomic outputs) and
//! writes into its output directory: `manifest.json` (parameters, seed, program version, and the
//! build that started it: `resched`, see [`runner`]),
//! `cells/` (one JSON file per finished cell), `cells.csv` and `summary.csv`, `results.json`
//! (manifest, summary and every cell), `summary.md` (our numbers beside the paper's), and its
//! figures as SVG and PNG.
//!
//! `--quick` runs a reduced grid (fewer sets, scenarios and points) meant for CI; the reduced
//! sizes are stated in each campaign's doc comment and in its manifest.
use resched::error::{Error, Result};
use resched::oracle::catalogue;
use resched::time::Time;
use std::path::PathBuf;

pub mod eval;
pub mod merge;
pub mod moldable_sweeps;
pub mod moldable_table1;
pub mod moldable_table1_figure;
pub mod moldable_table1_paper;
pub mod rigid_procs;
pub mod rigid_qbar;
pub mod rigid_sweep;
pub mod rigid_trace;
pub mod runner;
pub mod shard;
pub mod steal_sweep;
pub mod steal_synthetic;
pub mod verdict;

/// The paper a campaign reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// Benoit et al., *Resilient Scheduling Heuristics for Rigid Parallel Jobs* (IJNC 2021).
    Rigid,
    /// Benoit et al., *Resilient Scheduling of Moldable Parallel Jobs to Cope with Silent Errors*.
    Moldable,
    /// Du, Marchal, Pallez, Robert, *Improving Batch Schedulers with Node Stealing for Failed
    /// Jobs*.
    NodeStealing,
}

impl Paper {
    /// How tables and `--help` name it.
    pub fn short(self) -> &'static str {
        match self {
            Paper::Rigid => "rigid paper",
            Paper::Moldable => "moldable paper",
            Paper::NodeStealing => "node-stealing paper",
        }
    }
}

/// An option some campaigns take and others would ignore (refused there, naming it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    /// [`Options::traces`].
    Traces,
    /// [`Options::min_jobs`].
    MinJobs,
    /// [`Options::max_expected_failures`].
    MaxExpectedFailures,
    /// [`Options::on_excess`].
    OnExcess,
    /// [`Options::eps`].
    Eps,
    /// [`Options::time_grid`].
    TimeGrid,
    /// [`Options::compression`].
    Compression,
}

impl Knob {
    /// The [`Options`] field, as errors name it.
    pub fn field(self) -> &'static str {
        match self {
            Knob::Traces => "traces",
            Knob::MinJobs => "min_jobs",
            Knob::MaxExpectedFailures => "max_expected_failures",
            Knob::OnExcess => "on_excess",
            Knob::Eps => "eps",
            Knob::TimeGrid => "time_grid",
            Knob::Compression => "compression",
        }
    }

    /// Whether `opts` sets it (away from its default).
    fn given(self, opts: &Options) -> bool {
        match self {
            Knob::Traces => !opts.traces.is_empty(),
            Knob::MinJobs => opts.min_jobs.is_some(),
            Knob::MaxExpectedFailures => opts.max_expected_failures.is_some(),
            Knob::OnExcess => opts.on_excess != rigid_trace::Excess::Skip,
            Knob::Eps => opts.eps.is_some(),
            Knob::TimeGrid => opts.time_grid.is_some(),
            Knob::Compression => opts.compression.is_some(),
        }
    }

    /// Every knob.
    pub const ALL: [Knob; 7] = [
        Knob::Traces,
        Knob::MinJobs,
        Knob::MaxExpectedFailures,
        Knob::OnExcess,
        Knob::Eps,
        Knob::TimeGrid,
        Knob::Compression,
    ];
}

/// A campaign: what it reproduces, its reduced size, the options it takes and its runner. A
/// new campaign is one entry of [`CAMPAIGNS`]; the compiler checks that it has every part.
#[derive(Debug, Clone, Copy)]
pub struct Campaign {
    pub name: &'static str,
    pub paper: Paper,
    /// The paper's figures or tables and section.
    pub section: &'static str,
    /// What it measures, in one line.
    pub about: &'static str,
    /// The reduced grid of `--quick`.
    pub quick: &'static str,
    /// The options beyond those every campaign takes.
    pub knobs: &'static [Knob],
    pub run: fn(&Options) -> Result<Outcome>,
}

impl Campaign {
    /// The one-line description `experiment list` and `--help` print.
    pub fn describe(&self) -> String {
        format!("{} {}: {}", self.paper.short(), self.section, self.about)
    }

    /// Refuses an option the campaign would ignore (a field of [`Options`] that does not apply
    /// is an error naming it, not a silent no-op).
    fn check(&self, opts: &Options) -> Result<()> {
        match Knob::ALL
            .iter()
            .find(|k| k.given(opts) && !self.knobs.contains(k))
        {
            Some(k) => Err(Error::param(
                k.field(),
                format!("does not apply to the campaign `{}`", self.name),
            )),
            None => Ok(()),
        }
    }
}

const TRACE_KNOBS: [Knob; 4] = [
    Knob::Traces,
    Knob::MinJobs,
    Knob::MaxExpectedFailures,
    Knob::OnExcess,
];
const MOLDABLE_KNOBS: [Knob; 2] = [Knob::Eps, Knob::TimeGrid];

/// The campaigns.
pub const CAMPAIGNS: [Campaign; 7] = [
    Campaign {
        name: "rigid-qbar",
        paper: Paper::Rigid,
        section: "Figures 4(a)-5",
        about: "normalized makespan vs q̄ (P = 10000)",
        quick: "q̄ ∈ {0, 0.3, 0.6}, 2 sets, 3 scenarios",
        knobs: &[],
        run: rigid_qbar::run,
    },
    Campaign {
        name: "rigid-procs",
        paper: Paper::Rigid,
        section: "Figures 4(b)-6",
        about: "normalized makespan vs P (q̄ = 0.3)",
        quick: "P ∈ {5000, 10000, 20000}, 2 sets, 3 scenarios",
        knobs: &[],
        run: rigid_procs::run,
    },
    Campaign {
        name: "rigid-trace",
        paper: Paper::Rigid,
        section: "Table 1",
        about: "SWF trace days, LPT, q̄ = 0, 0.05, 0.1",
        quick: "the first 2 eligible days of each trace, 3 scenarios",
        knobs: &TRACE_KNOBS,
        run: rigid_trace::run,
    },
    Campaign {
        name: "moldable-table1",
        paper: Paper::Moldable,
        section: "Table 1",
        about: "six models × LPA, BATCH, MINTIME, MINAREA",
        quick: "P = 500, n = 40, 1 set, 2 scenarios per model",
        knobs: &MOLDABLE_KNOBS,
        run: moldable_table1::run,
    },
    Campaign {
        name: "moldable-sweeps",
        paper: Paper::Moldable,
        section: "Figure 5",
        about: "mix model, P, n and λ sweeps",
        quick: "P ∈ {200, 400}, n ∈ {20, 40}, λ ∈ {10^-7, 10^-6}, 1 set, 2 scenarios",
        knobs: &MOLDABLE_KNOBS,
        run: moldable_sweeps::run,
    },
    Campaign {
        name: "steal-sweep",
        paper: Paper::NodeStealing,
        section: "Figures 9-11",
        about: "SFSJ / Baseline over MTBF × downtime on SWF traces",
        quick:
            "the first 150 jobs of the first trace, μ ∈ {1 h, 5 h}, D ∈ {10 min, 1 day}, one seed",
        knobs: &[Knob::Traces, Knob::Compression],
        run: steal_sweep::run,
    },
    Campaign {
        name: "steal-synthetic",
        paper: Paper::NodeStealing,
        section: "Tables 6-7, Figure 13",
        about: "synthetic workload, seeds 1-10",
        quick: "3 seeds",
        knobs: &[Knob::Compression],
        run: steal_synthetic::run,
    },
];

/// The campaign named `name`, or an error listing the valid names.
pub fn find(name: &str) -> Result<&'static Campaign> {
    CAMPAIGNS.iter().find(|c| c.name == name).ok_or_else(|| {
        Error::param(
            "name",
            format!(
                "unknown campaign `{name}`; valid: {}",
                CAMPAIGNS
                    .iter()
                    .map(|c| c.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })
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
    /// ([`resched::model::SpeedupModel::Rounded`]); `None` (the default): the exact tables.
    pub time_grid: Option<u32>,
    /// Node-stealing campaigns: when the plan is compressed
    /// ([`resched::stealing::Compression`]); `None`: the default, Batsched's rule.
    pub compression: Option<resched::stealing::Compression>,
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
            compression: None,
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
            Some(0) => Err(Error::param(option, "must be at least 1")),
            Some(n) => Ok(n),
            None => Ok(default),
        }
    }

    /// BATCH-LIST's ε: the override (validated > 0), else 3/10.
    pub fn eps(&self) -> Result<Time> {
        Ok(
            resched::schedulers::moldable::Eps::or_paper(self.eps.as_ref())?
                .get()
                .clone(),
        )
    }

    /// The grid of the moldable sets' times (`None`: exact), validated.
    pub fn grid_bits(&self) -> Result<Option<u32>> {
        match self.time_grid {
            Some(b) if b == 0 || b > resched::model::speedup::MAX_GRID_BITS => Err(Error::param(
                "time_grid",
                format!(
                    "{b} bits: expected 1 to {}",
                    resched::model::speedup::MAX_GRID_BITS
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
    let c = find(name)?;
    c.check(opts)?;
    (c.run)(opts)
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

/// The program version written into every output.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The build a summary's title names: version, commit and tree state
/// (`0.2.0 (commit 1a2b…)`), so that a table pasted elsewhere still says what made it.
pub fn build_label() -> String {
    crate::provenance::this_build().to_string()
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
        let table1 = ["LPA", "BATCH", "BATCH-U", "BATCH-PUB", "MINTIME", "MINAREA"];
        assert_eq!(labels(&moldable_table1::ALGOS).unwrap(), table1);
        assert_eq!(labels(&moldable_sweeps::ALGOS).unwrap(), table1);
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

    /// Every campaign of the catalogue is found by name, names are unique; an unknown name is
    /// refused with the list.
    #[test]
    fn run_knows_every_campaign() {
        for c in &CAMPAIGNS {
            assert_eq!(find(c.name).map(|f| f.name).ok(), Some(c.name));
            assert_eq!(CAMPAIGNS.iter().filter(|d| d.name == c.name).count(), 1);
        }
        let e = run("no-such", &Options::default()).unwrap_err().to_string();
        assert!(CAMPAIGNS.iter().all(|c| e.contains(c.name)), "{e}");
    }

    /// An option a campaign does not take is refused, naming it; one it takes is not.
    #[test]
    fn knobs_a_campaign_does_not_take_are_refused() {
        let eps = Options {
            eps: Some(Time::one()),
            ..Options::default()
        };
        let e = find("rigid-qbar")
            .unwrap()
            .check(&eps)
            .unwrap_err()
            .to_string();
        assert!(e.contains("`eps`") && e.contains("rigid-qbar"), "{e}");
        assert!(find("moldable-table1").unwrap().check(&eps).is_ok());
        let traces = Options {
            traces: vec![PathBuf::from("t.swf")],
            ..Options::default()
        };
        assert!(find("steal-sweep").unwrap().check(&traces).is_ok());
        assert!(find("steal-synthetic").unwrap().check(&traces).is_err());
    }
}
