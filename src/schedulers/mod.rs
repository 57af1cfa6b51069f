//! The scheduler registry: every algorithm of resched is built here from a name, a priority rule,
//! a seed and (for the moldable algorithms) a parameter ε, and then runs through
//! [`crate::engine`] as a `Box<dyn Scheduler>`.
//!
//! Rigid algorithms (rigid paper Section 4, names of Section 5.1 in brackets):
//! - `greedy` = `r-list:0` [R-LIST-0], GREEDY of Proposition 2 ([`rlist::Greedy`]);
//! - `easy` = `r-list:1` [R-LIST-1], EASY backfilling;
//! - `conservative` = R-LIST(m = |Q|) [R-LIST-Q], conservative backfilling;
//! - `r-list:<m>` for any m ≥ 0 ([`rlist::RList`], Algorithm 1);
//! - `conservative-kept`, `easy-kept`, `r-list:<m>:kept`: R-LIST(m) whose reservations are kept
//!   until the job starts instead of recomputed at every completion
//!   ([`rlist::Reservations::Kept`], the reading of the paper's own simulator);
//! - `r-shelf-b`, `r-shelf-nb`, `r-shelffill-b`, `r-shelffill-nb` (Algorithms 2 and 3,
//!   [`shelf::Shelf`]).
//!
//! Moldable algorithms (moldable paper Section 4, [`moldable`]): `lpa-list` (alias `list`),
//! `mintime`, `minarea`, `batch-list` and `batch-list-uniform` (ε > 0, default 3/10).
//!
//! The paper's spellings `r-list-0`, `r-list-1` and `r-list-q` are accepted as aliases. Names are
//! case-insensitive. The default priority is LPT; every rule of [`priority::Priority`] applies to
//! every rigid algorithm. `seed` only matters for RANDOM; `eps` is not used by rigid algorithms
//! (it is ignored, so one spec can be swept over every algorithm).
//!
//! Every scheduler built here resets itself on the engine's first call (time 0), so one value
//! can be run on many scenarios.
use crate::engine::Scheduler;
use crate::error::{Error, Result};
use crate::model::Instance;
use crate::time::Time;

pub mod moldable;
pub mod priority;
pub mod rlist;
pub mod shelf;

pub use priority::Priority;

/// What to build: an algorithm name, its priority rule (default LPT), the seed of RANDOM, and
/// the ε of the algorithms that take one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlgoSpec {
    pub name: String,
    pub priority: Option<priority::Priority>,
    pub seed: u64,
    pub eps: Option<Time>,
}

impl AlgoSpec {
    /// A spec with the default priority, seed 0 and no ε.
    pub fn new(name: impl Into<String>) -> AlgoSpec {
        AlgoSpec {
            name: name.into(),
            priority: None,
            seed: 0,
            eps: None,
        }
    }

    /// The same spec with a priority rule.
    pub fn with_priority(mut self, p: Priority) -> AlgoSpec {
        self.priority = Some(p);
        self
    }
}

/// The rigid algorithm families (parsed from a name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RigidAlgo {
    /// R-LIST(m); `usize::MAX` is m = |Q|.
    RList(usize),
    /// R-LIST(m) with its reservations kept ([`rlist::Reservations::Kept`]).
    RListKept(usize),
    /// R-SHELF(b) or R-SHELFFILL(b).
    Shelf { fill: bool, backfill: bool },
}

impl RigidAlgo {
    /// Parses a rigid algorithm name (case-insensitive); `None` if it is not one.
    pub fn parse(name: &str) -> Option<RigidAlgo> {
        let n = name.trim().to_ascii_lowercase();
        Some(match n.as_str() {
            "greedy" | "r-list-0" => RigidAlgo::RList(0),
            "easy" | "r-list-1" => RigidAlgo::RList(1),
            "conservative" | "r-list-q" => RigidAlgo::RList(usize::MAX),
            "easy-kept" | "r-list-1-kept" => RigidAlgo::RListKept(1),
            "conservative-kept" | "r-list-q-kept" => RigidAlgo::RListKept(usize::MAX),
            "r-shelf-b" => RigidAlgo::Shelf {
                fill: false,
                backfill: true,
            },
            "r-shelf-nb" => RigidAlgo::Shelf {
                fill: false,
                backfill: false,
            },
            "r-shelffill-b" => RigidAlgo::Shelf {
                fill: true,
                backfill: true,
            },
            "r-shelffill-nb" => RigidAlgo::Shelf {
                fill: true,
                backfill: false,
            },
            _ => {
                let m = n.strip_prefix("r-list:")?;
                if let Some(m) = m.strip_suffix(":kept") {
                    RigidAlgo::RListKept(if m == "q" {
                        usize::MAX
                    } else {
                        m.parse().ok()?
                    })
                } else if m == "q" {
                    RigidAlgo::RList(usize::MAX)
                } else {
                    RigidAlgo::RList(m.parse().ok()?)
                }
            }
        })
    }
}

