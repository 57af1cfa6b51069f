//! An instance: P identical processors and a list of jobs, with its JSON format.
//!
//! ```json
//! { "processors": 4,
//!   "jobs": [ { "name": "A", "procs": 2, "time": "3/2" },
//!             { "name": "B", "speedup": { "model": "table", "times": [4, 2, "3/2", 1] } } ] }
//! ```
//! Rigid jobs give `procs` and `time`; moldable jobs give a `speedup` model. Times are JSON
//! integers, strings `"a/b"` or decimals (read exactly).
//!
//! `format_version` (optional, [`FORMAT_VERSION`]) is the version of this format: a file without
//! it is version 1, a newer version is refused with what to do. [`Instance::to_json`] writes it;
//! an instance embedded in another document ([`Instance::to_raw`], a golden case, a batch
//! request) leaves it out, the document's own version covering it.
use super::job::{Job, Profile};
use super::speedup::SpeedupModel;
use crate::error::{FieldError, Result};
use crate::time::Time;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::Path;

/// P processors and the jobs to run on them.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// P, the number of identical processors.
    pub procs: u32,
    pub jobs: Vec<Job>,
}

/// The on-disk form of a job.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawJob {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::json::opt_u32"
    )]
    pub procs: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speedup: Option<SpeedupModel>,
}

/// The newest version of the instance format this build reads and the one it writes.
pub const FORMAT_VERSION: u32 = 1;

/// The on-disk form of an instance.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInstance {
    /// The format's version (module doc); absent is 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::json::opt_u32"
    )]
    pub format_version: Option<u32>,
    #[serde(deserialize_with = "super::json::u32")]
    pub processors: u32,
    pub jobs: Vec<RawJob>,
}

/// Largest P accepted (moldable tables have P entries per job).
pub const MAX_PROCS: u32 = 1 << 24;

/// Largest number of table entries (moldable jobs × P) an instance file may make the reader
/// compute: 2^25 exact times, ~0.8 GB. A model such as `{"model": "roofline", ...}` is a few
/// bytes whatever P is, so without this bound a small file could ask for n·2^24 times. The
/// papers' largest settings (P = 15000, n = 500; P = 7500, n = 1000) need 7.5·10^6.
pub const MAX_TABLE_ENTRIES: u64 = 1 << 25;

impl Instance {
    /// Builds and validates an instance.
    pub fn new(procs: u32, jobs: Vec<Job>) -> Result<Instance, FieldError> {
        let inst = Instance { procs, jobs };
        inst.validate()?;
        Ok(inst)
    }

    /// A rigid instance from `(p_j, t_j)` pairs, jobs named J1, J2, ...
    pub fn rigid(procs: u32, jobs: &[(u32, Time)]) -> Result<Instance, FieldError> {
        let jobs = jobs
            .iter()
            .enumerate()
            .map(|(i, (p, t))| Job::rigid(format!("J{}", i + 1), *p, t.clone()))
            .collect();
        Instance::new(procs, jobs)
    }

    /// Number of jobs n.
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// True when there is no job.
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// True when every job is rigid.
    pub fn is_rigid(&self) -> bool {
        self.jobs.iter().all(Job::is_rigid)
    }

