//! `resched simulate`: runs one algorithm of the catalogue ([`resched::oracle::catalogue`]) on an
//! instance and a failure scenario through the oracle's certify path
//! ([`mod@resched::oracle::certify`]) and prints the exact makespan, the lower bound — L(f) of the
//! rigid paper (Section 3.3, Eqs. 5–6) for rigid instances, L'(J, f) of the moldable paper
//! (Section 5.1) otherwise — and their ratio; or, in peer mode, runs GREEDY (R-LIST with m = 0,
//! rigid paper Algorithm 1) over every scenario of the rigid paper's simulator files
//! ([`resched::workload::peer`]), in parallel with a deterministic output order.
//!
//! Every schedule printed has passed [`resched::check::check`] inside the oracle; a schedule that
//! fails it is an internal error (exit 2), never printed as a result.
use super::args::{parse_eps, parse_priority, seed_for, thread_pool};
use super::Exit;
use rayon::prelude::*;
use resched::error::{write_atomic, Error, Result};
use resched::model::{Instance, Scenario};
use resched::oracle::{self, catalogue, AlgoSpec, Bound, BoundKind, Certified, Prepared};
use resched::schedulers::Priority;
use resched::time::Time;
use resched::workload::peer::{self, PeerInstance};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `resched simulate`.
#[derive(Debug, clap::Args)]
#[command(after_help = short_help(), after_long_help = long_help())]
pub struct Args {
    /// Instance file (JSON).
    #[arg(
        long,
        required_unless_present_any = ["peer_instance", "peer_moldable_instance"],
        conflicts_with_all = ["peer_instance", "peer_moldable_instance"]
    )]
    pub instance: Option<PathBuf>,
    /// Failure scenario file (JSON: {"failures": [f_1, ...]}).
    #[arg(
        long,
        required_unless_present_any = ["peer_instance", "peer_moldable_instance"],
        conflicts_with_all = ["peer_instance", "peer_moldable_instance"]
    )]
    pub scenario: Option<PathBuf>,
    /// Algorithm name, from the catalogue (listed below; `--help` describes each; in moldable
    /// peer mode, default lpa-list).
    #[arg(
        long,
        required_unless_present_any = ["peer_instance", "peer_moldable_instance"],
        conflicts_with = "peer_instance"
    )]
    pub algo: Option<String>,
    /// Priority rule (default lpt; in peer mode, the file's rule).
    #[arg(long)]
    pub priority: Option<String>,
    /// Seed of the RANDOM priority (only with it; default 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// ε of BATCH-LIST's MT-ALLOTMENT (exact, e.g. 0.3 or 1/100; must be > 0; default 3/10).
    #[arg(long)]
    pub eps: Option<String>,
    /// Print the whole schedule and the metrics as JSON, with the build that computed them
    /// (`resched`: version, commit, dirty tree).
    #[arg(long, conflicts_with = "peer_instance")]
    pub json: bool,
    /// Write a Gantt chart of the schedule to this file: PNG when its name ends in `.png`,
    /// else SVG.
    #[arg(long, conflicts_with = "peer_instance")]
    pub gantt: Option<PathBuf>,
    /// Write the schedule in Batsim's jobs.csv format (one row per attempt, processor ids
    /// placed), for evalys and the Batsim tools.
    #[arg(long, value_name = "FILE", conflicts_with = "peer_instance")]
    pub batsim_jobs: Option<PathBuf>,
    /// Also compute the exact optimum T_OPT(f) (`resched opt`'s search, 10 s budget) and print
    /// OPT and makespan/OPT.
    #[arg(long, conflicts_with = "peer_instance")]
    pub vs_opt: bool,
    /// Peer mode: the rigid paper simulator's instance file.
    #[arg(long, requires = "peer_failures")]
    pub peer_instance: Option<PathBuf>,
    /// Peer mode: its failure file (one scenario per line).
    #[arg(long)]
    pub peer_failures: Option<PathBuf>,
    /// Peer mode: run only the first N scenarios.
    #[arg(long)]
    pub scenarios: Option<usize>,
    /// Peer mode: worker threads, at least 1 (default: one per core). The output does not depend
    /// on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Moldable peer mode: an instance file of the moldable paper's simulator
    /// (`NAME mld LENGTH rft|amd|com|mix|lin PARAM…`; with --peer-failures).
    #[arg(long, requires = "peer_failures", conflicts_with_all = ["peer_instance", "json", "gantt", "vs_opt"])]
    pub peer_moldable_instance: Option<PathBuf>,
    /// Moldable peer mode: the platform's processors P (that simulator takes P on its command
    /// line; default 7500, the moldable paper's Table 1).
    #[arg(long, requires = "peer_moldable_instance")]
    pub procs: Option<u32>,
}

