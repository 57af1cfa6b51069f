//! `rigid-trace`: the rigid paper's Table 1 (Section 5.4) for any SWF trace: the trace is split
//! into days by submit time ([`resched::workload::swf::SwfLog::split_days`]), each day is a job
//! set on the trace's P, and R-List-0/1/Q and R-ShelfFill-B/NB with LPT run on scenarios drawn
//! with q̄ = 0, 0.05 and 0.1 (1000 scenarios per day, as Section 5.1 says for both settings),
//! with R-List-1 and R-List-Q also run with their reservations kept (the paper's simulator's
//! reading, [`super::rigid_sweep::KEPT`]). The algorithms are catalogue names; the columns
//! are the catalogue's labels.
//!
//! Table 1's columns, per trace and q̄: the average number of failures per scenario; the
//! average makespan ratio (mean over days of each day's expected ratio); its standard deviation
//! (over days — our reading: with q̄ = 0 there is one scenario per day, so only the spread over
//! days can be meant); the maximum ratio (over every day and scenario).
//!
//! The paper used the 30 days of June 2019 on Mira (66–277 jobs a day); the shared traces are
//! two 10-day windows of March 2018 whose first and last days are partial (jobs that were
//! already running when the window opened). Days with fewer than `--min-jobs` jobs (default
//! 20) are left out and counted. Jobs larger than P are dropped (none on Mira: P = 49152).
//! `manifest.json` lists, per trace, the job lines the SWF cleaning rule dropped, in total
//! and by reason (run time, processor count, submit time), and the oversize jobs dropped.
//!
//! `--quick`: the first 2 eligible days of each trace, 3 scenarios.
use super::eval;
use super::rigid_sweep::{heuristic_styles, rigid_cell, RigidCell, KEPT};
use super::runner::{self, Cell};
use super::verdict::{self, se_from_pop_std, Estimate, Paper, Tolerance};
use super::{fmt3, labels, version, Options, Outcome};
use crate::render::plot::{self, BarChart, BarSeries, Chart, Figure, LineChart, LinePlot, Series};
use resched::error::{Error, Result};
use resched::model::Instance;
use resched::schedulers::Priority;
use resched::workload::swf::{Oversize, SwfLog};
use std::path::{Path, PathBuf};

/// The five heuristics of Table 1 (catalogue names): R-List-0/1/Q, R-ShelfFill-B/NB.
pub const TABLE1: [&str; 5] = [
    "greedy",
    "easy",
    "conservative",
    "r-shelffill-b",
    "r-shelffill-nb",
];

/// What runs on every day: the five heuristics of Table 1, then R-List-1 and R-List-Q with
/// their reservations kept (the paper's simulator's reading, [`super::rigid_sweep::KEPT`]).
pub fn algorithms() -> Vec<&'static str> {
    TABLE1.into_iter().chain(KEPT).collect()
}

/// The q̄ values of Table 1.
pub const QBARS: [f64; 3] = [0.0, 0.05, 0.1];

/// The paper's Table 1 (Mira, June 2019, LPT): q̄, average #failures, then average ratio,
/// standard deviation and maximum for R-List-0, 1, Q, R-ShelfFill-B, NB.
pub type PaperRow = (f64, f64, [f64; 5], [f64; 5], [f64; 5]);

/// Table 1 of the rigid paper, row by row.
pub const PAPER: [PaperRow; 3] = [
    (
        0.0,
        0.0,
        [1.067, 1.051, 1.051, 1.407, 1.441],
        [8.78e-2, 8.19e-2, 8.17e-2, 1.27e-1, 1.42e-1],
        [1.425, 1.425, 1.425, 1.633, 1.760],
    ),
    (
        0.05,
        15.2913,
        [1.031, 1.049, 1.061, 1.105, 1.117],
        [6.79e-2, 6.87e-2, 7.78e-2, 1.20e-1, 1.32e-1],
        [1.278, 1.292, 1.292, 1.475, 1.495],
    ),
    (
        0.1,
        254.453,
        [1.016, 1.025, 1.028, 1.052, 1.054],
        [4.66e-2, 4.54e-2, 4.97e-2, 8.97e-2, 9.28e-2],
        [1.249, 1.224, 1.245, 1.391, 1.407],
    ),
];

