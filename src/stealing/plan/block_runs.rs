//! The runs of one block of the conservative-backfilling profile, summarised by threshold, so
//! that the earliest-start search ([`super::steps::Steps`]) can skip a block in which no window can
//! start, instead of walking its steps run by run (on a backlogged archive trace most
//! candidate runs are too short, and walking them one by one would dominate the search).
//!
//! For a block with steps `t[0..n)` and raw counts `v[0..n)` (the block's pending addition
//! left out, so the summary survives whole-block additions), and a threshold `q`:
//! - [`BlockRuns::longest`]`(q)` bounds from above the length of every run of counts `≥ q`
//!   that does not contain the block's last step (those end inside the block, at a known
//!   instant);
//! - [`BlockRuns::suffix_begin`]`(q)` is where the run containing the last step begins (that
//!   run continues into the next block, so its length is not known here);
//! - [`BlockRuns::first_below`]`(q, i)` is the first step from `i` on with a count below `q`,
//!   found without walking the steps when it is the block's first (a window that leaves a
//!   block's suffix run ends in the next block's prefix run) or when there is none from `i`
//!   (a window starting in the suffix run crosses the rest of its block).
//!
//! # Why `longest` is an upper bound
//! Let `R = [l, r]` be a run of counts `≥ q` with `r < n − 1`, and `i` a step of `R` where the
//! minimum `m = v[i] ≥ q` of `R` is reached. The maximal interval around `i` with counts
//! `≥ m` (bounded by the nearest strictly smaller counts on either side) contains `R`, since
//! all of `R` is `≥ m`, and lies inside the run of counts `≥ q` containing `i`, which is `R`:
//! so it *is* `R`, and its length is recorded under the threshold `m ≥ q`. `longest(q)` is the
//! maximum over every threshold `≥ q`, hence at least the length of `R`. It can exceed the
//! longest such run (a run recorded at a higher threshold may join the last step's run at
//! `q`), which only makes a skip less frequent, never wrong. A run cut short by the search's
//! own start (`not_before` inside it) is shorter still.
use super::instant::Instant;
use std::cell::RefCell;

/// An inner run as [`BlockRuns::new`] finds it: `(threshold, first step, end step)`.
type InnerRun = (i64, u32, u32);

thread_local! {
    /// The monotone stack and the inner runs of the last summary built, kept for the next
    /// one: a summary is built hundreds of thousands of times on an archive trace (a block is
    /// summarised again after every change), so these working vectors are not grown and freed
    /// each time.
    static SCRATCH: RefCell<(Vec<u32>, Vec<InnerRun>)> = const {
        RefCell::new((Vec::new(), Vec::new()))
    };
}

/// The summary of a block's runs by threshold (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct BlockRuns<K> {
    /// `mins[i]` = min of `v[i..]` (the suffix minima, non-decreasing in `i`), then
    /// `mins[n + i]` = min of `v[..=i]` (the prefix minima, non-increasing in `i`): one vector
    /// for both, as they are built and dropped together.
    mins: Vec<i64>,
    /// The suffix minima's first and last values, and the bound over every threshold (the last
    /// of `longest`), kept inline: a search passes over most blocks on these alone, without
    /// reading the vectors.
    min_all: i64,
    last: i64,
    longest_all: Option<K>,
    /// `(threshold, longest)` with thresholds strictly decreasing and `longest` the largest
    /// length of an inner run recorded at that threshold or a higher one (non-decreasing).
    longest: Vec<(i64, K)>,
}

