//! The exact optimum T_OPT(f) of small instances: the smallest makespan when the failure
//! scenario f is known in advance (rigid paper, Section 3.3, Eq. 4's T_OPT(f, s*); moldable
//! paper, Section 3.3, Eq. 2's T_OPT(J, f, p*, s*)).
//!
//! Job j becomes a chain of f_j + 1 attempts run in order; a rigid attempt uses p_j processors
//! for t_j; a moldable attempt picks any p in 1..=P and lasts t_j(p), and the pick may differ
//! from one attempt to the next; at most P processors are busy at every instant.
//!
//! Two independent methods:
//! - [`search`]: a branch-and-bound over active schedules in exact (integer, scaled) arithmetic;
//! - [`ilp`]: a time-indexed integer program solved through `good_lp` (microlp by default,
//!   HiGHS with the `highs` cargo feature), whose answer is never trusted alone: its schedule is
//!   rebuilt in exact time and checked, and its objective certified.
//!
//! Both start from the same incumbent — the greedy list schedule ([`greedy`]) improved by a
//! seeded local search over attempt lists and allotments ([`improve`]), or a packing
//! that meets the root lower bound when [`packing`] finds one — so a time limit
//! always returns a feasible schedule with a proven lower bound. When an energy bound is met
//! exactly at the root on a rigid instance, [`exact_fit`] first decides that zero-slack
//! question (a proof raises the bound; a schedule meets it). Every schedule returned passes
//! [`crate::check::check`] (it is checked here before it is returned).
pub mod bounds;
pub mod chains;
pub mod exact_fit;
pub mod generate;
pub mod greedy;
pub mod ilp;
pub mod improve;
pub mod lanes;
pub mod lattice;
pub mod packing;
pub mod problem;
pub mod search;

use crate::error::{Error, Result};
use crate::model::{Attempt, Instance, Scenario, Schedule};
use crate::time::Time;
use std::time::{Duration, Instant};

/// Which exact method to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The time-indexed ILP ([`ilp`]).
    Ilp,
    /// The exact branch-and-bound ([`search`]).
    Search,
    /// Both; their optima must agree (a disagreement is an [`Error::Solver`]).
    Both,
}

impl std::str::FromStr for Method {
    type Err = Error;
    fn from_str(s: &str) -> Result<Method> {
        match s {
            "ilp" => Ok(Method::Ilp),
            "search" => Ok(Method::Search),
            "both" => Ok(Method::Both),
            _ => Err(Error::param(
                "method",
                format!("`{s}` is not one of ilp, search, both"),
            )),
        }
    }
}

/// Options of [`solve`].
#[derive(Debug, Clone)]
pub struct OptConfig {
    pub method: Method,
    /// Wall-clock budget of each method; when it runs out, the best schedule found is returned
    /// with [`Status::Feasible`].
    pub time_limit: Duration,
    /// Node budget of the search (None: unlimited).
    pub node_limit: Option<u64>,
    /// Entries of the search's transposition table before it is cleared (0 disables it);
    /// the default 10^6 keeps it under ~200 MB for 15 jobs.
    pub memo_limit: usize,
    /// The MILP solver of the ILP method (default: [`ilp::Backend::preferred`]).
    pub backend: ilp::Backend,
    /// Largest number of binary variables the ILP may build (beyond it: [`Error::Limit`]);
    /// None: the backend's [`ilp::Backend::default_max_vars`].
    pub ilp_max_vars: Option<usize>,
    /// Threads of the search's portfolio ([`search::solve_parallel`]); 1 = one thread.
    pub threads: usize,
}

impl Default for OptConfig {
    fn default() -> Self {
        OptConfig {
            method: Method::Search,
            time_limit: Duration::from_secs(10),
            node_limit: None,
            memo_limit: 1_000_000,
            backend: ilp::Backend::preferred(),
            ilp_max_vars: None,
            threads: 1,
        }
    }
}

impl OptConfig {
    /// The default configuration with `method`.
    pub fn with_method(method: Method) -> OptConfig {
        OptConfig {
            method,
            ..OptConfig::default()
        }
    }

    /// The limit on the ILP's binary variables in force: the one set, else the backend's.
    pub fn max_vars(&self) -> usize {
        let own = self.backend.default_max_vars();
        // default: no limit set means the backend's own (documented on the field)
        self.ilp_max_vars.unwrap_or(own)
    }
}

/// Whether the returned makespan is proven optimal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Optimal,
    /// A limit stopped the method: the schedule is the best found and OPT ≥ `lower_bound`.
    Feasible {
        lower_bound: Time,
    },
}

