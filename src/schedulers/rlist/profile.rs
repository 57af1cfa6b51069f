//! The processor profile of R-LIST(m) and one round of its Algorithm 1 (rigid paper Section
//! 4.1): the free processors over time as a step function, the earliest start at which a job
//! fits for its whole duration, reservations taken out of it, and the round that gives the first
//! m queued jobs a reservation and backfills the others.
use super::clock::{Clock, Overflow};

/// The free processors over time from `now` on, as a step function: `steps[k] = (s_k, free_k)`
/// means `free_k` processors are free on [s_k, s_{k+1}) (the last step lasts forever and has all
/// processors free).
#[derive(Debug, Clone)]
pub(super) struct Profile<T> {
    pub(super) steps: Vec<(T, u32)>,
}

impl<T: Clock> Profile<T> {
    pub(super) fn empty() -> Profile<T> {
        Profile { steps: Vec::new() }
    }

    /// Rebuilds from the free processors now and the (end, procs) of the attempts running
    /// (`ends` is sorted here), reusing the allocation.
    pub(super) fn rebuild(&mut self, now: T, free: u32, ends: &mut [(T, u32)]) {
        ends.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        self.steps.clear();
        self.steps.push((now, free));
        let mut cur = free;
        for (t, p) in ends.iter() {
            cur += p;
            match self.steps.last_mut() {
                Some(last) if last.0 == *t => last.1 = cur,
                _ => self.steps.push((t.clone(), cur)),
            }
        }
    }

    /// Drops the past: the step holding `now` becomes the first and starts at `now`.
    pub(super) fn advance(&mut self, now: &T) {
        let k = self.steps.partition_point(|s| s.0 <= *now);
        if k > 1 {
            self.steps.drain(..k - 1);
        }
        if let Some(first) = self.steps.first_mut() {
            first.0 = now.clone();
        }
    }

    /// Whether `p` processors are free on [steps[k].0, steps[k].0 + t).
    pub(super) fn fits_from(&self, k: usize, p: u32, t: &T) -> Result<bool, Overflow> {
        let end = self.steps[k].0.plus(t).ok_or(Overflow)?;
        Ok(self.steps[k..]
            .iter()
            .take_while(|s| s.0 < end)
            .all(|s| s.1 >= p))
    }

    /// The first step k at which `p` processors stay free for `t`, in one sweep: the candidate k
    /// moves past every step with fewer than `p` free (no window containing that step fits, and
    /// every later candidate's window reaches at least as far), and is accepted at the first
    /// step that starts at or after its end. One addition per candidate, O(steps) in all, where
    /// rescanning each candidate's window would be quadratic. The last step has every processor
    /// free, so a candidate exists.
    pub(super) fn earliest(&self, p: u32, t: &T) -> Result<usize, Overflow> {
        let mut k = 0;
        let mut end = self.steps[0].0.plus(t).ok_or(Overflow)?;
        for i in 0..self.steps.len() {
            if self.steps[i].0 >= end {
                return Ok(k);
            }
            if self.steps[i].1 < p && i + 1 < self.steps.len() {
                k = i + 1;
                end = self.steps[k].0.plus(t).ok_or(Overflow)?;
            }
        }
        Ok(k)
    }

    /// Takes `p` processors on [steps[k].0, steps[k].0 + t) (which must fit).
    pub(super) fn reserve(&mut self, k: usize, p: u32, t: &T) -> Result<(), Overflow> {
        let end = self.steps[k].0.plus(t).ok_or(Overflow)?;
        // Split at `end` so that the reservation stops exactly there.
        let pos = self.steps.partition_point(|s| s.0 < end);
        if pos == self.steps.len() || self.steps[pos].0 != end {
            let before = self.steps[pos - 1].1;
            self.steps.insert(pos, (end, before));
        }
        for s in &mut self.steps[k..pos] {
            s.1 -= p;
        }
        Ok(())
    }
}

