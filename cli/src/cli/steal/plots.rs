//! The figures of `resched steal --plots DIR` (node-stealing paper): maximum, mean and weighted
//! mean flow against Baseline per size class (Figures 6, 13), the useful utilization against
//! Baseline (Figure 9, one MTBF) and the decomposition of platform time (Figure 3). SVG and PNG
//! each. Changes against Baseline are drawn in percent from 0 so that the few-percent
//! differences the paper discusses are visible.
//!
//! Every figure's subtitle names the run (workload, platform, μ, D, C, both readings, seed) and
//! the build. Both readings (`--returns`, `--compression`) are in every file name
//! (`flow_ratios-unforeseen-completions.png`, …), so that runs of different readings can share
//! a directory. A variant stopped before its end is drawn only in the decomposition, labelled
//! PARTIAL, and the files of such a run end in `-partial`; the ratio figures compare whole runs
//! only.
//!
//! The 18 variants Hxyz are drawn three at a time, as the paper's Figures 19–21 split them: one
//! panel per timing and victim (`H11·`, `H12·`, …), the three criteria z in three colours that
//! are the same in every panel and figure (Baseline has a fourth), so that no two bars of a
//! panel share a style.
use super::report::{baseline_and_others, class_of, is_partial, ratio, whole};
use super::stop::Stopped;
use crate::render::plot::{self, BarChart, BarSeries, Chart, Figure};
use resched::error::Result;
use resched::stealing::metrics::{Decomposition, FlowStats, Metrics};
use resched::stealing::{Readings, Variant};
use resched::time::Time;
use std::path::{Path, PathBuf};

/// A ratio as a bar value: the render API draws no bar for NaN.
fn bar(r: Option<f64>) -> f64 {
    // default: no ratio (no job in the class) is drawn as no bar; NaN never reaches text
    r.unwrap_or(f64::NAN)
}

/// Writes every figure into `dir` (which exists); returns the files written. `partial`: the
/// run was stopped (some variant partial or not run). `run`: the line naming the run
/// (workload, platform, μ, D, C, seed), to which the readings are added.
pub fn plots(
    all: &[Metrics],
    stopped: &[Stopped],
    partial: bool,
    readings: Readings,
    run: &str,
    dir: &Path,
) -> Result<Vec<PathBuf>> {
    let subtitle = format!(
        "{run}; node returns {}, compression at {}",
        readings.returns, readings.compression
    );
    let suffix = if partial { "-partial" } else { "" };
    let file = |name: &str| {
        dir.join(format!(
            "{name}-{}-{}{suffix}",
            readings.returns, readings.compression
        ))
    };
    let mut files = Vec::new();
    let whole = whole(all, stopped);
    if let Some((base, others)) = baseline_and_others(&whole) {
        let fig = flow_ratios(base, &others).with_subtitle(subtitle.clone());
        files.extend(plot::write_both(&fig, &file("flow_ratios"))?);
        let fig = utilization_ratio(base, &others).with_subtitle(subtitle.clone());
        files.extend(plot::write_both(&fig, &file("utilization_ratio"))?);
    }
    let subtitle = if stopped.is_empty() {
        subtitle
    } else {
        format!("{subtitle}; PARTIAL run(s)")
    };
    let fig = decomposition(all, stopped).with_subtitle(subtitle);
    files.extend(plot::write_both(&fig, &file("decomposition"))?);
    Ok(files)
}

/// A duration in seconds as the paper writes it: "10 min", "1 h", "1 day", else exact seconds.
fn span(t: &Time) -> String {
    let units: [(u64, &str); 3] = [(86_400, "day"), (3_600, "h"), (60, "min")];
    for (n, unit) in units {
        if let Some(q) = t.div_int(n).filter(|q| q.is_integer() && !q.is_zero()) {
            let plural = if unit == "day" && q != Time::from_int(1) {
                "s"
            } else {
                ""
            };
            return format!("{q} {unit}{plural}");
        }
    }
    if t.is_integer() {
        return format!("{t} s");
    }
    format!("{} s", t.to_decimal_string(3))
}

/// The line naming a run for the figures' subtitles: the workload (file name or synthetic
/// specification), the platform's nodes, the platform MTBF μ, the downtime D, the checkpoint C
/// and where the failures come from.
pub fn run_line(
    workload: &str,
    nodes: u32,
    mtbf: &Time,
    downtime: &Time,
    checkpoint: &Time,
    failures: Option<&Path>,
    seed: u64,
) -> String {
    let name = Path::new(workload)
        .file_name()
        .map_or(workload.to_string(), |n| n.to_string_lossy().into_owned());
    let failures = match failures {
        Some(p) => format!("failures from {}", p.display()),
        None => format!("Poisson failures, seed {seed}"),
    };
    format!(
        "{name}, {nodes} nodes, μ = {}, D = {}, C = {}, {failures}",
        span(mtbf),
        span(downtime),
        span(checkpoint)
    )
}

