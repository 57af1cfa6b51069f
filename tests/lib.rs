//! The integration tests of resched: one test binary (`cargo test`), one module per subject.
//!
//! Tiers: `cargo test` runs the quick tier. The slow tier (the peer-moldable sets, the
//! exhaustive scopes, the long random runs) is compiled in with the feature `slow-tests` of
//! `resched-cli`: `.ci/run` runs `cargo test --features resched-cli/slow-tests,resched-cli/highs`
//! (the tests that hold the ILP then run it on microlp and on HiGHS). Tests marked `#[ignore]` are manual tools (timing tables, the
//! whole peer-moldable set in release) that neither tier runs. Shared helpers live in
//! [`support`].
//!
//! The modules read their data from the repository (`tests/cases/`, `tests/bad_inputs/`, …,
//! found through [`support::repo`]) and, where they need the real traces or the papers'
//! simulators' files, from `../shared` beside the checkout ([`support::shared`]); a test whose
//! shared file is absent says so and passes only where the module documents that it may.
mod support;

mod adversarial_cases;
mod bad_inputs;
mod batch;
mod batsim_export;
mod batsim_workload;
mod catalogue_cli;
mod checker_reference;
mod cli_errors;
mod corpus;
mod diff;
mod diff_campaign;
mod diff_defaults;
mod diff_hostile;
mod docs;
mod exact_input;
mod exhaustive;
mod experiment_quick;
mod experiment_steal_synthetic;
mod figures;
mod golden;
mod house_rules;
mod ledger;
mod ledger_export;
mod module_layers;
mod moldable_claims;
mod moldable_golden;
mod moldable_props;
mod no_silent_defaults;
mod opt_agree;
mod opt_anchor;
mod opt_both;
mod opt_exact_fit;
mod opt_golden;
mod opt_highs;
mod opt_packing;
mod opt_restarts;
mod opt_threads;
mod opt_unscaled;
mod opt_vs_heuristics;
mod output_layer;
mod peer_moldable;
mod quickcheck_model;
mod quickcheck_schedulers;
mod rigid_props;
mod shard_merge;
mod shelf_idle;
mod simulate_json;
mod slurm_scripts;
mod stealing_batsched;
mod stealing_checker;
mod stealing_cli;
mod stealing_cli_hostile;
mod stealing_cli_stop;
mod stealing_jobs_csv;
mod stealing_limits;
mod stealing_mira;
mod stealing_node_mtbf;
mod stealing_outputs;
mod stealing_pins;
mod stealing_plan_checks;
mod stealing_plan_pins;
mod stealing_random;
mod stealing_readings;
mod stealing_scenarios;
mod stealing_stop;
mod stealing_toy;
mod time_props;
mod verify_float;
mod workload_plot;
mod workload_sampling;
mod workload_swf;
