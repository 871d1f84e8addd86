//! The embedded fonts, and text drawn as their glyph outlines.
//!
//! Three subsets of Noto CJK (SIL Open Font License 1.1) are compiled into
//! the crate (`fonts/README.md` and `scripts/subset-fonts.sh` say how they
//! were made): printable ASCII from Noto Sans CJK TC Bold for the crate's
//! own labels and figures, the xiangqi glyphs from Noto Serif CJK TC Bold,
//! and, for players' names and callers' captions, Noto Sans CJK SC Bold cut
//! down to its Latin, Greek, Cyrillic, kana and full-width forms, the hanzi
//! of GB 2312 and of Big5's common set, JIS level-1 kanji and the hangul of
//! KS X 1001 (12,307 glyphs).
//!
//! The two small fonts are outlined whole once per process. The text font
//! is outlined glyph by glyph as a text needs it: its 2.5 MB stay in the
//! binary's read-only data and only the pages holding the glyphs drawn are
//! ever read, so a process that draws a few names holds a few pages of it,
//! not twelve thousand outlines. Either way a glyph becomes SVG path data
//! in font units, and a text costs one `<path>` per glyph that places that
//! data under a transform. No `<text>` element is written, so no viewer
//! needs a font.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::LazyLock;

use ttf_parser::{Face, GlyphId, OutlineBuilder};
use unicode_normalization::UnicodeNormalization;

use crate::canvas::{Canvas, N};

const LATIN_BYTES: &[u8] = include_bytes!("../fonts/qipan-latin.otf");
const CJK_BYTES: &[u8] = include_bytes!("../fonts/qipan-cjk.otf");
const TEXT_BYTES: &[u8] = include_bytes!("../fonts/qipan-text.otf");

/// Which embedded font to draw with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Font {
    /// Printable ASCII, bold sans-serif: the crate's own labels, whose
    /// characters it holds. Any other character is left out.
    Latin,
    /// The xiangqi piece and river glyphs, bold serif. Any other character
    /// is left out.
    Cjk,
    /// Names and captions, bold sans-serif in many scripts. A character it
    /// lacks is drawn as its base letter where dropping an accent gives one
    /// it has (`ř` as `r`), and as the font's `.notdef` box otherwise, so
    /// that a reader sees something is there.
    Text,
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
#[derive(Clone)]
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
    face: Face<'static>,
    units_per_em: f64,
    cap_height: f64,
    x_height: f64,
    /// The glyphs outlined when the font was loaded; any other glyph of
    /// the face is outlined when it is drawn.
    glyphs: HashMap<char, Glyph>,
    /// The font's `.notdef` glyph (a box with a cross), drawn for the
    /// characters of a [`Font::Text`] text that the font lacks.
    notdef: Glyph,
}

