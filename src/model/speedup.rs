//! Speedup models of moldable jobs: how the execution time t_j(p) of a job depends on the number
//! of processors p (moldable paper, Section 3.1).
//!
//! A model is turned into an exact table t(1..=P) once, when an instance is validated; every
//! algorithm, bound and check then reads the table only.
//!
//! # JSON (`"speedup": {"model": ..., ...}` in a job of an instance file)
//! | `model`         | fields                           | t(p)                                         |
//! |-----------------|----------------------------------|----------------------------------------------|
//! | `roofline`      | `w` > 0, `pbar` ∈ 1..=P          | w / min(p, p̄)                               |
//! | `communication` | `w` > 0, `c` ≥ 0                 | w/p + (p−1)·c                                |
//! | `amdahl`        | `w` > 0, `gamma` ∈ \[0,1\]       | w·((1−γ)/p + γ)                              |
//! | `mix`           | `w` > 0, `gamma` ∈ \[0,1\], `pbar` ∈ 1..=P, `c` ≥ 0 | w(1−γ)/min(p,p̄) + wγ + (p−1)c |
//! | `power`         | `w` > 0, `delta` ∈ \[0,1\]       | w / ρ(p), ρ(p) ≈ p^δ (rule below)            |
//! | `monotonic`     | `times` (P entries)              | the table; must be monotonic                 |
//! | `arbitrary`     | `times` (P entries)              | the table, any positive values               |
//! | `table`         | `times`, optional `monotonic`    | the table (monotonic checked if set)         |
//! | `rounded`       | `bits` ≤ 40, `of` (a model)      | ⌈2^bits·t_of(p)⌉ / 2^bits                    |
//!
//! `w` is the total work t(1) (for `roofline`, `communication`, `amdahl`, `mix` and `power`
//! alike), `pbar` the bounded degree of parallelism p̄, `c` the per-processor communication
//! overhead, `gamma` the sequential fraction γ, `delta` the exponent δ. Every number is an exact
//! rational (`10`, `"3/4"`, `"0.125"`). "Monotonic" means t non-increasing and the area p·t(p)
//! non-decreasing (Section 3.1); the error names the first p that breaks it.
//!
//! # The power model's rule (p^δ is irrational)
//! ρ(p) is p^δ rounded to the nearest multiple of 2^−24 ([`POWER_GRID_BITS`]), computed by a
//! certified integer algorithm, then repaired so that the table is monotonic:
//! 1. δ = 0 gives ρ ≡ 1 and δ = 1 gives ρ(p) = p exactly.
//! 2. Otherwise v ≈ p^δ = 2^(δ·log2 p) is computed in 64.64 fixed point with integer operations
//!    only (bit-by-bit log2 by repeated squaring; exp2 as a product of the constants 2^(2^−i),
//!    each an integer square root): the result is bit-identical on every machine. The error
//!    analysis in `power_root` bounds |v − p^δ| ≤ 2^−28 for every p ≤ 2^24.
//! 3. ρ(p) is the multiple of 2^−24 nearest to v. Because 2^−28 is far below half the grid,
//!    this is the multiple nearest to the true p^δ except when p^δ lies within 2^−28 of a
//!    midpoint; then (the enclosure cannot decide) the lower multiple is taken. Either way
//!    |ρ(p) − p^δ| ≤ 2^−24, and exact values (4^(1/2) = 2) come out exact.
//! 4. Monotonicity repair (exact): ρ(1) = 1 and ρ(p) is clamped to
//!    [ρ(p−1), ρ(p−1)·p/(p−1)], so t = w/ρ is non-increasing and p·t(p) non-decreasing. The
//!    clamp only moves a value when rounding broke an order the true p^δ keeps, i.e. by at most
//!    one grid step.
//!
//! # Rounded models (`rounded`: a table on a time grid)
//! Exact tables of the Amdahl and mix models have denominators of up to 10^13·p, and the power
//! model's w/ρ(p) a different 24-bit denominator for every p: a schedule's instants are sums of
//! such times, whose denominators grow with every event (the lcm of all the denominators met),
//! and exact arithmetic on them can dominate a simulation. `{"model": "rounded", "bits": b, "of":
//! {...}}` rounds every t(p) of the inner model *up* to a multiple of 2^−b; then every instant
//! of every schedule is a multiple of 2^−b and all arithmetic stays in 64-bit integers. The
//! schedule on the rounded table is still computed exactly; only the instance differs from the
//! real-valued model, by less than 2^−b seconds per attempt (2^−20 s ≈ 1 µs with
//! `resched experiment --time-grid 20` on the synthetic sets, whose times are between 0.6 s and
//! 4·10^6 s). Rounding up keeps t
//! non-increasing and keeps t(1) = w exact for an integer w, so the least area is still at p = 1
//! for every model whose exact least area is there (MINAREA's choice is unchanged); the area
//! p·t(p) may lose its monotonicity by less than p·2^−b, so a rounded model is an arbitrary
//! table for the model-specific bounds ([`ModelKind::Arbitrary`]).
use crate::error::FieldError;
use crate::time::Time;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde::Serialize;
use std::sync::OnceLock;

