//! Reader of the instance files of the moldable paper's own simulator (*Resilient Scheduling of
//! Moldable Parallel Jobs to Cope with Silent Errors*; GitHub lucasperotin/moldable-error,
//! `generate.py`; format described in `shared/peer-moldable/FORMAT.md`), so that a user of that
//! simulator gets resched's exact answer for the same files. The failure files have the rigid
//! simulator's format and are read by [`super::peer::load_failures`].
//!
//! **Instance file**: one task per line, `NAME mld LENGTH MODEL PARAM…` (whitespace separated;
//! a blank line is skipped). P is not in the file: that simulator takes it on its command line,
//! and so does resched (`--procs`, 7500 in the paper's Table 1). Every number is read exactly as
//! the decimal it is (`2281982.56815623` is 228198256815623/10^8), and each model becomes the
//! crate's exact [`SpeedupModel`] (moldable paper, Section 3.1):
//! - `rft PBAR`: roofline, t(p) = LENGTH / min(p, PBAR); a PBAR above P is clamped to P (the
//!   same times for every p ≤ P; their generator draws PBAR up to 4000 whatever P is);
//! - `amd GAMMA`: Amdahl, t(p) = LENGTH·(GAMMA + (1 − GAMMA)/p), GAMMA ∈ [0, 1];
//! - `com C`: communication, t(p) = LENGTH/p + (p − 1)·C, C ≥ 0;
//! - `mix PBAR S C`: t(p) = LENGTH/min(p, PBAR) + S + (p − 1)·C where LENGTH is the parallel
//!   part w(1 − γ) and S = wγ the sequential part *as a time*: w = LENGTH + S, γ = S/w, exactly
//!   the crate's mix model;
//! - `lin`: linear speedup t(p) = LENGTH/p (roofline with p̄ = P);
//! - `rgd LENGTH PROCS` in place of `mld LENGTH MODEL …`: a rigid task.
//!
//! Errors name the file and the line; an unknown model, a missing or extra parameter, a
//! non-positive length or a parameter out of its range is an error, never a default.
use crate::error::{read_text, Error, Result};
use crate::model::instance::{MAX_PROCS, MAX_TABLE_ENTRIES};
use crate::model::{Instance, Job, Profile, SpeedupModel};
use crate::time::Time;
use std::path::Path;

/// P of the moldable paper's evaluation (Section 5.1, Table 1) and of `FORMAT.md`'s runs.
pub const DEFAULT_PROCS: u32 = 7500;

/// Reads an instance file of the moldable simulator for a platform of `procs` processors.
pub fn load_instance(path: &Path, procs: u32) -> Result<Instance> {
    let text = read_text(path)?;
    parse_instance(&text, &path.display().to_string(), procs)
}

/// Parses instance-file text (`file` names it in errors) for `procs` processors.
pub fn parse_instance(text: &str, file: &str, procs: u32) -> Result<Instance> {
    if procs == 0 {
        return Err(Error::param("procs", "P must be at least 1"));
    }
    // Before any table is built: one task's table is P entries.
    if procs > MAX_PROCS {
        return Err(Error::param(
            "procs",
            format!("P = {procs} is above the limit of {MAX_PROCS} processors"),
        ));
    }
    let mut jobs = Vec::new();
    let mut names = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        let Some(&name) = toks.first() else { continue };
        let lerr = |msg: String| Error::line(file, i + 1, msg);
        if !names.insert(name) {
            return Err(lerr(format!(
                "task name `{name}` is used by an earlier task"
            )));
        }
        // Budget before building the tables (P exact times per moldable task).
        if (jobs.len() as u64 + 1).saturating_mul(u64::from(procs)) > MAX_TABLE_ENTRIES {
            return Err(lerr(format!(
                "{} tasks × P = {procs} exceed the budget of {MAX_TABLE_ENTRIES} table entries",
                jobs.len() + 1
            )));
        }
        jobs.push(task(&toks, procs).map_err(lerr)?);
    }
    if jobs.is_empty() {
        return Err(Error::line(file, 1, "the file has no task"));
    }
    Instance::new(procs, jobs).map_err(|e| Error::line(file, 1, e.to_string()))
}

