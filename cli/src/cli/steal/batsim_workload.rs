//! `resched steal --workload W.json`: a Batsim workload file as the run's workload
//! ([`resched::stealing::batsim`] maps it; `--nodes` and `--max-job-nodes` apply as to an SWF
//! log, `--procs-per-node` does not), and the workload line that says what the mapping did.
use super::Args;
use resched::error::Result;
use resched::stealing::batsim;
use resched::stealing::trace::Sizing;
use resched::stealing::Workload;
use std::path::Path;

/// The workload of `a.workload` and the report's line about it (before the offered load).
pub(super) fn load(a: &Args) -> Result<(Workload, String)> {
    let sizing = Sizing {
        nodes: a.nodes,
        procs_per_node: a.procs_per_node,
        max_job_nodes: a.max_job_nodes,
    };
    let (w, c) = batsim::load(Path::new(&a.workload), sizing)?;
    let note = format!(
        "{}: Batsim workload, {} jobs on {} nodes (from {}); delay profiles as run times, {} runs cut to their walltime, {} without walltime, {} reduced to --max-job-nodes",
        a.workload,
        w.jobs.len(),
        w.nodes,
        crate::cli::flags_in("steal", c.platform_rule),
        c.cut_to_walltime,
        c.no_walltime,
        c.reduced,
    );
    Ok((w, note))
}
