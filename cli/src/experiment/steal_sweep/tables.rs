//! `steal-sweep`'s aggregation of cells into tables: per trace and reading of node returns, the
//! SFSJ / Baseline ratios of Figures 9–11 at every (μ, D) with their standard error over the
//! seeds; at the grid point nearest Section 6.1's μ = D = 1 h, the flow ratios per size class
//! (Figure 6) and the decomposition of platform time (Figure 3), with the paper's values from
//! Section 6.1's text and Table 4 beside ours.
use super::{Grid, StealCell, VariantResult};
use crate::experiment::verdict::{self, Estimate, Paper, Tolerance, Verdict};
use crate::experiment::{fmt3, runner};
use resched::error::Result;
use resched::stealing::metrics::{Decomposition, FlowStats};
use resched::stealing::{NodeReturns, Variant, Workload};
use std::path::{Path, PathBuf};

/// What a statistic reads off one variant's result (`None`: absent, e.g. an empty class).
pub type Pick<'a> = &'a dyn Fn(&VariantResult) -> Option<f64>;

/// SFSJ / Baseline over paired seeds: the ratio of the seed means, the standard error of the
/// per-seed ratios (0 with one seed) and the number of seeds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paired {
    pub ratio: f64,
    pub se: f64,
    pub n: usize,
}

impl Paired {
    /// "0.985 ± 0.004" (the ± left out with one seed).
    pub fn text(&self) -> String {
        if self.n > 1 {
            format!("{} ± {}", fmt3(self.ratio), fmt3(self.se))
        } else {
            fmt3(self.ratio)
        }
    }
}

/// One variant's result under `r` in cell `c`.
pub fn find(c: &StealCell, v: Variant, r: NodeReturns) -> Option<&VariantResult> {
    let v = v.to_string();
    c.results
        .iter()
        .find(|x| x.variant == v && x.reading() == r)
}

/// [`Paired`] of `pick` over `cells` under reading `r` (f64: display statistics).
pub fn paired(cells: &[&StealCell], r: NodeReturns, pick: Pick) -> Paired {
    let (mut b, mut s, mut per) = (Vec::new(), Vec::new(), Vec::new());
    for c in cells {
        let pair = find(c, Variant::Baseline, r)
            .and_then(pick)
            .zip(find(c, Variant::SFSJ, r).and_then(pick));
        if let Some((x, y)) = pair {
            b.push(x);
            s.push(y);
            if x > 0.0 {
                per.push(y / x);
            }
        }
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let (mb, ms) = (mean(&b), mean(&s));
    let n = per.len();
    let se = if n > 1 {
        let m = mean(&per);
        let var = per.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64;
        (var / n as f64).sqrt()
    } else {
        0.0
    };
    Paired {
        ratio: if mb > 0.0 { ms / mb } else { f64::NAN },
        se,
        n,
    }
}

/// The cells of one trace at one (μ, D).
pub fn at<'a>(results: &'a [StealCell], tn: &str, m: u64, d: u64) -> Vec<&'a StealCell> {
    results
        .iter()
        .filter(|c| c.trace == tn && c.mtbf_min == m && c.downtime_min == d)
        .collect()
}

/// How many of the cells `cs` of one point are saturated ([`StealCell::saturated`]). A point
/// with any has no ratio: the seeds whose runs ended alone would be a biased sample of it.
pub fn saturated(cs: &[&StealCell]) -> usize {
    cs.iter().filter(|c| c.saturated.is_some()).count()
}

/// "saturated (k of n seeds)", for a point's table entry.
pub fn saturated_text(cs: &[&StealCell]) -> String {
    format!("saturated ({} of {} seeds)", saturated(cs), cs.len())
}

/// The grid point nearest Section 6.1's μ = D = 1 h (on a log scale).
pub fn focus((mtbfs, downs): &Grid) -> (u64, u64) {
    let near = |xs: &[u64]| {
        xs.iter()
            .copied()
            .min_by(|a, b| {
                let da = (*a as f64 / 60.0).ln().abs();
                let db = (*b as f64 / 60.0).ln().abs();
                da.total_cmp(&db)
            })
            // default: the campaign grids are never empty; 60 min is Section 6.1's value
            .unwrap_or(60)
    };
    (near(mtbfs), near(downs))
}

/// A statistic of one variant's result.
pub type SweepStat = fn(&VariantResult) -> Option<f64>;

