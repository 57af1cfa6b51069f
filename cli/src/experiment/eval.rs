//! Evaluation of algorithms on one job set over many failure scenarios: the inner loop of every
//! campaign (rigid paper Section 5.1, moldable paper Section 5.1 "Evaluation Methodology").
//!
//! For each scenario f (drawn by [`resched::workload::sampling`]) and each algorithm, the makespan
//! is computed exactly by the engine and divided *exactly* by the lower bound — L(f) of the
//! rigid paper's Equations (5)–(6), or L'(J, f) of the moldable paper's Section 5.1 — and the
//! exact ratio is turned into an `f64` only to be averaged (display statistics). The maximum
//! ratio is kept exact.
//!
//! Every cell validates schedules: scenario 0 of every (set, algorithm) goes through the oracle's
//! certify path ([`resched::oracle::Prepared::certify`]: engine, checker, equal makespans); the
//! other scenarios use the engine alone ([`resched::oracle::Prepared::makespan`]).
use resched::error::{Error, Result};
use resched::model::{Instance, Scenario};
use resched::oracle::{AlgoSpec, Prepared};
use resched::time::Time;
use serde::{Deserialize, Serialize};

/// Statistics of one algorithm on one job set over its scenarios.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlgoStats {
    /// Algorithm label, as the papers write it (e.g. `R-List-0`, `LPA`).
    pub algo: String,
    /// Priority rule (e.g. `LPT`).
    pub priority: String,
    /// Scenarios evaluated.
    pub scenarios: usize,
    /// Mean of makespan / lower bound over the scenarios (the "expected ratio" of the set).
    pub mean: f64,
    /// Standard deviation of the ratio over the scenarios (population, 0 for one scenario).
    pub std: f64,
    /// Largest ratio, exact (`"a/b"`).
    pub max: Time,
    /// Largest ratio as a decimal.
    pub max_f64: f64,
    /// Mean makespan (seconds), for reference.
    pub mean_makespan: f64,
    /// Schedules passed through the checker.
    pub checked: usize,
    /// Wall-clock seconds spent simulating this algorithm on this set (informative only: it
    /// depends on the machine and its load, so it is kept out of the CSV files).
    #[serde(default)]
    pub seconds: f64,
}

/// An algorithm to evaluate: its label, priority label and the prepared scheduler (reset by the
/// engine at time 0 of every run).
pub struct Contender {
    pub algo: String,
    pub priority: String,
    pub prepared: Prepared,
}

impl Contender {
    /// Builds `spec` for `inst`; the labels are the catalogue's paper label (e.g. `R-List-0`)
    /// and the priority rule's (e.g. `LPT`).
    pub fn new(spec: &AlgoSpec, inst: &Instance) -> Result<Contender> {
        let r = spec.resolve()?;
        Ok(Contender {
            algo: r.entry.label.to_string(),
            priority: spec
                .priority
                // default: LPT is the documented default priority
                .unwrap_or(resched::schedulers::Priority::Lpt)
                .to_string(),
            prepared: Prepared::new(spec, inst)?,
        })
    }
}

/// Running mean and variance (Welford), in f64: display statistics only.
#[derive(Debug, Clone, Default)]
pub struct Moments {
    pub n: usize,
    pub mean: f64,
    m2: f64,
}

impl Moments {
    /// Adds one value.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Population standard deviation (0 for fewer than two values).
    pub fn std(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / self.n as f64).sqrt()
        }
    }
}

/// Evaluates every contender on `inst` over `scenarios`; `lower(sc)` is the exact lower bound
/// of a scenario. Scenario 0 of every contender is checked (see the module doc).
pub fn evaluate(
    inst: &Instance,
    scenarios: &[Scenario],
    contenders: &mut [Contender],
    lower: &dyn Fn(&Scenario) -> Result<Time>,
) -> Result<Vec<AlgoStats>> {
    let mut acc: Vec<(Moments, Moments, Option<Time>, usize)> =
        contenders.iter().map(|_| Default::default()).collect();
    let mut secs = vec![0.0f64; contenders.len()];
    for (k, sc) in scenarios.iter().enumerate() {
        let lb = lower(sc)?;
        if !lb.is_positive() {
            return Err(Error::Limit(format!(
                "scenario {k}: lower bound {lb} is not positive"
            )));
        }
        for ((c, a), sec) in contenders
            .iter_mut()
            .zip(acc.iter_mut())
            .zip(secs.iter_mut())
        {
            let t0 = std::time::Instant::now();
            let makespan = if k == 0 {
                let certified = c.prepared.certify(inst, sc)?;
                a.3 += 1;
                certified.makespan
            } else {
                c.prepared.makespan(inst, sc)?
            };
            *sec += t0.elapsed().as_secs_f64();
            let ratio = &makespan / &lb;
            a.0.push(ratio.to_f64());
            a.1.push(makespan.to_f64());
            if a.2.as_ref().is_none_or(|m| &ratio > m) {
                a.2 = Some(ratio);
            }
        }
    }
    contenders
        .iter()
        .zip(acc)
        .zip(secs)
        .map(|((c, (r, m, max, checked)), seconds)| {
            // Without a scenario there is no ratio: an error, not a maximum of 0.
            let max = max.ok_or_else(|| {
                Error::Limit(format!(
                    "{} {}: no scenario to evaluate",
                    c.algo, c.priority
                ))
            })?;
            Ok(AlgoStats {
                algo: c.algo.clone(),
                priority: c.priority.clone(),
                scenarios: r.n,
                mean: r.mean,
                std: r.std(),
                max_f64: max.to_f64(),
                max,
                mean_makespan: m.mean,
                checked,
                seconds,
            })
        })
        .collect()
}

/// Mean, population standard deviation and maximum of a list (NaN mean for an empty one).
pub fn summary(xs: impl IntoIterator<Item = f64>) -> (f64, f64, f64) {
    let mut m = Moments::default();
    let mut max = f64::NEG_INFINITY;
    for x in xs {
        m.push(x);
        max = max.max(x);
    }
    if m.n == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    (m.mean, m.std(), max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_match_direct_formulas() {
        let xs = [1.0, 2.0, 4.0, 7.0];
        let (mean, std, max) = summary(xs);
        let mu = 3.5;
        let var = xs.iter().map(|x| (x - mu) * (x - mu)).sum::<f64>() / 4.0;
        assert!((mean - mu).abs() < 1e-12 && (std - var.sqrt()).abs() < 1e-12 && max == 7.0);
        assert_eq!(summary([5.0]).1, 0.0);
        assert!(summary([]).0.is_nan());
    }
}
