//! The ledger's evidence outside the program: `resched prove <id> --json` (the statement, its
//! bound and every witness measurement with T, OPT or its bracket [L, U], the ratio exact and
//! decimal) and `--export DIR` (every witness's case as the instance, scenario and schedule
//! files of `docs/reference/formats.md`, listed with the commands that re-check them in
//! `DIR/ledger.json`), so that `resched verify`, `resched simulate`, `resched opt` or anyone's
//! own code can re-check what the ledger states without the ledger.
use resched::error::{Error, Result};
use resched::time::Time;
use resched_proofs::{Entry, Kind, Measurement, OptRef, Params, Report, Source, Witness};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The version of the JSON document `--json` prints and `--export` writes as `ledger.json`.
pub const FORMAT_VERSION: u32 = 1;

/// The file `--export` lists the witnesses in.
pub const LEDGER_FILE: &str = "ledger.json";

/// The files one witness was exported to, relative to the export directory.
#[derive(Debug, Clone)]
pub struct Files {
    pub dir: String,
    /// `None`: the witness has no schedule of U (OPT known otherwise).
    pub schedule: Option<String>,
}

/// `true` when OPT is known exactly (a proof, or a lower bound met by a checked schedule).
fn proven(opt: &OptRef) -> Option<&Time> {
    match opt {
        OptRef::Exact(t) => Some(t),
        OptRef::Between { lower, upper } if lower == upper => Some(upper),
        _ => None,
    }
}

/// An exact value and its decimal form.
fn exact(t: &Time) -> Value {
    json!({"exact": t, "decimal": t.to_decimal_string(6)})
}

fn opt_json(m: &Measurement) -> Value {
    let how = m.evidence.as_ref().map(|e| e.opt_how.clone());
    match (&m.opt, proven(&m.opt)) {
        (_, Some(v)) => json!({"status": "proven", "value": v, "how": how}),
        (OptRef::Between { lower, upper }, None) => {
            json!({"status": "bracketed", "lower": lower, "upper": upper, "how": how})
        }
        (o, None) => json!({"status": "lower bound only", "lower": o.lower(), "how": how}),
    }
}

/// The command lines that re-check an exported witness (paths relative to the export
/// directory).
fn commands(m: &Measurement, f: &Files) -> Vec<String> {
    let Some(e) = &m.evidence else {
        return Vec::new();
    };
    let case = format!(
        "--instance {d}/instance.json --scenario {d}/scenario.json",
        d = f.dir
    );
    let mut algo = format!("--algo {}", e.algo.name);
    if let Some(p) = e.algo.priority {
        algo.push_str(&format!(" --priority {}", p.name()));
    }
    if e.algo.priority == Some(resched::schedulers::Priority::Random) {
        algo.push_str(&format!(" --seed {}", e.algo.seed));
    }
    if let Some(eps) = &e.algo.eps {
        algo.push_str(&format!(" --eps {eps}"));
    }
    let mut v = vec![format!("resched simulate {case} {algo}")];
    if let Some(s) = &f.schedule {
        v.push(format!("resched verify {case} --schedule {s}"));
    }
    v.push(format!("resched opt {case}"));
    v
}

/// One witness measurement as JSON (with its files when exported); an error when its schedule
/// of U does not pass the checker.
fn witness_json(m: &Measurement, files: Option<&Files>) -> Result<Value> {
    let mut w = Map::new();
    w.insert("algorithm".into(), m.algo.clone().into());
    if let Some(e) = &m.evidence {
        w.insert(
            "run".into(),
            json!({
                "algo": e.algo.name,
                "priority": e.algo.priority.map(|p| p.name()),
                "seed": e.algo.seed,
                "eps": e.algo.eps,
            }),
        );
        w.insert("processors".into(), e.instance.procs.into());
        w.insert("jobs".into(), e.instance.len().into());
        w.insert("failures".into(), e.scenario.total_failures().into());
    }
    w.insert("t".into(), exact(&m.makespan));
    w.insert("opt".into(), opt_json(m));
    // The makespan of the exported schedule, as the checker finds it (U ≥ OPT); it may exceed
    // OPT where a solver proved a shorter one.
    if let Some(e) = &m.evidence {
        if let Some(s) = &e.upper {
            let u = resched::check::check(&e.instance, &e.scenario, s)?;
            w.insert("u".into(), exact(&u));
        }
    }
    // The ratio the entry compares with its bound, and what it divides T by.
    let of = if proven(&m.opt).is_some() {
        "T/OPT"
    } else if m.opt.upper().and_then(|u| m.makespan.checked_div(u)) == Some(m.ratio.clone()) {
        "T/U"
    } else {
        "T/L"
    };
    w.insert("ratio".into(), exact(&m.ratio));
    w.insert("ratio_of".into(), of.into());
    // T over the upper end of OPT: a certified lower bound on the algorithm's ratio (exact
    // T/OPT when OPT is proven).
    if let Some(c) = m.opt.upper().and_then(|u| m.makespan.checked_div(u)) {
        w.insert("certified_ratio".into(), exact(&c));
    }
    w.insert("bound".into(), exact(&m.bound));
    w.insert(
        "compares".into(),
        if m.is_lower {
            "ratio ≥ bound"
        } else {
            "ratio ≤ bound"
        }
        .into(),
    );
    w.insert("slack".into(), exact(&m.slack));
    w.insert("holds".into(), m.holds.into());
    if let Some(f) = files {
        let mut fj = Map::new();
        fj.insert("instance".into(), format!("{}/instance.json", f.dir).into());
        fj.insert("scenario".into(), format!("{}/scenario.json", f.dir).into());
        if let Some(s) = &f.schedule {
            fj.insert("schedule".into(), s.clone().into());
        }
        w.insert("files".into(), Value::Object(fj));
        w.insert("commands".into(), json!(commands(m, f)));
    }
    Ok(Value::Object(w))
}

