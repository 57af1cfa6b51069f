//! Values across the boundary: inputs in, exact Python values out.
//!
//! **In.** An instance, a scenario or a schedule arrives as JSON text (the Python layer wrote it
//! from a dict, every exact number as an int or an `"a/b"` string) or as a path (`os.PathLike`),
//! and is read by the crate's own readers — `Instance::from_json_str`, `Scenario::from_json_str`,
//! `Schedule::from_json_report` and their `load` twins — so a dict is validated exactly as a
//! file given to the CLI is, with the same messages naming the field.
//!
//! **Out.** Every [`Time`] becomes a `fractions.Fraction` built from its numerator and
//! denominator as Python ints of any size (no float, no decimal string, no digit limit);
//! schedules become dicts in the JSON schedule format (`src/model/schedule.rs`).
use crate::errors::{to_py, Origin};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use resched::model::{Attempt, Instance, Scenario, Schedule};
use resched::Time;
use std::path::PathBuf;

/// An input as the Python layer passes it.
pub enum Source {
    /// JSON text written from a dict; `label` names it in errors (`instance`, `scenario`, …).
    Text { text: String, label: &'static str },
    /// A file.
    Path(PathBuf),
}

impl Source {
    /// A `str` is JSON text, anything else must be a path (`os.PathLike`).
    pub fn from_py(ob: &Bound<'_, PyAny>, label: &'static str) -> PyResult<Source> {
        if let Ok(s) = ob.cast::<PyString>() {
            return Ok(Source::Text {
                text: s.to_cow()?.into_owned(),
                label,
            });
        }
        let path: PathBuf = ob.extract().map_err(|_| {
            crate::errors::InputError::new_err(format!(
                "{label}: expected JSON text or a path, got a {}",
                ob.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        Ok(Source::Path(path))
    }

    fn origin(&self) -> Origin {
        match self {
            Source::Text { .. } => Origin::Generated,
            Source::Path(_) => Origin::File,
        }
    }

    /// Reads and validates an instance.
    pub fn instance(&self) -> PyResult<Instance> {
        match self {
            Source::Text { text, label } => Instance::from_json_str(text, label),
            Source::Path(p) => Instance::load(p),
        }
        .map_err(|e| to_py(e, self.origin()))
    }

    /// Reads a scenario and validates it against `inst`.
    pub fn scenario(&self, inst: &Instance) -> PyResult<Scenario> {
        match self {
            Source::Text { text, label } => Scenario::from_json_str(text, label, inst),
            Source::Path(p) => Scenario::load(p, inst),
        }
        .map_err(|e| to_py(e, self.origin()))
    }

    /// Reads a schedule, bare (`{"attempts": […]}`) or inside a report's `schedule` field.
    pub fn schedule(&self) -> PyResult<Schedule> {
        match self {
            Source::Text { text, label } => Schedule::from_json_report(text, label),
            Source::Path(p) => Schedule::load_report(p),
        }
        .map_err(|e| to_py(e, self.origin()))
    }
}

/// Builds Python values; holds `fractions.Fraction` once per call.
pub struct Out<'py> {
    py: Python<'py>,
    fraction: Bound<'py, PyAny>,
}

impl<'py> Out<'py> {
    pub fn new(py: Python<'py>) -> PyResult<Out<'py>> {
        let fraction = py.import("fractions")?.getattr("Fraction")?;
        Ok(Out { py, fraction })
    }

    /// A new empty dict.
    pub fn dict(&self) -> Bound<'py, PyDict> {
        PyDict::new(self.py)
    }

    /// `Fraction(numerator, denominator)`, exactly.
    pub fn time(&self, t: &Time) -> PyResult<Bound<'py, PyAny>> {
        self.fraction.call1((t.numer(), t.denom()))
    }

    /// A list of times.
    pub fn times(&self, ts: &[Time]) -> PyResult<Bound<'py, PyList>> {
        let items = ts
            .iter()
            .map(|t| self.time(t))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(self.py, items)
    }

    /// One attempt as a dict of the schedule format.
    fn attempt(&self, a: &Attempt) -> PyResult<Bound<'py, PyDict>> {
        let d = self.dict();
        d.set_item("job", a.job)?;
        d.set_item("attempt", a.attempt)?;
        d.set_item("start", self.time(&a.start)?)?;
        d.set_item("procs", a.procs)?;
        d.set_item("duration", self.time(&a.duration)?)?;
        if let Some(nodes) = &a.nodes {
            d.set_item("nodes", nodes.clone())?;
        }
        Ok(d)
    }

    /// A schedule as a dict of the schedule format (`attempts`, `makespan`, `algorithm`).
    pub fn schedule(&self, s: &Schedule) -> PyResult<Bound<'py, PyDict>> {
        let attempts = s
            .attempts
            .iter()
            .map(|a| self.attempt(a))
            .collect::<PyResult<Vec<_>>>()?;
        let d = self.dict();
        d.set_item("attempts", PyList::new(self.py, attempts)?)?;
        d.set_item("makespan", self.time(&s.makespan())?)?;
        if let Some(name) = &s.algorithm {
            d.set_item("algorithm", name)?;
        }
        Ok(d)
    }
}
