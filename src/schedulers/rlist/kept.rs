//! The kept reading of R-LIST(m) (rigid paper Section 4.1, Algorithm 1;
//! [`Reservations::Kept`], not the default): reservations kept until the job starts.
//!
//! Section 4.1 says that "from an analysis point of view" every completion deletes all
//! reservations and makes a fresh round; that is the default here, and Proposition 1 is proved
//! for it. The paper's *simulator* (the C++ code published with it, github.com/vlefevre/
//! job-scheduling, `main.cpp`, read for this comparison; none of its code is used here) does
//! otherwise: a reservation becomes a pair of start/end events in its event queue and is never
//! revised — its cancellation loop, meant to run when a job fails, breaks on its first
//! iteration because it tests the type of the completing event (always an end) instead of the
//! popped one, so no reservation is ever returned to the queue. At each completion it then gives
//! reservations to the first m jobs of the queue *that have none* ("all" = every such job; "one"
//! = one more job per completion, so with m = 1 reservations accumulate and it is not EASY) and
//! backfills the rest against every kept reservation. With exact run times this is what
//! production conservative backfilling does (a plan is never delayed, and no job ever ends
//! early, so it is never compressed either). [`Reservations::Kept`] implements that reading:
//! failed jobs re-enter Q at their priority but behind every kept reservation. Without failures
//! the two readings give the same schedule for m = |Q| (a plan made at time 0 stays the earliest
//! fit: tested); with failures neither dominates (golden tests `*_kept_vs_recomputed_golden`
//! and `tests/cases/*kept_vs_recomputed.json`, one case each way). It is the reading that
//! reproduces the paper's Figure 5 (R-List-Q about 25% above R-List-0 at q̄ = 0.5; see
//! docs/results/rigid-qbar.md). Run side by side with a local transcription of that simulator on
//! its own sample (200 scenarios), our kept R-LIST has its mean makespan within 0.3% for m = 1
//! and m = |Q| (±5% per scenario), the recomputed one 13–16% below it; GREEDY is equal on every
//! scenario. Differences from that simulator: it decides in floating point, handles the
//! completions of one instant one at a time (we: all at once, failed jobs in priority order, the
//! engine's same-instant rule), adds `verif` = 10 s to every attempt, and orders simultaneous
//! events by its heap, which can reject a fit spuriously when a reservation starts exactly as
//! another attempt ends.
//!
//! The plan starts on the integer clock when the times allow it and moves to exact time, once,
//! when the integer licence runs out (`clock.rs`).
use super::clock::{Clock, Ft};
use super::profile::{round, Profile, Queue};
#[cfg(doc)]
use super::Reservations;

/// The kept reservations and profile of [`Reservations::Kept`], in one clock type.
#[derive(Debug, Clone)]
pub(super) struct KeptPlan<T> {
    pub(super) profile: Profile<T>,
    /// (start, queue position), in the order made.
    reservations: Vec<(T, usize)>,
}

impl<T: Clock> KeptPlan<T> {
    pub(super) fn new(platform: u32, zero: T) -> KeptPlan<T> {
        KeptPlan {
            profile: Profile {
                steps: vec![(zero, platform)],
            },
            reservations: Vec::new(),
        }
    }

    /// The same plan in exact time (when the integer licence runs out).
    pub(super) fn to_exact(&self) -> KeptPlan<Ft> {
        KeptPlan {
            profile: Profile {
                steps: self
                    .profile
                    .steps
                    .iter()
                    .map(|s| (Ft(s.0.to_time()), s.1))
                    .collect(),
            },
            reservations: self
                .reservations
                .iter()
                .map(|r| (Ft(r.0.to_time()), r.1))
                .collect(),
        }
    }

    /// One event: the reservations due now start (`starts`), then a round for the queue.
    /// Errors with a message when a reservation was missed (an internal bug).
    pub(super) fn event(
        &mut self,
        now: &T,
        q: Queue<'_, T>,
        starts: &mut Vec<usize>,
    ) -> std::result::Result<(), String> {
        self.profile.advance(now);
        let mut missed = None;
        self.reservations.retain(|(s, pos)| {
            if s > now {
                return true;
            }
            if s < now {
                missed = Some(*pos);
            }
            starts.push(*pos);
            false
        });
        if let Some(pos) = missed {
            return Err(format!(
                "internal: the reservation of job {} lies in the past",
                q.order[pos]
            ));
        }
        round(&mut self.profile, q, starts, Some(&mut self.reservations))
            .map_err(|_| "internal: time overflow in the profile".to_string())
    }
}