fn kind_json(kind: &Kind) -> Value {
    match kind {
        Kind::Upper => "upper bound".into(),
        Kind::Lower => "lower bound".into(),
        Kind::Property => "property".into(),
        Kind::Claim { .. } => "claim".into(),
    }
}

/// The whole document of `prove <id> --json` (and `ledger.json`).
pub fn entry_json(
    entry: &Entry,
    params: &Params,
    witness: Option<&Witness>,
    rep: &Report,
    files: Option<&[Option<Files>]>,
) -> Result<Value> {
    let mut v = Map::new();
    v.insert("format_version".into(), FORMAT_VERSION.into());
    v.insert("id".into(), entry.id.into());
    v.insert("paper".into(), entry.paper.to_string().into());
    v.insert("section".into(), entry.section.into());
    v.insert("kind".into(), kind_json(&entry.kind));
    if let Kind::Claim { gap } = entry.kind {
        v.insert("gap".into(), gap.into());
    }
    v.insert("statement".into(), entry.statement.into());
    v.insert("bound".into(), entry.bound_text.into());
    let p: Map<String, Value> = params
        .pairs()
        .map(|(k, x)| (k.to_string(), x.into()))
        .collect();
    v.insert("parameters".into(), Value::Object(p));
    if let Some(w) = witness {
        v.insert(
            "construction".into(),
            json!({
                "processors": w.instance.procs,
                "jobs": w.instance.len(),
                "failures": w.scenario.total_failures(),
                "claim": w.claim,
            }),
        );
    }
    let ws = rep
        .witness
        .iter()
        .enumerate()
        .map(|(i, m)| witness_json(m, files.and_then(|f| f.get(i)).and_then(Option::as_ref)))
        .collect::<Result<Vec<Value>>>()?;
    v.insert("witnesses".into(), Value::Array(ws));
    let mut sources = Vec::new();
    for s in [
        Source::Witness,
        Source::Random,
        Source::Exhaustive,
        Source::Adversarial,
    ] {
        if let Some(t) = rep.get(s) {
            sources.push(json!({
                "source": format!("{s:?}").to_lowercase(),
                "measured": t.measured,
                "worst_ratio": t.worst.as_ref().map(|(r, _)| exact(r)),
                "worst_case": t.worst.as_ref().map(|(_, d)| d),
                "least_slack": t.min_slack.as_ref().map(|(r, _)| exact(r)),
                "violations": t.violation_count,
            }));
        }
    }
    v.insert("sources".into(), Value::Array(sources));
    v.insert("notes".into(), json!(rep.notes));
    v.insert("violations".into(), json!(rep.violations()));
    v.insert("holds".into(), rep.holds().into());
    let mut v = Value::Object(v);
    crate::provenance::stamp_value(&mut v);
    Ok(v)
}

/// Writes every witness that carries its case into `dir` (`w01/instance.json`,
/// `w01/scenario.json`, `w01/schedule.json` for U's schedule, …) and returns the files of each
/// witness, in the report's order (`None` for a witness without its case).
pub fn export(dir: &Path, rep: &Report) -> Result<Vec<Option<Files>>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut out = Vec::with_capacity(rep.witness.len());
    for (i, m) in rep.witness.iter().enumerate() {
        let Some(e) = &m.evidence else {
            out.push(None);
            continue;
        };
        let name = format!("w{:02}", i + 1);
        let sub: PathBuf = dir.join(&name);
        std::fs::create_dir_all(&sub).map_err(|err| Error::io(&sub, err))?;
        resched::error::write_atomic(
            &sub.join("instance.json"),
            format!("{}\n", e.instance.to_json()).as_bytes(),
        )?;
        resched::error::write_atomic(
            &sub.join("scenario.json"),
            format!("{}\n", e.scenario.to_json()).as_bytes(),
        )?;
        let schedule = match &e.upper {
            Some(s) => {
                resched::error::write_atomic(
                    &sub.join("schedule.json"),
                    format!("{}\n", s.to_json()).as_bytes(),
                )?;
                Some(format!("{name}/schedule.json"))
            }
            None => None,
        };
        out.push(Some(Files {
            dir: name,
            schedule,
        }));
    }
    Ok(out)
}

/// Writes `ledger.json` (the document of [`entry_json`] with the files) into `dir`.
pub fn write_ledger(dir: &Path, doc: &Value) -> Result<PathBuf> {
    let path = dir.join(LEDGER_FILE);
    let text = serde_json::to_string_pretty(doc).map_err(|e| Error::json("ledger.json", &e))?;
    resched::error::write_atomic(&path, format!("{text}\n").as_bytes())?;
    Ok(path)
}
