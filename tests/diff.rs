//! `resched diff` end to end, against the small implementations of `tests/diff_impls/`:
//! `greedy.py`, a correct GREEDY (exact fractions, resched's same-instant rule) speaking both
//! protocols; `buggy_greedy.py`, one that handles the completions of an instant one at a time
//! (and, with `--float`, one in floating point); `misbehaving.py`, programs that hang, crash or
//! print garbage. Also the peer adapter on the rigid paper's sample files. Every case is seeded:
//! the same command finds the same mismatch and writes the same counterexample.
use resched::model::{Instance, Scenario, Schedule};
use resched::oracle::certify;
use resched::{check, Time};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = crate::support::bin();

fn impls() -> PathBuf {
    crate::support::repo().join("tests/diff_impls")
}

/// `python3 -S <impl> <args>`: -S skips site packages (the scripts use the standard library
/// only), which halves the start-up time the template protocol pays per case.
fn py(script: &str, args: &str) -> String {
    format!("python3 -S {} {args}", impls().join(script).display())
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

fn resched(args: &[&str]) -> Out {
    let t0 = Instant::now();
    let o = Command::new(BIN)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running resched: {e}"));
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        took: t0.elapsed(),
    }
}

fn expect(o: &Out, code: i32, needles: &[&str]) {
    let all = format!("{}\n{}", o.stdout, o.stderr);
    assert_eq!(o.code, code, "exit code; output:\n{all}");
    for n in needles {
        assert!(all.contains(n), "`{n}` not in:\n{all}");
    }
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn field<T: serde::de::DeserializeOwned>(v: &Value, path: &str) -> T {
    let mut x = v;
    for k in path.split('.') {
        x = match k.parse::<usize>() {
            Ok(i) => &x[i],
            Err(_) => &x[k],
        };
    }
    serde_json::from_value(x.clone()).unwrap_or_else(|e| panic!("{path}: {e} in {x}"))
}

/// The counterexample file is a golden case: it loads through the corpus loader, resched's
/// expectation re-certifies exactly, the lower bound is the oracle's, and the mismatch kind is
/// the one expected. Returns the case and file.
fn golden(path: &Path, kind: &str) -> (Instance, Scenario, Value) {
    let v = read_json(path);
    let loaded = resched::oracle::corpus::load(path).unwrap_or_else(|e| panic!("{e}"));
    let (inst, sc) = (loaded.instance.clone(), loaded.scenario.clone());
    assert_eq!(field::<String>(&v, "other.kind"), kind, "{v}");
    let exp = &v["expect"][0];
    assert_eq!(loaded.specs.len(), 1);
    let c = certify(&loaded.specs[0], &inst, &sc).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(field::<Time>(exp, "makespan"), c.makespan);
    assert_eq!(field::<Time>(&v, "other.resched.makespan"), c.makespan);
    assert!(!field::<String>(exp, "why").is_empty());
    assert_eq!(field::<Time>(&v, "lower_bound"), c.bound.lower);
    // The case's schema version and the build that found it.
    assert_eq!(v["format_version"], 1, "{v}");
    assert_eq!(
        v["resched"],
        resched_cli::provenance::this_build().json(),
        "{v}"
    );
    for side in ["instance", "scenario"] {
        let sib = path
            .with_extension("")
            .with_extension(format!("{side}.json"));
        // The case's own instance and scenario, as files of their formats' version 1.
        let mut file = read_json(&sib);
        let version = file
            .as_object_mut()
            .and_then(|o| o.remove("format_version"));
        assert_eq!(version, Some(Value::from(1)), "{}", sib.display());
        assert_eq!(file, v[side], "{}", sib.display());
    }
    (inst, sc, v)
}

/// (a), JSONL: thousands of cases in several scopes, makespans and then whole schedules.
#[test]
fn correct_greedy_agrees_on_thousands_of_jsonl_cases() {
    let cmd = py("greedy.py", "--jsonl");
    let o = resched(&[
        "diff",
        "--cmd",
        &cmd,
        "--protocol",
        "jsonl",
        "--cases",
        "3000",
    ]);
    expect(
        &o,
        0,
        &["3000 cases, 3000 comparisons: 3000 agree", "cases/s"],
    );
    let o = resched(&[
        "diff",
        "--cmd",
        &cmd,
        "--protocol",
        "jsonl",
        "--cases",
        "1000",
        "--seed",
        "7",
        "--procs",
        "1..16",
        "--jobs",
        "1..12",
        "--times",
        "rational:9/4",
        "--failures",
        "4",
        "--priority",
        "spt",
    ]);
    expect(&o, 0, &["1000 agree"]);
    let cmd = py("greedy.py", "--jsonl --schedule");
    for pr in ["lpt", "hpa", "la", "ljf", "index"] {
        let o = resched(&[
            "diff",
            "--cmd",
            &cmd,
            "--protocol",
            "jsonl",
            "--cases",
            "400",
            "--seed",
            "3",
            "--times",
            "grid:3",
            "--priority",
            pr,
            "--same-schedule",
        ]);
        expect(&o, 0, &["400 agree, 0 same makespan with other decisions"]);
    }
}

/// (a), one process per case through the template: a few hundred cases.
#[test]
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow tier: .ci/run runs it")]
fn correct_greedy_agrees_through_the_template() {
    let cmd = py("greedy.py", "{instance} {scenario} {algo} {priority}");
    let o = resched(&["diff", "--cmd", &cmd, "--cases", "150", "--seed", "11"]);
    expect(&o, 0, &["150 agree"]);
    let cmd = py(
        "greedy.py",
        "--schedule {instance} {scenario} {algo} {priority}",
    );
    let o = resched(&[
        "diff",
        "--cmd",
        &cmd,
        "--cases",
        "50",
        "--seed",
        "12",
        "--times",
        "rational",
        "--same-schedule",
    ]);
    expect(&o, 0, &["50 agree"]);
}

/// (b): the same-instant bug shows first as other decisions with the same makespan; shrunk,
/// it is a 3-job case, written as a golden case whose reproduction commands work.
#[test]
fn planted_bug_is_found_and_shrunk_to_three_jobs() {
    let dir = tmp();
    let out = dir.path().join("cex.json");
    let cmd = py("buggy_greedy.py", "--jsonl --schedule");
    let out_s = out.display().to_string();
    let o = resched(&[
        "diff",
        "--cmd",
        &cmd,
        "--protocol",
        "jsonl",
        "--cases",
        "3000",
        "--same-schedule",
        "--shrink-budget",
        "5000",
        "--out",
        &out_s,
    ]);
    expect(
        &o,
        1,
        &[
            "MISMATCH on case",
            "to a local minimum",
            "reproduce:",
            "resched simulate",
        ],
    );
    let (inst, sc, v) = golden(&out, "decisions");
    assert!(inst.len() <= 3, "{} jobs: {v}", inst.len());
    // The other schedule is feasible, with resched's makespan, and differs in a decision.
    let theirs: Schedule = field(&v, "other.other.schedule");
    let ours: Schedule = field(&v, "other.resched.schedule");
    assert_eq!(
        check::check(&inst, &sc, &theirs).ok(),
        check::check(&inst, &sc, &ours).ok()
    );
    assert_ne!(theirs.attempts, ours.attempts);
    // Each printed reproduction command runs: simulate gives the expectation, replay finds
    // the bug again, and replay against the correct implementation agrees.
    let lines: Vec<&str> = o.stdout.lines().map(str::trim).collect();
    let sim = lines
        .iter()
        .find(|l| l.starts_with("resched simulate"))
        .copied()
        .unwrap_or("");
    let words: Vec<String> = sim.split_whitespace().skip(1).map(String::from).collect();
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let makespan: Time = field(&v, "expect.0.makespan");
    let s = resched(&args);
    expect(&s, 0, &[&format!("makespan   {makespan} (")]);
    let r = resched(&[
        "diff",
        "--replay",
        &out_s,
        "--cmd",
        &cmd,
        "--protocol",
        "jsonl",
    ]);
    expect(&r, 1, &["MISMATCH (decisions)"]);
    let good = py("greedy.py", "--jsonl --schedule");
    let r = resched(&[
        "diff",
        "--replay",
        &out_s,
        "--cmd",
        &good,
        "--protocol",
        "jsonl",
    ]);
    expect(&r, 0, &["agree"]);
}

/// (b) by makespan alone: the bug changes a makespan only from 4 jobs on (no case of at most
/// 3 jobs with P ≤ 4, t ∈ {1, 2, 3}, f ≤ 2 does, by exhaustive search), and it is shrunk there.
#[test]
fn planted_bug_by_makespan_shrinks_to_four_jobs() {
    let dir = tmp();
    let out = dir.path().join("m.json");
    let cmd = py("buggy_greedy.py", "--jsonl");
    let o = resched(&[
        "diff",
        "--cmd",
        &cmd,
        "--protocol",
        "jsonl",
        "--times",
        "grid:4",
        "--cases",
        "5000",
        "--out",
        &out.display().to_string(),
    ]);
    expect(&o, 1, &["makespan: resched"]);
    let (inst, _, v) = golden(&out, "makespan");
    assert!(inst.len() <= 4, "{} jobs: {v}", inst.len());
    let theirs: Time = field(&v, "other.other.makespan");
    assert_ne!(theirs, field::<Time>(&v, "expect.0.makespan"));
}

/// A floating-point GREEDY is wrong exactly (shrunk to one job with a fractional time) and
/// right within a relative tolerance.
#[test]
fn float_implementation_needs_rel_tol() {
    let dir = tmp();
    let out = dir.path().join("f.json");
    let cmd = py("buggy_greedy.py", "--jsonl --float --no-bug");
    let base = [
        "diff",
        "--cmd",
        &cmd,
        "--protocol",
        "jsonl",
        "--times",
        "rational",
    ];
    let o = resched(
        &[
            &base[..],
            &["--cases", "500", "--out", &out.display().to_string()],
        ]
        .concat(),
    );
    expect(&o, 1, &["makespan: resched"]);
    let (inst, _, _) = golden(&out, "makespan");
    assert_eq!(inst.len(), 1);
    let o = resched(&[&base[..], &["--cases", "1500", "--rel-tol", "1e-9"]].concat());
    expect(&o, 0, &["1500 agree"]);
}

#[test]
fn a_hanging_implementation_is_reported_not_waited_for() {
    let dir = tmp();
    for protocol in ["template", "jsonl"] {
        let out = dir.path().join(format!("hang-{protocol}.json"));
        let o = resched(&[
            "diff",
            "--cmd",
            &py("misbehaving.py", "hang"),
            "--protocol",
            protocol,
            "--timeout",
            "1",
            "--cases",
            "5",
            "--out",
            &out.display().to_string(),
        ]);
        expect(
            &o,
            1,
            &["timeout: no answer within 1 s (killed)", "not shrunk"],
        );
        assert!(
            o.took < Duration::from_secs(20),
            "{protocol}: took {:?}",
            o.took
        );
        golden(&out, "timeout");
    }
}

#[test]
fn a_crashing_implementation_is_reported_with_its_stderr() {
    let dir = tmp();
    for (mode, protocol, words) in [
        (
            "crash",
            "template",
            ["crash: crashed: exit code 3", "simulated failure in sim.py"],
        ),
        (
            "segfault",
            "template",
            ["crashed: killed by signal 11 (SIGSEGV)", "P 5 → 1"],
        ),
        (
            "jsonl-crash",
            "jsonl",
            [
                "crashed: exit code 1 before answering",
                "giving up on request",
            ],
        ),
    ] {
        let out = dir.path().join(format!("{mode}.json"));
        let o = resched(&[
            "diff",
            "--cmd",
            &py("misbehaving.py", mode),
            "--protocol",
            protocol,
            "--cases",
            "5",
            "--shrink-budget",
            "40",
            "--out",
            &out.display().to_string(),
        ]);
        expect(&o, 1, &words);
        let (inst, _, v) = golden(&out, "crash");
        // Any case crashes it, so shrinking reaches the smallest case there is.
        assert_eq!((inst.procs, inst.len()), (1, 1), "{v}");
        assert!(field::<String>(&v, "other.other.failure").contains("crashed"));
    }
}

#[test]
fn garbage_output_and_protocol_errors_are_reported() {
    let dir = tmp();
    for (mode, protocol, kind, words) in [
        (
            "garbage",
            "template",
            "garbage",
            "found several words; output: `Makespan is: about 12 seconds`",
        ),
        (
            "jsonl-wrong-id",
            "jsonl",
            "garbage",
            "response id 7, expected 0",
        ),
        (
            "jsonl-refuse",
            "jsonl",
            "refused",
            "answered with an error: algorithm not implemented",
        ),
        // Requests say `format_version` 1; a response of a newer protocol is refused.
        (
            "jsonl-newer",
            "jsonl",
            "garbage",
            "response field `format_version`: version 2 is newer than this resched reads (1); \
             upgrade resched",
        ),
    ] {
        let out = dir.path().join(format!("{mode}.json"));
        let o = resched(&[
            "diff",
            "--cmd",
            &py("misbehaving.py", mode),
            "--protocol",
            protocol,
            "--cases",
            "5",
            "--shrink-budget",
            "40",
            "--out",
            &out.display().to_string(),
        ]);
        expect(&o, 1, &[words]);
        golden(&out, kind);
    }
}

/// resched against itself through `simulate --json` (the whole-object answer): every algorithm
/// on rigid cases and every moldable one on moldable cases of every model give identical
/// schedules.
#[test]
fn resched_simulate_agrees_with_itself_on_every_algorithm() {
    let cmd = format!(
        "{BIN} simulate --instance {{instance}} --scenario {{scenario}} --algo {{algo}} --priority {{priority}} --json"
    );
    let dir = tmp();
    let out = dir.path().join("self.json").display().to_string();
    let o = resched(&[
        "diff",
        "--cmd",
        &cmd,
        "--algo",
        "all",
        "--cases",
        "6",
        "--same-schedule",
        "--times",
        "rational",
        "--out",
        &out,
    ]);
    // Every catalogue entry runs on rigid cases: 6 cases × the catalogue's concrete names.
    let n = 6 * resched::oracle::catalogue::concrete_names().len();
    expect(&o, 0, &[&format!("6 cases, {n} comparisons: {n} agree")]);
    let o = resched(&[
        "diff",
        "--cmd",
        &cmd,
        "--algo",
        "all-moldable",
        "--cases",
        "8",
        "--same-schedule",
        "--jobs-kind",
        "mixed:roofline,communication,amdahl,mix,power,monotonic,arbitrary",
        "--procs",
        "1..5",
        "--jobs",
        "1..4",
        "--out",
        &out,
    ]);
    // Every catalogue entry that takes moldable jobs: 8 cases × that many.
    let n = 8 * resched::oracle::catalogue::concrete_names()
        .iter()
        .filter(|a| {
            resched::oracle::catalogue::entry(a)
                .is_some_and(|e| e.family == resched::oracle::catalogue::Family::Either)
        })
        .count();
    expect(&o, 0, &[&format!("8 cases, {n} comparisons: {n} agree")]);
}

fn peer_dir() -> PathBuf {
    let root = crate::support::repo();
    [root.join("../shared/peer"), root.join("../../shared/peer")]
        .into_iter()
        .find(|d| d.exists())
        .unwrap_or_else(|| panic!("the shared peer files beside the repository"))
}

/// C++'s `cout << double` with its default precision: 6 significant digits, trailing zeros
/// dropped (the makespans here are between 1 and 10^6, so never in exponent form).
fn cout(x: f64) -> String {
    let digits = x.abs().log10().floor() as i32 + 1;
    let decimals = (6 - digits).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The peer adapter: an output file in the simulator's format, made from resched's own peer
/// run, agrees within the default tolerance; one perturbed line is found; a line whose failure
/// count does not match the failure file is an error.
#[test]
fn peer_adapter_agrees_and_finds_the_perturbed_scenario() {
    let p = peer_dir();
    let (inst, fail) = (p.join("sample_1_0.3"), p.join("failures_sample_1_0.3"));
    let (inst, fail) = (inst.display().to_string(), fail.display().to_string());
    let o = resched(&[
        "simulate",
        "--peer-instance",
        &inst,
        "--peer-failures",
        &fail,
        "--scenarios",
        "40",
    ]);
    expect(&o, 0, &[]);
    let lines: Vec<String> = o
        .stdout
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let m: f64 = w[1].parse().unwrap_or(f64::NAN);
            let lb: f64 = w[2].parse().unwrap_or(f64::NAN);
            format!("{} {} {}", cout(m), cout(lb), w[4])
        })
        .collect();
    assert_eq!(lines.len(), 40);
    let dir = tmp();
    let out = dir.path().join("out.txt");
    let run = |text: &str, extra: &[&str]| {
        std::fs::write(&out, text).unwrap_or_else(|e| panic!("{e}"));
        let o = out.display().to_string();
        resched(
            &[
                &[
                    "diff",
                    "--peer-instance",
                    &inst,
                    "--peer-failures",
                    &fail,
                    "--peer-output",
                    &o,
                ][..],
                extra,
            ]
            .concat(),
        )
    };
    let good = lines.join("\n") + "\n";
    expect(
        &run(&good, &["--scenarios", "40"]),
        0,
        &["40 scenarios compared", "agree 40, mismatches 0"],
    );
    // The failure file has more scenarios than the 40 lines: without --scenarios that is not
    // an agreement.
    let o = run(&good, &[]);
    expect(
        &o,
        2,
        &["out.txt:40: 40 makespans, but", "one line per scenario"],
    );
    assert!(!o.stdout.contains("agree"), "{}", o.stdout);
    // Exactly, the 6 printed digits are not the makespans.
    expect(
        &run(&good, &["--rel-tol", "0", "--scenarios", "40"]),
        1,
        &["MISMATCH scenario 0"],
    );
    let mut bad = lines.clone();
    let w: Vec<&str> = bad[17].split_whitespace().collect();
    let m: f64 = w[0].parse().unwrap_or(f64::NAN);
    bad[17] = format!("{} {} {}", cout(m * 1.001), w[1], w[2]);
    let o = run(&(bad.join("\n") + "\n"), &["--scenarios", "40"]);
    expect(
        &o,
        1,
        &[
            "agree 39, mismatches 1",
            "MISMATCH scenario 17 (output line 18)",
        ],
    );
    expect(
        &run(&(bad.join("\n") + "\n"), &["--scenarios", "17"]),
        0,
        &["17 scenarios compared"],
    );
    let mut shifted = lines;
    shifted.remove(3);
    expect(
        &run(&(shifted.join("\n") + "\n"), &[]),
        2,
        &["does not belong to this failure file"],
    );
}

