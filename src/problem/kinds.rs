//! Every kind of problem, declared once: its variant, `type` slug, HTTP
//! status, title and the description `/problems/{slug}` serves. The macro
//! below derives the enum, [`ProblemKind::ALL`] and the accessors from the
//! one table, so a kind cannot have a slug without a status or a page.

use actix_web::http::StatusCode;

macro_rules! problem_kinds {
    ($(
        $(#[doc = $doc:literal])*
        $kind:ident {
            slug: $slug:literal,
            status: $status:ident,
            title: $title:literal,
            description: $description:literal,
        },
    )+) => {
        /// Every kind of problem: its `type` slug, title and status.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum ProblemKind {
            $($(#[doc = $doc])* $kind,)+
        }

        impl ProblemKind {
            /// Every kind, in declaration order, for the documentation endpoint.
            pub const ALL: [ProblemKind; [$($slug),+].len()] = [$(ProblemKind::$kind),+];

            /// The slug that ends the `type` URI.
            pub fn slug(self) -> &'static str {
                match self {
                    $(ProblemKind::$kind => $slug,)+
                }
            }

            /// The short, fixed summary.
            pub fn title(self) -> &'static str {
                match self {
                    $(ProblemKind::$kind => $title,)+
                }
            }

            /// The HTTP status.
            pub fn status(self) -> StatusCode {
                match self {
                    $(ProblemKind::$kind => StatusCode::$status,)+
                }
            }

            /// What the kind means and how to fix the request, for
            /// `/problems/{slug}`.
            pub fn description(self) -> &'static str {
                match self {
                    $(ProblemKind::$kind => $description,)+
                }
            }
        }
    };
}

