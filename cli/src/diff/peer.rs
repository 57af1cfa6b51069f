//! The built-in adapter for the rigid paper's own simulator (vlefevre/job-scheduling,
//! `main.cpp`): compare the makespans it printed with resched's GREEDY, scenario by scenario.
//!
//! A user of that simulator has its instance file and failure file (`shared/peer/FORMAT.md`,
//! read by [`resched::workload::peer`], which adds `verif` to every attempt as the simulator
//! does) and what the simulator printed: one line per scenario, `makespan lower_bound failures`
//! (its `printResultsSHORT`, C++ `cout` defaults: 6 significant digits, e.g. `52841.2` or
//! `1.23457e+06`). Lines that are blank or start with `#` are skipped; a line may also hold the
//! makespan alone. Line k (counting answer lines only) is scenario k of the failure file, and
//! there is one line per scenario (fewer is an error unless `--scenarios N` asks for the first N
//! only: an output cut short must not pass for an agreement). When
//! the `failures` column is there it must equal the scenario's total — a different count means
//! the files do not belong together (or are shifted), which is an error, not a mismatch.
//!
//! resched runs GREEDY (`greedy` with the file's priority) through the oracle
//! ([`resched::oracle::Prepared`]) and compares within a relative tolerance: the printed values
//! carry 6 significant digits, so the default is 10^−5. The simulator's lower bound leaves
//! `verif` out and is not compared. Priority `rand` is refused: the C++ random order cannot be
//! reproduced. `procs` and `rprocs` files tie on equal processor counts, which the C++ heap
//! orders its own way (resched: by task index), so mismatches there may be tie orders, not bugs.
use super::compare::both;
use resched::error::{read_text, Error, Result};
use resched::model::Scenario;
use resched::oracle::{AlgoSpec, Prepared};
use resched::schedulers::Priority;
use resched::time::Time;
use resched::workload::peer::{self, PeerInstance};
use std::path::Path;

/// One answer line of the simulator's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file.
    pub line: usize,
    pub makespan: Time,
    /// The `failures` column, when present.
    pub failures: Option<u64>,
}

/// Reads the simulator's output (module doc).
pub fn parse_output(text: &str, file: &str) -> Result<Vec<Line>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t.chars().any(|c| c.is_control() && c != '\t') {
            return Err(Error::line(
                file,
                i + 1,
                format!(
                    "control characters in `{}`: expected `makespan lower_bound failures`",
                    super::answer::escape_controls(t)
                ),
            ));
        }
        let tokens: Vec<&str> = t.split_whitespace().collect();
        let bad = |msg: String| Error::line(file, i + 1, msg);
        let (m, failures) = match tokens.as_slice() {
            [m] => (*m, None),
            [m, _lower, f] => {
                let f = f.parse::<u64>().map_err(|_| {
                    bad(format!("failures `{f}` is not a non-negative integer"))
                })?;
                (*m, Some(f))
            }
            _ => {
                return Err(bad(format!(
                    "{} values; expected `makespan lower_bound failures` (the simulator's line) or a makespan alone",
                    tokens.len()
                )))
            }
        };
        let makespan = m
            .parse::<Time>()
            .map_err(|e| bad(format!("makespan: {e}")))?;
        out.push(Line {
            line: i + 1,
            makespan,
            failures,
        });
    }
    if out.is_empty() {
        return Err(Error::line(file, 1, "no makespan in the file"));
    }
    Ok(out)
}

/// A scenario on which the two disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// 0-based scenario index (the line of the failure file, blank lines skipped).
    pub scenario: usize,
    /// The output file's line.
    pub line: usize,
    pub ours: Time,
    pub theirs: Time,
}

/// The comparison of a whole output file.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub priority: Priority,
    pub token: String,
    pub compared: usize,
    pub mismatches: Vec<Mismatch>,
    /// Largest |theirs − ours| / ours over all scenarios (for display).
    pub max_rel: f64,
    /// A caveat on this file's priority (ties), if any.
    pub caveat: Option<String>,
}

/// What to compare.
#[derive(Debug, Clone)]
pub struct Files<'a> {
    pub instance: &'a Path,
    pub failures: &'a Path,
    pub output: &'a Path,
    /// Compare only the first `limit` scenarios.
    pub limit: Option<usize>,
}

