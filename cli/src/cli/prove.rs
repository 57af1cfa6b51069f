//! `resched prove`: the theorem ledger (`proofs/`) on the command line.
//!
//! - `resched prove <id> [--param k=v …]` rebuilds the entry's witness (rigid paper Props. 1–4,
//!   moldable paper Lemmas and Theorems of Section 4) and prints, for each algorithm the
//!   statement is about, the exact makespan, OPT (or L where OPT is out of reach), the ratio and
//!   the bound;
//! - `resched prove --all [--budget K]` prints the ledger as a Markdown table: for each
//!   statement the bound and the worst ratio seen on witnesses, random, exhaustive and
//!   adversarial cases, and the gap to the bound;
//! - `resched prove --list` lists the ids and their parameters;
//! - `resched prove --exhaustive [--large]` runs the exhaustive small-scope check alone;
//! - `resched prove --search <algo>[/<priority>] [--steps N] [--save DIR]` runs the adversarial
//!   search for one algorithm and saves the worst case as a golden case.
//!
//! Exit code 1 when a measured case breaks its statement.
//!
//! The files it writes name the build that made them ([`crate::provenance`]): `found.json` and
//! `parts.json` in a `resched` field, the golden cases of `--save` in the corpus's `resched`
//! field, `report.md` in its last line.
use super::Exit;
use crate::experiment::merge::{self, ShardDir};
use crate::experiment::runner::write_json;
use crate::experiment::shard::{Shard, ShardRecord, SHARD_FILE};
use crate::provenance::Stamped;
use resched::error::{Error, Result};
use resched::oracle::AlgoSpec;
use resched::schedulers::Priority;
use resched_proofs::exhaustive_moldable::{self as em, MoldableScope};
use resched_proofs::{adversary, exhaustive, sharded, Budget, Params, Source};
use std::path::PathBuf;

mod evidence;

/// Arguments of `resched prove`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Ledger entry id (e.g. rigid.prop2, moldable.thm12); see --list.
    pub id: Option<String>,
    /// A witness parameter, `name=value` (repeatable); see --list for each entry's parameters.
    #[arg(long = "param", value_name = "K=V")]
    pub params: Vec<String>,
    /// Print the whole ledger as a Markdown table.
    #[arg(long, conflicts_with_all = ["id", "list", "exhaustive", "search"])]
    pub all: bool,
    /// List the entries and their parameters.
    #[arg(long)]
    pub list: bool,
    /// Work multiplier of the checks (random cases, adversarial steps; ≥ 4 adds the exhaustive
    /// scope). `--all` defaults to 1; `prove <id>` defaults to 0 (the witness only).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Seed of the random and adversarial cases.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run the exhaustive small-scope checks (rigid and moldable) and print their reports.
    #[arg(long)]
    pub exhaustive: bool,
    /// With --exhaustive: the larger scope (also RESCHED_EXHAUSTIVE=large; RESCHED_EXHAUSTIVE=small
    /// is a tiny scope for trying the machinery, e.g. sharding).
    #[arg(long)]
    pub large: bool,
    /// Adversarial search for one algorithm, `name` or `name/priority` (e.g. greedy/lpt).
    #[arg(long, value_name = "ALGO")]
    pub search: Option<String>,
    /// Steps of the adversarial search.
    #[arg(long, default_value_t = 400)]
    pub steps: u64,
    /// Directory where --search saves its worst case (JSON golden case).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// With --search: K independent climbs of --steps each (climb k seeded by the seed and k;
    /// climb 0 is the one-climb search), the best kept; what --shard splits.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub restarts: u64,
    /// With --exhaustive or --search: compute only shard I of N (0 ≤ I < N) — of the scope's
    /// instances, of the search's climbs — and save it in --out; `resched merge` joins the N
    /// directories.
    #[arg(long, value_name = "I/N", requires = "out")]
    pub shard: Option<String>,
    /// With --exhaustive: also write the report (`report.md`) into this directory; with
    /// --search: the worst case found (`found.json`); a shard's part with --shard.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// With an id: print the statement and every witness (T, OPT or its bracket, the ratio
    /// exact and decimal) as JSON instead of text.
    #[arg(long, conflicts_with_all = ["all", "list", "exhaustive", "search"])]
    pub json: bool,
    /// With an id: write every witness's case into DIR (instance, scenario and U's schedule,
    /// listed with their re-check commands in DIR/ledger.json).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["all", "list", "exhaustive", "search"])]
    pub export: Option<PathBuf>,
}

