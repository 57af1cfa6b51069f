//! Invariant 3 of the checker (node-stealing paper, Sections 5.2 and 7.2): the attempts of each
//! job are numbered 1, 2, … in time; none starts before the release or before the previous one
//! ends; the first starts at position 0 without recovery; each next one starts where the
//! previous kept, with recovery R after a failure or a steal and none after a resumed
//! checkpoint; durations decompose exactly (recovery + progress + proactive checkpoint); a
//! failed attempt keeps exactly its last checkpoint and ends when a failure strikes one of its
//! nodes; an interrupted one keeps a checkpoint it completed or proactively took; the last
//! attempt completes the whole timeline at the job's completion time.
use super::failures::Downs;
use super::jobs::Grid;
use super::{v, Violation};
use crate::stealing::model::{BatchJob, Resilience, Workload};
use crate::stealing::sim::{AttemptRecord, Cause, Outcome, Run};
use crate::time::Time;

/// Checks the attempts of every job.
pub(super) fn check_all(
    w: &Workload,
    res: &Resilience,
    run: &Run,
    grids: &[Grid],
    downs: &Downs,
) -> Result<(), Violation> {
    let mut by_job: Vec<Vec<usize>> = vec![Vec::new(); w.jobs.len()];
    for (k, a) in run.attempts.iter().enumerate() {
        if a.job >= w.jobs.len() {
            return Err(v("attempts", format!("attempt {k} names job {}", a.job)));
        }
        by_job[a.job].push(k);
    }
    for (j, list) in by_job.iter_mut().enumerate() {
        list.sort_by_key(|&k| run.attempts[k].index);
        let chain: Vec<&AttemptRecord> = list.iter().map(|&k| &run.attempts[k]).collect();
        check_chain(w, res, run, j, &chain, &grids[j], downs)?;
    }
    Ok(())
}

/// "job NAME attempt K", the subject of every message.
fn at(job: &BatchJob, a: &AttemptRecord) -> String {
    format!("job {} attempt {}", job.name, a.index)
}

/// The attempts of job `j`, in index order.
fn check_chain(
    w: &Workload,
    res: &Resilience,
    run: &Run,
    j: usize,
    chain: &[&AttemptRecord],
    g: &Grid,
    downs: &Downs,
) -> Result<(), Violation> {
    let job = &w.jobs[j];
    if chain.is_empty() {
        return Err(v("attempts", format!("job {} never ran", job.name)));
    }
    for (pos, a) in chain.iter().enumerate() {
        check_shape(job, w.nodes, pos, a, g)?;
        match pos.checked_sub(1) {
            None => check_first(job, a)?,
            Some(prev) => check_continues(job, res, chain[prev], a)?,
        }
        check_kept(job, a, g, downs)?;
        let last = pos + 1 == chain.len();
        if a.outcome == Outcome::Completed && (!last || run.completion[j] != a.end) {
            return Err(v(
                "attempts",
                format!("{}: completion inconsistent", at(job, a)),
            ));
        }
        if last && a.outcome != Outcome::Completed {
            return Err(v("attempts", format!("job {} never completes", job.name)));
        }
    }
    Ok(())
}

/// One attempt on its own: numbering, nodes, times, positions, recovery and duration.
fn check_shape(
    job: &BatchJob,
    n: u32,
    pos: usize,
    a: &AttemptRecord,
    g: &Grid,
) -> Result<(), Violation> {
    if a.index as usize != pos + 1 {
        return Err(v(
            "attempts",
            format!("{}: numbered out of sequence", at(job, a)),
        ));
    }
    if a.nodes.len() != job.nodes || a.nodes.ranges().last().is_some_and(|r| r.1 > n) {
        return Err(v(
            "nodes",
            format!(
                "{}: {} nodes {}, the job has {}",
                at(job, a),
                a.nodes.len(),
                a.nodes,
                job.nodes
            ),
        ));
    }
    if a.start < job.release || a.end < a.start {
        return Err(v(
            "attempts",
            format!(
                "{}: [{}, {}) before release {}",
                at(job, a),
                a.start,
                a.end,
                job.release
            ),
        ));
    }
    if !(a.pos_start <= a.commit && a.commit <= a.reached && a.reached <= g.len) {
        return Err(v(
            "attempts",
            format!(
                "{}: positions {} ≤ {} ≤ {} ≤ {} broken",
                at(job, a),
                a.pos_start,
                a.commit,
                a.reached,
                g.len
            ),
        ));
    }
    check_duration(job, a)
}

