//! resched — an exact reference engine for resilient scheduling of parallel jobs.
//!
//! Jobs run on P identical processors and may fail (silent errors detected at the end of an
//! attempt); a failed job runs again until it succeeds. resched implements the schedulers of
//! three papers (rigid jobs, moldable jobs, node stealing in batch schedulers) in exact rational
//! time, checks every schedule with an independent invariant checker, and computes the true
//! optimum of small instances.
//!
//! Module map (see `DESIGN.md` of the project):
//! - [`time`]: the exact time type;
//! - [`model`]: jobs, instances, failure scenarios, schedules and their formats;
//! - [`check`]: the invariant checker;
//! - [`bounds`]: lower bounds and the papers' ratios;
//! - [`engine`]: the semi-online event loop and the [`engine::Scheduler`] trait.
pub mod bounds;
pub mod check;
pub mod cli;
pub mod engine;
pub mod error;
pub mod experiment;
pub mod model;
pub mod opt;
pub mod oracle;
#[path = "../proofs/mod.rs"]
pub mod proofs;
pub mod render;
pub mod schedulers;
pub mod stealing;
pub mod time;
pub mod violation;
pub mod workload;

pub use error::{Error, Result};
pub use time::Time;
