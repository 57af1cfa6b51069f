//! Leaving nothing behind: every program `diff` starts, and every descendant it leaves, ends
//! with the case that started it, and everything ends when resched does — on success, a
//! mismatch, an error, a time limit, SIGINT (Ctrl-C), SIGTERM or SIGHUP.
//!
//! Each program starts in a process group of its own ([`super::process::spawn`]), which a time
//! limit or the end of a case kills whole. A descendant can leave the group (`setsid`) and
//! outlive its parent; to still reach it, resched makes itself a *child subreaper* on Linux
//! (`prctl(PR_SET_CHILD_SUBREAPER)`): orphans of the programs it starts become its children
//! instead of init's. Every program is started with [`MARK`] in its environment, a value unique
//! to it, which its descendants inherit; when a case ends, resched's children that carry the
//! case's mark (and their process groups) are killed and reaped ([`sweep`]), and exited orphans
//! are reaped. Children are found in `/proc` (their parent's pid, their environment).
//!
//! [`Supervisor`] (one per `diff` run) turns the subreaper on, catches SIGINT, SIGTERM and SIGHUP
//! on a thread that then kills every live program's group and every child of resched, removes the
//! temporary folders ([`create_dir`]), and re-raises the signal with its default action (the
//! shell sees the usual `130` or `143`); dropped, it kills whatever is left.
//!
//! Elsewhere than on Linux there is no subreaper: process groups (or `taskkill /T`) are all.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
#[cfg(target_os = "linux")]
use std::time::{Duration, Instant};

/// The environment variable that marks a program and its descendants.
pub const MARK: &str = "RESCHED_DIFF_RUN";

/// The programs started and not yet reaped (their pids, which are their process groups), and
/// whether resched is ending (then nothing new starts).
struct Live {
    pids: BTreeSet<u32>,
    ending: bool,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    pids: BTreeSet::new(),
    ending: false,
});

/// Temporary folders to remove if a signal ends resched.
static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A fresh mark value: resched's pid and a counter, unique among the programs of all resched
/// processes alive.
pub fn new_mark() -> String {
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Runs `start` (which spawns a program) with the list of live programs locked, and records the
/// program's pid: a concurrent [`sweep`] never mistakes a program just started for an orphan.
/// When resched is ending, nothing starts and the caller waits for the end (`await_the_end`).
pub fn started<T>(start: impl FnOnce() -> T, pid: impl Fn(&T) -> Option<u32>) -> T {
    let mut live = lock_live();
    if live.ending {
        drop(live);
        await_the_end();
    }
    let t = start();
    if let Some(p) = pid(&t) {
        live.pids.insert(p);
    }
    t
}

/// Blocks for good: only the signal thread sets `ending`, and it then cleans up and ends the
/// process by the signal. A worker that returned instead (an error, a report, the exit code of
/// a run whose program the clean-up killed) could end resched first with another status.
fn await_the_end() -> ! {
    loop {
        std::thread::park();
    }
}

/// The program `pid` was reaped (its pid may be reused from now on).
pub fn reaped(pid: u32) {
    lock_live().pids.remove(&pid);
}

fn lock_live() -> std::sync::MutexGuard<'static, Live> {
    let locked = LIVE.lock();
    // default: a poisoned lock (a panicking thread) still holds a usable list
    locked.unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn lock_dirs() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    let locked = DIRS.lock();
    // default: a poisoned lock (a panicking thread) still holds a usable list
    locked.unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Creates the temporary folder `p` and records it in one step under the list's lock, which a
/// signal's clean-up keeps until resched exits: a folder is either removed by the clean-up or
/// never created, whatever the thread that makes it was doing when the signal came.
pub fn create_dir(p: &Path) -> std::io::Result<()> {
    let mut dirs = lock_dirs();
    std::fs::create_dir(p)?;
    dirs.push(p.to_path_buf());
    Ok(())
}

/// Forgets a folder (removed by its owner).
pub fn unregister_dir(p: &Path) {
    lock_dirs().retain(|d| d != p);
}

/// Kills and reaps resched's children that carry `mark` (the descendants a finished program
/// left), with their process groups, and reaps exited orphans; `group` (the program's own,
/// already killed) is waited for until it is empty. Bounded by a two-second deadline.
#[cfg(target_os = "linux")]
pub fn sweep(mark: &str, group: u32) {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let found = orphans(Some(mark));
        for &p in &found {
            kill_and_reap(p);
        }
        if (found.is_empty() && group_gone(group)) || Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[cfg(not(target_os = "linux"))]
pub fn sweep(_mark: &str, _group: u32) {}

/// Kills every child of resched and its process group (the end of a run: nothing of it may
/// survive), and reaps the ones no `Child` handle owns.
#[cfg(target_os = "linux")]
pub fn sweep_all() {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let live: Vec<u32> = lock_live().pids.iter().copied().collect();
        for &p in &live {
            kill_group(p);
        }
        let found = orphans(None);
        for &p in &found {
            kill_and_reap(p);
        }
        if (found.is_empty() && live.iter().all(|&p| group_gone(p))) || Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[cfg(not(target_os = "linux"))]
pub fn sweep_all() {
    let live: Vec<u32> = lock_live().pids.iter().copied().collect();
    for p in live {
        kill_group(p);
    }
}

/// Children of resched that no `Child` handle owns: with `mark`, the living ones that carry it;
/// without, all living ones; in both cases every exited one (a zombie to reap).
#[cfg(target_os = "linux")]
fn orphans(mark: Option<&str>) -> Vec<u32> {
    let me = std::process::id();
    let want = mark.map(|m| format!("{MARK}={m}").into_bytes());
    // The list is read with the live programs locked, so that none starts in between.
    let live = lock_live();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command's closing parenthesis: state, ppid, …
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let mut f = rest.split_whitespace();
        let (Some(state), Some(ppid)) = (f.next(), f.next().and_then(|s| s.parse::<u32>().ok()))
        else {
            continue;
        };
        if ppid != me || live.pids.contains(&pid) {
            continue;
        }
        let take = state == "Z"
            || match &want {
                None => true,
                Some(w) => std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == w.as_slice())),
            };
        if take {
            out.push(pid);
        }
    }
    out
}

