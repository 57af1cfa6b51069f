//! SWF job logs as node-stealing workloads (node-stealing paper, Section 5.2). The parsing is
//! [`crate::workload::swf`]'s; this file only maps its jobs onto the batch model:
//! - release = submit time (field 2), run time = field 4;
//! - SWF sizes are *processors* (field 5, else 8) and the batch model counts *nodes*: a job
//!   needs ⌈processors / c⌉ nodes, where c, the processors per node, is `procs_per_node`, else
//!   `MaxProcs / MaxNodes` when both headers are given and the first is a multiple of the second
//!   (LLNL-Thunder: 4008 / 1002 = 4; Mira: 49152 / 49152 = 1), else 1 (the report says which);
//! - the platform size is `nodes`, else ⌈P / c⌉ with P the processor count every trace
//!   command uses ([`SwfLog::platform_procs`], shared with `rigid-trace`: `MaxProcs`, else
//!   `MaxNodes`, else — a headerless slice — the largest job);
//! - failures strike the machine's nodes (μ = μ_ind/N, Section 5.2): N is the platform size,
//!   except on a machine whose nodes are not alike, `MaxProcs` not a multiple of `MaxNodes`
//!   with neither `nodes` nor `procs_per_node` given: its processors are then scheduled as
//!   one-processor nodes, but it still has `MaxNodes` nodes to fail (CEA-Curie: 93,312
//!   processors on 5,544 nodes), so N is `MaxNodes` ([`Conversion::failing_nodes`]);
//! - walltime = requested time (field 9); when unknown, the run time itself;
//! - a run time above the walltime is cut to it (the batch system kills the job then);
//! - Section 5.2 reduces "the size of the largest jobs from 49152 nodes to 49000 nodes" so that
//!   no job waits for a machine without any down node: `max_job_nodes` does that (sizes above
//!   it become it); without it a job larger than the machine is an error naming its line;
//! - a log with no job left, a platform above 2^20 nodes, or a submit time, run time or walltime
//!   beyond 10^11 s ([`super::limits`]) is an error naming the file or the line.
use super::limits;
use super::model::{BatchJob, Workload};
use crate::error::{Error, Result};
use crate::time::Time;
use crate::workload::swf::{Dropped, SwfJob, SwfLog};
use std::path::Path;

/// How SWF processors become nodes (see the module doc); every field is optional. Errors and
/// the report's rules name these fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sizing {
    /// Platform size in nodes.
    pub nodes: Option<u32>,
    /// Processors per node.
    pub procs_per_node: Option<u32>,
    /// Reduce larger jobs to this many nodes.
    pub max_job_nodes: Option<u32>,
}

/// What the conversion changed, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conversion {
    /// Processors per node used, and where that number came from (a [`Sizing`] field is
    /// written `` `procs_per_node` ``, in backticks).
    pub procs_per_node: u32,
    pub procs_per_node_rule: &'static str,
    /// Where the platform size came from: `` `nodes` ``, the log's header, or its largest job (a
    /// log without a header, whose real machine the reader cannot know).
    pub platform_rule: &'static str,
    /// The nodes failures strike, N in μ = μ_ind/N (see the module doc), and where that
    /// number came from. Each of the platform's nodes then fails with MTBF μ times the
    /// platform's size, which is what the Young/Daly period reads.
    pub failing_nodes: u32,
    pub failing_rule: &'static str,
    /// Lines dropped by the SWF reader's cleaning rule, by reason.
    pub dropped: Dropped,
    /// Jobs whose run time was cut to the walltime.
    pub cut_to_walltime: usize,
    /// Jobs without a walltime (run time used).
    pub no_walltime: usize,
    /// Jobs reduced to `max_job_nodes`.
    pub reduced: usize,
    /// Jobs whose processor count is not a multiple of the processors per node: each holds
    /// whole nodes, and the processors it does not use stay idle (a one-processor job on an
    /// 8-processor node holds 8).
    pub rounded_up: usize,
    /// Processor-time the jobs use (Σ processors · run) and hold (Σ nodes · processors per
    /// node · run): the load the platform sees grows by their ratio.
    pub procs_used: Time,
    pub procs_held: Time,
}

impl Conversion {
    /// The share of the processor-time held that rounding to whole nodes leaves idle, in
    /// [0, 1] (0 for a workload of no run time).
    pub fn idle_share(&self) -> Time {
        if self.procs_held.is_zero() {
            return Time::zero();
        }
        let share = (&self.procs_held - &self.procs_used).checked_div(&self.procs_held);
        // unreachable: the held time is not zero (returned above)
        share.unwrap_or_else(Time::zero)
    }
}

