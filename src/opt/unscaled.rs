//! The optimum of an instance whose times do not scale to the integer model (their common
//! denominator pushes the scaled horizon past even [`super::wide::max_horizon`]: a moldable job
//! on 100 processors under Amdahl's model alone has times over lcm(1..100) ≈ 7·10^40): bound
//! proofs in exact time, with no scaling at all. [`super::solve`] also runs them before the
//! 128-bit search, which they seed.
//!
//! A schedule whose makespan meets a lower bound on T_OPT(f) is optimal. The bounds, exact:
//! - L′(J,f) = max(t′_max, A′/P) of the moldable paper (Section 5.1;
//!   [`crate::bounds::moldable::lprime`]), the rigid paper's L(f) (Section 3.3, Eqs. 5–6) on a
//!   rigid instance. For a single job it is (f+1)·min_p t(p), which the job's attempts back to
//!   back on its fastest count reach: that is the optimum of a single job.
//! - L*(J,f) = min_p L(J,f,p) over every per-attempt allocation
//!   ([`crate::bounds::moldable::lstar_exact`]) where its Pareto sets stay small.
//!
//! The candidate schedules are greedy list schedules in exact time (at every event, the idle
//! jobs in order of their remaining chain, longest first, start their next attempt when its
//! processors are free) under a few allotments: every job's least-area count, its least-time
//! count, for each c = ⌊P/m⌋ every job on its largest Pareto count ≤ c (m jobs side by side:
//! the allotments that meet L′ on identical jobs), and — when none meets L′ — L*'s allotment
//! (which meets L* = OPT on the area+chain family of the ledger). Every schedule passes
//! [`crate::check::check`] before it is compared.
//!
//! When no candidate meets the bound, the best one is returned as [`super::Status::Feasible`]
//! with the bound: the gap is stated, the question is not refused.
use crate::bounds::moldable::{frontier, lprime, lstar_exact};
use crate::error::{Error, Result};
use crate::model::{Attempt, Instance, Scenario, Schedule};
use crate::time::Time;
use std::time::Instant;

/// Pareto points of one job's chain that [`lstar_exact`] may keep before it gives up (L′ alone
/// is then the bound).
pub const LSTAR_POINTS: usize = 1024;

/// Most chain points [`lstar_exact`] may generate in all (each an exact sum), estimated by
/// `lstar_work`; beyond it L′ alone is the bound.
pub const LSTAR_WORK: u64 = 1 << 20;

/// An upper estimate of the chain points [`lstar_exact`] generates: per job and attempt after
/// the first, the points kept (≤ [`LSTAR_POINTS`]) times the frontier's size.
fn lstar_work(inst: &Instance, sc: &Scenario) -> u64 {
    let mut work: u64 = 0;
    for (j, &f) in sc.failures.iter().enumerate() {
        let fr = frontier(inst, j).len() as u64;
        let mut kept = fr;
        work = work.saturating_add(fr);
        for _ in 0..f {
            work = work.saturating_add(kept.saturating_mul(fr));
            kept = kept.saturating_mul(fr).min(LSTAR_POINTS as u64);
        }
    }
    work
}

/// Most allotments tried (the uniform ones beyond it are skipped).
pub const MAX_ALLOTMENTS: usize = 256;

/// What [`solve`] proves: the best checked schedule, its makespan and the exact lower bound.
#[derive(Debug, Clone)]
pub struct Answer {
    pub schedule: Schedule,
    pub makespan: Time,
    pub lower_bound: Time,
    /// How many allotments were list-scheduled.
    pub allotments: usize,
}

impl Answer {
    /// True when the schedule meets the bound.
    pub fn optimal(&self) -> bool {
        self.makespan <= self.lower_bound
    }
}

