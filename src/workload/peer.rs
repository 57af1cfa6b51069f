//! Reader of the instance and failure files of the rigid paper's own simulator
//! (*Resilient Scheduling Heuristics for Rigid Parallel Jobs*, Section 5; format described in
//! `shared/peer/FORMAT.md`), so that users of that simulator get the exact answer for their files.
//!
//! **Instance file**: whitespace-separated tokens (line breaks carry no meaning). Header
//! `lambda P verif priority batch naive shelf`, then one task per group `name rgd length procs`
//! (`name mld length model` is a moldable task, which these files do not use and we reject).
//! As that simulator does, every attempt of a task lasts `length + verif`: the [`Instance`] built
//! here has t_j = length_j + verif, read exactly from the decimal text.
//!
//! **Failure file**: one scenario per line, one integer f_j per task in file order.
//!
//! **Priority tokens** are read as a [`PeerPriority`], the file's own vocabulary; the schedulers
//! map it to their rules (`length` → LPT, `rlength` → SPT, `procs` → HPA, `rprocs` → LPA,
//! `area` → LA, `rarea` → SA, `rand` → RANDOM), so this reader depends on no algorithm.
//! Two documented differences: our ties are broken by task index, whereas the C++ simulator's
//! `procs`/`rprocs` order among equal processor counts depends on its heap (the sample files have
//! such ties, so those two rules may order equal-procs tasks differently); and `rand` draws a
//! permutation from our seeded ChaCha8 generator — the C++ RNG's order cannot be reproduced.
//!
//! Errors name the file and the line of the offending token; a file that ends inside a task or a
//! scenario is an error, never a silent truncation.
use crate::error::{read_text, Error, Result};
use crate::model::{Instance, Job, Scenario};
use crate::time::Time;
use std::fmt;
use std::path::Path;

/// The priority token of an instance file's header: the peer simulator's names for the rigid
/// paper's Section 5.1 rules (longest time, shortest time, most processors, fewest processors,
/// largest area, smallest area, random).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeerPriority {
    /// `length`: longest time first (LPT).
    Length,
    /// `rlength`: shortest time first (SPT).
    RLength,
    /// `procs`: most processors first (HPA).
    Procs,
    /// `rprocs`: fewest processors first (LPA).
    RProcs,
    /// `area`: largest area first (LA).
    Area,
    /// `rarea`: smallest area first (SA).
    RArea,
    /// `rand`: a random order (RANDOM).
    Rand,
}

impl PeerPriority {
    /// Every token, in the rigid paper's order of the rules.
    pub const ALL: [PeerPriority; 7] = [
        PeerPriority::Length,
        PeerPriority::RLength,
        PeerPriority::Procs,
        PeerPriority::RProcs,
        PeerPriority::Area,
        PeerPriority::RArea,
        PeerPriority::Rand,
    ];

    /// The token as the file writes it.
    pub fn token(self) -> &'static str {
        match self {
            PeerPriority::Length => "length",
            PeerPriority::RLength => "rlength",
            PeerPriority::Procs => "procs",
            PeerPriority::RProcs => "rprocs",
            PeerPriority::Area => "area",
            PeerPriority::RArea => "rarea",
            PeerPriority::Rand => "rand",
        }
    }

    /// The rule of a token (exact, case-sensitive as the simulator reads it).
    pub fn from_token(tok: &str) -> Option<PeerPriority> {
        PeerPriority::ALL.into_iter().find(|p| p.token() == tok)
    }
}

impl fmt::Display for PeerPriority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// An instance file of the peer simulator.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerInstance {
    /// The error rate λ of the header (informative: the failure file gives the failures).
    pub lambda: Time,
    /// The verification time added to every attempt.
    pub verif: Time,
    /// The priority token (`length`, `rarea`, ...).
    pub priority: PeerPriority,
    /// The `batch`, `naive`, `shelf` flags.
    pub batch: bool,
    pub naive: bool,
    pub shelf: bool,
    /// The tasks' own lengths (without verif).
    pub lengths: Vec<Time>,
    /// P and the tasks, with t_j = length_j + verif.
    pub instance: Instance,
}

