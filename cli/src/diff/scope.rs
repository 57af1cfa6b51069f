//! The scope of the random cases `resched diff` draws, and the drawing itself.
//!
//! Case `i` of a run seeded `s` is drawn from its own ChaCha8 stream, keyed (s, i, 0, "DIFFCASE")
//! by [`resched::workload::sampling::stream`]: it is the same case whatever the other cases, the
//! `--cases` count or the machine, so `--case i` reproduces it alone.
//!
//! Draws, in this order: P uniform in `--procs`; n uniform in `--jobs`; per job, rigid or
//! moldable (`--jobs-kind`: `mixed` is one half each), then a rigid job's p_j uniform in 1..=P
//! and t_j, or a moldable job's model (uniform among the listed ones) and its parameters; last,
//! f_j uniform in 0..=`--failures` for every job. Times: `grid:K` is an integer uniform in 1..=K;
//! `rational:N/D` is a/b with a uniform in 1..=N, b in 1..=D (`rational` alone is 12/4, the
//! property tests' scope [`resched::model::arbitrary::Scope::RIGID`]); `mixed:K/D` (the default,
//! `mixed` alone is 4/4) is, with probability 1/2 each, an integer uniform in 1..=K or a/b with b
//! uniform in 2..=D and a in 1..=K·b, so in (0, K]. Mixed times keep the coincidences of a small
//! grid (attempts ending at the same instant, which same-instant bugs need) and add fractions
//! such as 1/3 that binary floating point cannot hold (which a float program gets wrong).
//!
//! Moldable parameters: w is a time as above; p̄ uniform in 1..=P; c = k/4 with k in 0..=2;
//! γ and δ = k/4 with k in 0..=4; a `monotonic` table draws t(1) and each t(p) at k/4 of the
//! way, k in 0..=4, from the least time monotonicity allows ((p−1)/p·t(p−1)) to t(p−1), as
//! [`resched::model::arbitrary`] does; an `arbitrary` table draws every t(p) independently.
//!
//! Why not [`resched::model::arbitrary::Case`] itself: it reads raw fuzzer bytes, bounds only the
//! maxima, and draws explicit tables only; a diff scope states ranges with minima and names
//! speedup models, whose JSON an external implementation must read as the user's files have it.
//! The result is the same [`Case`] type.
//!
//! Explicit limits: P ≤ [`MAX_PROCS`], n ≤ [`MAX_JOBS`], f_j ≤ [`MAX_FAILURES`], K, N, D ≤
//! [`MAX_TIME`].
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use resched::error::{Error, Result};
use resched::model::arbitrary::Case;
use resched::model::{Instance, Job, Profile, Scenario, SpeedupModel};
use resched::time::Time;
use resched::workload::sampling::stream;

/// Domain tag of the diff case streams ("DIFFCASE").
const DIFF_TAG: u64 = 0x4449_4646_4341_5345;

/// Largest P of a diff scope (moldable tables have P entries per job).
pub const MAX_PROCS: u32 = 4096;
/// Largest n of a diff scope.
pub const MAX_JOBS: usize = 1000;
/// Largest failure count per job.
pub const MAX_FAILURES: u32 = 100;
/// Largest K of `grid:K` and N, D of `rational:N/D`.
pub const MAX_TIME: i64 = 1_000_000;

/// How times are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Times {
    /// Integers in 1..=K.
    Grid(i64),
    /// a/b, a in 1..=num, b in 1..=den.
    Rational { num: i64, den: i64 },
    /// An integer in 1..=int or a/b, b in 2..=den, a in 1..=int·b, one half each.
    Mixed { int: i64, den: i64 },
}

/// A speedup model a moldable job may draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    Roofline,
    Communication,
    Amdahl,
    Mix,
    Power,
    Monotonic,
    Arbitrary,
}

