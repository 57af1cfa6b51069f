//! The online model of the node-stealing paper (Sections 3, 5.1 and 5.2): jobs with a release
//! time, a node count, a run time and a walltime on a platform of N identified nodes; the
//! resilience parameters (downtime D, checkpoint C, recovery R); and the scheduler variants
//! (Baseline, and the 18 node-stealing heuristics Hxyz of Section 7.1).
//!
//! # Reading of Hxyz (Section 7.1)
//! "variants of node stealing, which are denoted by Hxyz, where x corresponds to timing choice
//! T_x, y corresponds to victim choice V_y and z corresponds to interrupting choice K_z. For
//! example SFSJ … is denoted by H111." So the *first* digit is the timing (T1 interrupt now,
//! T2 proactive checkpoint, T3 next regular checkpoint), the *second* the victim (V1 fewest
//! nodes, V2 latest release), the *third* the criterion (K1 fewer nodes, K2 released later,
//! K3 smaller estimated max flow): x ∈ {1,2,3}, y ∈ {1,2}, z ∈ {1,2,3}, 18 variants, matching
//! Table 8's rows 111…323 and Figures 19 (111/211/311), 20 (121) and 21 (112/113).
use super::limits;
use crate::error::{Error, Result};
use crate::time::Time;
use std::fmt;
use std::str::FromStr;

/// One job of a batch workload (paper Section 5.2: release, walltime, length, node count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchJob {
    /// A label for reports (the SWF job number, or `J1`… in examples).
    pub name: String,
    /// Submission (release) time r_j ≥ 0.
    pub release: Time,
    /// Number of nodes p_j (rigid), 1 ≤ p_j ≤ N.
    pub nodes: u32,
    /// Failure-free execution time t_exec > 0, before checkpoints are added (Eq. (1)).
    pub run: Time,
    /// Requested time t_walltime ≥ t_exec, before checkpoints are added (Eq. (2)).
    pub walltime: Time,
}