problem_kinds! {
    /// The path names a game qipan does not know.
    UnknownGame {
        slug: "unknown-game",
        status: NOT_FOUND,
        title: "Unknown game",
        description: "The {game} path segment is not one of the games listed by GET /v1/games.",
    },
    /// The state code cannot be decoded, or decodes to an impossible position.
    InvalidCode {
        slug: "invalid-code",
        status: BAD_REQUEST,
        title: "Invalid state code",
        description: "The state code in the path cannot be read. `reason` names the rule it breaks (wrong-length, padding, invalid-character, trailing-bits, unused-bit, square-out-of-range, two-pieces-on-one-point, too-many-pieces, missing-general, impossible-point, generals-facing, opponent-in-check); `offset` points at the character where one is at fault.",
    },
    /// An action in the request is not written in the game's notation.
    MalformedAction {
        slug: "malformed-action",
        status: UNPROCESSABLE_ENTITY,
        title: "Malformed action",
        description: "An action is not written in the game's notation. `index` is its place in the request's `actions`, `legal_actions` lists what may be played there.",
    },
    /// An action is well written but not legal in the position.
    IllegalAction {
        slug: "illegal-action",
        status: UNPROCESSABLE_ENTITY,
        title: "Illegal action",
        description: "An action is well written but not legal in the position reached. `index` is its place in `actions`, `legal_actions` lists what may be played there.",
    },
    /// The game is over: no action can be played.
    GameOver {
        slug: "game-over",
        status: CONFLICT,
        title: "Game over",
        description: "The position is final; no action can be played. `outcome` tells how the game ended.",
    },
    /// The text to import is not valid in its format.
    InvalidImport {
        slug: "invalid-import",
        status: BAD_REQUEST,
        title: "Invalid import",
        description: "The text to import is not valid in the format named. `reason` names the rule; `offset`, `rank` and `character` locate it where they apply.",
    },
    /// The format named for import or export is not supported by the game.
    UnsupportedFormat {
        slug: "unsupported-format",
        status: BAD_REQUEST,
        title: "Unsupported format",
        description: "The format is not one the game reads or writes; `supported` lists those it does.",
    },
    /// The variant named is not one of the game's.
    UnknownVariant {
        slug: "unknown-variant",
        status: BAD_REQUEST,
        title: "Unknown variant",
        description: "The variant is not one of the game's; `supported` lists them.",
    },
    /// A request field has a value outside what the endpoint accepts.
    InvalidField {
        slug: "invalid-field",
        status: BAD_REQUEST,
        title: "Invalid field",
        description: "A field of the request has a value the endpoint does not accept; `field` names it.",
    },
    /// The request body is not the JSON the endpoint expects.
    MalformedBody {
        slug: "malformed-body",
        status: BAD_REQUEST,
        title: "Malformed request body",
        description: "The body is not the JSON the endpoint expects; `detail` says where parsing stopped.",
    },
    /// The body is not sent as `application/json`.
    UnsupportedMediaType {
        slug: "unsupported-media-type",
        status: UNSUPPORTED_MEDIA_TYPE,
        title: "Unsupported media type",
        description: "Send the body with Content-Type: application/json.",
    },
    /// The body is larger than the endpoint accepts.
    BodyTooLarge {
        slug: "body-too-large",
        status: PAYLOAD_TOO_LARGE,
        title: "Request body too large",
        description: "The body is larger than `limit` bytes.",
    },
    /// The query string is not what the endpoint expects.
    InvalidQuery {
        slug: "invalid-query",
        status: BAD_REQUEST,
        title: "Invalid query string",
        description: "The query string does not fit the endpoint; `detail` says which parameter.",
    },
    /// A CORS preflight asked for a method or header the API does not allow.
    CorsRefused {
        slug: "cors-refused",
        status: BAD_REQUEST,
        title: "CORS request refused",
        description: "A CORS preflight asked for a method other than GET, POST or OPTIONS, or was otherwise refused; `detail` says why.",
    },
    /// No such route.
    NotFound {
        slug: "not-found",
        status: NOT_FOUND,
        title: "Not found",
        description: "No route matches this path; see /openapi.yaml.",
    },
    /// The route exists but not for this method.
    MethodNotAllowed {
        slug: "method-not-allowed",
        status: METHOD_NOT_ALLOWED,
        title: "Method not allowed",
        description: "The route exists but does not take this method; `allow` lists those it takes.",
    },
    /// Something failed inside the service; details are in its logs.
    Internal {
        slug: "internal",
        status: INTERNAL_SERVER_ERROR,
        title: "Internal error",
        description: "Something failed inside the service. The request may be retried; the cause is in the service's logs.",
    },
    /// The service runs without a database: matches are not served.
    MatchesDisabled {
        slug: "matches-disabled",
        status: SERVICE_UNAVAILABLE,
        title: "Matches are not served",
        description: "The service was started with --database-url none: the stateless API works, persisted matches do not.",
    },
    /// The database cannot be reached just now.
    DatabaseUnavailable {
        slug: "database-unavailable",
        status: SERVICE_UNAVAILABLE,
        title: "Database unavailable",
        description: "The database cannot be reached just now. Retry after the seconds in Retry-After, with If-Match: a write cut off mid-way may have landed, and If-Match keeps it from landing twice. The stateless API keeps working.",
    },
    /// The match id in the path is not a UUID.
    InvalidMatchId {
        slug: "invalid-match-id",
        status: BAD_REQUEST,
        title: "Invalid match id",
        description: "The match id in the path is not a UUID.",
    },
    /// No match has this id.
    UnknownMatch {
        slug: "unknown-match",
        status: NOT_FOUND,
        title: "Unknown match",
        description: "No match has this id.",
    },
    /// No seat token, or one that is not a seat's of this match.
    Unauthorized {
        slug: "unauthorized",
        status: UNAUTHORIZED,
        title: "Seat token required",
        description: "Send the seat token given when the match was created, joined or forked, as Authorization: Bearer <token>.",
    },
    /// The seat is not the one to move.
    NotYourTurn {
        slug: "not-your-turn",
        status: CONFLICT,
        title: "Not your turn",
        description: "The seat of the token is not the side to move (`to_move`); in a duel each seat plays only its own moves, `index` names the first action that is not.",
    },
    /// `If-Match` names a version the match is no longer at.
    StaleVersion {
        slug: "stale-version",
        status: PRECONDITION_FAILED,
        title: "Stale version",
        description: "If-Match names a version the match is no longer at; `version` is the current one. Read the match and decide again.",
    },
    /// Another write to the match landed while this one was being made.
    WriteConflict {
        slug: "write-conflict",
        status: CONFLICT,
        title: "Write conflict",
        description: "Another write to the match landed while this one was being made; nothing of this request was written. Read the match and retry.",
    },
    /// The invited seat has been taken already.
    SeatTaken {
        slug: "seat-taken",
        status: CONFLICT,
        title: "Seat taken",
        description: "The seat this invite is for has been taken.",
    },
    /// The invite is not one of this match's.
    InvalidInvite {
        slug: "invalid-invite",
        status: FORBIDDEN,
        title: "Invalid invite",
        description: "The invite is not one of this match's.",
    },
    /// No kept move can be taken back.
    NothingToUndo {
        slug: "nothing-to-undo",
        status: CONFLICT,
        title: "Nothing to undo",
        description: "No move that could be taken back is in the kept history (the last 100 moves).",
    },
    /// A takeback offer is pending from the other seat.
    UndoPending {
        slug: "undo-pending",
        status: CONFLICT,
        title: "Takeback offer pending",
        description: "The other seat has offered a takeback; accept or decline it first.",
    },
    /// There is no takeback offer to accept or decline.
    NoUndoOffer {
        slug: "no-undo-offer",
        status: CONFLICT,
        title: "No takeback offer",
        description: "No takeback is on offer in this match.",
    },
    /// A seat cannot accept its own takeback offer.
    OwnUndoOffer {
        slug: "own-undo-offer",
        status: CONFLICT,
        title: "Own takeback offer",
        description: "The other seat accepts a takeback offer; the offering seat may withdraw it with /undo/decline.",
    },
    /// The request is for duels only (offers), and the match is a solo match.
    NotADuel {
        slug: "not-a-duel",
        status: CONFLICT,
        title: "Not a duel",
        description: "Takeback and draw offers, clocks and claims are for duels; a solo match undoes at once with /undo.",
    },
    /// There is no draw offer to accept or decline.
    NoDrawOffer {
        slug: "no-draw-offer",
        status: CONFLICT,
        title: "No draw offer",
        description: "No draw is on offer in this match: offer one with /draw.",
    },
    /// A seat cannot accept its own draw offer.
    OwnDrawOffer {
        slug: "own-draw-offer",
        status: CONFLICT,
        title: "Own draw offer",
        description: "The other seat accepts a draw offer; the offering seat may withdraw it with /draw/decline (a move withdraws it too).",
    },
    /// A claim against a seat that left, when its conditions do not hold.
    ClaimRefused {
        slug: "claim-refused",
        status: CONFLICT,
        title: "Claim refused",
        description: "A claim (POST /v1/matches/{id}/claim) is made by the seat not to move, against a side to move that has no stream open and has been away for the abandonment time (`--abandon-after`, 5 minutes by default), counted from the latest of its last move, its taking the seat and its going offline, so a phone that slept briefly keeps its game. `reason` says which condition does not hold: own-turn, opponent-online, too-soon (with `claimable_at`), opponent-not-seated, or correspondence (a correspondence duel ends by its move deadline).",
    },
    /// The ply asked for is not in the kept history.
    PlyNotKept {
        slug: "ply-not-kept",
        status: UNPROCESSABLE_ENTITY,
        title: "Ply not kept",
        description: "The ply is not in the kept history; `oldest` and `latest` bound the plies that can be forked.",
    },
    /// Every seat is taken, or no invite is open.
    NoOpenSeat {
        slug: "no-open-seat",
        status: CONFLICT,
        title: "No open seat",
        description: "Every seat of the match is taken (or, to withdraw, no invite is open): there is no invitation to issue or withdraw.",
    },
    /// No seek has this id.
    UnknownSeek {
        slug: "unknown-seek",
        status: NOT_FOUND,
        title: "Unknown seek",
        description: "No seek has this id; GET /v1/lobby lists the open ones.",
    },
    /// The seek is no longer open.
    SeekClosed {
        slug: "seek-closed",
        status: CONFLICT,
        title: "Seek closed",
        description: "The seek is no longer open; `state` says why (taken, withdrawn, expired, left). GET /v1/lobby lists the open ones.",
    },
    /// The seeker tried to take their own seek.
    OwnSeek {
        slug: "own-seek",
        status: CONFLICT,
        title: "Own seek",
        description: "The token sent is the seeker's own: another player takes a seek (the seeker may withdraw it).",
    },
    /// The request is not a WebSocket handshake.
    NotAWebSocket {
        slug: "not-a-websocket",
        status: UPGRADE_REQUIRED,
        title: "WebSocket handshake required",
        description: "This endpoint is a WebSocket: open it with a WebSocket client (GET with Connection: Upgrade, Upgrade: websocket, Sec-WebSocket-Version: 13 and a Sec-WebSocket-Key). `detail` says what the handshake lacked.",
    },
    /// The request's body did not arrive in time.
    RequestTimeout {
        slug: "request-timeout",
        status: REQUEST_TIMEOUT,
        title: "Request timeout",
        description: "The body did not arrive within the service's body timeout (`--body-timeout`, 10 s by default) after the request began; the connection is closed. Send the body at once.",
    },
    /// The request names a host the service does not answer for.
    UnknownHost {
        slug: "unknown-host",
        status: MISDIRECTED_REQUEST,
        title: "Unknown host",
        description: "The request's Host is not one of the hosts this service answers for (`--allowed-hosts`, localhost by default, when no `--public-url` is set), so no share URL is built from it. Use the service's own address.",
    },
    /// The client has spent its budget for a kind of request.
    RateLimited {
        slug: "rate-limited",
        status: TOO_MANY_REQUESTS,
        title: "Rate limited",
        description: "This client address has spent its budget for this kind of request (`creates` per minute, `writes` or play `actions` per second; see the service's `--rate-*` settings). `search` counts milliseconds of analysis per second (`--rate-search`). Wait `Retry-After` seconds; `RateLimit-Policy` and `RateLimit` say which limit and how long.",
    },
    /// The client holds the most connections one client may.
    TooManyConnections {
        slug: "too-many-connections",
        status: SERVICE_UNAVAILABLE,
        title: "Too many connections",
        description: "This client address holds as many open connections as one client may (`--max-connections-per-client`); this connection is answered and closed. Reuse the open ones.",
    },
    /// The request head is over 128 KiB or has more than 96 header fields.
    HeadTooLarge {
        slug: "head-too-large",
        status: REQUEST_HEADER_FIELDS_TOO_LARGE,
        title: "Request head too large",
        description: "The request line and header fields together are 128 KiB or more, or there are more than 96 header fields. Answered before routing; the connection is closed.",
    },
    /// The request head is not HTTP/1.x as the service reads it.
    MalformedHead {
        slug: "malformed-head",
        status: BAD_REQUEST,
        title: "Malformed request head",
        description: "The request head is not HTTP/1.0 or HTTP/1.1 as the service reads it: a byte a request line or a header may not hold (a NUL, 0xFF), an unknown version, a method or target that is not one, a `Content-Length` that is not a number or is given twice, a `Transfer-Encoding` other than `chunked`, two `Host` fields or none in HTTP/1.1. `detail` says which. Answered before routing; the connection is closed.",
    },
    /// The `history` sent with a xiangqi play does not lead to its code.
    HistoryMismatch {
        slug: "history-mismatch",
        status: UNPROCESSABLE_ENTITY,
        title: "History does not lead to the code",
        description: "The `history` sent with POST /v1/xiangqi/{code}/play (the FEN before the last capture, with its halfmove clock and fullmove number, and the ICCS moves from there) must replay and end at the position of `code`. `field` names the member at fault (`history.fen`, `history.moves`), `reason` why: invalid-fen, not-iccs, illegal-move (`index` is the move's place in `history.moves`) or other-position (the line ends elsewhere; `detail` gives both FENs). Send the `history` of the previous answer, or a line from the game's start.",
    },
    /// The game has no search in this service yet.
    AnalysisUnavailable {
        slug: "analysis-unavailable",
        status: NOT_IMPLEMENTED,
        title: "Analysis unavailable",
        description: "GET or POST /v1/{game}/{code}/analysis and /move search the position; this game has no search in the service. `game` names it and `available` lists the games searched (today every game: the kind stays for games added later).",
    },
    /// Every search thread is busy and the search queue is full.
    AnalysisBusy {
        slug: "analysis-busy",
        status: SERVICE_UNAVAILABLE,
        title: "Analysis busy",
        description: "Every search thread is busy and the queue of waiting searches is full (`--analysis-threads`, `--analysis-queue`), or the service is shutting down. Retry after the seconds in Retry-After; the rest of the API is unaffected.",
    },
    /// A game record (PGN, XQF, DhtmlXQ, psq, a move list, a fumen) cannot
    /// be read: which move or byte, and why.
    InvalidRecord {
        slug: "invalid-record",
        status: UNPROCESSABLE_ENTITY,
        title: "Invalid game record",
        description: "The game record sent to POST /v1/{game}/records (or the fumen sent to POST /v1/tetris/import) cannot be read. `format` names the format read, `reason` why (unreadable-move, illegal-move, truncated, bad-encoding, not-xqf, too-long, …). A move that cannot be read or played is named by `move_number`, `side`, `text`, and `legal_moves` lists what could be played there, in the notation the file is written in; a binary file's fault by its byte `offset`; a text's by `line` and `column` (and `offset` in characters).",
    },
}

impl ProblemKind {
    /// The problem's `type` URI: a path on this service that documents it.
    pub fn type_uri(self) -> String {
        format!("/problems/{}", self.slug())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::ProblemKind;

    #[test]
    fn every_kind_has_its_own_slug_and_title() {
        let slugs: BTreeSet<_> = ProblemKind::ALL.iter().map(|k| k.slug()).collect();
        let titles: BTreeSet<_> = ProblemKind::ALL.iter().map(|k| k.title()).collect();
        assert_eq!(slugs.len(), ProblemKind::ALL.len());
        assert_eq!(titles.len(), ProblemKind::ALL.len());
        for kind in ProblemKind::ALL {
            assert!(
                kind.status().is_client_error() || kind.status().is_server_error(),
                "{kind:?} answers {}",
                kind.status()
            );
            assert!(
                !kind.description().is_empty(),
                "{kind:?} has no description"
            );
        }
    }
}
