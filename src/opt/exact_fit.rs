//! The zero-slack decision of rigid instances: is there a schedule of makespan ≤ T when the
//! energy bound is met *exactly* at T (such as the rigid P = 8, A = 40 anchor questions that no
//! energy bound and no general search decides)?
//!
//! Let F be a dual feasible function (the identity, or one of [`super::bounds::energies`]'
//! Fekete–Schepers transforms) with Σ_j attempts_j·F(p_j)·t_j = F(P)·T. Every attempt set that
//! runs together has Σ F(p) ≤ F(P), so a schedule of makespan ≤ T has Σ F(p) = F(P) at *every*
//! instant of [0, T): no F-capacity is ever idle (a makespan < T is impossible, the area would
//! not fit). Such a schedule is built event by event:
//! - at the earliest instant t with free F-capacity (t = 0, or an attempt ends), the free
//!   capacity must be filled *exactly* by attempts that start at t (nothing can start later to
//!   fill the gap, since the gap would be idle meanwhile); an attempt may start when its job's
//!   previous attempt has ended, and the attempts together use at most P processors;
//! - so the search branches on the multisets of available jobs whose F-widths sum to the free
//!   capacity, and every schedule of makespan T is one leaf of it (complete).
//!
//! Pruning (each is necessary for a schedule of makespan T, so an exhausted tree is a proof):
//! a job's remaining chain (its running remainder plus its unstarted attempts) must fit in
//! T − t; every energy F_k (k ≤ min(cap, 16)) of the F-widths must fit in F_k(cap)·(T − t)
//! (the bound of [`super::bounds`] at the node: any DFF of a DFF image is again a DFF of the
//! original); jobs whose F-widths pairwise exceed the capacity run one at a time, so their
//! remaining times add up within T − t ([`super::bounds::clique`]); a job whose chain exactly
//! fills T − t must start now. These node bounds halve the nodes of the two anchor questions
//! against the chain and F_1..F_3 bounds alone. [`at_root`] bounds every question by the
//! energies of more weightings of the jobs ([`ExactFit::also`]): the processors' (F_k of the
//! widths on P) and every job energy's (F_k of its weights on W*, one per start of the ascent,
//! [`super::bounds::JobEnergy::ranked`]). Each is a measure that the jobs running side by side
//! never exceed, so what is left at t fits in it too; each leaves its own small slack at T,
//! and a branch that stays within one measure's slack often overruns another's (rigid P = 32,
//! A = 50, seed 4's job-energy question at 160: 6.5 M nodes with them all, 15 M with the
//! processors' alone, 29.5 M with neither). The
//! state (per job: attempts left, remainder of the running one) determines t (the F-area done
//! is F(P)·t), so a failed state is remembered in a table of bounded size. Jobs with the same
//! (F-width, width, duration) are interchangeable: the state is keyed by their sorted
//! (left, remainder) pairs, and among idle ones with the same attempts left the first c are
//! started, never another c of them.
//!
//! Two exact reductions shrink the question first: a job of F-width F(P) runs alone, so its
//! attempts are cut out and T shrinks by their total time (inserting them back at the start
//! turns a schedule of the rest into one of the whole); a job of F-width 0 (F maps small widths
//! to 0) is dropped, which only relaxes the question: "infeasible" stays a proof, "feasible"
//! then proves nothing ([`Answer::Feasible`] carries no schedule).
//!
//! The *bounded-slack* question ([`ExactFit::job_weighted_slack`]) asks the same of a job
//! energy E below W*·T: a schedule of makespan ≤ T then leaves the F-capacity idle for an
//! F-area of exactly S = W*·T − E in [0, T), so the search also branches on fills that leave
//! capacity idle until the next end, and cuts a branch once its idle area exceeds S. With a
//! small S (a fractional configuration LP a unit below T) this decides what the bound alone
//! cannot: [`at_root`] asks it when the incumbent is at most two steps above the bound. The
//! same question of the identity weights ([`ExactFit::rigid_slack`]: at most F(P)·T − E
//! processor-time idle) is asked before it with a small budget, for the schedules at the bound
//! it meets soon, and after it with the rest: it decides instances that have no job energy, and
//! others whose job energy's question runs out of nodes.
//!
//! *Time reversal* (the job energy's bounded-slack question): a rigid job's attempts are
//! identical, so the reflection t ↦ T − t of a schedule of makespan ≤ T is again one, whose idle
//! F-area before T/2 is the original's after T/2 (with the tail after its makespan). The two
//! halves add up to S, so one of the two schedules idles at most S/2 before T/2, and shifting
//! its attempts left never adds idle before T/2: the search may cut a branch that idles more
//! than S/2 before T/2. A failed state met before T/2 is then remembered apart from the same
//! state met after it (the cut binds only the first), each with the least idle area it failed
//! with (a later arrival at the same state is the earlier one shifted, and idles more before
//! T/2 too). The cut halves the proofs' trees (rigid P = 32, A = 50, seed 4's question at 159:
//! 2.2 M nodes instead of 4.4 M) but changes the order in which schedules are met: the search
//! meets the identity's schedules at the bound after many more nodes with it (P = 16, A = 60,
//! seed 4: none within 15 M nodes instead of one at 4.2 M), so only the job energy's question,
//! which is there for its proofs (with jobs of weight 0 left out its "feasible" proves
//! nothing), makes the cut.
//!
//! Limits: a node budget (so that answers are the same on every machine), a table size, and
//! in [`at_root`] the caller's deadline (so that the stage never outlasts the time limit of
//! [`crate::opt::solve`]); out of budget or time the answer is [`Answer::Unknown`].
use super::bounds::{fekete_schepers, FixedClique};
use super::greedy::{IntAttempt, IntSchedule};
use super::problem::{Int, IntProblem};
use num_integer::Integer;
use std::time::Instant;

/// One job of the question: a chain of `attempts` attempts of `dur`, F-width `width`, `procs`
/// processors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Chain {
    job: usize,
    width: Int,
    procs: Int,
    dur: Int,
    attempts: u32,
}

