//! The two ways a plan holds an instant: exact rationals ([`Time`]), and integer *ticks* of a
//! common denominator ([`Tick`] at a [`Scale`]), which are the same numbers stored as the
//! integers `t·D`. Ticks make a comparison one integer comparison and a sum one integer
//! addition, where a rational comparison is two 128-bit products and a sum may take gcds; every
//! instant of a node-stealing run lies on a small common grid (the trace's seconds, the
//! 1/1000 grid of drawn failures and periods, and whatever denominators the input adds), so
//! the plan runs on ticks and turns to rationals only when an instant does not fit
//! ([`super::Profile`]).
//!
//! # Why tick arithmetic never overflows
//! A tick is accepted only if `|t·D| ≤ LIMIT = 2^61` ([`Scale::tick`]); the plan stores only
//! accepted ticks (the end of a reservation, a sum, is checked before it is stored). Inside
//! the plan every operation is one sum or difference of two stored or accepted ticks, at most
//! `2^62` in magnitude, which an `i64` holds; no such result is stored or summed again.
use crate::time::Time;
use std::fmt::Debug;

/// What the step function needs of an instant: an order, and sums and differences.
pub(super) trait Instant: Clone + Ord + Debug {
    fn zero() -> Self;
    /// `self + d`.
    fn plus(&self, d: &Self) -> Self;
    /// `self − o`.
    fn minus(&self, o: &Self) -> Self;
}

impl Instant for Time {
    fn zero() -> Time {
        Time::zero()
    }
    fn plus(&self, d: &Time) -> Time {
        self + d
    }
    fn minus(&self, o: &Time) -> Time {
        self - o
    }
}

/// The largest magnitude of a tick the plan accepts (see the module doc).
pub(super) const LIMIT: i64 = 1 << 61;

/// Whether a tick may be stored (its magnitude is at most [`LIMIT`]).
pub(super) fn fits(k: Tick) -> bool {
    k.0.unsigned_abs() <= LIMIT.unsigned_abs()
}

/// An instant as an integer count of `1/D` (the [`Scale`] of its plan).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Tick(i64);

impl Tick {
    /// The integer itself (for sums kept beside the plan, such as [`super::Queue`]'s).
    pub(super) fn raw(self) -> i64 {
        self.0
    }
}

impl Instant for Tick {
    fn zero() -> Tick {
        Tick(0)
    }
    // Both operands are stored or accepted ticks, at most 2^61 in magnitude (module doc), so
    // the result is at most 2^62 and nothing saturates.
    fn plus(&self, d: &Tick) -> Tick {
        debug_assert!(self.0.checked_add(d.0).is_some());
        Tick(self.0.saturating_add(d.0))
    }
    fn minus(&self, o: &Tick) -> Tick {
        debug_assert!(self.0.checked_sub(o.0).is_some());
        Tick(self.0.saturating_sub(o.0))
    }
}

/// The common denominator `D ≥ 1` of a plan's ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Scale(i64);

impl Scale {
    /// `D = d`, if `d ≥ 1`.
    pub(super) fn new(d: i64) -> Option<Scale> {
        (d >= 1).then_some(Scale(d))
    }

    /// `t·D`, if it is an integer of magnitude at most [`LIMIT`].
    #[inline]
    pub(super) fn tick(self, t: &Time) -> Option<Tick> {
        let r = t.as_small()?;
        let (n, d) = (*r.numer(), *r.denom());
        // Whole seconds and instants on the scale itself, most of a run's, need no division.
        let factor = if d == 1 {
            self.0
        } else if d == self.0 {
            1
        } else if self.0 % d == 0 {
            self.0 / d
        } else {
            return None;
        };
        n.checked_mul(factor)
            .filter(|x| x.unsigned_abs() <= LIMIT.unsigned_abs())
            .map(Tick)
    }

    /// A tick back as the exact time `k / D`.
    pub(super) fn time(self, k: Tick) -> Time {
        // Most instants are whole seconds (a trace's submissions and walltimes): no gcd then.
        if k.0 % self.0 == 0 {
            return Time::from_int(k.0 / self.0);
        }
        let t = Time::from_scaled(i128::from(k.0), self.0.unsigned_abs());
        debug_assert!(t.is_some());
        // unreachable: D ≥ 1 (Scale::new)
        t.unwrap_or_default()
    }

    /// The smallest scale that holds both this one's ticks and `t`'s denominator (their lcm),
    /// and the factor the ticks are multiplied by; `None` when `t` is not a small rational or
    /// the lcm does not fit.
    pub(super) fn with(self, t: &Time) -> Option<(Scale, i64)> {
        let d = *t.as_small()?.denom();
        let factor = d / gcd(self.0, d);
        Some((Scale(self.0.checked_mul(factor)?), factor))
    }

