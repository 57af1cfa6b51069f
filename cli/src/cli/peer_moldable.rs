//! `resched simulate --peer-moldable-instance F --peer-failures G`: runs one moldable algorithm
//! of the catalogue (LPA-LIST by default; MINTIME, MINAREA, BATCH-LIST, …) over every failure
//! scenario of the moldable paper's simulator files ([`resched::workload::peer_moldable`]) through
//! the oracle (engine → checker → L′), and prints the columns that simulator prints —
//! makespan, the lower bound L′ of the moldable paper's Section 5.1, the number of failures —
//! one line per scenario, in file order whatever the thread count.
use super::args::{parse_eps, parse_priority, thread_pool};
use super::Exit;
use rayon::prelude::*;
use resched::error::{Error, Result};
use resched::model::{Instance, Scenario};
use resched::oracle::{AlgoSpec, Prepared};
use resched::time::Time;
use resched::workload::{peer, peer_moldable};
use std::fmt::Write as _;
use std::path::Path;

/// What moldable peer mode needs besides the two files.
#[derive(Debug, Clone)]
pub struct Options<'a> {
    pub procs: u32,
    pub algo: &'a str,
    pub priority: Option<&'a str>,
    pub seed: Option<u64>,
    pub eps: Option<&'a str>,
    pub scenarios: Option<usize>,
    pub threads: Option<usize>,
}

/// One scenario's numbers, as the simulator prints them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub makespan: Time,
    /// L′(J, f) (moldable paper, Section 5.1).
    pub lprime: Time,
    pub failures: u64,
}

/// Runs the mode and prints its table.
pub fn run(ipath: &Path, fpath: &Path, o: &Options<'_>) -> Result<Exit> {
    let inst = peer_moldable::load_instance(ipath, o.procs)?;
    if o.scenarios == Some(0) {
        return Err(Error::option("scenarios", "must be at least 1"));
    }
    let scenarios = peer::load_failures(fpath, inst.len(), o.scenarios)?;
    let priority = parse_priority(o.priority)?;
    let spec = AlgoSpec {
        seed: super::args::seed_for(o.seed, priority)?,
        priority,
        eps: parse_eps(o.eps)?,
        ..AlgoSpec::new(o.algo)
    };
    let rows = run_rows(&spec, &inst, &scenarios, o.threads)?;
    let name = Prepared::new(&spec, &inst)?.name();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {name} on {} ({} tasks, P = {})",
        ipath.display(),
        inst.len(),
        inst.procs
    );
    // The simulator's columns first (9-decimal roundings, as it prints them), then the exact
    // values, which nothing rounds.
    let _ = writeln!(
        out,
        "# scenario makespan L' failures makespan_exact L'_exact"
    );
    for (i, r) in rows.iter().enumerate() {
        let _ = writeln!(
            out,
            "{i} {} {} {} {} {}",
            r.makespan.to_decimal_string(9),
            r.lprime.to_decimal_string(9),
            r.failures,
            r.makespan,
            r.lprime
        );
    }
    crate::out!("{out}")?;
    Ok(Exit::Ok)
}

/// Every scenario through the oracle, in parallel (each worker prepares its own scheduler),
/// results in scenario order.
pub fn run_rows(
    spec: &AlgoSpec,
    inst: &Instance,
    scenarios: &[Scenario],
    threads: Option<usize>,
) -> Result<Vec<Row>> {
    // Built once here so that a bad spec is reported before any work.
    Prepared::new(spec, inst)?;
    let pool = thread_pool(threads)?;
    pool.install(|| {
        scenarios
            .par_iter()
            .map_init(
                || Prepared::new(spec, inst),
                |g, sc| {
                    let g = g
                        .as_mut()
                        .map_err(|e| Error::option("algo", e.to_string()))?;
                    let c = g.certify(inst, sc)?;
                    Ok(Row {
                        makespan: c.makespan,
                        lprime: c.bound.lower,
                        failures: sc.total_failures(),
                    })
                },
            )
            .collect::<Result<Vec<_>>>()
    })
}
