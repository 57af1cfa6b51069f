//! The exact methods on the integer model ([`super::problem`]): the incumbent, the zero-slack
//! decisions at the root ([`super::exact_fit`]), the search ([`super::search`]) and the ILP
//! ([`super::ilp`]), and the way back to exact time. This file is compiled twice, on 64-bit
//! integers (`crate::opt`, the fast path) and on 128-bit ones (`crate::opt::wide`, for times
//! whose common denominator is too large for the first): see [`crate::opt`].
use super::problem::{self, Int};
use super::{bounds, exact_fit, greedy, ilp, improve, lattice, packing, search};
use crate::error::{Error, Result};
use crate::model::{Attempt, Instance, Scenario, Schedule};
use crate::opt::{Certificate, Method, OptConfig, OptResult, OptStats, Status};
use crate::time::Time;
use std::time::Instant;

/// Turns an integer-model schedule back into an exact [`Schedule`].
pub fn to_schedule(
    inst: &Instance,
    prob: &problem::IntProblem,
    s: &greedy::IntSchedule,
    algo: &str,
) -> Schedule {
    let mut attempts: Vec<Attempt> = s
        .attempts
        .iter()
        .map(|a| Attempt {
            job: a.job,
            attempt: a.attempt,
            start: prob.to_time(a.start),
            procs: a.procs,
            // The exact input time, not the scaled integer: the checker compares them exactly.
            duration: inst.jobs[a.job]
                .time(a.procs)
                .cloned()
                // default: a rigid job's duration is its scaled time back in seconds
                .unwrap_or_else(|| prob.to_time(a.dur)),
            nodes: None,
        })
        .collect();
    attempts.sort_by(|x, y| x.start.cmp(&y.start).then(x.job.cmp(&y.job)));
    Schedule {
        attempts,
        makespan: None,
        algorithm: Some(algo.to_string()),
    }
    .with_makespan()
}

/// A schedule in exact time on the integer model: every start and duration times the scale
/// (integers when the schedule's durations are the instance's times: a semi-active schedule's
/// starts are sums of them); `None` when one is not, or an attempt uses a count off the
/// model's options.
fn scaled_schedule(prob: &problem::IntProblem, s: &Schedule) -> Option<greedy::IntSchedule> {
    let exact = |t: &Time| {
        let v = prob.ceil_scaled(t)?;
        (prob.to_time(v) == *t).then_some(v)
    };
    let mut attempts = Vec::with_capacity(s.attempts.len());
    for a in &s.attempts {
        let dur = exact(&a.duration)?;
        let job = prob.jobs.get(a.job)?;
        if !job
            .options
            .iter()
            .any(|o| o.procs == a.procs && o.dur == dur)
        {
            return None;
        }
        attempts.push(greedy::IntAttempt {
            job: a.job,
            attempt: a.attempt,
            procs: a.procs,
            start: exact(&a.start)?,
            dur,
        });
    }
    let makespan = attempts.iter().map(|a| a.start + a.dur).max()?;
    Some(greedy::IntSchedule { attempts, makespan })
}

/// The share of the time left after the root stages that the search keeps on a rigid instance
/// whose incumbent is within two steps of the bound, before the late bounded-slack questions
/// ([`exact_fit::at_root`] again) get the rest. A share of what is left, not of the limit: an
/// instance whose root stages take most of the limit still gives the search its part. On the
/// optimum bench's draws (10 s) the instances the search closes there close within that part
/// (its restarts at the bound take their share of the search's own time), and the late
/// questions that decide others need 2 to 6 s after it. A fifth leaves the late questions more
/// but loses instances the search's restarts close.
const SEARCH_SHARE: (u32, u32) = (1, 3);

/// What the search closure of [`solve`] answers: the checked schedule, its makespan, whether it
/// is proven optimal, the scaled proven bound, and the integer schedule behind it.
type SearchAnswer = (Schedule, Time, bool, Int, greedy::IntSchedule);

/// Checks a schedule built here; a failure is a bug of this module, reported as an error.
fn checked(
    inst: &Instance,
    sc: &Scenario,
    schedule: Schedule,
    what: &str,
) -> Result<(Schedule, Time)> {
    match crate::check::check(inst, sc, &schedule) {
        Ok(m) => Ok((schedule, m)),
        Err(v) => Err(Error::Solver(format!(
            "{what} produced an infeasible schedule ({v}); this is a bug"
        ))),
    }
}