impl<K: Instant> BlockRuns<K> {
    /// The summary of steps `t` (`t[n]` is not needed: every inner run ends at a step of the
    /// block) with raw counts `v` (same length, not empty).
    pub(super) fn new(t: &[K], v: &[i64]) -> BlockRuns<K> {
        let n = v.len();
        debug_assert!(n > 0 && t.len() == n);
        let mut mins = Vec::with_capacity(2 * n);
        mins.extend_from_slice(v);
        mins.extend_from_slice(v);
        for i in (0..n - 1).rev() {
            mins[i] = mins[i].min(mins[i + 1]);
        }
        for i in n + 1..2 * n {
            mins[i] = mins[i].min(mins[i - 1]);
        }
        // One pass of a monotone stack (non-decreasing counts): step k leaves it when a
        // strictly smaller count comes at i, so its run at threshold v[k] ends at t[i] (inner)
        // and begins after the step below it on the stack. Of equal counts only the lowest on
        // the stack gets the whole run (the others a part of it: smaller, so harmless in a
        // maximum); steps still on the stack at the end hold the last step's run (not inner).
        let longest = SCRATCH.with_borrow_mut(|(stack, by_threshold)| {
            stack.clear();
            by_threshold.clear();
            // A block holds far fewer than 2^32 steps.
            for (i, &x) in (0u32..).zip(v) {
                while let Some(&k) = stack.last().filter(|&&k| v[k as usize] > x) {
                    stack.pop();
                    let left = stack.last().map_or(0, |&b| b + 1);
                    by_threshold.push((v[k as usize], left, i));
                }
                stack.push(i);
            }
            // Equal thresholds are merged by their maximum below, so their order does not
            // matter.
            by_threshold.sort_unstable_by_key(|b| std::cmp::Reverse(b.0));
            longest_by_threshold(t, by_threshold)
        });
        BlockRuns {
            min_all: mins[0],
            last: mins[n - 1],
            longest_all: longest.last().map(|(_, l)| l.clone()),
            mins,
            longest,
        }
    }

    /// An upper bound on the length of every run of raw counts `≥ q` that ends inside the
    /// block (`None`: there is none).
    pub(super) fn longest(&self, q: i64) -> Option<&K> {
        let k = self.longest.partition_point(|(x, _)| *x >= q);
        k.checked_sub(1).map(|k| &self.longest[k].1)
    }

    /// Whether every run of raw counts `≥ q` that ends inside the block is shorter than
    /// `len`, by [`BlockRuns::longest`]; the bound over every threshold is tried first, as it
    /// needs no search and most windows sought are longer than any inner run.
    pub(super) fn all_shorter(&self, q: i64, len: &K) -> bool {
        self.longest_all.as_ref().is_none_or(|m| m < len) || self.longest(q).is_none_or(|l| l < len)
    }

    /// Where the run of raw counts `≥ q` that contains the last step begins (`None`: the last
    /// step is below `q`).
    pub(super) fn suffix_begin(&self, q: i64) -> Option<usize> {
        if self.last < q {
            return None;
        }
        if self.min_all >= q {
            return Some(0);
        }
        let suffix_min = self.suffix_min();
        let k = suffix_min.partition_point(|m| *m < q);
        (k < suffix_min.len()).then_some(k)
    }

    /// The first step at or after `i` with a raw count below `q`, as far as the summary
    /// knows it (see [`Below`]).
    pub(super) fn first_below(&self, q: i64, i: usize) -> Below {
        if self.suffix_min()[i] >= q {
            return Below::None;
        }
        if i > 0 {
            return Below::Walk;
        }
        // `suffix_min[0] < q`, so the prefix minimum drops below `q` at some step.
        Below::At(self.prefix_min().partition_point(|m| *m >= q))
    }

    fn suffix_min(&self) -> &[i64] {
        &self.mins[..self.mins.len() / 2]
    }

    fn prefix_min(&self) -> &[i64] {
        &self.mins[self.mins.len() / 2..]
    }
}

/// The bound of [`BlockRuns::longest`] by threshold, from the inner runs sorted by decreasing
/// threshold: `(threshold, longest)` with thresholds strictly decreasing and each length the
/// largest at that threshold or a higher one.
fn longest_by_threshold<K: Instant>(t: &[K], by_threshold: &[InnerRun]) -> Vec<(i64, K)> {
    let mut longest: Vec<(i64, K)> = Vec::with_capacity(by_threshold.len());
    for &(q, l, r) in by_threshold {
        let len = t[r as usize].minus(&t[l as usize]);
        match longest.last_mut() {
            Some(last) if last.0 == q => {
                if len > last.1 {
                    last.1 = len;
                }
            }
            Some(last) => {
                let len = if last.1 > len { last.1.clone() } else { len };
                longest.push((q, len));
            }
            None => longest.push((q, len)),
        }
    }
    longest
}

