//! Hand-made scenarios for the node-stealing variants: the toy example of Section 3 under the
//! other timings, victims and criteria, and the consecutive-failure rules of Section 7.2.3.
//! Every run goes through the independent checker.
//!
//! Only Baseline and SFSJ on the toy example are the paper's numbers (tests/stealing_toy.rs);
//! the other expected values here are derived by hand from the readings documented in
//! `src/stealing/sim/` and `src/stealing/checkpoint.rs`, and the derivation is in comments.
use resched::stealing::check::check;
use resched::stealing::examples::{toy_failures, toy_resilience, toy_workload};
use resched::stealing::metrics::{compute, Pruning};
use resched::stealing::nodes::NodeSet;
use resched::stealing::sim::{Cause, Effect, Outcome, Run};
use resched::stealing::{
    simulate, BatchJob, Failure, FailureSource, Resilience, Variant, Workload,
};
use resched::Time;

fn t(n: i64) -> Time {
    Time::from_int(n)
}

fn tf(s: &str) -> Time {
    s.parse().unwrap()
}

fn go(w: &Workload, res: &Resilience, failures: FailureSource, v: &str) -> Run {
    let v: Variant = v.parse().unwrap();
    let run = simulate(w, res, failures, v).unwrap();
    check(w, res, &run, None).unwrap_or_else(|e| panic!("{v}: {e}\n{run:#?}"));
    run
}

fn flows(r: &Run) -> Vec<Time> {
    compute(r, &Pruning::default()).flows
}

#[test]
fn toy_example_under_other_variants() {
    let (w, res) = (toy_workload(), toy_resilience());
    // K3: stealing gives max(F 11, V 11) = 11 < waiting's max(F 15, V 5) = 15 → steal, as SFSJ.
    assert_eq!(
        flows(&go(&w, &res, toy_failures(), "H113")),
        vec![t(8), t(11), t(11), t(21), t(10)]
    );
    // V2: latest release, tie → fewest nodes, tie → latest submission: J2 again.
    assert_eq!(
        flows(&go(&w, &res, toy_failures(), "H121")),
        vec![t(8), t(11), t(11), t(21), t(10)]
    );
    // K2: J2 was submitted before J3 → no stealing → Baseline's flows.
    assert_eq!(
        flows(&go(&w, &res, toy_failures(), "H112")),
        vec![t(8), t(5), t(15), t(25), t(3)]
    );
    // T2 without checkpointing (C = 0): the proactive checkpoint is free and keeps J2's 1 unit;
    // J2 redoes 4 units on P3 from 6 → 10.
    assert_eq!(
        flows(&go(&w, &res, toy_failures(), "H211")),
        vec![t(8), t(10), t(11), t(21), t(10)]
    );
    // T3 without checkpointing: the next "checkpoint" of J2 is its completion at 5; J3's
    // survivors are held from 1 to 5, J3 runs [5, 15) on P2, P4..P8; J5 gets P3 at 6.
    let r = go(&w, &res, toy_failures(), "H311");
    assert_eq!(flows(&r), vec![t(8), t(5), t(15), t(25), t(8)]);
    assert_eq!(r.stats.victims_completed, 1);
    assert_eq!(r.holds.len(), 1);
    assert_eq!(
        (
            r.holds[0].start.clone(),
            r.holds[0].end.clone(),
            r.holds[0].nodes.clone()
        ),
        (t(1), t(5), NodeSet::range(3, 8))
    );
}

/// Jobs released at 0 with run = walltime = 100; C = R = 1 and μ_ind = 50, so a one-node job
/// checkpoints every √(2·50·1) = 10 and a two-node job every ⌊1000·√50⌋/1000 = 7.071.
fn setup(sizes: &[u32], run: i64) -> (Workload, Resilience) {
    let nodes = sizes.iter().sum();
    let jobs = sizes
        .iter()
        .enumerate()
        .map(|(i, &p)| BatchJob {
            name: format!("J{i}"),
            release: t(0),
            nodes: p,
            run: t(run),
            walltime: t(run),
        })
        .collect();
    let res = Resilience {
        downtime: t(20),
        checkpoint: t(1),
        recovery: t(1),
        mtbf_ind: Some(t(50)),
    };
    (Workload::new(nodes, jobs, "scenario").unwrap(), res)
}

