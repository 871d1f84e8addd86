//! A small SVG writer: the document, elements with their attributes, and
//! numbers written with at most two decimals so that the same drawing is
//! always the same text.

use std::fmt::{self, Write};

/// An SVG document being written. Every game draws in its own units (its
/// `viewBox`); the document's `width` and `height` are the pixel size.
pub(crate) struct Canvas {
    out: String,
    width: u32,
    height: u32,
    /// The drawing's extent in its own units.
    view: (f64, f64),
    /// Where the drawing starts in `out` (after the opening tag).
    body: usize,
}

/// A number as an attribute value: rounded to two decimals, no `-0`.
#[derive(Clone, Copy)]
pub(crate) struct N(pub f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = (self.0 * 100.0).round() / 100.0;
        // Adding zero turns -0 into 0.
        write!(f, "{}", r + 0.0)
    }
}

impl Canvas {
    /// A document `width` pixels wide whose drawing spans `view_w` × `view_h`
    /// units; the height in pixels keeps that ratio.
    pub(crate) fn new(width: u32, view_w: f64, view_h: f64) -> Canvas {
        let height = (f64::from(width) * view_h / view_w).round().max(1.0) as u32;
        let mut out = String::with_capacity(32 * 1024);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {} {}">"#,
            N(view_w),
            N(view_h)
        );
        let body = out.len();
        Canvas {
            out,
            width,
            height,
            view: (view_w, view_h),
            body,
        }
    }

    /// The drawing's width and height in its own units.
    pub(crate) fn view(&self) -> (f64, f64) {
        self.view
    }

    /// Draws `inner` (another document's drawing, without its own `<svg>`
    /// element) into this one, in the same units, its origin moved to
    /// (`x`, `y`).
    pub(crate) fn place(&mut self, inner: Canvas, x: f64, y: f64) {
        let _ = write!(self.out, r#"<g transform="translate({} {})">"#, N(x), N(y));
        self.out.push_str(&inner.out[inner.body..]);
        self.out.push_str("</g>");
    }

    /// Draws `inner` into this one scaled by `scale`, its origin moved to
    /// (`x`, `y`).
    pub(crate) fn place_scaled(&mut self, inner: Canvas, x: f64, y: f64, scale: f64) {
        let _ = write!(
            self.out,
            r#"<g transform="translate({} {}) scale({})">"#,
            N(x),
            N(y),
            // Four decimals: a scale written to two would misplace the
            // far edge of a board by a few units.
            (scale * 10_000.0).round() / 10_000.0
        );
        self.out.push_str(&inner.out[inner.body..]);
        self.out.push_str("</g>");
    }

    /// The width in pixels.
    pub(crate) fn width(&self) -> u32 {
        self.width
    }

    /// The height in pixels.
    pub(crate) fn height(&self) -> u32 {
        self.height
    }

    /// Closes the document and returns its text.
    pub(crate) fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }

    /// Appends markup as it is (gradients and other definitions).
    pub(crate) fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
    }

    /// Starts an empty element `<tag …/>`; add attributes to the result.
    pub(crate) fn el(&mut self, tag: &str) -> El<'_> {
        self.out.push('<');
        self.out.push_str(tag);
        El { out: &mut self.out }
    }

    /// A rectangle.
    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64) -> El<'_> {
        self.el("rect")
            .num("x", x)
            .num("y", y)
            .num("width", w)
            .num("height", h)
    }

    /// A circle.
    pub(crate) fn circle(&mut self, cx: f64, cy: f64, r: f64) -> El<'_> {
        self.el("circle").num("cx", cx).num("cy", cy).num("r", r)
    }

    /// A straight line.
    pub(crate) fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) -> El<'_> {
        self.el("line")
            .num("x1", x1)
            .num("y1", y1)
            .num("x2", x2)
            .num("y2", y2)
    }

    /// A path with the given data.
    pub(crate) fn path(&mut self, d: &str) -> El<'_> {
        self.el("path").attr("d", d)
    }
}

/// An element being written; it is closed when dropped.
pub(crate) struct El<'a> {
    out: &'a mut String,
}

impl El<'_> {
    /// Adds a numeric attribute.
    pub(crate) fn num(self, name: &str, value: f64) -> Self {
        let _ = write!(self.out, r#" {name}="{}""#, N(value));
        self
    }

    /// Adds a text attribute. Values are the crate's own (colours, path
    /// data, transforms), never user text, so nothing needs escaping.
    pub(crate) fn attr(self, name: &str, value: &str) -> Self {
        let _ = write!(self.out, r#" {name}="{value}""#);
        self
    }

    /// Sets `fill`.
    pub(crate) fn fill(self, colour: &str) -> Self {
        self.attr("fill", colour)
    }

    /// Sets `stroke` and `stroke-width`.
    pub(crate) fn stroke(self, colour: &str, width: f64) -> Self {
        self.attr("stroke", colour).num("stroke-width", width)
    }

    /// Draws the element without anti-aliasing (`shape-rendering:
    /// crispEdges`): for shapes whose edges run along the pixel grid, where
    /// smoothing shows little and costs much of the rendering time.
    pub(crate) fn crisp(self) -> Self {
        self.attr("shape-rendering", "crispEdges")
    }

    /// Makes the element's fill and stroke see-through. Written as
    /// `fill-opacity` and `stroke-opacity`, not `opacity`: the latter makes
    /// a renderer paint the element on a layer of its own and blend that,
    /// which costs far more for the same look on a single shape.
    pub(crate) fn opacity(self, value: f64) -> Self {
        self.num("fill-opacity", value).num("stroke-opacity", value)
    }
}

impl Drop for El<'_> {
    fn drop(&mut self) {
        self.out.push_str("/>");
    }
}

/// Path data built from numbers, written as [`N`].
#[derive(Default)]
pub(crate) struct PathData(String);

impl PathData {
    /// Moves to a point.
    pub(crate) fn move_to(&mut self, x: f64, y: f64) -> &mut Self {
        let _ = write!(self.0, "M{} {}", N(x), N(y));
        self
    }

    /// A line to a point.
    pub(crate) fn line_to(&mut self, x: f64, y: f64) -> &mut Self {
        let _ = write!(self.0, "L{} {}", N(x), N(y));
        self
    }

    /// Closes the sub-path.
    pub(crate) fn close(&mut self) -> &mut Self {
        self.0.push('Z');
        self
    }

    /// The data written so far.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_at_most_two_decimals_and_no_negative_zero() {
        assert_eq!(N(1.0).to_string(), "1");
        assert_eq!(N(12.345_678).to_string(), "12.35");
        assert_eq!(N(-0.001).to_string(), "0");
        assert_eq!(N(-3.5).to_string(), "-3.5");
    }

    #[test]
    fn elements_close_when_dropped() {
        let mut c = Canvas::new(100, 50.0, 100.0);
        assert_eq!(c.height(), 200);
        c.rect(1.0, 2.0, 3.0, 4.0).fill("#fff");
        c.circle(0.0, 0.0, 1.5).opacity(0.5);
        let text = c.finish();
        assert!(text.ends_with(
            r##"<rect x="1" y="2" width="3" height="4" fill="#fff"/><circle cx="0" cy="0" r="1.5" fill-opacity="0.5" stroke-opacity="0.5"/></svg>
"##
        ));
    }
}