/// Bounds and list schedules in exact time (see the module documentation). L′ first, against
/// the allotments that need no bound; only when none meets it, L* (the costlier bound) and its
/// own allotment. Stops trying uniform allotments at `deadline` (after the first two).
pub fn solve(inst: &Instance, sc: &Scenario, deadline: Option<Instant>) -> Result<Answer> {
    let mut lower = lprime(inst, sc)?.lower;
    let mut best: Option<(Schedule, Time)> = None;
    let mut tried = 0;
    for (i, alloc) in allotments(inst, sc).iter().enumerate() {
        if i >= 2 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        tried += 1;
        keep_better(&mut best, inst, sc, alloc)?;
        if best.as_ref().is_some_and(|(_, b)| *b <= lower) {
            break;
        }
    }
    let met = best.as_ref().is_some_and(|(_, b)| *b <= lower);
    if !met && lstar_work(inst, sc) <= LSTAR_WORK {
        if let Some((l, alloc)) = lstar_exact(inst, sc, LSTAR_POINTS) {
            lower = lower.max(l);
            tried += 1;
            keep_better(&mut best, inst, sc, &alloc)?;
        }
    }
    let Some((schedule, makespan)) = best else {
        return Err(Error::Solver(
            "no allotment to list-schedule; this is a bug".into(),
        ));
    };
    Ok(Answer {
        schedule,
        makespan,
        lower_bound: lower,
        allotments: tried,
    })
}

/// List-schedules `alloc`, checks the schedule, and keeps it in `best` when it is shorter.
fn keep_better(
    best: &mut Option<(Schedule, Time)>,
    inst: &Instance,
    sc: &Scenario,
    alloc: &[Vec<u32>],
) -> Result<()> {
    let schedule = list_schedule(inst, alloc)?;
    let m = crate::check::check(inst, sc, &schedule).map_err(|v| {
        Error::Solver(format!(
            "the exact-time list schedule is infeasible ({v}); this is a bug"
        ))
    })?;
    if best.as_ref().is_none_or(|(_, b)| m < *b) {
        *best = Some((schedule, m));
    }
    Ok(())
}

/// The allotments tried before L*, each a processor count per attempt of every job: least area,
/// least time, then the uniform ones of c = ⌊P/m⌋, m = 1, 2, … (distinct, at most
/// [`MAX_ALLOTMENTS`] in all).
fn allotments(inst: &Instance, sc: &Scenario) -> Vec<Vec<Vec<u32>>> {
    let fronts: Vec<Vec<u32>> = (0..inst.len())
        .map(|j| frontier(inst, j).into_iter().map(|(p, _, _)| p).collect())
        .collect();
    let per_job = |pick: &dyn Fn(&[u32]) -> u32| -> Vec<Vec<u32>> {
        (fronts.iter().zip(&sc.failures))
            .map(|(f, &fails)| vec![pick(f); fails as usize + 1])
            .collect()
    };
    let mut out = vec![
        // unreachable: every valid job has a processor count, so its frontier is not empty
        per_job(&|f| f.first().copied().unwrap_or(1)),
        // unreachable: as above
        per_job(&|f| f.last().copied().unwrap_or(1)),
    ];
    let mut last_c = 0;
    for m in 1..=inst.procs {
        let c = inst.procs / m;
        if c == last_c {
            continue;
        }
        last_c = c;
        if out.len() >= MAX_ALLOTMENTS {
            break;
        }
        let alloc = per_job(&|f| {
            let k = f.partition_point(|&p| p <= c);
            // default: no count ≤ c: the job's smallest
            f[k.saturating_sub(1)]
        });
        if !out.contains(&alloc) {
            out.push(alloc);
        }
    }
    out
}

