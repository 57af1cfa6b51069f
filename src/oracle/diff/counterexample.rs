//! The counterexample file `resched diff` writes after shrinking, and reads back (`--replay`).
//!
//! It is a golden case in the corpus format of `tests/cases/*.json` — `description`,
//! `instance`, `scenario`, `lower_bound` (rigid instances), `expect: [{algorithm, priority,
//! makespan, why}]` with resched's exact makespan — plus one object `diff` with everything
//! else: the mismatch, the other implementation's answer (makespan, schedule, or why it gave
//! none, and its standard error), resched's schedule, the command and protocol, the comparison
//! rules, the seed and case it was shrunk from, the RANDOM seed and ε. Beside it go the
//! instance and the scenario as separate files, for `resched simulate`. Files are written
//! atomically.
use super::compare::Rules;
use super::external::{External, Protocol};
use super::run::{Algo, Config, Found, Trial};
use crate::bounds;
use crate::error::{write_atomic, Error, Result};
use crate::model::arbitrary::Case;
use crate::model::instance::RawInstance;
use crate::model::{Instance, Scenario, Schedule};
use crate::time::Time;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file's content (field order is the file's order).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    pub description: String,
    pub instance: RawInstance,
    pub scenario: Scenario,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<Time>,
    pub expect: Vec<Expect>,
    pub diff: Record,
}

/// One expectation, as the golden corpus writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub algorithm: String,
    pub priority: String,
    pub makespan: Time,
    pub why: String,
}

/// What `diff` adds to a golden case.
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
    /// The RANDOM priority's seed and BATCH-LIST's ε of the run.
    pub algo_seed: u64,
    pub eps: Option<Time>,
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
    let stem = s.strip_suffix(".json").unwrap_or(&s);
    (
        PathBuf::from(format!("{stem}.instance.json")),
        PathBuf::from(format!("{stem}.scenario.json")),
    )
}

/// Builds the file of a found mismatch.
pub fn build(found: &Found, cfg: &Config, ext: &External) -> File {
    let algo = &cfg.algos[found.algo];
    let case = &found.shrunk.case;
    let trial = &found.shrunk.trial;
    let (kind, detail) = trial
        .mismatch()
        .map(|m| (m.kind.name().to_string(), m.detail.clone()))
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
    File {
        description,
        instance: inst.to_raw(),
        scenario: case.scenario.clone(),
        lower_bound: bounds::rigid(inst, &case.scenario).map(|b| b.lower),
        expect: vec![Expect {
            algorithm: algo.name.clone(),
            priority: algo.priority().name().to_string(),
            makespan: trial.ours.makespan.clone(),
            why: format!("resched's certified run; the other implementation: {detail}"),
        }],
        diff: Record {
            kind,
            detail,
            command: ext.template.text.clone(),
            protocol: protocol_name(ext.protocol).to_string(),
            rel_tol: cfg.rules.rel_tol.clone(),
            same_schedule: cfg.rules.same_schedule,
            algo_seed: algo.spec.seed,
            eps: algo.eps.clone(),
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
        },
    }
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

/// Writes the file and its two siblings; returns the three paths.
pub fn write(file: &File, out: &Path) -> Result<[PathBuf; 3]> {
    let (ipath, spath) = siblings(out);
    write_atomic(&ipath, pretty(&file.instance, &ipath)?.as_bytes())?;
    write_atomic(&spath, pretty(&file.scenario, &spath)?.as_bytes())?;
    write_atomic(out, pretty(file, out)?.as_bytes())?;
    Ok([out.to_path_buf(), ipath, spath])
}

fn pretty<T: Serialize>(v: &T, path: &Path) -> Result<String> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::json(&path.display().to_string(), &e))
}

/// A replayed file: the case, the algorithm, and the rules it was found under.
pub struct Replay {
    pub case: Case,
    pub algo: Algo,
    pub rules: Rules,
    pub record: Record,
}

/// Reads a counterexample file back.
pub fn load(path: &Path) -> Result<Replay> {
    let name = path.display().to_string();
    let text = crate::error::read_text(path)?;
    let f: File = serde_json::from_str(&text).map_err(|e| Error::json(&name, &e))?;
    let instance = Instance::from_raw(f.instance).map_err(|e| e.in_file(&name))?;
    f.scenario
        .validate(&instance)
        .map_err(|e| e.in_file(&name))?;
    let [e] = f.expect.as_slice() else {
        return Err(Error::invalid(
            &name,
            "expect",
            "a diff counterexample has exactly one expectation",
        ));
    };
    let priority = e.priority.parse().map_err(|_| {
        Error::invalid(
            &name,
            "expect[0].priority",
            format!("unknown rule `{}`", e.priority),
        )
    })?;
    let algo = Algo::new(
        &e.algorithm,
        priority,
        f.diff.algo_seed,
        f.diff.eps.as_ref(),
    )
    .map_err(|err| Error::invalid(&name, "expect[0].algorithm", err.to_string()))?;
    Ok(Replay {
        case: Case {
            instance,
            scenario: f.scenario,
        },
        algo,
        rules: Rules {
            rel_tol: f.diff.rel_tol.clone(),
            same_schedule: f.diff.same_schedule,
        },
        record: f.diff,
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
    if rules.same_schedule {
        s.push_str(" --same-schedule");
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