/// A zero-slack question: exact fill of F-capacity `cap` on [0, `horizon`).
#[derive(Debug, Clone)]
pub struct ExactFit {
    cap: Int,
    procs: Int,
    horizon: Int,
    /// Sorted by (F-width descending, width, duration): interchangeable jobs are adjacent.
    chains: Vec<Chain>,
    /// Per chain: the index of the first chain of its class.
    class: Vec<usize>,
    /// Jobs of F-width F(P), cut out (first, back to back, in a rebuilt schedule).
    full: Vec<Chain>,
    full_time: Int,
    /// True when jobs of F-width 0 were dropped (a relaxation).
    relaxed: bool,
    /// The F-area that may stay idle in [0, T): F(P)·T − the F-energy (0: the zero-slack
    /// question; see [`ExactFit::job_weighted_slack`]).
    slack: Int,
    /// True when a branch idling more than half the slack before T/2 is cut (time reversal).
    reflect: bool,
    /// Other weightings of the jobs whose energies bound every node too ([`ExactFit::also`]):
    /// per job a weight, and the capacity, both divided by their gcd.
    also: Vec<(Vec<Int>, Int)>,
    /// Jobs of the problem the question was built from (kept, cut out or dropped).
    jobs: usize,
}

/// The answer of [`ExactFit::decide`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A schedule of makespan ≤ T exists (= T for a zero-slack question); it is given unless
    /// the question was relaxed (then it is a schedule of the relaxation only and is not
    /// returned).
    Feasible(Option<IntSchedule>),
    /// No schedule of makespan ≤ T exists.
    Infeasible,
    /// The node budget ran out.
    Unknown,
}

/// Counters of one decision.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FitStats {
    pub nodes: u64,
    /// Failed states remembered at the end (both generations of the table).
    pub memo: usize,
    /// Deepest event reached.
    pub max_depth: usize,
    /// Attempts left in the question after the reductions.
    pub attempts: u64,
}

/// Remainders are packed in 24 bits and attempts left in 8 ([`super::problem`] allows 255).
const REM_BITS: u32 = 24;

impl ExactFit {
    /// The question "makespan ≤ `horizon`?" for a rigid problem whose F-energy
    /// (`weight[p]` = F(p), `capacity` = F(P)) is exactly `capacity · horizon`; `None` when the
    /// problem is not rigid, the energy is not exactly met, or the numbers are out of range.
    pub fn rigid(
        prob: &IntProblem,
        weight: &[Int],
        capacity: Int,
        horizon: Int,
    ) -> Option<ExactFit> {
        Self::per_width(prob, weight, capacity, horizon, false)
    }

    /// [`ExactFit::rigid`] when the F-energy E falls short of `capacity · horizon`: the
    /// bounded-slack question (see [`ExactFit::job_weighted_slack`]) of the per-width weights;
    /// `None` as for [`ExactFit::rigid`], or when E exceeds `capacity · horizon`. With the
    /// identity weights (F(p) = p) the idle area allowed is the processor-time the schedule
    /// leaves idle in [0, T), and nothing is relaxed.
    pub fn rigid_slack(
        prob: &IntProblem,
        weight: &[Int],
        capacity: Int,
        horizon: Int,
    ) -> Option<ExactFit> {
        Self::per_width(prob, weight, capacity, horizon, true)
    }

    /// The per-width question, with `slack` or without (see the two above).
    fn per_width(
        prob: &IntProblem,
        weight: &[Int],
        capacity: Int,
        horizon: Int,
        slack: bool,
    ) -> Option<ExactFit> {
        Self::weighted(
            prob,
            |_, procs| weight.get(procs as usize).copied(),
            capacity,
            horizon,
            slack,
        )
    }

    /// The same question for the job energy ([`super::bounds::JobEnergy`]): job j's F-width is
    /// `weight[j]` and `capacity` is W*, the heaviest set of distinct jobs that fit side by
    /// side; `None` as for [`ExactFit::rigid`] (or when `weight` is not one per job).
    ///
    /// Why the fill argument holds: the jobs running at an instant are distinct and fit in P,
    /// so their weights sum to at most W*, as F-widths sum to at most F(P); the node bounds
    /// apply dual feasible functions to those weights, which again sum to at most their value
    /// at W* (a DFF is defined on any items that sum to at most the capacity); a job of weight
    /// W* runs beside jobs of weight 0 only, which are dropped (the relaxation below).
    pub fn job_weighted(
        prob: &IntProblem,
        weight: &[Int],
        capacity: Int,
        horizon: Int,
    ) -> Option<ExactFit> {
        Self::per_job(prob, weight, capacity, horizon, false)
    }

    /// [`ExactFit::job_weighted`] when the job energy E falls short of W*·T: the *bounded-slack*
    /// question (with the time-reversal cut of the module's doc), where the F-capacity may stay
    /// idle for an F-area of at most S = W*·T − E in all (any schedule of makespan ≤ T leaves exactly that much idle in [0, T), the
    /// capacity minus the energy). `None` as for [`ExactFit::job_weighted`], or when E > W*·T.
    ///
    /// Why the event search stays complete: every schedule can be shifted left, attempt by
    /// attempt, until each attempt starts at 0 or where another one ends; so at each instant
    /// where an attempt ends, the search branches on every set of available jobs that fits
    /// (not only the exact fills), and a set that leaves F-capacity f idle until the next end,
    /// dt later, spends f·dt of the slack; a branch that spends more than S is cut. Reaching
    /// a state with more idle area spent is never better (the same state later in time), so a
    /// failed state is remembered with the least idle area it failed with.
    pub fn job_weighted_slack(
        prob: &IntProblem,
        weight: &[Int],
        capacity: Int,
        horizon: Int,
    ) -> Option<ExactFit> {
        Self::per_job(prob, weight, capacity, horizon, true)
    }

    /// The job-weighted question, with `slack` or without (see the two above).
    fn per_job(
        prob: &IntProblem,
        weight: &[Int],
        capacity: Int,
        horizon: Int,
        slack: bool,
    ) -> Option<ExactFit> {
        if weight.len() != prob.jobs.len() {
            return None;
        }
        let fit = Self::weighted(
            prob,
            |j, _| weight.get(j).copied(),
            capacity,
            horizon,
            slack,
        )?;
        Some(fit.with_reflection(slack))
    }

