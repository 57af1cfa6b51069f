//! The exhaustive small-scope check split into shards (`resched prove --exhaustive --shard I/N`)
//! and folded back (`resched merge`).
//!
//! A shard checks one contiguous block of the rigid scope's instances and one of the moldable
//! scope's ([`super::exhaustive::rigid_block`], [`super::exhaustive_moldable::moldable_block`])
//! and saves both partial reports. The merge folds them in shard order with
//! [`ExhaustiveReport::from_parts`], as the single run folds its instances in enumeration
//! order: counts add up, and a tie for the worst case keeps the earlier case in both. The one
//! count that does not add up is the rigid `opt_solved` (an optimum shared by two shards is
//! solved in both): the merge counts the scope's distinct optima instead
//! ([`super::exhaustive::distinct_optima`]), the number the single run's memo ends with.
use super::exhaustive::{self, ExhaustiveReport, RigidScope};
use super::exhaustive_moldable::{self as em, MoldableScope};
use super::Budget;
use crate::error::Result;
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
}
