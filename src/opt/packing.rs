//! A packing heuristic seeded with the lower bound, for instances whose optimum is a *perfect
//! packing* (every processor busy until the end), where the chronological search of
//! [`super::search`] drowns in the orders of many small identical jobs.
//!
//! The witness of the rigid paper's Proposition 4 (Section 4.4) is the model case: P sets of
//! one-processor jobs whose optimum (the proof's schedule) runs set i alone on processor i and
//! meets the energy bound A(f)/P exactly.
//!
//! # The packing
//! Pick a width w: the largest smallest width over the jobs (w = 1 when every job may run on
//! one processor, e.g. all moldable jobs and the witness above), and let job j run *all* its
//! f_j + 1 attempts back to back on its fastest option of width ≤ w, for L_j = (f_j + 1)·d_j.
//! The P processors form B = ⌊P / w⌋ disjoint groups of w; a job runs inside one group. Then a
//! schedule is an assignment of the chains to the groups (a bin packing), each group running its
//! chains one after the other from 0, and its makespan is the largest group load. Any packing
//! with loads ≤ C is therefore a feasible schedule of makespan ≤ C: each attempt uses at most w
//! of its group's processors, the groups are disjoint, a job's attempts are consecutive.
//!
//! The heuristic runs an exact bin-packing DFS with capacity C = the root lower bound (the
//! target "seeded with the bound"): if it finds a packing, its makespan equals a lower bound and
//! is optimal, and the search has nothing left to prove. It is a heuristic, not a method: the
//! optimum need not have this shape (attempts of one job may switch processors, groups may
//! share), so a failure proves nothing, and the DFS stops after a node budget.
//!
//! # The DFS (why it is exact for the packing question)
//! Chains of equal length are interchangeable, so they form *types* with a count, and a bin
//! takes a count of each type (largest type first), never one assignment per job. Bins are
//! filled one after the other; the largest chain left must go into some bin, and bins are
//! interchangeable, so it is put into the current bin (the classic symmetry cut of bin packing).
//! A partial packing is cut when its wasted capacity (C minus the load of every closed bin)
//! exceeds the slack B·C − Σ L_j, which no completion can recover.
use super::greedy::{IntAttempt, IntSchedule};
use super::problem::{Int, IntProblem};

/// Default node budget of the packing DFS (a short try before the improvement and the exact
/// methods, small beside their budgets).
pub const DEFAULT_NODES: u64 = 200_000;

/// A packing of makespan exactly ≤ `target`, if the DFS finds one within `node_limit` nodes.
pub fn pack_to(prob: &IntProblem, target: Int, node_limit: u64) -> Option<IntSchedule> {
    let w = prob.jobs.iter().map(|j| j.min_procs).max()?;
    let bins = Int::from(prob.procs / w.max(1));
    if bins == 0 || target <= 0 {
        return None;
    }
    // Per job: the fastest option of width ≤ w (it exists: min_procs ≤ w) and its chain length.
    let mut chains: Vec<(Int, usize, u32, Int)> = Vec::with_capacity(prob.jobs.len());
    for (j, job) in prob.jobs.iter().enumerate() {
        let o = job
            .options
            .iter()
            .filter(|o| o.procs <= w)
            .min_by_key(|o| o.dur)?;
        let len = o.dur.checked_mul(Int::from(job.attempts))?;
        if len > target {
            return None;
        }
        chains.push((len, j, o.procs, o.dur));
    }
    let total: Int = chains.iter().map(|c| c.0).sum();
    let slack = bins.checked_mul(target)? - total;
    if slack < 0 {
        return None;
    }
    // Types: distinct lengths, longest first, with their counts.
    chains.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut types: Vec<(Int, usize)> = Vec::new();
    for c in &chains {
        match types.last_mut() {
            Some((len, count)) if *len == c.0 => *count += 1,
            _ => types.push((c.0, 1)),
        }
    }
    let mut dfs = Dfs {
        types: &types,
        cap: target,
        bins,
        slack,
        left: types.iter().map(|t| t.1).collect(),
        take: Vec::new(),
        nodes: 0,
        node_limit,
    };
    if !dfs.bin(0, 0) {
        return None;
    }
    // Turn the counts per bin into a schedule: bin b uses processors [b·w, (b+1)·w) implicitly;
    // its chains run back to back from 0, in the order of `chains`.
    let mut next_of_type: Vec<usize> = Vec::with_capacity(types.len());
    let mut k = 0;
    for t in &types {
        next_of_type.push(k);
        k += t.1;
    }
    let mut out = IntSchedule::default();
    for counts in &dfs.take {
        let mut clock: Int = 0;
        for (ti, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                let (_, j, procs, dur) = chains[next_of_type[ti]];
                next_of_type[ti] += 1;
                for a in 1..=prob.jobs[j].attempts {
                    out.attempts.push(IntAttempt {
                        job: j,
                        attempt: a,
                        procs,
                        start: clock,
                        dur,
                    });
                    clock += dur;
                }
            }
        }
        out.makespan = out.makespan.max(clock);
    }
    Some(out)
}

