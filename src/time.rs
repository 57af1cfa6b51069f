//! The exact time type: a rational number that never wraps, never panics on overflow and never
//! rounds.
//!
//! Every time, duration, area and ratio of resched is a [`Time`]. The common case — values whose
//! numerator and denominator fit in an `i64` — is kept in a small `Ratio<i64>`; anything else in a
//! `BigRational`. Results are always *normalised*: reduced, with a positive denominator, and
//! stored in the small form whenever numerator and denominator fit in it. So two equal values
//! always have the same representation, which makes `Eq` (structural) and `Hash` exact.
//!
//! How the arithmetic stays cheap (the moldable experiments compare and add millions of times
//! whose cross products outgrow `i64`): small operands are combined in 64/128-bit words, where
//! every intermediate provably fits, and promoted only if the reduced result does not fit;
//! every operation uses that its inputs are reduced, so no gcd is ever taken of a full-size
//! product. Addition is Knuth's (TAOCP vol. 2, §4.5.1: gcds of the denominators, then of the
//! new numerator with that gcd), multiplication cross-cancels, `mul_int`/`div_int` take one
//! word-sized gcd with the count, and comparison cross-multiplies (after signs and bit lengths
//! for big values) instead of dividing. `tests/time_props.rs` checks all of it against
//! `BigRational`, including the normal form.
//!
//! Inputs are read exactly: integers, `a/b`, and decimals (`1518.62619684`, `-0.25`, `1e-7`,
//! `2.5E3`) all become the rational they denote. `f64` inputs (JSON numbers) go through their
//! shortest round-trip decimal form, so `0.1` is read as `1/10`, as a user who typed it meant.
//!
//! Irrational quantities (√, p^δ, e^x) never become a `Time` implicitly: the modules that need them
//! enclose them with [`Time::sqrt_enclosure`] or their own documented rule.
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::Hash;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};
use std::str::FromStr;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::{BigRational, Ratio};
use num_traits::{One, Signed, ToPrimitive, Zero};

/// An exact rational time (also used for areas and ratios).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Time(Repr);

