//! RFC 9457 problem details: every error the service answers, actix's own
//! included, is `application/problem+json` with a stable `type` per kind.
//!
//! Handlers return [`ApiError`]; extractor errors (malformed JSON, bad
//! query, oversized body) are turned into problems by the handlers
//! registered in `startup.rs`; anything else that leaves as a plain error
//! response is rewritten by [`render_plain_errors`].

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use serde::Serialize;

use crate::wire::problem::{AllowMembers, LimitMembers, Members, SyntaxMembers};

mod mapping;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Every kind of problem: its `type` slug, title and status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// The path names a game qipan does not know.
    UnknownGame,
    /// The state code cannot be decoded, or decodes to an impossible position.
    InvalidCode,
    /// An action in the request is not written in the game's notation.
    MalformedAction,
    /// An action is well written but not legal in the position.
    IllegalAction,
    /// The game is over: no action can be played.
    GameOver,
    /// The text to import is not valid in its format.
    InvalidImport,
    /// The format named for import or export is not supported by the game.
    UnsupportedFormat,
    /// The variant named is not one of the game's.
    UnknownVariant,
    /// A request field has a value outside what the endpoint accepts.
    InvalidField,
    /// The request body is not the JSON the endpoint expects.
    MalformedBody,
    /// The body is not sent as `application/json`.
    UnsupportedMediaType,
    /// The body is larger than the endpoint accepts.
    BodyTooLarge,
    /// The query string is not what the endpoint expects.
    InvalidQuery,
    /// A CORS preflight asked for a method or header the API does not allow.
    CorsRefused,
    /// No such route.
    NotFound,
    /// The route exists but not for this method.
    MethodNotAllowed,
    /// Something failed inside the service; details are in its logs.
    Internal,
    /// The service runs without a database: matches are not served.
    MatchesDisabled,
    /// The database cannot be reached just now.
    DatabaseUnavailable,
    /// The match id in the path is not a UUID.
    InvalidMatchId,
    /// No match has this id.
    UnknownMatch,
    /// No seat token, or one that is not a seat's of this match.
    Unauthorized,
    /// The seat is not the one to move.
    NotYourTurn,
    /// `If-Match` names a version the match is no longer at.
    StaleVersion,
    /// Another write to the match landed while this one was being made.
    WriteConflict,
    /// The invited seat has been taken already.
    SeatTaken,
    /// The invite is not one of this match's.
    InvalidInvite,
    /// No kept move can be taken back.
    NothingToUndo,
    /// A takeback offer is pending from the other seat.
    UndoPending,
    /// There is no takeback offer to accept or decline.
    NoUndoOffer,
    /// A seat cannot accept its own takeback offer.
    OwnUndoOffer,
    /// The request is for duels only (offers), and the match is a solo match.
    NotADuel,
    /// There is no draw offer to accept or decline.
    NoDrawOffer,
    /// A seat cannot accept its own draw offer.
    OwnDrawOffer,
    /// A claim against a seat that left, when its conditions do not hold.
    ClaimRefused,
    /// The ply asked for is not in the kept history.
    PlyNotKept,
    /// Every seat is taken, or no invite is open.
    NoOpenSeat,
    /// No seek has this id.
    UnknownSeek,
    /// The seek is no longer open.
    SeekClosed,
    /// The seeker tried to take their own seek.
    OwnSeek,
    /// The request is not a WebSocket handshake.
    NotAWebSocket,
    /// The request's body did not arrive in time.
    RequestTimeout,
    /// The request names a host the service does not answer for.
    UnknownHost,
    /// The client has spent its budget for a kind of request.
    RateLimited,
    /// The client holds the most connections one client may.
    TooManyConnections,
    /// The request head is over 128 KiB or has more than 96 header fields.
    HeadTooLarge,
    /// The request head is not HTTP/1.x as the service reads it.
    MalformedHead,
    /// The `history` sent with a xiangqi play does not lead to its code.
    HistoryMismatch,
    /// The game has no search in this service yet.
    AnalysisUnavailable,
    /// Every search thread is busy and the search queue is full.
    AnalysisBusy,
    /// A game record (PGN, XQF, DhtmlXQ, psq, a move list, a fumen) cannot
    /// be read: which move or byte, and why.
    InvalidRecord,
}

