//! Pictures of positions of every qipan game: an SVG drawn from the
//! position, and a PNG rendered from that same SVG.
//!
//! The crate is pure, like the rules it draws: no I/O, no clock, no system
//! fonts. Text is written into the SVG as glyph outlines taken from three
//! fonts embedded in the crate (see `fonts/README.md`), so the served
//! SVG looks the same in every viewer and the PNG looks the same on every
//! machine. The PNG is rendered with `resvg` from the SVG string [`svg`]
//! returns, so the two never disagree.
//!
//! ```
//! use qipan_picture::{png, svg, Options};
//! use qipan_rules::{xiangqi, AnyPosition};
//!
//! let start = AnyPosition::from(xiangqi::Position::start());
//! let options = Options::default();
//! let text = svg(&start, &options).unwrap();
//! assert!(text.starts_with("<svg"));
//! let bytes = png(&start, &options).unwrap();
//! assert_eq!(&bytes[1..4], b"PNG");
//! ```
//!
//! # What each picture shows
//!
//! - **xiangqi**: the board with river (楚河 漢界), palaces and position
//!   marks; pieces as discs with traditional glyphs, distinct for the two
//!   sides (帥仕相傌俥炮兵 for red, 將士象馬車砲卒 for black). Highlights:
//!   the last move's origin and destination, a general in check.
//! - **gomoku**: the grid with its star points and the stones. Highlights:
//!   the last stone, the winning line(s), and under Renju black's forbidden
//!   points when black is to move.
//! - **2048**: the tiles in the original game's colours and the score; the
//!   original's "Game over!" veil once no move is left.
//! - **quoridor**: squares, goal rows tinted in their player's colour,
//!   pawns, walls and each player's walls left. Highlights: each player's
//!   shortest path to its goal, the last pawn move or wall.
//! - **tetris**: the visible field and the two hidden rows above it, the
//!   active piece, the hold piece (greyed while hold is used up), the next
//!   queue, score, lines and level; "GAME OVER" over the field once the
//!   stack has topped out. Highlight: the ghost (where a hard drop lands).
//!
//! A duel's picture ([`duel_svg`], [`duel_png`]) adds a band above and
//! below the board for each player (a disc of its side's colour, its name,
//! its clock with the running one lit) and, once the match is over, a line
//! saying how it ended: see [`Panel`].
//!
//! A chat card ([`card_svg`], [`card_png`]) puts the board on the left of a
//! landscape picture of 1.91:1 (1200 × 630 at full size) and a caption the
//! caller wrote on the right: see [`Card`]. An animated replay
//! ([`replay_gif`]) draws a list of positions as a looping GIF, each frame
//! the duel picture of its position.
//!
//! Players' names, results and captions are drawn in any script an embedded
//! subset of Noto Sans CJK SC holds (GB 2312's and Big5's hanzi, kana,
//! hangul, Latin, Greek, Cyrillic: see [`missing_glyphs`]).
//!
//! While a two-player game goes on, the side to move is marked: a small
//! disc in the corner beside its back rank (xiangqi), a small stone in the
//! bottom-right corner (gomoku), a pointer before its walls (quoridor).

#![deny(missing_docs)]

use qipan_rules::{gomoku, quoridor, xiangqi, AnyAction, AnyPosition, GameKind, Reason};

mod canvas;
mod card;
mod fonts;
mod games;
mod panel;
mod render;
mod replay;

pub use card::{Card, CARD_HEIGHT, CARD_WIDTH};
pub use panel::{ClockFace, Panel, PanelPlayer};
pub use replay::{ReplayCaption, ReplayFrame, ReplayOptions, MAX_REPLAY_FRAMES, MAX_REPLAY_SIZE};

/// The narrowest picture, in pixels.
pub const MIN_SIZE: u32 = 64;
/// The widest picture, in pixels.
pub const MAX_SIZE: u32 = 2048;

