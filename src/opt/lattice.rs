//! The makespan lattice: the values a makespan can take, so that every lower bound may be
//! rounded up to the next one (and every deadline "below U" down to the previous one).
//!
//! # Why every schedule's makespan lies in the lattice
//! In a *semi-active* schedule every attempt starts at 0 or at the end of another attempt
//! (otherwise it could start earlier, the rest fixed). Follow the attempt that ends last back
//! to the attempt whose end is its start, and so on until an attempt that starts at 0: the
//! makespan is the sum of the durations of that chain of distinct attempts. So it lies in
//!
//!   R = { Σ_{a ∈ C} d(a) : C a set of attempts, each attempt a on one of its options },
//!
//! a subset-sum set over the attempts in which each attempt adds 0 or one of its option's
//! durations. The optimum is the makespan of a semi-active schedule (left shifts never raise
//! it), so OPT ∈ R; and every leaf of the exact search is semi-active too (it starts attempts
//! only at 0 and at ends of attempts, see [`super::search`]). Hence:
//! - a lower bound L on OPT (or on every leaf of a subtree) may be raised to min{r ∈ R : r ≥ L};
//! - "a schedule of makespan ≤ T" is "a schedule of makespan ≤ max{r ∈ R : r ≤ T}", which
//!   tightens the deadline-area test ([`super::bounds::AreaHull`]) of a target T.
//!
//! This is the subset-sum rounding of bin-packing and P||C_max bounds, for moldable chains.
//! It bites when the durations are coarse against the common denominator (the scale): the
//! paper's models have rational times whose sums leave most scaled instants unreachable.
//!
//! R is kept as a bit set over 0..=H for a horizon H (the incumbent's makespan: nothing above
//! it matters); the dynamic program costs Σ_j k_j·|options_j| shifted ORs of H/64 words.
//!
//! # The area budget of a makespan (moldable jobs)
//! A schedule of makespan T has total area at most P·T. Every attempt costs at least its job's
//! least area a_j, and an attempt on option o costs e(o) = p_o·d_o − a_j more. The chain of the
//! argument above ends at T and consists of distinct attempts, so
//!
//!   A_min + g(T) ≤ P·T,  A_min = Σ_j k_j·a_j,  g(T) = min{ Σ_{a ∈ C} e(a) : C a chain of R
//!   whose durations sum to exactly T },
//!
//! and T ∉ R' = { T ∈ R : A_min + g(T) ≤ P·T } is no schedule's makespan. R' replaces R in
//! every use above (it is a property of every semi-active schedule, leaves included). It bites
//! when the energy bound is nearly tight: the makespans reachable on lean options are coarse,
//! and the fine sums need a wide, costlier option on the chain (paper's models P = 4, A = 16,
//! seed 0: energy bound 237/4, R holds 475/8, but the only chains summing to it need ≥ 1 unit of
//! extra area when the budget is 1/2: OPT = 119/2). g is a min-cost group knapsack over the
//! attempts (O(Σ_j k_j·|options_j|·H)), computed only within [`MAX_BUDGET_SPAN`] and
//! [`MAX_BUDGET_WORK`] and only when some option costs extra area (a rigid instance has g = 0
//! on R).
use super::problem::{Int, IntProblem};

/// Largest horizon (scaled units) for which the lattice is built: 2^24 bits = 2 MiB.
pub const MAX_BITS: Int = 1 << 24;

/// Largest horizon (scaled units) for which the area budget is applied: 2^21 costs of 8 bytes.
pub const MAX_BUDGET_SPAN: Int = 1 << 21;
/// Largest work Σ_j k_j·|options_j|·H of the area budget's knapsack (bounded because the
/// lattice is built once per search, i.e. up to four times per solve).
pub const MAX_BUDGET_WORK: Int = 1 << 26;

/// The reachable makespans R' ∩ [0, H] (see the module documentation).
#[derive(Debug, Clone)]
pub struct Lattice {
    bits: Vec<u64>,
    horizon: Int,
}

