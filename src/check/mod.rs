//! The invariant checker: decides whether a schedule is a feasible execution of an instance
//! under a failure scenario. It knows nothing of any algorithm, so it can judge any of them and
//! schedules made by other programs.
//!
//! Invariants (rigid paper Section 3; moldable paper Section 3.2):
//! 1. every attempt names an existing job, uses a processor count the job allows, and lasts
//!    exactly t_j(p) for that count;
//! 2. job j has exactly f_j + 1 attempts, numbered 1..=f_j+1 in start order (the last one is
//!    the successful one);
//! 3. attempts of one job never overlap: s^(i+1) ≥ s^(i) + t^(i);
//! 4. at every instant at most P processors are busy (an attempt occupies [s, s + t));
//! 5. node ids, where given, are distinct within an attempt, below P, and never shared by two
//!    attempts that overlap in time.
//!
//! # Cost
//! The oracle checks every schedule it certifies, millions of them in a campaign, so one check is
//! linear apart from one sort: each attempt's end is computed once; the attempts are grouped by
//! job with a counting sort (a job's group is sorted only if it is not already in start order);
//! capacity is one sweep over the starts in order (the attempts as given when they are in start
//! order, as the engine records them) merged with the sorted ends. When every
//! start and duration is a word-sized fraction whose denominators have a common multiple below
//! 2^63, the sweep compares exact integers on that common denominator instead of fractions, so
//! no gcd is taken per attempt; otherwise it compares [`Time`]s. Either way the verdict is exact
//! and a violation carries the exact times. [`Scratch`] keeps the buffers between checks.
pub mod reference;
pub mod tolerant;

use std::cmp::Ordering;

use crate::model::{Attempt, Instance, Scenario, Schedule};
use crate::time::Time;

pub use crate::violation::Violation;

/// Checks every invariant; returns the makespan of a feasible schedule.
pub fn check(inst: &Instance, scenario: &Scenario, schedule: &Schedule) -> Result<Time, Violation> {
    let mut scratch = Scratch::default();
    let last = verify(inst, scenario, schedule, &mut scratch)?;
    Ok(last.map_or_else(Time::zero, |i| schedule.attempts[i].end()))
}

/// [`check`] with reused buffers: the same result; `scratch` then holds what
/// [`completions_agree`] needs.
pub fn check_with(
    inst: &Instance,
    scenario: &Scenario,
    schedule: &Schedule,
    scratch: &mut Scratch,
) -> Result<Time, Violation> {
    let last = verify(inst, scenario, schedule, scratch)?;
    Ok(last.map_or_else(Time::zero, |i| schedule.attempts[i].end()))
}

/// After [`check_with`] accepted `schedule`: whether `claimed[j]` is the end of job j's last
/// attempt for every job (what a producer says its jobs completed at). Exact, and on the
/// integer grid of the sweep when it had one, so confirming n completions takes no gcd.
pub fn completions_agree(schedule: &Schedule, scratch: &Scratch, claimed: &[Time]) -> bool {
    let at = &schedule.attempts;
    claimed.len() == scratch.last_of_job.len()
        && scratch.last_of_job.iter().zip(claimed).all(|(&i, c)| {
            match (scratch.scale, c.as_small()) {
                // c = n/d (reduced) is a multiple of 1/D exactly when d divides D.
                (Some(d), Some(r)) => {
                    let k = *r.denom() as u64;
                    d % k == 0 && i128::from(*r.numer()) * i128::from(d / k) == scratch.end[i]
                }
                _ => at[i].end() == *c,
            }
        })
}

/// The checker's buffers, kept between checks so that checking many schedules allocates
/// nothing per attempt.
#[derive(Debug, Default)]
pub struct Scratch {
    /// Attempts grouped by job (a counting sort): job j's are `by_job[first[j]..first[j + 1]]`.
    first: Vec<usize>,
    by_job: Vec<usize>,
    /// The index of each job's last attempt in start order.
    last_of_job: Vec<usize>,
    /// Attempts in start order, when the schedule does not list them so.
    order: Vec<usize>,
    /// The common denominator D of the last check's integer sweep (`None`: it compared times).
    scale: Option<u64>,
    /// Starts and ends as integers on that denominator.
    start: Vec<i128>,
    end: Vec<i128>,
    /// The ends still to release in the capacity sweep, with their processor counts.
    ends: Vec<(i128, u32)>,
}

