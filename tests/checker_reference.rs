//! The invariant checker against an independent brute-force checker
//! (`resched::check::reference`): on schedules produced by every algorithm of the catalogue and
//! then mutated (a shifted start, a wrong count or duration, a dropped or duplicated attempt,
//! node ids, …), both must give the same verdict and, on a feasible schedule, the same makespan.
//! Seeded (ChaCha8): a failure prints the seed and the case.
use arbitrary::Unstructured;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use resched::check::{self, reference};
use resched::model::arbitrary::{Case, Scope};
use resched::oracle::{self, catalogue, AlgoSpec};

fn bytes(rng: &mut ChaCha8Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.random::<u8>()).collect()
}

#[test]
fn checker_agrees_with_the_reference_on_mutated_schedules() {
    let (mut feasible, mut infeasible) = (0u32, 0u32);
    for seed in 0..3000u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let scope = if seed % 3 == 0 {
            Scope::MIXED
        } else {
            Scope::RIGID
        };
        let Ok(case) = Case::from_bytes(&bytes(&mut rng, 256), scope) else {
            continue;
        };
        let (inst, sc) = (&case.instance, &case.scenario);
        let names: Vec<String> = catalogue::concrete_names()
            .into_iter()
            .filter(|n| catalogue::parse(n).is_ok_and(|r| r.entry.family.accepts(inst)))
            .collect();
        let name = &names[(seed as usize) % names.len()];
        let c = oracle::certify(&AlgoSpec::new(name.as_str()), inst, sc)
            .unwrap_or_else(|e| panic!("seed {seed}: {name}: {e}"));
        assert_eq!(
            reference::feasible(inst, sc, &c.schedule),
            Some(c.makespan.clone())
        );
        for round in 0..8 {
            let mut sched = c.schedule.clone();
            let noise = bytes(&mut rng, 64);
            let mut u = Unstructured::new(&noise);
            for _ in 0..=(round % 3) {
                let _ = reference::mutate(&mut sched, &mut u);
            }
            let real = check::check(inst, sc, &sched).ok();
            let brute = reference::feasible(inst, sc, &sched);
            assert_eq!(
                real,
                brute,
                "seed {seed} round {round}: checker {real:?} vs reference {brute:?}\n{}\n{:?}\n{}",
                inst.to_json(),
                sc.failures,
                sched.to_json()
            );
            if real.is_some() {
                feasible += 1;
            } else {
                infeasible += 1;
            }
        }
    }
    // The mutations must exercise both verdicts, or the comparison proves little.
    eprintln!("{feasible} feasible, {infeasible} infeasible mutated schedules");
    assert!(
        feasible > 1000 && infeasible > 10_000,
        "{feasible} feasible, {infeasible} infeasible"
    );
}

#[test]
fn a_wrong_length_scenario_is_a_violation_not_a_default() {
    let inst =
        resched::model::Instance::rigid(2, &[(1, resched::Time::one()), (1, resched::Time::one())])
            .unwrap_or_else(|e| panic!("{e}"));
    let c = oracle::certify(
        &AlgoSpec::new("greedy"),
        &inst,
        &resched::model::Scenario::none(2),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let short = resched::model::Scenario::new(vec![0]);
    let v = check::check(&inst, &short, &c.schedule)
        .err()
        .map(|v| v.to_string());
    assert!(v.is_some_and(|v| v.contains("1 counts for 2 jobs")));
    assert_eq!(reference::feasible(&inst, &short, &c.schedule), None);
}
