//! Arguments several subcommands share (`simulate`, `verify`, `batch`, peer mode): the
//! priority rule, BATCH-LIST's ε, the worker pool and the RANDOM priority's seed.
use resched::error::{Error, Result};
use resched::schedulers::Priority;
use resched::time::Time;

/// `--priority`, if given.
pub(crate) fn parse_priority(s: Option<&str>) -> Result<Option<Priority>> {
    s.map(str::parse::<Priority>).transpose()
}

/// `--eps`, exact (its range is the catalogue's to check: ε only for BATCH-LIST, and > 0).
pub(crate) fn parse_eps(s: Option<&str>) -> Result<Option<Time>> {
    s.map(|e| {
        e.parse::<Time>()
            .map_err(|err| Error::option("--eps", format!("`{e}`: {err}")))
    })
    .transpose()
}

/// The most worker threads any command starts (`--threads` of `batch`, `simulate`'s peer modes,
/// `experiment`, `merge` and `opt`, and the `RAYON_NUM_THREADS` environment variable): more
/// than the largest single machine's hardware threads (a two-socket server has a few hundred),
/// so that no real use is refused, while a typo such as `--threads 1000000000` is refused at
/// once instead of spawning threads until the machine stalls. Stated in
/// docs/reference/limits.md.
pub const MAX_THREADS: usize = 1024;

/// A `--threads` value checked against [`MAX_THREADS`]; 0 is an error, not "all cores".
pub fn check_threads(threads: Option<usize>) -> Result<Option<usize>> {
    match threads {
        Some(0) => Err(Error::option(
            "threads",
            "must be at least 1 (leave it out for one thread per core)",
        )),
        Some(n) if n > MAX_THREADS => Err(Error::option(
            "threads",
            format!("{n} is above the limit of {MAX_THREADS} threads (more threads than cores only slow a run down)"),
        )),
        t => Ok(t),
    }
}

/// The environment variables through which rayon sizes a pool left to its default.
const RAYON_VARS: [&str; 2] = ["RAYON_NUM_THREADS", "RAYON_RS_NUM_CPUS"];

/// Refuses a `RAYON_NUM_THREADS` (or its older spelling `RAYON_RS_NUM_CPUS`) that is not an
/// integer in `0..=`[`MAX_THREADS`] (0 is rayon's "one per core"), before any pool is built:
/// rayon would spawn any number it is given, and silently ignore text that is not a number.
pub fn check_thread_env() -> Result<()> {
    for var in RAYON_VARS {
        let Some(raw) = std::env::var_os(var) else {
            continue;
        };
        let text = raw.to_string_lossy();
        let refuse = |why: String| {
            Err(Error::Limit(format!(
                "environment variable `{var}`: `{text}` {why}"
            )))
        };
        match text.trim().parse::<u64>() {
            Ok(n) if n <= MAX_THREADS as u64 => {}
            Ok(_) => {
                return refuse(format!(
                    "is above the limit of {MAX_THREADS} threads (unset it for one thread per core)"
                ))
            }
            Err(_) => {
                return refuse(format!(
                "is not a thread count: expected an integer from 0 (one per core) to {MAX_THREADS}"
            ))
            }
        }
    }
    Ok(())
}

/// A pool of `threads` workers (`None`: one per core), checked by [`check_threads`].
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let threads = check_threads(threads)?;
    rayon::ThreadPoolBuilder::new()
        // default: 0 threads tells rayon one per core (--threads absent; 0 given is refused above)
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::option("threads", e.to_string()))
}

/// The seed of the RANDOM priority: `--seed` applies to it alone, so a seed given with another
/// rule (LPT by default) is refused rather than silently ignored.
pub(crate) fn seed_for(seed: Option<u64>, priority: Option<Priority>) -> Result<u64> {
    // default: LPT is the documented default priority
    let rule = priority.unwrap_or(Priority::Lpt);
    match seed {
        Some(_) if rule != Priority::Random => Err(Error::option(
            "--seed",
            format!("only the RANDOM priority reads a seed, and the rule here is {rule}"),
        )),
        // default: seed 0 of the RANDOM priority (documented)
        s => Ok(s.unwrap_or(0)),
    }
}

/// Refuses two output options of one command that name the same file (and an output that
/// names one of the command's input files), before any work: one write would replace the
/// other's file. `paths` holds each option's flag and path. Two names of one file are found
/// through links and `..` (the same device and inode for files that exist, the same canonical
/// directory and name for new ones). A device, FIFO or socket is exempt: it is written in
/// place, so two reports to `/dev/null` or `/dev/stdout` both arrive.
pub fn distinct_files(paths: &[(&str, Option<&std::path::Path>)]) -> Result<()> {
    let given: Vec<(&str, &std::path::Path, FileId)> = paths
        .iter()
        .filter_map(|(flag, p)| p.map(|p| (*flag, p)))
        .filter_map(|(flag, p)| file_id(p).map(|id| (flag, p, id)))
        .collect();
    for (i, (f1, p1, id1)) in given.iter().enumerate() {
        if let Some((f2, p2, _)) = given[i + 1..].iter().find(|(_, _, id2)| id2 == id1) {
            let same = if p1 == p2 {
                format!("`{}`", p1.display())
            } else {
                format!("`{}` and `{}`", p1.display(), p2.display())
            };
            return Err(Error::option(
                f2,
                format!("{same}: {f1} and {f2} name the same file; one would overwrite the other"),
            ));
        }
    }
    Ok(())
}

