//! The *area+chain* lower-bound constructions for LPA-LIST (moldable paper, Theorems 3, 5, 7:
//! claimed lower bounds 2.5 (communication), 3 (Amdahl), 3 (mix); proofs not in our copy).
//!
//! Lemma 2 bounds LIST with allocation p by r(α, β) = P/(P−1)·α + (P−2)/(P−1)·β when α < β,
//! where α bounds the *area* inflation and β the *time* inflation of the allocation, both taken
//! as maxima over the jobs. LPA minimises each job's local r(α_j, β_j), so the worst case mixes
//! two kinds of jobs, each at the edge of LPA's choice:
//! - **area jobs**, to which LPA gives p_A > 1 processors at area inflation α_A > 1; they tile
//!   all P processors exactly (P a multiple of p_A, full rounds), so the list's area phase
//!   lasts α_A·(their least area)/P while no processor is ever idle;
//! - one **chain** job, to which LPA gives one processor at time inflation β_C (its least time
//!   needs k > 1 processors), failing f times. Every priority rule of the paper (LPT, HPA, LA)
//!   puts the area jobs first (longer attempts, more processors, larger area), so the chain
//!   starts only when the area phase ends: T = (area phase) + (f+1)·t_C(1).
//!
//! The *explicit* schedule giving U runs the chain on k processors from time 0 (its least
//! time) and every area job on one processor (its least area) on the other P − k, one column
//! per processor: U = t_A(1) = (f+1)·t_C(k) when the two are balanced. It passes the checker,
//! so T/U (U ≥ OPT) is a certified lower bound on LPA-LIST's approximation ratio, tending to
//! α_A + β_C — a value Lemma 2 allows and the paper's claims do not reach:
//! - **Amdahl** (Theorem 5, claimed 3): on P = s² processors, s(s−1) area jobs
//!   t(p) = 2(s/p + 1) (LPA: p = s, where α = β = 2s/(s+1)) and a chain t(p) = 1 + 1/p failing
//!   2s − 1 times (LPA: p = 1, β = 2P/(P+1)): T = 4(s−1) + 4s, U = 2(s+1),
//!   **T/OPT = 4 − 6/(s+1) → 4**, Theorem 4's proven upper bound: Theorem 4 is tight as
//!   P → ∞ (at a fixed P = s² the ratio stays 6/(√P+1) below 4), for LPA-LIST under LPT, HPA
//!   and LA as built. **OPT = U** here: a schedule shorter than U = 2(s+1) would need more area
//!   than P·U = 2s³ + 2s². An area job on one processor lasts t(1) = 2(s+1) = U, so each takes
//!   ≥ 2 processors and area ≥ a(2) = 2s + 4; the chain's 2s attempts fit in U only if
//!   Σ (1 + 1/p_i) < 2s + 2, i.e. Σ 1/p_i < 2, which forces Σ p_i > (2s)²/2 = 2s²
//!   (Cauchy–Schwarz) and chain area Σ (p_i + 1) > 2s² + 2s; in all more than
//!   s(s−1)(2s+4) + 2s² + 2s = 2s³ + 4s² − 2s > P·U. The ledger does not print this argument:
//!   it computes, per member and from the instance's own time tables, the least area of a
//!   schedule shorter than U ([`super::least_area`]) and compares it with P·U.
//! - **Amdahl, SPT chain** ([`amdahl_spt`]): under SPT the chain's attempts of 2 would run
//!   first; rescaled to ⌊s/2⌋ attempts of w = 4s/⌊s/2⌋ (8 attempts of w = 8 at s = 16) they
//!   outlast an area attempt and the member gives the same T, U and T/OPT (62/17 at s = 16).
//!   Under LPA (lowest allocation first) the chain (one processor) starts at once, beside the
//!   area jobs, and the members give less than 2.
//!   Why LPA gives the area job s processors (s ≥ 3): a(p) = 2(s+p), a_min = a(1) = 2(s+1),
//!   t_min = t(P) = 2(s+1)/s, so α(p) = (s+p)/(s+1) and β(p) = α(p)·s/p. For p ≥ s, α ≥ β and
//!   r = 2α(p) ≥ 2α(s) = 4s/(s+1). For p < s, r(p)·(P−1) = α(p)·(P + (P−2)s/p), and
//!   (s+p)(P + (P−2)s/p) − 4s(P−1) = (P−2)(s+p)²/p + 2(s+p) − 4sP + 4s
//!   = (s−p)·((P−2)(s−p)/p − 2) > 0, since (P−2)(s−p)/p ≥ (s²−2)/(s−1) > 2 when s ≥ 3
//!   (at s = 2 it is a tie, which Algorithm 2 gives to p = 1: the family starts at s = 3).
//!   The chain: α(1) = 1 < β(1) = 2P/(P+1) gives r(1) = 3P/(P+1) < 3, while every p ≥ 2 has
//!   α(p) = (1+p)/2 ≥ 3/2 ≥ β(p), so r(p) = 2α(p) ≥ 3. The engine re-checks both choices.
//! - **mix** (Theorem 7, claimed 3): the same jobs with a small communication overhead
//!   c = 1/s⁶ and p̄ = P (the mix model is Amdahl's as c → 0, the paper's own argument):
//!   T/U = (8s − 4 + (s−1)²c) / (2(s+1) + 2s(s−1)c) ([`mix_ratio`]), just below Amdahl's;
//!   past 3 from s = 6 (P = 36), → 4.
//! - **communication** (Theorem 3, claimed 2.5): for w = 1 and overhead ρ, LPA switches from
//!   p = 2 (ρ below a tie point ρ*(P)) to p = 1 (above): just below ρ*, α(2) = 1 + 2ρ ≈ 1.295
//!   (area jobs); just above, β(1) = 1/t(3) ≈ 1.591 (the chain; its least time is at p = 3).
//!   On P = 6m processors with m(P−3) area jobs in 2m − 1 full rounds of P/2 jobs, and the
//!   chain failing 3m − 1 times: T/U = (2m−1)/m·(1/2 + ρ_A) + 3/(1 + 6ρ_C), which tends
//!   (P → ∞, where ρ* → (√73 − 5)/24) to α* + β* = **(3 + √73)/4 ≈ 2.886** > 2.5.
//!   ρ*(P) is the root of a quadratic (irrational): the family takes the dyadic pair
//!   ρ_A < ρ* < ρ_C that a bisection on LPA's own choice ([`lpa_job`]) returns.
//!
//! Every number here comes from the engine (LPA's allocations, LIST's makespan under each
//! priority) and the checker (U); the closed forms are what the tests compare them with.
use crate::moldable_cases::run_moldable;
use resched::error::{Error, Result};
use resched::model::{Attempt, Instance, Job, Profile, Scenario, Schedule, SpeedupModel};
use resched::schedulers::moldable::lpa::lpa_job;
use resched::schedulers::moldable::Priority as MPriority;
use resched::time::Time;

