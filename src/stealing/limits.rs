//! The stated limits of node-stealing runs (DESIGN "Explicit limits"; node-stealing paper,
//! Sections 5.2 and 6.3 for the magnitudes they are measured against).
//!
//! Every input that could make a run unbounded, or make a floating-point draw leave the range
//! where it is exact, is checked against one of these before anything is allocated or drawn;
//! the error names the parameter (or file and line) and the valid range.
//!
//! | limit | value | why |
//! |---|---|---|
//! | [`MAX_SECONDS`] | 10^11 s (≈ 3,170 years) | releases, run times, walltimes, D, C, R, failure times, measurement windows: beyond any machine's life; keeps every `f64` used for display finite |
//! | [`MIN_MTBF_MILLIS`] … [`MAX_MTBF`] | 1/1000 s … 10^11 s | the platform MTBF μ (and Table 6's λ) feeds the exponential draw `−ln(u)·μ`, rounded to the 1/1000 grid: below one grid step almost every gap rounds to 0; above 10^11 s a gap (≤ 37·μ) times 1000 exceeds 2^53 and the grid rounding is no longer exact in `f64` |
//! | [`MAX_NODES`] | 2^20 = 1,048,576 | node bitsets are allocated per run (Mira has 49,152 nodes) |
//! | [`MAX_JOBS`] | 10^6 | checked before a workload is generated or simulated (Table 6 has 1000 jobs, a month of Mira a few thousand) |
//! | [`check_job_mtbf`] | μ_ind/p > C + R for the largest job | Young/Daly is first order in C/μ: a job failing more often than it can recover and checkpoint never progresses, and each failure costs a full replan of the queue |
//! | [`Budget::max_events`] | 100 × jobs + 100,000 by default ([`EVENTS_PER_JOB`], [`EVENTS_BASE`]) | a run whose failures outpace its jobs (an MTBF far below the checkpoint cost, downtimes that keep large jobs from starting, a job released long after the others under frequent failures) does not end in any useful time: it stops with [`crate::Error::Limit`] naming `max_events` |
//! | [`Budget::max_attempts`] | [`ATTEMPTS_PER_JOB`] × jobs + [`ATTEMPTS_BASE`] | the same for runs that keep restarting jobs |
use crate::error::{Error, Result};
use crate::time::Time;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Pow, ToPrimitive};

/// Largest time or duration (seconds) a node-stealing input may hold: 10^11 s.
pub const MAX_SECONDS: i64 = 100_000_000_000;
/// Smallest platform MTBF (and Table 6 mean inter-arrival time): 1/1000 s, one grid step.
pub const MIN_MTBF_MILLIS: i64 = 1;
/// Largest platform MTBF (and Table 6 mean inter-arrival time): 10^11 s.
pub const MAX_MTBF: i64 = MAX_SECONDS;
/// Largest platform size.
pub const MAX_NODES: u32 = 1 << 20;
/// Largest number of jobs of a workload.
pub const MAX_JOBS: usize = 1_000_000;
/// Default event budget per job: the heaviest runs measured need fewer than 7 (a 10-day Mira
/// window, 1,335 jobs, platform MTBF 20 min: 7,887 events for Baseline with a one-day downtime,
/// 8,699 for H311 with a 10-minute one; Table 6's workload: 2.3), so 100 leaves a margin of 14.
pub const EVENTS_PER_JOB: u64 = 100;
/// Default event budget on top of the per-job part, for small workloads over long times.
pub const EVENTS_BASE: u64 = 100_000;
/// Attempt budget per job.
pub const ATTEMPTS_PER_JOB: u64 = 1000;
/// Attempt budget on top of the per-job part.
pub const ATTEMPTS_BASE: u64 = 100_000;

/// `t` for a message: exact when short, else in scientific notation (`1.000e400`), so that a
/// value refused for its size does not print as hundreds of digits.
pub fn show(t: &Time) -> String {
    let exact = t.to_string();
    if exact.len() <= 24 {
        return exact;
    }
    let (n, d) = (t.numer().magnitude().clone(), t.denom());
    let mut e = n.to_string().len() as i64 - d.to_string().len() as i64;
    let ten = |k: i64| BigRational::from_integer(BigInt::from(10).pow(k.unsigned_abs() as u32));
    let m = if e >= 0 {
        t.to_big() / ten(e)
    } else {
        t.to_big() * ten(e)
    };
    // m ∈ (0.1, 10): the digit counts bound t/10^e; one step makes it [1, 10).
    // unreachable: BigInt::to_f64 always returns Some (±inf beyond range, checked by the caller)
    let mut mf = m.to_f64().unwrap_or(f64::NAN);
    if mf.abs() < 1.0 {
        mf *= 10.0;
        e -= 1;
    }
    format!("{mf:.3}e{e}")
}

