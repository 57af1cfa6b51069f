//! The exact time type: a rational number that never wraps, never panics on overflow and never
//! rounds.
//!
//! Every time, duration, area and ratio of resched is a [`Time`]. The common case — values whose
//! numerator and denominator fit in an `i64` — is kept in a small `Ratio<i64>` and computed with
//! checked arithmetic; when a checked operation overflows, the operation is redone on big integers
//! and the result is kept as a `BigRational`. Results are always *normalised*: a value that fits in
//! the small form is stored in the small form. So two equal values always have the same
//! representation, which makes the derived `Eq` and `Hash` exact.
//!
//! Inputs are read exactly: integers, `a/b`, and decimals (`1518.62619684`, `-0.25`, `1e-7`,
//! `2.5E3`) all become the rational they denote. `f64` inputs (JSON numbers) go through their
//! shortest round-trip decimal form, so `0.1` is read as `1/10`, as a user who typed it meant.
//!
//! Irrational quantities (√, p^δ, e^x) never become a `Time` implicitly: the modules that need them
//! enclose them with [`Time::sqrt_enclosure`] or their own documented rule.
use std::cmp::Ordering;
use std::fmt;
use std::hash::Hash;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::{BigRational, Ratio};
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub, One, Signed, ToPrimitive, Zero};

/// An exact rational time (also used for areas and ratios).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Time(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// Numerator and denominator fit in `i64` (denominator > 0, reduced).
    Small(Ratio<i64>),
    /// Anything else; never holds a value that fits in `Small`.
    Big(Box<BigRational>),
}

/// Why a string is not an exact time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseTimeError {
    #[error("empty string is not a number")]
    Empty,
    #[error("`{0}` is not a number (expected an integer, a/b, or a decimal such as 12.5 or 1e-7)")]
    Syntax(String),
    #[error("`{0}` has a zero denominator")]
    ZeroDenominator(String),
    #[error("`{0}` has an exponent too large to represent")]
    Exponent(String),
}

impl Time {
    /// Zero.
    pub fn zero() -> Time {
        Time(Repr::Small(Ratio::from_integer(0)))
    }

    /// One.
    pub fn one() -> Time {
        Time(Repr::Small(Ratio::from_integer(1)))
    }

    /// The integer `n`.
    pub fn from_int(n: i64) -> Time {
        Time(Repr::Small(Ratio::from_integer(n)))
    }

    /// `num / den`, reduced. Returns `None` when `den == 0`.
    pub fn new(num: i64, den: i64) -> Option<Time> {
        if den == 0 {
            return None;
        }
        // Ratio::new reduces; its gcd on i64::MIN may overflow, so go through big integers.
        Some(Time::from_big(BigRational::new(
            BigInt::from(num),
            BigInt::from(den),
        )))
    }

    /// `n / d` for unsigned counts (e.g. a processor count in a denominator). `None` when `d == 0`.
    pub fn ratio_u64(n: u64, d: u64) -> Option<Time> {
        if d == 0 {
            return None;
        }
        Some(Time::from_big(BigRational::new(
            BigInt::from(n),
            BigInt::from(d),
        )))
    }

    /// From a big rational, normalised.
    pub fn from_big(r: BigRational) -> Time {
        match (r.numer().to_i64(), r.denom().to_i64()) {
            (Some(n), Some(d)) => Time(Repr::Small(Ratio::new_raw(n, d))),
            _ => Time(Repr::Big(Box::new(r))),
        }
    }

    /// The exact value as a big rational.
    pub fn to_big(&self) -> BigRational {
        match &self.0 {
            Repr::Small(r) => {
                BigRational::new_raw(BigInt::from(*r.numer()), BigInt::from(*r.denom()))
            }
            Repr::Big(b) => (**b).clone(),
        }
    }

    /// The value as a small ratio if it fits.
    pub fn as_small(&self) -> Option<Ratio<i64>> {
        match &self.0 {
            Repr::Small(r) => Some(*r),
            Repr::Big(_) => None,
        }
    }

    /// True when the value is held in the fast representation.
    pub fn is_small(&self) -> bool {
        matches!(self.0, Repr::Small(_))
    }

    /// Numerator (of the reduced form).
    pub fn numer(&self) -> BigInt {
        match &self.0 {
            Repr::Small(r) => BigInt::from(*r.numer()),
            Repr::Big(b) => b.numer().clone(),
        }
    }

    /// Denominator (of the reduced form, positive).
    pub fn denom(&self) -> BigInt {
        match &self.0 {
            Repr::Small(r) => BigInt::from(*r.denom()),
            Repr::Big(b) => b.denom().clone(),
        }
    }

