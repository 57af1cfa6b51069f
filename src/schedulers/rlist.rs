//! R-LIST(m), rigid paper Algorithm 1 (Section 4.1): list scheduling with m reservations and
//! backfilling, for rigid jobs that fail and run again.
//!
//! The queue Q holds the jobs waiting to run, in priority order; a job whose attempt fails goes
//! back into Q at its priority (it keeps its rank, so "insert_with_priority" is exact).
//!
//! - [`Greedy`] is R-LIST(m = 0) (GREEDY, Proposition 2): at every completion, scan Q in order
//!   and start every job that fits in the free processors. Free processors only decrease during
//!   the scan, so a skipped job never fits later in the same scan: the scan is "repeatedly start
//!   the first queued job with p_j ≤ free". A min-segment-tree over queue positions (leaf = p_j
//!   of a queued job, +∞ otherwise) finds that job in O(log n); each start, each reinsertion
//!   costs O(log n), and an event at which nothing fits costs O(1). No rescans of Q.
//! - [`RList`] is R-LIST(m) for any m ≥ 1 (RESERVATION, Proposition 1), with m = |Q| giving
//!   conservative backfilling and m = 1 EASY. As Section 4.1 prescribes for the analysis, every
//!   completion deletes all reservations and makes a fresh round from the current queue: the first
//!   m queued jobs, in order, each get the earliest start at which they fit in the processor
//!   profile (running attempts + reservations already made) for their whole duration, so no
//!   reservation delays a higher-priority one; then every later queued job, in order, starts now
//!   if it fits in that profile over [now, now + t_j), i.e. it delays no reservation. A
//!   reservation that falls on the current instant is a start now.
//!
//! Reading taken: "without delaying the reservation of J_j'" is checked against the whole profile
//! of reservations (a backfilled job may outlast a reservation if it uses processors that the
//! reservation leaves free), which is the standard EASY/conservative rule and what Proposition 1's
//! proof uses (a job not started at t is blocked by the processors in use at t).
//!
//! Second reading taken: the m reservations go to the first m jobs of Q *as it stands at the
//! completion*, exactly as Algorithm 1's loop `for j = 1..min(m, |Q|)` is written, including
//! jobs whose earliest reservation is now (they start now and use up one of the m). Production
//! EASY schedulers instead start jobs from the head while they fit and give the reservation to
//! the first job that does not; the two differ for 1 ≤ m < |Q| (see
//! `tests/cases/easy_vs_conservative.json`, where literal EASY backfills X at 0). Proposition 1's
//! proof holds for both: the first job of Q not started at t is blocked by processors at t, since
//! every higher-priority job started at t and no reservation lies before it.
//!
//! # A second reading: reservations kept ([`Reservations::Kept`], not the default)
//! Section 4.1 says that "from an analysis point of view" every completion deletes all
//! reservations and makes a fresh round; that is the default here, and Proposition 1 is proved
//! for it. The paper's *simulator* (the C++ code published with it, github.com/vlefevre/
//! job-scheduling, `main.cpp`, read for this comparison; none of its code is used here) does
//! otherwise: a reservation becomes a pair of start/end events in its event queue and is never
//! revised — its cancellation loop, meant to run when a job fails, breaks on its first
//! iteration because it tests the type of the completing event (always an end) instead of the
//! popped one, so no reservation is ever returned to the queue. At each completion it then gives
//! reservations to the first m jobs of the queue *that have none* ("all" = every such job; "one"
//! = one more job per completion, so with m = 1 reservations accumulate and it is not EASY) and
//! backfills the rest against every kept reservation. With exact run times this is what
//! production conservative backfilling does (a plan is never delayed, and no job ever ends
//! early, so it is never compressed either). [`Reservations::Kept`] implements that reading:
//! failed jobs re-enter Q at their priority but behind every kept reservation. Without failures
//! the two readings give the same schedule for m = |Q| (a plan made at time 0 stays the earliest
//! fit: tested); with failures neither dominates (golden tests `*_kept_vs_recomputed_golden`
//! and `tests/cases/*kept_vs_recomputed.json`, one case each way). It is the reading that
//! reproduces the paper's Figure 5 (R-List-Q about 25% above R-List-0 at q̄ = 0.5; see
//! EXPERIMENTS.md, rigid-qbar). Run side by side with a local transcription of that simulator on
//! its own sample (200 scenarios), our kept R-LIST has its mean makespan within 0.3% for m = 1
//! and m = |Q| (±5% per scenario), the recomputed one 13–16% below it; GREEDY is equal on every
//! scenario. Differences from that simulator that remain: it decides in floating point, handles the
//! completions of one instant one at a time (we: all at once, failed jobs in priority order, the
//! engine's same-instant rule), adds `verif` = 10 s to every attempt, and orders simultaneous
//! events by its heap, which can reject a fit spuriously when a reservation starts exactly as
//! another attempt ends.
//!
//! Both schedulers reset their state on the engine's first call (time 0, no completion), so one
//! value can run many scenarios.
use super::priority::{self, Priority};
use crate::engine::{Ctx, Outcome, Scheduler};
use crate::error::{Error, Result};
use crate::time::Time;

/// A min-segment-tree over queue positions: leaf = processors of the queued job, `u32::MAX` when
/// the position is not queued. Answers "first position whose value is ≤ x" in O(log n).
#[derive(Debug, Clone)]
struct MinTree {
    size: usize,
    v: Vec<u32>,
}

impl MinTree {
    fn new(n: usize) -> MinTree {
        let size = n.next_power_of_two().max(1);
        MinTree {
            size,
            v: vec![u32::MAX; 2 * size],
        }
    }

    /// Sets every leaf from `leaves` (others absent) and rebuilds in O(n).
    fn fill(&mut self, leaves: &[u32]) {
        let size = self.size;
        self.v[size..size + leaves.len()].copy_from_slice(leaves);
        self.v[size + leaves.len()..].fill(u32::MAX);
        for i in (1..size).rev() {
            self.v[i] = self.v[2 * i].min(self.v[2 * i + 1]);
        }
    }

