//! The paper's statements that both synthetic sweeps check (rigid paper Sections 5.2–5.3):
//! which heuristic and which priorities are best, how R-ShelfFill compares with R-Shelf, and
//! the same among the heuristics as the paper's simulator runs them (reservations kept). Every
//! statement is judged by the one rule of [`crate::experiment::verdict`].
use super::aggregate::{find, mean_ranks, Agg};
use crate::experiment::verdict::{self, se_from_pop_std, Estimate, Finding, Paper, Tolerance};
use crate::experiment::{eval, fmt3};

/// The mean ratio of one aggregate with its standard error over the sets.
pub fn estimate(a: &Agg) -> Estimate {
    Estimate {
        value: a.mean,
        se: se_from_pop_std(a.std_sets, a.sets),
    }
}

/// `a / b − 1` in percent with its standard error (see `ratio_se`).
pub fn gap_pct(a: &Agg, b: &Agg) -> Estimate {
    Estimate {
        value: 100.0 * (a.mean / b.mean - 1.0),
        se: ratio_se(a, b).map(|s| 100.0 * s),
    }
}

/// The standard error of `a / b`: paired over the sets when both were measured on the same
/// sets ([`verdict::paired_ratio_se`] on the per-set ratios matched by set index); otherwise
/// propagated from both means' standard errors as if independent.
fn ratio_se(a: &Agg, b: &Agg) -> Option<f64> {
    let same_sets = a.per_set.len() == b.per_set.len()
        && a.per_set.iter().zip(&b.per_set).all(|(x, y)| x.0 == y.0);
    if same_sets && !a.per_set.is_empty() {
        let (xa, xb): (Vec<f64>, Vec<f64>) = a
            .per_set
            .iter()
            .zip(&b.per_set)
            .map(|(x, y)| (x.1, y.1))
            .unzip();
        return verdict::paired_ratio_se(&xa, &xb);
    }
    let rel = |g: &Agg| {
        let e = estimate(g);
        e.se.map(|s| s / e.value)
    };
    let (x, y) = (rel(a)?, rel(b)?);
    Some(a.mean / b.mean * (x * x + y * y).sqrt())
}

/// The (heuristic, priority) of heuristic `algo` with the lowest mean ratio at `x`.
pub fn best<'a>(agg: &'a [Agg], algo: &str, x: f64) -> Option<&'a Agg> {
    agg.iter()
        .filter(|a| a.x == x && a.algo == algo)
        .min_by(|a, b| a.mean.total_cmp(&b.mean))
}

