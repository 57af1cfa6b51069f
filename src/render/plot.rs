//! Plots of experiments, as SVG and PNG: line charts (several series, markers, optional error
//! bars) and grouped bar charts, alone or as a grid of panels like the papers' multi-panel
//! figures (rigid paper Figures 4–6, moldable paper Figure 5, node-stealing paper Figures 6 and 9).
//!
//! Drawn with plotters' portable backends (bitmap + SVG) and the `ab_glyph` text renderer, with
//! the DejaVu Sans font shipped in `assets/` (licence in `assets/DejaVuSans-LICENSE.txt`)
//! registered as `sans-serif`: no system font library is needed, so the PNGs look the same on
//! every machine. Values are `f64`: plots are display only, nothing here decides anything.
//!
//! Files are written atomically (a temporary sibling, then a rename): an interrupted run never
//! leaves a half-written picture.
use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The shipped font (Bitstream Vera licence, see `assets/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";

/// Registers the shipped font once per process.
fn fonts() -> Result<()> {
    static ONCE: Once = Once::new();
    let mut ok = true;
    ONCE.call_once(|| {
        ok = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok();
    });
    if ok {
        Ok(())
    } else {
        Err(Error::Limit(
            "the shipped font assets/DejaVuSans.ttf could not be loaded".into(),
        ))
    }
}

/// A palette readable in colour and distinguishable by marker shape in grey.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The colour of series number `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// One series of a line chart: points (x, y) and, optionally, a ± half-width per point drawn
/// as an error bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub err: Option<Vec<f64>>,
}

impl Series {
    /// A series without error bars.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            points,
            err: None,
        }
    }
}

/// A line chart: several series with markers, optional error bars.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// Fixed y range; `None` fits the data (with a margin).
    pub y_range: Option<(f64, f64)>,
    /// A horizontal reference line (e.g. ratio 1).
    pub reference: Option<f64>,
}

/// One series of a grouped bar chart: one value per group (NaN leaves a gap).
#[derive(Debug, Clone, PartialEq)]
pub struct BarSeries {
    pub label: String,
    pub values: Vec<f64>,
    pub err: Option<Vec<f64>>,
}

/// A grouped bar chart: groups along x, one bar per series in each group.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BarChart {
    pub title: String,
    pub y_label: String,
    pub groups: Vec<String>,
    pub series: Vec<BarSeries>,
    pub y_range: Option<(f64, f64)>,
    /// A horizontal reference line (e.g. ratio 1 against a baseline).
    pub reference: Option<f64>,
}

/// A chart of either kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    Line(LineChart),
    Bar(BarChart),
}

/// A figure: a grid of panels with an overall title.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub title: String,
    /// Panels per row.
    pub cols: usize,
    pub panels: Vec<Chart>,
    /// Size of one panel in pixels.
    pub panel_size: (u32, u32),
}

impl Figure {
    /// A figure with one chart.
    pub fn single(chart: Chart) -> Figure {
        Figure {
            title: String::new(),
            cols: 1,
            panels: vec![chart],
            panel_size: (800, 540),
        }
    }

    /// A grid of charts, `cols` per row.
    pub fn grid(title: impl Into<String>, cols: usize, panels: Vec<Chart>) -> Figure {
        Figure {
            title: title.into(),
            cols: cols.max(1),
            panels,
            panel_size: (560, 420),
        }
    }

    fn size(&self) -> (u32, u32) {
        let cols = self.cols.clamp(1, self.panels.len().max(1));
        let rows = self.panels.len().div_ceil(cols).max(1);
        let head = if self.title.is_empty() { 0 } else { 40 };
        (
            self.panel_size.0 * cols as u32,
            self.panel_size.1 * rows as u32 + head,
        )
    }

