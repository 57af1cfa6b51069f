//! `steal-sweep`: the node-stealing paper's Section 6.2 (Figures 9–11) — Baseline (conservative
//! backfilling) against SFSJ (H111) when the platform MTBF μ and the downtime D vary:
//! μ ∈ {20 min, 40 min, 1 h, 2 h, 5 h, 10 h} × D ∈ {10 min, 1 h, 1 day}, C = R = 5 min, on
//! the Mira windows of `../shared/traces` (jobs above 49,000 nodes reduced to 49,000, Section
//! 5.2), each point over `--sets` failure seeds (default 3).
//!
//! Reported per point, as the ratio SFSJ / Baseline of the seed means: the useful utilization
//! (Figure 9: above 1 favours SFSJ), the maximum flow of the largest size class (Figures 10–11:
//! below 1 favours SFSJ) and the size-weighted mean flow of all jobs. Measured as Section 5.3.3
//! says ([`crate::stealing::measure`]): `paper` (utilization on days 11–30, flows without the
//! first and last 20% of jobs in submission order) on a trace with 30 days of submissions, else
//! `scaled` (a 10-day window has no "days 11–30": its first third is left out and the window ends
//! at the last submission; flows pruned the same). The manifest names the rule of each trace.
//! Every run passes the independent checker
//! ([`crate::stealing::check`]), whose decomposition must equal the metrics'.
//!
//! Reading: the paper's workloads are Mira June 2017 and March 2018 and Intrepid June 2013, one
//! month each; ours are the two 10-day Mira windows of March 2018 shipped in `../shared`.
//!
//! `--quick`: the first 150 jobs of the first window, μ ∈ {1 h, 5 h}, D ∈ {10 min, 1 day}, one
//! seed.
use super::rigid_trace::trace_names;
use super::runner::{self, Cell};
use super::{fmt3, version, Options, Outcome};
use crate::error::{Error, Result};
use crate::render::plot::{self, Chart, Figure, LineChart, LinePlot, Series};
use crate::stealing::check::check;
use crate::stealing::measure::Measure;
use crate::stealing::metrics::{compute, Metrics};
use crate::stealing::{simulate, trace, FailureSource, Resilience, Variant, Workload};
use crate::time::Time;
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
    /// Wall-clock seconds of the simulation (informative only).
    #[serde(default)]
    pub seconds: f64,
}

/// A cell: one trace, one (μ, D), one failure seed, Baseline and SFSJ on the same failures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StealCell {
    pub key: String,
    pub trace: String,
    pub mtbf_min: u64,
    pub downtime_min: u64,
    pub seed: u64,
    pub jobs: usize,
    pub results: Vec<VariantResult>,
}

/// A downtime as the paper writes it: "10 min", "1 h", "1 day".
fn downtime_label(m: u64) -> String {
    if m >= 1440 && m % 1440 == 0 {
        let d = m / 1440;
        format!("{d} day{}", if d == 1 { "" } else { "s" })
    } else if m >= 60 && m % 60 == 0 {
        format!("{} h", m / 60)
    } else {
        format!("{m} min")
    }
}

fn minutes(m: u64) -> Time {
    Time::from_int(60).mul_int(m)
}

/// Runs Baseline and H111 on `w` with platform MTBF `mtbf_min` and downtime `downtime_min`
/// (minutes), Poisson failures seeded `seed`; both runs checked.
pub fn steal_cell(
    key: String,
    trace: String,
    w: &Workload,
    mtbf_min: u64,
    downtime_min: u64,
    seed: u64,
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
    for v in [Variant::Baseline, Variant::SFSJ] {
        let t0 = std::time::Instant::now();
        let failures = FailureSource::poisson(seed, &mtbf, w.nodes)?;
        let run = simulate(w, &res, failures, v)?;
        let seconds = t0.elapsed().as_secs_f64();
        let m: Metrics = compute(&run, &pruning);
        let totals = check(w, &res, &run, Some(m.window.clone()))
            .map_err(|e| Error::Limit(format!("{key} {v}: checker: {e}")))?;
        if totals.useful != m.decomposition.useful || totals.idle != m.decomposition.idle {
            return Err(Error::Limit(format!(
                "{key} {v}: the checker's decomposition differs from the metrics'"
            )));
        }
        let (largest_class, max_flow_largest) = m
            .classes
            .last()
            .map(|(k, f)| (*k, f.max.clone()))
            .ok_or_else(|| {
                Error::Limit(format!(
                    "{key} {v}: no job is left once the first and last 20% are pruned"
                ))
            })?;
        results.push(VariantResult {
            variant: v.to_string(),
            utilization: m.decomposition.utilization(),
            max_flow_largest,
            largest_class,
            weighted_mean_flow: m.all.weighted_mean.clone(),
            failures: m.stats.failures as u64,
            steals: m.stats.steals as u64,
            seconds,
        });
    }
    Ok(StealCell {
        key,
        trace,
        mtbf_min,
        downtime_min,
        seed,
        jobs: w.jobs.len(),
        results,
    })
}