/// The priority rules of the paper's evaluation (Section 5.1), each run on every construction.
pub const PRIORITIES: [MPriority; 3] = [MPriority::Lpt, MPriority::Hpa, MPriority::La];

/// One member of an area+chain family: the case and the explicit schedule giving U.
#[derive(Debug, Clone)]
pub struct Construction {
    /// The family (`area+chain (amdahl)`, …).
    pub family: &'static str,
    /// The parameters, for printing (`s = 16, P = 256, …`).
    pub params: String,
    pub instance: Instance,
    pub scenario: Scenario,
    /// The schedule of U: the chain on `chain_procs` processors from 0, the area jobs on one
    /// processor each.
    pub schedule: Schedule,
}

/// A construction measured: LPA-LIST's makespan per priority (the engine), U (the checker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certified {
    /// LPA-LIST's makespan under LPT, HPA and LA, in [`PRIORITIES`] order.
    pub makespans: Vec<Time>,
    /// The least of them: the ratio holds for every priority rule of the paper.
    pub t: Time,
    /// The checked makespan of the explicit schedule (U ≥ OPT).
    pub u: Time,
    /// t / u: a certified lower bound on LPA-LIST's approximation ratio.
    pub ratio: Time,
}

fn bad(what: &str, msg: impl Into<String>) -> Error {
    Error::param(what, msg)
}

