//! Fuzz target: on any rigid instance and scenario (the `model::arbitrary::Case` generator,
//! the property tests' scope P ≤ 64, n ≤ 30, f_j ≤ 5), every rigid algorithm with every priority
//! rule runs to completion and its schedule passes the invariant checker.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::model::arbitrary::{Case, Scope};
use resched_proofs::exhaustive::rigid_algos;
use resched_proofs::run;

fuzz_target!(|data: &[u8]| {
    let Ok(case) = Case::from_bytes(data, Scope::LARGE) else {
        return;
    };
    for spec in rigid_algos() {
        if let Err(e) = run::algo(&case.instance, &case.scenario, &spec) {
            panic!(
                "{}: {e}\n{}\n{:?}",
                run::label(&spec),
                case.instance.to_json(),
                case.scenario.failures
            );
        }
    }
});