/// The three ratios of Figures 9–11, with their names.
pub const SWEEP_STATS: [(&str, SweepStat); 3] = [
    ("utilization", |r| Some(r.utilization.to_f64())),
    ("max flow, largest jobs", |r| {
        Some(r.max_flow_largest.to_f64())
    }),
    ("weighted mean flow", |r| {
        Some(r.weighted_mean_flow.to_f64())
    }),
];

/// The three flow statistics of Figure 6, per size class.
pub type ClassStat = fn(&FlowStats) -> f64;
pub const CLASS_STATS: [(&str, ClassStat); 3] = [
    ("max flow", |f| f.max.to_f64()),
    ("mean flow", |f| f.mean.to_f64()),
    ("weighted mean flow", |f| f.weighted_mean.to_f64()),
];

/// Flow statistic `stat` of class `k` in a result.
pub fn class_pick(k: u32, stat: ClassStat) -> impl Fn(&VariantResult) -> Option<f64> {
    move |r| {
        r.classes
            .iter()
            .find(|(c, _)| *c == k)
            .map(|(_, f)| stat(f))
    }
}

/// The share of platform time of part `name` of the decomposition, in percent.
pub fn part_pct(d: &Decomposition, name: &str) -> Option<f64> {
    let total = d.total.to_f64();
    let part = d.parts().into_iter().find(|(n, _)| *n == name)?.1.to_f64();
    (total > 0.0).then(|| 100.0 * part / total)
}

/// Section 6.1's published values for Mira March 2018 (MTBF = D = 1 h), the month our windows
/// come from: Table 4's useful utilization and the text's idle time ("5.8% for March 2018",
/// reduced by "20% in Mira-March 2018" with SFSJ), in percent of platform time.
pub const PAPER_MARCH_2018: [(&str, &str, f64); 4] = [
    ("Baseline", "useful", 77.39),
    ("SFSJ", "useful", 78.50),
    ("Baseline", "idle", 5.8),
    ("SFSJ", "idle", 5.8 * 0.8),
];

/// Everything the summary files hold.
#[derive(Default)]
pub struct Summary {
    pub markdown: String,
    pub rows: Vec<Vec<String>>,
    pub json: Vec<serde_json::Value>,
}

/// The columns of `summary.csv`.
const SUMMARY_HEADER: [&str; 8] = [
    "trace",
    "returns",
    "mtbf_min",
    "downtime_min",
    "statistic",
    "seeds",
    "ratio",
    "standard_error",
];

/// Writes `summary.csv`; returns its path.
pub fn write_summary_csv(dir: &Path, s: &Summary) -> Result<PathBuf> {
    let p = dir.join("summary.csv");
    runner::write_csv(&p, &SUMMARY_HEADER, &s.rows)?;
    Ok(p)
}

/// Every table of the summary, trace by trace.
pub fn summarize(workloads: &[(String, Workload)], grid: &Grid, results: &[StealCell]) -> Summary {
    let mut s = Summary::default();
    for (tn, w) in workloads {
        s.markdown.push_str(&format!(
            "## {tn}: {} jobs, {} nodes\n\n",
            w.jobs.len(),
            w.nodes
        ));
        for r in NodeReturns::ALL {
            sweep_table(tn, r, grid, results, &mut s);
        }
        focus_tables(tn, grid, results, &mut s);
        saturated_list(tn, results, &mut s);
    }
    s.markdown.push_str(
        "The paper (Section 6.2, Mira and Intrepid months): utilization gains of 2–4% with D = 10 min, \
         larger for smaller MTBF, negligible with D = 1 day; the maximum flow of the largest jobs improves by \
         10–20% with D = 10 min and μ < 5 h.\n",
    );
    s
}