/// [`BlockRuns::first_below`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Below {
    /// Every count from the step asked on is at least the threshold.
    None,
    /// The first count below the threshold is at this step.
    At(usize),
    /// A count below the threshold follows, at a step the summary does not give: walk.
    Walk,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;
    use rand::{RngExt, SeedableRng};

    fn i(n: i64) -> Time {
        Time::from_int(n)
    }

    #[test]
    fn a_worked_block() {
        // Counts 3 4 1 5 5 2 4 4 at 0 1 2 4 5 7 8 9.
        let t: Vec<Time> = [0, 1, 2, 4, 5, 7, 8, 9].map(i).to_vec();
        let v = vec![3, 4, 1, 5, 5, 2, 4, 4];
        let r = BlockRuns::new(&t, &v);
        // ≥ 5: [4, 7) → 3. ≥ 4: [1, 2) → 1 and [4, 7) → 3 (the run from 8 holds the last
        // step). ≥ 3: [0, 2) and [4, 7) → 3. ≥ 2: [0, 2) → 2, and [4, ..) joins the last
        // step's run, but 3 recorded at ≥ 5 stays (an upper bound). ≥ 1: everything is the
        // last step's run; the bound is still 3.
        assert_eq!(r.longest(6), None);
        assert_eq!(r.longest(5), Some(&i(3)));
        assert_eq!(r.longest(4), Some(&i(3)));
        assert_eq!(r.longest(2), Some(&i(3)));
        assert_eq!(r.longest(1), Some(&i(3)));
        assert_eq!(r.suffix_begin(5), None);
        assert_eq!(r.suffix_begin(4), Some(6));
        assert_eq!(r.suffix_begin(2), Some(3));
        assert_eq!(r.suffix_begin(1), Some(0));
    }

    /// Against the runs listed step by step, on seeded random blocks: `longest` is at least
    /// every inner run, and `suffix_begin` is exactly where the last step's run begins.
    #[test]
    fn bounds_every_inner_run_and_finds_the_suffix() {
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let n = rng.random_range(1..70usize);
            // Strictly increasing times: sums of positive steps, some of them halves.
            let mut at = Time::zero();
            let t: Vec<Time> = (0..n)
                .map(|_| {
                    at = &at + &Time::new(rng.random_range(1..50), rng.random_range(1..3)).unwrap();
                    at.clone()
                })
                .collect();
            let v: Vec<i64> = (0..n).map(|_| rng.random_range(-3..8)).collect();
            let r = BlockRuns::new(&t, &v);
            for q in -4..10 {
                let ctx = format!("seed {seed}, q {q}");
                let mut k = 0;
                let mut best: Option<Time> = None;
                let mut suffix = None;
                while k < n {
                    if v[k] < q {
                        k += 1;
                        continue;
                    }
                    let l = k;
                    while k < n && v[k] >= q {
                        k += 1;
                    }
                    if k == n {
                        suffix = Some(l);
                    } else {
                        let len = &t[k] - &t[l];
                        if best.as_ref().is_none_or(|b| len > *b) {
                            best = Some(len);
                        }
                    }
                }
                assert_eq!(r.suffix_begin(q), suffix, "{ctx}");
                // The quick bound over every threshold never changes the answer.
                for l in [0, 1, 7, 40, 300, 3000].map(i) {
                    let by_search = r.longest(q).is_none_or(|b| *b < l);
                    assert_eq!(r.all_shorter(q, &l), by_search, "{ctx}, len {l}");
                }
                match (&best, r.longest(q)) {
                    (Some(b), Some(u)) => assert!(u >= b, "{ctx}: bound {u} below run {b}"),
                    (Some(b), None) => panic!("{ctx}: no bound for a run of {b}"),
                    (None, _) => {}
                }
            }
        }
    }
}
