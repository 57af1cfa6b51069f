//! MT-ALLOTMENT **as published**: the allotment of the authors' simulator
//! (GitHub lucasperotin/moldable-error, `moldableBatch.cpp`, functions `isAchievable` and
//! `assignProcsBatch`, commit c2caa58), reproduced rule by rule in exact arithmetic so that
//! BATCH-LIST can be run under that reading and compared with their printed outputs
//! (`tests/peer_moldable.rs`, at 1e−9 relative).
//!
//! # The two readings (moldable paper, Section 4.4, footnote 7)
//! The paper: "MT-ALLOTMENT […] returns an allocation p_k such that
//! L(J_k, f_k, p_k) ≤ (1+ε)·min_p L(J_k, f_k, p)" (Lemma 3), and footnote 7: "dynamic
//! programming decides whether there is an allocation with L ≤ (1+ε)·X; a binary search runs on
//! X". Lepère, Trystram and Woeginger's MT-ALLOTMENT (ESA 2001) is a *relaxed* decision: any
//! allocation whose time and area fit the budget will do; it asks for no particular one among
//! them. The paper's text therefore supports resched's reading ([`super::mt_allotment`], the
//! default, `batch-list`): the guarantee of Lemma 3 with ε split as ε₁ = ε₂ = ε/3, keeping the
//! allocation of least L seen.
//!
//! The published code decides differently, and these rules are the "as published" reading
//! (`batch-list-published`):
//! 1. **least area within the budget**: D(X) gives each job the least-area allocation whose
//!    rounded time fits, and returns that allocation — so when the time budget is the critical
//!    chain's length, every other job is stretched towards it (its area is smaller there), where
//!    the paper's reading keeps the allocation of least L;
//! 2. **ε₁ and ε₂ separate**: rounding unit Z = ε₁·X/g (ε₁ = 0.3, g the attempts per job of
//!    the batch), K = ⌊X/Z⌋ + g units; the bisection stops when X_max/X_min ≤ 1 + ε₂ (ε₂ = 0.03);
//! 3. **the 1.1 factor**: a job's area counts 1.1 times in the budget test
//!    Σ_j 1.1·a_j < k·Z·P (strict), k the first unit count that passes; D returns min(k·Z, X);
//! 4. **the search**: X_max starts at max(max_j g·t_j(1), Σ_j g·t_j(1)/P), X_min at 0; the
//!    midpoint is tried; a success sets X_max to D's value *stored in a C `float`* (single
//!    precision: reproduced exactly, [`to_f32`]), a failure sets X_min; the allocation used is
//!    the one of the last success;
//! 5. **the first count only** (`first_count_only`): a failed attempt is re-queued *before* its
//!    processor count is switched to the next planned one (the queue holds a copy), so every
//!    attempt of a job in a batch runs on its first planned count;
//! 6. **their arithmetic** (`float_decisions`): D(X) and the search are evaluated in their
//!    doubles and floats ([`super::mt_published_f64`]). It matters where exact areas tie: on
//!    the roofline model every p ≤ p̄ has area w, and the count their code keeps is the one
//!    whose `p·(t/Z)/P` rounded lowest — rounding noise that no exact rule reproduces (with
//!    the exact decision below, their roofline makespans are missed by −0.7 … +0.4%). The
//!    allocation is all that leaves it: the batch then runs on the exact times.
//!
//! Lemma 3 under this reading. Without rule 5 a weaker guarantee holds: the last success at X_s
//! returned k with every chain within k·Z ≤ (1+ε₁)·X_s and factor·A < k·Z·P, so
//! L ≤ (1+ε₁)·b_s with b_s = min(k·Z, X_s), and X_max = float(b_s) ≤ (1+ε₂)·X_min at the end;
//! and D(X) succeeds as soon as X ≥ L*·max(1/(1 − ε₁/g), factor/(1 + ε₁ − ε₁/g)) (L* = min_p L:
//! the optimum's chains then fit ⌊g/ε₁⌋ units and its area passes the test at k = K), so X_min
//! is below it. Together: L ≤ (1+ε₁)(1+ε₂)(1+2^−23)·max(1/(1 − ε₁/g), factor/(1+ε₁−ε₁/g))·L*,
//! i.e. ≤ 1.91·L* for g = 1 with their constants, where the paper's reading guarantees
//! (1+ε)·L* = 1.3·L*. With rule 5 (each batch on its first count) no bound of this kind holds:
//! the uniform chain on the first count is an allocation the DP never measured. The property
//! test `published_reading_bounds` checks the first bound against brute force and reports how far
//! rule 5 goes on the same instances.
//!
//! The exact decision (rules 1–5 without 6, below) is kept for the bound above and its
//! property test, and is what rule 6 reduces to wherever no exact tie arises.
//!
//! The start. Their X_max = max(max_j g·t_j(1), Σ_j g·t_j(1)/P) is achievable whenever
//! ε₁ > factor − 1 = 1/10: when the area term decides, every job on one processor scores
//! factor·X/Z = factor·g/ε₁ units against the K = X/Z + g = g/ε₁ + g units there are. At
//! ε₁ ≤ 1/10 it can fail (moldable-table1 with `--eps 1/10` meets it); their code then stores
//! b = −1 and bisects over negative X, which is undefined, so resched grows the start by
//! (1 + ε₁) — the score in units falls by that factor while K stays — until D(X) answers
//! (at most `START_STEPS` growths, each counted as a decision). At their ε₁ = 0.3 the start
//! never grows and the differential test is unaffected.
//!
//! Chain DP (rule 1, per job): V₀\[k\] = least area among the counts with t(p) ≤ k·Z (the job's
//! Pareto frontier; infinite when none), V_j\[k\] = min_{1≤l<k} V_{j−1}\[l\] + V₀[k−l], the first l
//! reaching the minimum (their strict `<`), the allocation of attempt j being the count of
//! V₀[k−l]. Exact rationals make the same choices as their doubles except at ties that rounding
//! would break, which the golden comparison would reveal.
use super::mt_allotment::Allotment;
use super::mt_published_f64::{self as f64dec, nearest_f64, FloatParams, TheirCounts, START_STEPS};
use crate::bounds::moldable::{chains_bound, frontier};
use crate::error::{Error, Result};
use crate::model::Instance;
use crate::time::Time;

