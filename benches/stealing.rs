//! Criterion benchmark of the node-stealing simulator: one
//! 10-day Mira window of `examples/data/traces/` (49,152 nodes, platform MTBF 1 h, D = 1 h,
//! C = R = 5 min, jobs above 49,000 nodes reduced as in Section 5.2), Baseline and SFSJ,
//! failures from seed 1; Table 6's synthetic workload (128 nodes, 1000 jobs, Section 6.3); and
//! a platform past its capacity, one-node jobs arriving faster than 60 nodes run them
//! (`saturated`).
//! Target: < 10 s per simulated variant on the Mira window (release build).
//!
//! `archive`: Parallel Workloads Archive logs (targets: every archive trace up to 300,000 jobs
//! in < 30 s per variant, cost per job within 2x from 10,000 jobs up; RICC-2010-2 whole at the
//! default MTBF and the large logs at `mtbf 1h` in < 30 s each, benches/README.md), Baseline
//! and SFSJ with the `steal` defaults (the paper's node MTBF, μ = μ_ind/N, D = 1 h,
//! C = R = 5 min, seed 1; cases named `default`) and with a platform MTBF of 1 h on any
//! machine (`steal --mtbf 1h`, which saturates small machines;
//! cases named `mtbf 1h`): the first 2,000 jobs of KTH-SP2 and NASA-iPSC (always present in
//! `../shared/traces`), and, when `RESCHED_ARCHIVE` names more SWF files (colon-separated),
//! those whole. The long runs are meant for `--bench stealing -- archive` with a small sample
//! count.
//!
//! `profile_search`: the earliest-fit search alone, on a plan holding a backlog (8,192 nodes,
//! 3,000 reservations over 20 days, as RICC-2010-2's conservative-backfilling plan does), for
//! 1,000 queued jobs of random size and walltime: the search that the block index serves.
use criterion::{criterion_group, criterion_main, Criterion};
use rand::{RngExt, SeedableRng};
use resched::stealing::plan::Profile;
use resched::stealing::synthetic::{paper_resilience, Synthetic};
use resched::stealing::{simulate, trace, BatchJob, FailureSource, Resilience, Variant, Workload};
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
    // The window shipped in the repository (examples/data/traces).
    let found = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data/traces/Mira-2018-03-02-10days.swf.gz");
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

/// A platform past its capacity, as an archive log given too small a machine
/// (METACENTRUM-2009-2 on the 60 nodes of its largest job, offered load 4.99): 20,000
/// one-node jobs with walltimes equal to their run times (that log has none) submitted every
/// 10 s on 60 nodes, an offered load of 3.3, so the queue grows to thousands of jobs and
/// almost every event starts one. It measures the cost of an event on a long queue, where
/// the plan does little else (no completion is early, so nothing moves):
/// `stealing::sim::due`.
fn saturated(c: &mut Criterion) {
    let jobs: Vec<BatchJob> = (0..20_000i64)
        .map(|k| {
            let run = Time::from_int(1000 + (k * 7919) % 2000);
            BatchJob {
                name: format!("J{k}"),
                release: Time::from_int(10 * k),
                nodes: 1,
                walltime: run.clone(),
                run,
            }
        })
        .collect();
    let w = Workload::new(60, jobs, "saturated").expect("within the limits");
    let res = Resilience::trace_defaults();
    let mtbf = res
        .mtbf_ind
        .as_ref()
        .and_then(|m| m.div_int(60))
        .expect("the paper's node MTBF over 60 nodes");
    let res = at_platform_mtbf(&mtbf, w.nodes);
    let mut g = c.benchmark_group("stealing_saturated");
    g.sample_size(10);
    for v in [Variant::Baseline, Variant::SFSJ] {
        g.bench_function(format!("20000 one-node jobs on 60 nodes, {v}"), |b| {
            b.iter(|| {
                let fs = FailureSource::poisson(1, &mtbf, w.nodes).unwrap();
                simulate(&w, &res, fs, v).unwrap()
            })
        });
    }
    g.finish();
}

