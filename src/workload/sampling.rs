//! Failure sampling for the papers' evaluations: per-job failure probabilities and seeded
//! failure scenarios drawn from the geometric law.
//!
//! - Rigid paper, Sections 3.4 and 5.1: an error strikes a processor at rate λ, so a job of
//!   area a_j = p_j·t_j fails with probability q_j = 1 − e^(−λ a_j). The experiments set λ from
//!   the *average failure probability* q̄ = 1 − e^(−λ ā) (ā the mean area of the set):
//!   λ = −ln(1 − q̄)/ā, hence q_j = 1 − (1 − q̄)^(a_j/ā). See [`FailureLaw::rigid_qbar`].
//! - Moldable paper, Section 5.1: λ is a rate per unit of work and a job's failure probability
//!   depends only on its total work w_j (its sequential time t_j(1)): q_j = 1 − e^(−λ w_j).
//!   See [`FailureLaw::moldable_lambda`].
//!
//! A job fails f_j times before its first success with probability q_j^(f_j)·(1 − q_j) (the
//! geometric law of Section 3.4). A scenario draws every f_j by inversion: with U uniform in
//! (0, 1], f_j = ⌊ln U / ln q_j⌋, so that P(f_j ≥ k) = P(U ≤ q_j^k) = q_j^k.
//!
//! # Floating point
//! The probabilities are irrational, so they are `f64`, and so is the inversion. That is the
//! one place where floating point enters, and it is harmless for exactness: floats are only
//! used to DRAW the integers f_j; every makespan and bound is then computed exactly from those
//! integers. A different libm could in principle change a draw that falls within one ulp of an
//! integer boundary; the draws are otherwise bit-for-bit reproducible.
//!
//! # Determinism
//! Scenario k of job set s in a campaign with seed σ is drawn from a ChaCha8 stream whose
//! 32-byte seed is (σ, s, k, a domain tag) — see [`scenario_rng`] — one uniform per job in job
//! order. It therefore does not depend on the thread that computes it, on the order cells are
//! computed in, or on which other scenarios were drawn. The uniforms do not depend on q̄ or λ
//! either (common random numbers): across a sweep of q̄ the same U_j is inverted, so f_j grows
//! monotonically with q_j, which removes sampling noise from the comparison between sweep points.
use crate::error::{Error, Result};
use crate::model::{Instance, Profile, Scenario};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Domain tag of scenario streams, so that other streams derived from the same
/// (seed, set, index) triple (for instance job generation) never coincide with them.
const SCENARIO_TAG: u64 = 0x5343_454e_4152_494f; // "SCENARIO"

/// The ChaCha8 generator of scenario `scenario` of job set `set` in a campaign seeded `seed`.
pub fn scenario_rng(seed: u64, set: u64, scenario: u64) -> ChaCha8Rng {
    stream(seed, set, scenario, SCENARIO_TAG)
}

