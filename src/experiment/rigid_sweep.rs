//! The rigid paper's synthetic sweeps (Section 5.1 setup, Sections 5.2–5.3 results), shared by
//! `rigid-qbar` (Figures 4(a) and 5) and `rigid-procs` (Figures 4(b) and 6).
//!
//! A cell is one sweep point (a q̄ or a P) on one synthetic job set: every heuristic of
//! Section 5.1 (R-List-0/1/Q, R-Shelf-B/NB, R-ShelfFill-B/NB) with each of the seven priority
//! rules (LPT, SPT, HPA, LPA, LA, SA, RANDOM) runs on the same scenarios, and its makespan is
//! normalized by L(f) = max(t_max(f), A(f)/P) (Equations (5)–(6)). As in the paper, a set's
//! ratio is the mean over its scenarios, and a sweep point's the mean over the sets.
//!
//! Reading of the paper: with q̄ = 0 every scenario is the empty one, so one scenario is run
//! instead of 1000 identical ones (same mean, same maximum). RANDOM's seed for set s is
//! campaign seed + s (wrapping), the same for every sweep point, so that only the failures
//! change along the sweep.
use super::eval::{self, AlgoStats, Contender};
use super::runner::{self, Cell};
use super::{fmt3, version, Options, Outcome};
use crate::bounds;
use crate::error::{Error, Result};
use crate::model::{Instance, Scenario};
use crate::oracle::AlgoSpec;
use crate::render::plot::{self, Chart, Figure, LineChart, Series};
use crate::schedulers::Priority;
use crate::time::Time;
use crate::workload::sampling::FailureLaw;
use crate::workload::synthetic::RigidSetSpec;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The heuristics of Section 5.1: (the paper's label, the registry's name).
pub const HEURISTICS: [(&str, &str); 7] = [
    ("R-List-0", "greedy"),
    ("R-List-1", "easy"),
    ("R-List-Q", "conservative"),
    ("R-Shelf-B", "r-shelf-b"),
    ("R-Shelf-NB", "r-shelf-nb"),
    ("R-ShelfFill-B", "r-shelffill-b"),
    ("R-ShelfFill-NB", "r-shelffill-nb"),
];

/// R-List-1 and R-List-Q with their reservations kept until the job starts
/// ([`crate::schedulers::rlist::Reservations::Kept`]): the reading of the paper's own simulator
/// (see `src/schedulers/rlist.rs`), run beside Section 4.1's to show which one the paper's
/// figures follow. Not one of the paper's heuristics.
pub const KEPT: [(&str, &str); 2] = [
    ("R-List-1-kept", "easy-kept"),
    ("R-List-Q-kept", "conservative-kept"),
];

/// What the synthetic sweeps run: the paper's seven heuristics, then [`KEPT`].
pub const SWEEP_HEURISTICS: [(&str, &str); 9] = [
    HEURISTICS[0],
    HEURISTICS[1],
    HEURISTICS[2],
    HEURISTICS[3],
    HEURISTICS[4],
    HEURISTICS[5],
    HEURISTICS[6],
    KEPT[0],
    KEPT[1],
];

/// The seven priority rules of Section 5.1.
pub const PRIORITIES: [Priority; 7] = Priority::PAPER;

/// The result of one cell: one job set at one sweep point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RigidCell {
    pub key: String,
    /// The sweep coordinate (q̄ or P).
    pub x: f64,
    pub qbar: f64,
    pub procs: u32,
    /// Index of the job set (or day).
    pub set: u64,
    /// Human label of the set (`set 3`, `Mira-...: day 12`).
    pub label: String,
    pub jobs: usize,
    /// λ derived from q̄ (Section 5.1).
    pub lambda: f64,
    pub scenarios: usize,
    /// Mean total number of failures Σ f_j per scenario.
    pub mean_failures: f64,
    pub stats: Vec<AlgoStats>,
}

