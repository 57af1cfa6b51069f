//! The readings of R-SHELFFILL (rigid paper Section 4.4, Algorithm 3) side by side: Algorithm 3
//! as written ([`shelf::Shelf`], failed jobs restart on their own processors) and the
//! idle-processor reading ([`Shelf::idle_fill`], the shelf's idle processors take queued
//! failed jobs, or any queued job).
//!
//! Golden cases computed by hand (each step in its comment), then the manual tools behind
//! docs/results/rigid-shelffill.md (`#[ignore]`): the rigid-procs sweep and the Mira days with
//! every reading on the same sets and scenarios as the campaigns.
use resched::bounds;
use resched::engine;
use resched::model::{Instance, Scenario};
use resched::schedulers::shelf::{Pool, Shelf};
use resched::schedulers::Priority;
use resched::workload::sampling::FailureLaw;
use resched::workload::swf::{Oversize, SwfLog};
use resched::workload::synthetic::RigidSetSpec;
use resched::Time;

/// The shelf schedulers compared, with their labels.
const READINGS: [&str; 8] = [
    "Shelf-B",
    "Shelf-NB",
    "Fill-B",
    "Fill-NB",
    "Idle-B",
    "Idle-NB",
    "IdleAny-B",
    "IdleAny-NB",
];

fn keys(inst: &Instance) -> Vec<(u32, Time)> {
    inst.jobs
        .iter()
        .map(|j| {
            let (p, t) = j.as_rigid().expect("rigid instance");
            (p, t.clone())
        })
        .collect()
}

/// The scheduler of `READINGS[k]`.
fn build(k: usize, inst: &Instance, pr: Priority) -> Box<dyn engine::Scheduler> {
    let (keys, p) = (keys(inst), inst.procs);
    let b = k % 2 == 0;
    match k / 2 {
        0 => Box::new(Shelf::new(false, b, &keys, p, pr, 0)),
        1 => Box::new(Shelf::new(true, b, &keys, p, pr, 0)),
        2 => Box::new(Shelf::idle_fill(b, Pool::Failed, &keys, p, pr, 0)),
        _ => Box::new(Shelf::idle_fill(b, Pool::Any, &keys, p, pr, 0)),
    }
}

/// The reading's makespan, its schedule passed by the invariant checker.
fn makespan(k: usize, inst: &Instance, sc: &Scenario, pr: Priority) -> Time {
    let mut s = build(k, inst, pr);
    let run = engine::run(inst, sc, s.as_mut()).unwrap_or_else(|e| panic!("{}: {e}", READINGS[k]));
    let checked = resched::check::check(inst, sc, &run.schedule)
        .unwrap_or_else(|v| panic!("{}: {v}", READINGS[k]));
    assert_eq!(checked, run.makespan, "{}", READINGS[k]);
    run.makespan
}

fn inst(procs: u32, jobs: &[(u32, i64)]) -> Instance {
    let pairs: Vec<(u32, Time)> = jobs.iter().map(|&(p, t)| (p, Time::from_int(t))).collect();
    Instance::rigid(procs, &pairs).unwrap()
}

/// Makespans of the eight readings, in `READINGS` order, with LPT.
fn all(inst: &Instance, failures: &[u32]) -> Vec<i64> {
    let sc = Scenario::new(failures.to_vec());
    (0..READINGS.len())
        .map(|k| {
            let m = makespan(k, inst, &sc, Priority::Lpt);
            assert!(m.is_integer(), "{}: {m}", READINGS[k]);
            m.to_string().parse().unwrap()
        })
        .collect()
}

/// P = 3, LPT order A (p 1, t 4), B (p 2, t 2), C (p 1, t 1); C fails twice; L(f) = 4.
/// Shelf 1 = {A, B} (C needs 1 of 0 free: skipped with b = 1, the break with b = 0), T_1 = 4.
/// R-SHELF, R-SHELFFILL as written and the idle reading: C has not failed yet, so it waits for
/// shelf 2 at 4: {C} ends T_2 = 5 and fails (5 + 1 > 5: no restart), shelf 3 [5, 6) fails,
/// shelf 4 [6, 7): 7. The any-job reading starts C when B ends at 2 (2 processors idle,
/// 2 + 1 ≤ 4): fails at 3, restarts [3, 4) (3 + 1 ≤ 4), fails at 4; shelf 2 = {C} [4, 5): 5.
#[test]
fn fresh_jobs_fill_only_in_the_any_reading() {
    let i = inst(3, &[(1, 4), (2, 2), (1, 1)]);
    assert_eq!(all(&i, &[0, 0, 2]), vec![7, 7, 7, 7, 7, 7, 5, 5]);
}

