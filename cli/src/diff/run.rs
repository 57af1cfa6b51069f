//! The search loop of `resched diff`: draw case after case, run resched (through
//! [`fn@resched::oracle::certify`]) and the other implementation on it, judge the answer, and on
//! the first mismatch shrink the case ([`super::shrink`]) and stop.
use super::compare::{self, Mismatch, Rules, Verdict};
use super::external::{External, Query, Reply};
use super::scope::Scope;
use super::shrink::{self, Shrunk};
use super::ties;
use resched::error::{Error, Result};
use resched::model::arbitrary::Case;
use resched::oracle::catalogue::{self, Family, Param};
use resched::oracle::{self, AlgoSpec, Certified};
use resched::schedulers::moldable;
use resched::schedulers::Priority;
use resched::time::Time;
use std::time::{Duration, Instant};

/// One algorithm to compare: the oracle's spec, and what the other implementation is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Algo {
    pub spec: AlgoSpec,
    /// The name passed as `{algo}`: the canonical name, or the lower-cased parametric one.
    pub name: String,
    /// ε in effect (given or BATCH-LIST's default 3/10), for the algorithms that take one.
    pub eps: Option<Time>,
    pub family: Family,
}

impl Algo {
    /// Resolves one catalogue name with its parameters (ε is ignored by algorithms without one).
    pub fn new(name: &str, priority: Priority, seed: u64, eps: Option<&Time>) -> Result<Algo> {
        let r = catalogue::parse(name)?;
        let takes_eps = r.entry.params.contains(&Param::Eps);
        let name = if r.entry.parametric {
            name.trim().to_ascii_lowercase()
        } else {
            r.entry.name.to_string()
        };
        let spec = AlgoSpec {
            name: name.clone(),
            priority: Some(priority),
            seed,
            eps: eps.filter(|_| takes_eps).cloned(),
        };
        spec.resolve()?;
        // default: BATCH-LIST's documented ε = 3/10
        let eps = takes_eps
            .then(|| moldable::Eps::or_paper(spec.eps.as_ref()).map(|e| e.get().clone()))
            .transpose()?;
        Ok(Algo {
            spec,
            name,
            eps,
            family: r.entry.family,
        })
    }

    /// The priority rule.
    pub fn priority(&self) -> Priority {
        // default: LPT is the documented default priority
        self.spec.priority.unwrap_or(Priority::Lpt)
    }

    /// `greedy/LPT`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.name, self.priority())
    }
}

/// Resolves `--algo`: a comma-separated list of names, or `all`, `all-rigid`, `all-moldable`
/// (every algorithm of the catalogue, every rigid one, every one that takes moldable jobs).
/// A rigid-only algorithm on a scope with moldable jobs is an error.
pub fn algos(
    arg: &str,
    priority: Priority,
    seed: u64,
    eps: Option<&Time>,
    rigid_cases: bool,
) -> Result<Vec<Algo>> {
    let names: Vec<String> = match arg.trim() {
        "all" | "all-rigid" | "all-moldable" => {
            let want = |f: Family| match arg.trim() {
                "all-rigid" => f == Family::Rigid,
                "all-moldable" => f == Family::Either,
                _ => rigid_cases || f == Family::Either,
            };
            catalogue::concrete_names()
                .into_iter()
                .filter(|n| catalogue::entry(n).is_some_and(|e| want(e.family)))
                .collect()
        }
        list => list.split(',').map(|s| s.trim().to_string()).collect(),
    };
    let algos = names
        .iter()
        .map(|n| Algo::new(n, priority, seed, eps))
        .collect::<Result<Vec<_>>>()?;
    if let Some(a) = algos
        .iter()
        .find(|a| a.family == Family::Rigid && !rigid_cases)
    {
        return Err(Error::param(
            "algo",
            format!(
                "`{}` schedules rigid jobs only, but `kind` draws moldable jobs",
                a.name
            ),
        ));
    }
    // A flag that applies to nothing is an error, not silently dropped.
    if eps.is_some() && !algos.iter().any(|a| a.eps.is_some()) {
        return Err(Error::param(
            "eps",
            format!(
                "only BATCH-LIST reads ε, and none of the algorithms given ({}) is BATCH-LIST",
                names.join(", ")
            ),
        ));
    }
    Ok(algos)
}

