//! The golden corpus run on every algorithm — the way regex keeps one engine-independent test
//! suite for all its engines.
//!
//! Every case of `tests/cases/**/*.json` (schema: `tests/cases/README.md`,
//! [`resched::oracle::corpus`]) runs on every catalogue algorithm whose family accepts its jobs
//! (`catalogue::concrete_names()`) with every priority rule (the eight of `Priority::ALL` and
//! `index`), plus each pinned expectation with its own parameters, always through
//! `oracle::certify`. For every run:
//! - the checker accepts the schedule (a rejection is `Error::Disagree`);
//! - the makespan is ≥ the oracle's lower bound, ≥ the case's `lower_bound` and ≥ its `opt`;
//! - the recording-free `Prepared::makespan` equals the certified makespan;
//! - a pinned expectation matches exactly;
//! - the ratios the papers prove hold ([`proven`]): GREEDY ≤ (2 − 1/P) (rigid paper,
//!   Proposition 2) and R-LIST m ≥ 1 with LJF ≤ (3 − 4/(P+1)) (Proposition 1), both proven
//!   against L(f); LPA-LIST ≤ the model's bound (moldable paper Theorems 1, 2, 4, 6, 8), proven
//!   against L'(J,f); BATCH-LIST ≤ 2(1+ε)⌈log2(f_max+2)⌉ (Theorem 11), against OPT — each
//!   checked against the lower bound where the proof uses it, and against `opt` where the case
//!   has one.
//!
//! A case's `lower_bound` must be the oracle's bound exactly, and its `opt` is re-proved by
//! `opt::solve` (the exact search, and the ILP when its model is small). Failures are collected
//! over the whole corpus and reported together. `cargo test --test corpus -- --nocapture`
//! prints the number of runs and the time they took.
use resched::bounds;
use resched::bounds::moldable::{batch_bound, lpa_bound_instance};
use resched::model::{Instance, Scenario};
use resched::opt::{self, ilp, Method, OptConfig, OptResult, Status};
use resched::oracle::corpus::{self, Loaded};
use resched::oracle::{catalogue, certify, AlgoSpec, Bound, Certified, Prepared, CATALOGUE};
use resched::schedulers::moldable::Eps;
use resched::schedulers::Priority;
use resched::{Error, Time};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// The rules every algorithm is run with: the paper's seven, LJF and the job order.
const PRIORITIES: [Priority; 9] = [
    Priority::Lpt,
    Priority::Spt,
    Priority::Hpa,
    Priority::Lpa,
    Priority::La,
    Priority::Sa,
    Priority::Random,
    Priority::Ljf,
    Priority::Index,
];

/// Largest ILP (binary variables) the opt check solves besides the exact search. The size says
/// little about microlp's time (an adversarial case of 140 binaries can take longer than
/// Section 4.7's 1,169), hence its 30 s limit, after which the ILP's bounds must still enclose
/// `opt`.
const ILP_MAX_VARS: usize = 2_500;

fn corpus() -> Vec<Loaded> {
    let dir = crate::support::repo().join("tests/cases");
    let cases = corpus::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        cases.len() >= 30,
        "only {} cases in {}",
        cases.len(),
        dir.display()
    );
    cases
}

/// One run of the plan: a case, a spec, and the pinned expectations it answers.
struct Run {
    case: usize,
    spec: AlgoSpec,
    pins: Vec<usize>,
}

/// Every run the corpus makes: each applicable catalogue algorithm × [`PRIORITIES`] on every
/// case, and each pinned expectation (sharing a sweep run when its spec is the same).
fn plan(cases: &[Loaded]) -> Vec<Run> {
    let mut runs = Vec::new();
    for (c, case) in cases.iter().enumerate() {
        let first = runs.len();
        for name in catalogue::concrete_names() {
            let entry = catalogue::parse(&name)
                .unwrap_or_else(|e| panic!("{e}"))
                .entry;
            if !entry.family.accepts(&case.instance) {
                continue;
            }
            for p in PRIORITIES {
                let spec = AlgoSpec::new(name.as_str()).with_priority(p);
                runs.push(Run {
                    case: c,
                    spec,
                    pins: Vec::new(),
                });
            }
        }
        for (i, spec) in case.specs.iter().enumerate() {
            match runs[first..].iter_mut().find(|r| r.spec == *spec) {
                Some(r) => r.pins.push(i),
                None => runs.push(Run {
                    case: c,
                    spec: spec.clone(),
                    pins: vec![i],
                }),
            }
        }
    }
    runs
}

