//! Metrics of a run (node-stealing paper, Section 5.3): flows (maximum, mean, size-weighted mean,
//! overall and per size class [2^k, 2^(k+1))), useful utilization and the decomposition of
//! platform time of Figure 3, with the pruning rules of Section 5.3.3.
//!
//! # Decomposition of platform time (node × time over the window)
//! - **useful**: computation that is kept (up to the checkpoint a job restarts from, or done);
//! - **checkpoint**: regular checkpoints that are kept;
//! - **recovery**: the recovery R of restarts after a failure;
//! - **lost**: work and checkpoints done after the last kept checkpoint of an attempt cut by a
//!   failure ("work wasted due to failures");
//! - **stealing**: the waste due to node stealing — what a victim loses when interrupted, its
//!   proactive checkpoint (T2), its extra recovery when resubmitted, and the survivors of a failed
//!   job held idle until the victim stops (T2/T3);
//! - **down**: nodes in downtime;
//! - **idle**: up nodes running nothing.
//!
//! They sum exactly to N × (window length); useful utilization is useful / (N × window)
//! (Section 5.3.2: checkpoints are excluded so that checkpointing more cannot raise it).
//!
//! # Pruning (Section 5.3.3)
//! Utilization and the decomposition are measured on a time window (the paper: day 11 to day 30
//! of the month: `resched steal --window 10d:30d`); flows on the jobs left after removing the
//! first and the last 20% of jobs in submission order (`--prune-jobs 20`). The default keeps everything, with the window
//! [first submission, last completion).
use super::model::Variant;
use super::sim::{AttemptRecord, Cause, Effect, Outcome, Run, Stats};
use crate::time::Time;

/// Which part of a run the statistics describe.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pruning {
    /// Percent of jobs dropped at the start of the submission order (flows).
    pub drop_first_pct: u32,
    /// Percent of jobs dropped at the end of the submission order (flows).
    pub drop_last_pct: u32,
    /// Time window for utilization and the decomposition, in absolute trace time (`None`:
    /// [first submission, last completion)).
    pub window: Option<(Time, Time)>,
}

impl Pruning {
    /// The job indices kept for flows (submission order) out of `n`.
    pub fn kept(&self, n: usize) -> std::ops::Range<usize> {
        let a = n * self.drop_first_pct.min(100) as usize / 100;
        let b = n - n * self.drop_last_pct.min(100) as usize / 100;
        a..b.max(a)
    }
}

/// Node-time spent in each state over the window.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Decomposition {
    pub useful: Time,
    pub checkpoint: Time,
    pub recovery: Time,
    pub lost: Time,
    pub stealing: Time,
    pub down: Time,
    pub idle: Time,
    /// N × window length.
    pub total: Time,
}

impl Decomposition {
    /// The names of every category but useful work, in display order: what a Figure 3 panel
    /// draws.
    pub fn overhead_names() -> Vec<&'static str> {
        Decomposition::default()
            .parts()
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| *n != "useful")
            .collect()
    }

    /// The categories in display order, with names.
    pub fn parts(&self) -> [(&'static str, &Time); 7] {
        [
            ("useful", &self.useful),
            ("checkpoint", &self.checkpoint),
            ("recovery", &self.recovery),
            ("lost", &self.lost),
            ("stealing", &self.stealing),
            ("down", &self.down),
            ("idle", &self.idle),
        ]
    }

    /// Sum of the seven categories (equals `total` for a consistent run).
    pub fn sum(&self) -> Time {
        self.parts()
            .iter()
            .fold(Time::zero(), |acc, (_, t)| &acc + *t)
    }

    /// Useful utilization (Section 5.3.2); 0 for an empty window (no platform time).
    pub fn utilization(&self) -> Time {
        // default: utilization of an empty window is 0 (documented above)
        self.useful.checked_div(&self.total).unwrap_or_default()
    }
}

/// Flow statistics of a set of jobs.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct FlowStats {
    pub jobs: usize,
    pub max: Time,
    pub mean: Time,
    /// Σ p_j·F_j / Σ p_j.
    pub weighted_mean: Time,
}

impl FlowStats {
    /// Statistics of `(nodes, flow)` pairs.
    pub fn of(items: &[(u32, Time)]) -> FlowStats {
        if items.is_empty() {
            return FlowStats::default();
        }
        let mut max = Time::zero();
        let mut sum = Time::zero();
        let mut wsum = Time::zero();
        let mut w: u64 = 0;
        for (p, f) in items {
            if *f > max {
                max = f.clone();
            }
            sum = &sum + f;
            wsum = &wsum + &f.mul_int(u64::from(*p));
            w += u64::from(*p);
        }
        // items is not empty and every job has ≥ 1 node (Workload::check), so neither divisor
        // is 0 and div_int (None only for 0) succeeds.
        debug_assert!(w > 0);
        FlowStats {
            jobs: items.len(),
            max,
            // default: the mean of no job is 0 (the table prints the job count beside it)
            mean: sum.div_int(items.len() as u64).unwrap_or_default(),
            // default: the weighted mean of no weight is 0 (the table prints the job count beside it)
            weighted_mean: wsum.div_int(w).unwrap_or_default(),
        }
    }
}

/// Size class of a job on `p` nodes: k with p ∈ [2^k, 2^(k+1)).
pub fn size_class(p: u32) -> u32 {
    31 - p.max(1).leading_zeros()
}

/// Everything reported for one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metrics {
    pub variant: Variant,
    /// Flow of every job (completion − release), in submission order.
    pub flows: Vec<Time>,
    /// Over the kept jobs.
    pub all: FlowStats,
    /// Per size class k (jobs with p ∈ [2^k, 2^(k+1))), increasing k, kept jobs only.
    pub classes: Vec<(u32, FlowStats)>,
    pub window: (Time, Time),
    pub decomposition: Decomposition,
    pub stats: Stats,
}