fn moldable(name: String, model: SpeedupModel, procs: u32) -> Result<Job> {
    let times = model
        .table(procs, &name)
        .map_err(|e| e.in_file("area+chain construction"))?;
    Ok(Job {
        name,
        profile: Profile::Moldable { model, times },
    })
}

fn time_of(job: &Job, p: u32) -> Result<Time> {
    job.time(p)
        .cloned()
        .ok_or_else(|| bad("area+chain", format!("job {} has no time on {p}", job.name)))
}

/// The explicit schedule: the chain (job `n_area`) on `k` processors from 0, attempts back to
/// back; each area job on one processor, greedily on the processor that frees first (the
/// chain's k processors free when the chain ends).
fn explicit(jobs: &[Job], fails: u32, k: u32, procs: u32) -> Result<Schedule> {
    let n_area = jobs.len() - 1;
    let tc = time_of(&jobs[n_area], k)?;
    let chain_end = tc.mul_int(u64::from(fails) + 1);
    let mut free: Vec<Time> = (0..procs)
        .map(|i| {
            if i < k {
                chain_end.clone()
            } else {
                Time::zero()
            }
        })
        .collect();
    let mut attempts = Vec::with_capacity(jobs.len() + fails as usize);
    for (j, job) in jobs.iter().enumerate().take(n_area) {
        let d = time_of(job, 1)?;
        let Some((slot, _)) = free.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)) else {
            return Err(bad("area+chain", "no processor"));
        };
        attempts.push(Attempt {
            job: j,
            attempt: 1,
            start: free[slot].clone(),
            procs: 1,
            duration: d.clone(),
            nodes: None,
        });
        free[slot] = &free[slot] + &d;
    }
    for a in 0..=fails {
        attempts.push(Attempt {
            job: n_area,
            attempt: a + 1,
            start: tc.mul_int(u64::from(a)),
            procs: k,
            duration: tc.clone(),
            nodes: None,
        });
    }
    Ok(Schedule {
        attempts,
        makespan: None,
        algorithm: Some("area+chain construction".into()),
    }
    .with_makespan())
}

/// Builds a member: `n_area` copies of `area`, then the chain `chain` failing `fails` times;
/// U's schedule runs the chain on `k` processors.
#[allow(clippy::too_many_arguments)]
fn build(
    family: &'static str,
    params: String,
    procs: u32,
    area: &SpeedupModel,
    n_area: usize,
    chain: SpeedupModel,
    fails: u32,
    k: u32,
) -> Result<Construction> {
    let mut jobs = Vec::with_capacity(n_area + 1);
    for i in 0..n_area {
        jobs.push(moldable(format!("A{}", i + 1), area.clone(), procs)?);
    }
    jobs.push(moldable("C".into(), chain, procs)?);
    let schedule = explicit(&jobs, fails, k, procs)?;
    let mut failures = vec![0; n_area];
    failures.push(fails);
    let instance = Instance::new(procs, jobs).map_err(|e| e.in_file("area+chain construction"))?;
    Ok(Construction {
        family,
        params,
        instance,
        scenario: Scenario::new(failures),
        schedule,
    })
}

/// Runs LPA-LIST under every priority (each run checked by the oracle) and checks U's schedule.
pub fn certify(c: &Construction) -> Result<Certified> {
    certify_under(c, &PRIORITIES)
}

/// [`certify`] under the priority rules `prios` (T is the least of their makespans).
pub fn certify_under(c: &Construction, prios: &[MPriority]) -> Result<Certified> {
    let u = resched::check::check(&c.instance, &c.scenario, &c.schedule)?;
    let mut makespans = Vec::with_capacity(prios.len());
    for &prio in prios {
        makespans.push(run_moldable(&c.instance, &c.scenario, "lpa-list", prio, None)?.0);
    }
    let Some(t) = makespans.iter().min().cloned() else {
        return Err(bad("area+chain", "no priority was run"));
    };
    let ratio = crate::ratio(&t, &u)?;
    Ok(Certified {
        makespans,
        t,
        u,
        ratio,
    })
}

