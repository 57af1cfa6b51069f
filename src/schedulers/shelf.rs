//! R-SHELF(b) and R-SHELFFILL(b), rigid paper Algorithms 2 and 3 (Section 4.3), b ∈ {0, 1}.
//!
//! Jobs wait in a queue Q in priority order. When every job of the current shelf S_i has
//! completed — at its end T_i = (start of S_i) + max_{J_j ∈ S_i} t_j, an instant at which the
//! engine calls us because the longest job of the shelf ends then; at time 0 the virtual shelf S_0
//! with T_0 = 0 ends — a new shelf is built by scanning Q in order and adding every job that
//! fits in the P processors; with b = 0 (no backfilling, Next-Fit) the scan stops at the first job
//! that does not fit, with b = 1 (First-Fit) it goes on to the end of Q. The shelf's jobs all
//! start at once. A job whose attempt fails goes back into Q at its priority (Algorithm 2) —
//! except in R-SHELFFILL (Algorithm 3), where it restarts immediately, on the processors it just
//! released, if the new attempt ends no later than the shelf: t + t_k ≤ T_i.
//!
//! Since every attempt of a shelf (R-SHELFFILL's re-executions included) ends by T_i, all P
//! processors are free at T_i. Propositions 3 and 4 (the Ω(ln P) and Ω(P) lower bounds) are the
//! golden tests of this file (`tests/cases/`, `tests/golden.rs`).
//!
//! A second reading of Algorithm 3 ([`Shelf::idle_fill`]; not the default, not in the
//! catalogue) fills the shelf's *idle processors*, not only the failed job's own. The prose
//! before Algorithm 3 admits it: "failed jobs can be re-executed within the same shelf if they
//! fit in, hence better filling the shelves" and "we fill a shelf with re-executions of a failed
//! job as long as they do not exceed T_i". Read literally, any failed job waiting in Q may start
//! on whatever processors are idle when it fits in them and ends by T_i: at every completion
//! before T_i a failed job goes into Q, then Q is scanned in priority order (First-Fit, for
//! b = 0 and b = 1 alike: b only governs how a shelf is built) and every eligible job that fits
//! and ends by T_i starts now. With [`Pool::Any`] every queued job is eligible, fresh ones
//! included (a backfilling inside the shelf; without failures it differs from R-SHELF, which the
//! paper's Table 1 at q̄ = 0 does not support). Every attempt still ends by T_i. Hand-computed
//! golden cases: `tests/shelf_idle.rs`; the comparison: docs/results/rigid-shelffill.md.
//!
//! The scheduler resets on the engine's first call, so one value can run many scenarios.
use super::priority::{self, Priority};
use crate::engine::{Ctx, Outcome, Scheduler};
use crate::error::{Error, Result};
use crate::time::Time;

/// Which queued jobs may fill the idle processors of the current shelf ([`Shelf::idle_fill`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pool {
    /// Jobs that have failed at least once (the reading of the prose: "failed jobs").
    Failed,
    /// Every queued job.
    Any,
}

/// What happens inside a shelf before its end T_i.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refill {
    /// R-SHELF: nothing; a failed job waits in Q.
    None,
    /// R-SHELFFILL as written: a failed job restarts on its own processors if it ends by T_i.
    Own,
    /// The idle-processor reading: queued jobs of the pool fill any idle processors.
    Idle(Pool),
}

/// R-SHELF(b) (`fill = false`) or R-SHELFFILL(b) (`fill = true`), or the idle-processor
/// reading of R-SHELFFILL ([`Shelf::idle_fill`]).
#[derive(Debug, Clone)]
pub struct Shelf {
    name: String,
    refill: Refill,
    backfill: bool,
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

impl Shelf {
    /// `fill`: R-SHELFFILL rather than R-SHELF; `backfill`: b = 1.
    pub fn new(
        fill: bool,
        backfill: bool,
        keys: &[(u32, Time)],
        platform: u32,
        priority: Priority,
        seed: u64,
    ) -> Shelf {
        let refill = if fill { Refill::Own } else { Refill::None };
        Shelf::build(refill, backfill, keys, platform, priority, seed)
    }

    /// The idle-processor reading of R-SHELFFILL(b) (module doc): `pool` says which queued
    /// jobs fill the shelf's idle processors; named `R-SHELFFILL-{B|NB}-{idle|idle-any}`.
    pub fn idle_fill(
        backfill: bool,
        pool: Pool,
        keys: &[(u32, Time)],
        platform: u32,
        priority: Priority,
        seed: u64,
    ) -> Shelf {
        Shelf::build(Refill::Idle(pool), backfill, keys, platform, priority, seed)
    }

    fn build(
        refill: Refill,
        backfill: bool,
        keys: &[(u32, Time)],
        platform: u32,
        priority: Priority,
        seed: u64,
    ) -> Shelf {
        let order = priority::order(priority, keys, platform, seed);
        let rank = priority::ranks(&order);
        let b = if backfill { "B" } else { "NB" };
        let name = match refill {
            Refill::None => format!("R-SHELF-{b}/{priority}"),
            Refill::Own => format!("R-SHELFFILL-{b}/{priority}"),
            Refill::Idle(Pool::Failed) => format!("R-SHELFFILL-{b}-idle/{priority}"),
            Refill::Idle(Pool::Any) => format!("R-SHELFFILL-{b}-idle-any/{priority}"),
        };
        Shelf {
            name,
            refill,
            backfill,
            queued: vec![false; order.len()],
            in_queue: 0,
            order,
            rank,
            keys: keys.to_vec(),
            shelf_end: Time::zero(),
            shelf: 0,
        }
    }

    /// Starts every queued job of `pool` that fits in the idle processors and ends by T_i.
    fn fill_idle(&mut self, ctx: &mut Ctx<'_>, now: &Time, pool: Pool) -> Result<()> {
        let left = &self.shelf_end - now;
        for pos in 0..self.order.len() {
            if !self.queued[pos] {
                continue;
            }
            let j = self.order[pos];
            if pool == Pool::Failed && ctx.attempts_made(j) == 0 {
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

impl Scheduler for Shelf {
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
        // Completions come sorted by job index; each failed job is handled on its own (its
        // restart uses only the processors it released, so the order does not matter).
        let failed: Vec<usize> = ctx
            .completions()
            .iter()
            .filter(|c| c.outcome == Outcome::Failed)
            .map(|c| c.job)
            .collect();
        for k in failed {
            let (p, t) = (self.keys[k].0, &self.keys[k].1);
            if self.refill == Refill::Own && &now + t <= self.shelf_end {
                ctx.start(k, p)?; // Algorithm 3: fill the shelf with the re-execution
            } else {
                self.queued[self.rank[k]] = true;
                self.in_queue += 1;
            }
        }
        if self.in_queue == 0 {
            return Ok(());
        }
        // Before T_i (every attempt ends by T_i, so never after it).
        if now != self.shelf_end {
            return match self.refill {
                Refill::Idle(pool) => self.fill_idle(ctx, &now, pool),
                Refill::None | Refill::Own => Ok(()),
            };
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
