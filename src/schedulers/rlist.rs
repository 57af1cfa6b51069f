//! R-LIST(m), rigid paper Algorithm 1 (Section 4.1): list scheduling with m reservations and
//! backfilling, for rigid jobs that fail and run again.
//!
//! The queue Q holds the jobs waiting to run, in priority order; a job whose attempt fails goes
//! back into Q at its priority (it keeps its rank, so "insert_with_priority" is exact).
//!
//! - [`Greedy`] is R-LIST(m = 0) (GREEDY, Proposition 2): at every completion, scan Q in order
//!   and start every job that fits in the free processors. Free processors only decrease during
//!   the scan, so a skipped job never fits later in the same scan: the scan is "repeatedly start
//!   the first queued job with p_j ≤ free". A min-segment-tree over queue positions (leaf = p_j
//!   of a queued job, +∞ otherwise) finds that job in O(log n); each start, each reinsertion
//!   costs O(log n), and an event at which nothing fits costs O(1). No rescans of Q.
//! - [`RList`] is R-LIST(m) for any m ≥ 1 (RESERVATION, Proposition 1), with m = |Q| giving
//!   conservative backfilling and m = 1 EASY. As Section 4.1 prescribes for the analysis, every
//!   completion deletes all reservations and makes a fresh round from the current queue: the first
//!   m queued jobs, in order, each get the earliest start at which they fit in the processor
//!   profile (running attempts + reservations already made) for their whole duration, so no
//!   reservation delays a higher-priority one; then every later queued job, in order, starts now
//!   if it fits in that profile over [now, now + t_j), i.e. it delays no reservation. A
//!   reservation that falls on the current instant is a start now.
//!
//! Reading taken: "without delaying the reservation of J_j'" is checked against the whole profile
//! of reservations (a backfilled job may outlast a reservation if it uses processors that the
//! reservation leaves free), which is the standard EASY/conservative rule and what Proposition 1's
//! proof uses (a job not started at t is blocked by the processors in use at t).
//!
//! Second reading taken: the m reservations go to the first m jobs of Q *as it stands at the
//! completion*, exactly as Algorithm 1's loop `for j = 1..min(m, |Q|)` is written, including
//! jobs whose earliest reservation is now (they start now and use up one of the m). Production
//! EASY schedulers instead start jobs from the head while they fit and give the reservation to
//! the first job that does not; the two differ for 1 ≤ m < |Q| (see
//! `tests/cases/easy_vs_conservative.json`, where literal EASY backfills X at 0). Proposition 1's
//! proof holds for both: the first job of Q not started at t is blocked by processors at t, since
//! every higher-priority job started at t and no reservation lies before it.
//!
//! Both schedulers reset their state on the engine's first call (time 0, no completion), so one
//! value can run many scenarios.
use super::priority::{self, Priority};
use crate::engine::{Ctx, Outcome, Scheduler};
use crate::error::Result;
use crate::time::Time;

/// A min-segment-tree over queue positions: leaf = processors of the queued job, `u32::MAX` when
/// the position is not queued. Answers "first position whose value is ≤ x" in O(log n).
#[derive(Debug, Clone)]
struct MinTree {
    size: usize,
    v: Vec<u32>,
}

impl MinTree {
    fn new(n: usize) -> MinTree {
        let size = n.next_power_of_two().max(1);
        MinTree {
            size,
            v: vec![u32::MAX; 2 * size],
        }
    }

    /// Sets every leaf from `leaves` (others absent) and rebuilds in O(n).
    fn fill(&mut self, leaves: &[u32]) {
        let size = self.size;
        self.v[size..size + leaves.len()].copy_from_slice(leaves);
        self.v[size + leaves.len()..].fill(u32::MAX);
        for i in (1..size).rev() {
            self.v[i] = self.v[2 * i].min(self.v[2 * i + 1]);
        }
    }

    fn set(&mut self, pos: usize, val: u32) {
        let mut i = pos + self.size;
        self.v[i] = val;
        i /= 2;
        while i >= 1 {
            let m = self.v[2 * i].min(self.v[2 * i + 1]);
            if self.v[i] == m {
                break; // ancestors are unchanged too
            }
            self.v[i] = m;
            i /= 2;
        }
    }