/// LPA's count for one job of `model` on `procs` processors.
fn lpa_count(model: &SpeedupModel, procs: u32) -> Result<u32> {
    Ok(lpa_job(&moldable("probe".into(), model.clone(), procs)?, procs).0)
}

fn expect_count(what: &str, model: &SpeedupModel, procs: u32, want: u32) -> Result<()> {
    let got = lpa_count(model, procs)?;
    if got != want {
        return Err(bad(
            what,
            format!("LPA gives {got} processors on P = {procs}, the construction needs {want}"),
        ));
    }
    Ok(())
}

fn int(n: u64) -> Result<Time> {
    let n = i64::try_from(n).map_err(|_| bad("area+chain", format!("{n} is too large")))?;
    Ok(Time::from_int(n))
}

fn frac(n: u64, d: u64) -> Result<Time> {
    Time::ratio_u64(n, d).ok_or_else(|| bad("area+chain", format!("{n}/{d} is not a time")))
}

/// The Amdahl (c = None) or mix (c = Some) member of parameter s ≥ 3 (P = s², see the module
/// doc): T/U = 4 − 6/(s+1) for Amdahl.
pub fn amdahl(s: u32, mix_c: Option<Time>) -> Result<Construction> {
    if !(3..=64).contains(&s) {
        return Err(bad("s", format!("must be in 3..=64, got {s}")));
    }
    let procs = s * s;
    let s64 = u64::from(s);
    // Area job t(p) = w((1−γ)/p + γ) with w = 2(s+1), γ = 1/(s+1): 2s/p + 2.
    let (w_a, g_a) = (int(2 * (s64 + 1))?, frac(1, s64 + 1)?);
    // Chain t(p) = 1/p + 1: w = 2, γ = 1/2.
    let (w_c, g_c) = (int(2)?, frac(1, 2)?);
    let (area, chain, family) = match mix_c {
        None => (
            SpeedupModel::Amdahl { w: w_a, gamma: g_a },
            SpeedupModel::Amdahl { w: w_c, gamma: g_c },
            "area+chain (amdahl)",
        ),
        Some(ref c) => (
            SpeedupModel::Mix {
                w: w_a,
                gamma: g_a,
                pbar: procs,
                c: c.clone(),
            },
            SpeedupModel::Mix {
                w: w_c,
                gamma: g_c,
                pbar: procs,
                c: c.clone(),
            },
            "area+chain (mix)",
        ),
    };
    expect_count("area job", &area, procs, s)?;
    expect_count("chain job", &chain, procs, 1)?;
    let params = match &mix_c {
        None => format!(
            "s = {s}, P = {procs}, {} area jobs 2(s/p+1), chain 1/p+1 failing {} times",
            s * (s - 1),
            2 * s - 1
        ),
        Some(c) => format!(
            "s = {s}, P = {procs}, c = {c}, p̄ = P, {} area jobs, chain failing {} times",
            s * (s - 1),
            2 * s - 1
        ),
    };
    build(
        family,
        params,
        procs,
        &area,
        (s * (s - 1)) as usize,
        chain,
        2 * s - 1,
        s,
    )
}

