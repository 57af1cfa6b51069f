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
