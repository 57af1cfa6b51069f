//! The one certify path: catalogue → engine → checker → bound → ratio.
//!
//! [`certify`] builds an algorithm from its [`AlgoSpec`], runs it through the semi-online engine
//! ([`crate::engine`]), passes the schedule to the independent checker ([`crate::check`]), and
//! divides the checked makespan exactly by the instance's lower bound: L(f) of the rigid paper
//! (Section 3.3, Eqs. 5–6) for rigid instances, L'(J, f) of the moldable paper (Section 5.1)
//! otherwise. The engine's makespan must equal the checker's; when they differ, or the checker
//! rejects the engine's schedule, the run fails with the one error [`Error::Disagree`] — a bug in
//! a scheduler or in the engine, never a result.
//!
//! [`Prepared`] keeps one built scheduler for many scenarios of the same instance (campaigns
//! run thousands): [`Prepared::certify`] is the full path, [`Prepared::makespan`] the engine alone
//! for scenarios whose schedule is not kept (the campaigns certify their first scenario of every
//! cell and run the others unrecorded).
use super::catalogue::{self, Params, Resolved};
use crate::bounds;
use crate::check;
use crate::engine::{self, Scheduler};
use crate::error::{Error, Result};
use crate::model::{Instance, Scenario, Schedule};
use crate::schedulers::priority::Priority;
use crate::time::Time;
use serde::Serialize;

/// What to run: a catalogue name and its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlgoSpec {
    /// Algorithm name (canonical, alias or `r-list:<m>`), resolved by [`catalogue::parse`].
    pub name: String,
    /// Priority rule; `None` is LPT.
    pub priority: Option<Priority>,
    /// Seed of RANDOM.
    pub seed: u64,
    /// BATCH-LIST's ε; `None` is 3/10; an error for algorithms that take none.
    pub eps: Option<Time>,
}

impl AlgoSpec {
    /// A spec with the default priority (LPT), seed 0 and no ε.
    pub fn new(name: impl Into<String>) -> AlgoSpec {
        AlgoSpec {
            name: name.into(),
            priority: None,
            seed: 0,
            eps: None,
        }
    }

    /// The same spec with a priority rule.
    pub fn with_priority(mut self, p: Priority) -> AlgoSpec {
        self.priority = Some(p);
        self
    }

    /// The same spec with an ε.
    pub fn with_eps(mut self, eps: Time) -> AlgoSpec {
        self.eps = Some(eps);
        self
    }

    /// The catalogue entry and typed algorithm of the name, with the parameters validated.
    pub fn resolve(&self) -> Result<Resolved> {
        let r = catalogue::parse(&self.name)?;
        r.validate(&self.params())?;
        Ok(r)
    }

    /// `name/PRIORITY` (e.g. `greedy/LPT`), as tables and messages print a spec.
    pub fn label(&self) -> String {
        // default: LPT is the documented default priority
        format!("{}/{}", self.name, self.priority.unwrap_or(Priority::Lpt))
    }

    fn params(&self) -> Params {
        Params {
            priority: self.priority,
            seed: self.seed,
            eps: self.eps.clone(),
        }
    }
}

/// Builds the scheduler a spec names, for `inst` (validating the name, the parameters, and
/// that the algorithm accepts the instance's jobs).
pub fn build(spec: &AlgoSpec, inst: &Instance) -> Result<Box<dyn Scheduler>> {
    let r = spec.resolve()?;
    r.algo.build(inst, &spec.params())
}

/// Which lower bound the ratio is taken against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundKind {
    /// L(f) = max(t_max(f), A(f)/P), rigid paper Eqs. (5)–(6).
    Rigid,
    /// L'(J, f), moldable paper Section 5.1 (each job at its least time and least area).
    Moldable,
}

/// A lower bound on T_OPT(f) and its two parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bound {
    pub kind: BoundKind,
    pub tmax: Time,
    pub area: Time,
    pub lower: Time,
}

