//! `resched simulate`: runs one algorithm of the registry ([`crate::schedulers`]) on an instance
//! and a failure scenario and prints the exact makespan, the lower bound L(f) of the rigid paper
//! (Section 3.3, Eqs. 5–6) and their ratio; or, in peer mode, runs GREEDY (R-LIST with m = 0,
//! Algorithm 1) over every scenario of the rigid paper's simulator files
//! ([`crate::workload::peer`]), in parallel with a deterministic output order.
//!
//! Every schedule printed has passed [`crate::check::check`]; a schedule that fails it is an
//! internal error (exit 2), never printed as a result.
use super::Exit;
use crate::bounds;
use crate::engine;
use crate::error::{write_atomic, Error, Result};
use crate::model::{Instance, Scenario};
use crate::oracle::{self, AlgoSpec};
use crate::schedulers::{self, Priority};
use crate::time::Time;
use crate::workload::peer::{self, PeerInstance};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `resched simulate`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Algorithms: greedy, easy, conservative, r-list:<m>, r-shelf-b, r-shelf-nb, r-shelffill-b, \
r-shelffill-nb; moldable: lpa-list (alias list), mintime, minarea, batch-list, batch-list-uniform [--eps E].\nPriorities: lpt (default), spt, hpa, lpa, la, sa, random, ljf.\n\
Peer mode: resched simulate --peer-instance sample_1_0.3 --peer-failures failures_sample_1_0.3 [--scenarios N]"
)]
pub struct Args {
    /// Instance file (JSON).
    #[arg(
        long,
        required_unless_present = "peer_instance",
        conflicts_with = "peer_instance"
    )]
    pub instance: Option<PathBuf>,
    /// Failure scenario file (JSON: {"failures": [f_1, ...]}).
    #[arg(
        long,
        required_unless_present = "peer_instance",
        conflicts_with = "peer_instance"
    )]
    pub scenario: Option<PathBuf>,
    /// Algorithm name (see below).
    #[arg(
        long,
        required_unless_present = "peer_instance",
        conflicts_with = "peer_instance"
    )]
    pub algo: Option<String>,
    /// Priority rule (default lpt; in peer mode, the file's rule).
    #[arg(long)]
    pub priority: Option<String>,
    /// Seed of the RANDOM priority.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// ε of BATCH-LIST's MT-ALLOTMENT (exact, e.g. 0.3 or 1/100; must be > 0; default 3/10).
    #[arg(long)]
    pub eps: Option<String>,
    /// Print the whole schedule and the metrics as JSON.
    #[arg(long, conflicts_with = "peer_instance")]
    pub json: bool,
    /// Write an SVG Gantt chart of the schedule to this file.
    #[arg(long, conflicts_with = "peer_instance")]
    pub gantt: Option<PathBuf>,
    /// Also compute the exact optimum T_OPT(f) (`resched opt`'s search, 10 s budget) and print
    /// OPT and makespan/OPT.
    #[arg(long, conflicts_with = "peer_instance")]
    pub vs_opt: bool,
    /// Peer mode: the rigid paper simulator's instance file.
    #[arg(long, requires = "peer_failures")]
    pub peer_instance: Option<PathBuf>,
    /// Peer mode: its failure file (one scenario per line).
    #[arg(long, requires = "peer_instance")]
    pub peer_failures: Option<PathBuf>,
    /// Peer mode: run only the first N scenarios.
    #[arg(long, requires = "peer_instance")]
    pub scenarios: Option<usize>,
    /// Peer mode: worker threads (default: all cores). The output does not depend on it.
    #[arg(long, requires = "peer_instance")]
    pub threads: Option<usize>,
}

