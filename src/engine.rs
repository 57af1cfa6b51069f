//! The semi-online event loop (rigid paper Section 3.5; moldable paper Section 3.2).
//!
//! The engine owns the failure scenario. A scheduler sees the instance, the clock, the free
//! processors, the attempts running, and — only when an attempt *ends* — whether it failed.
//! It cannot read the scenario: [`Ctx`] holds no reference to it and the [`Scheduler`] trait
//! receives nothing else, so "semi-online" is a fact of the types, not a convention.
//!
//! # Same-instant rule
//! All attempts that end at the same instant t are completed together: their processors are
//! released and their outcomes revealed, and only then is the scheduler called, once, for t, with
//! every completion of t (sorted by job index). Everything it starts starts at t. This is the
//! reading the papers' proofs need: "whenever a job completes" with ties resolved before any
//! decision, so no decision at t is made with processors that are in fact already free.
//!
//! The scheduler is also called once at time 0 with no completion (the paper's virtual job J_0).
//!
//! # Budget (DESIGN "Explicit limits")
//! A run starts exactly Σ_j (f_j + 1) attempts — a job's attempt f_j + 1 succeeds and a done
//! job cannot be started again — and calls the scheduler at most once more than that (at time 0,
//! then only at instants where an attempt ends). So one number bounds a run's length and its
//! memory: the engine checks Σ_j (f_j + 1) against a [`Budget`] *before* it allocates or
//! simulates anything, and refuses a run over budget with [`Error::Limit`]. The defaults:
//! - [`run`] records every attempt (~100 bytes each, more for big times):
//!   [`Budget::RECORDED`] = 5·10^6 attempts, about 0.5 GB of schedule (and as much again
//!   for the checker that reads it);
//! - [`run_makespan`] keeps only O(n) state, so its bound is one of time, not memory:
//!   [`Budget::UNRECORDED`] = 10^8 attempts, which bounds how long a run may take (the
//!   `engine` bench measures the cost per event).
//!
//! The papers' campaigns stay far below both: moldable sets have n = 500 jobs and about
//! λ·Σ t failures (a few hundred attempts more), the rigid simulator's files 100 jobs with up to
//! a few thousand failures per scenario, the rigid traces a day of jobs. A scenario of
//! `[0, 1000000000]` is refused at once instead of filling memory. Library callers that need
//! more pass their own budget to [`run_budget`] or [`run_makespan_budget`].
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::error::{Error, Result};
use crate::model::{Attempt, Instance, Scenario, Schedule};
use crate::time::Time;

/// What the end of an attempt revealed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A silent error was detected: the job must run again.
    Failed,
    /// The job is done.
    Succeeded,
}

/// An attempt that ended at the current instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub job: usize,
    /// 1-based attempt number.
    pub attempt: u32,
    pub procs: u32,
    pub outcome: Outcome,
}

/// An attempt in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    pub job: usize,
    pub attempt: u32,
    pub procs: u32,
    pub start: Time,
    pub end: Time,
}

/// A semi-online scheduling algorithm.
pub trait Scheduler {
    /// Display name, e.g. `R-LIST(m=0)/LPT`.
    fn name(&self) -> String;

    /// Called at time 0 and after every instant at which attempts end. Start attempts with
    /// [`Ctx::start`]; they start at [`Ctx::now`].
    fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()>;
}

/// What a scheduler may see and do at one instant.
pub struct Ctx<'a> {
    inst: &'a Instance,
    now: &'a Time,
    completions: &'a [Completion],
    state: &'a mut State,
    algo: &'a str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum JobState {
    Waiting,
    Running,
    Done,
}

/// An attempt's end in the event queue: ordered by end time, then job index (the derived
/// order: [`Time`] first, then the index).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Due(Time, usize);

struct State {
    free: u32,
    jobs: Vec<JobState>,
    attempts_made: Vec<u32>,
    running: Vec<Option<Running>>,
    heap: BinaryHeap<Reverse<Due>>,
    schedule: Vec<Attempt>,
    record: bool,
}

