//! Running another program under a time limit, with bounded capture of what it prints.
//!
//! Every child is started in a process group of its own, so that a time limit kills the whole
//! group: a template such as `sh -c 'python3 sim.py …'` leaves no orphan holding the pipes.
//! (Elsewhere than on Unix the child's process tree is ended with `taskkill /T`.) Its
//! standard output is read up to [`MAX_STDOUT`] bytes (more is reported, not stored); of its
//! standard error the last [`MAX_STDERR`] bytes are kept, for the report.
//!
//! Threads do the blocking reads, so the time limit is a `recv_timeout` on a channel and never
//! depends on the child's cooperation. The answer is what the program printed before it
//! exited; then its group and the descendants that left it ([`super::supervise`]) are ended.
//! Where such a descendant cannot be reached (no subreaper) and keeps the pipes open, it is
//! given a short grace ([`GRACE`]), then no longer listened to — its pipe readers stop
//! ([`Stoppable`]) and keep what they read.
use super::supervise;
pub use super::supervise::kill_group;
use resched::error::{Error, Result};
use std::io::Read;
#[cfg(unix)]
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Largest standard output (or JSONL response line) read from a program: 64 MiB.
pub const MAX_STDOUT: usize = 64 << 20;

/// How much of the end of a program's standard error is kept: 16 KiB.
pub const MAX_STDERR: usize = 16 << 10;

/// How long a killed program may take to be reaped.
const DRAIN: Duration = Duration::from_secs(2);

/// How long the pipes may stay open after the program exited before its group is killed and
/// reading stops (a program's own pipes close when it exits: only a descendant that kept them
/// costs this wait).
pub const GRACE: Duration = Duration::from_millis(100);

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

/// Starts `argv` in its own process group with the given stdin and piped stdout/stderr, marked
/// for [`supervise::sweep`]; returns the child and its mark. When the child has been reaped,
/// [`end`] must be called with both. A program that cannot be started is an error on parameter
/// `template` (the command's template: bad usage, not a mismatch).
pub fn spawn(argv: &[String], stdin: Stdio) -> Result<(Child, String)> {
    let Some((prog, args)) = argv.split_first() else {
        return Err(Error::param("template", "the command is empty"));
    };
    let mark = supervise::new_mark();
    let mut cmd = Command::new(prog);
    cmd.args(args)
        .env(supervise::MARK, &mark)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    cmd.process_group(0);
    let spawned = supervise::started(|| cmd.spawn(), |r| r.as_ref().ok().map(Child::id));
    let child =
        spawned.map_err(|e| Error::param("template", format!("cannot start `{prog}`: {e}")))?;
    Ok((child, mark))
}

/// Ends what is left of a program that has been reaped: its process group, and the descendants
/// that left the group ([`supervise::sweep`]).
pub fn end(pid: u32, mark: &str) {
    kill_group(pid);
    supervise::reaped(pid);
    supervise::sweep(mark, pid);
}

/// Runs `argv` with stdin closed; kills its process group after `timeout`.
///
/// The answer is what the program printed until it exited: once it has, what it left running is
/// ended ([`end`]), the readers wait at most [`GRACE`] for the end of its pipes, then reading
/// stops, keeping what was read. A descendant that escaped the group (a daemon started with
/// `setsid` that inherited the pipes) can therefore neither discard the answer nor delay it.
pub fn run(argv: &[String], timeout: Duration) -> Result<Ended> {
    let (mut child, mark) = spawn(argv, Stdio::null())?;
    let pid = child.id();
    let out = child
        .stdout
        .take()
        .map(|s| Capture::start(s, Keep::Head(MAX_STDOUT)));
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
        if rx.recv_timeout(DRAIN).is_ok() {
            end(pid, &mark);
        }
        if let Some(o) = &out {
            o.finish(Duration::ZERO);
        }
        // default: no stderr pipe, no stderr text
        let stderr = err.map(|e| e.take(GRACE)).unwrap_or_default();
        return Ok(Ended::TimedOut { stderr });
    };
    // The program has exited: what it wrote is in the pipes, and its answer is complete. What
    // it left running is ended now — its group, and the descendants that left the group (on
    // Linux; elsewhere one of these still holding the pipes gets the grace period, then is no
    // longer listened to).
    end(pid, &mark);
    let deadline = Instant::now() + GRACE;
    let left = || deadline.saturating_duration_since(Instant::now());
    if let Some(o) = &out {
        o.wait_eof(left());
    }
    if let Some(e) = &err {
        e.0.wait_eof(left());
    }
    // default: no stdout pipe, no output
    let (stdout, truncated) = out.map(|o| o.finish(Duration::ZERO)).unwrap_or_default();
    // default: no stderr pipe, no stderr text
    let stderr = err.map(|e| e.take(Duration::ZERO)).unwrap_or_default();
    Ok(Ended::Finished(Finished {
        status,
        stdout,
        truncated,
        stderr,
    }))
}

/// A pipe read until its end or until told to stop, whichever comes first: a read that waits
/// for data wakes every `POLL` to look at the stop flag, so a pipe that a stray descendant
/// keeps open never holds a thread (nor the descriptor) for longer than that once stopped.
/// Told to stop, it still returns what is already waiting in the pipe (a bounded number of
/// reads), then reports the end.
pub struct Stoppable<R> {
    inner: R,
    stop: Arc<AtomicBool>,
    /// Reads left after the stop, for what was already waiting.
    left: u32,
}

/// How often a blocked read looks at its stop flag.
const POLL: Duration = Duration::from_millis(20);

/// Reads after a stop: 64 reads of 8 KiB cover a full pipe buffer (64 KiB) several times.
const READS_AFTER_STOP: u32 = 64;

