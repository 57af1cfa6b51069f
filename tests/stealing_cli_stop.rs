//! `resched steal` stopped before its end: by `--max-wall 0` (deterministic: the stop
//! is seen at the first progress report, after 1024 events) and by SIGTERM. The outputs are
//! written, marked PARTIAL (text, the `status` column of both CSVs, `-partial` plot files), the
//! exit status is 3, and every job of the partial jobs CSV has the same row as in the whole run.
use crate::support::resched;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// Rows of a CSV by header name.
fn rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// `(variant, job)` → the row without its `status`.
fn by_job(
    rows: &[BTreeMap<String, String>],
) -> BTreeMap<(String, String), BTreeMap<String, String>> {
    rows.iter()
        .map(|r| {
            let mut r = r.clone();
            r.remove("status");
            ((r["variant"].clone(), r["job"].clone()), r)
        })
        .collect()
}

fn steal_args(dir: &str, tag: &str) -> Vec<String> {
    [
        "steal",
        "--workload",
        "synthetic:jobs=2000",
        "--variant",
        "baseline,SFSJ",
        "--csv",
        &format!("{dir}/{tag}-metrics.csv"),
        "--jobs-csv",
        &format!("{dir}/{tag}-jobs.csv"),
        "--plots",
        &format!("{dir}/{tag}-plots"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn max_wall_writes_partial_results_consistent_with_the_whole_run() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_str().unwrap();
    let full_args = steal_args(dir, "full");
    let full = resched(&full_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        full.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&full.stderr)
    );
    let mut args = steal_args(dir, "part");
    args.extend(["--max-wall".to_string(), "0".to_string()]);
    let part = resched(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let stdout = String::from_utf8_lossy(&part.stdout);
    let stderr = String::from_utf8_lossy(&part.stderr);
    assert_eq!(part.status.code(), Some(3), "{stdout}\n{stderr}");
    // The first variant stops at its first report; the second is not run.
    for want in [
        "Baseline*",
        "PARTIAL: Baseline stopped by --max-wall (limit 0 s reached) at simulated time",
        "queued or running (excluded)",
        "It is not a result of the whole trace.",
        "NOT RUN (stopped before they started): H111",
        "csv (PARTIAL):",
        "jobs csv (PARTIAL):",
    ] {
        assert!(stdout.contains(want), "no `{want}` in\n{stdout}");
    }
    assert!(!stdout.contains("flow ratios variant/Baseline"), "{stdout}");
    assert!(stderr.contains("Baseline: stopped in"), "{stderr}");

    // Jobs CSV: a proper subset of the whole run's Baseline jobs, row for row identical.
    let full_jobs = by_job(&rows(&d.path().join("full-jobs.csv")));
    let part_rows = rows(&d.path().join("part-jobs.csv"));
    assert!(!part_rows.is_empty());
    assert!(part_rows
        .iter()
        .all(|r| r["status"] == "partial" && r["variant"] == "Baseline"));
    let full_base = full_jobs.keys().filter(|(v, _)| v == "Baseline").count();
    assert!(
        part_rows.len() < full_base,
        "{} of {full_base}",
        part_rows.len()
    );
    for (key, row) in by_job(&part_rows) {
        let mut want = full_jobs[&key].clone();
        // Flow pruning is 0% here: every job counts in both.
        assert_eq!(want.remove("in_flows"), Some("1".to_string()));
        let mut got = row.clone();
        got.remove("in_flows");
        assert_eq!(got, want, "job {key:?}");
    }

    // Metrics CSV: every row partial, with the instant reached and the job counts.
    let metrics = rows(&d.path().join("part-metrics.csv"));
    assert!(metrics.iter().all(|r| r["status"] == "partial"));
    let get = |metric: &str| {
        metrics
            .iter()
            .find(|r| r["scope"] == "run" && r["metric"] == metric)
            .map(|r| r["exact"].clone())
            .unwrap_or_else(|| panic!("no run,{metric}"))
    };
    assert_eq!(get("completed_jobs"), part_rows.len().to_string());
    assert_eq!(get("jobs"), "2000");
    let counts: u64 = ["completed_jobs", "unfinished_jobs", "unreleased_jobs"]
        .iter()
        .map(|m| get(m).parse::<u64>().unwrap())
        .sum();
    assert_eq!(counts, 2000);
    let reached: resched::Time = get("reached").parse().unwrap();
    let window_end = metrics
        .iter()
        .find(|r| r["metric"] == "window_end")
        .map(|r| r["exact"].parse::<resched::Time>().unwrap())
        .unwrap();
    assert_eq!(window_end, reached);
    let full_metrics = rows(&d.path().join("full-metrics.csv"));
    assert!(full_metrics.iter().all(|r| r["status"] == "complete"));

    // Plots: only the decomposition (no whole pair to compare), named partial; the whole
    // run's files are named by the reading.
    let plots = d.path().join("part-plots");
    let names: Vec<String> = std::fs::read_dir(&plots)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(
        names,
        [
            "decomposition-unforeseen-completions-partial.png",
            "decomposition-unforeseen-completions-partial.svg"
        ]
    );
    let svg =
        std::fs::read_to_string(plots.join("decomposition-unforeseen-completions-partial.svg"))
            .unwrap();
    assert!(svg.contains("Baseline (PARTIAL)"), "{svg}");
    assert!(d
        .path()
        .join("full-plots/flow_ratios-unforeseen-completions.png")
        .is_file());
}

/// Starts a run long enough (about 30,000 jobs-worth of events in a debug build) to still run
/// when a signal arrives, and reads its output up to the platform line: the handler is
/// installed before the workload is read, so from then on a signal is caught.
fn long_run(dir: &str, name: &str) -> (std::process::Child, BufReader<std::process::ChildStdout>) {
    let mut args = steal_args(dir, name);
    args[2] = "synthetic:jobs=30000".into();
    let mut child = Command::new(crate::support::bin())
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    while !text.contains("platform:") {
        let mut line = String::new();
        assert!(
            out.read_line(&mut line).unwrap() > 0,
            "no platform line: {text}"
        );
        text.push_str(&line);
    }
    (child, out)
}

#[test]
fn sigterm_stops_with_partial_results() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_str().unwrap();
    let (mut child, mut out) = long_run(dir, "sig");
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: sending a signal to the child this test spawned.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(3), "{rest}");
    assert!(
        rest.contains("PARTIAL: Baseline stopped by SIGTERM"),
        "{rest}"
    );
    assert!(
        rest.contains("NOT RUN (stopped before they started): H111"),
        "{rest}"
    );
    let jobs = rows(&d.path().join("sig-jobs.csv"));
    assert!(jobs.iter().all(|r| r["status"] == "partial"));
}