/// Equality is structural (see the `PartialEq` impl below); `Hash` is the derived one, which hashes
/// the same fields, so equal values hash equally.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Clone, Hash)]
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
    #[error("`{0}` has an exponent too large to represent (|exponent| ≤ 4000)")]
    Exponent(String),
    #[error("a number of {0} characters is longer than the {MAX_LITERAL_LEN} accepted")]
    TooLong(usize),
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
        Some(match (&self.0, &rhs.0) {
            (Repr::Small(a), Repr::Small(b)) => {
                // a / b = a · (±d_b / |n_b|): a product of reduced fractions.
                let (na, nb) = (*a.numer(), *b.numer());
                mul_small(
                    (na < 0, na.unsigned_abs(), *a.denom() as u64),
                    (nb < 0, *b.denom() as u64, nb.unsigned_abs()),
                )
            }
            _ => {
                let (n1, d1) = self.parts();
                let (n2, d2) = rhs.parts();
                // 1 / (n2/d2) = (sign(n2)·d2) / |n2|, reduced since n2/d2 is.
                let rn = if n2.is_negative() {
                    -d2.into_owned()
                } else {
                    d2.into_owned()
                };
                let rd = BigInt::from_biguint(Sign::Plus, n2.magnitude().clone());
                mul_big(&n1, &d1, &rn, &rd)
            }
        })
    }

    /// `self * k` for a count (processors, attempts).
    ///
    /// `self = n/d` is reduced, so with `g = gcd(k, d)` the product `n·(k/g) / (d/g)` is reduced
    /// already: one word-sized gcd (for a big `d`, `gcd(k, d mod k)`), never one on the product.
    #[inline]
    pub fn mul_int(&self, k: u64) -> Time {
        match &self.0 {
            Repr::Small(a) => {
                let (n, d) = (*a.numer(), *a.denom() as u64);
                let g = gcd_u64(k, d);
                let (k, d) = if g == 1 { (k, d) } else { (k / g, d / g) };
                // |n|·k ≤ 2^63·(2^64 − 1) < 2^127: exact.
                from_sign_mag(
                    n < 0,
                    u128::from(n.unsigned_abs()) * u128::from(k),
                    u128::from(d),
                )
            }
            Repr::Big(b) => mul_int_big(b, k),
        }
    }

    /// `self / k` for a positive count; `None` for `k == 0`.
    ///
    /// As [`Time::mul_int`]: with `g = gcd(|n|, k)`, `(n/g) / (d·(k/g))` is reduced.
    #[inline]
    pub fn div_int(&self, k: u64) -> Option<Time> {
        if k == 0 {
            return None;
        }
        Some(match &self.0 {
            Repr::Small(a) => {
                let (n, d) = (*a.numer(), *a.denom() as u64);
                if n == 0 {
                    return Some(Time::zero());
                }
                let m = n.unsigned_abs();
                let g = gcd_u64(m, k);
                let (m, k) = if g == 1 { (m, k) } else { (m / g, k / g) };
                // d·k < 2^63·2^64 = 2^127: exact.
                from_sign_mag(n < 0, u128::from(m), u128::from(d) * u128::from(k))
            }
            Repr::Big(b) => div_int_big(b, k),
        })
    }

    /// Numerator and denominator as big integers, borrowed when the value is big already.
    fn parts(&self) -> (Cow<'_, BigInt>, Cow<'_, BigInt>) {
        match &self.0 {
            Repr::Small(r) => (
                Cow::Owned(BigInt::from(*r.numer())),
                Cow::Owned(BigInt::from(*r.denom())),
            ),
            Repr::Big(b) => (Cow::Borrowed(b.numer()), Cow::Borrowed(b.denom())),
        }
    }

    /// −1, 0 or 1.
    fn signum_i8(&self) -> i8 {
        match &self.0 {
            Repr::Small(r) => r.numer().signum() as i8,
            Repr::Big(b) => match b.numer().sign() {
                Sign::Minus => -1,
                Sign::NoSign => 0,
                Sign::Plus => 1,
            },
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

/// Helpers for hot loops that keep sums on integers of a common denominator and write many
/// decimals (the rigid bound and peer mode's table): no big integers for word-sized values.
impl Time {
    /// `n / d` reduced, for a sum kept as an integer on the denominator `d`; `None` for
    /// `d == 0`. One word-sized gcd (`gcd(|n| mod d, d)`).
    pub fn from_scaled(n: i128, d: u64) -> Option<Time> {
        if d == 0 {
            return None;
        }
        let m = n.unsigned_abs();
        // A word-sized numerator (every tick of a plan, most sums) takes word divisions; a
        // 128-bit one pays the library's.
        if let Ok(m) = u64::try_from(m) {
            let g = gcd_u64(m % d, d);
            return Some(from_sign_mag(n < 0, u128::from(m / g), u128::from(d / g)));
        }
        let g = gcd_u64((m % u128::from(d)) as u64, d);
        Some(from_sign_mag(n < 0, m / u128::from(g), u128::from(d / g)))
    }

    /// The number of decimals that write `self` exactly (0 for an integer) when it is a decimal
    /// fraction with at most `max` of them, else `None`. A word-sized value is read off its
    /// denominator (2^a·5^b needs max(a, b) decimals).
    pub fn decimal_places(&self, max: u32) -> Option<u32> {
        match &self.0 {
            Repr::Small(r) => {
                let mut d = *r.denom() as u64;
                let twos = d.trailing_zeros();
                d >>= twos;
                let mut fives = 0;
                while d % 5 == 0 {
                    d /= 5;
                    fives += 1;
                }
                let k = twos.max(fives);
                (d == 1 && k <= max).then_some(k)
            }
            Repr::Big(_) => {
                let mut scaled = self.clone();
                for k in 0..=max {
                    if scaled.is_integer() {
                        return Some(k);
                    }
                    scaled = scaled.mul_int(10);
                }
                None
            }
        }
    }

    /// Appends `self.to_decimal_string(digits)` to `out`, the same bytes; for a word-sized value
    /// and `digits ≤ 18` on 128-bit words (`|n|·10^18 < 2^123`), without a big rational.
    pub fn write_decimal(&self, digits: u32, out: &mut String) {
        use std::fmt::Write;
        let Repr::Small(r) = &self.0 else {
            out.push_str(&self.to_decimal_string(digits));
            return;
        };
        if digits > 18 {
            out.push_str(&self.to_decimal_string(digits));
            return;
        }
        let (n, d) = (*r.numer(), *r.denom() as u128);
        let scale = 10u128.pow(digits);
        let v = u128::from(n.unsigned_abs()) * scale;
        let (mut q, rem) = (v / d, v % d);
        // Half away from zero, as `BigRational::round`; rem < d ≤ 2^63, so 2·rem fits.
        if 2 * rem >= d {
            q += 1;
        }
        if n < 0 && q != 0 {
            out.push('-');
        }
        let (int, frac) = (q / scale, q % scale);
        let _ = if digits == 0 {
            write!(out, "{int}")
        } else {
            write!(out, "{int}.{frac:0>w$}", w = digits as usize)
        };
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
    // unreachable: BigInt::to_f64 always returns Some (±inf beyond range)
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
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Time {
    /// Small values inline (the schedulers compare times in their inner loops); anything with a
    /// big side out of line.
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            // n1/d1 < n2/d2 ⇔ n1·d2 < n2·d1 (d > 0); |n|·d ≤ 2^63·(2^63 − 1) < 2^126: exact.
            (Repr::Small(a), Repr::Small(b)) => (i128::from(*a.numer()) * i128::from(*b.denom()))
                .cmp(&(i128::from(*b.numer()) * i128::from(*a.denom()))),
            _ => cmp_big(self, other),
        }
    }
}

/// The order when at least one side is big: signs first, then the bit lengths of the cross
/// products, and only then the cross products `n1·d2` and `n2·d1` themselves (no division).
#[inline(never)]
fn cmp_big(x: &Time, y: &Time) -> Ordering {
    let (s1, s2) = (x.signum_i8(), y.signum_i8());
    if s1 != s2 {
        return s1.cmp(&s2);
    }
    // Same sign, and not both zero (a big value is never zero).
    let (n1, d1) = x.parts();
    let (n2, d2) = y.parts();
    // A product of an a-bit and a b-bit number has a+b−1 or a+b bits: compare the bit lengths
    // first, multiply only when they do not decide.
    let l1 = n1.bits() + d2.bits();
    let l2 = n2.bits() + d1.bits();
    let magnitude = if l1 > l2 + 1 {
        Ordering::Greater
    } else if l2 > l1 + 1 {
        Ordering::Less
    } else {
        (n1.magnitude() * d2.magnitude()).cmp(&(n2.magnitude() * d1.magnitude()))
    };
    if s1 > 0 {
        magnitude
    } else {
        magnitude.reverse()
    }
}

impl PartialEq for Repr {
    /// Values are kept in normal form (reduced, positive denominator, small whenever they fit),
    /// so two values are equal exactly when their representations are: compare the fields, not
    /// the values (`Ratio`'s own `==` goes through its continued-fraction comparison).
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Repr::Small(a), Repr::Small(b)) => a.numer() == b.numer() && a.denom() == b.denom(),
            (Repr::Big(a), Repr::Big(b)) => a.numer() == b.numer() && a.denom() == b.denom(),
            _ => false,
        }
    }
}