#[cfg(target_os = "linux")]
fn kill_and_reap(pid: u32) {
    use nix::sys::signal::{kill, killpg, Signal};
    use nix::sys::wait::{waitpid, WaitPidFlag};
    let Ok(raw) = i32::try_from(pid) else { return };
    let p = nix::unistd::Pid::from_raw(raw);
    // The orphan's own group and itself (a group of that id can only be its own while it lives).
    let _ = killpg(p, Signal::SIGKILL);
    let _ = kill(p, Signal::SIGKILL);
    let deadline = Instant::now() + Duration::from_millis(500);
    while Instant::now() < deadline {
        match waitpid(p, Some(WaitPidFlag::WNOHANG)) {
            Ok(nix::sys::wait::WaitStatus::StillAlive) => {
                std::thread::sleep(Duration::from_millis(1))
            }
            _ => return,
        }
    }
}

/// True when no process is left in group `pgid`.
#[cfg(target_os = "linux")]
fn group_gone(pgid: u32) -> bool {
    let Ok(raw) = i32::try_from(pgid) else {
        return true;
    };
    if raw <= 0 {
        return true;
    }
    nix::sys::signal::killpg(nix::unistd::Pid::from_raw(raw), None).is_err()
}

/// One `diff` run's supervision (module doc): the subreaper, the signal thread, and the final
/// clean-up when dropped.
pub struct Supervisor {
    #[cfg(unix)]
    handle: Option<signal_hook::iterator::Handle>,
}

impl Supervisor {
    /// Turns the subreaper on and starts the signal thread. Neither failing stops the run: a
    /// process group still ends each program.
    pub fn start() -> Supervisor {
        #[cfg(target_os = "linux")]
        {
            // default: without the subreaper, orphans go to init and only process groups reach them
            let _ = nix::sys::prctl::set_child_subreaper(true);
        }
        // Before the signal thread exists: closing its handle writes to a socket whose reader
        // (the thread) may already have seen the close and gone, and with resched's default
        // SIGPIPE action that write would kill resched as it ends.
        ignore_sigpipe();
        Supervisor {
            #[cfg(unix)]
            handle: signal_thread(),
        }
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        if lock_live().ending {
            await_the_end();
        }
        #[cfg(unix)]
        if let Some(h) = self.handle.take() {
            h.close();
        }
        sweep_all();
    }
}

#[cfg(unix)]
fn signal_thread() -> Option<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]).ok()?;
    let handle = signals.handle();
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            lock_live().ending = true;
            sweep_all();
            // The list stays locked until the process ends, so that no folder is made after
            // the clean-up (see `create_dir`).
            let mut dirs = lock_dirs();
            for d in dirs.drain(..) {
                let _ = std::fs::remove_dir_all(d);
            }
            // default: if the default action cannot be emulated, the exit status says the signal
            let _ = signal_hook::low_level::emulate_default_handler(sig);
            std::process::exit(128 + sig);
        }
    });
    Some(handle)
}

/// resched's own `main` restores SIGPIPE's default action (so that `resched … | head` ends
/// quietly). Under `diff`, a write to a closed pipe or socket must be an error instead: a JSONL
/// program that died would otherwise kill resched when it writes the next request, and so
/// would the signal thread's own wake-up socket once the thread has ended. An `EPIPE` on
/// standard output still ends resched quietly with 141 ([`mod@crate::out`]). Children start with
/// the default action again (std resets it in every child it spawns, and exec drops handlers).
/// A handler that only sets a flag has the effect of ignoring the signal, without `unsafe`.
#[cfg(unix)]
pub fn ignore_sigpipe() {
    // default: a handler that cannot be installed leaves SIGPIPE's action as it was; a dying
    // program then ends resched too, which the report cannot explain but nothing is corrupted
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGPIPE,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
}

/// Elsewhere there is no SIGPIPE: a write to a closed pipe is an error already.
#[cfg(not(unix))]
pub fn ignore_sigpipe() {}

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
    let _ = std::process::Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}

#[cfg(all(test, unix))]
mod tests {
    /// The test harness ignores SIGPIPE already; afterwards a handler must be installed (neither
    /// the default action, which would kill resched, nor left as it was).
    #[test]
    fn sigpipe_gets_a_handler() {
        super::ignore_sigpipe();
        // SAFETY: sigaction with a null new action only reads the current one into `old`.
        let action = unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            assert_eq!(
                libc::sigaction(libc::SIGPIPE, std::ptr::null(), &mut old),
                0
            );
            old.sa_sigaction
        };
        assert_ne!(action, libc::SIG_DFL);
        assert_ne!(action, libc::SIG_IGN);
    }
}
