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
            // Only files that exist: cargo reruns a script on every build while a path it
            // watches is missing (a checkout without `packed-refs`, or whose branch is packed),
            // and every crate built on this one with it.
            let head_ref = git(&["symbolic-ref", "-q", "HEAD"]);
            let watched = ["HEAD", "index", "packed-refs"]
                .into_iter()
                .map(|f| gitdir.join(f))
                .chain(head_ref.map(|r| gitdir.join(r)));
            for f in watched.filter(|f| f.exists()) {
                println!("cargo:rerun-if-changed={}", f.display());
            }
        }
        for d in ["src", "proofs", "cli/src", "Cargo.toml", "cli/Cargo.toml"] {
            println!("cargo:rerun-if-changed={}", top.join(d).display());
        }
    }
}
