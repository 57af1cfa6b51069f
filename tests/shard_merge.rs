//! `--shard I/N` + `resched merge` (issue 13): three shards merged are byte for byte the single
//! run — every file, figures included, timings excepted — for two campaigns and for
//! `prove --exhaustive`; and the merge refuses what is not one run split N ways (other
//! parameters, a missing shard, a duplicated shard, an unfinished shard).
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn resched(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_resched"))
        .args(args)
        .current_dir(cwd)
        .env("RESCHED_EXHAUSTIVE", "small")
        .output()
        .expect("run resched")
}

fn ok(args: &[&str], cwd: &Path) -> String {
    let o = resched(args, cwd);
    assert!(
        o.status.success(),
        "{args:?}: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Fails with exit code 2; returns stderr.
fn refused(args: &[&str], cwd: &Path) -> String {
    let o = resched(args, cwd);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The wall-clock fields, the only ones allowed to differ between two runs.
const TIMINGS: [&str; 2] = ["seconds", "setup_seconds"];

fn strip_timings(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for t in TIMINGS {
                if m.contains_key(t) {
                    m.insert(t.to_string(), serde_json::Value::Null);
                }
            }
            m.values_mut().for_each(strip_timings);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_timings),
        _ => {}
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Every file of `a` is in `b` with the same bytes (JSON: the same bytes once the timings are
/// blanked), and `b` has no other file.
fn same_tree(a: &Path, b: &Path) {
    let fa: Vec<PathBuf> = files(a)
        .iter()
        .map(|p| p.strip_prefix(a).unwrap().into())
        .collect();
    let fb: Vec<PathBuf> = files(b)
        .iter()
        .map(|p| p.strip_prefix(b).unwrap().into())
        .collect();
    assert_eq!(
        fa,
        fb,
        "{} and {} hold different files",
        a.display(),
        b.display()
    );
    assert!(!fa.is_empty());
    for f in &fa {
        let (x, y) = (
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
        );
        if f.extension().is_some_and(|e| e == "json") && x != y {
            let mut vx: serde_json::Value = serde_json::from_slice(&x).unwrap();
            let mut vy: serde_json::Value = serde_json::from_slice(&y).unwrap();
            strip_timings(&mut vx);
            strip_timings(&mut vy);
            assert_eq!(vx, vy, "{} differs beyond timings", f.display());
            // Same layout too: only the timing numbers differ.
            let keep = |t: &[u8]| {
                String::from_utf8_lossy(t)
                    .lines()
                    .filter(|l| !TIMINGS.iter().any(|k| l.contains(&format!("\"{k}\""))))
                    .count()
            };
            assert_eq!(keep(&x), keep(&y), "{}", f.display());
        } else {
            assert!(x == y, "{} differs", f.display());
        }
    }
}

/// Runs `args` whole and as 3 shards (given in a shuffled order to the merge); compares.
fn shards_merge_to_whole(args: &[&str], tmp: &Path, name: &str) {
    let whole = tmp.join(format!("{name}-whole"));
    let mut a: Vec<&str> = args.to_vec();
    let w = whole.display().to_string();
    a.extend(["--out", &w]);
    ok(&a, tmp);
    let dirs: Vec<String> = (0..3).map(|i| format!("{name}-s{i}")).collect();
    for (i, d) in dirs.iter().enumerate() {
        let shard = format!("{i}/3");
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["--out", d, "--shard", &shard]);
        let out = ok(&a, tmp);
        assert!(out.contains(&format!("shard {i}/3")), "{out}");
        assert!(tmp.join(d).join("shard.json").is_file());
    }
    let merged = format!("{name}-merged");
    ok(
        &["merge", &dirs[2], &dirs[0], &dirs[1], "--out", &merged],
        tmp,
    );
    // The merged directory is the whole run's, apart from the shards' own records.
    same_tree(&whole, &tmp.join(&merged));
}

#[test]
fn rigid_procs_shards_merge_to_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    shards_merge_to_whole(
        &[
            "experiment",
            "rigid-procs",
            "--quick",
            "--no-progress",
            "--threads",
            "2",
        ],
        tmp.path(),
        "rp",
    );
    // The figures are there, drawn from the merged cells.
    let m = tmp.path().join("rp-merged");
    for f in ["shelf.png", "heuristics.svg", "summary.md", "cells.csv"] {
        assert!(m.join(f).is_file(), "{f}");
    }
}

#[test]
fn moldable_table1_shards_merge_to_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    shards_merge_to_whole(
        &[
            "experiment",
            "moldable-table1",
            "--quick",
            "--no-progress",
            "--seed",
            "3",
        ],
        tmp.path(),
        "mt",
    );
}

#[test]
fn exhaustive_shards_merge_to_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    shards_merge_to_whole(&["prove", "--exhaustive"], tmp.path(), "ex");
    let report = std::fs::read_to_string(tmp.path().join("ex-merged/report.md")).unwrap();
    // RESCHED_EXHAUSTIVE=small: 432 rigid cases, 243 distinct optima (not the shards' sum).
    assert!(report.contains("432 cases, 243 optima solved"), "{report}");
}

