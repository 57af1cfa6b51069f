//! The bad-input corpus: every case of `tests/bad_inputs/` run against the built binary
//! (format in `tests/bad_inputs/README.md`).
//!
//! A case is a directory holding `case.json` (arguments, expected exit code, message fragments)
//! and the input files its arguments name. Each case runs in a fresh copy of its directory (so
//! nothing it writes lands in the source tree) with a wall-clock bound: a child still running
//! after [`TIME_LIMIT`] is killed and the case fails by name, and a child whose peak resident
//! memory exceeds [`MEMORY_LIMIT`] fails too (measured by `wait4`; the child's address space is
//! also capped by `setrlimit` a little above it, so a runaway allocation aborts the child instead
//! of the machine). Every case, ignored or not, must also keep the rules that hold for any input:
//! no panic, no `NaN`, no `inf`.
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one case may run before it is killed and failed.
const TIME_LIMIT: Duration = Duration::from_secs(30);

/// The peak resident memory one case may use (no run may take longer than 30 s or more than
/// 3 GB).
const MEMORY_LIMIT: u64 = 3 << 30;

/// The child's address-space cap: above [`MEMORY_LIMIT`] (virtual memory exceeds resident
/// memory by the thread stacks and allocator arenas), so that the wait4 measurement, not the
/// cap, is what a case normally fails on; the cap only stops an allocation the size of the
/// machine.
const ADDRESS_SPACE_CAP: u64 = 6 << 30;

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
    /// Environment variables set for the run (`RAYON_NUM_THREADS`).
    #[serde(default)]
    env: std::collections::BTreeMap<String, String>,
    /// Where standard output goes instead of a pipe the runner reads: a path opened for writing
    /// (`/dev/full`; relative to the work directory).
    #[serde(default)]
    stdout_to: Option<String>,
    /// What the work directory holds besides the copied inputs, made before the run.
    #[serde(default)]
    setup: Vec<Setup>,
    /// What must hold of the files after the run (checked unless the case is ignored).
    #[serde(default)]
    after: Vec<After>,
}

/// One thing made in the work directory before a run.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
enum Setup {
    /// A directory.
    Mkdir(String),
    /// A symbolic link `[name, target]` (the target as written, relative to the link).
    Symlink([String; 2]),
    /// A FIFO with a reader that drains it for the whole run into `<name>.read`.
    Fifo(String),
}

/// A fact about one path after the run.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct After {
    /// The path (relative to the work directory, or absolute such as `/dev/null`).
    path: String,
    /// What it is, not following a last link: `file`, `symlink`, `char-device`, `fifo`,
    /// `dir`, or `absent`.
    #[serde(default)]
    kind: Option<String>,
    /// A fragment its contents (read through links) must contain.
    #[serde(default)]
    contains: Option<String>,
    /// Exactly these contents (`"untouched"` written by the case itself stays so).
    #[serde(default)]
    equals: Option<String>,
}

/// What one run of the binary gave.
struct Ran {
    code: Option<i32>,
    /// The signal that ended the child, if one did.
    signal: Option<i32>,
    /// Peak resident set size of the child, in bytes.
    peak_rss: u64,
    stdout: String,
    stderr: String,
}