/// P = 4, jobs Z (p 3, t 4), M1 (p 2, t 3), M2 (p 2, t 1), F (p 1, t 1), LPT order Z, M1, M2, F
/// (ties by index); F fails 4 times; L(f) = max(5, 25/4) = 25/4.
/// b = 1: shelf 1 = {Z, F} (M1, M2 do not fit next to Z), T_1 = 4.
/// - R-SHELF-B: F fails at 1 and waits; shelf 2 at 4 = {M1, M2} (F does not fit), T_2 = 7;
///   then {F} four times: fails at 8, 9, 10, succeeds at 11.
/// - R-SHELFFILL-B as written: F restarts on its processor at 1, 2, 3 (t + 1 ≤ 4) and fails at
///   4 = T_1 (its 4th failure): queued. Shelf 2 = {M1, M2}, T_2 = 7; M2 ends at 5 but F waits
///   for shelf 3: [7, 8): 8.
/// - idle readings, b = 1: shelf 1 as written; at 5 the scan finds F (failed, 1 processor of the
///   2 idle, 5 + 1 ≤ 7) and starts it: done at 6; the shelf ends at 7: 7.
///
/// b = 0: shelf 1 = {Z} (M1 does not fit: the break), shelf 2 at 4 = {M1, M2}, F left out (the
/// break), T_2 = 7; F has never run, so R-SHELF-NB, R-SHELFFILL-NB and the idle reading all
/// run it in shelves of one, [7, 8) … [11, 12): 12. The any-job reading starts F at 5 (M2's
/// processors): fails at 6, restarts [6, 7), fails; shelf 3 [7, 8) fails, shelf 4 [8, 9) fails
/// (its 4th), shelf 5 [9, 10): 10.
#[test]
fn idle_reading_fills_with_a_queued_failed_job() {
    let i = inst(4, &[(3, 4), (2, 3), (2, 1), (1, 1)]);
    let sc = Scenario::new(vec![0, 0, 0, 4]);
    assert_eq!(
        bounds::rigid(&i, &sc).unwrap().lower,
        Time::new(25, 4).unwrap()
    );
    assert_eq!(all(&i, &[0, 0, 0, 4]), vec![11, 12, 8, 12, 7, 12, 7, 10]);
}

/// Mean of `xs`.
fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Per reading: the expected makespan / L(f) of `inst` over `scenarios` scenarios of the q̄ law
/// (the streams of the campaigns: (seed, set, k)).
fn expected_ratios(inst: &Instance, qbar: f64, seed: u64, set: u64, scenarios: u64) -> Vec<f64> {
    let law = FailureLaw::rigid_qbar(inst, qbar).unwrap();
    let n = if qbar == 0.0 { 1 } else { scenarios };
    let mut sums = vec![0.0; READINGS.len()];
    for k in 0..n {
        let sc = law.scenario(seed, set, k).unwrap();
        let lower = bounds::rigid(inst, &sc).unwrap().lower;
        for (r, sum) in sums.iter_mut().enumerate() {
            let m = makespan(r, inst, &sc, Priority::Lpt);
            *sum += (&m / &lower).to_f64();
        }
    }
    sums.iter().map(|s| s / n as f64).collect()
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The rigid-procs sweep (q̄ = 0.3, P = 5000 … 20000) with every reading, LPT: mean over sets of
/// the expected ratio, and each pair's gain over R-SHELF. `SHELF_SEED`, `SHELF_SETS`,
/// `SHELF_SCENARIOS` (default 1, 30, 100, the documented run).
#[test]
#[ignore = "manual tool: docs/results/rigid-shelffill.md"]
fn procs_sweep_every_reading() {
    let (seed, sets, scen) = (
        env("SHELF_SEED", 1),
        env("SHELF_SETS", 30),
        env("SHELF_SCENARIOS", 100),
    );
    let qbar: f64 = std::env::var("SHELF_QBAR")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.3);
    let procs: Vec<u32> = match std::env::var("SHELF_PROCS") {
        Ok(v) => v.split(',').map(|p| p.parse().unwrap()).collect(),
        Err(_) => (0..7).map(|k| 5000 + 2500 * k).collect(),
    };
    println!("seed {seed}, {sets} sets, {scen} scenarios, q̄ = {qbar}, LPT");
    println!("| P | {} |", READINGS.join(" | "));
    for p in procs {
        let per_set: Vec<Vec<f64>> = (0..sets)
            .map(|s| {
                let inst = RigidSetSpec::paper()
                    .with_procs(p)
                    .generate(seed, s)
                    .unwrap();
                expected_ratios(&inst, qbar, seed, s, scen)
            })
            .collect();
        let col = |r: usize| mean(&per_set.iter().map(|v| v[r]).collect::<Vec<_>>());
        let cells: Vec<String> = (0..READINGS.len())
            .map(|r| format!("{:.3}", col(r)))
            .collect();
        let gain = |r: usize, base: usize| {
            let g: Vec<f64> = per_set.iter().map(|v| v[base] / v[r] - 1.0).collect();
            let m = mean(&g);
            let sd =
                (g.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (g.len() as f64 - 1.0)).sqrt();
            format!(
                "{:.1}±{:.1}%",
                100.0 * m,
                100.0 * sd / (g.len() as f64).sqrt()
            )
        };
        println!(
            "| {p} | {} | gain B: fill {} idle {} any {}; NB: fill {} idle {} any {} |",
            cells.join(" | "),
            gain(2, 0),
            gain(4, 0),
            gain(6, 0),
            gain(3, 1),
            gain(5, 1),
            gain(7, 1)
        );
    }
}

