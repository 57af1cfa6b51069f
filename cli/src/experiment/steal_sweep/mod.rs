//! `steal-sweep`: the node-stealing paper's Section 6.2 (Figures 9–11) — Baseline (conservative
//! backfilling) against SFSJ (H111) when the platform MTBF μ and the downtime D vary:
//! μ ∈ {20 min, 40 min, 1 h, 2 h, 5 h, 10 h} × D ∈ {10 min, 1 h, 1 day}, C = R = 5 min, on
//! the Mira windows of `../shared/traces` (jobs above 49,000 nodes reduced to 49,000, Section
//! 5.2), each point over `--sets` failure seeds (default 3) — and, at the grid point nearest
//! Section 6.1's μ = D = 1 h, the panels of Figures 3 and 6 (flows per size class, the
//! decomposition of platform time).
//!
//! Measured as Section 5.3.3 says ([`resched::stealing::measure`]): `paper` (utilization on days
//! 11–30, flows without the first and last 20% of jobs in submission order) on a trace with 30
//! days of submissions, else `scaled` (a 10-day window has no "days 11–30": its first third is
//! left out and the window ends at the last submission; flows pruned the same). The manifest
//! names the rule of each trace. Every run passes the independent checker
//! ([`resched::stealing::check`]), whose decomposition must equal the metrics'.
//!
//! Both readings of whether the plan foresees a down node's return
//! ([`resched::stealing::readings::NodeReturns`]) run on every cell, on the same failures: four
//! runs per cell (Baseline and SFSJ × `unforeseen`, the paper's and the default, and
//! `foreseen`). Ratios are SFSJ / Baseline of the seed means; the ± beside them is the standard
//! error of the per-seed paired ratios. The plan is compressed by one reading of
//! [`resched::stealing::Compression`] (option `compression`; default Batsched's, `completions`),
//! which the manifest and the summary name.
//!
//! Reading: the paper's workloads are Mira June 2017 and March 2018 and Intrepid June 2013, one
//! month each; ours are the two 10-day Mira windows of March 2018 shipped in `../shared`.
//!
//! `--quick`: the first 150 jobs of the first window, μ ∈ {1 h, 5 h}, D ∈ {10 min, 1 day}, one
//! seed. Files: this one runs the cells; `tables` aggregates them into the Markdown and CSV
//! summaries; `figures` draws the panels.
mod figures;
mod tables;

use super::rigid_trace::trace_names;
use super::runner::{self, Cell};
use super::{version, Options, Outcome};
use crate::render::plot;
use resched::error::{Error, Result};
use resched::stealing::check::check;
use resched::stealing::measure::Measure;
use resched::stealing::metrics::{compute, Decomposition, FlowStats, Metrics};
use resched::stealing::{
    simulate_read, trace, Compression, FailureSource, NodeReturns, Readings, Resilience, Variant,
    Workload,
};
use resched::time::Time;
use resched::workload::swf::SwfLog;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The MTBF values of Section 6.2, in minutes.
pub const MTBF_MIN: [u64; 6] = [20, 40, 60, 120, 300, 600];
/// The downtimes of Section 6.2, in minutes.
pub const DOWNTIME_MIN: [u64; 3] = [10, 60, 1440];

/// Largest job on Mira after the reduction of Section 5.2.
const MAX_JOB_NODES: u32 = 49_000;

/// One variant's numbers on one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantResult {
    pub variant: String,
    /// The reading of node returns ([`NodeReturns`]); empty in cells written before the reading
    /// existed, which ran `foreseen`.
    #[serde(default)]
    pub returns: String,
    /// Useful node-time / platform node-time, exact (`"a/b"`).
    pub utilization: Time,
    /// Largest flow of the jobs of the largest size class (seconds, exact).
    pub max_flow_largest: Time,
    /// Size class k of those jobs (p ∈ [2^k, 2^(k+1))).
    pub largest_class: u32,
    /// Σ p_j F_j / Σ p_j over the kept jobs (seconds, exact).
    pub weighted_mean_flow: Time,
    pub failures: u64,
    pub steals: u64,
    /// Failed jobs restarted at once on a free node (Table 5(b)'s "empty node").
    #[serde(default)]
    pub free_node_used: u64,
    /// Flows of the kept jobs per size class (Figure 6); empty in older cells.
    #[serde(default)]
    pub classes: Vec<(u32, FlowStats)>,
    /// The decomposition of platform time over the window (Figure 3); `None` in older cells.
    #[serde(default)]
    pub decomposition: Option<Decomposition>,
    /// Wall-clock seconds of the simulation (informative only).
    #[serde(default)]
    pub seconds: f64,
}

