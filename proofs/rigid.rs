//! Ledger entries of the rigid paper (Section 4): Propositions 1 and 2 (approximation ratios of
//! R-LIST), 3 and 4 (lower bounds for shelf-based heuristics).
//!
//! Upper bounds are checked against L(f) (which the proofs bound the makespan by, so the check
//! is stronger than the statement) on random cases of the property tests' scope, against the
//! exact OPT on tiny random cases, on the exhaustive scope ([`super::exhaustive`]) and on the
//! worst cases the adversarial search ([`super::adversary`]) finds. Lower bounds rebuild the
//! proof's instance ([`super::rigid_witness`]) and certify OPT with an explicit checked schedule.
use super::rigid_witness;
use super::run::{self, describe, label, spec};
use super::{
    Budget, Entry, Evidence, Kind, Measurement, OptRef, Paper, Param, Params, Report, Source,
    Witness,
};
use resched::bounds;
use resched::error::Result;
use resched::model::arbitrary::Scope;
use resched::oracle::AlgoSpec;
use resched::schedulers::Priority;
use resched::time::Time;

/// The four entries.
pub static ENTRIES: [Entry; 4] = [
    Entry {
        id: "rigid.prop1",
        paper: Paper::Rigid,
        section: "Section 4.2.1, Proposition 1, Eq. (9)",
        kind: Kind::Upper,
        statement: "RESERVATION (R-LIST with m ≥ 1 reservations) with the LJF priority rule has makespan at most \
                    (3 − 4/(P+1))·T_OPT(f) for any rigid jobs and any failure scenario f. The proof bounds it by \
                    (3 − 4/(P+1))·L(f), which is what is checked.",
        bound_text: "3 − 4/(P+1)",
        params: &[Param { name: "P", default: "4", doc: "processors of the witness (2..=12)" }],
        bound: |inst, _| Ok(bounds::reservation_ratio(inst.procs)),
        witness: Some(|p| Ok(rigid_witness::graham(p.u32_in("P", 2..=12)?)?.0)),
        check: check_prop1,
    },
    Entry {
        id: "rigid.prop2",
        paper: Paper::Rigid,
        section: "Section 4.2.2, Proposition 2, Eq. (10)",
        kind: Kind::Upper,
        statement: "GREEDY (R-LIST with m = 0) with any priority rule has makespan at most (2 − 1/P)·T_OPT(f) \
                    for any rigid jobs and any failure scenario f. The proof bounds it by (2 − 1/P)·L(f), which \
                    is what is checked. Witness (not from the paper: the classical list-scheduling instance of \
                    its references [44, 18, 17], with one failing job): P(P−1) unit jobs then a unit job failing \
                    P−1 times; GREEDY = 2P−1, OPT = P, so the bound is attained exactly.",
        bound_text: "2 − 1/P",
        params: &[Param { name: "P", default: "4", doc: "processors of the witness (2..=12)" }],
        bound: |inst, _| Ok(bounds::greedy_ratio(inst.procs)),
        witness: Some(|p| Ok(rigid_witness::graham(p.u32_in("P", 2..=12)?)?.0)),
        check: check_prop2,
    },
    Entry {
        id: "rigid.prop3",
        paper: Paper::Rigid,
        section: "Section 4.4, Proposition 3",
        kind: Kind::Lower,
        statement: "Some instance and failure scenario make every shelf-based algorithm, whatever its priority, \
                    Ω(ln P) from the optimum. Witness: P unit-processor jobs, t_j = 1/j, f_j = j − 1; R-SHELF's \
                    makespan is H_P = 1 + 1/2 + … + 1/P and OPT = 1. (R-SHELFFILL re-executes inside a shelf and \
                    escapes this witness: it finishes in 1.)",
        bound_text: "H_P (ratio of the witness)",
        params: &[Param { name: "P", default: "10", doc: "processors = jobs (1..=64)" }],
        bound: |inst, _| Ok(bounds::harmonic(inst.procs)),
        witness: Some(|p| Ok(rigid_witness::prop3(p.u32_in("P", 1..=64)?)?.0)),
        check: check_prop3,
    },
    Entry {
        id: "rigid.prop4",
        paper: Paper::Rigid,
        section: "Section 4.4, Proposition 4",
        kind: Kind::Lower,
        statement: "Some instance and failure scenario make R-SHELFFILL with LPT Ω(P) from the optimum. Witness: \
                    P sets; set i has one job of time 1/P^(i−1) failing P^(i−1) − 1 times and (P−1)·P^(i−1) jobs \
                    of time (1+ε)/P^i; R-SHELFFILL/LPT takes exactly P, OPT ≤ 1 + (P−1)(1+ε)/P < 2, so the \
                    ratio exceeds P/2.",
        bound_text: "P/2",
        params: &[
            Param { name: "P", default: "4", doc: "processors = sets (2..=6; P^P jobs)" },
            Param { name: "eps", default: "1/100", doc: "ε in (0, 1)" },
        ],
        // unreachable: the divisor is the literal 2
        bound: |inst, _| Ok(Time::ratio_u64(u64::from(inst.procs), 2).unwrap_or_default()),
        witness: Some(|p| Ok(prop4_from(p)?.0)),
        check: check_prop4,
    },
];

