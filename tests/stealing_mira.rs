//! One 10-day Mira window (`../shared/traces/`, 49,152 nodes) with platform MTBF 1 h, D = 1 h,
//! C = R = 5 min, under Baseline and SFSJ, through the independent checker; the jobs above 49,000
//! nodes are reduced as in Section 5.2. Skipped (with a message) when the trace is absent.
use resched::stealing::check::check;
use resched::stealing::metrics::{compute, Pruning};
use resched::stealing::{simulate, trace, FailureSource, Resilience, Variant};
use resched::Time;

#[test]
fn mira_window_passes_the_checker() {
    let found = crate::support::shared("traces/Mira-2018-03-16-10days.swf.gz");
    let path = found.as_path();
    if !path.exists() {
        eprintln!("skipping: {} not found", path.display());
        return;
    }
    let (w, conv) = trace::load(
        path,
        trace::Sizing {
            max_job_nodes: Some(49_000),
            ..trace::Sizing::default()
        },
    )
    .unwrap();
    assert_eq!(w.nodes, 49_152);
    assert!(w.jobs.len() > 1000, "{} jobs", w.jobs.len());
    let res = Resilience {
        downtime: Time::from_int(3600),
        checkpoint: Time::from_int(300),
        recovery: Time::from_int(300),
        mtbf_ind: Some(Time::from_int(3600 * 49_152)),
    };
    let mut util = Vec::new();
    for v in [Variant::Baseline, Variant::SFSJ] {
        let fs = FailureSource::poisson(1, &Time::from_int(3600), w.nodes).unwrap();
        let run = simulate(&w, &res, fs, v).unwrap();
        let tot = check(&w, &res, &run, None).unwrap_or_else(|e| panic!("{v}: {e}"));
        let m = compute(
            &run,
            &Pruning {
                drop_first_pct: 20,
                drop_last_pct: 20,
                window: None,
            },
        );
        assert_eq!(m.decomposition.idle, tot.idle);
        assert_eq!(m.decomposition.useful, tot.useful);
        // Failures did strike jobs; checkpoints were taken (big jobs have periods of minutes).
        assert!(run.stats.on_jobs > 50, "{v}: {:?}", run.stats);
        assert!(tot.checkpoint.is_positive() && tot.lost.is_positive());
        util.push(m.decomposition.utilization());
        eprintln!(
            "{v}: {:?}, {} runs cut to walltime",
            run.stats, conv.cut_to_walltime
        );
    }
    assert!(util.iter().all(|u| u.is_positive() && *u < Time::one()));
}
