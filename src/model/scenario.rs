//! A failure scenario f: how many times each job fails before its successful attempt.
//!
//! The scenario is known to the engine and to the offline optimum, never to a semi-online
//! scheduler (see [`crate::engine`]).
use super::Instance;
use crate::error::{FieldError, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// f_j for every job j, in instance order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(deserialize_with = "super::json::vec_u32")]
    pub failures: Vec<u32>,
}

impl Scenario {
    /// A scenario with the given failure counts.
    pub fn new(failures: Vec<u32>) -> Scenario {
        Scenario { failures }
    }

    /// No job fails.
    pub fn none(n: usize) -> Scenario {
        Scenario {
            failures: vec![0; n],
        }
    }

    /// Total number of failures Σ f_j.
    pub fn total_failures(&self) -> u64 {
        self.failures.iter().map(|&f| u64::from(f)).sum()
    }

    /// Checks the scenario fits `inst`.
    pub fn validate(&self, inst: &Instance) -> Result<(), FieldError> {
        if self.failures.len() != inst.jobs.len() {
            return Err(FieldError::new(
                "failures",
                format!(
                    "has {} entries, expected one per job ({})",
                    self.failures.len(),
                    inst.jobs.len()
                ),
            ));
        }
        Ok(())
    }

    /// Parses and validates a scenario for `inst` from JSON text (`file` names it in errors).
    pub fn from_json_str(text: &str, file: &str, inst: &Instance) -> Result<Scenario> {
        let s: Scenario = super::parse_json(text, file)?;
        s.validate(inst).map_err(|e| e.in_file(file))?;
        Ok(s)
    }

    /// Loads and validates a scenario file for `inst`.
    pub fn load(path: &Path, inst: &Instance) -> Result<Scenario> {
        let text = crate::error::read_text(path)?;
        Scenario::from_json_str(&text, &path.display().to_string(), inst)
    }

    /// JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

impl From<Vec<u32>> for Scenario {
    fn from(failures: Vec<u32>) -> Self {
        Scenario { failures }
    }
}
