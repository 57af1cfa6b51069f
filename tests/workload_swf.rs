//! The SWF reader on every trace of `../shared/traces/` (job counts, P, the cleaning rule's
//! counts, day splitting) — numbers cross-checked with `zcat | awk` on the raw files.
use resched::workload::swf::{Oversize, SwfLog};
use std::path::PathBuf;

/// `<repo>/../shared/traces` (CI and the main checkout); a git worktree one level deeper
/// (`/work/wt/<name>`) finds it at `../../shared`.
fn trace(name: &str) -> PathBuf {
    crate::support::shared("traces").join(name)
}

/// (file, job lines, kept, dropped for run time ≤ 0, header P, largest job, days)
type Expected = (&'static str, usize, usize, usize, Option<u32>, u32, usize);
const TRACES: &[Expected] = &[
    (
        "CEA-Curie-2011-2.1-cln-b2.swf.gz",
        15239,
        14872,
        367,
        None,
        70048,
        6,
    ),
    (
        "KTH-SP2-1996-2.1-cln.swf.gz",
        27992,
        27992,
        0,
        Some(100),
        100,
        334,
    ),
    (
        "Mira-2018-03-02-10days.swf.gz",
        1335,
        1335,
        0,
        Some(49152),
        32768,
        17,
    ),
    (
        "Mira-2018-03-16-10days.swf.gz",
        1511,
        1511,
        0,
        Some(49152),
        49152,
        14,
    ),
    (
        "NASA-iPSC-1993-3.1-cln.swf.gz",
        18239,
        18066,
        173,
        Some(128),
        128,
        88,
    ),
];

#[test]
fn every_shared_trace_parses_with_expected_counts() {
    for &(name, lines, kept, run_dropped, header_p, largest, ndays) in TRACES {
        let log = SwfLog::load(&trace(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(log.jobs.len(), kept, "{name}: kept jobs");
        assert_eq!(
            log.jobs.len() + log.dropped.total(),
            lines,
            "{name}: all job lines accounted for"
        );
        assert_eq!(
            log.dropped.run_time, run_dropped,
            "{name}: dropped for run time"
        );
        assert_eq!(log.header_procs(), header_p, "{name}: header P");
        assert_eq!(log.largest_job(), largest, "{name}: largest job");
        let p = log.platform_procs().expect("non-empty log");
        let days = log
            .split_days(p, Oversize::Error)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(days.days.len(), ndays, "{name}: days");
        assert_eq!(
            days.days.iter().map(|d| d.instance.len()).sum::<usize>(),
            kept,
            "{name}: every job in a day"
        );
        for d in &days.days {
            assert!(d.instance.validate().is_ok());
            assert_eq!(d.instance.procs, p);
        }
    }
}

#[test]
fn mira_window_days_match_awk() {
    // zcat Mira-2018-03-16-10days.swf.gz | awk '!/^;/ {c[int($2/86400)]++}'
    let log = SwfLog::load(&trace("Mira-2018-03-16-10days.swf.gz")).unwrap();
    let days = log.split_days(49152, Oversize::Error).unwrap();
    let counts: Vec<(i64, usize)> = days
        .days
        .iter()
        .map(|d| (d.day, d.instance.len()))
        .collect();
    assert_eq!(
        counts,
        vec![
            (0, 4),
            (1, 4),
            (2, 18),
            (3, 131),
            (4, 259),
            (5, 46),
            (6, 167),
            (7, 220),
            (8, 162),
            (9, 116),
            (10, 115),
            (11, 63),
            (12, 104),
            (13, 102)
        ]
    );
    let first = &log.jobs[0];
    assert_eq!(
        (first.id, first.procs, first.run.to_string()),
        (1, 16384, "40700".to_string())
    );
    assert_eq!(
        first.requested_time.as_ref().map(|t| t.to_string()),
        Some("43200".to_string())
    );
}

#[test]
fn smaller_platform_drops_or_clamps_large_jobs() {
    let log = SwfLog::load(&trace("Mira-2018-03-16-10days.swf.gz")).unwrap();
    let big = log.jobs.iter().filter(|j| j.procs > 16384).count();
    assert!(big > 0);
    let d = log.split_days(16384, Oversize::Drop).unwrap();
    assert_eq!(d.oversize, big);
    assert_eq!(
        d.days.iter().map(|x| x.instance.len()).sum::<usize>(),
        log.jobs.len() - big
    );
    let c = log.split_days(16384, Oversize::Clamp).unwrap();
    assert_eq!(
        c.days.iter().map(|x| x.instance.len()).sum::<usize>(),
        log.jobs.len()
    );
    let e = log
        .split_days(16384, Oversize::Error)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Mira-2018-03-16-10days.swf.gz:"), "{e}");
}

#[test]
fn truncated_file_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.swf");
    std::fs::write(
        &path,
        "; MaxProcs: 4\n1 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n2 0 0 10 4 -1\n",
    )
    .unwrap();
    let e = SwfLog::load(&path).unwrap_err().to_string();
    assert!(
        e.contains("bad.swf:3:") && e.contains("too few fields: 6"),
        "{e}"
    );
    let missing = SwfLog::load(&dir.path().join("nope.swf"))
        .unwrap_err()
        .to_string();
    assert!(missing.contains("nope.swf"), "{missing}");
}
