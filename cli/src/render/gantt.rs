//! SVG Gantt charts of schedules: processors on the vertical axis, time on the horizontal one,
//! one colour per job, failed attempts hatched and outlined in red, each attempt labelled with
//! its job, attempt number and processor count.
//!
//! Attempts carry processor *counts*, not identities (except in the node-stealing model), so the
//! chart gives each attempt concrete processor rows: attempts are taken in start order and each
//! receives the rows of the same job's previous attempt when they are all free and the count is
//! the same (so a re-executed job stays on its line), else the lowest-numbered free rows. Any schedule that keeps capacity ≤ P gets rows this
//! way (rows need not be contiguous; an attempt is drawn as one rectangle per contiguous run).
//! Node ids, where an attempt has them, are used as its rows. Floating point is used here only to
//! place pixels. The chart's `<metadata>` names the build that drew it ([`super::metadata_element`]).
use resched::model::{Instance, Scenario, Schedule};
use resched::time::Time;
use std::collections::BTreeSet;
use std::fmt::Write;

const WIDTH: f64 = 1100.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// Renders `schedule` as a standalone SVG document. With a scenario, an attempt is marked failed
/// when its number is ≤ f_j; without one, when a later attempt of the same job exists.
pub fn svg(inst: &Instance, schedule: &Schedule, scenario: Option<&Scenario>) -> String {
    let procs = inst.procs.max(1) as usize;
    let rows = assign_rows(procs, schedule);
    let makespan = schedule.makespan();
    let row_h = (600.0 / procs as f64).clamp(0.05, 28.0);
    let plot_h = row_h * procs as f64;
    let height = TOP + plot_h + BOTTOM;
    let plot_w = WIDTH - LEFT - RIGHT;
    let x = |t: &Time| LEFT + fraction(t, &makespan) * plot_w;
    let last_attempt = last_attempts(inst.jobs.len(), schedule);

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.1}" viewBox="0 0 {WIDTH} {height:.1}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11">"#
    );
    // The build that drew it (render module doc).
    let _ = writeln!(out, "{}", super::metadata_element());
    let _ = writeln!(
        out,
        r##"<defs><pattern id="failed" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="3" height="6" fill="#ffffff" fill-opacity="0.45"/></pattern></defs>"##
    );
    let title = schedule
        .algorithm
        .clone()
        // default: a schedule without an algorithm name is titled `schedule`
        .unwrap_or_else(|| "schedule".into());
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="22" font-size="14">{} — P = {}, makespan {} ({})</text>"#,
        escape(&title),
        inst.procs,
        makespan,
        makespan.to_decimal_string(4)
    );
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w:.2}" height="{plot_h:.2}" fill="#f7f7f7" stroke="#999"/>"##
    );
    for (i, a) in schedule.attempts.iter().enumerate() {
        let Some(job) = inst.jobs.get(a.job) else {
            continue;
        };
        let failed = match scenario {
            Some(sc) => sc.failures.get(a.job).is_some_and(|&f| a.attempt <= f),
            None => a.attempt < last_attempt[a.job],
        };
        let colour = job_colour(a.job);
        let (x0, x1) = (x(&a.start), x(&a.end()));
        let w = (x1 - x0).max(0.5);
        let label = format!("{} #{} ({}p)", job.name, a.attempt, a.procs);
        let runs = runs(&rows[i]);
        for &(lo, len) in &runs {
            let y = TOP + lo as f64 * row_h;
            let h = (len as f64 * row_h).max(0.3);
            let stroke = if failed {
                r##"stroke="#c00000" stroke-width="1.5""##
            } else {
                r##"stroke="#333" stroke-width="0.5""##
            };
            let _ = writeln!(
                out,
                r#"<rect x="{x0:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="{colour}" {stroke}><title>{} start {} end {}{}</title></rect>"#,
                escape(&label),
                a.start,
                a.end(),
                if failed { " (failed)" } else { "" }
            );
            if failed {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x0:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="url(#failed)"/>"#
                );
            }
        }
        // Label the largest run when there is room for the text.
        if let Some(&(lo, len)) = runs.iter().max_by_key(|r| r.1) {
            let h = len as f64 * row_h;
            let text = if failed {
                format!("{label} ✗")
            } else {
                label
            };
            if h >= 11.0 && w >= 6.5 * text.chars().count() as f64 {
                let _ = writeln!(
                    out,
                    r#"<text x="{:.2}" y="{:.2}" text-anchor="middle" dominant-baseline="middle">{}</text>"#,
                    x0 + w / 2.0,
                    TOP + (lo as f64 + len as f64 / 2.0) * row_h,
                    escape(&text)
                );
            }
        }
    }
    axes(&mut out, &makespan, procs, plot_w, plot_h);
    out.push_str("</svg>\n");
    out
}

