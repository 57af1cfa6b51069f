//! What a compression pass (node-stealing paper, Section 4.1) learnt from the jobs that could
//! not move, kept so that a later job at least as wide and as long skips the windows already
//! known to fail. On a backlogged platform most checks answer "cannot move", and queued jobs
//! of one shape (job arrays, resubmissions) come in long runs, each of which would otherwise
//! search the profile from the same instant to its own start again.
//!
//! A job A (`p` nodes, length `ℓ`, current start `s_A`) with no new start in `[from_A, below_A)`
//! means: for every `s` there, some instant `t ∈ [s, min(s + ℓ, s_A))` has fewer than `p` free
//! (the window reaches only up to the job's own start, from which its own nodes are free to it:
//! [`super::steps::Steps::earlier_start`]). For a later job B of at least `p` nodes and at
//! least `ℓ` long with `from_B ≥ from_A`, a window `s < below_A` fails on the same witness
//! (fewer than `p`, so fewer than B's count, inside B's longer window) whenever that witness is
//! before `s_B`: always when `s_A ≤ s_B`, and when `s + ℓ ≤ s_B` otherwise. B's search may
//! therefore begin at `below_A`, or at `min(below_A, s_B − ℓ)`, and finds the same earliest
//! start; if it fails, B's record covers `[from_B, below_B)` whole. A job asks the record of
//! its own shape, and when that one skips nothing, the last few records of any shape.
//!
//! A record holds while the counts before `s_A` did not rise. Within a pass they rise only
//! where a job moved from, at or after its old start, so a record stays valid while every
//! later move left from an old start at or after `s_A`. Placing a new job only lowers counts,
//! which keeps every witness. The plan's test
//! `compress_on_job_arrays_gives_the_starts_of_the_plain_pass` compares the pass with the plain
//! remove-and-replace pass on queues of job arrays of a few shapes.
use super::instant::Instant;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Slots of the record table: a record is only a hint (a job with none searches in full), so
/// the table is direct-mapped and a new record takes the slot of an older one.
const SLOTS: usize = 1024;

/// How many of the latest failures, of any shape, a job also asks: each is a comparison on
/// every search, and the record of the job just before serves most of the jobs it can.
const RECENT: usize = 2;

/// A failed check: the search began at `from`, no window before `below` fitted, the job's own
/// start was `start`; `moves` is how many moves the pass had made when it was recorded.
#[derive(Clone, Debug)]
struct Fail<K> {
    p: u32,
    len: K,
    moves: u64,
    from: K,
    below: K,
    start: K,
}

/// The failures of one pass, by size and length, and the old starts of its moves. One value
/// serves pass after pass ([`Fails::clear`] empties only the slots used): a table allocated
/// and filled at every pass would be paid by each of the hundreds of thousands of passes of a
/// backlogged log, even by those that record nothing.
#[derive(Clone, Debug)]
pub(super) struct Fails<K> {
    /// By [`slot`]; empty until the first failure is recorded.
    last: Vec<Option<Fail<K>>>,
    /// The slots of `last` that hold a record, each once.
    used: Vec<usize>,
    /// The last [`RECENT`] failures of any size and length, for the jobs they dominate.
    recent: [Option<Fail<K>>; RECENT],
    next_recent: usize,
    moves: u64,
    /// The moves' old starts as `(move index, old start)`, old starts strictly rising from
    /// the bottom: the earliest old start among the moves from index `m` on is that of the
    /// first entry with an index at least `m` (a later, earlier-starting move removed every
    /// entry it makes irrelevant).
    lowest: Vec<(u64, K)>,
}

impl<K: Instant + Hash> Default for Fails<K> {
    fn default() -> Fails<K> {
        Fails::new()
    }
}

impl<K: Instant + Hash> Fails<K> {
    pub(super) fn new() -> Fails<K> {
        Fails {
            last: Vec::new(),
            used: Vec::new(),
            recent: std::array::from_fn(|_| None),
            next_recent: 0,
            moves: 0,
            lowest: Vec::new(),
        }
    }

    /// Forgets every record and move, for a new pass, keeping the memory.
    pub(super) fn clear(&mut self) {
        for i in self.used.drain(..) {
            self.last[i] = None;
        }
        self.recent = std::array::from_fn(|_| None);
        self.next_recent = 0;
        self.moves = 0;
        self.lowest.clear();
    }