/// Figures 9–11 as a table: three ratios per downtime, one column per MTBF.
fn sweep_table(tn: &str, r: NodeReturns, grid: &Grid, results: &[StealCell], s: &mut Summary) {
    let (mtbfs, downs) = grid;
    let mut header = vec!["D".to_string(), "ratio".to_string()];
    header.extend(mtbfs.iter().map(|m| format!("μ = {m} min")));
    header.push("verdict".into());
    let mut table = Vec::new();
    for &d in downs {
        for (name, pick) in SWEEP_STATS {
            let mut row = vec![format!("{d} min"), name.to_string()];
            let claim = paper_claim(name, d);
            let mut judged: Vec<(u64, Verdict)> = Vec::new();
            for &m in mtbfs {
                let cs = at(results, tn, m, d);
                if saturated(&cs) > 0 {
                    row.push(saturated_text(&cs));
                    continue;
                }
                let p = paired(&cs, r, &pick);
                row.push(p.text());
                record(s, tn, r, m, d, name, &p);
                if let Some(c) = claim.filter(|c| c.applies(m)) {
                    judged.push((m, c.judge(&p)));
                }
            }
            row.push(match claim {
                Some(c) => verdict_text(&c, &judged),
                None => "—".into(),
            });
            table.push(row);
        }
        let mut row = vec![format!("{d} min"), "steals / free-node restarts".into()];
        for &m in mtbfs {
            let cs = at(results, tn, m, d);
            if saturated(&cs) > 0 {
                row.push("—".into());
                continue;
            }
            let mean = |f: &dyn Fn(&VariantResult) -> u64| {
                let xs: Vec<u64> = cs
                    .iter()
                    .filter_map(|c| find(c, Variant::SFSJ, r))
                    .map(f)
                    .collect();
                xs.iter().sum::<u64>() as f64 / xs.len().max(1) as f64
            };
            row.push(format!(
                "{:.1} / {:.1}",
                mean(&|x| x.steals),
                mean(&|x| x.free_node_used)
            ));
        }
        table.push(row);
    }
    s.markdown
        .push_str(&format!("### node returns `{r}`: SFSJ / Baseline\n\n"));
    s.markdown
        .push_str(&runner::markdown_table(&header, &table));
    s.markdown.push('\n');
    s.markdown.push_str(&format!("{}\n\n", VERDICT_NOTE));
}

/// How the verdict column reads (Section 6.2's statements, [`paper_claim`]).
const VERDICT_NOTE: &str = "Verdict: Section 6.2's numbers, judged at each μ they speak of within 2 se — utilization 1.02–1.04 at D = 10 min, max flow of the largest jobs 0.80–0.90 at D = 10 min and μ < 300 min; \"negligible\" at D = 1 day (no number: direction only, |ratio − 1| ≤ 2 se); — where the paper gives nothing.";

/// What Section 6.2 says of one ratio at one downtime D (minutes): "utilization gains of 2–4%
/// with D = 10 min, ... negligible with D = 1 day; the maximum flow of the largest jobs improves
/// by 10–20% with D = 10 min and μ < 5 h".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepClaim {
    /// The paper's range of the SFSJ / Baseline ratio (`None`: "negligible", no number).
    pub range: Option<(f64, f64)>,
    /// The claim holds for μ below this many minutes (`u64::MAX`: every μ).
    pub below_mtbf: u64,
}

impl SweepClaim {
    /// Whether the claim speaks of MTBF `m` (minutes).
    fn applies(&self, m: u64) -> bool {
        m < self.below_mtbf
    }

    /// The verdict on one paired ratio.
    pub fn judge(&self, p: &Paired) -> Verdict {
        let est = Estimate::with_se(p.ratio, p.se);
        match self.range {
            Some((lo, hi)) => verdict::judge(Paper::Range(lo, hi), est, Tolerance::StdErrors(2.0)),
            // "Negligible": no number, so the direction only: no gain beyond two standard errors.
            None => Verdict::Direction(
                p.ratio.is_finite() && (p.ratio - 1.0).abs() <= 2.0 * p.se.max(0.0),
            ),
        }
    }
}

/// The claim of Section 6.2 on ratio `name` at downtime `d` (minutes), if it makes one.
pub fn paper_claim(name: &str, d: u64) -> Option<SweepClaim> {
    match (name, d) {
        ("utilization", 10) => Some(SweepClaim {
            range: Some((1.02, 1.04)),
            below_mtbf: u64::MAX,
        }),
        ("utilization", 1440) => Some(SweepClaim {
            range: None,
            below_mtbf: u64::MAX,
        }),
        ("max flow, largest jobs", 10) => Some(SweepClaim {
            range: Some((0.80, 0.90)),
            below_mtbf: 300,
        }),
        _ => None,
    }
}