/// One task line, already split (its first token is the name).
fn task(toks: &[&str], procs: u32) -> std::result::Result<Job, String> {
    let name = toks[0];
    let kind = toks
        .get(1)
        .ok_or(format!("task `{name}`: missing kind (mld or rgd)"))?;
    let length = number(toks, 2, name, "LENGTH")?;
    if !length.is_positive() {
        return Err(format!("task `{name}`: LENGTH {length} must be > 0"));
    }
    match *kind {
        "rgd" => {
            arity(toks, 4, name, "rgd LENGTH PROCS")?;
            let p = count(toks, 3, name, "PROCS")?;
            if p == 0 || p > procs {
                return Err(format!("task `{name}`: PROCS {p} is outside 1..={procs}"));
            }
            Ok(Job::rigid(name, p, length))
        }
        "mld" => {
            let model = model(toks, length, procs)?;
            let times = model
                .table(procs, &format!("task `{name}`"))
                .map_err(|e| e.to_string())?;
            Ok(Job {
                name: name.to_string(),
                profile: Profile::Moldable { model, times },
            })
        }
        _ => Err(format!("task `{name}`: kind `{kind}`, expected mld or rgd")),
    }
}

/// The speedup model of an `mld` line (module doc).
fn model(toks: &[&str], length: Time, procs: u32) -> std::result::Result<SpeedupModel, String> {
    let name = toks[0];
    let m = toks.get(3).ok_or(format!(
        "task `{name}`: missing speedup model (rft, amd, com, mix or lin)"
    ))?;
    let in_unit = |x: &Time, what: &str| {
        if x.is_negative() || *x > Time::one() {
            Err(format!("task `{name}`: {what} {x} must be in [0, 1]"))
        } else {
            Ok(())
        }
    };
    let non_neg = |x: &Time, what: &str| {
        if x.is_negative() {
            Err(format!("task `{name}`: {what} {x} must be >= 0"))
        } else {
            Ok(())
        }
    };
    let pbar = |i: usize| -> std::result::Result<u32, String> {
        let p = count(toks, i, name, "PBAR")?;
        if p == 0 {
            return Err(format!("task `{name}`: PBAR must be at least 1"));
        }
        Ok(p.min(procs))
    };
    match *m {
        "lin" => {
            arity(toks, 4, name, "mld LENGTH lin")?;
            Ok(SpeedupModel::Roofline {
                w: length,
                pbar: procs,
            })
        }
        "rft" => {
            arity(toks, 5, name, "mld LENGTH rft PBAR")?;
            Ok(SpeedupModel::Roofline {
                w: length,
                pbar: pbar(4)?,
            })
        }
        "amd" => {
            arity(toks, 5, name, "mld LENGTH amd GAMMA")?;
            let gamma = number(toks, 4, name, "GAMMA")?;
            in_unit(&gamma, "GAMMA")?;
            Ok(SpeedupModel::Amdahl { w: length, gamma })
        }
        "com" => {
            arity(toks, 5, name, "mld LENGTH com C")?;
            let c = number(toks, 4, name, "C")?;
            non_neg(&c, "C")?;
            Ok(SpeedupModel::Communication { w: length, c })
        }
        "mix" => {
            arity(toks, 7, name, "mld LENGTH mix PBAR S C")?;
            let pbar = pbar(4)?;
            let s = number(toks, 5, name, "S")?;
            non_neg(&s, "S")?;
            let c = number(toks, 6, name, "C")?;
            non_neg(&c, "C")?;
            // w = LENGTH + S > 0 (LENGTH > 0), so γ = S/w is defined and in [0, 1).
            let w = &length + &s;
            let gamma = &s / &w;
            Ok(SpeedupModel::Mix { w, gamma, pbar, c })
        }
        _ => Err(format!(
            "task `{name}`: speedup model `{m}`, expected rft, amd, com, mix or lin"
        )),
    }
}

