//! Adversarial search: a seeded local search over instances and failure scenarios that
//! maximises makespan/OPT for an algorithm, to measure how tight a proven ratio is and to give
//! the papers' open gaps (moldable paper Theorems 3, 5, 7: LPA-LIST on the communication,
//! Amdahl and mix models) the best lower bound we can exhibit.
//!
//! The search is a hill climb with restarts: from a random small case, apply a random mutation
//! (change a job's processors, time or failures; add, remove or duplicate a job; change P) and
//! keep the result when its ratio is at least the current one (sideways moves let it cross
//! plateaus). The ratio is against the *exact* OPT (the exact search of [`resched::opt`]); a case
//! whose OPT is not proven within the node budget is scored against the best schedule found
//! (an upper bound on OPT), so a reported ratio is never larger than the true one: what the
//! search reports is a certified lower bound on the algorithm's approximation ratio.
//!
//! Determinism: everything is drawn from one `ChaCha8Rng` seeded by (budget seed, a hash of the
//! algorithm name); the same seed and budget give the same result on any machine.
//!
//! The worst cases found are saved as golden cases in `tests/cases/adversarial/` by
//! `resched prove --search` (see docs/design/ledger.md), and re-checked by the ledger.
use super::run::{self, label};
use super::{Budget, OptRef};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use resched::error::Result;
use resched::model::arbitrary::Scope;
use resched::model::speedup::ModelKind;
use resched::model::{Instance, Job, Profile, Scenario, SpeedupModel};
use resched::oracle::{corpus, AlgoSpec};
use resched::schedulers::moldable::Priority as MPriority;
use resched::time::Time;

/// The worst case found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub algo: String,
    pub instance: Instance,
    pub scenario: Scenario,
    pub makespan: Time,
    pub opt: OptRef,
    /// makespan / (upper end of OPT): a certified lower bound on the approximation ratio.
    pub ratio: Time,
    /// Evaluations made.
    pub evaluations: u64,
}

/// Limits of the cases the rigid search visits (kept small so that OPT is exact and fast).
const MAX_PROCS: u32 = 6;
const MAX_JOBS: usize = 5;
const MAX_ATTEMPTS: u32 = 12;
const MAX_FAILURES: u32 = 4;

/// FNV-1a of a string, to derive a per-algorithm stream from the seed.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Scores a case: (certified ratio, makespan, OPT).
pub fn score(
    inst: &Instance,
    sc: &Scenario,
    run_algo: &dyn Fn(&Instance, &Scenario) -> Result<Time>,
    budget: &Budget,
) -> Result<(Time, Time, OptRef)> {
    let mk = run_algo(inst, sc)?;
    let opt = run::opt(inst, sc, budget)?;
    // default: an OPT without an upper bound (search stopped) is measured against its proven lower bound, which only makes the ratio larger (a safe over-estimate)
    let up = opt.upper().cloned().unwrap_or_else(|| opt.lower().clone());
    Ok((super::ratio(&mk, &up)?, mk, opt))
}

/// Draws a starting case.
pub type StartFn<'a> = &'a dyn Fn(&mut ChaCha8Rng) -> Result<(Instance, Scenario)>;
/// Perturbs a case (`None`: the mutation left the search's limits).
pub type MutateFn<'a> =
    &'a dyn Fn(&mut ChaCha8Rng, &Instance, &Scenario) -> Option<(Instance, Scenario)>;
/// Scores a case: (certified ratio, makespan, OPT).
pub type ScoreFn<'a> = &'a dyn Fn(&Instance, &Scenario) -> Result<(Time, Time, OptRef)>;

