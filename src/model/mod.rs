//! The data of the problem: jobs, instances, failure scenarios and schedules, with their JSON
//! formats and validation.
//!
//! Times are exact ([`crate::time::Time`]); processor counts are plain integers. Every loader
//! reads numbers exactly and validates what it reads, reporting the file and the field that break
//! a rule ([`json`]).
#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod difference;
pub mod instance;
pub mod job;
pub mod json;
pub mod placement;
pub mod scenario;
pub mod schedule;
pub mod speedup;
mod speedup_json;

pub use difference::{first_difference, Difference};
pub use instance::Instance;
pub use job::{Job, Profile};
pub use scenario::Scenario;
pub use schedule::{Attempt, Schedule};
pub use speedup::SpeedupModel;

pub use json::parse_json;
