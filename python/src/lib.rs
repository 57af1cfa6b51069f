//! `resched._native`: the PyO3 extension module under the `resched` Python package.
//!
//! A thin layer over the crate's public API: every run goes through the oracle's certify path
//! ([`mod@resched::oracle::certify`]: catalogue → engine → checker → bound → exact ratio), the
//! optimum through [`resched::opt::solve`], feasibility through the independent checker
//! ([`resched::check::check`]); nothing here builds a scheduler or compares a makespan on its
//! own. Inputs are read by the crate's readers (`convert::Source`); times come back as
//! `fractions.Fraction` (`convert::Out`); errors as the exceptions of `errors`.
//!
//! The Python layer (`python/resched/__init__.py`) turns dicts into JSON text, refuses floats,
//! and documents the functions; call it, not this module.
// As in the crate: nothing a Python user passes may panic (a panic would surface as a
// `pyo3_runtime.PanicException`, not as a `resched.ReschedError`).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use resched::model::{Instance, Scenario};
use resched::oracle::catalogue::{self, Param};
use resched::oracle::{self, AlgoSpec, Certified, Family, Paper};
use resched::schedulers::Priority;
use resched::{Error, Time};
use std::time::Duration;

mod batch;
mod convert;
mod diff;
mod errors;

use convert::{Out, Source};
use errors::{py_err, InputError};

/// The longest `time_limit` `opt` accepts, in seconds (a day): beyond it a typo, not a plan.
const MAX_TIME_LIMIT_S: f64 = 86_400.0;

/// Reads the instance and the scenario of a call; a scenario of `None` is "no job fails"
/// (one zero per job of the instance).
pub(crate) fn inputs(
    instance: &Bound<'_, PyAny>,
    scenario: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Instance, Scenario)> {
    let inst = Source::from_py(instance, "instance")?.instance()?;
    let sc = match scenario {
        Some(s) => Source::from_py(s, "scenario")?.scenario(&inst)?,
        None => Scenario::none(inst.len()),
    };
    Ok((inst, sc))
}

/// An [`AlgoSpec`] from the Python parameters (`eps` as exact text, e.g. `"1/100"`).
fn spec(
    algo: &str,
    priority: Option<&str>,
    seed: Option<u64>,
    eps: Option<&str>,
) -> PyResult<AlgoSpec> {
    let priority = priority
        .map(str::parse::<Priority>)
        .transpose()
        .map_err(py_err)?;
    // Only the RANDOM priority reads a seed: with another rule it is refused, as the command
    // line and batch refuse it, rather than silently ignored.
    // default: LPT is the documented default priority
    let rule = priority.unwrap_or(Priority::Lpt);
    if seed.is_some() && rule != Priority::Random {
        return Err(py_err(Error::param(
            "seed",
            format!("only the RANDOM priority reads a seed, and the rule here is {rule}"),
        )));
    }
    // default: seed 0 of the RANDOM priority (documented)
    let seed = seed.unwrap_or(0);
    let eps = eps
        .map(|e| {
            e.parse::<Time>()
                .map_err(|err| py_err(Error::param("eps", format!("`{e}`: {err}"))))
        })
        .transpose()?;
    let spec = AlgoSpec {
        name: algo.to_string(),
        priority,
        seed,
        eps,
    };
    // Name and parameters are checked before any run, so a typo is an InputError at once.
    spec.resolve().map_err(py_err)?;
    Ok(spec)
}