impl Lattice {
    /// R ∩ [0, `horizon`]; `None` when the horizon is negative or above [`MAX_BITS`] (callers
    /// then round nothing).
    pub fn new(prob: &IntProblem, horizon: Int) -> Option<Lattice> {
        if !(0..MAX_BITS).contains(&horizon) {
            return None;
        }
        let words = (horizon / 64 + 1) as usize;
        let mut bits = vec![0u64; words];
        bits[0] = 1;
        let mut next = vec![0u64; words];
        for job in &prob.jobs {
            // Distinct durations only: two options of equal duration add the same sums.
            // Durations above the horizon shift every bit out (and would not fit a shift count).
            let mut durs: Vec<Int> = (job.options.iter().map(|o| o.dur))
                .filter(|&d| d <= horizon)
                .collect();
            durs.sort_unstable();
            durs.dedup();
            for _ in 0..job.attempts {
                next.copy_from_slice(&bits);
                for &d in &durs {
                    or_shifted(&mut next, &bits, d);
                }
                std::mem::swap(&mut bits, &mut next);
            }
        }
        let mut l = Lattice { bits, horizon };
        l.clear_above_horizon();
        l.clear_over_budget(prob);
        Some(l)
    }

    /// Removes from R the T with A_min + g(T) > P·T (the area budget, see the module doc).
    fn clear_over_budget(&mut self, prob: &IntProblem) {
        let extra = |j: &super::problem::IntJob, o: &super::problem::Opt| {
            Int::from(o.procs).saturating_mul(o.dur) - j.min_area
        };
        let costly = prob
            .jobs
            .iter()
            .any(|j| j.options.iter().any(|o| extra(j, o) > 0));
        let items: Int = prob
            .jobs
            .iter()
            .map(|j| Int::from(j.attempts) * j.options.len() as Int)
            .sum();
        if !costly
            || self.horizon > MAX_BUDGET_SPAN
            || items.saturating_mul(self.horizon) > MAX_BUDGET_WORK
        {
            return;
        }
        // g[s]: the least extra area of a set of attempts with durations summing to s. Sums
        // saturate, which can only lower a cost, i.e. keep a makespan: sound.
        let h = self.horizon as usize;
        let mut g = vec![Int::MAX; h + 1];
        g[0] = 0;
        for job in &prob.jobs {
            for _ in 0..job.attempts {
                // Downwards, so that g[s − d] is still the value before this attempt.
                for s in (1..=h).rev() {
                    for o in &job.options {
                        // A duration above s (possibly above usize) adds no sum ≤ s.
                        let Some(d) = usize::try_from(o.dur).ok().filter(|&d| d <= s) else {
                            continue;
                        };
                        if g[s - d] != Int::MAX {
                            g[s] = g[s].min(g[s - d].saturating_add(extra(job, o)));
                        }
                    }
                }
            }
        }
        let a_min: i128 = prob
            .jobs
            .iter()
            .map(|j| i128::from(j.attempts) * i128::from(j.min_area))
            .sum();
        let cap = i128::from(prob.procs);
        // 0 stays (the empty chain; `round_down` relies on it).
        for (s, &cost) in g.iter().enumerate().skip(1) {
            let budget = cap * s as i128 - a_min;
            if self.contains(s as Int) && i128::from(cost) > budget {
                self.bits[s / 64] &= !(1u64 << (s % 64));
            }
        }
    }

    /// A lower bound `lb` raised to the lattice of horizon `horizon` (unchanged when the
    /// horizon is too long for the bit set): the root rounding both [`crate::opt::solve`] and the
    /// search apply.
    pub fn round_bound(prob: &IntProblem, horizon: Int, lb: Int) -> Int {
        // default: no lattice (horizon too long for its bit set) rounds nothing
        Lattice::new(prob, horizon).map_or(lb, |l| l.round_up(lb))
    }

    fn clear_above_horizon(&mut self) {
        let used = (self.horizon % 64 + 1) as u32;
        if used < 64 {
            if let Some(last) = self.bits.last_mut() {
                *last &= (1u64 << used) - 1;
            }
        }
    }

