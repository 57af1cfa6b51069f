//! One cell of a rigid campaign (rigid paper Section 5.1): one job set at one sweep point, every
//! heuristic × priority rule on the same failure scenarios of the q̄ law, each makespan divided
//! exactly by L(f) (Equations (5)–(6)). Used by the synthetic sweeps and by `rigid-trace`.
use crate::experiment::eval::{self, AlgoStats, Contender};
use resched::bounds;
use resched::error::{Error, Result};
use resched::model::{Instance, Scenario};
use resched::oracle::AlgoSpec;
use resched::schedulers::Priority;
use resched::time::Time;
use resched::workload::sampling::FailureLaw;
use serde::{Deserialize, Serialize};

/// The result of one cell: one job set at one sweep point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RigidCell {
    pub key: String,
    /// The sweep coordinate (q̄ or P).
    pub x: f64,
    pub qbar: f64,
    pub procs: u32,
    /// Index of the job set (or day).
    pub set: u64,
    /// Human label of the set (`set 3`, `Mira-...: day 12`).
    pub label: String,
    pub jobs: usize,
    /// λ derived from q̄ (Section 5.1).
    pub lambda: f64,
    pub scenarios: usize,
    /// Mean total number of failures Σ f_j per scenario.
    pub mean_failures: f64,
    pub stats: Vec<AlgoStats>,
}

/// Runs the heuristics `algos` (catalogue names) × `priorities` on `inst` under the q̄ law, over
/// `scenarios` scenarios of set `set` (scenario streams keyed by (seed, set, k)).
#[allow(clippy::too_many_arguments)]
pub fn rigid_cell(
    key: String,
    label: String,
    x: f64,
    inst: &Instance,
    qbar: f64,
    seed: u64,
    set: u64,
    scenarios: usize,
    algos: &[&str],
    priorities: &[Priority],
) -> Result<RigidCell> {
    let law = FailureLaw::rigid_qbar(inst, qbar)?;
    let n_scen = if qbar == 0.0 { 1 } else { scenarios };
    let scen: Vec<Scenario> = (0..n_scen as u64)
        .map(|k| law.scenario(seed, set, k))
        .collect::<Result<_>>()?;
    let mean_failures = scen.iter().map(|s| s.total_failures() as f64).sum::<f64>() / n_scen as f64;
    let mut contenders = Vec::with_capacity(algos.len() * priorities.len());
    for &name in algos {
        for &p in priorities {
            let spec = AlgoSpec {
                name: name.to_string(),
                priority: Some(p),
                seed: seed.wrapping_add(set),
                eps: None,
            };
            contenders.push(Contender::new(&spec, inst)?);
        }
    }
    let lower = |sc: &Scenario| -> Result<Time> {
        bounds::rigid(inst, sc)
            .map(|b| b.lower)
            .ok_or_else(|| Error::Limit("L(f) needs a rigid instance".into()))
    };
    let stats = eval::evaluate(inst, &scen, &mut contenders, &lower)?;
    Ok(RigidCell {
        key,
        x,
        qbar,
        procs: inst.procs,
        set,
        label,
        jobs: inst.len(),
        lambda: law.lambda,
        scenarios: n_scen,
        mean_failures,
        stats,
    })
}
