//! The toy simulator against resched's oracle, as a user writes it: resched is a
//! dev-dependency, every case is drawn from a printed seed, and each mismatch names it.
use resched::model::{Attempt as RAttempt, Instance, Scenario, Schedule};
use resched::oracle::{certify, AlgoSpec};
use resched::Time;
use toy_simulator::{greedy, Job};

/// A small deterministic generator (a user's test need not pull in rand).
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % below
    }
}

fn case(seed: u64) -> (u32, Vec<Job>, Vec<u32>) {
    let mut r = SplitMix(seed);
    let procs = 1 + r.next(8) as u32;
    let n = 1 + r.next(7) as usize;
    let jobs = (0..n)
        .map(|_| Job {
            procs: 1 + r.next(u64::from(procs)) as u32,
            time: 1 + r.next(6),
        })
        .collect();
    let failures = (0..n).map(|_| r.next(3) as u32).collect();
    (procs, jobs, failures)
}

fn to_resched(procs: u32, jobs: &[Job], failures: &[u32]) -> (Instance, Scenario) {
    let rigid: Vec<(u32, Time)> = jobs
        .iter()
        .map(|j| (j.procs, Time::from_int(j.time as i64)))
        .collect();
    let inst = Instance::rigid(procs, &rigid).expect("a valid instance");
    (inst, Scenario::new(failures.to_vec()))
}

fn to_schedule(attempts: &[toy_simulator::Attempt]) -> Schedule {
    Schedule {
        attempts: attempts
            .iter()
            .map(|a| RAttempt {
                job: a.job,
                attempt: a.attempt,
                start: Time::from_int(a.start as i64),
                procs: a.procs,
                duration: Time::from_int(a.duration as i64),
                nodes: None,
            })
            .collect(),
        makespan: None,
        algorithm: None,
    }
}

#[test]
fn the_toy_greedy_matches_the_oracle_on_500_seeded_cases() {
    let spec = AlgoSpec::new("greedy");
    for seed in 0..500 {
        let (procs, jobs, failures) = case(seed);
        let (inst, sc) = to_resched(procs, &jobs, &failures);
        let oracle = certify(&spec, &inst, &sc).expect("the oracle certifies every valid case");
        let (attempts, makespan) = greedy(procs, &jobs, &failures);
        assert_eq!(
            Time::from_int(makespan as i64),
            oracle.makespan,
            "seed {seed}: the toy's makespan differs from the oracle's"
        );

        // The toy's whole schedule must also pass resched's independent checker.
        let schedule = to_schedule(&attempts);
        let checked = resched::check::check(&inst, &sc, &schedule)
            .unwrap_or_else(|v| panic!("seed {seed}: the checker rejects the toy's schedule: {v}"));
        assert_eq!(checked, oracle.makespan, "seed {seed}");
    }
}

#[test]
fn a_planted_bug_is_caught() {
    // Forgetting to re-run failed jobs is the bug a checker must catch: drop the failures and
    // the schedule has too few attempts.
    let (procs, jobs, failures) = (2, vec![Job { procs: 1, time: 3 }], vec![1]);
    let (inst, sc) = to_resched(procs, &jobs, &failures);
    let (attempts, _) = greedy(procs, &jobs, &[0]);
    let schedule = to_schedule(&attempts);
    assert!(resched::check::check(&inst, &sc, &schedule).is_err());
}
