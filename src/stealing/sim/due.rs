//! The queued jobs' planned starts, by start and then in queue order (conservative
//! backfilling, node-stealing paper Section 4.1: a job starts when its reservation begins), so
//! that the simulator finds the next planned start and the jobs due now without going over
//! the queue. On a platform past its capacity the queue holds tens of thousands of jobs at
//! every event (METACENTRUM-2009-2 on the 60 nodes of its largest job: 91,832 waiting at the
//! last submission), and a walk of the queue at every event made such a run quadratic.
//!
//! A min-heap with lazy deletion: a start given to a job is pushed, and the entry it replaces
//! (a compression only moves a start earlier) is left in place, since a pass can move
//! millions of reservations and an ordered set would pay a removal for each. An entry is
//! *current* while its job is queued with that very start; the others are dropped when they
//! reach the top. The heap is rebuilt from the queue (O(n), no sort) after a full
//! recomputation and whenever stale entries outnumber the queue, which bounds its size and
//! keeps the cost of each start given O(log n), amortized.
use crate::time::Time;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A job's place in the queue's order: by decreasing priority, then submission order. The
/// jobs planned at one instant leave the heap in this order, as they stand in the queue.
pub(super) type Order = (Reverse<u8>, usize);

/// The planned starts (see the module doc).
#[derive(Debug, Default)]
pub(super) struct DueStarts {
    heap: BinaryHeap<Reverse<(Time, Order)>>,
}

impl DueStarts {
    /// Records that the job of order `o` is planned to start at `t`; `queued` is the queue's
    /// length, and `current` the starts of the whole queue, for a rebuild when stale entries
    /// have piled up.
    pub(super) fn push<I: Iterator<Item = (Time, Order)>>(
        &mut self,
        t: Time,
        o: Order,
        queued: usize,
        current: impl FnOnce() -> I,
    ) {
        self.heap.push(Reverse((t, o)));
        if self.heap.len() > 2 * queued + 1024 {
            self.rebuild(current());
        }
    }

    /// Takes `starts`, every queued job's current start, as the whole content.
    pub(super) fn rebuild(&mut self, starts: impl Iterator<Item = (Time, Order)>) {
        let mut v = std::mem::take(&mut self.heap).into_vec();
        v.clear();
        v.extend(starts.map(Reverse));
        self.heap = BinaryHeap::from(v);
    }

    /// The earliest current start, dropping the stale entries above it; `is_current` says
    /// whether the job of order `o` is queued with start `t`.
    pub(super) fn first(&mut self, is_current: impl Fn(&Time, Order) -> bool) -> Option<&Time> {
        while let Some(Reverse((t, o))) = self.heap.peek() {
            if is_current(t, *o) {
                break;
            }
            self.heap.pop();
        }
        self.heap.peek().map(|Reverse((t, _))| t)
    }

    /// The next job due at `now`, in queue order, taken out (stale entries dropped on the way).
    pub(super) fn pop_at(
        &mut self,
        now: &Time,
        is_current: impl Fn(&Time, Order) -> bool,
    ) -> Option<Order> {
        if self.first(is_current)? != now {
            return None;
        }
        self.heap.pop().map(|Reverse((_, o))| o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                d.push(t(*p), order(j), 4, std::iter::empty);
            }
        }
        // Job 0 moves from 9 to 5: its entry at 9 goes stale.
        planned[0] = Some(5);
        d.push(t(5), order(0), 4, std::iter::empty);
        let cur = |p: &[Option<i64>]| {
            let p = p.to_vec();
            move |s: &Time, (_, j): Order| p[j].is_some_and(|x| t(x) == *s)
        };
        assert_eq!(d.first(cur(&planned)), Some(&t(5)));
        assert_eq!(d.pop_at(&t(4), cur(&planned)), None);
        let mut out = Vec::new();
        while let Some((_, j)) = d.pop_at(&t(5), cur(&planned)) {
            planned[j] = None;
            out.push(j);
        }
        assert_eq!(out, vec![0, 1, 2]);
        // The stale entry of job 0 at 9 is dropped, not returned.
        assert_eq!(d.first(cur(&planned)), None);
        // A rebuild takes exactly the starts given.
        d.rebuild([(t(7), order(3)), (t(6), (Reverse(3u8), 2))].into_iter());
        assert_eq!(d.pop_at(&t(6), |_, _| true), Some((Reverse(3), 2)));
        assert_eq!(d.first(|_, _| true), Some(&t(7)));
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
        assert_eq!(d.first(|_, _| true), Some(&Time::from_int(900_001)));
    }
}
