//! The adversarial search's worst cases (`tests/cases/adversarial/`) are cases of the corpus:
//! `tests/corpus.rs` runs them on every algorithm, checks their pinned makespans and re-proves
//! their OPT. What is left here is the contract between the corpus and the code that writes or
//! reads those files:
//! - the writer (`proofs::adversary::golden_json`, behind `resched prove --search … --save DIR`)
//!   produces a case the corpus loader accepts, with the oracle's lower bound and the exact OPT
//!   in `opt`, whose pins reproduce through `oracle::certify`;
//! - the LPA-LIST cases the ledger re-checks (`proofs::moldable::golden_path`, Theorems 3, 5, 7)
//!   exist, and the ledger's loader reads the same instance and scenario as the corpus.
use resched::model::speedup::ModelKind;
use resched::oracle::{self, corpus, AlgoSpec, Bound};
use resched::schedulers::Priority;
use resched_proofs::{adversary, moldable, Budget, OptRef};

#[test]
fn the_search_writes_corpus_cases() {
    let spec = AlgoSpec::new("greedy").with_priority(Priority::Lpt);
    let budget = Budget {
        adversarial: 60,
        ..Budget::quick()
    };
    let found = adversary::search_rigid(&spec, &budget).unwrap_or_else(|e| panic!("{e}"));
    let expect = [(
        "greedy".to_string(),
        "lpt".to_string(),
        found.makespan.clone(),
    )];
    let json = adversary::golden_json(&found, &expect, "test search (seed 1, 60 steps)")
        .unwrap_or_else(|e| panic!("{e}"));
    let case = corpus::parse(&json, "written.json").unwrap_or_else(|e| panic!("{e}\n{json}"));
    let bound = Bound::of(&case.instance, &case.scenario).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(case.case.lower_bound.as_ref(), Some(&bound.lower), "{json}");
    match &found.opt {
        OptRef::Exact(opt) => {
            assert_eq!(case.case.opt.as_ref().map(|o| &o.makespan), Some(opt))
        }
        _ => assert!(case.case.opt.is_none(), "{json}"),
    }
    assert_eq!(case.specs.len(), 1);
    for (e, spec) in case.case.expect.iter().zip(&case.specs) {
        let c = oracle::certify(spec, &case.instance, &case.scenario)
            .unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(c.makespan, e.makespan, "{json}");
    }
}

#[test]
fn the_ledger_reads_the_corpus_cases() {
    for kind in [ModelKind::Communication, ModelKind::Amdahl, ModelKind::Mix] {
        let g = moldable::golden(kind).expect("a saved witness");
        let path = crate::support::repo()
            .join("tests/cases/adversarial")
            .join(g.file);
        let case = corpus::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            g.text,
            "the embedded witness is the corpus file"
        );
        assert!(case.case.opt.is_some(), "{}", case.file);
        assert!(
            !case.specs.is_empty() && case.specs.iter().all(|s| s.name == "lpa-list"),
            "{}",
            case.file
        );
        let (inst, sc) = moldable::load_golden(&g).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(inst, case.instance, "{}", case.file);
        assert_eq!(sc, case.scenario, "{}", case.file);
    }
}