/// The `steal` defaults with platform MTBF `mtbf` on `nodes` nodes (`steal --mtbf`): each
/// node fails with MTBF `mtbf`·`nodes`, which the Young/Daly period reads.
fn at_platform_mtbf(mtbf: &Time, nodes: u32) -> Resilience {
    Resilience {
        mtbf_ind: Some(mtbf.mul_int(u64::from(nodes))),
        ..Resilience::trace_defaults()
    }
}

fn archive(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases: Vec<(String, std::path::PathBuf, Option<usize>)> = Vec::new();
    for name in [
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "NASA-iPSC-1993-3.1-cln.swf.gz",
    ] {
        let found = [
            root.join("../shared/traces"),
            root.join("../../shared/traces"),
        ]
        .into_iter()
        .map(|d| d.join(name))
        .find(|p| p.exists());
        match found {
            Some(p) => cases.push((format!("{name}[..2000]"), p, Some(2000))),
            None => eprintln!("skipping: ../shared/traces/{name} not found"),
        }
    }
    // default: no extra trace when RESCHED_ARCHIVE is unset
    for f in std::env::var("RESCHED_ARCHIVE")
        .unwrap_or_default()
        .split(':')
    {
        let p = std::path::PathBuf::from(f);
        if f.is_empty() {
            continue;
        }
        if !p.exists() {
            eprintln!("skipping: {f} not found");
            continue;
        }
        cases.push((f.to_string(), p, None));
    }
    let mut g = c.benchmark_group("stealing_archive");
    g.sample_size(10);
    for (name, path, cut) in cases {
        let Ok((mut w, conv)) = trace::load(&path, trace::Sizing::default()) else {
            eprintln!("skipping: {name} does not load");
            continue;
        };
        if let Some(n) = cut {
            w.jobs.truncate(n);
        }
        // The `steal` default: the paper's node MTBF over the nodes failures strike.
        let paper = Resilience::trace_defaults().mtbf_ind;
        let default = paper.and_then(|m| m.div_int(u64::from(conv.failing_nodes)));
        for (regime, mtbf) in [
            ("default", default),
            ("mtbf 1h", Some(Time::from_int(3600))),
        ] {
            // unreachable: the paper's node MTBF is positive and the machine has nodes
            let Some(mtbf) = mtbf else {
                continue;
            };
            let res = at_platform_mtbf(&mtbf, w.nodes);
            for v in [Variant::Baseline, Variant::SFSJ] {
                let id = format!("{name} ({} jobs) {regime} {v}", w.jobs.len());
                g.bench_function(id, |b| {
                    b.iter(|| {
                        let fs = FailureSource::poisson(1, &mtbf, w.nodes).unwrap();
                        simulate(&w, &res, fs, v).unwrap()
                    })
                });
            }
        }
    }
    g.finish();
}

/// A backlogged plan and the queued jobs searched on it (see the module doc), from seed 1.
fn backlog() -> (Profile, Vec<(u32, Time)>) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let nodes = 8192u32;
    let mut prof = Profile::new(&Time::zero(), nodes, &[]);
    for _ in 0..3000 {
        let p = 1u32 << rng.random_range(0..11u32);
        let len = Time::from_int(rng.random_range(60..259_200i64));
        let from = Time::from_int(rng.random_range(0..1_728_000i64));
        let s = prof.earliest(p, &len, &from);
        prof.reserve(&s, &len, p);
    }
    let jobs = (0..1000)
        .map(|_| {
            let p = 1u32 << rng.random_range(0..13u32);
            (p, Time::from_int(rng.random_range(60..259_200i64)))
        })
        .collect();
    (prof, jobs)
}

fn profile_search(c: &mut Criterion) {
    let (mut prof, jobs) = backlog();
    let now = Time::zero();
    let mut g = c.benchmark_group("stealing_profile_search");
    g.bench_function("1000 earliest starts on 3000 reservations", |b| {
        b.iter(|| {
            jobs.iter()
                .map(|(p, len)| prof.earliest(*p, len, &now))
                .max()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion's plotters backend needs system fonts this machine may lack.
    config = Criterion::default().without_plots();
    targets = mira, synthetic, saturated, archive, profile_search
}
criterion_main!(benches);
