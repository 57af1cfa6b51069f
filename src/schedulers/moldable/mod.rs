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
pub mod eps;
pub mod list;
pub mod lpa;
pub mod mt_allotment;
pub mod mt_published;
pub mod mt_published_f64;

use crate::model::Instance;
use crate::schedulers::priority;
pub use crate::schedulers::priority::Priority;
use crate::time::Time;
pub use eps::Eps;

/// The order of LIST's list for moldable jobs: a rule of [`crate::schedulers::priority`]
/// evaluated on the allocation p of each job's next attempt and its time t(p) (LPT: t, HPA: p,
/// LA: p·t, …; RANDOM: a seeded permutation of the jobs; LJF: jobs with 2p ≥ P+1 first by
/// decreasing p, then the others by LPT), or the plain job index order (Section 4.7's "J1 to
/// J4"). Ties: lower job index first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Rule { priority: Priority, seed: u64 },
    Index,
}

impl Order {
    /// A rule with seed 0.
    pub fn rule(priority: Priority) -> Order {
        Order::Rule { priority, seed: 0 }
    }

    /// Display label (LPT, HPA, …, INDEX).
    pub fn label(self) -> String {
        match self {
            Order::Rule { priority, .. } => priority.to_string(),
            Order::Index => "INDEX".to_string(),
        }
    }
}

impl From<Priority> for Order {
    fn from(p: Priority) -> Order {
        Order::rule(p)
    }
}

/// Computes the sort keys of an [`Order`] on one instance: smaller keys run first.
#[derive(Debug, Clone)]
pub(crate) struct Keyer {
    order: Order,
    procs: u32,
    /// RANDOM: the rank of each job in the seeded permutation.
    ranks: Vec<usize>,
}

impl Keyer {
    pub(crate) fn new(order: Order, inst: &Instance) -> Keyer {
        let ranks = match order {
            Order::Rule {
                priority: Priority::Random,
                seed,
            } => {
                let keys: Vec<(u32, Time)> = vec![(1, Time::one()); inst.len()];
                priority::ranks(&priority::order(Priority::Random, &keys, inst.procs, seed))
            }
            _ => Vec::new(),
        };
        Keyer {
            order,
            procs: inst.procs,
            ranks,
        }
    }

    /// The key of `job`'s next attempt on `p` processors taking `t`; `None` when RANDOM has no
    /// rank for `job` (a job beyond the instance the keyer was built for).
    pub(crate) fn key(&self, job: usize, t: &Time, p: u32) -> Option<(u8, Time)> {
        let Order::Rule { priority, .. } = self.order else {
            return Some((0, Time::zero()));
        };
        match priority.key(p, t, self.procs) {
            Some(k) => Some(k),
            None => Some((
                0,
                Time::from_int(i64::try_from(*self.ranks.get(job)?).ok()?),
            )),
        }
    }
}
