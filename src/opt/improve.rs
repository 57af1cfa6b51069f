//! An improving incumbent for the exact methods: an iterated local search over *attempt lists*
//! and *allotments*, decoded by the serial schedule-generation scheme (SSGS; Kolisch 1996,
//! "Serial and parallel resource-constrained project scheduling methods revisited").
//!
//! Why: on the moldable paper's models (`generate::paper_moldable`, P = 8, A = 16) the greedy
//! list schedules of [`super::greedy`] are 10–20% above the optimum, and both exact methods spend
//! their time closing that gap from above. A better starting schedule cuts every subtree whose
//! bound lies between the optimum and the greedy makespan before the search even reaches it.
//!
//! # Representation and decoder
//! A solution is
//! - a *list*: a sequence of job ids in which job j occurs f_j + 1 times (its k-th occurrence is
//!   its k-th attempt), so every list respects the chains — there is no infeasible list;
//! - an *allotment gene* per attempt: one of the job's undominated options, or [`AUTO`]
//!   (decided while decoding: the option that ends earliest at its own earliest start, ties to
//!   fewer processors). Every attempt picks its own p, as the model allows (moldable paper,
//!   Section 3.3).
//!
//! The decoder places the attempts in list order, each at the earliest instant ≥ the end of
//! its job's previous attempt at which its p processors are free for its whole duration, in a
//! step profile of the processors in use. Each placement respects the capacity and the chain,
//! so **every decoded schedule is feasible**; it is only ever used as an incumbent (an upper
//! bound), and [`crate::opt::solve`] checks every schedule it returns with [`crate::check::check`].
//! Starts are sums of durations (integers on the scaled model).
//!
//! Decoding the start-time order of any schedule with its own allotments gives a schedule no
//! worse (each attempt still fits at its old start: the attempts before it in the list start
//! no later than before and last as long, so they occupy a subset of what they occupied from
//! that start on), so the search starts from the given incumbent's list and can only improve.
//!
//! # Search
//! Moves: swap two list entries, move one entry elsewhere, or change one attempt's allotment
//! gene. On moldable instances a move is kept when the decoded (makespan, Σ end of attempts)
//! is not worse than the current one (lexicographically; the second key breaks the makespan's
//! plateaus). On rigid ones the first key is the *work after the target* instead: Σ over the
//! attempts of processors × time after T = (best makespan − 1), zero exactly when the makespan
//! is at most T. The makespan stays flat while the last units empty one attempt at a time, so
//! judged by it the search walks blind, and judged by the work after T every attempt moved
//! out of them counts. After [`Budget::stall`] moves without a new best, the current solution
//! restarts from the best one with a few random moves (a kick). The random numbers come from a fixed seed (SplitMix64):
//! two runs with the same budget give the same schedule; only a deadline, when it strikes
//! first, can shorten a run. It stops early when a schedule meets the given lower bound.
use super::greedy::{IntAttempt, IntSchedule};
use super::problem::{Int, IntProblem, Opt};
use std::time::Instant;

/// The allotment gene "pick while decoding" (see the module documentation).
pub const AUTO: u32 = u32::MAX;

/// The limits of one local search.
#[derive(Debug, Clone)]
pub struct Budget {
    /// Moves tried (each one decode).
    pub moves: u64,
    /// Moves without a new best before a kick.
    pub stall: u64,
    /// A wall-clock limit checked before every move (None: none).
    pub deadline: Option<Instant>,
    /// The seed of the move generator.
    pub seed: u64,
}

impl Budget {
    /// The budget [`crate::opt::solve`] uses: 80·A² moves for A attempts (at least 20,000, at most
    /// 200,000, a small share of the default time limit; the `opt` bench measures a move),
    /// stalls of 2,000, a fixed seed.
    ///
    /// Why quadratic: below A = 16 the search proves the optimum quickly whatever the start,
    /// while from A = 40 on the open anchors of the `opt` bench are mostly incumbents above
    /// the optimum that 400 moves per attempt do not improve and 200,000 do (rigid P = 8,
    /// A = 60, seed 2: 179 → 178, the root bound).
    pub fn for_attempts(attempts: u64, deadline: Option<Instant>) -> Budget {
        Budget {
            moves: attempts
                .saturating_mul(attempts)
                .saturating_mul(80)
                .clamp(20_000, 200_000),
            stall: 2_000,
            deadline,
            seed: 0x5eed_0f0b,
        }
    }

