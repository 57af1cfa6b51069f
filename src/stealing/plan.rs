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
//! # Why blocks (archive traces with thousands of queued jobs)
//! The steps are kept in blocks of at most `BLOCK_MAX` steps (`steps`), each with a pending
//! addition (a reservation covering the whole block costs O(1) there) and the minimum and maximum
//! of its counts. A placement skips whole blocks: "the next step with at least p free" skips blocks
//! whose maximum is below p, "the next step with fewer than p free" skips blocks whose minimum is
//! at least p, and a new breakpoint moves at most a block's worth of steps, not the whole profile.
//! Every answer is that of the plain scan over the steps (the test module keeps that scan as the
//! reference and compares them on random profiles): the earliest start depends only on the step
//! *function*, never on how its steps are stored.
//!
//! Four more things keep a backlogged plan cheap to search, and none changes an output (the
//! `stealing` bench's `archive` cases measure them):
//! - a block whose runs are all too short for the window sought is passed over whole: each
//!   block keeps, once searched `BUILD_AFTER` times since it last changed, the summary of
//!   its runs by threshold (`block_runs`), so a search does not reject its candidate runs
//!   one by one; in the block that holds a moving job's own start, only the run that reaches
//!   that start is left to try (a window cut at the start fits in it however short it is);
//! - a breakpoint where the count does not change is removed as soon as an addition leaves one
//!   (a reservation given back, two reservations meeting end to start), so the plan holds about
//!   one step per reservation and not every breakpoint it ever had;
//! - a compression pass remembers, per node count and length, the windows it found no room in
//!   (`fails`), so the next job of the same shape (job arrays queue hundreds) searches only
//!   from where the one before it stopped, not from the plan's start again;
//! - a compression pass passes over a job identical to the one before it (node count, length
//!   and start: an array reserved side by side) when that one kept its slot, and keeps the
//!   counts reached before a move's new start across the move: on RICC-2010-2 most checks
//!   are of such jobs.
//!
//! # Why integer ticks
//! The step function itself (`steps`) is generic over the instant type, and a profile holds
//! it in integer ticks of a common denominator D (`instant`) whenever every instant fits:
//! D starts as the 1/[`GRID`] grid on which failures and checkpoint periods are drawn, and
//! grows to the lcm with any other denominator it is given (a trace's seconds are already on
//! it). An instant that fits no scale within the tick range (2^61 ticks: 73 million years at
//! D = 1000) turns the profile into exact rationals for good, so an answer is never rounded
//! and never depends on the representation (`ticks_answer_as_exact_rationals` runs both on
//! the same random plans). A comparison becomes one integer comparison instead of two 128-bit
//! products, a sum one addition instead of gcds, and a step 8 bytes instead of 24, with every
//! output `cmp`-equal to that of exact rationals (the `stealing` bench measures the gain). The
//! rest of the simulator keeps [`Time`]: the profile converts at its boundary, one
//! multiplication per instant.
//!
//! # Why the planning passes run here, on a mirror of the queue
//! A compression pass checks every queued job, and a full recomputation places every one:
//! SDSC-BLUE's SFSJ run makes 224 million checks for 18.7 million moves. Run in the
//! simulator, each check would read its job from the queue and convert its start and length
//! to ticks for every question, and each placement would convert its start back and forth.
//! So the two passes run here ([`Profile::compress`], [`Profile::place_all`], in `pass`) on
//! [`Queue`], the queue's node counts, lengths and starts in ticks, which the simulator keeps
//! beside its own queue; an instant is converted once, when a job is queued or given a start,
//! and every output stays `cmp`-equal to that of the passes run in the simulator.
use crate::stealing::checkpoint::GRID;
use crate::time::Time;
use instant::{Instant, Scale, Tick, Times};
use std::borrow::Cow;
use std::collections::VecDeque;
use steps::Steps;

mod block_runs;
mod fails;
mod instant;
mod pass;
mod steps;

/// An occupation of `count` nodes over `[from, to)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy {
    pub from: Time,
    pub to: Time,
    pub count: u32,
}

/// Free-node count as a step function: step `i` holds `free` on `[t_i, t_{i+1})`; the last
/// step lasts forever. Held in integer ticks while every instant fits a common scale, else in
/// exact rationals (see the module doc); the answers are the same either way.
#[derive(Clone, Debug)]
pub struct Profile {
    repr: Repr,
}

#[derive(Clone, Debug)]
enum Repr {
    Ticks(Steps<Tick>, Scale),
    Exact(Steps<Time>),
}

