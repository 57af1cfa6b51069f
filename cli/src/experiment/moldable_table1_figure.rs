//! The figures of `moldable-table1`:
//! - `table1` ([`overview`]): the expected and the maximum ratio of every algorithm per speedup
//!   model on a logarithmic axis (MINTIME's 15–20 and MINAREA's 100+ beside LPA's and BATCH's
//!   1.05–1.9 would flatten those on a linear one), each with the paper's Table 1 value beside
//!   it (hollow marker);
//! - `table1_vs_paper` ([`figure`]): the moldable paper's Table 1 beside our values, one panel
//!   per row of Table 1 (LPA, BATCH, MINTIME, MINAREA) and per statistic (expected, maximum),
//!   each bar group a speedup model, the paper's value as its own bar. Panels are split so that
//!   every one has its own linear axis: on one shared axis MINTIME's 15–20 on Amdahl and Power
//!   and MINAREA's 100+ would flatten every other bar. BATCH's panel carries every reading we
//!   run (BATCH, BATCH-U, BATCH-PUB: see `moldable_table1::ALGOS`).
use super::moldable_table1_paper::paper_value;
use crate::render::plot::{self, BarChart, BarSeries, Chart, Figure, LineChart, LinePlot, Series};
use resched::error::Result;
use resched::workload::synthetic::MoldModel;

/// (label, model, expected, maximum) of our runs, as the campaign aggregates them.
pub type Agg = (String, MoldModel, f64, f64);

/// The bar style of algorithm `a`: its column in the campaign's table, so that it has one
/// colour in both of the campaign's figures and in every panel; the paper's value for it is
/// drawn in the light version of that colour ([`plot::light_bar`]).
pub fn style_of(columns: &[&str], a: &str) -> usize {
    // default: every label drawn is a column; 0 would only share the first one's colour
    columns.iter().position(|c| *c == a).unwrap_or(0)
}

/// `table1`: two panels (expected, maximum), the speedup models as categories, a logarithmic
/// ratio axis, every algorithm of `columns` with ± 1 standard error over the sets on the
/// expected ratio (`agg_se`: per (label, model)), and Table 1's value of each algorithm the
/// paper reports (the BATCH readings share BATCH's) as a hollow marker in its colour.
pub fn overview(
    title: String,
    subtitle: String,
    columns: &[&str],
    agg: &[Agg],
    agg_se: &[(String, MoldModel, f64)],
) -> Result<Figure> {
    let models: Vec<String> = MoldModel::ALL
        .iter()
        .map(|m| m.label().to_string())
        .collect();
    let panel = |max: bool| -> Chart {
        let series: Vec<Series> = columns
            .iter()
            .map(|a| {
                let pts: Vec<(f64, f64, f64)> = MoldModel::ALL
                    .iter()
                    .enumerate()
                    .filter_map(|(k, &m)| {
                        let x = agg.iter().find(|x| x.0 == *a && x.1 == m)?;
                        let se = agg_se
                            .iter()
                            .find(|s| s.0 == *a && s.1 == m)
                            .map_or(f64::NAN, |s| s.2);
                        Some((k as f64, if max { x.3 } else { x.2 }, se))
                    })
                    .collect();
                Series {
                    label: a.to_string(),
                    points: pts.iter().map(|p| (p.0, p.1)).collect(),
                    err: (!max).then(|| pts.iter().map(|p| p.2).collect()),
                }
            })
            .collect();
        let stat = if max { "maximum" } else { "expected" };
        let mut plot = LinePlot::from(LineChart {
            title: format!("{stat} makespan / L' per speedup model (log scale)"),
            x_label: "speedup model".into(),
            y_label: format!("{stat} makespan / L'"),
            series,
            y_range: None,
            reference: Some(1.0),
            styles: columns.iter().map(|a| style_of(columns, a)).collect(),
        })
        .log_y()
        .categorical(&models);
        for row in ["LPA", "BATCH", "MINTIME", "MINAREA"] {
            let Some(i) = columns.iter().position(|c| *c == row) else {
                continue;
            };
            let pts = MoldModel::ALL
                .iter()
                .enumerate()
                .filter_map(|(k, &m)| {
                    paper_value(row, m).map(|(e, x)| (k as f64, if max { x } else { e }))
                })
                .collect();
            plot = plot.with_paper(i, Series::new(format!("{row} (paper, Table 1)"), pts));
        }
        let note = if max {
            "maximum over sets × scenarios; hollow: the paper's Table 1"
        } else {
            "bars: ± 1 standard error over the sets; hollow: the paper's Table 1"
        };
        plot.with_note(note).into()
    };
    let mut fig = Figure::grid(title, 2, vec![panel(false), panel(true)]).with_subtitle(subtitle);
    fig.panel_size = (820, 620);
    Ok(fig)
}

