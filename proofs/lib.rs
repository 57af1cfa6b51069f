//! The theorem ledger: every proven statement of the two resilient-scheduling papers, as code.
//!
//! One [`Entry`] per statement — rigid paper Propositions 1–4 (Section 4); moldable paper
//! Lemmas 1, 2, 3, 5 and Theorems 1, 2, 4, 6, 8, 9, 10, 11, 12 (Section 4) — and the lower
//! bounds whose proofs are not in our copy of the moldable paper (Theorems 3, 5, 7, 13) recorded
//! as claims with the gap they leave. Each entry holds its id, paper and section, the statement
//! in words, the bound as exact code, the witness construction where the paper gives one (built
//! in code, with its parameters), and its check: it runs the algorithms through
//! [`resched::engine::run`], passes every schedule through [`resched::check::check`], compares with
//! the exact optimum (small cases) or the lower bound L, and asserts the bound.
//!
//! The ledger depends on the engine, never the reverse: the engine (`src/`) never names
//! `proofs::`, which the crate graph enforces (`resched` does not depend on `resched-proofs`).
//!
//! Ratios are exact [`Time`] values. A ratio "against L" (a lower bound on OPT) over-estimates
//! the true ratio against OPT, so an upper bound checked against L is checked in a *stronger*
//! form; the rigid proofs (Props. 1, 2) and the moldable ones (Lemma 2 with local α, β) in fact
//! bound the makespan by L, which is what makes that check legitimate. A ratio shown for a lower
//! bound is always against OPT or against a certified *upper* bound on OPT (an explicit schedule
//! that passed the checker), so it never over-states a lower bound.
pub mod adversary;
pub mod exhaustive;
pub mod exhaustive_moldable;
pub mod moldable;
pub mod moldable_cases;
pub mod moldable_witness;
pub mod rigid;
pub mod rigid_witness;
pub mod run;
pub mod sharded;

/// Small constructors shared by the witness builders.
mod witness_support {
    use resched::error::Result;
    use resched::model::{Attempt, Instance, Job};
    use resched::time::Time;

    /// A validated witness instance (errors name the pseudo-file `witness`).
    pub(super) fn inst(procs: u32, jobs: Vec<Job>) -> Result<Instance> {
        Instance::new(procs, jobs).map_err(|e| e.in_file("witness"))
    }

    /// An attempt without node ids.
    pub(super) fn att(
        job: usize,
        attempt: u32,
        start: Time,
        procs: u32,
        duration: Time,
    ) -> Attempt {
        Attempt {
            job,
            attempt,
            start,
            procs,
            duration,
            nodes: None,
        }
    }
}

use resched::error::{Error, Result};
use resched::model::{Instance, Scenario};
use resched::time::Time;
use std::collections::BTreeMap;
use std::fmt;

/// Which paper a statement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// Resilient scheduling heuristics for rigid parallel jobs (`rigid-jobs-resilient-scheduling`).
    Rigid,
    /// Resilient scheduling of moldable parallel jobs (`moldable-jobs-resilient-scheduling`).
    Moldable,
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Paper::Rigid => "rigid",
            Paper::Moldable => "moldable",
        })
    }
}

/// What kind of statement an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An approximation ratio: makespan ≤ bound · OPT on every instance and scenario.
    Upper,
    /// A lower-bound construction: on the witness, makespan ≥ bound · OPT.
    Lower,
    /// A property of a procedure (an allocation, a batch count) that holds on every input.
    Property,
    /// A statement whose proof is not in our copy; `gap` says what is left open.
    Claim { gap: &'static str },
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Upper => f.write_str("upper bound"),
            Kind::Lower => f.write_str("lower bound"),
            Kind::Property => f.write_str("property"),
            Kind::Claim { .. } => f.write_str("claim (proof not in our copy)"),
        }
    }
}

/// A parameter of an entry's witness or check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
}

