//! Gantt charts of schedules, as SVG and PNG: processors on the vertical axis, time on the
//! horizontal one (round ticks in 1–2–5 steps, in the instance's time unit), one colour per job,
//! failed attempts hatched and outlined in red, each attempt labelled with its job, attempt
//! number and processor count.
//!
//! Attempts carry processor *counts*, not identities (except in the node-stealing model), so the
//! chart gives each attempt concrete processor rows: attempts are taken in start order and each
//! receives the rows of the same job's previous attempt when they are all free and the count is
//! the same (so a re-executed job stays on its line), else the lowest-numbered free rows. Any schedule that keeps capacity ≤ P gets rows this
//! way (rows need not be contiguous; an attempt is drawn as one rectangle per contiguous run).
//! Node ids, where an attempt has them, are used as its rows. Floating point is used here only to
//! place pixels.
//!
//! The chart is laid out once as a list of shapes (`Item`) and written by two painters: SVG
//! text, and a PNG drawn with the plot layer's bitmap backend and shipped font. Colours are
//! `#rrggbb` (CSS `hsl()` is not read by every SVG converter). The SVG's `<metadata>` and the
//! PNG's `tEXt` chunks name the build that drew it ([`super::metadata_element`]).
use crate::render::plot::{self, NatAxis, Scale};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use resched::error::Result;
use resched::model::{Instance, Scenario, Schedule};
use resched::time::Time;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

const WIDTH: f64 = 1100.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// An RGB colour.
type Rgb = (u8, u8, u8);

/// Where a text is anchored horizontally.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Anchor {
    Start,
    Middle,
    End,
}

/// One shape of the chart, in pixels.
#[derive(Debug, Clone, PartialEq)]
enum Item {
    /// A filled rectangle with an outline (colour, width); `failed`: hatched, with the tooltip
    /// saying so.
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: Rgb,
        stroke: (Rgb, f64),
        failed: bool,
        tip: Option<String>,
    },
    /// A text: its anchor point (vertically centred unless `top`), size, rotated a quarter
    /// turn to the left when `vertical`.
    Text {
        x: f64,
        y: f64,
        size: u32,
        anchor: Anchor,
        vertical: bool,
        text: String,
    },
    /// A one-pixel line.
    Line {
        from: (f64, f64),
        to: (f64, f64),
        colour: Rgb,
    },
}

/// The chart: its size and shapes.
struct Scene {
    width: f64,
    height: f64,
    items: Vec<Item>,
}

/// Renders `schedule` as a standalone SVG document. With a scenario, an attempt is marked failed
/// when its number is ≤ f_j; without one, when a later attempt of the same job exists.
pub fn svg(inst: &Instance, schedule: &Schedule, scenario: Option<&Scenario>) -> String {
    to_svg(&scene(inst, schedule, scenario))
}

/// Writes the chart to `path`: PNG when its name ends in `.png` (any case), SVG otherwise;
/// atomically.
pub fn write(
    inst: &Instance,
    schedule: &Schedule,
    scenario: Option<&Scenario>,
    path: &Path,
) -> Result<()> {
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        write_png(inst, schedule, scenario, path)
    } else {
        resched::error::write_atomic(path, svg(inst, schedule, scenario).as_bytes())
    }
}

/// Writes the chart as PNG to `path` (atomically, stamped with this build).
pub fn write_png(
    inst: &Instance,
    schedule: &Schedule,
    scenario: Option<&Scenario>,
    path: &Path,
) -> Result<()> {
    let sc = scene(inst, schedule, scenario);
    let size = (sc.width.ceil() as u32, sc.height.ceil() as u32);
    plot::write_png_drawn(path, size, |area| paint(area, &sc))
}

