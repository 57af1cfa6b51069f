//! R-LIST(m) as a scheduler (rigid paper Section 4.1, Algorithm 1; Proposition 1): at every
//! completion, failed jobs re-enter Q at their priority and one round of Algorithm 1 runs on
//! the processor profile — a fresh one from the running attempts ([`Reservations::Recomputed`],
//! Section 4.1's reading), or the plan kept from earlier rounds ([`Reservations::Kept`]) — on
//! the integer clock when the times allow it, else in exact time.
use super::clock::{Ft, IntBound};
use super::kept::{Kept, KeptPlan};
use super::profile::{round, Profile, Queue};
use super::Reservations;
use crate::engine::{Ctx, Outcome, Scheduler};
use crate::error::{Error, Result};
use crate::schedulers::priority::{self, Priority};
use crate::time::Time;

/// R-LIST(m) for m ≥ 1 (m = `usize::MAX` stands for m = |Q|), reservations either recomputed
/// from scratch at every completion (Section 4.1, the default) or kept
/// ([`Reservations::Kept`]). With m = 0 it is GREEDY too, more slowly than
/// [`Greedy`](super::Greedy).
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
    /// turns the early stop of a round off).
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
    pub(super) kept: Kept,
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
                    let q = Queue {
                        m: self.m,
                        order: &self.order,
                        queued: &mut self.queued,
                        procs: &self.procs,
                        times: &b.times,
                        suffix_min: &self.suffix_min,
                    };
                    round(&mut self.prof_int, q, &mut self.starts, None).is_ok()
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
            let q = Queue {
                m: self.m,
                order: &self.order,
                queued: &mut self.queued,
                procs: &self.procs,
                times: &self.times,
                suffix_min: &self.suffix_min,
            };
            round(&mut self.prof_ft, q, &mut self.starts, None)
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
            (Kept::Int(plan), Some(now), Some(b)) => {
                let q = Queue {
                    m: self.m,
                    order: &self.order,
                    queued: &mut self.queued,
                    procs: &self.procs,
                    times: &b.times,
                    suffix_min: &[],
                };
                plan.event(&now, q, &mut self.starts)
            }
            (Kept::Exact(plan), _, _) => {
                let q = Queue {
                    m: self.m,
                    order: &self.order,
                    queued: &mut self.queued,
                    procs: &self.procs,
                    times: &self.times,
                    suffix_min: &[],
                };
                plan.event(&Ft(ctx.now().clone()), q, &mut self.starts)
            }
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
    use super::super::reference::{keys_of, random_case, RefRList, MS};
    use super::*;
    use crate::check::check;
    use crate::engine::run;

    /// The fast R-LIST (integer and exact clocks) makes exactly the reference's schedules:
    /// integer times, fractional times, and times too large for the integer licence.
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
}