/// The catalogue: one dict per algorithm.
#[pyfunction]
fn algorithms(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let entries = catalogue::CATALOGUE
        .iter()
        .map(|e| {
            let d = PyDict::new(py);
            d.set_item("name", e.name)?;
            d.set_item("aliases", e.aliases.to_vec())?;
            d.set_item(
                "paper",
                match e.paper {
                    Paper::Rigid => "rigid",
                    Paper::Moldable => "moldable",
                },
            )?;
            d.set_item("citation", e.paper.cite())?;
            d.set_item("section", e.section)?;
            d.set_item("label", e.label)?;
            d.set_item(
                "family",
                match e.family {
                    Family::Rigid => "rigid",
                    Family::Either => "moldable",
                },
            )?;
            let params: Vec<&str> = e
                .params
                .iter()
                .map(|p| match p {
                    Param::Priority => "priority",
                    Param::Reservations => "m",
                    Param::Eps => "eps",
                })
                .collect();
            d.set_item("params", params)?;
            d.set_item("summary", e.summary)?;
            d.set_item("parametric", e.parametric)?;
            d.set_item("evaluated", e.evaluated)?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, entries)
}

/// The priority rules' names.
#[pyfunction]
fn priorities() -> Vec<&'static str> {
    Priority::ALL
        .iter()
        .chain([Priority::Index].iter())
        .map(|p| p.name())
        .collect()
}

/// A certified run as a dict.
fn certified<'py>(out: &Out<'py>, c: &Certified) -> PyResult<Bound<'py, PyDict>> {
    let d = out.dict();
    d.set_item("algorithm", &c.algorithm)?;
    d.set_item("canonical", c.canonical)?;
    d.set_item("makespan", out.time(&c.makespan)?)?;
    d.set_item("schedule", out.schedule(&c.schedule)?)?;
    d.set_item("completions", out.times(&c.completions)?)?;
    let b = out.dict();
    b.set_item("symbol", c.bound.symbol())?;
    b.set_item("tmax", out.time(&c.bound.tmax)?)?;
    b.set_item("area", out.time(&c.bound.area)?)?;
    b.set_item("lower", out.time(&c.bound.lower)?)?;
    d.set_item("bound", b)?;
    d.set_item("ratio", out.time(&c.ratio)?)?;
    d.set_item("events", c.events)?;
    Ok(d)
}

/// Runs `algo` on (instance, scenario) through the oracle's certify path.
#[pyfunction]
#[pyo3(signature = (instance, scenario, algo, priority=None, seed=None, eps=None))]
fn certify<'py>(
    py: Python<'py>,
    instance: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    algo: &str,
    priority: Option<&str>,
    seed: Option<u64>,
    eps: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let (inst, sc) = inputs(instance, scenario)?;
    let spec = spec(algo, priority, seed, eps)?;
    let c = py
        .detach(|| oracle::certify(&spec, &inst, &sc))
        .map_err(py_err)?;
    certified(&Out::new(py)?, &c)
}

/// The exact optimum T_OPT(f).
#[pyfunction]
#[pyo3(signature = (instance, scenario, method="search", time_limit=10.0, node_limit=None))]
fn opt<'py>(
    py: Python<'py>,
    instance: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    method: &str,
    time_limit: f64,
    node_limit: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let (inst, sc) = inputs(instance, scenario)?;
    let method = method.parse().map_err(py_err)?;
    // Duration::from_secs_f64 panics on a negative, NaN or huge value: check first.
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit <= MAX_TIME_LIMIT_S) {
        return Err(InputError::new_err(format!(
            "option `time_limit`: {time_limit} is not a number of seconds in (0, {MAX_TIME_LIMIT_S}]"
        )));
    }
    let cfg = resched::opt::OptConfig {
        method,
        time_limit: Duration::from_secs_f64(time_limit),
        node_limit,
        ..resched::opt::OptConfig::default()
    };
    let r = py
        .detach(|| resched::opt::solve(&inst, &sc, &cfg))
        .map_err(py_err)?;
    let out = Out::new(py)?;
    let d = out.dict();
    d.set_item("makespan", out.time(&r.makespan)?)?;
    d.set_item("optimal", r.is_optimal())?;
    d.set_item("lower_bound", out.time(r.lower_bound())?)?;
    d.set_item("schedule", out.schedule(&r.schedule)?)?;
    d.set_item("search_nodes", r.stats.search_nodes)?;
    Ok(d)
}

