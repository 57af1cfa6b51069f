//! `batch`: many certify requests at once, as JSON Lines in and JSON Lines out.
//!
//! Each input line is one request — an instance (inline or a file), a failure scenario (inline
//! or a file), an algorithm name of the [`catalogue`](resched::oracle::catalogue) and its parameters — and
//! gets exactly one output line, in input order: the result of [`certify`] (engine → checker →
//! lower bound → ratio; DESIGN "An oracle for faster implementations") or an error line naming
//! the field that is wrong. A bad line never stops the others.
//!
//! [`respond`] answers one line (the library entry point: text in, [`Response`] out); [`run`]
//! streams a whole input through a rayon pool. Requests go to the workers in chunks of
//! consecutive lines (at most [`CHUNK_LINES`] lines and about [`CHUNK_BYTES`] bytes, and never
//! waiting for input: a chunk leaves as soon as the input read so far is used up), so that the
//! hand-off between threads costs once per chunk, not once per request. Chunks are computed in
//! parallel, at most [`WINDOW_PER_THREAD`] per worker ahead of the one being written, and
//! written in input order, so the output does not depend on the number of threads, and an
//! interactive client that writes one line and waits gets its answer at once.
//!
//! # Versions and provenance
//! A request may say `"format_version": 1` ([`PROTOCOL_VERSION`]; absent is 1); a newer one is
//! an error line naming the field. Every response line, result or error, ends with
//! `"format_version": 1` and `"resched": {"version", "commit", "dirty"}`, the build that
//! answered. Provenance on every line rather than once per run, because the protocol is one
//! answer line per request line and nothing else: a header line would break the pairing
//! clients rely on, and response lines are routinely filtered, split and concatenated across
//! runs (and builds), so each must say on its own which code computed it. The cost is about 100
//! bytes a line, small beside a response (300 bytes and more; a schedule much more), and the
//! value is made once per process.
//!
//! Budgets (each breach is an error line naming it): a line of at most [`MAX_LINE_BYTES`]; an
//! instance or scenario file of at most [`MAX_FILE_BYTES`] (after gunzipping); at most
//! [`MAX_ATTEMPTS`] attempts Σ(f_j + 1) per request; at most [`MAX_TABLE_ENTRIES`] speedup-table
//! entries (moldable jobs × P) per request.
use crate::provenance::{this_build, Provenance};
use resched::error::{Error, FieldError};
use resched::model::instance::RawInstance;
use resched::model::{Instance, Scenario, Schedule};
use resched::oracle::certify::{certify, AlgoSpec, Certified};
use resched::schedulers::Priority;
use resched::time::Time;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// The longest request line accepted, in bytes (16 MiB).
pub const MAX_LINE_BYTES: usize = 16 << 20;
/// The largest instance or scenario file a request may name, in bytes after gunzipping (16 MiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;
/// The most attempts Σ(f_j + 1) one request may ask for (the schedule is kept in memory).
pub const MAX_ATTEMPTS: u64 = 1_000_000;
/// The most speedup-table entries (moldable jobs × P) one request may build.
pub const MAX_TABLE_ENTRIES: u64 = 1 << 22;
/// Chunks in flight per worker thread, beyond the one being written (bounds the memory).
pub const WINDOW_PER_THREAD: usize = 4;
/// The most request lines handed to a worker at once.
pub const CHUNK_LINES: usize = 64;
/// A chunk leaves once its lines hold this many bytes (so a chunk of long lines is short).
pub const CHUNK_BYTES: usize = 64 << 10;
/// The newest version of the request/response protocol this build reads, and the one its
/// responses give.
pub const PROTOCOL_VERSION: u32 = 1;

/// What every request of a run shares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Add each request's whole schedule to its output line (`--schedules`).
    pub schedules: bool,
}

/// One request line, as written (module doc; docs/reference/protocol.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    #[serde(default)]
    instance: Option<RawInstance>,
    #[serde(default)]
    instance_file: Option<PathBuf>,
    #[serde(default)]
    scenario: Option<Scenario>,
    #[serde(default)]
    scenario_file: Option<PathBuf>,
    algo: String,
    #[serde(default)]
    priority: Option<String>,
    /// Read as the number's literal text (never through an f64), see [`seed_of`].
    #[serde(default)]
    seed: Option<serde_json::Number>,
    #[serde(default)]
    eps: Option<Time>,
    /// Echoed back as is (also on error lines, see [`request_error`]).
    #[serde(default)]
    id: Option<Value>,
    /// The protocol version the client speaks (absent: 1).
    #[serde(default, deserialize_with = "resched::model::json::opt_u32")]
    format_version: Option<u32>,
}

