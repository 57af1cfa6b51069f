//! Judging one answer of the other implementation against resched's certified run.
//!
//! - A makespan alone is compared with resched's: exactly, or within a relative tolerance
//!   `|theirs − ours| ≤ tol·ours` (exact rational arithmetic; for floating-point programs).
//! - A schedule is first judged by the independent checker ([`resched::check::check`]), exactly
//!   even under a tolerance: an infeasible schedule is a mismatch of its own kind. A feasible
//!   one is then compared by its makespan; if it also states a makespan, that must match its
//!   own schedule. With equal makespans, different decisions (the attempts compared as a set:
//!   job, attempt, start, processors, duration) are a mismatch by default (schedules are
//!   compared), a note with `--compare makespans`.
//! - With `--ties`, a makespan or decision difference that comes from another breaking of an
//!   exact tie of the algorithm's criterion is a tie ([`super::ties`]).
//! - No answer (timeout, crash, unparsable output, a JSONL error response) is a mismatch.
use super::external::{Failure, Reply};
use resched::check;
use resched::model::{Attempt, Instance, Scenario, Schedule};
use resched::oracle::Certified;
use resched::time::Time;

/// What kind of disagreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Different makespans.
    Makespan,
    /// Same makespan, other decisions (a mismatch only with `--same-schedule`).
    Decisions,
    /// The returned schedule breaks an invariant of the checker.
    Infeasible,
    /// The stated makespan is not the one of the returned schedule.
    Inconsistent,
    Timeout,
    /// Non-zero exit, signal, or (JSONL) exit before answering.
    Crash,
    /// Output that is not an answer.
    Garbage,
    /// A JSONL error response.
    Refused,
}

impl Kind {
    /// The name used in reports and in the counterexample file.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Makespan => "makespan",
            Kind::Decisions => "decisions",
            Kind::Infeasible => "infeasible",
            Kind::Inconsistent => "inconsistent",
            Kind::Timeout => "timeout",
            Kind::Crash => "crash",
            Kind::Garbage => "garbage",
            Kind::Refused => "refused",
        }
    }

    /// Whether a shrunk case showing `other` still shows the same bug as one showing `self`:
    /// makespan and decision differences are one family (a smaller case often shows the wrong
    /// decision before it changes the makespan); crashes, garbage and refusals another; the
    /// rest only themselves.
    pub fn same_bug(self, other: Kind) -> bool {
        let family = |k: Kind| match k {
            Kind::Makespan | Kind::Decisions => 0,
            Kind::Infeasible => 1,
            Kind::Inconsistent => 2,
            Kind::Crash | Kind::Garbage | Kind::Refused => 3,
            Kind::Timeout => 4,
        };
        family(self) == family(other)
    }
}

/// A mismatch: its kind and what differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub kind: Kind,
    pub detail: String,
}

/// The judgement of one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Agree,
    /// Same makespan, other decisions (with `--compare makespans`).
    Note(String),
    /// The algorithm's answer under another breaking of exact ties (with `--ties`): why.
    Tie(String),
    Mismatch(Mismatch),
}

/// How answers are compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Relative tolerance on makespans; `None` is exact equality.
    pub rel_tol: Option<Time>,
    /// Different decisions with the same makespan are a mismatch (schedules are compared, the
    /// default); false compares makespans only.
    pub same_schedule: bool,
    /// A difference explained by exact ties of the algorithm's criterion is a tie.
    pub ties: bool,
}

impl Default for Rules {
    /// Exact, schedules compared, no tie tolerance: `diff`'s defaults.
    fn default() -> Rules {
        Rules {
            rel_tol: None,
            same_schedule: true,
            ties: false,
        }
    }
}

impl Rules {
    /// What is compared when the program prints a schedule: `schedules` or `makespans`.
    pub fn compared(&self) -> &'static str {
        if self.same_schedule {
            "schedules"
        } else {
            "makespans"
        }
    }

    /// Whether `theirs` equals `ours` under the tolerance.
    pub fn close(&self, theirs: &Time, ours: &Time) -> bool {
        match &self.rel_tol {
            None => theirs == ours,
            Some(tol) => (theirs - ours).abs() <= tol * &ours.abs(),
        }
    }
}

/// `7/2 (3.500000)`: exact and decimal.
pub fn both(t: &Time) -> String {
    if t.is_integer() {
        t.to_string()
    } else {
        format!("{t} (≈{})", t.to_decimal_string(6))
    }
}

