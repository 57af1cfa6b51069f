//! A second checker, written independently of [`super::check`] and as plainly as possible, for
//! differential testing of the first (the fuzz target `verify_schedule`,
//! `tests/checker_reference.rs` and the checker's unit test of its integer and exact sweeps
//! hold both to the same verdict and makespan on mutated schedules). It decides the same invariants (module doc of [`crate::check`]) by brute force:
//! capacity is summed at every attempt's start over every attempt running then (O(n²)), and the
//! attempts of a job are compared pairwise. Never used to judge a result: it is the judge's judge.
use crate::model::{Instance, Scenario, Schedule};
use crate::time::Time;

/// `Some(makespan)` if the schedule is a feasible execution of `inst` under `scenario`, else
/// `None`. Only the verdict matters here; [`super::check`] says which invariant broke.
pub fn feasible(inst: &Instance, scenario: &Scenario, schedule: &Schedule) -> Option<Time> {
    let at = &schedule.attempts;
    let n = inst.jobs.len();
    if scenario.failures.len() != n {
        return None;
    }
    // Each attempt alone: a real job, a start ≥ 0, an allowed count, the exact duration.
    for a in at {
        let job = inst.jobs.get(a.job)?;
        if a.start.is_negative() || job.time(a.procs)? != &a.duration {
            return None;
        }
    }
    // Each job: f_j + 1 attempts, numbered 1..=f_j+1 in start order, pairwise disjoint.
    for (j, &f) in scenario.failures.iter().enumerate() {
        let mine: Vec<_> = at.iter().filter(|a| a.job == j).collect();
        if mine.len() as u64 != u64::from(f) + 1 {
            return None;
        }
        for k in 1..=f + 1 {
            if mine.iter().filter(|a| a.attempt == k).count() != 1 {
                return None;
            }
        }
        for x in &mine {
            for y in &mine {
                let earlier = x.attempt < y.attempt;
                // A later attempt starts no sooner than an earlier one ends.
                if earlier && y.start < x.end() {
                    return None;
                }
            }
        }
    }
    // Capacity: the busy processors can only rise at a start, so the starts are the instants
    // to check; an attempt occupies [start, end).
    for s in at.iter().map(|a| &a.start) {
        let busy: u64 = at
            .iter()
            .filter(|b| b.start <= *s && *s < b.end())
            .map(|b| u64::from(b.procs))
            .sum();
        if busy > u64::from(inst.procs) {
            return None;
        }
    }
    if !nodes_ok(inst, schedule) {
        return None;
    }
    // default: a job with no attempt has been reported above; an empty list ends at 0
    Some(at.iter().map(|a| a.end()).max().unwrap_or_default())
}

/// Node ids: as many as processors, distinct, below P, and no node in two attempts whose
/// intervals intersect.
fn nodes_ok(inst: &Instance, schedule: &Schedule) -> bool {
    let at = &schedule.attempts;
    for (i, a) in at.iter().enumerate() {
        let Some(nodes) = &a.nodes else { continue };
        if nodes.len() != a.procs as usize || nodes.iter().any(|&v| v >= inst.procs) {
            return false;
        }
        for (x, v) in nodes.iter().enumerate() {
            if nodes[..x].contains(v) {
                return false;
            }
        }
        for b in &at[..i] {
            let Some(other) = &b.nodes else { continue };
            let intersect = a.start < b.end() && b.start < a.end();
            if intersect && nodes.iter().any(|v| other.contains(v)) {
                return false;
            }
        }
    }
    true
}

/// One mutation of a schedule, drawn from `u`: shift an attempt's start, change its processor
/// count, its duration, its job or its number, drop or duplicate an attempt, swap two
/// attempts' starts, or give it node ids. Feasible schedules (an algorithm's) become
/// near-misses that both checkers must judge alike.
#[cfg(feature = "arbitrary")]
pub fn mutate(
    schedule: &mut Schedule,
    u: &mut arbitrary::Unstructured<'_>,
) -> arbitrary::Result<()> {
    let n = schedule.attempts.len();
    if n == 0 {
        return Ok(());
    }
    let i = u.choose_index(n)?;
    let small = |u: &mut arbitrary::Unstructured<'_>| -> arbitrary::Result<Time> {
        let num: i64 = u.int_in_range(-6..=6)?;
        let den: i64 = u.int_in_range(1..=4)?;
        // unreachable: the denominator is drawn from 1..=4, never zero
        Ok(Time::new(num, den).unwrap_or_default())
    };
    let kind: u8 = u.int_in_range(0..=8)?;
    let a = &mut schedule.attempts[i];
    match kind {
        0 => a.start = &a.start + &small(u)?,
        1 => a.procs = u.int_in_range(0..=a.procs.saturating_add(2))?,
        2 => a.duration = &a.duration + &small(u)?,
        3 => a.job = u.int_in_range(0..=a.job.saturating_add(1))?,
        4 => a.attempt = u.int_in_range(0..=a.attempt.saturating_add(1))?,
        5 => {
            schedule.attempts.remove(i);
        }
        6 => {
            let copy = a.clone();
            schedule.attempts.push(copy);
        }
        7 => {
            let k = u.choose_index(n)?;
            let s = schedule.attempts[k].start.clone();
            schedule.attempts[k].start = schedule.attempts[i].start.clone();
            schedule.attempts[i].start = s;
        }
        _ => {
            let ids = (0..a.procs)
                .map(|_| u.int_in_range(0..=a.procs.saturating_add(1)))
                .collect::<arbitrary::Result<Vec<u32>>>()?;
            a.nodes = Some(ids);
        }
    }
    Ok(())
}
