//! The ILP method: a time-indexed integer program for T_OPT(f) (rigid paper Section 3.3,
//! moldable paper Section 3.3), solved through `good_lp` on a [`Backend`] chosen per call:
//! microlp (pure Rust, the `ilp` feature) or HiGHS (the `highs` feature, which keeps microlp).
//!
//! # Formulation
//! Times are the scaled integers of [`super::problem`] (so an optimal schedule with integer
//! starts exists: a semi-active one). The horizon H is the greedy incumbent's makespan (a
//! schedule of makespan H exists, so the model is feasible and contains an optimum).
//! - x[a, o, τ] ∈ {0, 1}: attempt a (job j, attempt i, 0-based) starts at τ on option o (p_o
//!   processors, d_o units). τ ranges over [i·dmin_j, H − d_o − (k_j − 1 − i)·dmin_j]: the
//!   attempts before and after it need at least dmin_j each.
//! - Each attempt starts once: Σ_{o,τ} x[a, o, τ] = 1.
//! - Chains, in the strong (disaggregated) form: attempt i+1 may have started by τ only if
//!   attempt i has ended by τ: Σ_{o, τ' ≤ τ} x[i+1, o, τ'] ≤ Σ_{o, τ' + d_o ≤ τ} x[i, o, τ'],
//!   for every τ of attempt i+1's window. (Its LP relaxation is tighter than the aggregated
//!   S_{i+1} ≥ S_i + D_i.)
//! - Capacity at every unit slot [τ, τ+1): Σ p_o · x[a, o, τ'] over τ' ∈ (τ − d_o, τ] ≤ P
//!   (slots that no set of attempts can overfill are skipped).
//! - Makespan: C ≥ Σ_{o,τ} (τ + d_o) · x[last attempt of j, o, τ] for every job; C ≥ the exact
//!   root lower bound ([`super::bounds::root`]), which is valid and tightens the relaxation.
//! - Identical jobs (same options, same f_j): the lower index starts its first attempt no
//!   later (swapping two such chains maps schedules to schedules of the same makespan).
//! - Objective: minimise C.
//!
//! # Trust
//! Only a solution with status Optimal is reported optimal, and only after: (1) the schedule is
//! rebuilt from the x values in exact time ([`crate::time::Time`]) and passes
//! [`crate::check::check`]; (2) its exact scaled makespan M is within 1/2 of the solver's
//! objective C (both are then "the" integer optimum: OPT·scale is an integer and the solver's
//! gap tolerance is set below 1/2 unit — HiGHS: absolute gap 0.5, relative gap 0; microlp:
//! gap 0). If M meets the exact root lower bound, the certificate is exact
//! ([`super::Certificate::LowerBound`]). Anything else is reported as feasible with the exact
//! lower bound the caller passed (the root bound; with [`super::Method::Both`], the search's
//! proven bound when it is higher).
//!
//! HiGHS's own best (dual) bound of a stopped solve is *not* used: `good_lp` 1.15's
//! `HighsSolution` keeps only the column values (`highs::Solution`) and drops the solved model
//! whose info holds `mip_dual_bound` (its `Solution` trait has no bound either). Reading it
//! would mean re-implementing `good_lp`'s HiGHS `solve` on `HighsProblem::try_into_inner()`.
//!
//! # Limits
//! The model has one binary per (attempt, option, start slot); beyond
//! [`super::OptConfig::ilp_max_vars`] the method refuses with [`crate::Error::Limit`] (the
//! scaled horizon grows with the common denominator of the times). The default depends on the
//! [`Backend`]: small for microlp, which proves optimality only on tiny models (MACHINE-NOTES:
//! ~6–8 tasks), and larger for HiGHS.
use super::problem::{Int, IntProblem};
use super::Certificate;
use crate::model::Schedule;
use crate::time::Time;

#[cfg(feature = "ilp")]
mod solve;
#[cfg(feature = "ilp")]
pub use solve::solve;

/// A MILP solver the ILP method can run on. Both are compiled in with the `highs` feature
/// (microlp always comes with `ilp`), so one build can hold the model on both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// microlp through good_lp: pure Rust, proves optimality only on tiny models.
    Microlp,
    /// HiGHS through good_lp (the `highs` feature).
    Highs,
}

impl Backend {
    /// The backends this build can run, in the order [`Backend::preferred`] picks from the end.
    pub fn compiled() -> &'static [Backend] {
        if cfg!(feature = "highs") {
            &[Backend::Microlp, Backend::Highs]
        } else if cfg!(feature = "ilp") {
            &[Backend::Microlp]
        } else {
            &[]
        }
    }

    /// The strongest backend compiled in: HiGHS with the `highs` feature, else microlp.
    pub fn preferred() -> Backend {
        let strongest = Backend::compiled().last().copied();
        // default: without the `ilp` feature nothing is compiled; microlp is then named in the
        // error that refuses the ILP method
        strongest.unwrap_or(Backend::Microlp)
    }

    /// The name `opt --backend` and the JSON outputs use.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Microlp => "microlp",
            Backend::Highs => "highs",
        }
    }

    /// The default limit on binary variables: 4,000 for microlp, 400,000 for HiGHS.
    pub fn default_max_vars(self) -> usize {
        match self {
            Backend::Microlp => 4_000,
            Backend::Highs => 400_000,
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Backend {
    type Err = crate::error::Error;
    fn from_str(s: &str) -> crate::error::Result<Backend> {
        match s {
            "microlp" => Ok(Backend::Microlp),
            "highs" => Ok(Backend::Highs),
            _ => Err(crate::error::Error::param(
                "backend",
                format!("`{s}` is not one of microlp, highs"),
            )),
        }
    }
}

/// The name of [`Backend::preferred`], or "none" without the `ilp` feature.
pub fn backend() -> &'static str {
    if Backend::compiled().is_empty() {
        "none"
    } else {
        Backend::preferred().name()
    }
}

/// Without the `ilp` feature the core has no MILP solver: the ILP method is refused, named.
#[cfg(not(feature = "ilp"))]
pub fn solve(
    _inst: &crate::model::Instance,
    _sc: &crate::model::Scenario,
    _prob: &IntProblem,
    _greedy: &super::greedy::IntSchedule,
    _root_lb: Int,
    _cfg: &super::OptConfig,
) -> crate::error::Result<IlpOutcome> {
    Err(crate::error::Error::Solver(
        "the ILP method needs resched built with the `ilp` feature (the exact search does not)"
            .into(),
    ))
}

/// What the ILP method returns.
#[derive(Debug, Clone)]
pub struct IlpOutcome {
    pub schedule: Schedule,
    pub makespan: Time,
    pub optimal: bool,
    /// Scaled proven lower bound.
    pub lower_bound: Int,
    pub certificate: Option<Certificate>,
    pub vars: usize,
    pub constraints: usize,
}

/// The binary variables of the model with horizon `h` (scaled units): one per (attempt,
/// option, start slot) of the windows described in the module documentation.
pub fn var_count(prob: &IntProblem, h: Int) -> u64 {
    let mut count: u64 = 0;
    for job in &prob.jobs {
        let k = Int::from(job.attempts);
        for i in 0..k {
            for o in &job.options {
                let lo = i * job.min_dur;
                let hi = h - o.dur - (k - 1 - i) * job.min_dur;
                if hi >= lo {
                    // default: a window beyond u64 is over every variable limit anyway
                    let slots = u64::try_from(hi - lo + 1).unwrap_or(u64::MAX);
                    count = count.saturating_add(slots);
                }
            }
        }
    }
    count
}
