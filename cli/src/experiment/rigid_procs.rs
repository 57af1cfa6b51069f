//! `rigid-procs`: the rigid paper's Figures 4(b) and 6 (Sections 5.2–5.3) — the normalized
//! makespan of every heuristic and priority rule when P goes from 5000 to 20000 (step 2500) at
//! q̄ = 0.3, on 30 synthetic sets of 100 jobs, 1000 scenarios. The job sets do not depend on P
//! (p_j ≤ 2000 ≤ P), so every P sees the same jobs and, through the (seed, set, scenario)
//! streams, the same failures.
//!
//! `--quick`: P ∈ {5000, 10000, 20000}, 2 sets, 3 scenarios.
use super::rigid_sweep::{self, find, gap_pct, Agg, PriorityClaim, Sweep};
use super::verdict::{self, Estimate, Finding, Paper, Tolerance};
use super::{Options, Outcome};
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

/// Figure 6's priorities (Section 5.3): "LA and LPT are the two best priority rules for all
/// heuristics (except for R-Shelffill-NB where SPT is the second best), with LA performing
/// better for R-List-0 and R-List-1, and LPT performing better for the other heuristics".
const PRIORITIES: [PriorityClaim; 5] = [
    PriorityClaim {
        heuristic: "R-List-0",
        first: Some("LA"),
        top_two: Some(["LA", "LPT"]),
        source: "Fig. 6",
    },
    PriorityClaim {
        heuristic: "R-List-1",
        first: Some("LA"),
        top_two: Some(["LA", "LPT"]),
        source: "Fig. 6",
    },
    PriorityClaim {
        heuristic: "R-List-Q",
        first: Some("LPT"),
        top_two: Some(["LPT", "LA"]),
        source: "Fig. 6",
    },
    PriorityClaim {
        heuristic: "R-ShelfFill-B",
        first: Some("LPT"),
        top_two: Some(["LPT", "LA"]),
        source: "Fig. 6",
    },
    PriorityClaim {
        heuristic: "R-ShelfFill-NB",
        first: Some("LPT"),
        top_two: Some(["LPT", "SPT"]),
        source: "Fig. 6, the paper's exception",
    },
];

/// The paper's P of R-List-Q's gap (Section 5.3).
const GAP_AT: f64 = 15_000.0;

/// The P the paper leaves out of R-ShelfFill's average gain (Section 5.2).
const SPECIAL_P: f64 = 10_000.0;

/// The paper's statements of Sections 5.2–5.3 on this sweep, with our numbers and verdicts.
fn findings(agg: &[Agg], xs: &[f64]) -> String {
    let mut rows = rigid_sweep::common_findings(agg, xs, &PRIORITIES);
    let l0: Vec<f64> = xs
        .iter()
        .filter_map(|&x| find(agg, x, "R-List-0", "LA"))
        .map(|a| a.mean)
        .collect();
    rows.push(variation(
        "R-List-0 (LA)",
        &l0,
        Paper::at_most(10.0),
        "< 10% (Section 5.3)",
        Tolerance::Relative(0.05),
    ));
    for algo in ["R-List-Q", "R-List-Q-kept"] {
        let v: Vec<f64> = xs
            .iter()
            .filter_map(|&x| find(agg, x, algo, "LPT"))
            .map(|a| a.mean)
            .collect();
        rows.push(variation(
            &format!("{algo} (LPT)"),
            &v,
            Paper::Value(20.0),
            "∼20% (Section 5.3)",
            Tolerance::ORDER,
        ));
    }
    // R-List-Q, then the same with reservations kept (the paper's simulator's reading).
    for algo in ["R-List-Q", "R-List-Q-kept"] {
        let at = xs
            .iter()
            .copied()
            .min_by(|a, b| (a - GAP_AT).abs().total_cmp(&(b - GAP_AT).abs()));
        let pair = at.and_then(|x| {
            Some((
                x,
                find(agg, x, algo, "LPT")?,
                find(agg, x, "R-List-0", "LA")?,
            ))
        });
        let (est, x) = pair.map_or((Estimate::exact(f64::NAN), f64::NAN), |(x, q, l)| {
            (gap_pct(q, l), x)
        });
        rows.push(Finding::number(
            format!("{algo} (LPT) above R-List-0 (LA)"),
            "+23% at P = 15000 (Section 5.3)",
            Paper::Value(23.0),
            est,
            Tolerance::PRINTED,
            format!("{} at P = {x}", est.signed_text(1, "%")),
        ));
        let worst: Vec<String> = xs
            .iter()
            .filter_map(|&x| {
                [
                    ("R-List-0", "LA"),
                    ("R-List-1", "LA"),
                    (algo, "LPT"),
                    ("R-ShelfFill-B", "LPT"),
                    ("R-ShelfFill-NB", "LPT"),
                ]
                .iter()
                .filter_map(|(h, p)| find(agg, x, h, p))
                .max_by(|a, b| a.mean.total_cmp(&b.mean))
                .filter(|a| a.algo != algo)
                .map(|a| format!("{x}: {}", a.algo))
            })
            .collect();
        rows.push(Finding::direction(
            format!("{algo} is the worst of Fig. 6(f)'s five"),
            "worst (Section 5.3)",
            if worst.is_empty() {
                "worst at every P".to_string()
            } else {
                format!("not at {}", worst.join(", "))
            },
            worst.is_empty(),
        ));
    }
    let interior: Vec<String> = [
        "R-List-0",
        "R-List-1",
        "R-List-Q",
        "R-ShelfFill-B",
        "R-ShelfFill-NB",
    ]
    .iter()
    .filter_map(|h| {
        let v: Vec<&Agg> = xs.iter().filter_map(|&x| find(agg, x, h, "LPT")).collect();
        let top = v
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.mean.total_cmp(&b.1.mean))?;
        (top.0 == 0 || top.0 + 1 == v.len()).then(|| format!("{h} peaks at P = {}", top.1.x))
    })
    .collect();
    rows.push(Finding::direction(
        "ratios (LPT) first increase with P, then decrease",
        "yes (Section 5.3)",
        if interior.is_empty() {
            "every heuristic peaks inside the range".to_string()
        } else {
            interior.join("; ")
        },
        interior.is_empty(),
    ));
    let off: Vec<f64> = xs.iter().copied().filter(|&x| x != SPECIAL_P).collect();
    for (fill, plain, paper) in [
        ("R-ShelfFill-B", "R-Shelf-B", 4.8),
        ("R-ShelfFill-NB", "R-Shelf-NB", 4.9),
    ] {
        let g = rigid_sweep::shelffill_gain(agg, &off, fill, plain);
        rows.push(Finding::number(
            format!("{fill} improves on {plain} (LPT), mean over P ≠ 10000"),
            format!("{paper}% (Section 5.2)"),
            Paper::Value(paper),
            g,
            Tolerance::PRINTED,
            g.signed_text(1, "%"),
        ));
    }
    verdict::table(&rows) + "\n" + verdict::LEGEND
}

/// How much `values` (one heuristic's mean ratios over the points) vary: max / min − 1, in
/// percent, against the paper's figure.
fn variation(
    label: &str,
    values: &[f64],
    paper: Paper,
    paper_text: &str,
    tol: Tolerance,
) -> Finding {
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let v = 100.0 * (hi / lo - 1.0);
    Finding::number(
        format!("{label} varies with P by"),
        paper_text,
        paper,
        Estimate::exact(v),
        tol,
        format!("{v:.1}% ({lo:.3} to {hi:.3})"),
    )
}
