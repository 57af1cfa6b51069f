//! The machinery every campaign shares: cells computed in parallel, persisted one by one so an
//! interrupted campaign resumes where it stopped, a progress bar, and atomic output files.
//!
//! # Cells and resumption
//! A campaign is a list of *cells* (one point of its parameter grid on one job set, say). Each
//! cell has a key unique in the campaign; when it is computed its result is written to
//! `<out>/cells/<key>.json` with [`resched::error::write_atomic`] (a temporary sibling renamed into
//! place), so a cell file is either whole or absent. A rerun with the same `--out` reads the
//! cell files that exist and computes only the missing ones.
//!
//! A campaign's *manifest* (its name, parameters, seed, quick flag, program version) is stored in
//! `<out>/manifest.json` at the first run; a rerun whose manifest differs (another seed, or
//! `--quick` against a full run) is refused rather than mixing results of different campaigns.
//!
//! # Provenance
//! The manifest names the build that started the campaign (`"resched": {version, commit,
//! dirty}`, [`crate::provenance`]), every cell file the build that computed it (first field,
//! [`crate::provenance::stamp_object`]), and `results.json` the build that aggregated the cells.
//! A rerun compares manifests without their `resched` field: a campaign may be resumed by
//! another build of the same version (another version is refused, as any other parameter), and
//! its cells then say which build made each.
//!
//! # Parallelism and determinism
//! Cells run on a rayon pool (all cores by default, or `--threads N`). Each cell draws its
//! randomness from streams keyed by (seed, set, scenario) — see [`resched::workload::sampling`] —
//! so its result does not depend on the number of threads nor on which cells were resumed.
//! Results are returned in cell order whatever the completion order.
//!
//! # Shards
//! [`Mode::Shard`] computes only the cells a shard owns ([`super::shard::Shard::owns`]) and
//! records them in `<out>/shard.json`; the campaign then stops ([`Ran::Shard`]) without tables
//! or figures, which only the whole set of cells can give. [`Mode::Assemble`] is the merge's
//! second half: every cell must already be in `cells/` (copied from the shards), none is
//! computed, and the campaign writes its outputs from them exactly as a single process would.
//!
//! # Progress
//! An indicatif bar with the elapsed time and an ETA, on stderr, hidden when stderr is not a
//! terminal (CI logs stay clean).
use super::shard::{without_provenance, Shard, ShardRecord};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use resched::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One unit of work: a unique key (used as its file name) and its parameters.
#[derive(Debug, Clone)]
pub struct Cell<P> {
    pub key: String,
    pub params: P,
}

/// How to run a campaign's cells.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// The output directory (created if missing).
    pub out: PathBuf,
    /// Worker threads; `None` uses all cores.
    pub threads: Option<usize>,
    /// Show the progress bar (it is also hidden when stderr is not a terminal).
    pub progress: bool,
    /// Every cell, one shard's cells, or only the cells already there.
    pub mode: Mode,
}

/// Which cells a run computes (see the module doc).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Mode {
    /// Every cell, then the campaign's tables and figures.
    #[default]
    Whole,
    /// Only the cells of `shard`, recorded with `command` and `args` (what the merge reruns).
    Shard {
        shard: Shard,
        command: String,
        args: Vec<String>,
    },
    /// Nothing computed: every cell must be in `cells/` already (the merge).
    Assemble,
}

/// What [`run_cells`] gives back.
#[derive(Debug)]
pub enum Ran<R> {
    /// Every cell's result, in cell order: the campaign writes its outputs.
    Whole(Vec<R>, RunStats),
    /// A shard's cells are done and recorded: the campaign returns this outcome as it is.
    Shard(super::Outcome),
}

/// What a run did: how many cells were computed and how many were read back, and how long it took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunStats {
    pub computed: usize,
    pub resumed: usize,
    pub seconds: f64,
}

/// Only these characters appear in cell keys (they become file names).
pub(crate) fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() < 200
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.=".contains(&b))
        && !key.starts_with('.')
}

