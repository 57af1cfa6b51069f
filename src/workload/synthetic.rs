//! Generators of the papers' synthetic job sets.
//!
//! - Rigid paper, Section 5.1 ("Synthetic jobs"): n = 100 jobs, processor allocation p_j
//!   uniform in [50, 2000], execution time t_j uniform in [100, 20000] seconds, on P = 10000
//!   processors ([`RigidSetSpec::paper`]). The paper does not say whether t_j is an integer; we
//!   draw both p_j and t_j as uniform *integers* in the closed ranges (the rigid paper's C++
//!   simulator reads integer lengths), which keeps every time exact.
//!
//! Every set is drawn from its own ChaCha8 stream keyed by (campaign seed, set index, a domain
//! tag) — see [`crate::workload::sampling::stream`] — so set s is the same whatever the thread
//! count or the other sets drawn.
use crate::error::{Error, Result};
use crate::model::Instance;
use crate::time::Time;
use crate::workload::sampling::stream;
use rand::RngExt;

/// Domain tag of rigid job-set streams ("RIGIDSET").
const RIGID_TAG: u64 = 0x5249_4749_4453_4554;

/// The parameters of a rigid synthetic set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RigidSetSpec {
    /// Number of jobs n.
    pub jobs: usize,
    /// Processors P.
    pub procs: u32,
    /// Closed range of p_j.
    pub p_range: (u32, u32),
    /// Closed range of t_j (integers).
    pub t_range: (u64, u64),
}

impl RigidSetSpec {
    /// Section 5.1's sets: 100 jobs, p ∈ U[50, 2000], t ∈ U[100, 20000], P = 10000.
    pub fn paper() -> RigidSetSpec {
        RigidSetSpec {
            jobs: 100,
            procs: 10_000,
            p_range: (50, 2000),
            t_range: (100, 20_000),
        }
    }

    /// The same sets on another platform size (Figure 6 varies P; the jobs do not depend on P
    /// as long as p_j ≤ P, so a set drawn for one P is the same for another).
    pub fn with_procs(self, procs: u32) -> RigidSetSpec {
        RigidSetSpec { procs, ..self }
    }

    fn validate(&self) -> Result<()> {
        let (p0, p1) = self.p_range;
        let (t0, t1) = self.t_range;
        if self.jobs == 0 {
            return Err(Error::option("jobs", "at least one job"));
        }
        if p0 == 0 || p0 > p1 || p1 > self.procs {
            return Err(Error::option(
                "p-range",
                format!(
                    "[{p0}, {p1}] must satisfy 1 ≤ low ≤ high ≤ P = {}",
                    self.procs
                ),
            ));
        }
        if t0 == 0 || t0 > t1 || t1 > i64::MAX as u64 {
            return Err(Error::option(
                "t-range",
                format!("[{t0}, {t1}] must satisfy 1 ≤ low ≤ high"),
            ));
        }
        Ok(())
    }

    /// Job set number `set` of a campaign seeded `seed`.
    pub fn generate(&self, seed: u64, set: u64) -> Result<Instance> {
        self.validate()?;
        let mut rng = stream(seed, set, 0, RIGID_TAG);
        let jobs: Vec<(u32, Time)> = (0..self.jobs)
            .map(|_| {
                let p = rng.random_range(self.p_range.0..=self.p_range.1);
                let t = rng.random_range(self.t_range.0..=self.t_range.1);
                (p, Time::from_int(t as i64))
            })
            .collect();
        Instance::rigid(self.procs, &jobs).map_err(|e| e.in_file("synthetic rigid set"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_sets_are_in_range_and_reproducible() {
        let spec = RigidSetSpec::paper();
        let a = spec.generate(42, 3).unwrap();
        assert_eq!((a.len(), a.procs), (100, 10_000));
        for j in &a.jobs {
            let (p, t) = j.as_rigid().unwrap();
            assert!((50..=2000).contains(&p), "{p}");
            assert!(
                t >= &Time::from_int(100) && t <= &Time::from_int(20_000) && t.is_integer(),
                "{t}"
            );
        }
        assert_eq!(a, spec.generate(42, 3).unwrap());
        assert_ne!(a, spec.generate(42, 4).unwrap());
        // P does not change the jobs.
        let b = spec.with_procs(5000).generate(42, 3).unwrap();
        assert_eq!(a.jobs, b.jobs);
    }

    #[test]
    fn bad_specs_are_errors() {
        assert!(RigidSetSpec {
            jobs: 0,
            ..RigidSetSpec::paper()
        }
        .generate(1, 0)
        .is_err());
        assert!(
            RigidSetSpec::paper()
                .with_procs(1000)
                .generate(1, 0)
                .is_err(),
            "p up to 2000 > P"
        );
        assert!(RigidSetSpec {
            t_range: (5, 4),
            ..RigidSetSpec::paper()
        }
        .generate(1, 0)
        .is_err());
    }
}
