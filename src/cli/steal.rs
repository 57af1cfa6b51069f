//! `resched steal`: the node-stealing batch scheduler of the node-stealing paper on a workload
//! (an SWF log or Table 6's synthetic workload), with Poisson failures or a failure list; prints
//! a metrics table and the per-size-class flow ratios against Baseline (Figures 6, 13), writes
//! a CSV and plots. Every run goes through the independent checker ([`crate::stealing::check`])
//! unless `--no-check`.
//!
//! Durations accept exact numbers of seconds (`3600`, `1/3`, `12.5`) or a unit suffix
//! `s`, `min`, `h`, `d` (`1h`, `10min`, `5.61y` is not accepted: years are ambiguous).
use super::Exit;
use crate::error::{write_atomic, Error, Result};
use crate::render::plot::{self, BarChart, BarSeries, Chart, Figure};
use crate::stealing::check::check;
use crate::stealing::metrics::{compute, Metrics, Pruning};
use crate::stealing::synthetic::{paper_resilience, Synthetic};
use crate::stealing::{simulate, trace, FailureSource, Resilience, Variant, Workload};
use crate::time::Time;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `resched steal`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// `W.swf` / `W.swf.gz`, or `synthetic[:nodes=128,lambda=174,seed=S,jobs=1000]` (Table 6).
    #[arg(long)]
    pub workload: String,
    /// Platform size (default: the SWF MaxNodes/MaxProcs header).
    #[arg(long)]
    pub nodes: Option<u32>,
    /// Reduce larger jobs to this many nodes (Section 5.2: 49152 → 49000 on Mira).
    #[arg(long)]
    pub max_job_nodes: Option<u32>,
    /// Platform MTBF μ = μ_ind/N (default 1h; 30min for the synthetic workload).
    #[arg(long, allow_hyphen_values = true)]
    pub mtbf: Option<String>,
    /// Downtime D of a struck node (default 1h; 10min for the synthetic workload).
    #[arg(long, allow_hyphen_values = true)]
    pub downtime: Option<String>,
    /// Checkpoint length C; 0 disables checkpointing (default 5min).
    #[arg(long, allow_hyphen_values = true)]
    pub checkpoint: Option<String>,
    /// Recovery R on every restart (default: C).
    #[arg(long, allow_hyphen_values = true)]
    pub recovery: Option<String>,
    /// A failure list file (`time node` per line) instead of Poisson failures.
    #[arg(long)]
    pub failures: Option<PathBuf>,
    /// Variants: `baseline`, `SFSJ`, `H111`…`H323`, comma-separated, or `all`.
    #[arg(long, default_value = "baseline,H111")]
    pub variant: String,
    /// Seed of the failures (and of the synthetic workload unless it sets its own).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Section 5.3.3: leave out this percentage of jobs at each end of the submission order
    /// from the flow statistics (the paper: 20).
    #[arg(long, default_value_t = 0)]
    pub prune_jobs: u32,
    /// Time window `A:B` of the utilization and decomposition (default: [0, last completion)).
    #[arg(long, allow_hyphen_values = true)]
    pub window: Option<String>,
    /// Write the metrics as CSV (long format: variant,scope,metric,value,exact).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write plots (SVG and PNG) into this directory.
    #[arg(long)]
    pub plots: Option<PathBuf>,
    /// Skip the independent checker.
    #[arg(long)]
    pub no_check: bool,
}

/// Parses a duration: exact seconds or with a unit `s`, `min`, `h`, `d`.
pub fn parse_duration(s: &str, option: &str) -> Result<Time> {
    let t = s.trim();
    let (num, mult) = if let Some(x) = t.strip_suffix("min") {
        (x, 60)
    } else if let Some(x) = t.strip_suffix('h') {
        (x, 3600)
    } else if let Some(x) = t.strip_suffix('d') {
        (x, 86_400)
    } else if let Some(x) = t.strip_suffix('s') {
        (x, 1)
    } else {
        (t, 1)
    };
    let v: Time = num.trim().parse().map_err(|e| {
        Error::option(
            option,
            format!("`{s}` is not a duration ({e}); use seconds or 10min, 1h, 1d"),
        )
    })?;
    if v.is_negative() {
        return Err(Error::option(option, format!("negative duration `{s}`")));
    }
    Ok(v.mul_int(mult))
}