    /// True for 0.
    pub fn is_zero(&self) -> bool {
        match &self.0 {
            Repr::Small(r) => r.is_zero(),
            Repr::Big(_) => false,
        }
    }

    /// True for values > 0.
    pub fn is_positive(&self) -> bool {
        match &self.0 {
            Repr::Small(r) => r.is_positive(),
            Repr::Big(b) => b.is_positive(),
        }
    }

    /// True for values < 0.
    pub fn is_negative(&self) -> bool {
        match &self.0 {
            Repr::Small(r) => r.is_negative(),
            Repr::Big(b) => b.is_negative(),
        }
    }

    /// True when the value is an integer.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Small(r) => r.is_integer(),
            Repr::Big(b) => b.is_integer(),
        }
    }

    /// Nearest `f64` (for display and plots only; never fed back into exact computations).
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Small(r) => {
                // Exact for |numer|, denom < 2^53; otherwise go through the big path for accuracy.
                let (n, d) = (*r.numer(), *r.denom());
                if n.unsigned_abs() < (1 << 53) && d < (1 << 53) {
                    n as f64 / d as f64
                } else {
                    big_to_f64(&self.to_big())
                }
            }
            Repr::Big(b) => big_to_f64(b),
        }
    }

    /// The largest integer ≤ self.
    pub fn floor(&self) -> BigInt {
        match &self.0 {
            Repr::Small(r) => BigInt::from(*r.numer()).div_floor(&BigInt::from(*r.denom())),
            Repr::Big(b) => b.numer().div_floor(b.denom()),
        }
    }

    /// The smallest integer ≥ self.
    pub fn ceil(&self) -> BigInt {
        match &self.0 {
            Repr::Small(r) => BigInt::from(*r.numer()).div_ceil(&BigInt::from(*r.denom())),
            Repr::Big(b) => b.numer().div_ceil(b.denom()),
        }
    }

    /// Absolute value.
    pub fn abs(&self) -> Time {
        if self.is_negative() {
            -self
        } else {
            self.clone()
        }
    }

    /// `1 / self`, or `None` for zero.
    pub fn recip(&self) -> Option<Time> {
        if self.is_zero() {
            return None;
        }
        match &self.0 {
            Repr::Small(r) if *r.numer() != i64::MIN => Some(Time(Repr::Small(r.recip()))),
            _ => Some(Time::from_big(self.to_big().recip())),
        }
    }

    /// Exact division; `None` when dividing by zero.
    pub fn checked_div(&self, rhs: &Time) -> Option<Time> {
        if rhs.is_zero() {
            return None;
        }
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &rhs.0) {
            if let Some(q) = a.checked_div(b) {
                return Some(Time(Repr::Small(q)));
            }
        }
        Some(Time::from_big(self.to_big() / rhs.to_big()))
    }

    /// `self * k` for a count (processors, attempts).
    pub fn mul_int(&self, k: u64) -> Time {
        if let (Repr::Small(a), Ok(k)) = (&self.0, i64::try_from(k)) {
            if let Some(n) = i64::checked_mul(*a.numer(), k) {
                return Time::from_small_unreduced(n, *a.denom());
            }
        }
        Time::from_big(self.to_big() * BigInt::from(k))
    }

    /// `self / k` for a positive count; `None` for `k == 0`.
    pub fn div_int(&self, k: u64) -> Option<Time> {
        if k == 0 {
            return None;
        }
        if let (Repr::Small(a), Ok(k)) = (&self.0, i64::try_from(k)) {
            if let Some(d) = i64::checked_mul(*a.denom(), k) {
                return Some(Time::from_small_unreduced(*a.numer(), d));
            }
        }
        Some(Time::from_big(self.to_big() / BigInt::from(k)))
    }

    fn from_small_unreduced(n: i64, d: i64) -> Time {
        // d > 0 here; gcd of (n, d) with d > 0 cannot overflow except for n = i64::MIN, d = 1...
        let g = n.gcd(&d);
        if g == 0 {
            return Time::zero();
        }
        match (n.checked_div(g), d.checked_div(g)) {
            (Some(n), Some(d)) if d > 0 => Time(Repr::Small(Ratio::new_raw(n, d))),
            _ => Time::from_big(BigRational::new(BigInt::from(n), BigInt::from(d))),
        }
    }

    /// The smaller of two times.
    pub fn min(self, other: Time) -> Time {
        if other < self {
            other
        } else {
            self
        }
    }

    /// The larger of two times.
    pub fn max(self, other: Time) -> Time {
        if other > self {
            other
        } else {
            self
        }
    }

    /// A certified rational enclosure `lo ≤ √x ≤ hi` with `hi − lo ≤ 1/2^bits` (for x ≥ 0).
    ///
    /// Used wherever a paper's bound or period involves a square root: the bound is then compared
    /// through `hi` (an upper bound) or `lo`, never through a rounded float.
    pub fn sqrt_enclosure(&self, bits: u32) -> Option<(Time, Time)> {
        if self.is_negative() {
            return None;
        }
        // √(n/d) = √(n·d·4^bits) / (d·2^bits); integer square roots bracket it.
        let scale = BigInt::one() << bits;
        let n = self.numer();
        let d = self.denom();
        let radicand = &n * &d * &scale * &scale;
        let lo_int = radicand.sqrt();
        let hi_int = if &lo_int * &lo_int == radicand {
            lo_int.clone()
        } else {
            &lo_int + 1
        };
        let den = &d * &scale;
        Some((
            Time::from_big(BigRational::new(lo_int, den.clone())),
            Time::from_big(BigRational::new(hi_int, den)),
        ))
    }

    /// Rounds to the nearest multiple of `1/den` (ties away from zero): the documented rule used
    /// when an irrational or floating value must enter exact time at the edge of the program.
    pub fn from_f64_grid(x: f64, den: u64) -> Option<Time> {
        if !x.is_finite() || den == 0 {
            return None;
        }
        let scaled = (x * den as f64).round();
        let exact = Time::from_f64_exact(scaled)?;
        exact.div_int(den)
    }

    /// The exact binary value of a finite `f64` (not its decimal rendering).
    pub fn from_f64_exact(x: f64) -> Option<Time> {
        BigRational::from_float(x).map(Time::from_big)
    }

    /// The value of an `f64` read through its shortest round-trip decimal representation
    /// (`0.1` → `1/10`): what a user who typed the number meant.
    pub fn from_f64_decimal(x: f64) -> Option<Time> {
        if !x.is_finite() {
            return None;
        }
        format!("{x:e}").parse().ok()
    }

    /// Renders with `digits` decimals (rounded half away from zero), for human-readable output.
    pub fn to_decimal_string(&self, digits: u32) -> String {
        let scale = BigInt::from(10u32).pow(digits);
        let v = self.to_big() * BigRational::from_integer(scale.clone());
        let r = v.round().to_integer();
        let neg = r.is_negative();
        let a = r.abs();
        let int = &a / &scale;
        let frac = &a % &scale;
        let sign = if neg { "-" } else { "" };
        if digits == 0 {
            format!("{sign}{int}")
        } else {
            format!(
                "{sign}{int}.{:0>width$}",
                frac.to_string(),
                width = digits as usize
            )
        }
    }
}

