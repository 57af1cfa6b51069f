//! `resched steal`: the node-stealing batch scheduler of the node-stealing paper on a workload
//! (an SWF log or Table 6's synthetic workload), with Poisson failures or a failure list; prints
//! a metrics table and the per-size-class flow ratios against Baseline (Figures 6, 13), writes
//! a CSV and plots. Every run goes through the independent checker ([`resched::stealing::check`])
//! unless `--no-check`.
//!
//! This file holds the arguments and the order of the steps: every option value is parsed and
//! range-checked ([`resched::stealing::limits`]) and every output path probed ([`outputs`])
//! before a file is read or a job simulated. [`parse`] reads option values, [`report`] prints
//! the tables and the metrics CSV, [`jobs_csv`] the per-job rows, [`mod@plots`] draws the figures.
use super::Exit;
use resched::error::{write_atomic, Error, Result};
use resched::stealing::backlog::backlog;
use resched::stealing::check::check;
use resched::stealing::limits;
use resched::stealing::measure::Measure;
use resched::stealing::metrics::{compute, Metrics, Pruning};
use resched::stealing::synthetic::{paper_resilience, Synthetic};
use resched::stealing::{
    simulate_read_reporting, trace, Budget, Ending, FailureSource, NodeReturns, Readings,
    Resilience, Run, Variant, Workload,
};
use resched::time::Time;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod batsim_workload;
pub mod jobs_csv;
pub mod outputs;
pub mod plots;
pub mod report;
pub mod stop;

use jobs_csv::JobsCsv;
use stop::{Stop, Stopped};

pub use plots::plots;
pub use report::{class_table, csv, table};
pub use resched::stealing::parse::{self, parse_duration, parse_variants};

