//! The broken invariants the checker ([`crate::check`]) reports.
//!
//! This type lives apart from the checker so that [`crate::error`] can carry it without
//! depending on the checker (which depends on the model, which depends on the error type).
use crate::time::Time;
use std::fmt;

/// The first broken invariant found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    ScenarioLength {
        jobs: usize,
        failures: usize,
    },
    UnknownJob {
        attempt_index: usize,
        job: usize,
    },
    NegativeStart {
        /// Position of the attempt in the schedule's `attempts` list.
        index: usize,
        job: String,
        attempt: u32,
        start: Time,
    },
    ProcsNotAllowed {
        /// Position of the attempt in the schedule's `attempts` list.
        index: usize,
        job: String,
        attempt: u32,
        procs: u32,
    },
    WrongDuration {
        /// Position of the attempt in the schedule's `attempts` list.
        index: usize,
        job: String,
        attempt: u32,
        expected: Time,
        found: Time,
    },
    AttemptCount {
        job: String,
        expected: u32,
        found: u32,
    },
    AttemptNumbering {
        /// Position of the attempt in the schedule's `attempts` list.
        index: usize,
        job: String,
        position: u32,
        found: u32,
    },
    Overlap {
        /// Position of the attempt in the schedule's `attempts` list.
        index: usize,
        job: String,
        attempt: u32,
        start: Time,
        previous_end: Time,
    },
    Capacity {
        /// The attempt whose start exceeds the capacity.
        index: usize,
        time: Time,
        used: u64,
        capacity: u32,
    },
    BadNodes {
        /// Position of the attempt in the schedule's `attempts` list.
        index: usize,
        job: String,
        attempt: u32,
        msg: String,
    },
    NodeShared {
        node: u32,
        time: Time,
        first: String,
        second: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Violation::*;
        match self {
            ScenarioLength { jobs, failures } => {
                write!(f, "[one failure count per job] the scenario has {failures} counts for {jobs} jobs")
            }
            UnknownJob { attempt_index, job } => {
                write!(f, "[job exists] attempts[{attempt_index}] names job {job}, which the instance does not have")
            }
            NegativeStart { index, job, attempt, start } => {
                write!(f, "[start ≥ 0] attempts[{index}].start: job {job} attempt {attempt} starts at {start}")
            }
            ProcsNotAllowed { index, job, attempt, procs } => {
                write!(f, "[allowed processors] attempts[{index}].procs: job {job} attempt {attempt} uses {procs} processors, which the job cannot run on")
            }
            WrongDuration { index, job, attempt, expected, found } => {
                write!(f, "[duration = t_j(p)] attempts[{index}].duration: job {job} attempt {attempt} lasts {found}, expected {expected}")
            }
            AttemptCount { job, expected, found } => {
                write!(f, "[f_j + 1 attempts] job {job} has {found} attempts, expected {expected}")
            }
            AttemptNumbering { index, job, position, found } => {
                write!(f, "[attempts in order] attempts[{index}]: job {job}: attempt number {found} is its attempt #{position} by start time")
            }
            Overlap { index, job, attempt, start, previous_end } => write!(
                f,
                "[no overlap] attempts[{index}]: job {job} attempt {attempt} starts at {start}, before its previous attempt ends at {previous_end}"
            ),
            Capacity { index, time, used, capacity } => {
                write!(f, "[capacity] {used} processors busy at time {time}, only {capacity} exist (attempts[{index}] starts then)")
            }
            BadNodes { index, job, attempt, msg } => write!(f, "[node ids] attempts[{index}]: job {job} attempt {attempt}: {msg}"),
            NodeShared { node, time, first, second } => {
                write!(f, "[node exclusive] node {node} is used by {first} and {second} at time {time}")
            }
        }
    }
}

impl std::error::Error for Violation {}
