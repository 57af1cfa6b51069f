//! Batsim workloads ([`crate::workload::batsim`]) as node-stealing workloads (node-stealing
//! paper, Section 5.2's model: release, nodes, run time, walltime on N identified nodes), the
//! rules of [`super::trace`] for SWF logs applied to Batsim's fields:
//! - a Batsim resource is a node: the platform has `nb_res` nodes (or `nodes`, when given) and a
//!   job needs `res` of them (reduced to `max_job_nodes` when given and smaller); node ids are
//!   Batsim's resource ids `0..N`, as the `jobs.csv` export writes them;
//! - release = `subtime`, run time = the `delay` of the job's profile;
//! - walltime = `walltime`; when the job has none, the run time itself (as an SWF job without a
//!   requested time);
//! - a run time above the walltime is cut to it (Batsim kills a job at its walltime);
//! - a job needing more nodes than the platform has, a platform above 2^20 nodes, more than
//!   [`super::limits::MAX_JOBS`] jobs or a time beyond 10^11 s is an error naming the file and
//!   the job's field.
use super::model::{BatchJob, Workload};
use super::trace::Sizing;
use crate::error::{Error, Result};
use crate::workload::batsim::BatsimWorkload;
use std::path::Path;

/// What the mapping did, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    /// Where the platform size came from: `nb_res` or `nodes`.
    pub platform_rule: &'static str,
    /// Jobs without a walltime (given their run time).
    pub no_walltime: usize,
    /// Jobs whose run time was cut to their walltime.
    pub cut_to_walltime: usize,
    /// Jobs reduced to `max_job_nodes`.
    pub reduced: usize,
}

/// Maps `w` (read from `file`) onto the batch model; `sizing.procs_per_node` must be unset (a
/// Batsim resource is already a node).
pub fn from_batsim(
    w: &BatsimWorkload,
    sizing: Sizing,
    file: &str,
) -> Result<(Workload, Conversion)> {
    if sizing.procs_per_node.is_some() {
        return Err(Error::param(
            "procs_per_node",
            "applies to an SWF log's processors: a Batsim workload's `res` counts resources, read as nodes",
        ));
    }
    let mut conv = Conversion {
        platform_rule: "nb_res",
        ..Conversion::default()
    };
    let n = match sizing.nodes {
        Some(n) => {
            conv.platform_rule = "`nodes`";
            n
        }
        None => w.nb_res,
    };
    super::limits::check_jobs(w.jobs.len() as u64, file)?;
    let mut jobs = Vec::with_capacity(w.jobs.len());
    for (i, j) in w.jobs.iter().enumerate() {
        let mut nodes = j.res;
        if let Some(m) = sizing.max_job_nodes.filter(|&m| nodes > m) {
            nodes = m;
            conv.reduced += 1;
        }
        let walltime = match &j.walltime {
            Some(w) => w.clone(),
            None => {
                conv.no_walltime += 1;
                j.delay.clone()
            }
        };
        let run = if j.delay > walltime {
            conv.cut_to_walltime += 1;
            walltime.clone()
        } else {
            j.delay.clone()
        };
        let b = BatchJob {
            name: j.id.clone(),
            release: j.subtime.clone(),
            nodes,
            run,
            walltime,
        };
        b.check(n).map_err(|(field, msg)| {
            // The run time is the profile's `delay`: the field to fix is there.
            let field = match field {
                "nodes" => format!("jobs[{i}].res"),
                "release" => format!("jobs[{i}].subtime"),
                "run" => format!("profiles.{}.delay", j.profile),
                f => format!("jobs[{i}].{f}"),
            };
            let hint = if field.ends_with(".res") && sizing.max_job_nodes.is_none() {
                " (see `max_job_nodes`)"
            } else {
                ""
            };
            Error::invalid(file, field, format!("job `{}`: {msg}{hint}", j.id))
        })?;
        jobs.push(b);
    }
    Ok((Workload::new(n, jobs, file)?, conv))
}

/// Reads a Batsim workload file as a workload (see the module doc).
pub fn load(path: &Path, sizing: Sizing) -> Result<(Workload, Conversion)> {
    let w = BatsimWorkload::load(path)?;
    from_batsim(&w, sizing, &path.display().to_string())
}

/// Whether `--workload` names a Batsim workload: a `.json` (or `.json.gz`) file; SWF logs are
/// `.swf` and the synthetic workload is `synthetic…`.
pub fn is_batsim_workload(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".json") || lower.ends_with(".json.gz")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;

    const W: &str = r#"{"nb_res": 8, "jobs": [
        {"id": "late", "subtime": 10, "walltime": 15, "res": 8, "profile": "d20"},
        {"id": "early", "subtime": 0, "res": 2, "profile": "d5"}],
        "profiles": {"d20": {"type": "delay", "delay": 20}, "d5": {"type": "delay", "delay": 5}}}"#;

    #[test]
    fn maps_fields_sorts_by_release_and_cuts_runs() {
        let b = BatsimWorkload::parse(W, "w.json").unwrap();
        let (w, c) = from_batsim(&b, Sizing::default(), "w.json").unwrap();
        assert_eq!(w.nodes, 8);
        let got: Vec<(&str, i64, u32, i64, i64)> = w
            .jobs
            .iter()
            .map(|j| {
                let i = |t: &Time| t.to_string().parse::<i64>().unwrap();
                (
                    j.name.as_str(),
                    i(&j.release),
                    j.nodes,
                    i(&j.run),
                    i(&j.walltime),
                )
            })
            .collect();
        assert_eq!(got, [("early", 0, 2, 5, 5), ("late", 10, 8, 15, 15)]);
        assert_eq!((c.no_walltime, c.cut_to_walltime, c.reduced), (1, 1, 0));
        assert_eq!(c.platform_rule, "nb_res");
    }

    #[test]
    fn a_job_larger_than_the_platform_names_its_field_and_the_way_out() {
        let b = BatsimWorkload::parse(W, "w.json").unwrap();
        let small = Sizing {
            nodes: Some(4),
            ..Sizing::default()
        };
        let e = from_batsim(&b, small, "w.json").unwrap_err().to_string();
        assert_eq!(
            e,
            "w.json: field `jobs[0].res`: job `late`: job needs 8 nodes but the machine has 4 (see `max_job_nodes`)"
        );
        let reduced = Sizing {
            nodes: Some(4),
            max_job_nodes: Some(4),
            ..Sizing::default()
        };
        let (w, c) = from_batsim(&b, reduced, "w.json").unwrap();
        assert_eq!((w.nodes, w.jobs[1].nodes, c.reduced), (4, 4, 1));
        let ppn = Sizing {
            procs_per_node: Some(2),
            ..Sizing::default()
        };
        let e = from_batsim(&b, ppn, "w.json").unwrap_err().to_string();
        assert!(
            e.starts_with("parameter `procs_per_node`: applies to an SWF log"),
            "{e}"
        );
    }

    #[test]
    fn json_names_are_batsim_workloads() {
        assert!(is_batsim_workload("w.json") && is_batsim_workload("W.JSON.gz"));
        assert!(!is_batsim_workload("w.swf") && !is_batsim_workload("synthetic:jobs=10"));
    }
}
