//! The ILP method: a time-indexed integer program for T_OPT(f) (rigid paper Section 3.3,
//! moldable paper Section 3.3), solved through `good_lp` — microlp (pure Rust) by default,
//! HiGHS with the `highs` cargo feature.
//!
//! # Formulation
//! Times are the scaled integers of [`super::problem`] (so an optimal schedule with integer
//! starts exists: a semi-active one). The horizon H is the greedy incumbent's makespan (a
//! schedule of makespan H exists, so the model is feasible and contains an optimum).
//! - x[a, o, τ] ∈ {0, 1}: attempt a (job j, attempt i, 0-based) starts at τ on option o (p_o
//!   processors, d_o units). τ ranges over [i·dmin_j, H − d_o − (k_j − 1 − i)·dmin_j]: the
//!   attempts before and after it need at least dmin_j each.
//! - Each attempt starts once: Σ_{o,τ} x[a, o, τ] = 1.
//! - Chains, in the strong (disaggregated) form: attempt i+1 may have started by τ only if
//!   attempt i has ended by τ: Σ_{o, τ' ≤ τ} x[i+1, o, τ'] ≤ Σ_{o, τ' + d_o ≤ τ} x[i, o, τ'],
//!   for every τ of attempt i+1's window. (Its LP relaxation is tighter than the aggregated
//!   S_{i+1} ≥ S_i + D_i.)
//! - Capacity at every unit slot [τ, τ+1): Σ p_o · x[a, o, τ'] over τ' ∈ (τ − d_o, τ] ≤ P
//!   (slots that no set of attempts can overfill are skipped).
//! - Makespan: C ≥ Σ_{o,τ} (τ + d_o) · x[last attempt of j, o, τ] for every job; C ≥ the exact
//!   root lower bound ([`super::bounds::root`]), which is valid and tightens the relaxation.
//! - Identical jobs (same options, same f_j): the lower index starts its first attempt no
//!   later (swapping two such chains maps schedules to schedules of the same makespan).
//! - Objective: minimise C.
//!
//! # Trust
//! Only a solution with status Optimal is reported optimal, and only after: (1) the schedule is
//! rebuilt from the x values in exact time ([`crate::time::Time`]) and passes
//! [`crate::check::check`]; (2) its exact scaled makespan M is within 1/2 of the solver's
//! objective C (both are then "the" integer optimum: OPT·scale is an integer and the solver's
//! gap tolerance is set below 1/2 unit — HiGHS: absolute gap 0.5, relative gap 0; microlp:
//! gap 0). If M meets the exact root lower bound, the certificate is exact
//! ([`super::Certificate::LowerBound`]). Anything else is reported as feasible with the exact
//! lower bound the caller passed (the root bound; with [`super::Method::Both`], the search's
//! proven bound when it is higher).
//!
//! HiGHS's own best (dual) bound of a stopped solve is *not* used: `good_lp` 1.15's
//! `HighsSolution` keeps only the column values (`highs::Solution`) and drops the solved model
//! whose info holds `mip_dual_bound` (its `Solution` trait has no bound either). Reading it
//! would mean re-implementing `good_lp`'s HiGHS `solve` on `HighsProblem::try_into_inner()`.
//!
//! # Limits
//! The model has one binary per (attempt, option, start slot); beyond
//! [`super::OptConfig::ilp_max_vars`] the method refuses with [`Error::Limit`] (the scaled
//! horizon grows with the common denominator of the times). The default is small for microlp,
//! which proves optimality only on tiny models (MACHINE-NOTES: ~6–8 tasks), and larger with
//! HiGHS.
use super::greedy::{IntAttempt, IntSchedule};
use super::problem::IntProblem;
use super::{to_schedule, Certificate, OptConfig};
use crate::error::{Error, Result};
use crate::model::{Instance, Scenario, Schedule};
use crate::time::Time;
use good_lp::{
    variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel,
    Variable,
};

/// Default limit on binary variables: 4,000 with microlp, 400,000 with HiGHS.
#[cfg(not(feature = "highs"))]
pub const DEFAULT_MAX_VARS: usize = 4_000;
/// Default limit on binary variables: 4,000 with microlp, 400,000 with HiGHS.
#[cfg(feature = "highs")]
pub const DEFAULT_MAX_VARS: usize = 400_000;

/// The backend compiled in.
pub fn backend() -> &'static str {
    if cfg!(feature = "highs") {
        "highs"
    } else {
        "microlp"
    }
}

