//! quickcheck properties of the rigid schedulers on `arbitrary`-derived cases, beside the
//! proptest ones: every algorithm × priority passes the checker and never beats L(f);
//! Proposition 2 (GREEDY ≤ (2 − 1/P)·L) and Proposition 1 (R-LIST m ≥ 1 with LJF ≤
//! (3 − 4/(P+1))·L); the recording-free run gives the same makespan; on tiny cases no
//! algorithm beats the exact OPT.
//!
//! The byte strings come from quickcheck's generator with a fixed seed (printed), are shrunk by
//! quickcheck on failure, and are mapped to valid cases by `model::arbitrary::Case`; a failing
//! property reports the case as JSON.
use quickcheck::{Gen, QuickCheck, TestResult};
use resched::bounds;
use resched::model::arbitrary::{Case, Scope};
use resched_proofs::exhaustive::rigid_algos;
use resched_proofs::{rigid, run, Budget, OptRef};

const SEED: u64 = 0x5EED_0006;

fn qc(tests: u64) -> QuickCheck {
    eprintln!("quickcheck seed {SEED:#x}");
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(600, SEED))
        .tests(tests)
        .max_tests(tests * 4)
}

fn show(c: &Case) -> String {
    format!(
        "instance {}\nscenario {:?}",
        c.instance.to_json(),
        c.scenario.failures
    )
}

#[test]
fn every_rigid_algorithm_is_feasible_and_above_l() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        let c = Case::from_bytes(&bytes, Scope::LARGE).expect("generator");
        let l = run::rigid_lower(&c.instance, &c.scenario).expect("rigid");
        for spec in rigid_algos() {
            let m = match run::algo(&c.instance, &c.scenario, &spec) {
                Ok(m) => m,
                Err(e) => {
                    return TestResult::error(format!("{}: {e}\n{}", run::label(&spec), show(&c)))
                }
            };
            if m < l {
                return TestResult::error(format!(
                    "{}: makespan {m} < L = {l}\n{}",
                    run::label(&spec),
                    show(&c)
                ));
            }
            let fast = resched::oracle::Prepared::new(&spec, &c.instance)
                .and_then(|mut p| p.makespan(&c.instance, &c.scenario))
                .expect("run");
            if fast != m {
                return TestResult::error(format!(
                    "{}: run_makespan {} ≠ {m}\n{}",
                    run::label(&spec),
                    fast,
                    show(&c)
                ));
            }
        }
        TestResult::passed()
    }
    qc(60).quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

#[test]
fn propositions_1_and_2_against_l() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        let c = Case::from_bytes(&bytes, Scope::LARGE).expect("generator");
        let (inst, sc) = (&c.instance, &c.scenario);
        let l = run::rigid_lower(inst, sc).expect("rigid");
        for (algos, ratio) in [
            (rigid::prop2_algos(), bounds::greedy_ratio(inst.procs)),
            (rigid::prop1_algos(), bounds::reservation_ratio(inst.procs)),
        ] {
            for spec in algos {
                let m = run::algo(inst, sc, &spec).expect("run");
                if m > &ratio * &l {
                    return TestResult::error(format!(
                        "{}: {m} > {ratio}·L = {}\n{}",
                        run::label(&spec),
                        &ratio * &l,
                        show(&c)
                    ));
                }
            }
        }
        TestResult::passed()
    }
    qc(80).quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

#[test]
fn no_algorithm_beats_opt_on_tiny_cases() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        let c = Case::from_bytes(&bytes, Scope::TINY).expect("generator");
        let (inst, sc) = (&c.instance, &c.scenario);
        let opt = match run::opt(inst, sc, &Budget::quick()) {
            Ok(OptRef::Exact(o)) => o,
            Ok(_) => return TestResult::discard(),
            Err(e) => return TestResult::error(format!("opt: {e}\n{}", show(&c))),
        };
        if opt < run::rigid_lower(inst, sc).expect("rigid") {
            return TestResult::error(format!("OPT {opt} < L\n{}", show(&c)));
        }
        for spec in rigid_algos() {
            let m = run::algo(inst, sc, &spec).expect("run");
            if m < opt {
                return TestResult::error(format!(
                    "{} = {m} beats OPT = {opt}\n{}",
                    run::label(&spec),
                    show(&c)
                ));
            }
        }
        TestResult::passed()
    }
    qc(60).quickcheck(prop as fn(Vec<u8>) -> TestResult);
}