#[test]
fn usage_errors_exit_2() {
    let ok = py("greedy.py", "{instance} {scenario} {algo} {priority}");
    for (args, msg) in [
        (
            vec!["--cmd", "python3 x {instanse}"],
            "unknown placeholder `{instanse}`",
        ),
        (vec!["--cmd", "python3 'x"], "missing closing quote"),
        (
            vec!["--cmd", &ok, "--protocol", "jsonl"],
            "cannot take a per-case placeholder ({instance})",
        ),
        (
            vec!["--cmd", "/nonexistent/sim {instance}"],
            "cannot start `/nonexistent/sim`",
        ),
        (
            vec!["--cmd", &ok, "--jobs-kind", "moldable"],
            "`greedy` schedules rigid jobs only",
        ),
        (
            vec!["--cmd", &ok, "--algo", "fifo"],
            "unknown algorithm `fifo`",
        ),
        (
            vec!["--cmd", &ok, "--times", "float"],
            "expected grid:K or rational",
        ),
        (vec!["--cmd", &ok, "--procs", "4..2"], "option `--procs`"),
        (vec!["--cmd", &ok, "--rel-tol=-1"], "must be ≥ 0"),
        (vec!["--cmd", &ok, "--timeout", "0"], "option `--timeout`"),
        (
            vec!["--cmd", &ok, "--priority", "fifo"],
            "unknown rule `fifo`",
        ),
        (vec!["--cmd", &ok, "--cases", "0"], "at least 1"),
        (
            vec!["--replay", "/nonexistent.json", "--cmd", &ok],
            "/nonexistent.json",
        ),
    ] {
        let o = resched(&[&["diff"][..], &args].concat());
        expect(&o, 2, &[msg]);
    }
}