impl VariantResult {
    /// The reading this result ran under (older cells: `foreseen`, the only one then).
    pub fn reading(&self) -> NodeReturns {
        // The campaign writes only names `NodeReturns` prints, or nothing in older cells.
        debug_assert!(self.returns.is_empty() || self.returns.parse::<NodeReturns>().is_ok());
        // default: an empty field is a cell written before the reading existed: it ran `foreseen`
        self.returns.parse().unwrap_or(NodeReturns::Foreseen)
    }
}

/// A cell: one trace, one (μ, D), one failure seed; Baseline and SFSJ under both readings, on
/// the same failures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StealCell {
    pub key: String,
    pub trace: String,
    pub mtbf_min: u64,
    pub downtime_min: u64,
    pub seed: u64,
    pub jobs: usize,
    pub results: Vec<VariantResult>,
    /// Why the cell has no results: a run exceeded the simulator's budget of events or
    /// attempts ([`resched::stealing::limits::Budget`]), so the platform cannot carry the trace
    /// at this μ and D (see [`steal_cell`]). Absent from the cell files of a measured cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saturated: Option<String>,
}

fn minutes(m: u64) -> Time {
    Time::from_int(60).mul_int(m)
}

/// Runs Baseline and H111 under both readings of node returns, compressing by `compression`,
/// on `w` with platform MTBF `mtbf_min` and downtime `downtime_min` (minutes), Poisson failures
/// seeded `seed`; every run checked.
///
/// The swept μ are platform MTBFs, as in the paper, where D/μ nodes are down on average: 72
/// at most on Mira's 49,152, but more than a small machine has (`--trace`: μ = 20 min and
/// D = 1 day on 100 nodes). There a large job never finds its nodes up, and the run goes on
/// failing until the simulator's budget stops it ([`resched::stealing::limits::Budget`], the
/// only [`Error::Limit`] a simulation raises). Such a cell is kept as `saturated`, with the
/// budget's message and no results, instead of ending the campaign; the summary lists it and
/// its point has no ratio.
pub fn steal_cell(
    key: String,
    trace: String,
    w: &Workload,
    mtbf_min: u64,
    downtime_min: u64,
    seed: u64,
    compression: Compression,
) -> Result<StealCell> {
    let mtbf = minutes(mtbf_min);
    let res = Resilience {
        downtime: minutes(downtime_min),
        checkpoint: minutes(5),
        recovery: minutes(5),
        mtbf_ind: Some(mtbf.mul_int(u64::from(w.nodes))),
    };
    res.validate()?;
    let pruning = sweep_measure(w).pruning(w, &trace)?;
    let mut results = Vec::new();
    let mut saturated = None;
    'runs: for returns in NodeReturns::ALL {
        for v in [Variant::Baseline, Variant::SFSJ] {
            let t0 = std::time::Instant::now();
            let failures = FailureSource::poisson(seed, &mtbf, w.nodes)?;
            let readings = Readings {
                returns,
                compression,
            };
            let run = match simulate_read(w, &res, failures, v, readings) {
                Ok(run) => run,
                Err(Error::Limit(msg)) => {
                    // No ratio without every run: the cell keeps only why.
                    saturated = Some(format!("{v} ({returns}): {}", budget_reason(&msg, v)));
                    results.clear();
                    break 'runs;
                }
                Err(e) => return Err(e),
            };
            let seconds = t0.elapsed().as_secs_f64();
            let m: Metrics = compute(&run, &pruning);
            let what = format!("{key} {v} ({returns})");
            let totals = check(w, &res, &run, Some(m.window.clone()))
                .map_err(|e| Error::Limit(format!("{what}: checker: {e}")))?;
            if totals.useful != m.decomposition.useful || totals.idle != m.decomposition.idle {
                return Err(Error::Limit(format!(
                    "{what}: the checker's decomposition differs from the metrics'"
                )));
            }
            results.push(result(v, returns, &m, seconds, &what)?);
        }
    }
    Ok(StealCell {
        key,
        trace,
        mtbf_min,
        downtime_min,
        seed,
        jobs: w.jobs.len(),
        results,
        saturated,
    })
}

/// The simulator's budget message for a campaign's summary: without the variant it begins
/// with (the summary names the run) and without the advice to raise the event budget
/// (`max_events`), which the campaign does not take.
fn budget_reason(msg: &str, v: Variant) -> String {
    // default: a message that does not begin with the variant is kept from its start
    let msg = msg.strip_prefix(&format!("{v}: ")).unwrap_or(msg);
    // default: a message without the advice is kept whole
    let cut = msg.find("; the budget is").unwrap_or(msg.len());
    format!("{} (the default budget)", &msg[..cut])
}

