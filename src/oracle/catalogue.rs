//! The algorithm catalogue: every scheduler resched implements, as one typed table.
//!
//! An [`Entry`] gives an algorithm's canonical name, its aliases, the paper and section that
//! define it, the label the paper's tables use, its [`Family`] (which jobs it accepts), the
//! parameters it takes, and a typed [`Algo`] that builds it. Everything that names an algorithm
//! — the CLI's `--algo`, the campaigns' tables, the ledger, the golden corpus, `diff` and
//! `batch` — resolves the name here ([`parse`]) and builds through [`Algo::build`]; adding a
//! scheduler means one entry in [`CATALOGUE`] and one arm in [`Algo::build`], and the compiler
//! (the exhaustive `match`) points at the rest.
//!
//! Two entries are *parametric*: `r-list:<m>` and `r-list:<m>:kept` take R-LIST's number of
//! reservations m (an integer ≥ 0 or `q` for m = |Q|) inside the name, as Algorithm 1 of the
//! rigid paper does. Names are case-insensitive.
use crate::engine::Scheduler;
use crate::error::{Error, Result};
use crate::model::Instance;
use crate::schedulers::moldable::{self, mt_allotment::ChainCounts, Order};
use crate::schedulers::priority::Priority;
use crate::schedulers::rlist::{self, Reservations};
use crate::schedulers::shelf;
use crate::time::Time;

/// Which paper defines an algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// Benoit et al., *Resilient Scheduling Heuristics for Rigid Parallel Jobs* (IJNC 2021).
    Rigid,
    /// Benoit et al., *Resilient Scheduling of Moldable Parallel Jobs to Cope with Silent Errors*.
    Moldable,
}

impl Paper {
    /// A short citation.
    pub fn cite(self) -> &'static str {
        match self {
            Paper::Rigid => "rigid paper (Benoit et al., IJNC 2021)",
            Paper::Moldable => "moldable paper (Benoit et al.)",
        }
    }
}

/// Which jobs an algorithm schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Rigid jobs only (a fixed processor count per job).
    Rigid,
    /// Moldable jobs; rigid jobs are moldable jobs with one allowed count, so these accept both.
    Either,
}

impl Family {
    /// Whether an algorithm of this family can schedule `inst`.
    pub fn accepts(self, inst: &Instance) -> bool {
        match self {
            Family::Rigid => inst.is_rigid(),
            Family::Either => true,
        }
    }
}

/// A parameter an algorithm takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// The priority rule of the queue ([`Params::priority`], default LPT); RANDOM also reads
    /// the seed.
    Priority,
    /// R-LIST's number of reservations m, written in the name (`r-list:<m>`).
    Reservations,
    /// BATCH-LIST's ε of MT-ALLOTMENT ([`Params::eps`], exact, > 0; default 3/10).
    Eps,
}

impl Param {
    /// The parameter as the library names it: the [`Params`] field, or the name part that
    /// sets it.
    pub fn name(self) -> &'static str {
        match self {
            Param::Priority => "priority",
            Param::Reservations => "m in r-list:<m>",
            Param::Eps => "eps",
        }
    }
}

/// The number of reservations of R-LIST: m ≥ 0, or m = |Q| (conservative backfilling).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backfill {
    M(usize),
    Queue,
}

impl Backfill {
    fn as_usize(self) -> usize {
        match self {
            Backfill::M(m) => m,
            Backfill::Queue => usize::MAX,
        }
    }

    fn parse(s: &str) -> Option<Backfill> {
        if s == "q" {
            Some(Backfill::Queue)
        } else {
            s.parse().ok().map(Backfill::M)
        }
    }
}

/// A typed algorithm: what [`Algo::build`] turns into a scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algo {
    /// R-LIST(m), rigid paper Algorithm 1, with its reservations recomputed (Section 4.1) or kept.
    RList {
        m: Backfill,
        reservations: Reservations,
    },
    /// R-SHELF(b) / R-SHELFFILL(b), rigid paper Algorithms 2 and 3.
    Shelf { fill: bool, backfill: bool },
    /// LIST with the LPA allocation (moldable paper Algorithms 1 and 2).
    LpaList,
    /// LIST with each job's fastest allocation (moldable paper Section 5.1).
    MinTime,
    /// LIST with each job's least-area allocation (moldable paper Section 5.1).
    MinArea,
    /// BATCH-LIST with MT-ALLOTMENT (moldable paper Section 4.4).
    BatchList { counts: ChainCounts },
    /// BATCH-LIST with MT-ALLOTMENT as the authors' simulator implements it
    /// ([`moldable::mt_published`]).
    BatchListPublished,
}

