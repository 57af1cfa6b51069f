//! The adversarial golden cases (`tests/cases/adversarial/*.json`, written by
//! `resched prove --search` and the ledger's searches) re-checked: each names algorithms with
//! their exact makespan and states the exact OPT as `lower_bound`; the test rebuilds every
//! algorithm, runs it through the engine and the checker, compares the makespan exactly, and
//! re-proves OPT with the exact search. So a change in a scheduler or in `opt` that moves one
//! of these worst cases shows up here.
use resched::model::{Instance, Scenario};
use resched::oracle::AlgoSpec;
use resched::proofs::{run, Budget, OptRef};
use resched::schedulers::Priority;
use resched::Time;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    description: String,
    instance: serde_json::Value,
    scenario: serde_json::Value,
    lower_bound: Time,
    expect: Vec<Expect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    algorithm: String,
    priority: String,
    makespan: Time,
    why: String,
}

fn run_named(inst: &Instance, sc: &Scenario, e: &Expect) -> Time {
    if inst.is_rigid() {
        let p: Priority = e.priority.parse().unwrap_or_else(|err| panic!("{err}"));
        run::algo(
            inst,
            sc,
            &AlgoSpec::new(e.algorithm.as_str()).with_priority(p),
        )
        .unwrap_or_else(|err| panic!("{err}"))
    } else {
        resched::proofs::moldable::run_moldable_named(inst, sc, &e.algorithm, &e.priority)
            .unwrap_or_else(|err| panic!("{err}"))
    }
}

#[test]
fn adversarial_cases_reproduce() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/adversarial");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "expected the adversarial corpus in {}",
        dir.display()
    );
    for f in &files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{name}: {e}"));
        let case: Case = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let inst = Instance::from_json_str(&case.instance.to_string(), &name)
            .unwrap_or_else(|e| panic!("{e}"));
        let sc = Scenario::from_json_str(&case.scenario.to_string(), &name, &inst)
            .unwrap_or_else(|e| panic!("{e}"));
        let opt = run::opt(
            &inst,
            &sc,
            &Budget {
                opt_nodes: 5_000_000,
                ..Budget::quick()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            opt,
            OptRef::Exact(case.lower_bound.clone()),
            "{name}: OPT ({})",
            case.description
        );
        for e in &case.expect {
            let m = run_named(&inst, &sc, e);
            assert_eq!(
                m, e.makespan,
                "{name}: {}/{} ({})",
                e.algorithm, e.priority, e.why
            );
            assert!(m >= case.lower_bound, "{name}: {} below OPT", e.algorithm);
        }
    }
}
