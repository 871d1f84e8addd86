//! The stateless API's shapes: the state-view envelope every game shares,
//! its status, the game list, and the bodies and queries of start, play and
//! export.

use qipan_rules::{EndReason, Status};
use serde::{Deserialize, Serialize};

use super::json::{JsonOut, WriteJson, WriteMembers};

/// Body of `POST /v1/{game}/{code}/play` and `POST /v1/matches/{id}/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The actions to play in order, in the game's notation.
    pub actions: Vec<String>,
}

/// Body of `POST /v1/{game}/{code}/play`: the actions, and for xiangqi
/// the line that led to `{code}`, so the answer can judge repetitions and
/// the move limit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatePlayRequest {
    /// The actions to play in order, in the game's notation.
    pub actions: Vec<String>,
    /// The line since the last capture (xiangqi only).
    pub history: Option<LineBody>,
}

crate::json_object! {
    /// A xiangqi line as the stateless API sends and answers it: the FEN, with
    /// its halfmove clock and fullmove number, of the position before the last
    /// capture (or of the line's start), and the moves in ICCS from there.
    /// It is what a client sent, checked and passed on: every string is
    /// escaped if need be.
    #[derive(Debug, Clone, Deserialize, Serialize)]
    #[serde(deny_unknown_fields)]
    pub struct LineBody {
        /// The FEN the line starts from, all six fields.
        pub fen: String,
        /// The moves from it, in ICCS.
        pub moves: Vec<String>,
    }
}

/// Query of `GET /v1/{game}/start` (and the same members of a match's
/// creation body).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartQuery {
    /// The rule variant; the game's default when absent.
    pub variant: Option<String>,
    /// The seed of the game's random generator, for games with chance.
    pub seed: Option<u64>,
    /// The board size, for games played on more than one.
    pub size: Option<u8>,
}

/// Query of `GET /v1/{game}/{code}/export`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// The readable format; the game's first format when absent.
    pub format: Option<String>,
}

/// The view of one position: the members every game has, then the game's
/// own (`part`, flattened in).
#[derive(Debug, Serialize)]
pub struct StateView<'a, Board, Action, Part> {
    /// The game's name, as in paths.
    pub game: &'static str,
    /// The rule variant.
    pub variant: &'static str,
    /// The position's canonical code.
    pub code: &'a str,
    /// Its share URL: this view, for programs.
    pub url: &'a str,
    /// Its share page: the same position for people, a page with its
    /// picture and link previews.
    pub page: &'a str,
    /// The side to move.
    pub to_move: &'static str,
    /// How the game stands.
    pub status: StatusView,
    /// Whether the side to move is in check (xiangqi; false elsewhere).
    pub check: bool,
    /// The board, in the game's own shape.
    pub board: Board,
    /// Every legal action, with its notations.
    pub legal_actions: Vec<Action>,
    /// The game's own members.
    #[serde(flatten)]
    pub part: Part,
    /// The line to send with the next play, when this view answers a
    /// xiangqi play that sent one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<LineBody>,
}

impl<Board, Action, Part> WriteJson for StateView<'_, Board, Action, Part>
where
    Board: WriteJson,
    Action: WriteJson,
    Part: WriteMembers,
{
    fn write_json(&self, out: &mut JsonOut) {
        out.syntax("{\"game\":");
        self.game.write_json(out);
        out.syntax(",\"variant\":");
        self.variant.write_json(out);
        // The code and URLs come from the request (the URLs' base may be
        // its Host): checked, and escaped if need be.
        out.syntax(",\"code\":");
        out.string(self.code);
        out.syntax(",\"url\":");
        out.string(self.url);
        out.syntax(",\"page\":");
        out.string(self.page);
        out.syntax(",\"to_move\":");
        self.to_move.write_json(out);
        out.syntax(",\"status\":");
        self.status.write_json(out);
        out.syntax(",\"check\":");
        self.check.write_json(out);
        out.syntax(",\"board\":");
        self.board.write_json(out);
        out.syntax(",\"legal_actions\":");
        self.legal_actions.write_json(out);
        self.part.write_members(out);
        if let Some(history) = &self.history {
            out.syntax(",\"history\":");
            history.write_json(out);
        }
        out.syntax("}");
    }
}

