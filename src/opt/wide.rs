//! The integer model and the exact search again, on 128-bit integers: the same source files as
//! [`crate::opt`]'s 64-bit fast path (`#[path]` below), compiled with [`Int`] = `i128`, for
//! instances whose scaled times exceed the fast path's horizon of 2^40 units — in practice,
//! times whose common denominator is the lcm of many processor counts (Amdahl's model on 36
//! processors: lcm(1..36) ≈ 1.4·10^14).
//!
//! Why the bound of [`max_horizon`] keeps every operation exact: the scaled horizon H bounds
//! every time; a transformed area is at most 16·P·H (the largest DFF weight is 16·P); the
//! largest product any bound takes is a time times such an area (the convex hulls of
//! [`bounds`]), at most 16·P·H² ≤ 2^124, and sums of a few of them stay below 2^127.
//!
//! The ILP does not run here: its time-indexed model needs one variable per scaled start slot,
//! and a horizon beyond 2^40 slots is beyond every backend's limit ([`ilp::solve`] says so).
//!
//! The unit tests of the shared files run on both widths (they reach [`crate::opt::solve`] and
//! [`crate::opt::OptConfig`] through the re-exports below).
// `i128::from(x)` is a widening on the 64-bit path only; the shared files are loaded twice on
// purpose (the module documentation).
#![allow(clippy::useless_conversion, clippy::duplicate_mod)]

/// The integer of this model.
pub type Int = i128;

/// Largest scaled horizon H accepted on P processors: ⌊√(2^120 / P)⌋, so that 16·P·H² ≤ 2^124
/// (see the module documentation): 2^60 for P = 1, 2^52 for P = 2^16.
pub fn max_horizon(procs: u32) -> Int {
    use num_integer::Roots;
    ((1 << 120) / Int::from(procs.max(1))).sqrt()
}

#[path = "bounds.rs"]
pub mod bounds;
#[path = "chains.rs"]
pub mod chains;
#[path = "exact_fit.rs"]
pub mod exact_fit;
#[path = "greedy.rs"]
pub mod greedy;
#[path = "improve.rs"]
pub mod improve;
#[path = "lanes.rs"]
pub mod lanes;
#[path = "lattice.rs"]
pub mod lattice;
#[path = "packing.rs"]
pub mod packing;
#[path = "problem.rs"]
pub mod problem;
#[path = "scaled.rs"]
mod scaled;
#[path = "search.rs"]
pub mod search;

pub(crate) use scaled::solve_scaled;
#[cfg(test)]
pub(crate) use scaled::to_schedule;
// For the unit tests of the shared files, which name them through `super::super`.
#[cfg(test)]
pub(crate) use super::{generate, solve, OptConfig};

/// The ILP on this model: never built (see the module documentation).
pub mod ilp {
    use super::greedy::IntSchedule;
    use super::problem::IntProblem;
    use super::Int;
    use crate::error::{Error, Result};
    use crate::model::{Instance, Scenario, Schedule};
    use crate::opt::{Certificate, OptConfig};
    use crate::time::Time;

    /// The fields of [`crate::opt::ilp::IlpOutcome`] on this model's integers.
    #[derive(Debug, Clone)]
    pub struct IlpOutcome {
        pub schedule: Schedule,
        pub makespan: Time,
        pub optimal: bool,
        pub lower_bound: Int,
        pub certificate: Option<Certificate>,
        pub vars: usize,
        pub constraints: usize,
    }

    /// Always [`Error::Limit`]: the time-indexed model of a horizon beyond 2^40 scaled units
    /// exceeds `ilp_max_vars` of every backend.
    pub fn solve(
        _inst: &Instance,
        _sc: &Scenario,
        prob: &IntProblem,
        greedy: &IntSchedule,
        _root_lb: Int,
        cfg: &OptConfig,
    ) -> Result<IlpOutcome> {
        Err(Error::Limit(format!(
            "opt: the ILP's time-indexed model would need a start slot per scaled time unit up to \
             the horizon {} (common denominator {}), far beyond `ilp_max_vars` = {}; use the \
             search (method `search`)",
            greedy.makespan,
            prob.scale,
            cfg.max_vars()
        )))
    }
}
