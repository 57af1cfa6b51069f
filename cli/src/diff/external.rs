//! Asking the other implementation: one process per case (`--protocol template`) or one
//! long-running process spoken to in JSON Lines (`--protocol jsonl`). The protocols are
//! specified in the module doc of [`super`]; this file implements them.
//!
//! Every question has a time limit. What can go wrong on the other side is a [`Failure`] — a
//! result of the comparison, reported with the program's standard error — never an error of
//! resched: only a program that cannot be started at all, or a temporary file that cannot be
//! written, is an [`Error`] (bad usage, exit 2).
use super::answer::{self, Answer};
use super::process::{self, Ended, StderrTail, Stoppable};
use super::template::{Placeholder, Template};
use resched::error::{Error, Result};
use resched::model::{Instance, Scenario};
use resched::schedulers::Priority;
use resched::time::Time;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The version of the JSONL protocol (module doc of [`super`]) this build speaks: every request
/// says it (`"format_version": 1`), and a response that gives a newer one is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// One question: a case and the algorithm to run on it.
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    pub case: u64,
    pub instance: &'a Instance,
    pub scenario: &'a Scenario,
    /// The catalogue name passed as `{algo}` / `"algo"`.
    pub algo: &'a str,
    pub priority: Priority,
    /// The RANDOM priority's seed.
    pub seed: u64,
    /// ε in effect, for the algorithms that take one.
    pub eps: Option<&'a Time>,
}

/// Why the other implementation gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No answer within the time limit (the process group was killed).
    Timeout(Duration),
    /// A non-zero exit, a signal, or (JSONL) an exit before answering.
    Crash(String),
    /// Output that is not an answer (why, and the start of the output).
    Garbage { why: String, output: String },
    /// A JSONL `{"error": ...}` response.
    Refused(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout(d) => write!(f, "no answer within {} s (killed)", d.as_secs_f64()),
            Failure::Crash(s) => write!(f, "crashed: {s}"),
            Failure::Garbage { why, output } => {
                write!(f, "unparsable output: {why}; output: `{output}`")
            }
            Failure::Refused(m) => write!(f, "answered with an error: {m}"),
        }
    }
}

/// What came back for one question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub answer: std::result::Result<Answer, Failure>,
    /// The program's standard error (its end; in JSONL, of the whole session so far).
    pub stderr: String,
}

/// How resched talks to the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// One process per question; the template's placeholders name the case's files.
    Template,
    /// One process for the whole run, one JSON request and one response per line.
    Jsonl,
}

/// The other implementation.
pub struct External {
    pub template: Template,
    pub protocol: Protocol,
    pub timeout: Duration,
    dir: TempDir,
    session: Option<Session>,
    next_id: u64,
}

impl External {
    /// Checks the template against the protocol (JSONL takes no per-case placeholder) and makes
    /// the directory the case files go to.
    pub fn new(template: Template, protocol: Protocol, timeout: Duration) -> Result<External> {
        if protocol == Protocol::Jsonl {
            if let Some(h) = template.holes().first() {
                return Err(Error::param(
                    "template",
                    format!(
                        "`protocol` jsonl starts the command once, so it cannot take a per-case placeholder ({{{}}}); the requests carry the case",
                        h.name()
                    ),
                ));
            }
        }
        Ok(External {
            template,
            protocol,
            timeout,
            dir: TempDir::new()?,
            session: None,
            next_id: 0,
        })
    }

    /// Asks one question.
    pub fn ask(&mut self, q: &Query<'_>) -> Result<Reply> {
        match self.protocol {
            Protocol::Template => self.ask_template(q),
            Protocol::Jsonl => self.ask_jsonl(q),
        }
    }

    fn ask_template(&mut self, q: &Query<'_>) -> Result<Reply> {
        let ipath = self.dir.0.join("instance.json");
        let spath = self.dir.0.join("scenario.json");
        std::fs::write(&ipath, q.instance.to_json()).map_err(|e| Error::io(&ipath, e))?;
        std::fs::write(&spath, q.scenario.to_json()).map_err(|e| Error::io(&spath, e))?;
        let argv = self.template.render(&|h| match h {
            Placeholder::Instance => ipath.display().to_string(),
            Placeholder::Scenario => spath.display().to_string(),
            Placeholder::Algo => q.algo.to_string(),
            Placeholder::Priority => q.priority.name().to_string(),
            Placeholder::Seed => q.seed.to_string(),
            Placeholder::Eps => q.eps.map_or_else(|| "none".to_string(), Time::to_string),
            Placeholder::Case => q.case.to_string(),
        });
        let f = match process::run(&argv, self.timeout)? {
            Ended::TimedOut { stderr } => {
                return Ok(Reply {
                    answer: Err(Failure::Timeout(self.timeout)),
                    stderr,
                })
            }
            Ended::Finished(f) => f,
        };
        let text = String::from_utf8_lossy(&f.stdout);
        let answer = if !f.status.success() {
            let out = answer::quote(&text);
            Err(Failure::Crash(if out.is_empty() {
                process::describe(&f.status)
            } else {
                format!("{}; output: `{out}`", process::describe(&f.status))
            }))
        } else if f.truncated {
            Err(garbage(
                format!("more than {} bytes of output", process::MAX_STDOUT),
                &text,
            ))
        } else {
            answer::from_stdout(&text).map_err(|why| garbage(why, &text))
        };
        Ok(Reply {
            answer,
            stderr: f.stderr,
        })
    }