/// Runs the command.
pub fn run(a: Args) -> Result<Exit> {
    if let (Some(pi), Some(pf)) = (&a.peer_instance, &a.peer_failures) {
        return run_peer(pi, pf, &a);
    }
    let (Some(ipath), Some(spath), Some(algo)) = (&a.instance, &a.scenario, &a.algo) else {
        return Err(Error::option("instance", "--instance, --scenario and --algo are required (or --peer-instance and --peer-failures)"));
    };
    let inst = Instance::load(ipath)?;
    let sc = Scenario::load(spath, &inst)?;
    let priority = a
        .priority
        .as_deref()
        .map(str::parse::<Priority>)
        .transpose()?;
    let eps = match a.eps.as_deref() {
        None => None,
        Some(e) => {
            let v: Time = e
                .parse()
                .map_err(|err| Error::option("--eps", format!("{err}")))?;
            crate::schedulers::moldable::check_eps(&v)?;
            Some(v)
        }
    };
    let spec = AlgoSpec {
        name: algo.clone(),
        priority,
        seed: a.seed,
        eps,
    };
    let c = oracle::certify(&spec, &inst, &sc)?;
    let makespan = c.makespan.clone();
    let run = engine::Run {
        makespan: c.makespan.clone(),
        schedule: c.schedule.clone(),
        events: c.events,
    };
    let sched = c.algorithm.clone();
    let lb = bounds::rigid(&inst, &sc);
    if let Some(g) = &a.gantt {
        write_atomic(g, gantt_svg(&inst, &run.schedule, &sc)?.as_bytes())?;
    }
    let ratio = lb.as_ref().and_then(|b| makespan.checked_div(&b.lower));
    let vs_opt = if a.vs_opt {
        Some(crate::opt::solve(
            &inst,
            &sc,
            &crate::opt::OptConfig::default(),
        )?)
    } else {
        None
    };
    if a.json {
        let mut schedule = run.schedule.clone();
        schedule.makespan = Some(makespan.clone());
        let v = serde_json::json!({
            "algorithm": sched,
            "makespan": makespan,
            "makespan_decimal": makespan.to_decimal_string(6),
            "tmax": lb.as_ref().map(|b| b.tmax.clone()),
            "area": lb.as_ref().map(|b| b.area.clone()),
            "lower_bound": lb.as_ref().map(|b| b.lower.clone()),
            "ratio": ratio,
            "ratio_decimal": ratio.as_ref().map(|r| r.to_decimal_string(6)),
            "failures": sc.total_failures(),
            "attempts": run.schedule.attempts.len(),
            "events": run.events,
            "schedule": schedule,
        });
        let mut v = v;
        if let Some(o) = &vs_opt {
            v["opt"] = serde_json::json!(o.makespan);
            v["opt_proven"] = serde_json::json!(o.is_optimal());
            v["opt_lower_bound"] = serde_json::json!(o.lower_bound());
            v["ratio_vs_opt"] = serde_json::json!(makespan.checked_div(&o.makespan));
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| Error::json("output", &e))?
        );
        return Ok(Exit::Ok);
    }
    println!("algorithm  {sched}");
    println!("makespan   {}", both(&makespan));
    match (&lb, &ratio) {
        (Some(b), Some(r)) => {
            println!(
                "L(f)       {}   (t_max = {}, A/P = {})",
                both(&b.lower),
                b.tmax,
                b.area.div_int(u64::from(inst.procs)).unwrap_or_default()
            );
            println!("ratio      {}", both(r));
        }
        _ => match bounds::moldable::lprime(&inst, &sc) {
            // Moldable jobs: the allocation-free L'(J,f) of the moldable paper, Section 5.1.
            Ok(b) => {
                println!(
                    "L'(J,f)    {}   (t'_max = {}, A'/P = {})",
                    both(&b.lower),
                    b.tmax,
                    b.area.div_int(u64::from(inst.procs)).unwrap_or_default()
                );
                if let Some(r) = makespan.checked_div(&b.lower) {
                    println!("ratio      {}", both(&r));
                }
            }
            Err(_) => println!("L(f)       (no lower bound for this instance)"),
        },
    }
    if let Some(o) = &vs_opt {
        let proven = if o.is_optimal() {
            "proven optimal".to_string()
        } else {
            format!("best found, OPT ≥ {}", o.lower_bound())
        };
        println!("OPT        {}   ({proven})", both(&o.makespan));
        if let Some(r) = makespan.checked_div(&o.makespan) {
            println!("vs OPT     {}", both(&r));
        }
    }
    println!("failures   {}", sc.total_failures());
    println!("attempts   {}", run.schedule.attempts.len());
    println!("schedule   checked: feasible");
    Ok(Exit::Ok)
}

/// `exact (decimal)`.
fn both(t: &Time) -> String {
    format!("{t} ({})", t.to_decimal_string(6))
}

/// The SVG Gantt chart (the lead's renderer).
pub(crate) fn gantt_svg(
    inst: &Instance,
    schedule: &crate::model::Schedule,
    sc: &Scenario,
) -> Result<String> {
    Ok(crate::render::gantt::svg(inst, schedule, Some(sc)))
}