/// What a search runs.
#[derive(Debug, Clone)]
pub struct Config {
    pub scope: Scope,
    pub seed: u64,
    /// Cases 0..cases are drawn, or only `only` when set.
    pub cases: u64,
    pub only: Option<u64>,
    pub algos: Vec<Algo>,
    pub rules: Rules,
    /// Most candidate runs while shrinking (`usize::MAX`: no count).
    pub shrink_budget: usize,
    /// Wall-clock time a shrink may take (`None`: no limit).
    pub shrink_time: Option<Duration>,
}

/// resched's run and the other's answer on one case, judged.
#[derive(Debug, Clone)]
pub struct Trial {
    pub ours: Certified,
    pub reply: Reply,
    pub verdict: Verdict,
}

impl Trial {
    /// The mismatch, if the verdict is one.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        match &self.verdict {
            Verdict::Mismatch(m) => Some(m),
            _ => None,
        }
    }
}

/// Runs `algo` on `case` in resched and in the other implementation, and judges.
pub fn trial(
    case: &Case,
    algo: &Algo,
    number: u64,
    ext: &mut External,
    rules: &Rules,
) -> Result<Trial> {
    let ours = oracle::certify(&algo.spec, &case.instance, &case.scenario)?;
    ask(ours, case, algo, number, ext, rules)
}

fn ask(
    ours: Certified,
    case: &Case,
    algo: &Algo,
    number: u64,
    ext: &mut External,
    rules: &Rules,
) -> Result<Trial> {
    let q = Query {
        case: number,
        instance: &case.instance,
        scenario: &case.scenario,
        algo: &algo.name,
        priority: algo.priority(),
        seed: algo.spec.seed,
        eps: algo.eps.as_ref(),
    };
    let reply = ext.ask(&q)?;
    let verdict = compare::judge(&ours, &reply, &case.instance, &case.scenario, rules);
    let verdict = ties::settle(
        verdict,
        &algo.spec,
        &case.instance,
        &case.scenario,
        &reply,
        rules,
    );
    Ok(Trial {
        ours,
        reply,
        verdict,
    })
}

/// Counts of a search.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Cases drawn.
    pub cases: u64,
    /// Comparisons made (cases × algorithms, up to the mismatch).
    pub runs: u64,
    pub agree: u64,
    /// Same makespan, other decisions.
    pub notes: u64,
    /// The first few notes, in words.
    pub first_notes: Vec<String>,
    /// Answers that are the algorithm's under another breaking of exact ties (`--ties`).
    pub ties: u64,
    /// The first few ties, in words.
    pub first_ties: Vec<String>,
    /// Answers that carried a schedule (the rest were makespans alone).
    pub schedules: u64,
    /// Time of the search, shrinking excluded.
    pub elapsed: Duration,
}

impl Stats {
    /// Cases per second of the search.
    pub fn rate(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.cases as f64 / s
        } else {
            0.0
        }
    }
}

/// The first mismatch and its shrunk form.
#[derive(Debug)]
pub struct Found {
    /// Case number and index into `Config::algos`.
    pub case: u64,
    pub algo: usize,
    pub original: Case,
    pub first: Trial,
    pub shrunk: Shrunk<Trial>,
    pub shrink_time: Duration,
}

/// How a search ended.
#[derive(Debug)]
pub struct Outcome {
    pub stats: Stats,
    pub found: Option<Found>,
}