/// Parses the `--variant` list.
pub fn parse_variants(s: &str) -> Result<Vec<Variant>> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(Variant::all());
    }
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.trim().is_empty()) {
        let v: Variant = part
            .parse()
            .map_err(|e: String| Error::option("--variant", e))?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err(Error::option("--variant", "no variant given"));
    }
    Ok(out)
}

fn parse_window(s: &str) -> Result<(Time, Time)> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| Error::option("--window", format!("`{s}`: expected A:B")))?;
    let (a, b) = (
        parse_duration(a, "--window")?,
        parse_duration(b, "--window")?,
    );
    if b <= a {
        return Err(Error::option("--window", format!("empty window `{s}`")));
    }
    Ok((a, b))
}

fn hours(t: &Time) -> String {
    format!("{:.2}", t.to_f64() / 3600.0)
}

fn pct(part: &Time, total: &Time) -> String {
    if total.is_positive() {
        format!("{:.2}", 100.0 * part.to_f64() / total.to_f64())
    } else {
        "-".into()
    }
}

fn ratio(a: &Time, b: &Time) -> f64 {
    if b.is_positive() {
        a.to_f64() / b.to_f64()
    } else {
        f64::NAN
    }
}

/// Runs the command.
pub fn run(a: Args) -> Result<Exit> {
    let variants = parse_variants(&a.variant)?;
    if a.prune_jobs >= 50 {
        return Err(Error::option(
            "--prune-jobs",
            "must be below 50 (percent at each end)",
        ));
    }
    let window = a.window.as_deref().map(parse_window).transpose()?;
    let synthetic = a.workload.starts_with("synthetic");
    let (w, note): (Workload, String) = if synthetic {
        let s = Synthetic::parse(&a.workload, a.seed)?;
        (
            s.generate(),
            format!("Table 6 synthetic workload (seed {})", s.seed),
        )
    } else {
        let (w, c) = trace::load(std::path::Path::new(&a.workload), a.nodes, a.max_job_nodes)?;
        let note = format!(
            "{}: {} jobs ({} lines dropped by the SWF cleaning rule, {} runs cut to their walltime, {} without walltime, {} reduced to --max-job-nodes)",
            a.workload,
            w.jobs.len(),
            c.dropped,
            c.cut_to_walltime,
            c.no_walltime,
            c.reduced
        );
        (w, note)
    };
    let defaults = if synthetic {
        paper_resilience(w.nodes)
    } else {
        Resilience {
            downtime: Time::from_int(3600),
            checkpoint: Time::from_int(300),
            recovery: Time::from_int(300),
            mtbf_ind: Some(Time::from_int(3600).mul_int(u64::from(w.nodes))),
        }
    };
    let mtbf = match &a.mtbf {
        Some(s) => parse_duration(s, "--mtbf")?,
        None => defaults
            .mtbf_ind
            .clone()
            .unwrap_or_default()
            .div_int(u64::from(w.nodes))
            .unwrap_or_default(),
    };
    if !mtbf.is_positive() {
        return Err(Error::option(
            "--mtbf",
            format!("the MTBF must be > 0, got {mtbf}"),
        ));
    }
    let checkpoint = match &a.checkpoint {
        Some(s) => parse_duration(s, "--checkpoint")?,
        None => defaults.checkpoint.clone(),
    };
    let res = Resilience {
        downtime: match &a.downtime {
            Some(s) => parse_duration(s, "--downtime")?,
            None => defaults.downtime.clone(),
        },
        recovery: match &a.recovery {
            Some(s) => parse_duration(s, "--recovery")?,
            None => checkpoint.clone(),
        },
        checkpoint,
        mtbf_ind: Some(mtbf.mul_int(u64::from(w.nodes))),
    };
    res.validate()?;
    let failure_list = match &a.failures {
        Some(p) => Some(FailureSource::load(p, w.nodes)?),
        None => None,
    };
    println!("workload: {note}");
    println!(
        "platform: {} nodes, MTBF {} s (μ_ind = {} s), D = {} s, C = {} s, R = {} s, failures: {}",
        w.nodes,
        mtbf.to_decimal_string(1),
        res.mtbf_ind
            .clone()
            .unwrap_or_default()
            .to_decimal_string(0),
        res.downtime.to_decimal_string(1),
        res.checkpoint.to_decimal_string(1),
        res.recovery.to_decimal_string(1),
        match &a.failures {
            Some(p) => p.display().to_string(),
            None => format!("Poisson, seed {}", a.seed),
        }
    );
    let pruning = Pruning {
        drop_first_pct: a.prune_jobs,
        drop_last_pct: a.prune_jobs,
        window,
    };
    let mut all: Vec<Metrics> = Vec::new();
    let mut failed_check = false;
    for v in &variants {
        let failures = match &failure_list {
            Some(f) => f.clone(),
            None => FailureSource::poisson(a.seed, &mtbf, w.nodes)?,
        };
        let t0 = Instant::now();
        let run = simulate(&w, &res, failures, *v)?;
        let sim_s = t0.elapsed().as_secs_f64();
        let m = compute(&run, &pruning);
        if !a.no_check {
            match check(&w, &res, &run, Some(m.window.clone())) {
                Ok(tot)
                    if tot.idle == m.decomposition.idle && tot.useful == m.decomposition.useful => {
                }
                Ok(_) => {
                    eprintln!("{v}: the checker's decomposition differs from the metrics'");
                    failed_check = true;
                }
                Err(e) => {
                    eprintln!("{v}: checker: {e}");
                    failed_check = true;
                }
            }
        }
        eprintln!("{v}: simulated in {sim_s:.2} s");
        all.push(m);
    }
    print!("{}", table(&all));
    print!("{}", class_table(&all));
    if let Some(p) = &a.csv {
        write_atomic(p, csv(&all).as_bytes())?;
        println!("csv: {}", p.display());
    }
    if let Some(dir) = &a.plots {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        for f in plots(&all, dir)? {
            println!("plot: {}", f.display());
        }
    }
    Ok(if failed_check {
        Exit::CheckFailed
    } else {
        Exit::Ok
    })
}

