//! LPA's inflations over a speedup model: the largest area inflation α = a(p)/a_min and time
//! inflation β = t(p)/t_min that LPA's allocation (moldable paper, Algorithm 2) accepts on one
//! job of the model, found by an exact scan of the model's parameter.
//!
//! Why they bound the whole ratio: for LPA's allocation p and an optimal one p*, every job has
//! a_j(p_j) ≤ α_j·a_min,j ≤ α_j·a_j(p*_j) and t_j(p_j) ≤ β_j·t_j(p*_j), so Lemma 2 holds with
//! the global α = max_j α_j and β = max_j β_j, and LPA-LIST ≤ r(α, β)·OPT with r
//! non-decreasing in both. Over a model, the ratio is therefore at most r(sup α, sup β), which
//! tends to sup α + sup β as P grows (when sup α < sup β). The area+chain families
//! ([`super::area_chain`]) put area jobs at LPA's largest α and a failing chain at its largest
//! β, and reach α_A + β_C: where the scan finds α_A = sup α and β_C = sup β, the family's limit
//! *is* the supremum of LPA-LIST's ratio over the model, and the paper's proven bound (3 for
//! the communication model, 6 for the mix model) is not tight.
//!
//! The scan is exact at every point it visits (LPA's own choice, [`lpa_job`], on the model's
//! exact table), but it visits finitely many points: a grid of the parameter, then a bisection
//! wherever LPA's choice changes between two grid points (the tie points, where the suprema
//! sit: on a stretch where LPA keeps p, α rises towards the tie). It is evidence for the
//! suprema, not a proof of them; the ledger says so where it reports it.
use resched::bounds::moldable::r_alpha_beta;
use resched::error::{Error, Result};
use resched::model::{Job, Profile, SpeedupModel};
use resched::schedulers::moldable::lpa::lpa_job;
use resched::time::Time;

/// One extreme inflation found, where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extreme {
    pub value: Time,
    /// The model's parameters there, for printing.
    pub at: String,
    /// LPA's processor count there.
    pub lpa_procs: u32,
}

/// The largest α and β a scan found on `procs` processors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inflation {
    pub procs: u32,
    pub alpha: Extreme,
    pub beta: Extreme,
    /// Points of the model evaluated.
    pub evaluated: u64,
}

impl Inflation {
    /// r(sup α, sup β) on `procs` processors: Lemma 2's bound for the inflations found.
    pub fn r(&self) -> Time {
        r_alpha_beta(&self.alpha.value, &self.beta.value, self.procs)
    }
}

/// LPA's count, α and β for one job of `model` on `procs` processors.
pub fn inflations(model: &SpeedupModel, procs: u32) -> Result<(u32, Time, Time)> {
    let times = model
        .table(procs, "model")
        .map_err(|e| e.in_file("inflation scan"))?;
    let tmin = times.iter().min().cloned();
    let amin = times.iter().zip(1u64..).map(|(t, p)| t.mul_int(p)).min();
    let job = Job {
        name: "probe".into(),
        profile: Profile::Moldable {
            model: model.clone(),
            times: times.clone(),
        },
    };
    let (p, _) = lpa_job(&job, procs);
    let (Some(tmin), Some(amin), Some(t)) = (tmin, amin, times.get(p as usize - 1)) else {
        return Err(Error::param("procs", "an empty table"));
    };
    let alpha = crate::ratio(&t.mul_int(u64::from(p)), &amin)?;
    let beta = crate::ratio(t, &tmin)?;
    Ok((p, alpha, beta))
}

