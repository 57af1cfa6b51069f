//! `rigid-procs`: the rigid paper's Figures 4(b) and 6 (Sections 5.2–5.3) — the normalized
//! makespan of every heuristic and priority rule when P goes from 5000 to 20000 (step 2500) at
//! q̄ = 0.3, on 30 synthetic sets of 100 jobs, 1000 scenarios. The job sets do not depend on P
//! (p_j ≤ 2000 ≤ P), so every P sees the same jobs and, through the (seed, set, scenario)
//! streams, the same failures.
//!
//! `--quick`: P ∈ {5000, 10000, 20000}, 2 sets, 3 scenarios.
use super::rigid_sweep::{self, yes, Agg, Sweep};
use super::{claims_table, Options, Outcome};
use resched::error::Result;

/// The campaign's sweep description.
pub fn sweep(opts: &Options) -> Result<Sweep> {
    let ps: Vec<u32> = if opts.quick {
        vec![5000, 10_000, 20_000]
    } else {
        (0..7).map(|k| 5000 + 2500 * k).collect()
    };
    Ok(Sweep {
        name: "rigid-procs",
        x_name: "procs",
        x_label: "P",
        points: ps.into_iter().map(|p| (f64::from(p), 0.3, p)).collect(),
        sets: opts.sets_or(30, 2)?,
        scenarios: opts.scenarios_or(1000, 3)?,
        figures: ("4(b)", "6"),
    })
}

/// Runs the campaign.
pub fn run(opts: &Options) -> Result<Outcome> {
    rigid_sweep::run_sweep(opts, &sweep(opts)?, &findings)
}

/// The paper's statements of Section 5.3 on this sweep, with our numbers.
fn findings(agg: &[Agg], xs: &[f64]) -> String {
    let mut rows = rigid_sweep::common_findings(agg, xs);
    let mean = |algo: &str, prio: &str, x: f64| {
        agg.iter()
            .find(|a| a.x == x && a.algo == algo && a.priority == prio)
            .map_or(f64::NAN, |a| a.mean)
    };
    let l0: Vec<f64> = xs.iter().map(|&x| mean("R-List-0", "LA", x)).collect();
    let (lo, hi) = l0
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    rows.push(vec![
        "R-List-0 with LA varies little with P".into(),
        "< 10% variation".into(),
        format!("{:.1}% ({:.3} to {:.3})", 100.0 * (hi / lo - 1.0), lo, hi),
        yes(hi / lo - 1.0 < 0.10),
    ]);
    // The paper's R-List-Q, then the same with reservations kept (its simulator's reading).
    for (algo, label) in [
        ("R-List-Q", "R-List-Q (LPT) is the worst, vs R-List-0 (LA)"),
        (
            "R-List-Q-kept",
            "R-List-Q-kept (LPT, reservations kept) vs R-List-0 (LA)",
        ),
    ] {
        let gaps: Vec<(f64, f64)> = xs
            .iter()
            .map(|&x| (x, mean(algo, "LPT", x) / mean("R-List-0", "LA", x) - 1.0))
            .collect();
        if let Some(&(x, g)) = gaps.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
            rows.push(vec![
                label.into(),
                "+23% at P = 15000".into(),
                format!("largest gap {:+.1}% at P = {x}", 100.0 * g),
                yes(g > 0.0),
            ]);
        }
    }
    claims_table(&rows)
}
