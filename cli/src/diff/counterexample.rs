//! The counterexample file `resched diff` writes after shrinking, and reads back (`--replay`).
//!
//! It is a golden case of the corpus ([`resched::oracle::corpus`], the schema of
//! `tests/cases/*.json`): `description`, `instance`, `scenario`, `lower_bound`, and one
//! expectation with resched's exact makespan; everything else goes in the corpus's free-form
//! `other` object ([`Record`]): the mismatch, the other implementation's answer (makespan,
//! schedule, or why it gave none, and its standard error), resched's schedule, the command and
//! protocol, the comparison rules, and the seed and case it was shrunk from. Copied into
//! `tests/cases/`, it becomes a corpus case as it is. Beside it go the instance and the
//! scenario as separate files, for `resched simulate`. Files are written atomically.
//!
//! `--replay` reruns the case and checks the file's pins: resched's makespan (the expectation,
//! and `other.resched`) and schedule must be what resched gives today — a file whose pins were
//! edited, or a resched whose answer changed, is reported and exits 1 even when the other
//! implementation agrees with today's answer; a change of the other implementation's answer
//! since the file was written is said too.
//!
//! The case has the corpus's `format_version` and names the build of resched that found it in
//! its top-level `resched` field ([`crate::provenance`]; not to be confused with the `resched`
//! answer inside `other`); the instance and scenario files have their formats' versions.
use super::compare::Rules;
use super::external::{External, Protocol};
use super::run::{Algo, Config, Found, Trial};
use resched::error::{write_atomic, Error, Result};
use resched::model::arbitrary::Case;
use resched::model::instance::RawInstance;
use resched::model::Schedule;
use resched::oracle::corpus;
use resched::time::Time;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What `diff` adds to a golden case, kept in its `other` object.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The mismatch kind (`makespan`, `decisions`, `infeasible`, …) and what differs.
    pub kind: String,
    pub detail: String,
    pub command: String,
    pub protocol: String,
    pub rel_tol: Option<Time>,
    pub same_schedule: bool,
    /// Where it came from: seed, case number, scope options, and the size before shrinking.
    pub seed: u64,
    pub case: u64,
    pub scope: String,
    pub shrink: Shrinking,
    pub resched: Ours,
    pub other: Theirs,
}

/// How the case was shrunk.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shrinking {
    /// Candidate runs, and whether the budget ran out first.
    pub steps: usize,
    pub exhausted: bool,
    /// P, n and Σf of the case as drawn.
    pub from_procs: u32,
    pub from_jobs: usize,
    pub from_failures: u64,
}

/// resched's certified answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ours {
    pub algorithm: String,
    pub makespan: Time,
    pub schedule: Schedule,
}

/// The other implementation's answer, or why there was none.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theirs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    pub stderr: String,
}

/// The sibling paths of the instance and scenario files: `x.json` → `x.instance.json`,
/// `x.scenario.json`.
pub fn siblings(out: &Path) -> (PathBuf, PathBuf) {
    let s = out.display().to_string();
    // default: a name without `.json` keeps its whole name as the stem
    let stem = s.strip_suffix(".json").unwrap_or(&s);
    (
        PathBuf::from(format!("{stem}.instance.json")),
        PathBuf::from(format!("{stem}.scenario.json")),
    )
}

