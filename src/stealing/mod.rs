//! Node stealing for failed jobs in a batch scheduler: Du, Marchal, Pallez, Robert, "Improving
//! Batch Schedulers with Node Stealing for Failed Jobs" (`papers/node-stealing-batch-schedulers`).
//!
//! An online batch scheduler on N identified nodes with fail-stop node failures, downtime and
//! periodic Young/Daly checkpoints. It has its own event model (release times, node identities,
//! failures striking nodes in time) and does not use the semi-online [`crate::engine::Scheduler`]
//! trait: DESIGN.md ("stealing") explains why one shape would bend either. It shares
//! [`crate::Time`], [`crate::Error`] and the file helpers with the rest of resched.
//!
//! One file per idea:
//! - [`model`]: jobs, workload, resilience parameters, variants (Baseline, Hxyz and their digits);
//! - [`nodes`]: node-id sets (ranges) and bitsets for 49,152-node machines;
//! - [`failures`]: seeded Poisson failures per node, or a failure list file;
//! - [`checkpoint`]: Young/Daly period (the one irrational rule), Eq. (1)–(2), Figure 15 and T3;
//! - [`plan`]: the conservative-backfilling profile (Section 4.1);
//! - [`sim`]: the event loop, Baseline and the 18 node-stealing variants (Sections 4, 7), one
//!   file per step under `sim/`;
//! - [`metrics`]: flows, size classes, utilization, decomposition, pruning (Section 5.3);
//! - [`measure`]: the named pruning rules (`all`, Section 5.3.3's `paper`, `scaled`);
//! - [`backlog`]: the jobs waiting as the trace goes on, which a run's work follows;
//! - [`readings`]: where the paper allows two readings (does the plan foresee node returns?
//!   when are the reservations compressed?);
//! - [`check`]: the independent checker, one file per invariant under `check/`;
//! - [`synthetic`]: Table 6's synthetic workload; [`trace`]: SWF logs as workloads;
//!   [`batsim`]: Batsim's workload files as workloads;
//! - [`examples`]: Section 3's toy example;
//! - [`limits`]: the stated ranges of every input and the event and attempt budgets of a run.
pub mod backlog;
pub mod batsim;
pub mod check;
pub mod checkpoint;
pub mod examples;
pub mod failures;
pub mod limits;
pub mod measure;
pub mod metrics;
pub mod model;
pub mod nodes;
pub mod parse;
pub mod plan;
pub mod readings;
pub mod sim;
pub mod synthetic;
pub mod trace;

pub use failures::{Failure, FailureSource};
pub use limits::Budget;
pub use metrics::{Metrics, Pruning};
pub use model::{BatchJob, Criterion, Resilience, Timing, Variant, Victim, Workload};
pub use readings::{Compression, NodeReturns, Readings};
pub use sim::{
    simulate, simulate_read, simulate_read_reporting, simulate_reporting, simulate_within, Ending,
    Partial, Run,
};
