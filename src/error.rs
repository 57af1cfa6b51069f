//! The one error type every public entry point returns.
//!
//! Every variant names where the problem is — a file, a line, a field — and what was expected, so
//! that the CLI can print it and exit with code 2 without a panic or a backtrace.
use std::path::{Path, PathBuf};

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
    /// flag); library code returns [`Error::Param`]. The option is shown as its flag
    /// (`--rel-tol`), however it was given ([`flag_form`]).
    #[error("option `{}`: {msg}", flag_form(.option))]
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
            option: flag_form(option),
            msg: msg.into(),
        }
    }
}

/// The one spelling of an option in messages: a long flag with its dashes (`rel-tol`,
/// `--rel-tol` → `--rel-tol`), so that a user can search the help for what a message names. A
/// positional argument (`<id>`, `DIR`) or a name that is no flag (an indexed parameter such as
/// `failures[3]`) is kept as given.
pub fn flag_form(option: &str) -> String {
    let bare = option.trim_start_matches('-');
    let is_flag = bare.starts_with(|c: char| c.is_ascii_lowercase())
        && bare
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if is_flag {
        format!("--{bare}")
    } else {
        option.to_string()
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

/// The most bytes any input file may hold (an instance, a scenario, a schedule, an SWF log or a
/// peer file; a `.gz` file once decompressed): 512 MiB, five times the largest real input
/// (an SWF log of a million jobs is about 100 MB) and well below the memory a run may use.
/// Stated in docs/reference/limits.md; `batch` bounds its per-request files more tightly.
pub const MAX_INPUT_BYTES: u64 = 512 << 20;

/// Reads a whole file, transparently gunzipping names ending in `.gz`, refusing one larger
/// than [`MAX_INPUT_BYTES`] (see [`read_text_limited`]).
pub fn read_text(path: &Path) -> Result<String> {
    read_text_limited(path, MAX_INPUT_BYTES)
}

/// The one reader of input files: reads `path` whole, gunzipping a name ending in `.gz`, and
/// refuses it (naming the file and the limit) as soon as it holds more than `limit` bytes (a
/// `.gz` file: compressed or decompressed), so that `/dev/zero` or a gzip bomb is refused after
/// reading `limit` bytes, never exhausting memory. Text that is not UTF-8 is refused naming its
/// line and column, and a gzip stream that breaks off (a truncated download) naming the line it
/// reached, so that a user knows where the file is damaged.
pub fn read_text_limited(path: &Path, limit: u64) -> Result<String> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut bytes = read_limited(path, file, limit, "")?;
    if path.extension().is_some_and(|e| e == "gz") {
        bytes = gunzip(path, bytes, limit)?;
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

/// At most `limit` bytes of `from`, or the error naming `path` and the limit (`what` says
/// which bytes: "" or " once decompressed").
fn read_limited(path: &Path, from: impl std::io::Read, limit: u64, what: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    from.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, limit, what));
    }
    Ok(bytes)
}

/// The error of an input file over `limit` bytes.
fn too_large(path: &Path, limit: u64, what: &str) -> Error {
    Error::Limit(format!(
        "{}: more than {limit} bytes{what}, the limit of an input file (docs/reference/limits.md)",
        path.display()
    ))
}

