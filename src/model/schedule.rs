//! A schedule: the list of attempts an algorithm made, with its JSON format.
//!
//! ```json
//! { "attempts": [ { "job": 0, "attempt": 1, "start": 0, "procs": 2, "duration": "3/2" } ] }
//! ```
//! `job` is the 0-based index in the instance, `attempt` counts from 1 (the paper's "i-th
//! execution attempt"). `nodes` lists node ids where the model has them. `makespan` is written
//! for convenience and ignored when read (the checker recomputes it).
//!
//! [`Schedule::from_json_report`] also reads a report that carries a schedule in a `schedule`
//! field (what `resched simulate --json` and `resched batch --schedules` print).
use crate::error::{Error, Result};
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
            // default: the makespan of an empty schedule is 0
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

    /// Parses either a bare schedule (`{"attempts": [...]}`, unknown fields refused) or a JSON
    /// object with a `schedule` field holding one, whose other fields (a producer's metrics,
    /// such as `simulate --json`'s count of `attempts`) are not read. An object with both a
    /// `schedule` and an `attempts` list is ambiguous and refused.
    pub fn from_json_report(text: &str, file: &str) -> Result<Schedule> {
        /// A report: only its schedule is read.
        #[derive(Deserialize)]
        struct Report {
            schedule: Schedule,
        }
        let v: serde_json::Value = super::parse_json(text, file)?;
        let Some(obj) = v.as_object().filter(|o| o.contains_key("schedule")) else {
            return Schedule::from_json_str(text, file);
        };
        if obj.get("attempts").is_some_and(serde_json::Value::is_array) {
            return Err(Error::invalid(
                file,
                "schedule",
                "both `schedule` and `attempts` are given: expected a schedule {\"attempts\": [...]} \
                 or a report with a `schedule` field, not both",
            ));
        }
        let r: Report = super::parse_json(text, file)?;
        Ok(r.schedule)
    }

    /// Loads a file that [`Schedule::from_json_report`] reads.
    pub fn load_report(path: &Path) -> Result<Schedule> {
        let text = crate::error::read_text(path)?;
        Schedule::from_json_report(&text, &path.display().to_string())
    }

    /// Pretty JSON text, with the makespan.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.clone().with_makespan())
            // unreachable: serializing a struct of strings and numbers cannot fail
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ATTEMPT: &str = r#"{"job": 0, "attempt": 1, "start": 0, "procs": 2, "duration": "3/2"}"#;

    #[test]
    fn a_bare_schedule_or_a_report_with_one() {
        let bare = format!(r#"{{"attempts": [{ATTEMPT}], "makespan": "3/2"}}"#);
        let s = Schedule::from_json_report(&bare, "s.json").unwrap_or_default();
        assert_eq!(s.attempts.len(), 1);
        assert_eq!(s.attempts[0].duration, Time::new(3, 2).unwrap_or_default());
        let report = format!(r#"{{"attempts": 1, "ratio": "1/2", "schedule": {bare}}}"#);
        assert_eq!(Schedule::from_json_report(&report, "r.json").ok(), Some(s));
    }

    #[test]
    fn anything_else_is_an_error_naming_the_field() {
        let err = |text: &str| {
            Schedule::from_json_report(text, "x.json")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        let unknown = format!(r#"{{"attempts": [{ATTEMPT}], "area": 6}}"#);
        assert!(
            err(&unknown).contains("unknown field `area`"),
            "{}",
            err(&unknown)
        );
        let both = format!(r#"{{"attempts": [], "schedule": {{"attempts": [{ATTEMPT}]}}}}"#);
        assert!(
            err(&both).starts_with("x.json: field `schedule`: both"),
            "{}",
            err(&both)
        );
        let inner = r#"{"schedule": {"attempts": [], "area": 1}}"#;
        assert!(
            err(inner).contains("unknown field `area`"),
            "{}",
            err(inner)
        );
        assert!(err(r#"{"ratio": 1}"#).contains("unknown field `ratio`"));
        assert!(err("[1]").starts_with("x.json:1:"), "{}", err("[1]"));
    }
}