/// A speedup model with its parameters, as written in an instance file.
///
/// Written as an internally tagged object (`{"model": "amdahl", "w": 10, "gamma": "0.2"}`); read
/// by the hand-written `Deserialize` of `speedup_json.rs`, which reads every number exactly and
/// names the parameter that is missing or foreign to the model.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "model", rename_all = "lowercase")]
pub enum SpeedupModel {
    /// An explicit table `times[p-1] = t(p)` for p = 1..=P. With `monotonic` set, t must be
    /// non-increasing and the area p·t(p) non-decreasing.
    Table {
        times: Vec<Time>,
        #[serde(default)]
        monotonic: bool,
    },
    /// The monotonic model: an explicit table that must be monotonic.
    Monotonic { times: Vec<Time> },
    /// The arbitrary model: an explicit table of positive times.
    Arbitrary { times: Vec<Time> },
    /// Roofline: t(p) = w / min(p, p̄).
    Roofline { w: Time, pbar: u32 },
    /// Communication: t(p) = w/p + (p−1)·c.
    Communication { w: Time, c: Time },
    /// Amdahl: t(p) = w·((1−γ)/p + γ).
    Amdahl { w: Time, gamma: Time },
    /// Mix: t(p) = w(1−γ)/min(p, p̄) + wγ + (p−1)·c.
    Mix {
        w: Time,
        gamma: Time,
        pbar: u32,
        c: Time,
    },
    /// Power: t(p) = w / p^δ, with p^δ made rational by the rule of the module doc.
    Power { w: Time, delta: Time },
    /// Another model's table rounded up to the grid of step 2^−`bits` seconds:
    /// t(p) = ⌈2^bits·t_of(p)⌉ / 2^bits (module doc, "Rounded models").
    Rounded { bits: u32, of: Box<SpeedupModel> },
}

/// The finest grid a [`SpeedupModel::Rounded`] accepts (2^−40 s ≈ 1 ps).
pub const MAX_GRID_BITS: u32 = 40;

/// The kind of a model, for the model-specific bounds of LPA-LIST (Theorems 1, 2, 4, 6, 8, 9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelKind {
    Roofline,
    Communication,
    Amdahl,
    Mix,
    Power,
    Monotonic,
    Arbitrary,
}

/// ρ(p) is rounded to multiples of 2^−POWER_GRID_BITS.
pub const POWER_GRID_BITS: u32 = 24;

impl SpeedupModel {
    /// Which family the model belongs to (a `table` with `monotonic` set counts as monotonic).
    pub fn kind(&self) -> ModelKind {
        match self {
            SpeedupModel::Table {
                monotonic: true, ..
            }
            | SpeedupModel::Monotonic { .. } => ModelKind::Monotonic,
            SpeedupModel::Table { .. } | SpeedupModel::Arbitrary { .. } => ModelKind::Arbitrary,
            SpeedupModel::Roofline { .. } => ModelKind::Roofline,
            SpeedupModel::Communication { .. } => ModelKind::Communication,
            SpeedupModel::Amdahl { .. } => ModelKind::Amdahl,
            SpeedupModel::Mix { .. } => ModelKind::Mix,
            SpeedupModel::Power { .. } => ModelKind::Power,
            // Rounding keeps t non-increasing but not p·t(p) non-decreasing, and the model
            // theorems are proven for the exact model: no model bound is claimed.
            SpeedupModel::Rounded { .. } => ModelKind::Arbitrary,
        }
    }

    /// The exact table t(1..=P). `field` is the path of the model in the input, for errors
    /// (e.g. `jobs[2].speedup`; a bad γ is then reported as `jobs[2].speedup.gamma`).
    pub fn table(&self, procs: u32, field: &str) -> Result<Vec<Time>, FieldError> {
        if procs == 0 {
            return Err(FieldError::new("processors", "must be at least 1"));
        }
        if let Some((a, b, c, pbar)) = self.affine(procs, field)? {
            return Ok(affine_table(&a, &b, &c, pbar, procs));
        }
        let times = match self {
            SpeedupModel::Table { times, monotonic } => explicit(times, *monotonic, procs, field)?,
            SpeedupModel::Monotonic { times } => explicit(times, true, procs, field)?,
            SpeedupModel::Arbitrary { times } => explicit(times, false, procs, field)?,
            SpeedupModel::Power { w, delta } => {
                positive(w, field, "w")?;
                unit_interval(delta, field, "delta")?;
                power_times(w, delta, procs)
            }
            SpeedupModel::Rounded { bits, of } => {
                if *bits > MAX_GRID_BITS {
                    return Err(FieldError::new(
                        format!("{field}.bits"),
                        format!("{bits} is above {MAX_GRID_BITS} (a grid finer than 2^-{MAX_GRID_BITS} s)"),
                    ));
                }
                let inner = format!("{field}.of");
                if matches!(**of, SpeedupModel::Rounded { .. }) {
                    return Err(FieldError::new(
                        inner,
                        "a rounded model cannot be rounded again",
                    ));
                }
                match of.affine(procs, &inner)? {
                    Some((a, b, c, pbar)) => rounded_affine_table(&a, &b, &c, pbar, procs, *bits),
                    None => of
                        .table(procs, &inner)?
                        .iter()
                        .map(|t| ceil_to_grid(t, *bits))
                        .collect(),
                }
            }
            // Affine models returned above.
            SpeedupModel::Roofline { .. }
            | SpeedupModel::Communication { .. }
            | SpeedupModel::Amdahl { .. }
            | SpeedupModel::Mix { .. } => Vec::new(),
        };
        Ok(times)
    }