impl Model {
    const ALL: [(&'static str, Model); 7] = [
        ("roofline", Model::Roofline),
        ("communication", Model::Communication),
        ("amdahl", Model::Amdahl),
        ("mix", Model::Mix),
        ("power", Model::Power),
        ("monotonic", Model::Monotonic),
        ("arbitrary", Model::Arbitrary),
    ];

    /// The default list: every model whose table a program computes exactly from its JSON
    /// (power's p^δ goes through resched's own rounding rule, so it is opt-in).
    const DEFAULT: [Model; 6] = [
        Model::Monotonic,
        Model::Arbitrary,
        Model::Roofline,
        Model::Communication,
        Model::Amdahl,
        Model::Mix,
    ];

    fn name(self) -> &'static str {
        Model::ALL
            .iter()
            .find(|(_, m)| *m == self)
            .map_or("?", |(n, _)| n)
    }
}

/// Which jobs the cases have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobsKind {
    Rigid,
    Moldable(Vec<Model>),
    /// Each job rigid or moldable with probability 1/2.
    Mixed(Vec<Model>),
}

/// The bounds of the random cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    /// P in lo..=hi.
    pub procs: (u32, u32),
    /// n in lo..=hi.
    pub jobs: (usize, usize),
    pub times: Times,
    /// f_j in 0..=failures.
    pub failures: u32,
    pub kind: JobsKind,
}

impl Default for Scope {
    /// P in 1..=8, n in 1..=6, mixed times `mixed:4/4`, f_j ≤ 2, rigid jobs.
    fn default() -> Scope {
        Scope {
            procs: (1, 8),
            jobs: (1, 6),
            times: Times::Mixed { int: 4, den: 4 },
            failures: 2,
            kind: JobsKind::Rigid,
        }
    }
}

/// Parses an inclusive range `A..B` (or `A..=B`, or one number `A`) for `option`, within
/// `min..=max`.
pub fn parse_range<T>(option: &str, s: &str, min: T, max: T) -> Result<(T, T)>
where
    T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display,
{
    let bad = |why: String| Error::param(option, format!("`{s}`: {why}"));
    let num = |x: &str| {
        x.trim()
            .parse::<T>()
            .map_err(|_| bad(format!("`{}` is not a whole number", x.trim())))
    };
    let (lo, hi) = match s.split_once("..") {
        // default: `A..B` and `A..=B` are the same inclusive range
        Some((a, b)) => (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let v = num(s)?;
            (v, v)
        }
    };
    if lo > hi || lo < min || hi > max {
        return Err(bad(format!(
            "expected an inclusive range A..B with {min} ≤ A ≤ B ≤ {max}"
        )));
    }
    Ok((lo, hi))
}

/// Parses `grid:K`, `rational`, `rational:N/D`, `mixed` or `mixed:K/D`.
pub fn parse_times(s: &str) -> Result<Times> {
    let bad = || {
        Error::param(
            "times",
            format!(
                "`{s}`: expected grid:K or rational[:N/D] or mixed[:K/D] with 1 ≤ K, N, D ≤ {MAX_TIME} (mixed: D ≥ 2)"
            ),
        )
    };
    let int = |x: &str| {
        x.parse::<i64>()
            .ok()
            .filter(|v| (1..=MAX_TIME).contains(v))
            .ok_or_else(bad)
    };
    if let Some(k) = s.strip_prefix("grid:") {
        return Ok(Times::Grid(int(k)?));
    }
    if s == "rational" {
        return Ok(Times::Rational { num: 12, den: 4 });
    }
    if s == "mixed" {
        return Ok(Times::Mixed { int: 4, den: 4 });
    }
    if let Some((k, d)) = s.strip_prefix("mixed:").and_then(|r| r.split_once('/')) {
        let den = int(d)?;
        if den < 2 {
            return Err(bad());
        }
        return Ok(Times::Mixed { int: int(k)?, den });
    }
    match s.strip_prefix("rational:").and_then(|r| r.split_once('/')) {
        Some((n, d)) => Ok(Times::Rational {
            num: int(n)?,
            den: int(d)?,
        }),
        None => Err(bad()),
    }
}

