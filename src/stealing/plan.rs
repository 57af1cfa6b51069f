//! The conservative-backfilling plan (node-stealing paper, Section 4.1): a profile of the number
//! of free nodes over time, into which queued jobs are placed, in priority order, at the
//! earliest instant from which enough nodes stay free for their whole walltime.
//!
//! # Why counts and not node sets
//! Reservations hold *counts*; node identities are chosen only when a job actually starts (the
//! lowest free ids, [`super::nodes::NodeBitset::take_lowest`]). This is exact, not an
//! approximation: future node availability is known only through counts anyway (running jobs
//! end by their walltime, down nodes return at a known time, and the plan is recomputed at every
//! failure), and rigid jobs with count-feasible reservations can always be given fixed nodes at
//! start time (at every instant the free count covers what starts). It reproduces the node
//! choices of Section 3 ("J_3 on P_3 to P_8", "reserves P_1 to P_6 for J_4", "J_3 … on P_2 and
//! P_4 to P_8").
//!
//! # Why blocks (issue 16, item 5: archive traces with thousands of queued jobs)
//! The steps are kept in blocks of at most [`BLOCK_MAX`] steps, each with a pending addition
//! (a reservation covering the whole block costs O(1) there) and the minimum and maximum of its
//! counts. A placement skips whole blocks: "the next step with at least p free" skips blocks
//! whose maximum is below p, "the next step with fewer than p free" skips blocks whose minimum
//! is at least p, and a new breakpoint moves at most a block's worth of steps, not the whole
//! profile. Every answer is that of the plain scan over the steps (the test module keeps that
//! scan as the reference and compares them on random profiles): the earliest start depends only
//! on the step *function*, never on how its steps are stored.
//!
//! Two more things keep a backlogged plan cheap to search (Thunder's first 50,000 lines, SFSJ:
//! 21.9 → 9.9 s, identical outputs; BENCHMARKS.md, "blocks passed over whole"):
//! - a block whose runs are all too short for the window sought is passed over whole: each
//!   block keeps, once searched [`BUILD_AFTER`] times since it last changed, the summary of
//!   its runs by threshold ([`block_runs`]), so a search no longer rejects its candidate runs
//!   one by one;
//! - a breakpoint where the count does not change is removed as soon as an addition leaves one
//!   (a reservation given back, two reservations meeting end to start), so the plan holds about
//!   one step per reservation and not every breakpoint it ever had.
use crate::time::Time;
use block_runs::BlockRuns;
use std::cell::{Cell, OnceCell};

mod block_runs;

/// Steps per block after a split; a block splits when it exceeds [`BLOCK_MAX`].
const BLOCK_MAX: usize = 64;

/// Free-node count as a step function: step `i` holds `free` on `[t_i, t_{i+1})`; the last
/// step lasts forever. Stored in blocks (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    blocks: Vec<Block>,
}

/// A run of consecutive steps: starts `t`, counts `v[i] + add`, and `min`/`max` of `v`.
#[derive(Clone, Debug)]
struct Block {
    t: Vec<Time>,
    v: Vec<i64>,
    add: i64,
    min: i64,
    max: i64,
    /// The runs of `v` by threshold, built once searches have asked [`BUILD_AFTER`] times and
    /// dropped whenever `t` or `v` change (a whole-block addition changes neither).
    runs: OnceCell<BlockRuns>,
    /// Searches that passed over this block since `t` or `v` last changed, while `runs` was
    /// not built: it is built from the [`BUILD_AFTER`]th on, as a block changed between every
    /// pair of searches costs less to walk than to summarise.
    asked: Cell<u8>,
}

/// See [`Block::asked`]. Thunder's first 50,000 lines, SFSJ, CPU user s (noise ±15 %): 1 →
/// 15.4, 2 → 14.4, 4 → 12.8–13.7, 8 → 11.4, 16 → 11.9; larger blocks were slower (128 steps:
/// 19.5–20.6, 256: 26.7–29.2; 32: 12.2–16.8).
const BUILD_AFTER: u8 = 8;

/// Blocks are equal when their steps are: the cached runs follow from them.
impl PartialEq for Block {
    fn eq(&self, o: &Block) -> bool {
        (&self.t, &self.v, self.add, self.min, self.max) == (&o.t, &o.v, o.add, o.min, o.max)
    }
}

impl Eq for Block {}

