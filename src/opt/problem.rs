//! The integer model every exact method of [`crate::opt`] works on: T_OPT(f) of the rigid paper
//! (Section 3.3, Eqs. 1–3) and the moldable paper (Section 3.3), after two exact reductions.
//!
//! 1. **Scaling.** Every duration t_j(p) is an exact rational; multiplying all of them by the
//!    least common multiple `scale` of their denominators makes them integers. A *semi-active*
//!    schedule (no attempt can start earlier by itself) starts every attempt at 0 or at the end
//!    of another attempt, so its start times and its makespan are sums of scaled durations:
//!    integers. Some optimal schedule is semi-active (shift every attempt left while possible:
//!    the makespan never grows), so OPT·scale is an integer and every lower bound may be rounded
//!    up to the next integer. No floating point is involved anywhere.
//! 2. **Dominated processor counts (moldable jobs).** An option (p, t(p)) is dropped when some
//!    q < p has t(q) ≤ t(p): running that attempt on q processors instead occupies fewer
//!    processors during a sub-interval of the same interval, so every schedule stays feasible
//!    and no attempt ends later. What remains is the Pareto front: p increasing, t strictly
//!    decreasing. For a monotonic table this keeps exactly the counts where t strictly
//!    decreases; for an arbitrary table it is still sound (no monotonicity is assumed).
//!
//! Every time, area and sum is an [`Int`]: 64 bits in `crate::opt`, 128 in `crate::opt::wide`
//! (this file is compiled twice, see [`crate::opt`]). The scaled horizon H (the sum of every
//! attempt's longest duration, which bounds every time of every schedule considered) is bounded
//! by [`max_horizon`] so that nothing overflows: a transformed area (a DFF weight ≤ 16·P times a
//! duration) stays below 16·P·H, which fits an [`Int`], and the largest product the bounds take —
//! a time times such an area, in the convex hulls of [`super::bounds`], taken in 128 bits —
//! below 16·P·H². A larger instance gets [`Error::Limit`] naming the limit from [`build`];
//! [`crate::opt::solve`] answers it on the wider model, or in exact time
//! ([`crate::opt::unscaled`]), instead of refusing it.
use crate::error::{Error, Result};
use crate::model::{Instance, Profile, Scenario};
use crate::opt::TooFine;
use crate::time::Time;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::One;

pub use super::{max_horizon, Int};

/// Largest P accepted by the exact methods (areas stay below 2^60).
pub const MAX_PROCS: u32 = 1 << 16;
/// Largest number of attempts of one job (f_j + 1).
pub const MAX_ATTEMPTS_PER_JOB: u32 = 255;
/// Largest number of jobs of the integer model (the bounds are O(n²) per node). The search
/// itself stops at [`super::search::MAX_JOBS`]; beyond it only the heuristics and bounds run.
pub const MAX_JOBS: usize = 4096;

/// One undominated way to run an attempt: `procs` processors for `dur` scaled time units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opt {
    pub procs: u32,
    pub dur: Int,
}

/// A job of the integer model: a chain of `attempts` attempts, each run with one of `options`.
#[derive(Debug, Clone)]
pub struct IntJob {
    /// f_j + 1.
    pub attempts: u32,
    /// The Pareto front of (p, t(p)): procs increasing, dur strictly decreasing.
    pub options: Vec<Opt>,
    /// Shortest duration of one attempt (the last option's).
    pub min_dur: Int,
    /// Smallest area p·t(p) of one attempt.
    pub min_area: Int,
    /// Smallest processor count of one attempt (the first option's).
    pub min_procs: u32,
    /// Jobs with equal `class` have identical option lists (they differ at most in f_j).
    pub class: usize,
}

/// An instance and a scenario, scaled to integers.
#[derive(Debug, Clone)]
pub struct IntProblem {
    pub procs: u32,
    /// The LCM of all denominators: scaled = exact · scale.
    pub scale: Int,
    pub jobs: Vec<IntJob>,
}

impl IntProblem {
    /// Total number of attempts Σ (f_j + 1).
    pub fn total_attempts(&self) -> u64 {
        self.jobs.iter().map(|j| u64::from(j.attempts)).sum()
    }

    /// An exact time from a scaled integer.
    pub fn to_time(&self, scaled: Int) -> Time {
        // scale ≥ 1, so the division is defined (`BigRational::new` reduces it).
        Time::from_big(num_rational::BigRational::new(
            BigInt::from(scaled),
            BigInt::from(self.scale),
        ))
    }