/// The decompressed bytes of a `.gz` file, at most `limit` of them (see [`read_text_limited`]
/// for the messages).
#[cfg(feature = "gzip")]
fn gunzip(path: &Path, bytes: Vec<u8>, limit: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    let read = flate2::read::MultiGzDecoder::new(&bytes[..])
        .take(limit.saturating_add(1))
        .read_to_end(&mut out);
    if let Err(e) = read {
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
    if out.len() as u64 > limit {
        return Err(too_large(path, limit, " once decompressed"));
    }
    Ok(out)
}

/// Without the `gzip` feature a `.gz` input is refused, named.
#[cfg(not(feature = "gzip"))]
fn gunzip(path: &Path, _bytes: Vec<u8>, _limit: u64) -> Result<Vec<u8>> {
    let msg = "reading gzip-compressed files needs resched built with the `gzip` feature";
    Err(Error::io(path, std::io::Error::other(msg)))
}

/// The name prefix of every temporary file or directory the output layer ([`write_atomic`])
/// creates beside an output: what [`remove_stale_temporaries`] looks for after a killed run.
pub const TEMP_PREFIX: &str = ".resched-tmp-";

/// Where an output goes, decided from what its path names now.
enum Target {
    /// A regular file, a new path, or a symbolic link to a regular file: the file (the link's
    /// final target for a link) is replaced atomically.
    Replace(PathBuf),
    /// Something that exists and is not a regular file (a character or block device such as
    /// `/dev/null`, `/dev/full` or a terminal, a FIFO, a socket, or a link to one such as
    /// `/dev/stdout`): opened and written where it is, never replaced.
    InPlace,
}

/// What `path` names, following symbolic links; a directory or a link to nothing is refused.
fn target(path: &Path) -> Result<Target> {
    let io = |e| Error::io(path, e);
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Target::Replace(path.to_path_buf()))
        }
        Err(e) => return Err(io(e)),
        Ok(m) => m,
    };
    let is_link = meta.file_type().is_symlink();
    let followed = if is_link {
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let msg = "a symbolic link to a file that does not exist: refusing to create \
                           the file it names";
                return Err(io(std::io::Error::other(msg)));
            }
            other => other.map_err(io)?,
        }
    } else {
        meta
    };
    if followed.is_dir() {
        return Err(io(std::io::Error::other("is a directory, not a file")));
    }
    if !followed.is_file() {
        return Ok(Target::InPlace);
    }
    if is_link {
        return Ok(Target::Replace(std::fs::canonicalize(path).map_err(io)?));
    }
    Ok(Target::Replace(path.to_path_buf()))
}

/// The directory a replaced file's temporary lives in: its own, so that the rename is atomic.
fn dir_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        // default: a bare file name lives in the current directory
        .unwrap_or(Path::new("."))
}

/// [`dir_of`] `real`, refused naming that directory when it does not exist: an output's
/// directory is never created (a file option, as a shell's redirection), and the user must
/// learn which part of the path is missing, not only the OS's "no such file".
fn existing_dir_of(real: &Path, shown: &Path) -> Result<PathBuf> {
    let dir = dir_of(real);
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let msg = format!(
                "No such file or directory: the directory {} does not exist (an output's \
                 directory is not created)",
                dir.display()
            );
            Err(Error::io(shown, std::io::Error::new(e.kind(), msg)))
        }
        _ => Ok(dir.to_path_buf()),
    }
}

/// Writes `contents` to the output `path`; the one function every command writes a file with.
///
/// * A regular file or a new path is written atomically: the bytes go to a temporary created
///   exclusively beside it (`O_CREAT | O_EXCL`, a random name starting with [`TEMP_PREFIX`], so
///   that a symbolic link planted under a predictable name cannot redirect the write), which is
///   then renamed over `path`. On every error the temporary is removed and `path` is untouched.
///   A replaced file keeps its permissions; a new one gets `0666` less the umask.
/// * A symbolic link to a regular file: the link's final target is replaced atomically (the
///   temporary is made in the target's directory); the link itself stays a link. A link to
///   nothing is refused (the write would create a file the user did not name).
/// * A path that exists and is not a regular file (a character or block device such as
///   `/dev/null` or `/dev/full`, a FIFO, a socket, or a link to one such as `/dev/stdout`) is
///   opened and written in place, never replaced; a write error there (`/dev/full`: no space
///   left on device) is an error naming `path`. A FIFO waits for its reader, as a shell's
///   redirection does.
/// * A directory is refused.
///
/// Errors name `path`, never the temporary.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    use std::io::Write;
    let io = |e| Error::io(path, e);
    match target(path)? {
        Target::InPlace => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io)?;
            f.write_all(contents).and_then(|()| f.flush()).map_err(io)
        }
        Target::Replace(real) => {
            let mut tmp = temp_builder()
                .tempfile_in(existing_dir_of(&real, path)?)
                .map_err(|e| io(plain(e)))?;
            tmp.write_all(contents)
                .and_then(|()| tmp.flush())
                .map_err(io)?;
            keep_permissions(&real, tmp.path(), path)?;
            // A failed rename drops the temporary, which removes it.
            tmp.persist(&real).map(drop).map_err(|e| io(e.error))
        }
    }
}

/// Checks, before any work, that [`write_atomic`] can write `path`, leaving nothing behind: a
/// file to replace needs its directory to accept a new temporary (one is created and removed);
/// a device is opened for writing and given an empty write (`probe_device`), so that one
/// that refuses every write (`/dev/full`) or that the user may not write is refused before a
/// long run rather than after it; a FIFO or socket is not probed (opening a FIFO would wait
/// for its reader); a directory or a link to nothing is refused as [`write_atomic`] refuses it.
pub fn check_output(path: &Path) -> Result<()> {
    match target(path)? {
        Target::InPlace => probe_device(path),
        Target::Replace(real) => temp_builder()
            .tempfile_in(existing_dir_of(&real, path)?)
            .map(drop)
            .map_err(|e| Error::io(path, plain(e))),
    }
}