/// The numbers kept of one run.
fn result(
    v: Variant,
    returns: NodeReturns,
    m: &Metrics,
    seconds: f64,
    what: &str,
) -> Result<VariantResult> {
    let (largest_class, max_flow_largest) = m
        .classes
        .last()
        .map(|(k, f)| (*k, f.max.clone()))
        .ok_or_else(|| {
            Error::Limit(format!(
                "{what}: no job is left once the first and last 20% are pruned"
            ))
        })?;
    Ok(VariantResult {
        variant: v.to_string(),
        returns: returns.to_string(),
        utilization: m.decomposition.utilization(),
        max_flow_largest,
        largest_class,
        weighted_mean_flow: m.all.weighted_mean.clone(),
        failures: m.stats.failures as u64,
        steals: m.stats.steals as u64,
        free_node_used: m.stats.free_node_used as u64,
        classes: m.classes.clone(),
        decomposition: Some(m.decomposition.clone()),
        seconds,
    })
}

/// The first `n` jobs of `w` in submission order.
fn first_jobs(mut w: Workload, n: usize) -> Workload {
    w.jobs.truncate(n);
    w
}

/// The columns of `cells.csv`.
const CELL_HEADER: [&str; 14] = [
    "trace",
    "mtbf_min",
    "downtime_min",
    "seed",
    "returns",
    "variant",
    "utilization",
    "max_flow_largest_s",
    "largest_class",
    "weighted_mean_flow_s",
    "failures",
    "steals",
    "free_node_used",
    "utilization_exact",
];

/// The swept values: (MTBFs, downtimes), in minutes.
pub type Grid = (Vec<u64>, Vec<u64>);

/// A cell's parameters: (trace index, MTBF, downtime, failure seed).
type Params = (usize, u64, u64, u64);

/// Runs the campaign.
pub fn run(opts: &Options) -> Result<Outcome> {
    let name = "steal-sweep";
    let grid: Grid = if opts.quick {
        (vec![60, 300], vec![10, 1440])
    } else {
        (MTBF_MIN.to_vec(), DOWNTIME_MIN.to_vec())
    };
    let (mtbfs, downs) = &grid;
    let seeds = opts.sets_or(3, 1)? as u64;
    let seed = opts.seed;
    // default: no compression reading given is the paper's, Batsched's
    let compression = opts.compression.unwrap_or_default();
    let workloads = load_workloads(opts)?;
    let manifest = serde_json::json!({
        "campaign": name, "version": version(), "seed": seed, "quick": opts.quick,
        "traces": workloads.iter().map(|(n, w)| serde_json::json!({"name": n, "jobs": w.jobs.len(), "nodes": w.nodes, "measure": sweep_measure(w).to_string()})).collect::<Vec<_>>(),
        "mtbf_minutes": mtbfs, "downtime_minutes": downs, "seeds": seeds, "checkpoint_minutes": 5, "recovery_minutes": 5,
        "max_job_nodes": MAX_JOB_NODES, "variants": ["Baseline", "H111"], "prune_jobs_pct": 20,
        "node_returns": NodeReturns::ALL.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
        "compression": compression.to_string(),
    });
    let cfg = opts.run_config(name);
    runner::prepare(&cfg.out, &manifest)?;
    let cells = cells(workloads.len(), &grid, seeds, seed);
    let (results, stats) = match runner::run_cells(&cfg, &cells, |c| {
        let (ti, m, d, s) = c.params;
        let (tn, w) = &workloads[ti];
        steal_cell(c.key.clone(), tn.clone(), w, m, d, s, compression)
    })? {
        runner::Ran::Whole(r, s) => (r, s),
        runner::Ran::Shard(o) => return Ok(o),
    };
    let dir = cfg.out.clone();
    let mut files = vec![write_cells_csv(&dir, &results)?];
    let seeds_words = if seeds == 1 {
        "1 failure seed".to_string()
    } else {
        format!("{seeds} failure seeds")
    };
    let intro = format!(
        "# {name} (resched {})\n\nseed {seed}, {seeds_words} per point, C = R = 5 min, jobs ≤ {MAX_JOB_NODES} nodes; \
         ratios SFSJ (H111) / Baseline of the seed means, ± the standard error of the per-seed ratios \
         (utilization: > 1 favours SFSJ; flows: < 1 favours SFSJ){}. Both readings of node returns \
         (`unforeseen`, the default: the node is out of the plan until it is back, Section 5.1's \
         Batsched; `foreseen`: the plan counts on a struck node from the end of its downtime); \
         the plan compressed at {} (parameter `compression`, docs/reference/readings.md).\n\n",
        crate::experiment::build_label(),
        if opts.quick { " (quick: the first 150 jobs of one window)" } else { "" },
        compression_label(compression),
    );
    let summary = tables::summarize(&workloads, &grid, &results);
    let md = format!("{intro}{}", summary.markdown);
    files.push(tables::write_summary_csv(&dir, &summary)?);
    runner::write_results_and_summary(&dir, &manifest, &summary.json, &results, &md, &mut files)?;
    let seeds_label =
        format!("{seeds_words} per point from seed {seed}, compression at {compression}");
    for (stem, fig) in figures::figures(&workloads, &grid, &results, &seeds_label) {
        files.extend(plot::write_both(&fig, &dir.join(stem))?);
    }
    Ok(Outcome {
        dir,
        files,
        stats,
        markdown: md,
    })
}