/// The generic hill climb: `start` draws a case, `mutate` perturbs one, `score` evaluates it.
/// Runs `steps` evaluations in all, restarting every `restart` steps without improvement.
pub fn climb(
    algo: &str,
    seed: u64,
    steps: u64,
    restart: u64,
    start: StartFn<'_>,
    mutate: MutateFn<'_>,
    score: ScoreFn<'_>,
) -> Result<Found> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv(algo));
    let (i0, s0) = start(&mut rng)?;
    let (r0, m0, o0) = score(&i0, &s0)?;
    let mut best = Found {
        algo: algo.to_string(),
        instance: i0.clone(),
        scenario: s0.clone(),
        makespan: m0,
        opt: o0,
        ratio: r0.clone(),
        evaluations: 1,
    };
    let mut cur = (i0, s0, r0);
    let mut stale = 0u64;
    for _ in 1..steps.max(1) {
        let next = if stale >= restart {
            stale = 0;
            Some(start(&mut rng)?)
        } else {
            mutate(&mut rng, &cur.0, &cur.1)
        };
        let Some((inst, sc)) = next else { continue };
        let (r, m, o) = score(&inst, &sc)?;
        best.evaluations += 1;
        if r > best.ratio {
            best = Found {
                algo: algo.to_string(),
                instance: inst.clone(),
                scenario: sc.clone(),
                makespan: m,
                opt: o,
                ratio: r.clone(),
                evaluations: best.evaluations,
            };
        }
        if r >= cur.2 {
            if r > cur.2 {
                stale = 0;
            } else {
                stale += 1;
            }
            cur = (inst, sc, r);
        } else {
            stale += 1;
        }
    }
    Ok(best)
}

/// A random rigid start within the search's limits.
fn rigid_start(rng: &mut ChaCha8Rng) -> Result<(Instance, Scenario)> {
    let scope = Scope {
        max_procs: MAX_PROCS,
        max_jobs: 4,
        max_failures: 2,
        max_num: 6,
        max_den: 2,
        moldable_weight: 0,
    };
    let c = run::random_case(rng.random::<u64>(), 0, scope)?;
    Ok((c.instance, c.scenario))
}

/// One random mutation of a rigid case; `None` when it would leave the limits.
fn rigid_mutate(
    rng: &mut ChaCha8Rng,
    inst: &Instance,
    sc: &Scenario,
) -> Option<(Instance, Scenario)> {
    let mut procs = inst.procs;
    let mut jobs: Vec<(u32, Time)> = inst
        .jobs
        .iter()
        .filter_map(|j| j.as_rigid().map(|(p, t)| (p, t.clone())))
        .collect();
    let mut f = sc.failures.clone();
    let n = jobs.len();
    let j = rng.random_range(0..n);
    match rng.random_range(0..8u32) {
        0 => jobs[j].0 = rng.random_range(1..=procs),
        1 => {
            jobs[j].1 =
                // unreachable: the denominator is drawn from 1..=2, never zero
                Time::new(rng.random_range(1..=8), rng.random_range(1..=2)).unwrap_or_default()
        }
        2 => f[j] = rng.random_range(0..=MAX_FAILURES),
        3 if n < MAX_JOBS => {
            jobs.push((
                rng.random_range(1..=procs),
                Time::from_int(rng.random_range(1..=6)),
            ));
            f.push(rng.random_range(0..=2));
        }
        4 if n > 1 => {
            jobs.remove(j);
            f.remove(j);
        }
        5 if n < MAX_JOBS => {
            jobs.push(jobs[j].clone());
            f.push(f[j]);
        }
        6 => {
            procs = rng.random_range(1..=MAX_PROCS);
            for (p, _) in &mut jobs {
                *p = (*p).min(procs);
            }
        }
        _ => {
            // Swap two jobs: the order matters to tie-breaking.
            let k = rng.random_range(0..n);
            jobs.swap(j, k);
            f.swap(j, k);
        }
    }
    let attempts: u32 = f.iter().map(|x| x + 1).sum();
    if attempts > MAX_ATTEMPTS {
        return None;
    }
    let inst = Instance::new(
        procs,
        jobs.into_iter()
            .enumerate()
            .map(|(k, (p, t))| Job::rigid(format!("J{}", k + 1), p, t))
            .collect(),
    )
    .ok()?;
    Some((inst, Scenario::new(f)))
}

