//! The node-stealing checker catches broken runs: each test takes a correct run (Section 3's toy
//! example, or a checkpointed scenario with a hold), breaks one record, and expects the
//! invariant it breaks to be named. The other stealing tests only feed the checker correct runs.
use resched::stealing::check::check;
use resched::stealing::examples::{toy_failures, toy_resilience, toy_workload};
use resched::stealing::nodes::NodeSet;
use resched::stealing::sim::{Cause, Effect, Run};
use resched::stealing::{simulate, Variant};
use resched::Time;

fn sfsj() -> Run {
    simulate(
        &toy_workload(),
        &toy_resilience(),
        toy_failures(),
        Variant::SFSJ,
    )
    .unwrap()
}

/// Breaks a copy of the SFSJ toy run with `edit` and returns the violated rule and message.
fn broken(edit: impl FnOnce(&mut Run)) -> (&'static str, String) {
    let mut run = sfsj();
    check(&toy_workload(), &toy_resilience(), &run, None).expect("the unbroken run passes");
    edit(&mut run);
    let e = check(&toy_workload(), &toy_resilience(), &run, None)
        .expect_err("the broken run must be refused");
    (e.rule, e.msg)
}

#[test]
fn a_job_that_differs_from_the_workload() {
    let (rule, msg) = broken(|r| r.jobs[1].release = Time::one());
    assert_eq!(rule, "jobs", "{msg}");
    let (rule, msg) = broken(|r| r.jobs[2].wall_len = Time::from_int(11));
    assert_eq!(rule, "jobs", "{msg}");
    assert!(msg.contains("Eq. (1)-(2)"), "{msg}");
    let (rule, _) = broken(|r| r.nodes = 9);
    assert_eq!(rule, "jobs");
}

#[test]
fn a_failure_with_the_wrong_effect() {
    let (rule, msg) = broken(|r| r.failures[0].effect = Effect::AlreadyDown);
    assert_eq!(rule, "failures", "{msg}");
    let (rule, msg) = broken(|r| r.failures[0].node = 8);
    assert_eq!(rule, "failures", "{msg}");
}

#[test]
fn attempts_that_do_not_chain() {
    let (rule, msg) = broken(|r| r.attempts[0].index = 2);
    assert_eq!(rule, "attempts", "{msg}");
    let (rule, msg) = broken(|r| {
        let last = r.attempts.len() - 1;
        r.attempts[last].end = &r.attempts[last].end + &Time::one();
    });
    assert_eq!(rule, "attempts", "{msg}");
    let (rule, msg) = broken(|r| r.completion[0] = Time::from_int(9));
    assert_eq!(rule, "attempts", "{msg}");
    assert!(msg.contains("completion inconsistent"), "{msg}");
    let (rule, msg) = broken(|r| {
        // J3's restart after its failure, claimed to follow a steal.
        let a = r
            .attempts
            .iter_mut()
            .find(|a| a.job == 2 && a.index == 2)
            .unwrap();
        a.cause = Cause::AfterSteal;
    });
    assert_eq!(rule, "attempts", "{msg}");
    assert!(msg.contains("does not continue"), "{msg}");
    let (rule, msg) = broken(|r| r.attempts.retain(|a| a.job != 4));
    assert_eq!(rule, "attempts", "{msg}");
    assert!(msg.contains("never ran"), "{msg}");
}

#[test]
fn nodes_shared_or_down() {
    // J1 (node 0, [0, 8)) and J2 (node 1) at once on node 0.
    let (rule, msg) = broken(|r| {
        let a = r.attempts.iter_mut().find(|a| a.job == 1).unwrap();
        a.nodes = NodeSet::single(0);
    });
    assert_eq!(rule, "nodes", "{msg}");
    assert!(msg.contains("uses a node of"), "{msg}");
    // A job that runs on the struck node while it is down.
    let (rule, msg) = broken(|r| {
        let a = r.attempts.iter_mut().find(|a| a.job == 0).unwrap();
        a.nodes = NodeSet::single(2);
    });
    assert_eq!(rule, "nodes", "{msg}");
    // A job with the wrong node count.
    let (rule, msg) = broken(|r| r.attempts[0].nodes = NodeSet::range(0, 2));
    assert_eq!(rule, "nodes", "{msg}");
}
