//! Shrinking a counterexample to a small one (greedy delta debugging).
//!
//! From the case on which a mismatch was seen, [`candidates`] lists smaller cases, the biggest
//! cuts first: drop half of the jobs, then a quarter, … then one job; drop one job and give
//! another one to three more failures; lower P (to 1, P/2, P−1;
//! rigid jobs keep min(p_j, P) processors, moldable tables are cut to P entries and p̄ to P);
//! lower one failure count (to 0, or by 1); lower one rigid job's p_j (to 1, ⌊p_j/2⌋, p_j − 1);
//! turn a moldable job rigid (on 1 or P processors, at its time there); simplify one time toward 1 (1 itself, then ⌊t⌋ and ⌈t⌉ of a fraction, then
//! ⌊t/2⌋ and t − 1 of an integer), and one moldable parameter (w as a time; c, γ → 0; p̄ → 1;
//! δ → 0 or 1; a table made constant). Each candidate is run by both implementations; the first
//! one that still shows the same bug becomes the current case and the list is made again. When
//! no single step reproduces, pairs of steps are tried (a candidate of a candidate), since two
//! changes together can keep a coincidence that either alone breaks. It stops when no step and
//! no pair of steps reproduces (a local minimum), or when its [`Budget`] runs out (a wall-clock
//! time, and optionally a count of runs), and it reports which ([`Stop`]). A case is never run
//! twice.
//!
//! Every step strictly lowers (jobs, P, Σf, Σp_j, moldable jobs, then the times' distance to
//! simple integers), so the loop ends even without the budget.
use num_rational::BigRational;
use resched::error::Result;
use resched::model::arbitrary::Case;
use resched::model::{Instance, Job, Profile, Scenario, SpeedupModel};
use resched::time::Time;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Why a shrink stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// No step and no pair of steps reproduces: the case is a local minimum.
    LocalMinimum,
    /// The count of runs ran out first.
    Runs,
    /// The wall-clock time ran out first.
    Time,
}

/// How long a shrink may go on: at most `runs` candidate runs, and no new run after `time`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub runs: usize,
    pub time: Option<Duration>,
}

impl Budget {
    /// A budget of `runs` runs and no time limit.
    pub fn runs(runs: usize) -> Budget {
        Budget { runs, time: None }
    }
}

/// The shrunk case and what the last reproduction showed.
#[derive(Debug)]
pub struct Shrunk<T> {
    pub case: Case,
    /// The run on `case` (the last one that reproduced, or the original).
    pub trial: T,
    /// Candidates run.
    pub steps: usize,
    /// True when the budget ran out before a local minimum was reached.
    pub exhausted: bool,
    /// Why it stopped (`exhausted` is `stop != LocalMinimum`).
    pub stop: Stop,
}

/// Shrinks `case`, on which `first` was seen, within `budget` runs. `reproduces(c)` runs both
/// implementations on `c` and returns their trial when it shows the same bug.
pub fn shrink<T>(
    case: Case,
    first: T,
    budget: usize,
    reproduces: impl FnMut(&Case) -> Result<Option<T>>,
) -> Result<Shrunk<T>> {
    shrink_within(case, first, Budget::runs(budget), reproduces)
}

/// [`shrink`] within a [`Budget`] of runs and wall-clock time.
pub fn shrink_within<T>(
    case: Case,
    first: T,
    budget: Budget,
    mut reproduces: impl FnMut(&Case) -> Result<Option<T>>,
) -> Result<Shrunk<T>> {
    let mut s = Search {
        cur: Shrunk {
            case,
            trial: first,
            steps: 0,
            exhausted: false,
            stop: Stop::LocalMinimum,
        },
        budget: budget.runs,
        deadline: budget.time.and_then(|t| Instant::now().checked_add(t)),
        tried: HashSet::new(),
    };
    loop {
        if s.first_reproducing(candidates(&s.cur.case), &mut reproduces)? {
            continue;
        }
        // No single step reproduces; two steps in a row may (a job dropped and a time
        // changed together can keep a coincidence that either step alone breaks).
        let here = s.cur.case.clone();
        let pairs = candidates(&here).into_iter().flat_map(|c| candidates(&c));
        if s.cur.exhausted || !s.first_reproducing(pairs, &mut reproduces)? {
            return Ok(s.cur);
        }
    }
}

