//! `resched verify` as a float implementation's author uses it: the stated makespan is checked,
//! `--json` gives a verdict a program can read, and `--rel-tol` judges a schedule computed in
//! binary floating point by snapping it to the exact schedule it approximates.
//!
//! The float schedule is what an f64 GREEDY prints for the instance below: durations in tenths
//! (no tenth but 1/2 is a binary fraction) and starts accumulated as f64 sums of durations, so
//! every time after the first is off in its last bits.
use serde_json::Value;
use std::path::Path;

/// Four rigid jobs on 3 processors whose times are tenths; job b fails once.
const INSTANCE: &str = r#"{"processors": 3, "jobs": [
  {"name": "a", "procs": 2, "time": "3/10"}, {"name": "b", "procs": 1, "time": "1/10"},
  {"name": "c", "procs": 3, "time": "7/10"}, {"name": "d", "procs": 1, "time": "1/5"}]}"#;
const SCENARIO: &str = r#"{"failures": [0, 1, 0, 0]}"#;

fn resched(args: &[&str]) -> (Option<i32>, String, String) {
    let o = crate::support::resched(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        err,
    )
}

/// The files of the instance and scenario, and GREEDY's exact schedule from `simulate --json`.
fn setup(dir: &Path) -> (String, String, Value) {
    let i = dir.join("i.json");
    let s = dir.join("s.json");
    std::fs::write(&i, INSTANCE).unwrap();
    std::fs::write(&s, SCENARIO).unwrap();
    let (i, s) = (i.display().to_string(), s.display().to_string());
    let (code, out, err) = resched(&[
        "simulate",
        "--instance",
        &i,
        "--scenario",
        &s,
        "--algo",
        "greedy",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    (i, s, report["schedule"].clone())
}

fn exact(v: &Value) -> f64 {
    let t: resched::Time = v
        .as_str()
        .map_or_else(|| v.to_string(), String::from)
        .parse()
        .unwrap();
    t.to_f64()
}

/// The schedule as an f64 program computes it: each duration rounded to f64, and each start
/// the f64 sum, in start order, of the durations of the attempts whose ends it was exactly.
fn float_schedule(exact_sch: &Value) -> Value {
    let attempts = exact_sch["attempts"].as_array().unwrap();
    let ends: Vec<(f64, f64)> = attempts
        .iter()
        .map(|a| {
            (
                exact(&a["start"]),
                exact(&a["start"]) + exact(&a["duration"]),
            )
        })
        .collect();
    let mut order: Vec<usize> = (0..attempts.len()).collect();
    order.sort_by(|&x, &y| ends[x].0.total_cmp(&ends[y].0));
    let mut float_end = vec![0f64; attempts.len()];
    let mut out = attempts.clone();
    for &k in &order {
        let d = exact(&attempts[k]["duration"]);
        // The start is 0 or the end of an attempt already placed: its f64 sum, not the exact.
        let start = order
            .iter()
            .take_while(|&&x| x != k)
            .find(|&&x| (ends[x].1 - ends[k].0).abs() < 1e-12)
            .map_or(0.0, |&x| float_end[x]);
        float_end[k] = start + d;
        out[k]["start"] = serde_json::json!(start);
        out[k]["duration"] = serde_json::json!(d);
    }
    serde_json::json!({ "attempts": out })
}

fn verify(i: &str, s: &str, sch: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let sch = sch.display().to_string();
    let mut args = vec![
        "verify",
        "--instance",
        i,
        "--scenario",
        s,
        "--schedule",
        &sch,
    ];
    args.extend_from_slice(extra);
    resched(&args)
}

#[test]
fn a_float_schedule_is_judged_exactly_within_the_tolerance() {
    let d = tempfile::tempdir().unwrap();
    let (i, s, exact_sch) = setup(d.path());
    let float = float_schedule(&exact_sch);
    let f = d.path().join("float.json");
    std::fs::write(&f, float.to_string()).unwrap();
    // The float schedule really is inexact: the exact check refuses it.
    let (code, out, _) = verify(&i, &s, &f, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.starts_with("infeasible:"), "{out}");
    // Within 1e-9 it is GREEDY's schedule, with the exact makespan.
    let (code, out, err) = verify(&i, &s, &f, &["--rel-tol", "1e-9", "--algo", "greedy"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("feasible: makespan 11/10 (1.100000)"), "{out}");
    assert!(
        out.contains("algorithm: the schedule R-LIST(m=0)/LPT makes"),
        "{out}"
    );
    let snapped: usize = out
        .split("tolerance: ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(snapped > 0, "{out}");
    // A tolerance too small for the rounding leaves it infeasible.
    assert_eq!(verify(&i, &s, &f, &["--rel-tol", "1e-30"]).0, Some(1));
    // And the exact schedule is judged the same with or without a tolerance.
    let e = d.path().join("exact.json");
    std::fs::write(&e, exact_sch.to_string()).unwrap();
    let (code, out, _) = verify(&i, &s, &e, &["--rel-tol", "1e-9"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("tolerance: 0 times"), "{out}");
}

#[test]
fn a_wrong_stated_makespan_fails_and_json_says_why() {
    let d = tempfile::tempdir().unwrap();
    let (i, s, mut sch) = setup(d.path());
    let f = d.path().join("schedule.json");
    std::fs::write(&f, sch.to_string()).unwrap();
    let (code, out, _) = verify(&i, &s, &f, &["--json"]);
    assert_eq!(code, Some(0), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["holds"], true);
    assert_eq!(v["feasible"], true);
    assert_eq!(v["makespan"], "11/10");
    assert_eq!(v["stated_makespan_holds"], true);
    assert_eq!(v["format_version"], 1);
    assert!(v["resched"]["commit"].is_string(), "{out}");
    sch["makespan"] = serde_json::json!("1");
    std::fs::write(&f, sch.to_string()).unwrap();
    let (code, out, _) = verify(&i, &s, &f, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("wrong makespan:")
            && out.contains("states 1 (1.000000), but its last attempt ends at 11/10"),
        "{out}"
    );
    let (code, out, _) = verify(&i, &s, &f, &["--json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["holds"].clone(), v["stated_makespan_holds"].clone()),
        (false.into(), false.into())
    );
    // The stated makespan is compared within the tolerance too: 11/10 + 1e-12 passes at 1e-9.
    sch["makespan"] = serde_json::json!("1.100000000001");
    std::fs::write(&f, sch.to_string()).unwrap();
    assert_eq!(verify(&i, &s, &f, &[]).0, Some(1));
    assert_eq!(verify(&i, &s, &f, &["--rel-tol", "1e-9"]).0, Some(0));
    // A tampered schedule: the JSON names the violation.
    sch["attempts"][0]["duration"] = serde_json::json!("1/3");
    std::fs::write(&f, sch.to_string()).unwrap();
    let (code, out, _) = verify(&i, &s, &f, &["--json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["feasible"], false);
    assert!(v["violation"].as_str().unwrap().contains("1/3"), "{out}");
}

#[test]
fn the_tolerance_is_a_number_in_0_1() {
    let d = tempfile::tempdir().unwrap();
    let (i, s, sch) = setup(d.path());
    let f = d.path().join("schedule.json");
    std::fs::write(&f, sch.to_string()).unwrap();
    for bad in ["1", "-1e-9", "abc", "2/1"] {
        let arg = format!("--rel-tol={bad}");
        let (code, _, err) = verify(&i, &s, &f, &[&arg]);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains("option `--rel-tol`"), "{bad}: {err}");
    }
}
