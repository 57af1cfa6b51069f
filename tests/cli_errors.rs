//! Bad input to `resched simulate` is an error that names the field or line, exits with code 2,
//! and never panics (issue 2; DESIGN "Bad input is an error, not a panic"). Also checks that
//! good input works end to end (text, JSON and peer mode) and that `demo` runs.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn resched(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resched"))
        .args(args)
        .output()
        .unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const GOOD_INSTANCE: &str = r#"{"processors": 4, "jobs": [
  {"name": "J1", "procs": 2, "time": 3}, {"name": "J2", "procs": 2, "time": 2},
  {"name": "J3", "procs": 4, "time": 2}, {"name": "J4", "procs": 1, "time": "3/2"}]}"#;
const GOOD_SCENARIO: &str = r#"{"failures": [0, 1, 0, 0]}"#;

/// Runs `simulate` on the given instance/scenario texts; returns (exit code, stderr).
fn simulate(inst: &str, sc: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let i = write(dir.path(), "inst.json", inst);
    let s = write(dir.path(), "sc.json", sc);
    let mut args = vec![
        "simulate",
        "--instance",
        i.to_str().unwrap(),
        "--scenario",
        s.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    if !extra.contains(&"--algo") {
        args.extend_from_slice(&["--algo", "greedy"]);
    }
    let o = resched(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "panic: {err}");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        err,
    )
}

fn assert_error(code_out: (i32, String, String), needles: &[&str]) {
    let (code, _, err) = code_out;
    assert_eq!(code, 2, "stderr: {err}");
    for n in needles {
        assert!(err.contains(n), "`{n}` not in: {err}");
    }
}

#[test]
fn good_input_works() {
    let (code, out, err) = simulate(GOOD_INSTANCE, GOOD_SCENARIO, &[]);
    assert_eq!(code, 0, "{err}");
    // Hand-computed in tests/cases/backfill_delays_head_failure.json.
    assert!(out.contains("makespan   13/2 (6.500000)"), "{out}");
    assert!(out.contains("L(f)       47/8"), "{out}");
    assert!(out.contains("ratio      52/47"), "{out}");
    let (code, out, _) = simulate(
        GOOD_INSTANCE,
        GOOD_SCENARIO,
        &["--algo", "r-shelf-b", "--priority", "LPT", "--json"],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["makespan"], 7);
    assert_eq!(v["lower_bound"], "47/8");
    assert_eq!(v["schedule"]["attempts"].as_array().unwrap().len(), 5);
}

#[test]
fn malformed_json() {
    assert_error(
        simulate("{\"processors\": 4, \"jobs\": [", GOOD_SCENARIO, &[]),
        &["inst.json:"],
    );
}