    /// The first (leftmost) position whose value is ≤ `x`.
    fn first_le(&self, x: u32) -> Option<usize> {
        if self.v[1] > x {
            return None;
        }
        let mut i = 1;
        while i < self.size {
            i = if self.v[2 * i] <= x { 2 * i } else { 2 * i + 1 };
        }
        Some(i - self.size)
    }
}

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
        Greedy::with_order(order, keys, format!("R-LIST(m=0)/{priority}"))
    }

    /// GREEDY with an explicit queue order (`order[0]` first), e.g. a peer file's own order.
    pub fn with_order(order: Vec<usize>, keys: &[(u32, Time)], name: String) -> Greedy {
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

/// The free processors over time from `now` on, as a step function: `steps[k] = (s_k, free_k)`
/// means `free_k` processors are free on [s_k, s_{k+1}) (the last step lasts forever).
#[derive(Debug, Clone)]
struct Profile {
    steps: Vec<(Time, u32)>,
}

impl Profile {
    /// From the free processors now and the (end, procs) of the attempts running.
    fn new(now: &Time, free: u32, mut ends: Vec<(Time, u32)>) -> Profile {
        ends.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut steps = vec![(now.clone(), free)];
        let mut cur = free;
        for (t, p) in ends {
            cur += p;
            match steps.last_mut() {
                Some(last) if last.0 == t => last.1 = cur,
                _ => steps.push((t, cur)),
            }
        }
        Profile { steps }
    }

    /// Whether `p` processors are free on [steps[k].0, steps[k].0 + t).
    fn fits_from(&self, k: usize, p: u32, t: &Time) -> bool {
        let end = &self.steps[k].0 + t;
        self.steps[k..]
            .iter()
            .take_while(|s| s.0 < end)
            .all(|s| s.1 >= p)
    }

    /// The first step at which `p` processors stay free for `t`. The last step always has all
    /// processors free, so there is one.
    fn earliest(&self, p: u32, t: &Time) -> usize {
        (0..self.steps.len())
            .find(|&k| self.fits_from(k, p, t))
            .unwrap_or(self.steps.len() - 1)
    }

    /// Takes `p` processors on [steps[k].0, steps[k].0 + t) (which must fit).
    fn reserve(&mut self, k: usize, p: u32, t: &Time) {
        let end = &self.steps[k].0 + t;
        // Split at `end` so that the reservation stops exactly there.
        let pos = self.steps.partition_point(|s| s.0 < end);
        if pos == self.steps.len() || self.steps[pos].0 != end {
            let before = self.steps[pos - 1].1;
            self.steps.insert(pos, (end, before));
        }
        for s in &mut self.steps[k..pos] {
            s.1 -= p;
        }
    }
}

/// R-LIST(m) for m ≥ 1 (m = `usize::MAX` stands for m = |Q|), reservations recomputed from
/// scratch at every completion. With m = 0 it is GREEDY too (the reference the fast [`Greedy`]
/// is tested against).
#[derive(Debug, Clone)]
pub struct RList {
    name: String,
    m: usize,
    order: Vec<usize>,
    rank: Vec<usize>,
    keys: Vec<(u32, Time)>,
    /// queued[pos]: the job at queue position pos waits in Q.
    queued: Vec<bool>,
}

impl RList {
    /// R-LIST(m) over rigid jobs with keys `(p_j, t_j)`.
    pub fn new(
        m: usize,
        keys: &[(u32, Time)],
        platform: u32,
        priority: Priority,
        seed: u64,
    ) -> RList {
        let order = priority::order(priority, keys, platform, seed);
        let rank = priority::ranks(&order);
        let mname = if m == usize::MAX {
            "|Q|".to_string()
        } else {
            m.to_string()
        };
        RList {
            name: format!("R-LIST(m={mname})/{priority}"),
            m,
            queued: vec![false; order.len()],
            order,
            rank,
            keys: keys.to_vec(),
        }
    }
}

impl Scheduler for RList {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        if ctx.completions().is_empty() {
            self.queued.fill(true);
        }
        for c in ctx.completions() {
            if c.outcome == Outcome::Failed {
                self.queued[self.rank[c.job]] = true;
            }
        }
        let now = ctx.now().clone();
        let ends: Vec<(Time, u32)> = ctx.running().map(|r| (r.end.clone(), r.procs)).collect();
        let mut profile = Profile::new(&now, ctx.free(), ends);
        let mut reserved = 0usize;
        let mut starts = Vec::new();
        for pos in 0..self.order.len() {
            if !self.queued[pos] {
                continue;
            }
            let j = self.order[pos];
            let (p, t) = (self.keys[j].0, &self.keys[j].1);
            if reserved < self.m {
                // A fresh reservation, the earliest that delays no higher-priority one.
                reserved += 1;
                let k = profile.earliest(p, t);
                profile.reserve(k, p, t);
                if k == 0 {
                    starts.push(pos);
                }
            } else if profile.fits_from(0, p, t) {
                // Backfilling: starts now, delays no reservation.
                profile.reserve(0, p, t);
                starts.push(pos);
            }
        }
        for pos in starts {
            self.queued[pos] = false;
            let j = self.order[pos];
            ctx.start(j, self.keys[j].0)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;
    use crate::engine::run;
    use crate::model::{Instance, Scenario};

    fn t(n: i64) -> Time {
        Time::from_int(n)
    }

    #[test]
    fn min_tree() {
        let mut tr = MinTree::new(5);
        tr.fill(&[4, 3, 5, 1, 2]);
        assert_eq!(tr.first_le(3), Some(1));
        assert_eq!(tr.first_le(0), None);
        tr.set(1, u32::MAX);
        assert_eq!(tr.first_le(3), Some(3));
        tr.set(3, u32::MAX);
        assert_eq!(tr.first_le(3), Some(4));
        tr.set(1, 3);
        assert_eq!(tr.first_le(3), Some(1));
    }

    #[test]
    fn profile_reservations() {
        // now = 0, 1 free; a job on 2 processors ends at 3; P = 3.
        let mut pr = Profile::new(&t(0), 1, vec![(t(3), 2)]);
        assert_eq!(pr.earliest(2, &t(1)), 1);
        pr.reserve(1, 2, &t(1)); // [3,4) has 1 free
        assert!(pr.fits_from(0, 1, &t(10)));
        assert!(!pr.fits_from(0, 2, &t(1)));
        assert_eq!(pr.steps, vec![(t(0), 1), (t(3), 1), (t(4), 3)]);
    }

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
