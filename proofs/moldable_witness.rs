//! The witness constructions of the moldable paper (Section 4): Theorem 1's tight roofline
//! pair, Theorem 10's concave job, Theorem 12's BATCH-LIST instance — each with the explicit
//! schedule the proof gives for the optimum, so the ledger can certify OPT.
//!
//! Jobs are written as exact tables (`SpeedupModel::Table`, marked monotonic where the proof's
//! job is), so the witness does not depend on how a model's formula is evaluated; the tables
//! are the formulas of the proofs evaluated exactly.
use super::Witness;
use resched::error::{Error, Result};
use resched::model::{Job, Profile, Scenario, Schedule, SpeedupModel};
use resched::time::Time;

fn table_job(name: String, times: Vec<Time>, monotonic: bool) -> Job {
    Job {
        name,
        profile: Profile::Moldable {
            model: SpeedupModel::Table {
                times: times.clone(),
                monotonic,
            },
            times,
        },
    }
}

use super::witness_support::{att, inst};

/// The roofline table t(p) = w / min(p, p̄) for p = 1..=P.
pub fn roofline_table(procs: u32, w: &Time, pbar: u32) -> Vec<Time> {
    (1..=procs)
        // unreachable: p ≥ 1 and p̄ ≥ 1, the divisor is nonzero
        .map(|p| w.div_int(u64::from(p.min(pbar))).unwrap_or_default())
        .collect()
}

/// Theorem 1 (Section 4.3.1), tightness: P = 2K, two roofline jobs with w = p̄ = K + 1, no
/// failure. LPA allocates p̄ = K + 1 (α = β = 1), so the jobs run one after the other:
/// makespan 2. The optimum gives K processors to each, in parallel: 1 + 1/K. Ratio
/// 2 − 2/(K+1).
pub fn thm1(k: u32) -> Result<(Witness, Schedule)> {
    if k == 0 {
        return Err(Error::param("k", "K must be at least 1"));
    }
    let procs = 2 * k;
    let w = Time::from_int(i64::from(k) + 1);
    let table = roofline_table(procs, &w, k + 1);
    let jobs = vec![
        table_job("J1".into(), table.clone(), true),
        table_job("J2".into(), table.clone(), true),
    ];
    let instance = inst(procs, jobs)?;
    let tk = table[k as usize - 1].clone();
    let opt = Schedule {
        attempts: vec![
            att(0, 1, Time::zero(), k, tk.clone()),
            att(1, 1, Time::zero(), k, tk),
        ],
        ..Default::default()
    };
    let claim = format!(
        "LPA-LIST makespan 2; OPT = 1 + 1/K = {}",
        // unreachable: K ≥ 2 by the entry's parameter range, the denominator is nonzero
        &Time::one() + &Time::ratio_u64(1, u64::from(k)).unwrap_or_default()
    );
    Ok((
        Witness {
            instance,
            scenario: Scenario::none(2),
            claim,
        },
        opt.with_makespan(),
    ))
}

/// Theorem 10's job (Section 4.3.6): P = s² with s ≥ 2, concave speedup through σ(1) = 1,
/// σ(s) = 2, σ(P) = s, t(1) = 1:
/// t(p) = (s−1)/(p+s−2) for p ≤ s, t(p) = (P−s)/(p(s−2)+P) for p > s.
pub fn thm10_table(s: u32) -> Result<Vec<Time>> {
    if s < 2 {
        return Err(Error::param("s", "s = √P must be at least 2"));
    }
    let (s64, big_p) = (i64::from(s), i64::from(s) * i64::from(s));
    (1..=big_p)
        .map(|p| {
            let t = if p <= s64 {
                Time::new(s64 - 1, p + s64 - 2)
            } else {
                Time::new(big_p - s64, p * (s64 - 2) + big_p)
            };
            t.ok_or_else(|| Error::Limit("Theorem 10 table".into()))
        })
        .collect()
}

/// Theorem 10's instance for an allocation `p` chosen locally for the job: one job if p ≤ √P
/// (OPT = t(P) = 1/√P on P processors), else P identical jobs (OPT = 1: one processor each).
/// Returns the witness and the proof's optimal schedule.
pub fn thm10(s: u32, local_alloc: u32) -> Result<(Witness, Schedule)> {
    let table = thm10_table(s)?;
    let procs = s * s;
    let n = if local_alloc <= s { 1 } else { procs as usize };
    let jobs: Vec<Job> = (0..n)
        .map(|j| table_job(format!("J{}", j + 1), table.clone(), true))
        .collect();
    let instance = inst(procs, jobs)?;
    let attempts = if n == 1 {
        vec![att(
            0,
            1,
            Time::zero(),
            procs,
            table[procs as usize - 1].clone(),
        )]
    } else {
        (0..n)
            .map(|j| att(j, 1, Time::zero(), 1, table[0].clone()))
            .collect()
    };
    let claim = format!(
        "local allocation p = {local_alloc}: {} job(s); ALG ≥ √P/2 · OPT = {}·OPT",
        n,
        // unreachable: the divisor is the literal 2
        Time::ratio_u64(u64::from(s), 2).unwrap_or_default()
    );
    Ok((
        Witness {
            instance,
            scenario: Scenario::none(n),
            claim,
        },
        Schedule {
            attempts,
            ..Default::default()
        }
        .with_makespan(),
    ))
}