/// Starts a long run, sends SIGINT twice and returns how it ended. The second is sent once the
/// first has been delivered (two pending signals of one kind merge into one): on Linux when
/// `/proc/<pid>/status` no longer shows it pending, elsewhere after 50 ms.
fn interrupted_twice(dir: &str) -> std::process::ExitStatus {
    let (mut child, _out) = long_run(dir, "twice");
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: sending signals to the child this test spawned.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    wait_delivered(pid, libc::SIGINT);
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    child.wait().unwrap()
}

/// Waits (up to 5 s) until `sig` is no longer pending for process `pid`.
fn wait_delivered(pid: i32, sig: i32) {
    let bit = 1u64 << (sig - 1);
    let pending = || -> Option<bool> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let masks: Vec<u64> = status
            .lines()
            .filter_map(|l| {
                let hex = l
                    .strip_prefix("SigPnd:")
                    .or_else(|| l.strip_prefix("ShdPnd:"))?;
                u64::from_str_radix(hex.trim(), 16).ok()
            })
            .collect();
        (masks.len() == 2).then(|| masks.iter().any(|m| m & bit != 0))
    };
    let start = std::time::Instant::now();
    loop {
        match pending() {
            Some(true) if start.elapsed() < std::time::Duration::from_secs(5) => {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            Some(_) => return,
            None => {
                std::thread::sleep(std::time::Duration::from_millis(50));
                return;
            }
        }
    }
}

#[test]
fn a_second_signal_ends_the_run_at_once() {
    use std::os::unix::process::ExitStatusExt;
    // The second SIGINT takes the default action: the process dies by it, with no exit code.
    // The first one's stop is seen at the next progress report (up to 250 ms later), so a run
    // may rarely finish its partial outputs (exit 3) before the second arrives: three tries,
    // one must die by the signal.
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_str().unwrap();
    let statuses: Vec<_> = (0..3)
        .map(|_| interrupted_twice(dir))
        .take_while(|s| s.signal() != Some(libc::SIGINT))
        .collect();
    assert!(statuses.len() < 3, "{statuses:?}");
    assert!(statuses.iter().all(|s| s.code() == Some(3)), "{statuses:?}");
}