/// The answer to one request line.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Response {
    Done(Box<Done>),
    Failed(Failed),
}

/// A certified run. Exact values are strings (`"13/2"`, `"7"`) so that no reader rounds them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Done {
    /// 1-based line number in the input.
    pub line: usize,
    /// The request's `id`, or null.
    pub id: Value,
    /// The scheduler's display name (e.g. `R-LIST(m=1)/LPT`).
    pub algorithm: String,
    /// The catalogue's canonical name (e.g. `easy`).
    pub canonical: &'static str,
    pub makespan: String,
    pub makespan_decimal: String,
    pub bound: BoundOut,
    /// makespan / bound.lower, exact.
    pub ratio: String,
    pub ratio_decimal: String,
    /// Σ f_j.
    pub failures: u64,
    /// Number of attempts in the schedule.
    pub attempts: usize,
    /// The end of each job's successful attempt, in instance order.
    pub completions: Vec<Completion>,
    /// The checker's verdict on the schedule: always `feasible` (an engine schedule the checker
    /// rejects is an error line, never a result).
    pub check: &'static str,
    /// The whole schedule (with `--schedules`), in the format `resched verify` reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    /// [`PROTOCOL_VERSION`].
    pub format_version: u32,
    /// The build that answered (module doc: why on every line).
    pub resched: &'static Provenance,
}

/// The lower bound the ratio is taken against.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoundOut {
    /// `L(f)` (rigid paper Eqs. 5–6) or `L'(J,f)` (moldable paper Section 5.1).
    pub kind: &'static str,
    pub tmax: String,
    /// A(f), the total area (the bound is max(tmax, area / P)).
    pub area: String,
    pub lower: String,
}

/// One job's completion time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Completion {
    pub job: String,
    pub index: usize,
    pub time: String,
}

/// A request that could not be answered.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failed {
    pub line: usize,
    pub id: Value,
    /// What is wrong, naming the field (``field `instance.jobs[0].procs`: …``).
    pub error: String,
    /// [`PROTOCOL_VERSION`].
    pub format_version: u32,
    /// The build that answered (module doc: why on every line).
    pub resched: &'static Provenance,
}

impl Response {
    /// True for an error line.
    pub fn is_error(&self) -> bool {
        matches!(self, Response::Failed(_))
    }

    /// The output line (without its newline).
    pub fn to_json(&self) -> String {
        // unreachable: serializing a struct of strings and numbers cannot fail
        serde_json::to_string(self).unwrap_or_else(|e| {
            // Unreachable: every field serializes (strings, numbers, a schedule, a JSON value
            // that came from JSON); a line is still written so that the output keeps its order.
            let (line, id) = match self {
                Response::Done(d) => (d.line, &d.id),
                Response::Failed(f) => (f.line, &f.id),
            };
            serde_json::json!({
                "line": line,
                "id": id,
                "error": format!("internal error: {e}"),
                "format_version": PROTOCOL_VERSION,
                "resched": this_build(),
            })
            .to_string()
        })
    }
}

/// Answers request line number `line` (1-based), whose text is `text`.
pub fn respond(line: usize, text: &str, opts: &Options) -> Response {
    let req = match parse_request(text) {
        Ok(r) => r,
        Err((e, path)) => {
            let (id, error) = request_error(text, &e, path.as_deref());
            return failed(line, id, error);
        }
    };
    // default: a request without `id` echoes null
    let id = req.id.clone().unwrap_or(Value::Null);
    if let Err(e) = resched::model::json::check_format_version(req.format_version, PROTOCOL_VERSION)
    {
        return failed(line, id, format!("field `{}`: {}", e.field, e.msg));
    }
    match answer(req) {
        Ok(c) => Response::Done(Box::new(done(line, id, c, opts))),
        Err(e) => failed(line, id, e),
    }
}

fn failed(line: usize, id: Value, error: String) -> Response {
    Response::Failed(Failed {
        line,
        id,
        error,
        format_version: PROTOCOL_VERSION,
        resched: this_build(),
    })
}

