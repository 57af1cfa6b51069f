//! Golden tests of the rigid schedulers (rigid paper Sections 4.1–4.4), as data.
//!
//! Every file of `tests/cases/*.json` holds an instance, a failure scenario, optionally the
//! exact lower bound L(f), and a list of `{algorithm, priority, makespan, why}`: one runner builds
//! each named algorithm through the registry, runs it in the engine, checks the schedule with the
//! independent checker, and compares the exact makespan. The `why` of each expectation is the
//! hand computation that justifies it (Propositions 3's values are the harmonic numbers).
//!
//! Proposition 4's construction has P + P^P − 1 jobs (3129 for P = 5), so it is generated here in
//! code rather than stored, with ε = 1/P^(P+1); its makespan under R-SHELFFILL with LPT is
//! exactly P (see [`prop4_instance`]).
use resched::bounds;
use resched::model::{Instance, Job, Scenario};
use resched::oracle::{self, AlgoSpec};
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
    #[serde(default)]
    lower_bound: Option<Time>,
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

/// Runs `algo`/`priority`, checks the schedule, returns the makespan.
fn run_checked(inst: &Instance, sc: &Scenario, algo: &str, priority: Priority) -> Time {
    let spec = AlgoSpec {
        name: algo.into(),
        priority: Some(priority),
        seed: 1,
        eps: None,
    };
    let mut p = oracle::Prepared::new(&spec, inst).unwrap_or_else(|e| panic!("{algo}: {e}"));
    let m = p
        .certify(inst, sc)
        .unwrap_or_else(|e| panic!("{algo}/{priority}: {e}"))
        .makespan;
    // The recording-free run must give the same makespan.
    let fast = p.makespan(inst, sc).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fast, m, "{algo}/{priority}: run_makespan differs");
    m
}

#[test]
fn golden_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 7,
        "expected the golden corpus in {}",
        dir.display()
    );
    let mut checked = 0;
    for f in &files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        let case: Case = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let inst = Instance::from_json_str(&case.instance.to_string(), &name).unwrap();
        let sc = Scenario::from_json_str(&case.scenario.to_string(), &name, &inst).unwrap();
        assert!(!case.description.is_empty());
        if let Some(lb) = &case.lower_bound {
            assert_eq!(
                &bounds::rigid(&inst, &sc).unwrap().lower,
                lb,
                "{name}: L(f)"
            );
        }
        for e in &case.expect {
            assert!(
                !e.why.is_empty(),
                "{name}: {} needs its hand computation",
                e.algorithm
            );
            let pr: Priority = e.priority.parse().unwrap();
            let m = run_checked(&inst, &sc, &e.algorithm, pr);
            assert_eq!(m, e.makespan, "{name}: {}/{}: {}", e.algorithm, pr, e.why);
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} expectations");
}

/// Proposition 3's values are the harmonic numbers, for every P (not only the stored 4 and 10).
#[test]
fn prop3_harmonic_for_p_up_to_12() {
    for p in 1..=12u32 {
        let jobs: Vec<(u32, Time)> = (1..=p)
            .map(|j| (1, Time::new(1, i64::from(j)).unwrap()))
            .collect();
        let inst = Instance::rigid(p, &jobs).unwrap();
        let sc = Scenario::new((0..p).collect());
        assert_eq!(bounds::rigid(&inst, &sc).unwrap().lower, Time::one());
        for algo in ["r-shelf-b", "r-shelf-nb"] {
            for pr in Priority::ALL {
                assert_eq!(
                    run_checked(&inst, &sc, algo, pr),
                    bounds::harmonic(p),
                    "P={p} {algo}/{pr}"
                );
            }
        }
    }
}

/// Proposition 4's instance for P (rigid paper Section 4.4), with ε = 1/P^(P+1).
///
/// Set i = 1..P holds one job of time 1/P^(i−1) that fails P^(i−1) − 1 times (its attempts add up
/// to 1), and (P−1)·P^(i−1) jobs of time (1+ε)/P^i that never fail; all use one processor.
///
/// Why R-SHELFFILL/LPT ends at exactly P: LPT orders set by set, the long job of set i first,
/// since 1/P^(i−1) > (1+ε)/P^i > 1/P^i (as 1 + ε < P). Every shelf of set i holds its long job
/// and P − 1 short ones of set i (P processors: full, so b = 0 and b = 1 agree), and is 1/P^(i−1)
/// high; the long job's attempt ends exactly at the shelf's end, so its re-execution never fits
/// (t + t_k > T_i) and it opens the next shelf. Set i thus takes P^(i−1) shelves of 1/P^(i−1),
/// i.e. time 1, using exactly its (P−1)·P^(i−1) short jobs: the makespan is P·1 = P. R-SHELF
/// builds the same shelves (no failure can be filled in), so it ends at P too.
///
/// L(f) = max(t_max, A/P) with t_max = 1 and A = P + (P−1)(1+ε), so L(f) = 1 + (P−1)(1+ε)/P < 2.
fn prop4_instance(p: u32) -> (Instance, Scenario, Time) {
    let pp = i64::from(p);
    let eps = Time::new(1, pp.pow(p + 1)).unwrap();
    let one_eps = &Time::one() + &eps;
    let mut jobs = Vec::new();
    let mut failures = Vec::new();
    for i in 1..=p {
        let big = Time::new(1, pp.pow(i - 1)).unwrap();
        jobs.push(Job::rigid(format!("L{i}"), 1, big));
        failures.push(p.pow(i - 1) - 1);
        let small = one_eps.div_int(p.pow(i).into()).unwrap();
        for k in 0..(p - 1) * p.pow(i - 1) {
            jobs.push(Job::rigid(format!("S{i}_{k}"), 1, small.clone()));
            failures.push(0);
        }
    }
    let lower = &Time::one()
        + &one_eps
            .mul_int(u64::from(p - 1))
            .div_int(u64::from(p))
            .unwrap();
    (
        Instance::new(p, jobs).unwrap(),
        Scenario::new(failures),
        lower,
    )
}

#[test]
fn prop4_shelffill_lpt_makespan_is_p() {
    for p in 2..=5u32 {
        let (inst, sc, lower) = prop4_instance(p);
        assert_eq!(inst.len() as u32, p + p.pow(p) - 1);
        assert_eq!(
            bounds::rigid(&inst, &sc).unwrap().lower,
            lower,
            "P={p}: L(f)"
        );
        assert!(lower < Time::from_int(2));
        for algo in ["r-shelffill-b", "r-shelffill-nb", "r-shelf-b", "r-shelf-nb"] {
            assert_eq!(
                run_checked(&inst, &sc, algo, Priority::Lpt),
                Time::from_int(i64::from(p)),
                "P={p} {algo}"
            );
        }
    }
}