/// The state of a shrink: the current case, the budget, the cases already run.
struct Search<T> {
    cur: Shrunk<T>,
    budget: usize,
    /// No candidate is started after this instant.
    deadline: Option<Instant>,
    /// Cases run that did not reproduce (as JSON text), never run twice.
    tried: HashSet<String>,
}

impl<T> Search<T> {
    /// Runs the candidates in order until one reproduces (it becomes the current case) or the
    /// budget runs out; true if one reproduced.
    fn first_reproducing(
        &mut self,
        cands: impl IntoIterator<Item = Case>,
        reproduces: &mut impl FnMut(&Case) -> Result<Option<T>>,
    ) -> Result<bool> {
        for c in cands {
            let key = format!("{}{:?}", c.instance.to_json(), c.scenario.failures);
            if c == self.cur.case || self.tried.contains(&key) {
                continue;
            }
            let stop = if self.cur.steps >= self.budget {
                Some(Stop::Runs)
            } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
                Some(Stop::Time)
            } else {
                None
            };
            if let Some(stop) = stop {
                self.cur.exhausted = true;
                self.cur.stop = stop;
                return Ok(false);
            }
            self.cur.steps += 1;
            if let Some(t) = reproduces(&c)? {
                self.cur.case = c;
                self.cur.trial = t;
                return Ok(true);
            }
            self.tried.insert(key);
        }
        Ok(false)
    }
}

/// Every one-step simplification of `case`, biggest cuts first (module doc).
pub fn candidates(case: &Case) -> Vec<Case> {
    let inst = &case.instance;
    let f = &case.scenario.failures;
    let n = inst.len();
    let mut out = Vec::new();
    let mut push = |c: Option<Case>| {
        if let Some(c) = c {
            if &c != case {
                out.push(c);
            }
        }
    };
    let mut size = n / 2;
    while size >= 1 {
        for start in (0..n).step_by(size) {
            let keep = |j: usize| j < start || j >= start + size;
            let jobs = (0..n).filter(|&j| keep(j));
            push(build(
                inst.procs,
                jobs.map(|j| (inst.jobs[j].clone(), f[j])),
            ));
        }
        size /= 2;
    }
    // A job traded for up to three more failures of another: re-executions often play the
    // part the dropped job played (they hold the same processors again, later), with one job
    // fewer. Three because a job's later attempts must line up with the instants that matter.
    for k in 0..n {
        for j in (0..n).filter(|&j| j != k) {
            for more in 1..=3u32 {
                let jobs = (0..n)
                    .filter(|&i| i != k)
                    .map(|i| (inst.jobs[i].clone(), f[i] + if i == j { more } else { 0 }));
                push(build(inst.procs, jobs));
            }
        }
    }
    let p = inst.procs;
    let mut ps = vec![1, p / 2, p.saturating_sub(1)];
    ps.dedup();
    for q in ps.into_iter().filter(|&q| q >= 1 && q < p) {
        let jobs: Option<Vec<_>> = inst
            .jobs
            .iter()
            .zip(f)
            .map(|(j, &fj)| fit(j, q).map(|j| (j, fj)))
            .collect();
        push(jobs.and_then(|jobs| build(q, jobs.into_iter())));
    }
    for j in 0..n {
        for lower in [0, f[j].saturating_sub(1)] {
            if lower < f[j] {
                let mut g = f.clone();
                g[j] = lower;
                push(Some(Case {
                    instance: inst.clone(),
                    scenario: Scenario::new(g),
                }));
            }
        }
    }
    for j in 0..n {
        for job in simpler_jobs(&inst.jobs[j], p) {
            let mut jobs = inst.jobs.clone();
            jobs[j] = job;
            push(build(p, jobs.into_iter().zip(f.iter().copied())));
        }
    }
    out
}