/// The Amdahl member with its chain rescaled for SPT: the same s(s−1) area jobs (attempts of
/// 4 on s processors) and a chain of ⌊s/2⌋ attempts of t(p) = (w/2)(1 + 1/p), w = 4s/⌊s/2⌋
/// (8 for even s). The chain's attempt on one processor (w ≥ 8) now outlasts an area attempt,
/// so SPT too starts the area jobs first, and the chain's total work is unchanged (4s on one
/// processor, 2(s+1) on s): T = 4(s−1) + 4s and U = 2(s+1) as in [`amdahl`]. Under SPT the
/// original chain (attempts of 2) would start at once, beside the area jobs.
pub fn amdahl_spt(s: u32) -> Result<Construction> {
    if !(3..=64).contains(&s) {
        return Err(bad("s", format!("must be in 3..=64, got {s}")));
    }
    let procs = s * s;
    let s64 = u64::from(s);
    let attempts = s / 2;
    let area = SpeedupModel::Amdahl {
        w: int(2 * (s64 + 1))?,
        gamma: frac(1, s64 + 1)?,
    };
    let chain = SpeedupModel::Amdahl {
        w: frac(4 * s64, u64::from(attempts))?,
        gamma: frac(1, 2)?,
    };
    expect_count("area job", &area, procs, s)?;
    expect_count("chain job", &chain, procs, 1)?;
    let params = format!(
        "s = {s}, P = {procs}, {} area jobs 2(s/p+1), chain (w/2)(1/p+1) with w = {} failing {} times",
        s * (s - 1),
        frac(4 * s64, u64::from(attempts))?,
        attempts - 1
    );
    build(
        "area+chain (amdahl, SPT chain)",
        params,
        procs,
        &area,
        (s * (s - 1)) as usize,
        chain,
        attempts - 1,
        s,
    )
}

/// The closed form of the Amdahl member: 4 − 6/(s+1) = (4s − 2)/(s + 1).
pub fn amdahl_ratio(s: u32) -> Option<Time> {
    Time::ratio_u64(4 * u64::from(s) - 2, u64::from(s) + 1)
}

/// The closed form of the mix member with overhead c (LPA's counts unchanged, s and 1):
/// T = (s−1)·t_A(s) + 2s·t_C(1) = 8s − 4 + (s−1)²·c, and U = the chain's 2s attempts on s
/// processors = 2(s+1) + 2s(s−1)·c (the area jobs' single column, 2(s+1), is shorter), so
/// T/U = (8s − 4 + (s−1)²c) / (2(s+1) + 2s(s−1)c), which tends to Amdahl's 4 − 6/(s+1) as c → 0.
pub fn mix_ratio(s: u32, c: &Time) -> Option<Time> {
    let s64 = u64::from(s);
    let t = &Time::from_int(8 * i64::from(s) - 4) + &c.mul_int((s64 - 1) * (s64 - 1));
    let u = &Time::from_int(2 * (i64::from(s) + 1)) + &c.mul_int(2 * s64 * (s64 - 1));
    t.checked_div(&u)
}

/// The overhead of the mix member: c = 1/s⁶, small enough that LPA keeps Amdahl's counts.
pub fn mix_c(s: u32) -> Option<Time> {
    Time::ratio_u64(1, u64::from(s).checked_pow(6)?)
}

/// LPA's tie point between one and two processors for w = 1 on `procs` processors: the dyadic
/// pair (ρ_A, ρ_C), ρ_C − ρ_A = 2^−`steps`·(7/16), with LPA giving 2 processors at c = ρ_A and
/// 1 at c = ρ_C (bisection on the engine's own choice, [`lpa_job`]).
pub fn comm_tie(procs: u32, steps: u32) -> Result<(Time, Time)> {
    let model = |rho: &Time| SpeedupModel::Communication {
        w: Time::one(),
        c: rho.clone(),
    };
    let (mut lo, mut hi) = (frac(1, 16)?, frac(1, 2)?);
    expect_count("comm tie, low end", &model(&lo), procs, 2)?;
    expect_count("comm tie, high end", &model(&hi), procs, 1)?;
    for _ in 0..steps {
        let mid = (&lo + &hi)
            .div_int(2)
            .ok_or_else(|| bad("comm tie", "halving failed"))?;
        match lpa_count(&model(&mid), procs)? {
            1 => hi = mid,
            2 => lo = mid,
            p => {
                return Err(bad(
                    "comm tie",
                    format!("LPA gives {p} processors at c = {mid}"),
                ))
            }
        }
    }
    Ok((lo, hi))
}

