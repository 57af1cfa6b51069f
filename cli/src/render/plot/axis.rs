//! The axes of a line chart in natural units: a linear or a base-10 logarithmic scale whose
//! ticks are labelled with the values themselves ("0.001", "10 h", "10⁻⁸"), never with their
//! logarithms, at round positions (1–2–5 steps on a linear axis, decades — with 2× and 5× when
//! the range spans less than two decades — on a log axis).
//!
//! [`NatAxis`] is a plotters coordinate ([`Ranged`]): the mapping, the ticks and their labels
//! live in one type, so a chart with a log x axis and a linear y axis is the same code as one
//! with two linear axes.
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use std::ops::Range;

/// Linear or base-10 logarithmic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    #[default]
    Linear,
    Log,
}

/// One axis of a chart: its range (in data units), scale, ticks and the unit written after
/// every tick label.
#[derive(Debug, Clone, PartialEq)]
pub struct NatAxis {
    lo: f64,
    hi: f64,
    scale: Scale,
    unit: String,
    major: Vec<f64>,
    minor: Vec<f64>,
    /// Labels given by the caller for some major ticks ([`NatAxis::labelled_at`]).
    given: Vec<(f64, String)>,
}

impl NatAxis {
    /// An axis over `lo..hi` (data units; both > 0 on a log axis, `lo < hi`), with `unit`
    /// ("" for none) after each label. The caller pads the range: `padded`.
    pub fn new(lo: f64, hi: f64, scale: Scale, unit: &str) -> NatAxis {
        let (major, minor) = match scale {
            Scale::Linear => linear_ticks(lo, hi),
            Scale::Log => log_ticks(lo, hi),
        };
        NatAxis {
            lo,
            hi,
            scale,
            unit: unit.to_string(),
            major,
            minor,
            given: Vec::new(),
        }
    }

    /// The same axis with exactly `ticks` (those in range) labelled, each with its own text,
    /// and its round ticks kept as unlabelled grid lines; no tick in range: unchanged.
    pub fn labelled_at(mut self, ticks: &[(f64, String)]) -> NatAxis {
        let inside: Vec<(f64, String)> = ticks
            .iter()
            .filter(|(v, _)| v.is_finite() && *v >= self.lo && *v <= self.hi)
            .filter(|(v, _)| self.scale == Scale::Linear || *v > 0.0)
            .cloned()
            .collect();
        if inside.is_empty() {
            return self;
        }
        self.minor.append(&mut self.major);
        self.major = inside.iter().map(|t| t.0).collect();
        self.major.sort_by(f64::total_cmp);
        self.given = inside;
        self
    }

    /// The position of `v` along the axis, 0 at `lo` and 1 at `hi` (NaN for a non-positive
    /// value on a log axis: callers filter those out first).
    fn frac(&self, v: f64) -> f64 {
        match self.scale {
            Scale::Linear => (v - self.lo) / (self.hi - self.lo),
            Scale::Log => (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10()),
        }
    }

    /// The label of tick `v`: its natural value and the unit.
    pub fn label(&self, v: f64) -> String {
        if let Some((_, text)) = self.given.iter().find(|(g, _)| *g == v) {
            return text.clone();
        }
        let step = match self.scale {
            Scale::Linear => self.major.windows(2).map(|w| w[1] - w[0]).next(),
            Scale::Log => None,
        };
        let text = natural(v, step);
        if self.unit.is_empty() {
            text
        } else {
            format!("{text} {}", self.unit)
        }
    }

    /// The ticks that carry a label.
    pub fn major(&self) -> &[f64] {
        &self.major
    }
}