/// Checks a schedule: feasibility by the checker; with `algo`, whether it is that algorithm's.
#[pyfunction]
#[pyo3(signature = (instance, scenario, schedule, algo=None, priority=None, seed=None, eps=None))]
#[allow(clippy::too_many_arguments)] // the Python signature: three inputs and the algorithm's
fn verify<'py>(
    py: Python<'py>,
    instance: &Bound<'py, PyAny>,
    scenario: Option<&Bound<'py, PyAny>>,
    schedule: &Bound<'py, PyAny>,
    algo: Option<&str>,
    priority: Option<&str>,
    seed: Option<u64>,
    eps: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let (inst, sc) = inputs(instance, scenario)?;
    let sch = Source::from_py(schedule, "schedule")?.schedule()?;
    let spec = algo.map(|a| spec(a, priority, seed, eps)).transpose()?;
    let out = Out::new(py)?;
    let d = out.dict();
    match resched::check::check(&inst, &sc, &sch) {
        Ok(m) => {
            d.set_item("feasible", true)?;
            d.set_item("makespan", out.time(&m)?)?;
            d.set_item("violation", py.None())?;
        }
        Err(v) => {
            d.set_item("feasible", false)?;
            d.set_item("makespan", py.None())?;
            d.set_item("violation", v.to_string())?;
        }
    }
    if let Some(spec) = spec {
        let c = py
            .detach(|| oracle::certify(&spec, &inst, &sc))
            .map_err(py_err)?;
        let diff = resched::model::first_difference(&sch.attempts, &c.schedule.attempts);
        d.set_item("algorithm", &c.algorithm)?;
        d.set_item("algorithm_makespan", out.time(&c.makespan)?)?;
        d.set_item("same_as_algorithm", diff.is_none())?;
        d.set_item("difference", diff.map(|x| x.describe(&inst, &c.algorithm)))?;
    }
    Ok(d)
}

/// The platform and the job names of an instance: `(processors, names)`, for tables and charts.
#[pyfunction]
fn describe(instance: &Bound<'_, PyAny>) -> PyResult<(u32, Vec<String>)> {
    let inst = Source::from_py(instance, "instance")?.instance()?;
    Ok((
        inst.procs,
        inst.jobs.iter().map(|j| j.name.clone()).collect(),
    ))
}

/// The processor ids of every attempt of a schedule on `processors` processors, in attempt
/// order: the deterministic placement of [`resched::model::placement::place`] (the one the
/// Batsim export writes), or the schedule's own ids when every attempt has them.
#[pyfunction]
fn place(processors: u32, schedule: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<u32>>> {
    let sch = Source::from_py(schedule, "schedule")?.schedule()?;
    let placed = resched::model::placement::place(processors, &sch).map_err(py_err)?;
    Ok(placed
        .attempts
        .into_iter()
        // default: place gives every attempt its ids (an attempt without is never returned)
        .map(|a| a.nodes.unwrap_or_default())
        .collect())
}

/// The module: the functions and the exception hierarchy.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(priorities, m)?)?;
    m.add_function(wrap_pyfunction!(certify, m)?)?;
    m.add_function(wrap_pyfunction!(opt, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(place, m)?)?;
    m.add_function(wrap_pyfunction!(batch::batch, m)?)?;
    m.add_function(wrap_pyfunction!(diff::diff, m)?)?;
    m.add_function(wrap_pyfunction!(diff::judge, m)?)?;
    m.add_function(wrap_pyfunction!(diff::draw_case, m)?)?;
    m.add("ReschedError", py.get_type::<errors::ReschedError>())?;
    m.add("InputError", py.get_type::<errors::InputError>())?;
    m.add("LimitError", py.get_type::<errors::LimitError>())?;
    m.add("InternalError", py.get_type::<errors::InternalError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
