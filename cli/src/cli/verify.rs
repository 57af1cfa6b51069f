//! `resched verify`: checks a schedule made by another program (DESIGN: "an oracle for faster
//! implementations": given someone else's schedule, it says whether it is feasible and whether it
//! is what that algorithm would have done).
//!
//! Feasibility is the independent checker's ([`resched::check`]); "what that algorithm would have
//! done" is the schedule of the oracle's certify path ([`resched::oracle::certify`]), compared
//! attempt by attempt.
use super::args::{parse_eps, parse_priority};
use super::Exit;
use resched::check;
use resched::model::first_difference;
use resched::model::{Instance, Scenario, Schedule};
use resched::oracle::{self, AlgoSpec};
use resched::Result;
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
                seed: super::args::seed_for(a.seed, priority)?,
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