/// The traces the paper's evaluation is reproduced on: the two Mira windows of March 2018 (not
/// shipped with resched: docs/guide/traces.md says where to get them).
pub const MIRA_WINDOWS: [&str; 2] = [
    "Mira-2018-03-02-10days.swf.gz",
    "Mira-2018-03-16-10days.swf.gz",
];

/// The traces of a trace campaign: the ones given, or an error that says which to give (the
/// library reads no file the caller did not name).
pub fn given_traces(opts: &Options, campaign: &str) -> Result<Vec<PathBuf>> {
    if opts.traces.is_empty() {
        return Err(Error::param(
            "traces",
            format!(
                "{campaign} needs at least one SWF trace (.swf or .swf.gz); the paper's are the \
                 Mira windows {} and {}",
                MIRA_WINDOWS[0], MIRA_WINDOWS[1]
            ),
        ));
    }
    Ok(opts.traces.clone())
}

/// A trace's file name without `.swf` / `.swf.gz` (its label in tables).
pub(super) fn short_name(p: &Path) -> String {
    let n = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        // default: a path with no file name is shown as empty
        .unwrap_or_default();
    // Each known extension at most once, and nothing before it: `a.1.swf` and `a.2.swf` keep
    // their distinct stems (a cut at the first dot would give both `a`).
    let n = n.strip_suffix(".gz").unwrap_or(&n); // default: not gzipped, the name as it is
    n.strip_suffix(".swf").unwrap_or(n).to_string() // default: no .swf, the name as it is
}

/// The traces' labels: each file's [`short_name`], or, where two traces share one (the same
/// file name in two directories), the path as given, so that no two tables, figures or summary
/// rows carry the same name.
pub(super) fn trace_names(paths: &[PathBuf]) -> Vec<String> {
    let short: Vec<String> = paths.iter().map(|p| short_name(p)).collect();
    short
        .iter()
        .zip(paths)
        .map(|(n, p)| {
            if short.iter().filter(|m| *m == n).count() > 1 {
                p.display().to_string()
            } else {
                n.clone()
            }
        })
        .collect()
}

/// One eligible day of a trace: (trace index, day, the day's jobs).
type TraceDay = (usize, i64, Instance);

/// Default of `--max-expected-failures`: the largest expected failure count q_j/(1−q_j) of one
/// job in a (day, q̄) cell. The q̄ law gives q_j = 1 − e^(−λ·a_j) with λ set by the day's mean
/// area, so one job much larger than the day's others (a 2048-processor, 10-hour job on a day of
/// small jobs) expects millions of failures: the run takes hours and its ratio is ≈ 1 (that
/// one job's chain is the whole schedule). The Mira windows stay far below 1000.
pub const MAX_EXPECTED_FAILURES: f64 = 1000.0;

/// What `rigid-trace` does with (day, q̄) cells above `--max-expected-failures`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Excess {
    /// Leave them out, listed on stderr before the run and in `summary.md` and the manifest.
    Skip,
    /// Stop before running, listing them.
    Refuse,
}

impl std::str::FromStr for Excess {
    type Err = Error;
    fn from_str(s: &str) -> Result<Excess> {
        match s {
            "skip" => Ok(Excess::Skip),
            "refuse" => Ok(Excess::Refuse),
            _ => Err(Error::param(
                "on_excess",
                format!("`{s}`: expected skip or refuse"),
            )),
        }
    }
}

/// A (day, q̄) cell above the bound: where, and its worst job.
#[derive(Debug, Clone)]
struct Excessive {
    trace: usize,
    day: i64,
    qbar: f64,
    job: String,
    expected: f64,
}

/// The largest expected failure count of one job of `inst` under the q̄ law, and that job:
/// q_j/(1−q_j) = e^(λ·a_j) − 1 with λ = −ln(1−q̄)/mean area (the law of
/// [`FailureLaw::rigid_qbar`], written out so that a job whose q_j rounds to 1 in floating point
/// is reported with its count instead of failing the whole campaign).
fn worst_expected(inst: &Instance, qbar: f64) -> (usize, f64) {
    let areas: Vec<f64> = inst
        .jobs
        .iter()
        .map(|j| j.as_rigid().map_or(0.0, |(p, t)| f64::from(p) * t.to_f64()))
        .collect();
    let mean = areas.iter().sum::<f64>() / areas.len().max(1) as f64;
    let lambda = -(-qbar).ln_1p() / mean;
    areas
        .iter()
        .map(|a| (lambda * a).exp_m1())
        .enumerate()
        .fold((0, 0.0f64), |w, b| if b.1 > w.1 { b } else { w })
}

