//! Plots of experiments, as SVG and PNG: line charts (several series, markers, optional error
//! bars) and grouped bar charts, alone or as a grid of panels like the papers' multi-panel
//! figures (rigid paper Figures 4–6, moldable paper Figure 5, node-stealing paper Figures 6 and 9).
//!
//! What a published figure needs ([`LinePlot`]): a linear or log scale per axis with ticks in
//! natural units (`axis`), the paper's values beside ours, spread as error bars or a band, and
//! series that stay apart when there are many (colour × marker × fill × dash, `style`). Titles
//! are shrunk then wrapped to their width, legends get a margin of their own beside or below
//! the plot (sizes measured on the font): nothing is clipped and no legend hides data.
//!
//! Drawn with plotters' portable backends (bitmap + SVG) and the `ab_glyph` text renderer, with
//! the DejaVu Sans font shipped in `assets/` (licence in `assets/DejaVuSans-LICENSE.txt`)
//! registered as `sans-serif`: no system font library is needed, so the PNGs look the same on
//! every machine. The PNG text is drawn by `png`, which places each glyph at its own side
//! bearing (plotters 0.3.7 does not). Values are `f64`: plots are display only, nothing here
//! decides anything.
//!
//! Files are written atomically (a temporary sibling, then a rename): an interrupted run never
//! leaves a half-written picture.
use plotters::coord::Shift;
use plotters::prelude::*;
use resched::error::{Error, Result};
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

mod axis;
pub mod png;
mod style;

pub use axis::{natural, NatAxis, Scale};
use style::Swatch;
pub use style::{colour, font, Shape, Style};

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
    /// The style of each series, as an index into the line styles ([`style::Style::of`]), so
    /// that one heuristic keeps its colour and marker across the figures of a campaign, and
    /// across campaigns, whatever else each one draws; empty: series `i` gets style `i`.
    pub styles: Vec<usize>,
}

impl LineChart {
    /// The style index of series `i` (see [`LineChart::styles`]).
    fn style_of(&self, i: usize) -> usize {
        // default: no styles given, the series' own place
        self.styles.get(i).copied().unwrap_or(i)
    }
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
    /// The style of each series, as an index into the bar styles (the palette's colour
    /// `i mod 10`, solid below 10 and light with a dark outline from 10 on), so that one
    /// variant keeps its colour across the figures of a run whatever else each one draws;
    /// empty: series `i` gets style `i`.
    pub styles: Vec<usize>,
}

impl BarChart {
    /// The style index of series `i` (see [`BarChart::styles`]).
    fn style_of(&self, i: usize) -> usize {
        // default: no styles given, the series' own place
        self.styles.get(i).copied().unwrap_or(i)
    }
}

/// A chart of any kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    Line(LineChart),
    Bar(BarChart),
    /// A line chart with per-axis scales, units and the paper's values beside ours.
    Plot(LinePlot),
}

/// Values a paper published, drawn beside series `like` of the same chart (its colour and
/// shape, hollow markers, thin dashes). The label says where they come from ("paper, Table
/// 1"; "read off Figure 5" when read from a picture).
#[derive(Debug, Clone, PartialEq)]
pub struct PaperSeries {
    pub like: usize,
    pub series: Series,
}

/// A line chart with the options a published figure needs: a linear or logarithmic scale per
/// axis with tick labels in natural units ("10 h", "0.001", "10⁻⁷"), the paper's values beside
/// ours, the spread as a shaded band instead of error bars, and a note under the title.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LinePlot {
    pub chart: LineChart,
    pub x_scale: Scale,
    pub y_scale: Scale,
    /// Written after every x tick label ("h" gives "1 h", "10 h"); empty for none.
    pub x_unit: String,
    pub y_unit: String,
    pub paper: Vec<PaperSeries>,
    /// Draw each series' ± spread as a band (error bars otherwise).
    pub bands: bool,
    /// A line under the title (what the dashed curves are, how the spread was measured).
    pub note: String,
    /// The x values to label, with their labels ("20 min", "1 h"): a sweep's own grid, so
    /// that every point drawn has its value under it; empty: round ticks ([`NatAxis::new`]).
    pub x_ticks: Vec<(f64, String)>,
    /// The x values are categories (0, 1, 2, … labelled by `x_ticks`): markers only, no line
    /// between categories, and each series set a little apart from the others at its
    /// category so that equal values do not hide one another.
    pub categories: bool,
}

impl From<LineChart> for LinePlot {
    fn from(chart: LineChart) -> LinePlot {
        LinePlot {
            chart,
            ..LinePlot::default()
        }
    }
}

impl From<LinePlot> for Chart {
    fn from(p: LinePlot) -> Chart {
        Chart::Plot(p)
    }
}

impl LinePlot {
    /// A logarithmic x axis, each tick followed by `unit` ("" for none).
    pub fn log_x(mut self, unit: &str) -> LinePlot {
        self.x_scale = Scale::Log;
        self.x_unit = unit.to_string();
        self
    }

    /// A logarithmic y axis.
    pub fn log_y(mut self) -> LinePlot {
        self.y_scale = Scale::Log;
        self
    }

    /// Adds published values beside series `like`.
    pub fn with_paper(mut self, like: usize, series: Series) -> LinePlot {
        self.paper.push(PaperSeries { like, series });
        self
    }

    /// Sets the note under the title.
    pub fn with_note(mut self, note: impl Into<String>) -> LinePlot {
        self.note = note.into();
        self
    }

    /// Labels exactly these x values ([`LinePlot::x_ticks`]).
    pub fn with_x_ticks(mut self, ticks: Vec<(f64, String)>) -> LinePlot {
        self.x_ticks = ticks;
        self
    }

