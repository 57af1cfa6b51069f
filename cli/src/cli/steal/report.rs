//! The text and CSV reports of `resched steal` (node-stealing paper, Section 5.3): per variant,
//! the flows (max, mean, size-weighted mean), the useful utilization and the decomposition of
//! platform time (Figure 3), the failure counters (Table 9); per size class [2^k, 2^(k+1)), the
//! flow ratios of every variant to Baseline (Figures 6, 7, 13).
//!
//! A variant stopped before its end ([`Stopped`]) is marked everywhere: `*` and a footnote in
//! the table, `status` = `partial` and its `run` rows in the CSV; the class table compares only
//! whole runs (a partial run's flows cover other jobs than Baseline's whole run).
use super::stop::Stopped;
use resched::error::{Error, Result};
use resched::stealing::metrics::{FlowStats, Metrics};
use resched::stealing::Variant;
use resched::time::Time;
use std::fmt::Write as _;

/// Hours with two decimals.
fn hours(t: &Time) -> String {
    finite(t.to_f64() / 3600.0, 2)
}

/// `part` in percent of `total` with two decimals (`-` when the total is 0).
fn pct(part: &Time, total: &Time) -> String {
    if total.is_positive() {
        finite(100.0 * part.to_f64() / total.to_f64(), 2)
    } else {
        "-".into()
    }
}

/// `x` with `digits` decimals. The inputs are bounded (stealing::limits), so `x` is finite; a
/// value that is not is printed `-`, never `NaN` or `inf`.
fn finite(x: f64, digits: usize) -> String {
    debug_assert!(x.is_finite(), "{x}");
    if x.is_finite() {
        format!("{x:.digits$}")
    } else {
        "-".into()
    }
}

/// a / b as a float, `None` when b is 0 or the quotient is not finite.
pub(super) fn ratio(a: &Time, b: &Time) -> Option<f64> {
    if !b.is_positive() {
        return None;
    }
    Some(a.to_f64() / b.to_f64()).filter(|r| r.is_finite())
}

/// The label of size class k.
pub(super) fn class_label(k: u32) -> String {
    format!("[2^{k},2^{})", k + 1)
}

/// Whether `v` is one of the stopped variants.
pub(super) fn is_partial(v: Variant, stopped: &[Stopped]) -> bool {
    stopped.iter().any(|s| s.variant == v)
}

/// The metrics table: one row per variant; a stopped variant is marked `*` (PARTIAL).
pub fn table(all: &[Metrics], stopped: &[Stopped]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n{:<9} {:>6} {:>9} {:>9} {:>9} {:>7} | {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} | {:>5} {:>5} {:>5} {:>5}",
        "variant", "jobs", "maxflow", "meanflow", "wmean", "util%", "idle", "ckpt", "recov", "lost", "steal", "down", "useful",
        "fail", "onjob", "free", "steal"
    );
    let _ = writeln!(
        s,
        "{:<9} {:>6} {:>9} {:>9} {:>9} {:>7} | {:^48} |",
        "", "", "(h)", "(h)", "(h)", "", "% of platform time"
    );
    for m in all {
        let d = &m.decomposition;
        let _ = writeln!(
            s,
            "{:<9} {:>6} {:>9} {:>9} {:>9} {:>7} | {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} | {:>5} {:>5} {:>5} {:>5}",
            if is_partial(m.variant, stopped) {
                format!("{}*", m.variant)
            } else {
                m.variant.to_string()
            },
            m.all.jobs,
            hours(&m.all.max),
            hours(&m.all.mean),
            hours(&m.all.weighted_mean),
            pct(&d.useful, &d.total),
            pct(&d.idle, &d.total),
            pct(&d.checkpoint, &d.total),
            pct(&d.recovery, &d.total),
            pct(&d.lost, &d.total),
            pct(&d.stealing, &d.total),
            pct(&d.down, &d.total),
            pct(&d.useful, &d.total),
            m.stats.failures,
            m.stats.on_jobs,
            m.stats.free_node_used,
            m.stats.steals
        );
    }
    if !stopped.is_empty() {
        let _ = writeln!(
            s,
            "* PARTIAL: stopped before its end; the completed jobs only, up to the instant reached (below)"
        );
    }
    s
}

/// Baseline and the other variants, when both are there.
pub(super) fn baseline_and_others(all: &[Metrics]) -> Option<(&Metrics, Vec<&Metrics>)> {
    let base = all.iter().find(|m| m.variant == Variant::Baseline)?;
    let others: Vec<&Metrics> = all
        .iter()
        .filter(|m| m.variant != Variant::Baseline)
        .collect();
    (!others.is_empty()).then_some((base, others))
}

/// The flow statistics of `m` in size class `k`, if it has jobs there (every variant runs the
/// same jobs, so each has Baseline's classes).
pub(super) fn class_of(m: &Metrics, k: u32) -> Option<&FlowStats> {
    m.classes.iter().find(|(kk, _)| *kk == k).map(|(_, c)| c)
}

/// A row of the class table: label, jobs in the class, (max ratio, mean ratio) per variant.
type Row = (String, usize, Vec<(Option<f64>, Option<f64>)>);