/// Opens the device `path` for writing and writes zero bytes: a write of nothing changes
/// nothing on a device that accepts writes (`/dev/null`, a terminal, a disk), while a device
/// that refuses every write fails it as it would fail the real one (Linux's `/dev/full`
/// answers any write, even an empty one, with "no space left on device"), and a device the
/// user may not write fails the open. Anything that is not a device passes unprobed.
#[cfg(unix)]
fn probe_device(path: &Path) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::FileTypeExt;
    let io = |e| Error::io(path, e);
    let kind = std::fs::metadata(path).map_err(io)?.file_type();
    if !(kind.is_char_device() || kind.is_block_device()) {
        return Ok(());
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io)?;
    f.write(&[]).map(drop).map_err(io)
}

/// Elsewhere an in-place output is not probed.
#[cfg(not(unix))]
fn probe_device(_path: &Path) -> Result<()> {
    Ok(())
}

/// The output layer of [`write_atomic`] for a writer that makes the file itself from a path (an
/// image encoder): `write` fills a file inside a fresh private directory (mode `0700`, a random
/// name starting with [`TEMP_PREFIX`], so nobody else can plant anything in it), named `out`
/// followed by `suffix` for writers that choose the format by extension. The file then
/// replaces `path` as [`write_atomic`] says (renamed for a regular file or a new path, its bytes
/// copied in place for a device, FIFO or socket); the directory is removed on every path.
pub fn write_atomic_with(
    path: &Path,
    suffix: &str,
    write: impl FnOnce(&Path) -> Result<()>,
) -> Result<()> {
    let io = |e| Error::io(path, e);
    let place = target(path)?;
    let dir = match &place {
        Target::Replace(real) => existing_dir_of(real, path)?,
        Target::InPlace => std::env::temp_dir(),
    };
    let tmp = temp_builder().tempdir_in(dir).map_err(|e| io(plain(e)))?;
    let file = tmp.path().join(format!("out{suffix}"));
    write(&file)?;
    match place {
        Target::InPlace => {
            let bytes = std::fs::read(&file).map_err(io)?;
            write_atomic(path, &bytes)
        }
        Target::Replace(real) => {
            keep_permissions(&real, &file, path)?;
            std::fs::rename(&file, &real).map_err(io)
        }
    }
}

/// The operating system's error without the temporary's path that tempfile appends: errors
/// name the path the user gave.
fn plain(e: std::io::Error) -> std::io::Error {
    if let Some(code) = e.raw_os_error() {
        return std::io::Error::from_raw_os_error(code);
    }
    // tempfile wraps the OS error in one that appends its temporary's name (`… at path "…"`),
    // and does not expose the inner error: keep the message before that name.
    let text = e.to_string();
    match text.find(" at path \"") {
        Some(i) => std::io::Error::new(e.kind(), text[..i].to_string()),
        None => e,
    }
}

/// A builder of temporaries named [`TEMP_PREFIX`]… (files `0666` less the umask, directories
/// `0700`: tempfile's default).
fn temp_builder() -> tempfile::Builder<'static, 'static> {
    let mut b = tempfile::Builder::new();
    b.prefix(TEMP_PREFIX);
    b
}

/// Gives the temporary `tmp` the permissions of the file `real` it replaces, or `0666` less the
/// umask for a new file (a temporary is created `0600`).
fn keep_permissions(real: &Path, tmp: &Path, shown: &Path) -> Result<()> {
    let perms = match std::fs::metadata(real) {
        Ok(m) => m.permissions(),
        Err(_) => match new_file_permissions() {
            Some(p) => p,
            None => return Ok(()),
        },
    };
    std::fs::set_permissions(tmp, perms).map_err(|e| Error::io(shown, e))
}

/// `0666` less the process's umask, read without changing it (`/proc/self/status` on Linux;
/// `0644`, the usual umask's result, where it cannot be read).
#[cfg(unix)]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    let umask = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        });
    // default: without /proc the common umask 022 is assumed (a new output readable by all)
    let umask = umask.unwrap_or(0o022);
    Some(std::fs::Permissions::from_mode(0o666 & !umask))
}

