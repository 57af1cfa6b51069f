//! Section 3's toy example (Table 1, Figure 2) as data: 8 nodes, five jobs released at 0, a
//! failure on P_3 (node id 2) at t = 1, downtime D = 5, no checkpoint and no recovery cost.
//!
//! Expected flows (Table 1): 8, 5, 15, 25, 3 without node stealing; 8, 11, 11, 21, 10 with
//! SFSJ (H111).
use super::failures::{Failure, FailureSource};
use super::model::{BatchJob, Resilience, Workload};
use crate::time::Time;

/// The five jobs of Table 1 (walltime = length) on 8 nodes.
pub fn toy_workload() -> Workload {
    let spec = [(1u32, 8i64), (1, 5), (6, 10), (6, 10), (1, 2)];
    let jobs = spec
        .iter()
        .enumerate()
        .map(|(i, &(p, l))| BatchJob {
            name: format!("J{}", i + 1),
            release: Time::zero(),
            nodes: p,
            run: Time::from_int(l),
            walltime: Time::from_int(l),
        })
        .collect();
    Workload { nodes: 8, jobs }
}

/// D = 5, C = R = 0, no MTBF (no checkpointing).
pub fn toy_resilience() -> Resilience {
    Resilience {
        downtime: Time::from_int(5),
        checkpoint: Time::zero(),
        recovery: Time::zero(),
        mtbf_ind: None,
    }
}

/// The single failure: P_3 (id 2) at t = 1.
pub fn toy_failures() -> FailureSource {
    FailureSource::List {
        failures: vec![Failure {
            time: Time::one(),
            node: 2,
        }],
        next: 0,
    }
}