/// `diff`'s outputs checked against each other and against its inputs before any case runs:
/// the counterexample `out`, the instance and scenario files written beside it, and every word
/// of the `--cmd` template that names an existing file (the program under test's script, its
/// data), which a counterexample written over it would destroy.
pub fn diff_outputs_distinct(out: &std::path::Path, cmd: &str) -> Result<()> {
    let (instance, scenario) = crate::diff::counterexample::siblings(out);
    let program: Vec<std::path::PathBuf> = crate::diff::template::split(cmd)?
        .into_iter()
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_file())
        .collect();
    let mut paths: Vec<(&str, Option<&std::path::Path>)> = program
        .iter()
        .map(|p| ("--cmd", Some(p.as_path())))
        .collect();
    paths.extend([
        ("--out", Some(out)),
        ("--out", Some(instance.as_path())),
        ("--out", Some(scenario.as_path())),
    ]);
    distinct_files(&paths)
}

/// What identifies a file a path names (see [`distinct_files`]).
#[derive(PartialEq, Eq)]
enum FileId {
    /// An existing regular file: its device and inode.
    Existing(u64, u64),
    /// A new file: its directory, canonical, and its name.
    New(std::path::PathBuf),
}

/// The identity of the file `path` names; `None` for a device, FIFO, socket or directory, and
/// for a path whose directory does not exist (the write's own check names that).
fn file_id(path: &std::path::Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Some(FileId::Existing(m.dev(), m.ino())),
        Ok(_) => None,
        Err(_) => new_file_id(path),
    }
}

/// The identity of a path that does not exist yet: its nearest existing ancestor, canonical,
/// followed by the rest of the path read lexically (no part of that rest exists, so none is a
/// link that `..` would have to follow); `None` when that ancestor is not a directory.
fn new_file_id(path: &std::path::Path) -> Option<FileId> {
    use std::path::Component;
    let (base, is_dir) = path.ancestors().skip(1).find_map(|a| {
        let a = if a.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            a
        };
        std::fs::metadata(a).ok().map(|m| (a, m.is_dir()))
    })?;
    if !is_dir {
        return None;
    }
    let mut id = std::fs::canonicalize(base).ok()?;
    // default: the base `.` stands for an empty parent, so the whole relative path is below it
    let below = path.strip_prefix(base).unwrap_or(path);
    for c in below.components() {
        match c {
            Component::Normal(n) => id.push(n),
            Component::ParentDir => {
                id.pop();
            }
            _ => {}
        }
    }
    Some(FileId::New(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_bounded_and_named() {
        assert_eq!(check_threads(None).unwrap(), None);
        assert_eq!(check_threads(Some(1)).unwrap(), Some(1));
        assert_eq!(check_threads(Some(MAX_THREADS)).unwrap(), Some(MAX_THREADS));
        let e = check_threads(Some(MAX_THREADS + 1))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "option `--threads`: 1025 is above the limit of 1024 threads (more threads than cores only slow a run down)"
        );
        let e = check_threads(Some(0)).unwrap_err().to_string();
        assert!(
            e.starts_with("option `--threads`: must be at least 1"),
            "{e}"
        );
    }

    #[test]
    fn two_names_of_one_file_are_refused_and_devices_are_not() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.csv");
        let dotted = d.path().join("sub/../a.csv");
        std::fs::create_dir(d.path().join("sub")).unwrap();
        let e = distinct_files(&[("--csv", Some(&a)), ("--jobs-csv", Some(&dotted))])
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("option `--jobs-csv`: "), "{e}");
        assert!(e.contains("--csv and --jobs-csv name the same file"), "{e}");
        std::fs::write(&a, "x").unwrap();
        let link = d.path().join("link.csv");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        assert!(distinct_files(&[("--csv", Some(&link)), ("--jobs-csv", Some(&a))]).is_err());
        let b = d.path().join("b.csv");
        assert!(distinct_files(&[
            ("--csv", Some(&a)),
            ("--jobs-csv", Some(&b)),
            ("--plots", None)
        ])
        .is_ok());
        let nested = d.path().join("new/found.json");
        let dotted = d.path().join("new/x/../found.json");
        assert!(distinct_files(&[("--out", Some(&nested)), ("--save", Some(&dotted))]).is_err());
        let other = d.path().join("new/other.json");
        assert!(distinct_files(&[("--out", Some(&nested)), ("--save", Some(&other))]).is_ok());
        let null = std::path::Path::new("/dev/null");
        assert!(distinct_files(&[("--csv", Some(null)), ("--jobs-csv", Some(null))]).is_ok());
    }
}
