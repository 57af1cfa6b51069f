//! Records which commit the `resched` program is built from, for `resched --version` and the
//! provenance every result file carries (src/provenance.rs). A build outside a git checkout
//! (a tarball, a registry download) records "unknown" and never fails.
use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        // A read-only look: `git status` must not rewrite the index (which would make cargo
        // rerun this script on the next build).
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty());
    let dirty = commit.as_ref().and_then(|_| {
        git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty())
    });
    println!(
        "cargo:rustc-env=RESCHED_GIT_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    println!(
        "cargo:rustc-env=RESCHED_GIT_DIRTY={}",
        match dirty {
            Some(true) => "dirty",
            Some(false) => "clean",
            None => "unknown",
        }
    );
    // Rerun when the commit moves or a tracked file of the workspace changes, so that the
    // dirty flag follows the tree the binary was built from.
    if let Some(top) = git(&["rev-parse", "--show-toplevel"]) {
        let top = Path::new(&top);
        if let Some(gitdir) = git(&["rev-parse", "--absolute-git-dir"]) {
            let gitdir = Path::new(&gitdir);
            for f in ["HEAD", "index", "packed-refs"] {
                println!("cargo:rerun-if-changed={}", gitdir.join(f).display());
            }
            if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"]) {
                println!("cargo:rerun-if-changed={}", gitdir.join(head_ref).display());
            }
        }
        for d in ["src", "proofs", "cli/src", "Cargo.toml", "cli/Cargo.toml"] {
            println!("cargo:rerun-if-changed={}", top.join(d).display());
        }
    }
}
