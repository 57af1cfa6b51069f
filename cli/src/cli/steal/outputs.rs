//! Where `resched steal` writes (`--csv`, `--jobs-csv`, `--plots`), checked before anything is
//! simulated (a path that cannot be written must not be found only after the whole
//! simulation), and written atomically at the end.
//!
//! The check probes what writing will need without leaving anything behind: a file is written
//! by [`resched::error::write_atomic`] (a regular file through a temporary renamed over it, so
//! its directory must accept a new file; a device or FIFO in place; never a directory), as
//! [`resched::error::check_output`] checks; a plot directory is
//! created at the end, so its nearest existing ancestor must be a directory that accepts one.
use resched::error::{Error, Result};
use std::path::{Path, PathBuf};

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

/// `path` can be written by `write_atomic` (see [`resched::error::check_output`]).
pub fn check_file(path: &Path, option: &str) -> Result<()> {
    resched::error::check_output(path)
        .map_err(|e| Error::option(option, format!("{} cannot be written: {e}", path.display())))
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