/// A ChaCha8 generator from four 64-bit words (seed, set, index, domain tag): distinct tuples
/// give distinct keys, so distinct, independent streams.
pub fn stream(seed: u64, set: u64, index: u64, tag: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[0..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&set.to_le_bytes());
    key[16..24].copy_from_slice(&index.to_le_bytes());
    key[24..32].copy_from_slice(&tag.to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

/// Per-job failure probabilities q_j, with the rate λ they come from.
#[derive(Debug, Clone, PartialEq)]
pub struct FailureLaw {
    /// The error rate λ (per processor-second for rigid jobs, per unit of work for moldable).
    pub lambda: f64,
    /// q_j for every job, in [0, 1).
    pub q: Vec<f64>,
    /// ln q_j (−∞ when q_j = 0), kept for the inversion.
    ln_q: Vec<f64>,
}

impl FailureLaw {
    /// q_j = 1 − e^(−λ x_j) for the exposures `x` (areas or works), computed as −expm1(−λ x)
    /// so that tiny probabilities keep their precision.
    pub fn from_exposure(lambda: f64, x: &[f64]) -> Result<FailureLaw> {
        if !(lambda.is_finite() && lambda >= 0.0) {
            return Err(Error::param(
                "lambda",
                format!("{lambda} must be a finite rate ≥ 0"),
            ));
        }
        let mut q = Vec::with_capacity(x.len());
        let mut ln_q = Vec::with_capacity(x.len());
        for (j, &xj) in x.iter().enumerate() {
            if !(xj.is_finite() && xj > 0.0) {
                return Err(Error::invalid(
                    "instance",
                    format!("jobs[{j}]"),
                    format!("exposure {xj} must be > 0"),
                ));
            }
            let lx = lambda * xj;
            let qj = -(-lx).exp_m1();
            if qj >= 1.0 {
                return Err(Error::param(
                    "lambda",
                    format!("λ·x = {lx} for job {j} makes its failure probability 1 (it would never succeed)"),
                ));
            }
            q.push(qj);
            // ln q = ln(1 − e^(−λx)) = ln(−expm1(−λx)).
            ln_q.push(if qj == 0.0 {
                f64::NEG_INFINITY
            } else {
                qj.ln()
            });
        }
        Ok(FailureLaw { lambda, q, ln_q })
    }

    /// The rigid paper's law (Section 5.1): λ = −ln(1 − q̄)/ā with ā the mean area, and
    /// q_j = 1 − e^(−λ a_j). `qbar` must be in [0, 1).
    pub fn rigid_qbar(inst: &Instance, qbar: f64) -> Result<FailureLaw> {
        if !(qbar.is_finite() && (0.0..1.0).contains(&qbar)) {
            return Err(Error::param("qbar", format!("{qbar} must be in [0, 1)")));
        }
        let mut areas = Vec::with_capacity(inst.len());
        for (j, job) in inst.jobs.iter().enumerate() {
            let (p, t) = job.as_rigid().ok_or_else(|| {
                Error::invalid(
                    "instance",
                    format!("jobs[{j}]"),
                    "the q̄ law is defined for rigid jobs",
                )
            })?;
            areas.push(f64::from(p) * t.to_f64());
        }
        if areas.is_empty() {
            return Err(Error::invalid("instance", "jobs", "no job"));
        }
        let mean = areas.iter().sum::<f64>() / areas.len() as f64;
        let lambda = -(-qbar).ln_1p() / mean;
        FailureLaw::from_exposure(lambda, &areas)
    }

    /// The moldable paper's law (Section 5.1): q_j = 1 − e^(−λ w_j) with w_j the total work,
    /// i.e. the sequential time t_j(1) (every speedup model of Section 3.1 has t(1) = w). A
    /// rigid job's work is its area p_j·t_j.
    pub fn moldable_lambda(inst: &Instance, lambda: f64) -> Result<FailureLaw> {
        let works: Vec<f64> = inst
            .jobs
            .iter()
            .map(|job| match &job.profile {
                Profile::Moldable { times, .. } => times.first().map_or(0.0, |t| t.to_f64()),
                Profile::Rigid { procs, time } => f64::from(*procs) * time.to_f64(),
            })
            .collect();
        FailureLaw::from_exposure(lambda, &works)
    }

    /// Expected number of failures of job j, q_j/(1 − q_j).
    pub fn expected_failures(&self, j: usize) -> f64 {
        self.q[j] / (1.0 - self.q[j])
    }

    /// Expected total number of failures of a scenario, Σ_j q_j/(1 − q_j).
    pub fn expected_total(&self) -> f64 {
        (0..self.q.len()).map(|j| self.expected_failures(j)).sum()
    }

    /// Draws one scenario from `rng`: one uniform per job, in job order (see the module doc).
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> Result<Scenario> {
        let mut failures = Vec::with_capacity(self.q.len());
        for (j, &lq) in self.ln_q.iter().enumerate() {
            // U in (0, 1]: 1 − [0, 1).
            let u = 1.0 - rng.random::<f64>();
            let f = if lq == f64::NEG_INFINITY {
                0.0
            } else {
                (u.ln() / lq).floor()
            };
            if !(f >= 0.0 && f <= f64::from(u32::MAX)) {
                return Err(Error::Limit(format!(
                    "job {j}: drew {f} failures (q = {}), above the supported 2^32 − 1",
                    self.q[j]
                )));
            }
            failures.push(f as u32);
        }
        Ok(Scenario::new(failures))
    }

    /// Scenario `scenario` of job set `set` in a campaign seeded `seed` (see [`scenario_rng`]).
    pub fn scenario(&self, seed: u64, set: u64, scenario: u64) -> Result<Scenario> {
        self.draw(&mut scenario_rng(seed, set, scenario))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;

    fn inst() -> Instance {
        Instance::rigid(
            100,
            &[
                (1, Time::from_int(10)),
                (2, Time::from_int(10)),
                (10, Time::from_int(20)),
            ],
        )
        .unwrap()
    }

    #[test]
    fn qbar_gives_the_mean_area_job_probability_qbar() {
        // Areas 10, 20, 200: ā = 230/3; q_j = 1 − (1 − q̄)^(a_j/ā).
        let law = FailureLaw::rigid_qbar(&inst(), 0.3).unwrap();
        let abar = 230.0 / 3.0;
        for (j, a) in [10.0, 20.0, 200.0].iter().enumerate() {
            let want = 1.0 - 0.7f64.powf(a / abar);
            assert!(
                (law.q[j] - want).abs() < 1e-12,
                "job {j}: {} vs {want}",
                law.q[j]
            );
        }
        assert!((law.lambda - (-(0.7f64).ln() / abar)).abs() < 1e-15);
        let zero = FailureLaw::rigid_qbar(&inst(), 0.0).unwrap();
        assert!(zero.q.iter().all(|&q| q == 0.0));
        assert_eq!(zero.scenario(1, 2, 3).unwrap(), Scenario::none(3));
        for bad in [1.0, -0.1, f64::NAN] {
            assert!(FailureLaw::rigid_qbar(&inst(), bad).is_err(), "q̄ = {bad}");
        }
    }

    #[test]
    fn same_key_same_scenario_other_key_other_stream() {
        let law = FailureLaw::from_exposure(1.0, &[1.0; 50]).unwrap();
        let a = law.scenario(7, 3, 11).unwrap();
        assert_eq!(a, law.scenario(7, 3, 11).unwrap());
        assert_ne!(a, law.scenario(7, 3, 12).unwrap());
        assert_ne!(a, law.scenario(7, 4, 11).unwrap());
        assert_ne!(a, law.scenario(8, 3, 11).unwrap());
    }

    #[test]
    fn common_random_numbers_make_failures_monotone_in_q() {
        let lo = FailureLaw::from_exposure(0.5, &[1.0, 2.0, 3.0, 4.0]).unwrap();
        let hi = FailureLaw::from_exposure(1.5, &[1.0, 2.0, 3.0, 4.0]).unwrap();
        for k in 0..200 {
            let (a, b) = (lo.scenario(1, 0, k).unwrap(), hi.scenario(1, 0, k).unwrap());
            assert!(
                a.failures.iter().zip(&b.failures).all(|(x, y)| x <= y),
                "scenario {k}: {a:?} vs {b:?}"
            );
        }
    }

    #[test]
    fn bad_rates_are_errors() {
        assert!(FailureLaw::from_exposure(-1.0, &[1.0]).is_err());
        assert!(FailureLaw::from_exposure(f64::INFINITY, &[1.0]).is_err());
        assert!(FailureLaw::from_exposure(1.0, &[0.0]).is_err());
        assert!(
            FailureLaw::from_exposure(1e6, &[1e6]).is_err(),
            "q rounds to 1"
        );
    }
}
