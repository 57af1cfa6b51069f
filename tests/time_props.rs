//! Property tests of the exact time type against `BigRational` (the reference): every operation
//! of `Time` — including the ones that overflow `i64` and promote themselves — gives exactly the
//! big-rational result, in normal form (held small exactly when numerator and denominator fit in
//! `i64`, which the derived `Eq`/`Hash` rely on), comparisons agree, and text/JSON round trips are
//! exact. Operands mix small and big values, values at the `i64` edge, zero and negatives, and
//! denominators that share factors (so every branch of the gcd-saving arithmetic in `src/time.rs`
//! is taken).
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use resched::Time;

/// Numerators/denominators near the i64 edge as well as small ones, so promotion is exercised.
fn part() -> impl Strategy<Value = i64> {
    prop_oneof![
        -1000i64..1000,
        any::<i64>(),
        (i64::MAX - 1000)..=i64::MAX,
        i64::MIN..(i64::MIN + 1000),
        (1i64..=62).prop_map(|k| 1i64 << k),
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0),
        // Smooth numbers (products of small primes): denominators with large common factors.
        // 2^20·3^8·5^6·7^4 < 2^58.
        (0u32..=20, 0u32..=8, 0u32..=6, 0u32..=4, any::<bool>()).prop_map(|(a, b, c, d, neg)| {
            let v = 2i64.pow(a) * 3i64.pow(b) * 5i64.pow(c) * 7i64.pow(d);
            if neg {
                -v
            } else {
                v
            }
        }),
    ]
}

fn time() -> impl Strategy<Value = (Time, BigRational)> {
    prop_oneof![
        3 => (part(), part().prop_filter("non-zero", |d| *d != 0)).prop_map(|(n, d)| {
            let b = BigRational::new(BigInt::from(n), BigInt::from(d));
            (Time::from_big(b.clone()), b)
        }),
        // Values that are big already.
        1 => (any::<i64>(), any::<i64>(), 1i64..i64::MAX).prop_map(|(a, b, d)| {
            let big = BigRational::new(BigInt::from(a) * BigInt::from(b) * 3, BigInt::from(d));
            (Time::from_big(big.clone()), big)
        }),
        // Big values with big, smooth denominators (common factors between operands) and values
        // just past the i64 edge, either side.
        1 => (part(), part(), part().prop_filter("non-zero", |d| *d != 0), part()
            .prop_filter("non-zero", |d| *d != 0))
            .prop_map(|(a, b, c, d)| {
                let big = BigRational::new(
                    BigInt::from(a) * BigInt::from(b) + BigInt::from(a),
                    BigInt::from(c) * BigInt::from(d),
                );
                (Time::from_big(big.clone()), big)
            }),
        1 => (-3i64..=3, 1i64..=3).prop_map(|(e, d)| {
            let big = BigRational::new(BigInt::from(i64::MAX) + BigInt::from(e), BigInt::from(d));
            let big = if e % 2 == 0 { -big } else { big };
            (Time::from_big(big.clone()), big)
        }),
    ]
}

/// `t` is exactly `b` and in normal form: small exactly when numerator and denominator fit.
fn exact(t: &Time, b: &BigRational) -> Result<(), TestCaseError> {
    prop_assert_eq!(&t.to_big(), b);
    let fits = b.numer().to_i64().is_some() && b.denom().to_i64().is_some();
    prop_assert_eq!(t.is_small(), fits, "normal form of {}", t);
    // Equal values have equal representations: rebuilding from the reference gives `==`/hash.
    let rebuilt = Time::from_big(b.clone());
    prop_assert_eq!(t, &rebuilt);
    prop_assert_eq!(hash(t), hash(&rebuilt));
    Ok(())
}

fn hash(t: &Time) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// A fixed-seed runner: the same cases on every machine; a failure prints the seed and the case.
fn runner(cases: u32) -> TestRunner {
    let seed = [7u8; 32];
    eprintln!("proptest seed: {seed:?} (fixed), {cases} cases");
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
    )
}

#[test]
fn arithmetic_matches_bigrational() {
    runner(6000)
        .run(&(time(), time()), |((a, ab), (b, bb))| {
            exact(&a, &ab)?;
            exact(&(&a + &b), &(&ab + &bb))?;
            exact(&(&a - &b), &(&ab - &bb))?;
            exact(&(&a * &b), &(&ab * &bb))?;
            // Owned and assigning forms go through the same code.
            exact(&(a.clone() + b.clone()), &(&ab + &bb))?;
            let mut acc = a.clone();
            acc -= &b;
            exact(&acc, &(&ab - &bb))?;
            if !bb.is_zero() {
                let q = a.checked_div(&b).expect("non-zero divisor");
                exact(&q, &(&ab / &bb))?;
                exact(&(&a / &b), &(&ab / &bb))?;
            } else {
                prop_assert!(a.checked_div(&b).is_none());
            }
            prop_assert_eq!(a.cmp(&b), ab.cmp(&bb));
            prop_assert_eq!(b.cmp(&a), bb.cmp(&ab));
            prop_assert_eq!(a.cmp(&a), std::cmp::Ordering::Equal);
            prop_assert_eq!(a == b, ab == bb);
            prop_assert_eq!(
                a.clone().max(b.clone()).to_big(),
                ab.clone().max(bb.clone())
            );
            exact(&(-&a), &-ab.clone())?;
            // x + y − y = x and x·y/y = x, whatever representations the intermediates take.
            prop_assert_eq!(&(&(&a + &b) - &b), &a);
            if !bb.is_zero() {
                prop_assert_eq!(&(&(&a * &b) / &b), &a);
            }
            Ok(())
        })
        .unwrap();
}

