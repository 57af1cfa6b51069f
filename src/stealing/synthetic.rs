//! Table 6's synthetic workload (node-stealing paper, Section 6.3), seeded.
//!
//! 128 nodes; 1000 jobs of which n_i = 504, 198, 108, 65, 55, 42, 28 use p_i = 2^i nodes
//! (i = 0..6); run time t_exec uniform between 1 and 119 minutes; walltime α·t_exec with α
//! uniform in [1, 5]; jobs arrive in random order with exponential inter-arrival times of mean
//! λ = 174 s (so that the stress of Eq. (3) is 0.95). The paper pairs it with a platform MTBF of
//! 30 min, C = R = 5 min and D = 10 min ([`paper_resilience`]).
//!
//! # Exact values (sampling rule)
//! From `ChaCha8Rng::seed_from_u64(seed)`, in this order: the random order (a Fisher–Yates
//! shuffle of the size list, `rand`'s `shuffle`); then per job in arrival order: t_exec uniform
//! integer seconds in [60, 7140]; α uniform on the grid {1, 1.001, …, 5} (integer /1000); the gap
//! to the previous arrival −ln(1 − U)·λ entered once by [`Time::from_f64_grid`] on the grid
//! 1/[`GRID`]. The first job arrives at 0. Walltimes α·t_exec are exact.
//!
//! Parameters (`synthetic:key=value,...` on the command line, all optional): `nodes` (128),
//! `lambda` (174), `seed` (the run's seed), `jobs` (a multiple of 1000 scales every n_i; at most
//! [`limits::MAX_JOBS`], checked before anything is drawn).
use super::checkpoint::GRID;
use super::limits;
use super::model::{BatchJob, Resilience, Workload};
use crate::error::{Error, Result};
use crate::time::Time;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Table 6: number of jobs with 2^i nodes.
pub const TABLE_6: [(u32, u32); 7] = [
    (504, 1),
    (198, 2),
    (108, 4),
    (65, 8),
    (55, 16),
    (42, 32),
    (28, 64),
];

/// Parameters of the generator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synthetic {
    pub nodes: u32,
    /// Mean inter-arrival time λ.
    pub lambda: Time,
    /// Multiplies every n_i of Table 6.
    pub scale: u32,
    pub seed: u64,
}

impl Synthetic {
    /// The paper's setting with `seed`.
    pub fn paper(seed: u64) -> Synthetic {
        Synthetic {
            nodes: 128,
            lambda: Time::from_int(174),
            scale: 1,
            seed,
        }
    }