impl<'a> Ctx<'a> {
    /// The instance being scheduled.
    pub fn instance(&self) -> &'a Instance {
        self.inst
    }

    /// The current instant.
    pub fn now(&self) -> &Time {
        self.now
    }

    /// Processors free right now.
    pub fn free(&self) -> u32 {
        self.state.free
    }

    /// The attempts that ended at this instant, by job index.
    pub fn completions(&self) -> &[Completion] {
        self.completions
    }

    /// The attempts in progress (in job order).
    pub fn running(&self) -> impl Iterator<Item = &Running> {
        self.state.running.iter().flatten()
    }

    /// True while an attempt of `job` runs.
    pub fn is_running(&self, job: usize) -> bool {
        self.state.jobs.get(job) == Some(&JobState::Running)
    }

    /// True once `job` has succeeded.
    pub fn is_done(&self, job: usize) -> bool {
        self.state.jobs.get(job) == Some(&JobState::Done)
    }

    /// Number of attempts of `job` started so far.
    pub fn attempts_made(&self, job: usize) -> u32 {
        debug_assert!(
            job < self.state.attempts_made.len(),
            "job {job} is not a job of the instance"
        );
        // unreachable: `job` indexes the instance the engine runs (callers are schedulers given
        // that instance; debug_assert above)
        self.state.attempts_made.get(job).copied().unwrap_or(0)
    }

    /// Starts the next attempt of `job` on `procs` processors now.
    ///
    /// Errors (a bug in the scheduler, reported with its name and the instant): unknown job, job
    /// running or done, a processor count the job cannot use, or more processors than are free.
    pub fn start(&mut self, job: usize, procs: u32) -> Result<()> {
        let fail = |msg: String| {
            Err(Error::Scheduler {
                algo: self.algo.to_string(),
                time: self.now.to_string(),
                msg,
            })
        };
        let Some(j) = self.inst.jobs.get(job) else {
            return fail(format!("started unknown job {job}"));
        };
        match self.state.jobs[job] {
            JobState::Waiting => {}
            JobState::Running => return fail(format!("started job {} while it runs", j.name)),
            JobState::Done => return fail(format!("started job {} after it succeeded", j.name)),
        }
        let Some(duration) = j.time(procs) else {
            return fail(format!(
                "started job {} on {procs} processors, which it cannot use",
                j.name
            ));
        };
        if procs > self.state.free {
            return fail(format!(
                "started job {} on {procs} processors with only {} free",
                j.name, self.state.free
            ));
        }
        let end = self.now + duration;
        let st = &mut *self.state;
        st.free -= procs;
        st.jobs[job] = JobState::Running;
        st.attempts_made[job] += 1;
        let attempt = st.attempts_made[job];
        st.heap.push(Reverse(Due(end.clone(), job)));
        if st.record {
            st.schedule.push(Attempt {
                job,
                attempt,
                start: self.now.clone(),
                procs,
                duration: duration.clone(),
                nodes: None,
            });
        }
        st.running[job] = Some(Running {
            job,
            attempt,
            procs,
            start: self.now.clone(),
            end,
        });
        Ok(())
    }
}

/// The result of one simulated run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub makespan: Time,
    /// Every attempt, in start order (empty when recording was off).
    pub schedule: Schedule,
    /// Number of instants at which the scheduler was called.
    pub events: u64,
    /// The end of each job's successful attempt, in instance order (empty when recording was
    /// off).
    pub completions: Vec<Time>,
}

// A makespan-only run keeps less in memory than a recorded one: it may never get less.
const _: () = assert!(Budget::RECORDED.max_attempts <= Budget::UNRECORDED.max_attempts);

/// The explicit limit of one run: how many attempts it may start (module doc, "Budget").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Largest Σ_j (f_j + 1) accepted: the number of attempts the run starts.
    pub max_attempts: u64,
}

impl Budget {
    /// The budget of [`run`], which records every attempt: 5·10^6 attempts (~0.5 GB).
    pub const RECORDED: Budget = Budget {
        max_attempts: 5_000_000,
    };
    /// The budget of [`run_makespan`], which keeps O(n) state: 10^8 attempts.
    pub const UNRECORDED: Budget = Budget {
        max_attempts: 100_000_000,
    };

    /// Refuses a run of `attempts` attempts above the budget (before anything is allocated).
    fn admit(&self, attempts: u64, record: bool) -> Result<()> {
        if attempts <= self.max_attempts {
            return Ok(());
        }
        let (what, name) = if record {
            (
                "a recorded run (its schedule is kept in memory)",
                "RECORDED",
            )
        } else {
            ("a makespan-only run", "UNRECORDED")
        };
        Err(Error::Limit(format!(
            "the failure scenario asks for Σ(f_j + 1) = {attempts} attempts, above the engine's \
             budget of {} attempts for {what} (engine::Budget::{name}); lower the failure counts, \
             or call engine::run_budget / run_makespan_budget with a larger engine::Budget",
            self.max_attempts
        )))
    }
}

/// Simulates `sched` on `inst` under `scenario` and records the schedule, within
/// [`Budget::RECORDED`].
pub fn run(inst: &Instance, scenario: &Scenario, sched: &mut dyn Scheduler) -> Result<Run> {
    simulate(inst, scenario, sched, true, Budget::RECORDED)
}