/// The compression reading as the summaries name it.
pub fn compression_label(c: Compression) -> String {
    match c {
        Compression::Completions => {
            format!("`{c}` (Batsched's rule, the default: new jobs inserted first-fit)")
        }
        Compression::CompletionsAndArrivals => {
            format!("`{c}` (resched's first reading, not the default)")
        }
    }
}

/// The cells: trace × downtime × MTBF × failure seed (campaign seed + k, wrapping).
fn cells(traces: usize, (mtbfs, downs): &Grid, seeds: u64, seed: u64) -> Vec<Cell<Params>> {
    let mut cells = Vec::new();
    for ti in 0..traces {
        for &d in downs {
            for &m in mtbfs {
                for s in 0..seeds {
                    cells.push(Cell {
                        key: format!("t{ti}-D{d}-M{m}-s{s}"),
                        params: (ti, m, d, seed.wrapping_add(s)),
                    });
                }
            }
        }
    }
    cells
}

/// The measurement rule of a trace: Section 5.3.3's `paper` when the trace has 30 days of
/// submissions, else `scaled` (see [`resched::stealing::measure`]).
fn sweep_measure(w: &Workload) -> Measure {
    if Measure::Paper.pruning(w, "").is_ok() {
        Measure::Paper
    } else {
        Measure::Scaled
    }
}

/// The traces (`--trace`), each
/// loaded with jobs above [`MAX_JOB_NODES`] reduced to it (the first 150 jobs with `--quick`);
/// a machine of at most 49,000 nodes has no such job, and is loaded as it is.
fn load_workloads(opts: &Options) -> Result<Vec<(String, Workload)>> {
    let traces = super::rigid_trace::given_traces(opts, "steal-sweep")?;
    let mut workloads = Vec::new();
    // Collision-free labels (file stem without .swf/.gz; the path where two stems agree): the
    // labels name the panels and the summary rows, so two traces must never share one.
    for (p, label) in traces.iter().zip(trace_names(&traces)) {
        let log = SwfLog::load(p)?;
        let (w, _) = trace::from_swf(&log, trace::Sizing::default())?;
        // Jobs above 49,000 nodes are reduced to it: only a machine larger than that has any
        // (`--max-job-nodes` above the platform is refused, as a user's would be).
        let w = if w.nodes > MAX_JOB_NODES {
            let reduced = trace::Sizing {
                max_job_nodes: Some(MAX_JOB_NODES),
                ..trace::Sizing::default()
            };
            trace::from_swf(&log, reduced)?.0
        } else {
            w
        };
        let w = if opts.quick { first_jobs(w, 150) } else { w };
        if w.jobs.is_empty() {
            return Err(Error::param(
                "traces",
                format!("{}: no job to schedule", p.display()),
            ));
        }
        workloads.push((label, w));
    }
    Ok(workloads)
}

/// Writes `cells.csv` (every run × reading × variant) into `dir`; returns its path.
fn write_cells_csv(dir: &Path, results: &[StealCell]) -> Result<PathBuf> {
    let rows: Vec<Vec<String>> = results
        .iter()
        .flat_map(|c| {
            c.results.iter().map(move |r| {
                vec![
                    c.trace.clone(),
                    c.mtbf_min.to_string(),
                    c.downtime_min.to_string(),
                    c.seed.to_string(),
                    r.reading().to_string(),
                    r.variant.clone(),
                    r.utilization.to_f64().to_string(),
                    r.max_flow_largest.to_f64().to_string(),
                    r.largest_class.to_string(),
                    r.weighted_mean_flow.to_f64().to_string(),
                    r.failures.to_string(),
                    r.steals.to_string(),
                    r.free_node_used.to_string(),
                    r.utilization.to_string(),
                ]
            })
        })
        .collect();
    let p = dir.join("cells.csv");
    runner::write_csv(&p, &CELL_HEADER, &rows)?;
    Ok(p)
}
