//! The queued jobs' planned starts, by start and then in queue order (conservative
//! backfilling, node-stealing paper Section 4.1: a job starts when its reservation begins), so
//! that the simulator finds the next planned start and the jobs due now without going over
//! the queue. On a platform past its capacity the queue holds tens of thousands of jobs at
//! every event (METACENTRUM-2009-2 on the 60 nodes of its largest job: 91,832 waiting at the
//! last submission), and a walk of the queue at every event would make such a run quadratic.
//!
//! A min-heap with lazy deletion: a start given to a job is pushed, and the entry it replaces
//! (a compression only moves a start earlier) is left in place, since a pass can move
//! millions of reservations and an ordered set would pay a removal for each. An entry is
//! *current* while its job is queued with that very start; the others are dropped when they
//! reach the top.
//!
//! Only the earliest starts are held: the heap is built from the queue with the [`ADMIT`]
//! earliest starts and every start tied with the last of them, which sets a *horizon*, and
//! a start given later is pushed only if it is at or before the horizon. Every job planned at
//! or before the horizon then has a current entry, so the top current entry is the earliest
//! start of the whole queue; when no current entry is left, the heap is built again from the
//! queue. Most moves of a backlogged queue are of jobs planned far beyond the next starts,
//! and each costs one comparison instead of a push. The heap is also built again (O(n), no
//! sort) after a full recomputation and whenever stale entries outnumber the queue, which
//! bounds its size and keeps the cost of each start given O(log n), amortized.
use crate::time::Time;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A job's place in the queue's order: by decreasing priority, then submission order. The
/// jobs planned at one instant leave the heap in this order, as they stand in the queue.
pub(super) type Order = (Reverse<u8>, usize);

/// How many of the earliest starts a build of the heap takes (with the ties of the last).
/// A build costs a pass over the queue and happens about once per this many jobs started,
/// while every start given at or before the horizon is pushed.
const ADMIT: usize = 128;

/// The planned starts (see the module doc).
#[derive(Debug)]
pub(super) struct DueStarts {
    heap: BinaryHeap<Reverse<(Time, Order)>>,
    /// `None`: every queued job's start has a current entry; `Some(h)`: every one at or
    /// before `h` has one.
    horizon: Option<Time>,
    admit: usize,
}

impl Default for DueStarts {
    fn default() -> DueStarts {
        DueStarts::admitting(ADMIT)
    }
}

impl DueStarts {
    /// An empty index whose builds take the `admit` earliest starts (at least 1).
    fn admitting(admit: usize) -> DueStarts {
        DueStarts {
            heap: BinaryHeap::new(),
            horizon: None,
            admit: admit.max(1),
        }
    }

    /// Records that the job of order `o` is planned to start at `t`; `queued` is the queue's
    /// length, and `current` the starts of the whole queue, for a rebuild when stale entries
    /// have piled up.
    // Called for every move of a compression pass, with a few comparisons of work: inlined
    // whatever the size its caller grows to, as the call would cost about as much.
    #[inline]
    pub(super) fn push<I: Iterator<Item = (Time, Order)>>(
        &mut self,
        t: Time,
        o: Order,
        queued: usize,
        current: impl FnOnce() -> I,
    ) {
        if self.horizon.as_ref().is_some_and(|h| t > *h) {
            return;
        }
        self.heap.push(Reverse((t, o)));
        if self.heap.len() > 2 * queued + 1024 {
            self.rebuild(current());
        }
    }

    /// Takes `starts`, every queued job's current start: the earliest ones as the whole
    /// content, with the horizon at the last of them.
    pub(super) fn rebuild(&mut self, starts: impl Iterator<Item = (Time, Order)>) {
        let mut v = std::mem::take(&mut self.heap).into_vec();
        v.clear();
        v.extend(starts.map(Reverse));
        self.horizon = None;
        if v.len() > self.admit {
            // `Reverse` orders the latest first: the `admit` earliest are the last ones.
            let k = v.len() - self.admit;
            v.select_nth_unstable_by(k, |a, b| a.0 .0.cmp(&b.0 .0).reverse());
            let h = v[k].0 .0.clone();
            v.retain(|e| e.0 .0 <= h);
            self.horizon = Some(h);
        }
        self.heap = BinaryHeap::from(v);
    }