/// Whether a game or match goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Play goes on.
    Ongoing,
    /// Somebody won.
    Won,
    /// Nobody won.
    Drawn,
    /// A one-player game (or a resigned solo match) has ended.
    Over,
}

impl State {
    /// The state's name, as serde writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Ongoing => "ongoing",
            State::Won => "won",
            State::Drawn => "drawn",
            State::Over => "over",
        }
    }
}

impl WriteJson for State {
    fn write_json(&self, out: &mut JsonOut) {
        out.name(self.as_str());
    }
}

crate::json_object! {
    /// `status` of a state or match view, and `outcome` of a `game-over`
    /// problem.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize)]
    pub struct StatusView {
        /// `ongoing`, `won`, `drawn` or `over`.
        pub state: State,
        /// The winner, when there is one.
        pub winner: Option<&'static str>,
        /// How the game ended, once it has.
        pub reason: Option<&'static str>,
    }
}

impl StatusView {
    /// The status of a game that goes on.
    pub const ONGOING: StatusView = StatusView {
        state: State::Ongoing,
        winner: None,
        reason: None,
    };

    /// The status of a position by its rules, with the winner's name.
    pub fn of<P>(status: Status<P>, name: impl Fn(P) -> &'static str) -> StatusView {
        let reason = |r: EndReason| Some(r.as_str());
        match status {
            Status::Ongoing => StatusView::ONGOING,
            Status::Won { winner, reason: r } => StatusView {
                state: State::Won,
                winner: Some(name(winner)),
                reason: reason(r),
            },
            Status::Drawn { reason: r } => StatusView {
                state: State::Drawn,
                winner: None,
                reason: reason(r),
            },
            Status::Over { reason: r } => StatusView {
                state: State::Over,
                winner: None,
                reason: reason(r),
            },
        }
    }

    /// The ending as a phrase: `checkmate, red wins`.
    pub fn phrase(&self) -> String {
        let what = self.reason.unwrap_or(self.state.as_str());
        match self.winner {
            Some(w) => format!("{what}, {w} wins"),
            None => what.to_owned(),
        }
    }
}

/// One entry of `GET /v1/games`.
#[derive(Debug, Serialize)]
pub struct GameInfo {
    /// The name used in paths.
    pub game: &'static str,
    /// A human name.
    pub title: &'static str,
    /// The players or sides, first to move first.
    pub players: Vec<&'static str>,
    /// The rule variants; the first is the default.
    pub variants: &'static [&'static str],
    /// How actions are written.
    pub action_syntax: ActionSyntax,
    /// Readable formats for import and export; the first is the default.
    pub formats: &'static [&'static str],
    /// Path of the start position.
    pub start: String,
}

/// What an adapter says of its game for `GET /v1/games` (the rest of the
/// entry comes from the game's kind).
#[derive(Debug)]
pub struct Description {
    /// A human name.
    pub title: &'static str,
    /// The rule variants; the first is the default.
    pub variants: &'static [&'static str],
    /// How actions are written.
    pub action_syntax: ActionSyntax,
    /// Readable formats for import and export; the first is the default.
    pub formats: &'static [&'static str],
}

/// Body of `GET /v1/games`.
#[derive(Debug, Serialize)]
pub struct GameList {
    /// Every game, in a stable order.
    pub games: Vec<GameInfo>,
}

/// How a game's actions are written.
#[derive(Debug, Serialize)]
pub struct ActionSyntax {
    /// The notation's name.
    pub notation: &'static str,
    /// A regular expression every well-formed action matches.
    pub pattern: &'static str,
    /// Examples.
    pub examples: &'static [&'static str],
    /// The notation in a sentence or two.
    pub description: &'static str,
}

/// The members every export view starts with, before the format's own.
#[derive(Debug, Serialize)]
pub struct ExportView<'a, Body> {
    /// The game's name.
    pub game: &'static str,
    /// The canonical code of the position.
    pub code: &'a str,
    /// The format's own members, `format` first.
    #[serde(flatten)]
    pub body: Body,
}

/// A value written in a view by its `Display` (a move, a point, a wall):
/// straight into the JSON text, with no string in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shown<T>(pub T);

impl<T: std::fmt::Display> Serialize for Shown<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}
