//! Job priority rules (rigid paper Section 5.1, and LJF of Section 4.2.1), in one place.
//!
//! A rule turns per-job keys `(processors, time)` into a queue order: `order(...)[0]` is the job
//! of highest priority. Rigid algorithms pass `(p_j, t_j)`; moldable algorithms pass the
//! allocation they chose and the time on it, so the same rules order both.
//!
//! - LPT / SPT: longest / shortest time first;
//! - HPA / LPA: highest / lowest processor allocation first;
//! - LA / SA: largest / smallest area p·t first (computed exactly);
//! - RANDOM: a uniformly random permutation drawn from `ChaCha8Rng::seed_from_u64(seed)` by a
//!   Fisher–Yates shuffle written here (so the permutation depends only on the seed and on the
//!   ChaCha8 stream, not on the shuffle algorithm of a `rand` release);
//! - LJF (Large Job First, Section 4.2.1): a job is *large* when p ≥ (P+1)/2 (exactly: 2p ≥ P+1).
//!   Large jobs come first by decreasing p; then small jobs, which the paper lets be "defined
//!   arbitrarily": we order them by LPT, which is what Proposition 1 allows.
//!
//! **Ties** are broken by job index, smaller index first, for every rule (within LJF: among
//! large jobs with equal p, and among small jobs with equal t). The order is therefore a pure
//! function of the keys (and of the seed for RANDOM).
use crate::error::{Error, Result};
use crate::time::Time;
use crate::workload::peer::PeerPriority;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;

/// A priority rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Priority {
    /// Longest processing time first.
    Lpt,
    /// Shortest processing time first.
    Spt,
    /// Highest processor allocation first.
    Hpa,
    /// Lowest processor allocation first.
    Lpa,
    /// Largest area first.
    La,
    /// Smallest area first.
    Sa,
    /// Seeded random order.
    Random,
    /// Large jobs first (p ≥ (P+1)/2, by decreasing p), then the small ones by LPT.
    Ljf,
    /// The instance's own job order (the moldable paper's Section 4.7 example runs "J1 to J4").
    /// Not one of the evaluated rules, so it is in neither [`Priority::PAPER`] nor
    /// [`Priority::ALL`]; it is accepted by name.
    Index,
}

impl Priority {
    /// The seven rules the rigid paper evaluates (Section 5.1), in its order.
    pub const PAPER: [Priority; 7] = [
        Priority::Lpt,
        Priority::Spt,
        Priority::Hpa,
        Priority::Lpa,
        Priority::La,
        Priority::Sa,
        Priority::Random,
    ];

    /// Every rule, in the paper's order (Section 5.1), then LJF.
    pub const ALL: [Priority; 8] = [
        Priority::Lpt,
        Priority::Spt,
        Priority::Hpa,
        Priority::Lpa,
        Priority::La,
        Priority::Sa,
        Priority::Random,
        Priority::Ljf,
    ];

    /// The lower-case name accepted on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Priority::Lpt => "lpt",
            Priority::Spt => "spt",
            Priority::Hpa => "hpa",
            Priority::Lpa => "lpa",
            Priority::La => "la",
            Priority::Sa => "sa",
            Priority::Random => "random",
            Priority::Ljf => "ljf",
            Priority::Index => "index",
        }
    }

    /// All accepted names, comma-separated (for error messages).
    pub fn valid_names() -> String {
        Priority::ALL
            .iter()
            .chain([Priority::Index].iter())
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Priority {
    /// Upper-case, as the papers write them (LPT, SPT, ..., RANDOM, LJF).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().to_ascii_uppercase())
    }
}

impl FromStr for Priority {
    type Err = Error;

    /// Case-insensitive: `lpt`, `LPT`, `Lpt` are the same rule.
    fn from_str(s: &str) -> Result<Priority> {
        let low = s.trim().to_ascii_lowercase();
        Priority::ALL
            .iter()
            .chain([Priority::Index].iter())
            .copied()
            .find(|p| p.name() == low)
            .ok_or_else(|| {
                Error::param(
                    "priority",
                    format!(
                        "unknown rule `{s}`; valid rules: {}",
                        Priority::valid_names()
                    ),
                )
            })
    }
}

/// The rule a peer simulator file names (rigid paper Section 5.1; [`crate::workload::peer`]).
impl From<PeerPriority> for Priority {
    fn from(p: PeerPriority) -> Priority {
        match p {
            PeerPriority::Length => Priority::Lpt,
            PeerPriority::RLength => Priority::Spt,
            PeerPriority::Procs => Priority::Hpa,
            PeerPriority::RProcs => Priority::Lpa,
            PeerPriority::Area => Priority::La,
            PeerPriority::RArea => Priority::Sa,
            PeerPriority::Rand => Priority::Random,
        }
    }
}

