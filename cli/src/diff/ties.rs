//! Decisions taken on exact ties (`resched diff --ties`): a floating-point program can take
//! another branch than resched where the algorithm's own criterion is exactly tied, and then
//! give another makespan or schedule that no tolerance on makespans absorbs.
//!
//! Two kinds of ties are searched, exactly:
//! - **allocations** (LPA-LIST, MINTIME, MINAREA): for each job, every processor count p whose
//!   criterion equals the least one: LPA's r(α, β) of Eq. (10) (moldable paper, Algorithm 2;
//!   [`resched::schedulers::moldable::lpa::r_table`]), MINTIME's t(p), MINAREA's p·t(p);
//!   resched takes the smallest such p;
//! - **priority** (every algorithm whose rule is not `index` or `random`): jobs whose keys are
//!   equal ([`resched::schedulers::Priority::key`] on the count each job runs with); resched
//!   breaks these ties by job index.
//!
//! Every combination of the tied alternatives (allocations × orders among equal keys, at most
//! [`MAX_ALTERNATIVES`] runs; groups of more than 7 equal keys keep index order) is run by the oracle: an allocation through LIST
//! ([`resched::schedulers::moldable::list::List`]) with that allocation, an order among equal
//! keys by renumbering the jobs so that index order is that order (and numbering the schedule
//! back). When the other program's answer equals one of these runs under the same comparison
//! rules, the difference is a decision on an exact tie: with `--ties` the verdict is a tie, not
//! a mismatch; without it the mismatch says so.
use super::compare::{self, Kind, Mismatch, Rules, Verdict};
use super::external::Reply;
use resched::model::{Instance, Job, Scenario};
use resched::oracle::{self, AlgoSpec, Certified};
use resched::schedulers::moldable::list::List;
use resched::schedulers::moldable::{lpa, Order};
use resched::schedulers::Priority;
use resched::time::Time;

/// Most combinations of tied alternatives run for one answer.
pub const MAX_ALTERNATIVES: usize = 5000;

/// Largest group of equal keys whose orders are tried (8! orders would exceed the budget).
const MAX_GROUP: usize = 7;

/// `verdict` settled: a makespan or decision mismatch that a breaking of exact ties explains is
/// a tie with `rules.ties`, and says so (and names the option) without it.
pub fn settle(
    verdict: Verdict,
    spec: &AlgoSpec,
    inst: &Instance,
    sc: &Scenario,
    reply: &Reply,
    rules: &Rules,
) -> Verdict {
    let Verdict::Mismatch(m) = &verdict else {
        return verdict;
    };
    if !matches!(m.kind, Kind::Makespan | Kind::Decisions) {
        return verdict;
    }
    let Some(why) = explain(spec, inst, sc, reply, rules) else {
        return verdict;
    };
    if rules.ties {
        return Verdict::Tie(why);
    }
    Verdict::Mismatch(Mismatch {
        kind: m.kind,
        detail: format!(
            "{}{HINT}({why}): no --rel-tol absorbs that, --ties reports it as a tie",
            m.detail
        ),
    })
}

/// What [`settle`] adds to a mismatch that a breaking of exact ties explains.
const HINT: &str = "; it is the algorithm's answer under another breaking of exact ties ";

/// Whether a mismatch is one that another breaking of exact ties explains (without `--ties`).
pub fn explained(m: &Mismatch) -> bool {
    m.detail.contains(HINT)
}

/// Which allocation rule an algorithm minimises, if it is one of the three.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Criterion {
    Lpa,
    MinTime,
    MinArea,
}

impl Criterion {
    fn of(canonical: &str) -> Option<Criterion> {
        match canonical {
            "lpa-list" => Some(Criterion::Lpa),
            "mintime" => Some(Criterion::MinTime),
            "minarea" => Some(Criterion::MinArea),
            _ => None,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Criterion::Lpa => "LPA's r(α, β)",
            Criterion::MinTime => "MINTIME's time t(p)",
            Criterion::MinArea => "MINAREA's area p·t(p)",
        }
    }

