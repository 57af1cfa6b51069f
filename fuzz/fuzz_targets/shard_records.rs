//! Fuzz target: the records `resched merge` reads (`resched_cli::experiment::shard` and
//! `merge`) never panic. The input is split on `\n===\n` into shard records (`shard.json`),
//! then a manifest and cell files: every record that parses is valid (index below count,
//! units within total), a set of them is checked as one run without a panic (it panicked on an
//! index ≥ count), and a cell file is either refused with a message or holds the cell it is
//! named after with this manifest's parameter hash.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched_cli::experiment::merge::{check_cell, check_set, check_units, Builds, ShardDir};
use resched_cli::experiment::shard::{params_hash, unstamp_cell, ShardRecord};
use std::path::PathBuf;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parts: Vec<&str> = text.split("\n===\n").collect();
    let mut shards = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if let Ok(record) = ShardRecord::parse(p, "shard.json") {
            assert!(record.shard.index < record.shard.count);
            assert!(record.units.len() <= record.total);
            shards.push(ShardDir {
                dir: PathBuf::from(format!("s{i}")),
                record,
            });
        }
    }
    if !shards.is_empty() {
        let _ = check_units(&shards);
        let _ = check_set(shards.clone(), Builds::AllowMixed);
    }
    let manifest: serde_json::Value = parts
        .first()
        .and_then(|p| serde_json::from_str(p).ok())
        .unwrap_or(serde_json::Value::Null);
    let dir = ShardDir {
        dir: PathBuf::from("s"),
        record: ShardRecord::new("experiment", Vec::new(), "0/1".parse().expect("0/1"), 1),
    };
    for p in &parts {
        let _ = unstamp_cell(p);
        for builds in [Builds::Same, Builds::AllowMixed] {
            if let Ok(None) = check_cell(&dir, "c0", p.as_bytes(), &manifest, builds) {
                let cell = unstamp_cell(p).expect("an accepted cell unstamps");
                let stamp = cell.stamp.expect("an accepted cell without a warning has a stamp");
                assert_eq!(stamp.key, "c0");
                assert_eq!(stamp.params, params_hash(&manifest, "c0"));
            }
        }
    }
});
