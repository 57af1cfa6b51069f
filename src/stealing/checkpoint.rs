//! Periodic checkpointing (node-stealing paper, Section 5.2, Eq. (1)–(2)) and the victim's
//! stopping point under timing choices T2 and T3 (Section 7.2.2, Figure 15 and the T3 formulas).
//!
//! # The Young/Daly period and the one irrational rule
//! Each job checkpoints every P_YD = √(2·μ_job·C) with μ_job = μ_ind/p (Section 5.2). The square
//! root enters exact time **once**, here, by this rule: with the grid G = [`GRID`] (1/1000 of the
//! time unit, i.e. milliseconds for SWF seconds),
//!
//! > T = ⌊G·√(2·μ_ind·C/p)⌋ / G = isqrt(⌊2·μ_ind·C·G²/p⌋) / G, and T = 1/G if that is 0,
//!
//! i.e. the largest grid point not above the true period (computed exactly with integers; no
//! float is involved). C = 0 means "no checkpointing" (Section 3's toy example): no period.
//!
//! # The job's timeline
//! With work w (the trace's run time), period T and cost C, a job runs
//! `w_1 C w_2 C … w_n C` with w_i = T except the last (0 < w_n ≤ T), n = ⌈w/T⌉, so its length
//! is Eq. (1): w + ⌈w/T⌉·C; the walltime is inflated the same way, Eq. (2). A position y ∈
//! [0, len] in that timeline says how far the job got; checkpoint *completions* are at k·(T+C)
//! (1 ≤ k < n) and at len. A failure at position y rolls the job back to the last completion
//! at or before y (and never before where the attempt started). One number — the committed
//! position — is the whole state of a job between attempts: Figure 15's T'_first ("the first
//! period of the resubmitted job") is the rest of the segment that position falls in, and
//! t'_exec = t_exec − t_useful is len − position.
//!
//! # Figure 15 in positions
//! For a victim that started its attempt with recovery R_first at position s and has run t_run:
//! if t_run ≤ R_first nothing was done (case 1: wait 0). Otherwise y = s + t_run − R_first and
//! - T2 (proactive): y inside a work segment (the figure's test "≤ T", so the instant a regular
//!   checkpoint would begin counts as work): a proactive checkpoint of length C saves y (cases 2
//!   and 4); y inside a regular checkpoint: wait for its end (cases 3 and 5). *Reading*: when y
//!   is exactly a checkpoint completion nothing is left to save, so the wait is 0 (case 3's
//!   boundary t_run = t_first, which the figure's case 4 would otherwise charge a useless C);
//!   the figure's periodic formula ignores that the last period is shorter — here the last
//!   checkpoint is recognised (from its first instant) and waiting for it means the victim
//!   *completes*.
//! - T3: wait for the next checkpoint completion ⌈y/(T+C)⌉·(T+C) (capped at len: the victim then
//!   completes, the 7.2.3 "victim may complete before its next checkpoint" case).
//!
//! With C = 0 there is no checkpoint: a "proactive checkpoint" costs 0 and saves y, and T3's
//! "next checkpoint" is the victim's completion.
use crate::time::Time;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// The grid (per time unit) on which irrational values enter exact time: 1/1000.
pub const GRID: u64 = 1000;

/// The Young/Daly period of a job on `nodes` nodes, by the rule of the module doc;
/// `None` when C = 0 (no checkpointing) or μ_ind ≤ 0.
pub fn young_daly_period(mtbf_ind: &Time, nodes: u32, c: &Time) -> Option<Time> {
    if !c.is_positive() || !mtbf_ind.is_positive() || nodes == 0 {
        return None;
    }
    let g = BigInt::from(GRID);
    let x = mtbf_ind.to_big() * c.to_big() * BigRational::from_integer(BigInt::from(2) * &g * &g)
        / BigRational::from_integer(BigInt::from(nodes));
    let r = x.floor().to_integer().sqrt();
    let r = if r.is_zero() { BigInt::from(1) } else { r };
    Some(Time::from_big(BigRational::new(r, g)))
}

/// Eq. (1)/(2): `t + ⌈t/T⌉·C` (t itself without checkpointing).
pub fn inflate(t: &Time, period: Option<&Time>, c: &Time) -> Time {
    match period {
        None => t.clone(),
        Some(p) => {
            let k = ceil_div(t, p);
            t + &c.mul_int(k)
        }
    }
}

