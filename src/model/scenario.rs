//! A failure scenario f: how many times each job fails before its successful attempt.
//!
//! The scenario is known to the engine and to the offline optimum, never to a semi-online
//! scheduler (see [`crate::engine`]).
//!
//! Its file is `{"format_version": 1, "failures": [f_1, …, f_n]}`. `format_version` (optional,
//! [`FORMAT_VERSION`]) is the version of the format: absent is 1, a newer one is refused with
//! what to do. [`Scenario::to_json`] writes it; a scenario embedded in another document (a
//! golden case, a batch request) is serialized without it, and read with or without it.
use super::Instance;
use crate::error::{FieldError, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The largest failure count of one job: its successful attempt, number f_j + 1, must fit the
/// `u32` attempt numbers of schedules. (How many attempts a run may make in all is the engine's
/// budget, [`crate::engine::Budget`].)
pub const MAX_FAILURES: u32 = u32::MAX - 1;

/// The newest version of the scenario format this build reads and the one it writes.
pub const FORMAT_VERSION: u32 = 1;

/// f_j for every job j, in instance order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawScenario")]
pub struct Scenario {
    pub failures: Vec<u32>,
}

/// The on-disk form of a scenario: the failures and the format's version.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    /// The format's version (module doc); absent is 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::json::opt_u32"
    )]
    pub format_version: Option<u32>,
    #[serde(deserialize_with = "super::json::vec_u32")]
    pub failures: Vec<u32>,
}

impl TryFrom<RawScenario> for Scenario {
    type Error = String;

    /// Refuses a newer `format_version` (the message names the field).
    fn try_from(raw: RawScenario) -> Result<Scenario, String> {
        super::json::check_format_version(raw.format_version, FORMAT_VERSION)
            .map_err(|e| format!("field `{}`: {}", e.field, e.msg))?;
        Ok(Scenario {
            failures: raw.failures,
        })
    }
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

    /// Checks the scenario fits `inst`: one entry per job, each at most [`MAX_FAILURES`].
    pub fn validate(&self, inst: &Instance) -> Result<(), FieldError> {
        if let Some(j) = self.failures.iter().position(|&f| f > MAX_FAILURES) {
            return Err(FieldError::new(
                format!("failures[{j}]"),
                format!(
                    "{} is above {MAX_FAILURES}: attempt f_j + 1 must have a 32-bit number",
                    self.failures[j]
                ),
            ));
        }
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
        let raw: RawScenario =
            super::json::parse_versioned(text, file, FORMAT_VERSION, |r: &RawScenario| {
                r.format_version
            })?;
        let s = Scenario {
            failures: raw.failures,
        };
        s.validate(inst).map_err(|e| e.in_file(file))?;
        Ok(s)
    }

    /// Loads and validates a scenario file for `inst`.
    pub fn load(path: &Path, inst: &Instance) -> Result<Scenario> {
        let text = crate::error::read_text(path)?;
        Scenario::from_json_str(&text, &path.display().to_string(), inst)
    }

    /// The on-disk form, with its `format_version` (what a scenario file holds).
    pub fn to_raw(&self) -> RawScenario {
        RawScenario {
            format_version: Some(FORMAT_VERSION),
            failures: self.failures.clone(),
        }
    }

    /// JSON text of a scenario file, with its `format_version`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_raw())
            // unreachable: serializing a list of integers cannot fail
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

impl From<Vec<u32>> for Scenario {
    fn from(failures: Vec<u32>) -> Self {
        Scenario { failures }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;

    #[test]
    fn failure_counts_leave_room_for_the_attempt_number() {
        let inst = Instance::rigid(1, &[(1, Time::one()), (1, Time::one())]).unwrap();
        let ok = Scenario::from_json_str(r#"{"failures": [0, 4294967294]}"#, "s.json", &inst);
        assert_eq!(ok.unwrap().failures[1], MAX_FAILURES);
        let e = Scenario::from_json_str(r#"{"failures": [0, 4294967295]}"#, "s.json", &inst)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("s.json: field `failures[1]`"), "{e}");
        let e = Scenario::from_json_str(r#"{"failures": [0]}"#, "s.json", &inst)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`failures`") && e.contains("one per job (2)"),
            "{e}"
        );
    }
}