    fn ask_jsonl(&mut self, q: &Query<'_>) -> Result<Reply> {
        let id = self.next_id;
        self.next_id += 1;
        let mut session = match self.session.take() {
            Some(s) => s,
            None => Session::start(&self.template)?,
        };
        let (answer, keep) = session.exchange(id, q, self.timeout);
        let tail = session.stderr.clone();
        let stderr = if keep {
            self.session = Some(session);
            tail.snapshot()
        } else {
            // Closed and killed first, so that its last words are read before they are quoted.
            drop(session);
            tail.take(process::GRACE)
        };
        Ok(Reply { answer, stderr })
    }
}

fn garbage(why: String, output: &str) -> Failure {
    Failure::Garbage {
        why,
        output: answer::quote(output),
    }
}

/// A line read from a JSONL program.
enum Line {
    Text(String),
    TooLong,
    Eof,
}

/// A running JSONL program.
struct Session {
    child: Child,
    /// Its [`super::supervise::MARK`], for ending its descendants.
    mark: String,
    /// `None` once closed (in `drop`, so that the program sees the end of its input).
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// Stops the line reader (a descendant of the program may keep its output open).
    stop: Arc<AtomicBool>,
    stderr: StderrTail,
}

impl Session {
    fn start(template: &Template) -> Result<Session> {
        super::supervise::ignore_sigpipe();
        let argv = template.render(&|_| String::new());
        let (mut child, mark) = process::spawn(&argv, Stdio::piped())?;
        let (Some(stdin), Some(stdout), Some(err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            process::kill_group(child.id());
            let _ = child.wait();
            process::end(child.id(), &mark);
            return Err(Error::param(
                "template",
                "could not open the program's pipes",
            ));
        };
        let (tx, lines) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let reader = Stoppable::new(stdout, Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut r = BufReader::new(reader);
            loop {
                let line = read_line(&mut r);
                let end = !matches!(line, Line::Text(_));
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        Ok(Session {
            child,
            mark,
            stdin: Some(stdin),
            lines,
            stop,
            stderr: process::stderr_tail(err),
        })
    }

    /// Sends request `id` and waits for its response. The flag says whether the session is still
    /// usable (it is dropped — closed and killed — after a timeout, a crash or a protocol error).
    fn exchange(
        &mut self,
        id: u64,
        q: &Query<'_>,
        timeout: Duration,
    ) -> (std::result::Result<Answer, Failure>, bool) {
        let request = serde_json::json!({
            "format_version": PROTOCOL_VERSION,
            "id": id,
            "instance": q.instance.to_raw(),
            "scenario": q.scenario,
            "algo": q.algo,
            "priority": q.priority.name(),
            "seed": q.seed,
            "eps": q.eps,
        });
        let sent = match self.stdin.as_mut() {
            Some(w) => writeln!(w, "{request}").and_then(|()| w.flush()).is_ok(),
            None => false,
        };
        if !sent {
            return (
                Err(self.exited(&format!("before reading request {id}"))),
                false,
            );
        }
        let deadline = Instant::now() + timeout;
        // When the program was seen to have exited: its last lines are read for a short grace,
        // then it is reported, even if a descendant keeps its output open.
        let mut exited: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let mut left = deadline.saturating_duration_since(now);
            if let Some(t) = exited {
                left = left.min((t + process::GRACE).saturating_duration_since(now));
            }
            match self.lines.recv_timeout(left.min(WATCH)) {
                Ok(Line::Text(t)) if t.trim().is_empty() => continue,
                Ok(Line::Text(t)) => return response(&t, id),
                Ok(Line::TooLong) => {
                    let why = format!("a response line longer than {} bytes", process::MAX_STDOUT);
                    return (Err(garbage(why, "")), false);
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return (
                        Err(self.exited(&format!("before answering request {id}"))),
                        false,
                    )
                }
                Err(RecvTimeoutError::Timeout) => {
                    let now = Instant::now();
                    if exited.is_some_and(|t| now >= t + process::GRACE) {
                        return (
                            Err(self.exited(&format!("before answering request {id}"))),
                            false,
                        );
                    }
                    if now >= deadline {
                        return (Err(Failure::Timeout(timeout)), false);
                    }
                    if exited.is_none() && matches!(self.child.try_wait(), Ok(Some(_))) {
                        exited = Some(now);
                    }
                }
            }
        }
    }

    /// The crash report of a program that stopped reading or writing: with its exit status when
    /// it exits within a moment.
    fn exited(&mut self, when: &str) -> Failure {
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    return Failure::Crash(format!("{} {when}", process::describe(&status)))
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        Failure::Crash(format!("closed its output {when}"))
    }
}

impl Drop for Session {
    /// Closes the program's input (a well-behaved program exits at its end), waits a moment,
    /// then kills the process group and the descendants that left it in any case.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        process::kill_group(self.child.id());
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.child.wait();
        process::end(self.child.id(), &self.mark);
    }
}

/// How often a JSONL exchange that waits for its answer looks whether the program has exited.
const WATCH: Duration = Duration::from_millis(50);

/// Reads one line (without its `\n` or `\r\n`), at most [`process::MAX_STDOUT`] bytes.
fn read_line(r: &mut impl BufRead) -> Line {
    let mut line = Vec::new();
    loop {
        let (done, used) = match r.fill_buf() {
            Err(_) => return Line::Eof,
            Ok([]) if line.is_empty() => return Line::Eof,
            Ok([]) => (true, 0),
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    line.extend_from_slice(&buf[..i]);
                    (true, i + 1)
                }
                None => {
                    line.extend_from_slice(buf);
                    (false, buf.len())
                }
            },
        };
        r.consume(used);
        if line.len() > process::MAX_STDOUT {
            return Line::TooLong;
        }
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Line::Text(String::from_utf8_lossy(&line).into_owned());
        }
    }
}

