//! Exhaustive small-scope checks: every instance and scenario inside a stated scope, every
//! algorithm and priority rule, compared with the exact optimum.
//!
//! "Small scope" (Jackson's hypothesis): most bugs of an algorithm, and most counter-examples of
//! a wrong bound, show up on small cases; enumerating *all* of them leaves no blind spot inside
//! the scope. What is asserted on each case (rigid paper, Section 4):
//! - every heuristic's makespan ≥ OPT (a heuristic below OPT means a bug in it or in `opt`);
//! - Proposition 2: GREEDY with every priority ≤ (2 − 1/P)·OPT;
//! - Proposition 1: R-LIST with m ∈ {1, 2, |Q|} and LJF ≤ (3 − 4/(P+1))·OPT;
//! - every schedule passes the invariant checker (through [`super::run::algo`]).
//!
//! The scope is *ordered*: jobs are tuples, not multisets, because the algorithms break ties
//! by job index, so a permutation is a different case for them. OPT does not depend on the
//! order and is computed once per multiset (memoised on the sorted jobs).
//!
//! Default scope ([`RigidScope::DEFAULT`]) runs in CI; [`RigidScope::large`] behind
//! `RESCHED_EXHAUSTIVE=large` (see docs/design/ledger.md).
use super::run::{self, describe, label};
use super::{Budget, Measurement, OptRef, Tally};
use rayon::prelude::*;
use resched::bounds;
use resched::error::{Error, Result};
use resched::model::{Instance, Job, Scenario};
use resched::oracle::{catalogue, AlgoSpec};
use resched::schedulers::Priority;
use resched::time::Time;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

/// The rigid scope: P in 1..=max_procs, n in 1..=max_jobs, t_j in `times`, p_j in 1..=P,
/// f_j in 0..=max_failures.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RigidScope {
    pub max_procs: u32,
    pub max_jobs: usize,
    pub times: Vec<i64>,
    pub max_failures: u32,
}

impl RigidScope {
    /// The CI scope: P ≤ 3, n ≤ 3, t_j ∈ {1, 2, 3}, f_j ≤ 2 (27 432 cases).
    pub const DEFAULT: RigidScope = RigidScope {
        max_procs: 3,
        max_jobs: 3,
        times: Vec::new(),
        max_failures: 2,
    };

    /// The times of the scope ({1, 2, 3} when the list is left empty, as in the constants).
    pub fn times(&self) -> Vec<i64> {
        if self.times.is_empty() {
            vec![1, 2, 3]
        } else {
            self.times.clone()
        }
    }

    /// A small scope for tests of the machinery around the check (sharding, merging):
    /// P ≤ 2, n ≤ 2, t_j ∈ {1, 2, 3}, f_j ≤ 2 (432 cases; `RESCHED_EXHAUSTIVE=small`).
    pub const SMALL: RigidScope = RigidScope {
        max_procs: 2,
        max_jobs: 2,
        times: Vec::new(),
        max_failures: 2,
    };

    /// The larger scope: P ≤ 4, n ≤ 3, t_j ∈ {1, 2, 3}, f_j ≤ 2 (75 420 cases).
    pub fn large() -> RigidScope {
        RigidScope {
            max_procs: 4,
            ..RigidScope::DEFAULT
        }
    }

    /// The scope named by `RESCHED_EXHAUSTIVE` (`large`, `small`), else the default.
    pub fn from_env() -> RigidScope {
        match std::env::var("RESCHED_EXHAUSTIVE").as_deref() {
            Ok("large") => RigidScope::large(),
            Ok("small") => RigidScope::SMALL,
            _ => RigidScope::DEFAULT,
        }
    }

    /// Number of (instance, scenario) cases in the scope.
    pub fn cases(&self) -> u64 {
        let t = self.times().len() as u64;
        let f = u64::from(self.max_failures) + 1;
        (1..=u64::from(self.max_procs))
            .map(|p| {
                (1..=self.max_jobs as u32)
                    .map(|n| (p * t * f).pow(n))
                    .sum::<u64>()
            })
            .sum()
    }
}

impl std::fmt::Display for RigidScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "P ≤ {}, n ≤ {}, t_j ∈ {:?}, p_j ∈ 1..=P, f_j ≤ {} ({} ordered cases)",
            self.max_procs,
            self.max_jobs,
            self.times(),
            self.max_failures,
            self.cases()
        )
    }
}

