//! The *lane* bound of wide jobs, at the root and at every node of the exact search
//! ([`super::search`], rule 3): a non-preemptive, integral refinement of the DFF energy bound
//! F_1 of [`super::bounds`] for the jobs of which at most two run side by side.
//!
//! # The argument
//! Let S be a set of jobs such that any three of them have smallest widths summing above P:
//! at no instant do three attempts of S run together. The attempts of S, as time intervals,
//! form an interval graph whose cliques have at most two members; interval graphs are perfect,
//! so they can be coloured with two colours — two *lanes*, each a sequence of disjoint
//! intervals. Split S into the *solo* jobs Z (each exclusive with every other member: its width
//! plus the smallest other width of S exceeds P, so nothing else of S runs beside it) and the
//! rest Q. While a solo attempt runs, neither lane holds anything else. So from the node's
//! instant t to the makespan T,
//!
//!   T − t ≥ e + (r_i − t) + load_i   for both lanes i,
//!
//! where e is the solo jobs' remaining time (running remainder plus f·d per attempt left),
//! r_i the end of the attempt of Q running in lane i at t (t when none), and load_i the total
//! duration of the not-yet-started attempts of Q that the colouring put in lane i. The loads
//! are sums of a split of those attempts into two parts, each attempt lasting at least its
//! job's shortest option, so
//!
//!   T ≥ e + min over subsets X of the attempts left of max(r_1 + d(X), r_2 + d(rest)),
//!
//! a two-machine partition, solved exactly by a subset-sum bitset. Where the energy bound F_1
//! counts the two lanes as one fluid half-capacity, this one knows that whole attempts may not
//! fill both lanes to the same instant (e.g. width-2 attempts of 7, 7, 7, 9, 8, 8, 8 on P = 4
//! sum to 54 = 2·27, but no subset sums to 26, 27 or 28: T ≥ 29 from them alone).
//!
//! # Which sets
//! Any set with the property gives a valid bound; which sets are tried is a choice of strength
//! and cost. We take the maximal ones: for each pair m₁ ≤ m₂ of jobs (by smallest width, ties
//! by index) as the two narrowest members,
//! S = {m₁, m₂} ∪ {j above m₂ : w_{m₁} + w_{m₂} + w_j > P}. Any three members then sum above P: a triple's widest member j is above m₂ (or is m₂
//! with m₁ beside it), and its two others weigh at least w_{m₁} + w_{m₂}, so the triple weighs
//! at least w_{m₁} + w_{m₂} + w_j > P. Sets with fewer than two non-solo members are the clique
//! bound's business and are skipped; duplicates are dropped. Widths are each job's smallest
//! option and durations its shortest, so moldable jobs are covered too (a wider or longer
//! option only strengthens both premises).
//!
//! A set A is dropped when another set B *covers* it: every solo job of A is solo in B and
//! every other member of A is a member of B. B's bound is then at least A's at every node:
//! a job added to the lanes never lowers the best split's finish (more load, or a later ready
//! time) and raises it by at most the job's remaining time (its running remainder and its
//! attempts, put after the lane it would have had), which B counts in full when it is solo
//! there. (Past [`MAX_SUM`] the fluid fallback may leave B below A: a weaker bound, never a
//! wrong one.) Many of the (m₁, m₂) sets are covered by a larger one (the node bound evaluates
//! every set kept, so each one dropped is time saved at every node).
//!
//! # Cost
//! The partition term is a bitset of reachable sums over the remaining durations; a set whose
//! remaining total exceeds [`MAX_SUM`] scaled units (fine rational times) falls back to the
//! fluid value ⌈(r_1 + r_2 + R)/2⌉, which is still a bound.
use super::problem::{Int, IntProblem};

/// Largest remaining total of a lane set for which the exact partition is computed.
pub const MAX_SUM: Int = 1 << 14;

/// One set of jobs of which at most two attempts ever run together.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LaneSet {
    /// Jobs exclusive with every other member (they stop both lanes while they run).
    pub solo: u64,
    /// The other members: their attempts share the two lanes.
    pub pair: u64,
}

