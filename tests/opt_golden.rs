//! Golden cases of the exact optimum (issue "Exact optimum for small instances"), with exact
//! expected values, each schedule checked by `check::check`:
//! - rigid paper, Proposition 3's instance (P unit jobs, t_j = 1/j, f_j = j − 1): OPT = 1 = L(f);
//! - moldable paper, Section 4.7's example (P = 4, J1..J4 with the table printed there, J3 and
//!   J4 fail once): OPT = 10 (the paper's Figure 3, bottom);
//! - hand-checked small cases, and the limits/time-limit behaviour.
use resched::model::{Instance, Job, Scenario};
use resched::opt::{self, generate, Method, OptConfig, Status};
use resched::{check, Error, Time};
use std::time::Duration;

fn t(s: &str) -> Time {
    s.parse().unwrap()
}

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
    for p in [4, 5] {
        let (inst, sc) = proposition3(p);
        for method in [Method::Search, Method::Ilp, Method::Both] {
            let r = solve_checked(&inst, &sc, method);
            assert_eq!(r.status, Status::Optimal, "P={p} {method:?}");
            assert_eq!(r.makespan, Time::one(), "P={p} {method:?}");
        }
        // Meanwhile R-SHELF needs H_P (rigid paper): the optimum shows the whole gap.
        assert!(resched::bounds::harmonic(p) > Time::one());
    }
    // Larger P with the search alone (the ILP horizon grows with lcm(1..P)).
    let (inst, sc) = proposition3(8);
    assert_eq!(
        solve_checked(&inst, &sc, Method::Search).makespan,
        Time::one()
    );
}

fn section47() -> (Instance, Scenario) {
    let table = [
        ["11", "7", "5", "4"],
        ["10", "9.8", "9.6", "9.5"],
        ["4", "3", "3", "2.5"],
        ["3", "2", "1.7", "1.4"],
    ];
    let jobs: Vec<Job> = table
        .iter()
        .enumerate()
        .map(|(j, row)| {
            generate::moldable(format!("J{}", j + 1), row.iter().map(|s| t(s)).collect())
        })
        .collect();
    (
        Instance::new(4, jobs).unwrap(),
        Scenario::new(vec![0, 0, 1, 1]),
    )
}

#[test]
fn moldable_section_4_7_opt_is_ten() {
    let (inst, sc) = section47();
    let r = solve_checked(&inst, &sc, Method::Search);
    assert_eq!(r.status, Status::Optimal);
    assert_eq!(r.makespan, Time::from_int(10));
    // Cross-check with the ILP (its model has ~2,000 binaries at this horizon).
    let r = solve_checked(&inst, &sc, Method::Both);
    assert_eq!(
        (r.status, r.makespan),
        (Status::Optimal, Time::from_int(10))
    );
}

#[test]
fn hand_checked_rigid_cases() {
    let i = Time::from_int;
    // Two full-width jobs are sequential: OPT = Σ chains = 2·3 + 1·2 = 8 = A/P.
    let inst = Instance::rigid(2, &[(2, i(3)), (2, i(2))]).unwrap();
    assert_eq!(
        solve_checked(&inst, &Scenario::new(vec![1, 0]), Method::Both).makespan,
        i(8)
    );
    // P = 3: jobs (2, 2) failing once and (2, 1) cannot overlap; (1, 4) runs beside them.
    // L(f) = max(4, (8 + 2 + 4)/3) = 14/3, but the two 2-wide jobs need 4 + 1 = 5 in sequence.
    let inst = Instance::rigid(3, &[(2, i(2)), (2, i(1)), (1, i(4))]).unwrap();
    let sc = Scenario::new(vec![1, 0, 0]);
    let r = solve_checked(&inst, &sc, Method::Both);
    assert_eq!(r.makespan, i(5));
    assert!(r.makespan >= resched::bounds::rigid(&inst, &sc).unwrap().lower);
    // A chain longer than the area: OPT = t_max = 3·(3/2).
    let inst = Instance::rigid(4, &[(1, t("3/2")), (1, t("1/2"))]).unwrap();
    assert_eq!(
        solve_checked(&inst, &Scenario::new(vec![2, 1]), Method::Both).makespan,
        t("9/2")
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
        ilp_max_vars: 100,
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