/// The rigid-trace days (`SHELF_TRACES`, comma-separated SWF paths; days with ≥ 20 jobs) with
/// every reading, LPT, q̄ ∈ {0, 0.05, 0.1}: mean over days of the expected ratio, per trace.
/// Scenario streams as in `rigid-trace` ((seed, trace·2^20 + day, k)).
#[test]
#[ignore = "manual tool: docs/results/rigid-shelffill.md"]
fn mira_days_every_reading() {
    let traces = std::env::var("SHELF_TRACES").expect("SHELF_TRACES");
    let (seed, scen) = (env("SHELF_SEED", 1), env("SHELF_SCENARIOS", 1000));
    println!("seed {seed}, {scen} scenarios per day, LPT");
    for (ti, path) in traces.split(',').enumerate() {
        let log = SwfLog::load(std::path::Path::new(path)).unwrap();
        let procs = log.platform_procs().unwrap();
        let days = log.split_days(procs, Oversize::Drop).unwrap().days;
        let days: Vec<_> = days
            .into_iter()
            .filter(|d| d.instance.len() >= 20)
            .collect();
        println!("{path}: {} days", days.len());
        println!("| q̄ | {} |", READINGS.join(" | "));
        for qbar in [0.0, 0.05, 0.1] {
            let per_day: Vec<Vec<f64>> = days
                .iter()
                .map(|d| {
                    let set = ((ti as u64) << 20) + d.day as u64;
                    expected_ratios(&d.instance, qbar, seed, set, scen)
                })
                .collect();
            let cells = column_means(&per_day, READINGS.len());
            println!("| {qbar} | {} |", cells.join(" | "));
        }
    }
}

/// The mean over days of each of the first `n` columns, to three decimals (a table row's cells).
fn column_means(per_day: &[Vec<f64>], n: usize) -> Vec<String> {
    (0..n)
        .map(|c| {
            format!(
                "{:.3}",
                mean(&per_day.iter().map(|v| v[c]).collect::<Vec<_>>())
            )
        })
        .collect()
}

/// R-LIST-0 (GREEDY) and the four shelf schedulers as in the catalogue, for the failure-rate
/// readings below.
const FAILURE_ALGOS: [&str; 5] = ["R-List-0", "Shelf-B", "Fill-B", "Shelf-NB", "Fill-NB"];

fn failure_algo(k: usize, inst: &Instance) -> Box<dyn engine::Scheduler> {
    let (keys, p, pr) = (keys(inst), inst.procs, Priority::Lpt);
    match k {
        0 => Box::new(resched::schedulers::rlist::Greedy::new(&keys, p, pr, 0)),
        1 => Box::new(Shelf::new(false, true, &keys, p, pr, 0)),
        2 => Box::new(Shelf::new(true, true, &keys, p, pr, 0)),
        3 => Box::new(Shelf::new(false, false, &keys, p, pr, 0)),
        _ => Box::new(Shelf::new(true, false, &keys, p, pr, 0)),
    }
}