/// How to draw a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The picture's width in pixels, [`MIN_SIZE`] to [`MAX_SIZE`]. The
    /// height follows from the game's board (a xiangqi picture is taller
    /// than wide, a Tetris one too).
    pub size: u32,
    /// Turn the board half a turn: black at the bottom in xiangqi, player 2
    /// in quoridor, the board upside down in gomoku. 2048 and Tetris have
    /// no second side and ignore it.
    pub flip: bool,
    /// Label files and ranks as the game's notation names them (xiangqi
    /// `a`–`i` and `0`–`9`, gomoku `a`–`o` and `1`–`15`, quoridor `a`–`i`
    /// and `1`–`9`). 2048 and Tetris have no coordinates and ignore it.
    pub coordinates: bool,
    /// Draw the highlights (last move, check, winning line, forbidden
    /// points, shortest paths, Tetris ghost). `false` draws none of them.
    pub highlights: bool,
    /// The action that led to this position, to highlight. It must be of
    /// the position's game and able to have led to it (see
    /// [`ImpossibleLast`]). A gomoku position that knows its last stone
    /// shows it without being told. A 2048 direction or a Tetris input
    /// leaves no mark to draw: it is accepted and not drawn.
    pub last: Option<AnyAction>,
    /// The characters on xiangqi pieces. The other games ignore it.
    pub pieces: Pieces,
}

impl Default for Options {
    /// 480 px wide, not flipped, with coordinates and highlights, no last
    /// move, simplified pieces.
    fn default() -> Options {
        Options {
            size: 480,
            flip: false,
            coordinates: true,
            highlights: true,
            last: None,
            pieces: Pieces::Simplified,
        }
    }
}

/// The characters xiangqi pieces carry: the same style a reader's move list
/// uses, so the board and the notation agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Pieces {
    /// 帅仕相马车炮兵 and 将士象马车炮卒, as mainland books and the Chinese
    /// notation print them: the sides share 马车炮 and differ by colour.
    #[default]
    Simplified,
    /// 帥仕相傌俥炮兵 and 將士象馬車砲卒, as traditional sets carve them:
    /// every role differs between the sides by the character too, so the
    /// picture stays readable in grey.
    Traditional,
}

impl Pieces {
    /// Every style, in the order a query names them.
    pub const ALL: [Pieces; 2] = [Pieces::Simplified, Pieces::Traditional];

    /// The name a query gives the style: `simplified`, `traditional`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pieces::Simplified => "simplified",
            Pieces::Traditional => "traditional",
        }
    }
}

impl std::fmt::Display for Pieces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that names no piece style.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a piece style: simplified or traditional")]
pub struct ParsePiecesError(pub String);

impl std::str::FromStr for Pieces {
    type Err = ParsePiecesError;

    fn from_str(s: &str) -> Result<Pieces, ParsePiecesError> {
        Pieces::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| ParsePiecesError(s.to_owned()))
    }
}

/// Why a picture cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// The width is outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    #[error("size {size} px is out of range: a picture is {MIN_SIZE} to {MAX_SIZE} px wide")]
    SizeOutOfRange {
        /// The width asked for.
        size: u32,
    },
    /// The last move belongs to another game than the position.
    #[error("last move {action} is a {game} action, but the position is a {position} position", game = action.kind())]
    LastOfAnotherGame {
        /// The last move given.
        action: AnyAction,
        /// The position's game.
        position: GameKind,
    },
    /// The last move cannot have led to the position.
    #[error("last move {action} cannot have led to this position: {why}")]
    ImpossibleLast {
        /// The last move given.
        action: AnyAction,
        /// What contradicts it.
        why: ImpossibleLast,
    },
    /// A duel's panel was asked for a game of one player.
    #[error("{game} has one player: a duel's panel is for the two-player games")]
    NotADuel {
        /// The position's game.
        game: GameKind,
    },
    /// A replay's width is outside [`MIN_SIZE`]..=[`MAX_REPLAY_SIZE`].
    #[error("size {size} px is out of range: a replay is {MIN_SIZE} to {MAX_REPLAY_SIZE} px wide")]
    ReplaySizeOutOfRange {
        /// The width asked for.
        size: u32,
    },
    /// A replay was asked of no position.
    #[error("a replay needs at least one position")]
    EmptyReplay,
    /// A replay holds more positions than [`MAX_REPLAY_FRAMES`].
    #[error("a replay of {frames} positions is too long: at most {MAX_REPLAY_FRAMES}")]
    TooManyFrames {
        /// The number of positions given.
        frames: usize,
    },
    /// A replay's position is of another game, or another board size,
    /// than its first.
    #[error("position {index} of the replay is not of the first position's game and board")]
    MixedFrames {
        /// The position's index in the replay, from 0.
        index: usize,
    },
    /// One position of a replay cannot be drawn (a `last` action that
    /// cannot have led to it).
    #[error("position {index} of the replay: {error}")]
    InFrame {
        /// The position's index in the replay, from 0.
        index: usize,
        /// Why it cannot be drawn.
        error: Box<PictureError>,
    },
    /// The renderer refused the drawing. Not expected: the SVG is the
    /// crate's own; the detail says what failed.
    #[error("the picture could not be rendered: {detail}")]
    Render {
        /// What failed.
        detail: String,
    },
}

