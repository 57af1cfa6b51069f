//! `steal-synthetic`: the node-stealing paper's Section 6.3 (Tables 6–7, Figure 13) — Baseline
//! (conservative backfilling) against SFSJ (H111) on Table 6's synthetic workload
//! ([`resched::stealing::synthetic`]: 128 nodes, 1000 jobs of 1 to 64 nodes, λ = 174 s) with a
//! platform MTBF of 30 min, C = R = 5 min and D = 10 min
//! ([`resched::stealing::synthetic::paper_resilience`]).
//!
//! One cell per seed (seeds `--seed` … `--seed` + n − 1, n = `--sets`, default 10: seeds 1–10;
//! `--quick`: 3 seeds). A seed draws both the workload and the Poisson failures, and Baseline and
//! SFSJ see the same failures. Every run passes the independent checker
//! ([`resched::stealing::check`]).
//!
//! Reported, beside the paper's published value ([`TABLE_7`], [`FIGURE_13_TEXT`]):
//! - Table 7: the useful utilization of each variant, mean, standard deviation, min and max over
//!   the seeds;
//! - Figure 13 (the paper gives its values only in the text of Section 6.3): per size class
//!   (p ∈ [2^k, 2^(k+1))), the SFSJ / Baseline ratio of the seed means of the maximum and the mean
//!   flow, with the min and max of the per-seed ratios.
//!
//! Reading: Section 6.3 does not say which part of the run is measured (Section 5.3.3's pruning
//! is written for a month of Mira). Both readings are run on the same simulations: `all` (every
//! job; utilization from the first submission to the last completion) and `scaled` (the first
//! third of the submission span and the drain after the last submission left out, flows without
//! the first and last 20% of jobs; see [`resched::stealing::measure`]).
//!
//! Both readings of node returns ([`resched::stealing::NodeReturns`]: `unforeseen`, the
//! paper's and the default, first) run on the same failures; the plan is compressed by one
//! reading of [`resched::stealing::Compression`] (option `compression`, default Batsched's
//! `completions`), which the manifest and the summary name.
mod figure;

use super::runner::{self, Cell};
use super::verdict::{self, Estimate, Paper, Tolerance, Verdict};
use super::{fmt3, version, Options, Outcome};
use crate::render::plot;
use resched::error::{Error, Result};
use resched::stealing::check::check;
use resched::stealing::measure::Measure;
use resched::stealing::metrics::{compute, Decomposition};
use resched::stealing::synthetic::{paper_resilience, Synthetic};
use resched::stealing::{
    simulate_read, Compression, FailureSource, NodeReturns, Readings, Variant,
};
use resched::time::Time;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Table 7 of the node-stealing paper ("Utilization for synthetic trace"), row = heuristic,
/// column "Synthetic": the published utilization in percent.
pub const TABLE_7: [(Variant, u32); 2] = [(Variant::Baseline, 70), (Variant::SFSJ, 72)];

/// Which flow statistic a claim is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FlowStat {
    Max,
    Mean,
}

/// A published SFSJ / Baseline flow ratio of one size class, as a range in percent (`None`: no
/// bound on that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowClaim {
    /// Size class k: jobs with p ∈ [2^k, 2^(k+1)).
    pub class: u32,
    pub stat: FlowStat,
    pub low_pct: Option<u32>,
    pub high_pct: Option<u32>,
    /// The sentence of Section 6.3 the range is read from.
    pub source: &'static str,
}

