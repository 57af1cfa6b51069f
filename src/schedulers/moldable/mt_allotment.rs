//! MT-ALLOTMENT for independent chains (moldable paper, Section 4.4 and Lemma 3; Lepère,
//! Trystram and Woeginger, ESA 2001): an allocation p of every sub-job (every planned attempt)
//! of a batch with L(J_k, f_k, p) ≤ (1+ε)·min_p L(J_k, f_k, p).
//!
//! # Our reading of the method (the paper only sketches it, footnote 7)
//! "Dynamic programming decides whether there is an allocation with L ≤ (1+ε)·X; a binary search
//! runs on X." For chains (the batch's sub-jobs J_j^(1) → … → J_j^(g)) we set it up as follows.
//!
//! **Decision D(X).** Split ε into ε₁ = ε₂ = min(ε/3, 1), so (1+ε₁)(1+ε₂) ≤ 1+ε. For a chain
//! of g attempts, times are rounded *up* to multiples of u = ε₁·X/g; a chain may use at most
//! K = ⌊g(1+ε₁)/ε₁⌋ units (i.e. rounded time ≤ (1+ε₁)·X). A knapsack DP over the units gives the
//! least total area of the chain within its budget: state (attempts chosen, units used), items =
//! the job's Pareto points (one per distinct rounded time, the least area among the counts whose
//! time rounds to at most that many units). D(X) succeeds iff every chain fits and the least
//! areas sum to at most P·X. If some p* has L(p*) ≤ X, each of its chains has rounded time
//! ≤ X + g·u = (1+ε₁)X, so its areas are feasible for the DP: D(X) succeeds, and what it returns
//! has t_max ≤ (1+ε₁)X (rounding up only overestimates) and A ≤ P·X, i.e. L ≤ (1+ε₁)·X.
//! For g = 1 the DP is a single binary search on the job's frontier.
//!
//! **Search.** lo = max(max_j g·t_min,j, Σ_j g·a_min,j/P) ≤ min L; hi = the better L of the
//! least-time and the least-area allocations (an actual allocation). While hi > (1+ε₂)·lo,
//! D((lo+hi)/2) moves hi (success) or lo (failure: then no allocation reaches L ≤ mid). At the
//! end the best allocation seen has L ≤ (1+ε₁)·hi ≤ (1+ε₁)(1+ε₂)·lo ≤ (1+ε)·min_p L — Lemma 3.
//! The test `lemma3_against_brute_force` checks it against full enumeration on small batches.
//!
//! **State space.** Per chain, K + 1 budgets × g attempts × at most K + 1 items, independent
//! of P (P enters only through the frontier, precomputed once per job and binary-searched);
//! with g = 1 (the first batch) the DP is one binary search per job. The number of bisection
//! steps is log2((hi−lo)/(ε₂·lo)).
//!
//! Within a chain the attempts use the DP's counts in non-decreasing order (least area first):
//! early attempts run while the batch is crowded, later ones, if needed at all, when it drains.
//!
//! # One count per chain ([`ChainCounts::Uniform`])
//! A second reading gives all g attempts of a chain the same count. The paper's own worked
//! example (Section 4.7, batch 2) allots J3 and J4 one count each for both attempts, with L = 6,
//! where per-attempt counts reach 23/4; and Theorem 11's proof applies Lemma 1 inside a batch,
//! which needs a single count per job (Lemma 1 fails when a job's count changes between its
//! attempts: see [`super::list`]). With one count per chain the decision is exact and cheap:
//! D(X) gives each chain the least-area p with g·t(p) ≤ X (a binary search on the frontier)
//! and succeeds iff the areas sum to at most P·X, i.e. iff some uniform allocation has
//! L ≤ X. The same bisection, stopped when hi ≤ (1+ε)·lo, returns an allocation with
//! L ≤ (1+ε)·min L over uniform allocations — Lemma 3's guarantee with the minimum taken over
//! uniform allocations. Its cost does not grow with g, where the per-attempt DP's state grows as
//! g² (g reaches 256 at λ = 10^−6 in the moldable paper's Figure 5(c)).
use super::eps::Eps;
use crate::bounds::moldable::{chains_bound, frontier, MoldBound};
use crate::error::{Error, Result};
use crate::model::Instance;
use crate::time::Time;

/// The result of MT-ALLOTMENT for a set of chains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allotment {
    /// `alloc[i]` lists the counts of the attempts of the i-th chain, in order.
    pub alloc: Vec<Vec<u32>>,
    /// L of that allocation (Eq. 8 over the chains).
    pub bound: MoldBound,
    /// The lower end of the final search interval: lo ≤ min_p L, and bound.lower ≤ (1+ε)·lo.
    pub lower: Time,
    /// Number of decisions D(X) evaluated.
    pub decisions: u32,
}