impl ProblemKind {
    /// Every kind, for the documentation endpoint.
    pub const ALL: [ProblemKind; 51] = [
        ProblemKind::UnknownGame,
        ProblemKind::InvalidCode,
        ProblemKind::MalformedAction,
        ProblemKind::IllegalAction,
        ProblemKind::GameOver,
        ProblemKind::InvalidImport,
        ProblemKind::UnsupportedFormat,
        ProblemKind::UnknownVariant,
        ProblemKind::InvalidField,
        ProblemKind::MalformedBody,
        ProblemKind::UnsupportedMediaType,
        ProblemKind::BodyTooLarge,
        ProblemKind::InvalidQuery,
        ProblemKind::CorsRefused,
        ProblemKind::NotFound,
        ProblemKind::MethodNotAllowed,
        ProblemKind::Internal,
        ProblemKind::MatchesDisabled,
        ProblemKind::DatabaseUnavailable,
        ProblemKind::InvalidMatchId,
        ProblemKind::UnknownMatch,
        ProblemKind::Unauthorized,
        ProblemKind::NotYourTurn,
        ProblemKind::StaleVersion,
        ProblemKind::WriteConflict,
        ProblemKind::SeatTaken,
        ProblemKind::InvalidInvite,
        ProblemKind::NothingToUndo,
        ProblemKind::UndoPending,
        ProblemKind::NoUndoOffer,
        ProblemKind::OwnUndoOffer,
        ProblemKind::NotADuel,
        ProblemKind::NoDrawOffer,
        ProblemKind::OwnDrawOffer,
        ProblemKind::ClaimRefused,
        ProblemKind::PlyNotKept,
        ProblemKind::NoOpenSeat,
        ProblemKind::UnknownSeek,
        ProblemKind::SeekClosed,
        ProblemKind::OwnSeek,
        ProblemKind::NotAWebSocket,
        ProblemKind::RequestTimeout,
        ProblemKind::UnknownHost,
        ProblemKind::RateLimited,
        ProblemKind::TooManyConnections,
        ProblemKind::HeadTooLarge,
        ProblemKind::MalformedHead,
        ProblemKind::HistoryMismatch,
        ProblemKind::AnalysisUnavailable,
        ProblemKind::AnalysisBusy,
        ProblemKind::InvalidRecord,
    ];

