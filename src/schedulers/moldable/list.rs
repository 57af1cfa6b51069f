//! LIST (moldable paper, Algorithm 1) for an allocation that may change from one attempt to the
//! next (Section 3.3: p_j = (p_j^(1), …, p_j^(f_j+1))).
//!
//! Pending jobs wait in a list ordered by an [`Order`] evaluated on the allocation of their next
//! attempt. At time 0 and whenever attempts complete (all completions of an instant first, see
//! [`crate::engine`]), a failed job is inserted back by its priority, then the list is scanned
//! in order and every job whose next allocation fits in the free processors starts now (greedy
//! backfilling: a job that does not fit does not block the ones behind it). The allocation of
//! an attempt is read from the [`Allotment`] when the job enters the list for that attempt.
//!
//! Lemma 1 bounds the makespan by 2A/P (p_min ≥ P/2) or A/(P−p_min) + (P−2p_min)·t_max/(P−p_min)
//! for the allocation used; [`min_busy`] measures p_min of a schedule so tests can check it.
//!
//! Reading (documented ambiguity): Lemma 1 holds for one count per job (LPA, MINTIME, MINAREA;
//! property-tested). For counts that change arbitrarily from one attempt to the next it fails,
//! and so does the weaker T ≤ 2·L(J,f,p): a job waiting for a wide next attempt while another
//! job's narrow attempt runs alone breaks the "busy while waiting + busy while running ≥ P"
//! argument. The golden tests `lemma_1_needs_fixed_allocations` and
//! `two_l_fails_for_changing_allocations` hold exact counterexamples.
use super::{Keyer, Order};
use crate::engine::{Ctx, Outcome, Scheduler};
use crate::error::{Error, Result};
use crate::model::{Instance, Schedule};
use crate::time::Time;
use std::collections::BTreeSet;

/// Where LIST reads the processor count of each attempt.
pub trait Allotment {
    /// Processors for attempt `attempt` (1-based) of job `job`; 0 when the allotment has no
    /// count for it, which LIST refuses with a typed error (no job runs on 0 processors).
    fn procs(&self, job: usize, attempt: u32) -> u32;
}

/// One processor count per job, used at every attempt (LPA, MINTIME, MINAREA).
impl Allotment for Vec<u32> {
    fn procs(&self, job: usize, _attempt: u32) -> u32 {
        match self.get(job) {
            Some(&p) => p,
            None => 0,
        }
    }
}

/// One count per attempt; attempts beyond the list reuse its last entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerAttempt(pub Vec<Vec<u32>>);

impl Allotment for PerAttempt {
    fn procs(&self, job: usize, attempt: u32) -> u32 {
        match self.0.get(job).map(Vec::as_slice) {
            Some(v @ [_, ..]) => v[(attempt.max(1) as usize - 1).min(v.len() - 1)],
            None | Some([]) => 0,
        }
    }
}

type Entry = ((u8, Time), usize, u32);

/// The ordered list of pending attempts: (order key, job, processors), smallest key first.
#[derive(Debug, Clone)]
pub(crate) struct Queue {
    set: BTreeSet<Entry>,
    keyer: Keyer,
}

impl Queue {
    pub(crate) fn new(order: Order, inst: &Instance) -> Queue {
        Queue {
            set: BTreeSet::new(),
            keyer: Keyer::new(order, inst),
        }
    }

    pub(crate) fn clear(&mut self) {
        self.set.clear();
    }

    /// Inserts `job`'s next attempt on `procs` processors; errors if the job cannot use `procs`.
    pub(crate) fn insert(
        &mut self,
        inst: &Instance,
        job: usize,
        procs: u32,
        algo: &str,
        now: &Time,
    ) -> Result<()> {
        let t = inst
            .jobs
            .get(job)
            .and_then(|j| j.time(procs))
            .ok_or_else(|| Error::Scheduler {
                algo: algo.to_string(),
                time: now.to_string(),
                msg: format!("allocation gives job {job} {procs} processors, which it cannot use"),
            })?;
        let key = self
            .keyer
            .key(job, t, procs)
            .ok_or_else(|| Error::Scheduler {
                algo: algo.to_string(),
                time: now.to_string(),
                msg: format!("job {job} is not in the instance the scheduler was built for"),
            })?;
        self.set.insert((key, job, procs));
        Ok(())
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Starts, in list order, every attempt that fits in the free processors.
    pub(crate) fn start_fitting(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        let mut started: Vec<Entry> = Vec::new();
        for entry in &self.set {
            let free = ctx.free();
            if free == 0 {
                break;
            }
            if entry.2 <= free {
                ctx.start(entry.1, entry.2)?;
                started.push(entry.clone());
            }
        }
        for e in &started {
            self.set.remove(e);
        }
        Ok(())
    }
}

/// LIST with allocation `A` and an order (priority rule).
pub struct List<A: Allotment> {
    alloc: A,
    queue: Queue,
    name: String,
}

impl<A: Allotment> List<A> {
    /// LIST over `alloc` for `inst`; `name` is the display name (e.g. `LPA-LIST/LPT`).
    pub fn new(
        inst: &Instance,
        alloc: A,
        order: impl Into<Order>,
        name: impl Into<String>,
    ) -> List<A> {
        List {
            alloc,
            queue: Queue::new(order.into(), inst),
            name: name.into(),
        }
    }

    /// The allocation.
    pub fn allotment(&self) -> &A {
        &self.alloc
    }
}

impl<A: Allotment> Scheduler for List<A> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        let inst = ctx.instance();
        // Time 0 is the first call of a run (attempts last > 0): start afresh, so one value can
        // run many scenarios.
        if ctx.now().is_zero() {
            self.queue.clear();
            for j in 0..inst.len() {
                let p = self.alloc.procs(j, 1);
                self.queue.insert(inst, j, p, &self.name, ctx.now())?;
            }
        }
        let failed: Vec<usize> = ctx
            .completions()
            .iter()
            .filter(|c| c.outcome == Outcome::Failed)
            .map(|c| c.job)
            .collect();
        for j in failed {
            let p = self.alloc.procs(j, ctx.attempts_made(j) + 1);
            self.queue.insert(inst, j, p, &self.name, ctx.now())?;
        }
        self.queue.start_fitting(ctx)
    }
}

/// p_min of Lemma 1: the least number of busy processors at any instant of [0, makespan).
pub fn min_busy(schedule: &Schedule) -> u32 {
    let mut events: Vec<(Time, i64)> = Vec::with_capacity(2 * schedule.attempts.len());
    for a in &schedule.attempts {
        events.push((a.start.clone(), i64::from(a.procs)));
        events.push((a.end(), -i64::from(a.procs)));
    }
    events.sort();
    let end = schedule.makespan();
    let mut busy: i64 = 0;
    let mut min: Option<i64> = None;
    let mut i = 0;
    while i < events.len() {
        let t = events[i].0.clone();
        while i < events.len() && events[i].0 == t {
            busy += events[i].1;
            i += 1;
        }
        if t < end {
            min = Some(min.map_or(busy, |m| m.min(busy)));
        }
    }
    // An empty schedule has no instant in [0, makespan): nothing is ever busy.
    let Some(min) = min else { return 0 };
    // Ends sort before starts at an instant, so the count never drops below 0; above u32::MAX
    // (only in a schedule far over any P) it saturates.
    debug_assert!(min >= 0, "busy count {min} below 0");
    min.clamp(0, i64::from(u32::MAX)) as u32
}