/// Figure 13 as Section 6.3's text states it (the figure's values are not printed): "an
/// improvement of 10-15% on the maxflow and meanflow of large jobs" (read: the largest class,
/// 64 nodes; ratio 0.85–0.90) and "the maximum flow of the smallest jobs increases by a large
/// factor" (read: class 0, 1 node; ratio > 1).
pub const FIGURE_13_TEXT: [FlowClaim; 3] = [
    FlowClaim {
        class: 6,
        stat: FlowStat::Max,
        low_pct: Some(85),
        high_pct: Some(90),
        source: "improvement of 10-15% on the maxflow … of large jobs",
    },
    FlowClaim {
        class: 6,
        stat: FlowStat::Mean,
        low_pct: Some(85),
        high_pct: Some(90),
        source: "improvement of 10-15% on the … meanflow of large jobs",
    },
    FlowClaim {
        class: 0,
        stat: FlowStat::Max,
        low_pct: Some(100),
        high_pct: None,
        source: "the maximum flow of the smallest jobs increases by a large factor",
    },
];

/// The two readings of the measured part of a run (module doc).
pub const MEASURES: [Measure; 2] = [Measure::All, Measure::Scaled];

/// The flows of one size class in one run (seconds, exact).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassFlows {
    pub class: u32,
    pub jobs: usize,
    pub max: Time,
    pub mean: Time,
}

/// One variant's numbers under one measurement rule and one reading of node returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub variant: String,
    pub measure: String,
    /// The reading of node returns ([`NodeReturns`]); empty in cells written before the reading
    /// existed, which ran `foreseen`.
    #[serde(default)]
    pub returns: String,
    /// Useful node-time / platform node-time, exact.
    pub utilization: Time,
    /// (Useful + regular checkpoint node-time) / platform node-time, exact: Section 7.2.2's
    /// "we classify regular checkpoint into the useful work" (module doc).
    pub utilization_with_checkpoints: Time,
    pub classes: Vec<ClassFlows>,
}

/// A cell: one seed, Baseline and SFSJ under both readings of node returns, both measurement
/// rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SynthCell {
    pub key: String,
    pub seed: u64,
    pub failures: Vec<u64>,
    pub steals: u64,
    pub results: Vec<Measured>,
}

/// Runs Baseline and SFSJ on Table 6's workload drawn with `seed`, failures seeded `seed`,
/// under both readings of node returns, compressing by `compression`.
pub fn synth_cell(key: String, seed: u64, compression: Compression) -> Result<SynthCell> {
    let w = Synthetic::paper(seed).generate()?;
    let res = paper_resilience(w.nodes);
    res.validate()?;
    let mtbf = Time::from_int(1800);
    let mut results = Vec::new();
    let mut failures = Vec::new();
    let mut steals = 0;
    for (returns, v) in NodeReturns::ALL
        .into_iter()
        .flat_map(|r| [(r, Variant::Baseline), (r, Variant::SFSJ)])
    {
        let fs = FailureSource::poisson(seed, &mtbf, w.nodes)?;
        let readings = Readings {
            returns,
            compression,
        };
        let run = simulate_read(&w, &res, fs, v, readings)?;
        // The failure and steal counts reported are the default reading's.
        let first = returns == NodeReturns::ALL[0];
        for m in MEASURES {
            let pruning = m.pruning(&w, "synthetic")?;
            let met = compute(&run, &pruning);
            let totals = check(&w, &res, &run, Some(met.window.clone()))
                .map_err(|e| Error::Limit(format!("{key} {v} {m}: checker: {e}")))?;
            if totals.useful != met.decomposition.useful {
                return Err(Error::Limit(format!(
                    "{key} {v} {m}: the checker's useful time differs from the metrics'"
                )));
            }
            if m == Measure::All && first {
                failures.push(met.stats.failures as u64);
                if v != Variant::Baseline {
                    steals = met.stats.steals as u64;
                }
            }
            results.push(Measured {
                variant: v.to_string(),
                measure: m.to_string(),
                returns: returns.to_string(),
                utilization: met.decomposition.utilization(),
                utilization_with_checkpoints: with_checkpoints(&met.decomposition, &key)?,
                classes: met
                    .classes
                    .iter()
                    .map(|(k, f)| ClassFlows {
                        class: *k,
                        jobs: f.jobs,
                        max: f.max.clone(),
                        mean: f.mean.clone(),
                    })
                    .collect(),
            });
        }
    }
    Ok(SynthCell {
        key,
        seed,
        failures,
        steals,
        results,
    })
}

