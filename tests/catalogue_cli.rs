//! `resched algorithms` prints the oracle's catalogue: every entry, with its paper section,
//! aliases and parameters, as a table and as JSON; every name it prints resolves.
use resched::oracle::catalogue::{self, CATALOGUE};
use std::process::Command;

fn resched(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::support::bin())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("resched {args:?}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn json_lists_every_entry_once() {
    let (code, out, err) = resched(&["algorithms", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.len(), CATALOGUE.len());
    for (e, j) in CATALOGUE.iter().zip(&v) {
        assert_eq!(j["name"], e.name);
        assert_eq!(j["label"], e.label);
        assert_eq!(j["section"], e.section);
        for a in j["aliases"].as_array().into_iter().flatten() {
            let a = a.as_str().unwrap_or_default();
            assert_eq!(catalogue::parse(a).map(|r| r.entry.name).ok(), Some(e.name));
        }
    }
    let batch = v.iter().find(|j| j["name"] == "batch-list");
    assert!(batch.is_some_and(|b| b["parameters"].to_string().contains("--eps")));
}

#[test]
fn the_table_names_every_entry_and_its_paper() {
    let (code, out, err) = resched(&["algorithms"]);
    assert_eq!(code, 0, "{err}");
    for e in CATALOGUE {
        assert!(
            out.contains(e.name) && out.contains(e.section),
            "{}",
            e.name
        );
    }
}

#[test]
fn an_unknown_algorithm_lists_the_catalogue() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let inst = dir.path().join("i.json");
    let sc = dir.path().join("s.json");
    std::fs::write(
        &inst,
        r#"{"processors": 2, "jobs": [{"procs": 1, "time": 1}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&sc, r#"{"failures": [0]}"#).unwrap_or_else(|e| panic!("{e}"));
    let (i, s) = (inst.to_string_lossy(), sc.to_string_lossy());
    let (code, _, err) = resched(&[
        "simulate",
        "--instance",
        &i,
        "--scenario",
        &s,
        "--algo",
        "fifo",
    ]);
    assert_eq!(code, 2);
    for e in CATALOGUE {
        assert!(err.contains(e.name), "{}: {err}", e.name);
    }
    let (code, _, err) = resched(&[
        "simulate",
        "--instance",
        &i,
        "--scenario",
        &s,
        "--algo",
        "greedy",
        "--eps",
        "1/10",
    ]);
    assert_eq!(code, 2, "ε with greedy must be refused: {err}");
    assert!(err.contains("takes no ε"), "{err}");
}
