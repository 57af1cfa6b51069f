//! Running algorithms for the ledger: every schedule goes through the engine and the invariant
//! checker, every optimum through the exact solver or an explicit checked schedule.
//!
//! This is the only place the ledger touches the schedulers' registry and the optimum, so the
//! entries stay statements about makespans and bounds.
use super::{Budget, OptRef};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use resched::check;
use resched::engine::Scheduler;
use resched::error::{Error, Result};
use resched::model::arbitrary::{Case, Scope};
use resched::model::{Instance, Scenario, Schedule};
use resched::opt::{self, Method, OptConfig};
use resched::oracle::{self, AlgoSpec};
use resched::schedulers::Priority;
use resched::time::Time;
use std::time::Duration;

/// Runs a scheduler the catalogue does not name (a proof's fixed allotment) through the
/// oracle's certify path and returns the checked makespan.
pub fn run_checked(inst: &Instance, sc: &Scenario, sched: &mut dyn Scheduler) -> Result<Time> {
    Ok(oracle::certify_scheduler(sched, "ledger", inst, sc)?.makespan)
}

/// Certifies `spec` on the case and returns the checked makespan.
pub fn algo(inst: &Instance, sc: &Scenario, spec: &AlgoSpec) -> Result<Time> {
    Ok(oracle::certify(spec, inst, sc)?.makespan)
}

/// A spec `name` with `priority`.
pub fn spec(name: &str, priority: Priority) -> AlgoSpec {
    AlgoSpec::new(name).with_priority(priority)
}

/// `NAME/PRIORITY`, as the ledger prints algorithms.
pub fn label(spec: &AlgoSpec) -> String {
    match spec.priority {
        Some(p) => format!("{}/{p}", spec.name),
        None => spec.name.clone(),
    }
}

/// Checks an explicit schedule built by a proof (e.g. the optimal schedule a witness describes)
/// and returns its makespan: a certified upper bound on OPT.
pub fn explicit(inst: &Instance, sc: &Scenario, schedule: &Schedule) -> Result<Time> {
    Ok(check::check(inst, sc, schedule)?)
}

/// How a witness's OPT is known, in words: `exact_by` when it is exact, else the bracket
/// between the lower bound `lower_name` and U, the makespan of a checked schedule.
pub fn opt_how(opt: &OptRef, exact_by: &str, lower_name: &str) -> String {
    match opt {
        OptRef::Exact(_) => exact_by.to_string(),
        OptRef::Between { lower, upper } if lower == upper => {
            format!("OPT = {lower_name}, met by a checked schedule")
        }
        OptRef::Between { .. } => {
            format!("{lower_name} ≤ OPT ≤ U, U the makespan of a checked schedule")
        }
        OptRef::Lower(_) => format!("OPT ≥ {lower_name} only"),
    }
}

/// The optimum as [`fn@opt`] finds it, with the solver's schedule (checked): the schedule of U.
pub fn opt_with_schedule(
    inst: &Instance,
    sc: &Scenario,
    budget: &Budget,
) -> Result<(OptRef, Schedule)> {
    let cfg = OptConfig {
        method: Method::Search,
        time_limit: Duration::from_secs(20),
        node_limit: Some(budget.opt_nodes),
        ..OptConfig::default()
    };
    let r = opt::solve(inst, sc, &cfg)?;
    let m = check::check(inst, sc, &r.schedule)?;
    if m != r.makespan {
        return Err(Error::Solver(format!(
            "opt reported {} for a schedule of makespan {m}",
            r.makespan
        )));
    }
    let opt = if r.is_optimal() {
        OptRef::Exact(m)
    } else {
        OptRef::Between {
            lower: r.lower_bound().clone(),
            upper: m,
        }
    };
    Ok((opt, r.schedule))
}

/// L(f) of a rigid instance (rigid paper Eq. 5–6).
pub fn rigid_lower(inst: &Instance, sc: &Scenario) -> Result<Time> {
    resched::bounds::rigid(inst, sc)
        .map(|b| b.lower)
        .ok_or_else(|| Error::invalid("instance", "jobs", "the rigid lower bound needs rigid jobs"))
}

/// The optimum as far as the exact search gets within the node budget: exact when proven,
/// else the interval [proven lower bound, best checked schedule].
pub fn opt(inst: &Instance, sc: &Scenario, budget: &Budget) -> Result<OptRef> {
    Ok(opt_with_schedule(inst, sc, budget)?.0)
}

/// The `index`-th random case of `seed` within `scope`: 512 bytes of ChaCha8 seeded by
/// (seed, index) fed to the [`Case`] generator, so a case is reproducible alone.
pub fn random_case(seed: u64, index: u64, scope: Scope) -> Result<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index);
    let bytes: Vec<u8> = (0..512).map(|_| rng.random::<u8>()).collect();
    Case::from_bytes(&bytes, scope).map_err(|e| Error::Limit(format!("case generator: {e}")))
}

/// A short description of a case: `P=…; jobs (p,t,f)…`, or its moldable tables.
pub fn describe(inst: &Instance, sc: &Scenario) -> String {
    let jobs: Vec<String> = inst
        .jobs
        .iter()
        .zip(&sc.failures)
        .map(|(j, f)| match j.as_rigid() {
            Some((p, t)) => format!("({p},{t},f={f})"),
            None => {
                let ts: Vec<String> = j
                    .allowed_procs()
                    .filter_map(|p| j.time(p))
                    .map(|t| t.to_string())
                    .collect();
                format!("([{}],f={f})", ts.join(" "))
            }
        })
        .collect();
    format!("P={} jobs {}", inst.procs, jobs.join(" "))
}
