//! Bad input to `resched simulate` is an error that names the field or line, exits with code 2,
//! and never panics (DESIGN "Bad input is an error, not a panic"). Also checks that
//! good input works end to end (text, JSON and peer mode) and that `demo` runs, and that only
//! the CLI speaks of flags: library errors name the parameter, the CLI maps it.
use crate::support::resched;
use std::path::{Path, PathBuf};
use std::process::Command;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const GOOD_INSTANCE: &str = r#"{"processors": 4, "jobs": [
  {"name": "J1", "procs": 2, "time": 3}, {"name": "J2", "procs": 2, "time": 2},
  {"name": "J3", "procs": 4, "time": 2}, {"name": "J4", "procs": 1, "time": "3/2"}]}"#;
const GOOD_SCENARIO: &str = r#"{"failures": [0, 1, 0, 0]}"#;

/// Runs `simulate` on the given instance/scenario texts; returns (exit code, stderr).
fn simulate(inst: &str, sc: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let i = write(dir.path(), "inst.json", inst);
    let s = write(dir.path(), "sc.json", sc);
    let mut args = vec![
        "simulate",
        "--instance",
        i.to_str().unwrap(),
        "--scenario",
        s.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    if !extra.contains(&"--algo") {
        args.extend_from_slice(&["--algo", "greedy"]);
    }
    let o = resched(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "panic: {err}");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        err,
    )
}

fn assert_error(code_out: (i32, String, String), needles: &[&str]) {
    let (code, _, err) = code_out;
    assert_eq!(code, 2, "stderr: {err}");
    for n in needles {
        assert!(err.contains(n), "`{n}` not in: {err}");
    }
}

#[test]
fn good_input_works() {
    let (code, out, err) = simulate(GOOD_INSTANCE, GOOD_SCENARIO, &[]);
    assert_eq!(code, 0, "{err}");
    // Hand-computed in tests/cases/backfill_delays_head_failure.json.
    assert!(out.contains("makespan   13/2 (6.500000)"), "{out}");
    assert!(out.contains("L(f)       47/8"), "{out}");
    assert!(out.contains("ratio      52/47"), "{out}");
    let (code, out, _) = simulate(
        GOOD_INSTANCE,
        GOOD_SCENARIO,
        &["--algo", "r-shelf-b", "--priority", "LPT", "--json"],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["makespan"], 7);
    assert_eq!(v["lower_bound"], "47/8");
    assert_eq!(v["schedule"]["attempts"].as_array().unwrap().len(), 5);
}

#[test]
fn malformed_json() {
    assert_error(
        simulate("{\"processors\": 4, \"jobs\": [", GOOD_SCENARIO, &[]),
        &["inst.json:"],
    );
}