    /// The moves of [`crate::opt::solve`]'s second run of the same search, after the root stages
    /// left a gap: twice the first run's. Why: on the `opt` bench's open rigid instances with
    /// A = 60 the first run's best is not always optimal, and the search's tree cannot find
    /// the shorter schedule, while the same trajectory goes on to reach the root bound within
    /// 200,000 to 400,000 more moves (P = 16, seed 104: 175 → 174 at move 562,823).
    pub fn continuation_moves(attempts: u64) -> u64 {
        Budget::for_attempts(attempts, None).moves.saturating_mul(2)
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, seedable, and the same on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n ≥ 1; the modulo bias is irrelevant for a heuristic).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A candidate: the list, the genes (indexed by `first[j] + k` for job j's attempt k), and its
/// decoded schedule.
#[derive(Clone)]
struct Cand {
    list: Vec<usize>,
    genes: Vec<u32>,
    sched: IntSchedule,
    /// Σ of the attempts' ends: the tie-breaking second key.
    ends: Int,
}

impl Cand {
    fn key(&self) -> (Int, Int) {
        (self.sched.makespan, self.ends)
    }
}

/// The step profile of processors in use: `steps[i] = (time, used from that time on)`,
/// times strictly increasing, starting at 0; the last step lasts forever.
struct Profile {
    steps: Vec<(Int, Int)>,
}

impl Profile {
    fn new() -> Profile {
        Profile {
            steps: vec![(0, 0)],
        }
    }

    /// Index of the step holding instant x (the last step with time ≤ x).
    fn at(&self, x: Int) -> usize {
        self.steps.partition_point(|s| s.0 <= x) - 1
    }

    /// The earliest s ≥ est with used + p ≤ cap on [s, s + d).
    fn earliest(&self, est: Int, p: Int, d: Int, cap: Int) -> Int {
        let mut s = est;
        let mut i = self.at(s);
        loop {
            // Scan the steps overlapping [s, s + d); on a violation, restart after it.
            let mut k = i;
            let mut ok = true;
            while k < self.steps.len() && self.steps[k].0 < s + d {
                if self.steps[k].1 + p > cap {
                    ok = false;
                    break;
                }
                k += 1;
            }
            if ok {
                return s;
            }
            // The step k is too full; the next start to try is where it ends. It is not the
            // last step: the last step is the empty tail after every placed attempt (p ≤ cap).
            i = k + 1;
            s = self.steps[i].0;
        }
    }

    /// Splits the step at x (if x is not a breakpoint) and returns the index of the step at x.
    fn split(&mut self, x: Int) -> usize {
        let i = self.at(x);
        if self.steps[i].0 == x {
            return i;
        }
        let used = self.steps[i].1;
        self.steps.insert(i + 1, (x, used));
        i + 1
    }

    fn add(&mut self, s: Int, d: Int, p: Int) {
        let a = self.split(s);
        let b = self.split(s + d);
        for st in &mut self.steps[a..b] {
            st.1 += p;
        }
    }
}

/// Time slots beyond which the decoder keeps the step profile instead of a slot array (the
/// array costs one cell per time unit of the longest possible decode).
const MAX_SLOTS: Int = 1 << 20;

/// Time slots per attempt beyond which the decoder keeps the step profile: a slot array is
/// cleared over the last makespan at each decode and scans every unit of a window, so it pays
/// only while attempts are a few units long (the anchor families: 1 to 10). Instances whose
/// times are scaled to a fine grid (units of 1/7 s on attempts of hundreds of seconds) would
/// otherwise spend the local search's time share on a few slow decodes.
const SLOTS_PER_ATTEMPT: Int = 16;

/// The processors in use while decoding: a step profile, or one cell per time unit when every
/// decode fits in [`MAX_SLOTS`] and in [`SLOTS_PER_ATTEMPT`] per attempt (a decode ends by Σ
/// of the longest durations: each attempt starts no later than the end of the attempts placed
/// before it). Both answer the same earliest fits (the earliest fit starts at the attempt's
/// ready time or at a breakpoint, an integer), so the choice changes the speed, never the
/// schedule.
enum Occupancy {
    Steps(Profile),
    Slots(Vec<Int>),
}

/// The decoder of the module documentation with its buffers, reused from one decode to the
/// next (a decode then allocates nothing).
struct Decoder {
    cap: Int,
    occ: Occupancy,
    next: Vec<u32>,
    ready: Vec<Int>,
    /// The slots before this instant may be in use (the last decode's makespan).
    dirty: Int,
}

impl Decoder {
    fn new(prob: &IntProblem) -> Decoder {
        Self::with_slots_per_attempt(prob, SLOTS_PER_ATTEMPT)
    }

    /// The decoder with a slot array when it fits in [`MAX_SLOTS`] and in `per_attempt` slots
    /// per attempt.
    fn with_slots_per_attempt(prob: &IntProblem, per_attempt: Int) -> Decoder {
        let longest = prob.jobs.iter().try_fold(0 as Int, |acc, j| {
            let d = j.options.iter().map(|o| o.dur).max()?;
            acc.checked_add(d.checked_mul(Int::from(j.attempts))?)
        });
        let attempts = prob
            .jobs
            .iter()
            .fold(0 as Int, |n, j| n.saturating_add(Int::from(j.attempts)));
        let occ = match longest {
            Some(h) if h <= MAX_SLOTS && h <= per_attempt.saturating_mul(attempts) => {
                Occupancy::Slots(vec![0; h as usize])
            }
            _ => Occupancy::Steps(Profile::new()),
        };
        Decoder {
            cap: Int::from(prob.procs),
            occ,
            next: vec![0; prob.jobs.len()],
            ready: vec![0; prob.jobs.len()],
            dirty: 0,
        }
    }

    /// The earliest s ≥ est with p more processors free on [s, s + d).
    fn earliest(&self, est: Int, p: Int, d: Int) -> Int {
        match &self.occ {
            Occupancy::Steps(prof) => prof.earliest(est, p, d, self.cap),
            Occupancy::Slots(used) => {
                let mut s = est;
                'start: loop {
                    // From the window's end back: a full slot moves the start past it.
                    for t in (s..s + d).rev() {
                        if used[t as usize] + p > self.cap {
                            s = t + 1;
                            continue 'start;
                        }
                    }
                    return s;
                }
            }
        }
    }

    fn add(&mut self, s: Int, d: Int, p: Int) {
        match &mut self.occ {
            Occupancy::Steps(prof) => prof.add(s, d, p),
            Occupancy::Slots(used) => {
                for u in &mut used[s as usize..(s + d) as usize] {
                    *u += p;
                }
            }
        }
    }

    /// Decodes a list and its genes into `out` (see the module documentation) and returns the
    /// Σ of the attempts' ends. `first[j]` is the index of job j's first gene.
    fn decode(
        &mut self,
        prob: &IntProblem,
        first: &[usize],
        list: &[usize],
        genes: &[u32],
        out: &mut IntSchedule,
    ) -> Int {
        self.next.fill(0);
        self.ready.fill(0);
        match &mut self.occ {
            Occupancy::Steps(prof) => *prof = Profile::new(),
            Occupancy::Slots(used) => used[..self.dirty as usize].fill(0),
        }
        out.attempts.clear();
        out.makespan = 0;
        let mut ends: Int = 0;
        for &j in list {
            let job = &prob.jobs[j];
            let k = self.next[j];
            let gene = genes[first[j] + k as usize];
            let ready = self.ready[j];
            let place = |o: Opt| (self.earliest(ready, Int::from(o.procs), o.dur), o);
            let (start, o) = if (gene as usize) < job.options.len() {
                place(job.options[gene as usize])
            } else {
                // AUTO: the earliest end, ties to fewer processors (options are sorted by procs).
                let mut best = place(job.options[0]);
                for &o in &job.options[1..] {
                    let c = place(o);
                    if c.0 + c.1.dur < best.0 + best.1.dur {
                        best = c;
                    }
                }
                best
            };
            let (p, d) = (Int::from(o.procs), o.dur);
            self.add(start, d, p);
            self.next[j] = k + 1;
            self.ready[j] = start + d;
            ends += start + d;
            out.makespan = out.makespan.max(start + d);
            out.attempts.push(IntAttempt {
                job: j,
                attempt: k + 1,
                procs: o.procs,
                start,
                dur: d,
            });
        }
        self.dirty = out.makespan;
        ends
    }
}

/// Decodes a list and its genes with a fresh [`Decoder`] (the tests' entry).
#[cfg(test)]
fn decode(prob: &IntProblem, first: &[usize], list: &[usize], genes: &[u32]) -> (IntSchedule, Int) {
    let mut out = IntSchedule {
        attempts: Vec::with_capacity(list.len()),
        makespan: 0,
    };
    let ends = Decoder::new(prob).decode(prob, first, list, genes, &mut out);
    (out, ends)
}

/// The schedule mirrored in time within [0, its makespan]: each attempt ends where it started
/// before, and job j's attempt k becomes its attempt f_j + 2 − k (its chain reversed). The
/// model is symmetric (every attempt of a job has the same options), so the mirror of a
/// feasible schedule is feasible, with the same makespan.
fn mirror(prob: &IntProblem, s: &IntSchedule) -> IntSchedule {
    let attempts = s
        .attempts
        .iter()
        .map(|a| IntAttempt {
            attempt: prob.jobs[a.job].attempts + 1 - a.attempt,
            start: s.makespan - a.start - a.dur,
            ..*a
        })
        .collect();
    IntSchedule {
        attempts,
        makespan: s.makespan,
    }
}

/// Double justification (Valls, Ballestín and Quintanilla, EJOR 2005: "Justification and RCPSP:
/// a technique that pays"): every attempt shifted as late as it can go (the decoder run on the
/// mirrored schedule, last end first), then as early as it can go (decoded again, first start
/// first). Each pass decodes a schedule's own start order with its own options, which is never
/// worse (see the module documentation), so the result's makespan is at most `s`'s; it often
/// closes the holes a list order left open.
fn justify(prob: &IntProblem, first: &[usize], dec: &mut Decoder, s: &IntSchedule) -> Cand {
    let total = s.attempts.len();
    let mut genes = vec![AUTO; total];
    let empty = || IntSchedule {
        attempts: Vec::with_capacity(total),
        makespan: 0,
    };
    let list = encode(prob, first, &mirror(prob, s), &mut genes);
    let mut back = empty();
    dec.decode(prob, first, &list, &genes, &mut back);
    let list = encode(prob, first, &mirror(prob, &back), &mut genes);
    let mut sched = empty();
    let ends = dec.decode(prob, first, &list, &genes, &mut sched);
    Cand {
        list,
        genes,
        sched,
        ends,
    }
}

/// `first[j]`: the index of job j's first gene (its attempts' genes follow it).
fn first_genes(prob: &IntProblem) -> Vec<usize> {
    prob.jobs
        .iter()
        .scan(0usize, |acc, j| {
            let at = *acc;
            *acc += j.attempts as usize;
            Some(at)
        })
        .collect()
}

/// The list and genes of a complete schedule: its attempts by start time (ties: job order),
/// each with the option it used.
fn encode(prob: &IntProblem, first: &[usize], s: &IntSchedule, genes: &mut [u32]) -> Vec<usize> {
    let mut atts = s.attempts.clone();
    atts.sort_by_key(|a| (a.start, a.job, a.attempt));
    for a in &atts {
        let opts = &prob.jobs[a.job].options;
        // A schedule of this model uses one of the job's options; were it not so, AUTO (let the
        // decoder choose) is still a valid gene, and the result is kept only if it is better.
        let g = opts
            .iter()
            .position(|o| o.procs == a.procs && o.dur == a.dur)
            .map_or(AUTO, |i| i as u32);
        genes[first[a.job] + a.attempt as usize - 1] = g;
    }
    atts.iter().map(|a| a.job).collect()
}

/// An incumbent no worse than `start`, by the local search of the module documentation; it
/// stops early once a schedule of makespan ≤ `lower_bound` is found. `start` must be a
/// complete schedule of `prob` (every attempt once); otherwise it is returned unchanged.
pub fn improve(
    prob: &IntProblem,
    start: &IntSchedule,
    lower_bound: Int,
    budget: &Budget,
) -> IntSchedule {
    match LocalSearch::new(prob, start, lower_bound, budget.seed, budget.stall) {
        Some(mut ls) => {
            ls.run(budget.moves, budget.deadline, lower_bound);
            ls.best().clone()
        }
        None => start.clone(),
    }
}

/// The local search of the module documentation as a state that can be run again: a second
/// [`LocalSearch::run`] continues the same trajectory (the same current solution, best, move
/// generator and stall count), so that running m moves then n more gives the schedule of one
/// run of m + n moves when no deadline strikes. [`crate::opt::solve`] runs it once before the root
/// stages and continues it only when they leave a gap.
pub struct LocalSearch<'a> {
    prob: &'a IntProblem,
    first: Vec<usize>,
    dec: Decoder,
    rigid: bool,
    cur: Cand,
    cur_score: (Int, Int),
    /// The candidate's buffers, reused by every move.
    cand: Cand,
    best: Cand,
    /// The start schedule, returned while nothing shorter is found.
    start: IntSchedule,
    target: Int,
    rng: Rng,
    since_best: u64,
    stall: u64,
    moves: u64,
}

