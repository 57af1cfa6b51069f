//! Processor placement: which processors (ids 0..P) each attempt of a schedule runs on.
//!
//! The papers' schedulers decide processor counts, not identities (identical processors: any
//! `p` free ones will do), so resched's schedules carry counts. Tools of the batch-scheduling
//! world (Batsim's `jobs.csv`, evalys's Gantt charts) need identities. A schedule whose busy
//! count never exceeds P always has a placement (an interval graph colours with as many colours
//! as its largest clique), and [`place`] gives a deterministic one: attempts in (start, job,
//! attempt) order, each ending attempt releasing its processors before a start at the same
//! instant (an attempt occupies [s, s + t)), each start taking the lowest free ids. The
//! checker's invariant 5 then verifies the ids like any other.
use crate::error::{Error, Result};
use crate::model::Schedule;
use crate::time::Time;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// `schedule` with node ids on every attempt (ids given already are kept only when every
/// attempt has them). An error when at some instant more than `procs` processors are busy.
pub fn place(procs: u32, schedule: &Schedule) -> Result<Schedule> {
    if schedule.attempts.iter().all(|a| a.nodes.is_some()) {
        return Ok(schedule.clone());
    }
    let mut out = schedule.clone();
    let at = &schedule.attempts;
    let mut order: Vec<usize> = (0..at.len()).collect();
    order.sort_by(|&x, &y| {
        (&at[x].start, at[x].job, at[x].attempt).cmp(&(&at[y].start, at[y].job, at[y].attempt))
    });
    let mut free: BTreeSet<u32> = (0..procs).collect();
    // (end, attempt index) of the attempts running, earliest end first.
    let mut running: BinaryHeap<Reverse<(Time, usize)>> = BinaryHeap::new();
    for i in order {
        let a = &at[i];
        while running
            .peek()
            .is_some_and(|Reverse((end, _))| *end <= a.start)
        {
            if let Some(Reverse((_, k))) = running.pop() {
                free.extend(out.attempts[k].nodes.iter().flatten().copied());
            }
        }
        if (free.len() as u64) < u64::from(a.procs) {
            return Err(Error::param(
                "schedule",
                format!(
                    "attempts[{i}] (job {}, attempt {}) needs {} processors at time {} but only {} \
                     of {procs} are free: no placement exists",
                    a.job,
                    a.attempt,
                    a.procs,
                    a.start,
                    free.len()
                ),
            ));
        }
        let ids: Vec<u32> = free.iter().take(a.procs as usize).copied().collect();
        for id in &ids {
            free.remove(id);
        }
        out.attempts[i].nodes = Some(ids);
        running.push(Reverse((a.end(), i)));
    }
    Ok(out)
}

/// `0-3 7 9-10`: sorted ids as inclusive ranges, the interval-set notation of Batsim and
/// evalys (`procset`).
pub fn interval_set(ids: &[u32]) -> String {
    let mut v = ids.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < v.len() {
        let mut e = k;
        while e + 1 < v.len() && v[e + 1] == v[e] + 1 {
            e += 1;
        }
        parts.push(if e == k {
            v[k].to_string()
        } else {
            format!("{}-{}", v[k], v[e])
        });
        k = e + 1;
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::schedule::attempt;
    use crate::model::{Instance, Job, Scenario};

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_default()
    }

    #[test]
    fn lowest_free_ids_released_at_the_end_instant() {
        let sch = Schedule {
            attempts: vec![
                attempt(0, 1, "0", 2, "3"),
                attempt(1, 1, "0", 1, "1"),
                attempt(2, 1, "1", 2, "2"),
                attempt(3, 1, "3", 4, "1/2"),
            ],
            ..Schedule::default()
        };
        let p = place(4, &sch).unwrap_or_else(|e| panic!("{e}"));
        let ids: Vec<Vec<u32>> = p
            .attempts
            .iter()
            .map(|a| a.nodes.clone().unwrap_or_default())
            .collect();
        assert_eq!(ids, [vec![0, 1], vec![2], vec![2, 3], vec![0, 1, 2, 3]]);
        let inst = Instance {
            procs: 4,
            jobs: vec![
                Job::rigid("a", 2, t("3")),
                Job::rigid("b", 1, t("1")),
                Job::rigid("c", 2, t("2")),
                Job::rigid("d", 4, t("1/2")),
            ],
        };
        let sc = Scenario {
            failures: vec![0; 4],
        };
        assert_eq!(crate::check::check(&inst, &sc, &p), Ok(t("7/2")));
        assert_eq!(interval_set(&[7, 0, 1, 2, 3, 9, 10]), "0-3 7 9-10");
        assert_eq!(interval_set(&[]), "");
    }

    #[test]
    fn an_overloaded_schedule_has_no_placement() {
        let sch = Schedule {
            attempts: vec![attempt(0, 1, "0", 2, "3"), attempt(1, 1, "1", 2, "1")],
            ..Schedule::default()
        };
        let e = place(3, &sch)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains(
                "attempts[1] (job 1, attempt 1) needs 2 processors at time 1 but only 1 of 3"
            ),
            "{e}"
        );
    }
}