/// Arguments of `resched steal`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 done; 1 the checker refused a run; 2 bad input or usage; 3 stopped \
                  early (SIGINT, SIGTERM or --max-wall): what was measured so far is written, \
                  marked PARTIAL."
)]
pub struct Args {
    /// `W.swf` / `W.swf.gz`, a Batsim workload `W.json` (delay profiles), or
    /// `synthetic[:nodes=128,lambda=174,seed=S,jobs=1000]` (Table 6).
    #[arg(long)]
    pub workload: String,
    /// Platform size in nodes (default: the trace's processors P — MaxProcs, else MaxNodes,
    /// else the largest job, as rigid-trace — divided by the processors per node, rounded up).
    #[arg(long)]
    pub nodes: Option<u32>,
    /// Processors per node: an SWF job on q processors needs ⌈q / c⌉ nodes (default:
    /// MaxProcs / MaxNodes when it is a whole number, else 1).
    #[arg(long)]
    pub procs_per_node: Option<u32>,
    /// Reduce larger jobs to this many nodes (Section 5.2: 49152 → 49000 on Mira).
    #[arg(long)]
    pub max_job_nodes: Option<u32>,
    /// Platform MTBF μ = μ_ind/N (default: μ_ind/N with the paper's μ_ind, 1h on Mira's
    /// 49,152 nodes; 30min for the synthetic workload).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "node_mtbf")]
    pub mtbf: Option<String>,
    /// Node MTBF μ_ind instead of --mtbf: the platform MTBF is μ_ind/N, N the machine's nodes:
    /// MaxNodes when MaxProcs is not a multiple of it and neither --nodes nor
    /// --procs-per-node is given, else the platform's (default: the paper's 5.61 years,
    /// 49152h, for a trace; the synthetic workload's is 30min × N).
    #[arg(long, allow_hyphen_values = true)]
    pub node_mtbf: Option<String>,
    /// Downtime D of a struck node (default 1h; 10min for the synthetic workload).
    #[arg(long, allow_hyphen_values = true)]
    pub downtime: Option<String>,
    /// Checkpoint length C; 0 disables checkpointing (default 5min).
    #[arg(long, allow_hyphen_values = true)]
    pub checkpoint: Option<String>,
    /// Recovery R on every restart (default: C).
    #[arg(long, allow_hyphen_values = true)]
    pub recovery: Option<String>,
    /// A failure list file (`time node` per line) instead of Poisson failures.
    #[arg(long)]
    pub failures: Option<PathBuf>,
    /// Variants: `baseline`, `SFSJ`, `H111`…`H323`, comma-separated, or `all`.
    #[arg(long, default_value = "baseline,H111")]
    pub variant: String,
    /// Whether the plan learns that a struck node is back only when it is (`unforeseen`, the
    /// default: the paper's Batsched as Section 5.1 describes it) or foresees it from the
    /// downtime (`foreseen`); see docs/reference/readings.md.
    #[arg(long, default_value = "unforeseen")]
    pub returns: String,
    /// When the plan's reservations are compressed: at completions only, new jobs inserted
    /// first-fit (`completions`, the default: Batsched's conservative_bf), or at completions and
    /// arrivals (`completions-and-arrivals`, resched's first reading); see
    /// docs/reference/readings.md.
    #[arg(long, default_value = "completions")]
    pub compression: String,
    /// Seed of the failures (and of the synthetic workload unless it sets its own).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// What the statistics describe: `all` (every job, utilization from the first submission
    /// to the last completion), `paper` (Section 5.3.3: utilization on days 11–30 after the
    /// first submission, flows without the first and last 20% of jobs; needs 30 days of
    /// submissions) or `scaled` (the same on a shorter trace: the first third of the submission
    /// span left out, the window ending at the last submission).
    #[arg(long, default_value = "all")]
    pub measure: String,
    /// Leave out this percentage of jobs at each end of the submission order from the flow
    /// statistics (overrides --measure's; the paper: 20).
    #[arg(long)]
    pub prune_jobs: Option<u32>,
    /// Time window `A:B` of the utilization and decomposition, counted from the first
    /// submission (overrides --measure's; `10d:30d` is the paper's).
    #[arg(long, allow_hyphen_values = true)]
    pub window: Option<String>,
    /// Write the metrics as CSV (long format: variant,scope,metric,value,exact,status).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Write one row per job and variant (release, starts, end, flow, nodes, restarts, steals
    /// suffered) as CSV, from which every flow statistic of the report can be recomputed.
    #[arg(long)]
    pub jobs_csv: Option<PathBuf>,
    /// Write plots (SVG and PNG) into this directory.
    #[arg(long)]
    pub plots: Option<PathBuf>,
    /// Write each variant's attempts in Batsim's jobs.csv format, `DIR/<variant>_jobs.csv`, for
    /// evalys and the Batsim tools.
    #[arg(long, value_name = "DIR")]
    pub batsim_dir: Option<PathBuf>,
    /// Skip the independent checker.
    #[arg(long)]
    pub no_check: bool,
    /// No progress line on stderr (it is shown only when stderr is a terminal).
    #[arg(long)]
    pub quiet: bool,
    /// Event budget of each simulated variant (failures and scheduling instants); a run that
    /// needs more stops with an error (default: 100 per job + 100,000).
    #[arg(long)]
    pub max_events: Option<u64>,
    /// Stop after this much wall-clock time (`90`, `10min`, `2h`), checked every quarter second
    /// once 1024 events are done, and write what was measured so far, marked PARTIAL (as on
    /// SIGINT / SIGTERM; a second
    /// Ctrl-C ends at once). The run stopped covers its completed jobs only; variants not yet
    /// started are not run. Exit status 3 (unless a checker refused a run: 1).
    #[arg(long, allow_hyphen_values = true)]
    pub max_wall: Option<String>,
}

/// The option values, parsed and range-checked before any file is read.
struct Options {
    variants: Vec<Variant>,
    readings: Readings,
    measure: Measure,
    prune_jobs: Option<u32>,
    /// `--window`, relative to the first submission.
    window: Option<(Time, Time)>,
    mtbf: Option<Rate>,
    downtime: Option<Time>,
    checkpoint: Option<Time>,
    recovery: Option<Time>,
    max_wall: Option<Duration>,
}

