//! The moldable paper's lemmas as checked ledger entries: Lemma 1 (list schedules of fixed
//! allocations), Lemma 2 (LPA's allocation against the optimal one), Lemma 3 (MT-ALLOTMENT's
//! (1+ε) guarantee) and Lemma 5 (BATCH-LIST's batch count).
use super::{eps_of, lprime, rng_for, FIXED_ALLOC, PRIOS};
use crate::moldable_cases::{random_model_case, run_moldable};
use crate::run::describe;
use crate::{Budget, Measurement, OptRef, Params, Report, Source};
use rand::RngExt;
use resched::bounds::moldable as mb;
use resched::error::{Error, Result};
use resched::model::speedup::ModelKind;
use resched::model::{Instance, Scenario, Schedule};
use resched::oracle;
use resched::schedulers::moldable as ms;
use resched::schedulers::Priority as MPriority;
use resched::time::Time;

/// Lemma 1's value for a schedule: A, t_max and p_min measured on the schedule itself over
/// [from, to) (p_min = the fewest busy processors on any interval of [from, to)).
pub fn lemma1_of(procs: u32, schedule: &Schedule, from: &Time, to: &Time) -> Time {
    let atts: Vec<_> = schedule
        .attempts
        .iter()
        .filter(|a| a.start >= *from && a.end() <= *to)
        .collect();
    let area: Time = atts
        .iter()
        .map(|a| a.duration.mul_int(u64::from(a.procs)))
        .sum();
    let mut chains: std::collections::BTreeMap<usize, Time> = std::collections::BTreeMap::new();
    for a in &atts {
        *chains.entry(a.job).or_default() += &a.duration;
    }
    // default: no attempt, no chain: t_max of an empty schedule is 0
    let tmax = chains.into_values().max().unwrap_or_default();
    let mut points: Vec<Time> = atts
        .iter()
        .flat_map(|a| [a.start.clone(), a.end()])
        .collect();
    points.push(from.clone());
    points.sort();
    points.dedup();
    let mut pmin = procs;
    for w in points.windows(2) {
        if w[1] > *to || w[0] < *from {
            continue;
        }
        let busy: u32 = atts
            .iter()
            .filter(|a| a.start <= w[0] && a.end() >= w[1])
            .map(|a| a.procs)
            .sum();
        pmin = pmin.min(busy);
    }
    mb::lemma1(&area, &tmax, pmin, procs)
}

pub(super) fn check_lemma1(_: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    let kinds = [
        ModelKind::Monotonic,
        ModelKind::Arbitrary,
        ModelKind::Communication,
        ModelKind::Amdahl,
        ModelKind::Mix,
    ];
    for i in 0..budget.random {
        let mut rng = rng_for(budget, "lemma1", i);
        let kind = kinds[(i % kinds.len() as u64) as usize];
        let (inst, sc) = random_model_case(&mut rng, kind, 12, 8, 3)?;
        for name in FIXED_ALLOC {
            for prio in PRIOS {
                let (mk, sch) = run_moldable(&inst, &sc, name, prio, None)?;
                let v = lemma1_of(inst.procs, &sch, &Time::zero(), &mk);
                let m = Measurement::upper(
                    format!("{name}/{}", prio),
                    mk,
                    OptRef::Lower(v),
                    Time::one(),
                )?;
                rep.tally(Source::Random)
                    .add(&m, || format!("case {i}: {}", describe(&inst, &sc)));
            }
        }
        // BATCH-LIST: Lemma 1 on each batch (the step Theorem 11's proof takes).
        let mut b = ms::batch::BatchList::new(&inst, MPriority::Lpt, ms::Eps::paper())?;
        let r = oracle::certify_scheduler(&mut b, "batch-list", &inst, &sc)?;
        for rec in b.batches() {
            // default: the last batch ends with the schedule (its end is recorded only when another batch starts)
            let end = rec.end.clone().unwrap_or_else(|| r.makespan.clone());
            let len = &end - &rec.start;
            if !len.is_positive() {
                continue;
            }
            let v = lemma1_of(inst.procs, &r.schedule, &rec.start, &end);
            let m = Measurement::upper(
                format!("batch-list batch {}", rec.index),
                len,
                OptRef::Lower(v),
                Time::one(),
            )?;
            rep.tally(Source::Random)
                .add(&m, || format!("case {i}: {}", describe(&inst, &sc)));
        }
    }
    Ok(rep)
}