    /// The counts of `job` of least criterion (increasing), with that least value.
    fn tied(self, job: &Job, procs: u32) -> Option<(Vec<u32>, Time)> {
        let values: Vec<(u32, Time)> = match self {
            Criterion::Lpa => lpa::r_table(job, procs)
                .into_iter()
                .zip(1..)
                .filter_map(|(r, p)| r.map(|r| (p, r)))
                .collect(),
            Criterion::MinTime | Criterion::MinArea => job
                .allowed_procs()
                .filter_map(|p| {
                    let t = job.time(p)?;
                    Some((
                        p,
                        if self == Criterion::MinArea {
                            t.mul_int(u64::from(p))
                        } else {
                            t.clone()
                        },
                    ))
                })
                .collect(),
        };
        let least = values.iter().map(|(_, v)| v).min()?.clone();
        let ps = values
            .iter()
            .filter(|(_, v)| *v == least)
            .map(|(p, _)| *p)
            .collect();
        Some((ps, least))
    }
}

/// Why a different answer is one of the algorithm's own, under another breaking of exact ties:
/// `None` when it is not (or when there are more than [`MAX_ALTERNATIVES`] to try).
pub fn explain(
    spec: &AlgoSpec,
    inst: &Instance,
    sc: &Scenario,
    reply: &Reply,
    rules: &Rules,
) -> Option<String> {
    let resolved = spec.resolve().ok()?;
    let criterion = Criterion::of(resolved.entry.name);
    // default: LPT is the documented default priority
    let priority = spec.priority.unwrap_or(Priority::Lpt);
    let n = inst.len();
    // Each job's tied counts (its own count alone when the algorithm allocates no other way).
    let tied: Vec<(Vec<u32>, Option<Time>)> = match criterion {
        Some(c) => inst
            .jobs
            .iter()
            .map(|j| c.tied(j, inst.procs).map(|(ps, v)| (ps, Some(v))))
            .collect::<Option<_>>()?,
        None => inst
            .jobs
            .iter()
            .map(|j| j.as_rigid().map(|(p, _)| (vec![p], None)))
            .collect::<Option<_>>()?,
    };
    let mut budget = MAX_ALTERNATIVES;
    let mut choice = vec![0usize; n];
    loop {
        let alloc: Vec<u32> = (0..n).map(|j| tied[j].0[choice[j]]).collect();
        if let Some(found) = try_orders(
            spec,
            criterion,
            priority,
            inst,
            sc,
            reply,
            rules,
            &alloc,
            &mut budget,
        ) {
            let mut words = Vec::new();
            for (j, (ps, v)) in tied.iter().enumerate() {
                if let (Some(c), Some(v), true) = (criterion, v, choice[j] != 0) {
                    words.push(format!(
                        "{} of {} is {} at p = {} (resched takes p = {}, the other p = {})",
                        c.words(),
                        inst.jobs[j].name,
                        compare::both(v),
                        ps.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
                        ps[0],
                        ps[choice[j]]
                    ));
                }
            }
            words.extend(found);
            return Some(words.join("; "));
        }
        if budget == 0 {
            return None;
        }
        // Next combination of tied counts (odometer over the jobs).
        let mut j = 0;
        loop {
            if j == n {
                return None;
            }
            choice[j] += 1;
            if choice[j] < tied[j].0.len() {
                break;
            }
            choice[j] = 0;
            j += 1;
        }
    }
}

