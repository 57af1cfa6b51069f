//! `resched simulate --json` and `resched verify` together (the simulate/verify side of the
//! oracle): the JSON report carries the bound the ratio is taken against and each job's
//! completion time; `verify` reads that report as it is, rejects a tampered schedule naming the
//! broken invariant, and with `--algo` says whether a schedule is the one that algorithm makes.
//!
//! Exact expected values: the rigid paper example of
//! `tests/cases/backfill_delays_head_failure.json` under EASY (hand computation there: makespan
//! 15/2, L(f) = 47/8) and the moldable paper's Section 4.7 example under LPA-LIST in index order
//! (its allocation 3, 1, 1, 2 and makespan 13, as in the paper).
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

const RIGID: &str = r#"{"processors": 4, "jobs": [
  {"name": "J1", "procs": 2, "time": 3}, {"name": "J2", "procs": 2, "time": 2},
  {"name": "J3", "procs": 4, "time": 2}, {"name": "J4", "procs": 1, "time": "3/2"}]}"#;
const RIGID_SC: &str = r#"{"failures": [0, 1, 0, 0]}"#;

const MOLDABLE: &str = r#"{"processors": 4, "jobs": [
  {"name": "J1", "speedup": {"model": "arbitrary", "times": [11, 7, 5, 4]}},
  {"name": "J2", "speedup": {"model": "arbitrary", "times": [10, "9.8", "9.6", "9.5"]}},
  {"name": "J3", "speedup": {"model": "arbitrary", "times": [4, 3, 3, "2.5"]}},
  {"name": "J4", "speedup": {"model": "arbitrary", "times": [3, 2, "1.7", "1.4"]}}]}"#;
const MOLDABLE_SC: &str = r#"{"failures": [0, 0, 1, 1]}"#;

/// Exit code, stdout, stderr of `resched ARGS` (never a panic).
fn resched(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Command::new(crate::support::bin())
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        err,
    )
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p: PathBuf = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// `simulate --json` on the files, with the extra options.
fn simulate_json(i: &str, s: &str, algo: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "simulate",
        "--instance",
        i,
        "--scenario",
        s,
        "--algo",
        algo,
        "--json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = resched(&args);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str(&out).unwrap()
}

fn verify(i: &str, s: &str, sch: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "verify",
        "--instance",
        i,
        "--scenario",
        s,
        "--schedule",
        sch,
    ];
    args.extend_from_slice(extra);
    resched(&args)
}

