//! `resched merge`'s checks and the assembly of a campaign's shards (see [`super::shard`]).
//!
//! Merging is in two steps. [`check_shards`] reads every shard's `shard.json` and refuses a set
//! that is not exactly one run split N ways: records of another command, other arguments or
//! another program version, another N, two directories holding the same shard, a shard
//! missing; then it refuses shards made by another build ([`check_builds`]). For a campaign,
//! [`assemble_cells`] then copies the shards' `manifest.json` (the same in every shard, the
//! build that started each aside) and their cell files into the output directory; the
//! campaign is then rerun there in [`super::runner::Mode::Assemble`], which computes nothing
//! and writes every table and figure from the merged cells, exactly as one process writes
//! them after computing the cells itself.
//!
//! # Builds
//! The merge joins what one build computed: every shard's record must name this very build of
//! resched, and that build must be a clean commit ([`Provenance::same_code`]: same version,
//! same commit, neither built from a dirty tree nor of unknown commit). A shard of another
//! version or commit, of a dirty or unknown build, or written before records named their build
//! (an unknown build too) is refused, with how to proceed; so is a campaign cell that another
//! build computed (a shard resumed by another build: its record names the last run's build,
//! each cell file its own). `--allow-mixed-builds` ([`Builds::AllowMixed`]) merges them anyway. The merged output then shows it: its
//! `manifest.json` is the first shard's (naming the build that started it), every cell file
//! keeps the build that computed it, and `results.json` names the build that merged.
use super::shard::{ShardRecord, SHARD_FILE};
use crate::provenance::{self, Provenance};
use resched::error::{Error, Result};
use std::path::{Path, PathBuf};

/// One shard's directory and record.
#[derive(Debug, Clone)]
pub struct ShardDir {
    pub dir: PathBuf,
    pub record: ShardRecord,
}

/// Which builds a merge accepts (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builds {
    /// Only shards made by this very build, a clean commit.
    Same,
    /// Any build (`--allow-mixed-builds`).
    AllowMixed,
}

/// Reads the records of `dirs` and checks that they are the N shards of one run, each once,
/// made by builds that `builds` accepts; returns them in shard order.
pub fn check_shards(dirs: &[PathBuf], builds: Builds) -> Result<Vec<ShardDir>> {
    if dirs.is_empty() {
        return Err(Error::param("dirs", "give the shards' output directories"));
    }
    let mut shards = Vec::with_capacity(dirs.len());
    for d in dirs {
        shards.push(ShardDir {
            dir: d.clone(),
            record: ShardRecord::read(d)?,
        });
    }
    check_set(shards, builds)
}