/// Runs `resched prove`.
pub fn run(a: Args) -> Result<Exit> {
    check_outputs(&a)?;
    if a.list {
        for e in resched_proofs::ledger() {
            crate::outln!("{:<16} {} — {} [{}]", e.id, e.paper, e.section, e.kind)?;
            for p in e.params {
                crate::outln!("    --param {}=<{}> (default {})", p.name, p.doc, p.default)?;
            }
        }
        return Ok(Exit::Ok);
    }
    if a.exhaustive {
        return exhaustive(&a);
    }
    if let Some(name) = &a.search {
        return search(name, &a);
    }
    if a.shard.is_some() || a.out.is_some() || a.restarts != 1 {
        let flag = if a.shard.is_some() {
            "--shard"
        } else if a.out.is_some() {
            "--out"
        } else {
            "--restarts"
        };
        return Err(Error::option(
            flag,
            "applies to --exhaustive or --search only",
        ));
    }
    if a.all {
        let budget = Budget {
            seed: a.seed,
            // default: --budget 1 unless given (the documented default of --all)
            ..Budget::scaled(a.budget.unwrap_or(1))
        };
        let entries = resched_proofs::ledger();
        let reports: Vec<Result<resched_proofs::Report>> = entries
            .iter()
            .map(|e| Params::for_entry(e, &[]).and_then(|p| (e.check)(&p, &budget)))
            .collect();
        crate::outln!("{}", resched_proofs::markdown_table(&entries, &reports))?;
        let mut bad = false;
        for (e, r) in entries.iter().zip(&reports) {
            match r {
                Ok(rep) => {
                    for v in rep.violations() {
                        bad = true;
                        crate::outln!("- `{}` VIOLATION: {v}", e.id)?;
                    }
                    for n in &rep.notes {
                        crate::outln!("- `{}`: {n}", e.id)?;
                    }
                }
                Err(err) => {
                    bad = true;
                    crate::outln!("- `{}` ERROR: {err}", e.id)?;
                }
            }
        }
        return Ok(if bad { Exit::CheckFailed } else { Exit::Ok });
    }
    let Some(id) = &a.id else {
        return Err(Error::option(
            "<id>",
            "give a ledger id, or --all, --list, --exhaustive, --search",
        ));
    };
    let entry = resched_proofs::find(id)?;
    let params = Params::for_entry(entry, &a.params)?;
    if a.json || a.export.is_some() {
        return prove_json(entry, &params, &a);
    }
    crate::outln!(
        "{} ({} paper, {}) — {}",
        entry.id,
        entry.paper,
        entry.section,
        entry.kind
    )?;
    crate::outln!("{}", entry.statement)?;
    crate::outln!("bound: {}", entry.bound_text)?;
    let shown: Vec<String> = params.pairs().map(|(k, v)| format!("{k}={v}")).collect();
    if !shown.is_empty() {
        crate::outln!("parameters: {}", shown.join(" "))?;
    }
    if let Some(w) = entry.witness {
        let w = w(&params)?;
        crate::outln!(
            "witness: P = {}, {} jobs, {} failures — {}",
            w.instance.procs,
            w.instance.len(),
            w.scenario.total_failures(),
            w.claim
        )?;
    } else if let resched_proofs::Kind::Claim { gap } = entry.kind {
        crate::outln!("claim: {gap}")?;
    }
    let rep = (entry.check)(&params, &entry_budget(&a))?;
    for m in &rep.witness {
        crate::outln!(
            "{:<28} makespan {} ({})  {}  ratio {}  bound {}  {}",
            m.algo,
            m.makespan,
            m.makespan.to_decimal_string(6),
            m.opt,
            resched_proofs::show_ratio(&m.ratio),
            resched_proofs::show_ratio(&m.bound),
            if m.holds { "holds" } else { "BROKEN" }
        )?;
    }
    for s in [
        Source::Witness,
        Source::Random,
        Source::Exhaustive,
        Source::Adversarial,
    ] {
        if let Some(t) = rep.get(s) {
            if let Some((w, case)) = &t.worst {
                // A claim entry measures certified ratios (Measurement::certified): say so.
                let how = match entry.kind {
                    resched_proofs::Kind::Claim { .. } => {
                        " (certified: T over a checked schedule's U)"
                    }
                    _ => "",
                };
                crate::outln!(
                    "{s:?}: {} measurements, worst ratio{how} {} — {case}",
                    t.measured,
                    resched_proofs::show_ratio(w)
                )?;
            }
        }
    }
    for n in &rep.notes {
        crate::outln!("note: {n}")?;
    }
    let v = rep.violations();
    for x in &v {
        crate::outln!("VIOLATION: {x}")?;
    }
    Ok(if v.is_empty() {
        Exit::Ok
    } else {
        Exit::CheckFailed
    })
}

