//! How series look and how text is fitted: a style per series that stays distinguishable for
//! many series (colour × marker shape × fill × dash pattern: the node-stealing campaigns draw
//! 19 variants), the paper's published values in the colour of the series they compare with
//! (hollow markers, short dashes), the legend drawn in a margin of its own (never over the
//! data), and titles shrunk then wrapped to their width (never clipped). Text widths come from
//! the shipped font itself, so the layout is computed before anything is drawn.
use super::{plot_err, FAMILY};
use plotters::coord::{CoordTranslate, Shift};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use resched::error::Result;

/// A palette readable in colour (Tableau 10).
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

/// A marker shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
}

const SHAPES: [Shape; 5] = [
    Shape::Circle,
    Shape::Triangle,
    Shape::Square,
    Shape::Diamond,
    Shape::Cross,
];

/// A line pattern: (dash, gap) in pixels; `None` is solid.
pub type Dash = Option<(i32, i32)>;

/// How one series is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    pub colour: RGBColor,
    pub shape: Shape,
    pub filled: bool,
    pub dash: Dash,
    pub width: u32,
}

impl Style {
    /// Series `i` of a chart: colours cycle every 10, shapes every 5 (filled, then hollow from
    /// the 6th), and each further block of 10 gets its own dash pattern, so that no two of the
    /// first 30 series look alike, in colour or in grey.
    pub fn of(i: usize) -> Style {
        const DASHES: [Dash; 3] = [None, Some((10, 4)), Some((2, 3))];
        Style {
            colour: colour(i),
            shape: SHAPES[i % SHAPES.len()],
            filled: (i / SHAPES.len()) % 2 == 0,
            dash: DASHES[(i / PALETTE.len()) % DASHES.len()],
            width: 2,
        }
    }

    /// Published values compared with series `like`: its colour and shape, hollow, thin
    /// short dashes.
    pub fn paper(like: usize) -> Style {
        Style {
            filled: false,
            dash: Some((5, 4)),
            width: 1,
            ..Style::of(like)
        }
    }

    fn stroke(&self) -> ShapeStyle {
        self.colour.stroke_width(self.width)
    }

    /// Draws the marker at `at` (in the area's coordinates; the shape is in pixels around it).
    pub fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
        &self,
        area: &DrawingArea<DB, CT>,
        at: CT::From,
    ) -> Result<()>
    where
        CT::From: Clone,
    {
        let r = 4;
        let st = if self.filled {
            self.colour.filled()
        } else {
            self.colour.stroke_width(1)
        };
        let poly = |pts: Vec<(i32, i32)>| {
            if self.filled {
                area.draw(&(EmptyElement::at(at.clone()) + Polygon::new(pts, st)))
            } else {
                let mut closed = pts.clone();
                closed.push(pts[0]);
                area.draw(&(EmptyElement::at(at.clone()) + PathElement::new(closed, st)))
            }
        };
        match self.shape {
            Shape::Circle => area.draw(&Circle::new(at, r, st)),
            Shape::Square => {
                let sq = Rectangle::new([(1 - r, 1 - r), (r - 1, r - 1)], st);
                area.draw(&(EmptyElement::at(at) + sq))
            }
            Shape::Triangle => poly(vec![(0, -r - 1), (r + 1, r), (-r - 1, r)]),
            Shape::Diamond => poly(vec![(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)]),
            Shape::Cross => area.draw(&Cross::new(at, r, self.colour.stroke_width(2))),
        }
        .map_err(plot_err)
    }

    /// Draws the polyline through `pts` in this style's pattern.
    pub fn draw_path<DB: DrawingBackend, CT: CoordTranslate>(
        &self,
        area: &DrawingArea<DB, CT>,
        pts: Vec<CT::From>,
    ) -> Result<()>
    where
        CT::From: Clone,
    {
        match self.dash {
            None => area.draw(&PathElement::new(pts, self.stroke())),
            Some((d, g)) => area.draw(&DashedPathElement::new(pts, d, g, self.stroke())),
        }
        .map_err(plot_err)
    }
}

/// The font at `size` pixels.
pub fn font(size: u32) -> TextStyle<'static> {
    TextStyle::from((FAMILY, size))
}

/// The width and height of `text` at `size` pixels (measured on the shipped font; a glyph
/// the font cannot lay out counts as a wide character rather than failing the plot).
pub fn text_size(text: &str, size: u32) -> (u32, u32) {
    let f = FontDesc::new(FontFamily::Name(FAMILY), f64::from(size), FontStyle::Normal);
    // default: a glyph the font cannot lay out is measured as a wide character (documented above)
    f.box_size(text).unwrap_or_else(|_| {
        let n = text.chars().count() as u32;
        (n * size, size)
    })
}

/// `text` fitted to `width` pixels: the largest size from `max` down to `min` at which it
/// fits on one line, else wrapped into lines at `min` (a word longer than the width stays on
/// its own line, cut nowhere). Returns the size and the lines.
pub fn fit(text: &str, width: u32, max: u32, min: u32) -> (u32, Vec<String>) {
    if text.is_empty() {
        return (max, Vec::new());
    }
    for size in (min..=max).rev() {
        if text_size(text, size).0 <= width {
            return (size, vec![text.to_string()]);
        }
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for w in text.split(' ') {
        let tried = if cur.is_empty() {
            w.to_string()
        } else {
            format!("{cur} {w}")
        };
        if text_size(&tried, min).0 <= width || cur.is_empty() {
            cur = tried;
        } else {
            lines.push(std::mem::replace(&mut cur, w.to_string()));
        }
    }
    lines.push(cur);
    (min, lines)
}

/// The height of `lines` of text at `size`, with line spacing.
pub fn lines_height(lines: usize, size: u32) -> u32 {
    lines as u32 * (size + size / 3)
}

/// Draws `lines` centred at the top of `area`; returns the rest of the area below them.
pub fn head<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (size, lines): &(u32, Vec<String>),
    pad: u32,
) -> Result<DrawingArea<DB, Shift>> {
    if lines.is_empty() {
        return Ok(area.clone());
    }
    let h = lines_height(lines.len(), *size) + pad;
    let (top, rest) = area.split_vertically(h);
    let w = top.dim_in_pixel().0 as i32;
    let st = font(*size).pos(Pos::new(HPos::Center, VPos::Top));
    for (k, l) in lines.iter().enumerate() {
        let y = (pad / 2 + lines_height(k, *size)) as i32;
        top.draw_text(l, &st, (w / 2, y)).map_err(plot_err)?;
    }
    Ok(rest)
}

