//! Every number a user writes in a JSON input is read exactly or refused with the file and the
//! field (nothing a user types may round, hang or exhaust memory): times of any
//! size and form, speedup parameters and tables, schedule starts and durations, and the integer
//! counts (processors, procs, failures, job, attempt, nodes, pbar, bits). Checked through the
//! library loaders and through the `resched` binary (`simulate`, `verify`), plus the engine's
//! attempt budget and the Gantt chart's escaping end to end.
use resched::model::{Instance, Profile, Scenario, Schedule, SpeedupModel};
use resched::time::Time;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn t(s: &str) -> Time {
    s.parse().unwrap()
}

/// 10^k + add, exactly.
fn pow10_plus(k: usize, add: u32) -> Time {
    let mut s = format!("1{}", "0".repeat(k));
    if add > 0 {
        let tail = add.to_string();
        s.replace_range(s.len() - tail.len().., &tail);
    }
    t(&s)
}

fn rigid_time(json: &str) -> Time {
    let inst = Instance::from_json_str(json, "i.json").unwrap_or_else(|e| panic!("{json}: {e}"));
    match &inst.jobs[0].profile {
        Profile::Rigid { time, .. } => time.clone(),
        Profile::Moldable { .. } => panic!("not rigid"),
    }
}

fn instance_error(json: &str) -> String {
    Instance::from_json_str(json, "i.json")
        .map(|_| panic!("accepted: {json}"))
        .unwrap_err()
        .to_string()
}

#[test]
fn instance_times_are_exact_in_every_form() {
    let cases = [
        ("12345678901234567890123", t("12345678901234567890123")),
        ("18446744073709551617", t("18446744073709551617")),
        ("1000000000000000000000000000007", pow10_plus(30, 7)),
        ("0.1", Time::new(1, 10).unwrap()),
        ("1e-7", Time::new(1, 10_000_000).unwrap()),
        ("2.5E3", Time::from_int(2500)),
        ("1.5e+2", Time::from_int(150)),
        (
            "0.30000000000000000000000000001",
            t("30000000000000000000000000001/100000000000000000000000000000"),
        ),
        // 1e400 is read exactly as 10^400 (as the string "1e400" is): never inf.
        ("1e400", pow10_plus(400, 0)),
        ("\"1e400\"", pow10_plus(400, 0)),
        ("\"7/3\"", Time::new(7, 3).unwrap()),
    ];
    for (lit, want) in cases {
        let json = format!(r#"{{"processors": 1, "jobs": [{{"procs": 1, "time": {lit}}}]}}"#);
        assert_eq!(rigid_time(&json), want, "{lit}");
    }
    // Exponents are bounded (|e| ≤ 4000): 1e5000 is refused by name, not turned into inf.
    let e = instance_error(r#"{"processors": 1, "jobs": [{"procs": 1, "time": 1e5000}]}"#);
    assert!(
        e.starts_with("i.json:1:") && e.contains("field `jobs[0].time`"),
        "{e}"
    );
    assert!(e.contains("exponent"), "{e}");
    // Round trip through the writer keeps every digit.
    let json = r#"{"processors": 1, "jobs": [{"procs": 1, "time": 12345678901234567890123.25}]}"#;
    let inst = Instance::from_json_str(json, "i.json").unwrap();
    assert_eq!(
        Instance::from_json_str(&inst.to_json(), "j.json").unwrap(),
        inst
    );
}

#[test]
fn speedup_parameters_and_tables_are_exact() {
    let json = r#"{"processors": 3, "jobs": [
        {"speedup": {"model": "amdahl", "w": 100000000000000000000000000001, "gamma": 1e-30}},
        {"speedup": {"model": "table", "times": [18446744073709551617, 0.1, 1e-7]}},
        {"speedup": {"model": "roofline", "w": 1e20, "pbar": 2.0}},
        {"speedup": {"model": "rounded", "bits": 1e1, "of": {"model": "communication", "w": 3, "c": 0.5}}}]}"#;
    let inst = Instance::from_json_str(json, "m.json").unwrap();
    let model = match &inst.jobs[0].profile {
        Profile::Moldable { model, .. } => model.clone(),
        Profile::Rigid { .. } => panic!("rigid"),
    };
    let SpeedupModel::Amdahl { w, gamma } = model else {
        panic!("not amdahl: {model:?}")
    };
    assert_eq!(w, pow10_plus(29, 1));
    assert_eq!(gamma, Time::one().checked_div(&pow10_plus(30, 0)).unwrap());
    assert_eq!(inst.jobs[0].time(1).unwrap(), &pow10_plus(29, 1));
    assert_eq!(inst.jobs[1].time(1).unwrap(), &t("18446744073709551617"));
    assert_eq!(inst.jobs[1].time(2).unwrap(), &t("1/10"));
    assert_eq!(inst.jobs[1].time(3).unwrap(), &t("1/10000000"));
    assert_eq!(inst.jobs[2].time(3).unwrap(), &t("50000000000000000000"));
    // rounded to 2^-10: t(2) = 3/2 + 1/2 = 2 exactly.
    assert_eq!(inst.jobs[3].time(2).unwrap(), &t("2"));
}