/// Compares the simulator's output with resched's GREEDY within `rel_tol`.
pub fn compare(files: &Files<'_>, rel_tol: &Time) -> Result<Report> {
    let p = PeerInstance::load(files.instance)?;
    let iname = files.instance.display().to_string();
    if p.batch || p.naive || p.shelf {
        return Err(Error::line(
            &iname,
            1,
            "flags batch/naive/shelf must be 0 0 0 (GREEDY, R-LIST with m = 0)",
        ));
    }
    if Priority::from(p.priority) == Priority::Random {
        return Err(Error::line(&iname, 1, "priority `rand`: the simulator's random order cannot be reproduced, so its makespans cannot be compared"));
    }
    let oname = files.output.display().to_string();
    let mut lines = parse_output(&read_text(files.output)?, &oname)?;
    if let Some(l) = files.limit {
        if l == 0 || l > lines.len() {
            return Err(Error::param(
                "scenarios",
                format!("{l} asked for; {oname} has {} makespans", lines.len()),
            ));
        }
        lines.truncate(l);
    }
    let inst = &p.instance;
    // Without `scenarios`, every scenario of the failure file must have its line (checked after
    // the lines present, whose failure counts say better when the files are shifted).
    let limit = files.limit.map(|_| lines.len());
    let scenarios = peer::load_failures(files.failures, inst.len(), limit)?;
    let mut g = Prepared::new(
        &AlgoSpec::new("greedy").with_priority(p.priority.into()),
        inst,
    )?;
    let mut mismatches = Vec::new();
    let mut max_rel = 0f64;
    for (k, (l, sc)) in lines.iter().zip(&scenarios).enumerate() {
        check_failures(l, sc, k, &oname, files.failures)?;
        let ours = g.makespan(inst, sc)?;
        let diff = (&l.makespan - &ours).abs();
        if let Some(r) = diff.checked_div(&ours) {
            max_rel = max_rel.max(r.to_f64());
        }
        if diff > rel_tol * &ours {
            mismatches.push(Mismatch {
                scenario: k,
                line: l.line,
                ours,
                theirs: l.makespan.clone(),
            });
        }
    }
    if scenarios.len() != lines.len() {
        // An output cut short is not an agreement on the scenarios it happens to hold.
        return Err(Error::line(
            &oname,
            lines.last().map_or(1, |l| l.line),
            format!(
                "{} makespans, but {} has {} scenarios: one line per scenario (an output cut \
                 short, or of another failure file; `scenarios` N compares the first N only)",
                lines.len(),
                files.failures.display(),
                scenarios.len()
            ),
        ));
    }
    let caveat = matches!(Priority::from(p.priority), Priority::Hpa | Priority::Lpa).then(|| {
        format!("priority `{}` ties tasks with equal processor counts; the C++ heap orders them its own way, resched by task index, so a mismatch may be a tie order", p.priority.token())
    });
    Ok(Report {
        priority: p.priority.into(),
        token: p.priority.token().to_string(),
        compared: lines.len(),
        mismatches,
        max_rel,
        caveat,
    })
}

fn check_failures(l: &Line, sc: &Scenario, k: usize, oname: &str, fpath: &Path) -> Result<()> {
    match l.failures {
        Some(f) if f != sc.total_failures() => Err(Error::line(
            oname,
            l.line,
            format!(
                "{f} failures, but scenario {k} of {} has {}: the output does not belong to this failure file (or a line is missing)",
                fpath.display(),
                sc.total_failures()
            ),
        )),
        _ => Ok(()),
    }
}

/// The report in words.
pub fn render(r: &Report, rel_tol: &Time, shown: usize) -> String {
    let mut s = format!(
        "peer: GREEDY (R-LIST m = 0), priority {} ({}), {} scenarios compared within relative tolerance {}\n",
        r.token,
        r.priority,
        r.compared,
        rel_tol
    );
    s.push_str(&format!(
        "  agree {}, mismatches {}; largest relative difference {:.3e}\n",
        r.compared - r.mismatches.len(),
        r.mismatches.len(),
        r.max_rel
    ));
    for m in r.mismatches.iter().take(shown) {
        s.push_str(&format!(
            "  MISMATCH scenario {} (output line {}): resched {}, peer {}\n",
            m.scenario,
            m.line,
            both(&m.ours),
            m.theirs
        ));
    }
    if r.mismatches.len() > shown {
        s.push_str(&format!("  … and {} more\n", r.mismatches.len() - shown));
    }
    if let Some(c) = &r.caveat {
        s.push_str(&format!("  note: {c}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_simulators_lines() {
        let text = "# header\n52841.2 48000.1 53\n\n1.23457e+06 1e6 0\n7\n";
        let l = parse_output(text, "out").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(l.len(), 3);
        assert_eq!(l[0].makespan, "52841.2".parse::<Time>().unwrap_or_default());
        assert_eq!(l[0].failures, Some(53));
        assert_eq!(l[1].makespan, Time::from_int(1_234_570));
        assert_eq!((l[2].line, l[2].failures), (5, None));
        for (bad, want) in [
            ("1 2\n", "out:1: 2 values"),
            ("1 2 x\n", "out:1: failures `x`"),
            ("x 2 3\n", "out:1: makespan"),
            ("# only\n", "no makespan"),
        ] {
            let e = parse_output(bad, "out")
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }
}
