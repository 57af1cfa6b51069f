//! Reader of the Standard Workload Format (SWF 2.2) of the Parallel Workloads Archive, and the
//! day splitting used by the rigid paper's Section 5.4 ("we group the jobs submitted each day as
//! a set").
//!
//! # Format
//! Header lines start with `;` (`; MaxNodes: 49152`, `; MaxProcs: 49152`, notes, ...). Every
//! other non-blank line is one job with 18 whitespace-separated numeric fields:
//!
//! | # | field | kept as |
//! |---|-------|---------|
//! | 1 | job number | [`SwfJob::id`] |
//! | 2 | submit time (s) | [`SwfJob::submit`] |
//! | 3 | wait time (s) | [`SwfJob::wait`] (`None` for −1) |
//! | 4 | run time (s) | [`SwfJob::run`] |
//! | 5 | allocated processors | [`SwfJob::procs`] (else field 8) |
//! | 8 | requested processors | [`SwfJob::requested_procs`] |
//! | 9 | requested time (walltime, s) | [`SwfJob::requested_time`] (`None` for −1) |
//! | 11 | status (1 completed, 0 failed, 5 cancelled, −1 unknown) | [`SwfJob::status`] |
//!
//! The other fields (CPU time, memory, user, group, queue, partition, dependencies, think time)
//! are checked to be numbers and otherwise ignored. Times are read exactly (decimals included).
//!
//! # Cleaning rule (documented, counted)
//! A job line that is well-formed but cannot be a job of the scheduling model is *dropped* and
//! counted in [`Dropped`], by the first reason that applies:
//! 1. run time ≤ 0 (field 4; −1 means unknown): cancelled before it started, nothing to schedule;
//! 2. no processor count: allocated (field 5) ≤ 0 and requested (field 8) ≤ 0;
//! 3. submit time < 0 (unknown): it cannot be placed in a day.
//!
//! Status is kept but not used to drop jobs: a cancelled or failed job with a positive run time
//! did occupy the machine, and the archive's cleaned logs keep it too.
//!
//! A malformed line (fewer or more than 18 fields, a field that is not a number, a processor
//! count that is not an integer) is an error naming the file and the line.
use crate::error::{Error, Result};
use crate::model::{Instance, Job};
use crate::time::Time;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// Number of fields of an SWF job line.
pub const SWF_FIELDS: usize = 18;

/// The largest submit, run or requested time accepted, in seconds (10^11 s ≈ 3,170 years, the
/// bound of `steal`'s times, `stealing::limits::MAX_SECONDS`). A run time of 1e400 must not be
/// silently cut to the walltime by `steal`, nor become an infinite exposure (a message
/// containing `inf` naming no file) in `experiment rigid-trace`; no machine logs such times.
pub const MAX_SECONDS: i64 = 100_000_000_000;

/// Length of a day in seconds, for [`SwfLog::split_days`].
pub const DAY: i64 = 86_400;

/// One job of an SWF log (after cleaning).
#[derive(Debug, Clone, PartialEq)]
pub struct SwfJob {
    /// 1-based line number in the file.
    pub line: usize,
    /// Job number (field 1).
    pub id: i64,
    /// Submit time in seconds from the log's start (field 2), ≥ 0.
    pub submit: Time,
    /// Wait time (field 3), `None` when unknown (−1).
    pub wait: Option<Time>,
    /// Run time (field 4), > 0.
    pub run: Time,
    /// Processors: allocated (field 5) when positive, else requested (field 8); ≥ 1.
    pub procs: u32,
    /// Requested processors (field 8), `None` when unknown.
    pub requested_procs: Option<u32>,
    /// Requested time, i.e. the walltime (field 9), `None` when unknown.
    pub requested_time: Option<Time>,
    /// Status (field 11): 1 completed, 0 failed, 5 cancelled, −1 unknown.
    pub status: i64,
}

/// Counts of the job lines dropped by the cleaning rule, by reason (see the module doc).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Dropped {
    /// Run time ≤ 0 or unknown.
    pub run_time: usize,
    /// Neither an allocated nor a requested processor count.
    pub procs: usize,
    /// Submit time unknown (< 0).
    pub submit: usize,
}

impl Dropped {
    /// Total number of dropped job lines.
    pub fn total(&self) -> usize {
        self.run_time + self.procs + self.submit
    }
}