/// The output directories, checked before any work (an exhaustive scope or a search may run
/// for hours, and a directory that cannot be made must not be found only at the end): each
/// exists as a writable directory or can be created; `--save` is refused where nothing would
/// be saved; and no option names, as its directory, a file another option writes
/// ([`super::args::distinct_files`]).
fn check_outputs(a: &Args) -> Result<()> {
    if a.save.is_some() && a.search.is_none() {
        return Err(Error::option("--save", "applies to --search only"));
    }
    if a.save.is_some() && a.shard.is_some() {
        return Err(Error::option(
            "--save",
            "a shard saves no golden case (its climbs go to --out, and `resched merge` keeps the worst): give --save to a search without --shard",
        ));
    }
    for (flag, dir) in [
        ("--save", &a.save),
        ("--out", &a.out),
        ("--export", &a.export),
    ] {
        if let Some(d) = dir {
            super::steal::outputs::check_dir(d, flag)?;
        }
    }
    let out_files: Vec<PathBuf> = match &a.out {
        Some(out) if a.shard.is_some() => [SHARD_FILE, PARTS_FILE, FOUND_FILE]
            .iter()
            .map(|f| out.join(f))
            .collect(),
        Some(out) => vec![out.join(FOUND_FILE), out.join(REPORT_FILE)],
        None => Vec::new(),
    };
    for f in &out_files {
        super::args::distinct_files(&[("--out", Some(f)), ("--save", a.save.as_deref())])?;
    }
    Ok(())
}

/// Removes the temporaries an earlier, killed run left in `dir` and its sub-directories
/// (a shard's directory, an export's witness folders), which nothing else would ever remove;
/// called only once `dir` is known to be this run's own (the same shard, or the export asked
/// for), and says how many it removed.
fn remove_stale(dir: &std::path::Path) -> Result<()> {
    let n = resched::error::remove_stale_temporaries_below(dir)?;
    if n > 0 {
        crate::errln!(
            "removed {n} temporary file(s) an earlier, interrupted run left in {}",
            dir.display()
        );
    }
    Ok(())
}

/// The budget of `prove <id>`: the witness only unless --budget is given.
fn entry_budget(a: &Args) -> Budget {
    // default: no --budget means no extra checks (documented)
    let k = a.budget.unwrap_or(0);
    Budget {
        seed: a.seed,
        ..if k == 0 {
            Budget {
                random: 0,
                adversarial: 0,
                ..Budget::quick()
            }
        } else {
            Budget::scaled(k)
        }
    }
}