    /// Categories along x ([`LinePlot::categories`]), labelled `names` at 0, 1, 2, ….
    pub fn categorical(mut self, names: &[String]) -> LinePlot {
        self.categories = true;
        self.x_ticks = names
            .iter()
            .enumerate()
            .map(|(i, n)| (i as f64, n.clone()))
            .collect();
        self
    }

    /// Every series drawn, ours then the paper's, each with its style.
    fn drawn(&self) -> Vec<(&Series, Style)> {
        let c = &self.chart;
        let ours = c.series.iter().enumerate();
        ours.map(|(i, s)| (s, Style::of(c.style_of(i))))
            .chain(
                self.paper
                    .iter()
                    .map(|p| (&p.series, Style::paper(c.style_of(p.like)))),
            )
            .collect()
    }

    /// The series as drawn: on categories, our series `k` of `n` moved by its share of 70% of a
    /// category's width, and each paper series at the same place as the series it is drawn
    /// like, so that the paper's value sits on the x of ours, not beside another series'.
    fn placed(&self) -> Vec<(Series, Style)> {
        let n = self.chart.series.len();
        let dx = |k: usize| {
            if self.categories && n > 1 {
                0.7 * (k as f64 / (n - 1) as f64 - 0.5)
            } else {
                0.0
            }
        };
        let like: Vec<usize> = (0..n).chain(self.paper.iter().map(|p| p.like)).collect();
        self.drawn()
            .into_iter()
            .zip(like)
            .map(|((s, st), k)| {
                let mut s = s.clone();
                let d = dx(k);
                s.points.iter_mut().for_each(|p| p.0 += d);
                (s, st)
            })
            .collect()
    }

    fn validate(&self) -> Result<()> {
        let n = self.chart.series.len();
        check_styles("line", &self.chart.title, &self.chart.styles, n)?;
        if let Some(p) = self.paper.iter().find(|p| p.like >= n) {
            return Err(Error::Limit(format!(
                "paper series `{}` is drawn like series {} of {n}",
                p.series.label, p.like
            )));
        }
        for (s, _) in self.drawn() {
            check_err_len(s)?;
            for (axis, scale, pick) in [("x", self.x_scale, 0usize), ("y", self.y_scale, 1usize)] {
                let bad = s.points.iter().map(|p| if pick == 0 { p.0 } else { p.1 });
                if scale == Scale::Log && bad.clone().any(|v| v.is_finite() && v <= 0.0) {
                    return Err(Error::Limit(format!(
                        "series `{}`: a value ≤ 0 on the logarithmic {axis} axis",
                        s.label
                    )));
                }
            }
        }
        Ok(())
    }
}

/// A chart's styles list is empty or gives one style per series.
fn check_styles(kind: &str, title: &str, styles: &[usize], series: usize) -> Result<()> {
    if styles.is_empty() || styles.len() == series {
        return Ok(());
    }
    Err(Error::Limit(format!(
        "{kind} chart `{title}`: {} styles for {series} series",
        styles.len()
    )))
}

fn check_err_len(s: &Series) -> Result<()> {
    match &s.err {
        Some(e) if e.len() != s.points.len() => Err(Error::Limit(format!(
            "series `{}`: {} error bars for {} points",
            s.label,
            e.len(),
            s.points.len()
        ))),
        _ => Ok(()),
    }
}