/// Runs the heuristics `algos` × `priorities` on `inst` under the q̄ law, over `scenarios`
/// scenarios of set `set` (scenario streams keyed by (seed, set, k)).
#[allow(clippy::too_many_arguments)]
pub fn rigid_cell(
    key: String,
    label: String,
    x: f64,
    inst: &Instance,
    qbar: f64,
    seed: u64,
    set: u64,
    scenarios: usize,
    algos: &[(&str, &str)],
    priorities: &[Priority],
) -> Result<RigidCell> {
    let law = FailureLaw::rigid_qbar(inst, qbar)?;
    let n_scen = if qbar == 0.0 { 1 } else { scenarios };
    let scen: Vec<Scenario> = (0..n_scen as u64)
        .map(|k| law.scenario(seed, set, k))
        .collect::<Result<_>>()?;
    let mean_failures = scen.iter().map(|s| s.total_failures() as f64).sum::<f64>() / n_scen as f64;
    let mut contenders = Vec::with_capacity(algos.len() * priorities.len());
    for &(_, name) in algos {
        for &p in priorities {
            let spec = AlgoSpec {
                name: name.to_string(),
                priority: Some(p),
                seed: seed.wrapping_add(set),
                eps: None,
            };
            contenders.push(Contender::new(&spec, inst)?);
        }
    }
    let lower = |sc: &Scenario| -> Result<Time> {
        bounds::rigid(inst, sc)
            .map(|b| b.lower)
            .ok_or_else(|| Error::Limit("L(f) needs a rigid instance".into()))
    };
    let stats = eval::evaluate(inst, &scen, &mut contenders, &lower)?;
    Ok(RigidCell {
        key,
        x,
        qbar,
        procs: inst.procs,
        set,
        label,
        jobs: inst.len(),
        lambda: law.lambda,
        scenarios: n_scen,
        mean_failures,
        stats,
    })
}

/// One row of the summary: a (point, heuristic, priority) aggregated over the sets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Agg {
    pub x: f64,
    pub algo: String,
    pub priority: String,
    /// Mean over sets of the per-set expected ratio (what the paper plots).
    pub mean: f64,
    /// Standard deviation over sets of the per-set expected ratio.
    pub std_sets: f64,
    /// Largest ratio over every set and scenario.
    pub max: f64,
    pub sets: usize,
    /// Mean total failures per scenario, averaged over the sets.
    pub mean_failures: f64,
}

/// Aggregates cells by (x, algo, priority), in first-seen order.
pub fn aggregate(cells: &[RigidCell]) -> Vec<Agg> {
    let mut keys: Vec<(f64, String, String)> = Vec::new();
    for c in cells {
        for s in &c.stats {
            let k = (c.x, s.algo.clone(), s.priority.clone());
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    keys.into_iter()
        .map(|(x, algo, priority)| {
            let rows: Vec<(&RigidCell, &AlgoStats)> = cells
                .iter()
                .filter(|c| c.x == x)
                .flat_map(|c| {
                    c.stats
                        .iter()
                        .filter(|s| s.algo == algo && s.priority == priority)
                        .map(move |s| (c, s))
                })
                .collect();
            let (mean, std_sets, _) = eval::summary(rows.iter().map(|(_, s)| s.mean));
            let max = rows
                .iter()
                .map(|(_, s)| s.max_f64)
                .fold(f64::NEG_INFINITY, f64::max);
            let (mf, _, _) = eval::summary(rows.iter().map(|(c, _)| c.mean_failures));
            Agg {
                x,
                algo,
                priority,
                mean,
                std_sets,
                max,
                sets: rows.len(),
                mean_failures: mf,
            }
        })
        .collect()
}

/// Looks up one aggregate.
pub fn find<'a>(agg: &'a [Agg], x: f64, algo: &str, priority: &str) -> Option<&'a Agg> {
    agg.iter()
        .find(|a| a.x == x && a.algo == algo && a.priority == priority)
}

/// The description of a sweep campaign.
pub struct Sweep {
    pub name: &'static str,
    /// `qbar` or `procs` (CSV column name).
    pub x_name: &'static str,
    /// Axis label.
    pub x_label: &'static str,
    /// (x, q̄, P) of every point.
    pub points: Vec<(f64, f64, u32)>,
    pub sets: usize,
    pub scenarios: usize,
    /// Figure numbers in the paper: (shelf figure, all-heuristics figure).
    pub figures: (&'static str, &'static str),
}

