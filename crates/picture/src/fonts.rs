//! The embedded fonts, and text drawn as their glyph outlines.
//!
//! Two subsets of Noto CJK (SIL Open Font License 1.1) are compiled into
//! the crate: printable ASCII from Noto Sans CJK TC Bold, and the xiangqi
//! glyphs from Noto Serif CJK TC Bold (`fonts/README.md` and
//! `scripts/subset-fonts.sh` say how they were made). Every glyph's outline
//! is turned into SVG path data once per process, in font units; a text
//! then costs one `<path>` per glyph that reuses that data under a
//! transform. No `<text>` element is written, so no viewer needs a font.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::LazyLock;

use ttf_parser::{Face, OutlineBuilder};

use crate::canvas::{Canvas, N};

const LATIN_BYTES: &[u8] = include_bytes!("../fonts/qipan-latin.otf");
const CJK_BYTES: &[u8] = include_bytes!("../fonts/qipan-cjk.otf");

/// Which embedded font to draw with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Font {
    /// Printable ASCII, bold sans-serif.
    Latin,
    /// The xiangqi piece and river glyphs, bold serif.
    Cjk,
}

/// Where a text's reference point is, across.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// The ink's left edge.
    Start,
    /// The ink's middle.
    Middle,
    /// The ink's right edge.
    End,
}

/// Which middle of a text goes to its reference point, down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Middle {
    /// Halfway up the capital letters and digits (their visual middle).
    Cap,
    /// Halfway up the lower-case letters without ascenders.
    XHeight,
    /// The middle of this text's own ink (for single ideographs).
    Ink,
}

/// How a text looks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style<'a> {
    /// The font.
    pub font: Font,
    /// The em size in drawing units.
    pub size: f64,
    /// The fill colour.
    pub fill: &'a str,
}

/// A glyph: its advance, its ink box and its outline, in font units with
/// y up.
struct Glyph {
    advance: f64,
    ink: Option<Ink>,
    path: String,
}

/// A box in font units, y up.
#[derive(Debug, Clone, Copy)]
struct Ink {
    x_min: f64,
    y_min: f64,
    x_max: f64,
    y_max: f64,
}

/// One parsed font.
struct Loaded {
    units_per_em: f64,
    cap_height: f64,
    x_height: f64,
    glyphs: HashMap<char, Glyph>,
    /// The font's `.notdef` glyph (a box), drawn for the characters of a
    /// player's name that the subset lacks.
    notdef: Glyph,
}

/// Both fonts, parsed once.
static FONTS: LazyLock<[Loaded; 2]> = LazyLock::new(|| {
    [
        load(LATIN_BYTES, (' '..='~').collect()),
        load(CJK_BYTES, crate::games::xiangqi::GLYPHS.chars().collect()),
    ]
});

/// Writes an outline as SVG path data.
struct PathWriter(String);

impl OutlineBuilder for PathWriter {
    fn move_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "M{} {}", N(x.into()), N(y.into()));
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "L{} {}", N(x.into()), N(y.into()));
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let _ = write!(
            self.0,
            "Q{} {} {} {}",
            N(x1.into()),
            N(y1.into()),
            N(x.into()),
            N(y.into())
        );
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let _ = write!(
            self.0,
            "C{} {} {} {} {} {}",
            N(x1.into()),
            N(y1.into()),
            N(x2.into()),
            N(y2.into()),
            N(x.into()),
            N(y.into())
        );
    }

    fn close(&mut self) {
        self.0.push('Z');
    }
}

/// Parses a font and outlines the characters `chars`.
fn load(bytes: &'static [u8], chars: Vec<char>) -> Loaded {
    // The bytes are the crate's own font files; `fonts_parse_and_hold_every_glyph`
    // checks that they parse and hold every character drawn.
    let face = Face::parse(bytes, 0).expect("the embedded fonts are valid OpenType");
    let outline = |id| {
        let mut writer = PathWriter(String::new());
        let ink = face.outline_glyph(id, &mut writer).map(|r| Ink {
            x_min: r.x_min.into(),
            y_min: r.y_min.into(),
            x_max: r.x_max.into(),
            y_max: r.y_max.into(),
        });
        let advance = face.glyph_hor_advance(id).map_or(0.0, f64::from);
        Glyph {
            advance,
            ink,
            path: writer.0,
        }
    };
    let mut glyphs = HashMap::with_capacity(chars.len());
    for c in chars {
        if let Some(id) = face.glyph_index(c) {
            glyphs.insert(c, outline(id));
        }
    }
    let notdef = outline(ttf_parser::GlyphId(0));
    let units_per_em = f64::from(face.units_per_em());
    let ink_top = |c: char| glyphs.get(&c).and_then(|g| g.ink).map(|i| i.y_max);
    let cap_height = face
        .capital_height()
        .map(f64::from)
        .or_else(|| ink_top('H'))
        .unwrap_or(0.7 * units_per_em);
    let x_height = face
        .x_height()
        .map(f64::from)
        .or_else(|| ink_top('x'))
        .unwrap_or(0.5 * units_per_em);
    Loaded {
        units_per_em,
        cap_height,
        x_height,
        glyphs,
        notdef,
    }
}

fn font(f: Font) -> &'static Loaded {
    match f {
        Font::Latin => &FONTS[0],
        Font::Cjk => &FONTS[1],
    }
}

/// What a text does with the characters its font lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    /// Leaves them out (the crate's own texts, whose characters the
    /// subsets hold).
    Skip,
    /// Draws the font's `.notdef` box in their place (players' names,
    /// which may hold any character).
    Box,
}