/// Converts a parsed log (see the module doc).
pub fn from_swf(log: &SwfLog, sizing: Sizing) -> Result<(Workload, Conversion)> {
    // First: an empty log (or one whose every line was dropped) is that, whatever its headers
    // say, not a missing platform size.
    if log.jobs.is_empty() {
        return Err(Error::invalid(
            &log.file,
            "jobs",
            format!("no job to schedule ({})", log.dropped),
        ));
    }
    let (ppn, rule) = procs_per_node(log, sizing.procs_per_node)?;
    let (n, platform_rule) = platform(log, sizing.nodes, ppn, sizing.max_job_nodes)?;
    let (failing_nodes, failing_rule) = failing_nodes(log, sizing, n);
    let mut conv = Conversion {
        procs_per_node: ppn,
        procs_per_node_rule: rule,
        platform_rule,
        failing_nodes,
        failing_rule,
        dropped: log.dropped,
        ..Conversion::default()
    };
    let jobs = log
        .jobs
        .iter()
        .map(|j| batch_job(log, j, n, sizing.max_job_nodes, &mut conv))
        .collect::<Result<Vec<BatchJob>>>()?;
    Ok((Workload::new(n, jobs, &log.file)?, conv))
}

/// The processors per node c (see the module doc) and the rule that gave it.
fn procs_per_node(log: &SwfLog, given: Option<u32>) -> Result<(u32, &'static str)> {
    match given {
        Some(0) => Err(Error::param("procs_per_node", "must be at least 1")),
        Some(c) => Ok((c, "`procs_per_node`")),
        None => Ok(match (log.max_procs, log.max_nodes) {
            (Some(p), Some(n)) if n > 0 && p % n == 0 => (p / n, "MaxProcs / MaxNodes"),
            (Some(_), Some(_)) => (1, "MaxProcs is not a multiple of MaxNodes, so 1"),
            _ => (1, "no MaxProcs and MaxNodes headers, so 1"),
        }),
    }
}

/// The nodes failures strike on a platform of `n` nodes (see the module doc), and the rule.
/// Only a header whose nodes each hold several processors, `MaxNodes < MaxProcs`, is read
/// as a machine's nodes; given sizes are the user's nodes.
fn failing_nodes(log: &SwfLog, sizing: Sizing, n: u32) -> (u32, &'static str) {
    match (
        sizing.nodes,
        sizing.procs_per_node,
        log.max_procs,
        log.max_nodes,
    ) {
        (None, None, Some(p), Some(m)) if m > 0 && m < p && p % m != 0 => (
            m,
            "the MaxNodes header: its processors are scheduled as one-processor nodes",
        ),
        _ => (n, "the platform's"),
    }
}

/// Nodes needed by `procs` processors at `c` per node: ⌈procs / c⌉ (c ≥ 1).
fn nodes_for(procs: u32, c: u32) -> u32 {
    procs.div_ceil(c.max(1))
}

/// The platform size (`nodes`, else ⌈P / c⌉), the rule that gave it (decided here, where
/// the size is chosen, so the report cannot disagree with it), and the `max_job_nodes` check.
fn platform(
    log: &SwfLog,
    nodes: Option<u32>,
    ppn: u32,
    max_job_nodes: Option<u32>,
) -> Result<(u32, &'static str)> {
    let rule = match (nodes, log.header_procs()) {
        (Some(_), _) => "`nodes`",
        (None, Some(_)) => "MaxProcs / MaxNodes header",
        (None, None) => "the largest job: the log has no MaxProcs / MaxNodes header, give `nodes`",
    };
    let from_log = log.platform_procs().map(|p| nodes_for(p, ppn));
    let n = nodes.or(from_log).ok_or_else(|| {
        Error::param(
            "nodes",
            format!(
                "{}: no MaxNodes/MaxProcs header and no job; give the platform size",
                log.file
            ),
        )
    })?;
    limits::check_nodes(n, "nodes").map_err(|e| match nodes {
        Some(_) => e,
        None => Error::invalid(
            &log.file,
            "MaxNodes/MaxProcs",
            format!("{n} nodes is outside the valid range 1..=2^20 (1,048,576); give `nodes`"),
        ),
    })?;
    if let Some(m) = max_job_nodes {
        if m == 0 || m > n {
            return Err(Error::param(
                "max_job_nodes",
                format!("must be in 1..={n}, got {m}"),
            ));
        }
    }
    Ok((n, rule))
}

