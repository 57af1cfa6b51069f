//! The output layer seen from outside the program: an output option naming a device or a link
//! writes through it and never replaces it, and a report that cannot reach standard output is
//! an error (or, for a closed pipe, a quiet exit 141), never a panic or a silent success.
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// `steal` on the small synthetic workload with `args` added, in `dir`.
fn steal(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(crate::support::bin())
        .args([
            "steal",
            "--workload",
            "synthetic:jobs=1000",
            "--variant",
            "baseline",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn steal_csv_dev_null_leaves_dev_null_a_character_device() {
    let d = tempfile::tempdir().unwrap();
    let o = steal(d.path(), &["--csv", "/dev/null", "--jobs-csv", "/dev/null"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let t = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(t.is_char_device(), "/dev/null is no longer a device: {t:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("csv: /dev/null\n"), "{out}");
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn a_symlink_to_an_outside_file_is_written_through_and_stays_a_link() {
    let d = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let real = outside.path().join("real.csv");
    std::fs::write(&real, "old\n").unwrap();
    let link = d.path().join("link.csv");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = steal(d.path(), &["--csv", "link.csv"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let t = std::fs::symlink_metadata(&link).unwrap().file_type();
    assert!(t.is_symlink(), "the link was replaced: {t:?}");
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.starts_with("variant,scope,metric,value,exact,status"),
        "{text}"
    );
    let names = |p: &std::path::Path| std::fs::read_dir(p).unwrap().count();
    assert_eq!((names(d.path()), names(outside.path())), (1, 1));
}

#[test]
fn a_full_standard_output_is_exit_2_naming_it() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(crate::support::bin())
        .arg("algorithms")
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        "error: cannot write to standard output: No space left on device (os error 28)\n"
    );
}

#[test]
fn a_closed_pipe_with_sigpipe_blocked_is_a_quiet_exit_141() {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a live array of two descriptors for pipe to fill.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just created and are owned here alone.
    let (read, write) = unsafe {
        use std::os::fd::FromRawFd;
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    };
    drop(read);
    let mut c = Command::new(crate::support::bin());
    c.arg("algorithms").stdout(write).stderr(Stdio::piped());
    // SAFETY: between fork and exec only sigprocmask, async-signal-safe, on local values.
    unsafe {
        c.pre_exec(|| {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGPIPE);
            if libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = c.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(141), "{err}");
    assert_eq!(err, "");
}