/// The verdict cell of one row: "holds" when every μ the claim speaks of holds, else "differs"
/// with the μ where it holds.
fn verdict_text(c: &SweepClaim, judged: &[(u64, Verdict)]) -> String {
    let ok: Vec<String> = judged
        .iter()
        .filter(|(_, v)| v.holds())
        .map(|(m, _)| m.to_string())
        .collect();
    let word = match (
        c.range.is_some(),
        ok.len() == judged.len() && !judged.is_empty(),
    ) {
        (true, true) => Verdict::Holds,
        (true, false) => Verdict::Differs,
        (false, all) => Verdict::Direction(all),
    };
    if ok.is_empty() || ok.len() == judged.len() {
        format!("{} ({} of {} μ)", word.text(), ok.len(), judged.len())
    } else {
        format!(
            "{} ({} of {} μ: {} min)",
            word.text(),
            ok.len(),
            judged.len(),
            ok.join(", ")
        )
    }
}

/// One summary row (CSV and JSON).
fn record(s: &mut Summary, tn: &str, r: NodeReturns, m: u64, d: u64, stat: &str, p: &Paired) {
    s.rows.push(vec![
        tn.to_string(),
        r.to_string(),
        m.to_string(),
        d.to_string(),
        stat.to_string(),
        p.n.to_string(),
        p.ratio.to_string(),
        p.se.to_string(),
    ]);
    s.json.push(
        serde_json::json!({"trace": tn, "returns": r.to_string(), "mtbf_min": m, "downtime_min": d,
        "statistic": stat, "seeds": p.n, "ratio": p.ratio, "standard_error": p.se}),
    );
}

/// The size classes (nodes) any run of `cs` recorded, ascending.
pub(super) fn size_classes(cs: &[&StealCell]) -> Vec<u32> {
    let mut classes: Vec<u32> = cs
        .iter()
        .flat_map(|c| c.results.iter())
        .flat_map(|r| r.classes.iter().map(|(k, _)| *k))
        .collect();
    classes.sort_unstable();
    classes.dedup();
    classes
}

/// The saturated cells of trace `tn`, each with the message of the run that stopped it.
fn saturated_list(tn: &str, results: &[StealCell], s: &mut Summary) {
    let cells: Vec<&StealCell> = results
        .iter()
        .filter(|c| c.trace == tn && c.saturated.is_some())
        .collect();
    if cells.is_empty() {
        return;
    }
    s.markdown.push_str(&format!(
        "### {tn}: saturated cells ({} of them: no ratio at their points)\n\n\
         The swept μ are platform MTBFs, as in the paper: D/μ nodes are down on average, 72 \
         at most on Mira's 49,152 nodes, but more than a small machine can spare. There large \
         jobs wait for nodes that are seldom all up, or fail faster than they progress, until \
         the simulator's budget of events or attempts stops the run:\n\n",
        cells.len()
    ));
    for c in cells {
        // default: unreachable, the cells were filtered on having a message
        let why = c.saturated.as_deref().unwrap_or_default();
        s.markdown.push_str(&format!(
            "- μ = {} min, D = {} min, failure seed {}: {why}\n",
            c.mtbf_min, c.downtime_min, c.seed
        ));
    }
    s.markdown.push('\n');
}

/// Figure 6 (flow ratios per size class) and Figure 3 (decomposition) at the focus point.
fn focus_tables(tn: &str, grid: &Grid, results: &[StealCell], s: &mut Summary) {
    let (m, d) = focus(grid);
    let cs = at(results, tn, m, d);
    if saturated(&cs) > 0 {
        s.markdown.push_str(&format!(
            "### {tn}: no flows per size class and no decomposition at μ = {m} min, \
             D = {d} min: {} (below)\n\n",
            saturated_text(&cs)
        ));
        return;
    }
    let classes = size_classes(&cs);
    let mut header = vec!["nodes".to_string(), "jobs".to_string()];
    for r in NodeReturns::ALL {
        for (name, _) in CLASS_STATS {
            header.push(format!("{name} ({r})"));
        }
    }
    let mut table = Vec::new();
    for &k in &classes {
        let jobs = cs
            .first()
            .and_then(|c| find(c, Variant::Baseline, NodeReturns::Foreseen))
            .and_then(|r| r.classes.iter().find(|(c, _)| *c == k))
            .map(|(_, f)| f.jobs.to_string())
            .unwrap_or_default(); // default: a class absent from the first seed shows no count
        let mut row = vec![class_label(k), jobs];
        for r in NodeReturns::ALL {
            for (name, stat) in CLASS_STATS {
                let p = paired(&cs, r, &class_pick(k, stat));
                row.push(p.text());
                record(s, tn, r, m, d, &format!("{name}, class {k}"), &p);
            }
        }
        table.push(row);
    }
    s.markdown.push_str(&format!(
        "### Flows per size class at μ = {m} min, D = {d} min (cf. Figure 6): SFSJ / Baseline\n\n"
    ));
    s.markdown
        .push_str(&runner::markdown_table(&header, &table));
    s.markdown.push('\n');
    decomposition_table(tn, m, d, &cs, s);
}