/// α_j, β_j of allocation `p` for job `j` (local ratios to its minimum area and time).
pub(super) fn local(inst: &Instance, j: usize, p: u32) -> Result<(Time, Time)> {
    let (tmin, amin) =
        mb::min_time_area(inst, j).ok_or_else(|| Error::Limit("job without a time".into()))?;
    let job = &inst.jobs[j];
    let t = job
        .time(p)
        .ok_or_else(|| Error::Limit(format!("job {j} cannot use {p}")))?;
    Ok((
        run_ratio(&t.mul_int(u64::from(p)), &amin)?,
        run_ratio(t, &tmin)?,
    ))
}

pub(super) fn run_ratio(a: &Time, b: &Time) -> Result<Time> {
    crate::ratio(a, b)
}

/// Lemma 2's bound for LPA's allocation from local ratios: r(max_j α_j, max_j β_j).
pub fn lpa_lemma2_bound(inst: &Instance) -> Result<Time> {
    let alloc = ms::lpa::lpa(inst);
    let (mut a, mut b) = (Time::zero(), Time::zero());
    for (j, &p) in alloc.iter().enumerate() {
        let (x, y) = local(inst, j, p)?;
        a = a.max(x);
        b = b.max(y);
    }
    Ok(mb::r_alpha_beta(&a, &b, inst.procs))
}

pub(super) fn alloc_of(inst: &Instance, name: &str) -> Vec<u32> {
    match name {
        "mintime" => ms::lpa::mintime_alloc(inst),
        "minarea" => ms::lpa::minarea_alloc(inst),
        _ => ms::lpa::lpa(inst),
    }
}

/// Merges the moldable exhaustive scope's tally of `id` into `rep` when the budget asks for it.
pub(super) fn exhaustive_into(rep: &mut Report, id: &str, budget: &Budget) -> Result<()> {
    if budget.exhaustive {
        let ex = crate::exhaustive_moldable::moldable_cached(
            &crate::exhaustive_moldable::MoldableScope::DEFAULT,
            budget,
        )?;
        if let Some(t) = ex.by_entry.get(id) {
            rep.tally(Source::Exhaustive).merge(t.clone());
        }
    }
    Ok(())
}

pub(super) fn check_lemma2(_: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    exhaustive_into(&mut rep, "moldable.lemma2", budget)?;
    let kinds = [
        ModelKind::Monotonic,
        ModelKind::Arbitrary,
        ModelKind::Communication,
        ModelKind::Amdahl,
        ModelKind::Roofline,
    ];
    for i in 0..budget.random {
        let mut rng = rng_for(budget, "lemma2", i);
        let kind = kinds[(i % kinds.len() as u64) as usize];
        // Tiny: exact α, β against the optimal schedule's allocation.
        let (inst, sc) = random_model_case(&mut rng, kind, 4, 3, 1)?;
        let opt = opt_with_schedule(&inst, &sc, budget)?;
        if let Some((opt_v, opt_s)) = &opt {
            let star = mb::lower_bound(&inst, &sc, |j, a| {
                opt_s
                    .attempts
                    .iter()
                    .find(|x| x.job == j && x.attempt == a)
                    .map(|x| x.procs)
                    // unreachable: the schedule was made for this scenario, so attempt a of job j exists; 0 processors would fail the caller's check loudly
                    .unwrap_or(0)
            })?;
            for name in FIXED_ALLOC {
                let alloc = alloc_of(&inst, name);
                let mine = mb::lower_bound_fixed(&inst, &sc, &alloc)?;
                let alpha = run_ratio(&mine.area, &star.area)?;
                let beta = run_ratio(&mine.tmax, &star.tmax)?;
                let r = mb::r_alpha_beta(&alpha, &beta, inst.procs);
                for prio in PRIOS {
                    let (mk, _) = run_moldable(&inst, &sc, name, prio, None)?;
                    let m = Measurement::upper(
                        format!("{name}/{} (exact α,β)", prio),
                        mk,
                        OptRef::Exact(opt_v.clone()),
                        r.clone(),
                    )?;
                    rep.tally(Source::Random)
                        .add(&m, || format!("tiny case {i}: {}", describe(&inst, &sc)));
                }
            }
        }
        // Larger: LPA's local maxima against L'.
        let (inst, sc) = random_model_case(&mut rng, kind, 16, 8, 3)?;
        let r = lpa_lemma2_bound(&inst)?;
        let l = OptRef::Lower(lprime(&inst, &sc)?);
        for prio in PRIOS {
            let (mk, _) = run_moldable(&inst, &sc, "lpa-list", prio, None)?;
            let m = Measurement::upper(
                format!("lpa-list/{} (local α,β vs L')", prio),
                mk,
                l.clone(),
                r.clone(),
            )?;
            rep.tally(Source::Random)
                .add(&m, || format!("case {i}: {}", describe(&inst, &sc)));
        }
    }
    Ok(rep)
}

