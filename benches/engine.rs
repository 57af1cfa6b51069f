//! Engine benchmarks: GREEDY = R-LIST(m = 0) (rigid paper Algorithm 1,
//! Proposition 2) in exact time.
//!
//! (a) The rigid paper simulator's own sample (`shared/peer/sample_1_0.3` with
//!     `failures_sample_1_0.3`: 100 jobs, P = 10000, 10,000 scenarios, ~1.5 M events), single
//!     threaded and on all cores. Throughput is reported in events (engine instants) per second.
//! (b) GREEDY on synthetic instances of 10^3, 10^4, 10^5 jobs (the paper's synthetic law:
//!     p_j uniform in 50..=2000, t_j uniform in 100..20000 with two decimals, P = 10000; each job
//!     fails 0, 1 or 2 times), to show that the cost per event grows at most logarithmically.
//!
//! `peer_sample_greedy/1_thread_certified` runs every scenario through the oracle's certify path
//! instead (engine with recording, checker, L(f), ratio), as `resched simulate --peer-instance`.
//!
//! Run: `cargo bench --bench engine` (criterion), or `RESCHED_ENGINE_ONESHOT=1 cargo bench
//! --bench engine` for one pass of each workload (for callgrind; see [`oneshot`]). Results and the machine are in benches/README.md ("engine").
use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use resched::engine::{run_makespan, Scheduler};
use resched::model::{Instance, Scenario};
use resched::oracle::{self, AlgoSpec};
use resched::schedulers::Priority;
use resched::workload::peer::{load_failures, PeerInstance};
use resched::Time;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// GREEDY (R-LIST with m = 0) with `priority`, built through the oracle's catalogue (the
/// engine is then run directly: these benchmarks measure the engine, not the checker).
fn peer_greedy(inst: &Instance, priority: Priority) -> Box<dyn Scheduler> {
    oracle::build(&AlgoSpec::new("greedy").with_priority(priority), inst).expect("rigid")
}

/// GREEDY through the oracle's certify path (engine, checker, L(f), ratio), as `resched
/// simulate --peer-instance` runs every scenario.
fn certifier(inst: &Instance, priority: Priority) -> oracle::Prepared {
    oracle::Prepared::new(&AlgoSpec::new("greedy").with_priority(priority), inst).expect("rigid")
}

fn peer_sample(c: &mut Criterion) {
    // `<repo>/../shared` (CI, main checkout) or `../../shared` (a worktree /work/wt/<name>).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(dir) = [root.join("../shared/peer"), root.join("../../shared/peer")]
        .into_iter()
        .find(|d| d.exists())
    else {
        eprintln!("skipping the peer benchmark: ../shared/peer not found");
        return;
    };
    let p = PeerInstance::load(&dir.join("sample_1_0.3")).expect("peer instance");
    let inst = &p.instance;
    let scenarios =
        load_failures(&dir.join("failures_sample_1_0.3"), inst.len(), None).expect("failure file");
    let greedy = || peer_greedy(inst, p.priority.into());
    let events: u64 = scenarios
        .iter()
        .map(|s| {
            run_makespan(inst, s, greedy().as_mut())
                .expect("run")
                .events
        })
        .sum();
    eprintln!(
        "peer sample: {} scenarios, {events} events",
        scenarios.len()
    );
    let mut g = c.benchmark_group("peer_sample_greedy");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(events));
    g.bench_function("1_thread", |b| {
        b.iter(|| {
            let mut s = greedy();
            let mut acc = Time::zero();
            for sc in &scenarios {
                acc = acc.max(run_makespan(inst, sc, s.as_mut()).expect("run").makespan);
            }
            black_box(acc)
        })
    });
    g.bench_function("1_thread_certified", |b| {
        b.iter(|| {
            let mut g = certifier(inst, p.priority.into());
            let mut acc = Time::zero();
            for sc in &scenarios {
                acc = acc.max(g.certify(inst, sc).expect("certified").ratio);
            }
            black_box(acc)
        })
    });
    g.bench_function("all_cores", |b| {
        b.iter(|| {
            let v: Vec<Time> = scenarios
                .par_iter()
                .map_init(greedy, |s, sc| {
                    run_makespan(inst, sc, s.as_mut()).expect("run").makespan
                })
                .collect();
            black_box(v)
        })
    });
    g.finish();
}

