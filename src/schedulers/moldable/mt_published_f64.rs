//! MT-ALLOTMENT **as published, in their arithmetic**: the decision procedure of the authors'
//! simulator (GitHub lucasperotin/moldable-error, `moldableBatch.cpp`, `isAchievable` and
//! `assignProcsBatch`, commit c2caa58) evaluated with the same IEEE double and single-precision
//! expressions, in the same order, so that its choices among *exactly equal* options are the
//! ones their rounding makes. Only the allocation (one count per planned attempt) leaves this
//! module; the schedule built from it runs on the exact times of [`crate::time::Time`].
//!
//! # Why floats, and only here
//! Their D(X) gives each job the least-area count whose time fits the budget. On the roofline
//! model every p ≤ p̄ has the same exact area w, so the exact reading ([`super::mt_published`])
//! has nothing to choose: the fastest, p̄. Their code compares `p·(t(p)/Z)/P` in doubles, and
//! the count it keeps among those equal areas is the one whose rounding came out lowest (ties
//! of the doubles to the larger p, their strict `<`); which one that is changes with Z, i.e.
//! with every probe X of the bisection, and decides whether a job runs on p̄ processors or on
//! a handful. No exact rule reproduces that choice, so the "as published" variant evaluates the
//! decision as their code does (`Published::float_decisions`); on models whose areas strictly
//! increase with p (communication, Amdahl, mix) it makes the exact reading's choices, as the
//! differential test (`tests/peer_moldable.rs`) confirms on both.
//!
//! # The expressions (their names in brackets)
//! - t(p) in double \[`Task::time`\], from the model's parameters as their reader holds them
//!   (the decimals of the file, correctly rounded: [`nearest_f64`]): roofline
//!   `max(w/p, w/p̄)`, Amdahl `w·(γ + (1−γ)/p)`, communication `w/p + (p−1)·c`, mix
//!   `max(L/p, L/p̄) + S + (p−1)·c` (L = w(1−γ), S = wγ). A model their simulator lacks (power,
//!   explicit tables, the 2^−b grid) and a rigid job get their exact Pareto frontier, each time
//!   correctly rounded — what a double implementation holding the exact times would compare.
//! - The counts considered \[interesting_processors\]: p = 1, then each p whose double time is
//!   strictly below every smaller count's.
//! - Z = ε₁·X/g \[Z\]; units K = ⌊X/Z⌋ + g \[X2\]; the "infinite" value (X/Z + g)·2.
//! - Per job, scanning the counts from the largest down: a unit budget k < t(p)/Z gets the
//!   least `p·(t/Z)/P` (times 1.1) among the larger counts already scanned \[Valeurs0\]; the
//!   chain of g attempts minimises `V_{j−1}[l] + V₀[k−l]` over l = 1..k−1, first l on ties
//!   \[Valeursj\]; the score of k sums the jobs' chains in job order \[Score\]; the first k with
//!   score < k answers min(k·Z, X).
//! - The search: X_max = max(max_j g·t_j(1), Σ_j g·t_j(1)/P) in doubles; each answer is stored
//!   in a C `float` \[b\]; X_med = (X_max + X_min)/2; stop when X_min > 0 and
//!   X_max/X_min ≤ 1 + ε₂.
use crate::error::{Error, Result};
use crate::model::{Job, Profile, SpeedupModel};
use crate::time::Time;

/// Largest number of (1 + ε₁) growths of an unachievable start X, in both readings (the exact
/// one's module doc, "The start").
pub(crate) const START_STEPS: u32 = 64;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

/// The value a C++ `>>` or a correctly rounded division gives for an exact rational: the
/// nearest double (ties to even). `None` when it is not a finite normal double (or zero).
pub fn nearest_f64(t: &Time) -> Option<f64> {
    if t.is_zero() {
        return Some(0.0);
    }
    let n = t.numer().abs();
    let d = t.denom();
    // Scale by 2^s so that the quotient has 55 or 56 bits: the two or three bits below the
    // double's 53, with a sticky bit for the remainder, make `u64 as f64` round correctly.
    let s = 55 - (n.bits() as i64 - d.bits() as i64);
    let (num, den) = if s >= 0 {
        (n << (s as u64), d)
    } else {
        (n, d << ((-s) as u64))
    };
    let (q, r) = num.div_rem(&den);
    let q = q.to_u64()? | u64::from(!r.is_zero());
    let e = -s;
    if !(-1022..=1023).contains(&e) {
        return None;
    }
    let scale = f64::from_bits(((e + 1023) as u64) << 52);
    let f = q as f64 * scale;
    let f = if t.is_negative() { -f } else { f };
    f.is_normal().then_some(f)
}

/// One job as their decision sees it: its interesting counts (p increasing) with their double
/// times (strictly decreasing).
pub type TheirCounts = Vec<(u32, f64)>;