    /// The earliest current start, dropping the stale entries above it; `is_current` says
    /// whether the job of order `o` is queued with start `t`, and `current` gives every
    /// queued job's start, for a rebuild when the heap holds no current entry.
    pub(super) fn first<I: Iterator<Item = (Time, Order)>>(
        &mut self,
        is_current: impl Fn(&Time, Order) -> bool,
        current: impl Fn() -> I,
    ) -> Option<&Time> {
        loop {
            while let Some(Reverse((t, o))) = self.heap.peek() {
                if is_current(t, *o) {
                    break;
                }
                self.heap.pop();
            }
            // A rebuild with a horizon holds at least one current entry: this runs once.
            if !self.heap.is_empty() || self.horizon.is_none() {
                break;
            }
            self.rebuild(current());
        }
        self.heap.peek().map(|Reverse((t, _))| t)
    }

    /// The next job due at `now`, in queue order, taken out (stale entries dropped on the way;
    /// `is_current` and `current` as for [`DueStarts::first`]).
    pub(super) fn pop_at<I: Iterator<Item = (Time, Order)>>(
        &mut self,
        now: &Time,
        is_current: impl Fn(&Time, Order) -> bool,
        current: impl Fn() -> I,
    ) -> Option<Order> {
        if self.first(is_current, current)? != now {
            return None;
        }
        self.heap.pop().map(|Reverse((_, o))| o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// No job is queued with a start: nothing to rebuild from.
    fn none() -> std::iter::Empty<(Time, Order)> {
        std::iter::empty()
    }

    /// Starts moved earlier leave their old entries behind; only the current ones come out,
    /// by time and then in queue order, and a rebuild keeps what is current.
    #[test]
    fn only_current_starts_come_out_in_order() {
        let t = Time::from_int;
        let mut planned: Vec<Option<i64>> = vec![Some(9), Some(5), Some(5), None];
        let order = |j: usize| (Reverse(1u8), j);
        let mut d = DueStarts::default();
        for (j, p) in planned.iter().enumerate() {
            if let Some(p) = p {
                d.push(t(*p), order(j), 4, none);
            }
        }
        // Job 0 moves from 9 to 5: its entry at 9 goes stale.
        planned[0] = Some(5);
        d.push(t(5), order(0), 4, none);
        let cur = |p: &[Option<i64>]| {
            let p = p.to_vec();
            move |s: &Time, (_, j): Order| p[j].is_some_and(|x| t(x) == *s)
        };
        assert_eq!(d.first(cur(&planned), none), Some(&t(5)));
        assert_eq!(d.pop_at(&t(4), cur(&planned), none), None);
        let mut out = Vec::new();
        while let Some((_, j)) = d.pop_at(&t(5), cur(&planned), none) {
            planned[j] = None;
            out.push(j);
        }
        assert_eq!(out, vec![0, 1, 2]);
        // The stale entry of job 0 at 9 is dropped, not returned.
        assert_eq!(d.first(cur(&planned), none), None);
        // A rebuild takes exactly the starts given.
        d.rebuild([(t(7), order(3)), (t(6), (Reverse(3u8), 2))].into_iter());
        assert_eq!(d.pop_at(&t(6), |_, _| true, none), Some((Reverse(3), 2)));
        assert_eq!(d.first(|_, _| true, none), Some(&t(7)));
    }

    /// Stale entries never outnumber twice the queue by more than the slack: a run that
    /// moves one job a million times keeps a small heap.
    #[test]
    fn stale_entries_are_bounded() {
        let mut d = DueStarts::default();
        for k in 0..100_000i64 {
            let now = Time::from_int(1_000_000 - k);
            let cur = now.clone();
            d.push(now, (Reverse(1), 0), 1, move || {
                std::iter::once((cur, (Reverse(1), 0)))
            });
            assert!(d.heap.len() <= 2 + 1024 + 1, "{}", d.heap.len());
        }
        assert_eq!(d.first(|_, _| true, none), Some(&Time::from_int(900_001)));
    }

    /// Against a plain model (the queue's starts, the earliest found by a walk): random
    /// queues of up to 60 jobs with ties, starts moved earlier, jobs started in queue order
    /// when due, new jobs queued with and without a start, and full rebuilds, on indexes
    /// that hold 1, 3 or 8 of the earliest starts, or all of them. The first start and the
    /// order in which the jobs due come out are the model's at every step.
    #[test]
    fn a_horizon_gives_the_starts_of_the_whole_queue() {
        for seed in 0..200u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let admit = [1, 3, 8, usize::MAX][(seed % 4) as usize];
            let mut d = DueStarts::admitting(admit);
            // By job (its order is its index, priority 1): queued, with its start if any.
            let mut queue: Vec<Option<Option<i64>>> = Vec::new();
            let order = |j: usize| (Reverse(1u8), j);
            let starts = |q: &[Option<Option<i64>>]| -> Vec<(Time, Order)> {
                q.iter()
                    .enumerate()
                    .filter_map(|(j, s)| Some((Time::from_int((*s)??), order(j))))
                    .collect()
            };
            let mut now = 0i64;
            for step in 0..400 {
                let ctx = format!("seed {seed}, step {step}");
                let queued = queue.iter().filter(|s| s.is_some()).count();
                match rng.random_range(0..10) {
                    0..=2 => {
                        let s = rng.random_bool(0.8).then(|| now + rng.random_range(0..40));
                        queue.push(Some(s));
                        if let Some(s) = s {
                            let cur = starts(&queue);
                            d.push(
                                Time::from_int(s),
                                order(queue.len() - 1),
                                queued + 1,
                                || cur.into_iter(),
                            );
                        }
                    }
                    3..=6 if queued > 0 => {
                        let j = rng.random_range(0..queue.len());
                        if let Some(s) = &mut queue[j] {
                            let to = match *s {
                                Some(x) => now + rng.random_range(0..=(x - now)),
                                None => now + rng.random_range(0..40),
                            };
                            *s = Some(to);
                            let cur = starts(&queue);
                            d.push(Time::from_int(to), order(j), queued, || cur.into_iter());
                        }
                    }
                    7 => d.rebuild(starts(&queue).into_iter()),
                    _ => {
                        let q = queue.clone();
                        let is_current = |t: &Time, (_, j): Order| {
                            q[j].is_some_and(|s| s.is_some_and(|x| Time::from_int(x) == *t))
                        };
                        let cur = || starts(&q).into_iter();
                        let model = q.iter().filter_map(|s| (*s)?).min();
                        let got = d.first(is_current, cur).cloned();
                        assert_eq!(got, model.map(Time::from_int), "{ctx}");
                        let Some(m) = model else { continue };
                        now = m;
                        let first = Time::from_int(m);
                        let mut due: Vec<usize> = starts(&q)
                            .into_iter()
                            .filter(|(t, _)| *t == first)
                            .map(|(_, (_, j))| j)
                            .collect();
                        due.sort_unstable();
                        let mut out = Vec::new();
                        loop {
                            let q = queue.clone();
                            let is_current = |t: &Time, (_, j): Order| {
                                q[j].is_some_and(|s| s.is_some_and(|x| Time::from_int(x) == *t))
                            };
                            let cur = || starts(&q).into_iter();
                            let Some((_, j)) = d.pop_at(&first, is_current, cur) else {
                                break;
                            };
                            queue[j] = None;
                            out.push(j);
                        }
                        assert_eq!(out, due, "{ctx}");
                    }
                }
            }
        }
    }
}
