//! Structured random cases for property tests, quickcheck and cargo-fuzz: a generator type that
//! turns raw bytes (`arbitrary::Unstructured`) into a *valid* instance and failure scenario.
//!
//! Why a dedicated type and not `impl Arbitrary for Instance`: an instance must satisfy rules
//! (p_j in 1..=P, t_j > 0, tables of length P, unique names) that a field-by-field derive would
//! break on almost every input; fuzzers then spend their time in validation errors. [`Case`] maps
//! *every* byte string to a valid case inside a stated [`Scope`], so every execution exercises
//! the engine. Bytes that run out yield zeros (arbitrary's rule), which gives the smallest case:
//! shrinking the bytes shrinks the instance.
//!
//! Times are exact rationals `num/den` with small numerators and denominators, so the exact
//! arithmetic is exercised (non-integer event times, ties between completions) without growing
//! numbers that would slow a fuzzer down.
use super::{Instance, Job, Profile, Scenario, SpeedupModel};
use crate::time::Time;
use arbitrary::{Arbitrary, Result, Unstructured};

/// The bounds a generated case stays within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scope {
    /// P is drawn in 1..=max_procs.
    pub max_procs: u32,
    /// n is drawn in 1..=max_jobs.
    pub max_jobs: usize,
    /// f_j is drawn in 0..=max_failures.
    pub max_failures: u32,
    /// Numerators of times are drawn in 1..=max_num.
    pub max_num: i64,
    /// Denominators of times are drawn in 1..=max_den.
    pub max_den: i64,
    /// Probability weight (0..=255 out of 255) that a job is moldable rather than rigid.
    pub moldable_weight: u8,
}

impl Scope {
    /// Rigid jobs only: P ≤ 8, n ≤ 8, f_j ≤ 3, t_j = a/b with a ≤ 12, b ≤ 4.
    pub const RIGID: Scope = Scope {
        max_procs: 8,
        max_jobs: 8,
        max_failures: 3,
        max_num: 12,
        max_den: 4,
        moldable_weight: 0,
    };
    /// Moldable jobs only, same sizes as [`Scope::RIGID`].
    pub const MOLDABLE: Scope = Scope {
        moldable_weight: 255,
        ..Scope::RIGID
    };
    /// Mixed rigid and moldable jobs.
    pub const MIXED: Scope = Scope {
        moldable_weight: 128,
        ..Scope::RIGID
    };
    /// Small enough for the exact optimum: P ≤ 4, n ≤ 4, f_j ≤ 2 (≤ 12 attempts).
    pub const TINY: Scope = Scope {
        max_procs: 4,
        max_jobs: 4,
        max_failures: 2,
        max_num: 6,
        max_den: 2,
        moldable_weight: 0,
    };
    /// Larger rigid cases for the engine: P ≤ 64, n ≤ 30, f_j ≤ 5 (the property tests' scope).
    pub const LARGE: Scope = Scope {
        max_procs: 64,
        max_jobs: 30,
        max_failures: 5,
        max_num: 40,
        max_den: 8,
        moldable_weight: 0,
    };
}

/// A valid instance and a scenario for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub instance: Instance,
    pub scenario: Scenario,
}

/// How a moldable job's table is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary)]
enum TableShape {
    /// t non-increasing and p·t(p) non-decreasing (the moldable paper's monotonic model).
    Monotonic,
    /// Any positive times (the paper's "arbitrary" model).
    Arbitrary,
}

impl Case {
    /// Draws a case within `scope` from `u`. Never fails on short input (missing bytes read as 0).
    pub fn from_unstructured(u: &mut Unstructured<'_>, scope: Scope) -> Result<Case> {
        let procs = u.int_in_range(1..=scope.max_procs.max(1))?;
        let n = u.int_in_range(1..=scope.max_jobs.max(1))?;
        let mut jobs = Vec::with_capacity(n);
        for j in 0..n {
            let moldable =
                scope.moldable_weight > 0 && u.int_in_range(0..=254u8)? < scope.moldable_weight;
            let name = format!("J{}", j + 1);
            if moldable {
                let shape = TableShape::arbitrary(u)?;
                let times = match shape {
                    TableShape::Monotonic => monotonic_table(u, procs, scope)?,
                    TableShape::Arbitrary => (0..procs)
                        .map(|_| small_time(u, scope))
                        .collect::<Result<Vec<_>>>()?,
                };
                let model = SpeedupModel::Table {
                    times: times.clone(),
                    monotonic: shape == TableShape::Monotonic,
                };
                jobs.push(Job {
                    name,
                    profile: Profile::Moldable { model, times },
                });
            } else {
                let p = u.int_in_range(1..=procs)?;
                jobs.push(Job::rigid(name, p, small_time(u, scope)?));
            }
        }
        let failures = (0..n)
            .map(|_| u.int_in_range(0..=scope.max_failures))
            .collect::<Result<Vec<_>>>()?;
        // Every draw above respects the instance rules, so validation cannot fail; if it ever
        // did, that is a bug in this generator and the fuzzer should see it as an error input.
        let instance = Instance::new(procs, jobs).map_err(|_| arbitrary::Error::IncorrectFormat)?;
        Ok(Case {
            instance,
            scenario: Scenario::new(failures),
        })
    }

