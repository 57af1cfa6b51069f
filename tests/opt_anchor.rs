//! The CP-SAT anchor family of the issue "Exact optimum for small instances" (item 5), generated
//! by `opt::generate::anchor_rigid`: the search proves small sizes optimal here in debug
//! builds, every schedule is checked and meets the bounds. The full size table is
//! `RESCHED_OPT_TABLE=1 cargo bench --bench opt` (see BENCHMARKS.md); the `#[ignore]` test below
//! prints a quick version in the test profile.
use resched::opt::{self, generate, Method, OptConfig};
use resched::{bounds, check};
use std::time::{Duration, Instant};

#[test]
fn anchor_small_sizes_are_proven_optimal() {
    for (a, p) in [(8usize, 4u32), (10, 4), (10, 8), (12, 8)] {
        for seed in 0..5u64 {
            let (inst, sc) = generate::anchor_rigid(a, p, seed);
            let cfg = OptConfig {
                time_limit: Duration::from_secs(60),
                ..OptConfig::with_method(Method::Search)
            };
            let r = opt::solve(&inst, &sc, &cfg).unwrap();
            assert!(
                r.is_optimal(),
                "A={a} P={p} seed={seed}: {}",
                inst.to_json()
            );
            assert_eq!(check::check(&inst, &sc, &r.schedule).unwrap(), r.makespan);
            assert!(r.makespan >= bounds::rigid(&inst, &sc).unwrap().lower);
        }
    }
}

#[test]
#[ignore = "prints a timing table; run with --ignored --nocapture"]
fn anchor_table() {
    let amax: usize = std::env::var("RESCHED_OPT_AMAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let amin: usize = std::env::var("RESCHED_OPT_AMIN")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    for p in [4u32, 8] {
        for a in (amin..=amax).step_by(2) {
            let mut line = format!("P={p} A={a}:");
            for seed in 0..5u64 {
                let (inst, sc) = generate::anchor_rigid(a, p, seed);
                let cfg = OptConfig {
                    time_limit: Duration::from_secs(10),
                    ..OptConfig::with_method(Method::Search)
                };
                let t0 = Instant::now();
                let r = opt::solve(&inst, &sc, &cfg).unwrap();
                line += &format!(
                    " {}{:.2}s/{}n[g{} lb{} m{}]",
                    if r.is_optimal() { "" } else { "!" },
                    t0.elapsed().as_secs_f64(),
                    r.stats.search_nodes,
                    r.stats.greedy,
                    r.stats.root_lower_bound,
                    r.makespan
                );
            }
            println!("{line}");
        }
    }
}
