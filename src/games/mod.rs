//! The bridge between the rules crate and HTTP. Each game's adapter (one
//! file here) implements [`GameApi`] for the game's position type: its entry
//! in the game list, its start parameters, the parts of its view, how its
//! code errors are located, and its import and export bodies. The functions
//! below do what every game shares (decode, view, play a batch, import,
//! export) once, reaching the adapter through `qipan_rules::with_game!` and
//! `with_position!` — the rules crate's one list of the games.
//!
//! Nothing here builds an HTTP problem: failures are [`GameError`]s, which
//! `crate::problem` turns into problems at the edge.

use qipan_rules::code::SyntaxError;
use qipan_rules::xiangqi::Counters;
use qipan_rules::{AnyPlayer, AnyPosition, Game, GameKind, Player, Reason};

use line::Line;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;

use crate::wire::json::{JsonOut, WriteJson, WriteMembers};
use crate::wire::problem::Location;
use crate::wire::state::{ExportView, GameList, LineBody};
use crate::wire::{Description, GameInfo, StartQuery, StateView, StatusView};

mod error;
mod import;
mod params;
mod play;

pub mod gomoku;
pub mod line;
pub mod quoridor;
pub mod tetris;
pub mod twenty48;
pub mod xiangqi;

pub use error::{BodyFault, Fault, GameError, StartParam};
pub use params::{not_taken, seeded, seeded_start, standard_only, Parsed, Seed};
use play::steps;
pub use play::{check_batch, play, ActionText, Batch, Played, Ply};

/// The history the line `sent` gives `position` ([`GameApi::history_of`]).
///
/// # Errors
///
/// `HistoryNotTaken`, `HistoryMismatch`.
pub fn history_of(
    position: &AnyPosition,
    sent: &LineBody,
) -> Result<qipan_rules::xiangqi::History, GameError> {
    qipan_rules::with_position!(position, p => p.history_of(sent))
}

/// Plays `actions` on `position` along the line `sent`
/// ([`GameApi::play_along`]).
///
/// # Errors
///
/// `HistoryNotTaken`, `HistoryMismatch`, the batch's own errors.
pub fn play_along(
    position: &AnyPosition,
    actions: &[String],
    sent: &LineBody,
    base: &str,
) -> Result<String, GameError> {
    qipan_rules::with_position!(position, p => p.play_along(actions, sent, base))
}

/// Whether `side` could still win from `position` ([`GameApi::can_win`]).
pub fn can_win(position: &AnyPosition, side: AnyPlayer) -> bool {
    qipan_rules::with_position!(position, p => p.can_win(side))
}

/// The most actions one play request may carry.
pub const MAX_ACTIONS: usize = 1000;

/// What the service needs of a game beyond its rules: implemented, in the
/// game's adapter file, for the rules crate's position type.
pub trait GameApi: Game<Player: Into<AnyPlayer>> + Into<AnyPosition> {
    /// The game's title, variants, notation and formats, for `GET
    /// /v1/games`.
    fn description() -> Description;

    /// The start position for a query, and whether it is a pure function of
    /// the query (not when a random seed had to be drawn).
    ///
    /// # Errors
    ///
    /// [`GameError::UnknownVariant`] or [`GameError::StartParam`].
    fn start(query: &StartQuery) -> Result<(Self, bool), GameError>;

    /// The action `text` names in this position. Every game reads its own
    /// notation; xiangqi also reads the notations people write (Chinese,
    /// WXF), which only a position can resolve.
    ///
    /// # Errors
    ///
    /// [`ActionText::Malformed`] when the text is no action of the game,
    /// [`ActionText::Illegal`] when it is one but names no legal action
    /// here (a Chinese move no piece can make, or one that fits two).
    fn read_action(&self, text: &str) -> Result<Self::Action, ActionText> {
        text.parse()
            .map_err(|e: Self::ParseActionError| ActionText::Malformed {
                reason: e.reason(),
                detail: e.to_string(),
            })
    }

