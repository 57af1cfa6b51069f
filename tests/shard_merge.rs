//! `--shard I/N` + `resched merge`: three shards merged are byte for byte the single
//! run — every file, figures included, timings excepted — for two campaigns and for
//! `prove --exhaustive`; and the merge refuses what is not one run split N ways (other
//! parameters, a missing shard, a duplicated shard, an unfinished shard).
//!
//! Provenance: shard records, manifests, cells, results and figures name the build
//! that made them; the merge refuses shards of another build, of a dirty tree or of no recorded
//! build unless `--allow-mixed-builds` is given, and a shard record of a newer format.
use resched_cli::provenance::{this_build, Provenance};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn resched(args: &[&str], cwd: &Path) -> Output {
    Command::new(crate::support::bin())
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

/// The merge's flags for shards made by this very build: none when it is a clean commit; when
/// it was built from a dirty tree or outside git, the merge refuses even its own shards (see
/// `merge_refuses_other_builds_unless_told`), so the tests that merge pass the flag then.
fn build_flags() -> Vec<&'static str> {
    let this = this_build();
    if this.same_code(this) {
        vec![]
    } else {
        vec!["--allow-mixed-builds"]
    }
}

/// `args` followed by [`build_flags`].
fn with_build_flags<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut a = args.to_vec();
    a.extend(build_flags());
    a
}

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
        &with_build_flags(&["merge", &dirs[2], &dirs[0], &dirs[1], "--out", &merged]),
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
    let parts = read_json(&tmp.path().join("ex-s1/parts.json"));
    assert_eq!(&build_of(&parts), this_build());
    let report = std::fs::read_to_string(tmp.path().join("ex-merged/report.md")).unwrap();
    assert!(
        report.ends_with(&format!("\nMade by resched {}.\n", this_build())),
        "{report}"
    );
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
    ok(&with_build_flags(&["merge", "s", "--out", "m"]), t);
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
    let e = refused(
        &with_build_flags(&["merge", "a0", "a1", "a2", "--out", "m"]),
        t,
    );
    assert!(e.contains("shard 1/3 in a1 has not finished"), "{e}");
    // Not a shard at all, and a shard's directory as the output.
    let e = refused(&["merge", "a0", "nowhere", "--out", "m"], t);
    assert!(e.contains("nowhere has no shard.json"), "{e}");
    let e = refused(
        &with_build_flags(&["merge", "a0", "a1", "a2", "--out", "a2"]),
        t,
    );
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
    // The shards' finds and the merged one name the build that made them.
    for f in ["se-s0/found.json", "se-merged/found.json"] {
        assert_eq!(
            &build_of(&read_json(&tmp.path().join(f))),
            this_build(),
            "{f}"
        );
    }
    // The golden case `--save` writes: the corpus schema's version and the build.
    let o = ok(
        &[
            "prove",
            "--search",
            "greedy/lpt",
            "--steps",
            "5",
            "--seed",
            "2",
            "--save",
            "saved",
        ],
        tmp.path(),
    );
    assert!(o.contains("saved saved/"), "{o}");
    let case = std::fs::read_dir(tmp.path().join("saved"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let v = read_json(&case);
    assert_eq!(v["format_version"], 1, "{v}");
    assert_eq!(&build_of(&v), this_build());
    resched::oracle::corpus::load(&case).unwrap();
}

/// The three shards `a0`, `a1`, `a2` of a one-set `rigid-procs --quick`, made in `t`.
fn three_shards(t: &Path) {
    for i in 0..3 {
        let (dir, shard) = (format!("a{i}"), format!("{i}/3"));
        ok(
            &[
                "experiment",
                "rigid-procs",
                "--quick",
                "--no-progress",
                "--sets",
                "1",
                "--out",
                &dir,
                "--shard",
                &shard,
            ],
            t,
        );
    }
}

fn read_json(p: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Rewrites the JSON file `p` with `edit`.
fn edit_json(p: &Path, edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) {
    let mut v = read_json(p);
    edit(v.as_object_mut().expect("a JSON object"));
    std::fs::write(p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// The build recorded under `resched` in `v`.
fn build_of(v: &serde_json::Value) -> Provenance {
    serde_json::from_value(v["resched"].clone()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

/// Every file of a campaign names the build that made it: the shard record (with its
/// `format_version`), the manifest, each cell, `results.json`, and the figures (SVG metadata,
/// PNG tEXt chunks).
#[test]
fn shard_and_campaign_files_name_their_build() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    three_shards(t);
    let this = this_build();
    assert_eq!(this.version, env!("CARGO_PKG_VERSION"));
    let rec = read_json(&t.join("a0/shard.json"));
    assert_eq!(rec["format_version"], 1, "{rec}");
    assert_eq!(&build_of(&rec), this);
    assert_eq!(&build_of(&read_json(&t.join("a0/manifest.json"))), this);
    for e in std::fs::read_dir(t.join("a0/cells")).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        assert!(text.starts_with("{\"resched\":{\"version\":"), "{text}");
        assert_eq!(&build_of(&serde_json::from_str(&text).unwrap()), this);
    }
    ok(
        &with_build_flags(&["merge", "a0", "a1", "a2", "--out", "m"]),
        t,
    );
    let results = read_json(&t.join("m/results.json"));
    assert_eq!(&build_of(&results), this);
    assert!(
        results["manifest"].get("resched").is_none(),
        "the campaign's own manifest"
    );
    // The summary's title names the build too (a table pasted elsewhere keeps it).
    let summary = std::fs::read_to_string(t.join("m/summary.md")).unwrap();
    let title = summary.lines().next().unwrap_or_default();
    assert!(
        title.contains(&format!("(resched {this})")) && title.contains(&this.commit),
        "{title}"
    );
    let svg = std::fs::read_to_string(t.join("m/shelf.svg")).unwrap();
    let meta = format!(
        "<metadata id=\"resched\">{{\"resched\":{}}}</metadata>",
        serde_json::to_string(&this.json()).unwrap()
    );
    assert!(
        svg.lines().nth(1) == Some(meta.as_str()),
        "{meta}\n{svg:.300}"
    );
    let png = std::fs::read(t.join("m/shelf.png")).unwrap();
    let text = format!("tEXtSoftware\0resched {this}");
    assert!(
        png.windows(text.len()).any(|w| w == text.as_bytes()),
        "no Software chunk"
    );
    assert!(png
        .windows(this.commit.len())
        .any(|w| w == this.commit.as_bytes()));
}

/// Shards of another commit, or of a dirty tree, are refused with what to do; with
/// `--allow-mixed-builds` they are merged, each named on stderr, and each merged cell keeps the
/// build that computed it.
#[test]
fn merge_refuses_other_builds_unless_told() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    three_shards(t);
    let v = env!("CARGO_PKG_VERSION");
    edit_json(&t.join("a1/shard.json"), |r| {
        r["resched"] = serde_json::json!({"version": v, "commit": "0123abc", "dirty": false});
    });
    edit_json(&t.join("a2/shard.json"), |r| {
        r["resched"]["dirty"] = true.into();
    });
    let merge = ["merge", "a0", "a1", "a2", "--out", "m"];
    let e = refused(&merge, t);
    assert!(
        e.contains(&format!(
            "shard 1/3 in a1 was made by resched {v} (commit 0123abc), and this is resched {}",
            this_build()
        )),
        "{e}"
    );
    assert!(
        e.contains(&format!(
            "shard 2/3 in a2 was made by resched {v} (commit {}, dirty tree): builds from a dirty \
             tree cannot be told apart",
            this_build().commit
        )),
        "{e}"
    );
    assert!(
        e.contains(
            "A merge joins shards made by this very build of resched, built from a clean commit: \
             rerun the shards and the merge with one such build, or pass --allow-mixed-builds to \
             merge them anyway"
        ),
        "{e}"
    );
    assert!(!t.join("m/results.json").exists());
    let o = resched(
        &[
            "merge",
            "a0",
            "a1",
            "a2",
            "--out",
            "m",
            "--allow-mixed-builds",
        ],
        t,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning: --allow-mixed-builds: shard 1/3 in a1 was made by resched"),
        "{err}"
    );
    assert!(t.join("m/results.json").is_file());
    // Every cell came from this build (only the records were edited): it says so.
    for e in std::fs::read_dir(t.join("m/cells")).unwrap() {
        assert_eq!(&build_of(&read_json(&e.unwrap().path())), this_build());
    }
    // The flag is in --help.
    let help = ok(&["merge", "--help"], t);
    assert!(help.contains("--allow-mixed-builds"), "{help}");
}

/// A shard written before records named their build (`"format": 1`, no `resched`; its manifest
/// and cells without provenance) is an unknown build: refused, with how to proceed; merged with
/// `--allow-mixed-builds`, and read as the same results.
#[test]
fn a_shard_from_before_provenance_is_an_unknown_build() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    three_shards(t);
    ok(
        &with_build_flags(&["merge", "a0", "a1", "a2", "--out", "new"]),
        t,
    );
    // a1 as an older resched wrote it.
    edit_json(&t.join("a1/shard.json"), |r| {
        r.remove("resched");
        let v = r.remove("format_version").unwrap();
        r.insert("format".into(), v);
    });
    edit_json(&t.join("a1/manifest.json"), |m| {
        m.remove("resched");
    });
    for e in std::fs::read_dir(t.join("a1/cells")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let (_, rest) = text.split_once("},").unwrap();
        std::fs::write(&p, format!("{{{rest}")).unwrap();
        assert!(read_json(&p).get("resched").is_none());
    }
    let e = refused(&["merge", "a0", "a1", "a2", "--out", "old"], t);
    assert!(
        e.contains(
            "shard 1/3 in a1 records no build (it was written by a resched that did not record \
             its provenance): an unknown build"
        ),
        "{e}"
    );
    assert!(e.contains("or pass --allow-mixed-builds"), "{e}");
    ok(
        &[
            "merge",
            "a0",
            "a1",
            "a2",
            "--out",
            "old",
            "--allow-mixed-builds",
        ],
        t,
    );
    // The same numbers: the cells' results do not include their provenance.
    let (mut a, mut b) = (
        read_json(&t.join("new/results.json")),
        read_json(&t.join("old/results.json")),
    );
    strip_timings(&mut a);
    strip_timings(&mut b);
    assert_eq!(a["cells"], b["cells"]);
    assert_eq!(a["summary"], b["summary"]);
}

/// A shard record of a newer format is refused naming the file and the field, also when its
/// new fields are ones this build does not know.
#[test]
fn a_newer_shard_record_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    three_shards(t);
    edit_json(&t.join("a0/shard.json"), |r| {
        r["format_version"] = 2.into();
    });
    let want = "a0/shard.json: field `format_version`: version 2 is newer than this resched \
                reads (1); upgrade resched";
    let e = refused(
        &with_build_flags(&["merge", "a0", "a1", "a2", "--out", "m"]),
        t,
    );
    assert!(e.contains(want), "{e}");
    edit_json(&t.join("a0/shard.json"), |r| {
        r.insert("priority_classes".into(), serde_json::json!([1, 2]));
    });
    let e = refused(
        &with_build_flags(&["merge", "a0", "a1", "a2", "--out", "m"]),
        t,
    );
    assert!(e.contains(want), "{e}");
}

/// The cell files of `dir/cells`, sorted.
fn cell_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("cells"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// Each cell file records its key and the hash of the parameters that decide it: a cell copied
/// from a run with another seed, two cells whose contents were swapped, a truncated cell, and
/// shards of another version are refused naming the file; a shard record whose index is not
/// below its count is refused naming the field (it panicked). Nothing is merged by a refusal,
/// and the untouched shards still merge.
#[test]
fn merge_verifies_every_cell() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    three_shards(t);
    ok(
        &[
            "experiment",
            "rigid-procs",
            "--quick",
            "--no-progress",
            "--sets",
            "1",
            "--seed",
            "9",
            "--out",
            "other-seed",
            "--shard",
            "1/3",
        ],
        t,
    );
    let merge = with_build_flags(&["merge", "a0", "a1", "a2", "--out", "m"]);
    // Every cell says which cell it is.
    let first = cell_files(&t.join("a1"))[0].clone();
    let key = first.file_stem().unwrap().to_str().unwrap().to_string();
    let v = read_json(&first);
    assert_eq!(
        v["cell"]["key"],
        serde_json::Value::from(key.clone()),
        "{v}"
    );
    assert_eq!(v["cell"]["params"].as_str().map(str::len), Some(16), "{v}");
    let original = std::fs::read(&first).unwrap();
    // A cell of the run with seed 9, copied over.
    std::fs::copy(
        t.join("other-seed/cells").join(format!("{key}.json")),
        &first,
    )
    .unwrap();
    let e = refused(&merge, t);
    assert!(
        e.contains(&format!("a1/cells/{key}.json")) && e.contains("field `cell.params`"),
        "{e}"
    );
    assert!(e.contains("computed with other parameters"), "{e}");
    std::fs::write(&first, &original).unwrap();
    // Two cells swapped (a1's and a2's: each shard holds one cell of this small run).
    let other = cell_files(&t.join("a2"))[0].clone();
    let theirs = std::fs::read(&other).unwrap();
    std::fs::write(&first, &theirs).unwrap();
    std::fs::write(&other, &original).unwrap();
    let e = refused(&merge, t);
    assert!(
        e.contains(&format!("a1/cells/{key}.json"))
            && e.contains("field `cell.key`")
            && e.contains("cell files swapped or renamed"),
        "{e}"
    );
    std::fs::write(&other, &theirs).unwrap();
    // A truncated cell.
    std::fs::write(&first, &original[..original.len() / 2]).unwrap();
    let e = refused(&merge, t);
    assert!(e.contains(&format!("a1/cells/{key}.json")), "{e}");
    std::fs::write(&first, &original).unwrap();
    // A record whose index is not below its count.
    let rec = t.join("a0/shard.json");
    let saved = std::fs::read(&rec).unwrap();
    edit_json(&rec, |r| r["shard"]["index"] = 7.into());
    let e = refused(&merge, t);
    assert!(
        e.contains("a0/shard.json")
            && e.contains("field `shard.index`: 7: must be below the count 3"),
        "{e}"
    );
    // Shards of another version, even with --allow-mixed-builds.
    for d in ["a0", "a1", "a2"] {
        edit_json(&t.join(d).join("shard.json"), |r| {
            r["version"] = "0.0.1".into();
            r["shard"]["index"] = r["shard"]["index"].clone();
        });
    }
    edit_json(&rec, |r| r["shard"]["index"] = 0.into());
    let e = refused(
        &[
            "merge",
            "a0",
            "a1",
            "a2",
            "--out",
            "m",
            "--allow-mixed-builds",
        ],
        t,
    );
    assert!(
        e.contains("a0/shard.json") && e.contains("made by resched 0.0.1"),
        "{e}"
    );
    assert!(!t.join("m/results.json").exists());
    // Restored, they merge.
    std::fs::write(&rec, &saved).unwrap();
    for d in ["a1", "a2"] {
        edit_json(&t.join(d).join("shard.json"), |r| {
            r["version"] = env!("CARGO_PKG_VERSION").into();
        });
    }
    ok(&merge, t);
    assert!(t.join("m/results.json").is_file());
}
