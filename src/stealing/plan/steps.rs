//! The step function behind a plan ([`super::Profile`]): free-node counts over time, kept in
//! blocks, with the searches conservative backfilling asks of it. Generic over the instant type
//! ([`Instant`]): the same code runs on integer ticks of a common denominator (the fast case)
//! and on exact rationals (the fallback); [`super::Profile`] chooses. Why blocks, and why each
//! search gives the answer of the plain scan over the steps, is in the doc of [`super`].
use super::block_runs::{Below, BlockRuns};
use super::instant::Instant;
use std::cell::{Cell, OnceCell};

/// Steps per block after a split; a block splits when it exceeds [`BLOCK_MAX`].
const BLOCK_MAX: usize = 64;

/// Free-node count as a step function: step `i` holds `free` on `[t_i, t_{i+1})`; the last
/// step lasts forever. Stored in blocks (see the module doc).
#[derive(Clone, Debug)]
pub(super) struct Steps<K> {
    blocks: Vec<Block<K>>,
    /// Each block's first instant, in a vector of their own: locating an instant's block, the
    /// first step of every split and search, then reads one small array instead of one line
    /// of memory per block it probes.
    firsts: Vec<K>,
}

/// A run of consecutive steps: starts `t`, counts `v[i] + add`, and `min`/`max` of `v`.
#[derive(Clone, Debug)]
struct Block<K> {
    t: Vec<K>,
    v: Vec<i64>,
    add: i64,
    min: i64,
    max: i64,
    /// The runs of `v` by threshold, built once searches have asked [`BUILD_AFTER`] times and
    /// dropped whenever `t` or `v` change (a whole-block addition changes neither).
    runs: OnceCell<BlockRuns<K>>,
    /// Searches that passed over this block since `t` or `v` last changed, while `runs` was
    /// not built: it is built from the [`BUILD_AFTER`]th on, as a block changed between every
    /// pair of searches costs less to walk than to summarise.
    asked: Cell<u8>,
}

/// See [`Block::asked`]. Summarising a block at its first search pays for blocks that change
/// before they are searched again; waiting too long walks the same runs search after search.
/// On the backlogged archive traces the cost falls as the threshold grows to about 16 and is
/// flat beyond (larger blocks, on the other hand, cost more); the `stealing` bench's `archive`
/// cases measure it again.
const BUILD_AFTER: u8 = 16;

/// Blocks are equal when their steps are: the cached runs follow from them.
impl<K: Instant> PartialEq for Block<K> {
    fn eq(&self, o: &Block<K>) -> bool {
        (&self.t, &self.v, self.add, self.min, self.max) == (&o.t, &o.v, o.add, o.min, o.max)
    }
}

impl<K: Instant> Eq for Block<K> {}

impl<K: Instant> Block<K> {
    fn new(t: Vec<K>, v: Vec<i64>) -> Block<K> {
        let mut b = Block {
            t,
            v,
            add: 0,
            min: 0,
            max: 0,
            runs: OnceCell::new(),
            asked: Cell::new(0),
        };
        b.refresh();
        b
    }

    /// Recomputes `min` and `max` (a block is never empty) and drops the cached runs.
    fn refresh(&mut self) {
        debug_assert!(!self.v.is_empty());
        self.forget_runs();
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for &x in &self.v {
            lo = lo.min(x);
            hi = hi.max(x);
        }
        (self.min, self.max) = (lo, hi);
    }

    /// Keeps `min` and `max` after `delta` was added to some of the counts, which are now
    /// between `lo` and `hi` (`lo > hi`: none), and drops the cached runs. The other counts
    /// did not change, so one bound follows from the old one and the changed counts; the other
    /// does too unless the counts that held it were among those changed, and only then are
    /// the counts read again.
    fn changed_by(&mut self, delta: i64, lo: i64, hi: i64) {
        self.forget_runs();
        if lo > hi || delta == 0 {
            return;
        }
        // Only the bound that may have been lost is read again.
        if delta < 0 {
            self.min = self.min.min(lo);
            if hi - delta < self.max {
                return;
            }
            self.max = bound(&self.v, |x, m| x > m);
        } else {
            self.max = self.max.max(hi);
            if lo - delta > self.min {
                return;
            }
            self.min = bound(&self.v, |x, m| x < m);
        }
    }

    /// Adds `delta` to the counts of steps `r`.
    fn add_to(&mut self, r: std::ops::Range<usize>, delta: i64) {
        // Most changes cover a step or two (a move shifts a reservation past the next
        // breakpoint or two), for which the general loop's vector set-up costs more than the
        // work.
        let (lo, hi) = match &mut self.v[r] {
            [x] => {
                *x += delta;
                (*x, *x)
            }
            [x, y] => {
                *x += delta;
                *y += delta;
                (*x.min(y), *x.max(y))
            }
            xs => {
                let (mut lo, mut hi) = (i64::MAX, i64::MIN);
                for x in xs {
                    *x += delta;
                    lo = lo.min(*x);
                    hi = hi.max(*x);
                }
                (lo, hi)
            }
        };
        self.changed_by(delta, lo, hi);
    }

    /// The index of the step beginning at `t`, where `at` is a [`Steps::cut`] of `t` in this
    /// block: a breakpoint inserted after step `j` for `Err(j)` (with the count of the step
    /// it cuts, so the bounds stay), the block's own for `Ok(j)`.
    fn insert_at(&mut self, at: Result<usize, usize>, t: &K) -> usize {
        let j = match at {
            Ok(j) => return j,
            Err(j) => j + 1,
        };
        self.t.insert(j, t.clone());
        self.v.insert(j, self.v[j - 1]);
        self.forget_runs();
        j
    }

    /// Drops the cached runs after a change of `t` or `v` that keeps `min` and `max`.
    fn forget_runs(&mut self) {
        self.runs = OnceCell::new();
        self.asked.set(0);
    }

    fn value(&self, i: usize) -> i64 {
        self.v[i] + self.add
    }

    /// The first step, from `start` on, of the run of raw counts `≥ q` that holds the last
    /// step beginning before `c` (`None`: that step is before `start` or below `q`).
    fn run_through(&self, q: i64, c: &K, start: usize) -> Option<usize> {
        // The step sought is `start` itself when the next one begins at or after `c`.
        if self.t.get(start + 1).is_none_or(|s| s >= c) {
            return (self.t[start] < *c && self.v[start] >= q).then_some(start);
        }
        let j = self.t.partition_point(|s| s < c).checked_sub(1)?;
        if j < start || self.v[j] < q {
            return None;
        }
        let from_j = self.v[start..j].iter().rposition(|&x| x < q);
        // default: the run holds every step from `start` to `j`
        Some(from_j.map_or(start, |k| start + k + 1))
    }

    /// The runs of the block, if it has been searched often enough since it last changed.
    fn runs(&self) -> Option<&BlockRuns<K>> {
        if self.runs.get().is_none() {
            let n = self.asked.get() + 1;
            self.asked.set(n);
            if n < BUILD_AFTER {
                return None;
            }
        }
        Some(self.runs.get_or_init(|| BlockRuns::new(&self.t, &self.v)))
    }
}

/// The count of `v` (not empty) that is `better` than every other: its maximum or its
/// minimum, by one comparison per count.
fn bound(v: &[i64], better: impl Fn(i64, i64) -> bool) -> i64 {
    let mut m = v[0];
    for &x in &v[1..] {
        if better(x, m) {
            m = x;
        }
    }
    m
}

/// A step's place: block and index inside it.
type Pos = (usize, usize);

/// The last index from `lo` on of the sorted `xs` whose instant is at or before `t` (`lo` when
/// no later one is), probing `lo + 1`, `lo + 2`, `lo + 4`, … and then searching between the
/// last two probes: a few reads when the answer is near `lo`. `lo` must be an index of `xs`.
fn forward<K: Instant>(xs: &[K], lo: usize, t: &K) -> usize {
    // `xs[hi]` is the next probe; the answer is before `hi` once it is after `t`.
    let (mut lo, mut step) = (lo, 1);
    let mut hi = lo + 1;
    while hi < xs.len() && xs[hi] <= *t {
        lo = hi;
        hi = lo + step;
        step *= 2;
    }
    let hi = hi.min(xs.len());
    lo + xs[lo + 1..hi].partition_point(|s| s <= t)
}

