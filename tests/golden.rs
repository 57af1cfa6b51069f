//! Generated golden tests of the rigid schedulers (rigid paper Section 4.4): the families too
//! large or too many to store as cases of the corpus (`tests/cases/`, run by `tests/corpus.rs`).
//!
//! Proposition 3's makespan is the harmonic number H_P for every P (the corpus stores P = 4 and
//! P = 10). Proposition 4's construction has P + P^P − 1 jobs (3129 for P = 5), so it is generated
//! here in code rather than stored, with ε = 1/P^(P+1); its makespan under R-SHELFFILL with LPT
//! is exactly P (see [`prop4_instance`]). Every run goes through `oracle::Prepared`.
use resched::bounds;
use resched::model::{Instance, Job, Scenario};
use resched::oracle::{self, AlgoSpec};
use resched::schedulers::Priority;
use resched::Time;

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
