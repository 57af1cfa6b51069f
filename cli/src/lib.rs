//! The `resched` command-line program as a library: the subcommands ([`cli`]), the papers'
//! campaigns ([`experiment`]), plots and Gantt charts ([`render`]), the JSON Lines batch server
//! ([`batch`]), differential testing against another program ([`diff`]) and the provenance
//! every result carries ([`provenance`]).
//!
//! Everything here is built on the core library (`resched`) and the theorem ledger
//! (`resched-proofs`); nothing of it is in the core's dependency tree. Library errors name
//! parameters (`eps`, `procs`); [`cli`] alone speaks of flags.
//!
//! # How to add a campaign
//!
//! Add a module to `cli/src/experiment/` with its cell type and a run function built on
//! [`experiment::runner`] (parallel, resumable, atomic outputs) and
//! [`experiment::eval::evaluate`] (exact ratios, the first scenario of every cell certified),
//! add one [`experiment::Campaign`] entry to [`experiment::CAMPAIGNS`] (name, paper, section,
//! its `--quick` size, the options it takes, its run function: the compiler checks every part;
//! the command line, `experiment list` and the option checks follow from it), and record what
//! it measured beside the paper's numbers in `docs/results/`. Algorithms are named by catalogue name; their column labels come from
//! the catalogue.
// Nothing user-visible panics (DESIGN): library code outside tests may not unwrap, expect or
// panic; an invariant that cannot fail says why where it is allowed.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
pub mod batch;
pub mod batsim;
pub mod cli;
pub mod diff;
pub mod experiment;
pub mod out;
pub mod provenance;
pub mod render;
