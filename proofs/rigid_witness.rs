//! The witness constructions of the rigid paper (Section 4.4), and the classical tight instance
//! of list scheduling, each with the explicit schedule its proof describes for the optimum.
//!
//! Each builder returns the instance, the scenario and a schedule that the invariant checker
//! accepts; the schedule's makespan is an upper bound on OPT that the ledger uses to certify the
//! ratio the proof claims.
use super::Witness;
use resched::error::{Error, Result};
use resched::model::{Job, Scenario, Schedule};
use resched::time::Time;

use super::witness_support::{att, inst};

/// Proposition 3 (Section 4.4): P unit-processor jobs, t_j = 1/j, f_j = j − 1.
///
/// Every shelf-based schedule needs a shelf of height t_i for each i (job J_i's i-th attempt
/// can only start after the shelf holding its (i−1)-th ends), so its makespan is at least
/// H_P = Σ 1/i; R-SHELF achieves exactly H_P. The optimum runs job j alone on processor j,
/// its j attempts back to back: makespan j·(1/j) = 1 = L(f), so OPT = 1.
pub fn prop3(procs: u32) -> Result<(Witness, Schedule)> {
    if procs == 0 {
        return Err(Error::param("procs", "P must be at least 1"));
    }
    let jobs: Vec<Job> = (1..=procs)
        .map(|j| {
            // unreachable: j ≥ 1, the denominator is nonzero
            let t = Time::ratio_u64(1, u64::from(j)).unwrap_or_default();
            Job::rigid(format!("J{j}"), 1, t)
        })
        .collect();
    let instance = inst(procs, jobs)?;
    let scenario = Scenario::new((0..procs).collect());
    let mut attempts = Vec::new();
    for j in 1..=procs {
        // unreachable: j ≥ 1, the denominator is nonzero
        let t = Time::ratio_u64(1, u64::from(j)).unwrap_or_default();
        for i in 1..=j {
            attempts.push(att(
                j as usize - 1,
                i,
                t.mul_int(u64::from(i) - 1),
                1,
                t.clone(),
            ));
        }
    }
    let claim = format!(
        "every shelf-based schedule ≥ H_P = {}; OPT = 1",
        resched::bounds::harmonic(procs)
    );
    Ok((
        Witness {
            instance,
            scenario,
            claim,
        },
        Schedule {
            attempts,
            ..Default::default()
        }
        .with_makespan(),
    ))
}

/// Proposition 4 (Section 4.4): P sets of unit-processor jobs. Set i (1 ≤ i ≤ P) has one
/// "large" job of time 1/P^(i−1) that fails P^(i−1) − 1 times (its attempts add up to 1) and
/// (P−1)·P^(i−1) "small" jobs of time (1+ε)/P^i that never fail.
///
/// R-SHELFFILL with LPT handles the sets one after the other and each set costs 1: makespan P.
/// The optimum (as the proof describes it) runs set i on processor i: the large job's chain
/// during [0, 1), then the set's small jobs: makespan 1 + (P−1)(1+ε)/P < 2.
///
/// The instance has P^P + P − 1 jobs; `procs` is limited to 2..=6 (46 661 jobs at P = 6).
pub fn prop4(procs: u32, eps: &Time) -> Result<(Witness, Schedule)> {
    if !(2..=6).contains(&procs) {
        return Err(Error::param(
            "procs",
            format!("P={procs}: Proposition 4's witness is built for P in 2..=6"),
        ));
    }
    if !eps.is_positive() || *eps >= Time::one() {
        return Err(Error::param(
            "eps",
            format!("eps={eps}: must lie in (0, 1)"),
        ));
    }
    let p = u64::from(procs);
    let one_eps = &Time::one() + eps;
    let mut jobs = Vec::new();
    let mut failures = Vec::new();
    let mut attempts = Vec::new();
    for i in 1..=procs {
        let pi1 = p.pow(i - 1); // P^(i-1)
                                // unreachable: P^(i−1) ≥ 1, the denominator is nonzero
        let large_t = Time::ratio_u64(1, pi1).unwrap_or_default();
        // unreachable: P^i ≥ 1, the divisor is nonzero
        let small_t = one_eps.div_int(pi1 * p).unwrap_or_default();
        let large = jobs.len();
        jobs.push(Job::rigid(format!("S{i}L"), 1, large_t.clone()));
        failures.push(u32::try_from(pi1 - 1).map_err(|_| Error::Limit("P^(P-1) failures".into()))?);
        for k in 1..=pi1 {
            attempts.push(att(
                large,
                k as u32,
                large_t.mul_int(k - 1),
                1,
                large_t.clone(),
            ));
        }
        for s in 0..(p - 1) * pi1 {
            let idx = jobs.len();
            jobs.push(Job::rigid(format!("S{i}s{}", s + 1), 1, small_t.clone()));
            failures.push(0);
            attempts.push(att(
                idx,
                1,
                &Time::one() + &small_t.mul_int(s),
                1,
                small_t.clone(),
            ));
        }
    }
    let instance = inst(procs, jobs)?;
    let scenario = Scenario::new(failures);
    // unreachable: P ≥ 2 by the entry's parameter range, the divisor is nonzero
    let opt_upper = &Time::one() + &one_eps.mul_int(p - 1).div_int(p).unwrap_or_default();
    let claim = format!(
        "R-SHELFFILL with LPT has makespan P = {procs}; OPT ≤ 1 + (P−1)(1+ε)/P = {opt_upper} < 2"
    );
    Ok((
        Witness {
            instance,
            scenario,
            claim,
        },
        Schedule {
            attempts,
            ..Default::default()
        }
        .with_makespan(),
    ))
}