/// The failure rate asked for: a platform MTBF (`--mtbf`) or a node MTBF (`--node-mtbf`).
enum Rate {
    Platform(Time),
    Node(Time),
}

/// Where the failure rate of a run comes from, for the platform line.
fn rate_source(rate: Option<&Rate>, synthetic: bool) -> &'static str {
    match rate {
        Some(Rate::Platform(_)) => "from --mtbf",
        Some(Rate::Node(_)) => "from --node-mtbf",
        None if synthetic => "default: Section 6.3's μ = 30 min",
        None => "default: the paper's nodes, μ = 1 h on Mira's 49,152",
    }
}

/// Parses every option value and checks it against [`resched::stealing::limits`].
fn options(a: &Args) -> Result<Options> {
    let variants = parse_variants(&a.variant)?;
    let returns: NodeReturns = a
        .returns
        .parse()
        .map_err(|e: String| Error::option("--returns", e))?;
    let compression: resched::stealing::Compression = a
        .compression
        .parse()
        .map_err(|e: String| Error::option("--compression", e))?;
    let measure: Measure = a
        .measure
        .parse()
        .map_err(|e: String| Error::option("--measure", e))?;
    if a.prune_jobs.is_some_and(|p| p >= 50) {
        return Err(Error::option(
            "--prune-jobs",
            "must be below 50 (percent at each end)",
        ));
    }
    let window = a.window.as_deref().map(parse::parse_window).transpose()?;
    if let Some((x, y)) = &window {
        limits::check_seconds(x, "--window")?;
        limits::check_seconds(y, "--window")?;
    }
    if a.max_events == Some(0) {
        return Err(Error::option("--max-events", "must be at least 1"));
    }
    let duration = |o: &Option<String>, name: &str| -> Result<Option<Time>> {
        let Some(s) = o else { return Ok(None) };
        let t = parse_duration(s, name)?;
        limits::check_seconds(&t, name)?;
        Ok(Some(t))
    };
    // The node MTBF is checked once N is known (its platform MTBF is what failures are drawn
    // with); here only that it is a duration.
    let mtbf = match (&a.mtbf, &a.node_mtbf) {
        (Some(s), _) => {
            let t = parse_duration(s, "--mtbf")?;
            limits::check_mean_gap(&t, "--mtbf")?;
            Some(Rate::Platform(t))
        }
        (None, Some(s)) => Some(Rate::Node(parse_duration(s, "--node-mtbf")?)),
        (None, None) => None,
    };
    Ok(Options {
        variants,
        readings: Readings {
            returns,
            compression,
        },
        measure,
        prune_jobs: a.prune_jobs,
        window,
        mtbf,
        downtime: duration(&a.downtime, "--downtime")?,
        checkpoint: duration(&a.checkpoint, "--checkpoint")?,
        recovery: duration(&a.recovery, "--recovery")?,
        max_wall: a
            .max_wall
            .as_deref()
            .map(stop::parse_max_wall)
            .transpose()?,
    })
}

/// Everything a variant's simulation needs, fixed before the first one.
struct Setup<'a> {
    a: &'a Args,
    opts: &'a Options,
    w: &'a Workload,
    res: &'a Resilience,
    mtbf: &'a Time,
    failure_list: Option<&'a FailureSource>,
    pruning: &'a Pruning,
    budget: Budget,
}

/// What the variants gave: their metrics (complete or partial), the partial ones, the ones a
/// stop left unrun, and whether a checker refused a run.
#[derive(Default)]
struct Results {
    all: Vec<Metrics>,
    stopped: Vec<Stopped>,
    not_run: Vec<Variant>,
    failed_check: bool,
}

