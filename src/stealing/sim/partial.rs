//! A run stopped before every job completed (a long run that is stopped must still leave a
//! result): the schedule of the jobs completed by the instant the simulation reached, as a
//! [`Run`] of the sub-workload of those jobs, so that the metrics and the independent checker
//! read it as they read a whole run.
//!
//! Why a sub-workload: the event loop is causal — nothing after the instant reached changes
//! what happened up to it — so the attempts and holds of a job completed by then are exactly
//! those of the whole run (`tests/stealing_stop.rs` checks it). A queued or running job has no
//! completion yet; its attempts so far (failed, stolen) are left out with it, and the node time
//! they used counts as idle in the decomposition: the partial metrics describe the completed
//! jobs only, and say so wherever they are printed.
//!
//! Numbering: in [`Partial::run`], `AttemptRecord::job`, `HoldRecord::job` and the flows index
//! the completed jobs (`run.jobs[i]` is job [`Partial::completed`]`[i]` of the workload); the
//! job named inside a failure's [`super::Effect`] or an [`super::Outcome::Stolen`] keeps its
//! index in the whole workload, because that job may not have completed.
use super::record::{AttemptRecord, HoldRecord, Run};
use super::Sim;
use crate::error::{Error, Result};
use crate::stealing::model::Workload;
use crate::time::Time;

/// What a simulation with a progress callback ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every job completed.
    Complete(Run),
    /// The callback asked to stop first.
    Stopped(Partial),
}

impl Ending {
    /// The whole run; an error naming the stop if the run was stopped (a caller whose callback
    /// never stops cannot meet it).
    pub fn complete(self) -> Result<Run> {
        match self {
            Ending::Complete(r) => Ok(r),
            Ending::Stopped(p) => Err(Error::Limit(format!(
                "{}: the simulation was stopped at time {} with {} of {} jobs completed",
                p.run.variant,
                p.reached.to_decimal_string(3),
                p.completed.len(),
                p.jobs
            ))),
        }
    }
}

/// The jobs completed when a run was stopped, and their schedule (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    /// The instant the simulation had reached: every event up to it, and none after, is done.
    pub reached: Time,
    /// Jobs of the whole workload.
    pub jobs: usize,
    /// Indices in the workload of the completed jobs, increasing (submission order).
    pub completed: Vec<usize>,
    /// Jobs released but not completed (queued or running) at `reached`.
    pub unfinished: usize,
    /// Jobs not yet released at `reached`.
    pub unreleased: usize,
    /// The schedule of the completed jobs: every attempt and hold of theirs, every failure up
    /// to `reached`; `end` is the last completion (not `reached`); `stats` count up to `reached`.
    pub run: Run,
}

impl Partial {
    /// The workload of the completed jobs, in the numbering of [`Partial::run`]: what
    /// [`crate::stealing::check::check`] takes beside the partial run.
    pub fn workload(&self, w: &Workload) -> Workload {
        Workload {
            nodes: w.nodes,
            jobs: self
                .completed
                .iter()
                .filter_map(|&j| w.jobs.get(j).cloned())
                .collect(),
        }
    }
}

impl Sim<'_> {
    /// The records of a stopped run, restricted to the jobs completed so far.
    pub(super) fn into_partial(self) -> Result<Partial> {
        let completed: Vec<usize> = (0..self.jobs.len())
            .filter(|&j| self.completion[j].is_some())
            .collect();
        // New index of each completed job (None: not completed).
        let mut renum: Vec<Option<usize>> = vec![None; self.jobs.len()];
        for (i, &j) in completed.iter().enumerate() {
            renum[j] = Some(i);
        }
        let attempts: Vec<AttemptRecord> = self
            .out_attempts
            .iter()
            .filter_map(|a| {
                Some(AttemptRecord {
                    job: renum[a.job]?,
                    ..a.clone()
                })
            })
            .collect();
        let holds: Vec<HoldRecord> = self
            .out_holds
            .iter()
            .filter_map(|h| {
                Some(HoldRecord {
                    job: renum[h.job]?,
                    ..h.clone()
                })
            })
            .collect();
        let completion: Vec<Time> = completed
            .iter()
            .filter_map(|&j| self.completion[j].clone())
            .collect();
        // default: a stop before any completion has no last completion; 0 marks an empty run
        let end = completion.iter().max().cloned().unwrap_or_default();
        let released = self.next_release;
        let unfinished = released
            .checked_sub(completed.len())
            .ok_or_else(|| self.internal("more jobs completed than released"))?;
        let run = Run {
            variant: self.variant,
            nodes: self.n,
            resilience: self.res.clone(),
            jobs: completed.iter().map(|&j| self.jobs[j].clone()).collect(),
            attempts,
            holds,
            failures: self.out_failures,
            completion,
            end,
            stats: self.stats,
        };
        Ok(Partial {
            reached: self.now,
            jobs: self.jobs.len(),
            unfinished,
            unreleased: self.jobs.len() - released,
            completed,
            run,
        })
    }
}
