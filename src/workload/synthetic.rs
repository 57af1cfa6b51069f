//! Generators of the papers' synthetic job sets.
//!
//! - Rigid paper, Section 5.1 ("Synthetic jobs"): n = 100 jobs, processor allocation p_j
//!   uniform in [50, 2000], execution time t_j uniform in [100, 20000] seconds, on P = 10000
//!   processors ([`RigidSetSpec::paper`]). The paper does not say whether t_j is an integer; we
//!   draw both p_j and t_j as uniform *integers* in the closed ranges (the rigid paper's C++
//!   simulator reads integer lengths), which keeps every time exact.
//! - Moldable paper, Section 5.1 ("Speedup Models"): n = 500 jobs on P = 7500 by default; each
//!   job has a total work w_j uniform in [5000, 4000000] and a model parameter: roofline p̄_j
//!   integer uniform in [100, 4000]; communication c_j = α·2^r, r integer uniform in [0, 3],
//!   α uniform in [1, 2]; Amdahl γ_j = α/10^r, r integer uniform in [2, 7], α uniform in
//!   [0, 10]; mix-low-com uses the same p̄_j, c_j and γ_j, and mix uses 3c_j; power δ_j uniform
//!   in [0, 1] ([`MoldableSetSpec`]).
//!
//!   Exactness rule (ours, the paper draws reals): w_j is a uniform *integer*, and every real
//!   parameter α, δ is drawn on a grid of step 10^−6 (a uniform integer k, then k/10^6), so
//!   that every t_j(p) is an exact rational. Reading of "the same set of parameters": a job set
//!   draws w_j and every model's parameters once, in a fixed order, so the six models of set s
//!   share the same w_j (hence the same failure probabilities q_j = 1 − e^(−λ w_j) and the
//!   same scenarios) and the mix models reuse the roofline, communication and Amdahl values.
//!   A p̄_j above P is capped at P, which leaves t_j(1..=P) unchanged (min(p, p̄) = p there).
//!
//!   Time grid (optional): [`MoldableSetSpec::on_grid`] wraps each model in
//!   [`SpeedupModel::Rounded`], i.e. every t_j(p) is rounded *up* to a multiple of 2^−b s
//!   (`resched experiment … --time-grid b`), so that the simulations run in 64-bit integers
//!   (exact Amdahl, mix and power tables make instants with thousands of bits after a few
//!   hundred events). With [`CAMPAIGN_GRID_BITS`] = 20 the error is below 1 µs per attempt.
//!   The default is the exact tables: since `Time`'s arithmetic avoids gcds on full-size
//!   products, they cost less than the grid on the full moldable-table1
//!   (docs/results/moldable-table1.md).
//!
//! Every set is drawn from its own ChaCha8 stream keyed by (campaign seed, set index, a domain
//! tag) — see [`crate::workload::sampling::stream`] — so set s is the same whatever the thread
//! count or the other sets drawn.
use crate::error::{Error, Result};
use crate::model::{Instance, Job, SpeedupModel};
use crate::time::Time;
use crate::workload::sampling::stream;
use rand::RngExt;

/// Domain tag of rigid job-set streams ("RIGIDSET").
const RIGID_TAG: u64 = 0x5249_4749_4453_4554;

/// Domain tag of moldable job-set streams ("MOLDSET").
const MOLD_TAG: u64 = 0x004d_4f4c_4453_4554;

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
            return Err(Error::param("jobs", "at least one job"));
        }
        if p0 == 0 || p0 > p1 || p1 > self.procs {
            return Err(Error::param(
                "p_range",
                format!(
                    "[{p0}, {p1}] must satisfy 1 ≤ low ≤ high ≤ P = {}",
                    self.procs
                ),
            ));
        }
        if t0 == 0 || t0 > t1 || t1 > i64::MAX as u64 {
            return Err(Error::param(
                "t_range",
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

/// The six speedup-model settings of the moldable paper's Section 5.1 (Table 1's columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoldModel {
    Roofline,
    Communication,
    Amdahl,
    MixLowCom,
    Mix,
    Power,
}

impl MoldModel {
    /// Table 1's column order.
    pub const ALL: [MoldModel; 6] = [
        MoldModel::Roofline,
        MoldModel::Communication,
        MoldModel::Amdahl,
        MoldModel::MixLowCom,
        MoldModel::Mix,
        MoldModel::Power,
    ];

    /// The paper's name of the setting.
    pub fn label(self) -> &'static str {
        match self {
            MoldModel::Roofline => "Roofline",
            MoldModel::Communication => "Communication",
            MoldModel::Amdahl => "Amdahl",
            MoldModel::MixLowCom => "Mix-low-com",
            MoldModel::Mix => "Mix",
            MoldModel::Power => "Power",
        }
    }
}

/// The parameters of a moldable synthetic set (moldable paper, Section 5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MoldableSetSpec {
    pub jobs: usize,
    pub procs: u32,
    pub model: MoldModel,
    /// `Some(b)`: every job's model is wrapped in [`SpeedupModel::Rounded`] with `b` bits, so
    /// every time is a multiple of 2^−b s (`--time-grid b`); `None` (the default): the exact
    /// real-parameter model.
    #[serde(default)]
    pub grid_bits: Option<u32>,
}