/// A profile's steps, borrowed in its representation, with the instants asked about.
enum At<'a, const N: usize> {
    Ticks(&'a mut Steps<Tick>, Scale, [Tick; N]),
    Exact(&'a mut Steps<Time>),
}

/// The ticks of `ts` at `sc`, or the first instant that does not fit.
fn ticks_at<const N: usize>(sc: Scale, ts: [&Time; N]) -> Result<[Tick; N], &Time> {
    let mut out = [Tick::zero(); N];
    for (o, t) in out.iter_mut().zip(ts) {
        *o = sc.tick(t).ok_or(t)?;
    }
    Ok(out)
}

impl Profile {
    /// The profile of `nodes` nodes from `now`, minus the given occupations (clipped to `now`).
    /// Its scale is the 1/[`GRID`] grid of drawn times refined by every denominator given.
    pub fn new(now: &Time, nodes: u32, busy: &[Busy]) -> Profile {
        let mut scale = Scale::new(GRID as i64);
        for t in std::iter::once(now).chain(busy.iter().flat_map(|b| [&b.from, &b.to])) {
            scale = scale.and_then(|s| match s.tick(t) {
                Some(_) => Some(s),
                None => s.with(t).map(|(finer, _)| finer),
            });
        }
        if let Some(sc) = scale {
            let ticks: Option<Vec<(Tick, Tick, u32)>> = busy
                .iter()
                .map(|b| Some((sc.tick(&b.from)?, sc.tick(&b.to)?, b.count)))
                .collect();
            if let (Some(n), Some(busy)) = (sc.tick(now), ticks) {
                return Profile {
                    repr: Repr::Ticks(Steps::new(&n, nodes, &busy), sc),
                };
            }
        }
        let busy: Vec<(Time, Time, u32)> = busy
            .iter()
            .map(|b| (b.from.clone(), b.to.clone(), b.count))
            .collect();
        Profile {
            repr: Repr::Exact(Steps::new(now, nodes, &busy)),
        }
    }

    /// Whether the profile is held in integer ticks (for tests and reports).
    pub fn in_ticks(&self) -> bool {
        matches!(self.repr, Repr::Ticks(..))
    }

    /// The same profile held in exact rationals (the reference of the tests).
    #[cfg(test)]
    fn exact_copy(&self) -> Profile {
        Profile {
            repr: Repr::Exact(self.exact_view().into_owned()),
        }
    }

    /// The steps as exact times.
    pub fn steps(&self) -> Vec<(Time, i64)> {
        match &self.repr {
            Repr::Ticks(s, sc) => s
                .steps()
                .into_iter()
                .map(|(k, v)| (sc.time(k), v))
                .collect(),
            Repr::Exact(s) => s.steps(),
        }
    }

    /// The steps, with `ts` converted to the profile's ticks: the scale is refined, or the
    /// profile turned exact, first if one of them does not fit.
    fn at<const N: usize>(&mut self, ts: [&Time; N]) -> At<'_, N> {
        let mut got = None;
        while let Repr::Ticks(_, sc) = &self.repr {
            match ticks_at(*sc, ts) {
                Ok(k) => {
                    got = Some(k);
                    break;
                }
                Err(t) => self.widen(t),
            }
        }
        match &mut self.repr {
            Repr::Exact(s) => At::Exact(s),
            Repr::Ticks(s, sc) => {
                let sc = *sc;
                debug_assert!(got.is_some());
                // unreachable: the loop leaves a tick profile only with every instant converted
                let k = got.unwrap_or_else(|| ts.map(|t| sc.tick(t).unwrap_or(Tick::zero())));
                At::Ticks(s, sc, k)
            }
        }
    }

    /// Makes room for `t`: ticks at the finer scale that holds it if every instant fits there,
    /// else exact rationals (a plan never goes back to ticks; a new one starts in them).
    fn widen(&mut self, t: &Time) {
        let Repr::Ticks(s, sc) = &self.repr else {
            return;
        };
        let (first, last) = s.bounds();
        let finer = sc.with(t).filter(|(finer, f)| {
            finer.tick(t).is_some()
                && Scale::refine(*first, *f).is_some()
                && Scale::refine(*last, *f).is_some()
        });
        let repr = match finer {
            Some((finer, f)) => Repr::Ticks(
                s.map(|k| {
                    let r = Scale::refine(*k, f);
                    debug_assert!(r.is_some());
                    // unreachable: every instant lies between the two refined above
                    r.unwrap_or(*k)
                }),
                finer,
            ),
            None => Repr::Exact(s.map(|k| sc.time(*k))),
        };
        self.repr = repr;
    }

    /// Runs `f` on the steps in exact rationals, the profile turned exact first if it is not
    /// (an instant that does not fit any scale).
    fn on_exact<R>(&mut self, f: impl FnOnce(&mut Steps<Time>) -> R) -> R {
        match &mut self.repr {
            Repr::Exact(s) => f(s),
            Repr::Ticks(s, sc) => {
                let sc = *sc;
                let mut e = s.map(|k| sc.time(*k));
                let r = f(&mut e);
                self.repr = Repr::Exact(e);
                r
            }
        }
    }

    /// The steps in exact rationals, copied out of ticks if need be (for comparisons).
    fn exact_view(&self) -> Cow<'_, Steps<Time>> {
        match &self.repr {
            Repr::Ticks(s, sc) => Cow::Owned(s.map(|k| sc.time(*k))),
            Repr::Exact(s) => Cow::Borrowed(s),
        }
    }

    /// Free nodes at `t` (≥ the profile start).
    pub fn free_at(&mut self, t: &Time) -> i64 {
        match self.at([t]) {
            At::Ticks(s, _, [k]) => s.free_at(&k),
            At::Exact(s) => s.free_at(t),
        }
    }

    /// The earliest `s ≥ not_before` such that at least `p` nodes are free on `[s, s + len)`.
    ///
    /// Always exists when `p` ≤ the final count (every occupation ends).
    pub fn earliest(&mut self, p: u32, len: &Time, not_before: &Time) -> Time {
        self.earliest_before(p, len, not_before, None)
    }

    /// As [`Profile::earliest`], but a start at or after `limit` is not looked for: `limit`
    /// is returned instead. Compression uses it with a job's current start, which stays
    /// feasible (every other reservation was placed with it present), so the search stops there
    /// instead of running over the whole profile for every queued job.
    pub fn earliest_before(
        &mut self,
        p: u32,
        len: &Time,
        not_before: &Time,
        limit: Option<&Time>,
    ) -> Time {
        match limit {
            None => match self.at([len, not_before]) {
                At::Ticks(s, sc, [l, nb]) => sc.time(s.earliest_before(p, &l, &nb, None)),
                At::Exact(s) => s.earliest_before(p, len, not_before, None),
            },
            Some(lim) => match self.at([len, not_before, lim]) {
                At::Ticks(s, sc, [l, nb, li]) => sc.time(s.earliest_before(p, &l, &nb, Some(&li))),
                At::Exact(s) => s.earliest_before(p, len, not_before, Some(lim)),
            },
        }
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
        &mut self,
        p: u32,
        len: &Time,
        not_before: &Time,
        below: &Time,
        start: &Time,
    ) -> Option<Time> {
        debug_assert!(below <= start);
        match self.at([len, not_before, below, start]) {
            At::Ticks(s, sc, [l, nb, b, st]) => s
                .earlier_start(p, &l, &nb, &b, &st)
                .map(|f| sc.time(f.start)),
            At::Exact(s) => s
                .earlier_start(p, len, not_before, below, start)
                .map(|f| f.start),
        }
    }

    /// The runs of at least `p` free nodes beginning in `[from, below)` ([`Runs`]): a job of
    /// `p` nodes can start in `[from, below)` with `p` free up to `min(s + len, start)` iff one
    /// run is at least `len` long or ends at or after `start` (the window of
    /// [`Profile::earlier_start`] fits in a run iff it fits from the run's beginning). One
    /// scan answers every queued job of `p` nodes whose start is at least `below`, until the
    /// profile changes.
    pub fn runs_before(&mut self, p: u32, from: &Time, below: &Time) -> Runs {
        match self.at([from, below]) {
            At::Ticks(s, sc, [f, b]) => Runs(RunsIn::Ticks(s.runs_before(p, &f, &b), sc)),
            At::Exact(s) => Runs(RunsIn::Exact(s.runs_before(p, from, below))),
        }
    }

    /// The first instants at which each count is reached from `from` on, before `until` (see
    /// [`Rises`]; `None`: to the end); valid as a bound "p nodes are not free before …" until a
    /// count of the profile *rises* (a reservation only lowers counts, so it only makes the
    /// bound conservative). Compression asks only whether `p` are free before the end of the
    /// raised hull, so it stops there instead of running over the whole backlog's
    /// reservations (counts reached only at or after `until` are simply absent).
    pub fn rises(&mut self, from: &Time, until: Option<&Time>) -> Rises {
        self.rises_with(from, until, true)
    }

    /// As [`Profile::rises`], scanned only as questions need ([`Rises::reaches_before`]):
    /// compression asks mostly about counts reached soon after `now`, and its rises are
    /// recomputed after every move, so scanning them to `until` each time would be a sizeable
    /// share of a run on the archive traces.
    pub fn rises_on_demand(&mut self, from: &Time, until: Option<&Time>) -> Rises {
        self.rises_with(from, until, false)
    }

    /// [`Profile::rises`] (`all`) or [`Profile::rises_on_demand`].
    fn rises_with(&mut self, from: &Time, until: Option<&Time>, all: bool) -> Rises {
        let inner = match until {
            None => match self.at([from]) {
                At::Ticks(s, sc, [f]) => RisesIn::Ticks(s.rises_in(&f, None, all), sc),
                At::Exact(s) => RisesIn::Exact(s.rises_in(from, None, all)),
            },
            Some(u) => match self.at([from, u]) {
                At::Ticks(s, sc, [f, u]) => RisesIn::Ticks(s.rises_in(&f, Some(&u), all), sc),
                At::Exact(s) => RisesIn::Exact(s.rises_in(from, Some(u), all)),
            },
        };
        Rises {
            from: from.clone(),
            until: until.cloned(),
            inner,
        }
    }

    /// Adds `delta` on `[start, start + len)`, in ticks when the end fits in them.
    fn add_window(&mut self, start: &Time, len: &Time, delta: i64) {
        match self.at([start, len]) {
            At::Ticks(s, _, [a, l]) if instant::fits(a.plus(&l)) => s.add(&a, &a.plus(&l), delta),
            At::Exact(s) => s.add(start, &(start + len), delta),
            At::Ticks(..) => self.on_exact(|s| s.add(start, &(start + len), delta)),
        }
    }

    /// Reserves `p` nodes on `[start, start + len)`.
    pub fn reserve(&mut self, start: &Time, len: &Time, p: u32) {
        self.add_window(start, len, -i64::from(p));
    }

    /// Gives back a reservation made by [`Profile::reserve`].
    pub fn unreserve(&mut self, start: &Time, len: &Time, p: u32) {
        self.add_window(start, len, i64::from(p));
    }

    /// Moves a reservation of `p` nodes and length `len` from `start` to `to`, earlier: the
    /// profile of [`Profile::unreserve`] then [`Profile::reserve`], changed only where they
    /// differ (on `[to, min(start, to + len))` and `[max(start, to + len), start + len)`), so
    /// a job moved a little does not walk its whole window twice.
    pub fn move_earlier(&mut self, start: &Time, to: &Time, len: &Time, p: u32) {
        debug_assert!(to < start);
        match self.at([start, to, len]) {
            At::Ticks(s, _, [a, b, l])
                if instant::fits(a.plus(&l)) && instant::fits(b.plus(&l)) =>
            {
                s.move_earlier(&a, &a.plus(&l), &b, &b.plus(&l), p)
            }
            At::Exact(s) => s.move_earlier(start, &(start + len), to, &(to + len), p),
            At::Ticks(..) => {
                self.on_exact(|s| s.move_earlier(start, &(start + len), to, &(to + len), p))
            }
        }
    }

    /// Gives back `p` nodes on `[from, to)` (an occupation that ended early).
    pub fn release(&mut self, from: &Time, to: &Time, p: u32) {
        self.shift(from, to, i64::from(p));
    }

    /// Adds `delta` on `[from, to)` (a difference found by [`Profile::minus`]).
    pub fn shift(&mut self, from: &Time, to: &Time, delta: i64) {
        match self.at([from, to]) {
            At::Ticks(s, _, [f, t]) => s.add(&f, &t, delta),
            At::Exact(s) => s.add(from, to, delta),
        }
    }

    /// Forgets the steps that end at or before `now` (the counts from `now` on are unchanged),
    /// so that a plan kept across events does not grow with the simulated time.
    pub fn forget_before(&mut self, now: &Time) {
        match self.at([now]) {
            At::Ticks(s, _, [n]) => s.forget_before(&n),
            At::Exact(s) => s.forget_before(now),
        }
    }

    /// Where `self` and `other` differ from `from` on: `(a, b, self − other)` on `[a, b)`, in
    /// time order (`b` None: from `a` on forever).
    pub fn minus(&self, other: &Profile, from: &Time) -> Vec<(Time, Option<Time>, i64)> {
        if let (Repr::Ticks(a, sa), Repr::Ticks(b, sb)) = (&self.repr, &other.repr) {
            if let Some(f) = sa.tick(from).filter(|_| sa == sb) {
                let back = |k: Tick| sa.time(k);
                return a
                    .minus(b, &f)
                    .into_iter()
                    .map(|(x, y, d)| (back(x), y.map(back), d))
                    .collect();
            }
        }
        // Different scales or representations: compared as exact rationals.
        self.exact_view().minus(&other.exact_view(), from)
    }

    /// The smallest free count over the profile (a negative value is an over-subscription).
    pub fn min_free(&self) -> i64 {
        match &self.repr {
            Repr::Ticks(s, _) => s.min_free(),
            Repr::Exact(s) => s.min_free(),
        }
    }

    /// Section 4.1's compression pass from `now` over the queue `q` mirrors (`jobs`, the
    /// simulator's own values, are read only when the mirror must be taken again): every
    /// queued job, in priority order, moved to its earliest slot before its start that meets
    /// `raised` (the hull of where counts rose since the plan was last settled), and the
    /// `unplanned` new jobs placed at their earliest slot (see `Sim::replan_pass` for why each
    /// filter of `pass::compress` is exact). Runs in ticks when they can hold the pass
    /// (`Profile::mirror`), else on exact rationals; the answers are the same.
    pub fn compress(
        &mut self,
        q: &mut Queue,
        jobs: impl Fn() -> Vec<QueuedSlot>,
        now: &Time,
        raised: Option<&(Time, Time)>,
        unplanned: usize,
    ) -> Compressed {
        let mut out = Compressed {
            checks: 0,
            moves: 0,
            shortened: 0,
            along: 0,
            moved: None,
            started: Vec::new(),
        };
        // Nothing raised and no new job: nothing can move (and the mirror is not taken).
        if raised.is_none() && unplanned == 0 {
            return out;
        }
        // `now` stands for the hull's ends when nothing is raised (they are not used then).
        let (a, b) = raised.map_or((now, now), |(a, b)| (a, b));
        if let (Some([n, ka, kb]), Repr::Ticks(steps, sc)) =
            (self.mirror(q, &jobs, [now, a, b]), &mut self.repr)
        {
            let sc = *sc;
            let r = raised.map(|_| (ka, kb));
            let d = pass::compress(
                steps,
                q.slots.make_contiguous(),
                &n,
                r,
                unplanned,
                &mut q.memory,
            );
            // Most passes start and move nothing: the table is not filled for them. A pass
            // that does may give thousands of starts, so the vector is sized at once.
            if !d.started.is_empty() {
                let mut times = Times::new(sc);
                out.started = Vec::with_capacity(d.started.len());
                out.started.extend(
                    d.started
                        .iter()
                        .filter_map(|&k| Some((k, times.time(q.slots[k].start?)))),
                );
            }
            (out.checks, out.moves) = (d.checks, d.moves);
            (out.shortened, out.along) = (d.shortened, d.along);
            out.moved = d.moved.map(|(a, b)| (sc.time(a), sc.time(b)));
            return out;
        }
        let mut slots = exact_slots(jobs());
        let d = self.on_exact(|s| {
            let mut memory = pass::Memory::new();
            pass::compress(s, &mut slots, now, raised.cloned(), unplanned, &mut memory)
        });
        out.started = d
            .started
            .iter()
            .filter_map(|&k| Some((k, slots[k].start.clone()?)))
            .collect();
        (out.checks, out.moves) = (d.checks, d.moves);
        (out.shortened, out.along) = (d.shortened, d.along);
        out.moved = d.moved;
        out
    }

    /// Section 4.1's full recomputation on this profile (the occupations known now): every
    /// job of the queue `q` mirrors placed, in priority order, at its earliest slot from
    /// `now` (`pass::place_all`). Returns the starts, in queue order, and leaves them in the
    /// mirror. In ticks when they can hold it (`Profile::mirror`), else exact.
    pub fn place_all(
        &mut self,
        q: &mut Queue,
        jobs: impl Fn() -> Vec<QueuedSlot>,
        now: &Time,
    ) -> Vec<Time> {
        if let (Some([n]), Repr::Ticks(steps, sc)) = (self.mirror(q, &jobs, [now]), &mut self.repr)
        {
            let sc = *sc;
            pass::place_all(steps, q.slots.make_contiguous(), &n);
            let mut times = Times::new(sc);
            let mut starts = Vec::with_capacity(q.slots.len());
            starts.extend(q.slots.iter().filter_map(|s| Some(times.time(s.start?))));
            return starts;
        }
        let mut slots = exact_slots(jobs());
        self.on_exact(|s| pass::place_all(s, &mut slots, now));
        slots.into_iter().filter_map(|s| s.start).collect()
    }

    /// Readies the profile and the mirror `q` of the queue `jobs` for a pass in ticks: the
    /// instants `ts` and every length and start of the queue on the profile's scale (the
    /// scale refined first if need be, by [`Profile::at`]; the mirror taken again when it is
    /// at another one), and room in the tick range for every reservation end the pass can
    /// make (the last breakpoint plus every queued length: a job is placed no later than the
    /// last breakpoint, and a move only brings an end earlier). Returns the ticks of `ts`, or
    /// `None` when the profile is (or has just been turned) exact.
    fn mirror<const N: usize>(
        &mut self,
        q: &mut Queue,
        jobs: &impl Fn() -> Vec<QueuedSlot>,
        ts: [&Time; N],
    ) -> Option<[Tick; N]> {
        loop {
            let (sc, ks, last) = match self.at(ts) {
                At::Ticks(steps, sc, ks) => (sc, ks, steps.bounds().1.raw()),
                At::Exact(_) => {
                    // An exact pass gives starts the mirror does not see: taken again later.
                    q.forget();
                    return None;
                }
            };
            if q.scale != Some(sc) {
                if let Err(t) = q.take(sc, &jobs()) {
                    // The scale is refined, or the profile turned exact, and `ts` asked again.
                    q.forget();
                    self.widen(&t);
                    continue;
                }
            }
            debug_assert!(q.scale == Some(sc) && mirrors(q, sc, &jobs()));
            if i128::from(last) + q.total > i128::from(instant::LIMIT) {
                q.forget();
                self.on_exact(|_| ());
                return None;
            }
            return Some(ks);
        }
    }
}

