//! `rigid-qbar`: the rigid paper's Figures 4(a) and 5 (Sections 5.2–5.3) — the normalized
//! makespan of every heuristic and priority rule when the average failure probability q̄ goes
//! from 0 to 0.9, on P = 10000 processors, 30 synthetic sets of 100 jobs, 1000 scenarios.
//!
//! `--quick`: q̄ ∈ {0, 0.3, 0.6}, 2 sets, 3 scenarios.
use super::rigid_sweep::{self, find, yes, Agg, Sweep};
use super::{claims_table, Options, Outcome};
use resched::error::Result;

/// The campaign's sweep description.
pub fn sweep(opts: &Options) -> Result<Sweep> {
    let qs: Vec<f64> = if opts.quick {
        vec![0.0, 0.3, 0.6]
    } else {
        (0..10).map(|k| k as f64 / 10.0).collect()
    };
    Ok(Sweep {
        name: "rigid-qbar",
        x_name: "qbar",
        x_label: "q̄",
        points: qs.into_iter().map(|q| (q, q, 10_000)).collect(),
        sets: opts.sets_or(30, 2)?,
        scenarios: opts.scenarios_or(1000, 3)?,
        figures: ("4(a)", "5"),
    })
}

/// Runs the campaign.
pub fn run(opts: &Options) -> Result<Outcome> {
    rigid_sweep::run_sweep(opts, &sweep(opts)?, &findings)
}

/// The paper's statements of Section 5.3 on this sweep, with our numbers.
fn findings(agg: &[Agg], xs: &[f64]) -> String {
    let mut rows = rigid_sweep::common_findings(agg, xs);
    rows.extend(rise_rows(agg, xs));
    rows.extend(gap_rows(agg, xs));
    if let Some(a) = xs.last().and_then(|&x| find(agg, x, "R-List-0", "LPT")) {
        rows.push(vec![
            "failures per scenario at the largest q̄".into(),
            "–".into(),
            format!("{:.1}", a.mean_failures),
            "–".into(),
        ]);
    }
    claims_table(&rows)
}

/// The mean ratio of heuristic `algo` (a label) at `x` with its best priority.
fn best(agg: &[Agg], algo: &str, x: f64) -> f64 {
    agg.iter()
        .filter(|a| a.x == x && a.algo == algo)
        .map(|a| a.mean)
        .fold(f64::INFINITY, f64::min)
}

/// How much each heuristic (best priority) rises above q̄ = 0: R-List-0 little, "the other
/// heuristics experience 20-30% increase in normalized makespan" (Section 5.3).
fn rise_rows(agg: &[Agg], xs: &[f64]) -> Vec<Vec<String>> {
    let Some(&x0) = xs.first() else {
        return Vec::new();
    };
    let rise = |algo: &str| {
        let base = best(agg, algo, x0);
        xs.iter()
            .map(|&x| best(agg, algo, x) / base - 1.0)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let inc = rise("R-List-0");
    let others = [
        "R-List-1",
        "R-List-Q",
        "R-ShelfFill-B",
        "R-ShelfFill-NB",
        "R-List-1-kept",
        "R-List-Q-kept",
    ];
    let text: Vec<String> = others
        .iter()
        .map(|a| format!("{a} {:+.1}%", 100.0 * rise(a)))
        .collect();
    vec![
        vec![
            "R-List-0 (best priority) rises little with q̄".into(),
            "< 10% above q̄ = 0".into(),
            format!("at most {:+.1}%", 100.0 * inc),
            yes(inc < 0.10),
        ],
        vec![
            "the other heuristics (best priority) rise with q̄, at most".into(),
            "20–30% above q̄ = 0".into(),
            text.join(", "),
            "–".into(),
        ],
    ]
}

/// The gaps to R-List-0 (best priorities) the paper reports, at its q̄ or the nearest one run.
fn gap_rows(agg: &[Agg], xs: &[f64]) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for (algo, paper, q) in [
        ("R-List-Q", "up to 26% above R-List-0 at q̄ = 0.5", 0.5),
        (
            "R-List-Q-kept",
            "(R-List-Q) up to 26% above R-List-0 at q̄ = 0.5",
            0.5,
        ),
        ("R-List-1-kept", "–", 0.5),
        ("R-ShelfFill-NB", "up to 18% above R-List-0 at q̄ = 0.3", 0.3),
    ] {
        let at = xs
            .iter()
            .copied()
            .find(|&x| (x - q).abs() < 1e-9)
            .or_else(|| {
                xs.iter()
                    .copied()
                    .min_by(|a, b| (a - q).abs().total_cmp(&(b - q).abs()))
            });
        if let Some(x) = at {
            let gap = best(agg, algo, x) / best(agg, "R-List-0", x) - 1.0;
            rows.push(vec![
                format!("{algo} (best priority) vs R-List-0 (best priority)"),
                paper.into(),
                format!("{:+.1}% at q̄ = {x}", 100.0 * gap),
                yes(gap > 0.0),
            ]);
        }
    }
    rows
}