/// The maximal lane sets of `prob` that no other one covers (see the module documentation,
/// "Which sets").
pub fn lane_sets(prob: &IntProblem) -> Vec<LaneSet> {
    drop_covered(maximal_sets(prob))
}

/// The maximal lane sets of `prob`, one per pair (m₁, m₂), duplicates dropped.
fn maximal_sets(prob: &IntProblem) -> Vec<LaneSet> {
    let n = prob.jobs.len().min(64);
    let cap = Int::from(prob.procs);
    let w: Vec<Int> = prob.jobs[..n]
        .iter()
        .map(|j| Int::from(j.min_procs))
        .collect();
    let below = |a: usize, b: usize| (w[a], a) < (w[b], b);
    let mut out: Vec<LaneSet> = Vec::new();
    for m1 in 0..n {
        for m2 in 0..n {
            if m1 == m2 || !below(m1, m2) {
                continue;
            }
            let mut members = vec![m1, m2];
            members.extend((0..n).filter(|&j| below(m2, j) && w[m1] + w[m2] + w[j] > cap));
            if members.len() < 3 {
                continue;
            }
            let (mut solo, mut pair) = (0u64, 0u64);
            for &j in &members {
                // The narrowest other member: m₁, or m₂ for m₁ itself.
                let other = if j == m1 { w[m2] } else { w[m1] };
                if w[j] + other > cap {
                    solo |= 1 << j;
                } else {
                    pair |= 1 << j;
                }
            }
            let set = LaneSet { solo, pair };
            if pair.count_ones() >= 2 && !out.contains(&set) {
                out.push(set);
            }
        }
    }
    out
}

/// `sets` without those another one covers (see "Which sets"): their bound is never the larger.
fn drop_covered(sets: Vec<LaneSet>) -> Vec<LaneSet> {
    let covered = |a: &LaneSet, b: &LaneSet| {
        a != b && a.solo & !b.solo == 0 && a.pair & !(b.solo | b.pair) == 0
    };
    sets.iter()
        .filter(|a| !sets.iter().any(|b| covered(a, b)))
        .cloned()
        .collect()
}

/// A node's per-job quantities that every lane set reads, computed once per node: each job's
/// remaining attempt time, its time as a solo member (its running remainder too), and which
/// jobs run or have attempts left.
pub struct Node<'a> {
    end: &'a [Int],
    rem: &'a [u32],
    min_dur: &'a [Int],
    t: Int,
    left: [Int; 64],
    solo: [Int; 64],
    running: u64,
    pending: u64,
}

impl<'a> Node<'a> {
    /// The node of instant `t`: `end[j]` the end of job j's running attempt (≤ t when idle),
    /// `rem[j]` its attempts not yet started, `min_dur[j]` its shortest attempt (64 jobs at
    /// most are read).
    pub fn new(end: &'a [Int], rem: &'a [u32], min_dur: &'a [Int], t: Int) -> Node<'a> {
        let mut node = Node {
            end,
            rem,
            min_dur,
            t,
            left: [0; 64],
            solo: [0; 64],
            running: 0,
            pending: 0,
        };
        for j in 0..end.len().min(64) {
            node.left[j] = Int::from(rem[j]) * min_dur[j];
            node.solo[j] = node.left[j] + (end[j] - t).max(0);
            node.running |= u64::from(end[j] > t) << j;
            node.pending |= u64::from(rem[j] > 0) << j;
        }
        node
    }
}

/// What the bound needs of a node for one set: the solo time e, the lanes' ready times, the
/// pair members' remaining total R and their longest attempt left.
struct Gathered {
    e: Int,
    r: [Int; 2],
    total: Int,
    dmax: Int,
}

/// Bits of `x` one at a time, lowest first.
fn bits(mut x: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let j = x.trailing_zeros() as usize;
            x &= x - 1;
            j
        })
    })
}

