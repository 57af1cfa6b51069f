//! The command-line side of `resched diff`'s runs ([`crate::diff::campaign`]): the progress
//! line, the text report (the first mismatch; with `--keep-going` the mismatch rate, the classes
//! and one counterexample per signature) and the `--json` summary a CI job reads.
use super::{report_found, say, summary, timeout, Args};
use crate::cli::Exit;
use crate::diff::campaign::{self, Options, Report, Source};
use crate::diff::counterexample;
use crate::diff::run::{Config, Stats};
use crate::diff::template::Template;
use crate::diff::External;
use resched::error::{Error, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The newest version of `diff --json`'s output.
pub const JSON_FORMAT_VERSION: u32 = 1;

/// How often the progress line is refreshed.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Runs the cases of `cfg` (or of `--corpus`), prints the report (`header` first, unless
/// `--json`), writes the counterexamples.
pub(super) fn run(
    a: &Args,
    mut cfg: Config,
    cmd: &str,
    ext: &External,
    header: &str,
) -> Result<Exit> {
    let make = || External::new(Template::parse(cmd)?, a.protocol, timeout(&a.timeout)?);
    let (source, header) = match &a.corpus {
        Some(dir) => {
            cfg.algos.clear();
            let items = campaign::corpus(dir, &mut cfg.algos)?;
            let h = format!(
                "diff: corpus {} ({} files) against `{cmd}` ({} protocol)\n",
                dir.display(),
                items.len(),
                counterexample::protocol_name(a.protocol)
            );
            (Source::Corpus(items), h)
        }
        None => (Source::Drawn, header.to_string()),
    };
    if a.workers == 0 {
        return Err(Error::option("workers", "must be at least 1"));
    }
    if !a.json {
        say(&header)?;
    }
    let opts = Options {
        keep_going: a.keep_going,
        workers: a.workers,
    };
    let tty = std::io::stderr().is_terminal();
    let show = a.progress || tty;
    let mut last = Instant::now();
    let mut shown = false;
    let mut progress = |s: &Stats, mismatches: u64| {
        if !show || last.elapsed() < PROGRESS_EVERY {
            return;
        }
        last = Instant::now();
        shown = true;
        let line = format!(
            "… {} cases, {} comparisons, {} mismatches, {:.0} cases/s",
            s.cases,
            s.runs,
            mismatches,
            s.rate()
        );
        if tty {
            crate::out::write_stderr(format_args!("\r\x1b[K{line}"));
        } else {
            crate::errln!("{line}");
        }
    };
    let report = campaign::run(&cfg, &source, opts, &make, &mut progress)?;
    if shown && tty {
        crate::out::write_stderr(format_args!("\r\x1b[K"));
    }
    let paths: Vec<PathBuf> = (0..report.signatures.len())
        .map(|k| out_path(&a.out, k, a.keep_going))
        .collect();
    let mut text = summary(&report.stats, &cfg.rules);
    if a.keep_going {
        text.push_str(&rates(&report));
    }
    for (sig, path) in report.signatures.iter().zip(&paths) {
        if a.keep_going {
            text.push_str(&format!(
                "SIGNATURE {}: {} mismatches, first on {}\n",
                sig.key,
                sig.count,
                origin(sig)
            ));
        }
        let mut r = report_found(&sig.found, &cfg, ext, path)?;
        if let Some(f) = &sig.file {
            // A corpus case has no seed and case number to draw it again from.
            r = r.replacen(
                &format!("MISMATCH on case {} ", sig.found.case),
                &format!("MISMATCH on {} ", f.display()),
                1,
            );
            r = r
                .lines()
                .filter(|l| !l.contains(" --case "))
                .map(|l| format!("{l}\n"))
                .collect();
        }
        text.push_str(&r);
        text.push_str(&if sig.flaky {
            format!(
                "  FLAKY: the shrunk case does not reproduce in a fresh process (it gave: {})\n",
                sig.recheck
            )
        } else {
            "  re-checked in a fresh process: reproduces\n".to_string()
        });
    }
    if a.json {
        let v = json(a, &cfg, &report, &paths);
        let s = serde_json::to_string_pretty(&v).map_err(|e| Error::json("output", &e))?;
        say(&format!("{s}\n"))?;
    } else {
        say(&text)?;
    }
    Ok(if report.signatures.is_empty() {
        Exit::Ok
    } else {
        Exit::CheckFailed
    })
}

/// Where counterexample `k` goes: `--out` itself, or with `--keep-going` `STEM-K.json`
/// (K from 1, in the order the signatures were first seen).
fn out_path(out: &Path, k: usize, keep_going: bool) -> PathBuf {
    if !keep_going {
        return out.to_path_buf();
    }
    let s = out.display().to_string();
    // default: a name without `.json` keeps its whole name as the stem
    let stem = s.strip_suffix(".json").unwrap_or(&s);
    PathBuf::from(format!("{stem}-{}.json", k + 1))
}

fn origin(sig: &campaign::Signature) -> String {
    match &sig.file {
        Some(f) => f.display().to_string(),
        None => format!("case {}", sig.found.case),
    }
}

/// The mismatch rate and the classes, in words.
fn rates(r: &Report) -> String {
    let cases = r.stats.cases;
    let pct = if cases > 0 {
        100.0 * r.mismatched_cases as f64 / cases as f64
    } else {
        0.0
    };
    let classes: Vec<String> = r.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    format!(
        "  mismatches: {} of {} comparisons; {} of {cases} cases ({pct:.2} %)\n  classes: {}\n  {} distinct signatures, {} flaky\n",
        r.mismatches,
        r.stats.runs,
        r.mismatched_cases,
        if classes.is_empty() { "none".to_string() } else { classes.join(", ") },
        r.signatures.len(),
        r.signatures.iter().filter(|s| s.flaky).count()
    )
}

/// The `--json` summary (its version, this build, the counts, the rate, the classes, and each
/// signature with its counterexample file and whether it is flaky).
fn json(a: &Args, cfg: &Config, r: &Report, paths: &[PathBuf]) -> serde_json::Value {
    let cases = r.stats.cases;
    let rate = if cases > 0 {
        r.mismatched_cases as f64 / cases as f64
    } else {
        0.0
    };
    let signatures: Vec<serde_json::Value> = r
        .signatures
        .iter()
        .zip(paths)
        .map(|(s, p)| {
            let c = &s.found.shrunk.case;
            serde_json::json!({
                "signature": s.key,
                "algo": cfg.algos[s.found.algo].label(),
                "kind": s.found.shrunk.trial.mismatch().map(|m| m.kind.name()),
                "count": s.count,
                "case": s.found.case,
                "file": s.file.as_ref().map(|f| f.display().to_string()),
                "counterexample": p.display().to_string(),
                "shrunk": {
                    "procs": c.instance.procs,
                    "jobs": c.instance.len(),
                    "failures": c.scenario.total_failures(),
                },
                "flaky": s.flaky,
                "recheck": s.recheck,
            })
        })
        .collect();
    let mut v = serde_json::json!({
        "format_version": JSON_FORMAT_VERSION,
        "command": a.cmd,
        "protocol": counterexample::protocol_name(a.protocol),
        "seed": a.corpus.is_none().then_some(cfg.seed),
        "corpus": a.corpus.as_ref().map(|d| d.display().to_string()),
        "keep_going": a.keep_going,
        "workers": a.workers,
        "cases": cases,
        "comparisons": r.stats.runs,
        "agree": r.stats.agree,
        "notes": r.stats.notes,
        "mismatches": r.mismatches,
        "mismatched_cases": r.mismatched_cases,
        "rate": rate,
        "rate_exact": format!("{}/{}", r.mismatched_cases, cases.max(1)),
        "classes": r.kinds,
        "signatures": signatures,
        "counterexamples": paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "flaky": r.signatures.iter().filter(|s| s.flaky).count(),
        "elapsed_s": r.stats.elapsed.as_secs_f64(),
    });
    crate::provenance::stamp_value(&mut v);
    v
}
