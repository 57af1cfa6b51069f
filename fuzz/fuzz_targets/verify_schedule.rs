//! Fuzz target: `verify` on arbitrary schedules. A case (instance and scenario) and an
//! algorithm are drawn from the input, the algorithm's certified schedule is mutated by the
//! rest of the input (`check::reference::mutate`), and the invariant checker must give the same
//! verdict and makespan as the independent brute-force checker (`check::reference::feasible`).
#![no_main]
use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use resched::check::{self, reference};
use resched::model::arbitrary::{Case, Scope};
use resched::oracle::{self, catalogue, AlgoSpec};

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(mixed) = u.arbitrary::<bool>() else {
        return;
    };
    let scope = if mixed { Scope::MIXED } else { Scope::RIGID };
    let Ok(case) = Case::from_unstructured(&mut u, scope) else {
        return;
    };
    let (inst, sc) = (&case.instance, &case.scenario);
    let names: Vec<String> = catalogue::concrete_names()
        .into_iter()
        .filter(|n| catalogue::parse(n).is_ok_and(|r| r.entry.family.accepts(inst)))
        .collect();
    let Ok(k) = u.choose_index(names.len()) else {
        return;
    };
    let c = oracle::certify(&AlgoSpec::new(names[k].as_str()), inst, sc)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", names[k], inst.to_json()));
    let mut sched = c.schedule;
    // At most 16 mutations, and none once the input or the schedule is used up: a mutation of an
    // empty schedule reads no byte, so a loop on the input alone would never end.
    for _ in 0..16 {
        if u.is_empty() || sched.attempts.is_empty() {
            break;
        }
        if reference::mutate(&mut sched, &mut u).is_err() {
            break;
        }
        let real = check::check(inst, sc, &sched).ok();
        let brute = reference::feasible(inst, sc, &sched);
        assert_eq!(real, brute, "{}\n{:?}\n{}", inst.to_json(), sc.failures, sched.to_json());
    }
});
