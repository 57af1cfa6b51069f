//! The invariant checker: decides whether a schedule is a feasible execution of an instance
//! under a failure scenario. It knows nothing of any algorithm, so it can judge any of them and
//! schedules made by other programs.
//!
//! Invariants (rigid paper Section 3; moldable paper Section 3.2):
//! 1. every attempt names an existing job, uses a processor count the job allows, and lasts
//!    exactly t_j(p) for that count;
//! 2. job j has exactly f_j + 1 attempts, numbered 1..=f_j+1 in start order (the last one is
//!    the successful one);
//! 3. attempts of one job never overlap: s^(i+1) ≥ s^(i) + t^(i);
//! 4. at every instant at most P processors are busy (an attempt occupies [s, s + t));
//! 5. node ids, where given, are distinct within an attempt, below P, and never shared by two
//!    attempts that overlap in time.
pub mod reference;
pub mod tolerant;

use crate::model::{Instance, Scenario, Schedule};
use crate::time::Time;

pub use crate::violation::Violation;

/// Checks every invariant; returns the makespan of a feasible schedule.
pub fn check(inst: &Instance, scenario: &Scenario, schedule: &Schedule) -> Result<Time, Violation> {
    let n = inst.jobs.len();
    let name = |j: usize| inst.jobs[j].name.clone();
    let mut per_job: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, a) in schedule.attempts.iter().enumerate() {
        if a.job >= n {
            return Err(Violation::UnknownJob {
                attempt_index: i,
                job: a.job,
            });
        }
        let job = &inst.jobs[a.job];
        if a.start.is_negative() {
            return Err(Violation::NegativeStart {
                index: i,
                job: name(a.job),
                attempt: a.attempt,
                start: a.start.clone(),
            });
        }
        let Some(t) = job.time(a.procs) else {
            return Err(Violation::ProcsNotAllowed {
                index: i,
                job: name(a.job),
                attempt: a.attempt,
                procs: a.procs,
            });
        };
        if *t != a.duration {
            return Err(Violation::WrongDuration {
                index: i,
                job: name(a.job),
                attempt: a.attempt,
                expected: t.clone(),
                found: a.duration.clone(),
            });
        }
        per_job[a.job].push(i);
    }
    if scenario.failures.len() != n {
        return Err(Violation::ScenarioLength {
            jobs: n,
            failures: scenario.failures.len(),
        });
    }
    for (j, (idx, &f)) in per_job.iter_mut().zip(&scenario.failures).enumerate() {
        let expected = f.saturating_add(1);
        if idx.len() as u64 != u64::from(expected) {
            return Err(Violation::AttemptCount {
                job: name(j),
                expected,
                found: idx.len() as u32,
            });
        }
        let at = &schedule.attempts;
        idx.sort_by(|&x, &y| {
            at[x]
                .start
                .cmp(&at[y].start)
                .then(at[x].attempt.cmp(&at[y].attempt))
        });
        for (pos, &i) in idx.iter().enumerate() {
            if at[i].attempt != pos as u32 + 1 {
                return Err(Violation::AttemptNumbering {
                    index: i,
                    job: name(j),
                    position: pos as u32 + 1,
                    found: at[i].attempt,
                });
            }
            if pos > 0 {
                let prev_end = at[idx[pos - 1]].end();
                if at[i].start < prev_end {
                    return Err(Violation::Overlap {
                        index: i,
                        job: name(j),
                        attempt: at[i].attempt,
                        start: at[i].start.clone(),
                        previous_end: prev_end,
                    });
                }
            }
        }
    }
    check_capacity(inst.procs, schedule)?;
    check_nodes(inst, schedule)?;
    Ok(schedule.makespan())
}

/// Sweep over start/end events; at equal instants ends come first (an attempt occupies [s, e)).
fn check_capacity(procs: u32, schedule: &Schedule) -> Result<(), Violation> {
    let mut events: Vec<(Time, bool, u32, usize)> = Vec::with_capacity(2 * schedule.attempts.len());
    for (i, a) in schedule.attempts.iter().enumerate() {
        if a.duration.is_zero() {
            continue;
        }
        events.push((a.start.clone(), true, a.procs, i));
        events.push((a.end(), false, a.procs, i));
    }
    // false (end) sorts before true (start) at the same instant.
    events.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
    let mut used: u64 = 0;
    for (t, is_start, p, index) in events {
        if is_start {
            used += u64::from(p);
            if used > u64::from(procs) {
                return Err(Violation::Capacity {
                    index,
                    time: t,
                    used,
                    capacity: procs,
                });
            }
        } else {
            used -= u64::from(p);
        }
    }
    Ok(())
}

