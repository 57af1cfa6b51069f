//! The two planning passes of conservative backfilling (node-stealing paper, Section 4.1), run
//! on a plan's steps in their own instant type and on the queue mirrored in it: the
//! compression pass (every queued job, in priority order, moved to its earliest slot no later
//! than its current start; new jobs placed at their earliest slot) and the full recomputation
//! (every job placed at its earliest slot). Why each filter of the compression is exact is in
//! the doc of `Sim::replan_pass`; why the passes run here, in the doc of [`super`]. They take
//! the queue as one slice (the mirror's deque made contiguous first), as a deque's index is
//! wrapped at every read and a pass reads a slot at each of its checks.
use super::fails::Fails;
use super::instant::Instant;
use super::steps::{Found, Rises, Runs, Steps};
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// A queued job as the pass sees it: its node count, the length it reserves and its planned
/// start (`None`: not placed yet), and `same`, how many of the slots right after it have its
/// node count, length and start (0 when it has no start). [`link`] and [`relink`] keep
/// `same` exact; the passes read it to pass over a run of identical jobs at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Slot<K> {
    pub(super) p: u32,
    pub(super) len: K,
    pub(super) start: Option<K>,
    pub(super) same: u32,
}

impl<K: Instant> Slot<K> {
    /// A slot with no run after it yet ([`link`] or [`relink`] count it).
    pub(super) fn new(p: u32, len: K, start: Option<K>) -> Slot<K> {
        Slot {
            p,
            len,
            start,
            same: 0,
        }
    }

    /// Whether `self` and `o` are both placed, at one start, with one node count and length.
    fn twin(&self, o: &Slot<K>) -> bool {
        self.start.is_some() && self.start == o.start && self.p == o.p && self.len == o.len
    }
}

/// Counts every slot's `same` from scratch.
pub(super) fn link<K: Instant>(slots: &mut [Slot<K>]) {
    for k in (0..slots.len()).rev() {
        slots[k].same = same_at(slots, k);
    }
}

/// Counts `same` again after the slot at `m` changed (its start, or the slot itself, inserted
/// there; after a removal at `i`, `m` is `i − 1`, whose follower changed). Only slots up to
/// `m` can change: `m` and `m − 1` whatever their counts were (their twin relation changed),
/// and each one before them while its follower's count changed (a count depends on its
/// follower only). Several changes are taken from the last one back.
pub(super) fn relink<K: Instant>(slots: &mut [Slot<K>], m: usize) {
    let mut k = m.saturating_add(1).min(slots.len());
    while k > 0 {
        k -= 1;
        let n = same_at(slots, k);
        let changed = std::mem::replace(&mut slots[k].same, n) != n;
        if !changed && k < m {
            return;
        }
    }
}

/// The exact `same` of slot `k`, from its follower's (taken as exact).
fn same_at<K: Instant>(slots: &[Slot<K>], k: usize) -> u32 {
    match slots.get(k + 1) {
        Some(next) if slots[k].twin(next) => next.same + 1,
        _ => 0,
    }
}

/// What a pass did: the checks and moves it made, the searches it shortened, the hull of the
/// slots its moves freed (what the next pass inherits as raised), and the jobs given a start,
/// by queue index.
#[derive(Clone, Debug)]
pub(super) struct Done<K> {
    pub(super) checks: u64,
    pub(super) moves: u64,
    /// Searches begun later than their first window, past what [`Fails`] knew to fail.
    pub(super) shortened: u64,
    /// Moves of twins taken along with the job before them ([`twins_along`]), unsearched.
    pub(super) along: u64,
    pub(super) moved: Option<(K, K)>,
    pub(super) started: Vec<usize>,
}

/// The working memory of [`compress`], kept from pass to pass beside the queue it runs on:
/// most passes record failures or give starts, and tables and vectors allocated and freed at
/// each of the hundreds of thousands of passes of a backlogged log take back much of what they
/// spare.
#[derive(Clone, Debug)]
pub(super) struct Memory<K> {
    /// The pass's failures, emptied at its beginning.
    fails: Fails<K>,
    /// The slots whose run counts the pass takes again, emptied at its beginning.
    relinks: Vec<usize>,
}

impl<K: Instant + Hash> Memory<K> {
    pub(super) fn new() -> Memory<K> {
        Memory {
            fails: Fails::new(),
            relinks: Vec::new(),
        }
    }
}

impl<K: Instant + Hash> Default for Memory<K> {
    fn default() -> Memory<K> {
        Memory::new()
    }
}

