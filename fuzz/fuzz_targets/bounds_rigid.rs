//! Fuzz target: the proven bounds of the rigid paper against L(f) — GREEDY with every priority
//! ≤ (2 − 1/P)·L (Proposition 2), R-LIST with m ≥ 1 and LJF ≤ (3 − 4/(P+1))·L (Proposition 1)
//! — and, on tiny cases, OPT ≥ L and no heuristic below OPT.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::bounds;
use resched::model::arbitrary::{Case, Scope};
use resched_proofs::{exhaustive::rigid_algos, rigid, run, Budget};

fuzz_target!(|data: &[u8]| {
    let (tiny, rest) = match data.split_first() {
        Some((b, rest)) => (b % 4 == 0, rest),
        None => return,
    };
    let scope = if tiny { Scope::TINY } else { Scope::RIGID };
    let Ok(case) = Case::from_bytes(rest, scope) else {
        return;
    };
    let (inst, sc) = (&case.instance, &case.scenario);
    let l = run::rigid_lower(inst, sc).expect("rigid");
    let p = inst.procs;
    let show = || format!("{}\nfailures {:?}", inst.to_json(), sc.failures);
    for spec in rigid::prop2_algos() {
        let m = run::algo(inst, sc, &spec).unwrap_or_else(|e| panic!("{e}\n{}", show()));
        assert!(
            m <= &bounds::greedy_ratio(p) * &l,
            "Prop 2: {} = {m} > (2-1/P)·L = {}\n{}",
            run::label(&spec),
            &bounds::greedy_ratio(p) * &l,
            show()
        );
    }
    for spec in rigid::prop1_algos() {
        let m = run::algo(inst, sc, &spec).unwrap_or_else(|e| panic!("{e}\n{}", show()));
        assert!(
            m <= &bounds::reservation_ratio(p) * &l,
            "Prop 1: {} = {m} > (3-4/(P+1))·L\n{}",
            run::label(&spec),
            show()
        );
    }
    if tiny {
        let budget = Budget {
            opt_nodes: 100_000,
            ..Budget::quick()
        };
        let opt = run::opt(inst, sc, &budget).unwrap_or_else(|e| panic!("opt: {e}\n{}", show()));
        assert!(
            *opt.lower() >= l || !matches!(opt, resched_proofs::OptRef::Exact(_)),
            "OPT below L\n{}",
            show()
        );
        if let resched_proofs::OptRef::Exact(o) = &opt {
            for spec in rigid_algos() {
                let m = run::algo(inst, sc, &spec).unwrap_or_else(|e| panic!("{e}\n{}", show()));
                assert!(
                    m >= *o,
                    "{} = {m} beats OPT = {o}\n{}",
                    run::label(&spec),
                    show()
                );
            }
        }
    }
});