/// `N job lines dropped by the SWF cleaning rule`, and the reasons that dropped any, so a user sees
/// why (e.g. `(12 with run time ≤ 0, 3 with submit time < 0)`).
impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} job lines dropped by the SWF cleaning rule",
            self.total()
        )?;
        let reasons: Vec<String> = [
            (self.run_time, "with run time ≤ 0"),
            (self.procs, "without processor count"),
            (self.submit, "with submit time < 0"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, why)| format!("{n} {why}"))
        .collect();
        if !reasons.is_empty() {
            write!(f, " ({})", reasons.join(", "))?;
        }
        Ok(())
    }
}

/// A parsed SWF log.
#[derive(Debug, Clone, PartialEq)]
pub struct SwfLog {
    /// The file it was read from (for messages).
    pub file: String,
    /// `MaxNodes` header value, if given.
    pub max_nodes: Option<u32>,
    /// `MaxProcs` header value, if given.
    pub max_procs: Option<u32>,
    /// The kept jobs, in file order.
    pub jobs: Vec<SwfJob>,
    /// What the cleaning rule dropped.
    pub dropped: Dropped,
}

/// What [`SwfLog::split_days`] does with a job needing more processors than the platform's P.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Oversize {
    /// Leave the job out and count it in [`Days::oversize`] (the default: a rigid job that
    /// needs more than P processors cannot run at all).
    #[default]
    Drop,
    /// Cap its processor count at P (keeping its run time).
    Clamp,
    /// Fail with an error naming the line.
    Error,
}

/// One day of a log as a rigid instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Day {
    /// Day number: ⌊submit / 86400⌋ (days counted from the log's time origin).
    pub day: i64,
    /// The rigid instance (p_j = processors, t_j = run time), jobs in submit order, named by
    /// their SWF job number.
    pub instance: Instance,
    /// The SWF line of every job of the instance.
    pub lines: Vec<usize>,
}

/// The result of [`SwfLog::split_days`].
#[derive(Debug, Clone, PartialEq)]
pub struct Days {
    /// Non-empty days in increasing order.
    pub days: Vec<Day>,
    /// The platform size used.
    pub procs: u32,
    /// Jobs larger than P that were dropped ([`Oversize::Drop`]) or clamped ([`Oversize::Clamp`]).
    pub oversize: usize,
}

/// Parses an SWF number exactly: an integer fast path, else a decimal (`12.5`, `1e3`).
fn number(tok: &str) -> Option<Time> {
    if let Ok(v) = tok.parse::<i64>() {
        return Some(Time::from_int(v));
    }
    tok.parse::<Time>().ok()
}

/// An optional count field: negative means unknown; otherwise it must be an integer ≤ u32::MAX.
fn count(v: &Time, file: &str, line: usize, name: &str) -> Result<Option<u32>> {
    if v.is_negative() {
        return Ok(None);
    }
    if !v.is_integer() {
        return Err(Error::line(
            file,
            line,
            format!("{name} `{v}` is not an integer"),
        ));
    }
    u32::try_from(v.floor())
        .map(Some)
        .map_err(|_| Error::line(file, line, format!("{name} `{v}` is too large")))
}

/// What one job line becomes under the cleaning rule (module doc).
enum JobLine {
    Kept(SwfJob),
    /// Run time ≤ 0 (rule 1).
    NoRunTime,
    /// Neither allocated nor requested processors (rule 2).
    NoProcs,
    /// A negative submit time (rule 3).
    NoSubmit,
}

/// The 18 fields of a job line, as text and as exact numbers.
fn fields<'a>(s: &'a str, file: &str, line: usize) -> Result<(Vec<&'a str>, Vec<Time>)> {
    let toks: Vec<&str> = s.split_whitespace().collect();
    if toks.len() != SWF_FIELDS {
        let what = if toks.len() < SWF_FIELDS {
            "too few"
        } else {
            "too many"
        };
        return Err(Error::line(
            file,
            line,
            format!(
                "{what} fields: {} (an SWF job line has {SWF_FIELDS})",
                toks.len()
            ),
        ));
    }
    let v = toks
        .iter()
        .enumerate()
        .map(|(k, t)| {
            number(t).ok_or_else(|| {
                Error::line(file, line, format!("field {} `{t}` is not a number", k + 1))
            })
        })
        .collect::<Result<Vec<Time>>>()?;
    Ok((toks, v))
}

/// An integer field (`what` names it), exactly.
fn integer(v: &Time, tok: &str, file: &str, line: usize, what: &str) -> Result<i64> {
    if !v.is_integer() {
        return Err(Error::line(
            file,
            line,
            format!("{what} `{tok}` is not an integer"),
        ));
    }
    i64::try_from(v.floor()).map_err(|_| Error::line(file, line, format!("{what} is too large")))
}