fn fails(list: &[(&str, u32)]) -> FailureSource {
    FailureSource::list(
        list.iter()
            .map(|(s, n)| Failure {
                time: tf(s),
                node: *n,
            })
            .collect(),
    )
    .unwrap()
}

fn attempts(r: &Run, job: usize) -> Vec<&resched::stealing::sim::AttemptRecord> {
    r.attempts.iter().filter(|a| a.job == job).collect()
}

#[test]
fn t2_failure_on_the_hold_cancels_and_the_victim_resumes() {
    // J0 (2 nodes: 0,1), J1 (node 2), J2 (node 3). Node 0 fails at 3: no free node, V1 picks J2
    // (one node, latest submission), K1 holds (1 < 2), T2: J2 is at position 3 of its first
    // period → proactive checkpoint until 4, J0's survivor (node 1) is held. Node 1 fails at 3.5:
    // J0 has lost 2 nodes, J2 has only 1 → stealing cancelled; J2 finishes its checkpoint at 4
    // and goes on without recovery.
    let (w, res) = setup(&[2, 1, 1], 100);
    let r = go(&w, &res, fails(&[("3", 0), ("3.5", 1)]), "H211");
    let eff: Vec<Effect> = r.failures.iter().map(|f| f.effect).collect();
    assert_eq!(
        eff,
        vec![
            Effect::Steal { job: 0, victim: 2 },
            Effect::Hold {
                job: 0,
                cancelled: true
            }
        ]
    );
    let v = attempts(&r, 2);
    assert_eq!(v[0].outcome, Outcome::Checkpointed);
    assert_eq!(
        (
            v[0].end.clone(),
            v[0].reached.clone(),
            v[0].commit.clone(),
            v[0].extra.clone()
        ),
        (t(4), t(3), t(3), t(1))
    );
    assert_eq!(
        (v[1].cause, v[1].start.clone(), v[1].pos_start.clone()),
        (Cause::Resume, t(4), t(3))
    );
    // Its timeline: 100 + 10 checkpoints = 110, plus the proactive checkpoint.
    assert_eq!(r.completion[2], t(111));
    assert_eq!(r.stats.steals_cancelled, 1);
}

#[test]
fn t2_failure_on_the_victim_cancels_both() {
    // As above, but the victim's node fails at 3.5, during its proactive checkpoint: nothing
    // of it is kept (no regular checkpoint yet), and both jobs go back with priority 3.
    let (w, res) = setup(&[2, 1, 1], 100);
    let r = go(&w, &res, fails(&[("3", 0), ("3.5", 3)]), "H211");
    assert_eq!(r.failures[1].effect, Effect::Victim { job: 0, victim: 2 });
    let v = attempts(&r, 2);
    assert_eq!(v[0].outcome, Outcome::Failed { node: 3 });
    assert_eq!(
        (
            v[0].reached.clone(),
            v[0].commit.clone(),
            v[0].extra.clone()
        ),
        (t(3), t(0), tf("0.5"))
    );
    assert_eq!(v[1].cause, Cause::AfterFailure);
    // The checker counted the half checkpoint as stealing waste.
    let d = compute(&r, &Pruning::default()).decomposition;
    assert!(d.stealing >= tf("0.5"));
}

