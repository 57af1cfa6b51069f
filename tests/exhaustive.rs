//! Exhaustive small-scope checks: every rigid instance and scenario within the scope
//! of `proofs::exhaustive::RigidScope` (default: P ≤ 3, n ≤ 3, t_j ∈ {1,2,3}, p_j ∈ 1..=P,
//! f_j ≤ 2), every rigid algorithm and priority rule, compared with the exact OPT.
//!
//! Asserted: no heuristic beats OPT; GREEDY ≤ (2 − 1/P)·OPT (Proposition 2); R-LIST with
//! m ≥ 1 and LJF ≤ (3 − 4/(P+1))·OPT (Proposition 1); every schedule passes the checker.
//! The test prints the worst ratio of every algorithm and the case that shows it.
//! `RESCHED_EXHAUSTIVE=large` switches to P ≤ 4 (see the README).
use resched_proofs::exhaustive::{rigid, RigidScope};
use resched_proofs::Budget;

#[test]
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow tier: .ci/run runs it")]
fn rigid_exhaustive_small_scope() {
    let scope = RigidScope::from_env();
    let started = std::time::Instant::now();
    let rep = rigid(&scope, &Budget::quick())
        .unwrap_or_else(|e| panic!("exhaustive check failed to run: {e}"));
    println!("{}", rep.markdown());
    println!("elapsed {:.1} s", started.elapsed().as_secs_f64());
    assert_eq!(
        rep.cases,
        scope.cases(),
        "every case of the scope was enumerated"
    );
    for id in ["rigid.prop1", "rigid.prop2", "heuristic>=opt"] {
        let t = rep
            .by_entry
            .get(id)
            .unwrap_or_else(|| panic!("no measurement for {id}"));
        assert!(t.measured > 0, "{id}");
        assert!(
            t.violation_count == 0,
            "{id} broken {} times: {:#?}",
            t.violation_count,
            t.violations
        );
    }
}

/// The moldable scope of `proofs::exhaustive_moldable` (default: P ≤ 3, n ≤ 2, monotonic
/// tables on a grid, f_j ≤ 1): every algorithm ≥ OPT, Lemma 2 with the exact α, β of an
/// optimal allocation, Theorem 11's bound for BATCH-LIST.
#[test]
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow tier: .ci/run runs it")]
fn moldable_exhaustive_small_scope() {
    use resched_proofs::exhaustive_moldable::{moldable, MoldableScope};
    let scope = MoldableScope::from_env();
    let started = std::time::Instant::now();
    let rep = moldable(&scope, &Budget::quick())
        .unwrap_or_else(|e| panic!("moldable exhaustive check failed to run: {e}"));
    println!("{}", rep.markdown());
    println!("elapsed {:.1} s", started.elapsed().as_secs_f64());
    assert!(rep.cases > 0);
    for id in ["heuristic>=opt", "moldable.lemma2", "moldable.thm11"] {
        let t = rep
            .by_entry
            .get(id)
            .unwrap_or_else(|| panic!("no measurement for {id}"));
        assert!(t.measured > 0, "{id}");
        assert!(
            t.violation_count == 0,
            "{id} broken {} times: {:#?}",
            t.violation_count,
            t.violations
        );
    }
}