/// ⌈a/b⌉ for a ≥ 0 and a period or step b ≥ 1/[`GRID`]. The simulator keeps every time
/// ≤ 10^11 s (stealing::limits), so the quotient is ≤ 10^14 and the `None` branch (b = 0, or a
/// quotient beyond u64) is unreachable from it.
fn ceil_div(a: &Time, b: &Time) -> u64 {
    let k = a.checked_div(b).map(|q| q.ceil()).and_then(|k| k.to_u64());
    debug_assert!(k.is_some(), "⌈{a} / {b}⌉ out of range");
    // unreachable: the quotient is a small positive count (debug_assert above)
    k.unwrap_or(0)
}

/// ⌊a/b⌋, under the same conditions as [`ceil_div`].
fn floor_div(a: &Time, b: &Time) -> u64 {
    let k = a.checked_div(b).map(|q| q.floor()).and_then(|k| k.to_u64());
    debug_assert!(k.is_some(), "⌊{a} / {b}⌋ out of range");
    // unreachable: the quotient is a small positive count (debug_assert above)
    k.unwrap_or(0)
}

/// The checkpointed timeline of one job (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    /// Checkpoint period T (`None`: no checkpointing).
    pub period: Option<Time>,
    /// Checkpoint cost C.
    pub c: Time,
    /// Work w (the trace's run time).
    pub work: Time,
    /// Eq. (1): w + ⌈w/T⌉·C.
    pub len: Time,
    /// Number of checkpoints n = ⌈w/T⌉ (0 without checkpointing).
    pub n: u64,
}

/// How a victim stops under T2/T3 (Figure 15; "t_checkpoint" is `wait`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StopPlan {
    /// Time from the failure until the victim can give its node (t_checkpoint).
    pub wait: Time,
    /// Timeline position the victim reaches (its computation and regular checkpoints).
    pub reached: Time,
    /// Position it keeps (restart point of its resubmission; t_useful = commit − s).
    pub commit: Time,
    /// Length of the proactive checkpoint taken at the end (C or 0); not in the timeline.
    pub extra: Time,
    /// True when waiting means the victim completes (reached = len).
    pub completes: bool,
}

impl Timeline {
    /// The timeline of work `w` with period `period` and cost `c` (Eq. (1)).
    pub fn new(work: Time, period: Option<Time>, c: Time) -> Timeline {
        let (period, c) = if c.is_positive() {
            (period, c)
        } else {
            (None, Time::zero())
        };
        // default: no checkpoint period (C = 0), no checkpoint
        let n = period.as_ref().map(|p| ceil_div(&work, p)).unwrap_or(0);
        let len = inflate(&work, period.as_ref(), &c);
        Timeline {
            period,
            c,
            work,
            len,
            n,
        }
    }

    fn step(&self) -> Option<Time> {
        self.period.as_ref().map(|p| p + &self.c)
    }

    /// Index of the segment containing position y (0-based, at most n−1).
    fn segment(&self, y: &Time, step: &Time) -> u64 {
        floor_div(y, step).min(self.n.saturating_sub(1))
    }

    /// The last checkpoint completion at or before y (0 if none; len if y ≥ len).
    pub fn commit_floor(&self, y: &Time) -> Time {
        if *y >= self.len {
            return self.len.clone();
        }
        match self.step() {
            None => Time::zero(),
            Some(step) => step.mul_int(self.segment(y, &step)),
        }
    }

    /// The first checkpoint completion at or after y (len if none before the end).
    pub fn next_completion(&self, y: &Time) -> Time {
        if *y >= self.len {
            return self.len.clone();
        }
        if !y.is_positive() {
            return Time::zero();
        }
        match self.step() {
            None => self.len.clone(),
            Some(step) => {
                let k = ceil_div(y, &step);
                if k >= self.n {
                    self.len.clone()
                } else {
                    step.mul_int(k)
                }
            }
        }
    }

    /// Start of the checkpoint that ends the segment containing y.
    fn ckpt_start(&self, y: &Time) -> Option<Time> {
        let step = self.step()?;
        let k = self.segment(y, &step);
        if k + 1 >= self.n {
            Some(&self.len - &self.c)
        } else {
            Some(&step.mul_int(k) + self.period.as_ref()?)
        }
    }

