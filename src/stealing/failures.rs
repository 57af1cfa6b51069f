//! Fail-stop node failures (node-stealing paper, Sections 2 and 5.2): "failures are randomly
//! generated following a Poisson process on each node with parameter λ_ind", μ_ind = 1/λ_ind,
//! and the platform MTBF is μ = μ_ind/N.
//!
//! # Sampling rule (seeded, exact)
//! N independent Poisson processes of rate 1/μ_ind are, by the superposition theorem, the same
//! law as *one* Poisson process of rate N/μ_ind whose points each strike a node drawn uniformly
//! in `0..N`. That is how they are drawn: lazily (only as far as the simulation goes), from
//! `ChaCha8Rng::seed_from_u64(seed)`, each failure taking two draws in this order:
//! 1. the gap: u = 1 − U[0,1) ∈ (0, 1], gap = −ln(u)·μ in `f64`, entered into exact time
//!    *once* by [`Time::from_f64_grid`] on the grid 1/[`GRID`] (nearest multiple);
//! 2. the node: uniform in `0..N` (`random_range`).
//!
//! Failure times are the exact running sums of the gaps. Two variants run on the same seed see
//! the same failures, which is how the paper compares heuristics (same scenarios).
//!
//! # Failure list file
//! One failure per line, `time node` (node ids are 0-based: the paper's P_3 is node 2),
//! whitespace-separated; blank lines and `#` comments are skipped. Times are exact (`3/2`,
//! `12.5`). A negative time, a time beyond [`limits::MAX_SECONDS`], a node ≥ N or a malformed
//! line is an error naming the line.
use super::checkpoint::GRID;
use super::limits;
use crate::error::{Error, Result};
use crate::time::Time;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// One failure: node `node` fails at `time`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub time: Time,
    pub node: u32,
}

/// Where failures come from; yields them in non-decreasing time.
#[derive(Clone, Debug)]
pub enum FailureSource {
    /// A fixed list (sorted by time, stable).
    List { failures: Vec<Failure>, next: usize },
    /// The seeded Poisson process of the module doc.
    Poisson {
        rng: Box<ChaCha8Rng>,
        mean_gap: f64,
        nodes: u32,
        peeked: Option<Failure>,
        last: Time,
    },
    /// No failure at all.
    None,
}

impl FailureSource {
    /// A fixed list; sorted by time (stably). Errors on a time outside [0, 10^11 s], naming
    /// the failure (`failures[3]`).
    pub fn list(mut failures: Vec<Failure>) -> Result<FailureSource> {
        if let Some((i, f)) = failures
            .iter()
            .enumerate()
            .find(|(_, f)| f.time.is_negative())
        {
            return Err(Error::param(
                &format!("failures[{i}]"),
                format!("negative failure time {}", f.time),
            ));
        }
        for (i, f) in failures.iter().enumerate() {
            limits::check_seconds(&f.time, &format!("failures[{i}]"))?;
        }
        failures.sort_by(|a, b| a.time.cmp(&b.time));
        Ok(FailureSource::List { failures, next: 0 })
    }

    /// Poisson failures with platform MTBF `platform_mtbf` (= μ_ind/N) on `nodes` nodes.
    /// The MTBF must lie in the range of [`limits::check_mean_gap`], where every gap is finite
    /// and exactly rounded to the grid.
    pub fn poisson(seed: u64, platform_mtbf: &Time, nodes: u32) -> Result<FailureSource> {
        let mean_gap = limits::check_mean_gap(platform_mtbf, "platform_mtbf")?;
        limits::check_nodes(nodes, "nodes")?;
        Ok(FailureSource::Poisson {
            rng: Box::new(ChaCha8Rng::seed_from_u64(seed)),
            mean_gap,
            nodes,
            peeked: None,
            last: Time::zero(),
        })
    }

    /// Reads a failure list file (module doc), checking nodes against `nodes`.
    pub fn load(path: &Path, nodes: u32) -> Result<FailureSource> {
        let text = crate::error::read_text(path)?;
        let file = path.display().to_string();
        Self::parse(&text, &file, nodes)
    }