/// Comparing values that differ by less than 2^−120 (the cross products agree in their top bits,
/// so the bit-length shortcut cannot decide and the products are compared in full).
#[test]
fn near_ties_compare_exactly() {
    runner(2000)
        .run(
            &(time(), 1i64..=i64::MAX, any::<bool>()),
            |((a, ab), d, up)| {
                let eps = BigRational::new(BigInt::from(1), BigInt::from(d) * BigInt::from(d));
                let cb = if up { &ab + &eps } else { &ab - &eps };
                let c = Time::from_big(cb.clone());
                exact(&c, &cb)?;
                prop_assert_eq!(a.cmp(&c), ab.cmp(&cb));
                prop_assert_eq!(c.cmp(&a), cb.cmp(&ab));
                prop_assert!(a != c);
                Ok(())
            },
        )
        .unwrap();
}

/// Counts: 0, 1, small, factors of typical denominators, and the u64 edge.
fn count() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..=16,
        1u64..=7500,
        any::<u64>(),
        (0u32..64).prop_map(|k| 1u64 << k),
        Just(u64::MAX),
        Just(i64::MAX as u64),
        Just(i64::MAX as u64 + 1),
        (0u32..20, 0u32..13, 0u32..9).prop_map(|(a, b, c)| 2u64.pow(a) * 3u64.pow(b) * 5u64.pow(c)),
    ]
}

#[test]
fn integer_scaling_matches_bigrational() {
    runner(4000)
        .run(&(time(), count()), |((a, ab), k)| {
            let kb = BigRational::from_integer(BigInt::from(k));
            exact(&a.mul_int(k), &(&ab * &kb))?;
            if k != 0 {
                let q = a.div_int(k).expect("k > 0");
                exact(&q, &(&ab / &kb))?;
                prop_assert_eq!(&q.mul_int(k), &a);
            } else {
                prop_assert!(a.div_int(k).is_none());
            }
            prop_assert_eq!(a.floor(), ab.floor().to_integer());
            prop_assert_eq!(a.ceil(), ab.ceil().to_integer());
            Ok(())
        })
        .unwrap();
}

/// Long sums (the moldable experiments' pattern: many rationals with distinct denominators
/// accumulate into a big value, which later shrinks back) against a big-rational fold.
#[test]
fn sums_match_bigrational() {
    runner(300)
        .run(&prop::collection::vec(time(), 1..40), |terms| {
            let mut acc = Time::zero();
            let mut accb = BigRational::zero();
            for (i, (t, tb)) in terms.iter().enumerate() {
                if i % 3 == 2 {
                    acc -= t;
                    accb -= tb;
                } else {
                    acc += t;
                    accb += tb;
                }
                exact(&acc, &accb)?;
            }
            let total: Time = terms.iter().map(|(t, _)| t).sum();
            let totalb = terms.iter().fold(BigRational::zero(), |s, (_, tb)| s + tb);
            exact(&total, &totalb)?;
            // Undo the sum term by term: back to zero, small again.
            let mut back = total.clone();
            for (t, _) in &terms {
                back -= t;
            }
            prop_assert!(back.is_zero() && back.is_small());
            Ok(())
        })
        .unwrap();
}

#[test]
fn text_and_json_round_trip() {
    runner(2000)
        .run(&time(), |(a, _)| {
            let s = a.to_string();
            prop_assert_eq!(s.parse::<Time>().ok(), Some(a.clone()));
            let j = serde_json::to_string(&a).unwrap();
            prop_assert_eq!(serde_json::from_str::<Time>(&j).ok(), Some(a.clone()));
            Ok(())
        })
        .unwrap();
}

#[test]
fn decimals_are_read_exactly() {
    runner(2000)
        .run(&(any::<i64>(), 0u32..18), |(digits, scale)| {
            let neg = digits < 0;
            let mag = digits.unsigned_abs().to_string();
            let s = if scale == 0 {
                mag.clone()
            } else if (scale as usize) < mag.len() {
                format!(
                    "{}.{}",
                    &mag[..mag.len() - scale as usize],
                    &mag[mag.len() - scale as usize..]
                )
            } else {
                format!("0.{}{}", "0".repeat(scale as usize - mag.len()), mag)
            };
            let text = if neg { format!("-{s}") } else { s };
            let expected = BigRational::new(
                BigInt::from(digits),
                num_traits::pow(BigInt::from(10), scale as usize),
            );
            prop_assert_eq!(
                text.parse::<Time>().map(|t| t.to_big()).ok(),
                Some(expected)
            );
            Ok(())
        })
        .unwrap();
}
