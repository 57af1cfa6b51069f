//! The exact clocks R-LIST's processor profile runs on (rigid paper Section 4.1, Algorithm 1):
//! plain `i64` when every job time is an integer and every instant provably fits
//! ([`IntBound`]), else [`Ft`] (a [`Time`] with an integer fast path for `+`). Both are exact,
//! so both give the same schedule (the tests compare them); neither ever wraps.
//!
//! Why two: the profile's hot loops add a job's time to a start and compare instants; on
//! integer instances plain `i64` does both in one instruction, where `Time`'s `+` goes through
//! checked `Ratio<i64>` arithmetic with gcds.
use crate::time::Time;

/// A clock value of a processor profile: an exact time in a representation chosen for speed.
pub(super) trait Clock: Clone + Ord + std::fmt::Debug {
    /// `self + d`, `None` on overflow (never wraps).
    fn plus(&self, d: &Self) -> Option<Self>;
    /// Back to an exact [`Time`].
    fn to_time(&self) -> Time;
}

impl Clock for i64 {
    fn plus(&self, d: &i64) -> Option<i64> {
        self.checked_add(*d)
    }
    fn to_time(&self) -> Time {
        Time::from_int(*self)
    }
}

/// An exact [`Time`] as a profile clock: ordered by [`Time`]'s own order, added with an
/// integer fast path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Ft(pub(super) Time);

impl Clock for Ft {
    fn plus(&self, d: &Ft) -> Option<Ft> {
        // Integer fast path (the common case); `Time`'s `+` otherwise (it never wraps).
        if let (Some(a), Some(b)) = (self.0.as_small(), d.0.as_small()) {
            if a.is_integer() && b.is_integer() {
                if let Some(s) = a.numer().checked_add(*b.numer()) {
                    return Some(Ft(Time::from_int(s)));
                }
            }
        }
        Some(Ft(&self.0 + &d.0))
    }
    fn to_time(&self) -> Time {
        self.0.clone()
    }
}

/// The integer fast path's licence: every job time is an integer and `2·Σ t_j` fits in `i64`.
/// At an integer instant `now` with `now + 2·Σ t_j` in range, every instant a profile can hold
/// fits too: a profile holds the ends of running attempts and of reservations, at most one
/// attempt or reservation per job, each ending before `now + Σ t_j`, and a new reservation's end
/// is a step plus one t_j.
#[derive(Debug, Clone)]
pub(super) struct IntBound {
    pub(super) times: Vec<i64>,
    twice_sum: i64,
}

impl IntBound {
    pub(super) fn new(keys: &[(u32, Time)]) -> Option<IntBound> {
        let times: Vec<i64> = keys
            .iter()
            .map(|k| {
                k.1.as_small()
                    .filter(|r| r.is_integer())
                    .map(|r| *r.numer())
            })
            .collect::<Option<_>>()?;
        let sum = times.iter().try_fold(0i64, |s, &t| s.checked_add(t))?;
        Some(IntBound {
            times,
            twice_sum: sum.checked_mul(2)?,
        })
    }

    /// `now` as an integer if the fast path is licensed at `now`.
    pub(super) fn at(&self, now: &Time) -> Option<i64> {
        let n = now
            .as_small()
            .filter(|r| r.is_integer())
            .map(|r| *r.numer())?;
        n.checked_add(self.twice_sum).map(|_| n)
    }
}

/// The profile overflowed its clock type (impossible under [`IntBound`]; reported, never wrapped).
#[derive(Debug)]
pub(super) struct Overflow;

#[cfg(test)]
mod tests {
    use super::super::reference::t;
    use super::*;

    /// `Ft`'s order and sum are `Time`'s.
    #[test]
    fn ft_is_time() {
        let vals = [
            Time::new(7, 3).unwrap(),
            Time::new(-5, 2).unwrap(),
            t(4),
            t(i64::MAX),
            Time::new(1, i64::MAX).unwrap(),
            Time::zero(),
        ];
        for a in &vals {
            for b in &vals {
                assert_eq!(Ft(a.clone()).cmp(&Ft(b.clone())), a.cmp(b), "{a} vs {b}");
                assert_eq!(
                    Ft(a.clone()).plus(&Ft(b.clone())).unwrap().0,
                    a + b,
                    "{a} + {b}"
                );
            }
        }
    }
}