/// A figure: a grid of panels with an overall title, and a subtitle naming the run (workload,
/// parameters, readings, sets × scenarios or seeds, what the error bars are). Every figure
/// ends its head with the build that drew it ([`Figure::stamp`]), so a picture shown alone
/// still says which commit made it.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub title: String,
    /// The line(s) under the title: the run (see the type's doc); empty for none.
    pub subtitle: String,
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
            subtitle: String::new(),
            cols: 1,
            panels: vec![chart],
            panel_size: (800, 540),
        }
    }

    /// A grid of charts, `cols` per row.
    pub fn grid(title: impl Into<String>, cols: usize, panels: Vec<Chart>) -> Figure {
        Figure {
            title: title.into(),
            subtitle: String::new(),
            cols: cols.max(1),
            panels,
            panel_size: (560, 420),
        }
    }

    /// Sets the subtitle (see [`Figure::subtitle`]).
    pub fn with_subtitle(mut self, subtitle: impl Into<String>) -> Figure {
        self.subtitle = subtitle.into();
        self
    }

    /// The last line of every figure's head: the subtitle, then the build that drew it.
    pub fn stamp(&self) -> String {
        let build = format!("resched {}", crate::provenance::this_build());
        if self.subtitle.is_empty() {
            build
        } else {
            format!("{}; {build}", self.subtitle)
        }
    }

    fn grid_shape(&self) -> (usize, usize) {
        let cols = self.cols.clamp(1, self.panels.len().max(1));
        (self.panels.len().div_ceil(cols).max(1), cols)
    }

    /// The title and the stamp line ([`Figure::stamp`]) fitted to the figure's width (shrunk,
    /// then wrapped: never clipped).
    fn head(&self) -> [(u32, Vec<String>); 2] {
        let w = self.panel_size.0 * self.grid_shape().1 as u32;
        [
            style::fit(&self.title, w.saturating_sub(24), 24, 14),
            style::fit(&self.stamp(), w.saturating_sub(24), 14, 11),
        ]
    }

    fn size(&self) -> (u32, u32) {
        let (rows, cols) = self.grid_shape();
        let head: u32 = self
            .head()
            .iter()
            .filter(|(_, lines)| !lines.is_empty())
            .map(|(sz, lines)| style::lines_height(lines.len(), *sz) + HEAD_PAD / 2)
            .sum();
        (
            self.panel_size.0 * cols as u32,
            self.panel_size.1 * rows as u32 + head + TOP_MARGIN,
        )
    }

    fn validate(&self) -> Result<()> {
        if self.panels.is_empty() {
            return Err(Error::Limit("a figure needs at least one panel".into()));
        }
        for p in &self.panels {
            match p {
                Chart::Line(c) => {
                    check_styles("line", &c.title, &c.styles, c.series.len())?;
                    c.series.iter().try_for_each(check_err_len)?
                }
                Chart::Plot(c) => c.validate()?,
                Chart::Bar(c) => {
                    check_styles("bar", &c.title, &c.styles, c.series.len())?;
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

/// Space above and below a title, in pixels.
const HEAD_PAD: u32 = 12;

/// White space above a figure's title, in pixels: a title is not drawn against the top edge.
const TOP_MARGIN: u32 = 14;

/// Space above and below a panel's title, in pixels (half of it above).
const PANEL_TITLE_PAD: u32 = 18;

/// The figure with every text passed through [`super::xml_chars`]: plotters' SVG backend
/// escapes markup but writes control characters as they are, which XML forbids (titles and
/// labels carry trace and file names).
fn printable(fig: &Figure) -> Figure {
    map_text(fig, &super::xml_chars)
}

/// The figure with every text (titles, labels, notes, units, group names) passed through `f`.
fn map_text(fig: &Figure, f: &dyn Fn(&str) -> String) -> Figure {
    let t = |s: &String| f(s);
    let series = |s: &Series| Series {
        label: t(&s.label),
        ..s.clone()
    };
    let line = |c: &LineChart| LineChart {
        title: t(&c.title),
        x_label: t(&c.x_label),
        y_label: t(&c.y_label),
        series: c.series.iter().map(series).collect(),
        ..c.clone()
    };
    let panels = fig
        .panels
        .iter()
        .map(|p| match p {
            Chart::Line(c) => Chart::Line(line(c)),
            Chart::Plot(c) => Chart::Plot(LinePlot {
                chart: line(&c.chart),
                x_unit: t(&c.x_unit),
                y_unit: t(&c.y_unit),
                note: t(&c.note),
                x_ticks: c.x_ticks.iter().map(|(v, l)| (*v, t(l))).collect(),
                paper: c
                    .paper
                    .iter()
                    .map(|p| PaperSeries {
                        like: p.like,
                        series: series(&p.series),
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
        subtitle: t(&fig.subtitle),
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
    Ok(super::with_metadata(out))
}

/// Writes the figure as SVG to `path` (atomically).
pub fn write_svg(fig: &Figure, path: &Path) -> Result<()> {
    resched::error::write_atomic(path, svg(fig)?.as_bytes())
}

/// Writes the figure as PNG to `path` (atomically: drawn into a temporary sibling whose name
/// also ends in `.png`, stamped with this build (`png_provenance`), then renamed).
pub fn write_png(fig: &Figure, path: &Path) -> Result<()> {
    fonts()?;
    fig.validate()?;
    resched::error::write_atomic_with(path, ".png", |tmp| {
        let font = ab_glyph::FontRef::try_from_slice(FONT).map_err(|_| {
            Error::Limit("the shipped font assets/DejaVuSans.ttf could not be loaded".into())
        })?;
        let root = png::Png::new(BitMapBackend::new(tmp, fig.size()), font).into_drawing_area();
        draw_figure(&root, fig)?;
        root.present().map_err(plot_err)?;
        drop(root);
        png_provenance(tmp)
    })
}

/// Writes a PNG of `size` pixels drawn by `draw` (on a white background it paints itself) to
/// `path`, with the shipped font and this build's stamp, atomically: how pictures that are not
/// charts (the Gantt charts) get the same text rendering and provenance as the figures.
pub fn write_png_drawn(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<png::Png<'_>, Shift>) -> Result<()>,
) -> Result<()> {
    fonts()?;
    resched::error::write_atomic_with(path, ".png", |tmp| {
        let font = ab_glyph::FontRef::try_from_slice(FONT).map_err(|_| {
            Error::Limit("the shipped font assets/DejaVuSans.ttf could not be loaded".into())
        })?;
        let root = png::Png::new(BitMapBackend::new(tmp, size), font).into_drawing_area();
        draw(&root)?;
        root.present().map_err(plot_err)?;
        drop(root);
        png_provenance(tmp)
    })
}

/// Adds this build's provenance to the PNG file `path` as two `tEXt` chunks right after its
/// header (PNG 1.2 §4.2.3.1; the image encoder writes none): `Software` = `resched <version>
/// (commit …)` and `resched` = `{"version", "commit", "dirty"}` as JSON.
fn png_provenance(path: &Path) -> Result<()> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let prov = crate::provenance::this_build();
    let chunks = [
        text_chunk("Software", &format!("resched {prov}")),
        text_chunk("resched", &prov.json().to_string()),
    ]
    .concat();
    let stamped = insert_after_header(&bytes, &chunks)
        .ok_or_else(|| Error::Limit(format!("{}: not a PNG file", path.display())))?;
    std::fs::write(path, stamped).map_err(|e| Error::io(path, e))
}

/// A PNG `tEXt` chunk: length, type, `keyword NUL text`, CRC-32 of type and data. The keyword and
/// text are ASCII here (Latin-1 in the standard); other characters become `?`.
fn text_chunk(keyword: &str, text: &str) -> Vec<u8> {
    let latin = |s: &str| -> Vec<u8> {
        s.chars()
            .map(|c| {
                if c.is_ascii() && c != '\0' {
                    c as u8
                } else {
                    b'?'
                }
            })
            .collect()
    };
    let mut data = latin(keyword);
    data.push(0);
    data.extend(latin(text));
    let mut body = b"tEXt".to_vec();
    body.extend(&data);
    let mut crc = flate2::Crc::new();
    crc.update(&body);
    // unreachable: the data of a chunk is a few hundred bytes, its length fits a u32
    let len = u32::try_from(data.len()).unwrap_or(u32::MAX);
    let mut chunk = len.to_be_bytes().to_vec();
    chunk.extend(body);
    chunk.extend(crc.sum().to_be_bytes());
    chunk
}

/// `png` with `chunks` inserted after its signature and `IHDR` chunk; `None` when `png` does not
/// start that way.
fn insert_after_header(png: &[u8], chunks: &[u8]) -> Option<Vec<u8>> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    // Signature (8), then IHDR: length (4) = 13, type (4), data (13), CRC (4).
    const HEADER_END: usize = 8 + 4 + 4 + 13 + 4;
    let ok = png.len() >= HEADER_END
        && png.starts_with(SIGNATURE)
        && png[8..12] == 13u32.to_be_bytes()
        && &png[12..16] == b"IHDR";
    ok.then(|| [&png[..HEADER_END], chunks, &png[HEADER_END..]].concat())
}

/// Writes `<stem>.svg` and `<stem>.png`; returns both paths. The extension is appended, never
/// substituted: a stem with a dot (`days-Mira.2018-03`) keeps its whole name.
pub fn write_both(fig: &Figure, stem: &Path) -> Result<Vec<PathBuf>> {
    let with = |ext: &str| {
        let mut name = stem.as_os_str().to_os_string();
        name.push(ext);
        PathBuf::from(name)
    };
    let (svg_path, png_path) = (with(".svg"), with(".png"));
    write_svg(fig, &svg_path)?;
    write_png(fig, &png_path)?;
    Ok(vec![svg_path, png_path])
}

fn plot_err<E: std::fmt::Display>(e: E) -> Error {
    Error::Limit(format!("plotting failed: {e}"))
}

fn draw_figure<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, fig: &Figure) -> Result<()> {
    root.fill(&WHITE).map_err(plot_err)?;
    let mut area = root.clone().margin(TOP_MARGIN, 0, 0, 0);
    for h in fig.head() {
        area = style::head(&area, &h, HEAD_PAD / 2)?;
    }
    let cells = area.split_evenly(fig.grid_shape());
    for (chart, cell) in fig.panels.iter().zip(cells.iter()) {
        match chart {
            Chart::Line(c) => draw_plot(cell, &LinePlot::from(c.clone()))?,
            Chart::Plot(c) => draw_plot(cell, c)?,
            Chart::Bar(c) => draw_bar(cell, c)?,
        }
    }
    Ok(())
}

/// Draws a panel's title (fitted to its width) and note, and its legend in a margin of its
/// own; returns the area left for the plot.
fn panel_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    note: &str,
    entries: &[(String, Swatch)],
) -> Result<DrawingArea<DB, Shift>> {
    let w = area.dim_in_pixel().0.saturating_sub(16);
    let area = style::head(area, &style::fit(title, w, 18, 11), PANEL_TITLE_PAD)?;
    let area = style::head(&area, &style::fit(note, w, 12, 10), 4)?;
    if entries.is_empty() {
        return Ok(area);
    }
    let labels: Vec<&str> = entries.iter().map(|e| e.0.as_str()).collect();
    let place = style::legend_place(&labels, area.dim_in_pixel());
    let (plot, legend) = style::split_legend(&area, place);
    style::draw_legend(&legend, entries, place)?;
    Ok(plot)
}

/// The note of a panel whose every value is 0, or that has none: its axis is then a default
/// one around 0, and the note says why the panel is flat. `None` when some value is not 0.
fn flat_note(values: impl Iterator<Item = f64>) -> Option<&'static str> {
    let mut any = false;
    for v in values.filter(|v| v.is_finite()) {
        if v != 0.0 {
            return None;
        }
        any = true;
    }
    Some(if any {
        "every value is 0"
    } else {
        "no value to draw"
    })
}

/// Whether `v` can be drawn on an axis of `scale`.
fn drawable(v: f64, scale: Scale) -> bool {
    v.is_finite() && (scale == Scale::Linear || v > 0.0)
}

/// The x and y ranges of a line plot: every drawable point with its spread and the reference
/// line, padded (the chart's `y_range` when it sets one).
fn plot_ranges(p: &LinePlot, drawn: &[(&Series, Style)]) -> ((f64, f64), (f64, f64)) {
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY);
    for (s, _) in drawn {
        for (i, &(x, y)) in s.points.iter().enumerate() {
            if !drawable(x, p.x_scale) || !drawable(y, p.y_scale) {
                continue;
            }
            let e = s.err.as_ref().map_or(0.0, |e| e[i].abs());
            let e = if e.is_finite() { e } else { 0.0 };
            x0 = x0.min(x);
            x1 = x1.max(x);
            // On a log axis a lower end at or below 0 is cut at the axis: the range ignores it.
            let lo = if drawable(y - e, p.y_scale) { y - e } else { y };
            y0 = y0.min(lo);
            y1 = y1.max(y + e);
        }
    }
    if let Some(r) = p.chart.reference.filter(|&r| drawable(r, p.y_scale)) {
        y0 = y0.min(r);
        y1 = y1.max(r);
    }
    let xr = if p.categories {
        (x0.min(0.0).round() - 0.5, x1.round() + 0.5)
    } else {
        axis::padded(x0, x1, p.x_scale)
    };
    let yr = p
        .chart
        .y_range
        // default: the data's own range, padded, unless the chart fixes one
        .unwrap_or_else(|| axis::padded(y0, y1, p.y_scale));
    (xr, yr)
}

/// The width of an axis's widest tick label at the tick font (13 px): the label area the
/// y axis reserves, so that no label is clipped.
fn tick_label_width(ax: &NatAxis) -> u32 {
    ax.major()
        .iter()
        .map(|&v| style::text_size(&ax.label(v), 13).0)
        .max()
        // default: an axis with no tick label needs no width
        .unwrap_or(0)
}

fn draw_plot<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &LinePlot) -> Result<()> {
    let c = &p.chart;
    let placed = p.placed();
    let drawn: Vec<(&Series, Style)> = placed.iter().map(|(s, st)| (s, *st)).collect();
    let entries: Vec<(String, Swatch)> = drawn
        .iter()
        .map(|(s, st)| (s.label.clone(), Swatch::Line(*st)))
        .collect();
    let flat = flat_note(
        drawn
            .iter()
            .flat_map(|(s, _)| s.points.iter().map(|q| q.1))
            .filter(|&y| drawable(y, p.y_scale) || y == 0.0),
    );
    let note = match (flat, p.note.is_empty()) {
        (Some(f), true) => f.to_string(),
        (Some(f), false) => format!("{}; {f}", p.note),
        (None, _) => p.note.clone(),
    };
    let area = panel_frame(area, &c.title, &note, &entries)?;
    let ((x0, x1), (y0, y1)) = plot_ranges(p, &drawn);
    let xa = NatAxis::new(x0, x1, p.x_scale, &p.x_unit).labelled_at(&p.x_ticks);
    let ya = NatAxis::new(y0, y1, p.y_scale, &p.y_unit);
    let y_w = tick_label_width(&ya);
    let mut chart = ChartBuilder::on(&area)
        .margin(8)
        .margin_right(18)
        .x_label_area_size(46)
        .y_label_area_size(y_w + 36)
        .build_cartesian_2d(xa.clone(), ya.clone())
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .x_label_formatter(&|v| xa.label(*v))
        .y_label_formatter(&|v| ya.label(*v))
        .label_style(style::font(13))
        .axis_desc_style(style::font(14))
        .bold_line_style(RGBColor(220, 220, 220))
        .light_line_style(RGBColor(242, 242, 242))
        .draw()
        .map_err(plot_err)?;
    if let Some(r) = c.reference.filter(|&r| drawable(r, p.y_scale)) {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x0, r), (x1, r)],
                BLACK.mix(0.5).stroke_width(1),
            )))
            .map_err(plot_err)?;
    }
    for (s, st) in &drawn {
        draw_spread(&mut chart, p, s, st, y0)?;
    }
    for (s, st) in &drawn {
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|&(x, y)| drawable(x, p.x_scale) && drawable(y, p.y_scale))
            .collect();
        let plot = chart.plotting_area();
        if !p.categories {
            st.draw_path(plot, pts.clone())?;
        }
        for q in pts {
            st.draw_marker(plot, q)?;
        }
    }
    Ok(())
}

