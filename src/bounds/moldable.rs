//! Lower bounds and approximation ratios of the moldable paper, as exact functions.
//!
//! - [`lower_bound`]: t_max(J,f,p) (Eq. 6), A(J,f,p) (Eq. 7) and L(J,f,p) = max(t_max, A/P)
//!   (Eq. 8) for an allocation p that may differ from one attempt to the next; Eq. (9) says
//!   L(J,f,p) ≤ T_ALG for the algorithm that used p.
//! - [`lprime`]: the allocation-free L'(J,f) = max(t'_max, A'/P) of Section 5.1, with
//!   t'_max = max_j min_p (f_j+1)·t_j(p) and A' = Σ_j min_p (f_j+1)·a_j(p).
//! - [`lstar_exact`]: min_p L(J,f,p) over every per-attempt allocation, exactly (Pareto sets of
//!   chains): the quantity Lemma 3 approximates and Theorem 11's proof compares with.
//! - [`r_alpha_beta`] (Eq. 10), [`lemma1`] (Lemma 1), the LPA-LIST bounds of Theorems 1, 2, 4,
//!   6 and 8 ([`lpa_bound`]), and BATCH-LIST's 2(1+ε)·⌈log2(f_max+2)⌉ (Theorem 11,
//!   [`batch_bound`]).
//!
//! Theorem 8's 2(P^(1/4)+1) is irrational for most P: [`power_bound_upper`] returns a certified
//! rational UPPER enclosure (through [`Time::sqrt_enclosure`] twice), which is what a check
//! "makespan ≤ bound·L" may use without ever accepting a false claim.
use crate::error::{Error, Result};
use crate::model::speedup::ModelKind;
use crate::model::{Instance, Profile, Scenario};
use crate::time::Time;

/// t_max, A and L = max(t_max, A/P) for one allocation (Eq. 6–8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoldBound {
    pub tmax: Time,
    pub area: Time,
    pub lower: Time,
}

impl MoldBound {
    fn new(tmax: Time, area: Time, procs: u32) -> MoldBound {
        // P ≥ 1 for every validated instance.
        let per_proc = super::div_positive(&area, u64::from(procs));
        MoldBound {
            lower: tmax.clone().max(per_proc),
            tmax,
            area,
        }
    }
}

/// L(J, f, p) of Eq. (8): `alloc(j, i)` is the processor count of attempt i (1-based) of job j.
/// Errors when `alloc` names a processor count job j cannot use.
pub fn lower_bound(
    inst: &Instance,
    sc: &Scenario,
    alloc: impl Fn(usize, u32) -> u32,
) -> Result<MoldBound> {
    sc.validate(inst).map_err(|e| e.in_file("scenario"))?;
    let mut tmax = Time::zero();
    let mut area = Time::zero();
    for (j, job) in inst.jobs.iter().enumerate() {
        let mut chain = Time::zero();
        for i in 1..=sc.failures[j] + 1 {
            let p = alloc(j, i);
            let t = job.time(p).ok_or_else(|| {
                Error::invalid(
                    "allocation",
                    format!("jobs[{j}]"),
                    format!("attempt {i} uses {p} processors, which the job cannot use"),
                )
            })?;
            chain += t;
            area += t.mul_int(u64::from(p));
        }
        tmax = tmax.max(chain);
    }
    Ok(MoldBound::new(tmax, area, inst.procs))
}

/// L(J, f, p) for an allocation that gives job j the same `alloc[j]` processors at every attempt.
pub fn lower_bound_fixed(inst: &Instance, sc: &Scenario, alloc: &[u32]) -> Result<MoldBound> {
    if alloc.len() != inst.len() {
        return Err(Error::invalid(
            "allocation",
            "alloc",
            format!("has {} entries, expected {}", alloc.len(), inst.len()),
        ));
    }
    lower_bound(inst, sc, |j, _| alloc[j])
}

/// t_max, A and L of a set of chains: each `(job, allocations)` is one chain of attempts of that
/// job (the sub-jobs of a batch, Section 4.4). `None` if an allocation is not allowed.
pub fn chains_bound(inst: &Instance, chains: &[(usize, Vec<u32>)]) -> Option<MoldBound> {
    let mut tmax = Time::zero();
    let mut area = Time::zero();
    for (j, ps) in chains {
        let job = inst.jobs.get(*j)?;
        let mut chain = Time::zero();
        for &p in ps {
            let t = job.time(p)?;
            chain += t;
            area += t.mul_int(u64::from(p));
        }
        tmax = tmax.max(chain);
    }
    Some(MoldBound::new(tmax, area, inst.procs))
}