/// `prove <id> --json` and/or `--export DIR`: the entry's evidence as JSON (printed with
/// --json), every witness's case written into DIR with `ledger.json` (with --export).
fn prove_json(entry: &resched_proofs::Entry, params: &Params, a: &Args) -> Result<Exit> {
    let witness = entry.witness.map(|w| w(params)).transpose()?;
    let rep = (entry.check)(params, &entry_budget(a))?;
    if let Some(dir) = &a.export {
        remove_stale(dir)?;
    }
    let files = match &a.export {
        Some(dir) => Some(evidence::export(dir, &rep)?),
        None => None,
    };
    let doc = evidence::entry_json(entry, params, witness.as_ref(), &rep, files.as_deref())?;
    if let Some(dir) = &a.export {
        let path = evidence::write_ledger(dir, &doc)?;
        let n = files.iter().flatten().flatten().count();
        if !a.json {
            crate::outln!(
                "{}: {n} witnesses exported to {} (listed in {})",
                entry.id,
                dir.display(),
                path.display()
            )?;
        }
    }
    if a.json {
        let text = serde_json::to_string_pretty(&doc).map_err(|e| Error::json("output", &e))?;
        crate::outln!("{text}")?;
    }
    Ok(if rep.holds() {
        Exit::Ok
    } else {
        Exit::CheckFailed
    })
}

/// `--search name[/priority]`.
fn search(name: &str, a: &Args) -> Result<Exit> {
    if let Some(model) = name.strip_prefix("lpa-list:") {
        return search_lpa(model, a);
    }
    let (algo, prio) = match name.split_once('/') {
        Some((n, p)) => (n, Some(p.parse::<Priority>()?)),
        None => (name, None),
    };
    let spec = AlgoSpec {
        priority: prio,
        seed: a.seed,
        ..AlgoSpec::new(algo)
    };
    let Some(found) = searched(a, &|b| adversary::search_rigid(&spec, b))? else {
        return Ok(Exit::Ok);
    };
    crate::outln!(
        "{}: worst makespan/OPT found {} after {} evaluations: makespan {}, {}\n{}\nfailures {:?}",
        found.algo,
        resched_proofs::show_ratio(&found.ratio),
        found.evaluations,
        found.makespan,
        found.opt,
        found.instance.to_json(),
        found.scenario.failures
    )?;
    if let Some(dir) = &a.save {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let file = dir.join(format!(
            "{}-seed{}.json",
            found.algo.replace('/', "-").to_lowercase(),
            a.seed
        ));
        let note = format!(
            "adversarial search (seed {}, {} steps): makespan/OPT = {}",
            a.seed, a.steps, found.ratio
        );
        let prio = spec
            .priority
            .map(|p| p.name().to_string())
            // default: LPT is the documented default priority
            .unwrap_or_else(|| "lpt".into());
        let expect = [(spec.name.clone(), prio, found.makespan.clone())];
        resched::error::write_atomic(&file, golden_json(&found, &expect, &note)?.as_bytes())?;
        crate::outln!("saved {}", file.display())?;
    }
    Ok(Exit::Ok)
}

/// [`adversary::golden_json`] with the build that wrote the case.
fn golden_json(
    found: &adversary::Found,
    expect: &[(String, String, resched::time::Time)],
    note: &str,
) -> Result<String> {
    let mut case = adversary::golden_case(found, expect, note)?;
    case.resched = Some(crate::provenance::this_build().json_map());
    case.to_json()
}