/// The parameters of the published reading (module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// ε₁: the rounding unit is ε₁·X/g (their 0.3).
    pub eps1: Time,
    /// ε₂: the bisection stops at X_max/X_min ≤ 1 + ε₂ (their 0.03).
    pub eps2: Time,
    /// The factor on areas in the budget test (their 1.1).
    pub area_factor: Time,
    /// Every attempt of a batch on the first planned count (their re-queue order).
    pub first_count_only: bool,
    /// Rule 6: decide in their doubles and floats ([`super::mt_published_f64`]), so that their
    /// rounding picks among equal exact areas; `false`: the exact decision of this module.
    pub float_decisions: bool,
}

impl Published {
    /// The constants of `moldableBatch.cpp`: ε₁ = 0.3, ε₂ = 0.03, factor 1.1, first count only,
    /// decided in their floating point.
    pub fn as_published() -> Published {
        // unreachable: 3/10 has a nonzero literal denominator
        Published::with_eps(Time::new(3, 10).unwrap_or_default())
    }

    /// ε₁ = `eps1`, ε₂ = ε₁/10 (their ratio), factor 1.1, first count only, decided in their
    /// floating point.
    pub fn with_eps(eps1: Time) -> Published {
        // unreachable: dividing by the literal 10 cannot fail
        let eps2 = eps1.div_int(10).unwrap_or_default();
        Published {
            eps1,
            eps2,
            // unreachable: 11/10 has a nonzero literal denominator
            area_factor: Time::new(11, 10).unwrap_or_default(),
            first_count_only: true,
            float_decisions: true,
        }
    }

    /// ε₁ > 0, ε₂ > 0, factor ≥ 1; an error names the field (`eps1`, `eps2`, `area_factor`).
    pub fn check(&self) -> Result<()> {
        if !self.eps1.is_positive() || !self.eps2.is_positive() {
            return Err(Error::param(
                if self.eps1.is_positive() {
                    "eps2"
                } else {
                    "eps1"
                },
                format!("ε₁ = {}, ε₂ = {} must be > 0", self.eps1, self.eps2),
            ));
        }
        if self.area_factor < Time::one() {
            return Err(Error::param(
                "area_factor",
                format!("area factor {} must be ≥ 1", self.area_factor),
            ));
        }
        Ok(())
    }

