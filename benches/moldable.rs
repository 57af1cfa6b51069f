//! Benchmarks of the moldable schedulers at the paper's scale (moldable paper, Section 5.1):
//! P = 7500, n = 500, the mix model (w ∈ U[5000, 4·10^6], p̄ ∈ U[100, 4000], γ = a/10^r with
//! a ∈ U[0, 10], r ∈ {2..7}, c = 3·a·2^r with a ∈ U[1, 2], r ∈ {0..3}), λ = 10^−7.
//!
//! Measured: LPA's allocation of all jobs (Algorithm 2), one MT-ALLOTMENT allocation of the first
//! batch with ε = 0.3 (frontiers included), and full runs of LPA-LIST and BATCH-LIST on one
//! failure scenario. Targets: MT-ALLOTMENT < 1 s, BATCH-LIST < 2 s.
//! Run: `cargo bench --bench moldable`.
use criterion::{criterion_group, criterion_main, Criterion};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use resched::engine;
use resched::model::{Instance, Job, Profile, Scenario, SpeedupModel};
use resched::oracle::{AlgoSpec, Prepared};
use resched::schedulers;
use resched::schedulers::moldable::batch::BatchList;
use resched::schedulers::moldable::lpa::{lpa, lpa_list};
use resched::schedulers::moldable::mt_allotment::MtAllotment;
use resched::schedulers::moldable::Priority;
use resched::workload::sampling::FailureLaw;
use resched::workload::synthetic::{MoldModel, MoldableSetSpec};
use resched::Time;
use std::hint::black_box;

/// The mix-model job set of Section 5.1 (seeded) and a failure scenario drawn from
/// q_j = 1 − e^(−λ w_j) (f64 only to draw the scenario; the instance is exact).
pub fn paper_mix(seed: u64, procs: u32, n: usize) -> (Instance, Scenario) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut jobs = Vec::with_capacity(n);
    let mut failures = Vec::with_capacity(n);
    for j in 0..n {
        let w = rng.random_range(5000..=4_000_000i64);
        let pbar = rng.random_range(100..=4000u32).min(procs);
        let gamma = Time::new(
            rng.random_range(0..=1000i64),
            100 * 10i64.pow(rng.random_range(2..=7u32)),
        )
        .unwrap();
        let c = Time::new(
            (3 * rng.random_range(1000..=2000i64)) << rng.random_range(0..=3u32),
            1000,
        )
        .unwrap();
        let model = SpeedupModel::Mix {
            w: Time::from_int(w),
            gamma,
            pbar,
            c,
        };
        let times = model.table(procs, &format!("jobs[{j}].speedup")).unwrap();
        jobs.push(Job {
            name: format!("J{}", j + 1),
            profile: Profile::Moldable { model, times },
        });
        let q = 1.0 - (-1e-7 * w as f64).exp();
        let mut f = 0;
        while rng.random::<f64>() < q {
            f += 1;
        }
        failures.push(f);
    }
    (Instance::new(procs, jobs).unwrap(), Scenario::new(failures))
}

fn bench(c: &mut Criterion) {
    let (inst, sc) = paper_mix(1, 7500, 500);
    let eps = resched::schedulers::moldable::Eps::paper();
    {
        let mut s = BatchList::new(&inst, Priority::Lpt, eps.clone()).unwrap();
        let run = engine::run(&inst, &sc, &mut s).unwrap();
        let decisions: u32 = s.batches().iter().map(|b| b.allotment.decisions).sum();
        eprintln!(
            "scenario: {} failures, f_max = {}; BATCH-LIST: {} batches, {} decisions D(X), makespan {}",
            sc.total_failures(),
            sc.failures.iter().max().unwrap_or(&0),
            s.batches().len(),
            decisions,
            run.makespan.to_decimal_string(3)
        );
    }
    let mut g = c.benchmark_group("moldable-P7500-n500-mix");
    g.sample_size(10);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let models: Vec<SpeedupModel> = (0..500)
        .map(|_| SpeedupModel::Power {
            w: Time::from_int(rng.random_range(5000..=4_000_000i64)),
            delta: Time::new(rng.random_range(0..=1000i64), 1000).unwrap(),
        })
        .collect();
    g.bench_function("power-tables-500-jobs", |b| {
        b.iter(|| {
            for (j, m) in models.iter().enumerate() {
                black_box(m.table(7500, &format!("jobs[{j}].speedup")).unwrap());
            }
        })
    });
    g.bench_function("mix-instance-build", |b| {
        b.iter(|| black_box(paper_mix(1, 7500, 500)))
    });
    g.bench_function("lpa-allocation", |b| b.iter(|| black_box(lpa(&inst))));
    let chains: Vec<(usize, u32)> = (0..inst.len()).map(|j| (j, 1)).collect();
    g.bench_function("mt-allotment-batch1-eps0.3", |b| {
        b.iter(|| black_box(MtAllotment::new().allot(&inst, &chains, &eps).unwrap()))
    });
    g.bench_function("lpa-list-run", |b| {
        b.iter(|| {
            black_box(
                engine::run_makespan(&inst, &sc, &mut lpa_list(&inst, Priority::Lpt))
                    .unwrap()
                    .makespan,
            )
        })
    });
    g.bench_function("batch-list-run-eps0.3", |b| {
        b.iter(|| {
            let mut s = BatchList::new(&inst, Priority::Lpt, eps.clone()).unwrap();
            black_box(engine::run_makespan(&inst, &sc, &mut s).unwrap().makespan)
        })
    });
    g.finish();
}

/// The campaigns' sets (`workload::synthetic`, Amdahl and power, P = 7500, n = 500, λ = 10^−7,
/// scenario 0 of set 0): one run of each algorithm on the exact tables and on the tables rounded
/// up to 2^−20 s (`SpeedupModel::Rounded`, what `resched experiment` uses by default).
fn campaign(c: &mut Criterion) {
    let mut g = c.benchmark_group("campaign-set-P7500-n500");
    g.sample_size(10);
    for model in [MoldModel::Amdahl, MoldModel::Power] {
        for (tag, spec) in [
            ("exact", MoldableSetSpec::paper(model)),
            ("grid20", MoldableSetSpec::paper(model).on_grid(20)),
        ] {
            let inst = spec.generate(1, 0).unwrap();
            let sc = FailureLaw::moldable_lambda(&inst, 1e-7)
                .unwrap()
                .scenario(1, 0, 0)
                .unwrap();
            for algo in ["lpa-list", "mintime", "batch-list", "batch-list-uniform"] {
                let spec = AlgoSpec {
                    name: algo.into(),
                    priority: Some(schedulers::Priority::Lpt),
                    seed: 1,
                    eps: algo.starts_with("batch").then(|| Time::new(3, 10).unwrap()),
                };
                g.bench_function(format!("{}-{tag}-{algo}", model.label()), |b| {
                    b.iter(|| {
                        // Built inside the loop: batch 1's allotment is cached per scheduler.
                        let mut s = Prepared::new(&spec, &inst).unwrap();
                        black_box(s.makespan(&inst, &sc).unwrap())
                    })
                });
            }
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion's plotters backend needs system fonts this machine may lack.
    config = Criterion::default().without_plots();
    targets = bench, campaign
}
criterion_main!(benches);