/// The (q̄ index, day index) cells to run, and the cells left out.
type Screened = (Vec<(usize, usize)>, Vec<Excessive>);

/// Splits the (q̄, day) cells into those to run and those whose largest expected failure count
/// exceeds `max` (validated: a finite count in [1, 10^15], below where q_j rounds to 1).
fn screen(days: &[TraceDay], max: f64) -> Result<Screened> {
    if !(max.is_finite() && (1.0..=1e15).contains(&max)) {
        return Err(Error::param(
            "max_expected_failures",
            if max.is_finite() {
                format!("{max} must be a count in [1, 1e15]")
            } else {
                "a value beyond a double's range must be a count in [1, 1e15]".to_string()
            },
        ));
    }
    let (mut keep, mut excess) = (Vec::new(), Vec::new());
    for (qi, &q) in QBARS.iter().enumerate() {
        for (di, (ti, day, inst)) in days.iter().enumerate() {
            let (j, expected) = worst_expected(inst, q);
            // NaN (no job) is not above the bound; an infinite count is.
            if expected > max {
                excess.push(Excessive {
                    trace: *ti,
                    day: *day,
                    qbar: q,
                    job: inst.jobs[j].name.clone(),
                    expected,
                });
            } else {
                keep.push((qi, di));
            }
        }
    }
    Ok((keep, excess))
}

/// One line per excessive cell.
fn describe_excess(traces: &[PathBuf], excess: &[Excessive]) -> String {
    excess
        .iter()
        .map(|e| {
            let count = if e.expected.is_finite() {
                format!("{:.3e}", e.expected)
            } else {
                "more than 1e308".to_string()
            };
            format!(
                "{} day {}, q̄ = {}: job {} expects {count} failures\n",
                traces[e.trace].display(),
                e.day,
                e.qbar,
                e.job,
            )
        })
        .collect()
}