    fn set(&mut self, pos: usize, val: u32) {
        let mut i = pos + self.size;
        self.v[i] = val;
        i /= 2;
        while i >= 1 {
            let m = self.v[2 * i].min(self.v[2 * i + 1]);
            if self.v[i] == m {
                break; // ancestors are unchanged too
            }
            self.v[i] = m;
            i /= 2;
        }
    }

    /// The first (leftmost) position whose value is ≤ `x`.
    fn first_le(&self, x: u32) -> Option<usize> {
        if self.v[1] > x {
            return None;
        }
        let mut i = 1;
        while i < self.size {
            i = if self.v[2 * i] <= x { 2 * i } else { 2 * i + 1 };
        }
        Some(i - self.size)
    }
}

/// GREEDY = R-LIST(m = 0) in O(log n) per start, reinsertion and event.
#[derive(Debug, Clone)]
pub struct Greedy {
    name: String,
    /// order[pos] = job at queue position pos.
    order: Vec<usize>,
    /// rank[j] = queue position of job j.
    rank: Vec<usize>,
    /// procs[j] = p_j.
    procs: Vec<u32>,
    /// p_j by queue position (the tree's initial leaves).
    leaves: Vec<u32>,
    tree: MinTree,
}

impl Greedy {
    /// GREEDY over rigid jobs with keys `(p_j, t_j)`, ordered by `priority` (`seed` for RANDOM).
    pub fn new(keys: &[(u32, Time)], platform: u32, priority: Priority, seed: u64) -> Greedy {
        let order = priority::order(priority, keys, platform, seed);
        Greedy::with_order(order, keys, format!("R-LIST(m=0)/{priority}"))
    }

    /// GREEDY with an explicit queue order (`order[0]` first), e.g. a peer file's own order.
    pub fn with_order(order: Vec<usize>, keys: &[(u32, Time)], name: String) -> Greedy {
        let rank = priority::ranks(&order);
        let procs: Vec<u32> = keys.iter().map(|k| k.0).collect();
        let leaves = order.iter().map(|&j| procs[j]).collect();
        let tree = MinTree::new(order.len());
        Greedy {
            name,
            order,
            rank,
            procs,
            leaves,
            tree,
        }
    }
}

impl Scheduler for Greedy {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        if ctx.completions().is_empty() {
            // The first call (the virtual job J_0 completes at time 0): everything is queued.
            self.tree.fill(&self.leaves);
        }
        for c in ctx.completions() {
            if c.outcome == Outcome::Failed {
                self.tree.set(self.rank[c.job], self.procs[c.job]);
            }
        }
        while let Some(pos) = self.tree.first_le(ctx.free()) {
            self.tree.set(pos, u32::MAX);
            // leaves[pos] = p_j, read by queue position (one random access fewer per start).
            ctx.start(self.order[pos], self.leaves[pos])?;
        }
        Ok(())
    }
}

/// A clock value of a processor profile: an exact time in a representation chosen for speed.
///
/// Performance: the profile's hot loops add a job's time to a start and compare instants, and
/// `Time`'s `+` (checked `Ratio<i64>` arithmetic with gcds) and `cmp` (a continued-fraction walk)
/// took 80% of a `rigid-qbar` run. When every job time is an integer and the instants involved
/// provably fit (see [`IntBound`]), the profile runs on plain `i64`; otherwise on [`Ft`], which is
/// `Time` with the engine's exact `i128` cross-multiplication order. Both are exact, so both give
/// the same schedule (the tests compare them).
trait Clock: Clone + Ord + std::fmt::Debug {
    /// `self + d`, `None` on overflow (never wraps).
    fn plus(&self, d: &Self) -> Option<Self>;
    /// Back to an exact [`Time`].
    fn to_time(&self) -> Time;
}

impl Clock for i64 {
    fn plus(&self, d: &i64) -> Option<i64> {
        self.checked_add(*d)
    }
    fn to_time(&self) -> Time {
        Time::from_int(*self)
    }
}

/// An exact [`Time`] ordered by `i128` cross-multiplication when both sides are small (a/b vs
/// c/d as a·d vs c·b with b, d > 0: |a·d| < 2^126, no overflow), else by `Time`'s own order.
#[derive(Debug, Clone)]
struct Ft(Time);

impl PartialEq for Ft {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Ft {}
impl PartialOrd for Ft {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ft {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self.0.as_small(), other.0.as_small()) {
            (Some(x), Some(y)) => (i128::from(*x.numer()) * i128::from(*y.denom()))
                .cmp(&(i128::from(*y.numer()) * i128::from(*x.denom()))),
            _ => self.0.cmp(&other.0),
        }
    }
}

impl Clock for Ft {
    fn plus(&self, d: &Ft) -> Option<Ft> {
        // Integer fast path (the common case); `Time`'s `+` otherwise (it never wraps).
        if let (Some(a), Some(b)) = (self.0.as_small(), d.0.as_small()) {
            if a.is_integer() && b.is_integer() {
                if let Some(s) = a.numer().checked_add(*b.numer()) {
                    return Some(Ft(Time::from_int(s)));
                }
            }
        }
        Some(Ft(&self.0 + &d.0))
    }
    fn to_time(&self) -> Time {
        self.0.clone()
    }
}

/// The integer fast path's licence: every job time is an integer and `2·Σ t_j` fits in `i64`.
/// At an integer instant `now` with `now + 2·Σ t_j` in range, every instant a profile can hold
/// fits too: a profile holds the ends of running attempts and of reservations, at most one
/// attempt or reservation per job, each ending before `now + Σ t_j`, and a new reservation's end
/// is a step plus one t_j.
#[derive(Debug, Clone)]
struct IntBound {
    times: Vec<i64>,
    twice_sum: i64,
}

impl IntBound {
    fn new(keys: &[(u32, Time)]) -> Option<IntBound> {
        let times: Vec<i64> = keys
            .iter()
            .map(|k| {
                k.1.as_small()
                    .filter(|r| r.is_integer())
                    .map(|r| *r.numer())
            })
            .collect::<Option<_>>()?;
        let sum = times.iter().try_fold(0i64, |s, &t| s.checked_add(t))?;
        Some(IntBound {
            times,
            twice_sum: sum.checked_mul(2)?,
        })
    }