/// The `after_help` of `simulate`: the catalogue's names (the full list is in `--help`).
fn short_help() -> String {
    format!(
        "Algorithms: {} (--help describes each).\nPriorities: {} (default lpt).\n\
Peer mode: resched simulate --peer-instance sample_1_0.3 --peer-failures failures_sample_1_0.3 [--scenarios N] [--threads N]\n\
Moldable peer mode: resched simulate --peer-moldable-instance mix_1 --peer-failures failures_mix_1 [--algo lpa-list|mintime|minarea|batch-list|batch-list-published] [--procs 7500]",
        catalogue::names().join(", "),
        Priority::valid_names()
    )
}

/// The `after_long_help` of `simulate`: every algorithm of the catalogue, with its paper.
fn long_help() -> String {
    format!(
        "Algorithms (--algo; case-insensitive):\n{}\nPriorities (--priority): {} (default lpt; \
`index` is the job order, as the moldable paper's Section 4.7 example).\n\n\
Peer mode: resched simulate --peer-instance sample_1_0.3 --peer-failures failures_sample_1_0.3 [--scenarios N] [--threads N]\n\
Moldable peer mode: resched simulate --peer-moldable-instance mix_1 --peer-failures failures_mix_1 [--algo lpa-list|mintime|minarea|batch-list] [--procs 7500]",
        catalogue::help(),
        Priority::valid_names()
    )
}

/// Runs the command.
pub fn run(a: Args) -> Result<Exit> {
    // Before any input is read.
    super::args::check_threads(a.threads)?;
    if let (Some(pi), Some(pf)) = (&a.peer_instance, &a.peer_failures) {
        return run_peer(pi, pf, &a);
    }
    if let (Some(pi), Some(pf)) = (&a.peer_moldable_instance, &a.peer_failures) {
        let o = super::peer_moldable::Options {
            procs: a
                .procs
                // default: P = 7500, the moldable simulator's documented default (FORMAT.md)
                .unwrap_or(resched::workload::peer_moldable::DEFAULT_PROCS),
            // default: LPA-LIST, the documented default algorithm of moldable peer mode
            algo: a.algo.as_deref().unwrap_or("lpa-list"),
            priority: a.priority.as_deref(),
            seed: a.seed,
            eps: a.eps.as_deref(),
            scenarios: a.scenarios,
            threads: a.threads,
        };
        return super::peer_moldable::run(pi, pf, &o);
    }
    if a.peer_failures.is_some() || a.scenarios.is_some() || a.threads.is_some() {
        return Err(Error::option(
            "peer-failures",
            "--peer-failures, --scenarios and --threads belong to peer mode (--peer-instance or --peer-moldable-instance)",
        ));
    }
    let (Some(ipath), Some(spath), Some(algo)) = (&a.instance, &a.scenario, &a.algo) else {
        return Err(Error::option("instance", "--instance, --scenario and --algo are required (or --peer-instance and --peer-failures)"));
    };
    super::args::distinct_files(&[
        ("--instance", Some(ipath)),
        ("--scenario", Some(spath)),
        ("--gantt", a.gantt.as_deref()),
        ("--batsim-jobs", a.batsim_jobs.as_deref()),
    ])?;
    if let Some(g) = &a.gantt {
        super::steal::outputs::check_file(g, "--gantt")?;
    }
    if let Some(b) = &a.batsim_jobs {
        super::steal::outputs::check_file(b, "--batsim-jobs")?;
    }
    let inst = Instance::load(ipath)?;
    let sc = Scenario::load(spath, &inst)?;
    check_recorded_budget(spath, &sc)?;
    let priority = parse_priority(a.priority.as_deref())?;
    let spec = AlgoSpec {
        name: algo.clone(),
        priority,
        seed: seed_for(a.seed, priority)?,
        eps: parse_eps(a.eps.as_deref())?,
    };
    let c = oracle::certify(&spec, &inst, &sc)?;
    if let Some(g) = &a.gantt {
        crate::render::gantt::write(&inst, &c.schedule, Some(&sc), g)?;
    }
    if let Some(b) = &a.batsim_jobs {
        write_atomic(
            b,
            crate::batsim::schedule_csv(&inst, &c.schedule)?.as_bytes(),
        )?;
    }
    let vs_opt = if a.vs_opt {
        Some(
            resched::opt::solve(&inst, &sc, &resched::opt::OptConfig::default())
                .map_err(|e| super::opt::limit_in(e, ipath))?,
        )
    } else {
        None
    };
    if a.json {
        crate::outln!("{}", json_report(&inst, &sc, &c, vs_opt.as_ref())?)?;
    } else {
        crate::out!("{}", text_report(&inst, &sc, &c, vs_opt.as_ref())?)?;
    }
    Ok(Exit::Ok)
}

