//! The one rule by which every campaign judges a paper's statement against its own numbers.
//!
//! A finding states the paper's number (a value, a range or a bound), ours with its spread (the
//! standard error over job sets or seeds, when there is one), the tolerance it is judged with,
//! and a verdict:
//!
//! - **holds**: ours is within the tolerance of the paper's number (for a range or a bound:
//!   within the tolerance of the nearest end);
//! - **differs**: it is not, or ours is not a number;
//! - **direction only**: the paper gives no number (an ordering, "the best", "increases"), so
//!   only the direction is judged, and the verdict says whether it holds.
//!
//! The tolerances: [`Tolerance::Relative`] (e.g. within 5% of the paper's number), within k
//! standard errors ([`Tolerance::StdErrors`]), the wider of the two
//! ([`Tolerance::RelativeOrStdErrors`]), or a factor (×0.5–×2, [`Tolerance::Factor`]) where the
//! paper gives only an order of magnitude ("10-15%", "a large factor"). A verdict never says
//! "holds" for a number outside its stated tolerance: [`judge`] is the only place that decides.
use super::runner;

/// What the paper states, as a number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paper {
    /// One number.
    Value(f64),
    /// A range `[lo, hi]`; an open side is infinite ("at most 1.2" is `(-inf, 1.2)`).
    Range(f64, f64),
}

impl Paper {
    /// "at most 1.2".
    pub fn at_most(hi: f64) -> Paper {
        Paper::Range(f64::NEG_INFINITY, hi)
    }

    /// "at least 1".
    pub fn at_least(lo: f64) -> Paper {
        Paper::Range(lo, f64::INFINITY)
    }

    /// The paper's number nearest to `x` (the range's nearest end, `x` itself inside it).
    fn nearest(&self, x: f64) -> f64 {
        match *self {
            Paper::Value(v) => v,
            Paper::Range(lo, hi) => x.clamp(lo, hi),
        }
    }
}

/// How far from the paper's number ours may lie and still "hold".
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// Within this fraction of the paper's number (0.05: within 5% relative).
    Relative(f64),
    /// Within this many standard errors of ours.
    StdErrors(f64),
    /// Within the wider of a relative tolerance and a number of standard errors.
    RelativeOrStdErrors(f64, f64),
    /// Ours / the paper's number in `[lo, hi]` (×0.5–×2: the paper gives an order only).
    Factor(f64, f64),
}

impl Tolerance {
    /// The campaigns' default for a number the paper prints: within 5% relative or 2
    /// standard errors.
    pub const PRINTED: Tolerance = Tolerance::RelativeOrStdErrors(0.05, 2.0);
    /// The campaigns' default where the paper gives an order only: ×0.5–×2.
    pub const ORDER: Tolerance = Tolerance::Factor(0.5, 2.0);

    /// The tolerance as the tables state it.
    pub fn text(&self) -> String {
        let pct = |r: f64| format!("{}%", trim(100.0 * r));
        match *self {
            Tolerance::Relative(r) => format!("within {} relative", pct(r)),
            Tolerance::StdErrors(k) => format!("within {} se", trim(k)),
            Tolerance::RelativeOrStdErrors(r, k) => format!("within {} or {} se", pct(r), trim(k)),
            Tolerance::Factor(lo, hi) => format!("×{}–×{}", trim(lo), trim(hi)),
        }
    }
}

/// A number without trailing zeros ("0.5", "2", "5").
fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Our number: a point estimate and its standard error (`None`: a single number, e.g. a
/// maximum over every run, which has none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub se: Option<f64>,
}

impl Estimate {
    /// A mean with its standard error.
    pub fn with_se(value: f64, se: f64) -> Estimate {
        Estimate {
            value,
            se: Some(se),
        }
    }

    /// A number without a spread.
    pub fn exact(value: f64) -> Estimate {
        Estimate { value, se: None }
    }

    /// "0.847 ± 0.014" with `digits` decimals and `unit` after each number ("%" or "").
    pub fn text(&self, digits: usize, unit: &str) -> String {
        match self.se {
            Some(se) if se.is_finite() && se > 0.0 => {
                format!("{:.digits$}{unit} ± {:.digits$}{unit}", self.value, se)
            }
            _ => format!("{:.digits$}{unit}", self.value),
        }
    }

