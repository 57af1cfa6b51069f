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
//!
//! The algorithms are catalogue names ([`resched::oracle::catalogue`]); their columns are the
//! catalogue's labels. The files: `cell.rs` runs one cell, `aggregate.rs` averages cells over
//! the sets, `outputs.rs` writes the tables, `figures.rs` draws the paper's figures and
//! `findings.rs` checks the statements both sweeps share.
mod aggregate;
mod cell;
mod figures;
mod findings;
mod outputs;

pub use aggregate::{aggregate, find, mean_ranks, Agg};
pub use cell::{rigid_cell, RigidCell};
pub use findings::{best, common_findings, estimate, gap_pct, shelffill_gain, PriorityClaim};

use super::runner::{self, Cell};
use super::{labels, version, Options, Outcome};
use resched::error::Result;
use resched::oracle::catalogue::{self, Paper};
use resched::schedulers::Priority;
use resched::workload::synthetic::RigidSetSpec;

/// The heuristics the rigid paper evaluates (Section 5.1), as catalogue names in its order:
/// R-List-0/1/Q, R-Shelf-B/NB, R-ShelfFill-B/NB.
pub fn heuristics() -> Vec<&'static str> {
    catalogue::evaluated(Paper::Rigid)
}

/// R-List-1 and R-List-Q with their reservations kept until the job starts
/// ([`resched::schedulers::rlist::Reservations::Kept`]): the reading of the paper's own simulator,
/// run beside Section 4.1's to show which one the paper's figures follow. Not one of the
/// paper's heuristics.
pub const KEPT: [&str; 2] = ["easy-kept", "conservative-kept"];

/// What the synthetic sweeps run: the paper's seven heuristics, then [`KEPT`].
pub fn sweep_heuristics() -> Vec<&'static str> {
    heuristics().into_iter().chain(KEPT).collect()
}

/// The style of heuristic `label` (a catalogue label) in every rigid figure: its place among
/// the labels of [`sweep_heuristics`] (nine, so each gets its own colour), so that a
/// heuristic is drawn alike in rigid-qbar, rigid-procs and rigid-trace whatever else a figure
/// shows. An unknown label gets the style after them all.
pub fn heuristic_style(label: &str) -> usize {
    let all = sweep_heuristics();
    all.iter()
        .position(|n| catalogue::label(n).is_ok_and(|l| l == label))
        // default: not one of the sweeps' heuristics
        .unwrap_or(all.len())
}

/// The styles of the series labelled `labels` ([`heuristic_style`]).
pub fn heuristic_styles(labels: &[&str]) -> Vec<usize> {
    labels.iter().map(|l| heuristic_style(l)).collect()
}

/// The seven priority rules of Section 5.1.
pub const PRIORITIES: [Priority; 7] = Priority::PAPER;

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
    let algos = sweep_heuristics();
    let columns = labels(&algos)?;
    let manifest = serde_json::json!({
        "campaign": sw.name,
        "version": version(),
        "seed": seed,
        "quick": opts.quick,
        "sets": sw.sets,
        "scenarios": sw.scenarios,
        "points": sw.points.iter().map(|p| serde_json::json!({"x": p.0, "qbar": p.1, "procs": p.2})).collect::<Vec<_>>(),
        "jobs": spec,
        "heuristics": columns,
        "priorities": PRIORITIES.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
    });
    let cfg = opts.run_config(sw.name);
    runner::prepare(&cfg.out, &manifest)?;
    let (results, stats) = match runner::run_cells(&cfg, &cells(sw), |c| {
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
            &algos,
            &PRIORITIES,
        )
    })? {
        runner::Ran::Whole(r, s) => (r, s),
        runner::Ran::Shard(o) => return Ok(o),
    };
    let agg = aggregate(&results);
    let xs: Vec<f64> = sw.points.iter().map(|p| p.0).collect();
    let dir = cfg.out.clone();
    let mut files = outputs::write_csv(&dir, sw, &results, &agg)?;
    let mut md = outputs::markdown(opts, sw, &agg, &xs, &columns);
    md.push_str(&findings(&agg, &xs));
    runner::write_results_and_summary(&dir, &manifest, &agg, &results, &md, &mut files)?;
    files.extend(figures::write(&dir, sw, seed, &agg, &xs)?);
    Ok(Outcome {
        dir,
        files,
        stats,
        markdown: md,
    })
}

/// The cells of a sweep: every point × every set, keyed `p<point>-s<set>`.
fn cells(sw: &Sweep) -> Vec<Cell<(f64, f64, u32, u64)>> {
    let mut cells = Vec::new();
    for (i, &(x, qbar, procs)) in sw.points.iter().enumerate() {
        for s in 0..sw.sets as u64 {
            cells.push(Cell {
                key: format!("p{i:02}-s{s:03}"),
                params: (x, qbar, procs, s),
            });
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sweeps' columns are the paper's labels, in the order of its figures.
    #[test]
    fn sweep_columns_are_the_papers_labels() {
        assert_eq!(
            labels(&sweep_heuristics()).unwrap(),
            [
                "R-List-0",
                "R-List-1",
                "R-List-Q",
                "R-Shelf-B",
                "R-Shelf-NB",
                "R-ShelfFill-B",
                "R-ShelfFill-NB",
                "R-List-1-kept",
                "R-List-Q-kept"
            ]
        );
    }

    /// Each heuristic of the rigid figures has a style of its own, the same in a figure of a
    /// few of them (rigid-qbar's shelf heuristics) as in one of all (rigid-trace's Table 1).
    #[test]
    fn each_heuristic_keeps_one_style_everywhere() {
        let all = labels(&sweep_heuristics()).unwrap();
        let styles = heuristic_styles(&all);
        assert_eq!(styles, (0..all.len()).collect::<Vec<_>>());
        assert!(all.len() <= 10, "more heuristics than palette colours");
        let fill_b = heuristic_style("R-ShelfFill-B");
        assert_eq!(
            heuristic_styles(&["R-Shelf-B", "R-ShelfFill-B"])[1],
            heuristic_styles(&["R-List-0", "R-List-1", "R-List-Q", "R-ShelfFill-B"])[3],
        );
        assert_eq!(all[fill_b], "R-ShelfFill-B");
        assert_eq!(heuristic_style("no such heuristic"), all.len());
    }
}
