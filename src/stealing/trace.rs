//! SWF job logs as node-stealing workloads (node-stealing paper, Section 5.2). The parsing is
//! [`crate::workload::swf`]'s; this file only maps its jobs onto the batch model:
//! - release = submit time (field 2), nodes = processors (field 5, else 8), run time = field 4;
//! - walltime = requested time (field 9); when unknown, the run time itself;
//! - a run time above the walltime is cut to it (the batch system kills the job then);
//! - the platform size is `--nodes`, else the `MaxNodes` header, else `MaxProcs`;
//! - Section 5.2 reduces "the size of the largest jobs from 49152 nodes to 49000 nodes" so that
//!   no job waits for a machine without any down node: `max_job_nodes` does that (sizes above
//!   it become it); without it a job larger than the machine is an error naming its line;
//! - a log with no job left, a platform above 2^20 nodes, or a submit time, run time or walltime
//!   beyond 10^11 s ([`super::limits`]) is an error naming the file or the line.
use super::limits;
use super::model::{BatchJob, Workload};
use crate::error::{Error, Result};
use crate::workload::swf::{SwfJob, SwfLog};
use std::path::Path;

/// What the conversion changed, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    /// Lines dropped by the SWF reader's cleaning rule.
    pub dropped: usize,
    /// Jobs whose run time was cut to the walltime.
    pub cut_to_walltime: usize,
    /// Jobs without a walltime (run time used).
    pub no_walltime: usize,
    /// Jobs reduced to `max_job_nodes`.
    pub reduced: usize,
}

/// Converts a parsed log (see the module doc).
pub fn from_swf(
    log: &SwfLog,
    nodes: Option<u32>,
    max_job_nodes: Option<u32>,
) -> Result<(Workload, Conversion)> {
    let n = platform(log, nodes, max_job_nodes)?;
    if log.jobs.is_empty() {
        return Err(Error::invalid(
            &log.file,
            "jobs",
            format!(
                "no job to schedule ({} job lines dropped by the SWF cleaning rule)",
                log.dropped.total()
            ),
        ));
    }
    let mut conv = Conversion {
        dropped: log.dropped.total(),
        ..Conversion::default()
    };
    let jobs = log
        .jobs
        .iter()
        .map(|j| batch_job(log, j, n, max_job_nodes, &mut conv))
        .collect::<Result<Vec<BatchJob>>>()?;
    Ok((Workload::new(n, jobs, &log.file)?, conv))
}

/// The platform size (`--nodes`, else the headers) and the `--max-job-nodes` check.
fn platform(log: &SwfLog, nodes: Option<u32>, max_job_nodes: Option<u32>) -> Result<u32> {
    let n = nodes.or(log.max_nodes).or(log.max_procs).ok_or_else(|| {
        Error::option(
            "--nodes",
            format!(
                "{}: no MaxNodes/MaxProcs header; give the platform size",
                log.file
            ),
        )
    })?;
    limits::check_nodes(n, "--nodes").map_err(|e| match nodes {
        Some(_) => e,
        None => Error::invalid(
            &log.file,
            "MaxNodes/MaxProcs",
            format!("{n} nodes is outside the valid range 1..=2^20 (1,048,576); give --nodes"),
        ),
    })?;
    if let Some(m) = max_job_nodes {
        if m == 0 || m > n {
            return Err(Error::option(
                "--max-job-nodes",
                format!("must be in 1..={n}, got {m}"),
            ));
        }
    }
    Ok(n)
}

/// One SWF job as a batch job on `n` nodes; errors name its line.
fn batch_job(
    log: &SwfLog,
    j: &SwfJob,
    n: u32,
    max_job_nodes: Option<u32>,
    conv: &mut Conversion,
) -> Result<BatchJob> {
    let mut p = j.procs;
    if let Some(m) = max_job_nodes {
        if p > m {
            p = m;
            conv.reduced += 1;
        }
    }
    if p > n {
        return Err(Error::line(
            &log.file,
            j.line,
            format!(
                "job {} needs {p} nodes but the machine has {n} (see --max-job-nodes)",
                j.id
            ),
        ));
    }
    let walltime = match &j.requested_time {
        Some(w) => w.clone(),
        None => {
            conv.no_walltime += 1;
            j.run.clone()
        }
    };
    let run = if j.run > walltime {
        conv.cut_to_walltime += 1;
        walltime.clone()
    } else {
        j.run.clone()
    };
    let b = BatchJob {
        name: j.id.to_string(),
        release: j.submit.clone(),
        nodes: p,
        run,
        walltime,
    };
    b.check(n).map_err(|(field, msg)| {
        Error::line(&log.file, j.line, format!("job {} {field}: {msg}", j.id))
    })?;
    Ok(b)
}

/// Reads an SWF file (`.swf` or `.swf.gz`) as a workload.
pub fn load(
    path: &Path,
    nodes: Option<u32>,
    max_job_nodes: Option<u32>,
) -> Result<(Workload, Conversion)> {
    from_swf(&SwfLog::load(path)?, nodes, max_job_nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "; MaxNodes: 16\n";

    #[test]
    fn maps_fields_and_cuts_runs() {
        let text = format!(
            "{HEAD}1 0 5 100 4 -1 -1 4 90 -1 1 -1 -1 -1 1 -1 -1 -1\n2 10 0 50 2 -1 -1 2 -1 -1 1 -1 -1 -1 1 -1 -1 -1\n"
        );
        let log = SwfLog::parse(&text, "t.swf").unwrap();
        let (w, c) = from_swf(&log, None, None).unwrap();
        assert_eq!(w.nodes, 16);
        assert_eq!(w.jobs[0].run, crate::Time::from_int(90));
        assert_eq!(w.jobs[1].walltime, crate::Time::from_int(50));
        assert_eq!((c.cut_to_walltime, c.no_walltime), (1, 1));
    }

    #[test]
    fn too_large_job_names_its_line() {
        let text = format!("{HEAD}1 0 5 100 32 -1 -1 32 200 -1 1 -1 -1 -1 1 -1 -1 -1\n");
        let log = SwfLog::parse(&text, "big.swf").unwrap();
        let e = from_swf(&log, None, None).unwrap_err().to_string();
        assert!(e.contains("big.swf:2") && e.contains("32 nodes"), "{e}");
        let (w, c) = from_swf(&log, None, Some(12)).unwrap();
        assert_eq!((w.jobs[0].nodes, c.reduced), (12, 1));
    }
}