/// Lays the chart out.
fn scene(inst: &Instance, schedule: &Schedule, scenario: Option<&Scenario>) -> Scene {
    let procs = inst.procs.max(1) as usize;
    let rows = assign_rows(procs, schedule);
    let makespan = schedule.makespan();
    let row_h = (600.0 / procs as f64).clamp(0.05, 28.0);
    let plot_h = row_h * procs as f64;
    let height = TOP + plot_h + BOTTOM;
    let plot_w = WIDTH - LEFT - RIGHT;
    let x = |t: &Time| LEFT + fraction(t, &makespan) * plot_w;
    let last_attempt = last_attempts(inst.jobs.len(), schedule);
    let mut items = Vec::new();
    let title = schedule
        .algorithm
        .clone()
        // default: a schedule without an algorithm name is titled `schedule`
        .unwrap_or_else(|| "schedule".into());
    items.push(Item::Text {
        x: LEFT,
        y: 18.0,
        size: 14,
        anchor: Anchor::Start,
        vertical: false,
        text: format!(
            "{title} — P = {}, makespan {} ({})",
            inst.procs,
            makespan,
            makespan.to_decimal_string(4)
        ),
    });
    items.push(Item::Rect {
        x: LEFT,
        y: TOP,
        w: plot_w,
        h: plot_h,
        fill: (0xf7, 0xf7, 0xf7),
        stroke: ((0x99, 0x99, 0x99), 1.0),
        failed: false,
        tip: None,
    });
    for (i, a) in schedule.attempts.iter().enumerate() {
        let Some(job) = inst.jobs.get(a.job) else {
            continue;
        };
        let failed = match scenario {
            Some(sc) => sc.failures.get(a.job).is_some_and(|&f| a.attempt <= f),
            None => a.attempt < last_attempt[a.job],
        };
        let (x0, x1) = (x(&a.start), x(&a.end()));
        let w = (x1 - x0).max(0.5);
        let label = format!("{} #{} ({}p)", job.name, a.attempt, a.procs);
        let runs = runs(&rows[i]);
        for &(lo, len) in &runs {
            items.push(Item::Rect {
                x: x0,
                y: TOP + lo as f64 * row_h,
                w,
                h: (len as f64 * row_h).max(0.3),
                fill: job_colour(a.job),
                stroke: if failed {
                    ((0xc0, 0, 0), 1.5)
                } else {
                    ((0x33, 0x33, 0x33), 0.5)
                },
                failed,
                tip: Some(format!(
                    "{label} start {} end {}{}",
                    a.start,
                    a.end(),
                    if failed { " (failed)" } else { "" }
                )),
            });
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
                items.push(Item::Text {
                    x: x0 + w / 2.0,
                    y: TOP + (lo as f64 + len as f64 / 2.0) * row_h,
                    size: 11,
                    anchor: Anchor::Middle,
                    vertical: false,
                    text,
                });
            }
        }
    }
    axes(&mut items, &makespan, procs, plot_w, plot_h);
    Scene {
        width: WIDTH,
        height,
        items,
    }
}

