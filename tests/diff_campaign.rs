//! `resched diff` campaigns: `--keep-going` (rate, classes, one shrunk counterexample per
//! signature), `--workers` (the report and the files do not depend on it), the fresh-process
//! re-check that flags a flaky counterexample, `--corpus` (a folder of case files as a
//! regression suite), and the `--json` summary.
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn impls() -> PathBuf {
    crate::support::repo().join("tests/diff_impls")
}

fn py(script: &str, args: &str) -> String {
    format!("python3 -S {} {args}", impls().join(script).display())
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

fn resched(args: &[&str], cwd: &Path) -> (Option<i32>, String, String) {
    let o = Command::new(crate::support::bin())
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap_or_else(|e| panic!("running resched: {e}"));
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The report without what depends on timing: the speed line, and the shrink's duration.
fn untimed(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.contains("cases/s"))
        .map(|l| match (l.find(" runs ("), l.find(" s)")) {
            (Some(a), Some(b)) if a < b => format!("{}{}", &l[..a + 5], &l[b + 3..]),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            let bytes = std::fs::read(e.path()).unwrap_or_else(|err| panic!("{err}"));
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    v.sort();
    v
}

/// The GREEDY with a planted same-instant bug, 60 cases (5 mismatch): with --keep-going, one worker and three
/// give the same report (timing lines aside) and byte-identical counterexample files; so do
/// they when stopping at the first mismatch. The rate and classes are counted, every
/// counterexample reproduces in a fresh process.
#[test]
fn workers_do_not_change_the_report() {
    let cmd = py("buggy_greedy.py", "--jsonl --schedule");
    let base = [
        "diff",
        "--protocol",
        "jsonl",
        "--cmd",
        &cmd,
        "--cases",
        "60",
        "--seed",
        "3",
        "--procs",
        "1..4",
        "--jobs",
        "2..6",
        "--times",
        "grid:2",
        "--out",
        "cex.json",
    ];
    for keep in [true, false] {
        let mut reports = Vec::new();
        let mut outputs = Vec::new();
        for workers in ["1", "3"] {
            let dir = tmp();
            let mut args = base.to_vec();
            args.extend(["--workers", workers]);
            if keep {
                args.push("--keep-going");
            }
            let (code, out, err) = resched(&args, dir.path());
            assert_eq!(code, Some(1), "workers {workers}:\n{out}\n{err}");
            assert!(out.contains("MISMATCH"), "{out}");
            assert!(
                out.contains("re-checked in a fresh process: reproduces"),
                "{out}"
            );
            if keep {
                assert!(
                    out.contains("SIGNATURE greedy/LPT makespan-or-decisions"),
                    "{out}"
                );
                assert!(
                    out.contains("  mismatches: 5 of 60 comparisons; 5 of 60 cases (8.33 %)"),
                    "{out}"
                );
                assert!(dir.path().join("cex-1.json").exists());
            } else {
                assert!(dir.path().join("cex.json").exists());
            }
            reports.push(untimed(&out));
            outputs.push(files(dir.path()));
        }
        assert_eq!(reports[0], reports[1], "keep-going {keep}");
        assert_eq!(outputs[0], outputs[1], "keep-going {keep}");
    }
}

/// A JSONL program that answers its third request wrong: the mismatch is found on case 2, its
/// shrunk case is answered right by a fresh session, and it is flagged flaky (text and JSON).
#[test]
fn a_program_failing_on_its_third_request_is_flaky() {
    let dir = tmp();
    let cmd = py("third_request.py", "");
    let args = [
        "diff",
        "--protocol",
        "jsonl",
        "--cmd",
        &cmd,
        "--cases",
        "6",
        "--seed",
        "1",
        "--out",
        "cex.json",
    ];
    let (code, out, err) = resched(&args, dir.path());
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(out.contains("MISMATCH on case 2 "), "{out}");
    assert!(
        out.contains(
            "FLAKY: the shrunk case does not reproduce in a fresh process (it gave: agree)"
        ),
        "{out}"
    );
    let (code, out, err) = resched(
        &[&args[..], &["--json", "--keep-going"]].concat(),
        dir.path(),
    );
    assert_eq!(code, Some(1), "{out}\n{err}");
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(v["format_version"], 1, "{v}");
    assert!(v["resched"]["version"].is_string(), "{v}");
    assert_eq!(v["cases"], 6, "{v}");
    assert_eq!(v["mismatches"], 1, "{v}");
    assert_eq!(v["mismatched_cases"], 1, "{v}");
    assert_eq!(v["rate_exact"], "1/6", "{v}");
    assert_eq!(v["classes"], serde_json::json!({"makespan": 1}), "{v}");
    assert_eq!(v["flaky"], 1, "{v}");
    assert_eq!(v["signatures"][0]["flaky"], true, "{v}");
    assert_eq!(v["signatures"][0]["case"], 2, "{v}");
    assert_eq!(
        v["counterexamples"],
        serde_json::json!(["cex-1.json"]),
        "{v}"
    );
}

/// A counterexample written by a wrong program and a golden case of `tests/cases/` form a
/// corpus: the right GREEDY agrees on both (the counterexample's instance and scenario files
/// beside it are not cases), the wrong program fails on both.
#[test]
fn a_corpus_runs_as_a_regression_suite() {
    let dir = tmp();
    let d = dir.path();
    std::fs::write(d.join("two.sh"), "echo 2\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir(d.join("corpus")).unwrap_or_else(|e| panic!("{e}"));
    let (code, out, _) = resched(
        &[
            "diff",
            "--cmd",
            "sh two.sh",
            "--cases",
            "1",
            "--procs",
            "1",
            "--jobs",
            "1",
            "--times",
            "grid:1",
            "--failures",
            "0",
            "--out",
            "corpus/cex.json",
        ],
        d,
    );
    assert_eq!(code, Some(1), "{out}");
    let golden = crate::support::repo().join("tests/cases/adversarial/greedy-lpt-seed1.json");
    std::fs::copy(&golden, d.join("corpus/golden.json")).unwrap_or_else(|e| panic!("{e}"));
    let right = py("greedy.py", "{instance} {scenario} {algo} {priority}");
    let (code, out, err) = resched(&["diff", "--corpus", "corpus", "--cmd", &right], d);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(out.contains("diff: corpus corpus (2 files)"), "{out}");
    assert!(out.contains("2 cases, 2 comparisons: 2 agree"), "{out}");
    let (code, out, err) = resched(
        &[
            "diff",
            "--corpus",
            "corpus",
            "--cmd",
            "sh two.sh",
            "--keep-going",
            "--out",
            "again.json",
        ],
        d,
    );
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        out.contains("  mismatches: 2 of 2 comparisons; 2 of 2 cases (100.00 %)"),
        "{out}"
    );
    assert!(out.contains("MISMATCH on corpus/cex.json "), "{out}");
    assert!(!out.contains(" --case "), "{out}");
}