    /// True when y lies strictly inside a checkpoint (Figure 15: "≤ T" is work).
    pub fn in_checkpoint(&self, y: &Time) -> bool {
        if *y >= self.len {
            return false;
        }
        match self.ckpt_start(y) {
            None => false,
            Some(cs) => *y > cs,
        }
    }

    /// Total checkpoint time in the positions [0, x] (x ≤ len).
    pub fn ckpt_upto(&self, x: &Time) -> Time {
        let (Some(step), Some(cs)) = (self.step(), self.ckpt_start(x)) else {
            return Time::zero();
        };
        let k = self.segment(x, &step);
        let inside = if *x > cs { x - &cs } else { Time::zero() };
        &self.c.mul_int(k) + &inside
    }

    /// Position reached after running `t_run` of an attempt that started at `start_pos` with
    /// recovery `recovery` (the recovery makes no progress).
    pub fn reached(&self, start_pos: &Time, recovery: &Time, t_run: &Time) -> Time {
        if t_run <= recovery {
            start_pos.clone()
        } else {
            (start_pos + &(t_run - recovery)).min(self.len.clone())
        }
    }

    /// A failure after `t_run`: (position reached, position kept).
    pub fn on_failure(&self, start_pos: &Time, recovery: &Time, t_run: &Time) -> (Time, Time) {
        let y = self.reached(start_pos, recovery, t_run);
        let c = self.commit_floor(&y).max(start_pos.clone());
        (y, c)
    }

    /// Timing T2 (proactive checkpoint), Figure 15 read in positions (module doc).
    pub fn proactive_stop(&self, start_pos: &Time, recovery: &Time, t_run: &Time) -> StopPlan {
        let y = self.reached(start_pos, recovery, t_run);
        if t_run <= recovery || self.commit_floor(&y) == y {
            return StopPlan {
                wait: Time::zero(),
                commit: y.clone(),
                reached: y,
                extra: Time::zero(),
                completes: false,
            };
        }
        // Inside a regular checkpoint, or at the start of the last one (whose proactive
        // replacement would leave nothing but that checkpoint to redo): wait for its end.
        if self.in_checkpoint(&y) || (self.period.is_some() && y >= &self.len - &self.c) {
            let end = self.next_completion(&y);
            return StopPlan {
                wait: &end - &y,
                completes: end == self.len,
                commit: end.clone(),
                reached: end,
                extra: Time::zero(),
            };
        }
        StopPlan {
            wait: self.c.clone(),
            commit: y.clone(),
            reached: y,
            extra: self.c.clone(),
            completes: false,
        }
    }

