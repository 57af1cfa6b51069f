//! The conservative-backfilling plan (node-stealing paper, Section 4.1): a profile of the number
//! of free nodes over time, into which queued jobs are placed, in priority order, at the
//! earliest instant from which enough nodes stay free for their whole walltime.
//!
//! # Why counts and not node sets
//! Reservations hold *counts*; node identities are chosen only when a job actually starts (the
//! lowest free ids, [`super::nodes::NodeBitset::take_lowest`]). This is exact, not an
//! approximation: future node availability is known only through counts anyway (running jobs
//! end by their walltime, down nodes return at a known time, and the plan is recomputed at every
//! failure), and rigid jobs with count-feasible reservations can always be given fixed nodes at
//! start time (at every instant the free count covers what starts). It reproduces the node
//! choices of Section 3 ("J_3 on P_3 to P_8", "reserves P_1 to P_6 for J_4", "J_3 … on P_2 and
//! P_4 to P_8") and costs O(S) per placement over S breakpoints, not O(S·N).
use crate::time::Time;

/// Free-node count as a step function from `now` on: `steps[i] = (t_i, free on [t_i, t_{i+1}))`;
/// the last step lasts forever.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    steps: Vec<(Time, i64)>,
}

/// An occupation of `count` nodes over `[from, to)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Busy {
    pub from: Time,
    pub to: Time,
    pub count: u32,
}

impl Profile {
    /// The profile of `nodes` nodes from `now`, minus the given occupations (clipped to `now`).
    pub fn new(now: &Time, nodes: u32, busy: &[Busy]) -> Profile {
        let mut ev: Vec<(Time, i64)> = Vec::with_capacity(2 * busy.len());
        let mut at_now: i64 = i64::from(nodes);
        for b in busy {
            if b.to <= *now || b.to <= b.from || b.count == 0 {
                continue;
            }
            let c = i64::from(b.count);
            if b.from <= *now {
                at_now -= c;
            } else {
                ev.push((b.from.clone(), -c));
            }
            ev.push((b.to.clone(), c));
        }
        ev.sort_by(|a, b| a.0.cmp(&b.0));
        let mut steps = vec![(now.clone(), at_now)];
        for (t, d) in ev {
            let last = steps.len() - 1;
            if steps[last].0 == t {
                steps[last].1 += d;
            } else {
                let v = steps[last].1 + d;
                steps.push((t, v));
            }
        }
        Profile { steps }
    }

    /// The steps (for tests and reports).
    pub fn steps(&self) -> &[(Time, i64)] {
        &self.steps
    }

    /// Free nodes at `t` (≥ the profile start).
    pub fn free_at(&self, t: &Time) -> i64 {
        let i = self.steps.partition_point(|(s, _)| s <= t);
        if i == 0 {
            self.steps[0].1
        } else {
            self.steps[i - 1].1
        }
    }

    /// The earliest `s ≥ not_before` such that at least `p` nodes are free on `[s, s + len)`.
    ///
    /// Always exists when `p` ≤ the final count (every occupation ends).
    pub fn earliest(&self, p: u32, len: &Time, not_before: &Time) -> Time {
        self.earliest_before(p, len, not_before, None)
    }

    /// As [`Profile::earliest`], but a start at or after `limit` is not looked for: `limit`
    /// is returned instead. Compression uses it with a job's current start, which stays
    /// feasible (every other reservation was placed with it present), so the scan stops there
    /// instead of running over the whole profile for every queued job.
    pub fn earliest_before(
        &self,
        p: u32,
        len: &Time,
        not_before: &Time,
        limit: Option<&Time>,
    ) -> Time {
        if let Some(l) = limit {
            if l <= not_before {
                return l.clone();
            }
        }
        let p = i64::from(p);
        let n = self.steps.len();
        // First step containing `not_before`.
        let mut i = self
            .steps
            .partition_point(|(s, _)| s <= not_before)
            .saturating_sub(1);
        while i < n {
            if limit.is_some_and(|l| self.steps[i].0 >= *l) {
                break;
            }
            if self.steps[i].1 < p {
                i += 1;
                continue;
            }
            let s = if self.steps[i].0 < *not_before {
                not_before.clone()
            } else {
                self.steps[i].0.clone()
            };
            let end = &s + len;
            let mut j = i + 1;
            let mut ok = true;
            while j < n && self.steps[j].0 < end {
                if self.steps[j].1 < p {
                    ok = false;
                    break;
                }
                j += 1;
            }
            if ok {
                return s;
            }
            i = j + 1;
        }
        if let Some(l) = limit {
            return l.clone();
        }
        // Unreachable when p ≤ final count; the end of the profile is the safe answer.
        self.steps[n - 1].0.clone().max(not_before.clone())
    }

