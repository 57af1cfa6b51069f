//! The conservative-backfilling plan of the queue (node-stealing paper, Section 4.1, and
//! Section 5.1 for when it is recomputed): what is known to occupy nodes from now on, the
//! placement of every queued job at its earliest slot in priority order, and the start of the
//! jobs whose planned start has come. The profile itself is [`crate::stealing::plan`].
use super::{is_current, planned_starts, position, Queued, Sim};
use crate::error::Result;
use crate::stealing::plan::{Busy, Profile, QueuedSlot};
use crate::stealing::readings::{Compression, NodeReturns};
use crate::time::Time;
use std::collections::VecDeque;

impl Sim<'_> {
    /// Occupations known now: down nodes, running attempts (to their walltime or stopping
    /// point), holds and the nodes F will take from its victim. `skip` leaves one job out.
    pub(super) fn base_busy(&self, skip: Option<usize>) -> Vec<Busy> {
        let mut b =
            Vec::with_capacity(self.returns.len() + self.running.len() + 2 * self.pendings.len());
        for r in self.running.iter().filter(|r| Some(r.job) != skip) {
            let p = r.nodes.len();
            let Some(s) = &r.stop else {
                b.push(Busy {
                    from: self.now.clone(),
                    to: r.planned_end.clone(),
                    count: p,
                });
                continue;
            };
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
        self.pending_busy(&mut b);
        self.down_busy(&mut b);
        b
    }

    /// Down nodes: busy until they are back ([`NodeReturns::Foreseen`]), or, when the plan does
    /// not foresee returns ([`NodeReturns::Unforeseen`]), until a horizon after every other
    /// occupation and every queued job placed one after another — so a job that fits on the
    /// nodes that are up is always planned before it, and one that does not waits there. Every
    /// return comes before the horizon and recomputes the plan, so no job ever starts at it on
    /// a down node.
    fn down_busy(&self, b: &mut Vec<Busy>) {
        let horizon = match self.readings.returns {
            NodeReturns::Foreseen => None,
            NodeReturns::Unforeseen => {
                let mut h = self.now.clone();
                for t in b.iter().map(|x| &x.to).chain(self.returns.keys()) {
                    if *t > h {
                        h = t.clone();
                    }
                }
                debug_assert!(
                    self.queue.iter().fold(Time::zero(), |s, q| &s + &q.len) == self.queued_len
                );
                Some(&(&h + &self.queued_len) + &Time::from_int(1))
            }
        };
        for (t, ns) in &self.returns {
            b.push(Busy {
                from: self.now.clone(),
                to: match &horizon {
                    Some(h) => h.clone(),
                    None => t.clone(),
                },
                count: ns.len() as u32,
            });
        }
    }

    /// The holds of pending steals, and the nodes each failed job takes from its victim at the
    /// stopping point, until the failed job's walltime end.
    fn pending_busy(&self, b: &mut Vec<Busy>) {
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
    }

    /// Section 4.1, full recomputation: the plan is rebuilt from what occupies nodes now and
    /// every queued job placed at its earliest slot, in priority order. Afterwards no queued
    /// job can start earlier (each was placed at its earliest slot given the jobs before it,
    /// and the jobs after it only took nodes): the plan is *settled*, and it is *greedy* (what
    /// a recomputation on the same occupations gives), until a completion gives nodes back.
    pub(super) fn replan_full(&mut self) {
        let base = Profile::new(&self.now, self.n, &self.base_busy(None));
        if self.greedy && self.keeps_greedy_plan(&base) {
            self.base_plan = base;
            self.freed.clear();
            // Only new jobs (at the end of the queue) have no slot yet.
            self.replan_pass();
            return;
        }
        self.stats.plan_checks += self.queue.len() as u64;
        let mut prof = base.clone();
        // The placement runs in the plan, on its mirror of the queue ([`Profile::place_all`]).
        self.plan_queue.clear_starts();
        let jobs = || queued_slots(&self.queue, false);
        let starts = prof.place_all(&mut self.plan_queue, jobs, &self.now);
        for (q, s) in self.queue.iter_mut().zip(starts) {
            if q.planned.replace(s).is_none() {
                self.unplanned -= 1;
            }
        }
        // Every job has a new start: the index is built again at once.
        self.due.rebuild(planned_starts(&self.queue));
        self.plan = prof;
        self.base_plan = base;
        self.freed.clear();
        self.raised = None;
        self.greedy = true;
    }

    /// Whether the kept greedy plan is what the recomputation on `base` gives, and if so
    /// brings it onto `base`. True when the queue only gained new jobs (prio 1, at its end)
    /// and `base` only *takes* nodes from the kept one (a node gone down, a job restarted
    /// on a free node) without making any kept reservation over-subscribed: then each job's
    /// slot is still free given the jobs before it, and no earlier slot became free (the
    /// recomputation is the greedy placement in priority order; induction on the queue). A
    /// node coming back changes nothing from now on, so the common failure-and-return pair
    /// costs no recomputation of thousands of queued jobs.
    fn keeps_greedy_plan(&mut self, base: &Profile) -> bool {
        if self.queue.iter().any(|q| q.planned.is_none() && q.prio > 1) {
            return false;
        }
        self.base_plan.forget_before(&self.now);
        let diff = base.minus(&self.base_plan, &self.now);
        if diff.iter().any(|(_, to, d)| *d > 0 || to.is_none()) {
            return false;
        }
        self.plan.forget_before(&self.now);
        let mut trial = self.plan.clone();
        for (from, to, d) in &diff {
            if let Some(to) = to {
                trial.shift(from, to, *d);
            }
        }
        if trial.min_free() < 0 {
            return false;
        }
        self.plan = trial;
        true
    }

    /// Section 4.1, conservative compression after completions, and insertion of new jobs:
    /// each queued job, in priority order, removed and put back at its earliest slot no later
    /// than its current start (so no job is ever delayed), new jobs at their earliest slot.
    ///
    /// The plan is kept from the previous event (only completions changed what occupies nodes
    /// since: their unused walltime is given back here), and the pass does the work only where
    /// its result can differ from "stay". A plan is *settled* when no queued job can start
    /// earlier; `raised` is the hull `[a, b)` of where the free counts rose since it last was.
    /// A job `k` (p nodes, length ℓ, start s_k) can then only move to a start `s < s_k` whose
    /// window `[s, s + ℓ)` meets `[a, b)`: every other window was infeasible when the plan was
    /// settled, and the profile of the others only lost nodes outside `[a, b)` since (new
    /// reservations), so `s ∈ [a − ℓ, min(s_k, b))`. Hence:
    /// - on a settled plan with nothing given back, no queued job can move, so only the new
    ///   jobs are placed;
    /// - else a job moves only if `p` nodes are free somewhere before `min(s_k, b)` ([`Rises`],
    ///   scanned again after each move from the move's new start on, the only place where a
    ///   move changes counts, and moves are the only thing that frees nodes during the pass)
    ///   and stay free until its start or for its length from such an instant
    ///   ([`Profile::earlier_start`], which also gives the new start, searched with the job's
    ///   reservation in place); the others are left as they are without the remove-and-replace,
    ///   the search of a job that moves stops at `min(s_k, b)`, and the move changes the plan
    ///   only where the old and new windows differ ([`Profile::move_earlier`]);
    /// - a job with the node count, length and start of the job checked just before it, which
    ///   kept its slot, keeps its slot too: nothing moved in between, so it asks the same
    ///   question of the same profile (placing a new job in between only takes nodes); the
    ///   plan's mirror of the queue counts the run of such twins after each job, so a run is
    ///   passed over at once;
    /// - a job that moves takes along as many of its twins right after it as the window it
    ///   moved to still holds: each would be checked next and found there (no earlier window
    ///   opened for it, since the move only took nodes before their common start), so they
    ///   move with it in one change of the plan, without a search of their own.
    ///
    /// A job that moves frees its old slot `[s_k, s_k + ℓ)`, which joins `raised` (the jobs
    /// before it were checked without it). The plan is settled afterwards iff nobody moved.
    /// Each case gives the very start the full pass gives (`tests/stealing_pins.rs` pins whole
    /// runs; the plan's `compress_gives_the_starts_of_the_plain_pass` compares single passes).
    /// The pass runs in the plan, on its own instants and on its mirror of the queue
    /// ([`Profile::compress`]); here the give-backs are made and the new starts taken.
    ///
    /// Under [`Compression::Completions`] (Batsched's rule) an instant with no completion only
    /// inserts the new jobs: the pass runs as on a settled plan (nothing raised, so no other
    /// job is visited), and `raised` is kept for the next completion's pass. It stays exact
    /// there: inserting jobs only takes nodes, so the plan's counts rose nowhere else since it
    /// was last settled.
    pub(super) fn replan_pass(&mut self) {
        let insert_only = !self.compress && self.readings.compression == Compression::Completions;
        let prof = &mut self.plan;
        prof.forget_before(&self.now);
        self.base_plan.forget_before(&self.now);
        let mut raised = self.raised.take();
        for (end, p) in self.freed.drain(..) {
            if end > self.now {
                prof.release(&self.now, &end, p);
                self.base_plan.release(&self.now, &end, p);
                widen(&mut raised, &self.now, &end);
                self.greedy = false;
            }
        }
        // The pass itself runs on the plan's ticks ([`Profile::compress`]); the queue's
        // values are read from here only when the plan's mirror of them must be taken again.
        let jobs = || queued_slots(&self.queue, true);
        let d = prof.compress(
            &mut self.plan_queue,
            jobs,
            &self.now,
            raised.as_ref().filter(|_| !insert_only),
            self.unplanned,
        );
        self.stats.plan_checks += d.checks;
        self.stats.plan_moves += d.moves;
        for (k, s) in d.started {
            self.set_planned(k, s);
        }
        self.raised = if insert_only { raised } else { d.moved };
    }

    /// Gives queued job `k` the planned start `s`, keeping [`Sim::due`] and
    /// [`Sim::unplanned`] (a full recomputation, which gives every job a start, builds the
    /// index again at once instead).
    fn set_planned(&mut self, k: usize, s: Time) {
        let q = &mut self.queue[k];
        let o = q.order();
        if q.planned.replace(s.clone()).is_none() {
            self.unplanned -= 1;
        }
        let queue = &self.queue;
        self.due.push(s, o, queue.len(), || planned_starts(queue));
    }

    /// Step 6 of the event loop: queued jobs planned to start now start, in queue order, on
    /// the lowest free ids. [`Sim::due`] gives them in that order, each found in the queue by
    /// its order there.
    pub(super) fn start_due(&mut self) -> Result<()> {
        loop {
            let queue = &self.queue;
            let due = self.due.pop_at(
                &self.now,
                |t, o| is_current(queue, t, o),
                || planned_starts(queue),
            );
            let Some(o) = due else {
                return Ok(());
            };
            // A current entry's job is queued: not finding it is an internal error.
            let q = position(queue, o).and_then(|k| {
                self.plan_queue.remove(k);
                self.queue.remove(k)
            });
            let Some(q) = q else {
                return Err(self.internal(format!("job {} is due but not queued", o.1)));
            };
            self.queued_len = &self.queued_len - &q.len;
            let p = q.nodes;
            let nodes = self.free.take_lowest(p).ok_or_else(|| {
                self.internal(format!(
                    "plan starts job {} on {p} nodes but only {} are free",
                    q.job,
                    self.free.count()
                ))
            })?;
            // Its reservation becomes an occupation of the base (the plan is unchanged).
            let len = q.len.clone();
            self.base_plan.reserve(&self.now, &len, p);
            self.start_attempt(q.job, nodes, q.cause, q.recovery, q.pos);
        }
    }
}

/// The queue as the plan's passes read it ([`QueuedSlot`]), with each job's planned start or,
/// for a full recomputation, none.
fn queued_slots(queue: &VecDeque<Box<Queued>>, starts: bool) -> Vec<QueuedSlot> {
    queue
        .iter()
        .map(|q| QueuedSlot {
            p: q.nodes,
            len: q.len.clone(),
            start: q.planned.clone().filter(|_| starts),
        })
        .collect()
}

/// Widens the hull `h` to cover `[from, to)`.
fn widen(h: &mut Option<(Time, Time)>, from: &Time, to: &Time) {
    match h {
        None => *h = Some((from.clone(), to.clone())),
        Some((a, b)) => {
            if from < a {
                *a = from.clone();
            }
            if to > b {
                *b = to.clone();
            }
        }
    }
}