/// Writes or checks `<out>/manifest.json`: a new directory gets the manifest, stamped with this
/// build; an existing one must hold the same manifest, its `resched` field aside (else the run
/// is refused, naming the first differing field).
pub fn prepare(out: &Path, manifest: &serde_json::Value) -> Result<()> {
    std::fs::create_dir_all(out.join("cells")).map_err(|e| Error::io(out, e))?;
    let path = out.join("manifest.json");
    let manifest = &without_provenance(manifest.clone());
    if path.exists() {
        let text = resched::error::read_text(&path)?;
        let old: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| Error::json(&path.display().to_string(), &e))?;
        let old = without_provenance(old);
        if &old != manifest {
            let field = match (old.as_object(), manifest.as_object()) {
                (Some(a), Some(b)) => a
                    .keys()
                    .chain(b.keys())
                    .find(|k| a.get(*k) != b.get(*k))
                    .cloned()
                    // unreachable: the manifests differ, so some key differs; `?` only if a value differs at the top level
                    .unwrap_or_else(|| "?".into()),
                _ => "?".into(),
            };
            return Err(Error::param(
                "out",
                format!(
                    "{} holds a campaign run with other parameters (field `{field}` differs); use another `out` directory or delete it",
                    out.display()
                ),
            ));
        }
        return Ok(());
    }
    let mut stamped = manifest.clone();
    crate::provenance::stamp_value(&mut stamped);
    let text = serde_json::to_string_pretty(&stamped).map_err(|e| Error::Limit(e.to_string()))?;
    resched::error::write_atomic(&path, text.as_bytes())
}

/// Runs `compute` on every cell (of the shard, with [`Mode::Shard`]) that has no result file
/// yet, in parallel, writing each result as soon as it is known; returns all results in cell
/// order, or the shard's outcome.
pub fn run_cells<P, R, F>(cfg: &RunConfig, cells: &[Cell<P>], compute: F) -> Result<Ran<R>>
where
    P: Sync,
    R: Serialize + DeserializeOwned + Send,
    F: Fn(&Cell<P>) -> Result<R> + Sync,
{
    let start = Instant::now();
    let dir = cfg.out.join("cells");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    remove_stale_temporaries(&cfg.out)?;
    check_keys(cells)?;
    let manifest = super::shard::cell_manifest(&cfg.out)?;
    let mut done: Vec<Option<R>> = read_finished(&dir, cells, &manifest);
    let owned: Vec<usize> = match &cfg.mode {
        Mode::Shard { shard, .. } => (0..cells.len()).filter(|&i| shard.owns(i)).collect(),
        _ => (0..cells.len()).collect(),
    };
    if let Mode::Shard {
        shard,
        command,
        args,
    } = &cfg.mode
    {
        // Recorded before computing: a directory is claimed by one shard from the start.
        let mut rec = ShardRecord::new(command, args.clone(), *shard, cells.len());
        rec.units = owned.iter().map(|&i| cells[i].key.clone()).collect();
        rec.write(&cfg.out)?;
    }
    let todo: Vec<usize> = owned
        .iter()
        .copied()
        .filter(|&i| done[i].is_none())
        .collect();
    if cfg.mode == Mode::Assemble && !todo.is_empty() {
        return Err(missing_cells(cfg, cells, &todo));
    }
    let resumed = owned.len() - todo.len();
    let bar = progress_bar(cfg, owned.len(), resumed);
    let work = || -> Result<Vec<(usize, R)>> {
        todo.par_iter()
            .map(|&i| {
                let c = &cells[i];
                let r = compute(c)?;
                let text = serde_json::to_string(&r)
                    .map_err(|e| Error::Limit(format!("cell {}: {e}", c.key)))?;
                let stamp = super::shard::CellStamp {
                    key: c.key.clone(),
                    params: super::shard::params_hash(&manifest, &c.key),
                };
                let stamped = super::shard::stamp_cell(&text, &stamp);
                resched::error::write_atomic(
                    &dir.join(format!("{}.json", c.key)),
                    stamped.as_bytes(),
                )?;
                bar.inc(1);
                // Use what was written, not the value in memory: JSON does not round-trip
                // every f64 to the last bit, and a resumed run must aggregate the same numbers.
                let r: R = serde_json::from_str(&text)
                    .map_err(|e| Error::Limit(format!("cell {}: {e}", c.key)))?;
                Ok((i, r))
            })
            .collect()
    };
    let computed = in_pool(cfg.threads, work);
    bar.finish_and_clear();
    let computed = computed?;
    let n_computed = computed.len();
    for (i, r) in computed {
        done[i] = Some(r);
    }
    let stats = RunStats {
        computed: n_computed,
        resumed,
        seconds: start.elapsed().as_secs_f64(),
    };
    if let Mode::Shard { shard, command, .. } = &cfg.mode {
        return Ok(Ran::Shard(shard_outcome(
            cfg,
            shard,
            command,
            &owned,
            cells.len(),
            stats,
        )));
    }
    let results = done
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.ok_or_else(|| Error::Limit(format!("cell {} has no result", cells[i].key))))
        .collect::<Result<Vec<R>>>()?;
    Ok(Ran::Whole(results, stats))
}