/// (Useful + checkpoint) / total of `d`; an empty window is an error (no platform time to
/// measure), not a 0.
fn with_checkpoints(d: &Decomposition, key: &str) -> Result<Time> {
    (&d.useful + &d.checkpoint)
        .checked_div(&d.total)
        .ok_or_else(|| Error::Limit(format!("{key}: the measured window has no platform time")))
}

/// Mean, standard deviation (population), min and max of `xs` (f64: display statistics);
/// NaN for an empty list.
fn spread(xs: &[f64]) -> [f64; 4] {
    if xs.is_empty() {
        return [f64::NAN; 4];
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    let min = xs.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    [mean, var.sqrt(), min, max]
}

fn find(c: &SynthCell, v: Variant, m: Measure, rd: NodeReturns) -> Option<&Measured> {
    let (v, m) = (v.to_string(), m.to_string());
    c.results
        .iter()
        .find(|r| r.variant == v && r.measure == m && r.reading() == rd)
}

impl Measured {
    /// The reading this result ran under (older cells: `foreseen`, the only one then).
    pub fn reading(&self) -> NodeReturns {
        // The campaign writes only names `NodeReturns` prints, or nothing in older cells.
        debug_assert!(self.returns.is_empty() || self.returns.parse::<NodeReturns>().is_ok());
        // default: an empty field is a cell written before the reading existed: it ran `foreseen`
        self.returns.parse().unwrap_or(NodeReturns::Foreseen)
    }
}

fn class_stat(r: &Measured, k: u32, s: FlowStat) -> Option<f64> {
    r.classes.iter().find(|c| c.class == k).map(|c| match s {
        FlowStat::Max => c.max.to_f64(),
        FlowStat::Mean => c.mean.to_f64(),
    })
}

/// The paper's range of a ratio as text ("0.85–0.90", "> 1.00"), or "not reported".
fn claim_text(k: u32, s: FlowStat) -> (String, Option<FlowClaim>) {
    match FIGURE_13_TEXT.iter().find(|c| c.class == k && c.stat == s) {
        Some(c) => {
            let f = |p: u32| format!("{:.2}", f64::from(p) / 100.0);
            let t = match (c.low_pct, c.high_pct) {
                (Some(a), Some(b)) => format!("{}–{}", f(a), f(b)),
                (Some(a), None) => format!("> {}", f(a)),
                (None, Some(b)) => format!("< {}", f(b)),
                (None, None) => "any".into(),
            };
            (t, Some(*c))
        }
        None => ("not reported".into(), None),
    }
}

/// The verdict on a claim of Figure 13 ([`verdict::judge`]): a range the paper states is met
/// within two standard errors of the per-seed ratios; a bound on one side only ("increases by
/// a large factor") gives no number, so only its direction is judged.
fn flow_verdict(c: &FlowClaim, ratio: f64, se: f64) -> (String, Verdict) {
    let f = |p: Option<u32>| p.map(|p| f64::from(p) / 100.0);
    match (f(c.low_pct), f(c.high_pct)) {
        (Some(lo), Some(hi)) => {
            let tol = Tolerance::StdErrors(2.0);
            let est = Estimate::with_se(ratio, se);
            (tol.text(), verdict::judge(Paper::Range(lo, hi), est, tol))
        }
        (lo, hi) => {
            let above = lo.is_none_or(|a| ratio > a);
            let below = hi.is_none_or(|b| ratio < b);
            ("–".into(), Verdict::Direction(above && below))
        }
    }
}

/// The two readings of "utilization" (Table 7): Section 5.3.2's useful time only, and useful
/// time with the regular checkpoints (Section 7.2.2: "we classify regular checkpoint into the
/// useful work").
type Reading = (&'static str, fn(&Measured) -> &Time);
const READINGS: [Reading; 2] = [
    ("useful", |r| &r.utilization),
    ("useful + checkpoints", |r| &r.utilization_with_checkpoints),
];

/// The columns of `summary.csv`.
const SUMMARY_HEADER: [&str; 11] = [
    "measure",
    "table",
    "row",
    "column",
    "seeds",
    "paper",
    "ours_mean",
    "ours_sd",
    "ours_min",
    "ours_max",
    "verdict",
];

/// The columns of `cells.csv`.
const CELL_HEADER: [&str; 9] = [
    "seed",
    "measure",
    "variant",
    "utilization",
    "class",
    "jobs",
    "max_flow_s",
    "mean_flow_s",
    "utilization_exact",
];

/// Runs the campaign.
pub fn run(opts: &Options) -> Result<Outcome> {
    let name = "steal-synthetic";
    let seeds = opts.sets_or(10, 3)? as u64;
    let seed = opts.seed;
    // default: no compression reading given is the paper's, Batsched's
    let compression = opts.compression.unwrap_or_default();
    let manifest = serde_json::json!({
        "campaign": name, "version": version(), "seed": seed, "quick": opts.quick,
        "seeds": seeds, "workload": "Table 6 synthetic, 128 nodes, 1000 jobs, lambda 174 s",
        "mtbf_minutes": 30, "downtime_minutes": 10, "checkpoint_minutes": 5, "recovery_minutes": 5,
        "variants": ["Baseline", "H111"], "measures": MEASURES.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "node_returns": NodeReturns::ALL.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
        "compression": compression.to_string(),
    });
    let cfg = opts.run_config(name);
    runner::prepare(&cfg.out, &manifest)?;
    let cells: Vec<Cell<u64>> = (0..seeds)
        .map(|s| {
            let sd = seed.wrapping_add(s);
            Cell {
                key: format!("s{sd}"),
                params: sd,
            }
        })
        .collect();
    let (results, stats) = match runner::run_cells(&cfg, &cells, |c| {
        synth_cell(c.key.clone(), c.params, compression)
    })? {
        runner::Ran::Whole(r, s) => (r, s),
        runner::Ran::Shard(o) => return Ok(o),
    };
    let dir = cfg.out.clone();
    let mut files = vec![write_cells_csv(&dir, &results)?];
    let fails = spread(
        &results
            .iter()
            .flat_map(|c| c.failures.first())
            .map(|&f| f as f64)
            .collect::<Vec<_>>(),
    );
    let mut md = format!(
        "# {name} (resched {})\n\nNode-stealing paper Section 6.3: Table 6's workload (128 nodes, 1000 jobs), platform MTBF 30 min, \
         C = R = 5 min, D = 10 min; seeds {seed}–{} (workload and failures); {:.1} failures per run on average (Baseline, \
         node returns `{}`). Both readings of node returns; the plan compressed at {} (parameter \
         `compression`, docs/reference/readings.md).\n\n",
        crate::experiment::build_label(),
        seed.wrapping_add(seeds - 1),
        fails[0],
        NodeReturns::ALL[0],
        super::steal_sweep::compression_label(compression),
    );
    let mut rows = Vec::new();
    let mut json = Vec::new();
    for rd in NodeReturns::ALL {
        for m in MEASURES {
            md.push_str(&measure_section(m, rd, &results, &mut rows, &mut json));
        }
    }
    let p = dir.join("summary.csv");
    runner::write_csv(&p, &SUMMARY_HEADER, &rows)?;
    files.push(p);
    runner::write_results_and_summary(&dir, &manifest, &json, &results, &md, &mut files)?;
    for m in MEASURES {
        let stem = dir.join(format!("figure13-{m}"));
        let mut fig = figure::figure(m, &results);
        fig.subtitle = format!(
            "seeds {seed}–{}, compression at {compression}; {}",
            seed + results.len().saturating_sub(1) as u64,
            fig.subtitle
        );
        files.extend(plot::write_both(&fig, &stem)?);
    }
    Ok(Outcome {
        dir,
        files,
        stats,
        markdown: md,
    })
}

/// One measurement rule's Table 7 and Figure 13 tables; their rows also go into `rows` (CSV)
/// and `json`.
fn measure_section(
    m: Measure,
    rd: NodeReturns,
    results: &[SynthCell],
    rows: &mut Vec<Vec<String>>,
    json: &mut Vec<serde_json::Value>,
) -> String {
    let mlabel = format!("{m}, returns {rd}");
    let mut md = format!("## measure `{m}`, node returns `{rd}`\n\nTable 7 (utilization, %):\n\n");
    let mut t7 = Vec::new();
    for (reading, util) in READINGS {
        for (v, paper) in TABLE_7 {
            let xs: Vec<f64> = results
                .iter()
                .filter_map(|c| find(c, v, m, rd))
                .map(|r| 100.0 * util(r).to_f64())
                .collect();
            let s = spread(&xs);
            let label = if v == Variant::Baseline {
                "Baseline".to_string()
            } else {
                format!("SFSJ ({v})")
            };
            let se = se_of(&s, xs.len());
            let v7 = verdict::judge(
                Paper::Value(f64::from(paper)),
                Estimate::with_se(s[0], se),
                Tolerance::PRINTED,
            );
            t7.push(vec![
                label,
                reading.to_string(),
                paper.to_string(),
                format!("{:.2} ± {:.2}", s[0], se),
                format!("{:.2}", s[1]),
                format!("{:.2}–{:.2}", s[2], s[3]),
                v7.text().into(),
            ]);
            let row = vec![
                mlabel.clone(),
                "Table 7".into(),
                v.to_string(),
                format!("utilization % ({reading})"),
                xs.len().to_string(),
                paper.to_string(),
                s[0].to_string(),
                s[1].to_string(),
                s[2].to_string(),
                s[3].to_string(),
                v7.plain().into(),
            ];
            json.push(serde_json::json!({"measure": m.to_string(), "returns": rd.to_string(), "table": "Table 7", "variant": v.to_string(), "reading": reading,
            "paper_pct": paper, "ours_mean_pct": s[0], "ours_sd": s[1], "ours_min": s[2], "ours_max": s[3], "ours_se": se, "verdict": v7.plain(), "seeds": xs.len()}));
            rows.push(row);
        }
    }
    md.push_str(&runner::markdown_table(
        &[
            "heuristic",
            "utilization",
            "paper",
            "ours (mean ± se)",
            "sd",
            "min–max",
            "verdict (within 5% or 2 se)",
        ]
        .map(String::from),
        &t7,
    ));
    md.push_str(&gain_line(m, rd, results));
    md.push_str(
        "\nFigure 13 (SFSJ / Baseline flow ratio per size class: ratio of the seed means; the per-seed ratios: mean ± standard error, min–max):\n\n",
    );
    let mut t13 = Vec::new();
    for k in 0..=6u32 {
        for s in [FlowStat::Max, FlowStat::Mean] {
            let mut per_seed = Vec::new();
            let (mut b, mut f) = (Vec::new(), Vec::new());
            for c in results {
                let pair = find(c, Variant::Baseline, m, rd)
                    .and_then(|r| class_stat(r, k, s))
                    .zip(find(c, Variant::SFSJ, m, rd).and_then(|r| class_stat(r, k, s)));
                if let Some((x, y)) = pair {
                    b.push(x);
                    f.push(y);
                    if x > 0.0 {
                        per_seed.push(y / x);
                    }
                }
            }
            let (mb, mf) = (spread(&b)[0], spread(&f)[0]);
            let ratio = if mb > 0.0 { mf / mb } else { f64::NAN };
            let sp = spread(&per_seed);
            let (paper, claim) = claim_text(k, s);
            let se = se_of(&sp, per_seed.len());
            let (tol, ok) = match claim {
                Some(c) => {
                    let (t, v) = flow_verdict(&c, ratio, se);
                    (t, Some(v))
                }
                None => (String::new(), None),
            };
            let ok_text = ok.map_or("", |v| v.text());
            let ok_plain = ok.map_or("", |v| v.plain());
            let stat = match s {
                FlowStat::Max => "max flow",
                FlowStat::Mean => "mean flow",
            };
            t13.push(vec![
                format!("2^{k}"),
                stat.into(),
                paper.clone(),
                fmt3(ratio),
                format!(
                    "{} ± {} ({}–{})",
                    fmt3(sp[0]),
                    fmt3(se),
                    fmt3(sp[2]),
                    fmt3(sp[3])
                ),
                tol,
                ok_text.into(),
            ]);
            rows.push(vec![
                mlabel.clone(),
                "Figure 13".into(),
                format!("class {k} (p = 2^{k})"),
                format!("{stat} ratio"),
                per_seed.len().to_string(),
                paper.clone(),
                ratio.to_string(),
                sp[1].to_string(),
                sp[2].to_string(),
                sp[3].to_string(),
                ok_plain.into(),
            ]);
            json.push(serde_json::json!({"measure": m.to_string(), "returns": rd.to_string(), "table": "Figure 13", "class": k, "stat": s,
                "paper": paper, "ours_ratio": ratio, "ours_se": se, "per_seed_min": sp[2], "per_seed_max": sp[3], "verdict": ok.map(|v| v.plain()), "holds": ok.map(|v| v.holds()), "seeds": per_seed.len()}));
        }
    }
    md.push_str(&runner::markdown_table(
        &[
            "p",
            "statistic",
            "paper",
            "ours",
            "per-seed ratios: mean ± se (min–max)",
            "tolerance",
            "verdict",
        ]
        .map(String::from),
        &t13,
    ));
    md.push('\n');
    md
}

/// The standard error of a mean from [`spread`]'s population sd over `n` values (NaN below 2).
fn se_of(sp: &[f64; 4], n: usize) -> f64 {
    if n > 1 {
        sp[1] / ((n - 1) as f64).sqrt()
    } else {
        f64::NAN
    }
}

/// Table 7's gain, paired per seed: SFSJ − Baseline useful utilization in points, mean ± se.
fn gain_line(m: Measure, rd: NodeReturns, results: &[SynthCell]) -> String {
    let d: Vec<f64> = results
        .iter()
        .filter_map(|c| {
            let b = find(c, Variant::Baseline, m, rd)?.utilization.to_f64();
            let s = find(c, Variant::SFSJ, m, rd)?.utilization.to_f64();
            Some(100.0 * (s - b))
        })
        .collect();
    let sp = spread(&d);
    let se = se_of(&sp, d.len());
    let tol = Tolerance::PRINTED;
    let v = verdict::judge(Paper::Value(2.0), Estimate::with_se(sp[0], se), tol);
    format!(
        "\nGain SFSJ − Baseline (useful, paired per seed): {} ± {:.2} points over {} seeds (paper: +2; {}: {}).\n",
        verdict::signed(sp[0], 2, ""),
        se,
        d.len(),
        tol.text(),
        v.text()
    )
}

/// Writes `cells.csv` (seed × measure × variant × size class) into `dir`; returns its path.
fn write_cells_csv(dir: &Path, results: &[SynthCell]) -> Result<PathBuf> {
    let mut rows = Vec::new();
    for c in results {
        for r in &c.results {
            for k in &r.classes {
                rows.push(vec![
                    c.seed.to_string(),
                    format!("{}, returns {}", r.measure, r.reading()),
                    r.variant.clone(),
                    r.utilization.to_f64().to_string(),
                    k.class.to_string(),
                    k.jobs.to_string(),
                    k.max.to_f64().to_string(),
                    k.mean.to_f64().to_string(),
                    r.utilization.to_string(),
                ]);
            }
        }
    }
    let p = dir.join("cells.csv");
    runner::write_csv(&p, &CELL_HEADER, &rows)?;
    Ok(p)
}