impl Ranged for NatAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = self.frac(*v);
        let px = f64::from(limit.0) + f * f64::from(limit.1 - limit.0);
        // Display only: a NaN (filtered out before drawing) or far-away value saturates.
        px.round()
            .clamp(f64::from(i32::MIN / 2), f64::from(i32::MAX / 2)) as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            let mut all: Vec<f64> = self.major.iter().chain(&self.minor).copied().collect();
            all.sort_by(f64::total_cmp);
            all
        } else {
            self.major.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

impl ValueFormatter<f64> for NatAxis {
    fn format_ext(&self, v: &f64) -> String {
        self.label(*v)
    }
}

/// `lo..hi` widened by 5% of the span on each side (in log space on a log axis), never empty.
/// Non-finite bounds (no data) give 0..1 (1..10 on a log axis).
pub fn padded(lo: f64, hi: f64, scale: Scale) -> (f64, f64) {
    match scale {
        Scale::Linear => {
            if !lo.is_finite() || !hi.is_finite() {
                return (0.0, 1.0);
            }
            let span = hi - lo;
            let m = if span > 0.0 {
                span * 0.05
            } else {
                lo.abs().max(1.0) * 0.05
            };
            (lo - m, hi + m)
        }
        Scale::Log => {
            if !(lo.is_finite() && hi.is_finite() && lo > 0.0) {
                return (1.0, 10.0);
            }
            let (a, b) = (lo.log10(), hi.log10());
            let m = if b > a { (b - a) * 0.05 } else { 0.1 };
            (10f64.powf(a - m), 10f64.powf(b + m))
        }
    }
}

/// Major ticks at multiples of a 1–2–5 step giving 4 to 10 ticks; no minor ticks.
fn linear_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let span = hi - lo;
    if !(span > 0.0 && span.is_finite()) {
        return (vec![lo], Vec::new());
    }
    let raw = span / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| span / s <= 8.0)
        // default: span/(10·mag) <= 8 always holds for mag = 10^floor(log10 span); the widest step is the fallback
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    // Multiples of the step, computed from integers so that 0.1 × 3 prints as 0.3.
    let major = (first..=last).map(|k| k as f64 * step).collect();
    (major, Vec::new())
}

/// Decades as major ticks (with 2× and 5× when fewer than three decades fall in range, and
/// every other decade when more than ten do); 2×…9× as minor ticks.
fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return (vec![lo], Vec::new());
    }
    let (d0, d1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let inside = |v: &f64| *v >= lo * (1.0 - 1e-12) && *v <= hi * (1.0 + 1e-12);
    let decade = |d: i32| 10f64.powi(d);
    let decades: Vec<f64> = (d0..=d1).map(decade).filter(inside).collect();
    let mults: Vec<f64> = (d0..=d1)
        .flat_map(|d| (2..10).map(move |m| f64::from(m) * decade(d)))
        .filter(inside)
        .collect();
    if decades.len() < 3 {
        let (mut major, minor): (Vec<f64>, Vec<f64>) = mults.into_iter().partition(|v| {
            let m = (v / decade(v.log10().floor() as i32)).round();
            m == 2.0 || m == 5.0
        });
        major.extend(decades);
        major.sort_by(f64::total_cmp);
        (major, minor)
    } else if decades.len() > 10 {
        (decades.iter().copied().step_by(2).collect(), decades)
    } else {
        (decades, mults)
    }
}

