//! Randomized runs of Baseline and the 18 node-stealing variants, each through the independent
//! checker, with the checker's decomposition compared to the metrics'. Failure rates are set
//! high so that consecutive failures (Section 7.2.3), failures during recovery and during
//! proactive checkpoints all happen. Seeds are fixed; a failure prints the seed and the workload.
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use resched::stealing::check::check;
use resched::stealing::metrics::{compute, Pruning};
use resched::stealing::sim::Effect;
use resched::stealing::{simulate, BatchJob, FailureSource, Resilience, Variant, Workload};
use resched::Time;

fn random_case(seed: u64) -> (Workload, Resilience, Time) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let nodes = rng.random_range(4..=24u32);
    let n = rng.random_range(10..=40usize);
    let mut t = Time::zero();
    let mut jobs = Vec::new();
    for i in 0..n {
        t = &t + &Time::new(rng.random_range(0..=12i64), 4).unwrap();
        let p = if rng.random_range(0..4) == 0 {
            rng.random_range(1..=nodes)
        } else {
            rng.random_range(1..=nodes.min(4))
        };
        let run = Time::new(rng.random_range(2..=40i64), 2).unwrap();
        // Some walltimes are shorter than the run time (cut), most are longer.
        let wall = &run * &Time::new(rng.random_range(9..=30i64), 10).unwrap();
        jobs.push(BatchJob {
            name: format!("j{i}"),
            release: t.clone(),
            nodes: p,
            run,
            walltime: wall,
        });
    }
    let mut w = Workload::new(nodes, jobs, "random").unwrap();
    w.clamp_run_to_walltime();
    // A job on all nodes runs at most 20 (walltime ≤ 60): with a platform MTBF ≥ 10 it
    // completes with probability ≥ e^-6 per attempt even without checkpoints.
    let platform_mtbf = Time::from_int(rng.random_range(10..=40i64));
    let c = [0i64, 1, 2][rng.random_range(0..3)];
    let res = Resilience {
        // Zero downtime (the node is back at once) a quarter of the time.
        downtime: Time::from_int(if rng.random_range(0..4) == 0 {
            0
        } else {
            rng.random_range(1..=25i64)
        }),
        checkpoint: Time::from_int(c),
        recovery: Time::from_int(if c == 0 {
            rng.random_range(0..=1i64)
        } else {
            rng.random_range(0..=3i64)
        }),
        mtbf_ind: Some(platform_mtbf.mul_int(u64::from(nodes))),
    };
    (w, res, platform_mtbf)
}

#[test]
fn random_runs_pass_the_checker() {
    let mut effects = std::collections::BTreeSet::new();
    let mut steals = 0;
    for seed in 0..150u64 {
        let (w, res, mtbf) = random_case(seed);
        for v in Variant::all() {
            let fs = FailureSource::poisson(seed, &mtbf, w.nodes).unwrap();
            let run = simulate(&w, &res, fs, v)
                .unwrap_or_else(|e| panic!("seed {seed} {v}: {e}\n{w:?}\n{res:?}"));
            let tot = check(&w, &res, &run, None)
                .unwrap_or_else(|e| panic!("seed {seed} {v}: {e}\n{w:?}\n{res:?}"));
            let m = compute(&run, &Pruning::default());
            let d = &m.decomposition;
            // The checker fills the metrics' own type: every part is compared.
            assert_eq!(*d, tot, "seed {seed} {v}: decomposition");
            // Useful work is exactly the jobs' work when the window holds the whole run.
            let work = w
                .jobs
                .iter()
                .fold(Time::zero(), |a, j| &a + &j.run.mul_int(u64::from(j.nodes)));
            assert_eq!(d.useful, work, "seed {seed} {v}: useful work");
            if v == Variant::Baseline {
                assert_eq!(run.stats.steals, 0);
                assert_eq!(
                    d.stealing,
                    Time::zero(),
                    "seed {seed}: Baseline has no stealing waste"
                );
            }
            steals += run.stats.steals;
            for f in &run.failures {
                effects.insert(
                    format!("{:?}", f.effect)
                        .split([' ', '{'])
                        .next()
                        .unwrap_or("")
                        .to_string(),
                );
            }
            // A sub-window also decomposes exactly.
            let half = run.end.div_int(2).unwrap();
            let win = (half.div_int(2).unwrap(), half);
            check(&w, &res, &run, Some(win.clone()))
                .unwrap_or_else(|e| panic!("seed {seed} {v} window: {e}"));
        }
    }
    assert!(steals > 100, "stealing happened only {steals} times");
    for e in [
        "Idle",
        "FreeNode",
        "Resubmitted",
        "Steal",
        "NoSurvivor",
        "Hold",
        "Victim",
        "AlreadyDown",
    ] {
        assert!(
            effects.contains(e),
            "no failure had effect {e}: {effects:?}"
        );
    }
    let _ = Effect::Idle;
}

#[test]
fn same_seed_same_run() {
    let (w, res, mtbf) = random_case(5);
    for v in [Variant::Baseline, Variant::SFSJ, "H323".parse().unwrap()] {
        let a = simulate(
            &w,
            &res,
            FailureSource::poisson(9, &mtbf, w.nodes).unwrap(),
            v,
        )
        .unwrap();
        let b = simulate(
            &w,
            &res,
            FailureSource::poisson(9, &mtbf, w.nodes).unwrap(),
            v,
        )
        .unwrap();
        assert_eq!(a, b);
    }
}