/// The seed of climb `k` of a search with `--restarts`: climb 0 is the search's own seed (a
/// one-climb search is the search without restarts), the others are spread by a large odd
/// multiplier so that no two climbs share a stream.
pub fn climb_seed(seed: u64, k: u64) -> u64 {
    seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The better of two finds of independent climbs, in climb order: the larger ratio, the
/// earlier on a tie; the evaluations of both count.
pub fn best_of(first: Found, later: Found) -> Found {
    let evaluations = first.evaluations + later.evaluations;
    let best = if later.ratio > first.ratio {
        later
    } else {
        first
    };
    Found {
        evaluations,
        ..best
    }
}

/// Independent climbs `climbs` of a search (`--restarts K --shard I/N`: a shard's block of
/// 0..K), each of `budget.adversarial` steps from its own [`climb_seed`], folded with
/// [`best_of`] in climb order; `None` for an empty block.
pub fn climbs(
    climbs: std::ops::Range<u64>,
    budget: &Budget,
    search: &dyn Fn(&Budget) -> Result<Found>,
) -> Result<Option<Found>> {
    let mut best: Option<Found> = None;
    for k in climbs {
        let b = Budget {
            seed: climb_seed(budget.seed, k),
            ..budget.clone()
        };
        let f = search(&b)?;
        best = Some(match best {
            Some(x) => best_of(x, f),
            None => f,
        });
    }
    Ok(best)
}

/// Searches rigid cases that maximise makespan/OPT for `spec` with `budget.adversarial` steps.
pub fn search_rigid(spec: &AlgoSpec, budget: &Budget) -> Result<Found> {
    let name = label(spec);
    let run_algo = |i: &Instance, s: &Scenario| run::algo(i, s, spec);
    let sc = |i: &Instance, s: &Scenario| score(i, s, &run_algo, budget);
    climb(
        &name,
        budget.seed,
        budget.adversarial,
        30,
        &rigid_start,
        &rigid_mutate,
        &sc,
    )
}

/// The JSON of a golden case in the corpus schema ([`resched::oracle::corpus`], documented in
/// `tests/cases/README.md`), so the corpus runner re-checks it: the oracle's lower bound, OPT
/// when the search proved it exact (an interval is stated in the description only), and
/// `expect` = (algorithm, priority, exact makespan), the ratio stated in each `why`.
pub fn golden_json(found: &Found, expect: &[(String, String, Time)], note: &str) -> Result<String> {
    golden_case(found, expect, note)?.to_json()
}

/// The golden case of [`golden_json`], before it is written (the `resched` program adds the
/// build that wrote it).
pub fn golden_case(
    found: &Found,
    expect: &[(String, String, Time)],
    note: &str,
) -> Result<corpus::Case> {
    let opt = match &found.opt {
        OptRef::Exact(t) => format!("OPT = {t} (exact search)"),
        other => other.to_string(),
    };
    let lower = found.opt.lower().clone();
    let mut case = corpus::Case::new(format!("{note}; {opt}"), &found.instance, &found.scenario)?;
    if let OptRef::Exact(t) = &found.opt {
        case.opt = Some(corpus::Opt {
            makespan: t.clone(),
            why: "proven by the exact search (opt::solve, method search) when the adversarial \
                  search saved the case"
                .into(),
        });
    }
    case.expect = expect
        .iter()
        .map(|(a, p, m)| corpus::Expect {
            algorithm: a.clone(),
            priority: p.clone(),
            seed: None,
            eps: None,
            makespan: m.clone(),
            why: format!(
                "found by the adversarial search; {opt}; makespan/OPT = {}",
                super::ratio(m, &lower)
                    .map(|r| r.to_string())
                    // default: an empty cell when no lower bound is positive (the ratio is undefined and printed as such)
                    .unwrap_or_default()
            ),
        })
        .collect();
    Ok(case)
}

/// One random mutation of a moldable case of model `kind`: redraw a job's parameters, add,
/// remove or duplicate a job, change a job's failures, or change P (tables are rebuilt).
fn moldable_mutate(
    kind: ModelKind,
    rng: &mut ChaCha8Rng,
    inst: &Instance,
    sc: &Scenario,
) -> Option<(Instance, Scenario)> {
    let mut procs = inst.procs;
    let mut models: Vec<SpeedupModel> = inst
        .jobs
        .iter()
        .filter_map(|j| match &j.profile {
            Profile::Moldable { model, .. } => Some(model.clone()),
            Profile::Rigid { .. } => None,
        })
        .collect();
    let mut f = sc.failures.clone();
    let n = models.len();
    let j = rng.random_range(0..n);
    let fresh = |rng: &mut ChaCha8Rng, procs: u32| -> Option<SpeedupModel> {
        match super::moldable_cases::random_job(rng, kind, procs, "x".into())
            .ok()?
            .profile
        {
            Profile::Moldable { model, .. } => Some(model),
            Profile::Rigid { .. } => None,
        }
    };
    match rng.random_range(0..6u32) {
        0 | 1 => models[j] = fresh(rng, procs)?,
        2 => f[j] = rng.random_range(0..=MOLDABLE_MAX_F),
        3 if n < MOLDABLE_MAX_JOBS => {
            models.push(if rng.random::<bool>() {
                models[j].clone()
            } else {
                fresh(rng, procs)?
            });
            f.push(rng.random_range(0..=MOLDABLE_MAX_F));
        }
        4 if n > 1 => {
            models.remove(j);
            f.remove(j);
        }
        _ => {
            procs = rng.random_range(2..=MOLDABLE_MAX_PROCS);
            // Keep p̄ within 1..=P.
            for m in &mut models {
                match m {
                    SpeedupModel::Roofline { pbar, .. } | SpeedupModel::Mix { pbar, .. } => {
                        *pbar = (*pbar).min(procs)
                    }
                    _ => {}
                }
            }
        }
    }
    let mut jobs = Vec::with_capacity(models.len());
    for (k, model) in models.into_iter().enumerate() {
        let times = model.table(procs, "m").ok()?;
        jobs.push(Job {
            name: format!("J{}", k + 1),
            profile: Profile::Moldable { model, times },
        });
    }
    Some((Instance::new(procs, jobs).ok()?, Scenario::new(f)))
}

const MOLDABLE_MAX_PROCS: u32 = 16;
const MOLDABLE_MAX_JOBS: usize = 3;
const MOLDABLE_MAX_F: u32 = 1;

/// Searches cases of model `kind` that maximise makespan/OPT for LPA-LIST (best of the LPT,
/// HPA and LA priorities), with `budget.adversarial` steps. Cases stay small (P ≤ 16, n ≤ 3,
/// f_j ≤ 1) so that the exact optimum is proven.
pub fn search_lpa(kind: ModelKind, budget: &Budget) -> Result<Found> {
    let name = format!("lpa-list ({kind:?})");
    let run_algo = |i: &Instance, s: &Scenario| -> Result<Time> {
        let mut worst = Time::zero();
        for prio in [MPriority::Lpt, MPriority::Hpa, MPriority::La] {
            worst = worst.max(super::moldable_cases::run_moldable(i, s, "lpa-list", prio, None)?.0);
        }
        Ok(worst)
    };
    let start = |rng: &mut ChaCha8Rng| {
        super::moldable_cases::random_model_case(
            rng,
            kind,
            MOLDABLE_MAX_PROCS,
            MOLDABLE_MAX_JOBS,
            MOLDABLE_MAX_F,
        )
    };
    let mutate =
        |rng: &mut ChaCha8Rng, i: &Instance, s: &Scenario| moldable_mutate(kind, rng, i, s);
    let sc = |i: &Instance, s: &Scenario| score(i, s, &run_algo, budget);
    climb(
        &name,
        budget.seed,
        budget.adversarial,
        40,
        &start,
        &mutate,
        &sc,
    )
}
