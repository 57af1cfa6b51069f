//! The golden corpus schema: one JSON file per case, read the same way by the corpus runner
//! (`tests/corpus.rs`), the adversarial search's writer and `diff`'s counterexample writer.
//!
//! A case is an instance, a failure scenario, optionally its lower bound (the one
//! [`fn@super::certify`] divides by: L(f) of the rigid paper, Eqs. 5–6, for rigid instances;
//! L'(J, f) of the moldable paper, Section 5.1, otherwise) and its exact optimum T_OPT(f) with the
//! reason it is optimal, and a list of pinned expectations: an algorithm of the catalogue with
//! its parameters and the exact makespan it must produce, with the hand computation or paper
//! reference that justifies it. `tests/cases/README.md` documents every field with an example.
//!
//! Unknown fields are rejected (a typo must not silently drop an expectation), except the one
//! free-form `other` object where a foreign implementation's answer is kept, and the free-form
//! `resched` object where the program that wrote the case names its build (never read).
//! `format_version` ([`FORMAT_VERSION`]) is the version of the schema: a case without it is
//! version 1, a newer one is refused with what to do; [`Case::new`] writes it. Loading validates
//! everything a run would otherwise trip over — the instance and scenario, every algorithm name
//! ([`super::catalogue::parse`]), priority and ε — and names the file and field of the first
//! problem; it never runs an algorithm (the runner does, through [`fn@super::certify`]).
use super::certify::{AlgoSpec, Bound};
use crate::error::{Error, FieldError, Result};
use crate::model::instance::RawInstance;
use crate::model::{Instance, Scenario};
use crate::schedulers::priority::Priority;
use crate::time::Time;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Deepest folder nesting [`load_dir`] walks below the corpus root.
pub const MAX_DEPTH: usize = 4;

/// Most case files [`load_dir`] reads (a runaway folder is an error, not an endless run).
pub const MAX_FILES: usize = 10_000;

/// The newest version of the case schema this build reads and the one it writes.
pub const FORMAT_VERSION: u32 = 1;

/// One golden case, as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The schema's version (module doc); absent is 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::model::json::opt_u32"
    )]
    pub format_version: Option<u32>,
    /// The build of resched that wrote the case (`{"version", "commit", "dirty"}`, filled in by
    /// the `resched` program); informative, never read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resched: Option<serde_json::Map<String, serde_json::Value>>,
    /// What the case shows, in a sentence or two (with the hand computation of the bound).
    pub description: String,
    /// The instance, in resched's instance format.
    pub instance: RawInstance,
    /// The failure scenario f.
    pub scenario: Scenario,
    /// L(f) (rigid) or L'(J, f) (moldable), exactly as [`Bound::of`] computes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<Time>,
    /// The exact optimum T_OPT(f) and why it is optimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt: Option<Opt>,
    /// Pinned makespans (may be empty: every algorithm still runs on the case).
    pub expect: Vec<Expect>,
    /// A foreign implementation's answer (free-form; `resched diff` writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The exact optimum of a case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opt {
    pub makespan: Time,
    /// The argument: a hand proof, a paper reference, or the exact search that proved it.
    pub why: String,
}

/// One pinned expectation: `algorithm` with these parameters has exactly this makespan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// A catalogue name (canonical, alias or `r-list:<m>[:kept]`).
    pub algorithm: String,
    /// A priority rule name (`lpt`, …, `ljf`, `index`).
    pub priority: String,
    /// RANDOM's seed (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// BATCH-LIST's ε (default 3/10; an error for algorithms without ε).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eps: Option<Time>,
    pub makespan: Time,
    /// The hand computation or paper reference behind the value.
    pub why: String,
}

impl Expect {
    /// The spec to run, validated (name, priority, ε); errors name `expect[i].<field>`.
    fn spec(&self, i: usize) -> Result<AlgoSpec, FieldError> {
        let field = |f: &str| format!("expect[{i}].{f}");
        let priority: Priority = self
            .priority
            .parse()
            .map_err(|e: Error| FieldError::new(field("priority"), e.to_string()))?;
        let spec = AlgoSpec {
            name: self.algorithm.clone(),
            priority: Some(priority),
            // default: a golden case without `seed` uses seed 0 (documented)
            seed: self.seed.unwrap_or(0),
            eps: self.eps.clone(),
        };
        spec.resolve().map_err(|e| {
            let f = if self.eps.is_some() && super::catalogue::parse(&self.algorithm).is_ok() {
                "eps"
            } else {
                "algorithm"
            };
            FieldError::new(field(f), e.to_string())
        })?;
        if self.why.trim().is_empty() {
            return Err(FieldError::new(
                field("why"),
                "is empty: say how the value was computed",
            ));
        }
        Ok(spec)
    }
}

/// A case read and validated.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The file it came from (as given to [`load`]).
    pub file: String,
    pub case: Case,
    pub instance: Instance,
    pub scenario: Scenario,
    /// `specs[i]` runs `case.expect[i]`.
    pub specs: Vec<AlgoSpec>,
}

impl Case {
    /// A case of (`inst`, `sc`) with its lower bound filled in and nothing pinned yet.
    pub fn new(description: impl Into<String>, inst: &Instance, sc: &Scenario) -> Result<Case> {
        Ok(Case {
            format_version: Some(FORMAT_VERSION),
            resched: None,
            description: description.into(),
            instance: inst.to_raw(),
            scenario: sc.clone(),
            lower_bound: Some(Bound::of(inst, sc)?.lower),
            opt: None,
            expect: Vec::new(),
            other: None,
        })
    }