fn gather(set: &LaneSet, node: &Node) -> Gathered {
    let n = node.end.len().min(64);
    let within = if n == 64 { u64::MAX } else { (1 << n) - 1 };
    let (solo, pair) = (set.solo & within, set.pair & within);
    let mut g = Gathered {
        e: bits(solo).map(|j| node.solo[j]).sum(),
        r: [node.t, node.t],
        total: bits(pair).map(|j| node.left[j]).sum(),
        dmax: bits(pair & node.pending)
            .map(|j| node.min_dur[j])
            .max()
            // default: no member has an attempt left, so no attempt is left to place (0).
            .unwrap_or(0),
    };
    // The ready times of the two lanes: the first running member's end, and the latest end
    // of the others. At most two members of a lane set run at once (feasibility); were there
    // a third, keeping the later end would still under-count, never over-count.
    let run = pair & node.running;
    if run != 0 {
        g.r[0] = node.end[run.trailing_zeros() as usize];
        if let Some(r1) = bits(run & (run - 1)).map(|j| node.end[j]).max() {
            g.r[1] = r1;
        }
    }
    g
}

/// The lane bound of one set at instant `t` (see the module documentation), from the node's
/// per-job state: `end[j]` the end of job j's running attempt (≤ t when idle), `rem[j]` its
/// attempts not yet started, `min_dur[j]` its shortest attempt.
pub fn lane_bound(set: &LaneSet, end: &[Int], rem: &[u32], min_dur: &[Int], t: Int) -> Int {
    let node = Node::new(end, rem, min_dur, t);
    let g = gather(set, &node);
    g.e + partition(set.pair, rem, min_dur, g.r, g.total)
}

/// True when [`lane_bound`] ≥ `ub`, skipping the subset sums when it cannot be: putting each
/// attempt on the lane that is free first (list scheduling) ends by max(hi, (lo + hi + R +
/// d_max)/2) — the last attempt placed starts by the average (lo + hi + R − d)/2 — and the
/// best split is no later.
pub fn lane_cuts(
    set: &LaneSet,
    end: &[Int],
    rem: &[u32],
    min_dur: &[Int],
    t: Int,
    ub: Int,
) -> bool {
    node_cuts(set, &Node::new(end, rem, min_dur, t), ub)
}

/// [`lane_cuts`] from a node's summary, built once for all the sets of a node.
pub fn node_cuts(set: &LaneSet, node: &Node, ub: Int) -> bool {
    let g = gather(set, node);
    let (lo, hi) = (g.r[0].min(g.r[1]), g.r[0].max(g.r[1]));
    let list = hi.max((lo + hi + g.total + g.dmax) / 2);
    if g.e + list < ub {
        return false;
    }
    g.e + partition(set.pair, node.rem, node.min_dur, g.r, g.total) >= ub
}

/// min over splits of the remaining attempts of `pair` of max(r₀ + part₀, r₁ + part₁).
fn partition(pair: u64, rem: &[u32], min_dur: &[Int], r: [Int; 2], total: Int) -> Int {
    let (lo, hi) = if r[0] <= r[1] {
        (r[0], r[1])
    } else {
        (r[1], r[0])
    };
    // The fluid value: the two lanes level out at (lo + hi + R)/2, but never below hi.
    let fluid = hi.max((lo + hi + total + 1) / 2);
    if total > MAX_SUM || total == 0 {
        return if total == 0 { hi } else { fluid };
    }
    // Put a subset of sum s on the lane free at lo: max(lo + s, hi + R − s), minimised over
    // every reachable sum s.
    // A small buffer when the sums are short (most nodes): zeroing the large one costs more
    // than the subset sums themselves.
    let mut small = [0u64; 16];
    let mut large;
    let words = total as usize / 64 + 1;
    let reach = if words <= small.len() {
        &mut small[..words]
    } else {
        large = [0u64; MAX_SUM as usize / 64 + 1];
        &mut large[..words]
    };
    reach[0] = 1;
    for j in 0..rem.len().min(64) {
        if pair >> j & 1 == 0 || min_dur[j] <= 0 {
            continue;
        }
        for _ in 0..rem[j] {
            shift_or(reach, min_dur[j] as usize);
        }
    }
    let mut best = Int::MAX;
    for (wi, &word) in reach.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let b = bits.trailing_zeros() as Int;
            bits &= bits - 1;
            let s = wi as Int * 64 + b;
            best = best.min((lo + s).max(hi + total - s));
        }
    }
    best.max(fluid)
}