/// Parameter values given as `k=v` pairs (the `resched prove` command's `--param k=v`), over
/// the entry's defaults. Errors name parameter `params`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params {
    values: BTreeMap<String, String>,
}

impl Params {
    /// The defaults of `entry`, overridden by `given` (`k=v` strings). Unknown names and
    /// malformed pairs are errors on parameter `params`.
    pub fn for_entry(entry: &Entry, given: &[String]) -> Result<Params> {
        let mut values: BTreeMap<String, String> = entry
            .params
            .iter()
            .map(|p| (p.name.to_string(), p.default.to_string()))
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for kv in given {
            let Some((k, v)) = kv.split_once('=') else {
                return Err(Error::param(
                    "params",
                    format!("`{kv}` is not of the form name=value"),
                ));
            };
            let k = k.trim();
            if !values.contains_key(k) {
                let known: Vec<&str> = entry.params.iter().map(|p| p.name).collect();
                return Err(Error::param(
                    "params",
                    format!(
                        "{} has no parameter `{k}` (it has: {})",
                        entry.id,
                        known.join(", ")
                    ),
                ));
            }
            // A parameter given twice is refused, not silently the last one.
            if !seen.insert(k.to_string()) {
                return Err(Error::param(
                    "params",
                    format!("`{k}` is given more than once"),
                ));
            }
            values.insert(k.to_string(), v.trim().to_string());
        }
        Ok(Params { values })
    }

    fn raw(&self, name: &str) -> Result<&str> {
        self.values
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| Error::param("params", format!("missing parameter `{name}`")))
    }

    /// An integer parameter in `range`.
    pub fn u32_in(&self, name: &str, range: std::ops::RangeInclusive<u32>) -> Result<u32> {
        let raw = self.raw(name)?;
        let v: u32 = raw.parse().map_err(|_| {
            Error::param(
                "params",
                format!("{name}={raw}: expected a non-negative integer"),
            )
        })?;
        if !range.contains(&v) {
            return Err(Error::param(
                "params",
                format!(
                    "{name}={v}: outside {}..={} (the witness's stated range)",
                    range.start(),
                    range.end()
                ),
            ));
        }
        Ok(v)
    }

    /// An exact rational parameter with `lo < v < hi`.
    pub fn time_open(&self, name: &str, lo: &Time, hi: &Time) -> Result<Time> {
        let raw = self.raw(name)?;
        let v: Time = raw
            .parse()
            .map_err(|e| Error::param("params", format!("{name}={raw}: {e}")))?;
        if v <= *lo || v >= *hi {
            return Err(Error::param(
                "params",
                format!("{name}={v}: must lie strictly between {lo} and {hi}"),
            ));
        }
        Ok(v)
    }

    /// A string parameter.
    pub fn string(&self, name: &str) -> Result<String> {
        self.raw(name).map(str::to_string)
    }

    /// The pairs, for printing.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// How the optimum of a case is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptRef {
    /// The exact optimum (a solver proof, or a lower bound met by an explicit checked schedule).
    Exact(Time),
    /// OPT lies in `[lower, upper]`: `lower` a proven lower bound (L), `upper` the makespan of
    /// an explicit schedule that passed the checker.
    Between { lower: Time, upper: Time },
    /// Only a lower bound is known (L or L').
    Lower(Time),
}

impl OptRef {
    /// The value a makespan is divided by to get an *upper* estimate of the ratio.
    pub fn lower(&self) -> &Time {
        match self {
            OptRef::Exact(t) | OptRef::Lower(t) => t,
            OptRef::Between { lower, .. } => lower,
        }
    }

    /// The value a makespan is divided by to get a *certified lower* estimate of the ratio.
    pub fn upper(&self) -> Option<&Time> {
        match self {
            OptRef::Exact(t) => Some(t),
            OptRef::Between { upper, .. } => Some(upper),
            OptRef::Lower(_) => None,
        }
    }
}

