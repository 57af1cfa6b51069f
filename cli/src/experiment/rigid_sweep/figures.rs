//! The figures of a synthetic sweep, like the rigid paper's: the shelf heuristics with LPT
//! (Figures 4(a)/4(b)), and one panel per heuristic of Figures 5/6 with every priority rule,
//! the kept-reservation variants beside them, and a last panel with each heuristic's best
//! priority.
use super::aggregate::{find, Agg};
use super::{heuristic_styles, heuristics, Sweep, KEPT, PRIORITIES};
use crate::experiment::{eval, labels};
use crate::render::plot::{self, Chart, Figure, LineChart, LinePlot, Series};
use resched::error::Result;
use resched::oracle::catalogue::{self, Algo};
use std::path::{Path, PathBuf};

/// The heuristics of Figures 5 and 6 (catalogue names): R-List-0/1/Q and R-ShelfFill-B/NB.
pub const FIGURE5: [&str; 5] = [
    "greedy",
    "easy",
    "conservative",
    "r-shelffill-b",
    "r-shelffill-nb",
];

/// The shelf heuristics the paper evaluates (R-Shelf-B/NB, R-ShelfFill-B/NB), by family.
fn shelves() -> Vec<&'static str> {
    heuristics()
        .into_iter()
        .filter(|n| matches!(catalogue::parse(n).map(|r| r.algo), Ok(Algo::Shelf { .. })))
        .collect()
}

/// Draws both figures into `dir` (`shelf` and `heuristics`, SVG and PNG); returns the files.
pub(super) fn write(
    dir: &Path,
    sw: &Sweep,
    seed: u64,
    agg: &[Agg],
    xs: &[f64],
) -> Result<Vec<PathBuf>> {
    let series_of = |algo: &str, prio: &str, label: String| Series {
        label,
        points: xs
            .iter()
            .filter_map(|&x| find(agg, x, algo, prio).map(|a| (x, a.mean)))
            .collect(),
        err: Some(
            xs.iter()
                .filter_map(|&x| find(agg, x, algo, prio).map(|a| a.std_sets))
                .collect(),
        ),
    };
    // `styles` empty: the series are priorities; else each heuristic's own style.
    let line = |title: String, series: Vec<Series>, styles: Vec<usize>| {
        Chart::Line(LineChart {
            title,
            x_label: sw.x_label.into(),
            y_label: "normalized makespan".into(),
            series,
            y_range: None,
            reference: None,
            styles,
        })
    };
    let mut files = Vec::new();
    let subtitle = run_line(sw, seed);
    let shelf_labels = labels(&shelves())?;
    // One panel: the figure's title and subtitle say what it is and what the bars are.
    let shelf = line(
        String::new(),
        shelf_labels
            .iter()
            .map(|h| series_of(h, "LPT", h.to_string()))
            .collect(),
        heuristic_styles(&shelf_labels),
    );
    let mut fig = Figure::single(with_paper_bound(shelf, xs));
    fig.title = format!(
        "{}: shelf heuristics, LPT (like Figure {})",
        sw.name, sw.figures.0
    );
    fig.subtitle = subtitle.clone();
    files.extend(plot::write_both(&fig, &dir.join("shelf"))?);
    // Figure 5's heuristics, then the kept-reservation variants.
    let names: Vec<&str> = FIGURE5.into_iter().chain(KEPT).collect();
    let panel_labels = labels(&names)?;
    let mut panels: Vec<Chart> = panel_labels
        .iter()
        .map(|h| {
            let series = PRIORITIES
                .iter()
                .map(|p| series_of(h, &p.to_string(), p.to_string()))
                .collect();
            line(h.to_string(), series, Vec::new())
        })
        .collect();
    let best: Vec<Series> = panel_labels
        .iter()
        .map(|h| {
            let prio = best_priority(agg, h);
            series_of(h, &prio, format!("{h} {prio}"))
        })
        .collect();
    panels.push(line(
        "best priorities".into(),
        best,
        heuristic_styles(&panel_labels),
    ));
    let fig = Figure::grid(
        format!(
            "{}: every heuristic and priority (like Figure {})",
            sw.name, sw.figures.1
        ),
        3,
        panels,
    )
    .with_subtitle(subtitle);
    files.extend(plot::write_both(&fig, &dir.join("heuristics"))?);
    Ok(files)
}

/// The subtitle of a sweep's figures: the fixed parameter, sets × scenarios, the seed and what
/// the error bars are.
fn run_line(sw: &Sweep, seed: u64) -> String {
    let fixed = |v: Vec<String>| {
        let first = v.first().cloned();
        first.filter(|f| v.iter().all(|x| x == f))
    };
    let qs = fixed(sw.points.iter().map(|p| p.1.to_string()).collect());
    let ps = fixed(sw.points.iter().map(|p| p.2.to_string()).collect());
    let mut parts = Vec::new();
    if let Some(p) = ps {
        parts.push(format!("P = {p}"));
    }
    if let Some(q) = qs {
        parts.push(format!("q̄ = {q}"));
    }
    parts.push(format!(
        "{} sets × {} scenarios per point, seed {seed}",
        sw.sets, sw.scenarios
    ));
    parts.push(format!(
        "error bars: ± 1 standard deviation over the {} sets",
        sw.sets
    ));
    parts.join(", ")
}

/// The one number the paper prints about Figure 4 (Section 5.2): "the best shelf-based
/// algorithm, R-ShelfFill-B, has a maximum normalized makespan of 1.2 in this set of
/// experiments" — drawn as a dashed line in R-ShelfFill-B's colour across the sweep. The
/// curves themselves are only in the paper's picture, not in its text: none is drawn.
fn with_paper_bound(chart: Chart, xs: &[f64]) -> Chart {
    let Chart::Line(c) = chart else { return chart };
    let (lo, hi) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    let mut plot = LinePlot::from(c);
    if let Some(i) = plot
        .chart
        .series
        .iter()
        .position(|s| s.label == "R-ShelfFill-B")
    {
        if lo.is_finite() && hi.is_finite() {
            let bound = Series::new(
                "R-ShelfFill-B max (paper, §5.2 text: 1.2)",
                vec![(lo, 1.2), (hi, 1.2)],
            );
            plot = plot.with_paper(i, bound);
        }
    }
    Chart::Plot(plot)
}

/// The priority of heuristic `algo` (a label) with the least mean ratio over the sweep's points;
/// the first in [`PRIORITIES`] order on ties.
fn best_priority(agg: &[Agg], algo: &str) -> String {
    let mean = |p: &str| {
        eval::summary(
            agg.iter()
                .filter(|g| g.algo == algo && g.priority == p)
                .map(|g| g.mean),
        )
        .0
    };
    let [first, rest @ ..] = PRIORITIES.map(|p| p.to_string());
    rest.into_iter().fold(first, |best, p| {
        if mean(&p).total_cmp(&mean(&best)).is_lt() {
            p
        } else {
            best
        }
    })
}