/// Integer fields given as a non-integer, a negative, or a value beyond their type are refused
/// with the field named; integral values in any notation are read exactly.
#[test]
fn integer_counts_are_exact_or_refused_by_name() {
    let inst = |processors: &str, procs: &str, pbar: &str, bits: &str| {
        format!(
            r#"{{"processors": {processors}, "jobs": [{{"procs": {procs}, "time": 1}},
            {{"speedup": {{"model": "roofline", "w": 4, "pbar": {pbar}}}}},
            {{"speedup": {{"model": "rounded", "bits": {bits}, "of": {{"model": "roofline", "w": 4, "pbar": 1}}}}}}]}}"#
        )
    };
    let ok = Instance::from_json_str(&inst("1e3", "2.0", "1.0e1", "20"), "i.json").unwrap();
    assert_eq!(ok.procs, 1000);
    assert_eq!(ok.jobs[0].as_rigid().unwrap().0, 2);
    let bad = [
        "1e400",
        "-1",
        "2.5",
        "1180591620717411303424",
        "4294967296",
        "\"3\"",
        "1e-3",
    ];
    for lit in bad {
        for (json, field) in [
            (inst(lit, "1", "1", "1"), "processors"),
            (inst("4", lit, "1", "1"), "jobs[0].procs"),
            (inst("4", "1", lit, "1"), "jobs[1].speedup.pbar"),
            (inst("4", "1", "1", lit), "jobs[2].speedup.bits"),
        ] {
            let e = instance_error(&json);
            assert!(e.starts_with("i.json:"), "{lit}: {e}");
            assert!(
                e.contains(&format!("field `{field}`")),
                "{lit} in {field}: {e}"
            );
            assert!(!e.contains("inf") && !e.contains("NaN"), "{e}");
        }
    }
    let one = Instance::rigid(1, &[(1, Time::one())]).unwrap();
    let ok = Scenario::from_json_str(r#"{"failures": [3e0]}"#, "s.json", &one).unwrap();
    assert_eq!(ok.failures, vec![3]);
    for lit in bad {
        let e = Scenario::from_json_str(&format!(r#"{{"failures": [{lit}]}}"#), "s.json", &one)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("s.json:") && e.contains("field `failures[0]`"),
            "{lit}: {e}"
        );
    }
    let attempt = |job: &str, attempt: &str, procs: &str, nodes: &str| {
        format!(
            r#"{{"attempts": [{{"job": {job}, "attempt": {attempt}, "start": 0, "procs": {procs}, "duration": 1, "nodes": [{nodes}]}}]}}"#
        )
    };
    let ok = Schedule::from_json_str(&attempt("0.0", "1e0", "1", "2e1"), "x.json").unwrap();
    assert_eq!(ok.attempts[0].nodes, Some(vec![20]));
    for lit in bad {
        // A job index is a usize: 2^32 is a well-formed index (the checker says no such job).
        let job_bad = if lit == "4294967296" {
            "18446744073709551616"
        } else {
            lit
        };
        for (json, field) in [
            (attempt(job_bad, "1", "1", "0"), "attempts[0].job"),
            (attempt("0", lit, "1", "0"), "attempts[0].attempt"),
            (attempt("0", "1", lit, "0"), "attempts[0].procs"),
            (attempt("0", "1", "1", lit), "attempts[0].nodes[0]"),
        ] {
            let e = Schedule::from_json_str(&json, "x.json")
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("x.json:") && e.contains(&format!("field `{field}`")),
                "{lit}: {e}"
            );
        }
    }
}

#[test]
fn schedule_times_are_exact() {
    let json = r#"{"attempts": [
        {"job": 0, "attempt": 1, "start": 1000000000000000000000000000007, "procs": 1, "duration": 18446744073709551617},
        {"job": 1, "attempt": 1, "start": 1e-7, "procs": 1, "duration": 0.1}]}"#;
    let s = Schedule::from_json_str(json, "x.json").unwrap();
    assert_eq!(s.attempts[0].start, pow10_plus(30, 7));
    assert_eq!(s.attempts[0].duration, t("18446744073709551617"));
    assert_eq!(s.attempts[1].start, Time::new(1, 10_000_000).unwrap());
    assert_eq!(s.attempts[1].duration, Time::new(1, 10).unwrap());
}

// ------------------------------------------------------------------------------------------
// Through the binary.