/// `file: name/PRIORITY[ ε=…][ seed=…]`, as failures are reported.
fn label(case: &Loaded, spec: &AlgoSpec) -> String {
    let mut s = format!("{}: {}", case.file, spec.label());
    if let Some(eps) = &spec.eps {
        s.push_str(&format!(" ε={eps}"));
    }
    if spec.seed != 0 {
        s.push_str(&format!(" seed={}", spec.seed));
    }
    s
}

/// A proven ratio: the statement, the ratio, and whether its proof bounds the makespan by the
/// lower bound (L(f) or L'(J,f)) and not only by OPT.
struct Proven {
    statement: &'static str,
    ratio: Time,
    vs_lower: bool,
}

/// The papers' proven ratios that apply to a run of `spec` (canonical name `canonical`).
fn proven(spec: &AlgoSpec, canonical: &str, inst: &Instance, sc: &Scenario) -> Vec<Proven> {
    let mut out = Vec::new();
    let p = inst.procs;
    match canonical {
        "greedy" => out.push(Proven {
            statement: "rigid Proposition 2: GREEDY ≤ (2 − 1/P)",
            ratio: bounds::greedy_ratio(p),
            vs_lower: true,
        }),
        "easy" | "conservative" | "r-list:<m>" if spec.priority == Some(Priority::Ljf) => {
            out.push(Proven {
                statement: "rigid Proposition 1: R-LIST (m ≥ 1) with LJF ≤ (3 − 4/(P+1))",
                ratio: bounds::reservation_ratio(p),
                vs_lower: true,
            })
        }
        "lpa-list" => {
            if let Some(ratio) = lpa_bound_instance(inst) {
                out.push(Proven {
                    statement: "moldable Theorems 1, 2, 4, 6, 8: LPA-LIST ≤ the model's bound",
                    ratio,
                    vs_lower: true,
                });
            }
        }
        "batch-list" => {
            let eps = Eps::or_paper(spec.eps.as_ref()).unwrap().get().clone();
            let fmax = sc.failures.iter().copied().max().unwrap_or(0);
            out.push(Proven {
                statement: "moldable Theorem 11: BATCH-LIST ≤ 2(1+ε)⌈log2(f_max+2)⌉",
                ratio: batch_bound(&eps, fmax),
                vs_lower: false,
            });
        }
        _ => {}
    }
    out
}

/// Certifies one run and returns what is wrong with it (empty when all holds).
fn judge(case: &Loaded, run: &Run) -> Vec<String> {
    let (inst, sc) = (&case.instance, &case.scenario);
    let (cert, fast) = match Prepared::new(&run.spec, inst).and_then(|mut p| {
        let cert = p.certify(inst, sc)?;
        let fast = p.makespan(inst, sc)?;
        Ok((cert, fast))
    }) {
        Ok(x) => x,
        Err(e) => return vec![e.to_string()],
    };
    let mut bad = Vec::new();
    if fast != cert.makespan {
        bad.push(format!(
            "Prepared::makespan {fast} ≠ certified {}",
            cert.makespan
        ));
    }
    bad.extend(below_bounds(case, &cert));
    bad.extend(ratios(case, &run.spec, &cert));
    for &i in &run.pins {
        let e = &case.case.expect[i];
        if cert.makespan != e.makespan {
            bad.push(format!(
                "makespan {} but expect[{i}] pins {} ({})",
                cert.makespan, e.makespan, e.why
            ));
        }
    }
    bad
}