/// Scans the parameter x ∈ `grid` (sorted, exact) of `model_at`, bisecting `steps` times
/// wherever LPA's count changes between neighbours; records the extremes into `best`.
fn scan_1d(
    grid: &[Time],
    steps: u32,
    procs: u32,
    model_at: &dyn Fn(&Time) -> Result<(SpeedupModel, String)>,
    best: &mut Option<Inflation>,
) -> Result<()> {
    let mut eval = |x: &Time| -> Result<u32> {
        let (m, at) = model_at(x)?;
        let (p, a, b) = inflations(&m, procs)?;
        let inf = best.get_or_insert_with(|| Inflation {
            procs,
            alpha: Extreme {
                value: Time::zero(),
                at: String::new(),
                lpa_procs: 0,
            },
            beta: Extreme {
                value: Time::zero(),
                at: String::new(),
                lpa_procs: 0,
            },
            evaluated: 0,
        });
        inf.evaluated += 1;
        if a > inf.alpha.value {
            inf.alpha = Extreme {
                value: a,
                at: at.clone(),
                lpa_procs: p,
            };
        }
        if b > inf.beta.value {
            inf.beta = Extreme {
                value: b,
                at,
                lpa_procs: p,
            };
        }
        Ok(p)
    };
    let mut prev: Option<(Time, u32)> = None;
    for x in grid {
        let p = eval(x)?;
        if let Some((x0, p0)) = prev.take() {
            if p0 != p {
                let (mut lo, mut hi) = (x0, x.clone());
                for _ in 0..steps {
                    let mid = (&lo + &hi)
                        .div_int(2)
                        .ok_or_else(|| Error::param("grid", "halving failed"))?;
                    if eval(&mid)? == p0 {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
            }
        }
        prev = Some((x.clone(), p));
    }
    Ok(())
}

fn frac(n: u64, d: u64) -> Result<Time> {
    Time::ratio_u64(n, d).ok_or_else(|| Error::param("grid", format!("{n}/{d}")))
}

/// The communication model t(p) = w/p + (p−1)c (w = 1: α and β depend on c/w only) on `procs`
/// processors: c over 1/(4q²) for q = 1..=P (the neighbourhood of the tie between q and q+1
/// processors) and k/64 for k = 1..=32, each change of LPA's count bisected `steps` times.
pub fn communication(procs: u32, steps: u32) -> Result<Inflation> {
    let mut grid: Vec<Time> = Vec::new();
    for q in 1..=u64::from(procs) {
        grid.push(frac(1, 4 * q * q)?);
    }
    for k in 1..=32 {
        grid.push(frac(k, 64)?);
    }
    grid.sort();
    grid.dedup();
    let mut best = None;
    let model_at = |c: &Time| {
        Ok((
            SpeedupModel::Communication {
                w: Time::one(),
                c: c.clone(),
            },
            format!("c/w = {c}"),
        ))
    };
    scan_1d(&grid, steps, procs, &model_at, &mut best)?;
    best.ok_or_else(|| Error::param("grid", "empty"))
}

/// The mix model t(p) = w(1−γ)/min(p, p̄) + wγ + (p−1)c (w = 1) on `procs` processors: for
/// p̄ ∈ {P/4, P/2, P} and c ∈ {0} ∪ {2^−k : k = 0, 2, …, 2·`c_exps`}, γ over k/32
/// (k = 0..=32), each change of LPA's count bisected `steps` times.
pub fn mix(procs: u32, c_exps: u32, steps: u32) -> Result<Inflation> {
    let gammas: Vec<Time> = (0..=32).map(|k| frac(k, 32)).collect::<Result<_>>()?;
    let mut cs = vec![Time::zero()];
    for k in 0..=c_exps {
        cs.push(frac(1, 1u64 << (2 * k).min(62))?);
    }
    let mut best = None;
    for pbar in [procs / 4, procs / 2, procs] {
        let pbar = pbar.max(1);
        for c in &cs {
            let model_at = |g: &Time| {
                Ok((
                    SpeedupModel::Mix {
                        w: Time::one(),
                        gamma: g.clone(),
                        pbar,
                        c: c.clone(),
                    },
                    format!("γ = {g}, p̄ = {pbar}, c/w = {c}"),
                ))
            };
            scan_1d(&gammas, steps, procs, &model_at, &mut best)?;
        }
    }
    best.ok_or_else(|| Error::param("grid", "empty"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_communication_suprema_sit_at_the_area_chain_tie() {
        // P = 96: the area+chain member m = 16 takes α_A = 1 + 2ρ_A and β_C = 1/t(3) at the
        // tie ρ* between one and two processors; the scan finds no larger α or β anywhere.
        let inf = communication(96, 24).unwrap();
        eprintln!("{inf:?} r = {}", inf.r().to_decimal_string(4));
        assert_eq!(inf.alpha.lpa_procs, 2);
        assert_eq!(inf.beta.lpa_procs, 1);
        let (a, c) = super::super::area_chain::comm_tie(96, 24).unwrap();
        let (_, alpha_a, _) = inflations(
            &SpeedupModel::Communication {
                w: Time::one(),
                c: a,
            },
            96,
        )
        .unwrap();
        let (_, _, beta_c) =
            inflations(&SpeedupModel::Communication { w: Time::one(), c }, 96).unwrap();
        // The scan's bisection and the family's reach the same tie to 2^-24.
        let close = Time::new(1, 1 << 20).unwrap();
        assert!(&inf.alpha.value - &alpha_a < close, "{inf:?}");
        assert!(&inf.beta.value - &beta_c < close, "{inf:?}");
        // r(sup α, sup β) < 3 = Theorem 2's bound, and below the family's limit
        // (3 + √73)/4 < 2.886002 at every P scanned.
        assert!(inf.r() < Time::from_int(3));
        let limit = Time::new(2_886_002, 1_000_000).unwrap();
        for procs in [6u32, 12, 24, 96] {
            let r = communication(procs, 24).unwrap().r();
            eprintln!("P = {procs}: r(sup α, sup β) ≈ {}", r.to_decimal_string(4));
            assert!(r < limit, "P = {procs}: {r}");
        }
    }

    #[test]
    fn the_mix_suprema_stay_below_two() {
        let inf = mix(64, 6, 16).unwrap();
        eprintln!("{inf:?} r = {}", inf.r().to_decimal_string(4));
        assert!(inf.alpha.value < Time::from_int(2), "{inf:?}");
        assert!(inf.beta.value < Time::from_int(2), "{inf:?}");
        assert!(inf.r() < Time::from_int(4));
    }
}
