//! The area argument that proves OPT ≥ U: the least processor area any schedule shorter than U
//! needs, computed exactly from the instance's time tables; when it is at least P·U, no
//! schedule shorter than U fits on P processors, so a checked schedule of makespan U is optimal.
//!
//! Job j runs n = f_j + 1 attempts back to back, on allocations p_1, …, p_n of its choice, with
//! Σ t(p_i) < U in a schedule shorter than U (and so t(p_i) < U for each). Its area Σ a(p_i),
//! a(p) = p·t(p), is at least Σ h(t(p_i)) ≥ n·h(mean t) ≥ n·h(U/n), where h is the largest
//! convex non-increasing function below the points (t(p), a(p)) with t(p) < U: the lower convex
//! hull from the fastest point to the point of least area, then flat (Jensen's inequality, then
//! h non-increasing and mean t < U/n). For the Amdahl chain t(p) = 1 + 1/p this is the
//! Cauchy–Schwarz step of the moldable paper's tightness argument (Σ 1/p_i < 2 forces
//! Σ p_i > 2s²); for an area job (one attempt) it is its least area on an allocation faster
//! than U. A job with U/n below its least time has no such schedule at all.
use resched::error::{Error, Result};
use resched::model::{Instance, Job, Scenario};
use resched::time::Time;

/// What the area argument gives for a makespan `u`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaBound {
    /// The least total area of a schedule shorter than `u` (`None`: no schedule is shorter
    /// than `u`, some job's attempts cannot fit).
    pub needed: Option<Time>,
    /// P·u, the area the platform offers before `u`.
    pub capacity: Time,
}

impl AreaBound {
    /// True when no schedule shorter than `u` exists: OPT ≥ `u`.
    pub fn proves_opt_at_least(&self) -> bool {
        self.needed.as_ref().is_none_or(|a| *a >= self.capacity)
    }
}

/// The area argument at makespan `u` for `inst` under `sc` (see the module doc).
pub fn area_below(inst: &Instance, sc: &Scenario, u: &Time) -> Result<AreaBound> {
    let capacity = u.mul_int(u64::from(inst.procs));
    let mut needed = Time::zero();
    // Area jobs come in long runs of identical jobs: their envelope is computed once per run.
    let mut last: Option<(&Job, u32, Time)> = None;
    for (job, &f) in inst.jobs.iter().zip(&sc.failures) {
        let area = match &last {
            Some((j, g, a)) if *g == f && j.profile == job.profile => a.clone(),
            _ => match job_area_below(job, f, u)? {
                Some(a) => a,
                None => {
                    return Ok(AreaBound {
                        needed: None,
                        capacity,
                    })
                }
            },
        };
        needed += &area;
        last = Some((job, f, area));
    }
    Ok(AreaBound {
        needed: Some(needed),
        capacity,
    })
}

/// n·h(u/n) for one job with `f` failures (module doc); `None` when its attempts cannot fit
/// below `u`.
fn job_area_below(job: &Job, f: u32, u: &Time) -> Result<Option<Time>> {
    let n = u64::from(f) + 1;
    let x = u
        .div_int(n)
        .ok_or_else(|| Error::param("failures", "no attempt"))?;
    // (t, a) of every allocation faster than u, by increasing t (at equal t the least a).
    let mut pts: Vec<(Time, Time)> = job
        .allowed_procs()
        .filter_map(|p| job.time(p).map(|t| (t.clone(), t.mul_int(u64::from(p)))))
        .filter(|(t, _)| t < u)
        .collect();
    pts.sort();
    pts.dedup_by(|b, a| a.0 == b.0);
    let Some(first) = pts.first() else {
        return Ok(None);
    };
    if x < first.0 {
        return Ok(None);
    }
    // The point of least area (the fastest of them): h is flat from there on.
    let Some(least) = pts
        .iter()
        .enumerate()
        .min_by(|a, b| a.1 .1.cmp(&b.1 .1).then(a.0.cmp(&b.0)))
        .map(|(i, _)| i)
    else {
        return Ok(None);
    };
    if x >= pts[least].0 {
        return Ok(Some(pts[least].1.mul_int(n)));
    }
    let hull = lower_hull(&pts[..=least]);
    for w in hull.windows(2) {
        let ((t0, a0), (t1, a1)) = (&w[0], &w[1]);
        if x >= *t0 && x <= *t1 {
            // a0 + (a1 − a0)·(x − t0)/(t1 − t0), exactly.
            let slope = (a1 - a0)
                .checked_div(&(t1 - t0))
                .ok_or_else(|| Error::param("times", "two hull points at one time"))?;
            let h = a0 + &(&slope * &(&x - t0));
            return Ok(Some(h.mul_int(n)));
        }
    }
    Err(Error::param(
        "times",
        format!("u/n = {x} lies outside the hull of job {}", job.name),
    ))
}

