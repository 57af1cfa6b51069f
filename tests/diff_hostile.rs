//! `resched diff` against programs that misbehave at the process level
//! (`tests/diff_impls/hostile.sh` around the correct `greedy.py`): a grandchild in a new
//! session (`setsid`) that keeps the program's output open after it exited must neither turn
//! a right answer into a false counterexample nor cost more than the short grace per case, in
//! both protocols; raw control bytes another program prints never reach the terminal; and
//! `--replay` checks the pins of the counterexample file, not only today's answers.
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn impls() -> PathBuf {
    crate::support::repo().join("tests/diff_impls")
}

fn hostile(mode: &str, rest: &str) -> String {
    format!("sh {} {mode} {rest}", impls().join("hostile.sh").display())
}

fn greedy(args: &str) -> String {
    format!("python3 -S {} {args}", impls().join("greedy.py").display())
}

struct Out {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
    took: Duration,
}

impl Out {
    fn text(&self) -> String {
        format!("{}\n{}", String::from_utf8_lossy(&self.stdout), self.stderr)
    }
}

fn resched(args: &[&str], cwd: &Path) -> Out {
    let t0 = Instant::now();
    let o = Command::new(crate::support::bin())
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap_or_else(|e| panic!("running resched: {e}"));
    Out {
        code: o.status.code(),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        took: t0.elapsed(),
    }
}