/// One algorithm of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// Canonical name (what `--algo` prints back and the corpus writes).
    pub name: &'static str,
    /// Other accepted spellings (the papers' own among them).
    pub aliases: &'static [&'static str],
    pub paper: Paper,
    /// Section, algorithm or proposition of the paper.
    pub section: &'static str,
    /// The label the paper's tables and figures use (campaign columns).
    pub label: &'static str,
    pub family: Family,
    pub params: &'static [Param],
    /// One line on what it does.
    pub summary: &'static str,
    /// The algorithm; for a parametric entry, its value with m = 0 (the name sets m).
    pub algo: Algo,
    /// Whether the name carries a parameter (`r-list:<m>`).
    pub parametric: bool,
    /// Whether the paper's own evaluation (its Section 5) runs it.
    pub evaluated: bool,
}

const RIGID_PARAMS: &[Param] = &[Param::Priority];
const RLIST_M_PARAMS: &[Param] = &[Param::Priority, Param::Reservations];
const BATCH_PARAMS: &[Param] = &[Param::Priority, Param::Eps];

const fn rlist(m: Backfill, reservations: Reservations) -> Algo {
    Algo::RList { m, reservations }
}

const fn rigid(
    name: &'static str,
    aliases: &'static [&'static str],
    section: &'static str,
    label: &'static str,
    summary: &'static str,
    algo: Algo,
) -> Entry {
    Entry {
        name,
        aliases,
        paper: Paper::Rigid,
        section,
        label,
        family: Family::Rigid,
        params: RIGID_PARAMS,
        summary,
        algo,
        parametric: false,
        evaluated: !matches!(
            algo,
            Algo::RList {
                reservations: Reservations::Kept,
                ..
            } | Algo::BatchList {
                counts: ChainCounts::Uniform
            }
        ),
    }
}

/// A moldable paper entry: the rigid one's fields, with the moldable paper, both kinds of jobs,
/// and ε for BATCH-LIST.
const fn moldable(
    name: &'static str,
    aliases: &'static [&'static str],
    section: &'static str,
    label: &'static str,
    summary: &'static str,
    algo: Algo,
) -> Entry {
    let params = match algo {
        Algo::BatchList { .. } | Algo::BatchListPublished => BATCH_PARAMS,
        _ => RIGID_PARAMS,
    };
    Entry {
        paper: Paper::Moldable,
        family: Family::Either,
        params,
        ..rigid(name, aliases, section, label, summary, algo)
    }
}