/// Which clock the kept plan runs on.
#[derive(Debug, Clone)]
pub(super) enum Kept {
    Int(KeptPlan<i64>),
    Exact(KeptPlan<Ft>),
}

#[cfg(test)]
mod tests {
    use super::super::clock::IntBound;
    use super::super::reference::{keys_of, random_case, starts_of, t, MS};
    use super::super::{Greedy, RList, Reservations};
    use super::*;
    use crate::check::check;
    use crate::engine::{run, Scheduler};
    use crate::model::{Instance, Scenario};
    use crate::schedulers::priority::Priority;
    use crate::time::Time;

    /// Conservative backfilling (m = |Q|), the two readings, hand-computed. P = 2, LPT order
    /// X1 (p 1, t 3), X2 (p 1, t 2), X0 (p 2, t 1); X2 and X0 fail once.
    /// Both: t = 0: X1 [0,3), X2 [0,2), X0 reserved [3,4).
    /// Recomputed: t = 2, X2 failed: fresh round, X2 (first in Q) fits [2,4) and restarts; X0
    ///   is re-reserved at 4. t = 4: X0 [4,5), fails; [5,6). Makespan 6.
    /// Kept: t = 2: X0 keeps [3,4), so X2 gets the earliest slot after it: [4,6). t = 3: X0
    ///   [3,4), fails; at 4 it is reserved after X2: [6,7). Makespan 7.
    #[test]
    fn conservative_kept_vs_recomputed_golden() {
        let inst = Instance::rigid(2, &[(2, t(1)), (1, t(3)), (1, t(2))]).unwrap();
        let sc = Scenario::new(vec![1, 0, 1]);
        let keys = keys_of(&inst);
        let m = usize::MAX;
        let (rec, mk) = starts_of(&inst, &sc, &mut RList::new(m, &keys, 2, Priority::Lpt, 0));
        assert_eq!(
            rec,
            vec![
                (0, 1, t(4)),
                (0, 2, t(5)),
                (1, 1, t(0)),
                (2, 1, t(0)),
                (2, 2, t(2))
            ]
        );
        assert_eq!(mk, t(6));
        let mut kept = RList::with_policy(m, Reservations::Kept, &keys, 2, Priority::Lpt, 0);
        assert_eq!(kept.name(), "R-LIST(m=|Q|,kept)/LPT");
        let (kp, mk) = starts_of(&inst, &sc, &mut kept);
        assert_eq!(
            kp,
            vec![
                (0, 1, t(3)),
                (0, 2, t(6)),
                (1, 1, t(0)),
                (2, 1, t(0)),
                (2, 2, t(4))
            ]
        );
        assert_eq!(mk, t(7));
    }

    /// m = 1, the two readings, hand-computed: kept reservations accumulate (one more per
    /// completion), which here helps. P = 3, LPT order J3 (1, 6), J1 (1, 4), J2 (2, 3),
    /// J0 (1, 2); J1, J2, J3 fail once.
    /// Both: t = 0: J3 [0,6) (the head), J1 [0,4) and J0 [0,2) backfill. t = 2: J2 reserved at 4.
    /// Recomputed: t = 4, J1 failed: the fresh round gives the one reservation to J1 (head),
    ///   which starts [4,8); J2 cannot backfill (1 free). t = 6: J3 [6,12). t = 8: J2 [8,11),
    ///   fails; [11,14). Makespan 14.
    /// Kept: t = 4: J2 starts on its reservation [4,7); J1 reserved at 6 [6,10). t = 6: J3
    ///   reserved at 7 [7,13). t = 7: J2 failed, reserved at 10 [10,13). Makespan 13.
    #[test]
    fn easy_kept_vs_recomputed_golden() {
        let inst = Instance::rigid(3, &[(1, t(2)), (1, t(4)), (2, t(3)), (1, t(6))]).unwrap();
        let sc = Scenario::new(vec![0, 1, 1, 1]);
        let keys = keys_of(&inst);
        let (rec, mk) = starts_of(&inst, &sc, &mut RList::new(1, &keys, 3, Priority::Lpt, 0));
        let want = |v: [(usize, u32, i64); 7]| {
            let mut v: Vec<(usize, u32, Time)> = v.iter().map(|x| (x.0, x.1, t(x.2))).collect();
            v.sort();
            v
        };
        assert_eq!(
            rec,
            want([
                (3, 1, 0),
                (1, 1, 0),
                (0, 1, 0),
                (1, 2, 4),
                (3, 2, 6),
                (2, 1, 8),
                (2, 2, 11)
            ])
        );
        assert_eq!(mk, t(14));
        let mut kept = RList::with_policy(1, Reservations::Kept, &keys, 3, Priority::Lpt, 0);
        let (kp, mk) = starts_of(&inst, &sc, &mut kept);
        assert_eq!(
            kp,
            want([
                (3, 1, 0),
                (1, 1, 0),
                (0, 1, 0),
                (2, 1, 4),
                (1, 2, 6),
                (3, 2, 7),
                (2, 2, 10)
            ])
        );
        assert_eq!(mk, t(13));
    }