    fn validate(&self) -> Result<()> {
        if self.panels.is_empty() {
            return Err(Error::Limit("a figure needs at least one panel".into()));
        }
        for p in &self.panels {
            match p {
                Chart::Line(c) => {
                    for s in &c.series {
                        if let Some(e) = &s.err {
                            if e.len() != s.points.len() {
                                return Err(Error::Limit(format!(
                                    "series `{}`: {} error bars for {} points",
                                    s.label,
                                    e.len(),
                                    s.points.len()
                                )));
                            }
                        }
                    }
                }
                Chart::Bar(c) => {
                    for s in &c.series {
                        if s.values.len() != c.groups.len()
                            || s.err.as_ref().is_some_and(|e| e.len() != c.groups.len())
                        {
                            return Err(Error::Limit(format!(
                                "bar series `{}`: one value per group ({}) expected",
                                s.label,
                                c.groups.len()
                            )));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The figure with every text passed through [`super::xml_chars`]: plotters' SVG backend
/// escapes markup but writes control characters as they are, which XML forbids (titles and
/// labels carry trace and file names).
fn printable(fig: &Figure) -> Figure {
    let t = |s: &String| super::xml_chars(s);
    let panels = fig
        .panels
        .iter()
        .map(|p| match p {
            Chart::Line(c) => Chart::Line(LineChart {
                title: t(&c.title),
                x_label: t(&c.x_label),
                y_label: t(&c.y_label),
                series: c
                    .series
                    .iter()
                    .map(|s| Series {
                        label: t(&s.label),
                        ..s.clone()
                    })
                    .collect(),
                ..c.clone()
            }),
            Chart::Bar(c) => Chart::Bar(BarChart {
                title: t(&c.title),
                y_label: t(&c.y_label),
                groups: c.groups.iter().map(t).collect(),
                series: c
                    .series
                    .iter()
                    .map(|s| BarSeries {
                        label: t(&s.label),
                        ..s.clone()
                    })
                    .collect(),
                ..c.clone()
            }),
        })
        .collect();
    Figure {
        title: t(&fig.title),
        panels,
        ..fig.clone()
    }
}

/// The figure as SVG text.
pub fn svg(fig: &Figure) -> Result<String> {
    fonts()?;
    fig.validate()?;
    let fig = &printable(fig);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, fig.size()).into_drawing_area();
        draw_figure(&root, fig)?;
        root.present().map_err(plot_err)?;
    }
    Ok(out)
}

/// Writes the figure as SVG to `path` (atomically).
pub fn write_svg(fig: &Figure, path: &Path) -> Result<()> {
    crate::error::write_atomic(path, svg(fig)?.as_bytes())
}

/// Writes the figure as PNG to `path` (atomically: drawn into a temporary sibling whose name
/// also ends in `.png`, then renamed).
pub fn write_png(fig: &Figure, path: &Path) -> Result<()> {
    fonts()?;
    fig.validate()?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        // default: a bare file name lives in the current directory
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        // default: a path with no file name gets the temporary name `plot.png`
        .unwrap_or_else(|| "plot.png".into());
    let tmp = dir.join(format!(".{name}.tmp{}.png", std::process::id()));
    let drawn = (|| {
        let root = BitMapBackend::new(&tmp, fig.size()).into_drawing_area();
        draw_figure(&root, fig)?;
        root.present().map_err(plot_err)
    })();
    if let Err(e) = drawn {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// Writes `<stem>.svg` and `<stem>.png`; returns both paths.
pub fn write_both(fig: &Figure, stem: &Path) -> Result<Vec<PathBuf>> {
    let svg_path = stem.with_extension("svg");
    let png_path = stem.with_extension("png");
    write_svg(fig, &svg_path)?;
    write_png(fig, &png_path)?;
    Ok(vec![svg_path, png_path])
}

fn plot_err<E: std::fmt::Display>(e: E) -> Error {
    Error::Limit(format!("plotting failed: {e}"))
}

fn draw_figure<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, fig: &Figure) -> Result<()> {
    root.fill(&WHITE).map_err(plot_err)?;
    let area = if fig.title.is_empty() {
        root.clone()
    } else {
        root.titled(&fig.title, (FAMILY, 26)).map_err(plot_err)?
    };
    let cols = fig.cols.clamp(1, fig.panels.len());
    let rows = fig.panels.len().div_ceil(cols);
    let cells = area.split_evenly((rows, cols));
    for (chart, cell) in fig.panels.iter().zip(cells.iter()) {
        match chart {
            Chart::Line(c) => draw_line(cell, c)?,
            Chart::Bar(c) => draw_bar(cell, c)?,
        }
    }
    Ok(())
}

/// A range that contains `lo..hi` with a 5% margin (and is never empty).
fn padded(lo: f64, hi: f64) -> (f64, f64) {
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

fn draw_line<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, c: &LineChart) -> Result<()> {
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY);
    for s in &c.series {
        for (i, &(x, y)) in s.points.iter().enumerate() {
            if !x.is_finite() || !y.is_finite() {
                continue;
            }
            let e = s.err.as_ref().map_or(0.0, |e| e[i].abs());
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y - e);
            y1 = y1.max(y + e);
        }
    }
    if let Some(r) = c.reference {
        y0 = y0.min(r);
        y1 = y1.max(r);
    }
    let (x0, x1) = padded(x0, x1);
    // default: the data's own range, padded, unless the chart fixes one
    let (y0, y1) = c.y_range.unwrap_or_else(|| padded(y0, y1));
    let mut chart = ChartBuilder::on(area)
        .caption(&c.title, (FAMILY, 18))
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .label_style((FAMILY, 13))
        .axis_desc_style((FAMILY, 14))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    if let Some(r) = c.reference {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x0, r), (x1, r)],
                BLACK.mix(0.4).stroke_width(1),
            )))
            .map_err(plot_err)?;
    }
    for (i, s) in c.series.iter().enumerate() {
        let col = colour(i);
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))
            .map_err(plot_err)?
            .label(&s.label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], col.stroke_width(2)));
        // Markers: the shape cycles with the series so that grey prints stay readable.
        let shape = i % 3;
        chart
            .draw_series(
                pts.iter()
                    .map(move |&(x, y)| -> DynElement<'static, DB, (f64, f64)> {
                        match shape {
                            0 => Circle::new((x, y), 3, col.filled()).into_dyn(),
                            1 => TriangleMarker::new((x, y), 4, col.filled()).into_dyn(),
                            _ => Cross::new((x, y), 4, col.stroke_width(2)).into_dyn(),
                        }
                    }),
            )
            .map_err(plot_err)?;
        if let Some(err) = &s.err {
            let w = (x1 - x0) * 0.006;
            let bars = s
                .points
                .iter()
                .zip(err)
                .filter(|((x, y), e)| x.is_finite() && y.is_finite() && e.is_finite())
                .flat_map(|(&(x, y), &e)| {
                    let e = e.abs();
                    [
                        PathElement::new(vec![(x, y - e), (x, y + e)], col.stroke_width(1)),
                        PathElement::new(vec![(x - w, y - e), (x + w, y - e)], col.stroke_width(1)),
                        PathElement::new(vec![(x - w, y + e), (x + w, y + e)], col.stroke_width(1)),
                    ]
                });
            chart.draw_series(bars).map_err(plot_err)?;
        }
    }
    if !c.series.is_empty() {
        chart
            .configure_series_labels()
            .label_font((FAMILY, 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(plot_err)?;
    }
    Ok(())
}

fn draw_bar<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, c: &BarChart) -> Result<()> {
    let ng = c.groups.len().max(1);
    let ns = c.series.len().max(1);
    let (mut y0, mut y1) = (0.0f64, f64::NEG_INFINITY);
    for s in &c.series {
        for (k, &v) in s.values.iter().enumerate() {
            if v.is_finite() {
                let e = s.err.as_ref().map_or(0.0, |e| e[k].abs());
                y0 = y0.min(v - e);
                y1 = y1.max(v + e);
            }
        }
    }
    if let Some(r) = c.reference {
        y1 = y1.max(r);
    }
    if !y1.is_finite() {
        y1 = 1.0;
    }
    let (y0, y1) = c
        .y_range
        // default: the data's own range with 8 % headroom, unless the chart fixes one
        .unwrap_or((y0, y1 + (y1 - y0).abs().max(1e-9) * 0.08));
    let groups = c.groups.clone();
    let mut chart = ChartBuilder::on(area)
        .caption(&c.title, (FAMILY, 18))
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5f64..ng as f64 - 0.5, y0..y1)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(ng)
        .x_label_formatter(&|x| {
            // Group k is centred on x = k; plotters picks which integers get a tick.
            let k = x.round();
            if (x - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < groups.len() {
                groups[k as usize].clone()
            } else {
                String::new()
            }
        })
        .y_desc(&c.y_label)
        .label_style((FAMILY, 13))
        .axis_desc_style((FAMILY, 14))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    // Bars of group k fill 80% of its unit width, centred on x = k.
    let bw = 0.8 / ns as f64;
    for (i, s) in c.series.iter().enumerate() {
        let col = colour(i);
        let rects = s
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(k, &v)| {
                let xl = k as f64 - 0.4 + bw * i as f64;
                Rectangle::new([(xl, 0f64.max(y0)), (xl + bw, v)], col.filled())
            });
        chart
            .draw_series(rects)
            .map_err(plot_err)?
            .label(&s.label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], col.filled()));
        if let Some(err) = &s.err {
            let bars = s
                .values
                .iter()
                .zip(err)
                .enumerate()
                .filter(|(_, (v, e))| v.is_finite() && e.is_finite())
                .flat_map(|(k, (&v, &e))| {
                    let xm = k as f64 - 0.4 + bw * (i as f64 + 0.5);
                    let e = e.abs();
                    let w = bw * 0.25;
                    [
                        PathElement::new(vec![(xm, v - e), (xm, v + e)], BLACK.stroke_width(1)),
                        PathElement::new(
                            vec![(xm - w, v - e), (xm + w, v - e)],
                            BLACK.stroke_width(1),
                        ),
                        PathElement::new(
                            vec![(xm - w, v + e), (xm + w, v + e)],
                            BLACK.stroke_width(1),
                        ),
                    ]
                });
            chart.draw_series(bars).map_err(plot_err)?;
        }
    }
    if let Some(r) = c.reference {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, r), (ng as f64 - 0.5, r)],
                BLACK.mix(0.6).stroke_width(1),
            )))
            .map_err(plot_err)?;
    }
    if !c.series.is_empty() {
        chart
            .configure_series_labels()
            .label_font((FAMILY, 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(plot_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> LineChart {
        LineChart {
            title: "Normalized makespan".into(),
            x_label: "q̄".into(),
            y_label: "makespan / L(f)".into(),
            series: vec![
                Series {
                    label: "R-List-0".into(),
                    points: vec![(0.0, 1.05), (0.5, 1.1), (0.9, 1.02)],
                    err: Some(vec![0.01, 0.02, 0.01]),
                },
                Series::new("R-ShelfFill-B", vec![(0.0, 1.2), (0.5, 1.15), (0.9, 1.1)]),
            ],
            y_range: None,
            reference: Some(1.0),
        }
    }

    #[test]
    fn hostile_labels_give_well_formed_svg() {
        let mut c = line();
        c.title = "<trace\u{0}>&\"'".into();
        c.series[0].label = "a\u{7}b".into();
        let mut fig = Figure::single(Chart::Line(c));
        fig.title = "\u{1b}[1m".into();
        let s = svg(&fig).unwrap();
        roxmltree::Document::parse(&s).unwrap_or_else(|e| panic!("{e}\n{s}"));
        assert!(s.contains("a␇b"), "{s}");
    }

    #[test]
    fn svg_has_labels_and_series() {
        let s = svg(&Figure::single(Chart::Line(line()))).unwrap();
        assert!(s.starts_with("<svg") && s.contains("R-List-0") && s.contains("makespan / L(f)"));
    }

    #[test]
    fn mismatched_error_bars_are_an_error() {
        let mut c = line();
        c.series[0].err = Some(vec![0.1]);
        assert!(svg(&Figure::single(Chart::Line(c))).is_err());
        let b = BarChart {
            groups: vec!["a".into()],
            series: vec![BarSeries {
                label: "x".into(),
                values: vec![],
                err: None,
            }],
            ..Default::default()
        };
        assert!(svg(&Figure::single(Chart::Bar(b))).is_err());
        assert!(svg(&Figure::grid("", 2, vec![])).is_err());
    }
}
