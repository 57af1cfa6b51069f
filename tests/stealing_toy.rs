//! Golden test: Section 3's toy example of the node-stealing paper (Table 1, Figure 2), exact.
//!
//! 8 nodes, five jobs released at 0 (J1: 1 node × 8, J2: 1 × 5, J3: 6 × 10, J4: 6 × 10,
//! J5: 1 × 2), one failure on P_3 (node id 2) at t = 1, downtime 5, no checkpoint, no recovery.
use resched::stealing::check::check;
use resched::stealing::examples::{toy_failures, toy_resilience, toy_workload};
use resched::stealing::metrics::{compute, Pruning};
use resched::stealing::nodes::NodeSet;
use resched::stealing::sim::{Outcome, Run};
use resched::stealing::{simulate, FailureSource, Variant};
use resched::Time;

fn t(n: i64) -> Time {
    Time::from_int(n)
}

fn run(variant: Variant, failures: FailureSource) -> Run {
    let w = toy_workload();
    let res = toy_resilience();
    let run = simulate(&w, &res, failures, variant).expect("simulation");
    let totals = check(&w, &res, &run, None).unwrap_or_else(|e| panic!("{variant}: {e}\n{run:#?}"));
    let m = compute(&run, &Pruning::default());
    let d = &m.decomposition;
    assert_eq!(
        (
            &d.useful,
            &d.checkpoint,
            &d.recovery,
            &d.lost,
            &d.stealing,
            &d.down,
            &d.idle,
            &d.total
        ),
        (
            &totals.useful,
            &totals.checkpoint,
            &totals.recovery,
            &totals.lost,
            &totals.stealing,
            &totals.down,
            &totals.idle,
            &totals.total
        ),
        "metrics and checker disagree on the decomposition"
    );
    assert_eq!(d.sum(), d.total);
    run
}

fn flows(run: &Run) -> Vec<Time> {
    compute(run, &Pruning::default()).flows
}

#[test]
fn fault_free_figure_2a() {
    let r = run(Variant::Baseline, FailureSource::None);
    // J1 8, J2 5, J3 10, J4 at 10 → 20, J5 backfilled at 5 on P2 → 7.
    assert_eq!(flows(&r), vec![t(8), t(5), t(10), t(20), t(7)]);
    let a = |j: usize| r.attempts.iter().find(|a| a.job == j).unwrap();
    assert_eq!(a(0).nodes, NodeSet::single(0));
    assert_eq!(a(1).nodes, NodeSet::single(1));
    assert_eq!(a(2).nodes, NodeSet::range(2, 8), "J3 on P3..P8");
    assert_eq!(a(3).nodes, NodeSet::range(0, 6), "J4 reserved P1..P6 at 10");
    assert_eq!(
        (a(4).start.clone(), a(4).nodes.clone()),
        (t(5), NodeSet::single(1)),
        "J5 backfilled at 5 on P2"
    );
}

#[test]
fn baseline_table_1() {
    let r = run(Variant::Baseline, toy_failures());
    assert_eq!(flows(&r), vec![t(8), t(5), t(15), t(25), t(3)]);
    let m = compute(&r, &Pruning::default());
    assert_eq!(m.all.max, t(25));
    assert_eq!(m.all.mean, Time::new(56, 5).unwrap());
    assert_eq!(m.all.weighted_mean, Time::new(256, 15).unwrap());
    // J3 restarts at 5 on P2 and P4..P8 (P3 is down until 6).
    let j3: Vec<_> = r.attempts.iter().filter(|a| a.job == 2).collect();
    assert_eq!(j3.len(), 2);
    assert_eq!(j3[0].outcome, Outcome::Failed { node: 2 });
    assert_eq!(
        (j3[1].start.clone(), j3[1].nodes.clone()),
        (t(5), NodeSet::from_ids(&[1, 3, 4, 5, 6, 7]))
    );
    // J5 backfilled at t = 1.
    assert_eq!(r.attempts.iter().find(|a| a.job == 4).unwrap().start, t(1));
    assert_eq!(r.stats.steals, 0);
}

#[test]
fn sfsj_table_1() {
    let r = run(Variant::SFSJ, toy_failures());
    assert_eq!(flows(&r), vec![t(8), t(11), t(11), t(21), t(10)]);
    let m = compute(&r, &Pruning::default());
    assert_eq!(m.all.max, t(21));
    assert_eq!(m.all.mean, Time::new(61, 5).unwrap());
    assert_eq!(m.all.weighted_mean, Time::new(221, 15).unwrap());
    // "At t = 1, we steal P2 and thereby interrupt job J2. Job J3 can re-execute immediately on
    // nodes P2 (replacing P3) and P4 to P8 … J2 … can re-execute on P3 when it is up again at 6."
    let j2: Vec<_> = r.attempts.iter().filter(|a| a.job == 1).collect();
    assert_eq!(j2[0].outcome, Outcome::Stolen { by: 2 });
    assert_eq!(
        (j2[1].start.clone(), j2[1].nodes.clone()),
        (t(6), NodeSet::single(2))
    );
    let j3: Vec<_> = r.attempts.iter().filter(|a| a.job == 2).collect();
    assert_eq!(
        (j3[1].start.clone(), j3[1].nodes.clone()),
        (t(1), NodeSet::from_ids(&[1, 3, 4, 5, 6, 7]))
    );
    // "J5 executes on P1 when it becomes available."
    let j5 = r.attempts.iter().find(|a| a.job == 4).unwrap();
    assert_eq!(
        (j5.start.clone(), j5.nodes.clone()),
        (t(8), NodeSet::single(0))
    );
    assert_eq!(r.stats.steals, 1);
}

#[test]
fn idle_time_decreases_with_stealing() {
    // "We also see that the total idle time of the 8 nodes has decreased."
    let b = compute(
        &run(Variant::Baseline, toy_failures()),
        &Pruning {
            window: Some((t(0), t(25))),
            ..Pruning::default()
        },
    );
    let s = compute(
        &run(Variant::SFSJ, toy_failures()),
        &Pruning {
            window: Some((t(0), t(25))),
            ..Pruning::default()
        },
    );
    assert!(
        s.decomposition.idle < b.decomposition.idle,
        "{:?} vs {:?}",
        s.decomposition,
        b.decomposition
    );
    // Down time is the same 5 node-units; SFSJ wastes J2's one unit of work (stealing).
    assert_eq!(b.decomposition.down, t(5));
    assert_eq!(s.decomposition.stealing, t(1));
    assert_eq!(b.decomposition.lost, t(6));
}

#[test]
fn every_variant_runs_and_checks_on_the_toy() {
    for v in Variant::all() {
        run(v, toy_failures());
    }
}
