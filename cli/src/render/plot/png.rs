//! The PNG backend: plotters' bitmap backend with its text drawn here. plotters 0.3.7 draws
//! each glyph of a string at the pen position but leaves out the glyph's own offset from it
//! (`px_bounds().min.x` of `ab_glyph`'s outline: the left side bearing), so a glyph with a wide
//! bearing such as "1" or "B" is drawn against the one before it and leaves a gap after it:
//! every 19-variant legend would read "H1 21", "H1 22" and "B aseline". Here each glyph is
//! outlined at its exact pen position (advances and kerning as plotters computes them) and drawn
//! at its own pixel bounds. Sizes, anchors and rotation are plotters' own, so only the
//! horizontal place of each glyph changes; the SVG files, where the viewer sets the text, are
//! not affected. A combining mark (the macron of q̄) has no advance of its own and is drawn over
//! the glyph before it, as the font places it.
//!
//! Lines wider than one pixel are drawn here too: plotters fills a wide polyline as one polygon
//! whose corners it rounds to whole pixels, so a steep segment came out up to a pixel thinner
//! than a flat one of the same width. Here every pixel within half the width of the polyline
//! (its distance to the nearest segment) is covered, with a half-pixel antialiased edge: the
//! width is the same at every slope, as in the SVG, and joins are round.
use ab_glyph::{point, Font, FontRef, ScaleFont};
use plotters::prelude::BitMapBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// [`BitMapBackend`] drawing its text with the shipped font (see the module doc).
pub struct Png<'a> {
    inner: BitMapBackend<'a>,
    font: FontRef<'static>,
}

impl<'a> Png<'a> {
    /// The backend writing `inner`'s file, with `font` (the font registered for plotters, the
    /// only one the figures use).
    pub fn new(inner: BitMapBackend<'a>, font: FontRef<'static>) -> Png<'a> {
        Png { inner, font }
    }
}

type Drawn<E> = Result<(), DrawingErrorKind<E>>;

/// How much of the pixel centred at (x, y) a line of half-width `r` through the segment a–b
/// covers: 1 within `r − ½` of the segment, 0 beyond `r + ½`, linear between.
fn coverage((x, y): (f64, f64), a: (f64, f64), b: (f64, f64), r: f64) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((x - a.0) * dx + (y - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (px, py) = (a.0 + t * dx - x, a.1 + t * dy - y);
    let d = (px * px + py * py).sqrt();
    (r + 0.5 - d).clamp(0.0, 1.0)
}

impl Png<'_> {
    /// The polyline `pts` `style.stroke_width()` pixels wide (see the module doc): each pixel
    /// drawn once, with the coverage of the segment nearest to it.
    fn wide_path<S: BackendStyle>(
        &mut self,
        pts: &[BackendCoord],
        style: &S,
    ) -> Drawn<<BitMapBackend<'static> as DrawingBackend>::ErrorType> {
        let color = style.color();
        if color.alpha == 0.0 || pts.is_empty() {
            return Ok(());
        }
        let r = f64::from(style.stroke_width()) / 2.0;
        let (w, h) = self.get_size();
        let f = |p: BackendCoord| (f64::from(p.0), f64::from(p.1));
        let segs: Vec<((f64, f64), (f64, f64))> = if pts.len() == 1 {
            vec![(f(pts[0]), f(pts[0]))]
        } else {
            pts.windows(2).map(|s| (f(s[0]), f(s[1]))).collect()
        };
        let reach = r.ceil() as i32 + 1;
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for p in pts {
            x0 = x0.min(p.0.saturating_sub(reach)).max(0);
            y0 = y0.min(p.1.saturating_sub(reach)).max(0);
            x1 = x1.max(p.0.saturating_add(reach)).min(w as i32 - 1);
            y1 = y1.max(p.1.saturating_add(reach)).min(h as i32 - 1);
        }
        // The area the path can touch; a path far outside the picture draws nothing.
        if x0 > x1 || y0 > y1 || i64::from(x1 - x0) * i64::from(y1 - y0) > 1 << 26 {
            return self.inner.draw_path(pts.iter().copied(), style);
        }
        let cols = (x1 - x0 + 1) as usize;
        let mut cov = vec![0f64; cols * (y1 - y0 + 1) as usize];
        for &(a, b) in &segs {
            let sx0 = (a.0.min(b.0) - r - 1.0).floor().max(f64::from(x0)) as i32;
            let sx1 = (a.0.max(b.0) + r + 1.0).ceil().min(f64::from(x1)) as i32;
            let sy0 = (a.1.min(b.1) - r - 1.0).floor().max(f64::from(y0)) as i32;
            let sy1 = (a.1.max(b.1) + r + 1.0).ceil().min(f64::from(y1)) as i32;
            for y in sy0..=sy1 {
                for x in sx0..=sx1 {
                    let c = coverage((f64::from(x), f64::from(y)), a, b, r);
                    let cell = &mut cov[(y - y0) as usize * cols + (x - x0) as usize];
                    *cell = cell.max(c);
                }
            }
        }
        for (k, &c) in cov.iter().enumerate() {
            if c > 0.0 {
                let at = (x0 + (k % cols) as i32, y0 + (k / cols) as i32);
                let mixed = BackendColor {
                    alpha: color.alpha * c,
                    rgb: color.rgb,
                };
                self.inner.draw_pixel(at, mixed)?;
            }
        }
        Ok(())
    }
}