/// The error of an assembly that lacks cells: the first few keys, and what to do.
fn missing_cells<P>(cfg: &RunConfig, cells: &[Cell<P>], todo: &[usize]) -> Error {
    let keys: Vec<&str> = todo
        .iter()
        .take(5)
        .map(|&i| cells[i].key.as_str())
        .collect();
    Error::Limit(format!(
        "{}: {} of {} cells missing ({}{}): a shard did not finish or was left out of the merge",
        cfg.out.display(),
        todo.len(),
        cells.len(),
        keys.join(", "),
        if todo.len() > keys.len() { ", …" } else { "" }
    ))
}

/// What a shard's run reports: its cells and where they are (joining the shards is the
/// caller's next step: [`super::merge`]).
fn shard_outcome(
    cfg: &RunConfig,
    shard: &Shard,
    command: &str,
    owned: &[usize],
    total: usize,
    stats: RunStats,
) -> super::Outcome {
    super::Outcome {
        dir: cfg.out.clone(),
        files: vec![cfg.out.join(super::shard::SHARD_FILE)],
        stats,
        markdown: format!(
            "shard {shard} of `{command}`: {} of {total} cells in {}/cells",
            owned.len(),
            cfg.out.display()
        ),
    }
}

/// Every key is a valid file name and used once.
fn check_keys<P>(cells: &[Cell<P>]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for c in cells {
        if !valid_key(&c.key) {
            return Err(Error::Limit(format!(
                "cell key `{}` is not a valid file name",
                c.key
            )));
        }
        if !seen.insert(c.key.as_str()) {
            return Err(Error::Limit(format!("cell key `{}` is used twice", c.key)));
        }
    }
    Ok(())
}

/// The results already in `dir`, by cell; an unreadable file (which write_atomic never leaves,
/// but a user might) counts as missing and its cell is recomputed, and so does a file whose
/// `cell` stamp names another cell or other parameters (a file copied from elsewhere). A
/// cell's `resched` and `cell` fields are not part of its result.
fn read_finished<P, R: DeserializeOwned>(
    dir: &Path,
    cells: &[Cell<P>],
    manifest: &serde_json::Value,
) -> Vec<Option<R>> {
    cells
        .iter()
        .map(|c| {
            let path = dir.join(format!("{}.json", c.key));
            let text = std::fs::read_to_string(&path).ok()?;
            let cell = super::shard::unstamp_cell(&text).ok()?;
            if let Some(s) = &cell.stamp {
                if s.key != c.key || s.params != super::shard::params_hash(manifest, &c.key) {
                    return None;
                }
            }
            serde_json::from_str::<R>(&cell.result).ok()
        })
        .collect()
}

/// The progress bar over `total` cells, `resumed` of them already done; hidden when asked or
/// when stderr is not a terminal.
fn progress_bar(cfg: &RunConfig, total: usize, resumed: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if !cfg.progress || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    // The template is a constant known to parse; the plain bar is only its formal fallback.
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} cells, ETA {eta}",
        )
        // default: the built-in bar style if the template (a literal) were rejected
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(cfg.out.display().to_string());
    bar.set_position(resumed as u64);
    bar.reset_eta();
    bar
}

/// Removes the output layer's temporaries ([`resched::error::TEMP_PREFIX`]) that a killed run
/// left in the output directory `out` and its sub-directories (`cells/`, plots): the half-written
/// files of that run, which nothing else would ever remove. A run that resumes is the only
/// writer of its directory.
fn remove_stale_temporaries(out: &Path) -> Result<()> {
    resched::error::remove_stale_temporaries(out)?;
    let entries = std::fs::read_dir(out).map_err(|e| Error::io(out, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(out, e))?;
        let path = entry.path();
        // A link is not followed: what it names is not the run's.
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            resched::error::remove_stale_temporaries(&path)?;
        }
    }
    Ok(())
}

/// Runs `work` on a pool of `threads` workers (`None`: rayon's global pool, all cores).
fn in_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    // The count was checked against the program's one bound where the options were read.
    match threads {
        Some(0) => Err(Error::param("threads", "at least 1")),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::Limit(format!("thread pool: {e}")))?
            .install(work),
        None => work(),
    }
}