/// min_p t_j(p) and min_p a_j(p) of one job over the processor counts it allows.
pub fn min_time_area(inst: &Instance, j: usize) -> Option<(Time, Time)> {
    let job = inst.jobs.get(j)?;
    let mut tmin: Option<Time> = None;
    let mut amin: Option<Time> = None;
    for p in job.allowed_procs() {
        let t = job.time(p)?;
        let a = t.mul_int(u64::from(p));
        if tmin.as_ref().is_none_or(|m| t < m) {
            tmin = Some(t.clone());
        }
        if amin.as_ref().is_none_or(|m| a < *m) {
            amin = Some(a);
        }
    }
    Some((tmin?, amin?))
}

/// L'(J, f) of Section 5.1: max(max_j (f_j+1)·min_p t_j(p), Σ_j (f_j+1)·min_p a_j(p) / P).
/// Independent of any algorithm, so every algorithm is normalised by the same value; it is at
/// most min_p L(J,f,p) ≤ T_OPT (each job may reach its minimum time and its minimum area with
/// different allocations, which L' does not forbid).
pub fn lprime(inst: &Instance, sc: &Scenario) -> Result<MoldBound> {
    sc.validate(inst).map_err(|e| e.in_file("scenario"))?;
    let mut tmax = Time::zero();
    let mut area = Time::zero();
    for j in 0..inst.len() {
        let (t, a) = min_time_area(inst, j).ok_or_else(|| {
            Error::invalid("instance", format!("jobs[{j}]"), "has no processor count")
        })?;
        let k = u64::from(sc.failures[j]) + 1;
        tmax = tmax.max(t.mul_int(k));
        area += a.mul_int(k);
    }
    Ok(MoldBound::new(tmax, area, inst.procs))
}

/// The Pareto frontier of one job: the processor counts p (increasing) such that no other count
/// is at least as fast and at most as large in area; along it t strictly decreases and a
/// strictly increases. Only these counts matter to any algorithm that trades time for area
/// (a dominated count is never better for t_max nor for A).
pub fn frontier(inst: &Instance, j: usize) -> Vec<(u32, Time, Time)> {
    let Some(job) = inst.jobs.get(j) else {
        return Vec::new();
    };
    // Records of strictly decreasing time in increasing p: a later p with t(p) ≥ t(q) has a
    // strictly larger area p·t(p) > q·t(q), so it is dominated by q.
    let mut recs: Vec<(u32, Time, Time)> = Vec::new();
    for p in job.allowed_procs() {
        let Some(t) = job.time(p) else { continue };
        if recs.last().is_none_or(|(_, tl, _)| t < tl) {
            recs.push((p, t.clone(), t.mul_int(u64::from(p))));
        }
    }
    // Then keep those whose area is below every later (faster) record's area.
    let mut out: Vec<(u32, Time, Time)> = Vec::with_capacity(recs.len());
    let mut min_area: Option<Time> = None;
    for r in recs.into_iter().rev() {
        if min_area.as_ref().is_none_or(|m| r.2 < *m) {
            min_area = Some(r.2.clone());
            out.push(r);
        }
    }
    out.reverse();
    out
}

