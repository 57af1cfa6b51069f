//! `resched verify`: checks a schedule made by another program (DESIGN: "an oracle for faster
//! implementations": given someone else's schedule, it says whether it is feasible and whether it
//! is what that algorithm would have done).
//!
//! Feasibility is the independent checker's ([`crate::check`]); "what that algorithm would have
//! done" is the schedule of the oracle's certify path ([`crate::oracle::certify`]), compared
//! attempt by attempt.
use super::simulate::{parse_eps, parse_priority};
use super::Exit;
use crate::check;
use crate::model::{Attempt, Instance, Scenario, Schedule};
use crate::oracle::{self, AlgoSpec};
use crate::Result;
use std::path::PathBuf;

/// Arguments of `resched verify`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Instance file (JSON).
    #[arg(long)]
    pub instance: PathBuf,
    /// Failure scenario file (JSON: {"failures": [f_1, ...]}).
    #[arg(long)]
    pub scenario: PathBuf,
    /// Schedule to check: a bare schedule {"attempts": [...]}, or a report with a `schedule`
    /// field (the output of `simulate --json`).
    #[arg(long)]
    pub schedule: PathBuf,
    /// Also say whether the schedule is the one this algorithm (a catalogue name) makes.
    #[arg(long)]
    pub algo: Option<String>,
    /// With --algo: its priority rule (default lpt).
    #[arg(long, requires = "algo")]
    pub priority: Option<String>,
    /// With --algo: the seed of the RANDOM priority.
    #[arg(long, requires = "algo")]
    pub seed: Option<u64>,
    /// With --algo: BATCH-LIST's ε (default 3/10).
    #[arg(long, requires = "algo")]
    pub eps: Option<String>,
}

/// Prints `feasible, makespan M` or the first broken invariant; with `--algo`, whether the
/// schedule is that algorithm's. Exit 1 when either does not hold.
pub fn run(a: Args) -> Result<Exit> {
    let inst = Instance::load(&a.instance)?;
    let sc = Scenario::load(&a.scenario, &inst)?;
    let sch = Schedule::load_report(&a.schedule)?;
    let spec = match &a.algo {
        Some(name) => {
            let priority = parse_priority(a.priority.as_deref())?;
            Some(AlgoSpec {
                name: name.clone(),
                priority,
                seed: super::simulate::seed_for(a.seed, priority)?,
                eps: parse_eps(a.eps.as_deref())?,
            })
        }
        None => None,
    };
    if spec.is_some() {
        // Before anything is printed: the algorithm's run must fit the engine's budget.
        super::simulate::check_recorded_budget(&a.scenario, &sc)?;
    }
    let mut holds = true;
    match check::check(&inst, &sc, &sch) {
        Ok(m) => println!("feasible: makespan {m} ({})", m.to_decimal_string(6)),
        Err(v) => {
            println!("infeasible: {}: {v}", a.schedule.display());
            holds = false;
        }
    }
    if let Some(spec) = spec {
        let c = oracle::certify(&spec, &inst, &sc)?;
        match first_difference(&sch.attempts, &c.schedule.attempts) {
            None => println!(
                "algorithm: the schedule {} makes ({} attempts, makespan {})",
                c.algorithm,
                c.schedule.attempts.len(),
                c.makespan
            ),
            Some(d) => {
                println!(
                    "algorithm: not the schedule {} makes (makespan {}); {}",
                    c.algorithm,
                    c.makespan,
                    d.describe(&inst, &c.algorithm)
                );
                holds = false;
            }
        }
    }
    Ok(if holds { Exit::Ok } else { Exit::CheckFailed })
}

/// Where two schedules first differ, attempts taken in (start, job, attempt) order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based position in that order.
    pub position: usize,
    /// The checked schedule's attempt there (`None`: it has fewer attempts).
    pub ours: Option<Attempt>,
    /// The algorithm's attempt there (`None`: it has fewer attempts).
    pub theirs: Option<Attempt>,
}

impl Difference {
    /// One line: the position and both attempts (`algo` names the algorithm's side).
    pub fn describe(&self, inst: &Instance, algo: &str) -> String {
        let show = |a: &Option<Attempt>| match a {
            Some(a) => {
                let job = inst.jobs.get(a.job).map_or("?", |j| j.name.as_str());
                let nodes = a
                    .nodes
                    .as_ref()
                    .map_or(String::new(), |n| format!(" on nodes {n:?}"));
                format!(
                    "{job} (job {}) attempt {} at {} on {} processors for {}{nodes}",
                    a.job, a.attempt, a.start, a.procs, a.duration
                )
            }
            None => "nothing (no more attempts)".into(),
        };
        format!(
            "first difference at attempt #{} in start order: this schedule has {}; {algo} has {}",
            self.position,
            show(&self.ours),
            show(&self.theirs)
        )
    }
}

/// The first attempt at which `ours` and `theirs` differ, both sorted by (start, job, attempt)
/// so that the order in which a program lists simultaneous attempts does not matter.
pub fn first_difference(ours: &[Attempt], theirs: &[Attempt]) -> Option<Difference> {
    let sorted = |v: &[Attempt]| {
        let mut v = v.to_vec();
        v.sort_by(|a, b| (&a.start, a.job, a.attempt).cmp(&(&b.start, b.job, b.attempt)));
        v
    };
    let (ours, theirs) = (sorted(ours), sorted(theirs));
    let n = ours.len().max(theirs.len());
    (0..n)
        .find(|&i| ours.get(i) != theirs.get(i))
        .map(|i| Difference {
            position: i + 1,
            ours: ours.get(i).cloned(),
            theirs: theirs.get(i).cloned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;

    fn at(job: usize, attempt: u32, start: i64, procs: u32) -> Attempt {
        Attempt {
            job,
            attempt,
            start: Time::from_int(start),
            procs,
            duration: Time::from_int(2),
            nodes: None,
        }
    }

    #[test]
    fn simultaneous_attempts_may_come_in_any_order() {
        let a = [at(1, 1, 0, 2), at(0, 1, 0, 2), at(0, 2, 2, 2)];
        let b = [at(0, 1, 0, 2), at(1, 1, 0, 2), at(0, 2, 2, 2)];
        assert_eq!(first_difference(&a, &b), None);
    }

    #[test]
    fn the_first_difference_in_start_order() {
        let a = [at(0, 1, 0, 2), at(1, 1, 0, 2), at(0, 2, 3, 2)];
        let b = [at(0, 1, 0, 2), at(1, 1, 0, 2), at(0, 2, 2, 2)];
        let d = first_difference(&a, &b);
        assert_eq!(
            d,
            Some(Difference {
                position: 3,
                ours: Some(at(0, 2, 3, 2)),
                theirs: Some(at(0, 2, 2, 2)),
            })
        );
        let d = first_difference(&a[..2], &b);
        assert_eq!(d.map(|d| (d.position, d.ours)), Some((3, None)));
    }
}
