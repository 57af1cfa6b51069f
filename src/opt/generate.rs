//! Seeded generators of small instances for the optimum's tests and benchmarks, shared so that
//! both measure exactly the same instances.
//!
//! - [`anchor_rigid`]: the benchmark family of the exact optimum (the CP-SAT anchor): for A
//!   total attempts, n = ⌈A/2⌉ rigid jobs, p_j uniform in 1..=P, integer t_j uniform in
//!   1..=10, and the A − n extra attempts (failures) spread uniformly at random over the jobs.
//! - [`anchor_rigid_hard`]: the same with p_j uniform in ⌈P/3⌉..=⌊2P/3⌋.
//! - [`anchor_moldable`]: the same shape with moldable jobs: a random table per job (work w
//!   uniform in 1..=20, t(p) = ⌈w/min(p, p̄)⌉ + c·(p − 1) with p̄ uniform in 1..=P and c in
//!   {0, 1}), i.e. integer roofline/communication-like tables, written as an explicit table.
//! - [`paper_moldable`]: the same shape with the moldable paper's models (roofline,
//!   communication, Amdahl, mix) and random parameters, exact rational times.
//! - [`random_small`]: tiny rigid or moldable instances with rational times (denominators 1 and 2)
//!   for the agreement tests of the two methods.
//!
//! Determinism: each function takes a seed and uses its own `ChaCha8Rng`.
use crate::model::{Instance, Job, Profile, Scenario, SpeedupModel};
use crate::time::Time;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The CP-SAT anchor family: `attempts` = A ≥ 1 total attempts on `procs` processors.
pub fn anchor_rigid(attempts: usize, procs: u32, seed: u64) -> (Instance, Scenario) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let a = attempts.max(1);
    let n = a.div_ceil(2);
    let jobs: Vec<Job> = (0..n)
        .map(|j| {
            Job::rigid(
                format!("J{}", j + 1),
                rng.random_range(1..=procs.max(1)),
                Time::from_int(rng.random_range(1..=10)),
            )
        })
        .collect();
    let failures = spread(&mut rng, n, a - n);
    (
        Instance {
            procs: procs.max(1),
            jobs,
        },
        Scenario::new(failures),
    )
}

/// The "hard" variant of the anchor family (held out: the search is not tuned on it): the same
/// shape, but p_j uniform in ⌈P/3⌉..=⌊2P/3⌋ (at least 1), so that most pairs of jobs fit side
/// by side but few triples do — the clique bound of wide jobs is weak and the packing matters.
pub fn anchor_rigid_hard(attempts: usize, procs: u32, seed: u64) -> (Instance, Scenario) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let procs = procs.max(1);
    let lo = procs.div_ceil(3).max(1);
    let hi = (2 * procs / 3).max(lo);
    let a = attempts.max(1);
    let n = a.div_ceil(2);
    let jobs: Vec<Job> = (0..n)
        .map(|j| {
            Job::rigid(
                format!("J{}", j + 1),
                rng.random_range(lo..=hi),
                Time::from_int(rng.random_range(1..=10)),
            )
        })
        .collect();
    let failures = spread(&mut rng, n, a - n);
    (Instance { procs, jobs }, Scenario::new(failures))
}

/// The moldable variant of the anchor family.
pub fn anchor_moldable(attempts: usize, procs: u32, seed: u64) -> (Instance, Scenario) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let procs = procs.max(1);
    let a = attempts.max(1);
    let n = a.div_ceil(2);
    let jobs: Vec<Job> = (0..n)
        .map(|j| {
            let w: i64 = rng.random_range(1..=20);
            let pbar: i64 = rng.random_range(1..=i64::from(procs));
            let c: i64 = rng.random_range(0..=1);
            let times: Vec<Time> = (1..=i64::from(procs))
                .map(|p| Time::from_int((w + p.min(pbar) - 1) / p.min(pbar) + c * (p - 1)))
                .collect();
            moldable(format!("J{}", j + 1), times)
        })
        .collect();
    let failures = spread(&mut rng, n, a - n);
    (Instance { procs, jobs }, Scenario::new(failures))
}