/// What a change of the counts knows of where its first instant lies.
#[derive(Clone, Copy, Debug)]
enum Near {
    /// In this step (located on the profile as it is).
    At(Pos),
    /// At or after the first instant of this block.
    After(usize),
    Nothing,
}

/// A start found by [`Steps::earlier_start`] and the place of the step that holds it, so that
/// the move that follows does not locate it again; valid until the profile next changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Found<K> {
    pub(super) start: K,
    at: Pos,
}

/// The successive highs of a profile from some instant on: `(count, t)` with strictly rising
/// counts, `t` the first instant the free count reaches `count`. Answers "when are `p` nodes
/// first free" in O(log) (see [`Steps::rises_in`]), or, built with it on demand,
/// scans the profile only as far as a question needs.
#[derive(Clone, Debug, Default)]
pub(super) struct Rises<K> {
    highs: Vec<(i64, K)>,
    /// Where the scan resumes (`None`: done); the first resume is inside its step.
    next: Option<K>,
    /// Where the look-up of `next` starts: the block after the last one scanned, which holds
    /// `next` as a rule ([`Steps::locate_after`] looks it up afresh when it lies after it).
    next_block: usize,
    until: Option<K>,
    /// The last count [`Rises::reaches_before`] found, and where: the highs only grow by
    /// higher counts, so the first high reaching it stays where it is. Queued jobs of one
    /// size come in runs (job arrays), each asking the same question.
    found: Option<(u32, usize)>,
}

/// Rises are equal when their highs and scan are: `found` only remembers an answer.
impl<K: Instant> PartialEq for Rises<K> {
    fn eq(&self, o: &Rises<K>) -> bool {
        (&self.highs, &self.next, &self.until) == (&o.highs, &o.next, &o.until)
    }
}

impl<K: Instant> Eq for Rises<K> {}

impl<K: Instant> Rises<K> {
    /// The first instant at which at least `p` nodes are free (None: never), among the
    /// instants scanned so far (all of them when built with `all`).
    pub(super) fn first_at_least(&self, p: u32) -> Option<&K> {
        self.index_at_least(p).map(|i| &self.highs[i].1)
    }

    /// The index of the first high of at least `p`, among those scanned so far.
    fn index_at_least(&self, p: u32) -> Option<usize> {
        // Most jobs fit in what is free at the first instant scanned.
        if self.highs.first().is_some_and(|(c, _)| *c >= i64::from(p)) {
            return Some(0);
        }
        let i = self.highs.partition_point(|(c, _)| *c < i64::from(p));
        (i < self.highs.len()).then_some(i)
    }

    /// Whether at least `p` nodes are free at some instant before `below`, scanning `prof` on
    /// only until it knows. Each part is scanned on the profile of its time: when the profile
    /// only lost nodes since the first part (reservations), a count seen is at least the
    /// count now, so "no" stays a proof that `p` are not free before `below`.
    pub(super) fn reaches_before(&mut self, prof: &Steps<K>, p: u32, below: &K) -> bool {
        if let Some((_, i)) = self.found.filter(|f| f.0 == p) {
            return self.highs[i].1 < *below;
        }
        loop {
            if let Some(i) = self.index_at_least(p) {
                self.found = Some((p, i));
                return self.highs[i].1 < *below;
            }
            // `scan_block` sets where the next scan resumes; a resume point at or after
            // `below` stays for a later, longer question.
            match self.next.take() {
                Some(at) if at < *below => self.scan_block(prof, &at),
                other => {
                    self.next = other;
                    return false;
                }
            }
        }
    }

    /// Keeps the highs after the counts changed only at or after `at` (those before it are
    /// the same highs), and scans on from there, up to `until` (at least the old end, and
    /// `at` is before the old end: a move lands before the hull's end).
    pub(super) fn changed_from(&mut self, at: &K, until: &K) {
        let keep = self.highs.partition_point(|(_, t)| t < at);
        self.highs.truncate(keep);
        if self.found.is_some_and(|(_, i)| i >= keep) {
            self.found = None;
        }
        self.next = match self.next.take() {
            Some(n) if n < *at => Some(n),
            _ => (at < until).then(|| at.clone()),
        };
        self.until = Some(until.clone());
    }

    /// Scans the rest of the block holding `at` (from `at`), then moves on to the next block.
    fn scan_block(&mut self, prof: &Steps<K>, at: &K) {
        let before = |t: &K| self.until.as_ref().is_none_or(|u| t < u);
        let (b, i0) = prof.locate_after(self.next_block, at);
        self.next_block = b + 1;
        let blk = &prof.blocks[b];
        let mut best = self.highs.last().map_or(i64::MIN, |(c, _)| *c);
        if blk.max + blk.add > best {
            for i in i0..blk.v.len() {
                let x = blk.value(i);
                if x > best {
                    let t = if i == i0 { at } else { &blk.t[i] };
                    if !before(t) {
                        self.next = None;
                        return;
                    }
                    best = x;
                    self.highs.push((x, t.clone()));
                }
            }
        }
        self.next = prof.firsts.get(b + 1).filter(|t| before(t)).cloned();
    }
}

/// The runs of a profile with at least `p` free that begin in `[from, below)` (a run beginning
/// before `from` counted from `from`), summarised for [`Steps::earlier_start`] with those
/// `p`, `from` and `below`: see [`Steps::runs_before`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Runs<K> {
    /// The longest run (zero when there is none).
    longest: K,
    /// The latest end of a run; `None` when a run never ends (or there is none: `any`).
    last_end: Option<K>,
    any: bool,
}

impl<K: Instant> Runs<K> {
    /// No run at all.
    fn none() -> Runs<K> {
        Runs {
            longest: K::zero(),
            last_end: None,
            any: false,
        }
    }

    /// [`Steps::earlier_start`]`(p, len, from, below, start).is_some()` for the `p`, `from`
    /// and `below` these runs were taken with, and any `start ≥ below`.
    pub(super) fn fit(&self, len: &K, start: &K) -> bool {
        self.any && (self.last_end.as_ref().is_none_or(|e| e >= start) || self.longest >= *len)
    }
}

impl<K: Instant> Steps<K> {
    /// The profile of `nodes` nodes from `now`, minus the given occupations (clipped to `now`).
    /// `busy` holds `(from, to, count)`.
    pub(super) fn new(now: &K, nodes: u32, busy: &[(K, K, u32)]) -> Steps<K> {
        let mut ev: Vec<(K, i64)> = Vec::with_capacity(2 * busy.len());
        let mut at_now: i64 = i64::from(nodes);
        for (from, to, count) in busy {
            if to <= now || to <= from || *count == 0 {
                continue;
            }
            let c = i64::from(*count);
            if from <= now {
                at_now -= c;
            } else {
                ev.push((from.clone(), -c));
            }
            ev.push((to.clone(), c));
        }
        ev.sort_by(|a, b| a.0.cmp(&b.0));
        let mut t = vec![now.clone()];
        let mut v = vec![at_now];
        for (time, d) in ev {
            let last = v.len() - 1;
            if t[last] == time {
                v[last] += d;
            } else {
                v.push(v[last] + d);
                t.push(time);
            }
        }
        // A breakpoint where nothing changes (occupations ending and beginning together) is
        // left out: see `merge_at`.
        let mut keep = 0;
        for k in 0..t.len() {
            if keep == 0 || v[k] != v[keep - 1] {
                t.swap(keep, k);
                v[keep] = v[k];
                keep += 1;
            }
        }
        t.truncate(keep);
        v.truncate(keep);
        let half = BLOCK_MAX / 2;
        let mut blocks = Vec::with_capacity(t.len() / half + 1);
        while t.len() > BLOCK_MAX {
            let (rt, rv) = (t.split_off(half), v.split_off(half));
            blocks.push(Block::new(
                std::mem::replace(&mut t, rt),
                std::mem::replace(&mut v, rv),
            ));
        }
        blocks.push(Block::new(t, v));
        Steps::of(blocks)
    }