/// The communication member of parameter m ≥ 1 (P = 6m, see the module doc), with the tie
/// point bisected `steps` times: [`comm_member`] with 2m − 1 rounds and j = m.
pub fn communication(m: u32, steps: u32) -> Result<Construction> {
    if !(1..=64).contains(&m) {
        return Err(bad("m", format!("must be in 1..=64, got {m}")));
    }
    let tie = comm_tie(6 * m, checked_steps(steps)?)?;
    comm_member(6 * m, 2 * m - 1, m, &tie)
}

fn checked_steps(steps: u32) -> Result<u32> {
    if !(1..=40).contains(&steps) {
        return Err(bad("steps", format!("must be in 1..=40, got {steps}")));
    }
    Ok(steps)
}

/// The general communication member on an even number `procs` of processors: `rounds` full
/// rounds of P/2 area jobs (LPA: 2 processors each, at c = ρ_A of `tie`), each of work
/// w_A = L/j where L = (f+1)·t_C(3) is the chain's length on its fastest allocation, and the
/// chain (w = 1, c = ρ_C) failing f = 3j − 1 times, so that an area attempt (≈ 0.648·w_A ≈
/// 1.22) outlasts a chain attempt (1) and LPT too starts the area jobs first.
pub fn comm_member(procs: u32, rounds: u32, j: u32, tie: &(Time, Time)) -> Result<Construction> {
    if procs % 2 != 0 || !(4..=384).contains(&procs) {
        return Err(bad("P", format!("must be even in 4..=384, got {procs}")));
    }
    let n_area = u64::from(rounds) * u64::from(procs / 2);
    if !(1..=64).contains(&rounds) || j == 0 || u64::from(j) > n_area {
        return Err(bad(
            "rounds",
            format!("rounds {rounds} in 1..=64 and j {j} in 1..={n_area} expected"),
        ));
    }
    let (rho_a, rho_c) = tie;
    let chain = SpeedupModel::Communication {
        w: Time::one(),
        c: rho_c.clone(),
    };
    let ct = chain
        .table(procs, "chain")
        .map_err(|e| e.in_file("area+chain construction"))?;
    // The chain's least time is at p = 3 (t(2) − t(3) = ρ − 1/6 < 0 < t(4) − t(3) = ρ − 1/12
    // needs 1/12 < ρ < 1/6, which ρ* ≈ 0.147 meets); checked, not assumed.
    let Some(k) = (1..=procs).min_by(|&a, &b| ct[a as usize - 1].cmp(&ct[b as usize - 1])) else {
        return Err(bad("P", "no processor"));
    };
    if k != 3 {
        return Err(bad(
            "P",
            format!("the chain's least time is at p = {k}, not 3"),
        ));
    }
    let fails = 3 * j - 1;
    let chain_len = ct[2].mul_int(u64::from(fails) + 1);
    let w_a = chain_len
        .div_int(u64::from(j))
        .ok_or_else(|| bad("j", "zero"))?;
    let area = SpeedupModel::Communication {
        c: &w_a * rho_a,
        w: w_a,
    };
    expect_count("area job", &area, procs, 2)?;
    expect_count("chain job", &chain, procs, 1)?;
    let params = format!(
        "P = {procs}, {rounds} rounds of {} area jobs w = {} c = w·{rho_a}, chain w = 1 c = {rho_c} failing {fails} times",
        procs / 2,
        area_w(&area)
    );
    build(
        "area+chain (communication)",
        params,
        procs,
        &area,
        n_area as usize,
        chain,
        fails,
        3,
    )
}

/// The best communication member of one P in an exhaustive scope.
#[derive(Debug, Clone)]
pub struct ScopeBest {
    pub procs: u32,
    pub rounds: u32,
    pub j: u32,
    pub certified: Certified,
}

