//! Speedup models of moldable jobs: how the execution time t_j(p) of a job depends on the number
//! of processors p (moldable paper, Section 3.1).
//!
//! A model is turned into an exact table t(1..=P) once, when an instance is validated.
use crate::error::FieldError;
use crate::time::Time;
use serde::{Deserialize, Serialize};

/// A speedup model with its parameters, as written in an instance file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "lowercase", deny_unknown_fields)]
pub enum SpeedupModel {
    /// An explicit table `times[p-1] = t(p)` for p = 1..=P. With `monotonic` set, t must be
    /// non-increasing and the area p·t(p) non-decreasing.
    Table {
        times: Vec<Time>,
        #[serde(default)]
        monotonic: bool,
    },
}

impl SpeedupModel {
    /// The exact table t(1..=P). `field` is the path of the model in the input, for errors.
    pub fn table(&self, procs: u32, field: &str) -> Result<Vec<Time>, FieldError> {
        match self {
            SpeedupModel::Table { times, monotonic } => {
                if times.len() != procs as usize {
                    return Err(FieldError::new(
                        format!("{field}.times"),
                        format!(
                            "has {} entries, expected one per processor count 1..={procs}",
                            times.len()
                        ),
                    ));
                }
                for (i, t) in times.iter().enumerate() {
                    if !t.is_positive() {
                        return Err(FieldError::new(
                            format!("{field}.times[{i}]"),
                            format!("t({}) = {t} must be > 0", i + 1),
                        ));
                    }
                }
                if *monotonic {
                    check_monotonic(times, field)?;
                }
                Ok(times.clone())
            }
        }
    }
}

/// Checks that t is non-increasing and p·t(p) non-decreasing; names the first p that breaks it.
pub fn check_monotonic(times: &[Time], field: &str) -> Result<(), FieldError> {
    for p in 2..=times.len() {
        let (prev, cur) = (&times[p - 2], &times[p - 1]);
        if cur > prev {
            return Err(FieldError::new(
                format!("{field}.times[{}]", p - 1),
                format!("not monotonic: t({p}) = {cur} > t({}) = {prev}", p - 1),
            ));
        }
        if cur.mul_int(p as u64) < prev.mul_int(p as u64 - 1) {
            return Err(FieldError::new(
                format!("{field}.times[{}]", p - 1),
                format!("not monotonic: area {p}·t({p}) < {}·t({})", p - 1, p - 1),
            ));
        }
    }
    Ok(())
}