fn mismatch(kind: Kind, detail: String) -> Verdict {
    Verdict::Mismatch(Mismatch { kind, detail })
}

/// Judges `reply` against resched's run `ours` of (`inst`, `sc`).
pub fn judge(
    ours: &Certified,
    reply: &Reply,
    inst: &Instance,
    sc: &Scenario,
    rules: &Rules,
) -> Verdict {
    let answer = match &reply.answer {
        Ok(a) => a,
        Err(f) => {
            let kind = match f {
                Failure::Timeout(_) => Kind::Timeout,
                Failure::Crash(_) => Kind::Crash,
                Failure::Garbage { .. } => Kind::Garbage,
                Failure::Refused(_) => Kind::Refused,
            };
            return mismatch(kind, f.to_string());
        }
    };
    let Some(theirs) = &answer.schedule else {
        let m = answer.makespan.as_ref();
        return match m {
            Some(m) if rules.close(m, &ours.makespan) => Verdict::Agree,
            Some(m) => mismatch(
                Kind::Makespan,
                format!("resched {}, other {}", both(&ours.makespan), both(m)),
            ),
            None => mismatch(
                Kind::Garbage,
                "an answer with neither makespan nor schedule".into(),
            ),
        };
    };
    let end = match check::check(inst, sc, theirs) {
        Ok(end) => end,
        Err(v) => {
            return mismatch(
                Kind::Infeasible,
                format!("the other schedule is infeasible: {v}"),
            )
        }
    };
    if let Some(stated) = &answer.makespan {
        if !rules.close(stated, &end) {
            return mismatch(
                Kind::Inconsistent,
                format!(
                    "the other states makespan {} but its schedule ends at {}",
                    both(stated),
                    both(&end)
                ),
            );
        }
    }
    if !rules.close(&end, &ours.makespan) {
        return mismatch(
            Kind::Makespan,
            format!(
                "resched {}, other {} (its schedule is feasible)",
                both(&ours.makespan),
                both(&end)
            ),
        );
    }
    match first_difference(&ours.schedule, theirs, inst) {
        None => Verdict::Agree,
        Some(d) if rules.same_schedule => mismatch(
            Kind::Decisions,
            format!(
                "same makespan {}, other decisions: {d}",
                both(&ours.makespan)
            ),
        ),
        Some(d) => Verdict::Note(format!(
            "same makespan {}, other decisions: {d}",
            both(&ours.makespan)
        )),
    }
}

/// The attempts of a schedule as comparable decisions, by (job, attempt).
fn decisions(s: &Schedule) -> Vec<&Attempt> {
    let mut v: Vec<&Attempt> = s.attempts.iter().collect();
    v.sort_by_key(|a| (a.job, a.attempt));
    v
}

