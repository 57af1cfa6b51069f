//! Batsim's workload files (JSON) read as lists of rigid batch jobs: what `resched steal` runs
//! when `--workload` names a `.json` file (the mapping onto the node-stealing model is
//! [`crate::stealing::batsim`]'s).
//!
//! The format is Batsim's (`docs/reference/formats.md` shows an example):
//! `{"nb_res": N, "jobs": [{"id": "j1", "subtime": 0, "walltime": 100, "res": 4, "profile": "p"},
//! …], "profiles": {"p": {"type": "delay", "delay": 20.5}, …}}`. What is read, and how:
//! - `nb_res`: the platform's resources, an integer ≥ 1;
//! - a job's `id`: a string or a non-negative integer (written as text), unique in the file;
//! - `subtime` (submission), `walltime` (optional; `-1` or absent: none) and a `delay`
//!   profile's `delay` are read exactly (`20.20` is 101/5 s), never through a float;
//! - `res`: the resources the job needs, an integer ≥ 1;
//! - `profile`: the name of an entry of `profiles`, whose `type` must be `delay`: a delay
//!   profile's run time is a number of seconds, while the other types (`parallel`,
//!   `parallel_homogeneous`, `parallel_homogeneous_total`, `composed`, `sequence`, the
//!   `msg_*`/`data_staging` and `usage_trace` kinds) describe flops, bytes or traces whose
//!   duration depends on Batsim's platform file and its network model, which resched does not
//!   simulate. A job with such a profile is refused naming the job and the profile; a profile
//!   no job uses is not read.
//!
//! Every other field (`version`, `description`, a job's own metadata) is left as Batsim leaves
//! it. Errors name the file and the field (`jobs[3].res`, `profiles.p.delay`); the file is read
//! through [`crate::error::read_text`], with its size cap.
use crate::error::{Error, Result};
use crate::time::Time;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// One job of a Batsim workload, as the file states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatsimJob {
    /// The job's `id` (an integer id as its decimal text).
    pub id: String,
    /// `subtime`, ≥ 0.
    pub subtime: Time,
    /// `walltime`; `None` when absent or `-1` (Batsim's "no walltime").
    pub walltime: Option<Time>,
    /// `res`, ≥ 1.
    pub res: u32,
    /// The name of its profile.
    pub profile: String,
    /// The profile's `delay`, > 0: the job's run time.
    pub delay: Time,
}

/// A Batsim workload: the platform's resources and the jobs in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatsimWorkload {
    /// `nb_res`.
    pub nb_res: u32,
    pub jobs: Vec<BatsimJob>,
}

/// The file as serde reads it (unknown fields are Batsim's or the user's, and kept out).
#[derive(Deserialize)]
struct Raw {
    #[serde(deserialize_with = "crate::model::json::u32")]
    nb_res: u32,
    jobs: Vec<RawJob>,
    #[serde(default)]
    profiles: BTreeMap<String, Value>,
}

#[derive(Deserialize)]
struct RawJob {
    id: Value,
    subtime: Time,
    #[serde(default)]
    walltime: Option<Time>,
    #[serde(deserialize_with = "crate::model::json::u32")]
    res: u32,
    profile: String,
}

impl BatsimWorkload {
    /// Reads the workload file `path` (size-capped; `.json.gz` is decompressed with the `gzip`
    /// feature).
    pub fn load(path: &Path) -> Result<BatsimWorkload> {
        let text = crate::error::read_text(path)?;
        BatsimWorkload::parse(&text, &path.display().to_string())
    }

    /// Parses the text of a workload file; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<BatsimWorkload> {
        let raw: Raw = crate::model::json::parse_json(text, file)?;
        if raw.nb_res == 0 {
            return Err(Error::invalid(
                file,
                "nb_res",
                "the platform needs at least 1 resource",
            ));
        }
        let mut seen = HashSet::new();
        let mut jobs = Vec::with_capacity(raw.jobs.len());
        for (i, j) in raw.jobs.into_iter().enumerate() {
            let field = |f: &str| format!("jobs[{i}].{f}");
            let id = job_id(&j.id).map_err(|m| Error::invalid(file, field("id"), m))?;
            if !seen.insert(id.clone()) {
                return Err(Error::invalid(
                    file,
                    field("id"),
                    format!("`{id}` is the id of an earlier job: ids must be unique"),
                ));
            }
            let bad =
                |f: &str, m: String| Error::invalid(file, field(f), format!("job `{id}`: {m}"));
            if j.subtime.is_negative() {
                return Err(bad("subtime", format!("{} s is before time 0", j.subtime)));
            }
            let walltime = match j.walltime {
                Some(w) if w == Time::from_int(-1) => None,
                Some(w) if !w.is_positive() => {
                    return Err(bad(
                        "walltime",
                        format!("{w}: expected a positive number of seconds, or -1 for none"),
                    ))
                }
                w => w,
            };
            if j.res == 0 {
                return Err(bad("res", "a job needs at least 1 resource".into()));
            }
            let delay = delay_of(&raw.profiles, &j.profile, &field("profile"))
                .map_err(|(f, m)| Error::invalid(file, f, format!("job `{id}`: {m}")))?;
            jobs.push(BatsimJob {
                id,
                subtime: j.subtime,
                walltime,
                res: j.res,
                profile: j.profile,
                delay,
            });
        }
        Ok(BatsimWorkload {
            nb_res: raw.nb_res,
            jobs,
        })
    }
}