    /// A gap or gain as the verdict tables print it: [`Estimate::text`] with the sign always
    /// written ("+4.1% ± 0.3%", "-0.8% ± 0.5%", "+0.0%").
    pub fn signed_text(&self, digits: usize, unit: &str) -> String {
        let v = signed(self.value, digits, unit);
        // A standard error that rounds to 0 is written as the bound it is below, not as none.
        let half = 0.5 * 10f64.powi(-(digits as i32));
        match self.se {
            Some(se) if se.is_finite() && se > 0.0 && se < half => {
                format!("{v} ± < {half:.prec$}{unit}", prec = digits + 1)
            }
            Some(se) if se.is_finite() && se > 0.0 => format!("{v} ± {se:.digits$}{unit}"),
            _ => v,
        }
    }
}

/// A gap with its sign always written: "+4.1%", "-16.5%" (`unit` after the number); the one
/// format of every gap in the campaigns' verdict tables.
pub fn signed(x: f64, digits: usize, unit: &str) -> String {
    if x.is_finite() {
        format!("{x:+.digits$}{unit}")
    } else {
        format!("{x}{unit}")
    }
}

/// The standard error of the ratio of means `mean(a) / mean(b)` of two measures taken on the
/// same sets (`a[i]` and `b[i]` on set `i`), from the per-set differences `a[i] − r·b[i]`
/// (the ratio estimator's delta method): unlike propagating both means' standard errors as if
/// independent, what the sets share cancels. `None` below two pairs, on lengths that differ or
/// on a zero mean of `b`.
pub fn paired_ratio_se(a: &[f64], b: &[f64]) -> Option<f64> {
    let n = a.len();
    if n < 2 || b.len() != n {
        return None;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / n as f64;
    let (ma, mb) = (mean(a), mean(b));
    if mb == 0.0 || !mb.is_finite() || !ma.is_finite() {
        return None;
    }
    let r = ma / mb;
    let ss: f64 = a.iter().zip(b).map(|(x, y)| (x - r * y).powi(2)).sum();
    Some((ss / ((n - 1) * n) as f64).sqrt() / mb.abs())
}

/// The standard error of a mean from the population standard deviation of `n` values
/// (`n − 1` in the denominator: the sample variance); `None` below two values.
pub fn se_from_pop_std(std: f64, n: usize) -> Option<f64> {
    (n > 1 && std.is_finite()).then(|| std / ((n - 1) as f64).sqrt())
}

/// The verdict on one finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the stated tolerance of the paper's number.
    Holds,
    /// Outside it (or ours is not a number).
    Differs,
    /// The paper gives no number; the direction it states holds (`true`) or not.
    Direction(bool),
}

impl Verdict {
    /// The verdict as the tables write it.
    pub fn text(&self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Differs => "**differs**",
            Verdict::Direction(true) => "direction only: holds",
            Verdict::Direction(false) => "direction only: **differs**",
        }
    }

    /// The verdict without Markdown emphasis, for CSV and JSON.
    pub fn plain(&self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Differs => "differs",
            Verdict::Direction(true) => "direction only: holds",
            Verdict::Direction(false) => "direction only: differs",
        }
    }

    /// Whether the statement holds (in magnitude, or in direction where it has none).
    pub fn holds(&self) -> bool {
        matches!(self, Verdict::Holds | Verdict::Direction(true))
    }
}