impl fmt::Display for OptRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptRef::Exact(t) => write!(f, "OPT = {t} ({})", t.to_decimal_string(6)),
            OptRef::Between { lower, upper } if lower == upper => {
                write!(
                    f,
                    "OPT = {lower} ({}) [L met by a checked schedule]",
                    lower.to_decimal_string(6)
                )
            }
            OptRef::Between { lower, upper } => write!(
                f,
                "OPT ∈ [{lower}, {upper}] ([{}, {}]; L and a checked schedule)",
                lower.to_decimal_string(6),
                upper.to_decimal_string(6)
            ),
            OptRef::Lower(t) => {
                write!(f, "L = {t} ({}) (OPT out of reach)", t.to_decimal_string(6))
            }
        }
    }
}

/// One algorithm run on one case, measured against the optimum and the entry's bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measurement {
    /// The algorithm (or procedure) measured.
    pub algo: String,
    /// Its exact makespan (checked).
    pub makespan: Time,
    pub opt: OptRef,
    /// The ratio the entry compares with its bound: makespan / OPT when OPT is exact; for an
    /// upper bound, makespan / (lower bound on OPT); for a lower bound, makespan / (upper bound
    /// on OPT). So `holds` is never decided in the statement's favour by an estimate.
    pub ratio: Time,
    /// The entry's bound for this case.
    pub bound: Time,
    /// How far the case is from breaking the statement: bound − ratio for an upper bound,
    /// ratio − bound for a lower bound. The statement holds on the case iff `slack ≥ 0`.
    pub slack: Time,
    pub holds: bool,
    /// True for a lower-bound measurement (ratio ≥ bound).
    pub is_lower: bool,
    /// The case itself, where the measurement is a witness that can be exported and re-checked
    /// from outside (`resched prove <id> --export DIR`).
    pub evidence: Option<std::sync::Arc<Evidence>>,
}

/// The case behind a witness measurement: what `resched simulate` needs to recompute T, and the
/// schedule `resched verify` accepts with makespan U ≥ OPT.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub instance: Instance,
    pub scenario: Scenario,
    /// The run whose makespan is the measurement's T, as the catalogue names it.
    pub algo: resched::oracle::AlgoSpec,
    /// A schedule the checker accepted, of makespan U (the upper end of OPT); `None` where OPT
    /// is known otherwise.
    pub upper: Option<resched::model::Schedule>,
    /// How OPT is known, in words (the solver's proof, L met by U, the area argument …).
    pub opt_how: String,
}

/// Every field is exact (times are rationals, counts integers): equality is an equivalence.
impl Eq for Evidence {}

impl Evidence {
    /// The case `instance`, `scenario` run by `algo`, with U's checked schedule `upper`.
    pub fn new(
        instance: &Instance,
        scenario: &Scenario,
        algo: resched::oracle::AlgoSpec,
        upper: Option<&resched::model::Schedule>,
        opt_how: impl Into<String>,
    ) -> Evidence {
        Evidence {
            instance: instance.clone(),
            scenario: scenario.clone(),
            algo,
            upper: upper.cloned(),
            opt_how: opt_how.into(),
        }
    }
}

impl Measurement {
    /// Measures an upper-bound statement: holds iff makespan ≤ bound · (lower end of OPT).
    pub fn upper(
        algo: impl Into<String>,
        makespan: Time,
        opt: OptRef,
        bound: Time,
    ) -> Result<Measurement> {
        let ratio = ratio(&makespan, opt.lower())?;
        let slack = &bound - &ratio;
        let holds = !slack.is_negative();
        Ok(Measurement {
            algo: algo.into(),
            makespan,
            opt,
            ratio,
            bound,
            slack,
            holds,
            is_lower: false,
            evidence: None,
        })
    }