/// Elsewhere a new file keeps the temporary's permissions.
#[cfg(not(unix))]
fn new_file_permissions() -> Option<std::fs::Permissions> {
    None
}

/// Removes the temporaries ([`TEMP_PREFIX`]…) that a killed run left in `dir` (not below it),
/// and those of the layer's earlier naming (`.NAME.tmp<pid>`, `.NAME.tmp<pid>.png`); returns
/// how many it removed. Only a resumed run calls it: a temporary belongs to a run still
/// writing when two runs share a directory.
pub fn remove_stale_temporaries(dir: &Path) -> Result<usize> {
    let entries = match std::fs::read_dir(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        other => other.map_err(|e| Error::io(dir, e))?,
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with(TEMP_PREFIX) || is_legacy_temporary(&name)) {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
        let gone = if kind.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        gone.map_err(|e| Error::io(&path, e))?;
        removed += 1;
    }
    Ok(removed)
}

/// [`remove_stale_temporaries`] in `dir` and in each of its sub-directories (one level, links
/// not followed: what a link names is not the run's): an output directory whose files sit in
/// folders of their own (`cells/`, plots, an export's witnesses). Returns how many it removed.
pub fn remove_stale_temporaries_below(dir: &Path) -> Result<usize> {
    let mut removed = remove_stale_temporaries(dir)?;
    let entries = match std::fs::read_dir(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(removed),
        other => other.map_err(|e| Error::io(dir, e))?,
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            removed += remove_stale_temporaries(&entry.path())?;
        }
    }
    Ok(removed)
}