/// The class [2^k, 2^(k+1)) as its range of sizes in nodes.
pub fn class_label(k: u32) -> String {
    match 1u64.checked_shl(k) {
        Some(1) => "1".to_string(),
        Some(lo) => format!("{lo}–{}", 2 * lo - 1),
        None => format!("2^{k}"),
    }
}

/// Figure 3: the decomposition of platform time, seed means in percent, with the paper's
/// March 2018 values beside ours.
fn decomposition_table(tn: &str, m: u64, d: u64, cs: &[&StealCell], s: &mut Summary) {
    let names: Vec<&str> = Decomposition::default()
        .parts()
        .iter()
        .map(|(n, _)| *n)
        .collect();
    let mut header = vec!["variant".to_string(), "returns".to_string()];
    header.extend(names.iter().map(|n| format!("{n} %")));
    let mut table = Vec::new();
    for r in NodeReturns::ALL {
        for v in [Variant::Baseline, Variant::SFSJ] {
            let mut row = vec![v.to_string(), r.to_string()];
            for n in &names {
                row.push(format!("{:.2}", mean_part(cs, v, r, n)));
            }
            table.push(row);
        }
    }
    for v in ["Baseline", "SFSJ"] {
        let mut row = vec![format!("{v}: paper, Mira 03/2018"), "—".to_string()];
        for n in &names {
            let p = PAPER_MARCH_2018
                .iter()
                .find(|(pv, pn, _)| *pv == v && pn == n);
            row.push(p.map_or("".into(), |(_, _, x)| format!("{x:.2}")));
        }
        table.push(row);
    }
    s.markdown.push_str(&format!(
        "### {tn}: decomposition of platform time at μ = {m} min, D = {d} min (cf. Figure 3; seed means, % of the measured window)\n\n"
    ));
    s.markdown
        .push_str(&runner::markdown_table(&header, &table));
    s.markdown.push('\n');
}