    /// The profile of `blocks` (in time order, none empty), with its index of first instants.
    fn of(blocks: Vec<Block<K>>) -> Steps<K> {
        let firsts = blocks.iter().map(|b| b.t[0].clone()).collect();
        Steps { blocks, firsts }
    }

    /// The steps (for tests and reports).
    pub(super) fn steps(&self) -> Vec<(K, i64)> {
        self.blocks
            .iter()
            .flat_map(|b| (0..b.t.len()).map(move |i| (b.t[i].clone(), b.value(i))))
            .collect()
    }

    /// The step containing `t`: the last one starting at or before `t` (the first step when
    /// `t` precedes the profile).
    fn locate(&self, t: &K) -> Pos {
        // Most look-ups are at the plan's start (`now`: every compression check begins there),
        // so the first step is tried before the binary searches.
        let bi = match self.firsts.get(1) {
            Some(f) if f <= t => self.firsts.partition_point(|f| f <= t) - 1,
            _ => 0,
        };
        self.step_in(bi, t)
    }

    /// The step of block `bi` holding `t` (its first when `t` precedes it).
    fn step_in(&self, bi: usize, t: &K) -> Pos {
        let bt = &self.blocks[bi].t;
        let i = match bt.get(1) {
            Some(s) if s <= t => bt.partition_point(|s| s <= t) - 1,
            _ => 0,
        };
        (bi, i)
    }

    /// [`Steps::locate`] for a `t` known to lie at or after the first instant of block `b`
    /// (checked: the plain look-up answers otherwise). The second half of a move, and where
    /// the rises resume, lie a few blocks after the block just changed or read: a search
    /// forward from it reads those few firsts, where the binary search over all of them reads
    /// instants spread over the whole index.
    fn locate_after(&self, b: usize, t: &K) -> Pos {
        let n = self.firsts.len();
        if b >= n || (b > 0 && self.firsts[b] > *t) {
            return self.locate(t);
        }
        self.step_in(forward(&self.firsts, b, t), t)
    }

    /// [`Steps::locate`] for a `t` at or after the instant of step `(b, i)`. The end of a
    /// change of the counts lies, as a rule, one or two steps after its beginning (a move
    /// shifts a reservation past the next breakpoint or two): probing forward from that
    /// step by doubling distances finds it in a comparison or two, where the binary search
    /// over the block is a chain of about six dependent reads. The hint is checked (the
    /// plain look-up answers otherwise), so any step gives the right answer.
    fn locate_from(&self, (b, i): Pos, t: &K) -> Pos {
        if self.firsts.get(b + 1).is_some_and(|f| f <= t) {
            return self.locate_after(b + 1, t);
        }
        let Some(bt) = self.blocks.get(b).map(|blk| &blk.t) else {
            return self.locate(t);
        };
        if i >= bt.len() || bt[i] > *t {
            return self.locate(t);
        }
        (b, forward(bt, i, t))
    }

    fn time(&self, (b, i): Pos) -> &K {
        &self.blocks[b].t[i]
    }

    /// The step after `pos`, if any.
    fn next(&self, (b, i): Pos) -> Option<Pos> {
        if i + 1 < self.blocks[b].t.len() {
            Some((b, i + 1))
        } else if b + 1 < self.blocks.len() {
            Some((b + 1, 0))
        } else {
            None
        }
    }

    /// The first step at or after `from` whose count satisfies `want` (`at_least`: ≥ p; else
    /// < p), skipping the blocks that cannot hold one.
    fn find(&self, from: Pos, p: i64, at_least: bool) -> Option<Pos> {
        if !at_least {
            return self.find_below(from, p);
        }
        let ok = |x: i64| (x >= p) == at_least;
        let (b0, i0) = from;
        for b in b0..self.blocks.len() {
            let blk = &self.blocks[b];
            let start = if b == b0 { i0 } else { 0 };
            let may = if at_least {
                blk.max + blk.add >= p
            } else {
                blk.min + blk.add < p
            };
            if !may {
                continue;
            }
            if let Some(i) = (start..blk.v.len()).find(|&i| ok(blk.value(i))) {
                return Some((b, i));
            }
        }
        None
    }

    /// The first step at or after `from` with fewer than `p` free. A block whose runs are
    /// summarised answers without a walk when the search enters it at its first step or when
    /// no count below `p` remains in it ([`BlockRuns::first_below`]), which is how a window
    /// leaves a candidate run: from a block's suffix run into the next block's prefix run.
    /// The summary is read only if built (reading it does not count as a search of the block).
    fn find_below(&self, from: Pos, p: i64) -> Option<Pos> {
        let (b0, i0) = from;
        for b in b0..self.blocks.len() {
            let blk = &self.blocks[b];
            if blk.min + blk.add >= p {
                continue;
            }
            let start = if b == b0 { i0 } else { 0 };
            let q = p - blk.add;
            if let Some(runs) = blk.runs.get() {
                match runs.first_below(q, start) {
                    Below::None => continue,
                    Below::At(i) => return Some((b, i)),
                    Below::Walk => {}
                }
            }
            if let Some(i) = (start..blk.v.len()).find(|&i| blk.v[i] < q) {
                return Some((b, i));
            }
        }
        None
    }

    /// The first step at or after `from` with at least `p` free, passing over the steps of a
    /// block's inner runs when every one of them is shorter than `len` ([`BlockRuns`]): no
    /// window of `len` can start there, so the search would reject each of them in turn.
    /// What remains of such a block is the run that holds its last step, which continues into
    /// the next block; in the block that holds `clip`, the run that reaches `clip` (a window
    /// cut there fits in it however short it is), and nothing after it, as the search's limit
    /// is at or before `clip` (`None`: no candidate before `clip`).
    fn candidate(&self, from: Pos, p: i64, len: &K, clip: Option<&K>) -> Option<Pos> {
        let (b0, i0) = from;
        for b in b0..self.blocks.len() {
            let blk = &self.blocks[b];
            if blk.max + blk.add < p {
                continue;
            }
            let start = if b == b0 { i0 } else { 0 };
            let last = &blk.t[blk.t.len() - 1];
            if blk.min + blk.add < p {
                let q = p - blk.add;
                if let Some(runs) = blk.runs().filter(|r| r.all_shorter(q, len)) {
                    let Some(c) = clip.filter(|c| *c <= last) else {
                        match runs.suffix_begin(q) {
                            Some(k) => return Some((b, k.max(start))),
                            None => continue,
                        }
                    };
                    return blk.run_through(q, c, start).map(|k| (b, k));
                }
            }
            if let Some(i) = (start..blk.v.len()).find(|&i| blk.value(i) >= p) {
                return Some((b, i));
            }
        }
        None
    }

    /// Free nodes at `t` (≥ the profile start).
    pub(super) fn free_at(&self, t: &K) -> i64 {
        let (b, i) = self.locate(t);
        self.blocks[b].value(i)
    }

    /// The earliest `s ≥ not_before` such that at least `p` nodes are free on `[s, s + len)`;
    /// a start at or after `limit` is not looked for, and `limit` is returned instead.
    /// Compression uses it with a job's current start, which stays feasible (every other
    /// reservation was placed with it present), so the search stops there instead of running
    /// over the whole profile for every queued job.
    pub(super) fn earliest_before(&self, p: u32, len: &K, not_before: &K, limit: Option<&K>) -> K {
        self.search(p, len, not_before, limit, None).0
    }

    /// Reserves `p` nodes for `len` at [`Steps::earliest_before`]`(p, len, not_before, None)`
    /// and returns that start; the step found is not located again.
    pub(super) fn reserve_earliest(&mut self, p: u32, len: &K, not_before: &K) -> K {
        let (s, at) = self.search(p, len, not_before, None, None);
        // default: the end of the profile was returned, located afresh
        let near = at.map_or(Near::Nothing, Near::At);
        self.add_in(near, &s, &s.plus(len), -i64::from(p));
        s
    }