impl Results {
    /// A variant was stopped, or not run because of a stop.
    fn is_partial(&self) -> bool {
        !self.stopped.is_empty() || !self.not_run.is_empty()
    }
}

/// Runs the command.
pub fn run(a: Args) -> Result<Exit> {
    let opts = options(&a)?;
    // Before anything long: a Ctrl-C while the trace is read stops before the first variant.
    let stop = Stop::new(opts.max_wall)?;
    check_outputs(&a)?;
    let (w, note, synthetic, failing) = load_workload(&a)?;
    let (res, mtbf) = resilience(&opts, &w, synthetic, &failing)?;
    let pruning = pruning(&opts, &w, &a.workload)?;
    let failure_list = match &a.failures {
        Some(p) => Some(FailureSource::load(p, w.nodes)?),
        None => None,
    };
    crate::outln!("workload: {note}")?;
    crate::outln!("{}", measure_line(&opts, &pruning))?;
    crate::outln!("node returns: {} by the plan", opts.readings.returns)?;
    crate::outln!(
        "compression: at {} (docs/reference/readings.md)",
        opts.readings.compression
    )?;
    print_platform(
        &a,
        &w,
        &res,
        &mtbf,
        &failing,
        rate_source(opts.mtbf.as_ref(), synthetic),
    )?;
    let setup = Setup {
        a: &a,
        opts: &opts,
        w: &w,
        res: &res,
        mtbf: &mtbf,
        failure_list: failure_list.as_ref(),
        pruning: &pruning,
        budget: Budget::with_events(w.jobs.len(), a.max_events)
            .reporting_every(stop::REPORT_INTERVAL),
    };
    let mut per_job = a.jobs_csv.as_deref().map(JobsCsv::new).transpose()?;
    let mut out = Results::default();
    for (i, v) in opts.variants.iter().enumerate() {
        // The first variant always starts: its first progress report, after
        // PROGRESS_EVERY events, is where any stop is seen (`--max-wall 0` is reproducible).
        if i > 0 && stop.requested().is_some() {
            out.not_run.push(*v);
            continue;
        }
        run_variant(&setup, *v, &stop, per_job.as_mut(), &mut out)?;
    }
    crate::out!("{}", table(&out.all, &out.stopped))?;
    for s in &out.stopped {
        crate::outln!("{}", s.note())?;
    }
    if !out.not_run.is_empty() {
        let names: Vec<String> = out.not_run.iter().map(Variant::to_string).collect();
        crate::outln!(
            "NOT RUN (stopped before they started): {}",
            names.join(", ")
        )?;
    }
    crate::out!("{}", class_table(&out.all, &out.stopped))?;
    let run = plots::run_line(
        &a.workload,
        w.nodes,
        &mtbf,
        &res.downtime,
        &res.checkpoint,
        a.failures.as_deref(),
        a.seed,
    );
    write_outputs(&a, opts.readings, &run, &out, per_job)?;
    Ok(if out.failed_check {
        Exit::CheckFailed
    } else if out.is_partial() {
        Exit::Stopped
    } else {
        Exit::Ok
    })
}