fn overlap(a: &Time, b: &Time, w: &(Time, Time)) -> Option<(Time, Time)> {
    let lo = a.clone().max(w.0.clone());
    let hi = b.clone().min(w.1.clone());
    (lo < hi).then_some((lo, hi))
}

fn len_in(a: &Time, b: &Time, w: &(Time, Time)) -> Time {
    overlap(a, b, w)
        .map(|(lo, hi)| &hi - &lo)
        // default: an interval outside the window has length 0 in it
        .unwrap_or_default()
}

/// Adds one attempt's node-time to `d` (see the module doc).
fn add_attempt(run: &Run, a: &AttemptRecord, w: &(Time, Time), d: &mut Decomposition) {
    let p = u64::from(a.nodes.len());
    let tl = &run.jobs[a.job].timeline;
    let s1 = &a.start + &a.recovery_done;
    let rec = len_in(&a.start, &s1, w).mul_int(p);
    match a.cause {
        Cause::AfterSteal => d.stealing = &d.stealing + &rec,
        _ => d.recovery = &d.recovery + &rec,
    }
    let s2 = &s1 + &(&a.commit - &a.pos_start);
    if let Some((lo, hi)) = overlap(&s1, &s2, w) {
        let pa = &a.pos_start + &(&lo - &s1);
        let pb = &a.pos_start + &(&hi - &s1);
        let ck = &tl.ckpt_upto(&pb) - &tl.ckpt_upto(&pa);
        let work = &(&pb - &pa) - &ck;
        d.checkpoint = &d.checkpoint + &ck.mul_int(p);
        d.useful = &d.useful + &work.mul_int(p);
    }
    let s3 = &s2 + &(&a.reached - &a.commit);
    let lost = len_in(&s2, &s3, w).mul_int(p);
    let extra = len_in(&s3, &a.end, w).mul_int(p);
    match a.outcome {
        Outcome::Failed { .. } => d.lost = &d.lost + &lost,
        _ => d.stealing = &d.stealing + &lost,
    }
    d.stealing = &d.stealing + &extra;
}

/// The decomposition of platform time of `run` over `window`.
pub fn decomposition(run: &Run, window: &(Time, Time)) -> Decomposition {
    let mut d = Decomposition::default();
    for a in &run.attempts {
        add_attempt(run, a, window, &mut d);
    }
    for h in &run.holds {
        d.stealing =
            &d.stealing + &len_in(&h.start, &h.end, window).mul_int(u64::from(h.nodes.len()));
    }
    for f in &run.failures {
        if f.effect != Effect::AlreadyDown {
            d.down = &d.down + &len_in(&f.time, &(&f.time + &run.resilience.downtime), window);
        }
    }
    d.total = if window.1 > window.0 {
        (&window.1 - &window.0).mul_int(u64::from(run.nodes))
    } else {
        Time::zero()
    };
    let busy = [
        &d.useful,
        &d.checkpoint,
        &d.recovery,
        &d.lost,
        &d.stealing,
        &d.down,
    ]
    .iter()
    .fold(Time::zero(), |acc, t| &acc + *t);
    d.idle = &d.total - &busy;
    d
}

/// The first submission of a run (0 for a run without jobs): measurements start there, not at
/// t = 0, so that a slice of a log whose first job arrives on day 504 is not measured over 504
/// empty days.
pub fn first_release(run: &Run) -> Time {
    run.jobs
        .iter()
        .map(|j| &j.release)
        .min()
        .cloned()
        // default: a run with no job starts at 0
        .unwrap_or_default()
}

/// All metrics of a run.
pub fn compute(run: &Run, pruning: &Pruning) -> Metrics {
    let flows: Vec<Time> = run
        .jobs
        .iter()
        .zip(&run.completion)
        .map(|(j, c)| c - &j.release)
        .collect();
    let kept = pruning.kept(run.jobs.len());
    let items: Vec<(u32, Time)> = kept
        .clone()
        .map(|i| (run.jobs[i].nodes, flows[i].clone()))
        .collect();
    let all = FlowStats::of(&items);
    let mut ks: Vec<u32> = items.iter().map(|(p, _)| size_class(*p)).collect();
    ks.sort_unstable();
    ks.dedup();
    let classes = ks
        .into_iter()
        .map(|k| {
            let sub: Vec<(u32, Time)> = items
                .iter()
                .filter(|(p, _)| size_class(*p) == k)
                .cloned()
                .collect();
            (k, FlowStats::of(&sub))
        })
        .collect();
    let window = pruning
        .window
        .clone()
        // default: the window is [first submission, end of run) unless --window is given (documented)
        .unwrap_or_else(|| (first_release(run), run.end.clone()));
    let decomposition = decomposition(run, &window);
    Metrics {
        variant: run.variant,
        flows,
        all,
        classes,
        window,
        decomposition,
        stats: run.stats.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_pruning() {
        assert_eq!(size_class(1), 0);
        assert_eq!(size_class(2), 1);
        assert_eq!(size_class(3), 1);
        assert_eq!(size_class(49152), 15);
        let p = Pruning {
            drop_first_pct: 20,
            drop_last_pct: 20,
            window: None,
        };
        assert_eq!(p.kept(10), 2..8);
        assert_eq!(p.kept(3), 0..3);
        assert_eq!(Pruning::default().kept(5), 0..5);
        let f = FlowStats::of(&[(1, Time::from_int(8)), (6, Time::from_int(15))]);
        assert_eq!(f.max, Time::from_int(15));
        assert_eq!(f.mean, Time::new(23, 2).unwrap());
        assert_eq!(f.weighted_mean, Time::new(98, 7).unwrap());
    }
}
