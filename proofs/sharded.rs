//! The exhaustive small-scope check and the adversarial search split into shards
//! (`resched prove --exhaustive|--search … --shard I/N`) and folded back (`resched merge`).
//!
//! A search shard runs its block of the independent climbs of `--restarts K`
//! ([`super::adversary::climbs`]) and saves its best find ([`found_json`]); the merge folds the
//! finds in shard order with [`super::adversary::best_of`], the single run's fold.
//!
//! A shard checks one contiguous block of the rigid scope's instances and one of the moldable
//! scope's ([`super::exhaustive::rigid_block`], [`super::exhaustive_moldable::moldable_block`])
//! and saves both partial reports. The merge folds them in shard order with
//! [`ExhaustiveReport::from_parts`], as the single run folds its instances in enumeration
//! order: counts add up, and a tie for the worst case keeps the earlier case in both. The one
//! count that does not add up is the rigid `opt_solved` (an optimum shared by two shards is
//! solved in both): the merge counts the scope's distinct optima instead
//! ([`super::exhaustive::distinct_optima`]), the number the single run's memo ends with.
use super::adversary::Found;
use super::exhaustive::{self, ExhaustiveReport, RigidScope};
use super::exhaustive_moldable::{self as em, MoldableScope};
use super::{Budget, OptRef};
use resched::error::{Error, Result};
use resched::model::{Instance, Scenario};
use resched::time::Time;
use std::ops::Range;

/// One shard's partial reports (`parts.json`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExhaustiveParts {
    pub rigid: ExhaustiveReport,
    pub moldable: ExhaustiveReport,
}

/// The shard's part: `block(len)` picks its range of a list of `len` instances.
pub fn exhaustive_part(
    rigid: &RigidScope,
    moldable: &MoldableScope,
    budget: &Budget,
    block: &dyn Fn(usize) -> Range<usize>,
) -> Result<ExhaustiveParts> {
    Ok(ExhaustiveParts {
        rigid: exhaustive::rigid_block(rigid, budget, block(exhaustive::rigid_units(rigid).len()))?,
        moldable: em::moldable_block(moldable, budget, block(em::moldable_units(moldable).len()))?,
    })
}

/// The whole run's (rigid, moldable) reports from every shard's parts, in shard order.
pub fn fold(
    rigid: &RigidScope,
    moldable: &MoldableScope,
    parts: Vec<ExhaustiveParts>,
) -> Result<(ExhaustiveReport, ExhaustiveReport)> {
    let (r, m): (Vec<_>, Vec<_>) = parts
        .into_iter()
        .map(|p| (Ok(p.rigid), Ok(p.moldable)))
        .unzip();
    let mut r = ExhaustiveReport::from_parts(&rigid.to_string(), r)?;
    r.opt_solved = exhaustive::distinct_optima(rigid);
    let m = ExhaustiveReport::from_parts(&moldable.to_string(), m)?;
    Ok((r, m))
}

/// The report file of `prove --exhaustive --out DIR` (`report.md`): both tables, no timing.
pub fn report_markdown(rigid: &ExhaustiveReport, moldable: &ExhaustiveReport) -> String {
    format!("{}\n{}", rigid.markdown(), moldable.markdown())
}

/// A search's find as JSON (`found.json`): every field, the optimum tagged by how it is known.
pub fn found_json(f: &Found) -> Result<serde_json::Value> {
    let instance: serde_json::Value = serde_json::from_str(&f.instance.to_json())
        .map_err(|e| Error::Limit(format!("instance JSON: {e}")))?;
    let opt = match &f.opt {
        OptRef::Exact(t) => serde_json::json!({ "exact": t }),
        OptRef::Between { lower, upper } => {
            serde_json::json!({ "between": { "lower": lower, "upper": upper } })
        }
        OptRef::Lower(t) => serde_json::json!({ "lower": t }),
    };
    Ok(serde_json::json!({
        "algo": f.algo,
        "instance": instance,
        "failures": f.scenario.failures,
        "makespan": f.makespan,
        "opt": opt,
        "ratio": f.ratio,
        "evaluations": f.evaluations,
    }))
}

