//! Test support for R-LIST (rigid paper Section 4.1, Algorithm 1): a direct transcription of
//! Algorithm 1 with recomputed reservations — `Time` everywhere, a rescan per candidate start —
//! that the fast [`super::RList`] and [`super::Greedy`] are tested against, and the helpers the
//! tests share.
use crate::check::check;
use crate::engine::{run, Ctx, Outcome, Scheduler};
use crate::error::Result;
use crate::model::{Instance, Scenario};
use crate::schedulers::priority::{self, Priority};
use crate::time::Time;

/// An integer time.
pub(super) fn t(n: i64) -> Time {
    Time::from_int(n)
}

/// The m of R-LIST(m) the random tests run (`usize::MAX` stands for m = |Q|).
pub(super) const MS: [usize; 5] = [1, 2, 3, 5, usize::MAX];

/// `(p_j, t_j)` of every job of a rigid instance.
pub(super) fn keys_of(inst: &Instance) -> Vec<(u32, Time)> {
    inst.jobs
        .iter()
        .map(|j| j.as_rigid().map(|(p, t)| (p, t.clone())).unwrap())
        .collect()
}

/// A random small instance (`den` = 1: integer times) and scenario, from a seed.
pub(super) fn random_case(seed: u64, den: i64, scale: i64) -> (Instance, Scenario) {
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

/// (job, attempt, start) of every attempt, sorted, and the checked makespan.
pub(super) fn starts_of(
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
            // unreachable: the last step of the profile is free forever, so some step fits
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
/// scratch at every completion. With m = 0 it is GREEDY too.
#[derive(Debug, Clone)]
pub(super) struct RefRList {
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
    pub(super) fn new(
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
