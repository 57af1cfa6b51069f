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
//!
//! `format_version` (optional, [`FORMAT_VERSION`]) is the version of the format: absent is 1, a
//! newer one is refused with what to do. [`Schedule::to_json`] writes it; a schedule embedded in
//! another document (a report, a batch response, a golden case) is serialized without it, and
//! read with or without it.
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

/// The newest version of the schedule format this build reads and the one it writes.
pub const FORMAT_VERSION: u32 = 1;

/// All attempts of a run, in the order they were started.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawSchedule")]
pub struct Schedule {
    pub attempts: Vec<Attempt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<String>,
}

/// The on-disk form of a schedule: [`Schedule`]'s fields and the format's version.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSchedule {
    #[serde(default, deserialize_with = "super::json::opt_u32")]
    format_version: Option<u32>,
    attempts: Vec<Attempt>,
    #[serde(default)]
    makespan: Option<Time>,
    #[serde(default)]
    algorithm: Option<String>,
}

impl TryFrom<RawSchedule> for Schedule {
    type Error = String;

    /// Refuses a newer `format_version` (the message names the field).
    fn try_from(raw: RawSchedule) -> Result<Schedule, String> {
        super::json::check_format_version(raw.format_version, FORMAT_VERSION)
            .map_err(|e| format!("field `{}`: {}", e.field, e.msg))?;
        Ok(Schedule {
            attempts: raw.attempts,
            makespan: raw.makespan,
            algorithm: raw.algorithm,
        })
    }
}

/// A schedule file as written: the version first, then the schedule.
#[derive(Serialize)]
struct Versioned<'a> {
    format_version: u32,
    #[serde(flatten)]
    schedule: &'a Schedule,
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
        let raw: RawSchedule =
            super::json::parse_versioned(text, file, FORMAT_VERSION, |r: &RawSchedule| {
                r.format_version
            })?;
        // The version was checked above: the conversion cannot fail.
        Schedule::try_from(raw).map_err(|e| Error::invalid(file, "format_version", e))
    }

    /// Loads a schedule file.
    pub fn load(path: &Path) -> Result<Schedule> {
        let text = crate::error::read_text(path)?;
        Schedule::from_json_str(&text, &path.display().to_string())
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
        let r: Report = super::parse_json(text, file).map_err(|e| {
            // A newer schedule inside the report: the version is the clear message.
            obj.get("schedule")
                .and_then(|s| super::json::newer_format_version(&s.to_string(), FORMAT_VERSION))
                .map_or(e, |v| {
                    Error::invalid(file, format!("schedule.{}", v.field), v.msg)
                })
        })?;
        Ok(r.schedule)
    }

    /// Loads a file that [`Schedule::from_json_report`] reads.
    pub fn load_report(path: &Path) -> Result<Schedule> {
        let text = crate::error::read_text(path)?;
        Schedule::from_json_report(&text, &path.display().to_string())
    }

    /// Pretty JSON text of a schedule file, with its `format_version` and the makespan.
    pub fn to_json(&self) -> String {
        let schedule = self.clone().with_makespan();
        let file = Versioned {
            format_version: FORMAT_VERSION,
            schedule: &schedule,
        };
        serde_json::to_string_pretty(&file)
            // unreachable: serializing a struct of strings and numbers cannot fail
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// An attempt without node ids from exact literals, for the unit tests of the modules that
/// judge or transform schedules.
#[cfg(test)]
pub(crate) fn attempt(
    job: usize,
    attempt: u32,
    start: &str,
    procs: u32,
    duration: &str,
) -> Attempt {
    let t = |s: &str| s.parse::<Time>().unwrap_or_else(|e| panic!("{s}: {e}"));
    Attempt {
        job,
        attempt,
        start: t(start),
        procs,
        duration: t(duration),
        nodes: None,
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