/// One request line, with the path of the field where reading stopped (`instance.jobs[0].time`,
/// `seed`) so that an error names the field, as the file readers' errors do.
fn parse_request(text: &str) -> std::result::Result<Request, (serde_json::Error, Option<String>)> {
    let mut de = serde_json::Deserializer::from_str(text);
    let req: Request = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        (e.into_inner(), Some(path))
    })?;
    // Trailing characters after the object are malformed input too.
    de.end().map_err(|e| (e, None))?;
    Ok(req)
}

/// The id and the message of a line that is not a valid request. The line is read a second
/// time, as any JSON, only here: the id is echoed whenever the line is a JSON object.
fn request_error(text: &str, e: &serde_json::Error, path: Option<&str>) -> (Value, String) {
    match serde_json::from_str::<Value>(text) {
        Err(e) => (Value::Null, format!("malformed JSON: {e}")),
        Ok(v) => {
            // default: a request without `id` echoes null
            let id = v.get("id").cloned().unwrap_or(Value::Null);
            // A newer protocol's new fields broke the parse: its version is the clear message.
            if let Some(e) = resched::model::json::newer_format_version(text, PROTOCOL_VERSION) {
                return (id, format!("field `{}`: {}", e.field, e.msg));
            }
            if v.is_object() {
                match path.filter(|p| !p.is_empty() && *p != ".") {
                    Some(p) => (id, format!("request: field `{p}`: {e}")),
                    None => (id, format!("request: {e}")),
                }
            } else {
                (id, "expected a JSON object (one request per line)".into())
            }
        }
    }
}

/// Validates and certifies one request; the error is the message of its error line.
fn answer(req: Request) -> Result<(Certified, Instance, u64), String> {
    let inst = instance_of(&req)?;
    let sc = scenario_of(&req, &inst)?;
    let failures = sc.total_failures();
    let attempts = failures.saturating_add(inst.len() as u64);
    if attempts > MAX_ATTEMPTS {
        return Err(format!(
            "field `scenario.failures`: {attempts} attempts (Σ(f_j + 1)) is above the budget of \
             {MAX_ATTEMPTS} per request"
        ));
    }
    let priority = req
        .priority
        .as_deref()
        .map(str::parse::<Priority>)
        .transpose()
        .map_err(|e| describe(&e))?;
    let spec = AlgoSpec {
        name: req.algo.clone(),
        priority,
        seed: seed_of(req.seed.as_ref(), priority)?,
        eps: req.eps.clone(),
    };
    let c = certify(&spec, &inst, &sc).map_err(|e| describe(&e))?;
    Ok((c, inst, failures))
}

/// The seed of the RANDOM priority, read exactly from the number as written (a seed of 2^64 is
/// named as written, not as a rounded float), and refused with any other rule, as the command
/// line's `--seed` is: a seed that nothing reads must not be silently ignored.
fn seed_of(seed: Option<&serde_json::Number>, priority: Option<Priority>) -> Result<u64, String> {
    let Some(n) = seed else {
        // default: seed 0 of the RANDOM priority (documented)
        return Ok(0);
    };
    let text = n.to_string();
    let value = text.parse::<u64>().map_err(|_| {
        format!("field `seed`: `{text}` is not an integer from 0 to 18446744073709551615")
    })?;
    // default: LPT is the documented default priority
    let rule = priority.unwrap_or(Priority::Lpt);
    if rule != Priority::Random {
        return Err(format!(
            "field `seed`: only the RANDOM priority reads a seed, and the rule here is {rule}"
        ));
    }
    Ok(value)
}

/// The instance of a request: inline (`instance`) or from a file (`instance_file`).
fn instance_of(req: &Request) -> Result<Instance, String> {
    match (&req.instance, &req.instance_file) {
        (Some(raw), None) => build_instance(raw.clone())
            .map_err(|e| format!("field `instance.{}`: {}", e.field, e.msg)),
        (None, Some(path)) => {
            let file = path.display().to_string();
            let text = read_bounded(path).map_err(|e| format!("instance_file: {e}"))?;
            let raw = RawInstance::from_json_str(&text, &file)
                .map_err(|e| format!("instance_file: {e}"))?;
            build_instance(raw).map_err(|e| format!("instance_file: {}", e.in_file(&file)))
        }
        (Some(_), Some(_)) => Err("give `instance` or `instance_file`, not both".into()),
        (None, None) => Err("missing field `instance` (or `instance_file`)".into()),
    }
}