/// How the attempts of one chain may be allotted (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChainCounts {
    /// A count per attempt (sub-job), as Lemma 3 is stated.
    #[default]
    PerAttempt,
    /// One count for all the attempts of a chain, as the paper's Section 4.7 example does.
    Uniform,
}

/// MT-ALLOTMENT with the per-job Pareto frontiers cached (a batch scheduler calls it for every
/// batch on the same instance).
/// The cache belongs to one instance: always pass the same instance to [`MtAllotment::allot`].
#[derive(Debug, Clone, Default)]
pub struct MtAllotment {
    frontiers: Vec<Option<Vec<(u32, Time, Time)>>>,
    counts: ChainCounts,
}

impl MtAllotment {
    /// An allotter with a count per attempt (frontiers are computed on first use).
    pub fn new() -> MtAllotment {
        MtAllotment::with_counts(ChainCounts::PerAttempt)
    }

    /// An allotter with the given chain rule.
    pub fn with_counts(counts: ChainCounts) -> MtAllotment {
        MtAllotment {
            frontiers: Vec::new(),
            counts,
        }
    }

    fn frontier(&mut self, inst: &Instance, j: usize) -> &[(u32, Time, Time)] {
        if self.frontiers.len() != inst.len() {
            self.frontiers = vec![None; inst.len()];
        }
        self.frontiers[j].get_or_insert_with(|| frontier(inst, j))
    }

    /// Allocates the chains `chains` = (job, number of attempts g ≥ 1) of `inst` with
    /// L ≤ (1+ε)·min L.
    pub fn allot(
        &mut self,
        inst: &Instance,
        chains: &[(usize, u32)],
        eps: &Eps,
    ) -> Result<Allotment> {
        let eps = eps.get();
        if chains.is_empty() {
            return Ok(Allotment {
                alloc: Vec::new(),
                bound: MoldBound {
                    tmax: Time::zero(),
                    area: Time::zero(),
                    lower: Time::zero(),
                },
                lower: Time::zero(),
                decisions: 0,
            });
        }
        self.check_chains(inst, chains)?;
        // ε₁ = ε₂ = min(ε/3, 1) (module doc); 3 is a non-zero constant divisor.
        let e = (eps / &Time::from_int(3)).min(Time::one());
        let (lo, best) = self.search_interval(inst, chains)?;
        // Per-attempt: D(X) rounds, so the search stops at (1+ε₂)·lo (ε₂ = ε/3, module doc).
        // Uniform: D(X) is exact, so the search may stop at (1+ε)·lo.
        let one_e = match self.counts {
            ChainCounts::PerAttempt => &Time::one() + &e,
            ChainCounts::Uniform => &Time::one() + eps,
        };
        self.bisect(inst, chains, &e, &one_e, lo, best)
    }

    /// Every chain names a job of `inst` with at least one attempt and one processor count.
    fn check_chains(&mut self, inst: &Instance, chains: &[(usize, u32)]) -> Result<()> {
        for &(j, g) in chains {
            if j >= inst.len() || g == 0 {
                return Err(Error::Limit(format!(
                    "MT-ALLOTMENT: chain ({j}, {g}) names no job or no attempt"
                )));
            }
            if self.frontier(inst, j).is_empty() {
                return Err(Error::Limit(format!(
                    "MT-ALLOTMENT: job {j} has no processor count"
                )));
            }
        }
        Ok(())
    }

    /// The search's start: lo = L' of the chains (≤ min L), and the better of the least-time
    /// and the least-area allocations (its L is the first hi).
    fn search_interval(
        &mut self,
        inst: &Instance,
        chains: &[(usize, u32)],
    ) -> Result<(Time, Evaluated)> {
        let mut tl = Time::zero();
        let mut al = Time::zero();
        let mut fast: Vec<Vec<u32>> = Vec::with_capacity(chains.len());
        let mut small: Vec<Vec<u32>> = Vec::with_capacity(chains.len());
        for &(j, g) in chains {
            let fr = self.frontier(inst, j);
            let (pf, tf, _) = &fr[fr.len() - 1];
            let (ps, _, asm) = &fr[0];
            tl = tl.max(tf.mul_int(u64::from(g)));
            al += asm.mul_int(u64::from(g));
            fast.push(vec![*pf; g as usize]);
            small.push(vec![*ps; g as usize]);
        }
        let area = al.div_int(u64::from(inst.procs)).ok_or_else(|| {
            Error::Limit("MT-ALLOTMENT: the platform has no processor (P = 0)".into())
        })?;
        let mut best = evaluate(inst, chains, fast)?;
        let other = evaluate(inst, chains, small)?;
        if other.1.lower < best.1.lower {
            best = other;
        }
        Ok((tl.max(area), best))
    }