/// Every algorithm, in the order the papers present them.
pub const CATALOGUE: &[Entry] = &[
    rigid(
        "greedy",
        &["r-list-0", "r-list:0"],
        "Section 4.1, Algorithm 1 with m = 0; Section 4.2.2, Proposition 2 (≤ (2 − 1/P)·OPT)",
        "R-List-0",
        "R-LIST without reservations: start every queued job that fits",
        rlist(Backfill::M(0), Reservations::Recomputed),
    ),
    rigid(
        "easy",
        &["r-list-1", "r-list:1"],
        "Section 4.1, Algorithm 1 with m = 1 (EASY backfilling)",
        "R-List-1",
        "R-LIST with one reservation, recomputed at every completion",
        rlist(Backfill::M(1), Reservations::Recomputed),
    ),
    rigid(
        "conservative",
        &["r-list-q", "r-list:q"],
        "Section 4.1, Algorithm 1 with m = |Q|; Section 4.2.1, Proposition 1 (≤ (3 − 4/(P+1))·OPT with LJF)",
        "R-List-Q",
        "R-LIST with a reservation for every queued job (conservative backfilling)",
        rlist(Backfill::Queue, Reservations::Recomputed),
    ),
    Entry {
        name: "r-list:<m>",
        aliases: &[],
        paper: Paper::Rigid,
        section: "Section 4.1, Algorithm 1",
        label: "R-List-m",
        family: Family::Rigid,
        params: RLIST_M_PARAMS,
        summary: "R-LIST with m reservations (m ≥ 0 or q), recomputed at every completion",
        algo: rlist(Backfill::M(0), Reservations::Recomputed),
        parametric: true,
        evaluated: false,
    },
    rigid(
        "easy-kept",
        &["r-list-1-kept", "r-list:1:kept"],
        "Section 4.1, Algorithm 1 with m = 1, reservations kept (the paper's simulator)",
        "R-List-1-kept",
        "R-LIST whose reservations are kept until the job starts; m = 1 adds one per completion",
        rlist(Backfill::M(1), Reservations::Kept),
    ),
    rigid(
        "conservative-kept",
        &["r-list-q-kept", "r-list:q:kept"],
        "Section 4.1, Algorithm 1 with m = |Q|, reservations kept (the paper's simulator)",
        "R-List-Q-kept",
        "conservative backfilling whose reservations are never revised",
        rlist(Backfill::Queue, Reservations::Kept),
    ),
    Entry {
        name: "r-list:<m>:kept",
        aliases: &[],
        paper: Paper::Rigid,
        section: "Section 4.1, Algorithm 1, reservations kept (the paper's simulator)",
        label: "R-List-m-kept",
        family: Family::Rigid,
        params: RLIST_M_PARAMS,
        summary: "R-LIST with m reservations kept until the job starts",
        algo: rlist(Backfill::M(0), Reservations::Kept),
        parametric: true,
        evaluated: false,
    },
    rigid(
        "r-shelf-b",
        &[],
        "Section 4.3, Algorithm 2 with backfilling (b = 1)",
        "R-Shelf-B",
        "shelves of the failure-free schedule, re-executions in later shelves, backfilled",
        Algo::Shelf {
            fill: false,
            backfill: true,
        },
    ),
    rigid(
        "r-shelf-nb",
        &[],
        "Section 4.3, Algorithm 2 without backfilling (b = 0)",
        "R-Shelf-NB",
        "shelves of the failure-free schedule, re-executions in later shelves",
        Algo::Shelf {
            fill: false,
            backfill: false,
        },
    ),
    rigid(
        "r-shelffill-b",
        &[],
        "Section 4.4, Algorithm 3 with backfilling (b = 1)",
        "R-ShelfFill-B",
        "shelves filled with re-executions as they fail, backfilled",
        Algo::Shelf {
            fill: true,
            backfill: true,
        },
    ),
    rigid(
        "r-shelffill-nb",
        &[],
        "Section 4.4, Algorithm 3 without backfilling (b = 0)",
        "R-ShelfFill-NB",
        "shelves filled with re-executions as they fail",
        Algo::Shelf {
            fill: true,
            backfill: false,
        },
    ),
    moldable(
        "lpa-list",
        &["list"],
        "Sections 4.2–4.3, LIST (Algorithm 1) with LPA (Algorithm 2); Theorems 1, 2, 4, 6, 8, 9",
        "LPA",
        "LIST with LPA's allocation, re-chosen at every attempt",
        Algo::LpaList,
    ),
    moldable(
        "mintime",
        &[],
        "Section 5.1 (baseline)",
        "MINTIME",
        "LIST with each job on its fastest processor count",
        Algo::MinTime,
    ),
    moldable(
        "minarea",
        &[],
        "Section 5.1 (baseline)",
        "MINAREA",
        "LIST with each job on its least-area processor count",
        Algo::MinArea,
    ),
    moldable(
        "batch-list",
        &["batch"],
        "Section 4.4, BATCH-LIST with MT-ALLOTMENT (Lemma 3); Theorems 11–13",
        "BATCH",
        "batches of attempts, each allotted by MT-ALLOTMENT (a count per attempt)",
        Algo::BatchList {
            counts: ChainCounts::PerAttempt,
        },
    ),
    moldable(
        "batch-list-uniform",
        &["batch-uniform"],
        "Section 4.4 as Section 4.7's example reads it (one count per job and batch)",
        "BATCH-U",
        "BATCH-LIST whose allotment gives one count to all attempts of a job in a batch",
        Algo::BatchList {
            counts: ChainCounts::Uniform,
        },
    ),
    moldable(
        "batch-list-published",
        &["batch-published"],
        "Section 4.4 as the authors' simulator (lucasperotin/moldable-error) implements it",
        "BATCH-PUB",
        "BATCH-LIST with MT-ALLOTMENT as published: least area within the budget, rounding unit \
         ε₁ = ε (0.3), bisection tolerance ε₂ = ε₁/10, areas ×1.1, each batch on its first count",
        Algo::BatchListPublished,
    ),
];

/// A name resolved: its entry and the typed algorithm (m filled in for parametric names).
#[derive(Debug, Clone, Copy)]
pub struct Resolved {
    pub entry: &'static Entry,
    pub algo: Algo,
}