/// What a legend entry shows beside its label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Swatch {
    /// A line segment with a marker.
    Line(Style),
    /// A filled box in the style of bar series `i`.
    Bar(usize),
}

const LEGEND_FONT: u32 = 12;
const SWATCH_W: u32 = 30;

/// Where a legend goes: a column at the right of the plot when its widest label leaves the
/// plot at least 65% of the panel, else rows under the plot (as many columns as fit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Right { width: u32 },
    Below { height: u32, cols: usize },
}

/// The legend's place and size for `labels` in a panel of `panel` pixels.
pub fn legend_place(labels: &[&str], panel: (u32, u32)) -> Place {
    let entry_w = labels
        .iter()
        .map(|l| text_size(l, LEGEND_FONT).0)
        .max()
        // default: a legend with no label is 0 wide
        .unwrap_or(0)
        + SWATCH_W
        + 16;
    let row_h = LEGEND_FONT + 6;
    let fits_column = lines_height(labels.len(), LEGEND_FONT) + 40 <= panel.1
        && (labels.len() as u32) * row_h + 20 <= panel.1;
    if entry_w * 20 <= panel.0 * 7 && fits_column {
        Place::Right { width: entry_w + 8 }
    } else {
        let cols = ((panel.0.saturating_sub(16)) / entry_w.max(1)).max(1) as usize;
        let rows = labels.len().div_ceil(cols) as u32;
        Place::Below {
            height: rows * row_h + 10,
            cols,
        }
    }
}

/// Splits `area` into (plot, legend) according to `place`.
pub fn split_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    place: Place,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, h) = area.dim_in_pixel();
    match place {
        Place::Right { width } => area.split_horizontally(w.saturating_sub(width)),
        Place::Below { height, .. } => area.split_vertically(h.saturating_sub(height)),
    }
}

/// Draws the legend entries into their own area (see [`legend_place`]).
pub fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, Swatch)],
    place: Place,
) -> Result<()> {
    let row_h = (LEGEND_FONT + 6) as i32;
    let (cols, top) = match place {
        Place::Right { .. } => (1, 30),
        Place::Below { cols, .. } => (cols, 4),
    };
    let col_w = area.dim_in_pixel().0 as i32 / cols as i32;
    let st = font(LEGEND_FONT).pos(Pos::new(HPos::Left, VPos::Center));
    for (k, (label, sw)) in entries.iter().enumerate() {
        let x = 8 + (k % cols) as i32 * col_w;
        let y = top + (k / cols) as i32 * row_h + row_h / 2;
        match sw {
            Swatch::Line(s) => {
                s.draw_path(area, vec![(x, y), (x + SWATCH_W as i32 - 4, y)])?;
                s.draw_marker(area, (x + (SWATCH_W as i32 - 4) / 2, y))?;
            }
            Swatch::Bar(i) => {
                let (fill, edge) = super::bar_style(*i);
                let r = [(x + 6, y - 5), (x + 18, y + 5)];
                area.draw(&Rectangle::new(r, fill)).map_err(plot_err)?;
                area.draw(&Rectangle::new(r, edge)).map_err(plot_err)?;
            }
        }
        area.draw_text(label, &st, (x + SWATCH_W as i32, y))
            .map_err(plot_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nineteen_series_have_distinct_styles() {
        let styles: Vec<Style> = (0..19).map(Style::of).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert!(a != b, "{a:?}");
                // Distinct even in grey: shape, fill or dash differ.
                assert!(
                    (a.shape, a.filled, a.dash) != (b.shape, b.filled, b.dash)
                        || a.colour != b.colour,
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn long_titles_shrink_then_wrap() {
        super::super::fonts().unwrap();
        let (size, lines) = fit("short", 400, 18, 12);
        assert_eq!((size, lines.len()), (18, 1));
        let long = "a very long title that names a trace, a campaign, a seed and the figure of the paper it reproduces";
        let (size, lines) = fit(long, 300, 18, 12);
        assert_eq!(size, 12);
        assert!(lines.len() >= 2, "{lines:?}");
        assert!(lines.iter().all(|l| text_size(l, 12).0 <= 300), "{lines:?}");
        assert_eq!(lines.join(" "), long);
    }

    #[test]
    fn many_entries_go_below_and_short_ones_right() {
        super::super::fonts().unwrap();
        assert!(matches!(
            legend_place(&["LPA", "BATCH"], (560, 420)),
            Place::Right { .. }
        ));
        let long: Vec<String> = (0..19)
            .map(|i| format!("H{i:03} steal variant long name"))
            .collect();
        let refs: Vec<&str> = long.iter().map(|s| s.as_str()).collect();
        assert!(matches!(
            legend_place(&refs, (560, 420)),
            Place::Below { .. }
        ));
    }
}
