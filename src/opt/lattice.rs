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
use super::problem::IntProblem;

/// Largest horizon (scaled units) for which the lattice is built: 2^24 bits = 2 MiB.
pub const MAX_BITS: i64 = 1 << 24;

/// The reachable makespans R ∩ [0, H] (see the module documentation).
#[derive(Debug, Clone)]
pub struct Lattice {
    bits: Vec<u64>,
    horizon: i64,
}

impl Lattice {
    /// R ∩ [0, `horizon`]; `None` when the horizon is negative or above [`MAX_BITS`] (callers
    /// then round nothing).
    pub fn new(prob: &IntProblem, horizon: i64) -> Option<Lattice> {
        if !(0..MAX_BITS).contains(&horizon) {
            return None;
        }
        let words = (horizon / 64 + 1) as usize;
        let mut bits = vec![0u64; words];
        bits[0] = 1;
        let mut next = vec![0u64; words];
        for job in &prob.jobs {
            // Distinct durations only: two options of equal duration add the same sums.
            let mut durs: Vec<i64> = job.options.iter().map(|o| o.dur).collect();
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
        Some(l)
    }

    /// A lower bound `lb` raised to the lattice of horizon `horizon` (unchanged when the
    /// horizon is too long for the bit set): the root rounding both [`super::solve`] and the
    /// search apply.
    pub fn round_bound(prob: &IntProblem, horizon: i64, lb: i64) -> i64 {
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
    pub fn contains(&self, x: i64) -> bool {
        (0..=self.horizon).contains(&x) && self.bits[(x / 64) as usize] >> (x % 64) & 1 == 1
    }

    /// min{r ∈ R : r ≥ x}, or `x` itself when no member of R ∩ [0, H] is ≥ x (above the
    /// horizon nothing is known, and x is still a valid bound).
    pub fn round_up(&self, x: i64) -> i64 {
        if x > self.horizon {
            return x;
        }
        let from = x.max(0);
        let mut w = (from / 64) as usize;
        let mut word = self.bits[w] & (u64::MAX << (from % 64));
        loop {
            if word != 0 {
                return w as i64 * 64 + i64::from(word.trailing_zeros());
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
    pub fn round_down(&self, x: i64) -> i64 {
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
                return w as i64 * 64 + 63 - i64::from(word.leading_zeros());
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
fn or_shifted(dst: &mut [u64], src: &[u64], d: i64) {
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
        let members: Vec<i64> = (0..=12).filter(|&x| l.contains(x)).collect();
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
            let h = 1 + next(400) as i64;
            let l = Lattice::new(&prob, h).unwrap();
            let mut sums = vec![0i64];
            for j in &prob.jobs {
                for _ in 0..j.attempts {
                    let more: Vec<i64> = sums.iter().map(|s| s + j.options[0].dur).collect();
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
