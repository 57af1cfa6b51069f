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
//! question (a proof raises the bound; a schedule meets it); when the root stages still leave a
//! gap on a rigid instance, the local search goes on along its own trajectory before the
//! search (a schedule that meets the bound proves itself). Every schedule returned passes
//! [`crate::check::check`] (it is checked here before it is returned).
//!
//! # Three widths, one answer
//! The integer model scales every time by the lcm of the denominators, which grows with the
//! processor counts of moldable tables (lcm(1..36) ≈ 1.4·10^14). So [`solve`] tries, in order:
//! 1. the 64-bit model (horizon ≤ 2^40 scaled units): the fast path, everything above;
//! 2. [`wide`]: the same source files compiled on 128-bit integers (horizon up to ⌊√(2^120/P)⌋),
//!    the search but no ILP (its time-indexed model would need a variable per scaled unit),
//!    after the exact-time bounds of step 3, which settle what they prove and seed the search
//!    with their best schedule otherwise (the area+chain family's explicit schedule meets L*);
//! 3. [`unscaled`]: no scaling at all — L′(J,f) and L*(J,f) in exact time against list
//!    schedules of a few allotments: optimal when one meets the bound (a single job always:
//!    OPT = (f+1)·min_p t(p); identical jobs whose L′ a uniform allotment meets), else the best
//!    schedule with the bound and the gap, as a time limit would.
pub mod bounds;
pub mod chains;
pub mod config_lp;
pub mod exact_fit;
pub mod generate;
pub mod greedy;
pub mod ilp;
pub mod improve;
pub mod lanes;
pub mod lattice;
mod memo;
pub mod packing;
pub mod problem;
pub mod search;
pub mod unscaled;
pub mod wide;

mod scaled;
// The ILP and the unit tests read a search state back as a schedule.
#[cfg(any(feature = "ilp", test))]
pub(crate) use scaled::to_schedule;

use crate::error::{Error, Result};
use crate::model::{Instance, Scenario, Schedule};
use crate::time::Time;
use num_bigint::BigInt;
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
    /// Wall-clock budget of the whole solve, counted from the call: the root stages (bounds,
    /// incumbent, zero-slack decisions) and then the search or the ILP share it. With
    /// [`Method::Both`], the ILP that checks the search gets a budget of its own of the same
    /// length after it (so at most twice the limit in all). When it runs out, the best schedule
    /// found is returned with [`Status::Feasible`].
    pub time_limit: Duration,
    /// Node budget of the search (None: unlimited).
    pub node_limit: Option<u64>,
    /// Entries the search's transposition table holds at most (0 disables it; a full table
    /// forgets its older half); the default 10^6 keeps it under ~200 MB for 15 jobs.
    pub memo_limit: usize,
    /// The MILP solver of the ILP method (default: [`ilp::Backend::preferred`]).
    pub backend: ilp::Backend,
    /// Largest number of binary variables the ILP may build (beyond it: [`Error::Limit`]);
    /// None: the backend's [`ilp::Backend::default_max_vars`].
    pub ilp_max_vars: Option<usize>,
    /// Threads of the search's portfolio ([`search::solve_parallel`]); 1 = one thread.
    pub threads: usize,
}

/// The longest [`OptConfig::time_limit`] [`solve`] takes, 10^7 s (about 116 days): the
/// deadlines it derives from the limit then stay far from the clock's range.
pub const MAX_TIME_LIMIT: Duration = Duration::from_secs(10_000_000);

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
    /// The common denominator the times were scaled by; `None` when they do not scale to the
    /// integer model (see `unscaled`).
    pub scale: Option<i128>,
    /// Set when the times do not scale to the 128-bit model ([`wide`]): the
    /// answer then comes from [`unscaled`] (exact-time bounds and list schedules), optimal when
    /// a schedule meets the bound.
    pub unscaled: Option<TooFine>,
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

/// The integer of the fast scaled model ([`problem`], [`search`], …); [`wide`] compiles the
/// same code on 128 bits.
pub type Int = i64;

/// Largest scaled horizon of the 64-bit model: 2^40 units, whatever P (P ≤ 2^16 keeps every
/// transformed area below 2^60); a longer one goes to [`wide`].
pub fn max_horizon(_procs: u32) -> Int {
    1 << 40
}

/// Why an instance has no integer model although it is valid: its times, scaled to integers,
/// exceed the model's [`problem::max_horizon`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooFine {
    /// The common denominator of the times (the lcm of their denominators).
    pub scale: BigInt,
    /// The horizon limit of the model that refused it, in scaled units.
    pub limit: i128,
}

impl TooFine {
    /// The error [`problem::build`] returns for it.
    pub fn to_error(&self) -> Error {
        Error::Limit(format!(
            "opt: the times scaled to integers (common denominator {}) exceed the integer model's \
             horizon limit of {} units",
            self.scale, self.limit
        ))
    }
}

