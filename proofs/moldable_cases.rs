//! Random moldable cases and certified runs shared by the moldable ledger entries, the
//! adversarial search and the exhaustive moldable scope (moldable paper Section 3's speedup
//! models with small exact parameters).
//!
//! It sits below all three, so none of them imports another for these helpers.
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use resched::error::Result;
use resched::model::speedup::ModelKind;
use resched::model::{Instance, Job, Profile, Scenario, Schedule, SpeedupModel};
use resched::oracle::{self, AlgoSpec};
use resched::schedulers::Priority as MPriority;
use resched::time::Time;

/// Runs moldable algorithm `name` with `prio` (and ε for BATCH-LIST), checked.
pub fn run_moldable(
    inst: &Instance,
    sc: &Scenario,
    name: &str,
    prio: MPriority,
    eps: Option<&Time>,
) -> Result<(Time, Schedule)> {
    let spec = AlgoSpec {
        eps: eps.cloned(),
        ..AlgoSpec::new(name).with_priority(prio)
    };
    let c = oracle::certify(&spec, inst, sc)?;
    Ok((c.makespan, c.schedule))
}

/// Runs the moldable algorithm `name` with the priority named `prio` (`lpt`, `hpa`, `la`, …).
pub fn run_moldable_named(inst: &Instance, sc: &Scenario, name: &str, prio: &str) -> Result<Time> {
    Ok(run_moldable(inst, sc, name, prio.parse::<MPriority>()?, None)?.0)
}

/// A moldable job of model `kind` with small random exact parameters.
pub fn random_job(rng: &mut ChaCha8Rng, kind: ModelKind, procs: u32, name: String) -> Result<Job> {
    // unreachable: the denominator is drawn from 1..=2, never zero
    let w = Time::new(rng.random_range(1..=24), rng.random_range(1..=2)).unwrap_or_default();
    let pbar = rng.random_range(1..=procs);
    // unreachable: the denominator is the literal 8
    let frac = |rng: &mut ChaCha8Rng| Time::new(rng.random_range(0..=8), 8).unwrap_or_default();
    // unreachable: the denominator is a power of two
    let c = Time::new(1, 1 << rng.random_range(0..=5)).unwrap_or_default();
    let model = match kind {
        ModelKind::Roofline => SpeedupModel::Roofline { w, pbar },
        ModelKind::Communication => SpeedupModel::Communication { w, c },
        ModelKind::Amdahl => SpeedupModel::Amdahl {
            w,
            gamma: frac(rng),
        },
        ModelKind::Mix => SpeedupModel::Mix {
            w,
            gamma: frac(rng),
            pbar,
            c,
        },
        ModelKind::Power => SpeedupModel::Power {
            w,
            // unreachable: the denominator is the literal 4
            delta: Time::new(rng.random_range(0..=4), 4).unwrap_or_default(),
        },
        ModelKind::Monotonic => {
            // t(1) drawn, then t(p) at k/4 of the way between the limits monotonicity allows.
            let mut times = vec![Time::from_int(rng.random_range(1..=12))];
            for p in 2..=u64::from(procs) {
                let prev = times[times.len() - 1].clone();
                // unreachable: p ≥ 2 in this loop, the divisor is nonzero
                let lo = prev.mul_int(p - 1).div_int(p).unwrap_or_default();
                let k = rng.random_range(0..=4u64);
                // unreachable: the divisor is the literal 4
                times.push(&lo + &(&prev - &lo).mul_int(k).div_int(4).unwrap_or_default());
            }
            SpeedupModel::Table {
                times,
                monotonic: true,
            }
        }
        ModelKind::Arbitrary => {
            let times = (0..procs)
                .map(|_| {
                    // unreachable: the denominator is drawn from 1..=2, never zero
                    Time::new(rng.random_range(1..=12), rng.random_range(1..=2)).unwrap_or_default()
                })
                .collect();
            SpeedupModel::Table {
                times,
                monotonic: false,
            }
        }
    };
    let times = model
        .table(procs, &format!("jobs[{name}].speedup"))
        .map_err(|e| e.in_file("generated"))?;
    Ok(Job {
        name,
        profile: Profile::Moldable { model, times },
    })
}

/// A random instance of model `kind`: P in 1..=max_procs, n in 1..=max_jobs, f_j ≤ max_f.
pub fn random_model_case(
    rng: &mut ChaCha8Rng,
    kind: ModelKind,
    max_procs: u32,
    max_jobs: usize,
    max_f: u32,
) -> Result<(Instance, Scenario)> {
    let procs = rng.random_range(2..=max_procs.max(2));
    let n = rng.random_range(1..=max_jobs.max(1));
    let jobs = (0..n)
        .map(|j| random_job(rng, kind, procs, format!("J{}", j + 1)))
        .collect::<Result<Vec<_>>>()?;
    let f = (0..n).map(|_| rng.random_range(0..=max_f)).collect();
    Ok((
        Instance::new(procs, jobs).map_err(|e| e.in_file("generated"))?,
        Scenario::new(f),
    ))
}