/// The metrics table: one row per variant.
pub fn table(all: &[Metrics]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n{:<9} {:>6} {:>9} {:>9} {:>9} {:>7} | {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} | {:>5} {:>5} {:>5} {:>5}",
        "variant", "jobs", "maxflow", "meanflow", "wmean", "util%", "idle", "ckpt", "recov", "lost", "steal", "down", "useful",
        "fail", "onjob", "free", "steal"
    );
    let _ = writeln!(
        s,
        "{:<9} {:>6} {:>9} {:>9} {:>9} {:>7} | {:^48} |",
        "", "", "(h)", "(h)", "(h)", "", "% of platform time"
    );
    for m in all {
        let d = &m.decomposition;
        let _ = writeln!(
            s,
            "{:<9} {:>6} {:>9} {:>9} {:>9} {:>7} | {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} | {:>5} {:>5} {:>5} {:>5}",
            m.variant.to_string(),
            m.all.jobs,
            hours(&m.all.max),
            hours(&m.all.mean),
            hours(&m.all.weighted_mean),
            pct(&d.useful, &d.total),
            pct(&d.idle, &d.total),
            pct(&d.checkpoint, &d.total),
            pct(&d.recovery, &d.total),
            pct(&d.lost, &d.total),
            pct(&d.stealing, &d.total),
            pct(&d.down, &d.total),
            pct(&d.useful, &d.total),
            m.stats.failures,
            m.stats.on_jobs,
            m.stats.free_node_used,
            m.stats.steals
        );
    }
    s
}

fn class_label(k: u32) -> String {
    format!("[2^{k},2^{})", k + 1)
}

