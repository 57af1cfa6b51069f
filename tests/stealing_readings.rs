//! The readings of `src/stealing/readings.rs` on hand-made scenarios: both reproduce Section 3's
//! toy example, and they differ where the paper's Section 2 says Baseline's failed job "has to
//! wait for the completion of another job to get a spare node" while small jobs backfill.
//! Every run goes through the independent checker; expected values are derived in comments.
use resched::stealing::check::check;
use resched::stealing::examples::{toy_failures, toy_resilience, toy_workload};
use resched::stealing::metrics::{compute, Pruning};
use resched::stealing::{
    simulate_read, BatchJob, Failure, FailureSource, NodeReturns, Readings, Resilience, Run,
    Variant, Workload,
};
use resched::Time;

fn t(n: i64) -> Time {
    Time::from_int(n)
}

fn go(w: &Workload, res: &Resilience, f: FailureSource, v: Variant, r: NodeReturns) -> Run {
    let run = simulate_read(w, res, f, v, Readings::with_returns(r)).unwrap();
    check(w, res, &run, None).unwrap_or_else(|e| panic!("{v} {r}: {e}\n{run:#?}"));
    run
}

fn flows(r: &Run) -> Vec<Time> {
    compute(r, &Pruning::default()).flows
}

fn job(name: &str, release: i64, nodes: u32, len: i64) -> BatchJob {
    BatchJob {
        name: name.into(),
        release: t(release),
        nodes,
        run: t(len),
        walltime: t(len),
    }
}

fn one_failure(time: i64, node: u32) -> FailureSource {
    FailureSource::List {
        failures: vec![Failure {
            time: t(time),
            node,
        }],
        next: 0,
    }
}

#[test]
fn both_readings_reproduce_the_toy_example() {
    let (w, res) = (toy_workload(), toy_resilience());
    for r in NodeReturns::ALL {
        // Table 1: without node stealing 8, 5, 15, 25, 3; with node stealing 8, 11, 11, 21, 10.
        let base = go(&w, &res, toy_failures(), Variant::Baseline, r);
        assert_eq!(flows(&base), vec![t(8), t(5), t(15), t(25), t(3)], "{r}");
        let sfsj = go(&w, &res, toy_failures(), Variant::SFSJ, r);
        assert_eq!(flows(&sfsj), vec![t(8), t(11), t(11), t(21), t(10)], "{r}");
    }
}

/// 4 nodes, no checkpoint, D = 5: J1 (2 nodes, 100) on ids 0–1, J2 (2 nodes, 50) on ids 2–3,
/// both released at 0; J3 (1 node, 20) released at 2; node 2 fails at t = 1. No node is free,
/// and SFSJ finds no smaller victim (K1: J1 has 2 nodes, not fewer), so SFSJ = Baseline.
#[test]
fn a_failed_job_waits_for_its_node_or_for_another_job() {
    let w = Workload::new(
        4,
        vec![
            job("J1", 0, 2, 100),
            job("J2", 0, 2, 50),
            job("J3", 2, 1, 20),
        ],
        "t",
    )
    .unwrap();
    let res = Resilience {
        downtime: t(5),
        checkpoint: t(0),
        recovery: t(0),
        mtbf_ind: None,
    };
    for v in [Variant::Baseline, Variant::SFSJ] {
        // Foreseen: J2 is planned at 6 on its survivor (id 3) and its node back at 6: it ends at
        // 56. J3 finds no 20-unit hole before 56 (id 3 is reserved from 6) and runs [56, 76).
        let f = go(&w, &res, one_failure(1, 2), v, NodeReturns::Foreseen);
        assert_eq!(flows(&f), vec![t(100), t(56), t(74)], "{v} foreseen");
        // Unforeseen: without node 2 the plan has J2 wait for J1's end (100), so J3 backfills
        // on the survivor (id 3) over [2, 22). Node 2 is back at 6 and the plan is recomputed:
        // J2 needs 2 nodes, id 3 is J3's until 22: J2 runs [22, 72).
        let u = go(&w, &res, one_failure(1, 2), v, NodeReturns::Unforeseen);
        assert_eq!(flows(&u), vec![t(100), t(72), t(20)], "{v} unforeseen");
    }
}

/// A job larger than the nodes that are up waits for a return under `Unforeseen` (planned at
/// the horizon, recomputed when the node is back) instead of being started on a down node.
#[test]
fn a_job_wider_than_the_nodes_up_waits_for_the_return() {
    let w = Workload::new(2, vec![job("J1", 0, 2, 10)], "t").unwrap();
    let res = Resilience {
        downtime: t(5),
        checkpoint: t(0),
        recovery: t(0),
        mtbf_ind: None,
    };
    for r in NodeReturns::ALL {
        // Fails at 1 (no checkpoint), node 0 back at 6, restarts then: ends at 16.
        let run = go(&w, &res, one_failure(1, 0), Variant::Baseline, r);
        assert_eq!(flows(&run), vec![t(16)], "{r}");
    }
}
