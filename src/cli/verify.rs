//! `resched verify`: checks a schedule made by another program (DESIGN: "an oracle for faster
//! implementations").
use super::Exit;
use crate::check;
use crate::model::{Instance, Scenario, Schedule};
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
    /// Schedule to check (JSON: {"attempts": [...]}).
    #[arg(long)]
    pub schedule: PathBuf,
}

/// Prints `feasible, makespan M` or the first broken invariant.
pub fn run(a: Args) -> Result<Exit> {
    let inst = Instance::load(&a.instance)?;
    let sc = Scenario::load(&a.scenario, &inst)?;
    let sch = Schedule::load(&a.schedule)?;
    match check::check(&inst, &sc, &sch) {
        Ok(m) => {
            println!("feasible: makespan {m} ({})", m.to_decimal_string(6));
            Ok(Exit::Ok)
        }
        Err(v) => {
            println!("infeasible: {v}");
            Ok(Exit::CheckFailed)
        }
    }
}
