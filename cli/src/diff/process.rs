//! Running another program under a time limit, with bounded capture of what it prints.
//!
//! Every child is started in a process group of its own, so that a time limit kills the whole
//! group: a template such as `sh -c 'python3 sim.py …'` leaves no orphan holding the pipes.
//! (Elsewhere than on Unix the child's process tree is ended with `taskkill /T`.) Its
//! standard output is read up to [`MAX_STDOUT`] bytes (more is reported, not stored); of its
//! standard error the last [`MAX_STDERR`] bytes are kept, for the report.
//!
//! Threads do the blocking reads, so the time limit is a `recv_timeout` on a channel and never
//! depends on the child's cooperation.
use resched::error::{Error, Result};
use std::io::Read;
#[cfg(unix)]
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// Largest standard output (or JSONL response line) read from a program: 64 MiB.
pub const MAX_STDOUT: usize = 64 << 20;

/// How much of the end of a program's standard error is kept: 16 KiB.
pub const MAX_STDERR: usize = 16 << 10;

/// How long the readers may take to drain the pipes once the program has exited or was killed.
const DRAIN: Duration = Duration::from_secs(2);

/// How long the output pipe may stay open after the program exited before its group is killed.
const GRACE: Duration = Duration::from_millis(500);

/// A program that ran to its end.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    /// True when the output exceeded [`MAX_STDOUT`] (the rest was discarded).
    pub truncated: bool,
    pub stderr: String,
}

/// How a run ended.
#[derive(Debug)]
pub enum Ended {
    Finished(Finished),
    /// The time limit passed; the process group was killed.
    TimedOut {
        stderr: String,
    },
}

/// A child's exit status in words: `exit code 3`, `killed by signal 11 (SIGSEGV)`.
pub fn describe(status: &ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    if let Some(s) = status.signal() {
        return format!("killed by signal {s}{}", signal_name(s));
    }
    "ended without an exit code".to_string()
}

/// ` (SIGSEGV)` for a signal number the platform names, else nothing.
#[cfg(unix)]
fn signal_name(s: i32) -> String {
    let named = nix::sys::signal::Signal::try_from(s).map(|sig| format!(" ({})", sig.as_str()));
    // default: a signal number the platform does not name is shown as the number alone
    named.unwrap_or_default()
}

/// Starts `argv` in its own process group with the given stdin and piped stdout/stderr.
/// A program that cannot be started is an error on parameter `template` (the command's
/// template: bad usage, not a mismatch).
pub fn spawn(argv: &[String], stdin: Stdio) -> Result<Child> {
    let Some((prog, args)) = argv.split_first() else {
        return Err(Error::param("template", "the command is empty"));
    };
    let mut cmd = Command::new(prog);
    cmd.args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    cmd.process_group(0);
    cmd.spawn()
        .map_err(|e| Error::param("template", format!("cannot start `{prog}`: {e}")))
}

/// Kills the process group `pid` leads (SIGKILL). Harmless when it has already gone (ESRCH is
/// ignored), and a pid that is no process group of ours (0, or beyond `pid_t`) is left alone.
#[cfg(unix)]
pub fn kill_group(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else {
        return;
    };
    if pid <= 0 {
        return;
    }
    let _ = nix::sys::signal::killpg(
        nix::unistd::Pid::from_raw(pid),
        nix::sys::signal::Signal::SIGKILL,
    );
}