    /// The same question, with the time-reversal cut (`on`) or without it: the answer is the
    /// same either way, the nodes it takes are not (the module's doc says which questions make
    /// the cut by default).
    pub fn with_reflection(mut self, on: bool) -> ExactFit {
        self.reflect = on;
        self
    }

    /// The same question, whose nodes are also bounded by the energies F_1..F_16 of another
    /// weighting of the jobs: `weight[j]` per job, where the jobs that run side by side weigh
    /// at most `capacity` together (the processors and P, or a job energy's weights and W*).
    /// Any such weighting bounds every schedule: what is left at t must fit in
    /// F_k(capacity)·(T − t). A job the question cut out (F-width F(P)) runs beside jobs of
    /// F-width 0 only, which it dropped, so the jobs kept never run beside it and the bound
    /// holds on the shortened horizon. Two measures that each leave a little slack prune far
    /// more together than either alone (rigid P = 32, A = 50, seed 7003: the job energy's
    /// question at 116 with the processors' energies takes 3.1 M nodes instead of 6.3 M).
    /// A weighting that is not one per job, or whose weights leave 0..=`capacity`, or whose
    /// energies could leave the integers, is ignored.
    pub fn also(mut self, weight: &[Int], capacity: Int) -> ExactFit {
        let n = self.chains.len() as Int;
        let fits = weight.len() == self.jobs
            && capacity >= 1
            && weight.iter().all(|w| (0..=capacity).contains(w))
            && (capacity.checked_mul(super::bounds::MAX_DFF_K))
                .and_then(|x| x.checked_mul(self.horizon))
                .and_then(|x| x.checked_mul(n.max(1)))
                .is_some();
        if fits {
            let g = weight.iter().fold(capacity, |g, w| g.gcd(w));
            self.also
                .push((weight.iter().map(|w| w / g).collect(), capacity / g));
        }
        self
    }

    /// The idle F-area the question allows (0 for the zero-slack questions), in the F-widths
    /// divided by their gcd.
    pub fn slack(&self) -> Int {
        self.slack
    }

    /// [`ExactFit::rigid`] with job j's F-width `width_of(j, p_j)`; with `slack`, an energy
    /// below F(P)·T is allowed too.
    fn weighted(
        prob: &IntProblem,
        width_of: impl Fn(usize, u32) -> Option<Int>,
        capacity: Int,
        horizon: Int,
        slack: bool,
    ) -> Option<ExactFit> {
        let mut energy: Int = 0;
        let mut all = Vec::with_capacity(prob.jobs.len());
        for (job, j) in prob.jobs.iter().enumerate() {
            let [o] = j.options.as_slice() else {
                return None;
            };
            let width = width_of(job, o.procs)?;
            // A dual feasible function never maps a width above F(P) nor below 0, nor does a
            // job weight exceed W* (the job alone is a set that fits).
            if !(0..=capacity).contains(&width) {
                return None;
            }
            let area = width
                .checked_mul(o.dur)?
                .checked_mul(Int::from(j.attempts))?;
            energy = energy.checked_add(area)?;
            all.push(Chain {
                job,
                width,
                procs: Int::from(o.procs),
                dur: o.dur,
                attempts: j.attempts,
            });
        }
        let room = capacity.checked_mul(horizon)?;
        if capacity <= 0 || horizon <= 0 || energy > room || (!slack && energy != room) {
            return None;
        }
        // Divide the F-widths by their gcd: the question is the same, and the node bounds are
        // the energies F_k of the reduced widths.
        let g = all.iter().fold(capacity, |g, c| g.gcd(&c.width));
        let cap = capacity / g;
        let mut fit = ExactFit {
            cap,
            procs: Int::from(prob.procs),
            horizon,
            chains: Vec::new(),
            class: Vec::new(),
            full: Vec::new(),
            full_time: 0,
            relaxed: false,
            slack: (room - energy) / g,
            reflect: false,
            also: Vec::new(),
            jobs: prob.jobs.len(),
        };
        for mut c in all {
            c.width /= g;
            if c.width == 0 {
                fit.relaxed = true;
            } else if c.width == cap {
                fit.full_time += c.dur * Int::from(c.attempts);
                fit.full.push(c);
            } else {
                fit.chains.push(c);
            }
        }
        fit.horizon -= fit.full_time;
        if fit.horizon >= 1 << REM_BITS {
            return None;
        }
        fit.chains
            .sort_by_key(|c| (std::cmp::Reverse(c.width), c.procs, c.dur, c.job));
        fit.class = (0..fit.chains.len())
            .map(|i| {
                let same = |k: usize| {
                    let (a, b) = (&fit.chains[k], &fit.chains[i]);
                    (a.width, a.procs, a.dur) == (b.width, b.procs, b.dur)
                };
                // unreachable: i itself is of its class, so a first member exists
                (0..=i).find(|&k| same(k)).unwrap_or(i)
            })
            .collect();
        Some(fit)
    }

    /// The horizon of the original question (before the full-width jobs were cut out).
    pub fn horizon(&self) -> Int {
        self.horizon + self.full_time
    }

    /// Decides the question within `node_budget` nodes, remembering at most `memo_limit`
    /// failed states at a time.
    pub fn decide(&self, node_budget: u64, memo_limit: usize) -> (Answer, FitStats) {
        self.decide_until(node_budget, memo_limit, None)
    }

    /// [`ExactFit::decide`], stopped ([`Answer::Unknown`]) at `deadline` too.
    pub fn decide_until(
        &self,
        node_budget: u64,
        memo_limit: usize,
        deadline: Option<Instant>,
    ) -> (Answer, FitStats) {
        let mut s = Dfs::new(self, node_budget, memo_limit);
        s.deadline = deadline;
        let found = s.node(0);
        let stats = FitStats {
            nodes: s.nodes,
            memo: s.memo.iter().map(|m| m.len()).sum(),
            max_depth: s.max_depth,
            attempts: self.chains.iter().map(|c| u64::from(c.attempts)).sum(),
        };
        let answer = match found {
            Step::Found if self.relaxed => Answer::Feasible(None),
            Step::Found => Answer::Feasible(Some(self.rebuild(&s.path))),
            Step::Fail => Answer::Infeasible,
            Step::Stop => Answer::Unknown,
        };
        (answer, stats)
    }

