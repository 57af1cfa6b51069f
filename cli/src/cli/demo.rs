//! `resched demo`: runs every rigid algorithm of the registry (rigid paper Section 5.1: R-LIST-0,
//! R-LIST-1, R-LIST-Q, R-SHELF-B/NB, R-SHELFFILL-B/NB) on small built-in instances and prints
//! exact makespans, L(f) and ratios. The first instance is Proposition 3's construction for
//! P = 4 (R-SHELF ends at H_4 = 25/12 while L(f) = 1); the second is a mixed instance with a
//! failure where the variants differ (the golden case `backfill_delays_head_failure`).
//! Every schedule passes the checker. Nothing is written unless `--gantt DIR` is given.
use super::Exit;
use resched::error::{Error, Result};
use resched::model::{Instance, Scenario};
use resched::oracle::{self, catalogue, AlgoSpec};
use resched::schedulers::Priority;
use resched::time::Time;
use std::path::PathBuf;

/// Arguments of `resched demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Priority rule for every algorithm.
    #[arg(long, default_value = "lpt")]
    pub priority: String,
    /// Write one Gantt chart per example and algorithm into this directory, as SVG and PNG.
    #[arg(long)]
    pub gantt: Option<PathBuf>,
}

/// The built-in examples: (name, instance, scenario).
pub fn examples() -> Result<Vec<(&'static str, Instance, Scenario)>> {
    // Constant denominators 1 to 4: the division cannot fail.
    let t = |n: i64, d: i64| Time::from_int(n) / Time::from_int(d);
    let prop3 = Instance::rigid(4, &[(1, t(1, 1)), (1, t(1, 2)), (1, t(1, 3)), (1, t(1, 4))])
        .map_err(|e| e.in_file("demo"))?;
    let mixed = Instance::rigid(4, &[(2, t(3, 1)), (2, t(2, 1)), (4, t(2, 1)), (1, t(3, 2))])
        .map_err(|e| e.in_file("demo"))?;
    Ok(vec![
        ("prop3-P4", prop3, Scenario::new(vec![0, 1, 2, 3])),
        ("mixed", mixed, Scenario::new(vec![0, 1, 0, 0])),
    ])
}

/// Runs the demo.
pub fn run(a: Args) -> Result<Exit> {
    let priority: Priority = a.priority.parse()?;
    if let Some(dir) = &a.gantt {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    for (name, inst, sc) in examples()? {
        let lb = oracle::Bound::of(&inst, &sc)?.lower;
        crate::outln!(
            "{name}: P = {}, {} jobs, failures {:?}, L(f) = {lb}",
            inst.procs,
            inst.len(),
            sc.failures
        )?;
        crate::outln!(
            "  {:<26} {:>10} {:>10} {:>10} {:>9}",
            "algorithm",
            "makespan",
            "decimal",
            "ratio",
            "decimal"
        )?;
        for algo in catalogue::evaluated(catalogue::Paper::Rigid) {
            let spec = AlgoSpec {
                name: algo.into(),
                priority: Some(priority),
                seed: 0,
                eps: None,
            };
            let c = oracle::certify(&spec, &inst, &sc)?;
            let (m, r) = (&c.makespan, &c.ratio);
            crate::outln!(
                "  {:<26} {:>10} {:>10} {:>10} {:>9}",
                c.algorithm,
                m.to_string(),
                m.to_decimal_string(4),
                r.to_string(),
                r.to_decimal_string(4)
            )?;
            if let Some(dir) = &a.gantt {
                for ext in ["svg", "png"] {
                    let path = dir.join(format!("{name}-{algo}.{ext}"));
                    crate::render::gantt::write(&inst, &c.schedule, Some(&sc), &path)?;
                }
            }
        }
        crate::outln!()?;
    }
    if let Some(dir) = &a.gantt {
        crate::outln!("Gantt charts written to {}", dir.display())?;
    }
    Ok(Exit::Ok)
}