/// The classical tight instance of list scheduling (Graham; the rigid paper's references
/// [44, 18, 17] for 2 − 1/P), here with a failing job — not a construction of the paper, but it
/// shows Proposition 2's bound is attained *exactly* under failures.
///
/// P(P−1) unit jobs (p = 1, t = 1, no failure) come first, and last a unit-processor job of
/// time 1 that fails P − 1 times (a chain of P unit attempts). All jobs are identical to every
/// priority rule that looks at p_j and t_j (LPT, SPT, HPA, LPA, LA, SA, LJF), so ties put the
/// failing job last: GREEDY runs the units on all P processors during [0, P−1), then the chain
/// alone during [P−1, 2P−1). The optimum runs the chain on processor 1 and the units on the
/// other P − 1 processors: makespan P = L(f). Ratio (2P − 1)/P = 2 − 1/P.
pub fn graham(procs: u32) -> Result<(Witness, Schedule)> {
    if procs < 2 {
        return Err(Error::param("procs", "P must be at least 2"));
    }
    let p = procs;
    let units = (p * (p - 1)) as usize;
    let mut jobs: Vec<Job> = (0..units)
        .map(|k| Job::rigid(format!("U{}", k + 1), 1, Time::one()))
        .collect();
    jobs.push(Job::rigid("C", 1, Time::one()));
    let mut failures = vec![0u32; units];
    failures.push(p - 1);
    let mut attempts = Vec::new();
    for k in 0..units {
        // Processors 2..=P, P time units each.
        attempts.push(att(
            k,
            1,
            Time::from_int((k as i64) / i64::from(p - 1)),
            1,
            Time::one(),
        ));
    }
    for i in 0..p {
        attempts.push(att(
            units,
            i + 1,
            Time::from_int(i64::from(i)),
            1,
            Time::one(),
        ));
    }
    let instance = inst(procs, jobs)?;
    let claim = format!(
        "GREEDY (any non-random priority) = 2P − 1 = {}; OPT = P = {p}",
        2 * p - 1
    );
    Ok((
        Witness {
            instance,
            scenario: Scenario::new(failures),
            claim,
        },
        Schedule {
            attempts,
            ..Default::default()
        }
        .with_makespan(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::check::check;

    #[test]
    fn optimal_schedules_are_feasible_and_meet_the_proofs() {
        for p in 1..=8 {
            let (w, s) = prop3(p).unwrap();
            assert_eq!(
                check(&w.instance, &w.scenario, &s),
                Ok(Time::one()),
                "P = {p}"
            );
            assert_eq!(
                resched::bounds::rigid(&w.instance, &w.scenario)
                    .unwrap()
                    .lower,
                Time::one()
            );
        }
        for p in 2..=4 {
            let eps = Time::new(1, 10).unwrap();
            let (w, s) = prop4(p, &eps).unwrap();
            let m = check(&w.instance, &w.scenario, &s).unwrap();
            let expect = &Time::one()
                + &(&Time::one() + &eps)
                    .mul_int(u64::from(p) - 1)
                    .div_int(u64::from(p))
                    .unwrap();
            assert_eq!(m, expect, "P = {p}");
            assert!(m < Time::from_int(2));
            assert_eq!(
                w.instance.len() as u64,
                u64::from(p).pow(p) + u64::from(p) - 1
            );
        }
        for p in 2..=6 {
            let (w, s) = graham(p).unwrap();
            assert_eq!(
                check(&w.instance, &w.scenario, &s),
                Ok(Time::from_int(i64::from(p)))
            );
            assert_eq!(
                resched::bounds::rigid(&w.instance, &w.scenario)
                    .unwrap()
                    .lower,
                Time::from_int(i64::from(p))
            );
        }
        assert!(prop4(7, &Time::new(1, 10).unwrap()).is_err());
        assert!(prop4(3, &Time::one()).is_err());
    }
}