struct Dfs<'a> {
    /// (chain length, count), longest first.
    types: &'a [(Int, usize)],
    cap: Int,
    bins: Int,
    /// Capacity that may stay unused over all bins.
    slack: Int,
    /// Chains of each type not yet packed.
    left: Vec<usize>,
    /// Per closed or open bin: how many chains of each type it holds.
    take: Vec<Vec<usize>>,
    nodes: u64,
    node_limit: u64,
}

impl Dfs<'_> {
    /// Opens bin number `b` with `waste` capacity already lost; true when everything is packed.
    fn bin(&mut self, b: Int, waste: Int) -> bool {
        let Some(first) = self.left.iter().position(|&c| c > 0) else {
            return true;
        };
        if b >= self.bins {
            return false;
        }
        // The largest chain left goes into this bin (bins are interchangeable).
        self.left[first] -= 1;
        let mut counts = vec![0; self.types.len()];
        counts[first] = 1;
        self.take.push(counts);
        let ok = self.fill(b, first, self.cap - self.types[first].0, waste);
        if !ok {
            self.take.pop();
            self.left[first] += 1;
        }
        ok
    }

    /// Chooses how many chains of type `ti` and later go into bin `b` with `room` left.
    fn fill(&mut self, b: Int, ti: usize, room: Int, waste: Int) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return false;
        }
        if ti == self.types.len() {
            // Close the bin: its free room is lost for good.
            let waste = waste + room;
            return waste <= self.slack && self.bin(b + 1, waste);
        }
        let len = self.types[ti].0;
        // default: a negative room (not reached: room >= 0 by construction) holds no chain
        let most = self.left[ti].min(usize::try_from(room / len).unwrap_or(0));
        // Most first: fuller bins waste less.
        for k in (0..=most).rev() {
            self.left[ti] -= k;
            if let Some(t) = self.take.last_mut() {
                t[ti] += k;
            }
            let ok = self.fill(b, ti + 1, room - len * k as Int, waste);
            if ok {
                return true;
            }
            if let Some(t) = self.take.last_mut() {
                t[ti] -= k;
            }
            self.left[ti] += k;
            if self.nodes > self.node_limit {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::problem::rigid_for_tests as prob;
    use super::*;
    use crate::model::{Instance, Scenario};
    use crate::Time;

    #[test]
    fn packs_chains_exactly_to_the_bound() {
        // P = 2, chains 3·1 (a job failing twice), 2, 1, 2 and 2·1 (a job failing once).
        // Total 3 + 2 + 1 + 2 + 2 = 10 = 2·5: a perfect packing at C = 5 exists
        // ({3, 2}, {1, 2, 2}) and is found; none exists at C = 4.
        let p = prob(
            2,
            &[(1, 1), (1, 2), (1, 1), (1, 2), (1, 1)],
            vec![2, 0, 0, 0, 1],
        );
        let s = pack_to(&p, 5, DEFAULT_NODES).unwrap();
        assert_eq!(s.makespan, 5);
        assert_eq!(s.attempts.len(), 3 + 1 + 1 + 1 + 2);
        let inst = Instance::rigid(2, &[1, 2, 1, 2, 1].map(|t| (1, Time::from_int(t)))).unwrap();
        let sc = Scenario::new(vec![2, 0, 0, 0, 1]);
        let sched = super::super::to_schedule(&inst, &p, &s, "packing");
        assert_eq!(
            crate::check::check(&inst, &sc, &sched).unwrap(),
            Time::from_int(5)
        );
        assert!(pack_to(&p, 4, DEFAULT_NODES).is_none());
    }

    #[test]
    fn wide_jobs_pack_in_groups_and_odd_sizes_fail() {
        // Widths 2 on P = 5: two groups of 2 (one processor never used); chains 4, 2, 2.
        let p = prob(5, &[(2, 4), (2, 2), (2, 2)], vec![0, 0, 0]);
        assert_eq!(pack_to(&p, 4, DEFAULT_NODES).unwrap().makespan, 4);
        assert!(pack_to(&p, 3, DEFAULT_NODES).is_none());
        // Three chains of 3 on two processors: no packing at 4 (the loads would be 6 and 3).
        let p = prob(2, &[(1, 3), (1, 3), (1, 3)], vec![0, 0, 0]);
        assert!(pack_to(&p, 5, DEFAULT_NODES).is_none());
        assert_eq!(pack_to(&p, 6, DEFAULT_NODES).unwrap().makespan, 6);
        // A node budget of 0 gives up at once.
        assert!(pack_to(&p, 6, 0).is_none());
    }
}