/// The queue as exact slots, for a pass on a profile in rationals.
fn exact_slots(jobs: Vec<QueuedSlot>) -> Vec<pass::Slot<Time>> {
    let mut slots: Vec<pass::Slot<Time>> = jobs
        .into_iter()
        .map(|j| pass::Slot::new(j.p, j.len, j.start))
        .collect();
    pass::link(&mut slots);
    slots
}

/// Whether `q` holds `jobs` at scale `sc`, with exact run counts (the mirror the simulator
/// keeps, checked in debug builds before every pass).
fn mirrors(q: &Queue, sc: Scale, jobs: &[QueuedSlot]) -> bool {
    let mut linked = q.slots.clone();
    pass::link(linked.make_contiguous());
    linked == q.slots
        && q.slots.len() == jobs.len()
        && q.slots.iter().zip(jobs).all(|(s, j)| {
            s.p == j.p
                && Some(s.len) == sc.tick(&j.len)
                && s.start == j.start.as_ref().and_then(|t| sc.tick(t))
                && s.start.is_some() == j.start.is_some()
        })
        && q.total
            == q.slots
                .iter()
                .map(|s| i128::from(s.len.raw()))
                .sum::<i128>()
}

/// The queued jobs' node counts, lengths and planned starts in a plan's ticks, kept beside the
/// simulator's queue in the same order: [`Profile::compress`] and [`Profile::place_all`] run
/// on them (the module doc says why). The simulator mirrors every insertion and removal of
/// its queue here; starts are given here by the passes (a full recomputation clears them
/// first, [`Queue::clear_starts`]). After a change of scale, or a pass run on exact
/// rationals, the next pass takes the queue again from the simulator's own (exact) values.
#[derive(Clone, Debug, Default)]
pub struct Queue {
    /// The scale of `slots`; `None`: to be taken again at the next pass.
    scale: Option<Scale>,
    slots: VecDeque<pass::Slot<Tick>>,
    /// The sum of every slot's length in ticks, for the bound that keeps each reservation end
    /// a pass makes within the tick range (see `Profile::mirror`).
    total: i128,
    /// The working memory of the passes in ticks (failure records, the slots to recount).
    memory: pass::Memory<Tick>,
}