/// Resolves an algorithm name (case-insensitive; canonical, alias or `r-list:<m>[:kept]`).
/// An unknown name is an [`Error::Param`] on `algo` that lists the valid names.
pub fn parse(name: &str) -> Result<Resolved> {
    let low = name.trim().to_ascii_lowercase();
    for e in CATALOGUE.iter().filter(|e| !e.parametric) {
        if e.name == low || e.aliases.contains(&low.as_str()) {
            return Ok(Resolved {
                entry: e,
                algo: e.algo,
            });
        }
    }
    if let Some(rest) = low.strip_prefix("r-list:") {
        let (m, kept) = match rest.strip_suffix(":kept") {
            Some(m) => (m, true),
            None => (rest, false),
        };
        if let Some(m) = Backfill::parse(m) {
            let want = if kept {
                Reservations::Kept
            } else {
                Reservations::Recomputed
            };
            if let Some(e) = CATALOGUE.iter().find(
                |e| matches!(e.algo, Algo::RList { reservations, .. } if e.parametric && reservations == want),
            ) {
                return Ok(Resolved {
                    entry: e,
                    algo: rlist(m, want),
                });
            }
        }
    }
    Err(Error::param(
        "algo",
        format!(
            "unknown algorithm `{name}`; valid names: {}",
            names().join(", ")
        ),
    ))
}

/// The canonical names, parametric ones as patterns (`r-list:<m>`).
pub fn names() -> Vec<&'static str> {
    CATALOGUE.iter().map(|e| e.name).collect()
}

/// Concrete names to run every algorithm once: every fixed entry, and each parametric entry at
/// m = 2 (the smallest m that is neither GREEDY, EASY nor, on two jobs, conservative).
pub fn concrete_names() -> Vec<String> {
    CATALOGUE
        .iter()
        .map(|e| match (e.parametric, e.algo) {
            (true, Algo::RList { reservations, .. }) => match reservations {
                Reservations::Kept => "r-list:2:kept".to_string(),
                Reservations::Recomputed => "r-list:2".to_string(),
            },
            _ => e.name.to_string(),
        })
        .collect()
}

/// The canonical names of the algorithms `paper` evaluates (its Section 5), in catalogue order:
/// the rigid paper's R-List-0/1/Q and the four shelf variants; the moldable paper's LPA, BATCH,
/// MINTIME and MINAREA.
pub fn evaluated(paper: Paper) -> Vec<&'static str> {
    CATALOGUE
        .iter()
        .filter(|e| e.evaluated && e.paper == paper)
        .map(|e| e.name)
        .collect()
}

/// The entry of a canonical name (`None` for names not in the catalogue).
pub fn entry(name: &str) -> Option<&'static Entry> {
    parse(name).ok().map(|r| r.entry)
}

/// The paper's label of an algorithm name (e.g. `R-List-0` for `greedy`); an unknown name is an
/// error. Campaign tables use it for their columns.
pub fn label(name: &str) -> Result<&'static str> {
    parse(name).map(|r| r.entry.label)
}

/// A help text listing every algorithm: name, aliases, family, section.
pub fn help() -> String {
    let mut s = String::new();
    for e in CATALOGUE {
        let aliases = if e.aliases.is_empty() {
            String::new()
        } else {
            format!(" (= {})", e.aliases.join(", "))
        };
        let fam = match e.family {
            Family::Rigid => "rigid",
            Family::Either => "rigid or moldable",
        };
        s.push_str(&format!(
            "  {}{aliases}: {} [{fam}; {}, {}]\n",
            e.name,
            e.summary,
            e.paper.cite(),
            e.section
        ));
    }
    s
}

/// The parameters a run may set besides the name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Params {
    /// Priority rule; `None` is LPT.
    pub priority: Option<Priority>,
    /// Seed of RANDOM.
    pub seed: u64,
    /// BATCH-LIST's ε; `None` is 3/10. Given to an algorithm without ε, it is an error.
    pub eps: Option<Time>,
}

impl Resolved {
    /// Checks the parameters against what the algorithm takes: ε only for BATCH-LIST, and > 0.
    pub fn validate(&self, params: &Params) -> Result<()> {
        if let Some(eps) = &params.eps {
            if !self.entry.params.contains(&Param::Eps) {
                return Err(Error::param(
                    "eps",
                    format!(
                        "`{}` takes no ε (only batch-list, batch-list-uniform and batch-list-published do)",
                        self.entry.name
                    ),
                ));
            }
            moldable::Eps::new(eps.clone())?;
        }
        Ok(())
    }
}