    /// The validated parameters (a, b, c, p̄) of t(p) = a/min(p, p̄) + b + (p−1)·c for the
    /// roofline, communication, Amdahl and mix models; `None` for the other models.
    fn affine(
        &self,
        procs: u32,
        field: &str,
    ) -> Result<Option<(Time, Time, Time, u32)>, FieldError> {
        let params = match self {
            SpeedupModel::Roofline { w, pbar } => {
                positive(w, field, "w")?;
                pbar_in_range(*pbar, procs, field)?;
                (w.clone(), Time::zero(), Time::zero(), *pbar)
            }
            SpeedupModel::Communication { w, c } => {
                positive(w, field, "w")?;
                non_negative(c, field, "c")?;
                (w.clone(), Time::zero(), c.clone(), procs)
            }
            SpeedupModel::Amdahl { w, gamma } => {
                positive(w, field, "w")?;
                unit_interval(gamma, field, "gamma")?;
                (w * &(Time::one() - gamma), w * gamma, Time::zero(), procs)
            }
            SpeedupModel::Mix { w, gamma, pbar, c } => {
                positive(w, field, "w")?;
                unit_interval(gamma, field, "gamma")?;
                pbar_in_range(*pbar, procs, field)?;
                non_negative(c, field, "c")?;
                (w * &(Time::one() - gamma), w * gamma, c.clone(), *pbar)
            }
            _ => return Ok(None),
        };
        Ok(Some(params))
    }
}

/// t(p) = a/min(p, p̄) + b + (p−1)·c for p = 1..=P: the roofline, communication, Amdahl and mix
/// models are all of this form. Each value is computed over one common denominator in i128 and
/// normalised once (a few integer operations instead of four rational ones); when the i128 form
/// overflows, the same value is computed with [`Time`] operations. Both paths give the same
/// exact rational (unit test `affine_fast_path_is_exact`).
fn affine_table(a: &Time, b: &Time, c: &Time, pbar: u32, procs: u32) -> Vec<Time> {
    let slow = |p: u32| affine_value(a, b, c, pbar, p);
    let (Some(a), Some(b), Some(c)) = (a.as_small(), b.as_small(), c.as_small()) else {
        return (1..=procs).map(slow).collect();
    };
    let (an, ad) = (i128::from(*a.numer()), i128::from(*a.denom()));
    let (bn, bd) = (i128::from(*b.numer()), i128::from(*b.denom()));
    let (cn, cd) = (i128::from(*c.numer()), i128::from(*c.denom()));
    let fast = |p: u32| -> Option<Time> {
        let m = i128::from(p.min(pbar));
        let k = i128::from(p - 1);
        // a/(ad·m) + b + k·c over ad·m·bd·cd.
        let bc = bn
            .checked_mul(cd)?
            .checked_add(k.checked_mul(cn)?.checked_mul(bd)?)?;
        let num = an
            .checked_mul(bd)?
            .checked_mul(cd)?
            .checked_add(ad.checked_mul(m)?.checked_mul(bc)?)?;
        let den = ad.checked_mul(m)?.checked_mul(bd)?.checked_mul(cd)?;
        let g = num_integer::Integer::gcd(&num, &den);
        let (n, d) = (i64::try_from(num / g).ok()?, u64::try_from(den / g).ok()?);
        Time::from_int(n).div_int(d)
    };
    (1..=procs)
        // default: the exact slow path when the fast integer path does not apply
        .map(|p| fast(p).unwrap_or_else(|| slow(p)))
        .collect()
}

/// a/min(p, p̄) + b + (p−1)·c with [`Time`] operations (p ≥ 1).
fn affine_value(a: &Time, b: &Time, c: &Time, pbar: u32, p: u32) -> Time {
    &(&div(a, p.min(pbar)) + b) + &c.mul_int(u64::from(p.max(1) - 1))
}

/// ⌈t·2^bits⌉ / 2^bits: `t` rounded up to the grid of step 2^−bits (the rule of
/// [`SpeedupModel::Rounded`]).
pub fn ceil_to_grid(t: &Time, bits: u32) -> Time {
    let scale = BigInt::from(1u8) << bits;
    let (n, d) = (t.numer(), t.denom());
    // d > 0: the ceiling of n·2^bits / d.
    let k = (n * &scale).div_ceil(&d);
    Time::from_big(BigRational::new(k, scale))
}