/// A case from P and (job, f_j) pairs, if it is a valid one with at least one job.
fn build(procs: u32, jobs: impl Iterator<Item = (Job, u32)>) -> Option<Case> {
    let (jobs, f): (Vec<Job>, Vec<u32>) = jobs.unzip();
    let instance = Instance::new(procs, jobs).ok()?;
    Some(Case {
        instance,
        scenario: Scenario::new(f),
    })
}

/// `job` on a platform of `procs` processors (module doc), if its model allows it.
fn fit(job: &Job, procs: u32) -> Option<Job> {
    let profile = match &job.profile {
        Profile::Rigid { procs: p, time } => Profile::Rigid {
            procs: (*p).min(procs),
            time: time.clone(),
        },
        Profile::Moldable { model, .. } => moldable(model_at(model, procs)?, procs)?,
    };
    Some(Job {
        name: job.name.clone(),
        profile,
    })
}

fn moldable(model: SpeedupModel, procs: u32) -> Option<Profile> {
    let times = model.table(procs, "speedup").ok()?;
    Some(Profile::Moldable { model, times })
}

/// A model restated for `procs` processors: tables cut, p̄ capped.
fn model_at(m: &SpeedupModel, procs: u32) -> Option<SpeedupModel> {
    let cut = |t: &[Time]| t.get(..procs as usize).map(<[Time]>::to_vec);
    Some(match m {
        SpeedupModel::Table { times, monotonic } => SpeedupModel::Table {
            times: cut(times)?,
            monotonic: *monotonic,
        },
        SpeedupModel::Monotonic { times } => SpeedupModel::Monotonic { times: cut(times)? },
        SpeedupModel::Arbitrary { times } => SpeedupModel::Arbitrary { times: cut(times)? },
        SpeedupModel::Roofline { w, pbar } => SpeedupModel::Roofline {
            w: w.clone(),
            pbar: (*pbar).min(procs),
        },
        SpeedupModel::Mix { w, gamma, pbar, c } => SpeedupModel::Mix {
            w: w.clone(),
            gamma: gamma.clone(),
            pbar: (*pbar).min(procs),
            c: c.clone(),
        },
        SpeedupModel::Rounded { bits, of } => SpeedupModel::Rounded {
            bits: *bits,
            of: Box::new(model_at(of, procs)?),
        },
        SpeedupModel::Communication { .. }
        | SpeedupModel::Amdahl { .. }
        | SpeedupModel::Power { .. } => m.clone(),
    })
}

/// Simpler versions of one job: a moldable job made rigid, then simpler times or parameters.
fn simpler_jobs(job: &Job, procs: u32) -> Vec<Job> {
    let with = |profile: Profile| Job {
        name: job.name.clone(),
        profile,
    };
    match &job.profile {
        Profile::Rigid { procs: p, time } => {
            let mut fewer = vec![1, *p / 2, p.saturating_sub(1)];
            fewer.dedup();
            fewer
                .into_iter()
                .filter(|&q| q >= 1 && q < *p)
                .map(|q| {
                    with(Profile::Rigid {
                        procs: q,
                        time: time.clone(),
                    })
                })
                .chain(
                    simpler(time)
                        .into_iter()
                        .map(|t| with(Profile::Rigid { procs: *p, time: t })),
                )
                .collect()
        }
        Profile::Moldable { model, times } => {
            let counts = if procs > 1 { vec![1, procs] } else { vec![1] };
            let mut out: Vec<Job> = counts
                .iter()
                .filter_map(|&p| {
                    let t = times.get(p as usize - 1)?.clone();
                    Some(with(Profile::Rigid { procs: p, time: t }))
                })
                .collect();
            out.extend(
                simpler_models(model)
                    .into_iter()
                    .filter_map(|m| moldable(m, procs))
                    .map(with),
            );
            out
        }
    }
}