/// The one rule: whether `ours` lies within `tol` of the paper's number.
pub fn judge(paper: Paper, ours: Estimate, tol: Tolerance) -> Verdict {
    let x = ours.value;
    if !x.is_finite() {
        return Verdict::Differs;
    }
    let p = paper.nearest(x);
    if !p.is_finite() {
        return Verdict::Differs;
    }
    let dist = (x - p).abs();
    // A standard error that is not a number widens nothing.
    let se = ours.se.filter(|s| s.is_finite() && *s >= 0.0);
    let within = match tol {
        Tolerance::Relative(r) => dist <= r * p.abs(),
        Tolerance::StdErrors(k) => {
            // default: without a standard error the tolerance has no width
            dist <= k * se.unwrap_or(0.0)
        }
        Tolerance::RelativeOrStdErrors(r, k) => {
            // default: no se, the relative tolerance alone
            dist <= (r * p.abs()).max(k * se.unwrap_or(0.0))
        }
        Tolerance::Factor(lo, hi) => match paper {
            Paper::Value(v) => v != 0.0 && (lo..=hi).contains(&(x / v)),
            Paper::Range(a, b) => {
                let below = if a.is_finite() { x >= a * lo } else { true };
                let above = if b.is_finite() { x <= b * hi } else { true };
                below && above
            }
        },
    };
    if within {
        Verdict::Holds
    } else {
        Verdict::Differs
    }
}

/// One row of a campaign's "the paper's findings, checked" table.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The paper's statement, in a few words.
    pub claim: String,
    /// The paper's number (or its words, where it gives none) and where it says it.
    pub paper: String,
    /// Our number with its spread, and what it is (which point, which reading).
    pub ours: String,
    /// The tolerance stated ("–" for a direction).
    pub tolerance: String,
    pub verdict: Verdict,
}

impl Finding {
    /// A statement with a number: judged by [`judge`]; `ours` is the text of our number
    /// (usually [`Estimate::text`] with what it is).
    pub fn number(
        claim: impl Into<String>,
        paper_text: impl Into<String>,
        paper: Paper,
        est: Estimate,
        tol: Tolerance,
        ours: impl Into<String>,
    ) -> Finding {
        Finding {
            claim: claim.into(),
            paper: paper_text.into(),
            ours: ours.into(),
            tolerance: tol.text(),
            verdict: judge(paper, est, tol),
        }
    }

    /// A statement without a number: only its direction is judged.
    pub fn direction(
        claim: impl Into<String>,
        paper_text: impl Into<String>,
        ours: impl Into<String>,
        holds: bool,
    ) -> Finding {
        Finding {
            claim: claim.into(),
            paper: paper_text.into(),
            ours: ours.into(),
            tolerance: "–".into(),
            verdict: Verdict::Direction(holds),
        }
    }

    /// The table row: claim, paper, ours, tolerance, verdict.
    pub fn row(&self) -> Vec<String> {
        vec![
            self.claim.clone(),
            self.paper.clone(),
            self.ours.clone(),
            self.tolerance.clone(),
            self.verdict.text().into(),
        ]
    }
}

/// The findings as a Markdown table (claim | paper | ours | tolerance | verdict).
pub fn table(findings: &[Finding]) -> String {
    let rows: Vec<Vec<String>> = findings.iter().map(Finding::row).collect();
    runner::markdown_table(
        &["claim", "paper", "ours", "tolerance", "verdict"].map(String::from),
        &rows,
    )
}

/// The line under a findings table that says how to read it.
pub const LEGEND: &str = "Verdict: *holds* within the stated tolerance of the paper's number (of the nearest end of a range); *differs* outside it; *direction only* where the paper gives no number. ± is one standard error.\n";

#[cfg(test)]
mod tests {
    use super::*;

    /// The rigid paper's R-ShelfFill gain over R-Shelf: ours 0.8% against 4.8% differs under
    /// every tolerance the campaigns use, though it has the paper's sign.
    #[test]
    fn a_gain_six_times_smaller_differs() {
        let ours = Estimate::with_se(0.8, 0.1);
        for tol in [
            Tolerance::PRINTED,
            Tolerance::ORDER,
            Tolerance::Relative(0.05),
        ] {
            assert_eq!(
                judge(Paper::Value(4.8), ours, tol),
                Verdict::Differs,
                "{tol:?}"
            );
        }
    }