/// [`check_shards`] on records already read: the N shards of one run, each once, of this
/// version, made by builds that `builds` accepts; returns them in shard order.
pub fn check_set(mut shards: Vec<ShardDir>, builds: Builds) -> Result<Vec<ShardDir>> {
    if shards.is_empty() {
        return Err(Error::param("dirs", "give the shards' output directories"));
    }
    let first = &shards[0];
    for s in &shards[1..] {
        if let Some(field) = differing_field(&first.record, &s.record) {
            return Err(Error::param(
                "dirs",
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
        return Err(Error::param(
            "dirs",
            format!("duplicated shards: {}", dup.join("; ")),
        ));
    }
    let missing: Vec<String> = (0..n)
        .filter(|&i| by_index[i].is_empty())
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(Error::param(
            "dirs",
            format!(
                "missing shards of {}: {} (given {} of {n})",
                describe(&first.record),
                missing.join(", "),
                shards.len()
            ),
        ));
    }
    shards.sort_by_key(|s| s.record.shard.index);
    check_version(&shards[0], super::version())?;
    if builds == Builds::Same {
        check_builds(&shards, provenance::this_build())?;
    }
    Ok(shards)
}

/// Refuses shards of another program version than `this` (their records agree on it, checked
/// before): a version's campaigns are its own, with or without `--allow-mixed-builds`.
fn check_version(s: &ShardDir, this: &str) -> Result<()> {
    if s.record.version == this {
        return Ok(());
    }
    Err(Error::invalid(
        &s.dir.join(SHARD_FILE).display().to_string(),
        "version",
        format!(
            "`{}`: the shards were made by resched {}, and this is resched {this}; a merge \
             joins shards of its own version only (even with `Builds::AllowMixed`): rerun the \
             shards with this version",
            s.record.version, s.record.version
        ),
    ))
}

/// The shards whose build is not known to be `this` one's code, each with why (module doc).
pub fn other_builds(shards: &[ShardDir], this: &Provenance) -> Vec<(PathBuf, String)> {
    shards
        .iter()
        .filter_map(|s| {
            provenance::mismatch(s.record.resched.as_ref(), this).map(|why| {
                (
                    s.dir.clone(),
                    format!("shard {} in {} {why}", s.record.shard, s.dir.display()),
                )
            })
        })
        .collect()
}

/// Refuses shards made by another build than `this` one, or by a build that cannot be told
/// apart from another (dirty tree, unknown commit): names the first three, and says how to
/// proceed.
pub fn check_builds(shards: &[ShardDir], this: &Provenance) -> Result<()> {
    let other = other_builds(shards, this);
    if other.is_empty() {
        return Ok(());
    }
    let named: Vec<&str> = other.iter().take(3).map(|(_, why)| why.as_str()).collect();
    let more = match other.len() - named.len() {
        0 => String::new(),
        1 => " (and 1 other shard)".to_string(),
        n => format!(" (and {n} other shards)"),
    };
    Err(Error::param(
        "dirs",
        format!(
            "{}{more}. A merge joins shards made by this very build of resched, built from a \
             clean commit: rerun the shards and the merge with one such build, or pass \
             `Builds::AllowMixed` to merge them anyway",
            named.join("; ")
        ),
    ))
}

/// Refuses a cell that another build computed: a shard resumed by another build than the one
/// its record names (the record is rewritten by the last run, each cell keeps its own build).
fn check_cell_build(s: &ShardDir, key: &str, bytes: &[u8], this: &Provenance) -> Result<()> {
    let text = String::from_utf8_lossy(bytes);
    let made = provenance::unstamp_object(&text)
        .map_err(|e| Error::invalid(&cell_file(s, key), "resched", e))?
        .0;
    match provenance::mismatch(made.as_ref(), this) {
        None => Ok(()),
        Some(why) => Err(Error::param(
            "dirs",
            format!(
                "cell `{key}` of shard {} in {} {why}: the shard was resumed by another build. \
                 A merge joins shards made by this very build of resched, built from a clean \
                 commit: rerun the shards and the merge with one such build, or pass \
                 `Builds::AllowMixed` to merge them anyway",
                s.record.shard,
                s.dir.display()
            ),
        )),
    }
}

/// `<shard>/cells/<key>.json`, for messages.
fn cell_file(s: &ShardDir, key: &str) -> String {
    s.dir
        .join("cells")
        .join(format!("{key}.json"))
        .display()
        .to_string()
}

/// Checks that a cell file holds the cell it is named after, computed with this run's
/// parameters: its `cell` stamp gives its key and the hash of the parameters that decide it
/// ([`super::shard::params_hash`] of the campaign's `manifest` and the key), and its result is
/// a JSON object. A file without the stamp was written by a resched from before cells recorded
/// it: refused with [`Builds::Same`] (it is another build's), merged unchecked with
/// [`Builds::AllowMixed`], which the returned warning says.
pub fn check_cell(
    s: &ShardDir,
    key: &str,
    bytes: &[u8],
    manifest: &serde_json::Value,
    builds: Builds,
) -> Result<Option<String>> {
    let file = cell_file(s, key);
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Error::invalid(&file, "cell", format!("not UTF-8 text: {e}")))?;
    let cell = super::shard::unstamp_cell(text).map_err(|e| Error::invalid(&file, "cell", e))?;
    if let Err(e) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&cell.result)
    {
        return Err(Error::invalid(
            &file,
            "cell",
            format!("not a cell's JSON object ({e}): a damaged or truncated file; rerun the shard"),
        ));
    }
    let Some(stamp) = cell.stamp else {
        let why = "records no `cell` stamp (its key and the hash of its parameters): written by \
                   a resched from before cells recorded them";
        return match builds {
            Builds::Same => Err(Error::invalid(
                &file,
                "cell",
                format!("{why}; rerun the shard with this build, or pass `Builds::AllowMixed` to merge it unchecked"),
            )),
            Builds::AllowMixed => Ok(Some(format!("{file} {why}: merged unchecked"))),
        };
    };
    if stamp.key != key {
        return Err(Error::invalid(
            &file,
            "cell.key",
            format!(
                "`{}`: this file holds cell `{}`, not `{key}` (cell files swapped or renamed); rerun the shard",
                stamp.key, stamp.key
            ),
        ));
    }
    let want = super::shard::params_hash(manifest, key);
    if stamp.params != want {
        return Err(Error::invalid(
            &file,
            "cell.params",
            format!(
                "`{}`, but cell `{key}` of this run has parameter hash `{want}`: the file was \
                 computed with other parameters (another seed, sizes or algorithms: copied from \
                 another run); rerun the shard",
                stamp.params
            ),
        ));
    }
    Ok(None)
}