/// Recovery before progress, and the duration is recovery + progress + proactive checkpoint.
fn check_duration(job: &BatchJob, a: &AttemptRecord) -> Result<(), Violation> {
    if a.recovery_done > a.recovery
        || (a.recovery_done < a.recovery && (a.reached != a.pos_start || a.extra.is_positive()))
    {
        return Err(v(
            "attempts",
            format!("{}: progress before the end of the recovery", at(job, a)),
        ));
    }
    let dur = &(&a.recovery_done + &(&a.reached - &a.pos_start)) + &a.extra;
    if &a.end - &a.start != dur {
        return Err(v(
            "attempts",
            format!(
                "{}: lasts {}, its parts sum to {dur}",
                at(job, a),
                &a.end - &a.start
            ),
        ));
    }
    Ok(())
}

/// The first attempt starts from scratch without recovery.
fn check_first(job: &BatchJob, a: &AttemptRecord) -> Result<(), Violation> {
    if a.cause != Cause::First || a.recovery.is_positive() || a.pos_start.is_positive() {
        return Err(v(
            "attempts",
            format!(
                "{}: the first attempt starts from scratch without recovery",
                at(job, a)
            ),
        ));
    }
    Ok(())
}

/// `a` continues `p` (the previous attempt): cause, recovery, position and start.
fn check_continues(
    job: &BatchJob,
    res: &Resilience,
    p: &AttemptRecord,
    a: &AttemptRecord,
) -> Result<(), Violation> {
    let (cause, rec) = match p.outcome {
        Outcome::Failed { .. } => (Cause::AfterFailure, res.recovery.clone()),
        Outcome::Stolen { .. } => (Cause::AfterSteal, res.recovery.clone()),
        Outcome::Checkpointed => (Cause::Resume, Time::zero()),
        Outcome::Completed => {
            return Err(v(
                "attempts",
                format!("{}: runs after completion", at(job, a)),
            ))
        }
    };
    if a.cause != cause || a.recovery != rec || a.pos_start != p.commit || a.start < p.end {
        return Err(v("attempts", format!("{}: does not continue attempt {} (cause {:?}, recovery {}, from {} vs kept {}, start {} vs end {})", at(job, a), p.index, a.cause, a.recovery, a.pos_start, p.commit, a.start, p.end)));
    }
    if cause == Cause::Resume && (a.start != p.end || a.nodes != p.nodes) {
        return Err(v(
            "attempts",
            format!(
                "{}: a resumed attempt continues at once on the same nodes",
                at(job, a)
            ),
        ));
    }
    Ok(())
}

/// What the attempt keeps, by how it ended.
fn check_kept(job: &BatchJob, a: &AttemptRecord, g: &Grid, downs: &Downs) -> Result<(), Violation> {
    let floor_keep = g.last(&a.reached).max(a.pos_start.clone());
    match a.outcome {
        Outcome::Completed => {
            if a.reached != g.len || a.commit != g.len || a.extra.is_positive() {
                return Err(v(
                    "attempts",
                    format!("{}: completes without finishing its timeline", at(job, a)),
                ));
            }
        }
        Outcome::Failed { node } => {
            if !a.nodes.contains(node) || !downs.effective.contains(&(a.end.clone(), node)) {
                return Err(v(
                    "nodes",
                    format!(
                        "{}: ends by a failure of node {node} at {} that did not happen there",
                        at(job, a),
                        a.end
                    ),
                ));
            }
            if a.commit != floor_keep {
                return Err(v(
                    "attempts",
                    format!(
                        "{}: keeps {}, its last checkpoint is {floor_keep}",
                        at(job, a),
                        a.commit
                    ),
                ));
            }
        }
        Outcome::Stolen { .. } | Outcome::Checkpointed => {
            let proactive = a.extra == g.c && a.commit == a.reached;
            let waited = !a.extra.is_positive()
                && a.commit == a.reached
                && (g.is_completion(&a.reached) || a.reached == a.pos_start);
            let rolled = !a.extra.is_positive()
                && a.commit == floor_keep
                && matches!(a.outcome, Outcome::Stolen { .. });
            if !(proactive || waited || rolled) {
                return Err(v(
                    "attempts",
                    format!(
                        "{}: interrupted keeping {} at position {} (extra {})",
                        at(job, a),
                        a.commit,
                        a.reached,
                        a.extra
                    ),
                ));
            }
        }
    }
    Ok(())
}