/// [`crate::opt::solve`] on the integer model `prob` of `inst` under `sc` (built by
/// [`problem::build_or_too_fine`]): the incumbent, the zero-slack decisions at the root, then
/// the search, the ILP or both, as `cfg` says. `hint`, a checked schedule of the instance,
/// replaces the incumbent when it is shorter.
pub(crate) fn solve_scaled(
    inst: &Instance,
    sc: &Scenario,
    cfg: &OptConfig,
    prob: problem::IntProblem,
    started: Instant,
    hint: Option<&Schedule>,
) -> Result<OptResult> {
    let greedy_list = greedy::best(&prob);
    let energies = bounds::energies(&prob);
    let root_lb = bounds::root(&prob, &energies);
    let hulls = bounds::hulls(&prob, &energies);
    let root_lb = bounds::deadline_root(&prob, &energies, &hulls, root_lb, greedy_list.makespan);
    // The job energies (rigid instances), once per solve: the best raises the root bound here,
    // and the search evaluates it at every node; all of them bound the exact fill's nodes. Not
    // needed when the greedy schedule meets the bound.
    let job_energies = if greedy_list.makespan > root_lb {
        bounds::JobEnergy::ranked(&prob)
    } else {
        Vec::new()
    };
    let job_energy = job_energies.first().cloned();
    // The bound without the job energy: `Method::Both`'s ILP starts from it (below).
    let energy_lb = lattice::Lattice::round_bound(&prob, greedy_list.makespan, root_lb);
    let root_lb = job_energy
        .as_ref()
        .map_or(root_lb, |je| root_lb.max(je.root_bound(&prob)));
    let root_lb = lattice::Lattice::round_bound(&prob, greedy_list.makespan, root_lb);
    let mut stats = OptStats {
        scale: Some(prob.scale.into()),
        attempts: prob.total_attempts(),
        greedy: prob.to_time(greedy_list.makespan),
        root_lower_bound: prob.to_time(root_lb),
        ..OptStats::default()
    };
    let (mut greedy, mut local) = incumbent(&prob, greedy_list, root_lb, cfg, &mut stats);
    if let Some(h) = hint.and_then(|h| scaled_schedule(&prob, h)) {
        if h.makespan < greedy.makespan {
            greedy = h;
        }
    }
    // `energy_lb` is the bound before the job energy and the zero-slack stage: `Method::Both`'s
    // ILP starts from it, so that it checks their answers independently.
    // Zero-slack roots: an energy met exactly at the bound is a perfect-fill question, which
    // [`exact_fit`] decides where the search and the energy bounds cannot.
    let fit = exact_fit::at_root(
        &prob,
        exact_fit::Weights {
            per_width: &energies,
            per_job: &job_energies,
        },
        root_lb,
        greedy.makespan,
        exact_fit::Budget::ROOT,
        Some(started + cfg.time_limit),
        |x| lattice::Lattice::round_bound(&prob, greedy.makespan, x),
    );
    stats.fit_nodes = fit.nodes;
    let root_lb = fit.lower_bound;
    if let Some(s) = fit.schedule {
        greedy = s;
    }
    stats.root_lower_bound = prob.to_time(root_lb);
    // The root stages left a gap: the local search goes on along its own trajectory (its best
    // is the incumbent) before the tree search, which finds a shorter schedule far less often
    // than it proves a bound (a schedule meeting the root bound proves itself). Its moves
    // bound it, and a fifth of the limit as for the first run (on a slow or loaded machine,
    // so that the search keeps the time in which it proves its instances). Rigid instances
    // only: there the local search judges moves by the work after the target, which keeps
    // descending; on moldable ones, judged by the makespan, the `opt` bench's families gain
    // nothing from the second run.
    let rigid = prob.jobs.iter().all(|j| j.options.len() == 1);
    if let Some(ls) = local
        .as_mut()
        .filter(|ls| rigid && greedy.makespan > root_lb && ls.best().makespan == greedy.makespan)
    {
        ls.run(
            improve::Budget::continuation_moves(prob.total_attempts()),
            Some((Instant::now() + cfg.time_limit / 5).min(started + cfg.time_limit)),
            root_lb,
        );
        if ls.best().makespan < greedy.makespan {
            greedy = ls.best().clone();
        }
    }
    // Its buffers are not needed by the search.
    drop(local);
    stats.incumbent = prob.to_time(greedy.makespan);

    let run_search = |stats: &mut OptStats| -> Result<SearchAnswer> {
        // The time limit is the whole solve's: the root stages above already spent part of it.
        // When the late bounded-slack questions may be asked (a rigid instance whose
        // incumbent is within two steps of the bound), the search stops at its share of what
        // is left. Not under a node limit: its answers would then depend on the clock.
        let late = rigid
            && cfg.node_limit.is_none()
            && exact_fit::near_bound(root_lb, greedy.makespan, |x| {
                lattice::Lattice::round_bound(&prob, greedy.makespan, x)
            });
        let end = started + cfg.time_limit;
        let search_end = if late {
            let now = Instant::now();
            now + end.saturating_duration_since(now) / SEARCH_SHARE.1 * SEARCH_SHARE.0
        } else {
            end
        };
        let limits = search::Limits {
            deadline: Some(search_end),
            node_limit: cfg.node_limit,
            memo_limit: cfg.memo_limit,
            lower_bound: root_lb,
            job_energy: job_energy.clone(),
        };
        let out = if prob.jobs.len() > search::MAX_JOBS {
            // Beyond the search's per-job bit sets: the incumbent with the root bound (optimal
            // only when they meet, e.g. after a perfect packing).
            search::Outcome {
                optimal: greedy.makespan <= root_lb,
                lower_bound: root_lb.min(greedy.makespan),
                best: greedy.clone(),
                nodes: 0,
                memo_hits: 0,
                stopped: greedy.makespan > root_lb,
            }
        } else {
            search::solve_parallel(&prob, greedy.clone(), limits, cfg.threads)
        };
        let mut out = out;
        if late && !out.optimal && Instant::now() < started + cfg.time_limit {
            // The late stage: the bounded-slack questions at the search's bound, with the
            // time left (a schedule found meets the bound; infeasible raises it).
            let fit = exact_fit::at_root(
                &prob,
                exact_fit::Weights {
                    per_width: &energies,
                    per_job: &job_energies,
                },
                out.lower_bound,
                out.best.makespan,
                exact_fit::Budget::LATE,
                Some(started + cfg.time_limit),
                |x| lattice::Lattice::round_bound(&prob, out.best.makespan, x),
            );
            stats.fit_nodes += fit.nodes;
            if let Some(s) = fit.schedule {
                out.best = s;
            }
            out.lower_bound = out.lower_bound.max(fit.lower_bound);
            out.optimal = out.lower_bound >= out.best.makespan;
            out.stopped = !out.optimal;
        }
        stats.search_nodes = out.nodes;
        stats.memo_hits = out.memo_hits;
        let (schedule, m) = checked(
            inst,
            sc,
            to_schedule(inst, &prob, &out.best, "opt-search"),
            "the exact search",
        )?;
        if m != prob.to_time(out.best.makespan) {
            return Err(Error::Solver(format!(
                "the exact search's makespan {m} differs from its integer model; this is a bug"
            )));
        }
        Ok((schedule, m, out.optimal, out.lower_bound, out.best))
    };

    let result = match cfg.method {
        Method::Search => {
            let (schedule, makespan, optimal, lb, _) = run_search(&mut stats)?;
            let status = if optimal {
                Status::Optimal
            } else {
                Status::Feasible {
                    lower_bound: prob.to_time(lb),
                }
            };
            OptResult {
                schedule,
                makespan,
                status,
                stats,
            }
        }
        Method::Ilp => {
            let out = ilp::solve(inst, sc, &prob, &greedy, root_lb, &remaining(cfg, started))?;
            stats.ilp_vars = out.vars;
            stats.ilp_constraints = out.constraints;
            stats.certificate = out.certificate;
            let status = if out.optimal {
                Status::Optimal
            } else {
                Status::Feasible {
                    lower_bound: prob.to_time(out.lower_bound),
                }
            };
            OptResult {
                makespan: out.makespan,
                schedule: out.schedule,
                status,
                stats,
            }
        }
        Method::Both => {
            let (schedule, makespan, optimal, lb, best) = run_search(&mut stats)?;
            // The ILP's horizon and warm start: the best schedule known (the search's), a
            // smaller model than the incumbent's. Its bound: the root bound when the search
            // proved OPT (so that the ILP checks the optimum independently: it must still show
            // that nothing is below it, the zero-slack stage's answers included), else the
            // search's proven bound too.
            let ilp_lb = if optimal {
                energy_lb
            } else {
                energy_lb.max(lb)
            };
            let out = ilp::solve(inst, sc, &prob, &best, ilp_lb, cfg)?;
            stats.ilp_vars = out.vars;
            stats.ilp_constraints = out.constraints;
            if optimal && out.optimal && out.makespan != makespan {
                return Err(Error::Solver(format!(
                    "the exact search proves OPT = {makespan} but the ILP claims {}; please report this instance",
                    out.makespan
                )));
            }
            if optimal && out.makespan < makespan {
                return Err(Error::Solver(format!(
                    "the ILP found a checked schedule of makespan {} below the search's proven optimum {makespan}; this is a bug",
                    out.makespan
                )));
            }
            if out.optimal {
                stats.certificate = Some(if optimal {
                    Certificate::Search
                } else {
                    // default: an ILP answer without a certificate is proven by integrality (the solver's optimum)
                    out.certificate.unwrap_or(Certificate::Integrality)
                });
            }
            let best_lb = prob.to_time(lb).max(prob.to_time(out.lower_bound));
            let (schedule, makespan) = if out.makespan < makespan {
                (out.schedule, out.makespan)
            } else {
                (schedule, makespan)
            };
            let status = if optimal || out.optimal || best_lb >= makespan {
                Status::Optimal
            } else {
                Status::Feasible {
                    lower_bound: best_lb,
                }
            };
            OptResult {
                schedule,
                makespan,
                status,
                stats,
            }
        }
    };
    let mut result = result;
    result.stats.elapsed = started.elapsed();
    Ok(result)
}

