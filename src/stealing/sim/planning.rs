//! The conservative-backfilling plan of the queue (node-stealing paper, Section 4.1, and
//! Section 5.1 for when it is recomputed): what is known to occupy nodes from now on, the
//! placement of every queued job at its earliest slot in priority order, and the start of the
//! jobs whose planned start has come. The profile itself is [`crate::stealing::plan`].
use super::{Queued, Sim};
use crate::error::Result;
use crate::stealing::plan::{Busy, Profile};
use crate::stealing::readings::NodeReturns;
use crate::time::Time;

impl Sim<'_> {
    /// Occupations known now: down nodes, running attempts (to their walltime or stopping
    /// point), holds and the nodes F will take from its victim. `skip` leaves one job out.
    pub(super) fn base_busy(&self, skip: Option<usize>) -> Vec<Busy> {
        let mut b =
            Vec::with_capacity(self.returns.len() + self.running.len() + 2 * self.pendings.len());
        for r in self.running.iter().filter(|r| Some(r.job) != skip) {
            let p = r.nodes.len();
            let Some(s) = &r.stop else {
                b.push(Busy {
                    from: self.now.clone(),
                    to: r.planned_end.clone(),
                    count: p,
                });
                continue;
            };
            b.push(Busy {
                from: self.now.clone(),
                to: s.at.clone(),
                count: p,
            });
            if s.resume {
                let end = &s.at + &(&self.jobs[r.job].wall_len - &s.plan.commit);
                b.push(Busy {
                    from: s.at.clone(),
                    to: end,
                    count: p,
                });
            }
        }
        self.pending_busy(&mut b);
        self.down_busy(&mut b);
        b
    }

    /// Down nodes: busy until they are back ([`NodeReturns::Foreseen`]), or, when the plan does
    /// not foresee returns ([`NodeReturns::Unforeseen`]), until a horizon after every other
    /// occupation and every queued job placed one after another — so a job that fits on the
    /// nodes that are up is always planned before it, and one that does not waits there. Every
    /// return comes before the horizon and recomputes the plan, so no job ever starts at it on
    /// a down node.
    fn down_busy(&self, b: &mut Vec<Busy>) {
        let horizon = match self.readings.returns {
            NodeReturns::Foreseen => None,
            NodeReturns::Unforeseen => {
                let mut h = self.now.clone();
                for t in b.iter().map(|x| &x.to).chain(self.returns.keys()) {
                    if *t > h {
                        h = t.clone();
                    }
                }
                for q in &self.queue {
                    h = &h + &self.reserve_len(q);
                }
                Some(&h + &Time::from_int(1))
            }
        };
        for (t, ns) in &self.returns {
            b.push(Busy {
                from: self.now.clone(),
                to: match &horizon {
                    Some(h) => h.clone(),
                    None => t.clone(),
                },
                count: ns.len() as u32,
            });
        }
    }

    /// The holds of pending steals, and the nodes each failed job takes from its victim at the
    /// stopping point, until the failed job's walltime end.
    fn pending_busy(&self, b: &mut Vec<Busy>) {
        for p in &self.pendings {
            let Some(v) = self.running.iter().find(|r| r.job == p.victim) else {
                continue;
            };
            let Some(s) = &v.stop else { continue };
            let f_end =
                &(&s.at + &self.res.recovery) + &(&self.jobs[p.failed].wall_len - &p.commit);
            b.push(Busy {
                from: self.now.clone(),
                to: f_end.clone(),
                count: p.hold.len(),
            });
            b.push(Busy {
                from: s.at.clone(),
                to: f_end,
                count: p.lost,
            });
        }
    }

    /// The length a queued job reserves: its recovery and the rest of its inflated walltime.
    pub(super) fn reserve_len(&self, q: &Queued) -> Time {
        &q.recovery + &(&self.jobs[q.job].wall_len - &q.pos)
    }

    /// Section 4.1: full recomputation (`compress == false`) or conservative compression.
    pub(super) fn replan(&mut self, compress: bool) {
        let mut busy = self.base_busy(None);
        if compress {
            for q in &self.queue {
                if let Some(s) = &q.planned {
                    busy.push(Busy {
                        from: s.clone(),
                        to: s + &self.reserve_len(q),
                        count: self.jobs[q.job].nodes,
                    });
                }
            }
        }
        let mut prof = Profile::new(&self.now, self.n, &busy);
        for k in 0..self.queue.len() {
            let len = self.reserve_len(&self.queue[k]);
            let p = self.jobs[self.queue[k].job].nodes;
            let mut limit = None;
            if compress {
                if let Some(s) = self.queue[k].planned.clone() {
                    prof.unreserve(&s, &len, p);
                    limit = Some(s);
                }
            }
            // A compressed job never moves later: its own slot is still free (see
            // `Profile::earliest_before`).
            let s = prof.earliest_before(p, &len, &self.now, limit.as_ref());
            prof.reserve(&s, &len, p);
            self.queue[k].planned = Some(s);
        }
    }

    /// Step 6 of the event loop: queued jobs planned to start now start, in queue order, on
    /// the lowest free ids.
    pub(super) fn start_due(&mut self) -> Result<()> {
        let mut k = 0;
        while k < self.queue.len() {
            if self.queue[k].planned.as_ref() == Some(&self.now) {
                let q = self.queue.remove(k);
                let p = self.jobs[q.job].nodes;
                let nodes = self.free.take_lowest(p).ok_or_else(|| {
                    self.internal(format!(
                        "plan starts job {} on {p} nodes but only {} are free",
                        q.job,
                        self.free.count()
                    ))
                })?;
                self.start_attempt(q.job, nodes, q.cause, q.recovery, q.pos);
            } else {
                k += 1;
            }
        }
        Ok(())
    }
}