/// Runs the search; `progress` is called after every case.
pub fn search(
    cfg: &Config,
    ext: &mut External,
    progress: &mut dyn FnMut(&Stats),
) -> Result<Outcome> {
    let t0 = Instant::now();
    let mut stats = Stats::default();
    let numbers: Box<dyn Iterator<Item = u64>> = match cfg.only {
        Some(i) => Box::new(std::iter::once(i)),
        None => Box::new(0..cfg.cases),
    };
    for i in numbers {
        let case = cfg.scope.draw(cfg.seed, i)?;
        stats.cases += 1;
        for (k, algo) in cfg.algos.iter().enumerate() {
            let tr = trial(&case, algo, i, ext, &cfg.rules).map_err(|e| in_case(e, i, algo))?;
            stats.runs += 1;
            if tr.reply.answer.as_ref().is_ok_and(|a| a.schedule.is_some()) {
                stats.schedules += 1;
            }
            match &tr.verdict {
                Verdict::Agree => stats.agree += 1,
                Verdict::Note(d) => {
                    stats.notes += 1;
                    if stats.first_notes.len() < 3 {
                        stats
                            .first_notes
                            .push(format!("case {i}, {}: {d}", algo.label()));
                    }
                }
                Verdict::Tie(d) => {
                    stats.ties += 1;
                    if stats.first_ties.len() < 3 {
                        stats
                            .first_ties
                            .push(format!("case {i}, {}: {d}", algo.label()));
                    }
                }
                Verdict::Mismatch(_) => {
                    stats.elapsed = t0.elapsed();
                    let found = shrink_found(cfg, ext, i, k, case, tr)?;
                    return Ok(Outcome {
                        stats,
                        found: Some(found),
                    });
                }
            }
        }
        stats.elapsed = t0.elapsed();
        progress(&stats);
    }
    stats.elapsed = t0.elapsed();
    Ok(Outcome { stats, found: None })
}

/// Shrinks the mismatch `first` of case `i` under algorithm `k`. A timeout is not shrunk: every
/// step that reproduced it would wait for the whole time limit.
pub fn shrink_found(
    cfg: &Config,
    ext: &mut External,
    i: u64,
    k: usize,
    case: Case,
    first: Trial,
) -> Result<Found> {
    let t0 = Instant::now();
    let algo = &cfg.algos[k];
    let kind = first.mismatch().map(|m| m.kind);
    // A mismatch no breaking of ties explains must shrink to one that none explains either:
    // otherwise the user is handed a case that may be a tie instead of the bug that was found.
    // A tie-explained first mismatch may shrink to either (its bug can be a real one that a
    // tie happens to mimic on the case drawn).
    let real = first.mismatch().is_some_and(|m| !ties::explained(m));
    let budget = shrink::Budget {
        runs: match kind {
            Some(compare::Kind::Timeout) => 0,
            _ => cfg.shrink_budget,
        },
        time: cfg.shrink_time,
    };
    let shrunk = shrink::shrink_within(case.clone(), first.clone(), budget, |c| {
        // A candidate resched cannot run (a stated limit) is simply not a reproduction.
        let Ok(ours) = oracle::certify(&algo.spec, &c.instance, &c.scenario) else {
            return Ok(None);
        };
        let t = ask(ours, c, algo, i, ext, &cfg.rules)?;
        let same = matches!((t.mismatch(), kind), (Some(m), Some(k))
            if m.kind.same_bug(k) && !(real && ties::explained(m)));
        Ok(same.then_some(t))
    })?;
    Ok(Found {
        case: i,
        algo: k,
        original: case,
        first,
        shrunk,
        shrink_time: t0.elapsed(),
    })
}

/// Says which case and algorithm an error of resched's own run happened on.
pub fn in_case(e: Error, i: u64, algo: &Algo) -> Error {
    let at = format!("case {i}, {}", algo.label());
    match e {
        Error::Disagree { algo, detail } => Error::Disagree {
            algo,
            detail: format!("{at}: {detail}"),
        },
        Error::Scheduler { algo, time, msg } => Error::Scheduler {
            algo,
            time,
            msg: format!("{at}: {msg}"),
        },
        Error::Limit(m) => Error::Limit(format!("{at}: {m}")),
        other => other,
    }
}
