//! Sharding: `--shard I/N` splits a campaign's cells (or an exhaustive scope's instances, or a
//! search's restarts) into N disjoint parts so that N processes — a Slurm job array — compute
//! together exactly what one process computes, and `resched merge` joins them (see
//! [`super::merge`]).
//!
//! # The partition
//! It depends only on the position of a unit in the work list and on (I, N), never on the
//! thread count nor on what another shard did:
//! - campaign cells go round-robin ([`Shard::owns`]: cell k belongs to shard k mod N), because
//!   a campaign's cost grows along its grid (larger P, higher q̄) and round-robin gives every
//!   shard its share of the expensive end; the merged directory is re-aggregated from all the
//!   cells, so the order in which shards computed them does not matter;
//! - exhaustive instances and search restarts go in contiguous blocks ([`Shard::block`]),
//!   because their reports are folds whose ties keep the first case in enumeration order:
//!   folding shard 0's report, then shard 1's, … is then the fold of the whole list.
//!
//! # The shard record
//! Every sharded run writes `<out>/shard.json` ([`ShardRecord`]): its `format_version`, the
//! command and the arguments that determine the result, the program version and the build that
//! ran it (`resched`: version, commit, dirty tree; [`crate::provenance`]), the shard I/N, and the
//! units it owns. The merge compares these records, never guesses. A record written before the
//! format was versioned says `"format": 1` and names no build: it is read as version 1 of an
//! unknown build (which the merge refuses unless told, see [`super::merge`]).
use crate::provenance::Provenance;
use resched::error::{Error, Result};
use resched::model::json::{check_format_version, newer_format_version};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Process `index` of `count` (0-based), as given by `--shard I/N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// The largest N accepted: a bound on what a typo (`--shard 0/1000000000`) can ask for.
pub const MAX_SHARDS: usize = 100_000;

impl std::str::FromStr for Shard {
    type Err = Error;

    /// Parses `I/N` with N ≥ 1 and I < N; the error names parameter `shard`.
    fn from_str(s: &str) -> Result<Shard> {
        let bad = |msg: &str| Error::param("shard", format!("`{s}`: {msg}"));
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| bad("expected I/N, e.g. 0/4 (shard I of N, I from 0 to N-1)"))?;
        let parse = |v: &str, what: &str| {
            v.trim()
                .parse::<usize>()
                .map_err(|_| bad(&format!("{what} `{v}` is not a non-negative integer")))
        };
        let (index, count) = (parse(i, "I")?, parse(n, "N")?);
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if count > MAX_SHARDS {
            return Err(bad(&format!("N must be at most {MAX_SHARDS}")));
        }
        if index >= count {
            return Err(bad(&format!("I must be below N (0 to {})", count - 1)));
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Round-robin: unit `k` of a list belongs to this shard.
    pub fn owns(&self, k: usize) -> bool {
        k % self.count == self.index
    }

    /// Contiguous blocks: the range of a list of `len` units this shard owns. The blocks of
    /// shards 0..N tile 0..len in order; their sizes differ by at most one.
    pub fn block(&self, len: usize) -> std::ops::Range<usize> {
        // len · index ≤ len · N: computed in u128 so no product can wrap.
        let at = |i: usize| (len as u128 * i as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

/// The newest version of the `shard.json` format this build reads and the one it writes.
pub const FORMAT_VERSION: u32 = 1;

/// The version of a record that does not give one.
fn first_version() -> u32 {
    1
}

/// `<out>/shard.json`: what one shard ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardRecord {
    /// [`FORMAT_VERSION`] (`format` in the records written before it was named so).
    #[serde(alias = "format", default = "first_version")]
    pub format_version: u32,
    /// `experiment`, `prove-exhaustive` or `prove-search`.
    pub command: String,
    /// The arguments that determine the result (those of execution — `--out`, `--shard`,
    /// `--threads`, `--no-progress` — left out): the merge reruns the command with them.
    pub args: Vec<String>,
    /// The working directory of the run (relative paths in `args` are relative to it).
    pub cwd: String,
    /// The program version.
    pub version: String,
    /// The build that ran the shard; `None` in records written before builds were recorded.
    #[serde(default)]
    pub resched: Option<Provenance>,
    pub shard: Shard,
    /// How many units the whole run has.
    pub total: usize,
    /// The units this shard owns, by key (cell keys) or index.
    pub units: Vec<String>,
}

impl ShardRecord {
    /// A record of this program's version for `shard` of `command args`.
    pub fn new(command: &str, args: Vec<String>, shard: Shard, total: usize) -> ShardRecord {
        ShardRecord {
            format_version: FORMAT_VERSION,
            command: command.to_string(),
            args,
            cwd: std::env::current_dir()
                .map(|d| d.display().to_string())
                // default: the working directory is recorded for the reader only; merge never reads it
                .unwrap_or_default(),
            version: super::version().to_string(),
            resched: Some(crate::provenance::this_build().clone()),
            shard,
            total,
            units: Vec::new(),
        }
    }

    /// Writes `<dir>/shard.json`. A directory that already holds another shard's record (other
    /// I/N, command or arguments) is refused: a shard never overwrites another's results.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(SHARD_FILE);
        if path.exists() {
            let old = ShardRecord::read(dir)?;
            if (&old.command, &old.args, &old.shard) != (&self.command, &self.args, &self.shard) {
                return Err(Error::param(
                    "out",
                    format!(
                        "{} holds shard {} of `{} {}`; use one directory per shard",
                        dir.display(),
                        old.shard,
                        old.command,
                        old.args.join(" ")
                    ),
                ));
            }
        }
        // Written here, not with the runner's `write_json`: the runner uses this module.
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::Limit(format!("{}: {e}", path.display())))?;
        resched::error::write_atomic(&path, text.as_bytes())
    }

    /// Reads `<dir>/shard.json`; a directory without one is named as not a shard's output.
    pub fn read(dir: &Path) -> Result<ShardRecord> {
        let path = dir.join(SHARD_FILE);
        if !path.is_file() {
            return Err(Error::param(
                "dirs",
                format!(
                    "{} has no {SHARD_FILE}: not the output of a run with `shard`",
                    dir.display()
                ),
            ));
        }
        let text = resched::error::read_text(&path)?;
        ShardRecord::parse(&text, &path.display().to_string())
    }

    /// Reads a record's text (`file` names it in errors): its format version, its fields, then
    /// [`ShardRecord::validate`].
    pub fn parse(text: &str, file: &str) -> Result<ShardRecord> {
        let rec: ShardRecord = serde_json::from_str(text).map_err(|e| {
            // A newer format's new fields broke the parse: its version is the clear message.
            newer_format_version(text, FORMAT_VERSION)
                .map_or_else(|| Error::json(file, &e), |v| v.in_file(file))
        })?;
        check_format_version(Some(rec.format_version), FORMAT_VERSION)
            .map_err(|e| e.in_file(file))?;
        rec.validate(file)?;
        Ok(rec)
    }

    /// A record as a run writes it: shard I of N with 1 ≤ N ≤ [`MAX_SHARDS`] and I < N, and
    /// no more units than the run has, each once. A record edited by hand is refused naming the
    /// field, never trusted as an index.
    pub fn validate(&self, file: &str) -> Result<()> {
        let Shard { index, count } = self.shard;
        if count == 0 || count > MAX_SHARDS {
            return Err(Error::invalid(
                file,
                "shard.count",
                format!("{count}: must be from 1 to {MAX_SHARDS}"),
            ));
        }
        if index >= count {
            return Err(Error::invalid(
                file,
                "shard.index",
                format!("{index}: must be below the count {count}"),
            ));
        }
        if self.units.len() > self.total {
            return Err(Error::invalid(
                file,
                "units",
                format!(
                    "{} units, more than the run's total {}",
                    self.units.len(),
                    self.total
                ),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(u) = self.units.iter().find(|u| !seen.insert(u.as_str())) {
            return Err(Error::invalid(
                file,
                "units",
                format!("`{u}` is listed twice"),
            ));
        }
        Ok(())
    }
}

/// The name of a shard's record.
pub const SHARD_FILE: &str = "shard.json";

/// What a cell file says about the cell it holds (its `cell` field, just after `resched`):
/// its key and [`params_hash`] of the campaign's parameters and that key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellStamp {
    pub key: String,
    pub params: String,
}

/// The hash of what decides a cell's result: the campaign's manifest without its `resched`
/// field (name, version, seed, sizes, algorithms, every parameter; serialized with sorted keys)
/// and the cell's key (its point of the grid). A cell's computation reads nothing else, so two
/// cells with one hash hold the same result. 64-bit FNV-1a, as 16 hex digits: a check against
/// files copied from another run or moved to another cell, not a signature against forgery.
/// A campaign run without a manifest (the runner's own tests) hashes `null` for it.
pub fn params_hash(manifest: &serde_json::Value, key: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let text = manifest.to_string();
    for b in text.bytes().chain([0u8]).chain(key.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The manifest of the campaign in `out` without its `resched` field, for [`params_hash`];
/// `null` when there is none.
pub fn cell_manifest(out: &Path) -> Result<serde_json::Value> {
    let path = out.join("manifest.json");
    if !path.exists() {
        return Ok(serde_json::Value::Null);
    }
    let text = resched::error::read_text(&path)?;
    let v =
        serde_json::from_str(&text).map_err(|e| Error::json(&path.display().to_string(), &e))?;
    Ok(without_provenance(v))
}

/// A manifest without its `resched` field: what two runs of one campaign must share.
pub fn without_provenance(mut manifest: serde_json::Value) -> serde_json::Value {
    if let Some(o) = manifest.as_object_mut() {
        o.remove("resched");
    }
    manifest
}

/// `text` (a cell's JSON object) with its [`CellStamp`] then the build's provenance in front:
/// `{"resched":{…},"cell":{"key":…,"params":…},<result fields>}`.
pub fn stamp_cell(text: &str, stamp: &CellStamp) -> String {
    let Some(rest) = text.strip_prefix('{') else {
        return crate::provenance::stamp_object(text);
    };
    let cell = serde_json::to_string(stamp)
        // unreachable: a struct of two strings always serializes
        .unwrap_or_else(|_| "null".into());
    let sep = if rest.trim_start().starts_with('}') {
        ""
    } else {
        ","
    };
    crate::provenance::stamp_object(&format!("{{{CELL_KEY}{cell}{sep}{rest}"))
}

/// What [`stamp_cell`] puts after the provenance.
const CELL_KEY: &str = "\"cell\":";

/// A cell file read back: the build that computed it, its stamp (`None` in files written before
/// cells recorded theirs) and the result's own text, byte for byte as it was serialized.
pub struct UnstampedCell {
    pub build: Option<Provenance>,
    pub stamp: Option<CellStamp>,
    pub result: String,
}

/// The inverse of [`stamp_cell`]; `Err` names what is malformed.
pub fn unstamp_cell(text: &str) -> std::result::Result<UnstampedCell, String> {
    let (build, rest) = crate::provenance::unstamp_object(text)?;
    let Some(after) = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_prefix(CELL_KEY))
    else {
        return Ok(UnstampedCell {
            build,
            stamp: None,
            result: rest.into_owned(),
        });
    };
    let mut it = serde_json::Deserializer::from_str(after).into_iter::<CellStamp>();
    let stamp = match it.next() {
        Some(Ok(s)) => s,
        Some(Err(e)) => return Err(format!("field `cell`: {e}")),
        None => return Err("field `cell`: no value".into()),
    };
    let tail = &after[it.byte_offset()..];
    let result = match tail.strip_prefix(',') {
        Some(f) => format!("{{{f}"),
        None if tail.trim_start().starts_with('}') => format!("{{{}", tail.trim_start()),
        None => return Err("expected `,` or `}` after field `cell`".into()),
    };
    Ok(UnstampedCell {
        build,
        stamp: Some(stamp),
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_validates() {
        let s: Shard = "2/5".parse().unwrap();
        assert_eq!(s, Shard { index: 2, count: 5 });
        assert_eq!(s.to_string(), "2/5");
        for (bad, msg) in [
            ("5/5", "I must be below N (0 to 4)"),
            ("0/0", "N must be at least 1"),
            ("1", "expected I/N"),
            ("-1/3", "I `-1` is not a non-negative integer"),
            ("a/3", "I `a`"),
            ("0/x", "N `x`"),
            ("0/100001", "at most 100000"),
        ] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(
                e.contains("parameter `shard`") && e.contains(msg),
                "{bad}: {e}"
            );
        }
    }

    /// Round-robin and blocks are partitions: every unit in exactly one shard.
    #[test]
    fn partitions_cover_every_unit_once() {
        for len in [0usize, 1, 2, 7, 10, 101] {
            for n in 1..=6 {
                let shards: Vec<Shard> = (0..n).map(|index| Shard { index, count: n }).collect();
                let mut next = 0;
                for s in &shards {
                    let b = s.block(len);
                    assert_eq!(b.start, next, "len {len}, shard {s}");
                    assert!(b.len() <= len / n + 1 && b.len() >= len / n);
                    next = b.end;
                }
                assert_eq!(next, len);
                for k in 0..len {
                    assert_eq!(shards.iter().filter(|s| s.owns(k)).count(), 1);
                }
            }
        }
        assert_eq!(Shard { index: 1, count: 3 }.block(10), 3..6);
    }

    /// The hash is FNV-1a of the manifest's compact JSON, a NUL and the key: pinned, so that
    /// cells written by one build are checked by the next.
    #[test]
    fn params_hash_is_pinned_and_stamps_round_trip() {
        let m = serde_json::json!({"seed": 1, "campaign": "x"});
        // Computed independently (Python: FNV-1a 64 of b'null\x00' and of the sorted compact
        // JSON, a NUL and the key).
        assert_eq!(
            params_hash(&serde_json::Value::Null, ""),
            "2ab82c9a31421b6c"
        );
        assert_eq!(params_hash(&m, "p00-s000"), "c8333ecaea8b23e9");
        assert_ne!(params_hash(&m, "p00-s000"), params_hash(&m, "p01-s000"));
        let m9 = serde_json::json!({"seed": 9, "campaign": "x"});
        assert_ne!(params_hash(&m, "k"), params_hash(&m9, "k"));
        let stamp = CellStamp {
            key: "k".into(),
            params: params_hash(&m, "k"),
        };
        for text in [r#"{"x":1,"y":[2]}"#, "{}"] {
            let stamped = stamp_cell(text, &stamp);
            assert!(stamped.starts_with("{\"resched\":{"), "{stamped}");
            let back = unstamp_cell(&stamped).unwrap();
            assert_eq!(back.stamp.as_ref(), Some(&stamp));
            assert_eq!(back.result, text);
            assert_eq!(back.build.as_ref(), Some(crate::provenance::this_build()));
        }
        let old = unstamp_cell(r#"{"x":1}"#).unwrap();
        assert_eq!((old.stamp, old.result.as_str()), (None, r#"{"x":1}"#));
        assert!(unstamp_cell(r#"{"cell":5,"x":1}"#)
            .err()
            .is_some_and(|e| e.contains("field `cell`")));
    }

    /// A record edited by hand is refused naming the field, never used as an index.
    #[test]
    fn tampered_records_are_refused() {
        let good = ShardRecord::new("experiment", vec![], "1/3".parse().unwrap(), 4);
        let text = |r: &ShardRecord| serde_json::to_string(r).unwrap();
        assert!(ShardRecord::parse(&text(&good), "s.json").is_ok());
        let mut r = good.clone();
        r.shard.index = 3;
        let e = ShardRecord::parse(&text(&r), "s.json")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("field `shard.index`: 3: must be below the count 3"),
            "{e}"
        );
        let mut r = good.clone();
        r.shard.count = 0;
        r.shard.index = 0;
        let e = ShardRecord::parse(&text(&r), "s.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("field `shard.count`"), "{e}");
        let mut r = good.clone();
        r.units = vec!["a".into(), "a".into()];
        let e = ShardRecord::parse(&text(&r), "s.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`a` is listed twice"), "{e}");
        let mut r = good;
        r.units = (0..5).map(|i| i.to_string()).collect();
        let e = ShardRecord::parse(&text(&r), "s.json")
            .unwrap_err()
            .to_string();
        assert!(e.contains("5 units, more than the run's total 4"), "{e}");
    }

    #[test]
    fn record_refuses_another_shard_in_its_directory() {
        let dir = tempfile::tempdir().unwrap();
        let a = ShardRecord::new("experiment", vec!["x".into()], "0/2".parse().unwrap(), 4);
        a.write(dir.path()).unwrap();
        assert_eq!(ShardRecord::read(dir.path()).unwrap(), a);
        a.write(dir.path()).unwrap();
        let b = ShardRecord::new("experiment", vec!["x".into()], "1/2".parse().unwrap(), 4);
        let e = b.write(dir.path()).unwrap_err().to_string();
        assert!(e.contains("holds shard 0/2"), "{e}");
        let e = ShardRecord::read(&dir.path().join("none"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no shard.json"), "{e}");
    }
}