/// Per algorithm of `FAILURE_ALGOS`: the expected makespan / L(f) of `inst` over `scenarios`
/// scenarios of `law` (streams (seed, set, k), as in the campaigns).
fn law_ratios(inst: &Instance, law: &FailureLaw, seed: u64, set: u64, scenarios: u64) -> Vec<f64> {
    let mut sums = vec![0.0; FAILURE_ALGOS.len()];
    for k in 0..scenarios {
        let sc = law.scenario(seed, set, k).unwrap();
        let lower = bounds::rigid(inst, &sc).unwrap().lower;
        for (a, sum) in sums.iter_mut().enumerate() {
            let mut s = failure_algo(a, inst);
            let run = engine::run(inst, &sc, s.as_mut()).unwrap();
            *sum += (&run.makespan / &lower).to_f64();
        }
    }
    sums.iter().map(|s| s / scenarios as f64).collect()
}

fn areas(inst: &Instance) -> Vec<f64> {
    keys(inst)
        .iter()
        .map(|(p, t)| f64::from(*p) * t.to_f64())
        .collect()
}

/// The q̄ law of the rigid paper with λ multiplied by `k`: q_j = 1 − (1 − q̄)^(k·a_j/ā).
fn scaled_law(inst: &Instance, qbar: f64, k: f64) -> FailureLaw {
    let base = FailureLaw::rigid_qbar(inst, qbar).unwrap();
    FailureLaw::from_exposure(k * base.lambda, &areas(inst)).unwrap()
}

/// The authors' sample (`examples/data/peer/sample_1_0.3`, the first 100 of its 10000 failure
/// scenarios) pins the λ rule of their experiments: its header's λ is our
/// λ = −ln(1 − q̄)/ā with q̄ = 0.3 and ā the mean of p_j·length_j in seconds over the set (the
/// detector's `verif` left out), and its failure counts are far likelier under q_j = 1 − e^(−λ a_j)
/// than under that λ doubled or halved, or under a per-job rate on t_j or p_j alone.
#[test]
fn the_authors_failures_follow_our_qbar_law() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data/peer");
    let peer = resched::workload::peer::PeerInstance::load(&dir.join("sample_1_0.3")).unwrap();
    let n = peer.lengths.len();
    let pairs: Vec<(u32, Time)> = (0..n)
        .map(|j| (keys(&peer.instance)[j].0, peer.lengths[j].clone()))
        .collect();
    let inst = Instance::rigid(peer.instance.procs, &pairs).unwrap();
    let ours = FailureLaw::rigid_qbar(&inst, 0.3).unwrap();
    let theirs = peer.lambda.to_f64();
    assert!(
        ((ours.lambda - theirs) / theirs).abs() < 1e-10,
        "λ: ours {} theirs {theirs}",
        ours.lambda
    );
    let scenarios = resched::workload::peer::load_failures(
        &dir.join("failures_sample_1_0.3_first100"),
        n,
        None,
    )
    .unwrap();
    assert_eq!(scenarios.len(), 100);
    // Geometric log-likelihood Σ f_j ln q_j + ln(1 − q_j) of the 100 scenarios.
    let loglik = |law: &FailureLaw| -> f64 {
        scenarios
            .iter()
            .map(|sc| {
                (0..n)
                    .map(|j| f64::from(sc.failures[j]) * law.q[j].ln() + (-law.q[j]).ln_1p())
                    .sum::<f64>()
            })
            .sum()
    };
    let mean = |x: &[f64]| x.iter().sum::<f64>() / x.len() as f64;
    let (t, p): (Vec<f64>, Vec<f64>) = keys(&inst)
        .iter()
        .map(|(p, t)| (t.to_f64(), f64::from(*p)))
        .unzip();
    let rate = -(-0.3f64).ln_1p();
    let others = [
        ("2λ", scaled_law(&inst, 0.3, 2.0)),
        ("λ/2", scaled_law(&inst, 0.3, 0.5)),
        (
            "t only",
            FailureLaw::from_exposure(rate / mean(&t), &t).unwrap(),
        ),
        (
            "p only",
            FailureLaw::from_exposure(rate / mean(&p), &p).unwrap(),
        ),
    ];
    let best = loglik(&ours);
    for (name, law) in &others {
        // A likelihood ratio of e^100: no sampling accident.
        assert!(
            best > loglik(law) + 100.0,
            "{name}: {} vs {best}",
            loglik(law)
        );
    }
    let observed = scenarios.iter().map(|s| s.total_failures()).sum::<u64>() as f64 / 100.0;
    assert!(
        (observed - ours.expected_total()).abs() < 4.0,
        "{observed} vs {}",
        ours.expected_total()
    );
}

