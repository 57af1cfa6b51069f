//! Where `resched steal` writes (`--csv`, `--jobs-csv`, `--plots`), checked before anything is
//! simulated (a path that cannot be written must not be found only after the whole
//! simulation), and written atomically at the end.
//!
//! The check probes what writing will need without leaving anything behind: a file is written
//! by [`resched::error::write_atomic`] as a temporary sibling renamed over it, so its directory
//! must exist and accept a new file, and the path must not be a directory; a plot directory is
//! created at the end, so its nearest existing ancestor must be a directory that accepts one.
use resched::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The directory a file path lives in (`.` for a bare name).
fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        // default: a bare file name lives in the current directory
        .unwrap_or(Path::new("."))
}

/// Creates and removes a probe file in `dir`: the directory exists and accepts new files.
fn probe_dir(dir: &Path, option: &str, target: &Path) -> Result<()> {
    let probe = dir.join(format!(".resched-probe-{}", std::process::id()));
    let cannot = |why: String| {
        Error::option(
            option,
            format!("{} cannot be written: {why}", target.display()),
        )
    };
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            std::fs::remove_file(&probe).map_err(|e| cannot(format!("{}: {e}", probe.display())))
        }
        Err(e) => Err(cannot(format!("directory {}: {e}", dir.display()))),
    }
}

/// `path` can be written by `write_atomic`.
pub fn check_file(path: &Path, option: &str) -> Result<()> {
    if path.is_dir() {
        return Err(Error::option(
            option,
            format!("{} is a directory, not a file", path.display()),
        ));
    }
    probe_dir(parent_dir(path), option, path)
}

/// `dir` exists as a writable directory, or can be created.
pub fn check_dir(dir: &Path, option: &str) -> Result<()> {
    let existing: PathBuf = dir
        .ancestors()
        .find(|p| !p.as_os_str().is_empty() && p.exists())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    if !existing.is_dir() {
        return Err(Error::option(
            option,
            format!(
                "{} cannot be created: {} is not a directory",
                dir.display(),
                existing.display()
            ),
        ));
    }
    probe_dir(&existing, option, dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_leave_nothing_behind() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("out.csv");
        check_file(&f, "--csv").unwrap();
        check_dir(&d.path().join("a/b/plots"), "--plots").unwrap();
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
        let e = check_file(&d.path().join("no/such/dir/x.csv"), "--jobs-csv").unwrap_err();
        assert!(e.to_string().contains("--jobs-csv"), "{e}");
        let e = check_file(d.path(), "--csv").unwrap_err();
        assert!(e.to_string().contains("directory"), "{e}");
        std::fs::write(&f, "x").unwrap();
        let e = check_dir(&f.join("plots"), "--plots").unwrap_err();
        assert!(e.to_string().contains("not a directory"), "{e}");
    }
}