/// The exact parameter `x` of a job as their reader holds it.
fn param(x: &Time, job: &Job, what: &str) -> Result<f64> {
    nearest_f64(x).ok_or_else(|| {
        Error::Limit(format!(
            "MT-ALLOTMENT (published, doubles): job `{}`: {what} = {x} is not a double",
            job.name
        ))
    })
}

/// A job's t(p) in their doubles.
type TimeFn = Box<dyn Fn(u32) -> f64>;

/// t(p) of their `Task::time` for the four models of their simulator; `None` for the others.
fn their_time(job: &Job, model: &SpeedupModel) -> Result<Option<TimeFn>> {
    Ok(Some(match model {
        SpeedupModel::Roofline { w, pbar } => {
            let (w, pb) = (param(w, job, "w")?, f64::from(*pbar));
            Box::new(move |p| (w / f64::from(p)).max(w / pb))
        }
        SpeedupModel::Amdahl { w, gamma } => {
            let (w, g) = (param(w, job, "w")?, param(gamma, job, "γ")?);
            Box::new(move |p| w * (g + (1.0 - g) / f64::from(p)))
        }
        SpeedupModel::Communication { w, c } => {
            let (w, c) = (param(w, job, "w")?, param(c, job, "c")?);
            Box::new(move |p| w / f64::from(p) + f64::from(p - 1) * c)
        }
        SpeedupModel::Mix { w, gamma, pbar, c } => {
            let par = w * &(&Time::one() - gamma);
            let seq = w * gamma;
            let (l, s) = (param(&par, job, "LENGTH")?, param(&seq, job, "S")?);
            let (pb, c) = (f64::from(*pbar), param(c, job, "c")?);
            Box::new(move |p| (l / f64::from(p)).max(l / pb) + s + f64::from(p - 1) * c)
        }
        _ => return Ok(None),
    }))
}

/// Job `job`'s interesting counts in their doubles (module doc); `frontier` is its exact Pareto
/// frontier, used for the models their simulator does not have.
pub fn their_counts(job: &Job, frontier: &[(u32, Time, Time)]) -> Result<TheirCounts> {
    let time = match &job.profile {
        Profile::Moldable { model, .. } if *job.allowed_procs().start() == 1 => {
            their_time(job, model)?
        }
        _ => None,
    };
    let mut out: TheirCounts = Vec::new();
    match time {
        Some(t) => {
            for p in job.allowed_procs() {
                let tp = t(p);
                if !tp.is_finite() || tp <= 0.0 {
                    return Err(Error::Limit(format!(
                        "MT-ALLOTMENT (published, doubles): job `{}`: t({p}) = {tp}",
                        job.name
                    )));
                }
                if out.last().is_none_or(|(_, tl)| tp < *tl) {
                    out.push((p, tp));
                }
            }
        }
        None => {
            for (p, t, _) in frontier {
                let tp = param(t, job, &format!("t({p})"))?;
                if out.last().is_none_or(|(_, tl)| tp < *tl) {
                    out.push((*p, tp));
                }
            }
        }
    }
    if out.is_empty() {
        return Err(Error::Limit(format!(
            "MT-ALLOTMENT (published, doubles): job `{}` has no count",
            job.name
        )));
    }
    Ok(out)
}

/// ε₁, ε₂ and the area factor as the doubles of their call `assignProcsBatch(…, 0.3, 0.03)`
/// and literal `1.1`.
#[derive(Debug, Clone, Copy)]
pub struct FloatParams {
    pub eps1: f64,
    pub eps2: f64,
    pub factor: f64,
}

/// What the search returns: the allocation of its last success, X_min at the end, and the
/// number of decisions made.
pub struct FloatAllot {
    pub alloc: Vec<Vec<u32>>,
    pub xmin: f64,
    pub decisions: u32,
}

/// Largest number of bisection steps (their loop has none; about 10 are made at ε₂ = 0.03).
const MAX_STEPS: u32 = 200;