/// The moldable paper's speedup models with random parameters: the shape of
/// the anchor family (n = ⌈A/2⌉ jobs, the A − n extra attempts spread at random), each job
/// drawn from the roofline (t = w/min(p, p̄)), communication (t = w/p + (p−1)·c), Amdahl
/// (t = w·((1−γ)/p + γ)) and mix (t = w(1−γ)/min(p, p̄) + wγ + (p−1)·c) models of the moldable
/// paper (Section 3.1), with w uniform in 1..=`max_work`, p̄ uniform in 1..=P, c in {0, 1/2, 1}
/// and γ in {0, 1/4, 1/2}. Times are exact rationals (denominators divide 4·lcm(1..P)), built
/// by [`SpeedupModel::table`], as a user's JSON instance would be.
///
/// Errors: [`crate::Error::Invalid`] if a model's table cannot be built (not expected: the
/// parameters are drawn inside every model's domain).
pub fn paper_moldable(
    attempts: usize,
    procs: u32,
    max_work: i64,
    seed: u64,
) -> crate::Result<(Instance, Scenario)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let procs = procs.max(1);
    let a = attempts.max(1);
    let n = a.div_ceil(2);
    // The denominators are literal nonzero constants, so `Time::new` always answers.
    let frac = |k: i64, d: i64, what: &str| {
        Time::new(k, d).ok_or_else(|| crate::Error::invalid("<paper_moldable>", what, "no time"))
    };
    let mut jobs = Vec::with_capacity(n);
    for j in 0..n {
        let w = Time::from_int(rng.random_range(1..=max_work.max(1)));
        let pbar: u32 = rng.random_range(1..=procs);
        let c = frac(rng.random_range(0..=2), 2, "c")?;
        let gamma = frac(rng.random_range(0..=2), 4, "gamma")?;
        let model = match rng.random_range(0..4u8) {
            0 => SpeedupModel::Roofline { w, pbar },
            1 => SpeedupModel::Communication { w, c },
            2 => SpeedupModel::Amdahl { w, gamma },
            _ => SpeedupModel::Mix { w, gamma, pbar, c },
        };
        let field = format!("jobs[{j}].speedup");
        let times = model
            .table(procs, &field)
            .map_err(|e| crate::Error::invalid("<paper_moldable>", e.field, e.msg))?;
        jobs.push(Job {
            name: format!("J{}", j + 1),
            profile: Profile::Moldable { model, times },
        });
    }
    let failures = spread(&mut rng, n, a - n);
    Ok((Instance { procs, jobs }, Scenario::new(failures)))
}

/// A tiny instance for agreement tests: `n` jobs on `procs` processors, times k/d with
/// k in 1..=4 and d in 1..=2 (so the scaled horizon stays small enough for microlp), f_j in
/// 0..=max_fail; moldable jobs when `moldable` is set (an
/// arbitrary, not necessarily monotonic, table).
pub fn random_small(
    n: usize,
    procs: u32,
    max_fail: u32,
    moldable_jobs: bool,
    seed: u64,
) -> (Instance, Scenario) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let procs = procs.max(1);
    let time = |rng: &mut ChaCha8Rng| {
        // unreachable: the denominator is drawn from 1..=2, never zero
        Time::new(rng.random_range(1..=4), rng.random_range(1..=2)).unwrap_or_default()
    };
    let jobs: Vec<Job> = (0..n.max(1))
        .map(|j| {
            if moldable_jobs {
                let times = (0..procs).map(|_| time(&mut rng)).collect();
                moldable(format!("J{}", j + 1), times)
            } else {
                let p = rng.random_range(1..=procs);
                Job::rigid(format!("J{}", j + 1), p, time(&mut rng))
            }
        })
        .collect();
    let failures = (0..jobs.len())
        .map(|_| rng.random_range(0..=max_fail))
        .collect();
    (Instance { procs, jobs }, Scenario::new(failures))
}

/// A moldable job given by an explicit (arbitrary) table.
pub fn moldable(name: String, times: Vec<Time>) -> Job {
    Job {
        name,
        profile: Profile::Moldable {
            model: SpeedupModel::Table {
                times: times.clone(),
                monotonic: false,
            },
            times,
        },
    }
}

fn spread(rng: &mut ChaCha8Rng, n: usize, extra: usize) -> Vec<u32> {
    let mut f = vec![0u32; n];
    for _ in 0..extra {
        f[rng.random_range(0..n)] += 1;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchor_shape_and_determinism() {
        let (inst, sc) = anchor_rigid(25, 8, 3);
        assert_eq!(inst.jobs.len(), 13);
        assert_eq!(sc.total_failures(), 12);
        assert!(inst.validate().is_ok());
        assert_eq!(anchor_rigid(25, 8, 3), (inst, sc));
        let (m, sc) = anchor_moldable(9, 4, 1);
        assert!(m.validate().is_ok() && sc.validate(&m).is_ok());
        let (r, sc) = random_small(3, 3, 2, true, 5);
        assert!(r.validate().is_ok() && sc.validate(&r).is_ok());
    }
}