    /// The smallest integer ≥ `t · scale` (for exact lower bounds given as `Time`).
    pub fn ceil_scaled(&self, t: &Time) -> Option<Int> {
        let v = t.to_big() * BigInt::from(self.scale);
        Int::try_from(&v.ceil().to_integer()).ok()
    }
}

/// Builds the integer model, validating the instance and the scenario first.
///
/// Errors: [`Error::Invalid`], or [`Error::Limit`] naming the limit exceeded (P, jobs, attempts
/// per job, the scaled horizon).
pub fn build(inst: &Instance, sc: &Scenario) -> Result<IntProblem> {
    build_or_too_fine(inst, sc)?.map_err(|t| t.to_error())
}

/// [`build`], with an instance whose scaled times exceed [`max_horizon`] told apart from the
/// other errors: `Ok(Err(_))`, which [`crate::opt::solve`] answers in exact time instead.
pub fn build_or_too_fine(
    inst: &Instance,
    sc: &Scenario,
) -> Result<std::result::Result<IntProblem, TooFine>> {
    check_limits(inst, sc)?;
    // Pareto fronts in exact time.
    let mut fronts: Vec<Vec<(u32, Time)>> = Vec::with_capacity(inst.jobs.len());
    for job in &inst.jobs {
        let mut front: Vec<(u32, Time)> = Vec::new();
        match &job.profile {
            Profile::Rigid { procs, time } => front.push((*procs, time.clone())),
            Profile::Moldable { times, .. } => {
                for (i, t) in times.iter().enumerate() {
                    if front.last().is_none_or(|(_, best)| t < best) {
                        front.push((i as u32 + 1, t.clone()));
                    }
                }
            }
        }
        fronts.push(front);
    }
    // scale = lcm of denominators.
    let mut scale = BigInt::one();
    for front in &fronts {
        for (_, t) in front {
            scale = scale.lcm(&t.denom());
        }
    }
    let limit = max_horizon(inst.procs);
    let too_fine = || TooFine {
        scale: scale.clone(),
        limit: limit.into(),
    };
    let Some(scale_i) = Int::try_from(&scale).ok().filter(|&s| s <= limit) else {
        return Ok(Err(too_fine()));
    };
    let mut horizon: Int = 0;
    let mut jobs = Vec::with_capacity(fronts.len());
    let mut classes: Vec<Vec<Opt>> = Vec::new();
    for (j, front) in fronts.iter().enumerate() {
        let mut options = Vec::with_capacity(front.len());
        for (p, t) in front {
            let d = Int::try_from(&(t.to_big() * BigInt::from(scale_i)).to_integer())
                .ok()
                .filter(|&d| d <= limit);
            let Some(d) = d else {
                return Ok(Err(too_fine()));
            };
            options.push(Opt { procs: *p, dur: d });
        }
        let attempts = sc.failures[j] + 1;
        // unreachable: every job has at least one option (procs ≤ P was checked above)
        let longest = options.iter().map(|o| o.dur).max().unwrap_or(0);
        // Both factors are ≤ 2^60 and 255, so the product and the sum (≤ 2^120) do not overflow.
        horizon += longest * Int::from(attempts);
        if horizon > limit {
            return Ok(Err(too_fine()));
        }
        // unreachable: every job has at least one option (procs ≤ P was checked above)
        let min_dur = options.iter().map(|o| o.dur).min().unwrap_or(0);
        let min_area = options
            .iter()
            .map(|o| o.dur * Int::from(o.procs))
            .min()
            // unreachable: every job has at least one option (procs ≤ P was checked above)
            .unwrap_or(0);
        // unreachable: every job has at least one option (procs ≤ P was checked above)
        let min_procs = options.iter().map(|o| o.procs).min().unwrap_or(1);
        let class = match classes.iter().position(|c| *c == options) {
            Some(c) => c,
            None => {
                classes.push(options.clone());
                classes.len() - 1
            }
        };
        jobs.push(IntJob {
            attempts,
            options,
            min_dur,
            min_area,
            min_procs,
            class,
        });
    }
    Ok(Ok(IntProblem {
        procs: inst.procs,
        scale: scale_i,
        jobs,
    }))
}