/// `assignProcsBatch` on the jobs `counts` (one entry per job of the batch, in batch order) with
/// `g` attempts each on `procs` processors.
pub fn allot(counts: &[&TheirCounts], g: u32, procs: u32, fp: FloatParams) -> Result<FloatAllot> {
    let gf = f64::from(g);
    let pf = f64::from(procs);
    let (mut xmax1, mut xmax2) = (0f64, 0f64);
    for c in counts {
        // Their t(1); a job whose fewest processors p₀ is above 1 (rigid, or restricted) adds
        // its area p₀·t(p₀), as the exact reading's start does (`mt_published::start`).
        let Some(&(p0, t0)) = c.first() else {
            return Err(Error::Limit(
                "MT-ALLOTMENT (published, doubles): a job has no count".into(),
            ));
        };
        let a0 = if p0 == 1 { t0 } else { f64::from(p0) * t0 };
        xmax1 = xmax1.max(t0 * gf);
        xmax2 += a0 * gf;
    }
    xmax2 /= pf;
    let mut xmax = xmax1.max(xmax2);
    let mut decisions = 1;
    // As the exact reading (`mt_published`, "The start"): below ε₁ = 1/10 their start can be
    // unachievable (their code then bisects from b = −1); it grows by (1 + ε₁) until D answers.
    let (b, mut alloc) = loop {
        if let Some(found) = decide(counts, g, pf, xmax, fp)? {
            break found;
        }
        if decisions > START_STEPS {
            return Err(Error::Limit(format!(
                "MT-ALLOTMENT (published, doubles): no achievable start X after {} growths \
                 (last X = {xmax})",
                START_STEPS
            )));
        }
        decisions += 1;
        xmax *= 1.0 + fp.eps1;
    };
    xmax = as_float(b)?;
    let mut xmin = 0f64;
    while xmin == 0.0 || xmax / xmin > 1.0 + fp.eps2 {
        if decisions > MAX_STEPS {
            return Err(Error::Limit(format!(
                "MT-ALLOTMENT (published, doubles): bisection beyond {MAX_STEPS} steps"
            )));
        }
        let xmed = (xmax + xmin) / 2.0;
        decisions += 1;
        match decide(counts, g, pf, xmed, fp)? {
            Some((b, a)) => {
                xmax = as_float(b)?;
                alloc = a;
            }
            None => xmin = xmed,
        }
    }
    Ok(FloatAllot {
        alloc,
        xmin,
        decisions,
    })
}

/// `float b = x;` read back as a double, refused when not finite.
fn as_float(x: f64) -> Result<f64> {
    let f = x as f32;
    if f.is_finite() && f > 0.0 {
        Ok(f64::from(f))
    } else {
        Err(Error::Limit(format!(
            "MT-ALLOTMENT (published, doubles): X = {x} is not a positive float"
        )))
    }
}

/// `isAchievable(X)`: `Some((min(k·Z, X), allocation))` for the first unit count k whose score
/// is below k, `None` when none is.
fn decide(
    counts: &[&TheirCounts],
    g: u32,
    pf: f64,
    x: f64,
    fp: FloatParams,
) -> Result<Option<(f64, Vec<Vec<u32>>)>> {
    let gf = f64::from(g);
    let z = fp.eps1 * x / gf;
    let units = (x / z).floor() + gf;
    if !z.is_finite() || z <= 0.0 || !units.is_finite() || units > f64::from(1u32 << 20) {
        return Err(Error::Limit(format!(
            "MT-ALLOTMENT (published, doubles): Z = {z}, {units} units at X = {x}"
        )));
    }
    let kmax = units as usize;
    let inf = (x / z + gf) * 2.0;
    let mut score = vec![0f64; kmax + 1];
    let mut plans: Vec<Vec<Vec<u32>>> = Vec::with_capacity(counts.len());
    for c in counts {
        let (v, a) = chain(c, g, kmax, z, pf, inf, fp.factor);
        for (s, v) in score.iter_mut().zip(&v).skip(1) {
            *s += v;
        }
        plans.push(a);
    }
    for (k, s) in score.iter().enumerate().skip(1) {
        if *s < k as f64 {
            let mut out = Vec::with_capacity(plans.len());
            for p in &plans {
                match p.get(k) {
                    Some(ps) if ps.iter().all(|&q| q > 0) => out.push(ps.clone()),
                    _ => {
                        return Err(Error::Limit(
                            "MT-ALLOTMENT (published, doubles): internal: a feasible budget \
                             has no allocation"
                                .into(),
                        ))
                    }
                }
            }
            return Ok(Some(((k as f64 * z).min(x), out)));
        }
    }
    Ok(None)
}