impl Block {
    fn new(t: Vec<Time>, v: Vec<i64>) -> Block {
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

    /// Recomputes `min`/`max` (a block is never empty) and drops the cached runs.
    fn refresh(&mut self) {
        debug_assert!(!self.v.is_empty());
        self.runs = OnceCell::new();
        self.asked.set(0);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for &x in &self.v {
            lo = lo.min(x);
            hi = hi.max(x);
        }
        (self.min, self.max) = (lo, hi);
    }

    fn value(&self, i: usize) -> i64 {
        self.v[i] + self.add
    }

    /// The runs of the block, if it has been searched often enough since it last changed.
    fn runs(&self) -> Option<&BlockRuns> {
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

/// A step's place: block and index inside it.
type Pos = (usize, usize);

/// An occupation of `count` nodes over `[from, to)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy {
    pub from: Time,
    pub to: Time,
    pub count: u32,
}

/// The successive highs of a profile from some instant on: `(count, t)` with strictly rising
/// counts, `t` the first instant the free count reaches `count`. Answers "when are `p` nodes
/// first free" in O(log) (see [`Profile::rises`]), or, built with [`Profile::rises_on_demand`],
/// scans the profile only as far as a question needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rises {
    highs: Vec<(i64, Time)>,
    /// Where the scan resumes (`None`: done); the first resume is inside its step.
    next: Option<Time>,
    until: Option<Time>,
}

impl Rises {
    /// The first instant at which at least `p` nodes are free (None: never), among the
    /// instants scanned so far (all of them after [`Profile::rises`]).
    pub fn first_at_least(&self, p: u32) -> Option<&Time> {
        let i = self.highs.partition_point(|(c, _)| *c < i64::from(p));
        self.highs.get(i).map(|(_, t)| t)
    }

