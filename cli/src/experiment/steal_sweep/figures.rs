//! `steal-sweep`'s figures, drawn with the plot layer's public API:
//! - `figure9-<returns>`: Figures 9–11 — utilization, maximum flow of the largest jobs and
//!   weighted mean flow, SFSJ / Baseline against the platform MTBF (hours, log axis), one series
//!   per downtime with the standard error over the seeds as error bars; one file per reading of
//!   node returns;
//! - `classes`: Figure 6 at the grid point nearest μ = D = 1 h — maximum, mean and weighted
//!   mean flow against Baseline per size class, both readings side by side;
//! - `decomposition`: Figure 3 at the same point — the platform time other than useful work,
//!   Baseline and SFSJ under both readings, with the paper's March 2018 idle time beside ours.
//!
//! Changes against Baseline are drawn in percent from 0 (bars) so that the few-percent
//! differences the paper discusses are visible. A point where the platform saturates (a
//! `saturated` cell) is not drawn, and its panel's note or title says so.
use super::tables::{
    at, class_label, focus, mean_part, paired, saturated, saturated_text, Paired, CLASS_STATS,
    PAPER_MARCH_2018, SWEEP_STATS,
};
use super::{Grid, StealCell};
use crate::render::plot::{BarChart, BarSeries, Chart, Figure, LineChart, LinePlot, Series};
use resched::stealing::metrics::Decomposition;
use resched::stealing::{NodeReturns, Variant, Workload};

/// A downtime as the paper writes it: "10 min", "1 h", "1 day".
pub fn downtime_label(m: u64) -> String {
    if m >= 1440 && m % 1440 == 0 {
        let d = m / 1440;
        format!("{d} day{}", if d == 1 { "" } else { "s" })
    } else if m >= 60 && m % 60 == 0 {
        format!("{} h", m / 60)
    } else {
        format!("{m} min")
    }
}

/// Every figure, as (file stem, figure).
pub fn figures(
    workloads: &[(String, Workload)],
    grid: &Grid,
    results: &[StealCell],
    seeds: &str,
) -> Vec<(String, Figure)> {
    let mut out = Vec::new();
    let mut seed_ids: Vec<u64> = results.iter().map(|c| c.seed).collect();
    seed_ids.sort_unstable();
    seed_ids.dedup();
    let n_seeds = seed_ids.len();
    for r in NodeReturns::ALL {
        let panels = workloads
            .iter()
            .flat_map(|(tn, _)| sweep_panels(tn, r, grid, results))
            .collect();
        let title = format!(
            "steal-sweep: SFSJ / Baseline against the MTBF (cf. Figures 9–11), node returns {r} by the plan"
        );
        let sub = if n_seeds > 1 {
            format!(
                "{seeds}; error bars: ± 1 standard error over the {n_seeds} seeds of the paired ratio"
            )
        } else {
            format!("{seeds}; one seed: no error bars")
        };
        out.push((
            format!("figure9-{r}"),
            Figure::grid(title, 3, panels).with_subtitle(sub),
        ));
    }
    let (m, d) = focus(grid);
    // One column per trace, one row per flow statistic: the size-class labels need the width.
    let mut per_trace = Vec::new();
    let mut dec_panels = Vec::new();
    for (tn, _) in workloads {
        // A saturated focus point has no measure: its panels are drawn empty, and say why.
        let cs = at(results, tn, m, d);
        let (cs, tn) = match saturated(&cs) {
            0 => (cs, tn.clone()),
            _ => (
                Vec::new(),
                format!("{tn} ({} at this point)", saturated_text(&cs)),
            ),
        };
        per_trace.push(class_panels_of(&tn, &cs));
        dec_panels.push(decomposition_panel(&tn, &cs));
    }
    let class_panels = (0..CLASS_STATS.len())
        .flat_map(|i| per_trace.iter().filter_map(move |p| p.get(i).cloned()))
        .collect();
    let point = format!("μ = {}, D = {}", downtime_label(m), downtime_label(d));
    let mut fig = Figure::grid(
        format!(
            "steal-sweep: flow against Baseline by job size in nodes at {point} (cf. Figure 6)"
        ),
        workloads.len().max(1),
        class_panels,
    );
    fig.panel_size = (980, 400);
    fig.subtitle = format!("{seeds}; bars: the change of the seed means");
    out.push(("classes".into(), fig));
    let mut fig = Figure::grid(
        format!("steal-sweep: platform time other than useful work at {point} (cf. Figure 3)"),
        1,
        dec_panels,
    );
    fig.panel_size = (1100, 420);
    fig.subtitle = format!("{seeds}; bars: the mean over the seeds");
    out.push(("decomposition".into(), fig));
    out
}

