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
pub fn rigid(inst: &Instance, scenario: &Scenario) -> Option<RigidBound> {
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
}