/// One job line, checked, then cleaned.
fn job_line(s: &str, file: &str, line: usize) -> Result<JobLine> {
    let (toks, v) = fields(s, file, line)?;
    let id = integer(&v[0], toks[0], file, line, "field 1 (job number)")?;
    let alloc = count(&v[4], file, line, "field 5 (allocated processors)")?;
    let requested_procs = count(&v[7], file, line, "field 8 (requested processors)")?;
    let status = integer(&v[10], toks[10], file, line, "field 11 (status)")?;
    let max = Time::from_int(MAX_SECONDS);
    for (k, what) in [(1, "submit time"), (3, "run time"), (8, "requested time")] {
        if v[k] > max {
            return Err(Error::line(
                file,
                line,
                format!(
                    "field {} ({what}) `{}` s is beyond the limit of 10^11 s (≈ 3,170 years)",
                    k + 1,
                    toks[k]
                ),
            ));
        }
    }
    // The cleaning rule, in the order the module doc states.
    if !v[3].is_positive() {
        return Ok(JobLine::NoRunTime);
    }
    let procs = match (alloc.filter(|&p| p > 0), requested_procs.filter(|&p| p > 0)) {
        (Some(p), _) | (None, Some(p)) => p,
        (None, None) => return Ok(JobLine::NoProcs),
    };
    if v[1].is_negative() {
        return Ok(JobLine::NoSubmit);
    }
    let opt = |t: &Time| {
        if t.is_negative() {
            None
        } else {
            Some(t.clone())
        }
    };
    Ok(JobLine::Kept(SwfJob {
        line,
        id,
        submit: v[1].clone(),
        wait: opt(&v[2]),
        run: v[3].clone(),
        procs,
        requested_procs: requested_procs.filter(|&p| p > 0),
        requested_time: opt(&v[8]).filter(Time::is_positive),
        status,
    }))
}

