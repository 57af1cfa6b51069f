//! Schedules in Batsim's `jobs.csv` format, so that a resched schedule or a `steal` run opens in
//! evalys (`evalys.jobset.JobSet.from_csv`) and in the scripts of the Batsim world.
//!
//! One row per attempt, Batsim's columns first: `job_id`, `workload_name`, `profile`,
//! `submission_time`, `requested_number_of_resources`, `requested_time`, `success`,
//! `final_state`, `starting_time`, `execution_time`, `finish_time`, `waiting_time`,
//! `turnaround_time`, `stretch`, `allocated_resources` (an interval set of processor ids, `0-3
//! 7`), `consumed_energy` (-1: not modelled), `metadata`; then resched's: `job` (the job's
//! name), `attempt` (1-based), `exact_start` and `exact_finish` (the rationals the decimal
//! columns round to 9 places), `resched` (the build, as in every result).
//!
//! Readings: an attempt is a Batsim job; the k-th resubmission of job j is `<workload>!j#k`,
//! Batsim's naming of a resubmitted job. In the papers' offline model every job is submitted at
//! 0; a failed attempt of a silent error ran to its end (`COMPLETED_FAILED`), one a node crash or
//! node stealing ended is `COMPLETED_KILLED`. Rigid and moldable schedules get processor ids
//! from [`resched::model::placement::place`].
use resched::error::{Error, Result};
use resched::model::placement::{interval_set, place};
use resched::model::{Instance, Schedule};
use resched::stealing::sim::{Outcome, Run};
use resched::time::Time;
use std::collections::HashMap;

const HEADER: [&str; 22] = [
    "job_id",
    "workload_name",
    "profile",
    "submission_time",
    "requested_number_of_resources",
    "requested_time",
    "success",
    "final_state",
    "starting_time",
    "execution_time",
    "finish_time",
    "waiting_time",
    "turnaround_time",
    "stretch",
    "allocated_resources",
    "consumed_energy",
    "metadata",
    "job",
    "attempt",
    "exact_start",
    "exact_finish",
    "resched",
];

/// One attempt, as the writer needs it.
struct Row<'a> {
    job: usize,
    name: &'a str,
    attempt: u32,
    submission: Time,
    requested: Time,
    start: Time,
    finish: Time,
    procs: u32,
    ids: String,
    state: &'static str,
}

/// The decimal Batsim and evalys read (9 places; the exact value is in its own column).
fn dec(t: &Time) -> String {
    t.to_decimal_string(9)
}