fn corpus_dir() -> PathBuf {
    crate::support::repo().join("tests/bad_inputs")
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
            // A directory of inputs (a shard's output for `merge`), copied whole.
            let sub = to.join(&name);
            std::fs::create_dir_all(&sub).map_err(|e| format!("{}: {e}", sub.display()))?;
            copy_inputs(&entry.path(), &sub)?;
            continue;
        }
        std::fs::copy(entry.path(), to.join(&name)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The placeholder of this build's version in an input file (a shard record, a manifest, a
/// cell, a counterexample): the fixtures of `merge` hold what a run of the same version wrote,
/// and a literal version would make every such case fail at the next version bump.
const VERSION_PLACEHOLDER: &str = "@RESCHED_VERSION@";

/// The placeholder of a cell's parameter hash (`"cell": {"key": …, "params": "@PARAMS_HASH@"}`):
/// the hash covers the campaign's manifest, version included, so the runner computes it from
/// the shard's `manifest.json` (once its version is filled in) and the cell's key. A cell whose
/// hash is wrong on purpose keeps a literal one.
const PARAMS_PLACEHOLDER: &str = "@PARAMS_HASH@";

/// Fills the placeholders of the copied inputs under `work` (see [`VERSION_PLACEHOLDER`] and
/// [`PARAMS_PLACEHOLDER`]).
fn fill_placeholders(work: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    let mut todo = vec![work.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
            let path = e.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let version = env!("CARGO_PKG_VERSION");
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if text.contains(VERSION_PLACEHOLDER) {
            let filled = text.replace(VERSION_PLACEHOLDER, version);
            std::fs::write(f, filled).map_err(|e| format!("{}: {e}", f.display()))?;
        }
    }
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if text.contains(PARAMS_PLACEHOLDER) {
            let hash = cell_hash(f, &text)?;
            std::fs::write(f, text.replace(PARAMS_PLACEHOLDER, &hash))
                .map_err(|e| format!("{}: {e}", f.display()))?;
        }
    }
    Ok(())
}

/// The parameter hash the cell file `cell` (in `<shard>/cells/`) must carry: of its shard's
/// manifest and its key (the key its stamp states, else its file name's).
fn cell_hash(cell: &Path, text: &str) -> Result<String, String> {
    let shard = cell
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| format!("{}: a cell file outside <shard>/cells/", cell.display()))?;
    let manifest = shard.join("manifest.json");
    let manifest: serde_json::Value = std::fs::read_to_string(&manifest)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", manifest.display()))?;
    let stated = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v["cell"]["key"].as_str().map(str::to_string));
    let stem = cell.file_stem().map(|s| s.to_string_lossy().into_owned());
    let key = stated
        .or(stem)
        .ok_or_else(|| format!("{}: no key", cell.display()))?;
    let manifest = resched_cli::experiment::shard::without_provenance(manifest);
    Ok(resched_cli::experiment::shard::params_hash(&manifest, &key))
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

/// The exit status and peak resident memory (bytes) of `pid` if it has ended, without blocking.
fn try_wait4(pid: libc::pid_t) -> std::io::Result<Option<(std::process::ExitStatus, u64)>> {
    use std::os::unix::process::ExitStatusExt;
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet reaped; both pointers are to live locals.
    let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
    match got {
        0 => Ok(None),
        p if p == pid => {
            // Linux reports ru_maxrss in kibibytes.
            let kib = u64::try_from(usage.ru_maxrss).unwrap_or(0);
            Ok(Some((
                std::process::ExitStatus::from_raw(status),
                kib * 1024,
            )))
        }
        _ => Err(std::io::Error::last_os_error()),
    }
}