fn expect(o: &Out, code: i32, needles: &[&str]) {
    let all = o.text();
    assert_eq!(o.code, Some(code), "exit code; output:\n{all}");
    for n in needles {
        assert!(all.contains(n), "`{n}` not in:\n{all}");
    }
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

/// A correct implementation whose every run leaves a `setsid` grandchild holding its stdout
/// and stderr for 20 s: 30 cases agree (no "printed nothing", no counterexample file), and the
/// whole run costs at most a second per case more than the same program without the
/// grandchild (it was 2.5 s per case, and each case a false counterexample). Measured here:
/// about 0.1 s per case more (the grace), printed below.
#[test]
fn a_setsid_grandchild_holding_stdout_is_no_counterexample() {
    let dir = tmp();
    let plain = greedy("{instance} {scenario} {algo} {priority}");
    let base = ["diff", "--cases", "30", "--seed", "5", "--out", "cex.json"];
    let run = |cmd: &str| resched(&[&base[..], &["--cmd", cmd]].concat(), dir.path());
    let clean = run(&plain);
    expect(&clean, 0, &["30 agree"]);
    let held = run(&hostile("escape", &plain));
    expect(&held, 0, &["30 agree"]);
    assert!(!held.text().contains("printed nothing"), "{}", held.text());
    assert!(!dir.path().join("cex.json").exists());
    let extra = held.took.saturating_sub(clean.took).as_secs_f64() / 30.0;
    eprintln!(
        "setsid grandchild: {:.2} s for 30 cases against {:.2} s without ({extra:.3} s per case more)",
        held.took.as_secs_f64(),
        clean.took.as_secs_f64()
    );
    assert!(extra < 1.0, "{extra:.3} s per case more");
    // A grandchild that prints after the program exited is not part of its answer.
    let late = run(&hostile("escape-late", &plain));
    expect(&late, 0, &["30 agree"]);
}

/// The same in the JSONL protocol: a grandchild holding the session's output neither blocks
/// the run nor its end; a session that exits unanswered while the grandchild holds its output
/// is reported as a crash at once, not after the time limit.
#[test]
fn a_setsid_grandchild_of_a_jsonl_program_is_no_hang() {
    let dir = tmp();
    let cmd = hostile("escape-jsonl", &greedy("--jsonl"));
    let o = resched(
        &[
            "diff",
            "--protocol",
            "jsonl",
            "--cmd",
            &cmd,
            "--cases",
            "200",
            "--seed",
            "6",
        ],
        dir.path(),
    );
    expect(&o, 0, &["200 agree"]);
    assert!(o.took < Duration::from_secs(20), "{:?}", o.took);
    let cmd = hostile("escape-jsonl-crash", "");
    let o = resched(
        &[
            "diff",
            "--protocol",
            "jsonl",
            "--cmd",
            &cmd,
            "--cases",
            "1",
            "--timeout",
            "60",
            "--shrink-budget",
            "3",
            "--out",
            "cex.json",
        ],
        dir.path(),
    );
    expect(
        &o,
        1,
        &[
            "crashed: exit code 1 before answering request 0",
            "giving up",
        ],
    );
    assert!(o.took < Duration::from_secs(20), "{:?}", o.took);
}

/// Another program's NUL, ESC, BEL and carriage-return bytes are printed escaped, in the
/// mismatch and in the quoted standard error; the counterexample keeps them (JSON-escaped).
#[test]
fn control_bytes_of_another_program_are_escaped() {
    let dir = tmp();
    let o = resched(
        &[
            "diff",
            "--cmd",
            &hostile("controls", ""),
            "--cases",
            "1",
            "--shrink-budget",
            "2",
            "--out",
            "cex.json",
        ],
        dir.path(),
    );
    expect(
        &o,
        1,
        &[
            r"make\0span\x1b[2J\x1b]0;title\x07 is\r 7",
            r"warning \x1b[31mred\x1b[0m",
        ],
    );
    for b in [0u8, 0x1b, 0x07, b'\r'] {
        assert!(!o.stdout.contains(&b), "raw byte {b:#x} on stdout");
    }
    let file = std::fs::read_to_string(dir.path().join("cex.json"))
        .unwrap_or_else(|e| panic!("cex.json: {e}"));
    assert!(file.contains(r"make\u0000span\u001b[2J"), "{file}");
}

/// A counterexample from a wrong program (`echo 2` on a one-job case whose makespan is 1),
/// replayed against a right one: agree, and the file's pin of the other's answer (2) is said
/// to have changed. Its pinned resched makespan edited (to 5) is a pin that differs from
/// today's answer: exit 1, naming the field, although the other implementation agrees.
#[test]
fn replay_checks_the_files_pins() {
    let dir = tmp();
    let d = dir.path();
    std::fs::write(d.join("two.sh"), "echo 2\n").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(d.join("one.sh"), "echo 1\n").unwrap_or_else(|e| panic!("{e}"));
    let scope = [
        "--procs",
        "1",
        "--jobs",
        "1",
        "--times",
        "grid:1",
        "--failures",
        "0",
    ];
    let o = resched(
        &[
            &[
                "diff",
                "--cmd",
                "sh two.sh",
                "--cases",
                "1",
                "--out",
                "cex.json",
            ][..],
            &scope,
        ]
        .concat(),
        d,
    );
    expect(&o, 1, &["MISMATCH on case 0"]);
    let replay = |file: &str| resched(&["diff", "--replay", file, "--cmd", "sh one.sh"], d);
    let o = replay("cex.json");
    expect(
        &o,
        0,
        &[
            "agree: the other implementation now gives resched's answer",
            "its makespan was 2 (field `other.other.makespan`), it is 1 today",
        ],
    );
    assert!(!o.text().contains("PIN DIFFERS"), "{}", o.text());
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string(d.join("cex.json")).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["expect"][0]["makespan"], Value::from(1), "{v}");
    v["expect"][0]["makespan"] = Value::from(5);
    std::fs::write(d.join("edited.json"), v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let o = replay("edited.json");
    expect(
        &o,
        1,
        &[
            "PIN DIFFERS: field `expect[0].makespan` pins resched's makespan 5, resched gives 1 today",
            "the file was edited, or resched changed its answer",
        ],
    );
    v["expect"][0]["makespan"] = Value::from(1);
    v["other"]["resched"]["makespan"] = Value::from(3);
    std::fs::write(d.join("edited.json"), v.to_string()).unwrap_or_else(|e| panic!("{e}"));
    expect(
        &replay("edited.json"),
        1,
        &["PIN DIFFERS: field `other.resched.makespan` pins 3, resched gives 1 today"],
    );
}

/// The pids a `hostile.sh stray` program wrote (its own, a `setsid` grandchild with closed
/// streams, a background child in its group) that are still running `timeout` later (zombies
/// count as ended: a zombie holds nothing).
fn survivors(file: &Path, wait: Duration) -> (Vec<u32>, Vec<u32>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let pids: Vec<u32> = text
        .lines()
        .map(|l| {
            l.trim()
                .parse()
                .unwrap_or_else(|e| panic!("pid `{l}`: {e}"))
        })
        .collect();
    let alive = |p: &u32| {
        std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| {
            let state = s.rfind(')').map(|i| s[i + 1..].trim_start().chars().next());
            state != Some(Some('Z'))
        })
    };
    let t0 = Instant::now();
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(alive).collect();
        if left.is_empty() || t0.elapsed() > wait {
            return (pids, left);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Files left in a temporary folder (resched's TMPDIR in these tests).
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// `resched diff` with TMPDIR set to `tmpdir`, started (not waited for).
fn start(args: &[&str], cwd: &Path, tmpdir: &Path) -> std::process::Child {
    Command::new(crate::support::bin())
        .args(args)
        .current_dir(cwd)
        .env("TMPDIR", tmpdir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running resched: {e}"))
}

fn finish(mut child: std::process::Child, limit: Duration) -> (std::process::ExitStatus, String) {
    let t0 = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if t0.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                panic!("resched still running after {limit:?}");
            }
        }
    }
    let o = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("resched: {e}"));
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status, text)
}

