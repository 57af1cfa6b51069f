//! Independent checker of a node-stealing run (issue "Node stealing", item 5).
//!
//! It judges the *records* of a run (attempts, holds, failures, completions) against the
//! workload and the resilience parameters, and recomputes what it needs itself — the checkpoint
//! grid, Eq. (1)–(2), the downtime intervals, the time decomposition — without calling the
//! scheduler's code (`sim`, `plan`, `checkpoint`, `metrics`). Invariants:
//! 1. **jobs**: each job's derived data matches the workload (release, nodes, run time cut at
//!    the walltime) and Eq. (1)–(2) for its period;
//! 2. **failures**: a failure on a node that is down must have no effect; any other one puts the
//!    node down for exactly D;
//! 3. **attempts**: numbered 1, 2, … in time; none starts before the release or before the
//!    previous one ends; the first starts at position 0 without recovery; each next one starts
//!    where the previous kept (and with recovery R after a failure or a steal, none after a
//!    resumed checkpoint); durations decompose exactly (recovery + progress + proactive
//!    checkpoint); a failed attempt keeps exactly its last checkpoint (never less than its
//!    start); an interrupted one keeps a checkpoint it completed or proactively took; the last
//!    attempt completes the whole timeline at the job's completion time;
//! 4. **nodes**: every attempt has exactly the job's node count, ids < N; no node runs two
//!    attempts (or holds) at once; no attempt or hold uses a down node; a failed attempt ends
//!    exactly when a failure strikes one of its nodes;
//! 5. **time**: the decomposition of platform time (useful, checkpoint, recovery, lost,
//!    stealing, down, idle), recomputed here with idle measured directly as up-and-unused node
//!    time, sums exactly to N × window.
use super::model::{Resilience, Workload};
use super::nodes::{NodeBitset, NodeSet};
use super::sim::{Cause, Effect, Outcome, Run};
use crate::time::Time;
use num_traits::ToPrimitive;
use std::fmt;

/// The first broken invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which invariant (`jobs`, `failures`, `attempts`, `nodes`, `time`).
    pub rule: &'static str,
    pub msg: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.rule, self.msg)
    }
}

impl std::error::Error for Violation {}

fn v(rule: &'static str, msg: String) -> Violation {
    Violation { rule, msg }
}

/// The time decomposition as the checker sees it (same meaning as the metrics').
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Totals {
    pub useful: Time,
    pub checkpoint: Time,
    pub recovery: Time,
    pub lost: Time,
    pub stealing: Time,
    pub down: Time,
    pub idle: Time,
    pub total: Time,
}

/// The checker's own view of a job's checkpoint grid.
struct Grid {
    step: Option<Time>,
    period: Time,
    c: Time,
    len: Time,
    n: u64,
}

impl Grid {
    fn idx(&self, y: &Time) -> u64 {
        match &self.step {
            None => 0,
            Some(s) => y
                .checked_div(s)
                .and_then(|q| q.floor().to_u64())
                .unwrap_or(0)
                .min(self.n.saturating_sub(1)),
        }
    }
    /// Last completion ≤ y.
    fn last(&self, y: &Time) -> Time {
        if *y >= self.len {
            return self.len.clone();
        }
        match &self.step {
            None => Time::zero(),
            Some(s) => s.mul_int(self.idx(y)),
        }
    }
    fn is_completion(&self, y: &Time) -> bool {
        *y == self.len || (self.step.is_some() && self.last(y) == *y)
    }
    /// Checkpoint time in positions [0, x].
    fn ckpt(&self, x: &Time) -> Time {
        let Some(s) = &self.step else {
            return Time::zero();
        };
        let k = self.idx(x);
        let start = if k + 1 >= self.n {
            &self.len - &self.c
        } else {
            &s.mul_int(k) + &self.period
        };
        let inside = if *x > start { x - &start } else { Time::zero() };
        &self.c.mul_int(k) + &inside
    }
}