/// `--search lpa-list:<model>` (communication, amdahl, mix, roofline): the gaps of the moldable
/// paper's Theorems 3, 5, 7. Saves `lpa-list-<model>.json` (what the ledger re-checks).
fn search_lpa(model: &str, a: &Args) -> Result<Exit> {
    use resched::model::speedup::ModelKind;
    let kind = match model {
        "communication" => ModelKind::Communication,
        "amdahl" => ModelKind::Amdahl,
        "mix" => ModelKind::Mix,
        "roofline" => ModelKind::Roofline,
        _ => {
            return Err(Error::option(
                "--search",
                format!("lpa-list:{model}: expected communication, amdahl, mix or roofline"),
            ))
        }
    };
    let Some(found) = searched(a, &|b| adversary::search_lpa(kind, b))? else {
        return Ok(Exit::Ok);
    };
    crate::outln!(
        "{}: worst makespan/OPT found {} after {} evaluations: makespan {}, {}\n{}\nfailures {:?}",
        found.algo,
        resched_proofs::show_ratio(&found.ratio),
        found.evaluations,
        found.makespan,
        found.opt,
        found.instance.to_json(),
        found.scenario.failures
    )?;
    if let Some(dir) = &a.save {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let file = dir.join(format!("lpa-list-{model}.json"));
        let mut expect = Vec::new();
        for p in [Priority::Lpt, Priority::Hpa, Priority::La] {
            let m = resched_proofs::moldable::run_moldable(
                &found.instance,
                &found.scenario,
                "lpa-list",
                p,
                None,
            )?
            .0;
            expect.push(("lpa-list".to_string(), p.name().to_string(), m));
        }
        let note = format!(
            "adversarial search for LPA-LIST on the {model} model (seed {}, {} steps): worst makespan/OPT over LPT, HPA, LA = {}",
            a.seed, a.steps, found.ratio
        );
        resched::error::write_atomic(&file, golden_json(&found, &expect, &note)?.as_bytes())?;
        crate::outln!("saved {}", file.display())?;
    }
    Ok(Exit::Ok)
}

/// The scopes `--exhaustive` checks: `--large` or RESCHED_EXHAUSTIVE=large, else the defaults.
fn scopes(large: bool) -> (exhaustive::RigidScope, MoldableScope) {
    if large {
        (exhaustive::RigidScope::large(), MoldableScope::LARGE)
    } else {
        (
            exhaustive::RigidScope::from_env(),
            MoldableScope::from_env(),
        )
    }
}

/// `--exhaustive [--large] [--out DIR] [--shard I/N]`.
fn exhaustive(a: &Args) -> Result<Exit> {
    let (scope, mscope) = scopes(a.large);
    let budget = Budget {
        seed: a.seed,
        ..Budget::quick()
    };
    if let Some(text) = &a.shard {
        let shard: Shard = text.parse()?;
        let out = a
            .out
            .as_ref()
            .ok_or_else(|| Error::option("--out", "--shard needs --out DIR"))?;
        return exhaustive_shard(shard, out, &scope, &mscope, &budget);
    }
    let started = std::time::Instant::now();
    let rep = exhaustive::rigid(&scope, &budget)?;
    crate::outln!("{}", rep.markdown())?;
    crate::outln!("({:.1} s)\n", started.elapsed().as_secs_f64())?;
    let started = std::time::Instant::now();
    let mrep = resched_proofs::exhaustive_moldable::moldable(&mscope, &budget)?;
    crate::outln!("{}", mrep.markdown())?;
    crate::outln!("({:.1} s)", started.elapsed().as_secs_f64())?;
    write_report(a.out.as_deref(), &rep, &mrep)
}

/// Writes `report.md` into `out` (when given), ending with the build that made it; the exit
/// code says whether every bound held.
fn write_report(
    out: Option<&std::path::Path>,
    rep: &exhaustive::ExhaustiveReport,
    mrep: &exhaustive::ExhaustiveReport,
) -> Result<Exit> {
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let path = dir.join(REPORT_FILE);
        let md = sharded::report_markdown(rep, mrep);
        let gap = if md.ends_with('\n') { "\n" } else { "\n\n" };
        let text = format!(
            "{md}{gap}Made by resched {}.\n",
            crate::provenance::this_build()
        );
        resched::error::write_atomic(&path, text.as_bytes())?;
        crate::outln!("wrote {}", path.display())?;
    }
    Ok(if rep.holds() && mrep.holds() {
        Exit::Ok
    } else {
        Exit::CheckFailed
    })
}

/// The arguments that determine an exhaustive run (recorded in a shard and compared by the
/// merge): the seed and the scopes as resolved (an environment variable included).
fn exhaustive_args(
    seed: u64,
    scope: &exhaustive::RigidScope,
    mscope: &MoldableScope,
) -> Vec<String> {
    vec![
        "--exhaustive".into(),
        "--seed".into(),
        seed.to_string(),
        format!("rigid scope: {scope}"),
        format!("moldable scope: {mscope}"),
    ]
}