/// `.NAME.tmp<digits>` or `.NAME.tmp<digits>.png`: the temporaries of the earlier layer.
fn is_legacy_temporary(name: &str) -> bool {
    // default: the `.png` suffix is optional
    let name = name.strip_suffix(".png").unwrap_or(name);
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    rest.rsplit_once(".tmp").is_some_and(|(base, pid)| {
        !base.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_regular_file_is_replaced_keeping_its_permissions_and_no_temporary() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.csv");
        write_atomic(&p, b"one").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert_eq!(names(d.path()), ["out.csv"]);
    }

    #[test]
    fn a_symlink_to_a_regular_file_stays_a_link_and_its_target_is_written() {
        let d = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let real = outside.path().join("real.csv");
        std::fs::write(&real, "old").unwrap();
        let link = d.path().join("link.csv");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert_eq!(names(d.path()), ["link.csv"]);
        assert_eq!(names(outside.path()), ["real.csv"]);
    }

    #[test]
    fn dev_null_is_written_in_place_and_stays_a_character_device() {
        write_atomic(Path::new("/dev/null"), b"x").unwrap();
        write_atomic_with(Path::new("/dev/null"), ".png", |p| {
            std::fs::write(p, b"png").map_err(|e| Error::io(p, e))
        })
        .unwrap();
        let t = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
        assert!(t.is_char_device());
    }

    #[test]
    fn dev_full_is_an_error_naming_it() {
        let e = write_atomic(Path::new("/dev/full"), b"x")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("/dev/full: No space left on device"), "{e}");
        assert!(std::fs::symlink_metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn a_device_that_refuses_writes_is_found_before_any_write() {
        let e = check_output(Path::new("/dev/full"))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "/dev/full: No space left on device (os error 28)");
        check_output(Path::new("/dev/null")).unwrap();
        assert!(std::fs::symlink_metadata("/dev/full")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn options_are_named_as_flags_and_positionals_as_given() {
        for (given, shown) in [
            ("rel-tol", "--rel-tol"),
            ("--eps", "--eps"),
            ("threads", "--threads"),
            ("-x", "--x"),
            ("<id>", "<id>"),
            ("DIR", "DIR"),
            ("failures[3]", "failures[3]"),
        ] {
            assert_eq!(flag_form(given), shown, "{given}");
            let e = Error::option(given, "bad").to_string();
            assert_eq!(e, format!("option `{shown}`: bad"));
        }
        let direct = Error::Option {
            option: "time-limit".into(),
            msg: "bad".into(),
        };
        assert_eq!(direct.to_string(), "option `--time-limit`: bad");
    }

    #[test]
    fn a_missing_directory_is_named_without_the_temporary() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("missing/out.csv");
        for e in [check_output(&p), write_atomic(&p, b"x")] {
            let e = e.unwrap_err().to_string();
            let dir = d.path().join("missing");
            let want = format!(
                "out.csv: No such file or directory: the directory {} does not exist",
                dir.display()
            );
            assert!(e.contains(&want), "{e}");
            assert!(!e.contains(TEMP_PREFIX), "{e}");
        }
    }

    #[test]
    fn a_dangling_link_and_a_directory_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let link = d.path().join("dangling");
        std::os::unix::fs::symlink(d.path().join("nothing"), &link).unwrap();
        let e = write_atomic(&link, b"x").unwrap_err().to_string();
        assert!(
            e.contains("a symbolic link to a file that does not exist"),
            "{e}"
        );
        let e = write_atomic(d.path(), b"x").unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        assert_eq!(names(d.path()), ["dangling"]);
    }

    #[test]
    fn a_failed_writer_leaves_no_temporary_and_the_old_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("fig.png");
        std::fs::write(&p, "old").unwrap();
        let e = write_atomic_with(&p, ".png", |tmp| {
            std::fs::write(tmp, "half").unwrap();
            Err(Error::Limit("encoder failed".into()))
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(names(d.path()), ["fig.png"]);
        write_atomic_with(&p, ".png", |tmp| {
            assert!(tmp.to_string_lossy().ends_with("out.png"));
            std::fs::write(tmp, "new").map_err(|e| Error::io(tmp, e))
        })
        .unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(names(d.path()), ["fig.png"]);
    }

    #[test]
    fn an_input_over_its_limit_is_refused_after_reading_the_limit() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("i.json");
        std::fs::write(&p, "0123456789").unwrap();
        assert_eq!(read_text_limited(&p, 10).unwrap(), "0123456789");
        let e = read_text_limited(&p, 9).unwrap_err().to_string();
        assert!(
            e.contains("i.json: more than 9 bytes, the limit of an input file"),
            "{e}"
        );
        let e = read_text_limited(Path::new("/dev/zero"), 1 << 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("/dev/zero: more than 1048576 bytes,"), "{e}");
    }

    #[cfg(feature = "gzip")]
    #[test]
    fn a_gzip_bomb_is_refused_once_decompressed_past_the_limit() {
        let d = tempfile::tempdir().unwrap();
        let gz = d.path().join("bomb.swf.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut enc, &[b'0'; 100_000]).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let e = read_text_limited(&gz, 50_000).unwrap_err().to_string();
        assert!(e.contains("more than 50000 bytes once decompressed"), "{e}");
        assert_eq!(read_text_limited(&gz, 100_000).unwrap().len(), 100_000);
    }

    #[test]
    fn stale_temporaries_are_removed_and_nothing_else() {
        let d = tempfile::tempdir().unwrap();
        let keep = [".hidden", "a.tmp1", ".x.tmpz", "summary.json"];
        for n in keep {
            std::fs::write(d.path().join(n), "").unwrap();
        }
        for n in [
            ".resched-tmp-abc",
            ".summary.json.tmp123",
            ".f.png.tmp9.png",
        ] {
            std::fs::write(d.path().join(n), "").unwrap();
        }
        std::fs::create_dir(d.path().join(".resched-tmp-dir")).unwrap();
        std::fs::write(d.path().join(".resched-tmp-dir/out.png"), "").unwrap();
        assert_eq!(remove_stale_temporaries(d.path()).unwrap(), 4);
        let mut want: Vec<String> = keep.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(names(d.path()), want);
        assert_eq!(remove_stale_temporaries(&d.path().join("none")).unwrap(), 0);
    }

    #[test]
    fn stale_temporaries_one_level_down_are_removed_and_links_not_followed() {
        let d = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join(".resched-tmp-theirs"), "").unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join("link")).unwrap();
        std::fs::create_dir_all(d.path().join("w0/deeper")).unwrap();
        for n in [
            ".resched-tmp-a",
            "w0/.resched-tmp-b",
            "w0/deeper/.resched-tmp-c",
        ] {
            std::fs::write(d.path().join(n), "").unwrap();
        }
        assert_eq!(remove_stale_temporaries_below(d.path()).unwrap(), 2);
        assert_eq!(names(&d.path().join("w0")), ["deeper"]);
        assert_eq!(names(&d.path().join("w0/deeper")), [".resched-tmp-c"]);
        assert_eq!(names(outside.path()), [".resched-tmp-theirs"]);
        let none = d.path().join("none");
        assert_eq!(remove_stale_temporaries_below(&none).unwrap(), 0);
    }
}