/// The makespan is at least the oracle's lower bound and the case's `opt`.
fn below_bounds(case: &Loaded, cert: &Certified) -> Vec<String> {
    let m = &cert.makespan;
    let mut bad = Vec::new();
    let lower = &cert.bound.lower;
    let opt = case.case.opt.as_ref().map(|o| &o.makespan);
    for (what, b) in [("the oracle's bound", Some(lower)), ("opt", opt)] {
        if b.is_some_and(|b| m < b) {
            bad.push(format!(
                "makespan {m} below {what} {}",
                b.cloned().unwrap_or_default()
            ));
        }
    }
    bad
}

/// Checks the proven ratios of a run against the lower bound and OPT.
fn ratios(case: &Loaded, spec: &AlgoSpec, cert: &Certified) -> Vec<String> {
    let m = &cert.makespan;
    let opt = case.case.opt.as_ref().map(|o| &o.makespan);
    let mut bad = Vec::new();
    for p in proven(spec, cert.canonical, &case.instance, &case.scenario) {
        let mut against = vec![];
        if p.vs_lower {
            against.push((cert.bound.symbol(), cert.bound.lower.clone()));
        }
        if let Some(o) = opt {
            against.push(("OPT", o.clone()));
        }
        for (name, v) in against {
            let cap = &p.ratio * &v;
            if *m > cap {
                bad.push(format!(
                    "{}: makespan {m} > {}·{name} = {cap}",
                    p.statement, p.ratio
                ));
            }
        }
    }
    bad
}