/// What Section 6.2's text says of each panel (it prints ranges, not per-point values, so no
/// paper curve is drawn).
const NOTES: [&str; 3] = [
    "paper (Section 6.2.1 text): 1.02–1.04 with D = 10 min, ≈ 1 with D = 1 day",
    "paper (Section 6.2.2 text): down to 0.8–0.9 with D = 10 min and μ < 5 h",
    "paper (Section 6.2.2 text): below 1 in every scenario",
];

/// The three panels of one trace under one reading: a series per downtime, error bars of one
/// standard error over the seeds, MTBF in hours on a log axis, a reference line at 1.
fn sweep_panels(
    tn: &str,
    r: NodeReturns,
    (mtbfs, downs): &Grid,
    results: &[StealCell],
) -> Vec<Chart> {
    let titles = [
        format!("{tn}: utilization SFSJ / Baseline"),
        format!("{tn}: max flow of the largest jobs, SFSJ / Baseline"),
        format!("{tn}: weighted mean flow, SFSJ / Baseline"),
    ];
    let y_labels = ["utilization ratio", "flow ratio", "flow ratio"];
    // A saturated point has no ratio ([`saturated`]): no marker, and the note says so.
    let gaps: Vec<String> = downs
        .iter()
        .flat_map(|&d| mtbfs.iter().map(move |&m| (m, d)))
        .filter(|&(m, d)| saturated(&at(results, tn, m, d)) > 0)
        .map(|(m, d)| format!("μ = {}, D = {}", downtime_label(m), downtime_label(d)))
        .collect();
    // Every MTBF of the grid labelled as the sweep names it ("20 min"), not only the round
    // hours among them.
    let ticks: Vec<(f64, String)> = mtbfs
        .iter()
        .map(|&m| (m as f64 / 60.0, downtime_label(m)))
        .collect();
    let gap_note = match gaps.len() {
        0 => String::new(),
        _ => format!("; saturated, not drawn: {}", gaps.join(", ")),
    };
    SWEEP_STATS
        .iter()
        .enumerate()
        .map(|(i, (_, pick))| {
            let series = downs
                .iter()
                .map(|&d| {
                    let ps: Vec<(f64, Paired)> = mtbfs
                        .iter()
                        .map(|&m| {
                            let cs = at(results, tn, m, d);
                            let p = match saturated(&cs) {
                                0 => paired(&cs, r, pick),
                                _ => Paired {
                                    ratio: f64::NAN,
                                    se: f64::NAN,
                                    n: 0,
                                },
                            };
                            (m as f64 / 60.0, p)
                        })
                        .collect();
                    Series {
                        label: format!("D = {}", downtime_label(d)),
                        points: ps.iter().map(|(x, p)| (*x, p.ratio)).collect(),
                        err: Some(ps.iter().map(|(_, p)| p.se).collect()),
                    }
                })
                .collect();
            LinePlot::from(LineChart {
                title: titles[i].clone(),
                x_label: "platform MTBF μ".into(),
                y_label: y_labels[i].into(),
                series,
                y_range: None,
                reference: Some(1.0),
                styles: Vec::new(),
            })
            .log_x("h")
            .with_x_ticks(ticks.clone())
            .with_note(format!("{}{gap_note}", NOTES[i]))
            .into()
        })
        .collect()
}

/// A ratio as a change in percent (NaN: no bar).
fn change(p: &Paired) -> f64 {
    100.0 * (p.ratio - 1.0)
}

/// The value range of bars around 0 with 8% of the span free at both ends (the render API pads
/// only the top), so that no bar touches the frame.
fn padded(series: &[BarSeries]) -> Option<(f64, f64)> {
    let (lo, hi) = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (hi - lo).max(1e-9) * 0.08;
    Some((if lo < 0.0 { lo - pad } else { 0.0 }, hi + pad))
}

/// The bar style of Baseline or SFSJ under the `k`th reading of node returns: their place in
/// the decomposition, so that SFSJ has the same colour in the size-class figure.
fn bar_style(k: usize, sfsj: bool) -> usize {
    2 * k + usize::from(sfsj)
}