/// How an optimal ILP objective was certified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certificate {
    /// The exact search proved it.
    Search,
    /// The schedule's exact makespan meets an exact lower bound.
    LowerBound,
    /// The solver proved optimality and its objective rounds to the schedule's exact scaled
    /// makespan, an integer; since OPT·scale is an integer, the solver's tolerance (< 1/2
    /// scaled unit) cannot hide a better schedule.
    Integrality,
}

/// Counters of a solve.
#[derive(Debug, Clone, Default)]
pub struct OptStats {
    /// The common denominator the times were scaled by.
    pub scale: i64,
    /// Σ (f_j + 1).
    pub attempts: u64,
    /// The greedy incumbent's makespan.
    pub greedy: Time,
    /// The makespan of the incumbent the exact methods start from: the greedy one improved by
    /// [`improve`] (and replaced by a packing when [`packing`] meets the root bound).
    pub incumbent: Time,
    /// True when the packing heuristic ([`packing`]) met the root lower bound (the incumbent is
    /// then optimal before any search).
    pub packed: bool,
    /// The root lower bound (L(f)-style and DFF energy bounds), raised by the zero-slack
    /// decisions of [`exact_fit::at_root`] when they prove a bound infeasible.
    pub root_lower_bound: Time,
    pub search_nodes: u64,
    pub memo_hits: u64,
    /// Nodes of the zero-slack decisions at the root ([`exact_fit::at_root`]; 0 when no energy
    /// was met exactly).
    pub fit_nodes: u64,
    /// Binary variables and constraints of the ILP (0 when it did not run).
    pub ilp_vars: usize,
    pub ilp_constraints: usize,
    pub certificate: Option<Certificate>,
    pub elapsed: Duration,
}

/// The answer of [`solve`].
#[derive(Debug, Clone)]
pub struct OptResult {
    pub schedule: Schedule,
    pub makespan: Time,
    pub status: Status,
    pub stats: OptStats,
}

impl OptResult {
    /// True when the makespan is proven optimal.
    pub fn is_optimal(&self) -> bool {
        self.status == Status::Optimal
    }

    /// The best proven lower bound (the makespan itself when optimal).
    pub fn lower_bound(&self) -> &Time {
        match &self.status {
            Status::Optimal => &self.makespan,
            Status::Feasible { lower_bound } => lower_bound,
        }
    }

    /// The relative optimality gap (best − bound) / bound, exactly: 0 when optimal; `None`
    /// when the bound is 0 (an empty instance, where the makespan is 0 too).
    pub fn gap(&self) -> Option<Time> {
        let lb = self.lower_bound();
        (&self.makespan - lb).checked_div(lb)
    }
}

/// Turns an integer-model schedule back into an exact [`Schedule`].
pub(crate) fn to_schedule(
    inst: &Instance,
    prob: &problem::IntProblem,
    s: &greedy::IntSchedule,
    algo: &str,
) -> Schedule {
    let mut attempts: Vec<Attempt> = s
        .attempts
        .iter()
        .map(|a| Attempt {
            job: a.job,
            attempt: a.attempt,
            start: prob.to_time(a.start),
            procs: a.procs,
            // The exact input time, not the scaled integer: the checker compares them exactly.
            duration: inst.jobs[a.job]
                .time(a.procs)
                .cloned()
                // default: a rigid job's duration is its scaled time back in seconds
                .unwrap_or_else(|| prob.to_time(a.dur)),
            nodes: None,
        })
        .collect();
    attempts.sort_by(|x, y| x.start.cmp(&y.start).then(x.job.cmp(&y.job)));
    Schedule {
        attempts,
        makespan: None,
        algorithm: Some(algo.to_string()),
    }
    .with_makespan()
}

/// What the search closure of [`solve`] answers: the checked schedule, its makespan, whether it
/// is proven optimal, the scaled proven bound, and the integer schedule behind it.
type SearchAnswer = (Schedule, Time, bool, i64, greedy::IntSchedule);

/// Checks a schedule built here; a failure is a bug of this module, reported as an error.
fn checked(
    inst: &Instance,
    sc: &Scenario,
    schedule: Schedule,
    what: &str,
) -> Result<(Schedule, Time)> {
    match crate::check::check(inst, sc, &schedule) {
        Ok(m) => Ok((schedule, m)),
        Err(v) => Err(Error::Solver(format!(
            "{what} produced an infeasible schedule ({v}); this is a bug"
        ))),
    }
}

