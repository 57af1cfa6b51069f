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
//!    are **inserted** at their earliest slot, every other reservation staying where it is
//!    (Batsched's rule, [`Compression::Completions`]), or, under the reading
//!    [`Compression::CompletionsAndArrivals`], in a compression pass (which moves a job only
//!    when a previous pass left it room to start earlier). The plan is kept between events and
//!    the work is skipped where it cannot change a start (see `planning`);
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
//!
//! # Files
//! - [`record`]: what a run records (attempts, holds, failures, counters) and Eq. (1)–(2) per job;
//! - this file: the state and the event loop above;
//! - `attempts`: attempts starting, ending, completing, and victims reaching their stopping point;
//! - `failure`: a failure striking a node, and the consecutive failures of 7.2.3;
//! - `algorithm1`: Algorithm 1 (free node, victim choice, timing, criterion);
//! - `k3`: criterion K3's two estimated scenarios;
//! - `planning`: the conservative-backfilling plan of the queue (Section 4.1).
//! - `partial`: what a run stopped by its progress callback leaves (the completed jobs).
use super::checkpoint::StopPlan;
use super::failures::FailureSource;
use super::limits::{self, Budget};
use super::model::{Resilience, Variant, Workload};
use super::nodes::{NodeBitset, NodeSet};
use super::plan::{Profile, Queue as PlanQueue};
#[cfg(doc)]
use super::readings::Compression;
use super::readings::Readings;
use crate::error::{Error, Result};
use crate::time::Time;
use due::{DueStarts, Order};
use running::RunningSet;
use std::cmp::Reverse;
use std::collections::{BTreeMap, VecDeque};
use std::ops::ControlFlow;

mod algorithm1;
mod attempts;
mod due;
mod failure;
mod k3;
mod partial;
mod planning;
pub mod record;
mod running;

pub use partial::{Ending, Partial};

pub use record::{
    job_infos, AttemptRecord, Cause, Effect, FailureRecord, HoldRecord, JobInfo, Outcome, Run,
    Stats,
};

/// Events between two progress reports of [`simulate_reporting`].
pub const PROGRESS_EVERY: u64 = 1024;

/// Where a running victim stops under T2/T3 (or where a cancelled proactive checkpoint ends).
#[derive(Clone, Debug)]
struct Stop {
    at: Time,
    plan: StopPlan,
    /// The pending steal this stop serves; `None` once cancelled.
    steal: Option<usize>,
    /// Cancelled proactive checkpoint: continue on the same nodes at `at`.
    resume: bool,
}

/// A running attempt.
#[derive(Clone, Debug)]
struct Running {
    job: usize,
    index: u32,
    start: Time,
    nodes: NodeSet,
    cause: Cause,
    recovery: Time,
    pos_start: Time,
    /// End of the walltime reservation (what the plan assumes).
    planned_end: Time,
    /// End of the actual timeline (when the job completes if nothing stops it).
    natural_end: Time,
    stop: Option<Stop>,
}

/// A queued job with its priority (3 failed, 2 victim, 1 regular) and planned start.
#[derive(Clone, Debug)]
struct Queued {
    job: usize,
    /// The job's node count, kept here: every compression pass reads it for every queued job,
    /// and reading it from the job table would be a large share of a run's cache misses.
    nodes: u32,
    prio: u8,
    cause: Cause,
    recovery: Time,
    pos: Time,
    /// What it reserves: `recovery` and the rest of its inflated walltime from `pos`, computed
    /// once (every compression pass reads it for every queued job).
    len: Time,
    planned: Option<Time>,
}

impl Queued {
    /// Its place in the queue, which is ordered by decreasing priority, then submission
    /// order ([`Sim::enqueue`]).
    fn order(&self) -> Order {
        (Reverse(self.prio), self.job)
    }
}

/// The index in `queue` of the job of order `o`, if it is queued.
fn position(queue: &VecDeque<Box<Queued>>, o: Order) -> Option<usize> {
    let k = queue.partition_point(|x| x.order() < o);
    queue.get(k).filter(|q| q.job == o.1).map(|_| k)
}

/// Whether the job of order `o` is queued with planned start `t` (an entry of [`DueStarts`]
/// that is not stale).
fn is_current(queue: &VecDeque<Box<Queued>>, t: &Time, o: Order) -> bool {
    position(queue, o).is_some_and(|k| queue[k].planned.as_ref() == Some(t))
}