    /// True when `x` ∈ R (false outside [0, H]).
    pub fn contains(&self, x: Int) -> bool {
        (0..=self.horizon).contains(&x) && self.bits[(x / 64) as usize] >> (x % 64) & 1 == 1
    }

    /// min{r ∈ R : r ≥ x}, or `x` itself when no member of R ∩ [0, H] is ≥ x (above the
    /// horizon nothing is known, and x is still a valid bound).
    pub fn round_up(&self, x: Int) -> Int {
        if x > self.horizon {
            return x;
        }
        let from = x.max(0);
        let mut w = (from / 64) as usize;
        let mut word = self.bits[w] & (u64::MAX << (from % 64));
        loop {
            if word != 0 {
                return w as Int * 64 + Int::from(word.trailing_zeros());
            }
            w += 1;
            match self.bits.get(w) {
                Some(&b) => word = b,
                None => return x,
            }
        }
    }

    /// max{r ∈ R : r ≤ x} for x ≤ H (0 ∈ R, so it exists for x ≥ 0); `x` itself when x is
    /// above the horizon (nothing is known there) or negative.
    pub fn round_down(&self, x: Int) -> Int {
        if x > self.horizon || x < 0 {
            return x;
        }
        let mut w = (x / 64) as usize;
        let keep = (x % 64) as u32; // bits 0..=keep of the first word
        let mut word = if keep == 63 {
            self.bits[w]
        } else {
            self.bits[w] & ((1u64 << (keep + 1)) - 1)
        };
        loop {
            if word != 0 {
                return w as Int * 64 + 63 - Int::from(word.leading_zeros());
            }
            if w == 0 {
                return x;
            }
            w -= 1;
            word = self.bits[w];
        }
    }
}

