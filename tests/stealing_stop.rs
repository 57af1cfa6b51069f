//! A node-stealing run stopped by its progress callback (a stopped run leaves its
//! results): after k progress reports, the jobs completed so far have exactly the attempts,
//! holds and completion times they have in the whole run, the failures so far are the whole
//! run's first ones, and the partial schedule passes the independent checker against the
//! workload of its completed jobs. Table 6's synthetic workload, fixed seeds (printed on
//! failure), Baseline and node-stealing variants with both timings.
use resched::stealing::check::check;
use resched::stealing::metrics::{compute, Pruning};
use resched::stealing::sim::{AttemptRecord, HoldRecord, PROGRESS_EVERY};
use resched::stealing::synthetic::{paper_resilience, Synthetic};
use resched::stealing::{
    simulate_read, simulate_read_reporting, Budget, Ending, FailureSource, Partial, Readings, Run,
    Variant, Workload,
};
use resched::Time;
use std::ops::ControlFlow;

fn workload(seed: u64) -> Workload {
    Synthetic::parse("synthetic:jobs=2000", seed)
        .unwrap()
        .generate()
        .unwrap()
}

fn failures(seed: u64, w: &Workload) -> FailureSource {
    // Section 6.3's platform MTBF of 30 min.
    FailureSource::poisson(seed, &Time::from_int(1800), w.nodes).unwrap()
}

