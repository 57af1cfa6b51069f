//! With the `highs` feature (`cargo test --features highs`): the time-indexed ILP solved by
//! HiGHS agrees with the exact search on anchor-family instances larger than microlp can
//! handle, rigid and moldable; every schedule passes the checker. Without the feature this file
//! compiles to nothing.
#![cfg(feature = "highs")]
use resched::opt::{self, generate, Method, OptConfig, Status};
use resched::{check, opt::ilp};
use std::time::Duration;

#[test]
fn highs_agrees_with_the_search() {
    assert_eq!(ilp::backend(), "highs");
    assert_eq!(OptConfig::default().backend, ilp::Backend::Highs);
    let mut cases = Vec::new();
    for seed in 0..10u64 {
        cases.push(generate::anchor_rigid(
            8 + (seed % 5) as usize,
            [2, 4, 8][(seed % 3) as usize],
            seed,
        ));
    }
    for seed in 0..5u64 {
        cases.push(generate::anchor_moldable(6 + (seed % 3) as usize, 3, seed));
    }
    for (k, (inst, sc)) in cases.iter().enumerate() {
        let desc = || {
            format!(
                "case {k}: {} {}",
                inst.to_json().replace('\n', " "),
                sc.to_json()
            )
        };
        let cfg = OptConfig {
            time_limit: Duration::from_secs(60),
            ..OptConfig::with_method(Method::Both)
        };
        let r = opt::solve(inst, sc, &cfg).unwrap_or_else(|e| panic!("{e}; {}", desc()));
        assert_eq!(r.status, Status::Optimal, "{}", desc());
        let i = opt::solve(
            inst,
            sc,
            &OptConfig {
                time_limit: Duration::from_secs(60),
                ..OptConfig::with_method(Method::Ilp)
            },
        )
        .unwrap_or_else(|e| panic!("{e}; {}", desc()));
        assert_eq!(
            i.status,
            Status::Optimal,
            "HiGHS did not prove optimality; {}",
            desc()
        );
        assert_eq!(i.makespan, r.makespan, "{}", desc());
        assert_eq!(check::check(inst, sc, &i.schedule).unwrap(), i.makespan);
    }
}

#[test]
#[ignore = "prints HiGHS solve times on the anchor family; run with --ignored --nocapture"]
fn highs_anchor_times() {
    for p in [4u32, 8] {
        for a in [8usize, 10, 12, 14, 16] {
            let mut line = format!("P={p} A={a}:");
            for seed in 0..5u64 {
                let (inst, sc) = generate::anchor_rigid(a, p, seed);
                let cfg = OptConfig {
                    time_limit: Duration::from_secs(10),
                    ..OptConfig::with_method(Method::Ilp)
                };
                let t0 = std::time::Instant::now();
                match opt::solve(&inst, &sc, &cfg) {
                    Ok(r) => {
                        line += &format!(
                            " {}{:.2}s",
                            if r.is_optimal() { "" } else { "!" },
                            t0.elapsed().as_secs_f64()
                        )
                    }
                    Err(e) => line += &format!(" [{e}]"),
                }
            }
            println!("{line}");
        }
    }
}