    /// The earliest `s` in `[not_before, below)` (`below ≤ start`) with `p` free on
    /// `[s, min(s + len, start))` (`None`: there is none): whether, and where, a job reserved
    /// from `start` can start earlier, its windows checked only up to its own start. It is
    /// where the job goes when its reservation is given back and placed again at its earliest
    /// slot before `below`, found without giving it back, **on a profile with no negative
    /// count** ([`Steps::min_free`] ≥ 0): the job's own nodes then keep `p` free on
    /// `[start, s + len)`, so a window is free without the reservation iff it is free up to
    /// `start` with it. (An over-subscribed count under the job's window would make the two
    /// differ: the test module has such a profile.)
    pub(super) fn earlier_start(
        &self,
        p: u32,
        len: &K,
        not_before: &K,
        below: &K,
        start: &K,
    ) -> Option<Found<K>> {
        debug_assert!(below <= start);
        match self.search(p, len, not_before, Some(below), Some(start)) {
            (s, Some(at)) if s < *below => Some(Found { start: s, at }),
            _ => None,
        }
    }

    /// The fewest nodes free on `[f, until)`, for a start `f` found by
    /// [`Steps::earlier_start`] on this very profile and `until` after it: how many jobs of
    /// one node count that window holds side by side.
    pub(super) fn fewest_free(&self, f: &Found<K>, until: &K) -> i64 {
        let (b0, i0) = f.at;
        let mut m = i64::MAX;
        for b in b0..self.blocks.len() {
            let blk = &self.blocks[b];
            if b > b0 && blk.t[0] >= *until {
                break;
            }
            let start = if b == b0 { i0 } else { 0 };
            if start == 0 && blk.t[blk.t.len() - 1] < *until {
                m = m.min(blk.min + blk.add);
                continue;
            }
            for i in start..blk.v.len() {
                if i > start && blk.t[i] >= *until {
                    return m;
                }
                m = m.min(blk.value(i));
            }
        }
        m
    }

    /// The runs of at least `p` free nodes beginning in `[from, below)` ([`Runs`]): a job of
    /// `p` nodes can start in `[from, below)` with `p` free up to `min(s + len, start)` iff one
    /// run is at least `len` long or ends at or after `start` (the window of
    /// [`Steps::earlier_start`] fits in a run iff it fits from the run's beginning). One
    /// scan answers every queued job of `p` nodes whose start is at least `below`, until the
    /// profile changes.
    pub(super) fn runs_before(&self, p: u32, from: &K, below: &K) -> Runs<K> {
        let p = i64::from(p);
        let mut out = Runs::none();
        if below <= from {
            return out;
        }
        let mut at = Some(self.locate(from));
        while let Some(i) = at.and_then(|f| self.find(f, p, true)) {
            let ti = self.time(i);
            if ti >= below {
                break;
            }
            let s = if ti < from { from } else { ti };
            out.any = true;
            let Some(j) = self.next(i).and_then(|n| self.find(n, p, false)) else {
                out.last_end = None;
                return out;
            };
            let tj = self.time(j);
            let l = tj.minus(s);
            if l > out.longest {
                out.longest = l;
            }
            if out.last_end.as_ref().is_none_or(|e| tj > e) {
                out.last_end = Some(tj.clone());
            }
            at = self.next(j);
        }
        out
    }

    /// [`Steps::runs_before`] as a bound: `longest` and `last_end` are at least the exact ones
    /// (and `any` is exact), so [`Runs::fit`] is true whenever it is true on the exact runs, and
    /// "no fit" is still a proof that the job cannot move. A block that lies wholly before
    /// `below`, entered at its first step and whose runs are summarised ([`BlockRuns`]), is
    /// read from its summary instead of step by step: its prefix run is closed exactly, its
    /// inner runs count for [`BlockRuns::longest`] (an upper bound) ending no later than its
    /// last step, and its suffix run is opened exactly. The compression pass takes these for
    /// every node count it meets, after every move; the exact walk would read every step up
    /// to the end of the raised hull each time.
    pub(super) fn runs_bound(&self, p: u32, from: &K, below: &K) -> Runs<K> {
        let p = i64::from(p);
        let mut out = Runs::none();
        if below <= from {
            return out;
        }
        // The start of the run of ≥ p being read (counted from `from`), if one is open.
        let mut open: Option<K> = None;
        // A run (or a bound on runs) of length `l` ending at `end`.
        let note = |out: &mut Runs<K>, l: &K, end: &K| {
            if *l > out.longest {
                out.longest = l.clone();
            }
            if out.last_end.as_ref().is_none_or(|e| end > e) {
                out.last_end = Some(end.clone());
            }
        };
        let close = |out: &mut Runs<K>, s: K, end: &K| note(out, &end.minus(&s), end);
        let (b0, i0) = self.locate(from);
        for b in b0..self.blocks.len() {
            let blk = &self.blocks[b];
            let i_start = if b == b0 { i0 } else { 0 };
            // `from` may precede the profile, whose first step then begins the first run.
            let first = match b == b0 && *from > blk.t[i0] {
                true => from,
                false => &blk.t[i_start],
            };
            if open.is_none() && first >= below {
                return out;
            }
            if blk.min + blk.add >= p {
                if open.is_none() {
                    open = Some(first.clone());
                    out.any = true;
                }
                continue;
            }
            if blk.max + blk.add < p {
                if let Some(s) = open.take() {
                    close(&mut out, s, first);
                }
                continue;
            }
            let last = &blk.t[blk.t.len() - 1];
            let q = p - blk.add;
            if let Some(runs) = blk.runs.get().filter(|_| i_start == 0 && last < below) {
                // `min < p ≤ max`: the prefix run (if any) ends inside the block.
                if blk.v[0] >= q {
                    // default: a run begins at the block's first step
                    let s = open.take().unwrap_or_else(|| first.clone());
                    out.any = true;
                    if let Below::At(k) = runs.first_below(q, 0) {
                        close(&mut out, s, &blk.t[k]);
                    }
                } else if let Some(s) = open.take() {
                    close(&mut out, s, first);
                }
                if let Some(l) = runs.longest(q) {
                    out.any = true;
                    note(&mut out, l, last);
                }
                if let Some(k) = runs.suffix_begin(q) {
                    open = Some(blk.t[k].clone());
                    out.any = true;
                }
                continue;
            }
            for i in i_start..blk.v.len() {
                let t = if i == i_start { first } else { &blk.t[i] };
                if blk.v[i] >= q {
                    if open.is_none() {
                        if t >= below {
                            return out;
                        }
                        open = Some(t.clone());
                        out.any = true;
                    }
                } else if let Some(s) = open.take() {
                    close(&mut out, s, t);
                }
            }
        }
        if open.is_some() {
            out.last_end = None;
        }
        out
    }

    /// [`Steps::earliest_before`]; with `clip` (and a `limit` at or before it), windows are
    /// only checked up to `clip`. With the start found, the place of the step that holds it
    /// (`None`: `limit` or the profile's end returned). The first candidate step before
    /// `not_before` is the one located for it, so the found start is that step's own instant
    /// or lies inside it.
    fn search(
        &self,
        p: u32,
        len: &K,
        not_before: &K,
        limit: Option<&K>,
        clip: Option<&K>,
    ) -> (K, Option<Pos>) {
        debug_assert!(clip.is_none_or(|c| limit.is_some_and(|l| l <= c)));
        if let Some(l) = limit {
            if l <= not_before {
                return (l.clone(), None);
            }
        }
        let p = i64::from(p);
        // A candidate start is `not_before` or a step where the count rises to ≥ p; it fails
        // at the first later step below p that begins before its end, and the next candidate
        // is the first step ≥ p after that one.
        let mut from = Some(self.locate(not_before));
        while let Some(i) = from.and_then(|f| self.candidate(f, p, len, clip)) {
            let ti = self.time(i);
            if limit.is_some_and(|l| ti >= l) {
                break;
            }
            let s = if ti < not_before { not_before } else { ti };
            let mut end = s.plus(len);
            if let Some(c) = clip.filter(|c| end > **c) {
                end = c.clone();
            }
            let Some(j) = self.next(i).and_then(|n| self.find(n, p, false)) else {
                return (s.clone(), Some(i));
            };
            if *self.time(j) >= end {
                return (s.clone(), Some(i));
            }
            from = self.next(j);
        }
        if let Some(l) = limit {
            return (l.clone(), None);
        }
        // Unreachable when p ≤ final count; the end of the profile is the safe answer.
        let last = self.blocks.len() - 1;
        let lb = &self.blocks[last];
        (lb.t[lb.t.len() - 1].clone().max(not_before.clone()), None)
    }