    /// Measures a case of a *claimed lower bound* (the moldable paper's Theorems 3, 5, 7) while
    /// checking the proven upper bound `bound`: `ratio` is makespan / (upper end of OPT), with
    /// the upper end the makespan of a checked schedule (or the exact OPT), so the ratio shown
    /// is a certified lower bound on the approximation ratio — dividing by OPT's lower bound
    /// would overstate it. `holds` and `slack` still compare makespan / (lower end of OPT) with
    /// `bound`, so the upper statement is never decided in its favour by an estimate.
    pub fn certified(
        algo: impl Into<String>,
        makespan: Time,
        opt: OptRef,
        bound: Time,
    ) -> Result<Measurement> {
        let up = opt.upper().ok_or_else(|| {
            Error::Limit(
                "a certified ratio needs an upper bound on OPT (a checked schedule)".into(),
            )
        })?;
        let shown = ratio(&makespan, up)?;
        let slack = &bound - &ratio(&makespan, opt.lower())?;
        let holds = !slack.is_negative();
        Ok(Measurement {
            algo: algo.into(),
            makespan,
            opt,
            ratio: shown,
            bound,
            slack,
            holds,
            is_lower: false,
            evidence: None,
        })
    }

    /// Measures a lower-bound statement: holds iff makespan ≥ bound · (upper end of OPT).
    pub fn lower(
        algo: impl Into<String>,
        makespan: Time,
        opt: OptRef,
        bound: Time,
    ) -> Result<Measurement> {
        let up = opt
            .upper()
            .ok_or_else(|| {
                Error::Limit("a lower-bound witness needs an upper bound on OPT".into())
            })?
            .clone();
        let ratio = ratio(&makespan, &up)?;
        let slack = &ratio - &bound;
        let holds = !slack.is_negative();
        Ok(Measurement {
            algo: algo.into(),
            makespan,
            opt,
            ratio,
            bound,
            slack,
            holds,
            is_lower: true,
            evidence: None,
        })
    }
}

impl Measurement {
    /// The measurement with the case it was made on (see [`Evidence`]).
    pub fn with_evidence(mut self, e: Evidence) -> Measurement {
        self.evidence = Some(std::sync::Arc::new(e));
        self
    }
}

/// `a / b` for a positive `b`.
pub fn ratio(a: &Time, b: &Time) -> Result<Time> {
    a.checked_div(b)
        .ok_or_else(|| Error::Limit(format!("ratio {a} / {b}: the reference is zero")))
}

/// A witness: the case a statement's proof builds, with what the proof says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Witness {
    pub instance: Instance,
    pub scenario: Scenario,
    /// What the paper says happens on it.
    pub claim: String,
}

/// Where a case came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    Witness,
    Random,
    Exhaustive,
    Adversarial,
}

/// The worst case seen from one source.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Number of (case, algorithm) measurements.
    pub measured: u64,
    /// The largest ratio seen, the algorithm and a description of the case.
    pub worst: Option<(Time, String)>,
    /// The smallest slack seen (the gap to the bound), with the case.
    pub min_slack: Option<(Time, String)>,
    /// Measurements that broke the bound (described), at most a few kept.
    pub violations: Vec<String>,
    pub violation_count: u64,
}

impl Tally {
    /// Records a measurement on the case described by `case`.
    pub fn add(&mut self, m: &Measurement, case: impl FnOnce() -> String) {
        self.measured += 1;
        let worse = self.worst.as_ref().is_none_or(|(r, _)| m.ratio > *r);
        let tighter = self.min_slack.as_ref().is_none_or(|(s, _)| m.slack < *s);
        if worse || tighter || !m.holds {
            let desc = format!("{} on {}", m.algo, case());
            if !m.holds {
                self.violation_count += 1;
                if self.violations.len() < 5 {
                    self.violations
                        .push(format!("{desc}: ratio {} vs bound {}", m.ratio, m.bound));
                }
            }
            if tighter {
                self.min_slack = Some((m.slack.clone(), desc.clone()));
            }
            if worse {
                self.worst = Some((m.ratio.clone(), desc));
            }
        }
    }