impl Bound {
    /// L(f) for rigid instances, L'(J, f) otherwise.
    pub fn of(inst: &Instance, sc: &Scenario) -> Result<Bound> {
        if let Some(b) = bounds::rigid(inst, sc) {
            return Ok(Bound {
                kind: BoundKind::Rigid,
                tmax: b.tmax,
                area: b.area,
                lower: b.lower,
            });
        }
        let b = bounds::moldable::lprime(inst, sc)?;
        Ok(Bound {
            kind: BoundKind::Moldable,
            tmax: b.tmax,
            area: b.area,
            lower: b.lower,
        })
    }

    /// `L(f)` or `L'(J,f)`, as printed.
    pub fn symbol(&self) -> &'static str {
        match self.kind {
            BoundKind::Rigid => "L(f)",
            BoundKind::Moldable => "L'(J,f)",
        }
    }
}

/// A certified run: the schedule passed the checker and its makespan is the engine's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certified {
    /// The scheduler's display name (e.g. `R-LIST(m=0)/LPT`).
    pub algorithm: String,
    /// The catalogue's canonical name.
    pub canonical: &'static str,
    /// Every attempt, in start order, with its makespan filled in.
    pub schedule: Schedule,
    pub makespan: Time,
    /// The end of each job's last (successful) attempt, in instance order.
    pub completions: Vec<Time>,
    pub bound: Bound,
    /// makespan / bound.lower, exact.
    pub ratio: Time,
    /// Instants at which the scheduler was called.
    pub events: u64,
}

/// Builds `spec`, runs it on (`inst`, `sc`), checks the schedule and measures it.
pub fn certify(spec: &AlgoSpec, inst: &Instance, sc: &Scenario) -> Result<Certified> {
    Prepared::new(spec, inst)?.certify(inst, sc)
}

/// Runs an already-built scheduler through the same path (for schedulers the catalogue does
/// not name: a test's own allocation, a proof's fixed allotment). `canonical` labels it.
pub fn certify_scheduler(
    sched: &mut dyn Scheduler,
    canonical: &'static str,
    inst: &Instance,
    sc: &Scenario,
) -> Result<Certified> {
    certify_with(sched, canonical, inst, sc, &mut check::Scratch::default())
}

/// [`certify_scheduler`] with the checker's buffers reused between scenarios.
fn certify_with(
    sched: &mut dyn Scheduler,
    canonical: &'static str,
    inst: &Instance,
    sc: &Scenario,
    scratch: &mut check::Scratch,
) -> Result<Certified> {
    let mut run = engine::run(inst, sc, sched)?;
    // The engine names the scheduler in the schedule it records.
    let name = match run.schedule.algorithm.take() {
        Some(name) => name,
        None => sched.name(),
    };
    judge(name, canonical, run, inst, sc, scratch)
}

/// Checks an engine run and measures it: the step of [`certify_scheduler`] after the engine.
fn judge(
    algorithm: String,
    canonical: &'static str,
    run: engine::Run,
    inst: &Instance,
    sc: &Scenario,
    scratch: &mut check::Scratch,
) -> Result<Certified> {
    let disagree = |detail: String| Error::Disagree {
        algo: algorithm.clone(),
        detail,
    };
    let makespan = check::check_with(inst, sc, &run.schedule, scratch)
        .map_err(|v| disagree(format!("the checker rejects the engine's schedule: {v}")))?;
    if makespan != run.makespan {
        return Err(disagree(format!(
            "engine makespan {} but the checker finds {makespan}",
            run.makespan
        )));
    }
    let completions = run.completions;
    if !check::completions_agree(&run.schedule, scratch, &completions) {
        return Err(disagree(
            "the engine's completion times are not the ends of the jobs' last attempts".into(),
        ));
    }
    let bound = Bound::of(inst, sc)?;
    let ratio = makespan
        .checked_div(&bound.lower)
        .ok_or_else(|| disagree(format!("lower bound {} is not positive", bound.lower)))?;
    let mut schedule = run.schedule;
    schedule.makespan = Some(makespan.clone());
    schedule.algorithm = Some(algorithm.clone());
    Ok(Certified {
        algorithm,
        canonical,
        schedule,
        makespan,
        completions,
        bound,
        ratio,
        events: run.events,
    })
}