/// The three fonts, parsed once: the two small ones outlined whole, and of
/// the text font printable ASCII, the characters most often drawn.
static FONTS: LazyLock<[Loaded; 3]> = LazyLock::new(|| {
    [
        load(LATIN_BYTES, (' '..='~').collect()),
        load(CJK_BYTES, crate::games::xiangqi::GLYPHS.chars().collect()),
        load(TEXT_BYTES, (' '..='~').collect()),
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

/// A glyph's advance, ink box and outline.
fn outline(face: &Face<'_>, id: GlyphId) -> Glyph {
    let mut writer = PathWriter(String::new());
    let ink = face.outline_glyph(id, &mut writer).map(|r| Ink {
        x_min: r.x_min.into(),
        y_min: r.y_min.into(),
        x_max: r.x_max.into(),
        y_max: r.y_max.into(),
    });
    Glyph {
        advance: face.glyph_hor_advance(id).map_or(0.0, f64::from),
        ink,
        path: writer.0,
    }
}

/// Parses a font and outlines the characters `chars`.
fn load(bytes: &'static [u8], chars: Vec<char>) -> Loaded {
    // The bytes are the crate's own font files; `fonts_parse_and_hold_every_glyph`
    // checks that they parse and hold every character drawn.
    let face = Face::parse(bytes, 0).expect("the embedded fonts are valid OpenType");
    let mut glyphs = HashMap::with_capacity(chars.len());
    for c in chars {
        if let Some(id) = face.glyph_index(c) {
            glyphs.insert(c, outline(&face, id));
        }
    }
    let notdef = outline(&face, GlyphId(0));
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
        face,
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
        Font::Text => &FONTS[2],
    }
}

impl Loaded {
    /// The glyph of `c`, if the font has one.
    fn glyph(&self, c: char) -> Option<Cow<'_, Glyph>> {
        if let Some(g) = self.glyphs.get(&c) {
            return Some(Cow::Borrowed(g));
        }
        let id = self.face.glyph_index(c)?;
        Some(Cow::Owned(outline(&self.face, id)))
    }

    /// The character that draws `c`: `c` itself, or else its base letter
    /// (the first character of its canonical decomposition, when that is
    /// another character) if the font has that.
    fn drawn_as(&self, c: char) -> Option<char> {
        if self.face.glyph_index(c).is_some() {
            return Some(c);
        }
        std::iter::once(c)
            .nfd()
            .next()
            .filter(|&b| b != c && self.face.glyph_index(b).is_some())
    }
}

/// The characters of `text` that a name or caption draws as the fallback
/// box: those the text font has neither a glyph nor a base letter for.
pub(crate) fn missing(text: &str) -> Vec<char> {
    let f = font(Font::Text);
    text.chars().filter(|&c| f.drawn_as(c).is_none()).collect()
}

/// The outline of the fallback box, as written into an SVG.
#[cfg(test)]
pub(crate) fn notdef_path() -> &'static str {
    &font(Font::Text).notdef.path
}