    /// "R-List-Q is the worst, +23%": ours +1.2% differs; the kept reading's +20.4% is an order
    /// match but not within 5%.
    #[test]
    fn a_gap_of_one_percent_against_23_differs() {
        let p = Paper::Value(23.0);
        assert_eq!(
            judge(p, Estimate::exact(1.2), Tolerance::PRINTED),
            Verdict::Differs
        );
        assert_eq!(
            judge(p, Estimate::exact(1.2), Tolerance::ORDER),
            Verdict::Differs
        );
        assert_eq!(
            judge(p, Estimate::exact(20.4), Tolerance::PRINTED),
            Verdict::Differs
        );
        assert_eq!(
            judge(p, Estimate::exact(20.4), Tolerance::ORDER),
            Verdict::Holds
        );
        assert_eq!(
            judge(p, Estimate::exact(22.0), Tolerance::PRINTED),
            Verdict::Holds
        );
    }

    /// A point estimate just under a range holds within two standard errors, and not beyond.
    #[test]
    fn a_range_is_judged_with_the_standard_error() {
        let r = Paper::Range(0.85, 0.90);
        let tol = Tolerance::StdErrors(2.0);
        assert_eq!(
            judge(r, Estimate::with_se(0.847, 0.014), tol),
            Verdict::Holds
        );
        assert_eq!(judge(r, Estimate::with_se(0.875, 0.0), tol), Verdict::Holds);
        assert_eq!(
            judge(r, Estimate::with_se(0.961, 0.011), tol),
            Verdict::Differs
        );
        assert_eq!(judge(r, Estimate::exact(0.847), tol), Verdict::Differs);
        assert_eq!(
            judge(r, Estimate::with_se(0.82, 0.014), tol),
            Verdict::Differs
        );
    }

    /// "At most 1.2": 1.203 is within 5%, 1.281 is not.
    #[test]
    fn a_bound_is_judged_at_its_end() {
        let b = Paper::at_most(1.2);
        let tol = Tolerance::Relative(0.05);
        assert_eq!(judge(b, Estimate::exact(1.1), tol), Verdict::Holds);
        assert_eq!(judge(b, Estimate::exact(1.203), tol), Verdict::Holds);
        assert_eq!(judge(b, Estimate::exact(1.281), tol), Verdict::Differs);
        let l = Paper::at_least(1.0);
        assert_eq!(judge(l, Estimate::exact(0.9), tol), Verdict::Differs);
        assert_eq!(judge(l, Estimate::exact(30.0), tol), Verdict::Holds);
    }

    /// Not a number never holds; a missing or NaN standard error adds no width.
    #[test]
    fn no_number_differs_and_no_se_widens_nothing() {
        for tol in [
            Tolerance::PRINTED,
            Tolerance::ORDER,
            Tolerance::StdErrors(2.0),
        ] {
            assert_eq!(
                judge(Paper::Value(1.0), Estimate::exact(f64::NAN), tol),
                Verdict::Differs
            );
        }
        let nan_se = Estimate::with_se(1.2, f64::NAN);
        assert_eq!(
            judge(Paper::Value(1.0), nan_se, Tolerance::StdErrors(2.0)),
            Verdict::Differs
        );
        assert_eq!(
            judge(Paper::Value(0.0), Estimate::exact(0.0), Tolerance::ORDER),
            Verdict::Differs
        );
    }

    /// Over a grid of paper values, estimates and standard errors, a "holds" is always within
    /// the stated tolerance recomputed here from its definition, and a "differs" outside it.
    #[test]
    fn no_verdict_holds_outside_its_tolerance() {
        let papers = [0.5, 1.0, 1.2, 4.8, 23.0];
        let tols = [
            Tolerance::Relative(0.05),
            Tolerance::StdErrors(2.0),
            Tolerance::PRINTED,
            Tolerance::ORDER,
        ];
        let mut holds = 0;
        let mut differs = 0;
        for &p in &papers {
            for i in 0..=80 {
                let x = p * (0.2 + 0.03 * f64::from(i));
                for se in [0.0, 0.01, 0.1, 1.0] {
                    for tol in tols {
                        let v = judge(Paper::Value(p), Estimate::with_se(x, se), tol);
                        let d = (x - p).abs();
                        let inside = match tol {
                            Tolerance::Relative(r) => d <= r * p,
                            Tolerance::StdErrors(k) => d <= k * se,
                            Tolerance::RelativeOrStdErrors(r, k) => d <= r * p || d <= k * se,
                            Tolerance::Factor(lo, hi) => x / p >= lo && x / p <= hi,
                        };
                        assert_eq!(v == Verdict::Holds, inside, "p {p} x {x} se {se} {tol:?}");
                        if inside {
                            holds += 1;
                        } else {
                            differs += 1;
                        }
                    }
                }
            }
        }
        assert!(holds > 100 && differs > 100, "{holds} {differs}");
    }