    /// Draws a case within `scope` from a byte string.
    pub fn from_bytes(bytes: &[u8], scope: Scope) -> Result<Case> {
        Case::from_unstructured(&mut Unstructured::new(bytes), scope)
    }
}

/// `num/den` with num in 1..=max_num, den in 1..=max_den.
fn small_time(u: &mut Unstructured<'_>, scope: Scope) -> Result<Time> {
    let num = u.int_in_range(1..=scope.max_num.max(1))?;
    let den = u.int_in_range(1..=scope.max_den.max(1))?;
    Time::new(num, den).ok_or(arbitrary::Error::IncorrectFormat)
}

/// A monotonic table: t(1) drawn, then each t(p) chosen between the two limits monotonicity
/// allows, t(p) ∈ [(p−1)/p · t(p−1), t(p−1)], at one of a few exact points of that interval.
fn monotonic_table(u: &mut Unstructured<'_>, procs: u32, scope: Scope) -> Result<Vec<Time>> {
    let mut times = Vec::with_capacity(procs as usize);
    let mut prev = small_time(u, scope)?;
    times.push(prev.clone());
    for p in 2..=u64::from(procs) {
        let lo = prev
            .mul_int(p - 1)
            .div_int(p)
            .ok_or(arbitrary::Error::IncorrectFormat)?;
        // k/4 of the way from lo to prev: 0 = perfect speedup, 4 = no speedup at all.
        let k = u.int_in_range(0..=4u64)?;
        let span = &prev - &lo;
        let t = &lo
            + &span
                .mul_int(k)
                .div_int(4)
                .ok_or(arbitrary::Error::IncorrectFormat)?;
        times.push(t.clone());
        prev = t;
    }
    Ok(times)
}

impl<'a> Arbitrary<'a> for Case {
    /// A rigid case in [`Scope::RIGID`].
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Case::from_unstructured(u, Scope::RIGID)
    }
}

/// A moldable case in [`Scope::MOLDABLE`] (for fuzz targets that want moldable jobs).
#[derive(Debug, Clone, PartialEq)]
pub struct MoldableCase(pub Case);

impl<'a> Arbitrary<'a> for MoldableCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Case::from_unstructured(u, Scope::MOLDABLE).map(MoldableCase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::speedup::check_monotonic;

    #[test]
    fn every_byte_string_gives_a_valid_case() {
        // A fixed pseudo-random byte stream (xorshift, seed printed on failure).
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for len in [0usize, 1, 3, 17, 64, 300, 2000] {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x as u8
                    })
                    .collect();
                for scope in [
                    Scope::RIGID,
                    Scope::MOLDABLE,
                    Scope::MIXED,
                    Scope::TINY,
                    Scope::LARGE,
                ] {
                    let c = Case::from_bytes(&bytes, scope)
                        .unwrap_or_else(|e| panic!("{e} on {bytes:?}"));
                    c.instance.validate().unwrap();
                    c.scenario.validate(&c.instance).unwrap();
                    assert!(
                        c.instance.procs <= scope.max_procs && c.instance.len() <= scope.max_jobs
                    );
                    assert!(c.scenario.failures.iter().all(|&f| f <= scope.max_failures));
                    for job in &c.instance.jobs {
                        if let Profile::Moldable {
                            model:
                                SpeedupModel::Table {
                                    monotonic: true, ..
                                },
                            times,
                        } = &job.profile
                        {
                            check_monotonic(times, "t").unwrap();
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn empty_input_is_the_smallest_case() {
        let c = Case::from_bytes(&[], Scope::RIGID).unwrap();
        assert_eq!(c.instance.procs, 1);
        assert_eq!(c.instance.len(), 1);
        assert_eq!(c.scenario.failures, vec![0]);
    }
}
