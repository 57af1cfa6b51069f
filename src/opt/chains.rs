//! Exact deadline areas of a moldable job's short chains: the least (transformed) area of k
//! attempts whose durations sum to at most D, over *whole* options.
//!
//! [`super::bounds::AreaHull`] bounds that least area by k·H(D/k), H the lower convex hull of
//! the job's (duration, area) points: a relaxation that lets every attempt run on a fractional
//! mix of two neighbouring options. The true minimum over multisets of k options is a step
//! function of D and can be much larger. Example (P = 8, the Amdahl job w = 13, γ = 1/2 of
//! `generate::paper_moldable` seed 4): three attempts within D = 28.6 average 9.53 time units,
//! between the options (2, 9.75) and (3, 8.67); the hull charges 3·H(9.53) ≈ 62.3 of area, but
//! whole options can at best take 9.75 + 9.75 + 8.67 with area 19.5 + 19.5 + 26 = 65.
//!
//! **Why the front is exact.** For k attempts on options o_1..o_k (a multiset: the order of a
//! chain does not change its total duration or area), let S_k be the set of points
//! (Σ d_{o_i}, Σ F(p_{o_i})·d_{o_i}) and front_k its Pareto front (durations strictly increasing,
//! areas strictly decreasing). min{area : (d, area) ∈ S_k, d ≤ D} is the area of the last point
//! of front_k with duration ≤ D. front_k = Pareto(front_{k−1} ⊕ front_1): a multiset of k
//! options is a multiset of k − 1 plus one; if its (k − 1)-part is dominated by a point of
//! front_{k−1} (no longer, no costlier), swapping that part in gives a point of the sum that is
//! no longer and no costlier, so dropping dominated parts never loses a Pareto point.
//!
//! Each front is bounded by [`MAX_FRONT`] points; a chain length whose front would grow past it
//! (or overflow an Int) keeps the hull relaxation, which stays sound.
use super::problem::{Int, Opt};

/// Largest front kept for one (job, k, energy); beyond it the convex hull answers.
pub const MAX_FRONT: usize = 2048;

/// Per chain length k = 1..=K: the exact Pareto front of (total duration, total area).
#[derive(Debug, Clone, Default)]
pub struct ChainFronts {
    /// `fronts[k − 1]`: durations strictly increasing, areas strictly decreasing.
    fronts: Vec<Vec<(Int, Int)>>,
}

impl ChainFronts {
    /// The fronts of 1..=`max_k` attempts on `options` under the transform `weight` (F(p) for
    /// p = 0..=P), stopping at the first k whose front is too large.
    pub fn new(options: &[Opt], weight: &[Int], max_k: u32) -> ChainFronts {
        let base = pareto(
            options
                .iter()
                .filter_map(|o| Some((o.dur, weight.get(o.procs as usize)?.checked_mul(o.dur)?)))
                .collect(),
        );
        let mut fronts: Vec<Vec<(Int, Int)>> = Vec::new();
        if base.is_empty() || max_k == 0 {
            return ChainFronts { fronts };
        }
        fronts.push(base.clone());
        while fronts.len() < max_k as usize {
            let prev = &fronts[fronts.len() - 1];
            if prev.len().saturating_mul(base.len()) > MAX_FRONT.saturating_mul(8) {
                break;
            }
            let mut sums = Vec::with_capacity(prev.len() * base.len());
            for &(d, a) in prev {
                for &(d1, a1) in &base {
                    match (d.checked_add(d1), a.checked_add(a1)) {
                        (Some(ds), Some(as_)) => sums.push((ds, as_)),
                        _ => return ChainFronts { fronts },
                    }
                }
            }
            let next = pareto(sums);
            if next.len() > MAX_FRONT {
                break;
            }
            fronts.push(next);
        }
        ChainFronts { fronts }
    }

    /// For k attempts within total duration `d`: `None` when k is not covered (the caller
    /// falls back to the hull), `Some(None)` when no k options fit within `d`, else
    /// `Some(Some(least area))`.
    pub fn least_area(&self, k: Int, d: Int) -> Option<Option<Int>> {
        let front = self.fronts.get(usize::try_from(k.checked_sub(1)?).ok()?)?;
        // The points with duration ≤ d form a prefix; its last has the least area.
        let fit = front.partition_point(|p| p.0 <= d);
        Some(fit.checked_sub(1).map(|i| front[i].1))
    }
}