/// What the ILP method returns.
#[derive(Debug, Clone)]
pub struct IlpOutcome {
    pub schedule: Schedule,
    pub makespan: Time,
    pub optimal: bool,
    /// Scaled proven lower bound.
    pub lower_bound: i64,
    pub certificate: Option<Certificate>,
    pub vars: usize,
    pub constraints: usize,
}

/// The binary variables of the model with horizon `h` (scaled units): one per (attempt,
/// option, start slot) of the windows described in the module documentation.
pub fn var_count(prob: &IntProblem, h: i64) -> u64 {
    let mut count: u64 = 0;
    for job in &prob.jobs {
        let k = i64::from(job.attempts);
        for i in 0..k {
            for o in &job.options {
                let lo = i * job.min_dur;
                let hi = h - o.dur - (k - 1 - i) * job.min_dur;
                if hi >= lo {
                    count += (hi - lo + 1) as u64;
                }
            }
        }
    }
    count
}

struct Slot {
    job: usize,
    attempt: usize,
    opt: usize,
    tau: i64,
    var: Variable,
}

/// Builds and solves the time-indexed model.
pub fn solve(
    inst: &Instance,
    sc: &Scenario,
    prob: &IntProblem,
    greedy: &IntSchedule,
    root_lb: i64,
    cfg: &OptConfig,
) -> Result<IlpOutcome> {
    let h = greedy.makespan;
    let fallback = |vars, constraints| -> Result<IlpOutcome> {
        let (schedule, makespan) = checked(inst, sc, prob, greedy)?;
        let optimal = greedy.makespan <= root_lb;
        Ok(IlpOutcome {
            schedule,
            makespan,
            optimal,
            lower_bound: root_lb.min(greedy.makespan),
            certificate: optimal.then_some(Certificate::LowerBound),
            vars,
            constraints,
        })
    };
    // Count the variables before building anything.
    let count = var_count(prob, h);
    if count > cfg.ilp_max_vars as u64 {
        return Err(Error::Limit(format!(
            "opt --method ilp: the time-indexed model needs {count} binary variables (horizon {h} units after scaling \
             times by {}), above the limit of {} for the {} backend; use --method search",
            prob.scale,
            cfg.ilp_max_vars,
            backend()
        )));
    }
    if greedy.makespan <= root_lb {
        // The incumbent meets the exact bound: nothing to solve.
        return fallback(0, 0);
    }

    let mut vars = ProblemVariables::new();
    // slots[j][i] = the variables of attempt i of job j.
    let mut slots: Vec<Vec<Vec<Slot>>> = Vec::with_capacity(prob.jobs.len());
    for (j, job) in prob.jobs.iter().enumerate() {
        let k = i64::from(job.attempts);
        let mut per_job = Vec::with_capacity(k as usize);
        for i in 0..k {
            let mut v = Vec::new();
            for (oi, o) in job.options.iter().enumerate() {
                let lo = i * job.min_dur;
                let hi = h - o.dur - (k - 1 - i) * job.min_dur;
                for tau in lo..=hi {
                    v.push(Slot {
                        job: j,
                        attempt: i as usize,
                        opt: oi,
                        tau,
                        var: vars.add(variable().binary()),
                    });
                }
            }
            per_job.push(v);
        }
        slots.push(per_job);
    }
    // C is integer (OPT·scale is): branching on it closes the gap left by the relaxation.
    let c = vars.add(variable().integer().min(root_lb as f64).max(h as f64));
    let nvars = count as usize;
    let mut constraints: Vec<good_lp::Constraint> = Vec::new();

    // Each attempt starts once.
    for per_job in &slots {
        for v in per_job {
            let mut e = Expression::with_capacity(v.len());
            for s in v {
                e.add_mul(1.0, s.var);
            }
            constraints.push(e.eq(1.0));
        }
    }
    // Chains (disaggregated precedence).
    for (j, per_job) in slots.iter().enumerate() {
        for i in 1..per_job.len() {
            let (prev, next) = (&per_job[i - 1], &per_job[i]);
            // unreachable: every attempt has at least one option (procs ≤ P was checked)
            let lo = next.iter().map(|s| s.tau).min().unwrap_or(0);
            // unreachable: every attempt has at least one option (procs ≤ P was checked)
            let hi = next.iter().map(|s| s.tau).max().unwrap_or(-1);
            for tau in lo..=hi {
                let mut e = Expression::default();
                for s in next.iter().filter(|s| s.tau <= tau) {
                    e.add_mul(1.0, s.var);
                }
                for s in prev
                    .iter()
                    .filter(|s| s.tau + prob.jobs[j].options[s.opt].dur <= tau)
                {
                    e.add_mul(-1.0, s.var);
                }
                constraints.push(e.leq(0.0));
            }
        }
    }
    // Capacity per unit slot.
    let cap = f64::from(prob.procs);
    for tau in 0..h {
        let mut e = Expression::default();
        let mut worst: i64 = 0;
        for (j, per_job) in slots.iter().enumerate() {
            let mut job_worst = 0i64;
            for v in per_job {
                for s in v {
                    let o = prob.jobs[j].options[s.opt];
                    if s.tau <= tau && tau < s.tau + o.dur {
                        e.add_mul(f64::from(o.procs), s.var);
                        job_worst = job_worst.max(i64::from(o.procs));
                    }
                }
            }
            // At most one attempt of a job runs at a time.
            worst += job_worst;
        }
        if worst > i64::from(prob.procs) {
            constraints.push(e.leq(cap));
        }
    }
    // Makespan.
    for (j, per_job) in slots.iter().enumerate() {
        if let Some(last) = per_job.last() {
            let mut e = Expression::default();
            for s in last {
                e.add_mul((s.tau + prob.jobs[j].options[s.opt].dur) as f64, s.var);
            }
            e.add_mul(-1.0, c);
            constraints.push(e.leq(0.0));
        }
    }
    // Identical jobs: the lower index starts first.
    for j in 0..prob.jobs.len() {
        for k in j + 1..prob.jobs.len() {
            let (a, b) = (&prob.jobs[j], &prob.jobs[k]);
            if a.class == b.class && a.attempts == b.attempts {
                let mut e = Expression::default();
                for s in &slots[j][0] {
                    e.add_mul(s.tau as f64, s.var);
                }
                for s in &slots[k][0] {
                    e.add_mul(-(s.tau as f64), s.var);
                }
                constraints.push(e.leq(0.0));
                break;
            }
        }
    }
    let ncons = constraints.len();

    // Warm start: the greedy schedule.
    let mut initial: Vec<(Variable, f64)> = Vec::new();
    for a in &greedy.attempts {
        for s in &slots[a.job][a.attempt as usize - 1] {
            let o = prob.jobs[a.job].options[s.opt];
            let hit = s.tau == a.start && o.procs == a.procs;
            initial.push((s.var, if hit { 1.0 } else { 0.0 }));
        }
    }
    initial.push((c, h as f64));

    let secs = cfg.time_limit.as_secs_f64().max(0.01);
    let order: Vec<Variable> = slots.iter().flatten().flatten().map(|s| s.var).collect();
    let solved = run_backend(vars, c, &order, constraints, initial, secs);
    let (status, values) = match solved {
        Ok(v) => v,
        Err(e) if stopped_without_answer(&e) => return fallback(nvars, ncons),
        Err(e) => return Err(Error::Solver(format!("{} backend: {e}", backend()))),
    };
    let (objective, picks) = values;
    // Rebuild the schedule from the x values.
    // (picks is flat, in the order of the slots.)
    let mut attempts: Vec<IntAttempt> = Vec::new();
    let mut idx = 0usize;
    for per_job in &slots {
        for v in per_job {
            let mut chosen: Option<&Slot> = None;
            let mut best_val = 0.5f64;
            for s in v {
                let val = picks[idx];
                idx += 1;
                if val > best_val {
                    best_val = val;
                    chosen = Some(s);
                }
            }
            let Some(s) = chosen else {
                return Err(Error::Solver(format!(
                    "{} backend returned no start for an attempt",
                    backend()
                )));
            };
            let o = prob.jobs[s.job].options[s.opt];
            attempts.push(IntAttempt {
                job: s.job,
                attempt: s.attempt as u32 + 1,
                procs: o.procs,
                start: s.tau,
                dur: o.dur,
            });
        }
    }
    // default: the makespan of no attempt is 0
    let mk = attempts.iter().map(|a| a.start + a.dur).max().unwrap_or(0);
    let ilp_sched = IntSchedule {
        attempts,
        makespan: mk,
    };
    let (schedule, makespan) = match checked(inst, sc, prob, &ilp_sched) {
        Ok(x) => x,
        Err(e) => {
            return Err(Error::Solver(format!(
                "the {} solution does not check in exact time: {e}",
                backend()
            )))
        }
    };
    if makespan != prob.to_time(mk) {
        return Err(Error::Solver(
            "the ILP schedule's exact makespan differs from its integer model; this is a bug"
                .into(),
        ));
    }
    let rounds = (objective - mk as f64).abs() < 0.5;
    let optimal = matches!(status, SolutionStatus::Optimal) && rounds;
    let certificate = if mk <= root_lb {
        Some(Certificate::LowerBound)
    } else if optimal {
        Some(Certificate::Integrality)
    } else {
        None
    };
    let optimal = optimal || mk <= root_lb;
    // A non-optimal ILP answer may still be worse than the greedy incumbent only if the solver
    // misbehaved; keep the better one.
    if !optimal && greedy.makespan < mk {
        return fallback(nvars, ncons);
    }
    Ok(IlpOutcome {
        schedule,
        makespan,
        optimal,
        lower_bound: if optimal { mk } else { root_lb },
        certificate,
        vars: nvars,
        constraints: ncons,
    })
}