    /// Merges another tally into this one.
    pub fn merge(&mut self, other: Tally) {
        self.measured += other.measured;
        if let Some((r, d)) = other.worst {
            if self.worst.as_ref().is_none_or(|(w, _)| r > *w) {
                self.worst = Some((r, d));
            }
        }
        if let Some((r, d)) = other.min_slack {
            if self.min_slack.as_ref().is_none_or(|(w, _)| r < *w) {
                self.min_slack = Some((r, d));
            }
        }
        self.violation_count += other.violation_count;
        for v in other.violations {
            if self.violations.len() < 5 {
                self.violations.push(v);
            }
        }
    }
}

/// How much work a ledger check may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Random cases per entry.
    pub random: u64,
    /// Run the exhaustive small-scope enumeration (default scope) where the entry has one.
    pub exhaustive: bool,
    /// Adversarial local-search steps per entry.
    pub adversarial: u64,
    /// Seed of every random draw (cases are drawn from ChaCha8 seeded by (seed, index)).
    pub seed: u64,
    /// Node limit of the exact optimum per case.
    pub opt_nodes: u64,
}

impl Budget {
    /// The default of `resched prove --all`: a quick pass (no exhaustive scope, small random
    /// and adversarial budgets).
    pub fn quick() -> Budget {
        Budget {
            random: 100,
            exhaustive: false,
            adversarial: 300,
            seed: 1,
            opt_nodes: 200_000,
        }
    }

    /// `quick` scaled by `k` (the `--budget` flag).
    pub fn scaled(k: u64) -> Budget {
        let q = Budget::quick();
        Budget {
            random: q.random * k,
            adversarial: q.adversarial * k,
            exhaustive: k >= 4,
            ..q
        }
    }
}

/// What checking an entry produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub witness: Vec<Measurement>,
    pub tallies: BTreeMap<SourceKey, Tally>,
    /// Free-form notes (e.g. the instance file of the best adversarial case).
    pub notes: Vec<String>,
}

/// [`Source`] as an ordered map key.
pub type SourceKey = u8;

impl Report {
    /// The tally of `source` (created empty).
    pub fn tally(&mut self, source: Source) -> &mut Tally {
        self.tallies.entry(source as u8).or_default()
    }

    /// The tally of `source`, if any case came from it.
    pub fn get(&self, source: Source) -> Option<&Tally> {
        self.tallies.get(&(source as u8))
    }

    /// Every violation, across sources and witnesses.
    pub fn violations(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .witness
            .iter()
            .filter(|m| !m.holds)
            .map(|m| format!("witness: {} ratio {} vs bound {}", m.algo, m.ratio, m.bound))
            .collect();
        for t in self.tallies.values() {
            v.extend(t.violations.iter().cloned());
        }
        v
    }

    /// True when no measurement broke its bound.
    pub fn holds(&self) -> bool {
        self.witness.iter().all(|m| m.holds)
            && self.tallies.values().all(|t| t.violation_count == 0)
    }
}

/// One statement of the ledger.
pub struct Entry {
    /// Stable id, e.g. `rigid.prop2`, `moldable.thm12`.
    pub id: &'static str,
    pub paper: Paper,
    /// Section (and equation) of the paper.
    pub section: &'static str,
    pub kind: Kind,
    /// The statement in words.
    pub statement: &'static str,
    /// The bound as a formula, for printing.
    pub bound_text: &'static str,
    /// The witness's and check's parameters.
    pub params: &'static [Param],
    /// The bound as exact code, for an instance and the parameters: the ratio the statement
    /// guarantees (upper bounds) or exhibits (lower bounds) on that instance.
    pub bound: fn(&Instance, &Params) -> Result<Time>,
    /// The witness construction, where the paper gives one.
    pub witness: Option<fn(&Params) -> Result<Witness>>,
    /// Runs the witness (measured with `resched prove <id>`) and, within `budget`, random,
    /// exhaustive and adversarial cases.
    pub check: fn(&Params, &Budget) -> Result<Report>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Entry({})", self.id)
    }
}