    /// ε₁, ε₂ and the area factor as the doubles their code holds (`0.3`, `0.03`, `1.1` are
    /// the nearest doubles of 3/10, 3/100, 11/10).
    fn float_params(&self) -> Result<FloatParams> {
        let f = |t: &Time, name: &str, what: &str| {
            nearest_f64(t)
                .filter(|x| *x > 0.0)
                .ok_or_else(|| Error::param(name, format!("{what} = {t} is not a positive double")))
        };
        Ok(FloatParams {
            eps1: f(&self.eps1, "eps1", "ε₁")?,
            eps2: f(&self.eps2, "eps2", "ε₂")?,
            factor: f(&self.area_factor, "area_factor", "the area factor")?,
        })
    }
}

/// Largest number of bisection steps (their loop has no bound; with ε₂ > 0 it takes
/// log2(X_max/(ε₂·X_min)) steps, about 10 on the paper's instances).
const MAX_STEPS: u32 = 200;

/// The value a C `float` variable holds after `b = x` (x a double): the nearest single-precision
/// number, read back exactly. An error (not a plausible number) when x is not finite in f32.
pub fn to_f32(x: &Time) -> Result<Time> {
    let f = x.to_f64() as f32;
    if !f.is_finite() {
        return Err(Error::Limit(format!(
            "MT-ALLOTMENT (published): X = {x} does not fit a float"
        )));
    }
    Time::from_f64_exact(f64::from(f)).ok_or_else(|| {
        Error::Limit(format!(
            "MT-ALLOTMENT (published): X = {x} does not fit a float"
        ))
    })
}

/// Per-job data of the DP: its Pareto frontier (p increasing, t decreasing, area increasing).
type Frontier = Vec<(u32, Time, Time)>;

/// The published allotter, with per-job frontiers cached (one instance).
#[derive(Debug, Clone)]
pub struct PublishedAllotment {
    pub params: Published,
    frontiers: Vec<Option<Frontier>>,
    /// Each job's interesting counts in their doubles (rule 6).
    theirs: Vec<Option<TheirCounts>>,
}

impl PublishedAllotment {
    pub fn new(params: Published) -> PublishedAllotment {
        PublishedAllotment {
            params,
            frontiers: Vec::new(),
            theirs: Vec::new(),
        }
    }

    fn frontier(&mut self, inst: &Instance, j: usize) -> &Frontier {
        if self.frontiers.len() != inst.len() {
            self.frontiers = vec![None; inst.len()];
        }
        self.frontiers[j].get_or_insert_with(|| frontier(inst, j))
    }

    /// `assignProcsBatch`: the allocation of `jobs` with `g` attempts each (module doc, rule 4).
    pub fn allot(&mut self, inst: &Instance, jobs: &[usize], g: u32) -> Result<Allotment> {
        self.params.check()?;
        if jobs.is_empty() || g == 0 {
            return Err(Error::Limit(
                "MT-ALLOTMENT (published): a batch needs jobs and attempts".into(),
            ));
        }
        if self.params.float_decisions {
            return self.allot_f64(inst, jobs, g);
        }
        let mut xmax = start(inst, jobs, g)?;
        let mut decisions = 1;
        // Their start X_max is always achievable when ε₁ > (factor − 1) = 1/10 (module doc,
        // "The start"); below, it can fail and their code goes on with b = −1 (undefined), so
        // the start grows by (1 + ε₁) until D(X) answers.
        let grow = &Time::one() + &self.params.eps1;
        let (b, mut alloc) = loop {
            if let Some(found) = self.decide(inst, jobs, g, &xmax)? {
                break found;
            }
            if decisions > START_STEPS {
                return Err(Error::Limit(format!(
                    "MT-ALLOTMENT (published): no achievable start X after {START_STEPS} \
                     growths (last X = {xmax})"
                )));
            }
            decisions += 1;
            xmax = &xmax * &grow;
        };
        xmax = to_f32(&b)?;
        let mut xmin = Time::zero();
        let stop = &Time::one() + &self.params.eps2;
        let two = Time::from_int(2);
        while xmin.is_zero() || xmax > &stop * &xmin {
            if decisions > MAX_STEPS {
                return Err(Error::Limit(format!(
                    "MT-ALLOTMENT (published): bisection beyond {MAX_STEPS} steps"
                )));
            }
            let xmed = &(&xmax + &xmin) / &two;
            decisions += 1;
            match self.decide(inst, jobs, g, &xmed)? {
                Some((b, a)) => {
                    xmax = to_f32(&b)?;
                    alloc = a;
                }
                None => xmin = xmed,
            }
        }
        self.finish(inst, jobs, alloc, xmin, decisions)
    }