/// The paper's synthetic law (Section 5.1), seeded.
pub fn synthetic(n: usize, seed: u64) -> (Instance, Scenario) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let jobs: Vec<(u32, Time)> = (0..n)
        .map(|_| {
            (
                rng.random_range(50..=2000u32),
                Time::new(rng.random_range(10_000..2_000_000i64), 100).expect("den"),
            )
        })
        .collect();
    let f = (0..n).map(|_| rng.random_range(0..=2u32)).collect();
    (
        Instance::rigid(10_000, &jobs).expect("valid"),
        Scenario::new(f),
    )
}

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("greedy_scaling");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for n in [1_000usize, 10_000, 100_000] {
        let (inst, sc) = synthetic(n, 42);
        let greedy = || peer_greedy(&inst, Priority::Lpt);
        let events = run_makespan(&inst, &sc, greedy().as_mut())
            .expect("run")
            .events;
        g.throughput(Throughput::Elements(events));
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| {
                black_box(
                    run_makespan(&inst, &sc, greedy().as_mut())
                        .expect("run")
                        .makespan,
                )
            })
        });
    }
    g.finish();
}

// No plots: criterion's plotters backend needs system fonts that a fresh machine may lack.
criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = peer_sample, scaling
}

/// `RESCHED_ENGINE_ONESHOT=1 cargo bench --bench engine` runs each workload once, without
/// criterion, and prints events and ns/event: a fixed amount of work, so that
/// `valgrind --tool=callgrind` instruction counts per event can be compared across versions and
/// sizes (wall-clock numbers on a loaded machine are too noisy for that).
fn oneshot() {
    let which = std::env::var("RESCHED_ENGINE_ONESHOT").unwrap_or_default();
    let run = |label: &str, inst: &Instance, scs: &[Scenario], prio: Priority| {
        let mut g = peer_greedy(inst, prio);
        let t0 = std::time::Instant::now();
        let mut events = 0u64;
        for sc in scs {
            events += run_makespan(inst, sc, g.as_mut()).expect("run").events;
        }
        let ns = t0.elapsed().as_nanos() as f64;
        println!(
            "{label}: {events} events, {:.0} ns/event",
            ns / events as f64
        );
    };
    if which == "peer" || which == "1" {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        if let Some(dir) = [root.join("../shared/peer"), root.join("../../shared/peer")]
            .into_iter()
            .find(|d| d.exists())
        {
            let p = PeerInstance::load(&dir.join("sample_1_0.3")).expect("peer instance");
            let scs = load_failures(&dir.join("failures_sample_1_0.3"), p.instance.len(), None)
                .expect("failures");
            run("peer sample", &p.instance, &scs, p.priority.into());
        }
    }
    if which == "peer-certified" {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        if let Some(dir) = [root.join("../shared/peer"), root.join("../../shared/peer")]
            .into_iter()
            .find(|d| d.exists())
        {
            let p = PeerInstance::load(&dir.join("sample_1_0.3")).expect("peer instance");
            let scs = load_failures(&dir.join("failures_sample_1_0.3"), p.instance.len(), None)
                .expect("failures");
            let mut g = certifier(&p.instance, p.priority.into());
            let t0 = std::time::Instant::now();
            for sc in &scs {
                black_box(g.certify(&p.instance, sc).expect("certified"));
            }
            println!(
                "peer sample certified: {} scenarios, {:.0} µs/scenario",
                scs.len(),
                t0.elapsed().as_secs_f64() * 1e6 / scs.len() as f64
            );
        }
    }
    for n in [1_000usize, 10_000, 100_000] {
        if which == n.to_string() || which == "1" {
            let (inst, sc) = synthetic(n, 42);
            run(
                &format!("synthetic n={n}"),
                &inst,
                std::slice::from_ref(&sc),
                Priority::Lpt,
            );
        }
    }
}

fn main() {
    if std::env::var_os("RESCHED_ENGINE_ONESHOT").is_some() {
        oneshot();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