    /// The schedule of the whole problem: the full-width jobs first, back to back, then the
    /// exact fill found (shifted by their total time).
    fn rebuild(&self, path: &[(usize, u32, Int)]) -> IntSchedule {
        let mut attempts = Vec::new();
        let mut t = 0;
        for c in &self.full {
            for a in 1..=c.attempts {
                attempts.push(attempt(c, a, t));
                t += c.dur;
            }
        }
        for &(i, a, start) in path {
            attempts.push(attempt(&self.chains[i], a, start + self.full_time));
        }
        // The horizon exactly when no slack is allowed (the F-capacity is never idle).
        let ends = attempts.iter().map(|a| a.start + a.dur);
        // default: a question without attempts is met by the empty schedule, ending at 0
        let makespan = ends.max().unwrap_or(0);
        IntSchedule { attempts, makespan }
    }
}

fn attempt(c: &Chain, attempt: u32, start: Int) -> IntAttempt {
    IntAttempt {
        job: c.job,
        attempt,
        // unreachable: widths come from a u32 processor count
        procs: u32::try_from(c.procs).unwrap_or(u32::MAX),
        start,
        dur: c.dur,
    }
}

enum Step {
    Found,
    Fail,
    Stop,
}

/// The depth-first search of [`ExactFit::decide`].
struct Dfs<'a> {
    fit: &'a ExactFit,
    /// Per chain: attempts not yet started, and the remainder of the running one (0: idle).
    left: Vec<u32>,
    rem: Vec<Int>,
    t: Int,
    /// The node bounds: F_k of the reduced F-widths (distinct ones, k = 1..=min(cap, 16)) and
    /// of the question's other weightings ([`ExactFit::also`]), one row each, stored by chain
    /// (chain i's values in every row side by side, so that a running chain's share of every
    /// row is one contiguous run), and F_k(cap) per row.
    columns: Vec<Int>,
    energy_caps: Vec<Int>,
    /// Per row, the F_k-energy of the remaining work Σ F_k(w_i)·need_i, kept as the time
    /// passes: a start leaves a chain's need unchanged (an attempt moves from the unstarted
    /// ones to the running one), and dt of time takes dt off the need of each running chain.
    energy: Vec<Int>,
    /// The clique bound of the reduced F-widths.
    clique: FixedClique,
    /// Failed states, each with the least idle F-area it failed with: those the time-reversal
    /// cut does not bind first, then those it binds (met before T/2).
    memo: [crate::opt::memo::Memo<u64, Int>; 2],
    /// The idle F-area spent so far (at most the question's slack).
    idle: Int,
    /// Twice the idle F-area spent before T/2 (with the time-reversal cut: at most the slack).
    idle_early2: Int,
    /// The state of the current node: per chain, left · 2^rem_bits + remainder, sorted within
    /// each class (reused: lookups allocate nothing).
    pairs: Vec<u64>,
    /// Per chain: the bits of its remainder (those of its duration) and of its (left,
    /// remainder) pair (with those of its class's most attempts), the same within a class.
    rem_bits: Vec<u32>,
    bits: Vec<u32>,
    /// The classes of two chains or more, as ranges of chains (a class is a run of adjacent
    /// chains).
    runs: Vec<(usize, usize)>,
    /// The pairs laid end to end in `bits` bits each: the state key, a few words (the tables
    /// then hold more states in the same cache, and a lookup compares fewer words).
    key: Vec<u64>,
    /// Scratch of the bounds: per chain, the time its remaining work needs.
    need: Vec<Int>,
    /// Starts on the current branch: (chain, attempt number, start).
    path: Vec<(usize, u32, Int)>,
    /// Per depth: the buffers of [`Dfs::branch`], reused by every node at that depth.
    levels: Vec<Level>,
    nodes: u64,
    budget: u64,
    /// Checked every [`CLOCK_EVERY`] nodes.
    deadline: Option<Instant>,
    max_depth: usize,
}

/// Nodes between two reads of the clock.
const CLOCK_EVERY: u64 = 4096;

/// The buffers one node of [`Dfs::branch`] fills: a node's children are generated into them
/// and they are handed to the next node at the same depth, so that no node allocates.
#[derive(Default)]
struct Level {
    groups: Vec<(usize, usize, bool)>,
    /// The fills, one after another: (group, count) pairs, the i-th fill ending at `ends[i]`.
    fills: Vec<(usize, usize)>,
    ends: Vec<usize>,
    /// The fill being built by [`Fills::fills_of`].
    cur: Vec<(usize, usize)>,
    /// The remainders before a child, restored after it.
    saved: Vec<Int>,
    /// Per energy row, what a child's dt takes off per unit of time: Σ F_k(w_i) over the
    /// chains running in it (restored after it).
    drops: Vec<Int>,
}