/// The greedy list schedule of an allotment in exact time: at every event (time 0 and each end
/// of an attempt), the idle jobs with attempts left, longest remaining chain first (ties: job
/// order), start their next attempt when its processors are free.
fn list_schedule(inst: &Instance, alloc: &[Vec<u32>]) -> Result<Schedule> {
    let n = inst.len();
    let dur = |j: usize, i: usize| -> Result<Time> {
        inst.jobs[j].time(alloc[j][i]).cloned().ok_or_else(|| {
            Error::Solver(format!(
                "allotment of {} processors to job {j} is not allowed; this is a bug",
                alloc[j][i]
            ))
        })
    };
    // Remaining chain of each job (its attempts not yet started), for the priority.
    let mut chain: Vec<Time> = Vec::with_capacity(n);
    for (j, a) in alloc.iter().enumerate() {
        let mut c = Time::zero();
        for i in 0..a.len() {
            c += &dur(j, i)?;
        }
        chain.push(c);
    }
    let mut next = vec![0usize; n];
    let mut running: Vec<Option<Time>> = vec![None; n];
    let mut free = inst.procs;
    let mut t = Time::zero();
    let mut attempts = Vec::new();
    loop {
        let mut idle: Vec<usize> = (0..n)
            .filter(|&j| running[j].is_none() && next[j] < alloc[j].len())
            .collect();
        idle.sort_by(|&a, &b| chain[b].cmp(&chain[a]).then(a.cmp(&b)));
        for j in idle {
            let p = alloc[j][next[j]];
            if p > free {
                continue;
            }
            let d = dur(j, next[j])?;
            free -= p;
            chain[j] -= &d;
            running[j] = Some(&t + &d);
            next[j] += 1;
            attempts.push(Attempt {
                job: j,
                attempt: next[j] as u32,
                start: t.clone(),
                procs: p,
                duration: d,
                nodes: None,
            });
        }
        let Some(t_next) = running.iter().flatten().min().cloned() else {
            break;
        };
        for (j, r) in running.iter_mut().enumerate() {
            if r.as_ref() == Some(&t_next) {
                *r = None;
                free += alloc[j][next[j] - 1];
            }
        }
        t = t_next;
    }
    if (0..n).any(|j| next[j] < alloc[j].len()) {
        return Err(Error::Solver(
            "the exact-time list schedule left an attempt unplaced; this is a bug".into(),
        ));
    }
    Ok(Schedule {
        attempts,
        makespan: None,
        algorithm: Some("opt-bounds".to_string()),
    }
    .with_makespan())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Job, Profile, SpeedupModel};

    fn amdahl_job(name: &str, procs: u32) -> Job {
        let model = SpeedupModel::Amdahl {
            w: Time::from_int(10),
            gamma: Time::new(1, 10).unwrap(),
        };
        let times = model.table(procs, name).unwrap();
        Job {
            name: name.into(),
            profile: Profile::Moldable { model, times },
        }
    }

    #[test]
    fn a_single_job_runs_its_attempts_on_its_fastest_count() {
        // t(p) = 1 + 9/p on P = 100: the fastest count is 100 (t = 109/100); three attempts.
        let inst = Instance::new(100, vec![amdahl_job("J", 100)]).unwrap();
        let sc = Scenario::new(vec![2]);
        let a = solve(&inst, &sc, None).unwrap();
        assert!(a.optimal());
        assert_eq!(a.makespan, Time::new(327, 100).unwrap());
        assert_eq!(
            crate::check::check(&inst, &sc, &a.schedule).unwrap(),
            a.makespan
        );
    }

    #[test]
    fn a_gap_is_reported_not_refused() {
        // Three jobs of 1 + 9/p on P = 4: L′ = 30/4, L* = 33/4 (every job on two processors,
        // area 11 each), which no schedule meets (three jobs of width 2 do not tile 4
        // processors); a checked schedule and the bound come back.
        let jobs = (0..3).map(|i| amdahl_job(&format!("J{i}"), 4)).collect();
        let inst = Instance::new(4, jobs).unwrap();
        let sc = Scenario::none(3);
        let a = solve(&inst, &sc, None).unwrap();
        assert_eq!(a.lower_bound, Time::new(33, 4).unwrap());
        assert!(a.makespan > a.lower_bound);
        assert_eq!(
            crate::check::check(&inst, &sc, &a.schedule).unwrap(),
            a.makespan
        );
    }
}