impl Eq for Repr {}

/// gcd of two words (`gcd(0, b) = b`): binary (Stein) gcd, after one Euclidean step when the
/// operands differ by more than 8 bits (a sum's numerator against its denominator, typically:
/// Stein alone would spend an iteration per bit of the difference, one `%` removes it), and
/// with an exit when an odd part is 1 (a power-of-two denominator, as on the campaigns' 2^−20
/// grid: the gcd is then the common power of two).
fn gcd_u64(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = if a < b { (a, b) } else { (b, a) };
    if a == 0 {
        return b;
    }
    if b >> 8 > a {
        b %= a;
        if b == 0 {
            return a;
        }
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    b >>= b.trailing_zeros();
    if a == 1 || b == 1 {
        return 1 << shift;
    }
    loop {
        // a, b odd.
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
        b >>= b.trailing_zeros();
    }
}

/// [`Time::mul_int`] of a big value: `g = gcd(k, d) = gcd(k, d mod k)`, `n·(k/g) / (d/g)`.
#[inline(never)]
fn mul_int_big(b: &BigRational, k: u64) -> Time {
    if k == 0 {
        return Time::zero();
    }
    let (n, d) = (b.numer(), b.denom());
    let g = gcd_u64(k, rem_u64(d.magnitude(), k));
    let d = if g == 1 { d.clone() } else { d / g };
    from_reduced(n * (k / g), d)
}

/// [`Time::div_int`] of a big value (`k > 0`): `g = gcd(|n| mod k, k)`, `(n/g) / (d·(k/g))`.
#[inline(never)]
fn div_int_big(b: &BigRational, k: u64) -> Time {
    let (n, d) = (b.numer(), b.denom());
    let g = gcd_u64(k, rem_u64(n.magnitude(), k));
    let n = if g == 1 { n.clone() } else { n / g };
    from_reduced(n, d * (k / g))
}

/// `x mod m` for a big magnitude and a non-zero word, without allocating.
fn rem_u64(x: &BigUint, m: u64) -> u64 {
    let m = u128::from(m);
    x.iter_u64_digits().rev().fold(0u64, |r, d| {
        (((u128::from(r) << 64) | u128::from(d)) % m) as u64
    })
}

/// gcd of two big magnitudes. When one fits in a word, one `mod` by it brings the other down to a
/// word too (Euclid's first step), instead of a binary gcd that shifts the big one bit by bit.
fn gcd_big(a: &BigUint, b: &BigUint) -> BigUint {
    match (a.to_u64(), b.to_u64()) {
        (Some(0), _) => b.clone(),
        (_, Some(0)) => a.clone(),
        (Some(x), Some(y)) => BigUint::from(gcd_u64(x, y)),
        (None, Some(y)) => BigUint::from(gcd_u64(rem_u64(a, y), y)),
        (Some(x), None) => BigUint::from(gcd_u64(rem_u64(b, x), x)),
        (None, None) => a.gcd(b),
    }
}

/// `x / g` for a divisor `g` of `x`, borrowing `x` when `g = 1`.
fn div_exact<'a>(x: &'a BigInt, g: &BigUint) -> Cow<'a, BigInt> {
    if g.is_one() {
        Cow::Borrowed(x)
    } else {
        Cow::Owned(x / BigInt::from_biguint(Sign::Plus, g.clone()))
    }
}