    /// Where the search of a job of `p` nodes and length `len`, currently at `start` and to be
    /// searched from `from`, may begin instead: every window before it is known to fail.
    pub(super) fn skip_to(&self, p: u32, len: &K, from: &K, start: &K) -> Option<K> {
        // The record of the job's own shape first: jobs of one shape come in runs, and it
        // answers most of them; the latest records of other shapes only when it cannot.
        if let Some(to) = self
            .last
            .get(slot(p, len))
            .and_then(Option::as_ref)
            .and_then(|f| self.skip_by(f, p, len, from, start))
        {
            return Some(to);
        }
        let mut best: Option<K> = None;
        for f in self.recent.iter().flatten() {
            if let Some(to) = self.skip_by(f, p, len, from, start) {
                if best.as_ref().is_none_or(|b| to > *b) {
                    best = Some(to);
                }
            }
        }
        best
    }

    /// Where record `f` lets the search of the job begin, if it dominates the job (at most
    /// `p` nodes, at most `len` long, searched from no later) and skips anything.
    fn skip_by(&self, f: &Fail<K>, p: u32, len: &K, from: &K, start: &K) -> Option<K> {
        if f.p > p || f.len > *len || *from < f.from {
            return None;
        }
        let to = if f.start <= *start {
            f.below.clone()
        } else {
            f.below.clone().min(start.minus(&f.len))
        };
        (to > *from && self.holds(f)).then_some(to)
    }

    /// Records that a job of `p` nodes and length `len` at `start` has no window in
    /// `[from, below)`.
    pub(super) fn failed(&mut self, p: u32, len: &K, from: &K, below: &K, start: &K) {
        // An empty range teaches nothing (and must not displace a record that does).
        if from >= below {
            return;
        }
        let f = Fail {
            p,
            len: len.clone(),
            moves: self.moves,
            from: from.clone(),
            below: below.clone(),
            start: start.clone(),
        };
        self.recent[self.next_recent] = Some(f.clone());
        self.next_recent = (self.next_recent + 1) % RECENT;
        if self.last.is_empty() {
            self.last = vec![None; SLOTS];
        }
        let i = slot(p, len);
        if self.last[i].replace(f).is_none() {
            self.used.push(i);
        }
    }

    /// Records `n` moves (at least one) of jobs whose old start was `old`: the same as `n`
    /// records of one move, each removing the entry the one before it made.
    pub(super) fn moved(&mut self, old: &K, n: u64) {
        debug_assert!(n > 0);
        while self.lowest.last().is_some_and(|(_, s)| s >= old) {
            self.lowest.pop();
        }
        self.lowest.push((self.moves + n - 1, old.clone()));
        self.moves += n;
    }

    /// Whether no move since `f` was recorded left from before its job's start.
    fn holds(&self, f: &Fail<K>) -> bool {
        // No move since, or none from before the job's start in the whole pass: the bottom
        // entry is the earliest old start.
        if f.moves == self.moves || self.lowest.first().is_none_or(|(_, s)| *s >= f.start) {
            return true;
        }
        let i = self.lowest.partition_point(|(m, _)| *m < f.moves);
        self.lowest.get(i).is_none_or(|(_, s)| *s >= f.start)
    }
}

/// The table slot of a size and length.
fn slot<K: Hash>(p: u32, len: &K) -> usize {
    let mut h = FxHasher::default();
    (p, len).hash(&mut h);
    // FxHash mixes into the high bits.
    (h.finish() >> 54) as usize % SLOTS
}

#[cfg(test)]
mod tests {
    use super::Fails;
    use crate::time::Time;

    fn i(n: i64) -> Time {
        Time::from_int(n)
    }