/// A/P of a bound (P ≥ 1 is an instance invariant, so the division cannot fail; an error
/// rather than a plausible number if it ever did).
fn area_per_proc(inst: &Instance, b: &Bound) -> Result<Time> {
    b.area
        .div_int(u64::from(inst.procs))
        .ok_or_else(|| Error::invalid("instance", "processors", "must be at least 1"))
}

/// The `--json` report: the metrics, each job's completion time, the whole schedule (the
/// `schedule` field is what `resched verify --schedule` reads) and the build that computed
/// them (`resched`).
fn json_report(
    inst: &Instance,
    sc: &Scenario,
    c: &Certified,
    opt: Option<&resched::opt::OptResult>,
) -> Result<String> {
    let completions: Vec<serde_json::Value> = inst
        .jobs
        .iter()
        .zip(&c.completions)
        .enumerate()
        .map(|(i, (j, t))| serde_json::json!({"job": j.name, "index": i, "time": t}))
        .collect();
    let mut v = serde_json::json!({
        "algorithm": c.algorithm,
        "canonical": c.canonical,
        "makespan": c.makespan,
        "makespan_decimal": c.makespan.to_decimal_string(6),
        "bound_kind": c.bound.symbol(),
        "tmax": c.bound.tmax,
        "area": c.bound.area,
        "lower_bound": c.bound.lower,
        "ratio": c.ratio,
        "ratio_decimal": c.ratio.to_decimal_string(6),
        "failures": sc.total_failures(),
        "attempts": c.schedule.attempts.len(),
        "events": c.events,
        "completions": completions,
        "schedule": c.schedule,
    });
    if let Some(o) = opt {
        v["opt"] = serde_json::json!(o.makespan);
        v["opt_proven"] = serde_json::json!(o.is_optimal());
        v["opt_lower_bound"] = serde_json::json!(o.lower_bound());
        v["ratio_vs_opt"] = serde_json::json!(c.makespan.checked_div(&o.makespan));
    }
    crate::provenance::stamp_value(&mut v);
    serde_json::to_string_pretty(&v).map_err(|e| Error::json("output", &e))
}