/// A job's `id` as text: a string, or a non-negative integer.
fn job_id(v: &Value) -> std::result::Result<String, String> {
    match v {
        Value::String(s) if !s.is_empty() => Ok(s.clone()),
        Value::String(_) => Err("an empty id".into()),
        Value::Number(n) => match n.as_u64() {
            Some(k) => Ok(k.to_string()),
            None => Err(format!(
                "`{n}`: expected a string or a non-negative integer"
            )),
        },
        other => Err(format!(
            "`{other}`: expected a string or a non-negative integer"
        )),
    }
}

/// The run time of profile `name` (named by the job's field `named_by`): its `delay`, when it
/// is a `delay` profile; else the field at fault and why.
fn delay_of(
    profiles: &BTreeMap<String, Value>,
    name: &str,
    named_by: &str,
) -> std::result::Result<Time, (String, String)> {
    let field = |f: &str| format!("profiles.{name}{f}");
    let Some(p) = profiles.get(name) else {
        return Err((
            named_by.to_string(),
            format!("profile `{name}` is not in `profiles`"),
        ));
    };
    let kind = p.get("type").and_then(Value::as_str);
    match kind {
        Some("delay") => {}
        Some(t) => {
            return Err((
                field(".type"),
                format!(
                    "profile `{name}` is of type `{t}`: resched reads `delay` profiles only (a \
                     run time in seconds); a `{t}` profile's duration depends on Batsim's \
                     platform and network model (docs/reference/formats.md)"
                ),
            ))
        }
        None => {
            return Err((
                field(".type"),
                format!("profile `{name}` has no `type` string (expected `delay`)"),
            ))
        }
    }
    let Some(d) = p.get("delay") else {
        return Err((field(".delay"), format!("profile `{name}` has no `delay`")));
    };
    let delay = Time::deserialize(d).map_err(|e| (field(".delay"), format!("{e}")))?;
    if !delay.is_positive() {
        return Err((
            field(".delay"),
            format!("{delay}: the run time must be > 0 seconds"),
        ));
    }
    Ok(delay)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{"version": 0, "nb_res": 4, "description": "two jobs",
        "jobs": [
          {"id": "a", "subtime": 0, "walltime": 100, "res": 4, "profile": "d20", "user": "x"},
          {"id": 7, "subtime": 1.5, "res": 1, "profile": "d20"},
          {"id": "c", "subtime": 2, "walltime": -1, "res": 2, "profile": "d20"}
        ],
        "profiles": {"d20": {"type": "delay", "delay": 20.20},
                     "unused": {"type": "parallel", "cpu": [1], "com": [0]}}}"#;

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn reads_jobs_exactly_and_ignores_metadata() {
        let w = BatsimWorkload::parse(SMALL, "w.json").unwrap();
        assert_eq!(w.nb_res, 4);
        let ids: Vec<&str> = w.jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids, ["a", "7", "c"]);
        assert_eq!(w.jobs[0].delay, t("101/5"));
        assert_eq!(w.jobs[0].walltime, Some(t("100")));
        assert_eq!(w.jobs[1].subtime, t("3/2"));
        assert_eq!(
            (w.jobs[1].walltime.clone(), w.jobs[2].walltime.clone()),
            (None, None)
        );
        assert_eq!(w.jobs[2].res, 2);
    }

    #[test]
    fn refusals_name_the_file_and_the_field() {
        for (text, want) in [
            (
                SMALL.replace("\"d20\": {\"type\": \"delay\"", "\"d20\": {\"type\": \"parallel_homogeneous\""),
                "w.json: field `profiles.d20.type`: job `a`: profile `d20` is of type `parallel_homogeneous`",
            ),
            (
                SMALL.replace("\"profile\": \"d20\", \"user\"", "\"profile\": \"nope\", \"user\""),
                "w.json: field `jobs[0].profile`: job `a`: profile `nope` is not in `profiles`",
            ),
            (
                SMALL.replace("\"id\": 7", "\"id\": \"a\""),
                "w.json: field `jobs[1].id`: `a` is the id of an earlier job",
            ),
            (
                SMALL.replace("\"id\": 7", "\"id\": -7"),
                "w.json: field `jobs[1].id`: `-7`: expected a string or a non-negative integer",
            ),
            (
                SMALL.replace("\"walltime\": 100", "\"walltime\": 0"),
                "w.json: field `jobs[0].walltime`: job `a`: 0: expected a positive number",
            ),
            (
                SMALL.replace("\"subtime\": 2", "\"subtime\": -2"),
                "w.json: field `jobs[2].subtime`: job `c`: -2 s is before time 0",
            ),
            (
                SMALL.replace("\"delay\": 20.20", "\"delay\": 0"),
                "w.json: field `profiles.d20.delay`: job `a`: 0: the run time must be > 0",
            ),
            (
                SMALL.replace("\"nb_res\": 4", "\"nb_res\": 0"),
                "w.json: field `nb_res`: the platform needs at least 1 resource",
            ),
            (
                SMALL.replace("\"res\": 4", "\"res\": 0"),
                "w.json: field `jobs[0].res`: job `a`: a job needs at least 1 resource",
            ),
            (
                SMALL.replace("\"res\": 4", "\"res\": 2.5"),
                "field `jobs[0].res`: invalid value",
            ),
        ] {
            let e = BatsimWorkload::parse(&text, "w.json").unwrap_err().to_string();
            assert!(e.contains(want), "{want}\n{e}");
        }
    }
}
