//! Where two schedules of one instance first differ: what `resched verify --algo` and the Python
//! `verify(…, algo=…)` report when a feasible schedule is not the one an algorithm makes.
use super::{Attempt, Instance};

/// Where two schedules first differ, attempts taken in (start, job, attempt) order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based position in that order.
    pub position: usize,
    /// The checked schedule's attempt there (`None`: it has fewer attempts).
    pub ours: Option<Attempt>,
    /// The algorithm's attempt there (`None`: it has fewer attempts).
    pub theirs: Option<Attempt>,
}

impl Difference {
    /// One line: the position and both attempts (`algo` names the algorithm's side).
    pub fn describe(&self, inst: &Instance, algo: &str) -> String {
        let show = |a: &Option<Attempt>| match a {
            Some(a) => {
                let job = inst.jobs.get(a.job).map_or("?", |j| j.name.as_str());
                let nodes = a
                    .nodes
                    .as_ref()
                    .map_or(String::new(), |n| format!(" on nodes {n:?}"));
                format!(
                    "{job} (job {}) attempt {} at {} on {} processors for {}{nodes}",
                    a.job, a.attempt, a.start, a.procs, a.duration
                )
            }
            None => "nothing (no more attempts)".into(),
        };
        format!(
            "first difference at attempt #{} in start order: this schedule has {}; {algo} has {}",
            self.position,
            show(&self.ours),
            show(&self.theirs)
        )
    }
}

/// The first attempt at which `ours` and `theirs` differ, both sorted by (start, job, attempt)
/// so that the order in which a program lists simultaneous attempts does not matter.
pub fn first_difference(ours: &[Attempt], theirs: &[Attempt]) -> Option<Difference> {
    let sorted = |v: &[Attempt]| {
        let mut v = v.to_vec();
        v.sort_by(|a, b| (&a.start, a.job, a.attempt).cmp(&(&b.start, b.job, b.attempt)));
        v
    };
    let (ours, theirs) = (sorted(ours), sorted(theirs));
    let n = ours.len().max(theirs.len());
    (0..n)
        .find(|&i| ours.get(i) != theirs.get(i))
        .map(|i| Difference {
            position: i + 1,
            ours: ours.get(i).cloned(),
            theirs: theirs.get(i).cloned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;

    fn at(job: usize, attempt: u32, start: i64, procs: u32) -> Attempt {
        Attempt {
            job,
            attempt,
            start: Time::from_int(start),
            procs,
            duration: Time::from_int(2),
            nodes: None,
        }
    }

    #[test]
    fn simultaneous_attempts_may_come_in_any_order() {
        let a = [at(1, 1, 0, 2), at(0, 1, 0, 2), at(0, 2, 2, 2)];
        let b = [at(0, 1, 0, 2), at(1, 1, 0, 2), at(0, 2, 2, 2)];
        assert_eq!(first_difference(&a, &b), None);
    }

    #[test]
    fn the_first_difference_in_start_order() {
        let a = [at(0, 1, 0, 2), at(1, 1, 0, 2), at(0, 2, 3, 2)];
        let b = [at(0, 1, 0, 2), at(1, 1, 0, 2), at(0, 2, 2, 2)];
        let d = first_difference(&a, &b);
        assert_eq!(
            d,
            Some(Difference {
                position: 3,
                ours: Some(at(0, 2, 3, 2)),
                theirs: Some(at(0, 2, 2, 2)),
            })
        );
        let d = first_difference(&a[..2], &b);
        assert_eq!(d.map(|d| (d.position, d.ours)), Some((3, None)));
    }
}