fn prop4_from(p: &Params) -> Result<(Witness, resched::model::Schedule)> {
    let eps = p.time_open("eps", &Time::zero(), &Time::one())?;
    rigid_witness::prop4(p.u32_in("P", 2..=6)?, &eps)
}

/// The algorithms Proposition 1 is about: R-LIST with m ∈ {1, 2, |Q|} and LJF.
pub fn prop1_algos() -> Vec<AlgoSpec> {
    ["easy", "r-list:2", "conservative"]
        .iter()
        .map(|n| spec(n, Priority::Ljf))
        .collect()
}

/// The algorithms Proposition 2 is about: GREEDY with every priority rule (RANDOM seeded).
pub fn prop2_algos() -> Vec<AlgoSpec> {
    Priority::ALL.iter().map(|&p| spec("greedy", p)).collect()
}

/// Checks an upper-bound statement on `algos` with ratio `bound(P)`: the witness (if any),
/// random cases (against L, `Scope::LARGE`; against OPT, `Scope::TINY`), the exhaustive scope and
/// the adversarial search. Shared by Propositions 1 and 2.
fn check_upper(
    id: &str,
    algos: &[AlgoSpec],
    bound: fn(u32) -> Time,
    witness: Option<(Witness, resched::model::Schedule)>,
    budget: &Budget,
) -> Result<Report> {
    let mut rep = Report::default();
    if let Some((w, opt_schedule)) = witness {
        let lower = run::rigid_lower(&w.instance, &w.scenario)?;
        let upper = run::explicit(&w.instance, &w.scenario, &opt_schedule)?;
        let opt = if lower == upper {
            OptRef::Exact(lower)
        } else {
            OptRef::Between { lower, upper }
        };
        let how = opt_how(&opt);
        for a in algos {
            let m = run::algo(&w.instance, &w.scenario, a)?;
            rep.witness.push(
                Measurement::upper(label(a), m, opt.clone(), bound(w.instance.procs))?
                    .with_evidence(Evidence::new(
                        &w.instance,
                        &w.scenario,
                        a.clone(),
                        Some(&opt_schedule),
                        how,
                    )),
            );
        }
        rep.notes.push(format!("witness: {}", w.claim));
    }
    for i in 0..budget.random {
        let large = run::random_case(budget.seed, i, Scope::LARGE)?;
        let (inst, sc) = (&large.instance, &large.scenario);
        let l = OptRef::Lower(run::rigid_lower(inst, sc)?);
        for a in algos {
            let m = Measurement::upper(
                label(a),
                run::algo(inst, sc, a)?,
                l.clone(),
                bound(inst.procs),
            )?;
            if nontrivial(inst, &m) {
                rep.tally(Source::Random).add(&m, || {
                    format!(
                        "seed {} case {i} (vs L): {}",
                        budget.seed,
                        describe(inst, sc)
                    )
                });
            }
        }
        let tiny = run::random_case(budget.seed, i, Scope::TINY)?;
        let (inst, sc) = (&tiny.instance, &tiny.scenario);
        let opt = run::opt(inst, sc, budget)?;
        for a in algos {
            let m = Measurement::upper(
                label(a),
                run::algo(inst, sc, a)?,
                opt.clone(),
                bound(inst.procs),
            )?;
            if nontrivial(inst, &m) {
                rep.tally(Source::Random).add(&m, || {
                    format!(
                        "seed {} tiny case {i} (vs OPT): {}",
                        budget.seed,
                        describe(inst, sc)
                    )
                });
            }
        }
    }
    if budget.exhaustive {
        let ex = super::exhaustive::rigid_cached(&super::exhaustive::RigidScope::DEFAULT, budget)?;
        if let Some(t) = ex.by_entry.get(id) {
            rep.tally(Source::Exhaustive).merge(t.clone());
        }
    }
    if budget.adversarial > 0 {
        for a in algos.iter().take(3) {
            let found = super::adversary::search_rigid(a, budget)?;
            let m = Measurement::upper(
                label(a),
                found.makespan.clone(),
                found.opt.clone(),
                bound(found.instance.procs),
            )?;
            let d = describe(&found.instance, &found.scenario);
            rep.tally(Source::Adversarial).add(&m, || d);
        }
    }
    Ok(rep)
}

/// How a witness's OPT is known when U is the proof's schedule and the lower end is L(f).
fn opt_how(opt: &OptRef) -> &'static str {
    match opt {
        OptRef::Between { lower, upper } if lower != upper => {
            "L(f) ≤ OPT ≤ U, U the makespan of the proof's schedule (checked)"
        }
        _ => "OPT = L(f), met by the proof's schedule (checked)",
    }
}

/// At P = 1 every schedule without idle time is optimal and both ratios equal 1, so such cases
/// would pin the gap at 0; they still count when they break the bound.
fn nontrivial(inst: &resched::model::Instance, m: &Measurement) -> bool {
    inst.procs > 1 || !m.holds
}

