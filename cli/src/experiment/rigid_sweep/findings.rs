//! The paper's statements that both synthetic sweeps check (rigid paper Sections 5.2–5.3):
//! which heuristic and which priorities are best, how R-ShelfFill compares with R-Shelf, and
//! the same among the heuristics as the paper's simulator runs them (reservations kept).
use super::aggregate::{find, mean_ranks, Agg};
use crate::experiment::{eval, fmt3};

/// "claim | paper | ours | holds" rows common to both sweeps.
pub fn common_findings(agg: &[Agg], xs: &[f64]) -> Vec<Vec<String>> {
    let mut rows = winner_rows(agg, xs);
    rows.extend(priority_rows(agg, xs));
    rows.extend(shelffill_rows(agg, xs));
    rows
}

/// The best (heuristic, priority) at every point with failures: R-List-0 among every heuristic,
/// and among the heuristics as the paper's simulator runs them (reservations kept).
fn winner_rows(agg: &[Agg], xs: &[f64]) -> Vec<Vec<String>> {
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
    vec![
        vec![
            "R-List-0 is the best heuristic when jobs fail".into(),
            "yes (Figs. 5(f), 6(f))".into(),
            winners.join("; "),
            yes(list0),
        ],
        vec![
            "… among R-List-0, R-List-1-kept, R-List-Q-kept, R-ShelfFill-B/NB".into(),
            "yes".into(),
            sim_winners
                .iter()
                .map(|(x, a)| format!("{x}: {} {} {}", a.algo, a.priority, fmt3(a.mean)))
                .collect::<Vec<_>>()
                .join("; "),
            yes(sim_winners.iter().all(|(_, a)| a.algo == "R-List-0")),
        ],
    ]
}

/// LPT and LA are the best two priorities of each heuristic of Figures 5 and 6 (mean ranks).
fn priority_rows(agg: &[Agg], xs: &[f64]) -> Vec<Vec<String>> {
    [
        "R-List-0",
        "R-List-1",
        "R-List-Q",
        "R-ShelfFill-B",
        "R-ShelfFill-NB",
    ]
    .into_iter()
    .map(|h| {
        let r = mean_ranks(agg, xs, h);
        let top2: Vec<&str> = r.iter().take(2).map(|e| e.0.as_str()).collect();
        let ok = top2.iter().all(|p| *p == "LPT" || *p == "LA");
        vec![
            format!("LPT and LA are the best priorities of {h}"),
            "yes (Sections 5.3)".into(),
            r.iter()
                .map(|(p, k)| format!("{p} {k:.1}"))
                .collect::<Vec<_>>()
                .join(", ")
                + " (mean rank)",
            yes(ok),
        ]
    })
    .collect()
}

/// R-ShelfFill-B stays under 1.2 and both R-ShelfFill variants improve on R-Shelf (LPT).
fn shelffill_rows(agg: &[Agg], xs: &[f64]) -> Vec<Vec<String>> {
    let sfb = xs
        .iter()
        .filter_map(|&x| find(agg, x, "R-ShelfFill-B", "LPT"))
        .map(|a| a.mean)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut rows = vec![vec![
        "R-ShelfFill-B (LPT) at most 1.2 normalized".into(),
        "max 1.2 (Section 5.2)".into(),
        format!("max {}", fmt3(sfb)),
        yes(sfb <= 1.2),
    ]];
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
