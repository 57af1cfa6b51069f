//! Criterion benchmark of the node-stealing simulator (issue "Node stealing", item 8): one
//! 10-day Mira window of `../shared/traces/` (49,152 nodes, platform MTBF 1 h, D = 1 h,
//! C = R = 5 min, jobs above 49,000 nodes reduced as in Section 5.2), Baseline and SFSJ,
//! failures from seed 1; and Table 6's synthetic workload (128 nodes, 1000 jobs, Section 6.3).
//! Target: < 10 s per simulated variant on the Mira window (release build).
use criterion::{criterion_group, criterion_main, Criterion};
use resched::stealing::synthetic::{paper_resilience, Synthetic};
use resched::stealing::{simulate, trace, FailureSource, Resilience, Variant};
use resched::Time;
use std::path::Path;
use std::time::Duration;

/// Section 5.2's Mira conversion: jobs above 49,000 nodes reduced to 49,000.
fn mira_sizing() -> trace::Sizing {
    trace::Sizing {
        max_job_nodes: Some(49_000),
        ..trace::Sizing::default()
    }
}

fn mira(c: &mut Criterion) {
    // `<repo>/../shared` (CI, the main checkout) or `../../shared` (a worktree /work/wt/<name>).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        root.join("../shared/traces/Mira-2018-03-02-10days.swf.gz"),
        root.join("../../shared/traces/Mira-2018-03-02-10days.swf.gz"),
    ];
    let found = candidates
        .iter()
        .find(|p| p.exists())
        .unwrap_or(&candidates[0])
        .clone();
    let path = found.as_path();
    let Ok((w, _)) = trace::load(path, mira_sizing()) else {
        eprintln!("skipping: {} not found", path.display());
        return;
    };
    let res = Resilience {
        downtime: Time::from_int(3600),
        checkpoint: Time::from_int(300),
        recovery: Time::from_int(300),
        mtbf_ind: Some(Time::from_int(3600).mul_int(u64::from(w.nodes))),
    };
    let mut g = c.benchmark_group("stealing_mira_10days");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for v in [Variant::Baseline, Variant::SFSJ, "H311".parse().unwrap()] {
        g.bench_function(v.to_string(), |b| {
            b.iter(|| {
                let fs = FailureSource::poisson(1, &Time::from_int(3600), w.nodes).unwrap();
                simulate(&w, &res, fs, v).unwrap()
            })
        });
    }
    g.finish();
}

fn synthetic(c: &mut Criterion) {
    let w = Synthetic::paper(1)
        .generate()
        .expect("Table 6 is within the limits");
    let res = paper_resilience(w.nodes);
    let mut g = c.benchmark_group("stealing_synthetic_table6");
    g.sample_size(10);
    for v in [Variant::Baseline, Variant::SFSJ] {
        g.bench_function(v.to_string(), |b| {
            b.iter(|| {
                let fs = FailureSource::poisson(1, &Time::from_int(1800), w.nodes).unwrap();
                simulate(&w, &res, fs, v).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion's plotters backend needs system fonts this machine may lack.
    config = Criterion::default().without_plots();
    targets = mira, synthetic
}
criterion_main!(benches);
