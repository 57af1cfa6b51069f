//! The oracle: the one door through which anything runs an algorithm.
//!
//! - [`catalogue`]: every algorithm as a typed entry (name, aliases, paper and section, family,
//!   parameters, builder);
//! - [`certify`](mod@certify): engine → checker → lower bound → ratio, with one error
//!   ([`crate::Error::Disagree`]) when the engine and the checker disagree.
//!
//! The CLI, the campaigns, the ledger, the tests and the differential tools call it; none of
//! them builds a scheduler or compares a makespan on its own. [`crate::check`] never depends on
//! this module: the checker judges the oracle.
pub mod catalogue;
pub mod certify;
pub mod corpus;

pub use catalogue::{Algo, Entry, Family, Paper, CATALOGUE};
pub use certify::{
    build, certify, certify_scheduler, AlgoSpec, Bound, BoundKind, Certified, Prepared,
};