    /// The rule variant of a position.
    fn variant(&self) -> &'static str {
        "standard"
    }

    /// Whether the side to move is in check.
    fn check(&self) -> bool {
        false
    }

    /// The history a line sent with a play or an analysis gives this
    /// position.
    ///
    /// # Errors
    ///
    /// [`GameError::HistoryNotTaken`] for a game without a line;
    /// [`GameError::HistoryMismatch`] when the line does not lead here.
    fn history_of(&self, sent: &LineBody) -> Result<qipan_rules::xiangqi::History, GameError> {
        let _ = sent;
        Err(GameError::HistoryNotTaken { game: Self::KIND })
    }

    /// Plays `actions` here along the line `sent`, which must lead here:
    /// the view judged by the line.
    ///
    /// # Errors
    ///
    /// As [`GameApi::history_of`], and the batch's own errors.
    fn play_along(
        &self,
        actions: &[String],
        sent: &LineBody,
        base: &str,
    ) -> Result<String, GameError> {
        let _ = (actions, sent, base);
        Err(GameError::HistoryNotTaken { game: Self::KIND })
    }

    /// Whether `side` could still win from here: when the flag of its
    /// opponent falls, `side` wins if so, and the game is drawn if not.
    /// Gomoku and Quoridor: always (a line of five can always be made on a
    /// board with a free point; a pawn always has a path to its goal row,
    /// since no wall may close the last one); 2048 and Tetris have one
    /// player and no clock.
    fn can_win(&self, side: AnyPlayer) -> bool {
        let _ = side;
        true
    }

    /// The board, as the view shows it. (`Serialize` is the view's shape
    /// for documents and tests; answers are written by `WriteJson`, which
    /// writes the same text.)
    type Board: Serialize + WriteJson;
    /// The board of a position.
    fn board(&self) -> Self::Board;

    /// One legal action, as views and problems list it.
    type ActionView: Serialize + WriteJson;
    /// The view of a legal action of this position.
    fn action_view(&self, action: Self::Action) -> Self::ActionView;
    /// The views of every legal action, in the order of
    /// [`Game::legal_actions`]: a game whose views share work (xiangqi's
    /// names look at the same files) does it once here.
    fn legal_views(&self) -> Vec<Self::ActionView> {
        self.legal_actions()
            .into_iter()
            .map(|a| self.action_view(a))
            .collect()
    }

    /// The game's own members of the state view.
    type Part<'a>: Serialize + WriteMembers
    where
        Self: 'a;
    /// The game's members for a position; `trace` is what the play that
    /// led here reported, when the view answers a play; `counters` the
    /// xiangqi FEN counters a line gave the position, when one did.
    fn part<'a>(
        &'a self,
        trace: Option<&Self::Trace>,
        counters: Option<Counters>,
    ) -> Self::Part<'a>;

    /// About how many bytes a view writes for its board and own members,
    /// and for each legal action (its widest form): the view's text is
    /// allocated once, at the size these give.
    const VIEW_BYTES: usize;
    /// See [`GameApi::VIEW_BYTES`].
    const ACTION_BYTES: usize;

    /// Where a code error lies.
    fn code_location(error: &Self::CodeError) -> Location;

    /// The body of `POST /v1/{game}/import`: an enum tagged by `format`.
    type Import: DeserializeOwned;
    /// The members of the import body without its tag, read again on their
    /// own to name the member at fault when the body does not deserialize.
    type ImportFields: DeserializeOwned;
    /// Reads an import body.
    ///
    /// # Errors
    ///
    /// [`GameError::InvalidImport`] and the like, naming the member at fault.
    /// A xiangqi FEN's counters come with its position; other games have
    /// none.
    ///
    /// # Errors
    ///
    /// [`GameError::InvalidImport`] and the like, naming the member at fault.
    fn import(body: Self::Import) -> Result<(Self, Option<Counters>), GameError>;

    /// The export body: an enum tagged by `format`.
    type Export<'a>: Serialize
    where
        Self: 'a;
    /// The readable form of a position.
    fn export(&self) -> Self::Export<'_>;
}

/// Where a syntax error of a code lies (the part every game's codes share).
pub fn syntax_location(e: &SyntaxError) -> Location {
    match e {
        SyntaxError::Padding { offset } => Location {
            offset: Some(*offset),
            ..Location::default()
        },
        SyntaxError::InvalidCharacter { offset, character } => Location {
            offset: Some(*offset),
            character: Some(character.to_string()),
            ..Location::default()
        },
        SyntaxError::WrongLength {
            length, expected, ..
        } => Location {
            length: Some(*length),
            expected_length: *expected,
            ..Location::default()
        },
        SyntaxError::TrailingBits {
            offset, character, ..
        } => Location {
            offset: Some(*offset),
            character: Some(character.to_string()),
            ..Location::default()
        },
    }
}

/// A game's name in a path or body, read.
///
/// # Errors
///
/// [`GameError::UnknownGame`].
pub fn kind(name: &str) -> Result<GameKind, GameError> {
    name.parse().map_err(|_| GameError::UnknownGame {
        name: name.to_owned(),
    })
}

/// The share URL of a state.
pub fn share_url(base: &str, game: GameKind, code: &str) -> String {
    let mut url = String::with_capacity(base.len() + code.len() + 16);
    url.push_str(base);
    push_share_path(&mut url, game, code);
    url
}