impl DrawingBackend for Png<'_> {
    type ErrorType = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Drawn<Self::ErrorType> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Drawn<Self::ErrorType> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, at: BackendCoord, color: BackendColor) -> Drawn<Self::ErrorType> {
        self.inner.draw_pixel(at, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn<Self::ErrorType> {
        if style.stroke_width() > 1 {
            return self.wide_path(&[from, to], style);
        }
        self.inner.draw_line(from, to, style)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn<Self::ErrorType> {
        let pts: Vec<BackendCoord> = path.into_iter().collect();
        if style.stroke_width() > 1 {
            return self.wide_path(&pts, style);
        }
        self.inner.draw_path(pts, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn<Self::ErrorType> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (iw, ih): (u32, u32),
        src: &[u8],
    ) -> Drawn<Self::ErrorType> {
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }

    /// plotters' own text drawing (layout box, anchor, transform, clipping to the picture),
    /// with each glyph placed at its own pixel bounds.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn<Self::ErrorType> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let ((min_x, min_y), (max_x, max_y)) = style
            .layout_box(text)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -(max_x - min_x),
            HPos::Center => -(max_x - min_x) / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -(max_y - min_y) / 2,
            VPos::Bottom => -(max_y - min_y),
        };
        let trans = style.transform();
        let (w, h) = self.get_size();
        let size = style.size() as f32;
        let font = self.font.as_scaled(size);
        let mut pen = 0f32;
        let mut prev = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                pen += font.kern(p, id);
            }
            prev = Some(id);
            let glyph = id.with_scale_and_position(font.scale(), point(pen, 0.0));
            pen += font.h_advance(id);
            let Some(outline) = self.font.outline_glyph(glyph) else {
                continue; // a blank glyph (space): nothing to draw
            };
            let bounds = outline.px_bounds();
            // Vertically as plotters does, so that every text keeps its line.
            let (x0, y0) = (bounds.min.x as i32, (size / 2.0 + bounds.min.y) as i32);
            let mut drawn = Ok(());
            outline.draw(|x, y, coverage| {
                if drawn.is_err() {
                    return;
                }
                let (x, y) =
                    trans.transform(x as i32 + x0 + dx - min_x, y as i32 + y0 + dy - min_y);
                let (x, y) = (pos.0 + x, pos.1 + y);
                if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 {
                    let mixed = BackendColor {
                        alpha: color.alpha * f64::from(coverage),
                        rgb: color.rgb,
                    };
                    drawn = self.inner.draw_pixel((x, y), mixed);
                }
            });
            drawn?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;

    /// Where each glyph's ink begins, in pixels, for "H121" drawn in black on white at 40 px
    /// from x = 10 by `draw` (the glyphs do not touch at this size).
    fn ink_starts(draw: impl Fn(&mut [u8], (u32, u32))) -> Vec<usize> {
        let (w, h) = (200u32, 60u32);
        let mut buf = vec![255u8; (w * h * 3) as usize];
        draw(&mut buf, (w, h));
        let ink: Vec<bool> = (0..w as usize)
            .map(|x| (0..h as usize).any(|y| buf[(y * w as usize + x) * 3] < 128))
            .collect();
        (0..ink.len())
            .filter(|&x| ink[x] && (x == 0 || !ink[x - 1]))
            .collect()
    }

    fn style() -> TextStyle<'static> {
        super::super::fonts().unwrap();
        ("sans-serif", 40).into_font().color(&BLACK)
    }

    /// The ink of a polyline (sum of darkness, in pixels) per pixel of its length, for a path
    /// drawn 3 pixels wide in black on white by `draw`.
    fn ink_per_length(pts: &[(i32, i32)], draw: impl Fn(&mut [u8], (u32, u32))) -> f64 {
        let (w, h) = (300u32, 300u32);
        let mut buf = vec![255u8; (w * h * 3) as usize];
        draw(&mut buf, (w, h));
        let ink: f64 = buf.chunks(3).map(|p| f64::from(255 - p[0]) / 255.0).sum();
        let len: f64 = pts
            .windows(2)
            .map(|s| f64::from((s[1].0 - s[0].0).pow(2) + (s[1].1 - s[0].1).pow(2)).sqrt())
            .sum();
        ink / len
    }

    /// A 3-pixel line is 3 pixels wide at every slope (within the ends' round caps), where
    /// plotters' own polygon fill drew a steep segment thinner than a flat one.
    #[test]
    fn wide_lines_keep_their_width_at_every_slope() {
        let font = FontRef::try_from_slice(super::super::FONT).unwrap();
        let paths: [&[(i32, i32)]; 4] = [
            &[(20, 150), (280, 150)],
            &[(150, 20), (160, 280)],
            &[(20, 20), (280, 200)],
            &[(20, 280), (60, 20), (100, 280)],
        ];
        let mut widths = Vec::new();
        let mut theirs = Vec::new();
        for pts in paths {
            widths.push(ink_per_length(pts, |buf, size| {
                let root = Png::new(BitMapBackend::with_buffer(buf, size), font.clone())
                    .into_drawing_area();
                root.draw(&PathElement::new(
                    pts.to_vec(),
                    ShapeStyle::from(&BLACK).stroke_width(3),
                ))
                .unwrap();
                root.present().unwrap();
            }));
            theirs.push(ink_per_length(pts, |buf, size| {
                let root = BitMapBackend::with_buffer(buf, size).into_drawing_area();
                root.draw(&PathElement::new(
                    pts.to_vec(),
                    ShapeStyle::from(&BLACK).stroke_width(3),
                ))
                .unwrap();
                root.present().unwrap();
            }));
        }
        for w in &widths {
            assert!((w - 3.0).abs() < 0.2, "widths {widths:?}");
        }
        // The check can fail: plotters' own fill does.
        let spread = |v: &[f64]| {
            v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
        };
        assert!(spread(&theirs) > 0.5, "plotters drew {theirs:?}");
    }

    /// Each glyph's ink begins at its pen position plus its left side bearing, from the font's
    /// metrics (within the antialiasing's pixel), where plotters' own bitmap backend drew it at
    /// the pen position: "1" and "B" then touched the glyph before them.
    #[test]
    fn glyphs_keep_their_side_bearings() {
        let font = FontRef::try_from_slice(super::super::FONT).unwrap();
        let scaled = font.as_scaled(40.0);
        let mut pen = 10.0f32;
        let mut prev = None;
        let mut want = Vec::new();
        for c in "H121".chars() {
            let id = scaled.glyph_id(c);
            if let Some(p) = prev {
                pen += scaled.kern(p, id);
            }
            prev = Some(id);
            want.push(pen + scaled.h_side_bearing(id));
            pen += scaled.h_advance(id);
        }
        let off = |got: &[usize]| -> f32 {
            assert_eq!(got.len(), want.len(), "ink runs {got:?}");
            got.iter()
                .zip(&want)
                .map(|(g, w)| (*g as f32 - w).abs())
                .fold(0.0, f32::max)
        };
        let ours = ink_starts(|buf, size| {
            let root =
                Png::new(BitMapBackend::with_buffer(buf, size), font.clone()).into_drawing_area();
            root.draw_text("H121", &style(), (10, 10)).unwrap();
            root.present().unwrap();
        });
        assert!(off(&ours) <= 1.5, "ink at {ours:?}, glyphs at {want:?}");
        // The check can fail: plotters' own drawing does.
        let theirs = ink_starts(|buf, size| {
            let root = BitMapBackend::with_buffer(buf, size).into_drawing_area();
            root.draw_text("H121", &style(), (10, 10)).unwrap();
            root.present().unwrap();
        });
        assert!(
            off(&theirs) > 2.5,
            "plotters drew ink at {theirs:?}, glyphs at {want:?}"
        );
    }
}
