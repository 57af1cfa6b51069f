//! The data of the problem: jobs, instances, failure scenarios and schedules, with their JSON
//! formats and validation.
//!
//! Times are exact ([`crate::time::Time`]); processor counts are plain integers. Every loader
//! validates what it reads and reports the file and the field that break a rule.
pub mod arbitrary;
pub mod instance;
pub mod job;
pub mod scenario;
pub mod schedule;
pub mod speedup;

pub use instance::Instance;
pub use job::{Job, Profile};
pub use scenario::Scenario;
pub use schedule::{Attempt, Schedule};
pub use speedup::SpeedupModel;

use crate::error::{Error, Result};
use std::path::Path;

/// Parses JSON text into `T`, reporting `file`, line and column on malformed input.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| Error::json(file, &e))
}

/// Reads a (possibly gzipped) JSON file into `T`.
pub(crate) fn load_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text = crate::error::read_text(path)?;
    parse_json(&text, &path.display().to_string())
}