/// The first `n` jobs of `w` in submission order.
fn first_jobs(mut w: Workload, n: usize) -> Workload {
    w.jobs.truncate(n);
    w
}

/// SFSJ / Baseline of a metric's mean over the cells (f64: display statistics).
fn ratio_of_means(cells: &[&StealCell], f: impl Fn(&VariantResult) -> &Time) -> f64 {
    let mean = |v: &str| {
        let xs: Vec<f64> = cells
            .iter()
            .filter_map(|c| c.results.iter().find(|r| r.variant == v))
            .map(|r| f(r).to_f64())
            .collect();
        xs.iter().sum::<f64>() / xs.len().max(1) as f64
    };
    let b = mean(&Variant::Baseline.to_string());
    let s = mean(&Variant::SFSJ.to_string());
    if b > 0.0 {
        s / b
    } else {
        f64::NAN
    }
}

/// The columns of `cells.csv`.
const CELL_HEADER: [&str; 12] = [
    "trace",
    "mtbf_min",
    "downtime_min",
    "seed",
    "variant",
    "utilization",
    "max_flow_largest_s",
    "largest_class",
    "weighted_mean_flow_s",
    "failures",
    "steals",
    "utilization_exact",
];

/// The columns of `summary.csv`.
const SUMMARY_HEADER: [&str; 8] = [
    "trace",
    "mtbf_min",
    "downtime_min",
    "seeds",
    "utilization_ratio",
    "max_flow_largest_ratio",
    "weighted_mean_flow_ratio",
    "mean_failures_baseline",
];

/// The summary rows of every point: `summary.csv`'s and `results.json`'s.
#[derive(Default)]
struct Summary {
    rows: Vec<Vec<String>>,
    json: Vec<serde_json::Value>,
}

/// The swept values: (MTBFs, downtimes), in minutes.
type Grid = (Vec<u64>, Vec<u64>);

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
    let workloads = load_workloads(opts)?;
    let manifest = serde_json::json!({
        "campaign": name, "version": version(), "seed": seed, "quick": opts.quick,
        "traces": workloads.iter().map(|(n, w)| serde_json::json!({"name": n, "jobs": w.jobs.len(), "nodes": w.nodes, "measure": sweep_measure(w).to_string()})).collect::<Vec<_>>(),
        "mtbf_minutes": mtbfs, "downtime_minutes": downs, "seeds": seeds, "checkpoint_minutes": 5, "recovery_minutes": 5,
        "max_job_nodes": MAX_JOB_NODES, "variants": ["Baseline", "H111"], "prune_jobs_pct": 20,
    });
    let cfg = opts.run_config(name);
    runner::prepare(&cfg.out, &manifest)?;
    let cells = cells(workloads.len(), &grid, seeds, seed);
    let (results, stats) = match runner::run_cells(&cfg, &cells, |c| {
        let (ti, m, d, s) = c.params;
        let (tn, w) = &workloads[ti];
        steal_cell(c.key.clone(), tn.clone(), w, m, d, s)
    })? {
        runner::Ran::Whole(r, s) => (r, s),
        runner::Ran::Shard(o) => return Ok(o),
    };
    let dir = cfg.out.clone();
    let mut files = vec![write_cells_csv(&dir, &results)?];
    let mut md = format!(
        "# {name} (resched {})\n\nseed {seed}, {seeds} failure seed(s) per point, C = R = 5 min, jobs ≤ {MAX_JOB_NODES} nodes; \
         ratios SFSJ (H111) / Baseline of the seed means (utilization: > 1 favours SFSJ; flows: < 1 favours SFSJ){}.\n\n",
        version(),
        if opts.quick { " (quick: the first 150 jobs of one window)" } else { "" }
    );
    let mut summary = Summary::default();
    // One row per trace: utilization, maximum flow of the largest jobs, weighted mean flow.
    let mut panels = Vec::new();
    for (tn, w) in &workloads {
        let (text, row) = trace_section(tn, w, &grid, &results, &mut summary);
        md.push_str(&text);
        panels.extend(row);
    }
    md.push_str(
        "The paper (Section 6.2, Mira and Intrepid months): utilization gains of 2–4% with D = 10 min, \
         larger for smaller MTBF, negligible with D = 1 day; the maximum flow of the largest jobs improves by \
         10–20% with D = 10 min and μ < 5 h.\n",
    );
    let p = dir.join("summary.csv");
    runner::write_csv(&p, &SUMMARY_HEADER, &summary.rows)?;
    files.push(p);
    runner::write_results_and_summary(&dir, &manifest, &summary.json, &results, &md, &mut files)?;
    let fig = Figure::grid(
        format!("{name}: SFSJ / Baseline against the MTBF (cf. Figures 9–11 of the node-stealing paper), seed {seed}"),
        3,
        panels,
    );
    files.extend(plot::write_both(&fig, &dir.join("figure9"))?);
    Ok(Outcome {
        dir,
        files,
        stats,
        markdown: md,
    })
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
/// submissions, else `scaled` (see [`crate::stealing::measure`]).
fn sweep_measure(w: &Workload) -> Measure {
    if Measure::Paper.pruning(w, "").is_ok() {
        Measure::Paper
    } else {
        Measure::Scaled
    }
}