/// Tokens with the (1-based) line each sits on.
struct Tokens<'a> {
    file: &'a str,
    it: Box<dyn Iterator<Item = (usize, &'a str)> + 'a>,
    last_line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str, file: &'a str) -> Tokens<'a> {
        let it = text
            .lines()
            .enumerate()
            .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 1, t)));
        Tokens {
            file,
            it: Box::new(it),
            last_line: text.lines().count().max(1),
        }
    }

    /// The next token, or an error saying what was expected at the end of the file.
    fn next(&mut self, what: &str) -> Result<(usize, &'a str)> {
        self.it.next().ok_or_else(|| {
            Error::line(
                self.file,
                self.last_line,
                format!("file ends early: expected {what}"),
            )
        })
    }

    fn time(&mut self, what: &str) -> Result<(usize, Time)> {
        let (line, tok) = self.next(what)?;
        let t = tok
            .parse::<Time>()
            .map_err(|e| Error::line(self.file, line, format!("{what}: {e}")))?;
        Ok((line, t))
    }

    fn uint(&mut self, what: &str) -> Result<(usize, u32)> {
        let (line, tok) = self.next(what)?;
        let v = tok.parse::<u32>().map_err(|_| {
            Error::line(
                self.file,
                line,
                format!("{what}: `{tok}` is not a non-negative integer"),
            )
        })?;
        Ok((line, v))
    }

    fn flag(&mut self, what: &str) -> Result<bool> {
        let (line, v) = self.uint(what)?;
        match v {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::line(
                self.file,
                line,
                format!("{what}: expected 0 or 1, found {v}"),
            )),
        }
    }
}

impl PeerInstance {
    /// Reads an instance file.
    pub fn load(path: &Path) -> Result<PeerInstance> {
        let text = read_text(path)?;
        PeerInstance::parse(&text, &path.display().to_string())
    }

    /// Parses instance-file text (`file` names it in errors).
    pub fn parse(text: &str, file: &str) -> Result<PeerInstance> {
        let mut tk = Tokens::new(text, file);
        let h = Header::read(&mut tk)?;
        let mut jobs = Vec::new();
        let mut lengths = Vec::new();
        let mut names = std::collections::HashSet::new();
        while let Some((line, name)) = tk.it.next() {
            if !names.insert(name) {
                return Err(Error::line(
                    file,
                    line,
                    format!("task name `{name}` is used by an earlier task"),
                ));
            }
            let (length, p) = tk.task(name, h.procs)?;
            jobs.push(Job::rigid(name, p, &length + &h.verif));
            lengths.push(length);
        }
        if jobs.is_empty() {
            return Err(Error::line(
                file,
                tk.last_line,
                "the file has a header but no task",
            ));
        }
        let instance =
            Instance::new(h.procs, jobs).map_err(|e| Error::line(file, 1, e.to_string()))?;
        Ok(PeerInstance {
            lambda: h.lambda,
            verif: h.verif,
            priority: h.priority,
            batch: h.batch,
            naive: h.naive,
            shelf: h.shelf,
            lengths,
            instance,
        })
    }
}

/// The seven tokens of an instance file's header.
struct Header {
    lambda: Time,
    procs: u32,
    verif: Time,
    priority: PeerPriority,
    batch: bool,
    naive: bool,
    shelf: bool,
}

impl Header {
    /// `lambda P verif priority batch naive shelf`, each checked.
    fn read(tk: &mut Tokens<'_>) -> Result<Header> {
        let file = tk.file;
        let (_, lambda) = tk.time("lambda (header token 1)")?;
        let (pline, procs) = tk.uint("P (header token 2)")?;
        if procs == 0 {
            return Err(Error::line(file, pline, "P must be at least 1"));
        }
        let (vline, verif) = tk.time("verif (header token 3)")?;
        if verif.is_negative() {
            return Err(Error::line(
                file,
                vline,
                format!("verif {verif} must be >= 0"),
            ));
        }
        let (prline, ptok) = tk.next("priority (header token 4)")?;
        let priority = PeerPriority::from_token(ptok).ok_or_else(|| {
            Error::line(file, prline, format!("unknown priority `{ptok}`; expected length, rlength, procs, rprocs, area, rarea or rand"))
        })?;
        Ok(Header {
            lambda,
            procs,
            verif,
            priority,
            batch: tk.flag("batch (header token 5)")?,
            naive: tk.flag("naive (header token 6)")?,
            shelf: tk.flag("shelf (header token 7)")?,
        })
    }
}

impl Tokens<'_> {
    /// The rest of task `name` after its name: its kind (`rgd`), its length (> 0) and its
    /// processors (in 1..=`procs`).
    fn task(&mut self, name: &str, procs: u32) -> Result<(Time, u32)> {
        let file = self.file;
        let (kline, kind) = self.next(&format!("the kind (rgd or mld) of task `{name}`"))?;
        match kind {
            "rgd" => {}
            "mld" => {
                return Err(Error::line(
                    file,
                    kline,
                    format!(
                        "task `{name}` is moldable (mld): only rigid (rgd) tasks are supported"
                    ),
                ))
            }
            _ => {
                return Err(Error::line(
                    file,
                    kline,
                    format!("task `{name}`: kind `{kind}`, expected rgd"),
                ))
            }
        }
        let (lline, length) = self.time(&format!("the length of task `{name}`"))?;
        if !length.is_positive() {
            return Err(Error::line(
                file,
                lline,
                format!("task `{name}`: length {length} must be > 0"),
            ));
        }
        let (qline, p) = self.uint(&format!("the processors of task `{name}`"))?;
        if p == 0 || p > procs {
            return Err(Error::line(
                file,
                qline,
                format!("task `{name}`: {p} processors is outside 1..={procs}"),
            ));
        }
        Ok((length, p))
    }
}

