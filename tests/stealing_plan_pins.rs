//! Pins of `resched steal`'s CSV outputs on a backlogged slice, made with the profile searched
//! by walking its blocks, which any faster search of the plan (an index over the profile, a
//! jump past a failed window) must reproduce byte for byte under every reading of the plan:
//! both compression rules and both node-return readings. The slice is KTH-SP2's first 2,000
//! jobs on 60 of its 100 nodes at a platform MTBF of 1 h, so the queue holds up to ~290
//! reservations and the plan is searched ~300,000 times per variant. The last column of each
//! line (the build's tag) is left out of the hash.
use crate::support::{repo, resched};

/// FNV-1a, 64 bits: a stable hash independent of the standard library's hasher.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The file's lines without their last column, joined as written.
fn without_tag(text: &str) -> String {
    text.split('\n')
        .map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_plan_keeps_its_pinned_outputs_under_every_reading() {
    let swf = repo().join("examples/data/traces/KTH-SP2-1996-2.1-cln-first2000.swf.gz");
    let dir = tempfile::tempdir().unwrap();
    // (compression, returns, hash of --csv, hash of --jobs-csv)
    let pins = [
        (
            "completions",
            "unforeseen",
            0xc991_ba32_f895_19b5_u64,
            0xd690_5a36_6676_f321_u64,
        ),
        (
            "completions",
            "foreseen",
            0x1c48_891a_03a2_9b79,
            0x4d19_8078_2afd_0554,
        ),
        (
            "completions-and-arrivals",
            "unforeseen",
            0x7ba9_b9a6_4c3c_2363,
            0x8ab0_80f4_0666_5104,
        ),
        (
            "completions-and-arrivals",
            "foreseen",
            0x1c48_891a_03a2_9b79,
            0x4d19_8078_2afd_0554,
        ),
    ];
    for (compression, returns, csv_pin, jobs_pin) in pins {
        let csv = dir.path().join(format!("{compression}-{returns}.csv"));
        let jobs = dir.path().join(format!("{compression}-{returns}.jobs.csv"));
        let out = resched(&[
            "steal",
            "--workload",
            swf.to_str().unwrap(),
            "--nodes",
            "60",
            "--max-job-nodes",
            "60",
            "--variant",
            "baseline,SFSJ",
            "--mtbf",
            "1h",
            "--downtime",
            "1h",
            "--checkpoint",
            "5min",
            "--compression",
            compression,
            "--returns",
            returns,
            "--csv",
            csv.to_str().unwrap(),
            "--jobs-csv",
            jobs.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{compression}, {returns}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = |p: &std::path::Path| fnv(&without_tag(&std::fs::read_to_string(p).unwrap()));
        assert_eq!(got(&csv), csv_pin, "--csv, {compression}, {returns}");
        assert_eq!(got(&jobs), jobs_pin, "--jobs-csv, {compression}, {returns}");
    }
}