/// Theorem 12 (Section 4.5): K jobs, t_j = 1/2^j whatever the processor count (no speedup,
/// so one processor is best: same time, least area), f_j = 2^(j−1) − 1, on P = K processors.
/// Each job alone on its processor takes 2^(j−1)·2^(−j) = 1/2 = OPT (= L).
/// The proof: BATCH-LIST needs K batches and takes at least 1/2 + (K−2)/4 = K/4.
pub fn thm12(k: u32) -> Result<(Witness, Schedule)> {
    if !(2..=12).contains(&k) {
        return Err(Error::param(
            "k",
            format!("K={k}: Theorem 12's witness is built for K in 2..=12"),
        ));
    }
    let procs = k;
    let mut jobs = Vec::new();
    let mut failures = Vec::new();
    let mut attempts = Vec::new();
    for j in 1..=k {
        // unreachable: the denominator is a power of two
        let t = Time::ratio_u64(1, 1u64 << j).unwrap_or_default();
        jobs.push(table_job(
            format!("J{j}"),
            vec![t.clone(); procs as usize],
            true,
        ));
        let n_att = 1u32 << (j - 1);
        failures.push(n_att - 1);
        for a in 1..=n_att {
            attempts.push(att(
                j as usize - 1,
                a,
                t.mul_int(u64::from(a) - 1),
                1,
                t.clone(),
            ));
        }
    }
    let instance = inst(procs, jobs)?;
    let claim = format!(
        "BATCH-LIST takes K = {k} batches and ≥ K/4 = {}; OPT = 1/2",
        // unreachable: the divisor is the literal 4
        Time::ratio_u64(u64::from(k), 4).unwrap_or_default()
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

/// Section 4.7's example (P = 4, J3 and J4 fail once); OPT = 10 (Figure 3, bottom).
pub fn section47() -> Result<Witness> {
    let t = |v: &str| v.parse::<Time>().map_err(|e| Error::Limit(format!("{e}")));
    let rows = [
        ["11", "7", "5", "4"],
        ["10", "9.8", "9.6", "9.5"],
        ["4", "3", "3", "2.5"],
        ["3", "2", "1.7", "1.4"],
    ];
    let mut jobs = Vec::new();
    for (j, r) in rows.iter().enumerate() {
        let times = r.iter().map(|v| t(v)).collect::<Result<Vec<_>>>()?;
        jobs.push(table_job(format!("J{}", j + 1), times, false));
    }
    Ok(Witness {
        instance: inst(4, jobs)?,
        scenario: Scenario::new(vec![0, 0, 1, 1]),
        claim: "LPA-LIST 13, BATCH-LIST 13, OPT 10".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::check::check;
    use resched::model::speedup::check_monotonic;

    #[test]
    fn witnesses_and_their_optimal_schedules() {
        for k in 1..=6 {
            let (w, s) = thm1(k).unwrap();
            let opt = &Time::one() + &Time::ratio_u64(1, u64::from(k)).unwrap();
            assert_eq!(check(&w.instance, &w.scenario, &s), Ok(opt));
        }
        for s in 2..=5 {
            let table = thm10_table(s).unwrap();
            check_monotonic(&table, "t").unwrap();
            assert_eq!(table[0], Time::one());
            assert_eq!(table[s as usize - 1], Time::new(1, 2).unwrap(), "σ(√P) = 2");
            assert_eq!(
                table[(s * s) as usize - 1],
                Time::new(1, i64::from(s)).unwrap(),
                "σ(P) = √P"
            );
            for alloc in [1, s, s + 1] {
                let (w, sch) = thm10(s, alloc).unwrap();
                let m = check(&w.instance, &w.scenario, &sch).unwrap();
                assert_eq!(
                    m,
                    if alloc <= s {
                        Time::new(1, i64::from(s)).unwrap()
                    } else {
                        Time::one()
                    }
                );
            }
        }
        for k in 2..=8 {
            let (w, s) = thm12(k).unwrap();
            assert_eq!(
                check(&w.instance, &w.scenario, &s),
                Ok(Time::new(1, 2).unwrap())
            );
        }
        let w = section47().unwrap();
        assert_eq!(
            w.instance.jobs[3].time(3),
            Some(&Time::new(17, 10).unwrap())
        );
    }
}