/// [`affine_table`] rounded up to the grid of step 2^−bits. The ceiling of 2^bits·t(p) is
/// computed term by term in u128 — ⌊2^bits·a/m⌋, ⌊2^bits·b⌋, ⌊2^bits·(p−1)·c⌋ and their
/// remainders, whose sum of fractions (in [0, 3)) decides how many units to add — so the
/// exact t(p), whose numerator and denominator exceed 64 bits on the Amdahl and mix models,
/// is never built. When a product overflows, the value goes through [`ceil_to_grid`] on the
/// exact t(p); both give the same grid value (unit test `rounded_fast_path_is_exact`).
fn rounded_affine_table(
    a: &Time,
    b: &Time,
    c: &Time,
    pbar: u32,
    procs: u32,
    bits: u32,
) -> Vec<Time> {
    let slow = |p: u32| ceil_to_grid(&affine_value(a, b, c, pbar, p), bits);
    let parts = |x: &Time| -> Option<(u128, u128)> {
        let r = x.as_small()?;
        Some((
            u128::try_from(*r.numer()).ok()?,
            u128::try_from(*r.denom()).ok()?,
        ))
    };
    let (Some((an, ad)), Some((bn, bd)), Some((cn, cd))) = (parts(a), parts(b), parts(c)) else {
        return (1..=procs).map(slow).collect();
    };
    let scale: u128 = 1 << bits;
    let fast = |p: u32| -> Option<Time> {
        let m = u128::from(p.min(pbar));
        let k = u128::from(p - 1);
        let d1 = ad.checked_mul(m)?;
        let n1 = scale.checked_mul(an)?;
        let n2 = scale.checked_mul(bn)?;
        let n3 = scale.checked_mul(k)?.checked_mul(cn)?;
        let (q1, r1) = (n1 / d1, n1 % d1);
        let (q2, r2) = (n2 / bd, n2 % bd);
        let (q3, r3) = (n3 / cd, n3 % cd);
        let mut q = q1.checked_add(q2)?.checked_add(q3)?;
        if r1 != 0 || r2 != 0 || r3 != 0 {
            // r1/d1 + r2/bd + r3/cd ∈ (0, 3) over the common denominator d1·bd·cd.
            let den = d1.checked_mul(bd)?.checked_mul(cd)?;
            let num = r1
                .checked_mul(bd)?
                .checked_mul(cd)?
                .checked_add(r2.checked_mul(d1)?.checked_mul(cd)?)?
                .checked_add(r3.checked_mul(d1)?.checked_mul(bd)?)?;
            q += if num <= den {
                1
            } else if num <= den.checked_mul(2)? {
                2
            } else {
                3
            };
        }
        Time::from_int(i64::try_from(q).ok()?).div_int(u64::try_from(scale).ok()?)
    };
    (1..=procs)
        // default: the exact slow path when the fast integer path does not apply
        .map(|p| fast(p).unwrap_or_else(|| slow(p)))
        .collect()
}

fn div(x: &Time, p: u32) -> Time {
    // p ≥ 1 everywhere this is called.
    // unreachable: p ≥ 1 everywhere this is called (comment above); `max(1)` keeps it total
    x.div_int(u64::from(p.max(1))).unwrap_or_else(|| x.clone())
}

fn explicit(
    times: &[Time],
    monotonic: bool,
    procs: u32,
    field: &str,
) -> Result<Vec<Time>, FieldError> {
    if times.len() != procs as usize {
        return Err(FieldError::new(
            format!("{field}.times"),
            format!(
                "has {} entries, expected one per processor count 1..={procs}",
                times.len()
            ),
        ));
    }
    for (i, t) in times.iter().enumerate() {
        if !t.is_positive() {
            return Err(FieldError::new(
                format!("{field}.times[{i}]"),
                format!("t({}) = {t} must be > 0", i + 1),
            ));
        }
    }
    if monotonic {
        check_monotonic(times, field)?;
    }
    Ok(times.to_vec())
}

fn positive(x: &Time, field: &str, name: &str) -> Result<(), FieldError> {
    if x.is_positive() {
        Ok(())
    } else {
        Err(FieldError::new(
            format!("{field}.{name}"),
            format!("{x} must be > 0"),
        ))
    }
}

fn non_negative(x: &Time, field: &str, name: &str) -> Result<(), FieldError> {
    if x.is_negative() {
        Err(FieldError::new(
            format!("{field}.{name}"),
            format!("{x} must be ≥ 0"),
        ))
    } else {
        Ok(())
    }
}

fn unit_interval(x: &Time, field: &str, name: &str) -> Result<(), FieldError> {
    if x.is_negative() || *x > Time::one() {
        Err(FieldError::new(
            format!("{field}.{name}"),
            format!("{x} is outside [0, 1]"),
        ))
    } else {
        Ok(())
    }
}

fn pbar_in_range(pbar: u32, procs: u32, field: &str) -> Result<(), FieldError> {
    if pbar == 0 || pbar > procs {
        Err(FieldError::new(
            format!("{field}.pbar"),
            format!("{pbar} is outside 1..={procs} (the platform's processors)"),
        ))
    } else {
        Ok(())
    }
}