/// The text report: makespan, the bound the ratio is taken against, the ratio.
fn text_report(
    inst: &Instance,
    sc: &Scenario,
    c: &Certified,
    opt: Option<&resched::opt::OptResult>,
) -> Result<String> {
    let mut out = String::new();
    let _ = writeln!(out, "algorithm  {}", c.algorithm);
    let _ = writeln!(out, "makespan   {}", both(&c.makespan));
    let (tmax, ap) = match c.bound.kind {
        BoundKind::Rigid => ("t_max", "A/P"),
        BoundKind::Moldable => ("t'_max", "A'/P"),
    };
    let _ = writeln!(
        out,
        "{:<11}{}   ({tmax} = {}, {ap} = {})",
        c.bound.symbol(),
        both(&c.bound.lower),
        c.bound.tmax,
        area_per_proc(inst, &c.bound)?
    );
    let _ = writeln!(out, "ratio      {}", both(&c.ratio));
    if let Some(o) = opt {
        let proven = if o.is_optimal() {
            "proven optimal".to_string()
        } else {
            format!("best found, OPT ≥ {}", o.lower_bound())
        };
        let _ = writeln!(out, "OPT        {}   ({proven})", both(&o.makespan));
        if let Some(r) = c.makespan.checked_div(&o.makespan) {
            let _ = writeln!(out, "vs OPT     {}", both(&r));
        }
    }
    let _ = writeln!(out, "failures   {}", sc.total_failures());
    let _ = writeln!(out, "attempts   {}", c.schedule.attempts.len());
    let _ = writeln!(out, "schedule   checked: feasible");
    Ok(out)
}

/// `exact (decimal)`.
fn both(t: &Time) -> String {
    format!("{t} ({})", t.to_decimal_string(6))
}

/// A time written exactly: as a finite decimal when it is one (at most 18 decimals), else `a/b`.
pub fn exact_decimal(t: &Time) -> String {
    let mut out = String::new();
    write_exact_decimal(t, &mut out);
    out
}

/// [`exact_decimal`] appended to `out` (peer mode writes two per scenario; a word-sized time
/// takes no big integer).
fn write_exact_decimal(t: &Time, out: &mut String) {
    match t.decimal_places(18) {
        Some(digits) => t.write_decimal(digits, out),
        None => {
            let _ = write!(out, "{t}");
        }
    }
}

/// The engine's budget of a recorded run, checked before the run so that the message names the
/// scenario file (`simulate`, `verify --algo`).
pub(crate) fn check_recorded_budget(spath: &Path, sc: &Scenario) -> Result<()> {
    let needed = resched::engine::attempts_needed(sc);
    let budget = resched::engine::Budget::RECORDED.max_attempts;
    if needed > budget {
        return Err(Error::invalid(
            &spath.display().to_string(),
            "failures",
            format!(
                "limit exceeded: {needed} attempts (Σ f_j + 1), above the {budget} a recorded run may start (engine::Budget::RECORDED)"
            ),
        ));
    }
    Ok(())
}

/// Peer mode: every scenario is certified (its schedule recorded), so each must fit the
/// engine's recorded budget; the first that does not is refused naming the failure file and
/// its line (a line with 10^9 failures must not give a limit message naming no file).
fn check_peer_budget(fpath: &Path, scenarios: &[Scenario]) -> Result<()> {
    let budget = resched::engine::Budget::RECORDED.max_attempts;
    let Some(k) = scenarios
        .iter()
        .position(|sc| resched::engine::attempts_needed(sc) > budget)
    else {
        return Ok(());
    };
    let needed = resched::engine::attempts_needed(&scenarios[k]);
    // Scenario k is the k-th non-blank line (peer::parse_failures skips blank lines).
    let text = resched::error::read_text(fpath)?;
    let line = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .nth(k)
        .map(|(i, _)| i + 1);
    let file = fpath.display().to_string();
    let msg = format!(
        "limit exceeded: {needed} attempts (Σ f_j + 1), above the {budget} a recorded run may start (engine::Budget::RECORDED)"
    );
    Err(match line {
        Some(l) => Error::line(&file, l, msg),
        // unreachable: the scenarios were read from this file's non-blank lines.
        None => Error::invalid(&file, format!("scenario {}", k + 1), msg),
    })
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
    let seed = seed_for(a.seed, Some(priority))?;
    if a.scenarios == Some(0) {
        return Err(Error::option("scenarios", "must be at least 1"));
    }
    let pool = thread_pool(a.threads)?;
    let inst = &p.instance;
    let scenarios = peer::load_failures(fpath, inst.len(), a.scenarios)?;
    check_peer_budget(fpath, &scenarios)?;
    // Built once here so that a bad spec is reported before any work; each worker builds its own.
    let name = peer_greedy(inst, priority, seed)?.name();
    let results: Vec<PeerResult> = pool.install(|| {
        scenarios
            .par_iter()
            .map_init(
                || peer_greedy(inst, priority, seed),
                |g, sc| match g {
                    Ok(g) => simulate_peer_one(inst, sc, g),
                    Err(e) => Err(Error::option("algo", e.to_string())),
                },
            )
            .collect::<Result<Vec<_>>>()
    })?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {name} on {} ({} tasks, P = {}, verif = {}): priority {} ({}); attempts last length + verif",
        ipath.display(),
        inst.len(),
        inst.procs,
        exact_decimal(&p.verif),
        p.priority,
        priority
    );
    out.push_str(&peer_table(&results)?);
    crate::out!("{out}")?;
    Ok(Exit::Ok)
}