    /// `now` as an integer if the fast path is licensed at `now`.
    fn at(&self, now: &Time) -> Option<i64> {
        let n = now
            .as_small()
            .filter(|r| r.is_integer())
            .map(|r| *r.numer())?;
        n.checked_add(self.twice_sum).map(|_| n)
    }
}

/// The profile overflowed its clock type (impossible under [`IntBound`]; reported, never wrapped).
#[derive(Debug)]
struct Overflow;

/// The free processors over time from `now` on, as a step function: `steps[k] = (s_k, free_k)`
/// means `free_k` processors are free on [s_k, s_{k+1}) (the last step lasts forever and has all
/// processors free).
#[derive(Debug, Clone)]
struct Profile<T> {
    steps: Vec<(T, u32)>,
}

impl<T: Clock> Profile<T> {
    fn empty() -> Profile<T> {
        Profile { steps: Vec::new() }
    }

    /// Rebuilds from the free processors now and the (end, procs) of the attempts running
    /// (`ends` is sorted here), reusing the allocation.
    fn rebuild(&mut self, now: T, free: u32, ends: &mut [(T, u32)]) {
        ends.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        self.steps.clear();
        self.steps.push((now, free));
        let mut cur = free;
        for (t, p) in ends.iter() {
            cur += p;
            match self.steps.last_mut() {
                Some(last) if last.0 == *t => last.1 = cur,
                _ => self.steps.push((t.clone(), cur)),
            }
        }
    }

    /// Drops the past: the step holding `now` becomes the first and starts at `now`.
    fn advance(&mut self, now: &T) {
        let k = self.steps.partition_point(|s| s.0 <= *now);
        if k > 1 {
            self.steps.drain(..k - 1);
        }
        if let Some(first) = self.steps.first_mut() {
            first.0 = now.clone();
        }
    }

    /// Whether `p` processors are free on [steps[k].0, steps[k].0 + t).
    fn fits_from(&self, k: usize, p: u32, t: &T) -> Result<bool, Overflow> {
        let end = self.steps[k].0.plus(t).ok_or(Overflow)?;
        Ok(self.steps[k..]
            .iter()
            .take_while(|s| s.0 < end)
            .all(|s| s.1 >= p))
    }

    /// The first step k at which `p` processors stay free for `t`, in one sweep: the candidate k
    /// moves past every step with fewer than `p` free (no window containing that step fits, and
    /// every later candidate's window reaches at least as far), and is accepted at the first
    /// step that starts at or after its end. One addition per candidate, O(steps) in all (the
    /// former per-candidate rescan was quadratic). The last step has every processor free, so
    /// a candidate exists.
    fn earliest(&self, p: u32, t: &T) -> Result<usize, Overflow> {
        let mut k = 0;
        let mut end = self.steps[0].0.plus(t).ok_or(Overflow)?;
        for i in 0..self.steps.len() {
            if self.steps[i].0 >= end {
                return Ok(k);
            }
            if self.steps[i].1 < p && i + 1 < self.steps.len() {
                k = i + 1;
                end = self.steps[k].0.plus(t).ok_or(Overflow)?;
            }
        }
        Ok(k)
    }

    /// Takes `p` processors on [steps[k].0, steps[k].0 + t) (which must fit).
    fn reserve(&mut self, k: usize, p: u32, t: &T) -> Result<(), Overflow> {
        let end = self.steps[k].0.plus(t).ok_or(Overflow)?;
        // Split at `end` so that the reservation stops exactly there.
        let pos = self.steps.partition_point(|s| s.0 < end);
        if pos == self.steps.len() || self.steps[pos].0 != end {
            let before = self.steps[pos - 1].1;
            self.steps.insert(pos, (end, before));
        }
        for s in &mut self.steps[k..pos] {
            s.1 -= p;
        }
        Ok(())
    }
}

/// What R-LIST(m) does with the reservations it made at earlier completions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservations {
    /// Section 4.1's reading (the default): every completion deletes all reservations and makes
    /// a fresh round from the current queue; the analysis of Proposition 1 uses it.
    Recomputed,
    /// Reservations are kept until the job starts and never revised, as production
    /// conservative backfilling does with exact run times, and as the paper's own simulator
    /// does (see the module doc): each completion gives new reservations to the first m queued
    /// jobs *that have none* (a failed job re-enters that queue at its priority), in the
    /// profile of the running attempts and of every reservation kept.
    Kept,
}

/// One round of Algorithm 1 on a profile: the first `m` queued jobs (in queue order) get the
/// earliest reservation that fits; the later ones start now if they fit over [now, now + t_j)
/// in the profile. Returns the queue positions that start now in `starts` and, when
/// `kept` is given, records the future reservations there (start, position) and takes those jobs
/// out of the queue.
///
/// Without `kept` (reservations recomputed) the round's only output is `starts`, so it stops as
/// soon as fewer processors are free now than any job from here on needs (`suffix_min[pos]` =
/// min of p_j over queue positions ≥ pos): no such job can start now (all t_j > 0), and the
/// reservations it would still make are deleted at the next completion anyway.
#[allow(clippy::too_many_arguments)]
fn round<T: Clock>(
    profile: &mut Profile<T>,
    m: usize,
    order: &[usize],
    queued: &mut [bool],
    procs: &[u32],
    times: &[T],
    suffix_min: &[u32],
    starts: &mut Vec<usize>,
    mut kept: Option<&mut Vec<(T, usize)>>,
) -> Result<(), Overflow> {
    let mut reserved = 0usize;
    for pos in 0..order.len() {
        if !queued[pos] {
            continue;
        }
        if kept.is_none() && profile.steps[0].1 < suffix_min[pos] {
            break;
        }
        let j = order[pos];
        let (p, t) = (procs[j], &times[j]);
        if reserved < m {
            // A reservation, the earliest that delays no reservation made before it.
            reserved += 1;
            let k = profile.earliest(p, t)?;
            profile.reserve(k, p, t)?;
            if k == 0 {
                starts.push(pos);
            } else if let Some(kept) = kept.as_deref_mut() {
                kept.push((profile.steps[k].0.clone(), pos));
                queued[pos] = false;
            }
        } else if profile.fits_from(0, p, t)? {
            // Backfilling: starts now, delays no reservation.
            profile.reserve(0, p, t)?;
            starts.push(pos);
        }
    }
    Ok(())
}