/// The names [`build`] accepts (`r-list:<m>` stands for any m ≥ 0).
pub fn names() -> Vec<&'static str> {
    let mut v = vec![
        "greedy",
        "easy",
        "conservative",
        "r-list:<m>",
        "easy-kept",
        "conservative-kept",
        "r-list:<m>:kept",
        "r-shelf-b",
        "r-shelf-nb",
        "r-shelffill-b",
        "r-shelffill-nb",
    ];
    v.extend(moldable::NAMES);
    v
}

/// The rigid algorithms the paper evaluates (Section 5.1), with concrete names (for sweeps and the
/// demo): greedy, easy, conservative, and the four shelf variants.
pub fn rigid_names() -> Vec<&'static str> {
    vec![
        "greedy",
        "easy",
        "conservative",
        "r-shelf-b",
        "r-shelf-nb",
        "r-shelffill-b",
        "r-shelffill-nb",
    ]
}

/// `(p_j, t_j)` of every job, or an error naming the first moldable job.
pub fn rigid_keys(inst: &Instance, algo: &str) -> Result<Vec<(u32, Time)>> {
    inst.jobs
        .iter()
        .map(|j| match j.as_rigid() {
            Some((p, t)) => Ok((p, t.clone())),
            None => Err(Error::option(
                "algo",
                format!(
                    "`{algo}` schedules rigid jobs, but job {} is moldable",
                    j.name
                ),
            )),
        })
        .collect()
}

/// Builds the scheduler `spec` names for `inst`.
///
/// Errors ([`Error::Option`]): an unknown name (the message lists the valid ones), or an
/// algorithm that cannot schedule this instance (a rigid algorithm on moldable jobs).
pub fn build(spec: &AlgoSpec, inst: &Instance) -> Result<Box<dyn Scheduler>> {
    let pr = spec.priority.unwrap_or(Priority::Lpt);
    let low = spec.name.trim().to_ascii_lowercase();
    if moldable::NAMES.contains(&low.as_str()) {
        let order = moldable::Order::Rule {
            priority: pr,
            seed: spec.seed,
        };
        return moldable::build(&low, order, spec.eps.as_ref(), inst);
    }
    let Some(algo) = RigidAlgo::parse(&spec.name) else {
        return Err(Error::option(
            "algo",
            format!(
                "unknown algorithm `{}`; valid names: {}",
                spec.name,
                names().join(", ")
            ),
        ));
    };
    let keys = rigid_keys(inst, &spec.name)?;
    let p = inst.procs;
    Ok(match algo {
        RigidAlgo::RList(0) => Box::new(rlist::Greedy::new(&keys, p, pr, spec.seed)),
        RigidAlgo::RList(m) => Box::new(rlist::RList::new(m, &keys, p, pr, spec.seed)),
        RigidAlgo::RListKept(m) => Box::new(rlist::RList::with_policy(
            m,
            rlist::Reservations::Kept,
            &keys,
            p,
            pr,
            spec.seed,
        )),
        RigidAlgo::Shelf { fill, backfill } => {
            Box::new(shelf::Shelf::new(fill, backfill, &keys, p, pr, spec.seed))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        assert_eq!(RigidAlgo::parse("GREEDY"), Some(RigidAlgo::RList(0)));
        assert_eq!(RigidAlgo::parse("r-list:7"), Some(RigidAlgo::RList(7)));
        assert_eq!(
            RigidAlgo::parse("r-list-q"),
            Some(RigidAlgo::RList(usize::MAX))
        );
        assert_eq!(RigidAlgo::parse("r-list:x"), None);
        assert_eq!(
            RigidAlgo::parse("r-list:q:kept"),
            Some(RigidAlgo::RListKept(usize::MAX))
        );
        assert_eq!(RigidAlgo::parse("Easy-Kept"), Some(RigidAlgo::RListKept(1)));
        assert_eq!(RigidAlgo::parse("r-list:x:kept"), None);
        for n in rigid_names() {
            assert!(RigidAlgo::parse(n).is_some(), "{n}");
        }
    }

    #[test]
    fn unknown_names_are_option_errors() {
        let inst = Instance::rigid(2, &[(1, Time::one())]).unwrap();
        let e = build(&AlgoSpec::new("fifo"), &inst)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("algo") && e.contains("greedy") && e.contains("r-shelffill-nb"),
            "{e}"
        );
    }

    #[test]
    fn rigid_algorithms_reject_moldable_jobs() {
        let inst = Instance::from_json_str(
            r#"{"processors": 2, "jobs": [{"name": "M", "speedup": {"model": "table", "times": [2, 1]}}]}"#,
            "m.json",
        )
        .unwrap();
        for n in rigid_names() {
            let e = build(&AlgoSpec::new(n), &inst)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains("job M is moldable"), "{n}: {e}");
        }
    }
}