/// Like [`run`], but keeps only the makespan (for large batches of scenarios), within
/// [`Budget::UNRECORDED`].
pub fn run_makespan(
    inst: &Instance,
    scenario: &Scenario,
    sched: &mut dyn Scheduler,
) -> Result<Run> {
    simulate(inst, scenario, sched, false, Budget::UNRECORDED)
}

/// [`run`] within `budget` instead of the default.
pub fn run_budget(
    inst: &Instance,
    scenario: &Scenario,
    sched: &mut dyn Scheduler,
    budget: Budget,
) -> Result<Run> {
    simulate(inst, scenario, sched, true, budget)
}

/// [`run_makespan`] within `budget` instead of the default.
pub fn run_makespan_budget(
    inst: &Instance,
    scenario: &Scenario,
    sched: &mut dyn Scheduler,
    budget: Budget,
) -> Result<Run> {
    simulate(inst, scenario, sched, false, budget)
}

/// Σ_j (f_j + 1), the number of attempts a run under `scenario` starts (saturating: a sum that
/// does not fit a `u64` is over every budget anyway).
pub fn attempts_needed(scenario: &Scenario) -> u64 {
    scenario
        .failures
        .iter()
        .fold(0u64, |acc, &f| acc.saturating_add(u64::from(f) + 1))
}

