//! Batsched's conservative backfilling rule (`Compression::Completions`, the default) and the
//! rule resched ran before it (`Compression::CompletionsAndArrivals`) pinned against an
//! independent implementation of each ([`reference`], which shares no code with
//! `src/stealing`), on archive-log slices with no failures: every job's start time must be the
//! reference's, and the run must pass the independent checker. The slices shipped in
//! `examples/data` run everywhere; the busiest windows of the logs of `../shared/traces` run
//! where they are (a missing log is reported and skipped). The count of starts that differ
//! between the two rules on each is pinned.
//!
//! With failures the two rules only differ between failures (every failure, node return and
//! steal recomputes the whole plan in both): the variants are run under both rules through
//! the checker.
mod reference;

use resched::stealing::check::check;
use resched::stealing::{
    simulate_read, trace, BatchJob, Compression, FailureSource, NodeReturns, Readings, Resilience,
    Variant, Workload,
};
use resched::Time;
use std::path::Path;

fn secs(t: &Time) -> i64 {
    assert!(t.is_integer(), "{t} is not a whole second");
    t.to_string().parse().unwrap()
}

fn no_failures() -> Resilience {
    Resilience {
        downtime: Time::zero(),
        checkpoint: Time::zero(),
        recovery: Time::zero(),
        mtbf_ind: None,
    }
}

/// The workload as the reference reads it.
fn reference_jobs(w: &Workload) -> Vec<reference::Job> {
    w.jobs
        .iter()
        .map(|j| reference::Job {
            release: secs(&j.release),
            nodes: j.nodes,
            run: secs(&j.run),
            wall: secs(&j.walltime),
        })
        .collect()
}

fn readings(c: Compression) -> Readings {
    Readings {
        compression: c,
        ..Readings::default()
    }
}

/// Baseline's start times with no failures under compression `c`, through the checker.
fn sim_starts(w: &Workload, c: Compression) -> Vec<i64> {
    let res = no_failures();
    let run = simulate_read(w, &res, FailureSource::None, Variant::Baseline, readings(c))
        .unwrap_or_else(|e| panic!("{c}: {e}"));
    check(w, &res, &run, None).unwrap_or_else(|e| panic!("{c}: checker: {e}"));
    assert_eq!(run.attempts.len(), w.jobs.len(), "{c}: one attempt per job");
    let mut s = vec![0; w.jobs.len()];
    for a in &run.attempts {
        s[a.job] = secs(&a.start);
    }
    s
}

/// The jobs `first..first + n` of `w`.
fn slice(w: &Workload, first: usize, n: usize) -> Workload {
    Workload {
        nodes: w.nodes,
        jobs: w.jobs[first..first + n].to_vec(),
    }
}

/// The `n` consecutive jobs (in submission order) of greatest offered load: node-seconds of
/// run time over the platform's node-seconds between the first and the last submission (the
/// whole log when it has no more than `n` jobs).
fn busiest(w: &Workload, n: usize) -> Workload {
    if w.jobs.len() <= n {
        return w.clone();
    }
    let area: Vec<i64> = w
        .jobs
        .iter()
        .map(|j| i64::from(j.nodes) * secs(&j.run))
        .collect();
    let rel: Vec<i64> = w.jobs.iter().map(|j| secs(&j.release)).collect();
    let mut sum: i64 = area[..n].iter().sum();
    let load = |sum: i64, k: usize| sum as f64 / (rel[k + n - 1] - rel[k]).max(1) as f64;
    let (mut best, mut best_load) = (0, load(sum, 0));
    for k in 1..=w.jobs.len() - n {
        sum += area[k + n - 1] - area[k - 1];
        if load(sum, k) > best_load {
            (best, best_load) = (k, load(sum, k));
        }
    }
    slice(w, best, n)
}