    /// Rule 6: the decision in their doubles ([`super::mt_published_f64`]).
    fn allot_f64(&mut self, inst: &Instance, jobs: &[usize], g: u32) -> Result<Allotment> {
        let fp = self.params.float_params()?;
        if self.theirs.len() != inst.len() {
            self.theirs = vec![None; inst.len()];
        }
        for &j in jobs {
            let job = inst.jobs.get(j).ok_or_else(|| {
                Error::Limit(format!("MT-ALLOTMENT (published): internal: no job {j}"))
            })?;
            if self.theirs.get(j).is_some_and(Option::is_none) {
                let fr = self.frontier(inst, j).clone();
                self.theirs[j] = Some(f64dec::their_counts(job, &fr)?);
            }
        }
        let counts: Vec<&TheirCounts> = jobs
            .iter()
            .filter_map(|&j| self.theirs.get(j).and_then(Option::as_ref))
            .collect();
        if counts.len() != jobs.len() {
            return Err(Error::Limit(
                "MT-ALLOTMENT (published): internal: a job without counts".into(),
            ));
        }
        let a = f64dec::allot(&counts, g, inst.procs, fp)?;
        let xmin = Time::from_f64_exact(a.xmin).ok_or_else(|| {
            Error::Limit(format!(
                "MT-ALLOTMENT (published): X_min = {} is not finite",
                a.xmin
            ))
        })?;
        self.finish(inst, jobs, a.alloc, xmin, a.decisions)
    }

    /// Rule 5 and the allotment's exact bound L (both decisions end here).
    fn finish(
        &self,
        inst: &Instance,
        jobs: &[usize],
        mut alloc: Vec<Vec<u32>>,
        xmin: Time,
        decisions: u32,
    ) -> Result<Allotment> {
        if self.params.first_count_only {
            for ps in &mut alloc {
                debug_assert!(!ps.is_empty(), "a job with no planned count");
                // unreachable: decide plans at least one count per job (debug_assert above)
                let p0 = ps.first().copied().unwrap_or_default();
                ps.iter_mut().for_each(|p| *p = p0);
            }
        }
        let pairs: Vec<(usize, Vec<u32>)> = jobs.iter().copied().zip(alloc.clone()).collect();
        let bound = chains_bound(inst, &pairs).ok_or_else(|| {
            Error::Limit("MT-ALLOTMENT (published): internal: a count not allowed".into())
        })?;
        Ok(Allotment {
            alloc,
            bound,
            lower: xmin,
            decisions,
        })
    }

    /// `isAchievable(X)`: `Some((min(k·Z, X), allocation))` for the first k passing the budget
    /// test, `None` when none does.
    fn decide(
        &mut self,
        inst: &Instance,
        jobs: &[usize],
        g: u32,
        x: &Time,
    ) -> Result<Option<(Time, Vec<Vec<u32>>)>> {
        let g64 = u64::from(g);
        let z = (&self.params.eps1 * x)
            .div_int(g64)
            .ok_or_else(|| Error::Limit("MT-ALLOTMENT (published): g = 0".into()))?;
        // K = ⌊X/Z⌋ + g = ⌊g/ε₁⌋ + g units.
        let kbig = &(&Time::from(g) / &self.params.eps1).floor() + g64;
        let k = usize::try_from(&kbig)
            .ok()
            .filter(|k| *k <= 1 << 20)
            .ok_or_else(|| {
                Error::Limit(format!(
                    "MT-ALLOTMENT (published): {kbig} units for g = {g}: use a larger ε₁"
                ))
            })?;
        let mut score: Vec<Option<Time>> = vec![Some(Time::zero()); k + 1];
        let mut chains: Vec<Vec<Option<Vec<u32>>>> = Vec::with_capacity(jobs.len());
        for &j in jobs {
            let fr = self.frontier(inst, j).clone();
            let (vals, allocs) = chain(&fr, g, k, &z);
            for (s, v) in score.iter_mut().zip(&vals) {
                *s = match (s.take(), v) {
                    (Some(s), Some(v)) => Some(&s + v),
                    _ => None,
                };
            }
            chains.push(allocs);
        }
        // Σ factor·a_j < k·Z·P (the areas are not normalised here; their test divides by P·Z).
        let zp = z.mul_int(u64::from(inst.procs));
        for (kk, s) in score.iter().enumerate().skip(1) {
            let Some(s) = s else { continue };
            if &self.params.area_factor * s < zp.mul_int(kk as u64) {
                let mut out = Vec::with_capacity(jobs.len());
                for c in &chains {
                    let Some(Some(ps)) = c.get(kk) else {
                        return Err(Error::Limit(
                            "MT-ALLOTMENT (published): internal: a feasible budget has no allocation"
                                .into(),
                        ));
                    };
                    out.push(ps.clone());
                }
                return Ok(Some((z.mul_int(kk as u64).min(x.clone()), out)));
            }
        }
        Ok(None)
    }
}

