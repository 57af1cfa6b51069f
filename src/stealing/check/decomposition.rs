//! Invariant 5 of the checker: the decomposition of platform time of the node-stealing paper
//! (Section 5.3.2, Figure 3) — useful, checkpoint, recovery, lost, stealing, down, and the idle
//! time measured by [`super::nodes`] — recomputed from the records, sums exactly to N × window.
use super::failures::Downs;
use super::jobs::Grid;
use super::{clip, clip_len, v, Decomposition, Violation};
use crate::stealing::sim::{AttemptRecord, Cause, Outcome, Run};
use crate::time::Time;

/// Adds one attempt's node time to `tot`.
fn add_attempt(tot: &mut Decomposition, a: &AttemptRecord, g: &Grid, win: &(Time, Time)) {
    let p = u64::from(a.nodes.len());
    let s1 = &a.start + &a.recovery_done;
    let rec = clip_len(&a.start, &s1, win).mul_int(p);
    if a.cause == Cause::AfterSteal {
        tot.stealing = &tot.stealing + &rec;
    } else {
        tot.recovery = &tot.recovery + &rec;
    }
    let s2 = &s1 + &(&a.commit - &a.pos_start);
    if let Some((lo, hi)) = clip(&s1, &s2, win) {
        let pa = &a.pos_start + &(&lo - &s1);
        let pb = &a.pos_start + &(&hi - &s1);
        let ck = &g.ckpt(&pb) - &g.ckpt(&pa);
        tot.useful = &tot.useful + &(&(&pb - &pa) - &ck).mul_int(p);
        tot.checkpoint = &tot.checkpoint + &ck.mul_int(p);
    }
    let s3 = &s2 + &(&a.reached - &a.commit);
    let wasted = clip_len(&s2, &s3, win).mul_int(p);
    if matches!(a.outcome, Outcome::Failed { .. }) {
        tot.lost = &tot.lost + &wasted;
    } else {
        tot.stealing = &tot.stealing + &wasted;
    }
    tot.stealing = &tot.stealing + &clip_len(&s3, &a.end, win).mul_int(p);
}

/// The decomposition over `win` on `n` nodes, checked to sum to the platform time.
pub(super) fn sums_to_platform_time(
    n: u32,
    run: &Run,
    grids: &[Grid],
    downs: &Downs,
    win: &(Time, Time),
    idle: Time,
) -> Result<Decomposition, Violation> {
    let mut tot = Decomposition {
        idle,
        ..Decomposition::default()
    };
    for a in &run.attempts {
        add_attempt(&mut tot, a, &grids[a.job], win);
    }
    for h in &run.holds {
        tot.stealing =
            &tot.stealing + &clip_len(&h.start, &h.end, win).mul_int(u64::from(h.nodes.len()));
    }
    for dn in &downs.list {
        tot.down = &tot.down + &clip_len(&dn.0, &dn.1, win);
    }
    tot.total = if win.1 > win.0 {
        (&win.1 - &win.0).mul_int(u64::from(n))
    } else {
        Time::zero()
    };
    let sum = [
        &tot.useful,
        &tot.checkpoint,
        &tot.recovery,
        &tot.lost,
        &tot.stealing,
        &tot.down,
        &tot.idle,
    ]
    .iter()
    .fold(Time::zero(), |acc, t| &acc + *t);
    if sum != tot.total {
        return Err(v(
            "time",
            format!(
                "the decomposition sums to {sum}, the platform time is {}",
                tot.total
            ),
        ));
    }
    Ok(tot)
}
