//! Campaign mode of `resched diff`: many cases on several workers, past the first mismatch,
//! with one shrunk counterexample per distinct failure signature, each re-checked in a fresh
//! process.
//!
//! The cases are the seed's drawn cases or the files of a corpus folder ([`Item`]). `workers`
//! threads each own an [`External`] (a process per case, or a JSONL session of its own) and
//! take the next case from a shared counter; the main thread takes their results back in case
//! order, so counts, classes, signatures and which mismatch is shrunk do not depend on the number
//! of workers (for a program whose answers do not depend on what it was asked before). Without
//! `keep_going` the campaign stops at the first mismatch in case order, as the sequential search
//! does ([`super::run::search`]).
//!
//! A mismatch's *signature* is its algorithm and the family of its kind (the families
//! [`super::compare::Kind::same_bug`] keeps while shrinking: a wrong makespan or other decisions;
//! an infeasible schedule; an inconsistent one; a crash, garbage or a refusal; a timeout). The
//! first mismatch of each signature is shrunk with a fresh program, then run once more in
//! another fresh program: when that run does not show the same family of mismatch, the
//! counterexample is *flaky* (the program's answer depends on something else than the case,
//! such as what it was asked before).
use super::compare::{Kind, Verdict};
use super::external::External;
use super::run::{self, Algo, Config, Found, Stats, Trial};
use resched::error::{Error, Result};
use resched::model::arbitrary::Case;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// One case of a campaign and the algorithms to compare on it (indices into `Config::algos`).
#[derive(Debug, Clone)]
pub struct Item {
    /// The case number passed as `{case}`: the drawn case's, or the file's index in the corpus.
    pub number: u64,
    /// The corpus file, for corpus items.
    pub file: Option<PathBuf>,
    pub case: Case,
    pub algos: Vec<usize>,
}

/// Where a campaign's cases come from.
pub enum Source {
    /// The seed's cases `Config::only` or `0..Config::cases`, every algorithm on each.
    Drawn,
    /// Files of a corpus folder, read by [`corpus`].
    Corpus(Vec<Item>),
}

/// How a campaign runs.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub keep_going: bool,
    pub workers: usize,
}

/// The first (in case order) mismatch of one signature, shrunk and re-checked.
#[derive(Debug)]
pub struct Signature {
    /// `greedy/LPT makespan-or-decisions`.
    pub key: String,
    /// Mismatches with this signature.
    pub count: u64,
    pub found: Found,
    /// The corpus file of the case, for corpus items.
    pub file: Option<PathBuf>,
    /// The shrunk case did not show the same family of mismatch in a fresh process.
    pub flaky: bool,
    /// What the fresh run gave, in words.
    pub recheck: String,
}

/// What a campaign found.
#[derive(Debug)]
pub struct Report {
    pub stats: Stats,
    /// Comparisons that were mismatches, and cases with at least one.
    pub mismatches: u64,
    pub mismatched_cases: u64,
    /// Mismatches by kind (`makespan`, `crash`, …).
    pub kinds: BTreeMap<&'static str, u64>,
    /// One per distinct signature, in the order of their first occurrence.
    pub signatures: Vec<Signature>,
}

/// The family name of a kind ([`Kind::same_bug`]'s classes).
pub fn family(k: Kind) -> &'static str {
    match k {
        Kind::Makespan | Kind::Decisions => "makespan-or-decisions",
        Kind::Infeasible => "infeasible",
        Kind::Inconsistent => "inconsistent",
        Kind::Crash | Kind::Garbage | Kind::Refused => "crash-garbage-or-refused",
        Kind::Timeout => "timeout",
    }
}

/// The results of one item: each algorithm's trial, in order (up to the first mismatch unless
/// keeping going).
type Evaluated = Result<(Item, Vec<(usize, Trial)>)>;