/// Reads a response line to request `id` (module doc of [`super`]); the flag says whether the
/// session stays in step (an unreadable line or a wrong id ends it).
pub fn response(line: &str, id: u64) -> (std::result::Result<Answer, Failure>, bool) {
    let v: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return (
                Err(garbage(
                    format!("a response line that is not JSON: {e}"),
                    line,
                )),
                false,
            )
        }
    };
    let Some(o) = v.as_object() else {
        return (
            Err(garbage(
                "a response line that is not a JSON object".into(),
                line,
            )),
            false,
        );
    };
    if let Err(why) = answer::check_id(o, id) {
        return (Err(garbage(why, line)), false);
    }
    if let Some(v) = o.get("format_version") {
        let version = v
            .as_u64()
            // default: a version beyond u32 is newer than any this build reads, as u32::MAX is
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
            .ok_or_else(|| {
                format!("response field `format_version`: `{v}` is not a version number")
            })
            .and_then(|n| {
                resched::model::json::check_format_version(Some(n), PROTOCOL_VERSION)
                    .map_err(|e| format!("response field `{}`: {}", e.field, e.msg))
            });
        if let Err(why) = version {
            return (Err(garbage(why, line)), false);
        }
    }
    if let Some(e) = o.get("error") {
        let msg = e.as_str().map_or_else(|| e.to_string(), str::to_string);
        return (Err(Failure::Refused(msg)), true);
    }
    let mut rest = o.clone();
    rest.remove("id");
    rest.remove("format_version");
    (
        answer::from_object(&rest).map_err(|why| garbage(why, line)),
        true,
    )
}

/// A directory of our own under the system temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir> {
        let base = std::env::temp_dir();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            // default: a clock before 1970 only changes a temporary file's name
            .unwrap_or(0);
        let mut last = None;
        for k in 0..100u32 {
            let p = base.join(format!("resched-diff-{}-{nanos}-{k}", std::process::id()));
            match super::supervise::create_dir(&p) {
                Ok(()) => return Ok(TempDir(p)),
                Err(e) => last = Some((p, e)),
            }
        }
        match last {
            Some((p, e)) => Err(Error::io(&p, e)),
            None => Err(Error::Limit("no temporary directory".into())),
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        super::supervise::unregister_dir(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A response may say its protocol version: absent and 1 are read, a newer one is refused
    /// naming the field (and ends the session).
    #[test]
    fn responses_of_a_newer_protocol_are_refused() {
        for line in [
            r#"{"id": 3, "makespan": "7/2"}"#,
            r#"{"id": 3, "format_version": 1, "makespan": "7/2"}"#,
        ] {
            let (a, keep) = response(line, 3);
            let m = a.map(|a| a.makespan.map(|m| m.to_string()));
            assert_eq!((m, keep), (Ok(Some("7/2".to_string())), true), "{line}");
        }
        let (a, keep) = response(r#"{"id": 3, "format_version": 2, "makespan": 1}"#, 3);
        let why = "response field `format_version`: version 2 is newer than this resched reads \
                   (1); upgrade resched";
        assert!(
            matches!(&a, Err(Failure::Garbage { why: w, .. }) if w == why),
            "{a:?}"
        );
        assert!(!keep);
        let (a, _) = response(r#"{"id": 3, "format_version": "2", "makespan": 1}"#, 3);
        assert!(
            matches!(&a, Err(Failure::Garbage { why, .. }) if why.contains("not a version number")),
            "{a:?}"
        );
    }
}