/// The limits of the exact methods that do not depend on the times: P, the number of jobs, the
/// attempts per job (after validating the instance and the scenario).
pub fn check_limits(inst: &Instance, sc: &Scenario) -> Result<()> {
    inst.validate().map_err(|e| e.in_file("<instance>"))?;
    sc.validate(inst).map_err(|e| e.in_file("<scenario>"))?;
    if inst.procs > MAX_PROCS {
        return Err(Error::Limit(format!(
            "opt: `procs`: P = {} exceeds the exact methods' limit of {MAX_PROCS} processors",
            inst.procs
        )));
    }
    if inst.jobs.len() > MAX_JOBS {
        return Err(Error::Limit(format!(
            "opt: `jobs`: {} jobs exceed the exact methods' limit of {MAX_JOBS} jobs",
            inst.jobs.len()
        )));
    }
    if let Some((j, &f)) =
        (sc.failures.iter().enumerate()).find(|(_, &f)| f >= MAX_ATTEMPTS_PER_JOB)
    {
        return Err(Error::Limit(format!(
            "opt: failures[{j}]: job {} fails {f} times; the exact methods allow at most {} attempts per job",
            inst.jobs[j].name, MAX_ATTEMPTS_PER_JOB
        )));
    }
    Ok(())
}

/// The scaled problem of a rigid instance given as (procs, integer time) pairs, for the unit
/// tests of the modules that read an [`IntProblem`] (lanes, packing).
#[cfg(test)]
pub(crate) fn rigid_for_tests(procs: u32, jobs: &[(u32, Int)], failures: Vec<u32>) -> IntProblem {
    let p_time = |t: Int| Time::from_big(num_rational::BigRational::from_integer(BigInt::from(t)));
    let jobs: Vec<(u32, Time)> = jobs.iter().map(|&(p, t)| (p, p_time(t))).collect();
    let inst = Instance::rigid(procs, &jobs).unwrap();
    build(&inst, &Scenario::new(failures)).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Job, SpeedupModel};

    #[test]
    fn scales_and_keeps_the_pareto_front() {
        let t = |n, d| Time::new(n, d).unwrap();
        let times = vec![t(4, 1), t(3, 1), t(3, 1), t(5, 2), t(7, 3), t(3, 1)];
        let inst = Instance::new(
            6,
            vec![
                Job::rigid("A", 2, t(1, 2)),
                Job {
                    name: "B".into(),
                    profile: Profile::Moldable {
                        model: SpeedupModel::Table {
                            times: times.clone(),
                            monotonic: false,
                        },
                        times,
                    },
                },
                Job::rigid("C", 2, t(1, 2)),
            ],
        )
        .unwrap();
        let p = build(&inst, &Scenario::new(vec![0, 1, 2])).unwrap();
        assert_eq!(p.scale, 6);
        assert_eq!(p.jobs[0].options, vec![Opt { procs: 2, dur: 3 }]);
        let front: Vec<(u32, Int)> = p.jobs[1].options.iter().map(|o| (o.procs, o.dur)).collect();
        assert_eq!(front, vec![(1, 24), (2, 18), (4, 15), (5, 14)]);
        assert_eq!(p.jobs[1].min_area, 24);
        assert_eq!(p.jobs[2].attempts, 3);
        assert_eq!(p.jobs[0].class, p.jobs[2].class);
        assert_ne!(p.jobs[0].class, p.jobs[1].class);
        assert_eq!(p.to_time(3), t(1, 2));
    }

    #[test]
    fn limits_are_named() {
        // A denominator of 2^62 is beyond both widths' horizons (2^40; ⌊√(2^119)⌋ < 2^60).
        let inst = Instance::rigid(2, &[(1, Time::new(1, 1 << 62).unwrap())]).unwrap();
        let e = build(&inst, &Scenario::none(1)).unwrap_err();
        assert!(
            matches!(e, Error::Limit(ref m) if m.contains("horizon")),
            "{e}"
        );
        let inst = Instance::rigid(2, &[(1, Time::one())]).unwrap();
        let e = build(&inst, &Scenario::new(vec![300])).unwrap_err();
        assert!(
            matches!(e, Error::Limit(ref m) if m.contains("attempts per job")),
            "{e}"
        );
        let e = build(&inst, &Scenario::new(vec![1, 2])).unwrap_err();
        assert!(matches!(e, Error::Invalid { .. }), "{e}");
    }
}