/// The traces (`--trace`, else the shipped Mira windows; the first only with `--quick`), each
/// loaded with jobs above [`MAX_JOB_NODES`] reduced to it (the first 150 jobs with `--quick`).
fn load_workloads(opts: &Options) -> Result<Vec<(String, Workload)>> {
    let traces: Vec<PathBuf> = if opts.traces.is_empty() {
        let all = super::rigid_trace::default_traces();
        if opts.quick {
            all.into_iter().take(1).collect()
        } else {
            all
        }
    } else {
        opts.traces.clone()
    };
    let mut workloads = Vec::new();
    // Collision-free labels (file stem without .swf/.gz; the path where two stems agree): the
    // labels name the panels and the summary rows, so two traces must never share one.
    for (p, label) in traces.iter().zip(trace_names(&traces)) {
        let (w, _) = trace::load(
            p,
            trace::Sizing {
                max_job_nodes: Some(MAX_JOB_NODES),
                ..trace::Sizing::default()
            },
        )?;
        let w = if opts.quick { first_jobs(w, 150) } else { w };
        if w.jobs.is_empty() {
            return Err(Error::option(
                "--trace",
                format!("{}: no job to schedule", p.display()),
            ));
        }
        workloads.push((label, w));
    }
    Ok(workloads)
}

/// Writes `cells.csv` (every run × variant) into `dir`; returns its path.
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
                    r.variant.clone(),
                    r.utilization.to_f64().to_string(),
                    r.max_flow_largest.to_f64().to_string(),
                    r.largest_class.to_string(),
                    r.weighted_mean_flow.to_f64().to_string(),
                    r.failures.to_string(),
                    r.steals.to_string(),
                    r.utilization.to_string(),
                ]
            })
        })
        .collect();
    let p = dir.join("cells.csv");
    runner::write_csv(&p, &CELL_HEADER, &rows)?;
    Ok(p)
}

/// A panel of SFSJ / Baseline ratios against the platform MTBF in hours on a logarithmic axis
/// (Figures 9–11 put μ on a log scale), one series per downtime, a reference line at 1.
/// `note` goes under the title: what the paper's text says of this panel (Section 6.2 prints
/// ranges, not per-point values, so no paper curve is drawn).
fn panel(title: String, y_label: &str, series: Vec<Series>, note: &str) -> Chart {
    LinePlot::from(LineChart {
        title,
        x_label: "platform MTBF μ".into(),
        y_label: y_label.into(),
        series,
        y_range: None,
        reference: Some(1.0),
    })
    .log_x("h")
    .with_note(note)
    .into()
}