/// The pass over `slots` (in priority order) on `steps`, from `now`, with `raised` the hull of
/// where the counts rose since the plan was last settled and `unplanned` the slots with no
/// start; `memory` is emptied first and keeps its allocations for the next pass. Gives each
/// slot its new start and returns what it did.
pub(super) fn compress<K: Instant + Hash>(
    steps: &mut Steps<K>,
    slots: &mut [Slot<K>],
    now: &K,
    mut raised: Option<(K, K)>,
    mut unplanned: usize,
    memory: &mut Memory<K>,
) -> Done<K> {
    let Memory { fails, relinks } = memory;
    let mut done = Done {
        checks: 0,
        moves: 0,
        shortened: 0,
        along: 0,
        moved: None,
        started: Vec::new(),
    };
    // A job's new start is searched with its reservation in place, which is exact when no
    // count is negative ([`Steps::earlier_start`]). Every plan is built so (reservations at
    // feasible slots, give-backs only add), and a move keeps it so; the check costs one look
    // at each block per pass, and the give-back path stays for a plan that breaks it.
    let in_place = steps.min_free() >= 0;
    let mut rises: Option<Rises<K>> = None;
    // Where a move changed the counts since the rises were taken: they are taken again from
    // there (the highs before it stand), in the same memory.
    let mut rises_changed: Option<K> = None;
    // Per node count, the runs where jobs of that size could start before the end of
    // `raised`, as a bound ([`Steps::runs_bound`]), valid until a move changes the profile.
    let mut runs: FxHashMap<u32, Runs<K>> = FxHashMap::default();
    fails.clear();
    // Nothing raised: nothing can move (a move needs a rise), so only the slots with no
    // start are visited. They are new jobs, at the end of the queue, as a rule: the walk
    // starts at the first of them, found from the back, and not at the head of a queue that
    // can hold tens of thousands of jobs on a platform past its capacity.
    let first = match raised {
        Some(_) => 0,
        None => {
            let (mut k, mut left) = (slots.len(), unplanned);
            while left > 0 && k > 0 {
                k -= 1;
                if slots[k].start.is_none() {
                    left -= 1;
                }
            }
            k
        }
    };
    // The node count, length and start of the last job checked, while it kept its slot and
    // nothing moved since: a job identical to it (job arrays queue hundreds, reserved side by
    // side from one instant) asks the same question of the same profile, so keeps its slot too.
    let mut kept: Option<(u32, K, K)> = None;
    // Where `same` must be counted again after the pass, in rising order: each slot given a
    // start, but of a run of twins moved together only its first and last. Inside the run
    // each slot and its follower were twins before and are after, so a count there changes
    // only if its follower's does, which [`relink`] from the run's last slot follows; the
    // run's first slot and the one before it are counted again from its first.
    relinks.clear();
    let mut next = first;
    while let Some(slot) = slots.get_mut(next) {
        let k = next;
        next += 1;
        // Nothing raised: no job can move, and every new job is placed.
        if raised.is_none() && unplanned == 0 {
            break;
        }
        let p = slot.p;
        let Some(start) = &slot.start else {
            done.checks += 1;
            let s = steps.reserve_earliest(p, &slot.len, now);
            slot.start = Some(s);
            unplanned -= 1;
            done.started.push(k);
            relinks.push(k);
            continue;
        };
        // The hull of every rise so far: before this pass, given back, and moves in it.
        let Some((a, b)) = &raised else {
            continue;
        };
        done.checks += 1;
        if kept
            .as_ref()
            .is_some_and(|(kp, kl, ks)| *kp == p && kl == &slot.len && ks == start)
        {
            // Its twins after it too (no slot from here on has changed in this pass, so
            // `same` still counts them).
            done.checks += u64::from(slot.same);
            next += slot.same as usize;
            continue;
        }
        kept = Some((p, slot.len.clone(), start.clone()));
        let below = if b < start { b } else { start };
        // Only counts reached before `b` matter (`below ≤ b`); `b` grows only at a move,
        // after which the rises scan on to the new `b`.
        if let Some(c) = rises_changed.take() {
            if let Some(r) = &mut rises {
                r.changed_from(&c, b);
            }
        }
        let len = &slot.len;
        // The first start whose window can meet [a, b) (`now` when a − ℓ is before it).
        let from = match a > now {
            true => a.minus(len).max(now.clone()),
            false => now.clone(),
        };
        // The runs answer "can it move" for every job of `p` nodes starting after `b`
        // (`below` is `b` then); only a job that can is searched for its new start. Once
        // taken for `p`, they also answer whether `p` are free before `b`.
        let by_runs = from == *now && b <= start;
        // Runs already taken for `p` also reject a job starting before `b`: a window it could
        // move to begins in `[now, start)` inside a run they count, which is then at least ℓ
        // long or reaches `start`.
        let fit = match runs.get(&p) {
            Some(rn) if !rn.fit(len, start) => {
                // Not recorded in `fails` after the hull: see below.
                if !by_runs {
                    fails.failed(p, len, now, below, start);
                }
                continue;
            }
            Some(_) if by_runs => Some(true),
            _ => {
                let r = rises.get_or_insert_with(|| steps.rises_in(now, Some(b), false));
                if !r.reaches_before(steps, p, below) {
                    fails.failed(p, len, now, below, start);
                    continue;
                }
                by_runs.then(|| {
                    runs.entry(p)
                        .or_insert_with(|| steps.runs_bound(p, now, b))
                        .fit(len, start)
                })
            }
        };
        // Not recorded in `fails`: the next job of this size that the runs can answer is
        // answered by them, and one that they cannot (start before `b`) rarely follows.
        if fit == Some(false) {
            continue;
        }
        // Nothing before `below`: the job keeps its slot, still free (every other
        // reservation was placed with it present), so it never moves later.
        let to = if in_place {
            // The windows an earlier job of this size and length ruled out are not searched.
            let skip = fails.skip_to(p, len, &from, start);
            done.shortened += u64::from(skip.is_some());
            // default: no such job, the search begins at `from`.
            let found = steps.earlier_start(p, len, skip.as_ref().unwrap_or(&from), below, start);
            match found {
                Some(f) => {
                    let twins = twins_along(steps, &f, slot, start);
                    let n = twins + 1;
                    steps.move_to(start, &start.plus(len), &f, &f.start.plus(len), p * n);
                    fails.moved(start, u64::from(n));
                    Some((f.start, twins))
                }
                None => {
                    fails.failed(p, len, &from, below, start);
                    None
                }
            }
        } else {
            let end = start.plus(len);
            steps.add(start, &end, i64::from(p));
            let s = steps.earliest_before(p, len, &from, Some(below));
            let s = (s < *below).then_some(s);
            // default: no start before `below`, the job keeps its own slot.
            let at = s.as_ref().unwrap_or(start);
            steps.add(at, &at.plus(len), -i64::from(p));
            s.map(|s| (s, 0))
        };
        let Some((s, twins)) = to else {
            continue;
        };
        let end = start.plus(len);
        done.moves += 1 + u64::from(twins);
        done.checks += u64::from(twins);
        done.along += u64::from(twins);
        kept = None;
        widen(&mut done.moved, start, &end);
        widen(&mut raised, start, &end);
        rises_changed = match rises_changed.take() {
            Some(c) if c < s => Some(c),
            _ => Some(s.clone()),
        };
        runs.clear();
        for (j, twin) in slots[k..=k + twins as usize].iter_mut().enumerate() {
            twin.start = Some(s.clone());
            done.started.push(k + j);
        }
        // The twins moved along stay twins of one another: only the counts at the run's two
        // ends must be taken again (see `relinks`).
        relinks.push(k);
        if twins > 0 {
            relinks.push(k + twins as usize);
        }
        next += twins as usize;
    }
    for &k in relinks.iter().rev() {
        relink(slots, k);
    }
    // Debug builds check every count against its follower's after a pass that gave starts,
    // so the stealing tests check the counts such passes leave; on a queue of the size of an
    // archive log's backlog the check would cost far more than the pass, and is left out.
    debug_assert!(
        relinks.is_empty()
            || slots.len() > CHECKED
            || (0..slots.len()).all(|k| slots[k].same == same_at(slots, k))
    );
    done
}