/// Validates an instance after checking its speedup tables fit [`MAX_TABLE_ENTRIES`] (they are
/// built P entries per moldable job before anything else could refuse them).
fn build_instance(raw: RawInstance) -> Result<Instance, FieldError> {
    let moldable = raw.jobs.iter().filter(|j| j.speedup.is_some()).count() as u64;
    let entries = moldable.saturating_mul(u64::from(raw.processors));
    if entries > MAX_TABLE_ENTRIES {
        return Err(FieldError::new(
            "jobs",
            format!(
                "{moldable} moldable jobs × P = {} is {entries} speedup-table entries, above the \
                 budget of {MAX_TABLE_ENTRIES} per request",
                raw.processors
            ),
        ));
    }
    Instance::from_raw(raw)
}

/// The scenario of a request: inline (`scenario`) or from a file (`scenario_file`).
fn scenario_of(req: &Request, inst: &Instance) -> Result<Scenario, String> {
    match (&req.scenario, &req.scenario_file) {
        (Some(sc), None) => {
            sc.validate(inst)
                .map_err(|e| format!("field `scenario.{}`: {}", e.field, e.msg))?;
            Ok(sc.clone())
        }
        (None, Some(path)) => {
            let text = read_bounded(path).map_err(|e| format!("scenario_file: {e}"))?;
            Scenario::from_json_str(&text, &path.display().to_string(), inst)
                .map_err(|e| format!("scenario_file: {e}"))
        }
        (Some(_), Some(_)) => Err("give `scenario` or `scenario_file`, not both".into()),
        (None, None) => Err("missing field `scenario` (or `scenario_file`)".into()),
    }
}

/// Reads a (possibly gzipped) file of at most [`MAX_FILE_BYTES`] bytes once decompressed, by
/// the core's one capped reader.
fn read_bounded(path: &Path) -> Result<String, String> {
    resched::error::read_text_limited(path, MAX_FILE_BYTES).map_err(|e| e.to_string())
}

/// An error as its line says it: parameters of the catalogue (`algo`, `eps`, `priority`) are
/// the request's fields of the same names.
fn describe(e: &Error) -> String {
    match e {
        Error::Param { name, msg } => format!("field `{name}`: {msg}"),
        other => other.to_string(),
    }
}

/// The output of a certified request.
fn done(
    line: usize,
    id: Value,
    (c, inst, failures): (Certified, Instance, u64),
    opts: &Options,
) -> Done {
    let completions = inst
        .jobs
        .iter()
        .zip(&c.completions)
        .enumerate()
        .map(|(index, (j, t))| Completion {
            job: j.name.clone(),
            index,
            time: t.to_string(),
        })
        .collect();
    Done {
        line,
        id,
        algorithm: c.algorithm,
        canonical: c.canonical,
        makespan: c.makespan.to_string(),
        makespan_decimal: c.makespan.to_decimal_string(6),
        bound: BoundOut {
            kind: c.bound.symbol(),
            tmax: c.bound.tmax.to_string(),
            area: c.bound.area.to_string(),
            lower: c.bound.lower.to_string(),
        },
        ratio: c.ratio.to_string(),
        ratio_decimal: c.ratio.to_decimal_string(6),
        failures,
        attempts: c.schedule.attempts.len(),
        completions,
        check: "feasible",
        schedule: opts.schedules.then_some(c.schedule),
        format_version: PROTOCOL_VERSION,
        resched: this_build(),
    }
}

/// What a whole run answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Output lines written (one per non-blank input line).
    pub requests: usize,
    /// Of which error lines.
    pub errors: usize,
}

/// One input line, bounded (see [`next_line_drained`]).
enum Line {
    Text(String),
    TooLong,
    NotUtf8,
}

/// Reads one line (without its `\n` or `\r\n`) of at most `max` bytes; a longer line is read to
/// its end and dropped, so that memory stays bounded. `None` at the end of the input.
#[cfg(test)]
fn next_line(r: &mut impl BufRead, max: usize) -> std::io::Result<Option<Line>> {
    Ok(next_line_drained(r, max)?.map(|(l, _)| l))
}

