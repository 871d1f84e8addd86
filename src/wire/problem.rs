//! The extension members of problems, as typed structs: one shape per kind
//! of problem, so a concept has one member name everywhere. A place on a
//! board is `row` and `column` in every game (and `point` when the game
//! names points); a place in a text is `offset` (characters from the start)
//! and, for multi-line texts, `row`.

use serde::Serialize;
use serde_json::value::RawValue;

use super::matches::UndoOfferView;
use super::StatusView;

/// Where in a code, text or board a fault lies. Only the members that apply
/// are sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Location {
    /// Offset of the character at fault, in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
    /// The character at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub character: Option<String>,
    /// The length found, in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    /// The length a code of this game always has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_length: Option<usize>,
    /// The byte of the decoded code at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte: Option<usize>,
    /// Two bytes of the decoded code at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<[usize; 2]>,
    /// The value found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u64>,
    /// A board row, or a line of a multi-line text (0 = the first written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// A board column (0 = the leftmost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// A point in the game's notation (`e6`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<String>,
    /// A file letter (`e`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Place of an item in a list (a move of a move list, a wall), from 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// A tile's exponent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exponent: Option<u8>,
    /// The least value allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    /// The greatest value allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

/// The extension members of one problem.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Members {
    /// No members beyond `type`, `title`, `status` and `detail`.
    None {},
    /// A request field or parameter at fault, and what it may be.
    Field(FieldMembers),
    /// A code or import refused by the rules: which member, which rule,
    /// where.
    Fault(FaultMembers),
    /// An action of a batch that cannot be played.
    Action(ActionMembers),
    /// The game or match is over.
    GameOver(GameOverMembers),
    /// A body over the limit.
    Limit(LimitMembers),
    /// Where a body stopped being JSON.
    Syntax(SyntaxMembers),
    /// The methods a route takes.
    Allow(AllowMembers),
    /// A match id that names no match.
    Match(MatchMembers),
    /// A seat that may not play this action.
    Turn(TurnMembers),
    /// The versions `If-Match` asked for.
    Stale(StaleMembers),
    /// The seat concerned.
    Seat(SeatMembers),
    /// What the kept history holds.
    Kept(KeptMembers),
    /// The takeback offer standing in the way.
    Offer(OfferMembers),
    /// The plies a fork may be taken from.
    Plies(PliesMembers),
    /// Where a seek stands.
    Seek(SeekMembers),
    /// The limit a client reached.
    Rate(RateMembers),
    /// Why a claim is refused.
    Claim(ClaimMembers),
    /// A game without a search, and the games with one.
    Analysis(AnalysisMembers),
    /// Where a game record stops being readable.
    Record(Box<RecordMembers>),
}

/// `analysis-unavailable`: the game asked for, and the games searched.
#[derive(Debug, Serialize)]
pub struct AnalysisMembers {
    /// The game of the request.
    pub game: &'static str,
    /// The games whose positions are searched.
    pub available: Vec<&'static str>,
}

/// `invalid-record`: the format, the rule broken, and where: a move (its
/// number, side, text and the legal moves), a byte, or a line and column.
#[derive(Debug, Serialize, Default)]
pub struct RecordMembers {
    /// The format read: `pgn`, `xqf`, `dhtmlxq`, `psq`, `pos`, `moves`, `fumen`.
    pub format: &'static str,
    /// The rule broken, in kebab case.
    pub reason: &'static str,
    /// The game of a file of several, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<usize>,
    /// The move number (a xiangqi move and its reply share one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_number: Option<u64>,
    /// The side to move there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<&'static str>,
    /// The ply, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// The move as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The moves legal there, in the file's notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<Vec<String>>,
    /// A byte offset (binary files, undecodable bytes) or a character
    /// offset (text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
    /// The line, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The column in characters, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The fumen page, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<usize>,
}

/// `claim-refused`: the condition that does not hold, the seat to move,
/// and (when it is only too soon) from when a claim can be made.
#[derive(Debug, Serialize)]
pub struct ClaimMembers {
    /// `own-turn`, `opponent-online`, `too-soon`, `opponent-not-seated` or
    /// `correspondence`.
    pub reason: &'static str,
    /// The seat to move, when the refusal concerns it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<&'static str>,
    /// For `too-soon`: from when a claim can be made (RFC 3339), if the seat
    /// to move stays away.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimable_at: Option<String>,
}