impl Queue {
    /// An empty queue.
    pub fn new() -> Queue {
        Queue::default()
    }

    /// Mirrors a job of `p` nodes and length `len`, with no start yet, queued at index `i`.
    /// An index past the end (no such queue) drops the mirror, as a length off the scale does:
    /// the next pass takes the queue again.
    pub fn insert(&mut self, i: usize, p: u32, len: &Time) {
        let Some(sc) = self.scale else { return };
        match sc.tick(len).filter(|_| i <= self.slots.len()) {
            Some(l) => {
                self.total += i128::from(l.raw());
                self.slots.insert(i, pass::Slot::new(p, l, None));
                pass::relink(self.slots.make_contiguous(), i);
            }
            None => self.forget(),
        }
    }

    /// Mirrors the removal of the job at index `i` (past the end: the mirror is dropped).
    pub fn remove(&mut self, i: usize) {
        if i >= self.slots.len() {
            self.forget();
        } else if let Some(s) = self.slots.remove(i) {
            self.total -= i128::from(s.len.raw());
            if let Some(before) = i.checked_sub(1) {
                pass::relink(self.slots.make_contiguous(), before);
            }
        }
    }

    /// Mirrors a full recomputation about to give every job a new start: no job has one.
    pub fn clear_starts(&mut self) {
        for s in &mut self.slots {
            s.start = None;
            s.same = 0;
        }
    }

    /// Drops the mirror: the next pass takes the queue again.
    pub fn forget(&mut self) {
        self.scale = None;
        self.slots.clear();
        self.total = 0;
    }

    /// Takes the queue `jobs` (node count, length, start) at scale `sc`, or returns the first
    /// instant that does not fit it.
    fn take(&mut self, sc: Scale, jobs: &[QueuedSlot]) -> Result<(), Time> {
        self.forget();
        for j in jobs {
            let len = sc.tick(&j.len).ok_or_else(|| j.len.clone())?;
            let start = match &j.start {
                Some(t) => Some(sc.tick(t).ok_or_else(|| t.clone())?),
                None => None,
            };
            self.total += i128::from(len.raw());
            self.slots.push_back(pass::Slot::new(j.p, len, start));
        }
        pass::link(self.slots.make_contiguous());
        self.scale = Some(sc);
        Ok(())
    }
}