/// The smallest platform MTBF as a time (1/1000 s).
pub fn min_mtbf() -> Time {
    // unreachable: the denominator is the literal 1000
    Time::new(MIN_MTBF_MILLIS, 1000).unwrap_or_else(Time::one)
}

/// Checks that a duration, parameter `name`, lies in `[0, MAX_SECONDS]`.
pub fn check_seconds(t: &Time, name: &str) -> Result<()> {
    if t.is_negative() || *t > Time::from_int(MAX_SECONDS) {
        return Err(Error::param(
            name,
            format!(
                "{} s is outside the valid range [0, 10^11] s (≈ 3,170 years)",
                show(t)
            ),
        ));
    }
    Ok(())
}

/// Checks a mean of exponential draws (the platform MTBF, or Table 6's λ) against
/// [`MIN_MTBF_MILLIS`]…[`MAX_MTBF`]: only then is `−ln(u)·mean` finite and exactly rounded to the
/// 1/1000 grid. Returns the mean as the `f64` the draws use; an error names parameter `name`.
pub fn check_mean_gap(mean: &Time, name: &str) -> Result<f64> {
    if *mean < min_mtbf() || *mean > Time::from_int(MAX_MTBF) {
        return Err(Error::param(
            name,
            format!(
                "{} s is outside the valid range [0.001, 10^11] s (one 1/1000 s grid step to ≈ 3,170 years)",
                show(mean)
            ),
        ));
    }
    let f = mean.to_f64();
    // In range by the check above: 1e-3 ≤ f ≤ 1e11 up to rounding, so finite and positive.
    debug_assert!(f.is_finite() && f > 0.0, "{f}");
    Ok(f)
}

/// The model's validity (Section 5.2: Young/Daly periods are a first-order approximation in
/// C/μ): every job must see failures less often than it spends recovering and checkpointing,
/// i.e. μ_ind/p > C + R for the largest job of p nodes. Below that, that job is struck during
/// nearly every recovery or checkpoint and runs on until a budget stops it, at the cost of a
/// full replan per failure.
pub fn check_job_mtbf(
    mtbf_ind: &Time,
    largest_job: u32,
    checkpoint: &Time,
    recovery: &Time,
) -> Result<()> {
    let cost = checkpoint + recovery;
    let Some(mu_job) = mtbf_ind.div_int(u64::from(largest_job.max(1))) else {
        return Ok(());
    };
    if cost.is_positive() && mu_job <= cost {
        return Err(Error::param(
            "mtbf_ind",
            format!(
                "the largest job ({largest_job} nodes) would fail every μ_ind/p = {} s on \
                 average, not more than C + R = {} s (`checkpoint` + `recovery`): it could \
                 almost never recover and checkpoint; the model needs μ_ind/p > C + R for every \
                 job (raise `mtbf_ind` or lower `checkpoint` and `recovery`)",
                show_decimal(&mu_job),
                show_decimal(&cost)
            ),
        ));
    }
    Ok(())
}

/// `t` with 3 decimals when short, else as [`show`].
fn show_decimal(t: &Time) -> String {
    let d = t.to_decimal_string(3);
    if d.len() <= 24 {
        d
    } else {
        show(t)
    }
}

/// Checks a platform size, parameter `name`, against [`MAX_NODES`].
pub fn check_nodes(n: u32, name: &str) -> Result<()> {
    if n == 0 || n > MAX_NODES {
        return Err(Error::param(
            name,
            format!("{n} nodes is outside the valid range 1..=2^20 (1,048,576)"),
        ));
    }
    Ok(())
}