/// Rows (processor ids) of every attempt, in schedule order.
fn assign_rows(procs: usize, schedule: &Schedule) -> Vec<Vec<u32>> {
    let mut order: Vec<usize> = (0..schedule.attempts.len()).collect();
    order.sort_by(|&a, &b| schedule.attempts[a].start.cmp(&schedule.attempts[b].start));
    let mut free: BTreeSet<u32> = (0..procs as u32).collect();
    let mut busy: Vec<(Time, Vec<u32>)> = Vec::new();
    let mut rows = vec![Vec::new(); schedule.attempts.len()];
    let mut previous: std::collections::HashMap<usize, Vec<u32>> = std::collections::HashMap::new();
    for i in order {
        let a = &schedule.attempts[i];
        busy.retain(|(end, ids)| {
            if *end <= a.start {
                free.extend(ids.iter().copied());
                false
            } else {
                true
            }
        });
        let ids: Vec<u32> = match &a.nodes {
            Some(nodes) => {
                for v in nodes {
                    free.remove(v);
                }
                nodes.clone()
            }
            None => {
                let sticky = previous.get(&a.job).filter(|ids| {
                    ids.len() == a.procs as usize && ids.iter().all(|v| free.contains(v))
                });
                // An infeasible schedule may ask for more rows than are free: draw what exists.
                let take: Vec<u32> = match sticky {
                    Some(ids) => ids.clone(),
                    None => free.iter().take(a.procs as usize).copied().collect(),
                };
                for v in &take {
                    free.remove(v);
                }
                take
            }
        };
        busy.push((a.end(), ids.clone()));
        previous.insert(a.job, ids.clone());
        rows[i] = ids;
    }
    rows
}

/// Contiguous runs `(first row, length)` of a set of rows.
fn runs(ids: &[u32]) -> Vec<(u32, u32)> {
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for v in sorted {
        match out.last_mut() {
            Some((lo, len)) if *lo + *len == v => *len += 1,
            _ => out.push((v, 1)),
        }
    }
    out
}

fn last_attempts(n: usize, schedule: &Schedule) -> Vec<u32> {
    let mut last = vec![0; n];
    for a in &schedule.attempts {
        if let Some(l) = last.get_mut(a.job) {
            *l = (*l).max(a.attempt);
        }
    }
    last
}

/// Where `t` lies in [0, makespan], as a pixel fraction. Computed on the exact ratio, so that a
/// time too large for an `f64` (a user may write 10^400) still gives a finite position, never
/// `inf`/`NaN` in the SVG.
fn fraction(t: &Time, makespan: &Time) -> f64 {
    match t.checked_div(makespan) {
        Some(r) => {
            let f = r.to_f64();
            if f.is_finite() {
                f
            } else {
                0.0
            }
        }
        None => 0.0,
    }
}

fn axes(out: &mut String, makespan: &Time, procs: usize, plot_w: f64, plot_h: f64) {
    let y_axis = TOP + plot_h;
    let ticks = 10u64;
    for k in 0..=ticks {
        let xt = LEFT + plot_w * k as f64 / ticks as f64;
        let value = makespan
            .mul_int(k)
            .div_int(ticks)
            // unreachable: ticks ≥ 1, the divisor is nonzero
            .unwrap_or_else(Time::zero);
        let _ = writeln!(
            out,
            r##"<line x1="{xt:.2}" y1="{y_axis:.2}" x2="{xt:.2}" y2="{:.2}" stroke="#333"/>"##,
            y_axis + 5.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{xt:.2}" y="{:.2}" text-anchor="middle">{}</text>"#,
            y_axis + 18.0,
            short(&value)
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">time</text>"#,
        LEFT + plot_w / 2.0,
        y_axis + 38.0
    );
    let step = (procs as f64 / 8.0).ceil().max(1.0) as usize;
    let row_h = plot_h / procs as f64;
    let mut p = 0;
    while p <= procs {
        let y = TOP + p as f64 * row_h;
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="end" dominant-baseline="middle">{p}</text>"#,
            LEFT - 6.0,
            y
        );
        p += step;
    }
    let _ = writeln!(
        out,
        r#"<text x="16" y="{:.2}" transform="rotate(-90 16 {:.2})" text-anchor="middle">processors</text>"#,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0
    );
}

/// A tick label: a few significant digits. Values beyond `f64` (or near its edge) are written
/// from their exact integer part, so a label is never `inf`.
fn short(t: &Time) -> String {
    let v = t.to_f64();
    if v.is_finite() && v.abs() < 1e300 {
        return short_f64(v);
    }
    let digits = t.floor().magnitude().to_string();
    let sign = if t.is_negative() { "-" } else { "" };
    let (head, tail) = digits.split_at(1);
    // default: fewer than two digits after the first: all of them
    let tail = tail.get(..2).unwrap_or(tail);
    format!("{sign}{head}.{tail:0<2}e{}", digits.len() - 1)
}