    /// The slug that ends the `type` URI.
    pub fn slug(self) -> &'static str {
        match self {
            ProblemKind::UnknownGame => "unknown-game",
            ProblemKind::InvalidCode => "invalid-code",
            ProblemKind::MalformedAction => "malformed-action",
            ProblemKind::IllegalAction => "illegal-action",
            ProblemKind::GameOver => "game-over",
            ProblemKind::InvalidImport => "invalid-import",
            ProblemKind::UnsupportedFormat => "unsupported-format",
            ProblemKind::UnknownVariant => "unknown-variant",
            ProblemKind::InvalidField => "invalid-field",
            ProblemKind::MalformedBody => "malformed-body",
            ProblemKind::UnsupportedMediaType => "unsupported-media-type",
            ProblemKind::BodyTooLarge => "body-too-large",
            ProblemKind::InvalidQuery => "invalid-query",
            ProblemKind::CorsRefused => "cors-refused",
            ProblemKind::NotFound => "not-found",
            ProblemKind::MethodNotAllowed => "method-not-allowed",
            ProblemKind::Internal => "internal",
            ProblemKind::MatchesDisabled => "matches-disabled",
            ProblemKind::DatabaseUnavailable => "database-unavailable",
            ProblemKind::InvalidMatchId => "invalid-match-id",
            ProblemKind::UnknownMatch => "unknown-match",
            ProblemKind::Unauthorized => "unauthorized",
            ProblemKind::NotYourTurn => "not-your-turn",
            ProblemKind::StaleVersion => "stale-version",
            ProblemKind::WriteConflict => "write-conflict",
            ProblemKind::SeatTaken => "seat-taken",
            ProblemKind::InvalidInvite => "invalid-invite",
            ProblemKind::NothingToUndo => "nothing-to-undo",
            ProblemKind::UndoPending => "undo-pending",
            ProblemKind::NoUndoOffer => "no-undo-offer",
            ProblemKind::OwnUndoOffer => "own-undo-offer",
            ProblemKind::NotADuel => "not-a-duel",
            ProblemKind::NoDrawOffer => "no-draw-offer",
            ProblemKind::OwnDrawOffer => "own-draw-offer",
            ProblemKind::ClaimRefused => "claim-refused",
            ProblemKind::PlyNotKept => "ply-not-kept",
            ProblemKind::NoOpenSeat => "no-open-seat",
            ProblemKind::UnknownSeek => "unknown-seek",
            ProblemKind::SeekClosed => "seek-closed",
            ProblemKind::OwnSeek => "own-seek",
            ProblemKind::NotAWebSocket => "not-a-websocket",
            ProblemKind::RequestTimeout => "request-timeout",
            ProblemKind::UnknownHost => "unknown-host",
            ProblemKind::RateLimited => "rate-limited",
            ProblemKind::TooManyConnections => "too-many-connections",
            ProblemKind::HeadTooLarge => "head-too-large",
            ProblemKind::MalformedHead => "malformed-head",
            ProblemKind::HistoryMismatch => "history-mismatch",
            ProblemKind::AnalysisUnavailable => "analysis-unavailable",
            ProblemKind::AnalysisBusy => "analysis-busy",
            ProblemKind::InvalidRecord => "invalid-record",
        }
    }

    /// The problem's `type` URI: a path on this service that documents it.
    pub fn type_uri(self) -> String {
        format!("/problems/{}", self.slug())
    }

    /// The short, fixed summary.
    pub fn title(self) -> &'static str {
        match self {
            ProblemKind::UnknownGame => "Unknown game",
            ProblemKind::InvalidCode => "Invalid state code",
            ProblemKind::MalformedAction => "Malformed action",
            ProblemKind::IllegalAction => "Illegal action",
            ProblemKind::GameOver => "Game over",
            ProblemKind::InvalidImport => "Invalid import",
            ProblemKind::UnsupportedFormat => "Unsupported format",
            ProblemKind::UnknownVariant => "Unknown variant",
            ProblemKind::InvalidField => "Invalid field",
            ProblemKind::MalformedBody => "Malformed request body",
            ProblemKind::UnsupportedMediaType => "Unsupported media type",
            ProblemKind::BodyTooLarge => "Request body too large",
            ProblemKind::InvalidQuery => "Invalid query string",
            ProblemKind::CorsRefused => "CORS request refused",
            ProblemKind::NotFound => "Not found",
            ProblemKind::MethodNotAllowed => "Method not allowed",
            ProblemKind::Internal => "Internal error",
            ProblemKind::MatchesDisabled => "Matches are not served",
            ProblemKind::DatabaseUnavailable => "Database unavailable",
            ProblemKind::InvalidMatchId => "Invalid match id",
            ProblemKind::UnknownMatch => "Unknown match",
            ProblemKind::Unauthorized => "Seat token required",
            ProblemKind::NotYourTurn => "Not your turn",
            ProblemKind::StaleVersion => "Stale version",
            ProblemKind::WriteConflict => "Write conflict",
            ProblemKind::SeatTaken => "Seat taken",
            ProblemKind::InvalidInvite => "Invalid invite",
            ProblemKind::NothingToUndo => "Nothing to undo",
            ProblemKind::UndoPending => "Takeback offer pending",
            ProblemKind::NoUndoOffer => "No takeback offer",
            ProblemKind::OwnUndoOffer => "Own takeback offer",
            ProblemKind::NotADuel => "Not a duel",
            ProblemKind::NoDrawOffer => "No draw offer",
            ProblemKind::OwnDrawOffer => "Own draw offer",
            ProblemKind::ClaimRefused => "Claim refused",
            ProblemKind::PlyNotKept => "Ply not kept",
            ProblemKind::NoOpenSeat => "No open seat",
            ProblemKind::UnknownSeek => "Unknown seek",
            ProblemKind::SeekClosed => "Seek closed",
            ProblemKind::OwnSeek => "Own seek",
            ProblemKind::NotAWebSocket => "WebSocket handshake required",
            ProblemKind::RequestTimeout => "Request timeout",
            ProblemKind::UnknownHost => "Unknown host",
            ProblemKind::RateLimited => "Rate limited",
            ProblemKind::TooManyConnections => "Too many connections",
            ProblemKind::HeadTooLarge => "Request head too large",
            ProblemKind::MalformedHead => "Malformed request head",
            ProblemKind::HistoryMismatch => "History does not lead to the code",
            ProblemKind::AnalysisUnavailable => "Analysis unavailable",
            ProblemKind::AnalysisBusy => "Analysis busy",
            ProblemKind::InvalidRecord => "Invalid game record",
        }
    }

    /// The HTTP status.
    pub fn status(self) -> StatusCode {
        match self {
            ProblemKind::UnknownGame | ProblemKind::NotFound => StatusCode::NOT_FOUND,
            ProblemKind::InvalidCode
            | ProblemKind::InvalidImport
            | ProblemKind::UnsupportedFormat
            | ProblemKind::UnknownVariant
            | ProblemKind::InvalidField
            | ProblemKind::MalformedBody
            | ProblemKind::InvalidQuery
            | ProblemKind::CorsRefused
            | ProblemKind::InvalidMatchId => StatusCode::BAD_REQUEST,
            ProblemKind::UnknownMatch => StatusCode::NOT_FOUND,
            ProblemKind::Unauthorized => StatusCode::UNAUTHORIZED,
            ProblemKind::InvalidInvite => StatusCode::FORBIDDEN,
            ProblemKind::NotYourTurn
            | ProblemKind::WriteConflict
            | ProblemKind::SeatTaken
            | ProblemKind::NothingToUndo
            | ProblemKind::UndoPending
            | ProblemKind::NoUndoOffer
            | ProblemKind::OwnUndoOffer
            | ProblemKind::NotADuel
            | ProblemKind::NoDrawOffer
            | ProblemKind::OwnDrawOffer
            | ProblemKind::ClaimRefused => StatusCode::CONFLICT,
            ProblemKind::StaleVersion => StatusCode::PRECONDITION_FAILED,
            ProblemKind::NoOpenSeat => StatusCode::CONFLICT,
            ProblemKind::UnknownSeek => StatusCode::NOT_FOUND,
            ProblemKind::SeekClosed => StatusCode::CONFLICT,
            ProblemKind::OwnSeek => StatusCode::CONFLICT,
            ProblemKind::NotAWebSocket => StatusCode::UPGRADE_REQUIRED,
            ProblemKind::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            ProblemKind::UnknownHost => StatusCode::MISDIRECTED_REQUEST,
            ProblemKind::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ProblemKind::TooManyConnections => StatusCode::SERVICE_UNAVAILABLE,
            ProblemKind::HeadTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ProblemKind::MalformedHead => StatusCode::BAD_REQUEST,
            ProblemKind::PlyNotKept => StatusCode::UNPROCESSABLE_ENTITY,
            ProblemKind::MatchesDisabled | ProblemKind::DatabaseUnavailable => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ProblemKind::MalformedAction
            | ProblemKind::IllegalAction
            | ProblemKind::HistoryMismatch
            | ProblemKind::InvalidRecord => StatusCode::UNPROCESSABLE_ENTITY,
            ProblemKind::GameOver => StatusCode::CONFLICT,
            ProblemKind::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ProblemKind::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ProblemKind::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ProblemKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ProblemKind::AnalysisUnavailable => StatusCode::NOT_IMPLEMENTED,
            ProblemKind::AnalysisBusy => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// What the kind means and how to fix the request, for `/problems/{slug}`.
    pub fn description(self) -> &'static str {
        match self {
            ProblemKind::UnknownGame => "The {game} path segment is not one of the games listed by GET /v1/games.",
            ProblemKind::InvalidCode => "The state code in the path cannot be read. `reason` names the rule it breaks (wrong-length, padding, invalid-character, trailing-bits, unused-bit, square-out-of-range, two-pieces-on-one-point, too-many-pieces, missing-general, impossible-point, generals-facing, opponent-in-check); `offset` points at the character where one is at fault.",
            ProblemKind::MalformedAction => "An action is not written in the game's notation. `index` is its place in the request's `actions`, `legal_actions` lists what may be played there.",
            ProblemKind::IllegalAction => "An action is well written but not legal in the position reached. `index` is its place in `actions`, `legal_actions` lists what may be played there.",
            ProblemKind::GameOver => "The position is final; no action can be played. `outcome` tells how the game ended.",
            ProblemKind::InvalidImport => "The text to import is not valid in the format named. `reason` names the rule; `offset`, `rank` and `character` locate it where they apply.",
            ProblemKind::UnsupportedFormat => "The format is not one the game reads or writes; `supported` lists those it does.",
            ProblemKind::UnknownVariant => "The variant is not one of the game's; `supported` lists them.",
            ProblemKind::InvalidField => "A field of the request has a value the endpoint does not accept; `field` names it.",
            ProblemKind::MalformedBody => "The body is not the JSON the endpoint expects; `detail` says where parsing stopped.",
            ProblemKind::UnsupportedMediaType => "Send the body with Content-Type: application/json.",
            ProblemKind::BodyTooLarge => "The body is larger than `limit` bytes.",
            ProblemKind::InvalidQuery => "The query string does not fit the endpoint; `detail` says which parameter.",
            ProblemKind::CorsRefused => "A CORS preflight asked for a method other than GET, POST or OPTIONS, or was otherwise refused; `detail` says why.",
            ProblemKind::NotFound => "No route matches this path; see /openapi.yaml.",
            ProblemKind::MethodNotAllowed => "The route exists but does not take this method; `allow` lists those it takes.",
            ProblemKind::Internal => "Something failed inside the service. The request may be retried; the cause is in the service's logs.",
            ProblemKind::MatchesDisabled => "The service was started with --database-url none: the stateless API works, persisted matches do not.",
            ProblemKind::DatabaseUnavailable => "The database cannot be reached just now. Retry after the seconds in Retry-After, with If-Match: a write cut off mid-way may have landed, and If-Match keeps it from landing twice. The stateless API keeps working.",
            ProblemKind::InvalidMatchId => "The match id in the path is not a UUID.",
            ProblemKind::UnknownMatch => "No match has this id.",
            ProblemKind::Unauthorized => "Send the seat token given when the match was created, joined or forked, as Authorization: Bearer <token>.",
            ProblemKind::NotYourTurn => "The seat of the token is not the side to move (`to_move`); in a duel each seat plays only its own moves, `index` names the first action that is not.",
            ProblemKind::StaleVersion => "If-Match names a version the match is no longer at; `version` is the current one. Read the match and decide again.",
            ProblemKind::WriteConflict => "Another write to the match landed while this one was being made; nothing of this request was written. Read the match and retry.",
            ProblemKind::SeatTaken => "The seat this invite is for has been taken.",
            ProblemKind::InvalidInvite => "The invite is not one of this match's.",
            ProblemKind::NothingToUndo => "No move that could be taken back is in the kept history (the last 100 moves).",
            ProblemKind::UndoPending => "The other seat has offered a takeback; accept or decline it first.",
            ProblemKind::NoUndoOffer => "No takeback is on offer in this match.",
            ProblemKind::OwnUndoOffer => "The other seat accepts a takeback offer; the offering seat may withdraw it with /undo/decline.",
            ProblemKind::NotADuel => "Takeback and draw offers, clocks and claims are for duels; a solo match undoes at once with /undo.",
            ProblemKind::NoDrawOffer => "No draw is on offer in this match: offer one with /draw.",
            ProblemKind::OwnDrawOffer => "The other seat accepts a draw offer; the offering seat may withdraw it with /draw/decline (a move withdraws it too).",
            ProblemKind::ClaimRefused => "A claim (POST /v1/matches/{id}/claim) is made by the seat not to move, against a side to move that has no stream open and has been away for the abandonment time (`--abandon-after`, 5 minutes by default), counted from the latest of its last move, its taking the seat and its going offline, so a phone that slept briefly keeps its game. `reason` says which condition does not hold: own-turn, opponent-online, too-soon (with `claimable_at`), opponent-not-seated, or correspondence (a correspondence duel ends by its move deadline).",
            ProblemKind::PlyNotKept => "The ply is not in the kept history; `oldest` and `latest` bound the plies that can be forked.",
            ProblemKind::NoOpenSeat => "Every seat of the match is taken (or, to withdraw, no invite is open): there is no invitation to issue or withdraw.",
            ProblemKind::UnknownSeek => "No seek has this id; GET /v1/lobby lists the open ones.",
            ProblemKind::SeekClosed => "The seek is no longer open; `state` says why (taken, withdrawn, expired, left). GET /v1/lobby lists the open ones.",
            ProblemKind::OwnSeek => "The token sent is the seeker's own: another player takes a seek (the seeker may withdraw it).",
            ProblemKind::NotAWebSocket => "This endpoint is a WebSocket: open it with a WebSocket client (GET with Connection: Upgrade, Upgrade: websocket, Sec-WebSocket-Version: 13 and a Sec-WebSocket-Key). `detail` says what the handshake lacked.",
            ProblemKind::RequestTimeout => "The body did not arrive within the service's body timeout (`--body-timeout`, 10 s by default) after the request began; the connection is closed. Send the body at once.",
            ProblemKind::UnknownHost => "The request's Host is not one of the hosts this service answers for (`--allowed-hosts`, localhost by default, when no `--public-url` is set), so no share URL is built from it. Use the service's own address.",
            ProblemKind::RateLimited => "This client address has spent its budget for this kind of request (`creates` per minute, `writes` or play `actions` per second; see the service's `--rate-*` settings). `search` counts milliseconds of analysis per second (`--rate-search`). Wait `Retry-After` seconds; `RateLimit-Policy` and `RateLimit` say which limit and how long.",
            ProblemKind::HistoryMismatch => "The `history` sent with POST /v1/xiangqi/{code}/play (the FEN before the last capture, with its halfmove clock and fullmove number, and the ICCS moves from there) must replay and end at the position of `code`. `field` names the member at fault (`history.fen`, `history.moves`), `reason` why: invalid-fen, not-iccs, illegal-move (`index` is the move's place in `history.moves`) or other-position (the line ends elsewhere; `detail` gives both FENs). Send the `history` of the previous answer, or a line from the game's start.",
            ProblemKind::AnalysisUnavailable => "GET or POST /v1/{game}/{code}/analysis and /move search the position; this game has no search in the service. `game` names it and `available` lists the games searched (today every game: the kind stays for games added later).",
            ProblemKind::AnalysisBusy => "Every search thread is busy and the queue of waiting searches is full (`--analysis-threads`, `--analysis-queue`), or the service is shutting down. Retry after the seconds in Retry-After; the rest of the API is unaffected.",
            ProblemKind::InvalidRecord => "The game record sent to POST /v1/{game}/records (or the fumen sent to POST /v1/tetris/import) cannot be read. `format` names the format read, `reason` why (unreadable-move, illegal-move, truncated, bad-encoding, not-xqf, too-long, …). A move that cannot be read or played is named by `move_number`, `side`, `text`, and `legal_moves` lists what could be played there, in the notation the file is written in; a binary file's fault by its byte `offset`; a text's by `line` and `column` (and `offset` in characters).",
            ProblemKind::TooManyConnections => "This client address holds as many open connections as one client may (`--max-connections-per-client`); this connection is answered and closed. Reuse the open ones.",
            ProblemKind::HeadTooLarge => "The request line and header fields together are 128 KiB or more, or there are more than 96 header fields. Answered before routing; the connection is closed.",
            ProblemKind::MalformedHead => "The request head is not HTTP/1.0 or HTTP/1.1 as the service reads it: a byte a request line or a header may not hold (a NUL, 0xFF), an unknown version, a method or target that is not one, a `Content-Length` that is not a number or is given twice, a `Transfer-Encoding` other than `chunked`, two `Host` fields or none in HTTP/1.1. `detail` says which. Answered before routing; the connection is closed.",
        }
    }
}

