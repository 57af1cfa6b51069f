//! Invariant 4 of the checker: no node runs two attempts (or holds) at once, and no attempt or
//! hold uses a down node (node-stealing paper, Sections 2 and 7.2.1); on the way, the idle node
//! time (up and unused) inside the window is measured directly.
use super::failures::Downs;
use super::{clip_len, v, Violation};
use crate::stealing::model::Workload;
use crate::stealing::nodes::{NodeBitset, NodeSet};
use crate::stealing::sim::Run;
use crate::time::Time;

/// What occupies nodes over an interval.
#[derive(Clone)]
enum Who {
    Attempt(usize),
    Hold(usize),
    Down(usize),
}

/// Every occupation's start and end, ends before starts at the same instant (half-open
/// intervals).
fn events(run: &Run, downs: &Downs) -> Vec<(Time, bool, Who)> {
    let mut ev: Vec<(Time, bool, Who)> = Vec::new();
    let mut add = |a: &Time, b: &Time, who: Who| {
        if a < b {
            ev.push((a.clone(), true, who.clone()));
            ev.push((b.clone(), false, who));
        }
    };
    for (k, a) in run.attempts.iter().enumerate() {
        add(&a.start, &a.end, Who::Attempt(k));
    }
    for (k, h) in run.holds.iter().enumerate() {
        add(&h.start, &h.end, Who::Hold(k));
    }
    for (k, dn) in downs.list.iter().enumerate() {
        add(&dn.0, &dn.1, Who::Down(k));
    }
    ev.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    ev
}

/// Sweeps the occupations in time; returns the idle node time inside `win`.
pub(super) fn exclusive_and_idle(
    w: &Workload,
    run: &Run,
    downs: &Downs,
    win: &(Time, Time),
) -> Result<Time, Violation> {
    let n = w.nodes;
    let set_of = |who: &Who| -> NodeSet {
        match who {
            Who::Attempt(k) => run.attempts[*k].nodes.clone(),
            Who::Hold(k) => run.holds[*k].nodes.clone(),
            Who::Down(k) => NodeSet::single(downs.list[*k].2),
        }
    };
    let describe = |who: &Who| -> String {
        match who {
            Who::Attempt(k) => {
                let a = &run.attempts[*k];
                format!("job {} attempt {}", w.jobs[a.job].name, a.index)
            }
            Who::Hold(k) => format!("the hold of job {}", w.jobs[run.holds[*k].job].name),
            Who::Down(k) => format!(
                "the downtime of node {} from {}",
                downs.list[*k].2, downs.list[*k].0
            ),
        }
    };
    let mut occ = NodeBitset::empty(n);
    let mut owner: Vec<(NodeSet, Who)> = Vec::new();
    let mut idle = Time::zero();
    let mut last = win.0.clone();
    for (t, start, who) in &events(run, downs) {
        // Idle node-time since the previous event, inside the window.
        idle = &idle + &clip_len(&last, t, win).mul_int(u64::from(n - occ.count()));
        if *t > last {
            last = t.clone();
        }
        let s = set_of(who);
        if !*start {
            occ.remove_set(&s);
            if let Some(i) = owner.iter().position(|(o, _)| *o == s) {
                owner.swap_remove(i);
            }
            continue;
        }
        if occ.count_set(&s) > 0 {
            let other = owner
                .iter()
                .find(|(o, _)| !o.is_disjoint(&s))
                .map(|(_, x)| describe(x))
                // default: no overlapping owner found, no description
                .unwrap_or_default();
            return Err(v(
                "nodes",
                format!("at {t}: {} uses a node of {other}", describe(who)),
            ));
        }
        occ.insert_set(&s);
        owner.push((s, who.clone()));
    }
    if last < win.1 {
        idle = &idle + &clip_len(&last, &win.1, win).mul_int(u64::from(n - occ.count()));
    }
    Ok(idle)
}
