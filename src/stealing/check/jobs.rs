//! Invariant 1 of the checker: each job's derived data matches the workload (release, nodes,
//! run time cut at the walltime) and Eq. (1)–(2) of the node-stealing paper (Section 5.2) for
//! its checkpoint period; the checker's own view of the checkpoint grid comes out of it.
use super::{v, Violation};
use crate::stealing::model::{BatchJob, Resilience, Workload};
use crate::stealing::sim::{JobInfo, Run};
use crate::time::Time;
use num_traits::ToPrimitive;

/// The checker's own view of a job's checkpoint grid.
pub(super) struct Grid {
    /// Period plus checkpoint (`None` without checkpointing).
    step: Option<Time>,
    period: Time,
    pub(super) c: Time,
    /// Eq. (1): the length of the job's timeline.
    pub(super) len: Time,
    /// Number of checkpoints.
    n: u64,
}

impl Grid {
    /// The segment of position y ∈ [0, len]. `grid` checked that ⌈len/step⌉ ≤ n fits in u64,
    /// and callers pass positions already checked to lie in [0, len], so the quotient fits.
    fn idx(&self, y: &Time) -> u64 {
        match &self.step {
            None => 0,
            Some(s) => {
                let k = y.checked_div(s).and_then(|q| q.floor().to_u64());
                debug_assert!(k.is_some(), "position {y} outside the grid");
                // unreachable: positions are inside the grid (debug_assert above)
                k.unwrap_or(0).min(self.n.saturating_sub(1))
            }
        }
    }

    /// Last completion ≤ y.
    pub(super) fn last(&self, y: &Time) -> Time {
        if *y >= self.len {
            return self.len.clone();
        }
        match &self.step {
            None => Time::zero(),
            Some(s) => s.mul_int(self.idx(y)),
        }
    }

    pub(super) fn is_completion(&self, y: &Time) -> bool {
        *y == self.len || (self.step.is_some() && self.last(y) == *y)
    }

    /// Checkpoint time in positions [0, x].
    pub(super) fn ckpt(&self, x: &Time) -> Time {
        let Some(s) = &self.step else {
            return Time::zero();
        };
        let k = self.idx(x);
        let start = if k + 1 >= self.n {
            &self.len - &self.c
        } else {
            &s.mul_int(k) + &self.period
        };
        let inside = if *x > start { x - &start } else { Time::zero() };
        &self.c.mul_int(k) + &inside
    }
}

/// Checks every job against the workload and returns its grid.
pub(super) fn grids(w: &Workload, res: &Resilience, run: &Run) -> Result<Vec<Grid>, Violation> {
    w.jobs
        .iter()
        .zip(&run.jobs)
        .enumerate()
        .map(|(i, (j, info))| grid(i, j, info, res))
        .collect()
}

/// Job `i`: matches the workload, and its lengths are Eq. (1)–(2).
fn grid(i: usize, j: &BatchJob, info: &JobInfo, res: &Resilience) -> Result<Grid, Violation> {
    let work = if j.run > j.walltime {
        j.walltime.clone()
    } else {
        j.run.clone()
    };
    if info.release != j.release || info.nodes != j.nodes || info.timeline.work != work {
        return Err(v(
            "jobs",
            format!("job {i} ({}) does not match the workload", j.name),
        ));
    }
    let (period, c) = match &info.timeline.period {
        Some(t) if res.checkpoint.is_positive() && t.is_positive() => {
            (t.clone(), res.checkpoint.clone())
        }
        None if !res.checkpoint.is_positive() => (Time::zero(), Time::zero()),
        _ => {
            return Err(v(
                "jobs",
                format!(
                    "job {i}: checkpoint period inconsistent with C = {}",
                    res.checkpoint
                ),
            ))
        }
    };
    let ceil = |x: &Time| {
        x.checked_div(&period)
            .and_then(|q| q.ceil().to_u64())
            .ok_or_else(|| {
                v(
                    "jobs",
                    format!("job {i}: {x} / {period} checkpoints do not fit in 64 bits"),
                )
            })
    };
    let (k, kw) = if period.is_positive() {
        (ceil(&work)?, ceil(&j.walltime)?)
    } else {
        (0, 0)
    };
    let len = &work + &c.mul_int(k);
    let wall = &j.walltime + &c.mul_int(kw);
    if info.timeline.len != len || info.wall_len != wall {
        return Err(v(
            "jobs",
            format!(
                "job {i}: Eq. (1)-(2) give {len} and {wall}, run says {} and {}",
                info.timeline.len, info.wall_len
            ),
        ));
    }
    let step = period.is_positive().then(|| &period + &c);
    Ok(Grid {
        step,
        period,
        c,
        len,
        n: k,
    })
}