#[test]
fn procs_above_p() {
    let inst = r#"{"processors": 2, "jobs": [{"name": "A", "procs": 3, "time": 1}]}"#;
    assert_error(
        simulate(inst, r#"{"failures": [0]}"#, &[]),
        &["jobs[0].procs", "outside 1..=2"],
    );
}

#[test]
fn zero_and_negative_times() {
    let inst = r#"{"processors": 2, "jobs": [{"name": "A", "procs": 1, "time": 0}]}"#;
    assert_error(
        simulate(inst, r#"{"failures": [0]}"#, &[]),
        &["jobs[0].time"],
    );
    let inst = r#"{"processors": 2, "jobs": [{"name": "A", "procs": 1, "time": "-1/2"}]}"#;
    assert_error(
        simulate(inst, r#"{"failures": [0]}"#, &[]),
        &["jobs[0].time"],
    );
}

#[test]
fn scenario_of_wrong_length() {
    assert_error(
        simulate(GOOD_INSTANCE, r#"{"failures": [0, 1]}"#, &[]),
        &["failures", "2 entries", "(4)"],
    );
}

#[test]
fn empty_instance() {
    assert_error(
        simulate(
            r#"{"processors": 2, "jobs": []}"#,
            r#"{"failures": []}"#,
            &[],
        ),
        &["jobs", "at least one job"],
    );
}

#[test]
fn unknown_algorithm_and_priority() {
    assert_error(
        simulate(GOOD_INSTANCE, GOOD_SCENARIO, &["--algo", "fifo"]),
        &["algo", "fifo", "greedy", "r-shelffill-nb"],
    );
    assert_error(
        simulate(GOOD_INSTANCE, GOOD_SCENARIO, &["--priority", "fifo"]),
        &["priority", "lpt, spt"],
    );
}

/// `resched simulate` in peer mode on these files exits 2 with every needle in its error.
fn peer_fails(inst: &Path, fail: &Path, needles: &[&str]) {
    let o = resched(&[
        "simulate",
        "--peer-instance",
        inst.to_str().unwrap(),
        "--peer-failures",
        fail.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for n in needles {
        assert!(err.contains(n), "missing `{n}` in: {err}");
    }
}

#[test]
fn truncated_peer_files() {
    let dir = tempfile::tempdir().unwrap();
    let inst = write(
        dir.path(),
        "peer",
        "1e-8 4 10 length 0 0 0\nT0 rgd 1.5 2\nT1 rgd 2.25\n",
    );
    let fail = write(dir.path(), "fail", "0 1\n");
    peer_fails(&inst, &fail, &["peer:3:", "ends early"]);

    let inst = write(
        dir.path(),
        "peer2",
        "1e-8 4 10 length 0 0 0\nT0 rgd 1.5 2\nT1 rgd 2.25 4\n",
    );
    let fail = write(dir.path(), "fail2", "0 1\n2 0\n1\n");
    peer_fails(&inst, &fail, &["fail2:3:", "truncated"]);

    // The first two scenarios are fine: exact output. P = 4, verif 10: T0 (2 procs, 1.5 + 10 =
    // 11.5), T1 (4 procs, 2.25 + 10 = 12.25); LPT (`length`) puts T1 first.
    let o = resched(&[
        "simulate",
        "--peer-instance",
        inst.to_str().unwrap(),
        "--peer-failures",
        fail.to_str().unwrap(),
        "--scenarios",
        "2",
        "--threads",
        "1",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Scenario 0: f = (0, 1): T1 [0,12.25) fails, T1 [12.25, 24.5), T0 [24.5, 36). L = max(24.5,
    // (23 + 98)/4 = 30.25) = 30.25.
    assert!(out.contains("\n0 36 30.25 "), "{out}");
    // Scenario 1: f = (2, 0): T1 [0,12.25), T0 three times from 12.25: ends 46.75. L = 34.5.
    assert!(out.contains("\n1 46.75 34.5 "), "{out}");
}

#[test]
fn demo_runs_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_resched"))
        .arg("demo")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        out.contains("R-SHELF-B/LPT") && out.contains("25/12"),
        "{out}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn gantt_files_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("g.svg");
    let (code, _, err) = simulate(
        GOOD_INSTANCE,
        GOOD_SCENARIO,
        &["--algo", "easy", "--gantt", svg.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.trim_end().ends_with("</svg>"));
    let out = dir.path().join("demo");
    let o = resched(&["demo", "--gantt", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Two examples × seven algorithms.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 14);
}

/// `simulate --json` prints a schedule that `resched verify` (the independent checker) accepts.
#[test]
fn json_schedule_round_trips_through_verify() {
    let dir = tempfile::tempdir().unwrap();
    let i = write(dir.path(), "inst.json", GOOD_INSTANCE);
    let s = write(dir.path(), "sc.json", GOOD_SCENARIO);
    for algo in ["greedy", "conservative", "r-shelffill-nb"] {
        let o = resched(&[
            "simulate",
            "--instance",
            i.to_str().unwrap(),
            "--scenario",
            s.to_str().unwrap(),
            "--algo",
            algo,
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let sch = write(dir.path(), "sch.json", &v["schedule"].to_string());
        let o = resched(&[
            "verify",
            "--instance",
            i.to_str().unwrap(),
            "--scenario",
            s.to_str().unwrap(),
            "--schedule",
            sch.to_str().unwrap(),
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{out}");
        assert!(
            out.contains(&format!(
                "makespan {}",
                v["makespan"]
                    .as_i64()
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| v["makespan"].as_str().unwrap().to_string())
            )),
            "{out}"
        );
    }
}

/// Peer mode prints the same bytes whatever the number of threads.
#[test]
fn peer_output_does_not_depend_on_threads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = [root.join("../shared/peer"), root.join("../../shared/peer")]
        .into_iter()
        .find(|d| d.exists())
        .expect("the shared directory with the peer files beside the repository");
    let (inst, fail) = (
        dir.join("sample_1_0.3_arear"),
        dir.join("failures_sample_1_0.3"),
    );
    let run = |threads: &str| {
        let o = resched(&[
            "simulate",
            "--peer-instance",
            inst.to_str().unwrap(),
            "--peer-failures",
            fail.to_str().unwrap(),
            "--scenarios",
            "300",
            "--threads",
            threads,
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        o.stdout
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let text = String::from_utf8_lossy(&one);
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 300);
    assert!(text.contains("priority rarea (SA)"), "{text}");
}

/// `--threads 0` in peer mode is an error, not "all cores" (leave it out for that).
#[test]
fn peer_threads_zero_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let inst = write(
        dir.path(),
        "peer",
        "1e-8 4 10 length 0 0 0\nT0 rgd 1.5 2\nT1 rgd 2.25 4\n",
    );
    let fail = write(dir.path(), "fail", "0 1\n");
    let o = resched(&[
        "simulate",
        "--peer-instance",
        inst.to_str().unwrap(),
        "--peer-failures",
        fail.to_str().unwrap(),
        "--threads",
        "0",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("option `threads`: must be at least 1"),
        "{err}"
    );
}