fn check_prop1(p: &Params, budget: &Budget) -> Result<Report> {
    let w = rigid_witness::graham(p.u32_in("P", 2..=12)?)?;
    check_upper(
        "rigid.prop1",
        &prop1_algos(),
        bounds::reservation_ratio,
        Some(w),
        budget,
    )
}

fn check_prop2(p: &Params, budget: &Budget) -> Result<Report> {
    let w = rigid_witness::graham(p.u32_in("P", 2..=12)?)?;
    let algos: Vec<AlgoSpec> = prop2_algos();
    let mut rep = check_upper("rigid.prop2", &algos, bounds::greedy_ratio, Some(w), budget)?;
    // The witness's claim: every non-random rule gives exactly 2P − 1 (ratio = the bound).
    for m in rep
        .witness
        .iter_mut()
        .filter(|m| !m.algo.ends_with("/RANDOM"))
    {
        if !m.slack.is_zero() {
            m.holds = false;
        }
    }
    Ok(rep)
}

/// Proposition 3: R-SHELF (both b) with every priority makes exactly H_P on the witness.
fn check_prop3(p: &Params, budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    let chosen = p.u32_in("P", 1..=64)?;
    let mut sizes: Vec<u32> = (1..=10).collect();
    if !sizes.contains(&chosen) {
        sizes.push(chosen);
    }
    for procs in sizes {
        let (w, opt_s) = rigid_witness::prop3(procs)?;
        let opt = OptRef::Between {
            lower: run::rigid_lower(&w.instance, &w.scenario)?,
            upper: run::explicit(&w.instance, &w.scenario, &opt_s)?,
        };
        let h = bounds::harmonic(procs);
        for name in ["r-shelf-b", "r-shelf-nb"] {
            for pr in Priority::ALL {
                let a = AlgoSpec {
                    seed: budget.seed,
                    ..spec(name, pr)
                };
                let mk = run::algo(&w.instance, &w.scenario, &a)?;
                let mut m = Measurement::lower(
                    format!("{} P={procs}", label(&a)),
                    mk.clone(),
                    opt.clone(),
                    h.clone(),
                )?;
                // The proof: R-SHELF has no freedom here, its makespan is exactly H_P.
                m.holds &= mk == h;
                if procs == chosen {
                    let how = opt_how(&m.opt);
                    rep.witness.push(m.with_evidence(Evidence::new(
                        &w.instance,
                        &w.scenario,
                        a.clone(),
                        Some(&opt_s),
                        how,
                    )));
                } else {
                    rep.tally(Source::Witness)
                        .add(&m, || format!("Proposition 3 witness, P = {procs}"));
                }
            }
        }
        if procs == chosen {
            let mk = run::algo(
                &w.instance,
                &w.scenario,
                &spec("r-shelffill-b", Priority::Lpt),
            )?;
            rep.notes.push(format!(
                "R-SHELFFILL-B/LPT on the same witness: makespan {mk} (re-executions fit in the first shelf)"
            ));
        }
    }
    rep.notes.push("OPT = 1: L(f) = 1 and the proof's schedule (job j alone on processor j) passes the checker".into());
    Ok(rep)
}

/// Proposition 4: R-SHELFFILL (both b) with LPT makes exactly P on the witness.
fn check_prop4(p: &Params, _budget: &Budget) -> Result<Report> {
    let mut rep = Report::default();
    let (w, opt_s) = prop4_from(p)?;
    let procs = w.instance.procs;
    let mut runs = vec![(w, opt_s, true)];
    for other in 2..=4 {
        if other != procs {
            let eps = p.time_open("eps", &Time::zero(), &Time::one())?;
            let (w, s) = rigid_witness::prop4(other, &eps)?;
            runs.push((w, s, false));
        }
    }
    for (w, opt_s, main) in runs {
        let procs = w.instance.procs;
        let opt = OptRef::Between {
            lower: run::rigid_lower(&w.instance, &w.scenario)?,
            upper: run::explicit(&w.instance, &w.scenario, &opt_s)?,
        };
        let bound = (ENTRIES[3].bound)(&w.instance, p)?;
        for name in ["r-shelffill-b", "r-shelffill-nb"] {
            let a = spec(name, Priority::Lpt);
            let mk = run::algo(&w.instance, &w.scenario, &a)?;
            let mut m = Measurement::lower(
                format!("{} P={procs}", label(&a)),
                mk.clone(),
                opt.clone(),
                bound.clone(),
            )?;
            m.holds &= mk == Time::from_int(i64::from(procs));
            if main {
                let how = opt_how(&m.opt);
                rep.witness.push(m.with_evidence(Evidence::new(
                    &w.instance,
                    &w.scenario,
                    a.clone(),
                    Some(&opt_s),
                    how,
                )));
            } else {
                rep.tally(Source::Witness)
                    .add(&m, || format!("Proposition 4 witness, P = {procs}"));
            }
        }
    }
    Ok(rep)
}