type Plot2d<'a, DB> = ChartContext<'a, DB, Cartesian2d<NatAxis, NatAxis>>;

/// A series' ± spread: a shaded band or error bars with caps (a lower end at or below 0 on a
/// log axis is cut at the axis, `floor`).
fn draw_spread<DB: DrawingBackend>(
    chart: &mut Plot2d<'_, DB>,
    p: &LinePlot,
    s: &Series,
    st: &Style,
    floor: f64,
) -> Result<()> {
    let Some(err) = &s.err else { return Ok(()) };
    let ends: Vec<(f64, f64, f64)> = s
        .points
        .iter()
        .zip(err)
        .filter(|((x, y), e)| drawable(*x, p.x_scale) && drawable(*y, p.y_scale) && e.is_finite())
        .map(|(&(x, y), &e)| {
            let lo = y - e.abs();
            let lo = if drawable(lo, p.y_scale) { lo } else { floor };
            (x, lo, y + e.abs())
        })
        .collect();
    if p.bands {
        let mut poly: Vec<(f64, f64)> = ends.iter().map(|&(x, _, hi)| (x, hi)).collect();
        poly.extend(ends.iter().rev().map(|&(x, lo, _)| (x, lo)));
        chart
            .draw_series(std::iter::once(Polygon::new(
                poly,
                st.colour.mix(0.15).filled(),
            )))
            .map_err(plot_err)?;
        return Ok(());
    }
    let col = st.colour.stroke_width(1);
    chart
        .draw_series(
            ends.iter()
                .map(|&(x, lo, hi)| PathElement::new(vec![(x, lo), (x, hi)], col)),
        )
        .map_err(plot_err)?;
    // Caps 6 pixels wide whatever the axis scale.
    chart
        .draw_series(
            ends.iter()
                .flat_map(|&(x, lo, hi)| [(x, lo), (x, hi)])
                .map(|q| EmptyElement::at(q) + PathElement::new(vec![(-3, 0), (3, 0)], col)),
        )
        .map_err(plot_err)?;
    Ok(())
}