/// Runs the campaign.
pub fn run(opts: &Options) -> Result<Outcome> {
    let name = "rigid-trace";
    let traces = given_traces(opts, name)?;
    // default: --min-jobs 20 (documented)
    let min_jobs = opts.min_jobs.unwrap_or(20);
    let scenarios = opts.scenarios_or(1000, 3)?;
    // --sets bounds the days per trace: by default every day, or 2 with --quick.
    let max_days = opts.sets_or(usize::MAX, 2)?;
    let (days, trace_info) = load_days(&traces, min_jobs, max_days)?;
    // default: --max-expected-failures 1000 (documented)
    let max_expected = opts.max_expected_failures.unwrap_or(MAX_EXPECTED_FAILURES);
    let (keep, excess) = screen(&days, max_expected)?;
    let excess_text = describe_excess(&traces, &excess);
    if !excess.is_empty() {
        if opts.on_excess == Excess::Refuse {
            return Err(Error::Limit(format!(
                "rigid-trace: {} (day, q̄) cells expect more than {max_expected} failures of one job (`max_expected_failures`); `on_excess` skip leaves them out:\n{excess_text}",
                excess.len()
            )));
        }
        crate::err!(
            "rigid-trace: skipping {} (day, q̄) cells whose largest expected failure count exceeds {max_expected} (`max_expected_failures`):\n{excess_text}",
            excess.len()
        );
    }
    if keep.is_empty() {
        return Err(Error::Limit(format!(
            "rigid-trace: every (day, q̄) cell expects more than {max_expected} failures of one job (`max_expected_failures`)"
        )));
    }
    let algos = algorithms();
    let columns = labels(&algos)?;
    let names = trace_names(&traces);
    let manifest = serde_json::json!({
        "campaign": name, "version": version(), "seed": opts.seed, "quick": opts.quick,
        "scenarios": scenarios, "qbar": QBARS, "priority": "LPT", "traces": trace_info,
        "heuristics": columns, "max_expected_failures": max_expected,
        "skipped": excess.iter().map(|e| serde_json::json!({
            "trace": names[e.trace], "day": e.day, "qbar": e.qbar,
            "job": e.job, "expected_failures": if e.expected.is_finite() { serde_json::json!(e.expected) } else { serde_json::json!("more than 1e308") },
        })).collect::<Vec<_>>(),
    });
    let cfg = opts.run_config(name);
    runner::prepare(&cfg.out, &manifest)?;
    let cells: Vec<Cell<(usize, f64, i64, &Instance)>> = keep
        .iter()
        .map(|&(qi, di)| {
            let (ti, day, inst) = &days[di];
            Cell {
                key: format!("t{ti}-q{qi}-d{day:04}"),
                params: (*ti, QBARS[qi], *day, inst),
            }
        })
        .collect();
    let seed = opts.seed;
    let (results, stats) = match runner::run_cells(&cfg, &cells, |c| {
        let (ti, q, day, inst) = c.params;
        // Scenario streams keyed by (seed, trace·2^20 + day, k): distinct for every day of every trace.
        let set = ((ti as u64) << 20) + day as u64;
        rigid_cell(
            c.key.clone(),
            format!("{} day {day}", names[ti]),
            q,
            inst,
            q,
            seed,
            set,
            scenarios,
            &algos,
            &[Priority::Lpt],
        )
    })? {
        runner::Ran::Whole(r, s) => (r, s),
        runner::Ran::Shard(o) => return Ok(o),
    };
    let dir = cfg.out.clone();
    let mut files = vec![write_cells_csv(&dir, &results)?];
    let mut md = header(seed, scenarios, min_jobs);
    if !excess.is_empty() {
        md.push_str(&format!(
            "Left out ({} cells: one job expects more than {max_expected} failures, `max_expected_failures`):\n\n{}\n",
            excess.len(),
            excess_text.lines().map(|l| format!("- {l}\n")).collect::<String>()
        ));
    }
    let mut summary = Summary::default();
    let stems = super::file_stems(
        &names
            .iter()
            .map(|n| format!("days-{n}"))
            .collect::<Vec<_>>(),
    );
    for (ti, (tn, stem)) in names.iter().zip(&stems).enumerate() {
        let of_trace: Vec<&RigidCell> = results
            .iter()
            .filter(|c| c.key.starts_with(&format!("t{ti}-")))
            .collect();
        md.push_str(&trace_table(tn, &of_trace, &columns, &mut summary));
        files.extend(plot::write_both(
            &days_figure(tn, &of_trace, &columns),
            &dir.join(stem),
        )?);
        files.extend(plot::write_both(
            &table1_figure(tn, &of_trace, &columns),
            &dir.join(stem.replacen("days-", "table1-", 1)),
        )?);
    }
    let p = dir.join("summary.csv");
    runner::write_csv(&p, &SUMMARY_HEADER, &summary.rows)?;
    files.push(p);
    runner::write_results_and_summary(&dir, &manifest, &summary.json, &results, &md, &mut files)?;
    Ok(Outcome {
        dir,
        files,
        stats,
        markdown: md,
    })
}

/// The Markdown summary's title and how to read its tables.
fn header(seed: u64, scenarios: usize, min_jobs: usize) -> String {
    format!(
        "# rigid-trace (resched {})\n\nseed {seed}, {scenarios} scenarios per day, LPT; days with ≥ {min_jobs} jobs. \
         Each entry: average ± std (max): average = mean over days of the expected ratio; std = over days; max = over all days and scenarios. \
         R-List-1-kept and R-List-Q-kept keep their reservations until the job starts (the paper's simulator; not in Table 1).\n\n",
        super::build_label()
    )
}