/// One trace's table (three ratios per downtime, one column per MTBF) and its two panels
/// (utilization, maximum flow of the largest jobs); its numbers also go into `summary`.
fn trace_section(
    tn: &str,
    w: &Workload,
    (mtbfs, downs): &Grid,
    results: &[StealCell],
    summary: &mut Summary,
) -> (String, Vec<Chart>) {
    let mut md = format!("## {tn}: {} jobs, {} nodes\n\n", w.jobs.len(), w.nodes);
    let mut header = vec!["D".to_string(), "ratio".to_string()];
    header.extend(mtbfs.iter().map(|m| format!("μ = {m} min")));
    let mut table = Vec::new();
    let mut util_series = Vec::new();
    let mut flow_series = Vec::new();
    let mut wflow_series = Vec::new();
    for &d in downs {
        let mut rows3: [Vec<String>; 3] = [
            vec![format!("{d} min"), "utilization".into()],
            vec![format!("{d} min"), "max flow, largest jobs".into()],
            vec![format!("{d} min"), "weighted mean flow".into()],
        ];
        let mut up = Vec::new();
        let mut fp = Vec::new();
        let mut wp = Vec::new();
        for &m in mtbfs {
            let cs: Vec<&StealCell> = results
                .iter()
                .filter(|c| c.trace == tn && c.mtbf_min == m && c.downtime_min == d)
                .collect();
            let u = ratio_of_means(&cs, |r| &r.utilization);
            let f = ratio_of_means(&cs, |r| &r.max_flow_largest);
            let wf = ratio_of_means(&cs, |r| &r.weighted_mean_flow);
            let fails = cs
                .iter()
                .flat_map(|c| c.results.first())
                .map(|r| r.failures as f64)
                .sum::<f64>()
                / cs.len().max(1) as f64;
            rows3[0].push(fmt3(u));
            rows3[1].push(fmt3(f));
            rows3[2].push(fmt3(wf));
            // MTBF in hours: the natural unit of the paper's figures (μ ∈ {20 min … 10 h}).
            let x = m as f64 / 60.0;
            up.push((x, u));
            fp.push((x, f));
            wp.push((x, wf));
            summary.rows.push(vec![
                tn.to_string(),
                m.to_string(),
                d.to_string(),
                cs.len().to_string(),
                u.to_string(),
                f.to_string(),
                wf.to_string(),
                fails.to_string(),
            ]);
            summary.json.push(serde_json::json!({"trace": tn, "mtbf_min": m, "downtime_min": d, "seeds": cs.len(),
                "utilization_ratio": u, "max_flow_largest_ratio": f, "weighted_mean_flow_ratio": wf, "mean_failures": fails}));
        }
        table.extend(rows3);
        util_series.push(Series::new(format!("D = {}", downtime_label(d)), up));
        flow_series.push(Series::new(format!("D = {}", downtime_label(d)), fp));
        wflow_series.push(Series::new(format!("D = {}", downtime_label(d)), wp));
    }
    md.push_str(&runner::markdown_table(&header, &table));
    md.push('\n');
    let util = panel(
        format!("{tn}: utilization SFSJ / Baseline"),
        "utilization ratio",
        util_series,
        "paper (Section 6.2.1 text): 1.02–1.04 with D = 10 min, ≈ 1 with D = 1 day",
    );
    let flow = panel(
        format!("{tn}: max flow of the largest jobs, SFSJ / Baseline"),
        "flow ratio",
        flow_series,
        "paper (Section 6.2.2 text): down to 0.8–0.9 with D = 10 min and μ < 5 h",
    );
    let wflow = panel(
        format!("{tn}: weighted mean flow, SFSJ / Baseline"),
        "flow ratio",
        wflow_series,
        "paper (Section 6.2.2 text): below 1 in every scenario",
    );
    (md, vec![util, flow, wflow])
}

#[cfg(test)]
mod tests {
    use super::downtime_label;

    #[test]
    fn downtimes_in_the_papers_units() {
        assert_eq!(downtime_label(10), "10 min");
        assert_eq!(downtime_label(60), "1 h");
        assert_eq!(downtime_label(90), "90 min");
        assert_eq!(downtime_label(1440), "1 day");
        assert_eq!(downtime_label(2880), "2 days");
    }
}