fn simulate(
    inst: &Instance,
    scenario: &Scenario,
    sched: &mut dyn Scheduler,
    record: bool,
    budget: Budget,
) -> Result<Run> {
    let algo = sched.name();
    scenario.validate(inst).map_err(|e| e.in_file("scenario"))?;
    let attempts = attempts_needed(scenario);
    budget.admit(attempts, record)?;
    let n = inst.jobs.len();
    let mut state = State {
        free: inst.procs,
        jobs: vec![JobState::Waiting; n],
        attempts_made: vec![0; n],
        running: vec![None; n],
        heap: BinaryHeap::with_capacity(n),
        // The run starts exactly `attempts` attempts: one allocation holds the whole schedule
        // (capped, for a caller's larger budget, by what a run records by default).
        schedule: if record {
            Vec::with_capacity(attempts.min(Budget::RECORDED.max_attempts) as usize)
        } else {
            Vec::new()
        },
        record,
    };
    let mut now = Time::zero();
    let mut completions: Vec<Completion> = Vec::new();
    let mut completed_at = if record {
        vec![Time::zero(); n]
    } else {
        Vec::new()
    };
    let mut done = 0usize;
    let mut events = 0u64;
    loop {
        events += 1;
        // Unreachable for a correct engine (module doc, "Budget": events ≤ attempts + 1); kept
        // as an error so that a broken invariant can never turn into an endless loop.
        if events > attempts.saturating_add(1) {
            return Err(Error::Limit(format!(
                "internal: {algo} reached event {events} of a run of {attempts} attempts"
            )));
        }
        {
            let mut ctx = Ctx {
                inst,
                now: &now,
                completions: &completions,
                state: &mut state,
                algo: &algo,
            };
            sched.on_event(&mut ctx)?;
        }
        let Some(Reverse(Due(t, _))) = state.heap.peek() else {
            if done == n {
                break;
            }
            let waiting = state
                .jobs
                .iter()
                .position(|s| *s == JobState::Waiting)
                .map(|j| inst.jobs[j].name.clone());
            return Err(Error::Scheduler {
                algo,
                time: now.to_string(),
                msg: format!(
                    "stalled: nothing runs and job {} is still waiting",
                    // default: an empty name only if no job is waiting, which the `done == n` test above excludes
                    waiting.unwrap_or_default()
                ),
            });
        };
        now = t.clone();
        completions.clear();
        while let Some(Reverse(Due(t, job))) = state.heap.peek() {
            if *t != now {
                break;
            }
            let job = *job;
            state.heap.pop();
            let r = state.running[job].take().ok_or_else(|| Error::Scheduler {
                algo: algo.clone(),
                time: now.to_string(),
                msg: format!("internal: job {job} completed without running"),
            })?;
            state.free += r.procs;
            // The scenario is consulted here, and only here: attempt f_j + 1 is the successful one.
            let outcome = if r.attempt > scenario.failures[job] {
                state.jobs[job] = JobState::Done;
                done += 1;
                if let Some(c) = completed_at.get_mut(job) {
                    *c = r.end;
                }
                Outcome::Succeeded
            } else {
                state.jobs[job] = JobState::Waiting;
                Outcome::Failed
            };
            completions.push(Completion {
                job,
                attempt: r.attempt,
                procs: r.procs,
                outcome,
            });
        }
        completions.sort_unstable_by_key(|c| c.job);
    }
    debug_assert_eq!(state.free, inst.procs, "all processors are free at the end");
    let schedule = Schedule {
        attempts: state.schedule,
        makespan: Some(now.clone()),
        algorithm: Some(algo),
    };
    Ok(Run {
        makespan: now,
        schedule,
        events,
        completions: completed_at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Starts every waiting job on its processors in index order while they fit.
    struct Naive;
    impl Scheduler for Naive {
        fn name(&self) -> String {
            "naive".into()
        }
        fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
            for j in 0..ctx.instance().len() {
                let p = ctx.instance().jobs[j].as_rigid().map(|x| x.0).unwrap_or(1);
                if !ctx.is_running(j) && !ctx.is_done(j) && p <= ctx.free() {
                    ctx.start(j, p)?;
                }
            }
            Ok(())
        }
    }

    struct Cheater;
    impl Scheduler for Cheater {
        fn name(&self) -> String {
            "cheater".into()
        }
        fn on_event(&mut self, ctx: &mut Ctx<'_>) -> Result<()> {
            ctx.start(0, 1)?;
            ctx.start(0, 1)
        }
    }

    #[test]
    fn reveals_failures_and_finishes() {
        let t = Time::from_int;
        let inst = Instance::rigid(2, &[(1, t(2)), (1, t(3)), (2, t(1))]).unwrap();
        let sc = Scenario::new(vec![2, 0, 0]);
        let run = run(&inst, &sc, &mut Naive).unwrap();
        crate::check::check(&inst, &sc, &run.schedule).unwrap();
        // J1 at 0,2,4; J2 at 0; J3 needs both processors: after J1's third attempt at 6.
        assert_eq!(run.makespan, t(7));
    }

    #[test]
    fn scheduler_bugs_are_errors() {
        let inst = Instance::rigid(2, &[(1, Time::one())]).unwrap();
        let e = run(&inst, &Scenario::none(1), &mut Cheater).unwrap_err();
        assert!(e.to_string().contains("while it runs"), "{e}");
        let e = run(&inst, &Scenario::none(2), &mut Naive).unwrap_err();
        assert!(e.to_string().contains("failures"), "{e}");
    }

    /// A scenario over budget is refused before anything runs (`[0, 1000000000]` would fill
    /// memory long before it ended); a budget of exactly Σ(f_j + 1) is enough.
    #[test]
    fn budget_is_checked_before_the_run() {
        let t = Time::from_int;
        let inst = Instance::rigid(2, &[(1, t(2)), (1, t(3))]).unwrap();
        let huge = Scenario::new(vec![0, 1_000_000_000]);
        let started = std::time::Instant::now();
        for e in [
            run(&inst, &huge, &mut Naive).unwrap_err(),
            run_makespan(&inst, &huge, &mut Naive).unwrap_err(),
        ] {
            assert!(matches!(e, Error::Limit(_)), "{e}");
            let msg = e.to_string();
            assert!(msg.contains("1000000002 attempts"), "{msg}");
            assert!(msg.contains("engine::Budget"), "{msg}");
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let max = Scenario::new(vec![u32::MAX - 1; 3]);
        assert_eq!(attempts_needed(&max), 3 * u64::from(u32::MAX));
        let sc = Scenario::new(vec![2, 1]);
        assert_eq!(attempts_needed(&sc), 5);
        let tight = Budget { max_attempts: 5 };
        let r = run_budget(&inst, &sc, &mut Naive, tight).unwrap();
        assert_eq!(r.schedule.attempts.len(), 5);
        assert!(r.events <= 6);
        let m = run_makespan_budget(&inst, &sc, &mut Naive, tight).unwrap();
        assert_eq!(m.makespan, r.makespan);
        let short = Budget { max_attempts: 4 };
        assert!(matches!(
            run_budget(&inst, &sc, &mut Naive, short),
            Err(Error::Limit(_))
        ));
    }

    /// The event queue's order is `Time`'s exact order, extremes included, then the job index.
    #[test]
    fn due_order_matches_time_order() {
        let vals = [
            Time::new(i64::MAX, 1).unwrap(),
            Time::new(i64::MAX - 1, i64::MAX).unwrap(),
            Time::new(1, i64::MAX).unwrap(),
            Time::new(-i64::MAX, 3).unwrap(),
            Time::new(152862619684, 100000000).unwrap(),
            Time::new(38215654921, 25000000).unwrap(),
            Time::zero(),
            Time::from_big(num_rational::BigRational::new(
                num_bigint::BigInt::from(10).pow(30),
                num_bigint::BigInt::from(7),
            )),
        ];
        for a in &vals {
            for b in &vals {
                assert_eq!(
                    Due(a.clone(), 0).cmp(&Due(b.clone(), 0)),
                    a.cmp(b),
                    "{a} vs {b}"
                );
            }
        }
        assert!(Due(Time::one(), 1) > Due(Time::one(), 0));
    }
}
