//! Golden tests of the exact optimum that are not stored cases, each schedule checked by
//! `check::check`. The stored optima — Section 4.7's OPT = 10 (the moldable paper's Figure 3,
//! bottom), Proposition 3's OPT = 1 for P = 4 and 10, the hand-checked rigid cases, Theorems
//! 1, 8 and 12, the adversarial cases — are the `opt` fields of the corpus (`tests/cases/`),
//! each re-proved by `tests/corpus.rs`. Here:
//! - Proposition 3's instance (P unit jobs, t_j = 1/j, f_j = j − 1) generated for P = 5 (search,
//!   ILP and both) and P = 8 (search): OPT = 1 = L(f);
//! - the limits, the time limit and bad input.
use resched::model::{Instance, Scenario};
use resched::opt::{self, generate, Method, OptConfig, Status};
use resched::{check, Error, Time};
use std::time::Duration;

fn solve_checked(inst: &Instance, sc: &Scenario, method: Method) -> opt::OptResult {
    let r = opt::solve(inst, sc, &OptConfig::with_method(method))
        .unwrap_or_else(|e| panic!("{method:?}: {e}"));
    let m = check::check(inst, sc, &r.schedule).unwrap_or_else(|v| panic!("{method:?}: {v}"));
    assert_eq!(m, r.makespan);
    r
}

fn proposition3(p: u32) -> (Instance, Scenario) {
    let jobs: Vec<(u32, Time)> = (1..=p)
        .map(|j| (1, Time::new(1, i64::from(j)).unwrap()))
        .collect();
    (
        Instance::rigid(p, &jobs).unwrap(),
        Scenario::new((0..p).collect()),
    )
}

#[test]
fn proposition3_opt_is_one() {
    let (inst, sc) = proposition3(5);
    for method in [Method::Search, Method::Ilp, Method::Both] {
        let r = solve_checked(&inst, &sc, method);
        assert_eq!(r.status, Status::Optimal, "{method:?}");
        assert_eq!(r.makespan, Time::one(), "{method:?}");
    }
    // Meanwhile R-SHELF needs H_P (rigid paper): the optimum shows the whole gap.
    assert!(resched::bounds::harmonic(5) > Time::one());
    // Larger P with the search alone (the ILP horizon grows with lcm(1..P)).
    let (inst, sc) = proposition3(8);
    assert_eq!(
        solve_checked(&inst, &sc, Method::Search).makespan,
        Time::one()
    );
}

#[test]
fn limits_time_limit_and_bad_input() {
    // A scenario of the wrong length is an Invalid error naming the field.
    let inst = Instance::rigid(2, &[(1, Time::one())]).unwrap();
    let e = opt::solve(&inst, &Scenario::new(vec![1, 1]), &OptConfig::default()).unwrap_err();
    assert!(
        matches!(e, Error::Invalid { ref field, .. } if field == "failures"),
        "{e}"
    );
    // A horizon too large for the ILP: Error::Limit saying which limit.
    let (inst, sc) = generate::anchor_rigid(30, 8, 1);
    let cfg = OptConfig {
        ilp_max_vars: Some(100),
        ..OptConfig::with_method(Method::Ilp)
    };
    let e = opt::solve(&inst, &sc, &cfg).unwrap_err();
    assert!(
        matches!(e, Error::Limit(ref m) if m.contains("binary variables")),
        "{e}"
    );
    // A node limit stops the search with the best schedule found and a proven lower bound.
    let cfg = OptConfig {
        node_limit: Some(50),
        ..OptConfig::with_method(Method::Search)
    };
    let r = opt::solve(&inst, &sc, &cfg).unwrap();
    check::check(&inst, &sc, &r.schedule).unwrap();
    match &r.status {
        Status::Feasible { lower_bound } => {
            assert!(*lower_bound <= r.makespan);
            assert!(*lower_bound >= resched::bounds::rigid(&inst, &sc).unwrap().lower);
        }
        Status::Optimal => assert_eq!(r.makespan, r.stats.root_lower_bound),
    }
    // A tiny time limit also returns a checked schedule.
    let cfg = OptConfig {
        time_limit: Duration::from_millis(1),
        ..OptConfig::with_method(Method::Search)
    };
    let r = opt::solve(&inst, &sc, &cfg).unwrap();
    check::check(&inst, &sc, &r.schedule).unwrap();
    assert!(r.lower_bound() <= &r.makespan);
}

/// Moldable anchor instances that the deadline-area bound (`bounds::AreaHull`, search rule 3)
/// proves where the energy and chain bounds alone leave a gap. Seed 3's root
/// bound rises from 41 (energy and chains) to 43 = OPT: running every job's 2–4 attempts within
/// 42 time units forces wider, costlier options than the leanest ones the energy bound assumes.
#[test]
fn moldable_anchor_optima() {
    for (a, p, seed, opt, root) in [
        (16, 4, 3, 43, 43),
        (16, 8, 0, 35, 35),
        (16, 8, 2, 25, 25),
        (16, 8, 3, 26, 26),
    ] {
        let (inst, sc) = generate::anchor_moldable(a, p, seed);
        let r = solve_checked(&inst, &sc, Method::Search);
        assert_eq!(r.status, Status::Optimal, "A={a} P={p} seed {seed}");
        assert_eq!(r.makespan, Time::from_int(opt), "A={a} P={p} seed {seed}");
        assert_eq!(
            r.stats.root_lower_bound,
            Time::from_int(root),
            "A={a} P={p} seed {seed}"
        );
    }
}