    /// The bisection on X between lo and the L of `best` until hi ≤ `one_e`·lo, keeping the
    /// best allocation seen (module doc, "Search").
    fn bisect(
        &mut self,
        inst: &Instance,
        chains: &[(usize, u32)],
        e: &Time,
        one_e: &Time,
        mut lo: Time,
        mut best: Evaluated,
    ) -> Result<Allotment> {
        let mut hi = best.1.lower.clone();
        let two = Time::from_int(2);
        let mut decisions = 0;
        // Try lo itself first: it succeeds whenever the lower bound is tight.
        let mut probe = Some(lo.clone());
        while hi > one_e * &lo {
            let x = match probe.take() {
                Some(x) => x,
                None => &(&lo + &hi) / &two,
            };
            decisions += 1;
            match self.decide(inst, chains, &x, e)? {
                Some(alloc) => {
                    let cand = evaluate(inst, chains, alloc)?;
                    if cand.1.lower < best.1.lower {
                        best = cand;
                    }
                    hi = x;
                }
                None => lo = x,
            }
        }
        let (alloc, bound) = best;
        Ok(Allotment {
            alloc,
            bound,
            lower: lo,
            decisions,
        })
    }

    /// D(X): an allocation with t_max ≤ (1+ε₁)X and A ≤ P·X, or `None` if some p with L(p) ≤ X
    /// cannot exist.
    fn decide(
        &mut self,
        inst: &Instance,
        chains: &[(usize, u32)],
        x: &Time,
        e: &Time,
    ) -> Result<Option<Vec<Vec<u32>>>> {
        let cap = x.mul_int(u64::from(inst.procs));
        let mut area = Time::zero();
        let mut out = Vec::with_capacity(chains.len());
        let counts = self.counts;
        for &(j, g) in chains {
            let (ps, a) = {
                let fr = self.frontier(inst, j);
                let best = match counts {
                    ChainCounts::PerAttempt => chain_dp(fr, g, x, e)?,
                    ChainCounts::Uniform => chain_uniform(fr, g, x),
                };
                match best {
                    Some(v) => v,
                    None => return Ok(None),
                }
            };
            area += &a;
            if area > cap {
                return Ok(None);
            }
            out.push(ps);
        }
        Ok(Some(out))
    }
}

/// An allocation of the chains with its L.
type Evaluated = (Vec<Vec<u32>>, MoldBound);

fn evaluate(inst: &Instance, chains: &[(usize, u32)], alloc: Vec<Vec<u32>>) -> Result<Evaluated> {
    let pairs: Vec<(usize, Vec<u32>)> = chains
        .iter()
        .map(|c| c.0)
        .zip(alloc.iter().cloned())
        .collect();
    let b = chains_bound(inst, &pairs)
        .ok_or_else(|| Error::Limit("MT-ALLOTMENT: internal allocation not allowed".into()))?;
    Ok((alloc, b))
}

/// One count for the `g` attempts of a job: the least-area frontier point with g·t ≤ x (exact;
/// module doc). `fr` is the job's frontier: p increasing, t decreasing, area increasing.
fn chain_uniform(fr: &[(u32, Time, Time)], g: u32, x: &Time) -> Option<(Vec<u32>, Time)> {
    let g64 = u64::from(g);
    let i = fr.partition_point(|(_, t, _)| t.mul_int(g64) > *x);
    let (p, _, a) = fr.get(i)?;
    Some((vec![*p; g as usize], a.mul_int(g64)))
}