fn clip(a: &Time, b: &Time, w: &(Time, Time)) -> Option<(Time, Time)> {
    let lo = if *a > w.0 { a.clone() } else { w.0.clone() };
    let hi = if *b < w.1 { b.clone() } else { w.1.clone() };
    (lo < hi).then_some((lo, hi))
}

fn clip_len(a: &Time, b: &Time, w: &(Time, Time)) -> Time {
    clip(a, b, w).map(|(lo, hi)| &hi - &lo).unwrap_or_default()
}

/// Checks `run` against the workload it was made from; returns the decomposition over `window`
/// (default [0, last completion)).
pub fn check(
    w: &Workload,
    res: &Resilience,
    run: &Run,
    window: Option<(Time, Time)>,
) -> Result<Totals, Violation> {
    let n = w.nodes;
    if run.nodes != n || run.jobs.len() != w.jobs.len() || run.completion.len() != w.jobs.len() {
        return Err(v("jobs", "the run does not describe this workload".into()));
    }
    // 1. Jobs and Eq. (1)-(2).
    let mut grids = Vec::with_capacity(w.jobs.len());
    for (i, (j, info)) in w.jobs.iter().zip(&run.jobs).enumerate() {
        let work = if j.run > j.walltime {
            j.walltime.clone()
        } else {
            j.run.clone()
        };
        if info.release != j.release || info.nodes != j.nodes || info.timeline.work != work {
            return Err(v(
                "jobs",
                format!("job {i} ({}) does not match the workload", j.name),
            ));
        }
        let (period, c) = match &info.timeline.period {
            Some(t) if res.checkpoint.is_positive() && t.is_positive() => {
                (t.clone(), res.checkpoint.clone())
            }
            None if !res.checkpoint.is_positive() => (Time::zero(), Time::zero()),
            _ => {
                return Err(v(
                    "jobs",
                    format!(
                        "job {i}: checkpoint period inconsistent with C = {}",
                        res.checkpoint
                    ),
                ))
            }
        };
        let ceil = |x: &Time| {
            x.checked_div(&period)
                .and_then(|q| q.ceil().to_u64())
                .unwrap_or(0)
        };
        let (k, kw) = if period.is_positive() {
            (ceil(&work), ceil(&j.walltime))
        } else {
            (0, 0)
        };
        let len = &work + &c.mul_int(k);
        let wall = &j.walltime + &c.mul_int(kw);
        if info.timeline.len != len || info.wall_len != wall {
            return Err(v(
                "jobs",
                format!(
                    "job {i}: Eq. (1)-(2) give {len} and {wall}, run says {} and {}",
                    info.timeline.len, info.wall_len
                ),
            ));
        }
        let step = period.is_positive().then(|| &period + &c);
        grids.push(Grid {
            step,
            period,
            c,
            len,
            n: k,
        });
    }
    // 2. Failures → down intervals.
    let d = &res.downtime;
    let mut down_until: Vec<Option<Time>> = vec![None; n as usize];
    let mut downs: Vec<(Time, Time, u32)> = Vec::new();
    let mut last_t = Time::zero();
    let mut effective: std::collections::HashSet<(Time, u32)> = Default::default();
    for f in &run.failures {
        if f.node >= n || f.time < last_t {
            return Err(v(
                "failures",
                format!(
                    "failure at {} on node {} out of order or range",
                    f.time, f.node
                ),
            ));
        }
        last_t = f.time.clone();
        let is_down = down_until[f.node as usize]
            .as_ref()
            .is_some_and(|u| f.time < *u);
        if is_down != (f.effect == Effect::AlreadyDown) {
            return Err(v(
                "failures",
                format!(
                    "failure at {} on node {}: node down = {is_down}, effect {:?}",
                    f.time, f.node, f.effect
                ),
            ));
        }
        if !is_down {
            let end = &f.time + d;
            down_until[f.node as usize] = Some(end.clone());
            downs.push((f.time.clone(), end, f.node));
            effective.insert((f.time.clone(), f.node));
        }
    }
    // 3. Attempts, job by job.
    let mut by_job: Vec<Vec<usize>> = vec![Vec::new(); w.jobs.len()];
    for (k, a) in run.attempts.iter().enumerate() {
        if a.job >= w.jobs.len() {
            return Err(v("attempts", format!("attempt {k} names job {}", a.job)));
        }
        by_job[a.job].push(k);
    }
    for (j, list) in by_job.iter_mut().enumerate() {
        list.sort_by_key(|&k| run.attempts[k].index);
        let job = &w.jobs[j];
        let g = &grids[j];
        let name = &job.name;
        if list.is_empty() {
            return Err(v("attempts", format!("job {name} never ran")));
        }
        for (pos, &k) in list.iter().enumerate() {
            let a = &run.attempts[k];
            let at = || format!("job {name} attempt {}", a.index);
            if a.index as usize != pos + 1 {
                return Err(v("attempts", format!("{}: numbered out of sequence", at())));
            }
            if a.nodes.len() != job.nodes || a.nodes.ranges().last().is_some_and(|r| r.1 > n) {
                return Err(v(
                    "nodes",
                    format!(
                        "{}: {} nodes {}, the job has {}",
                        at(),
                        a.nodes.len(),
                        a.nodes,
                        job.nodes
                    ),
                ));
            }
            if a.start < job.release || a.end < a.start {
                return Err(v(
                    "attempts",
                    format!(
                        "{}: [{}, {}) before release {}",
                        at(),
                        a.start,
                        a.end,
                        job.release
                    ),
                ));
            }
            if !(a.pos_start <= a.commit && a.commit <= a.reached && a.reached <= g.len) {
                return Err(v(
                    "attempts",
                    format!(
                        "{}: positions {} ≤ {} ≤ {} ≤ {} broken",
                        at(),
                        a.pos_start,
                        a.commit,
                        a.reached,
                        g.len
                    ),
                ));
            }
            if a.recovery_done > a.recovery
                || (a.recovery_done < a.recovery
                    && (a.reached != a.pos_start || a.extra.is_positive()))
            {
                return Err(v(
                    "attempts",
                    format!("{}: progress before the end of the recovery", at()),
                ));
            }
            let dur = &(&a.recovery_done + &(&a.reached - &a.pos_start)) + &a.extra;
            if &a.end - &a.start != dur {
                return Err(v(
                    "attempts",
                    format!(
                        "{}: lasts {}, its parts sum to {dur}",
                        at(),
                        &a.end - &a.start
                    ),
                ));
            }
            // Start of the chain.
            if pos == 0 {
                if a.cause != Cause::First || a.recovery.is_positive() || a.pos_start.is_positive()
                {
                    return Err(v(
                        "attempts",
                        format!(
                            "{}: the first attempt starts from scratch without recovery",
                            at()
                        ),
                    ));
                }
            } else {
                let p = &run.attempts[list[pos - 1]];
                let (cause, rec) = match p.outcome {
                    Outcome::Failed { .. } => (Cause::AfterFailure, res.recovery.clone()),
                    Outcome::Stolen { .. } => (Cause::AfterSteal, res.recovery.clone()),
                    Outcome::Checkpointed => (Cause::Resume, Time::zero()),
                    Outcome::Completed => {
                        return Err(v("attempts", format!("{}: runs after completion", at())))
                    }
                };
                if a.cause != cause
                    || a.recovery != rec
                    || a.pos_start != p.commit
                    || a.start < p.end
                {
                    return Err(v("attempts", format!("{}: does not continue attempt {} (cause {:?}, recovery {}, from {} vs kept {}, start {} vs end {})", at(), p.index, a.cause, a.recovery, a.pos_start, p.commit, a.start, p.end)));
                }
                if cause == Cause::Resume && (a.start != p.end || a.nodes != p.nodes) {
                    return Err(v(
                        "attempts",
                        format!(
                            "{}: a resumed attempt continues at once on the same nodes",
                            at()
                        ),
                    ));
                }
            }
            // What is kept.
            let floor_keep = {
                let l = g.last(&a.reached);
                if l > a.pos_start {
                    l
                } else {
                    a.pos_start.clone()
                }
            };
            match a.outcome {
                Outcome::Completed => {
                    if a.reached != g.len || a.commit != g.len || a.extra.is_positive() {
                        return Err(v(
                            "attempts",
                            format!("{}: completes without finishing its timeline", at()),
                        ));
                    }
                    if pos + 1 != list.len() || run.completion[j] != a.end {
                        return Err(v("attempts", format!("{}: completion inconsistent", at())));
                    }
                }
                Outcome::Failed { node } => {
                    if !a.nodes.contains(node) || !effective.contains(&(a.end.clone(), node)) {
                        return Err(v("nodes", format!("{}: ends by a failure of node {node} at {} that did not happen there", at(), a.end)));
                    }
                    if a.commit != floor_keep {
                        return Err(v(
                            "attempts",
                            format!(
                                "{}: keeps {}, its last checkpoint is {floor_keep}",
                                at(),
                                a.commit
                            ),
                        ));
                    }
                }
                Outcome::Stolen { .. } | Outcome::Checkpointed => {
                    let proactive = a.extra == g.c && a.commit == a.reached;
                    let waited = !a.extra.is_positive()
                        && a.commit == a.reached
                        && (g.is_completion(&a.reached) || a.reached == a.pos_start);
                    let rolled = !a.extra.is_positive()
                        && a.commit == floor_keep
                        && matches!(a.outcome, Outcome::Stolen { .. });
                    if !(proactive || waited || rolled) {
                        return Err(v(
                            "attempts",
                            format!(
                                "{}: interrupted keeping {} at position {} (extra {})",
                                at(),
                                a.commit,
                                a.reached,
                                a.extra
                            ),
                        ));
                    }
                }
            }
            if pos + 1 == list.len() && a.outcome != Outcome::Completed {
                return Err(v("attempts", format!("job {name} never completes")));
            }
        }
    }
    // 4. Node exclusivity: attempts, holds and downtimes never share a node at a time.
    #[derive(Clone)]
    enum Who {
        Attempt(usize),
        Hold(usize),
        Down(usize),
    }
    let mut ev: Vec<(Time, bool, Who)> = Vec::new();
    for (k, a) in run.attempts.iter().enumerate() {
        if a.start < a.end {
            ev.push((a.start.clone(), true, Who::Attempt(k)));
            ev.push((a.end.clone(), false, Who::Attempt(k)));
        }
    }
    for (k, h) in run.holds.iter().enumerate() {
        if h.start < h.end {
            ev.push((h.start.clone(), true, Who::Hold(k)));
            ev.push((h.end.clone(), false, Who::Hold(k)));
        }
    }
    for (k, dn) in downs.iter().enumerate() {
        if dn.0 < dn.1 {
            ev.push((dn.0.clone(), true, Who::Down(k)));
            ev.push((dn.1.clone(), false, Who::Down(k)));
        }
    }
    // Ends before starts at the same instant (half-open intervals).
    ev.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let set_of = |who: &Who| -> NodeSet {
        match who {
            Who::Attempt(k) => run.attempts[*k].nodes.clone(),
            Who::Hold(k) => run.holds[*k].nodes.clone(),
            Who::Down(k) => NodeSet::single(downs[*k].2),
        }
    };
    let describe = |who: &Who| -> String {
        match who {
            Who::Attempt(k) => {
                let a = &run.attempts[*k];
                format!("job {} attempt {}", w.jobs[a.job].name, a.index)
            }
            Who::Hold(k) => format!("the hold of job {}", w.jobs[run.holds[*k].job].name),
            Who::Down(k) => format!("the downtime of node {} from {}", downs[*k].2, downs[*k].0),
        }
    };
    let win = window.unwrap_or_else(|| (Time::zero(), run.end.clone()));
    let mut occ = NodeBitset::empty(n);
    let mut owner: Vec<(NodeSet, Who)> = Vec::new();
    let mut idle = Time::zero();
    let mut last = win.0.clone();
    for (t, start, who) in &ev {
        // Idle node-time since the previous event, inside the window.
        idle = &idle + &clip_len(&last, t, &win).mul_int(u64::from(n - occ.count()));
        if *t > last {
            last = t.clone();
        }
        let s = set_of(who);
        if *start {
            if occ.count_set(&s) > 0 {
                let other = owner
                    .iter()
                    .find(|(o, _)| !o.is_disjoint(&s))
                    .map(|(_, x)| describe(x))
                    .unwrap_or_default();
                return Err(v(
                    "nodes",
                    format!("at {t}: {} uses a node of {other}", describe(who)),
                ));
            }
            occ.insert_set(&s);
            owner.push((s, who.clone()));
        } else {
            occ.remove_set(&s);
            if let Some(i) = owner.iter().position(|(o, _)| *o == s) {
                owner.swap_remove(i);
            }
        }
    }
    if last < win.1 {
        idle = &idle + &clip_len(&last, &win.1, &win).mul_int(u64::from(n - occ.count()));
    }
    // 5. The decomposition, recomputed.
    let mut tot = Totals {
        idle,
        ..Totals::default()
    };
    for a in &run.attempts {
        let p = u64::from(a.nodes.len());
        let g = &grids[a.job];
        let s1 = &a.start + &a.recovery_done;
        let rec = clip_len(&a.start, &s1, &win).mul_int(p);
        if a.cause == Cause::AfterSteal {
            tot.stealing = &tot.stealing + &rec;
        } else {
            tot.recovery = &tot.recovery + &rec;
        }
        let s2 = &s1 + &(&a.commit - &a.pos_start);
        if let Some((lo, hi)) = clip(&s1, &s2, &win) {
            let pa = &a.pos_start + &(&lo - &s1);
            let pb = &a.pos_start + &(&hi - &s1);
            let ck = &g.ckpt(&pb) - &g.ckpt(&pa);
            tot.useful = &tot.useful + &(&(&pb - &pa) - &ck).mul_int(p);
            tot.checkpoint = &tot.checkpoint + &ck.mul_int(p);
        }
        let s3 = &s2 + &(&a.reached - &a.commit);
        let wasted = clip_len(&s2, &s3, &win).mul_int(p);
        if matches!(a.outcome, Outcome::Failed { .. }) {
            tot.lost = &tot.lost + &wasted;
        } else {
            tot.stealing = &tot.stealing + &wasted;
        }
        tot.stealing = &tot.stealing + &clip_len(&s3, &a.end, &win).mul_int(p);
    }
    for h in &run.holds {
        tot.stealing =
            &tot.stealing + &clip_len(&h.start, &h.end, &win).mul_int(u64::from(h.nodes.len()));
    }
    for dn in &downs {
        tot.down = &tot.down + &clip_len(&dn.0, &dn.1, &win);
    }
    tot.total = if win.1 > win.0 {
        (&win.1 - &win.0).mul_int(u64::from(n))
    } else {
        Time::zero()
    };
    let sum = [
        &tot.useful,
        &tot.checkpoint,
        &tot.recovery,
        &tot.lost,
        &tot.stealing,
        &tot.down,
        &tot.idle,
    ]
    .iter()
    .fold(Time::zero(), |acc, t| &acc + *t);
    if sum != tot.total {
        return Err(v(
            "time",
            format!(
                "the decomposition sums to {sum}, the platform time is {}",
                tot.total
            ),
        ));
    }
    Ok(tot)
}