impl BatchJob {
    /// The job's own rules on a platform of `nodes` nodes (see [`Workload::check`]): the field
    /// that breaks one, and why.
    pub fn check(&self, nodes: u32) -> std::result::Result<(), (&'static str, String)> {
        if self.nodes == 0 {
            return Err(("nodes", "a job needs at least one node".into()));
        }
        if self.nodes > nodes {
            return Err((
                "nodes",
                format!("job needs {} nodes but the machine has {nodes}", self.nodes),
            ));
        }
        if self.release.is_negative() {
            return Err(("release", format!("negative release time {}", self.release)));
        }
        if !self.run.is_positive() {
            return Err(("run", format!("run time must be > 0, got {}", self.run)));
        }
        if !self.walltime.is_positive() {
            return Err((
                "walltime",
                format!("walltime must be > 0, got {}", self.walltime),
            ));
        }
        let max = Time::from_int(limits::MAX_SECONDS);
        for (field, t) in [
            ("release", &self.release),
            ("run", &self.run),
            ("walltime", &self.walltime),
        ] {
            if *t > max {
                return Err((
                    field,
                    format!(
                        "{} s is beyond the limit of 10^11 s (≈ 3,170 years)",
                        magnitude(t)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// A time as an error message shows it: exact when it is short, its order of magnitude when
/// its exact form would fill the terminal (an input of `1e400`).
fn magnitude(t: &Time) -> String {
    let exact = t.to_string();
    if exact.len() <= 24 {
        return exact;
    }
    let digits = |s: &str| s.trim_start_matches('-').len() as i64;
    let k = match exact.split_once('/') {
        Some((n, d)) => digits(n) - digits(d),
        None => digits(&exact) - 1,
    };
    format!("about 10^{k}")
}

/// A platform and its jobs. Jobs are kept in *submission order*: by release time, then by
/// their position in the input (the paper's tie-break in Section 3: "the scheduler has broken
/// ties so that the jobs are scheduled in the order J_1, J_2, …").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    /// Number of nodes N (ids `0..N`).
    pub nodes: u32,
    /// Jobs in submission order.
    pub jobs: Vec<BatchJob>,
}

impl Workload {
    /// Validates ([`Workload::check`]) and sorts (stably) by release time. `source` names the
    /// input in errors.
    pub fn new(nodes: u32, jobs: Vec<BatchJob>, source: &str) -> Result<Workload> {
        let mut w = Workload { nodes, jobs };
        w.check(source)?;
        w.jobs.sort_by(|a, b| a.release.cmp(&b.release));
        Ok(w)
    }

    /// Errors: N = 0 or above [`limits::MAX_NODES`]; more than [`limits::MAX_JOBS`] jobs; a job
    /// with no node or more nodes than the machine; a negative release; a run time ≤ 0; a
    /// walltime ≤ 0; a release, run time or walltime above [`limits::MAX_SECONDS`]. A walltime
    /// shorter than the run time is *not* an error: the batch system kills a job at its
    /// walltime, so the run time is cut to the walltime ([`Workload::clamp_run_to_walltime`]
    /// counts them).
    pub fn check(&self, source: &str) -> Result<()> {
        if self.nodes == 0 || self.nodes > limits::MAX_NODES {
            return Err(Error::invalid(
                source,
                "nodes",
                format!(
                    "{} nodes: the platform needs 1..=2^20 (1,048,576) nodes",
                    self.nodes
                ),
            ));
        }
        limits::check_jobs(self.jobs.len() as u64, source)?;
        for (i, j) in self.jobs.iter().enumerate() {
            j.check(self.nodes).map_err(|(f, msg)| {
                Error::invalid(source, format!("jobs[{i}] ({}).{f}", j.name), msg)
            })?;
        }
        Ok(())
    }

    /// Cuts every run time to its walltime (a batch system kills a job at its walltime) and
    /// returns how many jobs were cut.
    pub fn clamp_run_to_walltime(&mut self) -> usize {
        let mut n = 0;
        for j in &mut self.jobs {
            if j.run > j.walltime {
                j.run = j.walltime.clone();
                n += 1;
            }
        }
        n
    }

    /// The offered load: the failure-free node-time the jobs ask for, Σ p_j·t_exec, over the
    /// platform's node-time between the first and the last submission, N·(r_last − r_first)
    /// (`None` when every job is submitted at once). Above 1 the platform cannot keep up with
    /// the submissions even without failures or checkpoints, so the queue, the flows and the
    /// cost of the run per job grow through the run (each planning step goes over the queue).
    pub fn offered_load(&self) -> Option<Time> {
        let first = &self.jobs.first()?.release;
        let last = &self.jobs.last()?.release;
        let work = self
            .jobs
            .iter()
            .fold(Time::zero(), |w, j| &w + &j.run.mul_int(u64::from(j.nodes)));
        let span = (last - first).mul_int(u64::from(self.nodes));
        work.checked_div(&span)
    }
}

/// The node MTBF μ_ind of the paper's failure scenario, in seconds: "the MTBF of the platform
/// is one hour … Given that Mira platform had 49152 nodes, this leads to an individual MTBF
/// for each node of μ_ind = 5.61 years" (Section 2, again in Section 6.1). Failures are a
/// property of the nodes (Section 1: "the MTBF of each computing resource is around 10
/// years"; Section 5.2: μ = μ_ind/N), so the same nodes give another machine μ = μ_ind/N, not
/// the 1 h of 49,152 nodes.
pub const PAPER_NODE_MTBF_S: i64 = 3600 * 49_152;

/// Resilience parameters (Sections 2 and 5.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resilience {
    /// Downtime D: a node struck at t is up again at t + D.
    pub downtime: Time,
    /// Checkpoint length C; 0 disables checkpointing (the toy example of Section 3).
    pub checkpoint: Time,
    /// Recovery R paid by every resubmission (Section 7.2.2: R_first = R on a resubmission).
    pub recovery: Time,
    /// Individual node MTBF μ_ind (used for the Young/Daly period, Section 5.2); `None` when
    /// there are no random failures to calibrate against (checkpointing then needs C = 0).
    pub mtbf_ind: Option<Time>,
}

impl Resilience {
    /// `resched steal`'s defaults for a trace: Section 6.1's scenario (D = 1 h, C = R = 5 min)
    /// on nodes of the paper's reliability ([`PAPER_NODE_MTBF_S`]), whatever their number.
    pub fn trace_defaults() -> Resilience {
        Resilience {
            downtime: Time::from_int(3600),
            checkpoint: Time::from_int(300),
            recovery: Time::from_int(300),
            mtbf_ind: Some(Time::from_int(PAPER_NODE_MTBF_S)),
        }
    }

    /// Checks ranges: D, C, R in [0, [`limits::MAX_SECONDS`]], μ_ind > 0; C > 0 needs μ_ind.
    pub fn validate(&self) -> Result<()> {
        if self.downtime.is_negative() {
            return Err(Error::param(
                "downtime",
                format!("negative downtime {}", self.downtime),
            ));
        }
        if self.checkpoint.is_negative() {
            return Err(Error::param(
                "checkpoint",
                format!("negative checkpoint length {}", self.checkpoint),
            ));
        }
        if self.recovery.is_negative() {
            return Err(Error::param(
                "recovery",
                format!("negative recovery {}", self.recovery),
            ));
        }
        limits::check_seconds(&self.downtime, "downtime")?;
        limits::check_seconds(&self.checkpoint, "checkpoint")?;
        limits::check_seconds(&self.recovery, "recovery")?;
        if let Some(m) = &self.mtbf_ind {
            if !m.is_positive() {
                return Err(Error::param(
                    "mtbf_ind",
                    format!("the MTBF must be > 0, got {m}"),
                ));
            }
        } else if self.checkpoint.is_positive() {
            return Err(Error::param(
                "checkpoint",
                "a checkpoint length > 0 needs an MTBF (the Young/Daly period is √(2·μ_job·C))",
            ));
        }
        Ok(())
    }
}

/// Timing choice T_x (Section 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Timing {
    /// T1: interrupt the victim now; it restarts from its previous checkpoint.
    Now,
    /// T2: proactively checkpoint the victim, then interrupt it (Figure 15).
    Proactive,
    /// T3: wait for the victim's next regular checkpoint, then interrupt it.
    NextCheckpoint,
}

/// Victim choice V_y (Section 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Victim {
    /// V1: fewest nodes; ties → latest release (then latest in submission order).
    FewestNodes,
    /// V2: latest release; ties → fewest nodes (then latest in submission order).
    LatestRelease,
}

/// Interrupting criterion K_z (Section 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Criterion {
    /// K1: the victim uses strictly fewer nodes than the failed job.
    FewerNodes,
    /// K2: the victim was submitted after the failed job.
    ReleasedLater,
    /// K3: stealing gives the smaller estimated maximum flow of the two jobs (walltimes).
    SmallerMaxFlow,
}

/// A scheduler: Baseline (Section 4.1) or a node-stealing heuristic Hxyz (Section 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    Baseline,
    Steal {
        timing: Timing,
        victim: Victim,
        criterion: Criterion,
    },
}

impl Variant {
    /// SFSJ = H111 (Section 4.2).
    pub const SFSJ: Variant = Variant::Steal {
        timing: Timing::Now,
        victim: Victim::FewestNodes,
        criterion: Criterion::FewerNodes,
    };