impl<'a> Dfs<'a> {
    fn new(fit: &'a ExactFit, budget: u64, memo_limit: usize) -> Dfs<'a> {
        let n = fit.chains.len();
        let (mut energies, mut energy_caps): (Vec<Int>, Vec<Int>) = (Vec::new(), Vec::new());
        // The rows F_1..F_16 of one weighting (per chain) of capacity `cap`.
        let mut rows_of = |widths: &[Int], cap: Int| {
            for k in 1..=cap.min(super::bounds::MAX_DFF_K) {
                let f = fekete_schepers(cap, k);
                let w: Vec<Int> = widths.iter().map(|&x| f[x as usize]).collect();
                // The same transform up to a factor adds nothing.
                let seen = energy_caps.iter().enumerate().any(|(r, c)| {
                    let row = &energies[r * n..(r + 1) * n];
                    row.iter().zip(&w).all(|(a, b)| a * (k * cap) == b * c)
                });
                if !seen && w.iter().any(|&x| x > 0) {
                    energies.extend(w);
                    energy_caps.push(k * cap);
                }
            }
        };
        if fit.cap >= 2 {
            let widths: Vec<Int> = fit.chains.iter().map(|c| c.width).collect();
            rows_of(&widths, fit.cap);
        }
        for (weight, cap) in &fit.also {
            let widths: Vec<Int> = fit.chains.iter().map(|c| weight[c.job]).collect();
            rows_of(&widths, *cap);
        }
        let energy = (0..energy_caps.len())
            .map(|r| {
                let row = &energies[r * n..(r + 1) * n];
                let need = fit.chains.iter().map(|c| Int::from(c.attempts) * c.dur);
                row.iter().zip(need).map(|(a, b)| a * b).sum()
            })
            .collect();
        let rows = energy_caps.len();
        let columns = (0..n)
            .flat_map(|i| (0..rows).map(move |r| (r, i)))
            .map(|(r, i)| energies[r * n + i])
            .collect();
        let widths: Vec<Int> = fit.chains.iter().map(|c| c.width).collect();
        let bits_of = |x: u64| u64::BITS - x.leading_zeros();
        // A remainder is at most its duration, below 2^REM_BITS (see `rigid_slack`).
        let rem_bits: Vec<u32> = fit.chains.iter().map(|c| bits_of(c.dur as u64)).collect();
        // Per class (indexed by its first chain): its most attempts.
        let mut most = vec![0u32; n];
        for (c, &first) in fit.chains.iter().zip(&fit.class) {
            most[first] = most[first].max(c.attempts);
        }
        let bits: Vec<u32> = (0..n)
            .map(|i| rem_bits[i] + bits_of(u64::from(most[fit.class[i]])))
            .collect();
        let words = (bits.iter().sum::<u32>() as usize).div_ceil(64);
        let mut runs = Vec::new();
        let mut start = 0;
        while start < n {
            let end = (start..n)
                .find(|&k| fit.class[k] != fit.class[start])
                .unwrap_or(n); // default: the last class runs to the end
            if end - start >= 2 {
                runs.push((start, end));
            }
            start = end;
        }
        Dfs {
            fit,
            left: fit.chains.iter().map(|c| c.attempts).collect(),
            rem: vec![0; n],
            t: 0,
            columns,
            energy_caps,
            energy,
            clique: FixedClique::new(&widths, fit.cap),
            memo: [(); 2].map(|()| crate::opt::memo::Memo::new(memo_limit, words)),
            idle: 0,
            idle_early2: 0,
            pairs: Vec::with_capacity(n),
            rem_bits,
            bits,
            runs,
            key: Vec::with_capacity(words),
            need: vec![0; n],
            path: Vec::new(),
            levels: Vec::new(),
            nodes: 0,
            budget,
            deadline: None,
            max_depth: 0,
        }
    }

    /// False when some completion of makespan T is ruled out: a chain longer than T − t, an
    /// energy F_k above F_k(cap)·(T − t), or pairwise-exclusive jobs (F-widths summing above
    /// the capacity) whose remaining times add up beyond T − t ([`super::bounds::clique`]).
    fn bounds_hold(&mut self) -> bool {
        let span = self.fit.horizon - self.t;
        for (i, c) in self.fit.chains.iter().enumerate() {
            self.need[i] = self.rem[i] + Int::from(self.left[i]) * c.dur;
            if self.need[i] > span {
                return false;
            }
        }
        let energies_fit =
            (self.energy_caps.iter().zip(&self.energy)).all(|(cap, e)| *e <= cap * span);
        energies_fit && self.clique.bound(&self.need) <= span
    }

    /// The canonical state into `self.key`: per class, its members' (left, remainder) pairs in
    /// sorted order, packed end to end.
    fn make_key(&mut self) {
        let n = self.fit.chains.len();
        self.pairs.clear();
        self.pairs.extend(
            (0..n).map(|i| u64::from(self.left[i]) << self.rem_bits[i] | self.rem[i] as u64),
        );
        for &(start, end) in &self.runs {
            self.pairs[start..end].sort_unstable();
        }
        pack(&self.pairs, &self.bits, &mut self.key);
    }

    fn node(&mut self, depth: usize) -> Step {
        self.nodes += 1;
        self.max_depth = self.max_depth.max(depth);
        if self.nodes > self.budget
            || (self.nodes % CLOCK_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.budget = 0;
            return Step::Stop;
        }
        if self.left.iter().all(|&l| l == 0) && self.rem.iter().all(|&r| r == 0) {
            // The F-area is exactly F(P)·T and never idle, so this is t = T.
            return Step::Found;
        }
        if !self.bounds_hold() {
            return Step::Fail;
        }
        self.make_key();
        let binds = self.fit.reflect && 2 * self.t < self.fit.horizon;
        let memo = &mut self.memo[usize::from(binds)];
        let hash = memo.hash(&self.key);
        if memo
            .get_hashed(hash, &self.key)
            .is_some_and(|idle| idle <= self.idle)
        {
            return Step::Fail;
        }
        let step = self.branch(depth);
        if let Step::Fail = step {
            // The branch restored the state: the key (and its hash) is this node's again.
            self.make_key();
            self.memo[usize::from(binds)].insert_hashed(hash, &self.key, self.idle, Int::min);
        }
        step
    }

    /// The groups of idle chains that may start now: (first chain, members, forced), members
    /// sharing class and attempts left (interchangeable), in chain order (widest first).
    fn groups(&self, out: &mut Vec<(usize, usize, bool)>) {
        let span = self.fit.horizon - self.t;
        out.clear();
        for i in 0..self.fit.chains.len() {
            if self.rem[i] > 0 || self.left[i] == 0 {
                continue;
            }
            let forced = Int::from(self.left[i]) * self.fit.chains[i].dur == span;
            // Members of one class with equal attempts left form one group even when members
            // with other counts sit between them, so that no multiset is generated twice.
            let same = |g: &&mut (usize, usize, bool)| {
                self.fit.class[g.0] == self.fit.class[i] && self.left[g.0] == self.left[i]
            };
            match out.iter_mut().find(|g| same(g)) {
                Some(g) => g.1 += 1,
                None => out.push((i, 1, forced)),
            }
        }
    }

    /// Starts `c` attempts of group `first`'s class and count (its first c idle members: they
    /// are interchangeable, so this is the canonical choice).
    fn start(&mut self, first: usize, c: usize) {
        let (class, left) = (self.fit.class[first], self.left[first]);
        let mut started = 0;
        // A class is a run of adjacent chains (they are sorted by its key).
        for i in first..self.fit.chains.len() {
            if started == c || self.fit.class[i] != class {
                break;
            }
            if self.rem[i] == 0 && self.left[i] == left {
                let chain = &self.fit.chains[i];
                self.path.push((i, chain.attempts - left + 1, self.t));
                self.left[i] -= 1;
                self.rem[i] = chain.dur;
                started += 1;
            }
        }
    }

    /// Tries every exact fill of the free capacity at t, then advances to the next event.
    fn branch(&mut self, depth: usize) -> Step {
        let n = self.fit.chains.len();
        let running = (0..n).filter(|&i| self.rem[i] > 0);
        let free = self.fit.cap
            - running
                .clone()
                .map(|i| self.fit.chains[i].width)
                .sum::<Int>();
        let room = self.fit.procs - running.map(|i| self.fit.chains[i].procs).sum::<Int>();
        if self.levels.len() <= depth {
            self.levels.resize_with(depth + 1, Level::default);
        }
        let mut lv = std::mem::take(&mut self.levels[depth]);
        let step = self.children(depth, free, room, &mut lv);
        self.levels[depth] = lv;
        step
    }

    /// [`Dfs::branch`] with the buffers of its depth.
    fn children(&mut self, depth: usize, free: Int, room: Int, lv: &mut Level) -> Step {
        self.groups(&mut lv.groups);
        lv.fills.clear();
        lv.ends.clear();
        // Each unit of time the fill leaves idle costs at least the capacity left unfilled.
        let spare = self.fit.slack - self.idle;
        let mut out = Fills {
            chains: &self.fit.chains,
            groups: &lv.groups,
            spare,
            cur: &mut lv.cur,
            fills: &mut lv.fills,
            ends: &mut lv.ends,
        };
        out.fills_of(0, free, room);
        lv.saved.clear();
        lv.saved.extend_from_slice(&self.rem);
        let (t0, idle0, early0) = (self.t, self.idle, self.idle_early2);
        // The next end of what runs now; a fill's own attempts may end sooner.
        let running_end = lv.saved.iter().copied().filter(|&r| r > 0).min();
        for f in 0..lv.ends.len() {
            let fill = &lv.fills[if f == 0 { 0 } else { lv.ends[f - 1] }..lv.ends[f]];
            let mut unfilled = free;
            let mut next_end = running_end;
            for &(g, c) in fill {
                let chain = &self.fit.chains[lv.groups[g].0];
                unfilled -= chain.width * c as Int;
                next_end = Some(next_end.map_or(chain.dur, |e| e.min(chain.dur)));
            }
            // Without slack the fill is nonempty (free > 0 at every node); with it, an empty
            // fill beside running attempts waits for the next end, and one with nothing
            // running fails, as does one that would leave more idle than the slack allows
            // (both before anything starts).
            let Some(dt) = next_end.filter(|&dt| unfilled * dt <= spare) else {
                continue;
            };
            // Twice the part of [t, t + dt) before T/2, so that an odd T needs no fraction.
            let early2 =
                early0 + unfilled * ((2 * (t0 + dt)).min(self.fit.horizon) - 2 * t0).max(0);
            if self.fit.reflect && early2 > self.fit.slack {
                continue;
            }
            let path_len = self.path.len();
            for &(g, c) in fill {
                self.start(lv.groups[g].0, c);
            }
            lv.drops.clear();
            lv.drops.resize(self.energy.len(), 0);
            let rows = self.energy_caps.len();
            for (i, r) in self.rem.iter_mut().enumerate().filter(|(_, r)| **r > 0) {
                *r -= dt;
                let column = &self.columns[i * rows..(i + 1) * rows];
                for (drop, v) in lv.drops.iter_mut().zip(column) {
                    *drop += v;
                }
            }
            for (e, drop) in self.energy.iter_mut().zip(&lv.drops) {
                *e -= drop * dt;
            }
            self.t += dt;
            self.idle += unfilled * dt;
            self.idle_early2 = early2;
            let step = self.node(depth + 1);
            if !matches!(step, Step::Fail) {
                return step;
            }
            for (e, drop) in self.energy.iter_mut().zip(&lv.drops) {
                *e += drop * dt;
            }
            self.idle = idle0;
            self.idle_early2 = early0;
            self.t = t0;
            self.rem.copy_from_slice(&lv.saved);
            while self.path.len() > path_len {
                if let Some((i, _, _)) = self.path.pop() {
                    self.left[i] += 1;
                }
            }
        }
        Step::Fail
    }
}

/// `values` laid end to end into `words`, the i-th in `bits[i]` bits (each value below
/// 2^bits[i], at most 64 bits): one value may straddle two words.
fn pack(values: &[u64], bits: &[u32], words: &mut Vec<u64>) {
    words.clear();
    let (mut word, mut used) = (0u64, 0u32);
    for (&v, &b) in values.iter().zip(bits) {
        // `used` < 64 here.
        word |= v << used;
        used += b;
        if used >= 64 {
            words.push(word);
            used -= 64;
            word = if used == 0 { 0 } else { v >> (b - used) };
        }
    }
    if used > 0 {
        words.push(word);
    }
}

/// Every choice of counts per group (forced groups: all members) whose F-widths sum to
/// exactly the free capacity within the free processors, or to at least that capacity less
/// `spare` (the idle F-capacity a fill may leave), in order: larger counts of the wider groups
/// first.
struct Fills<'b> {
    chains: &'b [Chain],
    groups: &'b [(usize, usize, bool)],
    spare: Int,
    cur: &'b mut Vec<(usize, usize)>,
    /// The fills found, one after another, the i-th ending at `ends[i]`.
    fills: &'b mut Vec<(usize, usize)>,
    ends: &'b mut Vec<usize>,
}