/// The per-scenario lines and the summary line of peer mode.
fn peer_table(results: &[PeerResult]) -> Result<String> {
    let mut out = String::with_capacity(64 * (results.len() + 2));
    let _ = writeln!(out, "# scenario makespan L(f) ratio failures");
    // The mean ratio is for display only, so it is summed in f64: an exact sum of 10^4 ratios
    // with unrelated denominators would grow big integers without bound (quadratic time).
    let mut sum_ratio = 0f64;
    let mut max_ratio = Time::zero();
    let mut total_failures = 0u64;
    for (i, r) in results.iter().enumerate() {
        let _ = write!(out, "{i} ");
        write_exact_decimal(&r.makespan, &mut out);
        out.push(' ');
        write_exact_decimal(&r.lower, &mut out);
        out.push(' ');
        r.ratio.write_decimal(6, &mut out);
        let _ = writeln!(out, " {}", r.failures);
        sum_ratio += r.ratio.to_f64();
        max_ratio = max_ratio.max(r.ratio.clone());
        total_failures += r.failures;
    }
    let k = results.len() as u64;
    let empty = || Error::option("scenarios", "the failure file has no scenario");
    let mean_ms = results
        .iter()
        .map(|r| &r.makespan)
        .sum::<Time>()
        .div_int(k)
        .ok_or_else(empty)?;
    let mean_failures = Time::ratio_u64(total_failures, k).ok_or_else(empty)?;
    let _ = writeln!(
        out,
        "# summary: {k} scenarios, mean makespan {}, mean ratio {:.6}, max ratio {}, mean failures {}",
        mean_ms.to_decimal_string(6),
        sum_ratio / k as f64,
        max_ratio.to_decimal_string(6),
        mean_failures.to_decimal_string(2)
    );
    Ok(out)
}

/// One scenario's numbers in peer mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerResult {
    pub makespan: Time,
    /// L(f), rigid paper Eqs. (5)–(6).
    pub lower: Time,
    /// makespan / L(f), exact.
    pub ratio: Time,
    pub failures: u64,
}

/// GREEDY (the catalogue's `greedy`: R-LIST with m = 0) with `priority`, built through the
/// oracle for peer mode.
pub fn peer_greedy(inst: &Instance, priority: Priority, seed: u64) -> Result<Prepared> {
    let spec = AlgoSpec {
        seed,
        ..AlgoSpec::new("greedy").with_priority(priority)
    };
    Prepared::new(&spec, inst)
}

/// Runs GREEDY on one scenario through the oracle's certify path (engine, checker, L(f)).
pub fn simulate_peer_one(inst: &Instance, sc: &Scenario, g: &mut Prepared) -> Result<PeerResult> {
    let c = g.certify(inst, sc)?;
    Ok(PeerResult {
        makespan: c.makespan,
        lower: c.bound.lower,
        ratio: c.ratio,
        failures: sc.total_failures(),
    })
}