/// Runs a sweep: cells (point × set), then CSV/JSON/Markdown and the figures. `findings`
/// writes the campaign's comparison with the paper's statements.
pub fn run_sweep(
    opts: &Options,
    sw: &Sweep,
    findings: &dyn Fn(&[Agg], &[f64]) -> String,
) -> Result<Outcome> {
    let seed = opts.seed;
    let spec = RigidSetSpec::paper();
    let manifest = serde_json::json!({
        "campaign": sw.name,
        "version": version(),
        "seed": seed,
        "quick": opts.quick,
        "sets": sw.sets,
        "scenarios": sw.scenarios,
        "points": sw.points.iter().map(|p| serde_json::json!({"x": p.0, "qbar": p.1, "procs": p.2})).collect::<Vec<_>>(),
        "jobs": spec,
        "heuristics": SWEEP_HEURISTICS.iter().map(|h| h.0).collect::<Vec<_>>(),
        "priorities": PRIORITIES.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
    });
    let cfg = opts.run_config(sw.name);
    runner::prepare(&cfg.out, &manifest)?;
    let mut cells = Vec::new();
    for (i, &(x, qbar, procs)) in sw.points.iter().enumerate() {
        for s in 0..sw.sets as u64 {
            cells.push(Cell {
                key: format!("p{i:02}-s{s:03}"),
                params: (x, qbar, procs, s),
            });
        }
    }
    let (results, stats) = runner::run_cells(&cfg, &cells, |c| {
        let (x, qbar, procs, s) = c.params;
        let inst = spec.with_procs(procs).generate(seed, s)?;
        rigid_cell(
            c.key.clone(),
            format!("set {s}"),
            x,
            &inst,
            qbar,
            seed,
            s,
            sw.scenarios,
            &SWEEP_HEURISTICS,
            &PRIORITIES,
        )
    })?;
    let agg = aggregate(&results);
    let xs: Vec<f64> = sw.points.iter().map(|p| p.0).collect();
    let dir = cfg.out.clone();
    let mut files: Vec<PathBuf> = Vec::new();

    // CSV: every cell × algorithm, and the aggregate.
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
    let p = dir.join("cells.csv");
    runner::write_csv(
        &p,
        &[
            sw.x_name,
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
        ],
        &cell_rows,
    )?;
    files.push(p);
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
    let p = dir.join("summary.csv");
    runner::write_csv(
        &p,
        &[
            sw.x_name,
            "algo",
            "priority",
            "mean_ratio",
            "std_over_sets",
            "max_ratio",
            "sets",
            "mean_failures",
        ],
        &agg_rows,
    )?;
    files.push(p);
    let p = dir.join("results.json");
    runner::write_json(
        &p,
        &serde_json::json!({"manifest": manifest, "summary": agg, "cells": results}),
    )?;
    files.push(p);

    // Markdown: LPT table, best priority per heuristic, and the findings.
    let mut md = format!(
        "# {} (resched {})\n\nseed {seed}, {} sets × {} scenarios per point{}; mean over sets of the expected makespan / L(f).\n\n",
        sw.name,
        version(),
        sw.sets,
        sw.scenarios,
        if opts.quick { " (quick)" } else { "" }
    );
    md.push_str("## All heuristics with LPT\n\n");
    let mut header = vec![sw.x_label.to_string()];
    header.extend(SWEEP_HEURISTICS.iter().map(|h| h.0.to_string()));
    header.push("failures/scenario".into());
    let rows: Vec<Vec<String>> = xs
        .iter()
        .map(|&x| {
            let mut r = vec![x.to_string()];
            r.extend(
                SWEEP_HEURISTICS
                    .iter()
                    .map(|h| find(&agg, x, h.0, "LPT").map_or("–".into(), |a| fmt3(a.mean))),
            );
            r.push(
                find(&agg, x, "R-List-0", "LPT")
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
            for h in SWEEP_HEURISTICS {
                let best = agg
                    .iter()
                    .filter(|a| a.x == x && a.algo == h.0)
                    .min_by(|a, b| a.mean.total_cmp(&b.mean));
                r.push(best.map_or("–".into(), |a| format!("{} {}", a.priority, fmt3(a.mean))));
            }
            r
        })
        .collect();
    let mut header = vec![sw.x_label.to_string()];
    header.extend(SWEEP_HEURISTICS.iter().map(|h| h.0.to_string()));
    md.push_str(&runner::markdown_table(&header, &rows));
    md.push_str("\n## The paper's findings, checked\n\n");
    md.push_str(&findings(&agg, &xs));
    let p = dir.join("summary.md");
    crate::error::write_atomic(&p, md.as_bytes())?;
    files.push(p);

    // Figures like the paper's: shelf variants with LPT; one panel per heuristic (priorities);
    // last panel the best priority of each heuristic.
    let series_of = |algo: &str, prio: &str, label: String| Series {
        label,
        points: xs
            .iter()
            .filter_map(|&x| find(&agg, x, algo, prio).map(|a| (x, a.mean)))
            .collect(),
        err: Some(
            xs.iter()
                .filter_map(|&x| find(&agg, x, algo, prio).map(|a| a.std_sets))
                .collect(),
        ),
    };
    let shelf = LineChart {
        title: format!("Shelf heuristics, LPT (like Figure {})", sw.figures.0),
        x_label: sw.x_label.into(),
        y_label: "normalized makespan".into(),
        series: HEURISTICS[3..7]
            .iter()
            .map(|h| series_of(h.0, "LPT", h.0.to_string()))
            .collect(),
        y_range: None,
        reference: None,
    };
    let p = dir.join("shelf");
    files.extend(plot::write_both(&Figure::single(Chart::Line(shelf)), &p)?);
    // The five heuristics of Figure 5, then the kept-reservation variants.
    let five = [
        HEURISTICS[0],
        HEURISTICS[1],
        HEURISTICS[2],
        HEURISTICS[5],
        HEURISTICS[6],
        KEPT[0],
        KEPT[1],
    ];
    let mut panels: Vec<Chart> = five
        .iter()
        .map(|h| {
            Chart::Line(LineChart {
                title: h.0.to_string(),
                x_label: sw.x_label.into(),
                y_label: "normalized makespan".into(),
                series: PRIORITIES
                    .iter()
                    .map(|p| series_of(h.0, &p.to_string(), p.to_string()))
                    .collect(),
                y_range: None,
                reference: None,
            })
        })
        .collect();
    let best: Vec<Series> = five
        .iter()
        .map(|h| {
            let prio = PRIORITIES
                .iter()
                .map(|p| p.to_string())
                .min_by(|a, b| {
                    let m = |p: &str| {
                        eval::summary(
                            agg.iter()
                                .filter(|g| g.algo == h.0 && g.priority == p)
                                .map(|g| g.mean),
                        )
                        .0
                    };
                    m(a).total_cmp(&m(b))
                })
                .unwrap_or_else(|| "LPT".into());
            series_of(h.0, &prio, format!("{} {}", h.0, prio))
        })
        .collect();
    panels.push(Chart::Line(LineChart {
        title: "best priorities".into(),
        x_label: sw.x_label.into(),
        y_label: "normalized makespan".into(),
        series: best,
        y_range: None,
        reference: None,
    }));
    let fig = Figure::grid(
        format!("{} (like Figure {}), seed {seed}", sw.name, sw.figures.1),
        3,
        panels,
    );
    files.extend(plot::write_both(&fig, &dir.join("heuristics"))?);
    Ok(Outcome {
        dir,
        files,
        stats,
        markdown: md,
    })
}

/// Ranks of the priorities of heuristic `algo` averaged over the points (1 = best).
pub fn mean_ranks(agg: &[Agg], xs: &[f64], algo: &str) -> Vec<(String, f64)> {
    let mut ranks: Vec<(String, f64)> = PRIORITIES.iter().map(|p| (p.to_string(), 0.0)).collect();
    for &x in xs {
        let mut v: Vec<&Agg> = agg.iter().filter(|a| a.x == x && a.algo == algo).collect();
        v.sort_by(|a, b| a.mean.total_cmp(&b.mean));
        for (r, a) in v.iter().enumerate() {
            if let Some(e) = ranks.iter_mut().find(|e| e.0 == a.priority) {
                e.1 += (r + 1) as f64 / xs.len() as f64;
            }
        }
    }
    ranks.sort_by(|a, b| a.1.total_cmp(&b.1));
    ranks
}

/// "claim | paper | ours | holds" rows common to both sweeps.
pub fn common_findings(agg: &[Agg], xs: &[f64]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    // Best (heuristic, priority) at every point with failures.
    let winners: Vec<String> = xs
        .iter()
        .map(|&x| {
            agg.iter()
                .filter(|a| a.x == x)
                .min_by(|a, b| a.mean.total_cmp(&b.mean))
                .map_or("–".into(), |a| {
                    format!("{x}: {} {} {}", a.algo, a.priority, fmt3(a.mean))
                })
        })
        .collect();
    let list0 = xs.iter().all(|&x| {
        agg.iter()
            .filter(|a| a.x == x && a.mean_failures > 0.0)
            .min_by(|a, b| a.mean.total_cmp(&b.mean))
            .is_none_or(|a| a.algo == "R-List-0")
    });
    rows.push(vec![
        "R-List-0 is the best heuristic when jobs fail".into(),
        "yes (Figs. 5(f), 6(f))".into(),
        winners.join("; "),
        yes(list0),
    ]);
    // The same, among the paper's heuristics as its simulator runs them (reservations kept).
    let sim = [
        "R-List-0",
        "R-List-1-kept",
        "R-List-Q-kept",
        "R-ShelfFill-B",
        "R-ShelfFill-NB",
    ];
    let sim_winners: Vec<(f64, &Agg)> = xs
        .iter()
        .filter_map(|&x| {
            agg.iter()
                .filter(|a| a.x == x && a.mean_failures > 0.0 && sim.contains(&a.algo.as_str()))
                .min_by(|a, b| a.mean.total_cmp(&b.mean))
                .map(|a| (x, a))
        })
        .collect();
    rows.push(vec![
        "… among R-List-0, R-List-1-kept, R-List-Q-kept, R-ShelfFill-B/NB".into(),
        "yes".into(),
        sim_winners
            .iter()
            .map(|(x, a)| format!("{x}: {} {} {}", a.algo, a.priority, fmt3(a.mean)))
            .collect::<Vec<_>>()
            .join("; "),
        yes(sim_winners.iter().all(|(_, a)| a.algo == "R-List-0")),
    ]);
    for h in [
        "R-List-0",
        "R-List-1",
        "R-List-Q",
        "R-ShelfFill-B",
        "R-ShelfFill-NB",
    ] {
        let r = mean_ranks(agg, xs, h);
        let top2: Vec<&str> = r.iter().take(2).map(|e| e.0.as_str()).collect();
        let ok = top2.iter().all(|p| *p == "LPT" || *p == "LA");
        rows.push(vec![
            format!("LPT and LA are the best priorities of {h}"),
            "yes (Sections 5.3)".into(),
            r.iter()
                .map(|(p, k)| format!("{p} {k:.1}"))
                .collect::<Vec<_>>()
                .join(", ")
                + " (mean rank)",
            yes(ok),
        ]);
    }
    let sfb = xs
        .iter()
        .filter_map(|&x| find(agg, x, "R-ShelfFill-B", "LPT"))
        .map(|a| a.mean)
        .fold(f64::NEG_INFINITY, f64::max);
    rows.push(vec![
        "R-ShelfFill-B (LPT) at most 1.2 normalized".into(),
        "max 1.2 (Section 5.2)".into(),
        format!("max {}", fmt3(sfb)),
        yes(sfb <= 1.2),
    ]);
    for (fill, plain) in [
        ("R-ShelfFill-B", "R-Shelf-B"),
        ("R-ShelfFill-NB", "R-Shelf-NB"),
    ] {
        let gains: Vec<f64> = xs
            .iter()
            .filter_map(|&x| {
                Some(1.0 - find(agg, x, fill, "LPT")?.mean / find(agg, x, plain, "LPT")?.mean)
            })
            .collect();
        let (g, _, _) = eval::summary(gains.iter().copied());
        rows.push(vec![
            format!("{fill} improves on {plain} (LPT)"),
            "small at P = 10000 (Fig. 4(a)); 4.8–4.9% on average over P ≠ 10000 (Fig. 4(b))".into(),
            format!("{:.1}% on average", 100.0 * g),
            yes(gains.iter().all(|&v| v >= -1e-12)),
        ]);
    }
    rows
}

/// "yes"/"no".
pub fn yes(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}