/// `#rrggbb`.
fn hex((r, g, b): Rgb) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The SVG document of a scene.
fn to_svg(sc: &Scene) -> String {
    let (width, height) = (sc.width, sc.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.1}" viewBox="0 0 {width} {height:.1}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11">"#
    );
    // The build that drew it (render module doc).
    let _ = writeln!(out, "{}", super::metadata_element());
    let _ = writeln!(
        out,
        r##"<defs><pattern id="failed" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="3" height="6" fill="#ffffff" fill-opacity="0.45"/></pattern></defs>"##
    );
    for it in &sc.items {
        match it {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
                failed,
                tip,
            } => {
                let title = tip
                    .as_ref()
                    .map(|t| format!("<title>{}</title>", escape(t)))
                    // default: a shape without a tooltip (the frame) has no <title>
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    r#"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="{}" stroke="{}" stroke-width="{}">{title}</rect>"#,
                    hex(*fill),
                    hex(stroke.0),
                    stroke.1
                );
                if *failed {
                    let _ = writeln!(
                        out,
                        r#"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="url(#failed)"/>"#
                    );
                }
            }
            Item::Text {
                x,
                y,
                size,
                anchor,
                vertical,
                text,
            } => {
                let anchor = match anchor {
                    Anchor::Start => "start",
                    Anchor::Middle => "middle",
                    Anchor::End => "end",
                };
                let turn = if *vertical {
                    format!(r#" transform="rotate(-90 {x:.2} {y:.2})""#)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    r#"<text x="{x:.2}" y="{y:.2}" font-size="{size}" text-anchor="{anchor}" dominant-baseline="middle"{turn}>{}</text>"#,
                    escape(text)
                );
            }
            Item::Line { from, to, colour } => {
                let _ = writeln!(
                    out,
                    r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{}"/>"#,
                    from.0,
                    from.1,
                    to.0,
                    to.1,
                    hex(*colour)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Paints a scene on a bitmap (the PNG).
fn paint<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, sc: &Scene) -> Result<()> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| {
        resched::error::Error::Limit(format!("drawing the Gantt chart failed: {e}"))
    };
    area.fill(&WHITE).map_err(err)?;
    let px = |v: f64| v.round().clamp(-1e6, 1e6) as i32;
    let rgb = |c: Rgb| RGBColor(c.0, c.1, c.2);
    for it in &sc.items {
        match it {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
                failed,
                ..
            } => {
                let (x0, y0) = (px(*x), px(*y));
                let (x1, y1) = (px(x + w).max(x0 + 1), px(y + h).max(y0 + 1));
                area.draw(&Rectangle::new([(x0, y0), (x1, y1)], rgb(*fill).filled()))
                    .map_err(err)?;
                if *failed {
                    // Stripes at 45°, 3 pixels of every 6 lightened, as the SVG's pattern.
                    let white = WHITE.mix(0.45);
                    for yy in y0..y1 {
                        for xx in x0..x1 {
                            if (xx + yy).rem_euclid(6) < 3 {
                                area.draw_pixel((xx, yy), &white).map_err(err)?;
                            }
                        }
                    }
                }
                let edge = rgb(stroke.0).stroke_width(if stroke.1 > 1.0 { 2 } else { 1 });
                area.draw(&Rectangle::new([(x0, y0), (x1, y1)], edge))
                    .map_err(err)?;
            }
            Item::Text {
                x,
                y,
                size,
                anchor,
                vertical,
                text,
            } => {
                let h = match anchor {
                    Anchor::Start => HPos::Left,
                    Anchor::Middle => HPos::Center,
                    Anchor::End => HPos::Right,
                };
                let mut st = plot::font(*size).pos(Pos::new(h, VPos::Center));
                if *vertical {
                    st = st.transform(FontTransform::Rotate270);
                }
                area.draw_text(text, &st, (px(*x), px(*y))).map_err(err)?;
            }
            Item::Line { from, to, colour } => {
                area.draw(&PathElement::new(
                    vec![(px(from.0), px(from.1)), (px(to.0), px(to.1))],
                    rgb(*colour),
                ))
                .map_err(err)?;
            }
        }
    }
    Ok(())
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

/// The time ticks: round values (1–2–5 steps) over [0, makespan] with their labels, placed by
/// their fraction of the makespan; a makespan beyond `f64` gets 0 and itself.
fn time_ticks(makespan: &Time) -> Vec<(f64, String)> {
    let m = makespan.to_f64();
    if !(m.is_finite() && m > 0.0 && m < 1e300) {
        return vec![(0.0, "0".into()), (1.0, short(makespan))];
    }
    let ax = NatAxis::new(0.0, m, Scale::Linear, "");
    ax.major()
        .iter()
        .filter(|&&v| (0.0..=m).contains(&v))
        .map(|&v| (v / m, ax.label(v)))
        .collect()
}

fn axes(items: &mut Vec<Item>, makespan: &Time, procs: usize, plot_w: f64, plot_h: f64) {
    let y_axis = TOP + plot_h;
    let dark = (0x33, 0x33, 0x33);
    for (f, label) in time_ticks(makespan) {
        let xt = LEFT + plot_w * f;
        items.push(Item::Line {
            from: (xt, y_axis),
            to: (xt, y_axis + 5.0),
            colour: dark,
        });
        items.push(Item::Text {
            x: xt,
            y: y_axis + 14.0,
            size: 11,
            anchor: Anchor::Middle,
            vertical: false,
            text: label,
        });
    }
    items.push(Item::Text {
        x: LEFT + plot_w / 2.0,
        y: y_axis + 34.0,
        size: 12,
        anchor: Anchor::Middle,
        vertical: false,
        text: "time (in the instance's time unit)".into(),
    });
    let step = (procs as f64 / 8.0).ceil().max(1.0) as usize;
    let row_h = plot_h / procs as f64;
    let mut p = 0;
    while p <= procs {
        items.push(Item::Text {
            x: LEFT - 6.0,
            y: TOP + p as f64 * row_h,
            size: 11,
            anchor: Anchor::End,
            vertical: false,
            text: p.to_string(),
        });
        p += step;
    }
    items.push(Item::Text {
        x: 16.0,
        y: TOP + plot_h / 2.0,
        size: 12,
        anchor: Anchor::Middle,
        vertical: true,
        text: "processors".into(),
    });
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

/// A distinct, readable colour per job: golden-angle hue steps at saturation 62% and
/// lightness 62%, converted to RGB here.
fn job_colour(j: usize) -> Rgb {
    let hue = (j as f64 * 137.507_764) % 360.0;
    hsl_rgb(hue, 0.62, 0.62)
}

/// CSS Color 4's HSL to RGB (hue in degrees, saturation and lightness in [0, 1]).
fn hsl_rgb(h: f64, s: f64, l: f64) -> Rgb {
    let f = |n: f64| {
        let k = (n + h / 30.0) % 12.0;
        let a = s * l.min(1.0 - l);
        let v = l - a * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0);
        (v * 255.0).round().clamp(0.0, 255.0) as u8
    };
    (f(0.0), f(8.0), f(4.0))
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