    /// A failure of `p` nodes for `ℓ` serves a later job with at least `p` nodes and at least
    /// `ℓ` long (its windows hold A's witnesses), from A's `below`, or from `s_B − ℓ_A` when B
    /// starts before A; never a job narrower or shorter, nor after a move from before `s_A`.
    #[test]
    fn a_failure_serves_the_jobs_it_dominates() {
        let mut f: Fails<Time> = Fails::new();
        // A: 2 nodes for 5, at 30, no window in [0, 20).
        f.failed(2, &i(5), &i(0), &i(20), &i(30));
        assert_eq!(f.skip_to(2, &i(5), &i(0), &i(30)), Some(i(20)));
        assert_eq!(f.skip_to(3, &i(7), &i(0), &i(40)), Some(i(20)));
        assert_eq!(f.skip_to(3, &i(7), &i(0), &i(25)), Some(i(20)));
        assert_eq!(f.skip_to(3, &i(7), &i(0), &i(22)), Some(i(17)));
        assert_eq!(f.skip_to(3, &i(7), &i(2), &i(40)), Some(i(20)));
        assert_eq!(f.skip_to(1, &i(7), &i(0), &i(40)), None);
        assert_eq!(f.skip_to(3, &i(4), &i(0), &i(40)), None);
        assert_eq!(f.skip_to(3, &i(7), &i(21), &i(40)), None);
        // A move from at or after A's start keeps the record; one from before it does not.
        f.moved(&i(35), 1);
        assert_eq!(f.skip_to(3, &i(7), &i(0), &i(40)), Some(i(20)));
        f.moved(&i(10), 1);
        assert_eq!(f.skip_to(3, &i(7), &i(0), &i(40)), None);
        assert_eq!(f.skip_to(2, &i(5), &i(0), &i(30)), None);
    }

    /// A cleared value knows nothing of the pass before (records, recent ones, moves), and
    /// records anew as a fresh one does.
    #[test]
    fn a_cleared_record_table_is_a_fresh_one() {
        let mut f: Fails<Time> = Fails::new();
        f.failed(2, &i(5), &i(0), &i(20), &i(30));
        f.failed(1, &i(2), &i(0), &i(10), &i(60));
        f.moved(&i(10), 1);
        f.clear();
        assert_eq!(f.skip_to(2, &i(5), &i(0), &i(30)), None);
        assert_eq!(f.skip_to(3, &i(7), &i(0), &i(40)), None);
        assert_eq!(f.skip_to(1, &i(2), &i(0), &i(70)), None);
        f.failed(2, &i(5), &i(0), &i(25), &i(30));
        assert_eq!(f.skip_to(2, &i(5), &i(0), &i(30)), Some(i(25)));
        // The move from 10 of the pass before is forgotten: after a move from 40 (not before
        // the job's start), the record holds.
        f.moved(&i(40), 1);
        assert_eq!(f.skip_to(2, &i(5), &i(0), &i(30)), Some(i(25)));
        f.moved(&i(20), 1);
        assert_eq!(f.skip_to(2, &i(5), &i(0), &i(30)), None);
    }

    /// `n` moves recorded at once leave what `n` moves recorded one by one leave, whatever
    /// the moves before them.
    #[test]
    fn moves_recorded_at_once_are_moves_recorded_one_by_one() {
        for before in [vec![], vec![5], vec![30, 12], vec![10, 40, 20]] {
            for n in 1..5 {
                let (mut once, mut each): (Fails<Time>, Fails<Time>) = (Fails::new(), Fails::new());
                for &b in &before {
                    once.moved(&i(b), 1);
                    each.moved(&i(b), 1);
                }
                once.moved(&i(20), n);
                for _ in 0..n {
                    each.moved(&i(20), 1);
                }
                assert_eq!(
                    (once.moves, &once.lowest),
                    (each.moves, &each.lowest),
                    "{before:?}, {n}"
                );
            }
        }
    }

    /// A job's own shape's record answers it; when there is none, of the latest records that
    /// dominate it, the one that skips furthest.
    #[test]
    fn the_own_shape_then_the_furthest_skip() {
        let mut f: Fails<Time> = Fails::new();
        f.failed(1, &i(2), &i(0), &i(10), &i(60));
        f.failed(2, &i(3), &i(0), &i(30), &i(60));
        assert_eq!(f.skip_to(3, &i(6), &i(0), &i(70)), Some(i(30)));
        assert_eq!(f.skip_to(1, &i(6), &i(0), &i(70)), Some(i(10)));
        assert_eq!(f.skip_to(1, &i(2), &i(0), &i(70)), Some(i(10)));
        f.failed(4, &i(6), &i(0), &i(50), &i(60));
        assert_eq!(f.skip_to(4, &i(6), &i(0), &i(70)), Some(i(50)));
        assert_eq!(f.skip_to(5, &i(9), &i(0), &i(70)), Some(i(50)));
    }
}
