//! The tables of a synthetic sweep (rigid paper Sections 5.2–5.3): `cells.csv` (every cell ×
//! heuristic × priority), `summary.csv` (the aggregate) and the Markdown summary (every
//! heuristic with LPT, and the best priority of each).
use super::aggregate::{find, Agg};
use super::cell::RigidCell;
use super::Sweep;
use crate::experiment::{fmt3, runner, Options};
use resched::error::Result;
use std::path::{Path, PathBuf};

/// The columns of `cells.csv`; the first is the sweep's coordinate (`qbar` or `procs`).
const CELL_HEADER: [&str; 13] = [
    "x",
    "qbar",
    "procs",
    "set",
    "algo",
    "priority",
    "scenarios",
    "mean_ratio",
    "std_ratio",
    "max_ratio_exact",
    "max_ratio",
    "mean_failures",
    "checked",
];

/// The columns of `summary.csv`; the first is the sweep's coordinate.
const SUMMARY_HEADER: [&str; 8] = [
    "x",
    "algo",
    "priority",
    "mean_ratio",
    "std_over_sets",
    "max_ratio",
    "sets",
    "mean_failures",
];

/// Writes `cells.csv` and `summary.csv` into `dir`; returns their paths.
pub(super) fn write_csv(
    dir: &Path,
    sw: &Sweep,
    results: &[RigidCell],
    agg: &[Agg],
) -> Result<Vec<PathBuf>> {
    let cell_rows: Vec<Vec<String>> = results
        .iter()
        .flat_map(|c| {
            c.stats.iter().map(move |s| {
                vec![
                    c.x.to_string(),
                    c.qbar.to_string(),
                    c.procs.to_string(),
                    c.set.to_string(),
                    s.algo.clone(),
                    s.priority.clone(),
                    s.scenarios.to_string(),
                    s.mean.to_string(),
                    s.std.to_string(),
                    s.max.to_string(),
                    s.max_f64.to_string(),
                    c.mean_failures.to_string(),
                    s.checked.to_string(),
                ]
            })
        })
        .collect();
    let cells = dir.join("cells.csv");
    let mut header = CELL_HEADER;
    header[0] = sw.x_name;
    runner::write_csv(&cells, &header, &cell_rows)?;
    let agg_rows: Vec<Vec<String>> = agg
        .iter()
        .map(|a| {
            vec![
                a.x.to_string(),
                a.algo.clone(),
                a.priority.clone(),
                a.mean.to_string(),
                a.std_sets.to_string(),
                a.max.to_string(),
                a.sets.to_string(),
                a.mean_failures.to_string(),
            ]
        })
        .collect();
    let summary = dir.join("summary.csv");
    let mut header = SUMMARY_HEADER;
    header[0] = sw.x_name;
    runner::write_csv(&summary, &header, &agg_rows)?;
    Ok(vec![cells, summary])
}

/// The Markdown summary up to the findings' heading: every heuristic (`columns`, the labels)
/// with LPT, then the best priority of each.
pub(super) fn markdown(
    opts: &Options,
    sw: &Sweep,
    agg: &[Agg],
    xs: &[f64],
    columns: &[&str],
) -> String {
    let mut md = format!(
        "# {} (resched {})\n\nseed {}, {} sets × {} scenarios per point{}; mean over sets of the expected makespan / L(f).\n\n",
        sw.name,
        crate::experiment::build_label(),
        opts.seed,
        sw.sets,
        sw.scenarios,
        if opts.quick { " (quick)" } else { "" }
    );
    md.push_str("## All heuristics with LPT\n\n");
    let mut header = vec![sw.x_label.to_string()];
    header.extend(columns.iter().map(|h| h.to_string()));
    header.push("failures/scenario".into());
    let rows: Vec<Vec<String>> = xs
        .iter()
        .map(|&x| {
            let mut r = vec![x.to_string()];
            r.extend(
                columns
                    .iter()
                    .map(|h| find(agg, x, h, "LPT").map_or("–".into(), |a| fmt3(a.mean))),
            );
            // Every heuristic sees the same scenarios: the first column's count is the point's.
            r.push(
                columns
                    .first()
                    .and_then(|h| find(agg, x, h, "LPT"))
                    .map_or("–".into(), |a| format!("{:.1}", a.mean_failures)),
            );
            r
        })
        .collect();
    md.push_str(&runner::markdown_table(&header, &rows));
    md.push_str("\n## Best priority of each heuristic (mean ratio)\n\n");
    let rows: Vec<Vec<String>> = xs
        .iter()
        .map(|&x| {
            let mut r = vec![x.to_string()];
            for h in columns {
                let best = agg
                    .iter()
                    .filter(|a| a.x == x && a.algo == *h)
                    .min_by(|a, b| a.mean.total_cmp(&b.mean));
                r.push(best.map_or("–".into(), |a| format!("{} {}", a.priority, fmt3(a.mean))));
            }
            r
        })
        .collect();
    let mut header = vec![sw.x_label.to_string()];
    header.extend(columns.iter().map(|h| h.to_string()));
    md.push_str(&runner::markdown_table(&header, &rows));
    md.push_str("\n## The paper's findings, checked\n\n");
    md
}