/// Runs a campaign. `make` starts a fresh connection to the other implementation (one per
/// worker, one per shrink, one per re-check); `progress` is called after every case, in order.
pub fn run(
    cfg: &Config,
    source: &Source,
    opts: Options,
    make: &(dyn Fn() -> Result<External> + Sync),
    progress: &mut dyn FnMut(&Stats, u64),
) -> Result<Report> {
    let t0 = Instant::now();
    let count = match source {
        Source::Drawn => match cfg.only {
            Some(_) => 1,
            None => usize::try_from(cfg.cases)
                .map_err(|_| Error::param("cases", "more cases than this machine can count"))?,
        },
        Source::Corpus(items) => items.len(),
    };
    let item = |i: usize| -> Result<Item> {
        match source {
            Source::Drawn => {
                // default: case i of 0..cases when no single case is asked for
                let number = cfg.only.unwrap_or(i as u64);
                Ok(Item {
                    number,
                    file: None,
                    case: cfg.scope.draw(cfg.seed, number)?,
                    algos: (0..cfg.algos.len()).collect(),
                })
            }
            Source::Corpus(items) => Ok(items[i].clone()),
        }
    };
    let workers = opts.workers.clamp(1, count.max(1));
    let mut exts = (0..workers).map(|_| make()).collect::<Result<Vec<_>>>()?;
    let next = AtomicUsize::new(0);
    // Items past this one are not started (the first mismatch or error, in case order).
    let stop = AtomicUsize::new(usize::MAX);
    let mut report = Report {
        stats: Stats::default(),
        mismatches: 0,
        mismatched_cases: 0,
        kinds: BTreeMap::new(),
        signatures: Vec::new(),
    };
    // The first mismatch of each signature, before shrinking: (key, count, item, algo, trial).
    let mut firsts: Vec<(String, u64, Item, usize, Trial)> = Vec::new();
    let mut failed: Option<Error> = None;
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, Evaluated)>();
        for ext in exts.iter_mut() {
            let tx = tx.clone();
            let (next, stop, item) = (&next, &stop, &item);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= count || i > stop.load(Ordering::SeqCst) {
                    break;
                }
                let r = evaluate(cfg, item(i), ext, opts.keep_going);
                let halt = match &r {
                    Ok((_, trials)) => {
                        !opts.keep_going && trials.iter().any(|(_, t)| t.mismatch().is_some())
                    }
                    Err(_) => true,
                };
                if halt {
                    stop.fetch_min(i, Ordering::SeqCst);
                }
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut at = 0usize;
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&at) {
                if at > stop.load(Ordering::SeqCst) || failed.is_some() {
                    break;
                }
                at += 1;
                let (it, trials) = match r {
                    Ok(x) => x,
                    Err(e) => {
                        failed = Some(e);
                        stop.store(0, Ordering::SeqCst);
                        break;
                    }
                };
                report.stats.cases += 1;
                let mut any = false;
                for (k, t) in trials {
                    report.stats.runs += 1;
                    if t.reply.answer.as_ref().is_ok_and(|a| a.schedule.is_some()) {
                        report.stats.schedules += 1;
                    }
                    let algo = &cfg.algos[k];
                    match &t.verdict {
                        Verdict::Agree => report.stats.agree += 1,
                        Verdict::Note(d) => {
                            report.stats.notes += 1;
                            if report.stats.first_notes.len() < 3 {
                                report.stats.first_notes.push(format!(
                                    "{}, {}: {d}",
                                    where_(&it),
                                    algo.label()
                                ));
                            }
                        }
                        Verdict::Tie(d) => {
                            report.stats.ties += 1;
                            if report.stats.first_ties.len() < 3 {
                                report.stats.first_ties.push(format!(
                                    "{}, {}: {d}",
                                    where_(&it),
                                    algo.label()
                                ));
                            }
                        }
                        Verdict::Mismatch(m) => {
                            any = true;
                            report.mismatches += 1;
                            *report.kinds.entry(m.kind.name()).or_insert(0) += 1;
                            let key = format!("{} {}", algo.label(), family(m.kind));
                            match firsts.iter_mut().find(|f| f.0 == key) {
                                Some(f) => f.1 += 1,
                                None => firsts.push((key, 1, it.clone(), k, t.clone())),
                            }
                        }
                    }
                }
                report.mismatched_cases += u64::from(any);
                report.stats.elapsed = t0.elapsed();
                progress(&report.stats, report.mismatches);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    report.stats.elapsed = t0.elapsed();
    drop(exts);
    for (key, n, it, k, first) in firsts {
        let mut ext = make()?;
        let found = run::shrink_found(cfg, &mut ext, it.number, k, it.case.clone(), first)?;
        drop(ext);
        let (flaky, recheck) = recheck(cfg, &found, make)?;
        report.signatures.push(Signature {
            key,
            count: n,
            found,
            file: it.file,
            flaky,
            recheck,
        });
    }
    Ok(report)
}