#[test]
fn t2_failure_on_the_hold_continues_when_the_victim_is_big_enough() {
    // J0 (3 nodes: 0-2), J1 (3-4), J2 (5-6). Node 0 fails at 3: V1 picks J2 (2 nodes, latest),
    // K1: 2 < 3. Node 1 fails at 3.5: J0 lost 2 ≤ 2 nodes of J2 → continue. At 4 J0 restarts
    // on its last survivor (node 2) and both nodes of J2.
    let (w, res) = setup(&[3, 2, 2], 100);
    let r = go(&w, &res, fails(&[("3", 0), ("3.5", 1)]), "H211");
    assert_eq!(
        r.failures[1].effect,
        Effect::Hold {
            job: 0,
            cancelled: false
        }
    );
    let f = attempts(&r, 0);
    assert_eq!(
        (f[1].start.clone(), f[1].nodes.clone()),
        (t(4), NodeSet::from_ids(&[2, 5, 6]))
    );
    assert_eq!(attempts(&r, 2)[0].outcome, Outcome::Stolen { by: 0 });
    assert_eq!(r.stats.steals, 1);
}

#[test]
fn t3_victim_completing_before_its_next_checkpoint() {
    // Runs of 5 < period 10: each job is 5 of work + its final checkpoint = 6. Node 0 fails at 3:
    // T3 waits for J2's next checkpoint, its last one, so J2 completes at 6 and J0 restarts then.
    let (w, res) = setup(&[2, 1, 1], 5);
    let r = go(&w, &res, fails(&[("3", 0)]), "H311");
    assert_eq!(r.stats.victims_completed, 1);
    assert_eq!(r.completion[2], t(6));
    let f = attempts(&r, 0);
    assert_eq!(
        (f[1].start.clone(), f[1].nodes.clone()),
        (t(6), NodeSet::from_ids(&[1, 3]))
    );
    // Restarted from scratch (two-node period 7.071 > 3) with recovery 1: 1 + 6 → 13.
    assert_eq!(r.completion[0], t(13));
}

#[test]
fn t2_one_node_failed_job_cannot_hold() {
    // J1 (node 2) fails at 3; V1 picks J2 (one node; J0 has two), K2: J2 submitted after J1;
    // under T2 a one-node failed job has no survivor to hold: stealing cancelled (7.2.1).
    let (w, res) = setup(&[2, 1, 1], 100);
    let r = go(&w, &res, fails(&[("3", 2)]), "H212");
    assert_eq!(r.failures[0].effect, Effect::NoSurvivor { job: 1 });
    // Under T1 the same failure steals J2's node at once.
    let r = go(&w, &res, fails(&[("3", 2)]), "H112");
    assert_eq!(r.failures[0].effect, Effect::Steal { job: 1, victim: 2 });
    assert_eq!(attempts(&r, 1)[1].nodes, NodeSet::single(3));
}

#[test]
fn free_node_restart_is_immediate_for_all() {
    // 5 nodes, J0 on 0-1, J1 on 2, J2 on 3; node 4 free. Node 0 fails at 3: J0 restarts at once
    // on node 1 and the free node 4, whatever the variant (Section 4.2).
    let (mut w, res) = setup(&[2, 1, 1], 100);
    w.nodes = 5;
    for v in ["baseline", "H111", "H223", "H313"] {
        let r = go(&w, &res, fails(&[("3", 0)]), v);
        assert_eq!(r.failures[0].effect, Effect::FreeNode { job: 0 }, "{v}");
        let f = attempts(&r, 0);
        assert_eq!(
            (f[1].start.clone(), f[1].nodes.clone()),
            (t(3), NodeSet::from_ids(&[1, 4])),
            "{v}"
        );
    }
}

#[test]
fn no_progress_is_an_error_not_a_hang() {
    // One job on all 4 nodes for 1000 without checkpoints, platform MTBF 1: it never completes.
    let w = Workload::new(
        4,
        vec![BatchJob {
            name: "big".into(),
            release: t(0),
            nodes: 4,
            run: t(1000),
            walltime: t(1000),
        }],
        "x",
    )
    .unwrap();
    let res = Resilience {
        downtime: t(0),
        checkpoint: t(0),
        recovery: t(0),
        mtbf_ind: Some(t(4)),
    };
    let e = simulate(
        &w,
        &res,
        FailureSource::poisson(3, &t(1), 4).unwrap(),
        Variant::Baseline,
    )
    .unwrap_err();
    assert!(e.to_string().contains("MTBF"), "{e}");
}