/// Simulates variant `v` (stopping when `stop` asks), measures it, checks it and adds its jobs
/// to `per_job`.
fn run_variant(
    s: &Setup,
    v: Variant,
    stop: &Stop,
    per_job: Option<&mut JobsCsv>,
    out: &mut Results,
) -> Result<()> {
    let (a, w) = (s.a, s.w);
    let failures = match s.failure_list {
        Some(f) => f.clone(),
        None => FailureSource::poisson(a.seed, s.mtbf, w.nodes)?,
    };
    let t0 = Instant::now();
    let show = !a.quiet && std::io::stderr().is_terminal();
    let mut why = None;
    let mut progress = |done: usize, total: usize| {
        if show {
            crate::err!("\r{v}: {done}/{total} jobs completed");
        }
        why = stop.requested();
        if let Some(w) = &why {
            let clear = if show { "\r\x1b[K" } else { "" };
            crate::errln!(
                "{clear}{v}: stopping on {w} with {done}/{total} jobs completed; writing the \
                 partial results (Ctrl-C again to quit at once)"
            );
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let (r, budget) = (s.opts.readings, s.budget);
    let ending = simulate_read_reporting(w, s.res, failures, v, r, budget, &mut progress)?;
    if show {
        crate::err!("\r\x1b[K");
    }
    let (run, stopped) = match &ending {
        Ending::Complete(run) => (run, None),
        Ending::Stopped(p) => {
            let window = partial_window(s.pruning, w, &p.reached);
            let why = why.ok_or_else(|| internal_stop(v))?;
            (&p.run, Some(Stopped::new(p, why, window)))
        }
    };
    // A partial run is measured on its window, with the flow pruning of the whole run.
    let pruning = match &stopped {
        Some(st) => Pruning {
            window: Some(st.window.clone()),
            ..s.pruning.clone()
        },
        None => s.pruning.clone(),
    };
    let m = compute(run, &pruning);
    // The queue a complete run had halfway through its submissions and at the last one: a
    // growing queue (a saturated platform) is what makes the work per job grow.
    let waiting = match (&stopped, backlog(run)) {
        (None, Some(b)) => format!(
            "; {} jobs waiting at the median submission, {} at the last",
            b.at_median, b.at_last
        ),
        _ => String::new(),
    };
    crate::errln!(
        "{v}: {} in {:.2} s ({} events, {} checks of queued jobs' slots, {:.0} per event; {} \
         reservations moved earlier, {:.1} per job{waiting})",
        if stopped.is_some() {
            "stopped"
        } else {
            "simulated"
        },
        t0.elapsed().as_secs_f64(),
        run.stats.events,
        run.stats.plan_checks,
        run.stats.plan_checks as f64 / run.stats.events.max(1) as f64,
        run.stats.plan_moves,
        run.stats.plan_moves as f64 / run.jobs.len().max(1) as f64
    );
    if !a.no_check {
        out.failed_check |= !match &ending {
            // A partial run is checked against the workload of its completed jobs.
            Ending::Stopped(p) => checked(&p.workload(w), s.res, run, &m),
            Ending::Complete(_) => checked(w, s.res, run, &m),
        };
    }
    if let (Some(t), Some(path)) = (per_job, a.jobs_csv.as_deref()) {
        match &ending {
            Ending::Stopped(p) => t.add_partial(p, s.pruning, path)?,
            Ending::Complete(_) => t.add(run, s.pruning, path)?,
        }
    }
    if let Some(dir) = &a.batsim_dir {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let path = dir.join(format!("{v}_jobs.csv"));
        write_atomic(&path, crate::batsim::steal_csv(run)?.as_bytes())?;
        let partial = if stopped.is_some() { " (PARTIAL)" } else { "" };
        crate::outln!("batsim jobs{partial}: {}", path.display())?;
    }
    out.all.push(m);
    out.stopped.extend(stopped);
    Ok(())
}

/// A stopped run whose callback recorded no reason: the simulation stops only when asked.
fn internal_stop(v: Variant) -> Error {
    Error::Scheduler {
        algo: v.to_string(),
        time: "-".into(),
        msg: "the simulation stopped without a stop request".into(),
    }
}

/// The window of a partial run's utilization and decomposition: the measurement window (by
/// default from the first submission) cut at the instant reached; empty when that window starts
/// after it.
fn partial_window(p: &Pruning, w: &Workload, reached: &Time) -> (Time, Time) {
    let (a, b) = match &p.window {
        Some(win) => win.clone(),
        None => (first_submission(w), reached.clone()),
    };
    let b = b.min(reached.clone());
    (a.min(b.clone()), b)
}

/// The first submission of `w` (the workload is never empty: its reader refuses that).
fn first_submission(w: &Workload) -> Time {
    w.jobs
        .iter()
        .map(|j| &j.release)
        .min()
        .cloned()
        // default: a workload with no job starts at 0
        .unwrap_or_default()
}

/// `--measure` on this workload, with `--window` (shifted to the first submission) and
/// `--prune-jobs` overriding its parts.
fn pruning(o: &Options, w: &Workload, source: &str) -> Result<Pruning> {
    let mut p = o.measure.pruning(w, source)?;
    if let Some(pct) = o.prune_jobs {
        p.drop_first_pct = pct;
        p.drop_last_pct = pct;
    }
    if let Some((x, y)) = &o.window {
        let first = first_submission(w);
        p.window = Some((&first + x, &first + y));
    }
    Ok(p)
}

/// The measurement line of the report: the rule, the window and the flow pruning.
fn measure_line(o: &Options, p: &Pruning) -> String {
    let window = match &p.window {
        Some((x, y)) => format!("[{}, {}) s", x.to_decimal_string(0), y.to_decimal_string(0)),
        None => "[first submission, last completion)".to_string(),
    };
    format!(
        "measure: {} (utilization window {window}; flows without the first {}% and last {}% of jobs)",
        o.measure, p.drop_first_pct, p.drop_last_pct
    )
}

/// Every output path can be written (before the simulation).
fn check_outputs(a: &Args) -> Result<()> {
    let workload = (!a.workload.starts_with("synthetic")).then(|| Path::new(&a.workload));
    super::args::distinct_files(&[
        ("--workload", workload),
        ("--failures", a.failures.as_deref()),
        ("--csv", a.csv.as_deref()),
        ("--jobs-csv", a.jobs_csv.as_deref()),
    ])?;
    if let Some(p) = &a.csv {
        outputs::check_file(p, "--csv")?;
    }
    if let Some(p) = &a.jobs_csv {
        outputs::check_file(p, "--jobs-csv")?;
    }
    if let Some(d) = &a.plots {
        outputs::check_dir(d, "--plots")?;
    }
    if let Some(d) = &a.batsim_dir {
        outputs::check_dir(d, "--batsim-dir")?;
    }
    Ok(())
}

/// The nodes failures strike (N in μ = μ_ind/N) and where that number came from
/// ([`trace::Conversion::failing_nodes`]).
struct Failing {
    nodes: u32,
    rule: &'static str,
}

/// The workload named by `--workload`, a line describing it, whether it is synthetic, and
/// the nodes failures strike.
fn load_workload(a: &Args) -> Result<(Workload, String, bool, Failing)> {
    if a.workload.starts_with("synthetic") {
        let s = Synthetic::parse(&a.workload, a.seed)?;
        let w = s.generate()?;
        let note = format!(
            "Table 6 synthetic workload (seed {}){}",
            s.seed,
            load_note(&w)
        );
        let failing = Failing {
            nodes: w.nodes,
            rule: "the platform's",
        };
        return Ok((w, note, true, failing));
    }
    if resched::stealing::batsim::is_batsim_workload(&a.workload) {
        let (w, note) = batsim_workload::load(a)?;
        let note = format!("{note}{}", load_note(&w));
        let failing = Failing {
            nodes: w.nodes,
            rule: "the platform's",
        };
        return Ok((w, note, false, failing));
    }
    let (w, c) = trace::load(
        std::path::Path::new(&a.workload),
        trace::Sizing {
            nodes: a.nodes,
            procs_per_node: a.procs_per_node,
            max_job_nodes: a.max_job_nodes,
        },
    )?;
    // Whole nodes raise the load the platform sees: say by how much, as a growing queue
    // (and a long run) often comes from there.
    let rounding = match c.rounded_up {
        0 => String::new(),
        n => format!(
            "; {n} jobs on a processor count that is not a multiple of {} hold whole nodes, \
             leaving {:.1}% of the processor-time held idle",
            c.procs_per_node,
            100.0 * c.idle_share().to_f64()
        ),
    };
    let note = format!(
        "{}: {} jobs on {} nodes (from {}) of {} processors (from {}); {}, {} runs cut to their walltime, {} without walltime, {} reduced to --max-job-nodes{rounding}{}",
        a.workload,
        w.jobs.len(),
        w.nodes,
        super::flags_in("steal", c.platform_rule),
        c.procs_per_node,
        super::flags_in("steal", c.procs_per_node_rule),
        c.dropped,
        c.cut_to_walltime,
        c.no_walltime,
        c.reduced,
        load_note(&w)
    );
    let failing = Failing {
        nodes: c.failing_nodes,
        rule: c.failing_rule,
    };
    Ok((w, note, false, failing))
}

/// The offered load for the workload line ([`Workload::offered_load`]), and what it means
/// for the run when the platform is too small for the log's own submissions.
fn load_note(w: &Workload) -> String {
    let Some(load) = w.offered_load() else {
        return String::new();
    };
    let past = if load > Time::one() {
        ": the platform is past its capacity before any failure, so the queue grows through \
         the run (give the machine's size with --nodes)"
    } else {
        ""
    };
    format!(
        "; offered load {} (node-time asked for over the node-time between the first and last submissions){past}",
        load.to_decimal_string(2)
    )
}

/// The resilience parameters from the options and the defaults (Section 6.3's for the
/// synthetic workload), and the platform MTBF: a node MTBF μ_ind (the default's or
/// `--node-mtbf`) gives μ = μ_ind/N with N the nodes failures strike (`failing`). Each of
/// the platform's nodes then fails with MTBF μ times its size, which is what the Young/Daly
/// period is computed from, as the failures are drawn.
fn resilience(
    o: &Options,
    w: &Workload,
    synthetic: bool,
    failing: &Failing,
) -> Result<(Resilience, Time)> {
    let defaults = if synthetic {
        paper_resilience(w.nodes)
    } else {
        Resilience::trace_defaults()
    };
    let per_node = |ind: &Time, name: &str| -> Result<Time> {
        let m = ind
            .div_int(u64::from(failing.nodes))
            .ok_or_else(|| Error::option(name, "the platform has no nodes"))?;
        // The message names the platform MTBF this node MTBF gives, which is what is drawn.
        limits::check_mean_gap(&m, name).map_err(|e| match e {
            Error::Param { msg, .. } => {
                Error::option(name, format!("μ_ind/N on {} nodes: {msg}", failing.nodes))
            }
            e => e,
        })?;
        Ok(m)
    };
    let mtbf = match &o.mtbf {
        Some(Rate::Platform(m)) => m.clone(),
        Some(Rate::Node(ind)) => per_node(ind, "--node-mtbf")?,
        None => match &defaults.mtbf_ind {
            Some(ind) => per_node(ind, "--mtbf")?,
            None => return Err(Error::option("--mtbf", "no default MTBF here: give --mtbf")),
        },
    };
    // default: the workload's documented default C when --checkpoint is absent
    let checkpoint = o.checkpoint.clone().unwrap_or(defaults.checkpoint);
    let res = Resilience {
        // default: the workload's documented default D when --downtime is absent
        downtime: o.downtime.clone().unwrap_or(defaults.downtime),
        // default: R = C when --recovery is absent (documented)
        recovery: o.recovery.clone().unwrap_or_else(|| checkpoint.clone()),
        checkpoint,
        mtbf_ind: Some(mtbf.mul_int(u64::from(w.nodes))),
    };
    res.validate()?;
    // unreachable: an empty workload is refused when it is read, so some job has a size
    let largest = w.jobs.iter().map(|j| j.nodes).max().unwrap_or(1);
    limits::check_job_mtbf(
        &mtbf.mul_int(u64::from(w.nodes)),
        largest,
        &res.checkpoint,
        &res.recovery,
    )
    .map_err(|e| blame_costs(o, e))?;
    Ok((res, mtbf))
}

/// The error of μ_ind/p ≤ C + R named by the option the user gave: `--checkpoint` or
/// `--recovery` when the MTBF is the default and a cost was given (the cost is what is out of
/// range), the MTBF otherwise.
fn blame_costs(o: &Options, e: Error) -> Error {
    let given = if o.checkpoint.is_some() {
        "checkpoint"
    } else {
        "recovery"
    };
    match e {
        Error::Param { name, msg }
            if name == "mtbf_ind"
                && o.mtbf.is_none()
                && (o.checkpoint.is_some() || o.recovery.is_some()) =>
        {
            Error::param(given, msg)
        }
        e => e,
    }
}

/// The platform line of the report.
fn print_platform(
    a: &Args,
    w: &Workload,
    res: &Resilience,
    mtbf: &Time,
    failing: &Failing,
    from: &str,
) -> Result<()> {
    // The node MTBF in days as well, and where it comes from: a platform MTBF of 1 h means
    // nodes failing every 5.6 years on Mira but every 6 days on a 144-node machine, which
    // saturates it; so the default failure rate keeps the paper's nodes.
    // Failures strike the machine's nodes, which are not the platform's on a machine of
    // unlike nodes (CEA-Curie): say which, as μ_ind is theirs.
    let ind = mtbf.mul_int(u64::from(failing.nodes));
    let days = ind
        .div_int(86_400)
        .map(|d| format!(" = {} days", d.to_decimal_string(1)))
        // default: unreachable, the divisor is not zero
        .unwrap_or_default();
    let machine = if failing.nodes == w.nodes {
        String::new()
    } else {
        format!(
            " per node of the machine's {} ({})",
            failing.nodes, failing.rule
        )
    };
    crate::outln!(
        "platform: {} nodes, MTBF {} s (μ_ind = {} s{days}{machine}, {from}), D = {} s, C = {} s, R = {} s, failures: {}",
        w.nodes,
        mtbf.to_decimal_string(1),
        ind.to_decimal_string(0),
        res.downtime.to_decimal_string(1),
        res.checkpoint.to_decimal_string(1),
        res.recovery.to_decimal_string(1),
        match &a.failures {
            Some(p) => p.display().to_string(),
            None => format!("Poisson, seed {}", a.seed),
        }
    )
}

/// Runs the independent checker on `run`; false (with the reason on stderr) if it refuses the
/// run or its decomposition differs from the metrics'.
fn checked(w: &Workload, res: &Resilience, run: &Run, m: &Metrics) -> bool {
    let v = run.variant;
    match check(w, res, run, Some(m.window.clone())) {
        Ok(tot) if tot.idle == m.decomposition.idle && tot.useful == m.decomposition.useful => true,
        Ok(_) => {
            crate::errln!("{v}: the checker's decomposition differs from the metrics'");
            false
        }
        Err(e) => {
            crate::errln!("{v}: checker: {e}");
            false
        }
    }
}

/// `--csv`, `--jobs-csv` and `--plots`.
fn write_outputs(
    a: &Args,
    readings: Readings,
    run: &str,
    out: &Results,
    per_job: Option<JobsCsv>,
) -> Result<()> {
    let partial = if out.is_partial() { " (PARTIAL)" } else { "" };
    if let Some(p) = &a.csv {
        write_atomic(p, csv(&out.all, &out.stopped)?.as_bytes())?;
        crate::outln!("csv{partial}: {}", p.display())?;
    }
    if let (Some(t), Some(p)) = (per_job, &a.jobs_csv) {
        write_atomic(p, &t.into_bytes(p)?)?;
        crate::outln!("jobs csv{partial}: {}", p.display())?;
    }
    if let Some(dir) = &a.plots {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        for f in plots(&out.all, &out.stopped, out.is_partial(), readings, run, dir)? {
            crate::outln!("plot: {}", f.display())?;
        }
    }
    Ok(())
}