/// Tries every order among jobs of equal keys under `alloc`; the words of the ties used when
/// one run gives the other's answer (an empty list for the identity order).
#[allow(clippy::too_many_arguments)]
fn try_orders(
    spec: &AlgoSpec,
    criterion: Option<Criterion>,
    priority: Priority,
    inst: &Instance,
    sc: &Scenario,
    reply: &Reply,
    rules: &Rules,
    alloc: &[u32],
    budget: &mut usize,
) -> Option<Vec<String>> {
    let n = inst.len();
    let keys: Vec<Option<(u8, Time)>> = (0..n)
        .map(|j| {
            let t = inst.jobs[j].time(alloc[j])?;
            priority.key(alloc[j], t, inst.procs)
        })
        .collect();
    // Groups of jobs with equal keys, in key order; rules without ties give singletons.
    let mut jobs: Vec<usize> = (0..n).collect();
    jobs.sort_by(|a, b| keys[*a].cmp(&keys[*b]).then(a.cmp(b)));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let breaks_ties = !matches!(priority, Priority::Index | Priority::Random);
    for j in jobs {
        match groups.last_mut() {
            Some(g) if breaks_ties && keys[g[0]].is_some() && keys[g[0]] == keys[j] => g.push(j),
            _ => groups.push(vec![j]),
        }
    }
    let perms: Vec<Vec<Vec<usize>>> = groups
        .iter()
        .map(|g| {
            if g.len() <= MAX_GROUP {
                permutations(g)
            } else {
                vec![g.clone()]
            }
        })
        .collect();
    let mut choice = vec![0usize; groups.len()];
    loop {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let order: Vec<usize> = choice
            .iter()
            .enumerate()
            .flat_map(|(g, &c)| perms[g][c].iter().copied())
            .collect();
        if let Some(run) = run_renumbered(spec, criterion, priority, inst, sc, alloc, &order) {
            let v = compare::judge(&run, reply, inst, sc, rules);
            if matches!(v, Verdict::Agree | Verdict::Note(_)) {
                let mut words = Vec::new();
                for (g, &c) in choice.iter().enumerate() {
                    if c != 0 {
                        let names = |js: &[usize]| {
                            js.iter()
                                .map(|&j| inst.jobs[j].name.clone())
                                .collect::<Vec<_>>()
                                .join(", ")
                        };
                        words.push(format!(
                            "{} tie on the {} key (resched orders them {}, the other {})",
                            names(&groups[g]),
                            priority,
                            names(&groups[g]),
                            names(&perms[g][c])
                        ));
                    }
                }
                return Some(words);
            }
        }
        let mut g = 0;
        loop {
            if g == groups.len() {
                return None;
            }
            choice[g] += 1;
            if choice[g] < perms[g].len() {
                break;
            }
            choice[g] = 0;
            g += 1;
        }
    }
}

/// Every permutation of `v`, the identity first.
fn permutations(v: &[usize]) -> Vec<Vec<usize>> {
    if v.len() <= 1 {
        return vec![v.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..v.len() {
        let mut rest = v.to_vec();
        let x = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, x);
            out.push(p);
        }
    }
    out
}