/// One SWF job as a batch job on `n` nodes; errors name its line.
fn batch_job(
    log: &SwfLog,
    j: &SwfJob,
    n: u32,
    max_job_nodes: Option<u32>,
    conv: &mut Conversion,
) -> Result<BatchJob> {
    let mut p = nodes_for(j.procs, conv.procs_per_node);
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
                "job {} needs {p} nodes but the machine has {n} (see `max_job_nodes`)",
                j.id
            ),
        ));
    }
    if j.procs % conv.procs_per_node.max(1) != 0 {
        conv.rounded_up += 1;
    }
    // A job reduced by `max_job_nodes` uses no more than it holds.
    let held_procs = i64::from(p) * i64::from(conv.procs_per_node.max(1));
    let held = Time::from_int(held_procs);
    let used = Time::from_int(i64::from(j.procs).min(held_procs));
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
    conv.procs_used += &(&used * &run);
    conv.procs_held += &(&held * &run);
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
pub fn load(path: &Path, sizing: Sizing) -> Result<(Workload, Conversion)> {
    from_swf(&SwfLog::load(path)?, sizing)
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
        let (w, c) = from_swf(&log, Sizing::default()).unwrap();
        assert_eq!(w.nodes, 16);
        assert_eq!(w.jobs[0].run, crate::Time::from_int(90));
        assert_eq!(w.jobs[1].walltime, crate::Time::from_int(50));
        assert_eq!((c.cut_to_walltime, c.no_walltime), (1, 1));
    }

    #[test]
    fn too_large_job_names_its_line() {
        let text = format!("{HEAD}1 0 5 100 32 -1 -1 32 200 -1 1 -1 -1 -1 1 -1 -1 -1\n");
        let log = SwfLog::parse(&text, "big.swf").unwrap();
        let e = from_swf(&log, Sizing::default()).unwrap_err().to_string();
        assert!(e.contains("big.swf:2") && e.contains("32 nodes"), "{e}");
        let reduce = Sizing {
            max_job_nodes: Some(12),
            ..Sizing::default()
        };
        let (w, c) = from_swf(&log, reduce).unwrap();
        assert_eq!((w.jobs[0].nodes, c.reduced), (12, 1));
    }

    /// LLNL-Thunder's headers: 1002 nodes of 4 processors; its 1024-processor jobs need 256
    /// nodes (read as nodes, they would be refused: "job 12 needs 1024 nodes but the machine
    /// has 1002").
    #[test]
    fn processors_become_nodes_by_the_headers() {
        let head = "; MaxNodes: 1002\n; MaxProcs: 4008\n";
        let text = format!(
            "{head}1 0 5 100 1024 -1 -1 1024 200 -1 1 -1 -1 -1 1 -1 -1 -1\n2 1 5 100 3 -1 -1 3 200 -1 1 -1 -1 -1 1 -1 -1 -1\n"
        );
        let log = SwfLog::parse(&text, "thunder.swf").unwrap();
        let (w, c) = from_swf(&log, Sizing::default()).unwrap();
        assert_eq!((w.nodes, w.jobs[0].nodes, w.jobs[1].nodes), (1002, 256, 1));
        assert_eq!(
            (c.procs_per_node, c.procs_per_node_rule, c.platform_rule),
            (4, "MaxProcs / MaxNodes", "MaxProcs / MaxNodes header")
        );
        let one = Sizing {
            procs_per_node: Some(1),
            nodes: Some(4008),
            ..Sizing::default()
        };
        let (w, c) = from_swf(&log, one).unwrap();
        assert_eq!((w.nodes, w.jobs[0].nodes), (4008, 1024));
        assert_eq!(
            (c.procs_per_node_rule, c.platform_rule),
            ("`procs_per_node`", "`nodes`")
        );
        let zero = Sizing {
            procs_per_node: Some(0),
            ..Sizing::default()
        };
        let e = from_swf(&log, zero).unwrap_err().to_string();
        assert!(
            e.contains("parameter `procs_per_node`") && !e.contains("--"),
            "{e}"
        );
    }

    /// CEA-Curie's headers in small: 17 processors on 3 nodes that are not alike. The
    /// processors are scheduled as one-processor nodes, and failures strike the machine's 3
    /// nodes; sizes the user gives are the nodes failures strike.
    #[test]
    fn unlike_nodes_fail_as_the_machines_nodes() {
        let head = "; MaxNodes: 3\n; MaxProcs: 17\n";
        let text = format!("{head}1 0 5 100 5 -1 -1 5 200 -1 1 -1 -1 -1 1 -1 -1 -1\n");
        let log = SwfLog::parse(&text, "curie.swf").unwrap();
        let (w, c) = from_swf(&log, Sizing::default()).unwrap();
        assert_eq!((w.nodes, w.jobs[0].nodes, c.procs_per_node), (17, 5, 1));
        assert_eq!(
            (c.failing_nodes, c.failing_rule),
            (
                3,
                "the MaxNodes header: its processors are scheduled as one-processor nodes"
            )
        );
        let given = [
            Sizing {
                procs_per_node: Some(1),
                ..Sizing::default()
            },
            Sizing {
                nodes: Some(20),
                ..Sizing::default()
            },
        ];
        for sizing in given {
            let (w, c) = from_swf(&log, sizing).unwrap();
            assert_eq!(
                (c.failing_nodes, c.failing_rule),
                (w.nodes, "the platform's")
            );
        }
        // Alike nodes (Thunder: 4 processors each), one-processor nodes and a header with
        // more nodes than processors: the platform's nodes are the machine's.
        for (head, n) in [
            ("; MaxNodes: 2\n; MaxProcs: 8\n", 2),
            ("; MaxNodes: 17\n; MaxProcs: 17\n", 17),
            ("; MaxNodes: 40\n; MaxProcs: 17\n", 17),
        ] {
            let text = format!("{head}1 0 5 100 1 -1 -1 1 200 -1 1 -1 -1 -1 1 -1 -1 -1\n");
            let log = SwfLog::parse(&text, "alike.swf").unwrap();
            let (w, c) = from_swf(&log, Sizing::default()).unwrap();
            assert_eq!((w.nodes, c.failing_nodes), (n, n), "{head}");
        }
    }

    /// Jobs of 1, 4 and 6 processors on nodes of 4, running 10, 10 and 5 s: they hold 4·10 +
    /// 4·10 + 8·5 = 120 processor-seconds and use 10 + 40 + 30 = 80, so a third stays idle;
    /// two of them are rounded up. A job cut by `max_job_nodes` uses only what it holds.
    #[test]
    fn whole_nodes_leave_processors_idle() {
        let head = "; MaxNodes: 4\n; MaxProcs: 16\n";
        let text = format!(
            "{head}1 0 5 10 1 -1 -1 1 20 -1 1 -1 -1 -1 1 -1 -1 -1\n\
             2 1 5 10 4 -1 -1 4 20 -1 1 -1 -1 -1 1 -1 -1 -1\n\
             3 2 5 5 6 -1 -1 6 20 -1 1 -1 -1 -1 1 -1 -1 -1\n"
        );
        let log = SwfLog::parse(&text, "nodes4.swf").unwrap();
        let (w, c) = from_swf(&log, Sizing::default()).unwrap();
        assert_eq!(
            w.jobs.iter().map(|j| j.nodes).collect::<Vec<_>>(),
            [1, 1, 2]
        );
        assert_eq!(c.rounded_up, 2);
        assert_eq!(
            (c.procs_used.clone(), c.procs_held.clone()),
            (Time::from_int(80), Time::from_int(120))
        );
        assert_eq!(c.idle_share(), Time::new(1, 3).unwrap());
        let cut = Sizing {
            max_job_nodes: Some(1),
            ..Sizing::default()
        };
        let (_, c) = from_swf(&log, cut).unwrap();
        // The 6-processor job now holds one node: 4·5 held, 4·5 used.
        assert_eq!(
            (c.procs_used, c.procs_held),
            (Time::from_int(70), Time::from_int(100))
        );
    }

    /// A headerless slice is sized by its largest job, as `rigid-trace` sizes it
    /// ([`SwfLog::platform_procs`]), and not refused for want of `nodes`.
    #[test]
    fn headerless_slice_uses_the_shared_rule() {
        let text = "1 0 5 100 21 -1 -1 21 200 -1 1 -1 -1 -1 1 -1 -1 -1\n2 9 5 100 576 -1 -1 576 200 -1 1 -1 -1 -1 1 -1 -1 -1\n";
        let log = SwfLog::parse(text, "slice.swf").unwrap();
        let (w, c) = from_swf(&log, Sizing::default()).unwrap();
        assert_eq!(Some(w.nodes), log.platform_procs());
        assert_eq!((w.nodes, c.procs_per_node), (576, 1));
        assert!(
            c.platform_rule.starts_with("the largest job"),
            "{}",
            c.platform_rule
        );
        let c16 = Sizing {
            procs_per_node: Some(16),
            ..Sizing::default()
        };
        let (w, _) = from_swf(&log, c16).unwrap();
        assert_eq!((w.nodes, w.jobs[0].nodes, w.jobs[1].nodes), (36, 2, 36));
    }
}
