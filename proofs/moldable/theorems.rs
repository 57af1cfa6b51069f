//! The moldable paper's theorems with constructions: Theorem 1 (roofline), 8 (power), 9, 10
//! (the local allocation is √P away), 11 (BATCH-LIST's bound) and 12 (K batches).
use super::lemmas::{alloc_of, exhaustive_into, lpa_lemma2_bound, run_ratio};
use super::models::check_model;
use super::{eps_of, lprime, rng_for, FIXED_ALLOC, PRIOS};
use crate::moldable_cases::{random_model_case, run_moldable};
use crate::moldable_witness as mw;
use crate::run::{self, describe};
use crate::{Budget, Evidence, Measurement, OptRef, Params, Report, Source, Witness};
use resched::bounds::moldable as mb;
use resched::error::{Error, Result};
use resched::model::speedup::ModelKind;
use resched::model::{Instance, Job, Profile, Scenario, Schedule, SpeedupModel};
use resched::oracle::{self, AlgoSpec};
use resched::schedulers::moldable as ms;
use resched::schedulers::Priority as MPriority;
use resched::time::Time;

pub(super) fn check_thm1(p: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = check_model(ModelKind::Roofline, budget)?;
    let k = p.u32_in("K", 1..=32)?;
    let (w, s) = mw::thm1(k)?;
    let up = run::explicit(&w.instance, &w.scenario, &s)?;
    let opt = if k <= 3 {
        run::opt(
            &w.instance,
            &w.scenario,
            &Budget {
                opt_nodes: 2_000_000,
                ..budget.clone()
            },
        )?
    } else {
        OptRef::Between {
            lower: lprime(&w.instance, &w.scenario)?,
            upper: up.clone(),
        }
    };
    for prio in PRIOS {
        let (mk, _) = run_moldable(&w.instance, &w.scenario, "lpa-list", prio, None)?;
        let mut m = Measurement::upper(
            format!("lpa-list/{} K={k}", prio),
            mk.clone(),
            opt.clone(),
            Time::from_int(2),
        )?;
        // The proof: makespan exactly 2, and 2/(1 + 1/K) against the proof's OPT schedule.
        m.holds &= mk == Time::from_int(2);
        let how = run::opt_how(&opt, "the exact search's proof", "L'(J,f)");
        rep.witness.push(m.with_evidence(Evidence::new(
            &w.instance,
            &w.scenario,
            run::spec("lpa-list", prio),
            Some(&s),
            how,
        )));
    }
    rep.notes.push(format!(
        "witness: {}; ratio against the proof's schedule = 2 − 2/(K+1) = {}",
        w.claim,
        run_ratio(&Time::from_int(2), &up)?
    ));
    Ok(rep)
}

pub(super) fn thm8_witness(p: &Params) -> Result<Witness> {
    let procs = p.u32_in("P", 2..=10_000)?;
    if ![16u32, 81, 256, 625, 1296, 2401, 4096, 6561, 10000].contains(&procs) {
        return Err(Error::param(
            "params",
            format!("P={procs}: Theorem 8's witness needs a fourth power"),
        ));
    }
    let model = SpeedupModel::Power {
        w: Time::one(),
        // unreachable: the denominator is the literal 2
        delta: Time::new(1, 2).unwrap_or_default(),
    };
    let times = model
        .table(procs, "jobs[0].speedup")
        .map_err(|e| e.in_file("witness"))?;
    Ok(Witness {
        instance: Instance::new(
            procs,
            vec![Job {
                name: "J1".into(),
                profile: Profile::Moldable { model, times },
            }],
        )
        .map_err(|e| e.in_file("witness"))?,
        scenario: Scenario::none(1),
        claim: "one job, δ = 1/2: LPA allocates ≤ √P, so T ≥ w/P^(1/4) while OPT = w/√P".into(),
    })
}