impl SwfLog {
    /// Parses SWF text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<SwfLog> {
        let mut log = SwfLog {
            file: file.to_string(),
            max_nodes: None,
            max_procs: None,
            jobs: Vec::new(),
            dropped: Dropped::default(),
        };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let s = raw.trim();
            if s.is_empty() {
                continue;
            }
            if let Some(h) = s.strip_prefix(';') {
                log.header(h, file, line)?;
                continue;
            }
            match job_line(s, file, line)? {
                JobLine::Kept(job) => log.jobs.push(job),
                JobLine::NoRunTime => log.dropped.run_time += 1,
                JobLine::NoProcs => log.dropped.procs += 1,
                JobLine::NoSubmit => log.dropped.submit += 1,
            }
        }
        Ok(log)
    }

    /// Reads an SWF file (`.swf`, or gzipped `.swf.gz`).
    pub fn load(path: &Path) -> Result<SwfLog> {
        let text = crate::error::read_text(path)?;
        SwfLog::parse(&text, &path.display().to_string())
    }

    /// Reads one header line (without its `;`): `MaxNodes` and `MaxProcs` are parsed, the rest
    /// (notes, versions, ...) ignored.
    fn header(&mut self, h: &str, file: &str, line: usize) -> Result<()> {
        let Some((key, value)) = h.split_once(':') else {
            return Ok(());
        };
        let key = key.trim();
        let slot = if key.eq_ignore_ascii_case("MaxNodes") {
            &mut self.max_nodes
        } else if key.eq_ignore_ascii_case("MaxProcs") {
            &mut self.max_procs
        } else {
            return Ok(());
        };
        // default: an empty header value reads as empty text (refused by the caller's parse)
        let value = value.split_whitespace().next().unwrap_or("");
        let n: u32 = value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
            Error::line(
                file,
                line,
                format!("header {key}: `{value}` is not a positive integer"),
            )
        })?;
        *slot = Some(n);
        Ok(())
    }

    /// The platform size P the header states: `MaxProcs`, else `MaxNodes` (the job lines count
    /// processors, field 5, so `MaxProcs` is the matching unit; on Mira both are 49152 nodes).
    pub fn header_procs(&self) -> Option<u32> {
        self.max_procs.or(self.max_nodes)
    }

    /// The largest processor count of a kept job (0 for an empty log).
    pub fn largest_job(&self) -> u32 {
        // default: the largest job of an empty log is 0 (documented above)
        self.jobs.iter().map(|j| j.procs).max().unwrap_or(0)
    }

    /// P for day splitting: the header's ([`SwfLog::header_procs`]), else — for a log without a
    /// header, such as a slice of a larger log — the largest job's processor count.
    pub fn platform_procs(&self) -> Option<u32> {
        self.header_procs()
            .or_else(|| Some(self.largest_job()).filter(|&p| p > 0))
    }

    /// Splits the log into days by submit time (day d holds the jobs with
    /// d·86400 ≤ submit < (d+1)·86400, d counted from the log's origin) and turns each
    /// non-empty day into a rigid [`Instance`] on `procs` processors: p_j is the job's processor
    /// count, t_j its run time. Jobs larger than `procs` are handled by `oversize`.
    pub fn split_days(&self, procs: u32, oversize: Oversize) -> Result<Days> {
        if procs == 0 {
            return Err(Error::param(
                "procs",
                "the platform needs at least one processor",
            ));
        }
        let mut by_day: BTreeMap<i64, Vec<&SwfJob>> = BTreeMap::new();
        let mut over = 0;
        let day_len = Time::from_int(DAY);
        for job in &self.jobs {
            if job.procs > procs {
                match oversize {
                    Oversize::Drop => {
                        over += 1;
                        continue;
                    }
                    Oversize::Clamp => over += 1,
                    Oversize::Error => {
                        return Err(Error::line(
                            &self.file,
                            job.line,
                            format!(
                                "job {} needs {} processors, more than the platform's {procs}",
                                job.id, job.procs
                            ),
                        ))
                    }
                }
            }
            let d = (&job.submit / &day_len).floor();
            let d = i64::try_from(d)
                .map_err(|_| Error::line(&self.file, job.line, "submit time out of range"))?;
            by_day.entry(d).or_default().push(job);
        }
        let mut days = Vec::with_capacity(by_day.len());
        for (day, mut jobs) in by_day {
            // Stable: equal submit times keep file order.
            jobs.sort_by(|a, b| a.submit.cmp(&b.submit));
            let mut names = HashSet::new();
            let mut list = Vec::with_capacity(jobs.len());
            for j in &jobs {
                // Job numbers are unique in archive logs; a repeated one is disambiguated by line.
                let mut name = j.id.to_string();
                if !names.insert(name.clone()) {
                    name = format!("{}@{}", j.id, j.line);
                    names.insert(name.clone());
                }
                list.push(Job::rigid(name, j.procs.min(procs), j.run.clone()));
            }
            let instance = Instance::new(procs, list).map_err(|e| e.in_file(&self.file))?;
            days.push(Day {
                day,
                instance,
                lines: jobs.iter().map(|j| j.line).collect(),
            });
        }
        Ok(Days {
            days,
            procs,
            oversize: over,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "; Version: 2.2\n; MaxNodes: 8\n; MaxProcs: 16\n";

    #[test]
    fn parses_header_and_fields() {
        let text = format!(
            "{HEAD}1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n\n  2 86400.5 -1 7.25 -1 -1 -1 2 -1 -1 0 1 1 -1 1 -1 -1 -1\n"
        );
        let log = SwfLog::parse(&text, "t.swf").unwrap();
        assert_eq!(
            (log.max_nodes, log.max_procs, log.header_procs()),
            (Some(8), Some(16), Some(16))
        );
        assert_eq!(log.jobs.len(), 2);
        let j = &log.jobs[1];
        assert_eq!(j.line, 6);
        assert_eq!(j.submit, "86400.5".parse::<Time>().unwrap());
        assert_eq!(j.run, Time::new(29, 4).unwrap());
        assert_eq!(
            (j.procs, j.wait.clone(), j.requested_time.clone(), j.status),
            (2, None, None, 0)
        );
        assert_eq!(log.jobs[0].requested_time, Some(Time::from_int(200)));
    }

    #[test]
    fn cleaning_rule_counts_each_reason() {
        let text = format!(
            "{HEAD}1 0 0 0 4 -1 -1 4 10 -1 5 1 1 -1 1 -1 -1 -1\n\
             2 0 0 -1 4 -1 -1 4 10 -1 5 1 1 -1 1 -1 -1 -1\n\
             3 0 0 10 -1 -1 -1 -1 10 -1 1 1 1 -1 1 -1 -1 -1\n\
             4 -1 0 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n\
             5 3 0 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n"
        );
        let log = SwfLog::parse(&text, "t.swf").unwrap();
        assert_eq!(
            log.dropped,
            Dropped {
                run_time: 2,
                procs: 1,
                submit: 1
            }
        );
        assert_eq!(log.dropped.total(), 4);
        assert_eq!(
            log.dropped.to_string(),
            "4 job lines dropped by the SWF cleaning rule (2 with run time ≤ 0, \
             1 without processor count, 1 with submit time < 0)"
        );
        assert_eq!(
            Dropped::default().to_string(),
            "0 job lines dropped by the SWF cleaning rule"
        );
        assert_eq!(log.jobs.iter().map(|j| j.id).collect::<Vec<_>>(), vec![5]);
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let few = format!("{HEAD}1 0 0 10 4 -1 -1 4 10\n");
        let e = SwfLog::parse(&few, "few.swf").unwrap_err().to_string();
        assert!(
            e.starts_with("few.swf:4:") && e.contains("too few fields: 9"),
            "{e}"
        );
        let nan = format!("{HEAD}1 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 x -1\n");
        let e = SwfLog::parse(&nan, "nan.swf").unwrap_err().to_string();
        assert!(
            e.starts_with("nan.swf:4:") && e.contains("field 17 `x`"),
            "{e}"
        );
        let frac = format!("{HEAD}1 0 0 10 4.5 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n");
        let e = SwfLog::parse(&frac, "f.swf").unwrap_err().to_string();
        assert!(
            e.contains("f.swf:4:") && e.contains("not an integer"),
            "{e}"
        );
        let hdr = "; MaxProcs: lots\n";
        let e = SwfLog::parse(hdr, "h.swf").unwrap_err().to_string();
        assert!(e.starts_with("h.swf:1:") && e.contains("MaxProcs"), "{e}");
        let many = format!("{HEAD}1 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1 7\n");
        assert!(SwfLog::parse(&many, "m.swf")
            .unwrap_err()
            .to_string()
            .contains("too many fields: 19"));
    }

    /// Times beyond 10^11 s are refused by line, not cut to the walltime or turned
    /// into an infinite exposure; 10^11 itself is accepted.
    #[test]
    fn times_beyond_the_limit_name_the_line() {
        let run = format!("{HEAD}1 0 0 1e400 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n");
        let e = SwfLog::parse(&run, "r.swf").unwrap_err().to_string();
        assert!(
            e.starts_with("r.swf:4:") && e.contains("field 4 (run time) `1e400`"),
            "{e}"
        );
        let submit = format!("{HEAD}1 1e23 0 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n");
        let e = SwfLog::parse(&submit, "s.swf").unwrap_err().to_string();
        assert!(e.contains("s.swf:4:") && e.contains("submit time"), "{e}");
        let req = format!("{HEAD}1 0 0 10 4 -1 -1 4 100000000001 -1 1 1 1 -1 1 -1 -1 -1\n");
        let e = SwfLog::parse(&req, "q.swf").unwrap_err().to_string();
        assert!(
            e.contains("q.swf:4:") && e.contains("requested time"),
            "{e}"
        );
        let edge = format!("{HEAD}1 0 0 100000000000 4 -1 -1 4 -1 -1 1 1 1 -1 1 -1 -1 -1\n");
        assert_eq!(SwfLog::parse(&edge, "e.swf").unwrap().jobs.len(), 1);
    }

    #[test]
    fn days_and_oversize_rules() {
        let text = format!(
            "{HEAD}1 10 0 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n\
             2 86399 0 20 32 -1 -1 32 10 -1 1 1 1 -1 1 -1 -1 -1\n\
             3 86400 0 30 16 -1 -1 16 10 -1 1 1 1 -1 1 -1 -1 -1\n\
             4 5 0 40 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n\
             5 300000 0 50 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n"
        );
        let log = SwfLog::parse(&text, "d.swf").unwrap();
        let d = log.split_days(16, Oversize::Drop).unwrap();
        assert_eq!(d.oversize, 1);
        assert_eq!(
            d.days.iter().map(|x| x.day).collect::<Vec<_>>(),
            vec![0, 1, 3]
        );
        // Day 0 in submit order: job 4 (t=5) before job 1 (t=10).
        let names: Vec<&str> = d.days[0]
            .instance
            .jobs
            .iter()
            .map(|j| j.name.as_str())
            .collect();
        assert_eq!(names, vec!["4", "1"]);
        assert_eq!(d.days[0].lines, vec![7, 4]);
        let c = log.split_days(16, Oversize::Clamp).unwrap();
        assert_eq!(c.oversize, 1);
        assert_eq!(
            c.days[0].instance.jobs[2].as_rigid().map(|(p, _)| p),
            Some(16)
        );
        let e = log.split_days(16, Oversize::Error).unwrap_err().to_string();
        assert!(
            e.starts_with("d.swf:5:") && e.contains("32 processors"),
            "{e}"
        );
        assert!(log.split_days(0, Oversize::Drop).is_err());
    }
}