/// Builds the file of a found mismatch.
pub fn build(found: &Found, cfg: &Config, ext: &External) -> Result<corpus::Case> {
    let algo = &cfg.algos[found.algo];
    let case = &found.shrunk.case;
    let trial = &found.shrunk.trial;
    let (kind, detail) = trial
        .mismatch()
        .map(|m| (m.kind.name().to_string(), m.detail.clone()))
        // default: no mismatch, no detail
        .unwrap_or_default();
    let inst = &case.instance;
    let from = &found.original;
    let description = format!(
        "resched diff counterexample ({kind}): {} on P = {}, {} jobs, failures {:?}; shrunk in {} runs from case {} of seed {} (P = {}, {} jobs, {} failures)",
        algo.label(),
        inst.procs,
        inst.len(),
        case.scenario.failures,
        found.shrunk.steps,
        found.case,
        cfg.seed,
        from.instance.procs,
        from.instance.len(),
        from.scenario.total_failures()
    );
    let record = Record {
        kind,
        detail: detail.clone(),
        command: ext.template.text.clone(),
        protocol: protocol_name(ext.protocol).to_string(),
        rel_tol: cfg.rules.rel_tol.clone(),
        same_schedule: cfg.rules.same_schedule,
        seed: cfg.seed,
        case: found.case,
        scope: cfg.scope.args(),
        shrink: Shrinking {
            steps: found.shrunk.steps,
            exhausted: found.shrunk.exhausted,
            from_procs: from.instance.procs,
            from_jobs: from.instance.len(),
            from_failures: from.scenario.total_failures(),
        },
        resched: Ours {
            algorithm: trial.ours.algorithm.clone(),
            makespan: trial.ours.makespan.clone(),
            schedule: trial.ours.schedule.clone(),
        },
        other: theirs(trial),
    };
    let mut file = corpus::Case::new(description, inst, &case.scenario)?;
    file.expect.push(corpus::Expect {
        algorithm: algo.name.clone(),
        priority: algo.priority().name().to_string(),
        seed: (algo.spec.seed != 0).then_some(algo.spec.seed),
        eps: algo.eps.clone(),
        makespan: trial.ours.makespan.clone(),
        why: format!("resched's certified run; the other implementation: {detail}"),
    });
    let serde_json::Value::Object(other) =
        serde_json::to_value(&record).map_err(|e| Error::json("counterexample", &e))?
    else {
        return Err(Error::Limit("a diff record is a JSON object".into()));
    };
    file.other = Some(other);
    file.resched = Some(crate::provenance::this_build().json_map());
    Ok(file)
}

fn theirs(t: &Trial) -> Theirs {
    let (makespan, schedule, failure) = match &t.reply.answer {
        Ok(a) => (a.makespan.clone(), a.schedule.clone(), None),
        Err(f) => (None, None, Some(f.to_string())),
    };
    Theirs {
        makespan,
        schedule,
        failure,
        stderr: t.reply.stderr.clone(),
    }
}

/// `template` or `jsonl`.
pub fn protocol_name(p: Protocol) -> &'static str {
    match p {
        Protocol::Template => "template",
        Protocol::Jsonl => "jsonl",
    }
}

/// Writes the file and its two siblings (with their formats' versions); returns the three
/// paths.
pub fn write(file: &corpus::Case, out: &Path) -> Result<[PathBuf; 3]> {
    let (ipath, spath) = siblings(out);
    let instance = RawInstance {
        format_version: Some(resched::model::instance::FORMAT_VERSION),
        ..file.instance.clone()
    };
    write_atomic(&ipath, pretty(&instance, &ipath)?.as_bytes())?;
    write_atomic(&spath, pretty(&file.scenario.to_raw(), &spath)?.as_bytes())?;
    write_atomic(out, pretty(file, out)?.as_bytes())?;
    Ok([out.to_path_buf(), ipath, spath])
}

fn pretty<T: Serialize>(v: &T, path: &Path) -> Result<String> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::json(&path.display().to_string(), &e))
}

/// A replayed file: the case, the algorithm, the rules it was found under, and its pins.
pub struct Replay {
    pub case: Case,
    pub algo: Algo,
    pub rules: Rules,
    pub record: Record,
    /// The expectation's makespan: resched's answer when the file was written.
    pub pinned: Time,
}

impl Replay {
    /// How today's run differs from the file's pins (module doc): resched's makespan and
    /// schedule (the expectation and `other.resched`), then the other implementation's answer
    /// (`other.other`). The first list is of resched's pins, which a replay must reproduce (an
    /// edited file, or a resched that changed its answer); the second says how the other
    /// implementation's answer moved since (a fix, usually).
    pub fn pins(&self, t: &Trial) -> (Vec<String>, Vec<String>) {
        let mut ours = Vec::new();
        let today = &t.ours.makespan;
        if &self.pinned != today {
            ours.push(format!(
                "field `expect[0].makespan` pins resched's makespan {}, resched gives {today} today",
                self.pinned
            ));
        }
        if &self.record.resched.makespan != today {
            ours.push(format!(
                "field `other.resched.makespan` pins {}, resched gives {today} today",
                self.record.resched.makespan
            ));
        }
        if self.record.resched.schedule != t.ours.schedule {
            ours.push(
                "field `other.resched.schedule` is not the schedule resched gives today"
                    .to_string(),
            );
        }
        let then = &self.record.other;
        let now = theirs(t);
        let mut other = Vec::new();
        if then.makespan != now.makespan {
            let show = |m: &Option<Time>| {
                m.as_ref()
                    .map_or_else(|| "none".to_string(), Time::to_string)
            };
            other.push(format!(
                "its makespan was {} (field `other.other.makespan`), it is {} today",
                show(&then.makespan),
                show(&now.makespan)
            ));
        }
        if then.schedule != now.schedule {
            other.push("its schedule differs from the one the file records".to_string());
        }
        if then.failure.is_some() != now.failure.is_some() {
            let show = |f: &Option<String>| match f {
                Some(why) => why.clone(),
                None => "an answer".to_string(),
            };
            other.push(format!(
                "it gave {} then, {} today",
                show(&then.failure),
                show(&now.failure)
            ));
        }
        (ours, other)
    }
}