pub(super) fn check_thm8(p: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = check_model(ModelKind::Power, budget)?;
    let w = thm8_witness(p)?;
    let fourth = (1..=10u32)
        .find(|r| r.pow(4) == w.instance.procs)
        // unreachable: the witness has P = r⁴ for some r ≤ 10
        .unwrap_or(1);
    // One job, no failure: OPT = min_p t(p) exactly.
    let job = &w.instance.jobs[0];
    let opt_v = job
        .allowed_procs()
        .filter_map(|q| job.time(q).cloned())
        .min()
        // unreachable: every moldable job has t(p) for p = 1..=P; a 0 would fail the claim, never pass it
        .unwrap_or_default();
    let fastest = job
        .allowed_procs()
        .find(|&q| job.time(q) == Some(&opt_v))
        .ok_or_else(|| Error::param("P", "no allocation reaches the least time"))?;
    let opt_s = Schedule {
        attempts: vec![crate::witness_support::att(
            0,
            1,
            Time::zero(),
            fastest,
            opt_v.clone(),
        )],
        makespan: None,
        algorithm: Some("the job alone on its fastest allocation".into()),
    }
    .with_makespan();
    for prio in PRIOS {
        let (mk, _) = run_moldable(&w.instance, &w.scenario, "lpa-list", prio, None)?;
        // The tightness claim: ratio ≥ P^(1/4), up to the model's rational rounding of p^δ
        // (relative error below 2^-20 here).
        let claim = &Time::from_int(i64::from(fourth))
            // unreachable: the denominator is the literal 2^20
            * &(&Time::one() - &Time::ratio_u64(1, 1 << 20).unwrap_or_default());
        let m = Measurement::lower(
            format!("lpa-list/{} P={}", prio, w.instance.procs),
            mk,
            OptRef::Exact(opt_v.clone()),
            claim,
        )?;
        rep.witness.push(m.with_evidence(Evidence::new(
            &w.instance,
            &w.scenario,
            run::spec("lpa-list", prio),
            Some(&opt_s),
            "one job without failure: OPT = min_p t(p), the job alone on its fastest allocation",
        )));
    }
    rep.notes.push(format!("witness: {}", w.claim));
    Ok(rep)
}

pub(super) fn check_thm9(_: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    for i in 0..budget.random {
        let mut rng = rng_for(budget, "thm9", i);
        let (inst, sc) = random_model_case(&mut rng, ModelKind::Monotonic, 32, 10, 3)?;
        let r = lpa_lemma2_bound(&inst)?;
        let l = OptRef::Lower(lprime(&inst, &sc)?);
        for prio in PRIOS {
            let (mk, _) = run_moldable(&inst, &sc, "lpa-list", prio, None)?;
            let m = Measurement::upper(format!("lpa-list/{}", prio), mk, l.clone(), r.clone())?;
            rep.tally(Source::Random)
                .add(&m, || format!("case {i} (vs L'): {}", describe(&inst, &sc)));
        }
    }
    Ok(rep)
}

pub(super) fn check_thm10(p: &Params, _budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    let chosen = p.u32_in("s", 2..=8)?;
    for s in 2..=chosen.max(4) {
        let table = mw::thm10_table(s)?;
        let job = Job {
            name: "J".into(),
            profile: Profile::Moldable {
                model: SpeedupModel::Table {
                    times: table.clone(),
                    monotonic: true,
                },
                times: table,
            },
        };
        let probe = Instance::new(s * s, vec![job.clone()]).map_err(|e| e.in_file("witness"))?;
        for name in FIXED_ALLOC {
            let alloc = alloc_of(&probe, name)[0];
            let (w, opt_s) = mw::thm10(s, alloc)?;
            let opt_v = run::explicit(&w.instance, &w.scenario, &opt_s)?;
            let lp = lprime(&w.instance, &w.scenario)?;
            let opt = if lp == opt_v {
                OptRef::Exact(opt_v)
            } else {
                OptRef::Between {
                    lower: lp,
                    upper: opt_v,
                }
            };
            // unreachable: the divisor is the literal 2
            let bound = Time::ratio_u64(u64::from(s), 2).unwrap_or_default();
            for prio in PRIOS {
                let (mk, _) = run_moldable(&w.instance, &w.scenario, name, prio, None)?;
                let m = Measurement::lower(
                    format!("{name}/{} √P={s} (alloc {alloc})", prio),
                    mk,
                    opt.clone(),
                    bound.clone(),
                )?;
                if s == chosen {
                    let how = run::opt_how(
                        &opt,
                        "OPT = L'(J,f), met by the proof's schedule",
                        "L'(J,f)",
                    );
                    rep.witness.push(m.with_evidence(Evidence::new(
                        &w.instance,
                        &w.scenario,
                        run::spec(name, prio),
                        Some(&opt_s),
                        how,
                    )));
                } else {
                    rep.tally(Source::Witness)
                        .add(&m, || format!("Theorem 10 witness, √P = {s}"));
                }
            }
        }
    }
    Ok(rep)
}

