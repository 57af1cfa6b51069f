//! A job: rigid (a fixed processor count and time) or moldable (a time for every processor count).
use super::speedup::SpeedupModel;
use crate::time::Time;

/// How a job's execution time depends on its processor count.
#[derive(Debug, Clone, PartialEq)]
pub enum Profile {
    /// Needs exactly `procs` processors for `time`.
    Rigid { procs: u32, time: Time },
    /// May run on any p in 1..=P; `times[p-1]` = t(p), computed exactly from `model`.
    Moldable {
        model: SpeedupModel,
        times: Vec<Time>,
    },
}

/// One job of an instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Unique name (defaults to `J<index+1>`).
    pub name: String,
    pub profile: Profile,
}

impl Job {
    /// A rigid job.
    pub fn rigid(name: impl Into<String>, procs: u32, time: Time) -> Job {
        Job {
            name: name.into(),
            profile: Profile::Rigid { procs, time },
        }
    }

    /// Execution time on `p` processors, or `None` if the job cannot run on `p`.
    pub fn time(&self, p: u32) -> Option<&Time> {
        match &self.profile {
            Profile::Rigid { procs, time } => (*procs == p).then_some(time),
            Profile::Moldable { times, .. } => {
                if p == 0 {
                    None
                } else {
                    times.get(p as usize - 1)
                }
            }
        }
    }

    /// `Some((p, t))` for a rigid job.
    pub fn as_rigid(&self) -> Option<(u32, &Time)> {
        match &self.profile {
            Profile::Rigid { procs, time } => Some((*procs, time)),
            Profile::Moldable { .. } => None,
        }
    }

    /// True for rigid jobs.
    pub fn is_rigid(&self) -> bool {
        matches!(self.profile, Profile::Rigid { .. })
    }

    /// The processor counts this job may use, smallest first.
    pub fn allowed_procs(&self) -> std::ops::RangeInclusive<u32> {
        match &self.profile {
            Profile::Rigid { procs, .. } => *procs..=*procs,
            Profile::Moldable { times, .. } => 1..=times.len() as u32,
        }
    }

    /// Area p·t(p) on `p` processors.
    pub fn area(&self, p: u32) -> Option<Time> {
        self.time(p).map(|t| t.mul_int(u64::from(p)))
    }
}