/// One problem, ready to send: a kind, a detail and its typed extension
/// members.
#[derive(Debug)]
pub struct Problem {
    /// The kind, giving `type`, `title` and `status`.
    pub kind: ProblemKind,
    /// What went wrong with this request, in a sentence.
    pub detail: String,
    /// The kind's extension members.
    pub members: Members,
}

/// The JSON body of a problem.
#[derive(Serialize)]
struct Body<'a> {
    #[serde(rename = "type")]
    type_uri: String,
    title: &'static str,
    status: u16,
    detail: &'a str,
    #[serde(flatten)]
    members: &'a Members,
}

impl Problem {
    /// A problem with no extension members.
    pub fn new(kind: ProblemKind, detail: impl Into<String>) -> Problem {
        Problem::with(kind, detail, Members::None {})
    }

    /// A problem with its extension members.
    pub fn with(kind: ProblemKind, detail: impl Into<String>, members: Members) -> Problem {
        Problem {
            kind,
            detail: detail.into(),
            members,
        }
    }

    /// The JSON body, with `status` as given (the kind's, unless actix
    /// answered another).
    fn body(&self, status: StatusCode) -> String {
        let body = Body {
            type_uri: self.kind.type_uri(),
            title: self.kind.title(),
            status: status.as_u16(),
            detail: &self.detail,
            members: &self.members,
        };
        serde_json::to_string(&body).unwrap_or_else(|e| {
            // Members are plain structs of strings and numbers; should one
            // ever fail, the problem still goes out, without them.
            tracing::error!(error = %e, "a problem's members failed to serialize");
            format!(
                "{{\"type\":\"{}\",\"title\":\"{}\",\"status\":{}}}",
                self.kind.type_uri(),
                self.kind.title(),
                status.as_u16()
            )
        })
    }