/// X_max's start: max(max_j g·t_j(1), Σ_j g·t_j(1)/P) over the batch's jobs.
///
/// Their code only ever sees jobs that run on one processor. A job that cannot (a rigid job
/// with p_j > 1, or a moldable one whose allowed counts start above 1) takes its fewest
/// processors p₀ instead: g·t_j(p₀) in the max and its area g·p₀·t_j(p₀) in the sum, which
/// are their terms exactly when p₀ = 1 and keep X_max an allocation every job admits.
fn start(inst: &Instance, jobs: &[usize], g: u32) -> Result<Time> {
    let mut tl = Time::zero();
    let mut sum = Time::zero();
    for &j in jobs {
        let job = inst.jobs.get(j).ok_or_else(|| {
            Error::Limit(format!("MT-ALLOTMENT (published): internal: no job {j}"))
        })?;
        let p0 = *job.allowed_procs().start();
        let (Some(t0), Some(a0)) = (job.time(p0), job.area(p0)) else {
            return Err(Error::Limit(format!(
                "MT-ALLOTMENT (published): job {j} has no time on its fewest processors {p0}"
            )));
        };
        let t = t0.mul_int(u64::from(g));
        sum += &a0.mul_int(u64::from(g));
        tl = tl.max(t);
    }
    let area = sum
        .div_int(u64::from(inst.procs))
        .ok_or_else(|| Error::Limit("MT-ALLOTMENT (published): P = 0".into()))?;
    Ok(tl.max(area))
}