/// Checks a job count against [`MAX_JOBS`] (before anything of that size is allocated).
pub fn check_jobs(n: u64, what: &str) -> Result<()> {
    if n > MAX_JOBS as u64 {
        return Err(Error::Limit(format!(
            "{what}: {n} jobs, more than the limit of 10^6 jobs per node-stealing workload \
             (src/stealing/limits.rs MAX_JOBS)"
        )));
    }
    Ok(())
}

/// The loop budgets of one simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Events handled: each failure drawn and each instant at which the scheduler acts.
    pub max_events: u64,
    /// Attempts started.
    pub max_attempts: u64,
    /// Not a limit: after the first [`crate::stealing::sim::PROGRESS_EVERY`] events, the
    /// progress callback is also asked once this much wall-clock time has passed since it last
    /// was (`None`: only every `PROGRESS_EVERY` events, which keeps the reports, and so a stop,
    /// at the same events on every machine). `resched steal` sets it so that a stop (Ctrl-C,
    /// SIGTERM, `--max-wall`) is seen within a quarter second even where 1024 events of a
    /// backlog of thousands of jobs take far longer.
    pub report_interval: Option<std::time::Duration>,
}

impl Budget {
    /// The default budgets for `jobs` jobs.
    pub fn for_jobs(jobs: usize) -> Budget {
        let jobs = jobs as u64;
        Budget {
            max_events: EVENTS_PER_JOB
                .saturating_mul(jobs)
                .saturating_add(EVENTS_BASE),
            max_attempts: ATTEMPTS_PER_JOB
                .saturating_mul(jobs)
                .saturating_add(ATTEMPTS_BASE),
            report_interval: None,
        }
    }

    /// These budgets, with progress also asked every `interval` of wall clock (see
    /// [`Budget::report_interval`]).
    pub fn reporting_every(self, interval: std::time::Duration) -> Budget {
        Budget {
            report_interval: Some(interval),
            ..self
        }
    }

    /// The default budgets with the event budget replaced by `max_events` when given.
    pub fn with_events(jobs: usize, max_events: Option<u64>) -> Budget {
        let mut b = Budget::for_jobs(jobs);
        if let Some(m) = max_events {
            b.max_events = m;
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_name_the_parameter() {
        let e = check_mean_gap(&"1e-400".parse().unwrap(), "platform_mtbf").unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("parameter `platform_mtbf`: ") && text.contains("0.001"));
        let e = check_mean_gap(&"1e400".parse().unwrap(), "platform_mtbf").unwrap_err();
        assert!(e.to_string().contains("10^11"), "{e}");
        assert_eq!(check_mean_gap(&min_mtbf(), "platform_mtbf").unwrap(), 0.001);
        assert!(check_mean_gap(&Time::from_int(MAX_MTBF), "platform_mtbf").is_ok());
        assert!(check_seconds(&Time::from_int(MAX_SECONDS), "downtime").is_ok());
        let e = check_seconds(&"1e30".parse().unwrap(), "checkpoint").unwrap_err();
        assert!(e.to_string().contains("parameter `checkpoint`"), "{e}");
        assert!(check_nodes(MAX_NODES + 1, "nodes").is_err());
        assert!(check_jobs(1_000_000_000, "synthetic").is_err());
        assert!(check_jobs(MAX_JOBS as u64, "synthetic").is_ok());
        assert_eq!(Budget::for_jobs(5).max_events, 100_500);
        assert_eq!(Budget::with_events(5, Some(7)).max_events, 7);
        assert_eq!(show(&"1e400".parse().unwrap()), "1.000e400");
        assert_eq!(show(&"-2.5e-300".parse().unwrap()), "-2.500e-300");
        assert_eq!(show(&"7/2".parse().unwrap()), "7/2");
        let (c, r) = (Time::from_int(300), Time::from_int(300));
        // Synthetic, platform MTBF 10 s: μ_ind = 1280, the 64-node jobs fail every 20 s.
        let e = check_job_mtbf(&Time::from_int(1280), 64, &c, &r).unwrap_err();
        assert!(e.to_string().contains("20.000 s"), "{e}");
        // Mira at the paper's smallest MTBF (20 min): 1200·49152/49000 ≈ 1204 s > 600 s.
        assert!(check_job_mtbf(&Time::from_int(1200 * 49152), 49000, &c, &r).is_ok());
        assert!(check_job_mtbf(&Time::one(), 8, &Time::zero(), &Time::zero()).is_ok());
    }
}