/// Every queued job's planned start, with its order, for [`DueStarts`].
fn planned_starts(queue: &VecDeque<Box<Queued>>) -> impl Iterator<Item = (Time, Order)> + '_ {
    queue
        .iter()
        .filter_map(|q| Some((q.planned.clone()?, q.order())))
}

/// A steal decided under T2/T3, waiting for the victim's stopping point.
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

/// The simulation state.
struct Sim<'a> {
    variant: Variant,
    /// The readings of [`crate::stealing::readings`] this run uses.
    readings: Readings,
    n: u32,
    res: &'a Resilience,
    jobs: &'a [JobInfo],
    now: Time,
    free: NodeBitset,
    up: NodeBitset,
    returns: BTreeMap<Time, Vec<u32>>,
    running: RunningSet,
    /// Boxed: a job that starts is taken out of the middle of a queue of thousands, and the
    /// jobs on the shorter side of it move by one place, each a pointer instead of a value.
    queue: VecDeque<Box<Queued>>,
    /// The sum of the queued jobs' `len`, kept as jobs are queued and taken (the horizon of
    /// the down nodes adds it at every full recomputation, over a queue of thousands).
    queued_len: Time,
    /// The queued jobs' planned starts ([`due`]), kept as starts are given
    /// ([`Sim::set_planned`]) and taken ([`Sim::start_due`]): neither the next event nor the
    /// start of a job goes over the queue.
    due: DueStarts,
    /// Queued jobs with no planned start yet: a compression pass with nothing raised stops
    /// once it has placed them.
    unplanned: usize,
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
    /// A full replan is due at the end of this instant.
    full: bool,
    /// A compression is due at the end of this instant.
    compress: bool,
    /// The plan (free nodes from the last planning instant on, with every queued job's
    /// reservation), kept between events; see [`planning`].
    plan: Profile,
    /// What occupies nodes besides the queue (the base of `plan`), kept as `plan` is.
    base_plan: Profile,
    /// The queue's node counts, lengths and planned starts in the plan's ticks, for the
    /// planning passes, compression and full recomputation ([`crate::stealing::plan::Queue`]):
    /// every insertion and removal of `queue` is mirrored there.
    plan_queue: PlanQueue,
    /// Where the free counts of `plan` rose since it was last *settled* (no queued job could
    /// start earlier), as the hull `[from, to)` of those intervals; `None`: settled. A queued
    /// job can only move into a window that meets it (see `Sim::replan_pass`).
    raised: Option<(Time, Time)>,
    /// `plan` is what a full recomputation on `base_plan` gives (see `Sim::replan_full`).
    greedy: bool,
    /// Walltime ends and node counts of the attempts completed at this instant, whose unused
    /// reservation the next compression gives back.
    freed: Vec<(Time, u32)>,
    budget: Budget,
}

/// Simulates `variant` on the workload with the given failures (see the module doc), within
/// the default budget of [`Budget::for_jobs`].
pub fn simulate(
    w: &Workload,
    res: &Resilience,
    failures: FailureSource,
    variant: Variant,
) -> Result<Run> {
    simulate_within(w, res, failures, variant, Budget::for_jobs(w.jobs.len()))
}

/// As [`simulate`], ending with [`Error::Limit`] when the run needs more events or attempts
/// than `budget` allows.
pub fn simulate_within(
    w: &Workload,
    res: &Resilience,
    failures: FailureSource,
    variant: Variant,
    budget: Budget,
) -> Result<Run> {
    simulate_reporting(w, res, failures, variant, budget, &mut |_, _| {
        ControlFlow::Continue(())
    })
    .and_then(Ending::complete)
}