/// What an exhaustive run found.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExhaustiveReport {
    pub scope: String,
    /// (instance, scenario) cases enumerated.
    pub cases: u64,
    /// Distinct multisets whose OPT was solved.
    pub opt_solved: u64,
    /// Algorithm runs (each checked).
    pub runs: u64,
    /// Per ledger entry (`rigid.prop1`, `rigid.prop2`, `heuristic>=opt`): the tally of its bound.
    pub by_entry: BTreeMap<String, Tally>,
    /// Per algorithm: worst makespan/OPT and where.
    pub by_algo: BTreeMap<String, Tally>,
}

impl ExhaustiveReport {
    /// The report of `scope` made of per-instance parts (counts added, tallies merged); the
    /// first part that failed is the error.
    pub fn from_parts(
        scope: &str,
        parts: Vec<Result<ExhaustiveReport>>,
    ) -> Result<ExhaustiveReport> {
        let mut rep = ExhaustiveReport {
            scope: scope.to_string(),
            ..Default::default()
        };
        for part in parts {
            let part = part?;
            rep.cases += part.cases;
            rep.runs += part.runs;
            rep.opt_solved += part.opt_solved;
            for (k, t) in part.by_entry {
                rep.by_entry.entry(k).or_default().merge(t);
            }
            for (k, t) in part.by_algo {
                rep.by_algo.entry(k).or_default().merge(t);
            }
        }
        Ok(rep)
    }

    /// True when no bound broke.
    pub fn holds(&self) -> bool {
        self.by_entry.values().all(|t| t.violation_count == 0)
    }

    /// A Markdown summary: per entry and per algorithm, the worst ratio and its case.
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "Exhaustive scope: {} — {} cases, {} optima solved, {} checked runs.\n\n| statement | runs | worst ratio | min slack | violations | worst case |\n|---|---|---|---|---|---|\n",
            self.scope, self.cases, self.opt_solved, self.runs
        );
        for (k, t) in &self.by_entry {
            s.push_str(&row(k, t, true));
        }
        s.push_str("\n| algorithm | runs | worst makespan/OPT | worst case |\n|---|---|---|---|\n");
        for (k, t) in &self.by_algo {
            s.push_str(&row(k, t, false));
        }
        s
    }
}

fn row(k: &str, t: &Tally, with_slack: bool) -> String {
    let (w, case) = t
        .worst
        .as_ref()
        .map(|(w, c)| (super::show_ratio(w), c.as_str()))
        // default: a table cell `–` when nothing was measured
        .unwrap_or(("–".into(), ""));
    if !with_slack {
        return format!("| {k} | {} | {w} | {case} |\n", t.measured);
    }
    let (slack, at) = t
        .min_slack
        .as_ref()
        .map(|(s, c)| (super::show_ratio(s), c.as_str()))
        // default: a table cell `–` when nothing was measured
        .unwrap_or(("–".into(), ""));
    format!(
        "| {k} | {} | {w} | {slack} ({at}) | {} | {case} |\n",
        t.measured, t.violation_count
    )
}

/// Every rigid algorithm × every priority rule (RANDOM with seed 0), plus R-LIST(m = 2).
pub fn rigid_algos() -> Vec<AlgoSpec> {
    let mut names: Vec<&str> = catalogue::evaluated(catalogue::Paper::Rigid);
    names.insert(2, "r-list:2");
    names
        .iter()
        .flat_map(|n| Priority::ALL.iter().map(move |&p| run::spec(n, p)))
        .collect()
}

/// A ratio as a function of P.
type RatioFn = fn(u32) -> Time;
/// OPT memoised on (P, sorted (p_j, t_j, f_j)).
type OptMemo = Mutex<HashMap<(u32, Vec<(u32, i64, u32)>), OptRef>>;

