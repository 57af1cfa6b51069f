//! resched — an exact reference engine for resilient scheduling of parallel jobs.
//!
//! Jobs run on P identical processors and may fail (silent errors detected at the end of an
//! attempt, or node crashes); a failed job runs again until it succeeds. resched implements the
//! schedulers of three papers (rigid jobs, moldable jobs, node stealing in batch schedulers) in
//! exact rational time, checks every schedule with an independent invariant checker, computes
//! the true optimum of small instances, and serves as an oracle that other implementations are
//! held against.
//!
//! # The architecture in a page
//!
//! The modules form layers; each depends only on those above it:
//!
//! 1. [`time`] — the exact time type: a rational that promotes itself to big integers rather
//!    than wrap, round or panic. Every instant, duration and bound is a [`Time`].
//! 2. [`error`] and [`violation`] — the one error type of every public entry point (each
//!    variant names the file, line, field or option at fault) and the checker's broken
//!    invariants.
//! 3. [`model`] — jobs (rigid, or moldable with a speedup model turned into an exact table
//!    t(1..=P)), instances, failure scenarios (f_j failed attempts before the successful one),
//!    schedules, and their JSON formats with validation beside the types they build.
//! 4. [`check`] — the invariant checker. It knows no algorithm: capacity ≤ P at every instant,
//!    attempts in order and never overlapping, exactly f_j + 1 attempts, durations t_j(p), node
//!    ids never shared. It judges every schedule resched produces and any schedule a user
//!    brings (`resched verify`).
//! 5. [`bounds`] — L(f) and L'(J, f) and the papers' ratio formulas, as exact functions.
//! 6. [`engine`] — the semi-online event loop. It owns the scenario and reveals an attempt's
//!    outcome only when the attempt ends; a [`engine::Scheduler`] receives a context without
//!    the scenario, so "semi-online" is a fact of the types.
//! 7. [`schedulers`] — R-LIST, R-SHELF(FILL), the priority rules, and the moldable family
//!    (LIST with LPA / MINTIME / MINAREA allocations, MT-ALLOTMENT, BATCH-LIST).
//! 8. [`oracle`] — the one door through which anything runs an algorithm: the typed
//!    [`oracle::catalogue`] (name, aliases, paper and section, family, parameters, builder) and
//!    [`oracle::certify()`] (engine → checker → bound → exact ratio, with
//!    [`Error::Disagree`] when engine and checker disagree).
//! 9. [`opt`] — the exact optimum of small instances (a branch-and-bound search and an ILP that
//!    must agree); each optimum comes with a schedule that passes the checker.
//! 10. [`workload`] (SWF traces, the papers' simulators' files, synthetic sets, failure
//!     sampling) and [`stealing`] (the node-stealing paper's online batch model, with node
//!     identities, release times, downtime and checkpoints, and its own node-level checker).
//!
//! # How to add a scheduler
//!
//! 1. Write it in `src/schedulers/` (a file per family, opening with a doc comment that names
//!    the paper's algorithm and section), implementing [`engine::Scheduler`]: `on_event` is
//!    called at time 0 and at every instant at which attempts end, with every completion of
//!    that instant; it starts attempts with [`engine::Ctx::start`]. Reset your state on the
//!    call at time 0, so that one value runs many scenarios.
//! 2. Add a variant to [`oracle::Algo`] and one [`oracle::Entry`] to
//!    [`oracle::CATALOGUE`] (name, aliases, paper, section, the paper's table label, family,
//!    parameters); the exhaustive `match` in [`oracle::Algo::build`] then tells you where to
//!    build it. Every command (`simulate`, `batch`, `diff`, the campaigns) then accepts the name.
//! 3. Run the tests: the golden corpus (`tests/cases/`) runs every catalogue entry on every
//!    case through the checker and fails if an entry ran on no case; add a case that pins the
//!    new algorithm's exact makespan on an instance you computed by hand.
//!
//! # How to add a speedup model
//!
//! Add a variant to [`model::SpeedupModel`] (`src/model/speedup.rs`) with its JSON fields and
//! their validation, and its exact table t(1..=P) (an irrational model enters once, at the
//! edge, by a documented rounding rule, as `power` does), and a [`model::speedup::ModelKind`]
//! if the papers give it model-specific bounds (then add them to [`bounds::moldable`]). The
//! algorithms read only the table, so none of them changes.
//!
//! # Where the rest lives
//!
//! The core is one crate of a workspace whose crate graph is the layer picture: the theorem
//! ledger is `resched-proofs` (`proofs/`), on top of this crate; the `resched` program with its
//! campaigns, plots, batch server and differential-testing runner is `resched-cli` (`cli/`);
//! the Python package is `resched-python` (`python/`). None of them is a dependency of this
//! crate, so "the engine never imports the ledger" is a fact the compiler keeps.
//!
//! Features: `ilp` adds the time-indexed ILP of [`opt`] (good_lp with microlp), `highs` its
//! HiGHS backend. Without them [`opt`] has its exact search only.
// Nothing user-visible panics (DESIGN): library code outside tests may not unwrap, expect or
// panic; an invariant that cannot fail says why where it is allowed.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
pub mod bounds;
pub mod check;
pub mod engine;
pub mod error;
pub mod model;
pub mod opt;
pub mod oracle;
pub mod schedulers;
pub mod stealing;
pub mod time;
pub mod violation;
pub mod workload;

pub use error::{Error, Result};
pub use time::Time;
