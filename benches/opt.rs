//! Benchmarks of the exact optimum.
//!
//! Two modes:
//! - `cargo bench --bench opt`: criterion timings of the exact search (and the ILP on a tiny
//!   model) on fixed instances of the CP-SAT anchor family ([`resched::opt::generate`]).
//! - `RESCHED_OPT_TABLE=1 cargo bench --bench opt`: the size table of benches/README.md — for each
//!   family, P and total attempts A, five seeds solved with a time limit (default 10 s); prints
//!   how many were proven optimal and the median time. Knobs (environment):
//!   `RESCHED_OPT_FAMILY` (rigid|hard|moldable|paper, default rigid; paper = `generate::paper_moldable`, w ≤ 20), `RESCHED_OPT_THREADS` (default 1), `RESCHED_OPT_P` (comma list, default
//!   4,8), `RESCHED_OPT_A` (comma list, default 4,6,...,30), `RESCHED_OPT_METHOD`
//!   (search|ilp, default search), `RESCHED_OPT_LIMIT` (seconds, default 10),
//!   `RESCHED_OPT_SEEDS` (default 5), `RESCHED_OPT_SEED0` (the first seed, default 0: seeds
//!   SEED0..SEED0+SEEDS, so that other draws of the same generator are reproducible),
//!   `RESCHED_OPT_VERBOSE` (set: one line per instance), `RESCHED_OPT_ONLY` (a comma list of
//!   `P/A/seed`: only those instances of the table, e.g. `8/60/4,16/50/102`),
//!   `RESCHED_OPT_DUMP` (a directory: each instance and scenario written there as JSON, for
//!   `resched opt`), `RESCHED_OPT_ILP_CHECK` (seconds: every seed the search does not prove is
//!   handed to the ILP with the search's best schedule as horizon and warm start, so the ILP
//!   answers "is there a schedule below it?" — with `--features highs`, this tells which side
//!   of a gap is wrong).
use criterion::{criterion_group, Criterion};
use resched::model::{Instance, Scenario};
use resched::opt::greedy::{IntAttempt, IntSchedule};
use resched::opt::{self, generate, Method, OptConfig, OptResult};
use std::time::{Duration, Instant};

/// CPU time of the calling thread in seconds (Linux: the scheduler's run time in
/// `/proc/thread-self/schedstat`, nanoseconds), so that a row on a shared machine can be told
/// from the load; `None` elsewhere.
fn thread_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn env_list(name: &str, default: &str) -> Vec<u64> {
    // default: the variable unset means the documented default list
    let text = std::env::var(name).unwrap_or_else(|_| default.to_string());
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            s.trim().parse().unwrap_or_else(|_| {
                // A mistyped knob would otherwise measure another table than the one asked for.
                eprintln!(
                    "{name}: `{}` is not a whole number (a comma list is expected)",
                    s.trim()
                );
                std::process::exit(2)
            })
        })
        .collect()
}

/// The `P/A/seed` triples of a comma list in the environment variable `name` (unset or empty:
/// none); a malformed entry stops the bench with a message naming the variable and the entry.
fn env_triples(name: &str) -> Vec<(u64, u64, u64)> {
    // default: the variable unset means no triple (the whole table)
    let text = std::env::var(name).unwrap_or_default();
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let parts: Vec<Option<u64>> = s.split('/').map(|x| x.trim().parse().ok()).collect();
            match parts[..] {
                [Some(p), Some(a), Some(seed)] => (p, a, seed),
                _ => {
                    // A mistyped instance would otherwise be silently left out of the table.
                    eprintln!("{name}: `{s}` is not P/A/seed (three whole numbers, e.g. 8/60/4)");
                    std::process::exit(2)
                }
            }
        })
        .collect()
}