/// One job's chain values and counts for every unit budget 0..=`kmax` (module doc); a count 0
/// marks a budget no allocation fits (its value is then ≥ `inf`).
fn chain(
    c: &TheirCounts,
    g: u32,
    kmax: usize,
    z: f64,
    pf: f64,
    inf: f64,
    factor: f64,
) -> (Vec<f64>, Vec<Vec<u32>>) {
    let mut v0 = vec![inf; kmax + 1];
    let mut a0 = vec![0u32; kmax + 1];
    let mut k = 0usize;
    // The largest count first: budgets below its time fit nothing.
    let mut scan = c.iter().rev();
    let Some(&(p_top, t_top)) = scan.next() else {
        return (v0, vec![Vec::new(); kmax + 1]);
    };
    let units = t_top / z;
    while (k as f64) < units && k <= kmax {
        k += 1;
    }
    let (mut best_p, mut best_a) = (p_top, f64::from(p_top) * units / pf);
    for &(p, t) in scan {
        let units = t / z;
        let area = f64::from(p) * units / pf;
        while (k as f64) < units && k <= kmax {
            v0[k] = best_a * factor;
            a0[k] = best_p;
            k += 1;
        }
        if area < best_a {
            best_p = p;
            best_a = area;
        }
    }
    while k <= kmax {
        v0[k] = best_a * factor;
        a0[k] = best_p;
        k += 1;
    }
    let mut vj = v0.clone();
    let mut plan: Vec<Vec<u32>> = a0.iter().map(|&p| vec![p]).collect();
    for _ in 1..g {
        // Downwards, in place: entries below k still hold the previous attempt count's chains.
        for k in (1..=kmax).rev() {
            let (mut best, mut l_best) = (inf, 0usize);
            for l in 1..k {
                let v = vj[l] + v0[k - l];
                if v < best {
                    best = v;
                    l_best = l;
                }
            }
            let mut ps = if l_best == 0 {
                // No split fits: an infeasible budget (value `inf`), marked by count 0.
                vec![0; plan[k].len()]
            } else {
                plan[l_best].clone()
            };
            ps.push(a0[k - l_best]);
            plan[k] = ps;
            vj[k] = best;
        }
    }
    (vj, plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_f64_rounds_to_nearest() {
        for s in [
            "0.1",
            "1652653.1648808445",
            "3592873.678474107",
            "1.1",
            "0.3",
            "7e-7",
        ] {
            let t: Time = s.parse().unwrap();
            assert_eq!(nearest_f64(&t), Some(s.parse::<f64>().unwrap()), "{s}");
        }
        // 2^53 + 1 is halfway between two doubles: ties to even (2^53); 2^53 + 3 → 2^53 + 4.
        let h = Time::from_int((1i64 << 53) + 1);
        assert_eq!(nearest_f64(&h), Some(9007199254740992.0));
        let h3 = Time::from_int((1i64 << 53) + 3);
        assert_eq!(nearest_f64(&h3), Some(9007199254740996.0));
        // Just above the halfway point: rounds up (the sticky bit).
        let up = &h + &Time::new(1, 1 << 40).unwrap();
        assert_eq!(nearest_f64(&up), Some(9007199254740994.0));
        assert_eq!(nearest_f64(&Time::new(-1, 3).unwrap()), Some(-1.0 / 3.0));
    }

    /// A roofline job (w = 1652653.1648808445, rft_1's Task0, with p̄ = 50) at X = 10^7, g = 1,
    /// ε₁ = 0.3, P = 7500: Z = 3·10^6, K = ⌊X/Z⌋ + 1 = 4 units, and every count fits in one unit
    /// (t(1)/Z = 0.55). The exact areas p·(t/Z)/P are all equal; in doubles they take two
    /// values, and the scan from p = 50 down keeps the first strictly lower one: p = 42
    /// (computed apart: `python3 -c` with the same expressions), where the exact reading
    /// keeps p̄ = 50.
    #[test]
    fn roofline_pick_is_their_rounding() {
        let w = 1652653.1648808445f64;
        let c: TheirCounts = (1..=50u32).map(|p| (p, w / f64::from(p))).collect();
        let (x, pf) = (1e7, 7500.0);
        let z = 0.3 * x / 1.0;
        let inf = (x / z + 1.0) * 2.0;
        let (v, a) = chain(&c, 1, 4, z, pf, inf, 1.1);
        assert_eq!(a[1], vec![42]);
        assert_eq!(a[4], vec![42]);
        assert_eq!(v[1], 42.0 * ((w / 42.0) / z) / pf * 1.1);
        // Two attempts (g = 2, K = ⌊2/0.3⌋ + 2 = 8 units with Z = 0.15·X): every split fits;
        // the chain keeps the first l of least double sum, each attempt on p = 42 again.
        let z2 = 0.3 * x / 2.0;
        let inf2 = (x / z2 + 2.0) * 2.0;
        let (v2, a2) = chain(&c, 2, 8, z2, pf, inf2, 1.1);
        assert_eq!(a2[1], vec![0, 42], "one unit cannot hold two attempts");
        assert!(v2[1] >= inf2);
        assert_eq!(a2[2], vec![42, 42]);
        let fp = FloatParams {
            eps1: 0.3,
            eps2: 0.03,
            factor: 1.1,
        };
        // The whole search on this one job: its allocation is one of the equal-area counts.
        let r = allot(&[&c], 1, 7500, fp).unwrap();
        assert_eq!(r.alloc.len(), 1);
        assert!((1..=50).contains(&r.alloc[0][0]));
        assert!(r.xmin > 0.0 && r.decisions > 1);
    }
}