    /// Baseline then the 18 heuristics in the order of Table 8.
    pub fn all() -> Vec<Variant> {
        let mut v = vec![Variant::Baseline];
        for t in [Timing::Now, Timing::Proactive, Timing::NextCheckpoint] {
            for y in [Victim::FewestNodes, Victim::LatestRelease] {
                for z in [
                    Criterion::FewerNodes,
                    Criterion::ReleasedLater,
                    Criterion::SmallerMaxFlow,
                ] {
                    v.push(Variant::Steal {
                        timing: t,
                        victim: y,
                        criterion: z,
                    });
                }
            }
        }
        v
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Baseline => write!(f, "Baseline"),
            Variant::Steal {
                timing,
                victim,
                criterion,
            } => {
                let x = match timing {
                    Timing::Now => 1,
                    Timing::Proactive => 2,
                    Timing::NextCheckpoint => 3,
                };
                let y = match victim {
                    Victim::FewestNodes => 1,
                    Victim::LatestRelease => 2,
                };
                let z = match criterion {
                    Criterion::FewerNodes => 1,
                    Criterion::ReleasedLater => 2,
                    Criterion::SmallerMaxFlow => 3,
                };
                write!(f, "H{x}{y}{z}")
            }
        }
    }
}

impl FromStr for Variant {
    type Err = String;
    /// `baseline`, `SFSJ`, `H111`…`H323` (or `111`…`323`), case-insensitive.
    fn from_str(s: &str) -> std::result::Result<Variant, String> {
        let l = s.trim().to_ascii_lowercase();
        if l == "baseline" {
            return Ok(Variant::Baseline);
        }
        if l == "sfsj" {
            return Ok(Variant::SFSJ);
        }
        // default: `H111` and `111` name the same variant
        let d = l.strip_prefix('h').unwrap_or(&l).as_bytes();
        let bad = || {
            format!("unknown variant `{s}` (expected baseline, SFSJ or Hxyz with x∈1..3, y∈1..2, z∈1..3)")
        };
        if d.len() != 3 {
            return Err(bad());
        }
        let timing = match d[0] {
            b'1' => Timing::Now,
            b'2' => Timing::Proactive,
            b'3' => Timing::NextCheckpoint,
            _ => return Err(bad()),
        };
        let victim = match d[1] {
            b'1' => Victim::FewestNodes,
            b'2' => Victim::LatestRelease,
            _ => return Err(bad()),
        };
        let criterion = match d[2] {
            b'1' => Criterion::FewerNodes,
            b'2' => Criterion::ReleasedLater,
            b'3' => Criterion::SmallerMaxFlow,
            _ => return Err(bad()),
        };
        Ok(Variant::Steal {
            timing,
            victim,
            criterion,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Σ p·t over N·(r_last − r_first), exactly: two 2-node jobs of 30 s and one 1-node job
    /// of 40 s submitted over 100 s on 2 nodes ask for 160 of 200 node-seconds; jobs all
    /// submitted at once have none.
    #[test]
    fn offered_load_is_the_work_over_the_submission_span() {
        let job = |r: i64, p: u32, t: i64| BatchJob {
            name: format!("J{r}"),
            release: Time::from_int(r),
            nodes: p,
            run: Time::from_int(t),
            walltime: Time::from_int(2 * t),
        };
        let w = Workload {
            nodes: 2,
            jobs: vec![job(0, 2, 30), job(50, 2, 30), job(100, 1, 40)],
        };
        assert_eq!(w.offered_load(), Time::new(4, 5));
        let at_once = Workload {
            nodes: 2,
            jobs: vec![job(7, 2, 30), job(7, 1, 40)],
        };
        assert_eq!(at_once.offered_load(), None);
        let empty = Workload {
            nodes: 2,
            jobs: Vec::new(),
        };
        assert_eq!(empty.offered_load(), None);
    }

    #[test]
    fn eighteen_variants_round_trip() {
        let all = Variant::all();
        assert_eq!(all.len(), 19);
        for v in &all {
            assert_eq!(v.to_string().parse::<Variant>().unwrap(), *v);
        }
        assert_eq!("SFSJ".parse::<Variant>().unwrap().to_string(), "H111");
        assert_eq!(
            "h312".parse::<Variant>().unwrap(),
            Variant::Steal {
                timing: Timing::NextCheckpoint,
                victim: Victim::FewestNodes,
                criterion: Criterion::ReleasedLater
            }
        );
        assert!("H131".parse::<Variant>().is_err());
        assert!("H411".parse::<Variant>().is_err());
    }
}