/// Parses `rigid`, `moldable[:m1,m2,…]` or `mixed[:m1,m2,…]`.
pub fn parse_kind(s: &str) -> Result<JobsKind> {
    let (head, list) = match s.split_once(':') {
        Some((h, l)) => (h, Some(l)),
        None => (s, None),
    };
    let models = || -> Result<Vec<Model>> {
        let Some(list) = list else {
            return Ok(Model::DEFAULT.to_vec());
        };
        list.split(',')
            .map(|m| {
                Model::ALL
                    .iter()
                    .find(|(n, _)| *n == m.trim())
                    .map(|(_, x)| *x)
                    .ok_or_else(|| {
                        let names: Vec<&str> = Model::ALL.iter().map(|(n, _)| *n).collect();
                        Error::param(
                            "kind",
                            format!("unknown model `{m}`; models: {}", names.join(", ")),
                        )
                    })
            })
            .collect()
    };
    match (head, list) {
        ("rigid", None) => Ok(JobsKind::Rigid),
        ("moldable", _) => Ok(JobsKind::Moldable(models()?)),
        ("mixed", _) => Ok(JobsKind::Mixed(models()?)),
        _ => Err(Error::param(
            "kind",
            format!("`{s}`: expected rigid, moldable[:MODELS] or mixed[:MODELS]"),
        )),
    }
}

impl Scope {
    /// Checks the limits of the module doc.
    pub fn validate(&self) -> Result<()> {
        parse_range("procs", &range_text(self.procs), 1, MAX_PROCS)?;
        parse_range("jobs", &range_text(self.jobs), 1, MAX_JOBS)?;
        if self.failures > MAX_FAILURES {
            return Err(Error::param(
                "failures",
                format!("{} is above {MAX_FAILURES}", self.failures),
            ));
        }
        parse_times(&self.times_text())?;
        Ok(())
    }

    /// True when every case is rigid (rigid-only algorithms can run it).
    pub fn is_rigid(&self) -> bool {
        self.kind == JobsKind::Rigid
    }

    fn times_text(&self) -> String {
        match self.times {
            Times::Grid(k) => format!("grid:{k}"),
            Times::Rational { num, den } => format!("rational:{num}/{den}"),
            Times::Mixed { int, den } => format!("mixed:{int}/{den}"),
        }
    }

    /// The scope as the options that state it (for reproduction commands).
    pub fn args(&self) -> String {
        let kind = match &self.kind {
            JobsKind::Rigid => "rigid".to_string(),
            JobsKind::Moldable(m) => format!("moldable:{}", model_list(m)),
            JobsKind::Mixed(m) => format!("mixed:{}", model_list(m)),
        };
        format!(
            "--procs {} --jobs {} --times {} --failures {} --jobs-kind {kind}",
            range_text(self.procs),
            range_text(self.jobs),
            self.times_text(),
            self.failures
        )
    }

    /// Case `case` of a run seeded `seed` (module doc).
    pub fn draw(&self, seed: u64, case: u64) -> Result<Case> {
        let mut rng = stream(seed, case, 0, DIFF_TAG);
        let procs = rng.random_range(self.procs.0..=self.procs.1);
        let n = rng.random_range(self.jobs.0..=self.jobs.1);
        let mut jobs = Vec::with_capacity(n);
        for j in 0..n {
            let models = match &self.kind {
                JobsKind::Rigid => None,
                JobsKind::Moldable(m) => Some(m),
                JobsKind::Mixed(m) => (rng.random_range(0..2u8) == 1).then_some(m),
            };
            let name = format!("J{}", j + 1);
            let job = match models {
                None => {
                    let p = rng.random_range(1..=procs);
                    Job::rigid(name, p, self.time(&mut rng)?)
                }
                Some(models) => {
                    let m = models[rng.random_range(0..models.len())];
                    let model = self.model(m, procs, &mut rng)?;
                    let times = model
                        .table(procs, &format!("jobs[{j}].speedup"))
                        .map_err(|e| e.in_file("diff case"))?;
                    Job {
                        name,
                        profile: Profile::Moldable { model, times },
                    }
                }
            };
            jobs.push(job);
        }
        let failures = (0..n)
            .map(|_| rng.random_range(0..=self.failures))
            .collect();
        let instance = Instance::new(procs, jobs).map_err(|e| e.in_file("diff case"))?;
        Ok(Case {
            instance,
            scenario: Scenario::new(failures),
        })
    }