    /// The paired standard error of a ratio of means, computed by hand: a = (2, 1, 3, 2),
    /// b = (1, 1, 2, 2): r = 2 / 1.5 = 4/3, per-set differences a − r·b = (2/3, −1/3, 1/3,
    /// −2/3), Σ d² = 10/9, se = sqrt(10/9 / (4·3)) / 1.5 = sqrt(5/54) / 1.5 = 0.2028602…; the
    /// independent propagation gives r·sqrt((se_a/ā)² + (se_b/b̄)²) = 4/3·sqrt((0.4082/2)² +
    /// (0.2887/1.5)²) = 0.3741, nearly twice as wide. Sets that move together (b = 2a) have
    /// none.
    #[test]
    fn a_gain_on_the_same_sets_has_the_paired_standard_error() {
        let (a, b) = ([2.0, 1.0, 3.0, 2.0], [1.0, 1.0, 2.0, 2.0]);
        let se = paired_ratio_se(&a, &b).unwrap();
        assert!((se - (5.0f64 / 54.0).sqrt() / 1.5).abs() < 1e-12, "{se}");
        assert!((se - 0.202_860_2).abs() < 1e-6, "{se}");
        let indep = 4.0 / 3.0
            * ((f64::sqrt(2.0 / 3.0) / 2.0 / 2.0).powi(2)
                + (f64::sqrt(1.0 / 3.0) / 2.0 / 1.5).powi(2))
            .sqrt();
        assert!((indep - 0.374_055_7).abs() < 1e-6, "{indep}");
        assert_eq!(
            paired_ratio_se(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]),
            Some(0.0)
        );
        assert_eq!(paired_ratio_se(&[1.0], &[1.0]), None);
        assert_eq!(paired_ratio_se(&[1.0, 2.0], &[1.0]), None);
        assert_eq!(paired_ratio_se(&[1.0, 2.0], &[0.0, 0.0]), None);
    }

    /// A gap's sign is always written.
    #[test]
    fn gaps_carry_their_sign() {
        assert_eq!(signed(4.07, 1, "%"), "+4.1%");
        assert_eq!(signed(-16.5, 1, "%"), "-16.5%");
        assert_eq!(signed(0.0, 1, "%"), "+0.0%");
        assert_eq!(signed(f64::NAN, 1, "%"), "NaN%");
        assert_eq!(
            Estimate::with_se(17.46, 0.31).signed_text(1, "%"),
            "+17.5% ± 0.3%"
        );
        assert_eq!(Estimate::exact(-0.84).signed_text(1, "%"), "-0.8%");
        assert_eq!(
            Estimate::with_se(0.94, 0.03).signed_text(1, "%"),
            "+0.9% ± < 0.05%"
        );
    }

    /// The texts the tables print.
    #[test]
    fn texts() {
        assert_eq!(Tolerance::PRINTED.text(), "within 5% or 2 se");
        assert_eq!(Tolerance::ORDER.text(), "×0.5–×2");
        assert_eq!(Tolerance::Relative(0.05).text(), "within 5% relative");
        assert_eq!(
            Estimate::with_se(0.8472, 0.0141).text(3, ""),
            "0.847 ± 0.014"
        );
        assert_eq!(Estimate::exact(1.2).text(1, "%"), "1.2%");
        assert_eq!(
            Verdict::Direction(false).text(),
            "direction only: **differs**"
        );
        let f = Finding::number(
            "c",
            "4.8%",
            Paper::Value(4.8),
            Estimate::with_se(0.8, 0.1),
            Tolerance::PRINTED,
            "0.8%",
        );
        assert_eq!(
            f.row(),
            ["c", "4.8%", "0.8%", "within 5% or 2 se", "**differs**"]
        );
        assert!(table(&[f]).starts_with("| claim | paper | ours | tolerance | verdict |"));
    }
}