/// The Pareto front of (duration, area) points: sorted by duration, each kept only if its area
/// is strictly below every shorter point's.
fn pareto(mut pts: Vec<(Int, Int)>) -> Vec<(Int, Int)> {
    pts.sort_unstable();
    let mut out: Vec<(Int, Int)> = Vec::with_capacity(pts.len());
    for p in pts {
        if out.last().is_none_or(|q| p.1 < q.1) {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Instance, Job, Profile, Scenario, SpeedupModel};
    use crate::Time;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn opts(list: &[(u32, Int)]) -> Vec<Opt> {
        list.iter()
            .map(|&(procs, dur)| Opt { procs, dur })
            .collect()
    }

    #[test]
    fn fronts_golden() {
        // Areas 10, 12, 16 at durations 10, 6, 4 (identity transform).
        let id: Vec<Int> = (0..=4).collect();
        let table = opts(&[(1, 10), (2, 6), (4, 4)]);
        let c = ChainFronts::new(&table, &id, 2);
        let hull = super::super::bounds::AreaHull::new(&table, &id);
        // Two attempts within 9: only 4 + 4, area 32; the hull mixes 6 and 4: 2·H(4.5) = 30.
        assert_eq!(c.least_area(2, 9), Some(Some(32)));
        assert_eq!(hull.chain_area(2, 9), Some(30));
        // Within 11: 6 + 4, area 28; the hull: 2·H(5.5) = 26.
        assert_eq!(c.least_area(2, 11), Some(Some(28)));
        assert_eq!(hull.chain_area(2, 11), Some(26));
        // Within 13: 6 + 6, area 24 = ⌈2·H(6.5)⌉ = ⌈23.5⌉: the two agree.
        assert_eq!(c.least_area(2, 13), Some(Some(24)));
        assert_eq!(hull.chain_area(2, 13), Some(24));
        assert_eq!(c.least_area(2, 7), Some(None)); // 4 + 4 = 8 > 7
        assert_eq!(c.least_area(1, 100), Some(Some(10)));
        assert_eq!(c.least_area(3, 100), None); // not built: the hull answers
        assert_eq!(c.least_area(0, 100), None);
    }

    #[test]
    fn exact_chains_raise_the_root_bound_to_opt() {
        // P = 4: A (two attempts) runs 10, 6 or 4 on 1, 2 or 4 processors (areas 10, 12, 16);
        // B is rigid, 5 on one processor. Below 10, A's chain fits only as 4 + 4 (area 32),
        // and 32 + 5 > 4·9: OPT ≥ 10 (= OPT: A on 4, then on 2 with B beside it). The hull's
        // 2·H(9/2) = 30 fits (35 ≤ 36) and left the root at 9.
        let t = Time::from_int;
        let times = vec![t(10), t(6), t(6), t(4)];
        let a = Job {
            name: "A".into(),
            profile: Profile::Moldable {
                model: SpeedupModel::Arbitrary {
                    times: times.clone(),
                },
                times,
            },
        };
        let inst = Instance::new(4, vec![a, Job::rigid("B", 1, t(5))]).unwrap();
        let sc = Scenario::new(vec![1, 0]);
        let prob = super::super::problem::build(&inst, &sc).unwrap();
        let e = super::super::bounds::energies(&prob);
        let root = super::super::bounds::root(&prob, &e);
        let hull_only: Vec<Vec<_>> = e
            .iter()
            .map(|en| {
                prob.jobs
                    .iter()
                    .map(|j| super::super::bounds::AreaHull::new(&j.options, &en.weight))
                    .collect()
            })
            .collect();
        let exact = super::super::bounds::hulls(&prob, &e);
        let ub = 12;
        assert_eq!(
            super::super::bounds::deadline_root(&prob, &e, &hull_only, root, ub),
            9
        );
        assert_eq!(
            super::super::bounds::deadline_root(&prob, &e, &exact, root, ub),
            10
        );
        let r = super::super::solve(&inst, &sc, &super::super::OptConfig::default()).unwrap();
        assert_eq!(r.stats.root_lower_bound, t(10));
        assert_eq!(r.makespan, t(10));
        assert!(r.is_optimal());
    }

    #[test]
    fn fronts_equal_brute_force() {
        // Seeded random tables and transforms: the front's answer is the least area over every
        // multiset of k options within D, and "no fit" exactly when none exists.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut next = |m: u64| rng.random_range(0..m);
        for case in 0..200 {
            let n = 1 + next(5) as usize;
            let table: Vec<Opt> = (0..n)
                .map(|i| Opt {
                    procs: i as u32 + 1,
                    dur: 1 + next(20) as Int,
                })
                .collect();
            let weight: Vec<Int> = (0..=n as Int).map(|p| p * (1 + next(3) as Int)).collect();
            let c = ChainFronts::new(&table, &weight, 4);
            for k in 1..=4usize {
                for d in 0..=(90 as Int) {
                    let mut best: Option<Int> = None;
                    let mut idx = vec![0usize; k];
                    loop {
                        let dur: Int = idx.iter().map(|&i| table[i].dur).sum();
                        let area: Int = idx
                            .iter()
                            .map(|&i| weight[table[i].procs as usize] * table[i].dur)
                            .sum();
                        if dur <= d && best.is_none_or(|b| area < b) {
                            best = Some(area);
                        }
                        let mut pos = 0;
                        while pos < k && idx[pos] + 1 == n {
                            idx[pos] = 0;
                            pos += 1;
                        }
                        if pos == k {
                            break;
                        }
                        idx[pos] += 1;
                    }
                    assert_eq!(
                        c.least_area(k as Int, d),
                        Some(best),
                        "seed 11 case {case} {table:?} {weight:?} k={k} D={d}"
                    );
                }
            }
        }
    }
}
