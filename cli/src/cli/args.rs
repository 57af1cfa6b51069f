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

/// A pool of `threads` workers (`None`: one per core); 0 is an error, not "all cores".
pub(crate) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    if threads == Some(0) {
        return Err(Error::option(
            "threads",
            "must be at least 1 (leave it out for one thread per core)",
        ));
    }
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