fn check_nodes(inst: &Instance, schedule: &Schedule) -> Result<(), Violation> {
    let mut by_node: Vec<Vec<(Time, Time, usize)>> = Vec::new();
    for (i, a) in schedule.attempts.iter().enumerate() {
        let Some(nodes) = &a.nodes else { continue };
        let bad = |msg: String| Violation::BadNodes {
            index: i,
            job: inst.jobs[a.job].name.clone(),
            attempt: a.attempt,
            msg,
        };
        if nodes.len() != a.procs as usize {
            return Err(bad(format!(
                "{} node ids for {} processors",
                nodes.len(),
                a.procs
            )));
        }
        let mut sorted = nodes.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(bad(format!("node {} listed twice", w[0])));
        }
        if let Some(&v) = sorted.last().filter(|&&v| v >= inst.procs) {
            return Err(bad(format!("node {v} ≥ P = {}", inst.procs)));
        }
        if by_node.is_empty() {
            by_node = vec![Vec::new(); inst.procs as usize];
        }
        for &v in nodes {
            by_node[v as usize].push((a.start.clone(), a.end(), i));
        }
    }
    let label = |i: usize| {
        let a = &schedule.attempts[i];
        format!(
            "attempts[{i}] (job {} attempt {})",
            inst.jobs[a.job].name, a.attempt
        )
    };
    for (v, ivs) in by_node.iter_mut().enumerate() {
        ivs.sort();
        for w in ivs.windows(2) {
            if w[1].0 < w[0].1 {
                return Err(Violation::NodeShared {
                    node: v as u32,
                    time: w[1].0.clone(),
                    first: label(w[0].2),
                    second: label(w[1].2),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Attempt;

    fn t(n: i64) -> Time {
        Time::from_int(n)
    }

    fn att(job: usize, attempt: u32, start: i64, procs: u32, dur: i64) -> Attempt {
        Attempt {
            job,
            attempt,
            start: t(start),
            procs,
            duration: t(dur),
            nodes: None,
        }
    }

    #[test]
    fn each_invariant_is_caught() {
        let inst = Instance::rigid(3, &[(2, t(2)), (2, t(3))]).unwrap();
        let sc = Scenario::new(vec![1, 0]);
        let ok = Schedule {
            attempts: vec![att(0, 1, 0, 2, 2), att(1, 1, 4, 2, 3), att(0, 2, 2, 2, 2)],
            ..Default::default()
        };
        assert_eq!(check(&inst, &sc, &ok), Ok(t(7)));
        let mut s = ok.clone();
        s.attempts[2].start = t(1);
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::Overlap { .. })
        ));
        let mut s = ok.clone();
        s.attempts[1].start = t(1);
        assert!(
            matches!(check(&inst, &sc, &s), Err(Violation::Capacity { .. })),
            "{:?}",
            check(&inst, &sc, &s)
        );
        let mut s = ok.clone();
        s.attempts.pop();
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::AttemptCount { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].duration = t(1);
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::WrongDuration { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].procs = 1;
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::ProcsNotAllowed { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].attempt = 2;
        s.attempts[2].attempt = 1;
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::AttemptNumbering { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].job = 7;
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::UnknownJob { .. })
        ));
        let _ = ok;
        let inst = Instance::rigid(3, &[(1, t(2)), (1, t(2))]).unwrap();
        let mut s = Schedule {
            attempts: vec![att(0, 1, 0, 1, 2), att(1, 1, 1, 1, 2)],
            ..Default::default()
        };
        s.attempts[0].nodes = Some(vec![0]);
        s.attempts[1].nodes = Some(vec![0]);
        assert!(matches!(
            check(&inst, &Scenario::none(2), &s),
            Err(Violation::NodeShared { node: 0, .. })
        ));
        s.attempts[1].nodes = Some(vec![3]);
        assert!(matches!(
            check(&inst, &Scenario::none(2), &s),
            Err(Violation::BadNodes { .. })
        ));
        s.attempts[1].nodes = Some(vec![1]);
        assert!(check(&inst, &Scenario::none(2), &s).is_ok());
    }

    #[test]
    fn back_to_back_is_allowed() {
        let inst = Instance::rigid(2, &[(2, t(1)), (2, t(1))]).unwrap();
        let s = Schedule {
            attempts: vec![att(0, 1, 0, 2, 1), att(1, 1, 1, 2, 1)],
            ..Default::default()
        };
        assert_eq!(check(&inst, &Scenario::none(2), &s), Ok(t(2)));
    }
}