/// The exact optimum and its schedule, or `None` when the node budget does not prove it.
pub(super) fn opt_with_schedule(
    inst: &Instance,
    sc: &Scenario,
    budget: &Budget,
) -> Result<Option<(Time, Schedule)>> {
    let cfg = resched::opt::OptConfig {
        method: resched::opt::Method::Search,
        time_limit: std::time::Duration::from_secs(20),
        node_limit: Some(budget.opt_nodes),
        ..resched::opt::OptConfig::default()
    };
    let r = resched::opt::solve(inst, sc, &cfg)?;
    let m = resched::check::check(inst, sc, &r.schedule)?;
    Ok(r.is_optimal().then_some((m, r.schedule)))
}

pub(super) fn check_lemma3(p: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    let eps = eps_of(p)?;
    let bound = &Time::one() + &eps;
    for i in 0..budget.random {
        let mut rng = rng_for(budget, "lemma3", i);
        let kinds = [
            ModelKind::Monotonic,
            ModelKind::Arbitrary,
            ModelKind::Mix,
            ModelKind::Communication,
        ];
        let (inst, _) = random_model_case(&mut rng, kinds[(i % 4) as usize], 8, 4, 0)?;
        let chains: Vec<(usize, u32)> = (0..inst.len())
            .map(|j| (j, 1u32 << rng.random_range(0..=2u32)))
            .collect();
        let sc = Scenario::new(chains.iter().map(|c| c.1 - 1).collect());
        let Some((best, _)) = mb::lstar_exact(&inst, &sc, 20_000) else {
            continue;
        };
        let got = ms::mt_allotment::MtAllotment::new().allot(
            &inst,
            &chains,
            &ms::Eps::new(eps.clone())?,
        )?;
        let m = Measurement::upper(
            "mt-allotment",
            got.bound.lower.clone(),
            OptRef::Exact(best),
            bound.clone(),
        )?;
        rep.tally(Source::Random).add(&m, || {
            format!("batch {i}: chains {chains:?} on {}", describe(&inst, &sc))
        });
    }
    Ok(rep)
}

pub(super) fn check_lemma5(_: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    for i in 0..budget.random {
        let mut rng = rng_for(budget, "lemma5", i);
        let (inst, sc) = random_model_case(&mut rng, ModelKind::Monotonic, 8, 6, 9)?;
        let mut b = ms::batch::BatchList::new(&inst, MPriority::Lpt, ms::Eps::paper())?;
        oracle::certify_scheduler(&mut b, "batch-list", &inst, &sc)?;
        for (j, &f) in sc.failures.iter().enumerate() {
            let last = b
                .batches()
                .iter()
                .filter(|rec| rec.jobs.contains(&j))
                .map(|rec| rec.index)
                .max()
                // default: no batch recorded means batch index 0
                .unwrap_or(0);
            let want = mb::batches_needed(f);
            // f_{k,j} = g_k − 1 ≤ f_j in every batch the job runs in.
            let allowed_ok = b
                .batches()
                .iter()
                .filter(|rec| rec.jobs.contains(&j))
                .all(|rec| rec.attempts - 1 <= f);
            // Ratio 1 when both parts of Lemma 5 hold, else the batch count + 1 (> 1, a violation).
            let v = if last == want && allowed_ok {
                Time::one()
            } else {
                Time::from_int(i64::from(last) + 1)
            };
            let m = Measurement::upper(
                format!("batch-list job {j} (f={f}, {last} batches, Lemma 5: {want})"),
                v,
                OptRef::Exact(Time::one()),
                Time::one(),
            )?;
            rep.tally(Source::Random)
                .add(&m, || format!("case {i}: {}", describe(&inst, &sc)));
        }
    }
    Ok(rep)
}