impl Reason for PictureError {
    fn reason(&self) -> &'static str {
        match self {
            PictureError::SizeOutOfRange { .. } => "size-out-of-range",
            PictureError::LastOfAnotherGame { .. } => "wrong-game",
            PictureError::ImpossibleLast { .. } => "impossible-last-move",
            PictureError::NotADuel { .. } => "not-a-duel",
            PictureError::ReplaySizeOutOfRange { .. } => "size-out-of-range",
            PictureError::EmptyReplay => "empty-replay",
            PictureError::TooManyFrames { .. } => "too-many-frames",
            PictureError::MixedFrames { .. } => "mixed-frames",
            PictureError::InFrame { error, .. } => error.reason(),
            PictureError::Render { .. } => "render-failed",
        }
    }
}

/// What in the position contradicts the last move given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImpossibleLast {
    /// Xiangqi: the destination is empty.
    #[error("no piece stands on {square}")]
    EmptyDestination {
        /// The move's destination.
        square: xiangqi::Square,
    },
    /// Xiangqi: the piece on the destination belongs to the side to move.
    #[error("the {piece} on {square} is not {mover}'s, and {mover} moved last")]
    NotMoversPiece {
        /// The move's destination.
        square: xiangqi::Square,
        /// The piece standing there.
        piece: xiangqi::Piece,
        /// The side that moved last.
        mover: xiangqi::Side,
    },
    /// Xiangqi: a piece stands on the origin, which the move left empty.
    #[error("{square} should be empty after the move, but the {piece} stands there")]
    OriginOccupied {
        /// The move's origin.
        square: xiangqi::Square,
        /// The piece standing there.
        piece: xiangqi::Piece,
    },
    /// Gomoku: the point is off the board.
    #[error("{point} is off the {size}×{size} board")]
    OffBoard {
        /// The point given.
        point: gomoku::Point,
        /// The board's side.
        size: u8,
    },
    /// Gomoku: no stone stands on the point.
    #[error("no stone stands on {point}")]
    NoStone {
        /// The point given.
        point: gomoku::Point,
    },
    /// Gomoku: the stone on the point is of the side to move.
    #[error("the stone on {point} is {stone}, and {mover} moved last")]
    NotMoversStone {
        /// The point given.
        point: gomoku::Point,
        /// The stone there.
        stone: gomoku::Stone,
        /// The colour that moved last.
        mover: gomoku::Stone,
    },
    /// Gomoku: the position knows its last stone, and it is another.
    #[error("the position's last stone is on {recorded}")]
    OtherLastStone {
        /// The last stone the position records.
        recorded: gomoku::Point,
    },
    /// Quoridor: the pawn of the player who moved last is elsewhere.
    #[error("player {player}'s pawn stands on {actual}, not on {square}")]
    PawnElsewhere {
        /// The player who moved last.
        player: quoridor::Player,
        /// The move's destination.
        square: quoridor::Square,
        /// Where the pawn stands.
        actual: quoridor::Square,
    },
    /// Quoridor: the wall is not on the board.
    #[error("no wall stands on {wall}")]
    NoWall {
        /// The wall given.
        wall: quoridor::Wall,
    },
}