#[test]
fn every_case_on_every_algorithm() {
    let cases = corpus();
    let runs = plan(&cases);
    let started = Instant::now();
    let mut failures = Vec::new();
    for case in &cases {
        failures.extend(check_case_bound(case));
    }
    for run in &runs {
        let case = &cases[run.case];
        let bad = judge(case, run);
        failures.extend(
            bad.into_iter()
                .map(|b| format!("{}: {b}", label(case, &run.spec))),
        );
    }
    let pins: usize = runs.iter().map(|r| r.pins.len()).sum();
    println!(
        "corpus: {} cases, {} (case, algorithm, priority) runs ({pins} pinned) in {:.2?}",
        cases.len(),
        runs.len(),
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A case's `lower_bound` is the oracle's bound, exactly, and at most its `opt`.
fn check_case_bound(case: &Loaded) -> Vec<String> {
    let mut bad = Vec::new();
    let b = match Bound::of(&case.instance, &case.scenario) {
        Ok(b) => b,
        Err(e) => return vec![format!("{}: {e}", case.file)],
    };
    if let Some(lb) = &case.case.lower_bound {
        if *lb != b.lower {
            bad.push(format!(
                "{}: lower_bound {lb} but {} = {}",
                case.file,
                b.symbol(),
                b.lower
            ));
        }
    }
    if let Some(o) = &case.case.opt {
        if o.makespan < b.lower {
            bad.push(format!(
                "{}: opt {} below {} = {}",
                case.file,
                o.makespan,
                b.symbol(),
                b.lower
            ));
        }
    }
    bad
}

/// Every `opt` is re-proved: by the exact search, and by the ILP when its model is small. An
/// instance whose times the solver cannot scale (power speedups: irrational t(p) made rational
/// with large denominators) is proved instead by its bound: `opt` must equal the oracle's lower
/// bound and some certified run must reach it, so L ≤ OPT ≤ that run = L.
#[test]
fn every_opt_is_proven() {
    let cases = corpus();
    let started = Instant::now();
    let mut failures = Vec::new();
    let (mut searched, mut by_bound, mut ilp, mut ilp_open) = (0, 0, 0, 0);
    for case in &cases {
        let Some(want) = case.case.opt.as_ref().map(|o| &o.makespan) else {
            continue;
        };
        let t0 = Instant::now();
        let cfg = OptConfig {
            time_limit: Duration::from_secs(60),
            ..OptConfig::with_method(Method::Search)
        };
        match opt::solve(&case.instance, &case.scenario, &cfg) {
            Err(Error::Limit(why)) => {
                by_bound += 1;
                failures.extend(opt_by_bound(case, want, &why));
            }
            r => {
                searched += 1;
                failures.extend(compare_opt(case, "search", r, want));
            }
        }
        // microlp in every build: its limits are the ones ILP_MAX_VARS was sized for.
        let cfg = OptConfig {
            backend: ilp::Backend::Microlp,
            ilp_max_vars: Some(ILP_MAX_VARS),
            time_limit: Duration::from_secs(30),
            ..OptConfig::with_method(Method::Ilp)
        };
        let r = opt::solve(&case.instance, &case.scenario, &cfg);
        let vars = r.as_ref().map(|r| r.stats.ilp_vars).unwrap_or(0);
        match r {
            Err(Error::Limit(_)) => {}
            // microlp may not close a model within its time limit: its bounds must still
            // enclose the stated optimum.
            Ok(r) if r.status != Status::Optimal => {
                ilp_open += 1;
                if !(r.lower_bound() <= want && *want <= r.makespan) {
                    failures.push(format!(
                        "{}: opt {want} outside the ILP's [{}, {}]",
                        case.file,
                        r.lower_bound(),
                        r.makespan
                    ));
                }
            }
            r => {
                ilp += 1;
                failures.extend(compare_opt(case, "ILP", r, want));
            }
        }
        println!(
            "{}: opt {want} in {:.2?} (ILP: {vars} binaries)",
            case.file,
            t0.elapsed()
        );
    }
    println!(
        "corpus: {searched} optima proved by the search ({ilp} also by the ILP, {ilp_open} within \
         the ILP's open bounds), {by_bound} by their bound, in {:.2?}",
        started.elapsed()
    );
    assert!(searched >= 10, "only {searched} cases state opt");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Compares a solver's answer with the case's `opt`; its schedule is re-checked.
fn compare_opt(
    case: &Loaded,
    method: &str,
    r: resched::Result<OptResult>,
    want: &Time,
) -> Vec<String> {
    let what = format!("{}: opt ({method})", case.file);
    match r {
        Err(e) => vec![format!("{what}: {e}")],
        Ok(r) if r.status != Status::Optimal => {
            vec![format!(
                "{what}: not proven within the limits ({:?})",
                r.status
            )]
        }
        Ok(r) if r.makespan != *want => {
            vec![format!("{what}: {} but the case states {want}", r.makespan)]
        }
        Ok(r) => match resched::check::check(&case.instance, &case.scenario, &r.schedule) {
            Ok(m) if m == r.makespan => vec![],
            Ok(m) => vec![format!(
                "{what}: the checker finds {m}, the solver {}",
                r.makespan
            )],
            Err(v) => vec![format!(
                "{what}: the checker rejects the optimal schedule: {v}"
            )],
        },
    }
}

/// `opt` proved without the solver: it equals the lower bound and a certified run reaches it.
fn opt_by_bound(case: &Loaded, want: &Time, why: &str) -> Vec<String> {
    let what = format!("{}: opt {want} (the solver refuses: {why})", case.file);
    match Bound::of(&case.instance, &case.scenario) {
        Ok(b) if b.lower == *want => {}
        Ok(b) => return vec![format!("{what}: not the lower bound {}", b.lower)],
        Err(e) => return vec![format!("{what}: {e}")],
    }
    let reached = plan(std::slice::from_ref(case)).iter().any(|run| {
        certify(&run.spec, &case.instance, &case.scenario).is_ok_and(|c| c.makespan == *want)
    });
    if reached {
        vec![]
    } else {
        vec![format!(
            "{what}: no algorithm's certified schedule reaches it"
        )]
    }
}

/// Adding a scheduler without a corpus run fails here: every catalogue entry (parametric ones
/// through `concrete_names`) is run on at least one case, and both families have cases.
#[test]
fn every_catalogue_entry_is_run() {
    let cases = corpus();
    let runs = plan(&cases);
    let ran: BTreeSet<&str> = runs
        .iter()
        .filter_map(|r| catalogue::parse(&r.spec.name).ok())
        .map(|r| r.entry.name)
        .collect();
    let missing: Vec<&str> = CATALOGUE
        .iter()
        .map(|e| e.name)
        .filter(|n| !ran.contains(n))
        .collect();
    assert!(
        missing.is_empty(),
        "never run on a corpus case: {missing:?}"
    );
    assert!(cases.iter().any(|c| c.instance.is_rigid()));
    assert!(cases.iter().any(|c| !c.instance.is_rigid()));
    let pinned: BTreeSet<&str> = cases
        .iter()
        .flat_map(|c| &c.specs)
        .filter_map(|s| catalogue::parse(&s.name).ok())
        .map(|r| r.entry.name)
        .collect();
    let unpinned: Vec<&str> = CATALOGUE
        .iter()
        .map(|e| e.name)
        .filter(|n| !pinned.contains(n))
        .collect();
    assert!(
        unpinned.is_empty(),
        "no pinned expectation for {unpinned:?}"
    );
}

/// Every pinned name resolves (the loader refuses a case otherwise, naming the field): a typo in
/// a copy of a real case is refused.
#[test]
fn every_pinned_name_resolves() {
    let cases = corpus();
    for case in &cases {
        for (e, s) in case.case.expect.iter().zip(&case.specs) {
            assert!(
                catalogue::parse(&e.algorithm).is_ok(),
                "{}: {}",
                case.file,
                e.algorithm
            );
            assert_eq!(s.name, e.algorithm);
        }
    }
    let case = cases
        .iter()
        .find(|c| !c.case.expect.is_empty())
        .unwrap_or_else(|| panic!("no pinned case"));
    let mut typo = case.case.clone();
    typo.expect[0].algorithm.push('x');
    let e = typo
        .validate("typo.json")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.contains("typo.json") && e.contains("`expect[0].algorithm`"),
        "{e}"
    );
}

/// The full example of `tests/cases/README.md` is the case file it names, byte for byte.
#[test]
fn the_readme_example_is_a_real_case() {
    let dir = crate::support::repo().join("tests/cases");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap_or_else(|e| panic!("{e}"));
    let example = readme
        .split("```json\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .unwrap_or_else(|| panic!("no JSON example in the README"));
    let file = std::fs::read_to_string(dir.join("opt_two_wide_jobs.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(example, file);
    corpus::parse(example, "README.md").unwrap_or_else(|e| panic!("{e}"));
}

/// The case schema's `format_version`: every case of the corpus gives none and is
/// read as version 1; version 1 and a `resched` object (the build that wrote the case) are
/// accepted; a newer version is refused naming the file and the field, also when the newer case
/// has fields this build does not know.
#[test]
fn a_newer_case_format_is_refused_and_an_absent_one_is_1() {
    let cases = corpus();
    assert!(cases.iter().all(|c| c.case.format_version.is_none()));
    let dir = crate::support::repo().join("tests/cases");
    let text = std::fs::read_to_string(dir.join("opt_two_wide_jobs.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let with = |fields: &str| text.replacen('{', &format!("{{{fields}"), 1);
    let stamped = with(
        r#""format_version": 1, "resched": {"version": "0.2.0", "commit": "abc", "dirty": false}, "#,
    );
    let l = corpus::parse(&stamped, "v1.json").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.case.format_version, Some(1));
    let back = corpus::parse(&l.case.to_json().unwrap_or_default(), "back.json")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.case.resched, l.case.resched);
    let want = "v2.json: field `format_version`: version 2 is newer than this resched reads (1); \
                upgrade resched";
    for fields in [
        r#""format_version": 2, "#,
        r#""format_version": 2, "tags": ["x"], "#,
    ] {
        let e = corpus::parse(&with(fields), "v2.json")
            .err()
            .map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some(want), "{fields}");
    }
    // A case that resched writes says its version.
    let inst = Instance::rigid(2, &[(1, Time::one())]).unwrap_or_else(|e| panic!("{e}"));
    let case = corpus::Case::new("x", &inst, &Scenario::none(1)).unwrap_or_else(|e| panic!("{e}"));
    let json = case.to_json().unwrap_or_default();
    assert!(json.starts_with("{\n  \"format_version\": 1,\n"), "{json}");
}
