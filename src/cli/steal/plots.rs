//! The figures of `resched steal --plots DIR` (node-stealing paper): flow ratios to Baseline
//! per size class (Figures 6, 13), the useful utilization ratio (Figure 9, one MTBF) and the
//! decomposition of platform time (Figure 3). SVG and PNG each.
use super::report::{baseline_and_others, class_of, ratio};
use crate::error::Result;
use crate::render::plot::{self, BarChart, BarSeries, Chart, Figure};
use crate::stealing::metrics::{Decomposition, Metrics};
use std::path::{Path, PathBuf};

/// A ratio as a bar value: the render API draws no bar for NaN.
fn bar(r: Option<f64>) -> f64 {
    // default: no ratio (no job in the class) is drawn as no bar; NaN never reaches text
    r.unwrap_or(f64::NAN)
}

/// Writes every figure into `dir` (which exists); returns the files written.
pub fn plots(all: &[Metrics], dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if let Some((base, others)) = baseline_and_others(all) {
        files.extend(plot::write_both(
            &flow_ratios(base, &others),
            &dir.join("flow_ratios"),
        )?);
        files.extend(plot::write_both(
            &utilization_ratio(base, &others),
            &dir.join("utilization_ratio"),
        )?);
    }
    files.extend(plot::write_both(
        &decomposition(all),
        &dir.join("decomposition"),
    )?);
    Ok(files)
}

/// One series of flow ratios per variant: each class of Baseline, then "all" and "weighted".
fn flow_series(base: &Metrics, others: &[&Metrics], maxflow: bool) -> Vec<BarSeries> {
    others
        .iter()
        .map(|m| {
            let mut values: Vec<f64> = base
                .classes
                .iter()
                .map(|(k, b)| {
                    bar(class_of(m, *k).and_then(|c| {
                        if maxflow {
                            ratio(&c.max, &b.max)
                        } else {
                            ratio(&c.mean, &b.mean)
                        }
                    }))
                })
                .collect();
            if maxflow {
                values.push(bar(ratio(&m.all.max, &base.all.max)));
                values.push(bar(None));
            } else {
                values.push(bar(ratio(&m.all.mean, &base.all.mean)));
                values.push(bar(ratio(&m.all.weighted_mean, &base.all.weighted_mean)));
            }
            BarSeries {
                label: m.variant.to_string(),
                values,
                err: None,
            }
        })
        .collect()
}

/// Figures 6/13: maximum and mean flow ratios to Baseline per size class.
fn flow_ratios(base: &Metrics, others: &[&Metrics]) -> Figure {
    // Short labels: "2^k" stands for the class [2^k, 2^(k+1)).
    let mut groups: Vec<String> = base.classes.iter().map(|(k, _)| format!("2^{k}")).collect();
    groups.push("all".into());
    groups.push("weighted".into());
    let panel = |title: &str, maxflow: bool| {
        Chart::Bar(BarChart {
            title: title.into(),
            y_label: "ratio to Baseline (lower is better)".into(),
            groups: groups.clone(),
            series: flow_series(base, others, maxflow),
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
    fig
}

/// Figure 9 at one MTBF: useful utilization of each variant over Baseline's.
fn utilization_ratio(base: &Metrics, others: &[&Metrics]) -> Figure {
    Figure::single(Chart::Bar(BarChart {
        title: "Useful utilization against Baseline (cf. Figure 9; higher is better)".into(),
        y_label: "utilization ratio".into(),
        groups: vec!["utilization".into()],
        series: others
            .iter()
            .map(|m| BarSeries {
                label: m.variant.to_string(),
                values: vec![bar(ratio(
                    &m.decomposition.useful,
                    &base.decomposition.useful,
                ))],
                err: None,
            })
            .collect(),
        y_range: None,
        reference: Some(1.0),
    }))
}

/// Figure 3: the platform time other than useful work, in percent, per variant.
fn decomposition(all: &[Metrics]) -> Figure {
    // The same order as the bar values below: Decomposition::parts without "useful".
    let parts: Vec<&str> = Decomposition::default()
        .parts()
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| *n != "useful")
        .collect();
    Figure::single(Chart::Bar(BarChart {
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
                        .map(|(_, t)| bar(ratio(t, &d.total).map(|r| 100.0 * r)))
                        .collect(),
                    err: None,
                }
            })
            .collect(),
        y_range: None,
        reference: None,
    }))
}