#[test]
fn procs_above_p() {
    let inst = r#"{"processors": 2, "jobs": [{"name": "A", "procs": 3, "time": 1}]}"#;
    assert_error(
        simulate(inst, r#"{"failures": [0]}"#, &[]),
        &["jobs[0].procs", "outside 1..=2"],
    );
}

#[test]
fn zero_and_negative_times() {
    let inst = r#"{"processors": 2, "jobs": [{"name": "A", "procs": 1, "time": 0}]}"#;
    assert_error(
        simulate(inst, r#"{"failures": [0]}"#, &[]),
        &["jobs[0].time"],
    );
    let inst = r#"{"processors": 2, "jobs": [{"name": "A", "procs": 1, "time": "-1/2"}]}"#;
    assert_error(
        simulate(inst, r#"{"failures": [0]}"#, &[]),
        &["jobs[0].time"],
    );
}

#[test]
fn scenario_of_wrong_length() {
    assert_error(
        simulate(GOOD_INSTANCE, r#"{"failures": [0, 1]}"#, &[]),
        &["failures", "2 entries", "(4)"],
    );
}

#[test]
fn empty_instance() {
    assert_error(
        simulate(
            r#"{"processors": 2, "jobs": []}"#,
            r#"{"failures": []}"#,
            &[],
        ),
        &["jobs", "at least one job"],
    );
}

#[test]
fn unknown_algorithm_and_priority() {
    assert_error(
        simulate(GOOD_INSTANCE, GOOD_SCENARIO, &["--algo", "fifo"]),
        &["algo", "fifo", "greedy", "r-shelffill-nb"],
    );
    assert_error(
        simulate(GOOD_INSTANCE, GOOD_SCENARIO, &["--priority", "fifo"]),
        &["priority", "lpt, spt"],
    );
}

/// `resched simulate` in peer mode on these files exits 2 with every needle in its error.
fn peer_fails(inst: &Path, fail: &Path, needles: &[&str]) {
    let o = resched(&[
        "simulate",
        "--peer-instance",
        inst.to_str().unwrap(),
        "--peer-failures",
        fail.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for n in needles {
        assert!(err.contains(n), "missing `{n}` in: {err}");
    }
}

#[test]
fn truncated_peer_files() {
    let dir = tempfile::tempdir().unwrap();
    let inst = write(
        dir.path(),
        "peer",
        "1e-8 4 10 length 0 0 0\nT0 rgd 1.5 2\nT1 rgd 2.25\n",
    );
    let fail = write(dir.path(), "fail", "0 1\n");
    peer_fails(&inst, &fail, &["peer:3:", "ends early"]);

    let inst = write(
        dir.path(),
        "peer2",
        "1e-8 4 10 length 0 0 0\nT0 rgd 1.5 2\nT1 rgd 2.25 4\n",
    );
    let fail = write(dir.path(), "fail2", "0 1\n2 0\n1\n");
    peer_fails(&inst, &fail, &["fail2:3:", "truncated"]);

    // The first two scenarios are fine: exact output. P = 4, verif 10: T0 (2 procs, 1.5 + 10 =
    // 11.5), T1 (4 procs, 2.25 + 10 = 12.25); LPT (`length`) puts T1 first.
    let o = resched(&[
        "simulate",
        "--peer-instance",
        inst.to_str().unwrap(),
        "--peer-failures",
        fail.to_str().unwrap(),
        "--scenarios",
        "2",
        "--threads",
        "1",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Scenario 0: f = (0, 1): T1 [0,12.25) fails, T1 [12.25, 24.5), T0 [24.5, 36). L = max(24.5,
    // (23 + 98)/4 = 30.25) = 30.25.
    assert!(out.contains("\n0 36 30.25 "), "{out}");
    // Scenario 1: f = (2, 0): T1 [0,12.25), T0 three times from 12.25: ends 46.75. L = 34.5.
    assert!(out.contains("\n1 46.75 34.5 "), "{out}");
}

#[test]
fn demo_runs_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(crate::support::bin())
        .arg("demo")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        out.contains("R-SHELF-B/LPT") && out.contains("25/12"),
        "{out}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn gantt_files_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("g.svg");
    let (code, _, err) = simulate(
        GOOD_INSTANCE,
        GOOD_SCENARIO,
        &["--algo", "easy", "--gantt", svg.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.trim_end().ends_with("</svg>"));
    let out = dir.path().join("demo");
    let o = resched(&["demo", "--gantt", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Two examples × seven algorithms, each as SVG and PNG.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 28);
}

/// `simulate --json` prints a schedule that `resched verify` (the independent checker) accepts.
#[test]
fn json_schedule_round_trips_through_verify() {
    let dir = tempfile::tempdir().unwrap();
    let i = write(dir.path(), "inst.json", GOOD_INSTANCE);
    let s = write(dir.path(), "sc.json", GOOD_SCENARIO);
    for algo in ["greedy", "conservative", "r-shelffill-nb"] {
        let o = resched(&[
            "simulate",
            "--instance",
            i.to_str().unwrap(),
            "--scenario",
            s.to_str().unwrap(),
            "--algo",
            algo,
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let sch = write(dir.path(), "sch.json", &v["schedule"].to_string());
        let o = resched(&[
            "verify",
            "--instance",
            i.to_str().unwrap(),
            "--scenario",
            s.to_str().unwrap(),
            "--schedule",
            sch.to_str().unwrap(),
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{out}");
        assert!(
            out.contains(&format!(
                "makespan {}",
                v["makespan"]
                    .as_i64()
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| v["makespan"].as_str().unwrap().to_string())
            )),
            "{out}"
        );
    }
}

/// Peer mode prints the same bytes whatever the number of threads.
#[test]
fn peer_output_does_not_depend_on_threads() {
    let root = crate::support::repo();
    let dir = [root.join("../shared/peer"), root.join("../../shared/peer")]
        .into_iter()
        .find(|d| d.exists())
        .expect("the shared directory with the peer files beside the repository");
    let (inst, fail) = (
        dir.join("sample_1_0.3_arear"),
        dir.join("failures_sample_1_0.3"),
    );
    let run = |threads: &str| {
        let o = resched(&[
            "simulate",
            "--peer-instance",
            inst.to_str().unwrap(),
            "--peer-failures",
            fail.to_str().unwrap(),
            "--scenarios",
            "300",
            "--threads",
            threads,
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        o.stdout
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let text = String::from_utf8_lossy(&one);
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 300);
    assert!(text.contains("priority rarea (SA)"), "{text}");
}

/// `--threads 0` in peer mode is an error, not "all cores" (leave it out for that).
#[test]
fn peer_threads_zero_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let inst = write(
        dir.path(),
        "peer",
        "1e-8 4 10 length 0 0 0\nT0 rgd 1.5 2\nT1 rgd 2.25 4\n",
    );
    let fail = write(dir.path(), "fail", "0 1\n");
    let o = resched(&[
        "simulate",
        "--peer-instance",
        inst.to_str().unwrap(),
        "--peer-failures",
        fail.to_str().unwrap(),
        "--threads",
        "0",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("option `--threads`: must be at least 1"),
        "{err}"
    );
}

/// The library names a bad value by its parameter as the API calls it (a function
/// argument or struct field: `eps`, `checkpoint`, `failures[1]`), never by a `--flag`; through
/// every layer a library or Python caller reaches (core, ledger, campaigns).
#[test]
fn library_errors_name_the_parameter_not_a_flag() {
    use resched::model::{Instance, Scenario};
    use resched::oracle::{certify, AlgoSpec};
    use resched::stealing::synthetic::Synthetic;
    use resched::stealing::{limits, Failure, FailureSource, Resilience};
    use resched::{Error, Time};
    let inst = Instance::rigid(2, &[(1, Time::one()), (2, Time::one())]).unwrap();
    let sc = Scenario::none(inst.len());
    let run = |spec: AlgoSpec| certify(&spec, &inst, &sc).err().unwrap();
    let five = Time::from_int(5);
    let negative = Resilience {
        checkpoint: -Time::one(),
        ..Resilience::trace_defaults()
    };
    let failure = |t: i64| Failure {
        time: Time::from_int(t),
        node: 0,
    };
    let no_campaign_eps = resched_cli::experiment::Options {
        eps: Some(Time::one()),
        ..resched_cli::experiment::Options::default()
    };
    let cases: Vec<(&str, Error)> = vec![
        // BATCH-LIST with ε = 0, and ε given to an algorithm without one.
        (
            "eps",
            run(AlgoSpec::new("batch-list").with_eps(Time::zero())),
        ),
        ("eps", run(AlgoSpec::new("greedy").with_eps(Time::one()))),
        ("algo", run(AlgoSpec::new("quantum"))),
        (
            "method",
            "magic".parse::<resched::opt::Method>().unwrap_err(),
        ),
        // Node stealing: the model's fields, a failure list's entry, the Poisson source.
        ("checkpoint", negative.validate().unwrap_err()),
        (
            "mtbf_ind",
            limits::check_job_mtbf(&five, 4, &five, &five).unwrap_err(),
        ),
        (
            "platform_mtbf",
            FailureSource::poisson(1, &Time::zero(), 4).err().unwrap(),
        ),
        (
            "failures[1]",
            FailureSource::list(vec![failure(3), failure(-1)])
                .err()
                .unwrap(),
        ),
        ("spec", Synthetic::parse("synthetic:foo=1", 1).unwrap_err()),
        (
            "variants",
            resched::stealing::parse::parse_variants("H999").unwrap_err(),
        ),
        // The ledger: its `k=v` parameters and a witness's argument.
        (
            "params",
            resched_proofs::Params::for_entry(
                resched_proofs::find("rigid.prop1").unwrap(),
                &["P".to_string()],
            )
            .unwrap_err(),
        ),
        (
            "procs",
            resched_proofs::rigid_witness::prop3(0).err().unwrap(),
        ),
        // The campaigns: an option that does not apply, a shard spec.
        (
            "eps",
            resched_cli::experiment::run("rigid-qbar", &no_campaign_eps)
                .err()
                .unwrap(),
        ),
        (
            "shard",
            "0/0"
                .parse::<resched_cli::experiment::shard::Shard>()
                .unwrap_err(),
        ),
    ];
    for (name, e) in cases {
        let text = e.to_string();
        assert!(
            matches!(&e, Error::Param { name: n, .. } if n == name),
            "{name}: {e:?}"
        );
        assert!(text.starts_with(&format!("parameter `{name}`: ")), "{text}");
        assert!(!text.contains("--"), "a library error names a flag: {text}");
    }
}

/// The CLI alone maps a parameter to its flag (`resched_cli::cli::to_flags`), in the error's
/// name and where a message mentions one; a parameter whose flag has its name keeps it.
#[test]
fn the_cli_maps_parameters_to_its_flags() {
    use resched::stealing::limits;
    use resched::{Error, Time};
    use resched_cli::cli::to_flags;
    let eps = resched::schedulers::moldable::Eps::new(Time::zero()).unwrap_err();
    assert_eq!(
        to_flags("simulate", eps).to_string(),
        "option `--eps`: ε = 0 must be > 0"
    );
    let five = Time::from_int(5);
    let mtbf = limits::check_job_mtbf(&five, 4, &five, &five).unwrap_err();
    let text = to_flags("steal", mtbf).to_string();
    assert!(
        text.starts_with("option `--mtbf`: ")
            && text.contains("(--checkpoint + --recovery)")
            && text.contains("raise --mtbf or lower --checkpoint and --recovery"),
        "{text}"
    );
    let threads = Error::param("threads", "must be at least 1");
    assert_eq!(
        to_flags("batch", threads).to_string(),
        "option `--threads`: must be at least 1"
    );
    // Each subcommand has its own table: `eps` of a ledger witness comes from `--param`.
    let witness = Error::param("eps", "eps=0: must lie in (0, 1)");
    assert!(to_flags("prove", witness)
        .to_string()
        .starts_with("option `--param`: "));
}

/// A flag (`--eps`, `use --quick`) in a string literal of the non-CLI code: the 1-based line
/// and the literal. Comments, doc comments and `#[cfg(test)]` items are not code; the test
/// names the functions that write command lines on purpose.
mod flag_scan {
    /// Where a string literal starts (1-based line), its text, and the function around it.
    pub struct Literal {
        pub line: usize,
        pub text: String,
        pub function: String,
    }

    /// The string literals of `src` outside comments and `#[cfg(test)]` items.
    pub fn literals(src: &str) -> Vec<Literal> {
        let b: Vec<char> = src.chars().collect();
        let (mut i, mut line) = (0, 1);
        let mut out = Vec::new();
        let mut function = String::new();
        let mut word = String::new();
        let mut after_fn = false;
        // Brace depth, and the depth below which a `#[cfg(test)]` item ends (while skipping).
        let (mut depth, mut skip_until): (usize, Option<usize>) = (0, None);
        let mut cfg_test_pending = false;
        let at = |i: usize, s: &str| s.chars().enumerate().all(|(k, c)| b.get(i + k) == Some(&c));
        while i < b.len() {
            let c = b[i];
            if c == '\n' {
                line += 1;
            }
            if at(i, "//") {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            if at(i, "/*") {
                i += 2;
                while i < b.len() && !at(i, "*/") {
                    line += usize::from(b[i] == '\n');
                    i += 1;
                }
                i += 2;
                continue;
            }
            if at(i, "#[cfg(test)]") {
                cfg_test_pending = true;
                i += "#[cfg(test)]".len();
                continue;
            }
            // A string: "…", r"…", r#"…"#, b"…" (a `'"'` char literal is not one).
            let raw = (c == 'r' || (c == 'b' && b.get(i + 1) == Some(&'r')))
                && !b
                    .get(i.wrapping_sub(1))
                    .is_some_and(|p| p.is_alphanumeric() || *p == '_');
            let start_raw = if raw {
                let mut k = i + if c == 'b' { 2 } else { 1 };
                let mut hashes = 0;
                while b.get(k) == Some(&'#') {
                    hashes += 1;
                    k += 1;
                }
                (b.get(k) == Some(&'"')).then_some((k, hashes))
            } else {
                None
            };
            if c == '\'' && b.get(i + 2) == Some(&'\'') || at(i, "'\\") {
                // A char literal ('"', '\'', '\n'): skip it whole.
                i += if b[i + 1] == '\\' { 4 } else { 3 };
                while i < b.len() && b[i - 1] != '\'' {
                    i += 1;
                }
                continue;
            }
            if c == '"' || start_raw.is_some() {
                let first = line;
                let mut text = String::new();
                if let Some((k, hashes)) = start_raw {
                    let close: String = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    i = k + 1;
                    while i < b.len() && !at(i, &close) {
                        line += usize::from(b[i] == '\n');
                        text.push(b[i]);
                        i += 1;
                    }
                    i += close.len();
                } else {
                    i += 1;
                    while i < b.len() && b[i] != '"' {
                        if b[i] == '\\' {
                            text.push(b[i]);
                            i += 1;
                        }
                        line += usize::from(b[i] == '\n');
                        text.push(b[i]);
                        i += 1;
                    }
                    i += 1;
                }
                if skip_until.is_none() && !cfg_test_pending {
                    out.push(Literal {
                        line: first,
                        text,
                        function: function.clone(),
                    });
                }
                continue;
            }
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
            } else if !word.is_empty() {
                if after_fn {
                    function = std::mem::take(&mut word);
                    after_fn = false;
                } else {
                    after_fn = word == "fn";
                    word.clear();
                }
            }
            match c {
                '{' => {
                    if cfg_test_pending && skip_until.is_none() {
                        skip_until = Some(depth);
                        cfg_test_pending = false;
                    }
                    depth += 1;
                }
                '}' => {
                    depth = depth.saturating_sub(1);
                    if skip_until == Some(depth) {
                        skip_until = None;
                    }
                }
                // `#[cfg(test)] use …;` or a field: the item ends at `;` without a block.
                ';' if cfg_test_pending && skip_until.is_none() => cfg_test_pending = false,
                _ => {}
            }
            i += 1;
        }
        out
    }

    /// The flags a literal writes: `--x…` at its start or after a space, `(`, `` ` ``, `'`,
    /// `=`, `[` or `/` (not `---` of a Markdown table nor `<!-- -->`).
    pub fn flags(text: &str) -> Vec<String> {
        let c: Vec<char> = text.chars().collect();
        let mut out = Vec::new();
        for k in 0..c.len() {
            let before_ok = k == 0 || " (`'=[/".contains(c[k - 1]);
            let dashes = c[k] == '-' && c.get(k + 1) == Some(&'-');
            if before_ok && dashes && c.get(k + 2).is_some_and(|x| x.is_ascii_lowercase()) {
                let flag: String = c[k..]
                    .iter()
                    .take_while(|x| x.is_ascii_alphanumeric() || **x == '-')
                    .collect();
                out.push(flag);
            }
        }
        out
    }
}

#[test]
fn the_flag_scan_finds_flags_in_code_only() {
    use flag_scan::{flags, literals};
    let src = r##"
/// Doc: `--eps` is not code.
fn f() -> String {
    // nor is a comment: --eps
    let c = '"';
    let t = "|---|<!-- -->";
    format!("use a larger --eps or {}", r#"--quick"#)
}
#[cfg(test)]
mod tests {
    fn g() { let _ = "--in-a-test"; }
}
fn h() { let _ = "option `--out`"; }
"##;
    let found: Vec<(usize, String, Vec<String>)> = literals(src)
        .into_iter()
        .map(|l| (l.line, l.function, flags(&l.text)))
        .filter(|(_, _, f)| !f.is_empty())
        .collect();
    assert_eq!(
        found,
        vec![
            (7, "f".to_string(), vec!["--eps".to_string()]),
            (7, "f".to_string(), vec!["--quick".to_string()]),
            (13, "h".to_string(), vec!["--out".to_string()]),
        ]
    );
}

/// Only `cli/src/cli` speaks of flags. No string literal of the core (`src/`), the
/// ledger (`proofs/`) or the program's non-CLI modules (`cli/src/{experiment,diff,render}`,
/// `cli/src/batch.rs`) writes a `--flag`, and none makes an `Error::Option` (library errors
/// are `Error::Param`s, which `resched_cli::cli::to_flags` maps to flags).
#[test]
fn no_flag_outside_the_cli() {
    // The functions whose output is a command line on purpose: the reproduction commands a
    // `diff` counterexample records (they are run by the user as they stand).
    const EXCEPTIONS: [(&str, &str); 5] = [
        ("cli/src/diff/counterexample.rs", "rule_args"),
        ("cli/src/diff/counterexample.rs", "algo_args"),
        ("cli/src/diff/counterexample.rs", "commands"),
        ("cli/src/diff/scope.rs", "args"),
        ("cli/src/diff/ties.rs", "settle"),
    ];
    let root = crate::support::repo();
    let mut files = crate::support::rust_files(&root.join("src"));
    files.extend(crate::support::rust_files(&root.join("proofs")));
    for dir in ["cli/src/experiment", "cli/src/diff", "cli/src/render"] {
        files.extend(crate::support::rust_files(&root.join(dir)));
    }
    files.push(root.join("cli/src/batch.rs"));
    let (mut bad, mut used, mut scanned) = (Vec::new(), Vec::new(), 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        for lit in flag_scan::literals(&text) {
            scanned += 1;
            let found = flag_scan::flags(&lit.text);
            if found.is_empty() {
                continue;
            }
            if EXCEPTIONS.contains(&(rel.as_str(), lit.function.as_str())) {
                used.push((rel.clone(), lit.function.clone()));
                continue;
            }
            bad.push(format!(
                "{rel}:{} (fn {}): {}",
                lit.line,
                lit.function,
                found.join(" ")
            ));
        }
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or_default()
            .lines()
            .map(|l| l.split("//").next().unwrap_or_default())
            .collect();
        // src/error.rs defines the variant the CLI makes.
        let defines = rel == "src/error.rs";
        if !defines && (code.contains("Error::option(") || code.contains("Error::Option")) {
            bad.push(format!("{rel}: makes an Error::Option (use Error::param)"));
        }
    }
    assert!(
        scanned > 1000,
        "only {scanned} literals: is the scan broken?"
    );
    assert!(
        bad.is_empty(),
        "library code names command-line flags; name the parameter (`eps`, `max_job_nodes`) \
         and map it in cli/src/cli (`to_flags`):\n{}",
        bad.join("\n")
    );
    for e in EXCEPTIONS {
        assert!(
            used.iter().any(|(f, n)| (f.as_str(), n.as_str()) == e),
            "exception {e:?} is no longer needed: remove it"
        );
    }
}

/// `resched opt --memo-limit`: any size of the transposition table gives the same optimum (0
/// turns it off, 3 clears it all the time); above 10^9 entries it is an error naming the option.
#[test]
fn opt_memo_limit_changes_no_answer_and_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let i = write(dir.path(), "inst.json", GOOD_INSTANCE);
    let s = write(dir.path(), "sc.json", GOOD_SCENARIO);
    let opt = |memo: &str| {
        let o = resched(&[
            "opt",
            "--instance",
            i.to_str().unwrap(),
            "--scenario",
            s.to_str().unwrap(),
            "--memo-limit",
            memo,
        ]);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!err.contains("panicked"), "panic: {err}");
        (o.status.code(), out, err)
    };
    let (code, first, err) = opt("1000000");
    assert_eq!(code, Some(0), "{err}");
    assert!(first.contains("proven optimal"), "{first}");
    let head = |text: &str| text.lines().next().unwrap_or_default().to_string();
    for memo in ["0", "3", "1000000000"] {
        let (code, out, err) = opt(memo);
        assert_eq!(code, Some(0), "--memo-limit {memo}: {err}");
        assert_eq!(head(&out), head(&first), "--memo-limit {memo}");
    }
    let (code, _, err) = opt("1000000001");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("option `--memo-limit`"), "{err}");
    let (code, _, err) = opt("-1");
    assert_eq!(code, Some(2), "{err}");
}