#[test]
fn rigid_report_has_the_bound_and_the_completions_and_verify_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let (i, s) = (
        write(dir.path(), "i.json", RIGID),
        write(dir.path(), "s.json", RIGID_SC),
    );
    let v = simulate_json(&i, &s, "easy", &[]);
    assert_eq!(v["algorithm"], "R-LIST(m=1)/LPT");
    assert_eq!(v["canonical"], "easy");
    assert_eq!(v["makespan"], "15/2");
    assert_eq!(v["bound_kind"], "L(f)");
    assert_eq!(
        (&v["tmax"], &v["area"], &v["lower_bound"]),
        (&json!(4), &json!("47/2"), &json!("47/8"))
    );
    assert_eq!((&v["ratio"], &v["failures"]), (&json!("60/47"), &json!(1)));
    assert_eq!(
        v["completions"],
        json!([{"job": "J1", "index": 0, "time": 3}, {"job": "J2", "index": 1, "time": 4},
               {"job": "J3", "index": 2, "time": 6}, {"job": "J4", "index": 3, "time": "15/2"}])
    );
    // The report, as printed, is what verify reads.
    let report = write(dir.path(), "report.json", &v.to_string());
    let (code, out, err) = verify(&i, &s, &report, &[]);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "feasible: makespan 15/2 (7.500000)\n"),
        "{err}"
    );
    let (code, out, _) = verify(&i, &s, &report, &["--algo", "easy"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "feasible: makespan 15/2 (7.500000)\n\
         algorithm: the schedule R-LIST(m=1)/LPT makes (5 attempts, makespan 15/2)\n"
    );
    // Feasible, but not GREEDY's schedule: GREEDY backfills J4 at 3 (makespan 13/2).
    let (code, out, _) = verify(&i, &s, &report, &["--algo", "greedy"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "feasible: makespan 15/2 (7.500000)\n\
         algorithm: not the schedule R-LIST(m=0)/LPT makes (makespan 13/2); first difference at \
         attempt #4 in start order: this schedule has J3 (job 2) attempt 1 at 4 on 4 processors \
         for 2; R-LIST(m=0)/LPT has J4 (job 3) attempt 1 at 3 on 1 processors for 3/2\n"
    );
    // The bare schedule is read too.
    let bare = write(dir.path(), "bare.json", &v["schedule"].to_string());
    assert_eq!(verify(&i, &s, &bare, &["--algo", "easy"]).0, Some(0));
}

#[test]
fn moldable_report_has_l_prime_and_verify_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let (i, s) = (
        write(dir.path(), "i.json", MOLDABLE),
        write(dir.path(), "s.json", MOLDABLE_SC),
    );
    let v = simulate_json(&i, &s, "lpa-list", &["--priority", "index"]);
    assert_eq!(v["algorithm"], "LPA-LIST/INDEX");
    assert_eq!(v["makespan"], 13);
    // L'(J,f): t'_max = 19/2 (J2 on 4 processors), A' = 11 + 10 + 2·4 + 2·3 = 35, A'/P = 35/4.
    assert_eq!(v["bound_kind"], "L'(J,f)");
    assert_eq!(
        (&v["tmax"], &v["area"], &v["lower_bound"], &v["ratio"]),
        (&json!("19/2"), &json!(35), &json!("19/2"), &json!("26/19"))
    );
    // LPA's allocation (3, 1, 1, 2): J1 [0,5), J2 [0,10), J3 [5,9) fails and [9,13), J4 [5,7)
    // fails and [7,9).
    let times: Vec<Value> = v["completions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["time"].clone())
        .collect();
    assert_eq!(times, [json!(5), json!(10), json!(13), json!(9)]);
    let report = write(dir.path(), "report.json", &v.to_string());
    let (code, out, err) = verify(
        &i,
        &s,
        &report,
        &["--algo", "lpa-list", "--priority", "index"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "feasible: makespan 13 (13.000000)\n\
         algorithm: the schedule LPA-LIST/INDEX makes (6 attempts, makespan 13)\n"
    );
    // BATCH-LIST gives J1 two processors (MT-ALLOTMENT, the paper's batch 1).
    let (code, out, _) = verify(
        &i,
        &s,
        &report,
        &[
            "--algo",
            "batch-list",
            "--priority",
            "index",
            "--eps",
            "1/100",
        ],
    );
    assert_eq!(code, Some(1));
    assert!(
        out.ends_with(
            "first difference at attempt #1 in start order: this schedule has J1 (job 0) attempt \
             1 at 0 on 3 processors for 5; BATCH-LIST(eps=1/100)/INDEX has J1 (job 0) attempt 1 \
             at 0 on 2 processors for 7\n"
        ),
        "{out}"
    );
}

#[test]
fn a_tampered_schedule_is_rejected_naming_the_invariant() {
    let dir = tempfile::tempdir().unwrap();
    let (i, s) = (
        write(dir.path(), "i.json", RIGID),
        write(dir.path(), "s.json", RIGID_SC),
    );
    let v = simulate_json(&i, &s, "easy", &[]);
    // J4 moved from 6 to 5, beside J3 on all 4 processors.
    let mut moved = v.clone();
    moved["schedule"]["attempts"][4]["start"] = json!(5);
    let f = write(dir.path(), "moved.json", &moved.to_string());
    let (code, out, _) = verify(&i, &s, &f, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        format!(
            "infeasible: {}: [capacity] 5 processors busy at time 5, only 4 exist (attempts[4] starts then)\n",
            f
        )
    );
    // J1 shortened.
    let mut short = v.clone();
    short["schedule"]["attempts"][0]["duration"] = json!("5/2");
    let f = write(dir.path(), "short.json", &short.to_string());
    let (code, out, _) = verify(&i, &s, &f, &["--algo", "easy"]);
    assert_eq!(code, Some(1));
    assert!(
        out.starts_with(&format!(
            "infeasible: {}: [duration = t_j(p)] attempts[0].duration: job J1 attempt 1 lasts 5/2, expected 3\n",
            f
        )),
        "{out}"
    );
    // A moldable attempt on a count whose time it does not last.
    let (i, s) = (
        write(dir.path(), "mi.json", MOLDABLE),
        write(dir.path(), "ms.json", MOLDABLE_SC),
    );
    let mut m = simulate_json(&i, &s, "lpa-list", &["--priority", "index"]);
    m["schedule"]["attempts"][1]["procs"] = json!(2);
    let f = write(dir.path(), "m.json", &m.to_string());
    let (code, out, _) = verify(&i, &s, &f, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        format!(
            "infeasible: {}: [duration = t_j(p)] attempts[1].duration: job J2 attempt 1 lasts 10, expected 49/5\n",
            f
        )
    );
}

#[test]
fn verify_reads_nothing_else_silently() {
    let dir = tempfile::tempdir().unwrap();
    let (i, s) = (
        write(dir.path(), "i.json", RIGID),
        write(dir.path(), "s.json", RIGID_SC),
    );
    let attempt = r#"{"job": 0, "attempt": 1, "start": 0, "procs": 2, "duration": 3}"#;
    for (text, needle) in [
        (
            format!(r#"{{"attempts": [{attempt}], "area": 6}}"#),
            "unknown field `area`",
        ),
        (
            format!(r#"{{"attempts": [{attempt}], "schedule": {{"attempts": []}}}}"#),
            "field `schedule`: both `schedule` and `attempts`",
        ),
        (
            r#"{"makespan": 3, "ratio": 1}"#.to_string(),
            "unknown field `ratio`",
        ),
        (
            r#"{"schedule": {"attempts": [], "lower_bound": 1}}"#.to_string(),
            "unknown field `lower_bound`",
        ),
    ] {
        let f = write(dir.path(), "x.json", &text);
        let (code, _, err) = verify(&i, &s, &f, &[]);
        assert_eq!(code, Some(2), "{text}: {err}");
        assert!(
            err.contains("x.json") && err.contains(needle),
            "{text}: {err}"
        );
    }
    // --priority without --algo is a usage error.
    let f = write(
        dir.path(),
        "ok.json",
        &format!(r#"{{"attempts": [{attempt}]}}"#),
    );
    assert_eq!(verify(&i, &s, &f, &["--priority", "lpt"]).0, Some(2));
    // An unknown algorithm is named.
    let (code, _, err) = verify(&i, &s, &f, &["--algo", "fifo"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown algorithm `fifo`"), "{err}");
}

#[test]
fn moldable_text_output_prints_l_prime() {
    let dir = tempfile::tempdir().unwrap();
    let (i, s) = (
        write(dir.path(), "i.json", MOLDABLE),
        write(dir.path(), "s.json", MOLDABLE_SC),
    );
    let (code, out, err) = resched(&[
        "simulate",
        "--instance",
        &i,
        "--scenario",
        &s,
        "--algo",
        "batch-list",
        "--priority",
        "index",
        "--eps",
        "1/100",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        "algorithm  BATCH-LIST(eps=1/100)/INDEX\n\
         makespan   13 (13.000000)\n\
         L'(J,f)    19/2 (9.500000)   (t'_max = 19/2, A'/P = 35/4)\n\
         ratio      26/19 (1.368421)\n\
         failures   2\n\
         attempts   6\n\
         schedule   checked: feasible\n"
    );
}

/// `simulate --help` lists the whole catalogue (it is built from it).
#[test]
fn help_lists_the_catalogue() {
    let (code, out, _) = resched(&["simulate", "--help"]);
    assert_eq!(code, Some(0));
    for e in resched::oracle::CATALOGUE {
        assert!(out.contains(&format!("  {}", e.name)), "{}", e.name);
        assert!(out.contains(e.section), "{}", e.section);
    }
    let (_, short, _) = resched(&["simulate", "-h"]);
    assert!(short.contains(&resched::oracle::catalogue::names().join(", ")));
}

/// The `--json` outputs name the build that computed them: `simulate --json`,
/// `opt --json`, and the `--gantt` chart's metadata; the report stays readable by `verify`.
#[test]
fn json_outputs_and_charts_name_the_build() {
    let this = resched_cli::provenance::this_build();
    let dir = tempfile::tempdir().unwrap();
    let (i, s) = (
        write(dir.path(), "i.json", RIGID),
        write(dir.path(), "s.json", RIGID_SC),
    );
    let v = simulate_json(&i, &s, "easy", &[]);
    assert_eq!(v["resched"], this.json(), "{v}");
    assert_eq!(v["resched"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["resched"]["commit"], resched_cli::provenance::COMMIT);
    let report = write(dir.path(), "r.json", &v.to_string());
    let (code, out, err) = verify(&i, &s, &report, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = resched(&["opt", "--instance", &i, "--scenario", &s, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let o: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(o["resched"], this.json(), "{o}");
    let g = dir.path().join("g.svg").display().to_string();
    let (code, _, err) = resched(&[
        "simulate",
        "--instance",
        &i,
        "--scenario",
        &s,
        "--algo",
        "easy",
        "--gantt",
        &g,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let svg = std::fs::read_to_string(&g).unwrap();
    let meta = format!(
        r#"<metadata id="resched">{{"resched":{}}}</metadata>"#,
        this.json()
    );
    assert_eq!(svg.lines().nth(1), Some(meta.as_str()), "{svg:.400}");
}

/// Instance, scenario and schedule files carry an optional `format_version`: absent is version
/// 1, 1 is read, a newer one is refused naming the file and the field — also when the newer
/// file has fields this build does not know.
#[test]
fn a_newer_format_version_is_refused_and_an_absent_one_is_1() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let versioned = |text: &str, v: &str, extra: &str| {
        text.replacen('{', &format!(r#"{{"format_version": {v}, {extra}"#), 1)
    };
    let (i, s) = (write(d, "i.json", RIGID), write(d, "s.json", RIGID_SC));
    let (i1, s1) = (
        write(d, "i1.json", &versioned(RIGID, "1", "")),
        write(d, "s1.json", &versioned(RIGID_SC, "1", "")),
    );
    let absent = simulate_json(&i, &s, "easy", &[]);
    assert_eq!(absent["makespan"], "15/2");
    assert_eq!(simulate_json(&i1, &s1, "easy", &[])["makespan"], "15/2");
    let newer = |file: &str| {
        format!("{file}: field `format_version`: version 2 is newer than this resched reads (1); upgrade resched")
    };
    for (name, text, inst_file) in [
        ("i2.json", versioned(RIGID, "2", ""), true),
        (
            "i2x.json",
            versioned(RIGID, "2", r#""platform": "x", "#),
            true,
        ),
        ("s2.json", versioned(RIGID_SC, "2", ""), false),
        (
            "s2x.json",
            versioned(RIGID_SC, "2", r#""weights": [1], "#),
            false,
        ),
    ] {
        let f = write(d, name, &text);
        let (ii, ss) = if inst_file { (&f, &s) } else { (&i, &f) };
        let (code, _, err) = resched(&[
            "simulate",
            "--instance",
            ii,
            "--scenario",
            ss,
            "--algo",
            "easy",
        ]);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert_eq!(err.trim(), format!("error: {}", newer(&f)), "{name}");
    }
    // Schedules: the bare file and the report's `schedule`.
    let sched = absent["schedule"].to_string();
    let (code, out, err) = verify(&i, &s, &write(d, "b.json", &sched), &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = verify(
        &i,
        &s,
        &write(d, "b1.json", &versioned(&sched, "1", "")),
        &[],
    );
    assert_eq!(code, Some(0), "{out}{err}");
    let b2 = write(d, "b2.json", &versioned(&sched, "2", r#""nodes_of": [], "#));
    let (code, _, err) = verify(&i, &s, &b2, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&newer(&b2)), "{err}");
    let mut report = absent.clone();
    report["schedule"]["format_version"] = json!(2);
    let r2 = write(d, "r2.json", &report.to_string());
    let (code, _, err) = verify(&i, &s, &r2, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            &newer(&r2).replace("field `format_version`", "field `schedule.format_version`")
        ),
        "{err}"
    );
    // What resched writes is version 1, and reads back.
    let inst = resched::model::Instance::from_json_str(RIGID, "i").unwrap();
    let sc = resched::model::Scenario::from_json_str(RIGID_SC, "s", &inst).unwrap();
    for text in [inst.to_json(), sc.to_json()] {
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["format_version"], 1, "{text}");
    }
    assert_eq!(
        resched::model::Instance::from_json_str(&inst.to_json(), "i").unwrap(),
        inst
    );
    let sch = resched::model::Schedule::from_json_str(&sched, "b").unwrap();
    let v: Value = serde_json::from_str(&sch.to_json()).unwrap();
    assert_eq!(v["format_version"], 1);
    assert_eq!(
        resched::model::Schedule::from_json_str(&sch.to_json(), "b").unwrap(),
        sch.with_makespan()
    );
}