/// How many of the twins right after `slot` (its node count, length and start: its `same`)
/// move with it to the start `f` it was found, on `steps` before its move: as many as the
/// fewest free nodes on `[f, min(f + ℓ, start))` hold beside it. Each would be checked next,
/// on a profile where the ones before it have moved, and found there: a window before `f`
/// fails for it on the very witness it failed for `slot` (before their common start, where
/// the moves only took nodes), or was infeasible since the plan was last settled (a window
/// after the end of the raised hull, or ending before its beginning); `f` itself fits as long
/// as `p` are left there. The first twin it does not hold is checked as any job.
fn twins_along<K: Instant>(steps: &Steps<K>, f: &Found<K>, slot: &Slot<K>, start: &K) -> u32 {
    if slot.same == 0 || slot.p == 0 {
        return 0;
    }
    let end = f.start.plus(&slot.len);
    let fewest = steps.fewest_free(f, if end < *start { &end } else { start });
    // `(twins + 1) · p` is the count moved: at most `fewest`, and kept within `u32`.
    // default: more jobs than `u32` counts fit (never fewer than one: the job itself fits),
    // capped below.
    let held = u32::try_from(fewest / i64::from(slot.p)).unwrap_or(u32::MAX);
    held.min(u32::MAX / slot.p).saturating_sub(1).min(slot.same)
}

/// The longest queue whose run counts debug builds check after every pass that gives starts.
const CHECKED: usize = 4096;

/// How many of the last jobs placed, of any size and length, bound the search of the next
/// one in [`place_all`].
const PLACED: usize = 4;

