//! A second reading of R-SHELFFILL(b) (rigid paper Section 4.4, Algorithm 3; not the default,
//! not in the catalogue): the shelf's *idle processors* are filled, not only the failed job's own.
//!
//! Algorithm 3 restarts a failed job J_k at once, on the processors it just released, when
//! t + t_k ≤ T_i, and otherwise inserts it into Q; the shelf is then left alone until T_i
//! ([`super::shelf::Shelf`], the default). The prose before it admits more: "failed jobs can be
//! re-executed within the same shelf if they fit in, hence better filling the shelves" and "we
//! fill a shelf with re-executions of a failed job as long as they do not exceed T_i". Read
//! literally, *any* failed job waiting in Q (one that failed earlier in this shelf, or in an
//! earlier one and found no room when this shelf was built) may start on whatever processors are
//! idle, when it fits in them and ends by T_i. [`ShelfIdle`] does that: at every completion
//! before T_i, a failed job goes into Q, then Q is scanned in priority order (First-Fit, for
//! b = 0 and b = 1 alike: b only governs how a shelf is built) and every job that has
//! already failed, fits in the free processors and ends by T_i starts now. With [`Pool::Any`]
//! every queued job is eligible, fresh ones included (a backfilling inside the shelf; without
//! failures it differs from R-SHELF, which the paper's Table 1 at q̄ = 0 does not support).
//!
//! Every attempt still ends by T_i, so all P processors are free when the next shelf is built,
//! exactly as in Algorithm 2. Hand-computed golden cases: `tests/shelf_idle.rs`.
use super::priority::{self, Priority};
use crate::engine::{Ctx, Outcome, Scheduler};
use crate::error::{Error, Result};
use crate::time::Time;

/// Which queued jobs may fill the idle processors of the current shelf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pool {
    /// Jobs that have failed at least once (the reading of the prose: "failed jobs").
    Failed,
    /// Every queued job.
    Any,
}

/// R-SHELFFILL(b) whose re-executions use any idle processor of the shelf.
#[derive(Debug, Clone)]
pub struct ShelfIdle {
    name: String,
    backfill: bool,
    pool: Pool,
    order: Vec<usize>,
    rank: Vec<usize>,
    keys: Vec<(u32, Time)>,
    queued: Vec<bool>,
    in_queue: usize,
    /// T_i, the end of the current shelf.
    shelf_end: Time,
    /// i, the index of the current shelf (0 = the virtual shelf).
    shelf: usize,
}

impl ShelfIdle {
    /// `backfill`: b = 1; `pool`: which queued jobs fill the shelf.
    pub fn new(
        backfill: bool,
        pool: Pool,
        keys: &[(u32, Time)],
        platform: u32,
        priority: Priority,
        seed: u64,
    ) -> ShelfIdle {
        let order = priority::order(priority, keys, platform, seed);
        let rank = priority::ranks(&order);
        let b = if backfill { "B" } else { "NB" };
        let reading = match pool {
            Pool::Failed => "idle",
            Pool::Any => "idle-any",
        };
        ShelfIdle {
            name: format!("R-SHELFFILL-{b}-{reading}/{priority}"),
            backfill,
            pool,
            queued: vec![false; order.len()],
            in_queue: 0,
            order,
            rank,
            keys: keys.to_vec(),
            shelf_end: Time::zero(),
            shelf: 0,
        }
    }

    /// Starts every eligible queued job that fits in the idle processors and ends by T_i.
    fn fill(&mut self, ctx: &mut Ctx<'_>, now: &Time) -> Result<()> {
        let left = &self.shelf_end - now;
        for pos in 0..self.order.len() {
            if !self.queued[pos] {
                continue;
            }
            let j = self.order[pos];
            if self.pool == Pool::Failed && ctx.attempts_made(j) == 0 {
                continue;
            }
            let (p, t) = (self.keys[j].0, &self.keys[j].1);
            if p <= ctx.free() && *t <= left {
                self.queued[pos] = false;
                self.in_queue -= 1;
                ctx.start(j, p)?;
            }
        }
        Ok(())
    }
}

impl Scheduler for ShelfIdle {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
        if ctx.completions().is_empty() {
            self.queued.fill(true);
            self.in_queue = self.order.len();
            self.shelf_end = Time::zero();
            self.shelf = 0;
        }
        let now = ctx.now().clone();
        let failed: Vec<usize> = ctx
            .completions()
            .iter()
            .filter(|c| c.outcome == Outcome::Failed)
            .map(|c| c.job)
            .collect();
        for k in failed {
            self.queued[self.rank[k]] = true;
            self.in_queue += 1;
        }
        if self.in_queue == 0 {
            return Ok(());
        }
        if now < self.shelf_end {
            return self.fill(ctx, &now);
        }
        let cap = ctx.instance().procs;
        if ctx.free() != cap {
            return Err(Error::Scheduler {
                algo: self.name.clone(),
                time: now.to_string(),
                msg: format!(
                    "internal: shelf {} ends with {} processors busy",
                    self.shelf,
                    cap - ctx.free()
                ),
            });
        }
        self.shelf += 1;
        let mut used = 0u32;
        let mut height = Time::zero();
        let mut members = Vec::new();
        for pos in 0..self.order.len() {
            if !self.queued[pos] {
                continue;
            }
            let j = self.order[pos];
            let (p, t) = (self.keys[j].0, &self.keys[j].1);
            if used + p <= cap {
                used += p;
                if *t > height {
                    height = t.clone();
                }
                members.push(pos);
            } else if !self.backfill {
                break; // b = 0: Next-Fit closes the shelf
            }
        }
        self.shelf_end = &now + &height;
        for pos in members {
            self.queued[pos] = false;
            self.in_queue -= 1;
            let j = self.order[pos];
            ctx.start(j, self.keys[j].0)?;
        }
        Ok(())
    }
}