    /// The JSON body, for an answer written without actix (a connection
    /// refused as it is accepted).
    pub fn body_json(&self) -> String {
        self.body(self.kind.status())
    }

    /// A whole HTTP/1.1 answer carrying the problem, for an answer written
    /// straight to a connection, without actix (a connection over its
    /// address's cap, a request head refused before the HTTP library reads
    /// it). The connection closes after it. It carries the headers
    /// `routes::exposure` gives every other answer.
    pub fn raw_answer(&self) -> Vec<u8> {
        let status = self.kind.status();
        let body = self.body_json();
        let mut bytes = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: {PROBLEM_JSON}\r\ncache-control: no-store\r\n\
             x-content-type-options: nosniff\r\nreferrer-policy: no-referrer\r\n\
             content-security-policy: frame-ancestors 'none'\r\nx-frame-options: DENY\r\n\
             connection: close\r\ncontent-length: {}\r\n\r\n",
            status.as_u16(),
            status.canonical_reason().unwrap_or(""),
            body.len()
        )
        .into_bytes();
        bytes.extend_from_slice(body.as_bytes());
        bytes
    }

    /// The full response.
    pub fn response(&self) -> HttpResponse {
        self.response_with(self.kind.status())
    }

    fn response_with(&self, status: StatusCode) -> HttpResponse {
        let mut builder = HttpResponse::build(status);
        builder.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        builder.insert_header((header::CACHE_CONTROL, "no-store"));
        match self.kind {
            ProblemKind::Unauthorized => {
                builder.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"qipan\""));
            }
            ProblemKind::DatabaseUnavailable | ProblemKind::AnalysisBusy => {
                builder.insert_header((header::RETRY_AFTER, "1"));
            }
            ProblemKind::NotAWebSocket => {
                builder.insert_header((header::UPGRADE, "websocket"));
            }
            _ => {}
        }
        if let Members::Allow(AllowMembers { allow }) = &self.members {
            builder.insert_header((header::ALLOW, allow.join(", ")));
        }
        if let Members::Rate(r) = &self.members {
            builder.insert_header((header::RETRY_AFTER, r.retry_after.to_string()));
            builder.insert_header((
                "RateLimit-Policy",
                format!("\"{}\";q={};w={}", r.budget, r.quota, r.window),
            ));
            builder.insert_header((
                "RateLimit",
                format!("\"{}\";r=0;t={}", r.budget, r.retry_after),
            ));
        }
        builder.body(self.body(status))
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.slug(), self.detail)
    }
}

