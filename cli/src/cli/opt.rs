//! `resched opt`: the exact optimum T_OPT(f) of a small instance under a known failure scenario
//! (see [`resched::opt`]), with its status, lower bound, schedule and optional Gantt chart.
use super::Exit;
use resched::model::{Instance, Scenario};
use resched::opt::{self, Method, OptConfig, Status};
use resched::stealing::parse::parse_duration;
use resched::{Error, Result};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `resched opt`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Instance file (JSON).
    #[arg(long)]
    pub instance: PathBuf,
    /// Failure scenario file (JSON: {"failures": [f_1, ...]}).
    #[arg(long)]
    pub scenario: PathBuf,
    /// Exact method: the branch-and-bound search, the time-indexed ILP, or both (cross-checked).
    /// Times whose common denominator is too large for the ILP's 64-bit model need the search,
    /// which runs on 128-bit integers or, beyond them, answers by exact-time bounds.
    #[arg(long, default_value = "search", value_name = "search|ilp|both")]
    pub method: String,
    /// MILP solver of the ILP method: microlp, or highs when built with the `highs` feature
    /// (the default then).
    #[arg(long, value_name = "microlp|highs")]
    pub backend: Option<String>,
    /// Wall-clock budget of the whole solve (with `both`: the search's, then as much again for
    /// the ILP): seconds (`2.5`, `1/3`) or a duration with a unit
    /// (`90s`, `10min`, `1h`), positive, at most 10^7 s; when it runs out the best schedule found
    /// is printed with a proven lower bound and the gap. A rigid instance near its bound gives the
    /// search a third of what the root stages leave of it and the exact fill's bounded-slack
    /// questions the rest (not under `--node-limit`).
    #[arg(long, default_value = "10", value_name = "DURATION")]
    pub time_limit: String,
    /// Node budget of the search (default: none, the time limit alone).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Entries the search's transposition table holds at most, 0..=10^9 (0: none). An entry
    /// takes about 200 bytes on 15 jobs, more on more jobs; a proof that runs for minutes may
    /// need 10^7 or more, since a full table forgets its older half and the search then meets
    /// again what it had refuted there.
    #[arg(long, default_value_t = OptConfig::default().memo_limit, value_name = "N")]
    pub memo_limit: usize,
    /// Threads of the exact search, 1..=64 (a portfolio of differently ordered searches sharing
    /// the incumbent; the proven optimum does not depend on it, the schedule returned may).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Print the result (and the whole schedule) as JSON, with the build that computed it
    /// (`resched`: version, commit, dirty tree); `backend` is null when no ILP ran, `scale`
    /// null when the times were answered in exact time (`unscaled`: true).
    #[arg(long)]
    pub json: bool,
    /// Write a Gantt chart of the schedule found to this file: PNG when its name ends in
    /// `.png`, else SVG.
    #[arg(long, value_name = "FILE")]
    pub gantt: Option<PathBuf>,
}

/// Most entries `--memo-limit` takes (about 200 GB on 15 jobs: beyond, a typo, not a plan).
const MAX_MEMO: usize = 1_000_000_000;