/// Both rules on `w` against the reference; returns how many starts differ between the rules.
fn pin_both_rules(name: &str, w: &Workload) -> usize {
    let jobs = reference_jobs(w);
    let mut got = Vec::new();
    for (c, pass_at_arrivals) in [
        (Compression::Completions, false),
        (Compression::CompletionsAndArrivals, true),
    ] {
        let sim = sim_starts(w, c);
        let want = reference::starts(w.nodes, &jobs, pass_at_arrivals);
        let differ: Vec<usize> = (0..jobs.len()).filter(|&j| sim[j] != want[j]).collect();
        if let Some(&j) = differ.first() {
            panic!(
                "{name} {c}: {} of {} starts differ from the reference; first: job {} ({}) \
                 starts at {} in resched, {} in the reference",
                differ.len(),
                jobs.len(),
                j,
                w.jobs[j].name,
                sim[j],
                want[j]
            );
        }
        got.push(sim);
    }
    let waits = got.iter().map(|s| {
        let waited = (0..jobs.len()).filter(|&j| s[j] > jobs[j].release).count();
        let total: i64 = (0..jobs.len()).map(|j| s[j] - jobs[j].release).sum();
        (waited, total as f64 / jobs.len() as f64)
    });
    let waits: Vec<(usize, f64)> = waits.collect();
    eprintln!(
        "{name}: jobs that waited, mean wait (s): {:?} (completions), {:?} (completions-and-arrivals)",
        waits[0], waits[1]
    );
    (0..jobs.len()).filter(|&j| got[0][j] != got[1][j]).count()
}

fn job(name: &str, release: i64, nodes: u32, run: i64, wall: i64) -> BatchJob {
    BatchJob {
        name: name.into(),
        release: Time::from_int(release),
        nodes,
        run: Time::from_int(run),
        walltime: Time::from_int(wall),
    }
}

/// 2 nodes. R (1 node, walltime 100) ends at 10; S (1 node) runs [0, 20); Y (2 nodes, 30)
/// arrives at 1 and is reserved at 100; X (1 node, 50) arrives at 2 and is backfilled at 20.
/// At R's completion (t = 10) the pass first checks Y, which can move only to 70 (X holds a
/// node on [20, 70)), then X, which moves to 10 and starts: Y could now start at 60, X's end.
/// Z (2 nodes, 10) arrives at 15, before the next completion (S at 20):
/// - Batsched's rule inserts Z first-fit into the hole [60, 70); at S's completion Y cannot
///   move (Z holds [60, 70)): Z starts at 60, Y at 70;
/// - a pass at Z's arrival first moves Y to 60, then places Z after it: Y at 60, Z at 90.
#[test]
fn the_two_rules_differ_by_hand() {
    let w = Workload::new(
        2,
        vec![
            job("R", 0, 1, 10, 100),
            job("S", 0, 1, 20, 20),
            job("Y", 1, 2, 30, 30),
            job("X", 2, 1, 50, 50),
            job("Z", 15, 2, 10, 10),
        ],
        "hand",
    )
    .unwrap();
    assert_eq!(
        sim_starts(&w, Compression::Completions),
        vec![0, 0, 70, 10, 60]
    );
    assert_eq!(
        sim_starts(&w, Compression::CompletionsAndArrivals),
        vec![0, 0, 60, 10, 90]
    );
    assert_eq!(pin_both_rules("hand", &w), 2);
}

/// The default readings are the paper's: a run with no readings named is a run under
/// `unforeseen` and `completions`.
#[test]
fn the_default_run_is_batscheds_rule() {
    let w = Workload::new(
        2,
        vec![
            job("R", 0, 1, 10, 100),
            job("S", 0, 1, 20, 20),
            job("Y", 1, 2, 30, 30),
            job("X", 2, 1, 50, 50),
            job("Z", 15, 2, 10, 10),
        ],
        "hand",
    )
    .unwrap();
    let res = no_failures();
    let run =
        resched::stealing::simulate(&w, &res, FailureSource::None, Variant::Baseline).unwrap();
    let starts: Vec<i64> = run.attempts.iter().map(|a| secs(&a.start)).collect();
    let mut by_job = vec![0; 5];
    for (a, s) in run.attempts.iter().zip(starts) {
        by_job[a.job] = s;
    }
    assert_eq!(by_job, vec![0, 0, 70, 10, 60]);
    assert_eq!(
        Readings::default(),
        Readings {
            returns: NodeReturns::Unforeseen,
            compression: Compression::Completions
        }
    );
}

