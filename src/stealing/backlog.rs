//! How many jobs wait in a run's queue as its trace goes on: the backlog that the run time of
//! conservative backfilling follows. Every plan update of the node-stealing
//! paper's Section 4.1 goes over the whole queue, and an early completion can move each queued
//! reservation, so a run's work per job is proportional to the jobs waiting, not to the trace's
//! length. On a platform whose offered load, failures and checkpoints included, exceeds its
//! capacity the queue grows without bound and so does the work per job (the `stealing` bench's
//! `saturated` and `archive` cases); these counts let a user see that from a run's own report.
//!
//! A job waits from its release to the start of its first attempt; jobs queued again after a
//! failure are not counted (their count stays small: one per failure on a job, at most).
use super::sim::Run;
use crate::time::Time;

/// The jobs waiting at two instants of a run's submissions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backlog {
    /// Jobs waiting at the release of the median job (in release order).
    pub at_median: usize,
    /// Jobs waiting at the last release.
    pub at_last: usize,
}

/// The number of jobs of `run` released at or before each instant of `at` whose first attempt
/// had not started by then (a job released and started at the same instant is not waiting).
pub fn waiting_at(run: &Run, at: &[Time]) -> Vec<usize> {
    waiting(run, &sorted_releases(run), at)
}

/// [`waiting_at`] with the releases already sorted (by [`sorted_releases`]).
fn waiting(run: &Run, releases: &[&Time], at: &[Time]) -> Vec<usize> {
    // Attempts are recorded in start order per job, the first one with index 1.
    let mut starts: Vec<&Time> = run
        .attempts
        .iter()
        .filter(|a| a.index == 1)
        .map(|a| &a.start)
        .collect();
    starts.sort_unstable();
    at.iter()
        .map(|t| {
            let released = releases.partition_point(|r| *r <= t);
            let started = starts.partition_point(|s| *s <= t);
            // Every job starts at or after its release, so no more have started than were
            // released by `t`.
            released.saturating_sub(started)
        })
        .collect()
}

/// The backlog at the median and at the last release of `run` (`None` for a run of no job).
pub fn backlog(run: &Run) -> Option<Backlog> {
    let releases = sorted_releases(run);
    let median = (*releases.get((releases.len().max(1) - 1) / 2)?).clone();
    let last = (*releases.last()?).clone();
    match waiting(run, &releases, &[median, last])[..] {
        [at_median, at_last] => Some(Backlog { at_median, at_last }),
        _ => None,
    }
}

/// The release times of `run`'s jobs, in order.
fn sorted_releases(run: &Run) -> Vec<&Time> {
    let mut releases: Vec<&Time> = run.jobs.iter().map(|j| &j.release).collect();
    releases.sort_unstable();
    releases
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stealing::examples::toy_resilience;
    use crate::stealing::{simulate, BatchJob, FailureSource, Variant, Workload};

    /// One node, five jobs of length 10 released at 0, 1, 2, 3 and 4 and no failure: they
    /// start at 0, 10, 20, 30 and 40, one after the other.
    fn chain() -> Run {
        let jobs = (0..5)
            .map(|i| BatchJob {
                name: format!("J{i}"),
                release: Time::from_int(i),
                nodes: 1,
                run: Time::from_int(10),
                walltime: Time::from_int(10),
            })
            .collect();
        let w = Workload { nodes: 1, jobs };
        simulate(
            &w,
            &toy_resilience(),
            FailureSource::None,
            Variant::Baseline,
        )
        .expect("a one-node chain simulates")
    }

    #[test]
    fn counts_the_jobs_released_and_not_started() {
        let run = chain();
        let starts: Vec<Time> = run.attempts.iter().map(|a| a.start.clone()).collect();
        assert_eq!(starts, [0, 10, 20, 30, 40].map(Time::from_int));
        let at = [0, 2, 4, 10, 39, 40, 50].map(Time::from_int);
        // At 0 the first job is released and starts; at 10 the second starts (3 wait).
        assert_eq!(waiting_at(&run, &at), [0, 2, 4, 3, 1, 0, 0]);
        // The median release is job 2's (t = 2), the last job 4's (t = 4).
        assert_eq!(
            backlog(&run),
            Some(Backlog {
                at_median: 2,
                at_last: 4
            })
        );
    }
}