/// Draws `pos` as a self-contained SVG document: no fonts, scripts or
/// links to other files; text is drawn as glyph outlines.
///
/// The same position and options always give the same text.
///
/// # Errors
///
/// [`PictureError::SizeOutOfRange`] for a width outside
/// [`MIN_SIZE`]..=[`MAX_SIZE`]; [`PictureError::LastOfAnotherGame`] or
/// [`PictureError::ImpossibleLast`] for a `last` move that cannot have led
/// to `pos`.
pub fn svg(pos: &AnyPosition, options: &Options) -> Result<String, PictureError> {
    Ok(games::draw(pos, options)?.finish())
}

/// Renders the picture [`svg`] draws as a PNG (8-bit RGB: every picture
/// is opaque), `options.size` pixels wide.
///
/// # Errors
///
/// As [`svg`]; [`PictureError::Render`] should the renderer refuse the
/// drawing.
pub fn png(pos: &AnyPosition, options: &Options) -> Result<Vec<u8>, PictureError> {
    render::png(&svg(pos, options)?)
}

/// Draws a duel: `pos` as [`svg`] draws it, with each player's band above
/// and below it and, once over, how the match ended (see [`Panel`]).
///
/// # Errors
///
/// As [`svg`]; [`PictureError::NotADuel`] for a one-player game.
pub fn duel_svg(
    pos: &AnyPosition,
    options: &Options,
    panel: &Panel,
) -> Result<String, PictureError> {
    Ok(panel::draw(pos, options, panel)?.finish())
}

/// Renders the picture [`duel_svg`] draws as a PNG, `options.size` pixels
/// wide.
///
/// # Errors
///
/// As [`duel_svg`]; [`PictureError::Render`] should the renderer refuse
/// the drawing.
pub fn duel_png(
    pos: &AnyPosition,
    options: &Options,
    panel: &Panel,
) -> Result<Vec<u8>, PictureError> {
    render::png(&duel_svg(pos, options, panel)?)
}

/// Draws a chat card: `pos` as [`svg`] draws it, on the left of a
/// landscape picture of 1.91:1, with `card`'s caption on the right (see
/// [`Card`]). `options.size` is the card's width: [`CARD_WIDTH`] gives the
/// 1200 × 630 pixels link previews ask for.
///
/// ```
/// use qipan_picture::{card_png, Card, Options, CARD_HEIGHT, CARD_WIDTH};
/// use qipan_rules::{xiangqi, AnyPosition};
///
/// let start = AnyPosition::from(xiangqi::Position::start());
/// let options = Options { size: CARD_WIDTH, ..Options::default() };
/// let card = Card {
///     title: "象棋".into(),
///     players: vec!["王小明".into(), "李华".into()],
///     headline: "红方走棋".into(),
///     details: vec!["第1回合".into()],
/// };
/// let bytes = card_png(&start, &options, &card).unwrap();
/// assert_eq!(&bytes[16..24], [&CARD_WIDTH.to_be_bytes()[..], &CARD_HEIGHT.to_be_bytes()[..]].concat());
/// ```
///
/// # Errors
///
/// As [`svg`].
pub fn card_svg(pos: &AnyPosition, options: &Options, card: &Card) -> Result<String, PictureError> {
    Ok(card::draw(pos, options, card)?.finish())
}

/// Renders the card [`card_svg`] draws as a PNG.
///
/// # Errors
///
/// As [`card_svg`]; [`PictureError::Render`] should the renderer refuse
/// the drawing.
pub fn card_png(
    pos: &AnyPosition,
    options: &Options,
    card: &Card,
) -> Result<Vec<u8>, PictureError> {
    render::png(&card_svg(pos, options, card)?)
}

/// The width and height in pixels of a card `width` pixels wide.
///
/// # Errors
///
/// [`PictureError::SizeOutOfRange`] for a width outside
/// [`MIN_SIZE`]..=[`MAX_SIZE`].
pub fn card_dimensions(width: u32) -> Result<(u32, u32), PictureError> {
    check_size(width)?;
    Ok((width, card::height(width)))
}