/// As [`simulate_within`], calling `progress(completed jobs, jobs)` every
/// [`PROGRESS_EVERY`] events (for a progress line on long traces). When it returns
/// `ControlFlow::Break`, the run stops there and ends with what the jobs completed so far did
/// ([`Ending::Stopped`], a [`Partial`]): how `resched steal` stops on a signal or `--max-wall`.
pub fn simulate_reporting(
    w: &Workload,
    res: &Resilience,
    failures: FailureSource,
    variant: Variant,
    budget: Budget,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<Ending> {
    let r = Readings::default();
    simulate_read_reporting(w, res, failures, variant, r, budget, progress)
}

/// As [`simulate`], under the given readings of the paper ([`Readings`]) instead of the
/// defaults.
pub fn simulate_read(
    w: &Workload,
    res: &Resilience,
    failures: FailureSource,
    variant: Variant,
    readings: Readings,
) -> Result<Run> {
    let budget = Budget::for_jobs(w.jobs.len());
    let mut go_on = |_, _| ControlFlow::Continue(());
    simulate_read_reporting(w, res, failures, variant, readings, budget, &mut go_on)
        .and_then(Ending::complete)
}

/// As [`simulate_reporting`], under the given readings ([`Readings`]).
pub fn simulate_read_reporting(
    w: &Workload,
    res: &Resilience,
    failures: FailureSource,
    variant: Variant,
    readings: Readings,
    budget: Budget,
    progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
) -> Result<Ending> {
    res.validate()?;
    w.check("workload")?;
    let jobs = job_infos(w, res);
    let mut sim = Sim::new(w.nodes, &jobs, res, failures, variant, budget);
    sim.readings = readings;
    if sim.run(progress)?.is_break() {
        return Ok(Ending::Stopped(sim.into_partial()?));
    }
    let records = sim.into_run()?;
    Ok(Ending::Complete(Run { jobs, ..records }))
}

impl<'a> Sim<'a> {
    fn new(
        nodes: u32,
        jobs: &'a [JobInfo],
        res: &'a Resilience,
        failures: FailureSource,
        variant: Variant,
        budget: Budget,
    ) -> Sim<'a> {
        Sim {
            variant,
            readings: Readings::default(),
            n: nodes,
            res,
            jobs,
            now: Time::zero(),
            free: NodeBitset::full(nodes),
            up: NodeBitset::full(nodes),
            returns: BTreeMap::new(),
            running: RunningSet::default(),
            queue: VecDeque::new(),
            queued_len: Time::zero(),
            due: DueStarts::default(),
            unplanned: 0,
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
            plan: Profile::new(&Time::zero(), nodes, &[]),
            base_plan: Profile::new(&Time::zero(), nodes, &[]),
            plan_queue: PlanQueue::new(),
            raised: None,
            greedy: true,
            freed: Vec::new(),
            budget,
        }
    }

    /// The records of a finished run, without the job data (which the caller owns).
    fn into_run(self) -> Result<Run> {
        let completion = self
            .completion
            .iter()
            .enumerate()
            .map(|(j, c)| {
                c.clone()
                    .ok_or_else(|| self.internal(format!("job {j} has no completion time")))
            })
            .collect::<Result<Vec<Time>>>()?;
        // default: the end of a run with no job is time 0
        let end = completion.iter().max().cloned().unwrap_or_default();
        Ok(Run {
            variant: self.variant,
            nodes: self.n,
            resilience: self.res.clone(),
            jobs: Vec::new(),
            attempts: self.out_attempts,
            holds: self.out_holds,
            failures: self.out_failures,
            completion,
            end,
            stats: self.stats,
        })
    }

    fn internal(&self, msg: impl Into<String>) -> Error {
        Error::Scheduler {
            algo: self.variant.to_string(),
            time: self.now.to_string(),
            msg: msg.into(),
        }
    }

    /// The event loop of the module doc, until every job has completed or `progress` breaks
    /// (checked every [`PROGRESS_EVERY`] events, and every [`Budget::report_interval`] of wall
    /// clock after the first [`PROGRESS_EVERY`] when set; never before the first event: a stop
    /// at once still covers the first [`PROGRESS_EVERY`] events, which makes it reproducible).
    /// The clock only decides when `progress` is asked, never what the simulation does.
    fn run(
        &mut self,
        progress: &mut dyn FnMut(usize, usize) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>> {
        let mut last_report = std::time::Instant::now();
        while self.done < self.jobs.len() {
            let e = self.stats.events;
            let due = e > 0 && e % PROGRESS_EVERY == 0
                || e > PROGRESS_EVERY
                    && self
                        .budget
                        .report_interval
                        .is_some_and(|iv| last_report.elapsed() >= iv);
            if due {
                last_report = std::time::Instant::now();
                if progress(self.done, self.jobs.len()).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            self.check_budget()?;
            let t = self.next_event().ok_or_else(|| {
                self.internal(format!(
                    "no event left with {} jobs unfinished",
                    self.jobs.len() - self.done
                ))
            })?;
            if t < self.now {
                return Err(self.internal(format!("event at {t} is in the past")));
            }
            self.now = t;
            self.stats.events += 1;
            self.full = false;
            self.compress = false;
            self.node_returns();
            self.attempt_ends()?;
            self.failures_now()?;
            // A zero downtime returns the struck nodes at this same instant.
            self.node_returns();
            let new_jobs = self.release_jobs();
            self.update_plan(new_jobs);
            self.start_due()?;
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Failures faster than jobs can progress would loop forever (a job on many nodes without
    /// checkpoints may never complete, a large job may never find enough nodes up, a job may be
    /// released centuries after the others): give up with an error naming the budget instead.
    fn check_budget(&self) -> Result<()> {
        let (n, left) = (self.jobs.len(), self.jobs.len() - self.done);
        if self.out_attempts.len() as u64 > self.budget.max_attempts {
            return Err(Error::Limit(format!(
                "{}: more than {} attempts for {n} jobs at time {} ({left} unfinished): failures are too \
                 frequent for the jobs to progress (raise the MTBF or enable checkpoints)",
                self.variant, self.budget.max_attempts, self.now,
            )));
        }
        if self.stats.events > self.budget.max_events {
            return Err(Error::Limit(format!(
                "{}: more than {} events (failures and scheduling instants) for {n} jobs, at time {} \
                 with {left} unfinished: failures come too often for the MTBF, or downtimes and \
                 checkpoint costs are too long, for the jobs to progress; the budget is \
                 `max_events` (default {} per job + {}): raise it if the run is meant to be this long",
                self.variant,
                self.budget.max_events,
                self.now.to_decimal_string(3),
                limits::EVENTS_PER_JOB,
                limits::EVENTS_BASE,
            )));
        }
        Ok(())
    }

    /// The earliest pending event: a node return, an attempt end or stopping point, a release,
    /// a planned start or a failure.
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
        debug_assert!(self.running.ends_agree());
        if let Some(t) = self.running.first_end() {
            see(t);
        }
        if self.next_release < self.jobs.len() {
            see(&self.jobs[self.next_release].release);
        }
        let queue = &self.queue;
        if let Some(p) = self
            .due
            .first(|t, o| is_current(queue, t, o), || planned_starts(queue))
        {
            see(p);
        }
        if let Some(f) = self.failures.peek() {
            let ft = f.time.clone();
            see(&ft);
        }
        best
    }

    /// Nodes whose downtime ends now come back up (and free).
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

    /// The failures at this instant, one by one, while jobs remain.
    fn failures_now(&mut self) -> Result<()> {
        while self.failures.peek().is_some_and(|f| f.time == self.now)
            && self.done < self.jobs.len()
        {
            let f = self
                .failures
                .pop()
                .ok_or_else(|| self.internal("failure vanished"))?;
            self.stats.events += 1;
            self.check_budget()?;
            self.on_failure(f)?;
        }
        Ok(())
    }

    /// Jobs released now enter the queue with priority 1; true if there were any.
    fn release_jobs(&mut self) -> bool {
        let mut new_jobs = false;
        while self.next_release < self.jobs.len()
            && self.jobs[self.next_release].release == self.now
        {
            let j = self.next_release;
            self.next_release += 1;
            self.enqueue(j, 1, Cause::First, Time::zero(), Time::zero());
            new_jobs = true;
        }
        new_jobs
    }

    /// Step 5 of the module doc: full recomputation, compression or insertion.
    fn update_plan(&mut self, new_jobs: bool) {
        if self.full {
            self.replan_full();
            self.stats.replans += 1;
        } else if self.compress || new_jobs {
            self.replan_pass();
        }
    }

    /// Queues `job` with recovery `recovery` from position `pos`, by decreasing priority, then
    /// submission order.
    fn enqueue(&mut self, job: usize, prio: u8, cause: Cause, recovery: Time, pos: Time) {
        let len = &recovery + &(&self.jobs[job].wall_len - &pos);
        let q = Queued {
            job,
            nodes: self.jobs[job].nodes,
            prio,
            cause,
            recovery,
            pos,
            len,
            planned: None,
        };
        let key = q.order();
        let i = self.queue.partition_point(|x| x.order() < key);
        self.plan_queue.insert(i, q.nodes, &q.len);
        self.queued_len = &self.queued_len + &q.len;
        self.queue.insert(i, Box::new(q));
        self.unplanned += 1;
    }

    /// Queues `job` again (after a failure or a steal) with recovery R from position `pos`.
    fn resubmit(&mut self, job: usize, prio: u8, cause: Cause, pos: Time) {
        self.enqueue(job, prio, cause, self.res.recovery.clone(), pos);
    }
}
