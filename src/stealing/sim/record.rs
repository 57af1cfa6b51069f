//! What a node-stealing run records (node-stealing paper, Sections 5.3 and 7.2): the per-job
//! data derived from the workload (Eq. (1)–(2)), every attempt with the positions it reached and
//! kept, the holds of T2/T3 (Figure 15), every failure with its effect (Algorithm 1, 7.2.3) and
//! the counters of Tables 5 and 9. The metrics ([`crate::stealing::metrics`]) and the
//! independent checker ([`crate::stealing::check`]) read nothing else.
use crate::stealing::checkpoint::{inflate, young_daly_period, Timeline};
use crate::stealing::model::{Resilience, Variant, Workload};
use crate::stealing::nodes::NodeSet;
use crate::time::Time;
use std::collections::HashMap;

/// Per-job data derived once from the workload and the resilience parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobInfo {
    pub name: String,
    pub release: Time,
    pub nodes: u32,
    /// Run time, Young/Daly period and Eq. (1).
    pub timeline: Timeline,
    /// The raw walltime.
    pub walltime: Time,
    /// Eq. (2): the inflated walltime, the length reserved by the plan.
    pub wall_len: Time,
}

/// Why an attempt starts (decides where its recovery is counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// First execution: no recovery.
    First,
    /// Restart after a failure struck the job (recovery R).
    AfterFailure,
    /// Restart after the job was a victim of node stealing (recovery R: stealing waste).
    AfterSteal,
    /// Continuation after a cancelled proactive checkpoint (same nodes, no recovery).
    Resume,
}

/// How an attempt ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Completed,
    /// A failure struck `node` (one of the attempt's nodes).
    Failed {
        node: u32,
    },
    /// Interrupted by node stealing for job `by`.
    Stolen {
        by: usize,
    },
    /// Stopped after a proactive checkpoint whose stealing was cancelled; continues as `Resume`.
    Checkpointed,
}

/// One execution interval of a job on a fixed set of nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRecord {
    pub job: usize,
    /// 1-based attempt number of the job.
    pub index: u32,
    pub start: Time,
    pub end: Time,
    pub nodes: NodeSet,
    pub cause: Cause,
    /// R_first of the attempt.
    pub recovery: Time,
    /// Recovery actually spent (< `recovery` only when interrupted during it).
    pub recovery_done: Time,
    /// Timeline position at start, reached at the end, and kept for the next attempt.
    pub pos_start: Time,
    pub reached: Time,
    pub commit: Time,
    /// Proactive checkpoint time spent at the end (T2).
    pub extra: Time,
    pub outcome: Outcome,
}

/// The survivors of a failed job held while waiting for a victim's stopping point (T2/T3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldRecord {
    pub job: usize,
    pub start: Time,
    pub end: Time,
    pub nodes: NodeSet,
}

/// What a failure did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The node was already down: nothing.
    AlreadyDown,
    /// The node was idle.
    Idle,
    /// Struck running job `job`, which restarted at once with a free node.
    FreeNode { job: usize },
    /// Struck `job`, resubmitted with priority 3 (Baseline, no victim, or criterion negative).
    Resubmitted { job: usize },
    /// Struck `job`; node stealing from `victim` (at once, or pending under T2/T3).
    Steal { job: usize, victim: usize },
    /// Struck `job` (one node) under T2/T3: no fictitious job possible, stealing cancelled.
    NoSurvivor { job: usize },
    /// Struck a held node of `job` (7.2.3); `cancelled` tells whether stealing was cancelled.
    Hold { job: usize, cancelled: bool },
    /// Struck the pending victim `victim` of `job` (7.2.3): stealing cancelled.
    Victim { job: usize, victim: usize },
}

/// A failure and its effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailureRecord {
    pub time: Time,
    pub node: u32,
    pub effect: Effect,
}

/// Counters in the spirit of Tables 5 and 9.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Failures drawn until the last completion.
    pub failures: usize,
    pub on_down_node: usize,
    pub on_idle_node: usize,
    /// Failures that struck a running job (or a hold / pending victim).
    pub on_jobs: usize,
    /// Failed jobs that restarted at once with a free node ("empty node" of Table 9).
    pub free_node_used: usize,
    /// Node stealing decisions ("node stealing" of Table 9).
    pub steals: usize,
    /// No free node, and no victim or a negative criterion.
    pub steal_refused: usize,
    /// Stealing cancelled by consecutive failures or by a one-node failed job.
    pub steals_cancelled: usize,
    /// Victims that completed before their stopping point (T2/T3).
    pub victims_completed: usize,
    /// Full plan recomputations.
    pub replans: usize,
    /// Events handled: failures, and instants at which the scheduler acted (the budget of
    /// [`crate::stealing::limits::Budget::max_events`]).
    pub events: u64,
    /// Queued jobs whose slot a plan update looked at: every job a full recomputation placed,
    /// every job a compression pass examined (its rise filter included) and every new job
    /// placed. The run time follows this count (see the `stealing` bench's `archive` cases),
    /// and it grows with the backlog, as each plan update goes over the whole queue.
    pub plan_checks: u64,
    /// Queued jobs whose reservation a compression pass moved earlier. It is work the
    /// algorithm itself does, not the simulator: conservative backfilling changes these
    /// reservations, so a simulator that keeps each reservation does at least this much. It
    /// grows with the backlog too (every early completion can let each job behind it start
    /// earlier).
    pub plan_moves: u64,
}

/// A whole simulated run: everything the metrics and the checker need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub variant: Variant,
    pub nodes: u32,
    pub resilience: Resilience,
    pub jobs: Vec<JobInfo>,
    pub attempts: Vec<AttemptRecord>,
    pub holds: Vec<HoldRecord>,
    /// Every failure consumed (up to the last completion), in order.
    pub failures: Vec<FailureRecord>,
    /// Completion time of each job.
    pub completion: Vec<Time>,
    /// The last completion.
    pub end: Time,
    pub stats: Stats,
}

/// Derives [`JobInfo`] (period, Eq. (1)–(2)) for every job.
pub fn job_infos(w: &Workload, res: &Resilience) -> Vec<JobInfo> {
    // The period depends on the node count only, and costs a big-integer square root: once
    // per count (one root per job would be a visible share of a run on an archive trace of
    // hundreds of thousands of jobs).
    let mut periods: HashMap<u32, Option<Time>> = HashMap::new();
    w.jobs
        .iter()
        .map(|j| {
            let period = periods
                .entry(j.nodes)
                .or_insert_with(|| {
                    res.mtbf_ind
                        .as_ref()
                        .and_then(|m| young_daly_period(m, j.nodes, &res.checkpoint))
                })
                .clone();
            let timeline = Timeline::new(j.run.clone(), period, res.checkpoint.clone());
            let wall_len = inflate(&j.walltime, timeline.period.as_ref(), &timeline.c);
            JobInfo {
                name: j.name.clone(),
                release: j.release.clone(),
                nodes: j.nodes,
                timeline,
                walltime: j.walltime.clone(),
                wall_len,
            }
        })
        .collect()
}
