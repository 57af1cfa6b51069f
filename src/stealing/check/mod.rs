//! Independent checker of a node-stealing run.
//!
//! It judges the *records* of a run (attempts, holds, failures, completions) against the
//! workload and the resilience parameters, and recomputes what it needs itself — the checkpoint
//! grid, Eq. (1)–(2), the downtime intervals, the time decomposition — without calling the
//! scheduler's code (`sim`, `plan`, `checkpoint`, `metrics`). It fills the metrics' own data
//! type, [`Decomposition`], so that the two are compared field by field and cannot drift apart
//! in meaning. Invariants:
//! 1. **jobs**: each job's derived data matches the workload (release, nodes, run time cut at
//!    the walltime) and Eq. (1)–(2) for its period;
//! 2. **failures**: a failure on a node that is down must have no effect; any other one puts the
//!    node down for exactly D;
//! 3. **attempts**: numbered 1, 2, … in time; none starts before the release or before the
//!    previous one ends; the first starts at position 0 without recovery; each next one starts
//!    where the previous kept (and with recovery R after a failure or a steal, none after a
//!    resumed checkpoint); durations decompose exactly (recovery + progress + proactive
//!    checkpoint); a failed attempt keeps exactly its last checkpoint (never less than its
//!    start); an interrupted one keeps a checkpoint it completed or proactively took; the last
//!    attempt completes the whole timeline at the job's completion time;
//! 4. **nodes**: every attempt has exactly the job's node count, ids < N; no node runs two
//!    attempts (or holds) at once; no attempt or hold uses a down node; a failed attempt ends
//!    exactly when a failure strikes one of its nodes;
//! 5. **time**: the decomposition of platform time (useful, checkpoint, recovery, lost,
//!    stealing, down, idle), recomputed here with idle measured directly as up-and-unused node
//!    time, sums exactly to N × window.
//!
//! One file per invariant: `jobs` (1), `failures` (2), `attempts` (3), `nodes` (4),
//! `decomposition` (5); [`check`] runs them in that order.
use super::metrics::Decomposition;
use super::model::{Resilience, Workload};
use super::sim::Run;
use crate::time::Time;
use std::fmt;

mod attempts;
mod decomposition;
mod failures;
mod jobs;
mod nodes;

/// The first broken invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which invariant (`jobs`, `failures`, `attempts`, `nodes`, `time`).
    pub rule: &'static str,
    pub msg: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.rule, self.msg)
    }
}

impl std::error::Error for Violation {}

fn v(rule: &'static str, msg: String) -> Violation {
    Violation { rule, msg }
}

/// `[a, b)` clipped to the window `w`, if not empty.
fn clip(a: &Time, b: &Time, w: &(Time, Time)) -> Option<(Time, Time)> {
    let lo = if *a > w.0 { a.clone() } else { w.0.clone() };
    let hi = if *b < w.1 { b.clone() } else { w.1.clone() };
    (lo < hi).then_some((lo, hi))
}

/// Length of `[a, b)` inside the window `w`.
fn clip_len(a: &Time, b: &Time, w: &(Time, Time)) -> Time {
    // default: an interval outside the window has length 0 in it
    clip(a, b, w).map(|(lo, hi)| &hi - &lo).unwrap_or_default()
}

/// Checks `run` against the workload it was made from; returns the decomposition over `window`
/// (default [first submission, last completion), the default of the metrics).
pub fn check(
    w: &Workload,
    res: &Resilience,
    run: &Run,
    window: Option<(Time, Time)>,
) -> Result<Decomposition, Violation> {
    if run.nodes != w.nodes
        || run.jobs.len() != w.jobs.len()
        || run.completion.len() != w.jobs.len()
    {
        return Err(v("jobs", "the run does not describe this workload".into()));
    }
    let grids = jobs::grids(w, res, run)?;
    let downs = failures::downtimes(w.nodes, res, run)?;
    attempts::check_all(w, res, run, &grids, &downs)?;
    // default: the window is [first submission, end of run) unless --window is given (documented)
    let win = window.unwrap_or_else(|| {
        let first = w.jobs.iter().map(|j| &j.release).min().cloned();
        // default: a workload with no job starts at 0
        (first.unwrap_or_default(), run.end.clone())
    });
    let idle = nodes::exclusive_and_idle(w, run, &downs, &win)?;
    decomposition::sums_to_platform_time(w.nodes, run, &grids, &downs, &win, idle)
}