/// Appends the path of a state's share URL (`/v1/{game}/{code}`) to `url`.
pub fn push_share_path(url: &mut String, game: GameKind, code: &str) {
    url.push_str("/v1/");
    url.push_str(game.as_str());
    url.push('/');
    url.push_str(code);
}

/// The share page of a state: what a person opens (`/p/{game}/{code}`).
pub fn page_url(base: &str, game: GameKind, code: &str) -> String {
    let mut url = String::with_capacity(base.len() + code.len() + 16);
    url.push_str(base);
    url.push_str("/p/");
    url.push_str(game.as_str());
    url.push('/');
    url.push_str(code);
    url
}

/// The rule variant of a position.
pub fn variant(pos: &AnyPosition) -> &'static str {
    qipan_rules::with_position!(pos, p => GameApi::variant(p))
}

/// Whether the side to move is in check.
pub fn check(pos: &AnyPosition) -> bool {
    qipan_rules::with_position!(pos, p => GameApi::check(p))
}

/// Body of `GET /v1/games`.
pub fn list() -> GameList {
    GameList {
        games: GameKind::ALL
            .into_iter()
            .map(|kind| {
                let d = qipan_rules::with_game!(kind, P => <P as GameApi>::description());
                GameInfo {
                    game: kind.as_str(),
                    title: d.title,
                    players: kind.players().iter().map(|p| p.as_str()).collect(),
                    variants: d.variants,
                    action_syntax: d.action_syntax,
                    formats: d.formats,
                    start: format!("/v1/{kind}/start"),
                }
            })
            .collect(),
    }
}

/// The start position of a game, and whether it may be cached (not when a
/// random seed was drawn).
///
/// # Errors
///
/// The game's refusal of a variant, seed or size.
pub fn start(kind: GameKind, query: &StartQuery) -> Result<(AnyPosition, bool), GameError> {
    qipan_rules::with_game!(kind, P => <P as GameApi>::start(query).map(|(p, pure)| (p.into(), pure)))
}

/// Reads a state code; `field` names where it came from (`code` for the
/// path segment, `from` in a match's creation body).
///
/// # Errors
///
/// [`GameError::InvalidCode`] naming the rule and the place at fault.
pub fn decode(kind: GameKind, code: &str, field: &'static str) -> Result<AnyPosition, GameError> {
    fn go<G: GameApi>(code: &str, field: &'static str) -> Result<AnyPosition, GameError> {
        G::from_code(code)
            .map(Into::into)
            .map_err(|e| GameError::InvalidCode(Fault::new(field, &e, G::code_location(&e))))
    }
    qipan_rules::with_game!(kind, P => go::<P>(code, field))
}

/// The state view of a position, as JSON text.
pub fn view(pos: &AnyPosition, base: &str) -> String {
    qipan_rules::with_position!(pos, p => render(p, &p.to_code(), base, None))
}

/// The same view as [`view`], written by serde_json from the same
/// definitions: the text the fast writer is held to, byte for byte, by the
/// unit tests, and the speed it is measured against (`benches/xiangqi.rs`).
///
/// # Errors
///
/// [`GameError::Render`], which would be a bug.
pub fn view_by_serde(pos: &AnyPosition, base: &str) -> Result<String, GameError> {
    fn go<G: GameApi>(pos: &G, base: &str) -> Result<String, GameError> {
        let code = pos.to_code();
        with_state_view(pos, &code, base, None, None, |view| {
            serde_json::to_string(view)
        })
        .map_err(GameError::Render)
    }
    qipan_rules::with_position!(pos, p => go(p, base))
}

/// The state view of a position, to be embedded in another view (a
/// match's).
///
/// # Errors
///
/// Only when the view is not valid JSON, which would be a bug.
pub fn view_raw(pos: &AnyPosition, base: &str) -> Result<Box<RawValue>, GameError> {
    raw(view(pos, base))
}

/// A view's text, checked and wrapped to be embedded in another view.
///
/// # Errors
///
/// Only when the text is not valid JSON, which would be a bug.
pub fn raw(view: String) -> Result<Box<RawValue>, GameError> {
    RawValue::from_string(view).map_err(GameError::Render)
}

/// Renders the state view of a position whose code is `code`.
fn render<G: GameApi>(pos: &G, code: &str, base: &str, trace: Option<&G::Trace>) -> String {
    render_judged(pos, code, base, trace, None)
}

/// What a line judged beyond the position: the status it gives the
/// position reached, its FEN counters there, and the line to send with the
/// next play.
#[derive(Debug, Clone)]
struct Judged {
    status: StatusView,
    counters: Counters,
    history: LineBody,
}