/// Exhaustive search of the communication family over a stated scope: every even P in
/// `procs`, every rounds in 1..=`max_rounds`, every j in 1..=rounds·P/2 (w_A = L/j), each
/// member run by the engine under LPT, HPA and LA and its U checked; the best certified ratio
/// per P. (Odd P is outside the family: two-processor area jobs cannot fill all P processors,
/// so the chain would start at once.)
pub fn comm_scope(
    procs: std::ops::RangeInclusive<u32>,
    max_rounds: u32,
    steps: u32,
) -> Result<Vec<ScopeBest>> {
    let mut out = Vec::new();
    for p in procs.filter(|p| p % 2 == 0) {
        let tie = comm_tie(p, checked_steps(steps)?)?;
        let mut best: Option<ScopeBest> = None;
        for rounds in 1..=max_rounds {
            for j in 1..=rounds * (p / 2) {
                let certified = certify(&comm_member(p, rounds, j, &tie)?)?;
                if best
                    .as_ref()
                    .is_none_or(|b| certified.ratio > b.certified.ratio)
                {
                    best = Some(ScopeBest {
                        procs: p,
                        rounds,
                        j,
                        certified,
                    });
                }
            }
        }
        out.extend(best);
    }
    Ok(out)
}

fn area_w(model: &SpeedupModel) -> String {
    match model {
        SpeedupModel::Communication { w, .. } => w.to_string(),
        _ => String::new(),
    }
}