impl<R> Stoppable<R> {
    /// `inner`, stopped by setting `stop`.
    pub fn new(inner: R, stop: Arc<AtomicBool>) -> Stoppable<R> {
        Stoppable {
            inner,
            stop,
            left: READS_AFTER_STOP,
        }
    }
}

#[cfg(unix)]
impl<R: Read + std::os::fd::AsFd> Read for Stoppable<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        loop {
            let stopped = self.stop.load(Ordering::Relaxed);
            if stopped && self.left == 0 {
                return Ok(0);
            }
            let wait = if stopped {
                PollTimeout::ZERO
            } else {
                // POLL is 20 ms, well inside PollTimeout's range.
                PollTimeout::from(POLL.as_millis() as u16)
            };
            let mut fds = [PollFd::new(self.inner.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, wait) {
                Ok(0) if stopped => return Ok(0),
                Ok(0) | Err(nix::errno::Errno::EINTR) => continue,
                Ok(_) => {
                    if stopped {
                        self.left -= 1;
                    }
                    return self.inner.read(buf);
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
}

/// Elsewhere the read blocks until data or the end; stopping takes effect between reads.
#[cfg(not(unix))]
impl<R: Read> Read for Stoppable<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Ok(0);
        }
        self.inner.read(buf)
    }
}

/// Which bytes a [`Capture`] keeps.
#[derive(Debug, Clone, Copy)]
enum Keep {
    /// The first n bytes (more is counted as truncation).
    Head(usize),
    /// The last n bytes.
    Tail(usize),
}

/// What a [`Capture`] has read so far.
#[derive(Debug, Default)]
struct Captured {
    bytes: Vec<u8>,
    truncated: bool,
}

/// A pipe read on a thread into a buffer that can be looked at any time ([`Capture::snapshot`]),
/// waited on for its end ([`Capture::wait_eof`]) and stopped ([`Capture::finish`]).
struct Capture {
    data: Arc<Mutex<Captured>>,
    stop: Arc<AtomicBool>,
    /// Receives one message when the reader thread ends.
    done: Mutex<Option<mpsc::Receiver<()>>>,
    ended: AtomicBool,
}

#[cfg(unix)]
trait Pipe: Read + std::os::fd::AsFd + Send + 'static {}
#[cfg(unix)]
impl<T: Read + std::os::fd::AsFd + Send + 'static> Pipe for T {}
#[cfg(not(unix))]
trait Pipe: Read + Send + 'static {}
#[cfg(not(unix))]
impl<T: Read + Send + 'static> Pipe for T {}

impl Capture {
    fn start(pipe: impl Pipe, keep: Keep) -> Capture {
        let data = Arc::new(Mutex::new(Captured::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let (d, mut r) = (Arc::clone(&data), Stoppable::new(pipe, Arc::clone(&stop)));
        thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            loop {
                match r.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => {
                        if let Ok(mut c) = d.lock() {
                            c.add(&chunk[..k], keep);
                        }
                    }
                }
            }
            let _ = tx.send(());
        });
        Capture {
            data,
            stop,
            done: Mutex::new(Some(rx)),
            ended: AtomicBool::new(false),
        }
    }

    /// Waits at most `wait` for the reader to reach the pipe's end; true when it did.
    fn wait_eof(&self, wait: Duration) -> bool {
        if self.ended.load(Ordering::Relaxed) {
            return true;
        }
        let Ok(mut d) = self.done.lock() else {
            return false;
        };
        let got = match d.as_ref() {
            Some(rx) => rx.recv_timeout(wait).is_ok(),
            None => true,
        };
        if got {
            *d = None;
            self.ended.store(true, Ordering::Relaxed);
        }
        got
    }

    /// Stops the reader (after what is already waiting in the pipe), waits at most `wait` for
    /// it, and returns what was kept.
    fn finish(&self, wait: Duration) -> (Vec<u8>, bool) {
        self.stop.store(true, Ordering::Relaxed);
        // A stopped reader ends within one poll period.
        self.wait_eof(wait + POLL * 2);
        self.snapshot()
    }

    fn snapshot(&self) -> (Vec<u8>, bool) {
        let kept = self.data.lock().map(|c| (c.bytes.clone(), c.truncated));
        // default: a poisoned buffer (its reader panicked) shows as empty
        kept.unwrap_or_default()
    }
}

impl Captured {
    fn add(&mut self, chunk: &[u8], keep: Keep) {
        match keep {
            Keep::Head(max) => {
                let room = max.saturating_sub(self.bytes.len());
                self.bytes
                    .extend_from_slice(&chunk[..chunk.len().min(room)]);
                self.truncated |= chunk.len() > room;
            }
            Keep::Tail(max) => {
                self.bytes.extend_from_slice(chunk);
                let excess = self.bytes.len().saturating_sub(max);
                self.truncated |= excess > 0;
                self.bytes.drain(..excess);
            }
        }
    }
}

/// The end of a program's standard error, filled by a thread while the program runs.
#[derive(Clone)]
pub struct StderrTail(Arc<Capture>);

impl StderrTail {
    /// What was kept so far, as text.
    pub fn snapshot(&self) -> String {
        String::from_utf8_lossy(&self.0.snapshot().0).into_owned()
    }

    /// Waits (at most `wait`) for the pipe to close, then stops reading it and returns what was
    /// kept.
    pub fn take(&self, wait: Duration) -> String {
        self.0.wait_eof(wait);
        String::from_utf8_lossy(&self.0.finish(Duration::ZERO).0).into_owned()
    }
}

/// Collects the last [`MAX_STDERR`] bytes of `r` on a thread.
pub fn stderr_tail(r: ChildStderr) -> StderrTail {
    StderrTail(Arc::new(Capture::start(r, Keep::Tail(MAX_STDERR))))
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
