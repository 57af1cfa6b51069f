//! The figures of `resched steal --plots DIR` (node-stealing paper): maximum, mean and weighted
//! mean flow against Baseline per size class (Figures 6, 13), the useful utilization against
//! Baseline (Figure 9, one MTBF) and the decomposition of platform time (Figure 3). SVG and PNG
//! each. Changes against Baseline are drawn in percent from 0 so that the few-percent
//! differences the paper discusses are visible.
//!
//! The reading of node returns (`--returns`) is in every title and file name
//! (`flow_ratios-foreseen.png`, …), so that runs of both readings can share a directory. A
//! variant stopped before its end is drawn only in the decomposition, labelled PARTIAL, and
//! the files of such a run end in `-partial`; the ratio figures compare whole runs only. A
//! variant has the same colour in every figure, whether Baseline is drawn or not.
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
/// run was stopped (some variant partial or not run).
pub fn plots(
    all: &[Metrics],
    stopped: &[Stopped],
    partial: bool,
    readings: Readings,
    dir: &Path,
) -> Result<Vec<PathBuf>> {
    let reading = format!("node returns {}", readings.returns);
    let suffix = if partial { "-partial" } else { "" };
    let file = |name: &str| dir.join(format!("{name}-{}{suffix}", readings.returns));
    let mut files = Vec::new();
    let whole = whole(all, stopped);
    if let Some((base, others)) = baseline_and_others(&whole) {
        let mut fig = flow_ratios(base, &others);
        fig.title = format!("{}; {reading}", fig.title);
        files.extend(plot::write_both(&fig, &file("flow_ratios"))?);
        let mut fig = utilization_ratio(base, &others);
        name_reading(&mut fig, &reading);
        files.extend(plot::write_both(&fig, &file("utilization_ratio"))?);
    }
    let mut fig = decomposition(all, stopped);
    if stopped.is_empty() {
        name_reading(&mut fig, &reading);
    } else {
        name_reading(&mut fig, &format!("{reading}; PARTIAL run(s)"));
    }
    files.extend(plot::write_both(&fig, &file("decomposition"))?);
    Ok(files)
}

/// The bar style of a variant: its place among Baseline and the 18 variants, so that it has
/// the same colour in every figure (the ratio figures leave Baseline out, the decomposition
/// draws it).
fn style_of(v: Variant) -> usize {
    // default: every variant is among them; 0 would only share Baseline's colour
    Variant::all().iter().position(|x| *x == v).unwrap_or(0)
}

/// Adds the reading to the title of a one-chart figure.
fn name_reading(fig: &mut Figure, reading: &str) {
    for c in &mut fig.panels {
        if let Chart::Bar(b) = c {
            b.title = format!("{}; {reading}", b.title);
        }
    }
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
    let mut groups: Vec<String> = base
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
    groups.push("all jobs".into());
    let panels = FLOW_STATS
        .iter()
        .map(|(title, stat)| {
            let series = flow_series(base, others, *stat);
            Chart::Bar(BarChart {
                title: (*title).into(),
                y_label: "change against Baseline (%; below 0 is better)".into(),
                groups: groups.clone(),
                y_range: padded_range(&series),
                series,
                reference: Some(0.0),
                styles: others.iter().map(|m| style_of(m.variant)).collect(),
            })
        })
        .collect();
    let mut fig = Figure::grid(
        "Flow against Baseline by job size in nodes (cf. Figures 6, 13)",
        1,
        panels,
    );
    fig.panel_size = (1100, 400);
    fig
}

/// Figure 9 at one MTBF: useful utilization of each variant against Baseline's, as a change in
/// percent (the paper's gains are 2–4%; bars from 0 to a ratio of 1.03 would all look equal).
fn utilization_ratio(base: &Metrics, others: &[&Metrics]) -> Figure {
    let series: Vec<BarSeries> = others
        .iter()
        .map(|m| BarSeries {
            label: m.variant.to_string(),
            values: vec![change(ratio(
                &m.decomposition.utilization(),
                &base.decomposition.utilization(),
            ))],
            err: None,
        })
        .collect();
    Figure::single(Chart::Bar(BarChart {
        title: "Useful utilization against Baseline (cf. Figure 9; above 0 is better)".into(),
        y_label: "change against Baseline (%)".into(),
        groups: vec!["useful utilization".into()],
        y_range: padded_range(&series),
        series,
        reference: Some(0.0),
        styles: others.iter().map(|m| style_of(m.variant)).collect(),
    }))
}

/// Figure 3: the platform time other than useful work, in percent, per variant (a stopped
/// variant labelled PARTIAL: its own window, its completed jobs).
fn decomposition(all: &[Metrics], stopped: &[Stopped]) -> Figure {
    // The same order as the bar values below: Decomposition::parts without "useful".
    let parts = Decomposition::overhead_names();
    Figure::single(Chart::Bar(BarChart {
        title: "Platform time other than useful work (cf. Figure 3)".into(),
        y_label: "% of platform time".into(),
        groups: parts.iter().map(|p| p.to_string()).collect(),
        series: all
            .iter()
            .map(|m| {
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
            })
            .collect(),
        y_range: None,
        reference: None,
        styles: all.iter().map(|m| style_of(m.variant)).collect(),
    }))
}