/// reach |= reach << k (bit i set: a subset sums to i), within the vector's length.
fn shift_or(reach: &mut [u64], k: usize) {
    let (ws, bs) = (k / 64, k % 64);
    for i in (0..reach.len()).rev() {
        if i < ws {
            break;
        }
        let mut v = reach[i - ws] << bs;
        if bs > 0 && i > ws {
            v |= reach[i - ws - 1] >> (64 - bs);
        }
        reach[i] |= v;
    }
}

#[cfg(test)]
mod tests {
    use super::super::problem::rigid_for_tests as prob;
    use super::*;

    /// The root state: (end, rem, min_dur) per job.
    fn root(p: &IntProblem) -> (Vec<Int>, Vec<u32>, Vec<Int>) {
        let rem = p.jobs.iter().map(|j| j.attempts).collect();
        let dur = p.jobs.iter().map(|j| j.min_dur).collect();
        (vec![0; p.jobs.len()], rem, dur)
    }

    #[test]
    fn the_example_of_the_doc_needs_29() {
        // Width-2 attempts 7, 7, 7, 9, 8, 8, 8 on P = 4 (jobs of 7 and 8 failing twice): sum
        // 54, but no subset sums to 26, 27 or 28 (7a + 8b + 9c): the best split is 29 / 25.
        let p = prob(4, &[(2, 7), (2, 9), (2, 8)], vec![2, 0, 2]);
        let sets = lane_sets(&p);
        assert_eq!(
            sets,
            vec![LaneSet {
                solo: 0,
                pair: 0b111
            }]
        );
        let (end, rem, dur) = root(&p);
        assert_eq!(lane_bound(&sets[0], &end, &rem, &dur, 0), 29);
    }

    #[test]
    fn solo_jobs_stop_both_lanes() {
        // P = 8: widths 3, 3, 3 pair up; width 6 is exclusive with all (6 + 3 > 8) and runs alone.
        // Lanes: 5 + 5 | 5 → 10; plus 4 of the solo job: 14.
        let p = prob(8, &[(3, 5), (3, 5), (3, 5), (6, 4)], vec![0, 0, 0, 0]);
        let sets = lane_sets(&p);
        assert!(sets.contains(&LaneSet {
            solo: 0b1000,
            pair: 0b0111
        }));
        let (end, rem, dur) = root(&p);
        let best = sets
            .iter()
            .map(|s| lane_bound(s, &end, &rem, &dur, 0))
            .max()
            .unwrap();
        assert_eq!(best, 14);
    }

    #[test]
    fn running_attempts_hold_their_lanes() {
        // Two width-2 jobs running until 10 and 3 at t = 2 on P = 4, a third with 2 attempts
        // of 4 left: both go to the lane free at 3 (3 + 8 = 11 > 10) or one each (10 + 4 = 14):
        // the bound is 11.
        let p = prob(4, &[(2, 8), (2, 1), (2, 4)], vec![0, 0, 1]);
        let (mut end, mut rem, dur) = root(&p);
        (end[0], rem[0], end[1], rem[1]) = (10, 0, 3, 0);
        let sets = lane_sets(&p);
        assert_eq!(lane_bound(&sets[0], &end, &rem, &dur, 2), 11);
    }

    /// Brute force: the least makespan of the items on two machines from ready times r.
    fn brute(items: &[Int], r: [Int; 2]) -> Int {
        (0..1u32 << items.len())
            .map(|m| {
                let a: Int = (0..items.len())
                    .filter(|&i| m >> i & 1 == 1)
                    .map(|i| items[i])
                    .sum();
                let b: Int = items.iter().sum::<Int>() - a;
                (r[0] + a).max(r[1] + b)
            })
            .min()
            .unwrap()
    }

