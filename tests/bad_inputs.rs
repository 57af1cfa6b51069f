//! The bad-input corpus: every case of `tests/bad_inputs/` run against the built binary
//! (issue 12; format in `tests/bad_inputs/README.md`).
//!
//! A case is a directory holding `case.json` (arguments, expected exit code, message fragments)
//! and the input files its arguments name. Each case runs in a fresh copy of its directory (so
//! nothing it writes lands in the source tree) with a wall-clock bound: a child still running
//! after [`TIME_LIMIT`] is killed and the case fails by name. Every case, ignored or not, must
//! also keep the rules that hold for any input: no panic, no `NaN`, no `inf`.
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one case may run before it is killed and failed.
const TIME_LIMIT: Duration = Duration::from_secs(30);

/// The contents of a `case.json`.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    /// What is wrong with the input, for a reader of the corpus.
    about: String,
    /// Arguments after the program name; file names are relative to the case directory.
    args: Vec<String>,
    /// Expected exit code (2: bad input or usage; 1: a check that failed).
    exit: i32,
    /// Fragments that must all appear in standard error.
    #[serde(default)]
    stderr: Vec<String>,
    /// Fragments that must all appear in standard output.
    #[serde(default)]
    stdout: Vec<String>,
    /// Set when the program's current message falls short of the expectation: the reason, and
    /// where the fix belongs. The case still runs; only the exit code and fragments are waived.
    #[serde(default)]
    ignore: Option<String>,
}

/// What one run of the binary gave.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs")
}

/// Copies the case's files (not `case.json`) into `to`.
fn copy_inputs(from: &Path, to: &Path) -> Result<(), String> {
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name();
        if name == "case.json" {
            continue;
        }
        if entry.path().is_dir() {
            return Err(format!(
                "{}: sub-directories are not supported",
                entry.path().display()
            ));
        }
        std::fs::copy(entry.path(), to.join(&name)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Reads a child's pipe to the end on its own thread (so a full pipe never blocks the child).
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Runs the binary in `dir`, killing it after [`TIME_LIMIT`].
fn run(name: &str, dir: &Path, args: &[String]) -> Result<Ran, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_resched"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{name}: cannot start resched: {e}"))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > TIME_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{name}: still running after {} s, killed",
                    TIME_LIMIT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("{name}: waiting for resched: {e}")),
        }
    };
    Ok(Ran {
        code: status.code(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// `inf` as a word (`inf`, `-inf`, `Infinity`), which no output may contain.
fn has_inf_word(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("inf") || w.eq_ignore_ascii_case("infinity"))
}

/// The rules every run keeps, whatever its input: no panic, no NaN, no inf.
fn hard_rules(name: &str, ran: &Ran) -> Vec<String> {
    let mut broken = Vec::new();
    for (stream, text) in [("stdout", &ran.stdout), ("stderr", &ran.stderr)] {
        if text.contains("panicked") {
            broken.push(format!("{name}: {stream} shows a panic:\n{text}"));
        }
        if text.contains("NaN") {
            broken.push(format!("{name}: {stream} contains NaN:\n{text}"));
        }
        if has_inf_word(text) {
            broken.push(format!("{name}: {stream} contains inf:\n{text}"));
        }
    }
    broken
}

/// The expectations of the case (exit code and fragments).
fn expectations(name: &str, case: &Case, ran: &Ran) -> Vec<String> {
    let mut broken = Vec::new();
    if ran.code != Some(case.exit) {
        broken.push(format!(
            "{name}: exit code {:?}, expected {}\nstdout: {}\nstderr: {}",
            ran.code, case.exit, ran.stdout, ran.stderr
        ));
    }
    for (stream, text, fragments) in [
        ("stderr", &ran.stderr, &case.stderr),
        ("stdout", &ran.stdout, &case.stdout),
    ] {
        for f in fragments {
            if !text.contains(f.as_str()) {
                broken.push(format!("{name}: `{f}` not in {stream}:\n{text}"));
            }
        }
    }
    broken
}

/// Reads and checks one case's manifest: it must expect at least one fragment.
fn load_case(name: &str, dir: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(dir.join("case.json"))
        .map_err(|e| format!("{name}/case.json: {e}"))?;
    let case: Case = serde_json::from_str(&text).map_err(|e| format!("{name}/case.json: {e}"))?;
    if case.stderr.is_empty() && case.stdout.is_empty() {
        return Err(format!("{name}/case.json: expects no message fragment"));
    }
    if case.about.trim().is_empty() || case.args.is_empty() {
        return Err(format!(
            "{name}/case.json: `about` and `args` must not be empty"
        ));
    }
    Ok(case)
}

#[test]
fn every_bad_input_gets_a_clear_error() {
    let root = corpus_dir();
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("case.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names.len() >= 60,
        "only {} cases in {}",
        names.len(),
        root.display()
    );
    let mut failures: Vec<String> = Vec::new();
    let mut ignored: Vec<String> = Vec::new();
    for name in &names {
        let dir = root.join(name);
        let case = match load_case(name, &dir) {
            Ok(c) => c,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let work = tempfile::tempdir().expect("a temporary directory");
        if let Err(e) = copy_inputs(&dir, work.path()) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        let ran = match run(name, work.path(), &case.args) {
            Ok(r) => r,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        failures.extend(hard_rules(name, &ran));
        let unmet = expectations(name, &case, &ran);
        match &case.ignore {
            Some(reason) => {
                let state = if unmet.is_empty() {
                    "now meets its expectations: remove `ignore`"
                } else {
                    "still falls short"
                };
                ignored.push(format!("{name} ({state}): {reason}"));
            }
            None => failures.extend(unmet),
        }
    }
    eprintln!(
        "{} bad-input cases, {} ignored:",
        names.len(),
        ignored.len()
    );
    for i in &ignored {
        eprintln!("  ignored {i}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