/// `±n / d` for a reduced fraction with `0 < d`, `n, d < 2^127`, in normal form.
#[inline]
fn from_sign_mag(neg: bool, n: u128, d: u128) -> Time {
    if let Ok(d) = i64::try_from(d) {
        if let Ok(n) = i64::try_from(n) {
            return Time(Repr::Small(Ratio::new_raw(if neg { -n } else { n }, d)));
        }
        if neg && n == 1 << 63 {
            return Time(Repr::Small(Ratio::new_raw(i64::MIN, d)));
        }
    }
    let n = BigInt::from(n);
    Time(Repr::Big(Box::new(BigRational::new_raw(
        if neg { -n } else { n },
        BigInt::from(d),
    ))))
}

/// `n / d` for a reduced fraction with `d > 0`, in normal form (no gcd).
fn from_reduced(n: BigInt, d: BigInt) -> Time {
    match (n.to_i64(), d.to_i64()) {
        (Some(n), Some(d)) => Time(Repr::Small(Ratio::new_raw(n, d))),
        _ => Time(Repr::Big(Box::new(BigRational::new_raw(n, d)))),
    }
}

/// `n1/d1 + n2/d2` for reduced small fractions (`n2` carries the sign of the operation, so
/// `|n2| ≤ 2^63`), by Knuth's addition (TAOCP vol. 2, §4.5.1): with `g = gcd(d1, d2)`,
/// `(n1·d2 + n2·d1) / (d1·d2)` is reduced when `g = 1`; otherwise `t = n1·(d2/g) + n2·(d1/g)`,
/// `g2 = gcd(t, g)`, and `(t/g2) / ((d1/g)·(d2/g2))` is reduced. Every intermediate is below
/// 2^127 in magnitude, every gcd is on words, and 128-bit divisions happen only when `t` itself
/// outgrows a word.
fn add_small(n1: i64, d1: i64, n2: i128, d2: i64) -> Time {
    let (d1, d2) = (d1 as u64, d2 as u64);
    if d1 == 1 && d2 == 1 {
        let n = i128::from(n1) + n2;
        return from_sign_mag(n < 0, n.unsigned_abs(), 1);
    }
    // Equal denominators (a time plus a duration on the same decimal grid) are the common case.
    let (g, a1, a2) = if d1 == d2 {
        (d1, 1, 1)
    } else {
        let g = gcd_u64(d1, d2);
        if g == 1 {
            let n = i128::from(n1) * i128::from(d2) + n2 * i128::from(d1);
            return from_sign_mag(n < 0, n.unsigned_abs(), u128::from(d1) * u128::from(d2));
        }
        (g, d1 / g, d2 / g)
    };
    let t = i128::from(n1) * i128::from(a2) + n2 * i128::from(a1);
    let (neg, tm) = (t < 0, t.unsigned_abs());
    if tm == 0 {
        return Time::zero();
    }
    let (tm, b2) = match u64::try_from(tm) {
        Ok(tw) => {
            let g2 = gcd_u64(tw, g);
            if g2 == 1 {
                (tm, d2)
            } else {
                (u128::from(tw / g2), d2 / g2)
            }
        }
        Err(_) => {
            let g2 = gcd_u64((tm % u128::from(g)) as u64, g);
            (tm / u128::from(g2), d2 / g2)
        }
    };
    from_sign_mag(neg, tm, u128::from(a1) * u128::from(b2))
}