/// Loads every trace and keeps its first `max_days` days with at least `min_jobs` jobs; returns
/// the days and, per trace, what the manifest records about it.
fn load_days(
    traces: &[PathBuf],
    min_jobs: usize,
    max_days: usize,
) -> Result<(Vec<TraceDay>, Vec<serde_json::Value>)> {
    let mut days: Vec<TraceDay> = Vec::new();
    let mut trace_info = Vec::new();
    for (ti, path) in traces.iter().enumerate() {
        let log = SwfLog::load(path)?;
        let procs = log.platform_procs().ok_or_else(|| {
            Error::invalid(&path.display().to_string(), "jobs", "no job to schedule")
        })?;
        let split = log.split_days(procs, Oversize::Drop)?;
        let total = split.days.len();
        let kept: Vec<_> = split
            .days
            .into_iter()
            .filter(|d| d.instance.len() >= min_jobs)
            .take(max_days)
            .collect();
        trace_info.push(serde_json::json!({
            "file": path.display().to_string(), "procs": procs, "jobs": log.jobs.len(),
            "dropped_by_cleaning": log.dropped.total(), "dropped_by_reason": log.dropped,
            "oversize_dropped": split.oversize,
            "days": total, "days_used": kept.len(), "min_jobs": min_jobs,
        }));
        for d in kept {
            days.push((ti, d.day, d.instance));
        }
    }
    if days.is_empty() {
        return Err(Error::param(
            "trace",
            format!(
                "no day of {} has at least {min_jobs} jobs (see `min_jobs`)",
                traces
                    .iter()
                    .map(|t| t.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok((days, trace_info))
}

/// The columns of `cells.csv`.
const CELL_HEADER: [&str; 11] = [
    "trace",
    "day",
    "qbar",
    "jobs",
    "algo",
    "scenarios",
    "mean_ratio",
    "std_ratio",
    "max_ratio_exact",
    "max_ratio",
    "mean_failures",
];

/// The columns of `summary.csv`.
const SUMMARY_HEADER: [&str; 8] = [
    "trace",
    "qbar",
    "algo",
    "days",
    "mean_failures",
    "mean_ratio",
    "std_over_days",
    "max_ratio",
];

/// Writes `cells.csv` (every day × q̄ × heuristic) into `dir`; returns its path.
fn write_cells_csv(dir: &Path, results: &[RigidCell]) -> Result<PathBuf> {
    let cell_rows: Vec<Vec<String>> = results
        .iter()
        .flat_map(|c| {
            // The key's first part, `t<trace>`.
            let trace = c
                .key
                .split_once('-')
                .map_or(c.key.as_str(), |k| k.0)
                .to_string();
            c.stats.iter().map(move |s| {
                vec![
                    trace.clone(),
                    c.label.clone(),
                    c.qbar.to_string(),
                    c.jobs.to_string(),
                    s.algo.clone(),
                    s.scenarios.to_string(),
                    s.mean.to_string(),
                    s.std.to_string(),
                    s.max.to_string(),
                    s.max_f64.to_string(),
                    c.mean_failures.to_string(),
                ]
            })
        })
        .collect();
    let p = dir.join("cells.csv");
    runner::write_csv(&p, &CELL_HEADER, &cell_rows)?;
    Ok(p)
}

/// The summary rows of every trace: `summary.csv`'s and `results.json`'s.
#[derive(Default)]
struct Summary {
    rows: Vec<Vec<String>>,
    json: Vec<serde_json::Value>,
}

/// Table 1 for one trace, `columns` (the heuristics' labels) as columns, "average ± std (max)"
/// per entry, each q̄ beside the paper's row; its numbers also go into `summary`.
fn trace_table(
    tn: &str,
    of_trace: &[&RigidCell],
    columns: &[&str],
    summary: &mut Summary,
) -> String {
    let ndays = of_trace.iter().filter(|c| c.qbar == 0.0).count();
    let njobs = of_trace
        .iter()
        .filter(|c| c.qbar == 0.0)
        .map(|c| c.jobs)
        .sum::<usize>() as f64
        / ndays.max(1) as f64;
    let mut md = format!("## {tn}: {ndays} days, {njobs:.2} jobs per day on average\n\n");
    let mut header: Vec<String> = vec!["q̄".into(), "source".into(), "avg #failures".into()];
    header.extend(columns.iter().map(|h| h.to_string()));
    let cell = |m: f64, sd: f64, mx: f64| format!("{} ± {sd:.2e} ({})", fmt3(m), fmt3(mx));
    let mut rows = Vec::new();
    let mut judged = Vec::new();
    for (qi, &q) in QBARS.iter().enumerate() {
        let mut verdicts = vec![q.to_string()];
        let cs: Vec<&&RigidCell> = of_trace.iter().filter(|c| c.qbar == q).collect();
        let (fails, _, _) = eval::summary(cs.iter().map(|c| c.mean_failures));
        let mut r = vec![q.to_string(), "resched".into(), format!("{fails:.2}")];
        if cs.is_empty() {
            // Every day of this q̄ was left out (--max-expected-failures): no statistic, and no
            // NaN in the table, the CSV or the JSON.
            r[2] = "no day left".into();
            r.extend(columns.iter().map(|_| "–".to_string()));
        }
        for h in columns.iter().filter(|_| !cs.is_empty()) {
            let per_day: Vec<&eval::AlgoStats> = cs
                .iter()
                .filter_map(|c| c.stats.iter().find(|s| s.algo == *h))
                .collect();
            let (m, sd, _) = eval::summary(per_day.iter().map(|s| s.mean));
            if let Some(i) = columns
                .iter()
                .position(|c| c == h)
                .filter(|&i| i < TABLE1.len())
            {
                let est = Estimate {
                    value: m,
                    se: se_from_pop_std(sd, per_day.len()),
                };
                let p = PAPER[qi].2[i];
                let v = verdict::judge(Paper::Value(p), est, Tolerance::PRINTED);
                verdicts.push(format!("{} ({:+.1}%)", v.text(), 100.0 * (m / p - 1.0)));
            }
            let max = per_day
                .iter()
                .map(|s| s.max_f64)
                .fold(f64::NEG_INFINITY, f64::max);
            r.push(cell(m, sd, max));
            summary.json.push(serde_json::json!({"trace": tn, "qbar": q, "algo": h, "days": per_day.len(), "mean_failures": fails, "mean": m, "std_over_days": sd, "max": max}));
            summary.rows.push(vec![
                tn.to_string(),
                q.to_string(),
                h.to_string(),
                per_day.len().to_string(),
                fails.to_string(),
                m.to_string(),
                sd.to_string(),
                max.to_string(),
            ]);
        }
        rows.push(r);
        let (pq, pf, pa, ps, pm) = PAPER[qi];
        let mut r = vec![
            pq.to_string(),
            "paper (Mira 06/2019)".into(),
            format!("{pf}"),
        ];
        r.extend((0..TABLE1.len()).map(|i| cell(pa[i], ps[i], pm[i])));
        r.extend(KEPT.iter().map(|_| "–".to_string()));
        rows.push(r);
        if verdicts.len() > 1 {
            judged.push(verdicts);
        }
    }
    md.push_str(&runner::markdown_table(&header, &rows));
    md.push_str(&format!(
        "\nVerdicts: the mean over days {} of the paper's (± se over days; the paper's days are June 2019's):\n\n",
        Tolerance::PRINTED.text()
    ));
    let mut vh = vec!["q̄".to_string()];
    vh.extend(columns.iter().take(TABLE1.len()).map(|h| h.to_string()));
    md.push_str(&runner::markdown_table(&vh, &judged));
    md.push('\n');
    md
}

/// The mean ratio of heuristic `h` (a label) on one day cell (NaN when it did not run).
fn day_mean(c: &RigidCell, h: &str) -> f64 {
    c.stats
        .iter()
        .find(|s| s.algo == h)
        .map_or(f64::NAN, |s| s.mean)
}

/// The y range of a bar chart of ratios: from a little below 1 (a ratio to the lower bound is
/// at least 1, so bars from 0 would flatten every difference that matters) to above the
/// largest value.
fn ratio_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((1.0f64, 1.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let span = (hi - lo).max(0.05);
    ((lo - 0.1 * span).max(0.0), hi + 0.1 * span)
}

/// Like Table 1, as a figure: each heuristic's mean ratio over the trace's days against q̄
/// (± one standard deviation over days), beside the paper's published Table 1 (Mira, June
/// 2019: average ± standard deviation, hollow markers) for the five heuristics it reports.
fn table1_figure(tn: &str, of_trace: &[&RigidCell], columns: &[&str]) -> Figure {
    let ours: Vec<Series> = columns
        .iter()
        .map(|h| {
            let per_q: Vec<(f64, f64, f64)> = QBARS
                .iter()
                .filter_map(|&q| {
                    let (m, sd, _) = eval::summary(
                        of_trace
                            .iter()
                            .filter(|c| c.qbar == q)
                            .map(|c| day_mean(c, h))
                            .filter(|v| v.is_finite()),
                    );
                    m.is_finite().then_some((q, m, sd))
                })
                .collect();
            Series {
                label: h.to_string(),
                points: per_q.iter().map(|&(q, m, _)| (q, m)).collect(),
                err: Some(per_q.iter().map(|&(_, _, sd)| sd).collect()),
            }
        })
        .collect();
    let mut plot = LinePlot::from(LineChart {
        title: format!("{tn}: mean over days (like Table 1)"),
        x_label: "q̄".into(),
        y_label: "normalized makespan (LPT)".into(),
        series: ours,
        y_range: None,
        reference: Some(1.0),
        styles: heuristic_styles(columns),
    })
    .with_note(
        "bars: ± 1 std over days; hollow, dashed: the paper's Table 1 averages (Mira, June 2019)",
    );
    for (k, h) in TABLE1.iter().enumerate() {
        let Ok(label) = resched::oracle::catalogue::label(h) else {
            continue;
        };
        let Some(i) = columns.iter().position(|c| *c == label) else {
            continue;
        };
        let paper = Series {
            label: format!("{label} (paper)"),
            // The paper's standard deviations stay in summary.md: twelve sets of bars at three
            // x positions would hide the means.
            points: PAPER.iter().map(|r| (r.0, r.2[k])).collect(),
            err: None,
        };
        plot = plot.with_paper(i, paper);
    }
    let mut fig = Figure::single(Chart::Plot(plot));
    fig.panel_size = (900, 600);
    fig
}

/// Like Figures 7–8: the per-day ratios of every heuristic (`columns`, labels), one panel per q̄.
fn days_figure(tn: &str, of_trace: &[&RigidCell], columns: &[&str]) -> Figure {
    let panels: Vec<Chart> = QBARS
        .iter()
        .map(|&q| {
            let cs: Vec<&&RigidCell> = of_trace.iter().filter(|c| c.qbar == q).collect();
            let (f, _, _) = eval::summary(cs.iter().map(|c| c.mean_failures));
            let title = if cs.is_empty() {
                format!("q̄ = {q} (no day left: max_expected_failures)")
            } else {
                format!("q̄ = {q} ({f:.1} failures per day)")
            };
            let series: Vec<BarSeries> = columns
                .iter()
                .map(|h| BarSeries {
                    label: h.to_string(),
                    values: cs.iter().map(|c| day_mean(c, h)).collect(),
                    err: None,
                })
                .collect();
            Chart::Bar(BarChart {
                title,
                y_label: "normalized makespan (LPT)".into(),
                // A cell's label ends with its day number (`<trace> day <d>`).
                groups: cs
                    .iter()
                    .map(|c| c.label.rsplit_once(' ').map_or(c.label.as_str(), |l| l.1))
                    .map(|d| format!("day {d}"))
                    .collect(),
                y_range: Some(ratio_range(
                    series.iter().flat_map(|s| s.values.iter().copied()),
                )),
                series,
                reference: Some(1.0),
                styles: heuristic_styles(columns),
            })
        })
        .collect();
    let mut fig = Figure::grid(
        format!("{tn}: per-day normalized makespans (like Figures 7–8)"),
        1,
        panels,
    );
    fig.panel_size = (1100, 360);
    fig
}

#[cfg(test)]
mod tests {
    use super::{short_name, trace_names};
    use std::path::{Path, PathBuf};

    #[test]
    fn short_names_keep_the_whole_stem() {
        assert_eq!(short_name(Path::new("d/a.1.swf")), "a.1");
        assert_eq!(short_name(Path::new("d/a.2.swf.gz")), "a.2");
        assert_eq!(short_name(Path::new("a.gz.gz")), "a.gz");
        assert_eq!(short_name(Path::new("Mira-2018.log")), "Mira-2018.log");
    }

    #[test]
    fn trace_names_never_collide() {
        let paths: Vec<PathBuf> = ["x/a.1.swf", "x/a.2.swf", "x/b.swf", "y/b.swf.gz"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let names = trace_names(&paths);
        assert_eq!(names, ["a.1", "a.2", "x/b.swf", "y/b.swf.gz"]);
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }
}