/// A queued job as [`Profile::compress`] reads it from the simulator: node count, reserved
/// length, planned start (`None`: not placed yet).
#[derive(Clone, Debug)]
pub struct QueuedSlot {
    pub p: u32,
    pub len: Time,
    pub start: Option<Time>,
}

/// What [`Profile::compress`] did.
#[derive(Clone, Debug)]
pub struct Compressed {
    /// Jobs checked (placed or asked whether they can move) and moved.
    pub checks: u64,
    pub moves: u64,
    /// Searches begun past the windows an earlier job of the same shape was found to have no
    /// room in (`fails`).
    pub shortened: u64,
    /// Moves of a job's twins (its node count, length and start, right after it in the
    /// queue) taken along to its new start, without a search of their own.
    pub along: u64,
    /// The hull of the slots the moves freed (`None`: nobody moved, the plan is settled).
    pub moved: Option<(Time, Time)>,
    /// The jobs given a start (a new job placed, or a job moved), by queue index, with it.
    pub started: Vec<(usize, Time)>,
}

/// The successive highs of a profile from some instant on: `(count, t)` with strictly rising
/// counts, `t` the first instant the free count reaches `count`. Answers "when are `p` nodes
/// first free" in O(log) (see [`Profile::rises`]), or, built with [`Profile::rises_on_demand`],
/// scans the profile only as far as a question needs.
#[derive(Clone, Debug)]
pub struct Rises {
    from: Time,
    until: Option<Time>,
    inner: RisesIn,
}

#[derive(Clone, Debug)]
enum RisesIn {
    Ticks(steps::Rises<Tick>, Scale),
    Exact(steps::Rises<Time>),
}

impl Rises {
    /// The first instant at which at least `p` nodes are free (None: never), among the
    /// instants scanned so far (all of them after [`Profile::rises`]).
    pub fn first_at_least(&self, p: u32) -> Option<Time> {
        match &self.inner {
            RisesIn::Ticks(r, sc) => r.first_at_least(p).map(|k| sc.time(*k)),
            RisesIn::Exact(r) => r.first_at_least(p).cloned(),
        }
    }

    /// Whether at least `p` nodes are free at some instant before `below`, scanning `prof` on
    /// only until it knows. Each part is scanned on the profile of its time: when the profile
    /// only lost nodes since the first part (reservations), a count seen is at least the
    /// count now, so "no" stays a proof that `p` are not free before `below`. Rises taken
    /// before the profile changed its scale are taken again (a fresh scan is exact).
    pub fn reaches_before(&mut self, prof: &mut Profile, p: u32, below: &Time) -> bool {
        loop {
            match (prof.at([below]), &mut self.inner) {
                (At::Ticks(s, sc, [b]), RisesIn::Ticks(r, rs)) if sc == *rs => {
                    return r.reaches_before(s, p, &b);
                }
                (At::Exact(s), RisesIn::Exact(r)) => return r.reaches_before(s, p, below),
                _ => {}
            }
            let (from, until) = (self.from.clone(), self.until.clone());
            *self = prof.rises_on_demand(&from, until.as_ref());
        }
    }
}

/// The runs of a profile with at least `p` free that begin in `[from, below)` (a run beginning
/// before `from` counted from `from`), summarised for [`Profile::earlier_start`] with those
/// `p`, `from` and `below`: see [`Profile::runs_before`].
#[derive(Clone, Debug)]
pub struct Runs(RunsIn);

#[derive(Clone, Debug)]
enum RunsIn {
    Ticks(steps::Runs<Tick>, Scale),
    Exact(steps::Runs<Time>),
}

impl Runs {
    /// [`Profile::earlier_start`]`(p, len, from, below, start).is_some()` for the `p`, `from`
    /// and `below` these runs were taken with, and any `start ≥ below`; `true` ("may fit":
    /// the caller then searches) when `len` or `start` is off the scale they were taken at.
    pub fn fit(&self, len: &Time, start: &Time) -> bool {
        match &self.0 {
            RunsIn::Ticks(r, sc) => match (sc.tick(len), sc.tick(start)) {
                (Some(l), Some(s)) => r.fit(&l, &s),
                _ => true,
            },
            RunsIn::Exact(r) => r.fit(len, start),
        }
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
        let mut pr = Profile::new(&i(0), 4, &busy);
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
                    pr.rises(&steps[0].0, None).first_at_least(p),
                    first,
                    "{ctx}"
                );
                // Cut at `nb`: the same answer when it comes before `nb`, none otherwise.
                assert_eq!(
                    pr.rises(&steps[0].0, Some(&nb)).first_at_least(p),
                    first.clone().filter(|t| *t < nb),
                    "{ctx}"
                );
                // Rises scanned on demand, kept while the profile only loses nodes: never a
                // "no" when `p` are free before `below`, and exact while nothing changed.
                let (lazy, fresh) = on_demand
                    .get_or_insert_with(|| (pr.rises_on_demand(&steps[0].0, Some(&until)), true));
                let below = i(rng.random_range(0..2600)).min(until.clone());
                let free_before = first.as_ref().is_some_and(|t| *t < below);
                let got = lazy.reaches_before(&mut pr, p, &below);
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
        pr.shift(&i(12), &i(14), -3);
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