/// Writes rows as CSV (atomically). `header` names the columns; every row has as many fields.
pub fn write_csv(path: &Path, header: &[&str], rows: &[Vec<String>]) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| Error::Limit(format!("{}: {e}", path.display()));
    w.write_record(header).map_err(err)?;
    for r in rows {
        if r.len() != header.len() {
            return Err(Error::Limit(format!(
                "{}: a row has {} fields for {} columns",
                path.display(),
                r.len(),
                header.len()
            )));
        }
        w.write_record(r).map_err(err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::Limit(format!("{}: {e}", path.display())))?;
    resched::error::write_atomic(path, &bytes)
}

/// Writes a value as pretty JSON (atomically).
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::Limit(format!("{}: {e}", path.display())))?;
    resched::error::write_atomic(path, text.as_bytes())
}

/// Writes `results.json` (manifest, summary, cells, and the build that wrote them: `resched`)
/// and `summary.md` into `dir`, atomically, and records both paths in `files`: the closing step
/// every campaign shares.
pub fn write_results_and_summary<M: Serialize, S: Serialize, C: Serialize>(
    dir: &Path,
    manifest: &M,
    summary: &S,
    cells: &C,
    markdown: &str,
    files: &mut Vec<std::path::PathBuf>,
) -> Result<()> {
    let p = dir.join("results.json");
    write_json(
        &p,
        &serde_json::json!({
            "manifest": manifest,
            "summary": summary,
            "cells": cells,
            "resched": crate::provenance::this_build(),
        }),
    )?;
    files.push(p);
    let p = dir.join("summary.md");
    resched::error::write_atomic(&p, markdown.as_bytes())?;
    files.push(p);
    Ok(())
}