impl Priority {
    /// The sort key of a job of `p` processors and time `t` on a platform of `platform`
    /// processors: smaller keys run first. This is the one statement of the rules; [`order`]
    /// sorts by it, and the moldable list schedulers key each attempt by it. `None` for RANDOM,
    /// whose order is a permutation of the seed, not a key of the job.
    pub fn key(self, p: u32, t: &Time, platform: u32) -> Option<(u8, Time)> {
        Some(match self {
            Priority::Index => (0, Time::zero()),
            Priority::Lpt => (0, -t),
            Priority::Spt => (0, t.clone()),
            Priority::Hpa => (0, -Time::from(p)),
            Priority::Lpa => (0, Time::from(p)),
            Priority::La => (0, -t.mul_int(u64::from(p))),
            Priority::Sa => (0, t.mul_int(u64::from(p))),
            Priority::Ljf if 2 * u64::from(p) > u64::from(platform) => (0, -Time::from(p)),
            Priority::Ljf => (1, -t),
            Priority::Random => return None,
        })
    }
}

/// The queue order of jobs with keys `(procs, time)` under `priority` on a platform of
/// `platform` processors (used by LJF only), highest priority first. Ties by index.
pub fn order(priority: Priority, keys: &[(u32, Time)], platform: u32, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    let sort_keys: Option<Vec<(u8, Time)>> = keys
        .iter()
        .map(|(p, t)| priority.key(*p, t, platform))
        .collect();
    match sort_keys {
        // `sort_by` is stable and `idx` started in index order, so equal keys keep index order.
        Some(k) => idx.sort_by(|a, b| k[*a].cmp(&k[*b])),
        None => {
            // RANDOM: Fisher–Yates from the last position down, one draw per position.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for i in (1..idx.len()).rev() {
                let k = rng.random_range(0..=i);
                idx.swap(i, k);
            }
        }
    }
    idx
}

/// `rank[j]` = position of job j in `order` (the inverse permutation).
pub fn ranks(order: &[usize]) -> Vec<usize> {
    let mut rank = vec![0; order.len()];
    for (pos, &j) in order.iter().enumerate() {
        rank[j] = pos;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(n: i64) -> Time {
        Time::from_int(n)
    }

    #[test]
    fn parse_and_display() {
        for p in Priority::ALL {
            assert_eq!(p.name().parse::<Priority>().unwrap(), p);
            assert_eq!(p.to_string().parse::<Priority>().unwrap(), p);
        }
        assert_eq!("Lpt".parse::<Priority>().unwrap(), Priority::Lpt);
        let e = "fifo".parse::<Priority>().unwrap_err().to_string();
        assert!(
            e.contains("priority") && e.contains("lpt, spt, hpa, lpa, la, sa, random, ljf"),
            "{e}"
        );
    }

    #[test]
    fn peer_tokens_name_the_paper_rules() {
        let ours: Vec<Priority> = PeerPriority::ALL.into_iter().map(Priority::from).collect();
        assert_eq!(ours, Priority::PAPER);
        let tokens: Vec<&str> = PeerPriority::ALL.iter().map(|p| p.token()).collect();
        assert_eq!(
            tokens,
            ["length", "rlength", "procs", "rprocs", "area", "rarea", "rand"]
        );
    }

    #[test]
    fn rules_and_ties() {
        // (procs, time): areas 6, 6, 4, 12.
        let keys = vec![(2, t(3)), (3, t(2)), (1, t(4)), (4, t(3))];
        assert_eq!(order(Priority::Lpt, &keys, 4, 0), vec![2, 0, 3, 1]);
        assert_eq!(order(Priority::Spt, &keys, 4, 0), vec![1, 0, 3, 2]);
        assert_eq!(order(Priority::Hpa, &keys, 4, 0), vec![3, 1, 0, 2]);
        assert_eq!(order(Priority::Lpa, &keys, 4, 0), vec![2, 0, 1, 3]);
        assert_eq!(order(Priority::La, &keys, 4, 0), vec![3, 0, 1, 2]);
        assert_eq!(order(Priority::Sa, &keys, 4, 0), vec![2, 0, 1, 3]);
        // P = 4: large means p ≥ 5/2, i.e. p ∈ {3, 4}; small ones by LPT.
        assert_eq!(order(Priority::Ljf, &keys, 4, 0), vec![3, 1, 2, 0]);
        // P = 5: large means p ≥ 3.
        assert_eq!(order(Priority::Ljf, &keys, 5, 0), vec![3, 1, 2, 0]);
        // P = 6: large means p ≥ 7/2: only job 3.
        assert_eq!(order(Priority::Ljf, &keys, 6, 0), vec![3, 2, 0, 1]);
    }

    #[test]
    fn random_is_a_seeded_permutation() {
        let keys: Vec<(u32, Time)> = (0..50).map(|i| (1, t(i + 1))).collect();
        let a = order(Priority::Random, &keys, 1, 7);
        assert_eq!(a, order(Priority::Random, &keys, 1, 7));
        assert_ne!(a, order(Priority::Random, &keys, 1, 8));
        let mut s = a.clone();
        s.sort_unstable();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert_eq!(ranks(&a)[a[0]], 0);
    }
}