impl<'a> LocalSearch<'a> {
    /// The search from `start` (its justified decode on rigid instances), or `None` when
    /// `start` is not a complete schedule of `prob` (every attempt once), has fewer than two
    /// attempts, or already meets `lower_bound`.
    pub fn new(
        prob: &'a IntProblem,
        start: &IntSchedule,
        lower_bound: Int,
        seed: u64,
        stall: u64,
    ) -> Option<LocalSearch<'a>> {
        let total: usize = prob.jobs.iter().map(|j| j.attempts as usize).sum();
        if start.attempts.len() != total || total < 2 || start.makespan <= lower_bound {
            return None;
        }
        let first = first_genes(prob);
        let mut dec = Decoder::new(prob);
        let mut genes = vec![AUTO; total];
        let list = encode(prob, &first, start, &mut genes);
        let mut sched = IntSchedule {
            attempts: Vec::with_capacity(total),
            makespan: 0,
        };
        let ends = dec.decode(prob, &first, &list, &genes, &mut sched);
        let mut cur = Cand {
            list,
            genes,
            sched,
            ends,
        };
        // Justification on rigid instances only: it fixes every gene to the option the schedule
        // used (no AUTO left), which on moldable ones would narrow the later moves to the
        // options the start schedule happened to use.
        let rigid = prob.jobs.iter().all(|j| j.options.len() == 1);
        if rigid {
            let justified = justify(prob, &first, &mut dec, &cur.sched);
            if justified.key() < cur.key() {
                cur = justified;
            }
        }
        let best = cur.clone();
        let target = best.sched.makespan - 1;
        let cur_score = score(rigid, &cur, target);
        Some(LocalSearch {
            prob,
            first,
            dec,
            rigid,
            cand: cur.clone(),
            cur,
            cur_score,
            best,
            start: start.clone(),
            target,
            rng: Rng(seed),
            since_best: 0,
            stall: stall.max(1),
            moves: 0,
        })
    }

    /// The best schedule so far, never worse than the start.
    pub fn best(&self) -> &IntSchedule {
        if self.best.sched.makespan < self.start.makespan {
            &self.best.sched
        } else {
            &self.start
        }
    }

    /// Moves tried so far, over every run.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Tries up to `moves` more moves; stops early at `deadline` (checked before every move)
    /// or once the best meets `lower_bound`.
    pub fn run(&mut self, moves: u64, deadline: Option<Instant>, lower_bound: Int) {
        let prob = self.prob;
        let first = &self.first[..];
        let rigid = self.rigid;
        for _ in 0..moves {
            if self.best.sched.makespan <= lower_bound {
                break;
            }
            // Every move: one decode costs O(A²) (thousands of attempts: milliseconds), far
            // more than reading the clock.
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            self.moves += 1;
            let cand = &mut self.cand;
            cand.list.clone_from(&self.cur.list);
            cand.genes.clone_from(&self.cur.genes);
            random_move(prob, first, cand, &mut self.rng);
            cand.ends = self
                .dec
                .decode(prob, first, &cand.list, &cand.genes, &mut cand.sched);
            let mut cand_score = score(rigid, cand, self.target);
            if cand_score <= self.cur_score {
                // An accepted move is justified too (two more decodes, only on accepted moves).
                if rigid {
                    let justified = justify(prob, first, &mut self.dec, &cand.sched);
                    let js = score(rigid, &justified, self.target);
                    if js < cand_score {
                        *cand = justified;
                        cand_score = js;
                    }
                }
                std::mem::swap(&mut self.cur, &mut self.cand);
                self.cur_score = cand_score;
                let better = if rigid {
                    self.cur.sched.makespan < self.best.sched.makespan
                } else {
                    self.cur.key() < self.best.key()
                };
                if better {
                    self.best.clone_from(&self.cur);
                    self.target = self.best.sched.makespan - 1;
                    self.cur_score = score(rigid, &self.cur, self.target);
                    self.since_best = 0;
                    continue;
                }
            }
            self.since_best += 1;
            if self.since_best >= self.stall {
                // Kick: restart from the best with a few random moves, kept whatever they cost.
                self.cur.clone_from(&self.best);
                for _ in 0..3 {
                    random_move(prob, first, &mut self.cur, &mut self.rng);
                }
                let cur = &mut self.cur;
                cur.ends = self
                    .dec
                    .decode(prob, first, &cur.list, &cur.genes, &mut cur.sched);
                self.cur_score = score(rigid, &self.cur, self.target);
                self.since_best = 0;
            }
        }
    }
}

