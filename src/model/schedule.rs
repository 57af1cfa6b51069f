//! A schedule: the list of attempts an algorithm made, with its JSON format.
//!
//! ```json
//! { "attempts": [ { "job": 0, "attempt": 1, "start": 0, "procs": 2, "duration": "3/2" } ] }
//! ```
//! `job` is the 0-based index in the instance, `attempt` counts from 1 (the paper's "i-th
//! execution attempt"). `nodes` lists node ids where the model has them. `makespan` is written
//! for convenience and ignored when read (the checker recomputes it).
use crate::error::Result;
use crate::time::Time;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One execution attempt of a job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    /// 0-based job index.
    #[serde(deserialize_with = "super::json::usize")]
    pub job: usize,
    /// 1-based attempt number.
    #[serde(deserialize_with = "super::json::u32")]
    pub attempt: u32,
    pub start: Time,
    #[serde(deserialize_with = "super::json::u32")]
    pub procs: u32,
    pub duration: Time,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::json::opt_vec_u32"
    )]
    pub nodes: Option<Vec<u32>>,
}

impl Attempt {
    /// start + duration.
    pub fn end(&self) -> Time {
        &self.start + &self.duration
    }
}

/// All attempts of a run, in the order they were started.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    pub attempts: Vec<Attempt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<String>,
}

impl Schedule {
    /// The latest end of an attempt (0 for an empty schedule).
    pub fn makespan(&self) -> Time {
        self.attempts
            .iter()
            .map(Attempt::end)
            .max()
            .unwrap_or_default()
    }

    /// Fills the informative `makespan` field.
    pub fn with_makespan(mut self) -> Schedule {
        self.makespan = Some(self.makespan());
        self
    }

    /// Parses JSON text (`file` names it in errors).
    pub fn from_json_str(text: &str, file: &str) -> Result<Schedule> {
        super::parse_json(text, file)
    }

    /// Loads a schedule file.
    pub fn load(path: &Path) -> Result<Schedule> {
        super::load_json(path)
    }

    /// Pretty JSON text, with the makespan.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.clone().with_makespan())
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}
