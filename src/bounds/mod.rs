//! Lower bounds on the optimal makespan and the papers' approximation ratios, as exact functions.
//!
//! Rigid paper, Section 3.3: t_max(f) = max_j (f_j+1)·t_j (Eq. 5), A(f) = Σ_j (f_j+1)·p_j·t_j
//! (Eq. 6), and L(f) = max(t_max(f), A(f)/P) ≤ T_OPT(f).
pub mod moldable;

use crate::model::{Instance, Scenario};
use crate::time::Time;

/// The components of the rigid lower bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RigidBound {
    /// t_max(f): the longest chain of attempts of one job.
    pub tmax: Time,
    /// A(f): the total area of all attempts.
    pub area: Time,
    /// L(f) = max(t_max, A/P).
    pub lower: Time,
}

/// t_max(f), A(f) and L(f) for a rigid instance; `None` if a job is moldable.
///
/// The oracle computes it for every scenario it certifies, so the sums are kept on integers:
/// when every t_j = n_j/d_j is word-sized and the d_j have a common multiple D below 2^63,
/// t_max and A are sums and maxima of the integers n_j·(D/d_j)·(f_j+1)(·p_j), and only the two
/// results are reduced (one gcd each, and one in A/P) instead of a gcd per job. Otherwise, or if
/// an integer would outgrow 128 bits, the same formulas in [`Time`] (`rigid_exact`).
pub fn rigid(inst: &Instance, scenario: &Scenario) -> Option<RigidBound> {
    if let Some(b) = common_denominator(inst, scenario).and_then(|d| on_grid(inst, scenario, d)) {
        return Some(b);
    }
    rigid_exact(inst, scenario)
}

/// The least common multiple D of the jobs' denominators, when every job is rigid with a
/// word-sized time and D < 2^63.
fn common_denominator(inst: &Instance, scenario: &Scenario) -> Option<u64> {
    let mut d: u64 = 1;
    for (job, _) in inst.jobs.iter().zip(&scenario.failures) {
        let (_, t) = job.as_rigid()?;
        d = common_multiple(d, *t.as_small()?.denom() as u64)?;
    }
    Some(d)
}

/// lcm(d, k) when it is below 2^63 (`k > 0`).
fn common_multiple(d: u64, k: u64) -> Option<u64> {
    if d % k == 0 {
        return Some(d);
    }
    let (mut a, mut b) = (d, k);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    (d / a).checked_mul(k).filter(|&l| l <= i64::MAX as u64)
}

/// The bound with t_max and A summed as integer multiples of 1/D (every t_j word-sized with
/// d_j dividing D); `None` when an intermediate outgrows `i128`.
fn on_grid(inst: &Instance, scenario: &Scenario, d: u64) -> Option<RigidBound> {
    let mut tmax: i128 = 0;
    let mut area: i128 = 0;
    for (job, &f) in inst.jobs.iter().zip(&scenario.failures) {
        let (p, t) = job.as_rigid()?;
        let r = t.as_small()?;
        let x = i128::from(*r.numer()).checked_mul(i128::from(d / *r.denom() as u64))?;
        let chain = x.checked_mul(i128::from(f) + 1)?;
        area = area.checked_add(chain.checked_mul(i128::from(p))?)?;
        tmax = tmax.max(chain);
    }
    let tmax = Time::from_scaled(tmax, d)?;
    let area = Time::from_scaled(area, d)?;
    let per_proc = area.div_int(u64::from(inst.procs))?;
    let lower = tmax.clone().max(per_proc);
    Some(RigidBound { tmax, area, lower })
}

/// [`rigid`] in [`Time`] arithmetic throughout: the definition, for any times.
fn rigid_exact(inst: &Instance, scenario: &Scenario) -> Option<RigidBound> {
    let mut tmax = Time::zero();
    let mut area = Time::zero();
    for (job, &f) in inst.jobs.iter().zip(&scenario.failures) {
        let (p, t) = job.as_rigid()?;
        let chain = t.mul_int(u64::from(f) + 1);
        area += chain.mul_int(u64::from(p));
        tmax = tmax.max(chain);
    }
    let per_proc = area.div_int(u64::from(inst.procs))?;
    let lower = tmax.clone().max(per_proc);
    Some(RigidBound { tmax, area, lower })
}

/// `x / k` for a divisor its caller has proven positive (a validated P ≥ 1, or a difference
/// the formula's case split makes ≥ 1). `Time::div_int` fails only on k = 0, so with
/// `k.max(1)` the default below is unreachable; the `debug_assert!` states the proof.
pub(crate) fn div_positive(x: &Time, k: u64) -> Time {
    debug_assert!(k > 0, "the caller proves the divisor positive");
    // unreachable: k > 0 (debug_assert above); `max(1)` only keeps release builds total
    x.div_int(k.max(1)).unwrap_or_default()
}

