//! `resched steal --jobs-csv FILE`: one row per job and variant, so that every aggregate of the
//! report (node-stealing paper, Section 5.3: maximum, mean and size-weighted mean flow, per size
//! class, useful utilization) can be recomputed from the flows behind it.
//!
//! Columns (times in seconds, exact rationals as the `exact` column of `--csv`):
//! - `variant`; `job` (index in submission order, 0-based); `name` (the SWF job number, or
//!   `S1`… for the synthetic workload);
//! - `class` k (the job's nodes lie in [2^k, 2^(k+1))); `nodes` (count); `node_ids` (the nodes
//!   of the completing attempt as space-separated ids or inclusive ranges `a-b`);
//! - `release` (submit time); `first_start` (start of the first attempt); `start` (of the
//!   completing attempt); `end` (completion); `flow` = end − release, and `flow_decimal`
//!   (6 decimals);
//! - `work`: the failure-free run time (cut at the walltime), so that with the default window
//!   [first submission, last completion) the useful utilization is
//!   Σ nodes·work / (N · (last end − first submission));
//! - `restarts` (attempts − 1), of which `failed` (cut by a failure) and `stolen` (interrupted
//!   because its nodes were stolen); the rest are cancelled proactive checkpoints (7.2.3);
//! - `in_flows`: 1 if the job counts in the flow statistics (`--prune-jobs`), else 0;
//! - `status`: `complete`, or `partial` when the variant's run was stopped before its end
//!   (`--max-wall`, a signal): its rows are then the jobs completed by the instant reached,
//!   with their `job` index in the whole workload and the same times as in the whole run; the
//!   flow pruning applies to the completed jobs;
//! - `resched`: the build that wrote the row (`crate::provenance::Provenance::tag`), the same on
//!   every row.
use resched::error::{Error, Result};
use resched::stealing::metrics::{size_class, Pruning};
use resched::stealing::nodes::NodeSet;
use resched::stealing::sim::{AttemptRecord, Outcome, Partial, Run};
use std::path::Path;

const HEADER: [&str; 19] = [
    "variant",
    "job",
    "name",
    "class",
    "nodes",
    "node_ids",
    "release",
    "first_start",
    "start",
    "end",
    "flow",
    "flow_decimal",
    "work",
    "restarts",
    "failed",
    "stolen",
    "in_flows",
    "status",
    "resched",
];

/// The rows of every variant, in memory until the end of the command.
pub struct JobsCsv {
    w: csv::Writer<Vec<u8>>,
}

/// `0-3 7`: ids and inclusive ranges, space-separated.
fn node_ids(s: &NodeSet) -> String {
    s.ranges()
        .iter()
        .map(|&(a, b)| {
            if b == a + 1 {
                a.to_string()
            } else {
                format!("{a}-{}", b - 1)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A csv error on the in-memory buffer, reported against the output file.
fn csv_error(path: &Path, e: csv::Error) -> Error {
    Error::io(path, std::io::Error::other(e))
}

impl JobsCsv {
    /// An empty table with its header; `path` names the output in errors.
    pub fn new(path: &Path) -> Result<JobsCsv> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(HEADER).map_err(|e| csv_error(path, e))?;
        Ok(JobsCsv { w })
    }

    /// Adds the jobs of `run`, with the flow statistics' pruning.
    pub fn add(&mut self, run: &Run, pruning: &Pruning, path: &Path) -> Result<()> {
        self.add_rows(run, pruning, path, None)
    }

    /// Adds the completed jobs of a stopped run, numbered as in the whole workload.
    pub fn add_partial(&mut self, p: &Partial, pruning: &Pruning, path: &Path) -> Result<()> {
        self.add_rows(&p.run, pruning, path, Some(&p.completed))
    }

    /// The rows of `run`; `index[j]` is the workload index of its job j when it is partial.
    fn add_rows(
        &mut self,
        run: &Run,
        pruning: &Pruning,
        path: &Path,
        index: Option<&[usize]>,
    ) -> Result<()> {
        let status = if index.is_some() {
            "partial"
        } else {
            "complete"
        };
        let mut by_job: Vec<Vec<&AttemptRecord>> = vec![Vec::new(); run.jobs.len()];
        for a in &run.attempts {
            if let Some(list) = by_job.get_mut(a.job) {
                list.push(a);
            }
        }
        let kept = pruning.kept(run.jobs.len());
        let variant = run.variant.to_string();
        let build = crate::provenance::this_build().tag();
        for (j, (info, list)) in run.jobs.iter().zip(by_job.iter_mut()).enumerate() {
            list.sort_by_key(|a| a.index);
            // Every job of a finished run has attempts, the last one completing (the checker's
            // invariant 3); a run without them is refused rather than given invented times.
            let (Some(first), Some(last), Some(end)) =
                (list.first(), list.last(), run.completion.get(j))
            else {
                return Err(Error::Scheduler {
                    algo: variant,
                    time: run.end.to_string(),
                    msg: format!("job {} has no attempt or no completion", info.name),
                });
            };
            let flow = end - &info.release;
            let count = |f: fn(&Outcome) -> bool| list.iter().filter(|a| f(&a.outcome)).count();
            // default: a whole run numbers its jobs as the workload does
            let workload_index = index.map_or(Some(j), |ix| ix.get(j).copied());
            let Some(workload_index) = workload_index else {
                return Err(Error::Scheduler {
                    algo: variant,
                    time: run.end.to_string(),
                    msg: format!("job {} of the partial run has no workload index", info.name),
                });
            };
            let row = [
                variant.clone(),
                workload_index.to_string(),
                info.name.clone(),
                size_class(info.nodes).to_string(),
                info.nodes.to_string(),
                node_ids(&last.nodes),
                info.release.to_string(),
                first.start.to_string(),
                last.start.to_string(),
                end.to_string(),
                flow.to_string(),
                flow.to_decimal_string(6),
                info.timeline.work.to_string(),
                (list.len() - 1).to_string(),
                count(|o| matches!(o, Outcome::Failed { .. })).to_string(),
                count(|o| matches!(o, Outcome::Stolen { .. })).to_string(),
                u8::from(kept.contains(&j)).to_string(),
                status.to_string(),
                build.clone(),
            ];
            self.w.write_record(&row).map_err(|e| csv_error(path, e))?;
        }
        Ok(())
    }

    /// The CSV text.
    pub fn into_bytes(self, path: &Path) -> Result<Vec<u8>> {
        self.w
            .into_inner()
            .map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::stealing::examples::{toy_failures, toy_resilience, toy_workload};
    use resched::stealing::{simulate, Variant};

    #[test]
    fn names_are_escaped() {
        let mut w = toy_workload();
        w.jobs[1].name = "J,\"2\"".into();
        let run = simulate(&w, &toy_resilience(), toy_failures(), Variant::SFSJ).unwrap();
        let p = Path::new("jobs.csv");
        let mut t = JobsCsv::new(p).unwrap();
        t.add(&run, &Pruning::default(), p).unwrap();
        let text = String::from_utf8(t.into_bytes(p).unwrap()).unwrap();
        assert!(
            text.lines()
                .any(|l| l.starts_with("H111,1,\"J,\"\"2\"\"\",0,1,2,")),
            "{text}"
        );
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let names: Vec<String> = r.records().map(|x| x.unwrap()[2].to_string()).collect();
        assert_eq!(names[1], "J,\"2\"");
    }
}