/// The seed mean of part `name` (percent of platform time) of variant `v` under `r`; NaN
/// when no cell has a decomposition.
pub fn mean_part(cs: &[&StealCell], v: Variant, r: NodeReturns, name: &str) -> f64 {
    let xs: Vec<f64> = cs
        .iter()
        .filter_map(|c| find(c, v, r))
        .filter_map(|x| x.decomposition.as_ref())
        .filter_map(|d| part_pct(d, name))
        .collect();
    if xs.is_empty() {
        f64::NAN
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::time::Time;

    fn result(v: Variant, r: NodeReturns, util: (i64, i64)) -> VariantResult {
        VariantResult {
            variant: v.to_string(),
            returns: r.to_string(),
            utilization: Time::new(util.0, util.1).unwrap(),
            max_flow_largest: Time::one(),
            largest_class: 0,
            weighted_mean_flow: Time::one(),
            failures: 0,
            steals: 0,
            free_node_used: 0,
            classes: Vec::new(),
            decomposition: None,
            seconds: 0.0,
        }
    }

    fn cell(seed: u64, base: (i64, i64), sfsj: (i64, i64)) -> StealCell {
        let f = NodeReturns::Foreseen;
        StealCell {
            key: format!("s{seed}"),
            trace: "t".into(),
            mtbf_min: 60,
            downtime_min: 60,
            seed,
            jobs: 1,
            results: vec![
                result(Variant::Baseline, f, base),
                result(Variant::SFSJ, f, sfsj),
            ],
            saturated: None,
        }
    }

    /// Section 6.2's statements judged within two standard errors: a utilization ratio of
    /// 1.003 is not the paper's 2–4% gain, 1.025 is; 0.95 on the largest jobs' max flow is not
    /// its 10–20%; μ = 300 min is outside "μ < 5 h"; "negligible" has no number.
    #[test]
    fn section_6_2_claims_differ_outside_their_range() {
        let p = |ratio: f64, se: f64| Paired { ratio, se, n: 10 };
        let u10 = paper_claim("utilization", 10).unwrap();
        assert_eq!(u10.judge(&p(1.003, 0.002)), Verdict::Differs);
        assert_eq!(u10.judge(&p(1.013, 0.004)), Verdict::Holds);
        assert_eq!(u10.judge(&p(1.025, 0.005)), Verdict::Holds);
        assert_eq!(u10.judge(&p(1.06, 0.005)), Verdict::Differs);
        let m10 = paper_claim("max flow, largest jobs", 10).unwrap();
        assert_eq!(m10.judge(&p(0.95, 0.01)), Verdict::Differs);
        assert_eq!(m10.judge(&p(0.88, 0.01)), Verdict::Holds);
        assert!(m10.applies(120) && !m10.applies(300));
        let u1d = paper_claim("utilization", 1440).unwrap();
        assert_eq!(u1d.judge(&p(1.003, 0.002)), Verdict::Direction(true));
        assert_eq!(u1d.judge(&p(1.02, 0.002)), Verdict::Direction(false));
        assert_eq!(paper_claim("weighted mean flow", 10), None);
        let text = verdict_text(&u10, &[(20, Verdict::Holds), (40, Verdict::Differs)]);
        assert_eq!(text, "**differs** (1 of 2 μ: 20 min)");
    }

    #[test]
    fn paired_ratio_and_standard_error() {
        // Baseline 1/2 and 1/4, SFSJ 3/4 and 1/4: ratio of the means 0.5 / 0.375 = 4/3; per-seed
        // ratios 1.5 and 1.0, sample sd √(2·0.25²) = 0.3536, standard error 0.3536 / √2 = 0.25.
        let cs = [cell(1, (1, 2), (3, 4)), cell(2, (1, 4), (1, 4))];
        let refs: Vec<&StealCell> = cs.iter().collect();
        let util = |r: &VariantResult| Some(r.utilization.to_f64());
        let p = paired(&refs, NodeReturns::Foreseen, &util);
        assert_eq!(p.n, 2);
        assert!((p.ratio - 4.0 / 3.0).abs() < 1e-12, "{p:?}");
        assert!((p.se - 0.25).abs() < 1e-12, "{p:?}");
        assert_eq!(p.text(), "1.333 ± 0.250");
        // No result under the other reading: no pair, no ratio.
        let q = paired(&refs, NodeReturns::Unforeseen, &util);
        assert_eq!(q.n, 0);
        assert!(q.ratio.is_nan());
        // A cell written before the reading existed counts as `foreseen`.
        let mut old = cell(3, (1, 2), (1, 2));
        for r in &mut old.results {
            r.returns.clear();
        }
        assert_eq!(old.results[0].reading(), NodeReturns::Foreseen);
    }

    /// A point with one saturated seed has no ratio, and says so: the other seeds alone would
    /// be a biased sample of it. The summary lists the cell with its message; the measured
    /// point keeps its ratio.
    #[test]
    fn a_saturated_seed_leaves_its_point_without_a_ratio() {
        let mut cs = vec![cell(1, (1, 2), (3, 4)), cell(2, (1, 4), (1, 4))];
        cs[1].results.clear();
        cs[1].saturated = Some("Baseline (foreseen): more than 7 events".into());
        let mut other = cell(3, (1, 2), (1, 2));
        other.mtbf_min = 120;
        cs.push(other);
        let w = Workload {
            nodes: 2,
            jobs: Vec::new(),
        };
        let s = summarize(&[("t".into(), w)], &(vec![60, 120], vec![60]), &cs);
        assert!(
            s.markdown.contains("saturated (1 of 2 seeds)"),
            "{}",
            s.markdown
        );
        assert!(
            s.markdown.contains(
                "- μ = 60 min, D = 60 min, failure seed 2: Baseline (foreseen): more than 7 events"
            ),
            "{}",
            s.markdown
        );
        assert!(
            s.markdown.contains("no flows per size class"),
            "{}",
            s.markdown
        );
        // No summary row at the saturated point; the measured one has its ratio, 1.
        assert!(s.rows.iter().all(|r| r[2] != "60"), "{:?}", s.rows);
        assert!(
            s.rows
                .iter()
                .any(|r| r[2] == "120" && r[4] == "utilization" && r[6] == "1"),
            "{:?}",
            s.rows
        );
    }

    #[test]
    fn the_focus_is_the_point_nearest_one_hour() {
        let full = (vec![20, 40, 60, 120, 300, 600], vec![10, 60, 1440]);
        assert_eq!(focus(&full), (60, 60));
        assert_eq!(focus(&(vec![60, 300], vec![10, 1440])), (60, 10));
        assert_eq!(class_label(0), "1");
        assert_eq!(class_label(15), "32768–65535");
    }
}