/// Ends the process tree of `pid` (`taskkill /T /F`): what a process group is to Unix.
#[cfg(not(unix))]
pub fn kill_group(pid: u32) {
    // default: a tree that cannot be ended is reported by the time limit that follows
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Runs `argv` with stdin closed; kills its process group after `timeout`.
pub fn run(argv: &[String], timeout: Duration) -> Result<Ended> {
    let mut child = spawn(argv, Stdio::null())?;
    let pid = child.id();
    let out = child.stdout.take().map(|s| reader(s, MAX_STDOUT));
    let err = child.stderr.take().map(stderr_tail);
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let status = match rx.recv_timeout(timeout) {
        Ok(s) => Some(s.map_err(|e| Error::param("template", format!("waiting for it: {e}")))?),
        Err(_) => None,
    };
    let Some(status) = status else {
        kill_group(pid);
        // Reap the killed child (its waiter thread reports it); it cannot take long after SIGKILL.
        let _ = rx.recv_timeout(DRAIN);
        // default: no stderr pipe, no stderr text
        let stderr = err.map(|e| e.take(DRAIN)).unwrap_or_default();
        return Ok(Ended::TimedOut { stderr });
    };
    let mut drained = out.as_ref().map(|o| o.recv_timeout(GRACE).ok());
    if matches!(drained, Some(None)) {
        // The program exited but something it started still holds the pipe (a background
        // grandchild): the group is still alive, so its id is still its own; kill it.
        kill_group(pid);
        drained = out.as_ref().map(|o| o.recv_timeout(DRAIN).ok());
    }
    // default: nothing drained before the timeout is empty output
    let (stdout, truncated) = drained.flatten().unwrap_or_default();
    // default: no stderr pipe, no stderr text
    let stderr = err.map(|e| e.take(DRAIN)).unwrap_or_default();
    Ok(Ended::Finished(Finished {
        status,
        stdout,
        truncated,
        stderr,
    }))
}

/// Reads `r` to its end on a thread, keeping at most `max` bytes.
fn reader(mut r: impl Read + Send + 'static, max: usize) -> mpsc::Receiver<(Vec<u8>, bool)> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        let mut truncated = false;
        loop {
            match r.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(k) => {
                    let room = max.saturating_sub(buf.len());
                    buf.extend_from_slice(&chunk[..k.min(room)]);
                    truncated |= k > room;
                }
            }
        }
        let _ = tx.send((buf, truncated));
    });
    rx
}

/// The end of a program's standard error, filled by a thread while the program runs.
#[derive(Clone)]
pub struct StderrTail {
    buf: Arc<Mutex<Vec<u8>>>,
    done: Arc<Mutex<Option<mpsc::Receiver<()>>>>,
}

impl StderrTail {
    /// What was kept so far, as text.
    pub fn snapshot(&self) -> String {
        // default: a poisoned buffer (its reader panicked) shows as empty
        let b = self.buf.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&b).into_owned()
    }

    /// Waits (at most `wait`) for the pipe to close, then returns what was kept.
    pub fn take(&self, wait: Duration) -> String {
        if let Ok(mut d) = self.done.lock() {
            if let Some(rx) = d.take() {
                let _ = rx.recv_timeout(wait);
            }
        }
        self.snapshot()
    }
}

/// Collects the last [`MAX_STDERR`] bytes of `r` on a thread.
pub fn stderr_tail(mut r: ChildStderr) -> StderrTail {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = mpsc::channel();
    let b = Arc::clone(&buf);
    thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        loop {
            match r.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(k) => {
                    if let Ok(mut v) = b.lock() {
                        v.extend_from_slice(&chunk[..k]);
                        let excess = v.len().saturating_sub(MAX_STDERR);
                        v.drain(..excess);
                    }
                }
            }
        }
        let _ = tx.send(());
    });
    StderrTail {
        buf,
        done: Arc::new(Mutex::new(Some(rx))),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn captures_output_status_and_stderr() {
        let e = run(
            &sh("echo out; echo err >&2; exit 3"),
            Duration::from_secs(10),
        );
        match e {
            Ok(Ended::Finished(f)) => {
                assert_eq!(f.stdout, b"out\n");
                assert_eq!(f.stderr, "err\n");
                assert_eq!(describe(&f.status), "exit code 3");
                assert!(!f.truncated);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_signal_is_named() {
        // A wait status of "killed by signal s" is s itself in the low bits.
        assert_eq!(
            describe(&ExitStatus::from_raw(11)),
            "killed by signal 11 (SIGSEGV)"
        );
        assert_eq!(
            describe(&ExitStatus::from_raw(9)),
            "killed by signal 9 (SIGKILL)"
        );
        assert_eq!(describe(&ExitStatus::from_raw(3 << 8)), "exit code 3");
    }

    #[test]
    fn a_hanging_group_is_killed_at_the_limit() {
        let t0 = std::time::Instant::now();
        // The background `sleep` holds the pipes too: the whole group must go.
        let e = run(&sh("sleep 30 & sleep 30"), Duration::from_millis(300));
        assert!(matches!(e, Ok(Ended::TimedOut { .. })), "{e:?}");
        assert!(t0.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_missing_program_is_a_usage_error() {
        let e = run(&["/nonexistent/prog".to_string()], Duration::from_secs(1))
            .err()
            .map(|e| e.to_string())
            // default: no error gives an empty text, which the assertion below rejects
            .unwrap_or_default();
        assert!(
            e.contains("template") && e.contains("cannot start `/nonexistent/prog`"),
            "{e}"
        );
    }
}