/// The queue as one round of Algorithm 1 reads it.
pub(super) struct Queue<'a, T> {
    /// m, the number of reservations of a round (`usize::MAX` stands for m = |Q|).
    pub(super) m: usize,
    /// order[pos] = job at queue position pos.
    pub(super) order: &'a [usize],
    /// queued[pos]: the job at queue position pos waits in Q (and, when reservations are kept,
    /// has none).
    pub(super) queued: &'a mut [bool],
    /// procs[j] = p_j.
    pub(super) procs: &'a [u32],
    /// times[j] = t_j, in the profile's clock.
    pub(super) times: &'a [T],
    /// suffix_min[pos] = min p_j over queue positions ≥ pos (read only when reservations are
    /// recomputed; all zeros turn the early stop of [`round`] off).
    pub(super) suffix_min: &'a [u32],
}

/// One round of Algorithm 1 on a profile: the first `m` queued jobs (in queue order) get the
/// earliest reservation that fits; the later ones start now if they fit over [now, now + t_j)
/// in the profile. Returns the queue positions that start now in `starts` and, when
/// `kept` is given, records the future reservations there (start, position) and takes those jobs
/// out of the queue.
///
/// Without `kept` (reservations recomputed) the round's only output is `starts`, so it stops as
/// soon as fewer processors are free now than any job from here on needs (`suffix_min[pos]`):
/// no such job can start now (all t_j > 0), and the reservations it would still make are
/// deleted at the next completion anyway.
pub(super) fn round<T: Clock>(
    profile: &mut Profile<T>,
    q: Queue<'_, T>,
    starts: &mut Vec<usize>,
    mut kept: Option<&mut Vec<(T, usize)>>,
) -> Result<(), Overflow> {
    let mut reserved = 0usize;
    for pos in 0..q.order.len() {
        if !q.queued[pos] {
            continue;
        }
        if kept.is_none() && profile.steps[0].1 < q.suffix_min[pos] {
            break;
        }
        let j = q.order[pos];
        let (p, t) = (q.procs[j], &q.times[j]);
        if reserved < q.m {
            // A reservation, the earliest that delays no reservation made before it.
            reserved += 1;
            let k = profile.earliest(p, t)?;
            profile.reserve(k, p, t)?;
            if k == 0 {
                starts.push(pos);
            } else if let Some(kept) = kept.as_deref_mut() {
                kept.push((profile.steps[k].0.clone(), pos));
                q.queued[pos] = false;
            }
        } else if profile.fits_from(0, p, t)? {
            // Backfilling: starts now, delays no reservation.
            profile.reserve(0, p, t)?;
            starts.push(pos);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_reservations() {
        // now = 0, 1 free; a job on 2 processors ends at 3; P = 3.
        let mut pr: Profile<i64> = Profile::empty();
        pr.rebuild(0, 1, &mut [(3, 2)]);
        assert_eq!(pr.earliest(2, &1).unwrap(), 1);
        pr.reserve(1, 2, &1).unwrap(); // [3,4) has 1 free
        assert!(pr.fits_from(0, 1, &10).unwrap());
        assert!(!pr.fits_from(0, 2, &1).unwrap());
        assert_eq!(pr.steps, vec![(0, 1), (3, 1), (4, 3)]);
        pr.advance(&3);
        assert_eq!(pr.steps, vec![(3, 1), (4, 3)]);
        pr.advance(&5);
        assert_eq!(pr.steps, vec![(5, 3)]);
    }

    /// The one-sweep `earliest` is the first k whose window fits (the definition, rescanned).
    #[test]
    fn earliest_sweep_matches_definition() {
        use rand::{RngExt, SeedableRng};
        for seed in 0..300u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let cap = 10u32;
            let n = rng.random_range(0..8usize);
            let mut ends: Vec<(i64, u32)> = Vec::new();
            let mut used = 0;
            for _ in 0..n {
                let p = rng.random_range(1..=3u32);
                if used + p <= cap {
                    used += p;
                    ends.push((rng.random_range(1..12i64), p));
                }
            }
            let mut pr: Profile<i64> = Profile::empty();
            pr.rebuild(0, cap - used, &mut ends);
            for _ in 0..6 {
                let (p, t) = (rng.random_range(1..=cap), rng.random_range(0..9i64));
                let want = (0..pr.steps.len())
                    .find(|&k| pr.fits_from(k, p, &t).unwrap())
                    .unwrap();
                assert_eq!(
                    pr.earliest(p, &t).unwrap(),
                    want,
                    "seed {seed}: {pr:?} p={p} t={t}"
                );
                pr.reserve(want, p, &t).unwrap();
            }
        }
    }
}