/// Checks every invariant in the documented order of the violations; returns the attempt that
/// ends last (`None` for an empty schedule) and fills `scratch.last_of_job`.
fn verify(
    inst: &Instance,
    scenario: &Scenario,
    schedule: &Schedule,
    scratch: &mut Scratch,
) -> Result<Option<usize>, Violation> {
    let n = inst.jobs.len();
    let name = |j: usize| inst.jobs[j].name.clone();
    let at = &schedule.attempts;
    let counts = &mut scratch.first;
    counts.clear();
    counts.resize(n + 1, 0);
    for (i, a) in at.iter().enumerate() {
        if a.job >= n {
            return Err(Violation::UnknownJob {
                attempt_index: i,
                job: a.job,
            });
        }
        let job = &inst.jobs[a.job];
        if a.start.is_negative() {
            return Err(Violation::NegativeStart {
                index: i,
                job: name(a.job),
                attempt: a.attempt,
                start: a.start.clone(),
            });
        }
        let Some(t) = job.time(a.procs) else {
            return Err(Violation::ProcsNotAllowed {
                index: i,
                job: name(a.job),
                attempt: a.attempt,
                procs: a.procs,
            });
        };
        if *t != a.duration {
            return Err(Violation::WrongDuration {
                index: i,
                job: name(a.job),
                attempt: a.attempt,
                expected: t.clone(),
                found: a.duration.clone(),
            });
        }
        counts[a.job + 1] += 1;
    }
    if scenario.failures.len() != n {
        return Err(Violation::ScenarioLength {
            jobs: n,
            failures: scenario.failures.len(),
        });
    }
    // Counting sort by job, each group in schedule order (what a stable sort by job gives).
    for j in 0..n {
        scratch.first[j + 1] += scratch.first[j];
    }
    scratch.by_job.clear();
    scratch.by_job.resize(at.len(), 0);
    scratch.order.clear();
    scratch.order.extend_from_slice(&scratch.first[..n]);
    for (i, a) in at.iter().enumerate() {
        let slot = &mut scratch.order[a.job];
        scratch.by_job[*slot] = i;
        *slot += 1;
    }
    scratch.scale = scaled(at, &mut scratch.start, &mut scratch.end);
    if scratch.scale.is_some() {
        let (start, end) = (
            std::mem::take(&mut scratch.start),
            std::mem::take(&mut scratch.end),
        );
        let mut ends = std::mem::take(&mut scratch.ends);
        let r = sweep(inst, scenario, schedule, &start, &end, scratch, &mut ends);
        scratch.start = start;
        scratch.end = end;
        scratch.ends = ends;
        r
    } else {
        let start: Vec<Time> = at.iter().map(|a| a.start.clone()).collect();
        let end: Vec<Time> = at.iter().map(Attempt::end).collect();
        sweep(
            inst,
            scenario,
            schedule,
            &start,
            &end,
            scratch,
            &mut Vec::new(),
        )
    }
}