fn big_to_f64(b: &BigRational) -> f64 {
    // Scale so the quotient keeps 64 significant bits, then divide once.
    let n = b.numer();
    let d = b.denom();
    let shift = n.bits() as i64 - d.bits() as i64 - 64;
    let q = if shift > 0 {
        n / (d << (shift as u64))
    } else {
        (n << ((-shift) as u64)) / d
    };
    q.to_f64().unwrap_or(f64::NAN) * 2f64.powi(shift as i32)
}

impl Default for Time {
    fn default() -> Self {
        Time::zero()
    }
}

impl From<i64> for Time {
    fn from(n: i64) -> Self {
        Time::from_int(n)
    }
}

impl From<u32> for Time {
    fn from(n: u32) -> Self {
        Time::from_int(i64::from(n))
    }
}

impl From<BigRational> for Time {
    fn from(r: BigRational) -> Self {
        Time::from_big(r)
    }
}

impl PartialOrd for Time {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Time {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            // num-rational compares without overflow (continued-fraction style).
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

macro_rules! binop {
    ($trait:ident, $method:ident, $checked:ident, $bigop:tt) => {
        impl $trait<&Time> for &Time {
            type Output = Time;
            fn $method(self, rhs: &Time) -> Time {
                if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &rhs.0) {
                    if let Some(r) = a.$checked(b) {
                        return Time(Repr::Small(r));
                    }
                }
                Time::from_big(self.to_big() $bigop rhs.to_big())
            }
        }
        impl $trait<Time> for Time {
            type Output = Time;
            fn $method(self, rhs: Time) -> Time {
                (&self).$method(&rhs)
            }
        }
        impl $trait<&Time> for Time {
            type Output = Time;
            fn $method(self, rhs: &Time) -> Time {
                (&self).$method(rhs)
            }
        }
        impl $trait<Time> for &Time {
            type Output = Time;
            fn $method(self, rhs: Time) -> Time {
                self.$method(&rhs)
            }
        }
    };
}

binop!(Add, add, checked_add, +);
binop!(Sub, sub, checked_sub, -);
binop!(Mul, mul, checked_mul, *);

/// Division by a non-zero time. Dividing by zero is a bug in the caller (every divisor in resched
/// is a validated positive quantity), so it is an assertion; use [`Time::checked_div`] on
/// anything that comes from a user.
impl Div<&Time> for &Time {
    type Output = Time;
    fn div(self, rhs: &Time) -> Time {
        match self.checked_div(rhs) {
            Some(q) => q,
            None => panic!("resched internal error: exact division by zero"),
        }
    }
}

impl Div<Time> for Time {
    type Output = Time;
    fn div(self, rhs: Time) -> Time {
        &self / &rhs
    }
}

impl Div<&Time> for Time {
    type Output = Time;
    fn div(self, rhs: &Time) -> Time {
        &self / rhs
    }
}

impl Neg for &Time {
    type Output = Time;
    fn neg(self) -> Time {
        match &self.0 {
            Repr::Small(r) if *r.numer() != i64::MIN => Time(Repr::Small(-*r)),
            _ => Time::from_big(-self.to_big()),
        }
    }
}

impl Neg for Time {
    type Output = Time;
    fn neg(self) -> Time {
        -&self
    }
}

impl AddAssign<&Time> for Time {
    fn add_assign(&mut self, rhs: &Time) {
        *self = &*self + rhs;
    }
}

impl AddAssign<Time> for Time {
    fn add_assign(&mut self, rhs: Time) {
        *self = &*self + &rhs;
    }
}

impl SubAssign<&Time> for Time {
    fn sub_assign(&mut self, rhs: &Time) {
        *self = &*self - rhs;
    }
}

impl SubAssign<Time> for Time {
    fn sub_assign(&mut self, rhs: Time) {
        *self = &*self - &rhs;
    }
}

impl Sum for Time {
    fn sum<I: Iterator<Item = Time>>(iter: I) -> Time {
        iter.fold(Time::zero(), |acc, x| acc + x)
    }
}

impl<'a> Sum<&'a Time> for Time {
    fn sum<I: Iterator<Item = &'a Time>>(iter: I) -> Time {
        iter.fold(Time::zero(), |acc, x| acc + x)
    }
}

