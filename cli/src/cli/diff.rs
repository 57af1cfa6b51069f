//! `resched diff`: differential testing of another implementation against the oracle
//! ([`crate::diff`], whose module doc specifies the protocols), and the adapter for the
//! rigid paper's simulator output (`--peer-*`).
//!
//! Exit codes: 0 all answers agree, 1 a mismatch (shrunk and written) or, with `--replay`, a
//! file whose pins are not today's resched answer, 2 bad input or usage (and a report that
//! could not be written to standard output).
use super::Exit;
use crate::diff::compare::{both, Rules, Verdict};
use crate::diff::counterexample::{self, rule_args};
use crate::diff::run::{self, Config, Found, Stats};
use crate::diff::scope::{self, Scope};
use crate::diff::shrink::Stop;
use crate::diff::template::Template;
use crate::diff::{peer, External, Protocol};
use resched::error::{Error, Result};
use resched::schedulers::Priority;
use resched::time::Time;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod campaign;

/// Arguments of `resched diff`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Placeholders of --cmd: {instance} {scenario} (file paths), {algo} {priority} {seed} {eps} {case}; {{ and }} are literal braces.\n\
The program prints a makespan (17, 7/2, 3.5) or a schedule ({\"attempts\": [...]}, or the object of `resched simulate --json`).\n\
--protocol jsonl: one process, one request line {\"format_version\":1,\"id\",\"instance\",\"scenario\",\"algo\",\"priority\",\"seed\",\"eps\"} and one response line {\"id\",\"makespan\"|\"schedule\"|\"error\"} per case.\n\
Example: resched diff --cmd 'python3 sim.py {instance} {scenario} {algo} {priority}' --cases 500 --procs 1..6 --jobs 1..5\n\
Peer mode: resched diff --peer-instance sample_1_0.3 --peer-failures failures_sample_1_0.3 --peer-output out.txt"
)]
pub struct Args {
    /// The other implementation: a command template (placeholders below), split into words
    /// like a shell would, but run without one.
    #[arg(
        long,
        required_unless_present = "peer_instance",
        conflicts_with = "peer_instance"
    )]
    pub cmd: Option<String>,
    /// `template`: one process per case; `jsonl`: one process answering a JSON line per case.
    #[arg(long, value_enum, default_value = "template")]
    pub protocol: Protocol,
    /// Seconds each answer may take before the program is killed and reported.
    #[arg(long, default_value = "10")]
    pub timeout: String,
    /// Seed of the random cases (case i of a seed is always the same case).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of cases to draw (cases 0..N).
    #[arg(long, default_value_t = 1000)]
    pub cases: u64,
    /// Run only case I of the seed (to reproduce one).
    #[arg(long)]
    pub case: Option<u64>,
    /// Processors P, an inclusive range A..B (or one number).
    #[arg(long, default_value = "1..8")]
    pub procs: String,
    /// Number of jobs n, an inclusive range A..B.
    #[arg(long, default_value = "1..6")]
    pub jobs: String,
    /// Times: mixed[:K/D] (half integers 1..K, half fractions a/b in (0, K], 2 ≤ b ≤ D;
    /// default mixed:4/4), grid:K (integers 1..K) or rational[:N/D] (a/b, a ≤ N, b ≤ D;
    /// rational alone is 12/4).
    #[arg(long, default_value = "mixed:4/4")]
    pub times: String,
    /// Most failures of a job (f_j is drawn in 0..=F).
    #[arg(long, default_value_t = 2)]
    pub failures: u32,
    /// rigid, moldable or mixed, the last two optionally followed by :MODELS; models: roofline,
    /// communication, amdahl, mix, power, monotonic, arbitrary (default: all but power).
    #[arg(long, default_value = "rigid")]
    pub jobs_kind: String,
    /// Algorithm(s): catalogue names, comma-separated, or all, all-rigid, all-moldable.
    #[arg(long, default_value = "greedy")]
    pub algo: String,
    /// Priority rule (default lpt).
    #[arg(long)]
    pub priority: Option<String>,
    /// Seed of the RANDOM priority ({seed}).
    #[arg(long, default_value_t = 0)]
    pub algo_seed: u64,
    /// BATCH-LIST's ε (exact; default 3/10), for the algorithms that take one.
    #[arg(long)]
    pub eps: Option<String>,
    /// Accept makespans within this relative difference (for floating-point programs); exact
    /// by default (peer mode: 1e-5).
    #[arg(long)]
    pub rel_tol: Option<String>,
    /// What is compared when the program prints a schedule: `schedules` (checked, then
    /// compared attempt by attempt: other decisions with the same makespan are a mismatch) or
    /// `makespans` (checked, then compared by makespan; other decisions are a note).
    #[arg(long, value_enum, default_value = "schedules")]
    pub compare: Compared,
    /// The same as --compare schedules, the default (kept for existing scripts).
    #[arg(long, conflicts_with = "compare")]
    pub same_schedule: bool,
    /// An answer that is the algorithm's under another breaking of an exact tie of its own
    /// criterion (LPA's r(α, β), MINTIME's t, MINAREA's area, equal priority keys) is reported
    /// as a tie, not a mismatch: for floating-point programs.
    #[arg(long)]
    pub ties: bool,
    /// Most runs while shrinking a mismatch (no count by default: --shrink-time bounds it).
    #[arg(long)]
    pub shrink_budget: Option<usize>,
    /// Seconds shrinking a mismatch may take; it stops earlier at a local minimum, and the
    /// report says which ended it.
    #[arg(long, default_value = "60")]
    pub shrink_time: String,
    /// Where to write the shrunk counterexample (a golden case), with .instance.json and
    /// .scenario.json beside it.
    #[arg(long, default_value = "diff-counterexample.json")]
    pub out: PathBuf,
    /// Re-run the case of a counterexample file (no drawing, no shrinking).
    #[arg(long, conflicts_with_all = ["case", "cases", "procs", "jobs", "times", "failures", "jobs_kind", "algo", "priority", "algo_seed", "eps", "peer_instance"])]
    pub replay: Option<PathBuf>,
    /// Do not stop at the first mismatch: report the mismatch rate, the classes of mismatch,
    /// and one shrunk counterexample per distinct signature (OUT-1.json, OUT-2.json, …).
    #[arg(long, conflicts_with = "peer_instance")]
    pub keep_going: bool,
    /// Cases run in parallel, each worker with a program (or JSONL session) of its own; the
    /// report does not depend on it.
    #[arg(long, default_value_t = 1)]
    pub workers: usize,
    /// Run the case files of a folder (golden cases, earlier counterexamples) instead of drawn
    /// cases, with the algorithms their expectations name.
    #[arg(long, conflicts_with_all = ["case", "cases", "procs", "jobs", "times", "failures", "jobs_kind", "algo", "priority", "algo_seed", "eps", "peer_instance", "replay"])]
    pub corpus: Option<PathBuf>,
    /// Print a progress line on standard error even when it is not a terminal.
    #[arg(long)]
    pub progress: bool,
    /// Print a JSON summary (counts, rate, classes, counterexample files, flaky ones) instead of
    /// the text report.
    #[arg(long, conflicts_with = "replay")]
    pub json: bool,
    /// Peer mode: the rigid paper simulator's instance file.
    #[arg(long, requires_all = ["peer_failures", "peer_output"])]
    pub peer_instance: Option<PathBuf>,
    /// Peer mode: its failure file (one scenario per line).
    #[arg(long, requires = "peer_instance")]
    pub peer_failures: Option<PathBuf>,
    /// Peer mode: what the simulator printed (one `makespan lower_bound failures` line per
    /// scenario).
    #[arg(long, requires = "peer_instance")]
    pub peer_output: Option<PathBuf>,
    /// Peer mode: compare only the first N scenarios.
    #[arg(long, requires = "peer_instance")]
    pub scenarios: Option<usize>,
}