/// The KTH-SP2 slice shipped with the examples (the first 2,000 jobs of the log, 100 nodes).
fn kth_slice() -> Workload {
    let p =
        crate::support::repo().join("examples/data/traces/KTH-SP2-1996-2.1-cln-first2000.swf.gz");
    trace::load(&p, trace::Sizing::default()).unwrap().0
}

/// The logs of `dir`, each cut to its busiest window of `n` jobs, with the starts that differ
/// between the two rules, measured (both rules agree with the reference on every start).
fn windows(dir: &Path, n: usize, expected: &[(&str, usize, usize)]) {
    let mut got = Vec::new();
    for (file, jobs, want) in expected {
        let p = dir.join(file);
        if !p.exists() {
            eprintln!("skipping {file}: {} not found", p.display());
            continue;
        }
        let (w, _) = trace::load(&p, trace::Sizing::default()).unwrap();
        let w = busiest(&w, n);
        let differ = pin_both_rules(file, &w);
        eprintln!(
            "{file}, busiest {} jobs: {differ} starts differ between the rules",
            w.jobs.len()
        );
        got.push((*file, (w.jobs.len(), differ), (*jobs, *want)));
    }
    // Every log is measured before any count is compared, so that a failure shows them all.
    for (file, got, want) in got {
        assert_eq!(got, want, "{file}: (jobs, starts that differ)");
    }
}

/// Runs without `../shared`: the slices of `examples/data/traces` (the two Mira windows are
/// whole: 1,335 and 1,511 jobs).
#[test]
fn repository_slices_match_the_reference_under_both_rules() {
    let dir = crate::support::repo().join("examples/data/traces");
    windows(
        &dir,
        4000,
        &[
            ("KTH-SP2-1996-2.1-cln-first2000.swf.gz", 2000, 0),
            ("Mira-2018-03-02-10days.swf.gz", 1335, 919),
            ("Mira-2018-03-16-10days.swf.gz", 1511, 1104),
        ],
    );
}

/// The busiest 4,000-job window of each log of `../shared/traces` (a log of fewer jobs whole).
/// NASA-iPSC gives no requested time (walltime = run time: no job ends early, so no pass ever
/// moves a job, and the rules agree by construction); on CEA-Curie's busiest window (2,526 jobs
/// wait) they agree as measured.
#[test]
fn busiest_4000_job_windows_of_the_shared_logs_match_the_reference() {
    windows(
        &crate::support::shared("traces"),
        4000,
        &[
            ("KTH-SP2-1996-2.1-cln.swf.gz", 4000, 217),
            ("NASA-iPSC-1993-3.1-cln.swf.gz", 4000, 0),
            ("CEA-Curie-2011-2.1-cln-b2.swf.gz", 4000, 0),
            ("Mira-2018-03-02-10days.swf.gz", 1335, 919),
            ("Mira-2018-03-16-10days.swf.gz", 1511, 1104),
        ],
    );
}

/// With failures, every variant runs through the checker under both rules (the rules differ
/// only between failures, where neither recomputes the plan).
#[test]
fn variants_pass_the_checker_under_both_rules_with_failures() {
    let w = slice(&kth_slice(), 0, 300);
    let res = Resilience {
        downtime: Time::from_int(3600),
        checkpoint: Time::from_int(300),
        recovery: Time::from_int(300),
        mtbf_ind: Some(Time::from_int(100 * 7200)),
    };
    for c in Compression::ALL {
        for returns in NodeReturns::ALL {
            for v in Variant::all() {
                let fs = FailureSource::poisson(3, &Time::from_int(7200), w.nodes).unwrap();
                let r = Readings {
                    returns,
                    compression: c,
                };
                let run =
                    simulate_read(&w, &res, fs, v, r).unwrap_or_else(|e| panic!("{v} {r}: {e}"));
                check(&w, &res, &run, None).unwrap_or_else(|e| panic!("{v} {r}: checker: {e}"));
                assert!(run.stats.on_jobs > 0, "{v} {r}: no failure struck a job");
            }
        }
    }
}