/// The kept reservations and profile of [`Reservations::Kept`], in one clock type.
#[derive(Debug, Clone)]
struct KeptPlan<T> {
    profile: Profile<T>,
    /// (start, queue position), in the order made.
    reservations: Vec<(T, usize)>,
}

impl<T: Clock> KeptPlan<T> {
    fn new(platform: u32, zero: T) -> KeptPlan<T> {
        KeptPlan {
            profile: Profile {
                steps: vec![(zero, platform)],
            },
            reservations: Vec::new(),
        }
    }

    /// The same plan in exact time (when the integer licence runs out).
    fn to_exact(&self) -> KeptPlan<Ft> {
        KeptPlan {
            profile: Profile {
                steps: self
                    .profile
                    .steps
                    .iter()
                    .map(|s| (Ft(s.0.to_time()), s.1))
                    .collect(),
            },
            reservations: self
                .reservations
                .iter()
                .map(|r| (Ft(r.0.to_time()), r.1))
                .collect(),
        }
    }

    /// One event: the reservations due now start (`starts`), then a round for the queue.
    /// Errors with a message when a reservation was missed (an internal bug).
    #[allow(clippy::too_many_arguments)]
    fn event(
        &mut self,
        now: &T,
        m: usize,
        order: &[usize],
        queued: &mut [bool],
        procs: &[u32],
        times: &[T],
        starts: &mut Vec<usize>,
    ) -> std::result::Result<(), String> {
        self.profile.advance(now);
        let mut missed = None;
        self.reservations.retain(|(s, pos)| {
            if s > now {
                return true;
            }
            if s < now {
                missed = Some(*pos);
            }
            starts.push(*pos);
            false
        });
        if let Some(pos) = missed {
            return Err(format!(
                "internal: the reservation of job {} lies in the past",
                order[pos]
            ));
        }
        round(
            &mut self.profile,
            m,
            order,
            queued,
            procs,
            times,
            &[],
            starts,
            Some(&mut self.reservations),
        )
        .map_err(|_| "internal: time overflow in the profile".to_string())
    }
}

/// Which clock the kept plan runs on.
#[derive(Debug, Clone)]
enum Kept {
    Int(KeptPlan<i64>),
    Exact(KeptPlan<Ft>),
}

/// R-LIST(m) for m ≥ 1 (m = `usize::MAX` stands for m = |Q|), reservations either recomputed
/// from scratch at every completion (Section 4.1, the default) or kept
/// ([`Reservations::Kept`]). With m = 0 it is GREEDY too (the reference the fast [`Greedy`] is
/// tested against).
#[derive(Debug, Clone)]
pub struct RList {
    name: String,
    m: usize,
    policy: Reservations,
    order: Vec<usize>,
    rank: Vec<usize>,
    procs: Vec<u32>,
    times: Vec<Ft>,
    int: Option<IntBound>,
    /// suffix_min[pos] = min p_j over queue positions ≥ pos (0 everywhere if some t_j ≤ 0, which
    /// turns the early stop of [`round`] off).
    suffix_min: Vec<u32>,
    /// queued[pos]: the job at queue position pos waits in Q (and, when reservations are kept,
    /// has none).
    queued: Vec<bool>,
    // Buffers reused from event to event.
    prof_int: Profile<i64>,
    prof_ft: Profile<Ft>,
    ends_int: Vec<(i64, u32)>,
    ends_ft: Vec<(Ft, u32)>,
    starts: Vec<usize>,
    kept: Kept,
}

impl RList {
    /// R-LIST(m) over rigid jobs with keys `(p_j, t_j)`, reservations recomputed at every
    /// completion (Section 4.1).
    pub fn new(
        m: usize,
        keys: &[(u32, Time)],
        platform: u32,
        priority: Priority,
        seed: u64,
    ) -> RList {
        RList::with_policy(m, Reservations::Recomputed, keys, platform, priority, seed)
    }

    /// R-LIST(m) with the given treatment of earlier reservations. The name says `kept` for
    /// [`Reservations::Kept`], e.g. `R-LIST(m=|Q|,kept)/LPT`.
    pub fn with_policy(
        m: usize,
        policy: Reservations,
        keys: &[(u32, Time)],
        platform: u32,
        priority: Priority,
        seed: u64,
    ) -> RList {
        let order = priority::order(priority, keys, platform, seed);
        let rank = priority::ranks(&order);
        let mname = if m == usize::MAX {
            "|Q|".to_string()
        } else {
            m.to_string()
        };
        let tag = match policy {
            Reservations::Recomputed => "",
            Reservations::Kept => ",kept",
        };
        let mut suffix_min = vec![u32::MAX; order.len()];
        let mut low = u32::MAX;
        for pos in (0..order.len()).rev() {
            low = low.min(keys[order[pos]].0);
            suffix_min[pos] = low;
        }
        if keys.iter().any(|k| !k.1.is_positive()) {
            suffix_min.fill(0);
        }
        RList {
            name: format!("R-LIST(m={mname}{tag})/{priority}"),
            suffix_min,
            m,
            policy,
            queued: vec![false; order.len()],
            order,
            rank,
            procs: keys.iter().map(|k| k.0).collect(),
            times: keys.iter().map(|k| Ft(k.1.clone())).collect(),
            int: IntBound::new(keys),
            prof_int: Profile::empty(),
            prof_ft: Profile::empty(),
            ends_int: Vec::new(),
            ends_ft: Vec::new(),
            starts: Vec::new(),
            kept: Kept::Exact(KeptPlan::new(platform, Ft(Time::zero()))),
        }
    }

    fn internal(&self, ctx: &Ctx<'_>, msg: String) -> Error {
        Error::Scheduler {
            algo: self.name.clone(),
            time: ctx.now().to_string(),
            msg,
        }
    }

