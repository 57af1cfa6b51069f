//! R-LIST(m), rigid paper Algorithm 1 (Section 4.1): list scheduling with m reservations and
//! backfilling, for rigid jobs that fail and run again.
//!
//! The queue Q holds the jobs waiting to run, in priority order; a job whose attempt fails goes
//! back into Q at its priority (it keeps its rank, so "insert_with_priority" is exact).
//!
//! - [`Greedy`] is R-LIST(m = 0) (GREEDY, Proposition 2): at every completion, scan Q in order
//!   and start every job that fits in the free processors (`greedy.rs`, on the min-segment-tree of
//!   `min_tree.rs`).
//! - [`RList`] is R-LIST(m) for any m ≥ 1 (RESERVATION, Proposition 1), with m = |Q| giving
//!   conservative backfilling and m = 1 EASY. As Section 4.1 prescribes for the analysis, every
//!   completion deletes all reservations and makes a fresh round from the current queue: the first
//!   m queued jobs, in order, each get the earliest start at which they fit in the processor
//!   profile (running attempts + reservations already made) for their whole duration, so no
//!   reservation delays a higher-priority one; then every later queued job, in order, starts now
//!   if it fits in that profile over [now, now + t_j), i.e. it delays no reservation. A
//!   reservation that falls on the current instant is a start now. The processor profile and one
//!   round of Algorithm 1 are `profile.rs`; the exact clocks it runs on, `clock.rs`; the
//!   scheduler, `scheduler.rs`.
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
//! A third reading, reservations kept until the job starts ([`Reservations::Kept`], the paper's
//! own simulator), is a parameter; `kept.rs` documents it.
//!
//! Both schedulers reset their state on the engine's first call (time 0, no completion), so one
//! value can run many scenarios.
mod clock;
mod greedy;
mod kept;
mod min_tree;
mod profile;
#[cfg(test)]
mod reference;
mod scheduler;

pub use greedy::Greedy;
pub use scheduler::RList;

/// What R-LIST(m) does with the reservations it made at earlier completions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reservations {
    /// Section 4.1's reading (the default): every completion deletes all reservations and makes
    /// a fresh round from the current queue; the analysis of Proposition 1 uses it.
    Recomputed,
    /// Reservations are kept until the job starts and never revised, as production
    /// conservative backfilling does with exact run times, and as the paper's own simulator
    /// does (see `kept.rs`): each completion gives new reservations to the first m queued
    /// jobs *that have none* (a failed job re-enters that queue at its priority), in the
    /// profile of the running attempts and of every reservation kept.
    Kept,
}