/// Parses a time limit: a duration as every option of resched takes it (`2.5`, `1/3`, `90s`,
/// `10min`, `1h`; [`parse_duration`]), positive and at most 10^7 s.
pub fn parse_seconds(option: &str, s: &str) -> Result<Duration> {
    let t = parse_duration(s, option)?;
    let v = t.to_f64();
    if !t.is_positive() || !v.is_finite() || v > 1e7 {
        return Err(Error::option(
            option,
            format!("`{s}` must be a positive duration of at most 10^7 seconds"),
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// Runs `resched opt`.
pub fn run(a: Args) -> Result<Exit> {
    super::args::distinct_files(&[
        ("--instance", Some(a.instance.as_path())),
        ("--scenario", Some(a.scenario.as_path())),
        ("--gantt", a.gantt.as_deref()),
    ])?;
    // Where the chart goes is checked before the search, which may run for its whole budget.
    if let Some(g) = &a.gantt {
        super::steal::outputs::check_file(g, "--gantt")?;
    }
    let inst = Instance::load(&a.instance)?;
    let sc = Scenario::load(&a.scenario, &inst)?;
    // The exact methods' limit, checked here so that the message names the file and field.
    if let Some((j, f)) =
        (sc.failures.iter().enumerate()).find(|(_, &f)| f >= opt::problem::MAX_ATTEMPTS_PER_JOB)
    {
        return Err(Error::invalid(
            &a.scenario.display().to_string(),
            format!("failures[{j}]"),
            format!(
                "limit exceeded: job {} fails {f} times; the exact methods allow at most {} attempts per job (255 attempts)",
                inst.jobs[j].name,
                opt::problem::MAX_ATTEMPTS_PER_JOB
            ),
        ));
    }
    if a.memo_limit > MAX_MEMO {
        return Err(Error::option(
            "memo-limit",
            format!("{} entries is above the limit of 10^9", a.memo_limit),
        ));
    }
    let method: Method = a.method.parse()?;
    super::args::check_threads(Some(a.threads))?;
    let backend = match &a.backend {
        Some(b) => b.parse()?,
        None => opt::ilp::Backend::preferred(),
    };
    if !opt::ilp::Backend::compiled().contains(&backend) {
        return Err(Error::option(
            "backend",
            format!("{backend} is not compiled into this resched (build it with the `{backend}` feature)"),
        ));
    }
    let cfg = OptConfig {
        method,
        backend,
        time_limit: parse_seconds("time-limit", &a.time_limit)?,
        node_limit: a.node_limit,
        memo_limit: a.memo_limit,
        threads: a.threads,
        ..OptConfig::default()
    };
    let r = opt::solve(&inst, &sc, &cfg).map_err(|e| limit_in(e, &a.instance))?;
    if let Some(path) = &a.gantt {
        write_gantt(&inst, &sc, &r.schedule, path)?;
    }
    let lower = r.lower_bound().clone();
    let l_f = resched::bounds::rigid(&inst, &sc).map(|b| b.lower);
    let gap = r.gap();
    // An ILP ran only when it was asked for and the times scaled to its integer model.
    let ilp_ran = cfg.method != Method::Search && r.stats.unscaled.is_none();
    if a.json {
        let mut v = serde_json::json!({
            "method": a.method,
            "backend": ilp_ran.then(|| cfg.backend.name()),
            "status": if r.is_optimal() { "optimal" } else { "feasible" },
            "makespan": r.makespan,
            "lower_bound": lower,
            "gap": gap,
            "gap_decimal": gap.as_ref().map(|g| g.to_decimal_string(6)),
            "threads": a.threads,
            "l_f": l_f,
            "greedy": r.stats.greedy,
            "incumbent": r.stats.incumbent,
            "scale": r.stats.scale,
            "unscaled": r.stats.unscaled.is_some(),
            "attempts": r.stats.attempts,
            "search_nodes": r.stats.search_nodes,
            "ilp_vars": r.stats.ilp_vars,
            "seconds": r.stats.elapsed.as_secs_f64(),
            "schedule": r.schedule,
        });
        crate::provenance::stamp_value(&mut v);
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| Error::Solver(e.to_string()))?
        )?;
        return Ok(Exit::Ok);
    }
    match &r.status {
        Status::Optimal => crate::outln!(
            "OPT = {} ({}), proven optimal",
            r.makespan,
            r.makespan.to_decimal_string(6)
        )?,
        Status::Feasible { lower_bound } => {
            let why = if r.stats.unscaled.is_some() {
                "no schedule of the exact-time list schedules meets the bound"
            } else {
                "a limit stopped the method"
            };
            crate::outln!(
                "best makespan {} ({}), NOT proven optimal: OPT ≥ {} ({}) — {why}",
                r.makespan,
                r.makespan.to_decimal_string(6),
                lower_bound,
                lower_bound.to_decimal_string(6)
            )?;
            match &gap {
                Some(g) => crate::outln!(
                    "gap (best − bound) / bound = {g} ({}, i.e. {}%)",
                    g.to_decimal_string(6),
                    g.mul_int(100).to_decimal_string(4)
                )?,
                None => crate::outln!("gap undefined (the lower bound is 0)")?,
            }
        }
    }
    if let Some(l) = &l_f {
        crate::outln!("L(f) = {l} ({})", l.to_decimal_string(6))?;
    }
    if let Some(t) = &r.stats.unscaled {
        crate::outln!(
            "the times do not scale to the search's integers (common denominator {} digits long): \
             answered in exact time by L'(J,f), L*(J,f) and list schedules, without search or ILP",
            t.scale.to_string().len()
        )?;
    }
    // The backend is named only where an ILP ran.
    let method = if ilp_ran {
        format!("{} (ILP backend {})", a.method, cfg.backend)
    } else {
        a.method.clone()
    };
    crate::outln!(
        "method {method}, {} thread(s), {} attempts, greedy {}, improved start {}, root bound {}, {} search nodes, {:.3} s",
        a.threads,
        r.stats.attempts,
        r.stats.greedy,
        r.stats.incumbent,
        r.stats.root_lower_bound,
        r.stats.search_nodes,
        r.stats.elapsed.as_secs_f64()
    )?;
    if r.stats.packed {
        crate::outln!("the packing heuristic met the root bound: optimal without search")?;
    }
    crate::outln!("job  attempt  start  procs  duration")?;
    for at in &r.schedule.attempts {
        crate::outln!(
            "{:<4} {:<8} {:<6} {:<6} {}",
            inst.jobs[at.job].name,
            at.attempt,
            at.start.to_string(),
            at.procs,
            at.duration
        )?;
    }
    Ok(Exit::Ok)
}

/// Writes the Gantt chart (the lead's renderer, `crate::render::gantt`), atomically.
fn write_gantt(
    inst: &Instance,
    sc: &Scenario,
    schedule: &resched::model::Schedule,
    path: &std::path::Path,
) -> Result<()> {
    crate::render::gantt::write(inst, schedule, Some(sc), path)
}

/// Names the instance file in a limit of the exact methods (`opt: 64 jobs exceed …`, P, the
/// time scale: all properties of the instance), which `opt::solve` states without a file.
pub(crate) fn limit_in(e: Error, instance: &std::path::Path) -> Error {
    match e {
        Error::Limit(m) => Error::Limit(format!("{}: {m}", instance.display())),
        other => other,
    }
}