/// What the paper says of the priorities of one heuristic in one figure: the best one (if it
/// names it) and the best two (if it names them; the paper's own exception included, e.g. SPT
/// second for R-ShelfFill-NB in Figure 6).
pub struct PriorityClaim {
    pub heuristic: &'static str,
    pub first: Option<&'static str>,
    pub top_two: Option<[&'static str; 2]>,
    pub source: &'static str,
}

/// The statements shared by both sweeps: the winners, the priorities (`priorities`: the
/// sweep's figure), and R-ShelfFill-B's bound.
pub fn common_findings(agg: &[Agg], xs: &[f64], priorities: &[PriorityClaim]) -> Vec<Finding> {
    let mut rows = winner_rows(agg, xs);
    rows.extend(priority_rows(agg, xs, priorities));
    rows.push(shelffill_bound(agg, xs));
    rows
}

/// The best (heuristic, priority) at every point with failures: R-List-0 among every heuristic,
/// and among the heuristics as the paper's simulator runs them (reservations kept).
fn winner_rows(agg: &[Agg], xs: &[f64]) -> Vec<Finding> {
    let sets: [(&str, Option<&[&str]>); 2] = [
        ("R-List-0 is the best heuristic when jobs fail", None),
        (
            "… among R-List-0, R-List-1-kept, R-List-Q-kept, R-ShelfFill-B/NB (kept reading)",
            Some(&[
                "R-List-0",
                "R-List-1-kept",
                "R-List-Q-kept",
                "R-ShelfFill-B",
                "R-ShelfFill-NB",
            ]),
        ),
    ];
    sets.iter()
        .map(|(claim, among)| {
            let winners: Vec<&Agg> = xs
                .iter()
                .filter_map(|&x| {
                    agg.iter()
                        .filter(|a| a.x == x && a.mean_failures > 0.0)
                        .filter(|a| among.is_none_or(|s| s.contains(&a.algo.as_str())))
                        .min_by(|a, b| a.mean.total_cmp(&b.mean))
                })
                .collect();
            let others: Vec<String> = winners
                .iter()
                .filter(|a| a.algo != "R-List-0")
                .map(|a| format!("{}: {} {} {}", a.x, a.algo, a.priority, fmt3(a.mean)))
                .collect();
            let ours = if others.is_empty() {
                format!("R-List-0 at all {} points with failures", winners.len())
            } else {
                format!(
                    "R-List-0 at {} of {}; else {}",
                    winners.len() - others.len(),
                    winners.len(),
                    others.join("; ")
                )
            };
            Finding::direction(
                *claim,
                "best (Figs. 5(f), 6(f))",
                ours,
                !winners.is_empty() && others.is_empty(),
            )
        })
        .collect()
}

/// The paper's best priorities, checked on the mean ranks over the sweep's points.
fn priority_rows(agg: &[Agg], xs: &[f64], claims: &[PriorityClaim]) -> Vec<Finding> {
    claims
        .iter()
        .map(|c| {
            let r = mean_ranks(agg, xs, c.heuristic);
            let first_ok = c.first.is_none_or(|p| r.first().is_some_and(|e| e.0 == p));
            let two: Vec<&str> = r.iter().take(2).map(|e| e.0.as_str()).collect();
            let two_ok = c
                .top_two
                .is_none_or(|t| two.len() == 2 && t.iter().all(|p| two.contains(p)));
            let mut paper = Vec::new();
            if let Some(t) = c.top_two {
                paper.push(format!("{} and {} best", t[0], t[1]));
            }
            if let Some(p) = c.first {
                paper.push(format!("{p} first"));
            }
            Finding::direction(
                format!("best priorities of {}", c.heuristic),
                format!("{} ({})", paper.join(", "), c.source),
                r.iter()
                    .take(3)
                    .map(|(p, k)| format!("{p} {k:.1}"))
                    .collect::<Vec<_>>()
                    .join(", ")
                    + " (mean rank)",
                first_ok && two_ok,
            )
        })
        .collect()
}

/// "R-ShelfFill-B has a maximum normalized makespan of 1.2" (Section 5.2): the largest of its
/// mean ratios (LPT) over the points, within 5% of the bound.
fn shelffill_bound(agg: &[Agg], xs: &[f64]) -> Finding {
    let top = xs
        .iter()
        .filter_map(|&x| find(agg, x, "R-ShelfFill-B", "LPT"))
        .max_by(|a, b| a.mean.total_cmp(&b.mean));
    let est = top.map_or(Estimate::exact(f64::NAN), estimate);
    Finding::number(
        "R-ShelfFill-B (LPT) normalized makespan",
        "at most 1.2 (Section 5.2)",
        Paper::at_most(1.2),
        est,
        Tolerance::Relative(0.05),
        format!(
            "max {} at {}",
            est.text(3, ""),
            top.map_or("–".to_string(), |a| a.x.to_string())
        ),
    )
}

/// R-ShelfFill's gain over R-Shelf (LPT), in percent, averaged over the points `xs`, with its
/// standard error (each point's paired over its sets as in [`gap_pct`], the points taken as
/// independent).
pub fn shelffill_gain(agg: &[Agg], xs: &[f64], fill: &str, plain: &str) -> Estimate {
    let gains: Vec<Estimate> = xs
        .iter()
        .filter_map(|&x| {
            let (f, p) = (find(agg, x, fill, "LPT")?, find(agg, x, plain, "LPT")?);
            Some(Estimate {
                value: 100.0 * (1.0 - f.mean / p.mean),
                se: ratio_se(f, p).map(|s| 100.0 * s),
            })
        })
        .collect();
    let (mean, _, _) = eval::summary(gains.iter().map(|g| g.value));
    let n = gains.len() as f64;
    let se = gains
        .iter()
        .map(|g| g.se.map(|s| s * s))
        .sum::<Option<f64>>()
        .map(|v| v.sqrt() / n);
    Estimate { value: mean, se }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agg(algo: &str, per_set: &[(u64, f64)]) -> Agg {
        let (mean, std_sets, _) = eval::summary(per_set.iter().map(|e| e.1));
        Agg {
            x: 0.3,
            algo: algo.into(),
            priority: "LPT".into(),
            mean,
            std_sets,
            max: f64::NAN,
            sets: per_set.len(),
            mean_failures: 1.0,
            per_set: per_set.to_vec(),
        }
    }

    /// A gap between two heuristics on the same four sets, by hand: ratios a = (2, 1, 3, 2),
    /// b = (1, 1, 2, 2) give a / b − 1 = +33.33% with the paired se 100 · sqrt(5/54) / 1.5 =
    /// 20.29% (per-set differences a − (4/3)·b = (2/3, −1/3, 1/3, −2/3)); on sets that do not
    /// match, the independent propagation's 37.41%. R-ShelfFill's gain over R-Shelf is the
    /// same with its sign turned: −33.33% ± 20.29%.
    #[test]
    fn a_gap_on_shared_sets_is_paired() {
        let a = agg("A", &[(0, 2.0), (1, 1.0), (2, 3.0), (3, 2.0)]);
        let b = agg("B", &[(0, 1.0), (1, 1.0), (2, 2.0), (3, 2.0)]);
        let g = gap_pct(&a, &b);
        assert!((g.value - 100.0 / 3.0).abs() < 1e-9, "{g:?}");
        let se = g.se.unwrap();
        assert!((se - 20.286_020_6).abs() < 1e-6, "{se}");
        let other = agg("B", &[(4, 1.0), (5, 1.0), (6, 2.0), (7, 2.0)]);
        let se = gap_pct(&a, &other).se.unwrap();
        assert!((se - 37.405_573_8).abs() < 1e-6, "{se}");
        let both = [a, b];
        let gain = shelffill_gain(&both, &[0.3], "A", "B");
        assert!((gain.value + 100.0 / 3.0).abs() < 1e-9, "{gain:?}");
        assert!((gain.se.unwrap() - 20.286_020_6).abs() < 1e-6, "{gain:?}");
    }
}
