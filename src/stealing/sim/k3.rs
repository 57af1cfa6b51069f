//! Criterion K3 of the node-stealing paper (Section 7.1): steal iff it gives the smaller
//! estimated maximum flow of the failed job F and the victim V, "based on their walltime in both
//! scenarios". Reading: each scenario is estimated with the plan itself — the jobs of higher
//! priority are placed and the walltime-based completions of F and V read off.
use super::Sim;
use crate::stealing::checkpoint::StopPlan;
use crate::stealing::nodes::NodeSet;
use crate::stealing::plan::{Busy, Profile};
use crate::time::Time;

impl Sim<'_> {
    /// K3 for failed job `f` (keeping `survivors` and position `f_commit`) and the running
    /// victim at `vi` stopping by `plan`.
    pub(super) fn k3(
        &self,
        f: usize,
        survivors: &NodeSet,
        f_commit: &Time,
        vi: usize,
        plan: &StopPlan,
    ) -> bool {
        let f_len = &self.res.recovery + &(&self.jobs[f].wall_len - f_commit);
        self.k3_steal(f, survivors, &f_len, vi, plan) < self.k3_wait(f, &f_len, vi)
    }

    /// Scenario "wait": F queued with priority 3, V keeps running to its walltime end.
    fn k3_wait(&self, f: usize, f_len: &Time, vi: usize) -> Time {
        let (jf, jv) = (&self.jobs[f], &self.jobs[self.running[vi].job]);
        let mut prof = Profile::new(&self.now, self.n, &self.base_busy(None));
        for q in self.queue.iter().filter(|q| q.prio == 3 && q.job < f) {
            let len = q.len.clone();
            let s = prof.earliest(q.nodes, &len, &self.now);
            prof.reserve(&s, &len, q.nodes);
        }
        let s = prof.earliest(jf.nodes, f_len, &self.now);
        let f_end = &s + f_len;
        let v_end = self.running[vi].planned_end.clone();
        (&f_end - &jf.release).max(&v_end - &jv.release)
    }

    /// Scenario "steal": F restarts at the stopping point, V resubmitted with priority 2.
    fn k3_steal(
        &self,
        f: usize,
        survivors: &NodeSet,
        f_len: &Time,
        vi: usize,
        plan: &StopPlan,
    ) -> Time {
        let v = self.running[vi].job;
        let (jf, jv) = (&self.jobs[f], &self.jobs[v]);
        let at = &self.now + &plan.wait;
        let f_end = &at + f_len;
        let v_end = if plan.completes {
            at.clone()
        } else {
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
            let mut prof = Profile::new(&self.now, self.n, &busy);
            for q in self
                .queue
                .iter()
                .filter(|q| q.prio == 3 || (q.prio == 2 && q.job < v))
            {
                let len = q.len.clone();
                let s = prof.earliest(q.nodes, &len, &self.now);
                prof.reserve(&s, &len, q.nodes);
            }
            let v_len = &self.res.recovery + &(&jv.wall_len - &plan.commit);
            let s = prof.earliest(jv.nodes, &v_len, &at);
            &s + &v_len
        };
        (&f_end - &jf.release).max(&v_end - &jv.release)
    }
}