    /// Ticks and exact rationals give the same answers: random plans built through every
    /// operation, on instants whose denominators make the scale finer (1/3, 1/7 on the 1/1000
    /// grid) and, now and then, an instant too large for ticks (the plan turns exact), against
    /// the same operations on a plan held in rationals from the start.
    #[test]
    fn ticks_answer_as_exact_rationals() {
        use rand::{RngExt, SeedableRng};
        let (mut refined, mut turned) = (0, 0);
        for seed in 0..40u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let nodes = rng.random_range(1..20u32);
            let at = |rng: &mut rand_chacha::ChaCha8Rng, hi: i64| {
                let den = [1, 1, 2, 1000, 3, 7][rng.random_range(0..6)];
                Time::new(rng.random_range(0..hi * den), den).unwrap()
            };
            let busy: Vec<Busy> = (0..rng.random_range(0..40))
                .map(|_| {
                    let from = at(&mut rng, 500);
                    Busy {
                        to: &from + &at(&mut rng, 100),
                        from,
                        count: rng.random_range(0..3),
                    }
                })
                .collect();
            let mut fast = Profile::new(&i(0), nodes, &busy);
            let mut exact = fast.exact_copy();
            let mut placed: Vec<(Time, Time, u32)> = Vec::new();
            let was_ticks = fast.in_ticks();
            for step in 0..200 {
                let ctx = format!("seed {seed}, step {step}");
                let p = rng.random_range(1..=nodes);
                let len = &at(&mut rng, 60) + &Time::new(1, 1000).unwrap();
                let nb = at(&mut rng, 600);
                let s = fast.earliest(p, &len, &nb);
                assert_eq!(s, exact.earliest(p, &len, &nb), "{ctx}");
                let huge = rng.random_bool(0.004);
                let len = if huge { i(1 << 60) } else { len };
                fast.reserve(&s, &len, p);
                exact.reserve(&s, &len, p);
                placed.push((s, len.clone(), p));
                if rng.random_bool(0.3) {
                    let k = rng.random_range(0..placed.len());
                    let (s, l, q) = placed.swap_remove(k);
                    let cut = &s + &(&l * &Time::new(1, 2).unwrap());
                    fast.release(&cut, &(&s + &l), q);
                    exact.release(&cut, &(&s + &l), q);
                }
                if placed.is_empty() {
                    continue;
                }
                let (s, l, q) = placed[rng.random_range(0..placed.len())].clone();
                let below = at(&mut rng, 600).min(s.clone());
                let got = fast.earlier_start(q, &l, &i(0), &below, &s);
                assert_eq!(got, exact.earlier_start(q, &l, &i(0), &below, &s), "{ctx}");
                if let Some(to) = got {
                    fast.move_earlier(&s, &to, &l, q);
                    exact.move_earlier(&s, &to, &l, q);
                    placed.retain(|x| *x != (s.clone(), l.clone(), q));
                    placed.push((to, l.clone(), q));
                }
                let runs = (
                    fast.runs_before(p, &i(0), &below),
                    exact.runs_before(p, &i(0), &below),
                );
                for start in [below.clone(), &below + &len] {
                    assert_eq!(runs.0.fit(&len, &start), runs.1.fit(&len, &start), "{ctx}");
                }
                // Rises agree (the ones kept while nodes are only taken are tested above).
                let b = at(&mut rng, 800);
                let mut fresh = exact.rises_on_demand(&i(0), Some(&i(800)));
                let truth = fresh.reaches_before(&mut exact, p, &b);
                let mut again = fast.rises_on_demand(&i(0), Some(&i(800)));
                assert_eq!(again.reaches_before(&mut fast, p, &b), truth, "{ctx}");
                assert_eq!(fast.steps(), exact.steps(), "{ctx}");
                assert_eq!(fast.min_free(), exact.min_free(), "{ctx}");
                assert_eq!(fast.minus(&exact, &i(0)), vec![], "{ctx}");
                assert_eq!(fast.free_at(&nb), exact.free_at(&nb), "{ctx}");
            }
            assert!(!exact.in_ticks());
            match (was_ticks, fast.in_ticks()) {
                (true, false) => turned += 1,
                (true, true) => refined += 1,
                _ => {}
            }
        }
        // Both ways out of the first scale were taken.
        assert!(
            refined > 5 && turned > 5,
            "{refined} kept ticks, {turned} turned exact"
        );
    }

    /// A plan on the 1/1000 grid refines its scale for an instant off it, keeps ticks, and gives
    /// back exactly the instants it was given; one beyond the tick range turns it exact.
    #[test]
    fn an_instant_off_the_grid_refines_the_scale() {
        let mut pr = Profile::new(&Time::new(1, 1000).unwrap(), 4, &[]);
        assert!(pr.in_ticks());
        let third = Time::new(1, 3).unwrap();
        pr.reserve(&third, &Time::new(2, 7).unwrap(), 3);
        assert!(pr.in_ticks());
        assert_eq!(
            pr.steps(),
            vec![
                (Time::new(1, 1000).unwrap(), 4),
                (third.clone(), 1),
                (Time::new(13, 21).unwrap(), 4)
            ]
        );
        assert_eq!(pr.earliest(2, &i(1), &i(0)), Time::new(13, 21).unwrap());
        pr.reserve(&i(10), &i(1 << 61), 1);
        assert!(!pr.in_ticks());
        assert_eq!(pr.free_at(&i(1 << 61)), 3);
        assert_eq!(pr.earliest(4, &i(10), &i(0)), &i(10) + &i(1 << 61));
    }

    /// [`Profile::compress`] after a completion gives every queued job the start of the plain
    /// pass (each job given back and placed again at its earliest slot no later than its start,
    /// new jobs at their earliest), and leaves the same profile: in ticks from a fresh mirror,
    /// in ticks from a mirror kept through insertions and removals, and in exact rationals;
    /// on instants off the 1/1000 grid (the scale refined, or the plan turned exact) and with
    /// lengths whose sum leaves the tick range (the pass runs exact).
    #[test]
    fn compress_gives_the_starts_of_the_plain_pass() {
        use rand::{RngExt, SeedableRng};
        let (mut moves, mut exact_runs) = (0, 0);
        for seed in 0..60u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let ctx = format!("seed {seed}");
            let nodes = rng.random_range(1..12u32);
            // Running jobs, and occupations from a later instant (a hold, a return).
            let running: Vec<Busy> = (0..rng.random_range(1..6))
                .map(|_| {
                    let from = match rng.random_bool(0.5) {
                        true => i(0),
                        false => drawn(&mut rng, 40),
                    };
                    Busy {
                        to: &from + &drawn(&mut rng, 80),
                        from,
                        count: rng.random_range(1..=nodes.div_ceil(2)),
                    }
                })
                .collect();
            let mut prof = Profile::new(&i(0), nodes, &running);
            let mut queue: Vec<QueuedSlot> = Vec::new();
            for _ in 0..rng.random_range(1..30) {
                let (p, len) = (rng.random_range(1..=nodes), drawn(&mut rng, 60));
                let s = prof.earliest(p, &len, &i(0));
                prof.reserve(&s, &len, p);
                queue.push(QueuedSlot {
                    p,
                    len,
                    start: Some(s),
                });
            }
            for _ in 0..rng.random_range(0..3) {
                queue.push(QueuedSlot {
                    p: rng.random_range(1..=nodes),
                    len: drawn(&mut rng, 60),
                    start: None,
                });
            }
            // Two lengths of 2^50 s sum to just under the tick range at D = 1000 (the pass
            // stays in ticks); three leave it (the pass runs exact).
            if seed % 10 >= 8 {
                for _ in 0..seed % 10 - 6 {
                    queue.push(QueuedSlot {
                        p: 1,
                        len: i(1 << 50),
                        start: None,
                    });
                }
            }
            // An occupation ends early: a running job completes at 0, or one from a later
            // instant is given back (the counts rise on a hull that starts after now).
            let done = &running[rng.random_range(0..running.len())];
            prof.release(&done.from, &done.to, done.count);
            let raised = (done.from.clone(), done.to.clone());
            let unplanned = queue.iter().filter(|j| j.start.is_none()).count();
            // The plain pass, on exact rationals.
            let (plain, want) = plain_pass(&prof, &queue);
            let run = |pr: &mut Profile, q: &mut Queue, jobs: &[QueuedSlot]| {
                let d = pr.compress(q, || jobs.to_vec(), &i(0), Some(&raised), unplanned);
                let mut got = jobs.to_vec();
                for (k, s) in &d.started {
                    got[*k].start = Some(s.clone());
                }
                (got, d)
            };
            let mut fresh = prof.clone();
            let (got, d) = run(&mut fresh, &mut Queue::new(), &queue);
            let starts = |js: &[QueuedSlot]| js.iter().map(|j| j.start.clone()).collect::<Vec<_>>();
            assert_eq!(starts(&got), starts(&want), "{ctx}");
            assert_eq!(fresh.steps(), plain.steps(), "{ctx}");
            moves += d.moves;
            exact_runs += usize::from(!fresh.in_ticks());
            let mut exact = prof.exact_copy();
            let (got, _) = run(&mut exact, &mut Queue::new(), &queue);
            assert_eq!(starts(&got), starts(&want), "{ctx}");
            assert_eq!(exact.steps(), plain.steps(), "{ctx}");
            // The simulator's protocol: a mirror kept through insertions (new jobs, with no
            // start) and removals, its starts given by the passes, answers as one taken
            // afresh from the queue (and is checked against it in debug builds).
            let (mut kept, mut fresh2) = (prof.clone(), prof.clone());
            let mut q = Queue::new();
            run(&mut kept, &mut q, &[]);
            let mut jobs: Vec<QueuedSlot> = Vec::new();
            for round in 0..3 {
                for j in &queue {
                    let k = rng.random_range(0..=jobs.len());
                    q.insert(k, j.p, &j.len);
                    jobs.insert(
                        k,
                        QueuedSlot {
                            start: None,
                            ..j.clone()
                        },
                    );
                }
                let k = rng.random_range(0..jobs.len());
                if let Some(s) = &jobs[k].start {
                    kept.unreserve(s, &jobs[k].len, jobs[k].p);
                    fresh2.unreserve(s, &jobs[k].len, jobs[k].p);
                }
                jobs.remove(k);
                q.remove(k);
                let n = jobs.iter().filter(|j| j.start.is_none()).count();
                let rs = Some(&raised).filter(|_| round == 0);
                let mut before = kept.exact_copy();
                let d1 = kept.compress(&mut q, || jobs.clone(), &i(0), rs, n);
                let d2 = fresh2.compress(&mut Queue::new(), || jobs.clone(), &i(0), rs, n);
                assert_eq!(d1.started, d2.started, "{ctx}, round {round}");
                if rs.is_none() {
                    // Nothing raised: the placed jobs keep their slots and the new ones, at
                    // random places in the queue, get their earliest, in queue order (the
                    // pass walks from the first of them).
                    let want: Vec<(usize, Time)> = jobs
                        .iter()
                        .enumerate()
                        .filter(|(_, j)| j.start.is_none())
                        .map(|(k, j)| {
                            let s = before.earliest(j.p, &j.len, &i(0));
                            before.reserve(&s, &j.len, j.p);
                            (k, s)
                        })
                        .collect();
                    assert_eq!(d1.started, want, "{ctx}, round {round}");
                    assert_eq!(
                        kept.exact_copy().steps(),
                        before.steps(),
                        "{ctx}, round {round}"
                    );
                }
                assert_eq!(kept.steps(), fresh2.steps(), "{ctx}, round {round}");
                assert_eq!(q.scale.is_some(), kept.in_ticks(), "{ctx}, round {round}");
                for (k, s) in d1.started {
                    jobs[k].start = Some(s);
                }
            }
        }
        assert!(moves > 100, "only {moves} moves");
        assert!(exact_runs >= 6, "{exact_runs} passes ran exact");
    }

    /// [`Profile::place_all`] gives every job the start of the plain greedy placement (each at
    /// its earliest slot in queue order), in ticks from a fresh mirror and from one kept with
    /// its old starts cleared, and in exact rationals; on instants off the 1/1000 grid and with
    /// lengths whose sum leaves the tick range.
    #[test]
    fn place_all_gives_the_greedy_starts() {
        use rand::{RngExt, SeedableRng};
        for seed in 0..60u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let ctx = format!("seed {seed}");
            let nodes = rng.random_range(1..12u32);
            let busy: Vec<Busy> = (0..rng.random_range(0..6))
                .map(|_| {
                    let from = drawn(&mut rng, 40);
                    Busy {
                        to: &from + &drawn(&mut rng, 80),
                        from,
                        count: rng.random_range(1..=nodes),
                    }
                })
                .collect();
            let base = Profile::new(&i(0), nodes, &busy);
            let mut jobs: Vec<QueuedSlot> = (0..rng.random_range(1..30))
                .map(|_| QueuedSlot {
                    // Repeated sizes and lengths, so that the floor per (p, ℓ) is used.
                    p: rng.random_range(1..=nodes.min(3)),
                    len: drawn(&mut rng, 20),
                    start: None,
                })
                .collect();
            for _ in 0..(seed % 10).saturating_sub(6) {
                jobs.push(QueuedSlot {
                    p: 1,
                    len: i(1 << 50),
                    start: None,
                });
            }
            let mut plain = base.exact_copy();
            let want: Vec<Time> = jobs
                .iter()
                .map(|j| {
                    let s = plain.earliest(j.p, &j.len, &i(0));
                    plain.reserve(&s, &j.len, j.p);
                    s
                })
                .collect();
            let mut kept_q = Queue::new();
            for (mut pr, fresh) in [
                (base.clone(), true),
                (base.clone(), false),
                (base.exact_copy(), true),
            ] {
                let got = match fresh {
                    true => pr.place_all(&mut Queue::new(), || jobs.clone(), &i(0)),
                    false => {
                        // A mirror that held other starts, cleared as a full recomputation does.
                        let mut warm = base.clone();
                        warm.place_all(&mut kept_q, || jobs.clone(), &i(0));
                        kept_q.clear_starts();
                        pr.place_all(&mut kept_q, || jobs.clone(), &i(0))
                    }
                };
                assert_eq!(got, want, "{ctx}, fresh mirror {fresh}");
                assert_eq!(pr.steps(), plain.steps(), "{ctx}, fresh mirror {fresh}");
            }
        }
    }

    /// A mirror told of an insertion or a removal past its end does not panic: it is dropped,
    /// and the next pass takes the queue again and answers as a fresh one.
    #[test]
    fn a_mirror_given_an_index_past_its_end_is_taken_again() {
        let jobs = vec![QueuedSlot {
            p: 1,
            len: i(5),
            start: None,
        }];
        for bad in [true, false] {
            let mut q = Queue::new();
            let mut pr = Profile::new(&i(0), 2, &[]);
            pr.place_all(&mut q, Vec::new, &i(0));
            assert!(q.scale.is_some());
            if bad {
                q.insert(3, 1, &i(5));
            } else {
                q.remove(0);
            }
            assert!(q.scale.is_none() && q.slots.is_empty());
            assert_eq!(pr.place_all(&mut q, || jobs.clone(), &i(0)), vec![i(0)]);
            assert!(q.scale.is_some());
        }
    }

    /// The runs a pass takes for a size after the raised hull also answer a later job of that
    /// size that starts inside the hull, and must let through one whose window fits a run
    /// shorter than the first job. Three nodes; two occupations given back raise 2 free on
    /// [30, 37) and 1 on [37, 45). Job A (2 nodes for 40, reserved at 100) cannot move and
    /// takes the runs for 2 nodes: the longest is 7, the last ends at 37. Job B (2 nodes for
    /// 5, reserved at 40, inside the hull) fits in [30, 35): it moves to 30, as in the plain
    /// pass. A filter asking for more than B's length, or for a run reaching B's start, keeps
    /// it at 40.
    #[test]
    fn runs_taken_after_the_hull_let_a_job_inside_it_move() {
        let busy = |from: i64, to: i64, count: u32| Busy {
            from: i(from),
            to: i(to),
            count,
        };
        let occupied = [
            busy(0, 30, 3),
            busy(30, 37, 1),
            busy(37, 40, 2),
            busy(45, 100, 2),
            busy(30, 37, 2),
            busy(37, 45, 1),
        ];
        let mut prof = Profile::new(&i(0), 3, &occupied);
        let queue = vec![
            QueuedSlot {
                p: 2,
                len: i(40),
                start: Some(i(100)),
            },
            QueuedSlot {
                p: 2,
                len: i(5),
                start: Some(i(40)),
            },
        ];
        for j in &queue {
            prof.reserve(j.start.as_ref().unwrap(), &j.len, j.p);
        }
        prof.release(&i(30), &i(37), 2);
        prof.release(&i(37), &i(45), 1);
        let raised = (i(30), i(45));
        let (plain, want) = plain_pass(&prof, &queue);
        assert_eq!(want[0].start, Some(i(100)));
        assert_eq!(want[1].start, Some(i(30)));
        for mut pr in [prof.clone(), prof.exact_copy()] {
            let d = pr.compress(&mut Queue::new(), || queue.clone(), &i(0), Some(&raised), 0);
            assert_eq!(d.started, vec![(1, i(30))], "in ticks: {}", pr.in_ticks());
            assert_eq!(pr.steps(), plain.steps(), "in ticks: {}", pr.in_ticks());
        }
    }

    /// A queue of job arrays (a few shapes, each repeated in runs) is where a pass shortens
    /// searches by the windows an earlier job of the same shape had no room in ([`fails`]):
    /// its starts and profile stay those of the plain remove-and-replace pass, through moves
    /// that make earlier records stale, in ticks and on exact rationals, over four passes (each
    /// raised where the one before moved jobs from, and where a leaving job was), with jobs
    /// jumping the queue between them.
    #[test]
    fn compress_on_job_arrays_gives_the_starts_of_the_plain_pass() {
        use rand::{RngExt, SeedableRng};
        let (mut shortened, mut moves, mut along) = (0, 0, 0);
        for seed in 0..3000u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let nodes = rng.random_range(2..16u32);
            let running: Vec<Busy> = (0..rng.random_range(1..5))
                .map(|_| Busy {
                    from: i(0),
                    to: drawn(&mut rng, 50),
                    count: rng.random_range(1..=nodes.div_ceil(2)),
                })
                .collect();
            let shapes: Vec<(u32, Time)> = (0..rng.random_range(1..4))
                .map(|_| (rng.random_range(1..=nodes), drawn(&mut rng, 30)))
                .collect();
            let mut prof = Profile::new(&i(0), nodes, &running);
            let mut queue: Vec<QueuedSlot> = Vec::new();
            let mut shape = 0;
            for _ in 0..rng.random_range(5..40) {
                if rng.random_bool(0.2) {
                    shape = rng.random_range(0..shapes.len());
                }
                let (p, len) = shapes[shape].clone();
                let s = prof.earliest(p, &len, &i(0));
                prof.reserve(&s, &len, p);
                queue.push(QueuedSlot {
                    p,
                    len,
                    start: Some(s),
                });
            }
            let done = &running[rng.random_range(0..running.len())];
            prof.release(&done.from, &done.to, done.count);
            let mut raised = (done.from.clone(), done.to.clone());
            for round in 0..4 {
                let ctx = format!("seed {seed}, round {round}");
                // A queued job leaves (cancelled, or its array ended): its slot rises too.
                if round > 0 && queue.len() > 1 && rng.random_bool(0.5) {
                    let j = queue.remove(rng.random_range(0..queue.len()));
                    let Some(s) = &j.start else { continue };
                    prof.unreserve(s, &j.len, j.p);
                    let end = s + &j.len;
                    raised = (raised.0.min(s.clone()), raised.1.max(end));
                }
                // A job jumps the queue (as a stolen job does under SFSJ): a job of its shape
                // may now come after it with an earlier start.
                if rng.random_bool(0.5) {
                    let j = queue.remove(rng.random_range(0..queue.len()));
                    queue.insert(0, j);
                }
                let (plain, want) = plain_pass(&prof, &queue);
                let starts =
                    |js: &[QueuedSlot]| js.iter().map(|j| j.start.clone()).collect::<Vec<_>>();
                let mut moved = None;
                for mut pr in [prof.clone(), prof.exact_copy()] {
                    let d =
                        pr.compress(&mut Queue::new(), || queue.clone(), &i(0), Some(&raised), 0);
                    let mut got = queue.clone();
                    for (k, s) in d.started {
                        got[k].start = Some(s);
                    }
                    assert_eq!(starts(&got), starts(&want), "{ctx}");
                    assert_eq!(pr.exact_copy().steps(), plain.steps(), "{ctx}");
                    (shortened, moves) = (shortened + d.shortened, moves + d.moves);
                    along += d.along;
                    moved = d.moved;
                }
                // The next pass is raised where this one moved jobs from; nothing moved, the
                // plan is settled, and only a leaving job raises it.
                raised = moved.unwrap_or((i(0), i(0)));
                prof = plain;
                queue = want;
            }
        }
        // The searches were shortened, between moves, and twins were taken along.
        assert!(
            shortened > 500 && moves > 500 && along > 3000,
            "{shortened} shortened, {moves} moves, {along} taken along"
        );
    }

    /// The plain pass of Section 4.1 on exact rationals: each queued job, in priority order,
    /// removed and put back at its earliest slot no later than its start (a new job at its
    /// earliest slot). Returns the profile and the queue with their new starts.
    fn plain_pass(prof: &Profile, queue: &[QueuedSlot]) -> (Profile, Vec<QueuedSlot>) {
        let mut plain = prof.exact_copy();
        let mut want = queue.to_vec();
        for j in &mut want {
            let s = match &j.start {
                None => plain.earliest(j.p, &j.len, &i(0)),
                Some(s) => {
                    plain.unreserve(s, &j.len, j.p);
                    plain.earliest_before(j.p, &j.len, &i(0), Some(s))
                }
            };
            plain.reserve(&s, &j.len, j.p);
            j.start = Some(s);
        }
        (plain, want)
    }

    /// A positive instant below `hi`, on the 1/1000 grid or off it (1/3, 1/7), for the tests of
    /// the passes.
    fn drawn(rng: &mut rand_chacha::ChaCha8Rng, hi: i64) -> Time {
        use rand::RngExt;
        let den = [1, 1, 2, 1000, 3, 7][rng.random_range(0..6)];
        Time::new(rng.random_range(1..hi * den), den).unwrap()
    }

    fn steps_min(st: &[(Time, i64)]) -> i64 {
        st.iter().map(|s| s.1).min().unwrap()
    }
}