/// The glyphs of `text` with their pen positions, and the ink box of the
/// whole, in font units.
fn layout<'f>(f: &'f Loaded, text: &str, missing: Missing) -> (Vec<(f64, &'f Glyph)>, Option<Ink>) {
    let mut pen = 0.0;
    let mut placed = Vec::with_capacity(text.len());
    let mut ink: Option<Ink> = None;
    for c in text.chars() {
        let g = match (f.glyphs.get(&c), missing) {
            (Some(g), _) => g,
            (None, Missing::Box) => &f.notdef,
            (None, Missing::Skip) => continue,
        };
        if let Some(i) = g.ink {
            let moved = Ink {
                x_min: i.x_min + pen,
                x_max: i.x_max + pen,
                ..i
            };
            ink = Some(match ink {
                None => moved,
                Some(a) => Ink {
                    x_min: a.x_min.min(moved.x_min),
                    y_min: a.y_min.min(moved.y_min),
                    x_max: a.x_max.max(moved.x_max),
                    y_max: a.y_max.max(moved.y_max),
                },
            });
        }
        placed.push((pen, g));
        pen += g.advance;
    }
    (placed, ink)
}

/// The width of `text`'s ink at em size `size`.
pub(crate) fn measure(font_id: Font, text: &str, size: f64) -> f64 {
    measure_with(font_id, text, size, Missing::Skip)
}

/// The width of `text`'s ink at em size `size`, drawn with `missing`.
pub(crate) fn measure_with(font_id: Font, text: &str, size: f64, missing: Missing) -> f64 {
    let f = font(font_id);
    let (_, ink) = layout(f, text, missing);
    ink.map_or(0.0, |i| (i.x_max - i.x_min) * size / f.units_per_em)
}

/// Draws `text` with its reference point at (`x`, `y`).
pub(crate) fn text(
    canvas: &mut Canvas,
    text: &str,
    x: f64,
    y: f64,
    style: Style<'_>,
    anchor: Anchor,
    baseline: Middle,
) {
    text_with(
        canvas,
        text,
        (x, y),
        style,
        (anchor, baseline),
        Missing::Skip,
    );
}

/// Draws `text` with its reference point at `at`, placed by
/// `(anchor, baseline)`, the characters the font lacks drawn as `missing`
/// says.
pub(crate) fn text_with(
    canvas: &mut Canvas,
    text: &str,
    (x, y): (f64, f64),
    style: Style<'_>,
    (anchor, baseline): (Anchor, Middle),
    missing: Missing,
) {
    let f = font(style.font);
    let (placed, ink) = layout(f, text, missing);
    let Some(ink) = ink else {
        return;
    };
    let s = style.size / f.units_per_em;
    let ox = match anchor {
        Anchor::Start => x - ink.x_min * s,
        Anchor::Middle => x - (ink.x_min + ink.x_max) / 2.0 * s,
        Anchor::End => x - ink.x_max * s,
    };
    // Font units have y up; the middle chosen goes to `y`.
    let mid = match baseline {
        Middle::Cap => f.cap_height / 2.0,
        Middle::XHeight => f.x_height / 2.0,
        Middle::Ink => (ink.y_min + ink.y_max) / 2.0,
    };
    let oy = y + mid * s;
    for (pen, g) in placed {
        if g.path.is_empty() {
            continue;
        }
        let transform = format!(
            "matrix({} 0 0 {} {} {})",
            N4(s),
            N4(-s),
            N(ox + pen * s),
            N(oy)
        );
        canvas
            .path(&g.path)
            .attr("transform", &transform)
            .fill(style.fill);
    }
}

/// A scale factor, written with four decimals (glyph scales are small
/// numbers, and two decimals would distort them).
struct N4(f64);

impl std::fmt::Display for N4 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = (self.0 * 10_000.0).round() / 10_000.0;
        write!(f, "{}", r + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fonts_parse_and_hold_every_glyph() {
        let latin = font(Font::Latin);
        for c in ('!'..='~').chain(['0']) {
            let g = latin.glyphs.get(&c).unwrap_or_else(|| panic!("{c:?}"));
            assert!(!g.path.is_empty() && g.ink.is_some(), "{c:?}");
        }
        let cjk = font(Font::Cjk);
        for c in crate::games::xiangqi::GLYPHS.chars() {
            let g = cjk.glyphs.get(&c).unwrap_or_else(|| panic!("{c:?}"));
            assert!(!g.path.is_empty() && g.ink.is_some(), "{c:?}");
        }
        assert!(latin.cap_height > latin.x_height && latin.x_height > 0.0);
    }

    #[test]
    fn measure_scales_with_size() {
        let a = measure(Font::Latin, "2048", 10.0);
        let b = measure(Font::Latin, "2048", 20.0);
        assert!(a > 0.0 && (b - 2.0 * a).abs() < 1e-9);
        assert_eq!(measure(Font::Latin, " ", 10.0), 0.0);
    }

    #[test]
    fn characters_the_font_lacks_are_skipped_or_boxed() {
        assert_eq!(
            measure(Font::Latin, "Zoë", 10.0),
            measure(Font::Latin, "Zo", 10.0)
        );
        let boxed = measure_with(Font::Latin, "Zoë", 10.0, Missing::Box);
        assert!(boxed > measure(Font::Latin, "Zo", 10.0));
        assert!(font(Font::Latin).notdef.ink.is_some());
    }
}
