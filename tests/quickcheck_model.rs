//! quickcheck properties of the model and the checker on `arbitrary`-derived cases.
//!
//! quickcheck draws and shrinks a byte string; `model::arbitrary::Case` turns any byte string
//! into a valid instance and scenario, so a failure shrinks to a small case. The generator is
//! seeded (`Gen::from_size_and_seed`): the seed is printed with every failure and a run is
//! reproducible. A failing property returns `TestResult::error` with the case as JSON.
use quickcheck::{Gen, QuickCheck, TestResult};
use resched::check::{check, Violation};
use resched::model::arbitrary::{Case, Scope};
use resched::model::{Attempt, Instance, Scenario, Schedule};
use resched::Time;

const SEED: u64 = 0x5EED_0005;

fn qc(tests: u64) -> QuickCheck {
    eprintln!("quickcheck seed {SEED:#x}");
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(400, SEED))
        .tests(tests)
        .max_tests(tests * 4)
}

fn case(bytes: &[u8], scope: Scope) -> Case {
    Case::from_bytes(bytes, scope).expect("the generator accepts every byte string")
}

fn show(c: &Case) -> String {
    format!(
        "instance {}\nscenario {:?}",
        c.instance.to_json(),
        c.scenario.failures
    )
}

/// Every generated instance and scenario round-trip through their JSON formats exactly.
#[test]
fn json_round_trip() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        let c = case(&bytes, Scope::MIXED);
        let inst = match Instance::from_json_str(&c.instance.to_json(), "rt.json") {
            Ok(i) => i,
            Err(e) => return TestResult::error(format!("{e}\n{}", show(&c))),
        };
        let sc = match Scenario::from_json_str(&c.scenario.to_json(), "rt.json", &inst) {
            Ok(s) => s,
            Err(e) => return TestResult::error(format!("{e}\n{}", show(&c))),
        };
        TestResult::from_bool(inst == c.instance && sc == c.scenario)
    }
    qc(300).quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

/// The serial schedule (every attempt of every job one after the other on the job's first
/// allowed processor count) is feasible, and its makespan is the sum of the chains; moving any
/// attempt earlier than its predecessor's end is caught as an overlap.
#[test]
fn checker_accepts_serial_and_rejects_overlap() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        let c = case(&bytes, Scope::MIXED);
        let mut attempts = Vec::new();
        let mut now = Time::zero();
        for (j, job) in c.instance.jobs.iter().enumerate() {
            let p = *job.allowed_procs().start();
            let t = job.time(p).expect("allowed").clone();
            for a in 1..=c.scenario.failures[j] + 1 {
                attempts.push(Attempt {
                    job: j,
                    attempt: a,
                    start: now.clone(),
                    procs: p,
                    duration: t.clone(),
                    nodes: None,
                });
                now += &t;
            }
        }
        let sched = Schedule {
            attempts,
            ..Default::default()
        };
        match check(&c.instance, &c.scenario, &sched) {
            Ok(m) if m == now => {}
            other => return TestResult::error(format!("serial schedule: {other:?}\n{}", show(&c))),
        }
        // Pull the second attempt of the first failing job back by half its duration.
        let Some(i) = sched.attempts.iter().position(|a| a.attempt == 2) else {
            return TestResult::passed();
        };
        let mut bad = sched.clone();
        let half = bad.attempts[i].duration.div_int(2).expect("nonzero");
        bad.attempts[i].start = &bad.attempts[i].start - &half;
        match check(&c.instance, &c.scenario, &bad) {
            Err(Violation::Overlap { .. }) => TestResult::passed(),
            other => TestResult::error(format!("expected an overlap, got {other:?}\n{}", show(&c))),
        }
    }
    qc(300).quickcheck(prop as fn(Vec<u8>) -> TestResult);
}

/// Running every job at time 0 on the processors it needs is caught by the capacity check
/// exactly when the total exceeds P.
#[test]
fn checker_capacity_is_exact() {
    fn prop(bytes: Vec<u8>) -> TestResult {
        let c = case(&bytes, Scope::RIGID);
        let sc = Scenario::none(c.instance.len());
        let attempts: Vec<Attempt> = c
            .instance
            .jobs
            .iter()
            .enumerate()
            .map(|(j, job)| {
                let (p, t) = job.as_rigid().expect("rigid scope");
                Attempt {
                    job: j,
                    attempt: 1,
                    start: Time::zero(),
                    procs: p,
                    duration: t.clone(),
                    nodes: None,
                }
            })
            .collect();
        let total: u64 = attempts.iter().map(|a| u64::from(a.procs)).sum();
        let r = check(
            &c.instance,
            &sc,
            &Schedule {
                attempts,
                ..Default::default()
            },
        );
        let ok = if total <= u64::from(c.instance.procs) {
            r.is_ok()
        } else {
            matches!(r, Err(Violation::Capacity { .. }))
        };
        if ok {
            TestResult::passed()
        } else {
            TestResult::error(format!(
                "total {total}, P {}: {r:?}\n{}",
                c.instance.procs,
                show(&c)
            ))
        }
    }
    qc(300).quickcheck(prop as fn(Vec<u8>) -> TestResult);
}