    /// Section 4.1: a fresh round from the running attempts and the queue.
    fn recomputed(&mut self, ctx: &Ctx<'_>) -> Result<()> {
        let int_now = self.int.as_ref().and_then(|b| b.at(ctx.now()));
        let ok = match (int_now, &self.int) {
            (Some(now), Some(b)) => {
                self.ends_int.clear();
                let mut all_int = true;
                for r in ctx.running() {
                    match r.end.as_small().filter(|x| x.is_integer()) {
                        Some(e) => self.ends_int.push((*e.numer(), r.procs)),
                        None => all_int = false,
                    }
                }
                all_int && {
                    self.prof_int.rebuild(now, ctx.free(), &mut self.ends_int);
                    round(
                        &mut self.prof_int,
                        self.m,
                        &self.order,
                        &mut self.queued,
                        &self.procs,
                        &b.times,
                        &self.suffix_min,
                        &mut self.starts,
                        None,
                    )
                    .is_ok()
                }
            }
            _ => false,
        };
        if !ok {
            self.starts.clear();
            self.ends_ft.clear();
            self.ends_ft
                .extend(ctx.running().map(|r| (Ft(r.end.clone()), r.procs)));
            self.prof_ft
                .rebuild(Ft(ctx.now().clone()), ctx.free(), &mut self.ends_ft);
            round(
                &mut self.prof_ft,
                self.m,
                &self.order,
                &mut self.queued,
                &self.procs,
                &self.times,
                &self.suffix_min,
                &mut self.starts,
                None,
            )
            .map_err(|_| self.internal(ctx, "internal: time overflow in the profile".into()))?;
        }
        Ok(())
    }

    /// [`Reservations::Kept`]: the reservations due now start, then a round for the jobs
    /// without one.
    fn kept(&mut self, ctx: &Ctx<'_>) -> Result<()> {
        let int_now = self.int.as_ref().and_then(|b| b.at(ctx.now()));
        if let (Kept::Int(plan), None) = (&self.kept, int_now) {
            self.kept = Kept::Exact(plan.to_exact());
        }
        let res = match (&mut self.kept, int_now, &self.int) {
            (Kept::Int(plan), Some(now), Some(b)) => plan.event(
                &now,
                self.m,
                &self.order,
                &mut self.queued,
                &self.procs,
                &b.times,
                &mut self.starts,
            ),
            (Kept::Exact(plan), _, _) => plan.event(
                &Ft(ctx.now().clone()),
                self.m,
                &self.order,
                &mut self.queued,
                &self.procs,
                &self.times,
                &mut self.starts,
            ),
            (Kept::Int(_), _, _) => Err("internal: integer plan without a licence".into()),
        };
        res.map_err(|msg| self.internal(ctx, msg))
    }
}

