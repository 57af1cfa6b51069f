//! Exhaustive small-scope checks for moldable jobs (moldable paper, Section 4): every instance
//! whose jobs are monotonic tables from a stated grid, every scenario, every moldable algorithm
//! with the paper's priority rules, compared with the exact OPT.
//!
//! Scope ([`MoldableScope::DEFAULT`]): P ≤ 3, n ≤ 2, f_j ≤ 1; a job is a monotonic table with
//! t(1) ∈ {1, 2, 3, 4} and each further t(p) at k/2 (k ∈ {0, 1, 2}) of the way from the
//! perfect-speedup value (p−1)/p·t(p−1) to t(p−1) — every table of that grid is monotonic (t
//! non-increasing, p·t(p) non-decreasing). Ordered tuples of jobs (ties go by job index).
//!
//! Asserted on each case:
//! - every algorithm's makespan ≥ OPT;
//! - Lemma 2 with the exact α = A(f,p)/A(f,p*), β = t_max(f,p)/t_max(f,p*) of an optimal
//!   schedule's allocation p*: LPA-LIST, MINTIME, MINAREA ≤ r(α, β)·OPT;
//! - Theorem 11: BATCH-LIST ≤ 2(1+ε)·⌈log2(f_max+2)⌉·OPT (ε = 3/10).
use super::exhaustive::ExhaustiveReport;
use super::moldable_cases::run_moldable;
use super::run::describe;
use super::{Budget, Measurement, OptRef};
use rayon::prelude::*;
use resched::bounds::moldable as mb;
use resched::error::{Error, Result};
use resched::model::{Instance, Job, Profile, Scenario, Schedule, SpeedupModel};
use resched::schedulers::moldable as ms;
use resched::schedulers::Priority;
use resched::time::Time;

/// The moldable scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoldableScope {
    pub max_procs: u32,
    pub max_jobs: usize,
    pub max_t1: i64,
    pub max_failures: u32,
}

impl MoldableScope {
    /// P ≤ 3, n ≤ 2, t(1) ≤ 4, f_j ≤ 1.
    pub const DEFAULT: MoldableScope = MoldableScope {
        max_procs: 3,
        max_jobs: 2,
        max_t1: 4,
        max_failures: 1,
    };
    /// P ≤ 4, n ≤ 2, t(1) ≤ 4, f_j ≤ 2 (`RESCHED_EXHAUSTIVE=large`).
    pub const LARGE: MoldableScope = MoldableScope {
        max_procs: 4,
        max_jobs: 2,
        max_t1: 4,
        max_failures: 2,
    };

    /// P ≤ 2, n ≤ 2, t(1) ≤ 3, f_j ≤ 1 (`RESCHED_EXHAUSTIVE=small`: tests of sharding).
    pub const SMALL: MoldableScope = MoldableScope {
        max_procs: 2,
        max_jobs: 2,
        max_t1: 3,
        max_failures: 1,
    };

    /// The scope named by `RESCHED_EXHAUSTIVE` (`large`, `small`), else the default.
    pub fn from_env() -> MoldableScope {
        match std::env::var("RESCHED_EXHAUSTIVE").as_deref() {
            Ok("large") => MoldableScope::LARGE,
            Ok("small") => MoldableScope::SMALL,
            _ => MoldableScope::DEFAULT,
        }
    }
}

impl std::fmt::Display for MoldableScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "moldable: P ≤ {}, n ≤ {}, monotonic tables t(1) ∈ 1..={}, t(p) = lo + k/2·(t(p−1) − lo), lo = (p−1)/p·t(p−1), \
             k ∈ {{0,1,2}}, f_j ≤ {}",
            self.max_procs, self.max_jobs, self.max_t1, self.max_failures
        )
    }
}