/// A campaign's shards own disjoint cells that make up the whole run: no key in two records,
/// and as many keys as the run's total.
pub fn check_units(shards: &[ShardDir]) -> Result<()> {
    let mut owner: std::collections::HashMap<&str, &ShardDir> = std::collections::HashMap::new();
    for s in shards {
        for key in &s.record.units {
            if let Some(o) = owner.insert(key.as_str(), s) {
                return Err(Error::invalid(
                    &s.dir.join(SHARD_FILE).display().to_string(),
                    "units",
                    format!(
                        "cell `{key}` is also claimed by shard {} in {}: records edited or copied",
                        o.record.shard,
                        o.dir.display()
                    ),
                ));
            }
        }
    }
    let total = shards[0].record.total;
    if owner.len() != total {
        return Err(Error::invalid(
            &shards[0].dir.join(SHARD_FILE).display().to_string(),
            "total",
            format!(
                "{total} cells, but the shards' records list {} between them: records edited or copied",
                owner.len()
            ),
        ));
    }
    Ok(())
}

/// The first field in which two shard records of one run may not differ.
fn differing_field(a: &ShardRecord, b: &ShardRecord) -> Option<&'static str> {
    [
        ("format_version", a.format_version != b.format_version),
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
        return Err(Error::param(
            "out",
            format!(
                "{} holds a shard's output; merge into another directory",
                out.display()
            ),
        ));
    }
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    if let Some(o) = canon(out) {
        if let Some(s) = shards.iter().find(|s| canon(&s.dir).as_ref() == Some(&o)) {
            return Err(Error::param(
                "out",
                format!("{} is one of the shards", s.dir.display()),
            ));
        }
    }
    Ok(())
}

