//! What a compression pass (node-stealing paper, Section 4.1) learnt from the jobs that could
//! not move, kept so that a later job of the same node count and length skips the windows
//! already known to fail. On a backlogged platform most checks answer "cannot move", and
//! queued jobs of one shape (job arrays, resubmissions) come in long runs, each of which would
//! otherwise search the profile from the same instant to its own start again.
//!
//! A job A (`p` nodes, length `ℓ`, current start `s_A`) with no new start in `[from_A, below_A)`
//! means: for every `s` there, some instant `t ∈ [s, min(s + ℓ, s_A))` has fewer than `p` free
//! (the window reaches only up to the job's own start, from which its own nodes are free to it:
//! [`super::steps::Steps::earlier_start`]). For a later job B of the same `p` and `ℓ` with
//! `from_B ≥ from_A`, a window `s < below_A` fails on the same witness whenever that witness
//! is before `s_B`: always when `s_A ≤ s_B`, and when `s + ℓ ≤ s_B` otherwise. B's search may
//! therefore begin at `below_A`, or at `min(below_A, s_B − ℓ)`, and finds the same earliest
//! start; if it fails, B's record covers `[from_B, below_B)` whole.
//!
//! A record holds while the counts before `s_A` did not rise. Within a pass they rise only
//! where a job moved from, at or after its old start, so a record stays valid while every
//! later move left from an old start at or after `s_A`. Placing a new job only lowers counts,
//! which keeps every witness. The plan's test
//! `compress_on_job_arrays_gives_the_starts_of_the_plain_pass` compares the pass with the plain
//! remove-and-replace pass on queues of job arrays.
use super::instant::Instant;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Slots of the record table: a record is only a hint (a job with none searches in full), so
/// the table is direct-mapped and a new record takes the slot of an older one.
const SLOTS: usize = 1024;

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

/// The failures of one pass, by size and length, and the old starts of its moves.
#[derive(Debug)]
pub(super) struct Fails<K> {
    last: Vec<Option<Fail<K>>>,
    moves: u64,
    /// The moves' old starts as `(move index, old start)`, old starts strictly rising from
    /// the bottom: the earliest old start among the moves from index `m` on is that of the
    /// first entry with an index at least `m` (a later, earlier-starting move removed every
    /// entry it makes irrelevant).
    lowest: Vec<(u64, K)>,
}

impl<K: Instant + Hash> Fails<K> {
    pub(super) fn new() -> Fails<K> {
        Fails {
            last: vec![None; SLOTS],
            moves: 0,
            lowest: Vec::new(),
        }
    }

    /// Where the search of a job of `p` nodes and length `len`, currently at `start` and to be
    /// searched from `from`, may begin instead: every window before it is known to fail.
    pub(super) fn skip_to(&self, p: u32, len: &K, from: &K, start: &K) -> Option<K> {
        let f = self.last[slot(p, len)].as_ref()?;
        if f.p != p || f.len != *len || *from < f.from || !self.holds(f) {
            return None;
        }
        let to = if f.start <= *start {
            f.below.clone()
        } else {
            f.below.clone().min(start.minus(len))
        };
        (to > *from).then_some(to)
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
        self.last[slot(p, len)] = Some(f);
    }

    /// Records a move of a job whose old start was `old`.
    pub(super) fn moved(&mut self, old: &K) {
        while self.lowest.last().is_some_and(|(_, s)| s >= old) {
            self.lowest.pop();
        }
        self.lowest.push((self.moves, old.clone()));
        self.moves += 1;
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