/// The error type of every handler.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A client error, sent as it is.
    #[error("{0}")]
    Problem(Problem),
    /// The database cannot be reached: a problem for the client, and a
    /// cause for the logs.
    #[error("{problem}")]
    Unavailable {
        /// What the client is told.
        problem: Problem,
        /// What went wrong.
        cause: anyhow::Error,
    },
    /// A failure inside the service: logged with its cause chain, answered
    /// with an opaque 500.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<Problem> for ApiError {
    fn from(p: Problem) -> Self {
        ApiError::Problem(p)
    }
}

impl ApiError {
    /// The problem+json body a client is sent, for a transport that is not
    /// an HTTP response (a WebSocket message).
    pub fn body(&self) -> String {
        match self {
            ApiError::Problem(p) | ApiError::Unavailable { problem: p, .. } => {
                p.body(p.kind.status())
            }
            ApiError::Internal(_) => internal().body(StatusCode::INTERNAL_SERVER_ERROR),
        }
    }

    /// Logs a failure of the service itself (the request middleware calls
    /// this, naming the request); client errors are not logged.
    pub fn log(&self, request: &str) {
        match self {
            ApiError::Problem(_) => {}
            ApiError::Unavailable { cause, .. } => {
                tracing::warn!(request, error = %cause, "database unavailable");
            }
            ApiError::Internal(e) => tracing::error!(request, error = ?e, "internal error"),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Problem(p) | ApiError::Unavailable { problem: p, .. } => p.kind.status(),
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            ApiError::Problem(p) | ApiError::Unavailable { problem: p, .. } => p.response(),
            ApiError::Internal(_) => internal().response(),
        }
    }
}