/// Every entry, in paper order.
pub fn ledger() -> Vec<&'static Entry> {
    let mut v: Vec<&'static Entry> = rigid::ENTRIES.iter().collect();
    v.extend(moldable::ENTRIES.iter());
    v
}

/// The entry with `id`, or an error listing the ids.
pub fn find(id: &str) -> Result<&'static Entry> {
    ledger().into_iter().find(|e| e.id == id).ok_or_else(|| {
        let ids: Vec<&str> = ledger().iter().map(|e| e.id).collect();
        Error::param(
            "id",
            format!("no ledger entry `{id}`; known: {}", ids.join(", ")),
        )
    })
}

/// A ratio for a table cell: exact when short, always with 4 decimals.
pub fn show_ratio(t: &Time) -> String {
    let exact = t.to_string();
    if exact.len() <= 12 {
        format!("{exact} ≈ {}", t.to_decimal_string(4))
    } else {
        format!("≈ {}", t.to_decimal_string(4))
    }
}

/// The Markdown table of `resched prove --all`: one row per entry with the bound, the worst ratio
/// from each source and the gap to the bound. `reports[i]` belongs to `entries[i]`.
pub fn markdown_table(entries: &[&Entry], reports: &[Result<Report>]) -> String {
    let mut s = String::new();
    s.push_str(
        "| id | statement | bound | witness | random | exhaustive | adversarial | gap | holds |\n",
    );
    s.push_str("|---|---|---|---|---|---|---|---|---|\n");
    for (e, r) in entries.iter().zip(reports) {
        let cell = |t: Option<&Tally>| match t {
            Some(Tally {
                worst: Some((w, _)),
                measured,
                ..
            }) => format!("{} (n={measured})", show_ratio(w)),
            _ => "–".to_string(),
        };
        let (w, ra, ex, ad, gap, holds) = match r {
            Ok(rep) => {
                let wit = rep.witness.iter().map(|m| &m.ratio).max();
                // default: a table cell `–` when the witness measured nothing
                let wcell = wit.map(show_ratio).unwrap_or_else(|| "–".into());
                // The gap of the entry's own kind: an upper-bound entry's witness may be a
                // lower-bound measurement (e.g. Theorem 8's tightness), which has its own slack.
                let lower_kind = e.kind == Kind::Lower;
                let slack = rep
                    .witness
                    .iter()
                    .filter(|m| m.is_lower == lower_kind)
                    .map(|m| m.slack.clone())
                    .chain(
                        rep.tallies
                            .values()
                            .filter_map(|t| t.min_slack.as_ref().map(|(s, _)| s.clone())),
                    )
                    .min();
                let gap = match (e.kind, slack) {
                    (Kind::Claim { gap }, _) => gap.to_string(),
                    (Kind::Lower, Some(s)) => format!("ratio − claim ≥ {}", show_ratio(&s)),
                    (_, Some(s)) => format!("bound − ratio ≥ {}", show_ratio(&s)),
                    (_, None) => "–".into(),
                };
                (
                    wcell,
                    cell(rep.get(Source::Random)),
                    cell(rep.get(Source::Exhaustive)),
                    cell(rep.get(Source::Adversarial)),
                    gap,
                    if rep.holds() {
                        "yes".to_string()
                    } else {
                        format!("**NO** ({})", rep.violations().len())
                    },
                )
            }
            Err(err) => (
                "error".into(),
                "–".into(),
                "–".into(),
                "–".into(),
                format!("{err}"),
                "?".into(),
            ),
        };
        s.push_str(&format!(
            "| `{}` | {} | {} | {w} | {ra} | {ex} | {ad} | {gap} | {holds} |\n",
            e.id,
            e.statement
                .split(". ")
                .next()
                // default: `split` always yields a first piece; the whole statement otherwise
                .unwrap_or(e.statement)
                .replace('|', "\\|"),
            e.bound_text.replace('|', "\\|"),
        ));
    }
    s
}
