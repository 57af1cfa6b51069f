//! The time-indexed model of [`super`] built and solved through `good_lp` (the `ilp` feature).
use super::{var_count, Backend, IlpOutcome};
use crate::error::{Error, Result};
use crate::model::{Instance, Scenario, Schedule};
use crate::opt::greedy::{IntAttempt, IntSchedule};
use crate::opt::problem::{Int, IntProblem};
use crate::opt::{to_schedule, Certificate, OptConfig};
use crate::time::Time;
use good_lp::{
    variable, Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel,
    Variable,
};

struct Slot {
    job: usize,
    attempt: usize,
    opt: usize,
    tau: Int,
    var: Variable,
}

/// Builds and solves the time-indexed model.
pub fn solve(
    inst: &Instance,
    sc: &Scenario,
    prob: &IntProblem,
    greedy: &IntSchedule,
    root_lb: Int,
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
    let backend = cfg.backend;
    if !Backend::compiled().contains(&backend) {
        return Err(Error::Solver(format!(
            "the {backend} backend is not compiled in (build resched with the `{backend}` feature)"
        )));
    }
    if count > cfg.max_vars() as u64 {
        return Err(Error::Limit(format!(
            "method ilp: the time-indexed model needs {count} binary variables (horizon {h} units after scaling \
             times by {}), above the limit `ilp_max_vars` = {} for the {} backend; use `method` search",
            prob.scale,
            cfg.max_vars(),
            backend
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
        let k = Int::from(job.attempts);
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
        let mut worst: Int = 0;
        for (j, per_job) in slots.iter().enumerate() {
            let mut job_worst: Int = 0;
            for v in per_job {
                for s in v {
                    let o = prob.jobs[j].options[s.opt];
                    if s.tau <= tau && tau < s.tau + o.dur {
                        e.add_mul(f64::from(o.procs), s.var);
                        job_worst = job_worst.max(Int::from(o.procs));
                    }
                }
            }
            // At most one attempt of a job runs at a time.
            worst += job_worst;
        }
        if worst > Int::from(prob.procs) {
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
    let solved = match backend {
        Backend::Microlp => run_microlp(vars, c, &order, constraints, initial, secs),
        Backend::Highs => run_highs(vars, c, &order, constraints, initial, secs),
    };
    let (status, values) = match solved {
        Ok(v) => v,
        Err(e) if stopped_without_answer(&e) => return fallback(nvars, ncons),
        Err(e) => return Err(Error::Solver(format!("{backend} backend: {e}"))),
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
                    backend
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
                backend
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

fn run_microlp(
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
fn run_highs(
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

/// Never reached: [`solve`] refuses a backend that is not compiled in.
#[cfg(not(feature = "highs"))]
fn run_highs(
    _vars: ProblemVariables,
    _c: Variable,
    _order: &[Variable],
    _constraints: Vec<good_lp::Constraint>,
    _initial: Vec<(Variable, f64)>,
    _secs: f64,
) -> std::result::Result<Solved, ResolutionError> {
    Err(ResolutionError::Str(
        "the highs backend is not compiled in".into(),
    ))
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
