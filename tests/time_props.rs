//! Property tests of the exact time type against `BigRational` (the reference): every operation
//! of `Time` — including the ones that overflow `i64` and promote themselves — gives exactly the
//! big-rational result, comparisons agree, and text/JSON round trips are exact.
use num_bigint::BigInt;
use num_rational::BigRational;
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
    ]
}

fn time() -> impl Strategy<Value = (Time, BigRational)> {
    prop_oneof![
        (part(), part().prop_filter("non-zero", |d| *d != 0)).prop_map(|(n, d)| {
            let b = BigRational::new(BigInt::from(n), BigInt::from(d));
            (Time::from_big(b.clone()), b)
        }),
        // Values that are big already.
        (any::<i64>(), any::<i64>(), 1i64..i64::MAX).prop_map(|(a, b, d)| {
            let big = BigRational::new(BigInt::from(a) * BigInt::from(b) * 3, BigInt::from(d));
            (Time::from_big(big.clone()), big)
        }),
    ]
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
    runner(4000)
        .run(&(time(), time()), |((a, ab), (b, bb))| {
            prop_assert_eq!((&a + &b).to_big(), &ab + &bb);
            prop_assert_eq!((&a - &b).to_big(), &ab - &bb);
            prop_assert_eq!((&a * &b).to_big(), &ab * &bb);
            if !b.is_zero() {
                prop_assert_eq!(a.checked_div(&b).map(|q| q.to_big()), Some(&ab / &bb));
            } else {
                prop_assert!(a.checked_div(&b).is_none());
            }
            prop_assert_eq!(a.cmp(&b), ab.cmp(&bb));
            prop_assert_eq!(a == b, ab == bb);
            prop_assert_eq!((-&a).to_big(), -ab.clone());
            // Normal form: a value that fits in i64/i64 is always small, so Eq/Hash are exact.
            let fits = ab.numer().bits() < 64 && ab.denom().bits() < 64;
            prop_assert_eq!(a.is_small(), fits);
            Ok(())
        })
        .unwrap();
}

#[test]
fn integer_scaling_matches_bigrational() {
    runner(2000)
        .run(&(time(), any::<u64>()), |((a, ab), k)| {
            let kb = BigRational::from_integer(BigInt::from(k));
            prop_assert_eq!(a.mul_int(k).to_big(), &ab * &kb);
            if k != 0 {
                prop_assert_eq!(a.div_int(k).map(|q| q.to_big()), Some(&ab / &kb));
            }
            prop_assert_eq!(a.floor(), ab.floor().to_integer());
            prop_assert_eq!(a.ceil(), ab.ceil().to_integer());
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