/// Waits until `file` has at least `n` lines.
fn wait_lines(file: &Path, n: usize) {
    let t0 = Instant::now();
    while std::fs::read_to_string(file).map_or(0, |t| t.lines().count()) < n {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "{} never had {n} lines",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every exit path of `diff` ends the program, its group, and the `setsid` grandchild that
/// closed its streams (which was a stray after every case before resched became a subreaper),
/// and removes the temporary folder: success and a mismatch in both protocols, a time limit.
#[cfg(target_os = "linux")]
#[test]
fn no_process_survives_success_mismatch_or_timeout() {
    let dir = tmp();
    let d = dir.path();
    let tmpdir = d.join("tmp");
    std::fs::create_dir(&tmpdir).unwrap_or_else(|e| panic!("{e}"));
    let right = greedy("{instance} {scenario} {algo} {priority}");
    let stray =
        |name: &str, rest: &str| hostile("stray", &format!("{} {rest}", d.join(name).display()));
    let runs: Vec<(&str, String, Vec<&str>, i32, &str)> = vec![
        ("success", stray("ok.pids", &right), vec![], 0, "3 agree"),
        (
            "mismatch",
            stray("bad.pids", "echo 99999"),
            vec!["--shrink-budget", "3"],
            1,
            "MISMATCH",
        ),
        (
            "timeout",
            stray("slow.pids", "sleep 30"),
            vec!["--timeout", "0.5"],
            1,
            "timeout",
        ),
        (
            "jsonl",
            hostile(
                "stray-exec",
                &format!("{} {}", d.join("jsonl.pids").display(), greedy("--jsonl")),
            ),
            vec!["--protocol", "jsonl"],
            0,
            "3 agree",
        ),
        (
            "jsonl-mismatch",
            hostile(
                "stray-exec",
                &format!(
                    "{} sh -c 'read -r x; echo nonsense'",
                    d.join("jsonl-bad.pids").display()
                ),
            ),
            vec!["--protocol", "jsonl", "--shrink-budget", "2"],
            1,
            "MISMATCH",
        ),
    ];
    for (name, cmd, extra, code, needle) in &runs {
        let base = [
            "diff", "--cases", "3", "--seed", "2", "--out", "cex.json", "--cmd", cmd,
        ];
        let child = start(&[&base[..], extra].concat(), d, &tmpdir);
        let (status, text) = finish(child, Duration::from_secs(60));
        assert_eq!(status.code(), Some(*code), "{name}: {text}");
        assert!(text.contains(needle), "{name}: `{needle}` not in {text}");
    }
    for f in ["ok", "bad", "slow", "jsonl", "jsonl-bad"] {
        let (pids, left) = survivors(&d.join(format!("{f}.pids")), Duration::from_secs(2));
        assert!(pids.len() >= 3, "{f}: {pids:?}");
        assert!(left.is_empty(), "{f}: still running: {left:?} of {pids:?}");
    }
    assert_eq!(leftovers(&tmpdir), Vec::<String>::new());
}

/// SIGINT (Ctrl-C) and SIGTERM during a case: resched ends the hanging program, its group and
/// its `setsid` grandchild, removes its temporary folder, and dies of the signal (the shell's
/// 130 or 143), in both protocols.
#[cfg(target_os = "linux")]
#[test]
fn no_process_survives_a_signal() {
    use nix::sys::signal::{kill, Signal};
    use std::os::unix::process::ExitStatusExt;
    let dir = tmp();
    let d = dir.path();
    for (k, (sig, protocol)) in [
        (Signal::SIGINT, "template"),
        (Signal::SIGTERM, "template"),
        (Signal::SIGINT, "jsonl"),
        (Signal::SIGTERM, "jsonl"),
    ]
    .into_iter()
    .enumerate()
    {
        let tmpdir = d.join(format!("tmp{k}"));
        std::fs::create_dir(&tmpdir).unwrap_or_else(|e| panic!("{e}"));
        let file = d.join(format!("{k}.pids"));
        let cmd = hostile("stray-exec", &format!("{} sleep 30", file.display()));
        let child = start(
            &[
                "diff",
                "--cases",
                "3",
                "--protocol",
                protocol,
                "--timeout",
                "60",
                "--cmd",
                &cmd,
            ],
            d,
            &tmpdir,
        );
        wait_lines(&file, 3);
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap_or(0));
        kill(pid, sig).unwrap_or_else(|e| panic!("kill: {e}"));
        let (status, text) = finish(child, Duration::from_secs(20));
        assert_eq!(
            status.signal(),
            Some(sig as i32),
            "{sig} {protocol}: {status:?}\n{text}"
        );
        let (pids, left) = survivors(&file, Duration::from_secs(2));
        assert!(
            left.is_empty(),
            "{sig} {protocol}: still running: {left:?} of {pids:?}"
        );
        assert_eq!(leftovers(&tmpdir), Vec::<String>::new(), "{sig} {protocol}");
    }
}