/// Hands an unproven search result to the ILP: horizon and warm start = the search's best
/// schedule, lower bound = the search's proven bound, `secs` of wall clock. Prints one line:
/// the ILP's proven optimum, or that it stopped too.
fn ilp_check(inst: &Instance, sc: &Scenario, r: &OptResult, secs: u64) -> String {
    let prob = match opt::problem::build(inst, sc) {
        Ok(p) => p,
        Err(e) => return format!("ILP: {e}"),
    };
    let scaled = |t: &resched::Time| prob.ceil_scaled(t);
    let mut attempts = Vec::new();
    for a in &r.schedule.attempts {
        let (Some(start), Some(dur)) = (scaled(&a.start), scaled(&a.duration)) else {
            return "ILP: a time does not scale".into();
        };
        attempts.push(IntAttempt {
            job: a.job,
            attempt: a.attempt,
            procs: a.procs,
            start,
            dur,
        });
    }
    let (Some(makespan), Some(lb)) = (scaled(&r.makespan), scaled(r.lower_bound())) else {
        return "ILP: a time does not scale".into();
    };
    let inc = IntSchedule { attempts, makespan };
    let cfg = OptConfig {
        time_limit: Duration::from_secs(secs),
        ..OptConfig::with_method(Method::Ilp)
    };
    let start = Instant::now();
    match opt::ilp::solve(inst, sc, &prob, &inc, lb, &cfg) {
        Ok(o) if o.optimal => format!(
            "ILP ({}): OPT = {} proven in {:.1} s",
            opt::ilp::backend(),
            o.makespan,
            start.elapsed().as_secs_f64()
        ),
        Ok(o) => format!(
            "ILP ({}): not proven in {secs} s (best {})",
            opt::ilp::backend(),
            o.makespan
        ),
        Err(e) => format!("ILP: {e}"),
    }
}

