//! An independent conservative backfilling for the tests, written from Batsched's
//! `ConservativeBackfilling::make_decisions` (oar-team/batsched, `batsched/src/algo/conservative_bf.cpp`)
//! and sharing no code with `src/stealing`: jobs with integer release, node count, run time and
//! walltime, no failures, a free-node profile rebuilt from a list of occupations at every
//! decision, plain scans (O(n) per question, O(n²) per pass).
//!
//! At each instant where something happens (a job ends, jobs arrive, a reservation begins):
//! 1. the jobs that end leave (their reservation to the walltime end goes with them);
//! 2. the jobs released now join the end of the queue (FCFS);
//! 3. if a job ended, or jobs arrived and `pass_at_arrivals` is set, every queued job, in queue
//!    order, is taken out of the profile and put back at its earliest slot (first fit); else
//!    the new jobs alone are put at their earliest slot, the others staying where they are;
//! 4. the queued jobs whose reservation begins now start.
//!
//! `pass_at_arrivals: false` is Batsched's rule; `true` is the rule resched ran before it.

/// A job as the reference reads it (seconds).
#[derive(Clone, Copy, Debug)]
pub struct Job {
    pub release: i64,
    pub nodes: u32,
    pub run: i64,
    pub wall: i64,
}

/// Free nodes as a step function from the decision instant on: `(t_i, free_i)` holds on
/// `[t_i, t_{i+1})`, the last step forever.
struct Profile {
    steps: Vec<(i64, i64)>,
}

impl Profile {
    fn new(now: i64, nodes: u32) -> Profile {
        Profile {
            steps: vec![(now, i64::from(nodes))],
        }
    }

    /// The index of the step that begins at `t`, made if needed (`t` ≥ the first instant).
    fn split(&mut self, t: i64) -> usize {
        let i = self.steps.partition_point(|s| s.0 <= t) - 1;
        if self.steps[i].0 == t {
            return i;
        }
        let free = self.steps[i].1;
        self.steps.insert(i + 1, (t, free));
        i + 1
    }

    /// Adds `d` free nodes on `[from, to)` (clipped to the profile's start).
    fn add(&mut self, from: i64, to: i64, d: i64) {
        let from = from.max(self.steps[0].0);
        if to <= from {
            return;
        }
        let a = self.split(from);
        let b = self.split(to);
        for s in &mut self.steps[a..b] {
            s.1 += d;
        }
    }

    /// The earliest instant from which `p` nodes stay free for `len`.
    fn earliest(&self, p: u32, len: i64) -> i64 {
        let p = i64::from(p);
        let mut i = 0;
        'candidates: while i < self.steps.len() {
            if self.steps[i].1 < p {
                i += 1;
                continue;
            }
            let start = self.steps[i].0;
            let mut j = i + 1;
            while j < self.steps.len() && self.steps[j].0 < start + len {
                if self.steps[j].1 < p {
                    i = j + 1;
                    continue 'candidates;
                }
                j += 1;
            }
            return start;
        }
        unreachable!("the last step has every node free once every job has ended")
    }
}

/// The start time of every job under the rule of the module doc, on `nodes` nodes.
pub fn starts(nodes: u32, jobs: &[Job], pass_at_arrivals: bool) -> Vec<i64> {
    let mut start: Vec<Option<i64>> = vec![None; jobs.len()];
    // Queued jobs in FCFS order, each with its reservation (None until placed).
    let mut queue: Vec<(usize, Option<i64>)> = Vec::new();
    let mut running: Vec<usize> = Vec::new();
    let mut next = 0;
    let end = |j: usize, s: i64| s + jobs[j].run.min(jobs[j].wall);
    while next < jobs.len() || !queue.is_empty() || !running.is_empty() {
        let mut now = i64::MAX;
        if next < jobs.len() {
            now = now.min(jobs[next].release);
        }
        for &j in &running {
            now = now.min(end(j, start[j].unwrap()));
        }
        for &(_, r) in &queue {
            now = now.min(r.unwrap());
        }
        let before = running.len();
        running.retain(|&j| end(j, start[j].unwrap()) != now);
        let ended = running.len() < before;
        let first_new = queue.len();
        while next < jobs.len() && jobs[next].release == now {
            queue.push((next, None));
            next += 1;
        }
        let arrived = queue.len() > first_new;
        // The profile of the running jobs (to their walltime end) and of every reservation.
        let mut prof = Profile::new(now, nodes);
        for &j in &running {
            let s = start[j].unwrap();
            prof.add(s, s + jobs[j].wall, -i64::from(jobs[j].nodes));
        }
        for &(j, r) in &queue {
            if let Some(s) = r {
                prof.add(s, s + jobs[j].wall, -i64::from(jobs[j].nodes));
            }
        }
        let from = if ended || (arrived && pass_at_arrivals) {
            0
        } else {
            first_new
        };
        for (j, r) in &mut queue[from..] {
            let (p, len) = (jobs[*j].nodes, jobs[*j].wall);
            if let Some(s) = *r {
                prof.add(s, s + len, i64::from(p));
            }
            let s = prof.earliest(p, len);
            prof.add(s, s + len, -i64::from(p));
            *r = Some(s);
        }
        let mut used: i64 = running.iter().map(|&j| i64::from(jobs[j].nodes)).sum();
        queue.retain(|&(j, r)| {
            if r != Some(now) {
                return true;
            }
            start[j] = Some(now);
            running.push(j);
            used += i64::from(jobs[j].nodes);
            false
        });
        assert!(used <= i64::from(nodes), "{used} nodes in use at {now}");
    }
    start.into_iter().map(|s| s.unwrap()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(release: i64, nodes: u32, run: i64, wall: i64) -> Job {
        Job {
            release,
            nodes,
            run,
            wall,
        }
    }

    /// The hand-derived scenario of the parent module's `the_two_rules_differ_by_hand`.
    #[test]
    fn the_reference_gives_the_hand_derived_starts() {
        let jobs = [
            job(0, 1, 10, 100),
            job(0, 1, 20, 20),
            job(1, 2, 30, 30),
            job(2, 1, 50, 50),
            job(15, 2, 10, 10),
        ];
        assert_eq!(starts(2, &jobs, false), vec![0, 0, 70, 10, 60]);
        assert_eq!(starts(2, &jobs, true), vec![0, 0, 60, 10, 90]);
    }

    #[test]
    fn a_short_job_backfills_without_delaying_the_head() {
        // 2 nodes: J0 on 1 node to 10; J1 needs 2 nodes (reserved at 10); J2 (1 node, 10)
        // fits before it, J3 (1 node, 11) does not and goes after J1.
        let jobs = [
            job(0, 1, 10, 10),
            job(1, 2, 5, 5),
            job(2, 1, 8, 8),
            job(3, 1, 11, 11),
        ];
        assert_eq!(starts(2, &jobs, false), vec![0, 10, 2, 15]);
    }
}
