//! The sweeps' summary (rigid paper Sections 5.2–5.3): the cells of one sweep point averaged
//! over the job sets per (heuristic, priority) — the mean of the sets' expected ratios, which
//! is what the paper plots — and the priorities ranked per heuristic.
use super::cell::RigidCell;
use super::PRIORITIES;
use crate::experiment::eval::{self, AlgoStats};
use serde::{Deserialize, Serialize};

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
    /// Each set's expected ratio by set index, for the paired standard error of a gain
    /// between two aggregates of the same sets (not written: the summary keeps its columns).
    #[serde(skip)]
    pub per_set: Vec<(u64, f64)>,
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
                per_set: {
                    let mut v: Vec<(u64, f64)> =
                        rows.iter().map(|(c, s)| (c.set, s.mean)).collect();
                    v.sort_by_key(|e| e.0);
                    v
                },
            }
        })
        .collect()
}

/// Looks up one aggregate.
pub fn find<'a>(agg: &'a [Agg], x: f64, algo: &str, priority: &str) -> Option<&'a Agg> {
    agg.iter()
        .find(|a| a.x == x && a.algo == algo && a.priority == priority)
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
