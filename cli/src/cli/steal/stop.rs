//! Stopping a long `resched steal` run and keeping what it measured (a long run that is
//! stopped must still leave a result): SIGINT / SIGTERM and `--max-wall` ask the simulation to stop
//! at its next progress report (every [`resched::stealing::sim::PROGRESS_EVERY`] events, and every
//! [`REPORT_INTERVAL`] after the first of them), and a
//! [`Stopped`] says what the partial results of that variant describe.
//!
//! The handlers (signal-hook's) only store the signal number in an atomic (the one thing a
//! handler may safely do); the progress callback reads it. A second SIGINT or SIGTERM takes the
//! default action and ends the process at once, for a user who does not want to wait for the
//! outputs (they are written atomically: nothing half-written is left).
use resched::error::{Error, Result};
use resched::stealing::{Partial, Variant};
use resched::time::Time;
use std::fmt;
#[cfg(unix)]
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a long run asks whether to stop, once its first
/// [`resched::stealing::sim::PROGRESS_EVERY`] events are done
/// ([`resched::stealing::Budget::report_interval`]): a stop is seen within it.
pub const REPORT_INTERVAL: Duration = Duration::from_millis(250);

/// The signal received (0: none).
static SIGNAL: std::sync::OnceLock<Arc<AtomicUsize>> = std::sync::OnceLock::new();

fn received() -> &'static Arc<AtomicUsize> {
    SIGNAL.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// Records SIGINT and SIGTERM in [`SIGNAL`]; a second one of either takes the default action.
#[cfg(unix)]
fn install() -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    for sig in [SIGINT, SIGTERM] {
        // The conditional default goes first: on a second signal it sees the flag the first
        // one set, and ends the process as if no handler were installed.
        let seen = Arc::new(AtomicBool::new(false));
        flag::register_conditional_default(sig, Arc::clone(&seen))
            .and_then(|_| flag::register(sig, seen))
            .and_then(|_| flag::register_usize(sig, Arc::clone(received()), sig as usize))
            .map_err(|e| {
                Error::Limit(format!("cannot install the handler of signal {sig}: {e}"))
            })?;
    }
    Ok(())
}

/// Elsewhere a run stops on `--max-wall` only.
#[cfg(not(unix))]
fn install() -> Result<()> {
    Ok(())
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    Signal(i32),
    /// `--max-wall` (the limit given).
    MaxWall(Duration),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Signal(s) if *s == libc::SIGINT => f.write_str("SIGINT (Ctrl-C)"),
            Why::Signal(s) if *s == libc::SIGTERM => f.write_str("SIGTERM"),
            Why::Signal(s) => write!(f, "signal {s}"),
            Why::MaxWall(d) => write!(f, "--max-wall (limit {} s reached)", d.as_secs_f64()),
        }
    }
}

/// The stop request of one command: a signal, or the wall-clock limit since the start.
pub struct Stop {
    start: Instant,
    max_wall: Option<Duration>,
}

impl Stop {
    /// Installs the signal handlers and starts the wall clock.
    pub fn new(max_wall: Option<Duration>) -> Result<Stop> {
        install()?;
        Ok(Stop {
            start: Instant::now(),
            max_wall,
        })
    }

    /// Whether the run should stop now, and why.
    pub fn requested(&self) -> Option<Why> {
        match received().load(Ordering::SeqCst) {
            0 => self
                .max_wall
                .filter(|m| self.start.elapsed() >= *m)
                .map(Why::MaxWall),
            // unreachable: the value stored is a signal number, an i32 when it was registered
            s => Some(Why::Signal(i32::try_from(s).unwrap_or(i32::MAX))),
        }
    }
}

/// `--max-wall`: a duration (`90`, `1.5`, `10min`, `2h`) as a wall-clock limit.
pub fn parse_max_wall(s: &str) -> Result<Duration> {
    let t = super::parse_duration(s, "--max-wall")?;
    resched::stealing::limits::check_seconds(&t, "--max-wall")?;
    let secs = t.to_f64();
    Duration::try_from_secs_f64(secs)
        .map_err(|e| Error::option("--max-wall", format!("`{s}`: {e}")))
}

/// A variant stopped before its end: what its partial results describe.
#[derive(Clone, Debug)]
pub struct Stopped {
    pub variant: Variant,
    pub why: Why,
    /// The simulated instant reached.
    pub reached: Time,
    pub jobs: usize,
    pub completed: usize,
    /// Queued or running at `reached`.
    pub unfinished: usize,
    pub unreleased: usize,
    /// The window of the utilization and the decomposition.
    pub window: (Time, Time),
}

impl Stopped {
    pub fn new(p: &Partial, why: Why, window: (Time, Time)) -> Stopped {
        Stopped {
            variant: p.run.variant,
            why,
            reached: p.reached.clone(),
            jobs: p.jobs,
            completed: p.completed.len(),
            unfinished: p.unfinished,
            unreleased: p.unreleased,
            window,
        }
    }

    /// The paragraph of the text report.
    pub fn note(&self) -> String {
        format!(
            "PARTIAL: {v} stopped by {why} at simulated time {t} s: {c} of {n} jobs completed, \
             {u} queued or running (excluded), {r} not yet released. Its row describes the \
             completed jobs only: their flows, and utilization and platform time over \
             [{a}, {b}) s (first submission .. instant reached, or --window/--measure cut \
             there), where the nodes of the excluded jobs count as idle. It is not a result of \
             the whole trace.",
            v = self.variant,
            why = self.why,
            t = self.reached.to_decimal_string(3),
            c = self.completed,
            n = self.jobs,
            u = self.unfinished,
            r = self.unreleased,
            a = self.window.0.to_decimal_string(3),
            b = self.window.1.to_decimal_string(3),
        )
    }

    /// The rows of scope `run` in the metrics CSV: name and exact value.
    pub fn csv_rows(&self) -> Vec<(&'static str, Time)> {
        let n = |x: usize| {
            debug_assert!(x <= resched::stealing::limits::MAX_JOBS);
            // unreachable: job counts are bounded by limits::MAX_JOBS, far below i64::MAX
            Time::from_int(i64::try_from(x).unwrap_or(i64::MAX))
        };
        vec![
            ("reached", self.reached.clone()),
            ("jobs", n(self.jobs)),
            ("completed_jobs", n(self.completed)),
            ("unfinished_jobs", n(self.unfinished)),
            ("unreleased_jobs", n(self.unreleased)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_wall_values() {
        assert_eq!(parse_max_wall("90").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_max_wall("10min").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_max_wall("0").unwrap(), Duration::ZERO);
        assert_eq!(parse_max_wall("1/4").unwrap(), Duration::from_millis(250));
        for bad in ["-1", "soon", "1e99"] {
            let e = parse_max_wall(bad).unwrap_err().to_string();
            assert!(e.contains("--max-wall"), "{bad}: {e}");
        }
        let w = Why::MaxWall(Duration::from_secs(5)).to_string();
        assert_eq!(w, "--max-wall (limit 5 s reached)");
        assert_eq!(Why::Signal(libc::SIGTERM).to_string(), "SIGTERM");
    }
}