/// The bar style of a variant: Baseline 0, a heuristic Hxyz its criterion z (1–3), so that the
/// three variants of a panel differ and one criterion has one colour in every panel.
fn style_of(v: Variant) -> usize {
    let s = v.to_string();
    match s.strip_prefix('H').and_then(|d| d.chars().nth(2)) {
        Some(z) => z.to_digit(10).map_or(0, |z| z as usize),
        None => 0,
    }
}

/// The panel of a heuristic: `H` and its timing and victim digits followed by `·` (`H11·`);
/// Baseline's is its own name.
fn group_of(v: Variant) -> String {
    let s = v.to_string();
    match s.strip_prefix('H') {
        Some(d) if d.len() == 3 => format!("H{}·", &d[..2]),
        _ => s,
    }
}

/// What a group's digits mean (Section 7.1: timing T_x, victim V_y).
fn group_name(g: &str) -> String {
    let mut d = g.chars().skip(1);
    let timing = match d.next() {
        Some('1') => "interrupt now",
        Some('2') => "proactive checkpoint",
        Some('3') => "next checkpoint",
        _ => return g.to_string(),
    };
    let victim = match d.next() {
        Some('1') => "fewest nodes",
        Some('2') => "latest release",
        _ => return g.to_string(),
    };
    format!("{g} (T: {timing}, V: {victim})")
}

