//! Schedulers for moldable jobs (moldable paper, Section 4), all behind [`crate::engine::Scheduler`]:
//!
//! - [`list::List`]: LIST (Algorithm 1) for an allocation that may change from one attempt to
//!   the next (an [`list::Allotment`] consulted at every attempt);
//! - [`lpa`]: LPA (Algorithm 2, r(α,β) of Eq. 10) and the baselines MINTIME and MINAREA
//!   (Section 5.1), each an allocation run by LIST: LPA-LIST, MINTIME, MINAREA;
//! - [`mt_allotment`]: MT-ALLOTMENT (Lepère–Trystram–Woeginger) for independent chains, with
//!   Lemma 3's guarantee L(p) ≤ (1+ε)·min_p L;
//! - [`batch::BatchList`]: BATCH-LIST (Section 4.4).
//!
//! Jobs are ordered in LIST by a [`Priority`] computed on the allocation of their next attempt
//! (Section 5.1: LPT, HPA, LA); ties go to the lower job index. Rigid jobs may appear in the
//! same instance: every allocation is chosen among the processor counts a job allows.
pub mod batch;
pub mod list;
pub mod lpa;
pub mod mt_allotment;

use crate::engine::Scheduler;
use crate::error::{Error, Result};
use crate::model::Instance;
use crate::time::Time;

/// The priority rules of LIST for moldable jobs, evaluated on the allocation p of a job's next
/// attempt and its time t(p). Ties: lower job index first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Priority {
    /// Longest processing time t(p) first (Section 5.1).
    Lpt,
    /// Shortest processing time first.
    Spt,
    /// Highest processor allocation p first (Section 5.1).
    Hpa,
    /// Lowest processor allocation first.
    Lpa,
    /// Largest area p·t(p) first (Section 5.1).
    La,
    /// Smallest area first.
    Sa,
    /// Job index order (the order of Section 4.7's example: J1 to J4).
    Index,
}

impl Priority {
    /// Every rule with its name.
    pub const ALL: [(&'static str, Priority); 7] = [
        ("lpt", Priority::Lpt),
        ("spt", Priority::Spt),
        ("hpa", Priority::Hpa),
        ("lpa", Priority::Lpa),
        ("la", Priority::La),
        ("sa", Priority::Sa),
        ("index", Priority::Index),
    ];

    /// The rule named `name` (case-insensitive).
    pub fn parse(name: &str) -> Result<Priority> {
        let lower = name.to_ascii_lowercase();
        Priority::ALL
            .iter()
            .find(|(n, _)| *n == lower)
            .map(|x| x.1)
            .ok_or_else(|| {
                let names: Vec<&str> = Priority::ALL.iter().map(|x| x.0).collect();
                Error::option(
                    "--priority",
                    format!(
                        "unknown rule `{name}` for moldable jobs (expected one of {})",
                        names.join(", ")
                    ),
                )
            })
    }

    /// Its name, upper case, for display.
    pub fn label(self) -> String {
        Priority::ALL
            .iter()
            .find(|x| x.1 == self)
            .map(|x| x.0.to_ascii_uppercase())
            .unwrap_or_default()
    }

    /// The sort key: smaller keys run first.
    pub fn key(self, t: &Time, p: u32) -> Time {
        match self {
            Priority::Lpt => -t,
            Priority::Spt => t.clone(),
            Priority::Hpa => -Time::from(p),
            Priority::Lpa => Time::from(p),
            Priority::La => -t.mul_int(u64::from(p)),
            Priority::Sa => t.mul_int(u64::from(p)),
            Priority::Index => Time::zero(),
        }
    }
}

/// The moldable algorithms by name: `list` (LIST with the LPA allocation, the same as
/// `lpa-list`), `lpa-list`, `mintime`, `minarea`, `batch-list` (ε required > 0).
pub const NAMES: [&str; 5] = ["list", "lpa-list", "mintime", "minarea", "batch-list"];

/// Builds the moldable scheduler `name` for `inst`. `eps` is BATCH-LIST's ε (default 3/10, the
/// paper's Section 5.1 value); it must be > 0.
pub fn build(
    name: &str,
    priority: Priority,
    eps: Option<&Time>,
    inst: &Instance,
) -> Result<Box<dyn Scheduler>> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "list" | "lpa-list" => Ok(Box::new(lpa::lpa_list(inst, priority))),
        "mintime" => Ok(Box::new(lpa::mintime(inst, priority))),
        "minarea" => Ok(Box::new(lpa::minarea(inst, priority))),
        "batch-list" => {
            let eps = eps.cloned().unwrap_or_else(default_eps);
            Ok(Box::new(batch::BatchList::new(inst, priority, eps)?))
        }
        _ => Err(Error::option(
            "--algo",
            format!(
                "unknown moldable algorithm `{name}` (expected one of {})",
                NAMES.join(", ")
            ),
        )),
    }
}

/// ε = 3/10, the value of the paper's evaluation (Section 5.1).
pub fn default_eps() -> Time {
    Time::new(3, 10).unwrap_or_else(Time::one)
}

/// Checks ε > 0 (the option is named in the error).
pub fn check_eps(eps: &Time) -> Result<()> {
    if eps.is_positive() {
        Ok(())
    } else {
        Err(Error::option("--eps", format!("ε = {eps} must be > 0")))
    }
}