/// Runs the binary in `dir` as `case` says, killing it after [`TIME_LIMIT`], under
/// [`ADDRESS_SPACE_CAP`].
fn run(name: &str, dir: &Path, case: &Case) -> Result<Ran, String> {
    let mut command = Command::new(crate::support::bin());
    command
        .args(&case.args)
        .envs(&case.env)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(to) = &case.stdout_to {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join(to))
            .map_err(|e| format!("{name}: stdout_to {to}: {e}"))?;
        command.stdout(file);
    }
    // SAFETY: between fork and exec the closure only calls setrlimit, which is async-signal-safe
    // and allocates nothing.
    unsafe {
        command.pre_exec(|| {
            let cap = libc::rlimit {
                rlim_cur: ADDRESS_SPACE_CAP as libc::rlim_t,
                rlim_max: ADDRESS_SPACE_CAP as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("{name}: cannot start resched: {e}"))?;
    let pid = libc::pid_t::try_from(child.id()).map_err(|e| format!("{name}: pid: {e}"))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let started = Instant::now();
    // The child is reaped by wait4 (for its rusage), never by `child.try_wait`.
    let (status, peak_rss) = loop {
        match try_wait4(pid) {
            Ok(Some(done)) => break done,
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
        signal: std::os::unix::process::ExitStatusExt::signal(&status),
        peak_rss,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// `inf` as a word (`inf`, `-inf`, `Infinity`), which no output may contain.
///
/// ```text
/// has_inf_word("exposure inf must be > 0") == true; has_inf_word("info: 1e400") == false
/// ```
fn has_inf_word(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("inf") || w.eq_ignore_ascii_case("infinity"))
}

/// `text` without the backtick-quoted echoes of what the user wrote: a token quoted in the
/// message (`` `inf` is not a number ``) that appears verbatim in the case's arguments or input
/// files is the user's input named back, not a value the program computed.
fn without_echoes(text: &str, inputs: &[String]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        let quoted = &rest[open + 1..open + 1 + len];
        out.push_str(&rest[..open]);
        if quoted.is_empty() || !inputs.iter().any(|i| i.contains(quoted)) {
            out.push_str(&rest[open..open + len + 2]);
        }
        rest = &rest[open + len + 2..];
    }
    out.push_str(rest);
    out
}

/// The rules every run keeps, whatever its input: no panic, no NaN, no inf, no more than
/// [`MEMORY_LIMIT`] of memory, and no death by a signal (an abort on a failed allocation).
fn hard_rules(name: &str, ran: &Ran, inputs: &[String]) -> Vec<String> {
    let mut broken = Vec::new();
    if ran.peak_rss > MEMORY_LIMIT {
        broken.push(format!(
            "{name}: peak resident memory {} MiB, above the {} MiB bound",
            ran.peak_rss >> 20,
            MEMORY_LIMIT >> 20
        ));
    }
    if ran.code.is_none() {
        broken.push(format!(
            "{name}: killed by signal {} (6 is an abort)\nstderr: {}",
            ran.signal
                .map_or_else(|| "?".to_string(), |s| s.to_string()),
            ran.stderr
        ));
    }
    for (stream, text) in [("stdout", &ran.stdout), ("stderr", &ran.stderr)] {
        if text.contains("panicked") {
            broken.push(format!("{name}: {stream} shows a panic:\n{text}"));
        }
        if text.contains("NaN") {
            broken.push(format!("{name}: {stream} contains NaN:\n{text}"));
        }
        if has_inf_word(&without_echoes(text, inputs)) {
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

/// The case's arguments and the text of its input files (what the user wrote).
fn inputs_of(dir: &Path, case: &Case) -> Vec<String> {
    let mut inputs = case.args.clone();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_name() != "case.json" {
                if let Ok(bytes) = std::fs::read(e.path()) {
                    inputs.push(String::from_utf8_lossy(&bytes).into_owned());
                }
            }
        }
    }
    inputs
}

/// The FIFO readers of a case's setup: each drains its FIFO until told to stop.
struct Readers {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Readers {
    /// Stops the readers once the run is over (each drains what is left first).
    fn finish(self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// Makes the case's setup in `dir`; a FIFO's reader is opened before the run (non-blocking,
/// so that a writer's open never waits) and copies what it reads to `<name>.read`.
fn set_up(dir: &Path, setup: &[Setup]) -> Result<Readers, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut threads = Vec::new();
    for s in setup {
        match s {
            Setup::Mkdir(d) => {
                std::fs::create_dir_all(dir.join(d)).map_err(|e| format!("{d}: {e}"))?
            }
            Setup::Symlink([link, to]) => std::os::unix::fs::symlink(to, dir.join(link))
                .map_err(|e| format!("{link}: {e}"))?,
            Setup::Fifo(f) => {
                let path = dir.join(f);
                let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
                    .map_err(|e| e.to_string())?;
                // SAFETY: a valid NUL-terminated path and a plain mode.
                if unsafe { libc::mkfifo(c.as_ptr(), 0o644) } != 0 {
                    return Err(format!("{f}: {}", std::io::Error::last_os_error()));
                }
                let mut pipe = std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_NONBLOCK)
                    .open(&path)
                    .map_err(|e| format!("{f}: {e}"))?;
                let (stop, copy) = (stop.clone(), dir.join(format!("{f}.read")));
                threads.push(std::thread::spawn(move || {
                    let mut got = Vec::new();
                    let mut buf = [0u8; 65536];
                    loop {
                        let done = stop.load(std::sync::atomic::Ordering::SeqCst);
                        match pipe.read(&mut buf) {
                            Ok(n) if n > 0 => got.extend_from_slice(&buf[..n]),
                            _ if done => break,
                            _ => std::thread::sleep(Duration::from_millis(5)),
                        }
                    }
                    let _ = std::fs::write(copy, got);
                }));
            }
        }
    }
    Ok(Readers { stop, threads })
}

/// What `path` is, not following a last link.
fn kind_of(path: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    match std::fs::symlink_metadata(path) {
        Err(_) => "absent",
        Ok(m) => {
            let t = m.file_type();
            if t.is_symlink() {
                "symlink"
            } else if t.is_file() {
                "file"
            } else if t.is_dir() {
                "dir"
            } else if t.is_char_device() {
                "char-device"
            } else if t.is_fifo() {
                "fifo"
            } else {
                "other"
            }
        }
    }
}

/// The unmet part of one `after` fact, if any.
fn after_unmet(name: &str, dir: &Path, a: &After) -> Option<String> {
    let path = dir.join(&a.path);
    let mut unmet = Vec::new();
    if let Some(k) = &a.kind {
        let is = kind_of(&path);
        if is != k {
            unmet.push(format!("is a {is}, expected a {k}"));
        }
    }
    if a.contains.is_some() || a.equals.is_some() {
        let text = std::fs::read(&path).map(|b| String::from_utf8_lossy(&b).into_owned());
        match text {
            Err(e) => unmet.push(format!("cannot be read: {e}")),
            Ok(t) => {
                if let Some(c) = a.contains.as_ref().filter(|c| !t.contains(c.as_str())) {
                    unmet.push(format!("does not contain `{c}`: {t}"));
                }
                if let Some(x) = a.equals.as_ref().filter(|x| t != **x) {
                    unmet.push(format!("holds `{t}`, expected `{x}`"));
                }
            }
        }
    }
    (!unmet.is_empty()).then(|| format!("{name}: after the run, {}: {}", a.path, unmet.join("; ")))
}

/// The output layer's temporaries (`.resched-tmp-…`) a run left anywhere in its work
/// directory: none may outlive a run, whatever its outcome.
fn temporaries_left(name: &str, dir: &Path) -> Vec<String> {
    let mut left = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let kind = e.file_type();
            if e.file_name().to_string_lossy().starts_with(".resched-tmp-") {
                left.push(format!("{name}: left a temporary {}", e.path().display()));
            } else if kind.is_ok_and(|k| k.is_dir()) {
                todo.push(e.path());
            }
        }
    }
    left
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

/// The hard rules can fail: a computed `inf` is caught, an echoed input token is not.
#[test]
fn the_inf_rule_tells_an_echo_from_a_computed_value() {
    let inputs = vec!["{\"time\": \"inf\"}".to_string()];
    assert!(has_inf_word(&without_echoes(
        "instance: field `jobs[0]`: exposure inf must be > 0",
        &inputs
    )));
    assert!(has_inf_word(&without_echoes(
        "`-inf` s is too late",
        &inputs
    )));
    assert!(!has_inf_word(&without_echoes(
        "field `jobs[0].time`: `inf` is not a number",
        &inputs
    )));
    assert!(!has_inf_word("information: 1e400 is above the limit"));
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
        names.len() >= 330,
        "only {} cases in {}",
        names.len(),
        root.display()
    );
    let mut failures: Vec<String> = Vec::new();
    let mut ignored: Vec<String> = Vec::new();
    let mut heaviest: (u64, &str) = (0, "");
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
        if let Err(e) = copy_inputs(&dir, work.path()).and_then(|()| fill_placeholders(work.path()))
        {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        let readers = match set_up(work.path(), &case.setup) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: setup: {e}"));
                continue;
            }
        };
        let ran = run(name, work.path(), &case);
        readers.finish();
        let ran = match ran {
            Ok(r) => r,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        heaviest = heaviest.max((ran.peak_rss, name.as_str()));
        failures.extend(hard_rules(name, &ran, &inputs_of(&dir, &case)));
        failures.extend(temporaries_left(name, work.path()));
        let mut unmet = expectations(name, &case, &ran);
        unmet.extend(
            case.after
                .iter()
                .filter_map(|a| after_unmet(name, work.path(), a)),
        );
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
    eprintln!(
        "largest peak resident memory: {} MiB ({})",
        heaviest.0 >> 20,
        heaviest.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