/// One shard of `--exhaustive`: its block of each scope, saved as `parts.json`.
fn exhaustive_shard(
    shard: Shard,
    out: &std::path::Path,
    scope: &exhaustive::RigidScope,
    mscope: &MoldableScope,
    budget: &Budget,
) -> Result<Exit> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let total = exhaustive::rigid_units(scope).len() + em::moldable_units(mscope).len();
    let mut rec = ShardRecord::new(
        "prove-exhaustive",
        exhaustive_args(budget.seed, scope, mscope),
        shard,
        total,
    );
    let (rb, mb) = (
        shard.block(exhaustive::rigid_units(scope).len()),
        shard.block(em::moldable_units(mscope).len()),
    );
    rec.units = vec![format!("rigid {rb:?}"), format!("moldable {mb:?}")];
    rec.write(out)?;
    remove_stale(out)?;
    let started = std::time::Instant::now();
    let parts = sharded::exhaustive_part(scope, mscope, budget, &|len| shard.block(len))?;
    write_json(&out.join(PARTS_FILE), &Stamped::new(&parts))?;
    crate::outln!(
        "shard {shard} of prove --exhaustive: rigid instances {rb:?}, moldable instances {mb:?} ({} + {} cases, {:.1} s) in {}; join the shards with `resched merge DIR… --out DIR`",
        parts.rigid.cases,
        parts.moldable.cases,
        started.elapsed().as_secs_f64(),
        out.display()
    )?;
    Ok(Exit::Ok)
}

/// A shard's partial reports.
const PARTS_FILE: &str = "parts.json";

/// The exhaustive run's report in `--out`.
const REPORT_FILE: &str = "report.md";

/// `resched merge` of `prove --exhaustive` shards (already checked to be the N shards of one
/// run): folds their parts in shard order and writes `report.md` into `out`.
pub fn merge(shards: &[ShardDir], out: &std::path::Path) -> Result<Exit> {
    merge::check_out(shards, out)?;
    let rec = &shards[0].record;
    if rec.command == "prove-search" {
        return merge_search(shards, out);
    }
    // The recorded scopes must be ones this version knows (small, default, large).
    let known = [
        (exhaustive::RigidScope::SMALL, MoldableScope::SMALL),
        (exhaustive::RigidScope::DEFAULT, MoldableScope::DEFAULT),
        (exhaustive::RigidScope::large(), MoldableScope::LARGE),
    ];
    let found = rec
        .args
        .get(2)
        .and_then(|s| s.parse::<u64>().ok())
        .and_then(|seed| {
            known
                .into_iter()
                .find(|(r, m)| rec.args == exhaustive_args(seed, r, m))
        });
    let Some((scope, mscope)) = found else {
        return Err(Error::invalid(
            &shards[0].dir.join(SHARD_FILE).display().to_string(),
            "args",
            format!("`{}` is not a scope this version knows", rec.args.join(" ")),
        ));
    };
    let mut parts = Vec::with_capacity(shards.len());
    for s in shards {
        let path = s.dir.join(PARTS_FILE);
        if !path.is_file() {
            return Err(Error::option(
                "DIR",
                format!(
                    "shard {} in {} has not finished: no {PARTS_FILE}",
                    s.record.shard,
                    s.dir.display()
                ),
            ));
        }
        let text = resched::error::read_text(&path)?;
        parts.push(
            serde_json::from_str(&text)
                .map_err(|e| Error::json(&path.display().to_string(), &e))?,
        );
    }
    let (rep, mrep) = sharded::fold(&scope, &mscope, parts)?;
    crate::outln!("{}\n\n{}", rep.markdown(), mrep.markdown())?;
    write_report(Some(out), &rep, &mrep)
}