    #[test]
    fn partition_matches_brute_force() {
        let mut next = crate::opt::draws(11);
        for case in 0..500 {
            let n = 1 + next(5) as usize;
            let dur: Vec<Int> = (0..n).map(|_| 1 + next(40) as Int).collect();
            let rem: Vec<u32> = (0..n).map(|_| next(3) as u32).collect();
            let r = [next(30) as Int, next(30) as Int];
            let items: Vec<Int> = (0..n)
                .flat_map(|j| std::iter::repeat_n(dur[j], rem[j] as usize))
                .collect();
            let total = items.iter().sum();
            let all = (1u64 << n) - 1;
            assert_eq!(
                partition(all, &rem, &dur, r, total),
                brute(&items, r),
                "case {case} (seed 11): {items:?} from {r:?}"
            );
            // The list-scheduling shortcut of `lane_cuts` never skips a cut.
            let set = LaneSet { solo: 0, pair: all };
            let end = vec![0 as Int; n];
            let b = lane_bound(&set, &end, &rem, &dur, 0);
            for ub in b - 3..=b + 3 {
                assert_eq!(
                    lane_cuts(&set, &end, &rem, &dur, 0, ub),
                    b >= ub,
                    "case {case}"
                );
            }
        }
    }

    #[test]
    fn narrow_jobs_make_no_set() {
        // Widths 1 on P = 3: three run together, so no lane set.
        let p = prob(3, &[(1, 2), (1, 3), (1, 4)], vec![0, 0, 0]);
        assert!(lane_sets(&p).is_empty());
    }

    #[test]
    fn shift_or_across_words() {
        let mut r = vec![0u64; 3];
        r[0] = 1 | 1 << 63;
        shift_or(&mut r, 70);
        // Bit 0 moves to 70 (word 1, bit 6), bit 63 to 133 (word 2, bit 5).
        assert_eq!(r, vec![1 | 1 << 63, 1 << 6, 1 << 5]);
    }

    #[test]
    fn dropping_covered_sets_keeps_the_bound() {
        // Random rigid problems and node states (running attempts that fit side by side, any
        // attempts left): the best bound over the sets kept equals the best over all maximal
        // sets, and some sets are dropped at all.
        use rand::{RngExt, SeedableRng};
        let mut dropped = 0;
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let procs: u32 = rng.random_range(4..=16);
            let n: usize = rng.random_range(3..=10);
            let jobs: Vec<(u32, Int)> = (0..n)
                .map(|_| (rng.random_range(1..=procs), rng.random_range(1..=10)))
                .collect();
            let fails: Vec<u32> = (0..n).map(|_| rng.random_range(0..=2)).collect();
            let p = prob(procs, &jobs, fails);
            let all = maximal_sets(&p);
            let kept = lane_sets(&p);
            assert!(kept.iter().all(|k| all.contains(k)), "seed {seed}");
            dropped += all.len() - kept.len();
            let (_, _, dur) = root(&p);
            for _ in 0..20 {
                let t: Int = rng.random_range(0..=20);
                let mut free = Int::from(procs);
                let mut end = vec![0; n];
                let mut rem = vec![0; n];
                for j in 0..n {
                    let w = Int::from(p.jobs[j].min_procs);
                    if w <= free && rng.random_bool(0.4) {
                        free -= w;
                        end[j] = t + rng.random_range(1..=dur[j]);
                    }
                    rem[j] = rng.random_range(0..=p.jobs[j].attempts);
                }
                let best = |sets: &[LaneSet]| {
                    sets.iter()
                        .map(|s| lane_bound(s, &end, &rem, &dur, t))
                        .max()
                };
                assert_eq!(best(&kept), best(&all), "seed {seed}, t {t}");
            }
        }
        assert!(dropped > 0);
    }
}
