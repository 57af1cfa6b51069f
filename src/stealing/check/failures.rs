//! Invariant 2 of the checker: a failure on a node that is down has no effect; any other puts
//! the node down for exactly D (node-stealing paper, Section 2). Yields the downtime intervals
//! the other invariants need.
use super::{v, Violation};
use crate::stealing::model::Resilience;
use crate::stealing::sim::{Effect, Run};
use crate::time::Time;
use std::collections::HashSet;

/// The downtimes of a run, as the checker recomputes them.
pub(super) struct Downs {
    /// `(from, to, node)` of every effective failure.
    pub(super) list: Vec<(Time, Time, u32)>,
    /// `(time, node)` of every failure that struck an up node.
    pub(super) effective: HashSet<(Time, u32)>,
}

/// Checks the failure records of `run` on `n` nodes and returns the downtimes.
pub(super) fn downtimes(n: u32, res: &Resilience, run: &Run) -> Result<Downs, Violation> {
    let d = &res.downtime;
    let mut down_until: Vec<Option<Time>> = vec![None; n as usize];
    let mut downs = Downs {
        list: Vec::new(),
        effective: HashSet::new(),
    };
    let mut last_t = Time::zero();
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
            downs.list.push((f.time.clone(), end, f.node));
            downs.effective.insert((f.time.clone(), f.node));
        }
    }
    Ok(downs)
}