/// Reads one line (without its `\n` or `\r\n`) of at most `max` bytes, and says whether it used
/// up what the input had read (so that reading the next line may wait for the client); a longer
/// line is read to its end and dropped, so that memory stays bounded. `None` at the end of the
/// input.
fn next_line_drained(r: &mut impl BufRead, max: usize) -> std::io::Result<Option<(Line, bool)>> {
    let mut buf = Vec::new();
    let (mut any, mut over, mut drained) = (false, false, false);
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            break;
        }
        any = true;
        let newline = avail.iter().position(|&b| b == b'\n');
        // default: the last line of the input may have no newline
        let part = &avail[..newline.unwrap_or(avail.len())];
        if !over && buf.len() + part.len() > max {
            over = true;
            buf = Vec::new();
        }
        if !over {
            buf.extend_from_slice(part);
        } else if part.contains(&0) {
            // An over-long line is skipped to its newline; a NUL byte (never in JSON text)
            // means a stream such as /dev/zero that has none, which would be read forever.
            let msg = "a NUL byte in a line over the budget: the input is not JSON Lines text";
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, msg));
        }
        let used = part.len() + usize::from(newline.is_some());
        drained = used == avail.len();
        r.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if over {
        return Ok(Some((Line::TooLong, drained)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    let line = match String::from_utf8(buf) {
        Ok(s) => Line::Text(s),
        Err(_) => Line::NotUtf8,
    };
    Ok(Some((line, drained)))
}

/// The answer to an input line that never reaches [`respond`] or that [`respond`] panics on.
fn respond_line(line: usize, l: Line, opts: &Options) -> Response {
    match l {
        Line::Text(text) => {
            let r = std::panic::catch_unwind(|| respond(line, &text, opts));
            // default: a panic in one request becomes that request's error line (the others go on)
            r.unwrap_or_else(|_| {
                failed(
                    line,
                    Value::Null,
                    "internal error: this request made resched panic (a bug; please report it)"
                        .into(),
                )
            })
        }
        Line::TooLong => failed(
            line,
            Value::Null,
            format!("the line is longer than the budget of {MAX_LINE_BYTES} bytes"),
        ),
        Line::NotUtf8 => failed(line, Value::Null, "the line is not UTF-8 text".into()),
    }
}

/// Answers every non-blank line of `input` on `out`, one JSON line each, in input order, the
/// requests computed on `pool`. Errors are I/O errors of `input` or `out` (the run stops); a bad
/// request is an error line, counted in the [`Summary`].
pub fn run<R: BufRead, W: Write + Send>(
    mut input: R,
    out: W,
    opts: &Options,
    pool: &rayon::ThreadPool,
) -> resched::Result<Summary> {
    let window = WINDOW_PER_THREAD * pool.current_num_threads().max(1);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Answers)>();
    // Permits: the reader takes one per chunk, the writer gives it back once that chunk's lines
    // are written; so at most `window` chunks are read and not yet written.
    let (permit_tx, permit_rx) = mpsc::sync_channel::<()>(window);
    for _ in 0..window {
        let _ = permit_tx.send(());
    }
    std::thread::scope(|s| {
        let writer = s.spawn(move || write_in_order(done_rx, permit_tx, out));
        let read = read_requests(&mut input, &permit_rx, done_tx, opts, pool);
        drop(permit_rx);
        let written = writer
            .join()
            .map_err(|_| Error::Limit("batch: the output thread panicked".into()))?;
        let summary = written?;
        read?;
        Ok(summary)
    })
}

/// A chunk's response lines, in input order, each with whether it is an error line.
type Answers = Vec<(bool, String)>;

/// Reads the requests and hands them to the pool in chunks, numbered in input order.
fn read_requests<R: BufRead>(
    input: &mut R,
    permits: &mpsc::Receiver<()>,
    done: mpsc::Sender<(usize, Answers)>,
    opts: &Options,
    pool: &rayon::ThreadPool,
) -> resched::Result<()> {
    let mut line_no = 0usize;
    let mut seq = 0usize;
    let mut chunk: Vec<(usize, Line)> = Vec::new();
    let mut bytes = 0usize;
    loop {
        let l = next_line_drained(input, MAX_LINE_BYTES)
            .map_err(|e| Error::io(Path::new("input"), e))?;
        let end = l.is_none();
        let (l, drained) = match l {
            Some((l, drained)) => (Some(l), drained),
            None => (None, true),
        };
        if let Some(l) = l {
            line_no += 1;
            match &l {
                Line::Text(t) if t.trim().is_empty() => {}
                Line::Text(t) => {
                    bytes += t.len();
                    chunk.push((line_no, l));
                }
                _ => chunk.push((line_no, l)),
            }
        }
        let full = chunk.len() >= CHUNK_LINES || bytes >= CHUNK_BYTES;
        if !chunk.is_empty() && (full || drained) {
            if permits.recv().is_err() {
                // The writer stopped (an output error): it reports why.
                return Ok(());
            }
            let (tx, opts, k) = (done.clone(), opts.clone(), seq);
            let lines = std::mem::take(&mut chunk);
            bytes = 0;
            pool.spawn(move || {
                let answers = lines
                    .into_iter()
                    .map(|(n, l)| {
                        let r = respond_line(n, l, &opts);
                        (r.is_error(), r.to_json())
                    })
                    .collect();
                let _ = tx.send((k, answers));
            });
            seq += 1;
        }
        if end {
            return Ok(());
        }
    }
}

/// Writes the answers in input order as their chunks arrive, flushing whenever none is
/// waiting.
fn write_in_order<W: Write>(
    done: mpsc::Receiver<(usize, Answers)>,
    permits: mpsc::SyncSender<()>,
    mut out: W,
) -> resched::Result<Summary> {
    // The program's writer is its standard output: a full device or a closed pipe is the
    // typed error every command gives for it.
    let io = Error::Stdout;
    let mut waiting = BTreeMap::new();
    let mut summary = Summary::default();
    let mut next = 0usize;
    loop {
        let (k, answers) = match done.try_recv() {
            Ok(m) => m,
            Err(mpsc::TryRecvError::Empty) => {
                out.flush().map_err(io)?;
                match done.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                }
            }
            Err(mpsc::TryRecvError::Disconnected) => break,
        };
        waiting.insert(k, answers);
        while let Some(answers) = waiting.remove(&next) {
            for (is_error, text) in answers {
                writeln!(out, "{text}").map_err(io)?;
                summary.requests += 1;
                summary.errors += usize::from(is_error);
            }
            next += 1;
            let _ = permits.send(());
        }
    }
    debug_assert!(waiting.is_empty(), "every request is answered");
    out.flush().map_err(io)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunking changes nothing a client sees: 300 lines (requests, bad lines, blank lines, one
    /// over the line budget's cousin: not JSON) give, whatever the threads and however the input
    /// is cut by its reads (3-byte or 64 KiB buffers: chunks of one line or of
    /// [`CHUNK_LINES`]), the lines [`respond`] gives one by one, in input order.
    #[test]
    fn chunks_keep_the_answers_and_their_order() {
        let inst = r#"{"processors": 4, "jobs": [{"name": "A", "procs": 2, "time": 3}, {"name": "B", "procs": 3, "time": "5/2"}]}"#;
        let mut input = String::new();
        let mut want = String::new();
        let opts = Options::default();
        let mut line_no = 0;
        for k in 0..300 {
            let line = match k % 7 {
                0 => String::new(),
                1 => "{not json".to_string(),
                _ => format!(
                    r#"{{"id": {k}, "instance": {inst}, "scenario": {{"failures": [{}, {}]}}, "algo": "greedy"}}"#,
                    k % 3,
                    k % 2
                ),
            };
            line_no += 1;
            input.push_str(&line);
            input.push('\n');
            if !line.trim().is_empty() {
                want.push_str(&respond(line_no, &line, &opts).to_json());
                want.push('\n');
            }
        }
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap_or_else(|e| panic!("{e}"));
            for cap in [3, 64 << 10] {
                let mut out = Vec::new();
                let r = std::io::BufReader::with_capacity(cap, input.as_bytes());
                let summary = run(r, &mut out, &opts, &pool).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    String::from_utf8_lossy(&out),
                    want,
                    "{threads} threads, {cap}"
                );
                assert_eq!(summary.requests, 257, "{threads} threads, {cap}");
                assert_eq!(summary.errors, 43, "{threads} threads, {cap}");
            }
        }
    }

    #[test]
    fn long_lines_are_dropped_and_counted() {
        let text = format!("a\n{}\r\nb", "x".repeat(10));
        let mut r = std::io::BufReader::with_capacity(3, text.as_bytes());
        let mut got = Vec::new();
        while let Some(l) = next_line(&mut r, 5).unwrap_or(None) {
            got.push(match l {
                Line::Text(t) => t,
                Line::TooLong => "<long>".into(),
                Line::NotUtf8 => "<bytes>".into(),
            });
        }
        assert_eq!(got, ["a", "<long>", "b"]);
    }
}