/// The lower convex hull of points sorted by strictly increasing t (monotone chain).
fn lower_hull(pts: &[(Time, Time)]) -> Vec<(Time, Time)> {
    let mut hull: Vec<(Time, Time)> = Vec::with_capacity(pts.len());
    for p in pts {
        while hull.len() >= 2 {
            let (o, a) = (&hull[hull.len() - 2], &hull[hull.len() - 1]);
            // Drop `a` when it lies on or above the segment o → p.
            let cross = &(&(&a.0 - &o.0) * &(&p.1 - &o.1)) - &(&(&a.1 - &o.1) * &(&p.0 - &o.0));
            if cross.is_positive() {
                break;
            }
            hull.pop();
        }
        hull.push(p.clone());
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::model::{Profile, SpeedupModel};

    fn amdahl_job(w: i64, gamma: Time, procs: u32) -> Job {
        let model = SpeedupModel::Amdahl {
            w: Time::from_int(w),
            gamma,
        };
        let times = model.table(procs, "j").unwrap();
        Job {
            name: "J".into(),
            profile: Profile::Moldable { model, times },
        }
    }

    #[test]
    fn the_chain_needs_the_cauchy_schwarz_area() {
        // t(p) = 1 + 1/p on P = 16, 8 attempts below U = 10: at least 8·(4 + 1) = 40 = 2s² + 2s.
        let chain = amdahl_job(2, Time::new(1, 2).unwrap(), 16);
        let a = job_area_below(&chain, 7, &Time::from_int(10)).unwrap();
        assert_eq!(a, Some(Time::from_int(40)));
        // Below U = 8 the 8 attempts (each longer than 1) cannot fit: a mean of 1 < t(16).
        assert_eq!(job_area_below(&chain, 7, &Time::from_int(8)).unwrap(), None);
        // Below 9 the mean 9/8 is t(8) itself: 8·a(8) = 72. Below 19/2 the mean 19/16 lies
        // between t(6) = 7/6 and t(5) = 6/5 (areas 7 and 6), interpolated: 8·(7 − 5/8) = 51.
        let a = job_area_below(&chain, 7, &Time::from_int(9)).unwrap();
        assert_eq!(a, Some(Time::from_int(72)));
        let a = job_area_below(&chain, 7, &Time::new(19, 2).unwrap()).unwrap();
        assert_eq!(a, Some(Time::from_int(51)));
    }

    #[test]
    fn an_area_job_slower_than_u_on_one_processor_takes_two() {
        // t(p) = 8/p + 2 (s = 4): t(1) = 10 = U is not below U, so the least area is a(2) = 12.
        let area = amdahl_job(10, Time::new(1, 5).unwrap(), 16);
        let a = job_area_below(&area, 0, &Time::from_int(10)).unwrap();
        assert_eq!(a, Some(Time::from_int(12)));
        let a = job_area_below(&area, 0, &Time::new(21, 2).unwrap()).unwrap();
        assert_eq!(a, Some(Time::from_int(10)));
    }
}