/// The oracle's run with the jobs renumbered so that `order[k]` is job k (index order breaks
/// the priority's ties in that order), with the allocation `alloc` when the algorithm is one
/// of the allocation rules, its schedule numbered back to the instance's jobs.
fn run_renumbered(
    spec: &AlgoSpec,
    criterion: Option<Criterion>,
    priority: Priority,
    inst: &Instance,
    sc: &Scenario,
    alloc: &[u32],
    order: &[usize],
) -> Option<Certified> {
    let jobs: Vec<Job> = order.iter().map(|&j| inst.jobs[j].clone()).collect();
    let pinst = Instance::new(inst.procs, jobs).ok()?;
    let psc = Scenario::new(order.iter().map(|&j| sc.failures[j]).collect());
    let mut run = match criterion {
        Some(_) => {
            let palloc: Vec<u32> = order.iter().map(|&j| alloc[j]).collect();
            let order = Order::Rule {
                priority,
                seed: spec.seed,
            };
            let mut list = List::new(&pinst, palloc, order, spec.label());
            oracle::certify::certify_scheduler(&mut list, "tie", &pinst, &psc).ok()?
        }
        None => oracle::certify(spec, &pinst, &psc).ok()?,
    };
    for a in &mut run.schedule.attempts {
        a.job = order[a.job];
    }
    Some(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::answer::Answer;
    use resched::model::{Profile, SpeedupModel};

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn makespan(m: &str) -> Reply {
        Reply {
            answer: Ok(Answer {
                makespan: Some(t(m)),
                schedule: None,
            }),
            stderr: String::new(),
        }
    }

    /// P = 6, one communication job w = 15/4, c = 1/2: t = 15/4, 19/8, 9/4, … and r(α, β) =
    /// 38/15 at both p = 1 and p = 2. LPA takes p = 1 (makespan 15/4); p = 2 (19/8) is the
    /// algorithm's answer under the other breaking of the tie; 9/4 (p = 3) is not.
    #[test]
    fn lpa_allocation_ties_explain_and_nothing_else_does() {
        let model = SpeedupModel::Communication {
            w: t("15/4"),
            c: t("1/2"),
        };
        let times = model.table(6, "x").unwrap_or_else(|e| panic!("{e}"));
        let job = Job {
            name: "J1".into(),
            profile: Profile::Moldable { model, times },
        };
        let inst = Instance::new(6, vec![job]).unwrap_or_else(|e| panic!("{e}"));
        let sc = Scenario::new(vec![0]);
        let spec = AlgoSpec::new("lpa-list");
        let rules = Rules::default();
        let ours = oracle::certify(&spec, &inst, &sc).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ours.makespan, t("15/4"));
        let why = explain(&spec, &inst, &sc, &makespan("19/8"), &rules);
        assert_eq!(
            why.as_deref(),
            Some("LPA's r(α, β) of J1 is 38/15 (≈2.533333) at p = 1, 2 (resched takes p = 1, the other p = 2)")
        );
        assert_eq!(explain(&spec, &inst, &sc, &makespan("9/4"), &rules), None);
        // settle: a mismatch without --ties, a tie with it.
        let reply = makespan("19/8");
        let v = compare::judge(&ours, &reply, &inst, &sc, &rules);
        let settled = settle(v.clone(), &spec, &inst, &sc, &reply, &rules);
        assert!(
            matches!(&settled, Verdict::Mismatch(m) if explained(m) && m.detail.contains("--ties reports it as a tie")),
            "{settled:?}"
        );
        let with = Rules {
            ties: true,
            ..Rules::default()
        };
        assert!(matches!(
            settle(v, &spec, &inst, &sc, &reply, &with),
            Verdict::Tie(_)
        ));
    }

    /// GREEDY/LPT on P = 2: J1 (1 processor, t = 2), J2 (2 processors, t = 2), J3 (1, t = 1).
    /// J1 and J2 tie on the LPT key. resched (J1 first) runs J1 and J3 at 0 and J2 at 2; J2
    /// first runs J2 at 0, then J1 and J3 at 2: the same makespan 4, other decisions, and a
    /// tie. A feasible schedule no tie-breaking gives (J3 alone at 2) is not.
    #[test]
    fn priority_ties_are_orders_among_equal_keys() {
        let inst = Instance::rigid(2, &[(1, t("2")), (2, t("2")), (1, t("1"))])
            .unwrap_or_else(|e| panic!("{e}"));
        let sc = Scenario::new(vec![0, 0, 0]);
        let spec = AlgoSpec::new("greedy");
        let ours = oracle::certify(&spec, &inst, &sc).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ours.makespan, t("4"));
        let schedule = |starts: [&str; 3]| {
            let text = format!(
                r#"{{"attempts": [{{"job": 0, "attempt": 1, "start": "{}", "procs": 1, "duration": 2}},
                {{"job": 1, "attempt": 1, "start": "{}", "procs": 2, "duration": 2}},
                {{"job": 2, "attempt": 1, "start": "{}", "procs": 1, "duration": 1}}]}}"#,
                starts[0], starts[1], starts[2]
            );
            Reply {
                answer: Ok(Answer {
                    makespan: None,
                    schedule: Some(
                        resched::model::Schedule::from_json_str(&text, "x")
                            .unwrap_or_else(|e| panic!("{e}")),
                    ),
                }),
                stderr: String::new(),
            }
        };
        let rules = Rules::default();
        let swapped = schedule(["2", "0", "2"]);
        assert!(matches!(
            compare::judge(&ours, &swapped, &inst, &sc, &rules),
            Verdict::Mismatch(_)
        ));
        assert_eq!(
            explain(&spec, &inst, &sc, &swapped, &rules).as_deref(),
            Some("J1, J2 tie on the LPT key (resched orders them J1, J2, the other J2, J1)")
        );
        assert_eq!(
            explain(&spec, &inst, &sc, &schedule(["0", "2", "4"]), &rules),
            None
        );
        assert_eq!(permutations(&[4, 7]), vec![vec![4, 7], vec![7, 4]]);
        assert_eq!(permutations(&[1, 2, 3]).len(), 6);
    }
}
