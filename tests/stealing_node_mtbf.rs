//! `resched steal`'s failure rate: the default keeps the paper's *nodes*
//! (μ_ind = 49,152 h, Sections 2 and 6.1: a platform MTBF of 1 h on Mira's 49,152 nodes), so
//! the platform MTBF is μ_ind/N on any machine; `--node-mtbf` gives μ_ind, `--mtbf` gives μ,
//! and the two are the same failures when μ = μ_ind/N.
use std::path::Path;
use std::process::Command;

/// Four 2-node jobs on a machine of `nodes` nodes, long enough for failures to strike.
fn trace(dir: &Path, nodes: u32) -> String {
    headed(dir, nodes, nodes)
}

/// The jobs of [`trace`] under the headers `MaxNodes: nodes`, `MaxProcs: procs`.
fn headed(dir: &Path, nodes: u32, procs: u32) -> String {
    let p = dir.join(format!("n{nodes}p{procs}.swf"));
    let mut s = format!("; MaxNodes: {nodes}\n; MaxProcs: {procs}\n");
    for i in 1..=4 {
        s.push_str(&format!(
            "{i} {} -1 90000 2 -1 -1 2 100000 -1 1 -1 -1 -1 -1 -1 -1 -1\n",
            i * 10
        ));
    }
    std::fs::write(&p, s).unwrap();
    p.to_str().unwrap().to_string()
}

/// `resched steal ARGS --variant baseline --quiet`: (exit code, stdout, stderr).
fn steal(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(crate::support::bin())
        .arg("steal")
        .args(args)
        .args(["--variant", "baseline", "--quiet"])
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The failures of the Baseline row of a report (the fourth number from its end).
fn failures(out: &str) -> Option<u64> {
    out.lines()
        .find(|l| l.starts_with("Baseline "))
        .and_then(|l| l.split_whitespace().nth_back(3))
        .and_then(|n| n.parse::<u64>().ok())
}

/// The report without its `platform:` line (which says where the rate came from).
fn without_platform(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("platform:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_default_keeps_the_papers_nodes() {
    let d = tempfile::tempdir().unwrap();
    let small = trace(d.path(), 4);
    let (code, out, err) = steal(&["--workload", &small]);
    assert_eq!(code, 0, "{err}");
    // 176,947,200 s / 4 nodes, not 3600 s.
    assert!(
        out.contains(
            "platform: 4 nodes, MTBF 44236800.0 s (μ_ind = 176947200 s = 2048.0 days, default: \
             the paper's nodes, μ = 1 h on Mira's 49,152)"
        ),
        "{out}"
    );
    // On Mira's 49,152 nodes the default is the paper's platform MTBF of 1 h, failure for
    // failure.
    let mira = trace(d.path(), 49_152);
    let (c1, default, e1) = steal(&["--workload", &mira]);
    let (c2, one_hour, e2) = steal(&["--workload", &mira, "--mtbf", "1h"]);
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert!(default.contains("MTBF 3600.0 s"), "{default}");
    assert_eq!(without_platform(&default), without_platform(&one_hour));
    // Table 6's synthetic workload keeps Section 6.3's platform MTBF.
    let (c, syn, e) = steal(&["--workload", "synthetic"]);
    assert_eq!(c, 0, "{e}");
    assert!(
        syn.contains("MTBF 1800.0 s (μ_ind = 230400 s = 2.7 days, default: Section 6.3's"),
        "{syn}"
    );
}

#[test]
fn node_mtbf_is_the_platform_mtbf_times_n() {
    let d = tempfile::tempdir().unwrap();
    let w = trace(d.path(), 4);
    // 20 h per node on 4 nodes is 5 h for the platform: the same draws, the same report.
    let (c1, node, e1) = steal(&["--workload", &w, "--node-mtbf", "20h"]);
    let (c2, platform, e2) = steal(&["--workload", &w, "--mtbf", "5h"]);
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert!(
        node.contains("MTBF 18000.0 s (μ_ind = 72000 s = 0.8 days, from --node-mtbf)"),
        "{node}"
    );
    assert!(platform.contains("from --mtbf)"), "{platform}");
    assert_eq!(without_platform(&node), without_platform(&platform));
    // Failures did strike: the comparison is not between two failure-free runs.
    assert!(failures(&node).is_some_and(|n| n > 0), "{node}");
}

#[test]
fn bad_node_mtbfs_are_refused_by_name() {
    let d = tempfile::tempdir().unwrap();
    let w = trace(d.path(), 4);
    // Both rates at once: a usage error.
    let (code, _, err) = steal(&["--workload", &w, "--node-mtbf", "1d", "--mtbf", "1h"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    // 1/500 s per node is 1/2000 s for the platform: below one grid step.
    let (code, _, err) = steal(&["--workload", &w, "--node-mtbf", "0.002"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "option `--node-mtbf`: μ_ind/N on 4 nodes: 1/2000 s is outside the valid range"
        ),
        "{err}"
    );
    for bad in ["-1h", "0", "nan", "10y"] {
        let (code, _, err) = steal(&["--workload", &w, "--node-mtbf", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("--node-mtbf"), "{bad}: {err}");
    }
}

/// A machine of unlike nodes, CEA-Curie in small (`MaxProcs` 5 on `MaxNodes` 2, not a
/// multiple): its processors are scheduled as one-processor nodes, and failures strike its
/// 2 nodes, μ = μ_ind/2 (CEA-Curie: μ_ind/5,544, not μ_ind/93,312).
#[test]
fn unlike_nodes_fail_as_the_machines_nodes() {
    let d = tempfile::tempdir().unwrap();
    let w = &headed(d.path(), 2, 5);
    let (code, default, err) = steal(&["--workload", w]);
    assert_eq!(code, 0, "{err}");
    assert!(
        default.contains(
            "platform: 5 nodes, MTBF 88473600.0 s (μ_ind = 176947200 s = 2048.0 days per node \
             of the machine's 2 (the MaxNodes header: its processors are scheduled as \
             one-processor nodes), default: the paper's nodes"
        ),
        "{default}"
    );
    let (c, given, e) = steal(&["--workload", w, "--mtbf", "88473600s"]);
    assert_eq!(c, 0, "{e}");
    assert_eq!(without_platform(&default), without_platform(&given));
    // `--node-mtbf` is per node of the machine too: 20 h over 2 nodes.
    let (c, node, e) = steal(&["--workload", w, "--node-mtbf", "20h"]);
    assert_eq!(c, 0, "{e}");
    assert!(node.contains("MTBF 36000.0 s (μ_ind = 72000 s"), "{node}");
    let (c, ten, e) = steal(&["--workload", w, "--mtbf", "10h"]);
    assert_eq!(c, 0, "{e}");
    assert_eq!(without_platform(&node), without_platform(&ten));
    // Failures did strike in that run (the comparison is not of two failure-free runs).
    assert!(failures(&node).is_some_and(|n| n > 0), "{node}");
    // Processors the user calls nodes are the nodes that fail: μ_ind/5.
    let (c, ppn, e) = steal(&["--workload", w, "--procs-per-node", "1"]);
    assert_eq!(c, 0, "{e}");
    assert!(
        ppn.contains(
            "platform: 5 nodes, MTBF 35389440.0 s (μ_ind = 176947200 s = 2048.0 days, default"
        ),
        "{ppn}"
    );
}