/// The run stopped at the `k`-th progress report, and the number of reports seen.
fn stopped_after(w: &Workload, v: Variant, seed: u64, k: usize) -> (Partial, usize) {
    let res = paper_resilience(w.nodes);
    let mut reports = 0;
    let mut progress = |_: usize, _: usize| {
        reports += 1;
        if reports == k {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let budget = Budget::for_jobs(w.jobs.len());
    let r = Readings::default();
    let end = simulate_read_reporting(w, &res, failures(seed, w), v, r, budget, &mut progress);
    match end.unwrap() {
        Ending::Stopped(p) => (p, reports),
        Ending::Complete(_) => panic!("seed {seed} {v}: ended before report {k}"),
    }
}

/// The attempts and holds of workload job `j` in `run`, numbered `as_job`.
fn of_job(run: &Run, j: usize, as_job: usize) -> (Vec<AttemptRecord>, Vec<HoldRecord>) {
    let a = run
        .attempts
        .iter()
        .filter(|a| a.job == j)
        .map(|a| AttemptRecord {
            job: as_job,
            ..a.clone()
        })
        .collect();
    let h = run
        .holds
        .iter()
        .filter(|h| h.job == j)
        .map(|h| HoldRecord {
            job: as_job,
            ..h.clone()
        })
        .collect();
    (a, h)
}

#[test]
fn a_stopped_run_is_the_whole_run_up_to_the_instant_reached() {
    let variants = [Variant::Baseline, Variant::SFSJ, "H213".parse().unwrap()];
    for seed in [1u64, 7] {
        let w = workload(seed);
        let res = paper_resilience(w.nodes);
        for v in variants {
            let full = simulate_read(&w, &res, failures(seed, &w), v, Readings::default())
                .unwrap_or_else(|e| panic!("seed {seed} {v}: {e}"));
            let mut last_completed = 0;
            for k in [1usize, 2, 3] {
                let ctx = format!("seed {seed} {v} stopped at report {k}");
                let (p, reports) = stopped_after(&w, v, seed, k);
                assert_eq!(reports, k, "{ctx}");
                // Each report comes PROGRESS_EVERY events (or a few failures more) after the last.
                assert!(
                    p.run.stats.events >= k as u64 * PROGRESS_EVERY,
                    "{ctx}: {}",
                    p.run.stats.events
                );
                // The completed jobs are exactly those whose whole-run completion is reached.
                let want: Vec<usize> = (0..w.jobs.len())
                    .filter(|&j| full.completion[j] <= p.reached)
                    .collect();
                assert_eq!(p.completed, want, "{ctx}: reached {}", p.reached);
                assert!(
                    !p.completed.is_empty() && p.completed.len() < w.jobs.len(),
                    "{ctx}"
                );
                assert!(p.completed.len() >= last_completed, "{ctx}");
                last_completed = p.completed.len();
                let released = w.jobs.iter().filter(|j| j.release <= p.reached).count();
                assert_eq!(p.unreleased, w.jobs.len() - released, "{ctx}");
                assert_eq!(p.unfinished, released - p.completed.len(), "{ctx}");
                for (i, &j) in p.completed.iter().enumerate() {
                    assert_eq!(p.run.completion[i], full.completion[j], "{ctx}: job {j}");
                    assert_eq!(p.run.jobs[i], full.jobs[j], "{ctx}: job {j}");
                    assert_eq!(of_job(&p.run, i, i), of_job(&full, j, i), "{ctx}: job {j}");
                }
                let n_att: usize = p
                    .completed
                    .iter()
                    .map(|&j| of_job(&full, j, j).0.len())
                    .sum();
                assert_eq!(p.run.attempts.len(), n_att, "{ctx}");
                // The failures so far are the whole run's first ones.
                let nf = p.run.failures.len();
                assert!(nf <= full.failures.len(), "{ctx}");
                assert_eq!(p.run.failures, full.failures[..nf], "{ctx}");
                assert!(p.run.failures.iter().all(|f| f.time <= p.reached), "{ctx}");
                if let Some(next) = full.failures.get(nf) {
                    assert!(next.time > p.reached, "{ctx}");
                }
                // The partial schedule passes the checker on the completed jobs' workload, and
                // its decomposition over [first submission, reached) is the metrics'.
                let first = w.jobs[0].release.clone();
                let win = (first, p.reached.clone());
                let tot = check(&p.workload(&w), &res, &p.run, Some(win.clone()))
                    .unwrap_or_else(|e| panic!("{ctx}: checker: {e}"));
                let pruning = Pruning {
                    window: Some(win.clone()),
                    ..Pruning::default()
                };
                let m = compute(&p.run, &pruning);
                assert_eq!(m.decomposition.useful, tot.useful, "{ctx}");
                assert_eq!(m.decomposition.idle, tot.idle, "{ctx}");
                assert_eq!(m.decomposition.sum(), m.decomposition.total, "{ctx}");
                assert_eq!(m.all.jobs, p.completed.len(), "{ctx}");
            }
        }
    }
}

#[test]
fn a_callback_that_never_stops_gives_the_whole_run() {
    let w = workload(3);
    let res = paper_resilience(w.nodes);
    let full = simulate_read(
        &w,
        &res,
        failures(3, &w),
        Variant::SFSJ,
        Readings::default(),
    )
    .unwrap();
    let mut reports = 0;
    let mut go_on = |_: usize, _: usize| {
        reports += 1;
        ControlFlow::Continue(())
    };
    let budget = Budget::for_jobs(w.jobs.len());
    let r = Readings::default();
    let end = simulate_read_reporting(
        &w,
        &res,
        failures(3, &w),
        Variant::SFSJ,
        r,
        budget,
        &mut go_on,
    );
    assert_eq!(end.unwrap(), Ending::Complete(full.clone()));
    // A report every PROGRESS_EVERY events, none at the start.
    assert!(reports >= 1 && reports as u64 <= full.stats.events / PROGRESS_EVERY);
}

/// With a report interval (what `resched steal` sets), a report also comes once that much wall
/// clock has passed since the last one — after the first PROGRESS_EVERY events only — so a stop
/// is seen long before the next multiple of PROGRESS_EVERY: the callback below spends 300 ms at
/// its first report (event PROGRESS_EVERY), so the interval of 250 ms has passed at the very
/// next event, where the second report stops the run. Without the interval the second report
/// would come PROGRESS_EVERY events later (the test above).
#[test]
fn a_report_interval_brings_the_next_report_forward() {
    let seed = 1;
    let w = workload(seed);
    let res = paper_resilience(w.nodes);
    let mut reports = 0;
    let mut slow = |_: usize, _: usize| {
        reports += 1;
        if reports == 1 {
            std::thread::sleep(std::time::Duration::from_millis(300));
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let budget =
        Budget::for_jobs(w.jobs.len()).reporting_every(std::time::Duration::from_millis(250));
    let r = Readings::default();
    let v = Variant::SFSJ;
    let end = simulate_read_reporting(&w, &res, failures(seed, &w), v, r, budget, &mut slow);
    let Ok(Ending::Stopped(p)) = end else {
        panic!("seed {seed}: not stopped at the second report");
    };
    assert_eq!(reports, 2, "seed {seed}");
    assert_eq!(p.run.stats.events, PROGRESS_EVERY + 1, "seed {seed}");
    // The clock moved the stop, not the simulation: the completed jobs are the whole run's
    // jobs completed by the instant reached.
    let full = simulate_read(&w, &res, failures(seed, &w), v, Readings::default()).unwrap();
    let want: Vec<usize> = (0..w.jobs.len())
        .filter(|&j| full.completion[j] <= p.reached)
        .collect();
    assert_eq!(p.completed, want, "seed {seed}: reached {}", p.reached);
}