/// min over every per-attempt allocation p of L(J, f, p), exactly, with one allocation reaching
/// it (`alloc[j]` lists the counts of job j's f_j+1 attempts). `None` when a job's Pareto set of
/// chains exceeds `limit` points (meant for small instances: tests and the proofs ledger).
///
/// Method: the Pareto set of (chain time, chain area) of each job is built attempt by attempt
/// from its [`frontier`]; then for each candidate threshold τ (a chain time of some job), every
/// job takes its least-area chain of time ≤ τ, and L* is the least max(t_max, A/P) seen. This is
/// exact: the optimum's t_max is one of the τ, and at that τ the least areas are no larger.
pub fn lstar_exact(inst: &Instance, sc: &Scenario, limit: usize) -> Option<(Time, Vec<Vec<u32>>)> {
    sc.validate(inst).ok()?;
    // Per job: Pareto points (time, area, allocation multiset), time increasing, area decreasing.
    let mut sets: Vec<Vec<(Time, Time, Vec<u32>)>> = Vec::with_capacity(inst.len());
    for j in 0..inst.len() {
        let fr = frontier(inst, j);
        let mut cur: Vec<(Time, Time, Vec<u32>)> = vec![(Time::zero(), Time::zero(), Vec::new())];
        for _ in 0..=sc.failures[j] {
            let mut next: Vec<(Time, Time, Vec<u32>)> = Vec::with_capacity(cur.len() * fr.len());
            for (t, a, ps) in &cur {
                for (p, tp, ap) in &fr {
                    // Multisets: keep the counts non-decreasing to enumerate each once.
                    if ps.last().is_some_and(|l| p < l) {
                        continue;
                    }
                    let mut q = ps.clone();
                    q.push(*p);
                    next.push((t + tp, a + ap, q));
                }
            }
            next.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
            let mut pareto: Vec<(Time, Time, Vec<u32>)> = Vec::new();
            for c in next {
                if pareto.last().is_none_or(|l| c.1 < l.1) {
                    pareto.push(c);
                }
            }
            if pareto.len() > limit {
                return None;
            }
            cur = pareto;
        }
        sets.push(cur);
    }
    let mut taus: Vec<&Time> = sets.iter().flatten().map(|x| &x.0).collect();
    taus.sort();
    taus.dedup();
    let mut best: Option<(Time, Vec<Vec<u32>>)> = None;
    for tau in taus {
        let mut tmax = Time::zero();
        let mut area = Time::zero();
        let mut alloc = Vec::with_capacity(sets.len());
        let mut ok = true;
        for s in &sets {
            // Last point with time ≤ τ has the least area among them.
            let k = s.partition_point(|x| x.0 <= *tau);
            if k == 0 {
                ok = false;
                break;
            }
            let (t, a, ps) = &s[k - 1];
            tmax = tmax.max(t.clone());
            area += a;
            alloc.push(ps.clone());
        }
        if !ok {
            continue;
        }
        let l = MoldBound::new(tmax, area, inst.procs).lower;
        if best.as_ref().is_none_or(|(b, _)| l < *b) {
            best = Some((l, alloc));
        }
    }
    best
}

/// r(α, β) of Eq. (10): 2α if α ≥ β, else P/(P−1)·α + (P−2)/(P−1)·β (Lemma 2). For P = 1 only
/// α = β = 1 occurs and the first case applies.
pub fn r_alpha_beta(alpha: &Time, beta: &Time, procs: u32) -> Time {
    if alpha >= beta || procs <= 1 {
        return alpha.mul_int(2);
    }
    let p = u64::from(procs);
    let num = &alpha.mul_int(p) + &beta.mul_int(p - 2);
    // P ≥ 2 here (P ≤ 1 returned above), so P − 1 ≥ 1.
    super::div_positive(&num, p - 1)
}

/// Lemma 1's bound on a LIST schedule: 2A/P if p_min ≥ P/2, else A/(P−p_min) +
/// (P−2p_min)·t_max/(P−p_min), where p_min ≥ 1 is the least number of busy processors at any
/// instant of the schedule.
pub fn lemma1(area: &Time, tmax: &Time, pmin: u32, procs: u32) -> Time {
    let (p, m) = (u64::from(procs), u64::from(pmin.max(1)));
    if 2 * m >= p {
        return super::div_positive(&area.mul_int(2), p);
    }
    // 2m < P and m ≥ 1, so P − m > m ≥ 1.
    let num = area + &tmax.mul_int(p - 2 * m);
    super::div_positive(&num, p - m)
}

/// ⌈log2(x)⌉ for x ≥ 1.
pub fn ceil_log2(x: u64) -> u32 {
    if x <= 1 {
        0
    } else {
        64 - (x - 1).leading_zeros()
    }
}

/// Lemma 5: the number of batches BATCH-LIST needs for a job that fails f times, ⌈log2(f+2)⌉.
pub fn batches_needed(f: u32) -> u32 {
    ceil_log2(u64::from(f) + 2)
}

/// Theorem 11's ratio 2(1+ε)·⌈log2(f_max+2)⌉ (against min_p L(J,f,p), hence against OPT).
pub fn batch_bound(eps: &Time, fmax: u32) -> Time {
    (&Time::one() + eps).mul_int(2 * u64::from(batches_needed(fmax)))
}

/// A certified rational upper bound on 2(P^(1/4) + 1) (Theorem 8), within 2^−28 of it.
pub fn power_bound_upper(procs: u32) -> Time {
    let bits = 32;
    // An enclosure exists for every x ≥ 0 (`sqrt_enclosure` fails only on a negative x), and
    // P and √P are not negative: the zero defaults are unreachable.
    let s = Time::from(procs).sqrt_enclosure(bits).map(|x| x.1);
    debug_assert!(s.is_some());
    // unreachable: see the comment above (both enclosures exist for x ≥ 0)
    let q = s.unwrap_or_default().sqrt_enclosure(bits).map(|x| x.1);
    debug_assert!(q.is_some());
    // unreachable: see the comment above (both enclosures exist for x ≥ 0)
    let q = q.unwrap_or_default();
    (&q + &Time::one()).mul_int(2)
}

