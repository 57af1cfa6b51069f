//! The two-thread portfolio of the exact search (`resched opt --threads 2`,
//! `opt::search::solve_parallel`): it proves the same optimum as one thread, and a stopped
//! portfolio reports a proven bound at least the root bound (raised by its destructive thread,
//! shared with the others) with the exact gap (best − bound)/bound.
use resched::model::{Instance, Scenario};
use resched::opt::{self, generate, OptConfig};
use resched::{check, Time};
use std::time::Duration;

fn run(inst: &Instance, sc: &Scenario, threads: usize, nodes: Option<u64>) -> opt::OptResult {
    let cfg = OptConfig {
        threads,
        node_limit: nodes,
        time_limit: Duration::from_secs(60),
        ..OptConfig::default()
    };
    let r = opt::solve(inst, sc, &cfg).unwrap();
    assert_eq!(check::check(inst, sc, &r.schedule).unwrap(), r.makespan);
    r
}

/// Instances the search proves in well under a second, with OPT above the root bound (so the
/// search, not the root, decides): seeded paper-model moldable instances (A = 12, P = 4), with
/// their optima as proven by one thread (exact values). No rigid anchor of these sizes is
/// left to the search: the root stage's bounded-slack question of the identity decides every
/// one of seeds 0–399 at A = 16, P = 8, 0–9 at A = 20, P = 8, and 0–59 at A = 20, P = 16 (the
/// two-thread agreement on rigid anchors is `opt_packing`'s).
fn cases() -> Vec<(String, Instance, Scenario, Time)> {
    let q = |n, d| Time::new(n, d).unwrap();
    let mut v = Vec::new();
    // Seed 0 (731/12) left: the exact chain areas and the area budget prove it at the root.
    for (seed, opt) in [(2u64, q(115, 4)), (5, q(197, 8)), (8, q(51, 2))] {
        let (inst, sc) = generate::paper_moldable(12, 4, 20, seed).unwrap();
        v.push((format!("paper A=12 P=4 seed {seed}"), inst, sc, opt));
    }
    v
}

#[test]
fn one_and_two_threads_prove_the_same_optimum() {
    for (name, inst, sc, opt) in cases() {
        let one = run(&inst, &sc, 1, None);
        let two = run(&inst, &sc, 2, None);
        assert!(one.is_optimal() && two.is_optimal(), "{name}");
        assert_eq!(one.makespan, opt, "{name}");
        assert_eq!(two.makespan, opt, "{name}");
        assert!(
            one.stats.root_lower_bound < opt,
            "{name}: the root decides, not the search"
        );
    }
}

/// A node limit stops each thread after 5,000 nodes: the bound reported is proven (≤ OPT),
/// at least the root bound, the gap is exact, and on at least two instances the portfolio has
/// raised it above the root bound within the limit (to OPT, when the run is proven: the job
/// energy leaves most of these roots one unit below OPT, so a raised bound closes the gap).
#[test]
fn a_stopped_portfolio_reports_a_raised_bound_and_the_exact_gap() {
    let mut raised = 0;
    for (name, inst, sc, opt) in cases() {
        let r = run(&inst, &sc, 2, Some(5_000));
        let lb = r.lower_bound().clone();
        assert!(
            lb >= r.stats.root_lower_bound,
            "{name}: bound {lb} below the root"
        );
        assert!(lb <= opt, "{name}: bound {lb} above OPT {opt}");
        assert!(r.makespan >= opt, "{name}");
        // Every case has its root bound below OPT, so a proven optimum raised the bound too.
        raised += usize::from(lb > r.stats.root_lower_bound);
        if r.is_optimal() {
            assert_eq!(r.makespan, opt, "{name}");
            continue;
        }
        let gap = (&r.makespan - &lb).checked_div(&lb).unwrap();
        assert_eq!(r.gap(), Some(gap), "{name}");
    }
    assert!(
        raised >= 2,
        "the shared bound rose above the root on only {raised} instances"
    );
}

/// Thread 0 of the portfolio runs the destructive tests in the single-thread main order (widest
/// first on rigid instances, longest chain first on moldable ones); the other threads take the
/// remaining orders, so two threads never search in the same order.
#[test]
fn thread_zero_follows_the_main_order() {
    use resched::opt::search::{main_order, Order};
    let (inst, sc) = generate::anchor_rigid(30, 4, 2);
    let rigid = opt::problem::build(&inst, &sc).unwrap();
    let main = main_order(&rigid);
    assert_eq!(main, Order::Widest);
    let orders: Vec<Order> = (0..4).map(|i| Order::of_thread(main, i)).collect();
    assert_eq!(
        orders,
        [
            Order::Widest,
            Order::LongestChain,
            Order::LargestArea,
            Order::LongestChain
        ]
    );
    let orders: Vec<Order> = (0..3)
        .map(|i| Order::of_thread(Order::LongestChain, i))
        .collect();
    assert_eq!(
        orders,
        [Order::LongestChain, Order::Widest, Order::LargestArea]
    );
}