fn table() {
    let family = std::env::var("RESCHED_OPT_FAMILY").unwrap_or_else(|_| "rigid".into());
    let method: Method = std::env::var("RESCHED_OPT_METHOD")
        .unwrap_or_else(|_| "search".into())
        .parse()
        .unwrap_or(Method::Search);
    let limit = env_list("RESCHED_OPT_LIMIT", "10")
        .first()
        .copied()
        .unwrap_or(10);
    let seeds = env_list("RESCHED_OPT_SEEDS", "5")
        .first()
        .copied()
        .unwrap_or(5);
    let seed0 = env_list("RESCHED_OPT_SEED0", "0")
        .first()
        .copied()
        .unwrap_or(0);
    let threads = env_list("RESCHED_OPT_THREADS", "1")
        .first()
        .copied()
        .unwrap_or(1);
    // Per-instance lines (best, bound, root bound, greedy, start = the improved incumbent, nodes, time) before each row.
    let verbose = std::env::var("RESCHED_OPT_VERBOSE").is_ok();
    // Only these instances, as `P/A/seed` (comma list; unset or empty: all).
    let only = env_triples("RESCHED_OPT_ONLY");
    let mut ran_only = vec![false; only.len()];
    let ilp_secs = env_list("RESCHED_OPT_ILP_CHECK", "").first().copied();
    let a_default: Vec<String> = (4..=30).step_by(2).map(|a: u64| a.to_string()).collect();
    let sizes = env_list("RESCHED_OPT_A", &a_default.join(","));
    println!(
        "family={family} method={method:?} backend={} limit={limit}s seeds={seeds} seed0={seed0} threads={threads}",
        opt::ilp::backend()
    );
    println!("| P | A | proven | median s | max s | max CPU s | median nodes | worst gap |");
    println!("|---|---|---|---|---|---|---|---|");
    for p in env_list("RESCHED_OPT_P", "4,8") {
        for &a in &sizes {
            let mut times = Vec::new();
            let mut nodes = Vec::new();
            // The largest CPU time of the thread over the seeds (the wall time's share of it).
            let mut max_cpu: f64 = 0.0;
            let mut proven = 0;
            // The largest (best − bound)/bound of the unproven seeds (exact, then printed).
            let mut worst_gap: Option<resched::Time> = None;
            for seed in seed0..seed0 + seeds {
                if !only.is_empty() {
                    match only.iter().position(|&t| t == (p, a, seed)) {
                        Some(k) => ran_only[k] = true,
                        None => continue,
                    }
                }
                let (inst, sc) = match family.as_str() {
                    "moldable" => generate::anchor_moldable(a as usize, p as u32, seed),
                    "paper" => match generate::paper_moldable(a as usize, p as u32, 20, seed) {
                        Ok(x) => x,
                        Err(e) => {
                            println!("P={p} A={a} seed={seed}: {e}");
                            continue;
                        }
                    },
                    "hard" => generate::anchor_rigid_hard(a as usize, p as u32, seed),
                    _ => generate::anchor_rigid(a as usize, p as u32, seed),
                };
                let cfg = OptConfig {
                    time_limit: Duration::from_secs(limit),
                    threads: threads as usize,
                    ..OptConfig::with_method(method)
                };
                if let Ok(dir) = std::env::var("RESCHED_OPT_DUMP") {
                    let base = format!("{dir}/{family}-P{p}-A{a}-s{seed}");
                    let sc_json = format!("{{\"failures\": {:?}}}", sc.failures);
                    if std::fs::write(format!("{base}.json"), inst.to_json()).is_err()
                        || std::fs::write(format!("{base}.sc.json"), sc_json).is_err()
                    {
                        println!("cannot write {base}.json");
                    }
                }
                let cpu0 = thread_cpu();
                let start = Instant::now();
                match opt::solve(&inst, &sc, &cfg) {
                    Ok(r) => {
                        let el = start.elapsed().as_secs_f64();
                        // default: no CPU clock (not Linux): the wall time
                        let cpu = thread_cpu().zip(cpu0).map_or(el, |(b, a)| b - a);
                        max_cpu = max_cpu.max(cpu);
                        if verbose {
                            println!(
                                "  P={p} A={a} seed={seed}: best {} bound {} root {} greedy {} start {} optimal {} nodes {} fit nodes {} {el:.3} s (CPU {cpu:.3} s)",
                                r.makespan,
                                r.lower_bound(),
                                r.stats.root_lower_bound,
                                r.stats.greedy,
                                r.stats.incumbent,
                                r.is_optimal(),
                                r.stats.search_nodes,
                                r.stats.fit_nodes
                            );
                        }
                        if let (Some(secs), false) = (ilp_secs, r.is_optimal()) {
                            println!(
                                "  P={p} A={a} seed={seed}: best {} bound {}: {}",
                                r.makespan,
                                r.lower_bound(),
                                ilp_check(&inst, &sc, &r, secs)
                            );
                        }
                        if r.is_optimal() {
                            proven += 1;
                            times.push(el);
                        } else {
                            times.push(f64::INFINITY);
                            if let Some(g) = r.gap() {
                                if worst_gap.as_ref().is_none_or(|w| g > *w) {
                                    worst_gap = Some(g);
                                }
                            }
                        }
                        nodes.push(r.stats.search_nodes);
                    }
                    Err(e) => {
                        println!("P={p} A={a} seed={seed}: {e}");
                        times.push(f64::INFINITY);
                    }
                }
            }
            if times.is_empty() {
                // Every seed of the row was left out by `RESCHED_OPT_ONLY`.
                continue;
            }
            // The row's count out of the instances it ran (all seeds unless some were left out).
            let ran = if only.is_empty() {
                seeds
            } else {
                times.len() as u64
            };
            times.sort_by(f64::total_cmp);
            nodes.sort_unstable();
            let med = times[times.len() / 2];
            let max = times[times.len() - 1];
            let fmt = |x: f64| {
                if x.is_finite() {
                    format!("{x:.3}")
                } else {
                    format!(">{limit}")
                }
            };
            println!(
                "| {p} | {a} | {proven}/{ran} | {} | {} | {max_cpu:.3} | {} | {} |",
                fmt(med),
                fmt(max),
                nodes.get(nodes.len() / 2).copied().unwrap_or(0),
                worst_gap.map_or("-".to_string(), |g| format!(
                    "{g} ({}%)",
                    g.mul_int(100).to_decimal_string(2)
                ))
            );
        }
    }
    for (&(p, a, seed), ran) in only.iter().zip(&ran_only) {
        if !*ran {
            eprintln!("RESCHED_OPT_ONLY: {p}/{a}/{seed} is not in the table (RESCHED_OPT_P, _A, _SEED0, _SEEDS)");
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("opt");
    g.sample_size(10);
    for (a, p) in [(12usize, 4u32), (16, 4), (16, 8), (20, 8)] {
        let (inst, sc) = generate::anchor_rigid(a, p, 0);
        g.bench_function(format!("search_rigid_A{a}_P{p}"), |b| {
            b.iter(|| {
                opt::solve(&inst, &sc, &OptConfig::with_method(Method::Search)).map(|r| r.makespan)
            })
        });
    }
    // The node rate of the search alone on an instance it leaves open (rigid P = 32, A = 50,
    // seed 4): a fixed number of nodes from the greedy schedule, so the same tree whatever
    // the machine, and a speed change that keeps the tree shows here as time alone.
    let (inst, sc) = generate::anchor_rigid(50, 32, 4);
    if let Ok(prob) = opt::problem::build(&inst, &sc) {
        let start = opt::greedy::best(&prob);
        g.bench_function("search_nodes200k_rigid_A50_P32", |b| {
            b.iter(|| {
                let limits = opt::search::Limits {
                    deadline: None,
                    node_limit: Some(200_000),
                    memo_limit: 1 << 22,
                    lower_bound: 0,
                    job_energy: None,
                };
                opt::search::solve(&prob, start.clone(), limits)
                    .best
                    .makespan
            })
        });
    }
    // The node rate of the exact fill alone: the identity's bounded-slack question of rigid
    // P = 8, A = 30, seed 1001 at 71 (infeasible after 7.1 M nodes), and of rigid P = 32,
    // A = 50, seed 4 at 160 (undecided after 2·10^7 nodes; on the wide platform the node bounds
    // have the most rows, F_1..F_16), each cut at a fixed number of nodes, so the same tree
    // whatever the machine.
    for (a, p, seed, horizon) in [(30usize, 8u32, 1001u64, 71i64), (50, 32, 4, 160)] {
        let (inst, sc) = generate::anchor_rigid(a, p, seed);
        let Ok(prob) = opt::problem::build(&inst, &sc) else {
            continue;
        };
        let ids: Vec<i64> = (0..=i64::from(prob.procs)).collect();
        let question =
            opt::exact_fit::ExactFit::rigid_slack(&prob, &ids, i64::from(prob.procs), horizon);
        if let Some(fit) = question {
            g.bench_function(format!("fit_nodes1M_rigid_A{a}_P{p}"), |b| {
                b.iter(|| fit.decide(1_000_000, opt::exact_fit::ROOT_MEMO).1.nodes)
            });
        }
        // The job energy's question there, bounded as the root stage asks it: by the
        // processors' energies and every job energy's (F_1..F_16 of each weighting).
        let ranked = opt::bounds::JobEnergy::ranked(&prob);
        let question = ranked.first().and_then(|je| {
            opt::exact_fit::ExactFit::job_weighted_slack(&prob, &je.weight, je.capacity, horizon)
        });
        if let Some(fit) = question {
            let widths: Vec<i64> = (prob.jobs.iter())
                .map(|j| i64::from(j.options[0].procs))
                .collect();
            let fit = (ranked.iter()).fold(fit.also(&widths, i64::from(prob.procs)), |f, je| {
                f.also(&je.weight, je.capacity)
            });
            g.bench_function(format!("fit_nodes1M_weighted_A{a}_P{p}"), |b| {
                b.iter(|| fit.decide(1_000_000, opt::exact_fit::ROOT_MEMO).1.nodes)
            });
        }
    }
    let (inst, sc) = generate::anchor_moldable(8, 4, 0);
    g.bench_function("search_moldable_A8_P4", |b| {
        b.iter(|| {
            opt::solve(&inst, &sc, &OptConfig::with_method(Method::Search)).map(|r| r.makespan)
        })
    });
    // The moldable paper's models, a size every seed proves quickly.
    if let Ok((inst, sc)) = generate::paper_moldable(8, 4, 20, 0) {
        g.bench_function("search_paper_A8_P4", |b| {
            b.iter(|| {
                opt::solve(&inst, &sc, &OptConfig::with_method(Method::Search)).map(|r| r.makespan)
            })
        });
    }
    let (inst, sc) = generate::anchor_rigid(6, 2, 0);
    g.bench_function(format!("ilp_{}_rigid_A6_P2", opt::ilp::backend()), |b| {
        b.iter(|| opt::solve(&inst, &sc, &OptConfig::with_method(Method::Ilp)).map(|r| r.makespan))
    });
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    if std::env::var("RESCHED_OPT_TABLE").is_ok() {
        table();
    } else {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}