/// Where the bars of a chart over `y0..y1` grow from, and the axis's lower end: from 0 when
/// the axis shows 0; else from the reference line when the axis shows it (ratios against a
/// bound of 1: a bar is the excess over it); else the axis is extended to 0. A bar never grows
/// from the end of a cut axis, where its length would mean nothing. Returns the axis's ends and
/// the base.
fn bar_base(y0: f64, y1: f64, reference: Option<f64>) -> (f64, f64, f64) {
    if y0 <= 0.0 && 0.0 <= y1 {
        return (y0, y1, 0.0);
    }
    match reference.filter(|r| r.is_finite() && y0 <= *r && *r <= y1) {
        Some(r) => (y0, y1, r),
        None => (y0.min(0.0), y1.max(0.0), 0.0),
    }
}

/// The first light bar style: styles below it are the palette's colours, filled.
const LIGHT_BARS: usize = 10;

/// The bar style ([`BarChart::styles`]) in the colour of `style`, light with a dark outline:
/// how a figure draws a published value beside ours.
pub fn light_bar(style: usize) -> usize {
    LIGHT_BARS + style % LIGHT_BARS
}

/// The fill and outline of bar series `i`: the palette's colours, then (from the 11th series)
/// the same colours light with a dark outline, so that up to 20 series stay apart.
fn bar_style(i: usize) -> (ShapeStyle, ShapeStyle) {
    let c = colour(i);
    if i < LIGHT_BARS {
        (c.filled(), c.stroke_width(1))
    } else {
        (c.mix(0.35).filled(), c.stroke_width(2))
    }
}