/// A time written exactly: as a finite decimal when it is one (at most 18 decimals), else `a/b`.
pub fn exact_decimal(t: &Time) -> String {
    let mut scaled = t.clone();
    for digits in 0..=18u32 {
        if scaled.is_integer() {
            return t.to_decimal_string(digits);
        }
        scaled = scaled.mul_int(10);
    }
    t.to_string()
}

/// Peer mode: GREEDY with the file's priority over every scenario.
fn run_peer(ipath: &Path, fpath: &Path, a: &Args) -> Result<Exit> {
    let p = PeerInstance::load(ipath)?;
    if p.batch || p.naive || p.shelf {
        return Err(Error::line(
            &ipath.display().to_string(),
            1,
            format!(
                "flags batch={} naive={} shelf={}: only GREEDY files (0 0 0: R-LIST with m = 0) are supported",
                u8::from(p.batch),
                u8::from(p.naive),
                u8::from(p.shelf)
            ),
        ));
    }
    let priority = match a.priority.as_deref() {
        Some(s) => s.parse::<Priority>()?,
        None => p.priority.into(),
    };
    if a.scenarios == Some(0) {
        return Err(Error::option("scenarios", "must be at least 1"));
    }
    let inst = &p.instance;
    let scenarios = peer::load_failures(fpath, inst.len(), a.scenarios)?;
    let greedy = peer_greedy(inst, priority, a.seed)?;
    let threads = a.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::option("threads", e.to_string()))?;
    let results: Vec<PeerResult> = pool.install(|| {
        scenarios
            .par_iter()
            .map_init(|| greedy.clone(), |g, sc| simulate_peer_one(inst, sc, g))
            .collect::<Result<Vec<_>>>()
    })?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {} on {} ({} tasks, P = {}, verif = {}): priority {} ({}); attempts last length + verif",
        greedy_name(priority),
        ipath.display(),
        inst.len(),
        inst.procs,
        exact_decimal(&p.verif),
        p.priority,
        priority
    );
    let _ = writeln!(out, "# scenario makespan L(f) ratio failures");
    // The mean ratio is for display only, so it is summed in f64: an exact sum of 10^4 ratios
    // with unrelated denominators would grow big integers without bound (quadratic time).
    let mut sum_ratio = 0f64;
    let mut max_ratio = Time::zero();
    let mut total_failures = 0u64;
    for (i, r) in results.iter().enumerate() {
        let ratio = r.makespan.checked_div(&r.lower).unwrap_or_default();
        let _ = writeln!(
            out,
            "{i} {} {} {} {}",
            exact_decimal(&r.makespan),
            exact_decimal(&r.lower),
            ratio.to_decimal_string(6),
            r.failures
        );
        sum_ratio += ratio.to_f64();
        max_ratio = max_ratio.max(ratio);
        total_failures += r.failures;
    }
    let k = results.len() as u64;
    let mean_ms: Time = results
        .iter()
        .map(|r| &r.makespan)
        .sum::<Time>()
        .div_int(k)
        .unwrap_or_default();
    let _ =
        writeln!(
        out,
        "# summary: {k} scenarios, mean makespan {}, mean ratio {:.6}, max ratio {}, mean failures {}",
        mean_ms.to_decimal_string(6),
        sum_ratio / k as f64,
        max_ratio.to_decimal_string(6),
        Time::ratio_u64(total_failures, k).unwrap_or_default().to_decimal_string(2)
    );
    print!("{out}");
    Ok(Exit::Ok)
}

/// One scenario's numbers in peer mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerResult {
    pub makespan: Time,
    pub lower: Time,
    pub failures: u64,
}

fn greedy_name(priority: Priority) -> String {
    format!("R-LIST(m=0)/{priority}")
}

/// The GREEDY scheduler used in peer mode (and by the engine benchmark).
pub fn peer_greedy(
    inst: &Instance,
    priority: Priority,
    seed: u64,
) -> Result<schedulers::rlist::Greedy> {
    let keys = oracle::catalogue::rigid_keys(inst)?;
    Ok(schedulers::rlist::Greedy::new(
        &keys, inst.procs, priority, seed,
    ))
}

/// Runs GREEDY on one scenario without recording the schedule.
pub fn simulate_peer_one(
    inst: &Instance,
    sc: &Scenario,
    g: &mut schedulers::rlist::Greedy,
) -> Result<PeerResult> {
    let run = engine::run_makespan(inst, sc, g)?;
    let lower = bounds::rigid(inst, sc).map(|b| b.lower).unwrap_or_default();
    Ok(PeerResult {
        makespan: run.makespan,
        lower,
        failures: sc.total_failures(),
    })
}