    /// Index of the step starting exactly at `t` (inserting a breakpoint if needed).
    fn split(&mut self, t: &Time) -> usize {
        let i = self.steps.partition_point(|(s, _)| s < t);
        if i < self.steps.len() && self.steps[i].0 == *t {
            return i;
        }
        let v = if i == 0 {
            self.steps[0].1
        } else {
            self.steps[i - 1].1
        };
        self.steps.insert(i, (t.clone(), v));
        i
    }

    /// Adds `delta` to the free count on `[from, to)`.
    fn add(&mut self, from: &Time, to: &Time, delta: i64) {
        if to <= from {
            return;
        }
        let a = self.split(from);
        let b = self.split(to);
        for st in &mut self.steps[a..b] {
            st.1 += delta;
        }
    }

    /// Reserves `p` nodes on `[start, start + len)`.
    pub fn reserve(&mut self, start: &Time, len: &Time, p: u32) {
        self.add(start, &(start + len), -i64::from(p));
    }

    /// Gives back a reservation made by [`Profile::reserve`].
    pub fn unreserve(&mut self, start: &Time, len: &Time, p: u32) {
        self.add(start, &(start + len), i64::from(p));
    }

    /// The smallest free count over the profile (a negative value is an over-subscription).
    pub fn min_free(&self) -> i64 {
        // default: an empty profile has nothing free to go below 0
        self.steps.iter().map(|s| s.1).min().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(n: i64) -> Time {
        Time::from_int(n)
    }

    #[test]
    fn toy_example_plan_after_the_failure() {
        // Section 3 at t = 1, Baseline: J1 on one node until 8, J2 on one node until 5, node P3
        // down until 6; J3 (6 nodes, 10) has the highest priority, then J4 (6, 10), then J5 (1, 2).
        let busy = vec![
            Busy {
                from: i(0),
                to: i(8),
                count: 1,
            },
            Busy {
                from: i(0),
                to: i(5),
                count: 1,
            },
            Busy {
                from: i(1),
                to: i(6),
                count: 1,
            },
        ];
        let mut pr = Profile::new(&i(1), 8, &busy);
        assert_eq!(pr.steps(), &[(i(1), 5), (i(5), 6), (i(6), 7), (i(8), 8)]);
        let s3 = pr.earliest(6, &i(10), &i(1));
        assert_eq!(s3, i(5));
        pr.reserve(&s3, &i(10), 6);
        let s4 = pr.earliest(6, &i(10), &i(1));
        assert_eq!(s4, i(15));
        pr.reserve(&s4, &i(10), 6);
        assert_eq!(pr.earliest(1, &i(2), &i(1)), i(1));
        assert!(pr.min_free() >= 0);
        pr.unreserve(&s4, &i(10), 6);
        assert_eq!(pr.free_at(&i(20)), 8);
    }

    #[test]
    fn earliest_respects_not_before_and_gaps() {
        let busy = vec![
            Busy {
                from: i(0),
                to: i(4),
                count: 3,
            },
            Busy {
                from: i(6),
                to: i(9),
                count: 3,
            },
        ];
        let pr = Profile::new(&i(0), 4, &busy);
        assert_eq!(pr.earliest(2, &i(2), &i(0)), i(4));
        assert_eq!(pr.earliest(2, &i(3), &i(0)), i(9));
        assert_eq!(pr.earliest(1, &i(100), &i(0)), i(0));
        assert_eq!(pr.earliest(2, &i(1), &i(5)), i(5));
    }
}
