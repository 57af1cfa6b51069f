//! Algorithm 1 of the node-stealing paper (Section 7.2.1) for a job F whose attempt a failure
//! just cut: restart on a free node if there is one; else (node-stealing variants only) choose a
//! victim (V1/V2, Section 7.1), work out where it would stop (T1/T2/T3, Section 7.2.2 and
//! Figure 15), ask the criterion (K1/K2/K3), and steal — at once under T1, through a hold of
//! F's survivors until the stopping point under T2/T3. The module doc of [`super`] states the
//! readings (tie-breaks, which node is taken).
use super::{Effect, Pending, Sim, Stop};
use crate::error::Result;
use crate::stealing::checkpoint::StopPlan;
use crate::stealing::model::{Criterion, Timing, Variant, Victim};
use crate::stealing::nodes::NodeSet;
use crate::time::Time;

impl Sim<'_> {
    /// Algorithm 1 for job `f` whose attempt just failed, keeping `survivors` and position
    /// `commit`.
    pub(super) fn algorithm1(
        &mut self,
        f: usize,
        survivors: NodeSet,
        commit: Time,
    ) -> Result<Effect> {
        if let Some(p) = self.free.lowest() {
            self.free.remove_range(p, p + 1);
            self.stats.free_node_used += 1;
            let nodes = survivors.union(&NodeSet::single(p));
            let rec = self.res.recovery.clone();
            self.start_attempt(f, nodes, super::Cause::AfterFailure, rec, commit);
            return Ok(Effect::FreeNode { job: f });
        }
        let Variant::Steal {
            timing,
            victim,
            criterion,
        } = self.variant
        else {
            return Ok(self.resubmit_failed(f, &survivors, commit));
        };
        let Some(vi) = self.choose_victim(victim) else {
            self.stats.steal_refused += 1;
            return Ok(self.resubmit_failed(f, &survivors, commit));
        };
        let v = self.running[vi].job;
        let plan = self.stop_plan(vi, timing);
        let yes = match criterion {
            Criterion::FewerNodes => self.jobs[v].nodes < self.jobs[f].nodes,
            Criterion::ReleasedLater => v > f,
            Criterion::SmallerMaxFlow => self.k3(f, &survivors, &commit, vi, &plan),
        };
        if !yes {
            self.stats.steal_refused += 1;
            return Ok(self.resubmit_failed(f, &survivors, commit));
        }
        if timing != Timing::Now && survivors.is_empty() {
            // 7.2.1: no fictitious job can be submitted for a failed job without nodes left.
            self.stats.steals_cancelled += 1;
            self.resubmit(f, 3, super::Cause::AfterFailure, commit);
            return Ok(Effect::NoSurvivor { job: f });
        }
        self.steal(f, survivors, commit, vi, plan)?;
        Ok(Effect::Steal { job: f, victim: v })
    }

    /// No stealing: F's survivors are freed and F is resubmitted with priority 3.
    fn resubmit_failed(&mut self, f: usize, survivors: &NodeSet, commit: Time) -> Effect {
        self.free.insert_set(survivors);
        self.resubmit(f, 3, super::Cause::AfterFailure, commit);
        Effect::Resubmitted { job: f }
    }

    /// Steals from the running attempt at `vi` for `f`: now if the victim stops now, else
    /// through a hold of F's survivors until the victim's stopping point.
    fn steal(
        &mut self,
        f: usize,
        survivors: NodeSet,
        commit: Time,
        vi: usize,
        plan: StopPlan,
    ) -> Result<()> {
        self.stats.steals += 1;
        let id = self.next_pending_id;
        self.next_pending_id += 1;
        let pending = Pending {
            id,
            failed: f,
            victim: self.running[vi].job,
            hold: survivors,
            hold_start: self.now.clone(),
            lost: 1,
            commit,
        };
        if plan.wait.is_positive() {
            let at = &self.now + &plan.wait;
            self.running.update_stop(vi, |stop| {
                *stop = Some(Stop {
                    at,
                    plan,
                    steal: Some(id),
                    resume: false,
                })
            });
            self.pendings.push(pending);
            Ok(())
        } else {
            let r = self.running.swap_remove(vi);
            self.resolve_steal(r, &plan, pending)
        }
    }

    /// Where the running attempt at `vi` would stop under `timing` (Figure 15 for T2, the next
    /// checkpoint completion for T3, a rollback now for T1).
    fn stop_plan(&self, vi: usize, timing: Timing) -> StopPlan {
        let r = &self.running[vi];
        let tl = &self.jobs[r.job].timeline;
        let t_run = &self.now - &r.start;
        match timing {
            Timing::Now => {
                let (y, kept) = tl.on_failure(&r.pos_start, &r.recovery, &t_run);
                StopPlan {
                    wait: Time::zero(),
                    reached: y,
                    commit: kept,
                    extra: Time::zero(),
                    completes: false,
                }
            }
            Timing::Proactive => tl.proactive_stop(&r.pos_start, &r.recovery, &t_run),
            Timing::NextCheckpoint => tl.next_checkpoint_stop(&r.pos_start, &r.recovery, &t_run),
        }
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
}
