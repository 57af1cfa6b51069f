//! `Stats::plan_checks`, the count the run time of `resched steal` follows:
//! every job a plan update places or examines. A backlog of `n` whole-platform jobs that each
//! end at half their walltime makes every completion give nodes back, and the compression pass
//! then examines every job still queued — `n` placements plus `(n − 1) + … + 1` checks — while
//! jobs that use their whole walltime give nothing back and are placed once each.
//!
//! `Stats::plan_moves` counts what conservative backfilling itself changes: on the same backlog
//! every completion moves every job still queued one slot earlier, `(n − 1) + … + 1` moves, a
//! number per job that grows with the backlog whatever the simulator does.
use resched::stealing::check::check;
use resched::stealing::sim::Run;
use resched::stealing::{simulate, BatchJob, FailureSource, Resilience, Variant, Workload};
use resched::Time;

fn backlog(n: usize, walltime: i64) -> Run {
    let jobs = (0..n)
        .map(|k| BatchJob {
            name: format!("J{k}"),
            release: Time::zero(),
            nodes: 4,
            run: Time::from_int(10),
            walltime: Time::from_int(walltime),
        })
        .collect();
    let w = Workload::new(4, jobs, "backlog").unwrap();
    let res = Resilience {
        downtime: Time::from_int(5),
        checkpoint: Time::zero(),
        recovery: Time::zero(),
        mtbf_ind: None,
    };
    let none = FailureSource::List {
        failures: Vec::new(),
        next: 0,
    };
    let v: Variant = "baseline".parse().unwrap();
    let run = simulate(&w, &res, none, v).unwrap();
    check(&w, &res, &run, None).unwrap_or_else(|e| panic!("{e}"));
    run
}

#[test]
fn exact_walltimes_are_placed_once() {
    for n in [1, 6, 12] {
        let run = backlog(n, 10);
        assert_eq!(run.stats.plan_checks, n as u64, "n = {n}");
        assert_eq!(run.stats.plan_moves, 0, "n = {n}");
    }
}

#[test]
fn early_completions_check_the_whole_backlog() {
    for n in [1usize, 6, 12] {
        let run = backlog(n, 20);
        let expected = n + n * (n - 1) / 2;
        assert_eq!(run.stats.plan_checks, expected as u64, "n = {n}");
        assert_eq!(run.stats.plan_moves, (n * (n - 1) / 2) as u64, "n = {n}");
        // Each job starts when the one before it ends: the compression moved it each time.
        let last_end = run.attempts.iter().map(|a| a.end.clone()).max().unwrap();
        assert_eq!(last_end, Time::from_int(10 * n as i64), "n = {n}");
    }
}

/// The same backlog through `resched steal`: its stderr line reports both counts, and the
/// jobs waiting.
#[test]
fn steal_reports_checks_and_moves() {
    let d = tempfile::tempdir().unwrap();
    let (swf, fl) = (d.path().join("backlog.swf"), d.path().join("none.failures"));
    let mut text = String::from("; MaxNodes: 4\n");
    for k in 1..=6 {
        text.push_str(&format!(
            "{k} 0 -1 10 4 -1 -1 4 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
        ));
    }
    std::fs::write(&swf, text).unwrap();
    std::fs::write(&fl, "# no failure\n").unwrap();
    let o = std::process::Command::new(crate::support::bin())
        .args(["steal", "--workload"])
        .arg(&swf)
        .arg("--failures")
        .arg(&fl)
        .args([
            "--downtime",
            "5",
            "--checkpoint",
            "0",
            "--recovery",
            "0",
            "--mtbf",
            "1",
        ])
        .args(["--variant", "baseline", "--quiet"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // n = 6: 6 + 15 checks, 15 moves; all six released at 0, where one starts.
    assert!(
        err.contains("21 checks of queued jobs' slots")
            && err.contains(
                "15 reservations moved earlier, 2.5 per job; 5 jobs waiting at the median \
                 submission, 5 at the last)"
            ),
        "{err}"
    );
}

/// Whole nodes raise the load: `steal` says how many jobs were rounded up to whole nodes and
/// what share of the processor-time they hold stays idle (a 1-processor and a 4-processor job,
/// 10 s each, on nodes of 4: 80 held, 50 used, 37.5 % idle).
#[test]
fn steal_reports_processors_left_idle_by_whole_nodes() {
    let d = tempfile::tempdir().unwrap();
    let swf = d.path().join("nodes4.swf");
    std::fs::write(
        &swf,
        "; MaxNodes: 2\n; MaxProcs: 8\n\
         1 0 -1 10 1 -1 -1 1 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n\
         2 0 -1 10 4 -1 -1 4 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n",
    )
    .unwrap();
    let o = std::process::Command::new(crate::support::bin())
        .args(["steal", "--workload"])
        .arg(&swf)
        .args(["--variant", "baseline", "--quiet"])
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{err}");
    // The platform line gives the node MTBF in days too (the paper's, by default: 1 h × 49,152
    // nodes; tests/stealing_node_mtbf.rs tests the rate options).
    assert!(
        out.contains("(μ_ind = 176947200 s = 2048.0 days, default:"),
        "{out}"
    );
    // The workload line is the report's first, on standard output.
    assert!(
        out.contains(
            "1 jobs on a processor count that is not a multiple of 4 hold whole nodes, leaving \
             37.5% of the processor-time held idle"
        ),
        "{out}"
    );
}
