//! Checking a schedule computed in floating point: before the exact checker runs, every time
//! that is within a relative tolerance of the exact value it stands for is replaced by that
//! value ("snapped"), so that the judgement itself stays exact.
//!
//! A float implementation of a list or shelf scheduler writes `0.30000000000000004` where the
//! exact schedule has 3/10: its durations are t_j(p) rounded, and each start is the rounded end
//! of another attempt (or 0). Snapping undoes exactly that rounding:
//! - a duration within `rel_tol · t_j(p)` of t_j(p) becomes t_j(p) (otherwise it is left, and
//!   the checker reports the wrong duration);
//! - attempts are taken in order of start; a start within `rel_tol · M` (M the schedule's
//!   stated-by-its-attempts makespan) of 0 or of the exact end of an attempt already snapped
//!   becomes the nearest such value; a start near no event time is left as written.
//!
//! On a schedule that is already exact every start that is an event time is at distance 0 of
//! it, so snapping changes nothing and the tolerant check is the exact check. What is snapped
//! is reported ([`Snapped::largest_shift`]), so a user sees how far the float schedule was from
//! the exact one that was judged.
use crate::error::{Error, Result};
use crate::model::{Instance, Schedule};
use crate::time::Time;
use std::collections::BTreeSet;
use std::ops::Bound;

/// A schedule with its times snapped to the exact values they approximate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapped {
    /// The schedule to judge exactly.
    pub schedule: Schedule,
    /// How many starts and durations were changed.
    pub changed: usize,
    /// The largest absolute change of a start or a duration (0 when nothing changed).
    pub largest_shift: Time,
}

/// Checks `rel_tol` (0 ≤ rel_tol < 1; named `rel_tol` in the error).
pub fn validate_rel_tol(rel_tol: &Time) -> Result<()> {
    if rel_tol.is_negative() || *rel_tol >= Time::from_int(1) {
        return Err(Error::param(
            "rel_tol",
            format!("{rel_tol} must be ≥ 0 and < 1"),
        ));
    }
    Ok(())
}

/// Snaps the durations and starts of `schedule` (see the module doc). Attempts keep their
/// order in the file.
pub fn snap(inst: &Instance, schedule: &Schedule, rel_tol: &Time) -> Result<Snapped> {
    validate_rel_tol(rel_tol)?;
    let mut out = schedule.clone();
    out.makespan = None;
    let mut changed = 0usize;
    let mut largest = Time::zero();
    let mut note = |from: &Time, to: &Time, largest: &mut Time| {
        let d = (from - to).abs();
        if !d.is_zero() {
            changed += 1;
            if d > *largest {
                *largest = d;
            }
        }
    };
    for a in &mut out.attempts {
        let exact = inst.jobs.get(a.job).and_then(|j| j.time(a.procs));
        if let Some(t) = exact {
            if (&a.duration - t).abs() <= rel_tol * t {
                note(&a.duration, t, &mut largest);
                a.duration = t.clone();
            }
        }
    }
    let tol = rel_tol * &schedule.makespan().abs();
    let mut order: Vec<usize> = (0..out.attempts.len()).collect();
    order.sort_by(|&x, &y| out.attempts[x].start.cmp(&out.attempts[y].start));
    let mut events: BTreeSet<Time> = BTreeSet::from([Time::zero()]);
    for i in order {
        let s = out.attempts[i].start.clone();
        if let Some(c) = nearest(&events, &s, &tol) {
            note(&s, &c, &mut largest);
            out.attempts[i].start = c;
        }
        events.insert(out.attempts[i].end());
    }
    Ok(Snapped {
        schedule: out,
        changed,
        largest_shift: largest,
    })
}

/// The element of `events` nearest to `s` within `tol` (the earlier one on a tie).
fn nearest(events: &BTreeSet<Time>, s: &Time, tol: &Time) -> Option<Time> {
    let below = events
        .range((Bound::Unbounded, Bound::Included(s.clone())))
        .next_back();
    let above = events
        .range((Bound::Excluded(s.clone()), Bound::Unbounded))
        .next();
    [below, above]
        .into_iter()
        .flatten()
        .map(|c| ((c - s).abs(), c))
        .filter(|(d, _)| d <= tol)
        .min_by(|x, y| x.0.cmp(&y.0))
        .map(|(_, c)| c.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::schedule::attempt;
    use crate::model::{Job, Scenario};

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_default()
    }

    /// Two rigid jobs on 2 processors of 3/10 and 1/10: the first fails once.
    fn instance() -> Instance {
        Instance {
            procs: 2,
            jobs: vec![Job::rigid("a", 2, t("3/10")), Job::rigid("b", 2, t("1/10"))],
        }
    }

    #[test]
    fn a_float_schedule_snaps_to_the_exact_one() {
        let inst = instance();
        let sc = Scenario {
            failures: vec![1, 0],
        };
        let exact = Schedule {
            attempts: vec![
                attempt(0, 1, "0", 2, "3/10"),
                attempt(0, 2, "2/5", 2, "3/10"),
                attempt(1, 1, "3/10", 2, "1/10"),
            ],
            ..Schedule::default()
        };
        // What an f64 program prints: 0.3 + 0.1 + ... rounded in binary.
        let float = Schedule {
            attempts: vec![
                attempt(0, 1, "0", 2, "0.29999999999999999"),
                attempt(0, 2, "0.4000000000000001", 2, "0.3"),
                attempt(1, 1, "0.30000000000000004", 2, "0.1"),
            ],
            ..Schedule::default()
        };
        assert!(crate::check::check(&inst, &sc, &float).is_err());
        let s = snap(&inst, &float, &t("1e-9")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.schedule, exact);
        assert_eq!(s.changed, 3);
        assert_eq!(s.largest_shift, t("0.0000000000000001"));
        assert_eq!(crate::check::check(&inst, &sc, &s.schedule), Ok(t("7/10")));
        // An exact schedule is left as it is.
        let same = snap(&inst, &exact, &t("1e-9")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((same.schedule, same.changed), (exact, 0));
    }

    #[test]
    fn what_is_beyond_the_tolerance_stays_wrong() {
        let inst = instance();
        let float = Schedule {
            attempts: vec![
                attempt(0, 1, "0", 2, "0.31"),
                attempt(1, 1, "0.2999", 2, "0.1"),
            ],
            ..Schedule::default()
        };
        let s = snap(&inst, &float, &t("1e-6")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((&s.schedule.attempts, s.changed), (&float.attempts, 0));
        assert!(snap(&inst, &float, &t("-1")).is_err());
        assert!(snap(&inst, &float, &t("1")).is_err());
    }
}