/// What `--compare` compares when the program prints a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Compared {
    Schedules,
    Makespans,
}

/// Runs the command.
pub fn run(a: Args) -> Result<Exit> {
    if let (Some(i), Some(f), Some(o)) = (&a.peer_instance, &a.peer_failures, &a.peer_output) {
        return run_peer(&a, i, f, o);
    }
    let Some(cmd) = &a.cmd else {
        return Err(Error::option(
            "cmd",
            "--cmd is required (or the --peer-* files)",
        ));
    };
    // Declared before everything that starts programs, so that it is dropped after them.
    let _supervisor = crate::diff::supervise::Supervisor::start();
    let mut ext = External::new(Template::parse(cmd)?, a.protocol, timeout(&a.timeout)?)?;
    let rules = Rules {
        rel_tol: tolerance(a.rel_tol.as_deref())?,
        same_schedule: a.same_schedule || a.compare == Compared::Schedules,
        ties: a.ties,
    };
    if let Some(path) = &a.replay {
        return replay(path, &mut ext, &rules);
    }
    let cfg = config(&a, rules)?;
    // Where the counterexample goes is checked before the cases run, not after.
    crate::cli::steal::outputs::check_file(&a.out, "--out")?;
    super::args::diff_outputs_distinct(&a.out, cmd)?;
    let mut out = String::new();
    out.push_str(&format!(
        "diff: {} against `{}` ({} protocol); {} of seed {}: {}\n",
        cfg.algos
            .iter()
            .map(run::Algo::label)
            .collect::<Vec<_>>()
            .join(", "),
        cmd,
        counterexample::protocol_name(a.protocol),
        match cfg.only {
            Some(i) => format!("case {i}"),
            None => format!("cases 0..{}", cfg.cases),
        },
        cfg.seed,
        cfg.scope.args()
    ));
    campaign::run(&a, cfg, cmd, &ext, &out)
}