/// Checks that t is non-increasing and p·t(p) non-decreasing; names the first p that breaks it.
pub fn check_monotonic(times: &[Time], field: &str) -> Result<(), FieldError> {
    for p in 2..=times.len() {
        let (prev, cur) = (&times[p - 2], &times[p - 1]);
        if cur > prev {
            return Err(FieldError::new(
                format!("{field}.times[{}]", p - 1),
                format!("not monotonic: t({p}) = {cur} > t({}) = {prev}", p - 1),
            ));
        }
        if cur.mul_int(p as u64) < prev.mul_int(p as u64 - 1) {
            return Err(FieldError::new(
                format!("{field}.times[{}]", p - 1),
                format!("not monotonic: area {p}·t({p}) < {}·t({})", p - 1, p - 1),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The power model: certified fixed-point p^δ (see the module doc).

/// 64.64 unsigned fixed point: the value v stands for v / 2^64.
const FRAC: u32 = 64;
const ONE: u128 = 1 << FRAC;

/// floor(a·b / 2^64) for a, b < 2^90 (exact: only the low-low product has a fractional part).
fn fx_mul(a: u128, b: u128) -> u128 {
    let mask = (1u128 << 64) - 1;
    let (a1, a0) = (a >> 64, a & mask);
    let (b1, b0) = (b >> 64, b & mask);
    ((a1 * b1) << 64) + a1 * b0 + a0 * b1 + ((a0 * b0) >> 64)
}

/// c[i-1] = floor(2^(2^−i) · 2^64) − e_i with 0 ≤ e_i ≤ 2 (chained floor square roots; an
/// error e in the argument of a square root near 1 becomes ≤ e/2 + 1 in its result).
fn exp2_constants() -> &'static [u128; 64] {
    static C: OnceLock<[u128; 64]> = OnceLock::new();
    C.get_or_init(|| {
        let mut c = [0u128; 64];
        let mut v = BigUint::from(2u32) << FRAC; // 2.0
        for slot in c.iter_mut() {
            v = (v << FRAC).sqrt();
            // unreachable: v < 2^65 after the square root of a 128-bit value
            *slot = v.to_u128().unwrap_or(ONE);
        }
        c
    })
}

/// Products of the constants by bytes: `t[k][m]` = Π c[i−1] over the set bits of m, bit b of m
/// standing for fraction bit i = 8k + 8 − b. Each entry is within 8·2 + 7 = 23 ulp (relative) of
/// the exact power of two it stands for, so exp2 by eight table products stays within
/// 8·(23 + 1) = 192 ulp < 2^−56 relative — inside the bound of [`power_root`].
fn exp2_tables() -> &'static [[u128; 256]; 8] {
    static T: OnceLock<Box<[[u128; 256]; 8]>> = OnceLock::new();
    T.get_or_init(|| {
        let c = exp2_constants();
        let mut t = Box::new([[ONE; 256]; 8]);
        for (k, row) in t.iter_mut().enumerate() {
            for (m, slot) in row.iter_mut().enumerate() {
                let mut r = ONE;
                for b in 0..8 {
                    if m & (1 << b) != 0 {
                        r = fx_mul(r, c[8 * k + 7 - b]);
                    }
                }
                *slot = r;
            }
        }
        t
    })
}

/// log2(p) in 64.64 fixed point for 1 ≤ p < 2^25, with |result − log2 p| ≤ 2^−61.
///
/// Bit-by-bit: with y = p/2^n ∈ [1, 2), square y; a result ≥ 2 yields bit 1 and is halved.
/// Each floor perturbs y_k by ≤ 2^−63 relatively, which moves the bits that follow by at most
/// 2^−k·2^−63/ln 2; summed over k with the truncation after 64 bits this is < 2^−61.
fn fx_log2(p: u64) -> u128 {
    let n = 63 - p.leading_zeros();
    let mut y: u128 = (u128::from(p) << FRAC) >> n;
    let mut out: u128 = u128::from(n) << FRAC;
    for i in 1..=FRAC {
        y = fx_mul(y, y);
        if y >= 2 * ONE {
            y >>= 1;
            out |= 1u128 << (FRAC - i);
        }
    }
    out
}

/// [`fx_log2`] with a per-thread cache for p ≤ 2^16 (it does not depend on δ, and every power
/// job of an instance needs the same p = 1..=P).
fn fx_log2_cached(p: u32) -> u128 {
    const CACHED: u32 = 1 << 16;
    thread_local! {
        static CACHE: std::cell::RefCell<Vec<u128>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if p > CACHED {
        return fx_log2(u64::from(p));
    }
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        while c.len() < p as usize {
            let q = c.len() as u64 + 1;
            c.push(fx_log2(q));
        }
        c[p as usize - 1]
    })
}

/// v ≈ p^δ in 64.64 fixed point for 0 < δ < 1, 1 ≤ p ≤ 2^24.
///
/// Error analysis (absolute, in units of the result): δ is truncated to 64 bits (error
/// ≤ 2^−64·log2 p ≤ 2^−59.3), log2 p carries ≤ 2^−61, the product one more ulp: the exponent
/// x = δ·log2 p is within 2^−58 of the truth, which moves 2^x by ≤ 2^x·ln2·2^−58 ≤ 2^−34 (x ≤ 24).
/// exp2 of the fraction is a product of eight table entries (see [`exp2_tables`]): relative
/// error < 2^−55, i.e. ≤ 2^(24−55) = 2^−31 after the shift by the integer part. Total < 2^−30,
/// below the 2^−28 the rounding rule assumes.
fn power_root(p: u32, delta_fx: u128) -> u128 {
    let x = fx_mul(delta_fx, fx_log2_cached(p));
    let (int, frac) = (x >> FRAC, x & (ONE - 1));
    let t = exp2_tables();
    let mut r = ONE;
    for (k, row) in t.iter().enumerate() {
        let m = ((frac >> (FRAC - 8 * (k as u32 + 1))) & 0xff) as usize;
        if m != 0 {
            r = fx_mul(r, row[m]);
        }
    }
    r << int
}

/// ρ(p) before it becomes a time: a grid value k/2^24, or (after a repair) any rational.
enum Rho {
    Grid(u64),
    Rat(Time),
}

impl Rho {
    fn to_time(&self) -> Time {
        match self {
            Rho::Grid(k) => Time::from_int(*k as i64)
                .div_int(1 << POWER_GRID_BITS)
                // unreachable: the divisor is the literal 2^POWER_GRID_BITS
                .unwrap_or_else(Time::one),
            Rho::Rat(t) => t.clone(),
        }
    }
}

/// ρ(1..=P) for the power model (rule of the module doc).
fn power_rho_raw(delta: &Time, procs: u32) -> Vec<Rho> {
    let grid = 1u64 << POWER_GRID_BITS;
    if delta.is_zero() {
        return (0..procs).map(|_| Rho::Grid(grid)).collect();
    }
    if *delta == Time::one() {
        return (1..=procs)
            .map(|p| Rho::Grid(u64::from(p) << POWER_GRID_BITS))
            .collect();
    }
    // floor(δ·2^64) for 0 < δ < 1.
    let scaled = (delta.numer() << FRAC) / delta.denom();
    // unreachable: 0 < δ < 1, so ⌊δ·2^64⌋ < 2^64 fits
    let delta_fx = scaled.to_u128().unwrap_or(0);
    let grid_shift = FRAC - POWER_GRID_BITS; // a grid step is 2^grid_shift fixed-point units
    let err: u128 = 1 << (FRAC - 28);
    let half: u128 = 1 << (grid_shift - 1);
    let mut out: Vec<Rho> = Vec::with_capacity(procs as usize);
    for p in 1..=procs {
        let k: u64 = if p == 1 {
            grid
        } else {
            let v = power_root(p, delta_fx);
            // Nearest grid multiple; if [v − err, v + err] holds a midpoint, the lower multiple.
            let k_low = v >> grid_shift;
            let rem = v - (k_low << grid_shift);
            let k = if rem >= half + err { k_low + 1 } else { k_low };
            // unreachable: ρ(p) ≤ p ≤ 2^24 on a 2^24 grid, so k < 2^48
            u64::try_from(k).unwrap_or(u64::MAX)
        };
        // Repair: clamp to [ρ(p−1), ρ(p−1)·p/(p−1)] (integers while both are grid values).
        let rho = match out.last() {
            None => Rho::Grid(k),
            Some(Rho::Grid(kp)) => {
                let (k128, kp128, p128) = (u128::from(k), u128::from(*kp), u128::from(p));
                if k < *kp {
                    Rho::Grid(*kp)
                } else if k128 * (p128 - 1) > kp128 * p128 {
                    Rho::Rat(
                        Time::from_int(*kp as i64)
                            .mul_int(u64::from(p))
                            .div_int((u64::from(p) - 1) << POWER_GRID_BITS)
                            // unreachable: p ≥ 2 here, the divisor is nonzero
                            .unwrap_or_else(Time::one),
                    )
                } else {
                    Rho::Grid(k)
                }
            }
            Some(Rho::Rat(prev)) => {
                let cand = Rho::Grid(k).to_time();
                let cap = prev
                    .mul_int(u64::from(p))
                    .div_int(u64::from(p - 1))
                    // unreachable: p ≥ 2 here, the divisor is nonzero
                    .unwrap_or_else(|| prev.clone());
                if cand < *prev {
                    Rho::Rat(prev.clone())
                } else if cand > cap {
                    Rho::Rat(cap)
                } else {
                    Rho::Grid(k)
                }
            }
        };
        out.push(rho);
    }
    out
}

/// ρ(1..=P) as exact rationals (the tests read the rule through it).
#[cfg(test)]
fn power_rho(delta: &Time, procs: u32) -> Vec<Time> {
    power_rho_raw(delta, procs)
        .iter()
        .map(Rho::to_time)
        .collect()
}

/// t(1..=P) = w/ρ(p) of the power model.
fn power_times(w: &Time, delta: &Time, procs: u32) -> Vec<Time> {
    let w_grid = w.mul_int(1 << POWER_GRID_BITS);
    power_rho_raw(delta, procs)
        .iter()
        .map(|r| match r {
            // unreachable: grid values are ≥ 1 (ρ(1) = 1 and ρ is non-decreasing)
            Rho::Grid(k) => w_grid.div_int(*k).unwrap_or_else(|| w.clone()),
            Rho::Rat(t) => w / t,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Instance;
    use num_bigint::BigInt;

    fn t(s: &str) -> Time {
        s.parse().unwrap()
    }

    fn job(json: &str, procs: u32) -> Result<Instance, crate::Error> {
        Instance::from_json_str(
            &format!(
                r#"{{"processors": {procs}, "jobs": [{{"name":"a","procs":1,"time":1}}, {{"speedup": {json}}}]}}"#
            ),
            "m.json",
        )
    }

    #[test]
    fn model_tables_are_exact() {
        let i = job(r#"{"model":"roofline","w":10,"pbar":3}"#, 4).unwrap();
        let tab: Vec<_> = (1..=4)
            .map(|p| i.jobs[1].time(p).unwrap().clone())
            .collect();
        assert_eq!(tab, vec![t("10"), t("5"), t("10/3"), t("10/3")]);
        let i = job(r#"{"model":"communication","w":12,"c":"1/2"}"#, 3).unwrap();
        assert_eq!(i.jobs[1].time(3).unwrap(), &t("5")); // 4 + 2·1/2
        let i = job(r#"{"model":"amdahl","w":10,"gamma":"0.2"}"#, 4).unwrap();
        assert_eq!(i.jobs[1].time(4).unwrap(), &t("4")); // 10·(0.8/4 + 0.2)
        let i = job(r#"{"model":"mix","w":10,"gamma":"1/5","pbar":2,"c":1}"#, 4).unwrap();
        assert_eq!(i.jobs[1].time(4).unwrap(), &t("9")); // 8/2 + 2 + 3
        let i = job(r#"{"model":"monotonic","times":[4,3,"5/2",2]}"#, 4).unwrap();
        assert_eq!(i.jobs[1].time(3).unwrap(), &t("5/2"));
        let i = job(r#"{"model":"arbitrary","times":[4,5,1,2]}"#, 4).unwrap();
        assert_eq!(i.jobs[1].time(2).unwrap(), &t("5"));
        assert_eq!(
            job(r#"{"model":"power","w":10,"delta":0}"#, 3)
                .unwrap()
                .jobs[1]
                .time(3)
                .unwrap(),
            &t("10")
        );
        assert_eq!(
            job(r#"{"model":"power","w":10,"delta":1}"#, 3)
                .unwrap()
                .jobs[1]
                .time(3)
                .unwrap(),
            &t("10/3")
        );
        // Exact powers come out exact: 4^(1/2) = 2, 8^(1/3) = 2, 16^(3/4) = 8.
        let i = job(r#"{"model":"power","w":8,"delta":"1/2"}"#, 16).unwrap();
        assert_eq!(i.jobs[1].time(4).unwrap(), &t("4"));
        assert_eq!(i.jobs[1].time(16).unwrap(), &t("2"));
        let i = job(r#"{"model":"power","w":8,"delta":"1/3"}"#, 8).unwrap();
        assert_eq!(i.jobs[1].time(8).unwrap(), &t("4"));
        let i = job(r#"{"model":"power","w":8,"delta":"3/4"}"#, 16).unwrap();
        assert_eq!(i.jobs[1].time(16).unwrap(), &t("1"));
    }

    #[test]
    fn bad_parameters_name_the_field() {
        let cases = [
            (
                r#"{"model":"amdahl","w":10,"gamma":"1.5"}"#,
                "jobs[1].speedup.gamma",
            ),
            (
                r#"{"model":"amdahl","w":10,"gamma":"-1/2"}"#,
                "jobs[1].speedup.gamma",
            ),
            (
                r#"{"model":"power","w":10,"delta":2}"#,
                "jobs[1].speedup.delta",
            ),
            (
                r#"{"model":"roofline","w":10,"pbar":5}"#,
                "jobs[1].speedup.pbar",
            ),
            (
                r#"{"model":"roofline","w":10,"pbar":0}"#,
                "jobs[1].speedup.pbar",
            ),
            (
                r#"{"model":"communication","w":10,"c":"-1"}"#,
                "jobs[1].speedup.c",
            ),
            (
                r#"{"model":"communication","w":"-10","c":"1"}"#,
                "jobs[1].speedup.w",
            ),
            (
                r#"{"model":"mix","w":0,"gamma":0,"pbar":1,"c":0}"#,
                "jobs[1].speedup.w",
            ),
            (
                r#"{"model":"mix","w":1,"gamma":0,"pbar":9,"c":0}"#,
                "jobs[1].speedup.pbar",
            ),
            (
                r#"{"model":"arbitrary","times":[1,2,3]}"#,
                "jobs[1].speedup.times",
            ),
            (
                r#"{"model":"monotonic","times":[4,3,4,2]}"#,
                "jobs[1].speedup.times[2]",
            ),
            (
                r#"{"model":"monotonic","times":[4,1,1,1]}"#,
                "jobs[1].speedup.times[1]",
            ),
            (
                r#"{"model":"arbitrary","times":[4,0,1,1]}"#,
                "jobs[1].speedup.times[1]",
            ),
        ];
        for (json, field) in cases {
            let e = job(json, 4).unwrap_err().to_string();
            assert!(e.contains(&format!("`{field}`")), "{json}: {e}");
        }
        let e = job(r#"{"model":"roofline","w":10,"pbar":2,"gamma":1}"#, 4)
            .unwrap_err()
            .to_string();
        assert!(e.contains("gamma"), "{e}");
    }

    #[test]
    fn affine_fast_path_is_exact() {
        let vals = [
            "0",
            "1",
            "3/7",
            "1e6",
            "4000000",
            "1/3000000",
            "123456789/1000",
            "9223372036854775807",
        ];
        for a in &vals[1..] {
            for b in vals {
                for c in vals {
                    let (a, b, c) = (t(a), t(b), t(c));
                    let got = affine_table(&a, &b, &c, 5, 9);
                    for p in 1..=9u32 {
                        let want = &(&a.div_int(u64::from(p.min(5))).unwrap() + &b)
                            + &c.mul_int(u64::from(p - 1));
                        assert_eq!(got[p as usize - 1], want, "a={a} b={b} c={c} p={p}");
                    }
                }
            }
        }
    }

    /// The u128 term-by-term ceiling equals the ceiling of the exact value, including values
    /// on the grid (no rounding), values just above it, and parameters whose products overflow.
    #[test]
    fn rounded_fast_path_is_exact() {
        let vals = [
            "0",
            "1",
            "3/7",
            "4000000",
            "1/3000000",
            "39999999999999/10000000000000",
            "123456789/1000",
            "1/1048576",
            "9223372036854775807",
        ];
        for bits in [0u32, 1, 20, 40] {
            for a in &vals[1..] {
                for b in vals {
                    for c in vals {
                        let (a, b, c) = (t(a), t(b), t(c));
                        let got = rounded_affine_table(&a, &b, &c, 5, 9, bits);
                        for p in 1..=9u32 {
                            let exact = affine_value(&a, &b, &c, 5, p);
                            let want = ceil_to_grid(&exact, bits);
                            assert_eq!(
                                got[p as usize - 1],
                                want,
                                "a={a} b={b} c={c} p={p} bits={bits}"
                            );
                            // The grid value is the least multiple of 2^-bits at or above t.
                            let step = Time::new(1, 1i64 << bits).unwrap();
                            assert!(want >= exact && &want - &step < exact, "{want} vs {exact}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rounded_models_read_and_validate() {
        let i = job(
            r#"{"model":"rounded","bits":2,"of":{"model":"amdahl","w":10,"gamma":"1/3"}}"#,
            4,
        )
        .unwrap();
        // t(3) = 10(2/9 + 1/3) = 50/9 = 5.555… → 23/4; t(1) = w stays exact.
        assert_eq!(i.jobs[1].time(3).unwrap(), &t("23/4"));
        assert_eq!(i.jobs[1].time(1).unwrap(), &t("10"));
        let i = job(
            r#"{"model":"rounded","bits":3,"of":{"model":"power","w":8,"delta":"1/2"}}"#,
            16,
        )
        .unwrap();
        assert_eq!(i.jobs[1].time(4).unwrap(), &t("4"));
        assert_eq!(i.jobs[1].time(2).unwrap(), &t("46/8")); // 8/√2 = 5.657 → 5.75
        for (json, field) in [
            (
                r#"{"model":"rounded","bits":41,"of":{"model":"roofline","w":1,"pbar":1}}"#,
                "jobs[1].speedup.bits",
            ),
            (
                r#"{"model":"rounded","bits":4,"of":{"model":"amdahl","w":1,"gamma":2}}"#,
                "jobs[1].speedup.of.gamma",
            ),
            (
                r#"{"model":"rounded","bits":4,"of":{"model":"rounded","bits":4,"of":{"model":"roofline","w":1,"pbar":1}}}"#,
                "jobs[1].speedup.of",
            ),
        ] {
            let e = job(json, 4).unwrap_err().to_string();
            assert!(e.contains(field), "{json}: {e}");
        }
    }

    /// The certified rounding against exact integer roots: for δ = a/b, ρ = k/2^24 must satisfy
    /// |ρ − p^δ| ≤ 2^−24, i.e. (k−1)^b ≤ p^a·2^(24b) ≤ (k+1)^b.
    #[test]
    fn power_rounding_is_certified() {
        for (a, b) in [
            (1u32, 2u32),
            (1, 3),
            (2, 3),
            (3, 7),
            (1, 10),
            (9, 10),
            (5, 8),
        ] {
            let delta = Time::new(i64::from(a), i64::from(b)).unwrap();
            let rho = power_rho(&delta, 300);
            for p in 1..=300u32 {
                let k = (&rho[p as usize - 1] * &Time::from_int(1 << POWER_GRID_BITS)).floor();
                let target = BigInt::from(p).pow(a) * (BigInt::from(1u64) << (POWER_GRID_BITS * b));
                assert!(
                    (&k - BigInt::from(1)).pow(b) <= target
                        && target <= (&k + BigInt::from(1)).pow(b),
                    "p={p} δ={a}/{b} k={k}"
                );
            }
            check_monotonic(
                &rho.iter().map(|r| Time::one() / r).collect::<Vec<_>>(),
                "x",
            )
            .unwrap();
        }
        // Large P: still monotonic, and ρ(P) within the grid of P^δ (compared in f64: display
        // precision is enough to catch a wrong exponent).
        let rho = power_rho(&t("0.37"), 7500);
        let last = rho[7499].to_f64();
        assert!((last - 7500f64.powf(0.37)).abs() < 1e-6, "{last}");
        check_monotonic(
            &rho.iter().map(|r| Time::one() / r).collect::<Vec<_>>(),
            "x",
        )
        .unwrap();
    }
}