/// A campaign's merge, first step: the shards' `manifest.json` (identical in all, the build that
/// started each aside; the first shard's is copied) and every shard's cells copied into `out`.
/// A cell a shard owns but has not written (an unfinished shard) is an error naming the shard,
/// so is a cell file that holds another cell or was computed with other parameters
/// ([`check_cell`]); with [`Builds::Same`], so is a cell another build computed (module doc).
/// Returns the warnings of what [`Builds::AllowMixed`] let through unchecked.
pub fn assemble_cells(shards: &[ShardDir], out: &Path, builds: Builds) -> Result<Vec<String>> {
    check_out(shards, out)?;
    check_units(shards)?;
    let mut warnings = Vec::new();
    let manifest = |s: &ShardDir| resched::error::read_text(&s.dir.join("manifest.json"));
    let parsed = |path: &Path, text: &str| -> Result<serde_json::Value> {
        let v =
            serde_json::from_str(text).map_err(|e| Error::json(&path.display().to_string(), &e))?;
        Ok(super::shard::without_provenance(v))
    };
    let text = manifest(&shards[0])?;
    let first = parsed(&shards[0].dir.join("manifest.json"), &text)?;
    for s in &shards[1..] {
        let other = manifest(s)?;
        if other != text && parsed(&s.dir.join("manifest.json"), &other)? != first {
            return Err(Error::param(
                "dirs",
                format!(
                    "{}/manifest.json and {}/manifest.json differ: the shards ran different campaigns",
                    shards[0].dir.display(),
                    s.dir.display()
                ),
            ));
        }
    }
    let target = out.join("manifest.json");
    if target.exists() && parsed(&target, &resched::error::read_text(&target)?)? != first {
        return Err(Error::param(
            "out",
            format!(
                "{} holds another campaign's results; merge into a new directory",
                out.display()
            ),
        ));
    }
    let cells = out.join("cells");
    std::fs::create_dir_all(&cells).map_err(|e| Error::io(&cells, e))?;
    resched::error::write_atomic(&target, text.as_bytes())?;
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
                Error::param(
                    "dirs",
                    format!(
                        "shard {} in {} has not finished: cell `{key}`: {e}",
                        s.record.shard,
                        s.dir.display()
                    ),
                )
            })?;
            if builds == Builds::Same {
                check_cell_build(s, key, &bytes, provenance::this_build())?;
            }
            warnings.extend(check_cell(s, key, &bytes, &first, builds)?);
            resched::error::write_atomic(&cells.join(format!("{key}.json")), &bytes)?;
        }
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(commit: &str, dirty: bool) -> Provenance {
        Provenance {
            version: "0.2.0".into(),
            commit: commit.into(),
            dirty: Some(dirty),
        }
    }

    /// A cell holds the cell it is named after with this run's parameter hash; another key, another
    /// hash, text that is not a JSON object, and (with the same-build rule) no stamp at all are
    /// refused naming the file and the field; a stamp-less cell passes `AllowMixed` with a warning.
    #[test]
    fn cells_are_checked_against_their_name_and_parameters() {
        use crate::experiment::shard::{params_hash, stamp_cell, CellStamp};
        let s = ShardDir {
            dir: PathBuf::from("s"),
            record: ShardRecord::new("experiment", vec![], "0/1".parse().unwrap(), 1),
        };
        let m = serde_json::json!({"seed": 1});
        let cell = |key: &str, params: String| {
            stamp_cell(
                r#"{"x":1}"#,
                &CellStamp {
                    key: key.into(),
                    params,
                },
            )
        };
        let good = cell("c0", params_hash(&m, "c0"));
        assert_eq!(
            check_cell(&s, "c0", good.as_bytes(), &m, Builds::Same).unwrap(),
            None
        );
        let msg =
            |bytes: &[u8], b: Builds| check_cell(&s, "c0", bytes, &m, b).unwrap_err().to_string();
        let e = msg(
            cell("c1", params_hash(&m, "c1")).as_bytes(),
            Builds::AllowMixed,
        );
        assert!(
            e.contains("s/cells/c0.json") && e.contains("field `cell.key`: `c1`"),
            "{e}"
        );
        let other = serde_json::json!({"seed": 9});
        let e = msg(
            cell("c0", params_hash(&other, "c0")).as_bytes(),
            Builds::AllowMixed,
        );
        assert!(
            e.contains("field `cell.params`") && e.contains("other parameters"),
            "{e}"
        );
        let e = msg(&good.as_bytes()[..good.len() - 3], Builds::AllowMixed);
        assert!(e.contains("damaged or truncated"), "{e}");
        let e = msg(br#"{"x":1}"#, Builds::Same);
        assert!(e.contains("records no `cell` stamp"), "{e}");
        let w = check_cell(&s, "c0", br#"{"x":1}"#, &m, Builds::AllowMixed).unwrap();
        assert!(w.is_some_and(|w| w.contains("merged unchecked")));
    }

    /// Records and cells of this clean build pass; another commit, a dirty tree or no recorded
    /// build is refused, naming the shard (and the cell) and what to do.
    #[test]
    fn only_this_clean_build_passes() {
        let this = build("abc", false);
        let shard = |dir: &str, made: Option<Provenance>| ShardDir {
            dir: PathBuf::from(dir),
            record: ShardRecord {
                resched: made,
                ..ShardRecord::new("experiment", vec![], "0/1".parse().unwrap(), 1)
            },
        };
        assert!(check_builds(&[shard("s", Some(this.clone()))], &this).is_ok());
        for (made, why) in [
            (
                Some(build("def", false)),
                "shard 0/1 in s was made by resched 0.2.0 (commit def), and this is",
            ),
            (
                Some(build("abc", true)),
                "builds from a dirty tree cannot be told apart",
            ),
            (None, "shard 0/1 in s records no build"),
        ] {
            let e = check_builds(&[shard("s", made)], &this)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why) && e.contains("`Builds::AllowMixed`"), "{e}");
        }
        let s = shard("s", Some(this.clone()));
        let cell = |p: &Provenance| {
            format!(
                r#"{{"resched":{},"x":1}}"#,
                serde_json::to_string(p).unwrap()
            )
        };
        assert!(check_cell_build(&s, "c0", cell(&this).as_bytes(), &this).is_ok());
        let e = check_cell_build(&s, "c0", cell(&build("def", false)).as_bytes(), &this)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("cell `c0` of shard 0/1 in s was made by resched 0.2.0 (commit def)")
                && e.contains("resumed by another build"),
            "{e}"
        );
        let e = check_cell_build(&s, "c0", br#"{"x":1}"#, &this)
            .unwrap_err()
            .to_string();
        assert!(e.contains("records no build"), "{e}");
    }
}
