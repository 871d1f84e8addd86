//! Query of the picture endpoints (`…/picture.svg`, `…/picture.png`).

use serde::Deserialize;

/// How a picture is drawn. Every member is optional; see `openapi.yaml`
/// (`PictureSize`, `PictureFlip`, …) for what each does.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PictureQuery {
    /// Width in pixels.
    pub size: Option<u32>,
    /// Turn the board round (the second player at the bottom).
    pub flip: Option<bool>,
    /// The player drawn at the bottom (instead of `flip`).
    pub bottom: Option<String>,
    /// Draw the coordinates around the board.
    pub coordinates: Option<bool>,
    /// Draw the highlights the position has (check, winning line, …).
    pub highlights: Option<bool>,
    /// The move that led to the position, to mark it (state pictures only;
    /// a match knows its own).
    pub last: Option<String>,
    /// The match version a link was made at (match pictures only): not
    /// read, it only makes the URL of each version a new one for caches
    /// that key by URL, such as link previews.
    pub v: Option<u64>,
    /// The language of the words a picture carries (a card's caption, a
    /// duel's default names and result): `zh-Hans`, `zh-Hant` or `en`.
    /// Without it, the reader's (cookie, then `Accept-Language`).
    pub lang: Option<String>,
    /// The characters on xiangqi pieces: `simplified` (the default, as the
    /// Chinese notation prints them) or `traditional`.
    pub pieces: Option<String>,
}
