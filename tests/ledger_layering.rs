//! DESIGN rule: the theorem ledger (`proofs/`) depends on the engine, never the reverse.
//!
//! Scans every `.rs` file under `src/` except the CLI (which presents the ledger) and
//! `src/lib.rs` (which declares the module) and fails if one mentions `proofs::`.
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_engine_never_depends_on_the_ledger() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > 5,
        "found only {} files under {}",
        files.len(),
        src.display()
    );
    let mut offenders = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        if rel.starts_with("cli") || rel == Path::new("lib.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (i, line) in text.lines().enumerate() {
            if line.contains("proofs::") {
                offenders.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "the engine must not depend on the ledger (proofs/):\n{}",
        offenders.join("\n")
    );
}
