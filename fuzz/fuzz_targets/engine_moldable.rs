//! Fuzz target: on any moldable (or mixed rigid + moldable) instance and scenario from the
//! `model::arbitrary` generator, LPA-LIST, MINTIME, MINAREA and BATCH-LIST with the paper's
//! priority rules run to completion and pass the checker, never beat L'(J, f), and LPA-LIST
//! stays within Lemma 2's bound r(max α_j, max β_j)·L' (moldable paper Section 4.2).
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::bounds::moldable as mb;
use resched::model::arbitrary::{Case, Scope};
use resched_proofs::{moldable, run};
use resched::oracle::AlgoSpec;
use resched::schedulers::Priority;

fuzz_target!(|data: &[u8]| {
    let (mixed, rest) = match data.split_first() {
        Some((b, rest)) => (b % 2 == 0, rest),
        None => return,
    };
    let scope = if mixed { Scope::MIXED } else { Scope::MOLDABLE };
    let Ok(case) = Case::from_bytes(rest, scope) else {
        return;
    };
    let (inst, sc) = (&case.instance, &case.scenario);
    let show = || format!("{}\nfailures {:?}", inst.to_json(), sc.failures);
    let lp = mb::lprime(inst, sc).expect("L'").lower;
    let all_moldable = inst.jobs.iter().all(|j| !j.is_rigid());
    for name in ["lpa-list", "mintime", "minarea", "batch-list"] {
        for p in [Priority::Lpt, Priority::Hpa, Priority::La] {
            let spec = AlgoSpec::new(name).with_priority(p);
            let m = run::algo(inst, sc, &spec)
                .unwrap_or_else(|e| panic!("{}: {e}\n{}", run::label(&spec), show()));
            assert!(
                m >= lp,
                "{}: {m} < L' = {lp}\n{}",
                run::label(&spec),
                show()
            );
            if name == "lpa-list" && all_moldable {
                let r = moldable::lpa_lemma2_bound(inst).expect("bound");
                assert!(
                    m <= &r * &lp,
                    "Lemma 2: {} = {m} > {r}·L'\n{}",
                    run::label(&spec),
                    show()
                );
            }
        }
    }
});