/// One built scheduler, reusable over many scenarios of the same instance (the engine resets it
/// at time 0 of every run).
pub struct Prepared {
    pub spec: AlgoSpec,
    canonical: &'static str,
    scheduler: Box<dyn Scheduler>,
    scratch: check::Scratch,
}

impl Prepared {
    /// Resolves and builds `spec` for `inst`.
    pub fn new(spec: &AlgoSpec, inst: &Instance) -> Result<Prepared> {
        let r = spec.resolve()?;
        let scheduler = r.algo.build(inst, &spec.params())?;
        Ok(Prepared {
            spec: spec.clone(),
            canonical: r.entry.name,
            scheduler,
            scratch: check::Scratch::default(),
        })
    }

    /// The scheduler's display name.
    pub fn name(&self) -> String {
        self.scheduler.name()
    }

    /// The full certify path on one scenario of the instance it was built for.
    pub fn certify(&mut self, inst: &Instance, sc: &Scenario) -> Result<Certified> {
        certify_with(
            self.scheduler.as_mut(),
            self.canonical,
            inst,
            sc,
            &mut self.scratch,
        )
    }

    /// The engine's makespan alone, unrecorded and unchecked: for the scenarios of a campaign
    /// after its certified first one (see the module doc).
    pub fn makespan(&mut self, inst: &Instance, sc: &Scenario) -> Result<Time> {
        Ok(engine::run_makespan(inst, sc, self.scheduler.as_mut())?.makespan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_default()
    }

    /// Rigid paper Proposition 3's style of check on a small instance: the certified makespan,
    /// its completions and its ratio are consistent.
    #[test]
    fn certify_measures_a_rigid_run() {
        let inst = Instance::rigid(4, &[(2, t("3")), (2, t("2")), (4, t("2")), (1, t("3/2"))])
            .unwrap_or_else(|e| panic!("{e}"));
        let sc = Scenario::new(vec![0, 1, 0, 0]);
        let c = certify(&AlgoSpec::new("easy"), &inst, &sc).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.canonical, "easy");
        assert_eq!(c.bound.kind, BoundKind::Rigid);
        assert_eq!(c.completions.iter().max(), Some(&c.makespan));
        assert_eq!(
            c.ratio,
            c.makespan.checked_div(&c.bound.lower).unwrap_or_default()
        );
        assert_eq!(c.schedule.makespan.as_ref(), Some(&c.makespan));
    }

    /// An engine run whose makespan or schedule the checker does not confirm is
    /// [`Error::Disagree`], never a result.
    #[test]
    fn an_unconfirmed_run_is_disagree() {
        let inst =
            Instance::rigid(2, &[(1, t("1")), (1, t("2"))]).unwrap_or_else(|e| panic!("{e}"));
        let sc = Scenario::none(2);
        let mut g = build(&AlgoSpec::new("greedy"), &inst).unwrap_or_else(|e| panic!("{e}"));
        let honest = engine::run(&inst, &sc, g.as_mut()).unwrap_or_else(|e| panic!("{e}"));
        assert!(judge(
            "g".into(),
            "greedy",
            honest.clone(),
            &inst,
            &sc,
            &mut check::Scratch::default()
        )
        .is_ok());
        let mut wrong_makespan = honest.clone();
        wrong_makespan.makespan = t("3");
        let e = judge(
            "g".into(),
            "greedy",
            wrong_makespan,
            &inst,
            &sc,
            &mut check::Scratch::default(),
        )
        .err();
        assert!(
            matches!(&e, Some(Error::Disagree { detail, .. }) if detail.contains("engine makespan 3")),
            "{e:?}"
        );
        let mut overfull = honest;
        for a in &mut overfull.schedule.attempts {
            a.procs = 2;
        }
        let e = judge(
            "g".into(),
            "greedy",
            overfull,
            &inst,
            &sc,
            &mut check::Scratch::default(),
        )
        .err();
        assert!(
            matches!(&e, Some(Error::Disagree { detail, .. }) if detail.contains("checker rejects")),
            "{e:?}"
        );
    }
}