    /// The first instants at which each count is reached from `from` on, before `until` (see
    /// [`Rises`]; `None`: to the end); valid as a bound "p nodes are not free before …" until a
    /// count of the profile *rises* (a reservation only lowers counts, so it only makes the
    /// bound conservative). Compression asks only whether `p` are free before the end of the
    /// raised hull, so it stops there instead of running over the whole backlog's
    /// reservations (counts reached only at or after `until` are simply absent). Scanned to
    /// `until` when `all`, else only as far as questions need ([`Rises::reaches_before`]).
    /// A compression pass keeps them across its moves ([`Rises::changed_from`]).
    pub(super) fn rises_in(&self, from: &K, until: Option<&K>, all: bool) -> Rises<K> {
        let mut r = Rises {
            highs: Vec::new(),
            next: until.is_none_or(|u| from < u).then(|| from.clone()),
            next_block: 0,
            until: until.cloned(),
            found: None,
        };
        if all {
            while let Some(at) = r.next.take() {
                r.scan_block(self, &at);
            }
        }
        r
    }

    /// The step starting exactly at `t`, inserting a breakpoint (same count as the step it
    /// cuts) if needed; `t` must not precede the profile. Returns that step's position.
    fn split(&mut self, t: &K) -> Pos {
        let at = self.locate(t);
        self.split_in(at, t)
    }

    /// [`Steps::split`] with `(b, i)` the step that holds `t`, already located.
    fn split_in(&mut self, (b, i): Pos, t: &K) -> Pos {
        debug_assert_eq!(self.locate(t), (b, i));
        let blk = &mut self.blocks[b];
        if blk.t[i] == *t {
            return (b, i);
        }
        debug_assert!(blk.t[i] < *t, "a breakpoint before the profile start");
        blk.insert_at(Err(i), t);
        if blk.t.len() > BLOCK_MAX {
            let half = blk.t.len() / 2;
            let mut right = Block::new(blk.t.split_off(half), blk.v.split_off(half));
            right.add = blk.add;
            blk.refresh();
            self.firsts.insert(b + 1, right.t[0].clone());
            self.blocks.insert(b + 1, right);
            if i + 1 >= half {
                return (b + 1, i + 1 - half);
            }
        }
        (b, i + 1)
    }

    /// Adds `delta` to the free count on `[from, to)`.
    pub(super) fn add(&mut self, from: &K, to: &K, delta: i64) {
        self.add_in(Near::Nothing, from, to, delta);
    }

    /// [`Steps::add`], with what is known of `from`'s step. Returns a block that begins at or
    /// before `from` and that the change did not move: where the look-up of a later instant
    /// may start ([`Near::After`]).
    fn add_in(&mut self, near: Near, from: &K, to: &K, delta: i64) -> usize {
        if to <= from {
            return 0;
        }
        let blocks = self.blocks.len();
        let mut at_from = match near {
            Near::At(at) => self.split_in(at, from),
            Near::After(b) => self.split_in(self.locate_after(b, from), from),
            Near::Nothing => self.split(from),
        };
        let (b1, i1) = self.split_in(self.locate_from(at_from, to), to);
        // The second split inserts after `from`'s step, so that step only moves when a block
        // splits in two.
        if self.blocks.len() != blocks {
            at_from = self.locate(from);
        }
        let (b0, i0) = at_from;
        // Steps [i0, i1) of b0 when b0 == b1; else the tail of b0, whole blocks, head of b1.
        if b0 == b1 {
            self.blocks[b0].add_to(i0..i1, delta);
        } else {
            let n0 = self.blocks[b0].v.len();
            self.blocks[b0].add_to(i0..n0, delta);
            for blk in &mut self.blocks[b0 + 1..b1] {
                blk.add += delta;
            }
            if i1 > 0 {
                self.blocks[b1].add_to(0..i1, delta);
            }
        }
        // Removing `to`'s step (after `from`'s) leaves `from`'s position as it is.
        self.merge_at((b1, i1));
        self.merge_at((b0, i0));
        // A merge removes at most the block `b0` itself (then `from` lies in the one before).
        b0.saturating_sub(1)
    }

    /// Removes the breakpoint at `(b, i)` if the count does not change there. Without this, every
    /// reservation given back leaves its two breakpoints behind, and on a backlogged trace
    /// nearly every step of the plan would be one that changes nothing (Thunder's first 50,000
    /// lines, SFSJ: 48,136 of 49,193 steps), all walked by every search.
    #[inline(always)]
    fn merge_at(&mut self, (b, i): Pos) {
        let before = if i > 0 {
            self.blocks[b].value(i - 1)
        } else if b > 0 {
            let prev = &self.blocks[b - 1];
            prev.value(prev.v.len() - 1)
        } else {
            return;
        };
        // Most breakpoints checked stay (the count does change there): only the check is
        // inlined.
        if before == self.blocks[b].value(i) {
            self.remove_step((b, i));
        }
    }

    /// Removes the step at `(b, i)`, whose count is that of the step before it.
    fn remove_step(&mut self, (b, i): Pos) {
        let blk = &mut self.blocks[b];
        if blk.t.len() == 1 {
            self.blocks.remove(b);
            self.firsts.remove(b);
            return;
        }
        blk.t.remove(i);
        blk.v.remove(i);
        if i > 0 {
            // The count removed equals the one before it in the block: the block's counts,
            // so its minimum and maximum, and its first instant are unchanged; only its runs
            // are.
            blk.forget_runs();
        } else {
            blk.refresh();
            self.firsts[b] = blk.t[0].clone();
        }
    }

    /// Moves a reservation of `p` nodes from `[start, start_end)` to `[to, to_end)`, earlier
    /// and as long: the profile of giving it back then reserving it again, changed only where
    /// the two differ (on `[to, min(start, to_end))` and `[max(start, to_end), start_end)`), so
    /// a job moved a little does not walk its whole window twice.
    pub(super) fn move_earlier(&mut self, start: &K, start_end: &K, to: &K, to_end: &K, p: u32) {
        self.move_in(Near::Nothing, start, start_end, to, to_end, p);
    }

    /// [`Steps::move_earlier`] to the start `to` found by [`Steps::earlier_start`] on this
    /// very profile, whose step is not located again.
    pub(super) fn move_to(&mut self, start: &K, start_end: &K, to: &Found<K>, to_end: &K, p: u32) {
        self.move_in(Near::At(to.at), start, start_end, &to.start, to_end, p);
    }

    fn move_in(&mut self, near: Near, start: &K, start_end: &K, to: &K, to_end: &K, p: u32) {
        debug_assert!(to < start);
        if to_end >= start {
            let at = match near {
                Near::At(at) => at,
                _ => self.locate(to),
            };
            if self.shift_within_blocks(at, start, start_end, to, to_end, p) {
                return;
            }
        }
        let (taken_end, freed_start) = if to_end < start {
            (to_end, start)
        } else {
            (start, to_end)
        };
        // The freed part begins at or after the taken part's end.
        let b = self.add_in(near, to, taken_end, -i64::from(p));
        self.add_in(Near::After(b), freed_start, start_end, i64::from(p));
    }