/// Proposition 2's ratio for GREEDY (R-LIST with m = 0): 2 − 1/P (P ≥ 1).
pub fn greedy_ratio(procs: u32) -> Time {
    Time::from_int(2) - div_positive(&Time::one(), u64::from(procs))
}

/// Proposition 1's ratio for RESERVATION with LJF (R-LIST with m ≥ 1): 3 − 4/(P+1).
pub fn reservation_ratio(procs: u32) -> Time {
    Time::from_int(3) - div_positive(&Time::from_int(4), u64::from(procs) + 1)
}

/// The harmonic number H_P = 1 + 1/2 + … + 1/P (Proposition 3's makespan), exactly.
pub fn harmonic(p: u32) -> Time {
    (1..=u64::from(p))
        .filter_map(|k| Time::ratio_u64(1, k))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas() {
        assert_eq!(greedy_ratio(4), Time::new(7, 4).unwrap());
        assert_eq!(reservation_ratio(3), Time::from_int(2));
        assert_eq!(harmonic(4), Time::new(25, 12).unwrap());
        assert_eq!(harmonic(10), Time::new(7381, 2520).unwrap());
        let inst = Instance::rigid(4, &[(2, Time::from_int(3)), (4, Time::from_int(1))]).unwrap();
        let b = rigid(&inst, &Scenario::new(vec![1, 2])).unwrap();
        assert_eq!(b.tmax, Time::from_int(6));
        assert_eq!(b.area, Time::from_int(24));
        assert_eq!(b.lower, Time::from_int(6));
    }

    /// The integer-grid bound equals the definition in `Time` on random rigid instances: times
    /// on decimal grids (the integer path), on 2^40 and 3^30 together (no common denominator
    /// below 2^63: the exact path), beyond a word (big times), and with many failures of huge
    /// times (an `i128` overflow: the exact path); A/P and t_max each win.
    #[test]
    fn grid_bound_is_the_definition() {
        use rand::{RngExt, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut paths = [0u32; 2];
        for seed in 0..600u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let procs = rng.random_range(1..=20u32);
            let n = rng.random_range(2..=8);
            let jobs: Vec<(u32, Time)> = (0..n)
                .map(|k| {
                    let t = match seed % 5 {
                        0 => Time::from_int(rng.random_range(1..=50)),
                        1 => Time::new(rng.random_range(1..=5000), 100).unwrap_or_default(),
                        2 if k % 2 == 0 => {
                            Time::new(rng.random_range(1..=1 << 42), 1 << 40).unwrap_or_default()
                        }
                        2 => Time::new(rng.random_range(1..=1 << 50), 205_891_132_094_649)
                            .unwrap_or_default(),
                        3 => {
                            &Time::new(i64::MAX - rng.random_range(0..1000), 7).unwrap_or_default()
                                * &Time::from_int(rng.random_range(1..=1 << 40))
                        }
                        _ if k % 2 == 0 => {
                            Time::new(i64::MAX - rng.random_range(0..1000), 3).unwrap_or_default()
                        }
                        _ => Time::new(1, 1 << 40).unwrap_or_default(),
                    };
                    (rng.random_range(1..=procs), t)
                })
                .collect();
            let inst = Instance::rigid(procs, &jobs).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let f = |rng: &mut ChaCha8Rng| {
                if seed % 5 == 4 {
                    rng.random_range(u32::MAX - 5..=u32::MAX)
                } else {
                    rng.random_range(0..4)
                }
            };
            let sc = Scenario::new((0..n).map(|_| f(&mut rng)).collect());
            let got = rigid(&inst, &sc).unwrap_or_else(|| panic!("seed {seed}"));
            let want = rigid_exact(&inst, &sc).unwrap_or_else(|| panic!("seed {seed}"));
            assert_eq!(got, want, "seed {seed}");
            let grid = common_denominator(&inst, &sc).and_then(|d| on_grid(&inst, &sc, d));
            assert_eq!(grid.is_some(), seed % 5 < 2, "seed {seed}");
            paths[usize::from(got.lower == got.tmax)] += 1;
        }
        // Both terms of the maximum are exercised.
        assert!(paths[0] > 50 && paths[1] > 50, "{paths:?}");
        assert_eq!(common_multiple(1 << 40, 205_891_132_094_649), None);
        assert_eq!(common_multiple(4, 6), Some(12));
        assert_eq!(common_multiple(100, 25), Some(100));
    }
}