fn resched(args: &[&str]) -> Output {
    let o = Command::new(crate::support::bin())
        .args(args)
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!all.contains("panicked"), "{all}");
    o
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn simulate_keeps_every_digit() {
    let dir = tempfile::tempdir().unwrap();
    let i = write(
        dir.path(),
        "i.json",
        r#"{"processors":1,"jobs":[{"procs":1,"time":12345678901234567890123}]}"#,
    );
    let s = write(dir.path(), "s.json", r#"{"failures":[0]}"#);
    let o = resched(&[
        "simulate",
        "--instance",
        i.to_str().unwrap(),
        "--scenario",
        s.to_str().unwrap(),
        "--algo",
        "greedy",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["makespan"], "12345678901234567890123");
    // One failure: two attempts, makespan 2·t, still exact.
    let s2 = write(dir.path(), "s2.json", r#"{"failures":[1e0]}"#);
    let o = resched(&[
        "simulate",
        "--instance",
        i.to_str().unwrap(),
        "--scenario",
        s2.to_str().unwrap(),
        "--algo",
        "greedy",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("makespan   24691357802469135780246 "),
        "{}",
        stdout(&o)
    );
}

/// `verify` on two unit jobs of one processor, starts as given; returns (exit code, stdout).
fn verify(start0: &str, start1: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let i = write(
        dir.path(),
        "i.json",
        r#"{"processors":1,"jobs":[{"procs":1,"time":1},{"procs":1,"time":1}]}"#,
    );
    let s = write(dir.path(), "s.json", r#"{"failures":[0,0]}"#);
    let sch = write(
        dir.path(),
        "sch.json",
        &format!(
            r#"{{"attempts":[{{"job":0,"attempt":1,"start":{start0},"procs":1,"duration":1}},
            {{"job":1,"attempt":1,"start":{start1},"procs":1,"duration":1}}]}}"#
        ),
    );
    let o = resched(&[
        "verify",
        "--instance",
        i.to_str().unwrap(),
        "--scenario",
        s.to_str().unwrap(),
        "--schedule",
        sch.to_str().unwrap(),
    ]);
    (o.status.code(), stdout(&o))
}

#[test]
fn verify_reads_starts_exactly() {
    let (code, out) = verify("0", "1000000000000000000000000000007");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("makespan 1000000000000000000000000000008 "),
        "{out}"
    );
    let (code, out) = verify("0", "18446744073709551617");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("makespan 18446744073709551618 "), "{out}");
    // 10^20 and 10^20 + 1 do not overlap: feasible (through an f64 they were one instant).
    let (code, out) = verify("100000000000000000000", "100000000000000000001");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("makespan 100000000000000000002 "), "{out}");
    // ... and 10^20 + 1/2 does overlap, exactly.
    let (code, out) = verify("100000000000000000000", "100000000000000000000.5");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.starts_with("infeasible"), "{out}");
    let (code, out) = verify("1e-7", "1.0000001");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("makespan 20000001/10000000 "), "{out}");
}

#[test]
fn huge_failure_counts_hit_the_engine_budget_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let i = write(
        dir.path(),
        "i.json",
        r#"{"processors":2,"jobs":[{"procs":1,"time":1},{"procs":1,"time":2}]}"#,
    );
    let s = write(dir.path(), "s.json", r#"{"failures":[0, 1000000000]}"#);
    let started = std::time::Instant::now();
    let o = resched(&[
        "simulate",
        "--instance",
        i.to_str().unwrap(),
        "--scenario",
        s.to_str().unwrap(),
        "--algo",
        "greedy",
    ]);
    assert!(
        started.elapsed().as_secs() < 20,
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("limit exceeded"), "{err}");
    assert!(
        err.contains("1000000002 attempts") && err.contains("5000000"),
        "{err}"
    );
}

#[test]
fn gantt_of_names_with_markup_is_well_formed() {
    let dir = tempfile::tempdir().unwrap();
    let i = write(
        dir.path(),
        "i.json",
        r#"{"processors":2,"jobs":[{"name":"<&\"'>","procs":1,"time":1e30},
            {"name":"]]><!--","procs":2,"time":"1/3"}, {"name":"é😀 &amp;","procs":1,"time":0.1}]}"#,
    );
    let s = write(dir.path(), "s.json", r#"{"failures":[1,0,2]}"#);
    let g = dir.path().join("g.svg");
    let o = resched(&[
        "simulate",
        "--instance",
        i.to_str().unwrap(),
        "--scenario",
        s.to_str().unwrap(),
        "--algo",
        "greedy",
        "--gantt",
        g.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&g).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts.iter().any(|x| x.starts_with("<&\"'> #2")),
        "{texts:?}"
    );
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
    // A control character in a name is refused by the reader, with the field.
    let bad = write(
        dir.path(),
        "bad.json",
        r#"{"processors":1,"jobs":[{"name":"a\u0000","procs":1,"time":1}]}"#,
    );
    let s1 = write(dir.path(), "s1.json", r#"{"failures":[0]}"#);
    let o = resched(&[
        "simulate",
        "--instance",
        bad.to_str().unwrap(),
        "--scenario",
        s1.to_str().unwrap(),
        "--algo",
        "greedy",
        "--gantt",
        g.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("field `jobs[0].name`") && stderr(&o).contains("U+0000"),
        "{}",
        stderr(&o)
    );
}
