//! Batch benchmark: the JSON Lines server ([`resched_cli::batch::run`], what `resched batch`
//! runs) on 20,000 small requests, each EASY on the rigid paper's example (4 jobs, P = 4; J2
//! fails 0, 1 or 2 times in turn), with a pool of 1 and of 2 worker threads. Such a request
//! costs little more than its certify, so the bench measures what the batch adds: parsing,
//! the hand-off of chunks to the workers, the response lines and writing them in order.
//! Throughput is in requests per second.
//!
//! The input is built here, line for line the shape of `batch-small.jsonl` in benches/README.md
//! ("engine", the batch paragraph), where the results and the machine are.
//!
//! Run: `cargo bench -p resched-cli --bench batch`.
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use resched_cli::batch::{run, Options};
use std::hint::black_box;
use std::time::Duration;

/// Requests per batch run.
const REQUESTS: usize = 20_000;

/// The rigid paper's example instance as a request's inline instance.
const INSTANCE: &str = r#"{"processors": 4, "jobs": [{"name": "J1", "procs": 2, "time": 3}, {"name": "J2", "procs": 2, "time": 2}, {"name": "J3", "procs": 4, "time": 2}, {"name": "J4", "procs": 1, "time": "3/2"}]}"#;

/// `REQUESTS` lines: request i is EASY with J2 failing i mod 3 times.
fn input() -> String {
    let mut text = String::with_capacity(REQUESTS * 300);
    for i in 0..REQUESTS {
        text.push_str(&format!(
            r#"{{"id": {i}, "instance": {INSTANCE}, "scenario": {{"failures": [0, {}, 0, 0]}}, "algo": "easy"}}"#,
            i % 3
        ));
        text.push('\n');
    }
    text
}

fn batch(c: &mut Criterion) {
    let text = input();
    let opts = Options::default();
    let mut g = c.benchmark_group("batch_small_easy");
    g.throughput(Throughput::Elements(REQUESTS as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        g.bench_with_input(BenchmarkId::new("threads", threads), &threads, |b, _| {
            b.iter(|| {
                let s = run(text.as_bytes(), std::io::sink(), &opts, &pool).expect("batch run");
                assert_eq!((s.requests, s.errors), (REQUESTS, 0));
                black_box(s)
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion's plotters backend needs system fonts this machine may lack.
    config = Criterion::default().without_plots();
    targets = batch
}
criterion_main!(benches);
