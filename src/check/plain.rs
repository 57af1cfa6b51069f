//! The checker written plainly (every end recomputed, one sorted list of start and end events,
//! a vector per job), kept for the unit tests only: the module's checker must return the same
//! result as this one — the same makespan, or the same violation with the same fields — on
//! every schedule, so that making it fast changed nothing a user sees.
use crate::model::{Instance, Scenario, Schedule};
use crate::time::Time;

use super::Violation;

pub(super) fn check(
    inst: &Instance,
    scenario: &Scenario,
    schedule: &Schedule,
) -> Result<Time, Violation> {
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
