//! Attempts of the node-stealing scheduler starting and ending (node-stealing paper, Sections
//! 5.2 and 7.2.2): a start pays its recovery and resumes its job's timeline from the kept
//! position; an end is a completion, a victim reaching its stopping point (Figure 15), or a
//! cancelled proactive checkpoint finishing before the victim goes on.
use super::{Cause, HoldRecord, Outcome, Pending, Running, Sim};
use crate::error::Result;
use crate::stealing::checkpoint::StopPlan;
use crate::stealing::nodes::NodeSet;
use crate::time::Time;

impl Sim<'_> {
    /// Starts an attempt of `job` now on `nodes`, paying `recovery`, from timeline position `pos`.
    pub(super) fn start_attempt(
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
    pub(super) fn record(
        &mut self,
        r: &Running,
        reached: Time,
        commit: Time,
        extra: Time,
        outcome: Outcome,
    ) {
        let dur = &self.now - &r.start;
        // Recovery is spent in full unless the attempt was cut before any progress.
        let recovery_done = if reached > r.pos_start || extra.is_positive() {
            r.recovery.clone()
        } else {
            r.recovery.clone().min(dur)
        };
        self.out_attempts.push(super::AttemptRecord {
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

    /// Records `r` as the job's completing attempt (its nodes are the caller's business).
    fn finish(&mut self, r: &Running) {
        let len = self.jobs[r.job].timeline.len.clone();
        self.record(r, len.clone(), len, Time::zero(), Outcome::Completed);
        self.completion[r.job] = Some(self.now.clone());
        self.done += 1;
    }

    /// Closes a hold segment of `job` on `nodes` that began at `start` (empty ones leave no
    /// record).
    pub(super) fn close_hold(&mut self, job: usize, start: &Time, nodes: &NodeSet) {
        if *start < self.now && !nodes.is_empty() {
            self.out_holds.push(HoldRecord {
                job,
                start: start.clone(),
                end: self.now.clone(),
                nodes: nodes.clone(),
            });
        }
    }

    /// Step 2 of the event loop: the attempts that end or reach their stopping point now, in
    /// job order.
    pub(super) fn attempt_ends(&mut self) -> Result<()> {
        for job in self.running.ending_at(&self.now) {
            let Some(i) = self.running.iter().position(|r| r.job == job) else {
                continue;
            };
            let r = self.running.swap_remove(i);
            self.end_attempt(r)?;
        }
        Ok(())
    }

    /// `r` has reached its natural end or its stopping point.
    fn end_attempt(&mut self, r: Running) -> Result<()> {
        match r.stop.clone() {
            None => {
                self.finish(&r);
                self.free.insert_set(&r.nodes);
                // The plan kept its walltime reservation: give back what was not used.
                self.freed.push((r.planned_end.clone(), r.nodes.len()));
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
        Ok(())
    }

    /// The victim reaches its stopping point: F gets `lost` of its nodes (the lowest ids).
    pub(super) fn resolve_steal(&mut self, v: Running, plan: &StopPlan, p: Pending) -> Result<()> {
        if plan.completes {
            self.stats.victims_completed += 1;
            self.finish(&v);
        } else {
            self.record(
                &v,
                plan.reached.clone(),
                plan.commit.clone(),
                plan.extra.clone(),
                Outcome::Stolen { by: p.failed },
            );
            self.resubmit(v.job, 2, Cause::AfterSteal, plan.commit.clone());
        }
        let (taken, rest) = v
            .nodes
            .split_lowest(p.lost)
            .ok_or_else(|| self.internal("victim has fewer nodes than the failed job lost"))?;
        self.free.insert_set(&rest);
        self.close_hold(p.failed, &p.hold_start, &p.hold);
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
}