fn checked(
    inst: &Instance,
    sc: &Scenario,
    prob: &IntProblem,
    s: &IntSchedule,
) -> Result<(Schedule, Time)> {
    let schedule = to_schedule(inst, prob, s, "opt-ilp");
    let m = crate::check::check(inst, sc, &schedule)?;
    Ok((schedule, m))
}

/// (status, (objective, x values in slot order)).
type Solved = (SolutionStatus, (f64, Vec<f64>));

#[cfg(not(feature = "highs"))]
fn run_backend(
    vars: ProblemVariables,
    c: Variable,
    order: &[Variable],
    constraints: Vec<good_lp::Constraint>,
    initial: Vec<(Variable, f64)>,
    secs: f64,
) -> std::result::Result<Solved, ResolutionError> {
    use good_lp::solvers::{WithInitialSolution, WithTimeLimit};
    let mut model = vars
        .minimise(c)
        .using(good_lp::microlp)
        .with_time_limit(secs)
        .with_initial_solution(initial);
    for k in constraints {
        model.add_constraint(k);
    }
    let sol = model.solve()?;
    Ok((sol.status(), extract(&sol, order, c)))
}

#[cfg(feature = "highs")]
fn run_backend(
    vars: ProblemVariables,
    c: Variable,
    order: &[Variable],
    constraints: Vec<good_lp::Constraint>,
    initial: Vec<(Variable, f64)>,
    secs: f64,
) -> std::result::Result<Solved, ResolutionError> {
    use good_lp::solvers::WithInitialSolution;
    let mut model = vars
        .minimise(c)
        .using(good_lp::highs)
        .set_time_limit(secs)
        .set_threads(1)
        .set_option("mip_rel_gap", 0.0)
        .set_option("mip_abs_gap", 0.5)
        .with_initial_solution(initial);
    model.set_verbose(false);
    for k in constraints {
        model.add_constraint(k);
    }
    let sol = model.solve()?;
    Ok((sol.status(), extract(&sol, order, c)))
}

fn extract<S: Solution>(sol: &S, order: &[Variable], c: Variable) -> (f64, Vec<f64>) {
    let objective = sol.value(c);
    let xs = order.iter().map(|&v| sol.value(v)).collect();
    (objective, xs)
}

/// Whether the backend stopped on its limit before it had a schedule of its own: microlp says
/// "Time limit"; HiGHS (through good_lp) reports a stop without a primal solution as
/// `NoSolutionFound`. The greedy incumbent and the root bound then stand, as for any stop — not
/// a solver error.
fn stopped_without_answer(e: &ResolutionError) -> bool {
    matches!(e, ResolutionError::Other(msg) if msg.contains("Time limit") || *msg == "NoSolutionFound")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_without_a_schedule_is_not_a_solver_error() {
        assert!(stopped_without_answer(&ResolutionError::Other(
            "NoSolutionFound"
        )));
        assert!(stopped_without_answer(&ResolutionError::Other(
            "Time limit reached"
        )));
        for e in [
            ResolutionError::Infeasible,
            ResolutionError::Unbounded,
            ResolutionError::Other("SolveError"),
            ResolutionError::Str("HiGHS error while solving model".into()),
        ] {
            assert!(!stopped_without_answer(&e), "{e}");
        }
    }
}