    /// This scale's tick `k` at a scale `factor` times finer, if it stays within [`LIMIT`].
    pub(super) fn refine(k: Tick, factor: i64) -> Option<Tick> {
        k.0.checked_mul(factor)
            .filter(|x| x.unsigned_abs() <= LIMIT.unsigned_abs())
            .map(Tick)
    }
}

/// Ticks of one scale back to exact times, for the many starts a pass gives: most of them
/// repeat (jobs are placed where others end, job arrays side by side), and the conversion
/// of one off the whole seconds costs a gcd, so the last few are kept in a small table.
pub(super) struct Times {
    sc: Scale,
    memo: [Option<(Tick, Time)>; MEMO],
}

/// Entries of [`Times`]' table, direct-mapped by tick.
const MEMO: usize = 64;

impl Times {
    pub(super) fn new(sc: Scale) -> Times {
        Times {
            sc,
            memo: std::array::from_fn(|_| None),
        }
    }

    /// [`Scale::time`] of `k`.
    pub(super) fn time(&mut self, k: Tick) -> Time {
        // Fibonacci hashing: ticks a multiple of the scale apart spread over the table.
        let i = (k.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO.ilog2());
        let e = &mut self.memo[i as usize];
        match e {
            Some((kk, t)) if *kk == k => t.clone(),
            _ => {
                let t = self.sc.time(k);
                *e = Some((k, t.clone()));
                t
            }
        }
    }
}

/// gcd of two positive integers.
fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of [`Times`] gives what [`Scale::time`] gives, on ticks that repeat, that
    /// share a slot of the table, and of either sign (fixed-seed xorshift).
    #[test]
    fn times_kept_in_the_table_are_the_ticks_exact_times() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for d in [1, 7, 1000, 86_400_000] {
            let sc = Scale::new(d).unwrap();
            let mut times = Times::new(sc);
            let (mut hits, mut seen) = (0, std::collections::HashSet::new());
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // A few hundred ticks, far more than the table holds, each asked often.
                let k = Tick((x % 400) as i64 * 37 - 5000);
                hits += u32::from(!seen.insert(k));
                assert_eq!(times.time(k), sc.time(k), "tick {} at {d}", k.0);
            }
            assert!(hits > 19_000, "{hits} repeated ticks at {d}");
        }
    }

    #[test]
    fn ticks_are_the_exact_times_on_the_grid_and_nothing_else() {
        let ms = Scale::new(1000).unwrap();
        let t = Time::new(1517, 1000).unwrap();
        let k = ms.tick(&t).unwrap();
        assert_eq!(k.0, 1517);
        assert_eq!(ms.time(k), t);
        assert_eq!(ms.tick(&Time::new(-5, 2).unwrap()).unwrap().0, -2500);
        // Back to time, whole or not, of either sign.
        for (k, n, d) in [
            (-2500, -5, 2),
            (-3000, -3, 1),
            (0, 0, 1),
            (2000, 2, 1),
            (7, 7, 1000),
        ] {
            assert_eq!(ms.time(Tick(k)), Time::new(n, d).unwrap(), "tick {k}");
        }
        // Back to time on other scales, against the reduced fraction, ticks of either sign
        // up to the limit (fixed-seed xorshift).
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for d in [1, 2, 7, 1000, 3000, 86_400_000, 1 << 40] {
            let sc = Scale::new(d).unwrap();
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let k = (x % (2 * LIMIT as u64 + 1)) as i64 - LIMIT;
                let k = if x % 3 == 0 { k % (4 * d) } else { k };
                assert_eq!(
                    sc.time(Tick(k)),
                    Time::new(k, d).unwrap(),
                    "tick {k} at {d}"
                );
            }
        }
        // Off the grid, or beyond the limit: refused, never rounded.
        assert_eq!(ms.tick(&Time::new(1, 3).unwrap()), None);
        assert_eq!(ms.tick(&Time::from_int(LIMIT / 1000 + 1)), None);
        assert!(ms.tick(&Time::from_int(LIMIT / 1000)).is_some());
        // The lcm holds both, and the old ticks are refined by its factor.
        let (s3, f) = ms.with(&Time::new(1, 3).unwrap()).unwrap();
        assert_eq!((s3, f), (Scale(3000), 3));
        assert_eq!(s3.tick(&Time::new(1, 3).unwrap()).unwrap().0, 1000);
        assert_eq!(Scale::refine(k, f).unwrap().0, 4551);
        assert_eq!(Scale::refine(Tick(LIMIT), 2), None);
        assert_eq!(ms.with(&Time::new(7, 250).unwrap()), Some((ms, 1)));
        assert_eq!(
            Scale(1 << 40).with(&Time::new(1, (1 << 40) - 1).unwrap()),
            None
        );
    }
}