/// The ledger entries each algorithm's runs count for.
fn entries_of(a: &AlgoSpec) -> Vec<(&'static str, RatioFn)> {
    let mut v: Vec<(&'static str, RatioFn)> = Vec::new();
    if a.name == "greedy" {
        v.push(("rigid.prop2", bounds::greedy_ratio));
    }
    if a.priority == Some(Priority::Ljf)
        && ["easy", "r-list:2", "conservative"].contains(&a.name.as_str())
    {
        v.push(("rigid.prop1", bounds::reservation_ratio));
    }
    v
}

/// The (p, t) of the `k`-th job choice of P (k in 0..P·|T|).
fn job_choice(k: u64, procs: u32, times: &[i64]) -> (u32, i64) {
    let t = times.len() as u64;
    ((k / t) as u32 % procs + 1, times[(k % t) as usize])
}

/// One instance of the rigid scope: (P, n, index of its job tuple).
pub type Unit = (u32, u32, u64);

/// The instances of the rigid scope in enumeration order (P, then n, then the job tuple).
pub fn rigid_units(scope: &RigidScope) -> Vec<Unit> {
    let times = scope.times();
    let mut units: Vec<Unit> = Vec::new();
    for procs in 1..=scope.max_procs {
        let choices = u64::from(procs) * times.len() as u64;
        for n in 1..=scope.max_jobs as u32 {
            for idx in 0..choices.pow(n) {
                units.push((procs, n, idx));
            }
        }
    }
    units
}

/// Runs the rigid exhaustive check over `scope`. Parallel over instances (rayon); the report is
/// merged in enumeration order, so it is the same on any thread count.
pub fn rigid(scope: &RigidScope, budget: &Budget) -> Result<ExhaustiveReport> {
    rigid_block(scope, budget, 0..rigid_units(scope).len())
}

/// The rigid check over the instances `block` of [`rigid_units`] (a shard's part). Its
/// `opt_solved` counts the distinct optima of the block; the merge of all blocks counts those
/// of the scope with [`distinct_optima`].
pub fn rigid_block(
    scope: &RigidScope,
    budget: &Budget,
    block: std::ops::Range<usize>,
) -> Result<ExhaustiveReport> {
    let algos = rigid_algos();
    let times = scope.times();
    let units = rigid_units(scope);
    let units = units.get(block.clone()).ok_or_else(|| {
        Error::Limit(format!(
            "exhaustive: block {block:?} outside the scope's {} instances",
            units.len()
        ))
    })?;
    let memo: OptMemo = Mutex::new(HashMap::new());
    let parts: Vec<Result<ExhaustiveReport>> = units
        .par_iter()
        .map(|&(procs, n, idx)| one_instance(procs, n, idx, scope, &times, &algos, budget, &memo))
        .collect();
    let mut rep = ExhaustiveReport::from_parts(&scope.to_string(), parts)?;
    // The parts share one memo of optima: count its entries, not the parts' solves.
    // default: a poisoned memo (a worker panicked, reported by its own error) counts 0 solves; the count is informative only
    rep.opt_solved = memo.lock().map(|m| m.len() as u64).unwrap_or(0);
    Ok(rep)
}

/// The number of distinct optima [`rigid`] solves on `scope`: the distinct keys (P, sorted
/// (p_j, t_j, f_j)) of its cases, enumerated without solving anything.
pub fn distinct_optima(scope: &RigidScope) -> u64 {
    let times = scope.times();
    let f = scope.max_failures + 1;
    let mut keys = std::collections::HashSet::new();
    for (procs, n, idx) in rigid_units(scope) {
        let jobs = job_tuple(procs, n, idx, &times);
        for sidx in 0..u64::from(f).pow(n) {
            keys.insert(opt_key(procs, &jobs, &failure_tuple(sidx, n, f)));
        }
    }
    keys.len() as u64
}

/// The (p, t) of the jobs of instance `idx` among the n-tuples of P's job choices.
fn job_tuple(procs: u32, n: u32, idx: u64, times: &[i64]) -> Vec<(u32, i64)> {
    let choices = u64::from(procs) * times.len() as u64;
    let mut rest = idx;
    let mut keys = Vec::with_capacity(n as usize);
    for _ in 0..n {
        keys.push(job_choice(rest % choices, procs, times));
        rest /= choices;
    }
    keys
}

/// The failure counts of scenario `sidx` among the n-tuples of 0..f.
fn failure_tuple(sidx: u64, n: u32, f: u32) -> Vec<u32> {
    let mut s = sidx;
    (0..n)
        .map(|_| {
            let v = (s % u64::from(f)) as u32;
            s /= u64::from(f);
            v
        })
        .collect()
}

/// OPT depends on P and on the multiset of (p_j, t_j, f_j), not on the job order.
fn opt_key(procs: u32, jobs: &[(u32, i64)], failures: &[u32]) -> (u32, Vec<(u32, i64, u32)>) {
    let mut key: Vec<(u32, i64, u32)> = jobs
        .iter()
        .zip(failures)
        .map(|(&(p, t), &f)| (p, t, f))
        .collect();
    key.sort_unstable();
    (procs, key)
}

#[allow(clippy::too_many_arguments)]
fn one_instance(
    procs: u32,
    n: u32,
    idx: u64,
    scope: &RigidScope,
    times: &[i64],
    algos: &[AlgoSpec],
    budget: &Budget,
    memo: &OptMemo,
) -> Result<ExhaustiveReport> {
    let keys = job_tuple(procs, n, idx, times);
    let jobs: Vec<Job> = keys
        .iter()
        .enumerate()
        .map(|(j, &(p, t))| Job::rigid(format!("J{}", j + 1), p, Time::from_int(t)))
        .collect();
    let inst = Instance::new(procs, jobs).map_err(|e| e.in_file("exhaustive"))?;
    let mut rep = ExhaustiveReport::default();
    let f = scope.max_failures + 1;
    for sidx in 0..u64::from(f).pow(n) {
        let failures = failure_tuple(sidx, n, f);
        let sc = Scenario::new(failures.clone());
        let key = opt_key(procs, &keys, &failures);
        let cached = memo
            .lock()
            .map_err(|_| Error::Limit("poisoned memo".into()))?
            .get(&key)
            .cloned();
        let opt = match cached {
            Some(o) => o,
            None => {
                let o = run::opt(&inst, &sc, budget)?;
                memo.lock()
                    .map_err(|_| Error::Limit("poisoned memo".into()))?
                    .insert(key, o.clone());
                o
            }
        };
        let OptRef::Exact(opt_v) = &opt else {
            return Err(Error::Limit(format!(
                "exhaustive: OPT not proven within the node budget on {}",
                describe(&inst, &sc)
            )));
        };
        if *opt_v < run::rigid_lower(&inst, &sc)? {
            return Err(Error::Solver(format!(
                "OPT {opt_v} below L(f) on {}",
                describe(&inst, &sc)
            )));
        }
        rep.cases += 1;
        for a in algos {
            let mk = run::algo(&inst, &sc, a)?;
            rep.runs += 1;
            let name = label(a);
            let case = || describe(&inst, &sc);
            // Every heuristic is at least OPT: bound 1 read as a lower bound on makespan/OPT.
            let ge = Measurement::lower(name.clone(), mk.clone(), opt.clone(), Time::one())?;
            rep.by_entry
                .entry("heuristic>=opt".into())
                .or_default()
                .add(&ge, case);
            let r = Measurement::upper(
                name.clone(),
                mk.clone(),
                opt.clone(),
                Time::from_int(i64::MAX),
            )?;
            rep.by_algo.entry(name.clone()).or_default().add(&r, case);
            // At P = 1 every bound equals 1 and every algorithm is serial: those cases are
            // checked (heuristic ≥ OPT) but kept out of the bounds' tallies, whose gap would
            // otherwise always read 0.
            for (id, bound) in entries_of(a).into_iter().filter(|_| procs > 1) {
                let m = Measurement::upper(name.clone(), mk.clone(), opt.clone(), bound(procs))?;
                rep.by_entry.entry(id.into()).or_default().add(&m, case);
            }
        }
    }
    Ok(rep)
}

/// [`rigid`] computed once per scope and budget in this process (the ledger's entries share it).
pub fn rigid_cached(scope: &RigidScope, budget: &Budget) -> Result<ExhaustiveReport> {
    type Cache = Mutex<HashMap<(RigidScope, u64), ExhaustiveReport>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (scope.clone(), budget.opt_nodes);
    if let Some(r) = cache
        .lock()
        .map_err(|_| Error::Limit("poisoned cache".into()))?
        .get(&key)
    {
        return Ok(r.clone());
    }
    let r = rigid(scope, budget)?;
    cache
        .lock()
        .map_err(|_| Error::Limit("poisoned cache".into()))?
        .insert(key, r.clone());
    Ok(r)
}
