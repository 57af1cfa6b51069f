//! Which part of a run the statistics describe, by name (node-stealing paper, Section 5.3.3,
//! "Pruning the traces"): the [`Pruning`] a [`Measure`] stands for on a given workload.
//!
//! - `all`: every job's flow; utilization over [first submission, last completion).
//! - `paper`: Section 5.3.3 as written for a month of Mira — utilization and the decomposition
//!   "from the 11th day of the month up to the 30th", read as [10 d, 30 d) after the first
//!   submission (the month's logs start with the month); flows of the jobs left once "the first
//!   20% of jobs" and "the last 20% of jobs" in submission order are removed. A trace whose
//!   submissions stop before day 30 cannot be measured so: an error says so.
//! - `scaled`: the same rule for a trace shorter than a month (the shipped 10-day Mira
//!   windows): the window leaves out the first third of the submission span (10 of 30 days) and
//!   ends at the last submission ("the results … are not meaningful after the last
//!   submission"); flows pruned 20% / 20% as in `paper`. On a 30-day span it is `paper`.
//!
//! Windows are absolute trace times in the returned [`Pruning`].
use super::metrics::Pruning;
use super::model::Workload;
use crate::error::{Error, Result};
use crate::time::Time;

/// Section 5.3.3's share of jobs removed at each end of the submission order, in percent.
pub const PAPER_PRUNE_PCT: u32 = 20;
const DAY: i64 = 86_400;

/// A named measurement rule (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    All,
    Paper,
    Scaled,
}

impl std::str::FromStr for Measure {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Measure, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" => Ok(Measure::All),
            "paper" => Ok(Measure::Paper),
            "scaled" => Ok(Measure::Scaled),
            _ => Err(format!("`{s}`: expected all, paper or scaled")),
        }
    }
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Measure::All => "all",
            Measure::Paper => "paper",
            Measure::Scaled => "scaled",
        })
    }
}

/// First and last submission of `w` (`None` without jobs).
fn span(w: &Workload) -> Option<(Time, Time)> {
    let first = w.jobs.iter().map(|j| &j.release).min()?.clone();
    let last = w.jobs.iter().map(|j| &j.release).max()?.clone();
    Some((first, last))
}

impl Measure {
    /// The pruning this rule stands for on `w`; `source` names the workload in errors. A rule
    /// that does not fit `w` is an error on parameter `measure`.
    pub fn pruning(self, w: &Workload, source: &str) -> Result<Pruning> {
        let (first, last) = span(w)
            .ok_or_else(|| Error::invalid(source, "jobs", "no job to measure".to_string()))?;
        let pct = PAPER_PRUNE_PCT;
        let window = match self {
            Measure::All => return Ok(Pruning::default()),
            Measure::Paper => {
                let (a, b) = (
                    &first + &Time::from_int(10 * DAY),
                    &first + &Time::from_int(30 * DAY),
                );
                if last < b {
                    return Err(Error::param(
                        "measure",
                        format!(
                            "paper on {source}: submissions span {} days, fewer than the 30 of Section 5.3.3's window (days 11–30 of a month); use `measure` scaled",
                            // unreachable: dividing by the nonzero constant DAY cannot fail
                            (&last - &first).div_int(DAY as u64).unwrap_or_default().to_decimal_string(2)
                        ),
                    ));
                }
                (a, b)
            }
            Measure::Scaled => {
                let s = &last - &first;
                // unreachable: dividing by the literal 3 cannot fail
                let a = &first + &s.div_int(3).unwrap_or_default();
                if a >= last {
                    return Err(Error::param(
                        "measure",
                        format!("scaled on {source}: every job is submitted at the same instant: no window"),
                    ));
                }
                (a, last)
            }
        };
        Ok(Pruning {
            drop_first_pct: pct,
            drop_last_pct: pct,
            window: Some(window),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stealing::model::BatchJob;

    fn workload(releases: &[i64]) -> Workload {
        let jobs = releases
            .iter()
            .enumerate()
            .map(|(i, r)| BatchJob {
                name: i.to_string(),
                release: Time::from_int(*r),
                nodes: 1,
                run: Time::from_int(10),
                walltime: Time::from_int(10),
            })
            .collect();
        Workload::new(4, jobs, "t").unwrap()
    }

    #[test]
    fn paper_window_is_days_11_to_30_after_the_first_submission() {
        let w = workload(&[5 * DAY, 20 * DAY, 36 * DAY]);
        let p = Measure::Paper.pruning(&w, "t").unwrap();
        assert_eq!(
            p.window,
            Some((Time::from_int(15 * DAY), Time::from_int(35 * DAY)))
        );
        assert_eq!((p.drop_first_pct, p.drop_last_pct), (20, 20));
        let short = workload(&[0, 9 * DAY]);
        let e = Measure::Paper.pruning(&short, "mira.swf").unwrap_err();
        assert!(e.to_string().contains("9.00 days"), "{e}");
        assert_eq!(
            Measure::All.pruning(&short, "t").unwrap(),
            Pruning::default()
        );
    }

    #[test]
    fn scaled_window_leaves_out_the_first_third() {
        let w = workload(&[DAY, 4 * DAY, 10 * DAY]);
        let p = Measure::Scaled.pruning(&w, "t").unwrap();
        assert_eq!(
            p.window,
            Some((Time::from_int(4 * DAY), Time::from_int(10 * DAY)))
        );
        assert!(Measure::Scaled.pruning(&workload(&[7, 7]), "t").is_err());
        assert_eq!("Paper".parse::<Measure>(), Ok(Measure::Paper));
        assert!("month".parse::<Measure>().is_err());
    }
}