impl fmt::Display for Time {
    /// `a` for integers, `a/b` otherwise (the JSON string form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(r) if r.is_integer() => write!(f, "{}", r.numer()),
            Repr::Small(r) => write!(f, "{}/{}", r.numer(), r.denom()),
            Repr::Big(b) if b.is_integer() => write!(f, "{}", b.numer()),
            Repr::Big(b) => write!(f, "{}/{}", b.numer(), b.denom()),
        }
    }
}

impl fmt::Debug for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Largest decimal exponent accepted when parsing (`1e4000` would make a 13 kbit integer; a
/// user's time value has no business being larger).
const MAX_EXPONENT: i64 = 4000;

impl FromStr for Time {
    type Err = ParseTimeError;

    /// Parses `a`, `a/b`, `-a/b`, and decimals with an optional exponent, exactly.
    fn from_str(s: &str) -> Result<Time, ParseTimeError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseTimeError::Empty);
        }
        let syntax = || ParseTimeError::Syntax(s.to_string());
        if let Some((a, b)) = s.split_once('/') {
            let n = parse_decimal(a.trim()).ok_or_else(syntax)?;
            let d = parse_decimal(b.trim()).ok_or_else(syntax)?;
            if d.is_zero() {
                return Err(ParseTimeError::ZeroDenominator(s.to_string()));
            }
            return Ok(Time::from_big(n / d));
        }
        match parse_decimal_checked(s) {
            Ok(v) => Ok(Time::from_big(v)),
            Err(true) => Err(ParseTimeError::Exponent(s.to_string())),
            Err(false) => Err(syntax()),
        }
    }
}

fn parse_decimal(s: &str) -> Option<BigRational> {
    parse_decimal_checked(s).ok()
}