fn draw_bar<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, c: &BarChart) -> Result<()> {
    let entries: Vec<(String, Swatch)> = c
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.label.clone(), Swatch::Bar(c.style_of(i))))
        .collect();
    let flat = flat_note(c.series.iter().flat_map(|s| s.values.iter().copied()));
    // default: a panel with values to show has no note
    let area = panel_frame(area, &c.title, flat.unwrap_or(""), &entries)?;
    let ng = c.groups.len().max(1);
    let ns = c.series.len().max(1);
    let (mut y0, mut y1) = (0.0f64, f64::NEG_INFINITY);
    for s in &c.series {
        for (k, &v) in s.values.iter().enumerate() {
            if v.is_finite() {
                let e = s.err.as_ref().map_or(0.0, |e| e[k].abs());
                let e = if e.is_finite() { e } else { 0.0 };
                y0 = y0.min(v - e);
                y1 = y1.max(v + e);
            }
        }
    }
    if let Some(r) = c.reference.filter(|r| r.is_finite()) {
        y1 = y1.max(r);
    }
    if !y1.is_finite() {
        y1 = 1.0;
    }
    let (y0, y1) = match c.y_range {
        Some(r) => r,
        // Every value 0 and no reference above it: an axis of ±1 around 0, not one of 1e-10.
        None if y1 - y0 < 1e-9 => (y0 - 1.0, y1 + 1.0),
        // The data's own range with 8 % headroom.
        None => (y0, y1 + (y1 - y0) * 0.08),
    };
    let (y0, y1, base) = bar_base(y0, y1, c.reference);
    let ya = NatAxis::new(y0, y1, Scale::Linear, "");
    let y_w = tick_label_width(&ya);
    let groups = c.groups.clone();
    let mut chart = ChartBuilder::on(&area)
        .margin(8)
        .margin_right(18)
        .x_label_area_size(40)
        .y_label_area_size(y_w + 36)
        .build_cartesian_2d(-0.5f64..ng as f64 - 0.5, ya.clone())
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
        .y_label_formatter(&|v| ya.label(*v))
        .y_desc(&c.y_label)
        .label_style(style::font(13))
        .axis_desc_style(style::font(14))
        .bold_line_style(RGBColor(220, 220, 220))
        .light_line_style(RGBColor(242, 242, 242))
        .draw()
        .map_err(plot_err)?;
    // Bars of group k fill 80% of its unit width, centred on x = k.
    let bw = 0.8 / ns as f64;
    for (i, s) in c.series.iter().enumerate() {
        let (fill, edge) = bar_style(c.style_of(i));
        let at = |k: usize| k as f64 - 0.4 + bw * i as f64;
        let vals = || s.values.iter().enumerate().filter(|(_, v)| v.is_finite());
        chart
            .draw_series(
                vals().map(|(k, &v)| Rectangle::new([(at(k), base), (at(k) + bw, v)], fill)),
            )
            .map_err(plot_err)?;
        chart
            .draw_series(
                vals().map(|(k, &v)| Rectangle::new([(at(k), base), (at(k) + bw, v)], edge)),
            )
            .map_err(plot_err)?;
        if let Some(err) = &s.err {
            let bars = s
                .values
                .iter()
                .zip(err)
                .enumerate()
                .filter(|(_, (v, e))| v.is_finite() && e.is_finite())
                .flat_map(|(k, (&v, &e))| {
                    let xm = at(k) + bw * 0.5;
                    let (lo, hi) = (v - e.abs(), v + e.abs());
                    let w = bw * 0.25;
                    let line = |a: (f64, f64), b: (f64, f64)| {
                        PathElement::new(vec![a, b], BLACK.stroke_width(1))
                    };
                    [
                        line((xm, lo), (xm, hi)),
                        line((xm - w, lo), (xm + w, lo)),
                        line((xm - w, hi), (xm + w, hi)),
                    ]
                });
            chart.draw_series(bars).map_err(plot_err)?;
        }
    }
    if let Some(r) = c.reference.filter(|r| r.is_finite()) {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, r), (ng as f64 - 0.5, r)],
                BLACK.mix(0.6).stroke_width(1),
            )))
            .map_err(plot_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The build goes in `tEXt` chunks with a valid CRC, right after the header, the rest of the
    /// image untouched.
    #[test]
    fn png_names_the_build_in_text_chunks() {
        let chunks = [text_chunk("Software", "resched x"), text_chunk("k", "v")].concat();
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend(13u32.to_be_bytes());
        png.extend(b"IHDR");
        png.extend([0u8; 17]);
        png.extend(b"rest");
        let out = insert_after_header(&png, &chunks).unwrap();
        assert_eq!(&out[..33], &png[..33]);
        assert_eq!(&out[33..33 + chunks.len()], &chunks[..]);
        assert_eq!(&out[33 + chunks.len()..], b"rest");
        assert!(insert_after_header(b"GIF89a", &chunks).is_none());
        // Length (3: `k`, NUL, `v`), type, data, CRC-32 of type and data.
        let c = text_chunk("k", "v");
        assert_eq!(&c[..8], b"\0\0\0\x03tEXt");
        assert_eq!(&c[8..11], b"k\0v");
        let mut crc = flate2::Crc::new();
        crc.update(b"tEXtk\0v");
        assert_eq!(c[11..], crc.sum().to_be_bytes());
    }

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
            styles: Vec::new(),
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

    /// A log axis is labelled in natural units, paper series and notes reach the SVG, and a
    /// value the log axis cannot show is an error naming its series.
    #[test]
    fn log_plot_has_natural_ticks_and_paper_values() {
        let p = LinePlot::from(LineChart {
            title: "MTBF sweep".into(),
            x_label: "MTBF".into(),
            y_label: "ratio".into(),
            series: vec![Series {
                label: "D = 10 min".into(),
                points: vec![(1.0, 1.01), (10.0, 1.02), (100.0, 1.03)],
                err: Some(vec![0.01, 0.01, 0.02]),
            }],
            y_range: None,
            reference: Some(1.0),
            styles: Vec::new(),
        })
        .log_x("h")
        .with_paper(
            0,
            Series::new("paper (Fig. 9, read off)", vec![(1.0, 1.02)]),
        )
        .with_note("dashed: the paper");
        let s = alone(Chart::Plot(p.clone())).unwrap();
        roxmltree::Document::parse(&s).unwrap();
        for want in [
            "1 h",
            "10 h",
            "100 h",
            "paper (Fig. 9, read off)",
            "dashed: the paper",
        ] {
            assert!(s.contains(want), "{want} missing");
        }
        assert!(!s.contains("NaN") && !s.contains(">0.0<") && !s.contains(">2<"));
        let mut bad = p.clone();
        bad.chart.series[0].points[0].0 = 0.0;
        let e = alone(Chart::Plot(bad)).unwrap_err().to_string();
        assert!(
            e.contains("D = 10 min") && e.contains("logarithmic x"),
            "{e}"
        );
        let mut bad = p;
        bad.paper[0].like = 3;
        assert!(alone(Chart::Plot(bad)).is_err());
    }

    /// On categories each series is set apart, and the paper's value of a series sits on that
    /// series' x (its category plus the series' own offset), not at an offset of its own.
    #[test]
    fn paper_values_sit_on_their_series_x() {
        let names: Vec<String> = ["Roofline", "Amdahl", "Mix"].map(String::from).to_vec();
        let ours = |l: &str, y: f64| Series::new(l, vec![(0.0, y), (1.0, y), (2.0, y)]);
        let p = LinePlot::from(LineChart {
            series: vec![ours("LPA", 1.1), ours("BATCH", 1.2), ours("MINTIME", 1.3)],
            ..LineChart::default()
        })
        .categorical(&names)
        .with_paper(2, Series::new("MINTIME (paper)", vec![(1.0, 1.4)]))
        .with_paper(0, Series::new("LPA (paper)", vec![(2.0, 1.0)]));
        let placed = p.placed();
        let xs: Vec<Vec<f64>> = placed
            .iter()
            .map(|(s, _)| s.points.iter().map(|q| q.0).collect())
            .collect();
        let near = |got: &[f64], want: &[f64]| {
            got.len() == want.len() && got.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12)
        };
        // Three series over 70% of a category: offsets −0.35, 0, +0.35.
        assert!(near(&xs[0], &[-0.35, 0.65, 1.65]), "{xs:?}");
        assert!(near(&xs[1], &[0.0, 1.0, 2.0]), "{xs:?}");
        assert!(near(&xs[2], &[0.35, 1.35, 2.35]), "{xs:?}");
        // MINTIME's paper value on MINTIME's x at Amdahl, LPA's on LPA's at Mix.
        assert!(near(&xs[3], &[1.35]) && near(&xs[4], &[1.65]), "{xs:?}");
        // Not on categories: the paper's x as it gives it.
        let q = LinePlot::from(line()).with_paper(1, Series::new("p", vec![(0.5, 1.2)]));
        assert_eq!(q.placed()[2].0.points, [(0.5, 1.2)]);
    }

    /// A panel whose every value is 0 gets a ±1 axis around 0 (not one of 1e-10) and says so;
    /// a line panel of zeros says so too, and a panel with a value other than 0 does not.
    #[test]
    fn a_panel_of_zeros_has_an_axis_and_says_so() {
        let b = BarChart {
            title: "change against Baseline".into(),
            groups: vec!["a".into(), "b".into()],
            series: vec![BarSeries {
                label: "SFSJ".into(),
                values: vec![0.0, 0.0],
                err: None,
            }],
            ..Default::default()
        };
        let s = alone(Chart::Bar(b.clone())).unwrap();
        assert!(s.contains("every value is 0"), "{s}");
        let doc = roxmltree::Document::parse(&s).unwrap();
        let ticks: Vec<&str> = doc
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        for t in ["1.0", "0", "-1.0"] {
            assert!(ticks.contains(&t), "no tick {t}: {ticks:?}");
        }
        assert!(
            !ticks
                .iter()
                .any(|t| t.contains("e-") || t.contains("0.0000")),
            "{ticks:?}"
        );
        let mut some = b;
        some.series[0].values[1] = 2.0;
        assert!(!alone(Chart::Bar(some))
            .unwrap()
            .contains("every value is 0"));
        let mut c = line();
        c.reference = None;
        for sr in &mut c.series {
            sr.points.iter_mut().for_each(|q| q.1 = 0.0);
            sr.err = None;
        }
        assert!(alone(Chart::Line(c)).unwrap().contains("every value is 0"));
        assert!(!alone(Chart::Line(line()))
            .unwrap()
            .contains("every value is 0"));
    }

    /// A figure's title is drawn below a margin, not against the top edge: the first text's y
    /// (its top, the SVG's `dominant-baseline`) is at least the margin.
    #[test]
    fn the_title_has_a_top_margin() {
        let fig = Figure::grid("A title", 1, vec![Chart::Line(line())]);
        let s = svg(&fig).unwrap();
        let doc = roxmltree::Document::parse(&s).unwrap();
        let title = doc
            .descendants()
            .find(|n| n.has_tag_name("text") && n.text().is_some_and(|t| t.contains("A title")))
            .unwrap();
        let y: f64 = title.attribute("y").unwrap().parse().unwrap();
        assert!(y >= f64::from(TOP_MARGIN), "title at y = {y}: {s}");
    }

    #[test]
    fn dotted_stems_keep_their_whole_name() {
        let dir = std::env::temp_dir().join(format!("resched-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fig = Figure::single(Chart::Line(line()));
        let a = write_both(&fig, &dir.join("days-Mira.2018-03-01")).unwrap();
        let b = write_both(&fig, &dir.join("days-Mira.2018-03-11")).unwrap();
        assert_eq!(a[0], dir.join("days-Mira.2018-03-01.svg"));
        assert_ne!(a, b);
        assert!(a.iter().chain(&b).all(|p| p.is_file()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn svg_has_labels_and_series() {
        let s = alone(Chart::Line(line())).unwrap();
        assert!(s.starts_with("<svg") && s.contains("R-List-0") && s.contains("makespan / L(f)"));
    }

    #[test]
    fn mismatched_error_bars_are_an_error() {
        let mut c = line();
        c.series[0].err = Some(vec![0.1]);
        assert!(alone(Chart::Line(c)).is_err());
        let b = BarChart {
            groups: vec!["a".into()],
            series: vec![BarSeries {
                label: "x".into(),
                values: vec![],
                err: None,
            }],
            ..Default::default()
        };
        assert!(alone(Chart::Bar(b)).is_err());
        assert!(svg(&Figure::grid("", 2, vec![])).is_err());
    }

    /// The SVG of `chart` drawn alone.
    fn alone(chart: Chart) -> Result<String> {
        svg(&Figure::single(chart))
    }

    /// A colour as the SVG writes it.
    fn hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    /// A bar series drawn in the style it is given, legend included: the same variant keeps
    /// its colour in a figure that leaves other series out.
    #[test]
    fn bar_series_keep_the_style_they_are_given() {
        let bar = |label: &str| BarSeries {
            label: label.into(),
            values: vec![1.0],
            err: None,
        };
        let mut b = BarChart {
            groups: vec!["a".into()],
            series: vec![bar("H111"), bar("H112")],
            ..Default::default()
        };
        let plain = alone(Chart::Bar(b.clone())).unwrap();
        assert!(plain.contains(&hex(colour(0))) && !plain.contains(&hex(colour(2))));
        b.styles = vec![1, 2];
        let styled = alone(Chart::Bar(b.clone())).unwrap();
        assert!(
            !styled.contains(&hex(colour(0))),
            "series 0 drawn in style 0"
        );
        assert!(styled.contains(&hex(colour(1))) && styled.contains(&hex(colour(2))));
        // A published value beside series 1: its colour, as the outline of a light bar.
        assert_eq!((light_bar(1), light_bar(11)), (11, 11));
        b.styles = vec![0, light_bar(1)];
        let light = alone(Chart::Bar(b.clone())).unwrap();
        assert!(light.contains(&hex(colour(1))) && !light.contains(&hex(colour(2))));
        b.styles = vec![1];
        let err = alone(Chart::Bar(b)).unwrap_err().to_string();
        assert!(err.contains("1 styles for 2 series"), "{err}");
    }

    /// Line series, and the published values drawn like one of them, take the style they are
    /// given: a heuristic keeps its colour in a figure that draws others beside it.
    #[test]
    fn line_series_keep_the_style_they_are_given() {
        let mut c = LineChart {
            series: vec![
                Series::new("R-ShelfFill-B", vec![(0.0, 1.0), (1.0, 2.0)]),
                Series::new("R-ShelfFill-NB", vec![(0.0, 1.5), (1.0, 2.5)]),
            ],
            ..Default::default()
        };
        let plain = alone(Chart::Line(c.clone())).unwrap();
        assert!(plain.contains(&hex(colour(0))) && !plain.contains(&hex(colour(4))));
        c.styles = vec![3, 4];
        let styled = alone(Chart::Line(c.clone())).unwrap();
        assert!(
            !styled.contains(&hex(colour(0))) && !styled.contains(&hex(colour(1))),
            "a series drawn in its place's style"
        );
        assert!(styled.contains(&hex(colour(3))) && styled.contains(&hex(colour(4))));
        // The paper's values beside series 1 are drawn in series 1's style (4), not style 1.
        c.styles = vec![3, 7];
        let paper = LinePlot::from(c.clone())
            .with_paper(1, Series::new("paper", vec![(0.0, 1.2), (1.0, 1.2)]));
        let with_paper = alone(Chart::Plot(paper)).unwrap();
        assert!(with_paper.contains(&hex(colour(7))) && !with_paper.contains(&hex(colour(1))));
        c.styles = vec![3];
        for chart in [Chart::Line(c.clone()), Chart::Plot(LinePlot::from(c))] {
            let err = alone(chart).unwrap_err().to_string();
            assert!(err.contains("1 styles for 2 series"), "{err}");
        }
    }
}
