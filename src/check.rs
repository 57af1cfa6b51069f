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
use crate::model::{Instance, Scenario, Schedule};
use crate::time::Time;
use std::fmt;

/// The first broken invariant found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    UnknownJob {
        attempt_index: usize,
        job: usize,
    },
    NegativeStart {
        job: String,
        attempt: u32,
        start: Time,
    },
    ProcsNotAllowed {
        job: String,
        attempt: u32,
        procs: u32,
    },
    WrongDuration {
        job: String,
        attempt: u32,
        expected: Time,
        found: Time,
    },
    AttemptCount {
        job: String,
        expected: u32,
        found: u32,
    },
    AttemptNumbering {
        job: String,
        position: u32,
        found: u32,
    },
    Overlap {
        job: String,
        attempt: u32,
        start: Time,
        previous_end: Time,
    },
    Capacity {
        time: Time,
        used: u64,
        capacity: u32,
    },
    BadNodes {
        job: String,
        attempt: u32,
        msg: String,
    },
    NodeShared {
        node: u32,
        time: Time,
        first: String,
        second: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Violation::*;
        match self {
            UnknownJob { attempt_index, job } => {
                write!(f, "[job exists] attempts[{attempt_index}] names job {job}, which the instance does not have")
            }
            NegativeStart { job, attempt, start } => {
                write!(f, "[start ≥ 0] job {job} attempt {attempt} starts at {start}")
            }
            ProcsNotAllowed { job, attempt, procs } => {
                write!(f, "[allowed processors] job {job} attempt {attempt} uses {procs} processors, which the job cannot run on")
            }
            WrongDuration { job, attempt, expected, found } => {
                write!(f, "[duration = t_j(p)] job {job} attempt {attempt} lasts {found}, expected {expected}")
            }
            AttemptCount { job, expected, found } => {
                write!(f, "[f_j + 1 attempts] job {job} has {found} attempts, expected {expected}")
            }
            AttemptNumbering { job, position, found } => {
                write!(f, "[attempts in order] job {job}: attempt number {found} is its attempt #{position} by start time")
            }
            Overlap { job, attempt, start, previous_end } => write!(
                f,
                "[no overlap] job {job} attempt {attempt} starts at {start}, before its previous attempt ends at {previous_end}"
            ),
            Capacity { time, used, capacity } => {
                write!(f, "[capacity] {used} processors busy at time {time}, only {capacity} exist")
            }
            BadNodes { job, attempt, msg } => write!(f, "[node ids] job {job} attempt {attempt}: {msg}"),
            NodeShared { node, time, first, second } => {
                write!(f, "[node exclusive] node {node} is used by {first} and {second} at time {time}")
            }
        }
    }
}

impl std::error::Error for Violation {}

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
                job: name(a.job),
                attempt: a.attempt,
                start: a.start.clone(),
            });
        }
        let Some(t) = job.time(a.procs) else {
            return Err(Violation::ProcsNotAllowed {
                job: name(a.job),
                attempt: a.attempt,
                procs: a.procs,
            });
        };
        if *t != a.duration {
            return Err(Violation::WrongDuration {
                job: name(a.job),
                attempt: a.attempt,
                expected: t.clone(),
                found: a.duration.clone(),
            });
        }
        per_job[a.job].push(i);
    }
    for (j, idx) in per_job.iter_mut().enumerate() {
        let expected = scenario.failures.get(j).copied().unwrap_or(0) + 1;
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
                    job: name(j),
                    position: pos as u32 + 1,
                    found: at[i].attempt,
                });
            }
            if pos > 0 {
                let prev_end = at[idx[pos - 1]].end();
                if at[i].start < prev_end {
                    return Err(Violation::Overlap {
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
    let mut events: Vec<(Time, bool, u32)> = Vec::with_capacity(2 * schedule.attempts.len());
    for a in &schedule.attempts {
        if a.duration.is_zero() {
            continue;
        }
        events.push((a.start.clone(), true, a.procs));
        events.push((a.end(), false, a.procs));
    }
    // false (end) sorts before true (start) at the same instant.
    events.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
    let mut used: u64 = 0;
    for (t, is_start, p) in events {
        if is_start {
            used += u64::from(p);
            if used > u64::from(procs) {
                return Err(Violation::Capacity {
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
        format!("job {} attempt {}", inst.jobs[a.job].name, a.attempt)
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