/// The glyphs of `text` with their pen positions, and the ink box of the
/// whole, in font units.
fn layout(font_id: Font, text: &str) -> (Vec<(f64, Cow<'static, Glyph>)>, Option<Ink>) {
    let f = font(font_id);
    let mut pen = 0.0;
    let mut placed = Vec::with_capacity(text.len());
    let mut ink: Option<Ink> = None;
    for c in text.chars() {
        let g = match font_id {
            Font::Text => match f.drawn_as(c).and_then(|d| f.glyph(d)) {
                Some(g) => g,
                None => Cow::Borrowed(&f.notdef),
            },
            Font::Latin | Font::Cjk => match f.glyph(c) {
                Some(g) => g,
                None => continue,
            },
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
        let advance = g.advance;
        placed.push((pen, g));
        pen += advance;
    }
    (placed, ink)
}

/// The width of `text`'s ink at em size `size`.
pub(crate) fn measure(font_id: Font, text: &str, size: f64) -> f64 {
    let (_, ink) = layout(font_id, text);
    ink.map_or(0.0, |i| {
        (i.x_max - i.x_min) * size / font(font_id).units_per_em
    })
}

/// `text`, cut short with `...` until its ink is at most `room` wide at em
/// size `size`: a name or caption too long for its place.
pub(crate) fn fit(font_id: Font, text: &str, room: f64, size: f64) -> String {
    if measure(font_id, text, size) <= room {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let cut = |keep: usize| -> String {
        let kept: String = chars.iter().take(keep).collect();
        kept.trim_end().to_owned() + "..."
    };
    // The longest cut that fits, found by halving (a cut's width grows
    // with the characters it keeps); `...` alone if none does.
    let (mut fits, mut too_wide) = (0, chars.len());
    while fits + 1 < too_wide {
        let mid = (fits + too_wide) / 2;
        if measure(font_id, &cut(mid), size) <= room {
            fits = mid;
        } else {
            too_wide = mid;
        }
    }
    cut(fits)
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
    let f = font(style.font);
    let (placed, ink) = layout(style.font, text);
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
        for f in [Font::Latin, Font::Text] {
            let loaded = font(f);
            for c in '!'..='~' {
                let g = loaded.glyphs.get(&c).unwrap_or_else(|| panic!("{c:?}"));
                assert!(!g.path.is_empty() && g.ink.is_some(), "{c:?}");
            }
            assert!(loaded.cap_height > loaded.x_height && loaded.x_height > 0.0);
            assert!(loaded.notdef.ink.is_some());
        }
        let cjk = font(Font::Cjk);
        for c in crate::games::xiangqi::GLYPHS.chars() {
            let g = cjk.glyphs.get(&c).unwrap_or_else(|| panic!("{c:?}"));
            assert!(!g.path.is_empty() && g.ink.is_some(), "{c:?}");
        }
        // The subset's own count (`scripts/subset-fonts.sh` reports it too).
        assert_eq!(font(Font::Text).face.number_of_glyphs(), 12_307);
    }

    #[test]
    fn measure_scales_with_size() {
        let a = measure(Font::Latin, "2048", 10.0);
        let b = measure(Font::Latin, "2048", 20.0);
        assert!(a > 0.0 && (b - 2.0 * a).abs() < 1e-9);
        assert_eq!(measure(Font::Latin, " ", 10.0), 0.0);
    }

    #[test]
    fn labels_skip_what_their_font_lacks_and_names_box_it() {
        assert_eq!(
            measure(Font::Latin, "Zoë", 10.0),
            measure(Font::Latin, "Zo", 10.0)
        );
        // Thai is in none of the text font's sets: a box, as wide as an em.
        let boxed = measure(Font::Text, "Zoก", 10.0);
        assert!(boxed > measure(Font::Text, "Zo", 10.0) + 5.0);
        assert_eq!(missing("Zoก"), vec!['ก']);
    }

    #[test]
    fn names_in_many_scripts_draw_without_the_box() {
        for name in [
            "王小明",
            "陳大文",
            "黃志強",
            "Zoë Ørsted",
            "Nguyễn",
            "Antonín Dvořák",
            "Лев Толстой",
            "さくら・ミク",
            "김민준",
            "ＡＢＣ１２３",
            "「棋王」— 2024",
        ] {
            assert_eq!(missing(name), Vec::<char>::new(), "{name}");
        }
    }

    #[test]
    fn a_letter_the_font_lacks_is_boxed() {
        // Ł (U+0141) is not in Noto Sans CJK and has no base letter to
        // fall back on.
        assert_eq!(missing("Łukasz"), vec!['Ł']);
    }

    #[test]
    fn an_accent_the_font_lacks_is_dropped_not_boxed() {
        // ř (U+0159) is not in the font; r is.
        assert!(font(Font::Text).face.glyph_index('ř').is_none());
        assert_eq!(
            measure(Font::Text, "Dvořák", 10.0),
            measure(Font::Text, "Dvorák", 10.0)
        );
    }

    #[test]
    fn long_texts_are_cut_short_to_fit() {
        let size = 40.0;
        assert_eq!(fit(Font::Text, "Lin", 1000.0, size), "Lin");
        let long = "Wolfeschlegelsteinhausenbergerdorff";
        let cut = fit(Font::Text, long, 300.0, size);
        assert!(cut.ends_with("...") && cut.len() < long.len(), "{cut}");
        assert!(measure(Font::Text, &cut, size) <= 300.0);
        let longer = fit(Font::Text, long, 400.0, size);
        assert!(longer.len() > cut.len(), "{longer} {cut}");
        assert_eq!(fit(Font::Text, long, 1.0, size), "...");
        let han = fit(Font::Text, "欧阳诸葛东方西门慕容", 200.0, size);
        assert!(han.starts_with("欧阳") && han.ends_with("..."), "{han}");
    }
}