    /// Pretty JSON in the corpus schema.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string_pretty(self).map_err(|e| Error::Limit(format!("case JSON: {e}")))
    }

    /// Validates the case; `file` names it in errors.
    pub fn validate(self, file: &str) -> Result<Loaded> {
        let fail = |e: FieldError| e.in_file(file);
        crate::model::json::check_format_version(self.format_version, FORMAT_VERSION)
            .map_err(fail)?;
        if self.description.trim().is_empty() {
            return Err(fail(FieldError::new("description", "is empty")));
        }
        let instance = Instance::from_raw(self.instance.clone())
            .map_err(|e| fail(FieldError::new(format!("instance.{}", e.field), e.msg)))?;
        self.scenario
            .validate(&instance)
            .map_err(|e| fail(FieldError::new(format!("scenario.{}", e.field), e.msg)))?;
        if let Some(opt) = &self.opt {
            if opt.why.trim().is_empty() {
                return Err(fail(FieldError::new(
                    "opt.why",
                    "is empty: say why it is optimal",
                )));
            }
        }
        let specs = self
            .expect
            .iter()
            .enumerate()
            .map(|(i, e)| e.spec(i))
            .collect::<Result<Vec<_>, _>>()
            .map_err(fail)?;
        Ok(Loaded {
            file: file.to_string(),
            scenario: self.scenario.clone(),
            case: self,
            instance,
            specs,
        })
    }
}

/// Parses and validates a case from JSON text (`file` names it in errors).
pub fn parse(text: &str, file: &str) -> Result<Loaded> {
    let case: Case = serde_json::from_str(text).map_err(|e| {
        // A newer schema's new fields broke the parse: its version is the clear message.
        crate::model::json::newer_format_version(text, FORMAT_VERSION)
            .map_or_else(|| Error::json(file, &e), |v| v.in_file(file))
    })?;
    case.validate(file)
}

/// Reads and validates one case file.
pub fn load(path: &Path) -> Result<Loaded> {
    parse(&crate::error::read_text(path)?, &path.display().to_string())
}

/// Every `*.json` case under `dir` (subfolders included, at most [`MAX_DEPTH`] deep), in path
/// order; the first invalid file is the error. A `README` or other non-JSON file is skipped.
pub fn load_dir(dir: &Path) -> Result<Vec<Loaded>> {
    let mut files = Vec::new();
    collect(dir, 0, &mut files)?;
    files.sort();
    files.iter().map(|f| load(f)).collect()
}

fn collect(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::Limit(format!(
            "{}: corpus folders nest deeper than {MAX_DEPTH}",
            dir.display()
        )));
    }
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let path = entry.map_err(|e| Error::io(dir, e))?.path();
        if path.is_dir() {
            collect(&path, depth + 1, out)?;
        } else if path.extension().is_some_and(|x| x == "json") {
            if out.len() == MAX_FILES {
                return Err(Error::Limit(format!(
                    "{}: more than {MAX_FILES} case files",
                    dir.display()
                )));
            }
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = r#"{"description": "two jobs",
        "instance": {"processors": 2, "jobs": [{"procs": 2, "time": 3}, {"procs": 1, "time": 1}]},
        "scenario": {"failures": [1, 0]}, "lower_bound": 13,
        "opt": {"makespan": 7, "why": "the 2-wide job runs alone twice"},
        "expect": [{"algorithm": "batch", "priority": "index", "eps": "1/10", "makespan": 7,
                    "why": "by hand"}],
        "other": {"makespan": 7.0}}"#;

    fn err(text: &str) -> String {
        parse(text, "c.json")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn reads_every_field_and_round_trips() {
        let l = parse(CASE, "c.json").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.instance.procs, 2);
        assert_eq!(l.specs[0].priority, Some(Priority::Index));
        assert_eq!(l.specs[0].eps, Some(Time::new(1, 10).unwrap_or_default()));
        let json = l.case.to_json().unwrap_or_default();
        let back = parse(&json, "d.json").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.case.to_json().unwrap_or_default(), json);
        assert_eq!(back.instance, l.instance);
        assert_eq!(back.case.other, l.case.other);
    }

    #[test]
    fn errors_name_the_field() {
        let typo = CASE.replace("\"why\": \"by hand\"", "\"wyh\": \"by hand\"");
        assert!(err(&typo).contains("unknown field `wyh`"), "{}", err(&typo));
        let algo = CASE.replace("\"batch\"", "\"bach\"");
        assert!(
            err(&algo).contains("`expect[0].algorithm`"),
            "{}",
            err(&algo)
        );
        let prio = CASE.replace("\"index\"", "\"fifo\"");
        assert!(
            err(&prio).contains("`expect[0].priority`"),
            "{}",
            err(&prio)
        );
        let eps = CASE.replace("\"1/10\"", "0");
        assert!(err(&eps).contains("`expect[0].eps`"), "{}", err(&eps));
        let sc = CASE.replace("[1, 0]", "[1]");
        assert!(err(&sc).contains("`scenario.failures`"), "{}", err(&sc));
        let inst = CASE.replace("\"processors\": 2", "\"processors\": 0");
        assert!(
            err(&inst).contains("`instance.processors`"),
            "{}",
            err(&inst)
        );
        let other = CASE.replace("{\"makespan\": 7.0}", "7");
        assert!(err(&other).contains("c.json:"), "{}", err(&other));
        let why = CASE.replace("by hand", " ");
        assert!(err(&why).contains("`expect[0].why`"), "{}", err(&why));
    }
}
