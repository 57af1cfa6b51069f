//! The incumbent every exact method starts from: a tiny greedy list schedule on the integer
//! model, with the failure scenario known (offline), so the optimum can never be worse.
//!
//! It is the rigid paper's GREEDY idea (Section 4.1, R-LIST with m = 0) run offline: at each
//! event (time 0 or the end of an attempt), the idle jobs with attempts left are taken in
//! priority order and started when they fit. Several priority rules are tried and the best
//! schedule is kept. It lives here, not in `schedulers`, so that `opt` depends on no other
//! helper's code.
use super::problem::{Int, IntProblem};

/// One attempt of a schedule on the integer model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntAttempt {
    pub job: usize,
    /// 1-based.
    pub attempt: u32,
    pub procs: u32,
    pub start: Int,
    pub dur: Int,
}

/// A complete schedule on the integer model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntSchedule {
    pub attempts: Vec<IntAttempt>,
    pub makespan: Int,
}

/// Priority rules tried for the incumbent.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Longest remaining chain (rem · min duration) first.
    LongestChain,
    /// Largest remaining area first.
    LargestArea,
    /// Most processors first.
    WidestFirst,
}

/// How a moldable attempt picks its processor count among the options that fit now.
#[derive(Debug, Clone, Copy)]
enum Pick {
    /// The fitting option with the shortest duration.
    Fastest,
    /// The fitting option with the smallest area.
    Leanest,
}

/// The best of the greedy list schedules over all rules.
pub fn best(prob: &IntProblem) -> IntSchedule {
    let mut best: Option<IntSchedule> = None;
    for rule in [Rule::LongestChain, Rule::LargestArea, Rule::WidestFirst] {
        for pick in [Pick::Fastest, Pick::Leanest] {
            let s = list(prob, rule, pick);
            if best.as_ref().is_none_or(|b| s.makespan < b.makespan) {
                best = Some(s);
            }
        }
    }
    // default: the best of no candidate is the empty selection
    best.unwrap_or_default()
}

fn list(prob: &IntProblem, rule: Rule, pick: Pick) -> IntSchedule {
    let n = prob.jobs.len();
    let cap = Int::from(prob.procs);
    let mut rem: Vec<u32> = prob.jobs.iter().map(|j| j.attempts).collect();
    let mut end = vec![0 as Int; n];
    let mut run_p = vec![0 as Int; n];
    let mut out = IntSchedule::default();
    let key = |j: usize, rem: u32| -> (Int, usize) {
        let job = &prob.jobs[j];
        let k = match rule {
            Rule::LongestChain => Int::from(rem) * job.min_dur,
            Rule::LargestArea => Int::from(rem) * job.min_area,
            Rule::WidestFirst => Int::from(job.min_procs),
        };
        (-k, j)
    };
    let mut t: Int = 0;
    loop {
        let used: Int = (0..n).filter(|&j| end[j] > t).map(|j| run_p[j]).sum();
        let mut free = cap - used;
        let mut ready: Vec<usize> = (0..n).filter(|&j| rem[j] > 0 && end[j] <= t).collect();
        ready.sort_by_key(|&j| key(j, rem[j]));
        for j in ready {
            let opts = prob.jobs[j]
                .options
                .iter()
                .filter(|o| Int::from(o.procs) <= free);
            let chosen = match pick {
                Pick::Fastest => opts.min_by_key(|o| (o.dur, o.procs)),
                Pick::Leanest => opts.min_by_key(|o| (o.dur * Int::from(o.procs), o.dur)),
            };
            if let Some(o) = chosen {
                let attempt = prob.jobs[j].attempts - rem[j] + 1;
                out.attempts.push(IntAttempt {
                    job: j,
                    attempt,
                    procs: o.procs,
                    start: t,
                    dur: o.dur,
                });
                rem[j] -= 1;
                end[j] = t + o.dur;
                run_p[j] = Int::from(o.procs);
                free -= Int::from(o.procs);
            }
        }
        // Next event: the earliest end after t. Nothing running means everything is done,
        // because with no attempt running every job fits (p ≤ P).
        match (0..n).filter(|&j| end[j] > t).map(|j| end[j]).min() {
            Some(next) => t = next,
            None => break,
        }
    }
    // default: the makespan of no job is 0
    out.makespan = end.iter().copied().max().unwrap_or(0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Instance, Scenario};
    use crate::Time;

    #[test]
    fn greedy_is_feasible_and_complete() {
        let inst = Instance::rigid(
            4,
            &[
                (3, Time::from_int(2)),
                (2, Time::from_int(3)),
                (1, Time::from_int(1)),
            ],
        )
        .unwrap();
        let sc = Scenario::new(vec![1, 0, 2]);
        let p = super::super::problem::build(&inst, &sc).unwrap();
        let s = best(&p);
        assert_eq!(s.attempts.len(), 6);
        let sched = super::super::to_schedule(&inst, &p, &s, "greedy");
        assert_eq!(
            crate::check::check(&inst, &sc, &sched).unwrap(),
            p.to_time(s.makespan)
        );
    }
}