/// Figure 6 for one trace: one bar panel per flow statistic, the size classes as groups, one
/// series per reading.
fn class_panels_of(tn: &str, cs: &[&StealCell]) -> Vec<Chart> {
    let classes = super::tables::size_classes(cs);
    CLASS_STATS
        .iter()
        .map(|(name, stat)| {
            let series: Vec<BarSeries> = NodeReturns::ALL
                .iter()
                .map(|&r| BarSeries {
                    label: format!("SFSJ, node returns {r}"),
                    values: classes
                        .iter()
                        .map(|&k| change(&paired(cs, r, &super::tables::class_pick(k, *stat))))
                        .collect(),
                    err: None,
                })
                .collect();
            Chart::Bar(BarChart {
                title: format!("{tn}: {name}"),
                y_label: "change against Baseline (%; below 0 is better)".into(),
                groups: classes.iter().map(|&k| class_label(k)).collect(),
                y_range: padded(&series),
                series,
                reference: Some(0.0),
                styles: (0..NodeReturns::ALL.len())
                    .map(|k| bar_style(k, true))
                    .collect(),
            })
        })
        .collect()
}

/// Figure 3 for one trace: every part but useful work, in percent of platform time, for
/// Baseline and SFSJ under both readings, and the paper's idle time of March 2018.
fn decomposition_panel(tn: &str, cs: &[&StealCell]) -> Chart {
    let parts = Decomposition::overhead_names();
    let mut series = Vec::new();
    let mut styles = Vec::new();
    for (k, r) in NodeReturns::ALL.into_iter().enumerate() {
        for v in [Variant::Baseline, Variant::SFSJ] {
            styles.push(bar_style(k, v == Variant::SFSJ));
            series.push(BarSeries {
                label: format!(
                    "{}, {r}",
                    if v == Variant::Baseline {
                        "Baseline"
                    } else {
                        "SFSJ"
                    }
                ),
                values: parts.iter().map(|p| mean_part(cs, v, r, p)).collect(),
                err: None,
            });
        }
    }
    for v in ["Baseline", "SFSJ"] {
        styles.push(styles.len());
        series.push(BarSeries {
            label: format!("{v}, paper (Mira 03/2018, Section 6.1 text)"),
            values: parts
                .iter()
                .map(|p| {
                    PAPER_MARCH_2018
                        .iter()
                        .find(|(pv, pn, _)| *pv == v && pn == p)
                        .map_or(f64::NAN, |(_, _, x)| *x)
                })
                .collect(),
            err: None,
        });
    }
    Chart::Bar(BarChart {
        title: format!("{tn}: platform time other than useful work"),
        y_label: "% of platform time".into(),
        groups: parts.iter().map(|p| p.to_string()).collect(),
        y_range: padded(&series),
        series,
        reference: None,
        styles,
    })
}

#[cfg(test)]
mod tests {
    use super::{downtime_label, sweep_panels, Chart, NodeReturns};

    #[test]
    fn downtimes_in_the_papers_units() {
        assert_eq!(downtime_label(10), "10 min");
        assert_eq!(downtime_label(60), "1 h");
        assert_eq!(downtime_label(90), "90 min");
        assert_eq!(downtime_label(1440), "1 day");
        assert_eq!(downtime_label(2880), "2 days");
    }

    /// Every MTBF of the grid is a labelled tick, in the sweep's own words, so that no point
    /// is drawn without its value under it (20 and 40 min fall between the round hours).
    #[test]
    fn every_mtbf_of_the_grid_is_a_labelled_tick() {
        let grid = (vec![20, 40, 60, 120, 300, 600], vec![10, 1440]);
        let panels = sweep_panels("t", NodeReturns::Unforeseen, &grid, &[]);
        assert_eq!(panels.len(), 3);
        for c in &panels {
            let Chart::Plot(p) = c else {
                panic!("a sweep panel is a line plot: {c:?}");
            };
            let labels: Vec<&str> = p.x_ticks.iter().map(|(_, l)| l.as_str()).collect();
            assert_eq!(labels, ["20 min", "40 min", "1 h", "2 h", "5 h", "10 h"]);
            assert_eq!(
                p.x_ticks[0].0,
                20.0 / 60.0,
                "ticks are in hours, as the points"
            );
        }
    }
}