    /// Timing T3 (wait for the next regular checkpoint), Section 7.2.2.
    pub fn next_checkpoint_stop(
        &self,
        start_pos: &Time,
        recovery: &Time,
        t_run: &Time,
    ) -> StopPlan {
        let y = self.reached(start_pos, recovery, t_run);
        if t_run <= recovery {
            return StopPlan {
                wait: Time::zero(),
                commit: y.clone(),
                reached: y,
                extra: Time::zero(),
                completes: false,
            };
        }
        let end = self.next_completion(&y);
        StopPlan {
            wait: &end - &y,
            completes: end == self.len,
            commit: end.clone(),
            reached: end,
            extra: Time::zero(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().unwrap()
    }

    #[test]
    fn young_daly_rule_section_6_1() {
        // Section 6.1: μ_ind = 5.61 years, p = 128, C = 5 min → P_YD ≈ 8 hours (in minutes).
        let mu = t("5.61") * Time::from_int(365 * 24 * 60);
        let p = young_daly_period(&mu, 128, &Time::from_int(5)).unwrap();
        let h = p.to_f64() / 60.0;
        assert!((h - 8.0).abs() < 0.1, "{h}");
        // The grid rule: the largest multiple of 1/1000 not above the true root.
        let g = Time::from_int(GRID as i64);
        let scaled = &p * &g;
        assert!(scaled.is_integer());
        let exact2 = &(&mu * &Time::from_int(10)) / &Time::from_int(128);
        assert!(&p * &p <= exact2);
        let next = &p + &Time::new(1, GRID as i64).unwrap();
        assert!(&next * &next > exact2);
        assert_eq!(young_daly_period(&mu, 128, &Time::zero()), None);
    }

    #[test]
    fn eq_1_and_positions() {
        // w = 10, T = 4, C = 1: 4 C 4 C 2 C → len 13, completions at 5, 10, 13.
        let tl = Timeline::new(
            Time::from_int(10),
            Some(Time::from_int(4)),
            Time::from_int(1),
        );
        assert_eq!(tl.len, Time::from_int(13));
        assert_eq!(tl.n, 3);
        assert_eq!(
            inflate(
                &Time::from_int(8),
                Some(&Time::from_int(4)),
                &Time::from_int(1)
            ),
            Time::from_int(10)
        );
        let i = Time::from_int;
        assert_eq!(tl.commit_floor(&i(4)), i(0));
        assert_eq!(tl.commit_floor(&i(5)), i(5));
        assert_eq!(tl.commit_floor(&t("12.5")), i(10));
        assert_eq!(tl.next_completion(&t("5.5")), i(10));
        assert_eq!(tl.next_completion(&i(11)), i(13));
        assert!(
            !tl.in_checkpoint(&i(4)) && tl.in_checkpoint(&t("4.5")) && !tl.in_checkpoint(&i(5))
        );
        assert!(tl.in_checkpoint(&t("12.5")) && !tl.in_checkpoint(&i(12)));
        assert_eq!(tl.ckpt_upto(&i(13)), i(3));
        assert_eq!(tl.ckpt_upto(&t("4.5")), t("0.5"));
        assert_eq!(tl.ckpt_upto(&i(7)), i(1));
        assert_eq!(tl.ckpt_upto(&t("12.5")), t("2.5"));
    }

    #[test]
    fn figure_15_cases() {
        // Victim resubmitted (R_first = 1) from position 0, T = 4, C = 1, w = 10.
        let tl = Timeline::new(
            Time::from_int(10),
            Some(Time::from_int(4)),
            Time::from_int(1),
        );
        let (s, r, i) = (Time::zero(), Time::one(), Time::from_int);
        // Case 1: inside the recovery.
        let p = tl.proactive_stop(&s, &r, &t("0.5"));
        assert_eq!((p.wait, p.commit), (i(0), i(0)));
        // Case 2: inside the first period: proactive checkpoint C, keeps t_run − R_first.
        let p = tl.proactive_stop(&s, &r, &i(3));
        assert_eq!((p.wait, p.commit.clone(), p.extra), (i(1), i(2), i(1)));
        // Case 3: inside the first checkpoint: wait t_first − t_run.
        let p = tl.proactive_stop(&s, &r, &t("5.5"));
        assert_eq!((p.wait, p.commit), (t("0.5"), i(5)));
        // Boundary t_run = t_first: the checkpoint just completed, nothing to wait for.
        let p = tl.proactive_stop(&s, &r, &i(6));
        assert_eq!((p.wait, p.commit, p.extra), (i(0), i(5), i(0)));
        // Case 4: in a regular period: T'_first = T − (t_run − t_first mod (T+C)).
        let p = tl.proactive_stop(&s, &r, &i(8));
        assert_eq!((p.wait, p.commit.clone()), (i(1), i(7)));
        // Case 5: in a regular checkpoint.
        let p = tl.proactive_stop(&s, &r, &t("10.25"));
        assert_eq!((p.wait, p.commit, p.completes), (t("0.75"), i(10), false));
        // The last checkpoint: waiting means completing.
        let p = tl.proactive_stop(&s, &r, &t("13.5"));
        assert_eq!((p.wait, p.commit, p.completes), (t("0.5"), i(13), true));
        // T3: ⌈(t_run − R)/(T+C)⌉(T+C) − (t_run − R).
        let q = tl.next_checkpoint_stop(&s, &r, &i(3));
        assert_eq!((q.wait, q.commit), (i(3), i(5)));
        let q = tl.next_checkpoint_stop(&s, &r, &i(12));
        assert_eq!((q.wait, q.commit, q.completes), (i(2), i(13), true));
        // Failure rolls back to the last completion.
        assert_eq!(tl.on_failure(&s, &r, &i(9)), (i(8), i(5)));
        // From a mid-segment position (after a T2 resubmission) never below the start.
        assert_eq!(tl.on_failure(&i(7), &r, &i(2)), (i(8), i(7)));
    }
}