/// The chain DP of one job (module doc): for every budget k = 0..=K, the least total area of
/// `g` attempts (`None`: infeasible) and the counts that reach it, attempt by attempt.
fn chain(fr: &Frontier, g: u32, k: usize, z: &Time) -> (Vec<Option<Time>>, Vec<Option<Vec<u32>>>) {
    // V₀[c]: the least-area frontier point with t ≤ c·Z (the first index that fits).
    let mut v0: Vec<Option<(u32, Time)>> = vec![None; k + 1];
    for (c, v) in v0.iter_mut().enumerate().skip(1) {
        let lim = z.mul_int(c as u64);
        let i = fr.partition_point(|(_, t, _)| *t > lim);
        *v = fr.get(i).map(|(p, _, a)| (*p, a.clone()));
    }
    let mut vals: Vec<Option<Time>> = v0.iter().map(|v| v.as_ref().map(|x| x.1.clone())).collect();
    let mut allocs: Vec<Option<Vec<u32>>> =
        v0.iter().map(|v| v.as_ref().map(|x| vec![x.0])).collect();
    for _ in 1..g {
        let mut nv: Vec<Option<Time>> = vec![None; k + 1];
        let mut na: Vec<Option<Vec<u32>>> = vec![None; k + 1];
        for kk in 1..=k {
            let mut best: Option<(Time, usize)> = None;
            for l in 1..kk {
                let (Some(a), Some((_, b))) = (&vals[l], &v0[kk - l]) else {
                    continue;
                };
                let cand = a + b;
                if best.as_ref().is_none_or(|(m, _)| cand < *m) {
                    best = Some((cand, l));
                }
            }
            if let Some((v, l)) = best {
                if let (Some(prev), Some((p, _))) = (&allocs[l], &v0[kk - l]) {
                    let mut ps = prev.clone();
                    ps.push(*p);
                    na[kk] = Some(ps);
                    nv[kk] = Some(v);
                }
            }
        }
        vals = nv;
        allocs = na;
    }
    (vals, allocs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_f32_is_the_float_value() {
        let x: Time = "0.1".parse().unwrap();
        let f = to_f32(&x).unwrap();
        assert_eq!(f.to_f64(), f64::from(0.1f32));
        assert_ne!(f, x);
        assert_eq!(to_f32(&Time::from_int(3)).unwrap(), Time::from_int(3));
    }

    /// The start at ε₁ = 1/10 (module doc, "The start"): P = 2, two jobs of t(1) = 10 that
    /// cannot speed up, g = 1. X_max = 10, Z = 1, K = 11 units; both jobs on one processor
    /// score 1.1·10/(1·2) each, 11 in all, never below k ≤ 11: D(10) fails (their code would
    /// go on from b = −1). Grown once to X = 11 (Z = 11/10): the score is 10 < k = 11, so the
    /// search runs, in the exact and in the doubles' decision alike.
    #[test]
    fn an_unachievable_start_grows_by_one_plus_eps1() {
        let inst = Instance::from_json_str(
            r#"{"processors": 2, "jobs": [
                {"speedup": {"model": "roofline", "w": 10, "pbar": 1}},
                {"speedup": {"model": "roofline", "w": 10, "pbar": 1}}]}"#,
            "t",
        )
        .unwrap();
        for float_decisions in [false, true] {
            let mut pa = PublishedAllotment::new(Published {
                eps1: Time::new(1, 10).unwrap(),
                eps2: Time::new(1, 100).unwrap(),
                area_factor: Time::new(11, 10).unwrap(),
                first_count_only: true,
                float_decisions,
            });
            assert!(pa
                .decide(&inst, &[0, 1], 1, &Time::from_int(10))
                .unwrap()
                .is_none());
            let a = pa.allot(&inst, &[0, 1], 1).unwrap();
            assert_eq!(a.alloc, vec![vec![1], vec![1]], "float {float_decisions}");
            assert!(a.decisions >= 2, "float {float_decisions}: the start grew");
        }
    }

    /// A 2-job batch worked by hand. P = 4; job A: t = 8/p (area 8 everywhere: only p = 4 is
    /// on its frontier), job B: t(p) = 4 for every p (only p = 1 is). g = 1, ε₁ = 1/2:
    /// K = 2 + 1 = 3 units.
    #[test]
    fn least_area_within_the_budget() {
        let inst = Instance::from_json_str(
            r#"{"processors": 4, "jobs": [
                {"speedup": {"model": "roofline", "w": 8, "pbar": 4}},
                {"speedup": {"model": "roofline", "w": 4, "pbar": 1}}]}"#,
            "t",
        )
        .unwrap();
        let mut pa = PublishedAllotment::new(Published {
            eps1: Time::new(1, 2).unwrap(),
            eps2: Time::new(1, 10).unwrap(),
            area_factor: Time::one(),
            first_count_only: true,
            float_decisions: false,
        });
        // X = 8: Z = 4; k = 1: A p = 4 (t = 2 ≤ 4), B p = 1 (t = 4 ≤ 4);
        // Σ a = 12 < 1·4·4 = 16 → D(8) = min(4, 8) = 4.
        let (b, a) = pa
            .decide(&inst, &[0, 1], 1, &Time::from_int(8))
            .unwrap()
            .unwrap();
        assert_eq!(b, Time::from_int(4));
        assert_eq!(a, vec![vec![4], vec![1]]);
        // X = 4: Z = 2; k = 1: B needs t ≤ 2: none; k = 2: A p = 4, B p = 1:
        // 12 < 2·2·4 = 16 → 4.
        let (b, _) = pa
            .decide(&inst, &[0, 1], 1, &Time::from_int(4))
            .unwrap()
            .unwrap();
        assert_eq!(b, Time::from_int(4));
        // X = 3: Z = 3/2; k = 3 (t ≤ 4.5): A p = 4, B p = 1: 12 < 3·1.5·4 = 18 → min(4.5, 3).
        let (b, _) = pa
            .decide(&inst, &[0, 1], 1, &Time::from_int(3))
            .unwrap()
            .unwrap();
        assert_eq!(b, Time::from_int(3));
        // X = 2: Z = 1: B (t = 4) needs 4 units > K = 3: not achievable.
        assert!(pa
            .decide(&inst, &[0, 1], 1, &Time::from_int(2))
            .unwrap()
            .is_none());
        // The search: start 8 → D = 4; 2 fails; 3 → 3; 2.5 fails (B needs 4 > 3·1.25);
        // 2.75 → 2.75 ≤ 1.1·2.5: stop after 5 decisions with lo = 2.5.
        let a = pa.allot(&inst, &[0, 1], 1).unwrap();
        assert_eq!(a.alloc, vec![vec![4], vec![1]]);
        assert_eq!(a.bound.lower, Time::from_int(4));
        assert_eq!((a.decisions, a.lower), (5, Time::new(5, 2).unwrap()));
    }

    /// The bound of the module doc (without rule 5) against brute force on small random
    /// instances (fixed seeds), and the worst L/L* with rule 5, printed.
    #[test]
    fn published_reading_bounds() {
        use rand::{RngExt, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut worst_first = 0f64;
        for seed in 0..60u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let procs = rng.random_range(1..=4u32);
            let n = rng.random_range(1..=3usize);
            let g = rng.random_range(1..=2u32);
            let jobs: Vec<String> = (0..n)
                .map(|_| {
                    let w = rng.random_range(1..60u32);
                    let c = rng.random_range(0..4u32);
                    format!(
                        r#"{{"speedup": {{"model": "communication", "w": {w}, "c": "{c}/4"}}}}"#
                    )
                })
                .collect();
            let inst = Instance::from_json_str(
                &format!(r#"{{"processors": {procs}, "jobs": [{}]}}"#, jobs.join(",")),
                "random",
            )
            .unwrap();
            let ids: Vec<usize> = (0..n).collect();
            // L* by enumeration of a count per attempt.
            let slots = n * g as usize;
            let mut lstar: Option<Time> = None;
            for code in 0..(procs as u64).pow(slots as u32) {
                let mut c = code;
                let pairs: Vec<(usize, Vec<u32>)> = ids
                    .iter()
                    .map(|&j| {
                        let ps = (0..g)
                            .map(|_| {
                                let p = (c % procs as u64) as u32 + 1;
                                c /= procs as u64;
                                p
                            })
                            .collect();
                        (j, ps)
                    })
                    .collect();
                let l = chains_bound(&inst, &pairs).unwrap().lower;
                if lstar.as_ref().is_none_or(|m| l < *m) {
                    lstar = Some(l);
                }
            }
            let lstar = lstar.unwrap();
            let mut params = Published::as_published();
            params.first_count_only = false;
            params.float_decisions = false;
            let (e1, e2, f) = (0.3f64, 0.03f64, 1.1f64);
            let gf = f64::from(g);
            let bound = (1.0 + e1)
                * (1.0 + e2)
                * (1.0 + 2f64.powi(-23))
                * (1.0 / (1.0 - e1 / gf)).max(f / (1.0 + e1 - e1 / gf));
            let a = PublishedAllotment::new(params.clone())
                .allot(&inst, &ids, g)
                .unwrap();
            let r = a.bound.lower.to_f64() / lstar.to_f64();
            assert!(r <= bound, "seed {seed}: L/L* = {r} > {bound} ({inst:?})");
            // Rule 6 (their doubles) differs from the exact decision only by rounding, which
            // the bound's (1 + 2^−23) factor covers.
            params.float_decisions = true;
            let af = PublishedAllotment::new(params)
                .allot(&inst, &ids, g)
                .unwrap();
            let rf = af.bound.lower.to_f64() / lstar.to_f64();
            assert!(rf <= bound, "seed {seed}: doubles: L/L* = {rf} > {bound}");
            let a1 = PublishedAllotment::new(Published::as_published())
                .allot(&inst, &ids, g)
                .unwrap();
            assert!(
                a1.alloc.iter().all(|ps| ps.iter().all(|p| *p == ps[0])),
                "seed {seed}"
            );
            worst_first = worst_first.max(a1.bound.lower.to_f64() / lstar.to_f64());
        }
        eprintln!("published reading with rule 5: worst L/L* = {worst_first:.3}");
    }
}