/// How a candidate is judged: on rigid instances by the work it leaves after the target (one
/// unit below the best makespan), see the module documentation; moldable ones keep the
/// makespan.
fn score(rigid: bool, c: &Cand, target: Int) -> (Int, Int) {
    if rigid {
        (overflow(&c.sched, target), c.ends)
    } else {
        c.key()
    }
}

/// The work after `target`: Σ over the attempts of processors × their time after it. Zero
/// exactly when the makespan is at most `target`; unlike the makespan, it falls with every
/// attempt moved out of the last units, so the moves that lead there are told apart.
fn overflow(s: &IntSchedule, target: Int) -> Int {
    s.attempts
        .iter()
        .filter(|a| a.start + a.dur > target)
        .map(|a| Int::from(a.procs) * (a.start + a.dur - a.start.max(target)))
        .sum()
}

/// One random move on the list or the genes (the schedule is decoded by the caller).
fn random_move(prob: &IntProblem, first: &[usize], c: &mut Cand, rng: &mut Rng) {
    let len = c.list.len();
    match rng.below(3) {
        0 => {
            let (a, b) = (rng.below(len), rng.below(len));
            c.list.swap(a, b);
        }
        1 => {
            let a = rng.below(len);
            let j = c.list.remove(a);
            let b = rng.below(len);
            c.list.insert(b, j);
        }
        _ => {
            let j = c.list[rng.below(len)];
            let opts = prob.jobs[j].options.len();
            if opts == 1 {
                // A rigid job: nothing to choose; move it one step earlier instead.
                if let Some(a) = c.list.iter().position(|&x| x == j) {
                    if a > 0 {
                        c.list.swap(a - 1, a);
                    }
                }
                return;
            }
            let g = first[j] + rng.below(prob.jobs[j].attempts as usize);
            let pick = rng.below(opts + 1);
            c.genes[g] = if pick == opts { AUTO } else { pick as u32 };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{generate, greedy, problem, to_schedule};
    use super::*;
    use crate::model::{Instance, Scenario};

    /// On seeded paper-model and anchor instances the result is never worse than the greedy,
    /// always feasible (the independent checker), and deterministic.
    #[test]
    fn never_worse_than_greedy_and_feasible() {
        let mut strictly_better = 0;
        for seed in 0..6u64 {
            let cases = [
                generate::paper_moldable(12, 4, 20, seed).unwrap(),
                generate::paper_moldable(16, 8, 20, seed).unwrap(),
                generate::anchor_rigid(16, 4, seed),
                generate::anchor_moldable(12, 4, seed),
            ];
            for (ci, (inst, sc)) in cases.iter().enumerate() {
                let prob = problem::build(inst, sc).unwrap();
                let g = greedy::best(&prob);
                let budget = Budget {
                    moves: 5_000,
                    stall: 500,
                    deadline: None,
                    seed: 7,
                };
                let s = improve(&prob, &g, 0, &budget);
                assert!(s.makespan <= g.makespan, "seed {seed} case {ci}");
                strictly_better += usize::from(s.makespan < g.makespan);
                let sched = to_schedule(inst, &prob, &s, "improve");
                let m = crate::check::check(inst, sc, &sched)
                    .unwrap_or_else(|v| panic!("seed {seed} case {ci}: {v}"));
                assert_eq!(m, prob.to_time(s.makespan), "seed {seed} case {ci}");
                assert_eq!(improve(&prob, &g, 0, &budget), s, "seed {seed} case {ci}");
            }
        }
        // The search must actually improve something on these 24 instances.
        assert!(strictly_better >= 6, "only {strictly_better} improved");
    }

    /// Two rigid anchors, a moldable anchor and a paper-style moldable instance of `seed`.
    fn mixed_cases(seed: u64) -> [(Instance, Scenario); 4] {
        [
            generate::anchor_rigid(40, 16, seed),
            generate::anchor_rigid(30, 8, seed),
            generate::anchor_moldable(16, 8, seed),
            generate::paper_moldable(12, 4, 20, seed).unwrap(),
        ]
    }

    /// Double justification alone, on greedy schedules of seeded rigid and moldable instances:
    /// feasible (the independent checker), never longer, and strictly shorter on some (a
    /// greedy list leaves holes that the backward and forward passes close).
    #[test]
    fn justification_is_feasible_and_never_longer() {
        let mut shorter = 0;
        for seed in 0..8u64 {
            let cases = mixed_cases(seed);
            for (ci, (inst, sc)) in cases.iter().enumerate() {
                let prob = problem::build(inst, sc).unwrap();
                let g = greedy::best(&prob);
                let c = justify(&prob, &first_genes(&prob), &mut Decoder::new(&prob), &g);
                assert!(c.sched.makespan <= g.makespan, "seed {seed} case {ci}");
                shorter += usize::from(c.sched.makespan < g.makespan);
                let sched = to_schedule(inst, &prob, &c.sched, "justify");
                let m = crate::check::check(inst, sc, &sched)
                    .unwrap_or_else(|v| panic!("seed {seed} case {ci}: {v}"));
                assert_eq!(m, prob.to_time(c.sched.makespan), "seed {seed} case {ci}");
            }
        }
        assert!(shorter >= 4, "only {shorter} of 32 shortened");
    }

    /// The rigid anchor P = 32, A = 60, seed 4 (open in the bench table with the best 166 the
    /// search found from the local search's 167): with justification the solve's own budget
    /// reaches 164, so 166 was not optimal. Fixed seed and moves, no deadline: exact.
    #[test]
    fn justification_finds_the_shorter_schedule_of_an_open_anchor() {
        let (inst, sc) = generate::anchor_rigid(60, 32, 4);
        let prob = problem::build(&inst, &sc).unwrap();
        let g = greedy::best(&prob);
        assert_eq!(g.makespan, 172);
        let s = improve(&prob, &g, 0, &Budget::for_attempts(60, None));
        assert_eq!(s.makespan, 164);
    }

    /// The rigid anchors P = 8, A = 60, seed 1003 and P = 32, A = 60, seed 1001 of the `opt`
    /// bench (open with the best 162 and 179 against root bounds 161 and 178 when moves were
    /// judged by the makespan): judged by the work after the target, the solve's own budget
    /// reaches the bounds, so both are optimal. Fixed seed and moves, no deadline: exact.
    #[test]
    fn the_work_after_the_target_reaches_the_bound_of_two_open_anchors() {
        for (procs, seed, greedy_ms, bound) in [(8u32, 1003u64, 171, 161), (32, 1001, 179, 178)] {
            let (inst, sc) = generate::anchor_rigid(60, procs, seed);
            let prob = problem::build(&inst, &sc).unwrap();
            let g = greedy::best(&prob);
            assert_eq!(g.makespan, greedy_ms, "P = {procs}, seed {seed}");
            let s = improve(&prob, &g, bound, &Budget::for_attempts(60, None));
            assert_eq!(s.makespan, bound, "P = {procs}, seed {seed}");
            let sched = to_schedule(&inst, &prob, &s, "improve");
            assert_eq!(
                crate::check::check(&inst, &sc, &sched).unwrap(),
                prob.to_time(bound),
                "P = {procs}, seed {seed}"
            );
        }
    }

    /// A run continued is the same trajectory as one run of all its moves: m moves then n
    /// more give the schedule of m + n moves (rigid and moldable instances, no deadline).
    #[test]
    fn a_continued_run_is_one_run() {
        for seed in 0..3u64 {
            for (ci, (inst, sc)) in mixed_cases(seed).iter().enumerate() {
                let prob = problem::build(inst, sc).unwrap();
                let g = greedy::best(&prob);
                let budget = Budget {
                    moves: 3_000,
                    stall: 300,
                    deadline: None,
                    seed: 11,
                };
                let whole = improve(&prob, &g, 0, &budget);
                let mut ls = LocalSearch::new(&prob, &g, 0, budget.seed, budget.stall)
                    .unwrap_or_else(|| panic!("seed {seed} case {ci}: no search"));
                ls.run(1_000, None, 0);
                ls.run(2_000, None, 0);
                assert_eq!(ls.moves(), 3_000, "seed {seed} case {ci}");
                assert_eq!(ls.best(), &whole, "seed {seed} case {ci}");
            }
        }
    }

    /// The work after a target on a hand-made schedule: P = 3, A(2 procs) on [0, 4), B(1 proc)
    /// on [2, 5); after 3: 2·1 + 1·2 = 4; after 1: 2·3 + 1·3 = 9 (B starts after 1); after 5:
    /// nothing.
    #[test]
    fn work_after_the_target() {
        let att = |job, procs, start, dur| IntAttempt {
            job,
            attempt: 1,
            procs,
            start,
            dur,
        };
        let s = IntSchedule {
            attempts: vec![att(0, 2, 0, 4), att(1, 1, 2, 3)],
            makespan: 5,
        };
        assert_eq!(
            [overflow(&s, 3), overflow(&s, 1), overflow(&s, 5)],
            [4, 9, 0]
        );
    }

    /// The anchors (attempts of 1 to 10 units) decode on a slot array; an instance on a fine
    /// grid (sevenths of a second, attempts of hundreds of seconds) on the step profile.
    #[test]
    fn fine_grids_decode_on_the_step_profile() {
        let (inst, sc) = generate::anchor_rigid(60, 16, 0);
        let prob = problem::build(&inst, &sc).unwrap();
        assert!(matches!(Decoder::new(&prob).occ, Occupancy::Slots(_)));
        let jobs = (0..12)
            .map(|i| {
                let t = crate::Time::new(2000 + 1500 * i, 7).unwrap();
                crate::model::Job::rigid(format!("J{i}"), 1 + (i as u32 % 8), t)
            })
            .collect();
        let inst = Instance { procs: 8, jobs };
        let sc = Scenario::new(vec![1; 12]);
        let prob = problem::build(&inst, &sc).unwrap();
        assert!(matches!(Decoder::new(&prob).occ, Occupancy::Steps(_)));
    }

    /// The slot array and the step profile decode the same schedules: random lists and genes
    /// (AUTO included) of seeded rigid and moldable instances, one decoder of each kind reused
    /// across the lists as the search reuses its own.
    #[test]
    fn slot_and_step_decoders_agree() {
        let mut decoded = 0;
        for seed in 0..4u64 {
            let cases = mixed_cases(seed);
            for (ci, (inst, sc)) in cases.iter().enumerate() {
                let prob = problem::build(inst, sc).unwrap();
                let first = first_genes(&prob);
                let total = prob.total_attempts() as usize;
                let mut slots = Decoder::with_slots_per_attempt(&prob, Int::MAX);
                assert!(
                    matches!(slots.occ, Occupancy::Slots(_)),
                    "seed {seed} case {ci}"
                );
                let mut steps = Decoder::new(&prob);
                steps.occ = Occupancy::Steps(Profile::new());
                let mut rng = Rng(seed);
                let mut list: Vec<usize> = (0..prob.jobs.len())
                    .flat_map(|j| std::iter::repeat_n(j, prob.jobs[j].attempts as usize))
                    .collect();
                let mut genes = vec![AUTO; total];
                let empty = || IntSchedule {
                    attempts: Vec::new(),
                    makespan: 0,
                };
                let (mut a, mut b) = (empty(), empty());
                for _ in 0..50 {
                    for i in (1..list.len()).rev() {
                        list.swap(i, rng.below(i + 1));
                    }
                    for (j, job) in prob.jobs.iter().enumerate() {
                        for k in 0..job.attempts as usize {
                            let pick = rng.below(job.options.len() + 1);
                            genes[first[j] + k] = if pick == job.options.len() {
                                AUTO
                            } else {
                                pick as u32
                            };
                        }
                    }
                    let ea = slots.decode(&prob, &first, &list, &genes, &mut a);
                    let eb = steps.decode(&prob, &first, &list, &genes, &mut b);
                    assert_eq!((&a, ea), (&b, eb), "seed {seed} case {ci}");
                    decoded += 1;
                }
            }
        }
        assert_eq!(decoded, 800);
    }

    /// The decoder on a hand-made case: P = 3, A(2 procs, 2), B(2 procs, 1), C(1 proc, 3).
    /// List A, B, C: A [0,2), B cannot fit beside A → [2,3), C beside A → [0,3). Makespan 3.
    #[test]
    fn decoder_places_at_earliest_fit() {
        let t = crate::Time::from_int;
        let inst = crate::model::Instance::rigid(3, &[(2, t(2)), (2, t(1)), (1, t(3))]).unwrap();
        let sc = crate::model::Scenario::none(3);
        let prob = problem::build(&inst, &sc).unwrap();
        let (s, ends) = decode(&prob, &[0, 1, 2], &[0, 1, 2], &[0, 0, 0]);
        let starts: Vec<(usize, Int)> = s.attempts.iter().map(|a| (a.job, a.start)).collect();
        assert_eq!(starts, vec![(0, 0), (1, 2), (2, 0)]);
        assert_eq!((s.makespan, ends), (3, 2 + 3 + 3));
    }

    /// A large instance (1,000 moldable jobs, 2,000 attempts) with a huge move budget stops at
    /// its deadline (checked before every move; a decode costs milliseconds here), still
    /// returning a feasible schedule no worse than the greedy one. The 5 s margin is for a
    /// loaded machine; without the deadline this budget would run for hours.
    #[test]
    fn honours_the_deadline_on_a_large_instance() {
        let (inst, sc) = generate::paper_moldable(2000, 8, 20, 1).unwrap();
        let prob = problem::build(&inst, &sc).unwrap();
        let g = greedy::best(&prob);
        let started = Instant::now();
        let budget = Budget {
            moves: 10_000_000,
            stall: 2_000,
            deadline: Some(started + std::time::Duration::from_millis(200)),
            seed: 1,
        };
        let s = improve(&prob, &g, 0, &budget);
        assert!(
            started.elapsed().as_secs_f64() < 5.0,
            "{:?}",
            started.elapsed()
        );
        assert!(s.makespan <= g.makespan);
        let sched = to_schedule(&inst, &prob, &s, "improve");
        assert_eq!(
            crate::check::check(&inst, &sc, &sched).unwrap(),
            prob.to_time(s.makespan)
        );
    }

    /// Stops at once when the start already meets the bound, and returns incomplete starts
    /// unchanged.
    #[test]
    fn stops_at_the_bound() {
        let (inst, sc) = generate::anchor_rigid(8, 4, 1);
        let prob = problem::build(&inst, &sc).unwrap();
        let g = greedy::best(&prob);
        let b = Budget::for_attempts(8, None);
        assert_eq!(improve(&prob, &g, g.makespan, &b), g);
        let partial = IntSchedule {
            attempts: g.attempts[1..].to_vec(),
            makespan: g.makespan,
        };
        assert_eq!(improve(&prob, &partial, 0, &b), partial);
    }
}