    /// Parses the text of a failure list file.
    pub fn parse(text: &str, file: &str, nodes: u32) -> Result<FailureSource> {
        let mut out = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            // default: `split` always yields a first piece
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 2 {
                return Err(Error::line(
                    file,
                    i + 1,
                    format!("expected `time node`, found {} fields", f.len()),
                ));
            }
            let time: Time = f[0]
                .parse()
                .map_err(|e| Error::line(file, i + 1, format!("failure time `{}`: {e}", f[0])))?;
            if time.is_negative() {
                return Err(Error::line(
                    file,
                    i + 1,
                    format!("negative failure time {}", limits::show(&time)),
                ));
            }
            if time > Time::from_int(limits::MAX_SECONDS) {
                return Err(Error::line(
                    file,
                    i + 1,
                    format!(
                        "failure time {} is beyond the limit of 10^11 s (≈ 3,170 years)",
                        limits::show(&time)
                    ),
                ));
            }
            let node: u32 = f[1].parse().map_err(|_| {
                Error::line(
                    file,
                    i + 1,
                    format!("node `{}` is not a node id (0-based integer)", f[1]),
                )
            })?;
            if node >= nodes {
                return Err(Error::line(
                    file,
                    i + 1,
                    format!("node {node} does not exist (the machine has {nodes})"),
                ));
            }
            out.push(Failure { time, node });
        }
        Self::list(out)
    }

    /// The next failure without consuming it.
    pub fn peek(&mut self) -> Option<&Failure> {
        match self {
            FailureSource::None => None,
            FailureSource::List { failures, next } => failures.get(*next),
            FailureSource::Poisson {
                rng,
                mean_gap,
                nodes,
                peeked,
                last,
            } => {
                if peeked.is_none() {
                    let u = 1.0 - rng.random::<f64>();
                    let gap_f = -u.ln() * *mean_gap;
                    // u ∈ [2^-53, 1] so −ln(u) ∈ [0, 37]; `poisson` checked the mean, so the gap
                    // is finite and from_f64_grid (None only for a non-finite value) succeeds.
                    debug_assert!(gap_f.is_finite() && gap_f >= 0.0, "{gap_f}");
                    // unreachable: the gap is finite and ≥ 0 (debug_assert above)
                    let gap = Time::from_f64_grid(gap_f, GRID).unwrap_or_else(Time::zero);
                    let node = rng.random_range(0..*nodes);
                    let time = &*last + &gap;
                    *last = time.clone();
                    *peeked = Some(Failure { time, node });
                }
                peeked.as_ref()
            }
        }
    }

    /// Consumes the next failure.
    pub fn pop(&mut self) -> Option<Failure> {
        self.peek()?;
        match self {
            FailureSource::None => None,
            FailureSource::List { failures, next } => {
                *next += 1;
                failures.get(*next - 1).cloned()
            }
            FailureSource::Poisson { peeked, .. } => peeked.take(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_is_seeded_and_has_the_right_rate() {
        let mtbf = Time::from_int(3600);
        let mut a = FailureSource::poisson(7, &mtbf, 100).unwrap();
        let mut b = FailureSource::poisson(7, &mtbf, 100).unwrap();
        let mut last = Time::zero();
        let n = 2000;
        for _ in 0..n {
            let x = a.pop().unwrap();
            assert_eq!(Some(x.clone()), b.pop());
            assert!(x.time >= last && x.node < 100);
            assert!((&x.time * &Time::from_int(GRID as i64)).is_integer());
            last = x.time;
        }
        let mean = last.to_f64() / n as f64;
        assert!((mean / 3600.0 - 1.0).abs() < 0.1, "seed 7: mean gap {mean}");
        assert!(FailureSource::poisson(1, &Time::zero(), 4).is_err());
    }

    #[test]
    fn list_file_errors_name_the_line() {
        let ok = FailureSource::parse("# t node\n1 2\n\n0.5 0 # first\n", "f", 8).unwrap();
        let mut ok = ok;
        assert_eq!(
            ok.pop().unwrap(),
            Failure {
                time: "1/2".parse().unwrap(),
                node: 0
            }
        );
        assert_eq!(ok.pop().unwrap().node, 2);
        assert!(ok.pop().is_none());
        let e = FailureSource::parse("1 2\n-3 1\n", "f.txt", 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.txt:2") && e.contains("negative"), "{e}");
        let e = FailureSource::parse("1 8\n", "f.txt", 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.txt:1") && e.contains("node 8"), "{e}");
        let e = FailureSource::parse("1\n", "f.txt", 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.txt:1"), "{e}");
    }
}