/// A time grid for the synthetic moldable sets: 2^−20 s ≈ 0.95 µs, far below the shortest time
/// of a set (w ≥ 5000 on at most 7500 processors: t ≥ 0.66 s).
pub const CAMPAIGN_GRID_BITS: u32 = 20;

/// One job's draws, shared by every model (see the module doc).
struct MoldDraw {
    w: i64,
    pbar: u32,
    /// c = ka/10^6 · 2^r, ka in [10^6, 2·10^6], r in [0, 3].
    c_num: i64,
    /// γ = kg/10^6 / 10^r, kg in [0, 10^7], r in [2, 7].
    gamma: (i64, i64),
    /// δ = kd / 10^6.
    delta: i64,
}

const GRID: i64 = 1_000_000;

impl MoldableSetSpec {
    /// Section 5.1's default: n = 500, P = 7500.
    pub fn paper(model: MoldModel) -> MoldableSetSpec {
        MoldableSetSpec::new(500, 7500, model)
    }

    /// `jobs` jobs on `procs` processors under `model`, exact times.
    pub fn new(jobs: usize, procs: u32, model: MoldModel) -> MoldableSetSpec {
        MoldableSetSpec {
            jobs,
            procs,
            model,
            grid_bits: None,
        }
    }

    /// The same spec with every time rounded up to a multiple of 2^−bits s.
    pub fn on_grid(self, bits: u32) -> MoldableSetSpec {
        MoldableSetSpec {
            grid_bits: Some(bits),
            ..self
        }
    }

    /// The same spec with exact (unrounded) times.
    pub fn exact(self) -> MoldableSetSpec {
        MoldableSetSpec {
            grid_bits: None,
            ..self
        }
    }

