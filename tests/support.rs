//! Helpers shared by the test modules: where the repository and `../shared` are, the Rust
//! source files of a tree (for the tests that read the code itself), the program under test,
//! and the checker's verdict on an integer-model schedule of the optimum's tests.
use std::path::{Path, PathBuf};

/// The repository's root (the workspace root; the test binary belongs to `cli/`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent: the repository")
        .to_path_buf()
}

/// `<repo>/../shared/<sub>` (CI and the main checkout), or `../../shared/<sub>` from a git
/// worktree one level deeper; the first candidate when neither exists, so that the caller's
/// message names the expected place.
pub fn shared(sub: &str) -> PathBuf {
    let root = repo();
    let candidates = [
        root.join("../shared").join(sub),
        root.join("../../shared").join(sub),
    ];
    candidates
        .iter()
        .find(|d| d.exists())
        .unwrap_or(&candidates[0])
        .clone()
}

/// Every `.rs` file below `dir`, recursively, in a stable order.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The `resched` program built with this test binary.
pub const fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_resched")
}

/// The `resched` column of the CSVs the program writes: the build of this very tree, as the
/// program under test was built with this test binary.
pub fn build_tag() -> String {
    resched_cli::provenance::this_build().tag()
}

/// Runs `resched ARGS` and returns its output (the program must start; what it prints and its
/// exit code are the caller's to check).
pub fn resched(args: &[&str]) -> std::process::Output {
    std::process::Command::new(bin())
        .args(args)
        .output()
        .expect("run resched")
}

/// The rows of a CSV file with a header, each a map from column name to cell (the Batsim
/// `jobs.csv` tests read their exports this way).
pub fn csv_rows(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let head: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            head.iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The makespan of an integer-model schedule of an instance whose times are integers (the
/// model's scale is 1), checked by the independent checker; panics with the violation.
pub fn checked(
    inst: &resched::model::Instance,
    sc: &resched::model::Scenario,
    s: &resched::opt::greedy::IntSchedule,
) -> resched::Time {
    use resched::model::{Attempt, Schedule};
    use resched::Time;
    let attempts = s
        .attempts
        .iter()
        .map(|a| Attempt {
            job: a.job,
            attempt: a.attempt,
            start: Time::from_int(a.start),
            procs: a.procs,
            duration: Time::from_int(a.dur),
            nodes: None,
        })
        .collect();
    let schedule = Schedule {
        attempts,
        makespan: None,
        algorithm: None,
    };
    resched::check::check(inst, sc, &schedule).unwrap_or_else(|v| panic!("{v}"))
}
