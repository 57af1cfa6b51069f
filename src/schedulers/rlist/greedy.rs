//! GREEDY = R-LIST(m = 0), rigid paper Section 4.1 (Algorithm 1 without reservations,
//! Proposition 2: makespan ≤ (2 − 1/P)·OPT).
//!
//! At every completion GREEDY scans Q in order and starts every job that fits in the free
//! processors. Free processors only decrease during the scan, so a skipped job never fits later
//! in the same scan: the scan is "repeatedly start the first queued job with p_j ≤ free". A
//! [`MinTree`] over queue positions finds that job in O(log n); each start, each reinsertion
//! costs O(log n), and an event at which nothing fits costs O(1). No rescans of Q.
use super::min_tree::MinTree;
use crate::engine::{Ctx, Outcome, Scheduler};
use crate::error::Result;
use crate::schedulers::priority::{self, Priority};
use crate::time::Time;

/// GREEDY = R-LIST(m = 0) in O(log n) per start, reinsertion and event.
#[derive(Debug, Clone)]
pub struct Greedy {
    name: String,
    /// order[pos] = job at queue position pos.
    order: Vec<usize>,
    /// rank[j] = queue position of job j.
    rank: Vec<usize>,
    /// procs[j] = p_j.
    procs: Vec<u32>,
    /// p_j by queue position (the tree's initial leaves).
    leaves: Vec<u32>,
    tree: MinTree,
}

impl Greedy {
    /// GREEDY over rigid jobs with keys `(p_j, t_j)`, ordered by `priority` (`seed` for RANDOM).
    pub fn new(keys: &[(u32, Time)], platform: u32, priority: Priority, seed: u64) -> Greedy {
        let order = priority::order(priority, keys, platform, seed);
        let name = format!("R-LIST(m=0)/{priority}");
        let rank = priority::ranks(&order);
        let procs: Vec<u32> = keys.iter().map(|k| k.0).collect();
        let leaves = order.iter().map(|&j| procs[j]).collect();
        let tree = MinTree::new(order.len());
        Greedy {
            name,
            order,
            rank,
            procs,
            leaves,
            tree,
        }
    }
}

impl Scheduler for Greedy {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        if ctx.completions().is_empty() {
            // The first call (the virtual job J_0 completes at time 0): everything is queued.
            self.tree.fill(&self.leaves);
        }
        for c in ctx.completions() {
            if c.outcome == Outcome::Failed {
                self.tree.set(self.rank[c.job], self.procs[c.job]);
            }
        }
        while let Some(pos) = self.tree.first_le(ctx.free()) {
            self.tree.set(pos, u32::MAX);
            // leaves[pos] = p_j, read by queue position (one random access fewer per start).
            ctx.start(self.order[pos], self.leaves[pos])?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference::t;
    use super::super::RList;
    use super::*;
    use crate::check::check;
    use crate::engine::run;
    use crate::model::{Instance, Scenario};

    #[test]
    fn greedy_matches_reference_m0() {
        // P = 4; p = 3, 2, 2, 1, 4; a few failures.
        let inst =
            Instance::rigid(4, &[(3, t(2)), (2, t(3)), (2, t(1)), (1, t(5)), (4, t(1))]).unwrap();
        let keys: Vec<(u32, Time)> = inst
            .jobs
            .iter()
            .map(|j| j.as_rigid().map(|(p, t)| (p, t.clone())).unwrap())
            .collect();
        let sc = Scenario::new(vec![1, 0, 2, 1, 0]);
        for pr in Priority::ALL {
            let a = run(&inst, &sc, &mut Greedy::new(&keys, 4, pr, 3)).unwrap();
            let b = run(&inst, &sc, &mut RList::new(0, &keys, 4, pr, 3)).unwrap();
            check(&inst, &sc, &a.schedule).unwrap();
            assert_eq!(a.schedule.attempts, b.schedule.attempts, "{pr}");
        }
    }
}
