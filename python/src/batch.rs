//! `batch` from Python: many certify requests in one call, answered by the code of
//! `resched batch` ([`resched_cli::batch::run`]) — the same request reader, the same budgets,
//! one response per request in request order, a bad request an error line that never stops the
//! others — on a pool of worker threads, without the interpreter's lock.
use crate::errors::{py_err, InputError};
use pyo3::prelude::*;
use resched::Error;
use resched_cli::batch::{run, Options};

/// The most worker threads a call may ask for (beyond it a typo, not a plan).
const MAX_THREADS: usize = 1024;

/// Answers the request lines (JSON texts, one request each, none blank) on `threads` workers
/// (None: one per core); returns one response line per request, in order.
#[pyfunction]
#[pyo3(signature = (lines, schedules=false, threads=None))]
pub fn batch(
    py: Python<'_>,
    lines: Vec<String>,
    schedules: bool,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    if let Some(i) = lines
        .iter()
        .position(|l| l.trim().is_empty() || l.contains('\n'))
    {
        return Err(InputError::new_err(format!(
            "requests[{i}]: a request is one line of JSON text, not blank"
        )));
    }
    if threads.is_some_and(|t| t == 0 || t > MAX_THREADS) {
        return Err(InputError::new_err(format!(
            "option `threads`: expected 1..={MAX_THREADS}"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        // default: 0 is rayon's "one thread per core"
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| py_err(Error::Limit(format!("batch: no worker threads: {e}"))))?;
    let input = lines.join("\n");
    let opts = Options { schedules };
    let out = py.detach(|| {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out, &opts, &pool).map(|_| out)
    });
    let text = String::from_utf8(out.map_err(py_err)?)
        .map_err(|e| py_err(Error::Limit(format!("batch: output not UTF-8: {e}"))))?;
    Ok(text.lines().map(str::to_string).collect())
}