/// Section 4.1, full recomputation: every slot placed, in priority order, at its earliest slot
/// from `now` on `steps` (the occupations known now, with no reservation yet).
pub(super) fn place_all<K: Instant + Hash>(steps: &mut Steps<K>, slots: &mut [Slot<K>], now: &K) {
    // The start given to the last job of each size and length, and to the last few jobs of
    // any: during this placement the profile only loses nodes, so a window that fits a job
    // of at least `p` nodes and at least `ℓ` long now would have fitted a (p, ℓ) job placed
    // before it, at or after that job's earliest start. The search of such a job begins at
    // the latest of those starts (from a later `not_before` the earliest feasible start is
    // the same one).
    let mut last: FxHashMap<(u32, K), K> = FxHashMap::default();
    let mut recent: [Option<(u32, K, K)>; PLACED] = std::array::from_fn(|_| None);
    for (k, slot) in slots.iter_mut().enumerate() {
        let key = (slot.p, slot.len.clone());
        // default: no such job placed yet
        let mut from = last.get(&key).unwrap_or(now);
        for (p, len, s) in recent.iter().flatten() {
            if *p <= slot.p && *len <= slot.len && s > from {
                from = s;
            }
        }
        let s = steps.reserve_earliest(slot.p, &slot.len, from);
        last.insert(key, s.clone());
        recent[k % PLACED] = Some((slot.p, slot.len.clone(), s.clone()));
        slot.start = Some(s);
    }
    link(slots);
}

/// Widens the hull `h` to cover `[from, to)`.
fn widen<K: Instant>(h: &mut Option<(K, K)>, from: &K, to: &K) {
    match h {
        None => *h = Some((from.clone(), to.clone())),
        Some((a, b)) => {
            if from < a {
                *a = from.clone();
            }
            if to > b {
                *b = to.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;
    use rand::{RngExt, SeedableRng};

    fn i(n: i64) -> Time {
        Time::from_int(n)
    }

    fn counts(slots: &[Slot<Time>]) -> Vec<u32> {
        slots.iter().map(|s| s.same).collect()
    }

    #[test]
    fn runs_of_twins_are_counted_to_their_end() {
        let mut slots: Vec<Slot<Time>> = [
            (1, 5, Some(0)),
            (1, 5, Some(0)),
            (1, 5, Some(0)),
            (2, 5, Some(0)),
            (1, 5, None),
            (1, 5, None),
            (1, 5, Some(3)),
            (1, 5, Some(3)),
        ]
        .into_iter()
        .map(|(p, l, s): (u32, i64, Option<i64>)| Slot::new(p, i(l), s.map(i)))
        .collect();
        link(&mut slots);
        assert_eq!(counts(&slots), [2, 1, 0, 0, 0, 0, 1, 0]);
        // The second job moves: the first loses its twin, the third keeps none after it.
        slots[1].start = Some(i(-1));
        relink(&mut slots, 1);
        assert_eq!(counts(&slots), [0, 0, 0, 0, 0, 0, 1, 0]);
    }

    /// Random starts changed, slots inserted and removed, each followed by `relink` as the
    /// passes and the mirror call it: the counts are those of `link` from scratch.
    #[test]
    fn relinked_counts_are_those_counted_from_scratch() {
        for seed in 0..500u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let slot = |rng: &mut rand_chacha::ChaCha8Rng| {
                let start = rng.random_bool(0.9).then(|| i(rng.random_range(0..3)));
                Slot::new(rng.random_range(1..3u32), i(rng.random_range(1..3)), start)
            };
            let mut slots: Vec<Slot<Time>> = (0..rng.random_range(0..40))
                .map(|_| slot(&mut rng))
                .collect();
            link(&mut slots);
            for step in 0..40 {
                let n = slots.len();
                match rng.random_range(0..4) {
                    // Several starts changed in one pass, relinked from the last one back.
                    0 if n > 0 => {
                        let mut changed: Vec<usize> = (0..rng.random_range(1..4))
                            .map(|_| rng.random_range(0..n))
                            .collect();
                        changed.sort_unstable();
                        changed.dedup();
                        for &m in &changed {
                            slots[m].start = Some(i(rng.random_range(0..3)));
                        }
                        for &m in changed.iter().rev() {
                            relink(&mut slots, m);
                        }
                    }
                    1 => {
                        let at = rng.random_range(0..=n);
                        slots.insert(at, slot(&mut rng));
                        relink(&mut slots, at);
                    }
                    2 if n > 0 => {
                        let at = rng.random_range(0..n);
                        slots.remove(at);
                        if let Some(before) = at.checked_sub(1) {
                            relink(&mut slots, before);
                        }
                    }
                    _ => {}
                }
                let mut fresh = slots.clone();
                link(&mut fresh);
                assert_eq!(counts(&slots), counts(&fresh), "seed {seed}, step {step}");
            }
        }
    }
}