    /// Parses `synthetic` or `synthetic:nodes=128,lambda=174,seed=3,jobs=2000`. Errors name
    /// parameter `spec`, or `synthetic.<key>` for a value out of its range
    /// ([`Synthetic::check`]).
    pub fn parse(spec: &str, default_seed: u64) -> Result<Synthetic> {
        let opt = |m: String| Error::param("spec", m);
        let rest = spec
            .strip_prefix("synthetic")
            .ok_or_else(|| opt(format!("`{spec}` is not a synthetic spec")))?;
        let mut s = Synthetic::paper(default_seed);
        // default: `synthetic` and `synthetic:` are the same spec
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        for kv in rest.split(',').filter(|x| !x.trim().is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| opt(format!("`{kv}`: expected key=value")))?;
            let (k, v) = (k.trim(), v.trim());
            let bad = |what: &str| {
                Error::param(
                    &format!("synthetic.{k}"),
                    format!("synthetic {k} = `{v}` is not {what}"),
                )
            };
            match k {
                "nodes" => s.nodes = v.parse().map_err(|_| bad("a node count"))?,
                "lambda" => s.lambda = v.parse().map_err(|_| bad("a time"))?,
                "seed" => s.seed = v.parse().map_err(|_| bad("an integer"))?,
                "jobs" => {
                    let n: u64 = v.parse().map_err(|_| bad("a job count"))?;
                    if n == 0 || n % 1000 != 0 {
                        return Err(bad("a positive multiple of 1000 (Table 6 has 1000 jobs)"));
                    }
                    limits::check_jobs(n, &format!("synthetic workload `{spec}`"))?;
                    s.scale = u32::try_from(n / 1000).map_err(|_| bad("a job count"))?;
                }
                _ => {
                    return Err(opt(format!(
                        "unknown synthetic parameter `{k}` (nodes, lambda, seed, jobs)"
                    )))
                }
            }
        }
        s.check()?;
        Ok(s)
    }

    /// The number of jobs (1000 per unit of scale).
    pub fn jobs(&self) -> u64 {
        1000 * u64::from(self.scale)
    }

    /// The parameters' ranges: 64 ≤ nodes ≤ [`limits::MAX_NODES`], jobs ≤ [`limits::MAX_JOBS`],
    /// λ in the range of [`limits::check_mean_gap`] (the inter-arrival draws). Errors name the
    /// field as `synthetic.nodes`, `synthetic.jobs`, `synthetic.lambda`.
    pub fn check(&self) -> Result<()> {
        let lambda = |m: String| Error::param("synthetic.lambda", m);
        if self.nodes < 64 || self.nodes > limits::MAX_NODES {
            return Err(Error::param("synthetic.nodes", format!(
                "synthetic nodes = {}: Table 6 has 64-node jobs, and at most 2^20 nodes are allowed",
                self.nodes
            )));
        }
        limits::check_jobs(self.jobs(), "synthetic workload")?;
        if !self.lambda.is_positive() {
            return Err(lambda(format!(
                "synthetic lambda must be > 0, got {}",
                self.lambda
            )));
        }
        limits::check_mean_gap(&self.lambda, "synthetic.lambda").map_err(|e| match e {
            Error::Param { msg, .. } => lambda(format!("synthetic lambda: {msg}")),
            e => e,
        })?;
        Ok(())
    }

    /// Draws the workload (module doc), after [`Synthetic::check`].
    pub fn generate(&self) -> Result<Workload> {
        self.check()?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut sizes: Vec<u32> = Vec::new();
        for (n, p) in TABLE_6 {
            sizes.extend(std::iter::repeat_n(p, (n * self.scale) as usize));
        }
        sizes.shuffle(&mut rng);
        let lambda = limits::check_mean_gap(&self.lambda, "synthetic.lambda")?;
        let mut t = Time::zero();
        let mut jobs = Vec::with_capacity(sizes.len());
        for (i, p) in sizes.into_iter().enumerate() {
            let exec = Time::from_int(rng.random_range(60..=7140i64));
            // Time::new fails only on a zero denominator.
            // unreachable: the denominator is the literal 1000
            let alpha = Time::new(rng.random_range(1000..=5000i64), 1000).unwrap_or_else(Time::one);
            let u: f64 = rng.random::<f64>();
            if i > 0 {
                // 1 − u ∈ (0, 1] so −ln(1 − u) ∈ [0, 37], and λ was checked: the gap is finite,
                // and from_f64_grid fails only on a non-finite value.
                let gap_f = -(1.0 - u).ln() * lambda;
                debug_assert!(gap_f.is_finite(), "{gap_f}");
                // unreachable: the gap is finite (debug_assert above) and ≥ 0
                let gap = Time::from_f64_grid(gap_f, GRID).unwrap_or_default();
                t = &t + &gap;
            }
            jobs.push(BatchJob {
                name: format!("S{}", i + 1),
                release: t.clone(),
                nodes: p,
                walltime: &exec * &alpha,
                run: exec,
            });
        }
        Ok(Workload {
            nodes: self.nodes,
            jobs,
        })
    }
}

/// Section 6.3: platform MTBF 30 min on `nodes` nodes, C = R = 5 min, D = 10 min (seconds).
pub fn paper_resilience(nodes: u32) -> Resilience {
    Resilience {
        downtime: Time::from_int(600),
        checkpoint: Time::from_int(300),
        recovery: Time::from_int(300),
        mtbf_ind: Some(Time::from_int(1800).mul_int(u64::from(nodes))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_6_counts_and_ranges() {
        let w = Synthetic::paper(11).generate().unwrap();
        assert_eq!(w.jobs.len(), 1000);
        for (n, p) in TABLE_6 {
            assert_eq!(w.jobs.iter().filter(|j| j.nodes == p).count(), n as usize);
        }
        for j in &w.jobs {
            assert!(j.run >= Time::from_int(60) && j.run <= Time::from_int(7140));
            assert!(j.walltime >= j.run && j.walltime <= j.run.mul_int(5));
        }
        assert!(w.jobs.windows(2).all(|p| p[0].release <= p[1].release));
        // Mean gap ≈ 174 s (seed 11).
        let last = w.jobs.last().unwrap().release.to_f64();
        assert!((last / 999.0 - 174.0).abs() < 20.0, "{last}");
        assert_eq!(Synthetic::paper(11).generate().unwrap(), w);
        // Eq. (3): Σ n_i 2^i · 3600 / (128 · 1000 · 174) ≈ 0.95.
        let work: u32 = TABLE_6.iter().map(|(n, p)| n * p).sum();
        assert_eq!(work, 5868);
    }

    #[test]
    fn spec_parsing() {
        let s = Synthetic::parse("synthetic:nodes=256,lambda=87,seed=4,jobs=2000", 1).unwrap();
        assert_eq!(
            (s.nodes, s.lambda.clone(), s.seed, s.scale),
            (256, Time::from_int(87), 4, 2)
        );
        assert_eq!(
            Synthetic::parse("synthetic", 9).unwrap(),
            Synthetic::paper(9)
        );
        assert!(Synthetic::parse("synthetic:nodes=8", 1).is_err());
        let e = Synthetic::parse("synthetic:foo=1", 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("parameter `spec`: ") && !e.contains("--"),
            "{e}"
        );
        let e = Synthetic::parse("synthetic:nodes=8", 1)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("parameter `synthetic.nodes`: "), "{e}");
        assert!(Synthetic::parse("synthetic:lambda=0", 1).is_err());
    }
}