/// Prints to standard output, with the control characters another program may have printed
/// escaped ([`escape_controls`]). A write error is an error (exit 2; a closed pipe ends quietly,
/// see [`crate::out`]), never a lost report with exit 0.
fn say(s: &str) -> Result<()> {
    crate::out!("{}", escape_controls(s))
}

pub use crate::diff::answer::escape_controls;

fn timeout(s: &str) -> Result<Duration> {
    seconds("timeout", s)
}

/// A number of seconds in (0, 86400] for `option`.
fn seconds(option: &str, s: &str) -> Result<Duration> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| Error::option(option, format!("`{s}` is not a number of seconds")))?;
    if !(v.is_finite() && v > 0.0 && v <= 86_400.0) {
        return Err(Error::option(
            option,
            format!("{s} must be in (0, 86400] seconds"),
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

fn tolerance(s: Option<&str>) -> Result<Option<Time>> {
    let Some(s) = s else { return Ok(None) };
    let t: Time = s
        .parse()
        .map_err(|e| Error::option("rel-tol", format!("{e}")))?;
    if t.is_negative() {
        return Err(Error::option("rel-tol", format!("{s} must be ≥ 0")));
    }
    Ok(Some(t))
}

fn config(a: &Args, rules: Rules) -> Result<Config> {
    let s = Scope {
        procs: scope::parse_range("procs", &a.procs, 1, scope::MAX_PROCS)?,
        jobs: scope::parse_range("jobs", &a.jobs, 1, scope::MAX_JOBS)?,
        times: scope::parse_times(&a.times)?,
        failures: a.failures,
        kind: scope::parse_kind(&a.jobs_kind)?,
    };
    s.validate()?;
    let priority = match &a.priority {
        Some(p) => p.parse::<Priority>()?,
        None => Priority::Lpt,
    };
    let eps = match &a.eps {
        Some(e) => Some(
            e.parse::<Time>()
                .map_err(|err| Error::option("eps", format!("{err}")))?,
        ),
        None => None,
    };
    let algos = run::algos(&a.algo, priority, a.algo_seed, eps.as_ref(), s.is_rigid())?;
    if a.cases == 0 && a.case.is_none() {
        return Err(Error::option("cases", "must be at least 1"));
    }
    Ok(Config {
        scope: s,
        seed: a.seed,
        cases: a.cases,
        only: a.case,
        algos,
        rules,
        // default: no count of runs; the wall-clock --shrink-time bounds the shrink
        shrink_budget: a.shrink_budget.unwrap_or(usize::MAX),
        shrink_time: Some(seconds("shrink-time", &a.shrink_time)?),
    })
}

fn summary(s: &Stats, rules: &Rules) -> String {
    let ties = if s.ties > 0 {
        format!(", {} decisions on exact ties (--ties)", s.ties)
    } else {
        String::new()
    };
    let mut out = format!(
        "  {} cases, {} comparisons: {} agree, {} same makespan with other decisions (notes){ties}\n  {:.2} s, {:.0} cases/s\n",
        s.cases,
        s.runs,
        s.agree,
        s.notes,
        s.elapsed.as_secs_f64(),
        s.rate()
    );
    out.push_str(&compared(s, rules));
    for n in &s.first_notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    for n in &s.first_ties {
        out.push_str(&format!("  tie: {n}\n"));
    }
    out
}

/// What the comparisons compared: the program's schedules, or makespans only (and why).
fn compared(s: &Stats, rules: &Rules) -> String {
    let makespans = s.runs - s.schedules.min(s.runs);
    let what = match (s.schedules, makespans, rules.same_schedule) {
        (0, 0, _) => return String::new(),
        (_, 0, true) => {
            "schedules (each checked, then compared with resched's attempt by attempt)".to_string()
        }
        (0, _, _) => {
            "makespans (the program printed makespans only; print schedules to compare decisions)"
                .to_string()
        }
        (_, 0, false) => {
            "makespans (--compare makespans: each schedule checked, other decisions only noted)"
                .to_string()
        }
        (k, m, true) => {
            format!("schedules on {k} answers, makespans on {m} (answers without a schedule)")
        }
        (k, m, false) => {
            format!("makespans ({k} schedules checked, {m} makespans alone; --compare makespans)")
        }
    };
    format!("  compared: {what}\n")
}

/// The mismatch, its shrinking, the files written and the reproduction commands.
fn report_found(found: &Found, cfg: &Config, ext: &External, out: &Path) -> Result<String> {
    let algo = &cfg.algos[found.algo];
    let first = found
        .first
        .mismatch()
        .map(|m| format!("{}: {}", m.kind.name(), m.detail))
        // default: no mismatch, no detail
        .unwrap_or_default();
    let shrunk = &found.shrunk;
    let c = &shrunk.case;
    let mut s = format!(
        "MISMATCH on case {} ({}), {first}\n",
        found.case,
        algo.label()
    );
    let sizes = format!(
        "P {} → {}, jobs {} → {}, failures {} → {}",
        found.original.instance.procs,
        c.instance.procs,
        found.original.instance.len(),
        c.instance.len(),
        found.original.scenario.total_failures(),
        c.scenario.total_failures(),
    );
    let timed_out = found.first.mismatch().map(|m| m.kind) == Some(crate::diff::Kind::Timeout);
    let secs = found.shrink_time.as_secs_f64();
    s.push_str(&match (shrunk.stop, shrunk.steps) {
        (_, 0) if timed_out => "  not shrunk: every step that reproduced a timeout would wait for the whole limit\n".to_string(),
        (Stop::LocalMinimum, n) => format!(
            "  shrunk in {n} runs ({secs:.2} s) to a local minimum: {sizes}\n"
        ),
        (Stop::Runs, n) => format!(
            "  shrunk in {n} runs ({secs:.2} s), --shrink-budget ran out before a local minimum (smaller, not necessarily minimal): {sizes}\n"
        ),
        (Stop::Time, n) => format!(
            "  shrunk in {n} runs ({secs:.2} s), --shrink-time ran out before a local minimum (smaller, not necessarily minimal; give it more time): {sizes}\n"
        ),
    });
    let t = &shrunk.trial;
    if let Some(m) = t.mismatch() {
        s.push_str(&format!("  shrunk case, {}: {}\n", m.kind.name(), m.detail));
    }
    s.push_str(&format!(
        "  resched: makespan {} ({})\n",
        both(&t.ours.makespan),
        t.ours.algorithm
    ));
    if !t.reply.stderr.trim().is_empty() {
        s.push_str(&format!(
            "  other's stderr (end):\n{}\n",
            indent(&t.reply.stderr)
        ));
    }
    let file = counterexample::build(found, cfg, ext)?;
    let written = counterexample::write(&file, out)?;
    s.push_str(&format!(
        "  wrote {} (golden case), {}, {}\n  reproduce:\n",
        written[0].display(),
        written[1].display(),
        written[2].display()
    ));
    for c in counterexample::commands(out, found, cfg, ext) {
        s.push_str(&format!("    {c}\n"));
    }
    Ok(s)
}

fn indent(s: &str) -> String {
    let lines: Vec<&str> = s.trim_end().lines().collect();
    let tail = lines.len().saturating_sub(20);
    lines[tail..]
        .iter()
        .map(|l| format!("    | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `--replay FILE`: the file's case, once.
fn replay(path: &Path, ext: &mut External, rules: &Rules) -> Result<Exit> {
    let r = counterexample::load(path)?;
    // The file's rules unless the command line states its own.
    let rules = if rules == &Rules::default() {
        r.rules.clone()
    } else {
        rules.clone()
    };
    let t = run::trial(&r.case, &r.algo, r.record.case, ext, &rules)?;
    let mut s = format!(
        "replay {}: {} on P = {}, {} jobs, failures {:?} ({})\n  resched: makespan {}\n",
        path.display(),
        r.algo.label(),
        r.case.instance.procs,
        r.case.instance.len(),
        r.case.scenario.failures,
        rule_args(ext, &rules),
        both(&t.ours.makespan)
    );
    let (ours, theirs) = r.pins(&t);
    for p in &ours {
        s.push_str(&format!("  PIN DIFFERS: {p}\n"));
    }
    if !ours.is_empty() {
        s.push_str(
            "  the file's pins are not today's resched answer: the file was edited, or resched changed its answer\n",
        );
    }
    for p in &theirs {
        s.push_str(&format!(
            "  the other implementation's answer changed since the file was written: {p}\n"
        ));
    }
    let pins = if ours.is_empty() {
        Exit::Ok
    } else {
        Exit::CheckFailed
    };
    let exit = match &t.verdict {
        Verdict::Agree => {
            s.push_str("  agree: the other implementation now gives resched's answer\n");
            pins
        }
        Verdict::Note(d) => {
            s.push_str(&format!("  agree on the makespan; note: {d}\n"));
            pins
        }
        Verdict::Tie(d) => {
            s.push_str(&format!(
                "  a tie: the algorithm's answer under another breaking of exact ties: {d}\n"
            ));
            pins
        }
        Verdict::Mismatch(m) => {
            s.push_str(&format!("  MISMATCH ({}): {}\n", m.kind.name(), m.detail));
            if !t.reply.stderr.trim().is_empty() {
                s.push_str(&format!(
                    "  other's stderr (end):\n{}\n",
                    indent(&t.reply.stderr)
                ));
            }
            Exit::CheckFailed
        }
    };
    say(&s)?;
    Ok(exit)
}

fn run_peer(
    a: &Args,
    i: &std::path::Path,
    f: &std::path::Path,
    o: &std::path::Path,
) -> Result<Exit> {
    let rel_tol = match tolerance(a.rel_tol.as_deref())? {
        Some(t) => t,
        None => Time::new(1, 100_000).ok_or_else(|| Error::Limit("1e-5".into()))?,
    };
    let files = peer::Files {
        instance: i,
        failures: f,
        output: o,
        limit: a.scenarios,
    };
    let r = peer::compare(&files, &rel_tol)?;
    say(&peer::render(&r, &rel_tol, 20))?;
    Ok(if r.mismatches.is_empty() {
        Exit::Ok
    } else {
        Exit::CheckFailed
    })
}