/// `cfg` with the time limit cut to what is left of it since `started` (the root stages count
/// against it): the ILP's own clock starts when it is called.
fn remaining(cfg: &OptConfig, started: Instant) -> OptConfig {
    OptConfig {
        time_limit: cfg.time_limit.saturating_sub(started.elapsed()),
        ..cfg.clone()
    }
}

/// The incumbent both methods start from (see the module documentation): a packing that meets
/// the root bound when [`packing`] finds one, else the greedy schedule improved by [`improve`]
/// (its fixed move budget, and at most a fifth of the time limit, so that the exact methods keep
/// most of it). Never worse than `greedy`. With it, the local search when it ran, so that
/// [`solve_scaled`] can continue it after the root stages.
fn incumbent<'a>(
    prob: &'a problem::IntProblem,
    greedy: greedy::IntSchedule,
    root_lb: Int,
    cfg: &OptConfig,
    stats: &mut OptStats,
) -> (greedy::IntSchedule, Option<improve::LocalSearch<'a>>) {
    if greedy.makespan <= root_lb {
        return (greedy, None);
    }
    let packed = packing::pack_to(prob, root_lb, packing::DEFAULT_NODES);
    if let Some(p) = packed.as_ref().filter(|p| p.makespan <= root_lb) {
        stats.packed = true;
        return (p.clone(), None);
    }
    let budget = improve::Budget::for_attempts(
        prob.total_attempts(),
        Some(Instant::now() + cfg.time_limit / 5),
    );
    let Some(mut ls) = improve::LocalSearch::new(prob, &greedy, root_lb, budget.seed, budget.stall)
    else {
        return (greedy, None);
    };
    ls.run(budget.moves, budget.deadline, root_lb);
    // A packing that misses the bound may still beat the local search.
    match packed {
        Some(p) if p.makespan < ls.best().makespan => (p, Some(ls)),
        _ => (ls.best().clone(), Some(ls)),
    }
}