/// Per size class: max and mean flow of each variant over Baseline's (Figures 6, 7, 13).
pub fn class_table(all: &[Metrics]) -> String {
    let mut s = String::new();
    let Some(base) = all.iter().find(|m| m.variant == Variant::Baseline) else {
        return s;
    };
    let others: Vec<&Metrics> = all
        .iter()
        .filter(|m| m.variant != Variant::Baseline)
        .collect();
    if others.is_empty() {
        return s;
    }
    let _ = write!(
        s,
        "\nflow ratios variant/Baseline (max | mean) per size class\n{:<14} {:>5}",
        "class", "jobs"
    );
    for m in &others {
        let _ = write!(s, " {:>13}", m.variant.to_string());
    }
    s.push('\n');
    // (label, jobs in the class, (max ratio, mean ratio) per variant)
    type Row = (String, usize, Vec<(f64, f64)>);
    let mut rows: Vec<Row> = Vec::new();
    for (k, b) in &base.classes {
        let r = others
            .iter()
            .map(|m| {
                let c = m
                    .classes
                    .iter()
                    .find(|(kk, _)| kk == k)
                    .map(|(_, c)| c.clone())
                    .unwrap_or_default();
                (ratio(&c.max, &b.max), ratio(&c.mean, &b.mean))
            })
            .collect();
        rows.push((class_label(*k), b.jobs, r));
    }
    rows.push((
        "all".into(),
        base.all.jobs,
        others
            .iter()
            .map(|m| {
                (
                    ratio(&m.all.max, &base.all.max),
                    ratio(&m.all.mean, &base.all.mean),
                )
            })
            .collect(),
    ));
    rows.push((
        "weighted".into(),
        base.all.jobs,
        others
            .iter()
            .map(|m| {
                (
                    f64::NAN,
                    ratio(&m.all.weighted_mean, &base.all.weighted_mean),
                )
            })
            .collect(),
    ));
    for (label, n, r) in rows {
        let _ = write!(s, "{label:<14} {n:>5}");
        for (mx, mn) in r {
            let _ = write!(
                s,
                " {:>6} {:>6}",
                if mx.is_nan() {
                    "-".into()
                } else {
                    format!("{mx:.3}")
                },
                format!("{mn:.3}")
            );
        }
        s.push('\n');
    }
    s
}

/// Long-format CSV: `variant,scope,metric,value,exact` (value in seconds / node-seconds).
pub fn csv(all: &[Metrics]) -> String {
    let mut s = String::from("variant,scope,metric,value,exact\n");
    let mut row = |v: &Variant, scope: &str, metric: &str, t: &Time| {
        let _ = writeln!(s, "{v},{scope},{metric},{},{t}", t.to_decimal_string(6));
    };
    for m in all {
        let v = &m.variant;
        for (scope, f) in std::iter::once(("all".to_string(), &m.all))
            .chain(m.classes.iter().map(|(k, c)| (class_label(*k), c)))
        {
            row(v, &scope, "jobs", &Time::from_int(f.jobs as i64));
            row(v, &scope, "max_flow", &f.max);
            row(v, &scope, "mean_flow", &f.mean);
            row(v, &scope, "weighted_mean_flow", &f.weighted_mean);
        }
        let d = &m.decomposition;
        for (name, t) in d.parts() {
            row(v, "platform", name, t);
        }
        row(v, "platform", "total", &d.total);
        row(v, "platform", "utilization", &d.utilization());
        row(v, "platform", "window_start", &m.window.0);
        row(v, "platform", "window_end", &m.window.1);
        let st = &m.stats;
        for (name, x) in [
            ("failures", st.failures),
            ("failures_on_jobs", st.on_jobs),
            ("free_node_used", st.free_node_used),
            ("node_stealing", st.steals),
            ("steal_refused", st.steal_refused),
            ("steals_cancelled", st.steals_cancelled),
        ] {
            row(v, "stats", name, &Time::from_int(x as i64));
        }
    }
    s
}