/// Reads back [`found_json`]'s output; `file` names it in errors.
pub fn found_from_json(v: &serde_json::Value, file: &str) -> Result<Found> {
    let field = |k: &str| v.get(k).ok_or_else(|| Error::invalid(file, k, "missing"));
    let time = |x: &serde_json::Value, k: &str| {
        serde_json::from_value::<Time>(x.clone())
            .map_err(|e| Error::invalid(file, k, e.to_string()))
    };
    let instance = Instance::from_json_str(&field("instance")?.to_string(), file)?;
    let failures: Vec<u32> = serde_json::from_value(field("failures")?.clone())
        .map_err(|e| Error::invalid(file, "failures", e.to_string()))?;
    let o = field("opt")?;
    let opt = if let Some(t) = o.get("exact") {
        OptRef::Exact(time(t, "opt.exact")?)
    } else if let Some(b) = o.get("between") {
        let lower = b
            .get("lower")
            .ok_or_else(|| Error::invalid(file, "opt.between.lower", "missing"))?;
        let upper = b
            .get("upper")
            .ok_or_else(|| Error::invalid(file, "opt.between.upper", "missing"))?;
        OptRef::Between {
            lower: time(lower, "opt.between.lower")?,
            upper: time(upper, "opt.between.upper")?,
        }
    } else if let Some(t) = o.get("lower") {
        OptRef::Lower(time(t, "opt.lower")?)
    } else {
        return Err(Error::invalid(
            file,
            "opt",
            "expected exact, between or lower",
        ));
    };
    Ok(Found {
        algo: field("algo")?
            .as_str()
            .ok_or_else(|| Error::invalid(file, "algo", "expected a string"))?
            .to_string(),
        scenario: Scenario::new(failures),
        instance,
        makespan: time(field("makespan")?, "makespan")?,
        opt,
        ratio: time(field("ratio")?, "ratio")?,
        evaluations: field("evaluations")?
            .as_u64()
            .ok_or_else(|| Error::invalid(file, "evaluations", "expected a count"))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small scope checked in three blocks and folded is the scope checked at once.
    #[test]
    fn three_blocks_fold_to_the_whole() {
        let rs = RigidScope {
            max_procs: 2,
            max_jobs: 2,
            times: vec![1, 2],
            max_failures: 1,
        };
        let ms = MoldableScope {
            max_procs: 2,
            max_jobs: 1,
            max_t1: 2,
            max_failures: 1,
        };
        let budget = Budget::quick();
        let whole_r = exhaustive::rigid(&rs, &budget).unwrap();
        let whole_m = em::moldable(&ms, &budget).unwrap();
        let parts: Vec<ExhaustiveParts> = (0..3usize)
            .map(|i| {
                let block = |len: usize| len * i / 3..len * (i + 1) / 3;
                exhaustive_part(&rs, &ms, &budget, &block).unwrap()
            })
            .collect();
        let (r, m) = fold(&rs, &ms, parts).unwrap();
        assert_eq!(r, whole_r);
        assert_eq!(m, whole_m);
        assert_eq!(r.opt_solved, exhaustive::distinct_optima(&rs));
        assert!(r.cases > 0 && m.cases > 0);
    }

    /// Three shards of 5 climbs folded in shard order are the 5 climbs at once, and a find
    /// survives its JSON.
    #[test]
    fn search_climbs_fold_and_round_trip() {
        let spec = resched::oracle::AlgoSpec::new("greedy");
        let budget = Budget {
            adversarial: 12,
            ..Budget::quick()
        };
        let search = |b: &Budget| super::super::adversary::search_rigid(&spec, b);
        let whole = super::super::adversary::climbs(0..5, &budget, &search)
            .unwrap()
            .unwrap();
        let mut folded: Option<Found> = None;
        for (lo, hi) in [(0, 1), (1, 3), (3, 5)] {
            if let Some(f) = super::super::adversary::climbs(lo..hi, &budget, &search).unwrap() {
                folded = Some(match folded {
                    Some(x) => super::super::adversary::best_of(x, f),
                    None => f,
                });
            }
        }
        assert_eq!(folded.as_ref(), Some(&whole));
        let each: u64 = (0..5)
            .map(|k| {
                let f = super::super::adversary::climbs(k..k + 1, &budget, &search);
                f.unwrap().unwrap().evaluations
            })
            .sum();
        assert_eq!(whole.evaluations, each);
        let v = found_json(&whole).unwrap();
        assert_eq!(found_from_json(&v, "found.json").unwrap(), whole);
        // Climb 0 alone is the one-climb search.
        let one = super::super::adversary::climbs(0..1, &budget, &search).unwrap();
        assert_eq!(one, Some(search(&budget).unwrap()));
    }
}
