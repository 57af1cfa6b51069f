//! Micro-benchmarks of the exact time type (`src/time.rs`): the operations the moldable
//! experiments spend their time in once values outgrow `i64` (sums of rationals with distinct
//! denominators, comparisons of big values, scaling by processor counts), plus the small-value
//! fast paths that every scheduler uses — and, as the end-to-end case, LPA's allocation
//! (moldable paper, Algorithm 2) and a BATCH-LIST run on the Amdahl model (P = 7500, 50 jobs of
//! the paper's synthetic law, exact times), whose exact r(α, β) comparisons outgrow `i64`.
//!
//! Run: `cargo bench --bench time` (criterion), or `RESCHED_TIME_ONESHOT=1 cargo bench --bench
//! time` to run every workload once without criterion, for callgrind instruction counts (see
//! benches/README.md, "time"):
//! `RESCHED_TIME_ONESHOT=1 valgrind --tool=callgrind --toggle-collect='time::work_*'
//! target/release/deps/time-<hash>`, then `callgrind_annotate --inclusive=yes` per `work_*`.
use criterion::{criterion_group, Criterion};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use resched::engine;
use resched::model::{Instance, Scenario};
use resched::schedulers::moldable::batch::BatchList;
use resched::schedulers::moldable::lpa::lpa;
use resched::schedulers::moldable::Priority;
use resched::workload::synthetic::{MoldModel, MoldableSetSpec};
use resched::Time;
use std::hint::black_box;

/// Fixed inputs, seeded: every run does the same work.
struct Inputs {
    /// 400 small rationals with distinct denominators (the sum promotes itself to big).
    distinct: Vec<Time>,
    /// 256 small rationals with denominators near 2^31 (pairwise sums overflow i64 and most
    /// reduce back to i64 rarely: the i128 path).
    wide: Vec<Time>,
    /// 256 small rationals with decimal denominators (10^2..10^6: sums stay small).
    decimal: Vec<Time>,
    /// 64 big values (partial harmonic-like sums) and a close neighbour of each.
    big: Vec<Time>,
    big_near: Vec<Time>,
    /// Processor counts 1..=7500 (the moldable paper's P) sampled.
    counts: Vec<u64>,
    /// Amdahl set (moldable paper, Section 5.1, seed 1, set 0), 50 jobs on P = 7500, and a
    /// scenario where every third job fails once.
    amdahl: (Instance, Scenario),
    /// The same set with times rounded up to 2^−20 s (what the campaigns run by default).
    amdahl_grid: Instance,
}

fn inputs() -> Inputs {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let distinct = (0..400)
        .map(|i| Time::new(rng.random_range(1..1_000_000i64), 1000 + 7 * i).expect("den"))
        .collect();
    let wide = (0..256)
        .map(|_| {
            Time::new(
                rng.random_range(-(1i64 << 40)..(1i64 << 40)),
                rng.random_range((1i64 << 30)..(1i64 << 31)),
            )
            .expect("den")
        })
        .collect();
    let decimal = (0..256)
        .map(|_| {
            Time::new(
                rng.random_range(1..100_000_000i64),
                10i64.pow(rng.random_range(2..=6u32)),
            )
            .expect("den")
        })
        .collect();
    let mut big = Vec::new();
    let mut big_near = Vec::new();
    let mut acc = Time::zero();
    for k in 1..=64i64 {
        acc = &acc + &Time::new(k, 3 * k + 1).expect("den");
        acc = &acc + &Time::new(1, 1_000_003 * k).expect("den");
        let tiny = Time::new(1, i64::MAX - k).expect("den");
        big_near.push(if k % 2 == 0 {
            &acc + &tiny
        } else {
            &acc - &tiny
        });
        big.push(acc.clone());
    }
    let counts = (0..64).map(|_| rng.random_range(1..=7500u64)).collect();
    let spec = MoldableSetSpec {
        jobs: 50,
        procs: 7500,
        model: MoldModel::Amdahl,
        // Exact times (the campaigns' default rounds them to 2^−20 s): the big-rational case.
        grid_bits: None,
    };
    let inst = spec.generate(1, 0).expect("Amdahl set");
    let amdahl_grid = MoldableSetSpec {
        grid_bits: Some(20),
        ..spec
    }
    .generate(1, 0)
    .expect("Amdahl set on the grid");
    let sc = Scenario::new((0..inst.len()).map(|j| u32::from(j % 3 == 0)).collect());
    Inputs {
        distinct,
        wide,
        decimal,
        big,
        big_near,
        counts,
        amdahl: (inst, sc),
        amdahl_grid,
    }
}

#[inline(never)]
fn work_lpa_amdahl(x: &Inputs) -> Time {
    let alloc = lpa(&x.amdahl.0);
    Time::from_int(alloc.iter().map(|&p| i64::from(p)).sum())
}

