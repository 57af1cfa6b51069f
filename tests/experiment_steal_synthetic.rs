//! `steal-synthetic --quick` (node-stealing paper Section 6.3): the run finishes, writes its
//! outputs, every summary row has the paper's value beside ours, no number is NaN, the Table 7
//! rows carry the published 70% / 72%, and a rerun resumes without recomputing.
use resched_cli::experiment::{self, Options};

#[test]
fn steal_synthetic_quick() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        quick: true,
        out: Some(dir.path().to_path_buf()),
        seed: 1,
        threads: Some(2),
        progress: false,
        ..Options::default()
    };
    let o = experiment::run("steal-synthetic", &opts).unwrap();
    assert_eq!(o.stats.computed, 3, "--quick runs seeds 1-3");
    for f in [
        "manifest.json",
        "cells.csv",
        "summary.csv",
        "results.json",
        "summary.md",
        "figure13-all.png",
        "figure13-scaled.svg",
    ] {
        assert!(dir.path().join(f).is_file(), "{f} missing");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("results.json")).unwrap())
            .unwrap();
    assert_eq!(json["manifest"]["campaign"], "steal-synthetic");
    assert_eq!(json["cells"].as_array().unwrap().len(), 3);
    let mut rdr = csv::Reader::from_path(dir.path().join("summary.csv")).unwrap();
    let h = rdr.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (table, row, paper, mean, seeds) = (
        col("table"),
        col("row"),
        col("paper"),
        col("ours_mean"),
        col("seeds"),
    );
    let mut t7 = Vec::new();
    let mut n = 0;
    for rec in rdr.records() {
        let rec = rec.unwrap();
        n += 1;
        assert!(!rec[paper].is_empty(), "no paper value: {rec:?}");
        let v: f64 = rec[mean].parse().unwrap();
        assert!(v.is_finite() && v > 0.0, "{rec:?}");
        assert_eq!(&rec[seeds], "3", "{rec:?}");
        if &rec[table] == "Table 7" {
            assert!(v > 30.0 && v < 100.0, "utilization {v}% in {rec:?}");
            t7.push((rec[row].to_string(), rec[paper].to_string()));
        }
    }
    // Two readings of node returns × two measures × (2 variants × 2 readings of Table 7 + 7
    // classes × 2 statistics).
    assert_eq!(n, 2 * 2 * (4 + 14));
    assert_eq!(t7.len(), 16);
    for (r, p) in &t7 {
        let expect = if r == "Baseline" { "70" } else { "72" };
        assert_eq!(p, expect, "{r}");
    }
    let md = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(!md.contains("NaN"), "{md}");
    assert!(
        md.contains("| Baseline | useful | 70 |") && md.contains("| SFSJ (H111) | useful | 72 |"),
        "{md}"
    );
    // A rerun resumes every cell and gives the same summary.
    let again = experiment::run("steal-synthetic", &opts).unwrap();
    assert_eq!(again.stats.computed, 0);
    assert_eq!(again.markdown, o.markdown);
    // The readings: the paper's by default, named in the manifest and the summary.
    assert_eq!(json["manifest"]["compression"], "completions");
    assert_eq!(
        json["manifest"]["node_returns"],
        serde_json::json!(["unforeseen", "foreseen"])
    );
    assert!(
        md.contains("compressed at `completions` (Batsched's rule"),
        "{md}"
    );
    assert!(md.contains("(Baseline, node returns `unforeseen`)"), "{md}");
}

/// `compression` reaches the runs and the manifest: resched's first reading gives other
/// numbers on the same seed, and an output directory made under one reading is not resumed
/// under the other.
#[test]
fn steal_synthetic_compression_reading() {
    use resched::stealing::Compression;
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        quick: true,
        sets: Some(1),
        out: Some(dir.path().to_path_buf()),
        threads: Some(1),
        progress: false,
        ..Options::default()
    };
    let first = Options {
        compression: Some(Compression::CompletionsAndArrivals),
        ..opts.clone()
    };
    let o = experiment::run("steal-synthetic", &opts).unwrap();
    let e = experiment::run("steal-synthetic", &first).unwrap_err();
    assert!(e.to_string().contains("compression"), "{e}");
    let d2 = tempfile::tempdir().unwrap();
    let f = experiment::run(
        "steal-synthetic",
        &Options {
            out: Some(d2.path().to_path_buf()),
            ..first
        },
    )
    .unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d2.path().join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["compression"], "completions-and-arrivals");
    assert!(f
        .markdown
        .contains("compressed at `completions-and-arrivals`"));
    let cells = |d: &std::path::Path| std::fs::read_to_string(d.join("cells.csv")).unwrap();
    assert_ne!(cells(dir.path()), cells(d2.path()), "{}", o.markdown);
}