/// Figure 6/13-like bar charts (max and mean flow ratios per size class against Baseline) and a
/// Figure 3-like decomposition; returns the files written.
pub fn plots(all: &[Metrics], dir: &std::path::Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if let Some(base) = all.iter().find(|m| m.variant == Variant::Baseline) {
        let others: Vec<&Metrics> = all
            .iter()
            .filter(|m| m.variant != Variant::Baseline)
            .collect();
        if !others.is_empty() {
            // Short labels: "2^k" stands for the class [2^k, 2^(k+1)).
            let mut groups: Vec<String> =
                base.classes.iter().map(|(k, _)| format!("2^{k}")).collect();
            groups.push("all".into());
            groups.push("weighted".into());
            let series = |maxflow: bool| -> Vec<BarSeries> {
                others
                    .iter()
                    .map(|m| {
                        let mut values: Vec<f64> = base
                            .classes
                            .iter()
                            .map(|(k, b)| {
                                let c = m
                                    .classes
                                    .iter()
                                    .find(|(kk, _)| kk == k)
                                    .map(|(_, c)| c.clone())
                                    .unwrap_or_default();
                                if maxflow {
                                    ratio(&c.max, &b.max)
                                } else {
                                    ratio(&c.mean, &b.mean)
                                }
                            })
                            .collect();
                        if maxflow {
                            values.push(ratio(&m.all.max, &base.all.max));
                            values.push(f64::NAN);
                        } else {
                            values.push(ratio(&m.all.mean, &base.all.mean));
                            values.push(ratio(&m.all.weighted_mean, &base.all.weighted_mean));
                        }
                        BarSeries {
                            label: m.variant.to_string(),
                            values,
                            err: None,
                        }
                    })
                    .collect()
            };
            let panel = |title: &str, maxflow: bool| {
                Chart::Bar(BarChart {
                    title: title.into(),
                    y_label: "ratio to Baseline (lower is better)".into(),
                    groups: groups.clone(),
                    series: series(maxflow),
                    y_range: None,
                    reference: Some(1.0),
                })
            };
            let mut fig = Figure::grid(
                "Flow ratio to Baseline by job size [2^k, 2^(k+1)) (cf. Figures 6, 13)",
                1,
                vec![panel("Maximum flow", true), panel("Mean flow", false)],
            );
            fig.panel_size = (960, 420);
            files.extend(plot::write_both(&fig, &dir.join("flow_ratios"))?);
            // Utilization ratio (cf. Figure 9, one MTBF).
            let util = Chart::Bar(BarChart {
                title: "Useful utilization against Baseline (cf. Figure 9; higher is better)"
                    .into(),
                y_label: "utilization ratio".into(),
                groups: vec!["utilization".into()],
                series: others
                    .iter()
                    .map(|m| BarSeries {
                        label: m.variant.to_string(),
                        values: vec![ratio(&m.decomposition.useful, &base.decomposition.useful)],
                        err: None,
                    })
                    .collect(),
                y_range: None,
                reference: Some(1.0),
            });
            files.extend(plot::write_both(
                &Figure::single(util),
                &dir.join("utilization_ratio"),
            )?);
        }
    }
    // Decomposition of platform time (cf. Figure 3), in percent.
    // The same order as the bar values below: Decomposition::parts without "useful".
    let parts: Vec<&str> = crate::stealing::metrics::Decomposition::default()
        .parts()
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| *n != "useful")
        .collect();
    let dec = Chart::Bar(BarChart {
        title: "Platform time other than useful work (cf. Figure 3)".into(),
        y_label: "% of platform time".into(),
        groups: parts.iter().map(|p| p.to_string()).collect(),
        series: all
            .iter()
            .map(|m| {
                let d = &m.decomposition;
                BarSeries {
                    label: m.variant.to_string(),
                    values: d
                        .parts()
                        .iter()
                        .filter(|(n, _)| *n != "useful")
                        .map(|(_, t)| 100.0 * ratio(t, &d.total))
                        .collect(),
                    err: None,
                }
            })
            .collect(),
        y_range: None,
        reference: None,
    });
    files.extend(plot::write_both(
        &Figure::single(dec),
        &dir.join("decomposition"),
    )?);
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1h", "--x").unwrap(), Time::from_int(3600));
        assert_eq!(parse_duration("10min", "--x").unwrap(), Time::from_int(600));
        assert_eq!(
            parse_duration("1.5d", "--x").unwrap(),
            Time::from_int(129_600)
        );
        assert_eq!(
            parse_duration("7/2", "--x").unwrap(),
            Time::new(7, 2).unwrap()
        );
        assert_eq!(parse_duration("30s", "--x").unwrap(), Time::from_int(30));
        let e = parse_duration("-1h", "--mtbf").unwrap_err().to_string();
        assert!(e.contains("--mtbf") && e.contains("negative"), "{e}");
        assert!(parse_duration("soon", "--downtime")
            .unwrap_err()
            .to_string()
            .contains("--downtime"));
    }

    #[test]
    fn variant_lists() {
        assert_eq!(parse_variants("all").unwrap().len(), 19);
        assert_eq!(parse_variants("baseline,SFSJ,H111").unwrap().len(), 2);
        assert!(parse_variants("H999")
            .unwrap_err()
            .to_string()
            .contains("--variant"));
    }
}