/// Exactly `n` tokens on the line (`form` shows the expected line).
fn arity(toks: &[&str], n: usize, name: &str, form: &str) -> std::result::Result<(), String> {
    if toks.len() == n {
        Ok(())
    } else {
        Err(format!(
            "task `{name}`: {} fields, expected {n} (`NAME {form}`)",
            toks.len()
        ))
    }
}

fn number(toks: &[&str], i: usize, name: &str, what: &str) -> std::result::Result<Time, String> {
    let tok = toks
        .get(i)
        .ok_or(format!("task `{name}`: missing {what}"))?;
    tok.parse::<Time>()
        .map_err(|e| format!("task `{name}`: {what} `{tok}`: {e}"))
}

fn count(toks: &[&str], i: usize, name: &str, what: &str) -> std::result::Result<u32, String> {
    let tok = toks
        .get(i)
        .ok_or(format!("task `{name}`: missing {what}"))?;
    tok.parse::<u32>()
        .map_err(|_| format!("task `{name}`: {what} `{tok}` is not a non-negative integer"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().unwrap()
    }

    #[test]
    fn reads_every_model_exactly() {
        let text = "A mld 10.5 rft 3\nB mld 8 amd 0.25\n\nC mld 6 com 0.5\n\
                    D mld 2.5 mix 2 1.5 0.125\nE mld 4 lin\nF rgd 7 2\nG mld 9 rft 99\n";
        let inst = parse_instance(text, "f", 4).unwrap();
        assert_eq!(inst.len(), 7);
        let tj = |j: usize, p: u32| inst.jobs[j].time(p).unwrap().clone();
        assert_eq!(tj(0, 4), t("3.5"));
        assert_eq!(tj(1, 4), t("3.5")); // 8·(1/4 + 3/16)
        assert_eq!(tj(2, 3), t("3")); // 2 + 2·0.5
        assert_eq!(tj(3, 4), t("3.125")); // 2.5/2 + 1.5 + 3/8
        assert_eq!(tj(3, 1), t("4"));
        assert_eq!(tj(4, 4), t("1"));
        assert_eq!(inst.jobs[5].as_rigid(), Some((2, &t("7"))));
        assert_eq!(tj(6, 4), t("2.25")); // PBAR 99 clamped to P = 4
    }

    #[test]
    fn errors_name_file_and_line() {
        let cases = [
            ("A mld 1 rft 2\nB mld 1 foo 2\n", "f:2:", "`foo`"),
            ("A mld 1 amd 1.5\n", "f:1:", "[0, 1]"),
            ("A mld 0 com 1\n", "f:1:", "> 0"),
            ("A mld 1 com -1\n", "f:1:", ">= 0"),
            ("A mld 1 mix 2 1\n", "f:1:", "expected 7"),
            ("A mld 1 rft 0\n", "f:1:", "PBAR"),
            ("A mld 1 rft 2\nA mld 1 rft 2\n", "f:2:", "earlier"),
            ("A mld x rft 2\n", "f:1:", "LENGTH `x`"),
            ("A rgd 1 9\n", "f:1:", "outside 1..=4"),
            ("A xyz 1 2\n", "f:1:", "expected mld or rgd"),
            ("\n\n", "f:1:", "no task"),
        ];
        for (text, at, what) in cases {
            let e = parse_instance(text, "f", 4).unwrap_err().to_string();
            assert!(e.starts_with(at) && e.contains(what), "{text:?}: {e}");
        }
        let e = parse_instance("A mld 1 lin\n", "f", 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("procs"), "{e}");
    }

    #[test]
    fn p_above_the_limit_is_refused_before_any_table() {
        let t0 = std::time::Instant::now();
        let e = parse_instance("A mld 1 lin\n", "f", MAX_PROCS + 1)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "parameter `procs`: P = 16777217 is above the limit of 16777216 processors"
        );
        assert!(t0.elapsed().as_millis() < 100, "{:?}", t0.elapsed());
    }
}