#[inline(never)]
fn work_lpa_amdahl_grid(x: &Inputs) -> Time {
    let alloc = lpa(&x.amdahl_grid);
    Time::from_int(alloc.iter().map(|&p| i64::from(p)).sum())
}

#[inline(never)]
fn work_batch_amdahl_grid(x: &Inputs) -> Time {
    batch_run(&x.amdahl_grid, &x.amdahl.1)
}

#[inline(never)]
fn work_batch_amdahl(x: &Inputs) -> Time {
    batch_run(&x.amdahl.0, &x.amdahl.1)
}

fn batch_run(inst: &Instance, sc: &Scenario) -> Time {
    let mut s = BatchList::new(
        inst,
        Priority::Lpt,
        resched::schedulers::moldable::Eps::paper(),
    )
    .expect("batch");
    engine::run_makespan(inst, sc, &mut s)
        .expect("run")
        .makespan
}

#[inline(never)]
fn work_sum_distinct(x: &Inputs) -> Time {
    x.distinct.iter().sum()
}

#[inline(never)]
fn work_add_wide(x: &Inputs) -> Time {
    let mut last = Time::zero();
    for a in &x.wide {
        for b in x.wide.iter().take(16) {
            last = a + b;
        }
    }
    last
}

#[inline(never)]
fn work_add_decimal(x: &Inputs) -> Time {
    let mut last = Time::zero();
    for a in &x.decimal {
        for b in x.decimal.iter().take(16) {
            last = a + b;
        }
    }
    last
}

#[inline(never)]
fn work_cmp_small(x: &Inputs) -> usize {
    let mut less = 0;
    for a in &x.wide {
        for b in &x.decimal {
            less += usize::from(a < b);
        }
    }
    less
}

#[inline(never)]
fn work_cmp_big(x: &Inputs) -> usize {
    let mut less = 0;
    for a in &x.big {
        for b in &x.big_near {
            less += usize::from(a < b);
        }
        for b in &x.decimal[..16] {
            less += usize::from(a < b);
        }
    }
    less
}

#[inline(never)]
fn work_mul_div_int_big(x: &Inputs) -> Time {
    let mut last = Time::zero();
    for a in &x.big {
        for &k in &x.counts {
            last = a.mul_int(k);
            last = last.div_int(k + 1).expect("k + 1 > 0");
        }
    }
    last
}

#[inline(never)]
fn work_mul_div_int_small(x: &Inputs) -> Time {
    let mut last = Time::zero();
    for a in &x.decimal {
        for &k in &x.counts {
            last = a.mul_int(k);
            last = last.div_int(k + 1).expect("k + 1 > 0");
        }
    }
    last
}

#[inline(never)]
fn work_mul_big(x: &Inputs) -> Time {
    let mut last = Time::zero();
    for a in &x.big {
        for b in x.big_near.iter().take(16) {
            last = a * b;
        }
    }
    last
}

type Work = (&'static str, fn(&Inputs) -> Time);

fn works() -> Vec<Work> {
    vec![
        ("sum_400_distinct_denominators", work_sum_distinct),
        ("add_small_overflowing_i64_4096", work_add_wide),
        ("add_small_decimal_4096", work_add_decimal),
        ("cmp_small_65536", |x| {
            Time::from_int(work_cmp_small(x) as i64)
        }),
        ("cmp_big_5120", |x| Time::from_int(work_cmp_big(x) as i64)),
        ("mul_div_int_big_4096", work_mul_div_int_big),
        ("mul_div_int_small_16384", work_mul_div_int_small),
        ("mul_big_1024", work_mul_big),
        ("lpa_amdahl_P7500_n50", work_lpa_amdahl),
        ("batch_list_amdahl_P7500_n50", work_batch_amdahl),
        ("lpa_amdahl_grid20_P7500_n50", work_lpa_amdahl_grid),
        ("batch_list_amdahl_grid20_P7500_n50", work_batch_amdahl_grid),
    ]
}

fn bench(c: &mut Criterion) {
    let x = inputs();
    let mut g = c.benchmark_group("time");
    g.sample_size(10);
    for (name, f) in works() {
        g.bench_function(name, |b| b.iter(|| black_box(f(black_box(&x)))));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion's plotters backend needs system fonts this machine may lack.
    config = Criterion::default().without_plots();
    targets = bench
}

fn main() {
    if std::env::var_os("RESCHED_TIME_ONESHOT").is_some() {
        let x = inputs();
        for (name, f) in works() {
            let t0 = std::time::Instant::now();
            let r = f(&x);
            println!("{name}: {:?} ({} ns)", r, t0.elapsed().as_nanos());
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