/// The first attempt (by job, then attempt number) on which two schedules differ, in words.
pub fn first_difference(ours: &Schedule, theirs: &Schedule, inst: &Instance) -> Option<String> {
    let (a, b) = (decisions(ours), decisions(theirs));
    let name = |j: usize| {
        inst.jobs
            .get(j)
            .map_or_else(|| format!("#{j}"), |x| x.name.clone())
    };
    let show = |x: &Attempt| {
        let s = if x.procs == 1 { "" } else { "s" };
        format!("starts at {} on {} processor{s}", x.start, x.procs)
    };
    for (x, y) in a.iter().zip(&b) {
        let same = x.job == y.job
            && x.attempt == y.attempt
            && x.start == y.start
            && x.procs == y.procs
            && x.duration == y.duration;
        if !same {
            return Some(if (x.job, x.attempt) == (y.job, y.attempt) {
                format!(
                    "attempt {} of {}: resched {}, other {}",
                    x.attempt,
                    name(x.job),
                    show(x),
                    show(y)
                )
            } else {
                format!(
                    "resched has attempt {} of {} where the other has attempt {} of {}",
                    x.attempt,
                    name(x.job),
                    y.attempt,
                    name(y.job)
                )
            });
        }
    }
    (a.len() != b.len()).then(|| format!("resched has {} attempts, the other {}", a.len(), b.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::answer::Answer;
    use resched::oracle::{certify, AlgoSpec};

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn reply(makespan: Option<&str>, schedule: Option<Schedule>) -> Reply {
        Reply {
            answer: Ok(Answer {
                makespan: makespan.map(t),
                schedule,
            }),
            stderr: String::new(),
        }
    }

    /// P = 2, J1 (1 proc, 1, fails twice), J2 (1 proc, 2), J3 (2 procs, 2): GREEDY/LPT runs J2
    /// and J1 at 0, J1 again at 1 and 2, J3 at 2 after both end, J1's last attempt at 4; 5.
    fn case() -> (Instance, Scenario, Certified) {
        let inst = Instance::rigid(2, &[(1, t("1")), (1, t("2")), (2, t("2"))])
            .unwrap_or_else(|e| panic!("{e}"));
        let sc = Scenario::new(vec![2, 0, 0]);
        let c = certify(&AlgoSpec::new("greedy"), &inst, &sc).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.makespan, t("5"));
        (inst, sc, c)
    }

    #[test]
    fn makespans_exactly_or_within_a_tolerance() {
        let (inst, sc, ours) = case();
        let exact = Rules::default();
        assert_eq!(
            judge(&ours, &reply(Some("5"), None), &inst, &sc, &exact),
            Verdict::Agree
        );
        let v = judge(&ours, &reply(Some("5.0000001"), None), &inst, &sc, &exact);
        assert!(
            matches!(&v, Verdict::Mismatch(m) if m.kind == Kind::Makespan && m.detail.contains("resched 5, other 50000001/10000000")),
            "{v:?}"
        );
        let loose = Rules {
            rel_tol: Some(t("1e-6")),
            ..Rules::default()
        };
        assert_eq!(
            judge(&ours, &reply(Some("5.0000001"), None), &inst, &sc, &loose),
            Verdict::Agree
        );
        assert!(matches!(
            judge(&ours, &reply(Some("5.001"), None), &inst, &sc, &loose),
            Verdict::Mismatch(_)
        ));
    }

    #[test]
    fn schedules_are_checked_then_compared() {
        let (inst, sc, ours) = case();
        let rules = Rules {
            same_schedule: false,
            ..Rules::default()
        };
        let same = ours.schedule.clone();
        assert_eq!(
            judge(&ours, &reply(None, Some(same.clone())), &inst, &sc, &rules),
            Verdict::Agree
        );
        let v = judge(&ours, &reply(Some("6"), Some(same)), &inst, &sc, &rules);
        assert!(
            matches!(&v, Verdict::Mismatch(m) if m.kind == Kind::Inconsistent),
            "{v:?}"
        );
        // The one-completion-at-a-time schedule: J1's third attempt at 2, J3 at 3; also 5.
        let mut other = ours.schedule.clone();
        for a in &mut other.attempts {
            match (a.job, a.attempt) {
                (0, 3) => a.start = t("2"),
                (2, 1) => a.start = t("3"),
                _ => {}
            }
        }
        let v = judge(&ours, &reply(None, Some(other.clone())), &inst, &sc, &rules);
        assert!(
            matches!(&v, Verdict::Note(d) if d.contains("attempt 3 of J1: resched starts at 4")),
            "{v:?}"
        );
        // Schedules are compared by default.
        let strict = Rules::default();
        let v = judge(
            &ours,
            &reply(None, Some(other.clone())),
            &inst,
            &sc,
            &strict,
        );
        assert!(
            matches!(&v, Verdict::Mismatch(m) if m.kind == Kind::Decisions),
            "{v:?}"
        );
        other.attempts[0].procs = 2;
        let v = judge(&ours, &reply(None, Some(other)), &inst, &sc, &rules);
        assert!(
            matches!(&v, Verdict::Mismatch(m) if m.kind == Kind::Infeasible),
            "{v:?}"
        );
    }

    #[test]
    fn no_answer_is_a_mismatch_of_its_kind() {
        let (inst, sc, ours) = case();
        for (f, k) in [
            (
                Failure::Timeout(std::time::Duration::from_secs(1)),
                Kind::Timeout,
            ),
            (Failure::Crash("exit code 1".into()), Kind::Crash),
            (Failure::Refused("no".into()), Kind::Refused),
        ] {
            let r = Reply {
                answer: Err(f),
                stderr: String::new(),
            };
            assert!(
                matches!(judge(&ours, &r, &inst, &sc, &Rules::default()), Verdict::Mismatch(m) if m.kind == k)
            );
        }
        assert!(Kind::Makespan.same_bug(Kind::Decisions));
        assert!(!Kind::Makespan.same_bug(Kind::Crash));
        assert!(Kind::Crash.same_bug(Kind::Garbage));
    }
}