    fn time(&self, rng: &mut ChaCha8Rng) -> Result<Time> {
        match self.times {
            Times::Grid(k) => Ok(Time::from_int(rng.random_range(1..=k))),
            Times::Rational { num, den } => {
                let a = rng.random_range(1..=num);
                let b = rng.random_range(1..=den);
                Time::new(a, b).ok_or_else(|| Error::Limit(format!("time {a}/{b}")))
            }
            Times::Mixed { int, den } => {
                if rng.random_range(0..2u8) == 0 {
                    return Ok(Time::from_int(rng.random_range(1..=int)));
                }
                let b = rng.random_range(2..=den);
                let a = rng.random_range(1..=int * b);
                Time::new(a, b).ok_or_else(|| Error::Limit(format!("time {a}/{b}")))
            }
        }
    }

    /// A model's parameters (module doc).
    fn model(&self, m: Model, procs: u32, rng: &mut ChaCha8Rng) -> Result<SpeedupModel> {
        let quarter = |k: i64| Time::new(k, 4).ok_or_else(|| Error::Limit(format!("{k}/4")));
        Ok(match m {
            Model::Roofline => SpeedupModel::Roofline {
                w: self.time(rng)?,
                pbar: rng.random_range(1..=procs),
            },
            Model::Communication => SpeedupModel::Communication {
                w: self.time(rng)?,
                c: quarter(rng.random_range(0..=2))?,
            },
            Model::Amdahl => SpeedupModel::Amdahl {
                w: self.time(rng)?,
                gamma: quarter(rng.random_range(0..=4))?,
            },
            Model::Mix => SpeedupModel::Mix {
                w: self.time(rng)?,
                gamma: quarter(rng.random_range(0..=4))?,
                pbar: rng.random_range(1..=procs),
                c: quarter(rng.random_range(0..=2))?,
            },
            Model::Power => SpeedupModel::Power {
                w: self.time(rng)?,
                delta: quarter(rng.random_range(0..=4))?,
            },
            Model::Monotonic => SpeedupModel::Monotonic {
                times: self.monotonic_table(procs, rng)?,
            },
            Model::Arbitrary => SpeedupModel::Arbitrary {
                times: (0..procs).map(|_| self.time(rng)).collect::<Result<_>>()?,
            },
        })
    }

    /// t(1) drawn, then t(p) at k/4 of the way from (p−1)/p·t(p−1) to t(p−1).
    fn monotonic_table(&self, procs: u32, rng: &mut ChaCha8Rng) -> Result<Vec<Time>> {
        let mut prev = self.time(rng)?;
        let mut times = vec![prev.clone()];
        for p in 2..=u64::from(procs) {
            let limit = || Error::Limit(format!("monotonic table at p = {p}"));
            let lo = prev.mul_int(p - 1).div_int(p).ok_or_else(limit)?;
            let k = rng.random_range(0..=4u64);
            let t = &lo + &(&prev - &lo).mul_int(k).div_int(4).ok_or_else(limit)?;
            times.push(t.clone());
            prev = t;
        }
        Ok(times)
    }
}

fn range_text<T: PartialEq + std::fmt::Display>((lo, hi): (T, T)) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}..{hi}")
    }
}