/// Reads a counterexample file back: a corpus case (validated by the corpus loader) with one
/// expectation and a `diff` record in `other`.
pub fn load(path: &Path) -> Result<Replay> {
    let name = path.display().to_string();
    let loaded = corpus::load(path)?;
    let ([e], [spec]) = (loaded.case.expect.as_slice(), loaded.specs.as_slice()) else {
        return Err(Error::invalid(
            &name,
            "expect",
            "a diff counterexample has exactly one expectation",
        ));
    };
    let other = loaded.case.other.clone().ok_or_else(|| {
        Error::invalid(
            &name,
            "other",
            "a diff counterexample keeps its record in `other`",
        )
    })?;
    let record: Record = serde_json::from_value(serde_json::Value::Object(other))
        .map_err(|err| Error::invalid(&name, "other", err.to_string()))?;
    // default: LPT is the documented default priority
    let priority = spec.priority.unwrap_or(resched::schedulers::Priority::Lpt);
    let algo = Algo::new(&e.algorithm, priority, spec.seed, spec.eps.as_ref())
        .map_err(|err| Error::invalid(&name, "expect[0].algorithm", err.to_string()))?;
    Ok(Replay {
        case: Case {
            instance: loaded.instance,
            scenario: loaded.scenario,
        },
        algo,
        rules: Rules {
            rel_tol: record.rel_tol.clone(),
            same_schedule: record.same_schedule,
            ..Rules::default()
        },
        record,
        pinned: e.makespan.clone(),
    })
}

/// A word quoted for a POSIX shell (only when it needs it).
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The options that repeat the comparison rules and the protocol of a run.
pub fn rule_args(ext: &External, rules: &Rules) -> String {
    let mut s = format!("--cmd {}", shell_quote(&ext.template.text));
    if ext.protocol == Protocol::Jsonl {
        s.push_str(" --protocol jsonl");
    }
    s.push_str(&format!(" --timeout {}", ext.timeout.as_secs_f64()));
    if let Some(t) = &rules.rel_tol {
        s.push_str(&format!(" --rel-tol {t}"));
    }
    if !rules.same_schedule {
        s.push_str(" --compare makespans");
    }
    if rules.ties {
        s.push_str(" --ties");
    }
    s
}

/// The algorithm options of a run (`--algo`, `--priority`, `--algo-seed`, `--eps`).
pub fn algo_args(a: &Algo) -> String {
    let mut s = format!("--algo {} --priority {}", a.name, a.priority().name());
    if a.spec.seed != 0 {
        s.push_str(&format!(" --algo-seed {}", a.spec.seed));
    }
    if let Some(e) = &a.spec.eps {
        s.push_str(&format!(" --eps {e}"));
    }
    s
}

/// The three reproduction commands: resched alone on the shrunk case, `diff --replay` of the
/// shrunk case, and `diff --case` of the case as drawn.
pub fn commands(out: &Path, found: &Found, cfg: &Config, ext: &External) -> Vec<String> {
    let (ipath, spath) = siblings(out);
    let a = &cfg.algos[found.algo];
    let mut simulate = format!(
        "resched simulate --instance {} --scenario {} --algo {} --priority {}",
        shell_quote(&ipath.display().to_string()),
        shell_quote(&spath.display().to_string()),
        a.name,
        a.priority().name()
    );
    if a.spec.seed != 0 {
        simulate.push_str(&format!(" --seed {}", a.spec.seed));
    }
    if let Some(e) = &a.spec.eps {
        simulate.push_str(&format!(" --eps {e}"));
    }
    let rules = rule_args(ext, &cfg.rules);
    vec![
        simulate,
        format!(
            "resched diff --replay {} {rules}",
            shell_quote(&out.display().to_string())
        ),
        format!(
            "resched diff {rules} --seed {} --case {} {} {}",
            cfg.seed,
            found.case,
            cfg.scope.args(),
            algo_args(a)
        ),
    ]
}