impl Fills<'_> {
    fn push(&mut self) {
        self.fills.extend_from_slice(self.cur);
        self.ends.push(self.fills.len());
    }

    /// The fills of groups `g..` into `free` F-capacity and `room` processors.
    fn fills_of(&mut self, g: usize, free: Int, room: Int) {
        if free == 0 {
            if self.groups[g..].iter().all(|gr| !gr.2) {
                self.push();
            }
            return;
        }
        let Some(&(first, size, forced)) = self.groups.get(g) else {
            // Every group decided: an unfilled rest within the slack is a fill too.
            if free <= self.spare {
                self.push();
            }
            return;
        };
        let (w, p) = (self.chains[first].width, self.chains[first].procs);
        let most = size
            .min((free / w) as usize)
            .min((room / p.max(1)) as usize);
        let least = if forced { size } else { 0 };
        for c in (least..=most).rev() {
            if c > 0 {
                self.cur.push((g, c));
            }
            self.fills_of(g + 1, free - w * c as Int, room - p * c as Int);
            if c > 0 {
                self.cur.pop();
            }
        }
    }
}

/// Node budget of the root stage of [`crate::opt::solve`] ([`at_root`]): rigid P = 8, A = 40 seed
/// 2's F_4 question needs 2.2 M nodes, seed 4's area question 3.4 M; the budget leaves room
/// above both and leaves most of the default 10 s limit to the search when a question is not
/// decided (the `opt` bench measures the cost of a node).
pub const ROOT_NODES: u64 = 5_000_000;