    /// Whether at least `p` nodes are free at some instant before `below`, scanning `prof` on
    /// only until it knows. Each part is scanned on the profile of its time: when the profile
    /// only lost nodes since the first part (reservations), a count seen is at least the
    /// count now, so "no" stays a proof that `p` are not free before `below`.
    pub fn reaches_before(&mut self, prof: &Profile, p: u32, below: &Time) -> bool {
        loop {
            if let Some(t) = self.first_at_least(p) {
                return t < below;
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

    /// Scans the rest of the block holding `at` (from `at`), then moves on to the next block.
    fn scan_block(&mut self, prof: &Profile, at: &Time) {
        let before = |t: &Time| self.until.as_ref().is_none_or(|u| t < u);
        let (b, i0) = prof.locate(at);
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
        self.next = prof
            .blocks
            .get(b + 1)
            .map(|n| n.t[0].clone())
            .filter(|t| before(t));
    }
}

/// The runs of a profile with at least `p` free that begin in `[from, below)` (a run beginning
/// before `from` counted from `from`), summarised for [`Profile::earlier_start`] with those
/// `p`, `from` and `below`: see [`Profile::runs_before`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runs {
    /// The longest run (zero when there is none).
    longest: Time,
    /// The latest end of a run; `None` when a run never ends (or there is none: `any`).
    last_end: Option<Time>,
    any: bool,
}

impl Runs {
    /// [`Profile::earlier_start`]`(p, len, from, below, start).is_some()` for the `p`, `from`
    /// and `below` these runs were taken with, and any `start ≥ below`.
    pub fn fit(&self, len: &Time, start: &Time) -> bool {
        self.any && (self.last_end.as_ref().is_none_or(|e| e >= start) || self.longest >= *len)
    }
}

impl Profile {
    /// The profile of `nodes` nodes from `now`, minus the given occupations (clipped to `now`).
    pub fn new(now: &Time, nodes: u32, busy: &[Busy]) -> Profile {
        let mut ev: Vec<(Time, i64)> = Vec::with_capacity(2 * busy.len());
        let mut at_now: i64 = i64::from(nodes);
        for b in busy {
            if b.to <= *now || b.to <= b.from || b.count == 0 {
                continue;
            }
            let c = i64::from(b.count);
            if b.from <= *now {
                at_now -= c;
            } else {
                ev.push((b.from.clone(), -c));
            }
            ev.push((b.to.clone(), c));
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
        Profile { blocks }
    }

    /// The steps (for tests and reports).
    pub fn steps(&self) -> Vec<(Time, i64)> {
        self.blocks
            .iter()
            .flat_map(|b| (0..b.t.len()).map(move |i| (b.t[i].clone(), b.value(i))))
            .collect()
    }

    /// The step containing `t`: the last one starting at or before `t` (the first step when
    /// `t` precedes the profile).
    fn locate(&self, t: &Time) -> Pos {
        // Most look-ups are at the plan's start (`now`: every compression check begins there),
        // so the first step is tried before the binary searches.
        let bi = match self.blocks.get(1) {
            Some(b) if b.t[0] <= *t => self.blocks.partition_point(|b| b.t[0] <= *t) - 1,
            _ => 0,
        };
        let bt = &self.blocks[bi].t;
        let i = match bt.get(1) {
            Some(s) if s <= t => bt.partition_point(|s| s <= t) - 1,
            _ => 0,
        };
        (bi, i)
    }

    fn time(&self, (b, i): Pos) -> &Time {
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

    /// The first step at or after `from` with at least `p` free, passing over the steps of a
    /// block's inner runs when every one of them is shorter than `len` ([`BlockRuns`]) and
    /// ends before `clip`: no window of `len` (cut at `clip`) can start there, so the search
    /// would reject each of them in turn. What remains of such a block is the run that holds
    /// its last step, which continues into the next block.
    fn candidate(&self, from: Pos, p: i64, len: &Time, clip: Option<&Time>) -> Option<Pos> {
        let (b0, i0) = from;
        for b in b0..self.blocks.len() {
            let blk = &self.blocks[b];
            if blk.max + blk.add < p {
                continue;
            }
            let start = if b == b0 { i0 } else { 0 };
            let last = &blk.t[blk.t.len() - 1];
            if blk.min + blk.add < p && clip.is_none_or(|c| c > last) {
                let q = p - blk.add;
                if let Some(runs) = blk.runs().filter(|r| r.longest(q).is_none_or(|l| l < len)) {
                    match runs.suffix_begin(q) {
                        Some(k) => return Some((b, k.max(start))),
                        None => continue,
                    }
                }
            }
            if let Some(i) = (start..blk.v.len()).find(|&i| blk.value(i) >= p) {
                return Some((b, i));
            }
        }
        None
    }

    /// Free nodes at `t` (≥ the profile start).
    pub fn free_at(&self, t: &Time) -> i64 {
        let (b, i) = self.locate(t);
        self.blocks[b].value(i)
    }

    /// The earliest `s ≥ not_before` such that at least `p` nodes are free on `[s, s + len)`.
    ///
    /// Always exists when `p` ≤ the final count (every occupation ends).
    pub fn earliest(&self, p: u32, len: &Time, not_before: &Time) -> Time {
        self.earliest_before(p, len, not_before, None)
    }

    /// As [`Profile::earliest`], but a start at or after `limit` is not looked for: `limit`
    /// is returned instead. Compression uses it with a job's current start, which stays
    /// feasible (every other reservation was placed with it present), so the search stops there
    /// instead of running over the whole profile for every queued job.
    pub fn earliest_before(
        &self,
        p: u32,
        len: &Time,
        not_before: &Time,
        limit: Option<&Time>,
    ) -> Time {
        self.search(p, len, not_before, limit, None)
    }

    /// The earliest `s` in `[not_before, below)` (`below ≤ start`) with `p` free on
    /// `[s, min(s + len, start))` (`None`: there is none): whether, and where, a job reserved
    /// from `start` can start earlier, its windows checked only up to its own start. It is
    /// where the job goes when its reservation is given back and placed again at its earliest
    /// slot before `below`, found without giving it back, **on a profile with no negative
    /// count** ([`Profile::min_free`] ≥ 0): the job's own nodes then keep `p` free on
    /// `[start, s + len)`, so a window is free without the reservation iff it is free up to
    /// `start` with it. (An over-subscribed count under the job's window would make the two
    /// differ: the test module has such a profile.)
    pub fn earlier_start(
        &self,
        p: u32,
        len: &Time,
        not_before: &Time,
        below: &Time,
        start: &Time,
    ) -> Option<Time> {
        debug_assert!(below <= start);
        let s = self.search(p, len, not_before, Some(below), Some(start));
        (s < *below).then_some(s)
    }

    /// The runs of at least `p` free nodes beginning in `[from, below)` ([`Runs`]): a job of
    /// `p` nodes can start in `[from, below)` with `p` free up to `min(s + len, start)` iff one
    /// run is at least `len` long or ends at or after `start` (the window of
    /// [`Profile::earlier_start`] fits in a run iff it fits from the run's beginning). One
    /// scan answers every queued job of `p` nodes whose start is at least `below`, until the
    /// profile changes.
    pub fn runs_before(&self, p: u32, from: &Time, below: &Time) -> Runs {
        let p = i64::from(p);
        let mut out = Runs {
            longest: Time::zero(),
            last_end: None,
            any: false,
        };
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
            let l = tj - s;
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

    /// [`Profile::earliest_before`]; with `clip`, windows are only checked up to `clip`.
    fn search(
        &self,
        p: u32,
        len: &Time,
        not_before: &Time,
        limit: Option<&Time>,
        clip: Option<&Time>,
    ) -> Time {
        if let Some(l) = limit {
            if l <= not_before {
                return l.clone();
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
            let mut end = s + len;
            if let Some(c) = clip.filter(|c| end > **c) {
                end = c.clone();
            }
            let Some(j) = self.next(i).and_then(|n| self.find(n, p, false)) else {
                return s.clone();
            };
            if *self.time(j) >= end {
                return s.clone();
            }
            from = self.next(j);
        }
        if let Some(l) = limit {
            return l.clone();
        }
        // Unreachable when p ≤ final count; the end of the profile is the safe answer.
        let last = self.blocks.len() - 1;
        let lb = &self.blocks[last];
        lb.t[lb.t.len() - 1].clone().max(not_before.clone())
    }

    /// The first instants at which each count is reached from `from` on, before `until` (see
    /// [`Rises`]; `None`: to the end); valid as a bound "p nodes are not free before …" until a
    /// count of the profile *rises* (a reservation only lowers counts, so it only makes the
    /// bound conservative). Compression asks only whether `p` are free before the end of the
    /// raised hull, so it stops there instead of running over the whole backlog's
    /// reservations (counts reached only at or after `until` are simply absent).
    pub fn rises(&self, from: &Time, until: Option<&Time>) -> Rises {
        let mut r = self.rises_on_demand(from, until);
        while let Some(at) = r.next.take() {
            r.scan_block(self, &at);
        }
        r
    }

    /// As [`Profile::rises`], scanned only as questions need ([`Rises::reaches_before`]):
    /// compression asks mostly about counts reached soon after `now`, and its rises are
    /// recomputed after every move, so scanning them to `until` each time was 10–12 % of a run
    /// on the archive traces.
    pub fn rises_on_demand(&self, from: &Time, until: Option<&Time>) -> Rises {
        Rises {
            highs: Vec::new(),
            next: until.is_none_or(|u| from < u).then(|| from.clone()),
            until: until.cloned(),
        }
    }

    /// The step starting exactly at `t`, inserting a breakpoint (same count as the step it
    /// cuts) if needed; `t` must not precede the profile. Returns that step's position.
    fn split(&mut self, t: &Time) -> Pos {
        let (b, i) = self.locate(t);
        let blk = &mut self.blocks[b];
        if blk.t[i] == *t {
            return (b, i);
        }
        debug_assert!(blk.t[i] < *t, "a breakpoint before the profile start");
        let x = blk.v[i];
        blk.t.insert(i + 1, t.clone());
        blk.v.insert(i + 1, x);
        blk.runs = OnceCell::new();
        blk.asked.set(0);
        if blk.t.len() > BLOCK_MAX {
            let half = blk.t.len() / 2;
            let mut right = Block::new(blk.t.split_off(half), blk.v.split_off(half));
            right.add = blk.add;
            blk.refresh();
            self.blocks.insert(b + 1, right);
            if i + 1 >= half {
                return (b + 1, i + 1 - half);
            }
        }
        (b, i + 1)
    }

    /// Adds `delta` to the free count on `[from, to)`.
    fn add(&mut self, from: &Time, to: &Time, delta: i64) {
        if to <= from {
            return;
        }
        let blocks = self.blocks.len();
        let mut at_from = self.split(from);
        let (b1, i1) = self.split(to);
        // The second split inserts after `from`'s step, so that step only moves when a block
        // splits in two.
        if self.blocks.len() != blocks {
            at_from = self.locate(from);
        }
        let (b0, i0) = at_from;
        // Steps [i0, i1) of b0 when b0 == b1; else the tail of b0, whole blocks, head of b1.
        let partial = |blk: &mut Block, r: std::ops::Range<usize>| {
            for x in &mut blk.v[r] {
                *x += delta;
            }
            blk.refresh();
        };
        if b0 == b1 {
            partial(&mut self.blocks[b0], i0..i1);
        } else {
            let n0 = self.blocks[b0].v.len();
            partial(&mut self.blocks[b0], i0..n0);
            for blk in &mut self.blocks[b0 + 1..b1] {
                blk.add += delta;
            }
            if i1 > 0 {
                partial(&mut self.blocks[b1], 0..i1);
            }
        }
        // Removing `to`'s step (after `from`'s) leaves `from`'s position as it is.
        self.merge_at((b1, i1));
        self.merge_at((b0, i0));
    }

    /// Removes the breakpoint at `(b, i)` if the count does not change there. Without this, every
    /// reservation given back leaves its two breakpoints behind, and on a backlogged trace the
    /// plan was measured holding 49,193 steps of which 48,136 changed nothing (Thunder, first
    /// 50,000 lines, SFSJ): every search walked them.
    fn merge_at(&mut self, (b, i): Pos) {
        let before = if i > 0 {
            self.blocks[b].value(i - 1)
        } else if b > 0 {
            let prev = &self.blocks[b - 1];
            prev.value(prev.v.len() - 1)
        } else {
            return;
        };
        if before != self.blocks[b].value(i) {
            return;
        }
        let blk = &mut self.blocks[b];
        if blk.t.len() == 1 {
            self.blocks.remove(b);
            return;
        }
        blk.t.remove(i);
        blk.v.remove(i);
        blk.refresh();
    }

    /// Reserves `p` nodes on `[start, start + len)`.
    pub fn reserve(&mut self, start: &Time, len: &Time, p: u32) {
        self.add(start, &(start + len), -i64::from(p));
    }

    /// Gives back a reservation made by [`Profile::reserve`].
    pub fn unreserve(&mut self, start: &Time, len: &Time, p: u32) {
        self.add(start, &(start + len), i64::from(p));
    }

    /// Moves a reservation of `p` nodes and length `len` from `start` to `to`, earlier: the
    /// profile of [`Profile::unreserve`] then [`Profile::reserve`], changed only where they
    /// differ (on `[to, min(start, to + len))` and `[max(start, to + len), start + len)`), so
    /// a job moved a little does not walk its whole window twice.
    pub fn move_earlier(&mut self, start: &Time, to: &Time, len: &Time, p: u32) {
        debug_assert!(to < start);
        let to_end = to + len;
        let start_end = start + len;
        let (taken_end, freed_start) = if to_end < *start {
            (&to_end, start)
        } else {
            (start, &to_end)
        };
        self.add(to, taken_end, -i64::from(p));
        self.add(freed_start, &start_end, i64::from(p));
    }

    /// Gives back `p` nodes on `[from, to)` (an occupation that ended early).
    pub fn release(&mut self, from: &Time, to: &Time, p: u32) {
        self.add(from, to, i64::from(p));
    }

    /// Forgets the steps that end at or before `now` (the counts from `now` on are unchanged),
    /// so that a plan kept across events does not grow with the simulated time.
    pub fn forget_before(&mut self, now: &Time) {
        // Whole blocks whose successor starts at or before `now`.
        let keep = self
            .blocks
            .partition_point(|b| b.t[0] <= *now)
            .saturating_sub(1);
        if keep > 0 {
            self.blocks.drain(..keep);
        }
        let blk = &mut self.blocks[0];
        let i = blk.t.partition_point(|s| s <= now).saturating_sub(1);
        if i > 0 {
            blk.t.drain(..i);
            blk.v.drain(..i);
            blk.refresh();
        }
    }

    /// Where `self` and `other` differ from `from` on: `(a, b, self − other)` on `[a, b)`, in
    /// time order (`b` None: from `a` on forever).
    pub fn minus(&self, other: &Profile, from: &Time) -> Vec<(Time, Option<Time>, i64)> {
        let (x, y) = (self.steps(), other.steps());
        let at = |st: &[(Time, i64)], k: usize| st[k.min(st.len()) - 1].1;
        // Every breakpoint of either from `from` on, with each side's step index there.
        let (mut i, mut j) = (
            x.partition_point(|(t, _)| t <= from).max(1),
            y.partition_point(|(t, _)| t <= from).max(1),
        );
        let mut out: Vec<(Time, Option<Time>, i64)> = Vec::new();
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

    /// Adds `delta` on `[from, to)` (a difference found by [`Profile::minus`]).
    pub fn shift(&mut self, from: &Time, to: &Time, delta: i64) {
        self.add(from, to, delta);
    }

    /// The smallest free count over the profile (a negative value is an over-subscription).
    pub fn min_free(&self) -> i64 {
        self.blocks
            .iter()
            .map(|b| b.min + b.add)
            .min()
            // default: a profile always holds a block; an empty one has nothing below 0
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(n: i64) -> Time {
        Time::from_int(n)
    }

    #[test]
    fn toy_example_plan_after_the_failure() {
        // Section 3 at t = 1, Baseline: J1 on one node until 8, J2 on one node until 5, node P3
        // down until 6; J3 (6 nodes, 10) has the highest priority, then J4 (6, 10), then J5 (1, 2).
        let busy = vec![
            Busy {
                from: i(0),
                to: i(8),
                count: 1,
            },
            Busy {
                from: i(0),
                to: i(5),
                count: 1,
            },
            Busy {
                from: i(1),
                to: i(6),
                count: 1,
            },
        ];
        let mut pr = Profile::new(&i(1), 8, &busy);
        assert_eq!(pr.steps(), vec![(i(1), 5), (i(5), 6), (i(6), 7), (i(8), 8)]);
        let s3 = pr.earliest(6, &i(10), &i(1));
        assert_eq!(s3, i(5));
        pr.reserve(&s3, &i(10), 6);
        let s4 = pr.earliest(6, &i(10), &i(1));
        assert_eq!(s4, i(15));
        pr.reserve(&s4, &i(10), 6);
        assert_eq!(pr.earliest(1, &i(2), &i(1)), i(1));
        assert!(pr.min_free() >= 0);
        pr.unreserve(&s4, &i(10), 6);
        assert_eq!(pr.free_at(&i(20)), 8);
    }

    #[test]
    fn a_reservation_given_back_leaves_no_breakpoint() {
        let busy = vec![Busy {
            from: i(2),
            to: i(6),
            count: 2,
        }];
        let mut pr = Profile::new(&i(0), 4, &busy);
        let before = pr.steps();
        assert_eq!(before, vec![(i(0), 4), (i(2), 2), (i(6), 4)]);
        pr.reserve(&i(6), &i(3), 2);
        // Meeting the occupation end to start: 2 free from 2 to 9, one step.
        assert_eq!(pr.steps(), vec![(i(0), 4), (i(2), 2), (i(9), 4)]);
        pr.unreserve(&i(6), &i(3), 2);
        assert_eq!(pr.steps(), before);
        // Two adjacent whole-block ranges and a give-back across blocks.
        let many: Vec<Busy> = (0..200)
            .map(|k| Busy {
                from: i(3 * k),
                to: i(3 * k + 2),
                count: 1,
            })
            .collect();
        let mut pr = Profile::new(&i(0), 4, &many);
        let before = pr.steps();
        pr.reserve(&i(1), &i(500), 3);
        pr.unreserve(&i(1), &i(500), 3);
        assert_eq!(pr.steps(), before);
    }

    #[test]
    fn earliest_respects_not_before_and_gaps() {
        let busy = vec![
            Busy {
                from: i(0),
                to: i(4),
                count: 3,
            },
            Busy {
                from: i(6),
                to: i(9),
                count: 3,
            },
        ];
        let pr = Profile::new(&i(0), 4, &busy);
        assert_eq!(pr.earliest(2, &i(2), &i(0)), i(4));
        assert_eq!(pr.earliest(2, &i(3), &i(0)), i(9));
        assert_eq!(pr.earliest(1, &i(100), &i(0)), i(0));
        assert_eq!(pr.earliest(2, &i(1), &i(5)), i(5));
    }

    /// The plain scan over a step vector that the blocked profile replaced: the reference its
    /// answers are compared with.
    fn reference_earliest(
        steps: &[(Time, i64)],
        p: u32,
        len: &Time,
        not_before: &Time,
        limit: Option<&Time>,
        clip: Option<&Time>,
    ) -> Time {
        if let Some(l) = limit {
            if l <= not_before {
                return l.clone();
            }
        }
        let p = i64::from(p);
        let n = steps.len();
        let mut i = steps
            .partition_point(|(s, _)| s <= not_before)
            .saturating_sub(1);
        while i < n {
            if limit.is_some_and(|l| steps[i].0 >= *l) {
                break;
            }
            if steps[i].1 < p {
                i += 1;
                continue;
            }
            let s = steps[i].0.clone().max(not_before.clone());
            let mut end = &s + len;
            if let Some(c) = clip.filter(|c| end > **c) {
                end = c.clone();
            }
            let mut j = i + 1;
            let mut ok = true;
            while j < n && steps[j].0 < end {
                if steps[j].1 < p {
                    ok = false;
                    break;
                }
                j += 1;
            }
            if ok {
                return s;
            }
            i = j + 1;
        }
        if let Some(l) = limit {
            return l.clone();
        }
        steps[n - 1].0.clone().max(not_before.clone())
    }

    /// `steps` with equal neighbours merged: the step function itself.
    fn function(steps: Vec<(Time, i64)>) -> Vec<(Time, i64)> {
        let mut out: Vec<(Time, i64)> = Vec::new();
        for (t, v) in steps {
            if out.last().is_none_or(|l| l.1 != v) {
                out.push((t, v));
            }
        }
        out
    }

    #[test]
    fn blocked_profile_answers_as_the_plain_scan() {
        use rand::{RngExt, SeedableRng};
        for seed in 0..40u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let nodes = rng.random_range(1..40u32);
            let busy: Vec<Busy> = (0..rng.random_range(0..300))
                .map(|_| {
                    let from = rng.random_range(0..2000i64);
                    Busy {
                        from: Time::new(from, rng.random_range(1..4)).unwrap(),
                        to: i(from + rng.random_range(1..300)),
                        count: rng.random_range(0..3),
                    }
                })
                .collect();
            let mut pr = Profile::new(&i(0), nodes, &busy);
            let mut reserved: Vec<(Time, Time, u32)> = Vec::new();
            let until = i(2500);
            let mut on_demand: Option<(Rises, bool)> = None;
            for step in 0..400 {
                let ctx = format!("seed {seed}, step {step}");
                let p = rng.random_range(1..=nodes);
                let len = Time::new(rng.random_range(1..400), rng.random_range(1..3)).unwrap();
                let nb = i(rng.random_range(0..2500));
                let limit = rng.random_bool(0.5).then(|| i(rng.random_range(0..3000)));
                let steps = pr.steps();
                let want = reference_earliest(&steps, p, &len, &nb, limit.as_ref(), None);
                let got = pr.earliest_before(p, &len, &nb, limit.as_ref());
                assert_eq!(got, want, "{ctx}");
                if let Some(l) = &limit {
                    let clipped = reference_earliest(&steps, p, &len, &nb, Some(l), Some(l));
                    let before = pr.earlier_start(p, &len, &nb, l, l);
                    assert_eq!(before.is_some(), clipped < *l, "{ctx}");
                    // Starts limited to before `below`, windows still checked up to `l`.
                    let below = i(rng.random_range(0..3000)).min(l.clone());
                    let within = reference_earliest(&steps, p, &len, &nb, Some(&below), Some(l));
                    assert_eq!(
                        pr.earlier_start(p, &len, &nb, &below, l).is_some(),
                        within < below,
                        "{ctx}"
                    );
                    // The run summary answers the same for every start at or after `below`.
                    let runs = pr.runs_before(p, &nb, &below);
                    assert_eq!(runs.fit(&len, l), within < below, "{ctx}");
                    let later = l + &i(rng.random_range(0..200));
                    let far = reference_earliest(&steps, p, &len, &nb, Some(&below), Some(&later));
                    assert_eq!(runs.fit(&len, &later), far < below, "{ctx}");
                }
                let first = steps
                    .iter()
                    .position(|(_, v)| *v >= i64::from(p))
                    .map(|k| steps[k].0.clone().max(steps[0].0.clone()));
                assert_eq!(
                    pr.rises(&steps[0].0, None).first_at_least(p).cloned(),
                    first,
                    "{ctx}"
                );
                // Cut at `nb`: the same answer when it comes before `nb`, none otherwise.
                assert_eq!(
                    pr.rises(&steps[0].0, Some(&nb)).first_at_least(p).cloned(),
                    first.clone().filter(|t| *t < nb),
                    "{ctx}"
                );
                // Rises scanned on demand, kept while the profile only loses nodes: never a
                // "no" when `p` are free before `below`, and exact while nothing changed.
                let (lazy, fresh) = on_demand
                    .get_or_insert_with(|| (pr.rises_on_demand(&steps[0].0, Some(&until)), true));
                let below = i(rng.random_range(0..2600)).min(until.clone());
                let free_before = first.as_ref().is_some_and(|t| *t < below);
                let got = lazy.reaches_before(&pr, p, &below);
                assert!(got || !free_before, "{ctx}");
                if *fresh {
                    assert_eq!(got, free_before, "{ctx}");
                }
                if rng.random_bool(0.3) && !reserved.is_empty() {
                    let k = rng.random_range(0..reserved.len());
                    let (s, l, q) = reserved.swap_remove(k);
                    pr.unreserve(&s, &l, q);
                    on_demand = None;
                } else if want >= i(0) && p <= nodes {
                    pr.reserve(&want, &len, p);
                    reserved.push((want, len, p));
                    if let Some((_, fresh)) = on_demand.as_mut() {
                        *fresh = false;
                    }
                }
                assert_eq!(pr.min_free(), steps_min(&pr.steps()), "{ctx}");
                // No breakpoint is left where the count does not change.
                let st = pr.steps();
                assert_eq!(function(st.clone()), st, "{ctx}");
            }
            // Forgetting the past keeps the function from that instant on.
            let cut = i(rng.random_range(0..3000));
            let tail = |st: Vec<(Time, i64)>| -> Vec<(Time, i64)> {
                let k = st.partition_point(|(t, _)| *t <= cut).saturating_sub(1);
                let mut v = function(st[k..].to_vec());
                v[0].0 = v[0].0.clone().max(cut.clone());
                v
            };
            let before = tail(pr.steps());
            pr.forget_before(&cut);
            assert_eq!(tail(pr.steps()), before, "seed {seed}");
        }
    }

    /// Compression's move in place ([`Profile::earlier_start`], [`Profile::move_earlier`])
    /// against giving the reservation back, searching and reserving again, on plans built as
    /// the simulator builds them (every reservation at a feasible slot, so no count is
    /// negative), with occupations given back early as completions do.
    #[test]
    fn a_move_in_place_is_a_give_back_and_a_new_reservation() {
        use rand::{RngExt, SeedableRng};
        let mut moved = 0;
        for seed in 0..60u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let nodes = rng.random_range(1..30u32);
            let mut pr = Profile::new(&i(0), nodes, &[]);
            let mut reserved: Vec<(Time, Time, u32)> = Vec::new();
            for step in 0..300 {
                let ctx = format!("seed {seed}, step {step}");
                let p = rng.random_range(1..=nodes);
                let len = Time::new(rng.random_range(1..400), rng.random_range(1..3)).unwrap();
                let nb = i(rng.random_range(0..2000));
                let s = pr.earliest(p, &len, &nb);
                pr.reserve(&s, &len, p);
                reserved.push((s, len, p));
                if rng.random_bool(0.3) {
                    // A completion: part of a reservation given back.
                    let k = rng.random_range(0..reserved.len());
                    let (s, l, q) = reserved.swap_remove(k);
                    let cut = &s + &Time::new(rng.random_range(0..=1), 2).unwrap() * &l;
                    pr.release(&s, &(&s + &l), q);
                    pr.reserve(&s, &(&cut - &s), q);
                }
                assert!(pr.min_free() >= 0, "{ctx}");
                if reserved.is_empty() {
                    continue;
                }
                let k = rng.random_range(0..reserved.len());
                let (s, l, q) = reserved[k].clone();
                let nb = i(rng.random_range(0..2000)).min(s.clone());
                let below = i(rng.random_range(0..2000)).min(s.clone()).max(nb.clone());
                let mut given_back = pr.clone();
                given_back.unreserve(&s, &l, q);
                let want = given_back.earliest_before(q, &l, &nb, Some(&below));
                let got = pr.earlier_start(q, &l, &nb, &below, &s);
                assert_eq!(got, (want < below).then(|| want.clone()), "{ctx}");
                if let Some(to) = got {
                    pr.move_earlier(&s, &to, &l, q);
                    given_back.reserve(&to, &l, q);
                    assert_eq!(pr.steps(), given_back.steps(), "{ctx}");
                    reserved[k].0 = to;
                    moved += 1;
                }
            }
        }
        assert!(moved > 1000, "only {moved} moves");
    }

    /// Why [`Profile::earlier_start`] needs a profile without negative counts: over-subscribed
    /// under the job's own window, giving the reservation back does not make the window free.
    #[test]
    fn an_over_subscribed_window_is_not_freed_by_giving_back() {
        // 2 nodes, all free before 10; a job of 2 reserved on [10, 25); 3 more taken on
        // [12, 14), which leaves −3 there.
        let mut pr = Profile::new(&i(0), 2, &[]);
        pr.reserve(&i(10), &i(15), 2);
        pr.add(&i(12), &i(14), -3);
        assert!(pr.min_free() < 0);
        // Given back, [12, 14) still has −1 free: no window of 15 starts before 10.
        let mut given_back = pr.clone();
        given_back.unreserve(&i(10), &i(15), 2);
        assert_eq!(
            given_back.earliest_before(2, &i(15), &i(0), Some(&i(10))),
            i(10)
        );
        // In place, [0, 10) is free up to the job's start.
        assert_eq!(
            pr.earlier_start(2, &i(15), &i(0), &i(10), &i(10)),
            Some(i(0))
        );
    }

    #[test]
    fn minus_lists_the_differences() {
        let a = Profile::new(
            &i(0),
            4,
            &[Busy {
                from: i(0),
                to: i(5),
                count: 1,
            }],
        );
        let b = Profile::new(
            &i(0),
            4,
            &[
                Busy {
                    from: i(0),
                    to: i(3),
                    count: 1,
                },
                Busy {
                    from: i(2),
                    to: i(8),
                    count: 2,
                },
            ],
        );
        // a: 3 on [0,5), 4 after; b: 3 on [0,2), 1 on [2,3), 2 on [3,8), 4 after.
        assert_eq!(
            a.minus(&b, &i(1)),
            vec![
                (i(2), Some(i(3)), 2),
                (i(3), Some(i(5)), 1),
                (i(5), Some(i(8)), 2)
            ]
        );
        assert_eq!(a.minus(&a, &i(0)), vec![]);
        let mut c = b.clone();
        for (x, y, d) in a.minus(&b, &i(0)) {
            c.shift(&x, &y.unwrap(), d);
        }
        assert_eq!(function(c.steps()), function(a.steps()));
    }

    fn steps_min(st: &[(Time, i64)]) -> i64 {
        st.iter().map(|s| s.1).min().unwrap()
    }
}