/// Least-area allocation of a chain of `g` attempts of one job with rounded time within budget
/// (module doc). `fr` is the job's frontier: p increasing, t decreasing, area increasing.
/// `Ok(None)`: the chain does not fit; an error when K does not fit the DP's index type.
fn chain_dp(
    fr: &[(u32, Time, Time)],
    g: u32,
    x: &Time,
    e: &Time,
) -> Result<Option<(Vec<u32>, Time)>> {
    let g64 = u64::from(g);
    // The unit of rounded time u = e·X/g (g ≥ 1: `check_chains`).
    let u = &(e * x) / &Time::from(g);
    // K = ⌊g(1+e)/e⌋ units; K ≥ g ≥ 1.
    let kbig = (&(&Time::one() + e).mul_int(g64) / e).floor();
    let k = u32::try_from(&kbig)
        .ok()
        .and_then(|k| usize::try_from(k).ok())
        .ok_or_else(|| {
            Error::Limit(format!(
                "MT-ALLOTMENT: a chain of {g} attempts needs K = {kbig} time units with ε/3 = {e}, \
                 beyond {}: use a larger `eps`",
                u32::MAX
            ))
        })?;
    // First frontier index whose time is ≤ c·u (least area among those that fit c units).
    let first_fit = |c: usize| {
        let lim = u.mul_int(c as u64);
        fr.partition_point(|(_, t, _)| *t > lim)
    };
    if g == 1 {
        let i = first_fit(k);
        return Ok(fr.get(i).map(|(p, _, a)| (vec![*p], a.clone())));
    }
    // Items: (units, frontier index) where the least area changes as the budget grows. Each
    // item's cost is its rounded time ⌈t/u⌉; scan c = 1..=k with early exit once the
    // least-area point (index 0) fits.
    let mut items: Vec<(usize, usize)> = Vec::new();
    let mut last = fr.len();
    for c in 1..=k {
        let i = first_fit(c);
        if i < last {
            items.push((c, i));
            last = i;
            if i == 0 {
                break;
            }
        }
    }
    if items.is_empty() {
        return Ok(None);
    }
    knapsack(fr, g, k, &items)
}