/// Node budget of the bounded-slack questions of [`at_root`] before the search (apart from
/// [`ROOT_NODES`]): small, so that a question it cannot decide leaves the search most of the
/// time limit.
pub const SLACK_NODES: u64 = 500_000;

/// Node budget of the identity's bounded-slack question asked before the job energy's (within
/// [`SLACK_NODES`] or [`LATE_SLACK_NODES`]): rigid P = 32, A = 50, seed 7003's question at
/// 117 meets a schedule in 50,548 nodes, where the job energy's relaxed question answers
/// "feasible" after 3.9 M nodes.
pub const PROBE_NODES: u64 = 200_000;

/// Node budget of the bounded-slack questions asked again after the search (the late stage of
/// [`crate::opt::solve`], which the time limit bounds first): rigid P = 8, A = 30, seed 1001's
/// identity question needs 7.1 M nodes, P = 32, A = 50, seed 1000's job energy question 1.2 M
/// to meet its schedule at 131.
pub const LATE_SLACK_NODES: u64 = 1 << 40;

/// Failed states the root stage remembers at most (≈ 150 bytes each for 30 jobs): seed 4
/// above keeps 1.25 M; P = 8, A = 30, seed 1001's identity question above keeps 3.2 M, and
/// needs 2.2 times the nodes when the table holds 2 M.
pub const ROOT_MEMO: usize = 4_000_000;

/// What the root stage learned: a raised bound, or a schedule meeting it.
#[derive(Debug, Clone, Default)]
pub struct RootFit {
    /// The proven lower bound (≥ the one given).
    pub lower_bound: Int,
    /// A schedule of makespan `lower_bound` when one was found (then it is optimal).
    pub schedule: Option<IntSchedule>,
    /// Nodes spent over all questions asked.
    pub nodes: u64,
}

/// The energies whose zero-slack questions [`at_root`] asks, in this order.
#[derive(Debug, Clone, Copy)]
pub struct Weights<'a> {
    /// The per-width energies ([`super::bounds::energies`], the identity first).
    pub per_width: &'a [super::bounds::Energy],
    /// The job energies of a rigid instance ([`super::bounds::JobEnergy::ranked`], best
    /// first; empty if none): the questions of the first are asked, and every one of them
    /// bounds the nodes of every question ([`ExactFit::also`]).
    pub per_job: &'a [super::bounds::JobEnergy],
}

/// The node budgets of [`at_root`]: `nodes` for the whole stage, `slack_nodes` (apart) for
/// its bounded-slack questions.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub nodes: u64,
    pub slack_nodes: u64,
    /// The identity's first bounded-slack question, before the job energy's (within
    /// `slack_nodes`).
    pub probe_nodes: u64,
}

impl Budget {
    /// The root stage before the search: [`ROOT_NODES`], [`SLACK_NODES`] and [`PROBE_NODES`].
    pub const ROOT: Budget = Budget {
        nodes: ROOT_NODES,
        slack_nodes: SLACK_NODES,
        probe_nodes: PROBE_NODES,
    };
    /// The late stage after the search: [`ROOT_NODES`], [`LATE_SLACK_NODES`] and
    /// [`PROBE_NODES`].
    pub const LATE: Budget = Budget {
        nodes: ROOT_NODES,
        slack_nodes: LATE_SLACK_NODES,
        probe_nodes: PROBE_NODES,
    };
}

/// What an answer of the root stage leads to.
enum Settled {
    /// No schedule of length `lb`: the bound rises.
    Raise,
    /// A schedule of length `lb`, kept in the stage's result: the stage ends.
    Found,
    /// Nothing proven: `unknown` when the budget or the deadline ran out, else a relaxed
    /// "feasible".
    Open { unknown: bool },
}

/// Keeps a schedule `answer` gives in `out`, and says what the stage does next.
fn settle(answer: Answer, out: &mut RootFit) -> Settled {
    match answer {
        Answer::Infeasible => Settled::Raise,
        Answer::Feasible(Some(s)) => {
            out.schedule = Some(s);
            Settled::Found
        }
        Answer::Feasible(None) => Settled::Open { unknown: false },
        Answer::Unknown => Settled::Open { unknown: true },
    }
}

/// True when `incumbent` is at most two reachable makespans above `lb` (`round`: the next
/// reachable makespan at or above a value): where the bounded-slack questions are asked.
pub fn near_bound(lb: Int, incumbent: Int, round: impl Fn(Int) -> Int) -> bool {
    round(round(lb + 1) + 1) >= incumbent
}

