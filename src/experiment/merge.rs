//! `resched merge`'s checks and the assembly of a campaign's shards (see [`super::shard`]).
//!
//! Merging is in two steps. [`check_shards`] reads every shard's `shard.json` and refuses a set
//! that is not exactly one run split N ways: records of another command, other arguments or
//! another program version, another N, two directories holding the same shard, a shard
//! missing. For a campaign, [`assemble_cells`] then copies the shards' `manifest.json` (the
//! same in every shard, byte for byte) and their cell files into the output directory; the
//! campaign is then rerun there in [`super::runner::Mode::Assemble`], which computes nothing
//! and writes every table and figure from the merged cells, exactly as one process writes
//! them after computing the cells itself.
use super::shard::{ShardRecord, SHARD_FILE};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// One shard's directory and record.
#[derive(Debug, Clone)]
pub struct ShardDir {
    pub dir: PathBuf,
    pub record: ShardRecord,
}

/// Reads the records of `dirs` and checks that they are the N shards of one run, each once;
/// returns them in shard order.
pub fn check_shards(dirs: &[PathBuf]) -> Result<Vec<ShardDir>> {
    if dirs.is_empty() {
        return Err(Error::option("DIR", "give the shards' output directories"));
    }
    let mut shards = Vec::with_capacity(dirs.len());
    for d in dirs {
        shards.push(ShardDir {
            dir: d.clone(),
            record: ShardRecord::read(d)?,
        });
    }
    let first = &shards[0];
    for s in &shards[1..] {
        if let Some(field) = differing_field(&first.record, &s.record) {
            return Err(Error::option(
                "DIR",
                format!(
                    "{} and {} are not shards of one run (their `{field}` differs): {} vs {}",
                    first.dir.display(),
                    s.dir.display(),
                    describe(&first.record),
                    describe(&s.record)
                ),
            ));
        }
    }
    let n = first.record.shard.count;
    let mut by_index: Vec<Vec<&ShardDir>> = vec![Vec::new(); n];
    for s in &shards {
        by_index[s.record.shard.index].push(s);
    }
    let dup: Vec<String> = by_index
        .iter()
        .filter(|v| v.len() > 1)
        .map(|v| {
            let names: Vec<String> = v.iter().map(|s| s.dir.display().to_string()).collect();
            format!("shard {} in {}", v[0].record.shard, names.join(" and "))
        })
        .collect();
    if !dup.is_empty() {
        return Err(Error::option(
            "DIR",
            format!("duplicated shards: {}", dup.join("; ")),
        ));
    }
    let missing: Vec<String> = (0..n)
        .filter(|&i| by_index[i].is_empty())
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::option(
            "DIR",
            format!(
                "missing shards of {}: {} (given {} of {n})",
                describe(&first.record),
                missing.join(", "),
                shards.len()
            ),
        ));
    }
    shards.sort_by_key(|s| s.record.shard.index);
    Ok(shards)
}

/// The first field in which two shard records of one run may not differ.
fn differing_field(a: &ShardRecord, b: &ShardRecord) -> Option<&'static str> {
    [
        ("format", a.format != b.format),
        ("command", a.command != b.command),
        ("args", a.args != b.args),
        ("version", a.version != b.version),
        ("shard count N", a.shard.count != b.shard.count),
        ("total", a.total != b.total),
    ]
    .into_iter()
    .find(|(_, differ)| *differ)
    .map(|(f, _)| f)
}

/// `command args (version v, shard I/N)`.
fn describe(r: &ShardRecord) -> String {
    format!(
        "`{} {}` (version {}, shard {})",
        r.command,
        r.args.join(" "),
        r.version,
        r.shard
    )
}

/// Refuses an output directory that is one of the shards or a shard's output itself.
pub fn check_out(shards: &[ShardDir], out: &Path) -> Result<()> {
    if out.join(SHARD_FILE).exists() {
        return Err(Error::option(
            "--out",
            format!(
                "{} holds a shard's output; merge into another directory",
                out.display()
            ),
        ));
    }
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    if let Some(o) = canon(out) {
        if let Some(s) = shards.iter().find(|s| canon(&s.dir).as_ref() == Some(&o)) {
            return Err(Error::option(
                "--out",
                format!("{} is one of the shards", s.dir.display()),
            ));
        }
    }
    Ok(())
}

/// A campaign's merge, first step: the shards' `manifest.json` (identical in all) and every
/// shard's cells copied into `out`. A cell a shard owns but has not written (an unfinished
/// shard) is an error naming the shard.
pub fn assemble_cells(shards: &[ShardDir], out: &Path) -> Result<()> {
    check_out(shards, out)?;
    let manifest = |s: &ShardDir| crate::error::read_text(&s.dir.join("manifest.json"));
    let text = manifest(&shards[0])?;
    for s in &shards[1..] {
        if manifest(s)? != text {
            return Err(Error::option(
                "DIR",
                format!(
                    "{}/manifest.json and {}/manifest.json differ: the shards ran different campaigns",
                    shards[0].dir.display(),
                    s.dir.display()
                ),
            ));
        }
    }
    let target = out.join("manifest.json");
    if target.exists() && crate::error::read_text(&target)? != text {
        return Err(Error::option(
            "--out",
            format!(
                "{} holds another campaign's results; merge into a new directory",
                out.display()
            ),
        ));
    }
    let cells = out.join("cells");
    std::fs::create_dir_all(&cells).map_err(|e| Error::io(&cells, e))?;
    crate::error::write_atomic(&target, text.as_bytes())?;
    for s in shards {
        for key in &s.record.units {
            if !super::runner::valid_key(key) {
                return Err(Error::invalid(
                    &s.dir.join(SHARD_FILE).display().to_string(),
                    "units",
                    format!("`{key}` is not a cell key"),
                ));
            }
            let from = s.dir.join("cells").join(format!("{key}.json"));
            let bytes = std::fs::read(&from).map_err(|e| {
                Error::option(
                    "DIR",
                    format!(
                        "shard {} in {} has not finished: cell `{key}`: {e}",
                        s.record.shard,
                        s.dir.display()
                    ),
                )
            })?;
            crate::error::write_atomic(&cells.join(format!("{key}.json")), &bytes)?;
        }
    }
    Ok(())
}