/// dst |= src << d (bit shift over the whole array, bits past the end dropped).
fn or_shifted(dst: &mut [u64], src: &[u64], d: Int) {
    let (ws, bs) = ((d / 64) as usize, (d % 64) as u32);
    let n = dst.len();
    for i in (ws..n).rev() {
        let lo = src[i - ws];
        let mut v = if bs == 0 { lo } else { lo << bs };
        if bs != 0 && i > ws {
            v |= src[i - ws - 1] >> (64 - bs);
        }
        dst[i] |= v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Instance, Scenario};
    use crate::Time;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn golden_rigid_sums() {
        // Durations 3 (two attempts) and 5 (one attempt): R = {0, 3, 5, 6, 8, 11}.
        let t = Time::from_int;
        let inst = Instance::rigid(2, &[(1, t(3)), (1, t(5))]).unwrap();
        let prob = super::super::problem::build(&inst, &Scenario::new(vec![1, 0])).unwrap();
        let l = Lattice::new(&prob, 12).unwrap();
        let members: Vec<Int> = (0..=12).filter(|&x| l.contains(x)).collect();
        assert_eq!(members, vec![0, 3, 5, 6, 8, 11]);
        assert_eq!(l.round_up(9), 11);
        assert_eq!(l.round_up(11), 11);
        assert_eq!(l.round_up(12), 12); // nothing reachable in [12, 12]: unchanged
        assert_eq!(l.round_up(-2), 0);
        assert_eq!(l.round_down(10), 8);
        assert_eq!(l.round_down(2), 0);
        assert_eq!(l.round_down(13), 13); // above the horizon: unchanged
        assert!(!l.contains(13));
    }

    #[test]
    fn raises_the_root_bound() {
        // Four width-1 jobs of 3 on P = 3: the energy bound is ⌈12/3⌉ = 4, but every makespan
        // is a sum of 3s, so OPT ≥ 6 (= OPT: three jobs side by side, then the fourth).
        let t = Time::from_int;
        let inst = Instance::rigid(3, &[(1, t(3)), (1, t(3)), (1, t(3)), (1, t(3))]).unwrap();
        let sc = Scenario::none(4);
        let prob = super::super::problem::build(&inst, &sc).unwrap();
        let e = super::super::bounds::energies(&prob);
        assert_eq!(super::super::bounds::root(&prob, &e), 4);
        assert_eq!(Lattice::new(&prob, 9).unwrap().round_up(4), 6);
        let r = super::super::solve(&inst, &sc, &super::super::OptConfig::default()).unwrap();
        assert_eq!(r.stats.root_lower_bound, t(6));
        assert_eq!(r.makespan, t(6));
        assert!(r.is_optimal());
    }

    #[test]
    fn area_budget_raises_the_root_bound_to_opt() {
        // P = 2: A runs 2 on one processor or 3/2 on two (area 3); B and C are rigid, 3 and 2
        // on one processor. Scaled by 2: A 4 or 3 (areas 4, 6), B 6, C 4; A_min = 14, so the
        // energy bound is 7 (7/2), and R holds 7 = 3 + 4 — but only with A wide, 2 units of
        // extra area where P·7 − 14 = 0 leaves none. R' starts at 8 (4 = OPT: B beside A, C).
        let t = Time::from_int;
        let a_times = vec![t(2), Time::new(3, 2).unwrap()];
        let a = crate::model::Job {
            name: "A".into(),
            profile: crate::model::Profile::Moldable {
                model: crate::model::SpeedupModel::Arbitrary {
                    times: a_times.clone(),
                },
                times: a_times,
            },
        };
        let jobs = vec![
            a,
            crate::model::Job::rigid("B", 1, t(3)),
            crate::model::Job::rigid("C", 1, t(2)),
        ];
        let inst = Instance::new(2, jobs).unwrap();
        let sc = Scenario::none(3);
        let prob = super::super::problem::build(&inst, &sc).unwrap();
        assert_eq!(prob.scale, 2);
        let e = super::super::bounds::energies(&prob);
        assert_eq!(super::super::bounds::root(&prob, &e), 7);
        let l = Lattice::new(&prob, 12).unwrap();
        // R ∩ [0, 12] = {0, 3, 4, 6, 7, 8, 9, 10}; the budget 2·s − 14 keeps 0 (by
        // convention), 8 (A lean + C), 9 (A wide + B: extra 2 ≤ 4) and 10.
        let members: Vec<Int> = (0..=12).filter(|&x| l.contains(x)).collect();
        assert_eq!(members, vec![0, 8, 9, 10]);
        assert_eq!(l.round_up(7), 8);
        let r = super::super::solve(&inst, &sc, &super::super::OptConfig::default()).unwrap();
        assert_eq!(r.stats.root_lower_bound, t(4));
        assert_eq!(r.makespan, t(4));
        assert!(r.is_optimal());
    }

    #[test]
    fn matches_enumeration_across_word_boundaries() {
        // Random duration sets, horizons across several 64-bit words: the bit set equals the
        // set of sums enumerated directly, and the roundings agree with a linear scan.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut next = |m: u64| rng.random_range(0..m);
        for case in 0..200 {
            let n = 1 + next(3) as usize;
            let jobs: Vec<(u32, Time)> = (0..n)
                .map(|_| (1, Time::from_int(1 + next(90) as i64)))
                .collect();
            let f: Vec<u32> = (0..n).map(|_| next(3) as u32).collect();
            let inst = Instance::rigid(2, &jobs).unwrap();
            let prob = super::super::problem::build(&inst, &Scenario::new(f.clone())).unwrap();
            let h = 1 + next(400) as Int;
            let l = Lattice::new(&prob, h).unwrap();
            let mut sums = vec![0 as Int];
            for j in &prob.jobs {
                for _ in 0..j.attempts {
                    let more: Vec<Int> = sums.iter().map(|s| s + j.options[0].dur).collect();
                    sums.extend(more);
                }
            }
            for x in 0..=h + 2 {
                let member = x <= h && sums.contains(&x);
                assert_eq!(l.contains(x), member, "case {case} x={x}");
                let up = (x..=h).find(|y| sums.contains(y)).unwrap_or(x);
                assert_eq!(l.round_up(x), up, "case {case} x={x}");
                let down = if x > h {
                    x
                } else {
                    (0..=x).rev().find(|y| sums.contains(y)).unwrap_or(x)
                };
                assert_eq!(l.round_down(x), down, "case {case} x={x}");
            }
        }
    }
}
