//! The online batch scheduler with failures: Baseline (conservative backfilling, Sections 4.1
//! and 5.1) and node stealing (Section 4.2, Algorithm 1 of Section 7.2.1, Figure 15, 7.2.3).
//!
//! # Event loop
//! At each instant `t` the events are handled in this order (ties matter in exact time):
//! 1. nodes whose downtime ends at `t` come back up;
//! 2. attempts that end at `t` (completions, and victims reaching their stopping point under
//!    T2/T3) — so a job completing at `t` is not killed by a failure at `t`;
//! 3. failures at `t`, one by one (Algorithm 1 for each); with D = 0 the struck nodes are
//!    back at `t` right after;
//! 4. jobs released at `t` enter the queue;
//! 5. the plan is updated: **recomputed from scratch** in priority order after any failure,
//!    node return or stealing decision (Section 5.1: "the whole schedule … has to be
//!    recomputed"; 7.2.1: "the whole schedule is cleared and all jobs are rescheduled, by
//!    decreasing priority"); **compressed** after a completion (each queued job, in order,
//!    removed and re-placed at its earliest slot, so no job is ever delayed — the conservative
//!    backfilling rule of Section 4.1 and of Batsched's `conservative_bf`); otherwise new jobs
//!    are only **inserted** at their earliest slot without moving anyone;
//! 6. queued jobs whose planned start is `t` start, in queue order, each on the lowest free ids.
//!
//! # Priorities (Section 7.2.1)
//! A failed job is resubmitted with priority 3, a victim with priority 2, a regular job has 1.
//! The queue is sorted by decreasing priority, then by submission order (release time, then
//! input position), as Section 4.1 asks for failed jobs ("sorted by non-decreasing arrival
//! time") and FCFS asks for the others.
//!
//! # Algorithm 1 (failure of job F on node n at t)
//! - If some node is free at `t` (up, not allocated, not held), F restarts at once on its
//!   surviving nodes plus the lowest free id (Baseline does the same: Section 4.2, "Baseline and
//!   SFSJ behave exactly the same when a free node is available").
//! - Else Baseline resubmits F with priority 3. A node-stealing variant chooses a victim V among
//!   the running jobs (V1 or V2; jobs already waiting to be stopped are not candidates) and asks
//!   criterion K1/K2/K3; if no victim or a negative answer, F is resubmitted with priority 3.
//!   Otherwise: T1 interrupts V now (V rolls back to its last checkpoint), F restarts at once on
//!   its survivors plus V's lowest node, V is resubmitted with priority 2. T2/T3 keep F's
//!   survivors in a *hold* (the paper's fictitious job of n − 1 nodes) until V's stopping point
//!   (Figure 15), then do the same; if F had no survivor (one node), stealing is cancelled
//!   (7.2.1).
//! - Consecutive failures before the stopping point (7.2.3): a failure on V cancels stealing and
//!   both jobs are resubmitted with priority 3 from their last checkpoints; a failure on the hold
//!   continues stealing with the same victim if V has at least as many nodes as F has lost,
//!   otherwise cancels it and V goes on (a proactive checkpoint already under way completes and
//!   V continues on the same nodes without recovery).
//!
//! # Readings (where the paper leaves a choice; each reproduces Section 3's toy example)
//! - Ties in V1 ("fewest nodes, then latest release") are broken by the latest *submission
//!   order*: with J_1, J_2 both released at 0 on one node, the toy example steals J_2 ("we steal
//!   P_2"). V2 likewise; K2's "released more recently" compares submission order.
//! - The node taken from the victim is its lowest id; survivors keep their ids.
//! - Reservations are counts, ids are given at start (see [`super::plan`]).
//! - K3 ("compute the flow of both jobs based on their walltime in both scenarios") is
//!   estimated with the plan itself: in each scenario the jobs of higher priority are placed and
//!   the completion of F and V read off (V's walltime end when it is not interrupted).
//! - A failure on a node that is already down changes nothing (the node is down).
use super::checkpoint::{young_daly_period, StopPlan, Timeline};
use super::failures::{Failure, FailureSource};
use super::model::{Criterion, Resilience, Timing, Variant, Victim, Workload};
use super::nodes::{NodeBitset, NodeSet};
use super::plan::{Busy, Profile};
use crate::error::{Error, Result};
use crate::time::Time;
use std::collections::BTreeMap;

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
    w.jobs
        .iter()
        .map(|j| {
            let period = res
                .mtbf_ind
                .as_ref()
                .and_then(|m| young_daly_period(m, j.nodes, &res.checkpoint));
            let timeline = Timeline::new(j.run.clone(), period, res.checkpoint.clone());
            let wall_len =
                super::checkpoint::inflate(&j.walltime, timeline.period.as_ref(), &timeline.c);
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

#[derive(Clone, Debug)]
struct Stop {
    at: Time,
    plan: StopPlan,
    /// The pending steal this stop serves; `None` once cancelled.
    steal: Option<usize>,
    /// Cancelled proactive checkpoint: continue on the same nodes at `at`.
    resume: bool,
}

#[derive(Clone, Debug)]
struct Running {
    job: usize,
    index: u32,
    start: Time,
    nodes: NodeSet,
    cause: Cause,
    recovery: Time,
    pos_start: Time,
    planned_end: Time,
    natural_end: Time,
    stop: Option<Stop>,
}

#[derive(Clone, Debug)]
struct Queued {
    job: usize,
    prio: u8,
    cause: Cause,
    recovery: Time,
    pos: Time,
    planned: Option<Time>,
}

#[derive(Clone, Debug)]
struct Pending {
    id: usize,
    failed: usize,
    victim: usize,
    hold: NodeSet,
    hold_start: Time,
    /// Nodes of F lost so far (taken from V at the stopping point).
    lost: u32,
    /// F's restart position.
    commit: Time,
}

struct Sim<'a> {
    variant: Variant,
    n: u32,
    res: &'a Resilience,
    jobs: &'a [JobInfo],
    now: Time,
    free: NodeBitset,
    up: NodeBitset,
    returns: BTreeMap<Time, Vec<u32>>,
    running: Vec<Running>,
    queue: Vec<Queued>,
    pendings: Vec<Pending>,
    next_pending_id: usize,
    attempts_made: Vec<u32>,
    next_release: usize,
    done: usize,
    completion: Vec<Option<Time>>,
    failures: FailureSource,
    out_attempts: Vec<AttemptRecord>,
    out_holds: Vec<HoldRecord>,
    out_failures: Vec<FailureRecord>,
    stats: Stats,
    full: bool,
    compress: bool,
}

/// Simulates `variant` on the workload with the given failures (see the module doc).
pub fn simulate(
    w: &Workload,
    res: &Resilience,
    failures: FailureSource,
    variant: Variant,
) -> Result<Run> {
    res.validate()?;
    let jobs = job_infos(w, res);
    simulate_jobs(w.nodes, jobs, res, failures, variant)
}

/// As [`simulate`], with precomputed [`JobInfo`]s (in submission order).
pub fn simulate_jobs(
    nodes: u32,
    jobs: Vec<JobInfo>,
    res: &Resilience,
    failures: FailureSource,
    variant: Variant,
) -> Result<Run> {
    if let Some((i, j)) = jobs
        .iter()
        .enumerate()
        .find(|(_, j)| j.nodes == 0 || j.nodes > nodes)
    {
        return Err(Error::invalid(
            "workload",
            format!("jobs[{i}] ({}).nodes", j.name),
            format!("job needs {} nodes, the machine has {nodes}", j.nodes),
        ));
    }
    let mut sim = Sim {
        variant,
        n: nodes,
        res,
        jobs: &jobs,
        now: Time::zero(),
        free: NodeBitset::full(nodes),
        up: NodeBitset::full(nodes),
        returns: BTreeMap::new(),
        running: Vec::new(),
        queue: Vec::new(),
        pendings: Vec::new(),
        next_pending_id: 0,
        attempts_made: vec![0; jobs.len()],
        next_release: 0,
        done: 0,
        completion: vec![None; jobs.len()],
        failures,
        out_attempts: Vec::new(),
        out_holds: Vec::new(),
        out_failures: Vec::new(),
        stats: Stats::default(),
        full: false,
        compress: false,
    };
    sim.run()?;
    let completion: Vec<Time> = sim
        .completion
        .iter()
        .map(|c| c.clone().unwrap_or_default())
        .collect();
    let end = completion.iter().cloned().max().unwrap_or_default();
    let Sim {
        out_attempts,
        out_holds,
        out_failures,
        stats,
        ..
    } = sim;
    Ok(Run {
        variant,
        nodes,
        resilience: res.clone(),
        jobs,
        attempts: out_attempts,
        holds: out_holds,
        failures: out_failures,
        completion,
        end,
        stats,
    })
}

impl Sim<'_> {
    fn internal(&self, msg: impl Into<String>) -> Error {
        Error::Scheduler {
            algo: self.variant.to_string(),
            time: self.now.to_string(),
            msg: msg.into(),
        }
    }

    fn run(&mut self) -> Result<()> {
        // Failures faster than jobs can progress would loop forever (a job on many nodes
        // without checkpoints may never complete): give up with an error instead.
        let limit = 1000 * self.jobs.len() + 100_000;
        while self.done < self.jobs.len() {
            if self.out_attempts.len() > limit {
                return Err(Error::Limit(format!(
                    "{}: more than {limit} attempts for {} jobs at time {} ({} unfinished): failures are too \
                     frequent for the jobs to progress (raise the MTBF or enable checkpoints)",
                    self.variant,
                    self.jobs.len(),
                    self.now,
                    self.jobs.len() - self.done
                )));
            }
            let Some(t) = self.next_event() else {
                return Err(self.internal(format!(
                    "no event left with {} jobs unfinished",
                    self.jobs.len() - self.done
                )));
            };
            if t < self.now {
                return Err(self.internal(format!("event at {t} is in the past")));
            }
            self.now = t;
            self.full = false;
            self.compress = false;
            self.node_returns();
            self.attempt_ends()?;
            while self.failures.peek().is_some_and(|f| f.time == self.now)
                && self.done < self.jobs.len()
            {
                let f = self
                    .failures
                    .pop()
                    .ok_or_else(|| self.internal("failure vanished"))?;
                self.on_failure(f)?;
            }
            // A zero downtime returns the struck nodes at this same instant.
            self.node_returns();
            let mut new_jobs = false;
            while self.next_release < self.jobs.len()
                && self.jobs[self.next_release].release == self.now
            {
                let j = self.next_release;
                self.next_release += 1;
                self.enqueue(Queued {
                    job: j,
                    prio: 1,
                    cause: Cause::First,
                    recovery: Time::zero(),
                    pos: Time::zero(),
                    planned: None,
                });
                new_jobs = true;
            }
            if self.full {
                self.replan(false);
                self.stats.replans += 1;
            } else if self.compress || new_jobs {
                self.replan(true);
            }
            self.start_due()?;
        }
        Ok(())
    }

    fn next_event(&mut self) -> Option<Time> {
        let mut best: Option<Time> = None;
        let mut see = |t: &Time| {
            if best.as_ref().is_none_or(|b| t < b) {
                best = Some(t.clone());
            }
        };
        if let Some((t, _)) = self.returns.first_key_value() {
            see(t);
        }
        for r in &self.running {
            match &r.stop {
                Some(s) => see(&s.at),
                None => see(&r.natural_end),
            }
        }
        if self.next_release < self.jobs.len() {
            see(&self.jobs[self.next_release].release);
        }
        for q in &self.queue {
            if let Some(p) = &q.planned {
                see(p);
            }
        }
        if let Some(f) = self.failures.peek() {
            let ft = f.time.clone();
            see(&ft);
        }
        best
    }

    fn node_returns(&mut self) {
        while let Some(entry) = self.returns.first_entry() {
            if *entry.key() != self.now {
                break;
            }
            for n in entry.remove() {
                self.up.insert_range(n, n + 1);
                self.free.insert_range(n, n + 1);
            }
            self.full = true;
        }
    }

    fn enqueue(&mut self, q: Queued) {
        let key = (std::cmp::Reverse(q.prio), q.job);
        let i = self
            .queue
            .partition_point(|x| (std::cmp::Reverse(x.prio), x.job) < key);
        self.queue.insert(i, q);
    }

    fn start_attempt(
        &mut self,
        job: usize,
        nodes: NodeSet,
        cause: Cause,
        recovery: Time,
        pos: Time,
    ) {
        let info = &self.jobs[job];
        self.attempts_made[job] += 1;
        let planned_end = &(&self.now + &recovery) + &(&info.wall_len - &pos);
        let natural_end = &(&self.now + &recovery) + &(&info.timeline.len - &pos);
        self.running.push(Running {
            job,
            index: self.attempts_made[job],
            start: self.now.clone(),
            nodes,
            cause,
            recovery,
            pos_start: pos,
            planned_end,
            natural_end,
            stop: None,
        });
    }

    /// Records the end of a running attempt (removed from `running` by the caller).
    fn record(&mut self, r: &Running, reached: Time, commit: Time, extra: Time, outcome: Outcome) {
        let dur = &self.now - &r.start;
        let recovery_done = if reached > r.pos_start || extra.is_positive() {
            r.recovery.clone()
        } else {
            r.recovery.clone().min(dur)
        };
        self.out_attempts.push(AttemptRecord {
            job: r.job,
            index: r.index,
            start: r.start.clone(),
            end: self.now.clone(),
            nodes: r.nodes.clone(),
            cause: r.cause,
            recovery: r.recovery.clone(),
            recovery_done,
            pos_start: r.pos_start.clone(),
            reached,
            commit,
            extra,
            outcome,
        });
    }

    fn complete(&mut self, r: &Running) {
        let len = self.jobs[r.job].timeline.len.clone();
        self.record(r, len.clone(), len, Time::zero(), Outcome::Completed);
        self.completion[r.job] = Some(self.now.clone());
        self.done += 1;
        self.free.insert_set(&r.nodes);
    }

    fn attempt_ends(&mut self) -> Result<()> {
        let mut idx: Vec<usize> = (0..self.running.len())
            .filter(|&i| {
                let r = &self.running[i];
                match &r.stop {
                    Some(s) => s.at == self.now,
                    None => r.natural_end == self.now,
                }
            })
            .collect();
        if idx.is_empty() {
            return Ok(());
        }
        idx.sort_by_key(|&i| self.running[i].job);
        let jobs: Vec<usize> = idx.iter().map(|&i| self.running[i].job).collect();
        for job in jobs {
            let Some(i) = self.running.iter().position(|r| r.job == job) else {
                continue;
            };
            let r = self.running.swap_remove(i);
            match r.stop.clone() {
                None => {
                    self.complete(&r);
                    self.compress = true;
                }
                Some(stop) if stop.resume => {
                    // Cancelled proactive checkpoint: it completed; continue on the same nodes.
                    self.record(
                        &r,
                        stop.plan.reached.clone(),
                        stop.plan.commit.clone(),
                        stop.plan.extra.clone(),
                        Outcome::Checkpointed,
                    );
                    self.start_attempt(
                        r.job,
                        r.nodes.clone(),
                        Cause::Resume,
                        Time::zero(),
                        stop.plan.commit.clone(),
                    );
                    self.full = true;
                }
                Some(stop) => {
                    let pid = stop
                        .steal
                        .ok_or_else(|| self.internal("stop without steal"))?;
                    let pi = self
                        .pendings
                        .iter()
                        .position(|p| p.id == pid)
                        .ok_or_else(|| self.internal("stop of an unknown pending steal"))?;
                    let p = self.pendings.swap_remove(pi);
                    self.resolve_steal(r, &stop.plan, p)?;
                    self.full = true;
                }
            }
        }
        Ok(())
    }

    /// The victim reaches its stopping point: F gets `lost` of its nodes (the lowest ids).
    fn resolve_steal(&mut self, v: Running, plan: &StopPlan, p: Pending) -> Result<()> {
        if plan.completes {
            self.stats.victims_completed += 1;
            let len = self.jobs[v.job].timeline.len.clone();
            self.record(&v, len.clone(), len, Time::zero(), Outcome::Completed);
            self.completion[v.job] = Some(self.now.clone());
            self.done += 1;
        } else {
            self.record(
                &v,
                plan.reached.clone(),
                plan.commit.clone(),
                plan.extra.clone(),
                Outcome::Stolen { by: p.failed },
            );
            self.enqueue(Queued {
                job: v.job,
                prio: 2,
                cause: Cause::AfterSteal,
                recovery: self.res.recovery.clone(),
                pos: plan.commit.clone(),
                planned: None,
            });
        }
        let (taken, rest) = v
            .nodes
            .split_lowest(p.lost)
            .ok_or_else(|| self.internal("victim has fewer nodes than the failed job lost"))?;
        self.free.insert_set(&rest);
        if p.hold_start < self.now && !p.hold.is_empty() {
            self.out_holds.push(HoldRecord {
                job: p.failed,
                start: p.hold_start.clone(),
                end: self.now.clone(),
                nodes: p.hold.clone(),
            });
        }
        let nodes = p.hold.union(&taken);
        self.start_attempt(
            p.failed,
            nodes,
            Cause::AfterFailure,
            self.res.recovery.clone(),
            p.commit,
        );
        Ok(())
    }

    fn on_failure(&mut self, f: Failure) -> Result<()> {
        self.stats.failures += 1;
        let n = f.node;
        if !self.up.contains(n) {
            self.stats.on_down_node += 1;
            self.out_failures.push(FailureRecord {
                time: f.time,
                node: n,
                effect: Effect::AlreadyDown,
            });
            return Ok(());
        }
        self.up.remove_range(n, n + 1);
        self.returns
            .entry(&self.now + &self.res.downtime)
            .or_default()
            .push(n);
        self.full = true;
        if self.free.contains(n) {
            self.free.remove_range(n, n + 1);
            self.stats.on_idle_node += 1;
            self.out_failures.push(FailureRecord {
                time: f.time,
                node: n,
                effect: Effect::Idle,
            });
            return Ok(());
        }
        self.stats.on_jobs += 1;
        if let Some(pi) = self.pendings.iter().position(|p| p.hold.contains(n)) {
            let effect = self.hold_struck(pi, n)?;
            self.out_failures.push(FailureRecord {
                time: f.time,
                node: n,
                effect,
            });
            return Ok(());
        }
        let Some(ri) = self.running.iter().position(|r| r.nodes.contains(n)) else {
            return Err(self.internal(format!("node {n} is neither free, down, held nor running")));
        };
        let r = self.running.swap_remove(ri);
        let (reached, commit, extra) = self.failure_point(&r);
        self.record(
            &r,
            reached,
            commit.clone(),
            extra,
            Outcome::Failed { node: n },
        );
        let survivors = r.nodes.without(n);
        if let Some(Stop {
            steal: Some(pid), ..
        }) = &r.stop
        {
            // 7.2.3, first case: the pending victim fails; both restart from their checkpoints.
            let pid = *pid;
            let pi = self
                .pendings
                .iter()
                .position(|p| p.id == pid)
                .ok_or_else(|| self.internal("unknown pending"))?;
            let p = self.pendings.swap_remove(pi);
            self.cancel_pending(&p);
            self.free.insert_set(&survivors);
            self.resubmit(r.job, 3, Cause::AfterFailure, commit);
            self.out_failures.push(FailureRecord {
                time: f.time,
                node: n,
                effect: Effect::Victim {
                    job: p.failed,
                    victim: r.job,
                },
            });
            return Ok(());
        }
        let effect = self.algorithm1(r.job, survivors, commit)?;
        self.out_failures.push(FailureRecord {
            time: f.time,
            node: n,
            effect,
        });
        Ok(())
    }

    /// Where a running attempt stands if it is cut now: (reached, kept, proactive time spent).
    fn failure_point(&self, r: &Running) -> (Time, Time, Time) {
        let tl = &self.jobs[r.job].timeline;
        if let Some(s) = &r.stop {
            if s.plan.extra.is_positive() {
                // Inside (or at the start of) the proactive checkpoint: progress is frozen and
                // the checkpoint is not complete, so it saves nothing.
                let ckpt_start = &s.at - &s.plan.extra;
                let spent = if self.now > ckpt_start {
                    &self.now - &ckpt_start
                } else {
                    Time::zero()
                };
                let y = s.plan.reached.clone();
                let kept = tl.commit_floor(&y).max(r.pos_start.clone());
                return (y, kept, spent);
            }
        }
        let (y, kept) = tl.on_failure(&r.pos_start, &r.recovery, &(&self.now - &r.start));
        (y, kept, Time::zero())
    }

    fn resubmit(&mut self, job: usize, prio: u8, cause: Cause, pos: Time) {
        self.enqueue(Queued {
            job,
            prio,
            cause,
            recovery: self.res.recovery.clone(),
            pos,
            planned: None,
        });
    }

    /// Cancels a pending steal: F goes back to the queue (priority 3), its hold is freed.
    fn cancel_pending(&mut self, p: &Pending) {
        self.stats.steals_cancelled += 1;
        self.free.insert_set(&p.hold);
        if p.hold_start < self.now && !p.hold.is_empty() {
            self.out_holds.push(HoldRecord {
                job: p.failed,
                start: p.hold_start.clone(),
                end: self.now.clone(),
                nodes: p.hold.clone(),
            });
        }
        self.resubmit(p.failed, 3, Cause::AfterFailure, p.commit.clone());
    }

    /// 7.2.3, second case: a failure on the held survivors of F.
    fn hold_struck(&mut self, pi: usize, n: u32) -> Result<Effect> {
        let failed = self.pendings[pi].failed;
        let victim = self.pendings[pi].victim;
        // Close the hold segment with the old node set, continue with the smaller one.
        let old = self.pendings[pi].hold.clone();
        if self.pendings[pi].hold_start < self.now {
            self.out_holds.push(HoldRecord {
                job: failed,
                start: self.pendings[pi].hold_start.clone(),
                end: self.now.clone(),
                nodes: old.clone(),
            });
        }
        self.pendings[pi].hold = old.without(n);
        self.pendings[pi].hold_start = self.now.clone();
        self.pendings[pi].lost += 1;
        let vi = self
            .running
            .iter()
            .position(|r| r.job == victim)
            .ok_or_else(|| self.internal("victim not running"))?;
        let enough = self.running[vi].nodes.len() >= self.pendings[pi].lost;
        if enough && !self.pendings[pi].hold.is_empty() {
            return Ok(Effect::Hold {
                job: failed,
                cancelled: false,
            });
        }
        let p = self.pendings.swap_remove(pi);
        // The hold record was just closed at `now`: free what is left of it.
        self.stats.steals_cancelled += 1;
        self.free.insert_set(&p.hold);
        self.resubmit(failed, 3, Cause::AfterFailure, p.commit.clone());
        // The victim goes on: a proactive checkpoint under way completes first.
        let v = &mut self.running[vi];
        let proactive = v.stop.as_ref().is_some_and(|s| s.plan.extra.is_positive());
        if proactive {
            if let Some(s) = v.stop.as_mut() {
                s.steal = None;
                s.resume = true;
            }
        } else {
            v.stop = None;
        }
        Ok(Effect::Hold {
            job: failed,
            cancelled: true,
        })
    }

    /// Algorithm 1 of Section 7.2.1 for job `f` whose attempt just failed.
    fn algorithm1(&mut self, f: usize, survivors: NodeSet, commit: Time) -> Result<Effect> {
        let rec = self.res.recovery.clone();
        if let Some(p) = self.free.lowest() {
            self.free.remove_range(p, p + 1);
            self.stats.free_node_used += 1;
            self.start_attempt(
                f,
                survivors.union(&NodeSet::single(p)),
                Cause::AfterFailure,
                rec,
                commit,
            );
            return Ok(Effect::FreeNode { job: f });
        }
        let Variant::Steal {
            timing,
            victim,
            criterion,
        } = self.variant
        else {
            self.free.insert_set(&survivors);
            self.resubmit(f, 3, Cause::AfterFailure, commit);
            return Ok(Effect::Resubmitted { job: f });
        };
        let Some(vi) = self.choose_victim(victim) else {
            self.stats.steal_refused += 1;
            self.free.insert_set(&survivors);
            self.resubmit(f, 3, Cause::AfterFailure, commit);
            return Ok(Effect::Resubmitted { job: f });
        };
        let v = self.running[vi].job;
        let jobs = self.jobs;
        let tl = &jobs[v].timeline;
        let t_run = &self.now - &self.running[vi].start;
        let plan = match timing {
            Timing::Now => {
                let (y, kept) = tl.on_failure(
                    &self.running[vi].pos_start,
                    &self.running[vi].recovery,
                    &t_run,
                );
                StopPlan {
                    wait: Time::zero(),
                    reached: y,
                    commit: kept,
                    extra: Time::zero(),
                    completes: false,
                }
            }
            Timing::Proactive => tl.proactive_stop(
                &self.running[vi].pos_start,
                &self.running[vi].recovery,
                &t_run,
            ),
            Timing::NextCheckpoint => tl.next_checkpoint_stop(
                &self.running[vi].pos_start,
                &self.running[vi].recovery,
                &t_run,
            ),
        };
        let yes = match criterion {
            Criterion::FewerNodes => self.jobs[v].nodes < self.jobs[f].nodes,
            Criterion::ReleasedLater => v > f,
            Criterion::SmallerMaxFlow => self.k3(f, &survivors, &commit, vi, &plan),
        };
        if !yes {
            self.stats.steal_refused += 1;
            self.free.insert_set(&survivors);
            self.resubmit(f, 3, Cause::AfterFailure, commit);
            return Ok(Effect::Resubmitted { job: f });
        }
        if timing != Timing::Now && survivors.is_empty() {
            // 7.2.1: no fictitious job can be submitted for a failed job without nodes left.
            self.stats.steals_cancelled += 1;
            self.resubmit(f, 3, Cause::AfterFailure, commit);
            return Ok(Effect::NoSurvivor { job: f });
        }
        self.stats.steals += 1;
        let id = self.next_pending_id;
        self.next_pending_id += 1;
        let pending = Pending {
            id,
            failed: f,
            victim: v,
            hold: survivors,
            hold_start: self.now.clone(),
            lost: 1,
            commit,
        };
        if plan.wait.is_positive() {
            self.running[vi].stop = Some(Stop {
                at: &self.now + &plan.wait,
                plan,
                steal: Some(id),
                resume: false,
            });
            self.pendings.push(pending);
        } else {
            let r = self.running.swap_remove(vi);
            self.resolve_steal(r, &plan, pending)?;
        }
        Ok(Effect::Steal { job: f, victim: v })
    }

    /// V1 / V2 among running jobs not already waiting for a stopping point.
    fn choose_victim(&self, rule: Victim) -> Option<usize> {
        let cands = (0..self.running.len()).filter(|&i| self.running[i].stop.is_none());
        match rule {
            // Fewest nodes; ties → latest submission (job index order is submission order).
            Victim::FewestNodes => cands.max_by_key(|&i| {
                let j = self.running[i].job;
                (std::cmp::Reverse(self.jobs[j].nodes), j)
            }),
            // Latest release; ties → fewest nodes; then latest submission.
            Victim::LatestRelease => cands.max_by(|&a, &b| {
                let (ja, jb) = (self.running[a].job, self.running[b].job);
                self.jobs[ja]
                    .release
                    .cmp(&self.jobs[jb].release)
                    .then(self.jobs[jb].nodes.cmp(&self.jobs[ja].nodes))
                    .then(ja.cmp(&jb))
            }),
        }
    }

    /// Occupations known now: down nodes, running attempts (to their walltime or stopping
    /// point), holds and the nodes F will take from its victim. `skip` leaves one job out.
    fn base_busy(&self, skip: Option<usize>) -> Vec<Busy> {
        let mut b =
            Vec::with_capacity(self.returns.len() + self.running.len() + 2 * self.pendings.len());
        for (t, ns) in &self.returns {
            b.push(Busy {
                from: self.now.clone(),
                to: t.clone(),
                count: ns.len() as u32,
            });
        }
        for r in &self.running {
            if Some(r.job) == skip {
                continue;
            }
            let p = r.nodes.len();
            match &r.stop {
                None => b.push(Busy {
                    from: self.now.clone(),
                    to: r.planned_end.clone(),
                    count: p,
                }),
                Some(s) => {
                    b.push(Busy {
                        from: self.now.clone(),
                        to: s.at.clone(),
                        count: p,
                    });
                    if s.resume {
                        let end = &s.at + &(&self.jobs[r.job].wall_len - &s.plan.commit);
                        b.push(Busy {
                            from: s.at.clone(),
                            to: end,
                            count: p,
                        });
                    }
                }
            }
        }
        for p in &self.pendings {
            let Some(v) = self.running.iter().find(|r| r.job == p.victim) else {
                continue;
            };
            let Some(s) = &v.stop else { continue };
            let f_end =
                &(&s.at + &self.res.recovery) + &(&self.jobs[p.failed].wall_len - &p.commit);
            b.push(Busy {
                from: self.now.clone(),
                to: f_end.clone(),
                count: p.hold.len(),
            });
            b.push(Busy {
                from: s.at.clone(),
                to: f_end,
                count: p.lost,
            });
        }
        b
    }

    fn reserve_len(&self, q: &Queued) -> Time {
        &q.recovery + &(&self.jobs[q.job].wall_len - &q.pos)
    }

    /// Section 4.1: full recomputation (`compress == false`) or conservative compression.
    fn replan(&mut self, compress: bool) {
        let mut busy = self.base_busy(None);
        if compress {
            for q in &self.queue {
                if let Some(s) = &q.planned {
                    busy.push(Busy {
                        from: s.clone(),
                        to: s + &self.reserve_len(q),
                        count: self.jobs[q.job].nodes,
                    });
                }
            }
        }
        let mut prof = Profile::new(&self.now, self.n, &busy);
        for k in 0..self.queue.len() {
            let len = self.reserve_len(&self.queue[k]);
            let p = self.jobs[self.queue[k].job].nodes;
            if compress {
                if let Some(s) = self.queue[k].planned.clone() {
                    prof.unreserve(&s, &len, p);
                }
            }
            let s = prof.earliest(p, &len, &self.now);
            prof.reserve(&s, &len, p);
            self.queue[k].planned = Some(s);
        }
    }

    fn start_due(&mut self) -> Result<()> {
        let mut k = 0;
        while k < self.queue.len() {
            if self.queue[k].planned.as_ref() == Some(&self.now) {
                let q = self.queue.remove(k);
                let p = self.jobs[q.job].nodes;
                let nodes = self.free.take_lowest(p).ok_or_else(|| {
                    self.internal(format!(
                        "plan starts job {} on {p} nodes but only {} are free",
                        q.job,
                        self.free.count()
                    ))
                })?;
                self.start_attempt(q.job, nodes, q.cause, q.recovery, q.pos);
            } else {
                k += 1;
            }
        }
        Ok(())
    }

    /// K3: steal iff it gives the smaller estimated max(flow F, flow V) (walltime estimates).
    fn k3(
        &self,
        f: usize,
        survivors: &NodeSet,
        f_commit: &Time,
        vi: usize,
        plan: &StopPlan,
    ) -> bool {
        let v = self.running[vi].job;
        let (jf, jv) = (&self.jobs[f], &self.jobs[v]);
        let rec = &self.res.recovery;
        let f_len = rec + &(&jf.wall_len - f_commit);
        // Scenario "wait": F queued with priority 3, V keeps running to its walltime end.
        let wait_max = {
            let mut prof = Profile::new(&self.now, self.n, &self.base_busy(None));
            for q in self.queue.iter().filter(|q| q.prio == 3 && q.job < f) {
                let len = self.reserve_len(q);
                let s = prof.earliest(self.jobs[q.job].nodes, &len, &self.now);
                prof.reserve(&s, &len, self.jobs[q.job].nodes);
            }
            let s = prof.earliest(jf.nodes, &f_len, &self.now);
            let f_end = &s + &f_len;
            let v_end = self.running[vi].planned_end.clone();
            (&f_end - &jf.release).max(&v_end - &jv.release)
        };
        // Scenario "steal": F restarts at the stopping point, V resubmitted with priority 2.
        let steal_max = {
            let at = &self.now + &plan.wait;
            let f_end = &at + &f_len;
            let mut busy = self.base_busy(Some(v));
            busy.push(Busy {
                from: self.now.clone(),
                to: f_end.clone(),
                count: survivors.len() + 1,
            });
            busy.push(Busy {
                from: self.now.clone(),
                to: at.clone(),
                count: jv.nodes.saturating_sub(1),
            });
            let v_end = if plan.completes {
                at.clone()
            } else {
                let mut prof = Profile::new(&self.now, self.n, &busy);
                for q in self
                    .queue
                    .iter()
                    .filter(|q| q.prio == 3 || (q.prio == 2 && q.job < v))
                {
                    let len = self.reserve_len(q);
                    let s = prof.earliest(self.jobs[q.job].nodes, &len, &self.now);
                    prof.reserve(&s, &len, self.jobs[q.job].nodes);
                }
                let v_len = rec + &(&jv.wall_len - &plan.commit);
                let s = prof.earliest(jv.nodes, &v_len, &at);
                &s + &v_len
            };
            (&f_end - &jf.release).max(&v_end - &jv.release)
        };
        steal_max < wait_max
    }
}