    /// Job set number `set` of a campaign seeded `seed`, under this spec's model.
    pub fn generate(&self, seed: u64, set: u64) -> Result<Instance> {
        if self.jobs == 0 {
            return Err(Error::param("jobs", "at least one job"));
        }
        if self.procs == 0 {
            return Err(Error::param("procs", "at least one processor"));
        }
        let mut rng = stream(seed, set, 0, MOLD_TAG);
        let draws: Vec<MoldDraw> = (0..self.jobs)
            .map(|_| {
                let w = rng.random_range(5000i64..=4_000_000);
                let pbar = rng.random_range(100u32..=4000);
                let ka = rng.random_range(GRID..=2 * GRID);
                let rc = rng.random_range(0u32..=3);
                let kg = rng.random_range(0..=10 * GRID);
                let rg = rng.random_range(2u32..=7);
                let kd = rng.random_range(0..=GRID);
                MoldDraw {
                    w,
                    pbar,
                    c_num: ka << rc,
                    gamma: (kg, GRID * 10i64.pow(rg)),
                    delta: kd,
                }
            })
            .collect();
        let mut jobs = Vec::with_capacity(self.jobs);
        for (j, d) in draws.iter().enumerate() {
            let w = Time::from_int(d.w);
            let frac = |n: i64, den: i64| {
                Time::new(n, den)
                    .ok_or_else(|| Error::Limit(format!("job {j}: parameter {n}/{den}")))
            };
            let c = frac(d.c_num, GRID)?;
            let gamma = frac(d.gamma.0, d.gamma.1)?;
            let pbar = d.pbar.min(self.procs);
            let model = match self.model {
                MoldModel::Roofline => SpeedupModel::Roofline { w, pbar },
                MoldModel::Communication => SpeedupModel::Communication { w, c },
                MoldModel::Amdahl => SpeedupModel::Amdahl { w, gamma },
                MoldModel::MixLowCom => SpeedupModel::Mix { w, gamma, pbar, c },
                MoldModel::Mix => SpeedupModel::Mix {
                    w,
                    gamma,
                    pbar,
                    c: c.mul_int(3),
                },
                MoldModel::Power => SpeedupModel::Power {
                    w,
                    delta: frac(d.delta, GRID)?,
                },
            };
            let model = match self.grid_bits {
                Some(bits) => SpeedupModel::Rounded {
                    bits,
                    of: Box::new(model),
                },
                None => model,
            };
            let field = format!("jobs[{j}].speedup");
            let times = model
                .table(self.procs, &field)
                .map_err(|e| e.in_file("synthetic moldable set"))?;
            jobs.push(Job {
                name: format!("J{}", j + 1),
                profile: crate::model::Profile::Moldable { model, times },
            });
        }
        Instance::new(self.procs, jobs).map_err(|e| e.in_file("synthetic moldable set"))
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
    fn moldable_sets_share_draws_across_models() {
        let sets: Vec<Instance> = MoldModel::ALL
            .iter()
            .map(|&m| {
                MoldableSetSpec::new(20, 64, m)
                    .exact()
                    .generate(9, 1)
                    .unwrap()
            })
            .collect();
        for inst in &sets {
            assert_eq!((inst.len(), inst.procs), (20, 64));
            for (j, job) in inst.jobs.iter().enumerate() {
                // t(1) = w for every model, the same w in every model.
                assert_eq!(job.time(1), sets[0].jobs[j].time(1), "job {j}");
                let w = job.time(1).unwrap();
                assert!(
                    w >= &Time::from_int(5000) && w <= &Time::from_int(4_000_000) && w.is_integer()
                );
            }
        }
        match (
            &sets[2].jobs[0].profile,
            &sets[3].jobs[0].profile,
            &sets[4].jobs[0].profile,
        ) {
            (
                crate::model::Profile::Moldable {
                    model: SpeedupModel::Amdahl { gamma: g, .. },
                    ..
                },
                crate::model::Profile::Moldable {
                    model:
                        SpeedupModel::Mix {
                            gamma: g2, c: c2, ..
                        },
                    ..
                },
                crate::model::Profile::Moldable {
                    model: SpeedupModel::Mix { c: c3, .. },
                    ..
                },
            ) => {
                assert_eq!(g, g2);
                assert_eq!(&c2.mul_int(3), c3);
                assert!(c2 >= &Time::one() && c2 <= &Time::from_int(16));
                assert!(g <= &Time::new(1, 10).unwrap());
            }
            other => panic!("unexpected models {other:?}"),
        }
        assert_eq!(
            sets[0],
            MoldableSetSpec::new(20, 64, MoldModel::Roofline)
                .exact()
                .generate(9, 1)
                .unwrap()
        );
        assert!(MoldableSetSpec::new(0, 64, MoldModel::Mix)
            .generate(9, 1)
            .is_err());
    }

    /// The sets on the grid are the exact sets rounded up, job by job and p by p.
    #[test]
    fn rounded_sets_are_the_exact_sets_on_the_grid() {
        for &m in &MoldModel::ALL {
            let spec = MoldableSetSpec::new(12, 300, m);
            let (r, e) = (
                spec.on_grid(CAMPAIGN_GRID_BITS).generate(4, 2).unwrap(),
                spec.generate(4, 2).unwrap(),
            );
            for (jr, je) in r.jobs.iter().zip(&e.jobs) {
                assert_eq!(jr.time(1), je.time(1), "{m:?}: t(1) = w stays exact");
                for p in 1..=300 {
                    let (tr, te) = (jr.time(p).unwrap(), je.time(p).unwrap());
                    assert_eq!(
                        tr,
                        &crate::model::speedup::ceil_to_grid(te, CAMPAIGN_GRID_BITS),
                        "{m:?} {} p={p}",
                        jr.name
                    );
                    assert!(tr.mul_int(1 << CAMPAIGN_GRID_BITS).is_integer() && tr.is_small());
                }
            }
        }
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