fn model_list(m: &[Model]) -> String {
    m.iter().map(|m| m.name()).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_print_back() {
        assert_eq!(parse_range("procs", "2..5", 1, 10).ok(), Some((2, 5)));
        assert_eq!(parse_range("procs", "2..=5", 1, 10).ok(), Some((2, 5)));
        assert_eq!(parse_range("procs", "4", 1, 10).ok(), Some((4, 4)));
        for bad in ["5..2", "0..3", "1..11", "a..3", ""] {
            let e = parse_range("procs", bad, 1u32, 10)
                .err()
                .map(|e| e.to_string());
            assert!(e.is_some_and(|e| e.contains("procs")), "{bad}");
        }
        assert_eq!(parse_times("grid:7").ok(), Some(Times::Grid(7)));
        assert_eq!(
            parse_times("rational").ok(),
            Some(Times::Rational { num: 12, den: 4 })
        );
        assert_eq!(
            parse_times("rational:5/3").ok(),
            Some(Times::Rational { num: 5, den: 3 })
        );
        assert_eq!(
            parse_times("mixed").ok(),
            Some(Times::Mixed { int: 4, den: 4 })
        );
        assert_eq!(
            parse_times("mixed:6/3").ok(),
            Some(Times::Mixed { int: 6, den: 3 })
        );
        for bad in [
            "grid:0",
            "grid",
            "rational:5",
            "float",
            "mixed:4/1",
            "mixed:0/3",
        ] {
            assert!(parse_times(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_kind("moldable:roofline,power").ok(),
            Some(JobsKind::Moldable(vec![Model::Roofline, Model::Power]))
        );
        assert!(parse_kind("moldable:linear")
            .err()
            .is_some_and(|e| e.to_string().contains("unknown model `linear`")));
        assert!(parse_kind("rigid:x").is_err());
        let s = Scope {
            kind: parse_kind("mixed:amdahl,mix").unwrap_or(JobsKind::Rigid),
            ..Scope::default()
        };
        assert_eq!(
            s.args(),
            "--procs 1..8 --jobs 1..6 --times mixed:4/4 --failures 2 --jobs-kind mixed:amdahl,mix"
        );
    }

    /// The default scope draws integers and fractions, some of which binary floating point
    /// cannot hold (a denominator 3), all in (0, 4].
    #[test]
    fn default_times_mix_integers_and_fractions() {
        let scope = Scope::default();
        let mut times = Vec::new();
        for i in 0..100 {
            let c = scope.draw(1, i).unwrap_or_else(|e| panic!("case {i}: {e}"));
            times.extend(
                c.instance
                    .jobs
                    .iter()
                    .filter_map(|j| j.as_rigid().map(|(_, t)| t.clone())),
            );
        }
        let four = Time::from_int(4);
        assert!(times.iter().all(|t| t.is_positive() && *t <= four));
        let integers = times.iter().filter(|t| t.is_integer()).count();
        let thirds = times
            .iter()
            .filter(|t| t.mul_int(3).is_integer() && !t.is_integer())
            .count();
        assert!(integers > times.len() / 3, "{integers} of {}", times.len());
        assert!(
            integers < times.len() * 4 / 5,
            "{integers} of {}",
            times.len()
        );
        assert!(thirds > 0, "{times:?}");
    }

    #[test]
    fn a_case_depends_only_on_seed_and_index() {
        let scopes = [
            Scope::default(),
            Scope {
                procs: (3, 5),
                jobs: (2, 9),
                times: Times::Rational { num: 7, den: 3 },
                failures: 4,
                kind: JobsKind::Mixed(Model::ALL.iter().map(|(_, m)| *m).collect()),
            },
        ];
        for scope in &scopes {
            for i in 0..200 {
                let a = scope.draw(9, i).unwrap_or_else(|e| panic!("case {i}: {e}"));
                assert_eq!(Some(&a), scope.draw(9, i).ok().as_ref(), "case {i}");
                let inst = &a.instance;
                assert!((scope.procs.0..=scope.procs.1).contains(&inst.procs));
                assert!((scope.jobs.0..=scope.jobs.1).contains(&inst.len()));
                assert!(a.scenario.failures.iter().all(|&f| f <= scope.failures));
                assert!(a.scenario.validate(inst).is_ok());
            }
            assert_ne!(scope.draw(9, 0).ok(), scope.draw(10, 0).ok());
        }
    }
}