/// The LPA-LIST ratio the paper proves for a speedup model: 2 (roofline, Theorem 1),
/// 3 (communication, Theorem 2), 4 (Amdahl, Theorem 4), 6 (mix, Theorem 6), 2(P^(1/4)+1)
/// (power, Theorem 8; certified upper enclosure). `None` for monotonic and arbitrary tables
/// (Theorem 9 is only O(√P); Theorem 10 shows Ω(√P)).
pub fn lpa_bound(kind: ModelKind, procs: u32) -> Option<Time> {
    match kind {
        ModelKind::Roofline => Some(Time::from_int(2)),
        ModelKind::Communication => Some(Time::from_int(3)),
        ModelKind::Amdahl => Some(Time::from_int(4)),
        ModelKind::Mix => Some(Time::from_int(6)),
        ModelKind::Power => Some(power_bound_upper(procs)),
        ModelKind::Monotonic | ModelKind::Arbitrary => None,
    }
}

/// The LPA-LIST bound that holds for every job of `inst`: the largest [`lpa_bound`] over the
/// models present, if every job is moldable with a model that has one.
pub fn lpa_bound_instance(inst: &Instance) -> Option<Time> {
    let mut out: Option<Time> = None;
    for job in &inst.jobs {
        let Profile::Moldable { model, .. } = &job.profile else {
            return None;
        };
        let b = lpa_bound(model.kind(), inst.procs)?;
        out = Some(match out {
            None => b,
            Some(o) => o.max(b),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().unwrap()
    }

    #[test]
    fn formulas() {
        assert_eq!(r_alpha_beta(&t("3/2"), &t("1"), 4), t("3"));
        assert_eq!(r_alpha_beta(&t("1"), &t("11/4"), 4), t("19/6"));
        assert_eq!(r_alpha_beta(&t("1"), &t("1"), 1), t("2"));
        assert_eq!(batches_needed(0), 1);
        assert_eq!(batches_needed(1), 2);
        assert_eq!(batches_needed(2), 2);
        assert_eq!(batches_needed(5), 3);
        assert_eq!(batches_needed(6), 3);
        assert_eq!(batches_needed(7), 4);
        assert_eq!(batch_bound(&t("0.3"), 2), t("26/5"));
        // P = 16: 2(2 + 1) = 6 exactly (perfect fourth power); otherwise strictly above.
        assert_eq!(power_bound_upper(16), t("6"));
        let b = power_bound_upper(7500);
        assert!(
            b.to_f64() >= 2.0 * (7500f64.powf(0.25) + 1.0) - 1e-9
                && b.to_f64() < 2.0 * (7500f64.powf(0.25) + 1.0) + 1e-6
        );
        let q = (&b / &t("2")) - Time::one(); // ≥ 7500^(1/4) exactly:
        assert!(&(&q * &q) * &(&q * &q) >= t("7500"));
        assert_eq!(lemma1(&t("8"), &t("3"), 2, 4), t("4"));
        assert_eq!(lemma1(&t("8"), &t("3"), 1, 4), t("14/3"));
    }

    #[test]
    fn lower_bounds() {
        let text = r#"{"processors": 4, "jobs": [
            {"speedup": {"model":"table","times":[11,7,5,4]}},
            {"speedup": {"model":"table","times":[10,"9.8","9.6","9.5"]}}]}"#;
        let inst = Instance::from_json_str(text, "x").unwrap();
        let sc = Scenario::new(vec![1, 0]);
        let b = lower_bound(&inst, &sc, |j, i| if j == 0 { i } else { 1 }).unwrap();
        assert_eq!(b.tmax, t("18"));
        assert_eq!(b.area, t("35"));
        let lp = lprime(&inst, &sc).unwrap();
        assert_eq!(lp.tmax, t("9.5"));
        assert_eq!(lp.area, t("32"));
        assert_eq!(lp.lower, t("9.5"));
        let (ls, alloc) = lstar_exact(&inst, &sc, 1000).unwrap();
        assert!(ls >= lp.lower);
        assert_eq!(
            lower_bound(&inst, &sc, |j, i| alloc[j][i as usize - 1])
                .unwrap()
                .lower,
            ls
        );
        assert_eq!(frontier(&inst, 1).len(), 4);
        assert!(lower_bound(&inst, &sc, |_, _| 5).is_err());
    }
}