/// Reads a failure file for `n` tasks, keeping the first `limit` scenarios (all if `None`).
pub fn load_failures(path: &Path, n: usize, limit: Option<usize>) -> Result<Vec<Scenario>> {
    let text = read_text(path)?;
    parse_failures(&text, &path.display().to_string(), n, limit)
}

/// Parses failure-file text: one line per scenario, `n` non-negative integers each. Blank lines
/// are skipped. Fewer scenarios than `limit` is an error (the user asked for them).
pub fn parse_failures(
    text: &str,
    file: &str,
    n: usize,
    limit: Option<usize>,
) -> Result<Vec<Scenario>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut f = Vec::with_capacity(n);
        for (k, tok) in line.split_whitespace().enumerate() {
            let v: u32 = tok.parse().map_err(|_| {
                Error::line(
                    file,
                    i + 1,
                    format!(
                        "entry {} (task {k}): `{tok}` is not a non-negative integer",
                        k + 1
                    ),
                )
            })?;
            f.push(v);
        }
        if f.len() != n {
            return Err(Error::line(
                file,
                i + 1,
                format!(
                    "{} failure counts, expected one per task ({n}): truncated or wrong instance?",
                    f.len()
                ),
            ));
        }
        out.push(Scenario::new(f));
    }
    if out.is_empty() {
        return Err(Error::line(file, 1, "no scenario in the file"));
    }
    if let Some(l) = limit {
        if out.len() < l {
            return Err(Error::line(
                file,
                text.lines().count(),
                format!("{l} scenarios asked for, the file has only {}", out.len()),
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "1e-08 4 1/2 rarea 0 0 0\nA rgd 1.5 2\nB rgd\n2 4\n";

    #[test]
    fn parses_tokens_across_lines() {
        let p = PeerInstance::parse(SAMPLE, "s").unwrap();
        assert_eq!(p.priority, PeerPriority::RArea);
        assert_eq!(p.instance.procs, 4);
        assert_eq!(p.instance.jobs[0].as_rigid(), Some((2, &Time::from_int(2))));
        assert_eq!(
            p.instance.jobs[1].as_rigid(),
            Some((4, &Time::new(5, 2).unwrap()))
        );
        assert_eq!(p.lengths[0], Time::new(3, 2).unwrap());
    }

    #[test]
    fn errors_name_the_line() {
        let e = PeerInstance::parse("1e-08 4 0 length 0 0 0\nA rgd 1.5 2\nB rgd 2", "f")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("f:3:") && e.contains("ends early") && e.contains("`B`"),
            "{e}"
        );
        let e = PeerInstance::parse("1e-08 4 0 length 0 0 0\nA rgd 1.5 5", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:2:") && e.contains("outside 1..=4"), "{e}");
        let e = PeerInstance::parse("1e-08 4 0 lifo 0 0 0", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown priority `lifo`"), "{e}");
        let e = PeerInstance::parse("1e-08 4 0 length 0 0 0\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("no task"), "{e}");
        let e = PeerInstance::parse("1e-08 4 0 length 0 0 0\nA rgd 0 1\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:2:") && e.contains("> 0"), "{e}");
        let e = parse_failures("0 1\n0\n", "g", 2, None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("g:2:") && e.contains("truncated"), "{e}");
        let e = parse_failures("0 1\n0 x\n", "g", 2, None)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("g:2:") && e.contains("`x`"), "{e}");
        let e = parse_failures("0 1\n", "g", 2, Some(3))
            .unwrap_err()
            .to_string();
        assert!(e.contains("only 1"), "{e}");
        assert_eq!(
            parse_failures("0 1\n\n2 3\n4 5\n", "g", 2, Some(2))
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn reads_the_shared_sample() {
        // `<repo>/../shared` in CI and the main checkout; a worktree (`/work/wt/<name>`) is one
        // level deeper.
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = [root.join("../shared/peer"), root.join("../../shared/peer")]
            .into_iter()
            .find(|d| d.exists())
            .expect("the shared directory with the peer files beside the repository");
        let p = PeerInstance::load(&dir.join("sample_1_0.3")).unwrap();
        assert_eq!((p.instance.len(), p.instance.procs), (100, 10000));
        assert_eq!(p.verif, Time::from_int(10));
        // Task0 rgd 1518.62619684 1147: t = 1528.62619684 exactly.
        assert_eq!(
            p.instance.jobs[0].as_rigid(),
            Some((1147, &"1528.62619684".parse().unwrap()))
        );
        let f = load_failures(&dir.join("failures_sample_1_0.3"), 100, Some(3)).unwrap();
        assert_eq!(f.len(), 3);
        assert_eq!(f[0].failures[5], 2);
    }
}