/// Every start and end as an integer multiple of one common denominator D < 2^63 (so that
/// |n·(D/d)| < 2^126 and a start plus a duration < 2^127: exact in `i128`). False, with the
/// buffers unspecified, when a time is not word-sized or no such D exists.
fn scaled(at: &[Attempt], start: &mut Vec<i128>, end: &mut Vec<i128>) -> Option<u64> {
    let mut d: u64 = 1;
    for a in at {
        for t in [&a.start, &a.duration] {
            let r = t.as_small()?;
            let k = *r.denom() as u64;
            if d % k != 0 {
                match (d / gcd(d, k)).checked_mul(k) {
                    Some(l) if l <= i64::MAX as u64 => d = l,
                    _ => return None,
                }
            }
        }
    }
    let key = |t: &Time| {
        // unreachable: every time was found word-sized above
        let r = t.as_small().unwrap_or_default();
        i128::from(*r.numer()) * i128::from(d / *r.denom() as u64)
    };
    start.clear();
    end.clear();
    for a in at {
        let s = key(&a.start);
        start.push(s);
        end.push(s + key(&a.duration));
    }
    Some(d)
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Invariants 2–5 once each attempt's start and end are known as ordered keys (exact: equal
/// keys are equal times, and the keys order as the times do).
fn sweep<K: Ord + Clone>(
    inst: &Instance,
    scenario: &Scenario,
    schedule: &Schedule,
    start: &[K],
    end: &[K],
    scratch: &mut Scratch,
    ends: &mut Vec<(K, u32)>,
) -> Result<Option<usize>, Violation> {
    let at = &schedule.attempts;
    let name = |j: usize| inst.jobs[j].name.clone();
    let key = |x: usize, y: usize| {
        start[x]
            .cmp(&start[y])
            .then(at[x].attempt.cmp(&at[y].attempt))
    };
    scratch.last_of_job.clear();
    let mut latest: Option<usize> = None;
    for (j, &f) in scenario.failures.iter().enumerate() {
        let idx = &mut scratch.by_job[scratch.first[j]..scratch.first[j + 1]];
        let expected = f.saturating_add(1);
        if idx.len() as u64 != u64::from(expected) {
            return Err(Violation::AttemptCount {
                job: name(j),
                expected,
                found: idx.len() as u32,
            });
        }
        // A stable sort of a group already in order is the identity: skip it.
        if !idx.is_sorted_by(|&x, &y| key(x, y) != Ordering::Greater) {
            idx.sort_by(|&x, &y| key(x, y));
        }
        for (pos, &i) in idx.iter().enumerate() {
            if at[i].attempt != pos as u32 + 1 {
                return Err(Violation::AttemptNumbering {
                    index: i,
                    job: name(j),
                    position: pos as u32 + 1,
                    found: at[i].attempt,
                });
            }
            if pos > 0 && start[i] < end[idx[pos - 1]] {
                return Err(Violation::Overlap {
                    index: i,
                    job: name(j),
                    attempt: at[i].attempt,
                    start: at[i].start.clone(),
                    previous_end: at[idx[pos - 1]].end(),
                });
            }
        }
        // Every job has f_j + 1 ≥ 1 attempts (checked above).
        let last = idx[idx.len() - 1];
        scratch.last_of_job.push(last);
        if latest.is_none_or(|k| end[last] > end[k]) {
            latest = Some(last);
        }
    }
    if at
        .iter()
        .zip(start.iter().zip(end))
        .any(|(_, (s, e))| e < s)
    {
        // Only an instance with a negative time (never a validated one) gets here.
        check_capacity_sorted(inst.procs, schedule)?;
    } else {
        let order: &[usize] = if start.is_sorted() {
            &[]
        } else {
            scratch.order.clear();
            scratch.order.extend(0..at.len());
            scratch.order.sort_by(|&x, &y| start[x].cmp(&start[y]));
            &scratch.order
        };
        capacity(inst.procs, schedule, start, end, order, ends)?;
    }
    check_nodes(inst, schedule)?;
    Ok(latest)
}

/// Invariant 4 by one sweep over the starts in order (`order`, or the schedule's own order when
/// `order` is empty) merged with the sorted ends: before each start, every attempt that ends at
/// or before it is released (an attempt occupies [s, e)); attempts of zero duration occupy
/// nothing. Only the sums matter at an instant, so ends sort without a tie-break.
// The index runs over the schedule or over `order`, whichever gives the start order.
#[allow(clippy::needless_range_loop)]
fn capacity<K: Ord + Clone>(
    procs: u32,
    schedule: &Schedule,
    start: &[K],
    end: &[K],
    order: &[usize],
    ends: &mut Vec<(K, u32)>,
) -> Result<(), Violation> {
    let at = &schedule.attempts;
    ends.clear();
    ends.extend(
        at.iter()
            .zip(start.iter().zip(end))
            .filter(|(_, (s, e))| s != e)
            .map(|(a, (_, e))| (e.clone(), a.procs)),
    );
    ends.sort_unstable_by(|x, y| x.0.cmp(&y.0));
    let mut released = ends.iter().peekable();
    let mut used: u64 = 0;
    let in_order = order.is_empty();
    for k in 0..at.len() {
        let i = if in_order { k } else { order[k] };
        if start[i] == end[i] {
            continue;
        }
        while let Some((_, p)) = released.next_if(|(e, _)| *e <= start[i]) {
            used -= u64::from(*p);
        }
        used += u64::from(at[i].procs);
        if used > u64::from(procs) {
            return Err(Violation::Capacity {
                index: i,
                time: at[i].start.clone(),
                used,
                capacity: procs,
            });
        }
    }
    Ok(())
}

/// Sweep over start/end events; at equal instants ends come first (an attempt occupies [s, e)).
fn check_capacity_sorted(procs: u32, schedule: &Schedule) -> Result<(), Violation> {
    let mut events: Vec<(Time, bool, u32, usize)> = Vec::with_capacity(2 * schedule.attempts.len());
    for (i, a) in schedule.attempts.iter().enumerate() {
        if a.duration.is_zero() {
            continue;
        }
        events.push((a.start.clone(), true, a.procs, i));
        events.push((a.end(), false, a.procs, i));
    }
    // false (end) sorts before true (start) at the same instant.
    events.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.cmp(&y.1)));
    let mut used: u64 = 0;
    for (t, is_start, p, index) in events {
        if is_start {
            used += u64::from(p);
            if used > u64::from(procs) {
                return Err(Violation::Capacity {
                    index,
                    time: t,
                    used,
                    capacity: procs,
                });
            }
        } else {
            used -= u64::from(p);
        }
    }
    Ok(())
}

