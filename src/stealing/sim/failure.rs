//! A failure striking a node (node-stealing paper, Sections 2 and 7.2.3): the node goes down for
//! D; an idle node is just lost for that time; a running job is cut back to its last checkpoint
//! and handed to Algorithm 1 ([`super::algorithm1`]); a pending victim or a held survivor being
//! struck is one of the consecutive-failure cases of Section 7.2.3.
use super::{Cause, Effect, FailureRecord, Outcome, Pending, Running, Sim, Stop};
use crate::error::Result;
use crate::stealing::failures::Failure;
use crate::stealing::nodes::NodeSet;
use crate::time::Time;

impl Sim<'_> {
    /// Handles one failure and records its effect.
    pub(super) fn on_failure(&mut self, f: Failure) -> Result<()> {
        self.stats.failures += 1;
        let effect = self.strike(f.node)?;
        self.out_failures.push(FailureRecord {
            time: f.time,
            node: f.node,
            effect,
        });
        Ok(())
    }

    /// Node `n` fails now: down for D, then whatever it was doing is cut.
    fn strike(&mut self, n: u32) -> Result<Effect> {
        if !self.up.contains(n) {
            self.stats.on_down_node += 1;
            return Ok(Effect::AlreadyDown);
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
            return Ok(Effect::Idle);
        }
        self.stats.on_jobs += 1;
        if let Some(pi) = self.pendings.iter().position(|p| p.hold.contains(n)) {
            return self.hold_struck(pi, n);
        }
        let Some(ri) = self.running.iter().position(|r| r.nodes.contains(n)) else {
            return Err(self.internal(format!("node {n} is neither free, down, held nor running")));
        };
        let r = self.running.swap_remove(ri);
        self.running_struck(r, n)
    }

    /// A running attempt loses node `n`: it ends, keeping its last checkpoint.
    fn running_struck(&mut self, r: Running, n: u32) -> Result<Effect> {
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
            return self.victim_struck(*pid, r.job, &survivors, commit);
        }
        self.algorithm1(r.job, survivors, commit)
    }

    /// 7.2.3, first case: the pending victim fails; both restart from their checkpoints.
    fn victim_struck(
        &mut self,
        pid: usize,
        victim: usize,
        survivors: &NodeSet,
        commit: Time,
    ) -> Result<Effect> {
        let pi = self
            .pendings
            .iter()
            .position(|p| p.id == pid)
            .ok_or_else(|| self.internal("unknown pending"))?;
        let p = self.pendings.swap_remove(pi);
        self.cancel_pending(&p);
        self.free.insert_set(survivors);
        self.resubmit(victim, 3, Cause::AfterFailure, commit);
        Ok(Effect::Victim {
            job: p.failed,
            victim,
        })
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

    /// Cancels a pending steal: F goes back to the queue (priority 3), its hold is freed.
    fn cancel_pending(&mut self, p: &Pending) {
        self.stats.steals_cancelled += 1;
        self.free.insert_set(&p.hold);
        self.close_hold(p.failed, &p.hold_start, &p.hold);
        self.resubmit(p.failed, 3, Cause::AfterFailure, p.commit.clone());
    }

    /// 7.2.3, second case: a failure on the held survivors of F.
    fn hold_struck(&mut self, pi: usize, n: u32) -> Result<Effect> {
        let (failed, victim) = (self.pendings[pi].failed, self.pendings[pi].victim);
        // Close the hold segment with the old node set, continue with the smaller one.
        let (start, old) = (
            self.pendings[pi].hold_start.clone(),
            self.pendings[pi].hold.clone(),
        );
        self.close_hold(failed, &start, &old);
        let p = &mut self.pendings[pi];
        p.hold = old.without(n);
        p.hold_start = self.now.clone();
        p.lost += 1;
        let vi = self
            .running
            .iter()
            .position(|r| r.job == victim)
            .ok_or_else(|| self.internal("victim not running"))?;
        let p = &self.pendings[pi];
        if self.running[vi].nodes.len() >= p.lost && !p.hold.is_empty() {
            return Ok(Effect::Hold {
                job: failed,
                cancelled: false,
            });
        }
        // The hold segment closed at `now` leaves no record: cancelling frees what is left.
        let p = self.pendings.swap_remove(pi);
        self.cancel_pending(&p);
        self.victim_goes_on(vi);
        Ok(Effect::Hold {
            job: failed,
            cancelled: true,
        })
    }

    /// Stealing from the victim at `vi` is cancelled: it goes on, but a proactive checkpoint
    /// under way completes first.
    fn victim_goes_on(&mut self, vi: usize) {
        self.running.update_stop(vi, |stop| {
            let proactive = stop.as_ref().is_some_and(|s| s.plan.extra.is_positive());
            match stop.as_mut() {
                Some(s) if proactive => {
                    s.steal = None;
                    s.resume = true;
                }
                _ => *stop = None,
            }
        });
    }
}