/// The exact optimum T_OPT(f) of `inst` under `sc`.
///
/// The integer model of 64 bits when the scaled times fit it (the fast path), else the same
/// methods on 128 bits ([`wide`]), else — when even those cannot hold the common denominator —
/// the exact-time bounds and list schedules of [`unscaled`], optimal when a schedule meets the
/// bound, else [`Status::Feasible`] with the bound (never an error for the size of the
/// denominators). The ILP needs the 64-bit model: beyond it, [`Method::Ilp`] and
/// [`Method::Both`] are an [`Error::Limit`] that says to use the search.
///
/// Errors: [`Error::Invalid`] for an invalid instance or scenario; [`Error::Limit`] when the
/// instance is beyond a method's stated limits (P, jobs, attempts per job, ILP size);
/// [`Error::Solver`] when the ILP backend fails or the two methods disagree; [`Error::Param`]
/// (`time_limit`) for a time limit above [`MAX_TIME_LIMIT`].
pub fn solve(inst: &Instance, sc: &Scenario, cfg: &OptConfig) -> Result<OptResult> {
    if cfg.time_limit > MAX_TIME_LIMIT {
        return Err(Error::Param {
            name: "time_limit".into(),
            msg: format!(
                "{} s is above the longest limit, {} s",
                cfg.time_limit.as_secs(),
                MAX_TIME_LIMIT.as_secs()
            ),
        });
    }
    let started = Instant::now();
    if let Ok(prob) = problem::build_or_too_fine(inst, sc)? {
        return scaled::solve_scaled(inst, sc, cfg, prob, started, None);
    }
    let prob = match wide::problem::build_or_too_fine(inst, sc)? {
        Ok(prob) => prob,
        Err(too_fine) => return solve_unscaled(inst, sc, cfg, too_fine, started),
    };
    if cfg.method != Method::Search {
        return Err(ilp_beyond_its_model(&BigInt::from(prob.scale)));
    }
    // The exact-time bounds first (cheap): they settle the cases they prove (a single job; an
    // allotment meeting L′ or L*, as the area+chain family's explicit schedule does), and their
    // best schedule seeds the search otherwise.
    let a = unscaled::solve(inst, sc, Some(started + cfg.time_limit / 5))?;
    if a.optimal() {
        return Ok(bounds_answer(a, Some(prob.scale), None, sc, started));
    }
    wide::solve_scaled(inst, sc, cfg, prob, started, Some(&a.schedule))
}

/// The ILP's refusal of times scaled beyond its 64-bit model (common denominator `scale`).
fn ilp_beyond_its_model(scale: &BigInt) -> Error {
    let digits = scale.to_string().len();
    let scale = if digits <= 40 {
        scale.to_string()
    } else {
        format!("a number of {digits} digits")
    };
    Error::Limit(format!(
        "opt: the ILP's time-indexed model needs a scaled horizon of at most {} units, which \
         these times (common denominator {scale}) exceed; use the search (method `search`)",
        max_horizon(1)
    ))
}

/// An answer of [`unscaled::solve`] as [`solve`]'s result.
fn bounds_answer(
    a: unscaled::Answer,
    scale: Option<i128>,
    unscaled: Option<TooFine>,
    sc: &Scenario,
    started: Instant,
) -> OptResult {
    let status = if a.optimal() {
        Status::Optimal
    } else {
        Status::Feasible {
            lower_bound: a.lower_bound.clone(),
        }
    };
    let stats = OptStats {
        scale,
        unscaled,
        attempts: sc.failures.iter().map(|&f| u64::from(f) + 1).sum(),
        greedy: a.makespan.clone(),
        incumbent: a.makespan.clone(),
        root_lower_bound: a.lower_bound.clone(),
        elapsed: started.elapsed(),
        ..OptStats::default()
    };
    OptResult {
        schedule: a.schedule,
        makespan: a.makespan,
        status,
        stats,
    }
}

/// [`solve`] for an instance whose times do not scale to the integer model: the bounds and list
/// schedules of [`unscaled`] in exact time. The ILP (methods `ilp`, `both`) is a typed
/// [`Error::Limit`]: its model is the scaled one.
fn solve_unscaled(
    inst: &Instance,
    sc: &Scenario,
    cfg: &OptConfig,
    too_fine: TooFine,
    started: Instant,
) -> Result<OptResult> {
    if cfg.method != Method::Search {
        return Err(ilp_beyond_its_model(&too_fine.scale));
    }
    let a = unscaled::solve(inst, sc, Some(started + cfg.time_limit))?;
    Ok(bounds_answer(a, None, Some(too_fine), sc, started))
}

/// `makespan / opt` exactly (for ratio reports); `None` when `opt` is zero.
pub fn ratio(makespan: &Time, opt: &Time) -> Option<Time> {
    makespan.checked_div(opt)
}

/// Seeded draws in `0..m` for the module's randomised tests: a 64-bit linear congruential
/// generator read in its high bits, the same sequence everywhere and with no dependency.
#[cfg(test)]
fn draws(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    }
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

    /// A limit the clock cannot add to the start is a typed error naming the field (it was a
    /// panic), and the longest limit allowed is taken.
    #[test]
    fn a_time_limit_beyond_the_longest_is_refused() {
        let t = Time::from_int;
        let inst = Instance::rigid(2, &[(2, t(2)), (1, t(1))]).unwrap();
        let sc = Scenario::new(vec![0, 0]);
        for limit in [MAX_TIME_LIMIT + Duration::from_nanos(1), Duration::MAX] {
            let cfg = OptConfig {
                time_limit: limit,
                ..OptConfig::default()
            };
            let e = solve(&inst, &sc, &cfg).unwrap_err();
            assert!(
                matches!(e, Error::Param { ref name, .. } if name == "time_limit"),
                "{e}"
            );
        }
        let cfg = OptConfig {
            time_limit: MAX_TIME_LIMIT,
            ..OptConfig::default()
        };
        assert_eq!(solve(&inst, &sc, &cfg).unwrap().makespan, t(3));
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