/// `(±m1/d1) · (±m2/d2)` for reduced fractions given as (negative, |numerator|, denominator)
/// with `m, d ≤ 2^63`, `d > 0`: cross-cancel `g1 = gcd(m1, d2)`, `g2 = gcd(m2, d1)`;
/// `(m1/g1)(m2/g2) / ((d1/g2)(d2/g1))` is reduced. Word divisions only.
fn mul_small((neg1, m1, d1): (bool, u64, u64), (neg2, m2, d2): (bool, u64, u64)) -> Time {
    if m1 == 0 || m2 == 0 {
        return Time::zero();
    }
    let g1 = gcd_u64(m1, d2);
    let (m1, d2) = if g1 == 1 {
        (m1, d2)
    } else {
        (m1 / g1, d2 / g1)
    };
    let g2 = gcd_u64(m2, d1);
    let (m2, d1) = if g2 == 1 {
        (m2, d1)
    } else {
        (m2 / g2, d1 / g2)
    };
    from_sign_mag(
        neg1 != neg2,
        u128::from(m1) * u128::from(m2),
        u128::from(d1) * u128::from(d2),
    )
}

/// Knuth's addition (see [`add_small`]) on big integers: the gcds are `gcd(d1, d2)` and
/// `gcd(t, g)`, never one on the full-size numerator and denominator of the sum.
fn add_big(n1: &BigInt, d1: &BigInt, n2: &BigInt, d2: &BigInt, sub: bool) -> Time {
    let combine = |x: BigInt, y: BigInt| if sub { x - y } else { x + y };
    let g = gcd_big(d1.magnitude(), d2.magnitude());
    if g.is_one() {
        return from_reduced(combine(n1 * d2, n2 * d1), d1 * d2);
    }
    let a1 = div_exact(d1, &g);
    let a2 = div_exact(d2, &g);
    let t = combine(n1 * a2.as_ref(), n2 * a1.as_ref());
    if t.is_zero() {
        return Time::zero();
    }
    let g2 = gcd_big(t.magnitude(), &g);
    let d = a1.as_ref() * div_exact(d2, &g2).as_ref();
    from_reduced(div_exact(&t, &g2).into_owned(), d)
}

/// The cross-cancelled product (see [`mul_small`]) on big integers.
fn mul_big(n1: &BigInt, d1: &BigInt, n2: &BigInt, d2: &BigInt) -> Time {
    if n1.is_zero() || n2.is_zero() {
        return Time::zero();
    }
    let g1 = gcd_big(n1.magnitude(), d2.magnitude());
    let g2 = gcd_big(n2.magnitude(), d1.magnitude());
    from_reduced(
        div_exact(n1, &g1).as_ref() * div_exact(n2, &g2).as_ref(),
        div_exact(d1, &g2).as_ref() * div_exact(d2, &g1).as_ref(),
    )
}

/// Runs a big-integer operation on the parts of two times (out of line: the small paths stay
/// short enough to inline).
#[inline(never)]
fn big_op(x: &Time, y: &Time, op: impl Fn(&BigInt, &BigInt, &BigInt, &BigInt) -> Time) -> Time {
    let (n1, d1) = x.parts();
    let (n2, d2) = y.parts();
    op(&n1, &d1, &n2, &d2)
}

impl Add<&Time> for &Time {
    type Output = Time;
    #[inline]
    fn add(self, rhs: &Time) -> Time {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &rhs.0) {
            return add_small(*a.numer(), *a.denom(), i128::from(*b.numer()), *b.denom());
        }
        big_op(self, rhs, |n1, d1, n2, d2| add_big(n1, d1, n2, d2, false))
    }
}