fn short_f64(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1e5 || v.abs() < 1e-3 {
        format!("{v:.2e}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A distinct, readable colour per job (golden-angle hue steps).
fn job_colour(j: usize) -> String {
    let hue = (j as f64 * 137.507_764) % 360.0;
    format!("hsl({hue:.1}, 62%, 62%)")
}

/// Names come from users: see [`super::xml_escape`].
fn escape(s: &str) -> String {
    super::xml_escape(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use resched::model::Attempt;

    fn attempt(job: usize, attempt: u32, start: Time, procs: u32, duration: Time) -> Attempt {
        Attempt {
            job,
            attempt,
            start,
            procs,
            duration,
            nodes: None,
        }
    }

    /// Names with markup and control characters (which the instance reader refuses, but an
    /// instance built in code may hold) and times beyond `f64` still give well-formed XML with
    /// finite coordinates, checked by a real XML parser.
    #[test]
    fn hostile_names_and_huge_times_give_well_formed_svg() {
        let t = Time::from_int;
        let names = [
            "<&\"'\u{0}\u{7}",
            "]]><x>",
            "\u{1b}[31mred\t\n\r\u{7f}\u{85}\u{fffe}\u{ffff}",
            "&amp; <!-- -->",
        ];
        let huge: Time = "1e400".parse().unwrap();
        let inst = Instance {
            procs: 2,
            jobs: names
                .iter()
                .map(|n| resched::model::Job::rigid(*n, 1, huge.clone()))
                .collect(),
        };
        let schedule = Schedule {
            attempts: vec![
                attempt(0, 1, t(0), 1, huge.clone()),
                attempt(1, 1, t(0), 1, huge.clone()),
                attempt(2, 1, huge.clone(), 1, huge.clone()),
                attempt(3, 1, huge.clone(), 1, huge.clone()),
            ],
            algorithm: Some("<\u{0}algo\">".into()),
            ..Default::default()
        };
        let s = svg(&inst, &schedule, None);
        let doc = roxmltree::Document::parse(&s).unwrap_or_else(|e| panic!("{e}\n{s}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let titles: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("title"))
            .filter_map(|n| n.text())
            .collect();
        assert!(
            titles.iter().any(|x| x.starts_with("<&\"'␀␇ #1")),
            "{titles:?}"
        );
        for word in ["inf", "NaN"] {
            assert!(!s.contains(word), "{word} in {s}");
        }
        assert!(s.contains(">2.00e400<"), "{s}");
    }

    #[test]
    fn draws_every_attempt_and_marks_failures() {
        let t = Time::from_int;
        let inst = Instance::rigid(3, &[(2, t(2)), (1, t(3))]).unwrap();
        let sc = Scenario::new(vec![1, 0]);
        let schedule = Schedule {
            attempts: vec![
                Attempt {
                    job: 0,
                    attempt: 1,
                    start: t(0),
                    procs: 2,
                    duration: t(2),
                    nodes: None,
                },
                Attempt {
                    job: 1,
                    attempt: 1,
                    start: t(0),
                    procs: 1,
                    duration: t(3),
                    nodes: None,
                },
                Attempt {
                    job: 0,
                    attempt: 2,
                    start: t(2),
                    procs: 2,
                    duration: t(2),
                    nodes: None,
                },
            ],
            ..Default::default()
        };
        let s = svg(&inst, &schedule, Some(&sc));
        assert!(s.starts_with("<svg"));
        assert!(s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("(failed)").count(), 1);
        assert!(s.contains("J1 #2 (2p)"));
        assert!(s.contains("makespan 4"));
        let rows = assign_rows(3, &schedule);
        assert_eq!(rows, vec![vec![0, 1], vec![2], vec![0, 1]]);
        assert_eq!(runs(&[5, 1, 2, 3, 7, 8]), vec![(1, 3), (5, 1), (7, 2)]);
        // A re-executed job keeps its rows when they are free, even if lower rows are.
        let sticky = Schedule {
            attempts: vec![
                Attempt {
                    job: 1,
                    attempt: 1,
                    start: t(0),
                    procs: 1,
                    duration: t(3),
                    nodes: None,
                },
                Attempt {
                    job: 0,
                    attempt: 1,
                    start: t(0),
                    procs: 2,
                    duration: t(2),
                    nodes: None,
                },
                Attempt {
                    job: 0,
                    attempt: 2,
                    start: t(3),
                    procs: 2,
                    duration: t(2),
                    nodes: None,
                },
            ],
            ..Default::default()
        };
        assert_eq!(
            assign_rows(3, &sticky),
            vec![vec![0], vec![1, 2], vec![1, 2]]
        );
    }
}