/// The root stage: while the bound `lb` is below the incumbent's makespan and some energy
/// (`weights`: the per-width ones, the identity first, then the job energy, whose weights come
/// from the configuration LP's prices and so can meet an integral LP optimum exactly) is met
/// exactly at `lb`, decide the zero-slack question; when none is, and the incumbent is at most
/// two steps above `lb`, the bounded-slack questions: the identity's within
/// `budget.probe_nodes` (when a job energy follows), the job energy's, then the identity's
/// (at most `budget.slack_nodes` over the stage: [`Budget::ROOT`] before the search,
/// [`Budget::LATE`] after it). Infeasible raises the bound to the next
/// reachable makespan above `lb` (`round`: the lattice of [`super::lattice`]), where another
/// energy may be met exactly; a schedule ends the stage; a relaxed "feasible" moves on to the
/// next energy; an unknown answer stops (the node `budget.nodes`, or the `deadline`).
pub fn at_root(
    prob: &IntProblem,
    weights: Weights<'_>,
    mut lb: Int,
    incumbent: Int,
    budget: Budget,
    deadline: Option<Instant>,
    round: impl Fn(Int) -> Int,
) -> RootFit {
    let mut out = RootFit::default();
    let mut slack_nodes = 0;
    // Every question is bounded by the processors' energies and the job energies' too.
    let procs: Vec<Int> = (prob.jobs.iter())
        .map(|j| j.options.first().map_or(0, |o| Int::from(o.procs)))
        .collect();
    let bounded = |f: Option<ExactFit>| {
        let f = f?.also(&procs, Int::from(prob.procs));
        Some((weights.per_job.iter()).fold(f, |f, je| f.also(&je.weight, je.capacity)))
    };
    let job_energy = weights.per_job.first();
    'raise: while lb < incumbent {
        let per_width = weights
            .per_width
            .iter()
            .map(|e| bounded(ExactFit::rigid(prob, &e.weight, e.capacity, lb)));
        let per_job =
            job_energy.map(|je| bounded(ExactFit::job_weighted(prob, &je.weight, je.capacity, lb)));
        for fit in per_width.chain(per_job) {
            let Some(fit) = fit else {
                continue;
            };
            let (answer, stats) =
                fit.decide_until(budget.nodes.saturating_sub(out.nodes), ROOT_MEMO, deadline);
            out.nodes += stats.nodes;
            match settle(answer, &mut out) {
                Settled::Raise => {
                    lb = round(lb + 1);
                    continue 'raise;
                }
                Settled::Found | Settled::Open { unknown: true } => break 'raise,
                Settled::Open { unknown: false } => continue,
            }
        }
        // No energy met exactly at lb decided it. When at most two steps of the bound are
        // left to the incumbent, the bounded-slack questions decide one: a schedule found is
        // optimal, infeasible raises the bound (at the last step, to the incumbent). First the
        // identity's with a small budget (it meets schedules at the bound soon when they are
        // easy to meet, where the job energy's "feasible", relaxed, would cost millions of
        // nodes and prove nothing), then the job energy's, then the identity's with what is
        // left. Their nodes are limited apart, so that a question they cannot decide leaves
        // the search most of the time limit.
        let near = near_bound(lb, incumbent, &round);
        let identity = bounded(
            (weights.per_width.first())
                .and_then(|e| ExactFit::rigid_slack(prob, &e.weight, e.capacity, lb)),
        );
        let job = bounded(
            job_energy
                .and_then(|je| ExactFit::job_weighted_slack(prob, &je.weight, je.capacity, lb)),
        );
        let probe = identity
            .clone()
            .filter(|_| job.is_some())
            .map(|f| (f, budget.probe_nodes));
        let slack_fits = (probe.into_iter())
            .chain(job.map(|f| (f, u64::MAX)))
            .chain(identity.map(|f| (f, u64::MAX)))
            .filter(|(f, _)| near && f.slack() > 0);
        for (fit, cap) in slack_fits {
            if slack_nodes >= budget.slack_nodes {
                break;
            }
            let left = budget.slack_nodes - slack_nodes;
            let (answer, stats) = fit.decide_until(left.min(cap), ROOT_MEMO, deadline);
            out.nodes += stats.nodes;
            slack_nodes += stats.nodes;
            // A probe that ran out of its own budget before the deadline moves on.
            let probe_spent = cap < left && deadline.is_none_or(|d| Instant::now() < d);
            match settle(answer, &mut out) {
                Settled::Raise => {
                    lb = round(lb + 1);
                    continue 'raise;
                }
                Settled::Open { unknown: true } if probe_spent => continue,
                Settled::Found | Settled::Open { unknown: true } => break 'raise,
                Settled::Open { unknown: false } => continue,
            }
        }
        break;
    }
    out.lower_bound = lb;
    out
}

#[cfg(test)]
mod tests {
    use super::pack;
    use rand::{RngExt, SeedableRng};

    /// The packed words give every value back, also those straddling two words (so that two
    /// states have the same key only when they are the same state).
    #[test]
    fn packed_keys_give_every_value_back() {
        let mut words = Vec::new();
        for seed in 0..500u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let n = rng.random_range(1..=40);
            let bits: Vec<u32> = (0..n).map(|_| rng.random_range(1..=40)).collect();
            let values: Vec<u64> = bits
                .iter()
                .map(|&b| rng.random_range(0..1u64 << b))
                .collect();
            pack(&values, &bits, &mut words);
            let total: u32 = bits.iter().sum();
            assert_eq!(words.len(), total.div_ceil(64) as usize, "seed {seed}");
            let mut at = 0u32;
            for (i, (&v, &b)) in values.iter().zip(&bits).enumerate() {
                let (w, o) = ((at / 64) as usize, at % 64);
                let mut got = words[w] >> o;
                if o + b > 64 {
                    got |= words[w + 1] << (64 - o);
                }
                assert_eq!(got & ((1 << b) - 1), v, "seed {seed}, value {i}");
                at += b;
            }
        }
    }
}
