//! A toy resilient GREEDY simulator: rigid jobs on P processors, integer times, silent errors
//! (job j fails its first f_j attempts). It is the kind of fast implementation resched is an
//! oracle for: the tests in `tests/against_resched.rs` hold it against `resched::oracle::certify`
//! on seeded random cases and check its schedules with `resched::check::check`.
//!
//! The rule (the rigid paper's R-LIST with m = 0, LPT): at time 0 and at every instant at which
//! attempts end, first release every attempt ending then (a failed job goes back into the list
//! at its priority position), then walk the list in priority order (longest time first, ties by
//! job index) and start every job that fits in the free processors.

/// One attempt of a job: 0-based job, 1-based attempt number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub job: usize,
    pub attempt: u32,
    pub start: u64,
    pub procs: u32,
    pub duration: u64,
}

/// A rigid job: its processors and its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    pub procs: u32,
    pub time: u64,
}

/// Runs GREEDY/LPT; `failures[j]` failed attempts of job j come before its successful one.
/// Returns every attempt and the makespan. Jobs wider than `procs` are the caller's error.
pub fn greedy(procs: u32, jobs: &[Job], failures: &[u32]) -> (Vec<Attempt>, u64) {
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(jobs[j].time));
    let rank: Vec<usize> = {
        let mut r = vec![0; jobs.len()];
        for (i, &j) in order.iter().enumerate() {
            r[j] = i;
        }
        r
    };
    let mut waiting: Vec<usize> = order.clone();
    let mut running: Vec<(u64, usize)> = Vec::new();
    let mut made = vec![0u32; jobs.len()];
    let mut free = procs;
    let mut now = 0u64;
    let mut attempts = Vec::new();
    loop {
        waiting.retain(|&j| {
            let fits = jobs[j].procs <= free;
            if fits {
                free -= jobs[j].procs;
                made[j] += 1;
                running.push((now + jobs[j].time, j));
                attempts.push(Attempt {
                    job: j,
                    attempt: made[j],
                    start: now,
                    procs: jobs[j].procs,
                    duration: jobs[j].time,
                });
            }
            !fits
        });
        let Some(next) = running.iter().map(|&(end, _)| end).min() else {
            break;
        };
        now = next;
        running.retain(|&(end, j)| {
            if end != now {
                return true;
            }
            free += jobs[j].procs;
            if made[j] <= failures[j] {
                let at = waiting.partition_point(|&w| rank[w] < rank[j]);
                waiting.insert(at, j);
            }
            false
        });
    }
    (attempts, now)
}