/// `rate-limited`: which limit, its quota, and when to try again (also in
/// the `Retry-After`, `RateLimit-Policy` and `RateLimit` headers).
#[derive(Debug, Serialize)]
pub struct RateMembers {
    /// `creates`, `writes`, `actions` or `search`.
    pub budget: &'static str,
    /// Units allowed per window.
    pub quota: u32,
    /// The window, in seconds.
    pub window: u64,
    /// Seconds until this request can pass.
    pub retry_after: u64,
}

/// `state`: why a seek is no longer open.
#[derive(Debug, Serialize)]
pub struct SeekMembers {
    /// `taken`, `withdrawn`, `expired` or `left`.
    pub state: &'static str,
}

/// `field`, and `supported` when the field takes one of a few values.
#[derive(Debug, Serialize)]
pub struct FieldMembers {
    /// The request member, query parameter, header or path segment.
    pub field: String,
    /// The item of a list member at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The values it may take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supported: Option<Vec<&'static str>>,
}

/// `invalid-code` and `invalid-import`.
#[derive(Debug, Serialize)]
pub struct FaultMembers {
    /// The member (or path segment) holding the code or text.
    pub field: String,
    /// The rule broken, in kebab case.
    pub reason: &'static str,
    /// Where.
    #[serde(flatten)]
    pub at: Box<Location>,
}

/// `malformed-action` and `illegal-action`.
#[derive(Debug, Serialize)]
pub struct ActionMembers {
    /// The action's place in `actions`, from 0.
    pub index: usize,
    /// The action as sent.
    pub action: String,
    /// Why it cannot be played, in kebab case.
    pub reason: &'static str,
    /// What may be played there, as the state view lists it.
    pub legal_actions: Box<RawValue>,
}

/// `game-over`.
#[derive(Debug, Serialize)]
pub struct GameOverMembers {
    /// The place in `actions` of the action refused, for a play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The action refused, for a play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// How the game ended.
    pub outcome: StatusView,
}

/// `body-too-large`.
#[derive(Debug, Serialize)]
pub struct LimitMembers {
    /// The most bytes accepted.
    pub limit: usize,
}

/// `malformed-body` for a body that is not JSON.
#[derive(Debug, Serialize)]
pub struct SyntaxMembers {
    /// The line of the body where parsing stopped, from 1.
    pub line: usize,
    /// The column where parsing stopped, from 1.
    pub column: usize,
}

/// `method-not-allowed`.
#[derive(Debug, Serialize)]
pub struct AllowMembers {
    /// The methods the route takes.
    pub allow: &'static [&'static str],
}

/// `unknown-match`.
#[derive(Debug, Serialize)]
pub struct MatchMembers {
    /// The id asked for.
    pub id: String,
}

/// `not-your-turn`.
#[derive(Debug, Serialize)]
pub struct TurnMembers {
    /// The place in `actions` of the first action that is not the seat's.
    pub index: usize,
    /// The side to move there.
    pub to_move: &'static str,
    /// The seat of the token.
    pub seat: &'static str,
}

/// `stale-version`.
#[derive(Debug, Serialize)]
pub struct StaleMembers {
    /// The versions `If-Match` named.
    pub asked: Vec<i64>,
    /// The match's version, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
}

/// `seat-taken`.
#[derive(Debug, Serialize)]
pub struct SeatMembers {
    /// The seat.
    pub seat: &'static str,
}

/// `nothing-to-undo`.
#[derive(Debug, Serialize)]
pub struct KeptMembers {
    /// The match's ply.
    pub ply: i64,
    /// How many moves a match keeps.
    pub kept: i64,
}

/// `undo-pending`.
#[derive(Debug, Serialize)]
pub struct OfferMembers {
    /// The offer.
    pub undo_offer: UndoOfferView,
}

/// `ply-not-kept`.
#[derive(Debug, Serialize)]
pub struct PliesMembers {
    /// Always `ply`.
    pub field: &'static str,
    /// The oldest ply a fork can start from.
    pub oldest: i64,
    /// The newest: the match's ply.
    pub latest: i64,
}