/// `v` written as a reader expects: plain decimals between 10⁻⁴ and 10⁶ (with as many digits
/// as the tick step needs), else a power of ten ("10⁻⁸", "3·10⁻⁷").
pub fn natural(v: f64, step: Option<f64>) -> String {
    if !v.is_finite() {
        return "–".into();
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if (1e-4..1e6).contains(&a) {
        let digits = match step {
            Some(s) if s > 0.0 => (-s.log10().floor()).max(0.0) as usize,
            // No step (log ticks, published values): six significant digits, trimmed below.
            _ => (5.0 - a.log10().floor()).clamp(0.0, 10.0) as usize,
        };
        let s = format!("{v:.digits$}");
        // 2.50 → 2.5 when the value needs fewer digits than the step (log ticks).
        if step.is_none() && s.contains('.') {
            return s.trim_end_matches('0').trim_end_matches('.').to_string();
        }
        return s;
    }
    // The nudge keeps 10⁻⁸, whose log10 may come out as −8.000…1, in its own decade.
    let e = (a.log10() + 1e-9).floor() as i32;
    let m = v / 10f64.powi(e);
    let exp = superscript(e);
    if (m.abs() - 1.0).abs() < 1e-9 {
        format!("{}10{exp}", if v < 0.0 { "−" } else { "" })
    } else {
        let m = format!("{m:.2}");
        let m = m.trim_end_matches('0').trim_end_matches('.');
        format!("{m}·10{exp}")
    }
}

/// An integer in superscript digits (DejaVu Sans has them all).
fn superscript(e: i32) -> String {
    e.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            // unreachable: the characters mapped here are ASCII digits, so to_digit succeeds and U+2070+d is a char
            c => char::from_u32(0x2070 + c.to_digit(10).unwrap_or(0)).unwrap_or(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_are_decades_labelled_naturally() {
        let a = NatAxis::new(0.0008, 0.2, Scale::Log, "");
        let labels: Vec<String> = a.major().iter().map(|&v| a.label(v)).collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1"]);
        let h = NatAxis::new(0.5, 60.0, Scale::Log, "h");
        let labels: Vec<String> = h.major().iter().map(|&v| h.label(v)).collect();
        assert_eq!(
            labels,
            ["0.5 h", "1 h", "2 h", "5 h", "10 h", "20 h", "50 h"]
        );
        let l = NatAxis::new(0.9e-8, 1.1e-6, Scale::Log, "");
        let labels: Vec<String> = l.major().iter().map(|&v| l.label(v)).collect();
        assert_eq!(labels, ["10⁻⁸", "10⁻⁷", "10⁻⁶"]);
    }

    #[test]
    fn given_ticks_replace_the_round_ones_and_keep_their_text() {
        let ticks: Vec<(f64, String)> = [(1.0 / 3.0, "20 min"), (1.0, "1 h"), (10.0, "10 h")]
            .into_iter()
            .chain([(100.0, "out of range")])
            .map(|(v, t)| (v, t.to_string()))
            .collect();
        let a = NatAxis::new(0.3, 11.0, Scale::Log, "h").labelled_at(&ticks);
        let labels: Vec<String> = a.major().iter().map(|&v| a.label(v)).collect();
        assert_eq!(labels, ["20 min", "1 h", "10 h"]);
        // The round ticks stay as grid lines, and a value not given is labelled as before.
        assert!(a.minor.contains(&0.5) && a.minor.contains(&5.0));
        assert_eq!(a.label(5.0), "5 h");
        // Nothing in range: the round ticks stay.
        let b = NatAxis::new(0.3, 11.0, Scale::Log, "h").labelled_at(&ticks[3..]);
        assert_eq!(b, NatAxis::new(0.3, 11.0, Scale::Log, "h"));
    }

    #[test]
    fn short_log_ranges_get_2_and_5() {
        let a = NatAxis::new(1.5, 30.0, Scale::Log, "");
        let labels: Vec<String> = a.major().iter().map(|&v| a.label(v)).collect();
        assert_eq!(labels, ["2", "5", "10", "20"]);
    }

    #[test]
    fn linear_ticks_use_round_steps() {
        let a = NatAxis::new(-0.045, 0.945, Scale::Linear, "");
        let labels: Vec<String> = a.major().iter().map(|&v| a.label(v)).collect();
        assert_eq!(labels, ["0", "0.2", "0.4", "0.6", "0.8"]);
        let p = NatAxis::new(4250.0, 20750.0, Scale::Linear, "");
        let labels: Vec<String> = p.major().iter().map(|&v| p.label(v)).collect();
        assert_eq!(labels, ["5000", "10000", "15000", "20000"]);
    }

    #[test]
    fn natural_never_prints_logarithms_or_nan() {
        assert_eq!(natural(3e-7, None), "3·10⁻⁷");
        assert_eq!(natural(2.5, None), "2.5");
        assert_eq!(natural(f64::NAN, None), "–");
        assert_eq!(natural(1e7, None), "10⁷");
    }

    #[test]
    fn log_axis_maps_decades_evenly() {
        let a = NatAxis::new(1.0, 100.0, Scale::Log, "");
        assert_eq!(a.map(&10.0, (0, 200)), 100);
        assert_eq!(a.map(&1.0, (0, 200)), 0);
    }
}
