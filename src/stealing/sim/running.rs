//! The running attempts of the node-stealing simulator, with their ends in order: each
//! attempt's *end* is its stopping point when it has one (a victim under T2/T3, or a cancelled
//! proactive checkpoint, node-stealing paper Section 5.2), else its natural end. The event
//! loop asks, at every event, for the earliest end and for the attempts that end now; on a
//! large platform thousands of attempts run at once, and going over all of them at every
//! event would cost more than the rest of most events. The ends are kept in an ordered set
//! beside the attempts, changed with them: every change of an attempt's stop goes through
//! [`RunningSet::update_stop`], and debug builds check the set against the attempts at every
//! event.
use super::{Running, Stop};
use crate::time::Time;
use std::collections::BTreeSet;
use std::ops::Index;

/// The running attempts, in the order the simulator keeps them (pushed at the back, removed by
/// swapping the last one in), and their ends by time, then job.
#[derive(Debug, Default)]
pub(super) struct RunningSet {
    list: Vec<Running>,
    ends: BTreeSet<(Time, usize)>,
}

/// Where attempt `r` ends if nothing else happens to it.
fn end_of(r: &Running) -> &Time {
    r.stop.as_ref().map_or(&r.natural_end, |s| &s.at)
}

impl RunningSet {
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    pub(super) fn iter(&self) -> std::slice::Iter<'_, Running> {
        self.list.iter()
    }

    pub(super) fn push(&mut self, r: Running) {
        self.ends.insert((end_of(&r).clone(), r.job));
        self.list.push(r);
    }

    /// Takes out the attempt at `i`; the last one takes its place.
    pub(super) fn swap_remove(&mut self, i: usize) -> Running {
        let r = self.list.swap_remove(i);
        let gone = self.ends.remove(&(end_of(&r).clone(), r.job));
        debug_assert!(gone, "the end of job {} was not in the set", r.job);
        r
    }

    /// Changes the stop of the attempt at `i` (set, cancelled or edited), and its end with it.
    pub(super) fn update_stop(&mut self, i: usize, f: impl FnOnce(&mut Option<Stop>)) {
        let r = &mut self.list[i];
        let old = (end_of(r).clone(), r.job);
        f(&mut r.stop);
        if *end_of(r) != old.0 {
            self.ends.remove(&old);
            self.ends.insert((end_of(r).clone(), r.job));
        }
    }

    /// The earliest end.
    pub(super) fn first_end(&self) -> Option<&Time> {
        self.ends.first().map(|(t, _)| t)
    }

    /// The jobs whose attempts end at `now`, in job order.
    pub(super) fn ending_at(&self, now: &Time) -> Vec<usize> {
        self.ends
            .range((now.clone(), 0)..=(now.clone(), usize::MAX))
            .map(|&(_, j)| j)
            .collect()
    }

    /// Whether the ends are exactly those of the attempts (for debug assertions).
    pub(super) fn ends_agree(&self) -> bool {
        let from_scratch: BTreeSet<(Time, usize)> = self
            .list
            .iter()
            .map(|r| (end_of(r).clone(), r.job))
            .collect();
        from_scratch == self.ends
    }
}

impl Index<usize> for RunningSet {
    type Output = Running;

    fn index(&self, i: usize) -> &Running {
        &self.list[i]
    }
}