/// The width and height in pixels of the picture [`duel_svg`] and
/// [`duel_png`] draw.
///
/// # Errors
///
/// As [`duel_svg`].
pub fn duel_dimensions(
    pos: &AnyPosition,
    options: &Options,
    panel: &Panel,
) -> Result<(u32, u32), PictureError> {
    let canvas = panel::draw(pos, options, panel)?;
    Ok((canvas.width(), canvas.height()))
}

/// Draws a game as an animated GIF: one frame per position, each the
/// picture [`duel_png`] draws of it (the last move marked, a band per
/// player, the result line) or, for a one-player game, the board with the
/// player's band when named; the last position is shown for
/// `options.final_delay`, the others for `options.delay`; the replay
/// loops. Frames share one palette fitted to the game and each holds only
/// what changed (see the `replay` module), so a 100-ply xiangqi game at
/// 480 px is some 0.4 MB.
///
/// A handler that has a game's codes and moves decodes each code into a
/// [`ReplayFrame`] with the move that led to it (the first without), and
/// writes the caption in the reader's language.
///
/// ```
/// use qipan_picture::{replay_gif, ReplayCaption, ReplayFrame, ReplayOptions};
/// use qipan_rules::{xiangqi, AnyAction, AnyPosition, GameKind};
///
/// let start = AnyPosition::from(xiangqi::Position::start());
/// let h2e2 = AnyAction::parse(GameKind::Xiangqi, "h2e2").unwrap();
/// let frames = vec![
///     ReplayFrame { position: start.clone(), last: None },
///     ReplayFrame { position: start.play(h2e2).unwrap(), last: Some(h2e2) },
/// ];
/// let caption = ReplayCaption {
///     names: vec![Some("王小明".into()), Some("李华".into())],
///     result: None,
/// };
/// let options = ReplayOptions { size: 160, ..ReplayOptions::default() };
/// let bytes = replay_gif(&frames, &caption, &options).unwrap();
/// assert_eq!(&bytes[..6], b"GIF89a");
/// ```
///
/// # Errors
///
/// [`PictureError::ReplaySizeOutOfRange`], [`PictureError::EmptyReplay`],
/// [`PictureError::TooManyFrames`] and [`PictureError::MixedFrames`] for
/// a replay that cannot be made, checked before any frame is drawn;
/// [`PictureError::InFrame`] for a position whose `last` action cannot
/// have led to it; [`PictureError::Render`] should the renderer or the
/// encoder refuse.
pub fn replay_gif(
    frames: &[ReplayFrame],
    caption: &ReplayCaption,
    options: &ReplayOptions,
) -> Result<Vec<u8>, PictureError> {
    replay::gif(frames, caption, options)
}

/// The characters of `text` that a player's name or a caption is drawn
/// without: each is drawn as a box (the text font's `.notdef`, a square
/// with a cross). Empty for any name in the scripts the embedded text font
/// holds — every hanzi of GB 2312 and of Big5's common set, JIS level-1
/// kanji, kana, KS X 1001 hangul, Latin with the accents of Latin-1 and
/// pinyin, Greek, Cyrillic, full-width forms (`fonts/README.md` lists
/// them) — and for an accented letter whose base letter it holds, which is
/// drawn without the accent.
///
/// ```
/// assert!(qipan_picture::missing_glyphs("王小明 vs 陳大文").is_empty());
/// assert_eq!(qipan_picture::missing_glyphs("สมชาย"), ['ส', 'ม', 'ช', 'า', 'ย']);
/// ```
pub fn missing_glyphs(text: &str) -> Vec<char> {
    fonts::missing(text)
}

/// Checks the width asked for.
fn check_size(size: u32) -> Result<(), PictureError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(PictureError::SizeOutOfRange { size })
    }
}

/// The width and height in pixels of the picture [`svg`] and [`png`] draw
/// with these options (what a page needs for its `<img>` and its preview
/// tags).
///
/// # Errors
///
/// As [`svg`].
pub fn dimensions(pos: &AnyPosition, options: &Options) -> Result<(u32, u32), PictureError> {
    let canvas = games::draw(pos, options)?;
    Ok((canvas.width(), canvas.height()))
}