/// Every table of the grid for P processors.
pub fn tables(procs: u32, max_t1: i64) -> Vec<Vec<Time>> {
    let mut out: Vec<Vec<Time>> = (1..=max_t1).map(|t| vec![Time::from_int(t)]).collect();
    for p in 2..=u64::from(procs) {
        let mut next = Vec::with_capacity(out.len() * 3);
        for t in &out {
            let prev = &t[t.len() - 1];
            // unreachable: p ≥ 2 in this loop, the divisor is nonzero
            let lo = prev.mul_int(p - 1).div_int(p).unwrap_or_default();
            for k in 0..=2u64 {
                let mut v = t.clone();
                // unreachable: the divisor is the literal 2
                v.push(&lo + &(prev - &lo).mul_int(k).div_int(2).unwrap_or_default());
                next.push(v);
            }
        }
        out = next;
    }
    out
}

fn job(name: String, times: &[Time]) -> Job {
    Job {
        name,
        profile: Profile::Moldable {
            model: SpeedupModel::Table {
                times: times.to_vec(),
                monotonic: true,
            },
            times: times.to_vec(),
        },
    }
}

/// The algorithms run on every case.
pub fn algos() -> Vec<(&'static str, Priority)> {
    let mut v = Vec::new();
    for name in ["lpa-list", "mintime", "minarea", "batch-list"] {
        for p in [Priority::Lpt, Priority::Hpa, Priority::La] {
            v.push((name, p));
        }
    }
    v
}

/// The instances of the moldable scope in enumeration order: (P, n, index of its job tuple).
pub fn moldable_units(scope: &MoldableScope) -> Vec<(u32, u32, u64)> {
    let mut units = Vec::new();
    for procs in 1..=scope.max_procs {
        let tabs = tables(procs, scope.max_t1);
        for n in 1..=scope.max_jobs as u32 {
            for idx in 0..(tabs.len() as u64).pow(n) {
                units.push((procs, n, idx));
            }
        }
    }
    units
}

/// Runs the moldable exhaustive check over `scope`.
pub fn moldable(scope: &MoldableScope, budget: &Budget) -> Result<ExhaustiveReport> {
    moldable_block(scope, budget, 0..moldable_units(scope).len())
}

/// The moldable check over the instances `block` of [`moldable_units`] (a shard's part).
pub fn moldable_block(
    scope: &MoldableScope,
    budget: &Budget,
    block: std::ops::Range<usize>,
) -> Result<ExhaustiveReport> {
    let units = moldable_units(scope);
    let units = units.get(block.clone()).ok_or_else(|| {
        Error::Limit(format!(
            "exhaustive: block {block:?} outside the scope's {} instances",
            units.len()
        ))
    })?;
    let parts: Vec<Result<ExhaustiveReport>> = units
        .par_iter()
        .map(|&(procs, n, idx)| one(procs, n, idx, scope, budget))
        .collect();
    ExhaustiveReport::from_parts(&scope.to_string(), parts)
}

