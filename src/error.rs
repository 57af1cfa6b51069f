//! The one error type every public entry point returns.
//!
//! Every variant names where the problem is — a file, a line, a field — and what was expected, so
//! that the CLI can print it and exit with code 2 without a panic or a backtrace.
use std::path::Path;

/// Result alias of the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in resched, by where it happened.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Malformed JSON, with the position serde reported.
    #[error("{file}:{line}:{column}: {msg}")]
    Json {
        file: String,
        line: usize,
        column: usize,
        msg: String,
    },
    /// Well-formed input whose value breaks a rule; `field` is a path such as `jobs[3].procs`.
    #[error("{file}: field `{field}`: {msg}")]
    Invalid {
        file: String,
        field: String,
        msg: String,
    },
    /// A problem on one line of a text format (SWF, peer files).
    #[error("{file}:{line}: {msg}")]
    Line {
        file: String,
        line: usize,
        msg: String,
    },
    /// A parameter of a library call with a value it cannot take: `name` is the parameter as
    /// the API calls it (a function argument or struct field such as `eps`, `procs`,
    /// `max_wall`, `failures[3]`), never a command-line flag. Messages write other parameters
    /// the same way, in backticks (`` raise `max_events` ``), so that the `resched` program can
    /// name its flags instead.
    #[error("parameter `{name}`: {msg}")]
    Param { name: String, msg: String },
    /// A command-line option of the `resched` program with a value it cannot take. Only the
    /// program makes it (from its own checks, and from an [`Error::Param`] it names by its
    /// flag); library code returns [`Error::Param`].
    #[error("option `{option}`: {msg}")]
    Option { option: String, msg: String },
    /// A scheduler asked the engine for something impossible (a bug in that scheduler).
    #[error("scheduler {algo} broke the engine's rules at time {time}: {msg}")]
    Scheduler {
        algo: String,
        time: String,
        msg: String,
    },
    /// A schedule broke an invariant (see [`crate::check`]).
    #[error("infeasible schedule: {0}")]
    Check(#[from] crate::violation::Violation),
    /// The engine and the checker disagree on a run (the oracle's certify path): a bug in a
    /// scheduler or in the engine, never a result.
    #[error("internal error: {algo}: the engine and the checker disagree: {detail}")]
    Disagree { algo: String, detail: String },
    /// A method was asked for something beyond its stated limits.
    #[error("limit exceeded: {0}")]
    Limit(String),
    /// A solver backend failed or is not compiled in.
    #[error("solver: {0}")]
    Solver(String),
    /// The program's standard output could not be written (a full device, a closed pipe):
    /// the report is lost, so this is an error, never a success.
    #[error("cannot write to standard output: {0}")]
    Stdout(#[source] std::io::Error),
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }

    /// A serde_json error in `file`.
    pub fn json(file: &str, e: &serde_json::Error) -> Error {
        Error::Json {
            file: file.to_string(),
            line: e.line(),
            column: e.column(),
            msg: e.to_string(),
        }
    }

    /// A field-level validation error in `file`.
    pub fn invalid(file: &str, field: impl Into<String>, msg: impl Into<String>) -> Error {
        Error::Invalid {
            file: file.to_string(),
            field: field.into(),
            msg: msg.into(),
        }
    }

    /// A line-level error in `file`.
    pub fn line(file: &str, line: usize, msg: impl Into<String>) -> Error {
        Error::Line {
            file: file.to_string(),
            line,
            msg: msg.into(),
        }
    }

    /// A bad parameter `name` of a library call (see [`Error::Param`]).
    pub fn param(name: &str, msg: impl Into<String>) -> Error {
        Error::Param {
            name: name.to_string(),
            msg: msg.into(),
        }
    }

    /// A bad command-line option (the `resched` program only; library code uses
    /// [`Error::param`]).
    pub fn option(option: &str, msg: impl Into<String>) -> Error {
        Error::Option {
            option: option.to_string(),
            msg: msg.into(),
        }
    }
}

/// A validation failure before it is attached to a file: the field path and the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field `{field}`: {msg}")]
pub struct FieldError {
    pub field: String,
    pub msg: String,
}

impl FieldError {
    /// A failure of `field`.
    pub fn new(field: impl Into<String>, msg: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            msg: msg.into(),
        }
    }

    /// Attaches the file name.
    pub fn in_file(self, file: &str) -> Error {
        Error::Invalid {
            file: file.to_string(),
            field: self.field,
            msg: self.msg,
        }
    }
}

/// Reads a whole file, transparently gunzipping names ending in `.gz`. Text that is not UTF-8
/// is refused naming its line and column, and a gzip stream that breaks off (a truncated
/// download) naming the line it reached, so that a user knows where the file is damaged.
pub fn read_text(path: &Path) -> Result<String> {
    let mut bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    if path.extension().is_some_and(|e| e == "gz") {
        bytes = gunzip(path, bytes)?;
    }
    String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..bad];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count();
        let byte = e.as_bytes().get(bad).map(|b| format!(" (byte 0x{b:02x})"));
        // default: an input cut inside a character has no offending byte to show
        let byte = byte.unwrap_or_default();
        let msg = format!("column {column}: not UTF-8 text{byte}");
        Error::line(&path.display().to_string(), line, msg)
    })
}

/// The decompressed bytes of a `.gz` file (see [`read_text`] for the messages).
#[cfg(feature = "gzip")]
fn gunzip(path: &Path, bytes: Vec<u8>) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    if let Err(e) = flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out) {
        if !bytes.starts_with(&[0x1f, 0x8b]) {
            let msg = "not a gzip file (no gzip signature) although its name ends in .gz";
            return Err(Error::io(path, std::io::Error::other(msg)));
        }
        if out.is_empty() {
            let msg = format!("corrupt gzip stream: {e}");
            return Err(Error::io(path, std::io::Error::other(msg)));
        }
        let line = 1 + out.iter().filter(|&&b| b == b'\n').count();
        let msg = format!("the gzip stream breaks off here ({e}): truncated or corrupt file");
        return Err(Error::line(&path.display().to_string(), line, msg));
    }
    Ok(out)
}

/// Without the `gzip` feature a `.gz` input is refused, named.
#[cfg(not(feature = "gzip"))]
fn gunzip(path: &Path, _bytes: Vec<u8>) -> Result<Vec<u8>> {
    let msg = "reading gzip-compressed files needs resched built with the `gzip` feature";
    Err(Error::io(path, std::io::Error::other(msg)))
}

/// Writes a file atomically: to a temporary sibling, then renamed, so nothing half-written is left.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    // A failure names the path the user gave, not the temporary sibling.
    write_atomic_with(path, "", |tmp| {
        std::fs::write(tmp, contents).map_err(|e| Error::io(path, e))
    })
}

/// The atomic write of [`write_atomic`] for a writer that makes the file itself (an image
/// encoder): `write` fills a temporary sibling (its name ends in `suffix`, for writers that
/// choose the format by extension), which is then renamed over `path`; on any failure the
/// temporary file is removed.
pub fn write_atomic_with(
    path: &Path,
    suffix: &str,
    write: impl FnOnce(&Path) -> Result<()>,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        // default: a bare file name lives in the current directory
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        // default: a path with no file name (e.g. `..`) gets the temporary name `out`
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.tmp{}{suffix}", std::process::id()));
    let written =
        write(&tmp).and_then(|()| std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e)));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