    /// Checks every rule: P ≥ 1, at least one job, p_j in 1..=P, t_j > 0, tables of length P
    /// with positive times, unique names.
    pub fn validate(&self) -> Result<(), FieldError> {
        if self.procs == 0 {
            return Err(FieldError::new("processors", "must be at least 1"));
        }
        if self.procs > MAX_PROCS {
            return Err(FieldError::new(
                "processors",
                format!("{} is above the supported maximum {MAX_PROCS}", self.procs),
            ));
        }
        if self.jobs.is_empty() {
            return Err(FieldError::new(
                "jobs",
                "an instance needs at least one job",
            ));
        }
        let mut names = HashSet::new();
        for (j, job) in self.jobs.iter().enumerate() {
            if job.name.is_empty() {
                return Err(FieldError::new(
                    format!("jobs[{j}].name"),
                    "must not be empty",
                ));
            }
            // A name is printed as is in text output (a terminal) and in pictures: control
            // characters there are garbage at best and terminal escape sequences at worst.
            if let Some(c) = job.name.chars().find(|c| c.is_control()) {
                return Err(FieldError::new(
                    format!("jobs[{j}].name"),
                    format!(
                        "contains the control character U+{:04X}; names must be printable",
                        c as u32
                    ),
                ));
            }
            if !names.insert(job.name.as_str()) {
                return Err(FieldError::new(
                    format!("jobs[{j}].name"),
                    format!("`{}` is used by an earlier job", job.name),
                ));
            }
            match &job.profile {
                Profile::Rigid { procs, time } => {
                    if *procs == 0 || *procs > self.procs {
                        return Err(FieldError::new(
                            format!("jobs[{j}].procs"),
                            format!(
                                "{procs} is outside 1..={} (the platform's processors)",
                                self.procs
                            ),
                        ));
                    }
                    if !time.is_positive() {
                        return Err(FieldError::new(
                            format!("jobs[{j}].time"),
                            format!("{time} must be > 0"),
                        ));
                    }
                }
                Profile::Moldable { times, .. } => {
                    if times.len() != self.procs as usize {
                        return Err(FieldError::new(
                            format!("jobs[{j}].speedup"),
                            format!(
                                "table has {} entries, expected P = {}",
                                times.len(),
                                self.procs
                            ),
                        ));
                    }
                    if let Some(p) = times.iter().position(|t| !t.is_positive()) {
                        return Err(FieldError::new(
                            format!("jobs[{j}].speedup"),
                            format!("t({}) must be > 0", p + 1),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Builds an instance from its on-disk form, validating every field.
    pub fn from_raw(raw: RawInstance) -> Result<Instance, FieldError> {
        super::json::check_format_version(raw.format_version, FORMAT_VERSION)?;
        if raw.processors == 0 {
            return Err(FieldError::new("processors", "must be at least 1"));
        }
        if raw.processors > MAX_PROCS {
            return Err(FieldError::new(
                "processors",
                format!(
                    "{} is above the supported maximum {MAX_PROCS}",
                    raw.processors
                ),
            ));
        }
        check_table_budget(&raw)?;
        let mut jobs = Vec::with_capacity(raw.jobs.len());
        for (j, rj) in raw.jobs.into_iter().enumerate() {
            // default: unnamed jobs are J1, J2, … (documented)
            let name = rj.name.unwrap_or_else(|| format!("J{}", j + 1));
            let profile = match (rj.procs, rj.time, rj.speedup) {
                (Some(procs), Some(time), None) => Profile::Rigid { procs, time },
                (None, None, Some(model)) => {
                    let times = model.table(raw.processors, &format!("jobs[{j}].speedup"))?;
                    Profile::Moldable { model, times }
                }
                (_, _, Some(_)) => {
                    return Err(FieldError::new(
                        format!("jobs[{j}]"),
                        "a moldable job gives `speedup` only, not `procs`/`time`",
                    ))
                }
                (None, _, None) => {
                    return Err(FieldError::new(
                        format!("jobs[{j}].procs"),
                        "missing (or give a `speedup` model)",
                    ))
                }
                (_, None, None) => {
                    return Err(FieldError::new(format!("jobs[{j}].time"), "missing"))
                }
            };
            jobs.push(Job { name, profile });
        }
        Instance::new(raw.processors, jobs)
    }

    /// The on-disk form, without `format_version` (the form embedded in other documents;
    /// [`Instance::to_json`] adds it).
    pub fn to_raw(&self) -> RawInstance {
        RawInstance {
            format_version: None,
            processors: self.procs,
            jobs: self
                .jobs
                .iter()
                .map(|j| match &j.profile {
                    Profile::Rigid { procs, time } => RawJob {
                        name: Some(j.name.clone()),
                        procs: Some(*procs),
                        time: Some(time.clone()),
                        speedup: None,
                    },
                    Profile::Moldable { model, .. } => RawJob {
                        name: Some(j.name.clone()),
                        procs: None,
                        time: None,
                        speedup: Some(model.clone()),
                    },
                })
                .collect(),
        }
    }

    /// Parses and validates JSON text (`file` names it in errors).
    pub fn from_json_str(text: &str, file: &str) -> Result<Instance> {
        let raw = RawInstance::from_json_str(text, file)?;
        Instance::from_raw(raw).map_err(|e| e.in_file(file))
    }

    /// Loads and validates an instance file (`.json`, optionally gzipped).
    pub fn load(path: &Path) -> Result<Instance> {
        let text = crate::error::read_text(path)?;
        Instance::from_json_str(&text, &path.display().to_string())
    }

    /// Pretty JSON text of an instance file, with its `format_version`.
    pub fn to_json(&self) -> String {
        let raw = RawInstance {
            format_version: Some(FORMAT_VERSION),
            ..self.to_raw()
        };
        serde_json::to_string_pretty(&raw)
            // unreachable: serializing a struct of strings and numbers cannot fail
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

impl RawInstance {
    /// Parses an instance file's text without validating the instance (`file` names it in
    /// errors); a newer `format_version` is refused, also when its new fields break the parse.
    pub fn from_json_str(text: &str, file: &str) -> Result<RawInstance> {
        super::json::parse_versioned(text, file, FORMAT_VERSION, |r: &RawInstance| {
            r.format_version
        })
    }
}

/// Refuses, before any table is computed, an instance whose moldable tables would hold more
/// than [`MAX_TABLE_ENTRIES`] times; names the first job that crosses the bound.
fn check_table_budget(raw: &RawInstance) -> Result<(), FieldError> {
    let mut entries = 0u64;
    for (j, rj) in raw.jobs.iter().enumerate() {
        if rj.speedup.is_some() {
            entries = entries.saturating_add(u64::from(raw.processors));
            if entries > MAX_TABLE_ENTRIES {
                return Err(FieldError::new(
                    format!("jobs[{j}].speedup"),
                    format!(
                        "the moldable jobs up to this one need {entries} table entries (one per job \
                         and processor count, P = {}), above the limit of {MAX_TABLE_ENTRIES}",
                        raw.processors
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rigid_and_moldable() {
        let text = r#"{"processors": 4, "jobs": [
            {"name": "A", "procs": 2, "time": "3/2"},
            {"speedup": {"model": "table", "times": [4, 2, "1.5", "5/4"], "monotonic": true}}]}"#;
        let inst = Instance::from_json_str(text, "x.json").unwrap();
        assert_eq!(inst.jobs[0].time(2), Some(&Time::new(3, 2).unwrap()));
        assert_eq!(inst.jobs[1].name, "J2");
        assert_eq!(inst.jobs[1].time(3), Some(&Time::new(3, 2).unwrap()));
        let back = Instance::from_json_str(&inst.to_json(), "y").unwrap();
        assert_eq!(back, inst);
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (
                r#"{"processors": 4, "jobs": [{"procs": 5, "time": 1}]}"#,
                "jobs[0].procs",
            ),
            (
                r#"{"processors": 4, "jobs": [{"procs": 1, "time": 0}]}"#,
                "jobs[0].time",
            ),
            (
                r#"{"processors": 4, "jobs": [{"procs": 1, "time": "-1/2"}]}"#,
                "jobs[0].time",
            ),
            (r#"{"processors": 4, "jobs": []}"#, "jobs"),
            (
                r#"{"processors": 0, "jobs": [{"procs": 1, "time": 1}]}"#,
                "processors",
            ),
            (
                r#"{"processors": 4, "jobs": [{"name":"a","procs": 1, "time": 1},{"name":"a","procs": 1, "time": 1}]}"#,
                "jobs[1].name",
            ),
            (
                r#"{"processors": 2, "jobs": [{"speedup": {"model":"table","times":[1]}}]}"#,
                "jobs[0].speedup.times",
            ),
            (
                r#"{"processors": 2, "jobs": [{"speedup": {"model":"table","times":[1,2],"monotonic":true}}]}"#,
                "jobs[0].speedup.times[1]",
            ),
        ];
        let ctl = r#"{"processors": 1, "jobs": [{"name": "a\u0000b", "procs": 1, "time": 1}]}"#;
        let e = Instance::from_json_str(ctl, "c.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`jobs[0].name`") && e.contains("U+0000"), "{e}");
        // Three tiny roofline models on P = 2^24 would need 3·2^24 > 2^25 table entries.
        let big = format!(
            r#"{{"processors": {MAX_PROCS}, "jobs": [{0}, {0}, {0}]}}"#,
            r#"{"speedup": {"model": "roofline", "w": 1, "pbar": 1}}"#
        );
        let cases: Vec<(&str, &str)> = cases
            .into_iter()
            .chain([(big.as_str(), "jobs[2].speedup")])
            .collect();
        for (text, field) in cases {
            let e = Instance::from_json_str(text, "f.json").unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains(&format!("`{field}`")), "{text}: {msg}");
            assert!(msg.starts_with("f.json"), "{msg}");
        }
        let e = Instance::from_json_str("{\"processors\": 4,\n \"jobs\": [", "g.json").unwrap_err();
        assert!(e.to_string().starts_with("g.json:2:"), "{e}");
    }
}