/// The rows of the class table: each class of Baseline, then "all" and "weighted".
fn class_rows(base: &Metrics, others: &[&Metrics]) -> Vec<Row> {
    let mut rows: Vec<Row> = base
        .classes
        .iter()
        .map(|(k, b)| {
            let r = others
                .iter()
                .map(|m| match class_of(m, *k) {
                    Some(c) => (ratio(&c.max, &b.max), ratio(&c.mean, &b.mean)),
                    None => (None, None),
                })
                .collect();
            (class_label(*k), b.jobs, r)
        })
        .collect();
    rows.push((
        "all".into(),
        base.all.jobs,
        others
            .iter()
            .map(|m| {
                (
                    ratio(&m.all.max, &base.all.max),
                    ratio(&m.all.mean, &base.all.mean),
                )
            })
            .collect(),
    ));
    rows.push((
        "weighted".into(),
        base.all.jobs,
        others
            .iter()
            .map(|m| (None, ratio(&m.all.weighted_mean, &base.all.weighted_mean)))
            .collect(),
    ));
    rows
}

/// The whole runs of `all` (the stopped variants left out).
pub(super) fn whole(all: &[Metrics], stopped: &[Stopped]) -> Vec<Metrics> {
    all.iter()
        .filter(|m| !is_partial(m.variant, stopped))
        .cloned()
        .collect()
}

/// Per size class: max and mean flow of each variant over Baseline's (Figures 6, 7, 13), whole
/// runs only.
pub fn class_table(all: &[Metrics], stopped: &[Stopped]) -> String {
    let mut s = String::new();
    let whole = whole(all, stopped);
    let Some((base, others)) = baseline_and_others(&whole) else {
        if !stopped.is_empty() && all.len() > 1 {
            s.push_str("\nno flow ratios against Baseline: they compare whole runs only\n");
        }
        return s;
    };
    let _ = write!(
        s,
        "\nflow ratios variant/Baseline (max | mean) per size class\n{:<14} {:>5}",
        "class", "jobs"
    );
    for m in &others {
        let _ = write!(s, " {:>13}", m.variant.to_string());
    }
    s.push('\n');
    let cell = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format!("{x:.3}"));
    for (label, n, r) in class_rows(base, &others) {
        let _ = write!(s, "{label:<14} {n:>5}");
        for (mx, mn) in r {
            let _ = write!(s, " {:>6} {:>6}", cell(mx), cell(mn));
        }
        s.push('\n');
    }
    s
}

/// Long-format CSV: `variant,scope,metric,value,exact,status,resched` (value in seconds /
/// node-seconds; status `complete` or `partial`, and a partial variant has rows of scope `run`:
/// the instant reached and its job counts; `resched` the build that wrote it). Fields are escaped by the csv crate: a size class
/// scope such as `[2^0,2^1)` is quoted.
pub fn csv(all: &[Metrics], stopped: &[Stopped]) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| Error::Limit(format!("metrics CSV: {e}"));
    w.write_record([
        "variant", "scope", "metric", "value", "exact", "status", "resched",
    ])
    .map_err(err)?;
    let build = crate::provenance::this_build().tag();
    for m in all {
        let v = m.variant.to_string();
        let stop = stopped.iter().find(|s| s.variant == m.variant);
        let status = if stop.is_some() {
            "partial"
        } else {
            "complete"
        };
        let mut row = |scope: &str, metric: &str, t: &Time| {
            w.write_record([
                v.as_str(),
                scope,
                metric,
                &t.to_decimal_string(6),
                &t.to_string(),
                status,
                &build,
            ])
            .map_err(err)
        };
        for (name, t) in stop.map(Stopped::csv_rows).into_iter().flatten() {
            row("run", name, &t)?;
        }
        for (scope, f) in std::iter::once(("all".to_string(), &m.all))
            .chain(m.classes.iter().map(|(k, c)| (class_label(*k), c)))
        {
            row(&scope, "jobs", &Time::from_int(f.jobs as i64))?;
            row(&scope, "max_flow", &f.max)?;
            row(&scope, "mean_flow", &f.mean)?;
            row(&scope, "weighted_mean_flow", &f.weighted_mean)?;
        }
        let d = &m.decomposition;
        for (name, t) in d.parts() {
            row("platform", name, t)?;
        }
        row("platform", "total", &d.total)?;
        row("platform", "utilization", &d.utilization())?;
        row("platform", "window_start", &m.window.0)?;
        row("platform", "window_end", &m.window.1)?;
        let st = &m.stats;
        for (name, x) in [
            ("failures", st.failures),
            ("failures_on_jobs", st.on_jobs),
            ("free_node_used", st.free_node_used),
            ("node_stealing", st.steals),
            ("steal_refused", st.steal_refused),
            ("steals_cancelled", st.steals_cancelled),
        ] {
            row("stats", name, &Time::from_int(x as i64))?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Limit(format!("metrics CSV: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::Limit(format!("metrics CSV: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::stealing::examples::{toy_failures, toy_resilience, toy_workload};
    use resched::stealing::metrics::{compute, Pruning};
    use resched::stealing::simulate;

    #[test]
    fn metrics_csv_quotes_the_class_scopes() {
        let run = simulate(
            &toy_workload(),
            &toy_resilience(),
            toy_failures(),
            Variant::SFSJ,
        )
        .unwrap();
        let text = csv(&[compute(&run, &Pruning::default())], &[]).unwrap();
        let tag = crate::provenance::this_build().tag();
        let line = format!("H111,\"[2^2,2^3)\",max_flow,21.000000,21,complete,{tag}");
        assert!(text.lines().any(|l| l == line), "{text}");
        let mut r = ::csv::Reader::from_reader(text.as_bytes());
        for rec in r.records() {
            let rec = rec.unwrap();
            assert_eq!((rec.len(), &rec[6]), (7, tag.as_str()));
        }
    }
}
