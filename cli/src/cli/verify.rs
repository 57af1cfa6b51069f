//! `resched verify`: checks a schedule made by another program (DESIGN: "an oracle for faster
//! implementations": given someone else's schedule, it says whether it is feasible and whether it
//! is what that algorithm would have done).
//!
//! Feasibility is the independent checker's ([`resched::check`]); "what that algorithm would have
//! done" is the schedule of the oracle's certify path ([`mod@resched::oracle::certify`]), compared
//! attempt by attempt. A schedule's stated `makespan` must be where its attempts end;
//! `--rel-tol` judges a schedule computed in floating point ([`resched::check::tolerant`]).
use super::args::{parse_eps, parse_priority};
use super::Exit;
use resched::check::{self, tolerant};
use resched::model::first_difference;
use resched::model::{Instance, Scenario, Schedule};
use resched::oracle::{self, AlgoSpec};
use resched::time::Time;
use resched::{Error, Result};
use std::path::PathBuf;

/// Arguments of `resched verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Instance file (JSON).
    #[arg(long)]
    pub instance: PathBuf,
    /// Failure scenario file (JSON: {"failures": [f_1, ...]}).
    #[arg(long)]
    pub scenario: PathBuf,
    /// Schedule to check: a bare schedule {"attempts": [...]}, or a report with a `schedule`
    /// field (the output of `simulate --json`). A stated `makespan` must be the attempts' end.
    #[arg(long)]
    pub schedule: PathBuf,
    /// Also say whether the schedule is the one this algorithm (a catalogue name) makes.
    #[arg(long)]
    pub algo: Option<String>,
    /// With --algo: its priority rule (default lpt).
    #[arg(long, requires = "algo")]
    pub priority: Option<String>,
    /// With --algo: the seed of the RANDOM priority.
    #[arg(long, requires = "algo")]
    pub seed: Option<u64>,
    /// With --algo: BATCH-LIST's ε (default 3/10).
    #[arg(long, requires = "algo")]
    pub eps: Option<String>,
    /// A schedule computed in floating point: snap each duration within REL·t_j(p) of t_j(p),
    /// and each start within REL·makespan of 0 or of an attempt's end, to that exact value,
    /// then judge exactly (0 ≤ REL < 1, e.g. 1e-9).
    #[arg(long, value_name = "REL")]
    pub rel_tol: Option<String>,
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The newest version of `verify --json`'s output.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// Prints `feasible, makespan M` or the first broken invariant; with `--algo`, whether the
/// schedule is that algorithm's. Exit 1 when either does not hold.
pub fn run(a: Args) -> Result<Exit> {
    let inst = Instance::load(&a.instance)?;
    let sc = Scenario::load(&a.scenario, &inst)?;
    let given = Schedule::load_report(&a.schedule)?;
    let rel_tol = parse_rel_tol(a.rel_tol.as_deref())?;
    let spec = match &a.algo {
        Some(name) => {
            let priority = parse_priority(a.priority.as_deref())?;
            Some(AlgoSpec {
                name: name.clone(),
                priority,
                seed: super::args::seed_for(a.seed, priority)?,
                eps: parse_eps(a.eps.as_deref())?,
            })
        }
        None => None,
    };
    if spec.is_some() {
        // Before anything is printed: the algorithm's run must fit the engine's budget.
        super::simulate::check_recorded_budget(&a.scenario, &sc)?;
    }
    let snapped = rel_tol
        .as_ref()
        .map(|r| tolerant::snap(&inst, &given, r))
        .transpose()?;
    let sch = snapped.as_ref().map_or(&given, |s| &s.schedule);
    let mut v = Verdict {
        holds: true,
        lines: Vec::new(),
        json: serde_json::json!({ "format_version": JSON_FORMAT_VERSION }),
    };
    if let (Some(r), Some(s)) = (&rel_tol, &snapped) {
        v.say(format!(
            "tolerance: {} times snapped to exact values within relative {r} (≈{:.1e}); largest \
             change {} (≈{:.1e})",
            s.changed,
            r.to_f64(),
            s.largest_shift,
            s.largest_shift.to_f64()
        ));
        v.json["rel_tol"] = serde_json::json!(r);
        v.json["snapped"] = serde_json::json!(s.changed);
        v.json["largest_shift"] = serde_json::json!(s.largest_shift);
    }
    feasibility(
        &mut v,
        &inst,
        &sc,
        sch,
        &given,
        rel_tol.as_ref(),
        &a.schedule,
    );
    if let Some(spec) = spec {
        algorithm(&mut v, &spec, &inst, &sc, sch)?;
    }
    v.json["holds"] = serde_json::json!(v.holds);
    let text = if a.json {
        crate::provenance::stamp_value(&mut v.json);
        serde_json::to_string_pretty(&v.json).map_err(|e| Error::json("output", &e))?
    } else {
        v.lines.join("\n")
    };
    crate::outln!("{text}")?;
    Ok(if v.holds { Exit::Ok } else { Exit::CheckFailed })
}