/// A Markdown table.
pub fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = String::new();
    s.push_str(&format!("| {} |\n", header.join(" | ")));
    s.push_str(&format!(
        "|{}\n",
        header.iter().map(|_| "---|").collect::<String>()
    ));
    for r in rows {
        s.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn cells(n: usize) -> Vec<Cell<u64>> {
        (0..n)
            .map(|i| Cell {
                key: format!("c{i}"),
                params: i as u64,
            })
            .collect()
    }

    #[test]
    fn resumes_without_recomputing() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = RunConfig {
            out: dir.path().to_path_buf(),
            threads: Some(2),
            progress: false,
            mode: Mode::Whole,
        };
        let calls = AtomicUsize::new(0);
        // First run fails on cell 5 after some cells were written.
        let r = run_cells(&cfg, &cells(8), |c| {
            calls.fetch_add(1, Ordering::SeqCst);
            if c.params == 5 {
                Err(Error::Limit("interrupted".into()))
            } else {
                Ok(c.params * 10)
            }
        });
        assert!(r.is_err());
        let written = std::fs::read_dir(dir.path().join("cells")).unwrap().count();
        assert!(written < 8);
        // No temporary file is left behind.
        assert!(std::fs::read_dir(dir.path().join("cells"))
            .unwrap()
            .all(|e| !e.unwrap().file_name().to_string_lossy().starts_with('.')));
        let calls2 = AtomicUsize::new(0);
        let Ran::Whole(res, stats) = run_cells(&cfg, &cells(8), |c| {
            calls2.fetch_add(1, Ordering::SeqCst);
            Ok(c.params * 10)
        })
        .unwrap() else {
            panic!("a whole run gives every result")
        };
        assert_eq!(res, (0..8).map(|i| i * 10).collect::<Vec<u64>>());
        assert_eq!(stats.resumed, written);
        assert_eq!(calls2.load(Ordering::SeqCst), 8 - written);
        assert_eq!(stats.computed + stats.resumed, 8);
    }

    #[test]
    fn a_resumed_run_removes_the_temporaries_a_killed_run_left() {
        let dir = tempfile::tempdir().unwrap();
        let cells_dir = dir.path().join("cells");
        let plots = dir.path().join("plots");
        std::fs::create_dir_all(&cells_dir).unwrap();
        std::fs::create_dir_all(plots.join(".resched-tmp-Xy12")).unwrap();
        std::fs::write(plots.join(".resched-tmp-Xy12/out.png"), "half").unwrap();
        std::fs::write(cells_dir.join(".resched-tmp-ab3"), "{\"half").unwrap();
        std::fs::write(cells_dir.join(".c1.json.tmp4242"), "{").unwrap();
        std::fs::write(dir.path().join(".summary.md.tmp77"), "#").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join(".resched-tmp-zz"), "not the run's").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let cfg = RunConfig {
            out: dir.path().to_path_buf(),
            threads: Some(1),
            progress: false,
            mode: Mode::Whole,
        };
        run_cells(&cfg, &cells(2), |c| Ok(c.params)).unwrap();
        let names = |d: &Path| {
            let mut v: Vec<String> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(dir.path()), ["cells", "link", "notes.txt", "plots"]);
        assert_eq!(names(&cells_dir), ["c0.json", "c1.json"]);
        assert!(names(&plots).is_empty());
        assert_eq!(names(outside.path()), [".resched-tmp-zz"]);
    }

    #[test]
    fn manifest_mismatch_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        prepare(dir.path(), &serde_json::json!({"seed": 1, "quick": true})).unwrap();
        prepare(dir.path(), &serde_json::json!({"seed": 1, "quick": true})).unwrap();
        let e = prepare(dir.path(), &serde_json::json!({"seed": 2, "quick": true}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`seed`"), "{e}");
    }

    /// The manifest names the build that started the campaign; a rerun compares manifests
    /// without it, so that a manifest of another build, or of before builds were recorded,
    /// resumes (and keeps its own record).
    #[test]
    fn manifest_names_the_build_and_resumes_across_builds() {
        let dir = tempfile::tempdir().unwrap();
        let m = serde_json::json!({"seed": 1, "quick": true});
        prepare(dir.path(), &m).unwrap();
        let path = dir.path().join("manifest.json");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["resched"], crate::provenance::this_build().json());
        for old in [
            serde_json::json!({"seed": 1, "quick": true}),
            serde_json::json!({"seed": 1, "quick": true, "resched": {"version": "0.1.0", "commit": "x", "dirty": null}}),
        ] {
            std::fs::write(&path, old.to_string()).unwrap();
            prepare(dir.path(), &m).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), old.to_string());
        }
    }

    /// Each cell file names the build that computed it, in front of the result's own fields;
    /// a cell file without it (written before builds were recorded) is read as well.
    #[test]
    fn cells_name_their_build_and_old_cells_are_read() {
        #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
        struct R {
            x: f64,
            n: u64,
        }
        let dir = tempfile::tempdir().unwrap();
        let cfg = RunConfig {
            out: dir.path().to_path_buf(),
            threads: Some(1),
            progress: false,
            mode: Mode::Whole,
        };
        let cells = cells(2);
        let f = |c: &Cell<u64>| {
            Ok(R {
                x: 0.1 * c.params as f64,
                n: c.params,
            })
        };
        let Ran::Whole(first, _) = run_cells(&cfg, &cells, f).unwrap() else {
            panic!("a whole run gives every result")
        };
        let p0 = dir.path().join("cells/c0.json");
        let text = std::fs::read_to_string(&p0).unwrap();
        let prov = serde_json::to_string(crate::provenance::this_build()).unwrap();
        // Then the cell's stamp: its key and the parameter hash (no manifest here: `null`).
        assert_eq!(
            text,
            format!(
                "{{\"resched\":{prov},\"cell\":{{\"key\":\"c0\",\"params\":\"28350ae3b7b250d7\"}},\"x\":0.0,\"n\":0}}"
            )
        );
        // An old cell file: the result alone.
        std::fs::write(&p0, "{\"x\":0.0,\"n\":0}").unwrap();
        let Ran::Whole(again, stats) = run_cells(&cfg, &cells, f).unwrap() else {
            panic!("a whole run gives every result")
        };
        assert_eq!((again, stats.resumed), (first, 2));
    }

    #[test]
    fn keys_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = RunConfig {
            out: dir.path().to_path_buf(),
            threads: Some(1),
            progress: false,
            mode: Mode::Whole,
        };
        let bad = vec![Cell {
            key: "../x".to_string(),
            params: 0u64,
        }];
        assert!(run_cells(&cfg, &bad, |c| Ok(c.params)).is_err());
        let dup = vec![
            Cell {
                key: "a".to_string(),
                params: 0u64,
            },
            Cell {
                key: "a".to_string(),
                params: 1,
            },
        ];
        assert!(run_cells(&cfg, &dup, |c| Ok(c.params)).is_err());
    }

    #[test]
    fn csv_and_markdown() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        write_csv(&p, &["x", "y"], &[vec!["1".into(), "a,b".into()]]).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "x,y\n1,\"a,b\"\n");
        assert!(write_csv(&p, &["x"], &[vec![]]).is_err());
        let md = markdown_table(&["a".into(), "b".into()], &[vec!["1".into(), "2".into()]]);
        assert_eq!(md, "| a | b |\n|---|---|\n| 1 | 2 |\n");
    }
}