fn check_nodes(inst: &Instance, schedule: &Schedule) -> Result<(), Violation> {
    let mut by_node: Vec<Vec<(Time, Time, usize)>> = Vec::new();
    for (i, a) in schedule.attempts.iter().enumerate() {
        let Some(nodes) = &a.nodes else { continue };
        let bad = |msg: String| Violation::BadNodes {
            index: i,
            job: inst.jobs[a.job].name.clone(),
            attempt: a.attempt,
            msg,
        };
        if nodes.len() != a.procs as usize {
            return Err(bad(format!(
                "{} node ids for {} processors",
                nodes.len(),
                a.procs
            )));
        }
        let mut sorted = nodes.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(bad(format!("node {} listed twice", w[0])));
        }
        if let Some(&v) = sorted.last().filter(|&&v| v >= inst.procs) {
            return Err(bad(format!("node {v} ≥ P = {}", inst.procs)));
        }
        if by_node.is_empty() {
            by_node = vec![Vec::new(); inst.procs as usize];
        }
        for &v in nodes {
            by_node[v as usize].push((a.start.clone(), a.end(), i));
        }
    }
    let label = |i: usize| {
        let a = &schedule.attempts[i];
        format!(
            "attempts[{i}] (job {} attempt {})",
            inst.jobs[a.job].name, a.attempt
        )
    };
    for (v, ivs) in by_node.iter_mut().enumerate() {
        ivs.sort();
        for w in ivs.windows(2) {
            if w[1].0 < w[0].1 {
                return Err(Violation::NodeShared {
                    node: v as u32,
                    time: w[1].0.clone(),
                    first: label(w[0].2),
                    second: label(w[1].2),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Attempt;

    fn t(n: i64) -> Time {
        Time::from_int(n)
    }

    fn att(job: usize, attempt: u32, start: i64, procs: u32, dur: i64) -> Attempt {
        Attempt {
            job,
            attempt,
            start: t(start),
            procs,
            duration: t(dur),
            nodes: None,
        }
    }

    #[test]
    fn each_invariant_is_caught() {
        let inst = Instance::rigid(3, &[(2, t(2)), (2, t(3))]).unwrap();
        let sc = Scenario::new(vec![1, 0]);
        let ok = Schedule {
            attempts: vec![att(0, 1, 0, 2, 2), att(1, 1, 4, 2, 3), att(0, 2, 2, 2, 2)],
            ..Default::default()
        };
        assert_eq!(check(&inst, &sc, &ok), Ok(t(7)));
        let mut s = ok.clone();
        s.attempts[2].start = t(1);
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::Overlap { .. })
        ));
        let mut s = ok.clone();
        s.attempts[1].start = t(1);
        assert!(
            matches!(check(&inst, &sc, &s), Err(Violation::Capacity { .. })),
            "{:?}",
            check(&inst, &sc, &s)
        );
        let mut s = ok.clone();
        s.attempts.pop();
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::AttemptCount { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].duration = t(1);
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::WrongDuration { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].procs = 1;
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::ProcsNotAllowed { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].attempt = 2;
        s.attempts[2].attempt = 1;
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::AttemptNumbering { .. })
        ));
        let mut s = ok.clone();
        s.attempts[0].job = 7;
        assert!(matches!(
            check(&inst, &sc, &s),
            Err(Violation::UnknownJob { .. })
        ));
        let _ = ok;
        let inst = Instance::rigid(3, &[(1, t(2)), (1, t(2))]).unwrap();
        let mut s = Schedule {
            attempts: vec![att(0, 1, 0, 1, 2), att(1, 1, 1, 1, 2)],
            ..Default::default()
        };
        s.attempts[0].nodes = Some(vec![0]);
        s.attempts[1].nodes = Some(vec![0]);
        assert!(matches!(
            check(&inst, &Scenario::none(2), &s),
            Err(Violation::NodeShared { node: 0, .. })
        ));
        s.attempts[1].nodes = Some(vec![3]);
        assert!(matches!(
            check(&inst, &Scenario::none(2), &s),
            Err(Violation::BadNodes { .. })
        ));
        s.attempts[1].nodes = Some(vec![1]);
        assert!(check(&inst, &Scenario::none(2), &s).is_ok());
    }

    /// The checker against the independent brute-force one ([`reference::feasible`]) on
    /// schedules of GREEDY and EASY over random rigid instances, then mutated (a start,
    /// duration, count, job or number changed, an attempt dropped, duplicated or moved, the list
    /// reversed): the same verdict and the same makespan, [`check_with`] the same result as
    /// [`check`], and the completions the engine's schedule implies. Times on a decimal grid take
    /// the integer sweep; denominators 2^40 and 3^30 (no common one below 2^63) the exact one.
    #[test]
    fn same_verdict_as_the_reference_checker() {
        use crate::oracle::{certify, AlgoSpec};
        use rand::{RngExt, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut seen = [0u32; 2];
        for seed in 0..400u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let den: i64 = match seed % 4 {
                0 => 1,
                1 => 100,
                2 => 1 << 40,
                _ => 205_891_132_094_649, // 3^30
            };
            let procs = rng.random_range(1..=8u32);
            // With 3^30, every other job on 2^40: the exact sweep.
            let jobs: Vec<(u32, Time)> = (0..rng.random_range(2..=7))
                .map(|k| {
                    let d = if seed % 4 == 3 && k % 2 == 1 {
                        1 << 40
                    } else {
                        den
                    };
                    let num = rng.random_range(1..=4 * d);
                    let t = Time::new(num, d).unwrap_or_else(|| panic!("seed {seed}"));
                    (rng.random_range(1..=procs), t)
                })
                .collect();
            let inst = Instance::rigid(procs, &jobs).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let sc = Scenario::new((0..jobs.len()).map(|_| rng.random_range(0..3)).collect());
            let algo = if seed % 2 == 0 { "greedy" } else { "easy" };
            let c = certify(&AlgoSpec::new(algo), &inst, &sc)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let mut scratch = Scratch::default();
            let got = check_with(&inst, &sc, &c.schedule, &mut scratch)
                .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
            assert_eq!(scratch.scale.is_none(), seed % 4 == 3, "seed {seed}");
            assert_eq!(got, c.makespan, "seed {seed}");
            assert!(
                completions_agree(&c.schedule, &scratch, &c.completions),
                "seed {seed}"
            );
            let mut off = c.completions.clone();
            off[0] = &off[0] + &Time::new(1, 3 * den).unwrap_or_default();
            assert!(
                !completions_agree(&c.schedule, &scratch, &off),
                "seed {seed}"
            );
            off[0] = &c.completions[0] + &Time::from_int(1);
            assert!(
                !completions_agree(&c.schedule, &scratch, &off),
                "seed {seed}"
            );
            for round in 0..12 {
                let mut s = c.schedule.clone();
                let n = s.attempts.len();
                let i = rng.random_range(0..n);
                let step = Time::new(rng.random_range(-3..=3) * den / 2 + 1, den)
                    .unwrap_or_else(|| panic!("seed {seed}"));
                match rng.random_range(0..9) {
                    0 => s.attempts[i].start = &s.attempts[i].start + &step,
                    1 => s.attempts[i].duration = &s.attempts[i].duration + &step,
                    2 => s.attempts[i].procs = rng.random_range(0..=procs + 1),
                    3 => s.attempts[i].job = rng.random_range(0..=jobs.len()),
                    4 => s.attempts[i].attempt = rng.random_range(0..=3),
                    5 => {
                        s.attempts.remove(i);
                    }
                    6 => s.attempts.push(s.attempts[i].clone()),
                    7 => {
                        let a = s.attempts.remove(i);
                        s.attempts.insert(rng.random_range(0..n), a);
                    }
                    _ => s.attempts.reverse(),
                }
                let want = reference::feasible(&inst, &sc, &s);
                let fast = check(&inst, &sc, &s);
                assert_eq!(
                    fast.clone().ok(),
                    want,
                    "seed {seed} round {round}: {}",
                    s.to_json()
                );
                let with = check_with(&inst, &sc, &s, &mut scratch);
                assert_eq!(with, fast, "seed {seed} round {round}");
                seen[usize::from(want.is_some())] += 1;
            }
        }
        // Both verdicts are exercised.
        assert!(seen[0] > 1000 && seen[1] > 300, "{seen:?}");
    }

    #[test]
    fn back_to_back_is_allowed() {
        let inst = Instance::rigid(2, &[(2, t(1)), (2, t(1))]).unwrap();
        let s = Schedule {
            attempts: vec![att(0, 1, 0, 2, 1), att(1, 1, 1, 2, 1)],
            ..Default::default()
        };
        assert_eq!(check(&inst, &Scenario::none(2), &s), Ok(t(2)));
    }
}