/// The closed form of the communication member: (2m−1)/m·(1/2 + ρ_A) + 3/(1 + 6ρ_C).
pub fn communication_ratio(m: u32, rho_a: &Time, rho_c: &Time) -> Option<Time> {
    let half = Time::ratio_u64(1, 2)?;
    let area = (&half + rho_a)
        .mul_int(2 * u64::from(m) - 1)
        .div_int(u64::from(m))?;
    let chain = Time::from_int(3).checked_div(&(&Time::one() + &rho_c.mul_int(6)))?;
    Some(&area + &chain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amdahl_members_reach_four_minus_six_over_s_plus_one() {
        // s = 2 is LPA's tie (area job on 1 processor): refused, not silently wrong.
        assert!(amdahl(2, None).is_err());
        for s in [3u32, 4, 5, 6, 8, 12] {
            let c = amdahl(s, None).unwrap();
            let r = certify(&c).unwrap();
            let s64 = i64::from(s);
            assert_eq!(r.u, Time::from_int(2 * (s64 + 1)), "s={s}");
            for t in &r.makespans {
                assert_eq!(*t, Time::from_int(8 * s64 - 4), "s={s}");
            }
            assert_eq!(Some(r.ratio), amdahl_ratio(s), "s={s}");
        }
        // s = 6 is the first member above the claimed 3: 22/7.
        assert_eq!(amdahl_ratio(6), Time::new(22, 7));
        assert!(amdahl_ratio(6).unwrap() > Time::from_int(3));
        assert!(amdahl_ratio(5).unwrap() == Time::from_int(3));
    }

    #[test]
    fn every_amdahl_member_has_opt_equal_to_u_by_the_area_argument() {
        use super::super::least_area::area_below;
        for s in 3u32..=32 {
            let c = amdahl(s, None).unwrap();
            let u = resched::check::check(&c.instance, &c.scenario, &c.schedule).unwrap();
            let a = area_below(&c.instance, &c.scenario, &u).unwrap();
            // s(s−1)(2s+4) + 2s(s+1) against P·U = 2s³ + 2s²: a margin of 2s² − 2s.
            let s64 = i64::from(s);
            let needed = s64 * (s64 - 1) * (2 * s64 + 4) + 2 * s64 * (s64 + 1);
            assert_eq!(a.needed, Some(Time::from_int(needed)), "s={s}");
            assert_eq!(
                a.capacity,
                Time::from_int(2 * s64 * s64 * (s64 + 1)),
                "s={s}"
            );
            assert!(a.proves_opt_at_least(), "s={s}");
        }
    }

    #[test]
    fn the_spt_chain_gives_the_amdahl_ratio_under_spt_and_lpa_stays_below_two() {
        use super::super::least_area::area_below;
        for s in [3u32, 5, 6, 16] {
            let c = amdahl_spt(s).unwrap();
            let r = certify_under(&c, &[MPriority::Spt]).unwrap();
            assert_eq!(Some(r.ratio.clone()), amdahl_ratio(s), "s={s}");
            assert!(area_below(&c.instance, &c.scenario, &r.u)
                .unwrap()
                .proves_opt_at_least());
            let plain = certify_under(&amdahl(s, None).unwrap(), &[MPriority::Spt]).unwrap();
            let lpa = certify_under(&amdahl(s, None).unwrap(), &[MPriority::Lpa]).unwrap();
            eprintln!(
                "s = {s}: SPT chain under SPT {}, plain member under SPT {}, under LPA {}",
                r.ratio, plain.ratio, lpa.ratio
            );
            // Under SPT and LPA the plain chain starts at once: T = 4s (the chain, as long as
            // the area jobs' s rounds of 4 on the other s² − 1 processors), 2s/(s+1) < 2.
            let below_two = Time::new(2 * i64::from(s), i64::from(s) + 1).unwrap();
            assert_eq!(plain.ratio, below_two, "s={s}");
            assert_eq!(lpa.ratio, below_two, "s={s}");
        }
        // The numbers: 8 attempts of w = 8 at s = 16 give 62/17.
        let c = amdahl_spt(16).unwrap();
        assert_eq!(c.scenario.failures.last(), Some(&7));
        assert_eq!(amdahl_ratio(16), Time::new(62, 17));
    }

    #[test]
    fn mix_members_match_their_closed_form() {
        for s in [3u32, 5, 6, 8, 16] {
            let c = mix_c(s).unwrap();
            let r = certify(&amdahl(s, Some(c.clone())).unwrap()).unwrap();
            assert_eq!(Some(r.ratio.clone()), mix_ratio(s, &c), "s={s}");
            assert!(r.ratio < amdahl_ratio(s).unwrap(), "s={s}");
        }
        // s = 6 (P = 36): 2052889/653244 ≈ 3.1426, the first member past the claimed 3.
        let c6 = mix_c(6).unwrap();
        assert_eq!(mix_ratio(6, &c6), Time::new(2_052_889, 653_244));
        assert!(mix_ratio(5, &mix_c(5).unwrap()).unwrap() < Time::from_int(3));
    }

    #[test]
    fn communication_members_match_their_closed_form_and_pass_two_and_a_half() {
        for m in [1u32, 2, 4] {
            let c = communication(m, 24).unwrap();
            let r = certify(&c).unwrap();
            let (a, b) = comm_tie(6 * m, 24).unwrap();
            assert_eq!(
                Some(r.ratio.clone()),
                communication_ratio(m, &a, &b),
                "m={m}"
            );
            assert!(
                r.makespans.iter().all(|t| *t == r.t),
                "m={m}: {:?}",
                r.makespans
            );
        }
    }

    #[test]
    fn comm_scope_small_processor_counts() {
        // Scope: P even in 4..=12, 1..=7 rounds, every j (w_A = L/j), the tie bisected 24
        // times. P ≤ 8 stays below 2.5; P = 10 is the first to pass it; P = 12's best is the
        // m = 2 member of the P = 6m family.
        let best = comm_scope(4..=12, 7, 24).unwrap();
        for b in &best {
            eprintln!(
                "P = {}: best {} ≈ {} (rounds {}, j {})",
                b.procs,
                b.certified.ratio,
                b.certified.ratio.to_decimal_string(4),
                b.rounds,
                b.j
            );
        }
        let half = Time::new(5, 2).unwrap();
        let procs: Vec<u32> = best.iter().map(|b| b.procs).collect();
        assert_eq!(procs, [4, 6, 8, 10, 12]);
        for b in &best[..3] {
            assert!(b.certified.ratio < half, "P = {}", b.procs);
        }
        assert!(best[3].certified.ratio > half);
        let m2 = certify(&communication(2, 24).unwrap()).unwrap();
        assert_eq!(best[4].certified.ratio, m2.ratio);
    }
}
