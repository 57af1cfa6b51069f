//! `resched diff`'s defaults do not give false confidence, and `--ties` tells a floating-point
//! program's decisions on exact ties from bugs. Against the programs of `tests/diff_impls/`:
//! `buggy_greedy.py --float --no-bug` (a correct GREEDY in binary floating point),
//! `buggy_greedy.py` (completions of one instant handled one at a time), `greedy.py` (exact
//! and correct) and `lpa_list_float.py` (LPA-LIST from the moldable paper, in floats).
//! Every run is seeded: the same command finds the same case.
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = crate::support::bin();

fn py(script: &str, args: &str) -> String {
    let path = crate::support::repo().join("tests/diff_impls").join(script);
    format!("python3 -S {} {args}", path.display())
}

/// Runs `resched diff ARGS`: exit code and standard output and error together.
fn diff(args: &[&str]) -> (i32, String) {
    let o = Command::new(BIN)
        .arg("diff")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running resched: {e}"));
    let all = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), all)
}

fn expect(run: &(i32, String), code: i32, needles: &[&str]) {
    assert_eq!(run.0, code, "exit code; output:\n{}", run.1);
    for n in needles {
        assert!(run.1.contains(n), "`{n}` not in:\n{}", run.1);
    }
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

fn out(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

/// The number of jobs of a written counterexample.
fn jobs_of(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    v["instance"]["jobs"].as_array().map_or(0, Vec::len)
}

/// With no `--times`, a GREEDY in binary floating point is caught (its 1/3 is not exact) and
/// shrunk to one job; the exact GREEDY agrees on the same cases.
#[test]
fn default_times_catch_a_floating_point_greedy() {
    let dir = tmp();
    let cex = out(dir.path(), "float.json");
    let float = py("buggy_greedy.py", "--jsonl --float --no-bug");
    let cex_s = cex.display().to_string();
    let args = ["--protocol", "jsonl", "--cases", "300", "--out", &cex_s];
    let r = diff(&[&["--cmd", float.as_str()][..], &args].concat());
    expect(
        &r,
        1,
        &[
            "--times mixed:4/4",
            "MISMATCH",
            "makespan: resched",
            "to a local minimum",
        ],
    );
    assert_eq!(jobs_of(&cex), 1, "{}", r.1);
    let exact = py("greedy.py", "--jsonl");
    let r = diff(&[&["--cmd", exact.as_str()][..], &args].concat());
    expect(&r, 0, &["300 cases, 300 comparisons: 300 agree"]);
}

/// The one-at-a-time bug changes a makespan only from 4 jobs on (integer times: see
/// `planted_bug_by_makespan_shrinks_to_four_jobs`); a budget of 500 runs stopped at 5 jobs,
/// the default wall-clock budget reaches the local minimum of 4 and says so.
#[test]
fn default_shrink_reaches_the_minimum_of_four_jobs() {
    let dir = tmp();
    let cmd = py("buggy_greedy.py", "--jsonl");
    let run = |name: &str, extra: &[&str]| {
        let cex = out(dir.path(), name);
        let cex_s = cex.display().to_string();
        let base = [
            "--cmd",
            cmd.as_str(),
            "--protocol",
            "jsonl",
            "--times",
            "grid:4",
            "--cases",
            "5000",
            "--out",
            &cex_s,
        ];
        (diff(&[&base[..], extra].concat()), jobs_of(&cex))
    };
    let (r, n) = run("default.json", &[]);
    expect(&r, 1, &["makespan: resched", "to a local minimum: P 3 → "]);
    assert_eq!(n, 4, "{}", r.1);
    let (r, n) = run("budget.json", &["--shrink-budget", "500"]);
    expect(
        &r,
        1,
        &[
            "shrunk in 500 runs",
            "--shrink-budget ran out before a local minimum",
        ],
    );
    assert_eq!(n, 5, "{}", r.1);
}

/// On rational times the same-instant bug changes decisions, not makespans: compared by
/// makespan it passes (the differences are notes), compared by schedule (the default when the
/// program prints one) it is a mismatch; the report says which was compared.
#[test]
fn schedules_are_compared_by_default() {
    let dir = tmp();
    let cex = out(dir.path(), "sched.json").display().to_string();
    let cmd = py("buggy_greedy.py", "--jsonl --schedule");
    let base = [
        "--cmd",
        cmd.as_str(),
        "--protocol",
        "jsonl",
        "--times",
        "rational",
        "--cases",
        "300",
        "--out",
        &cex,
    ];
    let r = diff(&[&base[..], &["--compare", "makespans"]].concat());
    expect(
        &r,
        0,
        &[
            "300 cases, 300 comparisons: 296 agree, 4 same makespan with other decisions (notes)",
            "compared: makespans (--compare makespans",
            "note: case 90, greedy/LPT: same makespan 58",
        ],
    );
    let r = diff(&base);
    expect(
        &r,
        1,
        &[
            "compared: schedules (each checked, then compared with resched's attempt by attempt)",
            "MISMATCH on case 90 (greedy/LPT), decisions: same makespan 58",
        ],
    );
    // A program that prints makespans only is compared by makespan, and the report says so.
    let r = diff(&[
        "--cmd",
        &py("greedy.py", "--jsonl"),
        "--protocol",
        "jsonl",
        "--cases",
        "20",
    ]);
    expect(
        &r,
        0,
        &["compared: makespans (the program printed makespans only"],
    );
}

/// LPA-LIST in floats: on case 425 of seed 1, LPA's r(α, β) of one job is exactly 65/24 at
/// p = 4 and p = 5, and the float evaluation makes the program take p = 5. No tolerance
/// absorbs the other makespan (9 against ≈11.17); the report says that the difference is a tie
/// and names --ties; with --ties it is a tie and the whole run passes.
#[test]
fn ties_of_a_floating_point_lpa_list() {
    let dir = tmp();
    let cex = out(dir.path(), "lpa.json");
    let cex_s = cex.display().to_string();
    let cmd = py("lpa_list_float.py", "--jsonl");
    let base = [
        "--cmd",
        cmd.as_str(),
        "--protocol",
        "jsonl",
        "--algo",
        "lpa-list",
        "--jobs-kind",
        "moldable",
        "--rel-tol",
        "1e-6",
        "--out",
        &cex_s,
    ];
    let r = diff(&[&base[..], &["--case", "425"]].concat());
    expect(
        &r,
        1,
        &[
            "MISMATCH on case 425 (lpa-list/LPT), makespan: resched 9, other",
            "LPA's r(α, β) of J3 is 65/24 (≈2.708333) at p = 4, 5 (resched takes p = 4, the other p = 5)",
            "no --rel-tol absorbs that, --ties reports it as a tie",
        ],
    );
    assert_eq!(jobs_of(&cex), 1, "{}", r.1);
    let r = diff(&[&base[..], &["--case", "425", "--ties"]].concat());
    expect(
        &r,
        0,
        &[
            "1 cases, 1 comparisons: 0 agree, 0 same makespan with other decisions (notes), 1 decisions on exact ties (--ties)",
            "tie: case 425, lpa-list/LPT: LPA's r(α, β) of J3 is 65/24",
        ],
    );
    let r = diff(&[&base[..], &["--cases", "1000", "--ties"]].concat());
    expect(
        &r,
        0,
        &["1000 cases, 1000 comparisons: 999 agree, 0 same makespan with other decisions (notes), 1 decisions on exact ties"],
    );
    // --ties accepts whatever a tie-breaking gives: the one-at-a-time bug's first wrong makespan
    // on integer times (case 1375) is GREEDY's with J5 before J3, which tie on LPT.
    let r = diff(&[
        "--cmd",
        &py("buggy_greedy.py", "--jsonl"),
        "--protocol",
        "jsonl",
        "--times",
        "grid:4",
        "--cases",
        "2000",
        "--ties",
        "--shrink-time",
        "5",
        "--out",
        &cex_s,
    ]);
    expect(
        &r,
        0,
        &["1 decisions on exact ties (--ties)", "tie: case 1375, greedy/LPT: J1, J3, J5 tie on the LPT key (resched orders them J1, J3, J5, the other J1, J5, J3)"],
    );
}