fn internal() -> Problem {
    Problem::new(
        ProblemKind::Internal,
        "the service failed to answer this request; it has been logged",
    )
}

/// Turns actix's JSON extractor errors into problems.
pub fn json_error(err: actix_web::error::JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as E;
    let problem = match &err {
        E::OverflowKnownLength { length, limit } => Problem::with(
            ProblemKind::BodyTooLarge,
            format!("the body has {length} bytes, at most {limit} are accepted"),
            Members::Limit(LimitMembers { limit: *limit }),
        ),
        E::Overflow { limit } => Problem::with(
            ProblemKind::BodyTooLarge,
            format!("the body is larger than {limit} bytes"),
            Members::Limit(LimitMembers { limit: *limit }),
        ),
        E::ContentType => return ApiError::from(crate::routes::json::NotJson::of(req)).into(),
        E::Deserialize(e) => {
            let detail = format!("the body is not valid here: {e}");
            if e.is_data() {
                Problem::new(ProblemKind::MalformedBody, detail)
            } else {
                let at = SyntaxMembers {
                    line: e.line(),
                    column: e.column(),
                };
                Problem::with(ProblemKind::MalformedBody, detail, Members::Syntax(at))
            }
        }
        other => Problem::new(
            ProblemKind::MalformedBody,
            format!("the body could not be read: {other}"),
        ),
    };
    ApiError::Problem(problem).into()
}