/// The DP of [`chain_dp`]: `g` attempts, each one of `items` (units, frontier index, in
/// increasing units), at most `k` units in all, least total area; ties to the fewest units.
fn knapsack(
    fr: &[(u32, Time, Time)],
    g: u32,
    k: usize,
    items: &[(usize, usize)],
) -> Result<Option<(Vec<u32>, Time)>> {
    // dp[b] = least area of m attempts using exactly b units; choice[m][b] = item.
    let mut dp: Vec<Option<Time>> = vec![None; k + 1];
    dp[0] = Some(Time::zero());
    let mut choice: Vec<Vec<u32>> = Vec::with_capacity(g as usize);
    for _ in 0..g {
        let mut next: Vec<Option<Time>> = vec![None; k + 1];
        let mut ch: Vec<u32> = vec![u32::MAX; k + 1];
        for (b, cur) in dp.iter().enumerate() {
            let Some(cur) = cur else { continue };
            // items.len() ≤ fr.len() ≤ P ≤ MAX_PROCS < 2^32: the index fits u32.
            for (it, &(c, i)) in items.iter().enumerate() {
                let nb = b + c;
                if nb > k {
                    break; // items are in increasing cost
                }
                let cand = cur + &fr[i].2;
                if next[nb].as_ref().is_none_or(|n| cand < *n) {
                    next[nb] = Some(cand);
                    ch[nb] = it as u32;
                }
            }
        }
        dp = next;
        choice.push(ch);
    }
    let Some((mut b, area)) = dp
        .iter()
        .enumerate()
        .filter_map(|(b, a)| a.as_ref().map(|a| (b, a)))
        .min_by(|x, y| x.1.cmp(y.1).then(x.0.cmp(&y.0)))
    else {
        return Ok(None);
    };
    let area = area.clone();
    let mut ps: Vec<u32> = Vec::with_capacity(g as usize);
    for m in (0..g as usize).rev() {
        // A reached state was reached by some item, so its choice is set.
        let Some(&(c, i)) = items.get(choice[m][b] as usize) else {
            return Err(Error::Limit(format!(
                "MT-ALLOTMENT: internal: DP state ({m}, {b}) has no recorded choice"
            )));
        };
        ps.push(fr[i].0);
        b -= c;
    }
    ps.sort_unstable();
    Ok(Some((ps, area)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::moldable::lstar_exact;
    use crate::model::Scenario;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// min over every allocation of every attempt, by full enumeration (independent of the
    /// Pareto reasoning of `lstar_exact`).
    fn brute(inst: &Instance, chains: &[(usize, u32)]) -> Time {
        let slots: Vec<usize> = chains
            .iter()
            .flat_map(|&(j, g)| std::iter::repeat_n(j, g as usize))
            .collect();
        let p = inst.procs;
        let total = (p as u64).pow(slots.len() as u32);
        let mut best: Option<Time> = None;
        for code in 0..total {
            let mut c = code;
            let mut alloc: Vec<Vec<u32>> = chains.iter().map(|_| Vec::new()).collect();
            let mut k = 0;
            for (ci, &(_, g)) in chains.iter().enumerate() {
                for _ in 0..g {
                    alloc[ci].push((c % p as u64) as u32 + 1);
                    c /= p as u64;
                    k += 1;
                }
            }
            debug_assert_eq!(k, slots.len());
            let pairs: Vec<(usize, Vec<u32>)> = chains.iter().map(|c| c.0).zip(alloc).collect();
            let l = chains_bound(inst, &pairs).unwrap().lower;
            if best.as_ref().is_none_or(|b| l < *b) {
                best = Some(l);
            }
        }
        best.unwrap()
    }

    fn random_instance(rng: &mut ChaCha8Rng, procs: u32, n: usize) -> Instance {
        let jobs: Vec<String> = (0..n)
            .map(|_| {
                let times: Vec<String> = (0..procs)
                    .map(|_| {
                        format!(
                            "\"{}/{}\"",
                            rng.random_range(1..40u32),
                            rng.random_range(1..5u32)
                        )
                    })
                    .collect();
                format!(
                    r#"{{"speedup": {{"model": "arbitrary", "times": [{}]}}}}"#,
                    times.join(",")
                )
            })
            .collect();
        Instance::from_json_str(
            &format!(r#"{{"processors": {procs}, "jobs": [{}]}}"#, jobs.join(",")),
            "random",
        )
        .unwrap()
    }

    /// Lemma 3: L(p) ≤ (1+ε)·min_p L, against brute force, for several ε and chain lengths.
    #[test]
    fn lemma3_against_brute_force() {
        for seed in 0..40u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let procs = rng.random_range(1..=4u32);
            let n = rng.random_range(1..=3usize);
            let inst = random_instance(&mut rng, procs, n);
            let chains: Vec<(usize, u32)> =
                (0..n).map(|j| (j, rng.random_range(1..=2u32))).collect();
            let opt = brute(&inst, &chains);
            let sc = Scenario::new(chains.iter().map(|c| c.1 - 1).collect());
            assert_eq!(
                lstar_exact(&inst, &sc, 10_000).unwrap().0,
                opt,
                "seed {seed}: lstar_exact vs brute force"
            );
            for eps in ["1/100", "3/10", "1", "5"] {
                let eps: Time = eps.parse().unwrap();
                let a = MtAllotment::new()
                    .allot(&inst, &chains, &Eps::new(eps.clone()).unwrap())
                    .unwrap();
                assert!(
                    a.bound.lower <= &(&Time::one() + &eps) * &opt,
                    "seed {seed} ε={eps}: L={} opt={opt} ({inst:?})",
                    a.bound.lower
                );
                assert!(
                    a.lower <= opt,
                    "seed {seed}: lo {} above min L {opt}",
                    a.lower
                );
                for (c, ps) in chains.iter().zip(&a.alloc) {
                    assert_eq!(ps.len(), c.1 as usize);
                }
            }
        }
    }

    /// The uniform rule: every chain gets one count, and L ≤ (1+ε)·min L over uniform
    /// allocations (brute force over one count per chain); never below the per-attempt optimum.
    #[test]
    fn lemma3_uniform_against_brute_force() {
        for seed in 0..40u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let procs = rng.random_range(1..=5u32);
            let n = rng.random_range(1..=3usize);
            let inst = random_instance(&mut rng, procs, n);
            let chains: Vec<(usize, u32)> =
                (0..n).map(|j| (j, rng.random_range(1..=3u32))).collect();
            let mut opt: Option<Time> = None;
            for code in 0..(procs as u64).pow(n as u32) {
                let mut c = code;
                let pairs: Vec<(usize, Vec<u32>)> = chains
                    .iter()
                    .map(|&(j, g)| {
                        let p = (c % procs as u64) as u32 + 1;
                        c /= procs as u64;
                        (j, vec![p; g as usize])
                    })
                    .collect();
                let l = chains_bound(&inst, &pairs).unwrap().lower;
                if opt.as_ref().is_none_or(|o| l < *o) {
                    opt = Some(l);
                }
            }
            let opt = opt.unwrap();
            for eps in ["1/100", "3/10", "1"] {
                let eps: Time = eps.parse().unwrap();
                let a = MtAllotment::with_counts(ChainCounts::Uniform)
                    .allot(&inst, &chains, &Eps::new(eps.clone()).unwrap())
                    .unwrap();
                assert!(
                    a.bound.lower <= &(&Time::one() + &eps) * &opt && a.lower <= opt,
                    "seed {seed} ε={eps}: L={} lo={} opt={opt} ({inst:?})",
                    a.bound.lower,
                    a.lower
                );
                for (c, ps) in chains.iter().zip(&a.alloc) {
                    assert_eq!(ps.len(), c.1 as usize, "seed {seed}");
                    assert!(ps.iter().all(|p| *p == ps[0]), "seed {seed}: {ps:?}");
                }
            }
            assert!(brute(&inst, &chains) <= opt, "seed {seed}");
        }
    }
}
