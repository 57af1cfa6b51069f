//! `diff` of a Python callable against the oracle, and the pieces a property-based test needs.
//!
//! The same loop as `resched diff` (`resched_cli::diff::run`), with a Python callable in place of
//! the other program: case `i` of seed `s` is drawn by the command's own generator
//! ([`resched_cli::diff::scope::Scope::draw`]), resched's answer comes from the oracle's certify
//! path, the callable's answer is read by the command's reader
//! ([`resched_cli::diff::answer::from_stdout`]) and judged by its judge
//! ([`resched_cli::diff::compare::judge`]: the checker first, then the makespan, then the
//! decisions), and the first mismatch is shrunk by its shrinker
//! ([`resched_cli::diff::shrink::shrink`]) to a local minimum. So a Python campaign and a command
//! line campaign of the same seed and scope draw the same cases.
//!
//! The callable is the Python layer's wrapper (`resched/_diff.py`): it gets the case as JSON
//! text and returns `(True, answer as JSON text)`, or `(False, the exception's text)` when the
//! user's function raised an `Exception` (a `crash` mismatch). Anything else it raises
//! (`KeyboardInterrupt`, `SystemExit`) ends the run and reaches the caller unchanged.
use crate::errors::{py_err, InputError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use resched::model::arbitrary::Case;
use resched::oracle;
use resched::schedulers::Priority;
use resched::{Error, Time};
use resched_cli::diff::answer;
use resched_cli::diff::compare::{self, Rules, Verdict};
use resched_cli::diff::external::{Failure, Reply};
use resched_cli::diff::run::Algo;
use resched_cli::diff::scope::{self, Scope};
use resched_cli::diff::shrink;
use std::cell::RefCell;

/// The scope of the drawn cases, from the Python keywords (the command's option syntax).
fn scope_of(procs: &str, jobs: &str, times: &str, failures: u32, kind: &str) -> PyResult<Scope> {
    let s = Scope {
        procs: scope::parse_range("procs", procs, 1, scope::MAX_PROCS).map_err(py_err)?,
        jobs: scope::parse_range("jobs", jobs, 1, scope::MAX_JOBS).map_err(py_err)?,
        times: scope::parse_times(times).map_err(py_err)?,
        failures,
        kind: scope::parse_kind(kind).map_err(py_err)?,
    };
    s.validate().map_err(py_err)?;
    Ok(s)
}

/// The algorithm as the diff loop names it (its priority is always explicit there).
fn algo_of(name: &str, priority: Option<&str>, seed: u64, eps: Option<&str>) -> PyResult<Algo> {
    let priority = priority
        .map(str::parse::<Priority>)
        .transpose()
        .map_err(py_err)?
        // default: LPT is the documented default priority, as in certify
        .unwrap_or(Priority::Lpt);
    let eps = exact("eps", eps)?;
    Algo::new(name, priority, seed, eps.as_ref()).map_err(py_err)
}

/// An optional exact number given as text (`"1/100"`).
fn exact(name: &str, text: Option<&str>) -> PyResult<Option<Time>> {
    text.map(|t| {
        t.parse::<Time>()
            .map_err(|e| py_err(Error::param(name, format!("`{t}`: {e}"))))
    })
    .transpose()
}

fn rules_of(rel_tol: Option<&str>, same_schedule: bool) -> PyResult<Rules> {
    let rel_tol = exact("rel_tol", rel_tol)?;
    if rel_tol.as_ref().is_some_and(|t| t.is_negative()) {
        return Err(InputError::new_err("option `rel_tol`: must be ≥ 0"));
    }
    // The command's other rules keep their defaults; only these two are Python keywords.
    #[allow(clippy::field_reassign_with_default)]
    {
        let mut rules = Rules::default();
        rules.rel_tol = rel_tol;
        rules.same_schedule = same_schedule;
        Ok(rules)
    }
}

/// Case `case` of seed `seed` in the scope: `(instance JSON, scenario JSON)`.
#[pyfunction]
#[pyo3(signature = (seed, case, procs, jobs, times, failures, kind))]
pub fn draw_case(
    seed: u64,
    case: u64,
    procs: &str,
    jobs: &str,
    times: &str,
    failures: u32,
    kind: &str,
) -> PyResult<(String, String)> {
    let c = scope_of(procs, jobs, times, failures, kind)?
        .draw(seed, case)
        .map_err(py_err)?;
    Ok((c.instance.to_json(), c.scenario.to_json()))
}

/// The judge of `resched diff` on one answer: `(verdict, kind, detail)` with verdict `agree`,
/// `note` (same makespan, other decisions) or `mismatch`.
#[pyfunction]
#[pyo3(signature = (instance, scenario, answer, algo, priority=None, seed=0, eps=None, rel_tol=None, same_schedule=false))]
#[allow(clippy::too_many_arguments)] // the Python signature: the case, the answer, the algorithm's, the rules
pub fn judge(
    py: Python<'_>,
    instance: &Bound<'_, PyAny>,
    scenario: Option<&Bound<'_, PyAny>>,
    answer: (bool, String),
    algo: &str,
    priority: Option<&str>,
    seed: u64,
    eps: Option<&str>,
    rel_tol: Option<&str>,
    same_schedule: bool,
) -> PyResult<(String, Option<String>, Option<String>)> {
    let (inst, sc) = crate::inputs(instance, scenario)?;
    let algo = algo_of(algo, priority, seed, eps)?;
    let rules = rules_of(rel_tol, same_schedule)?;
    let case = Case {
        instance: inst,
        scenario: sc,
    };
    let ours = py
        .detach(|| oracle::certify(&algo.spec, &case.instance, &case.scenario))
        .map_err(py_err)?;
    let verdict = compare::judge(
        &ours,
        &reply(answer),
        &case.instance,
        &case.scenario,
        &rules,
    );
    Ok(match verdict {
        Verdict::Agree => ("agree".into(), None, None),
        // Ties are judged only when asked for (the command's `--ties`), never here.
        Verdict::Note(d) | Verdict::Tie(d) => ("note".into(), None, Some(d)),
        Verdict::Mismatch(m) => (
            "mismatch".into(),
            Some(m.kind.name().into()),
            Some(m.detail),
        ),
    })
}

/// The wrapper's `(ok, text)` as the judge reads a program's reply.
fn reply((ok, text): (bool, String)) -> Reply {
    let answer = if ok {
        answer::from_stdout(&text).map_err(|why| Failure::Garbage {
            why,
            output: answer::quote(&text),
        })
    } else {
        Err(Failure::Crash(text))
    };
    Reply {
        answer,
        stderr: String::new(),
    }
}

/// One trial: resched's certified run and the callable's answer, judged.
struct Trial {
    verdict: Verdict,
}

/// The run's state: the callable and the first Python error it raised, kept while the shrinker
/// (which speaks resched errors) unwinds.
struct Runner<'a, 'py> {
    call: &'a Bound<'py, PyAny>,
    algo: &'a Algo,
    rules: &'a Rules,
    raised: RefCell<Option<PyErr>>,
}

impl Runner<'_, '_> {
    fn trial(&self, case: &Case) -> resched::Result<Trial> {
        let ours = oracle::certify(&self.algo.spec, &case.instance, &case.scenario)?;
        let got = self
            .call
            .call1((case.instance.to_json(), case.scenario.to_json()))
            .and_then(|r| r.extract::<(bool, String)>());
        let answer = match got {
            Ok(a) => a,
            Err(e) => {
                *self.raised.borrow_mut() = Some(e);
                return Err(Error::Limit("the Python callable raised".into()));
            }
        };
        let verdict = compare::judge(
            &ours,
            &reply(answer),
            &case.instance,
            &case.scenario,
            self.rules,
        );
        Ok(Trial { verdict })
    }

    /// A resched error, or the Python exception that caused it.
    fn fail(&self, e: Error) -> PyErr {
        match self.raised.borrow_mut().take() {
            Some(raised) => raised,
            None => py_err(e),
        }
    }
}

/// Draws cases `0..cases` of `seed`, runs resched and `call` on each, and shrinks the first
/// mismatch. Returns a dict: `cases`, `agree`, `notes`, `first_notes`, and `mismatch` (None, or
/// `case`, `kind`, `detail`, `original` and `shrunk` as (instance JSON, scenario JSON),
/// `shrunk_kind`, `shrunk_detail`, `shrink_steps`, `exhausted`).
#[pyfunction]
#[pyo3(signature = (call, algo, priority, algo_seed, eps, seed, cases, procs, jobs, times, failures, kind, rel_tol, same_schedule, shrink_budget))]
#[allow(clippy::too_many_arguments)] // the Python signature: the callable, algorithm, scope, rules
pub fn diff<'py>(
    py: Python<'py>,
    call: &Bound<'py, PyAny>,
    algo: &str,
    priority: Option<&str>,
    algo_seed: u64,
    eps: Option<&str>,
    seed: u64,
    cases: u64,
    procs: &str,
    jobs: &str,
    times: &str,
    failures: u32,
    kind: &str,
    rel_tol: Option<&str>,
    same_schedule: bool,
    shrink_budget: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let scope = scope_of(procs, jobs, times, failures, kind)?;
    let algo = algo_of(algo, priority, algo_seed, eps)?;
    if algo.family == oracle::Family::Rigid && !scope.is_rigid() {
        return Err(py_err(Error::param(
            "algo",
            format!(
                "`{}` schedules rigid jobs only, but `kind` draws moldable jobs",
                algo.name
            ),
        )));
    }
    let rules = rules_of(rel_tol, same_schedule)?;
    let runner = Runner {
        call,
        algo: &algo,
        rules: &rules,
        raised: RefCell::new(None),
    };
    let out = PyDict::new(py);
    let (mut agree, mut notes, mut first_notes) = (0u64, 0u64, Vec::new());
    for i in 0..cases {
        let case = scope.draw(seed, i).map_err(py_err)?;
        let t = runner.trial(&case).map_err(|e| runner.fail(e))?;
        match &t.verdict {
            Verdict::Agree => agree += 1,
            Verdict::Note(d) | Verdict::Tie(d) => {
                notes += 1;
                if first_notes.len() < 3 {
                    first_notes.push(format!("case {i}: {d}"));
                }
            }
            Verdict::Mismatch(m) => {
                out.set_item("cases", i + 1)?;
                out.set_item("agree", agree)?;
                out.set_item("notes", notes)?;
                out.set_item("first_notes", first_notes)?;
                let found = PyDict::new(py);
                found.set_item("case", i)?;
                found.set_item("kind", m.kind.name())?;
                found.set_item("detail", &m.detail)?;
                found.set_item("original", pair(&case))?;
                let kind = m.kind;
                // A timeout cannot happen here (the callable runs in this process); every
                // other kind is shrunk to a case showing the same bug.
                let shrunk = shrink::shrink(case, t, shrink_budget, |c| {
                    // A candidate resched cannot run (a stated limit) is simply no reproduction.
                    if oracle::certify(&algo.spec, &c.instance, &c.scenario).is_err() {
                        return Ok(None);
                    }
                    let t = runner.trial(c)?;
                    let same = matches!(&t.verdict, Verdict::Mismatch(m) if m.kind.same_bug(kind));
                    Ok(same.then_some(t))
                })
                .map_err(|e| runner.fail(e))?;
                found.set_item("shrunk", pair(&shrunk.case))?;
                if let Verdict::Mismatch(m) = &shrunk.trial.verdict {
                    found.set_item("shrunk_kind", m.kind.name())?;
                    found.set_item("shrunk_detail", &m.detail)?;
                }
                found.set_item("shrink_steps", shrunk.steps)?;
                found.set_item("exhausted", shrunk.exhausted)?;
                out.set_item("mismatch", found)?;
                return Ok(out);
            }
        }
    }
    out.set_item("cases", cases)?;
    out.set_item("agree", agree)?;
    out.set_item("notes", notes)?;
    out.set_item("first_notes", first_notes)?;
    out.set_item("mismatch", py.None())?;
    Ok(out)
}

/// A case as the JSON texts of its instance and scenario.
fn pair(c: &Case) -> (String, String) {
    (c.instance.to_json(), c.scenario.to_json())
}