fn one(
    procs: u32,
    n: u32,
    idx: u64,
    scope: &MoldableScope,
    budget: &Budget,
) -> Result<ExhaustiveReport> {
    let tabs = tables(procs, scope.max_t1);
    let mut rest = idx;
    let mut jobs = Vec::new();
    for j in 0..n {
        jobs.push(job(
            format!("J{}", j + 1),
            &tabs[(rest % tabs.len() as u64) as usize],
        ));
        rest /= tabs.len() as u64;
    }
    let inst = Instance::new(procs, jobs).map_err(|e| e.in_file("exhaustive"))?;
    let eps = ms::Eps::paper().get().clone();
    let mut rep = ExhaustiveReport::default();
    let f = u64::from(scope.max_failures) + 1;
    for sidx in 0..f.pow(n) {
        let mut s = sidx;
        let failures: Vec<u32> = (0..n)
            .map(|_| {
                let v = (s % f) as u32;
                s /= f;
                v
            })
            .collect();
        let sc = Scenario::new(failures);
        let (opt_v, opt_s) = exact(&inst, &sc, budget)?;
        rep.opt_solved += 1;
        rep.cases += 1;
        let star = mb::lower_bound(&inst, &sc, |j, a| {
            opt_s
                .attempts
                .iter()
                .find(|x| x.job == j && x.attempt == a)
                .map(|x| x.procs)
                // unreachable: the schedule was made for this scenario, so attempt a of job j exists; 0 processors would fail the caller's check loudly
                .unwrap_or(0)
        })?;
        let opt = OptRef::Exact(opt_v.clone());
        for (name, prio) in algos() {
            let e = (name == "batch-list").then_some(&eps);
            let (mk, _) = run_moldable(&inst, &sc, name, prio, e)?;
            rep.runs += 1;
            let label = format!("{name}/{prio}");
            let case = || describe(&inst, &sc);
            let ge = Measurement::lower(label.clone(), mk.clone(), opt.clone(), Time::one())?;
            rep.by_entry
                .entry("heuristic>=opt".into())
                .or_default()
                .add(&ge, case);
            let r = Measurement::upper(
                label.clone(),
                mk.clone(),
                opt.clone(),
                Time::from_int(i64::MAX),
            )?;
            rep.by_algo.entry(label.clone()).or_default().add(&r, case);
            if procs == 1 {
                continue;
            }
            if name == "batch-list" {
                // default: no job, no failure (an empty scenario has f_max = 0)
                let fmax = sc.failures.iter().copied().max().unwrap_or(0);
                let m = Measurement::upper(label, mk, opt.clone(), mb::batch_bound(&eps, fmax))?;
                rep.by_entry
                    .entry("moldable.thm11".into())
                    .or_default()
                    .add(&m, case);
            } else {
                let alloc = match name {
                    "mintime" => ms::lpa::mintime_alloc(&inst),
                    "minarea" => ms::lpa::minarea_alloc(&inst),
                    _ => ms::lpa::lpa(&inst),
                };
                let mine = mb::lower_bound_fixed(&inst, &sc, &alloc)?;
                let alpha = super::ratio(&mine.area, &star.area)?;
                let beta = super::ratio(&mine.tmax, &star.tmax)?;
                let m = Measurement::upper(
                    label,
                    mk,
                    opt.clone(),
                    mb::r_alpha_beta(&alpha, &beta, procs),
                )?;
                rep.by_entry
                    .entry("moldable.lemma2".into())
                    .or_default()
                    .add(&m, case);
            }
        }
    }
    Ok(rep)
}

fn exact(inst: &Instance, sc: &Scenario, budget: &Budget) -> Result<(Time, Schedule)> {
    let cfg = resched::opt::OptConfig {
        method: resched::opt::Method::Search,
        time_limit: std::time::Duration::from_secs(30),
        node_limit: Some(budget.opt_nodes.max(1_000_000)),
        ..resched::opt::OptConfig::default()
    };
    let r = resched::opt::solve(inst, sc, &cfg)?;
    let m = resched::check::check(inst, sc, &r.schedule)?;
    if !r.is_optimal() {
        return Err(Error::Limit(format!(
            "exhaustive: OPT not proven on {}",
            describe(inst, sc)
        )));
    }
    Ok((m, r.schedule))
}

/// [`moldable`] computed once per scope and node budget in this process (ledger entries share it).
pub fn moldable_cached(scope: &MoldableScope, budget: &Budget) -> Result<ExhaustiveReport> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<HashMap<(MoldableScope, u64), ExhaustiveReport>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (*scope, budget.opt_nodes);
    if let Some(r) = cache
        .lock()
        .map_err(|_| Error::Limit("poisoned cache".into()))?
        .get(&key)
    {
        return Ok(r.clone());
    }
    let r = moldable(scope, budget)?;
    cache
        .lock()
        .map_err(|_| Error::Limit("poisoned cache".into()))?
        .insert(key, r.clone());
    Ok(r)
}