/// The arguments that determine a search (recorded in a shard, compared by the merge).
fn search_args(a: &Args) -> Vec<String> {
    let mut v = vec!["--search".to_string()];
    v.extend(a.search.iter().cloned());
    for (k, x) in [
        ("--seed", a.seed),
        ("--steps", a.steps),
        ("--restarts", a.restarts),
    ] {
        v.push(k.to_string());
        v.push(x.to_string());
    }
    v
}

/// Runs the search's climbs: all of `--restarts` (also written to `found.json` with --out), or
/// with --shard the shard's block, saved in --out (then `None`: nothing more to print).
fn searched(
    a: &Args,
    search: &dyn Fn(&Budget) -> Result<adversary::Found>,
) -> Result<Option<adversary::Found>> {
    if a.restarts == 0 {
        return Err(Error::option("--restarts", "at least 1"));
    }
    let budget = Budget {
        seed: a.seed,
        adversarial: a.steps,
        ..Budget::quick()
    };
    if let (Some(text), Some(out)) = (&a.shard, &a.out) {
        let shard: Shard = text.parse()?;
        std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
        let total = usize::try_from(a.restarts)
            .map_err(|_| Error::option("--restarts", "too large for this machine"))?;
        let block = shard.block(total);
        let mut rec = ShardRecord::new("prove-search", search_args(a), shard, total);
        rec.units = vec![format!("climbs {block:?}")];
        rec.write(out)?;
        remove_stale(out)?;
        let found = adversary::climbs(block.start as u64..block.end as u64, &budget, search)?;
        let json = match &found {
            Some(f) => found_json(f)?,
            None => serde_json::Value::Null,
        };
        write_json(&out.join(FOUND_FILE), &json)?;
        crate::outln!(
            "shard {shard} of prove --search: climbs {block:?} of {} in {}; join the shards with `resched merge DIR… --out DIR`",
            a.restarts,
            out.display()
        )?;
        return Ok(None);
    }
    let found = adversary::climbs(0..a.restarts, &budget, search)?
        .ok_or_else(|| Error::option("--restarts", "at least 1"))?;
    if let Some(out) = &a.out {
        std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
        write_json(&out.join(FOUND_FILE), &found_json(&found)?)?;
    }
    Ok(Some(found))
}

/// [`sharded::found_json`] with the build that found it (`resched`).
fn found_json(found: &adversary::Found) -> Result<serde_json::Value> {
    let mut v = sharded::found_json(found)?;
    crate::provenance::stamp_value(&mut v);
    Ok(v)
}

/// A search's worst case (`found.json`).
const FOUND_FILE: &str = "found.json";

/// `resched merge` of `prove --search` shards: the best find over the shards, in shard order.
fn merge_search(shards: &[ShardDir], out: &std::path::Path) -> Result<Exit> {
    let mut best: Option<adversary::Found> = None;
    for s in shards {
        let path = s.dir.join(FOUND_FILE);
        if !path.is_file() {
            return Err(Error::option(
                "DIR",
                format!(
                    "shard {} in {} has not finished: no {FOUND_FILE}",
                    s.record.shard,
                    s.dir.display()
                ),
            ));
        }
        let file = path.display().to_string();
        let v: serde_json::Value = serde_json::from_str(&resched::error::read_text(&path)?)
            .map_err(|e| Error::json(&file, &e))?;
        if v.is_null() {
            continue;
        }
        let f = sharded::found_from_json(&v, &file)?;
        best = Some(match best {
            Some(x) => adversary::best_of(x, f),
            None => f,
        });
    }
    let found = best.ok_or_else(|| Error::option("DIR", "no shard ran a climb"))?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    write_json(&out.join(FOUND_FILE), &found_json(&found)?)?;
    crate::outln!(
        "{}: worst makespan/OPT found {} after {} evaluations: makespan {}, {}",
        found.algo,
        resched_proofs::show_ratio(&found.ratio),
        found.evaluations,
        found.makespan,
        found.opt
    )?;
    crate::outln!("wrote {}", out.join(FOUND_FILE).display())?;
    Ok(Exit::Ok)
}