    /// Properties of the kept reading on random cases (every schedule checked): with m = 0 it
    /// is GREEDY; without failures, conservative backfilling never needs to revise a plan, so
    /// kept = recomputed for m = |Q|; integer and exact clocks agree (times scaled by 1/3 give
    /// the same schedule scaled).
    #[test]
    fn kept_properties() {
        for seed in 0..200u64 {
            let (inst, sc) = random_case(seed, 1, 1);
            let (inst3, _) = random_case(seed, 3, 1);
            let keys = keys_of(&inst);
            let keys3 = keys_of(&inst3);
            let none = Scenario::none(inst.len());
            for pr in Priority::ALL {
                let g = run(&inst, &sc, &mut Greedy::new(&keys, inst.procs, pr, seed)).unwrap();
                let k0 = RList::with_policy(0, Reservations::Kept, &keys, inst.procs, pr, seed);
                let k0 = run(&inst, &sc, &mut k0.clone()).unwrap();
                assert_eq!(
                    g.schedule.attempts, k0.schedule.attempts,
                    "seed {seed} {pr}"
                );
                let rq = RList::new(usize::MAX, &keys, inst.procs, pr, seed);
                let kq =
                    RList::with_policy(usize::MAX, Reservations::Kept, &keys, inst.procs, pr, seed);
                let a = run(&inst, &none, &mut rq.clone()).unwrap();
                let b = run(&inst, &none, &mut kq.clone()).unwrap();
                assert_eq!(
                    a.schedule.attempts, b.schedule.attempts,
                    "seed {seed} {pr}: {inst:?}"
                );
                for m in MS {
                    let mut k =
                        RList::with_policy(m, Reservations::Kept, &keys, inst.procs, pr, seed);
                    let r = run(&inst, &sc, &mut k).unwrap();
                    check(&inst, &sc, &r.schedule).unwrap();
                    let mut k3 =
                        RList::with_policy(m, Reservations::Kept, &keys3, inst3.procs, pr, seed);
                    let r3 = run(&inst3, &sc, &mut k3).unwrap();
                    check(&inst3, &sc, &r3.schedule).unwrap();
                    let scaled: Vec<Time> = r3
                        .schedule
                        .attempts
                        .iter()
                        .map(|a| a.start.mul_int(3))
                        .collect();
                    let plain: Vec<Time> = r
                        .schedule
                        .attempts
                        .iter()
                        .map(|a| a.start.clone())
                        .collect();
                    assert_eq!(plain, scaled, "seed {seed} m {m} {pr}");
                }
            }
        }
    }

    /// Times so large that the integer licence holds at time 0 and runs out during the run:
    /// the kept plan moves to exact time and makes the same schedule as the same jobs scaled
    /// down (R-LIST only adds times and compares sums, so its schedule scales).
    #[test]
    fn kept_survives_the_integer_limit() {
        let big = i64::MAX / 256;
        let mut moved = 0;
        for seed in 0..40u64 {
            let (small, sc) = random_case(seed, 1, 1);
            let (huge, _) = random_case(seed, 1, big);
            let (ks, kh) = (keys_of(&small), keys_of(&huge));
            assert!(
                IntBound::new(&kh).is_some(),
                "seed {seed}: licensed at time 0"
            );
            for m in MS {
                let mut a =
                    RList::with_policy(m, Reservations::Kept, &ks, small.procs, Priority::Lpt, 0);
                let mut b =
                    RList::with_policy(m, Reservations::Kept, &kh, huge.procs, Priority::Lpt, 0);
                let ra = run(&small, &sc, &mut a).unwrap();
                let rb = run(&huge, &sc, &mut b).unwrap();
                check(&huge, &sc, &rb.schedule).unwrap();
                moved += usize::from(matches!(b.kept, Kept::Exact(_)));
                let scaled: Vec<Time> = ra
                    .schedule
                    .attempts
                    .iter()
                    .map(|x| x.start.mul_int(big as u64))
                    .collect();
                let got: Vec<Time> = rb
                    .schedule
                    .attempts
                    .iter()
                    .map(|x| x.start.clone())
                    .collect();
                assert_eq!(got, scaled, "seed {seed} m {m}");
            }
        }
        assert!(moved > 0, "no run crossed the integer limit");
    }
}