/// `case 7` or the corpus file's path.
fn where_(it: &Item) -> String {
    match &it.file {
        Some(f) => f.display().to_string(),
        None => format!("case {}", it.number),
    }
}

fn evaluate(cfg: &Config, item: Result<Item>, ext: &mut External, keep_going: bool) -> Evaluated {
    let item = item?;
    let mut out = Vec::new();
    for &k in &item.algos {
        let algo = &cfg.algos[k];
        let t = run::trial(&item.case, algo, item.number, ext, &cfg.rules)
            .map_err(|e| run::in_case(e, item.number, algo))?;
        let mismatch = t.mismatch().is_some();
        out.push((k, t));
        if mismatch && !keep_going {
            break;
        }
    }
    Ok((item, out))
}

/// Runs a found mismatch's shrunk case once in a fresh program: flaky when it does not show the
/// same family of mismatch; and what it gave, in words.
pub fn recheck(
    cfg: &Config,
    found: &Found,
    make: &(dyn Fn() -> Result<External> + Sync),
) -> Result<(bool, String)> {
    let algo = &cfg.algos[found.algo];
    let kind = found.shrunk.trial.mismatch().map(|m| m.kind);
    let mut ext = make()?;
    let t = run::trial(&found.shrunk.case, algo, found.case, &mut ext, &cfg.rules)?;
    let said = match &t.verdict {
        Verdict::Agree => "agree".to_string(),
        Verdict::Note(d) => format!("same makespan, other decisions: {d}"),
        Verdict::Tie(d) => format!("a tie: {d}"),
        Verdict::Mismatch(m) => format!("{}: {}", m.kind.name(), m.detail),
    };
    let same = matches!((t.mismatch(), kind), (Some(m), Some(k)) if m.kind.same_bug(k));
    Ok((!same, said))
}

/// The cases of a corpus folder: every `*.json` file under `dir` (subfolders included) but the
/// `.instance.json` and `.scenario.json` files a counterexample has beside it, in path order;
/// each is a golden case (`tests/cases/`) or a counterexample file, and each of its
/// expectations' algorithms is compared. The algorithms are appended to `algos` (once each).
pub fn corpus(dir: &Path, algos: &mut Vec<Algo>) -> Result<Vec<Item>> {
    let mut files = Vec::new();
    collect(dir, 0, &mut files)?;
    files.sort();
    if files.is_empty() {
        return Err(Error::param(
            "corpus",
            format!("{}: no case files (*.json)", dir.display()),
        ));
    }
    let mut items = Vec::new();
    for (n, f) in files.into_iter().enumerate() {
        let loaded = resched::oracle::corpus::load(&f)?;
        let name = f.display().to_string();
        let mut ks = Vec::new();
        for (i, (e, spec)) in loaded.case.expect.iter().zip(&loaded.specs).enumerate() {
            // default: LPT is the documented default priority
            let priority = spec.priority.unwrap_or(resched::schedulers::Priority::Lpt);
            let a =
                Algo::new(&e.algorithm, priority, spec.seed, spec.eps.as_ref()).map_err(|err| {
                    Error::invalid(&name, format!("expect[{i}].algorithm"), err.to_string())
                })?;
            let k = match algos.iter().position(|b| b == &a) {
                Some(k) => k,
                None => {
                    algos.push(a);
                    algos.len() - 1
                }
            };
            if !ks.contains(&k) {
                ks.push(k);
            }
        }
        items.push(Item {
            number: n as u64,
            file: Some(f),
            case: Case {
                instance: loaded.instance,
                scenario: loaded.scenario,
            },
            algos: ks,
        });
    }
    Ok(items)
}

/// Most corpus files, and how deep its folders may nest.
const MAX_FILES: usize = 100_000;
const MAX_DEPTH: usize = 8;

fn collect(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::Limit(format!(
            "{}: corpus folders nest deeper than {MAX_DEPTH}",
            dir.display()
        )));
    }
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let path = entry.map_err(|e| Error::io(dir, e))?.path();
        let name = path.to_string_lossy();
        if path.is_dir() {
            collect(&path, depth + 1, out)?;
        } else if name.ends_with(".json")
            && !name.ends_with(".instance.json")
            && !name.ends_with(".scenario.json")
        {
            if out.len() == MAX_FILES {
                return Err(Error::Limit(format!(
                    "{}: more than {MAX_FILES} case files",
                    dir.display()
                )));
            }
            out.push(path);
        }
    }
    Ok(())
}
