//! The search's randomized restarts at the root bound (`opt::search`, "Restarts at the
//! bound"): on an anchor instance where the deterministic depth-first search misses a
//! schedule that meets the bound (CP-SAT found one; the search without restarts left it open
//! for 10 s), a node budget that leaves the restarts 800,000 nodes finds it. Node limits
//! only, no clock: the same answer on every machine.
use crate::support::checked;
use resched::opt::{generate, greedy, problem, search};
use resched::Time;

fn limits(nodes: u64, lower_bound: i64) -> search::Limits {
    search::Limits {
        deadline: None,
        node_limit: Some(nodes),
        memo_limit: 1 << 20,
        lower_bound,
        job_energy: None,
    }
}

#[test]
fn a_node_budget_with_restarts_meets_the_root_bound() {
    // The root bound of `opt::solve` is the optimum here; searched from the greedy schedule
    // (125), without `opt::solve`'s local search (122).
    let (p, a, seed, opt) = (16u32, 50usize, 7003u64, 121i64);
    let (inst, sc) = generate::anchor_rigid(a, p, seed);
    let prob = problem::build(&inst, &sc).unwrap();
    let out = search::solve(&prob, greedy::best(&prob), limits(2_000_000, opt));
    let ctx = format!("P = {p}, A = {a}, seed {seed}");
    assert!(
        out.optimal,
        "{ctx}: {} / {}",
        out.best.makespan, out.lower_bound
    );
    assert_eq!(out.best.makespan as i64, opt, "{ctx}");
    // The anchor family's times are integers: the model's scale is 1.
    let made = checked(&inst, &sc, &out.best);
    assert_eq!(made, Time::from_int(opt), "{ctx}");
}