/// Turns actix's query extractor errors into problems.
pub fn query_error(
    err: actix_web::error::QueryPayloadError,
    _req: &HttpRequest,
) -> actix_web::Error {
    ApiError::Problem(Problem::new(ProblemKind::InvalidQuery, err.to_string())).into()
}

/// Turns actix's path extractor errors into problems.
pub fn path_error(err: actix_web::error::PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::Problem(Problem::new(ProblemKind::NotFound, err.to_string())).into()
}

/// The default service: no route matched.
pub async fn not_found(req: HttpRequest) -> HttpResponse {
    Problem::new(
        ProblemKind::NotFound,
        format!("no route matches {} {}", req.method(), req.path()),
    )
    .response()
}

/// A resource's default service: the path exists but not for this method.
pub fn method_not_allowed(
    allow: &'static [&'static str],
) -> impl Fn(HttpRequest) -> std::future::Ready<HttpResponse> + Clone {
    move |req: HttpRequest| {
        std::future::ready(
            Problem::with(
                ProblemKind::MethodNotAllowed,
                format!(
                    "{} does not take {}; it takes {}",
                    req.path(),
                    req.method(),
                    allow.join(", ")
                ),
                Members::Allow(AllowMembers { allow }),
            )
            .response(),
        )
    }
}

/// Rewrites any error response that is not yet a problem (raised by actix
/// itself before a handler ran) as one, keeping its status.
pub fn render_plain_errors<B: MessageBody + 'static>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v == HeaderValue::from_static(PROBLEM_JSON));
    if is_problem {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let kind = match status {
        StatusCode::NOT_FOUND => ProblemKind::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ProblemKind::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => ProblemKind::BodyTooLarge,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ProblemKind::UnsupportedMediaType,
        _ if res
            .response()
            .error()
            .and_then(|e| e.as_error::<actix_cors::CorsError>())
            .is_some() =>
        {
            ProblemKind::CorsRefused
        }
        s if s.is_server_error() => ProblemKind::Internal,
        _ => ProblemKind::MalformedBody,
    };
    let detail = res
        .response()
        .error()
        .map(|e| e.to_string())
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_owned());
    let response = Problem::new(kind, detail)
        .response_with(status)
        .map_into_boxed_body();
    let (req, _) = res.into_parts();
    Ok(ErrorHandlerResponse::Response(
        ServiceResponse::new(req, response).map_into_right_body::<B>(),
    ))
}