fn write(workload: &str, rows: &[Row<'_>]) -> Result<String> {
    let err = |e: csv::Error| Error::Limit(format!("Batsim jobs CSV: {e}"));
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER).map_err(err)?;
    let build = crate::provenance::this_build().tag();
    for r in rows {
        let exec = &r.finish - &r.start;
        let wait = &r.start - &r.submission;
        let turnaround = &r.finish - &r.submission;
        let stretch = turnaround
            .checked_div(&exec)
            .map_or_else(|| "-1".to_string(), |s| dec(&s));
        let id = if r.attempt <= 1 {
            format!("{workload}!{}", r.job)
        } else {
            format!("{workload}!{}#{}", r.job, r.attempt - 1)
        };
        let success = u8::from(r.state == "COMPLETED_SUCCESSFULLY").to_string();
        w.write_record([
            id.as_str(),
            workload,
            "delay",
            &dec(&r.submission),
            &r.procs.to_string(),
            &dec(&r.requested),
            &success,
            r.state,
            &dec(&r.start),
            &dec(&exec),
            &dec(&r.finish),
            &dec(&wait),
            &dec(&turnaround),
            &stretch,
            &r.ids,
            "-1",
            "",
            r.name,
            &r.attempt.to_string(),
            &r.start.to_string(),
            &r.finish.to_string(),
            &build,
        ])
        .map_err(err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Limit(format!("Batsim jobs CSV: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::Limit(format!("Batsim jobs CSV: {e}")))
}

/// A schedule of the papers' offline model (every job submitted at 0), placed on processor ids;
/// the last attempt of each job is its successful one.
pub fn schedule_csv(inst: &Instance, schedule: &Schedule) -> Result<String> {
    let placed = place(inst.procs, schedule)?;
    let mut last: HashMap<usize, u32> = HashMap::new();
    for a in &placed.attempts {
        let e = last.entry(a.job).or_insert(a.attempt);
        *e = (*e).max(a.attempt);
    }
    let mut order: Vec<usize> = (0..placed.attempts.len()).collect();
    let at = &placed.attempts;
    order.sort_by(|&x, &y| {
        (&at[x].start, at[x].job, at[x].attempt).cmp(&(&at[y].start, at[y].job, at[y].attempt))
    });
    let rows: Vec<Row<'_>> = order
        .iter()
        .map(|&i| {
            let a = &at[i];
            let name = inst.jobs.get(a.job).map_or("", |j| j.name.as_str());
            Row {
                job: a.job,
                name,
                attempt: a.attempt,
                submission: Time::zero(),
                requested: a.duration.clone(),
                start: a.start.clone(),
                finish: a.end(),
                procs: a.procs,
                // unreachable: `place` gave every attempt its ids
                ids: interval_set(a.nodes.as_deref().unwrap_or_default()),
                state: if last.get(&a.job) == Some(&a.attempt) {
                    "COMPLETED_SUCCESSFULLY"
                } else {
                    "COMPLETED_FAILED"
                },
            }
        })
        .collect();
    write("resched", &rows)
}

/// A `steal` run: its attempts on their node ids, submitted at each job's release, with the
/// job's walltime as the requested time.
pub fn steal_csv(run: &Run) -> Result<String> {
    let mut order: Vec<usize> = (0..run.attempts.len()).collect();
    let at = &run.attempts;
    order.sort_by(|&x, &y| {
        (&at[x].start, at[x].job, at[x].index).cmp(&(&at[y].start, at[y].job, at[y].index))
    });
    let mut rows = Vec::with_capacity(order.len());
    for i in order {
        let a = &at[i];
        let Some(info) = run.jobs.get(a.job) else {
            return Err(Error::Limit(format!(
                "Batsim jobs CSV: attempt of unknown job {}",
                a.job
            )));
        };
        let ids: Vec<u32> = a
            .nodes
            .ranges()
            .iter()
            .flat_map(|&(lo, hi)| lo..hi)
            .collect();
        rows.push(Row {
            job: a.job,
            name: &info.name,
            attempt: a.index,
            submission: info.release.clone(),
            requested: info.walltime.clone(),
            start: a.start.clone(),
            finish: a.end.clone(),
            procs: a.nodes.len(),
            ids: interval_set(&ids),
            state: match a.outcome {
                Outcome::Completed => "COMPLETED_SUCCESSFULLY",
                Outcome::Failed { .. } | Outcome::Stolen { .. } | Outcome::Checkpointed => {
                    "COMPLETED_KILLED"
                }
            },
        });
    }
    write(&run.variant.to_string(), &rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::model::{Attempt, Job};

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_default()
    }

    #[test]
    fn one_row_per_attempt_with_batsim_names_and_ids() {
        let inst = Instance {
            procs: 3,
            jobs: vec![Job::rigid("a", 2, t("3/2")), Job::rigid("b", 1, t("1"))],
        };
        let at = |job, attempt, start: &str, procs, d: &str| Attempt {
            job,
            attempt,
            start: t(start),
            procs,
            duration: t(d),
            nodes: None,
        };
        let sch = Schedule {
            attempts: vec![
                at(0, 1, "0", 2, "3/2"),
                at(1, 1, "0", 1, "1"),
                at(0, 2, "3/2", 2, "3/2"),
            ],
            ..Schedule::default()
        };
        let text = schedule_csv(&inst, &sch).unwrap_or_else(|e| panic!("{e}"));
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap_or_default()).collect();
        let col = |row: &csv::StringRecord, name: &str| {
            let k = HEADER.iter().position(|h| *h == name).unwrap_or(usize::MAX);
            row.get(k).unwrap_or("?").to_string()
        };
        let cells: Vec<[String; 6]> = rows
            .iter()
            .map(|row| {
                [
                    col(row, "job_id"),
                    col(row, "final_state"),
                    col(row, "starting_time"),
                    col(row, "finish_time"),
                    col(row, "allocated_resources"),
                    col(row, "stretch"),
                ]
            })
            .collect();
        let want = |a: &str, b: &str, c: &str, d: &str, e: &str, f: &str| {
            [a, b, c, d, e, f].map(String::from)
        };
        assert_eq!(
            cells,
            [
                want(
                    "resched!0",
                    "COMPLETED_FAILED",
                    "0.000000000",
                    "1.500000000",
                    "0-1",
                    "1.000000000"
                ),
                want(
                    "resched!1",
                    "COMPLETED_SUCCESSFULLY",
                    "0.000000000",
                    "1.000000000",
                    "2",
                    "1.000000000"
                ),
                want(
                    "resched!0#1",
                    "COMPLETED_SUCCESSFULLY",
                    "1.500000000",
                    "3.000000000",
                    "0-1",
                    "2.000000000"
                ),
            ]
        );
        assert_eq!(col(&rows[2], "exact_finish"), "3");
        assert_eq!(col(&rows[2], "success"), "1");
    }
}
