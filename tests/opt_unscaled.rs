//! The exact optimum of instances whose times the 64-bit integer model refused (a scaled
//! horizon beyond 2^40 units): answered, each schedule through the independent checker.
//! - A single moldable job on P = 1296 under each speedup model of the moldable paper: OPT is
//!   (f+1)·min_p t(p), computed here from the job's table.
//! - Identical jobs whose L′ is met (P = 100, Amdahl's model: times over lcm(1..100)).
//! - The Amdahl member of the area+chain family at s = 6 (P = 36; the ledger's
//!   `proofs/moldable/area_chain.rs`, rebuilt here from its definition): OPT = 14, proven by the
//!   search on the 128-bit model (common denominator lcm(1..36)·7 ≈ 10^15).
//! - The limits that remain are typed errors naming their parameter.
use resched::model::{Instance, Job, Profile, Scenario, SpeedupModel};
use resched::opt::{self, problem, Method, OptConfig, OptResult};
use resched::{check, Error, Time};
use std::time::Duration;

fn t(n: i64, d: i64) -> Time {
    Time::new(n, d).unwrap()
}

fn job(name: &str, model: SpeedupModel, procs: u32) -> Job {
    let times = model.table(procs, name).unwrap();
    Job {
        name: name.into(),
        profile: Profile::Moldable { model, times },
    }
}

/// Solves with the search, checks the schedule, and returns the result.
fn solved(inst: &Instance, sc: &Scenario, limit: u64) -> OptResult {
    let cfg = OptConfig {
        time_limit: Duration::from_secs(limit),
        ..OptConfig::with_method(Method::Search)
    };
    let r = opt::solve(inst, sc, &cfg).unwrap_or_else(|e| panic!("{e}"));
    let m = check::check(inst, sc, &r.schedule).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(m, r.makespan);
    r
}

#[test]
fn a_single_job_on_1296_processors_under_each_model() {
    let procs = 1296;
    let models = [
        SpeedupModel::Roofline {
            w: Time::from_int(100),
            pbar: 1000,
        },
        SpeedupModel::Communication {
            w: Time::from_int(100),
            c: t(1, 1000),
        },
        SpeedupModel::Amdahl {
            w: Time::from_int(100),
            gamma: t(1, 20),
        },
        SpeedupModel::Mix {
            w: Time::from_int(100),
            gamma: t(1, 20),
            pbar: 800,
            c: t(1, 10000),
        },
        SpeedupModel::Power {
            w: Time::from_int(100),
            delta: t(3, 4),
        },
    ];
    for model in models {
        let what = format!("{model:?}");
        let inst = Instance::new(procs, vec![job("J", model, procs)]).unwrap();
        let sc = Scenario::new(vec![2]);
        // Beyond the integer model: the answer comes from the exact-time bounds.
        assert!(problem::build(&inst, &sc).is_err(), "{what}");
        let fastest = (1..=procs)
            .filter_map(|p| inst.jobs[0].time(p).cloned())
            .min()
            .unwrap();
        let r = solved(&inst, &sc, 10);
        assert!(
            r.is_optimal(),
            "{what}: {} ≥ {}",
            r.makespan,
            r.lower_bound()
        );
        assert_eq!(r.makespan, fastest.mul_int(3), "{what}");
    }
}

#[test]
fn identical_jobs_meeting_lprime() {
    // 100 jobs t(p) = 1 + 9/p (w = 10, γ = 1/10) on P = 100, each failing once: L′ = max(2·t(100),
    // 100·2·a(1)/100) = 20, which every job on one processor, twice, meets.
    let procs = 100;
    let amdahl = SpeedupModel::Amdahl {
        w: Time::from_int(10),
        gamma: t(1, 10),
    };
    let jobs = (0..100)
        .map(|i| job(&format!("J{i}"), amdahl.clone(), procs))
        .collect();
    let inst = Instance::new(procs, jobs).unwrap();
    let sc = Scenario::new(vec![1; 100]);
    let r = solved(&inst, &sc, 10);
    assert!(
        r.stats.unscaled.is_some(),
        "lcm(1..100) scales past the model"
    );
    assert!(r.is_optimal());
    assert_eq!(r.makespan, Time::from_int(20));
    assert_eq!(
        r.makespan,
        resched::bounds::moldable::lprime(&inst, &sc).unwrap().lower
    );
}

/// The ledger's Amdahl area+chain member at s (`proofs/moldable/area_chain.rs`): on P = s²,
/// s(s−1) area jobs t(p) = 2(s/p + 1) (w = 2(s+1), γ = 1/(s+1)) and a chain t(p) = 1 + 1/p
/// (w = 2, γ = 1/2) failing 2s − 1 times.
fn area_chain_amdahl(s: u32) -> (Instance, Scenario) {
    let procs = s * s;
    let area = SpeedupModel::Amdahl {
        w: Time::from_int(2 * i64::from(s) + 2),
        gamma: t(1, i64::from(s) + 1),
    };
    let chain = SpeedupModel::Amdahl {
        w: Time::from_int(2),
        gamma: t(1, 2),
    };
    let mut jobs: Vec<Job> = (0..s * (s - 1))
        .map(|i| job(&format!("A{i}"), area.clone(), procs))
        .collect();
    jobs.push(job("C", chain, procs));
    let mut failures = vec![0; jobs.len()];
    failures[jobs.len() - 1] = 2 * s - 1;
    (Instance::new(procs, jobs).unwrap(), Scenario::new(failures))
}

#[test]
fn amdahl_area_chain_member_at_s6_is_fourteen() {
    let (inst, sc) = area_chain_amdahl(6);
    assert_eq!(inst.jobs[0].time(6), Some(&Time::from_int(4)));
    assert_eq!(inst.jobs[30].time(3), Some(&t(4, 3)));
    let r = solved(&inst, &sc, 60);
    assert!(r.stats.unscaled.is_none(), "the 128-bit model holds it");
    assert!(r.is_optimal(), "{} ≥ {}", r.makespan, r.lower_bound());
    assert_eq!(r.makespan, Time::from_int(14));
    // The ILP's model is the 64-bit one: asking for it is a typed limit that names the way out.
    for method in [Method::Ilp, Method::Both] {
        let e = opt::solve(&inst, &sc, &OptConfig::with_method(method)).unwrap_err();
        assert!(
            matches!(e, Error::Limit(ref m) if m.contains("method `search`")),
            "{method:?}: {e}"
        );
    }
}

#[test]
fn the_limits_left_are_typed_and_named() {
    let inst = Instance::rigid(2, &[(1, Time::one())]).unwrap();
    let e = opt::solve(&inst, &Scenario::new(vec![300]), &OptConfig::default()).unwrap_err();
    assert!(
        matches!(e, Error::Limit(ref m) if m.contains("failures[0]")),
        "{e}"
    );
    let jobs: Vec<(u32, Time)> = (0..problem::MAX_JOBS + 1)
        .map(|_| (1, Time::one()))
        .collect();
    let inst = Instance::rigid(4, &jobs).unwrap();
    let sc = Scenario::none(jobs.len());
    let e = opt::solve(&inst, &sc, &OptConfig::default()).unwrap_err();
    assert!(
        matches!(e, Error::Limit(ref m) if m.contains("`jobs`")),
        "{e}"
    );
    let inst = Instance::rigid(problem::MAX_PROCS + 1, &[(1, Time::one())]).unwrap();
    let e = opt::solve(&inst, &Scenario::none(1), &OptConfig::default()).unwrap_err();
    assert!(
        matches!(e, Error::Limit(ref m) if m.contains("`procs`")),
        "{e}"
    );
}