impl Scheduler for RList {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        if ctx.completions().is_empty() {
            self.queued.fill(true);
            if self.policy == Reservations::Kept {
                let p = ctx.instance().procs;
                self.kept = match self.int {
                    Some(_) => Kept::Int(KeptPlan::new(p, 0)),
                    None => Kept::Exact(KeptPlan::new(p, Ft(Time::zero()))),
                };
            }
        }
        for c in ctx.completions() {
            if c.outcome == Outcome::Failed {
                self.queued[self.rank[c.job]] = true;
            }
        }
        self.starts.clear();
        match self.policy {
            Reservations::Recomputed => self.recomputed(ctx)?,
            Reservations::Kept => self.kept(ctx)?,
        }
        for i in 0..self.starts.len() {
            let pos = self.starts[i];
            self.queued[pos] = false;
            let j = self.order[pos];
            ctx.start(j, self.procs[j])?;
        }
        if self.policy == Reservations::Kept {
            // The kept profile and the engine agree on the processors free now.
            let planned = match &self.kept {
                Kept::Int(p) => p.profile.steps[0].1,
                Kept::Exact(p) => p.profile.steps[0].1,
            };
            if planned != ctx.free() {
                return Err(self.internal(
                    ctx,
                    format!(
                        "internal: the kept plan has {planned} processors free now, the engine {}",
                        ctx.free()
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check;
    use crate::engine::run;
    use crate::model::{Instance, Scenario};

    fn t(n: i64) -> Time {
        Time::from_int(n)
    }

    #[test]
    fn min_tree() {
        let mut tr = MinTree::new(5);
        tr.fill(&[4, 3, 5, 1, 2]);
        assert_eq!(tr.first_le(3), Some(1));
        assert_eq!(tr.first_le(0), None);
        tr.set(1, u32::MAX);
        assert_eq!(tr.first_le(3), Some(3));
        tr.set(3, u32::MAX);
        assert_eq!(tr.first_le(3), Some(4));
        tr.set(1, 3);
        assert_eq!(tr.first_le(3), Some(1));
    }

    #[test]
    fn profile_reservations() {
        // now = 0, 1 free; a job on 2 processors ends at 3; P = 3.
        let mut pr: Profile<i64> = Profile::empty();
        pr.rebuild(0, 1, &mut [(3, 2)]);
        assert_eq!(pr.earliest(2, &1).unwrap(), 1);
        pr.reserve(1, 2, &1).unwrap(); // [3,4) has 1 free
        assert!(pr.fits_from(0, 1, &10).unwrap());
        assert!(!pr.fits_from(0, 2, &1).unwrap());
        assert_eq!(pr.steps, vec![(0, 1), (3, 1), (4, 3)]);
        pr.advance(&3);
        assert_eq!(pr.steps, vec![(3, 1), (4, 3)]);
        pr.advance(&5);
        assert_eq!(pr.steps, vec![(5, 3)]);
    }

    /// The one-sweep `earliest` is the first k whose window fits (the definition, rescanned).
    #[test]
    fn earliest_sweep_matches_definition() {
        use rand::{RngExt, SeedableRng};
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let cap = 10u32;
            let n = rng.random_range(0..8usize);
            let mut ends: Vec<(i64, u32)> = Vec::new();
            let mut used = 0;
            for _ in 0..n {
                let p = rng.random_range(1..=3u32);
                if used + p <= cap {
                    used += p;
                    ends.push((rng.random_range(1..12i64), p));
                }
            }
            let mut pr: Profile<i64> = Profile::empty();
            pr.rebuild(0, cap - used, &mut ends);
            for _ in 0..6 {
                let (p, t) = (rng.random_range(1..=cap), rng.random_range(0..9i64));
                let want = (0..pr.steps.len())
                    .find(|&k| pr.fits_from(k, p, &t).unwrap())
                    .unwrap();
                assert_eq!(
                    pr.earliest(p, &t).unwrap(),
                    want,
                    "seed {seed}: {pr:?} p={p} t={t}"
                );
                pr.reserve(want, p, &t).unwrap();
            }
        }
    }

    /// `Ft`'s order and sum are `Time`'s.
    #[test]
    fn ft_is_time() {
        let vals = [
            Time::new(7, 3).unwrap(),
            Time::new(-5, 2).unwrap(),
            t(4),
            t(i64::MAX),
            Time::new(1, i64::MAX).unwrap(),
            Time::zero(),
        ];
        for a in &vals {
            for b in &vals {
                assert_eq!(Ft(a.clone()).cmp(&Ft(b.clone())), a.cmp(b), "{a} vs {b}");
                assert_eq!(
                    Ft(a.clone()).plus(&Ft(b.clone())).unwrap().0,
                    a + b,
                    "{a} + {b}"
                );
            }
        }
    }

    #[test]
    fn greedy_matches_reference_m0() {
        // P = 4; p = 3, 2, 2, 1, 4; a few failures.
        let inst =
            Instance::rigid(4, &[(3, t(2)), (2, t(3)), (2, t(1)), (1, t(5)), (4, t(1))]).unwrap();
        let keys: Vec<(u32, Time)> = inst
            .jobs
            .iter()
            .map(|j| j.as_rigid().map(|(p, t)| (p, t.clone())).unwrap())
            .collect();
        let sc = Scenario::new(vec![1, 0, 2, 1, 0]);
        for pr in Priority::ALL {
            let a = run(&inst, &sc, &mut Greedy::new(&keys, 4, pr, 3)).unwrap();
            let b = run(&inst, &sc, &mut RList::new(0, &keys, 4, pr, 3)).unwrap();
            check(&inst, &sc, &a.schedule).unwrap();
            assert_eq!(a.schedule.attempts, b.schedule.attempts, "{pr}");
        }
    }

    fn keys_of(inst: &Instance) -> Vec<(u32, Time)> {
        inst.jobs
            .iter()
            .map(|j| j.as_rigid().map(|(p, t)| (p, t.clone())).unwrap())
            .collect()
    }

    /// A random small instance (`den` = 1: integer times) and scenario, from a seed.
    fn random_case(seed: u64, den: i64, scale: i64) -> (Instance, Scenario) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let cap = rng.random_range(2..=8u32);
        let n = rng.random_range(1..=9usize);
        let jobs: Vec<(u32, Time)> = (0..n)
            .map(|_| {
                let p = rng.random_range(1..=cap);
                let k = rng.random_range(1..=12i64);
                (p, Time::new(k * scale, den).unwrap())
            })
            .collect();
        let inst = Instance::rigid(cap, &jobs).unwrap();
        let sc = Scenario::new((0..n).map(|_| rng.random_range(0..=3u32)).collect());
        (inst, sc)
    }

    const MS: [usize; 5] = [1, 2, 3, 5, usize::MAX];

    /// The fast R-LIST (integer and exact clocks) makes exactly the former implementation's
    /// schedules: integer times, fractional times, and times too large for the integer licence.
    #[test]
    fn fast_rlist_matches_reference() {
        for seed in 0..150u64 {
            for (den, scale) in [(1, 1), (3, 1), (1, i64::MAX / 40)] {
                let (inst, sc) = random_case(seed, den, scale);
                let keys = keys_of(&inst);
                for m in MS {
                    for pr in Priority::ALL {
                        let a = run(&inst, &sc, &mut RList::new(m, &keys, inst.procs, pr, seed));
                        let b = run(
                            &inst,
                            &sc,
                            &mut RefRList::new(m, &keys, inst.procs, pr, seed),
                        );
                        let (a, b) = (a.unwrap(), b.unwrap());
                        check(&inst, &sc, &a.schedule).unwrap();
                        assert_eq!(
                            a.schedule.attempts, b.schedule.attempts,
                            "seed {seed}, den {den}, m {m}, {pr}: {inst:?} {sc:?}"
                        );
                    }
                }
            }
        }
    }

    /// (job, attempt, start) of every attempt, sorted, and the checked makespan.
    fn starts_of(
        inst: &Instance,
        sc: &Scenario,
        s: &mut dyn Scheduler,
    ) -> (Vec<(usize, u32, Time)>, Time) {
        let r = run(inst, sc, s).unwrap();
        let mk = check(inst, sc, &r.schedule).unwrap();
        let mut v: Vec<(usize, u32, Time)> = r
            .schedule
            .attempts
            .iter()
            .map(|a| (a.job, a.attempt, a.start.clone()))
            .collect();
        v.sort();
        (v, mk)
    }

    /// Conservative backfilling (m = |Q|), the two readings, hand-computed. P = 2, LPT order
    /// X1 (p 1, t 3), X2 (p 1, t 2), X0 (p 2, t 1); X2 and X0 fail once.
    /// Both: t = 0: X1 [0,3), X2 [0,2), X0 reserved [3,4).
    /// Recomputed: t = 2, X2 failed: fresh round, X2 (first in Q) fits [2,4) and restarts; X0
    ///   is re-reserved at 4. t = 4: X0 [4,5), fails; [5,6). Makespan 6.
    /// Kept: t = 2: X0 keeps [3,4), so X2 gets the earliest slot after it: [4,6). t = 3: X0
    ///   [3,4), fails; at 4 it is reserved after X2: [6,7). Makespan 7.
    #[test]
    fn conservative_kept_vs_recomputed_golden() {
        let inst = Instance::rigid(2, &[(2, t(1)), (1, t(3)), (1, t(2))]).unwrap();
        let sc = Scenario::new(vec![1, 0, 1]);
        let keys = keys_of(&inst);
        let m = usize::MAX;
        let (rec, mk) = starts_of(&inst, &sc, &mut RList::new(m, &keys, 2, Priority::Lpt, 0));
        assert_eq!(
            rec,
            vec![
                (0, 1, t(4)),
                (0, 2, t(5)),
                (1, 1, t(0)),
                (2, 1, t(0)),
                (2, 2, t(2))
            ]
        );
        assert_eq!(mk, t(6));
        let mut kept = RList::with_policy(m, Reservations::Kept, &keys, 2, Priority::Lpt, 0);
        assert_eq!(kept.name(), "R-LIST(m=|Q|,kept)/LPT");
        let (kp, mk) = starts_of(&inst, &sc, &mut kept);
        assert_eq!(
            kp,
            vec![
                (0, 1, t(3)),
                (0, 2, t(6)),
                (1, 1, t(0)),
                (2, 1, t(0)),
                (2, 2, t(4))
            ]
        );
        assert_eq!(mk, t(7));
    }

    /// m = 1, the two readings, hand-computed: kept reservations accumulate (one more per
    /// completion), which here helps. P = 3, LPT order J3 (1, 6), J1 (1, 4), J2 (2, 3),
    /// J0 (1, 2); J1, J2, J3 fail once.
    /// Both: t = 0: J3 [0,6) (the head), J1 [0,4) and J0 [0,2) backfill. t = 2: J2 reserved at 4.
    /// Recomputed: t = 4, J1 failed: the fresh round gives the one reservation to J1 (head),
    ///   which starts [4,8); J2 cannot backfill (1 free). t = 6: J3 [6,12). t = 8: J2 [8,11),
    ///   fails; [11,14). Makespan 14.
    /// Kept: t = 4: J2 starts on its reservation [4,7); J1 reserved at 6 [6,10). t = 6: J3
    ///   reserved at 7 [7,13). t = 7: J2 failed, reserved at 10 [10,13). Makespan 13.
    #[test]
    fn easy_kept_vs_recomputed_golden() {
        let inst = Instance::rigid(3, &[(1, t(2)), (1, t(4)), (2, t(3)), (1, t(6))]).unwrap();
        let sc = Scenario::new(vec![0, 1, 1, 1]);
        let keys = keys_of(&inst);
        let (rec, mk) = starts_of(&inst, &sc, &mut RList::new(1, &keys, 3, Priority::Lpt, 0));
        let want = |v: [(usize, u32, i64); 7]| {
            let mut v: Vec<(usize, u32, Time)> = v.iter().map(|x| (x.0, x.1, t(x.2))).collect();
            v.sort();
            v
        };
        assert_eq!(
            rec,
            want([
                (3, 1, 0),
                (1, 1, 0),
                (0, 1, 0),
                (1, 2, 4),
                (3, 2, 6),
                (2, 1, 8),
                (2, 2, 11)
            ])
        );
        assert_eq!(mk, t(14));
        let mut kept = RList::with_policy(1, Reservations::Kept, &keys, 3, Priority::Lpt, 0);
        let (kp, mk) = starts_of(&inst, &sc, &mut kept);
        assert_eq!(
            kp,
            want([
                (3, 1, 0),
                (1, 1, 0),
                (0, 1, 0),
                (2, 1, 4),
                (1, 2, 6),
                (3, 2, 7),
                (2, 2, 10)
            ])
        );
        assert_eq!(mk, t(13));
    }

    /// Properties of the kept reading on random cases (every schedule checked): with m = 0 it
    /// is GREEDY; without failures, conservative backfilling never needs to revise a plan, so
    /// kept = recomputed for m = |Q|; integer and exact clocks agree (times scaled by 1/3 give
    /// the same schedule scaled).
    #[test]
    fn kept_properties() {
        for seed in 0..200u64 {
            let (inst, sc) = random_case(seed, 1, 1);
            let (inst3, _) = random_case(seed, 3, 1);
            let keys = keys_of(&inst);
            let keys3 = keys_of(&inst3);
            let none = Scenario::none(inst.len());
            for pr in Priority::ALL {
                let g = run(&inst, &sc, &mut Greedy::new(&keys, inst.procs, pr, seed)).unwrap();
                let k0 = RList::with_policy(0, Reservations::Kept, &keys, inst.procs, pr, seed);
                let k0 = run(&inst, &sc, &mut k0.clone()).unwrap();
                assert_eq!(
                    g.schedule.attempts, k0.schedule.attempts,
                    "seed {seed} {pr}"
                );
                let rq = RList::new(usize::MAX, &keys, inst.procs, pr, seed);
                let kq =
                    RList::with_policy(usize::MAX, Reservations::Kept, &keys, inst.procs, pr, seed);
                let a = run(&inst, &none, &mut rq.clone()).unwrap();
                let b = run(&inst, &none, &mut kq.clone()).unwrap();
                assert_eq!(
                    a.schedule.attempts, b.schedule.attempts,
                    "seed {seed} {pr}: {inst:?}"
                );
                for m in MS {
                    let mut k =
                        RList::with_policy(m, Reservations::Kept, &keys, inst.procs, pr, seed);
                    let r = run(&inst, &sc, &mut k).unwrap();
                    check(&inst, &sc, &r.schedule).unwrap();
                    let mut k3 =
                        RList::with_policy(m, Reservations::Kept, &keys3, inst3.procs, pr, seed);
                    let r3 = run(&inst3, &sc, &mut k3).unwrap();
                    check(&inst3, &sc, &r3.schedule).unwrap();
                    let scaled: Vec<Time> = r3
                        .schedule
                        .attempts
                        .iter()
                        .map(|a| a.start.mul_int(3))
                        .collect();
                    let plain: Vec<Time> = r
                        .schedule
                        .attempts
                        .iter()
                        .map(|a| a.start.clone())
                        .collect();
                    assert_eq!(plain, scaled, "seed {seed} m {m} {pr}");
                }
            }
        }
    }

    /// Times so large that the integer licence holds at time 0 and runs out during the run:
    /// the kept plan moves to exact time and makes the same schedule as the same jobs scaled
    /// down (R-LIST only adds times and compares sums, so its schedule scales).
    #[test]
    fn kept_survives_the_integer_limit() {
        let big = i64::MAX / 256;
        let mut moved = 0;
        for seed in 0..40u64 {
            let (small, sc) = random_case(seed, 1, 1);
            let (huge, _) = random_case(seed, 1, big);
            let (ks, kh) = (keys_of(&small), keys_of(&huge));
            assert!(
                IntBound::new(&kh).is_some(),
                "seed {seed}: licensed at time 0"
            );
            for m in MS {
                let mut a =
                    RList::with_policy(m, Reservations::Kept, &ks, small.procs, Priority::Lpt, 0);
                let mut b =
                    RList::with_policy(m, Reservations::Kept, &kh, huge.procs, Priority::Lpt, 0);
                let ra = run(&small, &sc, &mut a).unwrap();
                let rb = run(&huge, &sc, &mut b).unwrap();
                check(&huge, &sc, &rb.schedule).unwrap();
                moved += usize::from(matches!(b.kept, Kept::Exact(_)));
                let scaled: Vec<Time> = ra
                    .schedule
                    .attempts
                    .iter()
                    .map(|x| x.start.mul_int(big as u64))
                    .collect();
                let got: Vec<Time> = rb
                    .schedule
                    .attempts
                    .iter()
                    .map(|x| x.start.clone())
                    .collect();
                assert_eq!(got, scaled, "seed {seed} m {m}");
            }
        }
        assert!(moved > 0, "no run crossed the integer limit");
    }

    // The former implementation of R-LIST(m) (recomputed reservations), kept verbatim as the
    // reference of the fast one: `Time` everywhere, a rescan per candidate start.
    /// The free processors over time from `now` on, as a step function: `steps[k] = (s_k, free_k)`
    /// means `free_k` processors are free on [s_k, s_{k+1}) (the last step lasts forever).
    #[derive(Debug, Clone)]
    struct RefProfile {
        steps: Vec<(Time, u32)>,
    }

    impl RefProfile {
        /// From the free processors now and the (end, procs) of the attempts running.
        fn new(now: &Time, free: u32, mut ends: Vec<(Time, u32)>) -> RefProfile {
            ends.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            let mut steps = vec![(now.clone(), free)];
            let mut cur = free;
            for (t, p) in ends {
                cur += p;
                match steps.last_mut() {
                    Some(last) if last.0 == t => last.1 = cur,
                    _ => steps.push((t, cur)),
                }
            }
            RefProfile { steps }
        }

        /// Whether `p` processors are free on [steps[k].0, steps[k].0 + t).
        fn fits_from(&self, k: usize, p: u32, t: &Time) -> bool {
            let end = &self.steps[k].0 + t;
            self.steps[k..]
                .iter()
                .take_while(|s| s.0 < end)
                .all(|s| s.1 >= p)
        }

        /// The first step at which `p` processors stay free for `t`. The last step always has all
        /// processors free, so there is one.
        fn earliest(&self, p: u32, t: &Time) -> usize {
            (0..self.steps.len())
                .find(|&k| self.fits_from(k, p, t))
                .unwrap_or(self.steps.len() - 1)
        }

        /// Takes `p` processors on [steps[k].0, steps[k].0 + t) (which must fit).
        fn reserve(&mut self, k: usize, p: u32, t: &Time) {
            let end = &self.steps[k].0 + t;
            // Split at `end` so that the reservation stops exactly there.
            let pos = self.steps.partition_point(|s| s.0 < end);
            if pos == self.steps.len() || self.steps[pos].0 != end {
                let before = self.steps[pos - 1].1;
                self.steps.insert(pos, (end, before));
            }
            for s in &mut self.steps[k..pos] {
                s.1 -= p;
            }
        }
    }

    /// R-LIST(m) for m ≥ 1 (m = `usize::MAX` stands for m = |Q|), reservations recomputed from
    /// scratch at every completion. With m = 0 it is GREEDY too (the reference the fast [`Greedy`]
    /// is tested against).
    #[derive(Debug, Clone)]
    struct RefRList {
        name: String,
        m: usize,
        order: Vec<usize>,
        rank: Vec<usize>,
        keys: Vec<(u32, Time)>,
        /// queued[pos]: the job at queue position pos waits in Q.
        queued: Vec<bool>,
    }

    impl RefRList {
        /// R-LIST(m) over rigid jobs with keys `(p_j, t_j)`.
        fn new(
            m: usize,
            keys: &[(u32, Time)],
            platform: u32,
            priority: Priority,
            seed: u64,
        ) -> RefRList {
            let order = priority::order(priority, keys, platform, seed);
            let rank = priority::ranks(&order);
            let mname = if m == usize::MAX {
                "|Q|".to_string()
            } else {
                m.to_string()
            };
            RefRList {
                name: format!("R-LIST(m={mname})/{priority}"),
                m,
                queued: vec![false; order.len()],
                order,
                rank,
                keys: keys.to_vec(),
            }
        }
    }

    impl Scheduler for RefRList {
        fn name(&self) -> String {
            self.name.clone()
        }

        fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
            if ctx.completions().is_empty() {
                self.queued.fill(true);
            }
            for c in ctx.completions() {
                if c.outcome == Outcome::Failed {
                    self.queued[self.rank[c.job]] = true;
                }
            }
            let now = ctx.now().clone();
            let ends: Vec<(Time, u32)> = ctx.running().map(|r| (r.end.clone(), r.procs)).collect();
            let mut profile = RefProfile::new(&now, ctx.free(), ends);
            let mut reserved = 0usize;
            let mut starts = Vec::new();
            for pos in 0..self.order.len() {
                if !self.queued[pos] {
                    continue;
                }
                let j = self.order[pos];
                let (p, t) = (self.keys[j].0, &self.keys[j].1);
                if reserved < self.m {
                    // A fresh reservation, the earliest that delays no higher-priority one.
                    reserved += 1;
                    let k = profile.earliest(p, t);
                    profile.reserve(k, p, t);
                    if k == 0 {
                        starts.push(pos);
                    }
                } else if profile.fits_from(0, p, t) {
                    // Backfilling: starts now, delays no reservation.
                    profile.reserve(0, p, t);
                    starts.push(pos);
                }
            }
            for pos in starts {
                self.queued[pos] = false;
                let j = self.order[pos];
                ctx.start(j, self.keys[j].0)?;
            }
            Ok(())
        }
    }
}