/// The figure: 2 columns (expected, maximum) × one row per paper row that `columns` covers.
pub fn figure(title: String, columns: &[&str], agg: &[Agg]) -> Result<Figure> {
    let groups: Vec<String> = MoldModel::ALL
        .iter()
        .map(|m| m.label().to_string())
        .collect();
    let ours = |a: &str, max: bool| -> Vec<f64> {
        MoldModel::ALL
            .iter()
            .map(|&m| {
                agg.iter()
                    .find(|x| x.0 == a && x.1 == m)
                    .map_or(f64::NAN, |x| if max { x.3 } else { x.2 })
            })
            .collect()
    };
    let paper = |a: &str, max: bool| -> Vec<f64> {
        MoldModel::ALL
            .iter()
            .map(|&m| paper_value(a, m).map_or(f64::NAN, |(e, x)| if max { x } else { e }))
            .collect()
    };
    let mut panels = Vec::new();
    for row in ["LPA", "BATCH", "MINTIME", "MINAREA"] {
        // Our labels reported against this paper row (BATCH, BATCH-U, BATCH-PUB → BATCH).
        let mine: Vec<&str> = columns
            .iter()
            .copied()
            .filter(|c| {
                *c == row
                    || c.strip_suffix("-U") == Some(row)
                    || c.strip_suffix("-PUB") == Some(row)
            })
            .collect();
        if mine.is_empty() {
            continue;
        }
        for max in [false, true] {
            let mut series: Vec<BarSeries> = mine
                .iter()
                .map(|a| BarSeries {
                    label: format!("{a} (resched)"),
                    values: ours(a, max),
                    err: None,
                })
                .collect();
            series.push(BarSeries {
                label: format!("{row} (paper)"),
                values: paper(row, max),
                err: None,
            });
            // The paper's bar in the light colour of the row's own algorithm, or of the first
            // reading of it we run.
            let like = if mine.contains(&row) { row } else { mine[0] };
            let mut styles: Vec<usize> = mine.iter().map(|a| style_of(columns, a)).collect();
            styles.push(plot::light_bar(style_of(columns, like)));
            let stat = if max { "maximum" } else { "expected" };
            panels.push(Chart::Bar(BarChart {
                title: format!("{row}: {stat} ratio, resched vs the paper's Table 1"),
                y_label: "makespan / L'".into(),
                groups: groups.clone(),
                series,
                y_range: None,
                reference: Some(1.0),
                styles,
            }));
        }
    }
    let mut fig = Figure::grid(title, 2, panels);
    fig.panel_size = (760, 380);
    Ok(fig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::plot;

    /// The figure of a campaign with our full-size values of the kind docs/results/moldable-table1.md reports
    /// (BATCH-PUB at 1.46 beside the paper's 4.16 on Mix's maximum, MINAREA above 100):
    /// every panel and series is drawn, each with a value, and nothing is NaN.
    #[test]
    fn every_row_and_reading_is_drawn() {
        let columns = ["LPA", "BATCH", "BATCH-U", "BATCH-PUB", "MINTIME", "MINAREA"];
        let mut agg = Vec::new();
        for (i, a) in columns.iter().enumerate() {
            for (k, &m) in MoldModel::ALL.iter().enumerate() {
                let (e, x) = paper_value(a, m).unwrap();
                let f = 0.8 + 0.05 * (i + k) as f64;
                agg.push((a.to_string(), m, e * f, x * f * 0.6));
            }
        }
        let fig = figure("t".into(), &columns, &agg).unwrap();
        assert_eq!(fig.panels.len(), 8, "4 paper rows × (expected, maximum)");
        let dir = tempfile::tempdir().unwrap();
        let files = plot::write_both(&fig, &dir.path().join("table1_vs_paper")).unwrap();
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        for label in [
            "BATCH-PUB (resched)",
            "BATCH-U (resched)",
            "BATCH (paper)",
            "MINAREA (paper)",
            "MINTIME: maximum ratio",
        ] {
            assert!(svg.contains(label), "{label} missing");
        }
        assert!(!svg.contains("NaN"));
        // One colour per algorithm in every panel, the paper's bar in its light version.
        for c in &fig.panels {
            let plot::Chart::Bar(b) = c else {
                panic!("a bar panel expected")
            };
            for (s, st) in b.series.iter().zip(&b.styles) {
                let want = match s.label.strip_suffix(" (paper)") {
                    Some(n) => plot::light_bar(columns.iter().position(|c| *c == n).unwrap()),
                    None => {
                        let n = s.label.trim_end_matches(" (resched)");
                        columns.iter().position(|c| *c == n).unwrap()
                    }
                };
                assert_eq!(*st, want, "{} in {}", s.label, b.title);
            }
            assert_eq!(b.styles.len(), b.series.len(), "{}", b.title);
        }
        if let Some(keep) = std::env::var_os("RESCHED_KEEP_FIGURE") {
            std::fs::copy(&files[1], keep).unwrap();
        }
    }
}
