//! The exception hierarchy of the Python package, and how a [`resched::Error`] becomes one.
//!
//! Every exception carries resched's own message (which names the input and the field, e.g.
//! `instance: field `jobs[0].procs`: …`), so a Python user reads what a CLI user reads:
//!
//! - `ReschedError` — the base; catch it to catch everything resched raises;
//!   - `InputError` — an instance, scenario, schedule or parameter that resched refuses
//!     (malformed JSON, a broken rule, an unknown algorithm or priority, a float where an exact
//!     number is needed);
//!   - `LimitError` — an input beyond a stated budget (the engine's attempts, the optimum's
//!     instance size);
//!   - `InternalError` — the engine and the checker disagree, a scheduler broke the engine's
//!     rules, or a solver failed: a bug in resched, never a result.
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::PyErr;
use resched::Error;

create_exception!(
    _native,
    ReschedError,
    PyException,
    "Base class of every error resched raises."
);
create_exception!(
    _native,
    InputError,
    ReschedError,
    "An instance, scenario, schedule or parameter resched refuses; the message names the field."
);
create_exception!(
    _native,
    LimitError,
    ReschedError,
    "An input beyond one of resched's stated budgets (attempts, instance size)."
);
create_exception!(
    _native,
    InternalError,
    ReschedError,
    "A bug in resched (the engine and the checker disagree, a scheduler broke a rule)."
);

/// Where an input came from: JSON text the Python layer wrote from a dict, or a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// JSON written by `resched/__init__.py` from a dict: serde's line and column point into
    /// text the user never saw, so they are dropped (the field path stays).
    Generated,
    /// A file the user named: its line and column are kept.
    File,
}

/// The Python exception of a resched error.
pub fn to_py(e: Error, origin: Origin) -> PyErr {
    match e {
        Error::Json { file, msg, .. } if origin == Origin::Generated => {
            InputError::new_err(format!("{file}: {msg}"))
        }
        // A keyword argument is an "option" in the Python layer's words (resched/__init__.py).
        Error::Param { name, msg } => InputError::new_err(format!("option `{name}`: {msg}")),
        Error::Io { .. }
        | Error::Stdout(_)
        | Error::Json { .. }
        | Error::Invalid { .. }
        | Error::Line { .. }
        | Error::Option { .. }
        | Error::Check(_) => InputError::new_err(e.to_string()),
        Error::Limit(_) => LimitError::new_err(e.to_string()),
        Error::Scheduler { .. } | Error::Disagree { .. } | Error::Solver(_) => {
            InternalError::new_err(e.to_string())
        }
    }
}

/// [`to_py`] for errors that are not about a parsed input (runs, parameters).
pub fn py_err(e: Error) -> PyErr {
    to_py(e, Origin::Generated)
}