    /// [`Steps::move_earlier`] of a window overlapping its new place (`to_end ≥ start`) when
    /// `to` is a breakpoint and each changed part, `[to, start)` and `[to_end, start_end)`,
    /// lies in one block with room for the breakpoints it lacks at `start`, `to_end` and
    /// `start_end` (a job array's twins meet end to start with one count, so no breakpoint
    /// marks a twin's start). That is most moves of a backlogged plan (a job moves to where
    /// another ends, its new end meets another's), and it takes the counts' changes, the
    /// breakpoints inserted and the four checks for one left redundant, without the general
    /// change's look-ups and block splits. `at` is the step holding `to`. Returns false,
    /// changing nothing, otherwise.
    fn shift_within_blocks(
        &mut self,
        (b0, i0): Pos,
        start: &K,
        start_end: &K,
        to: &K,
        to_end: &K,
        p: u32,
    ) -> bool {
        if self.blocks[b0].t[i0] != *to {
            return false;
        }
        let Some(at_start) = self.cut((b0, i0), start) else {
            return false;
        };
        let (b1, i1) = self.locate_after(b0, to_end);
        let Some(at_start_end) = self.cut((b1, i1), start_end) else {
            return false;
        };
        // Breakpoints to insert, per block; an insertion must not split a block. (`start`
        // may need one again when it is `to_end` and the later part removed it.)
        let to_end_new = self.blocks[b1].t[i1] != *to_end;
        let (n0, n1) = (
            usize::from(at_start.is_err() || to_end == start),
            usize::from(to_end_new) + usize::from(at_start_end.is_err()),
        );
        let room = |b: usize, n: usize| self.blocks[b].t.len() + n <= BLOCK_MAX;
        let fits = match b0 == b1 {
            true => room(b0, n0 + n1),
            false => room(b0, n0) && room(b1, n1),
        };
        if !fits {
            return false;
        }
        let p = i64::from(p);
        // The later part first, its later end first: each insertion is after every place
        // still to be used, which stays as it was located.
        let j1 = self.blocks[b1].insert_at(at_start_end, start_end);
        let (i1, j1) = match to_end_new {
            true => (self.blocks[b1].insert_at(Err(i1), to_end), j1 + 1),
            false => (i1, j1),
        };
        self.blocks[b1].add_to(i1..j1, p);
        self.merge_at(self.normal((b1, j1)));
        self.merge_at((b1, i1));
        // Every change so far is after `start`'s place, unless `start` is `to_end` (then
        // just inserted, or removed): located again then. It stays in block `b0` (a removal
        // only makes the next block begin later); were it not, the general change gives the
        // same counts.
        let at_start = match to_end == start {
            true => self.cut((b0, i0), start),
            false => Some(at_start),
        };
        let Some(at_start) = at_start else {
            self.add(to, start, -p);
            return true;
        };
        let j0 = self.blocks[b0].insert_at(at_start, start);
        self.blocks[b0].add_to(i0..j0, -p);
        self.merge_at(self.normal((b0, j0)));
        self.merge_at((b0, i0));
        true
    }

    /// Where `t` lies in block `b`, looked for forward from its step `i` (at or before `t`):
    /// `Ok(j)` when `t` begins step `j` (`j` the block's length when `t` begins the next
    /// block), `Err(j)` when it lies inside step `j`, `None` when it lies in a later block.
    #[inline]
    fn cut(&self, (b, i): Pos, t: &K) -> Option<Result<usize, usize>> {
        let bt = &self.blocks[b].t;
        let j = forward(bt, i, t);
        if bt[j] == *t {
            return Some(Ok(j));
        }
        if j + 1 < bt.len() {
            return Some(Err(j));
        }
        match self.firsts.get(b + 1) {
            Some(f) if f == t => Some(Ok(bt.len())),
            Some(f) if f < t => None,
            // default: `t` inside the block's last step, or the profile's (which lasts on)
            _ => Some(Err(j)),
        }
    }

    /// The place `(b, n)` past the last step of a block of `n` steps as the next block's first.
    fn normal(&self, (b, i): Pos) -> Pos {
        match i == self.blocks[b].t.len() {
            true => (b + 1, 0),
            false => (b, i),
        }
    }

    /// Forgets the steps that end at or before `now` (the counts from `now` on are unchanged),
    /// so that a plan kept across events does not grow with the simulated time.
    pub(super) fn forget_before(&mut self, now: &K) {
        // Whole blocks whose successor starts at or before `now`.
        let keep = self.firsts.partition_point(|f| f <= now).saturating_sub(1);
        if keep > 0 {
            self.blocks.drain(..keep);
            self.firsts.drain(..keep);
        }
        let blk = &mut self.blocks[0];
        let i = blk.t.partition_point(|s| s <= now).saturating_sub(1);
        if i > 0 {
            blk.t.drain(..i);
            blk.v.drain(..i);
            blk.refresh();
            self.firsts[0] = blk.t[0].clone();
        }
    }

    /// Where `self` and `other` differ from `from` on: `(a, b, self − other)` on `[a, b)`, in
    /// time order (`b` None: from `a` on forever).
    pub(super) fn minus(&self, other: &Steps<K>, from: &K) -> Vec<(K, Option<K>, i64)> {
        let (x, y) = (self.steps(), other.steps());
        let at = |st: &[(K, i64)], k: usize| st[k.min(st.len()) - 1].1;
        // Every breakpoint of either from `from` on, with each side's step index there.
        let (mut i, mut j) = (
            x.partition_point(|(t, _)| t <= from).max(1),
            y.partition_point(|(t, _)| t <= from).max(1),
        );
        let mut out: Vec<(K, Option<K>, i64)> = Vec::new();
        let mut cur = from.clone();
        loop {
            let d = at(&x, i) - at(&y, j);
            let next = match (x.get(i), y.get(j)) {
                (Some(a), Some(b)) => Some(a.0.clone().min(b.0.clone())),
                (Some(a), None) => Some(a.0.clone()),
                (None, Some(b)) => Some(b.0.clone()),
                (None, None) => None,
            };
            if d != 0 {
                out.push((cur.clone(), next.clone(), d));
            }
            let Some(n) = next else { return out };
            if x.get(i).is_some_and(|a| a.0 == n) {
                i += 1;
            }
            if y.get(j).is_some_and(|b| b.0 == n) {
                j += 1;
            }
            cur = n;
        }
    }

    /// The smallest free count over the profile (a negative value is an over-subscription).
    pub(super) fn min_free(&self) -> i64 {
        self.blocks
            .iter()
            .map(|b| b.min + b.add)
            .min()
            // default: a profile always holds a block; an empty one has nothing below 0
            .unwrap_or(0)
    }

    /// The same step function with every instant mapped by `f` (which must keep their order):
    /// the move to another representation.
    pub(super) fn map<K2: Instant>(&self, f: impl Fn(&K) -> K2) -> Steps<K2> {
        Steps::of(
            self.blocks
                .iter()
                .map(|b| {
                    let mut nb = Block::new(b.t.iter().map(&f).collect(), b.v.clone());
                    nb.add = b.add;
                    nb
                })
                .collect(),
        )
    }

    /// The first and the last breakpoint (every instant the profile holds lies between them).
    pub(super) fn bounds(&self) -> (&K, &K) {
        let first = &self.blocks[0].t[0];
        let lb = &self.blocks[self.blocks.len() - 1];
        (first, &lb.t[lb.t.len() - 1])
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

    /// The earliest start by the plain walk over the steps: every candidate tried in turn,
    /// each window checked step by step.
    fn walk(
        st: &[(Time, i64)],
        p: i64,
        len: &Time,
        nb: &Time,
        limit: Option<&Time>,
        clip: Option<&Time>,
    ) -> Time {
        if let Some(l) = limit.filter(|l| *l <= nb) {
            return l.clone();
        }
        let mut k = st.partition_point(|(s, _)| s <= nb).saturating_sub(1);
        while k < st.len() {
            if let Some(l) = limit.filter(|l| st[k].0 >= **l) {
                return l.clone();
            }
            if st[k].1 >= p {
                let s = st[k].0.clone().max(nb.clone());
                let mut end = &s + len;
                if let Some(c) = clip.filter(|c| end > **c) {
                    end = c.clone();
                }
                if st[k + 1..]
                    .iter()
                    .take_while(|(t, _)| *t < end)
                    .all(|(_, v)| *v >= p)
                {
                    return s;
                }
            }
            k += 1;
        }
        match limit {
            Some(l) => l.clone(),
            None => st[st.len() - 1].0.clone().max(nb.clone()),
        }
    }

    /// What the blocks keep beside their steps is what the steps give: each block's first
    /// instant in the index, and the minimum and maximum of its counts.
    fn assert_kept(s: &Steps<Time>, ctx: &str) {
        assert_eq!(s.firsts.len(), s.blocks.len(), "{ctx}");
        for (k, (f, b)) in s.firsts.iter().zip(&s.blocks).enumerate() {
            assert_eq!(*f, b.t[0], "{ctx}: block {k}'s first instant");
            let lo = b.v.iter().min().copied();
            let hi = b.v.iter().max().copied();
            assert_eq!(
                (Some(b.min), Some(b.max)),
                (lo, hi),
                "{ctx}: block {k}'s bounds"
            );
        }
    }

    /// A look-up from a block or a step at or before the instant's own (and from any other,
    /// the check sending it to the plain look-up) finds the step the plain look-up finds,
    /// on profiles of one to about eighty blocks, for instants before, inside, on and after
    /// every breakpoint.
    #[test]
    fn look_ups_from_a_block_or_a_step_find_the_plain_look_ups_step() {
        for seed in 0..60u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let n = rng.random_range(0..4 * BLOCK_MAX * (1 + seed as usize % 5));
            let busy: Vec<(Time, Time, u32)> = (0..n)
                .map(|k| (i(10 * k as i64 + 10), i(10 * k as i64 + 15), 1))
                .collect();
            let s = Steps::new(&i(0), 4, &busy);
            let last = 10 * n as i64 + 30;
            for t in (-3..last).step_by(rng.random_range(1..4)) {
                let t = i(t);
                let want = s.locate(&t);
                for b in 0..s.blocks.len() + 2 {
                    assert_eq!(
                        s.locate_after(b, &t),
                        want,
                        "seed {seed}, t {t}, from block {b}"
                    );
                }
                // From every step of the instant's block and of its neighbours (before, at
                // and after the instant's step), and from the first step of every block.
                for b in 0..s.blocks.len() + 1 {
                    // default: a block past the last, tried from its first step
                    let n = s.blocks.get(b).map_or(0, |blk| blk.t.len());
                    let near = b + 1 >= want.0 && b <= want.0 + 1;
                    for k in 0..if near { n + 1 } else { 1 } {
                        assert_eq!(
                            s.locate_from((b, k), &t),
                            want,
                            "seed {seed}, t {t}, from step {k} of block {b}"
                        );
                    }
                }
            }
        }
    }