impl Sub<&Time> for &Time {
    type Output = Time;
    #[inline]
    fn sub(self, rhs: &Time) -> Time {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &rhs.0) {
            return add_small(*a.numer(), *a.denom(), -i128::from(*b.numer()), *b.denom());
        }
        big_op(self, rhs, |n1, d1, n2, d2| add_big(n1, d1, n2, d2, true))
    }
}

impl Mul<&Time> for &Time {
    type Output = Time;
    #[inline]
    fn mul(self, rhs: &Time) -> Time {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &rhs.0) {
            let (na, nb) = (*a.numer(), *b.numer());
            return mul_small(
                (na < 0, na.unsigned_abs(), *a.denom() as u64),
                (nb < 0, nb.unsigned_abs(), *b.denom() as u64),
            );
        }
        big_op(self, rhs, mul_big)
    }
}

/// The owned/borrowed combinations of a binary operator, all through `&Time op &Time`.
macro_rules! forward_binop {
    ($trait:ident, $method:ident) => {
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

forward_binop!(Add, add);
forward_binop!(Sub, sub);
forward_binop!(Mul, mul);

/// Division by a non-zero time. Dividing by zero is a bug in the caller (every divisor in resched
/// is a validated positive quantity), so it is an assertion; use [`Time::checked_div`] on
/// anything that comes from a user.
impl Div<&Time> for &Time {
    type Output = Time;
    #[allow(clippy::panic)] // the operator's documented contract: a zero divisor is a caller bug
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
/// user's time value has no business being larger). The limit is on the exponent because a short
/// literal (`1e999999999`) could otherwise name a number whose digits exhaust memory.
const MAX_EXPONENT: i64 = 4000;

/// Longest literal accepted when parsing, in characters. Digits cost the writer as many bytes as
/// they cost memory, but turning decimal digits into a big integer takes time quadratic in their
/// number: 10^5 digits are cheap, 100 times as many would cost 10^4 times as much. The bound
/// is far above any value resched writes itself (big times are written as `a/b` and read back
/// by the experiment caches), so a round trip never meets it.
pub const MAX_LITERAL_LEN: usize = 100_000;

impl FromStr for Time {
    type Err = ParseTimeError;

    /// Parses `a`, `a/b`, `-a/b`, and decimals with an optional exponent, exactly.
    fn from_str(s: &str) -> Result<Time, ParseTimeError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseTimeError::Empty);
        }
        if s.len() > MAX_LITERAL_LEN {
            return Err(ParseTimeError::TooLong(s.len()));
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
        // default: a mantissa without a sign is itself
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
    /// Reads a JSON integer, a JSON number of any form (`12.5`, `1e-7`, `2E+3`, 30 digits), or a
    /// string (`"a/b"`, a decimal), always exactly.
    ///
    /// serde_json is built with `arbitrary_precision` (Cargo.toml): a number that does not fit
    /// an `i64`/`u64` reaches [`serde::de::Visitor::visit_map`] as the literal text the user
    /// wrote (serde_json's private one-entry map, read back through [`serde_json::Number`]),
    /// which is parsed by [`Time::from_str`] exactly, like a string. So
    /// `12345678901234567890123` is that integer, not the nearest `f64`. `1e400` is read exactly
    /// as the integer 10^400, like the string `"1e400"`: a time is a rational with no upper
    /// bound, and the parser's explicit limits (|exponent| ≤ 4000, [`MAX_LITERAL_LEN`]
    /// characters) keep it from exhausting memory; it never becomes `inf`.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
        d.deserialize_any(TimeVisitor)
    }
}

/// The visitor of [`Time`]'s `Deserialize`.
struct TimeVisitor;

impl<'de> serde::de::Visitor<'de> for TimeVisitor {
    type Value = Time;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "an exact number: an integer, a decimal such as 12.5 or 1e-7, or a string \"a/b\"",
        )
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Time, E> {
        Ok(Time::from_int(v))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Time, E> {
        Ok(Time::from_big(BigRational::from_integer(BigInt::from(v))))
    }
    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Time, E> {
        Ok(Time::from_big(BigRational::from_integer(BigInt::from(v))))
    }
    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Time, E> {
        Ok(Time::from_big(BigRational::from_integer(BigInt::from(v))))
    }
    /// serde_json calls this only when the literal is exactly the shortest round-trip form of
    /// the `f64` (a number re-read from a `serde_json::Value`, e.g. `0.1`), so reading that form
    /// back gives the number as written. Other formats' floats are read the same way.
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Time, E> {
        Time::from_f64_decimal(v).ok_or_else(|| E::custom(format!("{v} is not a finite number")))
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Time, E> {
        v.parse().map_err(E::custom)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Time, A::Error> {
        use serde::de::Error as _;
        let literal = json_number_literal(map)
            .ok_or_else(|| A::Error::invalid_type(serde::de::Unexpected::Map, &self))?;
        literal.parse().map_err(A::Error::custom)
    }
}

/// The text of a JSON number that serde_json (with `arbitrary_precision`) hands to a visitor as
/// a one-entry map, or `None` when the map is a real JSON object. Shared by every exact reader
/// of numbers ([`Time`] and the integer counts of [`crate::model::json`]).
pub fn json_number_literal<'de, A: serde::de::MapAccess<'de>>(map: A) -> Option<String> {
    use serde::Deserialize as _;
    let n = serde_json::Number::deserialize(serde::de::value::MapAccessDeserializer::new(map));
    n.ok().map(|n| n.as_str().to_string())
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
    #[test]
    fn word_helpers_agree_with_num_integer() {
        let vals = [
            0u64,
            1,
            2,
            3,
            12,
            18,
            1 << 40,
            3 << 40,
            u64::MAX,
            u64::MAX - 1,
            i64::MAX as u64,
            1 << 63,
            600_851_475_143,
            6_700_417 * 641,
        ];
        for &a in &vals {
            for &b in &vals {
                assert_eq!(gcd_u64(a, b), a.gcd(&b), "gcd({a}, {b})");
                if b != 0 {
                    let big = BigUint::from(a) * BigUint::from(u64::MAX) + BigUint::from(b);
                    assert_eq!(
                        BigUint::from(rem_u64(&big, b)),
                        &big % BigUint::from(b),
                        "{big} mod {b}"
                    );
                    assert_eq!(gcd_big(&big, &BigUint::from(b)), big.gcd(&BigUint::from(b)));
                }
            }
        }
    }

    #[test]
    fn gcd_u64_matches_num_integer_on_random_pairs() {
        // Fixed-seed xorshift: operands of every size, powers of two and shared factors.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..20_000 {
            let (r1, r2, r3) = (next(), next(), next());
            let a = r1 >> (r3 % 64);
            let b = (r2 >> ((r3 >> 8) % 64)) << (i % 24);
            let f = 1 + (r3 >> 40) % 1000;
            for (a, b) in [
                (a, b),
                (a.wrapping_mul(f), b.wrapping_mul(f)),
                (1 << (i % 64), b),
            ] {
                assert_eq!(gcd_u64(a, b), a.gcd(&b), "gcd({a}, {b})");
            }
        }
    }

    /// Every pair of a table of edge values (zero, ±1, the i64 edge, values just past it, shared
    /// and coprime denominators, big values) through every operation, against `BigRational`,
    /// and in normal form. The random version is `tests/time_props.rs`.
    #[test]
    fn edge_table_matches_bigrational() {
        let m = i64::MAX;
        let n = i64::MIN;
        let mut vals: Vec<BigRational> = Vec::new();
        for (a, b) in [
            (0, 1),
            (1, 1),
            (-1, 1),
            (m, 1),
            (n, 1),
            (n + 1, 1),
            (1, m),
            (-1, m),
            (m, m - 1),
            (n, m),
            (m - 1, m),
            (3, 4),
            (-3, 4),
            (1, 1 << 62),
            (n, 3),
            (7, 1 << 40),
            (-5, 6 << 40),
        ] {
            vals.push(BigRational::new(BigInt::from(a), BigInt::from(b)));
        }
        let two64: BigInt = BigInt::from(u64::MAX) + 1u32;
        vals.push(BigRational::from_integer(two64.clone()));
        vals.push(BigRational::from_integer(-two64.clone() + 1));
        vals.push(BigRational::new(BigInt::from(1), two64.clone()));
        vals.push(BigRational::new(BigInt::from(-3), &two64 * 3 + 2));
        vals.push(BigRational::new(&two64 * &two64 + 1, BigInt::from(6)));
        vals.push(BigRational::new(-BigInt::from(n), BigInt::from(1)));
        let check = |t: &Time, b: &BigRational, what: &str| {
            assert_eq!(&t.to_big(), b, "{what}");
            let fits = b.numer().to_i64().is_some() && b.denom().to_i64().is_some();
            assert_eq!(t.is_small(), fits, "normal form of {what} = {t}");
            assert_eq!(t, &Time::from_big(b.clone()), "{what}");
        };
        for x in &vals {
            let a = Time::from_big(x.clone());
            check(&a, x, "input");
            for k in [0u64, 1, 2, 3, 6, 1 << 40, i64::MAX as u64, u64::MAX] {
                let kb = BigRational::from_integer(BigInt::from(k));
                check(&a.mul_int(k), &(x * &kb), &format!("{x} * {k}"));
                if k > 0 {
                    check(&a.div_int(k).unwrap(), &(x / &kb), &format!("{x} / {k}"));
                }
            }
            for y in &vals {
                let b = Time::from_big(y.clone());
                check(&(&a + &b), &(x + y), &format!("{x} + {y}"));
                check(&(&a - &b), &(x - y), &format!("{x} - {y}"));
                check(&(&a * &b), &(x * y), &format!("{x} * {y}"));
                if !y.is_zero() {
                    check(&(&a / &b), &(x / y), &format!("{x} / {y}"));
                }
                assert_eq!(a.cmp(&b), x.cmp(y), "cmp({x}, {y})");
                assert_eq!(a == b, x == y, "{x} == {y}");
            }
        }
    }

    /// The output helpers against their definitions: `from_scaled` against `BigRational::new`,
    /// `decimal_places` against scaling by 10 until the value is an integer, `write_decimal`
    /// against `to_decimal_string`, byte for byte (signs, ties, zero padding, the i64 edge,
    /// big values) on a fixed-seed grid of values.
    #[test]
    fn output_helpers_agree_with_their_definitions() {
        let big = |n: i128, d: u64| BigRational::new(BigInt::from(n), BigInt::from(d));
        for n in [
            0i128,
            1,
            -1,
            7,
            -12,
            1 << 70,
            -(1 << 100),
            i128::MAX,
            i128::MIN,
            10i128.pow(30),
            u64::MAX as i128,
            -(u64::MAX as i128),
            i64::MIN as i128,
            (1 << 61) + 3,
            -(1 << 61) - 1517,
        ] {
            for d in [
                1u64,
                2,
                3,
                10,
                100,
                1 << 40,
                205_891_132_094_649,
                i64::MAX as u64,
                u64::MAX,
            ] {
                let got = Time::from_scaled(n, d).unwrap();
                assert_eq!(got, Time::from_big(big(n, d)), "{n}/{d}");
            }
            assert_eq!(Time::from_scaled(n, 0), None);
        }
        let mut vals: Vec<Time> = [
            "0",
            "3",
            "-3",
            "1/3",
            "-2/3",
            "5/2",
            "-5/2",
            "1/2",
            "-1/2",
            "0.25",
            "-0.0000004",
            "-0.0000005",
            "0.0000005",
            "1/1024",
            "1/524288",
            "7/80",
            "1234567.125",
            "9223372036854775807",
            "-9223372036854775808",
            "1/9223372036854775807",
            "-9223372036854775808/9223372036854775807",
            "123456789012345678901234.5",
            "1/100000000000000000000",
            "1/3000000000000000000000",
        ]
        .iter()
        .map(|s| t(s))
        .collect();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = (x as i64) >> (x % 50);
            let d = [
                1i64,
                2,
                4,
                5,
                8,
                10,
                16,
                25,
                100,
                1000,
                3,
                7,
                1 << 30,
                5i64.pow(20),
            ][(x >> 50) as usize % 14];
            vals.push(Time::new(n, d).unwrap());
        }
        for v in &vals {
            let mut scaled = v.clone();
            let mut want = None;
            for k in 0..=18 {
                if scaled.is_integer() {
                    want = Some(k);
                    break;
                }
                scaled = scaled.mul_int(10);
            }
            assert_eq!(v.decimal_places(18), want, "{v}");
            for digits in [0, 1, 2, 6, 17, 18, 19, 25] {
                let mut out = String::from(">");
                v.write_decimal(digits, &mut out);
                assert_eq!(
                    out[1..],
                    v.to_decimal_string(digits),
                    "{v} with {digits} digits"
                );
            }
        }
        assert_eq!(t("1/524288").decimal_places(18), None);
        assert_eq!(t("1/524288").decimal_places(19), Some(19));
        assert_eq!(t("-5/2").to_decimal_string(0), "-3");
        assert_eq!(t("-0.0000004").to_decimal_string(6), "0.000000");
    }
}