/// Renders the state view of a position whose code is `code`, with the
/// status and line a history gave it when there is one.
fn render_judged<G: GameApi>(
    pos: &G,
    code: &str,
    base: &str,
    trace: Option<&G::Trace>,
    judged: Option<Judged>,
) -> String {
    with_state_view(pos, code, base, trace, judged, |view| {
        // The two URLs hold the base and the code; a history holds a FEN
        // and moves.
        let history = view.history.as_ref().map_or(0, |h| 128 + 8 * h.moves.len());
        let mut out = JsonOut::with_capacity(
            G::VIEW_BYTES
                + 2 * view.url.len()
                + view.code.len()
                + G::ACTION_BYTES * view.legal_actions.len()
                + history,
        );
        view.write_json(&mut out);
        out.into_string()
    })
}

/// The state view of a position (see [`render_judged`]), handed to
/// `write`.
fn with_state_view<G: GameApi, R>(
    pos: &G,
    code: &str,
    base: &str,
    trace: Option<&G::Trace>,
    judged: Option<Judged>,
    write: impl FnOnce(&StateView<'_, G::Board, G::ActionView, G::Part<'_>>) -> R,
) -> R {
    let (status, counters, history) = match judged {
        Some(j) => (j.status, Some(j.counters), Some(j.history)),
        None => (StatusView::of(pos.status(), Player::as_str), None, None),
    };
    let url = share_url(base, G::KIND, code);
    let page = page_url(base, G::KIND, code);
    let view = StateView {
        game: G::KIND.as_str(),
        variant: pos.variant(),
        code,
        url: &url,
        page: &page,
        to_move: pos.to_move().as_str(),
        status,
        check: pos.check(),
        board: pos.board(),
        legal_actions: pos.legal_views(),
        part: pos.part(trace, counters),
        history,
    };
    write(&view)
}

/// The legal actions of a position as a problem lists them.
fn legal_list<G: GameApi>(pos: &G) -> Result<Box<RawValue>, GameError> {
    serde_json::value::to_raw_value(&pos.legal_views()).map_err(GameError::Render)
}

/// Reads an import body.
///
/// # Errors
///
/// [`GameError::ImportBody`] for a body that is not the game's import
/// object (naming the member), [`GameError::InvalidImport`] and the like
/// for a form the rules refuse.
pub fn import(kind: GameKind, body: &RawValue) -> Result<Imported, GameError> {
    fn go<G: GameApi>(body: &RawValue) -> Result<(AnyPosition, Option<Counters>), GameError> {
        let formats = G::description().formats;
        let parsed = import::read::<G::Import, G::ImportFields>(G::KIND, body.get(), formats)?;
        G::import(parsed).map(|(position, counters)| (position.into(), counters))
    }
    let (position, counters) = qipan_rules::with_game!(kind, P => go::<P>(body))?;
    let line = match (&position, counters) {
        (AnyPosition::Xiangqi(p), Some(counters)) => Some(Line::new(p.clone(), counters)),
        _ => None,
    };
    Ok(Imported { position, line })
}

/// A position read from an import body and, for xiangqi, the line it
/// starts: no moves yet, the FEN's counters.
#[derive(Debug)]
pub struct Imported {
    /// The position.
    pub position: AnyPosition,
    /// Xiangqi: the line from it.
    pub line: Option<Line>,
}

impl Imported {
    /// The state view of the imported position; a xiangqi one is judged
    /// by its line, so it shows the FEN's counters and the `history` to
    /// send with the next play.
    ///
    /// # Errors
    ///
    /// [`GameError::HistoryMismatch`] when the line does not replay, which
    /// a line of no moves always does.
    pub fn view(&self, base: &str) -> Result<String, GameError> {
        match &self.line {
            Some(line) => {
                let history = line.history().map_err(line::LineMismatch::from)?;
                Ok(line::view(&history, base))
            }
            None => Ok(view(&self.position, base)),
        }
    }
}

/// The export view of a position in `format` (the game's first when
/// `None`).
///
/// # Errors
///
/// [`GameError::UnsupportedFormat`].
pub fn export(pos: &AnyPosition, format: Option<&str>) -> Result<Box<RawValue>, GameError> {
    fn go<G: GameApi>(pos: &G, format: Option<&str>) -> Result<Box<RawValue>, GameError> {
        let formats = G::description().formats;
        if let Some(given) = format.filter(|f| !formats.contains(f)) {
            return Err(GameError::UnsupportedFormat {
                game: G::KIND,
                given: given.to_owned(),
                supported: formats,
                import: false,
            });
        }
        let code = pos.to_code();
        let view = ExportView {
            game: G::KIND.as_str(),
            code: &code,
            body: pos.export(),
        };
        serde_json::value::to_raw_value(&view).map_err(GameError::Render)
    }
    qipan_rules::with_position!(pos, p => go(p, format))
}

#[cfg(test)]
mod tests;
