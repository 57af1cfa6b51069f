//! `resched steal` keeps its stated limits (`src/stealing/limits.rs`): inputs out of
//! range are refused with exit code 2 and a message naming the option or file and the range,
//! runs that cannot progress end on the event budget naming `--max-events`, and nothing prints
//! `NaN` or `inf`. Every run is bounded by a wall clock: a run still going after 30 s is killed
//! and fails the test.
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(30);

const TOY_SWF: &str = "; MaxNodes: 8
1 0 -1 8 1 -1 -1 1 8 -1 1 -1 -1 -1 -1 -1 -1 -1
2 0 -1 5 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
4 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
5 0 -1 2 1 -1 -1 1 2 -1 1 -1 -1 -1 -1 -1 -1 -1
";

/// Runs `resched steal ARGS` with its outputs in files; kills it and fails after [`LIMIT`].
/// Returns (exit code, stdout, stderr).
fn steal(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(crate::support::bin())
        .arg("steal")
        .args(args)
        .stdout(Stdio::from(std::fs::File::create(&out).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err).unwrap()))
        .spawn()
        .expect("run resched");
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("steal {args:?} still running after {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = std::fs::read_to_string(&out).unwrap();
    let stderr = std::fs::read_to_string(&err).unwrap();
    for text in [&stdout, &stderr] {
        assert!(
            !text.contains("NaN") && !text.contains("inf ") && !text.contains("panicked"),
            "{args:?}:\n{text}"
        );
    }
    (status.code().unwrap_or(-1), stdout, stderr)
}

/// Expects exit code 2 with every needle in stderr.
fn refused(dir: &Path, args: &[&str], needles: &[&str]) {
    let (code, _, err) = steal(dir, args);
    assert_eq!(code, 2, "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in: {err}");
    }
}

fn toy(dir: &Path) -> String {
    let p = dir.join("toy.swf");
    std::fs::write(&p, TOY_SWF).unwrap();
    p.display().to_string()
}

#[test]
fn mtbf_out_of_range_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let w = toy(d.path());
    for m in ["1e400", "1e-400", "0", "0.0001"] {
        refused(
            d.path(),
            &["--workload", &w, "--mtbf", m],
            &["--mtbf", "[0.001, 10^11]"],
        );
    }
    // Table 6's inter-arrival mean follows the same rule.
    refused(
        d.path(),
        &["--workload", "synthetic:lambda=1e400"],
        &["--workload", "lambda", "10^11"],
    );
}

#[test]
fn durations_out_of_range_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let w = toy(d.path());
    for (opt, v) in [
        ("--checkpoint", "1e30"),
        ("--downtime", "1e12"),
        ("--recovery", "1e400"),
    ] {
        refused(d.path(), &["--workload", &w, opt, v], &[opt, "10^11"]);
    }
    refused(
        d.path(),
        &["--workload", &w, "--window", "0:1e400"],
        &["--window", "10^11"],
    );
    refused(
        d.path(),
        &["--workload", &w, "--max-events", "0"],
        &["--max-events"],
    );
}

#[test]
fn jobs_failing_faster_than_they_recover_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let w = toy(d.path());
    // A platform MTBF of 10 s on 8 nodes: the 6-node jobs fail every 13.3 s on average,
    // against C + R = 10 min.
    refused(
        d.path(),
        &["--workload", &w, "--mtbf", "10"],
        &["--mtbf", "13.333 s", "C + R = 600.000 s"],
    );
    // A checkpoint of ~30 years.
    refused(
        d.path(),
        &["--workload", &w, "--checkpoint", "1e9"],
        &["--mtbf", "C + R"],
    );
    // The same on Table 6's workload, where every failure replans a queue of 1000 jobs.
    for (opt, v) in [("--mtbf", "10"), ("--checkpoint", "1e10")] {
        refused(
            d.path(),
            &["--workload", "synthetic", opt, v],
            &["--mtbf", "C + R"],
        );
    }
}