/// The heuristics of `ms` in groups of one timing and victim, in the order of Table 8.
fn groups<'a>(ms: &[&'a Metrics]) -> Vec<(String, Vec<&'a Metrics>)> {
    let mut out: Vec<(String, Vec<&'a Metrics>)> = Vec::new();
    for m in ms {
        let g = group_of(m.variant);
        match out.iter_mut().find(|(k, _)| *k == g) {
            Some((_, v)) => v.push(m),
            None => out.push((g, vec![m])),
        }
    }
    out
}

/// How to read one flow statistic off a class's [`FlowStats`].
type Stat = fn(&FlowStats) -> &Time;

/// The three flow statistics of Figures 6 and 13, each with how to read it off a class.
const FLOW_STATS: [(&str, Stat); 3] = [
    ("Maximum flow", |f| &f.max),
    ("Mean flow", |f| &f.mean),
    ("Weighted mean flow (Σ p·F / Σ p)", |f| &f.weighted_mean),
];

/// A ratio to Baseline as a change in percent: 0 is Baseline, the bars grow from there so that
/// differences of a few percent are visible (a bar from 0 to a ratio of 0.97 hides them).
fn change(r: Option<f64>) -> f64 {
    bar(r.map(|r| 100.0 * (r - 1.0)))
}

/// The value range of bars around 0 with 8% of the span free at both ends, so that no bar
/// touches the frame (the render API pads only the top).
fn padded_range(series: &[BarSeries]) -> Option<(f64, f64)> {
    let vals = series.iter().flat_map(|s| s.values.iter().copied());
    let (lo, hi) = vals
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (hi - lo).max(1e-9) * 0.08;
    Some((if lo < 0.0 { lo - pad } else { 0.0 }, hi + pad))
}

/// One series per variant: the change of `stat` against Baseline in each of Baseline's size
/// classes, then over all jobs.
fn flow_series(base: &Metrics, others: &[&Metrics], stat: Stat) -> Vec<BarSeries> {
    others
        .iter()
        .map(|m| {
            let mut values: Vec<f64> = base
                .classes
                .iter()
                .map(|(k, b)| change(class_of(m, *k).and_then(|c| ratio(stat(c), stat(b)))))
                .collect();
            values.push(change(ratio(stat(&m.all), stat(&base.all))));
            BarSeries {
                label: m.variant.to_string(),
                values,
                err: None,
            }
        })
        .collect()
}

/// Figures 6/13: maximum, mean and weighted mean flow against Baseline per size class.
fn flow_ratios(base: &Metrics, others: &[&Metrics]) -> Figure {
    // The class [2^k, 2^(k+1)) of the paper, written as its range of sizes in nodes.
    let mut classes: Vec<String> = base
        .classes
        .iter()
        .map(|(k, _)| match 1u64.checked_shl(*k) {
            Some(1) => "1".to_string(),
            Some(lo) => match lo.checked_mul(2) {
                Some(hi) => format!("{lo}–{}", hi - 1),
                None => format!("≥ {lo}"),
            },
            None => format!("2^{k}"),
        })
        .collect();
    classes.push("all jobs".into());
    let groups = groups(others);
    let mut panels = Vec::new();
    for (title, stat) in FLOW_STATS {
        for (g, members) in &groups {
            let series = flow_series(base, members, stat);
            panels.push(Chart::Bar(BarChart {
                title: format!("{title}, {}", group_name(g)),
                y_label: "change against Baseline (%; below 0 is better)".into(),
                groups: classes.clone(),
                y_range: padded_range(&series),
                series,
                reference: Some(0.0),
                styles: members.iter().map(|m| style_of(m.variant)).collect(),
            }));
        }
    }
    let mut fig = Figure::grid(
        "Flow against Baseline by job size in nodes (cf. Figures 6, 13, 19–21)",
        groups.len().clamp(1, 3),
        panels,
    );
    fig.panel_size = (640, 400);
    fig
}

/// Figure 9 at one MTBF: useful utilization of each variant against Baseline's, as a change in
/// percent (the paper's gains are 2–4%; bars from 0 to a ratio of 1.03 would all look equal),
/// one bar group per timing and victim, one colour per criterion.
fn utilization_ratio(base: &Metrics, others: &[&Metrics]) -> Figure {
    let groups = groups(others);
    let criteria: Vec<usize> = {
        let mut c: Vec<usize> = others.iter().map(|m| style_of(m.variant)).collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let series: Vec<BarSeries> = criteria
        .iter()
        .map(|&z| BarSeries {
            label: match z {
                1 => "z = 1: victim on fewer nodes (K1)".to_string(),
                2 => "z = 2: victim released later (K2)".to_string(),
                3 => "z = 3: smaller max flow (K3)".to_string(),
                _ => "other".to_string(),
            },
            values: groups
                .iter()
                .map(|(_, ms)| {
                    ms.iter()
                        .find(|m| style_of(m.variant) == z)
                        .map_or(f64::NAN, |m| {
                            change(ratio(
                                &m.decomposition.utilization(),
                                &base.decomposition.utilization(),
                            ))
                        })
                })
                .collect(),
            err: None,
        })
        .collect();
    let mut fig = Figure::single(Chart::Bar(BarChart {
        title: "Useful utilization against Baseline, this run's MTBF (one point of Figure 9; above 0 is better)".into(),
        y_label: "change against Baseline (%)".into(),
        groups: groups.iter().map(|(g, _)| g.clone()).collect(),
        y_range: padded_range(&series),
        series,
        reference: Some(0.0),
        styles: criteria,
    }));
    fig.panel_size = (900, 480);
    fig
}

/// Figure 3: the platform time other than useful work, in percent, per variant (a stopped
/// variant labelled PARTIAL: its own window, its completed jobs): Baseline and the heuristics
/// of one timing and victim per panel.
fn decomposition(all: &[Metrics], stopped: &[Stopped]) -> Figure {
    // The same order as the bar values below: Decomposition::parts without "useful".
    let parts = Decomposition::overhead_names();
    let series_of = |m: &Metrics| {
        let d = &m.decomposition;
        BarSeries {
            label: if is_partial(m.variant, stopped) {
                format!("{} (PARTIAL)", m.variant)
            } else {
                m.variant.to_string()
            },
            values: d
                .parts()
                .iter()
                .filter(|(n, _)| *n != "useful")
                .map(|(_, t)| bar(ratio(t, &d.total).map(|r| 100.0 * r)))
                .collect(),
            err: None,
        }
    };
    let bases: Vec<&Metrics> = all
        .iter()
        .filter(|m| m.variant == Variant::Baseline)
        .collect();
    let heur: Vec<&Metrics> = all
        .iter()
        .filter(|m| m.variant != Variant::Baseline)
        .collect();
    let mut sets = groups(&heur);
    if sets.is_empty() {
        sets.push(("Baseline".into(), Vec::new()));
    }
    let panels: Vec<Chart> = sets
        .iter()
        .map(|(g, members)| {
            let ms: Vec<&Metrics> = bases.iter().chain(members).copied().collect();
            let title = if members.is_empty() {
                "Platform time other than useful work".to_string()
            } else {
                format!("Platform time other than useful work, {}", group_name(g))
            };
            Chart::Bar(BarChart {
                title,
                y_label: "% of platform time".into(),
                groups: parts.iter().map(|p| p.to_string()).collect(),
                series: ms.iter().map(|m| series_of(m)).collect(),
                y_range: None,
                reference: None,
                styles: ms.iter().map(|m| style_of(m.variant)).collect(),
            })
        })
        .collect();
    let cols = panels.len().clamp(1, 3);
    let mut fig = Figure::grid(
        "Platform time other than useful work (cf. Figure 3)",
        cols,
        panels,
    );
    fig.panel_size = (640, 420);
    fig
}