/// 1, then ⌊t⌋ and ⌈t⌉ of a fraction, or ⌊t/2⌋ and t − 1 of an integer; positive, ≠ t.
fn simpler(t: &Time) -> Vec<Time> {
    let int = |b| Time::from_big(BigRational::from_integer(b));
    let mut out = vec![Time::one()];
    if !t.is_integer() {
        out.push(int(t.floor()));
        out.push(int(t.ceil()));
    } else if let Some(half) = t.div_int(2) {
        out.push(int(half.floor()));
        out.push(t - &Time::one());
    }
    let mut seen = Vec::new();
    for x in out {
        if x.is_positive() && &x != t && !seen.contains(&x) {
            seen.push(x);
        }
    }
    seen
}

/// One-parameter simplifications of a model (module doc).
fn simpler_models(m: &SpeedupModel) -> Vec<SpeedupModel> {
    use SpeedupModel as S;
    let zero = Time::zero();
    let mut out = Vec::new();
    match m {
        S::Roofline { w, pbar } => {
            out.extend(
                simpler(w)
                    .into_iter()
                    .map(|w| S::Roofline { w, pbar: *pbar }),
            );
            if *pbar > 1 {
                out.push(S::Roofline {
                    w: w.clone(),
                    pbar: 1,
                });
            }
        }
        S::Communication { w, c } => {
            out.extend(
                simpler(w)
                    .into_iter()
                    .map(|w| S::Communication { w, c: c.clone() }),
            );
            if !c.is_zero() {
                out.push(S::Communication {
                    w: w.clone(),
                    c: zero,
                });
            }
        }
        S::Amdahl { w, gamma } => {
            out.extend(simpler(w).into_iter().map(|w| S::Amdahl {
                w,
                gamma: gamma.clone(),
            }));
            if !gamma.is_zero() {
                out.push(S::Amdahl {
                    w: w.clone(),
                    gamma: zero,
                });
            }
        }
        S::Mix { w, gamma, pbar, c } => {
            let mix = |w: &Time, gamma: &Time, pbar: u32, c: &Time| S::Mix {
                w: w.clone(),
                gamma: gamma.clone(),
                pbar,
                c: c.clone(),
            };
            out.extend(simpler(w).iter().map(|w| mix(w, gamma, *pbar, c)));
            if !gamma.is_zero() {
                out.push(mix(w, &zero, *pbar, c));
            }
            if *pbar > 1 {
                out.push(mix(w, gamma, 1, c));
            }
            if !c.is_zero() {
                out.push(mix(w, gamma, *pbar, &zero));
            }
        }
        S::Power { w, delta } => {
            out.extend(simpler(w).into_iter().map(|w| S::Power {
                w,
                delta: delta.clone(),
            }));
            for d in [Time::zero(), Time::one()] {
                if &d != delta {
                    out.push(S::Power {
                        w: w.clone(),
                        delta: d,
                    });
                }
            }
        }
        S::Table { times, .. } | S::Monotonic { times } | S::Arbitrary { times } => {
            for t in times.first().into_iter().chain([&Time::one()]) {
                if times.iter().any(|x| x != t) {
                    let flat = vec![t.clone(); times.len()];
                    out.push(match m {
                        S::Monotonic { .. } => S::Monotonic { times: flat },
                        S::Arbitrary { .. } => S::Arbitrary { times: flat },
                        _ => S::Table {
                            times: flat,
                            monotonic: false,
                        },
                    });
                }
            }
        }
        S::Rounded { .. } => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn rigid(procs: u32, jobs: &[(u32, &str)], f: &[u32]) -> Case {
        let jobs: Vec<(u32, Time)> = jobs.iter().map(|(p, x)| (*p, t(x))).collect();
        Case {
            instance: Instance::rigid(procs, &jobs).unwrap_or_else(|e| panic!("{e}")),
            scenario: Scenario::new(f.to_vec()),
        }
    }

    #[test]
    fn times_move_toward_one() {
        assert_eq!(simpler(&t("7/2")), [t("1"), t("3"), t("4")]);
        assert_eq!(simpler(&t("6")), [t("1"), t("3"), t("5")]);
        assert_eq!(simpler(&t("2")), [t("1")]);
        assert!(simpler(&t("1")).is_empty());
        assert_eq!(simpler(&t("1/3")), [t("1")]);
    }

    #[test]
    fn candidates_are_valid_and_smaller() {
        let c = rigid(4, &[(3, "5/2"), (4, "2"), (1, "1")], &[1, 0, 2]);
        let cands = candidates(&c);
        assert!(!cands.is_empty());
        for k in &cands {
            assert!(k.instance.validate().is_ok() && k.scenario.validate(&k.instance).is_ok());
            assert_ne!(k, &c);
        }
        // Dropping the first job comes before anything else.
        assert_eq!(cands[0].instance.len(), 2);
        // P = 1 makes every rigid job use 1 processor.
        assert!(cands.iter().any(|k| k.instance.procs == 1
            && k.instance
                .jobs
                .iter()
                .all(|j| j.as_rigid().map(|x| x.0) == Some(1))));
    }

    #[test]
    fn moldable_jobs_are_cut_and_made_rigid() {
        let model = SpeedupModel::Roofline { w: t("6"), pbar: 3 };
        let times = model.table(4, "x").unwrap_or_else(|e| panic!("{e}"));
        let job = Job {
            name: "M".into(),
            profile: Profile::Moldable { model, times },
        };
        let c = Case {
            instance: Instance::new(4, vec![job]).unwrap_or_else(|e| panic!("{e}")),
            scenario: Scenario::new(vec![0]),
        };
        let cands = candidates(&c);
        assert!(cands
            .iter()
            .any(|k| k.instance.procs == 2 && !k.instance.is_rigid()));
        assert!(cands
            .iter()
            .any(|k| k.instance.jobs[0].as_rigid() == Some((4, &t("2")))));
    }

    /// A "bug" that shows whenever some job has f_j ≥ 1 and p_j ≥ 2 shrinks to one such job on
    /// P = 2 with t = 1, and the budget is respected.
    #[test]
    fn shrinks_to_a_local_minimum() {
        let bug = |c: &Case| {
            c.instance
                .jobs
                .iter()
                .zip(&c.scenario.failures)
                .any(|(j, &f)| f >= 1 && j.as_rigid().is_some_and(|x| x.0 >= 2))
        };
        let c = rigid(
            6,
            &[(1, "3"), (5, "7/2"), (2, "4"), (6, "1/2"), (1, "1")],
            &[2, 0, 3, 1, 0],
        );
        assert!(bug(&c));
        let s = shrink(c.clone(), (), 1000, |k| Ok(bug(k).then_some(())))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.exhausted && s.stop == Stop::LocalMinimum);
        let shape = |k: &Case| {
            let jobs: Vec<(u32, Time)> = k
                .instance
                .jobs
                .iter()
                .filter_map(|j| j.as_rigid().map(|(p, t)| (p, t.clone())))
                .collect();
            (k.instance.procs, jobs, k.scenario.failures.clone())
        };
        assert_eq!(shape(&s.case), (2, vec![(2, t("1"))], vec![1]));
        let s = shrink(c, (), 3, |k| Ok(bug(k).then_some(()))).unwrap_or_else(|e| panic!("{e}"));
        assert!(s.exhausted && s.steps == 3 && s.stop == Stop::Runs);
        // A time budget already spent stops before the first run, and says so.
        let zero = Budget {
            runs: usize::MAX,
            time: Some(Duration::ZERO),
        };
        let s = shrink_within(rigid(2, &[(2, "1"), (1, "1")], &[1, 0]), (), zero, |k| {
            Ok(bug(k).then_some(()))
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.steps, s.exhausted, s.stop), (0, true, Stop::Time));
    }
}