pub(super) fn check_thm11(p: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    exhaustive_into(&mut rep, "moldable.thm11", budget)?;
    let eps = eps_of(p)?;
    let kinds = [
        ModelKind::Monotonic,
        ModelKind::Arbitrary,
        ModelKind::Mix,
        ModelKind::Amdahl,
    ];
    for i in 0..budget.random {
        let mut rng = rng_for(budget, "thm11", i);
        let (inst, sc) = random_model_case(&mut rng, kinds[(i % 4) as usize], 8, 4, 6)?;
        // default: no job, no failure (f_max of an empty scenario is 0)
        let fmax = sc.failures.iter().copied().max().unwrap_or(0);
        let bound = mb::batch_bound(&eps, fmax);
        let reference = match mb::lstar_exact(&inst, &sc, 20_000) {
            Some((l, _)) => l,
            None => lprime(&inst, &sc)?,
        };
        for prio in PRIOS {
            let (mk, _) = run_moldable(&inst, &sc, "batch-list", prio, Some(&eps))?;
            let m = Measurement::upper(
                format!("batch-list/{}", prio),
                mk,
                OptRef::Lower(reference.clone()),
                bound.clone(),
            )?;
            rep.tally(Source::Random)
                .add(&m, || format!("case {i} (vs L*): {}", describe(&inst, &sc)));
        }
    }
    let (w, s) = mw::thm12(6)?;
    let o = run::explicit(&w.instance, &w.scenario, &s)?;
    // default: no job, no failure (f_max of an empty scenario is 0)
    let fmax = w.scenario.failures.iter().copied().max().unwrap_or(0);
    let (mk, _) = run_moldable(
        &w.instance,
        &w.scenario,
        "batch-list",
        MPriority::Lpt,
        Some(&eps),
    )?;
    rep.witness.push(
        Measurement::upper(
            "batch-list/LPT on Theorem 12's K = 6",
            mk,
            OptRef::Exact(o),
            mb::batch_bound(&eps, fmax),
        )?
        .with_evidence(Evidence::new(
            &w.instance,
            &w.scenario,
            AlgoSpec {
                eps: Some(eps.clone()),
                ..run::spec("batch-list", MPriority::Lpt)
            },
            Some(&s),
            "OPT as Theorem 12's proof states it: its schedule, checked",
        )),
    );
    Ok(rep)
}

pub(super) fn check_thm12(p: &Params, _budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    let chosen = p.u32_in("K", 2..=12)?;
    for k in 2..=chosen.max(8) {
        let (w, s) = mw::thm12(k)?;
        let o = run::explicit(&w.instance, &w.scenario, &s)?;
        let l = lprime(&w.instance, &w.scenario)?;
        let opt = if o == l {
            OptRef::Exact(o)
        } else {
            OptRef::Between { lower: l, upper: o }
        };
        // unreachable: the divisor is the literal 2
        let bound = Time::ratio_u64(u64::from(k), 2).unwrap_or_default();
        for prio in PRIOS {
            let mut b = ms::batch::BatchList::new(&w.instance, prio, ms::Eps::paper())?;
            let mk =
                oracle::certify_scheduler(&mut b, "batch-list", &w.instance, &w.scenario)?.makespan;
            let mut m = Measurement::lower(
                format!("batch-list/{} K={k}", prio),
                mk,
                opt.clone(),
                bound.clone(),
            )?;
            // The proof: exactly K batches.
            m.holds &= b.batches().len() == k as usize;
            if k == chosen {
                let how = run::opt_how(
                    &opt,
                    "OPT = L'(J,f), met by the proof's schedule",
                    "L'(J,f)",
                );
                rep.witness.push(m.with_evidence(Evidence::new(
                    &w.instance,
                    &w.scenario,
                    run::spec("batch-list", prio),
                    Some(&s),
                    how,
                )));
            } else {
                rep.tally(Source::Witness)
                    .add(&m, || format!("Theorem 12 witness, K = {k}"));
            }
        }
    }
    Ok(rep)
}
