//! Ratios against the true optimum: on
//! seeded small rigid instances, OPT ≤ the makespan of every heuristic of the registry with every
//! priority; GREEDY ≤ (2 − 1/P)·OPT (rigid paper, Proposition 2) and R-LIST with m ≥ 1 and LJF ≤
//! (3 − 4/(P+1))·OPT (Proposition 1). The worst ratio seen and its instance are printed (run with
//! `cargo test --test opt_vs_heuristics -- --nocapture` to see them).
use resched::model::{Instance, Scenario};
use resched::opt::{self, generate, Method, OptConfig, Status};
use resched::oracle::{self, catalogue, AlgoSpec};
use resched::schedulers::Priority;
use resched::{bounds, check, Time};

fn instances() -> Vec<(u64, Instance, Scenario)> {
    let mut out = Vec::new();
    for seed in 0..120u64 {
        let procs = [2, 3, 4, 5, 8][(seed % 5) as usize];
        let (inst, sc) = if seed % 3 == 0 {
            generate::random_small(2 + (seed % 4) as usize, procs, 2, false, seed)
        } else {
            generate::anchor_rigid(4 + (seed % 9) as usize, procs, seed)
        };
        out.push((seed, inst, sc));
    }
    out
}

struct Worst {
    ratio: Time,
    what: String,
}

impl Worst {
    fn new() -> Worst {
        Worst {
            ratio: Time::zero(),
            what: String::new(),
        }
    }
    fn see(&mut self, r: Time, what: impl FnOnce() -> String) {
        if r > self.ratio {
            self.ratio = r;
            self.what = what();
        }
    }
}

#[test]
fn opt_is_below_every_heuristic_and_within_the_proven_ratios() {
    let mut worst_greedy = Worst::new();
    let mut worst_rlist = Worst::new();
    let mut worst_any = Worst::new();
    let mut runs = 0u64;
    for (seed, inst, sc) in instances() {
        let desc = || {
            format!(
                "seed {seed}: instance {} scenario {}",
                inst.to_json().replace('\n', " "),
                sc.to_json()
            )
        };
        let r = opt::solve(&inst, &sc, &OptConfig::with_method(Method::Search))
            .unwrap_or_else(|e| panic!("{e}; {}", desc()));
        assert_eq!(r.status, Status::Optimal, "{}", desc());
        let opt = r.makespan.clone();
        assert_eq!(check::check(&inst, &sc, &r.schedule).unwrap(), opt);
        assert!(
            opt >= bounds::rigid(&inst, &sc).unwrap().lower,
            "OPT < L(f); {}",
            desc()
        );
        let greedy_bound = bounds::greedy_ratio(inst.procs);
        let rlist_bound = bounds::reservation_ratio(inst.procs);
        let mut algos: Vec<String> = catalogue::evaluated(catalogue::Paper::Rigid)
            .iter()
            .map(|s| s.to_string())
            .collect();
        algos.push("r-list:2".into());
        for algo in &algos {
            for pr in Priority::ALL {
                let spec = AlgoSpec::new(algo.as_str()).with_priority(pr);
                let m = oracle::certify(&spec, &inst, &sc)
                    .unwrap_or_else(|v| panic!("{algo}/{pr:?}: {v}; {}", desc()))
                    .makespan;
                runs += 1;
                assert!(opt <= m, "{algo}/{pr:?} beats OPT: {m} < {opt}; {}", desc());
                let ratio = &m / &opt;
                let label = || format!("{algo}/{pr:?} makespan {m} OPT {opt}; {}", desc());
                worst_any.see(ratio.clone(), label);
                if algo == "greedy" {
                    assert!(
                        ratio <= greedy_bound,
                        "Proposition 2 broken: {ratio} > {greedy_bound}; {}",
                        label()
                    );
                    worst_greedy.see(ratio.clone(), label);
                }
                if pr == Priority::Ljf
                    && (algo == "easy" || algo == "conservative" || algo == "r-list:2")
                {
                    assert!(
                        ratio <= rlist_bound,
                        "Proposition 1 broken: {ratio} > {rlist_bound}; {}",
                        label()
                    );
                    worst_rlist.see(ratio.clone(), label);
                }
            }
        }
    }
    println!("{runs} heuristic runs compared with OPT (see this with --nocapture)");
    for (name, w) in [
        ("GREEDY (any priority)", &worst_greedy),
        ("R-LIST m>=1 + LJF", &worst_rlist),
        ("any heuristic", &worst_any),
    ] {
        println!(
            "worst makespan/OPT for {name}: {} ({}) — {}",
            w.ratio,
            w.ratio.to_decimal_string(4),
            w.what
        );
    }
}