/// What is said, as text lines and as a JSON document.
struct Verdict {
    holds: bool,
    lines: Vec<String>,
    json: serde_json::Value,
}

impl Verdict {
    fn say(&mut self, line: String) {
        self.lines.push(line);
    }
}

/// `--rel-tol`: a number in [0, 1).
fn parse_rel_tol(s: Option<&str>) -> Result<Option<Time>> {
    let Some(s) = s else { return Ok(None) };
    let t: Time = s
        .parse()
        .map_err(|e| Error::option("rel-tol", format!("{e}")))?;
    tolerant::validate_rel_tol(&t)
        .map_err(|_| Error::option("rel-tol", format!("{s} must be ≥ 0 and < 1")))?;
    Ok(Some(t))
}

/// The checker's verdict, and the stated makespan against the attempts' end (within the
/// tolerance when one is given).
fn feasibility(
    v: &mut Verdict,
    inst: &Instance,
    sc: &Scenario,
    sch: &Schedule,
    given: &Schedule,
    rel_tol: Option<&Time>,
    path: &std::path::Path,
) {
    match check::check(inst, sc, sch) {
        Ok(m) => {
            v.say(format!(
                "feasible: makespan {m} ({})",
                m.to_decimal_string(6)
            ));
            v.json["feasible"] = serde_json::json!(true);
            v.json["makespan"] = serde_json::json!(m);
            v.json["makespan_decimal"] = serde_json::json!(m.to_decimal_string(6));
            if let Some(stated) = &given.makespan {
                let close = match rel_tol {
                    Some(r) => (stated - &m).abs() <= r * &m,
                    None => *stated == m,
                };
                v.json["stated_makespan"] = serde_json::json!(stated);
                v.json["stated_makespan_holds"] = serde_json::json!(close);
                if !close {
                    v.say(format!(
                        "wrong makespan: {} states {stated} ({}), but its last attempt ends at {m}",
                        path.display(),
                        stated.to_decimal_string(6)
                    ));
                    v.holds = false;
                }
            }
        }
        Err(e) => {
            v.say(format!("infeasible: {}: {e}", path.display()));
            v.json["feasible"] = serde_json::json!(false);
            v.json["violation"] = serde_json::json!(e.to_string());
            v.holds = false;
        }
    }
}

/// Whether `sch` is the schedule the algorithm of `spec` makes.
fn algorithm(
    v: &mut Verdict,
    spec: &AlgoSpec,
    inst: &Instance,
    sc: &Scenario,
    sch: &Schedule,
) -> Result<()> {
    let c = oracle::certify(spec, inst, sc)?;
    let diff = first_difference(&sch.attempts, &c.schedule.attempts);
    v.json["algorithm"] = serde_json::json!({
        "name": c.algorithm,
        "makespan": c.makespan,
        "attempts": c.schedule.attempts.len(),
        "same_schedule": diff.is_none(),
        "difference": diff.as_ref().map(|d| d.describe(inst, &c.algorithm)),
    });
    match diff {
        None => v.say(format!(
            "algorithm: the schedule {} makes ({} attempts, makespan {})",
            c.algorithm,
            c.schedule.attempts.len(),
            c.makespan
        )),
        Some(d) => {
            v.say(format!(
                "algorithm: not the schedule {} makes (makespan {}); {}",
                c.algorithm,
                c.makespan,
                d.describe(inst, &c.algorithm)
            ));
            v.holds = false;
        }
    }
    Ok(())
}