/// The exact optimum T_OPT(f) of `inst` under `sc`.
///
/// Errors: [`Error::Invalid`] for an invalid instance or scenario; [`Error::Limit`] when the
/// instance is beyond a method's stated limits (scaled horizon, P, jobs, attempts per job, ILP
/// size); [`Error::Solver`] when the ILP backend fails or the two methods disagree.
pub fn solve(inst: &Instance, sc: &Scenario, cfg: &OptConfig) -> Result<OptResult> {
    let started = Instant::now();
    let prob = problem::build(inst, sc)?;
    let greedy_list = greedy::best(&prob);
    let energies = bounds::energies(&prob);
    let root_lb = bounds::root(&prob, &energies);
    let hulls = bounds::hulls(&prob, &energies);
    let root_lb = bounds::deadline_root(&prob, &energies, &hulls, root_lb, greedy_list.makespan);
    let root_lb = lattice::Lattice::round_bound(&prob, greedy_list.makespan, root_lb);
    let mut stats = OptStats {
        scale: prob.scale,
        attempts: prob.total_attempts(),
        greedy: prob.to_time(greedy_list.makespan),
        root_lower_bound: prob.to_time(root_lb),
        ..OptStats::default()
    };
    let mut greedy = incumbent(&prob, greedy_list, root_lb, cfg, &mut stats);
    // The bound before the zero-slack stage: `Method::Both`'s ILP starts from it, so that it
    // checks that stage's answers independently.
    let energy_lb = root_lb;
    // Zero-slack roots: an energy met exactly at the bound is a perfect-fill question, which
    // [`exact_fit`] decides where the search and the energy bounds cannot.
    let fit = exact_fit::at_root(
        &prob,
        &energies,
        root_lb,
        greedy.makespan,
        exact_fit::ROOT_NODES,
        |x| lattice::Lattice::round_bound(&prob, greedy.makespan, x),
    );
    stats.fit_nodes = fit.nodes;
    let root_lb = fit.lower_bound;
    if let Some(s) = fit.schedule {
        greedy = s;
    }
    stats.root_lower_bound = prob.to_time(root_lb);
    stats.incumbent = prob.to_time(greedy.makespan);

    let run_search = |stats: &mut OptStats| -> Result<SearchAnswer> {
        let limits = search::Limits {
            deadline: Some(Instant::now() + cfg.time_limit),
            node_limit: cfg.node_limit,
            memo_limit: cfg.memo_limit,
            lower_bound: root_lb,
        };
        let out = if prob.jobs.len() > search::MAX_JOBS {
            // Beyond the search's per-job bit sets: the incumbent with the root bound (optimal
            // only when they meet, e.g. after a perfect packing).
            search::Outcome {
                optimal: greedy.makespan <= root_lb,
                lower_bound: root_lb.min(greedy.makespan),
                best: greedy.clone(),
                nodes: 0,
                memo_hits: 0,
                stopped: greedy.makespan > root_lb,
            }
        } else {
            search::solve_parallel(&prob, greedy.clone(), limits, cfg.threads)
        };
        stats.search_nodes = out.nodes;
        stats.memo_hits = out.memo_hits;
        let (schedule, m) = checked(
            inst,
            sc,
            to_schedule(inst, &prob, &out.best, "opt-search"),
            "the exact search",
        )?;
        if m != prob.to_time(out.best.makespan) {
            return Err(Error::Solver(format!(
                "the exact search's makespan {m} differs from its integer model; this is a bug"
            )));
        }
        Ok((schedule, m, out.optimal, out.lower_bound, out.best))
    };

    let result = match cfg.method {
        Method::Search => {
            let (schedule, makespan, optimal, lb, _) = run_search(&mut stats)?;
            let status = if optimal {
                Status::Optimal
            } else {
                Status::Feasible {
                    lower_bound: prob.to_time(lb),
                }
            };
            OptResult {
                schedule,
                makespan,
                status,
                stats,
            }
        }
        Method::Ilp => {
            let out = ilp::solve(inst, sc, &prob, &greedy, root_lb, cfg)?;
            stats.ilp_vars = out.vars;
            stats.ilp_constraints = out.constraints;
            stats.certificate = out.certificate;
            let status = if out.optimal {
                Status::Optimal
            } else {
                Status::Feasible {
                    lower_bound: prob.to_time(out.lower_bound),
                }
            };
            OptResult {
                makespan: out.makespan,
                schedule: out.schedule,
                status,
                stats,
            }
        }
        Method::Both => {
            let (schedule, makespan, optimal, lb, best) = run_search(&mut stats)?;
            // The ILP's horizon and warm start: the best schedule known (the search's), a
            // smaller model than the incumbent's. Its bound: the root bound when the search
            // proved OPT (so that the ILP checks the optimum independently: it must still show
            // that nothing is below it, the zero-slack stage's answers included), else the
            // search's proven bound too.
            let ilp_lb = if optimal {
                energy_lb
            } else {
                energy_lb.max(lb)
            };
            let out = ilp::solve(inst, sc, &prob, &best, ilp_lb, cfg)?;
            stats.ilp_vars = out.vars;
            stats.ilp_constraints = out.constraints;
            if optimal && out.optimal && out.makespan != makespan {
                return Err(Error::Solver(format!(
                    "the exact search proves OPT = {makespan} but the ILP claims {}; please report this instance",
                    out.makespan
                )));
            }
            if optimal && out.makespan < makespan {
                return Err(Error::Solver(format!(
                    "the ILP found a checked schedule of makespan {} below the search's proven optimum {makespan}; this is a bug",
                    out.makespan
                )));
            }
            if out.optimal {
                stats.certificate = Some(if optimal {
                    Certificate::Search
                } else {
                    // default: an ILP answer without a certificate is proven by integrality (the solver's optimum)
                    out.certificate.unwrap_or(Certificate::Integrality)
                });
            }
            let best_lb = prob.to_time(lb).max(prob.to_time(out.lower_bound));
            let (schedule, makespan) = if out.makespan < makespan {
                (out.schedule, out.makespan)
            } else {
                (schedule, makespan)
            };
            let status = if optimal || out.optimal || best_lb >= makespan {
                Status::Optimal
            } else {
                Status::Feasible {
                    lower_bound: best_lb,
                }
            };
            OptResult {
                schedule,
                makespan,
                status,
                stats,
            }
        }
    };
    let mut result = result;
    result.stats.elapsed = started.elapsed();
    Ok(result)
}

