//! `steal-synthetic`'s figures (node-stealing paper, Section 6.3), one per measurement rule
//! (`figure13-all`, `figure13-scaled`), each three panels drawn with the plot layer's public API:
//! - Table 7: the useful utilization of Baseline and SFSJ (seed mean ± standard deviation) under
//!   both readings of node returns, with and without the regular checkpoints, beside the
//!   paper's 70% / 72%;
//! - Figure 13: SFSJ / Baseline of the seed means of the maximum and mean flow per size class
//!   (job size in nodes on a log axis), both readings, with Section 6.3's "improvement of
//!   10-15%" for the 64-node jobs drawn as the paper's range (0.85–0.90);
//! - Figure 12: Baseline's maximum and mean flow per size class in hours (log axis), both
//!   readings.
use super::{class_stat, find, spread, FlowStat, Measure, SynthCell, READINGS, TABLE_7};
use crate::render::plot::{BarChart, BarSeries, Chart, Figure, LineChart, LinePlot, Series};
use resched::stealing::{NodeReturns, Variant};

/// The size classes of Table 6 (p = 2^k nodes, k = 0..6).
const CLASSES: std::ops::RangeInclusive<u32> = 0..=6;

/// The two flow statistics drawn, with their names.
const STATS: [(FlowStat, &str); 2] = [(FlowStat::Max, "max flow"), (FlowStat::Mean, "mean flow")];

/// The figure of measurement rule `m`.
pub fn figure(m: Measure, results: &[SynthCell]) -> Figure {
    let panels = vec![
        table7(m, results),
        figure13(m, results),
        figure12(m, results),
    ];
    let mut fig = Figure::grid(
        format!(
            "steal-synthetic (Section 6.3: 128 nodes, 1000 jobs, μ = 30 min, D = 10 min), measure `{m}`, {} seeds",
            results.len()
        ),
        3,
        panels,
    );
    fig.panel_size = (640, 460);
    fig.subtitle = format!(
        "Table 7 panel: error bars ± 1 standard deviation over the {} seeds; Figure 13 panel: the paper's 10–15% drawn as 0.875 ± 0.025",
        results.len()
    );
    fig
}

/// Table 7 as bars: groups Baseline and SFSJ; ours (mean ± sd over seeds) under each reading
/// of node returns and each reading of "utilization", then the paper's.
fn table7(m: Measure, results: &[SynthCell]) -> Chart {
    let mut series = Vec::new();
    for rd in NodeReturns::ALL {
        for (reading, util) in READINGS {
            let (values, err): (Vec<f64>, Vec<f64>) = TABLE_7
                .iter()
                .map(|(v, _)| {
                    let xs: Vec<f64> = results
                        .iter()
                        .filter_map(|c| find(c, *v, m, rd))
                        .map(|r| 100.0 * util(r).to_f64())
                        .collect();
                    let s = spread(&xs);
                    (s[0], s[1])
                })
                .unzip();
            series.push(BarSeries {
                label: format!("ours, {reading}, returns {rd}"),
                values,
                err: Some(err),
            });
        }
    }
    series.push(BarSeries {
        label: "paper, Table 7".into(),
        values: TABLE_7.iter().map(|(_, p)| f64::from(*p)).collect(),
        err: None,
    });
    Chart::Bar(BarChart {
        // From 0: a bar from a cut axis would make the 1–2 point gains look like factors.
        title: "Useful utilization (cf. Table 7)".into(),
        y_label: "% of platform time".into(),
        groups: vec!["Baseline".into(), "SFSJ".into()],
        series,
        y_range: Some((0.0, 100.0)),
        reference: None,
        styles: Vec::new(),
    })
}

/// SFSJ / Baseline of the seed means of `s` per class under `rd`, as (nodes, ratio) points.
fn ratios(m: Measure, rd: NodeReturns, s: FlowStat, results: &[SynthCell]) -> Vec<(f64, f64)> {
    CLASSES
        .filter_map(|k| {
            let (mut b, mut f) = (Vec::new(), Vec::new());
            for c in results {
                let x = find(c, Variant::Baseline, m, rd).and_then(|r| class_stat(r, k, s));
                let y = find(c, Variant::SFSJ, m, rd).and_then(|r| class_stat(r, k, s));
                if let Some((x, y)) = x.zip(y) {
                    b.push(x);
                    f.push(y);
                }
            }
            let (mb, mf) = (spread(&b)[0], spread(&f)[0]);
            (mb > 0.0 && mf.is_finite()).then(|| (f64::from(1u32 << k), mf / mb))
        })
        .collect()
}

/// Figure 13: the ratios per class, both readings, the paper's range for the 64-node jobs.
fn figure13(m: Measure, results: &[SynthCell]) -> Chart {
    let mut series = Vec::new();
    for rd in NodeReturns::ALL {
        for (s, name) in STATS {
            series.push(Series::new(
                format!("{name}, returns {rd}"),
                ratios(m, rd, s, results),
            ));
        }
    }
    let paper = |name: &str| Series {
        label: format!("paper, {name} (Section 6.3 text: 10–15% better)"),
        points: vec![(64.0, 0.875)],
        err: Some(vec![0.025]),
    };
    LinePlot::from(LineChart {
        title: "Flow SFSJ / Baseline by job size (cf. Figure 13)".into(),
        x_label: "job size (nodes)".into(),
        y_label: "flow ratio (below 1 favours SFSJ)".into(),
        series,
        y_range: None,
        reference: Some(1.0),
        styles: Vec::new(),
    })
    .log_x("")
    .with_paper(0, paper("max flow"))
    .with_paper(1, paper("mean flow"))
    .with_note("paper: the 1-node jobs' max flow \"increases by a large factor\" (no value given)")
    .into()
}

/// Figure 12: Baseline's seed-mean flows per class, in hours.
fn figure12(m: Measure, results: &[SynthCell]) -> Chart {
    let mut series = Vec::new();
    for rd in NodeReturns::ALL {
        for (s, name) in STATS {
            let points = CLASSES
                .filter_map(|k| {
                    let xs: Vec<f64> = results
                        .iter()
                        .filter_map(|c| find(c, Variant::Baseline, m, rd))
                        .filter_map(|r| class_stat(r, k, s))
                        .collect();
                    let mean = spread(&xs)[0];
                    (mean > 0.0).then(|| (f64::from(1u32 << k), mean / 3600.0))
                })
                .collect();
            series.push(Series::new(
                format!("Baseline {name}, returns {rd}"),
                points,
            ));
        }
    }
    LinePlot::from(LineChart {
        title: "Baseline's flows by job size (cf. Figure 12)".into(),
        x_label: "job size (nodes)".into(),
        y_label: "flow (hours)".into(),
        series,
        y_range: None,
        reference: None,
        styles: Vec::new(),
    })
    .log_x("")
    .log_y()
    .into()
}