impl Algo {
    /// Builds the scheduler for `inst`. Errors: a rigid algorithm on moldable jobs (naming the
    /// first moldable job), an invalid ε.
    pub fn build(&self, inst: &Instance, params: &Params) -> Result<Box<dyn Scheduler>> {
        // default: LPT is the documented default priority
        let pr = params.priority.unwrap_or(Priority::Lpt);
        let seed = params.seed;
        let order = match pr {
            Priority::Index => Order::Index,
            priority => Order::Rule { priority, seed },
        };
        // default: BATCH-LIST's documented ε = 3/10
        let eps = || moldable::Eps::or_paper(params.eps.as_ref());
        Ok(match *self {
            Algo::RList { m, reservations } => {
                let keys = rigid_keys(inst)?;
                let p = inst.procs;
                match (m, reservations) {
                    (Backfill::M(0), Reservations::Recomputed) => {
                        Box::new(rlist::Greedy::new(&keys, p, pr, seed))
                    }
                    _ => Box::new(rlist::RList::with_policy(
                        m.as_usize(),
                        reservations,
                        &keys,
                        p,
                        pr,
                        seed,
                    )),
                }
            }
            Algo::Shelf { fill, backfill } => Box::new(shelf::Shelf::new(
                fill,
                backfill,
                &rigid_keys(inst)?,
                inst.procs,
                pr,
                seed,
            )),
            Algo::LpaList => Box::new(moldable::lpa::lpa_list(inst, order)),
            Algo::MinTime => Box::new(moldable::lpa::mintime(inst, order)),
            Algo::MinArea => Box::new(moldable::lpa::minarea(inst, order)),
            Algo::BatchList { counts } => Box::new(moldable::batch::BatchList::with_counts(
                inst,
                order,
                eps()?,
                counts,
            )?),
            Algo::BatchListPublished => Box::new(moldable::batch::BatchList::published(
                inst,
                order,
                moldable::mt_published::Published::with_eps(eps()?.get().clone()),
            )?),
        })
    }
}

/// `(p_j, t_j)` of every job, or an error naming the first moldable job.
pub fn rigid_keys(inst: &Instance) -> Result<Vec<(u32, Time)>> {
    inst.jobs
        .iter()
        .map(|j| match j.as_rigid() {
            Some((p, t)) => Ok((p, t.clone())),
            None => Err(Error::param(
                "algo",
                format!(
                    "this algorithm schedules rigid jobs, but job {} is moldable",
                    j.name
                ),
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_alias_resolves_to_its_entry() {
        for e in CATALOGUE.iter().filter(|e| !e.parametric) {
            assert_eq!(parse(e.name).map(|r| r.entry.name).ok(), Some(e.name));
            for a in e.aliases {
                assert_eq!(parse(a).map(|r| r.entry.name).ok(), Some(e.name), "{a}");
                assert_eq!(parse(a).map(|r| r.algo).ok(), Some(e.algo), "{a}");
            }
        }
    }

    #[test]
    fn no_name_is_claimed_twice() {
        let mut all: Vec<&str> = CATALOGUE
            .iter()
            .flat_map(|e| std::iter::once(e.name).chain(e.aliases.iter().copied()))
            .collect();
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn parametric_names() {
        let r = parse("R-LIST:7").map(|r| r.algo).ok();
        assert_eq!(r, Some(rlist(Backfill::M(7), Reservations::Recomputed)));
        let r = parse("r-list:q:kept").map(|r| r.algo).ok();
        assert_eq!(r, Some(rlist(Backfill::Queue, Reservations::Kept)));
        assert_eq!(parse("r-list:0").map(|r| r.entry.name).ok(), Some("greedy"));
        for bad in [
            "r-list:x",
            "r-list:",
            "r-list:-1",
            "r-list:1:kep",
            "fifo",
            "",
        ] {
            let e = parse(bad).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(
                e.contains("valid names") && e.contains("batch-list"),
                "{bad}: {e}"
            );
        }
        for n in concrete_names() {
            assert!(parse(&n).is_ok(), "{n}");
        }
    }

    #[test]
    fn eps_only_where_it_applies() {
        let eps = Params {
            eps: Some(Time::new(1, 10).unwrap_or_default()),
            ..Params::default()
        };
        assert!(parse("batch-list").and_then(|r| r.validate(&eps)).is_ok());
        let e = parse("greedy").and_then(|r| r.validate(&eps)).err();
        assert!(e.is_some_and(|e| e.to_string().contains("takes no ε")));
        let zero = Params {
            eps: Some(Time::zero()),
            ..Params::default()
        };
        assert!(parse("batch-list").and_then(|r| r.validate(&zero)).is_err());
    }
}