/// `Err(true)` for an out-of-range exponent, `Err(false)` for bad syntax.
fn parse_decimal_checked(s: &str) -> Result<BigRational, bool> {
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => {
            let e: i64 = s[i + 1..].parse().map_err(|_| false)?;
            (&s[..i], e)
        }
        None => (s, 0),
    };
    let (neg, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (int_part, frac_part) = match digits.split_once('.') {
        Some((i, f)) => (i, f),
        None => (digits, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(false);
    }
    if !int_part.bytes().all(|c| c.is_ascii_digit())
        || !frac_part.bytes().all(|c| c.is_ascii_digit())
    {
        return Err(false);
    }
    let exp10 = exponent - frac_part.len() as i64;
    if exp10.abs() > MAX_EXPONENT + frac_part.len() as i64 || exponent.abs() > MAX_EXPONENT {
        return Err(true);
    }
    let all: String = format!("{int_part}{frac_part}");
    let mut n: BigInt = if all.is_empty() {
        BigInt::zero()
    } else {
        all.parse().map_err(|_| false)?
    };
    if neg {
        n = -n;
    }
    let ten = BigInt::from(10u32);
    let r = if exp10 >= 0 {
        BigRational::from_integer(n * ten.pow(exp10 as u32))
    } else {
        BigRational::new(n, ten.pow((-exp10) as u32))
    };
    Ok(r)
}

impl serde::Serialize for Time {
    /// Integers that fit in an `i64` are written as JSON integers, everything else as `"a/b"`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Small(r) if r.is_integer() => s.serialize_i64(*r.numer()),
            _ => s.serialize_str(&self.to_string()),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Time {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Time;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "an exact number: an integer, a string \"a/b\", or a decimal such as \"12.5\"",
                )
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Time, E> {
                Ok(Time::from_int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Time, E> {
                Ok(Time::from_big(BigRational::from_integer(BigInt::from(v))))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Time, E> {
                Time::from_f64_decimal(v)
                    .ok_or_else(|| E::custom(format!("{v} is not a finite number")))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Time, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().unwrap()
    }

    #[test]
    fn parses_exactly() {
        assert_eq!(
            t("1518.62619684"),
            Time::new(151862619684, 100000000).unwrap()
        );
        assert_eq!(t("3/4"), Time::new(3, 4).unwrap());
        assert_eq!(t("-0.25"), Time::new(-1, 4).unwrap());
        assert_eq!(t("1e-7"), Time::new(1, 10_000_000).unwrap());
        assert_eq!(t("2.5E3"), Time::from_int(2500));
        assert_eq!(t(".5"), Time::new(1, 2).unwrap());
        assert_eq!(t("6/0.5"), Time::from_int(12));
        assert!(matches!(
            "1/0".parse::<Time>(),
            Err(ParseTimeError::ZeroDenominator(_))
        ));
        assert!("abc".parse::<Time>().is_err());
        assert!("1e999999".parse::<Time>().is_err());
        assert!("".parse::<Time>().is_err());
        assert!(".".parse::<Time>().is_err());
    }

    #[test]
    fn promotes_instead_of_wrapping() {
        let big = Time::from_int(i64::MAX);
        let s = &big + &big;
        assert!(!s.is_small());
        assert_eq!(s.to_string(), "18446744073709551614");
        let back = &s - &big;
        assert!(back.is_small());
        assert_eq!(back, big);
        let m = &big * &big;
        assert_eq!(
            m.to_big(),
            BigRational::from_integer(BigInt::from(i64::MAX) * BigInt::from(i64::MAX))
        );
        let x = Time::new(1, i64::MAX).unwrap() + Time::new(1, i64::MAX - 1).unwrap();
        assert!(!x.is_small());
        assert!(x > Time::zero());
        assert_eq!(
            -Time::from_int(i64::MIN),
            Time::from_big(BigRational::from_integer(-BigInt::from(i64::MIN)))
        );
    }

    #[test]
    fn display_and_serde_round_trip() {
        for s in [
            "0",
            "7",
            "-3/8",
            "1518.62619684",
            "123456789012345678901234567890/7",
        ] {
            let v = t(s);
            let j = serde_json::to_string(&v).unwrap();
            let back: Time = serde_json::from_str(&j).unwrap();
            assert_eq!(v, back, "{s} -> {j}");
        }
        let v: Time = serde_json::from_str("0.1").unwrap();
        assert_eq!(v, Time::new(1, 10).unwrap());
        assert_eq!(t("7381/2520").to_decimal_string(4), "2.9290");
    }

    #[test]
    fn sqrt_enclosure_brackets() {
        let (lo, hi) = Time::from_int(2).sqrt_enclosure(40).unwrap();
        assert!(&lo * &lo <= Time::from_int(2));
        assert!(&hi * &hi >= Time::from_int(2));
        assert!(&hi - &lo <= Time::new(1, 1 << 40).unwrap());
        let (lo, hi) = Time::new(9, 4).unwrap().sqrt_enclosure(10).unwrap();
        assert_eq!(lo, Time::new(3, 2).unwrap());
        assert_eq!(hi, lo);
    }
}