/// One shard alone: N = 1 is the whole run.
#[test]
fn one_shard_of_one_is_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let args = [
        "experiment",
        "rigid-procs",
        "--quick",
        "--no-progress",
        "--sets",
        "1",
    ];
    let mut a = args.to_vec();
    a.extend(["--out", "whole"]);
    ok(&a, t);
    let mut a = args.to_vec();
    a.extend(["--out", "s", "--shard", "0/1"]);
    ok(&a, t);
    ok(&["merge", "s", "--out", "m"], t);
    same_tree(&t.join("whole"), &t.join("m"));
}

#[test]
fn merge_refuses_what_is_not_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let base = [
        "experiment",
        "rigid-procs",
        "--quick",
        "--no-progress",
        "--sets",
        "1",
    ];
    let shard = |dir: &str, s: &str, extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        a.extend(["--out", dir, "--shard", s]);
        ok(&a, t);
    };
    shard("a0", "0/3", &[]);
    shard("a1", "1/3", &[]);
    shard("a2", "2/3", &[]);
    shard("b1", "1/3", &["--seed", "9"]);
    // Missing shard: named, with how many were given.
    let e = refused(&["merge", "a0", "a2", "--out", "m"], t);
    assert!(e.contains("missing shards") && e.contains("1/3"), "{e}");
    assert!(e.contains("given 2 of 3"), "{e}");
    // Duplicated shard: both directories named.
    std::fs::create_dir_all(t.join("dup")).unwrap();
    for f in ["shard.json", "manifest.json"] {
        std::fs::copy(t.join("a1").join(f), t.join("dup").join(f)).unwrap();
    }
    let e = refused(&["merge", "a0", "a1", "dup", "a2", "--out", "m"], t);
    assert!(
        e.contains("duplicated shards: shard 1/3 in a1 and dup"),
        "{e}"
    );
    // Other parameters: the field and both command lines.
    let e = refused(&["merge", "a0", "b1", "a2", "--out", "m"], t);
    assert!(e.contains("a0 and b1 are not shards of one run"), "{e}");
    assert!(
        e.contains("`args` differs") && e.contains("--seed 9"),
        "{e}"
    );
    // Another version.
    let text = std::fs::read_to_string(t.join("dup/shard.json")).unwrap();
    let v = env!("CARGO_PKG_VERSION");
    std::fs::write(
        t.join("dup/shard.json"),
        text.replace(
            &format!("\"version\": \"{v}\""),
            "\"version\": \"0.0.0-other\"",
        ),
    )
    .unwrap();
    let e = refused(&["merge", "a0", "dup", "a2", "--out", "m"], t);
    assert!(
        e.contains("`version` differs") && e.contains("0.0.0-other"),
        "{e}"
    );
    // An unfinished shard (a cell file lost): named with the cell.
    let cell = std::fs::read_dir(t.join("a1/cells"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    std::fs::remove_file(cell.path()).unwrap();
    let e = refused(&["merge", "a0", "a1", "a2", "--out", "m"], t);
    assert!(e.contains("shard 1/3 in a1 has not finished"), "{e}");
    // Not a shard at all, and a shard's directory as the output.
    let e = refused(&["merge", "a0", "nowhere", "--out", "m"], t);
    assert!(e.contains("nowhere has no shard.json"), "{e}");
    let e = refused(&["merge", "a0", "a1", "a2", "--out", "a2"], t);
    assert!(e.contains("a2 holds a shard's output"), "{e}");
    // Nothing was merged by any refusal.
    assert!(!t.join("m").join("results.json").exists());
}

#[test]
fn a_shard_directory_is_not_shared() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let a = [
        "experiment",
        "rigid-procs",
        "--quick",
        "--no-progress",
        "--sets",
        "1",
        "--out",
        "d",
    ];
    let mut x = a.to_vec();
    x.extend(["--shard", "0/2"]);
    ok(&x, t);
    // Rerunning the same shard resumes; another shard in its directory is refused.
    let out = ok(&x, t);
    assert!(out.contains("0 cells computed"), "{out}");
    let mut y = a.to_vec();
    y.extend(["--shard", "1/2"]);
    let e = refused(&y, t);
    assert!(e.contains("holds shard 0/2"), "{e}");
}

/// `prove --search --restarts 5` in 3 shards (one with a single climb) merges to the same
/// worst case as the 5 climbs in one process.
#[test]
fn search_shards_merge_to_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    shards_merge_to_whole(
        &[
            "prove",
            "--search",
            "greedy/lpt",
            "--steps",
            "15",
            "--restarts",
            "5",
            "--seed",
            "2",
        ],
        tmp.path(),
        "se",
    );
    let found = std::fs::read_to_string(tmp.path().join("se-merged/found.json")).unwrap();
    assert!(found.contains("\"ratio\""), "{found}");
}