    /// Rises kept across a change of the counts from some instant on ([`Rises::changed_from`])
    /// answer as rises taken again on the changed profile, and hold the same highs once both
    /// are scanned to the end, whatever part of them had been scanned before the change.
    #[test]
    fn rises_kept_across_a_change_answer_as_rises_taken_again() {
        let mut truncated = 0usize;
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let nodes = rng.random_range(2..24u32);
            // Half of them running from the start, so that the count rises as they end.
            let busy: Vec<(Time, Time, u32)> = (0..rng.random_range(0..60))
                .map(|_| {
                    let from = rng.random_range(0..4_000i64) * i64::from(rng.random_bool(0.5));
                    (i(from), i(from + rng.random_range(1..3_000)), 1)
                })
                .collect();
            let mut s = Steps::new(&i(0), nodes, &busy);
            let until_n = rng.random_range(1..5_000i64);
            let mut kept = s.rises_in(&i(0), Some(&i(until_n)), rng.random_bool(0.5));
            for _ in 0..rng.random_range(0..6) {
                let p = rng.random_range(1..=nodes);
                kept.reaches_before(&s, p, &i(rng.random_range(0..5_000)));
            }
            let before = kept.highs.len();
            let at = rng.random_range(0..until_n);
            for _ in 0..rng.random_range(1..4) {
                let from = at + rng.random_range(0..800);
                let delta = rng.random_range(-3..=3i64);
                s.add(&i(from), &i(from + rng.random_range(1..900)), delta);
            }
            let until = i(until_n + rng.random_range(0..1_000));
            kept.changed_from(&i(at), &until);
            truncated += usize::from(kept.highs.len() < before);
            let mut again = s.rises_in(&i(0), Some(&until), false);
            for q in 0..30 {
                let p = rng.random_range(1..=nodes + 2);
                let below = i(rng.random_range(0..6_000));
                assert_eq!(
                    kept.reaches_before(&s, p, &below),
                    again.reaches_before(&s, p, &below),
                    "seed {seed}, question {q}: {p} free before {below}, change from {at}"
                );
            }
            for r in [&mut kept, &mut again] {
                while let Some(next) = r.next.take() {
                    r.scan_block(&s, &next);
                }
            }
            assert_eq!(kept, again, "seed {seed}: the highs, change from {at}");
        }
        assert!(
            truncated > 50,
            "only {truncated} of 300 changes met a scanned high"
        );
    }

    /// The searches (blocks passed over by their summarised runs, a window left through the
    /// next block's prefix run) against the plain walk over the steps, on profiles of many
    /// blocks searched often enough that their runs are summarised, then changed by
    /// reservations, give-backs and moves; and [`Steps::find`] below `p` against the first
    /// such step. Fails if no block was ever summarised (the summaries were not exercised).
    #[test]
    fn summarised_searches_answer_as_the_plain_walk() {
        let mut summarised = 0usize;
        // Fits by the exact runs, by the bound, and cases; runs bounded above the exact ones.
        let mut fits = (0u64, 0u64, 0u64);
        let mut loose = 0u64;
        let mut rejected = 0u64;
        // Found starts given with their step, and moves made from one.
        let (mut holding, mut moved_to) = (0u64, 0u64);
        for seed in 0..16u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let nodes = rng.random_range(2..48u32);
            let busy: Vec<(Time, Time, u32)> = (0..rng.random_range(0..2500))
                .map(|_| {
                    let from = rng.random_range(0..20_000i64);
                    (
                        i(from),
                        i(from + rng.random_range(1..900)),
                        rng.random_range(0..4),
                    )
                })
                .collect();
            let mut s = Steps::new(&i(0), nodes, &busy);
            let mut held: Vec<(Time, Time, u32)> = Vec::new();
            for step in 0..120 {
                let ctx = format!("seed {seed}, step {step}, {} blocks", s.blocks.len());
                assert_kept(&s, &ctx);
                let st = s.steps();
                for _ in 0..40 {
                    let p = rng.random_range(1..=nodes);
                    let len = i(rng.random_range(1..3000));
                    let nb = i(rng.random_range(0..22_000));
                    let limit = rng.random_bool(0.5).then(|| i(rng.random_range(0..25_000)));
                    let clip = limit
                        .as_ref()
                        .filter(|_| rng.random_bool(0.5))
                        .map(|l| l + &i(rng.random_range(0..500)));
                    let want = walk(&st, i64::from(p), &len, &nb, limit.as_ref(), clip.as_ref());
                    let (got, at) = s.search(p, &len, &nb, limit.as_ref(), clip.as_ref());
                    assert_eq!(
                        got, want,
                        "{ctx}, p {p}, len {len}, from {nb}, limit {limit:?}, clip {clip:?}"
                    );
                    // The step given with a found start is the one that holds it.
                    if let Some(at) = at {
                        assert_eq!(at, s.locate(&got), "{ctx}, p {p}, len {len}, from {nb}");
                        holding += 1;
                    }
                    let at = s.locate(&nb);
                    let below = s.find(at, i64::from(p), false).map(|k| s.time(k).clone());
                    let k = st.partition_point(|(t, _)| *t <= nb).saturating_sub(1);
                    let plain = st[k..]
                        .iter()
                        .find(|(_, v)| *v < i64::from(p))
                        .map(|(t, _)| t.clone());
                    assert_eq!(below, plain, "{ctx}, p {p}, from {nb}");
                }
                // Without summaries the bound walks every step, and is the exact runs.
                let mut walked = s.clone();
                walked.blocks.iter_mut().for_each(Block::forget_runs);
                for _ in 0..20 {
                    let p = rng.random_range(1..=nodes);
                    let from = i(rng.random_range(0..22_000));
                    let below = &from + &i(rng.random_range(0..8_000));
                    let ctx = format!("{ctx}, p {p}, from {from}, below {below}");
                    let exact = s.runs_before(p, &from, &below);
                    let bound = s.runs_bound(p, &from, &below);
                    assert_eq!(walked.runs_bound(p, &from, &below), exact, "{ctx}");
                    assert_eq!(exact.any, bound.any, "{ctx}");
                    assert!(bound.longest >= exact.longest, "{ctx}");
                    match (&bound.last_end, &exact.last_end) {
                        (Some(b), Some(e)) => assert!(b >= e, "{ctx}"),
                        (Some(_), None) => panic!("{ctx}: the bound ends a run that never ends"),
                        _ => {}
                    }
                    loose += u64::from(bound != exact);
                    // A job starting before `below` that the bound rejects cannot move either:
                    // no window from `from` on fits up to its start.
                    for _ in 0..10 {
                        let len = i(rng.random_range(1..3000));
                        let start = &from + &i(rng.random_range(1..8_000));
                        if start <= below && !bound.fit(&len, &start) {
                            let moved = s.earlier_start(p, &len, &from, &start, &start);
                            assert_eq!(moved, None, "{ctx}, len {len}, start {start}");
                            rejected += 1;
                        }
                    }
                    for _ in 0..10 {
                        let len = i(rng.random_range(1..3000));
                        let start = &below + &i(rng.random_range(0..3000));
                        let (e, b) = (exact.fit(&len, &start), bound.fit(&len, &start));
                        assert!(b || !e, "{ctx}, len {len}, start {start}: a fit rejected");
                        fits.0 += u64::from(e);
                        fits.1 += u64::from(b);
                        fits.2 += 1;
                    }
                }
                summarised += s.blocks.iter().filter(|b| b.runs.get().is_some()).count();
                match rng.random_range(0..4u8) {
                    0 if !held.is_empty() => {
                        let (a, b, q) = held.swap_remove(rng.random_range(0..held.len()));
                        s.add(&a, &b, i64::from(q));
                    }
                    1 if !held.is_empty() => {
                        let k = rng.random_range(0..held.len());
                        let (a, b, q) = held[k].clone();
                        let len = &b - &a;
                        // Its earliest start with its reservation in place, checked up to
                        // its start, as the compression pass moves it: from the found start's
                        // step, the plain move.
                        if let Some(f) = s.earlier_start(q, &len, &i(0), &a, &a) {
                            let to = f.start.clone();
                            let to_end = &to + &len;
                            let mut plain = s.clone();
                            plain.move_earlier(&a, &b, &to, &to_end, q);
                            s.move_to(&a, &b, &f, &to_end, q);
                            assert_eq!(s.steps(), plain.steps(), "{ctx}: {a} moved to {to}");
                            held[k] = (to, to_end, q);
                            moved_to += 1;
                        }
                    }
                    2 if step % 10 == 9 => {
                        let cut = i(rng.random_range(0..40) * step);
                        s.forget_before(&cut);
                        held.retain(|(a, _, _)| *a >= cut);
                    }
                    _ => {
                        let p = rng.random_range(1..=nodes);
                        let len = i(rng.random_range(1..2000));
                        let at = s.earliest_before(p, &len, &i(rng.random_range(0..20_000)), None);
                        let end = &at + &len;
                        s.add(&at, &end, -i64::from(p));
                        held.push((at, end, p));
                    }
                }
            }
        }
        assert!(summarised > 0, "no block was summarised");
        assert!(
            holding > 1000 && moved_to > 100,
            "{holding} found, {moved_to} moved to"
        );
        // The summaries were read, and the bound rejects nearly every job the exact runs do.
        assert!(loose > 0, "the bound never read a summary");
        assert!(rejected > 1000, "{rejected} jobs before `below` rejected");
        assert!(
            (fits.1 - fits.0) * 1000 <= fits.2,
            "fits by the exact runs, the bound, cases: {fits:?}"
        );
    }

    /// A profile of one to about ten blocks: up to `10 · BLOCK_MAX` occupations of 1–3 nodes,
    /// 1–39 long, from instants below four times their number, on three nodes per occupation.
    fn random_blocks(rng: &mut rand_chacha::ChaCha8Rng) -> Steps<Time> {
        let n = rng.random_range(1..10 * BLOCK_MAX);
        let busy: Vec<(Time, Time, u32)> = (0..n)
            .map(|_| {
                let from = rng.random_range(0..4 * n as i64);
                (
                    i(from),
                    i(from + rng.random_range(1..40)),
                    rng.random_range(1..4),
                )
            })
            .collect();
        Steps::new(&i(0), 3 * n as u32, &busy)
    }

    /// A move of a window onto part of itself ([`Steps::shift_within_blocks`]) leaves the
    /// steps that giving the window back and reserving the new one leave, with every block's
    /// bounds and first instant kept and no block over [`BLOCK_MAX`] steps, on profiles of
    /// one to about ten blocks, whether its ends are breakpoints already or not; a move whose
    /// parts cross a block's end, or that would split a block, is refused and changes nothing.
    /// The moves are drawn from breakpoints, a few steps or a few instants long, next to each
    /// other (`to_end = start`) and across blocks, so both answers come often.
    #[test]
    fn a_move_within_blocks_leaves_the_steps_of_a_give_back_and_a_reservation() {
        let (mut taken, mut refused) = (0, 0);
        for seed in 0..400u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut s = random_blocks(&mut rng);
            let ts: Vec<Time> = s.steps().into_iter().map(|(t, _)| t).collect();
            for step in 0..20 {
                let ctx = format!("seed {seed}, step {step}");
                // `to < start ≤ to_end < start_end`, with `start − to = start_end − to_end`.
                let a = rng.random_range(0..ts.len());
                let to = ts[a].clone();
                let d = match rng.random_bool(0.8) {
                    true => &ts[(a + rng.random_range(1..4)).min(ts.len() - 1)] - &to,
                    false => i(rng.random_range(1..9)),
                };
                if d <= i(0) {
                    continue;
                }
                let start = &to + &d;
                let to_end = match rng.random_range(0..3) {
                    0 => start.clone(),
                    1 => ts[rng.random_range(0..ts.len())].clone().max(start.clone()),
                    _ => &start + &i(rng.random_range(0..30)),
                };
                let start_end = &to_end + &d;
                let p = rng.random_range(1..5u32);
                let mut want = s.clone();
                want.add(&to, &start, -i64::from(p));
                want.add(&to_end, &start_end, i64::from(p));
                let before = s.steps();
                let at = s.locate(&to);
                if s.shift_within_blocks(at, &start, &start_end, &to, &to_end, p) {
                    taken += 1;
                    assert_eq!(s.steps(), want.steps(), "{ctx}");
                    assert_kept(&s, &ctx);
                    assert!(s.blocks.iter().all(|b| b.t.len() <= BLOCK_MAX), "{ctx}");
                } else {
                    refused += 1;
                    assert_eq!(s.steps(), before, "{ctx}: refused, yet changed");
                    s = want;
                }
            }
        }
        assert!(
            taken > 5000 && refused > 300,
            "{taken} taken, {refused} refused"
        );
    }

    /// The fewest free on a window from a found start is the minimum of the plain steps it
    /// meets, on profiles of one to about ten blocks, for windows from a breakpoint or from
    /// inside a step, a step or many blocks long.
    #[test]
    fn the_fewest_free_on_a_window_are_the_plain_steps_minimum() {
        let mut whole_blocks = 0;
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let s = random_blocks(&mut rng);
            let st = s.steps();
            for probe in 0..20 {
                let ctx = format!("seed {seed}, probe {probe}");
                let a = rng.random_range(0..st.len());
                let from = match rng.random_bool(0.5) {
                    true => st[a].0.clone(),
                    false => &st[a].0 + &Time::new(1, 2).unwrap(),
                };
                let until = match rng.random_range(0..3) {
                    0 => &from + &Time::new(1, 3).unwrap(),
                    1 => st[(a + rng.random_range(1..4)).min(st.len() - 1)].0.clone(),
                    _ => &from + &i(rng.random_range(1..4 * st.len() as i64)),
                };
                if until <= from {
                    continue;
                }
                let f = Found {
                    start: from.clone(),
                    at: s.locate(&from),
                };
                let want = (0..st.len())
                    .filter(|&k| st[k].0 < until && st.get(k + 1).is_none_or(|x| x.0 > from))
                    .map(|k| st[k].1)
                    .min();
                assert_eq!(Some(s.fewest_free(&f, &until)), want, "{ctx}");
                let (b, _) = f.at;
                whole_blocks += usize::from(s.firsts.get(b + 2).is_some_and(|x| *x < until));
            }
        }
        // Windows passing over whole blocks, read from their bounds, were met.
        assert!(
            whole_blocks > 300,
            "{whole_blocks} windows over a whole block"
        );
    }
}