#[test]
fn runs_that_cannot_progress_end_on_the_event_budget() {
    let d = tempfile::tempdir().unwrap();
    let w = toy(d.path());
    // A job submitted 10^10 s after the others, with a failure every hour until then.
    let late = d.path().join("late.swf");
    std::fs::write(
        &late,
        format!("{TOY_SWF}6 1e10 -1 2 1 -1 -1 1 2 -1 1 -1 -1 -1 -1 -1 -1 -1\n"),
    )
    .unwrap();
    refused(
        d.path(),
        &["--workload", late.to_str().unwrap(), "--mtbf", "1h"],
        &["--max-events"],
    );
    // Ten-day downtimes on Table 6's workload: 64-node jobs almost never find 64 nodes up.
    refused(
        d.path(),
        &[
            "--workload",
            "synthetic",
            "--variant",
            "baseline",
            "--downtime",
            "10d",
        ],
        &["--max-events"],
    );
    // The budget is the user's: the toy example needs 6 events.
    refused(
        d.path(),
        &["--workload", &w, "--max-events", "3"],
        &["more than 3 events"],
    );
    let (code, _, err) = steal(d.path(), &["--workload", &w, "--max-events", "6"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn bounded_runs_still_complete() {
    let d = tempfile::tempdir().unwrap();
    let w = toy(d.path());
    // Ten-day downtimes on the toy example: few failures before the jobs are done.
    let (code, out, err) = steal(d.path(), &["--workload", &w, "--downtime", "10d"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("D = 864000.0 s"), "{out}");
}

#[test]
fn swf_out_of_range_names_the_file() {
    let d = tempfile::tempdir().unwrap();
    let late = d.path().join("late.swf");
    std::fs::write(
        &late,
        format!("{TOY_SWF}6 1e23 -1 2 1 -1 -1 1 2 -1 1 -1 -1 -1 -1 -1 -1 -1\n"),
    )
    .unwrap();
    refused(
        d.path(),
        &["--workload", late.to_str().unwrap()],
        &["late.swf:7", "submit time", "10^11"],
    );
    let empty = d.path().join("empty.swf");
    std::fs::write(&empty, "; MaxNodes: 8\n").unwrap();
    refused(
        d.path(),
        &["--workload", empty.to_str().unwrap()],
        &["empty.swf", "no job"],
    );
    let huge = d.path().join("huge.swf");
    std::fs::write(
        &huge,
        TOY_SWF.replace("MaxNodes: 8", "MaxNodes: 4000000000"),
    )
    .unwrap();
    refused(
        d.path(),
        &["--workload", huge.to_str().unwrap()],
        &["huge.swf", "2^20"],
    );
    let failures = d.path().join("late.failures");
    std::fs::write(&failures, "1 2\n1e12 3\n").unwrap();
    refused(
        d.path(),
        &[
            "--workload",
            &toy(d.path()),
            "--failures",
            failures.to_str().unwrap(),
        ],
        &["late.failures:2", "10^11"],
    );
    // A huge failure time is named in scientific notation, not as its 401 digits.
    std::fs::write(&failures, "1e400 3\n").unwrap();
    let args = [
        "--workload",
        &toy(d.path()),
        "--failures",
        failures.to_str().unwrap(),
    ];
    refused(d.path(), &args, &["late.failures:1", "1.000e400", "10^11"]);
    let (_, _, err) = steal(d.path(), &args);
    assert!(err.len() < 400, "{err}");
}

#[test]
fn job_count_is_checked_before_allocating() {
    let d = tempfile::tempdir().unwrap();
    let t0 = Instant::now();
    refused(
        d.path(),
        &["--workload", "synthetic:jobs=1000000000"],
        &["10^6 jobs", "synthetic"],
    );
    assert!(t0.elapsed() < Duration::from_secs(10));
}