/// The incumbent both methods start from (see the module documentation): a packing that meets
/// the root bound when [`packing`] finds one, else the greedy schedule improved by [`improve`]
/// (its fixed move budget, and at most a fifth of the time limit, so that the exact methods keep
/// most of it). Never worse than `greedy`.
fn incumbent(
    prob: &problem::IntProblem,
    greedy: greedy::IntSchedule,
    root_lb: i64,
    cfg: &OptConfig,
    stats: &mut OptStats,
) -> greedy::IntSchedule {
    if greedy.makespan <= root_lb {
        return greedy;
    }
    let packed = packing::pack_to(prob, root_lb, packing::DEFAULT_NODES);
    if let Some(p) = packed.as_ref().filter(|p| p.makespan <= root_lb) {
        stats.packed = true;
        return p.clone();
    }
    let budget = improve::Budget::for_attempts(
        prob.total_attempts(),
        Some(Instant::now() + cfg.time_limit / 5),
    );
    let improved = improve::improve(prob, &greedy, root_lb, &budget);
    // A packing that misses the bound may still beat the local search.
    match packed {
        Some(p) if p.makespan < improved.makespan => p,
        _ => improved,
    }
}

/// `makespan / opt` exactly (for ratio reports); `None` when `opt` is zero.
pub fn ratio(makespan: &Time, opt: &Time) -> Option<Time> {
    makespan.checked_div(opt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_instance_both_methods() {
        let t = Time::from_int;
        let inst = Instance::rigid(3, &[(2, t(2)), (2, t(1)), (1, t(3))]).unwrap();
        let sc = Scenario::new(vec![1, 1, 0]);
        let backends = match ilp::Backend::compiled() {
            [] => &[ilp::Backend::Microlp][..],
            all => all,
        };
        for method in [Method::Search, Method::Ilp, Method::Both] {
            for &backend in backends {
                let cfg = OptConfig {
                    backend,
                    ..OptConfig::with_method(method)
                };
                let r = solve(&inst, &sc, &cfg);
                if method != Method::Search && !cfg!(feature = "ilp") {
                    let e = r.unwrap_err().to_string();
                    assert!(e.contains("`ilp` feature"), "{method:?}: {e}");
                    continue;
                }
                let r = r.unwrap();
                assert!(r.is_optimal(), "{method:?} {backend}");
                // Jobs 1 and 2 (2 procs) are exclusive: 2·2 + 2·1 = 6; job 3 fits beside them.
                assert_eq!(r.makespan, t(6), "{method:?} {backend}");
                assert_eq!(crate::check::check(&inst, &sc, &r.schedule).unwrap(), t(6));
            }
        }
    }

    /// A backend this build lacks is refused by name, never silently replaced.
    #[cfg(all(feature = "ilp", not(feature = "highs")))]
    #[test]
    fn a_backend_not_compiled_in_is_refused() {
        let t = Time::from_int;
        let inst = Instance::rigid(2, &[(2, t(2)), (1, t(1)), (1, t(3))]).unwrap();
        let sc = Scenario::new(vec![1, 0, 0]);
        let cfg = OptConfig {
            backend: ilp::Backend::Highs,
            ..OptConfig::with_method(Method::Ilp)
        };
        let e = solve(&inst, &sc, &cfg).unwrap_err();
        assert!(
            matches!(e, Error::Solver(ref m) if m.contains("`highs` feature")),
            "{e}"
        );
    }
}