/// A reading of the failure rate: the law of a job set.
type LawOf = Box<dyn Fn(&Instance) -> Option<FailureLaw>>;

/// The Mira days (`SHELF_TRACES`, days of ≥ 20 jobs) under the readings of the failure rate:
/// `day` (ours: λ from the day's mean area), `window` (λ from the mean area over the trace's
/// days), `t only` (a rate per job-second, q_j = 1 − (1 − q̄)^(t_j/t̄)), and `fit` (the day's
/// λ times the one factor that gives Table 1's average #failures, 15.2913 and 254.453), then
/// the day's λ times each factor of `SHELF_K` (comma-separated, none by default). Per reading and q̄ ∈ {0.05, 0.1}: mean over days of the expected #failures, then of the
/// expected ratio of `FAILURE_ALGOS`. `SHELF_SCENARIOS` (default 200), `SHELF_SEED` (1).
#[test]
#[ignore = "manual tool: docs/results/rigid-shelffill.md"]
fn mira_days_failure_readings() {
    let traces = std::env::var("SHELF_TRACES").expect("SHELF_TRACES");
    let (seed, scen) = (env("SHELF_SEED", 1), env("SHELF_SCENARIOS", 200));
    let factors: Vec<f64> = std::env::var("SHELF_K")
        .map(|v| v.split(',').map(|k| k.parse().unwrap()).collect())
        .unwrap_or_default();
    println!("seed {seed}, {scen} scenarios per day, LPT");
    for (ti, path) in traces.split(',').enumerate() {
        let log = SwfLog::load(std::path::Path::new(path)).unwrap();
        let procs = log.platform_procs().unwrap();
        let days: Vec<_> = log
            .split_days(procs, Oversize::Drop)
            .unwrap()
            .days
            .into_iter()
            .filter(|d| d.instance.len() >= 20)
            .collect();
        let all: Vec<f64> = days.iter().flat_map(|d| areas(&d.instance)).collect();
        let window_area = mean(&all);
        println!("{path}: {} days", days.len());
        println!("| q̄ | reading | failures | {} |", FAILURE_ALGOS.join(" | "));
        for (qbar, paper) in [(0.05f64, 15.2913), (0.1, 254.453)] {
            let rate = -(-qbar).ln_1p();
            // Σ_j e^(k·λ·a_j) − 1 per day, written out: a large k makes some q_j round to 1.
            let failures = |k: f64| {
                mean(
                    &days
                        .iter()
                        .map(|d| {
                            let a = areas(&d.instance);
                            let lambda = rate / mean(&a);
                            a.iter().map(|x| (k * lambda * x).exp_m1()).sum::<f64>()
                        })
                        .collect::<Vec<_>>(),
                )
            };
            // Bisection on ln k: the expected count grows with k.
            let (mut lo, mut hi) = (0.0f64, 10.0f64);
            for _ in 0..60 {
                let mid = (lo + hi) / 2.0;
                if failures(mid.exp()) < paper {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let fit = lo.exp();
            let mut readings: Vec<(String, LawOf)> = vec![
                (
                    "day".into(),
                    Box::new(move |i: &Instance| FailureLaw::rigid_qbar(i, qbar).ok()),
                ),
                (
                    "window".into(),
                    Box::new(move |i: &Instance| {
                        FailureLaw::from_exposure(rate / window_area, &areas(i)).ok()
                    }),
                ),
                (
                    "t only".into(),
                    Box::new(move |i: &Instance| {
                        let t: Vec<f64> = keys(i).iter().map(|(_, t)| t.to_f64()).collect();
                        FailureLaw::from_exposure(rate / mean(&t), &t).ok()
                    }),
                ),
                (
                    format!("fit ×{fit:.2}"),
                    Box::new(move |i: &Instance| {
                        let a = areas(i);
                        FailureLaw::from_exposure(fit * rate / mean(&a), &a).ok()
                    }),
                ),
            ];
            for &k in &factors {
                readings.push((
                    format!("×{k}"),
                    Box::new(move |i: &Instance| {
                        let a = areas(i);
                        FailureLaw::from_exposure(k * rate / mean(&a), &a).ok()
                    }),
                ));
            }
            for (name, law) in &readings {
                let laws: Option<Vec<FailureLaw>> = days.iter().map(|d| law(&d.instance)).collect();
                let Some(laws) = laws else {
                    println!("| {qbar} | {name} | a job's q_j rounds to 1: not run |");
                    continue;
                };
                let fails = mean(&laws.iter().map(|l| l.expected_total()).collect::<Vec<_>>());
                let worst = laws
                    .iter()
                    .flat_map(|l| (0..l.q.len()).map(|j| l.expected_failures(j)))
                    .fold(0.0f64, f64::max);
                if worst > 1e5 {
                    println!(
                        "| {qbar} | {name} | {fails:.2} | one job expects {worst:.3e}: not run |"
                    );
                    continue;
                }
                let per_day: Vec<Vec<f64>> = days
                    .iter()
                    .zip(&laws)
                    .map(|(d, l)| {
                        let set = ((ti as u64) << 20) + d.day as u64;
                        law_ratios(&d.instance, l, seed, set, scen)
                    })
                    .collect();
                let cells = column_means(&per_day, FAILURE_ALGOS.len());
                println!("| {qbar} | {name} | {fails:.2} | {} |", cells.join(" | "));
            }
        }
    }
}

/// The rigid-procs sets (q̄ = 0.3, LPT) with λ multiplied by each factor of `SHELF_K`
/// (comma-separated, default 1,2): per P, the mean ratio of `FAILURE_ALGOS`, R-SHELFFILL's
/// gain over R-SHELF (± one standard error over the sets) and the mean #failures per scenario.
/// `SHELF_SETS` (30), `SHELF_SCENARIOS` (30), `SHELF_SEED` (1), `SHELF_PROCS`.
#[test]
#[ignore = "manual tool: docs/results/rigid-shelffill.md"]
fn procs_failure_multiplier() {
    let (seed, sets, scen) = (
        env("SHELF_SEED", 1),
        env("SHELF_SETS", 30),
        env("SHELF_SCENARIOS", 30),
    );
    let factors: Vec<f64> = std::env::var("SHELF_K")
        .map(|v| v.split(',').map(|k| k.parse().unwrap()).collect())
        .unwrap_or_else(|_| vec![1.0, 2.0]);
    let procs: Vec<u32> = match std::env::var("SHELF_PROCS") {
        Ok(v) => v.split(',').map(|p| p.parse().unwrap()).collect(),
        Err(_) => vec![5000, 7500, 12500, 15000, 17500, 20000],
    };
    println!("seed {seed}, {sets} sets, {scen} scenarios, q̄ = 0.3 with λ × k, LPT");
    println!(
        "| k | P | failures | {} | gain B | gain NB |",
        FAILURE_ALGOS.join(" | ")
    );
    for &k in &factors {
        for &p in &procs {
            let (mut per_set, mut fails) = (Vec::new(), Vec::new());
            for s in 0..sets {
                let inst = RigidSetSpec::paper()
                    .with_procs(p)
                    .generate(seed, s)
                    .unwrap();
                let law = scaled_law(&inst, 0.3, k);
                fails.push(law.expected_total());
                per_set.push(law_ratios(&inst, &law, seed, s, scen));
            }
            let col = |a: usize| mean(&per_set.iter().map(|v| v[a]).collect::<Vec<_>>());
            let gain = |fill: usize, shelf: usize| {
                let g: Vec<f64> = per_set.iter().map(|v| v[shelf] / v[fill] - 1.0).collect();
                let m = mean(&g);
                let var = g.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (g.len() as f64 - 1.0);
                format!(
                    "{:.1}±{:.1}%",
                    100.0 * m,
                    100.0 * (var / g.len() as f64).sqrt()
                )
            };
            let cells: Vec<String> = (0..FAILURE_ALGOS.len())
                .map(|a| format!("{:.3}", col(a)))
                .collect();
            println!(
                "| {k} | {p} | {:.1} | {} | {} | {} |",
                mean(&fails),
                cells.join(" | "),
                gain(2, 1),
                gain(4, 3)
            );
        }
    }
}
